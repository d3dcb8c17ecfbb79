/* greedy-constructors.c - the greedy constructors of korndoerfer2021 Section 6.3, as
 * MapLib implements them (mapper/mapping.py, mapper/mapping_compl.py):
 * `greedy_hoefler`, `fhgreedy`, `greedy_allc`, `pacmap` and `topo_aware`.
 * Written anew from the papers and MapLib's description; distances are the
 * platform's route hops everywhere, where MapLib uses Manhattan distance
 * (which on a torus ignores the wrap links) or graph distance. Tasks go one
 * per node (strategy_run groups the tasks of a node first); the edge weight
 * between two tasks is their traffic both ways. Ties go to the lower task
 * and node id, as MapLib's ordered scans do.
 *
 *  - greedy_hoefler (Hoefler and Snir 2011, MapLib `greedy`): the heaviest
 *    unmapped task (weighted degree) goes to the node nearest the centre;
 *    then, heaviest edge first, the unmapped end of each edge leaving the
 *    mapped set goes to the free node nearest its mapped end. MapLib
 *    searches from the node used last instead; Hoefler and Snir also weigh
 *    the links by the traffic routed so far, which we leave out.
 *  - fhgreedy (deveci2015's greedy as MapLib's Fast_High_Greedy; our
 *    `greedy` follows the paper): the heaviest task on the centre node;
 *    then the task most connected to the mapped ones; its candidates are,
 *    for every mapped neighbour, the free node nearest that neighbour's
 *    node; a task without mapped neighbours goes to the free node farthest
 *    from the used ones. MapLib picks the candidate by the hop-bytes of the
 *    one edge it came from; we take the candidate of least hop-bytes to all
 *    mapped neighbours.
 *  - greedy_allc (Glantz, Meyerhenke et al., GreedyAllC): the heaviest task
 *    on the most central node (least total distance to all others); then
 *    the task most connected to the mapped ones goes to the free node, among
 *    all of them, of least hop-bytes to its mapped neighbours.
 *  - pacmap (the process-mapping step of PaCMap, one process per group as
 *    in MapLib): the centre task of the task graph (least eccentricity)
 *    on the centre node (the node of largest sum of 1/hops^3 over the
 *    nodes within N^(1/3) + 1 hops); then the task of most traffic to the
 *    mapped ones goes to the free node of least hop-bytes to them.
 *  - topo_aware (Agarwal, Sharma and Kale 2006, first estimation function as
 *    in MapLib): at each step every unmapped task t gets f(t, p) = hop-bytes
 *    to its mapped neighbours if placed on free node p, and criticality =
 *    mean_p f - min_p f; the most critical task goes to its best node. The
 *    mean is over the free nodes (MapLib divides by the unmapped tasks,
 *    the same when tasks = nodes). f is kept incrementally: O(n x nodes)
 *    memory; time O((n + edges) x nodes) plus O(nodes) for each task whose
 *    best node was taken.
 * A task of another component (no mapped neighbour) is taken when no
 * connected task is left: the heaviest (greedy_hoefler, fhgreedy) or the
 * lowest-numbered (greedy_allc, pacmap, topo_aware, as MapLib) one.
 */
#include <stdlib.h>
#include <string.h>

#include "mapping/nearest.h"

/* State shared by the five: symmetric graph, hop counts, free nodes. */
typedef struct mgreedy {
  const strategy_ctx *ctx;
  const platform *p;
  sym_graph s;
  nearest_free nr;           /* free nodes (one slot each here) */
  int *node;          /* tasks: node or -1 */
  int nmapped;
  uint8_t *used;      /* nnodes */
  gboolean stopped;   /* the progress hook said stop (polled every 64 placements) */
} mgreedy;

