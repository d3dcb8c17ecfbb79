/* stats.c - Pearson and Spearman correlation, equal results (see study/stats.h). */
#include "study/stats.h"
#include "study/study-private.h"

#include <math.h>
#include <stdlib.h>

double stats_pearson(const double *x, const double *y, int n)
{
  if (n < 2)
    return NAN;
  double mx = 0, my = 0;
  for (int i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  double sxy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < n; i++) {
    double dx = x[i] - mx, dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx <= 0 || syy <= 0)
    return NAN;
  double r = sxy / sqrt(sxx * syy);
  return CLAMP(r, -1.0, 1.0);
}

typedef struct ranked {
  double v;
  int i;
} ranked;

static gint by_value(gconstpointer a, gconstpointer b)
{
  const ranked *x = a, *y = b;
  if (x->v != y->v)
    return x->v < y->v ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

void stats_ranks(const double *x, int n, double *r)
{
  ranked *s = g_new(ranked, MAX(n, 1));
  for (int i = 0; i < n; i++)
    s[i] = (ranked){ x[i], i };
  qsort(s, (size_t)n, sizeof *s, (int (*)(const void *, const void *))by_value);
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && s[j + 1].v == s[i].v)
      j++;
    double avg = (i + j) / 2.0 + 1.0; /* positions i..j hold ranks i+1..j+1 */
    for (int k = i; k <= j; k++)
      r[s[k].i] = avg;
    i = j + 1;
  }
  g_free(s);
}

double stats_spearman(const double *x, const double *y, int n)
{
  if (n < 2)
    return NAN;
  double *rx = g_new(double, n), *ry = g_new(double, n);
  stats_ranks(x, n, rx);
  stats_ranks(y, n, ry);
  double rho = stats_pearson(rx, ry, n);
  g_free(rx);
  g_free(ry);
  return rho;
}

/* Heap's algorithm over the orders of ry[0..k-1]: counts the orders whose
 * |sum rx * ry - mean| reaches the observed distance. */
static void permute(const double *rx, double *ry, int n, int k, double mean, double dist,
                    int64_t *hits, int64_t *orders)
{
  if (k == 1) {
    double sum = 0;
    for (int i = 0; i < n; i++)
      sum += rx[i] * ry[i];
    (*orders)++;
    *hits += fabs(sum - mean) >= dist;
    return;
  }
  for (int i = 0; i < k; i++) {
    permute(rx, ry, n, k - 1, mean, dist, hits, orders);
    int j = k % 2 ? 0 : i;
    double t = ry[j];
    ry[j] = ry[k - 1];
    ry[k - 1] = t;
  }
}

double stats_spearman_p(const double *x, const double *y, int n)
{
  if (isnan(stats_spearman(x, y, n)))
    return NAN;
  double *rx = g_new(double, n), *ry = g_new(double, n);
  stats_ranks(x, n, rx);
  stats_ranks(y, n, ry);
  /* with both rank sets fixed, rho is linear in sum rx * ry: its mean
   * over all orders is n * mean(rx) * mean(ry) = n (n + 1)^2 / 4 */
  double mean = n * (n + 1.0) * (n + 1.0) / 4, sum = 0;
  for (int i = 0; i < n; i++)
    sum += rx[i] * ry[i];
  /* a relative slack, so that the observed order always counts */
  double dist = fabs(sum - mean) * (1 - 1e-12) - 1e-9;
  int64_t hits = 0, orders = 0;
  double p;
  if (n <= STATS_EXACT_PERMUTATION_N) {
    permute(rx, ry, n, n, mean, dist, &hits, &orders);
    p = (double)hits / (double)orders;
  } else {
    GRand *rand = g_rand_new_with_seed(1);
    for (int k = 0; k < STATS_RANDOM_PERMUTATIONS; k++) {
      for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = g_rand_int_range(rand, 0, i + 1);
        double t = ry[i];
        ry[i] = ry[j];
        ry[j] = t;
      }
      double s = 0;
      for (int i = 0; i < n; i++)
        s += rx[i] * ry[i];
      hits += fabs(s - mean) >= dist;
    }
    g_rand_free(rand);
    p = (hits + 1.0) / (STATS_RANDOM_PERMUTATIONS + 1.0);
  }
  g_free(rx);
  g_free(ry);
  return MIN(p, 1.0);
}

gboolean stats_equal(double a, double b)
{
  return fabs(a - b) <= STATS_REL_TOL * MAX(fabs(a), fabs(b));
}

/* Two-sided 5% critical values of Student's t for 1..30 degrees of
 * freedom, then 40, 60, 120 and the normal limit (NIST/SEMATECH
 * e-Handbook 1.3.6.7.2); between table rows the smaller degrees of freedom
 * are taken, which only makes "different" harder to reach. */
static double t_critical(int df)
{
  static const double t[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                              2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
                              2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
                              2.048, 2.045, 2.042 };
  if (df <= 30)
    return t[MAX(df, 1) - 1];
  return df < 60 ? 2.021 : df < 120 ? 2.000 : df < 1000 ? 1.980 : 1.960;
}

gboolean stats_paired_equal(const double *a, const double *b, int n)
{
  gboolean all = TRUE;
  double mean = 0;
  for (int i = 0; i < n; i++) {
    all = all && stats_equal(a[i], b[i]);
    mean += a[i] - b[i];
  }
  if (all)
    return TRUE;
  if (n < 2)
    return FALSE;
  mean /= n;
  double ss = 0;
  for (int i = 0; i < n; i++)
    ss += (a[i] - b[i] - mean) * (a[i] - b[i] - mean);
  double se = sqrt(ss / (n - 1) / n);
  /* the same difference at every seed: certainly different */
  if (!(se > STATS_REL_TOL * fabs(mean)))
    return FALSE;
  return fabs(mean) / se < t_critical(n - 1);
}
