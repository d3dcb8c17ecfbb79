/* platform-sgxml.c - SimGrid platform files (XML, version 4.x) as mapsim
 * platforms, read with GLib's GMarkup.
 *
 * What is read: <platform version="4.x">; <zone> (or <AS>) nested, routing
 * Full, Floyd, Dijkstra, DijkstraCache, Cluster or None; <host id speed
 * core>, <router id>, <link id bandwidth latency sharing_policy>
 * (SHARED, SPLITDUPLEX, FATPIPE), <route src dst symmetrical> and
 * <zoneRoute src dst gw_src gw_dst> (or <ASroute>) with their <link_ctn
 * id direction>, <backbone> and <host_link> of Cluster zones, <cluster>
 * (FLAT, TORUS, FAT_TREE, DRAGONFLY), <cabinet>, <bypassRoute> (one way,
 * before the pair's other routes). <prop>, <config>, <trace>,
 * <trace_connect>, <disk>, bypass zone routes and deployment elements are
 * ignored (a note says which).
 *
 * How it is modeled. A cluster with topology TORUS, FAT_TREE or DRAGONFLY
 * that is the whole platform becomes mapsim's family of that shape (the
 * INI key file it stands for: a torus with SimGrid's tie rule, a fat tree
 * routed d-mod-k, a dragonfly with SimGrid's cabling), so strategies see
 * the structure and SimGrid's own routes are mapsim's. Everything else
 * becomes a graph platform: a SimGrid link is a resource a route lists,
 * a mapsim link joins two vertices, so each SimGrid link is two directed
 * mapsim links (SPLITDUPLEX: its UP and DOWN; SHARED and FATPIPE: the way
 * a route crosses it, the reverse of a symmetrical route the other way)
 * whose ends are found from the routes: consecutive links of a route
 * meet at a vertex (union-find over link ends), the first leaves the
 * route's source and the last reaches its destination. Hosts are the
 * first vertices (in file order, the allocation), then routers, then the
 * meeting points no host or router names. A Full zone's routes are the
 * router's table; the other pairs (Floyd, Dijkstra zones, between zones)
 * take the shortest paths by links, as Floyd and Dijkstra weigh a route
 * by its link count. Clusters (FLAT) and Cluster zones: every host's
 * link up to the up side, a backbone to the down side, its link down from
 * there; the router beyond the backbone both ways (joints down side ->
 * router -> up side), as SimGrid's routes to and from it cross it.
 * When the routes list a link that would end at two hosts (a link joining
 * two points cannot), the file is read again with every link end a point
 * of its own and joints (no latency, JOINT_BW) from one link's end to the
 * next one's start: times are SimGrid's, hop counts count the joints.
 *
 * Refused, one line FILE:LINE naming what was expected: malformed XML,
 * another version, unknown elements or attribute values, names given
 * twice or used before they are declared, a route taking a link twice, a
 * DRAGONFLY of several chassis. Sizes (cluster radicals) are checked
 * against the memory budget before anything is allocated for them.
 *
 * Not modeled (notes): host speeds (compute times are the trace's), a
 * SHARED link's one bandwidth for both directions (mapsim's links are
 * duplex), FATPIPE's unshared bandwidth, loopbacks (ranks of one node
 * exchange without the network in mapsim).
 */
#include "routing/platform-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/budget.h"

enum { SG_FULL, SG_FLOYD, SG_DIJKSTRA, SG_DIJKSTRACACHE, SG_CLUSTER, SG_NONE };
static const char *const routing_names[] = { "Full", "Floyd", "Dijkstra", "DijkstraCache",
                                             "Cluster", "None" };
enum { SH_SHARED, SH_SPLIT, SH_FATPIPE };

/* A joint's bandwidth: a megabyte crosses it in a picosecond. */
#define JOINT_BW 1e18

typedef struct {
  char *name;
  gboolean host;
  int zone, cores, slot, line;
} sg_point;

typedef struct {
  char *name;
  double bw, lat;
  int policy, slot, line; /* slots: 4 per link, edge e = 2 link + dir has src 2e, dst 2e + 1 */
} sg_link;

typedef struct {
  char *id;
  int routing, parent, line;
  int rpt;          /* a Cluster zone's router point, or -1 */
  int backbone;        /* its backbone link, or -1 */
  GArray *host_links;  /* Cluster zone: host, up hop, down hop (triples) */
} sg_zone;

/* A hop of a route: link << 2 | dir << 1 | given (dir given by direction=). */
typedef struct {
  int src, dst, first, n, line, zone;
  gboolean symmetrical, zone_route, bypass;
} sg_route;

typedef struct {
  const char *path;
  GMarkupParseContext *mc;
  GArray *points, *links, *zones, *routes, *hops;
  GHashTable *point_by_name, *link_by_name, *zone_by_name;
  GArray *zone_stack;
  int cur_route;       /* index into routes while inside <route>, or -1 */
  int ignore_depth;    /* > 0 inside an ignored element */
  gboolean saw_platform;
  GArray *uf, *owner;  /* union-find over slots; owner: a point, or -1 */
  GArray *edge_line;   /* per edge: line of its first use, 0 unused */
  GPtrArray *ignored;  /* element names ignored */
  gboolean speeds;     /* some host has a speed */
  /* a family cluster (TORUS, FAT_TREE, DRAGONFLY) */
  int family_clusters, other_elements, family_line;
  GKeyFile *family_kf;
  char **family_names; /* its hosts' names */
  int family_hosts;
  /* joints: when the links cannot be joined point to point, every link
   * end is a point of its own and a route steps from one link's end to
   * the next one's by a joint, a link of no latency and unbounded
   * bandwidth */
  gboolean joints, conflict;
  GArray *joint_from, *joint_to;
  GHashTable *joint_of;  /* from << 32 | to -> index + 1 */
} sg_ctx;

static int line_now(sg_ctx *c)
{
  int line = 0, ch = 0;
  if (c->mc)
    g_markup_parse_context_get_position(c->mc, &line, &ch);
  /* GMarkup calls back one character past a tag's '>': at the start of
   * the next line when the tag ends its line */
  return ch <= 1 && line > 1 ? line - 1 : line;
}

static gboolean fail_at(sg_ctx *c, int line, GError **error, const char *fmt, ...)
  G_GNUC_PRINTF(4, 5);
static gboolean fail_at(sg_ctx *c, int line, GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "%s:%d: %s", c->path, line, msg);
  return FALSE;
}
#define FAIL(...) fail_at(c, line_now(c), error, __VA_ARGS__)

/* ---- union-find over link ends and points ---- */

static int slot_new(sg_ctx *c, int owner)
{
  int s = (int)c->uf->len;
  g_array_append_val(c->uf, s);
  g_array_append_val(c->owner, owner);
  return s;
}

static int find(sg_ctx *c, int s)
{
  int *uf = (int *)(void *)c->uf->data;
  while (uf[s] != s) {
    uf[s] = uf[uf[s]];
    s = uf[s];
  }
  return s;
}

static const char *point_name(sg_ctx *c, int pt)
{
  return g_array_index(c->points, sg_point, pt).name;
}

/* Joins two slots; FALSE (error at `line`) when both name a point. */
static gboolean unite(sg_ctx *c, int a, int b, int line, const char *what, GError **error)
{
  a = find(c, a);
  b = find(c, b);
  if (a == b)
    return TRUE;
  int *owner = (int *)(void *)c->owner->data;
  if (owner[a] >= 0 && owner[b] >= 0 && (c->conflict = TRUE))
    return fail_at(c, line, error, "%s would make %s and %s one point, expected links whose "
                   "routes meet where they are listed (mapsim's links join two points)", what,
                   point_name(c, owner[a]), point_name(c, owner[b]));
  int *uf = (int *)(void *)c->uf->data;
  if (owner[a] >= 0) {
    uf[b] = a;
  } else {
    uf[a] = b;
  }
  return TRUE;
}

/* A route steps from slot `from` to slot `to`: they are one point, or
 * (joints) the joint from -> to. The joint's index, -1 for none, -2 with
 * `error` set. */
static int add_joint(sg_ctx *c, int from, int to);

static int joint(sg_ctx *c, int from, int to, int line, const char *what, GError **error)
{
  if (!c->joints)
    return unite(c, from, to, line, what, error) ? -1 : -2;
  if (from == to)
    return -1;
  return add_joint(c, from, to);
}

