/* irregular-graphs.c - the heuristics of bhatele2010 Chapter 10 for irregular
 * communication graphs: `bft`, `mht` (Section 10.2) and `coce_mht`
 * (Section 10.4, Heuristic 2); `coce` falls back to the irregular COCE of
 * Section 10.4 here when the graph is no grid.
 *
 *  - bft (Algorithm 10.2): breadth-first traversal from task 0 on the first
 *    allocated node; the unmapped neighbours of the task taken from the
 *    queue (heaviest edge first) go to the free slots nearest its node.
 *  - mht: the task with the most neighbours starts at the centre of the
 *    mesh; a max-heap holds the unmapped neighbours of mapped tasks by the
 *    number of mapped neighbours (ties: more traffic to them, then the lower
 *    id); the top task goes to the free slot nearest the centroid of its
 *    mapped neighbours' nodes (on a torus each coordinate is averaged in
 *    the frame of the first neighbour, so the centroid does not jump across
 *    the wrap; on graph topologies the node of its heaviest mapped
 *    neighbour stands for the centroid).
 *  - coce (irregular) and coce_mht: first one task on each of the 2^k
 *    corners of the mesh, then bft (coce) or mht (coce_mht) from all of
 *    them at once. The thesis takes the tasks of minimum and maximum X and
 *    Y; we take, for corner b, the task that lies farthest in b's diagonal
 *    direction (sum of the coordinates, each scaled to its extent and
 *    signed by b), which names a task per corner in any dimension. Without
 *    coordinates the corner tasks are far apart on the task graph: the
 *    farthest from task 0, then each the farthest from those chosen; the
 *    first two sit on opposite corners.
 * A disconnected component starts again at its lowest (bft) or
 * best-connected (mht) task, near the last node used or the centre.
 * findNearest (mapping/nearest.h) does every placement, so slots, sparse
 * allocations and fewer tasks than slots need nothing else.
 *
 * Cost: O(E log n) for the heap, plus findNearest per task.
 */
#include <math.h>
#include <string.h>

#include "mapping/grid.h"
#include "mapping/nearest.h"

typedef struct walk {
  const strategy_ctx *ctx;
  sym_graph s;
  nearest_free nr;
  int *node;       /* tasks: node or -1 */
  int nmapped;
  int last;        /* last node used */
  int *queue;      /* bft */
  int head, tail;
  index_heap heap;      /* mht */
  int64_t *wmapped;/* mht: traffic to mapped neighbours */
  int *nmap;       /* mht: mapped neighbours */
  int *tmp;        /* scratch */
  int64_t *tmpw;
} walk;

static void walk_init(walk *w, const strategy_ctx *ctx, mapping *m)
{
  memset(w, 0, sizeof *w);
  int n = ctx->g->n;
  w->ctx = ctx;
  sym_graph_build(&w->s, ctx->g);
  nearest_free_init(&w->nr, ctx->p, NEAREST_FREE_AUTO);
  w->node = m->node;
  for (int t = 0; t < n; t++)
    w->node[t] = -1;
  w->last = ctx->p->alloc[0];
  w->queue = g_new(int, n + 1);
  index_heap_init(&w->heap, n);
  w->wmapped = g_new0(int64_t, n + 1);
  w->nmap = g_new0(int, n + 1);
  w->tmp = g_new(int, n + 1);
  w->tmpw = g_new(int64_t, n + 1);
}

static void walk_clear(walk *w)
{
  sym_graph_clear(&w->s);
  nearest_free_clear(&w->nr);
  g_free(w->queue);
  index_heap_clear(&w->heap);
  g_free(w->wmapped);
  g_free(w->nmap);
  g_free(w->tmp);
  g_free(w->tmpw);
}

/* Places t on the free slot nearest node `near`; updates the heap keys of
 * t's unmapped neighbours (mht). */
static void place(walk *w, int t, int near, gboolean heap)
{
  const sym_graph *s = &w->s;
  int v = nearest_free_place(&w->nr, near);
  g_assert(v >= 0);
  w->node[t] = v;
  w->last = v;
  w->nmapped++;
  index_heap_remove(&w->heap, t);
  if (!heap)
    return;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int u = s->adj[k];
    if (w->node[u] >= 0)
      continue;
    w->nmap[u]++;
    w->wmapped[u] += s->wout[k] + s->win[k];
    /* count first, then the share of u's traffic that goes to mapped tasks */
    double frac = s->vol[u] ? (double)w->wmapped[u] / (double)(s->vol[u] + 1) : 0;
    index_heap_set(&w->heap, u, w->nmap[u] + frac);
  }
}

