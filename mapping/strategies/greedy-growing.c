/* greedy-growing.c - `greedy`: the greedy graph-growing mapping of deveci2015
 * Section III-A, Algorithm 1 (UMPA's U_G). The task with the maximum
 * send+receive volume goes to an arbitrary node (the first allocated one);
 * then, while tasks are left, either a seed (the task farthest from the
 * mapped ones by a BFS on the task graph, ties to the higher volume) while
 * fewer than 1 + N_BFS tasks are mapped, or the task with the largest
 * connectivity to the mapped tasks (a max-heap, `conn`) is placed by
 * GETBESTNODE: a BFS on the topology from the nodes of its mapped
 * neighbours that stops at the first level holding free nodes and returns
 * the one of least added hop-bytes; a task with no mapped neighbour goes to
 * one of the allocated nodes farthest from the non-empty ones. A task of a
 * disconnected component is the highest-volume unmapped one (volume 0:
 * any free node). As in the paper the whole is run for N_BFS = 0 and 1 and
 * the mapping of lower hop-bytes is kept. Nodes hold up to cores_per_node
 * tasks. BFS runs on the out links, so graph topologies work too.
 * Cost: O(|V_t| (|E_m| + |E_t|)) worst case, much less with early exits. */
#include "mapping/map-util.h"

#include <stdlib.h>
#include <string.h>

typedef struct greedy {
  const platform *p;
  const sym_graph *s;
  hop_table h;
  int *node;       /* tasks: node or -1 */
  int *load;       /* nnodes: tasks placed on the node */
  int *placed;     /* nodes that are non-empty, in placing order (with repeats) */
  int nplaced;
  int nmapped;
  int *by_vol;     /* tasks by decreasing volume */
  int vol_cursor;
  int free_cursor; /* into p->alloc */
  int *tq;         /* task BFS queue */
  int *tmark;      /* task BFS marks (stamps) */
  int tstamp;
  index_heap conn;
  node_bfs bfs;
} greedy;

static gboolean node_free(const greedy *gr, int v)
{
  return gr->p->alloc_index[v] >= 0 && gr->load[v] < gr->p->cores_per_node;
}

static void place(greedy *gr, int t, int v)
{
  const sym_graph *s = gr->s;
  gr->node[t] = v;
  gr->load[v]++;
  gr->placed[gr->nplaced++] = v;
  gr->nmapped++;
  index_heap_remove(&gr->conn, t);
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int n = s->adj[k];
    if (gr->node[n] >= 0)
      continue;
    double old = index_heap_has(&gr->conn, n) ? gr->conn.key[n] : 0;
    index_heap_set(&gr->conn, n, old + (double)(s->wout[k] + s->win[k]));
  }
}

/* The unmapped task of highest volume (ties: lower id). */
static int max_volume_task(greedy *gr)
{
  while (gr->node[gr->by_vol[gr->vol_cursor]] >= 0)
    gr->vol_cursor++;
  return gr->by_vol[gr->vol_cursor];
}

/* The unmapped task farthest from the mapped ones on the task graph (all
 * mapped tasks at level 0), ties to higher volume; an unreachable task
 * (another component) counts as farthest. */
static int farthest_task(greedy *gr)
{
  const sym_graph *s = gr->s;
  int head = 0, tail = 0, reached = 0;
  gr->tstamp++;
  for (int t = 0; t < s->n; t++)
    if (gr->node[t] >= 0) {
      gr->tq[tail++] = t;
      gr->tmark[t] = gr->tstamp;
    }
  int best = -1, level_end = tail, level = 0, best_level = -1;
  while (head < tail) {
    if (head == level_end) {
      level++;
      level_end = tail;
    }
    int t = gr->tq[head++];
    if (gr->node[t] < 0) {
      reached++;
      if (level > best_level || (level == best_level && s->vol[t] > s->vol[best]))
        best = t, best_level = level;
    }
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
      if (gr->tmark[s->adj[k]] != gr->tstamp) {
        gr->tmark[s->adj[k]] = gr->tstamp;
        gr->tq[tail++] = s->adj[k];
      }
  }
  if (reached < s->n - gr->nmapped) /* a disconnected component is farther */
    return max_volume_task(gr);
  return best;
}

/* Hop-bytes between t on node v and its mapped neighbours. */
static int64_t added_cost(const greedy *gr, int t, int v)
{
  const sym_graph *s = gr->s;
  int64_t c = 0;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int u = gr->node[s->adj[k]];
    if (u < 0 || u == v)
      continue;
    c += s->wout[k] * hop_table_get(&gr->h, v, u) + s->win[k] * hop_table_get(&gr->h, u, v);
  }
  return c;
}

static int any_free_node(greedy *gr)
{
  while (!node_free(gr, gr->p->alloc[gr->free_cursor]))
    gr->free_cursor++;
  return gr->p->alloc[gr->free_cursor];
}

