/* engine.c - events in per-time FIFO buckets, buckets in a 4-ary heap.
 *
 * Layout and ordering argument in engine/engine.h. Events live by value in a
 * node pool (no per-event allocation; a popped node is the first one reused,
 * so it is still in cache); buckets are pooled too and the heap stores
 * (time, first sequence, bucket) by value, moving a hole instead of
 * swapping. A 4-ary heap has half the levels of a binary one and the four
 * children of node i (4i+1 .. 4i+4) are adjacent. Cost: O(1) per schedule
 * into an open bucket and per pop that leaves its bucket non-empty,
 * O(log buckets) otherwise. Not for MPI semantics or timing models.
 */
#include <string.h>

#include "engine/engine.h"

#define ARITY 4
#define NIL UINT32_MAX

static inline gboolean hent_before(const engine_hent *x, const engine_hent *y)
{
  return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static inline uint32_t recent_slot(int64_t time)
{
  return (uint32_t)(((uint64_t)time * 0x9E3779B97F4A7C15ull) >> 56) & (ENGINE_RECENT - 1);
}

engine *engine_new(size_t capacity_hint)
{
  engine *e = g_new0(engine, 1);
  size_t cap = capacity_hint ? capacity_hint : 1024;
  e->capnodes = (uint32_t)MIN(cap, (size_t)1 << 30);
  e->nodes = g_new(engine_node, e->capnodes);
  e->capbuckets = e->capheap = 64;
  e->buckets = g_new(engine_bucket, e->capbuckets);
  e->heap = g_new(engine_hent, e->capheap);
  e->free_node = e->free_bucket = NIL;
  memset(e->recent, 0xff, sizeof(e->recent));
  return e;
}

void engine_free(engine *e)
{
  if (!e)
    return;
  g_free(e->heap);
  g_free(e->nodes);
  g_free(e->buckets);
  g_free(e);
}

uint32_t engine_register(engine *e, engine_handler fn, void *ctx)
{
  g_assert(e->nkinds < ENGINE_MAX_KINDS);
  e->kinds[e->nkinds] = (engine_kind){ fn, ctx };
  return (uint32_t)e->nkinds++;
}

static inline uint32_t node_alloc(engine *e)
{
  uint32_t i = e->free_node;
  if (i != NIL) {
    e->free_node = e->nodes[i].next;
    return i;
  }
  if (G_UNLIKELY(e->nnodes == e->capnodes)) {
    g_assert(e->capnodes < (1u << 31));
    e->capnodes *= 2;
    e->nodes = g_renew(engine_node, e->nodes, e->capnodes);
  }
  return e->nnodes++;
}

static uint32_t bucket_alloc(engine *e)
{
  uint32_t i = e->free_bucket;
  if (i != NIL) {
    e->free_bucket = e->buckets[i].tail;
    return i;
  }
  if (G_UNLIKELY(e->nbuckets == e->capbuckets)) {
    g_assert(e->capbuckets < (1u << 31));
    e->capbuckets *= 2;
    e->buckets = g_renew(engine_bucket, e->buckets, e->capbuckets);
  }
  return e->nbuckets++;
}

static void heap_push(engine *e, engine_hent x)
{
  if (G_UNLIKELY(e->nheap == e->capheap)) {
    e->capheap *= 2;
    e->heap = g_renew(engine_hent, e->heap, e->capheap);
  }
  engine_hent *h = e->heap;
  size_t i = e->nheap++;
  while (i > 0) {
    size_t parent = (i - 1) / ARITY;
    if (!hent_before(&x, &h[parent]))
      break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = x;
}

static void heap_pop_top(engine *e)
{
  engine_hent *h = e->heap;
  size_t n = --e->nheap;
  if (!n)
    return;
  engine_hent last = h[n];
  size_t i = 0;
  for (;;) {
    size_t c = ARITY * i + 1;
    if (c >= n)
      break;
    size_t best = c, end = MIN(c + ARITY, n);
    for (size_t k = c + 1; k < end; k++)
      if (hent_before(&h[k], &h[best]))
        best = k;
    if (!hent_before(&h[best], &last))
      break;
    h[i] = h[best];
    i = best;
  }
  h[i] = last;
}

void engine_schedule(engine *e, int64_t time, uint32_t kind, uint32_t a, uint64_t b)
{
  if (G_UNLIKELY(time == INT64_MAX)) {
    e->overflow = TRUE;
    return;
  }
  g_assert(time >= e->now);
  uint32_t ni = node_alloc(e);
  engine_node *nd = &e->nodes[ni];
  nd->ev = (engine_event){ time, e->seq, kind, a, b };
  nd->next = NIL;
  uint32_t *slot = &e->recent[recent_slot(time)];
  uint32_t bi = *slot;
  if (bi != NIL && e->buckets[bi].head != NIL && e->buckets[bi].time == time) {
    engine_bucket *bk = &e->buckets[bi];
    e->nodes[bk->tail].next = ni;
    bk->tail = ni;
  } else {
    bi = bucket_alloc(e);
    e->buckets[bi] = (engine_bucket){ time, ni, ni };
    heap_push(e, (engine_hent){ time, e->seq, bi });
    *slot = bi;
  }
  e->seq++;
  if (++e->n > e->max_queue)
    e->max_queue = e->n;
}

gboolean engine_pop(engine *e, engine_event *out)
{
  if (!e->nheap)
    return FALSE;
  uint32_t bi = e->heap[0].bucket;
  engine_bucket *bk = &e->buckets[bi];
  uint32_t ni = bk->head;
  engine_node *nd = &e->nodes[ni];
  *out = nd->ev;
  bk->head = nd->next;
  nd->next = e->free_node;
  e->free_node = ni;
  if (bk->head == NIL) { /* bucket empty: free it (head NIL marks it free) */
    bk->tail = e->free_bucket;
    e->free_bucket = bi;
    heap_pop_top(e);
  }
  e->n--;
  e->now = out->time;
  e->handled++;
  return TRUE;
}

uint64_t engine_run(engine *e)
{
  uint64_t count = 0;
  engine_event ev;
  while (engine_pop(e, &ev)) {
    engine_dispatch(e, &ev);
    count++;
  }
  return count;
}

size_t engine_bytes(const engine *e)
{
  return sizeof(*e) + e->capheap * sizeof(engine_hent) + e->capnodes * sizeof(engine_node) +
         e->capbuckets * sizeof(engine_bucket);
}
