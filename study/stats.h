/* stats.h - rank and linear correlation of two samples, and whether two
 * results are equal.
 *
 * Spearman's rho is Pearson's r of the ranks, ties given their average rank
 * (the "fractional ranking" that makes rho exact with ties). Both are NAN
 * when undefined: fewer than two points, or a sample without spread.
 *
 * Equal results: values of a deterministic run are equal when they differ
 * by at most STATS_REL_TOL of the larger (the last digits of sums taken in
 * another order); paired samples (the same seeds) are equal when every pair
 * is, or when a two-sided paired t-test at the 5% level cannot tell them
 * apart (Student's t critical values, NIST/SEMATECH e-Handbook of
 * Statistical Methods, Section 1.3.6.7.2).
 *
 * Ownership: the functions read the caller's arrays and allocate nothing
 * that outlives the call. Not for: deciding what a study shows (report/report.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Pearson's correlation coefficient of x[0..n-1] and y[0..n-1]. */
double stats_pearson(const double *x, const double *y, int n);

/* Spearman's rank correlation, ties at their average rank. */
double stats_spearman(const double *x, const double *y, int n);

/* The two-sided p-value of Spearman's rho of x and y under independence,
 * by a permutation test: the share of the orders of y's ranks whose rho
 * is at least as far from 0 as the observed one. Exact (all n! orders)
 * for n <= STATS_EXACT_PERMUTATION_N; above, STATS_RANDOM_PERMUTATIONS
 * random orders of a fixed seed (deterministic), p = (hits + 1) /
 * (orders + 1). NAN when rho is undefined. */
#define STATS_EXACT_PERMUTATION_N 8
#define STATS_RANDOM_PERMUTATIONS 20000
double stats_spearman_p(const double *x, const double *y, int n);

/* Relative tolerance of equal deterministic results. */
#define STATS_REL_TOL 1e-9

/* The fewest points whose Spearman rho can be significant at the 5% level
 * (two-sided): with n points rho = 1 has probability 1/n! under
 * independence, so the smallest two-sided p is 2/n!: 2/24 = 0.083 for 4
 * points, 2/120 = 0.017 for 5. */
#define STATS_MIN_SPEARMAN_N 5

/* |a - b| <= STATS_REL_TOL * max(|a|, |b|). */
gboolean stats_equal(double a, double b);

/* Are paired samples a[i], b[i] (i < n, n >= 1) equal: every pair equal
 * (stats_equal), or, with n >= 2 pairs whose differences vary, a two-sided
 * paired t-test at the 5% level not significant? */
gboolean stats_paired_equal(const double *a, const double *b, int n);

G_END_DECLS