/* The joint from -> to (made once). */
static int add_joint(sg_ctx *c, int from, int to)
{
  gint64 key = (gint64)from << 32 | (guint32)to;
  int g = GPOINTER_TO_INT(g_hash_table_lookup(c->joint_of, &key)) - 1;
  if (g >= 0)
    return g;
  g = (int)c->joint_from->len;
  g_array_append_val(c->joint_from, from);
  g_array_append_val(c->joint_to, to);
  gint64 *k = g_new(gint64, 1);
  *k = key;
  g_hash_table_insert(c->joint_of, k, GINT_TO_POINTER(g + 1));
  return g;
}

/* Whether unite(a, b) would succeed. */
static gboolean can_unite(sg_ctx *c, int a, int b)
{
  a = find(c, a);
  b = find(c, b);
  const int *owner = (const int *)(void *)c->owner->data;
  return a == b || owner[a] < 0 || owner[b] < 0;
}

static int edge_src(sg_ctx *c, int e)
{
  return g_array_index(c->links, sg_link, e / 2).slot + 2 * (e % 2);
}

static int edge_dst(sg_ctx *c, int e)
{
  return edge_src(c, e) + 1;
}

static void edge_use(sg_ctx *c, int e, int line)
{
  int *l = &g_array_index(c->edge_line, int, e);
  if (!*l)
    *l = line;
}

/* ---- numbers with SimGrid's units ---- */

static gboolean sg_number(sg_ctx *c, const char *elem, const char *attr, const char *text,
                          units_quantity q, double *out, GError **error)
{
  double num;
  const char *rest;
  g_autofree char *conv = NULL;
  if (!units_split(text, &num, &rest))
    goto bad;
  size_t nr = strlen(rest), np = (size_t)(rest - text);
  if (q == UNITS_BANDWIDTH && nr >= 3 && !strcmp(rest + nr - 3, "Bps"))
    conv = g_strdup_printf("%.*s%.*sB/s", (int)np, text, (int)(nr - 3), rest);
  else if (q == UNITS_BANDWIDTH && nr >= 3 && !strcmp(rest + nr - 3, "bps"))
    conv = g_strdup_printf("%.*s%.*sbit/s", (int)np, text, (int)(nr - 3), rest);
  else if (q == UNITS_TIME && nr == 1 && strchr("mhdw", rest[0])) {
    static const double mult[] = { 60, 3600, 86400, 604800 };
    *out = num * mult[strchr("mhdw", rest[0]) - "mhdw"];
    return TRUE;
  } else if (q == UNITS_NUMBER) { /* speeds: flops; a list of pstates, the first */
    size_t first = strcspn(rest, ",");
    if (first == 0) {
      *out = num;
      return num >= 0;
    }
    if (rest[first - 1] != 'f')
      goto bad;
    conv = g_strdup_printf("%.*s%.*s", (int)np, text, (int)(first - 1), rest);
  }
  GError *e = NULL;
  if (units_parse(conv ? conv : text, q, out, &e) && *out >= 0) {
    return TRUE;
  }
  g_clear_error(&e);
bad:
  return FAIL("<%s> %s=\"%s\": expected %s", elem, attr, text,
              q == UNITS_BANDWIDTH ? "a bandwidth like 1Gbps or 125MBps"
              : q == UNITS_TIME    ? "a time like 50us or 1e-4s"
                                   : "a speed like 1Gf");
}

/* ---- elements ---- */

static const char *attr(const char **names, const char **values, const char *key)
{
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], key))
      return values[i];
  return NULL;
}

static gboolean need(sg_ctx *c, const char *elem, const char **names, const char **values,
                     const char *key, const char **out, GError **error)
{
  *out = attr(names, values, key);
  if (*out && **out)
    return TRUE;
  return FAIL("<%s>: no %s, expected %s=\"...\"", elem, key, key);
}

static int cur_zone(sg_ctx *c)
{
  return c->zone_stack->len ? g_array_index(c->zone_stack, int, c->zone_stack->len - 1) : -1;
}

static gboolean add_point(sg_ctx *c, const char *name, gboolean host, int cores,
                          GError **error)
{
  if (g_hash_table_contains(c->point_by_name, name))
    return FAIL("host or router '%s' declared again, expected unique names", name);
  sg_point pt = { g_strdup(name), host, cur_zone(c), cores, 0, line_now(c) };
  int idx = (int)c->points->len;
  pt.slot = slot_new(c, idx);
  g_array_append_val(c->points, pt);
  g_hash_table_insert(c->point_by_name, pt.name, GINT_TO_POINTER(idx + 1));
  return TRUE;
}

static int add_link(sg_ctx *c, const char *name, double bw, double lat, int policy,
                    GError **error)
{
  if (g_hash_table_contains(c->link_by_name, name)) {
    FAIL("link '%s' declared again, expected unique link ids", name);
    return -1;
  }
  if (!(bw > 0) || !isfinite(bw) || !isfinite(lat)) {
    FAIL("link '%s': bandwidth %g, expected a positive bandwidth", name, bw);
    return -1;
  }
  sg_link l = { g_strdup(name), bw, lat, policy, 0, line_now(c) };
  l.slot = slot_new(c, -1);
  for (int i = 1; i < 4; i++)
    slot_new(c, -1);
  int idx = (int)c->links->len;
  g_array_append_val(c->links, l);
  int zero = 0;
  g_array_append_val(c->edge_line, zero);
  g_array_append_val(c->edge_line, zero);
  g_hash_table_insert(c->link_by_name, l.name, GINT_TO_POINTER(idx + 1));
  return idx;
}

static gboolean parse_policy(sg_ctx *c, const char *elem, const char *text, int def, int *out,
                             GError **error)
{
  if (!text) {
    *out = def;
    return TRUE;
  }
  static const char *const names[] = { "SHARED", "SPLITDUPLEX", "FATPIPE" };
  for (int i = 0; i < 3; i++)
    if (!strcmp(text, names[i])) {
      *out = i;
      return TRUE;
    }
  if (!strcmp(text, "FULLDUPLEX")) { /* SimGrid's old name of SPLITDUPLEX */
    *out = SH_SPLIT;
    return TRUE;
  }
  return FAIL("<%s> sharing_policy=\"%s\": expected SHARED, SPLITDUPLEX or FATPIPE", elem, text);
}

/* A hop by link name: "L" (direction from `dir`), or "L_UP" / "L_DOWN" of
 * a split-duplex link L. */
static gboolean resolve_hop(sg_ctx *c, const char *elem, const char *name, const char *dir,
                            int *hop, GError **error)
{
  int d = -1;
  if (dir && !strcmp(dir, "UP"))
    d = 0;
  else if (dir && !strcmp(dir, "DOWN"))
    d = 1;
  else if (dir && strcmp(dir, "NONE"))
    return FAIL("<%s id=\"%s\"> direction=\"%s\": expected UP, DOWN or NONE", elem, name, dir);
  int idx = GPOINTER_TO_INT(g_hash_table_lookup(c->link_by_name, name)) - 1;
  if (idx < 0) {
    size_t n = strlen(name);
    int cut = n > 3 && !strcmp(name + n - 3, "_UP") ? 3
              : n > 5 && !strcmp(name + n - 5, "_DOWN") ? 5 : 0;
    if (cut) {
      g_autofree char *base = g_strndup(name, n - (size_t)cut);
      idx = GPOINTER_TO_INT(g_hash_table_lookup(c->link_by_name, base)) - 1;
      if (idx >= 0 && g_array_index(c->links, sg_link, idx).policy == SH_SPLIT)
        d = cut == 3 ? 0 : 1;
      else
        idx = -1;
    }
  }
  if (idx < 0)
    return FAIL("<%s>: unknown link '%s', expected a link declared before", elem, name);
  *hop = idx << 2 | (d < 0 ? 0 : d) << 1 | (d >= 0);
  return TRUE;
}

static gboolean find_point(sg_ctx *c, const char *elem, const char *key, const char *name,
                           int *out, GError **error)
{
  *out = GPOINTER_TO_INT(g_hash_table_lookup(c->point_by_name, name)) - 1;
  if (*out >= 0)
    return TRUE;
  return FAIL("<%s> %s=\"%s\": unknown, expected a host or router declared before", elem, key,
              name);
}

