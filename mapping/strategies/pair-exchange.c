/* pair-exchange.c - pairwise-exchange refiners: `bokhari` (korndoerfer2021
 * Section 6.3, after Bokhari 1981, as MapLib's mapper/mapping.py Bokhari)
 * and `pairs` (bhatele2010 Section 9.1, Heuristic 7, PAIRS).
 *
 * bokhari maximizes the cardinality: the task-graph edges {u, v} whose
 * nodes are linked (one hop). A pass takes every task u in turn and makes
 * the exchange with the node v (every allocated node; an empty one makes
 * it a move) of the largest cardinality gain. At a local optimum it
 * records the best mapping and makes `jump` random exchanges (MapLib: the
 * largest dimension of the mesh; seeded), searches again, and stops after
 * `tries` jumps in a row that did not beat the best; the best is returned,
 * so the cardinality never drops. Deliberate differences from MapLib:
 * MapLib also makes exchanges of gain 0 (its `gain >= max_gain`) and stops
 * at the first jump whose optimum is worse, looping while they tie; we
 * make a gain-0 exchange only when it lowers hop-bytes (the walk over the
 * large plateaus of cardinality is directed and ends), and count `tries`.
 *
 * pairs lowers hop-bytes: rounds of `trials` x tasks random exchanges of a
 * task with an allocated node (seeded), each kept only if hop-bytes drops,
 * until a round gains less than `eps` of the hop-bytes. Hop-bytes never
 * rise. The thesis uses it from MHT or the default mapping to approximate
 * the optimum (Section 9.1.2, 10.5.2); the pipeline gives the start.
 *
 * Both work on one task per node (strategy_run groups the tasks of a node
 * first). Cost: bokhari O(n x nodes x degree) per pass; pairs O(degree)
 * per trial.
 */
#include <string.h>

#include "mapping/map-util.h"

/* ---- bokhari ---- */

typedef struct bok {
  refine_state st;
} bok;

/* Neighbours of t one hop away if t sat on node x (`skip` ignored). */
static int card_at(const refine_state *st, int t, int x, int skip)
{
  const sym_graph *s = &st->s;
  int c = 0;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int u = s->adj[k];
    if (u == skip)
      continue;
    int v = st->node[u];
    if (v != x && hop_table_get(&st->h, x, v) == 1)
      c++;
  }
  return c;
}

/* Cardinality gain of exchanging the contents of nodes a and b (the edge
 * between their tasks keeps its length). */
static int card_gain(const refine_state *st, int a, int b)
{
  int ta = st->node_task[a], tb = st->node_task[b], g = 0;
  if (ta >= 0)
    g += card_at(st, ta, b, tb) - card_at(st, ta, a, tb);
  if (tb >= 0)
    g += card_at(st, tb, a, ta) - card_at(st, tb, b, ta);
  return g;
}

static int64_t cardinality(const refine_state *st)
{
  int64_t c = 0;
  for (int t = 0; t < st->s.n; t++)
    c += card_at(st, t, st->node[t], -1);
  return c / 2;
}

/* One augmenting pass; TRUE if an exchange was made. */
static gboolean bok_pass(bok *b)
{
  refine_state *st = &b->st;
  const platform *p = st->p;
  gboolean any = FALSE;
  for (int u = 0; u < st->s.n; u++) {
    int a = st->node[u], best = -1, bg = 0;
    int64_t bd = 0;
    for (int i = 0; i < p->nalloc; i++) {
      int v = p->alloc[i];
      if (v == a)
        continue;
      int g = card_gain(st, a, v);
      if (g < 0 || g < bg)
        continue;
      int64_t d = refine_state_swap_delta(st, a, v);
      if (g == 0 && d >= 0)
        continue;
      if (best < 0 || g > bg || d < bd)
        best = v, bg = g, bd = d;
    }
    if (best >= 0) {
      refine_state_swap(st, a, best);
      any = TRUE;
    }
  }
  return any;
}

