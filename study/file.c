/* file.c - reading and checking a study file (INI, GKeyFile).
 *
 *   [study]       name, models, seeds, kinds, compute-scale, collectives,
 *                 alloc, cores, fill, set, set-if-present, and lists:
 *                 traces, matrices, platforms, strategies; jobs, policies
 *                 (several jobs per run: study/jobs.c)
 *   [input L]     trace = T | matrix = M [counts = C]; coords; kinds
 *   [platform L]  spec = FILE or shorthand; alloc; cores; fill; set;
 *                 set-if-present
 *   [strategy L]  pipeline = greedy+wh:delta=16+mc
 *   [report]      time, rank-static, links, color
 *
 * A list entry that is the label of a group names that group (and places
 * it); an input entry may be a glob(3) pattern (runs/stencil-*: each match
 * an input, sorted); any entry and any set value may hold brace sweeps
 * ({a,b}, {A..B*F}, util/sweep.h). This file reads the file, its groups
 * and inputs; study/lists.c the platforms and strategies.
 *
 * Every problem is collected with its line before anything runs; GKeyFile
 * reports no lines, so a small scan of the text finds the line of each
 * group and key. */
#include <errno.h>
#include <glib/gstdio.h>
#include <glob.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "mapping/strategy.h"
#include "traces/collectives.h"
#include "study/loader-private.h"
#include "util/budget.h"
#include "util/sweep.h"

static gboolean parse_kinds(loader *L, const char *group, char **items, study_kind *kinds,
                            int *n)
{
  *n = 0;
  int nitems = items ? (int)g_strv_length(items) : 0;
  g_autofree gint64 *ids = g_new0(gint64, MAX(nitems, 1));
  for (int i = 0; i < nitems; i++) {
    if (strcmp(items[i], "bytes") == 0)
      ids[i] = STUDY_KIND_BYTES;
    else if (strcmp(items[i], "count") == 0)
      ids[i] = STUDY_KIND_COUNT;
    else {
      ini_problem(&L->ini, ini_line(&L->ini, group, "kinds"),
                  "[%s] kinds: '%s' is unknown, expected bytes or count", group, items[i]);
      return FALSE;
    }
    if (i < 2)
      kinds[(*n)++] = (study_kind)ids[i];
  }
  ini_check_distinct(&L->ini, group, "kinds", items, ids, nitems);
  return TRUE;
}

/* ---- inputs ---- */

static study_input *new_input(loader *L, const char *label, int line)
{
  study *s = L->s;
  for (int i = 0; i < s->ninputs; i++)
    if (strcmp(s->inputs[i].label, label) == 0)
      ini_problem(&L->ini, line, "input '%s' is defined twice (line %d), expected unique labels",
                  label, s->inputs[i].line);
  s->inputs = g_renew(study_input, s->inputs, s->ninputs + 1);
  study_input *in = &s->inputs[s->ninputs++];
  *in = (study_input){ .label = g_strdup(label), .line = line };
  return in;
}