static void mg_init(mgreedy *g, const strategy_ctx *ctx, mapping *m)
{
  memset(g, 0, sizeof *g);
  g->ctx = ctx;
  g->p = ctx->p;
  sym_graph_build(&g->s, ctx->g);
  nearest_free_init(&g->nr, ctx->p, NEAREST_FREE_AUTO);
  g->node = m->node;
  for (int t = 0; t < m->ntasks; t++)
    g->node[t] = -1;
  g->used = g_new0(uint8_t, ctx->p->topo->nnodes);
}

static void mg_clear(mgreedy *g)
{
  sym_graph_clear(&g->s);
  nearest_free_clear(&g->nr);
  g_free(g->used);
}

static inline int hops(const mgreedy *g, int a, int b)
{
  return a == b ? 0 : hop_table_get(&g->nr.h, a, b);
}

static void mg_place(mgreedy *g, int t, int v)
{
  g_assert(v >= 0 && !g->used[v]);
  nearest_free_take(&g->nr, v);
  g->used[v] = 1;
  g->node[t] = v;
  g->nmapped++;
  if ((g->nmapped & 63) == 0) {
    progress_report(g->ctx->prog, "ranks placed", (uint64_t)g->nmapped, (uint64_t)g->s.n);
    g->stopped = progress_stopped(g->ctx->prog);
  }
}

/* The end of a run: TRUE, or FALSE with "interrupted" when it stopped with
 * ranks left unplaced. Frees g. */
static gboolean mg_finish(mgreedy *g, GError **error)
{
  gboolean ok = g->nmapped == g->s.n || progress_check(g->ctx->prog, error);
  mg_clear(g);
  return ok;
}

static inline int64_t weight(const sym_graph *s, int k)
{
  return s->wout[k] + s->win[k];
}

/* Hop-bytes between t on node v and its mapped neighbours. */
static int64_t cost_at(const mgreedy *g, int t, int v)
{
  const sym_graph *s = &g->s;
  int64_t c = 0;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int u = g->node[s->adj[k]];
    if (u >= 0)
      c += s->wout[k] * hops(g, v, u) + s->win[k] * hops(g, u, v);
  }
  return c;
}

/* Tasks by weighted degree, heaviest first (ties: lower id). */
static int cmp_vol(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  if (x[0] != y[0])
    return x[0] > y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

static int *by_volume(const sym_graph *s)
{
  int64_t *pairs = g_new(int64_t, 2 * (size_t)s->n + 2);
  for (int t = 0; t < s->n; t++)
    pairs[2 * t] = s->vol[t], pairs[2 * t + 1] = t;
  qsort(pairs, (size_t)s->n, 2 * sizeof(int64_t), cmp_vol);
  int *order = g_new(int, s->n + 1);
  for (int t = 0; t < s->n; t++)
    order[t] = (int)pairs[2 * t + 1];
  g_free(pairs);
  return order;
}

/* The free allocated node of least cost_at(t, .) (ties: lower id). */
static int best_free_node(const mgreedy *g, int t)
{
  const platform *p = g->p;
  int best = -1;
  int64_t bc = 0;
  for (int i = 0; i < p->nalloc; i++) {
    int v = p->alloc[i];
    if (g->used[v])
      continue;
    int64_t c = cost_at(g, t, v);
    if (best < 0 || c < bc || (c == bc && v < best))
      best = v, bc = c;
  }
  return best;
}

/* ---- greedy_hoefler ---- */

static gboolean run_greedy_hoefler(const strategy_ctx *ctx, const strategy_args *args,
                                   mapping *m, GError **error)
{
  mgreedy g;
  mg_init(&g, ctx, m);
  const sym_graph *s = &g.s;
  int n = m->ntasks, cursor = 0;
  int *order = by_volume(s), *from = g_new(int, n + 1);
  index_heap q; /* unmapped tasks by their heaviest edge to a mapped task */
  index_heap_init(&q, n);
  int start = nearest_free_centre(&g.nr);
  while (g.nmapped < n && !g.stopped) {
    int t = index_heap_pop(&q), v;
    if (t >= 0) {
      v = nearest_free_find(&g.nr, g.node[from[t]]);
    } else {
      while (g.node[order[cursor]] >= 0)
        cursor++;
      t = order[cursor];
      v = nearest_free_find(&g.nr, start);
    }
    mg_place(&g, t, v);
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
      int u = s->adj[k];
      if (g.node[u] >= 0)
        continue;
      double w = (double)weight(s, k);
      if (!index_heap_has(&q, u) || w > q.key[u]) {
        index_heap_set(&q, u, w);
        from[u] = t;
      }
    }
  }
  index_heap_clear(&q);
  g_free(order);
  g_free(from);
  return mg_finish(&g, error);
}

