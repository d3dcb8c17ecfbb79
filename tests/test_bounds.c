/* test_bounds.c - the lower bounds of mapping/bounds.h: never above any
 * mapping (random graphs, platforms and mappings, and every mapping of
 * small cases by exhaustion), equal to the optimum in hand-computed cases. */
#include <criterion/criterion.h>

#include "mapping/bounds.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "stencil.h"
#include "testutil.h"

#include <json-glib/json-glib.h>
#include <string.h>

static void check_mapping(const commgraph *g, const platform *p, const bounds *b, const mapping *m,
                          const char *what)
{
  metrics *x = metrics_compute(g, p, m);
  cr_assert_geq(x->hop_bytes, b->hop_bytes, "%s on %s: hop_bytes %" G_GINT64_FORMAT
                " below the bound %" G_GINT64_FORMAT " (%s)", what, p->name, x->hop_bytes,
                b->hop_bytes, b->hop_bytes_how);
  cr_assert_geq(x->max_link_bytes, b->max_link_bytes, "%s on %s: max_link_bytes %" G_GINT64_FORMAT
                " below the bound %" G_GINT64_FORMAT " (%s)", what, p->name, x->max_link_bytes,
                b->max_link_bytes, b->max_link_how);
  metrics_free(x);
}

static mapping *run(const char *spec, const commgraph *g, const platform *p, guint32 seed)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  cr_assert_not_null(pl, "%s", e ? e->message : "");
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p,
                                                 .seed = seed },
                            &e);
  cr_assert_not_null(m, "%s: %s", spec, e ? e->message : "");
  strategy_pipeline_free(pl);
  return m;
}

/* Random graphs on random platforms: no random or optimized mapping goes
 * below either bound. */
Test(bounds, never_above_a_mapping)
{
  struct {
    const char *spec, *alloc;
    int cores;
  } plats[] = {
    { "torus:4x4x4", NULL, 0 }, { "mesh:4x4x4", NULL, 0 }, { "haec:4x4x4", NULL, 0 },
    { "mesh:6x12", NULL, 0 },   { "torus:8x8", "random:40:3", 0 }, { "torus:4x4x2", NULL, 3 },
    { "mesh:3x5", NULL, 4 },    { "haec:2x2x3", NULL, 2 },
  };
  GRand *r = g_rand_new_with_seed(2024);
  for (int round = 0; round < 24; round++) {
    int k = round % (int)G_N_ELEMENTS(plats);
    platform *p = tu_platform_with(plats[k].spec, plats[k].alloc, plats[k].cores);
    int cap = platform_capacity(p);
    int n = g_rand_int_range(r, MAX(2, cap / 3), cap + 1);
    commgraph *g = st_random_graph(n, g_rand_int_range(r, 1, 7), (guint32)round + 1);
    bounds b;
    bounds_compute(g, p, &b);
    cr_assert_geq(b.hop_bytes, 0);
    const char *specs[] = { "identity", "random", "greedy+wh", "scotch+kl", "tabu:iters=300" };
    for (size_t s = 0; s < G_N_ELEMENTS(specs); s++) {
      mapping *m = run(specs[s], g, p, (guint32)round);
      check_mapping(g, p, &b, m, specs[s]);
      mapping_free(m);
    }
    commgraph_free(g);
    platform_free(p);
  }
  g_rand_free(r);
}

/* Every injective mapping of n tasks onto the 8 nodes of a 2x2x2 box. */
static void exhaust(const commgraph *g, const platform *p, mapping *m, int k, uint8_t *used,
                    int64_t *min_hb, int64_t *min_ml, const bounds *b)
{
  if (k == g->n) {
    metrics *x = metrics_compute(g, p, m);
    *min_hb = MIN(*min_hb, x->hop_bytes);
    *min_ml = MIN(*min_ml, x->max_link_bytes);
    metrics_free(x);
    return;
  }
  for (int v = 0; v < p->topo->nnodes; v++) {
    if (used[v])
      continue;
    used[v] = 1;
    m->node[k] = v;
    exhaust(g, p, m, k + 1, used, min_hb, min_ml, b);
    used[v] = 0;
  }
}

/* The bounds are at most the optimum found by trying every mapping; tabu
 * finds that optimum. */
