/* bipartition.c - `bipartition`: recursive bipartitioning, korndoerfer2021
 * Section 6.3 (after Wu et al. [53]; MapLib's Recursive_bipartitioning).
 *
 * The allocated nodes are split in the middle of the longest side of their
 * bounding box (graph topologies: the first half of a breadth-first order
 * from the lowest node, in place of MapLib's METIS split of the processor
 * graph); the tasks are split in two by Scotch (SCOTCH_graphMap onto two
 * terminals weighted by the halves' slot counts, in a seeded deterministic
 * context, mapping/scotch-util.h) where MapLib uses METIS with k = 2; both halves
 * recurse until one node is left, which takes its tasks. The task halves
 * get sizes in proportion to the node halves' slots (never more than
 * their slots), and a repair pass moves, while a half has too many tasks,
 * the task whose move loses the least traffic inside it (ties: lower id).
 * Neither Scotch nor MapLib decides which task half takes which node half;
 * we give, between halves of equal size, each task half the node half
 * nearer (by traffic x hops between the middle nodes of the ranges) the
 * tasks it talks to outside the subset, whose ranges are known from the
 * splits above.
 * Nodes hold up to cores_per_node tasks, so several ranks per node need no
 * grouping first (places_slots).
 *
 * Cost: one Scotch bipartition per split, O(E log n) over a level; log2 of
 * the nodes levels.
 */
#include <string.h>

#include "mapping/map-util.h"
#include "mapping/scotch-util.h"

typedef struct bip {
  const strategy_ctx *ctx;
  const platform *p;
  sym_graph s;
  hop_table h;
  guint32 seed;
  int *nodes;     /* the allocated nodes, reordered by the splits */
  int *rlo, *rhi; /* tasks: the range of nodes their half has so far */
  int *local;     /* tasks: index in the current subset, or -1 */
  GError *error;
} bip;

/* Splits nodes[0..k) (reordered in place) into the first *ka and the rest. */
static void split_nodes(const platform *p, int *nodes, int k, int *ka)
{
  const topo *t = p->topo;
  if (!topo_is_regular(t)) {
    /* breadth-first from the lowest node, over the links, inside the set */
    int *inset = g_new0(int, t->nnodes), *order = g_new(int, k);
    int low = 0;
    for (int i = 0; i < k; i++) {
      inset[nodes[i]] = 1;
      if (nodes[i] < nodes[low])
        low = i;
    }
    int head = 0, tail = 0;
    order[tail++] = nodes[low];
    inset[nodes[low]] = 2;
    while (tail < k) {
      if (head == tail) { /* not connected inside the set: the lowest left */
        int next = -1;
        for (int i = 0; i < k; i++)
          if (inset[nodes[i]] == 1 && (next < 0 || nodes[i] < next))
            next = nodes[i];
        order[tail++] = next;
        inset[next] = 2;
        continue;
      }
      int u = order[head++];
      for (int l = t->out_off[u]; l < t->out_off[u + 1]; l++) {
        int v = t->link_dst[t->out_link[l]];
        if (inset[v] == 1)
          inset[v] = 2, order[tail++] = v;
      }
    }
    memcpy(nodes, order, sizeof(int) * (size_t)k);
    *ka = k / 2;
    g_free(inset);
    g_free(order);
    return;
  }
  int lo[TOPO_MAX_DIMS], hi[TOPO_MAX_DIMS], c[TOPO_MAX_DIMS];
  for (int d = 0; d < t->ndims; d++)
    lo[d] = G_MAXINT, hi[d] = -1;
  for (int i = 0; i < k; i++) {
    topo_coords(t, nodes[i], c);
    for (int d = 0; d < t->ndims; d++)
      lo[d] = MIN(lo[d], c[d]), hi[d] = MAX(hi[d], c[d]);
  }
  int dim = 0;
  for (int d = 1; d < t->ndims; d++)
    if (hi[d] - lo[d] > hi[dim] - lo[dim])
      dim = d;
  int mid = lo[dim] + (hi[dim] - lo[dim] + 1) / 2;
  /* stable partition: coordinate below mid first */
  int *tmp = g_new(int, k), a = 0, b = 0;
  for (int i = 0; i < k; i++) {
    topo_coords(t, nodes[i], c);
    if (c[dim] < mid)
      nodes[a++] = nodes[i];
    else
      tmp[b++] = nodes[i];
  }
  memcpy(nodes + a, tmp, sizeof(int) * (size_t)b);
  *ka = a;
  g_free(tmp);
}

