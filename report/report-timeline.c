/* report-timeline.c - the report's timeline section: for the input whose
 * link loads the report draws ([report] links), the best mapping on every
 * platform replayed again with its records and link activity kept, drawn
 * as a timeline (fig_timeline): what each rank did when - computation,
 * point-to-point, collective and other MPI calls - over the links'
 * throughput summed per link class (dimension and direction on a torus),
 * on one time axis from 0
 * to the makespan. It is what
 * `simulate --timeline` writes for Perfetto, as a picture for the page.
 */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "study/rank.h"
#include "report/report-private.h"
#include "sim/timeline.h"

#define ROW_H 7.0
#define MAX_ROWS 64
#define LEFT 78.0
#define RIGHT 180.0
#define TRACK_H 170.0

static const char *const class_names[FIG_TL_NCLASSES] = { "computation", "point-to-point",
                                                          "collective", "other MPI" };

static plot_rgb class_color(int c)
{
  static const plot_rgb grey = { 0.78, 0.78, 0.78 };
  return c == FIG_TL_COMPUTE ? grey : plot_category(c - 1);
}

static void legend(cairo_t *cr, double x, double y, const fig_timeline_data *d)
{
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, x, y, PLOT_LEFT | PLOT_TOP, 10, TRUE, 0, "ranks");
  y += 18;
  for (int c = 0; c < FIG_TL_NCLASSES; c++, y += 15) {
    plot_mark(cr, PLOT_SQUARE, x + 5, y + 5, 4.5, class_color(c));
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, x + 15, y + 5, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, class_names[c]);
  }
  if (!d->ntracks)
    return;
  y += 10;
  plot_text(cr, x, y, PLOT_LEFT | PLOT_TOP, 10, TRUE, 0, "links");
  y += 18;
  for (int k = 0; k < d->ntracks; k++, y += 15) {
    plot_set(cr, plot_category(k + 3), 1);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, x, y + 5);
    cairo_line_to(cr, x + 11, y + 5);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, x + 15, y + 5, PLOT_LEFT | PLOT_MIDDLE, 8, FALSE, 0, d->track_labels[k]);
  }
}

static void draw(cairo_t *cr, double w, double h, void *user)
{
  const fig_timeline_data *d = user;
  double end = d->end_s > 0 ? d->end_s : 1e-12;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  double top = 40, rows_h = d->nrows * ROW_H;
  plot_panel pr = { LEFT, top, w - RIGHT, top + rows_h, 0, end, 0, d->nrows, FALSE, FALSE,
                    FALSE, FALSE };
  for (int r = 0; r < d->nrows; r++) {
    double y = top + r * ROW_H;
    for (int i = 0; i < d->row_nslices[r]; i++) {
      const fig_tl_slice *s = &d->rows[r][i];
      double x0 = plot_px(&pr, s->t0), x1 = plot_px(&pr, s->t1);
      plot_set(cr, class_color(s->cls), 1);
      cairo_rectangle(cr, x0, y + 0.5, MAX(x1 - x0, 0.3), ROW_H - 1);
      cairo_fill(cr);
    }
    if (r % MAX(1, d->nrows / 8) == 0) {
      cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
      plot_text(cr, LEFT - 6, y + ROW_H / 2, PLOT_RIGHT | PLOT_MIDDLE, 7.5, FALSE, 0,
                d->row_labels[r]);
    }
  }
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, pr.x0, pr.y0, pr.x1 - pr.x0, pr.y1 - pr.y0);
  cairo_stroke(cr);
  legend(cr, w - RIGHT + 14, top, d);
  /* the links' throughput, same time axis, from zero */
  plot_panel pt = { LEFT, top + rows_h + 24, w - RIGHT, top + rows_h + 24 + TRACK_H, 0, end, 0,
                    0, FALSE, FALSE, FALSE, FALSE };
  for (int k = 0; k < d->ntracks; k++)
    for (int64_t i = 0; i < d->track_n[k]; i++)
      pt.ymax = MAX(pt.ymax, d->track_v[k][i]);
  gboolean broken;
  plot_zero_range(&pt.ymin, &pt.ymax, FALSE, &broken);
  plot_axes(cr, &pt, PLOT_SECONDS, PLOT_NUMBER, TRUE, "simulated time",
            "throughput (bytes/s)");
  for (int k = 0; k < d->ntracks; k++) {
    plot_set(cr, plot_category(k + 3), 0.9);
    cairo_set_line_width(cr, 1.4);
    cairo_move_to(cr, plot_px(&pt, 0), plot_py(&pt, 0));
    for (int64_t i = 0; i < d->track_n[k]; i++) {
      double y_prev = i ? d->track_v[k][i - 1] : 0;
      cairo_line_to(cr, plot_px(&pt, d->track_t[k][i]), plot_py(&pt, y_prev));
      cairo_line_to(cr, plot_px(&pt, d->track_t[k][i]), plot_py(&pt, d->track_v[k][i]));
    }
    cairo_stroke(cr);
  }
  if (d->note) {
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    plot_text(cr, LEFT, h - 8, PLOT_LEFT | PLOT_BOTTOM, 9, FALSE, 0, d->note);
  }
}

