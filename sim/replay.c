/* replay.c - MPI replay of a trace on the engine, through a network model.
 *
 * korndoerfer2021 Sections 5.3 and 7.3; semantics in sim/replay.h. Each
 * rank is a cursor over its records with a local clock; it runs ahead on
 * its own (computation, overheads, sends) until it must wait for a partner,
 * then blocks until a completion wakes it (one RESUME event). Everything a
 * rank starts carries an explicit time, and every completion takes the max
 * of the times it depends on, so the order in which ranks run never changes
 * the result. Requests and messages are pooled records (index free lists);
 * channels (src, dst, comm, tag) live in an open-addressing hash table,
 * fronted by a small per-rank cache of the channels each rank uses (a halo
 * exchange finds its channel at the first probe, in memory the rank already
 * touches); the replay runs its own event loop (engine_pop) and prefetches
 * what the next event will touch; nothing is allocated per event in the
 * steady state. Collectives are expanded with coll_schedule() into
 * instances shared by their members.
 * Files: this one the ranks, point-to-point and the event loop;
 * replay-setup.c the entry points and the state of a run; replay-window.c
 * the records of a streamed rank in windows; replay-coll.c collectives;
 * replay-report.c the results.
 * Not for: timing rules (models/), printing.
 */
#include "sim/replay-private.h"

#include <math.h>
#include <string.h>

/* ---- pools ------------------------------------------------------------- */

static uint32_t op_alloc(replay *R, int rank, int64_t time)
{
  uint32_t i = R->free_op;
  if (i != NONE) {
    R->free_op = R->ops[i].next;
  } else {
    if (R->nops == R->capops) {
      R->capops = R->capops ? 2 * R->capops : 1024;
      R->ops = g_renew(op, R->ops, R->capops);
    }
    i = R->nops++;
  }
  R->ops[i] = (op){ .time = time, .msg = NONE, .next = NONE, .rank = rank };
  return i;
}

static void op_free(replay *R, uint32_t i)
{
  R->ops[i].next = R->free_op;
  R->free_op = i;
}

static uint32_t msg_alloc(replay *R)
{
  uint32_t i = R->free_msg;
  if (i != NONE) {
    R->free_msg = R->msgs[i].next;
  } else {
    if (R->nmsgs == R->capmsgs) {
      R->capmsgs = R->capmsgs ? 2 * R->capmsgs : 1024;
      R->msgs = g_renew(msg, R->msgs, R->capmsgs);
    }
    i = R->nmsgs++;
  }
  return i;
}

static void msg_free(replay *R, uint32_t i)
{
  R->msgs[i].next = R->free_msg;
  R->free_msg = i;
}

/* ---- channels: open addressing, linear probing, load <= 1/2 ------------ */

static inline uint32_t chan_hash(uint32_t s, uint32_t d, uint32_t c, uint32_t t)
{
  uint64_t h = ((uint64_t)s << 32 | d) * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)c << 32 | t) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 29;
  return (uint32_t)(h ^ (h >> 32));
}

static void chan_rehash(replay *R)
{
  g_free(R->slots);
  R->nslots = R->nslots ? 2 * R->nslots : 1024;
  R->slots = g_new(uint32_t, R->nslots);
  memset(R->slots, 0xff, sizeof(uint32_t) * R->nslots);
  for (uint32_t i = 0; i < R->nchans; i++) {
    const chan *c = &R->chans[i];
    uint32_t h = chan_hash(c->src, c->dst, c->comm, c->tag) & (R->nslots - 1);
    while (R->slots[h] != NONE)
      h = (h + 1) & (R->nslots - 1);
    R->slots[h] = i;
  }
}

