/* simgrid-ti.h - a trace in SimGrid's time-independent format, the input
 * of SMPI's offline replay (`smpirun -replay LIST smpireplaymain`).
 *
 * One action file per rank (`<rank> <action> <args>` lines: init, compute,
 * send, recv, isend, irecv, wait, finalize) and a list naming them, written
 * so that SMPI replays the run mapsim's replay (sim/replay.h) replays:
 *  - computation: the gaps outside MPI regions (before the first record
 *    too), times `compute_scale` rounded per gap as the replay rounds them,
 *    become `compute` amounts at `flops_per_s` (the speed the platform file
 *    gives its hosts; 1e12 makes one flop one picosecond, so the amounts are
 *    the replay's gaps exactly). Gaps below `min_compute_ps` are carried
 *    into the next `compute` (fewer actions, the same total, up to that much
 *    earlier); 0 writes every gap.
 *  - point to point: Isend/Irecv as `isend`/`irecv` (an Irecv's envelope
 *    comes from the record that completes it; a cancelled one is left
 *    out), every completion record (in Wait*, Test*) as `wait SRC DST TAG`
 *    for exactly that request (never `waitall`, even for a Waitall of every
 *    open request: SMPI's waitall took it 3x the CPU time on a 4096-rank
 *    stencil, bench/README.md); a blocking Send inside an MPI region as
 *    `isend` and a `wait` at the region's end (MPI_Sendrecv's receive
 *    proceeds meanwhile), outside any region as `send`; Recv as `recv`.
 *  - collectives (on any communicator): the messages mapsim's schedule
 *    sends (traces/collectives.h, the algorithms of `colls`), as
 *    `irecv`s posted at the call, then per round the `wait`s for the
 *    previous round's receives and that round's `isend`s, and the `wait`s
 *    for everything at the end: the dependency rule of collectives.h. Tags
 *    `coll_tag + round`. SMPI adds what the replay does not (the protocol of
 *    each message by its size), so SimGrid replays the same messages, not
 *    SMPI's own collective algorithms.
 * SMPI keys a rank's open requests by (source, destination, tag) and keeps
 * one per key, and matches by (source, tag) only, on one communicator. A
 * wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) is written with the
 * envelope of the message it matched, so two open receives, or two open
 * sends, may share a key where the program had none (HPCC's RandomAccess:
 * four any-source receives, two of them from one sender). Point-to-point
 * tags are therefore made distinct: the k-th message of an envelope
 * (source, destination, communicator, tag) - counted by the sender in
 * send order and by the receiver in the order its receives were posted,
 * which MPI's non-overtaking rule makes the same message - gets SMPI tag
 * tag + 32768 * ((communicator mod 512) * 64 + k mod 64). Receives match
 * exactly the messages they matched in the traced run, and up to 64
 * requests of one envelope may be open at once; beyond that a request
 * whose key is still open is preceded by a `wait` for the earlier one
 * (counted in `serialized`), the only wait the export adds. Where the
 * mapping is not one to one, SMPI may match differently: tags of 32768 and
 * above (beyond the MPI standard's guaranteed MPI_TAG_UB; counted in
 * `tags_folded`) and communicators from the 513th on (`comms_folded`)
 * share SMPI tags with others.
 *
 * Sizes are in bytes (the replay's default datatype, MPI_BYTE); ranks are
 * world ranks. Reads every rank through a trace_cursor (one rank's records
 * in memory at a time).
 *
 * Ownership: everything is borrowed. Not for: platform files
 * (routing/platform.h), host files (mapping/launch.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "traces/collectives.h"
#include "traces/trace-source.h"

G_BEGIN_DECLS

/* Point-to-point tags as SMPI sees them: the traced tag plus TI_TAG_SPAN
 * times a slot that tells apart the occurrences (lanes) and the
 * communicators of one (source, destination, tag); below 1 << 30, where
 * the collectives' tags start. */
enum {
  TI_TAG_SPAN = 1 << 15,  /* traced tags below it (every tag MPI guarantees) are kept exactly */
  TI_LANES = 64,          /* requests of one envelope open at once without a wait */
  TI_COMM_SLOTS = 512,    /* communicators told apart */
};

/* The host speed mapsim assumes on both sides of the format: the writer's
 * default (ti_opts_init) and what the reader (input-simgrid-ti.c) takes a
 * `compute` amount at, so that one flop is one picosecond and a trace
 * exported and read back keeps its computation exactly; --compute-scale
 * gives another speed. */
#define TI_FLOPS_PER_S 1e12

typedef struct ti_opts {
  double compute_scale;     /* factor on computation gaps (the replay's --compute-scale) */
  double flops_per_s;       /* host speed of the platform file, > 0 */
  int64_t min_compute_ps;   /* gaps shorter than this are carried forward; 0: none */
  const coll_choice *colls; /* collective algorithms; NULL: auto */
  uint32_t coll_tag;        /* first tag of collective messages */
} ti_opts;

/* compute_scale 1, flops_per_s TI_FLOPS_PER_S, min_compute_ps 0, colls NULL,
 * coll_tag 1 << 30. */
void ti_opts_init(ti_opts *o);

typedef struct ti_stats {
  int64_t actions;          /* lines written */
  int64_t coll_calls;       /* collective calls expanded (per rank) */
  int64_t coll_skipped;     /* calls some member never makes (left out) */
  int64_t serialized;       /* requests waited early: their key was open */
  int64_t tags_folded;      /* messages whose tag is >= 32768 (SMPI sees it modulo 32768) */
  int64_t comms_folded;     /* messages on a communicator past the 512th (shares its tags) */
  int64_t unmatched;        /* completions of requests never posted, cancelled sends */
} ti_stats;

/* Writes `dir`/`ranks`/RANK.txt for every rank and `dir`/`list` naming
 * them relative to `dir` (smpirun runs in `dir`); `dir` and `dir`/`ranks`
 * are created when missing.
 * Fails (TRACE_ERROR_WRITE naming the file) when a file cannot be written,
 * with TRACE_ERROR_CONTENT when a computation (gaps times compute_scale)
 * reaches INT64_MAX ps, where the replay fails too, or with the collective
 * schedule's error. Files written before a failure are left: the caller
 * writes into a temporary folder (util/output.h). */
gboolean ti_write(const trace_source *s, const char *dir, const char *ranks, const char *list,
                  const ti_opts *o, ti_stats *stats, GError **error);

G_END_DECLS
