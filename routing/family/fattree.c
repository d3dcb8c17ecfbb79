/* fattree.c - extended generalized fat trees XGFT(L; m; w) with parallel
 * cables (Ohring, Ibel, Das and Kumar, "On generalized fat trees", IPPS
 * 1995), as SimGrid's FAT_TREE cluster builds them: the k-ary n-tree of
 * Petrini and Vanneschi (IPPS 1997), tapered trees, several cables per
 * pair of switches.
 *
 * Labels (SimGrid's FatTreeZone): a vertex of level l has L digits, digit
 * j in [0, up[j]) for j < l and in [0, down[j]) for j >= l, digit 0
 * fastest; its position in the level is that mixed-radix number, its id
 * first[l] + position (nodes are level 0: id = position). A vertex of
 * level l and one of level l + 1 are joined when their labels agree in
 * every digit but digit l, by parallel[l] cables: the child's up port u
 * leads to the parent with digit l = u mod up[l], copy u / up[l]. Links:
 * up link of (l, pos, u) = up_base[l] + pos ports[l] + u, its down link
 * the same with down_base[l].
 *
 * Routes go up to the lowest common ancestor (level h = 1 + the highest
 * digit where source and destination differ) and down; route.h names the
 * up-port rules. Costs: a route or a distance O(L^2), facts O(nlinks).
 */
#include "routing/family/family-private.h"

#include <string.h>

#include "routing/platform-private.h"

/* The parameters of t, a fat tree (the family's own hooks: t->state). */
static inline const topo_fattree *ft_of(const topo *t)
{
  return t->state;
}

const topo_fattree *topo_fattree_of(const topo *t)
{
  return t && t->ops == &family_fattree_ops ? t->state : NULL;
}


/* Radix of digit j at level l. */
static inline int radix(const topo_fattree *ft, int l, int j)
{
  return j < l ? ft->up[j] : ft->down[j];
}

static void digits_of(const topo_fattree *ft, int l, int pos, int *dig)
{
  for (int j = 0; j < ft->levels; j++) {
    dig[j] = pos % radix(ft, l, j);
    pos /= radix(ft, l, j);
  }
}

static int position_of(const topo_fattree *ft, int l, const int *dig)
{
  int pos = 0;
  for (int j = ft->levels - 1; j >= 0; j--)
    pos = pos * radix(ft, l, j) + dig[j];
  return pos;
}

/* Level of vertex v. */
static int level_of(const topo_fattree *ft, int v)
{
  int l = 0;
  while (l < ft->levels && v >= ft->first[l + 1])
    l++;
  return l;
}

static gboolean check_params(const topo_fattree *in, GError **error)
{
  if (in->levels < 1 || in->levels > TOPO_MAX_LEVELS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID, "fat tree of %d levels, expected 1 to %d",
                in->levels, TOPO_MAX_LEVELS);
    return FALSE;
  }
  for (int l = 0; l < in->levels; l++)
    if (in->down[l] < 1 || in->up[l] < 1 || in->parallel[l] < 1) {
      g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                  "fat tree level %d: down %d, up %d, parallel %d, expected each >= 1", l + 1,
                  in->down[l], in->up[l], in->parallel[l]);
      return FALSE;
    }
  return TRUE;
}

topo *topo_new_fattree(const topo_fattree *in, GError **error)
{
  if (!check_params(in, error))
    return NULL;
  topo_fattree ft = { .levels = in->levels };
  int L = in->levels;
  double count[TOPO_MAX_LEVELS + 1], vertices = 0, links = 0;
  for (int l = 0; l <= L; l++) {
    count[l] = 1;
    for (int j = 0; j < L; j++)
      count[l] *= j < l ? in->up[j] : in->down[j];
    vertices += count[l];
    if (l < L)
      links += 2 * count[l] * in->up[l] * in->parallel[l];
  }
  if (vertices >= TOPO_MAX_NODES || links >= TOPO_MAX_LINKS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "fat tree: %.0f nodes and switches, %.0f links, expected fewer than %d of each",
                vertices, links, TOPO_MAX_NODES);
    return NULL;
  }
  int base = 0, first = 0;
  for (int l = 0; l <= L; l++) {
    ft.count[l] = (int)count[l];
    ft.first[l] = first;
    first += ft.count[l];
    if (l == L)
      break;
    ft.down[l] = in->down[l];
    ft.up[l] = in->up[l];
    ft.parallel[l] = in->parallel[l];
    ft.ports[l] = in->up[l] * in->parallel[l];
    ft.up_base[l] = base;
    ft.down_base[l] = base + ft.count[l] * ft.ports[l];
    base = ft.down_base[l] + ft.count[l] * ft.ports[l];
  }
  topo *t = family_alloc(&family_fattree_ops, ft.count[0], (int64_t)vertices - ft.count[0],
                         (int64_t)links, 2 * L, error);
  if (!t)
    return NULL;
  t->state = g_memdup2(&ft, sizeof ft);
  int dig[TOPO_MAX_LEVELS];
  for (int l = 0; l < L; l++)
    for (int pos = 0; pos < ft.count[l]; pos++) {
      digits_of(&ft, l, pos, dig);
      int child = ft.first[l] + pos, own = dig[l];
      for (int u = 0; u < ft.ports[l]; u++) {
        dig[l] = u % ft.up[l];
        int parent = ft.first[l + 1] + position_of(&ft, l + 1, dig);
        int k = pos * ft.ports[l] + u;
        family_set_link(t, ft.up_base[l] + k, child, parent, 2 * l);
        family_set_link(t, ft.down_base[l] + k, parent, child, 2 * l + 1);
      }
      dig[l] = own;
    }
  family_finish(t);
  return t;
}

