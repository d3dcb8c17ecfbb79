/* linkrec.h - a recorder of link activity: for every link, the stretches
 * of simulated time it carried bytes, as the network models report them
 * (models/model.h, netmodel_link_use, netmodel_route_use), for timelines
 * and OTF2 counters.
 *
 * A stretch is (t0, t1, bytes): the link moved `bytes` wire bytes at a
 * constant rate bytes / (t1 - t0) between t0 and t1 (ps); stretches of one
 * link may overlap (several messages), and their rates add up.
 * linkrec_series_of() turns the stretches of a link, or of several links
 * summed, into a piecewise-constant throughput whose integral is exactly
 * their bytes. A stretch shorter than a picosecond is stretched to one.
 * On request (linkrec_keep_events) it also logs, per message and link of
 * its route, when the message entered the network (injection, before the
 * route's latency) and when its last byte arrived: the instants at which
 * SimGrid's link_energy plugin updates a link (the link-event writer,
 * sim/timeline-events.c).
 *
 * Recording is cheap for the replay: a stretch of one link, or of every
 * link of a route (source, destination, key and candidate: routes are a
 * function of the platform), is appended to a log of chunks; a helper
 * thread, started with the second chunk, expands the full chunks into the
 * links' stretches on the other processor while the replay goes on, in
 * the order they were recorded, so each link's stretches and byte sums are
 * those one thread would make. linkrec_settle() expands the rest and ends
 * the helper; the per-link fields (n, spans, bytes) are read only after it.
 *
 * Cost: O(1) per recorded stretch in the recording thread (a chunk of
 * LINKREC_CHUNK stretches allocated per LINKREC_CHUNK, at most
 * LINKREC_CHUNKS_IN_FLIGHT alive, reused); the helper walks each route
 * once and appends to arrays that double when full; the series sorts a
 * link's stretch ends, O(k log k) for k stretches.
 * Ownership: linkrec_new() returns a recorder freed with linkrec_free()
 * (which ends the helper); series are the caller's (linkrec_series_free()).
 * The router of recorded routes must outlive the recorder's settling.
 * Not for: deciding which links to draw (sim/timeline.h), timing.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "routing/route.h"
#include "util/handoff.h"

G_BEGIN_DECLS

typedef struct linkrec_span {
  int64_t t0, t1;  /* ps, t1 > t0 */
  double bytes;
} linkrec_span;

/* A message entering (start) or leaving (!start) a link of its route. */
typedef struct linkrec_event {
  int64_t t;  /* ps */
  int32_t link;
  int32_t start;
} linkrec_event;

/* A recorded stretch before its expansion: of link `link` when dst < 0,
 * else of every link of route_begin_candidate(src, dst, key, path). */
typedef struct linkrec_entry {
  int64_t t0, t1;
  double bytes;
  uint64_t key;
  int32_t src, dst;  /* src: the link when dst < 0 */
  int32_t path;
} linkrec_entry;

#define LINKREC_CHUNK (1 << 13)
#define LINKREC_CHUNKS_IN_FLIGHT 16

typedef struct linkrec_chunk {
  int n;
  linkrec_entry e[LINKREC_CHUNK];
} linkrec_chunk;

typedef struct linkrec {
  int nlinks;
  /* expanded by linkrec_settle(): */
  linkrec_span **spans;  /* nlinks arrays */
  int64_t *n, *cap;      /* nlinks */
  double *bytes;         /* nlinks: recorded bytes per link */
  GArray *events;        /* linkrec_event in recording order, or NULL: not kept */
  /* the recording side */
  const router *router;  /* of the recorded routes */
  linkrec_chunk *fill;   /* handoff_block(log) */
  handoff *log;          /* full chunks to the helper thread (util/handoff.h) */
} linkrec;

linkrec *linkrec_new(int nlinks);
void linkrec_free(linkrec *r);

/* From now on, log the messages' starts and ends on their links too. */
void linkrec_keep_events(linkrec *r);

static inline void linkrec_event_add(linkrec *r, int link, int64_t t, gboolean start)
{
  linkrec_event e = { t, link, start };
  g_array_append_val(r->events, e);
}

void linkrec_hand_over(linkrec *r);

static inline linkrec_entry *linkrec_next(linkrec *r)
{
  if (G_UNLIKELY(r->fill->n == LINKREC_CHUNK))
    linkrec_hand_over(r);
  return &r->fill->e[r->fill->n++];
}

/* Records one stretch of a link (bytes > 0). */
static inline void linkrec_add(linkrec *r, int link, int64_t t0, int64_t t1, double bytes)
{
  *linkrec_next(r) = (linkrec_entry){ t0, t1, bytes, 0, link, -1, 0 };
}

/* Records one stretch of every link of candidate `path` of the route
 * from node src to dst with key `key` (route_begin_candidate; bytes > 0). */
static inline void linkrec_add_route(linkrec *r, const router *rt, int src, int dst, uint64_t key,
                                     int path, int64_t t0, int64_t t1, double bytes)
{
  r->router = rt;
  *linkrec_next(r) = (linkrec_entry){ t0, t1, bytes, key, src, dst, path };
}

/* Expands what is recorded into the per-link fields and ends the helper;
 * recording may go on after it (then settle again). */
void linkrec_settle(linkrec *r);

/* A piecewise-constant throughput: value[i] bytes/s from time[i] to
 * time[i+1] (ps); the last value is 0 and holds from the last time on. */
typedef struct linkrec_series {
  int64_t n;
  int64_t *time;
  double *value;
} linkrec_series;

/* The summed throughput of links[0..nlinks-1] of r (settled). */
linkrec_series *linkrec_series_of(const linkrec *r, const int *links, int nlinks);
void linkrec_series_free(linkrec_series *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(linkrec, linkrec_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(linkrec_series, linkrec_series_free)

G_END_DECLS
