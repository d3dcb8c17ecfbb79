/* test_handoff.c - util/handoff.h: every block passed is consumed, on a
 * thread of its own, in the order passed; never more blocks alive than
 * asked; the work goes on after a drain (the thread starts again), and the
 * block being filled stays the producer's. */
#include <criterion/criterion.h>

#include "util/handoff.h"

#define ITEMS 64

typedef struct blk {
  int n;
  int v[ITEMS];
} blk;

typedef struct seen {
  GArray *values;     /* every item consumed, in order */
  GThread *producer;
  int off_thread;     /* blocks consumed elsewhere than on the producer */
  GHashTable *blocks; /* distinct blocks seen */
} seen;

static void consume(void *data, void *user)
{
  blk *b = data;
  seen *s = user;
  if (g_thread_self() != s->producer)
    s->off_thread++;
  g_hash_table_add(s->blocks, b);
  g_array_append_vals(s->values, b->v, (guint)b->n);
  b->n = 0;
}

Test(handoff, in_order_bounded_and_resumable)
{
  seen s = { g_array_new(FALSE, FALSE, sizeof(int)), g_thread_self(), 0,
             g_hash_table_new(NULL, NULL) };
  handoff *h = handoff_new("test", sizeof(blk), 3, consume, &s);
  blk *b = handoff_block(h);
  cr_assert_eq(b->n, 0, "a new block is zero-filled");
  int next = 0;
  for (int round = 0; round < 2; round++) {
    for (int k = 0; k < 50; k++) {
      while (b->n < ITEMS)
        b->v[b->n++] = next++;
      b = handoff_pass(h);
      cr_assert_eq(b->n, 0, "round %d, block %d: handed back before it was consumed", round, k);
    }
    handoff_drain(h);
    cr_assert_eq(s.values->len, (guint)next, "round %d: %u of %d items consumed", round,
                 s.values->len, next);
    b->v[b->n++] = next++; /* the block being filled, consumed here */
    consume(b, &s);
  }
  for (int i = 0; i < next; i++)
    cr_assert_eq(g_array_index(s.values, int, i), i, "item %d out of order", i);
  cr_assert_leq(g_hash_table_size(s.blocks), 3, "%u blocks alive", g_hash_table_size(s.blocks));
  cr_assert_eq(s.off_thread, 100, "%d of 100 passed blocks consumed by the thread",
               s.off_thread);
  handoff_free(h);
  g_hash_table_unref(s.blocks);
  g_array_unref(s.values);
}
