/* grid.h - grids of tasks and of node slots for the grid heuristics of
 * bhatele2010 Chapters 9-10 (mapping/strategies/stencil-heuristics.c, mapping/strategies/irregular-graphs.c).
 *
 * A task grid gives every task integer coordinates in a box of `nd`
 * dimensions: from --coords when they are integers (after subtracting the
 * per-dimension minimum), else from the graph (grid_coords_of_graph: the
 * stencil detection of Section 8.1 on rank numbers, else the structure).
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
 * Ownership: task_grid owns its coordinate array (task_grid_clear()); views are
 * plain values. Not for: placing tasks (nearest.h) or choosing where
 * (the strategies).
 */
#pragma once

#include "mapping/strategy.h"

G_BEGIN_DECLS

#define GRID_MAX_DIMS TOPO_MAX_DIMS

typedef struct task_grid {
  int n;                      /* tasks */
  int nd;                     /* dimensions */
  int dims[GRID_MAX_DIMS];    /* extent of each */
  int *c;                     /* n x nd integer coordinates */
} task_grid;

/* A grid recognized in a communication graph by its structure alone
 * (grid-detect.c): a Cartesian product of paths (open sides) and cycles
 * (periodic sides), 1..GRID_MAX_DIMS dimensions longest first, plus edges
 * of at most 3 steps per dimension (diagonals, wider stencils). */
typedef struct gdetect {
  int nd;
  int dims[GRID_MAX_DIMS];
  gboolean periodic[GRID_MAX_DIMS];
  int *c;                     /* n x nd coordinates, owned */
} gdetect;

/* TRUE with *out filled when g is such a grid, whatever its rank
 * numbering; FALSE otherwise, or with `error` set when its edges exceed
 * the memory budget, or when `prog` says stop. O(E x degree). */
gboolean grid_detect(const commgraph *g, const progress *prog, gdetect *out, GError **error);
void gdetect_clear(gdetect *d);

/* Task coordinates (n x *nd, caller frees) of a graph that is a grid: the
 * rank-numbered stencil of bhatele2010 Section 8.1 when the ranks follow
 * one (grid_rank_stencil), else grid_detect(). FALSE without
 * error when there is none; with `error` on the budget or an interrupt. */
gboolean grid_coords_of_graph(const commgraph *g, const progress *prog, double **coords,
                              int *nd, GError **error);

/* Two sides of 2 are one periodic side of 4 (the square is the 4-cycle),
 * which grid_detect() reports as the former: merges such pairs of binary
 * coordinates (values 0 and 1) of c (n x *nd, rewritten in place) into one
 * coordinate 0..3 around the square, last ones first, while *nd > target. */
void grid_merge_pairs(double *c, int n, int *nd, int target);

/* The task grid of ctx (see above); FALSE with STRATEGY_ERROR_INPUT naming
 * `who` when there are no integer coordinates and no stencil. */
gboolean task_grid_init(task_grid *g, const strategy_ctx *ctx, const char *who, GError **error);
void task_grid_clear(task_grid *g);

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

/* COCE for graphs without a grid (mapping/strategies/irregular-graphs.c): a task on each mesh
 * corner, then breadth-first (mht FALSE) or max-heap (TRUE) traversal. */
gboolean irregular_coce(const strategy_ctx *ctx, gboolean mht, mapping *m, GError **error);

G_END_DECLS
