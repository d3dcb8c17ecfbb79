/* test_geometric.c - the `geometric` strategy (deveci-geometric Alg. 1-2):
 * the Z/FZ/MFZ part numbers of the paper's Fig. 5, AverageHops of Table 1
 * rows to the paper's two decimals, the optimal identity placement of a 3D
 * stencil on a same-shaped torus (coordinates given or detected), stencil
 * detection (bhatele2010 Section 8.1), the torus shift, rotations, several
 * ranks per node, sparse/HAEC platforms and the error without coordinates. */
#include <math.h>
#include <string.h>

#include "mapping/strategies/geometric-private.h"
#include "mapping/grid-private.h"
#include "mapping/grid.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "stencil.h"
#include "testutil.h"

/* Coordinates of st_stencil's ranks (dimension 0 fastest). */
static double *grid_coords(int nd, const int *dims)
{
  int n = 1;
  for (int d = 0; d < nd; d++)
    n *= dims[d];
  double *c = g_new(double, (size_t)n * nd);
  for (int r = 0; r < n; r++) {
    int rem = r;
    for (int d = 0; d < nd; d++)
      c[(size_t)r * nd + d] = rem % dims[d], rem /= dims[d];
  }
  return c;
}

static mapping *run_geo(const char *spec, const commgraph *g, const platform *p,
                        const double *coords, int nd, GError **error)
{
  strategy_pipeline *pl = strategy_parse(spec, error);
  cr_assert_not_null(pl, "%s", spec);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1,
                                                 .coords = coords, .coord_dims = nd },
                            error);
  strategy_pipeline_free(pl);
  if (m) {
    GError *e = NULL;
    cr_assert(mapping_validate(m, p, &e), "%s on %s: %s", spec, p->name, e ? e->message : "?");
  }
  return m;
}

static metrics *measure(const commgraph *g, const platform *p, const mapping *m)
{
  return metrics_compute(g, p, m);
}

/* Fig. 5 of deveci-geometric: part number of each of 64 points on a line. */
Test(geometric, fig5_orderings_1d)
{
  static const int fz[64] = { 0,  1,  3,  2,  6,  7,  5,  4,  12, 13, 15, 14, 10, 11, 9,  8,
                              24, 25, 27, 26, 30, 31, 29, 28, 20, 21, 23, 22, 18, 19, 17, 16,
                              48, 49, 51, 50, 54, 55, 53, 52, 60, 61, 63, 62, 58, 59, 57, 56,
                              40, 41, 43, 42, 46, 47, 45, 44, 36, 37, 39, 38, 34, 35, 33, 32 };
  static const int mfz[64] = { 31, 30, 28, 29, 25, 24, 26, 27, 19, 18, 16, 17, 21, 20, 22, 23,
                               7,  6,  4,  5,  1,  0,  2,  3,  11, 10, 8,  9,  13, 12, 14, 15,
                               47, 46, 44, 45, 41, 40, 42, 43, 35, 34, 32, 33, 37, 36, 38, 39,
                               55, 54, 52, 53, 49, 48, 50, 51, 59, 58, 56, 57, 61, 60, 62, 63 };
  double x[64];
  int mu[64];
  for (int i = 0; i < 64; i++)
    x[i] = i;
  geometric_parts(x, 64, 1, NULL, GEO_SFC_Z, FALSE, 64, mu);
  for (int i = 0; i < 64; i++)
    cr_assert_eq(mu[i], i, "Z: point %d in part %d", i, mu[i]);
  geometric_parts(x, 64, 1, NULL, GEO_SFC_FZ, FALSE, 64, mu);
  for (int i = 0; i < 64; i++)
    cr_assert_eq(mu[i], fz[i], "FZ: point %d in part %d, expected %d", i, mu[i], fz[i]);
  geometric_parts(x, 64, 1, NULL, GEO_SFC_FZ, TRUE, 64, mu);
  for (int i = 0; i < 64; i++)
    cr_assert_eq(mu[i], mfz[i], "MFZ: point %d in part %d, expected %d", i, mu[i], mfz[i]);
}

