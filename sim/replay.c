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
 * Not for: timing rules (models/), printing.
 */
#include "sim/replay.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK(replay-error-quark, replay_error)

#define NONE UINT32_MAX

enum { PH_DATA, PH_RTS, PH_CTS, PH_COLL };
enum { RS_RUN, RS_BLOCKED, RS_DONE };
enum { RC_OTHER, RC_P2P, RC_COLL };

typedef struct op {      /* a request: one side of a message */
  int64_t time;          /* post time; completion time once done */
  uint32_t msg;          /* the matched message, or NONE */
  uint32_t next;         /* channel queue / free list */
  int32_t rank;
  uint8_t done;
} op;

typedef struct msg {     /* a point-to-point message */
  int64_t t_rts, t_data; /* arrival times, -1 until known */
  int64_t bytes;
  uint32_t send_op, recv_op;
  uint32_t next;         /* channel queue / free list */
  int32_t src, dst;      /* world ranks */
  uint32_t comm, tag;    /* for reports */
  uint8_t rndv;
} msg;

typedef struct chan {
  uint32_t src, dst, comm, tag;
  uint32_t send_head, send_tail; /* unmatched messages */
  uint32_t recv_head, recv_tail; /* unmatched receive requests */
} chan;

/* Per-rank channel cache: the channels a rank used last, so that the hot
 * path finds a channel without touching the shared hash table. `dcomm` is
 * the communicator (< 2^31, checked by the pre-pass) with bit 31 set when
 * the rank receives on the channel (peer = source), clear when it sends. */
#define CCACHE 16
#define CC_RECV 0x80000000u
typedef struct cc_ent {
  uint32_t peer, dcomm, tag, chan;
} cc_ent;

typedef struct pend {
  uint64_t req;
  uint32_t op;
} pend;

typedef struct coll_inst {
  uint32_t comm;
  int P, nrounds, nmsgs, left;  /* left: members that have not consumed it */
  int op, root;
  int64_t key;
  coll_msg *msgs;               /* sorted by round */
  int *world;                   /* P */
  int *out_off;                 /* P*nrounds+1: msgs of (src member, round) */
  int *out_idx;
  int *need, *got;              /* P*nrounds: incoming per (member, round) */
  int *round, *ready, *in_left; /* P */
  int64_t *t_join, *t_last, *t_done; /* P, -1 = not yet */
} coll_inst;

typedef struct rank_st {
  const trace_event *ev;
  int64_t nev, pos, now, block_since, region_start;
  uint32_t cur_op, cur_coll;
  int cur_member, depth, region;
  uint8_t state, stage, region_cls, woken;
  uint8_t ncc, cc_last;         /* channel cache: entries used, last hit */
  pend *pend;
  int npend, cappend;
  uint32_t *defer;
  int ndefer, capdefer;
  int64_t *irecv_env;           /* completion record of each Irecv request, or -1 */
  int64_t nirecv, irecv_cur;
  replay_rank_stats st;
} rank_st;

typedef struct replay {
  const trace *t;
  const platform *p;
  const int *node;              /* rank -> node */
  engine *eng;
  netmodel *model;
  uint32_t k_resume, k_net;
  double scale;
  int64_t o_send, o_recv, eager;
  rank_st *ranks;
  op *ops;
  uint32_t nops, capops, free_op;
  msg *msgs;
  uint32_t nmsgs, capmsgs, free_msg;
  chan *chans;
  uint32_t nchans, capchans;
  uint32_t *slots;              /* hash slots -> chan index, NONE = empty */
  uint32_t nslots;
  cc_ent *cc;                   /* [rank * CCACHE]: per-rank channel caches */
  const char *algo[COLL_NOPS];  /* per op, NULL = auto */
  GArray ***calls;              /* [rank][comm]: record index of each call, or NULL */
  int64_t *call_cur;            /* [rank * ncomms + comm] calls joined so far */
  GPtrArray *insts;             /* coll_inst*, index = id; NULL when free */
  GHashTable *inst_by_key;      /* key -> id + 1 */
  uint8_t *region_cls;          /* per region name: RC_* default */
  int64_t **times;              /* record_times: new time of every record */
  uint32_t *ready;              /* ring of nranks: ranks woken at the engine's time */
  uint32_t ready_head, nready;
  GError *error;                /* first fatal error inside a handler */
} replay;

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

