/* replay-share-private.h - what the MPI replay (replay-setup.c,
 * replay-report.c) shares with the GOAL replays (dag.c, loggops.c), which
 * keep no replay state of their own kind: the placement check and the
 * network model's part of a result. Private to sim/.
 */
#pragma once

#include "sim/replay.h"

/* replay-setup.c: the platform holds `nranks` ranks and `m` places them
 * (validated against `p`). */
gboolean replay_check_placement(int nranks, const platform *p, const mapping *m, GError **error);

/* replay-report.c: the model's part of a result - its totals, per-link
 * counters and loads, the routes an adaptive routing took, the links'
 * energy over res->makespan_ps (set it first). */
void replay_collect_model(netmodel *nm, const platform *p, replay_result *res);

/* replay-report.c: FALSE + REPLAY_ERROR_OVERFLOW when the run's times or
 * counters passed int64: the engine's clock (`time_overflow`, or a
 * makespan of INT64_MAX; the message asks to check `check`), the parallel
 * cost makespan x nranks, the ranks' point-to-point sum (`p2p_sum_ok`
 * FALSE), the model's counters. */
gboolean replay_check_totals(gboolean time_overflow, int64_t makespan, int nranks,
                             gboolean p2p_sum_ok, const netmodel *nm, const char *check,
                             GError **error);