static void check_file(loader *L, int line, const char *what, const char *path)
{
  if (!g_file_test(path, G_FILE_TEST_EXISTS))
    ini_problem(&L->ini, line, "%s %s: no such file or folder", what, path);
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
    ini_problem(&L->ini, in->line,
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
  ini_problem(&L->ini, in->line, "input '%s': %s", in->label, e->message);
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

/* An [input L] group as the next input. */
static void read_input_group(loader *L, const char *g)
{
  const char *label = g + strlen("input ");
  static const char *const keys[] = { "trace", "matrix", "counts", "coords", "kinds", NULL };
  ini_check_keys(&L->ini, g, keys);
  study_input *in = new_input(L, label, ini_line(&L->ini, g, NULL));
  g_autofree char *trace_v = ini_string(&L->ini, g, "trace");
  g_autofree char *matrix = ini_string(&L->ini, g, "matrix");
  g_autofree char *counts = ini_string(&L->ini, g, "counts");
  g_autofree char *coords = ini_string(&L->ini, g, "coords");
  if (!trace_v == !matrix)
    ini_problem(&L->ini, in->line, "[%s] expected exactly one of trace = T or matrix = M", g);
  if (counts && !matrix)
    ini_problem(&L->ini, ini_line(&L->ini, g, "counts"),
                "[%s] counts goes with matrix = M; a trace carries its own message counts", g);
  if (!trace_v == !matrix)
    return;
  in->trace_path = trace_v ? ini_resolve(&L->ini, trace_v) : NULL;
  in->matrix_path = matrix ? ini_resolve(&L->ini, matrix) : NULL;
  in->counts_path = counts && matrix ? ini_resolve(&L->ini, counts) : NULL;
  in->coords_path = coords ? ini_resolve(&L->ini, coords) : NULL;
  g_auto(GStrv) kinds = ini_list(&L->ini, g, "kinds");
  if (kinds)
    parse_kinds(L, g, kinds, in->kinds, &in->nkinds);
}

static void add_path_input(loader *L, const char *path, gboolean is_trace, int line)
{
  g_autofree char *label = ini_path_label(path);
  study_input *in = new_input(L, label, line);
  if (is_trace)
    in->trace_path = g_strdup(path);
  else
    in->matrix_path = g_strdup(path);
}

static int by_name(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One entry of [study] traces or matrices: a path, a glob (each match an
 * input, in byte order of the names), braces first expanded. */
static void add_list_entry(loader *L, const char *item, gboolean is_trace, const char *key,
                           int line)
{
  GError *e = NULL;
  const char *texts[] = { item };
  GPtrArray *combos = sweep_product(texts, 1, &e);
  if (!combos) {
    ini_problem(&L->ini, line, "[study] %s: %s", key, e->message);
    g_error_free(e);
    return;
  }
  for (guint c = 0; c < combos->len; c++) {
    const char *text = ((sweep_combo *)combos->pdata[c])->texts[0];
    g_autofree char *path = ini_resolve(&L->ini, text);
    if (!strpbrk(text, "*?[")) {
      add_path_input(L, path, is_trace, line);
      continue;
    }
    glob_t gl;
    int rc = glob(path, GLOB_NOSORT, NULL, &gl);
    if (rc != 0 || gl.gl_pathc == 0) {
      ini_problem(&L->ini, line, "[study] %s: '%s' matches no file or folder, expected a pattern "
                  "like runs/* that names at least one (%s)", key, text, path);
    } else {
      /* glob(3) sorts by the locale; byte order is the same everywhere */
      qsort(gl.gl_pathv, gl.gl_pathc, sizeof(char *), by_name);
      for (size_t k = 0; k < gl.gl_pathc; k++)
        add_path_input(L, gl.gl_pathv[k], is_trace, line);
    }
    if (rc == 0)
      globfree(&gl);
  }
  g_ptr_array_unref(combos);
}

/* The inputs of the file, in order, with their kinds; their files are
 * read by load_inputs. */
static void read_inputs(loader *L, const study_kind *def_kinds, int def_nkinds)
{
  study *s = L->s;
  int sline = ini_line(&L->ini, "study", NULL);
  const char *lists[2] = { "traces", "matrices" };
  g_autoptr(GHashTable) listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int k = 0; k < 2; k++) {
    g_auto(GStrv) items = ini_list(&L->ini, "study", lists[k]);
    int line = ini_line(&L->ini, "study", lists[k]);
    for (int i = 0; items && items[i]; i++) {
      g_autofree char *group = NULL;
      if (ini_listed_group(&L->ini, "input ", items[i], line, G_FILE_TEST_EXISTS, NULL, listed,
                           &group)) {
        if (group)
          read_input_group(L, group);
        continue;
      }
      add_list_entry(L, items[i], k == 0, lists[k], line);
    }
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->ini.kf, NULL);
  for (int i = 0; groups[i]; i++)
    if (g_str_has_prefix(groups[i], "input ") && !g_hash_table_contains(listed, groups[i]))
      read_input_group(L, groups[i]);
  if (s->ninputs == 0 && !g_key_file_has_key(L->ini.kf, "study", "jobs", NULL))
    ini_problem(&L->ini, sline, "no inputs, expected traces = T; ... or matrices = M; ... in [study], "
                "or [input NAME] groups (or jobs = FILE; ...)");
  for (int i = 0; i < s->ninputs; i++) {
    study_input *in = &s->inputs[i];
    if (in->nkinds == 0) {
      memcpy(in->kinds, def_kinds, sizeof(study_kind) * (size_t)def_nkinds);
      in->nkinds = def_nkinds;
    }
  }
}

/* Reads the files of every input (once the study's size is known to fit). */
static void load_inputs(loader *L)
{
  study *s = L->s;
  for (int i = 0; i < s->ninputs; i++) {
    study_input *in = &s->inputs[i];
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

/* ---- [study] and [report] ---- */

static void read_study_group(loader *L, study_kind *kinds, int *nkinds)
{
  study *s = L->s;
  static const char *const keys[] = { "name", "models", "seeds", "kinds", "compute-scale",
                                      "collectives", "alloc", "cores", "fill", "set",
                                      "set-if-present", "traces", "matrices", "platforms",
                                      "strategies", "jobs", "policies", NULL };
  if (!g_key_file_has_group(L->ini.kf, "study")) {
    ini_problem(&L->ini, 1, "no [study] group, expected one");
    return;
  }
  ini_check_keys(&L->ini, "study", keys);
  s->name = ini_string(&L->ini, "study", "name");
  g_auto(GStrv) models = ini_list_expanded(&L->ini, "study", "models");
  const char *def_models[] = { "analytic", NULL };
  const char *const *mv = models ? (const char *const *)models : def_models;
  s->nmodels = (int)g_strv_length((char **)mv);
  s->models = g_new0(const struct netmodel_ops *, MAX(s->nmodels, 1));
  g_autofree gint64 *ids = g_new0(gint64, MAX(s->nmodels, 1));
  for (int i = 0; i < s->nmodels; i++) {
    if (!(s->models[i] = netmodel_find(mv[i]))) {
      g_autofree char *names = netmodel_names();
      ini_problem(&L->ini, ini_line(&L->ini, "study", "models"),
                  "[study] models: '%s' is unknown, expected one of: %s", mv[i], names);
    }
    ids[i] = s->models[i] ? (gint64)(intptr_t)s->models[i] : -1 - i;
  }
  ini_check_distinct(&L->ini, "study", "models", (char **)mv, ids, s->nmodels);
  /* counted first: a sweep of seeds is expanded only when the study can
   * hold that many */
  int64_t nseeds = ini_list_count(&L->ini, "study", "seeds");
  if (nseeds > STUDY_MAX_CELLS)
    ini_problem(&L->ini, ini_line(&L->ini, "study", "seeds"), "[study] seeds: %" G_GINT64_FORMAT
                " seeds, more than the %d cells a study may have, expected fewer", nseeds,
                STUDY_MAX_CELLS);
  g_auto(GStrv) seeds = nseeds <= STUDY_MAX_CELLS ? ini_list_expanded(&L->ini, "study", "seeds")
                                                   : NULL;
  s->nseeds = seeds ? (int)g_strv_length(seeds) : 1;
  s->seeds = g_new0(guint32, MAX(s->nseeds, 1));
  s->seeds[0] = 1;
  g_autofree gint64 *seed_ids = g_new0(gint64, MAX(s->nseeds, 1));
  for (int i = 0; seeds && seeds[i]; i++) {
    guint64 v = 0;
    gboolean ok = g_ascii_string_to_unsigned(seeds[i], 10, 0, G_MAXUINT32, &v, NULL);
    if (!ok)
      ini_problem(&L->ini, ini_line(&L->ini, "study", "seeds"),
                  "[study] seeds: '%s' is not an integer from 0 to %u", seeds[i], G_MAXUINT32);
    s->seeds[i] = (guint32)v;
    seed_ids[i] = ok ? (gint64)v : -1 - i; /* a bad entry repeats none */
  }
  if (seeds)
    ini_check_distinct(&L->ini, "study", "seeds", seeds, seed_ids, s->nseeds);
  g_auto(GStrv) kv = ini_list_expanded(&L->ini, "study", "kinds");
  kinds[0] = STUDY_KIND_BYTES;
  *nkinds = 1;
  if (kv)
    parse_kinds(L, "study", kv, kinds, nkinds);
  if (*nkinds == 0) {
    kinds[0] = STUDY_KIND_BYTES;
    *nkinds = 1;
  }
  g_autofree char *scale = ini_string(&L->ini, "study", "compute-scale");
  if (scale) {
    char *end = NULL;
    double x = g_ascii_strtod(scale, &end);
    if (*end || !isfinite(x) || x < 0)
      ini_problem(&L->ini, ini_line(&L->ini, "study", "compute-scale"),
                  "[study] compute-scale = %s: expected a finite number >= 0", scale);
    else
      s->opts.compute_scale = x;
  }
  char *coll = ini_string(&L->ini, "study", "collectives");
  GError *e = NULL;
  coll_choice choice;
  if (coll && !coll_choice_parse(&choice, coll, &e)) {
    ini_problem(&L->ini, ini_line(&L->ini, "study", "collectives"), "[study] %s", e->message);
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
  char *v = ini_string(&L->ini, "report", key);
  if (!v)
    return;
  if (!is_field(f, n, v)) {
    g_autofree char *names = field_names(f, n);
    ini_problem(&L->ini, ini_line(&L->ini, "report", key), "[report] %s = %s: expected %s: %s", key, v,
                what, names);
  }
  g_free(*dst);
  *dst = v;
}

static void read_report_group(loader *L)
{
  study_report_opts *r = &L->s->report;
  r->time = g_strdup("makespan_s");
  r->rank_static = g_strdup("hop_bytes");
  if (!g_key_file_has_group(L->ini.kf, "report"))
    return;
  static const char *const keys[] = { "time", "rank-static", "links", "color", NULL };
  ini_check_keys(&L->ini, "report", keys);
  report_field(L, "time", run_replay_fields, run_replay_nfields, "a simulated field", &r->time);
  report_field(L, "rank-static", metrics_fields, metrics_nfields, "a static metric",
               &r->rank_static);
  r->links_input = ini_string(&L->ini, "report", "links");
  g_autofree char *color = ini_string(&L->ini, "report", "color");
  if (color && strcmp(color, "bytes") != 0 && strcmp(color, "busy") != 0)
    ini_problem(&L->ini, ini_line(&L->ini, "report", "color"),
                "[report] color = %s: expected bytes or busy", color);
  r->color_busy = color && strcmp(color, "busy") == 0;
}

static void check_groups(loader *L)
{
  static const char *const known[] = { "study", "report", "input ", "platform ", "strategy ",
                                       NULL };
  g_auto(GStrv) groups = g_key_file_get_groups(L->ini.kf, NULL);
  for (int i = 0; groups[i]; i++)
    ini_known_group(&L->ini, groups[i], known, "[study], [report], [input NAME], "
                    "[platform NAME] or [strategy NAME]");
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
        ini_problem(&L->ini, sp->line, "platform '%s' cannot hold input '%s' (line %d): %s", sp->label,
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
      ini_problem(&L->ini, ini_line(&L->ini, "report", "links"), "[report] links = %s: no such input",
                  s->report.links_input);
  }
}

study *study_load(const char *path, const char *text, const char *base_dir, GError **error)
{
  g_autofree char *own = NULL;
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
  loader L = { .s = s };
  ini_open(&L.ini, path, s->base_dir, text, "study");
  if (L.ini.problems->len == 0) {
    study_kind kinds[2];
    int nkinds = 0;
    check_groups(&L);
    read_study_group(&L, kinds, &nkinds);
    read_report_group(&L);
    study_read_jobs(&L);
    read_inputs(&L, kinds, nkinds);
    loader_read_platforms(&L);
    loader_read_strategies(&L);
    if (loader_check_size(&L)) {
      load_inputs(&L);
      loader_load_platforms(&L);
      loader_add_strategies(&L);
      check_capacity(&L);
    }
  }
  loader_clear(&L);
  if (!s->name)
    s->name = ini_path_label(path);
  gboolean ok = ini_close(&L.ini, STUDY_ERROR, STUDY_ERROR_FILE, error);
  if (!ok || !study_make_cells(s, error)) {
    study_free(s);
    return NULL;
  }
  return s;
}
