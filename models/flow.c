/* flow.c - flow-level network model: max-min fair sharing of link bandwidth.
 *
 * Every message in flight is a flow over its route. It first pays the
 * route's latency (sum of link latencies + router delays, as in analytic.c),
 * then its wire bytes (models/model.h: netmodel_wire_bytes) drain at a rate
 * given by max-min fairness over the links it crosses, computed by
 * progressive filling (water-filling: the link with the smallest fair share
 * fixes the rate of all its unfixed flows, repeat). With the platform's
 * `sharing = latency` the fairness is weighted: a flow's share is in
 * inverse proportion to its route's latency (SimGrid's CM02 model gives
 * every flow the sharing penalty of its route latency: the RTT unfairness
 * of TCP), a zero-latency route weighing as 1 s, as there. This is the flow-level
 * contention view of bhatele2010 Chapters 4-5 (link occupancy under
 * contention) and deveci2015 Section II (congestion = flows sharing links),
 * the contention model korndoerfer2021 Section 5.3 lists as missing from
 * HAEC-SIM's contention-oblivious model.
 *
 * Incremental: when a flow starts or ends, its links are marked dirty and
 * one re-rating event is queued at that picosecond (all starts and ends of
 * the same picosecond share it); it re-rates only the connected components
 * of the flow-link graph touching dirty links (breadth-first over links and
 * flows, epoch stamps, no clearing); a flow whose rate did not change keeps
 * its completion event. Completion events carry a version
 * stamp; a re-rated flow bumps its version, so stale events are dropped
 * (the engine has no cancellation). Remaining bytes are doubles updated as
 * rem -= rate * dt at each re-rating; event times are rounded once to ps.
 * A lone flow ends at t + ps(latency) + ps(wire / bottleneck bw), which is
 * analytic's t + ps(latency + wire / bw) whenever the latency is a whole
 * number of picoseconds (all bundled platforms), else within 1 ps.
 *
 * Variants (one ops table each, registry rows in models/models.c):
 *  - `flow`: full duplex, each directed link is its own capacity;
 *  - `flow-hd`: half duplex, both directions of a cable share one capacity
 *    (the cable's two directed links must have the same bandwidth; the
 *    smaller is used).
 * Per-link counters: link_busy_ps gets wire / bw per message and link (the
 * time the link needs to carry those bytes at full rate, the same as
 * analytic and packet), so post-simulation metrics do not depend on the
 * model. Model statistics (per capacity: a link, or a cable in flow-hd):
 * maximum and time-averaged number of flows, and the time it was saturated
 * (all its capacity allocated).
 *
 * Cost: O(component flows x hops + component links x log links) per
 * re-rating (lazy water-filling heap: a capacity is re-keyed only when it
 * reaches the top, not at every count change; the flow loops prefetch
 * ahead); all arrays are flat and grow geometrically, nothing is allocated
 * per event in steady state. Not for: packet-level effects (pipelining, queueing delay:
 * packet.c), MPI semantics (sim/replay.c).
 */
#include <math.h>
#include <string.h>

#include "models/model.h"

enum { FLOW_EV_ACTIVATE = 0, FLOW_EV_FINISH = 1, FLOW_EV_RERATE = 2 };

/* One active flow on a capacity: the flow and which of its hops this is. */
typedef struct fentry {
  int flow, hop;
} fentry;

typedef struct flist {
  fentry *e;
  int n, cap;
} flist;

typedef struct fheap_item {
  double share;
  int res;
  int n; /* the capacity's unfrozen flow count when pushed */
} fheap_item;

typedef struct flowmodel {
  netmodel base;
  gboolean half_duplex;
  /* capacities ("resources"): directed links, or cables when half duplex */
  int nres;
  int *link_res;       /* nlinks */
  double *res_bw;      /* nres */
  flist *rl;           /* nres: active flows per capacity */
  /* flows, in a pool of fcap slots with `stride` hop slots each */
  int fcap, stride, nfree, nactive, max_active;
  int *free_ids;
  netmodel_msg *fmsg;
  double *rem, *rate, *new_rate, *weight;
  int64_t *last;
  uint32_t *ver, *fmark, *frozen;
  int *nhops, *hop_res, *hop_pos;
  /* route scratch */
  int *route, route_cap;
  /* capacities whose flow set changed since the last re-rating, and
   * whether a re-rating event is pending at the current time */
  int *dirty, ndirty;
  uint32_t dirty_epoch, *dirty_mark;
  gboolean pending;
  /* re-rating workspace */
  uint32_t epoch;
  uint32_t *rmark;
  double *rcap, *rw;   /* capacity left, weight of the unfixed flows */
  int *rn, *comp_res, *comp_flow;
  fheap_item *heap;
  int hn, hcap;
  /* statistics per capacity */
  int *maxn;
  double *area;        /* integral of the flow count, flow x ps */
  int64_t *tlast, *sat_ps;
  uint8_t *sat;
  uint64_t rerates, rerated_flows;
} flowmodel;

