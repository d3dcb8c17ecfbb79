/* stats.h - rank and linear correlation of two samples.
 *
 * Spearman's rho is Pearson's r of the ranks, ties given their average rank
 * (the "fractional ranking" that makes rho exact with ties). Both are NAN
 * when undefined: fewer than two points, or a sample without spread.
 *
 * Ownership: the functions read the caller's arrays and allocate nothing
 * that outlives the call. Not for: significance tests.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Pearson's correlation coefficient of x[0..n-1] and y[0..n-1]. */
double stats_pearson(const double *x, const double *y, int n);

/* Spearman's rank correlation, ties at their average rank. */
double stats_spearman(const double *x, const double *y, int n);

/* Fractional ranks of x (1-based, ties averaged) into r[0..n-1]. */
void stats_ranks(const double *x, int n, double *r);

G_END_DECLS
