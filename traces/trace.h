/* trace.h - the compact in-memory trace of an MPI run.
 *
 * A trace holds, per world rank, the time-ordered array of that rank's MPI
 * records: Enter/Leave of MPI regions (the gaps between an MPI Leave and the
 * next Enter are the computation a replay reproduces), point-to-point
 * sends and receives, request tests/cancels, and collective begin/end.
 * Records are fixed-size `trace_event`s (48 bytes, payload inline, nothing
 * allocated per event). Times are int64 picoseconds from the trace start;
 * peers are WORLD ranks (communicator ranks are translated on read), so a
 * replay never needs the communicator to route a message - it needs it only
 * to match messages (src, dst, comm, tag in order) and to run collectives.
 *
 * Collective records hold the rank's own contribution to the call in
 * `bytes`, as collectives.h defines it (the vector of an allreduce, the
 * block of an allgather), not the counts Score-P writes into OTF2 (N times
 * as much for an allreduce): the reader and the writer convert with
 * coll_contrib_of_record() / coll_record_of_contrib(). `bytes_recv` keeps
 * what the record says the rank received, which the models never read
 * (written back as it is where the contribution cannot give it).
 *
 * Tables: `regions` (names of the MPI regions referenced by ENTER/LEAVE),
 * `comms` (size and world rank of each member; a COMM_SELF communicator is
 * private to each rank: flag `self`, size 1, members NULL - resolve it with
 * trace_comm_world_rank()).
 *
 * Built by the readers (input.h opens a path with the right one; OTF2's is
 * trace_read_otf2(), otf2-read.c), by the synthesizers (synth.h) or by hand
 * with trace_new()/trace_push(); written by trace_write_otf2().
 *
 * Ownership: a trace owns all its arrays and strings; free it with
 * trace_free() (NULL is a no-op). Pointers into a trace stay valid until it
 * is freed or events are pushed to the same rank.
 * Not for: OTF2 details (otf2-read.c/otf2-write.c), simulation (sim/).
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "traces/collectives.h"
#include "traces/commgraph.h"
#include "util/field.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define TRACE_ERROR (trace_error_quark())
GQuark trace_error_quark(void);

typedef enum {
  TRACE_ERROR_IO,       /* missing or unreadable file or directory */
  TRACE_ERROR_FORMAT,   /* not OTF2, truncated or corrupt archive */
  TRACE_ERROR_CONTENT,  /* valid OTF2 but not usable: no MPI, bad references */
  TRACE_ERROR_WRITE,    /* cannot write the output */
} TraceError;

/* Event kinds {code, name, which trace_event fields are meaningful}. */
#define TRACE_EVENT_KINDS(X)                                                        \
  X(TRACE_ENTER, "enter", "region")                                                 \
  X(TRACE_LEAVE, "leave", "region")                                                 \
  X(TRACE_SEND, "send", "peer=receiver comm tag bytes")                             \
  X(TRACE_ISEND, "isend", "peer=receiver comm tag bytes request")                   \
  X(TRACE_ISEND_COMPLETE, "isend_complete", "request")                              \
  X(TRACE_IRECV_REQUEST, "irecv_request", "request")                                \
  X(TRACE_RECV, "recv", "peer=sender comm tag bytes")                               \
  X(TRACE_IRECV, "irecv", "peer=sender comm tag bytes request")                     \
  X(TRACE_REQUEST_TEST, "request_test", "request")                                  \
  X(TRACE_REQUEST_CANCELLED, "request_cancelled", "request")                        \
  X(TRACE_COLL_BEGIN, "coll_begin", "(none)")                                       \
  X(TRACE_COLL_END, "coll_end", "op peer=root(-1 none) comm bytes=contribution bytes_recv") \
  X(TRACE_NBCOLL_REQUEST, "nbcoll_request", "request")                              \
  X(TRACE_NBCOLL_COMPLETE, "nbcoll_complete", "op peer=root comm bytes bytes_recv request")

typedef enum {
#define TRACE_KIND_ENUM(code, name, fields) code,
  TRACE_EVENT_KINDS(TRACE_KIND_ENUM)
#undef TRACE_KIND_ENUM
  TRACE_NKINDS
} trace_kind;

