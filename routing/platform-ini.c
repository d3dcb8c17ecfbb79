/* platform-ini.c - the native platform file: a GKeyFile INI.
 *
 *   [platform]      name, description, preset = mapsim | simgrid (protocol and
 *                   routing choices the keys below override)
 *   [topology]      shape = 4x4x4, connectivity = torus,torus,crossbar (or one
 *                   word for all dimensions); or graph = FILE (lines
 *                   `src dst [linktype]`), bidirectional = true|false; or
 *                   kind = dragonfly | fattree | hyperx | tree and the
 *                   family's keys (platform-family.c)
 *   [linktype.N]    bandwidth (bytes/s), latency (s); power-idle, power-busy
 *                   or energy-per-bit, power-off (W, J/bit), idle-timeout,
 *                   wake-latency (s): routing/energy.h
 *   [links]         x = TYPE[,TYPE...] per dimension (a pattern cycling over
 *                   the coordinate), default = TYPE; indirect networks:
 *                   node, local, global, level2 ... per link class
 *   [nodes]         cores = 1
 *   [allocation]    nodes = all | POLICY:N[:SEED] (routing/alloc.h) | FILE, fill = pack | spread
 *   [routing]       order = xyz, table = FILE, tie = positive | simgrid,
 *                   algorithm = a routing of route.h, seed = N (keyed ones)
 *   [model]         router_delay, eager_threshold, handshake = rts-cts | sync,
 *                   send_overhead, recv_overhead, packet_size, packet_header,
 *                   envelope, sharing = fair | latency, eager_start = send | match,
 *                   SMPI's corrections: bw_factor, lat_factor = SIZE:FACTOR;...,
 *                   tcp_gamma, crosstraffic, weight_s (routing/platform.h)
 * Numbers may carry units (util/units.h): bandwidth = 100Gbit/s, latency =
 * 10ps, eager_threshold = 64KiB. Relative file names are relative to the
 * INI file. Unknown groups or keys and groups or keys given twice are
 * errors (they are usually typos), named with the nearest valid one.
 * Full reference: configs/README.md.
 */
#include "routing/platform-private.h"

#include "routing/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routing/energy.h"
#include "routing/family/family.h"
#include "util/budget.h"
#include "util/suggest.h"

typedef struct {
  const char *path;
  GKeyFile *kf;
  char *dir;
} ini_ctx;

static const char *const known_keys[][24] = {
  { "platform", "name", "description", "preset", NULL },
  { "topology", "shape", "connectivity", "graph", "bidirectional", "kind", "groups",
    "routers_per_group", "nodes_per_router", "global_ports", "arrangement", "k", "n", "down",
    "up", "parallel", "slurm", "slurm_topology", NULL },
  { "links", "default", "x", "y", "z", "w", "v", "u", "t", "s", "node", "local", "global",
    "level2", "level3", "level4", "level5", "level6", "level7", "level8", NULL },
  { "nodes", "cores", NULL },
  { "allocation", "nodes", "fill", NULL },
  { "routing", "order", "table", "algorithm", "tie", "seed", NULL },
  { "model", "router_delay", "eager_threshold", "handshake", "send_overhead", "recv_overhead",
    "packet_size", "packet_header", "envelope", "sharing", "eager_start", "bw_factor",
    "lat_factor", "tcp_gamma", "crosstraffic", "weight_s", NULL },
};

static const char *const linktype_keys[] = { "linktype.NAME", "bandwidth", "latency",
                                              "power-idle", "power-busy", "energy-per-bit",
                                              "power-off", "idle-timeout", "wake-latency", NULL };

/* The numbers of [model] with their quantity and smallest value; the one
 * table the reader and platform_key_quantity use. */
