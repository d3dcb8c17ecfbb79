/* weighted-hop-swaps.c - `wh`: weighted-hop refinement by task swaps, deveci2015
 * Section III-B, Algorithm 2 (UMPA's U_WH). A pass puts every task in a
 * max-heap keyed by the hop-bytes it incurs (TASKWHOPS); the top task t_wh
 * is tried against the first `delta` allocated nodes met by a BFS on the
 * topology from the nodes of its neighbours (level 0), and swapped with the
 * task there (or moved, if the node is empty) as soon as that lowers the
 * total hop-bytes; the heap keys of both tasks' neighbours are then
 * updated. A new pass runs only if the last one gained more than 0.5%.
 * Only improving swaps are made, so hop_bytes never increases. Works on one
 * task per node (strategy_run partitions first when nodes hold more). */
#include "mapping/map-util.h"

typedef struct wh {
  refine_state st;
  index_heap heap;
  node_bfs bfs;
  int delta;
} wh;

static void heap_update_task(wh *w, int t)
{
  if (index_heap_has(&w->heap, t))
    index_heap_set(&w->heap, t, (double)refine_state_cost(&w->st, t, w->st.node[t], -1));
}

static void heap_update_around(wh *w, int t)
{
  const sym_graph *s = &w->st.s;
  heap_update_task(w, t);
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
    heap_update_task(w, s->adj[k]);
}

/* Lines 3-6 of Algorithm 2 for one task; returns the gain made (>= 0). */
static int64_t improve_task(wh *w, int t)
{
  refine_state *st = &w->st;
  const sym_graph *s = &st->s;
  if (s->xadj[t] == s->xadj[t + 1])
    return 0;
  node_bfs_start(&w->bfs);
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
    node_bfs_add(&w->bfs, st->node[s->adj[k]]);
  int a = st->node[t], tried = 0;
  for (int v; tried < w->delta && (v = node_bfs_next(&w->bfs)) >= 0;) {
    if (v == a || !refine_state_allocated(st, v))
      continue;
    tried++;
    int64_t d = refine_state_swap_delta(st, a, v);
    if (d < 0) {
      int other = st->node_task[v];
      refine_state_swap(st, a, v);
      heap_update_around(w, t);
      if (other >= 0)
        heap_update_around(w, other);
      return -d;
    }
  }
  return 0;
}

static gboolean run_wh(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                       GError **error)
{
  wh w = { .delta = strategy_arg_int(args, "delta") };
  if (!refine_state_init(&w.st, ctx, m, "wh", error))
    return FALSE;
  if (!refine_state_objective(&w.st, strategy_arg_str(args, "obj"), "wh", error)) {
    refine_state_clear(&w.st);
    return FALSE;
  }
  index_heap_init(&w.heap, m->ntasks);
  node_bfs_init(&w.bfs, ctx->p->topo);
  int64_t total = refine_state_total(&w.st);
  double min_gain = strategy_arg_double(args, "min_gain");
  for (int pass = 1; !progress_stopped(ctx->prog); pass++) {
    int64_t start = total;
    for (int t = 0; t < m->ntasks; t++)
      index_heap_set(&w.heap, t, (double)refine_state_cost(&w.st, t, m->node[t], -1));
    long pops = 0;
    for (int t; (t = index_heap_pop(&w.heap)) >= 0;) {
      total -= improve_task(&w, t); /* every swap keeps the mapping valid */
      if ((++pops & 4095) == 0 && progress_stopped(ctx->prog))
        break;
    }
    progress_report(ctx->prog, "wh passes", (uint64_t)pass, 0);
    if (start == 0 || (double)(start - total) <= min_gain * (double)start)
      break;
  }
  node_bfs_clear(&w.bfs);
  index_heap_clear(&w.heap);
  refine_state_clear(&w.st);
  return TRUE;
}

static const strategy_param wh_params[] = {
  { "delta", SPARAM_INT, "8", "1..", "swap candidates tried per task (Delta)" },
  { "min_gain", SPARAM_DOUBLE, "0.005", "0..1", "next pass only if the last gained more (fraction)" },
  REFINE_OBJ_PARAM,
  { NULL },
};

const strategy strategy_wh = {
  .name = "wh",
  .kind = STRATEGY_REFINE,
  .summary = "hop-bytes refinement: swap the costliest task towards its neighbours",
  .paper = "deveci2015 Section III-B, Algorithm 2 (U_WH)",
  .params = wh_params,
  .start = "greedy",
  .cost = "O(n delta BFS) per pass",
  .max_ranks = 262144,
  .run = run_wh,
};
