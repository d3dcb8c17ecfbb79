/* test_flow.c - the flow model (models/flow.c) against closed forms and
 * hand-computed max-min rates, driven directly on an engine. */
#include "tests/netmodel_util.h"
#include "tests/testutil.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define MB 1048576
/* 1 MiB over a 31.25e9 B/s shorthand link: 33554432 ps exactly. */
#define MB_PS 33554432

/* The + link from `node` along dimension 0. */
static int plus_link(const platform *p, int node)
{
  return topo_link(p->topo, node, 0, 0);
}

Test(flow, lone_flow_equals_analytic)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  p->model.router_delay = 5e-9;
  p->model.packet_header = 64;
  const int pairs[][2] = { { 0, 1 }, { 0, 42 }, { 63, 0 }, { 5, 22 }, { 17, 46 } };
  for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
    nm_run *f = nm_new("flow", p), *a = nm_new("analytic", p);
    nm_send(f, pairs[i][0], pairs[i][1], 1000000, 12345);
    nm_send(a, pairs[i][0], pairs[i][1], 1000000, 12345);
    nm_finish(f);
    nm_finish(a);
    /* closed form: t + ps(h x (10 ps + 5 ns)) + ps(wire / bw), wire =
     * 1e6 + 245 packets x 64 B = 1015680 B -> 32501760 ps */
    int h = topo_hops(p->topo, pairs[i][0], pairs[i][1]);
    int64_t expect = 12345 + engine_ps(h * (10e-12 + 5e-9)) + 32501760;
    cr_assert_eq(f->arrival[0], expect, "pair %zu: flow %" G_GINT64_FORMAT " expected %" G_GINT64_FORMAT,
                 i, f->arrival[0], expect);
    cr_assert_eq(f->arrival[0], a->arrival[0], "pair %zu: flow != analytic", i);
    nm_free(f);
    nm_free(a);
  }
}

Test(flow, two_equal_flows_share_one_link)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  nm_run *r = nm_new("flow", p);
  nm_send(r, 0, 1, MB, 0);
  nm_send(r, 0, 1, MB, 0);
  nm_finish(r);
  /* latency 10 ps, then both drain at half the bandwidth: 2 x 33554432 ps */
  cr_assert_eq(r->arrival[0], 10 + 2 * MB_PS);
  cr_assert_eq(r->arrival[1], 10 + 2 * MB_PS);
  cr_assert_eq(nm_stat(r, "flows_max_per_link"), 2);
  cr_assert_eq(nm_stat(r, "saturated_ps_max"), 2 * MB_PS);
  cr_assert_eq(nm_stat(r, "saturated_links"), 1);
  /* link busy time = bytes / bw, model-independent */
  cr_assert_eq(r->m->link_busy_ps[plus_link(p, 0)], 2 * MB_PS);
  nm_free(r);
}

Test(flow, late_flow_takes_half_of_the_rest)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  nm_uniform_links(p, 1e9, 0);
  nm_run *r = nm_new("flow", p);
  /* A: 1e6 B from t=0; B: 1e6 B from t=0.5 ms on the same link. A alone
   * sends 5e5 B by 0.5 ms, then both get 5e8 B/s: A ends at 1.5 ms; B has
   * 5e5 B left then, alone again at 1e9 B/s: ends at 2 ms. */
  nm_send(r, 0, 1, 1000000, 0);
  nm_send(r, 0, 1, 1000000, 500000000);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 1500000000);
  cr_assert_eq(r->arrival[1], 2000000000);
  nm_free(r);
}

/* Chain 0 - 1 - 2 - 3 (mesh:4), links L1 = 0->1 (10 GB/s), L2 = 1->2
 * (12 GB/s), L3 = 2->3 (3 GB/s), no latency. Flows, all at t = 0:
 *   A 0->2 over L1 L2, 4.5e6 B;  B 1->2 over L2, 9e6 B;  C 1->3 over L2 L3, 6e6 B.
 * Max-min by progressive filling: fair shares L1 10/1, L2 12/3 = 4, L3 3/1:
 * L3 is tightest, C = 3 GB/s; L2 has 12 - 3 = 9 left for A and B: 4.5 each
 * (A's L1 share 10 is larger). A ends at 4.5e6 / 4.5e9 = 1 ms; then B and
 * C have sent 4.5e6 and 3e6 B. Re-rating: C stays at 3 (L3), B gets
 * 12 - 3 = 9 GB/s: 4.5e6 B left -> ends at 1 ms + 0.5 ms = 1.5 ms. C alone:
 * 3e6 - 1.5e6 = 1.5e6 B left at 3 GB/s -> ends at 2 ms. */
