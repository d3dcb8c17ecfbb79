/* plot.h - the small chart kit the report's figures are drawn with (cairo).
 *
 * A figure is a drawing function; plot_save() runs it twice, on a PNG and
 * on an SVG surface, so both files show the same picture. Panels map data
 * to pixels (linear or log axes with "nice" ticks); text, markers, a
 * categorical palette (Okabe-Ito, readable by colour-blind readers) and a
 * sequential colour map (viridis) are shared by every figure, so they look
 * alike.
 *
 * Determinism: the same data give the same PNG bytes (cairo's own PNG
 * writer, no timestamps); fonts are fontconfig's "DejaVu Sans".
 * Ownership: nothing here outlives a call but what plot_save() writes and
 * the plot_writer its caller owns.
 * Not for: choosing what to draw (the fig-*.c files, report.c).
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef void (*plot_draw_fn)(cairo_t *cr, double width, double height, void *user);

/* Where figures go: a folder, and the threads that encode their PNGs.
 * Encoding PNGs is the costly part of a figure: with `threads` > 0
 * plot_save() returns once the figure is drawn and up to `threads`
 * threads compress and write the PNGs meanwhile; with 0 plot_save()
 * writes them itself. The caller owns the writer: plot_writer_finish()
 * waits for its PNGs and frees it (FALSE + the first error). Writers are
 * independent: a process may have several, one after another or at the
 * same time. */
typedef struct plot_writer plot_writer;
plot_writer *plot_writer_new(const char *dir, int threads);
const char *plot_writer_dir(const plot_writer *w);
gboolean plot_writer_finish(plot_writer *w, GError **error);

/* Writes DIR/STEM.png and DIR/STEM.svg of `draw` at width x height pixels
 * (the PNG at twice that resolution for sharp text) into out's folder. */
gboolean plot_save(plot_writer *out, const char *stem, int width, int height, plot_draw_fn draw,
                   void *user, GError **error);

/* Texts are never clipped by their figure's edge: plot_text makes a text
 * too long for the figure smaller and moves one beyond an edge inside.
 * A test may watch where each text lands: `fn` gets every text drawn
 * in a figure with its ink box (x0, y0, x1, y1) in figure units and the
 * figure's size (NULL: nobody watches; set it before, not while, figures
 * are drawn). */
typedef void (*plot_text_observer)(void *user, const char *text, const double box[4],
                                   double width, double height);
void plot_observe_texts(plot_text_observer fn, void *user);

/* Releases the font caches cairo and fontconfig keep for the whole
 * process; call once after the last figure (leak checkers then see none). */
void plot_release_fonts(void);

/* ---- colours ---- */

typedef struct plot_rgb {
  double r, g, b;
} plot_rgb;

/* Category i of a palette of 8 (cycled, darker on later cycles). */
plot_rgb plot_category(int i);
/* Colour maps at t in [0, 1]: viridis (matrices, scatter), and a heat
 * ramp from pale yellow to dark red (link loads, visible on white). */
typedef plot_rgb (*plot_ramp)(double t);
plot_rgb plot_viridis(double t);
plot_rgb plot_heat(double t);
void plot_set(cairo_t *cr, plot_rgb c, double alpha);

/* ---- text ---- */

typedef enum {
  PLOT_LEFT = 0, PLOT_CENTER = 1, PLOT_RIGHT = 2,  /* horizontal */
  PLOT_TOP = 0, PLOT_MIDDLE = 4, PLOT_BASELINE = 8, PLOT_BOTTOM = 12, /* vertical */
} plot_anchor;

/* Draws `text` anchored at (x, y) (rotated by `angle` radians about it);
 * returns its width. */
double plot_text(cairo_t *cr, double x, double y, int anchor, double size, gboolean bold,
                 double angle, const char *text);
double plot_text_width(cairo_t *cr, double size, gboolean bold, const char *text);
/* The widest of labels[0..n-1] (NULLs skipped), measured without a
 * figure: for sizing a figure's legend before it is drawn. */
double plot_labels_width(const char *const *labels, int n, double size, gboolean bold);
/* Draws `text` from (x, y) down, left-aligned, broken at spaces into
 * lines at most `width` wide, 1.3 x size apart; returns the number of
 * lines. With cr NULL it only counts them (to size a figure). */
int plot_text_wrap(cairo_t *cr, double x, double y, double width, double size, gboolean bold,
                   const char *text);

/* Numbers for axes and labels: 3 significant digits with k/M/G/T for
 * counts and bytes ("1.2M"), and units for seconds ("3.4 us", "12 ms")
 * and joules ("4.1 mJ", "2.3 kJ"). */
typedef enum {
  PLOT_NUMBER,
  PLOT_SECONDS,
  PLOT_JOULES,
} plot_unit;
void plot_format(char *buf, size_t n, double v, plot_unit unit);
/* The same with `digits` significant digits. */
void plot_format_digits(char *buf, size_t n, double v, plot_unit unit, int digits);
/* As plot_format, with the fewest significant digits (3 to 6) that state
 * v exactly (12,288 bytes: "12.288k", not "12.3k"): for the ends of a
 * scale, which name the largest value drawn. */
void plot_format_exact(char *buf, size_t n, double v, plot_unit unit);

/* ---- panels ---- */

typedef struct plot_panel {
  double x0, y0, x1, y1;   /* the data area in pixels */
  double xmin, xmax, ymin, ymax;
  gboolean xlog, ylog;
  gboolean xbreak, ybreak; /* the axis does not start at zero: plot_axes marks a break */
} plot_panel;

double plot_px(const plot_panel *p, double x);
double plot_py(const plot_panel *p, double y);

/* Widens [*lo, *hi] to nice limits (a log axis to powers of ten); an empty
 * range becomes a small one around the value. */
void plot_nice_range(double *lo, double *hi, gboolean log);

/* A linear axis for data in [*lo, *hi]: from zero to nice limits; when
 * `may_break` and the data sit far from zero (all of one sign, the
 * smallest magnitude above half the largest), nice limits around the data
 * instead and *broken TRUE (set the panel's xbreak/ybreak so that
 * plot_axes marks the break). */
void plot_zero_range(double *lo, double *hi, gboolean may_break, gboolean *broken);

/* Axes with ticks, grid lines and labels; `xticks` FALSE for categorical x
 * axes the caller labels itself. */
void plot_axes(cairo_t *cr, const plot_panel *p, plot_unit xunit, plot_unit yunit,
               gboolean xticks, const char *xlabel, const char *ylabel);

/* ---- marks ---- */

typedef enum {
  PLOT_CIRCLE,
  PLOT_TRIANGLE,
  PLOT_SQUARE,
  PLOT_DIAMOND,
} plot_marker;

void plot_mark(cairo_t *cr, plot_marker m, double x, double y, double r, plot_rgb fill);

/* A vertical colour bar of `ramp` for values lo..hi (log scale when `log`)
 * at (x, y, w, h), with tick labels to its right and a title above. When
 * lo == hi (constant data) one swatch of ramp(PLOT_CONSTANT_AT) labelled
 * with the value instead: there is no range to show. */
#define PLOT_CONSTANT_AT 0.5
void plot_colorbar(cairo_t *cr, plot_ramp ramp, double x, double y, double w, double h,
                   double lo, double hi, gboolean log, plot_unit unit, const char *title);

/* The colour of v on a bar from lo to hi (viridis); grey-white for v <= 0
 * on a log bar; viridis(PLOT_CONSTANT_AT) when lo == hi. */
plot_rgb plot_scale_color(double v, double lo, double hi, gboolean log);

G_END_DECLS
