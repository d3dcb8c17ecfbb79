/* collectives.h - message schedules of MPI collective algorithms.
 *
 * A schedule is the list of point-to-point messages an algorithm sends to
 * carry out one collective call: (round, src, dst, bytes), ranks being
 * ranks of the communicator (0..P-1). Nothing is simulated here; the trace
 * module expands collectives into communication-graph edges with it and the
 * replay engine executes schedules round by round.
 *
 * Dependency rule (what a replay must respect): a rank starts its round-k
 * sends once every message addressed to it in rounds 0..k-1 has arrived.
 * Messages of one rank in one round are independent of each other. The call
 * completes at a rank when all its sends and receives have completed.
 *
 * Byte counts: `bytes[r]` (r = comm rank, P entries) is the size of rank r's
 * own contribution to the call - what the program handed to MPI - which is
 * what traces hold in memory (trace.h):
 *   bcast                 bytes[root] = payload (others ignored)
 *   scatter(v)            bytes[r] = the block root sends to r
 *   gather(v)             bytes[r] = the block r sends to root
 *   allgather(v)          bytes[r] = r's block
 *   reduce, allreduce,
 *   scan, exscan          bytes[r] = r's vector
 *   reduce_scatter        bytes[r] = r's own block of the result (the blocks
 *                         may differ; the vector is their sum)
 *   reduce_scatter_block  bytes[r] = r's whole input vector (split in P chunks)
 *   alltoall(v/w)         bytes[r] = all r sends (split in P equal chunks)
 *   barrier               ignored (messages carry 0 bytes)
 * `bytes` may be NULL: every contribution is then 0 bytes.
 * Score-P records other counts in CollectiveEnd (N x the vector of an
 * allreduce, N x the block of an allgather, ...): coll_contrib_of_record()
 * and coll_record_of_contrib() below convert between the two, one rule for
 * the reader and the writer of OTF2.
 *
 * Algorithms (registry `coll_algos`, names for --collectives):
 *   binomial            bcast/scatter (mask decreasing, contiguous subtrees),
 *                       reduce/gather (mask increasing): ceil(log2 P) rounds,
 *                       P-1 messages
 *   linear              rooted ops: root <-> every other rank in one round;
 *                       allgather(v), alltoall(v/w): every pair in one round;
 *                       barrier: every rank to 0, then 0 to every rank
 *   redbcast            allreduce: linear reduce to 0 + binomial bcast;
 *                       reduce_scatter: linear reduce to 0 + linear scatter
 *   recursive_doubling  allreduce (any P: the P - 2^floor(log2 P) extra ranks
 *                       fold in first and get the result last), allgather
 *                       (P a power of two), barrier
 *   ring                allgather (P-1 rounds, P(P-1) messages), allreduce
 *                       (reduce-scatter + allgather, 2(P-1) rounds)
 *   pairwise            alltoall(v/w), reduce_scatter: P-1 rounds, round k
 *                       r -> (r+k) mod P
 *   dissemination       barrier: ceil(log2 P) rounds, r -> (r + 2^k) mod P
 *   chain               scan/exscan: P-1 rounds, r -> r+1
 *   smpi                reduce_scatter(_block) as SMPI's default: redbcast
 *                       when every block is equal, else pairwise
 *   auto                the per-op default below
 * "auto" picks: binomial for rooted ops, dissemination for barrier,
 * pairwise for alltoall and reduce_scatter, chain for scans, and for
 * allreduce/allgather recursive doubling when the largest contribution is
 * below COLL_AUTO_SHORT_BYTES (and, for allgather, P is a power of two),
 * ring otherwise (MPICH's short/long message switch).
 *
 * Ownership: schedules are appended to a caller-owned GArray of coll_msg.
 * Not for: timing (sim/), reading collectives from traces (trace.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define COLL_ERROR (coll_error_quark())
GQuark coll_error_quark(void);

typedef enum {
  COLL_ERROR_ALGO,  /* unknown algorithm, or not defined for this op / size */
} CollError;

/* Collective operations: {code, name, OTF2_CollectiveOp value}. The codes
 * equal OTF2's values so traces map one to one. */
#define COLL_OPS(X)                                         \
  X(COLL_BARRIER, "barrier", 0)                             \
  X(COLL_BCAST, "bcast", 1)                                 \
  X(COLL_GATHER, "gather", 2)                               \
  X(COLL_GATHERV, "gatherv", 3)                             \
  X(COLL_SCATTER, "scatter", 4)                             \
  X(COLL_SCATTERV, "scatterv", 5)                           \
  X(COLL_ALLGATHER, "allgather", 6)                         \
  X(COLL_ALLGATHERV, "allgatherv", 7)                       \
  X(COLL_ALLTOALL, "alltoall", 8)                           \
  X(COLL_ALLTOALLV, "alltoallv", 9)                         \
  X(COLL_ALLTOALLW, "alltoallw", 10)                        \
  X(COLL_ALLREDUCE, "allreduce", 11)                        \
  X(COLL_REDUCE, "reduce", 12)                              \
  X(COLL_REDUCE_SCATTER, "reduce_scatter", 13)              \
  X(COLL_SCAN, "scan", 14)                                  \
  X(COLL_EXSCAN, "exscan", 15)                              \
  X(COLL_REDUCE_SCATTER_BLOCK, "reduce_scatter_block", 16)

typedef enum {
#define COLL_OP_ENUM(code, name, otf2) code = otf2,
  COLL_OPS(COLL_OP_ENUM)
#undef COLL_OP_ENUM
  COLL_NOPS,
  COLL_OTHER = 255, /* a non-MPI-data collective (RMA window handles ...) */
} coll_op;

