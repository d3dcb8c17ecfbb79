/* congestion-swaps.c - `mc` and `mmc`: congestion refinement by task swaps,
 * deveci2015 Section III-C, Algorithm 3 (UMPA's U_MC and U_MMC). Link loads
 * are kept per link along the platform's static routes (route_begin /
 * route_next) and a max-heap holds the links by congestion: volume over
 * bandwidth (mc: max_link_time) or messages, i.e. task-graph edges routed
 * through the link (mmc: max_link_messages). Repeatedly the hottest link is
 * taken, and for each task whose messages cross it (commTasks, gathered by
 * walking the routes) the first `delta` allocated nodes of a BFS from its
 * neighbours' nodes are tried: a swap (or a move to an empty node) is kept
 * when it lowers the maximum congestion, or keeps it and lowers the
 * average over the used links; loads are updated incrementally for the
 * edges of the two tasks only. It stops when no task of the hottest link
 * can improve it. The objective's maximum never increases. */
#include "mapping/map-util.h"

#include <string.h>

typedef struct mc {
  refine_state st;
  const router *r;
  const double *bw;
  gboolean by_messages;   /* mmc */
  int delta;
  int64_t *lbytes;        /* nlinks */
  int64_t *lmsgs;         /* nlinks */
  index_heap links;            /* by congestion */
  double sum;             /* sum of congestion over links */
  int used;               /* links with traffic */
  node_bfs bfs;
  int *mark;              /* tasks: stamp for commTasks */
  int stamp;
  int *cands;             /* commTasks of the hottest link */
  /* scratch of a virtual swap: per-link deltas of the links it touches */
  int64_t *dbytes, *dmsgs;  /* nlinks, zero outside a trial */
  uint8_t *touched;         /* nlinks */
  int *tl, ntl;             /* touched links */
  int *stack;               /* nlinks: heap walk */
  /* commTasks: per link, a list of the directed edges routed through it.
   * An edge is a sym_graph entry k with dir bit 0 (esrc[k] -> adj[k]); when it
   * is re-routed its epoch grows and older list entries become stale. */
  int *esrc, *rev, *epoch;  /* sym_graph entries */
  int *head;                /* nlinks: first pool entry, or -1 */
  int *pe, *pep, *pnext;    /* pool: edge, its epoch, next entry */
  int pn, pcap;
} mc;

static double congestion(const mc *c, int l)
{
  return c->by_messages ? (double)c->lmsgs[l] : (double)c->lbytes[l] / c->bw[l];
}

static void link_add(mc *c, int l, int64_t bytes, int sign)
{
  double old = congestion(c, l);
  gboolean was = c->lmsgs[l] > 0;
  c->lbytes[l] += sign * bytes;
  c->lmsgs[l] += sign;
  double now = congestion(c, l);
  c->sum += now - old;
  c->used += (c->lmsgs[l] > 0) - was;
  index_heap_set(&c->links, l, now);
}

/* The loads of the route of task `from` to task `to`. */
static void route_add(mc *c, int from, int to, int64_t bytes, int sign)
{
  int a = c->st.node[from], b = c->st.node[to];
  if (a == b)
    return;
  route_iter it;
  int l;
  route_begin(&it, c->r, a, b, route_key(from, to));
  while (route_next(&it, &l))
    link_add(c, l, bytes, sign);
}

/* Adds (sign 1) or removes (-1) the loads of task t's edges, except those
 * with task `skip`. */
static void task_loads(mc *c, int t, int skip, int sign)
{
  const sym_graph *s = &c->st.s;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int n = s->adj[k];
    if (n == skip)
      continue;
    if (s->dir[k] & 1)
      route_add(c, t, n, s->wout[k], sign);
    if (s->dir[k] & 2)
      route_add(c, n, t, s->win[k], sign);
  }
}

/* Accumulates the loads of task t's edges (except with `skip`) into the
 * scratch deltas, without touching the real loads. */
