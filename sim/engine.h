/* engine.h - the discrete-event engine: a deterministic queue of pooled events.
 *
 * Events are fixed-size records (time, sequence number, handler kind and an
 * inline payload of two integers) kept by value in one binary heap ordered
 * by (time, sequence): two events at the same picosecond run in the order
 * they were scheduled, so a run is fully deterministic. Time is int64
 * picoseconds (DESIGN.md: HAEC links have 10 ps latencies); compute in
 * double and round once with engine_ps(). The heap array grows
 * geometrically and is never shrunk, so the steady state allocates nothing
 * per event (ROSS-style pooled events, payload inline).
 *
 * Handlers are registered once (engine_register) and receive the event by
 * pointer; the kind is the index of the registration, so dispatch is one
 * indexed call. All state lives in the `engine` struct: many engines may run
 * in one process and in several threads (one engine per thread).
 *
 * Ownership: engine_new() returns an engine freed with engine_free() (NULL
 * is a no-op); handler contexts are borrowed and must outlive the run.
 * Not for: network timing (models/), MPI semantics (sim/replay.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define ENGINE_MAX_KINDS 8

typedef struct engine_event {
  int64_t time;  /* ps */
  uint64_t seq;  /* scheduling order: the tie breaker */
  uint32_t kind; /* handler index from engine_register() */
  uint32_t a;    /* payload, meaning defined by the handler */
  uint64_t b;    /* payload */
} engine_event;

typedef struct engine engine;

/* Called for each event, at engine time ev->time. It may schedule more
 * events (at times >= ev->time). `ev` is valid until the handler returns. */
typedef void (*engine_handler)(void *ctx, engine *e, const engine_event *ev);

typedef struct engine_kind {
  engine_handler fn;
  void *ctx;
} engine_kind;

struct engine {
  engine_event *heap;  /* binary heap, heap[0] is the next event */
  size_t n, cap;
  uint64_t seq;        /* next sequence number */
  int64_t now;         /* time of the event being handled (or last handled) */
  uint64_t handled;    /* events dispatched so far */
  size_t max_queue;    /* high-water mark of n */
  int nkinds;
  engine_kind kinds[ENGINE_MAX_KINDS];
};

/* An empty engine at time 0; `capacity_hint` events preallocated (0: 1024). */
engine *engine_new(size_t capacity_hint);
void engine_free(engine *e);

/* Registers a handler; returns its kind. At most ENGINE_MAX_KINDS. */
uint32_t engine_register(engine *e, engine_handler fn, void *ctx);

/* Schedules an event at `time` (>= e->now; asserted). Amortized O(log n). */
void engine_schedule(engine *e, int64_t time, uint32_t kind, uint32_t a, uint64_t b);

/* Dispatches events in (time, seq) order until the queue is empty; returns
 * the number of events handled by this call. */
uint64_t engine_run(engine *e);

/* Time of the next event, or INT64_MAX when the queue is empty. */
static inline int64_t engine_next_time(const engine *e)
{
  return e->n ? e->heap[0].time : INT64_MAX;
}

/* Seconds (double) -> picoseconds, rounded to nearest. */
static inline int64_t engine_ps(double seconds)
{
  return (int64_t)(seconds * 1e12 + (seconds >= 0 ? 0.5 : -0.5));
}

/* Bytes of memory the queue holds (for reports). */
size_t engine_bytes(const engine *e);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(engine, engine_free)

G_END_DECLS
