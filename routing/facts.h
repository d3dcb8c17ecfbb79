/* facts.h - summary facts of a platform: size, diameter, average distance,
 * bisection. Used by `mapsim topo`.
 *
 * Distances are the hop counts of the routes the platform uses. Regular
 * topologies without route tables use closed forms (per-dimension sums, so
 * a 32x32x32 torus costs O(sum of sizes^2)); graph topologies and route
 * tables use all pairs. The bisection cuts a regular topology in half
 * across one dimension (coordinates < size/2 vs the rest) and reports the
 * dimension with the fewest links crossing; graph topologies report none.
 * Indirect networks count compute nodes (and their switches apart); their
 * distances are the minimal routes' (route_hops) between compute nodes,
 * in closed forms per family (dragonfly.c, fattree.c, hyperx.c), and their
 * cut is the family's natural one (`cut` names it): half of the groups of
 * a dragonfly, the lower half of the subtrees under the top digit of a fat
 * tree, the cheapest dimension halved of a HyperX.
 *
 * Ownership: plain values, nothing to free.
 */
#pragma once

#include "routing/platform.h"

G_BEGIN_DECLS

typedef struct platform_facts {
  int nodes;            /* compute nodes */
  int switches;         /* indirect networks */
  int links;            /* directed links */
  int diameter;
  double avg_distance;  /* over ordered pairs of distinct nodes */
  int bisection_dim;    /* -1 when not computed */
  int bisection_links;  /* directed links crossing the cut, both ways */
  double bisection_bw;  /* their bandwidth summed, bytes/s */
  char cut[48];         /* the cut: "across x", "groups 0-4 | 5-8" */
} platform_facts;

void platform_get_facts(const platform *p, platform_facts *f);

G_END_DECLS