/* A zone (a <zone>, or a cluster: zone routes name it); its index or -1. */
static int add_zone(sg_ctx *c, const char *id, int routing, GError **error)
{
  if (g_hash_table_contains(c->zone_by_name, id)) {
    FAIL("zone '%s' declared again, expected unique zone and cluster ids", id);
    return -1;
  }
  sg_zone z = { g_strdup(id), routing, cur_zone(c), line_now(c), -1, -1,
                g_array_new(FALSE, FALSE, sizeof(int)) };
  int idx = (int)c->zones->len;
  g_array_append_val(c->zones, z);
  g_hash_table_insert(c->zone_by_name, z.id, GINT_TO_POINTER(idx + 1));
  return idx;
}

/* "0-3,5,8-9" into its values (NULL: not a radical). */
static GArray *parse_radical(sg_ctx *c, const char *id, const char *text, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(text, ",", -1);
  uint64_t count = 0;
  for (int pass = 0; pass < 2; pass++) {
    GArray *v = pass ? g_array_sized_new(FALSE, FALSE, sizeof(int), (guint)count) : NULL;
    for (int i = 0; parts[i]; i++) {
      char *s = g_strstrip(parts[i]);
      char *dash = strchr(s + (*s == '-'), '-');
      guint64 lo, hi;
      g_autofree char *a = dash ? g_strndup(s, (gsize)(dash - s)) : g_strdup(s);
      if (!g_ascii_string_to_unsigned(a, 10, 0, G_MAXINT, &lo, NULL) ||
          !g_ascii_string_to_unsigned(dash ? dash + 1 : s, 10, lo, G_MAXINT, &hi, NULL)) {
        if (v)
          g_array_free(v, TRUE);
        FAIL("<cluster id=\"%s\"> radical=\"%s\": expected ranges like 0-99 or 0-3,8", id, text);
        return NULL;
      }
      if (!pass)
        count += hi - lo + 1;
      for (guint64 x = lo; pass && x <= hi; x++) {
        int xi = (int)x;
        g_array_append_val(v, xi);
      }
    }
    if (!pass) {
      /* a host costs its name, point, links and their slots */
      if (count > TOPO_MAX_NODES / 4) {
        FAIL("<cluster id=\"%s\">: %" G_GUINT64_FORMAT " hosts, expected at most %d", id, count,
             TOPO_MAX_NODES / 4);
        return NULL;
      }
      GError *e = NULL;
      if (!budget_check_array("a SimGrid cluster's hosts", count, 256, &e)) {
        FAIL("<cluster id=\"%s\">: %s", id, e->message);
        g_error_free(e);
        return NULL;
      }
    } else {
      return v;
    }
  }
  return NULL;
}

/* The host links of a cluster (FLAT) or Cluster zone: every host up to the
 * router point, the backbone (when there is one) from there to the down
 * side, down to the host. */
static gboolean wire_cluster(sg_ctx *c, int rpt, int backbone, const GArray *host_links,
                             int line, GError **error)
{
  int rs = rpt >= 0 ? g_array_index(c->points, sg_point, rpt).slot : -1;
  int up_side = rs >= 0 && backbone < 0 ? rs : slot_new(c, -1);
  int down_side = up_side;
  if (backbone >= 0) {
    int e = 2 * backbone;
    edge_use(c, e, line);
    if (joint(c, up_side, edge_src(c, e), line, "the backbone", error) < -1)
      return FALSE;
    down_side = edge_dst(c, e);
    /* SimGrid's routes to and from the router cross the backbone: the
     * router beyond it both ways, joints from its down side to the router
     * and from the router to its up side */
    if (rs >= 0) {
      add_joint(c, find(c, down_side), rs);
      add_joint(c, rs, find(c, up_side));
    }
  }
  for (guint i = 0; i + 2 < host_links->len; i += 3) {
    int h = g_array_index(host_links, int, i);
    int up = g_array_index(host_links, int, i + 1), down = g_array_index(host_links, int, i + 2);
    int hs = g_array_index(c->points, sg_point, h).slot;
    int eu = (up >> 2) * 2 + ((up >> 1) & 1), ed = (down >> 2) * 2 + ((down >> 1) & 1);
    if (eu == ed)
      ed = eu ^ 1; /* one shared link: each direction its own */
    edge_use(c, eu, line);
    edge_use(c, ed, line);
    if (joint(c, hs, edge_src(c, eu), line, "a host link", error) < -1 ||
        joint(c, edge_dst(c, eu), up_side, line, "a host link", error) < -1 ||
        joint(c, down_side, edge_src(c, ed), line, "a host link", error) < -1 ||
        joint(c, edge_dst(c, ed), hs, line, "a host link", error) < -1)
      return FALSE;
  }
  return TRUE;
}

static void kf_double(GKeyFile *kf, const char *group, const char *key, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_key_file_set_value(kf, group, key, g_ascii_dtostr(buf, sizeof buf, v));
}

/* "a,b;c,d" into rows of ints; the count of rows, -1 when malformed. */
static int parse_rows(const char *text, int rows[][TOPO_MAX_LEVELS], int *cols, int max_rows)
{
  g_auto(GStrv) r = g_strsplit(text, ";", -1);
  int n = (int)g_strv_length(r);
  if (n < 1 || n > max_rows)
    return -1;
  for (int i = 0; i < n; i++) {
    g_auto(GStrv) v = g_strsplit(r[i], ",", -1);
    cols[i] = (int)g_strv_length(v);
    if (cols[i] < 1 || cols[i] > TOPO_MAX_LEVELS)
      return -1;
    for (int j = 0; j < cols[i]; j++) {
      guint64 x;
      if (!g_ascii_string_to_unsigned(g_strstrip(v[j]), 10, 1, 1 << 20, &x, NULL))
        return -1;
      rows[i][j] = (int)x;
    }
  }
  return n;
}

/* A TORUS, FAT_TREE or DRAGONFLY cluster as the INI key file of mapsim's
 * family; its host count must be the topology's. */
static gboolean family_cluster(sg_ctx *c, const char *id, const char *topology,
                               const char *params, double bw, double lat, int cores,
                               int nhosts, GError **error)
{
  int rows[4][TOPO_MAX_LEVELS], cols[4];
  int64_t expect = 1;
  GKeyFile *kf = g_key_file_new();
  g_key_file_set_value(kf, "platform", "name", id);
  if (!params) {
    g_key_file_free(kf);
    return FAIL("<cluster id=\"%s\"> topology=\"%s\": no topo_parameters, expected them", id,
                topology);
  }
  if (!strcmp(topology, "TORUS")) {
    int n = parse_rows(params, rows, cols, 1);
    if (n != 1) {
      g_key_file_free(kf);
      return FAIL("<cluster id=\"%s\"> topo_parameters=\"%s\": expected 1 to %d sizes like 4,4,4",
                  id, params, TOPO_MAX_DIMS);
    }
    GString *shape = g_string_new(NULL);
    for (int d = 0; d < cols[0]; d++) {
      g_string_append_printf(shape, "%s%d", d ? "x" : "", rows[0][d]);
      expect *= rows[0][d];
    }
    g_key_file_set_value(kf, "topology", "shape", shape->str);
    g_key_file_set_value(kf, "topology", "connectivity", "torus");
    g_key_file_set_value(kf, "routing", "tie", "simgrid");
    g_string_free(shape, TRUE);
  } else if (!strcmp(topology, "FAT_TREE")) {
    int n = parse_rows(params, rows, cols, 4);
    gboolean ok = n == 4 && cols[0] == 1 && rows[0][0] <= TOPO_MAX_LEVELS;
    for (int i = 1; ok && i < 4; i++)
      ok = cols[i] == rows[0][0];
    if (!ok) {
      g_key_file_free(kf);
      return FAIL("<cluster id=\"%s\"> topo_parameters=\"%s\": expected L;down...;up...;"
                  "parallel... with L numbers each (L at most %d)", id, params, TOPO_MAX_LEVELS);
    }
    static const char *const keys[] = { "down", "up", "parallel" };
    for (int i = 1; i < 4; i++) {
      GString *s = g_string_new(NULL);
      for (int j = 0; j < cols[i]; j++)
        g_string_append_printf(s, "%s%d", j ? "," : "", rows[i][j]);
      g_key_file_set_value(kf, "topology", keys[i - 1], s->str);
      g_string_free(s, TRUE);
    }
    for (int j = 0; j < cols[1]; j++)
      expect *= rows[1][j];
    g_key_file_set_value(kf, "topology", "kind", "fattree");
  } else {
    int n = parse_rows(params, rows, cols, 4);
    gboolean ok = n == 4 && cols[0] == 2 && cols[1] == 2 && cols[2] == 2 && cols[3] == 1;
    if (!ok) {
      g_key_file_free(kf);
      return FAIL("<cluster id=\"%s\"> topo_parameters=\"%s\": expected G,Lg;C,Lc;R,Lr;N", id,
                  params);
    }
    if (rows[1][0] != 1 || rows[0][1] != 1 || rows[1][1] != 1 || rows[2][1] != 1) {
      g_key_file_free(kf);
      return FAIL("<cluster id=\"%s\"> topo_parameters=\"%s\": expected one chassis per group "
                  "and one link per pair (G,1;1,1;R,1;N: mapsim's dragonfly joins every router "
                  "of a group to every other)", id, params);
    }
    expect = (int64_t)rows[0][0] * rows[2][0] * rows[3][0];
    g_key_file_set_value(kf, "topology", "kind", "dragonfly");
    g_key_file_set_integer(kf, "topology", "groups", rows[0][0]);
    g_key_file_set_integer(kf, "topology", "routers_per_group", rows[2][0]);
    g_key_file_set_integer(kf, "topology", "nodes_per_router", rows[3][0]);
    g_key_file_set_integer(kf, "topology", "global_ports", 1);
    g_key_file_set_value(kf, "topology", "arrangement", "simgrid");
  }
  if (expect != nhosts) {
    g_key_file_free(kf);
    return FAIL("<cluster id=\"%s\">: %d hosts in radical, expected %" G_GINT64_FORMAT
                " (the hosts topo_parameters=\"%s\" has)", id, nhosts, expect, params);
  }
  kf_double(kf, "linktype.link", "bandwidth", bw);
  kf_double(kf, "linktype.link", "latency", lat);
  g_key_file_set_integer(kf, "nodes", "cores", cores);
  c->family_kf = kf;
  c->family_line = line_now(c);
  return TRUE;
}

