/* route.h - routing: the links a message takes from node to node.
 *
 * Kinds of route, chosen per platform (`[routing] algorithm`, `--routing`;
 * each family's rows list them, routing/family/family.h):
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
 *  - dragonfly: `minimal` (local, global, local hop: of the m cables
 *    between the two groups, one with the fewest local hops; among equals
 *    copy (i + j) mod (their count) for the routers i, j of source and
 *    destination in their groups) and `valiant` (Valiant, SPAA 1981 / Kim
 *    et al., ISCA 2008 Section 4.2: minimally to a random intermediate group
 *    other than both ends, then minimally on; minimal inside a group).
 *  - fat tree: up to a lowest common ancestor, then down (the down path is
 *    fixed by the destination; among parallel cables by the same digit as
 *    going up). The up ports: `dmodk` port = (d / W_0...W_{l-1}) mod W_l
 *    at level l for destination position d and W_l = up[l] parallel[l]
 *    (Zahavi et al., "Optimized InfiniBand fat-tree routing", 2010; with
 *    one cable per pair it is SimGrid's FatTreeZone route exactly),
 *    `smodk` the same with the source, `random-up` a seeded random port
 *    per level, `ecmp` a hash of source, destination, message key and
 *    switch at every switch (equal-cost multipath).
 *  - HyperX: `dor`: one hop per dimension that differs, dimension 0 first.
 * Paths are walked link by link by the same iterator for every kind.
 *
 * Keyed routings (valiant, random-up, ecmp) draw a message's path from its
 * key, route_key(source rank, destination rank), mixed with the router's
 * seed (`[routing] seed`): every message of rank i to rank j takes one
 * path, which keeps MPI's order between two ranks on the network, and the
 * static view, which sees a graph edge (i, j), routes it exactly as the
 * replay routes each of its messages, so pre == post holds. A keyed route
 * per message within one rank pair would need the static view to split an
 * edge by message; the key is one 64-bit value, so it can grow at one
 * place (route_key) together with such a view.
 *
 * Adaptive routings: a model that decides from load (UGAL: minimal
 * against non-minimal, from queues or flow counts at the source) walks
 * the candidate paths (route_begin_candidate) and takes one; it records the bytes each candidate carried, and the
 * check compares the simulated links with those routes. Their static view
 * is the minimal routes (route_begin) and, on a dragonfly, the Valiant
 * ones (router_nonminimal_view). ROUTE_FLAG_ADAPTIVE marks them in
 * their rows.
 *
 * Route files: one path per line, `#` comments, either the nodes visited
 * `src n1 n2 ... dst` (both ends included; consecutive nodes must be
 * linked, the lowest-id link between them is taken) or the links taken
 * `src dst : l1 l2 ...` (link ids chaining from src to dst; the way to
 * choose among parallel links). A route may pass a node twice but takes
 * each link at most once.
 *
 * The iterator walks a route without allocating: route_begin() then
 * route_next() until it returns FALSE. Routes of indirect networks run
 * from compute node to compute node (never from or to a switch).
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

/* "positive" / "simgrid" as the value it names (FALSE when unknown). */
gboolean route_tie_from_name(const char *name, route_tie *out);

/* The built-in routings; their families' rows have their names. */
typedef enum {
  ROUTE_ALGO_DOR,        /* regular topologies (with HAEC Box rule), HyperX */
  ROUTE_ALGO_SHORTEST,   /* graph topologies */
  ROUTE_ALGO_MINIMAL,    /* dragonfly */
  ROUTE_ALGO_VALIANT,    /* dragonfly */
  ROUTE_ALGO_DMODK,      /* fat tree */
  ROUTE_ALGO_SMODK,      /* fat tree */
  ROUTE_ALGO_RANDOM_UP,  /* fat tree */
  ROUTE_ALGO_ECMP,       /* fat tree */
  ROUTE_ALGO_UGAL,       /* dragonfly, adaptive */
  ROUTE_ALGO_MIN_ADAPTIVE, /* HyperX, adaptive */
} route_algo;

enum {
  ROUTE_FLAG_KEYED = 1u << 0,    /* the path depends on the message key */
  ROUTE_FLAG_SEEDED = 1u << 1,   /* and on the router's seed */
  ROUTE_FLAG_ADAPTIVE = 1u << 2, /* the model chooses among paths by load */
};

/* ROUTE_FLAG_ALIAS: a name that stands for the routing the shape has
 * (the direct networks' dor, shortest_path, table and HAEC-SIM's haec,
 * haec_box: dimension order on regular topologies, shortest paths on
 * graphs, a route table's paths first); choosing it keeps the family's
 * default row. */
#define ROUTE_FLAG_ALIAS (1u << 3)
/* An adaptive routing whose candidates 1, 2 ... are the non-minimal paths
 * of salted keys (route_key_salt; UGAL), not variants of the minimal one. */
