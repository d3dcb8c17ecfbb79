/* nearest.h - findNearest of bhatele2010 Section 10.1: the allocated node
 * with a free slot nearest, in route hops, to a wanted node.
 *
 * Two searches of the thesis, chosen by size (Section 10.1.2: the tree wins
 * above 1,024 processors):
 *  - spiral: enumerate the nodes shell by shell, hop distance 0, 1, 2 ...
 *    (Algorithm 10.1 and B.1, in any number of dimensions, with torus wrap
 *    and the HAEC Box crossbar rule of hop_table_get);
 *  - tree: the quadtree/octree of Section 10.1.1 with free-slot counts per
 *    subtree, built as a binary tree that halves the longest side of its
 *    box (two or three binary levels make one quadtree or octree level), so
 *    that it works in any number of dimensions. A search descends into a
 *    subtree only if it holds a free slot and the hop distance to its box
 *    can beat the best node found (the thesis's two pruning rules).
 * Graph topologies (and platforms with explicit route tables) have no
 * coordinates to spiral over: the search is breadth-first over the links.
 * Ties go to the lowest node id in every search, so spiral and tree return
 * the same node.
 *
 * Every allocated node starts with cores_per_node free slots.
 * Ownership: an nearest_free owns its arrays; free with nearest_free_clear(). Not for:
 * choosing where a task should go (the strategies do that).
 */
#pragma once

#include "mapping/map-util.h"

G_BEGIN_DECLS

typedef enum {
  NEAREST_FREE_AUTO,   /* tree above NEAREST_FREE_TREE_ABOVE nodes, spiral below; BFS
                        * without coordinates */
  NEAREST_FREE_SPIRAL,
  NEAREST_FREE_TREE,
  NEAREST_FREE_BFS,
} nearest_free_kind;

#define NEAREST_FREE_TREE_ABOVE 1024

typedef struct nearest_free_box {
  int lo[TOPO_MAX_DIMS], hi[TOPO_MAX_DIMS]; /* inclusive */
  int free;       /* free slots below */
  int child;      /* first of two children, or -1 for a leaf */
  int parent;     /* -1 for the root */
  int node;       /* leaves: the node id */
} nearest_free_box;

typedef struct nearest_free {
  const platform *p;
  hop_table h;
  nearest_free_kind kind;    /* the search in use (never AUTO) */
  int *slots;         /* nnodes: free slots */
  int left;           /* free slots in all */
  /* tree */
  nearest_free_box *box;
  int nbox;
  int *leaf;          /* nnodes: box of the node */
  /* bfs */
  node_bfs bfs;
} nearest_free;

void nearest_free_init(nearest_free *n, const platform *p, nearest_free_kind kind);
void nearest_free_clear(nearest_free *n);

/* The node with a free slot nearest to `node` (itself if free), ties to the
 * lowest id; -1 when no slot is left. */
int nearest_free_find(nearest_free *n, int node);

/* Occupies one slot of `node`, which must have one. */
void nearest_free_take(nearest_free *n, int node);

/* nearest_free_find + nearest_free_take: the node the task goes to, or -1. */
static inline int nearest_free_place(nearest_free *n, int node)
{
  int v = nearest_free_find(n, node);
  if (v >= 0)
    nearest_free_take(n, v);
  return v;
}

/* The free node nearest the centre of the mesh (graph topologies: nearest
 * the middle allocated node); -1 when no slot is left. */
int nearest_free_centre(nearest_free *n);

G_END_DECLS