/* Wakes a blocked rank at max(t, its clock): at the current engine time it
 * joins the ready ring (run when the current handler ends, no heap
 * traffic), later it gets a RESUME event. */
static void wake(replay *R, rank_st *rs, int rank, int64_t t)
{
  rs->state = RS_RUN;
  rs->woken = 1;
  int64_t at = MAX(t, rs->now);
  if (at == R->eng->now) {
    uint32_t slot = R->ready_head + R->nready++;
    R->ready[slot >= (uint32_t)R->t->nranks ? slot - (uint32_t)R->t->nranks : slot] = (uint32_t)rank;
    __builtin_prefetch(&rs->ev[rs->pos]);
  } else {
    engine_schedule(R->eng, at, R->k_resume, (uint32_t)rank, 0);
  }
}

static void op_done(replay *R, uint32_t oi, int64_t t)
{
  op *o = &R->ops[oi];
  o->done = 1;
  o->time = t;
  rank_st *rs = &R->ranks[o->rank];
  if (rs->state == RS_BLOCKED && rs->cur_coll == NONE && rs->cur_op == oi)
    wake(R, rs, o->rank, t);
}

static void net_start(replay *R, int from, int to, int64_t bytes, int64_t t,
                      netmodel_class cls, uint32_t phase, uint64_t token)
{
  netmodel_msg nm = { R->node[from], R->node[to], bytes, t, cls, phase, token };
  netmodel_start(R->model, &nm);
}

