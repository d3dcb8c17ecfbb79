/* platform-family.c - indirect networks in the INI format and their
 * shorthands (configs/README.md has the reference):
 *
 *   [topology] kind = dragonfly: groups, routers_per_group,
 *              nodes_per_router, global_ports, arrangement = absolute |
 *              relative | circulant | simgrid (default absolute)
 *   [topology] kind = fattree: k and n (the k-ary n-tree), or down, up
 *              and parallel (default 1s), one entry per level from the
 *              nodes up (SimGrid's FAT_TREE vectors)
 *   [topology] kind = hyperx: shape = 12x8, nodes_per_router
 *   [topology] kind = tree: slurm = Slurm's topology.conf or topology.yaml,
 *              slurm_topology = one of the YAML file's (platform-slurm.c)
 *   [links]    node (injection), local, global (dragonfly); node, level2,
 *              level3 ... (fat tree, tree: the cables above level 1, 2 ...);
 *              node, x, y ... (HyperX); default = TYPE for the rest
 *
 * Shorthands stand for such a file: dragonfly:g=9:a=4:p=2:h=1,
 * fattree:k=4:n=3, fattree:3;4,4,4;1,4,4;1,1,1 (SimGrid's FAT_TREE
 * topo_parameters), hyperx:12x8:p=4; more KEY=VALUE segments: arrangement,
 * down, up, parallel, routing, seed, cores, bw and lat (of every link).
 * Each link class of a shorthand gets a link type of its own name (node,
 * local, global, level2 ..., x, y ...), 200 Gbit/s (25e9 bytes/s) and
 * 100 ns, so `--set linktype.global.bandwidth=12.5e9` changes one class.
 */
#include "routing/family/family-private.h"
#include "routing/platform-private.h"

#include <math.h>
#include <string.h>

#define FAMILY_BW 25e9     /* 200 Gbit/s: Slingshot, HDR InfiniBand */
#define FAMILY_LAT 100e-9

static const char *const topology_keys[][8] = {
  [TOPO_FAMILY_DIRECT] = { "shape", "connectivity", "graph", "bidirectional", NULL },
  [TOPO_FAMILY_DRAGONFLY] = { "kind", "groups", "routers_per_group", "nodes_per_router",
                              "global_ports", "arrangement", NULL },
  [TOPO_FAMILY_FATTREE] = { "kind", "k", "n", "down", "up", "parallel", NULL },
  [TOPO_FAMILY_HYPERX] = { "kind", "shape", "nodes_per_router", NULL },
  [TOPO_FAMILY_TREE] = { "kind", "slurm", "slurm_topology", NULL },
};

/* [links] keys only indirect networks have. */
static gboolean family_links_key(const char *key)
{
  return !strcmp(key, "node") || !strcmp(key, "local") || !strcmp(key, "global") ||
         g_str_has_prefix(key, "level");
}

gboolean platform_family_check_keys(GKeyFile *kf, const char *path, topo_family *family,
                                    GError **error)
{
  g_autofree char *kind = g_key_file_get_string(kf, "topology", "kind", NULL);
  *family = TOPO_FAMILY_DIRECT;
  if (kind) {
    g_strstrip(kind);
    for (int f = TOPO_FAMILY_DRAGONFLY; f <= TOPO_FAMILY_TREE; f++)
      if (!strcmp(kind, topo_family_name((topo_family)f)))
        *family = (topo_family)f;
    if (*family == TOPO_FAMILY_DIRECT) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [topology] kind = '%s': expected dragonfly, fattree, hyperx or tree", path,
                  kind);
      return FALSE;
    }
  }
  g_auto(GStrv) keys = g_key_file_get_keys(kf, "topology", NULL, NULL);
  for (int k = 0; keys && keys[k]; k++) {
    gboolean known = FALSE;
    for (int i = 0; topology_keys[*family][i]; i++)
      known = known || !strcmp(keys[k], topology_keys[*family][i]);
    if (!known) {
      g_autofree char *list = g_strjoinv(", ", (char **)topology_keys[*family]);
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [topology] %s: not a key of %s, expected %s", path, keys[k],
                  kind ? kind : "a mesh, torus or graph (no kind)", list);
      return FALSE;
    }
  }
  g_auto(GStrv) links = g_key_file_get_keys(kf, "links", NULL, NULL);
  for (int k = 0; *family == TOPO_FAMILY_DIRECT && links && links[k]; k++)
    if (family_links_key(links[k])) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [links] %s: a link class of indirect networks, expected dimension "
                  "letters or default for a mesh, torus or graph", path, links[k]);
      return FALSE;
    }
  return TRUE;
}

