/* report-plot.c - `mapsim plot`: the pictures of runs saved as JSON
 * (see report.h): each run's link loads on one colour scale, the busiest
 * link per direction of all of them side by side, the matrix. */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "report/report.h"

/* Per-link bytes and values (bytes or busy time) of one run's "links". */
static gboolean run_links(JsonNode *run, const platform *p, gboolean busy, int64_t *bytes,
                          double *vals, GError **error)
{
  JsonObject *o = run && JSON_NODE_HOLDS_OBJECT(run) ? json_node_get_object(run) : NULL;
  JsonArray *links = o && json_object_has_member(o, "links")
                         ? json_object_get_array_member(o, "links") : NULL;
  if (!links) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "no \"links\" array, expected the JSON of mapsim simulate --json or metrics "
                "--json");
    return FALSE;
  }
  int nl = p->topo->nlinks;
  gboolean have_busy = FALSE;
  for (guint i = 0; i < json_array_get_length(links); i++) {
    JsonObject *e = json_array_get_object_element(links, i);
    gint64 l = e ? json_object_get_int_member_with_default(e, "link", -1) : -1;
    if (l < 0 || l >= nl) {
      g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                  "links[%u]: link id %" G_GINT64_FORMAT " is not a link of %s (0..%d); is this "
                  "the platform of the run?", i, l, p->name, nl - 1);
      return FALSE;
    }
    const char *bytes_key = json_object_has_member(e, "bytes") ? "bytes" : "p2p_bytes";
    bytes[l] = json_object_get_int_member_with_default(e, bytes_key, 0);
    if (json_object_has_member(e, "busy_s"))
      have_busy = TRUE;
    vals[l] = busy ? json_object_get_double_member_with_default(e, "busy_s", 0)
                   : (double)bytes[l];
  }
  if (busy && !have_busy) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "--color busy needs busy times, which only simulate --json has");
    return FALSE;
  }
  return TRUE;
}

/* The stem of the runs' shared figures: "a", "a-vs-b", "a-vs-b-vs-c",
 * "a-vs-b-vs-c-and-3-more" (caller frees). */
static char *report_runs_stem(const char *const *names, int n)
{
  GString *t = g_string_new(names[0]);
  for (int k = 1; k < MIN(n, 3); k++)
    g_string_append_printf(t, "-vs-%s", names[k]);
  if (n > 3)
    g_string_append_printf(t, "-and-%d-more", n - 3);
  return g_string_free(t, FALSE);
}

/* The figures of runs that have been read: names[k] with bytes[k] and
 * vals[k] per link of p. */
static int draw_runs(const char *const *names, const char *const *labels, int64_t **bytes,
                     double **vals, int nruns, const platform *p, const commgraph *g,
                     gboolean busy, gboolean own_scale, const char *dir, GError **error)
{
  int nl = p->topo->nlinks, figures = 0;
  plot_writer *out = plot_writer_new(dir, 0);
  double vmax = 0;
  for (int k = 0; k < nruns; k++)
    for (int l = 0; l < nl; l++)
      vmax = MAX(vmax, vals[k][l]);
  plot_unit unit = busy ? PLOT_SECONDS : PLOT_NUMBER;
  gboolean ok = TRUE;
  for (int k = 0; ok && k < nruns; k++) {
    double top = own_scale ? 0 : vmax;
    for (int l = 0; own_scale && l < nl; l++)
      top = MAX(top, vals[k][l]);
    char max[32];
    plot_format_exact(max, sizeof max, top, unit);
    g_autofree char *scale =
        nruns > 1 && !own_scale
            ? g_strdup_printf("colour scale shared by the %d runs plotted together: 0 to %s%s "
                              "(--scale own: each its own)", nruns, max, busy ? "" : " bytes")
            : g_strdup_printf("this run's own colour scale: 0 to %s%s", max, busy ? "" : " bytes");
    g_autofree char *title = g_strdup_printf("%s of %s on %s", busy ? "Link busy time"
                                                                    : "Link bytes",
                                             labels[k], p->name);
    g_autofree char *stem = g_strdup_printf("%s-links", names[k]);
    ok = fig_links(out, stem, title, p, vals[k], top, unit, busy ? "busy time" : "bytes", scale,
                   error);
    figures += ok;
  }
  if (ok) {
    g_autofree char *joined = report_runs_stem(names, nruns);
    g_autofree char *runs = nruns == 1 ? g_strdup(labels[0]) : g_strdup_printf("%d runs", nruns);
    g_autofree char *title = g_strdup_printf("%s on %s: busiest link per %s", runs, p->name,
                                             p->topo->nswitches ? "link class"
                                                                : "dimension and direction");
    g_autofree char *stem = g_strdup_printf("%s-directions", joined);
    ok = fig_directions(out, stem, title, p, (const int64_t *const *)bytes, labels, nruns, error);
    figures += ok;
  }
  if (ok && g) {
    g_autofree char *stem = g_strdup_printf("%s-matrix", names[0]);
    ok = fig_matrix(out, stem, labels[0], g, error);
    figures += ok;
  }
  ok = plot_writer_finish(out, ok ? error : NULL) && ok;
  return ok ? figures : -1;
}

