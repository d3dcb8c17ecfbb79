/* test_curves.c - the curve strategies visit the 4x4x4 nodes in exactly
 * MapLib's orders, stay one hop per step where the curve says so,
 * handle sparse allocations, several cores, other sizes, and refuse graph
 * topologies. */
#include <criterion/criterion.h>

#include "mapping/strategy.h"
#include "mapping/metrics.h"
#include "testutil.h"

static const int seq_scan[64] = { 0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12, 28, 29, 30, 31, 27, 26, 25, 24, 20, 21, 22, 23, 19, 18, 17, 16, 32, 33, 34, 35, 39, 38, 37, 36, 40, 41, 42, 43, 47, 46, 45, 44, 60, 61, 62, 63, 59, 58, 57, 56, 52, 53, 54, 55, 51, 50, 49, 48 };
static const int seq_peano[64] = { 0, 1, 4, 5, 16, 17, 20, 21, 2, 3, 6, 7, 18, 19, 22, 23, 8, 9, 12, 13, 24, 25, 28, 29, 10, 11, 14, 15, 26, 27, 30, 31, 32, 33, 36, 37, 48, 49, 52, 53, 34, 35, 38, 39, 50, 51, 54, 55, 40, 41, 44, 45, 56, 57, 60, 61, 42, 43, 46, 47, 58, 59, 62, 63 };
static const int seq_gray[64] = { 0, 1, 17, 16, 20, 21, 5, 4, 7, 6, 22, 23, 19, 18, 2, 3, 51, 50, 34, 35, 39, 38, 54, 55, 52, 53, 37, 36, 32, 33, 49, 48, 60, 61, 45, 44, 40, 41, 57, 56, 59, 58, 42, 43, 47, 46, 62, 63, 15, 14, 30, 31, 27, 26, 10, 11, 8, 9, 25, 24, 28, 29, 13, 12 };
static const int seq_hilbert[64] = { 0, 1, 17, 16, 20, 21, 5, 4, 8, 24, 28, 12, 13, 29, 25, 9, 10, 26, 30, 14, 15, 31, 27, 11, 7, 3, 2, 6, 22, 18, 19, 23, 39, 35, 34, 38, 54, 50, 51, 55, 59, 43, 47, 63, 62, 46, 42, 58, 57, 41, 45, 61, 60, 44, 40, 56, 52, 53, 37, 36, 32, 33, 49, 48 };

/* Runs `spec` for n tasks without edges on `plat` (allocation `alloc`,
 * cores per node `cores`); returns the mapping or NULL with *err set. */
static mapping *place(const char *plat, const char *alloc, int cores, int n, const char *spec,
                      GError **err)
{
  platform *p = platform_load(plat, err);
  cr_assert_not_null(p);
  if (alloc)
    cr_assert(platform_set_allocation(p, alloc, err));
  if (cores)
    cr_assert(platform_set_cores(p, cores, err));
  commgraph *g = commgraph_from_edges(n, 0, NULL, NULL, NULL, NULL);
  strategy_pipeline *pl = strategy_parse(spec, err);
  cr_assert_not_null(pl);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1 }, err);
  if (m)
    cr_assert(mapping_validate(m, p, NULL));
  strategy_pipeline_free(pl);
  commgraph_free(g);
  platform_free(p);
  return m;
}

static void assert_seq(const char *spec, const int *want)
{
  GError *e = NULL;
  mapping *m = place("torus:4x4x4", NULL, 0, 64, spec, &e);
  cr_assert_not_null(m, "%s: %s", spec, e ? e->message : "");
  for (int r = 0; r < 64; r++)
    cr_assert_eq(m->node[r], want[r], "%s: rank %d on node %d, expected %d", spec, r, m->node[r],
                 want[r]);
  mapping_free(m);
}

Test(curves, scan_4x4x4) { assert_seq("scan", seq_scan); }
Test(curves, peano_4x4x4) { assert_seq("peano", seq_peano); }
Test(curves, morton_is_peano) { assert_seq("morton", seq_peano); }
Test(curves, gray_4x4x4) { assert_seq("gray", seq_gray); }
Test(curves, hilbert_4x4x4) { assert_seq("hilbert", seq_hilbert); }

Test(curves, sweep_is_node_order)
{
  int id[64];
  for (int i = 0; i < 64; i++)
    id[i] = i;
  assert_seq("sweep", id);
}

/* Each step of scan and hilbert is one mesh hop, on several shapes. */
static void assert_unit_steps(const char *plat, int n, const char *spec)
{
  GError *e = NULL;
  platform *p = platform_load(plat, &e);
  mapping *m = place(plat, NULL, 0, n, spec, &e);
  cr_assert_not_null(m, "%s %s: %s", plat, spec, e ? e->message : "");
  int a[TOPO_MAX_DIMS], b[TOPO_MAX_DIMS];
  for (int r = 1; r < n; r++) {
    topo_coords(p->topo, m->node[r - 1], a);
    topo_coords(p->topo, m->node[r], b);
    int d = 0;
    for (int k = 0; k < p->topo->ndims; k++)
      d += abs(a[k] - b[k]);
    cr_assert_eq(d, 1, "%s %s: step %d jumps %d", plat, spec, r, d);
  }
  mapping_free(m);
  platform_free(p);
}

