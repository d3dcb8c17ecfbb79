/* map-util.h - shared machinery of the topology-aware strategies (greedy,
 * wh, mc/mmc, kl): the symmetric task graph with directed weights, an
 * indexed max-heap on flat arrays, a breadth-first search over the topology
 * that allocates nothing per visit, and exact hop-bytes costs of tasks and
 * swaps along the platform's routes.
 *
 * All state lives in the structs below; nothing is global. Each struct owns
 * its arrays and is freed with its *_clear() function. Not for: choosing
 * where a task goes (each strategy file does that) or link loads (map-mc.c).
 */
#pragma once

#include <stdlib.h>

#include "mapping/strategy.h"

G_BEGIN_DECLS

/* Hop counts of the platform's routes: topo_coord_hops() on a per-node
 * coordinate table for regular topologies without explicit route tables
 * (no coordinate decoding per call), else route_hops(). With the energy
 * objective (mhops_use_energy) a "hop" weighs what a byte costs on its
 * link type above idle (routing/energy.h), in 1/MHOPS_ENERGY_SCALE of the
 * dearest type, so that hop-bytes become the traffic's energy (rounded to
 * 0.1%): a table of all node pairs up to MHOPS_ENERGY_TABLE nodes, else
 * the route walked per pair. */
typedef struct mhops {
  const router *r;
  const topo *t;
  gboolean fast;
  int nd;                      /* dimensions when fast */
  int *c;                      /* nnodes x nd, or NULL */
  int *weight;                 /* energy: per link, or NULL (plain hops) */
  int *table;                  /* energy: nnodes x nnodes weighted routes, or NULL */
} mhops;

#define MHOPS_ENERGY_SCALE 1024
#define MHOPS_ENERGY_TABLE 2048

void mhops_init(mhops *h, const platform *p);
void mhops_clear(mhops *h);

/* Weighs hops by energy; plain hops stay when every link type costs the
 * same per byte (then hop-bytes rank mappings as the energy does). FALSE
 * + STRATEGY_ERROR_INPUT naming `who` when the links draw no power. */
gboolean mhops_use_energy(mhops *h, const platform *p, const char *who, GError **error);

int mhops_weighted(const mhops *h, int a, int b);

static inline int mhops_get(const mhops *h, int a, int b)
{
  if (G_UNLIKELY(h->weight != NULL))
    return mhops_weighted(h, a, b);
  if (!h->fast)
    return route_hops(h->r, a, b);
  return topo_coord_hops(h->t, h->c + (size_t)a * h->nd, h->c + (size_t)b * h->nd);
}

/* The objective parameter of the hop-bytes refiners (wh, kl, tabu, pairs). */
#define MSTATE_OBJ_PARAM                                                               \
  { "obj", SPARAM_CHOICE, "hop_bytes", "hop_bytes|energy",                             \
    "what the swaps minimize: hop_bytes, or energy (hop-bytes weighted by the joules a " \
    "byte costs on each link type above idle, routing/energy.h)" }

/* Undirected view of a commgraph: neighbours of t are adj[xadj[t] ..
 * xadj[t+1]-1], with wout = bytes t -> n and win = bytes n -> t, and which
 * directed edges exist in dir. Self edges are dropped. vol[t] = send + receive volume of t. */
typedef struct msym {
  int n;
  int *xadj;
  int *adj;
  int64_t *wout;
  int64_t *win;
  uint8_t *dir;   /* bit 0: edge t -> n exists, bit 1: n -> t (even with 0 bytes) */
  int64_t *vol;
} msym;

void msym_build(msym *s, const commgraph *g);
void msym_clear(msym *s);

/* Directed hop-bytes of the placement node[] (every task placed): the
 * metrics' hop_bytes. */
int64_t msym_hop_bytes(const msym *s, const mhops *h, const int *node);

/* Indexed max-heap of ids [0, cap) keyed by doubles; ties favour the
 * lower id so that runs are deterministic. O(log n) per operation. */
typedef struct mheap {
  int cap, size;
  int *heap;   /* size: ids */
  int *pos;    /* cap: index in heap, or -1 */
  double *key; /* cap */
} mheap;

