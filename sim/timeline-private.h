/* timeline-private.h - what the timeline's writers (timeline-*.c) share
 * with timeline.c: the rule that cuts a rank's records into slices, kept
 * inline because the Chrome writer's thread runs it per record, and the
 * writers' rows of the registry. Not a public interface: sim/timeline.h
 * is.
 */
#pragma once

#include "sim/timeline.h"

/* One rank's position in the rule of timeline_rank_slices. */
typedef struct timeline_slicer {
  int depth;
  uint32_t region;
  int64_t free_since, start;
} timeline_slicer;

/* Feeds one record of the rank at `time`; calls fn when a slice ends. */
static inline void timeline_slicer_step(timeline_slicer *s, const trace_event *e, int64_t time,
                                        timeline_slice_fn fn, void *user)
{
  if (e->kind == TRACE_ENTER && s->depth++ == 0) {
    if (time > s->free_since)
      fn(user, -1, s->free_since, time);
    s->start = time;
    s->region = e->region;
  } else if (e->kind == TRACE_LEAVE && s->depth > 0 && --s->depth == 0) {
    fn(user, (int)MIN(s->region, (uint32_t)G_MAXINT), s->start, time);
    s->free_since = time;
  }
}

/* The writers, one file each (the rows of timeline_writers). */
extern const timeline_writer timeline_otf2_writer;   /* timeline-otf2.c */
extern const timeline_writer timeline_chrome_writer; /* timeline-chrome.c */
extern const timeline_writer timeline_events_writer; /* timeline-events.c */