static const struct {
  const char *key;
  units_quantity q;
  gboolean integer;
  double min;
  size_t off;
} model_numbers[] = {
  { "router_delay", UNITS_TIME, FALSE, 0, G_STRUCT_OFFSET(platform_model, router_delay) },
  { "send_overhead", UNITS_TIME, FALSE, 0, G_STRUCT_OFFSET(platform_model, send_overhead) },
  { "recv_overhead", UNITS_TIME, FALSE, 0, G_STRUCT_OFFSET(platform_model, recv_overhead) },
  { "eager_threshold", UNITS_SIZE, TRUE, 0, G_STRUCT_OFFSET(platform_model, eager_threshold) },
  { "packet_size", UNITS_SIZE, TRUE, 1, G_STRUCT_OFFSET(platform_model, packet_size) },
  { "packet_header", UNITS_SIZE, TRUE, 0, G_STRUCT_OFFSET(platform_model, packet_header) },
  { "envelope", UNITS_SIZE, TRUE, 0, G_STRUCT_OFFSET(platform_model, envelope) },
  { "tcp_gamma", UNITS_SIZE, FALSE, 0, G_STRUCT_OFFSET(platform_model, tcp_gamma) },
  { "crosstraffic", UNITS_NUMBER, FALSE, 0, G_STRUCT_OFFSET(platform_model, crosstraffic) },
  { "weight_s", UNITS_SIZE, FALSE, 0, G_STRUCT_OFFSET(platform_model, weight_s) },
};

/* The power keys of a link type (routing/energy.h) with their quantity and
 * the value that means "not given"; the one table the reader and
 * platform_key_quantity use. Watts and joules per bit are plain numbers. */
static const struct {
  const char *key;
  units_quantity q;
  double absent;
} power_keys[] = {
  { "power-idle", UNITS_NUMBER, 0 },
  { "power-busy", UNITS_NUMBER, -1 },
  { "energy-per-bit", UNITS_NUMBER, -1 },
  { "power-off", UNITS_NUMBER, 0 },
  { "idle-timeout", UNITS_TIME, -1 },
  { "wake-latency", UNITS_TIME, 0 },
};

/* The known keys of `group` (entry 0 is the group's name), or NULL. */
static const char *const *group_keys(const char *group)
{
  if (g_str_has_prefix(group, "linktype."))
    return linktype_keys;
  for (size_t i = 0; i < G_N_ELEMENTS(known_keys); i++)
    if (strcmp(known_keys[i][0], group) == 0)
      return known_keys[i];
  return NULL;
}

/* " (did you mean PREFIXNAME?)" or "" */
static char *did_you_mean(const char *word, const char *const *names, int n, const char *prefix)
{
  suggestion sg;
  suggestion_init(&sg, word);
  for (int i = 0; n < 0 ? names[i] != NULL : i < n; i++)
    suggestion_add(&sg, names[i]);
  const char *near = suggestion_best(&sg);
  return near ? g_strdup_printf(" (did you mean %s%s?)", prefix, near) : g_strdup("");
}

/* Keys of [topology] and [links] a family registered at run time has
 * beyond the table above: its [topology] keys, and [links] names its
 * builder checks against its link classes (platform_build_family). */
static gboolean family_knows(GKeyFile *kf, const char *group, const char *key)
{
  g_autofree char *kind = g_key_file_get_string(kf, "topology", "kind", NULL);
  const family_ops *f = kind ? family_find(g_strstrip(kind)) : NULL;
  if (!f || !f->read)
    return FALSE;
  if (!strcmp(group, "links"))
    return TRUE;
  return !strcmp(group, "topology") && g_strv_contains(f->keys, key);
}

static gboolean check_keys(ini_ctx *c, GError **error)
{
  gsize ngroups = 0;
  char **groups = g_key_file_get_groups(c->kf, &ngroups);
  gboolean ok = TRUE;
  for (gsize g = 0; g < ngroups && ok; g++) {
    const char *const *known = group_keys(groups[g]);
    if (!known) {
      const char *names[G_N_ELEMENTS(known_keys)];
      for (size_t i = 0; i < G_N_ELEMENTS(known_keys); i++)
        names[i] = known_keys[i][0];
      g_autofree char *hint = did_you_mean(groups[g], names, G_N_ELEMENTS(names), "");
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [%s]: unknown group%s, expected platform, topology, linktype.NAME, links, "
                  "nodes, allocation, routing or model", c->path, groups[g], hint);
      ok = FALSE;
      break;
    }
    char **keys = g_key_file_get_keys(c->kf, groups[g], NULL, NULL);
    for (int k = 0; keys && keys[k] && ok; k++) {
      if (g_strv_contains(known + 1, keys[k]) || family_knows(c->kf, groups[g], keys[k]))
        continue;
      char *list = g_strjoinv(", ", (char **)(known + 1));
      g_autofree char *hint = did_you_mean(keys[k], known + 1, -1, "");
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [%s] %s: unknown key%s, expected one of %s", c->path, groups[g], keys[k],
                  hint, list);
      g_free(list);
      ok = FALSE;
    }
    g_strfreev(keys);
  }
  g_strfreev(groups);
  return ok;
}