Test(bounds, below_the_exhaustive_optimum)
{
  const char *plats[] = { "torus:2x2x2", "mesh:2x2x2", "mesh:8", "haec:2x2x2" };
  for (size_t k = 0; k < G_N_ELEMENTS(plats); k++)
    for (guint32 seed = 1; seed <= 3; seed++) {
      platform *p = tu_platform_with(plats[k], NULL, 0);
      int n = 5 + (int)seed; /* 6..8 tasks */
      commgraph *g = st_random_graph(n, 3, seed * 7 + (guint32)k);
      bounds b;
      bounds_compute(g, p, &b);
      mapping *m = mapping_new(n);
      uint8_t used[8] = { 0 };
      int64_t min_hb = INT64_MAX, min_ml = INT64_MAX;
      exhaust(g, p, m, 0, used, &min_hb, &min_ml, &b);
      cr_assert_leq(b.hop_bytes, min_hb, "%s seed %u", plats[k], seed);
      cr_assert_leq(b.max_link_bytes, min_ml, "%s seed %u", plats[k], seed);
      mapping_free(m);
      m = run("random+tabu:iters=2000", g, p, seed);
      metrics *x = metrics_compute(g, p, m);
      cr_assert_eq(x->hop_bytes, min_hb, "%s seed %u: tabu %" G_GINT64_FORMAT ", optimum %"
                   G_GINT64_FORMAT, plats[k], seed, x->hop_bytes, min_hb);
      metrics_free(x);
      mapping_free(m);
      commgraph_free(g);
      platform_free(p);
    }
}

/* K5 (w bytes each way on each pair) on a 5-ring: from any node two nodes
 * are 1 hop away and two are 2, so every mapping costs 2w (5 + 5 x 2) =
 * 30w, and the Gilmore-Lawler bound is exactly that. */
Test(bounds, complete_graph_on_ring_is_tight)
{
  int src[20], dst[20], k = 0;
  int64_t w[20];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++)
      if (i != j)
        src[k] = i, dst[k] = j, w[k] = 100, k++;
  commgraph *g = commgraph_from_edges(5, k, src, dst, w, NULL);
  platform *p = tu_platform_with("torus:5", NULL, 0);
  bounds b;
  bounds_compute(g, p, &b);
  cr_assert_eq(b.hop_bytes, 3000);
  cr_assert_str_eq(b.hop_bytes_how, "gilmore-lawler");
  mapping *m = run("random", g, p, 4);
  metrics *x = metrics_compute(g, p, m);
  cr_assert_eq(x->hop_bytes, 3000);
  cr_assert_float_eq(bounds_gap((double)x->hop_bytes, (double)b.hop_bytes), 0.0, 1e-12);
  metrics_free(x);
  mapping_free(m);
  commgraph_free(g);
  platform_free(p);
}

/* A star: task 0 sends 600 bytes to each of 6 others on a 4x4x4 torus.
 * Its 3600 bytes leave its node over 6 links: at least 600 on one, and
 * 600 is reached with the 6 on its neighbours (gap 0). With 2 cores per
 * node one partner shares the node: 3000 / 6 = 500; and since each leaf
 * alone could share task 0's node, hop_bytes counts task 0's side only:
 * (0 + 5 x 600) / 2 = 1500 (the optimum is 3000). */
Test(bounds, star_degree_bound)
{
  int src[6], dst[6];
  int64_t w[6];
  for (int i = 0; i < 6; i++)
    src[i] = 0, dst[i] = i + 1, w[i] = 600;
  commgraph *g = commgraph_from_edges(7, 6, src, dst, w, NULL);
  platform *p = tu_platform_with("torus:4x4x4", NULL, 0);
  bounds b;
  bounds_compute(g, p, &b);
  cr_assert_eq(b.max_link_bytes, 600);
  cr_assert_eq(b.hop_bytes, 3600);
  mapping *m = run("greedy", g, p, 1);
  metrics *x = metrics_compute(g, p, m);
  cr_assert_eq(x->max_link_bytes, 600);
  cr_assert_eq(x->hop_bytes, 3600);
  metrics_free(x);
  mapping_free(m);
  platform_free(p);
  p = tu_platform_with("torus:4x4x4", NULL, 2);
  bounds_compute(g, p, &b);
  cr_assert_eq(b.max_link_bytes, 500);
  cr_assert_eq(b.hop_bytes, 1500);
  platform_free(p);
  commgraph_free(g);
}

