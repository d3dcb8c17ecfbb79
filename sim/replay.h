/* replay.h - discrete-event replay of an MPI trace on a modeled platform.
 *
 * korndoerfer2021 Sections 5.3 and 7.3 (HAEC-SIM's trace-driven replay):
 * every rank of a trace (traces/trace.h) runs on the node a mapping gives
 * it; its records are replayed in order on a simulated clock, messages
 * cross the network through a netmodel (models/model.h) and the events run
 * on one engine (engine/engine.h).
 *
 * Semantics (what is replayed and how):
 *  - Computation: the gap between two consecutive records of a rank while
 *    it is outside any MPI region (after a Leave, before the next Enter;
 *    also before the first record) is computation, scaled by
 *    `compute_scale` (0 = communication only) and rounded to ps. Time spent
 *    inside MPI regions in the trace is NOT replayed: it is simulated.
 *  - Point-to-point: Send, Isend, Recv, Irecv as recorded; completion points
 *    are the IsendComplete / Irecv records (inside Wait/Waitall/Waitany/
 *    Waitsome/Test): the replay waits there for exactly the request the
 *    trace completed. A blocking Send completes at the end of its MPI
 *    region (so MPI_Sendrecv's receive proceeds while its send is pending);
 *    a Send outside any region completes in place. Irecv envelopes are
 *    taken from their completion record (a cancelled Irecv is skipped).
 *    Matching: in MPI order per (source, destination, communicator, tag),
 *    i.e. the k-th send on a channel matches the k-th receive posted on it.
 *  - Protocols (defaults in routing/platform.c: eager_threshold 65536 B,
 *    send/recv overheads 0 s - the MPICH/Open MPI default switch point for
 *    TCP/shared-memory transports, overheads zero so that times are pure
 *    network times unless a platform sets them):
 *      eager  (bytes <= eager_threshold): the send costs send_overhead and
 *             completes at once (buffered); the data is injected right
 *             after (eager_start send, default) or once the receive is
 *             posted too (eager_start match: SMPI's detached sends, whose
 *             transfer starts when sender and receiver have met); the
 *             receive completes at max(arrival, post) + recv_overhead.
 *      rendezvous (bytes > threshold), handshake rts-cts (default): after
 *             send_overhead a 0-byte RTS goes to the receiver; once the
 *             receive is posted and the RTS has arrived, a 0-byte CTS goes
 *             back; when it arrives the data is sent. The send completes at
 *             data arrival, the receive at data arrival + recv_overhead.
 *             Extra cost over eager, without waiting: T_ctrl(src->dst) +
 *             T_ctrl(dst->src), T_ctrl the model time of a 0-byte message
 *             (one header).
 *      rendezvous, handshake sync (SMPI's synchronous send): no control
 *             message; the data leaves at max(send + send_overhead,
 *             receive posted). Completions as with rts-cts.
 *    Control messages count on links as class CTRL, never as p2p bytes.
 *  - Same-node messages use no link and take zero network time.
 *  - Collectives (CollectiveEnd / NonBlockingCollectiveComplete records):
 *    expanded with coll_schedule() (traces/collectives.h), algorithm per op
 *    from `collectives` ("op=algo,op=algo", default auto), on the call's
 *    communicator (sub-communicators included; calls are matched across
 *    members by their order on the communicator); each message goes through
 *    the model as class COLL with no protocol overheads; a member sends its
 *    round-k messages once all messages addressed to it in rounds < k have
 *    arrived, and leaves when all its messages are sent and received. The
 *    protocol's start rule still holds: under eager_start match (handshake
 *    sync for messages above the eager limit) a message leaves no earlier
 *    than its receiver joins the call, and under handshake sync a member
 *    leaves only once its messages above the eager limit have arrived
 *    (SMPI: the exported call posts every irecv when the member joins and
 *    waits for its isends at its end; detached ones return at once). A
 *    non-blocking collective is replayed at its completion record.
 *    Collectives of kind "other" (not MPI data movement) cost nothing.
 *  - Deadlock: when the event queue runs dry with ranks unfinished, the run
 *    stops; the result names the stuck ranks and what each waits for.
 *
 * Energy: every link draws power by its type's keys (routing/energy.h)
 * over the makespan; the result splits it into what the links draw while
 * on, what their traffic adds (from their busy times) and what they draw
 * while switched off, in total and per link type.
 *
 * Time accounting per rank: compute; p2p = time in MPI regions holding
 * point-to-point records or named like p2p calls (MPI_Wait*, MPI_Test*,
 * *send*, *recv*); coll = time in regions holding collective records;
 * other_mpi = time in other MPI regions; wait = time blocked on a partner
 * (a part of p2p + coll).
 *
 * Ownership: replay_run() borrows its inputs and returns a result freed
 * with replay_result_free(); result->out_trace (when asked) is owned by the
 * result. Not for: argument parsing, printing (cli/cmd-simulate.c),
 * network timing rules (models/).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "mapping/mapping.h"
#include "models/model.h"
#include "routing/energy.h"
#include "routing/platform.h"
#include "traces/trace.h"
#include "traces/trace-source.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define REPLAY_ERROR (replay_error_quark())
/* inline, so that every file of the folder can raise it without calling
 * the file that would otherwise define it */
