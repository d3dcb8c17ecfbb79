/* test_report_verdicts.c - the report's verdicts (report/report-corr.c):
 * a static metric is named as the predictor only when its Spearman rho is
 * positive and significant (two-sided permutation test, study/stats.h),
 * with the test and its p-value; a study ranked by an energy says energy
 * and correlates the static energy proxy traffic_energy_j too, its values
 * in joules. */
#include <math.h>
#include <string.h>

#include "report/report-private.h"
#include "study/stats.h"
#include "testutil.h"

/* The short verdict of one platform whose only static metric is
 * hop_bytes with values x against times y. */
static char *short_verdict(const double *x, const double *y, int n)
{
  study s = { 0 };
  s.report.time = (char *)"makespan_s";
  corr c = { .metric = "pre_hop_bytes", .n = n, .x = (double *)x, .y = (double *)y };
  int series[16];
  for (int i = 0; i < n; i++)
    series[i] = i;
  c.series = series;
  c.rho = stats_spearman(x, y, n);
  c.r = stats_pearson(x, y, n);
  c.p = stats_spearman_p(x, y, n);
  GPtrArray *cs = g_ptr_array_new();
  g_ptr_array_add(cs, &c);
  char *v = rep_verdict_short(&s, cs, NULL, 0, 0, 0, 0);
  g_ptr_array_free(cs, TRUE);
  return v;
}

Test(report_verdicts, a_predictor_is_named_only_when_significant)
{
  const double x[] = { 1, 2, 3, 4, 5, 6 };
  /* rho = 0.6 at n = 6: p = 174/720 = 0.24 (test_report_stats.c) */
  const double weak[] = { 3, 2, 1, 5, 6, 4 };
  g_autofree char *no = short_verdict(x, weak, 6);
  cr_assert_str_eq(no, "no static metric predicts the ranking significantly (n = 6)");
  /* rho = 1 at n = 6: p = 2/720 = 0.0028 */
  const double same[] = { 10, 20, 30, 40, 50, 60 };
  g_autofree char *yes = short_verdict(x, same, 6);
  cr_assert_str_eq(yes, "hop_bytes, ρ = 1.00, p = 0.0028, n = 6");
  /* rho = -1: significant, but a metric that orders the strategies the
   * wrong way round predicts nothing */
  const double reverse[] = { 60, 50, 40, 30, 20, 10 };
  g_autofree char *neg = short_verdict(x, reverse, 6);
  cr_assert_str_eq(neg, "no static metric predicts the ranking significantly (n = 6)");
}

Test(report_verdicts, an_energy_ranked_report_says_energy, .timeout = 240)
{
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *haec = tu_src("configs/haec-4x4x4.ini");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *text = g_strdup_printf("[study]\nname = energy\ntraces = %s\nplatforms = %s\n"
                                          "strategies = identity; random; hilbert; greedy; "
                                          "greedy+wh; scotch\nmodels = flow\ncompute-scale = 0\n"
                                          "[report]\ntime = energy_j\n", cg, haec);
  g_autofree char *file = g_build_filename(dir, "energy.ini", NULL);
  cr_assert(g_file_set_contents(file, text, -1, NULL));
  g_autofree char *out = g_build_filename(dir, "out", NULL);
  const char *args[] = { "study", file, "-o", out, "--progress", NULL };
  char *so = NULL, *se = NULL;
  cr_assert_eq(tu_run(&so, &se, args), 0, "%s%s", so, se);
  /* the report's progress: 6 sections, the figures, the page */
  cr_assert(strstr(se, "report: 8/8 (100%)"), "%s", se);
  g_free(so);
  g_free(se);
  g_autofree char *html = tu_read(out, "index.html");
  cr_assert(strstr(html, "Do the static metrics predict the simulated energy?"), "%s", html);
  cr_assert_null(strstr(html, "simulated time"), "an energy ranking says energy");
  cr_assert(strstr(html, "permutation test p "), "the verdict names its test");
  g_autofree char *csv = tu_read(out, "correlations.csv");
  cr_assert(strstr(csv, ",traffic_energy_j,energy_j,6,"), "%s", csv);
  /* energy values carry their unit on the page */
  cr_assert(g_regex_match_simple("[0-9] (m|µ|n|k|)J<", html, 0, 0), "no value in J");
}

/* Under the analytic model an adaptive routing sees no load and takes its
 * minimal candidate: the report says so once, for that model only. */
Test(report_verdicts, adaptive_routing_under_a_model_without_load, .timeout = 240)
{
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\n"
                                          "platforms = dragonfly:g=9:a=4:p=2:h=2:routing=ugal\n"
                                          "strategies = identity; greedy\n"
                                          "models = analytic; flow\ncompute-scale = 0\n", cg);
  g_autofree char *file = g_build_filename(dir, "ugal.ini", NULL);
  cr_assert(g_file_set_contents(file, text, -1, NULL));
  g_autofree char *out = g_build_filename(dir, "out", NULL);
  const char *args[] = { "study", file, "-o", out, "-q", NULL };
  char *so = NULL, *se = NULL;
  cr_assert_eq(tu_run(&so, &se, args), 0, "%s%s", so, se);
  g_free(so);
  g_free(se);
  g_autofree char *html = tu_read(out, "index.html");
  cr_assert_eq(tu_count(html, "Under the analytic model, which sees no load, an adaptive "
                              "routing takes its minimal candidate"), 1, "%s", html);
  cr_assert_null(strstr(html, "Under the flow model"), "flow adapts by load");
}
