/* tabu-search.c - `tabu`: robust tabu search on hop-bytes (Taillard, "Robust
 * taboo search for the quadratic assignment problem", Parallel Computing
 * 17, 1991, Sections 2-3), the strong local search for the quadratic
 * assignment problem that hop-bytes mapping is (korndoerfer2021 eq. 1 is
 * its objective).
 *
 * The tasks and the empty allocated nodes (dummy tasks without traffic)
 * form a permutation of the N allocated nodes. Every iteration makes the
 * exchange of two nodes' contents of least change in hop-bytes that is not
 * tabu - even a worsening one - where an exchange is tabu when it puts both
 * tasks back on nodes they left within their tenure (u^3 T for u uniform
 * in [0, 1), T drawn in [0.9 N, 1.1 N] every 2.2 N iterations), unless it
 * is aspired: it reaches a new best, or puts a task on a node it has not
 * left for `aspire` N^2 iterations (or never held; Taillard's long-term
 * aspiration, which drives the search off plateaus; 0 turns it off). The
 * change of every exchange is kept in an N x N table: O(N) to compute
 * afresh, O(1) to update after an exchange of two other tasks (Taillard's
 * formula, in its asymmetric form so that one-way links and route tables
 * are exact). After `iters` iterations (0: 100 N) the best mapping met is
 * returned: hop-bytes never rise. Seeded (tenures, ties).
 *
 * Works on one task per node (strategy_run groups the tasks of a node
 * first), up to TABU_MAX_NODES allocated nodes. Cost: O(N^2) per iteration,
 * 20 N^2 bytes of tables. Progress: iterations; an interrupt ends the
 * search with the best mapping so far.
 */
#include <string.h>

#include "mapping/map-util.h"

#define TABU_MAX_NODES 1024

typedef struct tabu {
  int N;
  int64_t *a;      /* N x N: bytes from task i to task j (dummies: 0) */
  int32_t *b;      /* N x N: hops from node index x to node index y */
  int *p;          /* N: node index of task i */
  int64_t *delta;  /* N x N, i < j: change if tasks i and j exchange nodes */
  int64_t *tabu;   /* N x N: tabu[i * N + x]: until which iteration i may not return to x */
} tabu;

#define A(i, j) t->a[(size_t)(i) * N + (j)]
#define B(x, y) ((int64_t)t->b[(size_t)(x) * N + (y)])

/* Change of hop-bytes if tasks r and s exchanged nodes, from scratch. */
static int64_t delta_full(const tabu *t, int r, int s)
{
  int N = t->N;
  const int *p = t->p;
  int pr = p[r], ps = p[s];
  int64_t d = (A(r, s) - A(s, r)) * (B(ps, pr) - B(pr, ps));
  for (int k = 0; k < N; k++) {
    if (k == r || k == s)
      continue;
    int pk = p[k];
    d += (A(k, r) - A(k, s)) * (B(pk, ps) - B(pk, pr)) +
         (A(r, k) - A(s, k)) * (B(ps, pk) - B(pr, pk));
  }
  return d;
}

static int64_t cost(const tabu *t)
{
  int N = t->N;
  int64_t c = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      c += A(i, j) * B(t->p[i], t->p[j]);
  return c;
}

/* After r and s exchanged (p already updated): every delta of the pairs
 * disjoint from {r, s} by Taillard's O(1) update, the others afresh. */
static void update_deltas(tabu *t, int r, int s)
{
  int N = t->N;
  const int *p = t->p;
  int pr = p[r], ps = p[s];
  for (int u = 0; u < N; u++) {
    if (u == r || u == s)
      continue;
    int pu = p[u];
    for (int v = u + 1; v < N; v++) {
      if (v == r || v == s)
        continue;
      int pv = p[v];
      t->delta[(size_t)u * N + v] +=
        (A(r, u) - A(r, v) + A(s, v) - A(s, u)) * (B(ps, pu) - B(ps, pv) + B(pr, pv) - B(pr, pu)) +
        (A(u, r) - A(v, r) + A(v, s) - A(u, s)) * (B(pu, ps) - B(pv, ps) + B(pv, pr) - B(pu, pr));
    }
  }
  for (int k = 0; k < N; k++) {
    if (k != r)
      t->delta[(size_t)MIN(k, r) * N + MAX(k, r)] = delta_full(t, MIN(k, r), MAX(k, r));
    if (k != s && k != r)
      t->delta[(size_t)MIN(k, s) * N + MAX(k, s)] = delta_full(t, MIN(k, s), MAX(k, s));
  }
}

