/* route.c - dimension-order (with the HAEC Box rule), shortest-path and
 * table routing, and the one iterator over every family's routes. See
 * route.h for the rules, including the torus tie rule; the routes of
 * indirect networks are in their family's file.
 */
#include "routing/family/family-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/enumname.h"

G_DEFINE_QUARK(route-error-quark, route_error)

/* Graph topologies with more nodes than this cannot hold n^2 tables. */
#define ROUTE_TABLE_MAX_NODES 8192

gboolean router_parse_order(const topo *t, const char *text, int *order, GError **error)
{
  int n = 0;
  gboolean seen[TOPO_MAX_DIMS] = { FALSE };
  for (const char *p = text; *p; p++) {
    if (*p == ',' || *p == ' ')
      continue;
    int d = -1;
    if (*p >= '0' && *p <= '9')
      d = *p - '0';
    else
      for (int i = 0; i < TOPO_MAX_DIMS; i++)
        if (g_ascii_tolower(*p) == topo_dim_letter(i))
          d = i;
    if (d < 0 || d >= t->ndims || seen[d] || n >= t->ndims) {
      g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                  "dimension order '%s': expected a permutation of the %d dimensions "
                  "(letters xyzwvu... or digits), each once", text, t->ndims);
      return FALSE;
    }
    seen[d] = TRUE;
    order[n++] = d;
  }
  if (n != t->ndims) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                "dimension order '%s' names %d dimensions, expected all %d", text, n, t->ndims);
    return FALSE;
  }
  return TRUE;
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

const route_algo_row route_algo_table[] = {
  { "dor", ROUTE_ALGO_DOR, TOPO_FAMILY_DIRECT, 0,
    "dimension order (HAEC Box rule across layers); shortest paths on graphs" },
  { "shortest_path", ROUTE_ALGO_SHORTEST, TOPO_FAMILY_DIRECT, 0, "the same as dor" },
  { "table", ROUTE_ALGO_DOR, TOPO_FAMILY_DIRECT, 0, "the same as dor ([routing] table first)" },
  { "haec", ROUTE_ALGO_DOR, TOPO_FAMILY_DIRECT, 0, "the same as dor" },
  { "haec_box", ROUTE_ALGO_DOR, TOPO_FAMILY_DIRECT, 0, "the same as dor" },
  { "minimal", ROUTE_ALGO_MINIMAL, TOPO_FAMILY_DRAGONFLY, 0, "local, global, local hop" },
  { "valiant", ROUTE_ALGO_VALIANT, TOPO_FAMILY_DRAGONFLY, ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED,
    "minimal to a random intermediate group, then minimal on (seeded per rank pair)" },
  { "ugal", ROUTE_ALGO_UGAL, TOPO_FAMILY_DRAGONFLY,
    ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED | ROUTE_FLAG_ADAPTIVE,
    "per message (flow models) or packet (packet models) minimal or Valiant, whichever "
    "costs less by the load seen at the source (UGAL-L)" },
  { "dmodk", ROUTE_ALGO_DMODK, TOPO_FAMILY_FATTREE, 0,
    "up port (destination / ports below) mod ports, SimGrid's d-mod-k" },
  { "smodk", ROUTE_ALGO_SMODK, TOPO_FAMILY_FATTREE, 0, "up port by the source, s-mod-k" },
  { "random-up", ROUTE_ALGO_RANDOM_UP, TOPO_FAMILY_FATTREE, ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED,
    "a random up port per level (seeded per rank pair)" },
  { "ecmp", ROUTE_ALGO_ECMP, TOPO_FAMILY_FATTREE, ROUTE_FLAG_KEYED,
    "a hash of source, destination, rank pair and switch at every switch" },
  { "dor", ROUTE_ALGO_DOR, TOPO_FAMILY_HYPERX, 0, "one hop per differing dimension, x first" },
  { "min-adaptive", ROUTE_ALGO_MIN_ADAPTIVE, TOPO_FAMILY_HYPERX, ROUTE_FLAG_ADAPTIVE,
    "one hop per differing dimension, in the rotation of the order least loaded at the "
    "source" },
  { "minimal", ROUTE_ALGO_MINIMAL, TOPO_FAMILY_TREE, 0,
    "up to the lowest common switch and down (a tree's one path)" },
};
const int route_algo_count = G_N_ELEMENTS(route_algo_table);

/* The first row of a family: its default routing. */
static const route_algo_row *default_row(const topo *t)
{
  for (int i = 0; i < route_algo_count; i++)
    if (route_algo_table[i].family == t->family)
      return &route_algo_table[i];
  return &route_algo_table[0];
}