gboolean platform_key_quantity(const char *key, units_quantity *q)
{
  const char *dot = strrchr(key, '.');
  if (!dot) {
    for (int i = 0; i < platform_nshorthand_params; i++)
      if (strcmp(platform_shorthand_params[i].key, key) == 0) {
        *q = platform_shorthand_params[i].quantity;
        return platform_shorthand_params[i].number;
      }
    return FALSE;
  }
  g_autofree char *group = g_strndup(key, (gsize)(dot - key));
  const char *name = dot + 1;
  if (g_str_has_prefix(group, "linktype.") && (strcmp(name, "bandwidth") == 0 ||
                                               strcmp(name, "latency") == 0)) {
    *q = strcmp(name, "bandwidth") == 0 ? UNITS_BANDWIDTH : UNITS_TIME;
    return TRUE;
  }
  for (size_t i = 0; g_str_has_prefix(group, "linktype.") && i < G_N_ELEMENTS(power_keys); i++)
    if (strcmp(power_keys[i].key, name) == 0) {
      *q = power_keys[i].q;
      return TRUE;
    }
  if (strcmp(group, "nodes") == 0 && strcmp(name, "cores") == 0) {
    *q = UNITS_NUMBER;
    return TRUE;
  }
  for (size_t i = 0; strcmp(group, "model") == 0 && i < G_N_ELEMENTS(model_numbers); i++)
    if (strcmp(model_numbers[i].key, name) == 0) {
      *q = model_numbers[i].q;
      return TRUE;
    }
  return FALSE;
}

/* A number key of quantity q (units.h); `present` tells whether it was
 * there. */
static gboolean get_double(ini_ctx *c, const char *group, const char *key, units_quantity q,
                           double *out, gboolean *present, GError **error)
{
  g_autofree char *s = g_key_file_get_value(c->kf, group, key, NULL);
  if (present)
    *present = s != NULL;
  if (!s)
    return TRUE;
  GError *e = NULL;
  if (units_parse(s, q, out, &e))
    return TRUE;
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "%s: [%s] %s = %s", c->path, group,
              key, e->message);
  g_error_free(e);
  return FALSE;
}

static char *resolve(ini_ctx *c, const char *file)
{
  return g_path_is_absolute(file) ? g_strdup(file) : g_build_filename(c->dir, file, NULL);
}

/* The power keys of link type `type` (routing/energy.h); absent keys keep
 * the defaults: no power, never switched off. */
static gboolean read_power(ini_ctx *c, platform *p, int type, const char *group,
                           const char *where, GError **error)
{
  double v[G_N_ELEMENTS(power_keys)];
  gboolean any = FALSE, present;
  for (size_t i = 0; i < G_N_ELEMENTS(power_keys); i++) {
    v[i] = power_keys[i].absent;
    if (!get_double(c, group, power_keys[i].key, power_keys[i].q, &v[i], &present, error))
      return FALSE;
    if (present && v[i] < 0) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID, "%s: %s = %g, expected a "
                  "number >= 0", where, power_keys[i].key, v[i]);
      return FALSE;
    }
    any = any || present;
  }
  return !any || platform_set_link_power(p, type, v[0], v[1], v[2], v[3], v[4], v[5], where,
                                         error);
}

static gboolean read_linktypes(ini_ctx *c, platform *p, GError **error)
{
  char **groups = g_key_file_get_groups(c->kf, NULL);
  gboolean ok = TRUE;
  for (int g = 0; groups[g] && ok; g++) {
    if (!g_str_has_prefix(groups[g], "linktype."))
      continue;
    double bw = 0, lat = 0;
    gboolean has_bw, has_lat;
    char *where = g_strdup_printf("%s: [%s]", c->path, groups[g]);
    ok = get_double(c, groups[g], "bandwidth", UNITS_BANDWIDTH, &bw, &has_bw, error) &&
         get_double(c, groups[g], "latency", UNITS_TIME, &lat, &has_lat, error);
    if (ok && (!has_bw || !has_lat)) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: missing %s, expected bandwidth (bytes/s) and latency (s)", where,
                  has_bw ? "latency" : "bandwidth");
      ok = FALSE;
    }
    int type = ok ? platform_add_linktype(p, groups[g] + strlen("linktype."), bw, lat, where,
                                          error) : -1;
    ok = type >= 0 && read_power(c, p, type, groups[g], where, error);
    g_free(where);
  }
  g_strfreev(groups);
  if (ok && p->nlinktypes == 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: no [linktype.NAME] group, expected at least one link type", c->path);
    ok = FALSE;
  }
  return ok;
}

