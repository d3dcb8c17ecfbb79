/* fig-sweep.c - the co-design figure: the ranking metric (the simulated
 * time, or a static metric for matrices) against a swept platform
 * parameter, one line and colour per strategy, the y axis from zero, and
 * under each swept value the strategy that wins there (or the tie); a
 * strategy whose line lies on an earlier one's says so in the legend, and
 * earlier strategies are drawn wider, so that coinciding ones all show.
 *
 * The x axis puts each swept value at its place - logarithmic when the
 * values span a factor of 8 or more (a doubling sweep is then evenly
 * spaced, and the axis says "log scale"), linear otherwise - with a tick at
 * every value and none elsewhere. Ties are the report's (stats_equal:
 * within a relative STATS_REL_TOL). */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "study/stats.h"
#include "util/output.h"

#define LEGEND_W 200.0

typedef struct sweep_fig {
  const fig_sweep_data *d;
  gboolean xlog;
} sweep_fig;

static double at(const fig_sweep_data *d, int series, int x)
{
  return d->y[series * d->nx + x];
}

/* "greedy", "tie: identity, greedy" or "tie of 5" - who wins at value x */
static char *winner(const fig_sweep_data *d, int x)
{
  double best = INFINITY;
  for (int s = 0; s < d->nseries; s++)
    if (!isnan(at(d, s, x)))
      best = MIN(best, at(d, s, x));
  if (!isfinite(best))
    return g_strdup("no value");
  GPtrArray *names = g_ptr_array_new();
  for (int s = 0; s < d->nseries; s++)
    if (!isnan(at(d, s, x)) && stats_equal(at(d, s, x), best))
      g_ptr_array_add(names, (char *)d->series[s]);
  char *text;
  if (names->len == 1)
    text = g_strdup(names->pdata[0]);
  else if (names->len == 2)
    text = g_strdup_printf("tie: %s, %s", (char *)names->pdata[0], (char *)names->pdata[1]);
  else
    text = g_strdup_printf("tie of %u", names->len);
  g_ptr_array_free(names, TRUE);
  return text;
}

/* The first series before s with the same values everywhere (drawn
 * under it), or -1. */
static int same_as(const fig_sweep_data *d, int s)
{
  for (int e = 0; e < s; e++) {
    gboolean same = TRUE;
    for (int x = 0; x < d->nx && same; x++) {
      double a = at(d, s, x), b = at(d, e, x);
      same = (isnan(a) && isnan(b)) || stats_equal(a, b);
    }
    if (same)
      return e;
  }
  return -1;
}

/* Strategy s's legend label: its name, and the earlier one its line lies on. */
static char *legend_label(const fig_sweep_data *d, int s)
{
  int e = same_as(d, s);
  return e >= 0 ? g_strdup_printf("%s (= %s)", d->series[s], d->series[e])
                : g_strdup(d->series[s]);
}

/* The legend's width: room for its longest label. */
static double legend_width(const fig_sweep_data *d)
{
  double w = 0;
  for (int s = 0; s < d->nseries; s++) {
    g_autofree char *name = legend_label(d, s);
    const char *one[] = { name };
    w = MAX(w, plot_labels_width(one, 1, 9, FALSE));
  }
  return MAX(LEGEND_W, 36 + w);
}

static void legend(cairo_t *cr, double x, double y, const fig_sweep_data *d)
{
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, x, y, PLOT_LEFT | PLOT_TOP, 10, TRUE, 0, "strategy");
  y += 20;
  for (int s = 0; s < d->nseries; s++, y += 16) {
    plot_set(cr, plot_category(s), 1);
    cairo_set_line_width(cr, 1.6);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + 18, y);
    cairo_stroke(cr);
    plot_mark(cr, PLOT_CIRCLE, x + 9, y, 3.5, plot_category(s));
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    g_autofree char *name = legend_label(d, s);
    plot_text(cr, x + 24, y, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, name);
  }
}

/* A tick, its value and the winner there, under the panel at value x. */
static void x_tick(cairo_t *cr, const fig_sweep_data *d, const plot_panel *p, int x, double room)
{
  double px = plot_px(p, d->x[x]);
  cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
  cairo_set_line_width(cr, 0.6);
  cairo_move_to(cr, px, p->y0);
  cairo_line_to(cr, px, p->y1);
  cairo_stroke(cr);
  /* the value in full: as few digits as still give it to 1e-9 */
  char buf[48];
  for (int digits = 3; digits <= 9; digits++) {
    plot_format_digits(buf, sizeof buf, d->x[x], d->x_unit, digits);
    char *end = NULL;
    double shown = g_ascii_strtod(buf, &end);
    double scale = d->x[x] / shown; /* the prefix (k, M, G) or unit it used */
    if (fabs(round(log10(fabs(scale))) - log10(fabs(scale))) < 1e-9)
      break;
  }
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  plot_text(cr, px, p->y1 + 4, PLOT_CENTER | PLOT_TOP, 9, FALSE, 0, buf);
  g_autofree char *best = winner(d, x);
  double size = 8;
  while (size > 6 && plot_text_width(cr, size, FALSE, best) > room)
    size -= 0.5;
  cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
  if (plot_text_width(cr, size, FALSE, best) <= room)
    plot_text(cr, px, p->y1 + 20, PLOT_CENTER | PLOT_TOP, size, FALSE, 0, best);
}

