/* platform-family.c - the families of routing/family/ in the INI format
 * and their shorthands, generic over the registry: each family's ops
 * table names its keys, reads them and names its shorthand's link types
 * (configs/README.md has the reference):
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

#include "util/suggest.h"

#define FAMILY_BW 25e9     /* 200 Gbit/s: Slingshot, HDR InfiniBand */
#define FAMILY_LAT 100e-9

/* Keys of [topology] for a mesh, torus or graph (no kind). */
static const char *const direct_keys[] = { "shape", "connectivity", "graph", "bidirectional",
                                           NULL };

/* [links] keys only indirect networks have. */
static gboolean family_links_key(const char *key)
{
  return !strcmp(key, "node") || !strcmp(key, "local") || !strcmp(key, "global") ||
         g_str_has_prefix(key, "level");
}

/* "dragonfly, fattree, hyperx or tree": the families [topology] kind
 * names, into s; each offered to sg. */
static void kind_names(GString *s, suggestion *sg)
{
  int n = 0, k = 0;
  for (int i = 0; i < family_count(); i++)
    n += family_at(i)->read != NULL;
  for (int i = 0; i < family_count(); i++) {
    const family_ops *f = family_at(i);
    if (!f->read)
      continue;
    g_string_append_printf(s, "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ", f->name);
    suggestion_add(sg, f->name);
    k++;
  }
}

gboolean platform_family_check_keys(GKeyFile *kf, const char *path, const family_ops **family,
                                    GError **error)
{
  g_autofree char *kind = g_key_file_get_string(kf, "topology", "kind", NULL);
  *family = NULL;
  if (kind) {
    g_strstrip(kind);
    const family_ops *f = family_find(kind);
    if (!f || !f->read) {
      suggestion sg;
      suggestion_init(&sg, kind);
      g_autoptr(GString) names = g_string_new(NULL);
      kind_names(names, &sg);
      const char *near = suggestion_best(&sg);
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [topology] kind = '%s'%s%s%s: expected %s", path, kind,
                  near ? " (did you mean " : "", near ? near : "", near ? "?)" : "", names->str);
      return FALSE;
    }
    *family = f;
  }
  const char *const *known_keys = *family ? (*family)->keys : direct_keys;
  g_auto(GStrv) keys = g_key_file_get_keys(kf, "topology", NULL, NULL);
  for (int k = 0; keys && keys[k]; k++) {
    gboolean known = FALSE;
    for (int i = 0; known_keys[i]; i++)
      known = known || !strcmp(keys[k], known_keys[i]);
    if (!known) {
      g_autofree char *list = g_strjoinv(", ", (char **)known_keys);
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [topology] %s: not a key of %s, expected %s", path, keys[k],
                  kind ? kind : "a mesh, torus or graph (no kind)", list);
      return FALSE;
    }
  }
  g_auto(GStrv) links = g_key_file_get_keys(kf, "links", NULL, NULL);
  for (int k = 0; !*family && links && links[k]; k++)
    if (family_links_key(links[k])) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [links] %s: a link class of indirect networks, expected dimension "
                  "letters or default for a mesh, torus or graph", path, links[k]);
      return FALSE;
    }
  return TRUE;
}

gboolean platform_topology_int(GKeyFile *kf, const char *path, const char *key,
                               gboolean required, int lo, int *out, GError **error)
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

int platform_topology_list(GKeyFile *kf, const char *path, const char *key, int *v,
                           GError **error)
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

gboolean platform_build_family(platform *p, GKeyFile *kf, const char *path, const char *dir,
                               const family_ops *f, GError **error)
{
  topo *t = f->read(kf, path, dir, p, error);
  if (!t) {
    if (error && *error && (*error)->domain != PLATFORM_ERROR)
      g_prefix_error(error, "%s: [topology]: ", path);
    return FALSE;
  }
  f = family_of(t); /* a Slurm file may be a fat tree (platform-slurm.c, leaf_spine) */
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
  const topo_dragonfly *df = topo_dragonfly_of(t);
  int spare = df && df->groups > 1
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

/* The shorthand parameters every family has, after its own. */
static const family_param common_params[] = {
  { "routing", "routing", "algorithm", NULL },
  { "seed", "routing", "seed", NULL },
  { "cores", "nodes", "cores", "cores (ranks) per node (default 1)" },
};

static gboolean has_shorthand(const family_ops *f)
{
  return f->usage && f->shorthand_slots;
}

/* "minimal, valiant, ugal (dragonfly); dmodk ... (fattree)": the routings
 * of the families with a shorthand; with `flag`, only rows that have it. */
static char *routing_list(unsigned flag)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < family_count(); i++) {
    const family_ops *f = family_at(i);
    if (!has_shorthand(f))
      continue;
    gsize start = s->len;
    for (int r = 0; r < f->nroutings; r++)
      if (!flag || (f->routings[r].flags & flag))
        g_string_append_printf(s, "%s%s", !s->len ? "" : flag || s->len > start ? ", " : "; ",
                               f->routings[r].name);
    if (s->len > start && !flag)
      g_string_append_printf(s, " (%s)", f->name);
  }
  return g_string_free(s, FALSE);
}

