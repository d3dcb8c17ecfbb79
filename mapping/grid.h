/* grid.h - grids of tasks and of node slots for the grid heuristics of
 * bhatele2010 Chapters 9-10 (map-regular.c, map-irregular.c).
 *
 * A task grid gives every task integer coordinates in a box of `nd`
 * dimensions: from --coords when they are integers (after subtracting the
 * per-dimension minimum), else from the stencil detection of Section 8.1
 * (geometric_detect_stencil: 20% edge-weight filter, rank-0 hub ignored).
 * The slot grid is the topology's shape with dimension 0 stretched by the
 * cores per node (slot x of a node at x / cores: the cores of one node are
 * neighbours, as in the thesis's TXYZ order).
 *
 * A view regroups the dimensions of a grid into fewer axes: an axis is one
 * dimension, or several linked in boustrophedon order (each run reversed
 * after an odd prefix, so consecutive positions stay neighbours - the
 * accordion fold of Section 9.2). gview_plane() makes the 2D view the
 * plane heuristics need: the largest dimension, and the others folded with
 * the smallest slowest (planes perpendicular to the smallest dimension,
 * alternately flipped).
 *
 * Ownership: tgrid owns its coordinate array (tgrid_clear()); views are
 * plain values. Not for: placing tasks (nearest.h) or choosing where
 * (the strategies).
 */
#pragma once

#include "mapping/strategy.h"

G_BEGIN_DECLS

#define GRID_MAX_DIMS TOPO_MAX_DIMS

typedef struct tgrid {
  int n;                      /* tasks */
  int nd;                     /* dimensions */
  int dims[GRID_MAX_DIMS];    /* extent of each */
  int *c;                     /* n x nd integer coordinates */
} tgrid;

/* The task grid of ctx (see above); FALSE with STRATEGY_ERROR_INPUT naming
 * `who` when there are no integer coordinates and no stencil. */
gboolean tgrid_init(tgrid *g, const strategy_ctx *ctx, const char *who, GError **error);
void tgrid_clear(tgrid *g);

typedef struct gaxis {
  int ndims;                  /* dimensions linked on this axis, fastest first */
  int dim[GRID_MAX_DIMS];
  int size[GRID_MAX_DIMS];
  int n;                      /* product of the sizes */
} gaxis;

typedef struct gview {
  int naxes;
  gaxis ax[GRID_MAX_DIMS];
} gview;

/* One axis per dimension of extent > 1 (at least one axis). */
void gview_native(gview *v, int nd, const int *dims);
/* Two axes: the largest dimension, and the rest folded, smallest slowest;
 * a grid with one dimension of extent > 1 gets a second axis of size 1. */
void gview_plane(gview *v, int nd, const int *dims);

/* Base coordinates c (all dimensions of the grid) <-> view coordinates. */
void gview_to_view(const gview *v, const int *c, int *vc);
void gview_to_base(const gview *v, const int *vc, int *c);

/* The slot grid of p (regular topologies): its dimensions. */
void slotgrid_dims(const platform *p, int *dims);
/* The node holding slot-grid coordinates s (clamped into the shape). */
int slotgrid_node(const platform *p, const int *s);

/* COCE for graphs without a grid (map-irregular.c): a task on each mesh
 * corner, then breadth-first (mht FALSE) or max-heap (TRUE) traversal. */
gboolean irregular_coce(const strategy_ctx *ctx, gboolean mht, mapping *m, GError **error);

G_END_DECLS