/* The wanted node of t: the centroid of its mapped neighbours' nodes. */
static int centroid_node(walk *w, int t)
{
  const sym_graph *s = &w->s;
  const platform *p = w->ctx->p;
  const topo *tp = p->topo;
  const hop_table *h = &w->nr.h;
  int first = -1, heavy = -1, cnt = 0;
  int64_t hw = -1;
  double sum[TOPO_MAX_DIMS] = { 0 };
  int c0[TOPO_MAX_DIMS], c[TOPO_MAX_DIMS];
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int v = w->node[s->adj[k]];
    if (v < 0)
      continue;
    if (s->wout[k] + s->win[k] > hw)
      hw = s->wout[k] + s->win[k], heavy = v;
    if (!h->fast)
      continue;
    topo_coords(tp, v, c);
    if (first < 0) {
      first = v;
      memcpy(c0, c, sizeof c);
    }
    for (int d = 0; d < tp->ndims; d++) {
      int x = c[d];
      if (h->t->conn[d] == TOPO_TORUS) { /* the copy of x nearest the first neighbour */
        int X = tp->shape[d];
        if (x - c0[d] > X / 2)
          x -= X;
        else if (c0[d] - x > X / 2)
          x += X;
      }
      sum[d] += x;
    }
    cnt++;
  }
  if (heavy < 0)
    return w->last;
  if (!h->fast || cnt == 0)
    return heavy;
  for (int d = 0; d < tp->ndims; d++) {
    int x = (int)floor(sum[d] / cnt + 0.5), X = tp->shape[d];
    c[d] = (h->t->conn[d] == TOPO_TORUS) ? ((x % X) + X) % X : CLAMP(x, 0, X - 1);
  }
  return topo_node(tp, c);
}

/* Unmapped neighbours of t, heaviest edge first (ties: lower id). */
static int heavy_neighbours(walk *w, int t)
{
  const sym_graph *s = &w->s;
  int k = 0;
  for (int j = s->xadj[t]; j < s->xadj[t + 1]; j++)
    if (w->node[s->adj[j]] < 0) {
      int u = s->adj[j];
      int64_t x = s->wout[j] + s->win[j];
      int i = k++;
      while (i > 0 && (w->tmpw[i - 1] < x || (w->tmpw[i - 1] == x && w->tmp[i - 1] > u))) {
        w->tmp[i] = w->tmp[i - 1];
        w->tmpw[i] = w->tmpw[i - 1];
        i--;
      }
      w->tmp[i] = u;
      w->tmpw[i] = x;
    }
  return k;
}

/* Every 4096 tasks placed: FALSE when the work should stop. */
static gboolean walk_going(const walk *w)
{
  if ((w->nmapped & 4095) != 0)
    return TRUE;
  progress_report(w->ctx->prog, "ranks placed", (uint64_t)w->nmapped, (uint64_t)w->ctx->g->n);
  return !progress_stopped(w->ctx->prog);
}

/* Algorithm 10.2 from the tasks already in the queue; FALSE when stopped. */
static gboolean bft_run(walk *w)
{
  int n = w->ctx->g->n, next_free = 0;
  for (;;) {
    while (w->head < w->tail) {
      if (!walk_going(w))
        return FALSE;
      int t = w->queue[w->head++];
      int k = heavy_neighbours(w, t);
      for (int i = 0; i < k; i++) {
        int u = w->tmp[i];
        if (w->node[u] >= 0)
          continue;
        place(w, u, w->node[t], FALSE);
        w->queue[w->tail++] = u;
      }
    }
    while (next_free < n && w->node[next_free] >= 0)
      next_free++;
    if (next_free == n)
      return TRUE;
    place(w, next_free, w->last, FALSE); /* another component */
    w->queue[w->tail++] = next_free;
  }
}

/* The unmapped task with the most neighbours (ties: volume, lower id). */
static int best_connected(const walk *w)
{
  const sym_graph *s = &w->s;
  int best = -1;
  for (int t = 0; t < s->n; t++) {
    if (w->node[t] >= 0)
      continue;
    int d = s->xadj[t + 1] - s->xadj[t], bd = best < 0 ? -1 : s->xadj[best + 1] - s->xadj[best];
    if (best < 0 || d > bd || (d == bd && s->vol[t] > s->vol[best]))
      best = t;
  }
  return best;
}