/* Uneven parts: 6 = 3 x 2 splits 2 | 4 (largest prime factor 3), points
 * in proportion; 12 points -> 2 per part, contiguous in Z order. */
Test(geometric, uneven_bisection)
{
  double x[12];
  int mu[12];
  for (int i = 0; i < 12; i++)
    x[i] = i;
  geometric_parts(x, 12, 1, NULL, GEO_SFC_Z, FALSE, 6, mu);
  for (int i = 0; i < 12; i++)
    cr_assert_eq(mu[i], i / 2, "point %d in part %d", i, mu[i]);
}

/* AverageHops of Table 1 rows (4096 tasks), to the paper's 2 decimals. */
static void table1(const char *shape, const char *kind, int td, int tk, gboolean torus_tasks,
                   const char *ordering, double paper)
{
  char spec[64];
  g_snprintf(spec, sizeof spec, "%s:%s", kind, shape);
  platform *p = tu_platform(spec);
  int dims[8];
  for (int d = 0; d < td; d++)
    dims[d] = tk;
  commgraph *g = st_stencil(td, dims, torus_tasks, NULL);
  double *c = grid_coords(td, dims);
  char strat[64];
  g_snprintf(strat, sizeof strat, "geometric:ordering=%s", ordering);
  GError *e = NULL;
  mapping *m = run_geo(strat, g, p, c, td, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "?");
  metrics *mt = measure(g, p, m);
  cr_assert(fabs(mt->avg_hops - paper) < 0.005, "%s %dD tasks %s: AverageHops %.4f, paper %.2f",
            spec, td, ordering, mt->avg_hops, paper);
  metrics_free(mt);
  mapping_free(m);
  g_free(c);
  commgraph_free(g);
  platform_free(p);
}

Test(geometric, table1_rows)
{
  /* pd 3, td 4: 8^4 tasks onto 16^3 nodes */
  table1("16x16x16", "mesh", 4, 8, FALSE, "z", 3.54);
  table1("16x16x16", "mesh", 4, 8, FALSE, "fz", 2.57);
  table1("16x16x16", "torus", 4, 8, FALSE, "fz", 2.14);
  table1("16x16x16", "torus", 4, 8, TRUE, "z", 4.50);
  table1("16x16x16", "torus", 4, 8, TRUE, "fz", 2.38);
  /* pd 4, td 3: 16^3 tasks onto 8^4 nodes */
  table1("8x8x8x8", "mesh", 3, 16, FALSE, "fz", 1.60);
  table1("8x8x8x8", "torus", 3, 16, FALSE, "fz", 1.38);
  table1("8x8x8x8", "torus", 3, 16, TRUE, "z", 3.00);
  table1("8x8x8x8", "torus", 3, 16, TRUE, "fz", 1.42);
}

/* A 3D periodic stencil on the same-shaped torus: every ordering of MJ
 * numbers tasks and nodes alike, so the placement is the identity and every
 * edge is one hop (the optimum). */
static void identity_case(int k, gboolean give_coords, const char *ordering)
{
  char spec[64];
  g_snprintf(spec, sizeof spec, "torus:%dx%dx%d", k, k, k);
  platform *p = tu_platform(spec);
  int dims[3] = { k, k, k };
  commgraph *g = st_stencil(3, dims, TRUE, NULL);
  double *c = give_coords ? grid_coords(3, dims) : NULL;
  char strat[64];
  g_snprintf(strat, sizeof strat, "geometric:ordering=%s", ordering);
  GError *e = NULL;
  mapping *m = run_geo(strat, g, p, c, give_coords ? 3 : 0, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "?");
  metrics *mt = measure(g, p, m);
  cr_assert_eq(mt->avg_hops, 1.0, "%s %s: avg hops %f", spec, ordering, mt->avg_hops);
  cr_assert_eq(mt->hop_bytes, (int64_t)6 * k * k * k * 1000);
  cr_assert_eq(mt->max_dilation, 1);
  for (int t = 0; t < g->n; t++)
    cr_assert_eq(m->node[t], t, "%s: rank %d on node %d", spec, t, m->node[t]);
  metrics_free(mt);
  mapping_free(m);
  g_free(c);
  commgraph_free(g);
  platform_free(p);
}

