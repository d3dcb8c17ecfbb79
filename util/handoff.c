/* handoff.c - blocks passed to one consumer thread in order (handoff.h). */
#define _GNU_SOURCE /* SCHED_BATCH */
#include "util/handoff.h"

#include <pthread.h>
#include <sched.h>

/* Each block follows a header of 16 bytes (the blocks' data keep malloc's
 * alignment): `filled` is set before the block changes hands and read
 * after. The queues' lock orders the rest already, but ThreadSanitizer
 * does not see GLib's futexes. */
#define HEADER 16

struct handoff {
  const char *name;
  size_t size;
  int max, nblocks;
  handoff_consume consume;
  void *user;
  GThread *thread;
  GAsyncQueue *full, *empty; /* the blocks' headers; `full` ends with the handoff itself */
  char *fill;                /* header of the block being filled */
};

static char *block_new(handoff *h)
{
  h->nblocks++;
  return g_malloc0(HEADER + h->size);
}

handoff *handoff_new(const char *name, size_t block_size, int max_blocks, handoff_consume consume,
                     void *user)
{
  handoff *h = g_new0(handoff, 1);
  *h = (handoff){ name, block_size, MAX(max_blocks, 2), 0, consume, user, NULL,
                  g_async_queue_new(), g_async_queue_new_full(g_free), NULL };
  h->fill = block_new(h);
  return h;
}

void *handoff_block(const handoff *h)
{
  return h->fill + HEADER;
}

static gpointer consumer_main(gpointer data)
{
  handoff *h = data;
#ifdef SCHED_BATCH
  struct sched_param none = { 0 };
  pthread_setschedparam(pthread_self(), SCHED_BATCH, &none);
#endif
  for (;;) {
    char *b = g_async_queue_pop(h->full);
    if (b == (char *)h)
      return NULL;
    (void)g_atomic_int_get((gint *)b);
    h->consume(b + HEADER, h->user);
    g_atomic_int_set((gint *)b, 0);
    g_async_queue_push_front(h->empty, b);
  }
}

void *handoff_pass(handoff *h)
{
  if (!h->thread)
    h->thread = g_thread_new(h->name, consumer_main, h);
  g_atomic_int_set((gint *)h->fill, 1);
  g_async_queue_push(h->full, h->fill);
  char *b = g_async_queue_try_pop(h->empty);
  if (!b && h->nblocks < h->max)
    b = block_new(h);
  if (!b)
    b = g_async_queue_pop(h->empty);
  (void)g_atomic_int_get((gint *)b);
  h->fill = b;
  return b + HEADER;
}

void handoff_drain(handoff *h)
{
  if (!h->thread)
    return;
  g_async_queue_push(h->full, h);
  g_thread_join(h->thread);
  h->thread = NULL;
}

void handoff_free(handoff *h)
{
  if (!h)
    return;
  handoff_drain(h);
  g_free(h->fill);
  g_async_queue_unref(h->full);
  g_async_queue_unref(h->empty);
  g_free(h);
}
