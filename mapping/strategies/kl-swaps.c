/* kl-swaps.c - `kl`: the Kernighan-Lin style swap heuristic of selvitopi
 * (Section 3, "Proposed algorithm"): swaps are defined on pairs of
 * allocated processors at most `t` hops apart (the threshold t of the
 * paper; an empty processor makes the swap a move). A pass repeatedly
 * performs the unlocked swap of largest hop-bytes gain - negative gains
 * allowed - locks both processors for the rest of the pass and updates the
 * gains of the swaps involving the neighbours of the two tasks; when no
 * swap is left it rolls back to the prefix with the best cumulative gain.
 * Passes repeat until a pass gains less than `eps` of the hop-bytes (or
 * `passes` is reached). By default it starts from a random mapping, as in
 * the paper. The rollback makes it never worse than its start.
 *
 * Cost per pass, for P pairs, n tasks of degree d and s swaps: the gains
 * of the pairs whose neighbourhood the kept swaps of the previous pass
 * changed are recomputed, O(d) each from the cached cost of each task on
 * its own node, the others are kept; the heap is built in O(P). Per swap,
 * as in the paper's "Gain Update", each open pair of a moved task's
 * neighbour gets the O(1) change of that one edge's term (2 hop counts),
 * and each changed pair is re-sifted once: O(d p log P) with p the pairs
 * per node. Hop counts on regular topologies come from per-dimension
 * distance tables. Gains are exact (int64), ties go to the lower pair id,
 * so the swaps are those a from-scratch evaluation would choose; the
 * tests check a pass worked by hand (kl/hand_computed_pass_through_a_losing_swap)
 * and that kl ends where no swap within t gains, every swap tried
 * (kl/ends_where_no_swap_within_t_gains). */
#include <string.h>

#include "mapping/map-util.h"

typedef struct klent {
  int64_t g;           /* gain of the pair (a copy of gain[id]) */
  int id;
} klent;

typedef struct kl {
  refine_state st;
  gboolean sym;        /* hops symmetric (regular topologies): h(a,b) = h(b,a) */
  /* Regular topologies without a crossbar dimension: hops are the sum over
   * dimensions of dist[d][ca[d] - cb[d]], topo_dim_distance() tabulated by
   * coordinate difference (no branch per dimension), else hop_table_get. */
  int nd;              /* 0: use hop_table_get */
  int *dist_buf;
  const int *dist[TOPO_MAX_DIMS];
  int npairs;
  int *pa, *pb;        /* pairs of nodes */
  int *poff, *plist;   /* pairs of each node (CSR over all nodes) */
  int *pnbr;           /* CSR like plist: the pair's other node */
  int64_t *gain;       /* pairs: hop-bytes reduction if swapped */
  uint8_t *locked;     /* nodes */
  int *log;            /* pairs swapped this pass, in order */
  int *touched;        /* pairs whose gain changed in the current update */
  int *tstamp;         /* pairs: last update round that touched them */
  int64_t *delta;      /* pairs: gain change accumulated in this update */
  int64_t *gain0;      /* pairs: gains at the start of the last pass */
  int *dirty;          /* pairs: == dirty_mark when gain0 is stale */
  int dirty_mark;      /* 0: no gain0 yet (all stale) */
  int pass;            /* passes started */
  int64_t *own;        /* tasks: cost on their node at the start of the pass */
  int *own_stamp;      /* tasks: pass of own[] */
  int round;
  const progress *prog;  /* polled every 4096 swaps */
  /* Indexed binary max-heap of open pairs with their gains inline, ties
   * to the lower id (the order of index_heap, on exact int64 keys). */
  int hsize;
  klent *heap;
  int *hpos;           /* hpos[q] = index in heap, or -1 */
} kl;

/* ---- heap of open pairs ---- */

/* a above b: larger gain, then lower pair id */
static inline gboolean kl_above(const klent *a, const klent *b)
{
  return a->g > b->g || (a->g == b->g && a->id < b->id);
}