static gboolean start_cluster(sg_ctx *c, const char **n, const char **v, GError **error)
{
  const char *id, *prefix = attr(n, v, "prefix"), *suffix = attr(n, v, "suffix"), *radical;
  const char *bws, *lats;
  if (!need(c, "cluster", n, v, "id", &id, error) ||
      !need(c, "cluster", n, v, "radical", &radical, error) ||
      !need(c, "cluster", n, v, "bw", &bws, error) ||
      !need(c, "cluster", n, v, "lat", &lats, error))
    return FALSE;
  double bw, lat, speed;
  const char *sp = attr(n, v, "speed"), *core = attr(n, v, "core");
  if (!sg_number(c, "cluster", "bw", bws, UNITS_BANDWIDTH, &bw, error) ||
      !sg_number(c, "cluster", "lat", lats, UNITS_TIME, &lat, error) ||
      (sp && !sg_number(c, "cluster", "speed", sp, UNITS_NUMBER, &speed, error)))
    return FALSE;
  c->speeds = c->speeds || sp;
  guint64 cores = 1;
  if (core && !g_ascii_string_to_unsigned(core, 10, 1, PLATFORM_MAX_CORES, &cores, NULL))
    return FAIL("<cluster id=\"%s\"> core=\"%s\": expected 1 to %d", id, core,
                PLATFORM_MAX_CORES);
  int policy;
  if (!parse_policy(c, "cluster", attr(n, v, "sharing_policy"), SH_SPLIT, &policy, error))
    return FALSE;
  const char *topology = attr(n, v, "topology");
  if (!topology)
    topology = "FLAT";
  if (strcmp(topology, "FLAT") && strcmp(topology, "TORUS") && strcmp(topology, "FAT_TREE") &&
      strcmp(topology, "DRAGONFLY"))
    return FAIL("<cluster id=\"%s\"> topology=\"%s\": expected FLAT, TORUS, FAT_TREE or "
                "DRAGONFLY", id, topology);
  GArray *rad = parse_radical(c, id, radical, error);
  if (!rad)
    return FALSE;
  gboolean ok = TRUE;
  if (strcmp(topology, "FLAT")) {
    c->family_clusters++;
    if (c->family_clusters > 1 || c->family_kf) {
      g_array_free(rad, TRUE);
      return FAIL("<cluster id=\"%s\">: a second TORUS, FAT_TREE or DRAGONFLY cluster, "
                  "expected such a cluster as the whole platform", id);
    }
    ok = family_cluster(c, id, topology, attr(n, v, "topo_parameters"), bw, lat, (int)cores,
                        (int)rad->len, error);
    c->family_hosts = (int)rad->len;
    c->family_names = g_new0(char *, rad->len + 1);
    for (guint i = 0; ok && i < rad->len; i++)
      c->family_names[i] = g_strdup_printf("%s%d%s", prefix ? prefix : "",
                                           g_array_index(rad, int, i), suffix ? suffix : "");
    g_array_free(rad, TRUE);
    return ok;
  }
  /* FLAT: a Cluster zone of its own */
  c->other_elements++;
  if (add_zone(c, id, SG_CLUSTER, error) < 0) {
    g_array_free(rad, TRUE);
    return FALSE;
  }
  const char *bbs = attr(n, v, "bb_bw"), *bbl = attr(n, v, "bb_lat");
  int backbone = -1;
  GArray *hl = g_array_new(FALSE, FALSE, sizeof(int));
  for (guint i = 0; ok && i < rad->len; i++) {
    g_autofree char *name = g_strdup_printf("%s%d%s", prefix ? prefix : "",
                                            g_array_index(rad, int, i), suffix ? suffix : "");
    g_autofree char *lname = g_strdup_printf("%s_link_%d", id, g_array_index(rad, int, i));
    int h = (int)c->points->len;
    ok = add_point(c, name, TRUE, (int)cores, error);
    int l = ok ? add_link(c, lname, bw, lat, policy, error) : -1;
    ok = l >= 0;
    int up = l << 2, down = l << 2 | 2;
    g_array_append_val(hl, h);
    g_array_append_val(hl, up);
    g_array_append_val(hl, down);
  }
  g_array_free(rad, TRUE);
  int rpt = -1;
  if (ok) {
    const char *rid = attr(n, v, "router_id");
    g_autofree char *rname = rid ? g_strdup(rid)
                                 : g_strdup_printf("%s%s_router%s", prefix ? prefix : "", id,
                                                   suffix ? suffix : "");
    rpt = (int)c->points->len;
    ok = add_point(c, rname, FALSE, 1, error);
  }
  if (ok && bbs) {
    double bbw, bblat = 0;
    int bpol;
    g_autofree char *bname = g_strdup_printf("%s_backbone", id);
    ok = sg_number(c, "cluster", "bb_bw", bbs, UNITS_BANDWIDTH, &bbw, error) &&
         (!bbl || sg_number(c, "cluster", "bb_lat", bbl, UNITS_TIME, &bblat, error)) &&
         parse_policy(c, "cluster", attr(n, v, "bb_sharing_policy"), SH_SHARED, &bpol, error) &&
         (backbone = add_link(c, bname, bbw, bblat, bpol, error)) >= 0;
  }
  ok = ok && wire_cluster(c, rpt, backbone, hl, line_now(c), error);
  g_array_free(hl, TRUE);
  return ok;
}

static const char *const ignored_elements[] = {
  "prop", "config", "trace", "trace_connect", "disk", "storage", "storage_type", "mount",
  "bypassZoneRoute", "bypassASroute", "actor", "process", "argument",
  "model_prop", "include", "random", "peer", "mstorage", NULL
};

