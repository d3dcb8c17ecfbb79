/* loggops.c - LogGOPSim's replay of a GOAL schedule (loggops.h): the
 * parameters, the queue, the matching lists and the event loop.
 *
 * Everything is flat: the queue is a binary heap of 32-byte entries keyed
 * (time, insertion number), an operation keeps its number when it is
 * re-queued (LogGOPSim's STRICT_ORDER `ts`); the posted-receive and
 * unexpected-message lists of all ranks share one pool of entries linked
 * by index (searched from the front, as LogGOPSim's std::list); the
 * operations that became ready in one step are collected in one scratch
 * array and queued rank by rank. O((operations + messages) log queue)
 * plus the list searches.
 */
#include "sim/loggops.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim/goal-match-private.h"
#include "sim/replay-share-private.h"
#include "util/budget.h"
#include "util/checked.h"
#include "util/units.h"

G_DEFINE_QUARK(loggops-error-quark, loggops_error)

/* ---- parameters ---- */

void loggops_defaults(loggops_params *p)
{
  *p = (loggops_params){ .L = 2500, .o = 1500, .g = 1000, .G = 6, .O = 0, .S = 65535,
                         .unit_s = 1e-9, .net = "analytic" };
}

gboolean loggops_is_model(const char *model)
{
  return model && (strcmp(model, "loggops") == 0 || g_str_has_prefix(model, "loggops:"));
}

gboolean loggops_parse(const char *model, loggops_params *p, GError **error)
{
  loggops_defaults(p);
  if (!loggops_is_model(model)) {
    g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC, "'%s': expected loggops[:KEY=VALUE...]",
                model ? model : "");
    return FALSE;
  }
  g_auto(GStrv) items = g_strsplit(model, ":", -1);
  for (int i = 1; items[i]; i++) {
    const char *eq = strchr(items[i], '=');
    g_autofree char *key = eq ? g_strndup(items[i], (gsize)(eq - items[i])) : g_strdup(items[i]);
    const char *value = eq ? eq + 1 : "";
    if (strcmp(key, "unit") == 0) {
      double s;
      g_autoptr(GError) e = NULL;
      if (!units_parse(value, UNITS_TIME, &s, &e) || !(s > 0)) {
        g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                    "--model %s: unit '%s', expected a positive time such as 1ns", model, value);
        return FALSE;
      }
      p->unit_s = s;
      continue;
    }
    if (strcmp(key, "net") == 0) {
      if (!netmodel_find(value)) {
        g_autofree char *names = netmodel_names();
        g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                    "--model %s: net=%s, expected a network model: one of %s", model, value,
                    names);
        return FALSE;
      }
      g_strlcpy(p->net, value, sizeof p->net);
      continue;
    }
    uint64_t *slot = strcmp(key, "L") == 0 ? &p->L : strcmp(key, "o") == 0 ? &p->o
                     : strcmp(key, "g") == 0 ? &p->g : strcmp(key, "G") == 0 ? &p->G
                     : strcmp(key, "O") == 0 ? &p->O : strcmp(key, "S") == 0 ? &p->S : NULL;
    if (!slot) {
      g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                  "--model %s: '%s', expected one of L, o, g, G, O, S, unit, net as KEY=VALUE", model,
                  items[i]);
      return FALSE;
    }
    char *end = NULL;
    errno = 0;
    guint64 v = g_ascii_strtoull(value, &end, 10);
    /* LogGOPSim reads them as int: at most 2^31 - 1 */
    if (!*value || *end || errno || v > G_MAXINT32 || value[0] == '-' || value[0] == '+') {
      g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                  "--model %s: %s=%s, expected a whole number of %s from 0 to 2147483647", model,
                  key, value, strcmp(key, "S") == 0 ? "bytes" : "time units");
      return FALSE;
    }
    *slot = v;
  }
  return TRUE;
}

void loggops_result_clear(loggops_result *r)
{
  g_clear_pointer(&r->finish, g_free);
}

/* ---- the queue ---- */

enum { EV_SEND = GOAL_SEND, EV_RECV = GOAL_RECV, EV_CALC = GOAL_CALC, EV_MSG = 4 };

typedef struct entry {
  uint64_t time, ts;
  int64_t op;      /* global operation index; a message: its send */
  uint32_t rank;   /* the operation's rank; a message: the sender */
  uint32_t kind;
} entry;