/* A 3D periodic stencil on the same torus: the identity puts every edge
 * on one hop, the bound says no mapping does better. */
Test(bounds, stencil_identity_is_optimal)
{
  int dims[3] = { 4, 4, 4 };
  commgraph *g = commgraph_stencil(3, dims, TRUE, NULL);
  platform *p = tu_platform_with("torus:4x4x4", NULL, 0);
  bounds b;
  bounds_compute(g, p, &b);
  mapping *m = run("identity", g, p, 1);
  metrics *x = metrics_compute(g, p, m);
  cr_assert_eq(x->hop_bytes, b.hop_bytes);
  cr_assert_eq(x->hop_bytes, 64 * 6 * 1000);
  metrics_free(x);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* K8 (1000 bytes each way on each pair) on a line of 4 nodes with 2 cores
 * each: every mapping fills the slots, so 4 tasks sit left of the middle
 * and send 16 x 1000 bytes across its one link each way. The cut bound
 * (lambda2 = 8 x 2000, s (n - s) / n = 2, 2 links) says exactly that; the
 * volume and degree bounds say less. */
Test(bounds, cut_bound_is_tight)
{
  int src[56], dst[56], k = 0;
  int64_t w[56];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      if (i != j)
        src[k] = i, dst[k] = j, w[k] = 1000, k++;
  commgraph *g = commgraph_from_edges(8, k, src, dst, w, NULL);
  platform *p = tu_platform_with("mesh:4", NULL, 2);
  bounds b;
  bounds_compute(g, p, &b);
  cr_assert_str_eq(b.max_link_how, "cut");
  cr_assert(b.max_link_bytes >= 15999 && b.max_link_bytes <= 16000, "%" G_GINT64_FORMAT,
            b.max_link_bytes);
  mapping *m = run("random", g, p, 3);
  metrics *x = metrics_compute(g, p, m);
  cr_assert_eq(x->max_link_bytes, 16000);
  metrics_free(x);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* `metrics` and `map` print the bounds and gaps; `map` prints what the
 * portfolio kept; the gaps are (value - bound) / value. */
Test(bounds, cli_gaps_and_portfolio_report)
{
  char *matrix = tu_data("maplib/btmz.p2p.count.csv"), *out = NULL, *err = NULL;
  const char *args[] = { "metrics", "--platform", "torus:4x4x4", "--matrix", matrix, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, out, -1, NULL));
  JsonObject *o = json_node_get_object(json_parser_get_root(jp));
  int64_t hb = json_object_get_int_member(o, "hop_bytes");
  int64_t lb = json_object_get_int_member(o, "hop_bytes_bound");
  int64_t ml = json_object_get_int_member(o, "max_link_bytes");
  int64_t mlb = json_object_get_int_member(o, "max_link_bytes_bound");
  cr_assert_eq(hb, 515766);
  cr_assert_eq(lb, 288636); /* the Gilmore-Lawler bound of this case */
  cr_assert_float_eq(json_object_get_double_member(o, "gap_hop_bytes"), (double)(hb - lb) / hb, 1e-12);
  cr_assert_gt(mlb, 0);
  cr_assert_leq(mlb, ml);
  cr_assert_float_eq(json_object_get_double_member(o, "gap_max_link"), (double)(ml - mlb) / ml, 1e-12);
  g_object_unref(jp);
  g_free(out), g_free(err);
  const char *margs[] = { "map", "--platform", "torus:4x4x4", "--matrix", matrix, "--strategy",
                          "portfolio:try=[greedy+wh|scotch+kl]", NULL };
  cr_assert_eq(tu_run(&out, &err, margs), 0, "%s", err);
  cr_assert(strstr(out, "gap_hop_bytes"), "%s", out);
  cr_assert(strstr(out, "gap_max_link"), "%s", out);
  cr_assert(strstr(out, "portfolio (hop_bytes): kept scotch+kl"), "%s", out);
  g_free(out), g_free(err);
  g_free(matrix);
}

