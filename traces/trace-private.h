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