static void task_deltas(mc *c, int t, int skip, int sign)
{
  const sym_graph *s = &c->st.s;
  const int *node = c->st.node;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int n = s->adj[k];
    if (n == skip || node[n] == node[t])
      continue;
    for (int dir = 1; dir <= 2; dir++) {
      if (!(s->dir[k] & dir))
        continue;
      route_iter it;
      int l;
      route_begin(&it, c->r, dir == 1 ? node[t] : node[n], dir == 1 ? node[n] : node[t],
                  dir == 1 ? route_key(t, n) : route_key(n, t));
      while (route_next(&it, &l)) {
        if (!c->touched[l])
          c->touched[l] = 1, c->tl[c->ntl++] = l;
        c->dbytes[l] += sign * (dir == 1 ? s->wout[k] : s->win[k]);
        c->dmsgs[l] += sign;
      }
    }
  }
}

/* The largest congestion among links the scratch does not touch: a
 * best-first walk from the heap root through touched links only. */
static double max_untouched(mc *c)
{
  const index_heap *h = &c->links;
  double best = 0;
  int sp = 0;
  if (h->size)
    c->stack[sp++] = 0;
  while (sp) {
    int i = c->stack[--sp], id = h->heap[i];
    if (!c->touched[id]) {
      best = MAX(best, h->key[id]);
      continue;
    }
    for (int ch = 2 * i + 1; ch <= 2 * i + 2 && ch < h->size; ch++)
      if (h->key[h->heap[ch]] > best)
        c->stack[sp++] = ch;
  }
  return best;
}

/* New (max, avg) if the scratch deltas were applied; clears the scratch. */
static void evaluate_scratch(mc *c, double *nmax, double *navg)
{
  double mx = max_untouched(c), sum = c->sum;
  int used = c->used;
  for (int i = 0; i < c->ntl; i++) {
    int l = c->tl[i];
    int64_t nb = c->lbytes[l] + c->dbytes[l], nm = c->lmsgs[l] + c->dmsgs[l];
    double v = c->by_messages ? (double)nm : (double)nb / c->bw[l];
    mx = MAX(mx, v);
    sum += v - congestion(c, l);
    used += (nm > 0) - (c->lmsgs[l] > 0);
    c->dbytes[l] = c->dmsgs[l] = 0;
    c->touched[l] = 0;
  }
  c->ntl = 0;
  *nmax = mx;
  *navg = used ? sum / used : 0;
}

/* Exchanges the contents of nodes a and b, moving their loads along. */
static void swap_loads(mc *c, int a, int b)
{
  int ta = c->st.node_task[a], tb = c->st.node_task[b];
  if (ta >= 0)
    task_loads(c, ta, -1, -1);
  if (tb >= 0)
    task_loads(c, tb, ta, -1);
  refine_state_swap(&c->st, a, b);
  if (ta >= 0)
    task_loads(c, ta, -1, 1);
  if (tb >= 0)
    task_loads(c, tb, ta, 1);
}

static double max_cong(const mc *c)
{
  int top = index_heap_top(&c->links);
  return top < 0 ? 0 : c->links.key[top];
}

static double avg_cong(const mc *c)
{
  return c->used ? c->sum / c->used : 0;
}

static void pool_push(mc *c, int l, int k)
{
  if (c->pn == c->pcap) {
    c->pcap = 2 * c->pcap + 1024;
    c->pe = g_renew(int, c->pe, c->pcap);
    c->pep = g_renew(int, c->pep, c->pcap);
    c->pnext = g_renew(int, c->pnext, c->pcap);
  }
  c->pe[c->pn] = k, c->pep[c->pn] = c->epoch[k], c->pnext[c->pn] = c->head[l];
  c->head[l] = c->pn++;
}

/* Lists edge k under every link of its current route. */
static void index_edge(mc *c, int k)
{
  int a = c->st.node[c->esrc[k]], b = c->st.node[c->st.s.adj[k]];
  if (a == b)
    return;
  route_iter it;
  int l;
  route_begin(&it, c->r, a, b, route_key(c->esrc[k], c->st.s.adj[k]));
  while (route_next(&it, &l))
    pool_push(c, l, k);
}

