/* test_netfig.c - the network figures of switch-based networks
 * (report/fig-network.c): a known link's colour read back from the
 * PNG at the cell fig_network_cell says it is drawn in - the heat colour
 * of its share of the scale's maximum, the grey of an unused link, the
 * white of a cell without a link - on a dragonfly's group matrix, a fat
 * tree's levels, a HyperX's dimensions and a Slurm tree; and the scale is
 * the one given (a link at half of it is drawn at half). */
#include <cairo.h>
#include <math.h>

#include "report/figures.h"
#include "report/figures-private.h"
#include "testutil.h"

typedef struct cell_check {
  int panel, row, col;
  double share;        /* of the maximum; < 0: unused grey, NAN: white (no link) */
} cell_check;

/* The PNG's colour at SVG pixel (x, y), in [0, 1]. */
static plot_rgb pixel(cairo_surface_t *img, double x, double y)
{
  double k = cairo_image_surface_get_width(img) / 1040.0;
  int px = (int)lround(x * k), py = (int)lround(y * k);
  const unsigned char *data = cairo_image_surface_get_data(img);
  uint32_t v = *(const uint32_t *)(data + (size_t)py * cairo_image_surface_get_stride(img) + 4 * px);
  return (plot_rgb){ ((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0 };
}

static void check_figure(const platform *p, const double *value, double vmax,
                         const cell_check *cells, int n)
{
  g_autofree char *dir = tu_tmp_dir();
  GError *e = NULL;
  plot_writer *out = plot_writer_new(dir, 0);
  cr_assert(fig_links(out, "net", "title", p, value, vmax, PLOT_NUMBER, "bytes", NULL, &e),
            "%s", e ? e->message : "?");
  cr_assert(plot_writer_finish(out, &e), "%s", e ? e->message : "?");
  g_autofree char *png = g_build_filename(dir, "net.png", NULL);
  cairo_surface_t *img = cairo_image_surface_create_from_png(png);
  cr_assert_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS, "%s", png);
  for (int i = 0; i < n; i++) {
    double x, y;
    cr_assert(fig_network_cell(p, value, cells[i].panel, cells[i].row, cells[i].col, &x, &y),
              "%s: no cell %d,%d of panel %d", p->name, cells[i].row, cells[i].col,
              cells[i].panel);
    plot_rgb want = isnan(cells[i].share) ? (plot_rgb){ 1, 1, 1 }
                    : cells[i].share < 0 ? (plot_rgb){ 0.86, 0.86, 0.86 }
                                          : plot_heat(cells[i].share);
    plot_rgb got = pixel(img, x, y);
    cr_assert(fabs(got.r - want.r) < 2.5 / 255 && fabs(got.g - want.g) < 2.5 / 255 &&
              fabs(got.b - want.b) < 2.5 / 255,
              "%s panel %d cell %d,%d: rgb %.3f %.3f %.3f, expected %.3f %.3f %.3f", p->name,
              cells[i].panel, cells[i].row, cells[i].col, got.r, got.g, got.b, want.r, want.g,
              want.b);
  }
  cairo_surface_destroy(img);
}

/* The first link of class c from vertex s to vertex d (-1: any end). */
static int find_link(const topo *t, int c, int s, int d)
{
  for (int l = 0; l < t->nlinks; l++)
    if (t->link_class[l] == c && (s < 0 || t->link_src[l] == s) &&
        (d < 0 || t->link_dst[l] == d))
      return l;
  cr_assert_fail("no link of class %d from %d to %d", c, s, d);
  return -1;
}

Test(netfig, dragonfly_groups)
{
  platform *p = tu_platform("dragonfly:g=4:a=3:p=2:h=1");
  const topo *t = p->topo;
  int N = topo_compute_nodes(t), a = 3;
  double *v = g_new0(double, t->nlinks);
  for (int l = 0; l < t->nlinks; l++) {
    int gs = (t->link_src[l] - N) / a, gd = (t->link_dst[l] - N) / a;
    if (t->link_class[l] == TOPO_DF_GLOBAL && gs == 1 && gd == 2)
      v[l] = 4000; /* the one cable from group 1 to group 2: the scale's top */
    if (t->link_class[l] == TOPO_DF_GLOBAL && gs == 2 && gd == 0)
      v[l] = 1000;
  }
  /* router 1 of group 3 sends 2000 bytes to its router 2 */
  v[find_link(t, TOPO_DF_LOCAL, N + 3 * a + 1, N + 3 * a + 2)] = 2000;
  /* panels: 0 groups, 1 node links per router, 2 local links of group 3
   * (the only group with local bytes) */
  const cell_check cells[] = {
    { 0, 1, 2, 1.0 }, { 0, 2, 0, 0.25 }, { 0, 0, 1, -1 }, { 0, 3, 3, NAN },
    { 1, 0, 0, -1 }, { 2, 1, 2, 0.5 }, { 2, 2, 1, -1 }, { 2, 1, 1, NAN },
  };
  check_figure(p, v, 4000, cells, G_N_ELEMENTS(cells));
  /* the same values on a scale twice as wide (another run's maximum) */
  const cell_check shared[] = { { 0, 1, 2, 0.5 }, { 0, 2, 0, 0.125 } };
  check_figure(p, v, 8000, shared, G_N_ELEMENTS(shared));
  g_free(v);
  platform_free(p);
}

/* Fat tree by level: panel 0 the top level (down links only), then level
 * 1 switches (up, down), then the nodes. */
Test(netfig, fattree_levels)
{
  platform *p = tu_platform("fattree:k=2:n=2");
  const topo *t = p->topo;
  const topo_fattree *ft = topo_fattree_of(t);
  double *v = g_new0(double, t->nlinks);
  int top1 = ft->first[2] + 1, leaf0 = ft->first[1];
  v[find_link(t, 3, top1, -1)] = 10;  /* level2 down from top switch 1 */
  v[find_link(t, 2, leaf0, -1)] = 5;  /* level2 up from leaf 0 */
  v[find_link(t, 0, 3, -1)] = 10;     /* node 3 up */
  const cell_check cells[] = {
    { 0, 0, 1, 1.0 }, { 0, 0, 0, -1 }, { 1, 0, 0, 0.5 }, { 1, 1, 0, -1 }, { 2, 0, 3, 1.0 },
    { 2, 1, 3, -1 },
  };
  check_figure(p, v, 0, cells, G_N_ELEMENTS(cells));
  g_free(v);
  platform_free(p);
}

/* HyperX by dimension: coordinate to coordinate along y, each switch's
 * busiest y link on the grid. */
Test(netfig, hyperx_dimensions)
{
  platform *p = tu_platform("hyperx:3x3:p=1");
  const topo *t = p->topo;
  int N = topo_compute_nodes(t);
  double *v = g_new0(double, t->nlinks);
  /* switch (x 1, y 0) to (x 1, y 2): dimension y */
  v[find_link(t, 3, N + 1, N + 1 + 2 * 3)] = 7;
  const cell_check cells[] = {
    { 2, 0, 2, 1.0 }, { 2, 2, 0, -1 }, { 2, 1, 1, NAN }, { 3, 0, 1, 1.0 }, { 3, 0, 0, -1 },
    { 0, 0, 2, -1 },
  };
  check_figure(p, v, 0, cells, G_N_ELEMENTS(cells));
  g_free(v);
  platform_free(p);
}

/* A Slurm tree by level, switches in the file's walk order. */
Test(netfig, slurm_tree_levels)
{
  g_autofree char *conf = tu_data("slurm/tree.conf");
  platform *p = tu_platform(conf);
  const topo *t = p->topo;
  double *v = g_new0(double, t->nlinks);
  int spine1 = 15, leaf2 = 16;
  const topo_tree *tr = topo_tree_of(t);
  v[tr->up_link[leaf2]] = 3;      /* leaf2 up to spine1 */
  v[tr->up_link[spine1] + 1] = 6; /* top down to spine1 */
  /* panels: top (level 3), spines, leaves, nodes */
  const cell_check cells[] = { { 0, 0, 0, 1.0 }, { 1, 0, 1, -1 }, { 2, 0, 2, 0.5 },
                               { 2, 1, 2, -1 } };
  check_figure(p, v, 0, cells, G_N_ELEMENTS(cells));
  g_free(v);
  platform_free(p);
}