/* Link type by name, or the default when `name` is NULL. */
static int type_index(ini_ctx *c, const platform *p, const char *name, const char *field,
                      GError **error)
{
  return platform_links_type_named(c->kf, p, c->path, name, field, error);
}

static gboolean parse_shape(ini_ctx *c, int *ndims, int *shape, topo_conn *conn, GError **error)
{
  char *s = g_key_file_get_string(c->kf, "topology", "shape", NULL);
  if (!s) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology]: expected shape = XxYxZ (or graph = FILE)", c->path);
    return FALSE;
  }
  char **dims = g_strsplit_set(g_strstrip(s), "x,", -1);
  *ndims = (int)g_strv_length(dims);
  gboolean ok = *ndims >= 1 && *ndims <= TOPO_MAX_DIMS;
  for (int d = 0; ok && d < *ndims; d++) {
    char *end;
    long v = strtol(dims[d], &end, 10);
    ok = end != dims[d] && *end == '\0' && v >= 1 && v <= (1 << 20);
    shape[d] = (int)v;
  }
  if (!ok)
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] shape = '%s': expected 1 to %d positive sizes like 4x4x4",
                c->path, s, TOPO_MAX_DIMS);
  g_strfreev(dims);
  g_free(s);
  if (!ok)
    return FALSE;

  char *cs = g_key_file_get_string(c->kf, "topology", "connectivity", NULL);
  char **words = g_strsplit_set(cs ? g_strstrip(cs) : "torus", ",; ", -1);
  const char *w[TOPO_MAX_DIMS + 1];
  int nw = 0;
  for (int i = 0; words[i]; i++)
    if (*words[i]) {
      if (nw <= TOPO_MAX_DIMS)
        w[nw] = words[i];
      nw++;
    }
  ok = nw == 1 || nw == *ndims;
  for (int d = 0; ok && d < *ndims; d++)
    ok = topo_conn_from_name(w[nw == 1 ? 0 : d], &conn[d]);
  if (!ok)
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] connectivity = '%s': expected one of mesh, torus, crossbar "
                "for all or for each of the %d dimensions", c->path, cs ? cs : "", *ndims);
  g_free(cs);
  g_strfreev(words);
  return ok;
}

static gboolean build_regular(ini_ctx *c, platform *p, GError **error)
{
  int ndims, shape[TOPO_MAX_DIMS];
  topo_conn conn[TOPO_MAX_DIMS];
  if (!parse_shape(c, &ndims, shape, conn, error))
    return FALSE;
  int *pattern[TOPO_MAX_DIMS] = { NULL };
  int len[TOPO_MAX_DIMS] = { 0 };
  gboolean ok = TRUE;
  for (int d = 0; d < ndims && ok; d++) {
    char key[2] = { topo_dim_letter(d), 0 };
    char field[32];
    g_snprintf(field, sizeof field, "[links] %s", key);
    char **names = g_key_file_get_string_list(c->kf, "links", key, NULL, NULL);
    int n = names ? (int)g_strv_length(names) : 0;
    pattern[d] = g_new(int, n ? n : 1);
    len[d] = n ? n : 1;
    if (!n)
      pattern[d][0] = type_index(c, p, NULL, key, error);
    for (int i = 0; i < n; i++)
      pattern[d][i] = type_index(c, p, g_strstrip(names[i]), field, error);
    for (int i = 0; i < len[d]; i++)
      ok = ok && pattern[d][i] >= 0;
    g_strfreev(names);
  }
  if (ok)
    ok = platform_build_regular(p, ndims, shape, conn, pattern, len, error);
  for (int d = 0; d < ndims; d++)
    g_free(pattern[d]);
  if (!ok && error && *error && ((*error)->domain == TOPO_ERROR || (*error)->domain == BUDGET_ERROR))
    g_prefix_error(error, "%s: [topology]: ", c->path);
  return ok;
}

