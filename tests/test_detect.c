/* test_detect.c - grids recognized from the communication graph alone
 * (mapping/grid-detect.c): stencils of 2 to 4 dimensions, open, periodic
 * and mixed, 5-/7-/9-point, 27-point and radius-2 star stencils, sides of
 * 2 and 3 and non-cubic shapes, with their ranks renumbered at random.
 * Every recovered coordinate must be the original one under a symmetry of
 * the grid (a permutation of the dimensions, a reflection and, on periodic
 * sides, a translation of each): checked rank by rank, not only by the edge
 * structure. Graphs that are not grids must be refused. */
#include <string.h>

#include "mapping/grid.h"
#include "testutil.h"

typedef struct sten {
  int nd;
  int dims[8];
  gboolean periodic[8];
  int n;
  int *c;      /* original coordinates, n x nd (before renumbering) */
  int *label;  /* label[original rank] = rank in the graph */
} sten;

/* Offsets of a stencil: star of radius r (the 2*nd*r points on the axes),
 * optionally with all diagonals of the unit box (9-/27-point). */
static int stencil_offsets(int nd, int radius, gboolean box, int (*off)[8], int64_t *w)
{
  int k = 0;
  int total = 1;
  for (int d = 0; d < nd; d++)
    total *= 3;
  if (box) {
    for (int code = 0; code < total; code++) {
      int rem = code, nz = 0, o[8];
      for (int d = 0; d < nd; d++)
        o[d] = rem % 3 - 1, rem /= 3, nz += o[d] != 0;
      if (nz == 0)
        continue;
      memcpy(off[k], o, sizeof o);
      w[k++] = nz == 1 ? 1000 : 1000 / (4 * nz); /* faces heavier, all kept */
    }
  }
  for (int d = 0; d < nd; d++)
    for (int s = -radius; s <= radius; s++) {
      if (s == 0 || (box && (s == 1 || s == -1)))
        continue;
      memset(off[k], 0, sizeof off[k]);
      off[k][d] = s;
      w[k++] = 1000;
    }
  return k;
}

/* The stencil's graph with ranks renumbered by a seeded permutation. */
static commgraph *sten_graph(sten *s, int radius, gboolean box, guint32 seed)
{
  s->n = 1;
  for (int d = 0; d < s->nd; d++)
    s->n *= s->dims[d];
  s->c = g_new(int, (size_t)s->n * s->nd);
  for (int r = 0; r < s->n; r++)
    for (int d = 0, rem = r; d < s->nd; rem /= s->dims[d], d++)
      s->c[(size_t)r * s->nd + d] = rem % s->dims[d];
  s->label = g_new(int, s->n);
  for (int i = 0; i < s->n; i++)
    s->label[i] = i;
  GRand *rng = g_rand_new_with_seed(seed);
  for (int i = s->n - 1; i > 0; i--) {
    int j = g_rand_int_range(rng, 0, i + 1), t = s->label[i];
    s->label[i] = s->label[j];
    s->label[j] = t;
  }
  g_rand_free(rng);
  int off[256][8];
  int64_t w[256];
  int k = stencil_offsets(s->nd, radius, box, off, w);
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int)), *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *bytes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int r = 0; r < s->n; r++)
    for (int o = 0; o < k; o++) {
      int to = 0, stride = 1, ok = 1;
      for (int d = 0; d < s->nd; d++) {
        int x = s->c[(size_t)r * s->nd + d] + off[o][d];
        if (x < 0 || x >= s->dims[d]) {
          if (!s->periodic[d])
            ok = 0;
          x = ((x % s->dims[d]) + s->dims[d]) % s->dims[d];
        }
        to += x * stride;
        stride *= s->dims[d];
      }
      if (!ok || to == r)
        continue;
      int a = s->label[r], b = s->label[to];
      g_array_append_val(src, a);
      g_array_append_val(dst, b);
      g_array_append_val(bytes, w[o]);
    }
  commgraph *g = commgraph_from_edges(s->n, (int)src->len, (int *)(void *)src->data,
                                      (int *)(void *)dst->data, (int64_t *)(void *)bytes->data,
                                      NULL);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(bytes, TRUE);
  return g;
}