static chan *chan_get(replay *R, uint32_t s, uint32_t d, uint32_t cm, uint32_t tg)
{
  uint32_t mask = R->nslots - 1;
  uint32_t h = chan_hash(s, d, cm, tg) & mask;
  for (;; h = (h + 1) & mask) {
    uint32_t i = R->slots[h];
    if (i == NONE)
      break;
    chan *c = &R->chans[i];
    if (c->src == s && c->dst == d && c->comm == cm && c->tag == tg)
      return c;
  }
  if (R->nchans == R->capchans) {
    R->capchans = R->capchans ? 2 * R->capchans : 1024;
    R->chans = g_renew(chan, R->chans, R->capchans);
  }
  uint32_t i = R->nchans++;
  R->chans[i] = (chan){ s, d, cm, tg, NONE, NONE, NONE, NONE };
  R->slots[h] = i;
  if (2 * R->nchans > R->nslots)
    chan_rehash(R);
  return &R->chans[i];
}

/* The channel `rank` sends on to `peer` (recv 0) or receives on from it
 * (recv 1): its per-rank cache first - a scan that starts after the last
 * hit, so a rank cycling through the same channels (halo exchanges) hits
 * at the first probe - then the hash table. Returns the channel index. */
static uint32_t chan_find(replay *R, rank_st *rs, int rank, uint32_t recv, uint32_t peer,
                          uint32_t cm, uint32_t tg)
{
  cc_ent *cc = &R->cc[(size_t)rank * CCACHE];
  uint32_t dcomm = cm | (recv ? CC_RECV : 0);
  int n = rs->ncc;
  for (int k = 0, i = rs->cc_last + 1; k < n; k++, i++) {
    if (i >= n)
      i = 0;
    if (cc[i].peer == peer && cc[i].tag == tg && cc[i].dcomm == dcomm) {
      rs->cc_last = (uint8_t)i;
      return cc[i].chan;
    }
  }
  chan *c = recv ? chan_get(R, peer, (uint32_t)rank, cm, tg)
                 : chan_get(R, (uint32_t)rank, peer, cm, tg);
  uint32_t ci = (uint32_t)(c - R->chans);
  int i = n < CCACHE ? rs->ncc++ : (rs->cc_last + 1) % CCACHE;
  cc[i] = (cc_ent){ peer, dcomm, tg, ci };
  rs->cc_last = (uint8_t)i;
  return ci;
}

/* ---- completions ------------------------------------------------------- */

static void op_done(replay *R, uint32_t oi, int64_t t)
{
  op *o = &R->ops[oi];
  o->done = 1;
  o->time = t;
  rank_st *rs = &R->ranks[o->rank];
  if (rs->state == RS_BLOCKED && rs->cur_coll == NONE && rs->cur_op == oi)
    wake(R, rs, o->rank, t);
}

/* A matched pair progresses as far as the times known allow. */
static void pair_progress(replay *R, uint32_t mi)
{
  msg *m = &R->msgs[mi];
  op *ro = &R->ops[m->recv_op];
  if (!m->rndv) {
    if (m->t_rts >= 0) { /* eager_start match: the data leaves now that both sides are there */
      int64_t t = MAX(m->t_rts, ro->time);
      m->t_rts = -1;
      net_start(R, m->src, m->dst, m->bytes, t, NETMODEL_P2P, PH_DATA, mi);
    } else if (m->t_data >= 0) {
      op_done(R, m->recv_op, saturating_add_i64(MAX(m->t_data, ro->time), R->o_recv));
      msg_free(R, mi);
    }
  } else if (m->t_rts >= 0 && R->sync) { /* the send is posted: no control message */
    net_start(R, m->src, m->dst, m->bytes, MAX(m->t_rts, ro->time), NETMODEL_P2P, PH_DATA, mi);
  } else if (m->t_rts >= 0) {
    net_start(R, m->dst, m->src, 0, MAX(m->t_rts, ro->time), NETMODEL_CTRL, PH_CTS, mi);
  }
}

static void pair(replay *R, uint32_t mi, uint32_t oi)
{
  R->msgs[mi].recv_op = oi;
  R->ops[oi].msg = mi;
  pair_progress(R, mi);
}

/* Advances the rank's clock by d >= 0; FALSE (R->error set) when it would
 * pass int64 picoseconds. */