static void kl_sift_up(kl *k, int i)
{
  klent e = k->heap[i];
  while (i > 0) {
    int parent = (i - 1) / 2;
    if (!kl_above(&e, &k->heap[parent]))
      break;
    k->heap[i] = k->heap[parent], k->hpos[k->heap[i].id] = i;
    i = parent;
  }
  k->heap[i] = e, k->hpos[e.id] = i;
}

static void kl_sift_down(kl *k, int i)
{
  klent e = k->heap[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= k->hsize)
      break;
    if (c + 1 < k->hsize && kl_above(&k->heap[c + 1], &k->heap[c]))
      c++;
    if (!kl_above(&k->heap[c], &e))
      break;
    k->heap[i] = k->heap[c], k->hpos[k->heap[i].id] = i;
    i = c;
  }
  k->heap[i] = e, k->hpos[e.id] = i;
}

static void kl_heap_remove(kl *k, int q)
{
  int i = k->hpos[q];
  if (i < 0)
    return;
  k->hpos[q] = -1;
  if (--k->hsize == i)
    return;
  k->heap[i] = k->heap[k->hsize];
  int moved = k->heap[i].id;
  k->hpos[moved] = i;
  kl_sift_up(k, i);
  kl_sift_down(k, k->hpos[moved]);
}

/* ---- pairs and gains ---- */

/* All pairs of allocated nodes within `t` hops, each once. */
static void build_pairs(kl *k, int t)
{
  const platform *p = k->st.p;
  int nn = p->topo->nnodes;
  GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *b = g_array_new(FALSE, FALSE, sizeof(int));
  node_bfs bfs;
  node_bfs_init(&bfs, p->topo);
  for (int i = 0; i < p->nalloc; i++) {
    int u = p->alloc[i];
    node_bfs_start(&bfs);
    node_bfs_add(&bfs, u);
    for (int v; (v = node_bfs_next(&bfs)) >= 0 && bfs.level <= t;)
      if (p->alloc_index[v] > i) {
        g_array_append_val(a, u);
        g_array_append_val(b, v);
      }
  }
  node_bfs_clear(&bfs);
  k->npairs = (int)a->len;
  k->pa = (int *)(void *)g_array_free(a, FALSE);
  k->pb = (int *)(void *)g_array_free(b, FALSE);
  k->poff = g_new0(int, nn + 1);
  for (int q = 0; q < k->npairs; q++)
    k->poff[k->pa[q] + 1]++, k->poff[k->pb[q] + 1]++;
  for (int v = 0; v < nn; v++)
    k->poff[v + 1] += k->poff[v];
  int *fill = g_memdup2(k->poff, sizeof(int) * (size_t)nn);
  k->plist = g_new(int, 2 * (size_t)k->npairs + 1);
  k->pnbr = g_new(int, 2 * (size_t)k->npairs + 1);
  for (int q = 0; q < k->npairs; q++) {
    int ia = fill[k->pa[q]]++, ib = fill[k->pb[q]]++;
    k->plist[ia] = k->plist[ib] = q;
    k->pnbr[ia] = k->pb[q], k->pnbr[ib] = k->pa[q];
  }
  g_free(fill);
}

static void hops_init(kl *k)
{
  const hop_table *h = &k->st.h;
  k->nd = 0;
  if (!h->fast || h->t->crossbar_dim >= 0 || h->nd < 1 || h->weight)
    return;
  size_t len = 0;
  for (int d = 0; d < h->nd; d++)
    len += 2 * (size_t)h->t->shape[d] - 1;
  k->dist_buf = g_new(int, len);
  int *at = k->dist_buf;
  for (int d = 0; d < h->nd; d++) {
    int n = h->t->shape[d];
    at += n - 1; /* centre: index dx in -(n-1) .. n-1 */
    for (int dx = -(n - 1); dx < n; dx++)
      at[dx] = topo_dim_distance(h->t, d, dx < 0 ? -dx : dx, 0);
    k->dist[d] = at;
    at += n;
  }
  k->nd = h->nd;
}

