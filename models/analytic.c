/* analytic.c - the contention-free ("contention-oblivious") network model.
 *
 * korndoerfer2021 Section 5.3: HAEC-SIM times messages with a
 * contention-oblivious model; concurrent messages never share resources.
 * Here a message of `bytes` over a route of h links takes
 *   T = sum over links (latency + router_delay) + wire_bytes / min bandwidth
 * with wire_bytes = b + ceil(b / packet_size) * packet_header, where
 * b = bytes + envelope (models/model.h: netmodel_wire_bytes), computed in
 * double seconds and rounded once to picoseconds. Each link of the route
 * is busy for wire_bytes / its own bandwidth. Under SMPI's corrections
 * (--preset smpi, routing/platform.h) T = latency sum x lat_factor(w) +
 * w / (bw_factor(w) x min(min bandwidth, tcp_gamma / (2 x latency sum))),
 * w the wire bytes: what SimGrid's SMPI model gives a message alone
 * (cross traffic and weight-S only matter under sharing). For timelines, link k carries
 * the message at the bottleneck rate from t + the latencies of the links
 * before it on (a cut-through stream). One engine event per message (the
 * delivery); O(h) per message, nothing allocated.
 * Not for: congestion (flow, packet).
 */
#include <math.h>

#include "models/model.h"

static void analytic_start(netmodel *m, const netmodel_msg *msg)
{
  const platform *p = m->p;
  double wire = (double)netmodel_wire_bytes(p, msg->bytes);
  double lat = 0, bw = INFINITY;
  route_iter it;
  int link, hops = 0;
  route_begin(&it, p->router, msg->src, msg->dst, msg->route_key);
  while (route_next(&it, &link)) {
    netmodel_count_link(m, msg, link);
    lat += p->link_lat[link] + p->model.router_delay;
    bw = MIN(bw, p->link_bw[link]);
    netmodel_add(m, &m->link_busy_ps[link], engine_ps(wire / p->link_bw[link]));
    hops++;
  }
  netmodel_count_hops(m, msg, hops);
  if (G_UNLIKELY(m->rec != NULL)) {
    double before = 0;
    route_begin(&it, p->router, msg->src, msg->dst, msg->route_key);
    while (route_next(&it, &link)) {
      int64_t t0 = saturating_add_i64(msg->t, engine_ps(before));
      netmodel_link_use(m, link, t0, saturating_add_i64(t0, engine_ps(wire / bw)), wire);
      before += p->link_lat[link] + p->model.router_delay;
    }
  }
  /* SMPI's corrections (routing/platform.h; 1, 1 and none without them):
   * the latency times lat_factor, the rate the bottleneck bandwidth (at
   * most the TCP-gamma bound) times bw_factor */
  const platform_model *pm = &p->model;
  int64_t wb = (int64_t)wire;
  double rate = bw;
  if (pm->tcp_gamma > 0 && lat > 0)
    rate = MIN(rate, pm->tcp_gamma / (2 * lat));
  rate *= platform_factor(&pm->bw_factor, wb);
  lat *= platform_factor(&pm->lat_factor, wb);
  netmodel_deliver(m, msg, saturating_add_i64(msg->t, engine_ps(lat + wire / rate)));
}

static const netmodel_impl analytic = {
  .caps = NETMODEL_CAP_ISOLATED_EXACT,
  .size = sizeof(netmodel),
  .start = analytic_start,
};

const struct netmodel_ops netmodel_analytic_ops = {
  "analytic", "contention-free: sum of hop latencies + bytes / bottleneck bandwidth", &analytic, 0,
};