/* Scotch bipartition of tasks[0..n) into side[] with at most na on side 0
 * and n - na on side 1 after repair. */
static gboolean split_tasks(bip *b, const int *tasks, int n, int na, int *side)
{
  const sym_graph *s = &b->s;
  for (int i = 0; i < n; i++)
    b->local[tasks[i]] = i;
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int)), *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *w = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int i = 0; i < n; i++) {
    int t = tasks[i];
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
      int j = b->local[s->adj[k]];
      if (j < 0 || !(s->dir[k] & 1))
        continue;
      int64_t x = s->wout[k];
      g_array_append_val(src, i);
      g_array_append_val(dst, j);
      g_array_append_val(w, x);
    }
  }
  gboolean ok = TRUE;
  for (int i = 0; i < n; i++)
    side[i] = i < na ? 0 : 1;
  if (src->len > 0 && na > 0 && na < n) {
    commgraph *sub = commgraph_from_edges(n, (int)src->len, (int *)(void *)src->data,
                                          (int *)(void *)dst->data, (int64_t *)(void *)w->data,
                                          NULL);
    scotch_graph sg = { 0 };
    SCOTCH_Arch arch;
    SCOTCH_Strat strat;
    SCOTCH_Num wt[2] = { na, n - na }, *part = g_new(SCOTCH_Num, n);
    SCOTCH_stratInit(&strat);
    gboolean arch_init = FALSE;
    ok = scotch_graph_build(&sg, sub, &b->error) &&
         scotch_graph_context(&sg, b->seed, &b->error);
    if (ok && SCOTCH_archInit(&arch) == 0)
      arch_init = TRUE;
    if (ok && (!arch_init || SCOTCH_archCmpltw(&arch, 2, wt) != 0 ||
               SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATBALANCE, 2, 0.01) != 0 ||
               SCOTCH_graphMap(sg.use, &arch, &strat, part) != 0)) {
      g_set_error(&b->error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                  "bipartition: Scotch could not bisect %d ranks (its message is above)", n);
      ok = FALSE;
    }
    for (int i = 0; ok && i < n; i++)
      side[i] = part[i] == 0 ? 0 : 1;
    if (arch_init)
      SCOTCH_archExit(&arch);
    SCOTCH_stratExit(&strat);
    scotch_graph_free(&sg);
    commgraph_free(sub);
    g_free(part);
  }
  /* repair: exactly na tasks on side 0 */
  int cnt[2] = { 0, 0 };
  for (int i = 0; i < n; i++)
    cnt[side[i]]++;
  while (ok && cnt[0] != na) {
    int from = cnt[0] > na ? 0 : 1, best = -1;
    int64_t bl = 0;
    for (int i = 0; i < n; i++) {
      if (side[i] != from)
        continue;
      int t = tasks[i];
      int64_t loss = 0;
      for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
        int j = b->local[s->adj[k]];
        if (j >= 0)
          loss += side[j] == from ? s->wout[k] + s->win[k] : -(s->wout[k] + s->win[k]);
      }
      if (best < 0 || loss < bl)
        best = i, bl = loss;
    }
    side[best] = 1 - from;
    cnt[from]--;
    cnt[1 - from]++;
  }
  for (int i = 0; i < n; i++)
    b->local[tasks[i]] = -1;
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(w, TRUE);
  return ok;
}

/* Hops between the middle nodes of two ranges of b->nodes. */
static int range_hops(const bip *b, int lo1, int hi1, int lo2, int hi2)
{
  int x = b->nodes[(lo1 + hi1 - 1) / 2], y = b->nodes[(lo2 + hi2 - 1) / 2];
  return x == y ? 0 : hop_table_get(&b->h, x, y);
}

/* Traffic-weighted hops from the tasks of side `want` to the ranges their
 * neighbours outside the subset hold, if that side took nodes [lo, hi). */
