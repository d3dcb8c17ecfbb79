/* linkrec.h - a recorder of link activity: for every link, the stretches
 * of simulated time it carried bytes, as the network models report them
 * (models/model.h, netmodel_link_use), for timelines and OTF2 counters.
 *
 * A stretch is (t0, t1, bytes): the link moved `bytes` wire bytes at a
 * constant rate bytes / (t1 - t0) between t0 and t1 (ps); stretches of one
 * link may overlap (several messages), and their rates add up.
 * linkrec_series() turns the stretches of a link, or of several links
 * summed, into a piecewise-constant throughput whose integral is exactly
 * their bytes. A stretch shorter than a picosecond is stretched to one.
 * On request (linkrec_keep_events) it also logs, per message and link of
 * its route, when the message entered the network (injection, before the
 * route's latency) and when its last byte arrived: the instants at which
 * SimGrid's link_energy plugin updates a link (sim/timeline.h,
 * timeline_write_link_events).
 *
 * Cost: amortized O(1) per stretch and per logged event, arrays that
 * double when full, nothing else allocated while recording; the series
 * sorts a link's stretch ends, O(k log k) for k stretches.
 * Ownership: linkrec_new() returns a recorder freed with linkrec_free();
 * series are the caller's (linkrec_series_free()).
 * Not for: deciding which links to draw (sim/timeline.h), timing.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

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

typedef struct linkrec {
  int nlinks;
  linkrec_span **spans;  /* nlinks arrays */
  int64_t *n, *cap;      /* nlinks */
  double *bytes;         /* nlinks: recorded bytes per link */
  GArray *events;        /* linkrec_event in recording order, or NULL: not kept */
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

void linkrec_grow(linkrec *r, int link);

/* Records one stretch (bytes > 0). */
static inline void linkrec_add(linkrec *r, int link, int64_t t0, int64_t t1, double bytes)
{
  if (G_UNLIKELY(r->n[link] == r->cap[link]))
    linkrec_grow(r, link);
  r->spans[link][r->n[link]++] = (linkrec_span){ t0, t1 > t0 ? t1 : t0 + 1, bytes };
  r->bytes[link] += bytes;
}

/* A piecewise-constant throughput: value[i] bytes/s from time[i] to
 * time[i+1] (ps); the last value is 0 and holds from the last time on. */
typedef struct linkrec_series {
  int64_t n;
  int64_t *time;
  double *value;
} linkrec_series;

/* The summed throughput of links[0..nlinks-1] of r. */
linkrec_series *linkrec_series_of(const linkrec *r, const int *links, int nlinks);
void linkrec_series_free(linkrec_series *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(linkrec, linkrec_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(linkrec_series, linkrec_series_free)

G_END_DECLS
