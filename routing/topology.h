/* topology.h - the shape of an interconnect: nodes, switches, directed links.
 *
 * A topo is one of four families:
 *  - direct networks, where every vertex is a node that holds ranks and
 *    routes: regular - N dimensions (1..TOPO_MAX_DIMS), each `mesh`,
 *    `torus` or `crossbar` - or a graph given link by link. Node ids of a
 *    regular topo put dimension 0 fastest: node = x + X*(y + Y*z) ..., the
 *    numbering of Scotch's mesh/torus targets.
 *  - indirect (switch-based) networks: dragonfly, fat tree (XGFT),
 *    HyperX and a tree of switches (a scheduler's: Slurm's topology). Their vertices are the compute nodes [0, nnodes - nswitches)
 *    followed by the switches [nnodes - nswitches, nnodes). A switch holds
 *    no ranks (no allocation contains one) and is no end of a route; every
 *    node hangs off one switch by an injection link pair (node -> switch,
 *    switch -> node), so a node's link bandwidth bounds what it sends and
 *    receives in every network model. Their links are numbered by closed
 *    formulas (the family's file in routing/), so routes find link ids in
 *    O(1). They have ndims == 0: consumers that need coordinates treat them
 *    as graphs, and their distances are route_hops() (route.h).
 * Per-vertex arrays are sized nnodes (switches included), so every link
 * end indexes them.
 *
 * Links are directed (one per direction of a cable) and have dense ids in
 * [0, nlinks). The outgoing links of vertex u are out_link[out_off[u] ..
 * out_off[u+1]-1]; for a regular topo they are numbered node by node,
 * dimension by dimension, `+` before `-`, so out_link is the identity.
 *
 * Every link has a class (link_class), the unit per-class metrics count
 * by: dimension and direction on a regular topo (2 d + dir: x+, x-, y+
 * ...), one class on a graph, and on indirect networks the injection
 * direction (node up, node down) and the family's kinds of cable
 * (dragonfly local, global; fat-tree levels up and down; HyperX
 * dimensions). topo_class_name names them.
 *
 * A `crossbar` dimension is the free-space wireless dimension of the HAEC
 * Box (korndoerfer2021, Section 5.1): every node has a link to every node of
 * the two adjacent layers along that dimension (coordinate +1 and -1), all
 * other coordinates free. At most one dimension may be a crossbar.
 *
 * Ownership: topo_new_*() return a topo the caller frees with topo_free();
 * the arrays inside belong to the topo. Not for: link bandwidths (platform.h)
 * or paths (route.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define TOPO_MAX_DIMS 8
/* Node and link ids are ints; sums over them stay far from overflow. */
#define TOPO_MAX_NODES (1 << 30)
#define TOPO_MAX_LINKS (1 << 30)

#define TOPO_ERROR (topo_error_quark())
GQuark topo_error_quark(void);

typedef enum {
  TOPO_ERROR_INVALID, /* impossible shape or link list */
} TopoError;

typedef enum {
  TOPO_MESH,
  TOPO_TORUS,
  TOPO_CROSSBAR,
} topo_conn;

/* The families (see the header paragraph). */
typedef enum {
  TOPO_FAMILY_DIRECT,     /* regular or graph: every vertex a node */
  TOPO_FAMILY_DRAGONFLY,
  TOPO_FAMILY_FATTREE,
  TOPO_FAMILY_HYPERX,
  TOPO_FAMILY_TREE,       /* a tree of switches, possibly irregular (Slurm's topology) */
} topo_family;

/* The most levels of switches of a fat tree. */
#define TOPO_MAX_LEVELS 8

/* How a dragonfly's global cables join groups (Hastings et al., "Comparing
 * global link arrangements for Dragonfly networks", IEEE Cluster 2015,
 * Section II; Camarero et al., ACM TACO 2014). A group's global ports are
 * numbered k = router * h + port; with m cables between each pair of
 * groups, port k serves target slot k / m, copy k % m:
 *  - absolute: slot t leads to group t (t < own group) or t + 1;
 *  - relative: slot t leads to group own + t + 1 (mod g);
 *  - circulant: even slots step forward, odd ones back: slot 2i leads to
 *    own + i + 1, slot 2i + 1 to own - i - 1 (mod g);
 *  - simgrid: SimGrid's DragonflyZone: the cable between groups x and y
 *    joins router y of group x and router x of group y (h = 1, a >= g).
 * Copy c of x -> y and copy c of y -> x are the two ends of one cable. */
