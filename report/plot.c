/* plot.c - axes, text, colours and PNG/SVG output for the report's
 * figures (see plot.h). */
#include "report/plot.h"

#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <string.h>

#include "study/study.h"
#include "util/output.h"

#define FONT "DejaVu Sans"

/* ---- output ---- */

/* The figure this thread draws (plot_save sets it around each drawing):
 * its size in figure units and the scale from those to device pixels,
 * so that plot_text keeps every text inside it. */
static _Thread_local struct {
  double w, h, k;
} figure;

static plot_text_observer text_observer;
static void *text_observer_user;

void plot_observe_texts(plot_text_observer fn, void *user)
{
  text_observer = fn;
  text_observer_user = user;
}

/* Runs draw on cr for a figure of width x height units at scale k. */
static void draw_figure(cairo_t *cr, double width, double height, double k, plot_draw_fn draw,
                        void *user)
{
  figure.w = width;
  figure.h = height;
  figure.k = k;
  draw(cr, width, height, user);
  figure.w = figure.h = 0;
}

static cairo_status_t to_bytes(void *closure, const unsigned char *data, unsigned int len)
{
  g_byte_array_append(closure, data, len);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean save_bytes(const char *dir, const char *stem, const char *ext, GByteArray *b,
                           GError **error)
{
  g_autofree char *name = g_strconcat(stem, ext, NULL);
  g_autofree char *path = g_build_filename(dir, name, NULL);
  return output_write_all(path, (const char *)b->data, b->len, NULL, error);
}

/* A drawn PNG waiting to be encoded and written. */
typedef struct png_job {
  cairo_surface_t *img;
  char *stem;
} png_job;

struct plot_writer {
  char *dir;
  GThreadPool *pool;         /* NULL: PNGs encoded by plot_save's caller */
  GMutex lock;
  GError *error;             /* the first failure of the pool's threads */
};

static gboolean write_png(cairo_surface_t *img, const char *dir, const char *stem, GError **error)
{
  GByteArray *png = g_byte_array_new();
  cairo_status_t st = cairo_surface_write_to_png_stream(img, to_bytes, png);
  gboolean ok = st == CAIRO_STATUS_SUCCESS;
  if (!ok)
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s.png: cairo: %s", stem,
                cairo_status_to_string(st));
  ok = ok && save_bytes(dir, stem, ".png", png, error);
  g_byte_array_unref(png);
  return ok;
}

static void png_job_free(png_job *j)
{
  cairo_surface_destroy(j->img);
  g_free(j->stem);
  g_free(j);
}

static void png_worker(gpointer data, gpointer user)
{
  png_job *j = data;
  plot_writer *w = user;
  GError *e = NULL;
  if (!write_png(j->img, w->dir, j->stem, &e)) {
    g_mutex_lock(&w->lock);
    if (!w->error)
      w->error = e;
    else
      g_error_free(e);
    g_mutex_unlock(&w->lock);
  }
  png_job_free(j);
}

plot_writer *plot_writer_new(const char *dir, int threads)
{
  plot_writer *w = g_new0(plot_writer, 1);
  w->dir = g_strdup(dir);
  g_mutex_init(&w->lock);
  if (threads > 0)
    w->pool = g_thread_pool_new(png_worker, w, threads, TRUE, NULL);
  return w;
}

const char *plot_writer_dir(const plot_writer *w)
{
  return w->dir;
}

gboolean plot_writer_finish(plot_writer *w, GError **error)
{
  if (w->pool)
    g_thread_pool_free(w->pool, FALSE, TRUE);
  gboolean ok = w->error == NULL;
  if (w->error)
    g_propagate_error(error, w->error);
  g_mutex_clear(&w->lock);
  g_free(w->dir);
  g_free(w);
  return ok;
}

