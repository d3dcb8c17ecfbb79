/* loggops-trace.c - an MPI trace as a GOAL schedule (goal_of_trace,
 * loggops.h), for `simulate --model loggops` and `export goal`.
 *
 * Rank by rank, records in order, with a chain: each new operation
 * requires the one before it (irequires it when that one is nonblocking)
 * and the ends of the nonblocking operations completed since (a wait). A
 * nonblocking receive is created where it is posted, with the source, tag
 * and size of its completion record (found by its request in one pass over
 * the rank first). Collectives become their algorithm's messages
 * (collectives.h): the receives posted when the call starts, round k's
 * sends after round k-1's receives (a calc 0 joins each round), the call's
 * end a calc 0 after everything. Collective tags are COLL_TAG + the call's
 * number on its communicator, above the tags traces use.
 */
#include "sim/loggops.h"

#include <math.h>
#include <string.h>

#include "traces/trace-colls.h"

#define COLL_TAG 0x40000000u

typedef struct conv {
  goal *g;
  int rank;
  int64_t prev;          /* the chain's last operation (within the rank), -1 none */
  gboolean prev_start;   /* it is nonblocking: the next irequires it */
  GArray *waits;         /* uint32: completed nonblocking operations to require */
  GError **error;
} conv;

/* FALSE (and the error) when a message's peer is not a rank of the trace. */
static gboolean peer_ok(conv *c, const goal_op *op)
{
  if (op->kind == GOAL_CALC || op->peer < (uint32_t)c->g->nranks)
    return TRUE;
  g_set_error(c->error, GOAL_ERROR, GOAL_ERROR_PARSE,
              "rank %d: a message %s rank %d, expected a rank of the trace (0..%d)", c->rank,
              op->kind == GOAL_SEND ? "to" : "from", (int)op->peer, c->g->nranks - 1);
  return FALSE;
}

/* Appends `op` after the chain; returns its index or -1. */
static int64_t chain(conv *c, const goal_op *op, gboolean nonblocking)
{
  if (!peer_ok(c, op))
    return -1;
  int64_t i = goal_add_op(c->g, c->rank, op, c->error);
  if (i < 0)
    return -1;
  if (c->prev >= 0 && !goal_add_dep(c->g, (uint32_t)i, (uint32_t)c->prev, c->prev_start, c->error))
    return -1;
  for (guint k = 0; k < c->waits->len; k++)
    if (!goal_add_dep(c->g, (uint32_t)i, g_array_index(c->waits, uint32_t, k), FALSE, c->error))
      return -1;
  g_array_set_size(c->waits, 0);
  c->prev = i;
  c->prev_start = nonblocking;
  return i;
}

static uint64_t units_of(int64_t ps, double unit_s)
{
  double u = (double)ps * 1e-12 / unit_s;
  return u > 0 ? (uint64_t)llround(u) : 0;
}

/* A free-standing operation (no chain), with its dependencies. */
static int64_t loose(conv *c, const goal_op *op)
{
  return peer_ok(c, op) ? goal_add_op(c->g, c->rank, op, c->error) : -1;
}