static inline GQuark replay_error_quark(void)
{
  return g_quark_from_static_string("replay-error-quark");
}

typedef enum {
  REPLAY_ERROR_INPUT,       /* mapping/trace/platform that do not fit */
  REPLAY_ERROR_OVERFLOW,    /* simulated time or a counter beyond int64 */
  REPLAY_ERROR_LIMIT,       /* the makespan passed replay_opts.limit_ps */
} ReplayError;

/* Called with every record as the replay reaches it: the rank, the input
 * record and its simulated time (ps); ranks interleave, each rank's records
 * in order. */
typedef void (*replay_record_fn)(void *user, int rank, const trace_event *ev, int64_t t);

typedef struct replay_opts {
  double compute_scale;      /* computation gap factor, >= 0 (default 1) */
  const char *collectives;   /* "op=algo,...", NULL = auto for all */
  gboolean record_times;     /* build result->out_trace (new timestamps) */
  int64_t window;            /* streamed sources: records per refill (0: automatic) */
  const int64_t *start_ps;   /* per rank: when it starts, ps >= 0 (several jobs: sim/mix.h);
                                NULL: every rank at 0 */
  const progress *progress;  /* trace records replayed; stop = "interrupted"; may be NULL */
  linkrec *links;            /* records when links carry bytes (timelines), or NULL */
  replay_record_fn on_record; /* each record and its simulated time (streamed timelines), or
                               * NULL; works on streamed sources too */
  void *on_record_user;
  int64_t limit_ps;          /* > 0: stop (REPLAY_ERROR_LIMIT) as soon as the makespan is known
                              * to exceed it - a rank unfinished past it - (0: no limit) */
} replay_opts;

/* Defaults: compute_scale 1, collectives auto, no output trace. */
void replay_opts_init(replay_opts *o);

typedef struct replay_rank_stats {
  int64_t finish_ps;     /* clock when the rank's last record was replayed */
  int64_t compute_ps;
  int64_t p2p_ps;
  int64_t coll_ps;
  int64_t other_mpi_ps;
  int64_t wait_ps;       /* blocked on a partner (part of p2p + coll) */
} replay_rank_stats;