/* Checks that gd's coordinates are the original ones under a grid
 * symmetry, dimension by dimension. A periodic side of 4 may come back as
 * two sides of 2 (the same graph): then only the structure is checked. */
static void check_recovered(const sten *s, const gdetect *gd, const char *what)
{
  int n = s->n, nd = s->nd;
  int64_t cells = 1;
  for (int d = 0; d < gd->nd; d++)
    cells *= gd->dims[d];
  cr_assert_eq(cells, n, "%s: %d ranks, recovered box of %" G_GINT64_FORMAT, what, n, cells);
  int *at = g_new(int, n); /* recovered cell -> graph rank */
  for (int i = 0; i < n; i++)
    at[i] = -1;
  for (int v = 0; v < n; v++) {
    int64_t idx = 0;
    for (int d = gd->nd - 1; d >= 0; d--) {
      int x = gd->c[(size_t)v * gd->nd + d];
      cr_assert(x >= 0 && x < gd->dims[d], "%s: coordinate %d out of its side", what, x);
      idx = idx * gd->dims[d] + x;
    }
    cr_assert_eq(at[idx], -1, "%s: two ranks share a cell", what);
    at[idx] = v;
  }
  int *orig_of = g_new(int, n); /* graph rank -> original rank */
  for (int r = 0; r < n; r++)
    orig_of[s->label[r]] = r;
  gboolean four = FALSE;
  for (int d = 0; d < nd; d++)
    four |= s->periodic[d] && s->dims[d] == 4;
  if (!four) {
    cr_assert_eq(gd->nd, nd, "%s: %d dimensions recovered, expected %d", what, gd->nd, nd);
    int v0 = at[0];
    const int *o0 = s->c + (size_t)orig_of[v0] * nd;
    gboolean used[8] = { FALSE };
    for (int e = 0; e < gd->nd; e++) {
      /* the rank one step along recovered dimension e from the origin */
      int64_t idx = 1;
      for (int d = 0; d < e; d++)
        idx *= gd->dims[d];
      int v1 = at[idx];
      const int *o1 = s->c + (size_t)orig_of[v1] * nd;
      int dim = -1, sign = 0;
      for (int d = 0; d < nd; d++) {
        int diff = o1[d] - o0[d];
        if (diff == 0)
          continue;
        cr_assert_eq(dim, -1, "%s: a recovered step moves along two original dimensions", what);
        dim = d;
        sign = (diff == 1 || diff == -(s->dims[d] - 1)) ? 1 : -1;
      }
      cr_assert(dim >= 0 && !used[dim], "%s: recovered dimension %d matches none", what, e);
      used[dim] = TRUE;
      cr_assert_eq(gd->dims[e], s->dims[dim], "%s: side %d, expected %d", what, gd->dims[e],
                   s->dims[dim]);
      cr_assert_eq(gd->periodic[e], s->periodic[dim] && s->dims[dim] > 2,
                   "%s: periodicity of dimension %d", what, e);
      int side = s->dims[dim];
      for (int v = 0; v < n; v++) {
        int want = (sign * (s->c[(size_t)orig_of[v] * nd + dim] - o0[dim]) % side + side) % side;
        cr_assert_eq(gd->c[(size_t)v * gd->nd + e], want,
                     "%s: rank %d coordinate %d is %d, expected %d", what, v, e,
                     gd->c[(size_t)v * gd->nd + e], want);
      }
    }
  }
  /* structure in every case: each unit step of the original grid is a
   * unit step of the recovered one */
  for (int r = 0; r < n; r++)
    for (int d = 0; d < nd; d++) {
      int x = s->c[(size_t)r * nd + d] + 1;
      if (x >= s->dims[d] && (!s->periodic[d] || s->dims[d] < 3))
        continue;
      int stride = 1;
      for (int k = 0; k < d; k++)
        stride *= s->dims[k];
      int q = r + ((x % s->dims[d]) - (x - 1)) * stride;
      const int *a = gd->c + (size_t)s->label[r] * gd->nd, *b = gd->c + (size_t)s->label[q] * gd->nd;
      int moved = 0;
      for (int e = 0; e < gd->nd; e++) {
        int o = b[e] - a[e];
        if (o == 0)
          continue;
        moved++;
        gboolean unit = o == 1 || o == -1 ||
                        (gd->periodic[e] && (o == gd->dims[e] - 1 || o == 1 - gd->dims[e]));
        cr_assert(unit, "%s: a unit step became %d along dimension %d", what, o, e);
      }
      cr_assert_eq(moved, 1, "%s: a unit step moves along %d dimensions", what, moved);
    }
  g_free(at);
  g_free(orig_of);
}

