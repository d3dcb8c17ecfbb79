/* test_packet.c - the packet model (models/packet.c) against closed forms:
 * store-and-forward and virtual cut-through pipelines, FIFO order, and
 * back-pressure with finite buffers, driven directly on an engine. */
#include "tests/netmodel_util.h"
#include "tests/testutil.h"

/* Chain mesh:8, all links 1e9 B/s and 10 ns, router delay 3 ns, packets of
 * 1000 B payload + 24 B header: packet time P = 1024 B / 1e9 = 1024000 ps,
 * per-hop latency L = ps(10 ns + 3 ns) = 13000 ps, header time H = 24000
 * ps. Latency and router delay are paid once per hop, after the packet's
 * tail (store-and-forward) or head (cut-through) left the link. */
#define P_PS 1024000
#define L_PS 13000
#define H_PS 24000

static platform *chain(void)
{
  platform *p = tu_platform("mesh:8");
  nm_uniform_links(p, 1e9, 10e-9);
  p->model.router_delay = 3e-9;
  p->model.packet_size = 1000;
  p->model.packet_header = 24;
  return p;
}

Test(packet, store_and_forward_pipeline)
{
  g_autoptr(platform) p = chain();
  /* k = 7 packets over h = 5 hops: (k + h - 1) P + h L */
  nm_run *r = nm_new("packet", p);
  nm_send(r, 0, 5, 7000, 100);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 100 + (7 + 5 - 1) * P_PS + 5 * L_PS);
  /* busy time: every link sent 7 packets */
  cr_assert_eq(r->m->link_busy_ps[topo_link(p->topo, 2, 0, 0)], 7 * P_PS);
  nm_free(r);
}

Test(packet, store_and_forward_short_last_packet)
{
  g_autoptr(platform) p = chain();
  /* 6500 B = 6 full packets + one of 500 B (P' = 524000 ps). The short
   * tail reaches each router before the packet ahead has left it, so it
   * waits: (k - 1 + h - 1) P + P' + h L with k = 7, h = 5. */
  nm_run *r = nm_new("packet", p);
  nm_send(r, 0, 5, 6500, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], (7 + 5 - 2) * P_PS + 524000 + 5 * L_PS);
  nm_free(r);
}

Test(packet, single_packet_equals_analytic)
{
  g_autoptr(platform) p = chain();
  /* one packet over one hop: P + L, the contention-free time */
  nm_run *r = nm_new("packet", p), *a = nm_new("analytic", p);
  nm_send(r, 3, 4, 1000, 0);
  nm_send(a, 3, 4, 1000, 0);
  nm_finish(r);
  nm_finish(a);
  cr_assert_eq(r->arrival[0], P_PS + L_PS);
  cr_assert_eq(r->arrival[0], a->arrival[0]);
  nm_free(r);
  nm_free(a);
}

Test(packet, virtual_cut_through_pipeline)
{
  g_autoptr(platform) p = chain();
  /* k P + (h - 1) H + h L: the head moves on after H + L per hop */
  nm_run *r = nm_new("packet-vct", p);
  nm_send(r, 0, 5, 7000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 7 * P_PS + 4 * H_PS + 5 * L_PS);
  nm_free(r);
  /* with no header the pipeline has no per-hop serialization at all */
  p->model.packet_header = 0;
  r = nm_new("packet-vct", p);
  nm_send(r, 0, 7, 7000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 7 * 1000000 + 7 * L_PS);
  nm_free(r);
}

Test(packet, fifo_between_messages)
{
  g_autoptr(platform) p = chain();
  /* two 4-packet messages on the same link at the same time: the first
   * keeps the link for its 4 packets, the second follows */
  nm_run *r = nm_new("packet", p);
  nm_send(r, 1, 2, 4000, 0);
  nm_send(r, 1, 2, 4000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 4 * P_PS + L_PS);
  cr_assert_eq(r->arrival[1], 8 * P_PS + L_PS);
  cr_assert_eq(nm_stat(r, "queue_max_packets"), 8);
  /* 8 packets waiting at t = 0, one leaves per P: time-average over the
   * 8P + L horizon = (8 + 7 + ... + 1) P / (8 P + L) */
  double avg = 36.0 * P_PS / (8.0 * P_PS + L_PS);
  cr_assert_float_eq(nm_stat(r, "queue_avg_max_link"), avg, 1e-9);
  /* saturated (a packet waiting behind the one sent) for 7 packet times */
  cr_assert_eq(nm_stat(r, "saturated_ps_max"), 7 * P_PS);
  nm_free(r);
}

/* Back-pressure, chain 0 - 1 - 2, k = 16 packets, no latency, no header,
 * so P = 1000000 ps. A: 0 -> 2, B: 1 -> 2 (both at t = 0, B's packets are
 * queued on link 1->2 first), C: 0 -> 1, one packet, queued behind A.
 * Infinite buffers: A leaves link 0->1 at 16 P, C arrives at 17 P.
 * Buffers of 8: A's packets 0..7 fill the queue of 1->2 (which serves B
 * until 16 P), A's packet 8 + j starts on 0->1 only when A's packet j has
 * left 1->2, at 16 P + (j + 1) P; A's last (j = 7) starts at 24 P, ends at
 * 25 P; C follows: 26 P. A and B end as without back-pressure. */
Test(packet, finite_buffers_back_pressure)
{
  g_autoptr(platform) p = tu_platform("mesh:3");
  nm_uniform_links(p, 1e9, 0);
  p->model.packet_size = 1000;
  const char *models[] = { "packet", "packet-buf" };
  const int64_t c_expect[] = { 17000000, 26000000 };
  for (int i = 0; i < 2; i++) {
    nm_run *r = nm_new(models[i], p);
    nm_send(r, 0, 2, 16000, 0);
    nm_send(r, 1, 2, 16000, 0);
    nm_send(r, 0, 1, 1000, 0);
    nm_finish(r);
    cr_assert_eq(r->arrival[1], 16000000, "%s: B", models[i]);
    cr_assert_eq(r->arrival[0], 32000000, "%s: A", models[i]);
    cr_assert_eq(r->arrival[2], c_expect[i], "%s: C", models[i]);
    cr_assert_eq(nm_stat(r, "undelivered_messages"), 0);
    nm_free(r);
  }
}

Test(packet, single_message_unaffected_by_buffers)
{
  g_autoptr(platform) p = chain();
  nm_run *r = nm_new("packet-buf", p);
  nm_send(r, 0, 7, 50000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], (50 + 7 - 1) * (int64_t)P_PS + 7 * L_PS);
  nm_free(r);
}
