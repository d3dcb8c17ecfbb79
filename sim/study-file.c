/* study-file.c - reading and checking a study file (INI, GKeyFile).
 *
 *   [study]       name, models, seeds, kinds, compute-scale, collectives,
 *                 alloc, cores, and short lists: traces, matrices,
 *                 platforms, strategies
 *   [input L]     trace = T | matrix = M [counts = C]; coords; kinds
 *   [platform L]  spec = FILE or shorthand; alloc; cores
 *   [strategy L]  pipeline = greedy+wh:delta=16+mc
 *   [report]      time, rank-static, links, color
 *
 * Every problem is collected with its line before anything runs; GKeyFile
 * reports no lines, so a small scan of the text finds the line of each
 * group and key. */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "mapping/strategy.h"
#include "traces/collectives.h"
#include "sim/study-private.h"
#include "util/budget.h"

typedef struct problem {
  int line;
  char *text;
} problem;

typedef struct loader {
  const char *path;        /* shown in messages */
  const char *base;        /* relative paths start here */
  GKeyFile *kf;
  GHashTable *lines;       /* "group" and "group\nkey" -> line */
  GArray *problems;
  gboolean bad_collectives;  /* traces cannot be expanded */
  study *s;
} loader;

static void problem_clear(gpointer p)
{
  g_free(((problem *)p)->text);
}