Test(curves, scan_unit_steps) { assert_unit_steps("mesh:3x5x2", 30, "scan"); }
Test(curves, scan_unit_steps_5d) { assert_unit_steps("torus:2x3x2x2x3", 72, "scan"); }
Test(curves, hilbert_unit_steps_8) { assert_unit_steps("mesh:8x8x8", 512, "hilbert"); }
Test(curves, hilbert_unit_steps_16) { assert_unit_steps("mesh:16x16x16", 4096, "hilbert"); }

/* Morton in 5D: the first 32 ranks fill the 2x2x2x2x2 corner block. */
Test(curves, morton_5d_first_block)
{
  GError *e = NULL;
  mapping *m = place("torus:4x4x4x4x2", NULL, 0, 512, "morton", &e);
  cr_assert_not_null(m);
  platform *p = platform_load("torus:4x4x4x4x2", NULL);
  int c[TOPO_MAX_DIMS];
  for (int r = 0; r < 32; r++) {
    topo_coords(p->topo, m->node[r], c);
    for (int k = 0; k < 5; k++)
      cr_assert_eq(c[k], (r >> k) & 1, "rank %d dim %d", r, k);
  }
  mapping_free(m);
  platform_free(p);
}

/* Non-power-of-two shapes: every node once, in the curve's order over
 * the enclosing box (here 3x3x3 inside 4x4x4: the 27 nodes keep the 4x4x4
 * order restricted to x, y, z < 3). */
Test(curves, hilbert_3x3x3_restricts_4x4x4)
{
  GError *e = NULL;
  mapping *m = place("mesh:3x3x3", NULL, 0, 27, "hilbert", &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  int k = 0;
  for (int i = 0; i < 64; i++) {
    int x = seq_hilbert[i] % 4, y = seq_hilbert[i] / 4 % 4, z = seq_hilbert[i] / 16;
    if (x < 3 && y < 3 && z < 3) {
      cr_assert_eq(m->node[k], x + 3 * y + 9 * z, "rank %d", k);
      k++;
    }
  }
  cr_assert_eq(k, 27);
  mapping_free(m);
}

/* Sparse allocation: the allocated nodes, in gray order. */
Test(curves, gray_sparse_allocation)
{
  GError *e = NULL;
  platform *p = platform_load("torus:4x4x4", NULL);
  cr_assert(platform_set_allocation(p, "random:40:7", NULL));
  mapping *m = place("torus:4x4x4", "random:40:7", 0, 40, "gray", &e);
  cr_assert_not_null(m);
  int k = 0;
  for (int i = 0; i < 64; i++)
    if (p->alloc_index[seq_gray[i]] >= 0)
      cr_assert_eq(m->node[k++], seq_gray[i]);
  cr_assert_eq(k, 40);
  mapping_free(m);
  platform_free(p);
}

/* Several cores: ranks 4r .. 4r+3 share the r-th node of the curve. */
Test(curves, hilbert_cores_consecutive)
{
  GError *e = NULL;
  mapping *m = place("torus:4x4x4", NULL, 4, 256, "hilbert", &e);
  cr_assert_not_null(m);
  for (int r = 0; r < 256; r++)
    cr_assert_eq(m->node[r], seq_hilbert[r / 4]);
  mapping_free(m);
}

Test(curves, graph_topology_refused)
{
  GError *e = NULL;
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *links = g_build_filename(dir, "ring.txt", NULL);
  g_autofree char *path = g_build_filename(dir, "ring.ini", NULL);
  cr_assert(g_file_set_contents(links, "0 1\n1 2\n2 3\n3 0\n", -1, NULL));
  const char *ini = "[platform]\nname = ring4\n[topology]\ngraph = ring.txt\n"
                    "bidirectional = true\n[linktype.optical]\nbandwidth = 1e9\nlatency = 0\n";
  cr_assert(g_file_set_contents(path, ini, -1, NULL));
  platform *p = platform_load(path, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  commgraph *g = commgraph_from_edges(4, 0, NULL, NULL, NULL, NULL);
  strategy_pipeline *pl = strategy_parse("hilbert", NULL);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1 }, &e);
  cr_assert_null(m);
  cr_assert(g_error_matches(e, STRATEGY_ERROR, STRATEGY_ERROR_INPUT));
  cr_assert_not_null(strstr(e->message, "graph topology"));
  g_error_free(e);
  strategy_pipeline_free(pl);
  commgraph_free(g);
  platform_free(p);
}