/* A matched pair progresses as far as the times known allow. */
static void pair_progress(replay *R, uint32_t mi)
{
  msg *m = &R->msgs[mi];
  op *ro = &R->ops[m->recv_op];
  if (!m->rndv) {
    if (m->t_data >= 0) {
      op_done(R, m->recv_op, MAX(m->t_data, ro->time) + R->o_recv);
      msg_free(R, mi);
    }
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

/* ---- point-to-point ------------------------------------------------------ */

/* Starts a send of `ev` at the rank's clock; returns its request, or NONE
 * for a blocking eager send (complete at once). */
static uint32_t send_start(replay *R, rank_st *rs, int rank, const trace_event *ev,
                           gboolean blocking)
{
  rs->now += R->o_send;
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
    net_start(R, rank, ev->peer, 0, rs->now, NETMODEL_CTRL, PH_RTS, mi);
  } else {
    if (oi != NONE)
      R->ops[oi].done = 1;
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

/* ---- collectives ----------------------------------------------------------- */

static void inst_free(coll_inst *ci)
{
  if (!ci)
    return;
  g_free(ci->msgs);
  g_free(ci->world);
  g_free(ci->out_off);
  g_free(ci->out_idx);
  g_free(ci->need);
  g_free(ci->got);
  g_free(ci->round);
  g_free(ci->ready);
  g_free(ci->in_left);
  g_free(ci->t_join);
  g_free(ci->t_last);
  g_free(ci->t_done);
  g_free(ci);
}

/* Builds instance `k` of communicator `comm` from every member's k-th call. */
static coll_inst *inst_build(replay *R, uint32_t comm, int64_t k, const trace_event *mine)
{
  const trace_comm *tc = &R->t->comms[comm];
  int P = tc->size;
  coll_inst *ci = g_new0(coll_inst, 1);
  ci->comm = comm;
  ci->P = P;
  ci->op = mine->op;
  ci->world = g_memdup2(tc->members, sizeof(int) * (size_t)P);
  int64_t *bytes = g_new0(int64_t, P);
  for (int j = 0; j < P; j++) {
    GArray *calls = R->calls[ci->world[j]][comm];
    if (!calls || (guint)k >= calls->len)
      continue; /* a member that never makes this call: it will be reported stuck */
    const trace_event *e = &R->t->ranks[ci->world[j]].events[g_array_index(calls, int64_t, k)];
    gboolean to_all = e->op == COLL_BCAST || e->op == COLL_SCATTER || e->op == COLL_SCATTERV;
    bytes[j] = to_all ? e->bytes_recv : e->bytes;
    if (e->peer == ci->world[j])
      ci->root = j;
  }
  if (ci->op == COLL_BCAST)
    for (int j = 0; j < P; j++)
      bytes[ci->root] = MAX(bytes[ci->root], bytes[j]);
  GArray *out = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  if (!coll_schedule((coll_op)ci->op, R->algo[ci->op], P, ci->root, bytes, out, &R->error)) {
    g_prefix_error(&R->error, "collective %s on communicator %u: ", coll_op_name(ci->op), comm);
    g_array_free(out, TRUE);
    g_free(bytes);
    inst_free(ci);
    return NULL;
  }
  g_free(bytes);
  ci->nmsgs = (int)out->len;
  ci->msgs = (coll_msg *)g_array_free(out, FALSE);
  int nr = ci->nrounds = MAX(coll_nrounds(ci->msgs, (size_t)ci->nmsgs), 1);
  ci->out_off = g_new0(int, (size_t)P * nr + 1);
  ci->out_idx = g_new(int, MAX(ci->nmsgs, 1));
  ci->need = g_new0(int, (size_t)P * nr);
  ci->got = g_new0(int, (size_t)P * nr);
  ci->in_left = g_new0(int, P);
  for (int i = 0; i < ci->nmsgs; i++) {
    const coll_msg *cm = &ci->msgs[i];
    ci->out_off[cm->src * nr + cm->round + 1]++;
    ci->need[cm->dst * nr + cm->round]++;
    ci->in_left[cm->dst]++;
  }
  for (int i = 0; i < P * nr; i++)
    ci->out_off[i + 1] += ci->out_off[i];
  int *fill = g_memdup2(ci->out_off, sizeof(int) * (size_t)P * nr);
  for (int i = 0; i < ci->nmsgs; i++) {
    const coll_msg *cm = &ci->msgs[i];
    ci->out_idx[fill[cm->src * nr + cm->round]++] = i;
  }
  g_free(fill);
  ci->round = g_new0(int, P);
  ci->ready = g_new0(int, P);
  ci->t_join = g_new(int64_t, P);
  ci->t_last = g_new(int64_t, P);
  ci->t_done = g_new(int64_t, P);
  for (int j = 0; j < P; j++) {
    ci->t_join[j] = ci->t_last[j] = ci->t_done[j] = -1;
    while (ci->ready[j] < nr && ci->need[j * nr + ci->ready[j]] == 0)
      ci->ready[j]++;
  }
  ci->left = P;
  return ci;
}

/* Sends what member j may send at time t; marks it done when finished. */
static void member_advance(replay *R, uint32_t id, coll_inst *ci, int j, int64_t t)
{
  int nr = ci->nrounds;
  t = MAX(t, ci->t_join[j]);
  while (ci->round[j] < nr && ci->round[j] <= ci->ready[j]) {
    int k = ci->round[j]++;
    for (int x = ci->out_off[j * nr + k]; x < ci->out_off[j * nr + k + 1]; x++) {
      int i = ci->out_idx[x];
      const coll_msg *cm = &ci->msgs[i];
      net_start(R, ci->world[cm->src], ci->world[cm->dst], cm->bytes, t, NETMODEL_COLL,
                PH_COLL, (uint64_t)id << 32 | (uint32_t)i);
    }
  }
  if (ci->round[j] == nr && ci->in_left[j] == 0 && ci->t_done[j] < 0) {
    ci->t_done[j] = MAX(ci->t_join[j], ci->t_last[j]);
    rank_st *rs = &R->ranks[ci->world[j]];
    if (rs->state == RS_BLOCKED && rs->cur_coll == id)
      wake(R, rs, ci->world[j], ci->t_done[j]);
  }
}

static void coll_arrive(replay *R, uint64_t token, int64_t t)
{
  uint32_t id = (uint32_t)(token >> 32);
  coll_inst *ci = g_ptr_array_index(R->insts, id);
  const coll_msg *cm = &ci->msgs[(uint32_t)token];
  int d = cm->dst, nr = ci->nrounds;
  ci->got[d * nr + cm->round]++;
  ci->in_left[d]--;
  ci->t_last[d] = MAX(ci->t_last[d], t);
  while (ci->ready[d] < nr && ci->got[d * nr + ci->ready[d]] == ci->need[d * nr + ci->ready[d]])
    ci->ready[d]++;
  if (ci->t_join[d] >= 0)
    member_advance(R, id, ci, d, t);
}

/* Joins rank's next call on ev->comm; returns the instance id, or NONE when
 * the call costs nothing (single member, "other" ops) or failed (R->error). */
static uint32_t coll_join(replay *R, rank_st *rs, int rank, const trace_event *ev)
{
  const trace_comm *tc = &R->t->comms[ev->comm];
  if (ev->op >= COLL_NOPS || tc->self || tc->size <= 1)
    return NONE;
  int64_t k = R->call_cur[(size_t)rank * R->t->ncomms + ev->comm]++;
  int64_t key = (int64_t)ev->comm << 40 | k;
  gpointer v = g_hash_table_lookup(R->inst_by_key, &key);
  uint32_t id;
  coll_inst *ci;
  if (v) {
    id = (uint32_t)(GPOINTER_TO_UINT(v) - 1);
    ci = g_ptr_array_index(R->insts, id);
  } else {
    if (!(ci = inst_build(R, ev->comm, k, ev)))
      return NONE;
    ci->key = key;
    id = R->insts->len;
    g_ptr_array_add(R->insts, ci);
    g_hash_table_insert(R->inst_by_key, &ci->key, GUINT_TO_POINTER(id + 1));
  }
  int j = 0;
  while (j < ci->P && ci->world[j] != rank)
    j++;
  if (j == ci->P) {
    g_set_error(&R->error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "rank %d record %" G_GINT64_FORMAT ": collective on communicator %u, "
                "which does not contain the rank", rank, rs->pos, ev->comm);
    return NONE;
  }
  rs->cur_member = j;
  ci->t_join[j] = rs->now;
  ci->t_last[j] = MAX(ci->t_last[j], rs->now);
  member_advance(R, id, ci, j, rs->now);
  return id;
}

/* Member done? Then consume it (free the instance after its last member). */
static gboolean coll_wait(replay *R, rank_st *rs)
{
  coll_inst *ci = g_ptr_array_index(R->insts, rs->cur_coll);
  int64_t done = ci->t_done[rs->cur_member];
  if (done < 0)
    return FALSE;
  if (done > rs->now) {
    rs->st.wait_ps += done - rs->now;
    rs->now = done;
  }
  if (--ci->left == 0) {
    g_hash_table_remove(R->inst_by_key, &ci->key);
    g_ptr_array_index(R->insts, rs->cur_coll) = NULL;
    inst_free(ci);
  }
  rs->cur_coll = NONE;
  return TRUE;
}

static void net_event(replay *R, const engine_event *ev)
{
  int64_t t = ev->time;
  if (ev->a == PH_COLL) {
    coll_arrive(R, ev->b, t);
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
      op_done(R, m->recv_op, t + R->o_recv);
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
      rs->cur_coll = coll_join(R, rs, rank, ev);
      if (rs->cur_coll == NONE)
        return R->error == NULL;
    }
    if (coll_wait(R, rs))
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
  return (int64_t)llround((double)gap * R->scale);
}

static void rank_run(replay *R, int rank)
{
  rank_st *rs = &R->ranks[rank];
  while (rs->pos < rs->nev) {
    const trace_event *ev = &rs->ev[rs->pos];
    if (rs->stage == 0) {
      if (rs->depth == 0) {
        int64_t g = scaled_gap(R, ev->time - (rs->pos ? ev[-1].time : 0));
        rs->now += g;
        rs->st.compute_ps += g;
      }
      rs->stage = 1;
    }
    if (!do_record(R, rs, rank, ev))
      return;
    if (R->error)
      return;
    if (R->times)
      R->times[rank][rs->pos] = rs->now;
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
  while (engine_pop(e, &ev)) {
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

/* ---- setup --------------------------------------------------------------- */

void replay_opts_init(replay_opts *o)
{
  *o = (replay_opts){ .compute_scale = 1.0 };
}

/* Default accounting class of an MPI region, from its name. */
static uint8_t class_of_name(const char *name)
{
  if (!name || g_ascii_strncasecmp(name, "MPI_", 4) != 0)
    return RC_OTHER;
  g_autofree char *low = g_ascii_strdown(name + 4, -1);
  coll_op cop;
  if (coll_op_from_name(low, &cop) || (low[0] == 'i' && coll_op_from_name(low + 1, &cop)))
    return RC_COLL;
  if (strstr(low, "send") || strstr(low, "recv") || g_str_has_prefix(low, "wait") ||
      g_str_has_prefix(low, "test") || g_str_has_prefix(low, "probe") ||
      g_str_has_prefix(low, "iprobe") || g_str_has_prefix(low, "start"))
    return RC_P2P;
  return RC_OTHER;
}

static gboolean parse_collectives(replay *R, const char *spec, GError **error)
{
  if (!spec || !*spec)
    return TRUE;
  g_auto(GStrv) items = g_strsplit(spec, ",", -1);
  for (int i = 0; items[i]; i++) {
    g_auto(GStrv) kv = g_strsplit(g_strstrip(items[i]), "=", 2);
    coll_op cop;
    if (!kv[0] || !kv[1] || !coll_op_from_name(kv[0], &cop)) {
      g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_COLLECTIVES,
                  "--collectives: '%s' is not OP=ALGORITHM with a known op (bcast, "
                  "allreduce, ...)", items[i]);
      return FALSE;
    }
    const coll_algo *a = coll_algo_lookup(kv[1]);
    if (!a || (a->build && !(a->ops & (1u << cop)))) {
      g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_COLLECTIVES,
                  "--collectives: algorithm '%s' %s for %s", kv[1],
                  a ? "is not defined" : "is unknown (see collectives.h)", kv[0]);
      return FALSE;
    }
    R->algo[cop] = a->build ? a->name : NULL;
  }
  return TRUE;
}

/* Per rank: Irecv envelopes (request -> completion record, by order of the
 * requests) and the collective calls per communicator. One sequential pass
 * over the rank's records with flat arrays (the open-request list `open`
 * is scratch shared by all ranks); O(records x open requests). */
static gboolean prepass_rank(replay *R, int r, pend **open, int *capopen, GError **error)
{
  const trace *t = R->t;
  rank_st *rs = &R->ranks[r];
  int64_t *env = NULL;
  int64_t nenv = 0, capenv = 0;
  int nopen = 0;
  gboolean ok = TRUE;
  const trace_event *ev = rs->ev;
  for (int64_t i = 0; i < rs->nev; i++) {
    const trace_event *e = &ev[i];
    switch (e->kind) {
    case TRACE_SEND:
    case TRACE_ISEND:
    case TRACE_RECV:
    case TRACE_IRECV:
    case TRACE_COLL_END:
    case TRACE_NBCOLL_COMPLETE:
      if (G_UNLIKELY(e->comm >= (uint32_t)t->ncomms)) {
        g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                    "rank %d record %" G_GINT64_FORMAT ": communicator %u out of range, "
                    "expected < %d", r, i, e->comm, t->ncomms);
        ok = FALSE;
        goto out;
      }
      break;
    default:
      break;
    }
    if (e->kind == TRACE_IRECV_REQUEST) {
      if (nenv == capenv) {
        capenv = capenv ? 2 * capenv : 64;
        env = g_renew(int64_t, env, capenv);
      }
      if (nopen == *capopen) {
        *capopen = *capopen ? 2 * *capopen : 64;
        *open = g_renew(pend, *open, *capopen);
      }
      (*open)[nopen++] = (pend){ e->request, (uint32_t)nenv };
      env[nenv++] = -1;
    } else if (e->kind == TRACE_IRECV || e->kind == TRACE_REQUEST_CANCELLED) {
      for (int k = nopen; k-- > 0;) {
        pend *p = &(*open)[k];
        if (p->req != e->request)
          continue;
        if (e->kind == TRACE_IRECV)
          env[p->op] = i;
        *p = (*open)[--nopen];
        break;
      }
    } else if ((e->kind == TRACE_COLL_END || e->kind == TRACE_NBCOLL_COMPLETE) &&
               e->op < COLL_NOPS) {
      GArray **slot = &R->calls[r][e->comm];
      if (!*slot)
        *slot = g_array_new(FALSE, FALSE, sizeof(int64_t));
      g_array_append_val(*slot, i);
    }
  }
out:
  rs->nirecv = nenv;
  rs->irecv_env = env;
  return ok;
}

static gboolean check_inputs(const trace *t, const platform *p, const mapping *m, GError **error)
{
  if (t->nranks > platform_capacity(p)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "the trace has %d ranks but the platform %s holds only %d (%d allocated nodes x "
                "%d cores); expected at most %d ranks (use --cores or --alloc)",
                t->nranks, p->name, platform_capacity(p), p->nalloc, p->cores_per_node,
                platform_capacity(p));
    return FALSE;
  }
  if (m->ntasks < t->nranks) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "the mapping places %d ranks, the trace has %d; expected one node per rank",
                m->ntasks, t->nranks);
    return FALSE;
  }
  return mapping_validate(m, p, error);
}