typedef enum {
  TOPO_ARRANGE_ABSOLUTE,
  TOPO_ARRANGE_RELATIVE,
  TOPO_ARRANGE_CIRCULANT,
  TOPO_ARRANGE_SIMGRID,
} topo_arrangement;

/* "absolute" ...; and back (FALSE when unknown). */
const char *topo_arrangement_name(topo_arrangement a);
gboolean topo_arrangement_from_name(const char *name, topo_arrangement *out);

/* A dragonfly (Kim et al., ISCA 2008): g groups of a routers, p nodes per
 * router, h global ports per router; the routers of a group all-to-all. */
typedef struct topo_dragonfly {
  int groups, routers, nodes_per_router, global_ports; /* g a p h */
  topo_arrangement arrangement;
  int parallel;          /* m = floor(a h / (g - 1)) cables per pair of groups (simgrid: 1) */
  int local_base;        /* first local link id */
  int global_base;       /* first global link id */
  int *gateway;          /* g (g-1) m: router (index in its group) of copy c of x -> y */
} topo_dragonfly;

/* An extended generalized fat tree XGFT(L; m; w) with parallel cables
 * (Ohring et al., IPPS 1995; SimGrid's FAT_TREE): level 0 holds the
 * nodes, levels 1..L the switches. A vertex of level l has down[l-1]
 * children and up[l] parents, joined by parallel[l] cables each. The
 * k-ary n-tree (Petrini and Vanneschi, IPPS 1997) is L = n, down = k...,
 * up = 1, k, ..., k, parallel 1. Tapering: up[l] * parallel[l] <
 * down[l]. */
typedef struct topo_fattree {
  int levels;
  int down[TOPO_MAX_LEVELS], up[TOPO_MAX_LEVELS], parallel[TOPO_MAX_LEVELS];
  int count[TOPO_MAX_LEVELS + 1];   /* vertices of each level (count[0]: nodes) */
  int first[TOPO_MAX_LEVELS + 1];   /* id of each level's first vertex */
  int ports[TOPO_MAX_LEVELS];       /* up ports of a vertex of level l: up[l] parallel[l] */
  int up_base[TOPO_MAX_LEVELS];     /* first link id of the up links level l -> l+1 */
  int down_base[TOPO_MAX_LEVELS];   /* first link id of the down links l+1 -> l */
} topo_fattree;

/* A HyperX (Ahn et al., SC09): switches on a grid S1 x S2 x ..., all-to-all
 * along every dimension, p nodes per switch. */
typedef struct topo_hyperx {
  int ndims;
  int shape[TOPO_MAX_DIMS];
  int stride[TOPO_MAX_DIMS];        /* switch index step per dimension */
  int dim_off[TOPO_MAX_DIMS];       /* first of dimension d's links among a switch's */
  int nodes_per_router;
  int switches;
  int per_switch;                   /* switch-to-switch links leaving one switch */
  int switch_base;                  /* first switch-to-switch link id */
} topo_hyperx;

/* A tree of switches (routing/family/tree.c): every vertex but the root hangs
 * off one parent switch; nodes hang off leaf switches. Levels: nodes 0, a
 * switch one above its highest child (at least 1). */
typedef struct topo_tree {
  int levels;                       /* the root's level */
  int root;                         /* the root switch's vertex id */
  int *parent;                      /* nnodes: parent switch, -1 at the root */
  int *level;                       /* nnodes */
  int *depth;                       /* nnodes: links up to the root */
  int *up_link;                     /* nnodes: link to the parent (+1: back down), -1 at the root */
} topo_tree;

struct family_ops;