/* ---- fhgreedy ---- */

/* The free node farthest from every used node (ties: lower id). */
static int farthest_free(const mgreedy *g)
{
  const platform *p = g->p;
  int best = -1, bd = -1;
  for (int i = 0; i < p->nalloc; i++) {
    int v = p->alloc[i];
    if (g->used[v])
      continue;
    int d = G_MAXINT;
    for (int t = 0; t < g->s.n && d > bd; t++)
      if (g->node[t] >= 0)
        d = MIN(d, hops(g, g->node[t], v));
    if (d > bd)
      best = v, bd = d;
  }
  return best;
}

static gboolean run_fhgreedy(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                             GError **error)
{
  mgreedy g;
  mg_init(&g, ctx, m);
  const sym_graph *s = &g.s;
  int n = m->ntasks, cursor = 0;
  int *order = by_volume(s);
  index_heap conn;
  index_heap_init(&conn, n);
  while (g.nmapped < n && !g.stopped) {
    int t = index_heap_pop(&conn), v = -1;
    if (t < 0) {
      while (g.node[order[cursor]] >= 0)
        cursor++;
      t = order[cursor];
      v = g.nmapped == 0 ? nearest_free_centre(&g.nr) : farthest_free(&g);
    } else {
      int64_t bc = 0;
      for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
        int u = g.node[s->adj[k]];
        if (u < 0)
          continue;
        int cand = nearest_free_find(&g.nr, u);
        int64_t c = cost_at(&g, t, cand);
        if (v < 0 || c < bc || (c == bc && cand < v))
          v = cand, bc = c;
      }
    }
    mg_place(&g, t, v);
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
      int u = s->adj[k];
      if (g.node[u] < 0)
        index_heap_set(&conn, u,
                       (index_heap_has(&conn, u) ? conn.key[u] : 0) + (double)weight(s, k));
    }
  }
  index_heap_clear(&conn);
  g_free(order);
  return mg_finish(&g, error);
}

/* ---- greedy_allc and pacmap: most connected task, best of all nodes ---- */

/* The allocated node of least total hops to all allocated nodes. */
static int most_central(const mgreedy *g)
{
  const platform *p = g->p;
  int best = -1;
  int64_t bs = 0;
  for (int i = 0; i < p->nalloc; i++) {
    int64_t sum = 0;
    for (int j = 0; j < p->nalloc; j++)
      sum += hops(g, p->alloc[i], p->alloc[j]);
    if (best < 0 || sum < bs)
      best = p->alloc[i], bs = sum;
  }
  return best;
}

/* PaCMap's centre node: the largest sum of 1/hops^3 within R hops. */
static int pacmap_centre(const mgreedy *g)
{
  const platform *p = g->p;
  int R = 1;
  while ((int64_t)R * R * R <= p->nalloc)
    R++;
  /* R = floor(N^(1/3)) + 1 */
  int best = -1;
  double bs = -1;
  for (int i = 0; i < p->nalloc; i++) {
    double sum = 0;
    for (int j = 0; j < p->nalloc; j++) {
      int h = hops(g, p->alloc[i], p->alloc[j]);
      if (h > 0 && h <= R)
        sum += 1.0 / ((double)h * h * h);
    }
    if (sum > bs || (sum == bs && p->alloc[i] < best))
      best = p->alloc[i], bs = sum;
  }
  return best;
}

/* The centre of the task graph: reaches the most tasks, then the least
 * eccentricity (BFS hops), then the lower id. */
