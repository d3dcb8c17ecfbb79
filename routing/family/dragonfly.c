/* dragonfly.c - the dragonfly (Kim, Dally, Scott and Abts, "Technology-
 * driven, highly-scalable dragonfly topology", ISCA 2008): g groups of a
 * routers, all-to-all inside a group, p nodes per router, h global ports
 * per router; global cabling by arrangement (topology.h; Hastings et al.,
 * IEEE Cluster 2015), m = floor(a h / (g - 1)) parallel cables between
 * every pair of groups.
 *
 * Ids: nodes [0, N), N = g a p, node n on router n / p; router r (group
 * r / a, index r % a) is vertex N + r. Links: node n up = n, down = N + n;
 * local r -> (group, j) = local_base + r (a - 1) + (j < i ? j : j - 1);
 * copy c of group x -> y = global_base + (x (g - 1) + y') m + c, y' = y
 * or y - 1 above x. Routes: minimal and Valiant (route.h). Costs: a route
 * O(m) (the choice among parallel cables), facts O(g^2 m log m).
 */
#include "routing/family/family-private.h"

#include <stdlib.h>
#include <string.h>

#include "routing/platform-private.h"
#include "util/checked.h"

/* The parameters of t, a dragonfly (the family's own hooks: t->state). */
static inline const topo_dragonfly *df_of(const topo *t)
{
  return t->state;
}

const topo_dragonfly *topo_dragonfly_of(const topo *t)
{
  return t && t->ops == &family_dragonfly_ops ? t->state : NULL;
}

static void df_free_state(void *state)
{
  topo_dragonfly *df = state;
  g_free(df->gateway);
  g_free(df);
}


enum {
  DF_UP = TOPO_DF_NODE_UP,
  DF_DOWN = TOPO_DF_NODE_DOWN,
  DF_LOCAL = TOPO_DF_LOCAL,
  DF_GLOBAL = TOPO_DF_GLOBAL,
  DF_NCLASSES
};

static int nodes_of(const topo_dragonfly *df)
{
  return df->groups * df->routers * df->nodes_per_router;
}

/* Index of group y among the g - 1 groups other than x. */
static inline int other_index(int x, int y)
{
  return y < x ? y : y - 1;
}

static inline int gateway_at(const topo_dragonfly *df, int x, int y, int c)
{
  return df->gateway[((size_t)x * (df->groups - 1) + other_index(x, y)) * df->parallel + c];
}

static inline int global_link(const topo_dragonfly *df, int x, int y, int c)
{
  return df->global_base + (int)(((size_t)x * (df->groups - 1) + other_index(x, y)) *
                                 df->parallel + c);
}

static inline int local_link(const topo_dragonfly *df, int r, int j)
{
  int i = r % df->routers;
  return df->local_base + r * (df->routers - 1) + (j < i ? j : j - 1);
}

/* The target slot of group y among x's global ports (topology.h). */
static int slot_of(topo_arrangement arr, int g, int x, int y)
{
  int d = ((y - x) % g + g) % g;
  switch (arr) {
  case TOPO_ARRANGE_ABSOLUTE: return other_index(x, y);
  case TOPO_ARRANGE_RELATIVE: return d - 1;
  case TOPO_ARRANGE_CIRCULANT:
    return d < g - d ? 2 * (d - 1) : d > g - d ? 2 * (g - d - 1) + 1 : g - 2;
  case TOPO_ARRANGE_SIMGRID: return y;
  }
  return 0;
}

static gboolean check_params(const topo_dragonfly *in, GError **error)
{
  const char *bad = NULL;
  int g = in->groups, a = in->routers, h = in->global_ports;
  if (g < 1 || a < 1 || in->nodes_per_router < 1 || h < 0)
    bad = "g, a, p >= 1 and h >= 0";
  else if (g > 1 && (int64_t)a * h < g - 1)
    bad = "a * h >= g - 1 global ports per group, one to every other group";
  else if (in->arrangement == TOPO_ARRANGE_SIMGRID && g > 1 && (h != 1 || a < g))
    bad = "h = 1 and a >= g for arrangement simgrid (router y of group x leads to group y)";
  else if ((unsigned)in->arrangement > TOPO_ARRANGE_SIMGRID)
    bad = "a known arrangement";
  if (bad)
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "dragonfly g=%d a=%d p=%d h=%d: expected %s", g, a, in->nodes_per_router, h, bad);
  return bad == NULL;
}