static replay *replay_new(const trace *t, const platform *p, const mapping *m,
                          const replay_opts *o, GError **error)
{
  replay *R = g_new0(replay, 1);
  R->t = t;
  R->p = p;
  R->node = m->node;
  R->scale = o->compute_scale;
  R->o_send = engine_ps(p->model.send_overhead);
  R->o_recv = engine_ps(p->model.recv_overhead);
  R->eager = p->model.eager_threshold;
  R->free_op = R->free_msg = NONE;
  R->ranks = g_new0(rank_st, t->nranks);
  R->calls = g_new0(GArray **, t->nranks);
  R->call_cur = g_new0(int64_t, (size_t)t->nranks * (size_t)MAX(t->ncomms, 1));
  R->insts = g_ptr_array_new();
  R->inst_by_key = g_hash_table_new(g_int64_hash, g_int64_equal);
  R->region_cls = g_new0(uint8_t, MAX(t->nregions, 1));
  R->ready = g_new(uint32_t, MAX(t->nranks, 1));
  R->cc = g_new(cc_ent, (size_t)MAX(t->nranks, 1) * CCACHE);
  for (int i = 0; i < t->nregions; i++)
    R->region_cls[i] = class_of_name(t->regions[i]);
  chan_rehash(R);
  if (o->record_times)
    R->times = g_new0(int64_t *, t->nranks);
  if (!parse_collectives(R, o->collectives, error))
    return R;
  pend *open = NULL;
  int capopen = 0;
  for (int r = 0; r < t->nranks; r++) {
    rank_st *rs = &R->ranks[r];
    rs->ev = t->ranks[r].events;
    rs->nev = t->ranks[r].nevents;
    rs->cur_op = rs->cur_coll = NONE;
    R->calls[r] = g_new0(GArray *, MAX(t->ncomms, 1));
    if (R->times)
      R->times[r] = g_new(int64_t, MAX(rs->nev, 1));
    if (!prepass_rank(R, r, &open, &capopen, error))
      break;
  }
  g_free(open);
  return R;
}

