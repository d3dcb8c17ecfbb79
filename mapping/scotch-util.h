/* scotch-util.h - private helpers shared by the Scotch-based code of
 * mapping/ (partition.c, mapping/strategies/scotch.c) and the benchmarks: a Scotch source
 * graph built from a commgraph, and the capacity repair of a partition.
 *
 * A scotch_graph owns the arrays Scotch borrows; free it with
 * scotch_graph_free() (safe on a zeroed struct). Not a public module
 * header: only mapping/ and bench/ include it.
 */
#pragma once

#include <stdio.h>
#include <scotch.h>

#include "traces/commgraph.h"

G_BEGIN_DECLS

/* The largest sum of edge weights handed to Scotch: every cost Scotch forms
 * (weight x distance, summed) then stays far below 2^31. */
#define SCOTCH_UTIL_WEIGHT_LIMIT (1 << 22)

typedef struct scotch_graph {
  gboolean init;
  SCOTCH_Graph graph;
  /* scotch_graph_context(): a private, seeded, deterministic single-thread
   * Scotch context and the graph bound to it; `use` is what to pass to
   * Scotch (the bound graph, or &graph before binding) */
  gboolean ctx_init, bound_init;
  SCOTCH_Context ctx;
  SCOTCH_Graph bound;
  SCOTCH_Graph *use;
  int n;
  SCOTCH_Num *verttab;  /* n + 1 */
  SCOTCH_Num *edgetab;  /* arcs, both directions */
  SCOTCH_Num *edlotab;  /* arc weights */
} scotch_graph;

/* Builds the symmetrized, self-edge free graph of g: weight of {i, j} =
 * bytes(i, j) + bytes(j, i) (an edge with 0 bytes counts 1), divided by a
 * common factor when the total exceeds SCOTCH_UTIL_WEIGHT_LIMIT (each arc
 * keeps at least 1). Fails (STRATEGY_ERROR_FAILED) if Scotch rejects it. */
gboolean scotch_graph_build(scotch_graph *sg, const commgraph *g, GError **error);
void scotch_graph_free(scotch_graph *sg);

/* Binds the graph to its own Scotch context: random seed `seed`, the
 * deterministic option and one thread, so that a seed gives one result
 * whatever the timing (Debian's Scotch is threaded; the global random
 * state alone does not make SCOTCH_graphMap reproducible). */
gboolean scotch_graph_context(scotch_graph *sg, guint32 seed, GError **error);

/* Writes the graph in Scotch's .grf format (for scotch_gmap and gmtst). */
gboolean scotch_graph_save(const scotch_graph *sg, const char *path, GError **error);

/* Moves tasks from parts holding more than `cap` tasks to parts with room,
 * least lost traffic first; needs g->n <= nparts * cap. (partition.c) */
void partition_repair(const commgraph *g, int nparts, int cap, int *part);

G_END_DECLS