/* An integer key; *out untouched when absent and not required. */
static gboolean get_int(GKeyFile *kf, const char *path, const char *key, gboolean required,
                        int lo, int *out, GError **error)
{
  g_autofree char *v = g_key_file_get_value(kf, "topology", key, NULL);
  gint64 x = 0;
  if (!v && !required)
    return TRUE;
  if (!v || !g_ascii_string_to_signed(g_strstrip(v), 10, lo, 1 << 24, &x, NULL)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] %s = '%s': expected a whole number from %d to %d", path, key,
                v ? v : "", lo, 1 << 24);
    return FALSE;
  }
  *out = (int)x;
  return TRUE;
}

/* A list key "4,4,4" into v[]; returns its length, 0 when absent, -1 on
 * error. */
static int get_list(GKeyFile *kf, const char *path, const char *key, int *v, GError **error)
{
  g_autofree char *s = g_key_file_get_value(kf, "topology", key, NULL);
  if (!s)
    return 0;
  g_auto(GStrv) parts = g_strsplit(g_strstrip(s), ",", -1);
  int n = (int)g_strv_length(parts);
  gboolean ok = n >= 1 && n <= TOPO_MAX_LEVELS;
  for (int i = 0; ok && i < n; i++) {
    gint64 x;
    ok = g_ascii_string_to_signed(g_strstrip(parts[i]), 10, 1, 1 << 24, &x, NULL);
    v[i] = (int)x;
  }
  if (!ok) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] %s = '%s': expected 1 to %d positive whole numbers like 4,4,4",
                path, key, s, TOPO_MAX_LEVELS);
    return -1;
  }
  return n;
}

static topo *read_dragonfly(GKeyFile *kf, const char *path, GError **error)
{
  topo_dragonfly df = { .arrangement = TOPO_ARRANGE_ABSOLUTE };
  if (!get_int(kf, path, "groups", TRUE, 1, &df.groups, error) ||
      !get_int(kf, path, "routers_per_group", TRUE, 1, &df.routers, error) ||
      !get_int(kf, path, "nodes_per_router", TRUE, 1, &df.nodes_per_router, error) ||
      !get_int(kf, path, "global_ports", TRUE, 0, &df.global_ports, error))
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

static topo *read_fattree(GKeyFile *kf, const char *path, GError **error)
{
  topo_fattree ft = { 0 };
  int k = 0, n = 0;
  if (!get_int(kf, path, "k", FALSE, 1, &k, error) || !get_int(kf, path, "n", FALSE, 1, &n, error))
    return NULL;
  int nd = get_list(kf, path, "down", ft.down, error);
  int nu = nd < 0 ? -1 : get_list(kf, path, "up", ft.up, error);
  int np = nu < 0 ? -1 : get_list(kf, path, "parallel", ft.parallel, error);
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

static topo *read_hyperx(GKeyFile *kf, const char *path, GError **error)
{
  topo_hyperx hx = { 0 };
  g_autofree char *shape = g_key_file_get_string(kf, "topology", "shape", NULL);
  g_auto(GStrv) dims = g_strsplit_set(shape ? g_strstrip(shape) : "", "x,", -1);
  hx.ndims = (int)g_strv_length(dims);
  gboolean ok = shape && hx.ndims >= 1 && hx.ndims <= TOPO_MAX_DIMS;
  for (int d = 0; ok && d < hx.ndims; d++) {
    gint64 v;
    ok = g_ascii_string_to_signed(dims[d], 10, 1, 1 << 20, &v, NULL);
    hx.shape[d] = (int)v;
  }
  if (!ok) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] shape = '%s': expected 1 to %d positive sizes like 12x8", path,
                shape ? shape : "", TOPO_MAX_DIMS);
    return NULL;
  }
  if (!get_int(kf, path, "nodes_per_router", TRUE, 1, &hx.nodes_per_router, error))
    return NULL;
  return topo_new_hyperx(&hx, error);
}

