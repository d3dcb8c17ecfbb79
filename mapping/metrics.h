/* metrics.h - static metrics of a mapping, computed along the routes the
 * platform really uses.
 *
 * Definitions (deveci2015 Section II; deveci-geometric Section 3;
 * korndoerfer2021 Section 7.1). nodes_used and ranks_per_node describe the
 * placement itself (the fill rule of routing/platform.h). Sums run over the directed edges (i, j),
 * i != j, of the communication graph; ranks on the same node use no link.
 *  - total_hops (TH): sum of hops(node(i), node(j)), unweighted;
 *    avg_hops = TH / edges (deveci-geometric's AverageHops);
 *    max_dilation = the longest route of any edge.
 *  - hop_bytes (WH): sum of bytes(i, j) * hops - the paper's "dilation" D of
 *    korndoerfer2021 and Scotch's CommExpan;
 *    message_hops: sum of messages(i, j) * hops (when counts are known).
 *  - per link e: messages(e) = edges routed through e (Congestion(e) of
 *    deveci2015), bytes(e) = their bytes, time(e) = bytes(e) / bw(e);
 *    max_link_edges (MMC), max_link_bytes (Data(M)), max_link_time (MC,
 *    Latency(M)); over the links used: avg_link_edges (AMC = TH / used),
 *    avg_link_time (AC), links_used.
 *  - hop_time: sum over links of bytes(e) / bw(e) - hop-bytes weighted by
 *    link speed (a hop over a slow link costs more), seconds.
 *  - traffic_energy_j: sum over links of bytes(e) x the joules a byte
 *    costs above idle on e's link type (routing/energy.h) - hop-bytes per
 *    link class weighted by its energy; only on platforms whose links draw
 *    power (FIELD_VIEW_ENERGY). The static view has no time, so no idle
 *    power: the replay's energy_j adds it.
 *
 * Per link class (topo_class_name: dimension and direction on a regular
 * topology; node up/down, local, global, fat-tree levels up and down,
 * HyperX dimensions on indirect networks): metrics_by_dimension sums
 * links, bytes and the busiest link; the static view also counts route
 * lengths per class (class_edges, class_bytes: how many links of each
 * class a route crosses) and, on a dragonfly, the bytes between groups.
 *
 * Sums saturate at INT64_MAX and set `overflow` (metrics_check reports it).
 * Cost: O(sum of route lengths); nothing is allocated per edge.
 * Ownership: metrics_compute() returns a struct the caller frees with
 * metrics_free(); it owns the per-link arrays. Not for: simulated time.
 */
#pragma once

#include "mapping/mapping.h"
#include "util/field.h"
#include "traces/commgraph.h"

G_BEGIN_DECLS

typedef struct metrics {
  int tasks;
  int nodes_used;            /* nodes holding at least one task */
  int ranks_per_node;        /* the most tasks on one node */
  int edges;                 /* directed edges i != j */
  int64_t total_hops;
  double avg_hops;
  int max_dilation;
  int64_t hop_bytes;
  int64_t message_hops;      /* 0 when messages are unknown */
  gboolean has_messages;
  int64_t max_link_messages; /* most edges (static) or messages (simulated) on one link */
  int64_t max_link_bytes;
  double max_link_time;      /* seconds */
  double avg_link_messages;  /* edges or messages per used link */
  double avg_link_time;      /* seconds */
  double hop_time;           /* sum over links of bytes / bandwidth, seconds */
  double traffic_energy_j;   /* sum over links of bytes x joules per byte above idle */
  gboolean has_energy;       /* the platform's links draw power */
  int links_used;
  gboolean simulated;        /* counted on simulated links (link counts are messages) */
  gboolean has_bounds;       /* the four fields below are set (metrics_set_bounds) */
  int64_t hop_bytes_bound;   /* no mapping has fewer hop_bytes */
  double gap_hop_bytes;      /* (hop_bytes - hop_bytes_bound) / hop_bytes */
  int64_t max_link_bytes_bound;
  double gap_max_link;       /* (max_link_bytes - max_link_bytes_bound) / max_link_bytes */
  gboolean overflow;         /* a sum passed 2^63 - 1 (it saturated): not a result */
  int nlinks;
  int64_t *link_messages;    /* nlinks */
  int64_t *link_bytes;       /* nlinks */
  /* static view: routes by the links of each class they cross, k = 0 ..
   * METRICS_CLASS_HOPS (the last bucket: that many or more); NULL in the
   * simulated view */
  int nclasses;
  int64_t *class_edges;      /* nclasses x (METRICS_CLASS_HOPS + 1): graph edges */
  int64_t *class_bytes;      /* the same, their bytes */
  int64_t inter_group_bytes; /* dragonfly: bytes between nodes of different groups; else 0 */
} metrics;

#define METRICS_CLASS_HOPS 4

/* The metrics, in output order (metrics.c). message_hops is meaningful
 * only when has_messages. The per-link count is graph edges in the static
 * view (max_link_edges, avg_link_edges: deveci2015's congestion) and
 * messages in the simulated one (max_link_messages, avg_link_messages). */
extern const field metrics_fields[];
extern const int metrics_nfields;

/* The view of a metrics struct: FIELD_VIEW_SIMULATED for post metrics,
 * with FIELD_VIEW_BOUNDS when the bounds and gaps are set. */
static inline unsigned metrics_view(const metrics *m)
{
  return (m->simulated ? FIELD_VIEW_SIMULATED : FIELD_VIEW_STATIC) |
         (m->has_bounds ? FIELD_VIEW_BOUNDS : 0u) | (m->has_energy ? FIELD_VIEW_ENERGY : 0u);
}

metrics *metrics_compute(const commgraph *g, const platform *p, const mapping *m);

/* FALSE + an error naming the cause when a sum of `m` overflowed. */
gboolean metrics_check(const metrics *m, GError **error);

/* The same summaries from per-link counters gathered elsewhere (a simulated
 * run): fills the link fields of `out` from link_messages/link_bytes. */
void metrics_summarize_links(metrics *out, const platform *p);

void metrics_free(metrics *m);

/* Per link class: dimension and direction on regular topologies (x+, x-,
 * y+ ...), one row for graph links, the classes of indirect networks
 * (node up, node down, local, global, level2 up ...). */
typedef struct metrics_dim_row {
  char label[16];
  int links;          /* links of this class */
  int used;
  int64_t bytes;      /* summed */
  int64_t max_bytes;
  double max_time;
} metrics_dim_row;

/* Fills rows[0..*nrows-1]; rows must hold 2 * TOPO_MAX_DIMS + 1 entries
 * (the most classes a topology has). */
void metrics_by_dimension(const metrics *m, const platform *p, metrics_dim_row *rows, int *nrows);

/* The k links with the largest time (ties: lower id first) into ids[]; returns how many. */
int metrics_hottest(const metrics *m, const platform *p, int k, int *ids);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(metrics, metrics_free)

G_END_DECLS
