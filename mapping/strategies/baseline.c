/* baseline.c - the baselines: identity (rank r on the r-th allocated
 * slot; the default "sweep" placement of korndoerfer2021 Section 6.2) and a
 * seeded random placement. Both fill node slots directly (block order:
 * the cores of one node, then the next node) and use the nodes the fill
 * rule allows (strategy_run hands them cores_per_node = ranks per node). */
#include "mapping/strategy.h"

static gboolean run_identity(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                             GError **error)
{
  for (int r = 0; r < m->ntasks; r++)
    m->node[r] = ctx->p->alloc[r / ctx->p->cores_per_node];
  return TRUE;
}

const strategy strategy_identity = {
  .name = "identity",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "rank r on the r-th allocated slot (default MPI order, \"sweep\")",
  .paper = "korndoerfer2021 Section 6.2 (sweep); deveci2015 DEF",
  .places_slots = TRUE,
  .cost = "O(n)",
  .max_ranks = 0,
  .run = run_identity,
};

/* Partial Fisher-Yates: the first n entries of a[0..len-1] become a
 * uniform random selection in random order (GLib's Mersenne Twister, so
 * the same seed gives the same result on every machine). */
static void shuffle_prefix(GRand *rng, int *a, int len, int n)
{
  for (int i = 0; i < n; i++) {
    int j = g_rand_int_range(rng, i, len);
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/* Uniformly random under the fill rule: k = ceil(n / cores) random
 * allocated nodes, then the ranks in random slots of those nodes. */
static gboolean run_random(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  const platform *p = ctx->p;
  int n = m->ntasks, cap = p->cores_per_node, k = n ? (n + cap - 1) / cap : 0;
  int *nodes = g_memdup2(p->alloc, sizeof(int) * (size_t)MAX(p->nalloc, 1));
  GRand *rng = g_rand_new_with_seed(ctx->seed);
  shuffle_prefix(rng, nodes, p->nalloc, k);
  if (cap == 1) {
    for (int i = 0; i < n; i++)
      m->node[i] = nodes[i];
  } else {
    int nslots = k * cap;
    int *slot = g_new(int, nslots);
    for (int i = 0; i < nslots; i++)
      slot[i] = i;
    shuffle_prefix(rng, slot, nslots, n);
    for (int i = 0; i < n; i++)
      m->node[i] = nodes[slot[i] / cap];
    g_free(slot);
  }
  g_rand_free(rng);
  g_free(nodes);
  return TRUE;
}

const strategy strategy_random = {
  .name = "random",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "seeded uniformly random placement (--seed)",
  .paper = "selvitopi (random start of KL); baseline",
  .places_slots = TRUE,
  .cost = "O(n)",
  .max_ranks = 0,
  .run = run_random,
};
