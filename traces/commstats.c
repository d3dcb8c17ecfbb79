/* commstats.c - matrix communication metrics of korndoerfer2021 Section
 * 4.3 (definitions in commstats.h). Each metric is one O(n^2) pass. */
#include "traces/commstats.h"

#include <math.h>

G_DEFINE_QUARK(commstats-error-quark, commstats_error)

static double row_sum(const double *C, int n, int i)
{
  double s = 0;
  for (int j = 0; j < n; j++)
    s += C[(size_t)i * n + j];
  return s;
}

static double comm_centrality(const double *C, int n)
{
  double acc = 0;
  for (int i = 0; i < n; i++) {
    const double *row = C + (size_t)i * n;
    double half = row_sum(C, n, i) / 2, s = row[i];
    int r = 0;
    while (s < half && r < n) {
      r++;
      s += (i - r >= 0 ? row[i - r] : 0) + (i + r < n ? row[i + r] : 0);
    }
    acc += MIN(i + r, n - 1) - MAX(i - r, 0);
  }
  return acc / ((double)n * n);
}

static double comm_heterogeneity(const double *C, int n)
{
  double max = 0, acc = 0;
  for (size_t k = 0; k < (size_t)n * n; k++)
    max = MAX(max, C[k]);
  if (max == 0)
    return 0;
  for (int i = 0; i < n; i++) {
    double mu = row_sum(C, n, i) / max / n;
    for (int j = 0; j < n; j++) {
      double d = C[(size_t)i * n + j] / max - mu;
      acc += d * d;
    }
  }
  return acc / ((double)n * n);
}

static double split_fraction(const double *C, int n, int k, double S)
{
  double in = 0;
  for (int i = 0; i < n; i++)
    for (int j = (i / k) * k; j < MIN((i / k + 1) * k, n); j++)
      in += C[(size_t)i * n + j];
  return 1 - in / S;
}

gboolean commstats_compute(const double *C, int n, const int *splits, int nsplits,
                           commstats *out, GError **error)
{
  *out = (commstats){ 0 };
  if (nsplits > COMMSTATS_MAX_SPLITS) {
    g_set_error(error, COMMSTATS_ERROR, COMMSTATS_ERROR_SPLIT,
                "--split: %d values, expected at most %d", nsplits, COMMSTATS_MAX_SPLITS);
    return FALSE;
  }
  for (int s = 0; s < nsplits; s++)
    if (splits[s] < 1 || splits[s] > n) {
      g_set_error(error, COMMSTATS_ERROR, COMMSTATS_ERROR_SPLIT,
                  "--split %d: out of range, expected 1 <= k <= %d (ranks)", splits[s], n);
      return FALSE;
    }
  double S = 0, Tmax = 0, nb = 0;
  for (int i = 0; i < n; i++) {
    double T = row_sum(C, n, i);
    S += T;
    Tmax = MAX(Tmax, T);
  }
  for (int i = 0; i + 1 < n; i++)
    nb += C[(size_t)i * n + i + 1] + C[(size_t)(i + 1) * n + i];
  out->sum = S;
  out->nsplits = nsplits;
  for (int s = 0; s < nsplits; s++)
    out->split[s] = splits[s];
  if (S == 0)
    return TRUE;
  out->CA = S / ((double)n * n);
  out->CB = 1 - S / (n * Tmax);
  out->CC = comm_centrality(C, n);
  out->CH = comm_heterogeneity(C, n);
  out->NBC = 1 - nb / S;
  for (int s = 0; s < nsplits; s++)
    out->SP[s] = split_fraction(C, n, splits[s], S);
  return TRUE;
}

double commstats_round(double v, int decimals)
{
  double f = pow(10, decimals);
  /* the epsilon absorbs binary representation error of exact halves */
  return floor(v * f + 0.5 + 1e-9) / f;
}