typedef struct heap {
  entry *e;
  int64_t n, cap;
} heap;

static inline gboolean before(const entry *a, const entry *b)
{
  return a->time < b->time || (a->time == b->time && a->ts < b->ts);
}

static void heap_push(heap *h, const entry *x)
{
  if (h->n == h->cap) {
    h->cap = MAX(h->cap * 2, 1024);
    h->e = g_renew(entry, h->e, (gsize)h->cap);
  }
  int64_t i = h->n++;
  while (i > 0) {
    int64_t up = (i - 1) / 2;
    if (!before(x, &h->e[up]))
      break;
    h->e[i] = h->e[up];
    i = up;
  }
  h->e[i] = *x;
}

static entry heap_pop(heap *h)
{
  entry top = h->e[0], last = h->e[--h->n];
  int64_t i = 0;
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= h->n)
      break;
    if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c]))
      c++;
    if (!before(&h->e[c], &last))
      break;
    h->e[i] = h->e[c];
    i = c;
  }
  if (h->n > 0)
    h->e[i] = last;
  return top;
}

/* ---- the replay ---- */

typedef struct ready {
  uint32_t rank;
  uint32_t local;
} ready;

typedef struct sim {
  const goal *g;
  const loggops_params *p;
  int ncpu, nnic;
  uint64_t *nexto, *nextgs, *nextgr;  /* [rank * ncpu + cpu], [rank * nnic + nic] */
  uint32_t *deps;                     /* dependencies still unmet, per operation */
  heap q;
  pool pool;
  match_list *rq, *uq;                /* per rank */
  GArray *ready;                      /* ready: this step's newly ready operations */
  uint64_t ts;
  int64_t done_ops;
  /* on a platform (loggops_run_platform), else NULL: messages cross the
   * network model instead of taking L */
  netmodel *nm;
  engine *eng;
  const int *node;                    /* rank -> node */
  int64_t unit_ps;
  uint64_t *msg_ts;                   /* per send: its message's insertion number */
} sim;

static inline uint64_t *cpu_of(sim *s, uint64_t *a, uint32_t rank, int cpu)
{
  return &a[(size_t)rank * (size_t)s->ncpu + (size_t)cpu];
}

static inline uint64_t *nic_of(sim *s, uint64_t *a, uint32_t rank, int nic)
{
  return &a[(size_t)rank * (size_t)s->nnic + (size_t)nic];
}

static void release(sim *s, uint32_t rank, const int64_t *xadj, const uint32_t *adj, int64_t op)
{
  int64_t base = s->g->first[rank];
  for (int64_t e = xadj[op]; e < xadj[op + 1]; e++)
    if (--s->deps[base + adj[e]] == 0)
      g_array_append_val(s->ready, ((ready){ rank, adj[e] }));
}

static void started(sim *s, uint32_t rank, int64_t op)
{
  release(s, rank, s->g->start_xadj, s->g->after_start, op);
}

static void done(sim *s, uint32_t rank, int64_t op)
{
  s->done_ops++;
  release(s, rank, s->g->end_xadj, s->g->after_end, op);
}

/* Queues one ready operation at the time its CPU (and NIC) allow. */
static void enqueue(sim *s, uint32_t rank, uint32_t local)
{
  int64_t op = s->g->first[rank] + local;
  const goal_op *o = &s->g->ops[op];
  uint64_t t = *cpu_of(s, s->nexto, rank, o->cpu);
  if (o->kind == GOAL_SEND)
    t = MAX(t, *nic_of(s, s->nextgs, rank, o->nic));
  entry x = { .time = t, .ts = s->ts++, .op = op, .rank = rank, .kind = o->kind };
  heap_push(&s->q, &x);
}

/* Queues this step's ready operations: ranks ascending, each rank's sends,
 * then receives, then calcs, each kind in the order it became ready (a
 * step touches one or two ranks). */
