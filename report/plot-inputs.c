/* plot-inputs.c - what `mapsim plot` reads, checked before anything is
 * drawn (report.h): the JSON of a run (simulate --json, metrics --json),
 * of several jobs (simulate --jobs --json) and the Chrome Trace Event file
 * of simulate --timeline; the titles a run's provenance gives; the
 * timeline as a picture (fig_timeline).
 *
 * Every member a figure reads is checked for its type here, so that the
 * drawing code's json-glib getters never meet another type (they would
 * assert): one error naming the file, the member's path and what it
 * should be. */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "report/report.h"
#include "util/budget.h"

#define TIMELINE_MAX_ROWS 64
#define TIMELINE_MAX_TRACKS 8

/* ---- checking ---------------------------------------------------------- */

typedef struct check {
  const char *file;
  GError **error;
} check;

static gboolean bad(const check *k, const char *path, const char *expected)
{
  g_set_error(k->error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s: expected %s", k->file, path,
              expected);
  return FALSE;
}

static gboolean is_value(JsonNode *n, GType t)
{
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == t;
}

static gboolean is_int(JsonNode *n)
{
  return is_value(n, G_TYPE_INT64);
}

static gboolean is_number(JsonNode *n)
{
  return is_value(n, G_TYPE_INT64) || is_value(n, G_TYPE_DOUBLE);
}

/* Member `name` of o: absent is fine unless `required`; present, it must
 * pass `ok`. */
static gboolean member(const check *k, JsonObject *o, const char *path, const char *name,
                       gboolean required, gboolean (*ok)(JsonNode *), const char *expected)
{
  JsonNode *n = json_object_get_member(o, name);
  g_autofree char *at = g_strdup_printf("%s%s%s", path, *path ? "." : "", name);
  if (!n)
    return required ? bad(k, at, expected) : TRUE;
  return ok(n) ? TRUE : bad(k, at, expected);
}

static gboolean is_string(JsonNode *n)
{
  return is_value(n, G_TYPE_STRING);
}

static gboolean is_string_or_null(JsonNode *n)
{
  return is_string(n) || JSON_NODE_HOLDS_NULL(n);
}

static gboolean is_number_or_null(JsonNode *n)
{
  return is_number(n) || JSON_NODE_HOLDS_NULL(n);
}

static gboolean is_platform(JsonNode *n)
{
  if (is_string(n))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT(n))
    return FALSE;
  JsonNode *s = json_object_get_member(json_node_get_object(n), "source");
  return !s || is_string(s);
}

/* "provenance": an object of strings, numbers and nulls. */
static gboolean check_provenance(const check *k, JsonObject *o)
{
  JsonNode *n = json_object_get_member(o, "provenance");
  if (!n)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT(n))
    return bad(k, "provenance", "an object (as simulate --json writes)");
  JsonObject *po = json_node_get_object(n);
  static const char *const strings[] = { "mapsim", "trace", "matrix", "strategy", "mapping_file",
                                         "platform", "alloc", "model", "jobs_file", "policy" };
  for (size_t i = 0; i < G_N_ELEMENTS(strings); i++)
    if (!member(k, po, "provenance", strings[i], FALSE, is_string_or_null, "a string or null"))
      return FALSE;
  return member(k, po, "provenance", "seed", FALSE, is_int, "an integer") &&
         member(k, po, "provenance", "compute_scale", FALSE, is_number, "a number");
}

/* Element i of array `name` as an object, its path "name[i]" in *path
 * (caller frees); NULL + error when it is no object. */
static JsonObject *element_object(const check *k, JsonArray *a, guint i, const char *name,
                                  char **path)
{
  JsonNode *e = json_array_get_element(a, i);
  *path = g_strdup_printf("%s[%u]", name, i);
  if (!JSON_NODE_HOLDS_OBJECT(e)) {
    bad(k, *path, "an object");
    return NULL;
  }
  return json_node_get_object(e);
}