Test(flow, max_min_chain_by_hand)
{
  g_autoptr(platform) p = tu_platform("mesh:4");
  nm_uniform_links(p, 1e9, 0);
  p->link_bw[plus_link(p, 0)] = 10e9;
  p->link_bw[plus_link(p, 1)] = 12e9;
  p->link_bw[plus_link(p, 2)] = 3e9;
  nm_run *r = nm_new("flow", p);
  nm_send(r, 0, 2, 4500000, 0);
  nm_send(r, 1, 2, 9000000, 0);
  nm_send(r, 1, 3, 6000000, 0);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 1000000000);
  cr_assert_eq(r->arrival[1], 1500000000);
  cr_assert_eq(r->arrival[2], 2000000000);
  cr_assert_eq(nm_stat(r, "flows_max_per_link"), 3);
  /* L2 saturated until B ends (C alone then uses 3 of 12), L3 all 2 ms, L1
   * never (A is limited by L2) */
  cr_assert_eq(nm_stat(r, "saturated_ps_max"), 2000000000);
  cr_assert_eq(nm_stat(r, "saturated_ps_sum"), 2000000000.0 + 1500000000.0);
  cr_assert_eq(nm_stat(r, "saturated_links"), 2);
  nm_free(r);
}

/* sharing = latency (SimGrid CM02's penalties): on the chain 0 - 1 - 2,
 * 1 GB/s, latencies 3 us (0->1) and 1 us (1->2), A = 0->2 (1e6 B, route
 * latency 4 us, from t = 0) and B = 1->2 (8e5 B, 1 us, from t = 3 us) both
 * start draining at 4 us and share 1->2 in the ratio 1/4 : 1/1: A gets
 * 0.2 GB/s, B 0.8 GB/s; B ends 1 ms later (1.004 ms), A has 8e5 B left
 * then, alone at 1 GB/s: 1.804 ms. Fair sharing: B at 0.5 GB/s ends at
 * 1.604 ms, A at 1.804 ms all the same (the link never idles). */
Test(flow, latency_weighted_sharing_by_hand)
{
  g_autoptr(platform) p = tu_platform("mesh:4");
  nm_uniform_links(p, 1e9, 0);
  p->link_lat[plus_link(p, 0)] = 3e-6;
  p->link_lat[plus_link(p, 1)] = 1e-6;
  for (int latency = 0; latency < 2; latency++) {
    p->model.sharing = latency ? PLATFORM_SHARING_LATENCY : PLATFORM_SHARING_FAIR;
    nm_run *r = nm_new("flow", p);
    nm_send(r, 0, 2, 1000000, 0);
    nm_send(r, 1, 2, 800000, 3000000);
    nm_finish(r);
    cr_assert_eq(r->arrival[0], 1804000000, "%s: A at %" G_GINT64_FORMAT,
                 platform_sharing_name(p->model.sharing), r->arrival[0]);
    cr_assert_eq(r->arrival[1], latency ? 1004000000 : 1604000000, "%s: B at %" G_GINT64_FORMAT,
                 platform_sharing_name(p->model.sharing), r->arrival[1]);
    nm_free(r);
  }
}

Test(flow, half_duplex_shares_the_cable)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  const char *models[] = { "flow", "flow-hd" };
  for (int i = 0; i < 2; i++) {
    nm_run *r = nm_new(models[i], p);
    nm_send(r, 0, 1, MB, 0);
    nm_send(r, 1, 0, MB, 0);
    nm_finish(r);
    /* full duplex: each direction alone; half duplex: half each */
    int64_t expect = 10 + (i + 1) * (int64_t)MB_PS;
    cr_assert_eq(r->arrival[0], expect, "%s", models[i]);
    cr_assert_eq(r->arrival[1], expect, "%s", models[i]);
    nm_free(r);
  }
}

Test(flow, zero_byte_message_pays_latency_only)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  nm_run *r = nm_new("flow", p);
  nm_send(r, 0, 3, 0, 7);
  nm_finish(r);
  cr_assert_eq(r->arrival[0], 7 + 10); /* 0 -> 3 is one hop round the ring */
  nm_free(r);
}

/* Many flows through one link arriving over time: a stress of the pool,
 * the swap-remove of the per-link lists and the completion heap (a flow
 * that ends speeds the others up: their completions move earlier than the
 * pending engine event, which is retired). With all
 * flows on one link, the link is never idle once busy, so the last
 * arrival is first activation + total bytes / bw (work conservation). */