static int64_t side_cost(const bip *b, const int *tasks, int n, const int *side, int want, int lo,
                         int hi)
{
  const sym_graph *s = &b->s;
  int64_t c = 0;
  for (int i = 0; i < n; i++) {
    if (side[i] != want)
      continue;
    int t = tasks[i];
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
      int u = s->adj[k];
      if (b->local[u] >= 0)
        continue;
      c += (s->wout[k] + s->win[k]) * range_hops(b, lo, hi, b->rlo[u], b->rhi[u]);
    }
  }
  return c;
}

static gboolean bip_rec(bip *b, int *tasks, int n, int *nodes, int k, mapping *m)
{
  int cores = b->p->cores_per_node;
  if (n == 0)
    return TRUE;
  if (k == 1) {
    g_assert(n <= cores);
    for (int i = 0; i < n; i++)
      m->node[tasks[i]] = nodes[0];
    return TRUE;
  }
  if (!progress_check(b->ctx->prog, &b->error))
    return FALSE;
  int ka;
  split_nodes(b->p, nodes, k, &ka);
  int64_t ca = (int64_t)ka * cores, cb = (int64_t)(k - ka) * cores;
  int na = (int)((n * ca + (ca + cb) / 2) / (ca + cb));
  na = (int)CLAMP((int64_t)na, MAX(0, n - cb), MIN(n, ca));
  int *side = g_new(int, n), *reordered = g_new(int, n);
  gboolean ok = split_tasks(b, tasks, n, na, side);
  int lo = (int)(nodes - b->nodes), mid = lo + ka, hi = lo + k;
  if (ok && na == n - na) {
    /* Scotch does not know which half lies where: put each task half on the
     * node half nearer its outside neighbours */
    for (int i = 0; i < n; i++)
      b->local[tasks[i]] = i;
    int64_t keep = side_cost(b, tasks, n, side, 0, lo, mid) + side_cost(b, tasks, n, side, 1, mid, hi);
    int64_t swap = side_cost(b, tasks, n, side, 0, mid, hi) + side_cost(b, tasks, n, side, 1, lo, mid);
    for (int i = 0; i < n; i++) {
      b->local[tasks[i]] = -1;
      if (swap < keep)
        side[i] = 1 - side[i];
    }
  }
  for (int i = 0; ok && i < n; i++) {
    b->rlo[tasks[i]] = side[i] == 0 ? lo : mid;
    b->rhi[tasks[i]] = side[i] == 0 ? mid : hi;
  }
  int a = 0, z = na;
  for (int i = 0; ok && i < n; i++)
    reordered[side[i] == 0 ? a++ : z++] = tasks[i];
  if (ok)
    memcpy(tasks, reordered, sizeof(int) * (size_t)n);
  g_free(side);
  g_free(reordered);
  return ok && bip_rec(b, tasks, na, nodes, ka, m) &&
         bip_rec(b, tasks + na, n - na, nodes + ka, k - ka, m);
}

static gboolean run_bipartition(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                                GError **error)
{
  bip b = { .ctx = ctx, .p = ctx->p, .seed = ctx->seed };
  int n = m->ntasks, N = ctx->p->nalloc;
  sym_graph_build(&b.s, ctx->g);
  hop_table_init(&b.h, ctx->p);
  b.local = g_new(int, n + 1);
  b.rlo = g_new0(int, n + 1);
  b.rhi = g_new(int, n + 1);
  for (int t = 0; t < n; t++)
    b.local[t] = -1, b.rhi[t] = N;
  int *tasks = g_new(int, n + 1), *nodes = g_memdup2(ctx->p->alloc, sizeof(int) * (size_t)N);
  b.nodes = nodes;
  for (int t = 0; t < n; t++)
    tasks[t] = t;
  gboolean ok = bip_rec(&b, tasks, n, nodes, N, m);
  if (!ok)
    g_propagate_error(error, b.error);
  g_free(tasks);
  g_free(nodes);
  g_free(b.local);
  g_free(b.rlo);
  g_free(b.rhi);
  hop_table_clear(&b.h);
  sym_graph_clear(&b.s);
  return ok;
}

const strategy strategy_bipartition = {
  .name = "bipartition",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "recursive bisection: tasks by Scotch, nodes at the middle of the longest side",
  .paper = "korndoerfer2021 Section 6.3 (bipartition; Wu et al.)",
  .places_slots = TRUE,
  .cost = "Scotch bipartitions, O(E log n) per level, log n levels",
  .max_ranks = 262144,
  .run = run_bipartition,
};