/* Max-heap traversal from the tasks mapped so far; FALSE when stopped. */
static gboolean mht_run(walk *w)
{
  int n = w->ctx->g->n;
  while (w->nmapped < n) {
    if (!walk_going(w))
      return FALSE;
    int t = index_heap_pop(&w->heap);
    if (t < 0) {
      t = best_connected(w);
      place(w, t, w->nmapped ? w->last : nearest_free_centre(&w->nr), TRUE);
      continue;
    }
    place(w, t, centroid_node(w, t), TRUE);
  }
  return TRUE;
}

static gboolean run_bft(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                        GError **error)
{
  walk w;
  walk_init(&w, ctx, m);
  gboolean ok = TRUE;
  if (m->ntasks > 0) {
    place(&w, 0, ctx->p->alloc[0], FALSE);
    w.queue[w.tail++] = 0;
    ok = bft_run(&w) || progress_check(ctx->prog, error);
  }
  walk_clear(&w);
  return ok;
}

static gboolean run_mht(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                        GError **error)
{
  walk w;
  walk_init(&w, ctx, m);
  gboolean ok = mht_run(&w) || progress_check(ctx->prog, error);
  walk_clear(&w);
  return ok;
}

/* ---- corners ---- */

/* Corner tasks by coordinates: for corner b (bit i: far end of mesh axis
 * i) the task farthest in b's diagonal direction. */
static void corners_by_coords(const strategy_ctx *ctx, int k, const int *axis_of_coord,
                              int ncorner, int *ctask)
{
  int n = ctx->g->n, cd = ctx->coord_dims;
  double lo[GRID_MAX_DIMS], hi[GRID_MAX_DIMS];
  for (int d = 0; d < cd; d++)
    lo[d] = INFINITY, hi[d] = -INFINITY;
  for (size_t i = 0; i < (size_t)n * cd; i++) {
    lo[i % cd] = MIN(lo[i % cd], ctx->coords[i]);
    hi[i % cd] = MAX(hi[i % cd], ctx->coords[i]);
  }
  gboolean *used = g_new0(gboolean, n);
  for (int b = 0; b < ncorner; b++) {
    int best = -1;
    double bv = -INFINITY;
    for (int t = 0; t < n; t++) {
      if (used[t])
        continue;
      double v = 0;
      for (int d = 0; d < cd; d++) {
        int ax = axis_of_coord[d];
        if (ax < 0 || hi[d] <= lo[d])
          continue;
        double f = (ctx->coords[(size_t)t * cd + d] - lo[d]) / (hi[d] - lo[d]);
        v += (b >> ax) & 1 ? f : -f;
      }
      if (v > bv)
        bv = v, best = t;
    }
    ctask[b] = best;
    if (best >= 0)
      used[best] = TRUE;
  }
  g_free(used);
}

/* BFS hops on the task graph from src into dist (unreached: G_MAXINT). */
static void task_bfs(const sym_graph *s, int src, int *dist, int *q)
{
  for (int t = 0; t < s->n; t++)
    dist[t] = G_MAXINT;
  int head = 0, tail = 0;
  dist[src] = 0;
  q[tail++] = src;
  while (head < tail) {
    int t = q[head++];
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
      if (dist[s->adj[k]] == G_MAXINT)
        dist[s->adj[k]] = dist[t] + 1, q[tail++] = s->adj[k];
  }
}

/* The task of largest key not yet among ctask[0..c-1] (ties: lower id). */
static int farthest_task(const int *key, int n, const int *ctask, int c)
{
  int best = -1;
  for (int t = 0; t < n; t++) {
    gboolean taken = FALSE;
    for (int j = 0; j < c; j++)
      taken |= ctask[j] == t;
    if (!taken && (best < 0 || key[t] > key[best]))
      best = t;
  }
  return best;
}

/* Corner tasks by graph distance (no coordinates): the farthest from task
 * 0, then each the farthest from all chosen so far. */
static void corners_by_graph(const walk *w, int ncorner, int *ctask)
{
  const sym_graph *s = &w->s;
  int n = s->n;
  int *dist = g_new(int, n), *q = g_new(int, n), *mind = g_new(int, n);
  task_bfs(s, 0, dist, q);
  ctask[0] = farthest_task(dist, n, ctask, 0);
  for (int t = 0; t < n; t++)
    mind[t] = G_MAXINT;
  for (int c = 1; c < ncorner; c++) {
    task_bfs(s, ctask[c - 1], dist, q);
    for (int t = 0; t < n; t++)
      mind[t] = MIN(mind[t], dist[t]);
    ctask[c] = farthest_task(mind, n, ctask, c);
  }
  g_free(dist);
  g_free(q);
  g_free(mind);
}