static char *ft_describe(const topo *t)
{
  const topo_fattree *ft = ft_of(t);
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "fattree %d;", ft->levels);
  const int *rows[] = { ft->down, ft->up, ft->parallel };
  for (int r = 0; r < 3; r++)
    for (int l = 0; l < ft->levels; l++)
      g_string_append_printf(s, "%d%s", rows[r][l], l + 1 < ft->levels ? "," : r < 2 ? ";" : "");
  return g_string_free(s, FALSE);
}

void family_level_slot_name(const topo *t, int s, char *buf, size_t size)
{
  if (s == 0)
    g_strlcpy(buf, "node", size);
  else
    g_snprintf(buf, size, "level%d", s + 1);
}

void family_level_class_name(const topo *t, int c, char *buf, size_t size)
{
  char slot[16];
  family_level_slot_name(t, c / 2, slot, sizeof slot);
  g_snprintf(buf, size, "%s %s", slot, c % 2 ? "down" : "up");
}

int family_level_slot_of_class(const topo *t, int c)
{
  return c / 2;
}

static int ft_nslots(const topo *t)
{
  return ft_of(t)->levels;
}

static int ft_reverse_link(const topo *t, int l)
{
  const topo_fattree *ft = ft_of(t);
  for (int k = 0; k < ft->levels; k++) {
    int span = ft->count[k] * ft->ports[k];
    if (l < ft->down_base[k])
      return l - ft->up_base[k] + ft->down_base[k];
    if (l < ft->down_base[k] + span)
      return l - ft->down_base[k] + ft->up_base[k];
  }
  return -1;
}

/* Level of the lowest common ancestor of nodes a != b. */
static int lca_level(const topo_fattree *ft, int a, int b)
{
  int h = 0;
  for (int j = 0; j < ft->levels; j++) {
    if (a % ft->down[j] != b % ft->down[j])
      h = j + 1;
    a /= ft->down[j];
    b /= ft->down[j];
  }
  return h;
}

static int ft_hops(const topo *t, int a, int b)
{
  return 2 * lca_level(ft_of(t), a, b);
}

/* Up port at level l and the copy of the down cable back to level l. */
static void choose_ports(const router *r, int s, int d, uint64_t key, int l, int vertex,
                         int *u, int *copy)
{
  const topo_fattree *ft = ft_of(r->t);
  int64_t below = 1;
  for (int i = 0; i < l; i++)
    below *= ft->ports[i];
  switch (r->algo) {
  case ROUTE_ALGO_RANDOM_UP: {
    uint64_t h = family_hash(family_hash(r->seed, key), (uint64_t)l);
    *u = family_pick(h, ft->ports[l]);
    *copy = family_pick(h >> 32, ft->parallel[l]);
    return;
  }
  case ROUTE_ALGO_ECMP: {
    uint64_t h = family_hash(family_hash((uint64_t)s << 32 | (uint32_t)d, key), (uint64_t)vertex);
    *u = family_pick(h, ft->ports[l]);
    *copy = family_pick(h >> 32, ft->parallel[l]);
    return;
  }
  default: {
    int64_t up_digit = (r->algo == ROUTE_ALGO_SMODK ? s : d) / below % ft->ports[l];
    *u = (int)up_digit;
    *copy = (int)(d / below % ft->ports[l] / ft->up[l]);
  }
  }
}

static int ft_route(const router *r, int s, int d, uint64_t key, route_path path,
                    int variant, int *links)
{
  const topo_fattree *ft = ft_of(r->t);
  int h = lca_level(ft, s, d), n = 0, pos = s;
  int dig[TOPO_MAX_LEVELS], ddig[TOPO_MAX_LEVELS], copy[TOPO_MAX_LEVELS];
  digits_of(ft, 0, s, dig);
  digits_of(ft, 0, d, ddig);
  for (int l = 0; l < h; l++) {
    int u;
    choose_ports(r, s, d, key, l, ft->first[l] + pos, &u, &copy[l]);
    links[n++] = ft->up_base[l] + pos * ft->ports[l] + u;
    dig[l] = u % ft->up[l];
    pos = position_of(ft, l + 1, dig);
  }
  for (int l = h - 1; l >= 0; l--) {
    int port = dig[l] + copy[l] * ft->up[l];
    dig[l] = ddig[l];
    pos = position_of(ft, l, dig);
    links[n++] = ft->down_base[l] + pos * ft->ports[l] + port;
  }
  return n;
}

