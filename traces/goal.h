/* goal.h - LogGOPSim's GOAL schedules: per rank a graph of send, recv and
 * calc operations with dependencies, read from and written as GOAL text.
 *
 * The text is what LogGOPSim's txt2bin reads (its re2c grammar) and
 * Schedgen writes: `num_ranks N`, then `rank R { ... }` for R = 0..N-1 in
 * order, holding lines `LABEL: send SIZEb to PEER [tag T] [cpu C] [nic N]`,
 * `LABEL: recv SIZEb from PEER|-1 [tag T|-1] [cpu C] [nic N]`, `LABEL:
 * calc N [cpu C]` (the label is optional), `A requires B` (A starts after
 * B ends) and `A irequires B` (A starts after B started), with `//` and
 * block comments. Labels are per rank and must be defined before use; a
 * label defined twice is refused (txt2bin keeps the first silently).
 * Comments are also accepted at the end of a line (txt2bin only between
 * items).
 *
 * The parsed schedule is flat: one array of operations, rank by rank, and
 * the dependencies as two CSR lists over it (the operations waiting for an
 * operation's end, those waiting for its start), each in the order of the
 * file's dependency lines, which is the order LogGOPSim releases them in.
 * Sizes are counted in checked 64-bit arithmetic against the memory budget
 * (util/budget.h) before anything grows.
 *
 * Ownership: a goal owns its arrays; goal_free() (NULL is a no-op).
 * Not for: timing a schedule (sim/loggops.h), turning a trace into one
 * (sim/loggops.h: goal_of_trace), other trace formats (input.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "traces/commgraph.h"

G_BEGIN_DECLS

#define GOAL_ERROR (goal_error_quark())
GQuark goal_error_quark(void);

typedef enum {
  GOAL_ERROR_IO,     /* cannot read or write the file */
  GOAL_ERROR_PARSE,  /* not GOAL text, or a reference that is wrong */
} GoalError;

/* Operation kinds, numbered as LogGOPSim orders the operations that become
 * ready together (sends first, then receives, then calcs). */
typedef enum { GOAL_SEND = 1, GOAL_RECV = 2, GOAL_CALC = 3 } goal_kind;

/* A receive's peer or any tag given as -1 (LogGOPSim's ~0). */
#define GOAL_ANY UINT32_MAX

typedef struct goal_op {
  uint64_t size;   /* bytes (send, recv) or time units (calc) */
  uint32_t peer;   /* send: receiver; recv: sender or GOAL_ANY; calc: 0 */
  uint32_t tag;    /* or GOAL_ANY; calc: 0 */
  uint8_t kind;    /* goal_kind */
  uint8_t cpu, nic;
} goal_op;

typedef struct goal {
  int nranks;
  int64_t nops;
  goal_op *ops;          /* nops, rank by rank */
  int64_t *first;        /* nranks + 1: rank r's operations are ops[first[r] .. first[r+1]) */
  /* The operations (indices within their rank) that wait for the end of
   * operation i (global index): after_end[end_xadj[i] .. end_xadj[i+1]);
   * for its start: after_start[start_xadj[i] .. start_xadj[i+1]). */
  int64_t *end_xadj, *start_xadj;  /* nops + 1 each */
  uint32_t *after_end, *after_start;
  uint32_t *ndeps;       /* nops: dependencies of each operation, both kinds */
  int max_cpu, max_nic;  /* the largest cpu and nic numbers used */
} goal;

/* Reads GOAL text. NULL and "PATH:LINE: what was found, expected what" on
 * bad input (GOAL_ERROR_PARSE), or a budget error (budget.h). */
goal *goal_read(const char *path, GError **error);
/* The same from NUL-terminated text in memory; `path` names it in errors. */
goal *goal_parse(const char *text, const char *path, GError **error);

/* An empty schedule of `nranks` ranks to fill with goal_add_op() and
 * goal_add_dep(), then goal_finish(). */
goal *goal_new(int nranks);
/* Appends an operation to rank `rank`, which must be the last rank
 * operations were appended to or a later one; returns its index within the
 * rank, or -1 (and `error`) when the budget refuses. */
int64_t goal_add_op(goal *g, int rank, const goal_op *op, GError **error);
/* Operation `tail` of the last rank appended to waits for the end
 * (start_only: the start) of its operation `head`. */
gboolean goal_add_dep(goal *g, uint32_t tail, uint32_t head, gboolean start_only,
                      GError **error);
/* Builds the dependency lists (goal_read() does this itself). */
gboolean goal_finish(goal *g, GError **error);

/* Writes `g` as GOAL text that goal_read() and LogGOPSim's txt2bin read
 * back into the same schedule (labels l1, l2, ... per rank; the operations,
 * then the dependencies in their lists' order). FALSE on a write error. */
gboolean goal_write(const goal *g, FILE *f);

/* The communication graph of the sends: bytes and messages per (sender,
 * receiver). */
commgraph *goal_graph(const goal *g);

void goal_free(goal *g);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(goal, goal_free)

G_END_DECLS