/* ---- setup ---------------------------------------------------------- */

/* The opposite direction of link l (same cable), or -1. */
static int reverse_link(const topo *t, int l)
{
  int s = t->link_src[l], d = t->link_dst[l];
  if (topo_is_regular(t) && t->link_dim[l] >= 0 && t->link_dim[l] != t->crossbar_dim) {
    int r = topo_link(t, d, t->link_dim[l], 1 - t->link_dir[l]);
    if (r >= 0 && t->link_dst[r] == s)
      return r;
  }
  for (int i = t->out_off[d]; i < t->out_off[d + 1]; i++)
    if (t->link_dst[t->out_link[i]] == s && t->link_dim[t->out_link[i]] == t->link_dim[l])
      return t->out_link[i];
  return -1;
}

static void flow_map_resources(flowmodel *fm)
{
  netmodel *m = &fm->base;
  const topo *t = m->p->topo;
  fm->link_res = g_new(int, MAX(m->nlinks, 1));
  int *res_of_link = g_new(int, MAX(m->nlinks, 1));
  fm->nres = 0;
  for (int l = 0; l < m->nlinks; l++) {
    int r = fm->half_duplex ? reverse_link(t, l) : -1;
    if (r >= 0 && r < l)
      res_of_link[l] = res_of_link[r];
    else
      res_of_link[l] = fm->nres++;
    fm->link_res[l] = res_of_link[l];
  }
  g_free(res_of_link);
  fm->res_bw = g_new(double, MAX(fm->nres, 1));
  for (int i = 0; i < fm->nres; i++)
    fm->res_bw[i] = INFINITY;
  for (int l = 0; l < m->nlinks; l++)
    fm->res_bw[fm->link_res[l]] = MIN(fm->res_bw[fm->link_res[l]], m->p->link_bw[l]);
}

static gboolean flow_setup(netmodel *m, gboolean half_duplex)
{
  flowmodel *fm = (flowmodel *)m;
  fm->half_duplex = half_duplex;
  flow_map_resources(fm);
  size_t n = (size_t)MAX(fm->nres, 1);
  fm->rl = g_new0(flist, n);
  fm->rmark = g_new0(uint32_t, n);
  fm->rcap = g_new0(double, n);
  fm->rw = g_new0(double, n);
  fm->rn = g_new0(int, n);
  fm->comp_res = g_new0(int, n);
  fm->dirty = g_new0(int, n);
  fm->dirty_mark = g_new0(uint32_t, n);
  fm->dirty_epoch = 1;
  fm->maxn = g_new0(int, n);
  fm->area = g_new0(double, n);
  fm->tlast = g_new0(int64_t, n);
  fm->sat_ps = g_new0(int64_t, n);
  fm->sat = g_new0(uint8_t, n);
  fm->stride = 8;
  fm->route_cap = 64;
  fm->route = g_new(int, fm->route_cap);
  return TRUE;
}

static gboolean flow_init_fd(netmodel *m, GError **error)
{
  return flow_setup(m, FALSE);
}

static gboolean flow_init_hd(netmodel *m, GError **error)
{
  return flow_setup(m, TRUE);
}

static void flow_fini(netmodel *m)
{
  flowmodel *fm = (flowmodel *)m;
  for (int r = 0; r < fm->nres; r++)
    g_free(fm->rl[r].e);
  void *arrays[] = { fm->link_res, fm->res_bw, fm->rl, fm->free_ids, fm->fmsg, fm->rem,
                     fm->rate, fm->new_rate, fm->weight, fm->last, fm->ver, fm->fmark,
                     fm->frozen, fm->nhops, fm->hop_res, fm->hop_pos, fm->route, fm->rmark,
                     fm->rcap, fm->rw, fm->rn, fm->comp_res, fm->comp_flow, fm->heap, fm->maxn, fm->dirty, fm->dirty_mark,
                     fm->area, fm->tlast, fm->sat_ps, fm->sat };
  for (size_t i = 0; i < G_N_ELEMENTS(arrays); i++)
    g_free(arrays[i]);
}