/* One collective call of rank c->rank: its messages by round. */
static gboolean collective(conv *c, const trace *t, const trace_colls *tc,
                           const coll_choice *choice, uint32_t comm, int64_t k)
{
  int P = t->comms[comm].self ? 1 : t->comms[comm].size;
  int me = trace_comm_rank(t, comm, c->rank);
  if (P <= 1 || me < 0)
    return TRUE;
  g_autofree int64_t *bytes = g_new0(int64_t, (gsize)P);
  int root = 0, op = 0;
  trace_colls_call(tc, t, comm, k, bytes, &root, &op);
  GArray *msgs = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  gboolean ok = coll_schedule_choice(choice, (coll_op)op, P, root, bytes, msgs, c->error);
  uint32_t tag = COLL_TAG + (uint32_t)(k & 0x3fffffff);
  /* the start: a calc 0 on the chain, everything of the call after it */
  goal_op zero = { .kind = GOAL_CALC };
  int64_t start = ok ? chain(c, &zero, FALSE) : -1;
  ok = start >= 0;
  int64_t join = start; /* what round k's sends wait for */
  GArray *ends = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  GArray *round_recvs = g_array_new(FALSE, FALSE, sizeof(uint32_t));
  for (guint i = 0; ok && i < msgs->len;) {
    int round = g_array_index(msgs, coll_msg, i).round;
    g_array_set_size(round_recvs, 0);
    for (; ok && i < msgs->len && g_array_index(msgs, coll_msg, i).round == round; i++) {
      const coll_msg *m = &g_array_index(msgs, coll_msg, i);
      if (m->src != me && m->dst != me)
        continue;
      gboolean send = m->src == me;
      int peer = trace_comm_world_rank(t, comm, c->rank, send ? m->dst : m->src);
      goal_op o = { .kind = send ? GOAL_SEND : GOAL_RECV, .size = (uint64_t)MAX(m->bytes, 0),
                    .peer = (uint32_t)peer, .tag = tag };
      int64_t x = loose(c, &o);
      ok = x >= 0 && goal_add_dep(c->g, (uint32_t)x, (uint32_t)(send ? join : start), FALSE,
                                  c->error);
      uint32_t ux = (uint32_t)x;
      g_array_append_val(send ? ends : round_recvs, ux);
    }
    if (ok && round_recvs->len > 0) { /* the next round's sends wait for these */
      int64_t j = loose(c, &zero);
      ok = j >= 0 && goal_add_dep(c->g, (uint32_t)j, (uint32_t)join, FALSE, c->error);
      for (guint r = 0; ok && r < round_recvs->len; r++)
        ok = goal_add_dep(c->g, (uint32_t)j, g_array_index(round_recvs, uint32_t, r), FALSE,
                          c->error);
      join = j;
    }
  }
  /* the end: after the last join and every send */
  if (ok) {
    c->prev = join;
    c->prev_start = FALSE;
    g_array_append_vals(c->waits, ends->data, ends->len);
  }
  g_array_free(ends, TRUE);
  g_array_free(round_recvs, TRUE);
  g_array_free(msgs, TRUE);
  return ok;
}

/* The index of each IRECV_REQUEST's completion record (IRECV with the same
 * request, after it), -1 when there is none. */
static int64_t *irecv_completions(const trace_rank *tr)
{
  int64_t *link = g_new(int64_t, (gsize)MAX(tr->nevents, 1));
  g_autoptr(GHashTable) open = g_hash_table_new(g_int64_hash, g_int64_equal);
  for (int64_t i = 0; i < tr->nevents; i++) {
    const trace_event *e = &tr->events[i];
    link[i] = -1;
    if (e->kind == TRACE_IRECV_REQUEST)
      g_hash_table_insert(open, (gpointer)&e->request, GSIZE_TO_POINTER((gsize)i + 1));
    else if (e->kind == TRACE_IRECV) {
      gpointer at = g_hash_table_lookup(open, &e->request);
      if (at) {
        link[GPOINTER_TO_SIZE(at) - 1] = i;
        g_hash_table_remove(open, &e->request);
      }
    }
  }
  return link;
}