#define ROUTE_FLAG_NONMINIMAL_CANDIDATES (1u << 4)
/* A non-minimal routing spread per packet (dragonfly `valiant`, the
 * default `per=packet`): candidate c is the path over the c-th of the
 * message's sampled intermediate groups (route_spread_candidates); the
 * packet models draw each packet's candidate from route_spread_pick
 * (seed, message number in its rank pair, packet index), the flow models
 * split a message over all of them, the static view spreads each edge's
 * bytes evenly over them. It is ROUTE_FLAG_ADAPTIVE too (its runs are
 * checked against the routes taken), but not chosen by load. */
#define ROUTE_FLAG_SPREAD (1u << 5)

/* Which path of a routing a walk takes. */
typedef enum {
  ROUTE_PATH_DEFAULT,     /* the routing's own (route_begin) */
  ROUTE_PATH_MINIMAL,     /* the family's minimal routing's path */
  ROUTE_PATH_NONMINIMAL,  /* Valiant's path for the key (dragonfly; else minimal) */
} route_path;

/* The most links of a route of an indirect network (2 per fat-tree level). */
#define ROUTE_FAMILY_MAX_HOPS (2 * TOPO_MAX_LEVELS)

/* UGAL's Valiant candidates per rank pair, and the most candidates of any adaptive routing (HyperX: its
 * dimensions). */
#define ROUTE_UGAL_VALIANT 4
#define ROUTE_MAX_CANDIDATES 33
/* The most intermediate groups a per-packet Valiant message spreads over
 * (sampled from the seed and the key when a dragonfly has more). */
#define ROUTE_SPREAD_MAX 32

/* UGAL's variants (`ugal:variant=local|global`). */
typedef enum {
  ROUTE_UGAL_GLOBAL, /* the source router's port and its group's global channel (default) */
  ROUTE_UGAL_LOCAL,  /* the source router's output port only (UGAL-L) */
} route_ugal_variant;

struct family_routing;

typedef struct router {
  const topo *t;
  route_algo algo;           /* the row's (built-in routings) */
  unsigned flags;            /* of the row */
  const struct family_routing *row; /* the routing (routing/family/family.h) */
  uint32_t seed;             /* keyed, seeded routings */
  int order[TOPO_MAX_DIMS];  /* DOR: dimensions in the order they are routed */
  route_tie tie;             /* DOR on a torus dimension: default ROUTE_TIE_POSITIVE */
  int *path_off;             /* nnodes^2: offset of an explicit path, or -1 (NULL: none) */
  int *path_len;             /* nnodes^2: its hop count */
  int *path_links;           /* links of all explicit paths */
  int *next_link;            /* graph topologies: nnodes^2 next link towards dst */
  int *dist;                 /* graph topologies: nnodes^2 hops of the default routes */
  /* options of the routing (`NAME:KEY=VALUE...`, router_set_algo) */
  gboolean per_message;      /* valiant: one intermediate per rank pair (per=message|pair) */
  route_ugal_variant ugal_variant;
  int ugal_candidates;       /* ugal: Valiant candidates (default ROUTE_UGAL_VALIANT) */
  double ugal_bias;          /* ugal: minimal when q_min H_min <= q_nm H_nm + bias */
} router;

typedef struct route_iter {
  const router *r;
  int cur, dst;
  int k;                      /* DOR: position in r->order */
  const int *path;            /* explicit path: links left */
  int left;
  int cc[TOPO_MAX_DIMS];      /* DOR: coordinates of cur */
  int dc[TOPO_MAX_DIMS];      /* DOR: coordinates of dst */
  int buf[ROUTE_FAMILY_MAX_HOPS]; /* indirect networks: the route's links */
} route_iter;

/* The key of every message from rank src_rank to rank dst_rank (see the
 * header paragraph): the static metrics pass it for a graph edge, the
 * replay for each message, strategies that walk routes for a task pair. */
static inline uint64_t route_key(int src_rank, int dst_rank)
{
  return (uint64_t)(uint32_t)src_rank << 32 | (uint32_t)dst_rank;
}

/* Candidate i (0, 1, ...) of the non-minimal paths of a message: the key
 * route_begin_path walks for it. Candidate 0 is the key itself. */
static inline uint64_t route_key_salt(uint64_t key, int i)
{
  return i == 0 ? key : key ^ ((uint64_t)(uint32_t)i * 0x9E3779B97F4A7C15ull);
}

/* A router with the family's default routing: DOR (regular topology,
 * HyperX), shortest paths (graph topology), minimal (dragonfly), dmodk
 * (fat tree); seed 1. `order` may be NULL (x, y, z, ... ascending). */
router *router_new(const topo *t, const int *order, GError **error);

