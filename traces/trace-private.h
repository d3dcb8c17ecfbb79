/* trace-private.h - helpers shared by the trace module's own files
 * (reader, writer, synthesizers); not for users of traces/.
 */
#pragma once

#include "traces/trace.h"

/* A trace of `nranks` ranks with no communicator and no region yet. */
trace *trace_alloc(int nranks);

/* Reserves room for `n` more records on `rank` (amortizes reading). */
void trace_reserve(trace *t, int rank, int64_t n);

/* ps from source ticks: (ticks - offset) * 1e12 / resolution, exact when
 * resolution divides 1e12 or equals it. */
int64_t trace_ticks_to_ps(uint64_t ticks, uint64_t offset, uint64_t resolution);

/* Writing an OTF2 archive rank by rank (otf2-write.c), so that a trace
 * never has to be in memory whole: `defs` gives the ranks, regions and
 * communicators (its event arrays are not read); each rank's events are
 * written once, in rank order or not; otf2_out_close() writes the
 * definitions and renames the temporary directory to `dir`. Any failure
 * leaves nothing behind once otf2_out_abort() or otf2_out_close() ran. */
typedef struct otf2_out otf2_out;
otf2_out *otf2_out_open(const char *dir, const trace *defs, GError **error);
gboolean otf2_out_rank(otf2_out *o, const trace *defs, int rank, const trace_event *ev,
                       int64_t n, GError **error);
gboolean otf2_out_close(otf2_out *o, const trace *defs, GError **error);
void otf2_out_abort(otf2_out *o);
