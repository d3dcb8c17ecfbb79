/* analytic.c - the contention-free ("contention-oblivious") network model.
 *
 * korndoerfer2021 Section 5.3: HAEC-SIM times messages with a
 * contention-oblivious model; concurrent messages never share resources.
 * Here a message of `bytes` over a route of h links takes
 *   T = sum over links (latency + router_delay) + wire_bytes / min bandwidth
 * with wire_bytes = bytes + ceil(bytes / packet_size) * packet_header
 * (models/model.h: netmodel_wire_bytes), computed in double seconds and
 * rounded once to picoseconds. Each link of the route is busy for
 * wire_bytes / its own bandwidth. One engine event per message (the
 * delivery); nothing allocated per message.
 *
 * Routes are static, so the route of each (src node, dst node) pair is
 * walked once: an open-addressing table keeps per pair the hop count, the
 * latency sum and bottleneck bandwidth (accumulated in route order, so the
 * doubles are bit-identical to a fresh walk) and the link ids in a flat
 * pool. A repeated pair costs O(h) counter updates and no routing. The
 * cache stops growing at PAIR_MAX pairs or LINK_MAX pooled links (about
 * 24 MiB); pairs beyond that are walked every time, as before.
 * Owned by the sim/models engineer. Not for: congestion (flow, packet).
 */
#include <math.h>

#include "models/model.h"

#define PAIR_MAX (1u << 19)  /* cached pairs (table of 2x that many slots) */
#define LINK_MAX (1u << 22)  /* pooled link ids */

typedef struct pair_ent {
  uint64_t key;          /* src << 32 | dst; UINT64_MAX = empty */
  double lat, bw;        /* latency sum (s), bottleneck (bytes/s) */
  int32_t hops, off;     /* links at pool[off .. off+hops-1] */
} pair_ent;

typedef struct analytic {
  netmodel base;         /* first member (model.h) */
  pair_ent *tab;
  uint32_t mask, npairs;
  int32_t *pool;
  uint32_t npool, cappool;
} analytic;

static gboolean analytic_init(netmodel *m, GError **error)
{
  analytic *a = (analytic *)m;
  (void)error;
  uint32_t slots = 1024;
  a->tab = g_new(pair_ent, slots);
  for (uint32_t i = 0; i < slots; i++)
    a->tab[i].key = UINT64_MAX;
  a->mask = slots - 1;
  a->cappool = 4096;
  a->pool = g_new(int32_t, a->cappool);
  return TRUE;
}

static void analytic_fini(netmodel *m)
{
  analytic *a = (analytic *)m;
  g_free(a->tab);
  g_free(a->pool);
}

static inline uint32_t pair_hash(uint64_t key)
{
  key *= 0x9E3779B97F4A7C15ull;
  return (uint32_t)(key >> 32);
}

static void pair_grow(analytic *a)
{
  uint32_t n = (a->mask + 1) * 2;
  pair_ent *t = g_new(pair_ent, n);
  for (uint32_t i = 0; i < n; i++)
    t[i].key = UINT64_MAX;
  for (uint32_t i = 0; i <= a->mask; i++) {
    if (a->tab[i].key == UINT64_MAX)
      continue;
    uint32_t h = pair_hash(a->tab[i].key) & (n - 1);
    while (t[h].key != UINT64_MAX)
      h = (h + 1) & (n - 1);
    t[h] = a->tab[i];
  }
  g_free(a->tab);
  a->tab = t;
  a->mask = n - 1;
}

/* The cached route of (src, dst), walking and caching it on first use;
 * NULL when the cache is full (the caller walks the route itself). */
static const pair_ent *pair_get(analytic *a, int src, int dst)
{
  uint64_t key = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
  uint32_t h = pair_hash(key) & a->mask;
  for (;; h = (h + 1) & a->mask) {
    if (a->tab[h].key == key)
      return &a->tab[h];
    if (a->tab[h].key == UINT64_MAX)
      break;
  }
  if (a->npairs >= PAIR_MAX)
    return NULL;
  const platform *p = a->base.p;
  pair_ent e = { key, 0, INFINITY, 0, (int32_t)a->npool };
  route_iter it;
  int link;
  route_begin(&it, p->router, src, dst);
  while (route_next(&it, &link)) {
    if (a->npool == a->cappool) {
      if (a->cappool >= LINK_MAX) {
        a->npool = (uint32_t)e.off; /* drop the partial route */
        return NULL;
      }
      a->cappool *= 2;
      a->pool = g_renew(int32_t, a->pool, a->cappool);
    }
    a->pool[a->npool++] = link;
    e.lat += p->link_lat[link] + p->model.router_delay;
    e.bw = MIN(e.bw, p->link_bw[link]);
    e.hops++;
  }
  a->tab[h] = e;
  if (2 * ++a->npairs > a->mask + 1) {
    pair_grow(a);
    return pair_get(a, src, dst);
  }
  return &a->tab[h];
}

static void analytic_start(netmodel *m, const netmodel_msg *msg)
{
  const platform *p = m->p;
  double wire = (double)netmodel_wire_bytes(p, msg->bytes);
  const pair_ent *e = pair_get((analytic *)m, msg->src, msg->dst);
  if (G_LIKELY(e)) {
    const int32_t *links = ((analytic *)m)->pool + e->off;
    for (int i = 0; i < e->hops; i++) {
      int link = links[i];
      netmodel_count_link(m, msg, link);
      m->link_busy_ps[link] += engine_ps(wire / p->link_bw[link]);
    }
    netmodel_count_hops(m, msg, e->hops);
    netmodel_deliver(m, msg, msg->t + engine_ps(e->lat + wire / e->bw));
    return;
  }
  double lat = 0, bw = INFINITY;
  route_iter it;
  int link, hops = 0;
  route_begin(&it, p->router, msg->src, msg->dst);
  while (route_next(&it, &link)) {
    netmodel_count_link(m, msg, link);
    lat += p->link_lat[link] + p->model.router_delay;
    bw = MIN(bw, p->link_bw[link]);
    m->link_busy_ps[link] += engine_ps(wire / p->link_bw[link]);
    hops++;
  }
  netmodel_count_hops(m, msg, hops);
  netmodel_deliver(m, msg, msg->t + engine_ps(lat + wire / bw));
}

const struct netmodel_ops netmodel_analytic_ops = {
  .name = "analytic",
  .summary = "contention-free: sum of hop latencies + bytes / bottleneck bandwidth",
  .caps = NETMODEL_CAP_ISOLATED_EXACT,
  .size = sizeof(analytic),
  .init = analytic_init,
  .fini = analytic_fini,
  .start = analytic_start,
};
