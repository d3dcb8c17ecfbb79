/* test_nearest.c - findNearest (bhatele2010 Section 10.1): the spiral and
 * the tree return exactly the node a brute-force scan returns (nearest by
 * route hops, ties to the lowest id) through a whole fill of the platform,
 * on tori, meshes, the HAEC Box, sparse allocations and several cores;
 * the folded grid views are bijections whose consecutive positions are
 * neighbours. */
#include <criterion/criterion.h>

#include "mapping/grid.h"
#include "mapping/nearest.h"
#include "testutil.h"

/* Nearest node with a free slot by scanning all nodes. */
static int brute_nearest(const platform *p, const int *slots, int target)
{
  int best = -1, bd = 0;
  for (int v = 0; v < p->topo->nnodes; v++) {
    if (slots[v] <= 0)
      continue;
    int d = v == target ? 0 : route_hops(p->router, target, v);
    if (best < 0 || d < bd || (d == bd && v < best))
      best = v, bd = d;
  }
  return best;
}

static void fill_and_compare(const char *spec, const char *alloc, int cores, guint32 seed)
{
  platform *p = tu_platform(spec);
  if (alloc)
    cr_assert(platform_set_allocation(p, alloc, NULL));
  if (cores)
    cr_assert(platform_set_cores(p, cores, NULL));
  nearest_free sp, tr;
  nearest_free_init(&sp, p, NEAREST_FREE_SPIRAL);
  nearest_free_init(&tr, p, NEAREST_FREE_TREE);
  cr_assert_eq(sp.kind, NEAREST_FREE_SPIRAL);
  cr_assert_eq(tr.kind, NEAREST_FREE_TREE);
  int nn = p->topo->nnodes, total = p->nalloc * p->cores_per_node;
  int *slots = g_new0(int, nn);
  for (int i = 0; i < p->nalloc; i++)
    slots[p->alloc[i]] = p->cores_per_node;
  GRand *r = g_rand_new_with_seed(seed);
  for (int k = 0; k < total; k++) {
    /* half the wanted nodes clustered near one corner, as in Table 10.1 */
    int want = k % 2 ? g_rand_int_range(r, 0, nn) : g_rand_int_range(r, 0, MAX(1, nn / 8));
    int b = brute_nearest(p, slots, want);
    int s = nearest_free_find(&sp, want), t = nearest_free_find(&tr, want);
    cr_assert_eq(s, b, "%s: spiral %d, brute %d for %d (step %d)", spec, s, b, want, k);
    cr_assert_eq(t, b, "%s: tree %d, brute %d for %d (step %d)", spec, t, b, want, k);
    nearest_free_take(&sp, b);
    nearest_free_take(&tr, b);
    slots[b]--;
  }
  cr_assert_eq(nearest_free_find(&sp, 0), -1, "full");
  cr_assert_eq(nearest_free_find(&tr, 0), -1, "full");
  g_rand_free(r);
  g_free(slots);
  nearest_free_clear(&sp);
  nearest_free_clear(&tr);
  platform_free(p);
}

Test(nearest, spiral_tree_brute_agree)
{
  fill_and_compare("torus:4x4x4", NULL, 0, 1);
  fill_and_compare("mesh:6x12", NULL, 0, 2);
  fill_and_compare("mesh:5x3x4", NULL, 0, 3);
  fill_and_compare("torus:5x6", NULL, 0, 4);
  fill_and_compare("haec:4x4x4", NULL, 0, 5);
  fill_and_compare("torus:3x4x2x2", NULL, 0, 6);
  fill_and_compare("mesh:8x8x8", "random:100:3", 0, 7);
  fill_and_compare("torus:4x4x4", "random:20:9", 3, 8);
  fill_and_compare("mesh:16", NULL, 2, 9);
}