static gboolean run_tabu(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  const platform *p = ctx->p;
  int N = p->nalloc, n = m->ntasks;
  if (N > TABU_MAX_NODES) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "tabu: %d allocated nodes, expected at most %d (its tables grow as N^2; use kl "
                "or wh at this size)", N, TABU_MAX_NODES);
    return FALSE;
  }
  refine_state st;
  if (!refine_state_init(&st, ctx, m, "tabu", error))
    return FALSE;
  if (!refine_state_objective(&st, strategy_arg_str(args, "obj"), "tabu", error)) {
    refine_state_clear(&st);
    return FALSE;
  }
  tabu T = { .N = N }, *t = &T;
  t->a = g_new0(int64_t, (size_t)N * N + 1);
  t->b = g_new(int32_t, (size_t)N * N + 1);
  t->p = g_new(int, N + 1);
  t->delta = g_new0(int64_t, (size_t)N * N + 1);
  t->tabu = g_new0(int64_t, (size_t)N * N + 1);
  const sym_graph *s = &st.s;
  for (int i = 0; i < n; i++)
    for (int k = s->xadj[i]; k < s->xadj[i + 1]; k++)
      A(i, s->adj[k]) = s->wout[k];
  for (int x = 0; x < N; x++)
    for (int y = 0; y < N; y++)
      t->b[(size_t)x * N + y] = x == y ? 0 : hop_table_get(&st.h, p->alloc[x], p->alloc[y]);
  /* tasks at their nodes; dummies on the empty nodes in order */
  uint8_t *taken = g_new0(uint8_t, N + 1);
  for (int i = 0; i < n; i++) {
    t->p[i] = p->alloc_index[m->node[i]];
    taken[t->p[i]] = 1;
  }
  for (int i = n, x = 0; i < N; i++) {
    while (taken[x])
      x++;
    t->p[i] = x++;
  }
  g_free(taken);
  for (int r = 0; r < N; r++)
    for (int q = r + 1; q < N; q++)
      t->delta[(size_t)r * N + q] = delta_full(t, r, q);
  int64_t iters = strategy_arg_int(args, "iters");
  if (iters == 0)
    iters = 100 * (int64_t)N;
  int64_t aspire = (int64_t)strategy_arg_int(args, "aspire") * N * N;
  GRand *rng = g_rand_new_with_seed(ctx->seed);
  int64_t cur = cost(t), best = cur;
  int *bestp = g_memdup2(t->p, sizeof(int) * (size_t)N);
  /* tabu[i][x]: the iteration until which task i may not go back to x;
   * a negative start, different per pair, reads as "long ago" */
  for (int i = 0; i < N; i++)
    for (int x = 0; x < N; x++)
      t->tabu[(size_t)i * N + x] = -((int64_t)N * i + x);
  int tmin = MAX(2, (int)(0.9 * N)), tmax = MAX(tmin + 1, (int)(1.1 * N) + 1);
  int tenure = g_rand_int_range(rng, tmin, tmax);
  for (int64_t it = 1; it <= iters && N > 1; it++) {
    if (it % (2 * (int64_t)tmax) == 0)
      tenure = g_rand_int_range(rng, tmin, tmax);
    if (it % 256 == 0) {
      progress_report(ctx->prog, "tabu iterations", (uint64_t)it, (uint64_t)iters);
      if (progress_stopped(ctx->prog))
        break; /* interrupted: keep the best so far */
    }
    /* Taillard's rule: an aspired exchange (a new best, or a task going
     * where it has not been for `aspire` N^2 iterations) beats the rest;
     * else the least change among the authorized ones */
    int br = -1, bs = -1, ties = 0;
    int64_t bd = 0;
    gboolean aspired_found = FALSE;
    for (int r = 0; r < n; r++)
      for (int q = r + 1; q < N; q++) {
        int64_t d = t->delta[(size_t)r * N + q];
        int64_t tr = t->tabu[(size_t)r * N + t->p[q]], tq = t->tabu[(size_t)q * N + t->p[r]];
        gboolean authorized = tr < it || tq < it;
        gboolean aspired = cur + d < best || (aspire > 0 && (tr < it - aspire || tq < it - aspire));
        if (aspired_found && !aspired)
          continue;
        if (!aspired && !authorized)
          continue;
        if (aspired && !aspired_found) {
          aspired_found = TRUE;
          br = r, bs = q, bd = d, ties = 1;
        } else if (br < 0 || d < bd) {
          br = r, bs = q, bd = d, ties = 1;
        } else if (d == bd && g_rand_int_range(rng, 0, ++ties) == 0) {
          br = r, bs = q;
        }
      }
    if (br < 0)
      continue; /* everything tabu: wait for tenures to expire */
    int pr = t->p[br], ps = t->p[bs];
    t->p[br] = ps;
    t->p[bs] = pr;
    t->tabu[(size_t)br * N + pr] = it + tenure;
    t->tabu[(size_t)bs * N + ps] = it + tenure;
    cur += bd;
    update_deltas(t, br, bs);
    if (cur < best) {
      best = cur;
      memcpy(bestp, t->p, sizeof(int) * (size_t)N);
    }
  }
  memcpy(t->p, bestp, sizeof(int) * (size_t)N);
  if (cost(t) != best)
    g_error("tabu: tracked hop-bytes %" G_GINT64_FORMAT " differ from %" G_GINT64_FORMAT, best,
            cost(t)); /* a bug in the delta updates, not input */
  for (int i = 0; i < n; i++)
    m->node[i] = p->alloc[t->p[i]];
  g_free(bestp);
  g_rand_free(rng);
  g_free(t->a);
  g_free(t->b);
  g_free(t->p);
  g_free(t->delta);
  g_free(t->tabu);
  refine_state_clear(&st);
  return TRUE;
}

static const strategy_param tabu_params[] = {
  { "iters", SPARAM_INT, "0", "0..", "iterations (0: 100 x allocated nodes)" },
  { "aspire", SPARAM_INT, "4", "0..",
    "aspire to nodes a task has not held for this many N^2 iterations (0: never)" },
  REFINE_OBJ_PARAM,
  { NULL },
};

const strategy strategy_tabu = {
  .name = "tabu",
  .kind = STRATEGY_REFINE,
  .summary = "robust tabu search on hop-bytes: best non-tabu exchange every step, best kept",
  .paper = "Taillard 1991 (robust taboo search for the QAP), Sections 2-3",
  .params = tabu_params,
  .start = "greedy",
  .cost = "O(N^2) per iteration (refuses more than 1,024 nodes)",
  .max_ranks = 1024,
  .run = run_tabu,
};