/* ---- the flow pool -------------------------------------------------- */

/* Doubles the pool; new slots go on the free list (highest id first so
 * that ids are handed out ascending). */
static void flow_grow(flowmodel *fm)
{
  int old = fm->fcap, cap = old ? 2 * old : 256;
  size_t n = (size_t)cap;
  fm->fmsg = g_renew(netmodel_msg, fm->fmsg, n);
  fm->rem = g_renew(double, fm->rem, n);
  fm->rate = g_renew(double, fm->rate, n);
  fm->new_rate = g_renew(double, fm->new_rate, n);
  fm->weight = g_renew(double, fm->weight, n);
  fm->last = g_renew(int64_t, fm->last, n);
  fm->ver = g_renew(uint32_t, fm->ver, n);
  fm->fmark = g_renew(uint32_t, fm->fmark, n);
  fm->frozen = g_renew(uint32_t, fm->frozen, n);
  fm->nhops = g_renew(int, fm->nhops, n);
  fm->comp_flow = g_renew(int, fm->comp_flow, n);
  fm->free_ids = g_renew(int, fm->free_ids, n);
  fm->hop_res = g_renew(int, fm->hop_res, n * (size_t)fm->stride);
  fm->hop_pos = g_renew(int, fm->hop_pos, n * (size_t)fm->stride);
  for (int i = old; i < cap; i++) {
    fm->ver[i] = fm->fmark[i] = fm->frozen[i] = 0;
    fm->free_ids[fm->nfree++] = cap - 1 - (i - old);
  }
  fm->fcap = cap;
}

/* Widens every flow's hop slots to at least `hops` (rare: long routes). */
static void flow_widen(flowmodel *fm, int hops)
{
  int s = fm->stride;
  while (s < hops)
    s *= 2;
  int *res = g_new(int, (size_t)fm->fcap * s), *pos = g_new(int, (size_t)fm->fcap * s);
  for (int f = 0; f < fm->fcap; f++) {
    memcpy(res + (size_t)f * s, fm->hop_res + (size_t)f * fm->stride, sizeof(int) * fm->stride);
    memcpy(pos + (size_t)f * s, fm->hop_pos + (size_t)f * fm->stride, sizeof(int) * fm->stride);
  }
  g_free(fm->hop_res);
  g_free(fm->hop_pos);
  fm->hop_res = res;
  fm->hop_pos = pos;
  fm->stride = s;
}

static inline int *hops_of(const flowmodel *fm, int f)
{
  return fm->hop_res + (size_t)f * fm->stride;
}

/* ---- per-capacity statistics ---------------------------------------- */

/* Accumulates capacity r's flow count and saturation up to `now`; call
 * before changing either. */
static inline void res_touch(flowmodel *fm, int r, int64_t now)
{
  int64_t dt = now - fm->tlast[r];
  if (dt > 0) {
    fm->area[r] += (double)fm->rl[r].n * (double)dt;
    if (fm->sat[r])
      fm->sat_ps[r] += dt;
    fm->tlast[r] = now;
  }
}

/* Marks capacity r changed and makes sure a re-rating runs at `now`,
 * after the other events of this picosecond that are already queued:
 * flows starting or ending at the same time share one re-rating. */
static void res_dirty(flowmodel *fm, int r, int64_t now)
{
  if (fm->dirty_mark[r] != fm->dirty_epoch) {
    fm->dirty_mark[r] = fm->dirty_epoch;
    fm->dirty[fm->ndirty++] = r;
  }
  if (!fm->pending) {
    fm->pending = TRUE;
    engine_schedule(fm->base.eng, now, fm->base.own_kind, 0, FLOW_EV_RERATE);
  }
}

static void res_add(flowmodel *fm, int f, int k, int64_t now)
{
  int r = hops_of(fm, f)[k];
  flist *l = &fm->rl[r];
  res_touch(fm, r, now);
  res_dirty(fm, r, now);
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 4;
    l->e = g_renew(fentry, l->e, l->cap);
  }
  fm->hop_pos[(size_t)f * fm->stride + k] = l->n;
  l->e[l->n++] = (fentry){ f, k };
  if (l->n > fm->maxn[r])
    fm->maxn[r] = l->n;
}

