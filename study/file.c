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
#define _GNU_SOURCE /* glob(3)'s GLOB_ALTDIRFUNC */
#include <dirent.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <glob.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "mapping/strategy.h"
#include "traces/collectives.h"
#include "traces/input.h"
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

/* What the inputs read so far are, while the lists and groups are read. */
typedef struct inputs_seen {
  GHashTable *labels;      /* label -> the line of its input */
  GHashTable *identities;  /* input_identity of a path -> TRUE: the same trace again is
                            * the same input */
} inputs_seen;

static study_input *new_input(loader *L, inputs_seen *seen, const char *label, int line)
{
  study *s = L->s;
  gpointer first;
  if (g_hash_table_lookup_extended(seen->labels, label, NULL, &first))
    ini_problem(&L->ini, line, "input '%s' is defined twice (line %d), expected unique labels",
                label, GPOINTER_TO_INT(first));
  else
    g_hash_table_insert(seen->labels, g_strdup(label), GINT_TO_POINTER(line));
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

/* Reads the input's files through the input dispatcher (traces/input.h);
 * problems at its line. */
static void load_input(loader *L, study_input *in, gboolean count_needed)
{
  GError *e = NULL;
  g_auto(input) src = { 0 };
  g_autofree char *root = NULL;
  if (in->trace_path) {
    if (!g_file_test(in->trace_path, G_FILE_TEST_EXISTS)) {
      check_file(L, in->line, "trace", in->trace_path);
      return;
    }
    if (L->bad_collectives)
      return;
    if (!input_open(&src, in->trace_path, NULL, INPUT_TRACE, &e) ||
        !(in->t = input_trace(&src, &e)) ||
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
    if (!input_open(&src, in->matrix_path, in->counts_path, INPUT_GRAPH, &e) ||
        !(in->g = input_graph(&src, &e)))
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
  /* the input is everything its reader reads (a trace: its whole archive) */
  root = input_root(&src);
  const char *files[] = { in->trace_path ? root : NULL, in->trace_path ? NULL : root,
                          in->counts_path, in->coords_path };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_checksum_update(sum, (const guchar *)"\n--\n", 4);
    if (files[i] && !study_hash_path(sum, files[i], &e)) {
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

/* The identity of the input at `path` (traces/input.h), or NULL when it is
 * none of the formats `wants` names. */
static char *identity_of(const char *path, unsigned wants)
{
  g_auto(input) in = { 0 };
  return input_open(&in, path, NULL, wants, NULL) ? input_identity(&in) : NULL;
}

/* Notes the input at `path` as seen; TRUE when it was seen before (in
 * another form: a folder and its anchor). */
static gboolean seen_before(inputs_seen *seen, const char *path, unsigned wants)
{
  char *id = identity_of(path, wants);
  if (!id)
    return FALSE;
  if (g_hash_table_contains(seen->identities, id)) {
    g_free(id);
    return TRUE;
  }
  g_hash_table_add(seen->identities, id);
  return FALSE;
}

/* An [input L] group as the next input. */
static void read_input_group(loader *L, inputs_seen *seen, const char *g)
{
  const char *label = g + strlen("input ");
  static const char *const keys[] = { "trace", "matrix", "counts", "coords", "kinds", NULL };
  ini_check_keys(&L->ini, g, keys);
  study_input *in = new_input(L, seen, label, ini_line(&L->ini, g, NULL));
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
  seen_before(seen, trace_v ? in->trace_path : in->matrix_path, trace_v ? INPUT_TRACE : INPUT_GRAPH);
  g_auto(GStrv) kinds = ini_list(&L->ini, g, "kinds");
  if (kinds)
    parse_kinds(L, g, kinds, in->kinds, &in->nkinds);
}

static void add_path_input(loader *L, inputs_seen *seen, const char *path, const char *label,
                           gboolean is_trace, int line)
{
  study_input *in = new_input(L, seen, label, line);
  if (is_trace)
    in->trace_path = g_strdup(path);
  else
    in->matrix_path = g_strdup(path);
}

/* ---- globs ---- */

/* A glob reads at most this many folder entries (a star at each of four
 * levels from the root ends within a second or two) and gives at most this
 * many matches to probe. */
#define GLOB_MAX_ENTRIES 100000
#define GLOB_MAX_MATCHES 50000

/* glob(3)'s folder reading, counted (GLOB_ALTDIRFUNC passes no user data:
 * the count of the glob running on this thread). */
static _Thread_local guint64 glob_entries;

static void *glob_opendir(const char *path)
{
  return glob_entries > GLOB_MAX_ENTRIES ? NULL : opendir(path);
}

static struct dirent *glob_readdir(void *dir)
{
  return ++glob_entries > GLOB_MAX_ENTRIES ? NULL : readdir(dir);
}

static void glob_closedir(void *dir)
{
  closedir(dir);
}

static int glob_stat(const char *restrict path, struct stat *restrict st)
{
  return stat(path, st);
}

static int glob_lstat(const char *restrict path, struct stat *restrict st)
{
  return lstat(path, st);
}

static int by_name(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The matches of `pattern` in byte order of their names (glob(3) sorts by
 * the locale), or NULL and a problem: none, or beyond a limit. */
static GPtrArray *glob_matches(loader *L, const char *key, const char *text, const char *pattern,
                               int line)
{
  glob_t gl = { .gl_opendir = glob_opendir, .gl_readdir = glob_readdir,
                .gl_closedir = glob_closedir, .gl_stat = glob_stat, .gl_lstat = glob_lstat };
  glob_entries = 0;
  int rc = glob(pattern, GLOB_NOSORT | GLOB_ALTDIRFUNC, NULL, &gl);
  GPtrArray *m = NULL;
  if (glob_entries > GLOB_MAX_ENTRIES)
    ini_problem(&L->ini, line, "[study] %s: '%s' reads more than %d folder entries (the limit of "
                "a glob), expected a narrower pattern", key, text, GLOB_MAX_ENTRIES);
  else if (rc == 0 && gl.gl_pathc > GLOB_MAX_MATCHES)
    ini_problem(&L->ini, line, "[study] %s: '%s' matches %zu files or folders, more than the %d "
                "of a glob, expected a narrower pattern", key, text, gl.gl_pathc,
                GLOB_MAX_MATCHES);
  else if (rc != 0 || gl.gl_pathc == 0)
    ini_problem(&L->ini, line, "[study] %s: '%s' matches no file or folder, expected a pattern "
                "like runs/* that names at least one (%s)", key, text, pattern);
  else {
    m = g_ptr_array_new_full((guint)gl.gl_pathc, g_free);
    for (size_t k = 0; k < gl.gl_pathc; k++)
      g_ptr_array_add(m, g_strdup(gl.gl_pathv[k]));
    g_ptr_array_sort(m, by_name);
  }
  if (rc == 0)
    globfree(&gl);
  return m;
}

/* What names a match: the archive's folder of an OTF2 anchor, else the
 * path without its extension (ini_path_label's rule, on the whole path). */
static char *label_stem(const char *path)
{
  g_autofree char *p = g_strdup(path);
  for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
    p[n - 1] = '\0';
  if (g_str_has_suffix(p, ".otf2"))
    return g_path_get_dirname(p);
  char *slash = strrchr(p, '/'), *dot = strrchr(p, '.');
  if (dot && dot > (slash ? slash + 1 : p))
    *dot = '\0';
  return g_steal_pointer(&p);
}

/* The last `depth` components of `stem` ("a/app_trace"). */
static char *label_tail(const char *stem, int depth)
{
  const char *p = stem + strlen(stem);
  for (int d = 0; d < depth && p > stem; d++) {
    do
      p--;
    while (p > stem && *p != '/');
  }
  return g_strdup(*p == '/' ? p + 1 : p);
}

/* The labels of a glob's picks: each its name (ini_path_label), and where
 * picks share a name, as many of their folders as tell them apart
 * (runs/a/app_trace and runs/b/app_trace: a/app_trace, b/app_trace). */
static char **glob_labels(GPtrArray *paths)
{
  guint n = paths->len;
  char **stems = g_new0(char *, n + 1), **labels = g_new0(char *, n + 1);
  int *depth = g_new(int, MAX(n, 1));
  for (guint i = 0; i < n; i++) {
    stems[i] = label_stem(paths->pdata[i]);
    labels[i] = ini_path_label(paths->pdata[i]);
    depth[i] = 1;
  }
  for (gboolean changed = TRUE; changed;) {
    changed = FALSE;
    g_autoptr(GHashTable) count = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint i = 0; i < n; i++)
      g_hash_table_insert(count, labels[i],
                          GINT_TO_POINTER(GPOINTER_TO_INT(g_hash_table_lookup(count, labels[i])) + 1));
    g_autofree char **next = g_new0(char *, n);
    for (guint i = 0; i < n; i++) {
      char *longer = GPOINTER_TO_INT(g_hash_table_lookup(count, labels[i])) > 1
                         ? label_tail(stems[i], depth[i] + 1) : NULL;
      if (longer && strlen(longer) > strlen(labels[i])) {
        next[i] = longer;
        depth[i]++;
        changed = TRUE;
      } else {
        g_free(longer);
      }
    }
    for (guint i = 0; i < n; i++)
      if (next[i]) {
        g_free(labels[i]);
        labels[i] = next[i];
      }
  }
  g_strfreev(stems);
  g_free(depth);
  return labels;
}

/* A glob's matches: those a probe of the dispatcher recognizes as the kind
 * the list holds (traces: folders holding an OTF2 anchor, the other trace
 * formats), each trace once (a folder and its anchor are one); the rest
 * skipped with one note for all of them, or a problem when nothing is
 * left. */
static void add_glob(loader *L, inputs_seen *seen, const char *key, const char *text,
                     const char *pattern, gboolean is_trace, int line)
{
  g_autoptr(GPtrArray) matches = glob_matches(L, key, text, pattern, line);
  if (!matches)
    return;
  unsigned wants = is_trace ? INPUT_TRACE : INPUT_GRAPH;
  g_autoptr(GPtrArray) picked = g_ptr_array_new();
  g_autoptr(GString) skipped = g_string_new(NULL);
  int nskipped = 0, nsame = 0;
  for (guint k = 0; k < matches->len; k++) {
    const char *m = matches->pdata[k];
    if (!input_recognize(m, wants, INPUT_PROBE_NAME)) {
      if (nskipped++ < 3) {
        g_autofree char *name = g_path_get_basename(m);
        g_string_append_printf(skipped, "%s%s", nskipped > 1 ? ", " : "", name);
      }
    } else if (seen_before(seen, m, wants)) {
      nsame++;
    } else {
      g_ptr_array_add(picked, (gpointer)m);
    }
  }
  if (nskipped > 3)
    g_string_append_printf(skipped, " and %d more", nskipped - 3);
  const char *noun = is_trace ? "trace" : "matrix";
  if (nskipped && picked->len == 0 && nsame == 0) {
    g_autofree char *expected = input_expected(wants);
    ini_problem(&L->ini, line, "[study] %s: '%s' matches no %s mapsim reads (%d %s: %s), "
                "expected %s", key, text, noun, nskipped,
                nskipped == 1 ? "file or folder" : "files or folders", skipped->str, expected);
    return;
  }
  if (nskipped) {
    if (!L->s->notes)
      L->s->notes = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(L->s->notes,
                    g_strdup_printf("%s:%d: [study] %s: '%s' matches %d %s no %s mapsim reads "
                                    "(%s), skipped", L->ini.path, line, key, text, nskipped,
                                    nskipped == 1 ? "file or folder that holds"
                                                  : "files or folders that hold",
                                    noun, skipped->str));
  }
  g_auto(GStrv) labels = glob_labels(picked);
  for (guint k = 0; k < picked->len; k++)
    add_path_input(L, seen, picked->pdata[k], labels[k], is_trace, line);
}

/* One entry of [study] traces or matrices: a path, a glob (each trace or
 * matrix it matches an input, in byte order of the names), braces first
 * expanded. */
static void add_list_entry(loader *L, inputs_seen *seen, const char *item, gboolean is_trace,
                           const char *key, int line)
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
    if (strpbrk(text, "*?[")) {
      add_glob(L, seen, key, text, path, is_trace, line);
      continue;
    }
    g_autofree char *label = ini_path_label(path);
    seen_before(seen, path, is_trace ? INPUT_TRACE : INPUT_GRAPH);
    add_path_input(L, seen, path, label, is_trace, line);
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
  g_autoptr(GHashTable) labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) identities = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  inputs_seen seen = { labels, identities };
  for (int k = 0; k < 2; k++) {
    g_auto(GStrv) items = ini_list(&L->ini, "study", lists[k]);
    int line = ini_line(&L->ini, "study", lists[k]);
    for (int i = 0; items && items[i]; i++) {
      g_autofree char *group = NULL;
      if (ini_listed_group(&L->ini, "input ", items[i], line, G_FILE_TEST_EXISTS, NULL, listed,
                           &group)) {
        if (group)
          read_input_group(L, &seen, group);
        continue;
      }
      add_list_entry(L, &seen, items[i], k == 0, lists[k], line);
    }
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->ini.kf, NULL);
  for (int i = 0; groups[i]; i++)
    if (g_str_has_prefix(groups[i], "input ") && !g_hash_table_contains(listed, groups[i]))
      read_input_group(L, &seen, groups[i]);
  /* lists whose entries gave nothing have said why already */
  gboolean listed_any = g_key_file_has_key(L->ini.kf, "study", "traces", NULL) ||
                        g_key_file_has_key(L->ini.kf, "study", "matrices", NULL);
  if (s->ninputs == 0 && !listed_any && !g_key_file_has_key(L->ini.kf, "study", "jobs", NULL))
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

/* The [report] keys: one table for the reader and for --help. */
static const struct {
  const char *key, *example, *meaning;
} report_keys[] = {
  { "time", "makespan_s", "the simulated field ranked and correlated (energy_j ...)" },
  { "rank-static", "hop_bytes", "the static metric that ranks matrix inputs" },
  { "links", "stencil3d-64", "the input whose link loads are drawn (default: the first)" },
  { "color", "bytes", "link loads by bytes or busy (time)" },
};

char *study_report_help(void)
{
  GString *h = g_string_new("  [report]                 # every key optional\n");
  for (size_t i = 0; i < G_N_ELEMENTS(report_keys); i++) {
    g_autofree char *kv = g_strdup_printf("%s = %s", report_keys[i].key, report_keys[i].example);
    g_string_append_printf(h, "  %-24s # %s\n", kv, report_keys[i].meaning);
  }
  return g_string_free(h, FALSE);
}

static void read_report_group(loader *L)
{
  study_report_opts *r = &L->s->report;
  r->time = g_strdup("makespan_s");
  /* the default objective's measure, what the strategies minimize by default */
  r->rank_static = g_strdup(strategy_objective_find(STRATEGY_OBJECTIVE_DEFAULT)->metric);
  if (!g_key_file_has_group(L->ini.kf, "report"))
    return;
  const char *keys[G_N_ELEMENTS(report_keys) + 1] = { NULL };
  for (size_t i = 0; i < G_N_ELEMENTS(report_keys); i++)
    keys[i] = report_keys[i].key;
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
      study_check_jobs(&L);
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