static gboolean clock_advance(replay *R, rank_st *rs, int rank, int64_t d)
{
  if (G_LIKELY(checked_add_i64(rs->now, d, &rs->now) && rs->now < INT64_MAX))
    return TRUE;
  rs->now = INT64_MAX;
  if (!R->error)
    g_set_error(&R->error, REPLAY_ERROR, REPLAY_ERROR_OVERFLOW,
                "simulated time exceeds " CHECKED_PS_LIMIT " (rank %d at record %" G_GINT64_FORMAT
                "; check --compute-scale and the platform's bandwidths and latencies)", rank,
                rs->base + rs->pos);
  return FALSE;
}

/* ---- point-to-point ------------------------------------------------------ */

/* Starts a send of `ev` at the rank's clock; returns its request, or NONE
 * for a blocking eager send (complete at once). */
static uint32_t send_start(replay *R, rank_st *rs, int rank, const trace_event *ev,
                           gboolean blocking)
{
  if (!clock_advance(R, rs, rank, R->o_send))
    return NONE;
  uint32_t mi = msg_alloc(R);
  msg *m = &R->msgs[mi];
  *m = (msg){ .t_rts = -1, .t_data = -1, .bytes = ev->bytes, .send_op = NONE,
              .recv_op = NONE, .next = NONE, .src = rank, .dst = ev->peer,
              .comm = ev->comm, .tag = ev->tag, .rndv = ev->bytes > R->eager };
  uint32_t oi = NONE;
  if (!blocking || m->rndv)
    oi = op_alloc(R, rank, rs->now);
  if (m->rndv) {
    R->ops[oi].msg = mi;
    m->send_op = oi;
    if (R->sync)
      m->t_rts = rs->now;
    else
      net_start(R, rank, ev->peer, 0, rs->now, NETMODEL_CTRL, PH_RTS, mi);
  } else {
    if (oi != NONE)
      R->ops[oi].done = 1;
    if (R->eager_match)
      m->t_rts = rs->now;
    else
      net_start(R, rank, ev->peer, ev->bytes, rs->now, NETMODEL_P2P, PH_DATA, mi);
  }
  uint32_t ci = chan_find(R, rs, rank, 0, (uint32_t)ev->peer, ev->comm, ev->tag);
  chan *c = &R->chans[ci]; /* after the call: it may grow the table */
  if (c->recv_head != NONE) {
    uint32_t ro = c->recv_head;
    c->recv_head = R->ops[ro].next;
    pair(R, mi, ro);
  } else {
    if (c->send_tail == NONE)
      c->send_head = mi;
    else
      R->msgs[c->send_tail].next = mi;
    c->send_tail = mi;
    R->msgs[mi].next = NONE;
  }
  return oi;
}

/* Posts a receive with the envelope of `env` at the rank's clock. */
static uint32_t recv_post(replay *R, rank_st *rs, int rank, const trace_event *env)
{
  uint32_t oi = op_alloc(R, rank, rs->now);
  uint32_t ci = chan_find(R, rs, rank, 1, (uint32_t)env->peer, env->comm, env->tag);
  chan *c = &R->chans[ci];
  if (c->send_head != NONE) {
    uint32_t mi = c->send_head;
    c->send_head = R->msgs[mi].next;
    if (c->send_head == NONE)
      c->send_tail = NONE;
    pair(R, mi, oi);
  } else {
    if (c->recv_head == NONE)
      c->recv_head = oi;
    else
      R->ops[c->recv_tail].next = oi;
    c->recv_tail = oi;
  }
  return oi;
}

static void net_event(replay *R, const engine_event *ev)
{
  int64_t t = ev->time;
  if (ev->a == PH_COLL) {
    replay_coll_arrive(R, ev->b, t);
    return;
  }
  uint32_t mi = (uint32_t)ev->b;
  msg *m = &R->msgs[mi];
  switch (ev->a) {
  case PH_RTS:
    m->t_rts = t;
    if (m->recv_op != NONE)
      pair_progress(R, mi);
    break;
  case PH_CTS:
    net_start(R, m->src, m->dst, m->bytes, t, NETMODEL_P2P, PH_DATA, mi);
    break;
  case PH_DATA:
    m->t_data = t;
    if (m->rndv) {
      op_done(R, m->send_op, t);
      op_done(R, m->recv_op, saturating_add_i64(t, R->o_recv));
      msg_free(R, mi);
    } else if (m->recv_op != NONE) {
      pair_progress(R, mi);
    }
    break;
  }
}