static void start_element(GMarkupParseContext *mc, const char *elem, const char **n,
                          const char **v, gpointer data, GError **error)
{
  sg_ctx *c = data;
  if (c->ignore_depth > 0 || g_strv_contains(ignored_elements, elem)) {
    if (!c->ignore_depth && strcmp(elem, "prop") && strcmp(elem, "config")) {
      gboolean seen = FALSE;
      for (guint i = 0; i < c->ignored->len; i++)
        seen = seen || !strcmp(g_ptr_array_index(c->ignored, i), elem);
      if (!seen)
        g_ptr_array_add(c->ignored, g_strdup(elem));
    }
    c->ignore_depth++;
    return;
  }
  const GSList *stack = g_markup_parse_context_get_element_stack(mc);
  gboolean root = stack && !stack->next;
  if (!strcmp(elem, "platform")) {
    const char *version = attr(n, v, "version");
    if (!root) {
      FAIL("<platform> inside another element, expected it as the root");
      return;
    }
    if (!version || (strcmp(version, "4") && !g_str_has_prefix(version, "4."))) {
      FAIL("<platform version=\"%s\">: expected version=\"4.1\" (SimGrid's 4.x format)",
           version ? version : "");
      return;
    }
    c->saw_platform = TRUE;
    return;
  }
  if (root) {
    FAIL("<%s> as the root, expected <platform version=\"4.1\">", elem);
    return;
  }
  if (c->family_kf) {
    FAIL("<%s> after a TORUS, FAT_TREE or DRAGONFLY cluster, expected such a cluster as the "
         "whole platform", elem);
    return;
  }
  if (!strcmp(elem, "zone") || !strcmp(elem, "AS")) {
    const char *id, *routing;
    if (!need(c, elem, n, v, "id", &id, error) || !need(c, elem, n, v, "routing", &routing, error))
      return;
    int r = -1;
    for (int i = 0; i < (int)G_N_ELEMENTS(routing_names); i++)
      if (!strcmp(routing, routing_names[i]))
        r = i;
    if (r < 0) {
      FAIL("<%s id=\"%s\"> routing=\"%s\": expected Full, Floyd, Dijkstra, DijkstraCache, "
           "Cluster or None", elem, id, routing);
      return;
    }
    int idx = add_zone(c, id, r, error);
    if (idx >= 0)
      g_array_append_val(c->zone_stack, idx);
    return;
  }
  if (!strcmp(elem, "cluster")) {
    start_cluster(c, n, v, error);
    return;
  }
  if (!strcmp(elem, "link_ctn")) {
    const char *id;
    int hop;
    if (c->cur_route < 0) {
      FAIL("<link_ctn> outside a route, expected it inside <route> or <zoneRoute>");
      return;
    }
    if (!need(c, elem, n, v, "id", &id, error) ||
        !resolve_hop(c, elem, id, attr(n, v, "direction"), &hop, error))
      return;
    g_array_append_val(c->hops, hop);
    g_array_index(c->routes, sg_route, c->cur_route).n++;
    return;
  }
  c->other_elements++;
  if (!strcmp(elem, "host")) {
    const char *id, *sp = attr(n, v, "speed"), *core = attr(n, v, "core");
    double speed;
    guint64 cores = 1;
    if (!need(c, elem, n, v, "id", &id, error) ||
        (sp && !sg_number(c, "host", "speed", sp, UNITS_NUMBER, &speed, error)))
      return;
    c->speeds = c->speeds || sp;
    if (core && !g_ascii_string_to_unsigned(core, 10, 1, PLATFORM_MAX_CORES, &cores, NULL)) {
      FAIL("<host id=\"%s\"> core=\"%s\": expected 1 to %d", id, core, PLATFORM_MAX_CORES);
      return;
    }
    add_point(c, id, TRUE, (int)cores, error);
    return;
  }
  if (!strcmp(elem, "router")) {
    const char *id;
    if (!need(c, elem, n, v, "id", &id, error) || !add_point(c, id, FALSE, 1, error))
      return;
    int z = cur_zone(c);
    if (z >= 0 && g_array_index(c->zones, sg_zone, z).routing == SG_CLUSTER)
      g_array_index(c->zones, sg_zone, z).rpt = (int)c->points->len - 1;
    return;
  }
  if (!strcmp(elem, "link") || !strcmp(elem, "backbone")) {
    const char *id, *bws, *lats = attr(n, v, "latency");
    double bw, lat = 0;
    int policy;
    if (!need(c, elem, n, v, "id", &id, error) ||
        !need(c, elem, n, v, "bandwidth", &bws, error) ||
        !sg_number(c, elem, "bandwidth", bws, UNITS_BANDWIDTH, &bw, error) ||
        (lats && !sg_number(c, elem, "latency", lats, UNITS_TIME, &lat, error)) ||
        !parse_policy(c, elem, attr(n, v, "sharing_policy"), SH_SHARED, &policy, error))
      return;
    int l = add_link(c, id, bw, lat, policy, error);
    int z = cur_zone(c);
    if (l >= 0 && !strcmp(elem, "backbone")) {
      if (z < 0 || g_array_index(c->zones, sg_zone, z).routing != SG_CLUSTER) {
        FAIL("<backbone id=\"%s\"> outside a Cluster zone, expected it in <zone "
             "routing=\"Cluster\">", id);
        return;
      }
      g_array_index(c->zones, sg_zone, z).backbone = l;
    }
    return;
  }
  if (!strcmp(elem, "cabinet")) {
    /* hosts PREFIX RADICAL SUFFIX of a Cluster zone, each with a
     * split-duplex link link_HOST */
    const char *id, *radical, *bws, *lats, *sp = attr(n, v, "speed");
    const char *prefix = attr(n, v, "prefix"), *suffix = attr(n, v, "suffix");
    double bw, lat, speed;
    int z = cur_zone(c);
    if (!need(c, elem, n, v, "id", &id, error) ||
        !need(c, elem, n, v, "radical", &radical, error) ||
        !need(c, elem, n, v, "bw", &bws, error) || !need(c, elem, n, v, "lat", &lats, error) ||
        !sg_number(c, elem, "bw", bws, UNITS_BANDWIDTH, &bw, error) ||
        !sg_number(c, elem, "lat", lats, UNITS_TIME, &lat, error) ||
        (sp && !sg_number(c, elem, "speed", sp, UNITS_NUMBER, &speed, error)))
      return;
    c->speeds = c->speeds || sp;
    if (z < 0 || g_array_index(c->zones, sg_zone, z).routing != SG_CLUSTER) {
      FAIL("<cabinet id=\"%s\"> outside a Cluster zone, expected it in <zone "
           "routing=\"Cluster\">", id);
      return;
    }
    GArray *rad = parse_radical(c, id, radical, error);
    if (!rad)
      return;
    GArray *hl = g_array_index(c->zones, sg_zone, z).host_links;
    for (guint i = 0; i < rad->len; i++) {
      g_autofree char *name = g_strdup_printf("%s%d%s", prefix ? prefix : "",
                                              g_array_index(rad, int, i), suffix ? suffix : "");
      g_autofree char *lname = g_strdup_printf("link_%s", name);
      int h = (int)c->points->len, l;
      if (!add_point(c, name, TRUE, 1, error) ||
          (l = add_link(c, lname, bw, lat, SH_SPLIT, error)) < 0)
        break;
      int up = l << 2, down = l << 2 | 2;
      g_array_append_val(hl, h);
      g_array_append_val(hl, up);
      g_array_append_val(hl, down);
    }
    g_array_free(rad, TRUE);
    return;
  }
  if (!strcmp(elem, "host_link")) {
    const char *id, *up, *down;
    int h, hu, hd, z = cur_zone(c);
    if (!need(c, elem, n, v, "id", &id, error) || !need(c, elem, n, v, "up", &up, error) ||
        !need(c, elem, n, v, "down", &down, error) ||
        !find_point(c, elem, "id", id, &h, error) ||
        !resolve_hop(c, elem, up, "UP", &hu, error) ||
        !resolve_hop(c, elem, down, "DOWN", &hd, error))
      return;
    if (z < 0 || g_array_index(c->zones, sg_zone, z).routing != SG_CLUSTER) {
      FAIL("<host_link id=\"%s\"> outside a Cluster zone, expected it in <zone "
           "routing=\"Cluster\">", id);
      return;
    }
    GArray *hl = g_array_index(c->zones, sg_zone, z).host_links;
    g_array_append_val(hl, h);
    g_array_append_val(hl, hu);
    g_array_append_val(hl, hd);
    return;
  }
  if (!strcmp(elem, "route") || !strcmp(elem, "zoneRoute") || !strcmp(elem, "ASroute") ||
      !strcmp(elem, "bypassRoute")) {
    gboolean bypass = !strcmp(elem, "bypassRoute");
    gboolean zr = strcmp(elem, "route") != 0 && !bypass;
    const char *src, *dst, *sym = attr(n, v, "symmetrical");
    sg_route r = { 0 };
    if (zr) {
      const char *gs, *gd;
      if (!need(c, elem, n, v, "src", &src, error) || !need(c, elem, n, v, "dst", &dst, error) ||
          !need(c, elem, n, v, "gw_src", &gs, error) ||
          !need(c, elem, n, v, "gw_dst", &gd, error) ||
          !find_point(c, elem, "gw_src", gs, &r.src, error) ||
          !find_point(c, elem, "gw_dst", gd, &r.dst, error))
        return;
      const char *zn[2] = { src, dst };
      for (int i = 0; i < 2; i++)
        if (!g_hash_table_contains(c->zone_by_name, zn[i])) {
          FAIL("<%s> %s=\"%s\": unknown zone, expected a zone declared before", elem,
               i ? "dst" : "src", zn[i]);
          return;
        }
    } else if (!need(c, elem, n, v, "src", &src, error) ||
               !need(c, elem, n, v, "dst", &dst, error) ||
               !find_point(c, elem, "src", src, &r.src, error) ||
               !find_point(c, elem, "dst", dst, &r.dst, error)) {
      return;
    }
    if (sym && strcmp(sym, "YES") && strcmp(sym, "NO") && strcmp(sym, "yes") &&
        strcmp(sym, "no")) {
      FAIL("<%s> symmetrical=\"%s\": expected YES or NO", elem, sym);
      return;
    }
    /* a bypass route is one way: SimGrid keeps the other's */
    r.symmetrical = !bypass && (!sym || !g_ascii_strcasecmp(sym, "YES"));
    r.bypass = bypass;
    r.first = (int)c->hops->len;
    r.line = line_now(c);
    r.zone = cur_zone(c);
    r.zone_route = zr;
    c->cur_route = (int)c->routes->len;
    g_array_append_val(c->routes, r);
    return;
  }
  FAIL("<%s>: unknown element, expected platform, zone, host, router, link, route, "
       "zoneRoute, link_ctn, cluster, backbone, host_link, prop or config", elem);
}