/* One record. Fields not listed for the kind in TRACE_EVENT_KINDS are 0. */
typedef struct trace_event {
  int64_t time;        /* ps since the trace start */
  int64_t bytes;       /* message size; collectives: the rank's contribution */
  int64_t bytes_recv;  /* collectives: bytes received as Score-P counts them */
  uint64_t request;    /* request id (non-blocking kinds), unique per rank while live */
  uint32_t comm;       /* index into trace.comms */
  int32_t peer;        /* WORLD rank of the partner; collective root or -1 */
  union {
    uint32_t tag;      /* p2p kinds */
    uint32_t region;   /* ENTER/LEAVE: index into trace.regions */
    uint32_t op;       /* collective kinds: coll_op */
  };
  uint8_t kind;        /* trace_kind */
  uint8_t pad_[3];
} trace_event;

G_STATIC_ASSERT(sizeof(trace_event) <= 48);

typedef struct trace_comm {
  char *name;          /* may be "" */
  int size;            /* 1 for COMM_SELF */
  int *members;        /* size entries: world rank of comm rank r; NULL if self */
  gboolean self;       /* COMM_SELF: the calling rank is the only member */
} trace_comm;

typedef struct trace_rank {
  trace_event *events; /* nevents records, time ascending */
  int64_t nevents;
  int64_t capacity;    /* allocated records (trace_shrink() makes it nevents) */
} trace_rank;

/* Counts of the OTF2 records seen while reading (all locations, before any
 * filtering), so they compare with otf2-print; index = otf2 record type. */
#define TRACE_RECORD_TYPES(X)                                       \
  X(REC_ENTER, "ENTER") X(REC_LEAVE, "LEAVE")                       \
  X(REC_MPI_SEND, "MPI_SEND") X(REC_MPI_ISEND, "MPI_ISEND")         \
  X(REC_MPI_ISEND_COMPLETE, "MPI_ISEND_COMPLETE")                   \
  X(REC_MPI_IRECV_REQUEST, "MPI_IRECV_REQUEST")                     \
  X(REC_MPI_RECV, "MPI_RECV") X(REC_MPI_IRECV, "MPI_IRECV")         \
  X(REC_MPI_REQUEST_TEST, "MPI_REQUEST_TEST")                       \
  X(REC_MPI_REQUEST_CANCELLED, "MPI_REQUEST_CANCELLED")             \
  X(REC_MPI_COLLECTIVE_BEGIN, "MPI_COLLECTIVE_BEGIN")               \
  X(REC_MPI_COLLECTIVE_END, "MPI_COLLECTIVE_END")                   \
  X(REC_NB_COLLECTIVE_REQUEST, "NON_BLOCKING_COLLECTIVE_REQUEST")   \
  X(REC_NB_COLLECTIVE_COMPLETE, "NON_BLOCKING_COLLECTIVE_COMPLETE") \
  X(REC_MEASUREMENT_ON_OFF, "MEASUREMENT_ON_OFF")                   \
  X(REC_OTHER, "OTHER")

typedef enum {
#define TRACE_REC_ENUM(code, name) code,
  TRACE_RECORD_TYPES(TRACE_REC_ENUM)
#undef TRACE_REC_ENUM
  TRACE_NRECS
} trace_rec;

typedef struct trace_stats {
  int locations;             /* all locations defined in the archive */
  int64_t records[TRACE_NRECS]; /* records read per type (otf2-print names) */
  int64_t unbalanced;        /* MPI Leaves without Enter + Enters never left */
} trace_stats;

/* The OTF2 creator mapsim's writer (otf2-write.c) names: a trace it wrote
 * (gen, simulate --out-trace) is synthetic, not measured - its times are a
 * model's, no core was shared (the tracer's archives name "mapsim-trace"). */
#define TRACE_SYNTHETIC_CREATOR "mapsim"