gboolean router_set_algo(router *r, const char *name, GError **error)
{
  for (int i = 0; i < route_algo_count; i++) {
    const route_algo_row *row = &route_algo_table[i];
    if (row->family != r->t->family || g_strcmp0(row->name, name) != 0)
      continue;
    if (row->family != TOPO_FAMILY_DIRECT) { /* direct: the shape decides */
      r->algo = row->algo;
      r->flags = row->flags;
    }
    return TRUE;
  }
  g_autofree char *names = route_algo_names(r->t);
  g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE, "routing '%s' on a %s, expected %s", name,
              topo_kind_text(r->t), names);
  return FALSE;
}

const char *router_algo_name(const router *r)
{
  if (r->t->family == TOPO_FAMILY_DIRECT)
    return topo_is_regular(r->t) ? "dor" : "shortest_path";
  for (int i = 0; i < route_algo_count; i++)
    if (route_algo_table[i].family == r->t->family && route_algo_table[i].algo == r->algo)
      return route_algo_table[i].name;
  return "?";
}

char *route_algo_names(const topo *t)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < route_algo_count; i++)
    if (route_algo_table[i].family == t->family)
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", route_algo_table[i].name);
  return g_string_free(s, FALSE);
}

static const char *const tie_names[] = { "positive", "simgrid" };

gboolean route_tie_from_name(const char *name, route_tie *out)
{
  int i;
  if (!enum_parse(tie_names, G_N_ELEMENTS(tie_names), name, &i))
    return FALSE;
  *out = (route_tie)i;
  return TRUE;
}

router *router_new(const topo *t, const int *order, GError **error)
{
  gboolean graph = t->family == TOPO_FAMILY_DIRECT && !topo_is_regular(t);
  if (graph && t->nnodes > ROUTE_TABLE_MAX_NODES) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                "graph topology of %d nodes, expected at most %d for table routing",
                t->nnodes, ROUTE_TABLE_MAX_NODES);
    return NULL;
  }
  if (graph &&
      !budget_check_array("graph topology: shortest-path tables", (uint64_t)t->nnodes * t->nnodes,
                          2 * sizeof(int), error))
    return NULL;
  router *r = g_new0(router, 1);
  r->t = t;
  r->algo = graph ? ROUTE_ALGO_SHORTEST : default_row(t)->algo;
  r->flags = default_row(t)->flags;
  r->seed = 1;
  for (int d = 0; d < t->ndims; d++)
    r->order[d] = order ? order[d] : d;
  if (graph)
    build_shortest_paths(r);
  return r;
}