/* After task x moved: its edges (both directions) get new routes. */
static void reindex_task(mc *c, int x)
{
  const sym_graph *s = &c->st.s;
  for (int k = s->xadj[x]; k < s->xadj[x + 1]; k++) {
    if (s->dir[k] & 1)
      c->epoch[k]++, index_edge(c, k);
    if (s->dir[k] & 2)
      c->epoch[c->rev[k]]++, index_edge(c, c->rev[k]);
  }
}

static void build_index(mc *c)
{
  const sym_graph *s = &c->st.s;
  int ne = s->xadj[s->n];
  c->esrc = g_new(int, ne ? ne : 1);
  c->rev = g_new(int, ne ? ne : 1);
  c->epoch = g_new0(int, ne ? ne : 1);
  for (int t = 0; t < s->n; t++)
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
      int n = s->adj[k], lo = s->xadj[n], hi = s->xadj[n + 1] - 1;
      while (lo < hi) { /* the entry of t in n's sorted list */
        int mid = (lo + hi) / 2;
        s->adj[mid] < t ? (lo = mid + 1) : (hi = mid);
      }
      c->esrc[k] = t, c->rev[k] = lo;
    }
  for (int k = 0; k < ne; k++)
    if (s->dir[k] & 1)
      index_edge(c, k);
}

/* Tries the swap a <-> b virtually (scratch deltas, no heap updates);
 * applies it when MC drops, or MC stays and AC drops. */
static gboolean try_swap(mc *c, int a, int b)
{
  double mx = max_cong(c), av = avg_cong(c), nmx, nav;
  int ta = c->st.node_task[a], tb = c->st.node_task[b];
  if (ta >= 0)
    task_deltas(c, ta, -1, -1);
  if (tb >= 0)
    task_deltas(c, tb, ta, -1);
  refine_state_swap(&c->st, a, b);
  if (ta >= 0)
    task_deltas(c, ta, -1, 1);
  if (tb >= 0)
    task_deltas(c, tb, ta, 1);
  refine_state_swap(&c->st, a, b);
  evaluate_scratch(c, &nmx, &nav);
  if (!(nmx < mx || (nmx == mx && nav < av - 1e-12 * av)))
    return FALSE;
  swap_loads(c, a, b);
  if (ta >= 0)
    reindex_task(c, ta);
  if (tb >= 0)
    reindex_task(c, tb);
  return TRUE;
}

/* Tasks with a message through link e (both ends), into c->cands. */
static int comm_tasks(mc *c, int e)
{
  const sym_graph *s = &c->st.s;
  int n = 0;
  c->stamp++;
  for (int i = c->head[e]; i >= 0; i = c->pnext[i]) {
    int k = c->pe[i];
    if (c->pep[i] != c->epoch[k])
      continue; /* stale: the edge was re-routed */
    int ends[2] = { c->esrc[k], s->adj[k] };
    for (int j = 0; j < 2; j++)
      if (c->mark[ends[j]] != c->stamp)
        c->mark[ends[j]] = c->stamp, c->cands[n++] = ends[j];
  }
  return n;
}

/* Lines 2-3 of Algorithm 3 for one task: TRUE when a swap was kept. */
static gboolean improve_task(mc *c, int t)
{
  refine_state *st = &c->st;
  const sym_graph *s = &st->s;
  node_bfs_start(&c->bfs);
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
    node_bfs_add(&c->bfs, st->node[s->adj[k]]);
  int a = st->node[t], tried = 0;
  for (int v; tried < c->delta && (v = node_bfs_next(&c->bfs)) >= 0;) {
    if (v == a || !refine_state_allocated(st, v))
      continue;
    tried++;
    if (try_swap(c, a, v))
      return TRUE;
  }
  return FALSE;
}

/* INITCONG: the loads of every directed edge, then the heap in one go. */
static void init_loads(mc *c)
{
  const sym_graph *s = &c->st.s;
  const int *node = c->st.node;
  int nl = c->st.p->topo->nlinks;
  for (int t = 0; t < s->n; t++)
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
      if (!(s->dir[k] & 1) || node[t] == node[s->adj[k]])
        continue;
      route_iter it;
      int l;
      route_begin(&it, c->r, node[t], node[s->adj[k]], route_key(t, s->adj[k]));
      while (route_next(&it, &l))
        c->lbytes[l] += s->wout[k], c->lmsgs[l]++;
    }
  for (int l = 0; l < nl; l++) {
    double v = congestion(c, l);
    c->sum += v;
    c->used += c->lmsgs[l] > 0;
    index_heap_set(&c->links, l, v);
  }
}