static gboolean run_bokhari(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                            GError **error)
{
  bok b;
  if (!refine_state_init(&b.st, ctx, m, "bokhari", error))
    return FALSE;
  const platform *p = ctx->p;
  int n = m->ntasks, jump = strategy_arg_int(args, "jump"), tries = strategy_arg_int(args, "tries");
  if (jump == 0 && topo_is_regular(p->topo))
    for (int d = 0; d < p->topo->ndims; d++)
      jump = MAX(jump, p->topo->shape[d]);
  jump = MAX(jump, 1);
  GRand *rng = g_rand_new_with_seed(ctx->seed);
  int *best = g_memdup2(m->node, sizeof(int) * (size_t)n);
  int64_t best_card = -1, best_hb = 0;
  for (int fails = 0; fails < tries && !progress_stopped(ctx->prog);) {
    while (!progress_stopped(ctx->prog) && bok_pass(&b)) /* every pass keeps it valid */
      ;
    int64_t card = cardinality(&b.st), hb = refine_state_total(&b.st);
    if (card > best_card || (card == best_card && hb < best_hb)) {
      best_card = card, best_hb = hb;
      memcpy(best, m->node, sizeof(int) * (size_t)n);
      fails = 0;
    } else {
      fails++;
    }
    if (p->nalloc < 2)
      break;
    for (int j = 0; j < jump; j++) { /* a probabilistic jump */
      int a = p->alloc[g_rand_int_range(rng, 0, p->nalloc)];
      int c = p->alloc[g_rand_int_range(rng, 0, p->nalloc)];
      if (a != c)
        refine_state_swap(&b.st, a, c);
    }
  }
  memcpy(m->node, best, sizeof(int) * (size_t)n);
  g_free(best);
  g_rand_free(rng);
  refine_state_clear(&b.st);
  return TRUE;
}

/* ---- pairs ---- */

static gboolean run_pairs(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                          GError **error)
{
  refine_state st;
  if (!refine_state_init(&st, ctx, m, "pairs", error))
    return FALSE;
  if (!refine_state_objective(&st, strategy_arg_str(args, "obj"), "pairs", error)) {
    refine_state_clear(&st);
    return FALSE;
  }
  const platform *p = ctx->p;
  int n = m->ntasks, trials = strategy_arg_int(args, "trials");
  double eps = strategy_arg_double(args, "eps");
  GRand *rng = g_rand_new_with_seed(ctx->seed);
  int64_t total = refine_state_total(&st);
  while (n > 0 && p->nalloc > 1 && total > 0 && !progress_stopped(ctx->prog)) {
    int64_t start = total;
    for (int64_t i = 0; i < (int64_t)trials * n; i++) {
      if ((i & 65535) == 65535 && progress_stopped(ctx->prog))
        break; /* every kept exchange left a valid mapping */
      int a = st.node[g_rand_int_range(rng, 0, n)];
      int b = p->alloc[g_rand_int_range(rng, 0, p->nalloc)];
      if (a == b)
        continue;
      int64_t d = refine_state_swap_delta(&st, a, b);
      if (d < 0) {
        refine_state_swap(&st, a, b);
        total += d;
      }
    }
    if ((double)(start - total) <= eps * (double)start)
      break;
  }
  g_rand_free(rng);
  refine_state_clear(&st);
  return TRUE;
}

static const strategy_param bokhari_params[] = {
  { "jump", SPARAM_INT, "0", "0..", "random exchanges per jump (0: the largest mesh dimension)" },
  { "tries", SPARAM_INT, "8", "1..", "stop after this many jumps in a row without a better optimum" },
  { NULL },
};

static const strategy_param pairs_params[] = {
  { "trials", SPARAM_INT, "64", "1..", "random exchanges tried per task in a round" },
  { "eps", SPARAM_DOUBLE, "0.001", "0..1", "stop when a round gains less than this fraction" },
  REFINE_OBJ_PARAM,
  { NULL },
};

const strategy strategy_bokhari = {
  .name = "bokhari",
  .kind = STRATEGY_REFINE,
  .summary = "pairwise exchanges maximizing edges on links (cardinality), seeded random jumps",
  .paper = "korndoerfer2021 Section 6.3 (Bokhari 1981; MapLib Bokhari)",
  .params = bokhari_params,
  .start = "identity",
  .cost = "O(n N degree) per pass",
  .max_ranks = 1024,
  .run = run_bokhari,
};

const strategy strategy_pairs = {
  .name = "pairs",
  .kind = STRATEGY_REFINE,
  .summary = "random pairwise exchanges kept when hop-bytes drop, until a round gains < eps",
  .paper = "bhatele2010 Section 9.1, Heuristic 7 (PAIRS)",
  .params = pairs_params,
  .start = "identity",
  .cost = "O(trials n degree) per round",
  .max_ranks = 4096,
  .run = run_pairs,
};