typedef struct topo {
  topo_family family;             /* the built-in family consumers switch on (ops->kind) */
  const struct family_ops *ops;   /* everything about the family (routing/family/family.h) */
  void *state;                    /* the family's parameters, freed by ops->free_state: read
                                   * them with topo_dragonfly_of() and its kin */
  int nswitches;                  /* vertices nnodes - nswitches .. nnodes - 1 are switches */
  int ndims;                      /* 0 for a graph topology and indirect networks */
  int shape[TOPO_MAX_DIMS];
  topo_conn conn[TOPO_MAX_DIMS];
  int stride[TOPO_MAX_DIMS];      /* node id step per dimension */
  int crossbar_dim;               /* the crossbar dimension, or -1 */
  int slab;                       /* nodes per crossbar layer (nnodes / shape[crossbar_dim]) */
  int nnodes;
  int nlinks;
  int *link_src;                  /* nlinks */
  int *link_dst;                  /* nlinks */
  int8_t *link_dim;               /* nlinks: dimension (-1 for graph links) */
  int8_t *link_dir;               /* nlinks: 0 = towards +, 1 = towards - */
  int *out_off;                   /* nnodes + 1 */
  int *out_link;                  /* nlinks */
  /* regular: first link id of (node, dim, dir), or -1; nnodes*ndims*2 */
  int *first_link;
  uint8_t *link_class;            /* nlinks: see topo_class_name */
  int nclasses;
} topo;

/* The parameters of an indirect network, one accessor per family: t's
 * own (owned by t, valid while it lives) when t is of that family, NULL
 * otherwise. */
const topo_dragonfly *topo_dragonfly_of(const topo *t);
const topo_fattree *topo_fattree_of(const topo *t);
const topo_hyperx *topo_hyperx_of(const topo *t);
const topo_tree *topo_tree_of(const topo *t);

/* A regular topology. Fails (TOPO_ERROR_INVALID) for ndims outside
 * 1..TOPO_MAX_DIMS, a size < 1, more than one crossbar dimension,
 * TOPO_MAX_NODES nodes or TOPO_MAX_LINKS links or more, or (BUDGET_ERROR)
 * more memory than the budget allows - all checked before allocating. */
topo *topo_new_regular(int ndims, const int *shape, const topo_conn *conn, GError **error);

/* A topology from a list of directed links src[i] -> dst[i] (link id i). */
topo *topo_new_graph(int nnodes, int nlinks, const int *src, const int *dst, GError **error);

/* Indirect networks from their parameters (the derived members are
 * ignored and filled in). Fail (TOPO_ERROR_INVALID) naming the parameter
 * for impossible ones, or (BUDGET_ERROR) for more memory than the budget
 * allows - both before anything large is allocated. */
topo *topo_new_dragonfly(const topo_dragonfly *params, GError **error);
topo *topo_new_fattree(const topo_fattree *params, GError **error);
topo *topo_new_hyperx(const topo_hyperx *params, GError **error);

/* A tree of `nodes` compute nodes and `switches` switches from the parent
 * of every vertex (nodes first, then switches; -1 for the one root).
 * Fails (TOPO_ERROR_INVALID) naming the vertex on a node without a switch
 * above, a node with children, a second root, a cycle or a vertex more
 * than TOPO_MAX_LEVELS switches below the root. */
topo *topo_new_tree(int nodes, int switches, const int *parent, GError **error);

void topo_free(topo *t);

static inline gboolean topo_is_regular(const topo *t) { return t->ndims > 0; }

/* Compute nodes (vertices that hold ranks): nnodes - nswitches. */
static inline int topo_compute_nodes(const topo *t) { return t->nnodes - t->nswitches; }

/* Is vertex v a switch (no ranks, no route ends)? */
static inline gboolean topo_is_switch(const topo *t, int v)
{
  return v >= t->nnodes - t->nswitches;
}

/* Link classes of a dragonfly (topo_class_name: node up, node down,
 * local, global). */
enum { TOPO_DF_NODE_UP, TOPO_DF_NODE_DOWN, TOPO_DF_LOCAL, TOPO_DF_GLOBAL };