typedef struct trace {
  int nranks;                /* world size */
  trace_rank *ranks;         /* nranks */
  char **regions;            /* nregions region names */
  int nregions;
  trace_comm *comms;         /* ncomms */
  int ncomms;
  uint32_t world;            /* index of MPI_COMM_WORLD in comms */
  uint64_t timer_resolution; /* ticks per second of the source clock */
  uint64_t start_ticks;      /* source clock value of time 0 (global offset) */
  int64_t duration_ps;       /* length of the trace (>= last event time) */
  trace_stats stats;         /* filled by the reader; zero for built traces */
  char *notice;              /* what the reader had to approximate, one line for
                              * the user (an EZTrace archive: otf2-eztrace.c), or
                              * NULL; owned by the trace */
  char *creator;             /* the program that wrote the file, as the file names
                              * it ("Score-P 3.0", "mapsim", "mapsim-trace";
                              * "EZTrace" for EZTrace's archives, which name
                              * none), or NULL; owned by the trace */
} trace;

/* Did mapsim's own writer make t (its creator TRACE_SYNTHETIC_CREATOR)? */
static inline gboolean trace_is_synthetic(const trace *t)
{
  return t->creator && strcmp(t->creator, TRACE_SYNTHETIC_CREATOR) == 0;
}

/* Statistics of the retained events (what `mapsim trace info` prints). */
typedef struct trace_summary {
  int64_t events;                  /* retained records, all ranks */
  int64_t per_kind[TRACE_NKINDS];
  int64_t p2p_messages;            /* SEND + ISEND */
  int64_t p2p_bytes;
  int64_t collective_calls;        /* COLL_END + NBCOLL_COMPLETE, summed over ranks */
  int64_t per_op[COLL_NOPS + 1];   /* collective calls per op, last = other */
  int64_t unmatched_sends;         /* sends without a receive (src,dst,comm,tag order) */
  int64_t unmatched_recvs;         /* receives without a send */
  int64_t mismatched_bytes;        /* matched pairs whose sizes differ */
} trace_summary;

/* Empty trace of `nranks` ranks with MPI_COMM_WORLD (comm 0, members
 * 0..nranks-1) and COMM_SELF (comm 1), timer 1e12 ticks/s. */
trace *trace_new(int nranks);
/* Appends a region name; returns its index. */
uint32_t trace_add_region(trace *t, const char *name);
/* Appends a communicator of `size` members (world ranks, copied); returns
 * its index. */
uint32_t trace_add_comm(trace *t, const char *name, int size, const int *members);
/* Appends a record to rank `rank` (amortized O(1)); events must be pushed
 * in time order per rank. Returns the stored record. */
trace_event *trace_push(trace *t, int rank, const trace_event *ev);
/* Trims every rank's array to its size (after reading). */
void trace_shrink(trace *t);
/* Bytes held by the event arrays (capacity * record size). */
size_t trace_event_bytes(const trace *t);

/* World rank of communicator rank `comm_rank` of `comm`, seen by world
 * rank `me` (needed for COMM_SELF); -1 when out of range. */
int trace_comm_world_rank(const trace *t, uint32_t comm, int me, int comm_rank);

/* Communicator rank of world rank `world` in `comm` (0 in a COMM_SELF
 * communicator), -1 when it is not a member. O(comm size). */
int trace_comm_rank(const trace *t, uint32_t comm, int world);

/* Name of an event kind / OTF2 record type; static strings. */
const char *trace_kind_name(int kind);
const char *trace_rec_name(int rec);

/* Counts per kind, message totals and send/receive matching, O(events);
 * the matching uses a hash table keyed by (src, dst, comm, tag). */
void trace_summarize(const trace *t, trace_summary *out);

/* What time inside an MPI region counts as. The class of a region comes
 * from its name (trace_region_class_of); a region holding point-to-point
 * records counts as p2p, one holding a collective record as collective
 * (the replay accounts its simulated time by the same rule). */
typedef enum {
  TRACE_REGION_OTHER_MPI,  /* other MPI calls (and non-MPI regions) */
  TRACE_REGION_P2P,        /* MPI_*send*, *recv*, Wait*, Test*, Probe, Start */
  TRACE_REGION_COLL,       /* MPI collectives, blocking or not */
} trace_region_class;

