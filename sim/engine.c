/* engine.c - binary heap of by-value events ordered by (time, sequence).
 *
 * The heap stores the 32-byte events themselves (no pointers, no per-event
 * allocation); sift-up/sift-down move a hole instead of swapping. Cost:
 * O(log n) per schedule and per dispatch. Owned by the sim/ engineer; not
 * for MPI semantics or timing models.
 */
#include "sim/engine.h"

static inline gboolean ev_before(const engine_event *x, const engine_event *y)
{
  return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

engine *engine_new(size_t capacity_hint)
{
  engine *e = g_new0(engine, 1);
  e->cap = capacity_hint ? capacity_hint : 1024;
  e->heap = g_new(engine_event, e->cap);
  return e;
}

void engine_free(engine *e)
{
  if (!e)
    return;
  g_free(e->heap);
  g_free(e);
}

uint32_t engine_register(engine *e, engine_handler fn, void *ctx)
{
  g_assert(e->nkinds < ENGINE_MAX_KINDS);
  e->kinds[e->nkinds] = (engine_kind){ fn, ctx };
  return (uint32_t)e->nkinds++;
}

void engine_schedule(engine *e, int64_t time, uint32_t kind, uint32_t a, uint64_t b)
{
  g_assert(time >= e->now);
  if (e->n == e->cap) {
    e->cap *= 2;
    e->heap = g_renew(engine_event, e->heap, e->cap);
  }
  engine_event ev = { time, e->seq++, kind, a, b };
  size_t i = e->n++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!ev_before(&ev, &e->heap[parent]))
      break;
    e->heap[i] = e->heap[parent];
    i = parent;
  }
  e->heap[i] = ev;
  if (e->n > e->max_queue)
    e->max_queue = e->n;
}

/* Removes heap[0] into *out. */
static void heap_pop(engine *e, engine_event *out)
{
  *out = e->heap[0];
  engine_event last = e->heap[--e->n];
  size_t i = 0, n = e->n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && ev_before(&e->heap[c + 1], &e->heap[c]))
      c++;
    if (!ev_before(&e->heap[c], &last))
      break;
    e->heap[i] = e->heap[c];
    i = c;
  }
  if (n)
    e->heap[i] = last;
}

uint64_t engine_run(engine *e)
{
  uint64_t count = 0;
  engine_event ev;
  while (e->n) {
    heap_pop(e, &ev);
    e->now = ev.time;
    const engine_kind *k = &e->kinds[ev.kind];
    k->fn(k->ctx, e, &ev);
    count++;
  }
  e->handled += count;
  return count;
}

size_t engine_bytes(const engine *e)
{
  return sizeof(*e) + e->cap * sizeof(engine_event);
}