static void draw(cairo_t *cr, double w, double h, void *user)
{
  const sweep_fig *f = user;
  const fig_sweep_data *d = f->d;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  plot_panel p = { .x0 = 90, .y0 = 44, .x1 = w - legend_width(d) - 30, .y1 = h - 78,
                   .xmin = d->x[0], .xmax = d->x[d->nx - 1], .xlog = f->xlog };
  /* room around the first and last value: 6% of the axis each side */
  double lo = f->xlog ? log10(p.xmin) : p.xmin, hi = f->xlog ? log10(p.xmax) : p.xmax;
  double pad = hi > lo ? (hi - lo) * 0.06 : (lo != 0 ? fabs(lo) * 0.06 : 1);
  p.xmin = f->xlog ? pow(10, lo - pad) : lo - pad;
  p.xmax = f->xlog ? pow(10, hi + pad) : hi + pad;
  p.ymin = INFINITY;
  for (int s = 0; s < d->nseries; s++)
    for (int x = 0; x < d->nx; x++)
      if (!isnan(at(d, s, x))) {
        p.ymin = MIN(p.ymin, at(d, s, x));
        p.ymax = MAX(p.ymax, at(d, s, x));
      }
  if (!isfinite(p.ymin))
    p.ymin = p.ymax = 0;
  gboolean broken; /* never: times are compared from zero */
  plot_zero_range(&p.ymin, &p.ymax, FALSE, &broken);
  plot_axes(cr, &p, d->x_unit, d->y_unit, FALSE, NULL, d->y_label);
  double room = d->nx > 1 ? (p.x1 - p.x0) / d->nx : p.x1 - p.x0;
  for (int x = 0; x < d->nx; x++)
    x_tick(cr, d, &p, x, room);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  g_autofree char *xlabel = g_strdup_printf("%s%s; best strategy under each value", d->x_label,
                                            f->xlog ? " (log scale)" : "");
  plot_text(cr, (p.x0 + p.x1) / 2, p.y1 + 38, PLOT_CENTER | PLOT_TOP, 10, FALSE, 0, xlabel);
  /* earlier strategies wider and larger: where lines and points coincide,
   * each still shows a rim */
  for (int s = 0; s < d->nseries; s++) {
    plot_set(cr, plot_category(s), 0.9);
    cairo_set_line_width(cr, 1.2 + 2.4 * (d->nseries - 1 - s) / MAX(d->nseries - 1, 1));
    gboolean open = FALSE;
    for (int x = 0; x < d->nx; x++) {
      double v = at(d, s, x);
      if (isnan(v)) {
        open = FALSE;
        continue;
      }
      if (open)
        cairo_line_to(cr, plot_px(&p, d->x[x]), plot_py(&p, v));
      else
        cairo_move_to(cr, plot_px(&p, d->x[x]), plot_py(&p, v));
      open = TRUE;
    }
    cairo_stroke(cr);
  }
  for (int s = 0; s < d->nseries; s++)
    for (int x = 0; x < d->nx; x++)
      if (!isnan(at(d, s, x)))
        plot_mark(cr, PLOT_CIRCLE, plot_px(&p, d->x[x]), plot_py(&p, at(d, s, x)),
                  3 + 3.0 * (d->nseries - 1 - s) / MAX(d->nseries - 1, 1), plot_category(s));
  legend(cr, w - legend_width(d) + 6, 48, d);
}

/* Puts the figure's title and axes into its SVG as <title> and <desc>,
 * for screen readers and for searching: cairo writes text as glyphs. */
static gboolean describe_svg(const char *dir, const char *stem, const fig_sweep_data *d,
                             gboolean xlog, GError **error)
{
  g_autofree char *name = g_strconcat(stem, ".svg", NULL);
  g_autofree char *path = g_build_filename(dir, name, NULL);
  g_autofree char *svg = NULL;
  if (!g_file_get_contents(path, &svg, NULL, error))
    return FALSE;
  const char *open = strstr(svg, "<svg");
  const char *end = open ? strchr(open, '>') : NULL;
  if (!end)
    return TRUE;
  g_autofree char *desc = g_strdup_printf("x: %s%s; y: %s; one line per strategy: %d values "
                                          "each", d->x_label, xlog ? " (log scale)" : "",
                                          d->y_label, d->nx);
  g_autofree char *t = g_markup_escape_text(d->title, -1);
  g_autofree char *e = g_markup_escape_text(desc, -1);
  GString *out = g_string_new_len(svg, end + 1 - svg);
  g_string_append_printf(out, "\n<title>%s</title>\n<desc>%s</desc>%s", t, e, end + 1);
  gboolean ok = output_write_all(path, out->str, out->len, NULL, error);
  g_string_free(out, TRUE);
  return ok;
}

gboolean fig_sweep(plot_writer *out, const char *stem, const fig_sweep_data *d, GError **error)
{
  g_return_val_if_fail(d->nx >= 1 && d->nseries >= 1, FALSE);
  sweep_fig f = { d, d->x[0] > 0 && d->x[d->nx - 1] >= 8 * d->x[0] };
  double h = MAX(380.0, 100 + 16.0 * d->nseries);
  double w = MAX(760.0, 420 + 70.0 * d->nx) + legend_width(d);
  return plot_save(out, stem, (int)w, (int)h, draw, &f, error) &&
         describe_svg(plot_writer_dir(out), stem, d, f.xlog, error);
}
