/* route.h - static routing: the links a message takes from node to node.
 *
 * Three kinds of route, chosen per platform:
 *  - dimension-order routing (DOR) on regular topologies, in a configurable
 *    dimension order (`xyz`, `zyx`, any permutation). On a torus ring the
 *    shorter way round is taken; on an even ring, when both ways are equally
 *    long (distance n/2), the tie rule decides (route_tie): `positive` goes
 *    in the + direction; `simgrid` is SimGrid's TorusZone, which goes + too
 *    except from coordinate n/2, where it goes - (to 0). Both take the
 *    shorter way otherwise, so hop counts never depend on the rule.
 *  - HAEC Box routing (korndoerfer2021, Section 5.2), automatically part of
 *    DOR when the topology has a crossbar dimension: within a layer, DOR over
 *    the other dimensions; across layers, first a wireless hop to the node of
 *    the adjacent layer (towards the destination) that has all the
 *    destination's other coordinates, then wireless hops along the crossbar
 *    dimension. Hop count = layer distance.
 *  - table routing: explicit node paths read from a file, for any pair; the
 *    pairs a table does not list fall back to DOR (regular topologies) or to
 *    breadth-first shortest paths (graph topologies; the lowest link id wins
 *    among equal choices, so routes are deterministic).
 *
 * Route files: one path per line, `#` comments, either the nodes visited
 * `src n1 n2 ... dst` (both ends included; consecutive nodes must be
 * linked, the lowest-id link between them is taken) or the links taken
 * `src dst : l1 l2 ...` (link ids chaining from src to dst; the way to
 * choose among parallel links). A route may pass a node twice but takes
 * each link at most once.
 *
 * The iterator walks a route without allocating: route_begin() then
 * route_next() until it returns FALSE.
 *
 * Ownership: a router borrows its topo (which must outlive it) and owns its
 * tables; free with router_free(). Not for: timing (models/).
 */
#pragma once

#include "routing/topology.h"

G_BEGIN_DECLS

#define ROUTE_ERROR (route_error_quark())
GQuark route_error_quark(void);

typedef enum {
  ROUTE_ERROR_PARSE,    /* malformed route file or dimension order */
  ROUTE_ERROR_INVALID,  /* a route that does not follow the links */
  ROUTE_ERROR_IO,
} RouteError;

/* Which way round an even torus ring a route goes when both are as long. */
typedef enum {
  ROUTE_TIE_POSITIVE,  /* + (mapsim's default) */
  ROUTE_TIE_SIMGRID,   /* + except from coordinate n/2: - (SimGrid's torus clusters) */
} route_tie;

/* "positive" / "simgrid"; and back (FALSE when unknown). */
const char *route_tie_name(route_tie t);
gboolean route_tie_from_name(const char *name, route_tie *out);

typedef struct router {
  const topo *t;
  int order[TOPO_MAX_DIMS];  /* DOR: dimensions in the order they are routed */
  route_tie tie;             /* DOR on a torus dimension: default ROUTE_TIE_POSITIVE */
  int *path_off;             /* nnodes^2: offset of an explicit path, or -1 (NULL: none) */
  int *path_len;             /* nnodes^2: its hop count */
  int *path_links;           /* links of all explicit paths */
  int *next_link;            /* graph topologies: nnodes^2 next link towards dst */
  int *dist;                 /* graph topologies: nnodes^2 hops of the default routes */
} router;

typedef struct route_iter {
  const router *r;
  int cur, dst;
  int k;                      /* DOR: position in r->order */
  const int *path;            /* explicit path: links left */
  int left;
  int cc[TOPO_MAX_DIMS];      /* DOR: coordinates of cur */
  int dc[TOPO_MAX_DIMS];      /* DOR: coordinates of dst */
} route_iter;

/* A DOR router (regular topology) or a shortest-path router (graph
 * topology). `order` may be NULL (x, y, z, ... ascending). */
router *router_new(const topo *t, const int *order, GError **error);

/* Parses a dimension order: letters ("xyz", "zyx", "xyzwv") or digits
 * ("210", "0,1,2"), a permutation of the topo's dimensions. */
gboolean router_parse_order(const topo *t, const char *text, int *order, GError **error);

/* Reads explicit routes from `path` (format above) into the router. */
gboolean router_load_table(router *r, const char *path, GError **error);

void router_free(router *r);

/* Starts walking the route src -> dst (no link when src == dst). */
void route_begin(route_iter *it, const router *r, int src, int dst);

/* Stores the next link in *link and returns TRUE, or returns FALSE at the
 * destination. */
gboolean route_next(route_iter *it, int *link);

/* Hop count of the route src -> dst; O(ndims) for DOR, O(1) for tables. */
int route_hops(const router *r, int src, int dst);

G_END_DECLS
