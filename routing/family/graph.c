/* graph.c - graph topologies (a direct network given link by link, every
 * vertex a node), their breadth-first shortest-path routing and the route
 * tables any direct network may carry (route.h has the file format).
 *
 * Costs: the router's tables O(n nlinks) time and 2 n^2 ints (n at most
 * ROUTE_TABLE_MAX_NODES), a route hop O(1), facts O(n^2).
 */
#include "routing/family/family-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"

/* Graph topologies with more nodes than this cannot hold n^2 tables. */
#define ROUTE_TABLE_MAX_NODES 8192

topo *topo_new_graph(int nnodes, int nlinks, const int *src, const int *dst, GError **error)
{
  if (nnodes < 1) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID, "%d nodes, expected at least 1", nnodes);
    return NULL;
  }
  for (int i = 0; i < nlinks; i++)
    if (src[i] < 0 || src[i] >= nnodes || dst[i] < 0 || dst[i] >= nnodes || src[i] == dst[i]) {
      g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                  "link %d: %d -> %d, expected two different nodes in [0, %d)", i, src[i],
                  dst[i], nnodes);
      return NULL;
    }
  topo *t = g_new0(topo, 1);
  t->ops = &family_graph_ops;
  t->crossbar_dim = -1;
  t->nnodes = nnodes;
  t->nlinks = nlinks;
  t->nclasses = 1;
  family_alloc_links(t);
  for (int i = 0; i < nlinks; i++) {
    t->link_src[i] = src[i];
    t->link_dst[i] = dst[i];
    t->link_dim[i] = -1;
    t->link_dir[i] = 0;
    t->out_off[src[i] + 1]++;
  }
  for (int u = 0; u < nnodes; u++)
    t->out_off[u + 1] += t->out_off[u];
  int *fill = g_memdup2(t->out_off, sizeof(int) * (size_t)nnodes);
  for (int i = 0; i < nlinks; i++)
    t->out_link[fill[src[i]]++] = i;
  g_free(fill);
  return t;
}

/* Breadth-first search towards each destination over reversed links, so that
 * next_link[u*n+v] is the first link of a shortest u -> v path. Links are
 * scanned in id order, which makes ties deterministic. O(n * nlinks). */
static void build_shortest_paths(router *r)
{
  const topo *t = r->t;
  size_t n = (size_t)t->nnodes;
  r->next_link = g_new(int, n * n);
  r->dist = g_new(int, n * n);
  /* incoming links per node */
  int *in_off = g_new0(int, n + 1);
  int *in_link = g_new(int, t->nlinks ? t->nlinks : 1);
  for (int l = 0; l < t->nlinks; l++)
    in_off[t->link_dst[l] + 1]++;
  for (size_t v = 0; v < n; v++)
    in_off[v + 1] += in_off[v];
  int *fill = g_memdup2(in_off, sizeof(int) * n);
  for (int l = 0; l < t->nlinks; l++)
    in_link[fill[t->link_dst[l]]++] = l;
  g_free(fill);

  int *queue = g_new(int, n);
  int *dist = g_new(int, n);
  for (size_t v = 0; v < n; v++) {
    for (size_t u = 0; u < n; u++)
      dist[u] = -1;
    size_t head = 0, tail = 0;
    dist[v] = 0;
    queue[tail++] = (int)v;
    r->next_link[v * n + v] = -1;
    while (head < tail) {
      int w = queue[head++];
      for (int i = in_off[w]; i < in_off[w + 1]; i++) {
        int l = in_link[i];
        int u = t->link_src[l];
        if (dist[u] < 0) {
          dist[u] = dist[w] + 1;
          r->next_link[(size_t)u * n + v] = l;
          queue[tail++] = u;
        }
      }
    }
    for (size_t u = 0; u < n; u++) {
      r->dist[u * n + v] = dist[u];
      if (dist[u] < 0)
        r->next_link[u * n + v] = -1;
    }
  }
  g_free(queue);
  g_free(dist);
  g_free(in_off);
  g_free(in_link);
}

/* The lowest-id link u -> v, or -1. */
static int link_between(const topo *t, int u, int v)
{
  for (int i = t->out_off[u]; i < t->out_off[u + 1]; i++)
    if (t->link_dst[t->out_link[i]] == v)
      return t->out_link[i];
  return -1;
}

static gboolean parse_id(const char *tok, long limit, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (errno || end == tok || *end || v < 0 || v >= limit)
    return FALSE;
  *out = v;
  return TRUE;
}

