/* adaptive.c - how a model with adaptive routing picks a path: Universal
 * Globally-Adaptive Load-balanced routing as Kim, Dally, Scott and Abts
 * give it ("Technology-driven, highly-scalable dragonfly topology", ISCA
 * 2008, Section 4.2, UGAL-L): of the minimal path and the Valiant ones,
 * take the one whose load seen at the source, weighted by its hop count,
 * is smallest - minimal when q_min H_min <= q_val H_val, so an idle
 * network routes minimally. Kim et al. weigh the minimal path against one
 * random intermediate group; here it is weighed against the rank pair's
 * ROUTE_UGAL_VALIANT (4) intermediate groups and the least loaded of them
 * taken, which on the group shift of the flow model ends 33% below
 * Valiant's makespan where one random group ends 16% above it
 * (bench/README.md, "Adaptive routing on a dragonfly"). The load seen (route_seen_links) is the source
 * router's output port and the global channel the path leaves the group
 * by, whose state every router of the group knows (PiggyBack, Jiang, Kim
 * and Dally, "Indirect adaptive routing on large scale interconnection
 * networks", ISCA 2009, Section 4.3): with the output queue alone, UGAL-L
 * misses a congested global channel on another router of its group, the
 * flaw that paper measures. HyperX min-adaptive compares every rotation
 * of the dimension order by the same rule; all are minimal, so the least
 * loaded first hop wins. Ties go to the earlier candidate (minimal, then
 * dor's order), so decisions depend on the simulation state and the seed
 * only. `ugal:bias=B` adds B to every non-minimal candidate's cost
 * (BookSim's ugal threshold), `variant=local` makes the load seen the
 * source router's output port alone (df_seen_links), `candidates=N` the
 * number of Valiant candidates weighed. Per-packet Valiant
 * (ROUTE_FLAG_SPREAD) is no choice by load: the models draw it
 * (route_spread_pick). Cost: O(candidates x route length) per decision, no allocation.
 * Not for: the load itself (each model counts its own).
 */
#include <math.h>

#include "models/adaptive-private.h"

void adaptive_walk(const netmodel *m, const netmodel_msg *msg, int *links, int *hops)
{
  const router *r = m->p->router;
  for (int c = 0; c < m->ncand; c++) {
    route_iter it;
    int l, h = 0;
    route_begin_candidate(&it, r, msg->src, msg->dst, msg->route_key, c);
    while (route_next(&it, &l) && h < ADAPTIVE_STRIDE)
      links[c * ADAPTIVE_STRIDE + h++] = l;
    hops[c] = h;
  }
}

int adaptive_choose(const netmodel *m, const int *links, const int *hops, adaptive_load_fn load)
{
  const router *r = m->p->router;
  int best = 0;
  double best_cost = INFINITY;
  for (int c = 0; c < m->ncand; c++) {
    const int *lk = links + c * ADAPTIVE_STRIDE;
    int seen = route_seen_links(r, lk, hops[c]);
    double q = 0;
    for (int k = 1; k < seen; k++)
      q += load(m, lk[k]);
    double cost = q * hops[c] + (c > 0 ? r->ugal_bias : 0);
    if (cost < best_cost) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}