/* Swap-removes hop k of flow f from its capacity's list. */
static void res_remove(flowmodel *fm, int f, int k, int64_t now)
{
  int r = hops_of(fm, f)[k];
  flist *l = &fm->rl[r];
  res_touch(fm, r, now);
  res_dirty(fm, r, now);
  int pos = fm->hop_pos[(size_t)f * fm->stride + k];
  fentry moved = l->e[--l->n];
  l->e[pos] = moved;
  fm->hop_pos[(size_t)moved.flow * fm->stride + moved.hop] = pos;
}

/* ---- water-filling heap (min share first, lazy deletion) ------------- */

static void heap_push(flowmodel *fm, int r)
{
  if (fm->hn == fm->hcap) {
    fm->hcap = fm->hcap ? 2 * fm->hcap : 256;
    fm->heap = g_renew(fheap_item, fm->heap, fm->hcap);
  }
  fheap_item it = { fm->rcap[r] / fm->rw[r], r, fm->rn[r] };
  int i = fm->hn++;
  while (i > 0 && fm->heap[(i - 1) / 2].share > it.share) {
    fm->heap[i] = fm->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  fm->heap[i] = it;
}

static fheap_item heap_pop(flowmodel *fm)
{
  fheap_item top = fm->heap[0], last = fm->heap[--fm->hn];
  int i = 0, n = fm->hn;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n)
      break;
    if (c + 1 < n && fm->heap[c + 1].share < fm->heap[c].share)
      c++;
    if (!(fm->heap[c].share < last.share))
      break;
    fm->heap[i] = fm->heap[c];
    i = c;
  }
  if (n)
    fm->heap[i] = last;
  return top;
}

/* ---- incremental max-min re-rating ----------------------------------- */

/* Collects the components of the flow-link graph reachable from the
 * dirty capacities into comp_res / comp_flow (and empties the dirty set);
 * returns the number of flows, *nres the number of capacities. */
static int collect_component(flowmodel *fm, int *nres)
{
  uint32_t ep = ++fm->epoch;
  int ncr = 0, ncf = 0;
  for (int i = 0; i < fm->ndirty; i++) {
    fm->rmark[fm->dirty[i]] = ep;
    fm->comp_res[ncr++] = fm->dirty[i];
  }
  fm->ndirty = 0;
  fm->dirty_epoch++;
  for (int i = 0; i < ncr; i++) {
    const flist *l = &fm->rl[fm->comp_res[i]];
    for (int j = 0; j < l->n; j++) {
      int g = l->e[j].flow;
      if (j + 8 < l->n) {
        __builtin_prefetch(&fm->fmark[l->e[j + 8].flow]);
        __builtin_prefetch(hops_of(fm, l->e[j + 8].flow));
      }
      if (fm->fmark[g] == ep)
        continue;
      fm->fmark[g] = ep;
      fm->comp_flow[ncf++] = g;
      const int *gh = hops_of(fm, g);
      for (int k = 0; k < fm->nhops[g]; k++)
        if (fm->rmark[gh[k]] != ep) {
          fm->rmark[gh[k]] = ep;
          fm->comp_res[ncr++] = gh[k];
        }
    }
  }
  *nres = ncr;
  return ncf;
}

/* Progressive filling over the collected capacities: fills new_rate[].
 * Lazy heap: freezing flows at the current minimum share s only raises the
 * share of the other capacities they cross ((c - s) / (n - 1) >= c / n
 * when c / n >= s), so heap keys stay lower bounds and are not updated
 * when a count drops; a capacity whose count changed since it was pushed
 * is re-pushed with its current share when it reaches the top. A popped
 * entry with an unchanged count is the true minimum. One heap entry per
 * capacity at any time (no stale duplicates). */