/* GETBESTNODE of deveci2015 Algorithm 1. */
static int best_node(greedy *gr, int t)
{
  const sym_graph *s = gr->s;
  node_bfs *b = &gr->bfs;
  if (gr->nmapped == 0)
    return any_free_node(gr);
  node_bfs_start(b);
  gboolean connected = FALSE;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
    if (gr->node[s->adj[k]] >= 0) {
      node_bfs_add(b, gr->node[s->adj[k]]);
      connected = TRUE;
    }
  if (!connected)
    for (int i = 0; i < gr->nplaced; i++)
      node_bfs_add(b, gr->placed[i]);
  int best = -1, best_level = -1;
  int64_t best_cost = 0;
  for (int v; (v = node_bfs_next(b)) >= 0;) {
    if (connected && best >= 0 && b->level > best_level)
      break; /* early exit: the first level with free nodes is done */
    if (!node_free(gr, v))
      continue;
    if (!connected) { /* farthest free node: the first one of the last level */
      if (b->level > best_level)
        best = v, best_level = b->level;
      continue;
    }
    int64_t c = added_cost(gr, t, v);
    if (best < 0 || c < best_cost)
      best = v, best_cost = c, best_level = b->level;
  }
  return best >= 0 ? best : any_free_node(gr);
}

/* One run of Algorithm 1 with `nbfs` seeds; fills gr->node. FALSE when
 * `prog` says stop first. */
static gboolean greedy_pass(greedy *gr, int nbfs, const progress *prog)
{
  int n = gr->s->n;
  for (int t = 0; t < n; t++)
    gr->node[t] = -1;
  memset(gr->load, 0, sizeof(int) * (size_t)gr->p->topo->nnodes);
  gr->nplaced = gr->nmapped = gr->vol_cursor = gr->free_cursor = 0;
  while (gr->conn.size)
    index_heap_pop(&gr->conn);
  while (gr->nmapped < n) {
    int t;
    if (gr->nmapped == 0)
      t = gr->by_vol[0]; /* t_MSRV */
    else if (gr->nmapped < 1 + nbfs)
      t = farthest_task(gr);
    else if ((t = index_heap_pop(&gr->conn)) < 0)
      t = max_volume_task(gr);
    int v = gr->s->vol[t] == 0 ? any_free_node(gr) : best_node(gr, t);
    place(gr, t, v);
    if ((gr->nmapped & 255) == 0) { /* a placement may search far */
      progress_report(prog, "greedy ranks placed", (uint64_t)gr->nmapped, (uint64_t)n);
      if (progress_stopped(prog))
        return FALSE;
    }
  }
  return TRUE;
}

/* (-volume, id) pairs sort to decreasing volume, ties to the lower id. */
static int cmp_pair(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

static void sort_by_volume(const sym_graph *s, int *out)
{
  int64_t *pairs = g_new(int64_t, 2 * (size_t)(s->n ? s->n : 1));
  for (int t = 0; t < s->n; t++)
    pairs[2 * t] = -s->vol[t], pairs[2 * t + 1] = t;
  qsort(pairs, (size_t)s->n, 2 * sizeof(int64_t), cmp_pair);
  for (int t = 0; t < s->n; t++)
    out[t] = (int)pairs[2 * t + 1];
  g_free(pairs);
}

static gboolean run_greedy(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  const platform *p = ctx->p;
  int n = m->ntasks, nn = p->topo->nnodes;
  sym_graph s;
  sym_graph_build(&s, ctx->g);
  greedy gr = { .p = p, .s = &s };
  gr.node = g_new(int, n);
  gr.load = g_new0(int, nn);
  gr.placed = g_new(int, n);
  gr.by_vol = g_new(int, n);
  gr.tq = g_new(int, n);
  gr.tmark = g_new0(int, n);
  sort_by_volume(&s, gr.by_vol);
  index_heap_init(&gr.conn, n);
  node_bfs_init(&gr.bfs, p->topo);
  hop_table_init(&gr.h, p);
  int64_t best = -1;
  gboolean ok = TRUE;
  for (int nbfs = 0; nbfs <= 1 && ok; nbfs++) { /* N_BFS in {0, 1}, keep the better */
    if (!(ok = greedy_pass(&gr, nbfs, ctx->prog))) {
      if (best >= 0)
        ok = TRUE; /* the first pass's mapping is complete */
      else
        progress_check(ctx->prog, error);
      break;
    }
    int64_t wh = sym_graph_hop_bytes(&s, &gr.h, gr.node);
    if (best < 0 || wh < best) {
      best = wh;
      memcpy(m->node, gr.node, sizeof(int) * (size_t)n);
    }
  }
  node_bfs_clear(&gr.bfs);
  hop_table_clear(&gr.h);
  index_heap_clear(&gr.conn);
  g_free(gr.node);
  g_free(gr.load);
  g_free(gr.placed);
  g_free(gr.by_vol);
  g_free(gr.tq);
  g_free(gr.tmark);
  sym_graph_clear(&s);
  return ok;
}

const strategy strategy_greedy = {
  .name = "greedy",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "greedy graph growing: heaviest-connected task next, nearest free node by BFS",
  .paper = "deveci2015 Section III-A, Algorithm 1 (U_G)",
  .cost = "O(n (N + E)) worst case, BFS from the placed neighbours",
  .max_ranks = 0,
  .run = run_greedy,
};
