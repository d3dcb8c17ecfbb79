/* trace-private.h - helpers shared by the trace module's own files
 * (reader, writer, synthesizers); not for users of traces/.
 */
#pragma once

#include <otf2/otf2.h>
#include <stdarg.h>

#include "traces/trace-source.h"
#include "traces/trace.h"

/* A trace of `nranks` ranks with no communicator and no region yet. */
trace *trace_alloc(int nranks);

/* Reserves room for `n` more records on `rank` (amortizes reading). */
void trace_reserve(trace *t, int rank, int64_t n);

/* ps from source ticks: (ticks - offset) * 1e12 / resolution, exact when
 * resolution divides 1e12 or equals it; FALSE for ticks before the offset
 * or a result beyond int64 picoseconds (106 days). */
gboolean trace_ticks_to_ps(uint64_t ticks, uint64_t offset, uint64_t resolution, int64_t *ps);

/* The anchor file of `path`: a .otf2 file, or a directory holding
 * traces.otf2 (Score-P, mapsim) or else exactly one *.otf2 file (EZTrace's
 * eztrace_log.otf2), with the OTF2 signature; NULL + error (may be NULL)
 * naming the file and what was expected otherwise. Caller frees. */
char *otf2_find_anchor(const char *path, GError **error);

/* The first bytes of an OTF2 anchor: "\3BOTF2\0" (OTF2 1.x .. 3.x). */
gboolean otf2_magic(const char *head, size_t n);

/* Before libotf2 sees an archive (otf2-check.c): the anchor decoded and
 * checked (chunk sizes, substrate, compression, counts against the bytes
 * that hold them) and its global definition file present, with no group
 * record announcing more members than the record has bytes
 * (*def_chunk: the definition chunk size); then per location its event
 * file present and large enough for the events its definition announces,
 * its local definition file absent or not empty, with no group or mapping
 * table announcing more entries than its record has bytes. FALSE + an
 * error naming the file otherwise. */
gboolean otf2_check_anchor(const char *anchor, uint64_t *def_chunk, GError **error);
gboolean otf2_check_location(const char *evt, const char *def, uint64_t nevents,
                             uint64_t def_chunk, GError **error);

/* Writing an OTF2 archive rank by rank (otf2-write.c), so that a trace
 * never has to be in memory whole: `defs` gives the ranks, regions and
 * communicators (its event arrays are not read); each rank's events are
 * written once, in rank order or not; otf2_out_close() writes the
 * definitions and publishes the directory (util/output.h: a temporary
 * renamed to `dir`, refused once `prog` says stop). Any failure leaves
 * nothing behind once otf2_out_abort() or otf2_out_close() ran. */
typedef struct otf2_out otf2_out;
otf2_out *otf2_out_open(const char *dir, const trace *defs, const progress *prog,
                        GError **error);
gboolean otf2_out_rank(otf2_out *o, const trace *defs, int rank, const trace_event *ev,
                       int64_t n, GError **error);
gboolean otf2_out_close(otf2_out *o, const trace *defs, GError **error);
void otf2_out_abort(otf2_out *o);

/* otf2-counters.c: the events of counter `c` on its metric location, and
 * the definitions of counters c[0..nc-1] (strings from `first_string` on,
 * locations from `first_location` on, one location group after the
 * ranks'; nevents[i] records of counter i). */
OTF2_ErrorCode otf2_counter_events(OTF2_EvtWriter *w, const trace_counter *c);
void otf2_counter_defs(OTF2_GlobalDefWriter *gw, const trace_counter *c, int nc,
                       const char *what, uint32_t first_string, uint64_t first_location,
                       uint32_t group, const int64_t *nevents);

/* A read in which no record and no location start came for this long is
 * stuck (libotf2 looping on a damaged file): otf2_scan returns an error
 * naming the archive and leaves the reading threads their memory (the
 * last of them to end frees it). */
#define OTF2_STALL_SECONDS 120.0

/* Reads `path` like trace_read_otf2(); with a sink (trace-source.h) the
 * returned trace holds the definitions, statistics and duration but no
 * events (the duration then comes from the clock properties: the sink saw
 * the records). An EZTrace archive cannot be streamed (its receive
 * completions need every rank's sends, otf2-eztrace.c): given a sink,
 * otf2_scan recognises one from the global definitions and fails with
 * TRACE_SOURCE_READ_WHOLE before `defs` is called. A trace_scan_fn. */
trace *otf2_scan(const char *path, const trace_sink *sink, int workers, GError **error);

/* libotf2 reports errors through a per-thread callback and prints them by
 * default; the reader and the writer register this one, which prints
 * nothing (their errors come back as GErrors). */
OTF2_ErrorCode otf2_quiet(void *ud, const char *file, uint64_t line, const char *fn,
                          OTF2_ErrorCode code, const char *fmt, va_list va);