static void free_runs(int64_t **bytes, double **vals, int n)
{
  for (int k = 0; k < n; k++) {
    g_free(bytes[k]);
    g_free(vals[k]);
  }
  g_free(bytes);
  g_free(vals);
}

int report_plot_runs(const report_run *runs, int nruns, const platform *p, const commgraph *g,
                     gboolean busy, gboolean own_scale, const char *dir, GError **error)
{
  int nl = p->topo->nlinks;
  int64_t **bytes = g_new0(int64_t *, MAX(nruns, 1));
  double **vals = g_new0(double *, MAX(nruns, 1));
  const char **names = g_new(const char *, MAX(nruns, 1));
  char **labels = g_new0(char *, MAX(nruns, 1) + 1);
  gboolean ok = TRUE;
  for (int k = 0; ok && k < nruns; k++) {
    bytes[k] = g_new0(int64_t, MAX(nl, 1));
    vals[k] = g_new0(double, MAX(nl, 1));
    names[k] = runs[k].name;
    labels[k] = report_run_label(&runs[k]);
    ok = run_links(runs[k].json, p, busy, bytes[k], vals[k], error);
    if (!ok)
      g_prefix_error(error, "%s: ", runs[k].name);
  }
  int n = ok ? draw_runs(names, (const char *const *)labels, bytes, vals, nruns, p, g, busy,
                         own_scale, dir, error) : -1;
  free_runs(bytes, vals, nruns);
  g_free(names);
  g_strfreev(labels);
  return n;
}

int report_plot_cells(const study *s, const int *cells, int ncells, gboolean busy,
                      gboolean own_scale, const char *dir, GError **error)
{
  const study_cell *c0 = &s->cells[cells[0]];
  const platform *p = s->platforms[c0->platform].p;
  int nl = p ? p->topo->nlinks : 0;
  int64_t **bytes = g_new0(int64_t *, MAX(ncells, 1));
  double **vals = g_new0(double *, MAX(ncells, 1));
  char **names = g_new0(char *, MAX(ncells, 1) + 1);
  gboolean ok = TRUE;
  for (int k = 0; ok && k < ncells; k++) {
    const study_cell *c = &s->cells[cells[k]];
    if (c->platform != c0->platform) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "cells on %s and %s: cells drawn on one scale must share a platform, expected "
                  "cells of one platform", s->platforms[c0->platform].label,
                  s->platforms[c->platform].label);
      ok = FALSE;
      break;
    }
    run_result *res = study_cell_run(s, c, error);
    if (!res) {
      ok = FALSE;
      break;
    }
    const metrics *m = res->post ? res->post : res->pre;
    bytes[k] = g_new0(int64_t, MAX(nl, 1));
    vals[k] = g_new0(double, MAX(nl, 1));
    for (int l = 0; l < nl; l++) {
      bytes[k][l] = m->link_bytes[l];
      vals[k][l] = busy && res->r ? res->r->link_busy_ps[l] * 1e-12 : (double)m->link_bytes[l];
    }
    if (busy && !res->r) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--color busy needs busy times: input %s is a matrix, nothing was simulated",
                  s->inputs[c->input].label);
      ok = FALSE;
    }
    run_result_free(res);
    g_autofree char *raw = g_strdup_printf("%s_%s_%s", s->inputs[c->input].label,
                                           s->platforms[c->platform].label,
                                           s->strategies[c->strategy].label);
    names[k] = g_strcanon(g_steal_pointer(&raw), G_CSET_a_2_z G_CSET_A_2_Z G_CSET_DIGITS "._+-",
                          '-');
  }
  int n = ok ? draw_runs((const char *const *)names, (const char *const *)names, bytes, vals,
                         ncells, p, s->inputs[c0->input].g, busy, own_scale, dir, error) : -1;
  free_runs(bytes, vals, ncells);
  g_strfreev(names);
  return n;
}

/* The jobs of a `simulate --jobs --json` run: names, slowdowns, the
 * interference matrix (NULL when absent), each job's bytes per link. */
typedef struct jobs_json {
  int n;
  const char **names;
  double *slowdown, *matrix;
  int64_t **bytes;
} jobs_json;

static void jobs_json_clear(jobs_json *jj)
{
  for (int j = 0; j < jj->n && jj->bytes; j++)
    g_free(jj->bytes[j]);
  g_free(jj->bytes);
  g_free(jj->names);
  g_free(jj->slowdown);
  g_free(jj->matrix);
}