gboolean plot_save(plot_writer *out, const char *stem, int width, int height, plot_draw_fn draw,
                   void *user, GError **error)
{
  /* PNG at 2x - crisp text in a browser that scales it to width x height -
   * unless the figure is large already */
  double k = (double)width * height <= 1.5e6 ? 2 : 1.25;
  cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)(k * width),
                                                    (int)(k * height));
  cairo_t *cr = cairo_create(img);
  cairo_scale(cr, k, k);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  draw_figure(cr, width, height, k, draw, user);
  cairo_destroy(cr);
  gboolean ok;
  cairo_status_t st;
  if (out->pool) {
    png_job *j = g_new(png_job, 1);
    *j = (png_job){ img, g_strdup(stem) };
    ok = g_thread_pool_push(out->pool, j, error);
    if (!ok)
      png_job_free(j);
  } else {
    ok = write_png(img, out->dir, stem, error);
    cairo_surface_destroy(img);
  }
  if (!ok)
    return FALSE;

  GByteArray *svg = g_byte_array_new();
  cairo_surface_t *vec = cairo_svg_surface_create_for_stream(to_bytes, svg, width, height);
  cr = cairo_create(vec);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  draw_figure(cr, width, height, 1, draw, user);
  cairo_destroy(cr);
  cairo_surface_finish(vec);
  st = cairo_surface_status(vec);
  cairo_surface_destroy(vec);
  ok = st == CAIRO_STATUS_SUCCESS;
  if (!ok)
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s.svg: cairo: %s", stem,
                cairo_status_to_string(st));
  ok = ok && save_bytes(out->dir, stem, ".svg", svg, error);
  g_byte_array_unref(svg);
  return ok;
}

void plot_release_fonts(void)
{
  cairo_debug_reset_static_data();
  FcFini();
}

/* ---- colours ---- */

