/* map-util.h - shared machinery of the topology-aware strategies (greedy,
 * wh, mc/mmc, kl): the symmetric task graph with directed weights, an
 * indexed max-heap on flat arrays, a breadth-first search over the topology
 * that allocates nothing per visit, and exact hop-bytes costs of tasks and
 * swaps along the platform's routes.
 *
 * All state lives in the structs below; nothing is global. Each struct owns
 * its arrays and is freed with its *_clear() function. Not for: choosing
 * where a task goes (each strategy file does that) or link loads (mapping/strategies/congestion-swaps.c).
 */
#pragma once

#include <stdlib.h>

#include "mapping/strategy.h"

G_BEGIN_DECLS

/* Hop counts of the platform's routes: topo_coord_hops() on a per-node
 * coordinate table for regular topologies without explicit route tables
 * (no coordinate decoding per call), else route_hops(). With the energy
 * objective (refine_state_objective) a "hop" weighs what a byte costs on its
 * link type above idle (routing/energy.h), in 1/HOP_TABLE_ENERGY_SCALE of the
 * dearest type, so that hop-bytes become the traffic's energy (rounded to
 * 0.1%): a table of all node pairs up to HOP_TABLE_ENERGY_TABLE nodes, else
 * the route walked per pair. */
typedef struct hop_table {
  const router *r;
  const topo *t;
  gboolean fast;
  int nd;                      /* dimensions when fast */
  int *c;                      /* nnodes x nd, or NULL */
  int *weight;                 /* energy: per link, or NULL (plain hops) */
  int *table;                  /* energy: nnodes x nnodes weighted routes, or NULL */
} hop_table;

#define HOP_TABLE_ENERGY_SCALE 1024
#define HOP_TABLE_ENERGY_TABLE 2048

void hop_table_init(hop_table *h, const platform *p);
void hop_table_clear(hop_table *h);

int hop_table_weighted(const hop_table *h, int a, int b);

static inline int hop_table_get(const hop_table *h, int a, int b)
{
  if (G_UNLIKELY(h->weight != NULL))
    return hop_table_weighted(h, a, b);
  if (!h->fast)
    return route_hops(h->r, a, b);
  return topo_coord_hops(h->t, h->c + (size_t)a * h->nd, h->c + (size_t)b * h->nd);
}

/* The objective parameter of the hop-bytes refiners (wh, kl, tabu, pairs). */
#define REFINE_OBJ_PARAM                                                               \
  { "obj", SPARAM_SWAP_OBJECTIVE, STRATEGY_OBJECTIVE_DEFAULT, NULL,                    \
    "what the swaps minimize: hop_bytes, or energy (hop-bytes weighted by the joules a " \
    "byte costs on each link type above idle, routing/energy.h)" }

/* Undirected view of a commgraph: neighbours of t are adj[xadj[t] ..
 * xadj[t+1]-1], with wout = bytes t -> n and win = bytes n -> t, and which
 * directed edges exist in dir. Self edges are dropped. vol[t] = send + receive volume of t. */
typedef struct sym_graph {
  int n;
  int *xadj;
  int *adj;
  int64_t *wout;
  int64_t *win;
  uint8_t *dir;   /* bit 0: edge t -> n exists, bit 1: n -> t (even with 0 bytes) */
  int64_t *vol;
} sym_graph;

void sym_graph_build(sym_graph *s, const commgraph *g);
void sym_graph_clear(sym_graph *s);

/* Directed hop-bytes of the placement node[] (every task placed): the
 * metrics' hop_bytes. */
int64_t sym_graph_hop_bytes(const sym_graph *s, const hop_table *h, const int *node);

/* Indexed max-heap of ids [0, cap) keyed by doubles; ties favour the
 * lower id so that runs are deterministic. O(log n) per operation. */
typedef struct index_heap {
  int cap, size;
  int *heap;   /* size: ids */
  int *pos;    /* cap: index in heap, or -1 */
  double *key; /* cap */
} index_heap;