static void expect_grid(int nd, const int *dims, const gboolean *periodic, int radius,
                        gboolean box, guint32 seed)
{
  sten s = { .nd = nd };
  GString *what = g_string_new(NULL);
  for (int d = 0; d < nd; d++) {
    s.dims[d] = dims[d];
    s.periodic[d] = periodic[d];
    g_string_append_printf(what, "%s%d%s", d ? "x" : "", dims[d], periodic[d] ? "p" : "");
  }
  g_string_append_printf(what, " %s r%d seed %u", box ? "box" : "star", radius, seed);
  commgraph *g = sten_graph(&s, radius, box, seed);
  gdetect gd;
  GError *e = NULL;
  cr_assert(grid_detect(g, NULL, &gd, &e), "%s: not detected (%s)", what->str,
            e ? e->message : "no error");
  check_recovered(&s, &gd, what->str);
  gdetect_clear(&gd);
  commgraph_free(g);
  g_free(s.c);
  g_free(s.label);
  g_string_free(what, TRUE);
}

static void grid_all(int nd, const int *dims, gboolean periodic, guint32 seed)
{
  gboolean per[8];
  for (int d = 0; d < nd; d++)
    per[d] = periodic;
  expect_grid(nd, dims, per, 1, FALSE, seed);
}

Test(detect, stencils_2d)
{
  static const int shapes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 3 }, { 2, 9 }, { 3, 7 }, { 5, 7 },
                                   { 16, 16 }, { 64, 8 }, { 6, 4 } };
  for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
    for (int per = 0; per < 2; per++)
      grid_all(2, shapes[i], per, 11 + (guint32)i);
}

Test(detect, stencils_3d)
{
  static const int shapes[][3] = { { 2, 2, 2 }, { 2, 3, 4 }, { 3, 3, 3 }, { 3, 2, 5 },
                                   { 4, 5, 6 }, { 8, 8, 8 }, { 16, 8, 3 }, { 7, 6, 5 } };
  for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
    for (int per = 0; per < 2; per++)
      grid_all(3, shapes[i], per, 21 + (guint32)i);
}

Test(detect, stencils_4d)
{
  static const int shapes[][4] = { { 2, 2, 2, 2 }, { 3, 3, 3, 3 }, { 2, 3, 4, 5 },
                                   { 3, 5, 3, 6 }, { 5, 5, 5, 5 }, { 8, 4, 2, 3 } };
  for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
    for (int per = 0; per < 2; per++)
      grid_all(4, shapes[i], per, 31 + (guint32)i);
}

Test(detect, mixed_open_and_periodic)
{
  expect_grid(3, (int[]){ 5, 6, 7 }, (gboolean[]){ TRUE, FALSE, TRUE }, 1, FALSE, 3);
  expect_grid(2, (int[]){ 3, 9 }, (gboolean[]){ FALSE, TRUE }, 1, FALSE, 4);
  expect_grid(4, (int[]){ 3, 2, 6, 5 }, (gboolean[]){ TRUE, TRUE, FALSE, TRUE }, 1, FALSE, 5);
}