static plot_rgb hex(unsigned v)
{
  return (plot_rgb){ ((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0 };
}

plot_rgb plot_category(int i)
{
  /* Okabe-Ito without its yellow and green (green marks the reference),
   * then further distinct hues */
  static const unsigned pal[] = { 0x0072B2, 0xE69F00, 0xD55E00, 0x56B4E9, 0xCC79A7, 0x000000,
                                  0x8C564B, 0x17BECF, 0xBCBD22, 0x7F7F7F, 0x9467BD, 0xF781BF };
  int n = (int)G_N_ELEMENTS(pal);
  plot_rgb c = hex(pal[((i % n) + n) % n]);
  double k = i >= n ? 0.6 : 1.0;
  return (plot_rgb){ c.r * k, c.g * k, c.b * k };
}

/* A colour map through n evenly spaced stops, linear in between. */
static plot_rgb ramp_at(const unsigned *stops, int nstops, double t)
{
  int n = nstops - 1;
  t = isnan(t) ? 0 : CLAMP(t, 0.0, 1.0);
  int i = MIN((int)(t * n), n - 1);
  double f = t * n - i;
  plot_rgb a = hex(stops[i]), b = hex(stops[i + 1]);
  return (plot_rgb){ a.r + f * (b.r - a.r), a.g + f * (b.g - a.g), a.b + f * (b.b - a.b) };
}

plot_rgb plot_viridis(double t)
{
  static const unsigned stops[] = { 0x440154, 0x482475, 0x414487, 0x355F8D, 0x2A788E, 0x21918C,
                                    0x22A884, 0x44BF70, 0x7AD151, 0xBDDF26, 0xFDE725 };
  return ramp_at(stops, (int)G_N_ELEMENTS(stops), t);
}

plot_rgb plot_heat(double t)
{
  static const unsigned stops[] = { 0xFFE27A, 0xFED976, 0xFEB24C, 0xFD8D3C, 0xFC4E2A, 0xE31A1C,
                                    0xBD0026, 0x800026, 0x4A0020 };
  return ramp_at(stops, (int)G_N_ELEMENTS(stops), t);
}

void plot_set(cairo_t *cr, plot_rgb c, double alpha)
{
  cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

plot_rgb plot_scale_color(double v, double lo, double hi, gboolean log)
{
  if (log) {
    if (!(v > 0))
      return (plot_rgb){ 1, 1, 1 };
    lo = log10(MAX(lo, 1e-300));
    hi = log10(MAX(hi, 1e-300));
    v = log10(v);
  }
  return plot_viridis(hi > lo ? (v - lo) / (hi - lo) : PLOT_CONSTANT_AT);
}

/* ---- text ---- */

static void font(cairo_t *cr, double size, gboolean bold)
{
  cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

/* A context on a 1x1 surface, to measure texts before a figure exists. */
static cairo_t *probe_new(void)
{
  cairo_surface_t *probe = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create(probe);
  cairo_surface_destroy(probe); /* cr holds it */
  return cr;
}

double plot_labels_width(const char *const *labels, int n, double size, gboolean bold)
{
  cairo_t *cr = probe_new();
  double w = 0;
  for (int i = 0; i < n; i++)
    if (labels[i])
      w = MAX(w, plot_text_width(cr, size, bold, labels[i]));
  cairo_destroy(cr);
  return w;
}

int plot_text_wrap(cairo_t *cr, double x, double y, double width, double size, gboolean bold,
                   const char *text)
{
  cairo_t *m = cr ? cr : probe_new();
  g_auto(GStrv) words = g_strsplit(text, " ", -1);
  GString *line = g_string_new(NULL);
  int lines = 0;
  for (int i = 0; words[i]; i++) {
    gsize keep = line->len;
    g_string_append_printf(line, "%s%s", keep ? " " : "", words[i]);
    if (keep && plot_text_width(m, size, bold, line->str) > width) {
      g_string_truncate(line, keep);
      if (cr)
        plot_text(cr, x, y + lines * size * 1.3, PLOT_LEFT | PLOT_TOP, size, bold, 0, line->str);
      lines++;
      g_string_assign(line, words[i]);
    }
  }
  if (line->len) {
    if (cr)
      plot_text(cr, x, y + lines * size * 1.3, PLOT_LEFT | PLOT_TOP, size, bold, 0, line->str);
    lines++;
  }
  g_string_free(line, TRUE);
  if (!cr)
    cairo_destroy(m);
  return lines;
}

double plot_text_width(cairo_t *cr, double size, gboolean bold, const char *text)
{
  font(cr, size, bold);
  cairo_text_extents_t te;
  cairo_text_extents(cr, text, &te);
  return te.x_advance;
}

/* Where text at (x, y) is drawn: its offset from the anchor point and
 * its ink box in figure units (x0, y0, x1, y1). */
static void place_text(cairo_t *cr, double x, double y, int anchor, double angle,
                       const char *text, double *dx, double *dy, double box[4])
{
  cairo_text_extents_t te;
  cairo_font_extents_t fe;
  cairo_text_extents(cr, text, &te);
  cairo_font_extents(cr, &fe);
  *dx = (anchor & 3) == PLOT_CENTER ? -te.x_advance / 2
        : (anchor & 3) == PLOT_RIGHT ? -te.x_advance : 0;
  int v = anchor & 12;
  *dy = v == PLOT_TOP ? fe.ascent * 0.8
        : v == PLOT_MIDDLE ? fe.ascent * 0.36
        : v == PLOT_BOTTOM ? -fe.descent : 0;
  box[0] = box[1] = INFINITY;
  box[2] = box[3] = -INFINITY;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, angle);
  for (int c = 0; c < 4; c++) {
    double px = *dx + te.x_bearing + (c & 1 ? te.width : 0);
    double py = *dy + te.y_bearing + (c & 2 ? te.height : 0);
    cairo_user_to_device(cr, &px, &py);
    px /= figure.k;
    py /= figure.k;
    box[0] = MIN(box[0], px);
    box[1] = MIN(box[1], py);
    box[2] = MAX(box[2], px);
    box[3] = MAX(box[3], py);
  }
  cairo_restore(cr);
}

double plot_text(cairo_t *cr, double x, double y, int anchor, double size, gboolean bold,
                 double angle, const char *text)
{
  font(cr, size, bold);
  double dx, dy, box[4];
  place_text(cr, x, y, anchor, angle, text, &dx, &dy, box);
  if (figure.w > 0) {
    /* never clipped by the figure's edge: a text too long for it is made
     * smaller, one beyond an edge moved inside (a margin of 2 units) */
    const double m = 2;
    double bw = box[2] - box[0], bh = box[3] - box[1];
    double shrink = MIN(bw > figure.w - 2 * m ? (figure.w - 2 * m) / bw : 1,
                        bh > figure.h - 2 * m ? (figure.h - 2 * m) / bh : 1);
    if (shrink < 1) {
      size *= shrink * 0.98;
      font(cr, size, bold);
      place_text(cr, x, y, anchor, angle, text, &dx, &dy, box);
    }
    double sx = box[0] < m ? m - box[0] : box[2] > figure.w - m ? figure.w - m - box[2] : 0;
    double sy = box[1] < m ? m - box[1] : box[3] > figure.h - m ? figure.h - m - box[3] : 0;
    if (sx != 0 || sy != 0) {
      double ux = sx * figure.k, uy = sy * figure.k;
      cairo_device_to_user_distance(cr, &ux, &uy);
      x += ux;
      y += uy;
      place_text(cr, x, y, anchor, angle, text, &dx, &dy, box);
    }
    if (text_observer)
      text_observer(text_observer_user, text, box, figure.w, figure.h);
  }
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_rotate(cr, angle);
  cairo_move_to(cr, dx, dy);
  cairo_show_text(cr, text);
  cairo_restore(cr);
  cairo_text_extents_t te;
  cairo_text_extents(cr, text, &te);
  return te.x_advance;
}

void plot_format(char *buf, size_t n, double v, plot_unit unit)
{
  plot_format_digits(buf, n, v, unit, 3);
}

void plot_format_exact(char *buf, size_t n, double v, plot_unit unit)
{
  int digits = 3;
  for (; digits < 6; digits++) {
    char text[64];
    g_snprintf(text, sizeof text, "%.*g", digits, v);
    if (fabs(g_ascii_strtod(text, NULL) - v) <= 1e-9 * fabs(v))
      break;
  }
  plot_format_digits(buf, n, v, unit, digits);
}

void plot_format_digits(char *buf, size_t n, double v, plot_unit unit, int digits)
{
  double a = fabs(v);
  if (v == 0 || isnan(v)) {
    g_snprintf(buf, n, isnan(v) ? "n/a" : "0");
    return;
  }
  if (unit == PLOT_SECONDS || unit == PLOT_JOULES) {
    /* SI prefixes; seconds stop at s (a minute is not 1 ks to a reader) */
    static const struct { double f; const char *p; } prefixes[] = {
      { 1e6, "M" }, { 1e3, "k" }, { 1, "" }, { 1e-3, "m" }, { 1e-6, "µ" }, { 1e-9, "n" },
      { 1e-12, "p" } };
    const char *symbol = unit == PLOT_SECONDS ? "s" : "J";
    for (size_t i = unit == PLOT_SECONDS ? 2 : 0; i < G_N_ELEMENTS(prefixes); i++)
      if (a >= prefixes[i].f * 0.9995 || i + 1 == G_N_ELEMENTS(prefixes)) {
        g_snprintf(buf, n, "%.*g %s%s", digits, v / prefixes[i].f, prefixes[i].p, symbol);
        return;
      }
  }
  static const struct { double f; const char *u; } big[] = {
    { 1e15, "P" }, { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
  for (size_t i = 0; i < G_N_ELEMENTS(big); i++)
    if (a >= big[i].f * 0.9995) {
      g_snprintf(buf, n, "%.*g%s", digits, v / big[i].f, big[i].u);
      return;
    }
  g_snprintf(buf, n, "%.*g", digits, v);
}

/* ---- panels ---- */

/* v on an axis from lo to hi (log10 when `log`) as a pixel from p0 to p1. */
static double axis_px(double v, double lo, double hi, gboolean log, double p0, double p1)
{
  if (log) {
    v = log10(MAX(v, lo));
    lo = log10(lo);
    hi = log10(hi);
  }
  return p0 + (v - lo) / (hi - lo) * (p1 - p0);
}

double plot_px(const plot_panel *p, double x)
{
  return axis_px(x, p->xmin, p->xmax, p->xlog, p->x0, p->x1);
}

double plot_py(const plot_panel *p, double y)
{
  return axis_px(y, p->ymin, p->ymax, p->ylog, p->y1, p->y0);
}

static double nice_step(double range, int want)
{
  double raw = range / want;
  double mag = pow(10, floor(log10(raw)));
  double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

void plot_nice_range(double *lo, double *hi, gboolean log)
{
  if (log) {
    *lo = pow(10, floor(log10(MAX(*lo, 1e-300))));
    *hi = pow(10, ceil(log10(MAX(*hi, 1e-300))));
    if (*hi <= *lo)
      *hi = *lo * 10;
    return;
  }
  if (!(*hi > *lo)) {
    double m = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 1;
    *lo -= m;
    *hi += m;
  }
  double step = nice_step(*hi - *lo, 5);
  *lo = floor(*lo / step) * step;
  *hi = ceil(*hi / step) * step;
}

void plot_zero_range(double *lo, double *hi, gboolean may_break, gboolean *broken)
{
  *broken = FALSE;
  double a = MIN(fabs(*lo), fabs(*hi)), b = MAX(fabs(*lo), fabs(*hi));
  gboolean one_sign = (*lo > 0 && *hi > 0) || (*lo < 0 && *hi < 0);
  if (may_break && one_sign && a > b / 2 && *hi > *lo) {
    plot_nice_range(lo, hi, FALSE);
    /* nice limits may reach zero again: then it is no break */
    *broken = *lo > 0 || *hi < 0;
    return;
  }
  if (*lo > 0)
    *lo = 0;
  if (*hi < 0)
    *hi = 0;
  if (*hi <= *lo)
    *hi = *lo + 1;
  plot_nice_range(lo, hi, FALSE);
}

/* Two short slanted strokes across an axis near its start: the axis does
 * not begin at zero. */
static void axis_break(cairo_t *cr, double x, double y, gboolean vertical)
{
  cairo_set_source_rgb(cr, 1, 1, 1);
  if (vertical)
    cairo_rectangle(cr, x - 6, y - 5, 12, 4);
  else
    cairo_rectangle(cr, x + 1, y - 6, 4, 12);
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 1);
  for (int k = 0; k < 2; k++) {
    double o = k * 4;
    if (vertical) {
      cairo_move_to(cr, x - 6, y - 1 - o + 1.5);
      cairo_line_to(cr, x + 6, y - 1 - o - 1.5);
    } else {
      cairo_move_to(cr, x + 1 + o - 1.5, y + 6);
      cairo_line_to(cr, x + 1 + o + 1.5, y - 6);
    }
  }
  cairo_stroke(cr);
}

static void axis_ticks(cairo_t *cr, const plot_panel *p, gboolean horizontal, plot_unit unit)
{
  double lo = horizontal ? p->xmin : p->ymin, hi = horizontal ? p->xmax : p->ymax;
  gboolean log = horizontal ? p->xlog : p->ylog;
  double vals[64];
  int n = 0;
  if (log) {
    for (double v = lo; v <= hi * 1.0001 && n < 64; v *= 10)
      vals[n++] = v;
  } else {
    double px = horizontal ? p->x1 - p->x0 : p->y1 - p->y0;
    double step = nice_step(hi - lo, CLAMP((int)(px / (horizontal ? 70 : 40)), 2, 8));
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < 64; v += step)
      vals[n++] = fabs(v) < step * 1e-9 ? 0 : v;
  }
  /* enough digits that neighbouring ticks read differently; beyond 4, the
   * ticks are differences from an offset shown at the axis' end (as in
   * "3.0025 ms + 200 ps") */
  int digits = 3;
  char buf[48], prev[48];
  for (; digits < 10; digits++) {
    gboolean distinct = TRUE;
    prev[0] = '\0';
    for (int i = 0; i < n && distinct; i++) {
      plot_format_digits(buf, sizeof buf, vals[i], unit, digits);
      distinct = strcmp(buf, prev) != 0;
      g_strlcpy(prev, buf, sizeof prev);
    }
    if (distinct)
      break;
  }
  double offset = 0;
  if (digits > 4 && n > 1) {
    offset = vals[0];
    digits = 3;
    char off[48];
    plot_format_digits(off, sizeof off, offset, unit, 10);
    g_autofree char *label = g_strdup_printf("%s +", off);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    if (horizontal)
      plot_text(cr, p->x1, p->y1 + 16, PLOT_RIGHT | PLOT_TOP, 7.5, FALSE, 0, label);
    else
      plot_text(cr, p->x0 + 3, p->y0 + 2, PLOT_LEFT | PLOT_TOP, 7.5, FALSE, 0, label);
  }
  for (int i = 0; i < n; i++) {
    plot_format_digits(buf, sizeof buf, vals[i] - offset, unit, digits);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_set_line_width(cr, 0.6);
    if (horizontal) {
      double x = plot_px(p, vals[i]);
      cairo_move_to(cr, x, p->y0);
      cairo_line_to(cr, x, p->y1);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
      plot_text(cr, x, p->y1 + 4, PLOT_CENTER | PLOT_TOP, 9, FALSE, 0, buf);
    } else {
      double y = plot_py(p, vals[i]);
      cairo_move_to(cr, p->x0, y);
      cairo_line_to(cr, p->x1, y);
      cairo_stroke(cr);
      cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
      plot_text(cr, p->x0 - 4, y, PLOT_RIGHT | PLOT_MIDDLE, 9, FALSE, 0, buf);
    }
  }
}

void plot_axes(cairo_t *cr, const plot_panel *p, plot_unit xunit, plot_unit yunit,
               gboolean xticks, const char *xlabel, const char *ylabel)
{
  axis_ticks(cr, p, FALSE, yunit);
  if (xticks)
    axis_ticks(cr, p, TRUE, xunit);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, p->x0, p->y0);
  cairo_line_to(cr, p->x0, p->y1);
  cairo_line_to(cr, p->x1, p->y1);
  cairo_stroke(cr);
  if (p->ybreak)
    axis_break(cr, p->x0, p->y1 - 6, TRUE);
  if (p->xbreak)
    axis_break(cr, p->x0 + 6, p->y1, FALSE);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  if (xlabel) {
    /* as large as fits under the panel, else cut with an ellipsis */
    double room = p->x1 - p->x0 + 40, size = 10;
    while (size > 7 && plot_text_width(cr, size, FALSE, xlabel) > room)
      size -= 0.5;
    gsize n = strlen(xlabel);
    g_autofree char *cut = g_malloc(n + 4);
    memcpy(cut, xlabel, n + 1);
    for (gsize len = n; len > 4 && plot_text_width(cr, size, FALSE, cut) > room;) {
      while (len > 0 && (cut[len - 1] & 0xC0) == 0x80)
        len--; /* keep UTF-8 sequences whole */
      len--;
      g_strlcpy(cut + len, "…", 4);
    }
    plot_text(cr, (p->x0 + p->x1) / 2, p->y1 + (xticks ? 20 : 6), PLOT_CENTER | PLOT_TOP, size,
              FALSE, 0, cut);
  }
  if (ylabel)
    plot_text(cr, p->x0 - 46, (p->y0 + p->y1) / 2, PLOT_CENTER | PLOT_BOTTOM, 10, FALSE,
              -G_PI / 2, ylabel);
}

/* ---- marks ---- */

void plot_mark(cairo_t *cr, plot_marker m, double x, double y, double r, plot_rgb fill)
{
  switch (m) {
  case PLOT_TRIANGLE:
    cairo_move_to(cr, x, y - r * 1.2);
    cairo_line_to(cr, x + r * 1.1, y + r * 0.75);
    cairo_line_to(cr, x - r * 1.1, y + r * 0.75);
    cairo_close_path(cr);
    break;
  case PLOT_SQUARE:
    cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7);
    break;
  case PLOT_DIAMOND:
    cairo_move_to(cr, x, y - r * 1.2);
    cairo_line_to(cr, x + r * 1.2, y);
    cairo_line_to(cr, x, y + r * 1.2);
    cairo_line_to(cr, x - r * 1.2, y);
    cairo_close_path(cr);
    break;
  case PLOT_CIRCLE:
  default:
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, r, 0, 2 * G_PI);
    break;
  }
  plot_set(cr, fill, 0.85);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.7);
  cairo_set_line_width(cr, 0.7);
  cairo_stroke(cr);
}