static void end_element(GMarkupParseContext *mc, const char *elem, gpointer data,
                        GError **error)
{
  sg_ctx *c = data;
  if (c->ignore_depth > 0) {
    c->ignore_depth--;
    return;
  }
  if (!strcmp(elem, "zone") || !strcmp(elem, "AS")) {
    int z = cur_zone(c);
    g_array_set_size(c->zone_stack, c->zone_stack->len - 1);
    sg_zone *zz = &g_array_index(c->zones, sg_zone, z);
    if (zz->routing == SG_CLUSTER)
      wire_cluster(c, zz->rpt, zz->backbone, zz->host_links, zz->line, error);
    return;
  }
  if (!strcmp(elem, "route") || !strcmp(elem, "zoneRoute") || !strcmp(elem, "ASroute") ||
      !strcmp(elem, "bypassRoute")) {
    sg_route *r = &g_array_index(c->routes, sg_route, c->cur_route);
    c->cur_route = -1;
    if (r->n == 0 && r->src != r->dst)
      fail_at(c, r->line, error, "<%s src=\"%s\" dst=\"%s\">: no link, expected at least one "
              "<link_ctn>", elem, point_name(c, r->src), point_name(c, r->dst));
  }
}

/* ---- from the parse to the platform ---- */

/* Walks route r one way (rev: the reverse of a symmetrical route) and
 * joins its links' ends; the edges into `edges`. */
static gboolean walk_route(sg_ctx *c, const sg_route *r, gboolean rev, GArray *edges,
                           GError **error)
{
  g_array_set_size(edges, 0);
  int from = rev ? r->dst : r->src, to = rev ? r->src : r->dst;
  int cur = g_array_index(c->points, sg_point, from).slot;
  int end = g_array_index(c->points, sg_point, to).slot;
  g_autofree char *what = g_strdup_printf("<%s src=\"%s\" dst=\"%s\">%s",
                                          r->zone_route ? "zoneRoute" : "route",
                                          point_name(c, r->src), point_name(c, r->dst),
                                          rev ? " (its way back)" : "");
  for (int k = 0; k < r->n; k++) {
    int hop = g_array_index(c->hops, int, r->first + (rev ? r->n - 1 - k : k));
    int link = hop >> 2, dir = (hop >> 1) & 1;
    const sg_link *l = &g_array_index(c->links, sg_link, link);
    int e;
    if (l->policy == SH_SPLIT) {
      e = 2 * link + (rev ? 1 - dir : dir);
    } else {
      /* the way that meets the route where it is: leaving the point the
       * route is at, else joinable there (and, the last link, at the
       * destination), the declared way first */
      int e0 = 2 * link + (rev ? 1 : 0), e1 = e0 ^ 1, fc = find(c, cur);
      gboolean last = k == r->n - 1;
      int score[2];
      for (int w = 0; w < 2; w++) {
        int ew = w ? e1 : e0;
        gboolean here = find(c, edge_src(c, ew)) == fc;
        gboolean fits = here || can_unite(c, cur, edge_src(c, ew));
        gboolean lands = !last || find(c, edge_dst(c, ew)) == find(c, end);
        gboolean lands_ok = !last || can_unite(c, edge_dst(c, ew), end);
        score[w] = (here ? 8 : 0) + (fits ? 4 : 0) + (lands ? 2 : 0) + (lands_ok ? 1 : 0);
      }
      e = score[1] > score[0] && !c->joints ? e1 : e0;
    }
    for (guint i = 0; i < edges->len; i++)
      if (g_array_index(edges, int, i) < 2 * (int)c->links->len &&
          g_array_index(edges, int, i) / 2 == link)
        return fail_at(c, r->line, error, "%s: link '%s' twice, expected each link once", what,
                       l->name);
    edge_use(c, e, r->line);
    g_autofree char *at = g_strdup_printf("%s at link '%s'", what, l->name);
    int g = joint(c, cur, edge_src(c, e), r->line, at, error);
    if (g < -1)
      return FALSE;
    if (g >= 0) {
      int code = 2 * (int)c->links->len + g;
      g_array_append_val(edges, code);
    }
    cur = edge_dst(c, e);
    g_array_append_val(edges, e);
  }
  int g = joint(c, cur, end, r->line, what, error);
  if (g >= 0) {
    int code = 2 * (int)c->links->len + g;
    g_array_append_val(edges, code);
  }
  return g >= -1;
}

/* The zone routing a route of zone z is listed for. */
static int zone_routing(sg_ctx *c, int z)
{
  return z < 0 ? SG_FULL : g_array_index(c->zones, sg_zone, z).routing;
}

