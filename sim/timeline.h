/* timeline.h - a simulated run on a time axis, for people: the Chrome
 * Trace Event format (what chrome://tracing and Perfetto's UI open),
 * link counters in OTF2 (what Vampir shows next to the ranks), and as CSV
 * when each message entered and left each link of its route.
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
 * --timeline-links asks for them.
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
 * Ownership: tracks are the caller's (timeline_tracks_free()), a stream
 * and its thread its own (freed by finish or abort); inputs are borrowed.
 * Not for: recording (models/linkrec.h), replaying (replay.h).
 */
#pragma once

#include "mapping/mapping.h"
#include "models/linkrec.h"
#include "routing/platform.h"
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

/* The JSON file written while the replay runs: timeline_stream_record is
 * the replay's record hook (replay_opts.on_record, user: the stream), so
 * neither the records nor their times are kept. Open with the trace's
 * definitions (ranks, regions: trace_source_trace); finish with the
 * mapping (rank r on node m->node[r]) and the link tracks `spec` selects
 * from `rec`, which commits the file; or abort, which removes it. Both
 * end the stream's writer thread and free the stream; the records come
 * from one thread at a time. `prog` may stop the output (util/output.h). */
typedef struct timeline_stream timeline_stream;
timeline_stream *timeline_stream_open(const char *path, const trace *defs, const progress *prog,
                                      GError **error);
void timeline_stream_record(void *user, int rank, const trace_event *ev, int64_t t);
gboolean timeline_stream_finish(timeline_stream *s, const mapping *m, const platform *p,
                                const linkrec *rec, const char *spec, GError **error);
void timeline_stream_abort(timeline_stream *s);

/* Writes `run` as an OTF2 archive in `dir` (trace_write_otf2) with the
 * tracks of `rec` as metrics. */
gboolean timeline_write_otf2(const char *dir, const trace *run, const platform *p,
                             const linkrec *rec, const char *spec, const progress *prog,
                             GError **error);

/* Writes when every message entered and left each link of its route, as
 * CSV "link,from,to,time_ps,event" (event start: injected, before the
 * route's latency; end: its last byte arrived), in time order, events of
 * one picosecond in the order they happened. `rec` must keep events
 * (linkrec_keep_events) from the start of the replay. These are the
 * instants at which SimGrid's link_energy plugin updates a link's energy
 * (bench/link-energy-sampled.py). */
gboolean timeline_write_link_events(const char *path, const platform *p, const linkrec *rec,
                                    const progress *prog, GError **error);

G_END_DECLS