topo *topo_new_dragonfly(const topo_dragonfly *in, GError **error)
{
  if (!check_params(in, error))
    return NULL;
  int64_t g = in->groups, a = in->routers, p = in->nodes_per_router;
  int64_t m = g < 2 ? 0 : in->arrangement == TOPO_ARRANGE_SIMGRID ? 1
                          : a * in->global_ports / (g - 1);
  /* in checked arithmetic: g, a, p and h up to 2^24 each overflow int64 */
  int64_t nodes, routers, local, global, links;
  if (!checked_mul_i64(g, a, &routers) || !checked_mul_i64(routers, p, &nodes) ||
      !checked_mul_i64(routers, a - 1, &local) || !checked_mul_i64(g * (g - 1), m, &global) ||
      !checked_add_i64(nodes, nodes, &links) ||
      !checked_add_i64(links, local, &links) || !checked_add_i64(links, global, &links)) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "dragonfly g=%d a=%d p=%d h=%d: more nodes and links than a 64-bit count "
                "holds, expected fewer than %d of each", in->groups, in->routers,
                in->nodes_per_router, in->global_ports, TOPO_MAX_NODES);
    return NULL;
  }
  if (nodes >= TOPO_MAX_NODES || links >= TOPO_MAX_LINKS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "dragonfly g=%d a=%d p=%d h=%d: %" G_GINT64_FORMAT " nodes, %" G_GINT64_FORMAT
                " links, expected fewer than %d of each", in->groups, in->routers,
                in->nodes_per_router, in->global_ports, nodes, links, TOPO_MAX_NODES);
    return NULL;
  }
  topo *t = family_alloc(&family_dragonfly_ops, nodes, routers, links, DF_NCLASSES, error);
  if (!t)
    return NULL;
  topo_dragonfly *df = g_new0(topo_dragonfly, 1);
  t->state = df;
  *df = *in;
  df->parallel = (int)m;
  df->local_base = (int)(2 * nodes);
  df->global_base = (int)(2 * nodes + routers * (a - 1));
  int N = (int)nodes;
  df->gateway = g_new(int, MAX(g * (g - 1) * m, 1));
  for (int x = 0; x < g; x++)
    for (int y = 0; y < g; y++)
      for (int c = 0; y != x && c < m; c++) {
        int k = slot_of(df->arrangement, (int)g, x, y) * (int)m + c;
        df->gateway[((size_t)x * (g - 1) + other_index(x, y)) * m + c] = k / in->global_ports;
      }
  for (int n = 0; n < N; n++) {
    family_set_link(t, n, n, N + (int)(n / p), DF_UP);
    family_set_link(t, N + n, N + (int)(n / p), n, DF_DOWN);
  }
  for (int r = 0; r < routers; r++)
    for (int j = 0; j < a; j++)
      if (j != r % a)
        family_set_link(t, local_link(df, r, j), N + r, N + (int)(r / a * a) + j, DF_LOCAL);
  for (int x = 0; x < g; x++)
    for (int y = 0; y < g; y++)
      for (int c = 0; y != x && c < m; c++)
        family_set_link(t, global_link(df, x, y, c), N + x * (int)a + gateway_at(df, x, y, c),
                        N + y * (int)a + gateway_at(df, y, x, c), DF_GLOBAL);
  family_finish(t);
  return t;
}

static char *df_describe(const topo *t)
{
  const topo_dragonfly *df = df_of(t);
  return g_strdup_printf("dragonfly g=%d a=%d p=%d h=%d %s, %d cable%s per pair of groups",
                         df->groups, df->routers, df->nodes_per_router, df->global_ports,
                         topo_arrangement_name(df->arrangement), df->parallel,
                         df->parallel == 1 ? "" : "s");
}

static const char *const class_names[DF_NCLASSES] = { "node up", "node down", "local", "global" };
static const char *const slot_names[] = { "node", "local", "global" };

static void df_class_name(const topo *t, int c, char *buf, size_t size)
{
  g_strlcpy(buf, c >= 0 && c < DF_NCLASSES ? class_names[c] : "?", size);
}

static int df_nslots(const topo *t)
{
  return G_N_ELEMENTS(slot_names);
}

static void df_slot_name(const topo *t, int s, char *buf, size_t size)
{
  g_strlcpy(buf, slot_names[s], size);
}

static int df_slot_of_class(const topo *t, int c)
{
  return c <= DF_DOWN ? 0 : c - 1;
}