void mheap_init(mheap *h, int cap);
void mheap_clear(mheap *h);
void mheap_set(mheap *h, int id, double key); /* insert or change */
void mheap_remove(mheap *h, int id);          /* no-op when absent */
int mheap_pop(mheap *h);                      /* -1 when empty */
static inline gboolean mheap_has(const mheap *h, int id) { return h->pos[id] >= 0; }
static inline int mheap_top(const mheap *h) { return h->size ? h->heap[0] : -1; }

/* Level-synchronous BFS over the topology's out links. Visited marks are
 * stamps, so a new search costs nothing to reset. */
typedef struct mbfs {
  const topo *t;
  int *nbr;    /* neighbour nodes over out links, CSR with t->out_off */
  int *stamp;  /* nnodes */
  int cur;
  int *queue;  /* nnodes */
  int head, tail, level_end, level;
} mbfs;

void mbfs_init(mbfs *b, const topo *t);
void mbfs_clear(mbfs *b);
/* Starts a search; add sources (level 0) with mbfs_add. */
void mbfs_start(mbfs *b);

static inline void mbfs_add(mbfs *b, int node)
{
  if (b->stamp[node] == b->cur)
    return;
  b->stamp[node] = b->cur;
  b->queue[b->tail++] = node;
}

/* Next node in BFS order, or -1 when the search is exhausted; b->level is
 * the level of the node returned. */
int mbfs_next(mbfs *b);

/* Everything a swap-based refiner needs about the current placement. */
typedef struct mstate {
  const platform *p;
  msym s;
  mhops h;
  int *node;       /* tasks: borrowed from the mapping */
  int *node_task;  /* nnodes: task on the node, or -1 (one task per node) */
} mstate;

/* Fails (STRATEGY_ERROR_FAILED) when a node holds more than one task. */
gboolean mstate_init(mstate *st, const strategy_ctx *ctx, mapping *m, const char *who,
                     GError **error);

/* Sets the objective of a refiner: "hop_bytes" (mstate_init's) or
 * "energy" (mhops_use_energy). */
gboolean mstate_objective(mstate *st, const char *obj, const char *who, GError **error);
void mstate_clear(mstate *st);

/* Directed hop-bytes of task t if it sat on node `at` (others fixed);
 * `skip` is a task whose edges are ignored (-1: none). */
int64_t mstate_cost(const mstate *st, int t, int at, int skip);

/* Change of the total hop-bytes if the tasks on nodes a and b were
 * exchanged (either may be empty); negative = better. */
int64_t mstate_swap_delta(mstate *st, int a, int b);

/* Exchanges the contents of nodes a and b. */
void mstate_swap(mstate *st, int a, int b);

/* Total directed hop-bytes (the metrics' hop_bytes). */
int64_t mstate_total(const mstate *st);

/* Whether node v is allocated. */
static inline gboolean mstate_allocated(const mstate *st, int v)
{
  return st->p->alloc_index[v] >= 0;
}

/* strategy.c: the quotient graph of a partition (part[i] the part of task
 * i, or -1 to leave it out): part -> part bytes and messages, no edges
 * inside a part. With part[t] = its index for some tasks and -1 for the
 * rest, the graph among those tasks. */
commgraph *strategy_quotient(const commgraph *g, const int *part, int nparts);

/* map-hier.c: the grid of an indirect network's hierarchy - a mesh whose
 * dimensions are the levels (the nodes of a switch fastest: node, router,
 * group on a dragonfly; the digits of a fat tree's node; node, then each
 * dimension of a HyperX; the fastest merged beyond 3), on which a node
 * keeps its id - with p's
 * allocation, cores and fill, for the strategies that need coordinates
 * (strategy.needs_coordinates). NULL without error when p has no such
 * grid (regular and graph topologies, trees of switches); free with
 * hier_grid_free (it borrows p's allocation and strings). */
platform *hier_grid_platform(const platform *p, GError **error);
void hier_grid_free(platform *grid);

G_END_DECLS