/* A node path "src n1 ... dst": appends its links; sets *src, *dst. */
static gboolean parse_node_path(const topo *t, char **tok, const char *path, int ln,
                                GArray *links, int *src, int *dst, GError **error)
{
  int prev = -1, count = 0;
  for (int i = 0; tok[i]; i++) {
    long v;
    if (!*tok[i])
      continue;
    if (!parse_id(tok[i], t->nnodes, &v)) {
      g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                  "%s:%d: '%s' is not a node, expected ids in [0, %d)", path, ln, tok[i],
                  t->nnodes);
      return FALSE;
    }
    if (prev >= 0) {
      int l = link_between(t, prev, (int)v);
      if (l < 0) {
        g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                    "%s:%d: no link %d -> %ld, expected a path along links", path, ln, prev, v);
        return FALSE;
      }
      g_array_append_val(links, l);
    } else {
      *src = (int)v;
    }
    prev = (int)v;
    count++;
  }
  *dst = prev;
  if (count < 2 || *src == *dst) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                "%s:%d: expected 'src node ... dst' or 'src dst : link ...' with src != dst",
                path, ln);
    return FALSE;
  }
  return TRUE;
}

/* A link path "src dst : l1 l2 ...": the links must chain from src to dst
 * (the way to pick one of several parallel links). */
static gboolean parse_link_path(const topo *t, const char *head, const char *tail,
                                const char *path, int ln, GArray *links, int *src, int *dst,
                                GError **error)
{
  char **ends = g_strsplit_set(head, " \t", -1);
  char **ids = g_strsplit_set(tail, " \t,", -1);
  long ends_v[2];
  int nends = 0, cur = -1;
  gboolean ok = TRUE;
  for (int i = 0; ends[i] && ok; i++)
    if (*ends[i])
      ok = nends < 2 && parse_id(ends[i], t->nnodes, &ends_v[nends++]);
  if (!ok || nends != 2 || ends_v[0] == ends_v[1]) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                "%s:%d: expected 'src dst : link ...' with two different nodes", path, ln);
    ok = FALSE;
    goto out;
  }
  *src = (int)ends_v[0];
  *dst = (int)ends_v[1];
  cur = *src;
  for (int i = 0; ids[i]; i++) {
    long l;
    if (!*ids[i])
      continue;
    if (!parse_id(ids[i], t->nlinks, &l) || t->link_src[l] != cur) {
      g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                  "%s:%d: '%s' is not a link leaving node %d, expected link ids in [0, %d) "
                  "chaining from %d to %d", path, ln, ids[i], cur, t->nlinks, *src, *dst);
      ok = FALSE;
      goto out;
    }
    int li = (int)l;
    g_array_append_val(links, li);
    cur = t->link_dst[l];
  }
  if (cur != *dst) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                "%s:%d: the links end at node %d, expected them to reach %d", path, ln, cur,
                *dst);
    ok = FALSE;
  }
out:
  g_strfreev(ends);
  g_strfreev(ids);
  return ok;
}

gboolean router_load_table(router *r, const char *path, GError **error)
{
  const topo *t = r->t;
  size_t n = (size_t)t->nnodes;
  if (t->ops != &family_torus_ops && t->ops != &family_graph_ops) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                "%s: a route table on a %s, expected a mesh, torus or graph (indirect networks "
                "route by [routing] algorithm: %s)", path, t->ops->name,
                router_algo_name(r));
    return FALSE;
  }
  if (n > ROUTE_TABLE_MAX_NODES) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                "%s: %zu nodes, expected at most %d for a route table", path, n,
                ROUTE_TABLE_MAX_NODES);
    return FALSE;
  }
  char *text = NULL;
  if (!budget_read_text(path, "a route table", &text, NULL, error))
    return FALSE;
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  gboolean ok = FALSE;
  int *off = g_new(int, n * n);
  int *len = g_new0(int, n * n);
  for (size_t i = 0; i < n * n; i++)
    off[i] = -1;
  GArray *links = g_array_new(FALSE, FALSE, sizeof(int));
  /* the line that last took each link: a route takes a link at most once
   * (twice is a routing loop, and would make routes of any length) */
  int *taken = g_new(int, MAX(t->nlinks, 1));
  for (int l = 0; l < t->nlinks; l++)
    taken[l] = -1;
  for (int ln = 0; lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    char *line = g_strstrip(lines[ln]);
    if (!*line)
      continue;
    int src = -1, dst = -1, start = (int)links->len;
    char *colon = strchr(line, ':');
    gboolean good;
    if (colon) {
      *colon = '\0';
      good = parse_link_path(t, line, colon + 1, path, ln + 1, links, &src, &dst, error);
    } else {
      char **tok = g_strsplit_set(line, " \t,", -1);
      good = parse_node_path(t, tok, path, ln + 1, links, &src, &dst, error);
      g_strfreev(tok);
    }
    if (!good)
      goto out;
    for (guint i = (guint)start; i < links->len; i++) {
      int l = g_array_index(links, int, i);
      if (taken[l] == ln) {
        g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                    "%s:%d: link %d (%d -> %d) taken twice, expected a route that takes each "
                    "link at most once", path, ln + 1, l, t->link_src[l], t->link_dst[l]);
        goto out;
      }
      taken[l] = ln;
    }
    size_t pair = (size_t)src * n + (size_t)dst;
    if (off[pair] >= 0) {
      g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                  "%s:%d: second route %d -> %d, expected one per pair", path, ln + 1, src, dst);
      goto out;
    }
    off[pair] = start;
    len[pair] = (int)links->len - start;
  }
  g_free(r->path_off);
  g_free(r->path_len);
  g_free(r->path_links);
  r->path_off = off;
  r->path_len = len;
  r->path_links = (int *)(void *)g_array_free(links, FALSE);
  off = len = NULL;
  links = NULL;
  ok = TRUE;
