/* metrics.c - hop-bytes and link congestion along the routes used
 * (deveci2015 Section II, deveci-geometric Section 3). */
#include "mapping/metrics.h"

#include <stddef.h>

#include <stdlib.h>
#include <string.h>

#include "routing/energy.h"
#include "util/checked.h"

void metrics_summarize_links(metrics *out, const platform *p)
{
  out->max_link_messages = 0;
  out->max_link_bytes = 0;
  out->max_link_time = 0;
  out->links_used = 0;
  out->hop_time = 0;
  out->traffic_energy_j = 0;
  out->has_energy = platform_has_power(p);
  double sum_msgs = 0, sum_time = 0;
  for (int l = 0; l < out->nlinks; l++) {
    if (out->link_messages[l] == 0 && out->link_bytes[l] == 0)
      continue;
    double t = platform_link_time(p, l, out->link_bytes[l]);
    out->links_used++;
    out->traffic_energy_j +=
        (double)out->link_bytes[l] * linktype_joules_per_byte(&p->linktypes[p->link_type[l]]);
    sum_msgs += (double)out->link_messages[l];
    sum_time += t;
    out->max_link_messages = MAX(out->max_link_messages, out->link_messages[l]);
    out->max_link_bytes = MAX(out->max_link_bytes, out->link_bytes[l]);
    out->max_link_time = MAX(out->max_link_time, t);
  }
  out->hop_time = sum_time;
  out->avg_link_messages = out->links_used ? sum_msgs / out->links_used : 0;
  out->avg_link_time = out->links_used ? sum_time / out->links_used : 0;
}

#define F(name, type, unit, desc) { #name, type, unit, offsetof(metrics, name), desc, 0, NULL }
#define V(key, member, type, unit, desc, view) \
  { key, type, unit, offsetof(metrics, member), desc, view, NULL }
const field metrics_fields[] = {
  F(tasks, FIELD_INT, FIELD_COUNT, "ranks of the communication graph"),
  F(nodes_used, FIELD_INT, FIELD_COUNT, "nodes holding at least one rank"),
  F(ranks_per_node, FIELD_INT, FIELD_COUNT, "the most ranks on one node"),
  F(edges, FIELD_INT, FIELD_COUNT, "directed edges i -> j, i != j"),
  F(total_hops, FIELD_INT64, FIELD_COUNT, "sum over edges of route hops (TH)"),
  F(avg_hops, FIELD_DOUBLE, FIELD_RATIO, "total_hops / edges"),
  F(max_dilation, FIELD_INT, FIELD_COUNT, "longest route of any edge, hops"),
  F(hop_bytes, FIELD_INT64, FIELD_COUNT, "sum over edges of bytes x hops (WH, Scotch's CommExpan)"),
  F(message_hops, FIELD_INT64, FIELD_COUNT, "sum over edges of messages x hops"),
  F(hop_time, FIELD_DOUBLE, FIELD_SECONDS,
    "sum over links of bytes / bandwidth: hop-bytes weighted by link speed"),
  V("max_link_edges", max_link_messages, FIELD_INT64, FIELD_COUNT,
    "most communication-graph edges routed over one link (MMC)", FIELD_VIEW_STATIC),
  V("max_link_messages", max_link_messages, FIELD_INT64, FIELD_COUNT,
    "most messages the simulation sent over one link", FIELD_VIEW_SIMULATED),
  F(max_link_bytes, FIELD_INT64, FIELD_COUNT, "most bytes on one link"),
  F(max_link_time, FIELD_DOUBLE, FIELD_SECONDS, "largest bytes / bandwidth of a link (MC)"),
  V("avg_link_edges", avg_link_messages, FIELD_DOUBLE, FIELD_RATIO,
    "graph edges per used link (AMC)", FIELD_VIEW_STATIC),
  V("avg_link_messages", avg_link_messages, FIELD_DOUBLE, FIELD_RATIO,
    "simulated messages per used link", FIELD_VIEW_SIMULATED),
  F(avg_link_time, FIELD_DOUBLE, FIELD_SECONDS, "bytes / bandwidth per used link (AC)"),
  F(links_used, FIELD_INT, FIELD_COUNT, "links that carry any traffic"),
  V("traffic_energy_j", traffic_energy_j, FIELD_DOUBLE, FIELD_JOULES,
    "sum over links of bytes x (power-busy - power-idle) / bandwidth: the traffic's energy "
    "above idle", FIELD_VIEW_ENERGY),
  V("hop_bytes_bound", hop_bytes_bound, FIELD_INT64, FIELD_COUNT,
    "no mapping has fewer hop_bytes (mapping/bounds.h)", FIELD_VIEW_BOUNDS),
  V("gap_hop_bytes", gap_hop_bytes, FIELD_DOUBLE, FIELD_RATIO,
    "(hop_bytes - hop_bytes_bound) / hop_bytes: 0 = proven optimal", FIELD_VIEW_BOUNDS),
  V("max_link_bytes_bound", max_link_bytes_bound, FIELD_INT64, FIELD_COUNT,
    "no mapping has fewer bytes on its busiest link (mapping/bounds.h)", FIELD_VIEW_BOUNDS),
  V("gap_max_link", gap_max_link, FIELD_DOUBLE, FIELD_RATIO,
    "(max_link_bytes - max_link_bytes_bound) / max_link_bytes", FIELD_VIEW_BOUNDS),
};
#undef F
#undef V
const int metrics_nfields = G_N_ELEMENTS(metrics_fields);