static gboolean read_jobs(JsonObject *o, const platform *p, jobs_json *jj, GError **error)
{
  JsonArray *jobs = json_object_get_array_member(o, "jobs");
  JsonArray *links = json_object_has_member(o, "links")
                         ? json_object_get_array_member(o, "links") : NULL;
  int n = jj->n = (int)json_array_get_length(jobs), nl = p->topo->nlinks;
  jj->names = g_new0(const char *, MAX(n, 1));
  jj->slowdown = g_new(double, MAX(n, 1));
  jj->bytes = g_new0(int64_t *, MAX(n, 1));
  for (int j = 0; j < n; j++) {
    JsonObject *jo = json_array_get_object_element(jobs, (guint)j);
    jj->names[j] = jo ? json_object_get_string_member_with_default(jo, "name", "?") : "?";
    jj->slowdown[j] = jo ? json_object_get_double_member_with_default(jo, "slowdown", NAN) : NAN;
    jj->bytes[j] = g_new0(int64_t, MAX(nl, 1));
  }
  for (guint i = 0; links && i < json_array_get_length(links); i++) {
    JsonObject *e = json_array_get_object_element(links, i);
    gint64 l = e ? json_object_get_int_member_with_default(e, "link", -1) : -1;
    JsonArray *jb = e && json_object_has_member(e, "job_bytes")
                        ? json_object_get_array_member(e, "job_bytes") : NULL;
    if (l < 0 || l >= nl || !jb || (int)json_array_get_length(jb) != n) {
      g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                  "links[%u]: expected a link of %s (0..%d) with job_bytes for %d jobs, as "
                  "simulate --jobs --json writes", i, p->name, nl - 1, n);
      return FALSE;
    }
    for (int j = 0; j < n; j++)
      jj->bytes[j][l] = json_array_get_int_element(jb, (guint)j);
  }
  JsonArray *m = json_object_has_member(o, "interference")
                     ? json_object_get_array_member(o, "interference") : NULL;
  if (m && (int)json_array_get_length(m) == n) {
    jj->matrix = g_new(double, (size_t)MAX(n, 1) * (size_t)MAX(n, 1));
    for (int i = 0; i < n; i++) {
      JsonArray *row = json_array_get_array_element(m, (guint)i);
      for (int j = 0; j < n; j++) {
        /* null: a slowdown that is not finite (util/json-number.h) */
        JsonNode *v = row && (int)json_array_get_length(row) == n
                          ? json_array_get_element(row, (guint)j) : NULL;
        jj->matrix[i * n + j] = v && !JSON_NODE_HOLDS_NULL(v) ? json_node_get_double(v) : NAN;
      }
    }
  }
  return TRUE;
}

gboolean report_is_jobs_run(const report_run *run)
{
  JsonObject *o = run->json && JSON_NODE_HOLDS_OBJECT(run->json)
                      ? json_node_get_object(run->json) : NULL;
  return o && json_object_has_member(o, "jobs") &&
         JSON_NODE_HOLDS_ARRAY(json_object_get_member(o, "jobs"));
}

int report_plot_jobs(const report_run *run, const platform *p, const char *dir, GError **error)
{
  jobs_json jj = { 0 };
  JsonObject *o = json_node_get_object(run->json);
  g_autofree char *label = report_run_label(run);
  /* the provenance's label, else the jobs file's [jobs] name */
  const char *name = strcmp(label, run->name) != 0
                         ? label : json_object_get_string_member_with_default(o, "name", run->name);
  int figures = -1;
  if (read_jobs(o, p, &jj, error)) {
    g_autofree char *t1 = g_strdup_printf("Link bytes of %s on %s, by job", name, p->name);
    /* "Slowdown of each job of the jobs of halves.ini" reads twice */
    g_autofree char *s1 = g_strdup_printf("%s-jobs-links", run->name);
    fig_jobs_links_data ld = { t1, p, jj.names, jj.n, (const int64_t *const *)jj.bytes };
    g_autofree char *t2 = g_strdup_printf("Slowdown of each job of %s on %s", name, p->name);
    g_autofree char *s2 = g_strdup_printf("%s-slowdown", run->name);
    fig_jobs_slowdown_data sd = { t2, jj.names, jj.n, NULL, 1, jj.slowdown, NULL, NULL };
    g_autofree char *t3 = g_strdup_printf("Interference of each job of %s on %s", name, p->name);
    g_autofree char *s3 = g_strdup_printf("%s-interference", run->name);
    fig_jobs_interference_data id = { t3, jj.names, jj.n, jj.matrix };
    plot_writer *out = plot_writer_new(dir, 0);
    gboolean ok = fig_jobs_links(out, s1, &ld, error) && fig_jobs_slowdown(out, s2, &sd, error) &&
                  (!jj.matrix || fig_jobs_interference(out, s3, &id, error));
    if (plot_writer_finish(out, ok ? error : NULL) && ok)
      figures = jj.matrix ? 3 : 2;
  }
  jobs_json_clear(&jj);
  return figures;
}
