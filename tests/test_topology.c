/* test_topology.c - node ids, coordinates, link enumeration and hop
 * distances of regular topologies against closed forms. */
#include <stdlib.h>

#include "routing/topology.h"
#include "testutil.h"

static topo *make(int nd, const int *shape, const topo_conn *conn)
{
  GError *e = NULL;
  topo *t = topo_new_regular(nd, shape, conn, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  return t;
}

Test(topology, ids_put_dimension_zero_fastest)
{
  int shape[3] = { 4, 5, 3 };
  topo_conn conn[3] = { TOPO_TORUS, TOPO_MESH, TOPO_TORUS };
  topo *t = make(3, shape, conn);
  cr_assert_eq(t->nnodes, 60);
  int c[3];
  topo_coords(t, 1 + 4 * (2 + 5 * 1), c); /* x=1 y=2 z=1 */
  cr_assert_eq(c[0], 1);
  cr_assert_eq(c[1], 2);
  cr_assert_eq(c[2], 1);
  for (int u = 0; u < t->nnodes; u++) {
    topo_coords(t, u, c);
    cr_assert_eq(topo_node(t, c), u);
  }
  topo_free(t);
}

Test(topology, six_dimensions_round_trip)
{
  int shape[6] = { 2, 3, 2, 3, 2, 2 };
  topo_conn conn[6] = { TOPO_TORUS, TOPO_TORUS, TOPO_MESH, TOPO_TORUS, TOPO_MESH, TOPO_TORUS };
  topo *t = make(6, shape, conn);
  cr_assert_eq(t->nnodes, 144);
  int c[6];
  for (int u = 0; u < t->nnodes; u++) {
    topo_coords(t, u, c);
    cr_assert_eq(topo_node(t, c), u);
  }
  topo_free(t);
}

Test(topology, link_counts)
{
  int s444[3] = { 4, 4, 4 };
  topo_conn torus[3] = { TOPO_TORUS, TOPO_TORUS, TOPO_TORUS };
  topo_conn mesh[3] = { TOPO_MESH, TOPO_MESH, TOPO_MESH };
  topo_conn haec[3] = { TOPO_TORUS, TOPO_TORUS, TOPO_CROSSBAR };
  topo *t = make(3, s444, torus);
  cr_assert_eq(t->nlinks, 64 * 6);
  topo_free(t);
  t = make(3, s444, mesh);
  cr_assert_eq(t->nlinks, 3 * 2 * 3 * 16); /* per dim and direction: 3 of 4 coordinates */
  topo_free(t);
  t = make(3, s444, haec);
  /* boards: 4 x (16 nodes x 4 torus links); wireless: 3 board pairs x 16 x 16 x 2 ways */
  cr_assert_eq(t->nlinks, 4 * 64 + 3 * 256 * 2);
  topo_free(t);
  int s1[2] = { 1, 5 };
  topo_conn tt[2] = { TOPO_TORUS, TOPO_TORUS };
  t = make(2, s1, tt);
  cr_assert_eq(t->nlinks, 10, "size-1 dimension has no links");
  topo_free(t);
}

Test(topology, links_join_neighbours)
{
  int shape[3] = { 4, 3, 4 };
  topo_conn conn[3] = { TOPO_TORUS, TOPO_MESH, TOPO_CROSSBAR };
  topo *t = make(3, shape, conn);
  for (int l = 0; l < t->nlinks; l++) {
    int a[3], b[3];
    topo_coords(t, t->link_src[l], a);
    topo_coords(t, t->link_dst[l], b);
    int d = t->link_dim[l];
    if (t->conn[d] == TOPO_CROSSBAR) {
      cr_assert_eq(abs(a[d] - b[d]), 1);
      cr_assert_eq(topo_crossbar_link(t, t->link_src[l], t->link_dst[l]), l);
    } else {
      for (int k = 0; k < 3; k++)
        if (k != d)
          cr_assert_eq(a[k], b[k]);
      int step = t->link_dir[l] == 0 ? 1 : -1;
      cr_assert_eq(b[d], (a[d] + step + t->shape[d]) % t->shape[d]);
      cr_assert_eq(topo_link(t, t->link_src[l], d, t->link_dir[l]), l);
    }
    cr_assert(l >= t->out_off[t->link_src[l]] && l < t->out_off[t->link_src[l] + 1]);
  }
  topo_free(t);
}

static int ring(int a, int b, int n, gboolean wrap)
{
  int d = abs(a - b);
  return wrap && n - d < d ? n - d : d;
}

Test(topology, hops_closed_forms)
{
  int shape[3] = { 5, 4, 6 };
  topo_conn kinds[3][3] = {
    { TOPO_TORUS, TOPO_TORUS, TOPO_TORUS },
    { TOPO_MESH, TOPO_MESH, TOPO_MESH },
    { TOPO_TORUS, TOPO_TORUS, TOPO_CROSSBAR },
  };
  for (int k = 0; k < 3; k++) {
    topo *t = make(3, shape, kinds[k]);
    for (int u = 0; u < t->nnodes; u++)
      for (int v = 0; v < t->nnodes; v++) {
        int a[3], b[3];
        topo_coords(t, u, a);
        topo_coords(t, v, b);
        int expect;
        if (k == 2 && a[2] != b[2])
          expect = abs(a[2] - b[2]); /* HAEC: across boards only |dz| counts */
        else
          expect = ring(a[0], b[0], 5, k != 1) + ring(a[1], b[1], 4, k != 1) +
                   ring(a[2], b[2], 6, k == 0);
        cr_assert_eq(topo_hops(t, u, v), expect, "kind %d %d->%d", k, u, v);
      }
    topo_free(t);
  }
}

Test(topology, rejects_impossible_shapes)
{
  GError *e = NULL;
  int shape[9] = { 2, 2, 2, 2, 2, 2, 2, 2, 2 };
  topo_conn conn[9] = { TOPO_TORUS };
  cr_assert_null(topo_new_regular(0, shape, conn, &e));
  cr_assert_not_null(strstr(e->message, "expected 1 to 8"));
  g_clear_error(&e);
  cr_assert_null(topo_new_regular(9, shape, conn, &e));
  g_clear_error(&e);
  int zero[2] = { 4, 0 };
  cr_assert_null(topo_new_regular(2, zero, conn, &e));
  cr_assert_not_null(strstr(e->message, "dimension y has size 0"), "%s", e->message);
  g_clear_error(&e);
  topo_conn two[2] = { TOPO_CROSSBAR, TOPO_CROSSBAR };
  int s[2] = { 2, 2 };
  cr_assert_null(topo_new_regular(2, s, two, &e));
  cr_assert_not_null(strstr(e->message, "at most one"));
  g_clear_error(&e);
  int src[1] = { 0 }, dst[1] = { 0 };
  cr_assert_null(topo_new_graph(2, 1, src, dst, &e));
  g_clear_error(&e);
}