void platform_family_shorthand_usages(GString *s, struct suggestion *sg)
{
  for (int i = 0; i < family_count(); i++)
    if (has_shorthand(family_at(i))) {
      g_string_append_printf(s, ", %s", family_at(i)->usage);
      suggestion_add(sg, family_at(i)->name);
    }
}

void platform_family_shorthand_help(GString *s)
{
  g_string_append(s, "Switch-based networks: ");
  gboolean first = TRUE;
  for (int i = 0; i < family_count(); i++) {
    const family_ops *f = family_at(i);
    if (!has_shorthand(f))
      continue;
    g_string_append_printf(s, "%s%s%s", first ? "" : ", ", f->usage,
                           f->usage_more ? f->usage_more : "");
    first = FALSE;
  }
  g_string_append(s, ", then:\n");
  GHashTable *listed = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < family_count(); i++) {
    const family_ops *f = family_at(i);
    for (int k = 0; has_shorthand(f) && k < f->nparams; k++)
      if (g_hash_table_add(listed, (gpointer)f->params[k].key))
        g_string_append_printf(s, "  %-11s %s\n", f->params[k].key, f->params[k].help);
  }
  g_hash_table_destroy(listed);
  g_autofree char *routings = routing_list(0), *seeded = routing_list(ROUTE_FLAG_SEEDED);
  g_string_append_printf(s, "  %-11s %s\n", "routing", routings);
  g_string_append_printf(s, "  %-11s of %s (default 1)\n", "seed", seeded);
  g_string_append_printf(s, "  %-11s %s\n", "cores", common_params[2].help);
  g_string_append(s, "  bw, lat     every link's bandwidth and latency (default 200Gbit/s, 100ns; "
                     "one link type per class: node, local, global, level2 ..., x ...)\n");
}

/* The parameter `key` of family f's shorthand, or NULL. */
static const family_param *find_param(const family_ops *f, const char *key)
{
  for (int i = 0; i < f->nparams; i++)
    if (!strcmp(key, f->params[i].key))
      return &f->params[i];
  for (size_t i = 0; i < G_N_ELEMENTS(common_params); i++)
    if (!strcmp(key, common_params[i].key))
      return &common_params[i];
  return NULL;
}

/* A segment KEY=VALUE of a family shorthand into kf. */
static gboolean shorthand_param(GKeyFile *kf, const char *spec, const family_ops *f,
                                const char *seg, GError **error)
{
  const char *eq = strchr(seg, '=');
  g_autofree char *key = eq ? g_strndup(seg, (gsize)(eq - seg)) : g_strdup(seg);
  const family_param *pr = eq ? find_param(f, key) : NULL;
  if (pr) {
    g_key_file_set_value(kf, pr->group, pr->ini, eq + 1);
    return TRUE;
  }
  /* a routing's options (routing=ugal:variant=local:bias=2): segments of
   * the routing's value (router_set_algo checks them) */
  static const char *const routing_opts[] = { "per", "variant", "candidates", "bias" };
  for (size_t i = 0; eq && i < G_N_ELEMENTS(routing_opts); i++)
    if (!strcmp(key, routing_opts[i]) && g_key_file_has_key(kf, "routing", "algorithm", NULL)) {
      g_autofree char *algo = g_key_file_get_value(kf, "routing", "algorithm", NULL);
      g_autofree char *joined = g_strconcat(algo, ":", seg, NULL);
      g_key_file_set_value(kf, "routing", "algorithm", joined);
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
  g_autoptr(GString) own = g_string_new(NULL);
  for (int i = 0; i < f->nparams; i++)
    g_string_append_printf(own, "%s%s", i ? ", " : "", f->params[i].key);
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
              "platform '%s': '%s', expected KEY=VALUE with KEY one of %s, routing, seed, "
              "cores, bw, lat", spec, seg, own->str);
  return FALSE;
}

GKeyFile *platform_family_shorthand(const char *spec, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  const family_ops *f = family_find(parts[0]);
  if (!f || !has_shorthand(f))
    return NULL;
  GKeyFile *kf = g_key_file_new();
  g_key_file_set_value(kf, "platform", "name", spec);
  g_key_file_set_value(kf, "topology", "kind", parts[0]);
  int first = 1;
  if (f->positional) {
    g_key_file_set_value(kf, "topology", f->positional, parts[1] ? parts[1] : "");
    first = parts[1] ? 2 : 1; /* "hyperx" alone: no shape, no parameters */
  }
  /* one link type per class, named as the class */
  char names[1 + TOPO_MAX_DIMS + TOPO_MAX_LEVELS][16];
  int nslots = f->shorthand_slots(parts, names, G_N_ELEMENTS(names));
  for (int s = 0; s < nslots; s++) {
    char group[32];
    g_snprintf(group, sizeof group, "linktype.%s", names[s]);
    set_double(kf, group, "bandwidth", FAMILY_BW);
    set_double(kf, group, "latency", FAMILY_LAT);
    g_key_file_set_value(kf, "links", names[s], names[s]);
  }
  for (int i = first; parts[i]; i++) {
    int taken = f->shorthand_segment ? f->shorthand_segment(kf, spec, parts[i], error) : -1;
    if (taken == 0 || (taken < 0 && !shorthand_param(kf, spec, f, parts[i], error))) {
      g_key_file_free(kf);
      return NULL;
    }
  }
  return kf;
}
