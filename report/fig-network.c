/* fig-network.c - a switch-based network's link loads as the matrices of
 * its net_view (netview.h): a dragonfly as groups (group to group global
 * links, each router's node links, routers to routers inside the busiest
 * groups), a fat tree or Slurm's tree by level (each switch's busiest link
 * up and down), a HyperX by dimension. Panels flow left to right under
 * the title; one colour bar (0 to the shared maximum) serves all of them;
 * white cells have no link, grey ones an unused link. */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "report/figures-private.h"
#include "report/netview.h"

#define NET_WIDTH 1040.0
#define NET_BAR 150.0     /* the colour bar's column */
#define NET_MAX_COLS 128
#define NET_TOP 58.0

typedef struct net_box {
  double x, y;            /* the panel's top left */
  double mx, my;          /* the matrix's top left */
  double cs;              /* cell size */
  double w, h;            /* the panel's size */
} net_box;

typedef struct net_fig {
  const char *title, *what, *scale;
  double vmax;
  plot_unit unit;
  net_view *v;
  net_box *box;
  double height;
} net_fig;

/* Longest of n names (or of the numbers below n) in characters. */
static int longest(char *const *names, int n)
{
  int w = n > 1 ? (int)floor(log10(n - 1)) + 1 : 1;
  for (int i = 0; names && i < n; i++)
    w = MAX(w, (int)strlen(names[i]));
  return w;
}

/* Panel boxes, flowing left to right in rows; the total height. Text
 * sizes are estimated (6 px a character at 8 pt), so the layout needs no
 * surface and fig_network_cell finds the same places. */
static double layout(const net_view *v, net_box *box)
{
  double x = 16, y = NET_TOP, row_h = 0, right = NET_WIDTH - NET_BAR;
  for (int k = 0; k < v->npanels; k++) {
    const net_panel *q = &v->panels[k];
    net_box *b = &box[k];
    b->cs = CLAMP(MIN(260.0 / q->rows, 760.0 / q->cols), 3.0, 24.0);
    gboolean names = b->cs >= 9; /* names fit their cells; numbers go every few */
    double label_w = 6.0 * MIN(longest(names ? q->row_names : NULL, q->rows), 10);
    double cols_h = names && q->col_names ? 6.0 * MIN(longest(q->col_names, q->cols), 10) : 12;
    double mw = q->cols * b->cs, mh = q->rows * b->cs;
    b->w = MAX(24 + label_w + mw + 12, 6.0 * strlen(q->title) * 0.95 + 8);
    b->h = 18 + 14 + cols_h + mh + (q->note ? 16 : 4) + 12;
    if (x + b->w > right && x > 16) {
      x = 16;
      y += row_h;
      row_h = 0;
    }
    b->x = x;
    b->y = y;
    b->mx = x + 24 + label_w;
    b->my = y + 18 + 14 + cols_h;
    x += b->w + 14;
    row_h = MAX(row_h, b->h);
  }
  return MAX(y + row_h + 10, NET_TOP + 260);
}

static void cell_color(cairo_t *cr, const net_fig *f, double v)
{
  if (v > 0)
    plot_set(cr, plot_heat(f->vmax > 0 ? MIN(v / f->vmax, 1.0) : 1.0), 1);
  else
    cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
}

