/* test_report_stats.c - Pearson's r and Spearman's rho (with ties), equal
 * results (the tolerance, the paired t-test over seeds), the texts of ranks
 * and changes, the rank column of a study's results (a constructed tie),
 * and value axes from zero, against values computed by hand. */
#include <json-glib/json-glib.h>
#include <math.h>

#include "report/plot.h"
#include "study/rank.h"
#include "study/stats.h"
#include "study/study-private.h"
#include "studytest.h"

/* x = 1..5, y = 2 4 5 4 5: means 3 and 4, deviations -2 -1 0 1 2 and
 * -2 0 1 0 1: Sxy = 6, Sxx = 10, Syy = 6, r = 6 / sqrt(60). */
Test(report_stats, pearson_by_hand)
{
  const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
  cr_assert_float_eq(stats_pearson(x, y, 5), 6 / sqrt(60), 1e-15);
  const double z[] = { 10, 8, 6, 4, 2 };
  cr_assert_float_eq(stats_pearson(x, z, 5), -1.0, 1e-15);
}

/* Ties get their average rank: y = 2 4 5 4 5 ranks 1 2.5 4.5 2.5 4.5;
 * against ranks 1..5: Sxy = 4 + 0.5 + 0 - 0.5 + 3 = 7, Sxx = 10,
 * Syy = 4 + 0.25 + 2.25 + 0.25 + 2.25 = 9, rho = 7 / sqrt(90). */
Test(report_stats, spearman_with_ties_by_hand)
{
  const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 5, 4, 5 };
  double r[5];
  stats_ranks(y, 5, r);
  const double want[] = { 1, 2.5, 4.5, 2.5, 4.5 };
  for (int i = 0; i < 5; i++)
    cr_assert_float_eq(r[i], want[i], 0);
  cr_assert_float_eq(stats_spearman(x, y, 5), 7 / sqrt(90), 1e-15);
  /* monotone but not linear: rho 1, r below 1 */
  const double sq[] = { 1, 4, 9, 16, 25 };
  cr_assert_float_eq(stats_spearman(x, sq, 5), 1.0, 1e-15);
  cr_assert_lt(stats_pearson(x, sq, 5), 0.99);
}

Test(report_stats, undefined_without_spread)
{
  const double x[] = { 1, 2, 3 }, c[] = { 7, 7, 7 };
  cr_assert(isnan(stats_pearson(x, c, 3)));
  cr_assert(isnan(stats_spearman(x, c, 3)));
  cr_assert(isnan(stats_pearson(x, x, 1)));
}

/* Equal deterministic results: within a relative 1e-9 of the larger. */
/* Exact permutation p-values by hand: rho = 1 is reached by 2 of the n!
 * orders (itself and its reverse, rho = -1); at n = 4, |rho| >= 0.8 by
 * 8 of 24 (sum d^2 = 0, 2 (3 adjacent swaps) and their mirrors 20, 18). */
Test(report_stats, spearman_p_value_by_permutations)
{
  const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
  cr_assert_float_eq(stats_spearman_p(x, x, 4), 2.0 / 24, 1e-15);
  cr_assert_float_eq(stats_spearman_p(x, x, 5), 2.0 / 120, 1e-15);
  cr_assert_float_eq(stats_spearman_p(x, x, 6), 2.0 / 720, 1e-15);
  const double y4[] = { 1, 2, 4, 3 };
  cr_assert_float_eq(stats_spearman(x, y4, 4), 0.8, 1e-12);
  cr_assert_float_eq(stats_spearman_p(x, y4, 4), 8.0 / 24, 1e-15);
  /* the report's case: rho = 0.6 at n = 6 is not significant: sum d^2 =
   * 14 (rho = 1 - 6 * 14 / 210); p = 0.2417 (exact, 174 of 720 orders) */
  const double y6[] = { 3, 2, 1, 5, 6, 4 };
  cr_assert_float_eq(stats_spearman(x, y6, 6), 0.6, 1e-12);
  cr_assert_float_eq(stats_spearman_p(x, y6, 6), 174.0 / 720, 1e-15);
  /* a tie of constant values: undefined */
  const double flat[] = { 3, 3, 3, 3, 3 };
  cr_assert(isnan(stats_spearman_p(x, flat, 5)));
  /* above 8 points random orders of a fixed seed: at rho = 1 with 10
   * points hardly one of 20,000 orders hits (2 of 10! do) */
  double p10 = stats_spearman_p(x, x, 10);
  cr_assert_leq(p10, 2.0 / (STATS_RANDOM_PERMUTATIONS + 1));
  cr_assert_eq(p10, stats_spearman_p(x, x, 10), "deterministic");
}

