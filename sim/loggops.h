/* loggops.h - LogGOPSim's replay of a GOAL schedule (traces/goal.h) under
 * the LogGOPS model, to the makespan LogGOPSim computes.
 *
 * The rules are LogGOPSim's (src/LogGOPSim/LogGOPSim.cpp, its LogGP
 * network: no congestion), reproduced step by step because the target is
 * its makespan exactly: one queue of operations ordered by (time,
 * insertion number); an operation becomes ready when its dependencies are
 * met (requires: the other ended; irequires: it started) and is queued at
 * the time its CPU (send: and its NIC's send gap) is free - not at the
 * time its dependencies were met, so an operation on another CPU may start
 * before them, as in LogGOPSim. Ready operations are queued per rank,
 * ranks ascending, sends before receives before calcs, otherwise in the
 * order they became ready (LogGOPSim's std::sort there is not stable past
 * 16 elements; this is its stable_sort build). A send occupies its CPU o +
 * (s-1)O and its NIC g + (s-1)G and arrives after o + L; the receiver
 * takes the message when its CPU (the send's cpu number) and NIC are free,
 * for o + max((s-1)O, (s-1)G) and g + (s-1)G; a receive costs nothing
 * itself. Messages up to S bytes are eager (the send is done when it
 * starts), larger ones rendezvous (done when matched, and the sender's CPU
 * and NIC are held until then). Matching: posted receives and unexpected
 * messages in order, by source and tag, -1 matching any. Arithmetic is
 * LogGOPSim's unsigned 64-bit one (a 0-byte message has s-1 = -1).
 * The makespan is the latest time a CPU is free, over all ranks.
 *
 * On a platform (loggops_run_platform) the rules are the same but for L:
 * a message leaves at the send's start + o (in ps: units x unit), crosses
 * the platform's route from its sender's node to its receiver's through a
 * network model (`net=`, default analytic: the route's latencies + bytes /
 * its bottleneck bandwidth, no contention; flow or packet: shared links),
 * and joins the queue at its arrival rounded up to a whole unit, with the
 * insertion number its send gave it - so a platform whose every route
 * takes exactly L units gives LogGOPSim's makespan. g, G, o, O and S keep
 * their meaning (the NICs' gaps and the CPUs' overheads stay LogGOPS's;
 * set G=0 for a network whose bandwidth is the platform's alone);
 * rendezvous exchanges no control messages (LogGOPSim's rule).
 *
 * Ownership: results are the caller's (loggops_result_clear). The goal is
 * borrowed. Not for: MPI traces (sim/replay.h; goal_of_trace() turns one
 * into a schedule), the platform's own protocol and overheads (sim/dag.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "sim/replay.h"
#include "traces/goal.h"
#include "traces/trace.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define LOGGOPS_ERROR (loggops_error_quark())
GQuark loggops_error_quark(void);

typedef enum {
  LOGGOPS_ERROR_SPEC,      /* a bad --model loggops:... */
  LOGGOPS_ERROR_SCHEDULE,  /* a schedule that cannot finish or whose times overflow */
} LoggopsError;

/* The parameters, in LogGOPSim's integer time units (S in bytes). */
typedef struct loggops_params {
  uint64_t L, o, g, G, O, S;
  double unit_s;           /* the length of one time unit in seconds */
  char net[24];            /* on a platform: the network model's name (default analytic) */
} loggops_params;

/* LogGOPSim's defaults: L 2500, o 1500, g 1000, G 6, O 0, S 65535, 1 ns. */
void loggops_defaults(loggops_params *p);

/* TRUE when `model` names this model ("loggops" or "loggops:..."). */
gboolean loggops_is_model(const char *model);

/* Parses "loggops[:KEY=VALUE]..." (keys L o g G O S unit net; unit a time
 * such as 1ns, net a network model of models/registry.c) over the
 * defaults. */
gboolean loggops_parse(const char *model, loggops_params *p, GError **error);

typedef struct loggops_result {
  uint64_t makespan;       /* time units, LogGOPSim's "Maximum finishing time" */
  int host;                /* the first rank reaching it */
  int nranks;
  uint64_t *finish;        /* nranks: when each rank's last CPU is free */
  int64_t events;          /* queue entries processed (re-insertions included) */
  int64_t messages;
} loggops_result;

void loggops_result_clear(loggops_result *r);

/* Replays `g`. FALSE and LOGGOPS_ERROR_SCHEDULE when operations never run
 * or messages stay unmatched (naming the first such rank and operation),
 * or when its times could overflow; budget errors; "interrupted" when
 * `pr` says stop. */
gboolean loggops_run(const goal *g, const loggops_params *p, const progress *pr,
                     loggops_result *out, GError **error);

/* Replays `g` on platform `pl` with ranks on the nodes of `m` (see the
 * header): unit must be a whole number of picoseconds. Of `o` (may be
 * NULL): progress and links (a recorder). The result is a replay_result
 * (sim/replay.h): makespan and per-rank finish in ps (units x unit),
 * compute_ps the calcs, the model's link counters; NULL + error as
 * loggops_run, or on inputs that do not fit the platform. */
replay_result *loggops_run_platform(const goal *g, const loggops_params *p, const platform *pl,
                                    const mapping *m, const replay_opts *o, GError **error);

/* The schedule of an MPI trace, rank by rank in record order: the time
 * between MPI calls becomes a calc (in units of unit_s, rounded), a
 * blocking send or receive requires the operation before it; a
 * nonblocking one requires it too, but what follows only irequires the
 * nonblocking operation (it may start once that started), until its
 * completion record, after which the next operation requires its end.
 * Collectives are expanded into messages by their algorithms
 * (--collectives, `choice`; NULL: auto), round after round. Tags are the
 * trace's, communicators are not kept apart. */
goal *goal_of_trace(const trace *t, double unit_s, const coll_choice *choice, GError **error);

G_END_DECLS