static int df_reverse_link(const topo *t, int l)
{
  const topo_dragonfly *df = df_of(t);
  int N = nodes_of(df), a = df->routers;
  if (l < 2 * N)
    return l < N ? l + N : l - N;
  if (l < df->global_base) {
    int q = l - df->local_base, r = q / (a - 1), jj = q % (a - 1), i = r % a;
    int j = jj < i ? jj : jj + 1;
    return local_link(df, r - i + j, i);
  }
  int q = l - df->global_base, m = df->parallel, g = df->groups;
  int c = q % m, x = q / m / (g - 1), yi = q / m % (g - 1);
  return global_link(df, yi < x ? yi : yi + 1, x, c);
}

/* The cable of x -> y a minimal route from router index i (of x) to j (of
 * y; -1: any router of y) takes: one with the fewest local hops, among
 * equals copy (i + tie) mod their count. Stores its ends in *gi, *gj and
 * returns its local hops (0 to 2). */
static int choose_cable(const topo_dragonfly *df, int x, int y, int i, int j, int tie, int *c_out)
{
  int best = 3, nbest = 0;
  for (int c = 0; c < df->parallel; c++) {
    int cost = (gateway_at(df, x, y, c) != i) + (j >= 0 && gateway_at(df, y, x, c) != j);
    if (cost < best)
      best = cost, nbest = 0;
    nbest += cost == best;
  }
  int want = (i + tie) % nbest;
  for (int c = 0; c < df->parallel; c++) {
    int cost = (gateway_at(df, x, y, c) != i) + (j >= 0 && gateway_at(df, y, x, c) != j);
    if (cost == best && want-- == 0) {
      *c_out = c;
      break;
    }
  }
  return best;
}

static int df_hops(const topo *t, int s, int d)
{
  const topo_dragonfly *df = df_of(t);
  int p = df->nodes_per_router, a = df->routers;
  int rs = s / p, rd = d / p, x = rs / a, y = rd / a, c;
  if (rs == rd)
    return 2;
  if (x == y)
    return 3;
  return 3 + choose_cable(df, x, y, rs % a, rd % a, rd % a, &c);
}

/* Appends the hops from router index i of group x over a cable to y
 * (copy c) to links[]; returns the router index reached in y. */
static int cross(const topo_dragonfly *df, int x, int y, int i, int c, int *links, int *n)
{
  int a = df->routers, gi = gateway_at(df, x, y, c);
  if (gi != i)
    links[(*n)++] = local_link(df, x * a + i, gi);
  links[(*n)++] = global_link(df, x, y, c);
  return gateway_at(df, y, x, c);
}

/* The intermediate of candidate c (0 ..) of a per-packet Valiant
 * message, an index among the n = g - 2 groups other than both ends:
 * candidate c is group c when n <= ROUTE_SPREAD_MAX, else the c-th of
 * ROUTE_SPREAD_MAX evenly spaced groups from an offset drawn from the
 * seed and the key (distinct for distinct c). */
static int spread_group(const router *r, uint64_t key, int c, int n)
{
  if (n <= ROUTE_SPREAD_MAX)
    return c % n;
  int off = family_pick(family_hash(r->seed ^ 0x5A17u, key), n);
  return (int)((off + (int64_t)c * n / ROUTE_SPREAD_MAX) % n);
}

static int df_route(const router *r, int s, int d, uint64_t key, route_path path,
                    int variant, int *links)
{
  const topo_dragonfly *df = df_of(r->t);
  int N = nodes_of(df), p = df->nodes_per_router, a = df->routers, g = df->groups;
  int rs = s / p, rd = d / p, x = rs / a, y = rd / a, i = rs % a, j = rd % a, n = 0, c;
  gboolean valiant = path == ROUTE_PATH_NONMINIMAL ||
                     (path == ROUTE_PATH_DEFAULT && r->algo == ROUTE_ALGO_VALIANT);
  links[n++] = s;
  if (x != y && valiant && g > 2) {
    int z = variant > 0 ? spread_group(r, key, variant - 1, g - 2)
            : (r->flags & ROUTE_FLAG_SPREAD)
                ? spread_group(r, key, route_default_candidate(r, key), g - 2)
                : family_pick(family_hash(r->seed, key), g - 2);
    z += z >= MIN(x, y);
    z += z >= MAX(x, y);
    choose_cable(df, x, z, i, -1, z, &c);
    i = cross(df, x, z, i, c, links, &n);
    x = z;
  }
  if (x != y) {
    choose_cable(df, x, y, i, j, j, &c);
    i = cross(df, x, y, i, c, links, &n);
  }
  if (i != j)
    links[n++] = local_link(df, y * a + i, j);
  links[n++] = N + d;
  return n;
}