Test(geometric, identity_on_same_torus)
{
  identity_case(4, TRUE, "fz");
  identity_case(4, FALSE, "fz");
  identity_case(8, TRUE, "fz");
  identity_case(8, FALSE, "fz");
  identity_case(4, TRUE, "z");
  identity_case(8, TRUE, "gray");
  identity_case(8, TRUE, "hilbert");
}

Test(geometric, detects_stencils)
{
  int d2[2] = { 8, 4 }, d3[3] = { 4, 3, 5 };
  double *c = NULL;
  int nd = 0;
  commgraph *g = st_stencil(2, d2, FALSE, NULL);
  cr_assert(grid_rank_stencil(g, &c, &nd));
  cr_assert_eq(nd, 2);
  cr_assert_eq(c[2 * 13 + 0], 5.0); /* rank 13 = (5, 1) */
  cr_assert_eq(c[2 * 13 + 1], 1.0);
  g_free(c);
  commgraph_free(g);
  g = st_stencil(3, d3, TRUE, NULL);
  cr_assert(grid_rank_stencil(g, &c, &nd));
  cr_assert_eq(nd, 3);
  cr_assert_eq(c[3 * 59 + 0], 3.0); /* rank 59 = 3 + 4 * (2 + 3 * 4) */
  cr_assert_eq(c[3 * 59 + 1], 2.0);
  cr_assert_eq(c[3 * 59 + 2], 4.0);
  g_free(c);
  commgraph_free(g);
  /* an irregular graph is not a stencil */
  g = st_random_graph(64, 5, 3);
  cr_assert_not(grid_rank_stencil(g, &c, &nd));
  commgraph_free(g);
}

/* A stencil plus rank 0 talking to everyone (a reduction): still found. */
Test(geometric, detects_stencil_with_rank0_hub)
{
  int dims[3] = { 4, 4, 4 };
  commgraph *s = st_stencil(3, dims, TRUE, NULL);
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int)), *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *b = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int i = 0; i < s->n; i++)
    for (int e = s->xadj[i]; e < s->xadj[i + 1]; e++) {
      g_array_append_val(src, i);
      g_array_append_val(dst, s->adj[e]);
      g_array_append_val(b, s->bytes[e]);
    }
  for (int i = 1; i < s->n; i++) {
    int zero = 0;
    int64_t w = 1000;
    g_array_append_val(src, i);
    g_array_append_val(dst, zero);
    g_array_append_val(b, w);
  }
  commgraph *g = commgraph_from_edges(s->n, (int)src->len, (int *)(void *)src->data,
                                      (int *)(void *)dst->data, (int64_t *)(void *)b->data, NULL);
  double *c = NULL;
  int nd = 0;
  cr_assert(grid_rank_stencil(g, &c, &nd));
  cr_assert_eq(nd, 3);
  g_free(c);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(b, TRUE);
  commgraph_free(g);
  commgraph_free(s);
}

/* LULESH's 64 ranks talk to their 26 neighbours of a 4x4x4 mesh: found as
 * a 27-point stencil, rank r at (r % 4, r / 4 % 4, r / 16). */
Test(geometric, detects_lulesh_27_point_stencil)
{
  char *path = tu_data("maplib/lulesh.p2p.count.csv");
  GError *e = NULL;
  commgraph *g = commgraph_load(path, &e);
  cr_assert_not_null(g, "%s", e ? e->message : "?");
  double *c = NULL;
  int nd = 0;
  cr_assert(grid_rank_stencil(g, &c, &nd));
  cr_assert_eq(nd, 3);
  for (int r = 0; r < 64; r++) {
    cr_assert_eq(c[3 * r + 0], r % 4);
    cr_assert_eq(c[3 * r + 1], r / 4 % 4);
    cr_assert_eq(c[3 * r + 2], r / 16);
  }
  g_free(c);
  commgraph_free(g);
  g_free(path);
}

