/* test_report_stats.c - Pearson's r and Spearman's rho (with ties) against
 * values computed by hand. */
#include <math.h>

#include "sim/report/stats.h"
#include "testutil.h"

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