static void flush(sim *s)
{
  GArray *r = s->ready;
  guint n = r->len;
  int64_t last = -1;
  while (n > 0) {
    /* the smallest rank above the last one done */
    int64_t rank = INT64_MAX;
    for (guint i = 0; i < n; i++) {
      int64_t x = g_array_index(r, ready, i).rank;
      if (x > last && x < rank)
        rank = x;
    }
    if (rank == INT64_MAX)
      break;
    for (int kind = GOAL_SEND; kind <= GOAL_CALC; kind++)
      for (guint k = 0; k < n; k++) {
        const ready *x = &g_array_index(r, ready, k);
        if (x->rank == rank && s->g->ops[s->g->first[rank] + x->local].kind == kind)
          enqueue(s, x->rank, x->local);
      }
    last = rank;
  }
  g_array_set_size(r, 0);
}

/* Runs one queue entry. */
static void step(sim *s, entry e)
{
  const loggops_params *p = s->p;
  const goal_op *o = &s->g->ops[e.op];
  uint64_t t = e.time;
  switch (e.kind) {
  case EV_CALC: {
    uint64_t *cpu = cpu_of(s, s->nexto, e.rank, o->cpu);
    if (*cpu <= t) {
      *cpu = t + o->size;
      started(s, e.rank, e.op);
      done(s, e.rank, e.op);
    } else {
      e.time = *cpu;
      heap_push(&s->q, &e);
    }
    break;
  }
  case EV_SEND: {
    uint64_t *cpu = cpu_of(s, s->nexto, e.rank, o->cpu);
    uint64_t *gap = nic_of(s, s->nextgs, e.rank, o->nic);
    if (MAX(*cpu, *gap) <= t) {
      started(s, e.rank, e.op);
      /* unsigned as in LogGOPSim: a 0-byte message has size - 1 = -1 */
      *cpu = t + p->o + (o->size - 1) * p->O;
      *gap = t + p->g + (o->size - 1) * p->G;
      if (s->nm) { /* the arrival comes back through deliver(), with this number */
        s->msg_ts[e.op] = s->ts++;
        netmodel_msg nm = { s->node[e.rank], s->node[o->peer], (int64_t)o->size,
                            saturating_mul_i64((int64_t)(t + p->o), s->unit_ps), NETMODEL_P2P,
                            e.rank, (uint64_t)e.op, route_key((int)e.rank, (int)o->peer) };
        netmodel_start(s->nm, &nm);
      } else {
        entry m = { .time = t + p->o + p->L, .ts = s->ts++, .op = e.op, .rank = e.rank,
                    .kind = EV_MSG };
        heap_push(&s->q, &m);
      }
      if (o->size <= p->S)
        done(s, e.rank, e.op);
    } else {
      e.time = MAX(*cpu, *gap);
      heap_push(&s->q, &e);
    }
    break;
  }
  case EV_RECV: {
    started(s, e.rank, e.op);
    match_entry m;
    if (list_match(&s->pool, &s->uq[e.rank], o->peer, o->tag, &m)) {
      if (o->size > p->S) { /* rendezvous: the sender is done now */
        done(s, m.src, m.op);
        uint64_t *cpu = cpu_of(s, s->nexto, m.src, o->cpu);
        uint64_t *gap = nic_of(s, s->nextgs, m.src, o->nic);
        *cpu = MAX(*cpu, t);
        *gap = MAX(*gap, t);
      }
      done(s, e.rank, e.op);
    } else {
      match_entry x = { .size = o->size, .op = e.op, .src = o->peer, .tag = o->tag };
      list_append(&s->pool, &s->rq[e.rank], &x);
    }
    break;
  }
  case EV_MSG: {
    uint32_t to = o->peer, from = e.rank;
    uint64_t *cpu = cpu_of(s, s->nexto, to, o->cpu);
    uint64_t *gap = nic_of(s, s->nextgr, to, o->nic);
    if (MAX(*cpu, *gap) <= t) {
      uint64_t by_o = (o->size - 1) * p->O, by_g = (o->size - 1) * p->G;
      *cpu = t + p->o + MAX(by_o, by_g);
      *gap = t + p->g + by_g;
      match_entry m;
      if (list_match(&s->pool, &s->rq[to], from, o->tag, &m)) {
        if (o->size > p->S) {
          done(s, from, e.op);
          uint64_t *scpu = cpu_of(s, s->nexto, from, o->cpu);
          uint64_t *sgap = nic_of(s, s->nextgs, from, o->nic);
          *scpu = MAX(*scpu, t);
          *sgap = MAX(*sgap, t);
        }
        done(s, to, m.op);
      } else {
        match_entry x = { .size = o->size, .op = e.op, .src = from, .tag = o->tag };
        list_append(&s->pool, &s->uq[to], &x);
      }
    } else {
      e.time = MAX(*cpu, *gap);
      heap_push(&s->q, &e);
    }
    break;
  }
  }
  flush(s);
}