Test(report_stats, equal_within_the_tolerance)
{
  cr_assert(stats_equal(163.95e-9, 163.95e-9 * (1 + 5e-10)));
  cr_assert_not(stats_equal(163.95e-9, 163.89e-9));
  cr_assert(stats_equal(0, 0));
  cr_assert_not(stats_equal(0, 1e-300));
}

/* Paired seeds: d = -0.1, 0.1, -0.2 has mean -1/15 and standard deviation
 * sqrt(0.07 / 3) = 0.1528, so t = (1/15) / (0.1528 / sqrt 3) = 0.756,
 * below the 5% critical value 4.303 for 2 degrees of freedom: equal. The
 * same difference at every seed (d = -1, -1, -1.001: t = 1732) differs,
 * and so does a constant difference (no spread at all). */
Test(report_stats, paired_seeds_by_hand)
{
  const double a[] = { 1, 2, 3 }, b[] = { 1.1, 1.9, 3.2 };
  cr_assert(stats_paired_equal(a, b, 3));
  const double c[] = { 2, 3, 4.001 };
  cr_assert_not(stats_paired_equal(a, c, 3));
  const double d[] = { 2, 3, 4 };
  cr_assert_not(stats_paired_equal(a, d, 3));
  /* one seed: the tolerance alone */
  cr_assert_not(stats_paired_equal(a, b, 1));
  const double e[] = { 1 + 1e-12, 2, 3 };
  cr_assert(stats_paired_equal(a, e, 3));
  /* t = 4.2 with 2 degrees of freedom is not significant, t = 4.4 is:
   * d = m + (-s, 0, s) has standard error s / sqrt 3 */
  double s = 1.0, lo = 4.2 * s / sqrt(3.0), hi = 4.4 * s / sqrt(3.0);
  const double z[] = { 0, 0, 0 };
  const double p[] = { lo - s, lo, lo + s }, q[] = { hi - s, hi, hi + s };
  cr_assert(stats_paired_equal(p, z, 3));
  cr_assert_not(stats_paired_equal(q, z, 3));
}

/* Changes never print a signed zero and never round a difference away. */
Test(report_stats, change_texts)
{
  char b[32];
  rank_change_text(b, sizeof b, 38.3, FALSE);
  cr_assert_str_eq(b, "+38.3%");
  rank_change_text(b, sizeof b, -0.0366, FALSE);
  cr_assert_str_eq(b, "-0.037%");
  rank_change_text(b, sizeof b, -1e-14, TRUE);
  cr_assert_str_eq(b, "0%");
  rank_change_text(b, sizeof b, -0.0, FALSE);
  cr_assert_str_eq(b, "0%");
  rank_change_text(b, sizeof b, 0.04, FALSE);
  cr_assert_str_eq(b, "+0.04%");
  rank_entry e = { .rank = 1, .tied = TRUE };
  rank_text(b, sizeof b, &e);
  cr_assert_str_eq(b, "=1");
  e = (rank_entry){ .rank = 3 };
  rank_text(b, sizeof b, &e);
  cr_assert_str_eq(b, "3");
}

/* Column `name` of results.csv in `dir`, one text per cell. */
static GPtrArray *csv_column(const char *dir, const char *csv, const char *name)
{
  g_autofree char *text = tu_read(dir, csv);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  GPtrArray *head = csv_split(lines[0]), *out = g_ptr_array_new_with_free_func(g_free);
  int col = -1;
  for (guint i = 0; i < head->len; i++)
    if (strcmp(g_ptr_array_index(head, i), name) == 0)
      col = (int)i;
  for (int l = 1; col >= 0 && lines[l] && *lines[l]; l++) {
    GPtrArray *cells = csv_split(lines[l]);
    g_ptr_array_add(out, g_strdup(g_ptr_array_index(cells, col)));
    g_ptr_array_free(cells, TRUE);
  }
  g_ptr_array_free(head, TRUE);
  return out;
}

/* A cell's row as the ranking reads it: its labels, its seed and its
 * makespan_s, or its error (v < 0). */