gboolean fig_timeline(plot_writer *out, const char *stem, const fig_timeline_data *d,
                      GError **error)
{
  int height = (int)(40 + d->nrows * ROW_H + 24 + TRACK_H + 70);
  return plot_save(out, stem, 960, height, draw, (void *)d, error);
}

/* ---- from a replay to the figure's data ---- */

static int class_of(const trace *t, uint32_t region)
{
  switch (region < (uint32_t)t->nregions ? trace_region_class_of(t->regions[region])
                                         : TRACE_REGION_OTHER_MPI) {
  case TRACE_REGION_P2P: return FIG_TL_P2P;
  case TRACE_REGION_COLL: return FIG_TL_COLL;
  default: return FIG_TL_OTHER;
  }
}

typedef struct slices_ctx {
  const trace *t;
  GArray *a;
} slices_ctx;

static void on_slice(void *user, int region, int64_t t0, int64_t t1)
{
  slices_ctx *c = user;
  fig_tl_slice s = { t0 * 1e-12, t1 * 1e-12,
                     region < 0 ? FIG_TL_COMPUTE : class_of(c->t, (uint32_t)region) };
  g_array_append_val(c->a, s);
}

/* Rank r's slices: its MPI calls and the computation between them. */
static GArray *rank_slices(const trace *t, int r)
{
  slices_ctx c = { t, g_array_new(FALSE, FALSE, sizeof(fig_tl_slice)) };
  timeline_rank_slices(t, r, on_slice, &c);
  return c.a;
}