Test(flow, work_conserving_on_a_shared_link)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  nm_uniform_links(p, 1e9, 0);
  nm_run *r = nm_new("flow", p);
  int64_t total = 0;
  for (int i = 0; i < 600; i++) {
    int64_t b = 1000 * (1 + i % 7);
    nm_send(r, 0, 1, b, (int64_t)i * 1000); /* arrivals faster than service */
    total += b;
  }
  nm_finish(r);
  int64_t last = 0;
  for (int i = 0; i < r->nmsgs; i++)
    last = MAX(last, r->arrival[i]);
  /* bytes/bw in ps = bytes x 1000; tolerance 1 ps per re-rating rounding */
  cr_assert(llabs(last - total * 1000) <= 600, "last %" G_GINT64_FORMAT " expected %" G_GINT64_FORMAT,
            last, total * 1000);
  nm_free(r);
}

/* ---- an independent oracle: full max-min recomputation ---------------- */

typedef struct ref_flow {
  int nl, links[16];
  double start, rem, rate, end; /* ps, bytes, bytes/ps */
  double w;                     /* weight: 1, or 1 / route latency in s */
} ref_flow;

/* Weighted progressive filling over all active flows at once, O(flows x
 * links) per round: the link with the smallest cap / (sum of its unfixed
 * flows' weights) fixes each of them at that share x its weight. The sums
 * are taken afresh every round: a running sum cancels (1e9 + 1 - 1e9 is 1
 * only within 1.2e-7 in double), which latency weights of 1e9 (1 ns) next
 * to 1 (a zero-latency route) turn into a relative rate error of 1e-7. */
static void ref_rates(const platform *p, ref_flow *f, int n, const gboolean *active)
{
  int nlinks = p->topo->nlinks;
  double *cap = g_new(double, (size_t)MAX(nlinks, 1));
  double *wsum = g_new(double, (size_t)MAX(nlinks, 1));
  int *cnt = g_new(int, (size_t)MAX(nlinks, 1));
  gboolean *fixed = g_new0(gboolean, (size_t)MAX(n, 1));
  for (int l = 0; l < nlinks; l++)
    cap[l] = p->link_bw[l] * 1e-12;
  for (;;) {
    memset(wsum, 0, sizeof(double) * (size_t)nlinks);
    memset(cnt, 0, sizeof(int) * (size_t)nlinks);
    for (int i = 0; i < n; i++)
      for (int k = 0; active[i] && !fixed[i] && k < f[i].nl; k++) {
        cnt[f[i].links[k]]++;
        wsum[f[i].links[k]] += f[i].w;
      }
    int best = -1;
    for (int l = 0; l < nlinks; l++)
      if (cnt[l] > 0 && (best < 0 || cap[l] / wsum[l] < cap[best] / wsum[best]))
        best = l;
    if (best < 0)
      break;
    double s = cap[best] / wsum[best];
    for (int i = 0; i < n; i++) {
      gboolean uses = FALSE;
      for (int k = 0; k < f[i].nl; k++)
        uses |= f[i].links[k] == best;
      if (!active[i] || fixed[i] || !uses)
        continue;
      fixed[i] = TRUE;
      f[i].rate = s * f[i].w;
      for (int k = 0; k < f[i].nl; k++)
        cap[f[i].links[k]] -= f[i].rate;
    }
  }
  g_free(cap);
  g_free(wsum);
  g_free(cnt);
  g_free(fixed);
}

/* Fluid simulation advancing from event to event (starts and ends). */
static void ref_simulate(const platform *p, ref_flow *f, int n)
{
  gboolean *active = g_new0(gboolean, (size_t)MAX(n, 1)), *done = g_new0(gboolean, (size_t)MAX(n, 1));
  double now = 0;
  for (int left = n; left > 0;) {
    ref_rates(p, f, n, active);
    double next = INFINITY;
    for (int i = 0; i < n; i++) {
      if (!done[i] && !active[i])
        next = MIN(next, f[i].start);
      if (active[i])
        next = MIN(next, now + f[i].rem / f[i].rate);
    }
    for (int i = 0; i < n; i++)
      if (active[i])
        f[i].rem -= f[i].rate * (next - now);
    now = next;
    for (int i = 0; i < n; i++) {
      if (active[i] && f[i].rem <= 1e-9 * f[i].rate + 1e-9) {
        active[i] = FALSE;
        done[i] = TRUE;
        f[i].end = now;
        left--;
      }
      if (!done[i] && !active[i] && f[i].start <= now)
        active[i] = TRUE;
    }
  }
  g_free(active);
  g_free(done);
}

/* The messages of run `r` as the reference simulator's flows, simulated:
 * each starts at its injection plus the route's latency rounded to ps, as
 * the model starts it; with `sharing = latency` it weighs 1 / that latency
 * in seconds, 1 for a zero-latency route (SimGrid CM02, as flow.c). */
