/* dag.c - a GOAL schedule as a dependency graph on a platform (dag.h): the
 * CPUs, the protocol of each message through the network model, the
 * matching and the event loop.
 *
 * An operation whose last dependency is met is scheduled (one READY event)
 * at the latest time any of its dependencies was met, so a dependency that
 * ends in the future (a calc's end, an eager send's overhead) releases its
 * followers at once with that time rather than through an event of its
 * own; an operation whose CPU is busy then is scheduled again when it is
 * free. Events: READY (try to start), ENV (an envelope that crosses no
 * network: the send's post under eager_start match or handshake sync),
 * RCPU (a receive's recv_overhead waiting for its CPU) and the model's
 * deliveries (phase in the payload: the data, an RTS, a CTS). Per
 * operation: unmet dependencies, the latest time one was met, the start,
 * the matched partner and its rank: flat arrays of the schedule's size.
 */
#include "sim/dag.h"

#include <string.h>

#include "sim/goal-match-private.h"
#include "sim/replay-share-private.h"
#include "util/budget.h"

enum { DPH_DATA, DPH_RTS, DPH_CTS };

typedef struct dag {
  const goal *g;
  const platform *p;
  const int *node;           /* rank -> node */
  engine *eng;
  netmodel *model;
  uint32_t k_ready, k_env, k_rcpu, k_net;
  int ncpu;
  double calc_ps;            /* ps per calc unit */
  int64_t o_send, o_recv, eager;
  gboolean sync, eager_match;
  int64_t *cpu_free;         /* [rank * ncpu + cpu], ps */
  uint32_t *deps;            /* per operation: dependencies not met yet */
  int64_t *ready_at;         /* per operation: the latest time one was met */
  int64_t *t_start;          /* per operation: its start (a receive: its post), -1 before */
  int64_t *partner;          /* per operation: the matched receive / send, -1 before */
  uint32_t *rank_of;         /* per operation */
  uint8_t *done;             /* per operation */
  pool pool;
  match_list *rq, *uq;       /* per rank: posted receives, unexpected envelopes */
  replay_rank_stats *st;     /* per rank */
  int64_t done_ops;
  int64_t limit;
  const progress *progress;
  GError *error;
} dag;

static inline int64_t *cpu_of(dag *D, uint32_t rank, int cpu)
{
  return &D->cpu_free[(size_t)rank * (size_t)D->ncpu + (size_t)cpu];
}

static void release(dag *D, uint32_t rank, const int64_t *xadj, const uint32_t *adj, int64_t op,
                    int64_t t)
{
  int64_t base = D->g->first[rank];
  for (int64_t e = xadj[op]; e < xadj[op + 1]; e++) {
    int64_t i = base + adj[e];
    D->ready_at[i] = MAX(D->ready_at[i], t);
    if (--D->deps[i] == 0)
      engine_schedule(D->eng, D->ready_at[i], D->k_ready, rank, (uint64_t)i);
  }
}

static void started(dag *D, uint32_t rank, int64_t op, int64_t t)
{
  D->t_start[op] = t;
  release(D, rank, D->g->start_xadj, D->g->after_start, op, t);
}

/* Operation `op` ends at t (>= the engine's now). */
static void ended(dag *D, uint32_t rank, int64_t op, int64_t t)
{
  replay_rank_stats *s = &D->st[rank];
  int64_t d = t - D->t_start[op];
  D->done[op] = 1;
  D->done_ops++;
  s->finish_ps = MAX(s->finish_ps, t);
  if (D->g->ops[op].kind == GOAL_CALC)
    s->compute_ps = saturating_add_i64(s->compute_ps, d);
  else
    s->p2p_ps = saturating_add_i64(s->p2p_ps, d);
  release(D, rank, D->g->end_xadj, D->g->after_end, op, t);
}