/* links[i] of a run: "link" an id of p, bytes and busy time numbers. */
static gboolean check_links(const check *k, JsonObject *o, const platform *p, gboolean busy,
                            int njobs)
{
  JsonNode *n = json_object_get_member(o, "links");
  if (!n || !JSON_NODE_HOLDS_ARRAY(n))
    return bad(k, "links", "an array of the run's links, as simulate --json or metrics --json "
                           "writes");
  JsonArray *a = json_node_get_array(n);
  gboolean have_busy = FALSE;
  for (guint i = 0; i < json_array_get_length(a); i++) {
    g_autofree char *path = NULL;
    JsonObject *lo = element_object(k, a, i, "links", &path);
    if (!lo)
      return FALSE;
    if (!member(k, lo, path, "link", TRUE, is_int, "an integer (the link's id)"))
      return FALSE;
    gint64 l = json_object_get_int_member(lo, "link");
    if (l < 0 || l >= p->topo->nlinks) {
      g_autofree char *what = g_strdup_printf("a link id of %s (0..%d); is this the platform of "
                                              "the run?", p->name, p->topo->nlinks - 1);
      g_autofree char *at = g_strdup_printf("%s.link", path);
      return bad(k, at, what);
    }
    if (!member(k, lo, path, "p2p_bytes", FALSE, is_int, "an integer") ||
        !member(k, lo, path, "bytes", FALSE, is_int, "an integer") ||
        !member(k, lo, path, "busy_s", FALSE, is_number, "a number"))
      return FALSE;
    have_busy = have_busy || json_object_has_member(lo, "busy_s");
    if (njobs >= 0) {
      JsonNode *jb = json_object_get_member(lo, "job_bytes");
      gboolean ok = jb && JSON_NODE_HOLDS_ARRAY(jb) &&
                    (int)json_array_get_length(json_node_get_array(jb)) == njobs;
      for (int j = 0; ok && j < njobs; j++)
        ok = is_int(json_array_get_element(json_node_get_array(jb), (guint)j));
      if (!ok) {
        g_autofree char *at = g_strdup_printf("%s.job_bytes", path);
        g_autofree char *what = g_strdup_printf("an array of %d integers (one per job), as "
                                                "simulate --jobs --json writes", njobs);
        return bad(k, at, what);
      }
    }
  }
  if (busy && !have_busy)
    return bad(k, "links[].busy_s", "busy times for --color busy (only simulate --json has "
                                    "them)");
  return TRUE;
}

/* "jobs", "interference" of simulate --jobs --json; the job count. */
static gboolean check_jobs(const check *k, JsonObject *o, int *njobs)
{
  JsonArray *jobs = json_node_get_array(json_object_get_member(o, "jobs"));
  int n = *njobs = (int)json_array_get_length(jobs);
  if (!member(k, o, "", "name", FALSE, is_string, "a string"))
    return FALSE;
  for (int j = 0; j < n; j++) {
    g_autofree char *path = NULL;
    JsonObject *jo = element_object(k, jobs, (guint)j, "jobs", &path);
    if (!jo)
      return FALSE;
    if (!member(k, jo, path, "name", FALSE, is_string, "a string") ||
        !member(k, jo, path, "slowdown", FALSE, is_number_or_null, "a number"))
      return FALSE;
  }
  JsonNode *m = json_object_get_member(o, "interference");
  if (!m)
    return TRUE;
  gboolean ok = JSON_NODE_HOLDS_ARRAY(m) &&
                (int)json_array_get_length(json_node_get_array(m)) == n;
  for (int i = 0; ok && i < n; i++) {
    JsonNode *row = json_array_get_element(json_node_get_array(m), (guint)i);
    ok = JSON_NODE_HOLDS_ARRAY(row) && (int)json_array_get_length(json_node_get_array(row)) == n;
    for (int j = 0; ok && j < n; j++)
      ok = is_number_or_null(json_array_get_element(json_node_get_array(row), (guint)j));
  }
  if (!ok) {
    g_autofree char *what = g_strdup_printf("%d rows of %d numbers (the slowdown of each job "
                                            "beside each other), as simulate --jobs --json "
                                            "writes", n, n);
    return bad(k, "interference", what);
  }
  return TRUE;
}

gboolean report_plot_check_platform(const char *file, JsonNode *root, GError **error)
{
  check k = { file, error };
  if (!root || !JSON_NODE_HOLDS_OBJECT(root))
    return bad(&k, "the top level", "an object, the output of simulate --json or metrics --json");
  return member(&k, json_node_get_object(root), "", "platform", FALSE, is_platform,
                "a platform spec, or an object whose \"source\" is one");
}