/* *sum += v, saturating (and flagged) instead of wrapping; INT64_MAX is
 * the saturated value (a saturating_mul_i64 term may bring it). */
static inline void add(metrics *x, int64_t *sum, int64_t v)
{
  if (G_UNLIKELY(!checked_add_i64(*sum, v, sum) || *sum == INT64_MAX)) {
    *sum = INT64_MAX;
    x->overflow = TRUE;
  }
}

gboolean metrics_check(const metrics *m, GError **error)
{
  if (!m->overflow)
    return TRUE;
  g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
              "the static metrics overflow: hop_bytes or a link's bytes exceed 2^63 - 1 "
              "(bytes x hops of the traffic on this platform)");
  return FALSE;
}

/* An edge of `bytes` from node a to b under a per-packet spread routing
 * (ROUTE_FLAG_SPREAD, routing/route.h): the expected spread of its
 * packets, bytes / n on each of the n candidate paths (the remainder one
 * byte each to the first ones), the edge once on every link one of them
 * crosses (stamp: links seen for edge number `no`); the class hops and
 * the returned hops are candidate 0's, hop_bytes every candidate's share
 * times its length (added here). */
static int spread_edge(metrics *x, const platform *p, int a, int b, uint64_t key, int64_t bytes,
                       int n, uint32_t *stamp, uint32_t no, int *class_hops)
{
  const topo *t = p->topo;
  int hops0 = 0;
  int64_t hop_bytes = 0;
  for (int c = 0; c < n; c++) {
    int64_t share = bytes / n + (c < bytes % n);
    route_iter it;
    int l, h = 0;
    route_begin_candidate(&it, p->router, a, b, key, c);
    while (route_next(&it, &l)) {
      if (stamp[l] != no) {
        stamp[l] = no;
        x->link_messages[l]++;
      }
      add(x, &x->link_bytes[l], share);
      if (c == 0)
        class_hops[t->link_class[l]]++;
      h++;
    }
    if (c == 0)
      hops0 = h;
    x->max_dilation = MAX(x->max_dilation, h);
    add(x, &hop_bytes, saturating_mul_i64(share, h));
  }
  /* the caller adds bytes x hops0; the spread's hop bytes replace it */
  add(x, &x->hop_bytes, hop_bytes);
  x->hop_bytes = saturating_add_i64(x->hop_bytes, -saturating_mul_i64(bytes, hops0));
  return hops0;
}

