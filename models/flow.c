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
 * the same picosecond share it). It re-rates only the flows whose rate the
 * change can reach - the new flows, the flows the dirty links bottleneck,
 * and, transitively, the flows bottlenecked where a re-rated flow changed
 * rate (rerate(): bottleneck propagation inside one progressive filling,
 * the other flows keep their rates as reserved bandwidth); the result is
 * the max-min allocation of the whole network, the flows out of reach
 * simply keep theirs. When many flows start or end in one picosecond
 * (all-to-alls) it fills the whole connected components of the flow-link
 * graph at once instead. A flow whose rate did not change (within a
 * relative 1e-12) keeps its rate and completion time. Completions are one
 * binary heap inside the model, with one engine event at its first time
 * (a version stamp retires a pending event that became too late); flows
 * ending in the same picosecond end in the order their rates were set.
 * Remaining bytes are doubles updated as rem -= rate * dt when the rate
 * changes; completion times are rounded once to ps.
 * A lone flow ends at t + ps(latency) + ps(wire / bottleneck bw), which is
 * analytic's t + ps(latency + wire / bw) whenever the latency is a whole
 * number of picoseconds (all bundled platforms), else within 1 ps.
 *
 * SMPI's corrections of CM02 (platform_model: --preset smpi; SimGrid
 * 3.32's network_cm02.cpp and network_smpi.cpp): a flow of w wire bytes
 * pays its route latency times lat_factor(w); it drains w / bw_factor(w)
 * units of share (so it moves bw_factor(w) bytes per unit of rate, the
 * link still giving up the whole unit); its share is at most tcp_gamma /
 * (2 x its route latency before the factor) (a per-flow bound of the
 * filling: the flow freezes at it when the water reaches that level);
 * with cross traffic it also takes `crosstraffic` of its share on every
 * link of the route back (dst to src: its acknowledgements); weight_s
 * adds weight_s / bandwidth per link to the latency its weight is the
 * inverse of. With cross traffic or bounds every re-rating fills the
 * whole components it touches (the incremental rules below assume a flow
 * takes its whole rate on every capacity it crosses and no bound).
 *
 * Adaptive routings (routing/route.h): a flow's path is decided when it
 * starts, by the flows routed (started, not finished) over the links its
 * source sees (models/adaptive.c), and recorded.
 *
 * Variants (rows sharing one ops table, `flow`; registry rows in
 * models/registry.c):
 *  - `flow`: full duplex, each directed link is its own capacity;
 *  - `flow-hd`: half duplex, both directions of a cable share one capacity
 *    (the cable's two directed links must have the same bandwidth; the
 *    smaller is used).
 * Per-link counters: link_busy_ps gets wire / bw per message and link (the
 * time the link needs to carry those bytes at full rate, the same as
 * analytic and packet), so post-simulation metrics do not depend on the
 * model; timelines get each flow's bytes between two of its rate changes
 * on each of its links (netmodel_route_use). Model statistics (per
 * capacity: a link, or a cable in flow-hd): maximum and time-averaged
 * number of flows, and the time it was saturated (all its capacity
 * allocated).
 *
 * Cost: O(reached flows x hops x log links + reached links x flows per
 * link) per re-rating, reached = the flows re-rated and the links they
 * cross (an indexed heap of link shares; links whose flows all froze
 * elsewhere leave it in place), plus O(log flows) per changed completion
 * time; a scattered 512-rank stencil re-rates ~18 of ~1,350 flows in
 * flight per event (bench/README.md). All arrays are flat and grow
 * geometrically, nothing is allocated per event in steady state. Not for: packet-level effects (pipelining, queueing delay:
 * packet.c), MPI semantics (sim/replay.c).
 */
#include <math.h>
#include <string.h>

#include "models/adaptive-private.h"
#include "models/flow-private.h"

/* ---- setup ---------------------------------------------------------- */