static void net_start(dag *D, uint32_t from, uint32_t to, int64_t bytes, int64_t t,
                      netmodel_class cls, uint32_t phase, int64_t send)
{
  netmodel_msg nm = { D->node[from], D->node[to], bytes, t, cls, phase, (uint64_t)send,
                      route_key((int)from, (int)to) };
  netmodel_start(D->model, &nm);
}

static inline gboolean rendezvous(const dag *D, int64_t send)
{
  return (int64_t)D->g->ops[send].size > D->eager;
}

/* Receive `recv`'s message is there at t: it ends after recv_overhead on
 * its CPU. */
static void recv_complete(dag *D, int64_t recv, int64_t t)
{
  uint32_t rank = D->rank_of[recv];
  D->st[rank].wait_ps = saturating_add_i64(D->st[rank].wait_ps, t - D->t_start[recv]);
  if (D->o_recv == 0)
    ended(D, rank, recv, t);
  else
    engine_schedule(D->eng, t, D->k_rcpu, rank, (uint64_t)recv);
}

/* Send `send` and receive `recv` met at the engine's now. */
static void matched(dag *D, int64_t send, int64_t recv)
{
  int64_t t = D->eng->now;
  const goal_op *o = &D->g->ops[send];
  uint32_t from = D->rank_of[send];
  D->partner[send] = recv;
  D->partner[recv] = send;
  if (!rendezvous(D, send)) {
    if (D->eager_match) /* the data leaves now that both are there */
      net_start(D, from, o->peer, (int64_t)o->size, t, NETMODEL_P2P, DPH_DATA, send);
    else /* the envelope was the data: it has arrived */
      recv_complete(D, recv, t);
  } else if (D->sync) {
    net_start(D, from, o->peer, (int64_t)o->size, t, NETMODEL_P2P, DPH_DATA, send);
  } else {
    net_start(D, o->peer, from, 0, t, NETMODEL_CTRL, DPH_CTS, send);
  }
}

/* The envelope of `send` reaches its receiver at the engine's now. */
static void envelope(dag *D, int64_t send)
{
  const goal_op *o = &D->g->ops[send];
  uint32_t from = D->rank_of[send];
  match_entry m;
  if (list_match(&D->pool, &D->rq[o->peer], from, o->tag, &m)) {
    matched(D, send, m.op);
  } else {
    match_entry x = { .size = o->size, .op = send, .src = from, .tag = o->tag };
    list_append(&D->pool, &D->uq[o->peer], &x);
  }
}

static void try_start(dag *D, uint32_t rank, int64_t op)
{
  int64_t now = D->eng->now;
  const goal_op *o = &D->g->ops[op];
  int64_t *cpu = cpu_of(D, rank, o->cpu);
  if (*cpu > now) {
    engine_schedule(D->eng, *cpu, D->k_ready, rank, (uint64_t)op);
    return;
  }
  switch (o->kind) {
  case GOAL_CALC: {
    int64_t end = saturating_add_i64(now, saturating_ps(D->calc_ps * (double)o->size));
    *cpu = end;
    started(D, rank, op, now);
    ended(D, rank, op, end);
    break;
  }
  case GOAL_SEND: {
    int64_t tp = saturating_add_i64(now, D->o_send);
    *cpu = tp;
    started(D, rank, op, now);
    if (!rendezvous(D, op)) {
      if (D->eager_match)
        engine_schedule(D->eng, tp, D->k_env, rank, (uint64_t)op);
      else
        net_start(D, rank, o->peer, (int64_t)o->size, tp, NETMODEL_P2P, DPH_DATA, op);
      ended(D, rank, op, tp);
    } else if (D->sync) {
      engine_schedule(D->eng, tp, D->k_env, rank, (uint64_t)op);
    } else {
      net_start(D, rank, o->peer, 0, tp, NETMODEL_CTRL, DPH_RTS, op);
    }
    break;
  }
  case GOAL_RECV: {
    started(D, rank, op, now);
    match_entry m;
    if (list_match(&D->pool, &D->uq[rank], o->peer, o->tag, &m)) {
      matched(D, m.op, op);
    } else {
      match_entry x = { .size = o->size, .op = op, .src = o->peer, .tag = o->tag };
      list_append(&D->pool, &D->rq[rank], &x);
    }
    break;
  }
  }
}

