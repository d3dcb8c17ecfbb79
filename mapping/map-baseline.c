/* map-baseline.c - the baselines: identity (rank r on the r-th allocated
 * slot; the default "sweep" placement of korndoerfer2021 Section 6.2) and a
 * seeded random placement. Both fill node slots directly (block order:
 * the cores of one node, then the next node). */
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
  .run = run_identity,
};

/* A seeded uniform permutation of the slots (Fisher-Yates, GLib's Mersenne
 * Twister): the same seed gives the same mapping on every machine. */
static gboolean run_random(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  const platform *p = ctx->p;
  int nslots = platform_capacity(p);
  int *slot = g_new(int, nslots);
  for (int i = 0; i < nslots; i++)
    slot[i] = i;
  GRand *rng = g_rand_new_with_seed(ctx->seed);
  for (int i = 0; i < m->ntasks; i++) {
    int j = g_rand_int_range(rng, i, nslots);
    int t = slot[i];
    slot[i] = slot[j];
    slot[j] = t;
    m->node[i] = p->alloc[slot[i] / p->cores_per_node];
  }
  g_rand_free(rng);
  g_free(slot);
  return TRUE;
}

const strategy strategy_random = {
  .name = "random",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "seeded uniformly random placement (--seed)",
  .paper = "selvitopi (random start of KL); baseline",
  .places_slots = TRUE,
  .run = run_random,
};
