/* trace-source.h - a trace as the replay reads it: whole in memory, or
 * streamed from its reader rank by rank in bounded windows.
 *
 * A source gives the definitions (ranks, regions, communicators, record
 * statistics: a `trace` whose event arrays may be empty), the number of
 * retained records of every rank, each rank's records in order
 * (a trace_cursor, sequential per rank), and what needs a pass over
 * the whole trace: the collective calls of every rank (trace_colls) and
 * the communication graph.
 *
 * In memory (trace_source_memory): a borrowed trace; reads copy nothing
 * (trace_source_direct gives the arrays); the collective calls are
 * collected when the source is made. trace_source_owned does the same for
 * a trace the source then owns.
 *
 * Streamed (trace_source_scan): a reader's scan (a trace_scan_fn: the
 * OTF2 reader's reads locations in batches on reading threads) hands
 * every retained record to a trace_sink; one such pass computes the
 * whole-pass facts and re-encodes every record compactly (1-2 bytes of
 * kind and presence flags, then variable-length integers: about 7 bytes for
 * a p2p record instead of 48) into an unlinked temporary file per reader
 * thread; reads decode from there. Memory is O(ranks + collective calls +
 * distinct communication pairs), never O(records): the replay holds a
 * window of records per rank. Why not straight from the file: libotf2
 * holds a whole event chunk (at least 256 KiB, memset on creation) per
 * open location reader, and re-positioning a closed one reloads a chunk
 * and skips records up to the position - 1 GiB for 4,096 open readers, or
 * a chunk per window refill. Which reader a path needs is input.h's
 * business: it makes the sources.
 *
 * Ownership: sources own their spill files (unlinked from the start, closed
 * when freed); the in-memory source borrows its trace. Threads: a source
 * does not change once made; each reader has its own trace_cursor.
 * Not for: writing traces; choosing the format of a path (input.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "traces/commgraph.h"
#include "traces/trace-colls.h"
#include "traces/trace.h"
#include "util/progress.h"

G_BEGIN_DECLS

typedef struct trace_source trace_source;

/* A borrowed in-memory trace. */
trace_source *trace_source_memory(const trace *t);

/* A borrowed in-memory trace owned by the source from now on (freed with
 * it): what a format that cannot stream gives the replay. */
trace_source *trace_source_owned(trace *t);

/* Where a streaming reader hands the records it keeps, instead of a
 * trace's event arrays. `defs` is called once with the definitions (ranks,
 * regions, communicators; no events: the trace the scan will return)
 * before any record; then for every rank, once: begin (with the rank's
 * record count if the file announces one, else 0), its retained records in
 * time order, end. A reader may read ranks on `workers` threads: the calls
 * for one rank come from one worker (its index, below `workers`, is passed),
 * different workers at the same time; a reader of one thread passes 0. */
typedef struct trace_sink {
  gboolean (*defs)(void *user, trace *defs, GError **error);
  void (*begin)(void *user, int worker, int rank, uint64_t nevents);
  void (*record)(void *user, int worker, int rank, const trace_event *e);
  void (*end)(void *user, int worker, int rank);
  void *user;
  double stall_seconds;      /* a reader that watches for a stall (OTF2's) gives
                              * up after this long; 0: its own default */
} trace_sink;

/* A reader's streaming pass over `path`: the definitions (returned, the
 * caller's; statistics filled, events and duration left to the sink's
 * records) and every record through `sink`. NULL + error (file, record,
 * expectation) on bad input; TRACE_SOURCE_READ_WHOLE (domain TRACE_ERROR)
 * before `defs` when this file cannot be streamed and must be read whole. */
typedef trace *(*trace_scan_fn)(const char *path, const trace_sink *sink, int workers,
                                GError **error);

/* The code of a scan that found, before handing anything over, that its
 * file needs the whole trace (an EZTrace archive: its receive completions
 * need every rank's sends, otf2-eztrace.c). Never reaches users. */
enum { TRACE_SOURCE_READ_WHOLE = 100 };

/* Streams `path` through `scan`: one pass (reported as "read: records" to
 * `pr`) into the spill files. When the scan says TRACE_SOURCE_READ_WHOLE,
 * or there is no scan (NULL), `read` reads it into memory instead, held by
 * the source (not streamed; "read: records" reported once, when the read
 * is done). */
trace_source *trace_source_scan(trace_scan_fn scan, trace *(*read)(const char *path, GError **error),
                                const char *path, const progress *pr, GError **error);

/* Definitions, statistics and duration; events only for in-memory sources. */
const trace *trace_source_trace(const trace_source *s);
gboolean trace_source_streamed(const trace_source *s);
int64_t trace_source_records(const trace_source *s, int rank);
int64_t trace_source_total(const trace_source *s);

/* In memory: the rank's record array; streamed: NULL. */
const trace_event *trace_source_direct(const trace_source *s, int rank);

/* A reader of a source: its own position in every rank, so that several
 * runs (threads) read one source at once. */
typedef struct trace_cursor trace_cursor;
trace_cursor *trace_cursor_new(const trace_source *s);
/* Copies rank's next records (from where the last call stopped) into buf,
 * at most `max`; returns how many, 0 at the end. */
int64_t trace_cursor_read(trace_cursor *c, int rank, trace_event *buf, int64_t max);
size_t trace_cursor_bytes(const trace_cursor *c);
void trace_cursor_free(trace_cursor *c);

/* The collective calls of every rank. */
const trace_colls *trace_source_colls(const trace_source *s);

/* Where the traced time went (trace_time_split). */
void trace_source_times(const trace_source *s, trace_times *out);

/* The communication graph, as trace_commgraph() gives it for the same
 * trace. Caller frees. */
commgraph *trace_source_commgraph(const trace_source *s, gboolean with_collectives,
                                  const char *algo, GError **error);

/* Bytes the source holds in memory (not counting a borrowed trace). */
size_t trace_source_bytes(const trace_source *s);

void trace_source_free(trace_source *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(trace_source, trace_source_free)

G_END_DECLS
