/* test_fill.c - every strategy fills nodes by the same rule
 * (platform_ranks_per_node): under each fill policy, on several platforms,
 * cores per node and allocations, every strategy of the registry uses the
 * same number of nodes, ceil(ranks / ranks_per_node), and never more ranks
 * on a node than the rule allows. */
#include <criterion/criterion.h>

#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "evalhook.h"
#include "stencil.h"
#include "testutil.h"

typedef struct fill_case {
  const char *platform;
  const char *alloc;   /* NULL: all */
  int cores, ranks;
  const char *fill;
  int expect_per_node; /* by hand */
} fill_case;

static const fill_case cases[] = {
  /* 64 ranks on 64 16-core nodes: pack uses 4 full nodes, spread all 64 */
  { "torus:4x4x4", NULL, 16, 64, "pack", 16 },
  { "torus:4x4x4", NULL, 16, 64, "spread", 1 },
  /* 64 ranks on 40 nodes: spread needs 2 per node, hence 32 nodes */
  { "torus:4x4x4", "random:40:3", 16, 64, "spread", 2 },
  { "torus:4x4x4", "random:40:3", 4, 64, "pack", 4 },
  /* 27 ranks: pack 4 per node leaves the last node with 3 */
  { "mesh:4x4x4", NULL, 4, 27, "pack", 4 },
  { "mesh:4x4x4", NULL, 4, 27, "spread", 1 },
  { "haec:4x4x4", NULL, 2, 100, "spread", 2 },
  { "haec:4x4x4", NULL, 2, 100, "pack", 2 },
};

/* Strategies that need inputs a random graph does not have. */
static gboolean needs_coordinates(const char *name)
{
  return g_strcmp0(name, "geometric") == 0;
}

Test(fill, same_nodes_used_for_every_strategy)
{
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    const fill_case *fc = &cases[c];
    platform *p = tu_platform(fc->platform);
    GError *e = NULL;
    if (fc->alloc)
      cr_assert(platform_set_allocation(p, fc->alloc, &e));
    cr_assert(platform_set_cores(p, fc->cores, &e));
    cr_assert(platform_set_fill(p, fc->fill, &e));
    int per = platform_ranks_per_node(p, fc->ranks);
    cr_assert_eq(per, fc->expect_per_node, "case %zu: %d per node", c, per);
    int nodes = (fc->ranks + per - 1) / per;
    commgraph *g = st_random_graph(fc->ranks, 4, (guint32)c + 1);
    mapping *id = mapping_identity(p, fc->ranks, &e);
    metrics *mi = metrics_compute(g, p, id);
    cr_assert_eq(mi->nodes_used, nodes, "case %zu identity", c);
    int ran = 0;
    for (int i = 0; strategy_registry[i]; i++) {
      const char *name = strategy_registry[i]->name;
      if (needs_coordinates(name))
        continue;
      strategy_pipeline *pl = strategy_parse(name, &e);
      cr_assert_not_null(pl, "%s", name);
      eh_hook h; /* the strategies that optimize by simulation score hop-bytes here */
      eh_init(&h, g, p);
      mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 7,
                                                     .eval = &h.hook },
                                &e);
      if (!m) {
        /* curves refuse shapes they are not defined for; nothing else may fail */
        cr_assert(g_error_matches(e, STRATEGY_ERROR, STRATEGY_ERROR_INPUT), "case %zu %s: %s", c,
                  name, e->message);
        g_clear_error(&e);
        strategy_pipeline_free(pl);
        continue;
      }
      metrics *x = metrics_compute(g, p, m);
      cr_assert_eq(x->nodes_used, nodes, "case %zu (%s %s %d cores %d ranks) %s: %d nodes used, "
                   "expected %d", c, fc->platform, fc->fill, fc->cores, fc->ranks, name,
                   x->nodes_used, nodes);
      cr_assert_leq(x->ranks_per_node, per, "case %zu %s", c, name);
      metrics_free(x);
      mapping_free(m);
      strategy_pipeline_free(pl);
      ran++;
    }
    cr_assert_geq(ran, 10, "case %zu: only %d strategies ran", c, ran);
    metrics_free(mi);
    mapping_free(id);
    commgraph_free(g);
    platform_free(p);
  }
}

/* geometric with grid coordinates keeps the rule as well. */
Test(fill, geometric_with_coordinates)
{
  int dims[3] = { 4, 4, 4 };
  commgraph *g = st_stencil(3, dims, TRUE, NULL);
  for (int f = 0; f < 2; f++) {
    platform *p = tu_platform("torus:4x4x4");
    GError *e = NULL;
    cr_assert(platform_set_allocation(p, "random:40:3", &e));
    cr_assert(platform_set_cores(p, 4, &e));
    cr_assert(platform_set_fill(p, f ? "spread" : "pack", &e));
    int per = platform_ranks_per_node(p, 64);
    strategy_pipeline *pl = strategy_parse("geometric", &e);
    mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1 }, &e);
    cr_assert_not_null(m, "%s", e ? e->message : "");
    metrics *x = metrics_compute(g, p, m);
    cr_assert_eq(x->nodes_used, (64 + per - 1) / per, "fill %d: %d", f, x->nodes_used);
    metrics_free(x);
    mapping_free(m);
    strategy_pipeline_free(pl);
    platform_free(p);
  }
  commgraph_free(g);
}

Test(fill, bad_policy_named)
{
  platform *p = tu_platform("torus:2x2");
  GError *e = NULL;
  cr_assert_not(platform_set_fill(p, "round-robin", &e));
  cr_assert_not_null(strstr(e->message, "'round-robin'"), "%s", e->message);
  cr_assert_not_null(strstr(e->message, "pack"), "%s", e->message);
  g_error_free(e);
  platform_free(p);
}
