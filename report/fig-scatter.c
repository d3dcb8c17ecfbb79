/* fig-scatter.c - pre vs post: every static metric against the simulated
 * time, one row per metric, one column per platform, Spearman's rho and
 * Pearson's r in each panel (the validation question of korndoerfer2021
 * Section 7.4: does a static metric predict the simulated outcome?). */
#include <math.h>

#include "report/figures.h"

#define CELL_W 250.0
#define CELL_H 190.0
#define LEFT 30.0
#define TOP 56.0
#define LEGEND_W 170.0

static void panel(cairo_t *cr, const fig_scatter_data *d, int row, int col)
{
  const fig_scatter_panel *sp = &d->panels[row * d->ncolumns + col];
  double x = LEFT + col * CELL_W, y = TOP + row * CELL_H;
  plot_panel p = { x + 66, y + 20, x + CELL_W - 14, y + CELL_H - 46, INFINITY, -INFINITY,
                   INFINITY, -INFINITY, FALSE, FALSE, FALSE, FALSE };
  for (int i = 0; i < sp->n; i++) {
    p.xmin = MIN(p.xmin, sp->x[i]);
    p.xmax = MAX(p.xmax, sp->x[i]);
    p.ymin = MIN(p.ymin, sp->y[i]);
    p.ymax = MAX(p.ymax, sp->y[i]);
  }
  char head[128];
  if (sp->why || isnan(sp->rho) || isnan(sp->r))
    g_snprintf(head, sizeof head, "ρ, r: - (%s)   n = %d", sp->why ? sp->why : "undefined",
               sp->n);
  else
    g_snprintf(head, sizeof head, "ρ = %.2f   r = %.2f   n = %d",
               fabs(sp->rho) < 0.005 ? 0.0 : sp->rho, fabs(sp->r) < 0.005 ? 0.0 : sp->r, sp->n);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, (p.x0 + p.x1) / 2, y + 4, PLOT_CENTER | PLOT_TOP, 9.5, TRUE, 0, head);
  if (sp->n == 0) {
    plot_text(cr, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2, PLOT_CENTER | PLOT_MIDDLE, 9, FALSE, 0,
              "no cells");
    return;
  }
  /* from zero, or a break marked on the axis when the values sit far
   * from it (a few percent apart) */
  plot_zero_range(&p.xmin, &p.xmax, TRUE, &p.xbreak);
  plot_zero_range(&p.ymin, &p.ymax, TRUE, &p.ybreak);
  plot_axes(cr, &p, d->row_units[row], d->y_unit, TRUE, d->rows[row],
            col == 0 ? d->y_label : NULL);
  for (int i = 0; i < sp->n; i++)
    plot_mark(cr, PLOT_CIRCLE, plot_px(&p, sp->x[i]), plot_py(&p, sp->y[i]), 3.6,
              plot_category(sp->series[i]));
}

/* The legend's width: room for the longest strategy label. */
static double legend_width(const fig_scatter_data *d)
{
  return MAX(LEGEND_W, 30 + plot_labels_width(d->series, d->nseries, 9, FALSE));
}

/* The note's lines under the panels, as wide as the figure. */
static int note_lines(const fig_scatter_data *d, double w)
{
  return d->note ? plot_text_wrap(NULL, 0, 0, w - 32, 9, FALSE, d->note) : 0;
}

static void draw(cairo_t *cr, double w, double h, void *user)
{
  const fig_scatter_data *d = user;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  for (int c = 0; c < d->ncolumns; c++) {
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    /* as large as fits its column, so that neighbours never run together */
    double size = 11, tw = plot_text_width(cr, size, TRUE, d->columns[c]);
    if (tw > CELL_W - 12)
      size = MAX(5.0, size * (CELL_W - 12) / tw);
    plot_text(cr, LEFT + c * CELL_W + CELL_W / 2 + 26, TOP - 14, PLOT_CENTER | PLOT_BOTTOM, size,
              TRUE, 0, d->columns[c]);
  }
  for (int r = 0; r < d->nrows; r++)
    for (int c = 0; c < d->ncolumns; c++)
      panel(cr, d, r, c);
  double lx = w - legend_width(d) + 10, ly = TOP;
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, lx, ly, PLOT_LEFT | PLOT_TOP, 10, TRUE, 0, "strategy");
  ly += 20;
  for (int s = 0; s < d->nseries; s++, ly += 15) {
    plot_mark(cr, PLOT_CIRCLE, lx + 5, ly, 4, plot_category(s));
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, lx + 15, ly, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, d->series[s]);
  }
  if (d->note) {
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    plot_text_wrap(cr, 16, h - 4 - note_lines(d, w) * 9 * 1.3, w - 32, 9, FALSE, d->note);
  }
}

gboolean fig_scatter(plot_writer *out, const char *stem, const fig_scatter_data *d, GError **error)
{
  double w = LEFT + d->ncolumns * CELL_W + legend_width(d);
  double h = TOP + d->nrows * CELL_H + 10 + (d->note ? 6 + note_lines(d, w) * 9 * 1.3 : 0);
  h = MAX(h, TOP + 20 + 15.0 * d->nseries + 20);
  return plot_save(out, stem, (int)w, (int)h, draw, (void *)d, error);
}