static platform *build(sg_ctx *c, GError **error)
{
  /* every route's links, both ways; the explicit ones kept for the table */
  GArray *edges = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *paths = g_array_new(FALSE, FALSE, sizeof(int)); /* src dst line n edges... */
  platform *p = NULL;
  int *vertex = NULL, *link_of = NULL;
  for (guint i = 0; i < c->routes->len; i++) {
    const sg_route *r = &g_array_index(c->routes, sg_route, i);
    if (r->src == r->dst)
      continue; /* a loopback: same-node messages take no network */
    for (int rev = 0; rev <= (r->symmetrical ? 1 : 0); rev++) {
      if (!walk_route(c, r, rev, edges, error))
        goto out;
      if (!r->bypass && (r->zone_route || zone_routing(c, r->zone) != SG_FULL))
        continue;
      int head[5] = { rev ? r->dst : r->src, rev ? r->src : r->dst, rev ? -r->line : r->line,
                      (int)edges->len, r->bypass };
      g_array_append_vals(paths, head, 5);
      g_array_append_vals(paths, edges->data, edges->len);
    }
  }
  /* vertices: hosts, routers that links reach, then the meeting points */
  int nslots = (int)c->uf->len, nv = 0, nhosts = 0;
  vertex = g_new(int, nslots);
  for (int s = 0; s < nslots; s++)
    vertex[s] = -1;
  int nedges = 2 * (int)c->links->len;
  gboolean *touched = g_new0(gboolean, nslots);
  for (int e = 0; e < nedges; e++)
    if (g_array_index(c->edge_line, int, e)) {
      touched[find(c, edge_src(c, e))] = TRUE;
      touched[find(c, edge_dst(c, e))] = TRUE;
    }
  int njoints = (int)c->joint_from->len;
  for (int g = 0; g < njoints; g++) {
    touched[find(c, g_array_index(c->joint_from, int, g))] = TRUE;
    touched[find(c, g_array_index(c->joint_to, int, g))] = TRUE;
  }
  GPtrArray *names = g_ptr_array_new();
  int cores = 0;
  gboolean cores_differ = FALSE;
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < c->points->len; i++) {
      const sg_point *pt = &g_array_index(c->points, sg_point, i);
      int root = find(c, pt->slot);
      if (pt->host != !pass || (!pt->host && !touched[root]))
        continue;
      vertex[root] = nv++;
      g_ptr_array_add(names, g_strdup(pt->name));
      if (pt->host) {
        nhosts++;
        cores_differ = cores_differ || (cores && cores != pt->cores);
        cores = cores ? MIN(cores, pt->cores) : pt->cores;
      }
    }
  for (int e = 0; e < nedges; e++)
    for (int end = 0; end < 2 && g_array_index(c->edge_line, int, e); end++) {
      int root = find(c, end ? edge_dst(c, e) : edge_src(c, e));
      if (vertex[root] >= 0)
        continue;
      vertex[root] = nv++;
      const sg_link *l = &g_array_index(c->links, sg_link, e / 2);
      g_ptr_array_add(names, g_strdup_printf("%s:%s%s", end ? "after" : "before", l->name,
                                             l->policy == SH_SPLIT ? (e % 2 ? "_DOWN" : "_UP")
                                                                   : ""));
    }
  for (int sl = 0; sl < nslots; sl++)
    if (touched[sl] && find(c, sl) == sl && vertex[sl] < 0) {
      vertex[sl] = nv++;
      g_ptr_array_add(names, g_strdup_printf("point%d", nv - 1));
    }
  for (int sl = 0; sl < nslots; sl++)
    vertex[sl] = vertex[find(c, sl)];
  g_free(touched);
  g_ptr_array_add(names, NULL);
  char **namev = (char **)g_ptr_array_free(names, FALSE);
  if (nhosts == 0) {
    g_strfreev(namev);
    fail_at(c, 1, error, "no host, expected <host> or <cluster> elements");
    goto out;
  }
  /* links: the used edges in order; their types by (bandwidth, latency) */
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *typ = g_array_new(FALSE, FALSE, sizeof(uint8_t));
  link_of = g_new(int, MAX(nedges + njoints, 1));
  p = platform_alloc(c->path);
  gboolean shared_both = FALSE, fatpipe = FALSE;
  /* a link type per SimGrid link (its name in messages) while they fit,
   * else one per bandwidth and latency */
  int used_links = 0;
  for (int e = 0; e < nedges; e += 2)
    used_links += g_array_index(c->edge_line, int, e) || g_array_index(c->edge_line, int, e + 1);
  gboolean per_link = used_links <= 255;
  for (int e = 0; e < nedges; e++) {
    link_of[e] = -1;
    int line = g_array_index(c->edge_line, int, e);
    if (!line)
      continue;
    const sg_link *l = &g_array_index(c->links, sg_link, e / 2);
    int a = vertex[find(c, edge_src(c, e))], b = vertex[find(c, edge_dst(c, e))];
    if (a == b) {
      c->conflict = TRUE;
      fail_at(c, line, error, "link '%s' would lead from %s back to it, expected the routes "
              "listing it to cross it between two points", l->name, namev[a]);
      g_strfreev(namev);
      g_array_free(src, TRUE);
      g_array_free(dst, TRUE);
      g_array_free(typ, TRUE);
      platform_free(p);
      p = NULL;
      goto out;
    }
    shared_both = shared_both || (l->policy == SH_SHARED && (e % 2) &&
                                  g_array_index(c->edge_line, int, e - 1));
    fatpipe = fatpipe || l->policy == SH_FATPIPE;
    int t = -1;
    for (int k = 0; k < p->nlinktypes && t < 0; k++)
      if (per_link ? !strcmp(p->linktypes[k].name, l->name)
                   : p->linktypes[k].bandwidth == l->bw && p->linktypes[k].latency == l->lat)
        t = k;
    if (t < 0 && p->nlinktypes < 255)
      t = platform_add_linktype(p, l->name, l->bw, l->lat, c->path, NULL);
    if (t < 0)
      t = p->nlinktypes - 1; /* the arrays below carry the exact values */
    uint8_t t8 = (uint8_t)t;
    link_of[e] = (int)src->len;
    g_array_append_val(src, a);
    g_array_append_val(dst, b);
    g_array_append_val(typ, t8);
  }
  for (int g = 0; g < njoints; g++) {
    int a = vertex[g_array_index(c->joint_from, int, g)];
    int b = vertex[g_array_index(c->joint_to, int, g)];
    int t = platform_find_linktype(p, "joint");
    if (t < 0)
      t = platform_add_linktype(p, "joint", JOINT_BW, 0, c->path, NULL);
    if (t < 0)
      t = p->nlinktypes - 1;
    uint8_t t8 = (uint8_t)t;
    link_of[nedges + g] = (int)src->len;
    g_array_append_val(src, a);
    g_array_append_val(dst, b);
    g_array_append_val(typ, t8);
  }
  if (p->nlinktypes == 0) /* one host, no link */
    platform_add_linktype(p, "none", 1, 0, c->path, NULL);
  gboolean ok = platform_build_graph(p, nv, (int)src->len, (int *)(void *)src->data,
                                     (int *)(void *)dst->data, (uint8_t *)typ->data, error);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(typ, TRUE);
  p->names = namev;
  if (!ok) {
    g_prefix_error(error, "%s: ", c->path);
    goto fail;
  }
  for (int e = 0; e < nedges; e++)
    if (link_of[e] >= 0) {
      const sg_link *l = &g_array_index(c->links, sg_link, e / 2);
      p->link_bw[link_of[e]] = l->bw;
      p->link_lat[link_of[e]] = l->lat;
    }
  for (int g = 0; g < njoints; g++) {
    p->link_bw[link_of[nedges + g]] = JOINT_BW;
    p->link_lat[link_of[nedges + g]] = 0;
  }
  p->cores_per_node = cores;
  int *hosts = g_new(int, nhosts);
  for (int i = 0; i < nhosts; i++)
    hosts[i] = i;
  ok = platform_set_allocation_nodes(p, hosts, nhosts, error);
  g_free(hosts);
  if (!ok || !platform_finish(p, NULL, error))
    goto fail;
  /* a Full zone's routes: the router's table */
  size_t n = (size_t)nv;
  if (paths->len) {
    if (!budget_check_array("a SimGrid platform's route table", (uint64_t)n * n, 2 * sizeof(int),
                            error))
      goto fail;
    int *off = g_new(int, n * n), *len = g_new0(int, n * n);
    int *line_of = g_new0(int, n * n);
    GArray *links = g_array_new(FALSE, FALSE, sizeof(int));
    for (size_t i = 0; i < n * n; i++)
      off[i] = -1;
    for (guint i = 0; i < paths->len;) {
      const int *h = &g_array_index(paths, int, i);
      int a = vertex[g_array_index(c->points, sg_point, h[0]).slot];
      int b = vertex[g_array_index(c->points, sg_point, h[1]).slot];
      size_t pair = (size_t)a * n + (size_t)b;
      int line = h[2], count = h[3], bypass = h[4];
      /* a route given twice is a mistake; a symmetrical route's way back
       * yields to a route given for it, and every route to a bypass route
       * (line_of: its line + the file's lines, above every other) */
      if (bypass)
        line += 1 << 30;
      if (off[pair] >= 0 && line > 0 && line_of[pair] > 0 &&
          (line >= 1 << 30) == (line_of[pair] >= 1 << 30)) {
        fail_at(c, line % (1 << 30), error, "a second route %s -> %s (the first on line %d), "
                "expected one per pair", point_name(c, h[0]), point_name(c, h[1]),
                line_of[pair] % (1 << 30));
        g_free(off);
        g_free(len);
        g_free(line_of);
        g_array_free(links, TRUE);
        goto fail;
      }
      if (off[pair] < 0 || (line > 0 && line_of[pair] < 0) || line > line_of[pair]) {
        off[pair] = (int)links->len;
        len[pair] = count;
        line_of[pair] = line;
        for (int k = 0; k < count; k++) {
          int l = link_of[h[5 + k]];
          g_array_append_val(links, l);
        }
      }
      i += 5 + (guint)count;
    }
    g_free(line_of);
    router_set_table(p->router, off, len, (int *)(void *)g_array_free(links, FALSE));
  }
  if (c->speeds)
    g_ptr_array_add(p->notes, g_strdup_printf("%s: host speeds not modeled (compute times are "
                                              "the trace's)", c->path));
  if (cores_differ)
    g_ptr_array_add(p->notes, g_strdup_printf("%s: hosts of different core counts, %d each "
                                              "(the fewest)", c->path, cores));
  if (shared_both)
    g_ptr_array_add(p->notes, g_strdup_printf("%s: SHARED links carry each direction at their "
                                              "bandwidth (SimGrid shares it between both)",
                                              c->path));
  if (njoints)
    g_ptr_array_add(p->notes, g_strdup_printf("%s: routes list links that do not meet point to "
                                              "point (a link ending at several hosts): every "
                                              "link end is a point of its own, and %d joints (no "
                                              "latency, %g bytes/s) join them; hop counts count "
                                              "the joints", c->path, njoints, JOINT_BW));
  if (fatpipe)
    g_ptr_array_add(p->notes, g_strdup_printf("%s: FATPIPE links are shared by their flows "
                                              "(SimGrid gives each its whole bandwidth)", c->path));
  goto out;
