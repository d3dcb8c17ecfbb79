/* fig-matrix.c - communication matrices as heat maps of message counts and
 * bytes (korndoerfer2021 Section 4.2, Fig. 2): receivers across, senders
 * down, rank 0 in the top left corner, white where nothing is sent, a log
 * colour scale. Matrices of more than 256 ranks are summed into 256 x 256
 * blocks. */
#include <math.h>

#include "report/figures.h"

#define MAX_BINS 256

typedef struct matrix_fig {
  const char *title;
  const commgraph *g;
  int bins;
  double *cells[2];   /* bins x bins: messages, bytes */
} matrix_fig;

static void draw_panel(cairo_t *cr, const matrix_fig *f, int kind, double x, double y,
                       double size)
{
  const char *titles[2] = { "messages (count)", "bytes" };
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, x + size / 2, y - 8, PLOT_CENTER | PLOT_BOTTOM, 11, TRUE, 0, titles[kind]);
  const double *v = f->cells[kind];
  int b = f->bins, n = f->g->n;
  if (!v) {
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.95);
    cairo_rectangle(cr, x, y, size, size);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    plot_text(cr, x + size / 2, y + size / 2, PLOT_CENTER | PLOT_MIDDLE, 10, FALSE, 0,
              "message counts unknown");
    return;
  }
  double lo = INFINITY, hi = 0;
  for (int i = 0; i < b * b; i++)
    if (v[i] > 0) {
      lo = MIN(lo, v[i]);
      hi = MAX(hi, v[i]);
    }
  gboolean log = hi > 0 && hi > lo * 1.0001;
  if (!(hi > 0))
    lo = hi = 1;
  cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, b, b);
  unsigned char *data = cairo_image_surface_get_data(img);
  int stride = cairo_image_surface_get_stride(img);
  cairo_surface_flush(img);
  for (int i = 0; i < b; i++)
    for (int j = 0; j < b; j++) {
      double val = v[i * b + j];
      plot_rgb c = val > 0 ? plot_scale_color(val, lo, hi, log) : (plot_rgb){ 1, 1, 1 };
      uint32_t px = ((uint32_t)(c.r * 255 + 0.5) << 16) | ((uint32_t)(c.g * 255 + 0.5) << 8) |
                    (uint32_t)(c.b * 255 + 0.5);
      *(uint32_t *)(void *)(data + (size_t)i * (size_t)stride + (size_t)j * 4) = px;
    }
  cairo_surface_mark_dirty(img);
  cairo_save(cr);
  cairo_rectangle(cr, x, y, size, size);
  cairo_clip(cr);
  cairo_translate(cr, x, y);
  cairo_scale(cr, size / b, size / b);
  cairo_set_source_surface(cr, img, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_paint(cr);
  cairo_restore(cr);
  cairo_surface_destroy(img);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 0.8);
  cairo_rectangle(cr, x, y, size, size);
  cairo_stroke(cr);
  /* rank ticks at cell centres */
  int step = n <= 8 ? 1 : n <= 16 ? 4 : n <= 64 ? 16 : (int)pow(2, ceil(log2(n / 4.0)));
  char buf[32];
  for (int r = 0; r < n; r += step) {
    double at = (r + 0.5) * size / n;
    g_snprintf(buf, sizeof buf, "%d", r);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    plot_text(cr, x + at, y + size + 4, PLOT_CENTER | PLOT_TOP, 9, FALSE, 0, buf);
    plot_text(cr, x - 4, y + at, PLOT_RIGHT | PLOT_MIDDLE, 9, FALSE, 0, buf);
  }
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, x + size / 2, y + size + 18, PLOT_CENTER | PLOT_TOP, 10, FALSE, 0, "receiver");
  plot_text(cr, x - 30, y + size / 2, PLOT_CENTER | PLOT_BOTTOM, 10, FALSE, -G_PI / 2, "sender");
  plot_colorbar(cr, plot_viridis, x + size + 14, y + 16, 12, size - 16, lo, hi, log, PLOT_NUMBER,
                kind ? "bytes" : "messages");
}

static void draw(cairo_t *cr, double w, double h, void *user)
{
  const matrix_fig *f = user;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, f->title);
  double size = MIN((w - 2 * 150) / 2, h - 110);
  draw_panel(cr, f, 0, 60, 58, size);
  draw_panel(cr, f, 1, 60 + size + 140, 58, size);
}

gboolean fig_matrix(plot_writer *out, const char *stem, const char *title, const commgraph *g,
                    GError **error)
{
  matrix_fig f = { .title = title, .g = g, .bins = MIN(MAX(g->n, 1), MAX_BINS) };
  int b = f.bins;
  f.cells[1] = g_new0(double, (size_t)b * b);
  if (g->msgs)
    f.cells[0] = g_new0(double, (size_t)b * b);
  for (int i = 0; i < g->n; i++)
    for (int k = g->xadj[i]; k < g->xadj[i + 1]; k++) {
      size_t at = (size_t)((int64_t)i * b / g->n) * b + (size_t)((int64_t)g->adj[k] * b / g->n);
      f.cells[1][at] += (double)g->bytes[k];
      if (g->msgs)
        f.cells[0][at] += (double)g->msgs[k];
    }
  gboolean ok = plot_save(out, stem, 900, 420, draw, &f, error);
  g_free(f.cells[0]);
  g_free(f.cells[1]);
  return ok;
}