static void replay_free(replay *R)
{
  if (!R)
    return;
  for (int r = 0; r < R->t->nranks; r++) {
    rank_st *rs = &R->ranks[r];
    g_free(rs->pend);
    g_free(rs->defer);
    g_free(rs->irecv_env);
    if (R->calls[r])
      for (int c = 0; c < R->t->ncomms; c++)
        if (R->calls[r][c])
          g_array_free(R->calls[r][c], TRUE);
    g_free(R->calls[r]);
    if (R->times)
      g_free(R->times[r]);
  }
  for (guint i = 0; i < R->insts->len; i++)
    inst_free(g_ptr_array_index(R->insts, i));
  g_ptr_array_free(R->insts, TRUE);
  g_hash_table_destroy(R->inst_by_key);
  g_free(R->times);
  g_free(R->calls);
  g_free(R->call_cur);
  g_free(R->region_cls);
  g_free(R->ready);
  g_free(R->cc);
  g_free(R->ranks);
  g_free(R->ops);
  g_free(R->msgs);
  g_free(R->chans);
  g_free(R->slots);
  netmodel_free(R->model);
  engine_free(R->eng);
  g_clear_error(&R->error);
  g_free(R);
}

/* ---- results --------------------------------------------------------------- */

static const char *region_name(const replay *R, const rank_st *rs)
{
  if (rs->depth <= 0 || rs->region < 0 || rs->region >= R->t->nregions)
    return "(no MPI region)";
  return R->t->regions[rs->region];
}

