/* engine.h - the discrete-event engine: a deterministic queue of pooled events.
 *
 * Events are fixed-size records (time, sequence number, handler kind and an
 * inline payload of two integers) dispatched in (time, sequence) order: two
 * events at the same picosecond run in the order they were scheduled, so a
 * run is fully deterministic. Time is int64 picoseconds (HAEC links have
 * 10 ps latencies, docs/ARCHITECTURE.md); compute in double and round once with
 * engine_ps(). Time saturates: engine_ps() of a duration beyond int64
 * picoseconds (106 days) gives INT64_MAX, sums of times use
 * saturating_add_i64(), and an event at INT64_MAX is not queued but sets
 * `overflow`, which the owner turns into an error ("simulated time exceeds
 * " CHECKED_PS_LIMIT) - never a wrapped, negative clock.
 *
 * Queue: events of one time wait in a FIFO "bucket" (pooled nodes, in
 * scheduling order); a 4-ary heap orders the buckets by (time, sequence of
 * their first event). Replays of regular codes schedule thousands of events
 * at the very same picosecond (every rank of a stencil sends at once), so
 * most pops take the next node of the current bucket in O(1) and the heap
 * holds only the distinct times. A bucket is found for a new event through
 * a small direct-mapped cache of recent times; when the cache misses, a new
 * bucket is opened even if one with that time is queued: it sorts after the
 * old one (larger first sequence) and the old one never receives another
 * event, so the order stays exactly (time, sequence). The pools grow
 * geometrically and are never shrunk, so the steady state allocates
 * nothing per event (ROSS-style pooled events, payload inline).
 *
 * Handlers are registered once (engine_register) and receive the event by
 * pointer; the kind is the index of the registration, so dispatch is one
 * indexed call. An owner that wants to dispatch its own kinds without the
 * indirect call runs its own loop with engine_pop() and hands other kinds to
 * engine_dispatch(); engine_run() is that loop for everyone else. All state
 * lives in the `engine` struct: many engines may run in one process and in
 * several threads (one engine per thread).
 *
 * Ownership: engine_new() returns an engine freed with engine_free() (NULL
 * is a no-op); handler contexts are borrowed and must outlive the run.
 * Not for: network timing (models/), MPI semantics (sim/replay.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "util/checked.h"

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

/* Queue internals (engine.c); read-only for owners. */
typedef struct engine_node {
  engine_event ev;
  uint32_t next;       /* next node of the bucket / free list */
} engine_node;

typedef struct engine_bucket {
  int64_t time;
  uint32_t head, tail; /* FIFO of nodes; head UINT32_MAX: free bucket */
} engine_bucket;

typedef struct engine_hent {
  int64_t time;        /* the bucket's time */
  uint64_t seq;        /* sequence of its first event */
  uint32_t bucket;
} engine_hent;

#define ENGINE_RECENT 256 /* direct-mapped cache: time -> open bucket */

struct engine {
  engine_hent *heap;   /* 4-ary heap of buckets, heap[0] holds the next event */
  size_t nheap, capheap;
  engine_node *nodes;  /* pooled events */
  uint32_t capnodes, nnodes, free_node;
  engine_bucket *buckets;
  uint32_t capbuckets, nbuckets, free_bucket;
  uint32_t recent[ENGINE_RECENT];
  size_t n;            /* events queued */
  uint64_t seq;        /* next sequence number */
  int64_t now;         /* time of the event being handled (or last handled) */
  uint64_t handled;    /* events dispatched so far */
  size_t max_queue;    /* high-water mark of n */
  gboolean overflow;   /* an event at INT64_MAX (saturated time) was dropped */
  int nkinds;
  engine_kind kinds[ENGINE_MAX_KINDS];
};

/* An empty engine at time 0; `capacity_hint` events preallocated (0: 1024). */
engine *engine_new(size_t capacity_hint);
void engine_free(engine *e);

/* Registers a handler; returns its kind. At most ENGINE_MAX_KINDS. */
uint32_t engine_register(engine *e, engine_handler fn, void *ctx);

/* Schedules an event at `time` (>= e->now; asserted). O(1) when a bucket
 * of that time is open, else O(log buckets). At time INT64_MAX (a
 * saturated sum) the event is dropped and `overflow` set. */
void engine_schedule(engine *e, int64_t time, uint32_t kind, uint32_t a, uint64_t b);

/* Dispatches events in (time, seq) order until the queue is empty; returns
 * the number of events handled by this call. */
uint64_t engine_run(engine *e);

/* Removes the next event into *out, sets e->now to its time and counts it
 * as handled; FALSE when the queue is empty. For owners running their own
 * loop (see the header paragraph); O(1), O(log buckets) when it empties a
 * bucket. */
gboolean engine_pop(engine *e, engine_event *out);

/* Calls the registered handler of ev->kind (ev popped by engine_pop()). */
static inline void engine_dispatch(engine *e, const engine_event *ev)
{
  const engine_kind *k = &e->kinds[ev->kind];
  k->fn(k->ctx, e, ev);
}

/* Time of the next event, or INT64_MAX when the queue is empty. */
static inline int64_t engine_next_time(const engine *e)
{
  return e->nheap ? e->heap[0].time : INT64_MAX;
}

/* The next event (borrowed until the next schedule or pop), or NULL. */
static inline const engine_event *engine_peek(const engine *e)
{
  return e->nheap ? &e->nodes[e->buckets[e->heap[0].bucket].head].ev : NULL;
}

/* Seconds (double) -> picoseconds, rounded to nearest; INT64_MAX when it
 * does not fit (or is NaN, or infinite). */
static inline int64_t engine_ps(double seconds)
{
  return saturating_ps(seconds * 1e12);
}

/* Bytes of memory the queue holds (for reports). */
size_t engine_bytes(const engine *e);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(engine, engine_free)

G_END_DECLS