gboolean irregular_coce(const strategy_ctx *ctx, gboolean mht, mapping *m, GError **error)
{
  const platform *p = ctx->p;
  if (!topo_is_regular(p->topo)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: platform %s is a %s without corners; expected a mesh, torus "
                "or HAEC Box platform", mht ? "coce_mht" : "coce", p->name,
                topo_kind_text(p->topo));
    return FALSE;
  }
  int n = ctx->g->n;
  walk w;
  walk_init(&w, ctx, m);
  int sd[GRID_MAX_DIMS];
  slotgrid_dims(p, sd);
  gview pv;
  gview_native(&pv, p->topo->ndims, sd);
  int k = MIN(pv.naxes, 6), ncorner = MIN(1 << k, n);
  int *ctask = g_new(int, 64);
  if (ctx->coords && ctx->coord_dims >= 1 && ctx->coord_dims <= GRID_MAX_DIMS) {
    /* coordinate dimensions by extent paired with mesh axes by size */
    int cd = ctx->coord_dims, axis_of[GRID_MAX_DIMS], cperm[GRID_MAX_DIMS], pperm[GRID_MAX_DIMS];
    double ext[GRID_MAX_DIMS];
    for (int d = 0; d < cd; d++) {
      double lo = INFINITY, hi = -INFINITY;
      for (int t = 0; t < n; t++) {
        lo = MIN(lo, ctx->coords[(size_t)t * cd + d]);
        hi = MAX(hi, ctx->coords[(size_t)t * cd + d]);
      }
      ext[d] = hi - lo, cperm[d] = d, axis_of[d] = -1;
    }
    for (int i = 1; i < cd; i++)
      for (int j = i; j > 0 && ext[cperm[j]] > ext[cperm[j - 1]]; j--) {
        int t = cperm[j];
        cperm[j] = cperm[j - 1];
        cperm[j - 1] = t;
      }
    for (int i = 0; i < k; i++)
      pperm[i] = i;
    for (int i = 1; i < k; i++)
      for (int j = i; j > 0 && pv.ax[pperm[j]].n > pv.ax[pperm[j - 1]].n; j--) {
        int t = pperm[j];
        pperm[j] = pperm[j - 1];
        pperm[j - 1] = t;
      }
    for (int i = 0; i < MIN(k, cd); i++)
      axis_of[cperm[i]] = pperm[i];
    corners_by_coords(ctx, k, axis_of, ncorner, ctask);
  } else {
    corners_by_graph(&w, ncorner, ctask);
    if (ncorner > 1) { /* the two farthest apart on opposite corners */
      int opposite = (1 << k) - 1;
      if (opposite < ncorner) {
        int t = ctask[1];
        ctask[1] = ctask[opposite];
        ctask[opposite] = t;
      }
    }
  }
  for (int b = 0; b < ncorner; b++) {
    int t = ctask[b];
    if (t < 0 || w.node[t] >= 0)
      continue;
    int vc[GRID_MAX_DIMS], s[GRID_MAX_DIMS] = { 0 };
    for (int i = 0; i < pv.naxes; i++)
      vc[i] = i < k && (b >> i) & 1 ? pv.ax[i].n - 1 : 0;
    gview_to_base(&pv, vc, s);
    place(&w, t, slotgrid_node(p, s), mht);
    w.queue[w.tail++] = t;
  }
  gboolean ok = (mht ? mht_run(&w) : bft_run(&w)) || progress_check(ctx->prog, error);
  g_free(ctask);
  walk_clear(&w);
  return ok;
}

static gboolean run_coce_mht(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                             GError **error)
{
  return irregular_coce(ctx, TRUE, m, error);
}

const strategy strategy_bft = {
  .name = "bft",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "breadth-first traversal: neighbours near the node of the task they hang off",
  .paper = "bhatele2010 Section 10.2, Algorithm 10.2 (BFT)",
  .places_slots = TRUE,
  .cost = "O(E log n) plus findNearest per task",
  .max_ranks = 0,
  .run = run_bft,
};

const strategy strategy_mht = {
  .name = "mht",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "max-heap traversal: most-mapped-neighbours first, near their centroid",
  .paper = "bhatele2010 Section 10.2, Heuristic 2 (MHT)",
  .places_slots = TRUE,
  .cost = "O(E log n) plus findNearest per task",
  .max_ranks = 0,
  .run = run_mht,
};

const strategy strategy_coce_mht = {
  .name = "coce_mht",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "a task on every mesh corner, then max-heap traversal from all of them",
  .paper = "bhatele2010 Section 10.4, Heuristic 2 (COCE+MHT)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(E log n) plus findNearest per task",
  .max_ranks = 0,
  .run = run_coce_mht,
};
