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

Test(packet, local_messages_take_turns)
{
  g_autoptr(platform) p = chain();
  /* two 4-packet messages on the same link at the same time share it
   * packet by packet; the first one's first packet is already on the link
   * when the second is injected: slots 0 1 3 5 and 2 4 6 7 */
  nm_run *r = nm_new("packet", p);
  nm_send(r, 1, 2, 4000, 0);
  nm_send(r, 1, 2, 4000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 6 * P_PS + L_PS);
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

/* Back-pressure, chain 0 - 1 - 2, no latency, no header, packets of 1000 B:
 * P = 1000000 ps. At t = 0: A 0 -> 2 (16 packets), B 1 -> 2 (16 packets,
 * injected at node 1); at 14.5 P: C 0 -> 1 (1 packet, behind A at node 0).
 * Link 1->2 alternates B's injected packets and A's transit packets:
 * B0 A0 B1 A1 ... (A_i arrives at (i + 1) P, in time for slot 2i + 1), so
 * B ends at 31 P, A at 32 P. Infinite buffers: A_i goes on 0->1 at i P;
 * at 15 P A's last packet goes, C at 16 P, arrives at 17 P.
 * Buffers of 8 (bubble rule: A's injected packets need 2 free slots of
 * 1->2's transit queue): A_i goes on 0->1 at i P while at most 6 of A's
 * packets sit in that queue. A_j leaves 1->2 at (2j + 2) P, so by i P
 * ceil(i/2) are queued: A_0..A_12 go at i P, A_13 waits for A_6 to leave
 * (14 P); at 15 P A_14 waits (7 queued) and holds C behind it until A_7
 * leaves at 16 P; then C goes next: 17 P, arrives at 18 P. A and B are not
 * delayed (A_i still reaches node 1 before its slot). */
Test(packet, finite_buffers_back_pressure)
{
  g_autoptr(platform) p = tu_platform("mesh:3");
  nm_uniform_links(p, 1e9, 0);
  p->model.packet_size = 1000;
  const char *models[] = { "packet", "packet-buf" };
  const int64_t c_expect[] = { 17000000, 18000000 };
  for (int i = 0; i < 2; i++) {
    nm_run *r = nm_new(models[i], p);
    nm_send(r, 0, 2, 16000, 0);
    nm_send(r, 1, 2, 16000, 0);
    nm_send(r, 0, 1, 1000, 14500000);
    nm_finish(r);
    cr_assert_eq(r->arrival[1], 31000000, "%s: B", models[i]);
    cr_assert_eq(r->arrival[0], 32000000, "%s: A", models[i]);
    cr_assert_eq(r->arrival[2], c_expect[i], "%s: C", models[i]);
    cr_assert_eq(nm_stat(r, "undelivered_messages"), 0);
    nm_free(r);
  }
}

/* Round-robin between transit and injection: a transit message is not
 * held behind a long local message. Chain 0 - 1 - 2, P = 1e6 ps, L = 0:
 * node 1 injects 8 packets to 2 at t = 0, node 0 sends 1 packet to 2; it
 * reaches node 1 at P and goes next (slot 1, [P, 2P)): arrives at 2 P,
 * not after the 8 local packets (9 P). (Started first, its arrival at
 * node 1 is handled before link 1->2's end of transmission at the same
 * picosecond: events of one time run in scheduling order.) */
Test(packet, transit_and_injection_take_turns)
{
  g_autoptr(platform) p = tu_platform("mesh:3");
  nm_uniform_links(p, 1e9, 0);
  p->model.packet_size = 1000;
  nm_run *r = nm_new("packet", p);
  nm_send(r, 0, 2, 1000, 0);
  nm_send(r, 1, 2, 8000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 2000000);
  cr_assert_eq(r->arrival[1], 9000000);
  nm_free(r);
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

/* The packet count every model shares (netmodel_packets) and the wire
 * bytes built on it, by hand, up to the saturated sizes: 1000 B payload
 * per packet, 24 B header per packet, 16 B envelope per message. */
Test(packet, packet_count_and_wire_bytes)
{
  g_autoptr(platform) p = chain();
  p->model.envelope = 16;
  cr_assert_eq(netmodel_packets(p, 0), 1); /* a header still goes */
  cr_assert_eq(netmodel_packets(p, 1), 1);
  cr_assert_eq(netmodel_packets(p, 1000), 1);
  cr_assert_eq(netmodel_packets(p, 1001), 2);
  cr_assert_eq(netmodel_packets(p, INT64_MAX), INT64_MAX / 1000 + 1);
  /* 984 B + 16 B envelope fill one packet; one more byte needs two */
  cr_assert_eq(netmodel_wire_bytes(p, 984), 1000 + 24);
  cr_assert_eq(netmodel_wire_bytes(p, 985), 1001 + 2 * 24);
  cr_assert_eq(netmodel_wire_bytes(p, 0), 16 + 24);
  cr_assert_eq(netmodel_wire_bytes(p, INT64_MAX - 8), INT64_MAX);
  /* the model sends exactly those bytes: 985 B as a full packet and one
   * of 1 B + header over one hop, P + (25 B / 1e9 B/s) + L */
  nm_run *r = nm_new("packet", p);
  nm_send(r, 3, 4, 985, 0);
  nm_finish(r);
  cr_assert_eq(r->m->link_busy_ps[topo_link(p->topo, 3, 0, 0)], P_PS + 25000);
  cr_assert_eq(r->arrival[0], P_PS + 25000 + L_PS);
  nm_free(r);
}
