/* otf2-read-private.h - what the OTF2 reader's files share (otf2-read.c
 * the definitions and the entry point, otf2-watch.c the reading threads
 * and their watchdog, otf2-events.c the event records, otf2-check.c the
 * archive's files before libotf2 opens them); not for users of traces/,
 * nor for the other files of the folder.
 *
 * One way: otf2-read.c -> otf2-watch.c -> otf2-events.c -> otf2-check.c.
 *
 * Ownership: the reader_ctx and its tables belong to otf2_scan; each
 * evt_ctx to the reading thread that reads its batch. When the watchdog
 * abandons the threads, a heap copy of the reader, its tables, the trace
 * and the anchor's path go to them: the last to end frees them.
 */
#pragma once

#include <otf2/otf2.h>

#include "traces/trace-private.h"

typedef struct {
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  uint32_t nmembers;
  uint64_t *members;
} def_group;

typedef struct {
  OTF2_LocationRef id;
  OTF2_LocationType type;
  uint64_t nevents;
  int rank;  /* world rank, -1 if not an MPI rank location */
} def_location;

typedef struct {
  const char *path;       /* anchor file */
  GError **error;
  trace *t;
  GHashTable *strings;    /* ref -> char* */
  GHashTable *regions;    /* region ref -> index+1 in t->regions, 0 = not MPI */
  GHashTable *groups;     /* ref -> def_group* (communicator groups) */
  GHashTable *locgroups;  /* ref -> def_group* of type COMM_LOCATIONS: EZTrace gives
                           * it the id of MPI_COMM_WORLD's COMM_GROUP */
  GHashTable *comms;      /* comm ref -> index+1 in t->comms */
  /* the same as flat arrays when the refs are small (they usually count
   * from 0): one load per record instead of a hash lookup */
  uint32_t *region_of, *comm_of;
  uint32_t nregion_of, ncomm_of;
  GArray *locations;      /* def_location */
  GArray *comm_defs;      /* pairs (comm ref, group ref, name ref) as uint64 triples */
  uint64_t resolution, offset, length;
  uint64_t def_chunk;     /* the anchor's definition chunk size */
  trace_stats stats;
  const trace_sink *sink;  /* where retained records go (NULL: into t) */
  gboolean eztrace;       /* written by EZTrace (otf2-eztrace-private.h) */
  gboolean no_creator;    /* the anchor names no creator: EZTRACE_MARK decides */
  char *creator;          /* the anchor's creator until the trace takes it, or NULL */
  gboolean abandoned;     /* the watchdog gave up on the reading threads */
  uint64_t kept;          /* EZTrace, in memory: events budgeted so far (atomic) */
} reader_ctx;

#define COMM_CACHE 16

/* One batch of locations read by one thread with its own OTF2_Reader; the
 * reader_ctx is shared and read-only while events are read. */
typedef struct evt_ctx {
  const reader_ctx *defs;
  trace *t;
  int worker;             /* 0 .. workers-1: which reading thread reads this batch */
  guint first, n;         /* locations [first, first + n) of c->locations */
  GError *error;
  trace_stats stats;      /* records and unbalanced counts of this batch */
  /* per-location state while reading events */
  int cur_rank;
  int depth;
  uint64_t cur_location;
  uint64_t loc_nevents, loc_records; /* announced and read so far */
  uint64_t beat;                      /* records and locations seen: the watchdog reads it */
  gint abandoned;                     /* set by the watchdog: touch nothing shared any more */
  uint64_t loc_time;                  /* the last timestamp read */
  uint64_t *kept;                     /* EZTrace in memory: the shared count to budget */
  uint64_t unbudgeted;                /* events pushed and not yet added to *kept */
  /* the current rank's rank in recently used communicators (collectives) */
  uint32_t me_comm[COMM_CACHE];
  int me_rank[COMM_CACHE];
} evt_ctx;

#define READ_BATCH 256

/* "<dir>/traces/<location>.<ext>" of the anchor "<dir>/traces.otf2"
 * (otf2-check.c). Caller frees. */
char *otf2_location_path(const char *anchor, uint64_t loc, const char *ext);

static inline char *otf2_evt_path(const char *anchor, uint64_t loc)
{
  return otf2_location_path(anchor, loc, "evt");
}

static inline char *otf2_def_path(const char *anchor, uint64_t loc)
{
  return otf2_location_path(anchor, loc, "def");
}

/* Frees the reader's definition tables, not the trace, not the path
 * (otf2-watch.c, whose abandoned threads free them too). */
void otf2_reader_free_tables(reader_ctx *c);

/* One batch (otf2-events.c): its own reader, the local definitions of its
 * locations (mapping tables, clock offsets), then their events, location
 * by location, into c->t or the sink; the first error into c->error. Runs
 * on a reading thread. */
void otf2_read_batch(evt_ctx *c);

/* Every location's definitions and events in batches on `workers` reading
 * threads watched for a stall (otf2-watch.c); statistics summed into c,
 * the first error in location order into *c->error. When the watchdog
 * gives up, c->abandoned is set and c->t, c's tables and c->path are left
 * to the stuck threads (the caller must not free them). */
gboolean otf2_read_events_watched(reader_ctx *c, int workers);