static int task_centre(const sym_graph *s)
{
  int n = s->n, best = 0, br = -1, be = 0;
  int *dist = g_new(int, n), *q = g_new(int, n);
  for (int src = 0; src < n; src++) {
    for (int t = 0; t < n; t++)
      dist[t] = -1;
    int head = 0, tail = 0, ecc = 0;
    dist[src] = 0;
    q[tail++] = src;
    while (head < tail) {
      int t = q[head++];
      ecc = MAX(ecc, dist[t]);
      for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
        if (dist[s->adj[k]] < 0)
          dist[s->adj[k]] = dist[t] + 1, q[tail++] = s->adj[k];
    }
    if (tail > br || (tail == br && ecc < be))
      best = src, br = tail, be = ecc;
  }
  g_free(dist);
  g_free(q);
  return best;
}

/* Most connected unmapped task (ties: lower id); -1 when none has a
 * mapped neighbour. */
static int most_connected(const int64_t *conn, const int *node, int n)
{
  int best = -1;
  for (int t = 0; t < n; t++)
    if (node[t] < 0 && conn[t] > 0 && (best < 0 || conn[t] > conn[best]))
      best = t;
  return best;
}

static gboolean run_connected_greedy(const strategy_ctx *ctx, mapping *m, gboolean pacmap,
                                     GError **error)
{
  mgreedy g;
  mg_init(&g, ctx, m);
  const sym_graph *s = &g.s;
  int n = m->ntasks;
  int64_t *conn = g_new0(int64_t, n + 1);
  int t, v;
  if (pacmap) {
    t = task_centre(s);
    v = pacmap_centre(&g);
  } else {
    int *order = by_volume(s);
    t = order[0];
    g_free(order);
    v = most_central(&g);
  }
  for (;;) {
    mg_place(&g, t, v);
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
      if (g.node[s->adj[k]] < 0)
        conn[s->adj[k]] += weight(s, k);
    if (g.nmapped == n || g.stopped)
      break;
    t = most_connected(conn, g.node, n);
    if (t < 0) /* another component: the lowest unmapped task */
      for (t = 0; g.node[t] >= 0; t++)
        ;
    v = best_free_node(&g, t);
  }
  g_free(conn);
  return mg_finish(&g, error);
}

static gboolean run_greedy_allc(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                                GError **error)
{
  return run_connected_greedy(ctx, m, FALSE, error);
}

static gboolean run_pacmap(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  return run_connected_greedy(ctx, m, TRUE, error);
}

/* ---- topo_aware ---- */

#define TOPO_AWARE_MAX_CELLS (1 << 23)

