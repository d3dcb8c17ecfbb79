/* fig-bars.c - strategies per platform against the identity line
 * (korndoerfer2021 Figs. 4-6) and per-direction link loads
 * (deveci-geometric Fig. 12). */
#include <math.h>
#include <string.h>

#include "mapping/metrics.h"
#include "report/figures.h"

#define PANEL_W 300.0
#define LEGEND_W 190.0

static const plot_rgb reference_green = { 0.0, 0.62, 0.45 };

/* The legend's width: room for its longest label. */
static double legend_width(const fig_groups_data *d)
{
  g_autofree char *ref = d->reference_label ? g_strdup_printf("%s (reference)", d->reference_label)
                                            : NULL;
  const char *extra[] = { "mapped by bytes", d->alt_label, ref };
  double w = MAX(plot_labels_width(d->series, d->nseries, 9, FALSE),
                 plot_labels_width(extra, 3, 9, FALSE));
  return MAX(LEGEND_W, 35 + w);
}

/* The legend of strategies (colours), markers and the reference line. */
static void legend(cairo_t *cr, double x, double y, const fig_groups_data *d)
{
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, x, y, PLOT_LEFT | PLOT_TOP, 10, TRUE, 0, "strategy");
  y += 18;
  for (int s = 0; s < d->nseries; s++, y += 15) {
    plot_mark(cr, PLOT_SQUARE, x + 5, y + 5, 4, plot_category(s));
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, x + 15, y + 5, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, d->series[s]);
  }
  y += 8;
  if (d->alt_label) {
    plot_mark(cr, PLOT_CIRCLE, x + 5, y + 5, 4, (plot_rgb){ 0.8, 0.8, 0.8 });
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, x + 15, y + 5, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, "mapped by bytes");
    y += 15;
    plot_mark(cr, PLOT_TRIANGLE, x + 5, y + 5, 4, (plot_rgb){ 0.8, 0.8, 0.8 });
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, x + 15, y + 5, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, d->alt_label);
    y += 15;
  }
  if (d->reference_label) {
    plot_set(cr, reference_green, 1);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, x, y + 5);
    cairo_line_to(cr, x + 11, y + 5);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    g_autofree char *t = g_strdup_printf("%s (reference)", d->reference_label);
    plot_text(cr, x + 15, y + 5, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, t);
  }
}

/* Height under a panel for its group labels: one line, or the longest
 * label rotated by 45 degrees. */
static double label_room(cairo_t *cr, const fig_groups_data *d)
{
  double gw = (PANEL_W - 72) / MAX(d->ngroups, 1), longest = 0;
  gboolean rotate = FALSE;
  for (int g = 0; g < d->ngroups; g++) {
    double tw = plot_text_width(cr, 9, FALSE, d->groups[g]);
    longest = MAX(longest, tw);
    rotate = rotate || tw > gw - 4;
  }
  return rotate ? 20 + longest * 0.71 : 34;
}