/* Chooses the routing by name (the family's rows), with its options
 * after the name: `valiant:per=packet|message|pair`,
 * `ugal:variant=local|global:candidates=N:bias=B` (dragonfly);
 * ROUTE_ERROR_PARSE naming the routings of the topology's family, or the
 * option and what it expects, otherwise. */
gboolean router_set_algo(router *r, const char *name, GError **error);

/* The name of r's routing ("dor", "minimal" ...). */
const char *router_algo_name(const router *r);

/* The routings a topology offers, "minimal, valiant"; caller frees. */
char *route_algo_names(const topo *t);

/* Parses a dimension order: letters ("xyz", "zyx", "xyzwv") or digits
 * ("210", "0,1,2"), a permutation of the topo's dimensions. */
gboolean router_parse_order(const topo *t, const char *text, int *order, GError **error);

/* Reads explicit routes from `path` (format above) into the router. */
gboolean router_load_table(router *r, const char *path, GError **error);

/* Takes explicit routes built elsewhere (a loader that checked them as
 * router_load_table does: links chaining from src to dst, each at most
 * once): off and len nnodes^2 (off -1: no path), links their links; the
 * router owns the three arrays from then on. */
void router_set_table(router *r, int *off, int *len, int *links);

void router_free(router *r);

/* Starts walking the route src -> dst of a message with key `key`
 * (route_key; deterministic routings ignore it). No link when src == dst. */
void route_begin(route_iter *it, const router *r, int src, int dst, uint64_t key);

/* The same for one of the routing's paths (see route_path). */
void route_begin_path(route_iter *it, const router *r, int src, int dst, uint64_t key,
                      route_path path);

/* Stores the next link in *link and returns TRUE, or returns FALSE at the
 * destination. */
gboolean route_next(route_iter *it, int *link);

/* Adaptive routings (rows with ROUTE_FLAG_ADAPTIVE). A message's
 * candidate paths are numbered 0 .. route_candidates(r) - 1, candidate 0
 * the routing's own path (route_begin: the minimal one, what the static
 * view shows); other routings have that one candidate. */
int route_candidates(const router *r);

/* Per-packet spread routings (ROUTE_FLAG_SPREAD): the candidate of
 * packet `packet` of message number `message` of its rank pair (key),
 * among n: a seeded hash, so the same for every thread count. */
uint32_t route_spread_pick(const router *r, uint64_t key, int64_t message, int64_t packet, int n);

/* The candidate route_begin walks for key `key`: 0, or for a spread
 * routing the one the key's hash picks (the per-rank-pair path of the
 * models that do not spread: analytic, the strategies). */
int route_default_candidate(const router *r, uint64_t key);

/* Starts walking candidate c of the route src -> dst of key `key`. */
void route_begin_candidate(route_iter *it, const router *r, int src, int dst, uint64_t key,
                           int c);

/* How many leading links of a candidate's route links[0 .. nlinks - 1]
 * its source sees the load of (decisions compare links 1 .. that - 1;
 * link 0, the injection link, is every candidate's): the source router's
 * output port and, on a dragonfly, the global channel the route leaves
 * the group by - every router knows the state of its group's global
 * channels (the PiggyBack scheme of Jiang, Kim and Dally, ISCA 2009,
 * Section 4.3, which lets UGAL-L see the congestion of a global channel
 * on another router of the group). */
int route_seen_links(const router *r, const int *links, int nlinks);

/* Virtual channels a packet model with finite buffers needs on r's
 * routes to stay deadlock-free: a packet that has crossed k links with
 * route_vc_step waits for buffers of channel k. On a dragonfly the step
 * is a global link and a route crosses at most two (Valiant, and UGAL's
 * non-minimal paths, which are Valiant's), so 3 channels (Kim et al.,
 * ISCA 2008, Section 4.3; SST merlin counts them so too); within one
 * channel a route goes node up, local (at most one hop), global or node
 * down, an order without cycles, and the channel only grows. HyperX
 * min-adaptive routes the dimensions in any order, which in one channel
 * would close cycles (x before y, y before x): the channel is the
 * number of switch-to-switch hops taken (ndims + 1 channels), which
 * strictly grows. Fat trees route up, then down, HyperX `dor` one
 * dimension after the other, both without a cycle in one channel; tori
 * use bubble flow control (models/packet.c). */
int route_vc_classes(const router *r);
gboolean route_vc_step(const router *r, int link);

/* A router that routes like r but takes the non-minimal path of every
 * message (Valiant's on a dragonfly; else r's): the static expectation of
 * an adaptive routing's non-minimal choice. Borrows r's tables, so r must
 * outlive it; not for router_free. */
void router_nonminimal_view(const router *r, router *out);

/* Hop count of the route src -> dst; O(ndims) for DOR, O(1) for tables.
 * On indirect networks the length of the minimal routes (their distance,
 * what mappers and facts use), O(levels): a Valiant route is longer. */
int route_hops(const router *r, int src, int dst);

G_END_DECLS