fail:
  platform_free(p);
  p = NULL;
out:
  g_free(vertex);
  g_free(link_of);
  g_array_free(edges, TRUE);
  g_array_free(paths, TRUE);
  return p;
}

static void passthrough(GMarkupParseContext *mc, const char *text, gsize len, gpointer data,
                        GError **error)
{
}

static void ctx_free(sg_ctx *c)
{
  for (guint i = 0; i < c->points->len; i++)
    g_free(g_array_index(c->points, sg_point, i).name);
  for (guint i = 0; i < c->links->len; i++)
    g_free(g_array_index(c->links, sg_link, i).name);
  for (guint i = 0; i < c->zones->len; i++) {
    g_free(g_array_index(c->zones, sg_zone, i).id);
    g_array_free(g_array_index(c->zones, sg_zone, i).host_links, TRUE);
  }
  g_array_free(c->points, TRUE);
  g_array_free(c->links, TRUE);
  g_array_free(c->zones, TRUE);
  g_array_free(c->routes, TRUE);
  g_array_free(c->hops, TRUE);
  g_array_free(c->zone_stack, TRUE);
  g_array_free(c->uf, TRUE);
  g_array_free(c->owner, TRUE);
  g_array_free(c->edge_line, TRUE);
  g_hash_table_destroy(c->point_by_name);
  g_hash_table_destroy(c->link_by_name);
  g_hash_table_destroy(c->zone_by_name);
  g_ptr_array_unref(c->ignored);
  g_array_free(c->joint_from, TRUE);
  g_array_free(c->joint_to, TRUE);
  g_hash_table_destroy(c->joint_of);
  if (c->family_kf)
    g_key_file_free(c->family_kf);
  g_strfreev(c->family_names);
}

/* The family cluster's platform, its hosts named as SimGrid names them. */
static platform *build_family(sg_ctx *c, GError **error)
{
  platform *p = platform_from_keyfile(c->family_kf, c->path, NULL, error);
  if (!p) {
    if (error && *error && !g_str_has_prefix((*error)->message, c->path))
      g_prefix_error(error, "%s:%d: ", c->path, c->family_line);
    return NULL;
  }
  int nn = p->topo->nnodes, hosts = topo_compute_nodes(p->topo);
  p->names = g_new0(char *, nn + 1);
  for (int i = 0; i < nn; i++)
    p->names[i] = i < hosts ? g_strdup(c->family_names[i])
                            : g_strdup_printf("switch%d", i - hosts);
  return p;
}

/* One reading of the text, with joints or without; *conflict when it
 * failed for links that do not meet point to point. */
static platform *load_text(const char *path, const char *text, gsize len, gboolean joints,
                           gboolean *conflict, GError **error)
{
  sg_ctx c = { .path = path, .cur_route = -1, .joints = joints };
  c.joint_from = g_array_new(FALSE, FALSE, sizeof(int));
  c.joint_to = g_array_new(FALSE, FALSE, sizeof(int));
  c.joint_of = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  c.points = g_array_new(FALSE, FALSE, sizeof(sg_point));
  c.links = g_array_new(FALSE, FALSE, sizeof(sg_link));
  c.zones = g_array_new(FALSE, FALSE, sizeof(sg_zone));
  c.routes = g_array_new(FALSE, FALSE, sizeof(sg_route));
  c.hops = g_array_new(FALSE, FALSE, sizeof(int));
  c.zone_stack = g_array_new(FALSE, FALSE, sizeof(int));
  c.uf = g_array_new(FALSE, FALSE, sizeof(int));
  c.owner = g_array_new(FALSE, FALSE, sizeof(int));
  c.edge_line = g_array_new(FALSE, FALSE, sizeof(int));
  c.point_by_name = g_hash_table_new(g_str_hash, g_str_equal);
  c.link_by_name = g_hash_table_new(g_str_hash, g_str_equal);
  c.zone_by_name = g_hash_table_new(g_str_hash, g_str_equal);
  c.ignored = g_ptr_array_new_with_free_func(g_free);
  static const GMarkupParser parser = { start_element, end_element, NULL, passthrough, NULL };
  GError *e = NULL;
  platform *p = NULL;
  c.mc = g_markup_parse_context_new(&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &c, NULL);
  gboolean ok = g_markup_parse_context_parse(c.mc, text, (gssize)len, &e) &&
                g_markup_parse_context_end_parse(c.mc, &e);
  if (!ok) {
    if (e->domain == PLATFORM_ERROR) {
      g_propagate_error(error, e);
    } else {
      /* GMarkup's own: "Error on line N char M: ..." */
      int line = line_now(&c);
      const char *msg = e->message, *colon = g_str_has_prefix(msg, "Error on line ")
                                                  ? strstr(msg, ": ") : NULL;
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s:%d: %s, expected a SimGrid platform file (well-formed XML)", path,
                  line ? line : 1, colon ? colon + 2 : msg);
      g_error_free(e);
    }
  } else if (!c.saw_platform) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s:1: no <platform> element, expected <platform version=\"4.1\">", path);
    ok = FALSE;
  }
  g_markup_parse_context_free(c.mc);
  c.mc = NULL;
  if (ok) {
    if (c.family_kf && c.other_elements)
      fail_at(&c, c.family_line, error, "a TORUS, FAT_TREE or DRAGONFLY cluster beside other "
              "hosts, links or routes, expected such a cluster as the whole platform");
    else
      p = c.family_kf ? build_family(&c, error) : build(&c, error);
  }
  if (p && c.ignored->len) {
    g_ptr_array_add(c.ignored, NULL);
    g_autofree char *list = g_strjoinv(", ", (char **)c.ignored->pdata);
    g_ptr_array_add(p->notes, g_strdup_printf("%s: not modeled, ignored: %s", path, list));
  }
  *conflict = c.conflict;
  ctx_free(&c);
  return p;
}

platform *platform_load_sgxml(const char *path, GError **error)
{
  char *text = NULL;
  gsize len = 0;
  if (!budget_read_text(path, "a SimGrid platform file", &text, &len, error))
    return NULL;
  gboolean conflict = FALSE;
  GError *e = NULL;
  platform *p = load_text(path, text, len, FALSE, &conflict, &e);
  if (!p && conflict) {
    g_clear_error(&e);
    p = load_text(path, text, len, TRUE, &conflict, &e);
  }
  if (e)
    g_propagate_error(error, e);
  g_free(text);
  return p;
}

gboolean platform_sgxml_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return FALSE;
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *s = buf;
  if (!strncmp(s, "\xEF\xBB\xBF", 3))
    s += 3;
  for (;;) {
    while (g_ascii_isspace(*s))
      s++;
    if (!strncmp(s, "<?", 2)) {
      const char *end = strstr(s, "?>");
      if (!end)
        return FALSE;
      s = end + 2;
    } else if (!strncmp(s, "<!--", 4)) {
      const char *end = strstr(s, "-->");
      if (!end)
        return FALSE;
      s = end + 3;
    } else {
      break;
    }
  }
  return !strncmp(s, "<!DOCTYPE platform", 18) ||
         (!strncmp(s, "<platform", 9) && (g_ascii_isspace(s[9]) || s[9] == '>'));
}