gboolean report_plot_check(const char *file, const report_run *run, const platform *p,
                           gboolean busy, GError **error)
{
  check k = { file, error };
  if (!report_plot_check_platform(file, run->json, error))
    return FALSE;
  JsonObject *o = json_node_get_object(run->json);
  int njobs = -1;
  if (json_object_has_member(o, "jobs")) {
    if (!JSON_NODE_HOLDS_ARRAY(json_object_get_member(o, "jobs")))
      return bad(&k, "jobs", "an array of jobs, as simulate --jobs --json writes");
    if (!check_jobs(&k, o, &njobs))
      return FALSE;
  }
  return check_provenance(&k, o) && check_links(&k, o, p, busy, njobs);
}

/* ---- titles ------------------------------------------------------------ */

static const char *prov_string(JsonObject *prov, const char *name)
{
  JsonNode *n = prov ? json_object_get_member(prov, name) : NULL;
  return is_string(n) ? json_node_get_string(n) : NULL;
}

char *report_run_label(const report_run *run)
{
  JsonObject *o = run->json && JSON_NODE_HOLDS_OBJECT(run->json)
                      ? json_node_get_object(run->json) : NULL;
  JsonNode *pn = o ? json_object_get_member(o, "provenance") : NULL;
  JsonObject *prov = pn && JSON_NODE_HOLDS_OBJECT(pn) ? json_node_get_object(pn) : NULL;
  const char *traced = prov_string(prov, "trace"), *jobs = prov_string(prov, "jobs_file");
  traced = traced ? traced : prov_string(prov, "matrix");
  if (!traced && !jobs)
    return g_strdup(run->name);
  const char *strategy = prov_string(prov, "strategy"), *map = prov_string(prov, "mapping_file");
  const char *model = prov_string(prov, "model");
  JsonNode *seed = json_object_get_member(prov, "seed");
  GString *s = g_string_new(NULL);
  g_autofree char *what = g_path_get_basename(traced ? traced : jobs);
  g_autofree char *mapped = map ? g_path_get_basename(map) : NULL;
  if (traced)
    g_string_append_printf(s, "%s mapped by %s", what, mapped ? mapped : strategy ? strategy
                                                                               : "identity");
  else
    g_string_append_printf(s, "the jobs of %s", what);
  gboolean seeded = is_int(seed) && json_node_get_int(seed) != 1;
  if (model || seeded)
    g_string_append_printf(s, " (%s%s%s", model ? "model " : "", model ? model : "",
                           model && seeded ? ", " : "");
  if (seeded)
    g_string_append_printf(s, "seed %" G_GINT64_FORMAT, json_node_get_int(seed));
  if (model || seeded)
    g_string_append_c(s, ')');
  return g_string_free(s, FALSE);
}

/* ---- timelines --------------------------------------------------------- */

gboolean report_is_timeline(JsonNode *root)
{
  return root && JSON_NODE_HOLDS_OBJECT(root) &&
         json_object_has_member(json_node_get_object(root), "traceEvents");
}

/* The first numeric member of a counter's "args" ({"bytes/s": 3.1e10}). */
static JsonNode *counter_value(JsonObject *ev)
{
  JsonNode *a = json_object_get_member(ev, "args");
  if (!a || !JSON_NODE_HOLDS_OBJECT(a))
    return NULL;
  g_autoptr(GList) values = json_object_get_values(json_node_get_object(a));
  return values && is_number(values->data) ? values->data : NULL;
}