static void drain_ready(replay *R);

static void on_net(void *ctx, engine *e, const engine_event *ev)
{
  replay *R = ctx;
  net_event(R, ev);
  drain_ready(R);
}

/* ---- the rank loop ------------------------------------------------------- */

static void pend_add(rank_st *rs, uint64_t req, uint32_t oi)
{
  if (rs->npend == rs->cappend) {
    rs->cappend = rs->cappend ? 2 * rs->cappend : 8;
    rs->pend = g_renew(pend, rs->pend, rs->cappend);
  }
  rs->pend[rs->npend++] = (pend){ req, oi };
}

/* Removes and returns the request `req`, NONE if not pending. O(pending). */
static uint32_t pend_take(rank_st *rs, uint64_t req)
{
  for (int i = rs->npend - 1; i >= 0; i--)
    if (rs->pend[i].req == req) {
      uint32_t oi = rs->pend[i].op;
      rs->pend[i] = rs->pend[--rs->npend];
      return oi;
    }
  return NONE;
}

/* Waits for request oi: TRUE when complete (clock advanced), FALSE when
 * the rank must block. */
static gboolean wait_op(replay *R, rank_st *rs, uint32_t oi)
{
  const op *o = &R->ops[oi];
  if (!o->done) {
    rs->cur_op = oi;
    rs->state = RS_BLOCKED;
    rs->block_since = rs->now;
    return FALSE;
  }
  if (o->time > rs->now) {
    rs->st.wait_ps += o->time - rs->now;
    rs->now = o->time;
  }
  rs->cur_op = NONE;
  return TRUE;
}

static gboolean drain_deferred(replay *R, rank_st *rs)
{
  while (rs->ndefer) {
    uint32_t oi = rs->defer[rs->ndefer - 1];
    if (!wait_op(R, rs, oi))
      return FALSE;
    op_free(R, oi);
    rs->ndefer--;
  }
  return TRUE;
}

static void region_close(replay *R, rank_st *rs)
{
  int64_t d = rs->now - rs->region_start;
  if (rs->region_cls == RC_COLL)
    rs->st.coll_ps += d;
  else if (rs->region_cls == RC_P2P)
    rs->st.p2p_ps += d;
  else
    rs->st.other_mpi_ps += d;
}

static inline void mark(rank_st *rs, int cls)
{
  if (rs->depth > 0 && rs->region_cls != RC_COLL)
    rs->region_cls = (uint8_t)cls;
}

static gboolean valid_peer(const replay *R, const trace_event *ev)
{
  return ev->peer >= 0 && ev->peer < R->t->nranks;
}