/* The largest time any step can reach is below the sum of every cost the
 * schedule can add; refuse schedules where that sum passes 2^62 units. */
static gboolean times_fit(const goal *g, const loggops_params *p, GError **error)
{
  int64_t total = 0, per_msg;
  uint64_t per_byte = MAX(p->G, p->O);
  gboolean ok = checked_add_i64((int64_t)(p->o * 2 + p->L), (int64_t)p->g, &per_msg);
  for (int64_t i = 0; ok && i < g->nops; i++) {
    const goal_op *o = &g->ops[i];
    int64_t cost = (int64_t)o->size;
    if (o->kind != GOAL_CALC)
      ok = checked_mul_i64((int64_t)o->size, (int64_t)per_byte, &cost) &&
           checked_add_i64(cost, per_msg, &cost);
    ok = ok && checked_add_i64(total, cost, &total) && total < ((int64_t)1 << 62);
  }
  if (!ok)
    g_set_error_literal(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                        "the schedule's times may pass 2^62 time units (sizes x G or calcs too "
                        "large), expected a schedule LogGOPSim can time without overflow");
  return ok;
}

/* What never ran: the first unmatched message or receive, or stuck operation. */
static void say_unfinished(sim *s, GError **error)
{
  const goal *g = s->g;
  for (int r = 0; r < g->nranks; r++) {
    if (s->rq[r].head >= 0) {
      const match_entry *m = &s->pool.e[s->rq[r].head];
      g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                  "rank %d: operation l%" G_GINT64_FORMAT " (recv from %d tag %d) never matched a "
                  "send, expected a send for every receive",
                  r, m->op - g->first[r] + 1, m->src == GOAL_ANY ? -1 : (int)m->src,
                  m->tag == GOAL_ANY ? -1 : (int)m->tag);
      return;
    }
    if (s->uq[r].head >= 0) {
      const match_entry *m = &s->pool.e[s->uq[r].head];
      g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                  "rank %d: a message from rank %u tag %d (its operation l%" G_GINT64_FORMAT
                  ") never matched a receive, expected a receive for every send",
                  r, m->src, m->tag == GOAL_ANY ? -1 : (int)m->tag,
                  m->op - g->first[m->src] + 1);
      return;
    }
  }
  for (int r = 0; r < g->nranks; r++)
    for (int64_t i = g->first[r]; i < g->first[r + 1]; i++)
      if (s->deps[i] > 0) {
        g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                    "rank %d: operation l%" G_GINT64_FORMAT " never ran (a dependency never "
                    "completed, or a cycle), expected dependencies that can complete",
                    r, i - g->first[r] + 1);
        return;
      }
  g_set_error_literal(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                      "a rendezvous send never completed, expected a receive for every send");
}

/* The platform of loggops_run_platform: where ranks are, the model the
 * messages cross, and what the run leaves (NULL in loggops_run). */
typedef struct net_run {
  const platform *p;
  const int *node;
  const struct netmodel_ops *model;
  linkrec *rec;
  int64_t unit_ps;
  replay_result *res;        /* the model's part of the result, on success */
} net_run;

/* A message `ev->b` (its send; a: the sender) arrived at ev->time ps: it
 * joins the queue at the next whole unit with the number its send gave it. */
static void deliver(void *ctx, engine *e, const engine_event *ev)
{
  sim *s = ctx;
  (void)e;
  uint64_t t = (uint64_t)(ev->time / s->unit_ps) + (ev->time % s->unit_ps != 0);
  entry m = { .time = t, .ts = s->msg_ts[ev->b], .op = (int64_t)ev->b, .rank = ev->a,
              .kind = EV_MSG };
  heap_push(&s->q, &m);
}