static void water_fill(flowmodel *fm, int ncr)
{
  uint32_t ep = fm->epoch;
  fm->hn = 0;
  for (int i = 0; i < ncr; i++) {
    int r = fm->comp_res[i];
    fm->rcap[r] = fm->res_bw[r];
    fm->rn[r] = fm->rl[r].n;
    fm->rw[r] = 0;
    for (int j = 0; j < fm->rl[r].n; j++)
      fm->rw[r] += fm->weight[fm->rl[r].e[j].flow];
    if (fm->rn[r] > 0)
      heap_push(fm, r);
  }
  while (fm->hn) {
    fheap_item it = heap_pop(fm);
    int r = it.res;
    if (fm->rn[r] == 0)
      continue;
    if (it.n != fm->rn[r]) {
      heap_push(fm, r);
      continue;
    }
    double s = fm->rcap[r] / fm->rw[r];
    const flist *l = &fm->rl[r];
    for (int j = 0; j < l->n; j++) {
      int g = l->e[j].flow;
      if (j + 8 < l->n) {
        __builtin_prefetch(&fm->frozen[l->e[j + 8].flow]);
        __builtin_prefetch(hops_of(fm, l->e[j + 8].flow));
      }
      if (fm->frozen[g] == ep)
        continue;
      fm->frozen[g] = ep;
      double w = fm->weight[g];
      fm->new_rate[g] = s * w;
      const int *gh = hops_of(fm, g);
      for (int k = 0; k < fm->nhops[g]; k++) {
        int q = gh[k];
        fm->rcap[q] -= s * w;
        fm->rw[q] -= w;
        fm->rn[q]--;
      }
    }
  }
}

/* Re-rates the components around the dirty capacities at time `now` and
 * reschedules the completion of every flow whose rate changed. */
static void rerate(flowmodel *fm, int64_t now)
{
  netmodel *m = &fm->base;
  int ncr, ncf = collect_component(fm, &ncr);
  for (int i = 0; i < ncf; i++) {
    int g = fm->comp_flow[i];
    fm->rem[g] = MAX(0.0, fm->rem[g] - fm->rate[g] * (double)(now - fm->last[g]) * 1e-12);
    fm->last[g] = now;
  }
  for (int i = 0; i < ncr; i++)
    res_touch(fm, fm->comp_res[i], now);
  water_fill(fm, ncr);
  for (int i = 0; i < ncr; i++) {
    int r = fm->comp_res[i];
    fm->sat[r] = fm->rl[r].n > 0 && fm->rcap[r] <= 1e-9 * fm->res_bw[r];
  }
  for (int i = 0; i < ncf; i++) {
    int g = fm->comp_flow[i];
    if (fm->new_rate[g] == fm->rate[g])
      continue;
    fm->rate[g] = fm->new_rate[g];
    fm->ver[g]++;
    engine_schedule(m->eng, saturating_add_i64(now, engine_ps(fm->rem[g] / fm->rate[g])), m->own_kind, (uint32_t)g,
                    (uint64_t)fm->ver[g] << 2 | FLOW_EV_FINISH);
  }
  fm->rerates++;
  fm->rerated_flows += (uint64_t)ncf;
}

/* ---- the model hooks ------------------------------------------------ */

/* Walks msg's route into fm->route (counting links and busy time);
 * returns the hop count and the latency sum in *lat. */
static int flow_route(flowmodel *fm, const netmodel_msg *msg, double wire, double *lat)
{
  netmodel *m = &fm->base;
  const platform *p = m->p;
  route_iter it;
  int link, h = 0;
  double l = 0;
  route_begin(&it, p->router, msg->src, msg->dst);
  while (route_next(&it, &link)) {
    netmodel_count_link(m, msg, link);
    netmodel_add(m, &m->link_busy_ps[link], engine_ps(wire / p->link_bw[link]));
    l += p->link_lat[link] + p->model.router_delay;
    if (h == fm->route_cap) {
      fm->route_cap *= 2;
      fm->route = g_renew(int, fm->route, fm->route_cap);
    }
    fm->route[h++] = fm->link_res[link];
  }
  netmodel_count_hops(m, msg, h);
  *lat = l;
  return h;
}

static void flow_start(netmodel *m, const netmodel_msg *msg)
{
  flowmodel *fm = (flowmodel *)m;
  double wire = (double)netmodel_wire_bytes(m->p, msg->bytes), lat;
  int h = flow_route(fm, msg, wire, &lat);
  int64_t t0 = saturating_add_i64(msg->t, engine_ps(lat));
  if (wire <= 0 || h == 0) {
    netmodel_deliver(m, msg, t0);
    return;
  }
  if (fm->nfree == 0)
    flow_grow(fm);
  if (h > fm->stride)
    flow_widen(fm, h);
  int f = fm->free_ids[--fm->nfree];
  fm->fmsg[f] = *msg;
  fm->rem[f] = wire;
  fm->rate[f] = 0;
  fm->weight[f] = m->p->model.sharing == PLATFORM_SHARING_LATENCY ? 1.0 / (lat > 0 ? lat : 1.0)
                                                                  : 1.0;
  fm->nhops[f] = h;
  memcpy(hops_of(fm, f), fm->route, sizeof(int) * (size_t)h);
  engine_schedule(m->eng, t0, m->own_kind, (uint32_t)f, FLOW_EV_ACTIVATE);
}