static void on_net(dag *D, const engine_event *ev)
{
  int64_t send = (int64_t)ev->b;
  const goal_op *o = &D->g->ops[send];
  switch (ev->a) {
  case DPH_RTS:
    envelope(D, send);
    break;
  case DPH_CTS:
    net_start(D, D->rank_of[send], o->peer, (int64_t)o->size, ev->time, NETMODEL_P2P, DPH_DATA,
              send);
    break;
  case DPH_DATA:
    if (!rendezvous(D, send) && !D->eager_match) {
      envelope(D, send);
      break;
    }
    if (rendezvous(D, send))
      ended(D, D->rank_of[send], send, ev->time);
    recv_complete(D, D->partner[send], ev->time);
    break;
  }
}

static void on_rcpu(dag *D, const engine_event *ev)
{
  int64_t recv = (int64_t)ev->b;
  int64_t *cpu = cpu_of(D, ev->a, D->g->ops[recv].cpu);
  if (*cpu > ev->time) {
    engine_schedule(D->eng, *cpu, D->k_rcpu, ev->a, ev->b);
    return;
  }
  *cpu = saturating_add_i64(ev->time, D->o_recv);
  ended(D, ev->a, recv, *cpu);
}

static void dispatch(dag *D, const engine_event *ev)
{
  if (ev->kind == D->k_ready)
    try_start(D, ev->a, (int64_t)ev->b);
  else if (ev->kind == D->k_net)
    on_net(D, ev);
  else if (ev->kind == D->k_env)
    envelope(D, (int64_t)ev->b);
  else if (ev->kind == D->k_rcpu)
    on_rcpu(D, ev);
  else
    engine_dispatch(D->eng, ev);
}

/* For engine_dispatch (never reached: the loop calls dispatch() first). */
static void on_event(void *ctx, engine *e, const engine_event *ev)
{
  (void)e;
  dispatch(ctx, ev);
}

static void run_events(dag *D)
{
  engine *e = D->eng;
  engine_event ev;
  while (!D->error && !e->overflow && engine_pop(e, &ev)) {
    if (G_UNLIKELY(ev.time > D->limit)) {
      g_set_error(&D->error, REPLAY_ERROR, REPLAY_ERROR_LIMIT,
                  "the makespan passes the limit of %.9g s", (double)D->limit * 1e-12);
      break;
    }
    if (G_UNLIKELY((e->handled & 0xffff) == 0) && D->progress) {
      progress_report(D->progress, "replay: GOAL operations", (uint64_t)D->done_ops,
                      (uint64_t)D->g->nops);
      if (!progress_check(D->progress, &D->error))
        break;
    }
    dispatch(D, &ev);
  }
}

/* What rank r waits for, one line (caller frees), or NULL when nothing. */
static char *stuck_line(const dag *D, int r)
{
  const goal *g = D->g;
  if (D->rq[r].head >= 0) {
    const match_entry *m = &D->pool.e[D->rq[r].head];
    return g_strdup_printf("rank %d: operation l%" G_GINT64_FORMAT " (recv from %d tag %d) "
                           "never matched a send", r, m->op - g->first[r] + 1,
                           m->src == GOAL_ANY ? -1 : (int)m->src,
                           m->tag == GOAL_ANY ? -1 : (int)m->tag);
  }
  if (D->uq[r].head >= 0) {
    const match_entry *m = &D->pool.e[D->uq[r].head];
    return g_strdup_printf("rank %d: a message from rank %u tag %d (its operation l%"
                           G_GINT64_FORMAT ") never matched a receive", r, m->src,
                           m->tag == GOAL_ANY ? -1 : (int)m->tag, m->op - g->first[m->src] + 1);
  }
  for (int64_t i = g->first[r]; i < g->first[r + 1]; i++)
    if (!D->done[i])
      return g_strdup_printf(D->deps[i] > 0 ? "rank %d: operation l%" G_GINT64_FORMAT " never "
                                              "ran (a dependency never completed, or a cycle)"
                                            : "rank %d: operation l%" G_GINT64_FORMAT
                                              " never completed (a rendezvous send unmatched)",
                             r, i - g->first[r] + 1);
  return NULL;
}