/* Distinct values of v[0..n-1] (sorts v). */
static int distinct(int *v, int n)
{
  int cnt = 0;
  for (int i = 0; i < n; i++)
    for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
      int tmp = v[k];
      v[k] = v[k - 1];
      v[k - 1] = tmp;
    }
  for (int i = 0; i < n; i++)
    cnt += i == 0 || v[i] != v[i - 1];
  return cnt;
}

/* Per pair of groups x != y, with RX, RY the routers holding their cables
 * and D the distinct (RX, RY) ends: a pair of routers (i, j) needs 0 local
 * hops when it is a cable's ends, at most 1 when i is in RX or j in RY,
 * else 2; so the local hops of all a^2 router pairs add up to
 * 2 a^2 - (|RX| a + a |RY| - |RX||RY|) - |D|. */
static void group_pair(const topo_dragonfly *df, int x, int y, int *scratch, double *sum,
                       int *worst)
{
  int m = df->parallel, a = df->routers;
  for (int c = 0; c < m; c++)
    scratch[c] = gateway_at(df, x, y, c);
  double rx = distinct(scratch, m);
  for (int c = 0; c < m; c++)
    scratch[c] = gateway_at(df, y, x, c);
  double ry = distinct(scratch, m);
  for (int c = 0; c < m; c++)
    scratch[c] = gateway_at(df, x, y, c) * a + gateway_at(df, y, x, c);
  double ends = distinct(scratch, m);
  double da = a;
  *sum = 2 * da * da - (rx * da + da * ry - rx * ry) - ends;
  *worst = rx < a && ry < a ? 2 : rx < a || ry < a || ends < da * da ? 1 : 0;
}

static void df_facts(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  const topo_dragonfly *df = df_of(t);
  double g = df->groups, a = df->routers, pp = df->nodes_per_router, N = nodes_of(df);
  double total = g * a * pp * (pp - 1) * 2 + g * a * (a - 1) * pp * pp * 3;
  int diam = pp > 1 ? 2 : 0;
  if (a > 1)
    diam = 3;
  int *scratch = g_new(int, MAX(df->parallel, 1));
  for (int x = 0; x < df->groups; x++)
    for (int y = 0; y < df->groups; y++) {
      if (x == y)
        continue;
      double local;
      int worst;
      group_pair(df, x, y, scratch, &local, &worst);
      total += (3 * a * a + local) * pp * pp;
      diam = MAX(diam, 3 + worst);
    }
  g_free(scratch);
  f->diameter = diam;
  f->avg_distance = N > 1 ? total / family_pairs(N) : 0;
  /* the cut between the first half of the groups and the rest (or, in
   * one group, of its routers) */
  int half = df->groups > 1 ? df->groups / 2 : df->routers / 2;
  if (half < 1)
    return;
  f->bisection_dim = 0;
  for (int l = df->local_base; l < t->nlinks; l++) {
    int u = t->link_src[l] - (int)N, v = t->link_dst[l] - (int)N;
    int su = df->groups > 1 ? u / df->routers : u % df->routers;
    int sv = df->groups > 1 ? v / df->routers : v % df->routers;
    if ((su < half) != (sv < half)) {
      f->bisection_links++;
      f->bisection_bw += p->link_bw[l];
    }
  }
  if (df->groups > 1)
    g_snprintf(f->cut, sizeof f->cut, "groups 0-%d | %d-%d", half - 1, half, df->groups - 1);
  else
    g_snprintf(f->cut, sizeof f->cut, "routers 0-%d | %d-%d", half - 1, half, df->routers - 1);
}

/* The source router sees its output port and its group's global channels
 * (route.h, route_seen_links): up to the route's first global link. */
static int df_seen_links(const router *r, const int *links, int nlinks)
{
  if (r->algo == ROUTE_ALGO_UGAL && r->ugal_variant == ROUTE_UGAL_LOCAL)
    return MIN(nlinks, 2); /* UGAL-L: the source router's output port only */
  for (int k = 1; k < nlinks; k++)
    if (r->t->link_class[links[k]] == TOPO_DF_GLOBAL)
      return k + 1;
  return MIN(nlinks, 2);
}