void index_heap_init(index_heap *h, int cap);
void index_heap_clear(index_heap *h);
void index_heap_set(index_heap *h, int id, double key); /* insert or change */
void index_heap_remove(index_heap *h, int id);          /* no-op when absent */
int index_heap_pop(index_heap *h);                      /* -1 when empty */
static inline gboolean index_heap_has(const index_heap *h, int id) { return h->pos[id] >= 0; }
static inline int index_heap_top(const index_heap *h) { return h->size ? h->heap[0] : -1; }

/* Level-synchronous BFS over the topology's out links. Visited marks are
 * stamps, so a new search costs nothing to reset. */
typedef struct node_bfs {
  const topo *t;
  int *nbr;    /* neighbour nodes over out links, CSR with t->out_off */
  int *stamp;  /* nnodes */
  int cur;
  int *queue;  /* nnodes */
  int head, tail, level_end, level;
} node_bfs;

void node_bfs_init(node_bfs *b, const topo *t);
void node_bfs_clear(node_bfs *b);
/* Starts a search; add sources (level 0) with node_bfs_add. */
void node_bfs_start(node_bfs *b);

static inline void node_bfs_add(node_bfs *b, int node)
{
  if (b->stamp[node] == b->cur)
    return;
  b->stamp[node] = b->cur;
  b->queue[b->tail++] = node;
}

/* Next node in BFS order, or -1 when the search is exhausted; b->level is
 * the level of the node returned. */
int node_bfs_next(node_bfs *b);

/* Everything a swap-based refiner needs about the current placement. */
typedef struct refine_state {
  const platform *p;
  sym_graph s;
  hop_table h;
  int *node;       /* tasks: borrowed from the mapping */
  int *node_task;  /* nnodes: task on the node, or -1 (one task per node) */
} refine_state;

/* Fails (STRATEGY_ERROR_FAILED) when a node holds more than one task. */
gboolean refine_state_init(refine_state *st, const strategy_ctx *ctx, mapping *m, const char *who,
                     GError **error);

/* Sets the objective of a refiner, a row of mapping/objective.h its
 * swaps minimize: hop_bytes (refine_state_init's) or one whose links draw
 * power, energy: then a hop weighs what a byte costs on its link (FALSE +
 * STRATEGY_ERROR_INPUT naming `who` when the links draw no power). */
gboolean refine_state_objective(refine_state *st, const char *obj, const char *who, GError **error);
void refine_state_clear(refine_state *st);

/* Directed hop-bytes of task t if it sat on node `at` (others fixed);
 * `skip` is a task whose edges are ignored (-1: none). */
int64_t refine_state_cost(const refine_state *st, int t, int at, int skip);

/* Change of the total hop-bytes if the tasks on nodes a and b were
 * exchanged (either may be empty); negative = better. */
int64_t refine_state_swap_delta(refine_state *st, int a, int b);

/* Exchanges the contents of nodes a and b. */
void refine_state_swap(refine_state *st, int a, int b);

/* Total directed hop-bytes (the metrics' hop_bytes). */
int64_t refine_state_total(const refine_state *st);

/* Whether node v is allocated. */
static inline gboolean refine_state_allocated(const refine_state *st, int v)
{
  return st->p->alloc_index[v] >= 0;
}

/* pipeline.c: the pipelines of a bracketed list "[a+b|c]" (NULL + error
 * if the value is not bracketed); g_strfreev the result. Steps reach it
 * through ctx->pipelines->list. */
char **strategy_pipeline_list(const char *value, GError **error);

/* pipeline.c: the quotient graph of a partition (part[i] the part of task
 * i, or -1 to leave it out): part -> part bytes and messages, no edges
 * inside a part. With part[t] = its index for some tasks and -1 for the
 * rest, the graph among those tasks. */
commgraph *strategy_quotient(const commgraph *g, const int *part, int nparts);

/* mapping/strategies/hierarchy.c: the grid of an indirect network's hierarchy - a mesh whose
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
