/* platform-load.c - which loader reads a platform argument (an INI file,
 * a HAEC-SIM JSON file, a SimGrid platform file (XML, probed by its first
 * element), Slurm's topology file or a shorthand) and the
 * shorthands as the INI key files they stand for. Above the loaders and
 * the builder (platform.c), which never call back up here.
 *
 * The paper's link types (korndoerfer2021, Table 4) back the shorthands:
 * optical 250 Gbit/s, 10 ps; wireless 100 Gbit/s, 100 ps.
 */
#include "routing/platform-private.h"

#include <string.h>

#include "util/suggest.h"
#include "util/sweep.h"

#define OPTICAL_BW 31.25e9   /* 250 Gbit/s in bytes/s */
#define OPTICAL_LAT 10e-12
#define WIRELESS_BW 12.5e9   /* 100 Gbit/s in bytes/s */
#define WIRELESS_LAT 100e-12

/* Appends a double so that it parses back to the same value. */
static void kf_set_double(GKeyFile *kf, const char *group, const char *key, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_key_file_set_value(kf, group, key, g_ascii_dtostr(buf, sizeof buf, v));
}

char *platform_shorthand_help(void)
{
  GString *s = g_string_new("Platform shorthands: mesh:XxYxZ, torus:XxYxZ (1 to 8 sizes), "
                            "haec:XxYxZ (the last dimension the wireless crossbar), then "
                            ":KEY=VALUE parameters:\n");
  for (int i = 0; i < platform_nshorthand_params; i++) {
    const platform_shorthand_param *k = &platform_shorthand_params[i];
    g_string_append_printf(s, "  %-7s %s%s\n", k->key, k->help, k->haec_only ? ", haec only" : "");
  }
  platform_family_shorthand_help(s);
  g_autofree char *units = units_help();
  g_string_append_printf(s, "Numbers here and in --set, platform and study files may carry "
                         "units:\n%sExample: torus:4x4x4:kinds=torus,torus,mesh:bw=500Gbit/s:"
                         "lat=20ps", units);
  return g_string_free(s, FALSE);
}

/* The shorthand's parameters: KEY=VALUE segments after the shape. */
static gboolean shorthand_param(GKeyFile *kf, const char *spec, const char *seg, gboolean haec,
                                GError **error)
{
  const char *eq = strchr(seg, '=');
  for (int k = 0; eq && k < platform_nshorthand_params; k++) {
    const platform_shorthand_param *pr = &platform_shorthand_params[k];
    if (strncmp(seg, pr->key, (size_t)(eq - seg)) != 0 || pr->key[eq - seg])
      continue;
    if (pr->haec_only && !haec) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "platform '%s': '%s': %s is a parameter of the HAEC Box's wireless links, "
                  "expected haec:XxYxZ or a parameter of its optical links (bw, lat)", spec, seg,
                  pr->key);
      return FALSE;
    }
    if (pr->number) {
      double v;
      if (!platform_shorthand_number(spec, pr->key, eq + 1, pr->quantity, &v, error))
        return FALSE;
      kf_set_double(kf, pr->group, pr->ini, v);
    } else {
      g_key_file_set_value(kf, pr->group, pr->ini, eq + 1);
    }
    return TRUE;
  }
  GString *keys = g_string_new(NULL);
  g_autofree char *key = eq ? g_strndup(seg, (gsize)(eq - seg)) : g_strdup(seg);
  suggestion sg;
  suggestion_init(&sg, key);
  for (int k = 0; k < platform_nshorthand_params; k++)
    if (haec || !platform_shorthand_params[k].haec_only) {
      suggestion_add(&sg, platform_shorthand_params[k].key);
      g_string_append_printf(keys, "%s%s", keys->len ? ", " : "", platform_shorthand_params[k].key);
    }
  const char *near = suggestion_best(&sg);
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
              "platform '%s': '%s'%s%s%s, expected KEY=VALUE with KEY one of %s", spec, seg,
              near ? " (did you mean " : "", near ? near : "", near ? "?)" : "", keys->str);
  g_string_free(keys, TRUE);
  return FALSE;
}

/* Shorthand KIND:SHAPE[:KEY=VALUE...] as the INI key file it stands for:
 * torus:4x4x4, haec:4x4x4, torus:4x4x4:kinds=torus,torus,mesh:bw=62.5e9. */
