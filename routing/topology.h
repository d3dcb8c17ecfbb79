/* topology.h - the shape of an interconnect: nodes, directed links, distances.
 *
 * A topo is either regular - N dimensions (1..TOPO_MAX_DIMS), each `mesh`,
 * `torus` or `crossbar` - or a graph given link by link. Node ids of a
 * regular topo put dimension 0 fastest: node = x + X*(y + Y*z) ..., the
 * numbering of Scotch's mesh/torus targets.
 *
 * Links are directed (one per direction of a cable) and have dense ids in
 * [0, nlinks). The outgoing links of node u are out_link[out_off[u] ..
 * out_off[u+1]-1]; for a regular topo they are numbered node by node,
 * dimension by dimension, `+` before `-`, so out_link is the identity.
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

typedef struct topo {
  int ndims;                      /* 0 for a graph topology */
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
} topo;

/* A regular topology. Fails (TOPO_ERROR_INVALID) for ndims outside
 * 1..TOPO_MAX_DIMS, a size < 1, more than one crossbar dimension,
 * TOPO_MAX_NODES nodes or TOPO_MAX_LINKS links or more, or (BUDGET_ERROR)
 * more memory than the budget allows - all checked before allocating. */
topo *topo_new_regular(int ndims, const int *shape, const topo_conn *conn, GError **error);

/* A topology from a list of directed links src[i] -> dst[i] (link id i). */
topo *topo_new_graph(int nnodes, int nlinks, const int *src, const int *dst, GError **error);

void topo_free(topo *t);

static inline gboolean topo_is_regular(const topo *t) { return t->ndims > 0; }

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

/* Shape as text, "4x4x4 torus" style, caller frees. */
char *topo_describe(const topo *t);

G_END_DECLS