/* topo_coord_hops() from the per-dimension tables. */
static inline int kl_hops(const kl *k, int a, int b)
{
  if (!k->nd)
    return hop_table_get(&k->st.h, a, b);
  const int *ca = k->st.h.c + (size_t)a * k->nd, *cb = k->st.h.c + (size_t)b * k->nd;
  if (k->nd == 3)
    return k->dist[0][ca[0] - cb[0]] + k->dist[1][ca[1] - cb[1]] + k->dist[2][ca[2] - cb[2]];
  int hops = 0;
  for (int d = 0; d < k->nd; d++)
    hops += k->dist[d][ca[d] - cb[d]];
  return hops;
}

/* Directed hop-bytes of the edge between a task on node p and a partner on
 * node x: `to` bytes p -> x, `from` bytes x -> p. */
static inline int64_t edge_cost(const kl *k, int64_t to, int64_t from, int p, int x)
{
  if (k->sym)
    return (to + from) * kl_hops(k, p, x);
  return (to ? to * kl_hops(k, p, x) : 0) + (from ? from * kl_hops(k, x, p) : 0);
}

/* Directed hop-bytes of task t if it sat on node x, the other tasks where
 * they are (a neighbour on x itself costs 0). If `partner` is a neighbour
 * of t, *wpair gets the bytes between them, both ways. */
static int64_t task_cost(const kl *k, int t, int x, int partner, int64_t *wpair)
{
  const refine_state *st = &k->st;
  const sym_graph *s = &st->s;
  int64_t c = 0;
  for (int j = s->xadj[t]; j < s->xadj[t + 1]; j++) {
    int n = s->adj[j];
    if (n == partner)
      *wpair += s->wout[j] + s->win[j];
    c += edge_cost(k, s->wout[j], s->win[j], x, st->node[n]);
  }
  return c;
}

/* Cost of task t on its own node, cached per pass. */
static inline int64_t own_cost(kl *k, int t)
{
  if (k->own_stamp[t] != k->pass) {
    k->own_stamp[t] = k->pass;
    k->own[t] = task_cost(k, t, k->st.node[t], -1, NULL);
  }
  return k->own[t];
}

/* Hop-bytes reduction if the contents of nodes a and b were exchanged
 * (-refine_state_swap_delta): with S(t, x) the cost of t on x,
 *   S(ta,a) - S(ta,b) + S(tb,b) - S(tb,a) - w_ab (h(a,b) + h(b,a))
 * where w_ab is the traffic between ta and tb both ways (S counts their
 * edge once on each side at its old length, the swap only reverses it). */
static int64_t pair_gain(kl *k, int a, int b)
{
  const refine_state *st = &k->st;
  int ta = st->node_task[a], tb = st->node_task[b];
  int64_t g = 0, wab = 0;
  if (ta >= 0)
    g += own_cost(k, ta) - task_cost(k, ta, b, tb, &wab);
  if (tb >= 0)
    g += own_cost(k, tb) - task_cost(k, tb, a, -1, NULL);
  if (wab)
    g -= wab * (kl_hops(k, a, b) + kl_hops(k, b, a));
  return g;
}

/* After swapping pair q (task x moved a -> b, task y b -> a): lock both
 * nodes, drop their pairs, and update the gains of the open pairs of the
 * moved tasks' neighbours in O(1) per (pair, edge) - only the term of the
 * edge to the moved task changes (selvitopi, "Gain Update"). Each changed
 * pair's key changes (and is re-sifted) once. */
