/* commstats.h - communication metrics of a communication matrix.
 *
 * The matrix-based statistics of korndoerfer2021 ("Mapping Matters",
 * Section 4.3, Tables 2 and 3), after Bordage/Jeannot (fat-tree metrics)
 * and Diener et al. (CA, CB, CH), with these exact definitions (raw matrix
 * C, n ranks, row = sender; S = sum of all entries including the diagonal;
 * T[i] = row sum):
 *   CA  = S / n^2
 *   CB  = 1 - S / (n * max_i T[i])
 *   CC  = (1/n^2) sum_i (min(i+r_i, n-1) - max(i-r_i, 0)), r_i the smallest
 *         r >= 0 with C[i][i] + sum_{1<=s<=r} (C[i][i-s] + C[i][i+s], the
 *         terms inside the matrix) >= T[i]/2
 *   CH  = (1/n^2) sum_i sum_j (M[i][j] - mu_i)^2, M = C / max(C),
 *         mu_i = (1/n) sum_j M[i][j]
 *   NBC = 1 - sum_{i=0}^{n-2} (C[i][i+1] + C[i+1][i]) / S
 *   SP(k) = 1 - (sum of the diagonal k x k blocks of consecutive ranks) / S;
 *         when k does not divide n the last block is the n mod k last ranks.
 * An all-zero matrix gives 0 for every metric.
 *
 * Ownership: the caller owns the matrix and the result struct. Not for:
 * placement metrics (mapping/metrics.h).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define COMMSTATS_ERROR (commstats_error_quark())
GQuark commstats_error_quark(void);

typedef enum {
  COMMSTATS_ERROR_SPLIT,  /* k out of range */
} CommstatsError;

#define COMMSTATS_MAX_SPLITS 16

typedef struct commstats {
  double sum, CA, CB, CC, CH, NBC;
  int nsplits;
  int split[COMMSTATS_MAX_SPLITS];  /* the k of SP(k) */
  double SP[COMMSTATS_MAX_SPLITS];
} commstats;

/* Metrics of the dense row-major n x n matrix `C` for the `nsplits` values
 * of k in `splits` (1 <= k <= n, at most COMMSTATS_MAX_SPLITS). O(n^2). */
gboolean commstats_compute(const double *C, int n, const int *splits, int nsplits,
                           commstats *out, GError **error);

/* Rounds half up to `decimals` places (how Tables 2 and 3 print). */
double commstats_round(double v, int decimals);

G_END_DECLS