static ref_flow *ref_full_recomputation(const nm_run *r, const platform *p)
{
  ref_flow *f = g_new0(ref_flow, (size_t)MAX(r->nmsgs, 1));
  for (int i = 0; i < r->nmsgs; i++) {
    route_iter it;
    int link;
    double lat = 0;
    route_begin(&it, p->router, r->src[i], r->dst[i], 0);
    while (route_next(&it, &link)) {
      cr_assert_lt(f[i].nl, 16);
      f[i].links[f[i].nl++] = link;
      lat += p->link_lat[link] + p->model.router_delay;
    }
    f[i].start = (double)(r->t[i] + engine_ps(lat));
    f[i].w = p->model.sharing == PLATFORM_SHARING_LATENCY ? 1.0 / (lat > 0 ? lat : 1.0) : 1.0;
    f[i].rem = (double)netmodel_wire_bytes(p, r->bytes[i]);
  }
  ref_simulate(p, f, r->nmsgs);
  return f;
}

/* The incremental model (bottleneck propagation, its fallback to whole
 * components, re-ratings shared by a picosecond's starts and ends, the
 * completion heap) against the full recomputation on random overlapping
 * traffic with heterogeneous links: same completion times up to ps
 * rounding (observed <= 2 ps; 4 allowed). */
Test(flow, incremental_equals_full_recomputation)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x2");
  for (int l = 0; l < p->topo->nlinks; l++) {
    p->link_bw[l] = 1e9 * (1 + l % 5);
    p->link_lat[l] = 1e-9 * (l % 3);
  }
  p->model.router_delay = 2e-9;
  nm_run *r = nm_new("flow", p);
  nm_random_traffic(r, p, 150, 99);
  nm_finish(r);
  ref_flow *f = ref_full_recomputation(r, p);
  int zero = 0;
  for (int i = 0; i < r->nmsgs; i++) {
    if (r->bytes[i] == 0) {
      zero++;
      continue;
    }
    cr_assert(fabs((double)r->arrival[i] - f[i].end) <= 4,
              "message %d: model %" G_GINT64_FORMAT " ps, full recomputation %.1f ps", i,
              r->arrival[i], f[i].end);
  }
  cr_assert_lt(zero, 5);
  cr_assert_gt(nm_stat(r, "flows_max_per_link"), 3); /* there was sharing */
  g_free(f);
  nm_free(r);
}

/* One run of propagation_equals_full_recomputation_under_load. */
static void propagation_check(const platform *p)
{
  const char *how = platform_sharing_name(p->model.sharing);
  nm_run *r = nm_new("flow", p);
  nm_random_traffic(r, p, 400, 7);
  nm_finish(r);
  ref_flow *f = ref_full_recomputation(r, p);
  /* the model keeps running sums of the weights on a capacity: they lose
   * up to DBL_EPSILON x the largest weight, relative to the smallest; that
   * x the time is the error of a flow's completion on top of the rounding
   * to ps (fair: nothing; latency: 1 s / 1 ns = 1e9, observed 8 ps) */
  double wmin = INFINITY, wmax = 0;
  for (int i = 0; i < r->nmsgs; i++) {
    wmin = MIN(wmin, f[i].w);
    wmax = MAX(wmax, f[i].w);
  }
  for (int i = 0; i < r->nmsgs; i++)
    if (r->bytes[i] > 0)
      cr_assert(fabs((double)r->arrival[i] - f[i].end) <= 4 + f[i].end * DBL_EPSILON * wmax / wmin,
                "%s: message %d: model %" G_GINT64_FORMAT " ps, full recomputation %.1f ps", how,
                i, r->arrival[i], f[i].end);
  /* the load was there, and most re-ratings stayed local */
  cr_assert_gt(nm_stat(r, "flows_max_concurrent"), 100);
  cr_assert_lt(nm_stat(r, "rerates_whole") * 4, nm_stat(r, "rerates"));
  cr_assert_lt(nm_stat(r, "flows_per_rerate") * 4, nm_stat(r, "flows_max_concurrent"));
  g_free(f);
  nm_free(r);
}

/* Many flows in flight, started and ended one at a time: the re-rating
 * reaches only the flows a change can reach (bottleneck propagation), not
 * whole components - yet every completion is that of the full max-min
 * recomputation at every start and end, fair and latency-weighted. */
Test(flow, propagation_equals_full_recomputation_under_load)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  for (int l = 0; l < p->topo->nlinks; l++) {
    p->link_bw[l] = 1e9 * (1 + l % 4);
    p->link_lat[l] = 1e-9 * (l % 2);
  }
  for (int latency = 0; latency < 2; latency++) {
    p->model.sharing = latency ? PLATFORM_SHARING_LATENCY : PLATFORM_SHARING_FAIR;
    propagation_check(p);
  }
}
