/* stencil-gen.h - benchmark inputs: Cartesian stencil communication graphs
 * (rank = x + X*(y + Y*z) ..., dimension 0 fastest), mesh or periodic,
 * and their coordinates. Static inline, bench-only. */
#pragma once

#include <glib.h>

#include "traces/commgraph.h"

static inline commgraph *bench_stencil(int nd, const int *dims, gboolean periodic,
                                       int64_t bytes, double **coords)
{
  if (nd < 1 || nd > 16)
    return NULL;
  size_t nn = 1;
  for (int d = 0; d < nd; d++)
    nn *= (size_t)(dims[d] > 0 ? dims[d] : 1);
  g_assert(nn <= G_MAXINT / 2);
  int n = (int)nn;
  size_t cap = nn * 2 * (size_t)nd;
  int *s = g_new(int, cap), *t = g_new(int, cap);
  int64_t *b = g_new(int64_t, cap);
  size_t m = 0;
  if (coords)
    *coords = g_new(double, nn * (size_t)nd);
  for (int r = 0; r < n; r++) {
    int c[16], rem = r, stride = 1;
    for (int d = 0; d < nd; d++)
      c[d] = rem % dims[d], rem /= dims[d];
    if (coords)
      for (int d = 0; d < nd; d++)
        (*coords)[(size_t)r * nd + d] = c[d];
    for (int d = 0; d < nd; stride *= dims[d], d++)
      for (int dir = -1; dir <= 1; dir += 2) {
        int x = c[d] + dir;
        if (x < 0 || x >= dims[d]) {
          if (!periodic || dims[d] < 3)
            continue;
          x = (x + dims[d]) % dims[d];
        }
        s[m] = r, t[m] = r + (x - c[d]) * stride, b[m] = bytes, m++;
      }
  }
  commgraph *g = commgraph_from_edges(n, (int)m, s, t, b, NULL);
  g_free(s);
  g_free(t);
  g_free(b);
  return g;
}
