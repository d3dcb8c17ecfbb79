/* geometric.h - internals of the `geometric` strategy (map-geometric.c)
 * exposed to its tests and benchmarks: the coordinate partitioner of
 * deveci-geometric Algorithm 2 and the stencil detector of bhatele2010
 * Section 8.1. Users go through the strategy registry instead.
 *
 * Ownership: geometric_parts() writes into the caller's mu[]; it copies x.
 * geometric_detect_stencil() returns coordinates the caller g_free()s.
 */
#pragma once

#include "traces/commgraph.h"

G_BEGIN_DECLS

enum { GEO_SFC_Z, GEO_SFC_GRAY, GEO_SFC_FZ, GEO_SFC_MFZ, GEO_SFC_HILBERT };

/* Part numbers 0..np-1 of n points x[n*dim] (point-major) in the given
 * ordering (GEO_SFC_*); `order` ranks dimensions for longest-extent ties
 * (NULL: 0, 1, ...); flip_lower flips lower halves (MFZ's modified set). */
void geometric_parts(const double *x, int n, int dim, const int *order, int sfc,
                     gboolean flip_lower, int np, int *mu);

/* Recognizes a Cartesian near-neighbour stencil (ranks numbered dimension 0
 * fastest, 1..5 dimensions): TRUE with *coords (n x *nd) filled. */
gboolean geometric_detect_stencil(const commgraph *g, double **coords, int *nd);

G_END_DECLS