static gboolean run_topo_aware(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                               GError **error)
{
  const platform *p = ctx->p;
  int n = m->ntasks, N = p->nalloc;
  if ((int64_t)n * N > TOPO_AWARE_MAX_CELLS) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "topo_aware: %d tasks x %d nodes need an estimate table of %" G_GINT64_FORMAT
                " entries, expected at most %d (use greedy or mht at this size)",
                n, N, (int64_t)n * N, TOPO_AWARE_MAX_CELLS);
    return FALSE;
  }
  mgreedy g;
  mg_init(&g, ctx, m);
  const sym_graph *s = &g.s;
  /* f[t * N + i]: hop-bytes of t to its mapped neighbours on alloc[i] */
  int64_t *f = g_new0(int64_t, (size_t)n * N + 1), *sum = g_new0(int64_t, n + 1);
  int *argmin = g_new0(int, n + 1);
  int64_t *hsum = g_new(int64_t, N + 1);
  uint8_t *freep = g_new(uint8_t, N + 1), *redo = g_new0(uint8_t, n + 1);
  memset(freep, 1, (size_t)N);
  int nfree = N, lowest = 0;
  for (int i = 1; i < N; i++)
    if (p->alloc[i] < p->alloc[lowest])
      lowest = i;
  for (int t = 0; t < n; t++)
    argmin[t] = lowest; /* nothing mapped: every free node costs 0 */
  for (int step = 0; step < n; step++) {
    /* the most critical task: max (sum - nfree * min), i.e. mean - min */
    int tk = -1;
    int64_t bc = 0;
    for (int t = 0; t < n; t++) {
      if (g.node[t] >= 0)
        continue;
      int64_t c = sum[t] - (int64_t)nfree * f[(size_t)t * N + argmin[t]];
      if (tk < 0 || c > bc)
        tk = t, bc = c;
    }
    int ik = argmin[tk], pk = p->alloc[ik];
    mg_place(&g, tk, pk);
    freep[ik] = 0;
    nfree--;
    if (nfree == 0 || g.stopped)
      break;
    /* pk is no longer free; the terms of tk's unmapped neighbours grow by
     * w x hops(., pk); sums and minima are redone where they changed */
    for (int t = 0; t < n; t++)
      if (g.node[t] < 0) {
        sum[t] -= f[(size_t)t * N + ik];
        redo[t] = argmin[t] == ik;
      }
    for (int i = 0; i < N; i++)
      hsum[i] = freep[i] ? hops(&g, p->alloc[i], pk) : 0;
    for (int k = s->xadj[tk]; k < s->xadj[tk + 1]; k++) {
      int t = s->adj[k];
      if (g.node[t] >= 0)
        continue;
      int64_t *ft = f + (size_t)t * N;
      for (int i = 0; i < N; i++)
        if (freep[i])
          ft[i] += s->win[k] * hsum[i] + s->wout[k] * hops(&g, pk, p->alloc[i]);
      redo[t] = 1;
    }
    for (int t = 0; t < n; t++) {
      if (g.node[t] >= 0 || !redo[t])
        continue;
      const int64_t *ft = f + (size_t)t * N;
      int64_t total = 0;
      int best = -1;
      for (int i = 0; i < N; i++)
        if (freep[i]) {
          total += ft[i];
          if (best < 0 || ft[i] < ft[best] || (ft[i] == ft[best] && p->alloc[i] < p->alloc[best]))
            best = i;
        }
      sum[t] = total;
      argmin[t] = best;
    }
  }
  g_free(redo);
  g_free(f);
  g_free(sum);
  g_free(argmin);
  g_free(hsum);
  g_free(freep);
  return mg_finish(&g, error);
}

#define MAPLIB(id, text, where, cost_, max_)                                                        \
  const strategy strategy_##id = {                                                               \
    .name = #id,                                                                                 \
    .kind = STRATEGY_CONSTRUCT,                                                                  \
    .summary = text,                                                                             \
    .paper = where,                                                                              \
    .cost = cost_,                                                                               \
    .max_ranks = max_,                                                                           \
    .run = run_##id,                                                                             \
  }

MAPLIB(greedy_hoefler, "heaviest edge first: its unmapped end on the free node nearest the other",
       "korndoerfer2021 Section 6.3 (greedy; Hoefler and Snir 2011)", "O(E log E + n N)", 0);
MAPLIB(fhgreedy, "most connected task next, on the best of the free nodes nearest its neighbours",
       "korndoerfer2021 Section 6.3 (FHgreedy; deveci2015 as in MapLib)", "O(n N) worst case",
       0);
MAPLIB(greedy_allc, "most connected task next, on the best of all free nodes; start most central",
       "korndoerfer2021 Section 6.3 (greedyALLC; Glantz et al.)", "O(n N degree)", 32768);
MAPLIB(pacmap, "centre task on the centre node, then most connected task on its best node",
       "korndoerfer2021 Section 6.3 (PaCMap, process-mapping step)", "O(n N degree)", 8192);
MAPLIB(topo_aware, "most critical task (mean minus best estimated cost) on its best node",
       "korndoerfer2021 Section 6.3 (topo-aware; Agarwal, Sharma, Kale 2006)",
       "O(n N) table (refuses n N above 2^23)", 2048);
