/* fig-jobs.c - the pictures of several jobs on one network (sim/mix.h):
 * the busiest links' bytes stacked by job (a link of two colours is
 * shared), each job's slowdown against its run alone (one bar per job and
 * variant, a line at 1), and the interference matrix (the slowdown of the
 * row's job next to the column's job alone), after Yang et al., "Watch out
 * for the bully!", SC16, whose figures show the same three things. */
#include <math.h>
#include <string.h>

#include "report/figures.h"

#define LINKS_TOP 20

typedef struct links_fig {
  const fig_jobs_links_data *d;
  int *all, *shared; /* the links used, and those two jobs or more use; most bytes first */
  int nall, nshared;
  const double *total;
} links_fig;

static double link_total(const fig_jobs_links_data *d, int l)
{
  double t = 0;
  for (int j = 0; j < d->njobs; j++)
    t += (double)d->bytes[j][l];
  return t;
}

static void job_legend(cairo_t *cr, double x, double y, const char *const *names, int n)
{
  for (int j = 0; j < n; j++) {
    plot_mark(cr, PLOT_SQUARE, x + 5, y + 15 * j + 5, 4.5, plot_category(j));
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    plot_text(cr, x + 15, y + 15 * j + 5, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, names[j]);
  }
}

/* One panel: the first min(n, LINKS_TOP) links of ids as bars stacked by
 * job, on an axis of its own from 0. */
static void links_panel(cairo_t *cr, const links_fig *f, const int *ids, int n, const char *title,
                        double x0, double y0, double x1, double y1)
{
  const fig_jobs_links_data *d = f->d;
  n = MIN(n, LINKS_TOP);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, (x0 + x1) / 2, y0, PLOT_CENTER | PLOT_TOP, 11, TRUE, 0, title);
  plot_panel p = { x0 + 60, y0 + 24, x1, y1, 0, MAX(n, 1), 0, 0, FALSE, FALSE, FALSE, FALSE };
  if (n == 0) {
    plot_text(cr, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2, PLOT_CENTER | PLOT_MIDDLE, 10, FALSE, 0,
              "none");
    return;
  }
  for (int i = 0; i < n; i++)
    p.ymax = MAX(p.ymax, f->total[ids[i]]);
  gboolean broken;
  plot_zero_range(&p.ymin, &p.ymax, FALSE, &broken);
  plot_axes(cr, &p, PLOT_NUMBER, PLOT_NUMBER, FALSE, NULL, "bytes");
  double bw = (p.x1 - p.x0) / n;
  for (int i = 0; i < n; i++) {
    int l = ids[i];
    double base = 0, x = p.x0 + i * bw + bw * 0.12;
    for (int j = 0; j < d->njobs; j++) {
      double v = (double)d->bytes[j][l];
      if (v <= 0)
        continue;
      plot_set(cr, plot_category(j), 1);
      double ya = plot_py(&p, base), yb = plot_py(&p, base + v);
      cairo_rectangle(cr, x, yb, bw * 0.76, ya - yb);
      cairo_fill(cr);
      base += v;
    }
    g_autofree char *name = platform_link_name(d->p, l);
    char *paren = strchr(name, '(');
    if (paren && paren > name)
      paren[-1] = '\0'; /* "12 -> 13" */
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    plot_text(cr, x + bw * 0.38 + 3, p.y1 + 6, PLOT_RIGHT | PLOT_MIDDLE, 8, FALSE, -G_PI / 3,
              name);
  }
}

static void draw_links(cairo_t *cr, double w, double h, void *user)
{
  const links_fig *f = user;
  const fig_jobs_links_data *d = f->d;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  g_autofree char *sub = g_strdup_printf(
      "each job's bytes along its routes; %d links used, %d of them by two jobs or more; each "
      "panel its own axis from 0", f->nall, f->nshared);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  plot_text(cr, 16, 30, PLOT_LEFT | PLOT_TOP, 10, FALSE, 0, sub);
  double mid = (w - 150) / 2;
  g_autofree char *t1 = g_strdup_printf("the %d busiest links", MIN(f->nall, LINKS_TOP));
  g_autofree char *t2 = g_strdup_printf("the %d busiest shared links", MIN(f->nshared, LINKS_TOP));
  links_panel(cr, f, f->all, f->nall, t1, 20, 58, mid - 10, h - 100);
  links_panel(cr, f, f->shared, f->nshared, t2, mid + 10, 58, w - 170, h - 100);
  job_legend(cr, w - 150, 82, d->names, d->njobs);
}