/* The auto choice follows the thesis: spiral up to 1,024 nodes, tree above. */
Test(nearest, auto_choice)
{
  platform *p = tu_platform("torus:8x8x16");
  nearest_free n;
  nearest_free_init(&n, p, NEAREST_FREE_AUTO);
  cr_assert_eq(n.kind, NEAREST_FREE_SPIRAL);
  nearest_free_clear(&n);
  platform_free(p);
  p = tu_platform("torus:8x8x32");
  nearest_free_init(&n, p, NEAREST_FREE_AUTO);
  cr_assert_eq(n.kind, NEAREST_FREE_TREE);
  /* filling from one corner: every node once, nearest first */
  int prev = 0;
  for (int k = 0; k < p->topo->nnodes; k++) {
    int v = nearest_free_place(&n, 0);
    cr_assert_geq(v, 0);
    int d = route_hops(p->router, 0, v);
    cr_assert_geq(d, prev, "shells grow");
    prev = d;
  }
  cr_assert_eq(nearest_free_place(&n, 0), -1);
  nearest_free_clear(&n);
  platform_free(p);
}

/* Views: base <-> view is a bijection; along each axis, consecutive view
 * positions are neighbours (distance 1) in the base grid. */
static void check_view(const gview *v, int nd, const int *dims)
{
  int64_t cells = 1;
  for (int d = 0; d < nd; d++)
    cells *= dims[d];
  int64_t vcells = 1;
  for (int i = 0; i < v->naxes; i++)
    vcells *= v->ax[i].n;
  cr_assert_eq(vcells, cells);
  GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
  int c[GRID_MAX_DIMS] = { 0 };
  for (int64_t k = 0; k < cells; k++) {
    int vc[GRID_MAX_DIMS], back[GRID_MAX_DIMS] = { 0 };
    gview_to_view(v, c, vc);
    gview_to_base(v, vc, back);
    for (int d = 0; d < nd; d++)
      cr_assert_eq(back[d], c[d]);
    int64_t key = 0;
    for (int i = v->naxes - 1; i >= 0; i--)
      key = key * v->ax[i].n + vc[i];
    cr_assert_not(g_hash_table_contains(seen, GINT_TO_POINTER((int)key)));
    g_hash_table_add(seen, GINT_TO_POINTER((int)key));
    /* the next position along each axis is one step away */
    for (int i = 0; i < v->naxes; i++) {
      if (vc[i] + 1 >= v->ax[i].n)
        continue;
      int nv[GRID_MAX_DIMS], nb[GRID_MAX_DIMS] = { 0 };
      memcpy(nv, vc, sizeof nv);
      nv[i]++;
      gview_to_base(v, nv, nb);
      int dist = 0;
      for (int d = 0; d < nd; d++)
        dist += abs(nb[d] - c[d]);
      cr_assert_eq(dist, 1, "axis %d from position %d", i, vc[i]);
    }
    for (int d = 0; d < nd; d++) {
      if (++c[d] < dims[d])
        break;
      c[d] = 0;
    }
  }
  g_hash_table_destroy(seen);
}

Test(grid, folded_views)
{
  int d3[3] = { 4, 3, 5 }, d4[4] = { 2, 3, 4, 3 }, d2[2] = { 9, 8 }, d1[3] = { 1, 7, 1 };
  gview v;
  gview_plane(&v, 3, d3);
  cr_assert_eq(v.naxes, 2);
  cr_assert_eq(v.ax[0].n, 5); /* the largest dimension */
  check_view(&v, 3, d3);
  gview_plane(&v, 4, d4);
  check_view(&v, 4, d4);
  gview_plane(&v, 2, d2);
  cr_assert_eq(v.ax[0].n, 9);
  cr_assert_eq(v.ax[1].n, 8);
  check_view(&v, 2, d2);
  gview_plane(&v, 3, d1);
  cr_assert_eq(v.ax[0].n, 7);
  cr_assert_eq(v.ax[1].n, 1);
  check_view(&v, 3, d1);
  gview_native(&v, 4, d4);
  cr_assert_eq(v.naxes, 4);
  check_view(&v, 4, d4);
}
