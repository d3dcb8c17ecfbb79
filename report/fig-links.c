/* fig-links.c - one mapping's load on every link, drawn on the topology.
 *
 * A regular topology of up to three dimensions is drawn as one panel per
 * Z plane (X across, Y down). Each pair of neighbours is joined by two
 * parallel strokes, one per direction (+ above/left, - below/right); torus
 * wrap links are short stubs leaving the grid at both ends. Z links of a
 * mesh or torus colour the two halves of each node (left z-, right z+).
 * The HAEC Box (korndoerfer2021 Section 5.1) is its boards side by side;
 * below each pair of neighbouring boards a band shows their wireless links:
 * the upper board's nodes on top, the lower board's below, one line per
 * used pair in the colour of its busier direction. Switch-based networks
 * are fig-network.c's; other topologies get a ranked bar chart of their
 * busiest links. */
#include <math.h>
#include <string.h>

#include "report/figures.h"

#define MAX_WIDTH 1040.0

typedef struct links_fig {
  const char *title, *what, *scale;
  const platform *p;
  const double *value;
  double vmax;
  plot_unit unit;
  /* layout of the planes */
  int cols, rows;           /* panels */
  double s;                 /* node pitch */
  double pw, ph;            /* panel size */
} links_fig;

static plot_rgb link_color(const links_fig *f, double v)
{
  return plot_heat(f->vmax > 0 ? v / f->vmax : 0);
}

/* A stroke for link l from (x0, y0) to (x1, y1), shifted sideways by off. */
static void stroke_link(cairo_t *cr, const links_fig *f, int l, double x0, double y0, double x1,
                        double y1, double off)
{
  if (l < 0)
    return;
  double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
  if (len <= 0)
    return;
  double nx = -dy / len * off, ny = dx / len * off;
  double v = f->value[l];
  if (v > 0) {
    plot_set(cr, link_color(f, v), 1);
    cairo_set_line_width(cr, MAX(1.8, f->s * 0.07));
  } else {
    cairo_set_source_rgb(cr, 0.86, 0.86, 0.86);
    cairo_set_line_width(cr, 0.8);
  }
  cairo_move_to(cr, x0 + nx, y0 + ny);
  cairo_line_to(cr, x1 + nx, y1 + ny);
  cairo_stroke(cr);
}

static void node_xy(const links_fig *f, double ox, double oy, const int *c, double *x, double *y)
{
  const topo *t = f->p->topo;
  *x = ox + f->s * 0.7 + c[0] * f->s;
  *y = oy + f->s * 0.7 + (t->ndims > 1 ? c[1] : 0) * f->s;
}

/* Is `node` on plane z? Then its coordinates into c and its place. */
static gboolean on_plane(const links_fig *f, int node, int z, double ox, double oy, int *c,
                         double *x, double *y)
{
  const topo *t = f->p->topo;
  topo_coords(t, node, c);
  if (t->ndims > 2 && c[2] != z)
    return FALSE;
  node_xy(f, ox, oy, c, x, y);
  return TRUE;
}

/* The in-plane links (dimensions 0 and 1) of one plane. */
static void plane_links(cairo_t *cr, const links_fig *f, double ox, double oy, int z)
{
  const topo *t = f->p->topo;
  double off = MAX(1.6, f->s * 0.06);
  int c[TOPO_MAX_DIMS] = { 0 };
  for (int node = 0; node < t->nnodes; node++) {
    double x, y;
    if (!on_plane(f, node, z, ox, oy, c, &x, &y))
      continue;
    for (int d = 0; d < MIN(t->ndims, 2); d++) {
      if (t->conn[d] == TOPO_CROSSBAR || t->shape[d] < 2)
        continue;
      int lp = topo_link(t, node, d, 0);
      if (lp < 0)
        continue;
      int nc[TOPO_MAX_DIMS];
      memcpy(nc, c, sizeof nc);
      gboolean wrap = c[d] == t->shape[d] - 1;
      nc[d] = wrap ? 0 : c[d] + 1;
      int nb = topo_node(t, nc);
      int lm = topo_link(t, nb, d, 1); /* the way back */
      double ex = d == 0 ? 1 : 0, ey = d == 1 ? 1 : 0;
      /* + above (x) or left (y) of the pair, - below or right */
      double o = d == 0 ? -off : off;
      if (!wrap) {
        double x1 = x + ex * f->s, y1 = y + ey * f->s;
        stroke_link(cr, f, lp, x, y, x1, y1, o);
        stroke_link(cr, f, lm, x1, y1, x, y, o);
      } else {
        /* the wrap link as two short strokes: leaving the last node
         * forward, entering the first node from behind */
        double bx, by;
        node_xy(f, ox, oy, nc, &bx, &by);
        double wrap_len = f->s * 0.42;
        stroke_link(cr, f, lp, x, y, x + ex * wrap_len, y + ey * wrap_len, o);
        stroke_link(cr, f, lm, x + ex * wrap_len, y + ey * wrap_len, x, y, o);
        stroke_link(cr, f, lp, bx - ex * wrap_len, by - ey * wrap_len, bx, by, o);
        stroke_link(cr, f, lm, bx, by, bx - ex * wrap_len, by - ey * wrap_len, o);
      }
    }
  }
}