static GKeyFile *shorthand_keyfile(const char *spec, GError **error)
{
  char **parts = g_strsplit(spec, ":", -1);
  int nparts = (int)g_strv_length(parts);
  const char *kind = parts[0];
  char **dims = nparts > 1 ? g_strsplit(parts[1], "x", -1) : NULL;
  int ndims = dims ? (int)g_strv_length(dims) : 0;
  gboolean haec = strcmp(kind, "haec") == 0;
  topo_conn base = TOPO_MESH;
  GKeyFile *kf = NULL;
  if (!haec && !topo_conn_from_name(kind, &base)) {
    g_autoptr(GString) usages = g_string_new("mesh:XxYxZ, torus:XxYxZ, haec:XxYxZ");
    suggestion sg;
    suggestion_init(&sg, kind);
    suggestion_add(&sg, "mesh");
    suggestion_add(&sg, "torus");
    suggestion_add(&sg, "haec");
    platform_family_shorthand_usages(usages, &sg);
    const char *near = suggestion_best(&sg);
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "platform '%s': not a file%s%s%s, expected an .ini or .json file or a shorthand "
                "%s", spec, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "",
                usages->str);
    goto out;
  }
  if (ndims < 1 || ndims > TOPO_MAX_DIMS || (haec && ndims < 2)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "platform '%s': expected a shape like 4x4x4 with %d to %d sizes", spec,
                haec ? 2 : 1, TOPO_MAX_DIMS);
    goto out;
  }
  GString *conn = g_string_new(NULL);
  for (int d = 0; d < ndims; d++) {
    long v;
    if (!platform_parse_long(dims[d], 1, 1 << 20, &v)) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "platform '%s': size '%s' of dimension %c, expected a positive integer", spec,
                  dims[d], topo_dim_letter(d));
      g_string_free(conn, TRUE);
      goto out;
    }
    g_string_append_printf(conn, "%s%s", d ? "," : "",
                           topo_conn_name(haec ? (d == ndims - 1 ? TOPO_CROSSBAR : TOPO_TORUS)
                                               : base));
  }
  kf = g_key_file_new();
  g_key_file_set_value(kf, "platform", "name", spec);
  g_key_file_set_value(kf, "topology", "shape", parts[1]);
  g_key_file_set_value(kf, "topology", "connectivity", conn->str);
  g_string_free(conn, TRUE);
  kf_set_double(kf, "linktype.optical", "bandwidth", OPTICAL_BW);
  kf_set_double(kf, "linktype.optical", "latency", OPTICAL_LAT);
  g_key_file_set_value(kf, "links", "default", "optical");
  if (haec) {
    kf_set_double(kf, "linktype.wireless", "bandwidth", WIRELESS_BW);
    kf_set_double(kf, "linktype.wireless", "latency", WIRELESS_LAT);
    char key[2] = { topo_dim_letter(ndims - 1), 0 };
    g_key_file_set_value(kf, "links", key, "wireless");
  }
  for (int i = 2; i < nparts; i++)
    if (!shorthand_param(kf, spec, parts[i], haec, error)) {
      g_key_file_free(kf);
      kf = NULL;
      goto out;
    }
out:
  g_strfreev(dims);
  g_strfreev(parts);
  return kf;
}

/* The INI format of a key file that stands for `spec` (NULL: error set). */
static platform *load_keyfile(GKeyFile *kf, const char *spec, const char *const *sets,
                              GError **error)
{
  if (!kf)
    return NULL;
  platform *p = platform_from_keyfile(kf, spec, sets, error);
  g_key_file_free(kf);
  return p;
}

/* A shorthand's KEY=VALUE segment given twice is refused naming both (the
 * last would win silently). */
static gboolean check_repeated_keys(const char *spec, GError **error)
{
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  for (int i = 1; parts[i]; i++) {
    const char *eq = strchr(parts[i], '=');
    size_t len = eq ? (size_t)(eq - parts[i]) : 0;
    for (int j = 1; eq && j < i; j++)
      if (!strncmp(parts[j], parts[i], len) && parts[j][len] == '=') {
        g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                    "platform '%s': '%s' and '%s' both give %.*s, expected each key once", spec,
                    parts[j], parts[i], (int)len, parts[i]);
        return FALSE;
      }
  }
  return TRUE;
}

platform *platform_load_shorthand(const char *spec, const char *const *sets, GError **error)
{
  if (!check_repeated_keys(spec, error))
    return NULL;
  GError *e = NULL;
  GKeyFile *kf = platform_family_shorthand(spec, &e);
  if (e) {
    g_propagate_error(error, e);
    return NULL;
  }
  if (!kf)
    kf = shorthand_keyfile(spec, error);
  return load_keyfile(kf, spec, sets, error);
}

platform *platform_load(const char *spec, GError **error)
{
  return platform_load_with(spec, NULL, error);
}

platform *platform_load_with(const char *spec, const char *const *sets, GError **error)
{
  const char *swept = sweep_has(spec) ? spec : NULL;
  for (int i = 0; !swept && sets && sets[i]; i++)
    swept = sweep_has(sets[i]) ? sets[i] : NULL;
  if (swept) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "'%s': a sweep ({...}) stands for several platforms, expected one value here "
                "(compare and study expand sweeps)", swept);
    return NULL;
  }
  if (g_str_has_suffix(spec, ".json")) {
    if (sets && sets[0]) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: --set applies to INI platform files and shorthands, expected one of them "
                  "(a HAEC-SIM JSON file has no INI keys)", spec);
      return NULL;
    }
    return platform_load_json(spec, error);
  }
  if (!g_str_has_suffix(spec, ".ini") && g_file_test(spec, G_FILE_TEST_IS_REGULAR) &&
      platform_sgxml_file(spec)) {
    if (sets && sets[0]) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: --set applies to INI platform files and shorthands, expected one of them "
                  "(a SimGrid platform file has no INI keys)", spec);
      return NULL;
    }
    return platform_load_sgxml(spec, error);
  }
  if (!g_str_has_suffix(spec, ".ini") && platform_slurm_file(spec))
    return load_keyfile(platform_slurm_keyfile(spec, error), spec, sets, error);
  if (g_str_has_suffix(spec, ".ini") || g_file_test(spec, G_FILE_TEST_EXISTS))
    return platform_load_ini(spec, sets, error);
  if (strchr(spec, ':') == NULL && (strchr(spec, '/') || strchr(spec, '.'))) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_IO,
                "%s: no such file, expected a platform file or a shorthand like torus:4x4x4",
                spec);
    return NULL;
  }
  return platform_load_shorthand(spec, sets, error);
}