static gboolean run(const goal *g, const loggops_params *p, const progress *pr, net_run *net,
                    loggops_result *out, GError **error)
{
  *out = (loggops_result){ .nranks = g->nranks };
  if (!times_fit(g, p, error))
    return FALSE;
  sim s = { .g = g, .p = p, .ncpu = g->max_cpu + 1, .nnic = g->max_nic + 1 };
  /* the clocks, the counters, the lists' heads; the queue and pool grow */
  int64_t per_rank = (int64_t)s.ncpu * 8 + (int64_t)s.nnic * 16 + 2 * (int64_t)sizeof(match_list);
  if (!budget_check_array("the LogGOPS replay's ranks", (uint64_t)g->nranks, (uint64_t)per_rank,
                          error) ||
      !budget_check_array("the LogGOPS replay's operations", (uint64_t)g->nops,
                          sizeof(uint32_t) + 2 * sizeof(entry), error))
    return FALSE;
  s.nexto = g_new0(uint64_t, (gsize)g->nranks * (gsize)s.ncpu);
  s.nextgs = g_new0(uint64_t, (gsize)g->nranks * (gsize)s.nnic);
  s.nextgr = g_new0(uint64_t, (gsize)g->nranks * (gsize)s.nnic);
  s.deps = g_memdup2(g->ndeps, sizeof(uint32_t) * (gsize)MAX(g->nops, 1));
  s.rq = g_new(match_list, (gsize)g->nranks);
  s.uq = g_new(match_list, (gsize)g->nranks);
  for (int r = 0; r < g->nranks; r++)
    s.rq[r] = s.uq[r] = (match_list){ -1, -1 };
  s.pool.free = -1;
  s.ready = g_array_new(FALSE, FALSE, sizeof(ready));
  gboolean ok = TRUE;
  int64_t events = 0;
  if (net) {
    s.eng = engine_new((size_t)g->nranks * 4 + 1024);
    s.node = net->node;
    s.unit_ps = net->unit_ps;
    s.msg_ts = g_new(uint64_t, (gsize)MAX(g->nops, 1));
    uint32_t kind = engine_register(s.eng, deliver, &s);
    if (!(s.nm = netmodel_new(net->model, net->p, s.eng, kind, error))) {
      ok = FALSE;
      goto done;
    }
    s.nm->rec = net->rec;
  }

  /* the roots of every rank, at time 0 */
  for (int r = 0; r < g->nranks; r++) {
    for (int64_t i = g->first[r]; i < g->first[r + 1]; i++)
      if (g->ndeps[i] == 0)
        g_array_append_val(s.ready, ((ready){ (uint32_t)r, (uint32_t)(i - g->first[r]) }));
    flush(&s);
  }

  while (s.q.n > 0 || (s.eng && engine_next_time(s.eng) < INT64_MAX)) {
    /* on a platform, the network's events up to the next operation's time
     * first: an arrival then joins the queue before anything later runs */
    if (s.eng && engine_next_time(s.eng) < INT64_MAX &&
        (s.q.n == 0 ||
         engine_next_time(s.eng) <= saturating_mul_i64((int64_t)MIN(s.q.e[0].time,
                                                                     (uint64_t)INT64_MAX),
                                                       s.unit_ps))) {
      engine_event ev;
      engine_pop(s.eng, &ev);
      engine_dispatch(s.eng, &ev);
      continue;
    }
    step(&s, heap_pop(&s.q));
    if ((++events & 0xfffff) == 0) {
      progress_report(pr, "loggops: operations", (uint64_t)s.done_ops, (uint64_t)g->nops);
      if (!(ok = progress_check(pr, error)))
        break;
    }
  }
  if (ok && s.eng && (s.eng->overflow || s.nm->overflow)) {
    g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                s.eng->overflow ? "simulated time exceeds " CHECKED_PS_LIMIT " (check the "
                                  "platform's bandwidths and latencies)"
                                : "the network model's counters exceed 2^63 - 1");
    ok = FALSE;
  }
  if (ok && s.done_ops != g->nops) {
    say_unfinished(&s, error);
    ok = FALSE;
  }
  if (ok) {
    out->finish = g_new0(uint64_t, (gsize)MAX(g->nranks, 1));
    for (int r = 0; r < g->nranks; r++) {
      for (int c = 0; c < s.ncpu; c++)
        out->finish[r] = MAX(out->finish[r], *cpu_of(&s, s.nexto, (uint32_t)r, c));
      if (out->finish[r] > out->makespan) {
        out->makespan = out->finish[r];
        out->host = r;
      }
    }
    out->events = events;
    for (int64_t i = 0; i < g->nops; i++)
      out->messages += g->ops[i].kind == GOAL_SEND;
    if (net) {
      if (net->rec)
        linkrec_settle(net->rec);
      net->res = g_new0(replay_result, 1);
      net->res->makespan_ps = saturating_mul_i64((int64_t)out->makespan, s.unit_ps);
      net->res->engine_events = s.eng->handled;
      replay_collect_model(s.nm, net->p, net->res);
    }
  }