gboolean platform_build_family(platform *p, GKeyFile *kf, const char *path, const char *dir,
                               topo_family family, GError **error)
{
  topo *t = family == TOPO_FAMILY_DRAGONFLY ? read_dragonfly(kf, path, error)
            : family == TOPO_FAMILY_FATTREE ? read_fattree(kf, path, error)
            : family == TOPO_FAMILY_TREE    ? platform_slurm_tree(kf, path, dir, p, error)
                                            : read_hyperx(kf, path, error);
  if (!t) {
    if (error && *error && (*error)->domain != PLATFORM_ERROR)
      g_prefix_error(error, "%s: [topology]: ", path);
    return FALSE;
  }
  const family_ops *f = family_of(t);
  int nslots = f->nslots(t), slot_type[1 + TOPO_MAX_DIMS + TOPO_MAX_LEVELS];
  char name[16];
  for (int s = 0; s < nslots; s++) {
    f->slot_name(t, s, name, sizeof name);
    if ((slot_type[s] = platform_links_type(kf, p, path, name, error)) < 0) {
      topo_free(t);
      return FALSE;
    }
  }
  g_auto(GStrv) keys = g_key_file_get_keys(kf, "links", NULL, NULL);
  for (int k = 0; keys && keys[k]; k++) {
    gboolean known = !strcmp(keys[k], "default");
    for (int s = 0; s < nslots && !known; s++) {
      f->slot_name(t, s, name, sizeof name);
      known = !strcmp(keys[k], name);
    }
    if (!known) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [links] %s: not a link class of this %s, expected default or one of "
                  "its %d classes (configs/README.md)", path, keys[k], f->name, nslots);
      topo_free(t);
      return FALSE;
    }
  }
  uint8_t *type = g_new(uint8_t, MAX(t->nlinks, 1));
  for (int l = 0; l < t->nlinks; l++)
    type[l] = (uint8_t)slot_type[f->slot_of_class(t, t->link_class[l])];
  platform_set_topo(p, t, type);
  const topo_dragonfly *df = &t->df;
  int spare = family == TOPO_FAMILY_DRAGONFLY && df->groups > 1
                  ? df->routers * df->global_ports - df->parallel * (df->groups - 1) : 0;
  if (spare > 0) /* true of the shipped configs too: said once, by topo */
    g_ptr_array_add(p->facts,
                    g_strdup_printf("%s: %d of the %d global ports of each group unused (%d "
                                    "cable%s between every two groups)", path, spare,
                                    df->routers * df->global_ports, df->parallel,
                                    df->parallel == 1 ? "" : "s"));
  return TRUE;
}

/* ---- shorthands ------------------------------------------------------ */

static void set_double(GKeyFile *kf, const char *group, const char *key, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_key_file_set_value(kf, group, key, g_ascii_dtostr(buf, sizeof buf, v));
}

/* The parameters of the family shorthands (DIRECT: every family; p: not
 * the fat tree), the one table their parser and --help read. */