/* What rank r waits for, one line (caller frees). */
static char *stuck_line(const replay *R, int r)
{
  const rank_st *rs = &R->ranks[r];
  const trace_event *ev = rs->pos < rs->nev ? &rs->ev[rs->pos] : NULL;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "rank %d: at record %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                         " (%s in %s, simulated t=%.9f s), %d pending request(s): ",
                         r, rs->pos, rs->nev, ev ? trace_kind_name(ev->kind) : "end",
                         region_name(R, rs), rs->now * 1e-12, rs->npend);
  if (rs->cur_coll != NONE) {
    const coll_inst *ci = g_ptr_array_index(R->insts, rs->cur_coll);
    g_string_append_printf(s, "in %s on communicator %u, members not arrived:",
                           coll_op_name(ci->op), ci->comm);
    for (int j = 0; j < ci->P; j++)
      if (ci->t_join[j] < 0)
        g_string_append_printf(s, " %d", ci->world[j]);
  } else if (rs->cur_op != NONE) {
    const op *o = &R->ops[rs->cur_op];
    const msg *m = o->msg != NONE ? &R->msgs[o->msg] : NULL;
    if (m && m->src == r)
      g_string_append_printf(s, "rendezvous send to rank %d (comm %u, tag %u, %" G_GINT64_FORMAT
                             " bytes) %s", m->dst, m->comm, m->tag, m->bytes,
                             m->recv_op == NONE ? "never matched by a receive" : "in flight");
    else if (ev)
      g_string_append_printf(s, "receive from rank %d (comm %u, tag %u, %" G_GINT64_FORMAT
                             " bytes): no matching send", ev->peer, ev->comm, ev->tag,
                             ev->bytes);
  } else {
    g_string_append(s, "not finished");
  }
  return g_string_free(s, FALSE);
}