static gboolean build_graph(ini_ctx *c, platform *p, const char *file, GError **error)
{
  char *path = resolve(c, file);
  char *text = NULL;
  gboolean ok = FALSE;
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *typ = g_array_new(FALSE, FALSE, sizeof(uint8_t));
  char **lines = NULL;
  int nnodes = 0;
  gboolean bidir = g_key_file_get_boolean(c->kf, "topology", "bidirectional", NULL);
  if (!budget_read_text(path, "a link list 'src dst [linktype]'", &text, NULL, error)) {
    g_prefix_error(error, "%s: [topology] graph: ", c->path);
    goto out;
  }
  lines = g_strsplit(text, "\n", -1);
  for (int ln = 0; lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    char **tok = g_strsplit_set(g_strstrip(lines[ln]), " \t", -1);
    int nt = 0;
    for (int i = 0; tok[i]; i++)
      if (*tok[i])
        tok[nt++] = tok[i];
    if (nt == 0) {
      g_strfreev(tok);
      continue;
    }
    char *e1 = NULL, *e2 = NULL;
    long s = nt >= 2 ? strtol(tok[0], &e1, 10) : -1;
    long d = nt >= 2 ? strtol(tok[1], &e2, 10) : -1;
    int ty = nt == 3 ? platform_find_linktype(p, tok[2]) : type_index(c, p, NULL, "graph", NULL);
    gboolean good = nt >= 2 && nt <= 3 && *e1 == '\0' && *e2 == '\0' && s >= 0 && d >= 0 &&
                    s < (1 << 20) && d < (1 << 20) && s != d && ty >= 0;
    if (!good) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s:%d: expected 'src dst [linktype]' with two different node ids >= 0 and "
                  "a defined link type", path, ln + 1);
      g_strfreev(tok);
      goto out;
    }
    g_strfreev(tok);
    for (int rev = 0; rev <= (bidir ? 1 : 0); rev++) {
      int a = (int)(rev ? d : s), b = (int)(rev ? s : d);
      uint8_t t8 = (uint8_t)ty;
      g_array_append_val(src, a);
      g_array_append_val(dst, b);
      g_array_append_val(typ, t8);
    }
    nnodes = MAX(nnodes, (int)MAX(s, d) + 1);
  }
  if (src->len == 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s:1: no links, expected lines 'src dst [linktype]'", path);
    goto out;
  }
  ok = platform_build_graph(p, nnodes, (int)src->len, (int *)(void *)src->data,
                            (int *)(void *)dst->data, (uint8_t *)typ->data, error);
out:
  g_strfreev(lines);
  g_free(text);
  g_free(path);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(typ, TRUE);
  return ok;
}

static gboolean read_model(ini_ctx *c, platform *p, GError **error)
{
  for (size_t i = 0; i < G_N_ELEMENTS(model_numbers); i++) {
    double v;
    gboolean present;
    if (!get_double(c, "model", model_numbers[i].key, model_numbers[i].q, &v, &present, error))
      return FALSE;
    if (!present)
      continue;
    gboolean integer = model_numbers[i].integer;
    if (v < model_numbers[i].min || (integer && (v != floor(v) || v > 1e18))) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                  "%s: [model] %s = %g: expected %s >= %g", c->path, model_numbers[i].key, v,
                  integer ? "a whole number" : "a number", model_numbers[i].min);
      return FALSE;
    }
    char *base = (char *)&p->model + model_numbers[i].off;
    if (integer)
      *(int64_t *)(void *)base = (int64_t)v;
    else
      *(double *)(void *)base = v;
  }
  g_autofree char *hs = g_key_file_get_string(c->kf, "model", "handshake", NULL);
  if (hs && !platform_handshake_from_name(g_strstrip(hs), &p->model.handshake)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [model] handshake = '%s': expected rts-cts or sync", c->path, hs);
    return FALSE;
  }
  g_autofree char *es = g_key_file_get_string(c->kf, "model", "eager_start", NULL);
  if (es && !platform_eager_start_from_name(g_strstrip(es), &p->model.eager_start)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [model] eager_start = '%s': expected send or match", c->path, es);
    return FALSE;
  }
  static const char *const factor_keys[] = { "bw_factor", "lat_factor" };
  platform_factors *tables[] = { &p->model.bw_factor, &p->model.lat_factor };
  for (int i = 0; i < 2; i++) {
    g_autofree char *text = g_key_file_get_string(c->kf, "model", factor_keys[i], NULL);
    char *why = NULL;
    if (text && !platform_factors_parse(text, tables[i], &why)) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: [model] %s = '%s': %s (expected SIZE:FACTOR;SIZE:FACTOR...)", c->path,
                  factor_keys[i], text, why);
      g_free(why);
      return FALSE;
    }
  }
  g_autofree char *sh = g_key_file_get_string(c->kf, "model", "sharing", NULL);
  if (sh && !platform_sharing_from_name(g_strstrip(sh), &p->model.sharing)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [model] sharing = '%s': expected fair or latency", c->path, sh);
    return FALSE;
  }
  return TRUE;
}

