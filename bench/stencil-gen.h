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
  int64_t per_dim[16];
  size_t nn = 1;
  for (int d = 0; d < nd; d++) {
    per_dim[d] = bytes;
    nn *= (size_t)dims[d];
  }
  if (coords) {
    *coords = g_new(double, nn * (size_t)nd);
    for (size_t r = 0; r < nn; r++)
      for (size_t d = 0, rem = r; d < (size_t)nd; rem /= (size_t)dims[d], d++)
        (*coords)[r * (size_t)nd + d] = (double)(rem % (size_t)dims[d]);
  }
  return commgraph_stencil(nd, dims, periodic, per_dim);
}