static void report_stuck(const dag *D, replay_result *res)
{
  GString *d = g_string_new(NULL);
  char *first = NULL;
  for (int r = 0; r < D->g->nranks; r++) {
    char *line = stuck_line(D, r);
    if (!line)
      continue;
    if (res->stuck++ < 8)
      g_string_append_printf(d, "  %s\n", line);
    if (!first)
      first = line;
    else
      g_free(line);
  }
  if (!first) {
    g_string_free(d, TRUE);
    return;
  }
  if (res->stuck > 8)
    g_string_append_printf(d, "  ... and %d more ranks that cannot progress\n", res->stuck - 8);
  res->stuck_summary = g_strdup_printf("deadlock: %d of %d ranks cannot progress; first %s",
                                       res->stuck, D->g->nranks, first);
  res->stuck_detail = g_string_free(d, FALSE);
  g_free(first);
}

static gboolean check_schedule(const goal *g, const replay_opts *o, GError **error)
{
  if (o->record_times || o->on_record) {
    g_set_error_literal(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                        "a GOAL schedule has no trace records to time, expected no output "
                        "trace or record timeline");
    return FALSE;
  }
  if (!(o->compute_scale >= 0)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "compute scale %g: expected a number >= 0", o->compute_scale);
    return FALSE;
  }
  for (int64_t i = 0; i < g->nops; i++)
    if (g->ops[i].kind != GOAL_CALC && g->ops[i].size > (uint64_t)INT64_MAX) {
      g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                  "operation %" G_GINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes, expected at "
                  "most 2^63 - 1", i, g->ops[i].size);
      return FALSE;
    }
  /* per operation: 4 + 8 + 8 + 8 + 4 + 1 bytes and two queue entries */
  return budget_check_array("the GOAL replay's operations", (uint64_t)g->nops, 33 + 64, error) &&
         budget_check_array("the GOAL replay's ranks", (uint64_t)g->nranks,
                            (uint64_t)(g->max_cpu + 1) * 8 + sizeof(replay_rank_stats) +
                                2 * sizeof(match_list),
                            error);
}

static void dag_free(dag *D)
{
  g_free(D->cpu_free);
  g_free(D->deps);
  g_free(D->ready_at);
  g_free(D->t_start);
  g_free(D->partner);
  g_free(D->rank_of);
  g_free(D->done);
  g_free(D->pool.e);
  g_free(D->rq);
  g_free(D->uq);
  g_free(D->st);
  netmodel_free(D->model);
  engine_free(D->eng);
  g_clear_error(&D->error);
}

