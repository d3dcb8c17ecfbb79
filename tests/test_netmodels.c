/* test_netmodels.c - properties every network model must keep, checked on
 * the same seeded random traffic for each registered model: pre/post
 * equality of per-link bytes and messages, determinism, and contention
 * never beating the contention-free (analytic) time. */
#include "tests/netmodel_util.h"
#include "tests/testutil.h"

static const char *const models[] = { "analytic", "flow", "flow-hd", "packet", "packet-vct",
                                      "packet-buf" };

static nm_run *run_random(const char *name, const platform *p, int n)
{
  nm_run *r = nm_new(name, p);
  nm_random_traffic(r, p, n, 12345);
  nm_finish(r);
  return r;
}

Test(netmodels, link_bytes_equal_route_sums)
{
  const char *platforms[] = { "torus:4x4x4", "mesh:4x4x4", "haec:4x4x4" };
  for (size_t j = 0; j < G_N_ELEMENTS(platforms); j++) {
    g_autoptr(platform) p = tu_platform(platforms[j]);
    p->model.packet_header = 32;
    for (size_t i = 0; i < G_N_ELEMENTS(models); i++) {
      nm_run *r = run_random(models[i], p, 400);
      nm_check_link_counts(r, p);
      nm_free(r);
    }
  }
}

/* Finite buffers with back-pressure deliver everything on torus rings and
 * on the HAEC Box too (bubble flow control, models/packet.c), with heavy
 * traffic: 2000 messages of up to 200 kB in 20 us on 64 nodes. */
Test(netmodels, finite_buffers_do_not_deadlock)
{
  const char *platforms[] = { "torus:4x4x4", "torus:8x2", "mesh:4x4x4", "haec:4x4x4" };
  for (size_t j = 0; j < G_N_ELEMENTS(platforms); j++) {
    g_autoptr(platform) p = tu_platform(platforms[j]);
    p->model.packet_size = 1024;
    nm_run *r = nm_new("packet-buf", p);
    nm_random_traffic(r, p, 2000, 777);
    engine_run(r->eng);
    cr_assert_eq(r->ndone, r->nmsgs, "%s: %d of %d delivered", platforms[j], r->ndone, r->nmsgs);
    cr_assert_eq(nm_stat(r, "undelivered_messages"), 0);
    nm_free(r);
  }
}

Test(netmodels, same_inputs_same_arrivals)
{
  g_autoptr(platform) p = tu_platform("mesh:4x4x4");
  for (size_t i = 0; i < G_N_ELEMENTS(models); i++) {
    nm_run *a = run_random(models[i], p, 400), *b = run_random(models[i], p, 400);
    for (int k = 0; k < a->nmsgs; k++)
      cr_assert_eq(a->arrival[k], b->arrival[k], "%s message %d", models[i], k);
    nm_free(a);
    nm_free(b);
  }
}

Test(netmodels, contention_only_delays)
{
  g_autoptr(platform) p = tu_platform("mesh:4x4x4");
  p->model.packet_size = 2048;
  nm_run *a = run_random("analytic", p, 400);
  for (size_t i = 1; i < G_N_ELEMENTS(models); i++) {
    nm_run *r = run_random(models[i], p, 400);
    int slower = 0;
    for (int k = 0; k < r->nmsgs; k++) {
      /* packet times are rounded per packet: allow 1 ps per packet */
      int64_t slack = 1 + r->bytes[k] / 2048;
      cr_assert_geq(r->arrival[k], a->arrival[k] - slack, "%s message %d", models[i], k);
      slower += r->arrival[k] > a->arrival[k] + slack;
    }
    /* 400 messages in 20 us on 64 nodes do collide */
    cr_assert_gt(slower, 0, "%s never slower than analytic", models[i]);
    nm_free(r);
  }
  nm_free(a);
}

Test(netmodels, flow_busy_time_equals_analytic)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  p->model.packet_header = 16;
  nm_run *a = run_random("analytic", p, 400), *f = run_random("flow", p, 400);
  nm_run *k = run_random("packet", p, 400);
  for (int l = 0; l < p->topo->nlinks; l++) {
    cr_assert_eq(f->m->link_busy_ps[l], a->m->link_busy_ps[l], "link %d", l);
    /* packet: per-packet rounding, at most 1 ps per packet */
    cr_assert(llabs(k->m->link_busy_ps[l] - a->m->link_busy_ps[l]) <= 1 + f->m->link_messages[0][l] * 100,
              "link %d", l);
  }
  nm_free(a);
  nm_free(f);
  nm_free(k);
}