/* Nodes of one plane; with a mesh/torus Z dimension, halves coloured by
 * the node's z- (left) and z+ (right) links. */
static void plane_nodes(cairo_t *cr, const links_fig *f, double ox, double oy, int z)
{
  const topo *t = f->p->topo;
  gboolean zlinks = t->ndims > 2 && t->conn[2] != TOPO_CROSSBAR && t->shape[2] > 1;
  double r = MAX(3.0, f->s * 0.16);
  int c[TOPO_MAX_DIMS] = { 0 };
  char buf[16];
  for (int node = 0; node < t->nnodes; node++) {
    double x, y;
    if (!on_plane(f, node, z, ox, oy, c, &x, &y))
      continue;
    for (int half = 0; half < (zlinks ? 2 : 1); half++) {
      int l = zlinks ? topo_link(t, node, 2, half ? 0 : 1) : -1;
      if (l >= 0 && f->value[l] > 0)
        plot_set(cr, link_color(f, f->value[l]), 1);
      else if (l >= 0)
        cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
      else
        cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
      if (zlinks)
        cairo_rectangle(cr, half ? x : x - r, y - r, r, 2 * r);
      else
        cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
      cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
    cairo_stroke(cr);
    if (zlinks) {
      cairo_move_to(cr, x, y - r);
      cairo_line_to(cr, x, y + r);
      cairo_stroke(cr);
    }
    if (f->s >= 34) {
      g_snprintf(buf, sizeof buf, "%d", node);
      cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
      plot_text(cr, x + r + 1, y + r + 1, PLOT_LEFT | PLOT_TOP, 7, FALSE, 0, buf);
    }
  }
}

static void panel_origin(const links_fig *f, int z, double *ox, double *oy)
{
  *ox = 20 + (z % f->cols) * (f->pw + 26);
  *oy = 60 + (z / f->cols) * (f->ph + 30);
}

/* One band of wireless links between boards z and z + 1 (HAEC Box). */
static void wireless_band(cairo_t *cr, const links_fig *f, int z, double x, double y, double w,
                          double h)
{
  const topo *t = f->p->topo;
  int cd = t->crossbar_dim, per = t->slab;
  double step = w / per;
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  g_autofree char *label = g_strdup_printf("wireless, boards %d and %d", z, z + 1);
  plot_text(cr, x + w / 2, y - 4, PLOT_CENTER | PLOT_BOTTOM, 9, TRUE, 0, label);
  int c[TOPO_MAX_DIMS];
  /* lines first, the busiest on top */
  GArray *pairs = g_array_new(FALSE, FALSE, sizeof(double) * 3);
  for (int node = 0; node < t->nnodes; node++) {
    topo_coords(t, node, c);
    if (c[cd] != z)
      continue;
    int k = node % per;
    for (int m = 0; m < per; m++) {
      int cc[TOPO_MAX_DIMS];
      topo_coords(t, m, cc);
      cc[cd] = z + 1;
      int other = topo_node(t, cc);
      int up = topo_crossbar_link(t, node, other), down = topo_crossbar_link(t, other, node);
      double v = MAX(up >= 0 ? f->value[up] : 0, down >= 0 ? f->value[down] : 0);
      if (v > 0) {
        double e[3] = { v, k, m };
        g_array_append_vals(pairs, e, 1);
      }
    }
  }
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < pairs->len; i++) {
      const double *e = &g_array_index(pairs, double, 3 * i);
      gboolean hot = e[0] > f->vmax * 0.5;
      if (hot != (pass == 1))
        continue;
      plot_set(cr, link_color(f, e[0]), 0.9);
      cairo_set_line_width(cr, hot ? 2.2 : 1.4);
      cairo_move_to(cr, x + (e[1] + 0.5) * step, y + 6);
      cairo_line_to(cr, x + (e[2] + 0.5) * step, y + h - 6);
      cairo_stroke(cr);
    }
  g_array_free(pairs, TRUE);
  for (int k = 0; k < per; k++)
    for (int side = 0; side < 2; side++) {
      cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
      cairo_arc(cr, x + (k + 0.5) * step, side ? y + h - 6 : y + 6, MIN(3.0, step * 0.3), 0,
                2 * G_PI);
      cairo_fill(cr);
    }
  cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
  g_autofree char *top = g_strdup_printf("board %d", z), *bottom = g_strdup_printf("board %d", z + 1);
  plot_text(cr, x - 4, y + 6, PLOT_RIGHT | PLOT_MIDDLE, 8, FALSE, 0, top);
  plot_text(cr, x - 4, y + h - 6, PLOT_RIGHT | PLOT_MIDDLE, 8, FALSE, 0, bottom);
}