static gboolean convert_rank(conv *c, const trace *t, const trace_colls *tc,
                             const coll_choice *choice, double unit_s, int64_t *ncalls)
{
  const trace_rank *tr = &t->ranks[c->rank];
  g_autofree int64_t *link = irecv_completions(tr);
  g_autoptr(GHashTable) live = g_hash_table_new(g_int64_hash, g_int64_equal); /* request -> op + 1 */
  g_autofree gboolean *posted = g_new0(gboolean, (gsize)MAX(tr->nevents, 1));
  int64_t outside = 0; /* when the rank last left MPI (the trace starts outside) */
  int depth = 0;
  for (int64_t i = 0; i < tr->nevents; i++) {
    const trace_event *e = &tr->events[i];
    goal_op op = { 0 };
    switch (e->kind) {
    case TRACE_ENTER:
      if (depth++ == 0 && e->time > outside) {
        op = (goal_op){ .kind = GOAL_CALC, .size = units_of(e->time - outside, unit_s) };
        if (op.size > 0 && chain(c, &op, FALSE) < 0)
          return FALSE;
      }
      break;
    case TRACE_LEAVE:
      if (depth > 0 && --depth == 0)
        outside = e->time;
      break;
    case TRACE_SEND:
    case TRACE_RECV:
    case TRACE_ISEND: {
      gboolean send = e->kind != TRACE_RECV;
      op = (goal_op){ .kind = send ? GOAL_SEND : GOAL_RECV, .size = (uint64_t)MAX(e->bytes, 0),
                      .peer = (uint32_t)e->peer, .tag = e->tag };
      int64_t x = chain(c, &op, e->kind == TRACE_ISEND);
      if (x < 0)
        return FALSE;
      if (e->kind == TRACE_ISEND)
        g_hash_table_insert(live, (gpointer)&e->request, GSIZE_TO_POINTER((gsize)x + 1));
      break;
    }
    case TRACE_IRECV_REQUEST: {
      if (link[i] < 0)
        break; /* never completed: nothing arrives */
      const trace_event *done = &tr->events[link[i]];
      op = (goal_op){ .kind = GOAL_RECV, .size = (uint64_t)MAX(done->bytes, 0),
                      .peer = (uint32_t)done->peer, .tag = done->tag };
      int64_t x = chain(c, &op, TRUE);
      if (x < 0)
        return FALSE;
      posted[link[i]] = TRUE;
      g_hash_table_insert(live, (gpointer)&done->request, GSIZE_TO_POINTER((gsize)x + 1));
      break;
    }
    case TRACE_IRECV:
      if (!posted[i]) { /* no request record: a receive here */
        op = (goal_op){ .kind = GOAL_RECV, .size = (uint64_t)MAX(e->bytes, 0),
                        .peer = (uint32_t)e->peer, .tag = e->tag };
        if (chain(c, &op, FALSE) < 0)
          return FALSE;
        break;
      }
      /* the completion of a posted receive */
      G_GNUC_FALLTHROUGH;
    case TRACE_ISEND_COMPLETE: {
      gpointer at = g_hash_table_lookup(live, &e->request);
      if (at) {
        uint32_t x = (uint32_t)(GPOINTER_TO_SIZE(at) - 1);
        g_array_append_val(c->waits, x);
        g_hash_table_remove(live, &e->request);
      }
      break;
    }
    case TRACE_COLL_END:
    case TRACE_NBCOLL_COMPLETE:
      if (e->op < COLL_NOPS && e->comm < (uint32_t)t->ncomms) {
        int64_t k = ncalls[e->comm]++;
        if (!collective(c, t, tc, choice, e->comm, k))
          return FALSE;
      }
      break;
    default:
      break;
    }
  }
  return TRUE;
}

goal *goal_of_trace(const trace *t, double unit_s, const coll_choice *choice, GError **error)
{
  coll_choice auto_choice = { 0 };
  if (!choice)
    choice = &auto_choice;
  goal *g = goal_new(t->nranks);
  trace_colls *tc = trace_colls_new(t->nranks, t->ncomms);
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++)
      trace_colls_add(tc, r, &t->ranks[r].events[i]);
  conv c = { .g = g, .waits = g_array_new(FALSE, FALSE, sizeof(uint32_t)), .error = error };
  int64_t *ncalls = g_new0(int64_t, (gsize)MAX(t->ncomms, 1));
  gboolean ok = TRUE;
  for (int r = 0; ok && r < t->nranks; r++) {
    c.rank = r;
    c.prev = -1;
    c.prev_start = FALSE;
    g_array_set_size(c.waits, 0);
    memset(ncalls, 0, sizeof(int64_t) * (gsize)MAX(t->ncomms, 1));
    ok = convert_rank(&c, t, tc, choice, unit_s, ncalls);
  }
  ok = ok && goal_finish(g, error);
  g_free(ncalls);
  g_array_free(c.waits, TRUE);
  trace_colls_free(tc);
  if (!ok)
    g_clear_pointer(&g, goal_free);
  return g;
}