out:
  g_strfreev(lines);
  g_free(taken);
  g_free(off);
  g_free(len);
  if (links)
    g_array_free(links, TRUE);
  return ok;
}

void router_set_table(router *r, int *off, int *len, int *links)
{
  g_free(r->path_off);
  g_free(r->path_len);
  g_free(r->path_links);
  r->path_off = off;
  r->path_len = len;
  r->path_links = links;
}

void family_all_pairs(const platform *p, platform_facts *f)
{
  double total = 0;
  int n = p->topo->nnodes;
  f->diameter = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      int h = route_hops(p->router, a, b);
      total += h;
      f->diameter = MAX(f->diameter, h);
    }
  f->avg_distance = n > 1 ? total / ((double)n * (n - 1)) : 0;
}

static gboolean graph_router_init(router *r, GError **error)
{
  const topo *t = r->t;
  if (t->nnodes > ROUTE_TABLE_MAX_NODES) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                "graph topology of %d nodes, expected at most %d for table routing",
                t->nnodes, ROUTE_TABLE_MAX_NODES);
    return FALSE;
  }
  if (!budget_check_array("graph topology: shortest-path tables", (uint64_t)t->nnodes * t->nnodes,
                          2 * sizeof(int), error))
    return FALSE;
  build_shortest_paths(r);
  return TRUE;
}

static gboolean graph_walk_next(route_iter *it, int *link)
{
  const router *r = it->r;
  int l = r->next_link[(size_t)it->cur * r->t->nnodes + it->dst];
  if (l < 0)
    return FALSE; /* unreachable: route_hops reports -1 */
  *link = l;
  it->cur = r->t->link_dst[l];
  return TRUE;
}

static void graph_walk_begin(route_iter *it)
{
}

static int graph_hops(const topo *t, int a, int b)
{
  return -1; /* route_hops reads the router's tables */
}

static void graph_facts(const platform *p, platform_facts *f)
{
  family_all_pairs(p, f);
}

static void graph_class_name(const topo *t, int c, char *buf, size_t size)
{
  g_strlcpy(buf, "links", size);
}

static char *graph_describe(const topo *t)
{
  return g_strdup_printf("graph of %d nodes, %d links", t->nnodes, t->nlinks);
}

static const family_routing graph_routings[] = {
  { .name = "dor", .algo = ROUTE_ALGO_SHORTEST, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as shortest_path" },
  { .name = "shortest_path", .algo = ROUTE_ALGO_SHORTEST, .flags = 0,

    .summary = "breadth-first shortest paths, the lowest link id among equals; a route "
               "table's paths first" },
  { .name = "table", .algo = ROUTE_ALGO_SHORTEST, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as shortest_path ([routing] table first)" },
  { .name = "haec", .algo = ROUTE_ALGO_SHORTEST, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as shortest_path" },
  { .name = "haec_box", .algo = ROUTE_ALGO_SHORTEST, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as shortest_path" },
};

const family_ops family_graph_ops = {
  .name = "graph",
  .text = "graph topology",
  .kind = TOPO_FAMILY_DIRECT,
  .routings = graph_routings,
  .nroutings = G_N_ELEMENTS(graph_routings),
  .describe = graph_describe,
  .class_name = graph_class_name,
  .reverse_link = family_reverse_by_scan,
  .hops = graph_hops,
  .router_init = graph_router_init,
  .walk_begin = graph_walk_begin,
  .walk_next = graph_walk_next,
  .facts = graph_facts,
};