static void group_panel(cairo_t *cr, const fig_groups_data *d, const fig_metric *m, double x,
                        double y, double w, double h)
{
  plot_panel p = { x + 60, y + 22, x + w - 12, y + h - label_room(cr, d), 0, 1, INFINITY,
                   -INFINITY, FALSE, FALSE, FALSE, FALSE };
  for (int i = 0; i < m->npoints; i++)
    if (!isnan(m->points[i].value)) {
      p.ymin = MIN(p.ymin, m->points[i].value);
      p.ymax = MAX(p.ymax, m->points[i].value);
    }
  for (int g = 0; m->reference && g < d->ngroups; g++)
    if (!isnan(m->reference[g])) {
      p.ymin = MIN(p.ymin, m->reference[g]);
      p.ymax = MAX(p.ymax, m->reference[g]);
    }
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, (p.x0 + p.x1) / 2, y + 4, PLOT_CENTER | PLOT_TOP, 11, TRUE, 0, m->title);
  if (!isfinite(p.ymin)) {
    plot_text(cr, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2, PLOT_CENTER | PLOT_MIDDLE, 10, FALSE, 0,
              "no values");
    return;
  }
  gboolean broken;
  plot_zero_range(&p.ymin, &p.ymax, FALSE, &broken);
  plot_axes(cr, &p, PLOT_NUMBER, m->unit, FALSE, NULL, NULL);
  double gw = (p.x1 - p.x0) / MAX(d->ngroups, 1);
  /* group labels across when every one fits its slot, else all rotated */
  gboolean rotate = FALSE;
  for (int g = 0; g < d->ngroups; g++)
    rotate = rotate || plot_text_width(cr, 9, FALSE, d->groups[g]) > gw - 4;
  for (int g = 0; g < d->ngroups; g++) {
    double gx = p.x0 + g * gw;
    if (g) {
      cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
      cairo_set_line_width(cr, 0.6);
      cairo_move_to(cr, gx, p.y0);
      cairo_line_to(cr, gx, p.y1);
      cairo_stroke(cr);
    }
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    if (rotate)
      plot_text(cr, gx + gw / 2 + 3, p.y1 + 6, PLOT_RIGHT | PLOT_MIDDLE, 9, FALSE, -G_PI / 4,
                d->groups[g]);
    else
      plot_text(cr, gx + gw / 2, p.y1 + 6, PLOT_CENTER | PLOT_TOP, 9, FALSE, 0, d->groups[g]);
    if (m->reference && !isnan(m->reference[g])) {
      plot_set(cr, reference_green, 1);
      cairo_set_line_width(cr, 2);
      double ry = plot_py(&p, m->reference[g]);
      cairo_move_to(cr, gx + 3, ry);
      cairo_line_to(cr, gx + gw - 3, ry);
      cairo_stroke(cr);
    }
  }
  for (int i = 0; i < m->npoints; i++) {
    const fig_point *pt = &m->points[i];
    if (isnan(pt->value))
      continue;
    double px = p.x0 + pt->group * gw + gw * (0.08 + 0.84 * (pt->series + 0.5) / d->nseries);
    plot_mark(cr, pt->alt_marker ? PLOT_TRIANGLE : PLOT_CIRCLE, px, plot_py(&p, pt->value), 4,
              plot_category(pt->series));
  }
}

static void draw_groups(cairo_t *cr, double w, double h, void *user)
{
  const fig_groups_data *d = user;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  for (int k = 0; k < d->nmetrics; k++)
    group_panel(cr, d, &d->metrics[k], 10 + k * PANEL_W, 34, PANEL_W, h - 40);
  legend(cr, w - legend_width(d) + 10, 44, d);
}

gboolean fig_groups(plot_writer *out, const char *stem, const fig_groups_data *d, GError **error)
{
  /* room for rotated platform labels under panels of the usual height */
  cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create(probe);
  double room = label_room(cr, d);
  cairo_destroy(cr);
  cairo_surface_destroy(probe);
  double h = MAX(360.0 + room - 34, 90 + 15.0 * d->nseries + 60);
  return plot_save(out, stem, (int)(d->nmetrics * PANEL_W + legend_width(d) + 20), (int)h,
                   draw_groups,
                   (void *)d, error);
}

/* ---- per dimension and direction ---- */

typedef struct dir_fig {
  const char *title;
  const char *const *labels;
  int nsets, nrows;
  gboolean rotate;   /* labels turned 45 degrees: one is wider than its slot */
  double room;       /* under a panel for its labels */
  double legend_w;   /* right of the panels: the longest label's room */
  char names[2 * TOPO_MAX_DIMS + 1][16];
  double data[2][8][2 * TOPO_MAX_DIMS + 1];  /* [bytes|time][set][row] */
} dir_fig;