static gboolean check_timeline(const check *k, JsonNode *root)
{
  JsonNode *n = json_object_get_member(json_node_get_object(root), "traceEvents");
  if (!JSON_NODE_HOLDS_ARRAY(n))
    return bad(k, "traceEvents", "an array of events, as simulate --timeline writes");
  JsonArray *a = json_node_get_array(n);
  int ranks = 0;
  for (guint i = 0; i < json_array_get_length(a); i++) {
    g_autofree char *path = NULL;
    JsonObject *eo = element_object(k, a, i, "traceEvents", &path);
    if (!eo)
      return FALSE;
    if (!member(k, eo, path, "ph", TRUE, is_string, "a string (the event's phase)") ||
        !member(k, eo, path, "pid", FALSE, is_int, "an integer"))
      return FALSE;
    const char *ph = json_object_get_string_member(eo, "ph");
    gint64 pid = json_object_get_int_member_with_default(eo, "pid", 0);
    if (strcmp(ph, "X") == 0 && pid == 0) {
      if (!member(k, eo, path, "tid", TRUE, is_int, "an integer (the rank)") ||
          !member(k, eo, path, "ts", TRUE, is_number, "a number (microseconds)") ||
          !member(k, eo, path, "dur", TRUE, is_number, "a number (microseconds)") ||
          !member(k, eo, path, "cat", FALSE, is_string, "a string"))
        return FALSE;
      gint64 tid = json_object_get_int_member(eo, "tid");
      double ts = json_node_get_double(json_object_get_member(eo, "ts"));
      double dur = json_node_get_double(json_object_get_member(eo, "dur"));
      if (tid < 0 || tid >= (1 << 24)) {
        g_autofree char *at = g_strdup_printf("%s.tid", path);
        return bad(k, at, "a rank, 0 .. 16777215");
      }
      if (!(ts >= 0 && dur >= 0 && ts + dur < 1e18)) {
        g_autofree char *at = g_strdup_printf("%s.ts", path);
        return bad(k, at, "a time and duration of 0 microseconds or more");
      }
      ranks = MAX(ranks, (int)tid + 1);
    } else if (strcmp(ph, "C") == 0) {
      if (!member(k, eo, path, "name", TRUE, is_string, "a string (the link)") ||
          !member(k, eo, path, "ts", TRUE, is_number, "a number (microseconds)"))
        return FALSE;
      if (!counter_value(eo)) {
        g_autofree char *at = g_strdup_printf("%s.args", path);
        return bad(k, at, "an object whose first member is a number (bytes/s)");
      }
      double ts = json_node_get_double(json_object_get_member(eo, "ts"));
      if (!(ts >= 0 && ts < 1e18)) {
        g_autofree char *at = g_strdup_printf("%s.ts", path);
        return bad(k, at, "a time of 0 microseconds or more");
      }
    }
  }
  if (!ranks)
    return bad(k, "traceEvents", "the ranks' events (\"ph\": \"X\", \"pid\": 0), as simulate "
                                 "--timeline writes");
  return TRUE;
}

gboolean report_plot_check_timeline(const char *file, JsonNode *root, GError **error)
{
  check k = { file, error };
  return check_timeline(&k, root);
}

static int class_of_cat(const char *cat)
{
  return !cat ? FIG_TL_OTHER
         : strcmp(cat, "compute") == 0 ? FIG_TL_COMPUTE
         : strcmp(cat, "p2p") == 0 ? FIG_TL_P2P
         : strcmp(cat, "collective") == 0 ? FIG_TL_COLL : FIG_TL_OTHER;
}

typedef struct track {
  char *name;
  GArray *t, *v; /* doubles: seconds, bytes/s */
} track;

static void track_free(gpointer p)
{
  track *tk = p;
  g_free(tk->name);
  g_array_free(tk->t, TRUE);
  g_array_free(tk->v, TRUE);
  g_free(tk);
}

