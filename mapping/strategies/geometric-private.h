/* geometric-private.h - internals of the `geometric` strategy (mapping/strategies/geometric.c)
 * exposed to its tests and to spectral-embed.c: the coordinate partitioner of
 * deveci-geometric Algorithm 2. Users go through the strategy registry
 * instead.
 *
 * geometric_map() is the mapping step itself, for strategies that compute
 * task coordinates of their own (mapping/strategies/spectral-embed.c).
 *
 * Ownership: geometric_parts() writes into the caller's mu[]; it copies x.
 */
#pragma once

#include "mapping/strategy.h"

G_BEGIN_DECLS

enum { GEO_SFC_Z, GEO_SFC_GRAY, GEO_SFC_FZ, GEO_SFC_MFZ, GEO_SFC_HILBERT };

/* Part numbers 0..np-1 of n points x[n*dim] (point-major) in the given
 * ordering (GEO_SFC_*); `order` ranks dimensions for longest-extent ties
 * (NULL: 0, 1, ...); flip_lower flips lower halves (MFZ's modified set). */
void geometric_parts(const double *x, int n, int dim, const int *order, int sfc,
                     gboolean flip_lower, int np, int *mu);

/* The geometric mapping of tasks with coordinates tc (T x td) onto
 * ctx->p's slots, with the options of `args` (a table holding
 * GEOMETRIC_PARAM_ROWS). With follow=1 and td equal to the machine's
 * dimensions, the tasks are cut along the dimensions the machine's
 * partition chose (task axes paired with machine axes by extent) instead of
 * their own longest: a grid of the machine's shape in another axis order,
 * or coordinates distorted along an axis (computed ones), still give
 * matching parts. Fills m like a constructor; stops at the best rotation
 * so far when ctx->prog says so. */
gboolean geometric_map(const strategy_ctx *ctx, const strategy_args *args, const double *tc,
                       int td, mapping *m, GError **error);

/* geometric's option rows, for its table and those of the strategies that
 * call geometric_map. */
#define GEOMETRIC_PARAM_ROWS                                                                  \
  { "ordering", SPARAM_CHOICE, "fz", "z|gray|fz|mfz|hilbert",                                \
    "part numbering: Z, Gray, flipped Z, modified flipped Z, Hilbert" },                      \
  { "rotations", SPARAM_INT, "0", "0..720",                                                   \
    "try this many (task, machine) dimension permutations, keep the lowest hop-bytes "      \
    "(0 = none; 36 = all for 3D tasks on a 3D torus)" },                                      \
  { "shift", SPARAM_INT, "1", "0..1", "shift torus machine coordinates at the largest gap" }, \
  { "bwscale", SPARAM_INT, "0", "0..1",                                                       \
    "scale machine coordinate distances by 1/bandwidth of each dimension's links" },          \
  { "follow", SPARAM_INT, "1", "0..1",                                                        \
    "tasks with as many dimensions as the machine are cut along the machine's cut dimensions " \
    "(axes paired by extent) instead of their own longest" }

G_END_DECLS