static void draw_panel(cairo_t *cr, const net_fig *f, int k)
{
  const net_panel *q = &f->v->panels[k];
  const net_box *b = &f->box[k];
  char buf[24];
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  plot_text(cr, b->x, b->y, PLOT_LEFT | PLOT_TOP, 9.5, TRUE, 0, q->title);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  if (q->col_label)
    plot_text(cr, b->mx, b->y + 18, PLOT_LEFT | PLOT_TOP, 8, FALSE, 0, q->col_label);
  if (q->row_label)
    plot_text(cr, b->x + 6, b->my + q->rows * b->cs / 2, PLOT_CENTER | PLOT_TOP, 8, FALSE,
              -G_PI / 2, q->row_label);
  for (int r = 0; r < q->rows; r++)
    for (int c = 0; c < q->cols; c++) {
      double v = q->value[(size_t)r * q->cols + c];
      if (isnan(v))
        continue;
      cell_color(cr, f, v);
      cairo_rectangle(cr, b->mx + c * b->cs, b->my + r * b->cs, b->cs - (b->cs > 5),
                      b->cs - (b->cs > 5));
      cairo_fill(cr);
    }
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  /* every cell's name or number when cells are large; else numbers every
   * 2, 5, 10 ... cells, at least 14 pixels apart */
  gboolean names = b->cs >= 9;
  int step = 1;
  for (int i = 0; step * b->cs < 14; i++)
    step = (i % 3 == 0 ? 2 : i % 3 == 1 ? 5 : 10) * (int)pow(10, i / 3);
  for (int r = 0; r < q->rows; r += step) {
    const char *name = names && q->row_names ? q->row_names[r]
                                            : (g_snprintf(buf, sizeof buf, "%d", r), buf);
    plot_text(cr, b->mx - 3, b->my + (r + 0.5) * b->cs, PLOT_RIGHT | PLOT_MIDDLE, 7, FALSE, 0,
              name);
  }
  for (int c = 0; c < q->cols; c += step) {
    double cx = b->mx + (c + 0.5) * b->cs;
    if (names && q->col_names)
      plot_text(cr, cx, b->my - 3, PLOT_LEFT | PLOT_MIDDLE, 7, FALSE, -G_PI / 2, q->col_names[c]);
    else {
      g_snprintf(buf, sizeof buf, "%d", c);
      plot_text(cr, cx, b->my - 3, PLOT_CENTER | PLOT_BOTTOM, 7, FALSE, 0, buf);
    }
  }
  if (q->note) {
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    plot_text(cr, b->mx, b->my + q->rows * b->cs + 4, PLOT_LEFT | PLOT_TOP, 7.5, FALSE, 0,
              q->note);
  }
}

static void draw_network(cairo_t *cr, double w, double h, void *user)
{
  const net_fig *f = user;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, f->title);
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  g_autofree char *sub = g_strdup_printf("%s%s%s", f->scale ? f->scale : "",
                                         f->scale ? "; " : "",
                                         "white: no link, grey: an unused link");
  plot_text(cr, 16, 30, PLOT_LEFT | PLOT_TOP, 9, FALSE, 0, sub);
  for (int k = 0; k < f->v->npanels; k++)
    draw_panel(cr, f, k);
  plot_colorbar(cr, plot_heat, w - NET_BAR + 30, 70, 14, 170, 0, f->vmax > 0 ? f->vmax : 1,
                FALSE, f->unit, f->what);
  (void)h;
}

gboolean fig_network(plot_writer *out, const char *stem, const char *title, const platform *p,
                     const double *value, double vmax, plot_unit unit, const char *what,
                     const char *scale, GError **error)
{
  net_fig f = { title, what, scale, vmax, unit, net_view_new(p, value, NET_MAX_COLS), NULL, 0 };
  g_assert(f.v); /* fig_links draws direct networks */
  if (f.vmax <= 0)
    for (int l = 0; l < p->topo->nlinks; l++)
      f.vmax = MAX(f.vmax, value[l]);
  f.box = g_new0(net_box, MAX(f.v->npanels, 1));
  f.height = layout(f.v, f.box);
  gboolean ok = plot_save(out, stem, (int)NET_WIDTH, (int)ceil(f.height), draw_network, &f, error);
  g_free(f.box);
  net_view_free(f.v);
  return ok;
}

gboolean fig_network_cell(const platform *p, const double *value, int panel, int row, int col,
                          double *x, double *y)
{
  net_view *v = net_view_new(p, value, NET_MAX_COLS);
  gboolean ok = v && panel >= 0 && panel < v->npanels && row >= 0 &&
                row < v->panels[panel].rows && col >= 0 && col < v->panels[panel].cols;
  if (ok) {
    net_box *box = g_new0(net_box, v->npanels);
    layout(v, box);
    double cs = box[panel].cs, inner = cs - (cs > 5);
    *x = box[panel].mx + col * cs + inner / 2;
    *y = box[panel].my + row * cs + inner / 2;
    g_free(box);
  }
  net_view_free(v);
  return ok;
}