/* Replays one record; FALSE when the rank blocks inside it (stage kept). */
static gboolean do_record(replay *R, rank_st *rs, int rank, const trace_event *ev)
{
  uint32_t oi;
  switch (ev->kind) {
  case TRACE_ENTER:
    if (rs->depth++ == 0) {
      rs->region_start = rs->now;
      rs->region = (int)ev->region;
      rs->region_cls = (int)ev->region < R->t->nregions ? R->region_cls[ev->region] : RC_OTHER;
    }
    return TRUE;
  case TRACE_LEAVE:
    if (rs->depth == 1 && !drain_deferred(R, rs))
      return FALSE;
    if (rs->depth > 0 && --rs->depth == 0)
      region_close(R, rs);
    return TRUE;
  case TRACE_SEND:
    mark(rs, RC_P2P);
    if (rs->stage == 1) {
      if (!valid_peer(R, ev))
        return TRUE;
      oi = send_start(R, rs, rank, ev, TRUE);
      rs->stage = 2;
      if (oi == NONE)
        return TRUE;
      if (rs->depth > 0) {
        if (rs->ndefer == rs->capdefer) {
          rs->capdefer = rs->capdefer ? 2 * rs->capdefer : 4;
          rs->defer = g_renew(uint32_t, rs->defer, rs->capdefer);
        }
        rs->defer[rs->ndefer++] = oi;
        return TRUE;
      }
      rs->cur_op = oi;
    }
    break;
  case TRACE_ISEND:
    mark(rs, RC_P2P);
    if (valid_peer(R, ev))
      pend_add(rs, ev->request, send_start(R, rs, rank, ev, FALSE));
    return TRUE;
  case TRACE_IRECV_REQUEST: {
    mark(rs, RC_P2P);
    int64_t env = rs->irecv_cur < rs->nirecv ? rs->irecv_env[rs->irecv_cur++] : -1;
    if (env >= 0)
      pend_add(rs, ev->request, recv_post(R, rs, rank, &rs->ev[env]));
    return TRUE;
  }
  case TRACE_RECV:
  case TRACE_IRECV:
  case TRACE_ISEND_COMPLETE:
    mark(rs, RC_P2P);
    if (rs->stage == 1) {
      rs->stage = 2;
      oi = ev->kind == TRACE_RECV ? NONE : pend_take(rs, ev->request);
      if (oi == NONE && ev->kind != TRACE_ISEND_COMPLETE && valid_peer(R, ev))
        oi = recv_post(R, rs, rank, ev);
      if (oi == NONE)
        return TRUE;
      rs->cur_op = oi;
    }
    break;
  case TRACE_REQUEST_TEST:
    mark(rs, RC_P2P);
    return TRUE;
  case TRACE_REQUEST_CANCELLED:
    pend_take(rs, ev->request);
    return TRUE;
  case TRACE_COLL_BEGIN:
  case TRACE_NBCOLL_REQUEST:
    mark(rs, RC_COLL);
    return TRUE;
  case TRACE_COLL_END:
  case TRACE_NBCOLL_COMPLETE:
    if (rs->depth > 0)
      rs->region_cls = RC_COLL;
    if (rs->stage == 1) {
      rs->stage = 2;
      rs->cur_coll = replay_coll_join(R, rs, rank, ev);
      if (rs->cur_coll == NONE)
        return R->error == NULL;
    }
    if (replay_coll_wait(R, rs))
      return TRUE;
    rs->state = RS_BLOCKED;
    rs->block_since = rs->now;
    return FALSE;
  default:
    return TRUE;
  }
  /* stage 2 of a blocking point-to-point record: wait for cur_op */
  oi = rs->cur_op;
  if (!wait_op(R, rs, oi))
    return FALSE;
  op_free(R, oi);
  return TRUE;
}

static int64_t scaled_gap(const replay *R, int64_t gap)
{
  if (R->scale == 1.0 || gap <= 0)
    return MAX(gap, 0);
  return saturating_ps((double)gap * R->scale);
}


static void rank_run(replay *R, int rank)
{
  rank_st *rs = &R->ranks[rank];
  while (rs->pos < rs->nev || replay_refill(R, rs, rank)) {
    const trace_event *ev = &rs->ev[rs->pos];
    if (rs->stage == 0) {
      if (rs->depth == 0) {
        int64_t g = scaled_gap(R, ev->time - rs->prev_time);
        if (!clock_advance(R, rs, rank, g))
          return;
        rs->st.compute_ps += g; /* <= now: no overflow */
      }
      rs->stage = 1;
    }
    if (!do_record(R, rs, rank, ev))
      return;
    if (R->error)
      return;
    if (R->times)
      R->times[rank][rs->base + rs->pos] = rs->now;
    if (R->on_record)
      R->on_record(R->on_record_user, rank, ev, rs->now);
    rs->prev_time = ev->time;
    rs->pos++;
    rs->stage = 0;
  }
  if (!drain_deferred(R, rs))
    return;
  if (rs->depth > 0) /* unbalanced trace: close the open region */
    region_close(R, rs);
  rs->depth = 0;
  rs->state = RS_DONE;
  rs->st.finish_ps = rs->now;
}