void plot_colorbar(cairo_t *cr, plot_ramp ramp, double x, double y, double w, double h,
                   double lo, double hi, gboolean log, plot_unit unit, const char *title)
{
  char buf[32];
  if (!(hi > lo)) {
    /* one value: one swatch */
    plot_set(cr, ramp(PLOT_CONSTANT_AT), 1);
    cairo_rectangle(cr, x, y, w, w);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, x, y, w, w);
    cairo_stroke(cr);
    plot_format(buf, sizeof buf, hi, unit);
    g_autofree char *label = g_strdup_printf("all %s", buf);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    plot_text(cr, x + w + 5, y + w / 2, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, label);
    if (title)
      plot_text(cr, x, y - 6, PLOT_LEFT | PLOT_BOTTOM, 9, TRUE, 0, title);
    return;
  }
  int steps = 96;
  for (int i = 0; i < steps; i++) {
    plot_set(cr, ramp((i + 0.5) / steps), 1);
    double y0 = y + h - (i + 1) * h / steps;
    cairo_rectangle(cr, x, y0, w, h / steps + 0.5);
    cairo_fill(cr);
  }
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  cairo_set_line_width(cr, 0.8);
  cairo_rectangle(cr, x, y, w, h);
  cairo_stroke(cr);
  plot_panel p = { x, y, x + w, y + h, 0, 1, lo, hi, FALSE, log, FALSE, FALSE };
  double vals[32];
  int n = 0;
  if (log && p.ymax >= p.ymin * 10) {
    for (double v = pow(10, ceil(log10(p.ymin) - 1e-9)); v <= p.ymax * 1.0001 && n < 32; v *= 10)
      vals[n++] = v;
  } else {
    /* a narrow range: nice linear ticks inside it, and both ends */
    double step = nice_step(p.ymax - p.ymin, 4);
    vals[n++] = p.ymin;
    for (double v = ceil(p.ymin / step + 1e-9) * step; v < p.ymax - step * 0.5 && n < 31;
         v += step)
      if (v > p.ymin + step * 0.5)
        vals[n++] = v;
    vals[n++] = p.ymax;
  }
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  for (int i = 0; i < n; i++) {
    double ty = plot_py(&p, vals[i]);
    cairo_move_to(cr, x + w, ty);
    cairo_line_to(cr, x + w + 3, ty);
    cairo_stroke(cr);
    if (i == 0 || i == n - 1)
      plot_format_exact(buf, sizeof buf, vals[i], unit); /* the ends: the values drawn */
    else
      plot_format(buf, sizeof buf, vals[i], unit);
    plot_text(cr, x + w + 5, ty, PLOT_LEFT | PLOT_MIDDLE, 9, FALSE, 0, buf);
  }
  if (title)
    plot_text(cr, x, y - 6, PLOT_LEFT | PLOT_BOTTOM, 9, TRUE, 0, title);
}
