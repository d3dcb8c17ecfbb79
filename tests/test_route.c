/* test_route.c - dimension-order, HAEC Box and table routes: every route is
 * a connected walk of the right length, dimensions in order, the documented
 * tie rule, and the HAEC first-hop rule. */
#include <string.h>

#include "routing/route.h"
#include "testutil.h"

/* Walks src -> dst, checking connectivity; returns the hop count and fills
 * dims[] with the dimension of each hop. */
static int walk(const platform *p, int src, int dst, int *dims, int *links)
{
  route_iter it;
  int l, h = 0, cur = src;
  route_begin(&it, p->router, src, dst, 0);
  while (route_next(&it, &l)) {
    cr_assert_eq(p->topo->link_src[l], cur, "route %d->%d broken at hop %d", src, dst, h);
    cur = p->topo->link_dst[l];
    if (dims)
      dims[h] = p->topo->link_dim[l];
    if (links)
      links[h] = l;
    h++;
    cr_assert(h <= p->topo->nnodes, "route %d->%d loops", src, dst);
  }
  cr_assert_eq(cur, dst, "route %d->%d ends at %d", src, dst, cur);
  return h;
}

static void check_all_pairs(const char *spec)
{
  platform *p = tu_platform(spec);
  int dims[64];
  for (int a = 0; a < p->topo->nnodes; a++)
    for (int b = 0; b < p->topo->nnodes; b++) {
      int h = walk(p, a, b, dims, NULL);
      cr_assert_eq(h, topo_hops(p->topo, a, b), "%s %d->%d", spec, a, b);
      cr_assert_eq(h, route_hops(p->router, a, b));
      /* dimension order x, y, z ...; the crossbar only ever comes first */
      for (int i = 1; i < h; i++)
        if (p->topo->conn[dims[i]] != TOPO_CROSSBAR)
          cr_assert(dims[i] >= dims[i - 1], "%s %d->%d dims out of order", spec, a, b);
    }
  platform_free(p);
}

Test(route, dor_lengths_equal_closed_forms_torus) { check_all_pairs("torus:4x4x4"); }
Test(route, dor_lengths_equal_closed_forms_mesh) { check_all_pairs("mesh:4x3x5"); }
Test(route, dor_lengths_equal_closed_forms_odd_torus) { check_all_pairs("torus:5x6"); }
Test(route, dor_lengths_equal_closed_forms_haec) { check_all_pairs("haec:4x4x4"); }
Test(route, dor_lengths_equal_closed_forms_6d) { check_all_pairs("torus:2x3x2x3x2x2"); }

Test(route, even_ring_tie_goes_plus)
{
  platform *p = tu_platform("torus:4");
  int links[4];
  cr_assert_eq(walk(p, 0, 2, NULL, links), 2);
  cr_assert_eq(p->topo->link_dst[links[0]], 1, "0 -> 2 on a ring of 4 goes through 1");
  cr_assert_eq(walk(p, 3, 1, NULL, links), 2);
  cr_assert_eq(p->topo->link_dst[links[0]], 0, "3 -> 1 goes through 0 (+ wraps)");
  cr_assert_eq(walk(p, 0, 3, NULL, links), 1, "the shorter way: 0 -> 3 directly");
  platform_free(p);
}

/* SimGrid's TorusZone::get_local_route decides each dimension's direction
 * from the source coordinate m and the target t on a ring of n, as its
 * source reads: + when (t > m && t <= m + n/2) || (m > n/2 && (m + n/2) %
 * n >= t), - otherwise. Every hop of every route must go that way. */
static gboolean simgrid_goes_plus(int m, int t, int n)
{
  return (t > m && t <= m + n / 2) || (m > n / 2 && (m + n / 2) % n >= t);
}