static void flow_map_resources(flowmodel *fm)
{
  netmodel *m = &fm->base;
  const topo *t = m->p->topo;
  fm->link_res = g_new(int, MAX(m->nlinks, 1));
  int *res_of_link = g_new(int, MAX(m->nlinks, 1));
  fm->nres = 0;
  for (int l = 0; l < m->nlinks; l++) {
    int r = fm->half_duplex ? topo_reverse_link(t, l) : -1;
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
  /* half duplex: the route back crosses the same cables, which SimGrid's
   * SHARED links would load by 1.05; not modelled (flow.c's header) */
  fm->cross = half_duplex ? 0 : m->p->model.crosstraffic;
  fm->exact = fm->cross > 0 || m->p->model.tcp_gamma > 0;
  flow_map_resources(fm);
  size_t n = (size_t)MAX(fm->nres, 1);
  fm->rl = g_new0(flist, n);
  fm->rmark = g_new0(uint32_t, n);
  fm->cmark = g_new0(uint32_t, n);
  fm->lheap = g_new(fheap_item, n);
  fm->lpos = g_new(int, n);
  for (size_t i = 0; i < n; i++)
    fm->lpos[i] = -1;
  fm->kmax = g_new0(double, n);
  fm->nbott = g_new0(int, n);
  fm->used = g_new0(double, n);
  fm->lmax = g_new0(double, n);
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
  fm->next_t = -1;
  if (m->taken) {
    fm->cand_links = g_new(int, (size_t)m->ncand * ADAPTIVE_STRIDE);
    fm->cand_hops = g_new(int, (size_t)m->ncand);
    fm->routed = g_new0(int, n);
  }
  return TRUE;
}

/* The variant (netmodel_ops.variant): half duplex or not. */
static gboolean flow_init(netmodel *m, GError **error)
{
  return flow_setup(m, m->ops->variant != 0);
}

static void flow_fini(netmodel *m)
{
  flowmodel *fm = (flowmodel *)m;
  for (int r = 0; r < fm->nres; r++)
    g_free(fm->rl[r].e);
  void *arrays[] = { fm->link_res, fm->res_bw, fm->rl, fm->free_ids, fm->fmsg, fm->rem,
                     fm->rate, fm->new_rate, fm->weight, fm->last, fm->cpos, fm->cheap, fm->fmark,
                     fm->frozen, fm->nhops, fm->hop_res, fm->hop_pos, fm->route, fm->rmark,
                     fm->cmark, fm->bneck, fm->new_bneck, fm->fresh, fm->lheap, fm->lpos, fm->dec, fm->kmax, fm->nbott, fm->used, fm->lmax,
                     fm->rcap, fm->rw, fm->rn, fm->comp_res, fm->comp_flow, fm->heap, fm->maxn, fm->dirty, fm->dirty_mark,
                     fm->area, fm->tlast, fm->sat_ps, fm->sat, fm->cand_links,
                     fm->cand_hops, fm->routed, fm->fpath, fm->scale, fm->bound, fm->nfwd };
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
  fm->fpath = g_renew(int, fm->fpath, n);
  fm->rem = g_renew(double, fm->rem, n);
  fm->rate = g_renew(double, fm->rate, n);
  fm->new_rate = g_renew(double, fm->new_rate, n);
  fm->weight = g_renew(double, fm->weight, n);
  fm->scale = g_renew(double, fm->scale, n);
  fm->bound = g_renew(double, fm->bound, n);
  fm->nfwd = g_renew(int, fm->nfwd, n);
  fm->last = g_renew(int64_t, fm->last, n);
  fm->cpos = g_renew(int, fm->cpos, n);
  fm->cheap = g_renew(centry, fm->cheap, n);
  fm->fmark = g_renew(uint32_t, fm->fmark, n);
  fm->frozen = g_renew(uint32_t, fm->frozen, n);
  fm->nhops = g_renew(int, fm->nhops, n);
  fm->comp_flow = g_renew(int, fm->comp_flow, n);
  fm->bneck = g_renew(int, fm->bneck, n);
  fm->new_bneck = g_renew(int, fm->new_bneck, n);
  fm->fresh = g_renew(int, fm->fresh, n);
  fm->dec = g_renew(int, fm->dec, n);
  fm->free_ids = g_renew(int, fm->free_ids, n);
  fm->hop_res = g_renew(int, fm->hop_res, n * (size_t)fm->stride);
  fm->hop_pos = g_renew(int, fm->hop_pos, n * (size_t)fm->stride);
  for (int i = old; i < cap; i++) {
    fm->fmark[i] = fm->frozen[i] = 0;
    fm->cpos[i] = -1;
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

/* What flow f takes of its rate on its hop k: all of it forward, the
 * cross-traffic share on the route back. */
static inline double hop_coef(const flowmodel *fm, int f, int k)
{
  return k < fm->nfwd[f] ? 1.0 : fm->cross;
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

/* Capacity r is saturated from `now` on iff it carries flows and at most
 * a relative 1e-9 of it is `spare` (rounding residue). */
static void res_saturation(flowmodel *fm, int r, double spare, int64_t now)
{
  res_touch(fm, r, now);
  fm->sat[r] = fm->rl[r].n > 0 && spare <= 1e-9 * fm->res_bw[r];
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
  fm->used[r] -= fm->rate[f] * hop_coef(fm, f, k);
  if (l->n == 1)
    fm->used[r] = fm->lmax[r] = 0; /* no rounding residue on idle capacities */
  fentry moved = l->e[--l->n];
  l->e[pos] = moved;
  fm->hop_pos[(size_t)moved.flow * fm->stride + moved.hop] = pos;
}

/* ---- incremental max-min re-rating ----------------------------------- */

/* Relative tolerances: a re-rated flow whose new rate is within RATE_TOL
 * of its old one keeps the old rate (and its completion event), so that
 * the rounding of a recomputation is no change; a kept flow breaks
 * fairness on a capacity only when its level (rate / weight) exceeds the
 * capacity's fair share by more than LEVEL_TOL. */
#define RATE_TOL 1e-12
#define LEVEL_TOL 1e-12

/* Starts the workspace of capacity r for this re-rating: the bandwidth
 * the flows being re-rated may share (the kept flows' rates taken off).
 * Called before the first flow of the set that crosses r joins: all flows
 * on r are kept so far. */
static void region_add(flowmodel *fm, int r)
{
  fm->rmark[r] = fm->epoch;
  fm->comp_res[fm->ncr++] = r;
  fm->rcap[r] = fm->res_bw[r] - fm->used[r];
  fm->rw[r] = 0;
  fm->rn[r] = 0;
  fm->kmax[r] = fm->lmax[r];
}

/* Flow g (kept so far, or new with rate 0) joins the flows being re-rated,
 * unfrozen at the current water level: its rate goes back to its
 * capacities' shares. A kept flow that is still unfrozen when the water
 * passes its old level will get more than before: a trigger at that level
 * (with the tolerance) tells the filling so (rule 1 of rerate()). */
static void set_join(flowmodel *fm, int g)
{
  const int *gh = hops_of(fm, g);
  int h = fm->nhops[g];
  double w = fm->weight[g], rate = fm->rate[g];
  for (int k = 0; k < h; k++)
    if (fm->rmark[gh[k]] != fm->epoch)
      region_add(fm, gh[k]);
  fm->fmark[g] = fm->epoch;
  fm->comp_flow[fm->ncf++] = g;
  for (int k = 0; k < h; k++) {
    int q = gh[k];
    double c = hop_coef(fm, g, k);
    fm->rcap[q] += rate * c;
    fm->rw[q] += w * c;
    fm->rn[q]++;
  }
  for (int k = 0; k < h; k++) {
    int q = gh[k];
    double share = fm->rcap[q] / fm->rw[q];
    if (fm->lpos[q] < 0 || share < fm->lheap[fm->lpos[q]].key)
      lheap_set(fm, q, share);
  }
  /* the trigger only matters if g's capacities bottleneck other flows
   * not yet joined */
  gboolean others = FALSE;
  for (int k = 0; k < h && !others; k++)
    others = fm->cmark[gh[k]] != fm->epoch && fm->nbott[gh[k]] > (fm->bneck[g] == gh[k]);
  if (rate > 0 && others)
    theap_push(fm, rate / w * (1 + RATE_TOL), g);
}

/* The kept flows whose bottleneck is capacity r join (once per
 * re-rating and capacity). */
static void join_bottlenecked(flowmodel *fm, int r)
{
  if (fm->cmark[r] == fm->epoch)
    return;
  fm->cmark[r] = fm->epoch;
  if (fm->nbott[r] == 0)
    return;
  const flist *l = &fm->rl[r];
  for (int j = 0; j < l->n; j++) {
    int g = l->e[j].flow;
    if (fm->fmark[g] != fm->epoch && fm->bneck[g] == r)
      set_join(fm, g);
  }
}

/* Flow f's rate changes: every capacity it crosses may bottleneck others
 * differently. */
static void join_neighbours(flowmodel *fm, int f)
{
  const int *fh = hops_of(fm, f);
  for (int k = 0; k < fm->nhops[f]; k++)
    join_bottlenecked(fm, fh[k]);
}

/* Restarts the filling with every flow of the connected components of the
 * flow-link graph around the dirty capacities (breadth-first over
 * capacities and flows): nothing is kept, so no rule can add anything. For
 * batches of flows that start together (all-to-alls), where the set would
 * grow to most flows anyway and growing it costs more than filling it. */
static void set_components(flowmodel *fm)
{
  uint32_t ep = ++fm->epoch;
  for (int i = 0; i < fm->lhn; i++)
    fm->lpos[fm->lheap[i].id] = -1;
  fm->lhn = fm->hn = fm->ncf = fm->ncr = 0;
  for (int i = 0; i < fm->ndirty; i++) {
    fm->rmark[fm->dirty[i]] = ep;
    fm->comp_res[fm->ncr++] = fm->dirty[i];
  }
  for (int i = 0; i < fm->ncr; i++) {
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
      fm->comp_flow[fm->ncf++] = g;
      const int *gh = hops_of(fm, g);
      for (int k = 0; k < fm->nhops[g]; k++)
        if (fm->rmark[gh[k]] != ep) {
          fm->rmark[gh[k]] = ep;
          fm->comp_res[fm->ncr++] = gh[k];
        }
    }
  }
  for (int i = 0; i < fm->ncr; i++) {
    int r = fm->comp_res[i];
    const flist *l = &fm->rl[r];
    double w = 0;
    for (int j = 0; j < l->n; j++)
      w += fm->weight[l->e[j].flow] * hop_coef(fm, l->e[j].flow, l->e[j].hop);
    fm->rcap[r] = fm->res_bw[r];
    fm->rw[r] = w;
    fm->rn[r] = l->n;
    fm->kmax[r] = 0;
    fm->cmark[r] = ep;
    if (l->n > 0)
      lheap_set(fm, r, fm->rcap[r] / w);
  }
  /* TCP-gamma bounds: a flow freezes at its bound when the water reaches
   * its level there (rerate()) */
  for (int i = 0; i < fm->ncf; i++) {
    int g = fm->comp_flow[i];
    if (fm->bound[g] < INFINITY)
      theap_push(fm, fm->bound[g] / fm->weight[g], g);
  }
}

/* Takes frozen flow f (weight w, share s per unit weight) out of the
 * filling: its capacities lose its rate and its weight, and a capacity
 * left without unfrozen flows leaves the heap. */
static inline void withdraw_frozen(flowmodel *fm, int f, double s, double w)
{
  const int *fh = hops_of(fm, f);
  for (int k = 0; k < fm->nhops[f]; k++) {
    int q = fh[k];
    double c = hop_coef(fm, f, k);
    fm->rcap[q] -= s * w * c;
    fm->rw[q] -= w * c;
    if (--fm->rn[q] == 0)
      lheap_remove(fm, q);
  }
}

/* Freezes flow f at its TCP-gamma bound (below every share the filling
 * still has: its capacities' shares only rise). Its bottleneck for the
 * bookkeeping is its first capacity. */
static void freeze_at_bound(flowmodel *fm, int f, uint32_t ep)
{
  fm->frozen[f] = ep;
  double w = fm->weight[f], s = fm->bound[f] / w;
  const int *fh = hops_of(fm, f);
  fm->new_rate[f] = fm->bound[f];
  fm->new_bneck[f] = fh[0];
  withdraw_frozen(fm, f, s, w);
}

/* Re-rates at time `now` after flows started or ended on the dirty
 * capacities, and reschedules the completion of every flow whose rate
 * changed: exact max-min fairness computed on the part of the flow-link
 * graph a change can reach, by progressive filling (water-filling: the
 * capacity with the smallest fair share fixes the rate of its unfrozen
 * flows, repeat) over a set of flows that grows while the water rises.
 *
 * A flow's allocation is max-min fair iff one of its capacities is
 * saturated and no flow there has a higher level (rate / weight): its
 * bottleneck (Bertsekas and Gallager, Data Networks, 2nd ed., Section
 * 6.5, max-min flow control). The others keep their rates; they take bandwidth off the shares
 * of the flows being re-rated. The set starts with the new flows and the
 * flows the dirty capacities bottlenecked, and a kept flow joins it when
 * its bottleneck may move: (1) a flow on its bottleneck changes rate -
 * frozen below its old level, or still unfrozen when the water passes its
 * old level (a heap trigger) - or (2) the water fixes a capacity it crosses
 * at a share below its level. Either happens at a water level no higher
 * than the joining flow's level, which is what a filling of the whole
 * component would have given it too, so the result is the same as that
 * filling's; only the flows in reach are touched. This is the bottleneck
 * structure's region of influence (Ros-Giralt et al., "On the Bottleneck
 * Structure of Congestion-Controlled Networks", SIGMETRICS 2020: a link
 * influences the flows it bottlenecks and, through their other links, the
 * links and flows above them), found lazily from the rates that do
 * change; SimGrid's lazy maxmin re-solves whole modified components.
 *
 * Heap of shares: freezing flows at the current minimum share s only
 * raises the share of the other capacities they cross ((c - s) / (n - 1)
 * >= c / n when c / n >= s), so such keys stay lower bounds, re-keyed only
 * when they reach the top above the next key, and a capacity whose flows
 * all froze leaves the heap; a join may lower a share (never below the
 * water level), so it re-keys the joining flow's capacities at once. */
static void rerate(flowmodel *fm, int64_t now)
{
  uint32_t ep = ++fm->epoch;
  gboolean whole = fm->exact || 4 * fm->nfresh > fm->nactive || 8 * fm->ndirty > fm->nres;
  fm->ncf = fm->ncr = fm->hn = 0; /* (the capacity heap empties itself) */
  if (whole) {
    fm->rerates_whole++;
    set_components(fm);
    ep = fm->epoch;
  } else {
    for (int i = 0; i < fm->nfresh; i++)
      set_join(fm, fm->fresh[i]);
    for (int i = 0; i < fm->ndirty; i++)
      join_bottlenecked(fm, fm->dirty[i]);
  }
  fm->nfresh = 0;
  while (fm->lhn) {
    if (!whole && 4 * fm->ncf > fm->nactive) {
      fm->rerates_whole++;
      set_components(fm);
      ep = fm->epoch;
      whole = TRUE;
      continue;
    }
    if (fm->hn && fm->heap[0].key <= fm->lheap[0].key) {
      int f = theap_pop(fm);
      if (fm->exact) {
        if (fm->frozen[f] != ep && fm->fmark[f] == ep)
          freeze_at_bound(fm, f, ep);
      } else if (fm->frozen[f] != ep) {
        join_neighbours(fm, f); /* rule 1: f will get more */
      }
      continue;
    }
    /* the key is a lower bound: the share is the minimum if it is not
     * above the next key */
    int r = fm->lheap[0].id;
    double s = fm->rcap[r] / fm->rw[r];
    if (s > fm->lheap[0].key &&
        ((fm->lhn > 1 && s > fm->lheap[1].key) || (fm->lhn > 2 && s > fm->lheap[2].key) ||
         (fm->hn && s > fm->heap[0].key))) {
      lheap_down(fm, 0, (fheap_item){ s, r });
      continue;
    }
    lheap_remove(fm, r);
    s = MAX(0.0, s); /* kept flows may leave a rounding residue below zero */
    const flist *l = &fm->rl[r];
    if (fm->kmax[r] > s * (1 + LEVEL_TOL)) {
      int joined = fm->ncf;
      double kmax = 0;
      for (int j = 0; j < l->n; j++) {
        int g = l->e[j].flow;
        if (fm->fmark[g] == ep)
          continue;
        if (fm->rate[g] > s * fm->weight[g] * (1 + LEVEL_TOL))
          set_join(fm, g); /* rule 2: r caps g below its level */
        else
          kmax = MAX(kmax, fm->rate[g] / fm->weight[g]);
      }
      fm->kmax[r] = kmax;
      if (fm->ncf > joined)
        continue; /* r was re-keyed */
    }
    int ndec = 0;
    for (int j = 0; j < l->n; j++) {
      int g = l->e[j].flow;
      if (j + 8 < l->n) {
        __builtin_prefetch(&fm->frozen[l->e[j + 8].flow]);
        __builtin_prefetch(hops_of(fm, l->e[j + 8].flow));
      }
      if (fm->fmark[g] != ep || fm->frozen[g] == ep)
        continue;
      fm->frozen[g] = ep;
      double w = fm->weight[g];
      fm->new_rate[g] = s * w;
      fm->new_bneck[g] = r;
      if (fm->new_rate[g] < fm->rate[g] * (1 - RATE_TOL))
        fm->dec[ndec++] = g;
      withdraw_frozen(fm, g, s, w);
    }
    for (int i = 0; i < ndec; i++)
      join_neighbours(fm, fm->dec[i]); /* rule 1: these got less */
  }
  /* statistics: the capacities filled (their spare bandwidth is what the
   * filling left) and the dirty ones outside it (flows ended there) */
  for (int i = 0; i < fm->ncr; i++) {
    int r = fm->comp_res[i];
    res_saturation(fm, r, fm->rcap[r], now);
  }
  for (int i = 0; i < fm->ndirty; i++) {
    int r = fm->dirty[i];
    if (fm->rmark[r] != ep)
      res_saturation(fm, r, fm->res_bw[r] - fm->used[r], now);
  }
  fm->ndirty = 0;
  fm->dirty_epoch++;
  for (int i = 0; i < fm->ncf; i++) {
    int g = fm->comp_flow[i];
    if (fm->bneck[g] != fm->new_bneck[g]) {
      if (fm->bneck[g] >= 0)
        fm->nbott[fm->bneck[g]]--;
      fm->nbott[fm->new_bneck[g]]++;
      fm->bneck[g] = fm->new_bneck[g];
    }
    if (fabs(fm->new_rate[g] - fm->rate[g]) <= RATE_TOL * fm->rate[g])
      continue;
    double left = MAX(0.0, fm->rem[g] - fm->rate[g] * (double)(now - fm->last[g]) * 1e-12);
    netmodel_route_use(&fm->base, &fm->fmsg[g], fm->fpath[g], fm->last[g], now,
                       (fm->rem[g] - left) * fm->scale[g]);
    fm->rem[g] = left;
    fm->last[g] = now;
    const int *gh = hops_of(fm, g);
    double lev = fm->new_rate[g] / fm->weight[g];
    for (int k = 0; k < fm->nhops[g]; k++) {
      fm->used[gh[k]] += (fm->new_rate[g] - fm->rate[g]) * hop_coef(fm, g, k);
      fm->lmax[gh[k]] = MAX(fm->lmax[gh[k]], lev);
    }
    fm->rate[g] = fm->new_rate[g];
    completion_set(fm, g, saturating_add_i64(now, engine_ps(fm->rem[g] / fm->rate[g])));
  }
  completion_schedule(fm);
  fm->rerates++;
  fm->rerated_flows += (uint64_t)fm->ncf;
}

/* ---- the model hooks ------------------------------------------------ */

static double flow_load(const netmodel *m, int link)
{
  const flowmodel *fm = (const flowmodel *)m;
  return fm->routed[fm->link_res[link]];
}

/* An adaptive routing's path for msg, by the flows routed where its
 * source looks (recorded); returns its links, their count in *n. */
static const int *flow_choose(flowmodel *fm, const netmodel_msg *msg, int *n)
{
  netmodel *m = &fm->base;
  adaptive_walk(m, msg, fm->cand_links, fm->cand_hops);
  netmodel_taken *u = netmodel_route_entry(m, msg);
  int c = (m->p->router->flags & ROUTE_FLAG_SPREAD)
              ? (int)route_spread_pick(m->p->router, msg->route_key, u->messages++, 0, m->ncand)
              : adaptive_choose(m, fm->cand_links, fm->cand_hops, flow_load);
  netmodel_record_route(m, u, msg, c, msg->bytes);
  fm->chosen = c;
  *n = fm->cand_hops[c];
  return fm->cand_links + c * ADAPTIVE_STRIDE;
}

/* Walks msg's route into fm->route (counting links and busy time);
 * returns the hop count and the latency sum in *lat. */
static int flow_route(flowmodel *fm, const netmodel_msg *msg, double wire, double *lat,
                      double *inv_bw)
{
  netmodel *m = &fm->base;
  const platform *p = m->p;
  route_iter it;
  int link, h = 0, nchosen = 0;
  double l = 0, ib = 0;
  const int *chosen = m->taken ? flow_choose(fm, msg, &nchosen) : NULL;
  if (!chosen)
    route_begin(&it, p->router, msg->src, msg->dst, msg->route_key);
  while (chosen ? h < nchosen && (link = chosen[h], TRUE) : route_next(&it, &link)) {
    netmodel_count_link(m, msg, link);
    netmodel_add(m, &m->link_busy_ps[link], engine_ps(wire / p->link_bw[link]));
    l += p->link_lat[link] + p->model.router_delay;
    ib += 1.0 / p->link_bw[link];
    if (h == fm->route_cap) {
      fm->route_cap *= 2;
      fm->route = g_renew(int, fm->route, fm->route_cap);
    }
    fm->route[h++] = fm->link_res[link];
  }
  netmodel_count_hops(m, msg, h);
  *lat = l;
  *inv_bw = ib;
  return h;
}

/* Appends the capacities of the route back (msg's destination to its
 * source, the routing's own path) to fm->route after its first h
 * entries; returns the new length. Not counted: no bytes cross them. */
static int flow_route_back(flowmodel *fm, const netmodel_msg *msg, int h)
{
  route_iter it;
  int link;
  route_begin(&it, fm->base.p->router, msg->dst, msg->src, msg->route_key);
  while (route_next(&it, &link)) {
    if (h == fm->route_cap) {
      fm->route_cap *= 2;
      fm->route = g_renew(int, fm->route, fm->route_cap);
    }
    fm->route[h++] = fm->link_res[link];
  }
  return h;
}

static void flow_start(netmodel *m, const netmodel_msg *msg)
{
  flowmodel *fm = (flowmodel *)m;
  const platform_model *pm = &m->p->model;
  int64_t wb = netmodel_wire_bytes(m->p, msg->bytes);
  double wire = (double)wb, lat, inv_bw;
  int h = flow_route(fm, msg, wire, &lat, &inv_bw);
  int64_t t0 = saturating_add_i64(msg->t, engine_ps(lat * platform_factor(&pm->lat_factor, wb)));
  if (wire <= 0 || h == 0) {
    netmodel_deliver(m, msg, t0);
    return;
  }
  int nfwd = h;
  if (fm->cross > 0)
    h = flow_route_back(fm, msg, h);
  if (fm->nfree == 0)
    flow_grow(fm);
  if (h > fm->stride)
    flow_widen(fm, h);
  int f = fm->free_ids[--fm->nfree];
  fm->fmsg[f] = *msg;
  fm->fpath[f] = m->taken ? fm->chosen : 0;
  fm->scale[f] = platform_factor(&pm->bw_factor, wb);
  fm->rem[f] = wire / fm->scale[f];
  fm->rate[f] = 0;
  /* CM02's sharing penalty: the route latency (before the factor), plus
   * weight-S per byte/s of every link */
  double penalty = lat + pm->weight_s * inv_bw;
  fm->weight[f] = pm->sharing == PLATFORM_SHARING_LATENCY ? 1.0 / (penalty > 0 ? penalty : 1.0)
                                                          : 1.0;
  fm->bound[f] = pm->tcp_gamma > 0 && lat > 0 ? pm->tcp_gamma / (2 * lat) : INFINITY;
  fm->nfwd[f] = nfwd;
  fm->nhops[f] = h;
  memcpy(hops_of(fm, f), fm->route, sizeof(int) * (size_t)h);
  for (int k = 0; fm->routed && k < nfwd; k++)
    fm->routed[fm->route[k]]++;
  engine_schedule(m->eng, t0, m->own_kind, (uint32_t)f, FLOW_EV_ACTIVATE);
}

static void flow_activate(flowmodel *fm, int f, int64_t now)
{
  for (int k = 0; k < fm->nhops[f]; k++)
    res_add(fm, f, k, now);
  fm->last[f] = now;
  fm->bneck[f] = -1;
  fm->fresh[fm->nfresh++] = f;
  if (++fm->nactive > fm->max_active)
    fm->max_active = fm->nactive;
}

static void flow_finish(flowmodel *fm, int f, int64_t now)
{
  for (int k = 0; k < fm->nhops[f]; k++) {
    res_remove(fm, f, k, now);
    if (fm->routed && k < fm->nfwd[f])
      fm->routed[hops_of(fm, f)[k]]--;
  }
  fm->nactive--;
  if (fm->bneck[f] >= 0)
    fm->nbott[fm->bneck[f]]--;
  netmodel_route_use(&fm->base, &fm->fmsg[f], fm->fpath[f], fm->last[f], now,
                     fm->rem[f] * fm->scale[f]);
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
    if ((uint32_t)(ev->b >> 2) != fm->next_ver)
      break; /* retired: an earlier completion came up */
    fm->next_t = -1;
    while (fm->cn > 0 && fm->cheap[0].t <= ev->time)
      flow_finish(fm, completion_pop(fm), ev->time);
    completion_schedule(fm);
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
    { "rerates_whole", (double)fm->rerates_whole },
  };
  int n = MIN(max, (int)G_N_ELEMENTS(s));
  memcpy(out, s, sizeof(netmodel_stat) * (size_t)MAX(n, 0));
  return n;
}

static const netmodel_impl flow = {
  .caps = NETMODEL_CAP_ADAPTIVE,
  .size = sizeof(flowmodel),
  .init = flow_init,
  .fini = flow_fini,
  .start = flow_start,
  .handle = flow_handle,
  .stats = flow_stats,
  .link_stat = flow_link_stat,
  .load_unit = "flows",
};

const struct netmodel_ops netmodel_flow_ops = {
  "flow", "flows with max-min fair link sharing (full duplex), incremental re-rating", &flow,
  FALSE,
};

const struct netmodel_ops netmodel_flow_hd_ops = {
  "flow-hd", "flows with max-min fair sharing, half duplex: both directions share a cable", &flow,
  TRUE,
};