/* Most bytes first, ties by link id: a stable, deterministic order. */
static gint by_total(gconstpointer a, gconstpointer b, gpointer user)
{
  const double *total = user;
  int x = *(const int *)a, y = *(const int *)b;
  if (total[x] != total[y])
    return total[x] > total[y] ? -1 : 1;
  return (x > y) - (x < y);
}

gboolean fig_jobs_links(plot_writer *out, const char *stem, const fig_jobs_links_data *d,
                        GError **error)
{
  int nl = d->p->topo->nlinks;
  double *total = g_new0(double, MAX(nl, 1));
  links_fig f = { .d = d, .all = g_new(int, MAX(nl, 1)), .shared = g_new(int, MAX(nl, 1)),
                  .total = total };
  for (int l = 0; l < nl; l++) {
    int users = 0;
    for (int j = 0; j < d->njobs; j++)
      users += d->bytes[j][l] > 0;
    if (!users)
      continue;
    total[l] = link_total(d, l);
    f.all[f.nall++] = l;
    if (users > 1)
      f.shared[f.nshared++] = l;
  }
  g_qsort_with_data(f.all, f.nall, sizeof(int), by_total, total);
  g_qsort_with_data(f.shared, f.nshared, sizeof(int), by_total, total);
  gboolean ok = plot_save(out, stem, 1100, 480, draw_links, &f, error);
  g_free(total);
  g_free(f.all);
  g_free(f.shared);
  return ok;
}

static void draw_slowdowns(cairo_t *cr, double w, double h, void *user)
{
  const fig_jobs_slowdown_data *d = user;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  plot_text(cr, 16, 30, PLOT_LEFT | PLOT_TOP, 10, FALSE, 0,
            "makespan next to the other jobs / makespan alone on the same nodes; 1 (the line): "
            "not slowed at all");
  plot_panel p = { 70, 60, w - (d->nseries > 1 ? 190 : 30), h - 60, 0, 1, 0, 1, FALSE, FALSE,
                   FALSE, FALSE };
  for (int i = 0; i < d->nseries * d->njobs; i++) {
    if (isfinite(d->slowdown[i]))
      p.ymax = MAX(p.ymax, d->slowdown[i]);
    if (d->hi && isfinite(d->hi[i]))
      p.ymax = MAX(p.ymax, d->hi[i]);
  }
  gboolean broken;
  plot_zero_range(&p.ymin, &p.ymax, FALSE, &broken);
  plot_axes(cr, &p, PLOT_NUMBER, PLOT_NUMBER, FALSE, NULL, "slowdown");
  double gw = (p.x1 - p.x0) / MAX(d->njobs, 1), bw = gw * 0.8 / MAX(d->nseries, 1);
  char buf[32];
  for (int j = 0; j < d->njobs; j++) {
    double gx = p.x0 + j * gw;
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    plot_text(cr, gx + gw / 2, p.y1 + 6, PLOT_CENTER | PLOT_TOP, 10, FALSE, 0, d->jobs[j]);
    for (int s = 0; s < d->nseries; s++) {
      double v = d->slowdown[s * d->njobs + j];
      if (!isfinite(v))
        continue;
      double x = gx + gw * 0.1 + s * bw, y = plot_py(&p, v);
      plot_set(cr, plot_category(d->nseries > 1 ? s : j), 1);
      cairo_rectangle(cr, x + 1, y, bw - 2, p.y1 - y);
      cairo_fill(cr);
      double top = y;
      int i = s * d->njobs + j;
      if (d->lo && d->hi && isfinite(d->lo[i]) && d->hi[i] > d->lo[i]) {
        /* the range over the draws */
        double ylo = plot_py(&p, d->lo[i]), yhi = plot_py(&p, d->hi[i]), cx = x + bw / 2;
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, cx, ylo);
        cairo_line_to(cr, cx, yhi);
        cairo_move_to(cr, cx - bw / 5, ylo);
        cairo_line_to(cr, cx + bw / 5, ylo);
        cairo_move_to(cr, cx - bw / 5, yhi);
        cairo_line_to(cr, cx + bw / 5, yhi);
        cairo_stroke(cr);
        top = MIN(top, yhi);
      }
      plot_format_digits(buf, sizeof buf, v, PLOT_NUMBER, 4);
      cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
      plot_text(cr, x + bw / 2, top - 2, PLOT_CENTER | PLOT_BOTTOM, 8, FALSE, 0, buf);
    }
  }
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  cairo_set_line_width(cr, 1.2);
  double one[] = { 5, 3 };
  cairo_set_dash(cr, one, 2, 0);
  cairo_move_to(cr, p.x0, plot_py(&p, 1));
  cairo_line_to(cr, p.x1, plot_py(&p, 1));
  cairo_stroke(cr);
  cairo_set_dash(cr, NULL, 0, 0);
  if (d->nseries > 1)
    job_legend(cr, w - 175, 70, d->series, d->nseries);
}

