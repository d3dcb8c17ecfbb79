/* map-kl.c - `kl`: the Kernighan-Lin style swap heuristic of selvitopi
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
 * Cost per pass: O(P log P) for the P pairs plus, per swap, the gain
 * updates of the pairs around the two tasks' neighbours. */
#include "mapping/map-util.h"

typedef struct kl {
  mstate st;
  int npairs;
  int *pa, *pb;        /* pairs of nodes */
  int *poff, *plist;   /* pairs of each node (CSR over all nodes) */
  int64_t *gain;       /* pairs: hop-bytes reduction if swapped */
  uint8_t *locked;     /* nodes */
  int *log;            /* pairs swapped this pass, in order */
  int *pstamp;         /* pairs: last refresh round */
  int round;
  mheap heap;
} kl;

/* All pairs of allocated nodes within `t` hops, each once. */
static void build_pairs(kl *k, int t)
{
  const platform *p = k->st.p;
  int nn = p->topo->nnodes;
  GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *b = g_array_new(FALSE, FALSE, sizeof(int));
  mbfs bfs;
  mbfs_init(&bfs, p->topo);
  for (int i = 0; i < p->nalloc; i++) {
    int u = p->alloc[i];
    mbfs_start(&bfs);
    mbfs_add(&bfs, u);
    for (int v; (v = mbfs_next(&bfs)) >= 0 && bfs.level <= t;)
      if (p->alloc_index[v] > i) {
        g_array_append_val(a, u);
        g_array_append_val(b, v);
      }
  }
  mbfs_clear(&bfs);
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
  for (int q = 0; q < k->npairs; q++)
    k->plist[fill[k->pa[q]]++] = q, k->plist[fill[k->pb[q]]++] = q;
  g_free(fill);
}

/* Re-evaluates pair q if it is still open (unlocked, not both empty). */
static void refresh_pair(kl *k, int q)
{
  int a = k->pa[q], b = k->pb[q];
  if (k->locked[a] || k->locked[b] || (k->st.node_task[a] < 0 && k->st.node_task[b] < 0)) {
    mheap_remove(&k->heap, q);
    return;
  }
  k->gain[q] = -mstate_swap_delta(&k->st, a, b);
  mheap_set(&k->heap, q, (double)k->gain[q]);
}

/* Refreshes the pairs of node v not yet refreshed in this round. */
static void refresh_node(kl *k, int v)
{
  for (int i = k->poff[v]; i < k->poff[v + 1]; i++) {
    int q = k->plist[i];
    if (k->pstamp[q] != k->round) {
      k->pstamp[q] = k->round;
      refresh_pair(k, q);
    }
  }
}

/* After swapping pair q: lock its nodes, update the gains around. */
static void after_swap(kl *k, int q)
{
  const msym *s = &k->st.s;
  int ends[2] = { k->pa[q], k->pb[q] };
  k->locked[ends[0]] = k->locked[ends[1]] = 1;
  k->round++;
  for (int e = 0; e < 2; e++) {
    refresh_node(k, ends[e]); /* removes its pairs */
    int t = k->st.node_task[ends[e]];
    if (t < 0)
      continue;
    for (int j = s->xadj[t]; j < s->xadj[t + 1]; j++)
      refresh_node(k, k->st.node[s->adj[j]]);
  }
}

/* One KL pass; returns the gain kept after the rollback (>= 0). */
static int64_t kl_pass(kl *k)
{
  int nn = k->st.p->topo->nnodes, nlog = 0, best_len = 0;
  int64_t cum = 0, best = 0;
  for (int v = 0; v < nn; v++)
    k->locked[v] = 0;
  for (int q = 0; q < k->npairs; q++)
    refresh_pair(k, q);
  for (int q; (q = mheap_pop(&k->heap)) >= 0;) {
    mstate_swap(&k->st, k->pa[q], k->pb[q]);
    cum += k->gain[q];
    k->log[nlog++] = q;
    if (cum > best)
      best = cum, best_len = nlog;
    after_swap(k, q);
  }
  while (nlog > best_len) { /* roll back to the best prefix */
    int q = k->log[--nlog];
    mstate_swap(&k->st, k->pa[q], k->pb[q]);
  }
  return best;
}

static gboolean run_kl(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                       GError **error)
{
  kl k = { 0 };
  if (!mstate_init(&k.st, ctx, m, "kl", error))
    return FALSE;
  int nn = ctx->p->topo->nnodes;
  build_pairs(&k, strategy_arg_int(args, "t"));
  k.gain = g_new0(int64_t, k.npairs + 1);
  k.locked = g_new0(uint8_t, nn);
  k.log = g_new(int, k.npairs + 1);
  k.pstamp = g_new0(int, k.npairs + 1);
  mheap_init(&k.heap, k.npairs);
  double eps = strategy_arg_double(args, "eps");
  int passes = strategy_arg_int(args, "passes");
  int64_t total = mstate_total(&k.st);
  for (int i = 0; i < passes && total > 0; i++) {
    int64_t g = kl_pass(&k);
    total -= g;
    if (g <= 0 || (double)g < eps * (double)(total + g))
      break;
  }
  mheap_clear(&k.heap);
  g_free(k.pa);
  g_free(k.pb);
  g_free(k.poff);
  g_free(k.plist);
  g_free(k.gain);
  g_free(k.locked);
  g_free(k.log);
  g_free(k.pstamp);
  mstate_clear(&k.st);
  return TRUE;
}

static const strategy_param kl_params[] = {
  { "t", SPARAM_INT, "1", "1..64", "swap partners at most t hops apart (threshold t)" },
  { "eps", SPARAM_DOUBLE, "0.001", "0..1", "stop when a pass gains less than this fraction" },
  { "passes", SPARAM_INT, "100", "1..", "at most this many passes" },
  { NULL },
};

const strategy strategy_kl = {
  .name = "kl",
  .kind = STRATEGY_REFINE,
  .summary = "KL task swaps within t hops, best-prefix rollback, on hop-bytes",
  .paper = "selvitopi Section 3 (KL-based heuristic; random start)",
  .params = kl_params,
  .start = "random",
  .run = run_kl,
};