static void report_stuck(const replay *R, replay_result *res)
{
  GString *d = g_string_new(NULL);
  char *first = NULL;
  int64_t tmax = 0;
  for (int r = 0; r < R->t->nranks; r++) {
    if (R->ranks[r].state == RS_DONE)
      continue;
    char *line = stuck_line(R, r);
    g_string_append_printf(d, "  %s\n", line);
    tmax = MAX(tmax, R->ranks[r].now);
    if (!first)
      first = line;
    else
      g_free(line);
    res->stuck++;
  }
  res->stuck_summary = g_strdup_printf(
      "deadlock: %d of %d ranks cannot progress (simulated t=%.9f s); first %s", res->stuck,
      R->t->nranks, tmax * 1e-12, first);
  res->stuck_detail = g_string_free(d, FALSE);
  g_free(first);
}

/* The input trace with the simulated times (comm indices shifted by the two
 * communicators trace_new() creates). */
static trace *build_out_trace(const replay *R)
{
  const trace *t = R->t;
  trace *o = trace_new(t->nranks);
  uint32_t off = (uint32_t)o->ncomms;
  for (int i = 0; i < t->nregions; i++)
    trace_add_region(o, t->regions[i]);
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    uint32_t k = trace_add_comm(o, tc->name, tc->size, tc->self ? NULL : tc->members);
    o->comms[k].self = tc->self;
  }
  o->world = t->world + off;
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      trace_event e = t->ranks[r].events[i];
      e.time = R->times[r][i];
      gboolean has_comm = (e.kind >= TRACE_SEND && e.kind <= TRACE_IRECV &&
                           e.kind != TRACE_ISEND_COMPLETE && e.kind != TRACE_IRECV_REQUEST) ||
                          e.kind == TRACE_COLL_END || e.kind == TRACE_NBCOLL_COMPLETE;
      if (has_comm)
        e.comm += off;
      trace_push(o, r, &e);
    }
  int64_t end = 0;
  for (int r = 0; r < t->nranks; r++)
    end = MAX(end, R->ranks[r].st.finish_ps);
  o->duration_ps = end;
  trace_shrink(o);
  return o;
}