int report_plot_timeline(JsonNode *root, const char *file, const char *name, const char *dir,
                         GError **error)
{
  JsonArray *a = json_node_get_array(json_object_get_member(json_node_get_object(root),
                                                            "traceEvents"));
  guint n = json_array_get_length(a);
  int ranks = 0, ntracks_all = 0;
  for (guint i = 0; i < n; i++) {
    JsonObject *eo = json_array_get_object_element(a, i);
    if (strcmp(json_object_get_string_member(eo, "ph"), "X") == 0 &&
        json_object_get_int_member_with_default(eo, "pid", 0) == 0)
      ranks = MAX(ranks, (int)json_object_get_int_member(eo, "tid") + 1);
  }
  int nrows = MIN(ranks, TIMELINE_MAX_ROWS);
  int *row_of = g_new(int, ranks); /* -1: not shown */
  for (int r = 0; r < ranks; r++)
    row_of[r] = -1;
  char **labels = g_new0(char *, nrows + 1);
  for (int k = 0; k < nrows; k++) {
    int r = (int)((int64_t)k * ranks / nrows);
    row_of[r] = k;
    labels[k] = g_strdup_printf("rank %d", r);
  }
  GArray **slices = g_new(GArray *, nrows);
  for (int k = 0; k < nrows; k++)
    slices[k] = g_array_new(FALSE, FALSE, sizeof(fig_tl_slice));
  GPtrArray *tracks = g_ptr_array_new_with_free_func(track_free);
  GHashTable *track_of = g_hash_table_new(g_str_hash, g_str_equal);
  double end = 0;
  for (guint i = 0; i < n; i++) {
    JsonObject *eo = json_array_get_object_element(a, i);
    const char *ph = json_object_get_string_member(eo, "ph");
    double ts = json_object_has_member(eo, "ts")
                    ? json_node_get_double(json_object_get_member(eo, "ts")) * 1e-6 : 0;
    if (strcmp(ph, "X") == 0 && json_object_get_int_member_with_default(eo, "pid", 0) == 0) {
      double t1 = ts + json_node_get_double(json_object_get_member(eo, "dur")) * 1e-6;
      end = MAX(end, t1);
      int row = row_of[json_object_get_int_member(eo, "tid")];
      if (row < 0)
        continue;
      fig_tl_slice s = { ts, t1, class_of_cat(json_object_get_string_member_with_default(
                                      eo, "cat", NULL)) };
      g_array_append_val(slices[row], s);
    } else if (strcmp(ph, "C") == 0) {
      const char *tname = json_object_get_string_member(eo, "name");
      track *tk = g_hash_table_lookup(track_of, tname);
      if (!tk) {
        ntracks_all++;
        if (tracks->len >= TIMELINE_MAX_TRACKS)
          continue;
        tk = g_new0(track, 1);
        tk->name = g_strdup(tname);
        tk->t = g_array_new(FALSE, FALSE, sizeof(double));
        tk->v = g_array_new(FALSE, FALSE, sizeof(double));
        g_ptr_array_add(tracks, tk);
        g_hash_table_insert(track_of, tk->name, tk);
      }
      double v = json_node_get_double(counter_value(eo));
      g_array_append_val(tk->t, ts);
      g_array_append_val(tk->v, v);
      end = MAX(end, ts);
    }
  }
  int nt = (int)tracks->len;
  const fig_tl_slice **rows = g_new(const fig_tl_slice *, MAX(nrows, 1));
  int *nslices = g_new(int, MAX(nrows, 1));
  for (int k = 0; k < nrows; k++) {
    rows[k] = (const fig_tl_slice *)(void *)slices[k]->data;
    nslices[k] = (int)slices[k]->len;
  }
  const char **tnames = g_new0(const char *, MAX(nt, 1));
  int64_t *tn = g_new0(int64_t, MAX(nt, 1));
  const double **tt = g_new0(const double *, MAX(nt, 1)), **tv = g_new0(const double *, MAX(nt, 1));
  for (int k = 0; k < nt; k++) {
    track *tk = g_ptr_array_index(tracks, k);
    tnames[k] = tk->name;
    tn[k] = tk->t->len;
    tt[k] = (const double *)(void *)tk->t->data;
    tv[k] = (const double *)(void *)tk->v->data;
  }
  char span[32];
  plot_format_digits(span, sizeof span, end, PLOT_SECONDS, 4);
  g_autofree char *title = g_strdup_printf("Simulated run of %s: %d ranks over %s", file,
                                           ranks, span);
  GString *note = g_string_new(NULL);
  if (ranks > nrows)
    g_string_append_printf(note, "%d of the %d ranks shown, evenly spaced; ", nrows, ranks);
  if (ntracks_all > nt)
    g_string_append_printf(note, "the first %d of the file's %d link tracks; ", nt, ntracks_all);
  g_string_append(note, "Perfetto (ui.perfetto.dev) shows every event of the file");
  fig_timeline_data d = { title, end, nrows, (const char *const *)labels, nslices, rows, nt,
                          tnames, tn, tt, tv, note->str };
  g_autofree char *stem = g_strdup_printf("%s-timeline", name);
  plot_writer *out = plot_writer_new(dir, 0);
  gboolean ok = fig_timeline(out, stem, &d, error);
  ok = plot_writer_finish(out, ok ? error : NULL) && ok;
  g_string_free(note, TRUE);
  g_free(tnames);
  g_free(tn);
  g_free(tt);
  g_free(tv);
  g_free(rows);
  g_free(nslices);
  for (int k = 0; k < nrows; k++)
    g_array_free(slices[k], TRUE);
  g_free(slices);
  g_hash_table_destroy(track_of);
  g_ptr_array_unref(tracks);
  g_strfreev(labels);
  g_free(row_of);
  return ok ? 1 : -1;
}