Test(geometric, fails_cleanly_without_coordinates)
{
  platform *p = tu_platform("torus:4x4x4");
  commgraph *g = st_random_graph(64, 5, 3);
  GError *e = NULL;
  mapping *m = run_geo("geometric", g, p, NULL, 0, &e);
  cr_assert_null(m);
  cr_assert_not_null(e);
  cr_assert(g_error_matches(e, STRATEGY_ERROR, STRATEGY_ERROR_INPUT), "%s", e->message);
  cr_assert_not_null(strstr(e->message, "--coords"), "%s", e->message);
  g_error_free(e);
  commgraph_free(g);
  platform_free(p);
}

/* A ring of 8 with nodes {6, 7, 0, 1} allocated: the shift at the largest
 * gap (1 -> 6) lines them up 6 7 0 1, so a 4-rank chain takes 1 hop per
 * edge (6 directed edges x 1000 bytes); unshifted, 0 1 6 7 costs a 3-hop
 * edge: (1 + 3 + 1) x 2 x 1000. */
Test(geometric, torus_shift_at_largest_gap)
{
  platform *p = tu_platform("torus:8");
  char *alloc = tu_write_tmp("alloc.txt", "6 7 0 1\n");
  GError *e = NULL;
  cr_assert(platform_set_allocation(p, alloc, &e), "%s", e ? e->message : "?");
  int dims[1] = { 4 };
  commgraph *g = st_stencil(1, dims, FALSE, NULL);
  double *c = grid_coords(1, dims);
  mapping *m1 = run_geo("geometric", g, p, c, 1, &e);
  mapping *m0 = run_geo("geometric:shift=0", g, p, c, 1, &e);
  metrics *a = measure(g, p, m1), *b = measure(g, p, m0);
  cr_assert_eq(a->hop_bytes, 6000);
  cr_assert_eq(b->hop_bytes, 10000);
  metrics_free(a);
  metrics_free(b);
  mapping_free(m0);
  mapping_free(m1);
  g_free(c);
  commgraph_free(g);
  platform_free(p);
  g_unlink(alloc);
  g_free(alloc);
}

/* Rotations keep the best of the permutations tried, the unrotated one
 * included: never worse; on 2D tasks onto a 3D mesh strictly better here. */
Test(geometric, rotations_never_worse)
{
  platform *p = tu_platform("mesh:4x4x4");
  int dims[2] = { 16, 4 };
  commgraph *g = st_stencil(2, dims, FALSE, NULL);
  double *c = grid_coords(2, dims);
  GError *e = NULL;
  mapping *m0 = run_geo("geometric", g, p, c, 2, &e);
  mapping *m1 = run_geo("geometric:rotations=12", g, p, c, 2, &e);
  metrics *a = measure(g, p, m0), *b = measure(g, p, m1);
  cr_assert_leq(b->hop_bytes, a->hop_bytes);
  metrics_free(a);
  metrics_free(b);
  mapping_free(m0);
  mapping_free(m1);
  g_free(c);
  commgraph_free(g);
  platform_free(p);
}

/* Valid and deterministic on HAEC Box, a sparse allocation, fewer tasks
 * than nodes, and 4 ranks per node (node coordinates repeated per core). */
static void check_valid(const char *spec, const char *alloc, int cores, int nd, const int *dims,
                        const char *strat)
{
  platform *p = tu_platform(spec);
  GError *e = NULL;
  if (alloc)
    cr_assert(platform_set_allocation(p, alloc, &e), "%s", e ? e->message : "?");
  cr_assert(platform_set_cores(p, cores, &e));
  commgraph *g = st_stencil(nd, dims, TRUE, NULL);
  double *c = grid_coords(nd, dims);
  mapping *a = run_geo(strat, g, p, c, nd, &e);
  cr_assert_not_null(a, "%s on %s: %s", strat, spec, e ? e->message : "?");
  mapping *b = run_geo(strat, g, p, c, nd, &e);
  cr_assert_eq(memcmp(a->node, b->node, sizeof(int) * (size_t)g->n), 0);
  mapping_free(a);
  mapping_free(b);
  g_free(c);
  commgraph_free(g);
  platform_free(p);
}

