/* trace-colls.h - the collective calls of a trace: every rank's calls on
 * every communicator in call order, and a call's contributions gathered
 * across the members, for the static expansion of collectives into
 * messages (trace_commgraph, trace sources) and for the replay.
 *
 * Ownership: a trace_colls owns its arrays (trace_colls_free); the trace
 * passed to the gathering functions is borrowed. Not for: scheduling a
 * call's messages (collectives.h), reading records (trace-source.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "traces/collectives.h"
#include "traces/trace.h"

G_BEGIN_DECLS

/* One collective call of one rank: op, what it contributes (the record's
 * `bytes`, collectives.h conventions) and whether the call names the rank
 * itself as the root. */
typedef struct trace_coll_call {
  int64_t contrib;
  uint8_t op;
  uint8_t is_root;
} trace_coll_call;

/* The calls of every rank on every communicator, in call order (ops of
 * kind "other" left out), as runs of identical consecutive calls: an
 * iterative program repeats the same call, so memory stays flat in the
 * trace's length (O(runs), O(calls) only when every call differs from
 * the one before). */
typedef struct trace_colls {
  int nranks, ncomms;
  GArray **calls;               /* [rank * ncomms + comm]: trace_coll_run, or NULL */
} trace_colls;

trace_colls *trace_colls_new(int nranks, int ncomms);
/* Adds `e` when it completes a collective call (COLL_END,
 * NBCOLL_COMPLETE with a known op and a valid communicator). */
void trace_colls_add(trace_colls *c, int rank, const trace_event *e);
size_t trace_colls_bytes(const trace_colls *c);
void trace_colls_free(trace_colls *c);

/* A run: `n` identical calls, the first of them the rank's call number
 * `first` on the communicator. */
typedef struct trace_coll_run {
  int64_t first, n;
  trace_coll_call call;
} trace_coll_run;

/* The k-th call on `comm` (not COMM_SELF) of every member: contributions
 * in comm rank order into `bytes` (size entries, 0 for members without a
 * k-th call), the root's comm rank (0 when none) and the op. Returns how
 * many members made the call. */
int trace_colls_call(const trace_colls *c, const trace *t, uint32_t comm, int64_t k,
                     int64_t *bytes, int *root, int *op);

/* Adds to the edge arrays (src, dst: ints; bytes, msgs: int64) the
 * messages of every collective call of `t` expanded as the replay
 * schedules them (coll_schedule_choice), one entry per (src, dst) pair
 * with its bytes and message count summed: the k-th call of every member
 * of a communicator is one call; expansion of a communicator stops where
 * a member has no more calls. Calls that every member repeats identically
 * are expanded once and counted as often as they repeat. FALSE + error on
 * a call the schedule refuses or sums beyond 2^63 - 1. */
gboolean trace_colls_expand(const trace_colls *c, const trace *t, const coll_choice *choice,
                            GArray *src, GArray *dst, GArray *bytes, GArray *msgs,
                            GError **error);

G_END_DECLS