static void check_simgrid_ties(const char *spec)
{
  GError *e = NULL;
  const char *sets[] = { "routing.tie=simgrid", NULL };
  platform *p = platform_load_with(spec, sets, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  const topo *t = p->topo;
  int links[64], ca[TOPO_MAX_DIMS], cb[TOPO_MAX_DIMS];
  for (int a = 0; a < t->nnodes; a++)
    for (int b = 0; b < t->nnodes; b++) {
      int h = walk(p, a, b, NULL, links);
      cr_assert_eq(h, topo_hops(t, a, b), "%s %d->%d: the shorter way", spec, a, b);
      topo_coords(t, a, ca);
      topo_coords(t, b, cb);
      for (int i = 0; i < h; i++) {
        int d = t->link_dim[links[i]];
        gboolean plus = simgrid_goes_plus(ca[d], cb[d], t->shape[d]);
        cr_assert_eq(t->link_dir[links[i]], plus ? 0 : 1, "%s %d->%d hop %d along %c", spec, a,
                     b, i, topo_dim_letter(d));
      }
    }
  platform_free(p);
}

Test(route, simgrid_tie_rule_equals_torus_zone)
{
  check_simgrid_ties("torus:4x4x4");
  check_simgrid_ties("torus:6x5x2");
  check_simgrid_ties("torus:8");
}

/* The two rules differ only from coordinate n/2 to 0 on an even ring. */
Test(route, tie_rules_differ_from_half_to_zero)
{
  const char *sets[] = { "routing.tie=simgrid", NULL };
  platform *pos = tu_platform("torus:6"), *sg = platform_load_with("torus:6", sets, NULL);
  cr_assert_not_null(sg);
  cr_assert_eq(pos->router->tie, ROUTE_TIE_POSITIVE);
  cr_assert_eq(sg->router->tie, ROUTE_TIE_SIMGRID);
  int lp[6], ls[6], differ = 0;
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 6; b++) {
      int h = walk(pos, a, b, NULL, lp);
      cr_assert_eq(walk(sg, a, b, NULL, ls), h);
      if (h && lp[0] != ls[0]) {
        cr_assert(a == 3 && b == 0, "%d -> %d differs", a, b);
        cr_assert_eq(pos->topo->link_dst[lp[0]], 4);
        cr_assert_eq(sg->topo->link_dst[ls[0]], 2);
        differ++;
      }
    }
  cr_assert_eq(differ, 1);
  platform_free(pos);
  platform_free(sg);
}

Test(route, configurable_dimension_order)
{
  platform *p = tu_platform("torus:4x4x4");
  int ord[3];
  GError *e = NULL;
  cr_assert(router_parse_order(p->topo, "zyx", ord, &e));
  router *r = router_new(p->topo, ord, &e);
  route_iter it;
  int l, dims[8], h = 0;
  route_begin(&it, r, 0, 1 + 4 + 16, 0);
  while (route_next(&it, &l))
    dims[h++] = p->topo->link_dim[l];
  cr_assert_eq(h, 3);
  cr_assert_eq(dims[0], 2);
  cr_assert_eq(dims[1], 1);
  cr_assert_eq(dims[2], 0);
  router_free(r);
  cr_assert(router_parse_order(p->topo, "2,0,1", ord, &e));
  cr_assert_eq(ord[0], 2);
  cr_assert_not(router_parse_order(p->topo, "xx", ord, &e));
  cr_assert_not_null(strstr(e->message, "permutation"));
  g_clear_error(&e);
  cr_assert_not(router_parse_order(p->topo, "xyzw", ord, &e));
  g_clear_error(&e);
  platform_free(p);
}

Test(route, haec_first_hop_takes_destination_xy)
{
  platform *p = tu_platform("haec:4x4x4");
  int links[8];
  /* (1,2,0) -> (3,0,2): first to (3,0,1), then (3,0,2) */
  int src = 1 + 4 * 2, dst = 3 + 0 + 16 * 2;
  cr_assert_eq(walk(p, src, dst, NULL, links), 2);
  cr_assert_eq(p->topo->link_dst[links[0]], 3 + 16);
  cr_assert_eq(p->linktypes[p->link_type[links[0]]].bandwidth, 12.5e9);
  /* same board: XY on the optical torus */
  cr_assert_eq(walk(p, 0, 2 + 4 * 3, NULL, links), 3);
  cr_assert_eq(p->linktypes[p->link_type[links[0]]].bandwidth, 31.25e9);
  platform_free(p);
}

