/* stats.c - Pearson and Spearman correlation (see stats.h). */
#include "sim/report/stats.h"

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