static void after_swap(kl *k, int q)
{
  const refine_state *st = &k->st;
  const sym_graph *s = &st->s;
  int a = k->pa[q], b = k->pb[q];
  k->locked[a] = k->locked[b] = 1;
  for (int i = k->poff[a]; i < k->poff[a + 1]; i++)
    kl_heap_remove(k, k->plist[i]);
  for (int i = k->poff[b]; i < k->poff[b + 1]; i++)
    kl_heap_remove(k, k->plist[i]);
  int ntouched = 0;
  if (++k->round == G_MAXINT) { /* stamps wrapped: reset once */
    memset(k->tstamp, 0, sizeof(int) * ((size_t)k->npairs + 1));
    k->round = 1;
  }
  for (int e = 0; e < 2; e++) {
    int from = e ? b : a, to = e ? a : b; /* the task now on `to` came from `from` */
    int m = st->node_task[to];
    if (m < 0)
      continue;
    for (int j = s->xadj[m]; j < s->xadj[m + 1]; j++) {
      int u = st->node[s->adj[j]];
      if (k->locked[u])
        continue;
      /* neighbour n on u; bytes n -> m are win[j], m -> n are wout[j] */
      int64_t wto = s->win[j], wfrom = s->wout[j];
      int64_t cu = edge_cost(k, wto, wfrom, u, to) - edge_cost(k, wto, wfrom, u, from);
      for (int i = k->poff[u]; i < k->poff[u + 1]; i++) {
        int r = k->plist[i];
        if (k->hpos[r] < 0)
          continue;
        int v = k->pnbr[i];
        /* term of n: cost at u minus cost at v, with m at to instead of from */
        int64_t d = cu - edge_cost(k, wto, wfrom, v, to) + edge_cost(k, wto, wfrom, v, from);
        if (k->tstamp[r] != k->round) {
          k->tstamp[r] = k->round;
          k->touched[ntouched++] = r;
          k->delta[r] = d;
        } else {
          k->delta[r] += d;
        }
      }
    }
  }
  for (int i = 0; i < ntouched; i++) { /* one key at a time keeps the heap valid */
    int r = k->touched[i];
    if (!k->delta[r])
      continue;
    k->gain[r] += k->delta[r];
    k->heap[k->hpos[r]].g = k->gain[r];
    kl_sift_up(k, k->hpos[r]);
    kl_sift_down(k, k->hpos[r]);
  }
}

static inline void dirty_node(kl *k, int v)
{
  for (int i = k->poff[v]; i < k->poff[v + 1]; i++)
    k->dirty[k->plist[i]] = k->dirty_mark;
}

/* The state now differs from the start of the pass by the first `kept`
 * swaps of the log: the gains of the pairs of their nodes and of their
 * tasks' neighbours' nodes changed; every other pair keeps its gain0. */
static void mark_dirty(kl *k, int kept)
{
  const refine_state *st = &k->st;
  const sym_graph *s = &st->s;
  k->dirty_mark++;
  for (int i = 0; i < kept; i++) {
    int q = k->log[i];
    for (int e = 0; e < 2; e++) {
      int w = e ? k->pb[q] : k->pa[q], m = st->node_task[w];
      dirty_node(k, w);
      if (m >= 0)
        for (int j = s->xadj[m]; j < s->xadj[m + 1]; j++)
          dirty_node(k, st->node[s->adj[j]]);
    }
  }
}

/* One KL pass; returns the gain kept after the rollback (>= 0). */
static int64_t kl_pass(kl *k)
{
  const refine_state *st = &k->st;
  int nn = st->p->topo->nnodes, nlog = 0, best_len = 0;
  int64_t cum = 0, best = 0;
  memset(k->locked, 0, (size_t)nn);
  k->pass++;
  k->hsize = 0;
  for (int q = 0; q < k->npairs; q++) {
    int a = k->pa[q], b = k->pb[q];
    if (st->node_task[a] < 0 && st->node_task[b] < 0) {
      k->hpos[q] = -1;
      continue;
    }
    if (!k->dirty_mark || k->dirty[q] == k->dirty_mark)
      k->gain0[q] = pair_gain(k, a, b);
    k->gain[q] = k->gain0[q];
    k->hpos[q] = k->hsize;
    k->heap[k->hsize++] = (klent){ k->gain[q], q };
  }
  for (int i = k->hsize / 2 - 1; i >= 0; i--)
    kl_sift_down(k, i);
  while (k->hsize > 0) {
    if ((nlog & 4095) == 4095 && progress_stopped(k->prog))
      break; /* the rollback below keeps the best prefix so far */
    int q = k->heap[0].id;
    kl_heap_remove(k, q);
    refine_state_swap(&k->st, k->pa[q], k->pb[q]);
    cum += k->gain[q];
    k->log[nlog++] = q;
    if (cum > best)
      best = cum, best_len = nlog;
    after_swap(k, q);
  }
  while (nlog > best_len) { /* roll back to the best prefix */
    int q = k->log[--nlog];
    refine_state_swap(&k->st, k->pa[q], k->pb[q]);
  }
  mark_dirty(k, best_len);
  return best;
}

