/* test_commgraph.c - CSV/MTX/edge-list loaders against the MapLib totals and
 * hand-written files, round trips, and every malformed input. */
#include <string.h>

#include "testutil.h"
#include "traces/commgraph-private.h"
#include "traces/commgraph.h"

static commgraph *load(const char *path)
{
  GError *e = NULL;
  commgraph *g = commgraph_load(path, &e);
  cr_assert_not_null(g, "%s: %s", path, e ? e->message : "");
  return g;
}

Test(commgraph, maplib_totals)
{
  /* totals of korndoerfer2021 ("Mapping Matters"), Tables 2 and 3 */
  const struct { const char *app; int64_t msgs, bytes; } apps[] = {
    { "cg", 1279232, 75884703744 },
    { "btmz", 182910, 4785761760 },
    { "amg", 1257257, 5431711224 },
    { "lulesh", 1692936, 20161171008 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(apps); i++) {
    char *size_rel = g_strdup_printf("maplib/%s.p2p.size.csv", apps[i].app);
    char *count_rel = g_strdup_printf("maplib/%s.p2p.count.csv", apps[i].app);
    char *size = tu_data(size_rel), *count = tu_data(count_rel);
    commgraph *g = load(size);
    cr_assert_eq(g->n, 64);
    cr_assert_eq(commgraph_total_bytes(g), apps[i].bytes, "%s bytes", apps[i].app);
    GError *e = NULL;
    cr_assert(commgraph_load_counts(g, count, &e));
    cr_assert_eq(commgraph_total_msgs(g), apps[i].msgs, "%s messages", apps[i].app);
    cr_assert_eq(commgraph_total_bytes(g), apps[i].bytes);
    for (int r = 0; r < g->n; r++)
      for (int k = g->xadj[r] + 1; k < g->xadj[r + 1]; k++)
        cr_assert_lt(g->adj[k - 1], g->adj[k], "CSR rows sorted, no duplicates");
    commgraph_free(g);
    g_free(size_rel);
    g_free(count_rel);
    g_free(size);
    g_free(count);
  }
}

Test(commgraph, mtx_symmetric_and_edges)
{
  char *mtx = tu_data("y_sym.mtx");
  commgraph *g = load(mtx);
  cr_assert_eq(g->n, 3);
  cr_assert_eq(g->nedges, 3, "(2,1) mirrored to (1,2), plus the diagonal (3,3)");
  cr_assert_eq(commgraph_total_bytes(g), 7 + 7 + 5);
  commgraph_free(g);
  char *edges = tu_data("y_ring.edges");
  g = load(edges);
  cr_assert_eq(g->n, 4);
  cr_assert_eq(g->nedges, 4, "the duplicate 0 -> 1 is merged");
  cr_assert_eq(g->bytes[0], 150);
  cr_assert_eq(g->msgs[0], 3);
  cr_assert_eq(commgraph_total_msgs(g), 9);
  commgraph_free(g);
  g_free(mtx);
  g_free(edges);
}

Test(commgraph, save_load_round_trip)
{
  char *src = tu_data("maplib/lulesh.p2p.size.csv");
  commgraph *g = load(src);
  char *dir = tu_tmp_dir();
  const char *names[] = { "m.csv", "m.mtx" };
  for (int i = 0; i < 2; i++) {
    char *out = g_build_filename(dir, names[i], NULL);
    GError *e = NULL;
    cr_assert(commgraph_save(g, 0, out, NULL, &e));
    commgraph *h = load(out);
    cr_assert_eq(h->n, g->n);
    cr_assert_eq(h->nedges, g->nedges);
    cr_assert_arr_eq(h->adj, g->adj, sizeof(int) * (size_t)g->nedges);
    cr_assert_arr_eq(h->bytes, g->bytes, sizeof(int64_t) * (size_t)g->nedges);
    commgraph_free(h);
    g_unlink(out);
    g_free(out);
  }
  g_rmdir(dir);
  g_free(dir);
  commgraph_free(g);
  g_free(src);
}

Test(commgraph, bad_matrices)
{
  const char *cases[][2] = {
    { "n_ragged.csv", ":2: row has 2 values, expected 3" },
    { "n_nonsquare.csv", "2 rows and 3 columns, expected a square matrix" },
    { "n_negative.csv", ":2: column 1: '-3' is not a non-negative decimal integer" },
    { "n_text.csv", ":2: column 1: 'x'" },
    { "n_array.mtx", ":1: expected a 'coordinate' MatrixMarket matrix" },
    { "n_count.mtx", "1 entries, expected 2" },
    { "n_range.mtx", ":3: expected 'row col value' with 1 <= row, col <= 3" },
    { "n_edges_short.txt", ":2: expected 'src dst bytes [messages]'" },
    { "missing.csv", "No such file or directory, expected a communication matrix" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *path = tu_data(cases[i][0]);
    GError *e = NULL;
    cr_assert_null(commgraph_load(path, &e), "%s accepted", cases[i][0]);
    cr_assert_not_null(strstr(e->message, cases[i][0]), "%s", e->message);
    cr_assert_not_null(strstr(e->message, cases[i][1]), "%s: %s", cases[i][0], e->message);
    g_error_free(e);
    g_free(path);
  }
  /* counts of another shape */
  char *pair = tu_data("y_pair.csv");
  char *cg = tu_data("maplib/cg.p2p.count.csv");
  commgraph *g = load(pair);
  GError *e = NULL;
  cr_assert_not(commgraph_load_counts(g, cg, &e));
  cr_assert_not_null(strstr(e->message, "64 ranks, expected 2"), "%s", e->message);
  g_error_free(e);
  commgraph_free(g);
  g_free(pair);
  g_free(cg);
}

Test(commgraph, stencil_closed_forms)
{
  int d444[3] = { 4, 4, 4 };
  commgraph *g = commgraph_stencil(3, d444, TRUE, NULL);
  cr_assert_eq(g->n, 64);
  cr_assert_eq(g->nedges, 64 * 6);
  cr_assert_eq(commgraph_total_bytes(g), 64 * 6 * 1000);
  commgraph_free(g);
  /* open 5x3: x edges 2 * 4 * 3, y edges 2 * 5 * 2 */
  int d53[2] = { 5, 3 };
  int64_t bytes[2] = { 10, 7 };
  g = commgraph_stencil(2, d53, FALSE, bytes);
  cr_assert_eq(g->nedges, 24 + 20);
  cr_assert_eq(commgraph_total_bytes(g), 24 * 10 + 20 * 7);
  /* rank 6 = (1,1): neighbours 5, 7 (x) and 1, 11 (y) */
  cr_assert_eq(g->xadj[7] - g->xadj[6], 4);
  int expect[4] = { 1, 5, 7, 11 };
  cr_assert_arr_eq(g->adj + g->xadj[6], expect, sizeof expect);
  commgraph_free(g);
  /* a dimension of 2 does not wrap even when periodic */
  int d24[2] = { 2, 4 };
  g = commgraph_stencil(2, d24, TRUE, NULL);
  cr_assert_eq(g->nedges, 2 * 4 + 8 * 2);
  commgraph_free(g);
}
