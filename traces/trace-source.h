/* trace-source.h - a trace as the replay reads it: whole in memory, or
 * streamed from an OTF2 archive rank by rank in bounded windows.
 *
 * A source gives the definitions (ranks, regions, communicators, record
 * statistics: a `trace` whose event arrays may be empty), the number of
 * retained records of every rank, each rank's records in order
 * (trace_source_read, sequential per rank), and what needs a pass over
 * the whole trace: the collective calls of every rank (trace_colls) and
 * the communication graph.
 *
 * In memory (trace_source_memory): a borrowed trace; reads copy nothing
 * (trace_source_direct gives the arrays); the collective calls are
 * collected when the source is made.
 *
 * Streamed (trace_source_stream): one pass over the archive (locations in
 * batches on reading threads, otf2-read.c) computes the whole-pass facts and
 * re-encodes every retained record compactly (1-2 bytes of kind and
 * presence flags, then variable-length integers: about 7 bytes for a p2p
 * record instead of 48) into an unlinked temporary file per reader
 * thread; reads decode from there. Memory is O(ranks + collective calls +
 * distinct communication pairs), never O(records): the replay holds a
 * window of records per rank. Why not straight from the archive: libotf2
 * holds a whole event chunk (at least 256 KiB, memset on creation) per
 * open location reader, and re-positioning a closed one reloads a chunk
 * and skips records up to the position - 1 GiB for 4,096 open readers, or
 * a chunk per window refill.
 *
 * Ownership: sources own their spill files (unlinked from the start, closed
 * when freed); the in-memory source borrows its trace. Threads: a source
 * does not change once made; each reader has its own trace_cursor.
 * Not for: writing traces.
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

/* Streams the OTF2 archive `path` (as trace_read_otf2 reads it; same
 * records, same errors). The first pass reports "read: records" to `pr`.
 * An EZTrace archive (recognised from its global definitions, before any
 * event is read) is read whole into memory instead (approximating its
 * receive completions needs every rank's sends; trace_read_otf2), held by
 * the source: not streamed, its notice in trace_source_trace(), "read:
 * records" reported once, when the read is done. */
trace_source *trace_source_stream(const char *path, const progress *pr, GError **error);

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