static void resume(replay *R, uint32_t rank, int64_t t)
{
  rank_st *rs = &R->ranks[rank];
  if (rs->state == RS_DONE || R->error)
    return;
  if (t > rs->now) {
    if (rs->woken) /* blocked on a partner until now */
      rs->st.wait_ps += t - rs->now;
    rs->now = t;
  }
  rs->woken = 0;
  rs->state = RS_RUN;
  rank_run(R, (int)rank);
}

/* Runs the ranks woken at the current time, in wake order (deterministic). */
static void drain_ready(replay *R)
{
  while (R->nready) {
    uint32_t rank = R->ready[R->ready_head];
    if (++R->ready_head == (uint32_t)R->t->nranks)
      R->ready_head = 0;
    R->nready--;
    resume(R, rank, R->eng->now);
  }
}

static void on_resume(void *ctx, engine *e, const engine_event *ev)
{
  replay *R = ctx;
  resume(R, ev->a, ev->time);
  drain_ready(R);
}

/* Called once the clock passes the limit: a rank still unfinished ends at
 * this time or later, so the makespan exceeds the limit (an error that
 * stops the run); if every rank is done, the makespan is already known
 * and the rest runs without a limit. */
static gboolean past_limit(replay *R)
{
  for (int r = 0; r < R->t->nranks; r++)
    if (R->ranks[r].state != RS_DONE) {
      g_set_error(&R->error, REPLAY_ERROR, REPLAY_ERROR_LIMIT,
                  "the makespan exceeds the limit of %" G_GINT64_FORMAT " ps", R->limit);
      return TRUE;
    }
  R->limit = INT64_MAX;
  return FALSE;
}

/* The event loop: engine_run() with the replay's own kinds dispatched
 * directly (no indirect call), the model's kinds through the engine. While
 * an event runs, the state the next one will touch is prefetched: the
 * rank a RESUME wakes (its state and its next records, which live in a
 * different part of the trace than the rank running now) or the message a
 * network event completes. */
static void run_events(replay *R)
{
  engine *e = R->eng;
  engine_event ev;
  uint64_t total = 0;
  for (int r = 0; r < R->t->nranks; r++)
    total += (uint64_t)R->ranks[r].total;
  while (!R->error && !e->overflow && engine_pop(e, &ev)) {
    if (G_UNLIKELY(ev.time > R->limit) && past_limit(R))
      break;
    if (G_UNLIKELY((e->handled & 0xffff) == 0) && R->progress) {
      uint64_t done = 0;
      for (int r = 0; r < R->t->nranks; r++)
        done += (uint64_t)(R->ranks[r].base + R->ranks[r].pos);
      progress_report(R->progress, "replay: trace records", done, total);
      if (!progress_check(R->progress, &R->error))
        break;
    }
    const engine_event *nx = engine_peek(e);
    if (nx) {
      if (nx->kind == R->k_resume) {
        const rank_st *ns = &R->ranks[nx->a];
        __builtin_prefetch(ns);
        __builtin_prefetch(ns->ev + ns->pos);
      } else if (nx->kind == R->k_net && nx->a != PH_COLL) {
        __builtin_prefetch(&R->msgs[(uint32_t)nx->b]);
      }
    }
    if (ev.kind == R->k_net)
      net_event(R, &ev);
    else if (ev.kind == R->k_resume)
      resume(R, ev.a, ev.time);
    else
      engine_dispatch(e, &ev);
    drain_ready(R);
  }
}

void replay_engine_start(replay *R)
{
  chan_rehash(R);
  R->eng = engine_new((size_t)R->t->nranks * 4 + 1024);
  R->k_resume = engine_register(R->eng, on_resume, R);
  R->k_net = engine_register(R->eng, on_net, R);
}

void replay_run_events(replay *R, const int64_t *start_ps)
{
  for (int r = 0; r < R->t->nranks; r++)
    engine_schedule(R->eng, start_ps ? start_ps[r] : 0, R->k_resume, (uint32_t)r, 0);
  run_events(R);
}