/* Threshold of "auto" for allreduce/allgather, bytes per contribution. */
#define COLL_AUTO_SHORT_BYTES 8192

typedef struct coll_msg {
  int round;      /* 0-based; see the dependency rule above */
  int src, dst;   /* communicator ranks */
  int64_t bytes;
} coll_msg;

typedef void (*coll_build_fn)(coll_op op, int P, int root, const int64_t *bytes, GArray *out);

typedef struct coll_algo {
  const char *name;
  uint32_t ops;          /* bit (1u << op) for each op it implements */
  const char *summary;
  coll_build_fn build;   /* NULL for "auto" */
} coll_algo;

extern const coll_algo coll_algos[];
extern const int coll_nalgos;

/* Name of an op ("other" for COLL_OTHER or unknown codes); static string. */
const char *coll_op_name(int op);
/* Op code for a name; FALSE when unknown. */
gboolean coll_op_from_name(const char *name, coll_op *op);

/* Which algorithm each op uses, and whether collective traffic counts in
 * static views: parsed once from a --collectives spec and read both by the
 * replay and by the static expansion (trace_commgraph), so that static
 * metrics and the simulation see the same messages. */
typedef struct coll_choice {
  gboolean none;                /* "none": static views count p2p only */
  const char *algo[COLL_NOPS];  /* per op; NULL: auto */
  gboolean strict[COLL_NOPS];   /* named for this op: must fit its call */
} coll_choice;

/* Parses a --collectives spec: comma-separated items, each
 *   auto        the per-op defaults (also NULL or "");
 *   smpi        SimGrid 3.32 SMPI's default selector where mapsim has its
 *               algorithm (collectives.c: smpi_defaults), auto elsewhere;
 *   none        collectives not counted in static metrics and the pre/post
 *               check (the replay still runs them, with auto);
 *   ALGO        ALGO for every op it implements, where it fits the call's
 *               size (auto otherwise);
 *   OP=ALGO     ALGO for OP, which it must implement and fit.
 * Fails (COLL_ERROR_ALGO, naming the item) on unknown ops or algorithms. */
gboolean coll_choice_parse(coll_choice *c, const char *spec, GError **error);

/* Appends the messages of one call of `op` on P ranks (root in [0,P) for
 * rooted ops, ignored otherwise) to `out` (GArray of coll_msg), sorted by
 * round, with the choice's algorithm for `op`; an ALGO that does not fit
 * the call (not strict) falls back to auto (collectives-private.h:
 * coll_schedule). */
gboolean coll_schedule_choice(const coll_choice *c, coll_op op, int P, int root,
                              const int64_t *bytes, GArray *out, GError **error);

/* Number of rounds of a schedule (max round + 1; 0 when empty). */
int coll_nrounds(const coll_msg *msgs, size_t n);

/* ---- the byte counts of an MPI collective record ----------------------
 *
 * Score-P (scorep_mpi_coll_bytes_* in Score-P 8, the same formulas since
 * Score-P 1.x in SCOREP_Mpi_Coll.c) records for rank `me` of P, block b,
 * vector v, what a rank sends / receives counting the blocks to and from
 * itself:
 *   bcast            root P*b / b, others 0 / b
 *   scatter          root P*b / b, others 0 / b
 *   scatterv         root sum of the blocks / own block, others 0 / b
 *   gather, reduce   root b / P*b, others b / 0
 *   gatherv          root own block / sum of the blocks, others b / 0
 *   allgather,
 *   allreduce        P*b / P*b
 *   allgatherv       P*b / sum of the blocks
 *   alltoall(v/w)    all sent / all received
 *   reduce_scatter   the whole vector / P * own block
 *   reduce_scatter_block  the whole vector / the whole vector
 *   scan             (P-me)*v / (me+1)*v
 *   exscan           (P-me-1)*v / me*v
 * With MPI_IN_PLACE every count loses the rank's block to itself: P
 * becomes P-1 (allreduce, allgather(v), alltoall, reduce_scatter_block),
 * the root of a rooted op records 0 for the side it keeps in place, an
 * in-place scan records (P-me-1)*v / me*v.
 *
 * The record does not say whether MPI_IN_PLACE was used. Where the counts
 * themselves show it - a root of gather/reduce that sent 0, a root of
 * scatter that received 0, a scan whose two counts do not fit (P-me) :
 * (me+1) - the in-place formula is inverted; everywhere else the call is
 * taken as not in place, so an in-place allreduce, allgather(v) or
 * alltoall reads as (P-1)/P of its contribution (half of it on two ranks),
 * and the middle rank of an in-place scan on an odd P as (P-1)/(P+1).
 * Divisions round down (exact on Score-P's records). */

/* The contribution (conventions above) of rank `me` of P, the root when
 * `is_root`, whose record counts `sent` / `recvd` bytes. */
int64_t coll_contrib_of_record(coll_op op, int P, int me, gboolean is_root, int64_t sent,
                               int64_t recvd);

/* The counts Score-P records for a call, not in place, in which rank `me`
 * of P contributes `contrib`. What a rank receives in a gatherv (root),
 * allgatherv, alltoallv/w or reduce_scatter depends on the other ranks'
 * blocks, which `contrib` does not give: *recvd is left as the caller set
 * it for those (the count a read trace holds); the sent count of a
 * scatterv root takes every block equal to its own. Saturates at
 * INT64_MAX. */
void coll_record_of_contrib(coll_op op, int P, int me, gboolean is_root, int64_t contrib,
                            int64_t *sent, int64_t *recvd);

G_END_DECLS