static void draw_planes(cairo_t *cr, double w, double h, void *user)
{
  const links_fig *f = user;
  const topo *t = f->p->topo;
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, f->title);
  if (f->scale) {
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    plot_text(cr, 16, 30, PLOT_LEFT | PLOT_TOP, 9, FALSE, 0, f->scale);
  }
  int nz = t->ndims > 2 ? t->shape[2] : 1;
  gboolean haec = t->ndims == 3 && t->crossbar_dim == 2;
  char buf[64];
  for (int z = 0; z < nz; z++) {
    double ox, oy;
    panel_origin(f, z, &ox, &oy);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    if (t->ndims > 2)
      g_snprintf(buf, sizeof buf, haec ? "board %d (z = %d)" : "z = %d", z, z);
    else
      g_snprintf(buf, sizeof buf, "%s", t->ndims == 2 ? "x across, y down" : "x");
    plot_text(cr, ox + f->pw / 2, oy - 4, PLOT_CENTER | PLOT_BOTTOM, 10, TRUE, 0, buf);
    cairo_set_source_rgb(cr, 0.975, 0.975, 0.975);
    cairo_rectangle(cr, ox, oy, f->pw, f->ph);
    cairo_fill(cr);
    plane_links(cr, f, ox, oy, z);
    plane_nodes(cr, f, ox, oy, z);
  }
  double bottom = 60 + f->rows * (f->ph + 30);
  if (haec)
    for (int z = 0; z + 1 < nz; z++) {
      double ox, oy;
      panel_origin(f, z, &ox, &oy);
      if (z % f->cols == f->cols - 1)
        continue; /* the pair spans two rows of panels: not drawn */
      wireless_band(cr, f, z, ox + f->pw * 0.61 + 13, bottom + 26 + (z / f->cols) * 110.0,
                    f->pw * 0.78, 70);
    }
  /* colour bar and the key */
  double cx = w - 120, cy = 70, ch = CLAMP(f->ph - 20, 100.0, 170.0);
  plot_colorbar(cr, plot_heat, cx, cy, 14, ch, 0, f->vmax > 0 ? f->vmax : 1, FALSE, f->unit,
                f->what);
  cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
  double ky = cy + ch + 14;
  const char *key[] = { "two strokes per pair:", "+ direction above (x)", "or left (y) of - ;",
                        "grey: unused link",
                        t->ndims > 2 && t->conn[2] != TOPO_CROSSBAR ? "node halves: z- | z+"
                                                                    : NULL };
  for (size_t i = 0; i < G_N_ELEMENTS(key); i++)
    if (key[i])
      plot_text(cr, cx - 10, ky + 13 * i, PLOT_LEFT | PLOT_TOP, 8, FALSE, 0, key[i]);
  (void)h;
}