done:
  netmodel_free(s.nm);
  engine_free(s.eng);
  g_free(s.msg_ts);
  g_free(s.nexto);
  g_free(s.nextgs);
  g_free(s.nextgr);
  g_free(s.deps);
  g_free(s.rq);
  g_free(s.uq);
  g_free(s.q.e);
  g_free(s.pool.e);
  g_array_free(s.ready, TRUE);
  return ok;
}

gboolean loggops_run(const goal *g, const loggops_params *p, const progress *pr,
                     loggops_result *out, GError **error)
{
  return run(g, p, pr, NULL, out, error);
}

replay_result *loggops_run_platform(const goal *g, const loggops_params *p, const platform *pl,
                                    const mapping *m, const replay_opts *o, GError **error)
{
  const struct netmodel_ops *model = netmodel_find(p->net);
  double unit_ps = p->unit_s * 1e12;
  if (!model) {
    g_autofree char *names = netmodel_names();
    g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                "--model loggops:net=%s: no such network model, expected one of %s", p->net,
                names);
    return NULL;
  }
  if (!(unit_ps >= 1 && unit_ps < 1e15 && fabs(unit_ps - round(unit_ps)) < 1e-6 * unit_ps)) {
    g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                "--model loggops: unit %g s, expected a whole number of picoseconds on a "
                "platform (its network times are picoseconds)", p->unit_s);
    return NULL;
  }
  if (o && (o->record_times || o->on_record)) {
    g_set_error_literal(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SPEC,
                        "a GOAL schedule has no trace records to time, expected no output "
                        "trace or record timeline");
    return NULL;
  }
  for (int64_t i = 0; i < g->nops; i++)
    if (g->ops[i].kind == GOAL_SEND && g->ops[i].size > (uint64_t)INT64_MAX) {
      g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                  "operation %" G_GINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes, expected at "
                  "most 2^63 - 1 on a platform", i, g->ops[i].size);
      return NULL;
    }
  if (!replay_check_placement(g->nranks, pl, m, error))
    return NULL;
  net_run net = { .p = pl, .node = m->node, .model = model, .rec = o ? o->links : NULL,
                  .unit_ps = (int64_t)round(unit_ps) };
  loggops_result r;
  if (!run(g, p, o ? o->progress : NULL, &net, &r, error))
    return NULL;
  replay_result *res = net.res;
  int64_t cost;
  if (res->makespan_ps == INT64_MAX || !checked_mul_i64(res->makespan_ps, g->nranks, &cost)) {
    g_set_error(error, LOGGOPS_ERROR, LOGGOPS_ERROR_SCHEDULE,
                "simulated time exceeds " CHECKED_PS_LIMIT " (makespan %" G_GUINT64_FORMAT
                " units of %g s)", r.makespan, p->unit_s);
    loggops_result_clear(&r);
    replay_result_free(res);
    return NULL;
  }
  res->nranks = g->nranks;
  res->parallel_cost_ps = cost;
  res->events = g->nops;
  res->per_rank = g_new0(replay_rank_stats, (gsize)MAX(g->nranks, 1));
  for (int rk = 0; rk < g->nranks; rk++) {
    replay_rank_stats *st = &res->per_rank[rk];
    st->finish_ps = saturating_mul_i64((int64_t)r.finish[rk], net.unit_ps);
    for (int64_t i = g->first[rk]; i < g->first[rk + 1]; i++)
      if (g->ops[i].kind == GOAL_CALC)
        st->compute_ps = saturating_add_i64(
            st->compute_ps, saturating_mul_i64((int64_t)MIN(g->ops[i].size, (uint64_t)INT64_MAX),
                                               net.unit_ps));
  }
  loggops_result_clear(&r);
  return res;
}
