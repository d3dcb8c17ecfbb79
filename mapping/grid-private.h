/* grid-private.h - what mapping/grid.c shows its tests besides the public
 * grid.h: the recognizer of rank-numbered stencils that grid_task_coords
 * tries first. Not for users of mapping/.
 */
#pragma once

#include "mapping/grid.h"

G_BEGIN_DECLS

/* Recognizes the Cartesian near-neighbour stencil of bhatele2010 Section
 * 8.1 when the ranks are numbered along it (dimension 0 fastest, 1..5
 * dimensions): TRUE with *coords (n x *nd, caller g_free()s) filled. */
gboolean grid_rank_stencil(const commgraph *g, double **coords, int *nd);

G_END_DECLS