static gboolean run_kl(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                       GError **error)
{
  kl k = { .prog = ctx->prog };
  if (!refine_state_init(&k.st, ctx, m, "kl", error))
    return FALSE;
  if (!refine_state_objective(&k.st, strategy_arg_str(args, "obj"), "kl", error)) {
    refine_state_clear(&k.st);
    return FALSE;
  }
  int nn = ctx->p->topo->nnodes;
  /* coordinate hops: |dx| with wrap, symmetric; weighted ones need not be */
  k.sym = k.st.h.fast && !k.st.h.weight;
  hops_init(&k);
  build_pairs(&k, strategy_arg_int(args, "t"));
  size_t np = (size_t)k.npairs + 1;
  k.gain = g_new0(int64_t, np);
  k.locked = g_new0(uint8_t, nn);
  k.log = g_new(int, np);
  k.touched = g_new(int, np);
  k.tstamp = g_new0(int, np);
  k.delta = g_new0(int64_t, np);
  k.gain0 = g_new0(int64_t, np);
  k.own = g_new0(int64_t, (size_t)k.st.s.n + 1);
  k.own_stamp = g_new0(int, (size_t)k.st.s.n + 1);
  k.dirty = g_new0(int, np);
  k.heap = g_new(klent, np);
  k.hpos = g_new(int, np);
  double eps = strategy_arg_double(args, "eps");
  int passes = strategy_arg_int(args, "passes");
  int64_t total = refine_state_total(&k.st);
  for (int i = 0; i < passes && total > 0 && !progress_stopped(ctx->prog); i++) {
    int64_t g = kl_pass(&k);
    total -= g;
    progress_report(ctx->prog, "kl passes", (uint64_t)i + 1, (uint64_t)passes);
    if (g <= 0 || (double)g < eps * (double)(total + g))
      break;
  }
  g_free(k.pa);
  g_free(k.pb);
  g_free(k.poff);
  g_free(k.plist);
  g_free(k.pnbr);
  g_free(k.gain);
  g_free(k.locked);
  g_free(k.log);
  g_free(k.touched);
  g_free(k.tstamp);
  g_free(k.delta);
  g_free(k.gain0);
  g_free(k.dist_buf);
  g_free(k.own);
  g_free(k.own_stamp);
  g_free(k.dirty);
  g_free(k.heap);
  g_free(k.hpos);
  refine_state_clear(&k.st);
  return TRUE;
}

static const strategy_param kl_params[] = {
  { "t", SPARAM_INT, "1", "1..64", "swap partners at most t hops apart (threshold t)" },
  { "eps", SPARAM_DOUBLE, "0.001", "0..1", "stop when a pass gains less than this fraction" },
  { "passes", SPARAM_INT, "100", "1..", "at most this many passes" },
  REFINE_OBJ_PARAM,
  { NULL },
};

const strategy strategy_kl = {
  .name = "kl",
  .kind = STRATEGY_REFINE,
  .summary = "KL task swaps within t hops, best-prefix rollback, on hop-bytes",
  .paper = "selvitopi Section 3 (KL-based heuristic; random start)",
  .params = kl_params,
  .start = "random",
  .cost = "O(E log E) per pass, passes until one gains less than eps; a time limit or an "
          "interrupt stops it at its best so far",
  .max_ranks = -1,
  .run = run_kl,
};
