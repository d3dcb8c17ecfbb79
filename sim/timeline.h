/* timeline.h - a simulated run on a time axis, for people, by writers
 * behind one ops table (timeline_writer, below): the Chrome Trace Event
 * format (what chrome://tracing and Perfetto's UI open;
 * sim/timeline-chrome.c), link counters in OTF2 (what Vampir shows next to
 * the ranks; sim/timeline-otf2.c), and as CSV when each message entered
 * and left each link of its route (sim/timeline-events.c). This file's
 * own part is what they share: which links get a track, and how a rank's
 * records become slices.
 *
 * The JSON file (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU,
 * "Trace Event Format") holds
 *  - process 0 "ranks": one thread per rank, "rank R on node N", with its
 *    MPI calls as complete events ("ph":"X", category p2p, collective or
 *    mpi, named after the call) and its computation between them
 *    (category compute);
 *  - every point-to-point message as a flow arrow ("ph":"s" in the send's
 *    slice, "ph":"f" bound to the enclosing slice of the receive that
 *    completed it; sends and receives paired in MPI order per source,
 *    destination, communicator and tag);
 *  - process 1 "links": counter tracks ("ph":"C") of throughput in
 *    bytes/s, piecewise constant, whose integral over time is the wire
 *    bytes the link (or the links of a group) carried in the replay:
 *    models/linkrec.h records them as the models move the bytes.
 * Times ("ts", "dur") are microseconds written to the picosecond
 * (6 decimals).
 *
 * Which links get a track (`spec`): "N" the N busiest by bytes (ties: the
 * lower id), "all" every link that carried bytes, "dims" one summed track
 * per link class (topo_class_name: dimension and direction x+, x-, ... on
 * tori and meshes; node up/down, local, global ... on indirect networks).
 * The same tracks become OTF2 metrics (one metric location
 * per track, "bytes/s", valid until the next value) in --out-trace when
 * --timeline-links asks for them. The CSV lists, in time order, when
 * every message entered and left each link of its route
 * ("link,from,to,time_ps,event"; event start: injected, before the
 * route's latency; end: its last byte arrived; events of one picosecond
 * in the order they happened) - the instants at which SimGrid's
 * link_energy plugin updates a link's energy
 * (bench/link-energy-sampled.py).
 *
 * Cost: the replay thread only copies the records a timeline draws (16
 * bytes for a call's enter or leave, 32 for a point-to-point end) into
 * blocks; one writer thread pairs the arrows, formats
 * and writes them meanwhile (on the second processor), in the replay's
 * order, so the bytes do not depend on the timing. O(1) amortized per
 * record, memory O(ranks + channels + messages whose other end is not
 * replayed yet) plus at most 8 MiB of blocks in flight; O(k log k) per
 * track of k recorded stretches at the end; written through
 * util/output.h, whose disk writes start every 16 MiB.
 * Ownership: tracks are the caller's (timeline_tracks_free()); a writer's
 * state, and the Chrome writer's thread, are the writer's own (freed by
 * finish or abort); inputs are borrowed. The table is static.
 * Not for: recording (models/linkrec.h), replaying (replay.h).
 */
#pragma once

#include "mapping/mapping.h"
#include "models/linkrec.h"
#include "routing/platform.h"
#include "sim/replay.h"
#include "traces/trace.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define TIMELINE_DEFAULT_LINKS "16"

/* One counter track: a name and the links whose throughput it sums. */
typedef struct timeline_track {
  char *name;
  int nlinks;
  int *links;
} timeline_track;

/* The tracks `spec` selects from what `rec` recorded on `p`; NULL + error
 * (G_OPTION_ERROR_BAD_VALUE naming the spec) for a bad spec. */
GPtrArray *timeline_tracks(const platform *p, const linkrec *rec, const char *spec,
                           GError **error);
void timeline_tracks_free(GPtrArray *tracks);

/* Checks a spec without a run ("16", "all", "dims"). */
gboolean timeline_spec_check(const char *spec, GError **error);

/* Rank r's time in order as slices: each MPI call, outermost Enter to its
 * Leave (`region` its index), and the computation before it (region -1,
 * only when it lasts). The one rule for what a timeline draws. */
typedef void (*timeline_slice_fn)(void *user, int region, int64_t t0, int64_t t1);
void timeline_rank_slices(const trace *t, int r, timeline_slice_fn fn, void *user);

/* ---- the writers ----------------------------------------------------
 * Each output is a writer: one file (sim/timeline-NAME.c) and one row of
 * timeline_writers. `mapsim simulate` offers every row as an option
 * (--OPTION PATH, its help from the row) and runs them the same way:
 * open before the replay, the record hook during it, finish (or abort)
 * after it. */

/* What a writer may ask of the run (timeline_writer.needs). */
enum {
  TIMELINE_NEEDS_RUN = 1u << 0,    /* the simulated run's records (replay_opts.record_times:
                                    * the trace is read into memory, not streamed) */
  TIMELINE_NEEDS_EVENTS = 1u << 1, /* every link event (linkrec_keep_events) */
  TIMELINE_DRAWS_TRACKS = 1u << 2, /* reads the link tracks --timeline-links selects */
};

/* What a writer knows before the replay: the trace's definitions (ranks,
 * regions: trace_source_trace), and the progress that may stop the output
 * (util/output.h). Borrowed. */
typedef struct timeline_start {
  const trace *defs;
  const progress *prog;
} timeline_start;

/* What it gets after the replay (borrowed): the mapping (rank r on node
 * m->node[r]), the platform, the links' recording (settled), the
 * simulated run's records (TIMELINE_NEEDS_RUN, else NULL), the track spec
 * as given (--timeline-links, NULL: not given; each writer has its
 * default), the progress. */
typedef struct timeline_end {
  const mapping *m;
  const platform *p;
  const linkrec *rec;
  const trace *run;
  const char *links;
  const progress *prog;
} timeline_end;

typedef struct timeline_writer {
  const char *option;      /* `simulate --OPTION PATH` */
  char short_option;       /* or 0 */
  const char *arg;         /* what PATH is: "FILE", "DIR" */
  const char *help;        /* the option's help */
  unsigned needs;          /* TIMELINE_* bits */
  /* Before the replay: the writer's state for `path`, or NULL + error. */
  void *(*open)(const char *path, const timeline_start *start, GError **error);
  /* The replay's record hook (replay_opts.on_record, user: the state),
   * called from one thread at a time, or NULL: nothing during the replay. */
  replay_record_fn record;
  /* After the replay: writes and commits the output, frees the state. */
  gboolean (*finish)(void *state, const timeline_end *end, GError **error);
  /* Instead of finish (a failed or stopped run): removes what was
   * written, frees the state. */
  void (*abort)(void *state);
} timeline_writer;

/* Every writer, in the order `simulate --help` lists them and their
 * outputs are written; NULL-terminated. */
extern const timeline_writer *const timeline_writers[];

G_END_DECLS