Test(geometric, valid_on_every_platform_kind)
{
  int d444[3] = { 4, 4, 4 }, d442[3] = { 4, 4, 2 }, d53[2] = { 5, 3 };
  const char *strats[] = { "geometric", "geometric:ordering=mfz", "geometric:ordering=hilbert",
                           "geometric:bwscale=1,rotations=36" };
  for (int s = 0; s < 4; s++) {
    check_valid("haec:4x4x4", NULL, 1, 3, d444, strats[s]);
    check_valid("mesh:4x4x4", NULL, 1, 3, d444, strats[s]);
    check_valid("torus:4x4x4", "random:40:7", 1, 3, d442, strats[s]);
    check_valid("torus:4x4x4", NULL, 1, 2, d53, strats[s]);  /* 15 tasks, 64 nodes */
    check_valid("torus:2x2x4", NULL, 4, 3, d444, strats[s]); /* 64 ranks, 16 nodes x 4 */
    check_valid("torus:2x2x4", NULL, 4, 2, d53, strats[s]);  /* 15 ranks, 64 slots */
  }
}

/* 4 ranks per node: the 4x4x4 periodic stencil on a 2x2x4 torus. Each node
 * holds exactly 4 ranks and the cut is the best possible for 2x2x1 or 4x1x1
 * blocks: the hop-bytes equal those of the identity block placement or
 * better. */
Test(geometric, several_ranks_per_node_quality)
{
  platform *p = tu_platform("torus:2x2x4");
  GError *e = NULL;
  cr_assert(platform_set_cores(p, 4, &e));
  int dims[3] = { 4, 4, 4 };
  commgraph *g = st_stencil(3, dims, TRUE, NULL);
  double *c = grid_coords(3, dims);
  mapping *m = run_geo("geometric", g, p, c, 3, &e);
  mapping *id = run_geo("identity", g, p, NULL, 0, &e);
  int load[16] = { 0 };
  for (int t = 0; t < 64; t++)
    load[m->node[t]]++;
  for (int v = 0; v < 16; v++)
    cr_assert_eq(load[v], 4);
  metrics *a = measure(g, p, m), *b = measure(g, p, id);
  cr_assert_leq(a->hop_bytes, b->hop_bytes, "geometric %ld, identity %ld", (long)a->hop_bytes,
                (long)b->hop_bytes);
  metrics_free(a);
  metrics_free(b);
  mapping_free(m);
  mapping_free(id);
  g_free(c);
  commgraph_free(g);
  platform_free(p);
}

/* Several ranks per node with a refiner after geometric: geometric makes
 * the groups (with its coordinates), wh then moves whole groups; the
 * groups survive and hop-bytes do not grow. A 4x4x8 stencil on 32 nodes
 * of 4 cores, node placement scrambled by a random allocation order. */
Test(geometric, groups_survive_refinement_with_several_cores)
{
  int dims[3] = { 4, 4, 8 };
  commgraph *g = st_stencil(3, dims, TRUE, NULL);
  double *coords = grid_coords(3, dims);
  platform *p = tu_platform("torus:4x4x4");
  GError *e = NULL;
  cr_assert(platform_set_cores(p, 4, &e));
  cr_assert(platform_set_allocation(p, "random:32:5", &e));
  mapping *a = run_geo("geometric", g, p, coords, 3, &e);
  mapping *b = run_geo("geometric+wh", g, p, coords, 3, &e);
  cr_assert_not_null(a);
  cr_assert_not_null(b);
  for (int i = 0; i < g->n; i++)
    for (int j = i + 1; j < g->n; j++)
      cr_assert_eq(a->node[i] == a->node[j], b->node[i] == b->node[j],
                   "ranks %d and %d: grouping changed by wh", i, j);
  metrics *ma = metrics_compute(g, p, a), *mb = metrics_compute(g, p, b);
  cr_assert_leq(mb->hop_bytes, ma->hop_bytes);
  metrics_free(ma);
  metrics_free(mb);
  mapping_free(a);
  mapping_free(b);
  platform_free(p);
  g_free(coords);
  commgraph_free(g);
}