static void add_problem(loader *L, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void add_problem(loader *L, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  problem p = { line, g_strdup_vprintf(fmt, ap) };
  va_end(ap);
  g_array_append_val(L->problems, p);
}

static int line_of(const loader *L, const char *group, const char *key)
{
  g_autofree char *k = key ? g_strconcat(group, "\n", key, NULL) : g_strdup(group);
  return GPOINTER_TO_INT(g_hash_table_lookup(L->lines, k));
}

/* Records the line of every group and key; adds a problem for each line
 * that is none of blank, comment, [group] or key = value. */
static void scan_lines(loader *L, const char *text)
{
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_autofree char *group = NULL;
  for (int i = 0; lines[i]; i++) {
    char *l = g_strstrip(lines[i]);
    int no = i + 1;
    if (!*l || *l == '#')
      continue;
    if (*l == '[') {
      char *end = strrchr(l, ']');
      if (!end || end[1]) {
        add_problem(L, no, "'%s' is not a group header, expected [NAME]", l);
        continue;
      }
      g_free(group);
      group = g_strndup(l + 1, (gsize)(end - l - 1));
      if (!g_hash_table_contains(L->lines, group))
        g_hash_table_insert(L->lines, g_strdup(group), GINT_TO_POINTER(no));
      continue;
    }
    char *eq = strchr(l, '=');
    if (!eq) {
      add_problem(L, no, "'%s' is not a key = value line, a [group] or a # comment", l);
      continue;
    }
    if (!group) {
      add_problem(L, no, "'%s' comes before any group, expected [study] first", l);
      continue;
    }
    g_autofree char *key = g_strstrip(g_strndup(l, (gsize)(eq - l)));
    char *k = g_strconcat(group, "\n", key, NULL);
    if (g_hash_table_contains(L->lines, k)) {
      add_problem(L, no, "[%s] %s given twice, expected it once", group, key);
      g_free(k);
    } else {
      g_hash_table_insert(L->lines, k, GINT_TO_POINTER(no));
    }
  }
}

/* A path from the study file: absolute, or relative to the base folder. */
static char *resolve(const loader *L, const char *path)
{
  return g_canonicalize_filename(path, L->base);
}

/* The items of a ';' list, trimmed, empty ones dropped. */
static char **get_list(loader *L, const char *group, const char *key)
{
  g_autofree char *v = g_key_file_get_value(L->kf, group, key, NULL);
  if (!v)
    return NULL;
  g_auto(GStrv) raw = g_strsplit(v, ";", -1);
  GPtrArray *out = g_ptr_array_new();
  for (int i = 0; raw[i]; i++) {
    char *item = g_strstrip(raw[i]);
    if (*item)
      g_ptr_array_add(out, g_strdup(item));
  }
  if (out->len == 0)
    add_problem(L, line_of(L, group, key), "[%s] %s is empty, expected a list like a; b", group,
                key);
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

static char *get_string(loader *L, const char *group, const char *key)
{
  char *v = g_key_file_get_value(L->kf, group, key, NULL);
  if (v)
    g_strstrip(v);
  if (v && !*v) {
    add_problem(L, line_of(L, group, key), "[%s] %s is empty, expected a value", group, key);
    g_clear_pointer(&v, g_free);
  }
  return v;
}

static void check_keys(loader *L, const char *group, const char *const *known)
{
  g_auto(GStrv) keys = g_key_file_get_keys(L->kf, group, NULL, NULL);
  for (int i = 0; keys && keys[i]; i++) {
    if (g_strv_contains(known, keys[i]))
      continue;
    g_autofree char *list = g_strjoinv(", ", (char **)known);
    add_problem(L, line_of(L, group, keys[i]), "[%s] unknown key '%s', expected one of: %s",
                group, keys[i], list);
  }
}

static gboolean parse_kinds(loader *L, const char *group, char **items, study_kind *kinds,
                            int *n)
{
  *n = 0;
  for (int i = 0; items && items[i]; i++) {
    study_kind k;
    if (strcmp(items[i], "bytes") == 0)
      k = STUDY_KIND_BYTES;
    else if (strcmp(items[i], "count") == 0)
      k = STUDY_KIND_COUNT;
    else {
      add_problem(L, line_of(L, group, "kinds"), "[%s] kinds: '%s' is unknown, expected bytes or count",
                  group, items[i]);
      return FALSE;
    }
    gboolean dup = FALSE;
    for (int j = 0; j < *n; j++)
      dup |= kinds[j] == k;
    if (!dup)
      kinds[(*n)++] = k;
  }
  return TRUE;
}

/* ---- inputs ---- */

/* Label of a list entry: the file's name without extension, or the trace
 * folder's name. */
static char *path_label(const char *path)
{
  g_autofree char *p = g_strdup(path);
  gsize len = strlen(p);
  while (len > 1 && p[len - 1] == '/')
    p[--len] = '\0';
  if (g_str_has_suffix(p, ".otf2")) {
    g_autofree char *dir = g_path_get_dirname(p);
    return g_path_get_basename(dir);
  }
  char *base = g_path_get_basename(p);
  char *dot = strrchr(base, '.');
  if (dot && dot != base)
    *dot = '\0';
  return base;
}

static study_input *new_input(loader *L, const char *label, int line)
{
  study *s = L->s;
  for (int i = 0; i < s->ninputs; i++)
    if (strcmp(s->inputs[i].label, label) == 0)
      add_problem(L, line, "input '%s' is defined twice (line %d), expected unique labels", label,
                  s->inputs[i].line);
  s->inputs = g_renew(study_input, s->inputs, s->ninputs + 1);
  study_input *in = &s->inputs[s->ninputs++];
  *in = (study_input){ .label = g_strdup(label), .line = line };
  return in;
}

static void check_file(loader *L, int line, const char *what, const char *path)
{
  if (!g_file_test(path, G_FILE_TEST_EXISTS))
    add_problem(L, line, "%s %s: no such file or folder", what, path);
}

/* Reads the input's files; problems at its line. */
static void load_input(loader *L, study_input *in, gboolean count_needed)
{
  GError *e = NULL;
  if (in->trace_path) {
    if (!g_file_test(in->trace_path, G_FILE_TEST_EXISTS)) {
      check_file(L, in->line, "trace", in->trace_path);
      return;
    }
    if (L->bad_collectives)
      return;
    if (!(in->t = trace_read_otf2(in->trace_path, &e)) ||
        !(in->g = run_traffic_graph(in->t, L->s->opts.collectives, &in->g_collectives, &e)))
      goto fail;
  } else {
    if (!g_file_test(in->matrix_path, G_FILE_TEST_EXISTS)) {
      check_file(L, in->line, "matrix", in->matrix_path);
      return;
    }
    if (in->counts_path && !g_file_test(in->counts_path, G_FILE_TEST_EXISTS)) {
      check_file(L, in->line, "counts", in->counts_path);
      return;
    }
    if (!(in->g = commgraph_load(in->matrix_path, &e)) ||
        (in->counts_path && !commgraph_load_counts(in->g, in->counts_path, &e)))
      goto fail;
  }
  if (count_needed && !in->g->msgs) {
    add_problem(L, in->line,
                "input '%s': kind count needs message counts, expected counts = FILE beside "
                "matrix = FILE",
                in->label);
    return;
  }
  if (in->coords_path) {
    if (!g_file_test(in->coords_path, G_FILE_TEST_EXISTS)) {
      check_file(L, in->line, "coords", in->coords_path);
      return;
    }
    if (!(in->coords = strategy_load_coords(in->coords_path, in->g->n, &in->coord_dims, &e)))
      goto fail;
  }
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  const char *files[] = { in->trace_path, in->matrix_path, in->counts_path, in->coords_path };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_checksum_update(sum, (const guchar *)"\n--\n", 4);
    if (!files[i])
      continue;
    /* a trace is its whole archive folder */
    g_autofree char *what = (i == 0 && !g_file_test(files[i], G_FILE_TEST_IS_DIR))
                                ? g_path_get_dirname(files[i]) : g_strdup(files[i]);
    if (!study_hash_path(sum, what, &e)) {
      g_checksum_free(sum);
      goto fail;
    }
  }
  study_digest(sum, in->hash);
  g_checksum_free(sum);
  return;
fail:
  add_problem(L, in->line, "input '%s': %s", in->label, e->message);
  g_error_free(e);
}

/* The count-weighted copy of g (bytes := messages) strategies map by. */
static commgraph *count_graph(const commgraph *g)
{
  int *src = g_new(int, MAX(g->nedges, 1));
  for (int i = 0; i < g->n; i++)
    for (int k = g->xadj[i]; k < g->xadj[i + 1]; k++)
      src[k] = i;
  commgraph *c = commgraph_from_edges(g->n, g->nedges, src, g->adj, g->msgs, g->msgs);
  g_free(src);
  return c;
}

static void read_inputs(loader *L, const study_kind *def_kinds, int def_nkinds)
{
  study *s = L->s;
  int sline = line_of(L, "study", NULL);
  const char *lists[2] = { "traces", "matrices" };
  for (int k = 0; k < 2; k++) {
    g_auto(GStrv) items = get_list(L, "study", lists[k]);
    for (int i = 0; items && items[i]; i++) {
      g_autofree char *label = path_label(items[i]);
      study_input *in = new_input(L, label, line_of(L, "study", lists[k]));
      char *path = resolve(L, items[i]);
      if (k == 0)
        in->trace_path = path;
      else
        in->matrix_path = path;
    }
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->kf, NULL);
  for (int i = 0; groups[i]; i++) {
    if (!g_str_has_prefix(groups[i], "input "))
      continue;
    const char *g = groups[i];
    const char *label = g + strlen("input ");
    static const char *const keys[] = { "trace", "matrix", "counts", "coords", "kinds", NULL };
    check_keys(L, g, keys);
    study_input *in = new_input(L, label, line_of(L, g, NULL));
    g_autofree char *trace_v = get_string(L, g, "trace");
    g_autofree char *matrix = get_string(L, g, "matrix");
    g_autofree char *counts = get_string(L, g, "counts");
    g_autofree char *coords = get_string(L, g, "coords");
    if (!trace_v == !matrix)
      add_problem(L, in->line, "[%s] expected exactly one of trace = T or matrix = M", g);
    if (counts && !matrix)
      add_problem(L, line_of(L, g, "counts"),
                  "[%s] counts goes with matrix = M; a trace carries its own message counts", g);
    if (!trace_v == !matrix)
      continue;
    in->trace_path = trace_v ? resolve(L, trace_v) : NULL;
    in->matrix_path = matrix ? resolve(L, matrix) : NULL;
    in->counts_path = counts && matrix ? resolve(L, counts) : NULL;
    in->coords_path = coords ? resolve(L, coords) : NULL;
    g_auto(GStrv) kinds = get_list(L, g, "kinds");
    if (kinds)
      parse_kinds(L, g, kinds, in->kinds, &in->nkinds);
  }
  if (s->ninputs == 0)
    add_problem(L, sline, "no inputs, expected traces = T; ... or matrices = M; ... in [study], or "
                "[input NAME] groups");
  for (int i = 0; i < s->ninputs; i++) {
    study_input *in = &s->inputs[i];
    if (in->nkinds == 0) {
      memcpy(in->kinds, def_kinds, sizeof(study_kind) * (size_t)def_nkinds);
      in->nkinds = def_nkinds;
    }
    if (!in->trace_path && !in->matrix_path)
      continue;
    gboolean count = FALSE;
    for (int k = 0; k < in->nkinds; k++)
      count |= in->kinds[k] == STUDY_KIND_COUNT;
    load_input(L, in, count);
    if (count && in->g && in->g->msgs)
      in->g_count = count_graph(in->g);
  }
}

/* ---- platforms and strategies ---- */

static study_platform *new_platform(loader *L, const char *label, int line)
{
  study *s = L->s;
  for (int i = 0; i < s->nplatforms; i++)
    if (strcmp(s->platforms[i].label, label) == 0)
      add_problem(L, line, "platform '%s' is defined twice (line %d), expected unique labels; "
                  "name them with [platform NAME] groups", label, s->platforms[i].line);
  s->platforms = g_renew(study_platform, s->platforms, s->nplatforms + 1);
  study_platform *p = &s->platforms[s->nplatforms++];
  *p = (study_platform){ .label = g_strdup(label), .line = line };
  return p;
}

/* A platform or allocation spec: a path when it looks like one (a '/', an
 * .ini or .json name) or names a file in the base folder, else the text
 * itself (a shorthand like torus:4x4x4, random:32:1). */
static char *resolve_spec(const loader *L, const char *spec)
{
  g_autofree char *file = resolve(L, spec);
  if (strchr(spec, '/') || g_str_has_suffix(spec, ".ini") || g_str_has_suffix(spec, ".json") ||
      g_file_test(file, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer(&file);
  return g_strdup(spec);
}

static void load_platform(loader *L, study_platform *sp)
{
  GError *e = NULL;
  if (study_platform_load(sp, &e) && !study_platform_hash(sp, sp->hash, &e))
    g_clear_pointer(&sp->p, platform_free);
  if (!sp->p) {
    /* a shorthand's own message names it (its label is torus-4x4x4) */
    if (strstr(e->message, sp->label) || (!strchr(sp->spec, '/') && strstr(e->message, sp->spec)))
      add_problem(L, sp->line, "%s", e->message);
    else
      add_problem(L, sp->line, "platform '%s': %s", sp->label, e->message);
    g_error_free(e);
  }
}

static int parse_cores(loader *L, const char *group)
{
  g_autofree char *v = get_string(L, group, "cores");
  guint64 n = 0;
  if (v && !g_ascii_string_to_unsigned(v, 10, 1, 1 << 20, &n, NULL))
    add_problem(L, line_of(L, group, "cores"), "[%s] cores = %s: expected an integer from 1 to %d",
                group, v, 1 << 20);
  return (int)n;
}

static void read_platforms(loader *L)
{
  study *s = L->s;
  g_autofree char *def_alloc = get_string(L, "study", "alloc");
  g_autofree char *def_fill = get_string(L, "study", "fill");
  int def_cores = parse_cores(L, "study");
  g_autofree char *def_alloc_path = def_alloc ? resolve_spec(L, def_alloc) : NULL;
  g_auto(GStrv) items = get_list(L, "study", "platforms");
  for (int i = 0; items && items[i]; i++) {
    g_autofree char *spec = resolve_spec(L, items[i]);
    /* a shorthand is labelled as the shipped files are named (torus-4x4x4),
     * so that one study never mixes torus:4x4x4 and mesh-4x4x4 */
    g_autofree char *label = strcmp(spec, items[i]) != 0 || g_file_test(spec, G_FILE_TEST_EXISTS)
                                 ? path_label(items[i]) : g_strdelimit(g_strdup(items[i]), ":", '-');
    study_platform *sp = new_platform(L, label, line_of(L, "study", "platforms"));
    sp->spec = g_steal_pointer(&spec);
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->kf, NULL);
  for (int i = 0; groups[i]; i++) {
    if (!g_str_has_prefix(groups[i], "platform "))
      continue;
    const char *g = groups[i];
    static const char *const keys[] = { "spec", "alloc", "cores", "fill", NULL };
    check_keys(L, g, keys);
    study_platform *sp = new_platform(L, g + strlen("platform "), line_of(L, g, NULL));
    g_autofree char *spec = get_string(L, g, "spec");
    g_autofree char *alloc = get_string(L, g, "alloc");
    if (!spec)
      add_problem(L, sp->line, "[%s] expected spec = FILE or a shorthand like torus:4x4x4", g);
    sp->spec = spec ? resolve_spec(L, spec) : NULL;
    sp->alloc = alloc ? resolve_spec(L, alloc) : NULL;
    sp->cores = parse_cores(L, g);
    sp->fill = get_string(L, g, "fill");
  }
  if (s->nplatforms == 0)
    add_problem(L, line_of(L, "study", NULL),
                "no platforms, expected platforms = P; ... in [study] or [platform NAME] groups");
  for (int i = 0; i < s->nplatforms; i++) {
    study_platform *sp = &s->platforms[i];
    if (!sp->alloc && def_alloc_path)
      sp->alloc = g_strdup(def_alloc_path);
    if (!sp->cores)
      sp->cores = def_cores;
    if (!sp->fill)
      sp->fill = g_strdup(def_fill);
    if (sp->spec)
      load_platform(L, sp);
  }
}

static study_strategy *new_strategy(loader *L, const char *label, const char *pipeline, int line)
{
  study *s = L->s;
  for (int i = 0; i < s->nstrategies; i++)
    if (strcmp(s->strategies[i].label, label) == 0)
      add_problem(L, line, "strategy '%s' is defined twice (line %d), expected unique labels",
                  label, s->strategies[i].line);
  s->strategies = g_renew(study_strategy, s->strategies, s->nstrategies + 1);
  study_strategy *st = &s->strategies[s->nstrategies++];
  *st = (study_strategy){ .label = g_strdup(label), .line = line, .pipeline = g_strdup(pipeline) };
  GError *e = NULL;
  strategy_pipeline *pl = pipeline ? strategy_parse(pipeline, &e) : NULL;
  if (pipeline && !pl) {
    const char *m = g_str_has_prefix(e->message, "--strategy: ") ? e->message + 12 : e->message;
    add_problem(L, line, "strategy '%s': %s", label, m);
    g_error_free(e);
  }
  strategy_pipeline_free(pl);
  return st;
}

static void read_strategies(loader *L)
{
  g_auto(GStrv) items = get_list(L, "study", "strategies");
  for (int i = 0; items && items[i]; i++)
    new_strategy(L, items[i], items[i], line_of(L, "study", "strategies"));
  g_auto(GStrv) groups = g_key_file_get_groups(L->kf, NULL);
  for (int i = 0; groups[i]; i++) {
    if (!g_str_has_prefix(groups[i], "strategy "))
      continue;
    const char *g = groups[i];
    static const char *const keys[] = { "pipeline", NULL };
    check_keys(L, g, keys);
    g_autofree char *pl = get_string(L, g, "pipeline");
    int line = line_of(L, g, NULL);
    if (!pl)
      add_problem(L, line, "[%s] expected pipeline = a strategy pipeline like greedy+wh", g);
    new_strategy(L, g + strlen("strategy "), pl ? pl : "identity", pl ? line_of(L, g, "pipeline") : line);
  }
  if (L->s->nstrategies == 0)
    add_problem(L, line_of(L, "study", NULL),
                "no strategies, expected strategies = S; ... in [study] or [strategy NAME] groups");
}

/* ---- [study] and [report] ---- */

static void read_study_group(loader *L, study_kind *kinds, int *nkinds)
{
  study *s = L->s;
  static const char *const keys[] = { "name", "models", "seeds", "kinds", "compute-scale",
                                      "collectives", "alloc", "cores", "fill", "traces", "matrices",
                                      "platforms", "strategies", NULL };
  if (!g_key_file_has_group(L->kf, "study")) {
    add_problem(L, 1, "no [study] group, expected one");
    return;
  }
  check_keys(L, "study", keys);
  s->name = get_string(L, "study", "name");
  g_auto(GStrv) models = get_list(L, "study", "models");
  const char *def_models[] = { "analytic", NULL };
  const char *const *mv = models ? (const char *const *)models : def_models;
  s->nmodels = (int)g_strv_length((char **)mv);
  s->models = g_new0(const struct netmodel_ops *, MAX(s->nmodels, 1));
  for (int i = 0; i < s->nmodels; i++)
    if (!(s->models[i] = netmodel_find(mv[i]))) {
      g_autofree char *names = netmodel_names();
      add_problem(L, line_of(L, "study", "models"), "[study] models: '%s' is unknown, expected "
                  "one of: %s", mv[i], names);
    }
  g_auto(GStrv) seeds = get_list(L, "study", "seeds");
  s->nseeds = seeds ? (int)g_strv_length(seeds) : 1;
  s->seeds = g_new0(guint32, MAX(s->nseeds, 1));
  s->seeds[0] = 1;
  for (int i = 0; seeds && seeds[i]; i++) {
    guint64 v;
    if (!g_ascii_string_to_unsigned(seeds[i], 10, 0, G_MAXUINT32, &v, NULL))
      add_problem(L, line_of(L, "study", "seeds"),
                  "[study] seeds: '%s' is not an integer from 0 to %u", seeds[i], G_MAXUINT32);
    s->seeds[i] = (guint32)v;
  }
  g_auto(GStrv) kv = get_list(L, "study", "kinds");
  kinds[0] = STUDY_KIND_BYTES;
  *nkinds = 1;
  if (kv)
    parse_kinds(L, "study", kv, kinds, nkinds);
  if (*nkinds == 0) {
    kinds[0] = STUDY_KIND_BYTES;
    *nkinds = 1;
  }
  g_autofree char *scale = get_string(L, "study", "compute-scale");
  if (scale) {
    char *end = NULL;
    double x = g_ascii_strtod(scale, &end);
    if (*end || !isfinite(x) || x < 0)
      add_problem(L, line_of(L, "study", "compute-scale"),
                  "[study] compute-scale = %s: expected a finite number >= 0", scale);
    else
      s->opts.compute_scale = x;
  }
  char *coll = get_string(L, "study", "collectives");
  GError *e = NULL;
  coll_choice choice;
  if (coll && !coll_choice_parse(&choice, coll, &e)) {
    add_problem(L, line_of(L, "study", "collectives"), "[study] %s", e->message);
    g_clear_error(&e);
    L->bad_collectives = TRUE;
  }
  s->opts.collectives = coll;
}

static gboolean is_field(const field *f, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (strcmp(f[i].name, name) == 0)
      return TRUE;
  return FALSE;
}

static char *field_names(const field *f, int n)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < n; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", f[i].name);
  return g_string_free(s, FALSE);
}

/* [report] KEY naming a field of table f into *dst (kept when absent). */
static void report_field(loader *L, const char *key, const field *f, int n, const char *what,
                         char **dst)
{
  char *v = get_string(L, "report", key);
  if (!v)
    return;
  if (!is_field(f, n, v)) {
    g_autofree char *names = field_names(f, n);
    add_problem(L, line_of(L, "report", key), "[report] %s = %s: expected %s: %s", key, v, what,
                names);
  }
  g_free(*dst);
  *dst = v;
}

static void read_report_group(loader *L)
{
  study_report_opts *r = &L->s->report;
  r->time = g_strdup("makespan_s");
  r->rank_static = g_strdup("hop_bytes");
  if (!g_key_file_has_group(L->kf, "report"))
    return;
  static const char *const keys[] = { "time", "rank-static", "links", "color", NULL };
  check_keys(L, "report", keys);
  report_field(L, "time", run_replay_fields, run_replay_nfields, "a simulated field", &r->time);
  report_field(L, "rank-static", metrics_fields, metrics_nfields, "a static metric",
               &r->rank_static);
  r->links_input = get_string(L, "report", "links");
  g_autofree char *color = get_string(L, "report", "color");
  if (color && strcmp(color, "bytes") != 0 && strcmp(color, "busy") != 0)
    add_problem(L, line_of(L, "report", "color"), "[report] color = %s: expected bytes or busy",
                color);
  r->color_busy = color && strcmp(color, "busy") == 0;
}

static void check_groups(loader *L)
{
  g_auto(GStrv) groups = g_key_file_get_groups(L->kf, NULL);
  for (int i = 0; groups[i]; i++) {
    const char *g = groups[i];
    if (strcmp(g, "study") == 0 || strcmp(g, "report") == 0)
      continue;
    const char *prefixes[] = { "input ", "platform ", "strategy " };
    gboolean ok = FALSE;
    for (size_t k = 0; k < G_N_ELEMENTS(prefixes); k++)
      ok |= g_str_has_prefix(g, prefixes[k]) && g[strlen(prefixes[k])] != '\0';
    if (!ok)
      add_problem(L, line_of(L, g, NULL), "unknown group [%s], expected [study], [report], "
                  "[input NAME], [platform NAME] or [strategy NAME]", g);
  }
}

/* Every input must fit every platform, before anything runs. */
static void check_capacity(loader *L)
{
  study *s = L->s;
  for (int j = 0; j < s->nplatforms; j++) {
    const study_platform *sp = &s->platforms[j];
    if (!sp->p)
      continue;
    for (int i = 0; i < s->ninputs; i++) {
      const study_input *in = &s->inputs[i];
      if (!in->g)
        continue;
      int n = in->t ? MAX(in->t->nranks, in->g->n) : in->g->n;
      GError *e = NULL;
      if (!platform_check_capacity(sp->p, n, &e)) {
        add_problem(L, sp->line, "platform '%s' cannot hold input '%s' (line %d): %s", sp->label,
                    in->label, in->line, e->message);
        g_error_free(e);
      }
    }
  }
  if (s->report.links_input) {
    gboolean found = FALSE;
    for (int i = 0; i < s->ninputs; i++)
      found |= strcmp(s->inputs[i].label, s->report.links_input) == 0;
    if (!found)
      add_problem(L, line_of(L, "report", "links"), "[report] links = %s: no such input",
                  s->report.links_input);
  }
}

static gint by_line(gconstpointer a, gconstpointer b)
{
  const problem *x = a, *y = b;
  return (x->line > y->line) - (x->line < y->line);
}

study *study_load(const char *path, const char *text, const char *base_dir, GError **error)
{
  g_autofree char *own = NULL;
  GError *e = NULL;
  if (!text) {
    if (!budget_read_text(path, "a study file (INI)", &own, NULL, error))
      return NULL;
    text = own;
  }
  g_autofree char *dir = base_dir ? g_strdup(base_dir) : g_path_get_dirname(path);
  study *s = g_new0(study, 1);
  s->path = g_strdup(path);
  s->text = g_strdup(text);
  s->base_dir = g_canonicalize_filename(dir, NULL);
  replay_opts_init(&s->opts);
  loader L = { .path = path, .base = s->base_dir, .s = s };
  L.kf = g_key_file_new();
  L.lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  L.problems = g_array_new(FALSE, FALSE, sizeof(problem));
  g_array_set_clear_func(L.problems, problem_clear);
  scan_lines(&L, text);
  if (L.problems->len == 0 && !g_key_file_load_from_data(L.kf, text, (gsize)-1, G_KEY_FILE_NONE, &e)) {
    add_problem(&L, 1, "%s", e->message);
    g_clear_error(&e);
  }
  if (L.problems->len == 0) {
    study_kind kinds[2];
    int nkinds = 0;
    check_groups(&L);
    read_study_group(&L, kinds, &nkinds);
    read_report_group(&L);
    read_inputs(&L, kinds, nkinds);
    read_platforms(&L);
    read_strategies(&L);
    check_capacity(&L);
  }
  if (!s->name)
    s->name = path_label(path);
  gboolean ok = L.problems->len == 0;
  if (!ok) {
    g_array_sort(L.problems, by_line);
    GString *m = g_string_new(NULL);
    for (guint i = 0; i < L.problems->len; i++) {
      const problem *p = &g_array_index(L.problems, problem, i);
      g_string_append_printf(m, "%s%s:%d: %s", i ? "\n" : "", path, MAX(p->line, 1), p->text);
    }
    g_set_error_literal(error, STUDY_ERROR, STUDY_ERROR_FILE, m->str);
    g_string_free(m, TRUE);
  }
  g_array_free(L.problems, TRUE);
  g_hash_table_destroy(L.lines);
  g_key_file_free(L.kf);
  if (!ok) {
    study_free(s);
    return NULL;
  }
  study_make_cells(s);
  return s;
}