metrics *metrics_compute(const commgraph *g, const platform *p, const mapping *m)
{
  g_assert(m->ntasks >= g->n);
  metrics *x = g_new0(metrics, 1);
  x->tasks = g->n;
  x->nlinks = p->topo->nlinks;
  x->link_messages = g_new0(int64_t, x->nlinks ? x->nlinks : 1);
  x->link_bytes = g_new0(int64_t, x->nlinks ? x->nlinks : 1);
  x->has_messages = g->msgs != NULL;
  const topo *t = p->topo;
  int nc = t->nclasses, *class_hops = g_new0(int, MAX(nc, 1));
  size_t buckets = (size_t)MAX(nc, 1) * (METRICS_CLASS_HOPS + 1);
  x->nclasses = nc;
  x->class_edges = g_new0(int64_t, buckets);
  x->class_bytes = g_new0(int64_t, buckets);
  GHashTable *load = g_hash_table_new(NULL, NULL);
  for (int i = 0; i < g->n; i++) {
    int c = GPOINTER_TO_INT(g_hash_table_lookup(load, GINT_TO_POINTER(m->node[i] + 1))) + 1;
    g_hash_table_insert(load, GINT_TO_POINTER(m->node[i] + 1), GINT_TO_POINTER(c));
    x->ranks_per_node = MAX(x->ranks_per_node, c);
  }
  x->nodes_used = (int)g_hash_table_size(load);
  g_hash_table_destroy(load);
  route_iter it;
  /* per-packet Valiant: each edge spread over its intermediates */
  int spread = (p->router->flags & ROUTE_FLAG_SPREAD) ? route_candidates(p->router) : 1;
  uint32_t *stamp = spread > 1 ? g_new0(uint32_t, MAX(x->nlinks, 1)) : NULL, edge_no = 0;
  for (int i = 0; i < g->n; i++) {
    int a = m->node[i];
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int j = g->adj[e];
      if (j == i)
        continue;
      x->edges++;
      int b = m->node[j];
      if (a == b)
        continue;
      int64_t bytes = g->bytes[e];
      int hops = 0, l;
      if (spread > 1) {
        hops = spread_edge(x, p, a, b, route_key(i, j), bytes, spread, stamp, ++edge_no,
                           class_hops);
        goto counted;
      }
      route_begin(&it, p->router, a, b, route_key(i, j));
      while (route_next(&it, &l)) {
        x->link_messages[l]++;
        add(x, &x->link_bytes[l], bytes);
        class_hops[t->link_class[l]]++;
        hops++;
      }
    counted:
      for (int c = 0; c < nc; c++) {
        size_t k = (size_t)c * (METRICS_CLASS_HOPS + 1) + MIN(class_hops[c], METRICS_CLASS_HOPS);
        x->class_edges[k]++;
        add(x, &x->class_bytes[k], bytes);
        class_hops[c] = 0;
      }
      if (topo_dragonfly_of(t) && topo_group_of(t, a) != topo_group_of(t, b))
        add(x, &x->inter_group_bytes, bytes);
      x->total_hops += hops;
      add(x, &x->hop_bytes, saturating_mul_i64(bytes, hops));
      if (g->msgs)
        add(x, &x->message_hops, saturating_mul_i64(g->msgs[e], hops));
      x->max_dilation = MAX(x->max_dilation, hops);
    }
  }
  x->avg_hops = x->edges ? (double)x->total_hops / x->edges : 0;
  g_free(class_hops);
  g_free(stamp);
  metrics_summarize_links(x, p);
  return x;
}

void metrics_free(metrics *m)
{
  if (!m)
    return;
  g_free(m->link_messages);
  g_free(m->link_bytes);
  g_free(m->class_edges);
  g_free(m->class_bytes);
  g_free(m);
}

void metrics_by_dimension(const metrics *m, const platform *p, metrics_dim_row *rows, int *nrows)
{
  const topo *t = p->topo;
  int n = t->nclasses;
  memset(rows, 0, sizeof(*rows) * (size_t)n);
  for (int r = 0; r < n; r++)
    topo_class_name(t, r, rows[r].label, sizeof rows[r].label);
  for (int l = 0; l < m->nlinks; l++) {
    metrics_dim_row *row = &rows[t->link_class[l]];
    row->links++;
    if (m->link_bytes[l] == 0 && m->link_messages[l] == 0)
      continue;
    row->used++;
    row->bytes += m->link_bytes[l];
    row->max_bytes = MAX(row->max_bytes, m->link_bytes[l]);
    row->max_time = MAX(row->max_time, platform_link_time(p, l, m->link_bytes[l]));
  }
  *nrows = n;
}

int metrics_hottest(const metrics *m, const platform *p, int k, int *ids)
{
  /* O(nlinks * k): k is small (a report's top ten) */
  int n = 0;
  for (int l = 0; l < m->nlinks; l++) {
    if (m->link_bytes[l] == 0 && m->link_messages[l] == 0)
      continue;
    double t = platform_link_time(p, l, m->link_bytes[l]);
    int pos = n < k ? n : k;
    while (pos > 0 && platform_link_time(p, ids[pos - 1], m->link_bytes[ids[pos - 1]]) < t)
      pos--;
    if (pos >= k)
      continue;
    int last = n < k ? n : k - 1;
    memmove(ids + pos + 1, ids + pos, sizeof(int) * (size_t)(last - pos));
    ids[pos] = l;
    if (n < k)
      n++;
  }
  return n;
}