/* Topologies without a drawing: the busiest links ranked. */
static void draw_ranked(cairo_t *cr, double w, double h, void *user)
{
  const links_fig *f = user;
  int nl = f->p->topo->nlinks;
  int *ids = g_new(int, MAX(nl, 1));
  int n = 0;
  for (int l = 0; l < nl; l++)
    if (f->value[l] > 0)
      ids[n++] = l;
  for (int i = 1; i < n; i++) /* insertion sort by value, then id: n is a few thousand */
    for (int j = i; j > 0 && (f->value[ids[j]] > f->value[ids[j - 1]]); j--) {
      int tmp = ids[j];
      ids[j] = ids[j - 1];
      ids[j - 1] = tmp;
    }
  int shown = MIN(n, 64);
  cairo_set_source_rgb(cr, 0, 0, 0);
  plot_text(cr, 16, 10, PLOT_LEFT | PLOT_TOP, 13, TRUE, 0, f->title);
  g_autofree char *sub = g_strdup_printf("the %d busiest of %d used links (%d links in all; "
                                         "this topology is not drawn as a grid)%s%s", shown, n,
                                         nl, f->scale ? "; " : "", f->scale ? f->scale : "");
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  plot_text(cr, 16, 30, PLOT_LEFT | PLOT_TOP, 9, FALSE, 0, sub);
  plot_panel p = { 70, 60, w - 30, h - 50, 0, MAX(shown, 1), 0, f->vmax > 0 ? f->vmax : 1,
                   FALSE, FALSE, FALSE, FALSE };
  plot_nice_range(&p.ymin, &p.ymax, FALSE);
  p.ymin = 0;
  plot_axes(cr, &p, PLOT_NUMBER, f->unit, FALSE, "links, busiest first", f->what);
  double bw = (p.x1 - p.x0) / MAX(shown, 1);
  for (int i = 0; i < shown; i++) {
    double v = f->value[ids[i]];
    plot_set(cr, link_color(f, v), 1);
    double top = plot_py(&p, v);
    cairo_rectangle(cr, p.x0 + i * bw + 0.5, top, MAX(bw - 1, 0.5), p.y1 - top);
    cairo_fill(cr);
  }
  g_free(ids);
}

gboolean fig_links(plot_writer *out, const char *stem, const char *title, const platform *p,
                   const double *value, double vmax, plot_unit unit, const char *what,
                   const char *scale, GError **error)
{
  const topo *t = p->topo;
  links_fig f = { .title = title, .what = what, .scale = scale, .p = p, .value = value,
                  .vmax = vmax, .unit = unit };
  if (t->nswitches)
    return fig_network(out, stem, title, p, value, vmax, unit, what, scale, error);
  if (f.vmax <= 0)
    for (int l = 0; l < t->nlinks; l++)
      f.vmax = MAX(f.vmax, value[l]);
  gboolean drawable = topo_is_regular(t) && t->ndims <= 3 && t->shape[0] <= 32 &&
                      (t->ndims < 2 || t->shape[1] <= 32) && (t->ndims < 3 || t->shape[2] <= 16) &&
                      (t->crossbar_dim < 0 || (t->ndims == 3 && t->crossbar_dim == 2));
  if (!drawable)
    return plot_save(out, stem, 900, 420, draw_ranked, &f, error);
  int nz = t->ndims > 2 ? t->shape[2] : 1;
  int nx = t->shape[0], ny = t->ndims > 1 ? t->shape[1] : 1;
  f.cols = MIN(nz, 4);
  f.rows = (nz + f.cols - 1) / f.cols;
  double avail = MAX_WIDTH - 170 - 26.0 * f.cols;
  f.s = MIN(64.0, avail / f.cols / (nx + 0.4));
  f.pw = f.s * (nx + 0.4);
  f.ph = f.s * (ny + 0.4);
  gboolean haec = t->ndims == 3 && t->crossbar_dim == 2;
  double height = 60 + f.rows * (f.ph + 30) + (haec ? f.rows * 110 : 0) + 10;
  height = MAX(height, 70 + CLAMP(f.ph - 20, 100.0, 170.0) + 14 + 5 * 13 + 10);
  double width = 20 + f.cols * (f.pw + 26) + 150;
  return plot_save(out, stem, (int)width, (int)height, draw_planes, &f, error);
}
