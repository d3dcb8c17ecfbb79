/* replay-private.h - the replay's state, shared by its three files:
 * replay.c (ranks, point-to-point, the event loop, setup), replay-coll.c
 * (collectives) and replay-report.c (results, deadlock report, output
 * trace). Not a public interface: sim/replay.h is.
 */
#pragma once

#include "sim/replay.h"
#include "sim/replay-share-private.h"
#include "traces/trace-source.h"

#define NONE UINT32_MAX

enum { PH_DATA, PH_RTS, PH_CTS, PH_COLL };
enum { RS_RUN, RS_BLOCKED, RS_DONE };
/* Accounting classes of MPI regions (traces/trace.h's rule). */
enum { RC_OTHER = TRACE_REGION_OTHER_MPI, RC_P2P = TRACE_REGION_P2P, RC_COLL = TRACE_REGION_COLL };

typedef struct op {      /* a request: one side of a message */
  int64_t time;          /* post time; completion time once done */
  uint32_t msg;          /* the matched message, or NONE */
  uint32_t next;         /* channel queue / free list */
  int32_t rank;
  uint8_t done;
} op;

typedef struct msg {     /* a point-to-point message */
  int64_t t_rts, t_data; /* -1 until known. t_rts: the RTS's arrival, or the send's post
                          * time under handshake sync or eager_start match (the data leaves
                          * at the later of it and the receive's post); t_data: the data's
                          * arrival */
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
  int *in_off, *in_idx;         /* P+1, nmsgs: msgs to each member */
  int64_t *t_held;              /* nmsgs: send time of a message held until its receiver
                                 * joins (coll_holds()), else -1 */
  int *need, *got;              /* P*nrounds: incoming per (member, round) */
  int *round, *ready;           /* P */
  int *unfinished;              /* P: messages the member still waits for: those to it and
                                 * its own sends that end with their arrival (coll_keeps()) */
  int64_t *t_join, *t_last, *t_done; /* P, -1 = not yet */
} coll_inst;

typedef struct rank_st {
  const trace_event *ev;        /* the window: records [base, base + nev) of the rank */
  int64_t nev, pos, now, block_since, region_start;
  int64_t base, total;          /* records before the window; all records of the rank */
  int64_t prev_time;            /* trace time of the record before pos (0 before the first) */
  trace_event *win;             /* streamed: records read; the window is win[0, nev) */
  int64_t nbuf, capwin;
  uint32_t cur_op, cur_coll;
  int cur_member, depth, region;
  uint8_t state, stage, region_cls, woken;
  uint8_t ncc, cc_last;         /* channel cache: entries used, last hit */
  pend *pend;
  int npend, cappend;
  uint32_t *defer;
  int ndefer, capdefer;
  int64_t *irecv_env;           /* window index of each Irecv request's completion, or -1 */
  int64_t nirecv, irecv_cur, capenv;
  replay_rank_stats st;
} rank_st;

typedef struct replay {
  const trace *t;               /* definitions (and records when in memory) */
  const trace_source *src;      /* where the records come from */
  trace_cursor *cur;            /* this run's position in every streamed rank */
  const trace_colls *calls;     /* every rank's collective calls */
  int64_t window;               /* streamed: records read per refill */
  pend *open;                   /* window scan: Irecv requests not completed yet */
  int nopen, capopen;
  const platform *p;
  const int *node;              /* rank -> node */
  engine *eng;
  netmodel *model;
  uint32_t k_resume, k_net;
  double scale;
  int64_t o_send, o_recv, eager;
  gboolean sync;              /* handshake sync: rendezvous data leaves when the receive is posted */
  gboolean eager_match;       /* eager_start match: so does eager data */
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
  coll_choice colls;            /* algorithm per op (--collectives) */
  int64_t *call_cur;            /* [rank * ncomms + comm] calls joined so far */
  GPtrArray *insts;             /* coll_inst*, index = id; NULL when free */
  GHashTable *inst_by_key;      /* key -> id + 1 */
  uint8_t *region_cls;          /* per region name: RC_* default */
  int64_t **times;              /* record_times: new time of every record */
  replay_record_fn on_record;   /* replay_opts.on_record */
  void *on_record_user;
  uint32_t *ready;              /* ring of nranks: ranks woken at the engine's time */
  uint32_t ready_head, nready;
  GError *error;                /* first fatal error inside a handler */
  const progress *progress;     /* replay_opts.progress */
  int64_t limit;                /* replay_opts.limit_ps, INT64_MAX: none */
} replay;

/* ---- helpers used by every part (inline: hot path) ---- */

/* Wakes a blocked rank at max(t, its clock): at the current engine time it
 * joins the ready ring (run when the current handler ends, no heap
 * traffic), later it gets a RESUME event. */
static inline void wake(replay *R, rank_st *rs, int rank, int64_t t)
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

static inline void net_start(replay *R, int from, int to, int64_t bytes, int64_t t,
                             netmodel_class cls, uint32_t phase, uint64_t token)
{
  netmodel_msg nm = { R->node[from], R->node[to], bytes, t, cls, phase, token,
                      route_key(from, to) };
  netmodel_start(R->model, &nm);
}

/* replay.c: the event loop. replay_engine_start makes R->eng and the
 * channel table and registers the replay's event kinds (k_resume, k_net);
 * replay_run_events wakes every rank at its start (start_ps[rank], NULL:
 * all at 0) and runs the events until none is left, the limit is passed,
 * an error or a stop. */
void replay_engine_start(replay *R);
void replay_run_events(replay *R, const int64_t *start_ps);

/* replay-window.c: the records of a streamed rank in windows. */
/* Records per window of a streamed rank (about 8 MiB of windows in all). */
int64_t replay_window_size(int nranks);
/* The Irecv envelopes of records [from, nev) of rank's window. */
void replay_scan_irecvs(replay *R, rank_st *rs, int64_t from);
/* The rank's next window; FALSE at the rank's end (or in memory). */
gboolean replay_refill(replay *R, rank_st *rs, int rank);

/* replay-coll.c */
void replay_inst_free(coll_inst *ci);
/* A collective message (token) arrived at time t. */
void replay_coll_arrive(replay *R, uint64_t token, int64_t t);
/* Joins rank's next call on ev->comm; returns the instance id, or NONE when
 * the call costs nothing (single member, "other" ops) or failed (R->error). */
uint32_t replay_coll_join(replay *R, rank_st *rs, int rank, const trace_event *ev);
/* Member done? Then consume it (free the instance after its last member). */
gboolean replay_coll_wait(replay *R, rank_st *rs);

/* replay-report.c */
/* The result of a finished (or deadlocked) run. */
replay_result *replay_collect(replay *R);

/* FALSE + REPLAY_ERROR_OVERFLOW when a time or counter of the run passed
 * int64 (saturated in the engine, the model or a sum replay_collect
 * makes). */
gboolean replay_check_overflow(const replay *R, GError **error);