/* [platform] preset, then [routing] tie (which overrides the preset's). */
static gboolean read_choices(ini_ctx *c, platform *p, GError **error)
{
  g_autofree char *preset = g_key_file_get_string(c->kf, "platform", "preset", NULL);
  if (preset && !platform_apply_preset(p, g_strstrip(preset), error)) {
    g_prefix_error(error, "%s: [platform] ", c->path);
    return FALSE;
  }
  g_autofree char *tie = g_key_file_get_string(c->kf, "routing", "tie", NULL);
  if (tie && !route_tie_from_name(g_strstrip(tie), &p->router->tie)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [routing] tie = '%s': expected positive or simgrid", c->path, tie);
    return FALSE;
  }
  return TRUE;
}

/* [routing] algorithm and seed. */
static gboolean read_routing(ini_ctx *c, platform *p, GError **error)
{
  g_autofree char *algo = g_key_file_get_string(c->kf, "routing", "algorithm", NULL);
  if (algo && !router_set_algo(p->router, g_strstrip(algo), error)) {
    g_prefix_error(error, "%s: [routing] algorithm: ", c->path);
    return FALSE;
  }
  g_autofree char *seed = g_key_file_get_string(c->kf, "routing", "seed", NULL);
  guint64 v = 0;
  if (seed && !g_ascii_string_to_unsigned(g_strstrip(seed), 10, 0, G_MAXUINT32, &v, NULL)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [routing] seed = '%s': expected a whole number from 0 to %u", c->path, seed,
                G_MAXUINT32);
    return FALSE;
  }
  if (seed)
    p->router->seed = (uint32_t)v;
  return TRUE;
}

static gboolean read_rest(ini_ctx *c, platform *p, GError **error)
{
  if (g_key_file_has_key(c->kf, "nodes", "cores", NULL)) {
    char *v = g_key_file_get_value(c->kf, "nodes", "cores", NULL);
    gint64 cores = 0;
    gboolean ok = g_ascii_string_to_signed(g_strstrip(v), 10, 1, PLATFORM_MAX_CORES, &cores, NULL);
    if (!ok)
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                  "%s: [nodes] cores = %s: expected a whole number from 1 to %d", c->path, v,
                  PLATFORM_MAX_CORES);
    g_free(v);
    if (!ok)
      return FALSE;
    p->cores_per_node = (int)cores;
  }
  char *order = g_key_file_get_string(c->kf, "routing", "order", NULL);
  gboolean ok = platform_finish(p, order ? g_strstrip(order) : NULL, error);
  if (!ok && error && *error && (*error)->domain == ROUTE_ERROR)
    g_prefix_error(error, "%s: [routing] order: ", c->path);
  g_free(order);
  if (!ok || !read_routing(c, p, error) || !read_choices(c, p, error))
    return FALSE;
  char *table = g_key_file_get_string(c->kf, "routing", "table", NULL);
  if (table) {
    char *path = resolve(c, g_strstrip(table));
    ok = router_load_table(p->router, path, error);
    g_free(path);
    g_free(table);
    if (!ok)
      return FALSE;
  }
  char *alloc = g_key_file_get_string(c->kf, "allocation", "nodes", NULL);
  if (alloc) {
    g_strstrip(alloc);
    gboolean policy = strcmp(alloc, "all") == 0 || alloc_is_policy(alloc);
    char *spec = policy ? g_strdup(alloc) : resolve(c, alloc);
    ok = platform_set_allocation(p, spec, error);
    if (!ok && error && *error && policy)
      g_prefix_error(error, "%s: [allocation] nodes: ", c->path);
    g_free(spec);
    g_free(alloc);
    if (!ok)
      return FALSE;
  }
  char *fill = g_key_file_get_string(c->kf, "allocation", "fill", NULL);
  if (fill) {
    ok = platform_set_fill(p, g_strstrip(fill), error);
    g_free(fill);
    if (!ok) {
      g_prefix_error(error, "%s: [allocation] ", c->path);
      return FALSE;
    }
  }
  return read_model(c, p, error);
}