static void ft_facts(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  const topo_fattree *ft = ft_of(t);
  double N = ft->count[0], total = 0, below = 1;
  f->diameter = 0;
  for (int h = 1; h <= ft->levels; h++) {
    /* ordered pairs whose lowest common ancestor is at level h */
    double within = below * ft->down[h - 1];
    total += N * (within - below) * 2 * h;
    if (within > below)
      f->diameter = 2 * h;
    below = within;
  }
  f->avg_distance = N > 1 ? total / family_pairs(N) : 0;
  /* the cut by the highest digit that splits nodes: its lower half of
   * subtrees against the rest, the switches above with the first side */
  int j = ft->levels - 1;
  while (j >= 0 && ft->down[j] < 2)
    j--;
  if (j < 0)
    return;
  int half = ft->down[j] / 2, dig[TOPO_MAX_LEVELS];
  f->bisection_dim = 0;
  for (int l = 0; l < t->nlinks; l++) {
    int side[2];
    for (int e = 0; e < 2; e++) {
      int v = e ? t->link_dst[l] : t->link_src[l], lv = level_of(ft, v);
      digits_of(ft, lv, v - ft->first[lv], dig);
      side[e] = lv <= j && dig[j] >= half;
    }
    if (side[0] != side[1]) {
      f->bisection_links++;
      f->bisection_bw += p->link_bw[l];
    }
  }
  g_snprintf(f->cut, sizeof f->cut, "level-%d subtrees 0-%d | %d-%d", j + 1, half - 1, half,
             ft->down[j] - 1);
}

static const family_routing ft_routings[] = {
  { .name = "dmodk", .algo = ROUTE_ALGO_DMODK, .flags = 0,
    .summary = "up port (destination / ports below) mod ports, SimGrid's d-mod-k" },
  { .name = "smodk", .algo = ROUTE_ALGO_SMODK, .flags = 0,
    .summary = "up port by the source, s-mod-k" },
  { .name = "random-up", .algo = ROUTE_ALGO_RANDOM_UP,
    .flags = ROUTE_FLAG_KEYED | ROUTE_FLAG_SEEDED,
    .summary = "a random up port per level (seeded per rank pair)" },
  { .name = "ecmp", .algo = ROUTE_ALGO_ECMP, .flags = ROUTE_FLAG_KEYED,
    .summary = "a hash of source, destination, rank pair and switch at every switch" },
};

static const char *const ft_keys[] = { "kind", "k", "n", "down", "up", "parallel", NULL };

static const family_param ft_params[] = {
  { "k", "topology", "k", "fattree: the k-ary n-tree's k" },
  { "n", "topology", "n", "fattree: its n (levels)" },
  { "down", "topology", "down", "fattree: children per vertex and level" },
  { "up", "topology", "up", "fattree: parents per vertex and level" },
  { "parallel", "topology", "parallel", "fattree: cables per pair and level (default 1)" },
};

static topo *ft_read(GKeyFile *kf, const char *path, const char *dir, platform *p,
                     GError **error)
{
  topo_fattree ft = { 0 };
  int k = 0, n = 0;
  if (!platform_topology_int(kf, path, "k", FALSE, 1, &k, error) ||
      !platform_topology_int(kf, path, "n", FALSE, 1, &n, error))
    return NULL;
  int nd = platform_topology_list(kf, path, "down", ft.down, error);
  int nu = nd < 0 ? -1 : platform_topology_list(kf, path, "up", ft.up, error);
  int np = nu < 0 ? -1 : platform_topology_list(kf, path, "parallel", ft.parallel, error);
  if (np < 0)
    return NULL;
  if ((k || n) == (nd || nu) || (k && !n) || (n && !k) || (nd && nd != nu) ||
      (np && np != nd) || n > TOPO_MAX_LEVELS) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology]: expected either k and n (a k-ary n-tree, n <= %d) or down and "
                "up (and parallel) of one length, one entry per level", path, TOPO_MAX_LEVELS);
    return NULL;
  }
  ft.levels = k ? n : nd;
  for (int l = 0; l < ft.levels; l++) {
    if (k) {
      ft.down[l] = k;
      ft.up[l] = l ? k : 1;
    }
    if (!np)
      ft.parallel[l] = 1;
  }
  return topo_new_fattree(&ft, error);
}