/* The dragonfly group of compute node v, or -1 on other networks. */
int topo_group_of(const topo *t, int v);

/* "direct", "dragonfly", "fattree", "hyperx", "tree". */
const char *topo_family_name(topo_family f);

/* What t is in words for messages: "mesh/torus", "graph topology",
 * "dragonfly", "fat tree", "HyperX", "tree of switches". */
const char *topo_kind_text(const topo *t);

/* Name of link class c into buf ("x+", "links", "node up", "global",
 * "level2 down", "y"), at most 15 characters. */
void topo_class_name(const topo *t, int c, char *buf, size_t size);

/* The other direction of link l's cable, or -1 (a graph link listed one
 * way only). O(1) except on graphs (O(degree)). */
int topo_reverse_link(const topo *t, int l);

/* Coordinates of `node` into c[0..ndims-1]. */
void topo_coords(const topo *t, int node, int *c);

/* Node id of coordinates c (each within its shape). */
int topo_node(const topo *t, const int *c);

/* The link from `node` along mesh/torus dimension `dim`, direction `dir`
 * (0 = +, 1 = -), or -1 if the node has none there (mesh border). */
static inline int topo_link(const topo *t, int node, int dim, int dir)
{
  return t->first_link[((size_t)node * t->ndims + dim) * 2 + dir];
}

/* The crossbar link from `from` to `to` (adjacent layers), or -1. */
int topo_crossbar_link(const topo *t, int from, int to);

/* Distance along dimension `dim` between coordinates a and b: |a - b|, the
 * shorter way round on a torus ring. */
static inline int topo_dim_distance(const topo *t, int dim, int a, int b)
{
  int d = a > b ? a - b : b - a;
  if (t->conn[dim] == TOPO_TORUS && t->shape[dim] - d < d)
    d = t->shape[dim] - d;
  return d;
}

/* The hop rule of a regular topology, on coordinates, O(ndims): the sum of
 * the per-dimension distances, except across HAEC Box layers, where the
 * first wireless hop also fixes every other coordinate, so only the layer
 * distance counts. topo_hops, the mappers' coordinate tables and the
 * closed forms of routing/facts.c all follow this one rule; it is the
 * length of the dimension-order routes of route.h. */
static inline int topo_coord_hops(const topo *t, const int *ca, const int *cb)
{
  int cd = t->crossbar_dim;
  if (cd >= 0 && ca[cd] != cb[cd])
    return topo_dim_distance(t, cd, ca[cd], cb[cd]);
  int h = 0;
  for (int d = 0; d < t->ndims; d++)
    h += topo_dim_distance(t, d, ca[d], cb[d]);
  return h;
}

/* topo_coord_hops between two nodes of a regular topology. For graph
 * topologies use route_hops. */
int topo_hops(const topo *t, int a, int b);

/* "mesh", "torus" or "crossbar"; and the reverse (FALSE if unknown). */
const char *topo_conn_name(topo_conn c);
gboolean topo_conn_from_name(const char *name, topo_conn *out);

/* Letter of dimension d in messages: x y z then a b c ... */
char topo_dim_letter(int d);

/* The levels of t's hierarchy, top first, each the number of children
 * of one vertex of the level above, levels of one child included
 * (dragonfly: groups, routers per group, nodes per router; fat tree: the
 * down degrees from the top; HyperX: the dimensions from the last, then
 * nodes per switch; mesh/torus: the dimensions from the last) into
 * radix[0 .. TOPO_MAX_HIER_LEVELS - 1]; 0 when the family has none
 * (graphs, trees of switches). Its family's file says it once; the
 * hierarchical mapper and the allocation units read it here. */
#define TOPO_MAX_HIER_LEVELS (TOPO_MAX_DIMS + 2)
int topo_hierarchy(const topo *t, int *radix);

/* Shape as text, "4x4x4 torus" or "dragonfly g=9 a=4 p=2 h=1 relative"
 * style, caller frees. */
char *topo_describe(const topo *t);

G_END_DECLS