trace_region_class trace_region_class_of(const char *name);

/* Where the traced time went, summed over ranks (ps): outside MPI regions
 * (computation, the gap before the first record included), and inside them
 * by class; setup_ps is the part of other_mpi_ps spent in MPI_Init and
 * MPI_Finalize. O(records). */
typedef struct trace_times {
  int64_t duration_ps;      /* the trace's length (t->duration_ps) */
  int64_t compute_ps, p2p_ps, coll_ps, other_mpi_ps, setup_ps;
} trace_times;

void trace_time_split(const trace *t, trace_times *out);

/* The same one record at a time, for readers that never hold the trace:
 * one zeroed state per rank, its records in order; `kinds` from
 * trace_region_kinds() (the class of each region and TRACE_REGION_SETUP,
 * computed once instead of from the name at every Enter; caller frees). */
#define TRACE_REGION_SETUP 4
uint8_t *trace_region_kinds(const trace *t);
typedef struct trace_time_rank {
  int depth;
  trace_region_class cls;
  gboolean setup;
  int64_t start, prev;
} trace_time_rank;
void trace_time_step(const trace *t, const uint8_t *kinds, trace_time_rank *st,
                     const trace_event *e, trace_times *out);

/* Names of the traced times for outputs (util/field.h), in order. */
extern const field trace_times_fields[];
extern const int trace_times_nfields;

/* The communication graph: per (sender, receiver) bytes and messages of
 * the point-to-point sends; with `with_collectives` also the messages of
 * every collective call as the replay schedules them under the
 * --collectives spec `algo` (coll_choice_parse: NULL or "auto", "none" =
 * p2p only, an algorithm, OP=ALGORITHM items). Calls are matched across
 * members by their order on the communicator. Returns NULL and sets
 * `error` for a bad spec. Caller frees with commgraph_free(). */
commgraph *trace_commgraph(const trace *t, gboolean with_collectives, const char *algo,
                           GError **error);

/* Reads an OTF2 archive (otf2-read.c). `path`: the anchor file or its
 * directory (then <dir>/traces.otf2, or the directory's only *.otf2 file,
 * as EZTrace names it <program>_trace/eztrace_log.otf2). NULL + error
 * (file: what was expected) on bad input; OTF2's own error printing is
 * silenced. EZTrace 2.x archives are read too: their non-blocking
 * receives have no completion records, which the reader approximates
 * (otf2-eztrace.c) and says so in `notice`. */
trace *trace_read_otf2(const char *path, GError **error);

/* Writes `t` as an OTF2 archive in directory `dir` (created; it must not
 * exist or be empty), anchor `dir`/traces.otf2, with Score-P-like
 * definitions; timer 1e12 ticks/s so times round-trip exactly. Written to a
 * temporary sibling directory, renamed at the end (util/output.h); ranks
 * written are reported to `prog` (may be NULL), and once it says stop the
 * temporary is removed and the error is "interrupted". */
gboolean trace_write_otf2(const trace *t, const char *dir, const progress *prog, GError **error);

/* A series written as an OTF2 metric next to the ranks: value[i] holds
 * from time[i] (ps) until time[i + 1] (OTF2_METRIC_ABSOLUTE_NEXT), times
 * ascending. Borrowed by the writer. */
typedef struct trace_counter {
  const char *name;     /* the metric location's name ("link 0 -> 1 (x+, optical)") */
  const char *unit;     /* "bytes/s" */
  int64_t n;
  const int64_t *time;
  const double *value;
} trace_counter;

/* trace_write_otf2() with counters: one metric location per counter in a
 * location group "network" (after the ranks' locations), one metric
 * member named after `what` with the counters' unit, values as doubles
 * (otf2-counters.c). Vampir shows them as counter timelines. */
gboolean trace_write_otf2_counters(const trace *t, const trace_counter *c, int nc,
                                   const char *what, const char *dir, const progress *prog,
                                   GError **error);

void trace_free(trace *t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(trace, trace_free)

G_END_DECLS