static const struct {
  const char *key, *group, *ini;
  topo_family only;
  const char *help;
} family_params[] = {
  { "g", "topology", "groups", TOPO_FAMILY_DRAGONFLY, "dragonfly: groups" },
  { "a", "topology", "routers_per_group", TOPO_FAMILY_DRAGONFLY, "dragonfly: routers per group" },
  { "p", "topology", "nodes_per_router", TOPO_FAMILY_DIRECT,
    "dragonfly, hyperx: nodes per router (switch)" },
  { "h", "topology", "global_ports", TOPO_FAMILY_DRAGONFLY, "dragonfly: global ports per router" },
  { "arrangement", "topology", "arrangement", TOPO_FAMILY_DRAGONFLY,
    "dragonfly: global cabling absolute (default), relative, circulant or simgrid" },
  { "k", "topology", "k", TOPO_FAMILY_FATTREE, "fattree: the k-ary n-tree's k" },
  { "n", "topology", "n", TOPO_FAMILY_FATTREE, "fattree: its n (levels)" },
  { "down", "topology", "down", TOPO_FAMILY_FATTREE, "fattree: children per vertex and level" },
  { "up", "topology", "up", TOPO_FAMILY_FATTREE, "fattree: parents per vertex and level" },
  { "parallel", "topology", "parallel", TOPO_FAMILY_FATTREE,
    "fattree: cables per pair and level (default 1)" },
  { "routing", "routing", "algorithm", TOPO_FAMILY_DIRECT,
    "minimal, valiant (dragonfly); dmodk, smodk, random-up, ecmp (fattree); dor (hyperx)" },
  { "seed", "routing", "seed", TOPO_FAMILY_DIRECT, "of valiant and random-up (default 1)" },
  { "cores", "nodes", "cores", TOPO_FAMILY_DIRECT, "cores (ranks) per node (default 1)" },
};

void platform_family_shorthand_help(GString *s)
{
  g_string_append(s, "Switch-based networks: dragonfly:g=G:a=A:p=P:h=H, fattree:k=K:n=N or "
                     "SimGrid's fattree:L;down...;up...;parallel..., hyperx:SxS:p=P, then:\n");
  for (size_t i = 0; i < G_N_ELEMENTS(family_params); i++)
    g_string_append_printf(s, "  %-11s %s\n", family_params[i].key, family_params[i].help);
  g_string_append(s, "  bw, lat     every link's bandwidth and latency (default 200Gbit/s, 100ns; "
                     "one link type per class: node, local, global, level2 ..., x ...)\n");
}

/* A segment KEY=VALUE of a family shorthand into kf. */
static gboolean shorthand_param(GKeyFile *kf, const char *spec, topo_family family,
                                const char *seg, GError **error)
{
  const char *eq = strchr(seg, '=');
  g_autofree char *key = eq ? g_strndup(seg, (gsize)(eq - seg)) : g_strdup(seg);
  for (size_t i = 0; eq && i < G_N_ELEMENTS(family_params); i++)
    if (!strcmp(key, family_params[i].key) &&
        (family_params[i].only == family ||
         (family_params[i].only == TOPO_FAMILY_DIRECT &&
          (strcmp(key, "p") || family != TOPO_FAMILY_FATTREE)))) {
      g_key_file_set_value(kf, family_params[i].group, family_params[i].ini, eq + 1);
      return TRUE;
    }
  if (eq && (!strcmp(key, "bw") || !strcmp(key, "lat"))) {
    double v;
    if (!platform_shorthand_number(spec, key, eq + 1, key[0] == 'b' ? UNITS_BANDWIDTH : UNITS_TIME,
                                   &v, error))
      return FALSE;
    g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
    for (int gi = 0; groups[gi]; gi++)
      if (g_str_has_prefix(groups[gi], "linktype."))
        set_double(kf, groups[gi], key[0] == 'b' ? "bandwidth" : "latency", v);
    return TRUE;
  }
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
              "platform '%s': '%s', expected KEY=VALUE with KEY one of %s, routing, seed, "
              "cores, bw, lat", spec, seg,
              family == TOPO_FAMILY_DRAGONFLY ? "g, a, p, h, arrangement"
              : family == TOPO_FAMILY_FATTREE ? "k, n, down, up, parallel" : "p");
  return FALSE;
}