void router_free(router *r)
{
  if (!r)
    return;
  g_free(r->path_off);
  g_free(r->path_len);
  g_free(r->path_links);
  g_free(r->next_link);
  g_free(r->dist);
  g_free(r);
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
  if (t->family != TOPO_FAMILY_DIRECT) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_INVALID,
                "%s: a route table on a %s, expected a mesh, torus or graph (indirect networks "
                "route by [routing] algorithm: %s)", path, topo_family_name(t->family),
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

static void begin_variant(route_iter *it, const router *r, int src, int dst, uint64_t key,
                          route_path path, int variant)
{
  const topo *t = r->t;
  it->r = r;
  it->cur = src;
  it->dst = dst;
  it->k = 0;
  it->path = NULL;
  it->left = 0;
  const family_ops *f = family_of(t);
  if (f) {
    it->path = it->buf;
    it->left = src == dst ? 0 : f->route(r, src, dst, key, path, variant, it->buf);
    return;
  }
  if (r->path_off) {
    size_t pair = (size_t)src * t->nnodes + dst;
    if (r->path_off[pair] >= 0) {
      it->path = r->path_links + r->path_off[pair];
      it->left = r->path_len[pair];
      return;
    }
  }
  if (topo_is_regular(t)) {
    topo_coords(t, src, it->cc);
    topo_coords(t, dst, it->dc);
  }
}

void route_begin_path(route_iter *it, const router *r, int src, int dst, uint64_t key,
                      route_path path)
{
  begin_variant(it, r, src, dst, key, path, 0);
}

void route_begin(route_iter *it, const router *r, int src, int dst, uint64_t key)
{
  begin_variant(it, r, src, dst, key, ROUTE_PATH_DEFAULT, 0);
}

int route_candidates(const router *r)
{
  switch (r->algo) {
  case ROUTE_ALGO_UGAL: return 1 + ROUTE_UGAL_VALIANT;
  case ROUTE_ALGO_MIN_ADAPTIVE: return MAX(r->t->hx.ndims, 1);
  default: return 1;
  }
}

void route_begin_candidate(route_iter *it, const router *r, int src, int dst, uint64_t key,
                           int c)
{
  if (r->algo == ROUTE_ALGO_UGAL && c > 0)
    begin_variant(it, r, src, dst, route_key_salt(key, c - 1), ROUTE_PATH_NONMINIMAL, 0);
  else
    begin_variant(it, r, src, dst, key, ROUTE_PATH_DEFAULT, c);
}

int route_seen_links(const router *r, const int *links, int nlinks)
{
  if (r->t->family == TOPO_FAMILY_DRAGONFLY)
    for (int k = 1; k < nlinks; k++)
      if (r->t->link_class[links[k]] == TOPO_DF_GLOBAL)
        return k + 1;
  return MIN(nlinks, 2);
}

int route_vc_classes(const router *r)
{
  if (r->t->family == TOPO_FAMILY_DRAGONFLY)
    return 3;
  return r->algo == ROUTE_ALGO_MIN_ADAPTIVE ? r->t->hx.ndims + 1 : 1;
}

gboolean route_vc_step(const router *r, int link)
{
  const topo *t = r->t;
  if (t->family == TOPO_FAMILY_DRAGONFLY)
    return t->link_class[link] == TOPO_DF_GLOBAL;
  return r->algo == ROUTE_ALGO_MIN_ADAPTIVE && topo_is_switch(t, t->link_src[link]) &&
         topo_is_switch(t, t->link_dst[link]);
}

void router_nonminimal_view(const router *r, router *out)
{
  *out = *r;
  if (r->t->family == TOPO_FAMILY_DRAGONFLY) {
    out->algo = ROUTE_ALGO_VALIANT;
    out->flags = ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED;
  }
}

static gboolean dor_next(route_iter *it, int *link)
{
  const topo *t = it->r->t;
  int cd = t->crossbar_dim;
  if (cd >= 0 && it->cc[cd] != it->dc[cd]) {
    int step = it->dc[cd] > it->cc[cd] ? 1 : -1;
    int next[TOPO_MAX_DIMS];
    memcpy(next, it->dc, sizeof next);
    next[cd] = it->cc[cd] + step;
    int v = topo_node(t, next);
    *link = topo_crossbar_link(t, it->cur, v);
    memcpy(it->cc, next, sizeof next);
    it->cur = v;
    return TRUE;
  }
  while (it->k < t->ndims) {
    int d = it->r->order[it->k];
    int c = it->cc[d], target = it->dc[d], n = t->shape[d];
    if (c == target) {
      it->k++;
      continue;
    }
    int dir;
    if (t->conn[d] == TOPO_TORUS) {
      int ahead = ((target - c) % n + n) % n;
      dir = 2 * ahead < n ? 0 : 2 * ahead > n ? 1
            : it->r->tie == ROUTE_TIE_SIMGRID && 2 * c == n ? 1 : 0; /* the tie rule */
    } else {
      dir = target > c ? 0 : 1;
    }
    *link = topo_link(t, it->cur, d, dir);
    int nc = dir == 0 ? c + 1 : c - 1;
    nc = (nc + n) % n;
    it->cur += (nc - c) * t->stride[d];
    it->cc[d] = nc;
    return TRUE;
  }
  return FALSE;
}

gboolean route_next(route_iter *it, int *link)
{
  if (it->path) {
    if (it->left == 0)
      return FALSE;
    *link = *it->path++;
    it->left--;
    return TRUE;
  }
  if (it->cur == it->dst)
    return FALSE;
  const router *r = it->r;
  if (topo_is_regular(r->t))
    return dor_next(it, link);
  int l = r->next_link[(size_t)it->cur * r->t->nnodes + it->dst];
  if (l < 0)
    return FALSE; /* unreachable: route_hops reports -1 */
  *link = l;
  it->cur = r->t->link_dst[l];
  return TRUE;
}

int route_hops(const router *r, int src, int dst)
{
  const family_ops *f = family_of(r->t);
  if (f)
    return src == dst ? 0 : f->hops(r->t, src, dst);
  size_t n = (size_t)r->t->nnodes;
  if (r->path_off && r->path_off[(size_t)src * n + dst] >= 0)
    return r->path_len[(size_t)src * n + dst];
  if (topo_is_regular(r->t))
    return topo_hops(r->t, src, dst);
  return r->dist[(size_t)src * n + dst];
}