typedef struct replay_result {
  int nranks;
  int64_t makespan_ps;           /* max finish over ranks */
  int64_t max_link_busy_ps;      /* the busiest link's link_busy_ps */
  int64_t events;                /* trace records replayed */
  uint64_t engine_events;        /* events dispatched by the engine */
  int64_t p2p_messages, p2p_bytes;
  int64_t coll_messages, coll_bytes;
  int64_t ctrl_messages;
  int64_t comm_model_ps;         /* sum of p2p data transfer durations */
  int64_t coll_model_ps;         /* same for collective messages */
  int64_t p2p_cost_ps;           /* sum over ranks of p2p_ps (Section 7.3) */
  int64_t parallel_cost_ps;      /* makespan x ranks (Section 7.3) */
  replay_rank_stats *per_rank;   /* nranks */
  /* Post-simulation link counters of p2p payload (model-independent). */
  int nlinks;
  int64_t *link_bytes;           /* nlinks */
  int64_t *link_messages;        /* nlinks: messages (not graph edges) */
  int64_t *link_busy_ps;         /* nlinks: all classes */
  int64_t hop_bytes, msg_hops;   /* p2p */
  int max_hops;
  /* The same for the messages of collective algorithms. */
  int64_t *coll_link_bytes;      /* nlinks */
  int64_t *coll_link_messages;   /* nlinks */
  int64_t coll_hop_bytes, coll_msg_hops;
  int coll_max_hops;
  /* Adaptive routings: the routes the messages took (models/model.h:
   * route_key -> netmodel_taken, the bytes of each candidate path);
   * NULL for the others. */
  GHashTable *routes_taken;
  netmodel_stat model_stats[16];
  int nmodel_stats;
  netmodel_link_stat *link_stats; /* nlinks, or NULL when the model keeps no link load */
  const char *load_unit;         /* what link_stats count ("flows", "packets") */
  size_t peak_bytes;             /* replay state + queue high-water (approx.) */
  /* Deadlock: stuck > 0 ranks did not finish. */
  int stuck;
  char *stuck_summary;           /* one line, or NULL */
  char *stuck_detail;            /* one line per stuck rank (the first 8, then a count of
                                  * the others), or NULL */
  trace *out_trace;              /* simulated run (record_times), or NULL */
  /* The links' energy over the makespan (routing/energy.h), 0 without
   * power keys: energy_j = idle + traffic + off parts, summed over links. */
  double energy_j, energy_idle_j, energy_traffic_j, energy_off_j;
  int64_t link_wakeups;          /* links switched back on */
  int ntypes;                    /* the platform's link types */
  link_energy *type_energy;      /* ntypes: the same per link type */
  double *link_energy_j;         /* nlinks: each link's part of energy_j, NULL without power */
} replay_result;

/* Replays `t` with ranks on the nodes of `m` (validated against `p`;
 * m->ntasks must be >= t->nranks) through `model`. NULL + error on inputs
 * that do not fit, a bad collectives spec, a simulated time or counter
 * beyond int64 (REPLAY_ERROR_OVERFLOW: "simulated time exceeds 106 days at
 * ps resolution"), a makespan past o->limit_ps (REPLAY_ERROR_LIMIT: an
 * optimizer learns early that a candidate is worse than its best) or an
 * interruption; a deadlock is NOT an error: the result has stuck > 0. */
replay_result *replay_run(const trace *t, const platform *p, const mapping *m,
                          const struct netmodel_ops *model, const replay_opts *o,
                          GError **error);

/* The same from a trace source (traces/trace-source.h): in memory, or
 * streamed rank by rank in windows, with the same results. A streamed
 * rank holds a window of records (about 8 MiB over all ranks, 64 to
 * 16,384 records each, longer while an Irecv of the window waits for its
 * completion record), so memory does not grow with the trace's length.
 * record_times needs an in-memory source. */
replay_result *replay_run_source(const trace_source *src, const platform *p, const mapping *m,
                                 const struct netmodel_ops *model, const replay_opts *o,
                                 GError **error);

void replay_result_free(replay_result *r);

/* What a replay of `nranks` ranks and `records` records will need, before
 * it starts: bytes streamed (windows, per-rank state, the first pass's
 * tables - not the temporary file, about 8 bytes per record on disk),
 * bytes with the trace in memory (48 per record on top), and seconds of
 * one core for reading and an analytic replay (measured rates,
 * bench/README.md "Streaming replay"; contention models take longer). */
typedef struct replay_estimate {
  double stream_bytes, memory_bytes, spill_bytes, seconds;
} replay_estimate;
void replay_estimate_for(int nranks, int64_t records, replay_estimate *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(replay_result, replay_result_free)

/* The simulated results of a replay_result, in output order (names like
 * `simulate --json`; replay-report.c). */
extern const field run_replay_fields[];
extern const int run_replay_nfields;

G_END_DECLS