static void set_row(study *s, int strategy, int seed, double v)
{
  study_cell *c = study_cell_at(s, 0, 0, 0, strategy, 0, seed);
  c->row = row_new();
  row_add_string(c->row, "strategy", s->strategies[strategy].label);
  row_add_int(c->row, "seed", s->seeds[seed]);
  row_add_string(c->row, "error", v < 0 ? "failed on purpose" : NULL);
  if (v < 0)
    c->error = g_error_new_literal(STUDY_ERROR, STUDY_ERROR_FILE, "failed on purpose");
  else
    row_add_double(c->row, "makespan_s", v);
}

/* The rank column of results.csv/json, by the report's rule, per seed:
 * seed 1 has random at 1 and greedy 5e-10 above it (equal within the
 * relative 1e-9: both 1st, hilbert 3rd, not 2nd), seed 2 an exact tie of
 * identity and hilbert and a failed cell (no rank). A slice's results
 * have no rank: its groups are incomplete. */
Test(report_stats, results_rank_ties_within_the_tolerance)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nplatforms = torus:2x2x2\n"
                                          "strategies = identity; random; greedy; hilbert\n"
                                          "models = flow\nseeds = 1; 2\n", ring);
  GError *e = NULL;
  g_autoptr(study) s = study_load("tie.ini", text, NULL, &e);
  cr_assert_not_null(s, "%s", e ? e->message : "");
  const double v[4][2] = { { 2.0, 1.0 }, { 1.0, -1 }, { 1.0 * (1 + 5e-10), 3.0 }, { 1.5, 1.0 } };
  for (int st = 0; st < 4; st++)
    for (int sd = 0; sd < 2; sd++)
      set_row(s, st, sd, v[st][sd]);
  g_autofree char *dir = tu_tmp_dir();
  cr_assert(study_write_results(s, NULL, dir, "results", &e), "%s", e ? e->message : "");
  /* cells in factorial order: strategy, then seed */
  const char *want[] = { "4", "1", "1", "", "1", "3", "3", "1" };
  g_autoptr(GPtrArray) got = csv_column(dir, "results.csv", "rank");
  cr_assert_eq(got->len, 8);
  for (int i = 0; i < 8; i++)
    cr_assert_str_eq(g_ptr_array_index(got, i), want[i], "cell %d", i);
  /* the report's own groups say the same, tied shown as =1 */
  g_autoptr(GPtrArray) groups = study_rank_each_seed(s);
  cr_assert_eq(groups->len, 2);
  const rank_group *g = g_ptr_array_index(groups, 0);
  char b[16];
  rank_text(b, sizeof b, &g->e[0]);
  cr_assert_str_eq(b, "=1");
  cr_assert_eq(g->e[0].strategy, 1);
  rank_text(b, sizeof b, &g->e[1]);
  cr_assert_str_eq(b, "=1");
  /* JSON: the failed cell's rank is null, the others integers */
  g_autofree char *json = tu_read(dir, "results.json");
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, json, -1, NULL));
  JsonArray *cells = json_object_get_array_member(json_node_get_object(json_parser_get_root(jp)),
                                                  "cells");
  cr_assert(json_object_get_null_member(json_array_get_object_element(cells, 3), "rank"));
  cr_assert_eq(json_object_get_int_member(json_array_get_object_element(cells, 5), "rank"), 3);
  g_object_unref(jp);
  study_slice half = { 1, 2 };
  cr_assert(study_write_results(s, &half, dir, "slice", &e), "%s", e ? e->message : "");
  g_autoptr(GPtrArray) none = csv_column(dir, "slice.csv", "rank");
  cr_assert_eq(none->len, 0, "a slice's results have no rank column");
}

/* Value axes start at zero (hop-bytes 1.1M..4.4M: 0..5M, not 1M..5M); a
 * scatter may break its axis instead when the values sit far from zero
 * (makespans 3.0025..3.0095 ms), and says so. */
Test(report_stats, axes_from_zero_or_marked_broken)
{
  double lo = 1.1e6, hi = 4.4e6;
  gboolean broken = TRUE;
  plot_zero_range(&lo, &hi, FALSE, &broken);
  cr_assert_float_eq(lo, 0, 0);
  cr_assert_float_eq(hi, 5e6, 1);
  cr_assert_not(broken);
  lo = 3.0025e-3;
  hi = 3.0095e-3;
  plot_zero_range(&lo, &hi, TRUE, &broken);
  cr_assert(broken && lo > 0 && lo <= 3.0025e-3 && hi >= 3.0095e-3, "%g..%g", lo, hi);
  lo = 0.5;
  hi = 4;
  plot_zero_range(&lo, &hi, TRUE, &broken);
  cr_assert(!broken && lo == 0, "far apart: from zero");
}
