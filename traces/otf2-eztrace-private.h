/* otf2-eztrace-private.h - what the OTF2 reader does differently for
 * archives written by EZTrace 2.x (otf2-eztrace.c); not for users of
 * traces/.
 *
 * Recognising one (otf2_scan, once, while it reads the global
 * definitions): EZTrace leaves the anchor's creator empty and defines a
 * region "EZTrace finalize" in every archive; a creator naming EZTrace
 * counts too. What the reader then does: location event counts (EZTrace
 * announces 2 whatever the file holds) are bounded by the event file's
 * size instead - an upper bound for the too-many-records guard, not an
 * estimate: nothing is reserved from it and the memory budget is checked
 * against the records as they are read; the COMM_LOCATIONS group and
 * MPI_COMM_WORLD's COMM_GROUP
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

/* Gives each MPI_IRECV_REQUEST of `t` that no MPI_IRECV completes a
 * completion record (rules at the top of otf2-eztrace.c) and sets
 * t->notice, naming `anchor`, when there was any. O(records log records +
 * ranks x rounds): the causal pass steps every rank in each round, and a
 * new round starts whenever a rank waits on a rank after it or every
 * rank waits (then one rank is released); rounds are at most records +
 * ranks, so the worst case is quadratic - many receives without a send
 * (EZTrace drops MPI_Sendrecv's) each cost a round over all ranks. The
 * order in which ranks run decides which send a completion takes, so a
 * cheaper schedule would change results. */
void eztrace_complete_irecvs(trace *t, const char *anchor);