/* GKeyFile merges a group given twice and keeps the last of a key given
 * twice; in a platform file either is a mistake (a pasted block, a typo in
 * a group name). This finds the first repeat: one pass over the lines,
 * which GKeyFile has already accepted as well-formed. */
static gboolean check_repeats(const char *path, const char *text, GError **error)
{
  GHashTable *groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  char **lines = g_strsplit(text, "\n", -1);
  char *group = NULL;
  gboolean ok = TRUE;
  for (int ln = 0; lines[ln] && ok; ln++) {
    char *l = g_strstrip(lines[ln]);
    if (*l == '\0' || *l == '#')
      continue;
    if (*l == '[') {
      char *close = strchr(l, ']');
      g_free(group);
      group = g_strndup(l + 1, close ? (gsize)(close - l - 1) : strlen(l + 1));
      gpointer first = g_hash_table_lookup(groups, group);
      if (first) {
        g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                    "%s:%d: group [%s] again (first on line %d), expected each group once",
                    path, ln + 1, group, GPOINTER_TO_INT(first));
        ok = FALSE;
      }
      g_hash_table_insert(groups, g_strdup(group), GINT_TO_POINTER(ln + 1));
      continue;
    }
    char *eq = strchr(l, '=');
    if (!eq || !group)
      continue;
    char *key = g_strstrip(g_strndup(l, (gsize)(eq - l)));
    char *full = g_strdup_printf("%s\n%s", group, key);
    gpointer first = g_hash_table_lookup(keys, full);
    if (first) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s:%d: [%s] %s given again (first on line %d), expected each key once",
                  path, ln + 1, group, key, GPOINTER_TO_INT(first));
      ok = FALSE;
      g_free(full);
    } else {
      g_hash_table_insert(keys, full, GINT_TO_POINTER(ln + 1));
    }
    g_free(key);
  }
  g_free(group);
  g_strfreev(lines);
  g_hash_table_destroy(groups);
  g_hash_table_destroy(keys);
  return ok;
}

/* Every group a --set may name on this key file: the fixed ones and the
 * link types it defines (caller frees the array, not the strings). */
static GPtrArray *settable_groups(GKeyFile *kf)
{
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  for (size_t i = 0; i < G_N_ELEMENTS(known_keys); i++)
    g_ptr_array_add(names, g_strdup(known_keys[i][0]));
  g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
  for (int i = 0; groups[i]; i++)
    if (g_str_has_prefix(groups[i], "linktype."))
      g_ptr_array_insert(names, 2, g_strdup(groups[i]));
  return names;
}

/* Checks one override against the key file: its group must be one of the
 * platform's (a link type it defines) and its key one of the group's.
 * FALSE + error naming the nearest valid name; `*skip` when the group is a
 * link type the platform lacks and the override is optional. */
static gboolean check_set(GKeyFile *kf, const char *source, const char *set, gboolean optional,
                          const char *group, const char *key, gboolean *skip, GError **error)
{
  *skip = FALSE;
  const char *const *known = group_keys(group);
  gboolean is_type = g_str_has_prefix(group, "linktype.");
  if (!known || (is_type && !g_key_file_has_group(kf, group))) {
    if (is_type && optional) {
      *skip = TRUE;
      return TRUE;
    }
    GPtrArray *names = settable_groups(kf);
    g_autofree char *hint = did_you_mean(group, (const char *const *)names->pdata,
                                         (int)names->len, "");
    g_ptr_array_add(names, NULL);
    g_autofree char *list = g_strjoinv(", ", (char **)names->pdata);
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "--set '%s': %s has no group [%s]%s, expected one of its groups: %s%s", set,
                source, group, hint, list,
                is_type ? " (--set-if-present applies it only where the group exists)" : "");
    g_ptr_array_unref(names);
    return FALSE;
  }
  if (g_strv_contains(known + 1, key))
    return TRUE;
  g_autofree char *prefix = g_strconcat(group, ".", NULL);
  g_autofree char *hint = did_you_mean(key, known + 1, -1, prefix);
  g_autofree char *list = g_strjoinv(", ", (char **)(known + 1));
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
              "--set '%s': [%s] has no key '%s'%s, expected one of: %s", set, group, key, hint,
              list);
  return FALSE;
}