/* The timeline of one cell, replayed again with its records and links. */
static gboolean cell_timeline(rep_page *pg, const study_cell *c, const char *title,
                              GError **error)
{
  const study *s = pg->s;
  const platform *p = s->platforms[c->platform].p;
  linkrec *rec = linkrec_new(p->topo->nlinks);
  run_result *res = study_cell_rerun(s, c, rec, error);
  gboolean ok = res && res->r && res->r->out_trace;
  if (!ok) {
    linkrec_free(rec);
    run_result_free(res);
    return res == NULL ? FALSE : TRUE; /* a deadlocked cell: nothing to draw */
  }
  const trace *t = res->r->out_trace;
  int nrows = MIN(t->nranks, MAX_ROWS);
  GArray **slices = g_new0(GArray *, nrows);
  fig_tl_slice **rows = g_new0(fig_tl_slice *, nrows);
  int *nslices = g_new0(int, nrows);
  char **labels = g_new0(char *, nrows + 1);
  for (int k = 0; k < nrows; k++) {
    int r = (int)((int64_t)k * t->nranks / nrows);
    slices[k] = rank_slices(t, r);
    rows[k] = (fig_tl_slice *)(void *)slices[k]->data;
    nslices[k] = (int)slices[k]->len;
    labels[k] = g_strdup_printf("rank %d", r);
  }
  GPtrArray *tracks = timeline_tracks(p, rec, "dims", NULL);
  int nt = (int)tracks->len;
  linkrec_series **series = g_new0(linkrec_series *, MAX(nt, 1));
  const char **tnames = g_new0(const char *, MAX(nt, 1));
  int64_t *tn = g_new0(int64_t, MAX(nt, 1));
  double **tt = g_new0(double *, MAX(nt, 1));
  const double **tv = g_new0(const double *, MAX(nt, 1));
  for (int k = 0; k < nt; k++) {
    const timeline_track *tk = g_ptr_array_index(tracks, k);
    series[k] = linkrec_series_of(rec, tk->links, tk->nlinks);
    tnames[k] = tk->name;
    tn[k] = series[k]->n;
    tt[k] = g_new(double, MAX(series[k]->n, 1));
    for (int64_t i = 0; i < series[k]->n; i++)
      tt[k][i] = series[k]->time[i] * 1e-12;
    tv[k] = series[k]->value;
  }
  g_autofree char *note = t->nranks > nrows
      ? g_strdup_printf("%d of the %d ranks shown, evenly spaced; links: the summed throughput "
                        "of each link class", nrows, t->nranks)
      : g_strdup("links: the summed throughput of each link class; mapsim "
                 "simulate --timeline writes every link for Perfetto");
  fig_timeline_data d = { title, res->r->makespan_ps * 1e-12, nrows,
                          (const char *const *)labels, nslices,
                          (const fig_tl_slice *const *)rows, nt, tnames, tn,
                          (const double *const *)tt, tv, note };
  const char *parts[] = { s->inputs[c->input].label, s->platforms[c->platform].label,
                          s->strategies[c->strategy].label, NULL };
  g_autofree char *stem = rep_stem(pg, "timeline", parts);
  ok = fig_timeline(pg->fig, stem, &d, error) && html_figure(pg, stem, title, error);
  for (int k = 0; k < nt; k++) {
    linkrec_series_free(series[k]);
    g_free(tt[k]);
  }
  for (int k = 0; k < nrows; k++)
    g_array_free(slices[k], TRUE);
  g_free(series);
  g_free(tnames);
  g_free(tn);
  g_free(tt);
  g_free(tv);
  g_free(slices);
  g_free(rows);
  g_free(nslices);
  g_strfreev(labels);
  timeline_tracks_free(tracks);
  linkrec_free(rec);
  run_result_free(res);
  return ok;
}

gboolean rep_html_timeline(rep_page *pg, GPtrArray *groups, int input, GError **error)
{
  const study *s = pg->s;
  if (!s->inputs[input].t)
    return TRUE; /* a matrix: nothing was replayed */
  rep_section_open(pg, "timeline", "Timeline",
                   "what the ranks and the links did, best mapping per platform", FALSE);
  g_string_append(pg->h, "<p>");
  html_printf(pg->h, "Input %s replayed again under the best strategy of each platform: one "
              "row per rank (its computation and its MPI calls), below them the throughput "
              "of the links summed per link class (dimension and direction on a torus), on the "
              "time axis of the run.", s->inputs[input].label);
  g_string_append(pg->h, "</p>\n");
  gboolean ok = TRUE;
  for (guint g = 0; ok && g < groups->len; g++) {
    const rank_group *r = g_ptr_array_index(groups, g);
    if (r->input != input || r->kind != 0 || r->model < 0 || r->model > 0 || r->n == 0 ||
        isnan(r->e[0].value) || !s->platforms[r->platform].p)
      continue;
    const study_cell *c = study_cell_at(s, input, 0, r->platform, r->e[0].strategy, r->model, 0);
    g_autofree char *title = g_strdup_printf("%s on %s mapped by %s (rank 1 by %s), model %s",
                                             s->inputs[input].label,
                                             s->platforms[r->platform].label,
                                             s->strategies[c->strategy].label, r->metric,
                                             s->models[r->model]->name);
    ok = cell_timeline(pg, c, title, error);
  }
  rep_section_close(pg);
  return ok;
}