/* SimGrid's FAT_TREE parameters "L;down,...;up,...;parallel,..." as keys;
 * -1 for other segments. */
static int ft_shorthand_segment(GKeyFile *kf, const char *spec, const char *seg, GError **error)
{
  if (!strchr(seg, ';'))
    return -1;
  g_auto(GStrv) parts = g_strsplit(seg, ";", -1);
  gint64 levels = 0;
  gboolean ok = g_strv_length(parts) == 4 &&
                g_ascii_string_to_signed(parts[0], 10, 1, TOPO_MAX_LEVELS, &levels, NULL);
  for (int i = 1; ok && i < 4; i++) {
    g_auto(GStrv) v = g_strsplit(parts[i], ",", -1);
    ok = g_strv_length(v) == (guint)levels;
  }
  if (!ok) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "platform '%s': '%s', expected SimGrid's FAT_TREE parameters L;down;up;parallel "
                "with L entries each (L = 1 to %d), like 3;4,4,4;1,4,4;1,1,1", spec, seg,
                TOPO_MAX_LEVELS);
    return 0;
  }
  g_key_file_set_value(kf, "topology", "down", parts[1]);
  g_key_file_set_value(kf, "topology", "up", parts[2]);
  g_key_file_set_value(kf, "topology", "parallel", parts[3]);
  return 1;
}

/* node, level2 ...: one per level the segments give (n=, down= or
 * SimGrid's L;...), at least one. */
static int ft_shorthand_slots(char **parts, char names[][16], int max)
{
  int levels = 0;
  for (int i = 1; !levels && parts[i]; i++) {
    if (g_str_has_prefix(parts[i], "n="))
      levels = (int)g_ascii_strtoll(parts[i] + 2, NULL, 10);
    else if (g_str_has_prefix(parts[i], "down=")) {
      g_auto(GStrv) v = g_strsplit(parts[i] + 5, ",", -1);
      levels = (int)g_strv_length(v);
    } else if (strchr(parts[i], ';'))
      levels = (int)g_ascii_strtoll(parts[i], NULL, 10);
  }
  int n = MIN(MAX(levels, 1), MIN(TOPO_MAX_LEVELS, max));
  for (int s = 0; s < n; s++)
    if (s == 0)
      g_strlcpy(names[s], "node", 16);
    else
      g_snprintf(names[s], 16, "level%d", s + 1);
  return n;
}

/* the children of a vertex of each level, top first */
static int ft_hierarchy(const topo *t, int *radix)
{
  int n = 0;
  for (int l = ft_of(t)->levels - 1; l >= 0; l--)
    radix[n++] = ft_of(t)->down[l];
  return n;
}

/* SimGrid's FatTreeZone: d-mod-k, and only one cable per pair of
 * switches (it routes up over the first of parallel cables); its
 * topo_parameters "L;down,...;up,...;parallel,...". */
static const char *ft_simgrid_zone(const platform *p, char **parameters)
{
  const topo_fattree *ft = ft_of(p->topo);
  if (p->router->algo != ROUTE_ALGO_DMODK)
    return NULL;
  for (int l = 0; l < ft->levels; l++)
    if (ft->parallel[l] != 1)
      return NULL;
  if (parameters) {
    GString *s = g_string_new(NULL);
    g_string_printf(s, "%d", ft->levels);
    const int *rows[] = { ft->down, ft->up, ft->parallel };
    for (int r = 0; r < 3; r++)
      for (int l = 0; l < ft->levels; l++)
        g_string_append_printf(s, "%s%d", l ? "," : ";", rows[r][l]);
    *parameters = g_string_free(s, FALSE);
  }
  return "FAT_TREE";
}

const family_ops family_fattree_ops = {
  .name = "fattree",
  .text = "fat tree",
  .kind = TOPO_FAMILY_FATTREE,
  .keys = ft_keys,
  .params = ft_params,
  .nparams = G_N_ELEMENTS(ft_params),
  .usage = "fattree:k=K:n=N",
  .usage_more = " or SimGrid's fattree:L;down...;up...;parallel...",
  .routings = ft_routings,
  .nroutings = G_N_ELEMENTS(ft_routings),
  .shorthand_slots = ft_shorthand_slots,
  .shorthand_segment = ft_shorthand_segment,
  .read = ft_read,
  .describe = ft_describe,
  .class_name = family_level_class_name,
  .reverse_link = ft_reverse_link,
  .nslots = ft_nslots,
  .slot_name = family_level_slot_name,
  .slot_of_class = family_level_slot_of_class,
  .hops = ft_hops,
  .route = ft_route,
  .facts = ft_facts,
  .hierarchy = ft_hierarchy,
  .simgrid_zone = ft_simgrid_zone,
  .draw = family_draw_levels,
  .free_state = g_free,
};
