/* dag.h - a GOAL schedule (traces/goal.h) replayed as a dependency graph on
 * a platform, its messages timed by a network model (models/model.h).
 *
 * Each rank runs on the node the mapping gives it. An operation becomes
 * ready when its dependencies are met (requires: the other ended;
 * irequires: the other started) and starts when its CPU (the op's cpu
 * number; a rank has max_cpu + 1 of them) is free, so any number of
 * operations of a rank are in flight at once. What each kind costs:
 *  - calc N: its CPU for N x 1 ns x compute_scale (1 ns is LogGOPSim's
 *    default unit; --compute-scale 1000 makes the unit 1 us, 0 leaves
 *    computation out), rounded to ps once;
 *  - send: its CPU for the platform's send_overhead, then the message
 *    under the platform's protocol, as the MPI replay (sim/replay.h):
 *    eager (bytes <= eager_threshold) ends when its overhead does, the
 *    data leaving then (eager_start send) or once the receive is posted
 *    (eager_start match); rendezvous ends at the data's arrival, after an
 *    RTS and a CTS (handshake rts-cts) or, under handshake sync, with the
 *    data leaving once the receive is posted;
 *  - recv: posted when it starts (costs no CPU), ends when its message has
 *    arrived, then recv_overhead on its CPU.
 * The NIC numbers are not used: a node's links are the network model's.
 * Matching is LogGOPSim's (sim/loggops.h): a message's envelope (the eager
 * data, the RTS; under eager_start match or handshake sync the send's
 * post) meets the posted receives of its receiver in order by source and
 * tag, -1 matching any, or waits among the unexpected ones, which a
 * receive searches first when posted. Ready operations start in the order
 * their last dependency was met (the schedule's order on ties): the
 * engine's (time, sequence) order, so runs are deterministic.
 *
 * The result is a replay_result (sim/replay.h): makespan and per-rank
 * finish (its last operation's end), per rank compute_ps (calcs), p2p_ps
 * (send and receive durations, start to end, summed) and wait_ps (receives
 * posted before their message arrived, summed), the network model's
 * counters, link loads and energy; `events` counts operations. A schedule
 * that cannot finish (a receive never matched, a cycle) is not an error:
 * the result has stuck > 0 and says which rank and operation.
 *
 * Flat arrays sized by the schedule, checked against the memory budget
 * first; the matching pool grows; nothing is allocated per event.
 *
 * Ownership: borrows its inputs; the result is freed with
 * replay_result_free(). Not for: LogGOPS timing (sim/loggops.h:
 * loggops_run_platform), MPI traces (sim/replay.h).
 */
#pragma once

#include "sim/replay.h"
#include "traces/goal.h"

G_BEGIN_DECLS

/* The length of a calc's unit before --compute-scale, ps. */
#define DAG_CALC_UNIT_PS 1000

/* Replays `g` with ranks on the nodes of `m` (validated against `p`)
 * through `model`. Of `o` (NULL: defaults): compute_scale, start_ps,
 * progress ("interrupted"), links (a recorder) and limit_ps; record_times
 * and on_record are refused (a schedule has no records). NULL + error
 * (REPLAY_ERROR) on inputs that do not fit, times beyond int64 ps or the
 * limit passed. */
replay_result *dag_run(const goal *g, const platform *p, const mapping *m,
                       const struct netmodel_ops *model, const replay_opts *o, GError **error);

G_END_DECLS
