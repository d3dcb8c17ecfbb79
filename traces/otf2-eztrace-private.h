/* otf2-eztrace-private.h - what the OTF2 reader does differently for
 * archives written by EZTrace 2.x (otf2-eztrace.c); not for users of
 * traces/.
 *
 * Recognising one: EZTrace leaves the anchor's creator empty and defines a
 * region "EZTrace finalize" in every archive; a creator naming EZTrace
 * counts too. What the reader then does: location event counts (EZTrace
 * announces 2 whatever the file holds) are bounded by the event file's
 * size instead; the COMM_LOCATIONS group and MPI_COMM_WORLD's COMM_GROUP
 * share id 0 (kept apart by otf2-read.c for every archive); after the read,
 * eztrace_complete_irecvs() gives every non-blocking receive the
 * completion record EZTrace does not write.
 */
#pragma once

#include <glib.h>

#include "traces/trace.h"

/* The region (and string) every EZTrace 2.x archive defines. */
#define EZTRACE_MARK "EZTrace finalize"

/* TRUE for an anchor creator string that names EZTrace. */
gboolean eztrace_creator(const char *creator);

/* Whether the archive at `path` (as trace_read_otf2 takes it) was written
 * by EZTrace: its creator, else its global definitions' strings. FALSE
 * for anything unreadable (the reader then reports it). */
gboolean eztrace_probe(const char *path);

/* Gives each MPI_IRECV_REQUEST of `t` that no MPI_IRECV completes a
 * completion record (rules at the top of otf2-eztrace.c) and sets
 * t->notice, naming `anchor`, when there was any. O(records log records). */
void eztrace_complete_irecvs(trace *t, const char *anchor);