/* At most two global links per route (Valiant's and UGAL's non-minimal
 * paths): three channels, the next one after each global link. */
static int df_vc_classes(const router *r)
{
  return 3;
}

static gboolean df_vc_step(const router *r, int link)
{
  return r->t->link_class[link] == TOPO_DF_GLOBAL;
}

static int ugal_candidates(const router *r)
{
  return 1 + r->ugal_candidates;
}

/* Per-packet Valiant: the g - 2 intermediate groups, at most
 * ROUTE_SPREAD_MAX of them (spread_group); one path per message
 * (per=message) or when no group is left between the ends. */
static int valiant_candidates(const router *r)
{
  int g = df_of(r->t)->groups;
  return (r->flags & ROUTE_FLAG_SPREAD) && g > 2 ? MIN(g - 2, ROUTE_SPREAD_MAX) : 1;
}

static const family_routing df_routings[3];

#define DF_HOOKS .seen_links = df_seen_links, .vc_classes = df_vc_classes, \
                 .vc_step = df_vc_step, .nonminimal = &df_routings[1]

static const family_routing df_routings[] = {
  { .name = "minimal", .algo = ROUTE_ALGO_MINIMAL, .flags = 0,
    .summary = "local, global, local hop", DF_HOOKS },
  { .name = "valiant", .algo = ROUTE_ALGO_VALIANT,
    .flags = ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED | ROUTE_FLAG_ADAPTIVE | ROUTE_FLAG_SPREAD,
    .summary = "minimal to a random intermediate group, then minimal on: seeded per packet "
               "(packet models) or per message (flow models); per=message|pair: one draw per "
               "message or per rank pair",
    .candidates = valiant_candidates, DF_HOOKS },
  { .name = "ugal", .algo = ROUTE_ALGO_UGAL,
    .flags = ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED | ROUTE_FLAG_ADAPTIVE |
             ROUTE_FLAG_NONMINIMAL_CANDIDATES,
    .summary = "per message (flow models) or packet (packet models) minimal or "
               "Valiant, whichever costs less by the load seen at the source; "
               "variant=global (default: the source's port and its group's global channel) "
               "or local (the port only), candidates=N (4), bias=B (0)",
    .candidates = ugal_candidates, DF_HOOKS },
};

static const char *const df_keys[] = { "kind", "groups", "routers_per_group", "nodes_per_router",
                                       "global_ports", "arrangement", NULL };

static const family_param df_params[] = {
  { "g", "topology", "groups", "dragonfly: groups" },
  { "a", "topology", "routers_per_group", "dragonfly: routers per group" },
  { "p", "topology", "nodes_per_router", "dragonfly, hyperx: nodes per router (switch)" },
  { "h", "topology", "global_ports", "dragonfly: global ports per router" },
  { "arrangement", "topology", "arrangement",
    "dragonfly: global cabling absolute (default), relative, circulant or simgrid" },
};

static topo *df_read(GKeyFile *kf, const char *path, const char *dir, platform *p,
                     GError **error)
{
  topo_dragonfly df = { .arrangement = TOPO_ARRANGE_ABSOLUTE };
  if (!platform_topology_int(kf, path, "groups", TRUE, 1, &df.groups, error) ||
      !platform_topology_int(kf, path, "routers_per_group", TRUE, 1, &df.routers, error) ||
      !platform_topology_int(kf, path, "nodes_per_router", TRUE, 1, &df.nodes_per_router,
                             error) ||
      !platform_topology_int(kf, path, "global_ports", TRUE, 0, &df.global_ports, error))
    return NULL;
  g_autofree char *arr = g_key_file_get_string(kf, "topology", "arrangement", NULL);
  if (arr && !topo_arrangement_from_name(g_strstrip(arr), &df.arrangement)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] arrangement = '%s': expected absolute, relative, circulant or "
                "simgrid", path, arr);
    return NULL;
  }
  return topo_new_dragonfly(&df, error);
}

static int df_shorthand_slots(char **parts, char names[][16], int max)
{
  for (int s = 0; s < 3; s++)
    g_strlcpy(names[s], slot_names[s], 16);
  return 3;
}

/* groups, routers, nodes per router */
static int df_hierarchy(const topo *t, int *radix)
{
  radix[0] = df_of(t)->groups;
  radix[1] = df_of(t)->routers;
  radix[2] = df_of(t)->nodes_per_router;
  return 3;
}