static void flow_activate(flowmodel *fm, int f, int64_t now)
{
  for (int k = 0; k < fm->nhops[f]; k++)
    res_add(fm, f, k, now);
  fm->last[f] = now;
  if (++fm->nactive > fm->max_active)
    fm->max_active = fm->nactive;
}

static void flow_finish(flowmodel *fm, int f, int64_t now)
{
  for (int k = 0; k < fm->nhops[f]; k++)
    res_remove(fm, f, k, now);
  fm->nactive--;
  fm->ver[f]++; /* no event of this flow may act any more */
  netmodel_deliver(&fm->base, &fm->fmsg[f], now);
  fm->free_ids[fm->nfree++] = f;
}

static void flow_handle(netmodel *m, const engine_event *ev)
{
  flowmodel *fm = (flowmodel *)m;
  int f = (int)ev->a;
  switch (ev->b & 3) {
  case FLOW_EV_ACTIVATE:
    flow_activate(fm, f, ev->time);
    break;
  case FLOW_EV_FINISH:
    if ((uint32_t)(ev->b >> 2) == fm->ver[f])
      flow_finish(fm, f, ev->time);
    break;
  default:
    fm->pending = FALSE;
    rerate(fm, ev->time);
    break;
  }
}

static void flow_link_stat(const netmodel *m, int link, netmodel_link_stat *out)
{
  const flowmodel *fm = (const flowmodel *)m;
  int r = fm->link_res[link];
  out->max_load = fm->maxn[r];
  out->avg_load = fm->area[r] / (double)MAX(m->eng->now, 1);
  out->saturated_ps = fm->sat_ps[r];
}

static int flow_stats(const netmodel *m, netmodel_stat *out, int max)
{
  const flowmodel *fm = (const flowmodel *)m;
  double horizon = (double)MAX(m->eng->now, 1);
  int maxn = 0, used = 0, satn = 0;
  double avg_max = 0, avg_sum = 0, sat_max = 0, sat_sum = 0;
  for (int r = 0; r < fm->nres; r++) {
    maxn = MAX(maxn, fm->maxn[r]);
    if (fm->maxn[r] > 0) {
      used++;
      avg_sum += fm->area[r] / horizon;
    }
    avg_max = MAX(avg_max, fm->area[r] / horizon);
    sat_max = MAX(sat_max, (double)fm->sat_ps[r]);
    sat_sum += (double)fm->sat_ps[r];
    satn += fm->sat_ps[r] > 0;
  }
  netmodel_stat s[] = {
    { "flows_max_per_link", maxn },
    { "flows_avg_per_link_max", avg_max },
    { "flows_avg_per_used_link", used ? avg_sum / used : 0 },
    { "saturated_ps_max", sat_max },
    { "saturated_ps_sum", sat_sum },
    { "saturated_links", satn },
    { "flows_max_concurrent", fm->max_active },
    { "rerates", (double)fm->rerates },
    { "flows_per_rerate", fm->rerates ? (double)fm->rerated_flows / (double)fm->rerates : 0 },
  };
  int n = MIN(max, (int)G_N_ELEMENTS(s));
  memcpy(out, s, sizeof(netmodel_stat) * (size_t)MAX(n, 0));
  return n;
}

const struct netmodel_ops netmodel_flow_ops = {
  .name = "flow",
  .summary = "flows with max-min fair link sharing (full duplex), incremental re-rating",
  .size = sizeof(flowmodel),
  .init = flow_init_fd,
  .fini = flow_fini,
  .start = flow_start,
  .handle = flow_handle,
  .stats = flow_stats,
  .link_stat = flow_link_stat,
  .load_unit = "flows",
};

const struct netmodel_ops netmodel_flow_hd_ops = {
  .name = "flow-hd",
  .summary = "flows with max-min fair sharing, half duplex: both directions share a cable",
  .size = sizeof(flowmodel),
  .init = flow_init_hd,
  .fini = flow_fini,
  .start = flow_start,
  .handle = flow_handle,
  .stats = flow_stats,
  .link_stat = flow_link_stat,
  .load_unit = "flows",
};