static replay_result *collect(replay *R)
{
  const trace *t = R->t;
  const netmodel *nm = R->model;
  replay_result *res = g_new0(replay_result, 1);
  res->nranks = t->nranks;
  res->per_rank = g_new0(replay_rank_stats, MAX(t->nranks, 1));
  for (int r = 0; r < t->nranks; r++) {
    res->per_rank[r] = R->ranks[r].st;
    res->events += R->ranks[r].pos;
    res->makespan_ps = MAX(res->makespan_ps, R->ranks[r].st.finish_ps);
    res->p2p_cost_ps += R->ranks[r].st.p2p_ps;
  }
  res->parallel_cost_ps = res->makespan_ps * t->nranks;
  res->engine_events = R->eng->handled;
  const netmodel_totals *pt = &nm->tot[NETMODEL_P2P], *ct = &nm->tot[NETMODEL_COLL];
  res->p2p_messages = pt->messages;
  res->p2p_bytes = pt->bytes;
  res->coll_messages = ct->messages;
  res->coll_bytes = ct->bytes;
  res->ctrl_messages = nm->tot[NETMODEL_CTRL].messages;
  res->comm_model_ps = pt->transfer_ps;
  res->coll_model_ps = ct->transfer_ps;
  res->hop_bytes = pt->hop_bytes;
  res->msg_hops = pt->msg_hops;
  res->max_hops = pt->max_hops;
  res->nlinks = nm->nlinks;
  size_t n = (size_t)MAX(nm->nlinks, 1);
  res->link_bytes = g_memdup2(nm->link_bytes[NETMODEL_P2P], n * sizeof(int64_t));
  res->link_messages = g_memdup2(nm->link_messages[NETMODEL_P2P], n * sizeof(int64_t));
  res->link_busy_ps = g_memdup2(nm->link_busy_ps, n * sizeof(int64_t));
  if (nm->ops->stats)
    res->nmodel_stats = nm->ops->stats(nm, res->model_stats, G_N_ELEMENTS(res->model_stats));
  if (nm->ops->link_stat) {
    res->link_stats = g_new0(netmodel_link_stat, n);
    for (int l = 0; l < nm->nlinks; l++)
      nm->ops->link_stat(nm, l, &res->link_stats[l]);
    res->load_unit = nm->ops->load_unit;
  }
  res->peak_bytes = engine_bytes(R->eng) + R->capops * sizeof(op) + R->capmsgs * sizeof(msg) +
                    R->capchans * sizeof(chan) + R->nslots * sizeof(uint32_t) +
                    (size_t)t->nranks * (sizeof(rank_st) + CCACHE * sizeof(cc_ent));
  for (int r = 0; r < t->nranks; r++)
    if (R->ranks[r].state != RS_DONE) {
      report_stuck(R, res);
      break;
    }
  if (R->times && !res->stuck)
    res->out_trace = build_out_trace(R);
  return res;
}

replay_result *replay_run(const trace *t, const platform *p, const mapping *m,
                          const struct netmodel_ops *model, const replay_opts *o,
                          GError **error)
{
  replay_opts defaults;
  replay_result *res = NULL;
  if (!o) {
    replay_opts_init(&defaults);
    o = &defaults;
  }
  if (!(o->compute_scale >= 0)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "compute scale %g: expected a number >= 0", o->compute_scale);
    return NULL;
  }
  if (!check_inputs(t, p, m, error))
    return NULL;
  GError *e = NULL;
  replay *R = replay_new(t, p, m, o, &e);
  if (e) {
    g_propagate_error(error, e);
    goto out;
  }
  R->eng = engine_new((size_t)t->nranks * 4 + 1024);
  R->k_resume = engine_register(R->eng, on_resume, R);
  R->k_net = engine_register(R->eng, on_net, R);
  if (!(R->model = netmodel_new(model, p, R->eng, R->k_net, error)))
    goto out;
  for (int r = 0; r < t->nranks; r++)
    engine_schedule(R->eng, 0, R->k_resume, (uint32_t)r, 0);
  run_events(R);
  if (R->error) {
    g_propagate_error(error, R->error);
    R->error = NULL;
    goto out;
  }
  res = collect(R);
out:
  replay_free(R);
  return res;
}

void replay_result_free(replay_result *r)
{
  if (!r)
    return;
  g_free(r->per_rank);
  g_free(r->link_bytes);
  g_free(r->link_messages);
  g_free(r->link_busy_ps);
  g_free(r->link_stats);
  g_free(r->stuck_summary);
  g_free(r->stuck_detail);
  trace_free(r->out_trace);
  g_free(r);
}
