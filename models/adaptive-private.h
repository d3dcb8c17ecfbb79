/* adaptive-private.h - the decision of adaptive routings (routing/route.h)
 * that the models which see load share: every candidate path of a
 * message walked once, and UGAL's choice among the ones a decision
 * compares. Not installed, not for other folders; the load is the model's
 * (flows routed over a link in flow.c, packets queued at it in packet.c).
 */
#pragma once

#include "models/model.h"

/* Room for one candidate's links in the arrays below. */
#define ADAPTIVE_STRIDE ROUTE_FAMILY_MAX_HOPS

/* Walks every candidate of msg's route: candidate c's links into
 * links[c ADAPTIVE_STRIDE ...], its length into hops[c] (room for
 * m->ncand each). */
void adaptive_walk(const netmodel *m, const netmodel_msg *msg, int *links, int *hops);

/* The load of link `link` as the model counts it. */
typedef double (*adaptive_load_fn)(const netmodel *m, int link);

/* The candidate a message takes now (see adaptive.c), from the
 * candidates adaptive_walk gave. */
int adaptive_choose(const netmodel *m, const int *links, const int *hops, adaptive_load_fn load);