replay_result *dag_run(const goal *g, const platform *p, const mapping *m,
                       const struct netmodel_ops *model, const replay_opts *o, GError **error)
{
  replay_opts defaults;
  if (!o) {
    replay_opts_init(&defaults);
    o = &defaults;
  }
  if (!check_schedule(g, o, error) || !replay_check_placement(g->nranks, p, m, error))
    return NULL;
  dag D = { .g = g, .p = p, .node = m->node, .ncpu = g->max_cpu + 1,
            .calc_ps = DAG_CALC_UNIT_PS * o->compute_scale,
            .o_send = engine_ps(p->model.send_overhead),
            .o_recv = engine_ps(p->model.recv_overhead), .eager = p->model.eager_threshold,
            .sync = p->model.handshake == PLATFORM_HANDSHAKE_SYNC,
            .eager_match = p->model.eager_start == PLATFORM_EAGER_MATCH,
            .limit = o->limit_ps > 0 ? o->limit_ps : INT64_MAX, .progress = o->progress };
  gsize nops = (gsize)MAX(g->nops, 1), nranks = (gsize)MAX(g->nranks, 1);
  D.cpu_free = g_new0(int64_t, nranks * (gsize)D.ncpu);
  D.deps = g_memdup2(g->ndeps, sizeof(uint32_t) * nops);
  D.ready_at = g_new0(int64_t, nops);
  D.t_start = g_new(int64_t, nops);
  D.partner = g_new(int64_t, nops);
  D.rank_of = g_new(uint32_t, nops);
  D.done = g_new0(uint8_t, nops);
  D.rq = g_new(match_list, nranks);
  D.uq = g_new(match_list, nranks);
  D.st = g_new0(replay_rank_stats, nranks);
  D.pool.free = -1;
  for (int r = 0; r < g->nranks; r++) {
    int64_t start = o->start_ps ? o->start_ps[r] : 0;
    D.rq[r] = D.uq[r] = (match_list){ -1, -1 };
    D.st[r].finish_ps = start;
    for (int c = 0; c < D.ncpu; c++)
      *cpu_of(&D, (uint32_t)r, c) = start;
    for (int64_t i = g->first[r]; i < g->first[r + 1]; i++) {
      D.rank_of[i] = (uint32_t)r;
      D.ready_at[i] = start;
      D.t_start[i] = D.partner[i] = -1;
    }
  }
  D.eng = engine_new((size_t)g->nranks * 4 + 1024);
  D.k_ready = engine_register(D.eng, on_event, &D);
  D.k_env = engine_register(D.eng, on_event, &D);
  D.k_rcpu = engine_register(D.eng, on_event, &D);
  D.k_net = engine_register(D.eng, on_event, &D);
  replay_result *res = NULL;
  if (!(D.model = netmodel_new(model, p, D.eng, D.k_net, error)))
    goto out;
  D.model->rec = o->links;
  for (int r = 0; r < g->nranks; r++)
    for (int64_t i = g->first[r]; i < g->first[r + 1]; i++)
      if (g->ndeps[i] == 0)
        engine_schedule(D.eng, D.ready_at[i], D.k_ready, (uint32_t)r, (uint64_t)i);
  run_events(&D);
  if (o->links)
    linkrec_settle(o->links);
  int64_t makespan = 0;
  for (int r = 0; r < g->nranks; r++)
    makespan = MAX(makespan, D.st[r].finish_ps);
  if (!D.error)
    replay_check_totals(D.eng->overflow, makespan, D.g->nranks, TRUE, D.model,
                        "--compute-scale, the schedule's calcs and the platform's bandwidths "
                        "and latencies",
                        &D.error);
  if (D.error) {
    g_propagate_error(error, D.error);
    D.error = NULL;
    goto out;
  }
  res = g_new0(replay_result, 1);
  res->nranks = g->nranks;
  res->per_rank = g_steal_pointer(&D.st);
  res->events = D.done_ops;
  res->makespan_ps = makespan;
  for (int r = 0; r < g->nranks; r++)
    res->p2p_cost_ps = saturating_add_i64(res->p2p_cost_ps, res->per_rank[r].p2p_ps);
  res->parallel_cost_ps = makespan * g->nranks;
  res->engine_events = D.eng->handled;
  replay_collect_model(D.model, p, res);
  res->peak_bytes = engine_bytes(D.eng) + nops * 41 + nranks * (gsize)D.ncpu * 8 +
                    (gsize)D.pool.cap * sizeof(match_entry);
  report_stuck(&D, res);
out:
  dag_free(&D);
  return res;
}
