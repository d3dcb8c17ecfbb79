/* test_engine.c - the event engine: (time, sequence) order, growth, payloads. */
#include <criterion/criterion.h>

#include "engine/engine.h"

typedef struct {
  int64_t times[20000];
  uint32_t ids[20000];
  int n;
} log_ctx;

static void record(void *ctx, engine *e, const engine_event *ev)
{
  log_ctx *l = ctx;
  l->times[l->n] = ev->time;
  l->ids[l->n] = ev->a;
  l->n++;
  cr_assert_eq(e->now, ev->time);
}

Test(engine, ties_run_in_scheduling_order)
{
  engine *e = engine_new(2);
  static log_ctx l;
  l.n = 0;
  uint32_t k = engine_register(e, record, &l);
  engine_schedule(e, 50, k, 0, 0);
  engine_schedule(e, 10, k, 1, 0);
  engine_schedule(e, 50, k, 2, 0);
  engine_schedule(e, 10, k, 3, 0);
  engine_schedule(e, 0, k, 4, 0);
  cr_assert_eq(engine_next_time(e), 0);
  cr_assert_eq(engine_run(e), 5);
  uint32_t want[5] = { 4, 1, 3, 0, 2 };
  for (int i = 0; i < 5; i++)
    cr_assert_eq(l.ids[i], want[i], "position %d: %u, expected %u", i, l.ids[i], want[i]);
  cr_assert_eq(engine_next_time(e), INT64_MAX);
  engine_free(e);
}

Test(engine, many_events_sorted_and_stable)
{
  engine *e = engine_new(1);
  static log_ctx l;
  l.n = 0;
  uint32_t k = engine_register(e, record, &l);
  GRand *r = g_rand_new_with_seed(7);
  for (uint32_t i = 0; i < 20000; i++)
    engine_schedule(e, g_rand_int_range(r, 0, 500), k, i, 0);
  g_rand_free(r);
  cr_assert_eq(engine_run(e), 20000);
  cr_assert_geq(e->max_queue, 20000);
  for (int i = 1; i < l.n; i++) {
    cr_assert_geq(l.times[i], l.times[i - 1]);
    if (l.times[i] == l.times[i - 1])
      cr_assert_gt(l.ids[i], l.ids[i - 1], "ties must keep scheduling order");
  }
  engine_free(e);
}

/* A handler scheduling follow-ups: a chain of n events 3 ps apart. */
static void chain(void *ctx, engine *e, const engine_event *ev)
{
  int *count = ctx;
  (*count)++;
  if (ev->b > 0)
    engine_schedule(e, ev->time + 3, ev->kind, ev->a, ev->b - 1);
}

Test(engine, handlers_schedule_more)
{
  engine *e = engine_new(0);
  int count = 0;
  uint32_t k = engine_register(e, chain, &count);
  engine_schedule(e, 5, k, 0, 99);
  engine_run(e);
  cr_assert_eq(count, 100);
  cr_assert_eq(e->now, 5 + 3 * 99);
  cr_assert_eq(e->handled, 100);
  engine_free(e);
}

Test(engine, seconds_to_ps_rounds_once)
{
  cr_assert_eq(engine_ps(1e-12), 1);
  cr_assert_eq(engine_ps(10e-12), 10);
  cr_assert_eq(engine_ps(1.5e-12), 2);
  cr_assert_eq(engine_ps(1.0), 1000000000000LL);
  cr_assert_eq(engine_ps(0.0), 0);
}