Test(route, table_routes_on_a_graph)
{
  /* a bidirectional ring of 6 with a chord 0 <-> 3 */
  char *links = tu_write_tmp("ring.links", "0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n0 3\n");
  char *dir = g_path_get_dirname(links);
  char *routes = g_build_filename(dir, "ring.routes", NULL);
  g_free(dir);
  cr_assert(g_file_set_contents(routes, "# detour\n0 1 2 3\n", -1, NULL));
  char *ini = g_strdup_printf("[topology]\ngraph = %s\nbidirectional = true\n"
                              "[linktype.l]\nbandwidth = 1e9\nlatency = 1e-6\n"
                              "[routing]\ntable = %s\n", links, routes);
  char *ini_path = tu_write_tmp("g.ini", ini);
  platform *p = tu_platform(ini_path);
  cr_assert_eq(p->topo->nnodes, 6);
  cr_assert_eq(p->topo->nlinks, 14);
  cr_assert_eq(walk(p, 0, 3, NULL, NULL), 3, "explicit path 0 1 2 3");
  cr_assert_eq(walk(p, 3, 0, NULL, NULL), 1, "default: shortest path over the chord");
  cr_assert_eq(walk(p, 1, 4, NULL, NULL), 3);
  cr_assert_eq(route_hops(p->router, 0, 3), 3);
  cr_assert_eq(route_hops(p->router, 2, 5), 3);
  GError *e = NULL;
  char *bad = tu_write_tmp("bad.routes", "0 2 3\n");
  cr_assert_not(router_load_table(p->router, bad, &e));
  cr_assert_not_null(strstr(e->message, ":1: no link 0 -> 2"), "%s", e->message);
  g_clear_error(&e);
  /* link-id syntax: 5 -> 3 over links 5->0 and the chord 0->3 */
  int l50 = -1, l03 = -1;
  for (int l = 0; l < p->topo->nlinks; l++) {
    if (p->topo->link_src[l] == 5 && p->topo->link_dst[l] == 0)
      l50 = l;
    if (p->topo->link_src[l] == 0 && p->topo->link_dst[l] == 3)
      l03 = l;
  }
  char *text = g_strdup_printf("5 3 : %d %d\n", l50, l03);
  char *byid = tu_write_tmp("id.routes", text);
  cr_assert(router_load_table(p->router, byid, &e), "%s", e ? e->message : "");
  int taken[4];
  cr_assert_eq(walk(p, 5, 3, NULL, taken), 2);
  cr_assert_eq(taken[0], l50);
  cr_assert_eq(taken[1], l03);
  char *broken = tu_write_tmp("broken.routes", "# ok line first\n0 1 2\n5 3 : 0\n");
  cr_assert_not(router_load_table(p->router, broken, &e));
  cr_assert_not_null(strstr(e->message, ":3: '0' is not a link leaving node 5"), "%s",
                     e->message);
  g_clear_error(&e);
  /* a route may pass a node twice (0 1 2 1 0 5: five different links) but
   * not take a link twice; the route fuzzer's 73-hop walk 0 1 2 1 0 1 ...
   * was longer than any route without a loop */
  char *twice = tu_write_tmp("twice.routes", "0 1 2 1 0 5\n2 1 0 1 0\n");
  cr_assert_not(router_load_table(p->router, twice, &e));
  cr_assert_not_null(strstr(e->message, "twice.routes:2: link 1 (1 -> 0) taken twice, expected a "
                                        "route that takes each link at most once"),
                     "%s", e->message);
  g_clear_error(&e);
  cr_assert(g_file_set_contents(twice, "0 1 2 1 0 5\n", -1, NULL));
  cr_assert(router_load_table(p->router, twice, &e), "%s", e ? e->message : "");
  cr_assert_eq(walk(p, 0, 5, NULL, NULL), 5);
  cr_assert_eq(route_hops(p->router, 0, 5), 5);
  g_free(twice);
  g_free(text);
  g_free(byid);
  g_free(broken);
  platform_free(p);
  g_free(links);
  g_free(routes);
  g_free(ini);
  g_free(ini_path);
  g_free(bad);
}