/* SimGrid's DragonflyZone with one chassis per group: minimal routing and
 * its cabling (router y of group x leads to group y; the simgrid
 * arrangement, which also keeps g - 1 below the routers of a group, out
 * of the range where SimGrid 3.32 crashes computing routes); its
 * topo_parameters "g,1;1,1;a,1;p". */
static const char *df_simgrid_zone(const platform *p, char **parameters)
{
  const topo_dragonfly *df = df_of(p->topo);
  if (p->router->algo != ROUTE_ALGO_MINIMAL ||
      (df->arrangement != TOPO_ARRANGE_SIMGRID && df->groups != 1))
    return NULL;
  if (parameters)
    *parameters = g_strdup_printf("%d,1;1,1;%d,1;%d", df->groups, df->routers,
                                  df->nodes_per_router);
  return "DRAGONFLY";
}

/* The groups whose local links df_draw shows: those with the most local
 * bytes. */
#define DF_DRAWN_GROUPS 6

static void df_draw(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  const topo_dragonfly *df = topo_dragonfly_of(t);
  int N = topo_compute_nodes(t), g = df->groups, a = df->routers;
  int first = (int)panels->len;
  family_panel_add(panels, g, g, "from group", "to group",
            g_strdup(df->parallel > 1 ? "global links, group to group (busiest of the parallel "
                                        "cables)"
                                      : "global links, group to group"));
  family_panel_add(panels, g, a, "group", "router", g_strdup("node links of each router (busier way)"));
  family_panel *global = &g_array_index(panels, family_panel, first);
  family_panel *nodes = &g_array_index(panels, family_panel, first + 1);
  double *local_sum = g_new0(double, g);
  for (int l = 0; l < t->nlinks; l++) {
    int s = t->link_src[l], d = t->link_dst[l], c = t->link_class[l];
    if (c == TOPO_DF_GLOBAL)
      family_panel_put(global, (s - N) / a, (d - N) / a, value[l]);
    else if (c == TOPO_DF_LOCAL)
      local_sum[(s - N) / a] += value[l];
    else {
      int r = (c == TOPO_DF_NODE_UP ? d : s) - N;
      family_panel_put(nodes, r / a, r % a, value[l]);
    }
  }
  /* the groups with the most local bytes (lower index on ties) */
  int shown = 0, pick[DF_DRAWN_GROUPS];
  gboolean *taken = g_new0(gboolean, g);
  while (shown < MIN(DF_DRAWN_GROUPS, g)) {
    int best = -1;
    for (int x = 0; x < g; x++)
      if (!taken[x] && (best < 0 || local_sum[x] > local_sum[best]))
        best = x;
    if (shown > 0 && local_sum[best] <= 0)
      break;
    taken[best] = TRUE;
    shown++;
  }
  for (int x = 0, k = 0; x < g; x++) /* in group order */
    if (taken[x])
      pick[k++] = x;
  for (int k = 0; k < shown && a > 1; k++) {
    int x = pick[k];
    family_panel *q = family_panel_add(panels, a, a, "from router", "to router",
                             g_strdup_printf("local links inside group %d", x));
    if (k == shown - 1 && shown < g)
      q->note = g_strdup_printf("the %d of %d groups with the most local bytes", shown, g);
    for (int l = df->local_base; l < df->global_base; l++) {
      int s = t->link_src[l] - N, d = t->link_dst[l] - N;
      if (s / a == x)
        family_panel_put(q, s % a, d % a, value[l]);
    }
  }
  g_free(taken);
  g_free(local_sum);
}

const family_ops family_dragonfly_ops = {
  .name = "dragonfly",
  .text = "dragonfly",
  .kind = TOPO_FAMILY_DRAGONFLY,
  .keys = df_keys,
  .params = df_params,
  .nparams = G_N_ELEMENTS(df_params),
  .usage = "dragonfly:g=G:a=A:p=P:h=H",
  .routings = df_routings,
  .nroutings = G_N_ELEMENTS(df_routings),
  .shorthand_slots = df_shorthand_slots,
  .read = df_read,
  .describe = df_describe,
  .class_name = df_class_name,
  .reverse_link = df_reverse_link,
  .nslots = df_nslots,
  .slot_name = df_slot_name,
  .slot_of_class = df_slot_of_class,
  .hops = df_hops,
  .route = df_route,
  .facts = df_facts,
  .hierarchy = df_hierarchy,
  .simgrid_zone = df_simgrid_zone,
  .draw = df_draw,
  .free_state = df_free_state,
};