Test(detect, box_stencils_9_and_27_point)
{
  for (int per = 0; per < 2; per++) {
    gboolean p[3] = { per, per, per };
    expect_grid(2, (int[]){ 5, 6 }, p, 1, TRUE, 7);
    expect_grid(2, (int[]){ 3, 4 }, (gboolean[]){ FALSE, FALSE }, 1, TRUE, 8);
    expect_grid(2, (int[]){ 12, 9 }, p, 1, TRUE, 9);
    expect_grid(3, (int[]){ 4, 5, 6 }, p, 1, TRUE, 10);
    expect_grid(3, (int[]){ 5, 5, 7 }, p, 1, TRUE, 12);
  }
}

Test(detect, wider_star_stencils)
{
  for (int per = 0; per < 2; per++) {
    gboolean p[3] = { per, per, per };
    expect_grid(2, (int[]){ 7, 8 }, p, 2, FALSE, 13);
    /* periodic sides shorter than 3r + 2 close extra squares round the ring */
    expect_grid(3, (int[]){ 8, 8, 9 }, p, 2, FALSE, 14);
    expect_grid(2, (int[]){ 11, 12 }, p, 3, FALSE, 15);
  }
}

Test(detect, large_renumbered)
{
  grid_all(3, (int[]){ 32, 32, 32 }, TRUE, 99);
  grid_all(2, (int[]){ 128, 96 }, FALSE, 98);
}

static gboolean detects(commgraph *g)
{
  gdetect gd;
  gboolean ok = grid_detect(g, NULL, &gd, NULL);
  gdetect_clear(&gd);
  commgraph_free(g);
  return ok;
}

Test(detect, refuses_non_grids)
{
  /* a random graph */
  GRand *rng = g_rand_new_with_seed(5);
  int n = 200, m = 800;
  int *s = g_new(int, m), *t = g_new(int, m);
  int64_t *b = g_new(int64_t, m);
  for (int i = 0; i < m; i++)
    s[i] = i / 4, t[i] = g_rand_int_range(rng, 0, n), b[i] = 100;
  cr_assert_not(detects(commgraph_from_edges(n, m, s, t, b, NULL)));
  /* a 3D stencil plus one long edge of the same weight */
  commgraph *st = commgraph_stencil(3, (int[]){ 6, 6, 6 }, TRUE, NULL);
  int k = st->nedges;
  s = g_renew(int, s, k + 2), t = g_renew(int, t, k + 2);
  b = g_renew(int64_t, b, k + 2);
  for (int i = 0; i < st->n; i++)
    for (int e = st->xadj[i]; e < st->xadj[i + 1]; e++)
      s[e] = i, t[e] = st->adj[e], b[e] = st->bytes[e];
  s[k] = 0, t[k] = 111, b[k] = 1000;
  s[k + 1] = 111, t[k + 1] = 0, b[k + 1] = 1000;
  cr_assert_not(detects(commgraph_from_edges(st->n, k + 2, s, t, b, NULL)));
  /* the same edge with a small weight is dropped as noise */
  b[k] = b[k + 1] = 10;
  cr_assert(detects(commgraph_from_edges(st->n, k + 2, s, t, b, NULL)));
  /* a stencil with one edge (both directions) missing */
  int kept = 0;
  for (int e = 0; e < k; e++)
    if (!((s[e] == 0 && t[e] == 1) || (s[e] == 1 && t[e] == 0)))
      s[kept] = s[e], t[kept] = t[e], b[kept++] = b[e];
  cr_assert_eq(kept, k - 2);
  cr_assert_not(detects(commgraph_from_edges(st->n, kept, s, t, b, NULL)));
  commgraph_free(st);
  g_free(s);
  g_free(t);
  g_free(b);
  g_rand_free(rng);
}
