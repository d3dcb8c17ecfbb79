/* commgraph-private.h - what traces/commgraph.c shows its tests besides
 * the public commgraph.h: the message count of a graph (the readers' tests
 * check it against the trace's). Not for users of traces/.
 */
#pragma once

#include "traces/commgraph.h"

G_BEGIN_DECLS

/* The messages summed over all edges. */
int64_t commgraph_total_msgs(const commgraph *g);

G_END_DECLS