static void dir_panel(cairo_t *cr, const dir_fig *f, int what, double x, double y, double w,
                      double h)
{
  const char *titles[2] = { "busiest link's bytes",
                            "busiest link's bytes / bandwidth (static)" };
  double base = f->data[what][0][0];
  for (int r = 0; base <= 0 && r < f->nrows; r++)
    base = MAX(base, f->data[what][0][r]);
  if (base <= 0)
    base = 1;
  plot_panel p = { x + 60, y + 22, x + w - 10, y + h - f->room, 0, 1, 0, 0, FALSE, FALSE, FALSE,
                   FALSE };
  for (int s = 0; s < f->nsets; s++)
    for (int r = 0; r < f->nrows; r++)
      p.ymax = MAX(p.ymax, f->data[what][s][r] / base);
  if (p.ymax <= 0)
    p.ymax = 1;
  plot_nice_range(&p.ymin, &p.ymax, FALSE);
  p.ymin = 0;
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, (p.x0 + p.x1) / 2, y + 4, PLOT_CENTER | PLOT_TOP, 11, TRUE, 0, titles[what]);
  g_autofree char *ylabel = g_strdup_printf("relative to %s, %s", f->labels[0], f->names[0]);
  plot_axes(cr, &p, PLOT_NUMBER, PLOT_NUMBER, FALSE, NULL, ylabel);
  double gw = (p.x1 - p.x0) / MAX(f->nrows, 1);
  double bw = gw * 0.8 / f->nsets;
  for (int r = 0; r < f->nrows; r++) {
    double gx = p.x0 + r * gw;
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    if (f->rotate)
      plot_text(cr, gx + gw / 2 + 3, p.y1 + 6, PLOT_RIGHT | PLOT_MIDDLE, 10, FALSE, -G_PI / 4,
                f->names[r]);
    else
      plot_text(cr, gx + gw / 2, p.y1 + 5, PLOT_CENTER | PLOT_TOP, 10, FALSE, 0, f->names[r]);
    for (int s = 0; s < f->nsets; s++) {
      double v = f->data[what][s][r] / base;
      double bx = gx + gw * 0.1 + s * bw, by = plot_py(&p, v);
      plot_set(cr, plot_category(s), 0.9);
      cairo_rectangle(cr, bx, by, bw - 1, p.y1 - by);
      cairo_fill(cr);
    }
  }
}

static void draw_dirs(cairo_t *cr, double w, double h, void *user)
{
  const dir_fig *f = user;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, f->title);
  double pw = (w - f->legend_w) / 2;
  dir_panel(cr, f, 0, 10, 34, pw, h - 40);
  dir_panel(cr, f, 1, 10 + pw, 34, pw, h - 40);
  double lx = w - f->legend_w + 15, ly = 48;
  for (int s = 0; s < f->nsets; s++, ly += 16) {
    plot_mark(cr, PLOT_SQUARE, lx + 5, ly, 4.5, plot_category(s));
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, lx + 15, ly, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, f->labels[s]);
  }
}

gboolean fig_directions(plot_writer *out, const char *stem, const char *title,
                        const platform *p, const int64_t *const *link_bytes,
                        const char *const *labels, int nsets, GError **error)
{
  dir_fig *f = g_new0(dir_fig, 1);
  f->title = title;
  f->labels = labels;
  f->nsets = MIN(nsets, 8);
  int nl = p->topo->nlinks;
  int64_t *zeros = g_new0(int64_t, MAX(nl, 1));
  for (int s = 0; s < f->nsets; s++) {
    metrics m = { .nlinks = nl, .link_bytes = (int64_t *)link_bytes[s], .link_messages = zeros };
    metrics_dim_row rows[2 * TOPO_MAX_DIMS + 1];
    metrics_by_dimension(&m, p, rows, &f->nrows);
    for (int r = 0; r < f->nrows; r++) {
      g_strlcpy(f->names[r], rows[r].label, sizeof f->names[r]);
      f->data[0][s][r] = (double)rows[r].max_bytes;
      f->data[1][s][r] = rows[r].max_time;
    }
  }
  g_free(zeros);
  /* the labels across when each fits its slot, else all turned (link
   * classes like "level2 down" are wider than a slot) */
  cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create(probe);
  double slot = ((920 - 200) / 2.0 - 70) / MAX(f->nrows, 1), longest = 0;
  for (int r = 0; r < f->nrows; r++) {
    double tw = plot_text_width(cr, 10, FALSE, f->names[r]);
    longest = MAX(longest, tw);
    f->rotate = f->rotate || tw > slot - 4;
  }
  cairo_destroy(cr);
  cairo_surface_destroy(probe);
  f->room = f->rotate ? 20 + longest * 0.71 : 30;
  f->legend_w = MAX(200, 30 + plot_labels_width(labels, f->nsets, 9, FALSE));
  gboolean ok = plot_save(out, stem, (int)(720 + f->legend_w), (int)(310 + f->room), draw_dirs, f,
                          error);
  g_free(f);
  return ok;
}