static void mc_free(mc *c)
{
  node_bfs_clear(&c->bfs);
  index_heap_clear(&c->links);
  g_free(c->lbytes);
  g_free(c->lmsgs);
  g_free(c->mark);
  g_free(c->cands);
  g_free(c->dbytes);
  g_free(c->dmsgs);
  g_free(c->touched);
  g_free(c->tl);
  g_free(c->stack);
  g_free(c->esrc);
  g_free(c->rev);
  g_free(c->epoch);
  g_free(c->head);
  g_free(c->pe);
  g_free(c->pep);
  g_free(c->pnext);
  refine_state_clear(&c->st);
}

static gboolean run_mc_kind(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                            gboolean by_messages, GError **error)
{
  const platform *p = ctx->p;
  int nl = p->topo->nlinks;
  mc c = { .r = p->router, .bw = p->link_bw, .by_messages = by_messages,
           .delta = strategy_arg_int(args, "delta") };
  if (!refine_state_init(&c.st, ctx, m, by_messages ? "mmc" : "mc", error))
    return FALSE;
  c.lbytes = g_new0(int64_t, nl ? nl : 1);
  c.lmsgs = g_new0(int64_t, nl ? nl : 1);
  c.mark = g_new0(int, m->ntasks ? m->ntasks : 1);
  c.cands = g_new(int, m->ntasks ? m->ntasks : 1);
  c.dbytes = g_new0(int64_t, nl ? nl : 1);
  c.dmsgs = g_new0(int64_t, nl ? nl : 1);
  c.touched = g_new0(uint8_t, nl ? nl : 1);
  c.tl = g_new(int, nl ? nl : 1);
  c.stack = g_new(int, nl ? nl : 1);
  index_heap_init(&c.links, nl);
  node_bfs_init(&c.bfs, p->topo);
  init_loads(&c);
  c.head = g_new(int, nl ? nl : 1);
  for (int l = 0; l < nl; l++)
    c.head[l] = -1;
  build_index(&c);
  long limit = 16L * m->ntasks + 64; /* a guard; each kept swap improves (MC, AC) */
  for (long it = 0; it < limit && max_cong(&c) > 0; it++) {
    if ((it & 255) == 255 && progress_stopped(ctx->prog))
      break; /* every kept swap left a valid mapping */
    int ncand = comm_tasks(&c, index_heap_top(&c.links));
    gboolean improved = FALSE;
    for (int i = 0; i < ncand && !improved; i++)
      improved = improve_task(&c, c.cands[i]);
    if (!improved)
      break; /* the hottest link cannot be improved */
  }
  mc_free(&c);
  return TRUE;
}

static gboolean run_mc(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                       GError **error)
{
  return run_mc_kind(ctx, args, m, FALSE, error);
}

static gboolean run_mmc(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                        GError **error)
{
  return run_mc_kind(ctx, args, m, TRUE, error);
}

static const strategy_param mc_params[] = {
  { "delta", SPARAM_INT, "8", "1..", "swap candidates tried per task (Delta)" },
  { NULL },
};

const strategy strategy_mc = {
  .name = "mc",
  .kind = STRATEGY_REFINE,
  .summary = "max link time refinement: swap tasks off the hottest link (volume/bandwidth)",
  .paper = "deveci2015 Section III-C, Algorithm 3 (U_MC)",
  .params = mc_params,
  .start = "greedy",
  .cost = "O(candidates x route length) per swap",
  .max_ranks = 0,
  .run = run_mc,
};

const strategy strategy_mmc = {
  .name = "mmc",
  .kind = STRATEGY_REFINE,
  .summary = "max link messages refinement: swap tasks off the most crossed link",
  .paper = "deveci2015 Section III-C, Algorithm 3 (U_MMC)",
  .params = mc_params,
  .start = "greedy",
  .cost = "O(candidates x route length) per swap",
  .max_ranks = 0,
  .run = run_mmc,
};