gboolean fig_jobs_slowdown(plot_writer *out, const char *stem, const fig_jobs_slowdown_data *d,
                           GError **error)
{
  int width = (int)CLAMP(140 + 60.0 * d->njobs * MAX(d->nseries, 1), 520, 1400);
  return plot_save(out, stem, width + (d->nseries > 1 ? 160 : 0), 420, draw_slowdowns,
                   (void *)d, error);
}

/* A slowdown below 1 (faster next to the other job than alone). */
static const plot_rgb faster_blue = { 0.62, 0.79, 0.93 };

static void draw_interference(cairo_t *cr, double w, double h, void *user)
{
  const fig_jobs_interference_data *d = user;
  int n = d->njobs;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, d->title);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  plot_text(cr, 16, 30, PLOT_LEFT | PLOT_TOP, 10, FALSE, 0,
            "slowdown of the row's job in a run with the column's job alone (1: not slowed)");
  /* the heat from 1 (not slowed) to the most slowdown; a job faster next
   * to another (below 1) is blue, outside the heat */
  double lo = 1, hi = 1;
  gboolean faster = FALSE;
  for (int i = 0; i < n * n; i++)
    if (isfinite(d->matrix[i]) && i / n != i % n) {
      hi = MAX(hi, d->matrix[i]);
      faster = faster || d->matrix[i] < 1;
    }
  double label = 0;
  for (int j = 0; j < n; j++)
    label = MAX(label, plot_text_width(cr, 10, FALSE, d->jobs[j]));
  double x0 = 30 + label, y0 = 70 + label * 0.7, size = MIN(w - x0 - 120, h - y0 - 20);
  double cs = size / MAX(n, 1);
  char buf[32];
  for (int i = 0; i < n; i++) {
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    plot_text(cr, x0 - 6, y0 + (i + 0.5) * cs, PLOT_RIGHT | PLOT_MIDDLE, 10, FALSE, 0, d->jobs[i]);
    plot_text(cr, x0 + (i + 0.5) * cs, y0 - 6, PLOT_LEFT | PLOT_MIDDLE, 10, FALSE, -G_PI / 4,
              d->jobs[i]);
    for (int j = 0; j < n; j++) {
      double v = d->matrix[i * n + j];
      plot_rgb c = i == j  ? (plot_rgb){ 0.9, 0.9, 0.9 }
                   : v < 1 ? faster_blue
                           : plot_heat(hi > lo ? (v - lo) / (hi - lo) : PLOT_CONSTANT_AT);
      plot_set(cr, c, 1);
      cairo_rectangle(cr, x0 + j * cs, y0 + i * cs, cs - 1, cs - 1);
      cairo_fill(cr);
      plot_format_digits(buf, sizeof buf, v, PLOT_NUMBER, 4);
      gboolean dark = i != j && hi > lo && (v - lo) / (hi - lo) > 0.6;
      cairo_set_source_rgb(cr, dark ? 1 : 0.1, dark ? 1 : 0.1, dark ? 1 : 0.1);
      plot_text(cr, x0 + (j + 0.5) * cs, y0 + (i + 0.5) * cs, PLOT_CENTER | PLOT_MIDDLE,
                MIN(11, cs / 4), FALSE, 0, i == j ? "alone" : buf);
    }
  }
  plot_colorbar(cr, plot_heat, x0 + size + 20, y0 + 16, 12, MIN(size, 200) - 16, lo, hi, FALSE,
                PLOT_NUMBER, "slowdown");
  if (faster) {
    double ky = y0 + 16 + MIN(size, 200) - 16 + 16;
    plot_set(cr, faster_blue, 1);
    cairo_rectangle(cr, x0 + size + 20, ky, 12, 12);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    plot_text(cr, x0 + size + 37, ky + 6, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0,
              "below 1: faster");
  }
}

gboolean fig_jobs_interference(plot_writer *out, const char *stem,
                               const fig_jobs_interference_data *d, GError **error)
{
  int size = (int)CLAMP(120 + 70.0 * d->njobs, 420, 1000);
  return plot_save(out, stem, size + 200, size + 60, draw_interference, (void *)d, error);
}