/* SimGrid's FAT_TREE parameters "L;down,...;up,...;parallel,..." as keys. */
static gboolean simgrid_fattree(GKeyFile *kf, const char *spec, const char *seg, GError **error)
{
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
    return FALSE;
  }
  g_key_file_set_value(kf, "topology", "down", parts[1]);
  g_key_file_set_value(kf, "topology", "up", parts[2]);
  g_key_file_set_value(kf, "topology", "parallel", parts[3]);
  return TRUE;
}

/* How many levels (fat tree) or dimensions (HyperX) a shorthand's keys
 * give, for its link classes; 0 when they do not say. */
static int shorthand_extent(topo_family family, char **parts)
{
  if (family == TOPO_FAMILY_HYPERX && parts[1]) {
    g_auto(GStrv) dims = g_strsplit(parts[1], "x", -1);
    return (int)g_strv_length(dims);
  }
  for (int i = 1; family == TOPO_FAMILY_FATTREE && parts[i]; i++) {
    if (g_str_has_prefix(parts[i], "n="))
      return (int)g_ascii_strtoll(parts[i] + 2, NULL, 10);
    if (g_str_has_prefix(parts[i], "down=")) {
      g_auto(GStrv) v = g_strsplit(parts[i] + 5, ",", -1);
      return (int)g_strv_length(v);
    }
    if (strchr(parts[i], ';'))
      return (int)g_ascii_strtoll(parts[i], NULL, 10);
  }
  return 0;
}

GKeyFile *platform_family_shorthand(const char *spec, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  topo_family family = TOPO_FAMILY_DIRECT;
  for (int f = TOPO_FAMILY_DRAGONFLY; f <= TOPO_FAMILY_HYPERX; f++)
    if (!strcmp(parts[0], topo_family_name((topo_family)f)))
      family = (topo_family)f;
  if (family == TOPO_FAMILY_DIRECT)
    return NULL;
  GKeyFile *kf = g_key_file_new();
  g_key_file_set_value(kf, "platform", "name", spec);
  g_key_file_set_value(kf, "topology", "kind", parts[0]);
  int first = 1;
  if (family == TOPO_FAMILY_HYPERX) {
    g_key_file_set_value(kf, "topology", "shape", parts[1] ? parts[1] : "");
    first = parts[1] ? 2 : 1; /* "hyperx" alone: no shape, no parameters */
  }
  /* one link type per class, named as the class */
  int extent = shorthand_extent(family, parts);
  int nslots = family == TOPO_FAMILY_DRAGONFLY ? 3 : MIN(MAX(extent, 1), TOPO_MAX_LEVELS) +
                                                       (family == TOPO_FAMILY_HYPERX);
  for (int s = 0; s < nslots; s++) {
    char name[16], group[32];
    if (s == 0)
      g_strlcpy(name, "node", sizeof name);
    else if (family == TOPO_FAMILY_DRAGONFLY)
      g_strlcpy(name, s == 1 ? "local" : "global", sizeof name);
    else if (family == TOPO_FAMILY_FATTREE)
      g_snprintf(name, sizeof name, "level%d", s + 1);
    else
      g_snprintf(name, sizeof name, "%c", topo_dim_letter(s - 1));
    g_snprintf(group, sizeof group, "linktype.%s", name);
    set_double(kf, group, "bandwidth", FAMILY_BW);
    set_double(kf, group, "latency", FAMILY_LAT);
    g_key_file_set_value(kf, "links", name, name);
  }
  for (int i = first; parts[i]; i++) {
    gboolean ok = family == TOPO_FAMILY_FATTREE && strchr(parts[i], ';')
                      ? simgrid_fattree(kf, spec, parts[i], error)
                      : shorthand_param(kf, spec, family, parts[i], error);
    if (!ok) {
      g_key_file_free(kf);
      return NULL;
    }
  }
  return kf;
}