/* Applies the overrides to the key file the platform p stands for; the
 * ones applied go to `applied` (GROUP.KEY=VALUE), the optional ones left
 * out to p->left_out and a note. */
static gboolean keyfile_set(GKeyFile *kf, platform *p, const char *const *sets,
                            GPtrArray *applied, GError **error)
{
  for (int i = 0; sets && sets[i]; i++) {
    gboolean optional = sets[i][0] == '?';
    const char *set = sets[i] + optional;
    const char *eq = strchr(set, '=');
    const char *dot = NULL;
    gboolean plain = TRUE; /* names GKeyFile takes: visible ASCII, no brackets */
    for (const char *s = set; eq && s < eq; s++) {
      if (*s == '.')
        dot = s;
      plain = plain && g_ascii_isgraph(*s) && *s != '[' && *s != ']';
    }
    if (!eq || !dot || dot == set || dot + 1 == eq || !plain) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "--set '%s': expected GROUP.KEY=VALUE, e.g. linktype.optical.bandwidth=62.5e9 "
                  "or nodes.cores=4", set);
      return FALSE;
    }
    g_autofree char *group = g_strndup(set, (gsize)(dot - set));
    g_autofree char *key = g_strndup(dot + 1, (gsize)(eq - dot - 1));
    gboolean skip;
    if (!check_set(kf, p->source, set, optional, group, key, &skip, error))
      return FALSE;
    if (skip) {
      g_ptr_array_add(p->notes, g_strdup_printf("--set-if-present '%s': %s has no [%s], left "
                                                "out", set, p->source, group));
      g_ptr_array_add(p->left_out, g_strdup(set));
      continue;
    }
    g_key_file_set_value(kf, group, key, eq + 1);
    g_ptr_array_add(applied, g_strdup(set));
  }
  return TRUE;
}

/* The platform an INI key file describes, with the overrides `sets`. */
static platform *from_keyfile(GKeyFile *kf, const char *source, const char *dir,
                              const char *const *sets, GError **error)
{
  ini_ctx c = { source, kf, g_strdup(dir) };
  platform *p = NULL;
  GPtrArray *applied = g_ptr_array_new_with_free_func(g_free);
  if (!check_keys(&c, error))
    goto out;
  p = platform_alloc(source);
  if (!keyfile_set(kf, p, sets, applied, error))
    goto fail;
  char *name = g_key_file_get_string(c.kf, "platform", "name", NULL);
  if (name) {
    g_free(p->name);
    p->name = name;
  }
  if (applied->len) {
    g_ptr_array_add(applied, NULL);
    g_autofree char *all = g_strjoinv(" ", (char **)applied->pdata);
    char *named = g_strdup_printf("%s [%s]", p->name, all);
    g_free(p->name);
    p->name = named;
  }
  if (!read_linktypes(&c, p, error))
    goto fail;
  char *graph = g_key_file_get_string(c.kf, "topology", "graph", NULL);
  const struct family_ops *family;
  gboolean built = platform_family_check_keys(kf, source, &family, error) &&
                   (family
                        ? platform_build_family(p, kf, source, c.dir, family, error)
                    : graph ? build_graph(&c, p, g_strstrip(graph), error)
                            : build_regular(&c, p, error));
  g_free(graph);
  if (!built || !read_rest(&c, p, error))
    goto fail;
  goto out;
fail:
  platform_free(p);
  p = NULL;
out:
  g_ptr_array_unref(applied);
  g_free(c.dir);
  return p;
}

platform *platform_load_ini(const char *path, const char *const *sets, GError **error)
{
  GKeyFile *kf = g_key_file_new();
  g_key_file_set_list_separator(kf, ',');
  platform *p = NULL;
  GError *e = NULL;
  char *text = NULL;
  gsize len = 0;
  gboolean read = budget_read_text(path, "an INI platform file", &text, &len, error);
  if (read && !g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &e)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: %s, expected an INI platform file", path, e->message);
    g_error_free(e);
  } else if (read && check_repeats(path, text, error)) {
    g_autofree char *dir = g_path_get_dirname(path);
    p = from_keyfile(kf, path, dir, sets, error);
  }
  g_free(text);
  g_key_file_free(kf);
  return p;
}

platform *platform_from_keyfile(GKeyFile *kf, const char *source, const char *const *sets,
                                GError **error)
{
  g_key_file_set_list_separator(kf, ',');
  return from_keyfile(kf, source, ".", sets, error);
}
