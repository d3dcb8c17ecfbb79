/* test_networks.c - dragonfly, fat tree and HyperX: node, switch and link
 * counts and diameters by closed form, every route a connected walk from
 * node to node, minimal routes of the expected length per link class,
 * distances against breadth-first search, the facts against all pairs,
 * cabling arrangements, keyed routings, switches never holding ranks. */
#include <math.h>

#include "routing/facts.h"
#include "routing/route.h"
#include "testutil.h"

/* Walks src -> dst with `key` and path choice, checking that consecutive
 * links chain, that the walk ends at dst and touches switches only in
 * between; counts hops per link class into per_class (may be NULL). */
static int walk(const platform *p, int src, int dst, uint64_t key, route_path path,
                int *per_class)
{
  const topo *t = p->topo;
  route_iter it;
  int l, h = 0, cur = src;
  route_begin_path(&it, p->router, src, dst, key, path);
  while (route_next(&it, &l)) {
    cr_assert(l >= 0 && l < t->nlinks, "link id %d", l);
    cr_assert_eq(t->link_src[l], cur, "%s: route %d->%d broken at hop %d", p->name, src, dst, h);
    cur = t->link_dst[l];
    if (cur != dst)
      cr_assert(topo_is_switch(t, cur), "%s: route %d->%d passes node %d", p->name, src, dst, cur);
    if (per_class)
      per_class[t->link_class[l]]++;
    h++;
    cr_assert(h <= ROUTE_FAMILY_MAX_HOPS, "route %d->%d loops", src, dst);
  }
  cr_assert_eq(cur, dst, "%s: route %d->%d ends at %d", p->name, src, dst, cur);
  return h;
}

/* Breadth-first distances from vertex s over the links. */
static void bfs(const topo *t, int s, int *dist)
{
  int *queue = g_new(int, t->nnodes), head = 0, tail = 0;
  for (int v = 0; v < t->nnodes; v++)
    dist[v] = -1;
  dist[s] = 0;
  queue[tail++] = s;
  while (head < tail) {
    int u = queue[head++];
    for (int i = t->out_off[u]; i < t->out_off[u + 1]; i++) {
      int v = t->link_dst[t->out_link[i]];
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue[tail++] = v;
      }
    }
  }
  g_free(queue);
}

static platform *load_with(const char *spec, const char *routing)
{
  g_autofree char *set = routing ? g_strdup_printf("routing.algorithm=%s", routing) : NULL;
  const char *sets[] = { set, NULL };
  GError *e = NULL;
  platform *p = platform_load_with(spec, routing ? sets : NULL, &e);
  cr_assert_not_null(p, "%s %s: %s", spec, routing ? routing : "", e ? e->message : "?");
  return p;
}

/* Every link's reverse is a link back along the same cable. */
static void check_reverse(const topo *t)
{
  for (int l = 0; l < t->nlinks; l++) {
    int r = topo_reverse_link(t, l);
    cr_assert(r >= 0 && r != l, "link %d has no reverse", l);
    cr_assert_eq(t->link_src[r], t->link_dst[l]);
    cr_assert_eq(t->link_dst[r], t->link_src[l]);
    cr_assert_eq(topo_reverse_link(t, r), l, "reverse of the reverse of %d", l);
  }
}

/* The facts against all pairs of compute nodes; every route checked. */
static void check_all_routes(platform *p, gboolean minimal)
{
  const topo *t = p->topo;
  int n = topo_compute_nodes(t), diam = 0;
  double sum = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      int h = walk(p, a, b, route_key(a, b), ROUTE_PATH_DEFAULT, NULL);
      if (a == b) {
        cr_assert_eq(h, 0);
        continue;
      }
      if (minimal)
        cr_assert_eq(h, route_hops(p->router, a, b), "%s %d->%d", p->name, a, b);
      sum += route_hops(p->router, a, b);
      diam = MAX(diam, route_hops(p->router, a, b));
    }
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, diam, "%s diameter %d, all pairs %d", p->name, f.diameter, diam);
  cr_assert_float_eq(f.avg_distance, sum / ((double)n * (n - 1)), 1e-9, "%s average", p->name);
  check_reverse(t);
}

/* ---- counts and diameters by closed form ---- */

Test(networks, dragonfly_counts_and_diameter)
{
  /* g a p h m diameter: nodes g a p, routers g a, links 2 N + g a (a - 1) +
   * g (g - 1) m; the diameter 5 when some router pair of two groups holds
   * no cable end (a local hop on both sides), 4 when every router holds
   * one (g = 2, a = 3, m = 3), 3 inside one group */
  static const int cases[][6] = {
    { 9, 4, 2, 2, 1, 5 }, { 5, 4, 3, 2, 2, 5 }, { 3, 4, 2, 1, 2, 5 }, { 2, 3, 1, 1, 3, 4 },
    { 1, 4, 2, 0, 0, 3 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    int g = cases[i][0], a = cases[i][1], pp = cases[i][2], h = cases[i][3], m = cases[i][4];
    g_autofree char *spec = g_strdup_printf("dragonfly:g=%d:a=%d:p=%d:h=%d", g, a, pp, h);
    platform *p = tu_platform(spec);
    int N = g * a * pp;
    cr_assert_eq(topo_compute_nodes(p->topo), N, "%s", spec);
    cr_assert_eq(p->topo->nswitches, g * a, "%s", spec);
    cr_assert_eq(topo_dragonfly_of(p->topo)->parallel, m, "%s", spec);
    cr_assert_eq(p->topo->nlinks, 2 * N + g * a * (a - 1) + g * (g - 1) * m, "%s", spec);
    cr_assert_eq(p->nalloc, N, "%s: switches are not allocated", spec);
    platform_facts f;
    platform_get_facts(p, &f);
    cr_assert_eq(f.diameter, cases[i][5], "%s", spec);
    cr_assert_eq(f.nodes, N);
    cr_assert_eq(f.switches, g * a);
    platform_free(p);
  }
}

Test(networks, fattree_counts_and_diameter)
{
  /* k-ary n-tree: k^n nodes, n k^(n-1) switches, 2 n k^n links, diameter 2n */
  static const int cases[][2] = { { 2, 3 }, { 4, 2 }, { 4, 3 }, { 3, 3 } };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    int k = cases[i][0], n = cases[i][1];
    g_autofree char *spec = g_strdup_printf("fattree:k=%d:n=%d", k, n);
    platform *p = tu_platform(spec);
    int kn = (int)pow(k, n), kn1 = (int)pow(k, n - 1);
    cr_assert_eq(topo_compute_nodes(p->topo), kn, "%s", spec);
    cr_assert_eq(p->topo->nswitches, n * kn1, "%s", spec);
    cr_assert_eq(p->topo->nlinks, 2 * n * kn, "%s", spec);
    platform_facts f;
    platform_get_facts(p, &f);
    cr_assert_eq(f.diameter, 2 * n, "%s", spec);
    /* full bisection: N/2 cables each way (even k: the cut halves the nodes) */
    if (k % 2 == 0)
      cr_assert_eq(f.bisection_links, kn, "%s", spec);
    platform_free(p);
  }
  /* a 2:1 tapered two-level tree: 4 nodes and 2 uplinks per leaf, 6 leaves */
  platform *p = tu_platform("fattree:2;4,6;1,2;1,1");
  cr_assert_eq(topo_compute_nodes(p->topo), 24);
  cr_assert_eq(p->topo->nswitches, 6 + 2);
  cr_assert_eq(p->topo->nlinks, 2 * (24 + 6 * 2));
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.bisection_links, 2 * 3 * 2, "3 leaves x 2 uplinks cross, both ways");
  platform_free(p);
  /* parallel cables double the links above the leaves */
  p = tu_platform("fattree:2;4,4;1,4;1,2");
  cr_assert_eq(p->topo->nlinks, 2 * (16 + 4 * 4 * 2));
  platform_free(p);
}

Test(networks, hyperx_counts_and_diameter)
{
  platform *p = tu_platform("hyperx:12x8:p=4");
  cr_assert_eq(topo_compute_nodes(p->topo), 384);
  cr_assert_eq(p->topo->nswitches, 96);
  cr_assert_eq(p->topo->nlinks, 2 * 384 + 96 * (11 + 7));
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 4);
  /* the cheaper half cut is across y: 4 x 4 pairs x 12 lines, both ways */
  cr_assert_eq(f.bisection_links, 2 * 4 * 4 * 12);
  platform_free(p);
  p = tu_platform("hyperx:3x3x2:p=1");
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 5);
  platform_free(p);
}

/* ---- routes ---- */

Test(networks, dragonfly_routes_every_arrangement)
{
  static const char *const arr[] = { "absolute", "relative", "circulant" };
  for (size_t i = 0; i < G_N_ELEMENTS(arr); i++) {
    g_autofree char *spec = g_strdup_printf("dragonfly:g=5:a=4:p=2:h=2:arrangement=%s", arr[i]);
    platform *p = load_with(spec, NULL);
    check_all_routes(p, TRUE);
    platform_free(p);
    p = load_with(spec, "valiant");
    check_all_routes(p, FALSE);
    platform_free(p);
  }
  platform *p = load_with("dragonfly:g=4:a=4:p=1:h=1:arrangement=simgrid", NULL);
  check_all_routes(p, TRUE);
  platform_free(p);
}

Test(networks, dragonfly_arrangements_cable_every_pair)
{
  static const char *const arr[] = { "absolute", "relative", "circulant", "simgrid" };
  for (size_t i = 0; i < G_N_ELEMENTS(arr); i++) {
    int g = i == 3 ? 5 : 7, a = i == 3 ? 5 : 6, h = i == 3 ? 1 : 3;
    g_autofree char *spec = g_strdup_printf("dragonfly:g=%d:a=%d:p=1:h=%d:arrangement=%s", g, a,
                                            h, arr[i]);
    platform *p = tu_platform(spec);
    const topo *t = p->topo;
    int m = topo_dragonfly_of(t)->parallel, N = topo_compute_nodes(t);
    cr_assert_eq(m, i == 3 ? 1 : a * h / (g - 1), "%s", spec);
    int *pair = g_new0(int, g * g), *ports = g_new0(int, g * a);
    for (int l = topo_dragonfly_of(t)->global_base; l < t->nlinks; l++) {
      int u = t->link_src[l] - N, v = t->link_dst[l] - N;
      cr_assert_neq(u / a, v / a, "%s: a global link inside group %d", spec, u / a);
      pair[u / a * g + v / a]++;
      ports[u]++;
    }
    for (int x = 0; x < g; x++)
      for (int y = 0; y < g; y++)
        cr_assert_eq(pair[x * g + y], x == y ? 0 : m, "%s: %d cables %d -> %d", spec,
                     pair[x * g + y], x, y);
    for (int r = 0; r < g * a; r++)
      cr_assert(ports[r] <= h, "%s: router %d has %d global links, %d ports", spec, r, ports[r], h);
    if (i == 3) /* SimGrid: router y of group x leads to group y */
      for (int l = topo_dragonfly_of(t)->global_base; l < t->nlinks; l++)
        cr_assert_eq((t->link_src[l] - N) % a, (t->link_dst[l] - N) / a);
    g_free(pair);
    g_free(ports);
    platform_free(p);
  }
}

/* Relative arrangement, hand-checked: in dragonfly g=4 a=3 h=1, group x's
 * port k (router k) leads to group x + k + 1. */
Test(networks, dragonfly_relative_by_hand)
{
  platform *p = tu_platform("dragonfly:g=4:a=3:p=1:h=1:arrangement=relative");
  const topo *t = p->topo;
  int N = 12;
  for (int l = topo_dragonfly_of(t)->global_base; l < t->nlinks; l++) {
    int u = t->link_src[l] - N, v = t->link_dst[l] - N;
    cr_assert_eq(v / 3, (u / 3 + u % 3 + 1) % 4, "router %d leads to group %d", u, v / 3);
  }
  platform_free(p);
}

/* Hop counts per class of minimal and Valiant routes. */
Test(networks, dragonfly_hops_by_class)
{
  platform *p = load_with("dragonfly:g=6:a=4:p=2:h=2", NULL);
  platform *v = load_with("dragonfly:g=6:a=4:p=2:h=2", "valiant");
  int n = topo_compute_nodes(p->topo), pp = 2, a = 4;
  for (int s = 0; s < n; s++)
    for (int d = 0; d < n; d++) {
      if (s == d)
        continue;
      int c[4] = { 0 }, cv[4] = { 0 };
      int h = walk(p, s, d, route_key(s, d), ROUTE_PATH_DEFAULT, c);
      int hv = walk(v, s, d, route_key(s, d), ROUTE_PATH_DEFAULT, cv);
      cr_assert_eq(c[0], 1);
      cr_assert_eq(c[1], 1);
      gboolean same_router = s / pp == d / pp, same_group = s / pp / a == d / pp / a;
      cr_assert_eq(c[3], same_group ? 0 : 1, "%d->%d global hops", s, d);
      cr_assert(c[2] <= (same_group ? 1 : 2));
      cr_assert_eq(c[2], same_router ? 0 : same_group ? 1 : c[2]);
      cr_assert_eq(cv[3], same_group ? 0 : 2, "valiant %d->%d global hops", s, d);
      cr_assert(cv[2] <= 3);
      cr_assert_eq(hv, 2 + cv[2] + cv[3]);
      cr_assert_eq(h, 2 + c[2] + c[3]);
    }
  platform_free(p);
  platform_free(v);
}

/* Valiant's intermediate group is uniform over the other groups and
 * changes with the seed; the same key takes the same path. */
Test(networks, valiant_draws_groups_from_key_and_seed)
{
  platform *p = load_with("dragonfly:g=6:a=5:p=1:h=1", "valiant");
  const topo *t = p->topo;
  int N = topo_compute_nodes(t), counts[6] = { 0 }, a = 5;
  int s = 0, d = N - 1; /* groups 0 and 5 */
  int seen_first = -1, changed = 0;
  for (int k = 0; k < 4000; k++) {
    route_iter it;
    int l, mid = -1, first = -1;
    route_begin(&it, p->router, s, d, route_key(k, k + 1));
    while (route_next(&it, &l))
      if (t->link_class[l] == 3 && mid < 0)
        mid = (t->link_dst[l] - N) / a, first = l;
    cr_assert(mid != 0 && mid != 5);
    counts[mid]++;
    route_begin(&it, p->router, s, d, route_key(k, k + 1));
    int again = -1;
    while (route_next(&it, &l))
      if (t->link_class[l] == 3 && again < 0)
        again = l;
    cr_assert_eq(again, first, "the same key takes the same path");
    if (k == 0)
      seen_first = mid;
  }
  for (int g = 1; g < 5; g++)
    cr_assert(counts[g] > 850 && counts[g] < 1150, "group %d drawn %d of 4000 times", g, counts[g]);
  for (uint32_t seed = 2; seed < 12; seed++) {
    p->router->seed = seed;
    route_iter it;
    int l, mid = -1;
    route_begin(&it, p->router, s, d, route_key(0, 1));
    while (route_next(&it, &l))
      if (t->link_class[l] == 3 && mid < 0)
        mid = (t->link_dst[l] - N) / a;
    changed += mid != seen_first;
  }
  cr_assert(changed > 0, "the seed changes the draw");
  platform_free(p);
}

Test(networks, fattree_routes_every_routing)
{
  static const char *const specs[] = { "fattree:k=4:n=3", "fattree:2;4,6;1,2;1,1",
                                       "fattree:2;4,4;2,4;1,2", "fattree:3;2,3,2;1,2,3;2,1,1" };
  static const char *const algos[] = { "dmodk", "smodk", "random-up", "ecmp" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++)
    for (size_t j = 0; j < G_N_ELEMENTS(algos); j++) {
      platform *p = load_with(specs[i], algos[j]);
      const topo *t = p->topo;
      check_all_routes(p, TRUE);
      int n = topo_compute_nodes(t), *dist = g_new(int, t->nnodes);
      for (int s = 0; s < n; s++) {
        bfs(t, s, dist);
        for (int d = 0; d < n; d++) {
          int c[2 * TOPO_MAX_LEVELS] = { 0 };
          int h = walk(p, s, d, route_key(s, d), ROUTE_PATH_DEFAULT, c);
          cr_assert_eq(h, dist[d], "%s %s %d->%d: %d hops, shortest %d", specs[i], algos[j], s,
                       d, h, dist[d]);
          /* as many up as down hops per level, the lower levels all used */
          for (int l = 0; l < topo_fattree_of(t)->levels; l++) {
            cr_assert_eq(c[2 * l], c[2 * l + 1]);
            cr_assert_eq(c[2 * l], 2 * l < h ? 1 : 0, "%s %d->%d level %d", specs[i], s, d, l);
          }
        }
      }
      g_free(dist);
      platform_free(p);
    }
}

/* SimGrid's d-mod-k on a 4-ary 3-tree: node-0 -> node-63 crosses 6 links;
 * at level l the up port is (63 / 4^(l-1)) mod 4 for l >= 1 (and the only
 * one at the node). */
Test(networks, dmodk_up_ports_by_hand)
{
  platform *p = tu_platform("fattree:k=4:n=3");
  const topo *t = p->topo;
  route_iter it;
  int l, h = 0, ups[3];
  route_begin(&it, p->router, 0, 63, 0);
  while (route_next(&it, &l)) {
    if (h < 3)
      ups[h] = l;
    h++;
  }
  cr_assert_eq(h, 6);
  const topo_fattree *ft = topo_fattree_of(t);
  cr_assert_eq(ups[0], ft->up_base[0] + 0);
  /* leaf switch 0 (position 0), port 63 mod 4 = 3 */
  cr_assert_eq(ups[1], ft->up_base[1] + 0 * 4 + 3);
  /* then the level-2 switch with label (3, 0, 0), position 3: port (63 / 4) mod 4 = 3 */
  cr_assert_eq(ups[2], ft->up_base[2] + 3 * 4 + 3);
  platform_free(p);
}

Test(networks, hyperx_routes)
{
  platform *p = tu_platform("hyperx:4x3x2:p=2");
  const topo *t = p->topo;
  check_all_routes(p, TRUE);
  int n = topo_compute_nodes(t), *dist = g_new(int, t->nnodes);
  for (int s = 0; s < n; s++) {
    bfs(t, s, dist);
    for (int d = 0; d < n; d++) {
      int c[2 + TOPO_MAX_DIMS] = { 0 };
      cr_assert_eq(walk(p, s, d, 0, ROUTE_PATH_DEFAULT, c), dist[d]);
      int ham = 0, ss = s / 2, dd = d / 2;
      int sc[3] = { ss % 4, ss / 4 % 3, ss / 12 }, dc[3] = { dd % 4, dd / 4 % 3, dd / 12 };
      for (int k = 0; k < 3; k++) {
        cr_assert_eq(c[2 + k], sc[k] != dc[k]);
        ham += sc[k] != dc[k];
      }
      cr_assert_eq(route_hops(p->router, s, d), s == d ? 0 : 2 + ham);
    }
  }
  g_free(dist);
  platform_free(p);
}

/* ---- switches hold no ranks ---- */

Test(networks, switches_are_no_nodes)
{
  platform *p = tu_platform("fattree:k=2:n=2");
  GError *e = NULL;
  cr_assert_eq(platform_parse_node(p, "3", &e), 3);
  cr_assert_eq(platform_parse_node(p, "4", &e), -1, "vertex 4 is a switch");
  cr_assert(strstr(e->message, "not a switch"), "%s", e->message);
  g_clear_error(&e);
  cr_assert(platform_set_allocation(p, "random:4:7", &e));
  for (int i = 0; i < p->nalloc; i++)
    cr_assert(!topo_is_switch(p->topo, p->alloc[i]));
  cr_assert(!platform_set_allocation(p, "random:5", &e), "only 4 compute nodes");
  g_clear_error(&e);
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *list = g_build_filename(dir, "nodes", NULL);
  g_file_set_contents(list, "0 5\n", -1, NULL);
  cr_assert(!platform_set_allocation(p, list, &e));
  cr_assert(strstr(e->message, "switches hold no ranks"), "%s", e->message);
  g_clear_error(&e);
  g_autofree char *name = platform_link_name(p, 0);
  cr_assert_str_eq(name, "0 -> sw0 (node up, node)");
  platform_free(p);
}

/* ---- bad input: one line naming what was expected ---- */

Test(networks, bad_parameters_refused)
{
  static const struct { const char *spec, *needle; } cases[] = {
    { "dragonfly:g=9:a=4:p=2:h=1", "a * h >= g - 1" },
    { "dragonfly:g=5:a=4:p=1:h=2:arrangement=simgrid", "arrangement simgrid" },
    { "dragonfly:g=5:a=4:p=1:h=2:arrangement=diagonal", "expected absolute, relative" },
    { "dragonfly:g=5:a=4:h=2", "nodes_per_router" },
    { "fattree:k=4", "either k and n" },
    { "fattree:3;4,4;1,4,4;1,1,1", "SimGrid's FAT_TREE parameters" },
    { "fattree:down=4,4:up=1", "either k and n" },
    { "fattree:k=4:n=3:routing=minimal", "expected dmodk, smodk, random-up, ecmp" },
    { "hyperx:4x0:p=2", "shape" },
    { "hyperx:4x4", "nodes_per_router" },
    { "hyperx", "shape" },
    { "dragonfly", "groups" },
    { "fattree", "either k and n" },
    { "dragonfly:g=5:a=4:p=1:h=2:k=3", "'k=3'" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    GError *e = NULL;
    platform *p = platform_load(cases[i].spec, &e);
    cr_assert_null(p, "%s accepted", cases[i].spec);
    cr_assert(strstr(e->message, cases[i].needle), "%s: '%s' lacks '%s'", cases[i].spec,
              e->message, cases[i].needle);
    cr_assert(!strchr(e->message, '\n'));
    g_error_free(e);
  }
}

Test(networks, ini_files_and_link_classes)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *ini = g_build_filename(dir, "df.ini", NULL);
  g_file_set_contents(ini,
                      "[topology]\nkind = dragonfly\ngroups = 3\nrouters_per_group = 2\n"
                      "nodes_per_router = 2\nglobal_ports = 1\narrangement = relative\n"
                      "[linktype.copper]\nbandwidth = 25e9\nlatency = 50e-9\n"
                      "[linktype.optic]\nbandwidth = 12.5e9\nlatency = 200e-9\n"
                      "[links]\nglobal = optic\ndefault = copper\n"
                      "[routing]\nalgorithm = valiant\nseed = 7\n", -1, NULL);
  platform *p = tu_platform(ini);
  const topo *t = p->topo;
  cr_assert_eq(p->router->algo, ROUTE_ALGO_VALIANT);
  cr_assert_eq(p->router->seed, 7);
  for (int l = 0; l < t->nlinks; l++)
    cr_assert_float_eq(p->link_bw[l], t->link_class[l] == 3 ? 12.5e9 : 25e9, 1, "link %d", l);
  platform_free(p);
  /* a key of another family, a class the family lacks */
  g_file_set_contents(ini, "[topology]\nkind = fattree\nk = 2\nn = 2\ngroups = 3\n"
                      "[linktype.a]\nbandwidth = 1\nlatency = 0\n", -1, NULL);
  GError *e = NULL;
  cr_assert_null(platform_load(ini, &e));
  cr_assert(strstr(e->message, "[topology] groups: not a key of fattree"), "%s", e->message);
  g_clear_error(&e);
  g_file_set_contents(ini, "[topology]\nkind = fattree\nk = 2\nn = 2\n"
                      "[linktype.a]\nbandwidth = 1\nlatency = 0\n[links]\nlevel3 = a\n", -1, NULL);
  cr_assert_null(platform_load(ini, &e));
  cr_assert(strstr(e->message, "[links] level3: not a link class"), "%s", e->message);
  g_clear_error(&e);
  g_file_set_contents(ini, "[topology]\nshape = 4x4\n[linktype.a]\nbandwidth = 1\nlatency = 0\n"
                      "[links]\nglobal = a\n", -1, NULL);
  cr_assert_null(platform_load(ini, &e));
  cr_assert(strstr(e->message, "[links] global: a link class of indirect"), "%s", e->message);
  g_clear_error(&e);
}

/* A shorthand's link types are named after the classes, so --set reaches
 * one class. */
Test(networks, shorthand_link_types_per_class)
{
  const char *sets[] = { "linktype.global.bandwidth=5e9", NULL };
  GError *e = NULL;
  platform *p = platform_load_with("dragonfly:g=3:a=2:p=1:h=1:bw=40e9:lat=1e-7", sets, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  for (int l = 0; l < p->topo->nlinks; l++)
    cr_assert_float_eq(p->link_bw[l], p->topo->link_class[l] == 3 ? 5e9 : 40e9, 1);
  platform_free(p);
}

/* ---- the bundled layouts ---- */

Test(networks, configs_real_layouts)
{
  static const struct { const char *file; int nodes, switches, links, diameter; } cases[] = {
    /* dragonflies: 2N + g a (a - 1) + g (g - 1) m */
    { "configs/frontier-like.ini", 9472, 2368, 2 * 9472 + 2368 * 31 + 74 * 73 * 7, 5 },
    { "configs/perlmutter-like.ini", 1792, 448, 2 * 1792 + 448 * 31 + 14 * 13 * 41, 5 },
    { "configs/codes-dfdally-3k.ini", 3078, 342, 2 * 3078 + 342 * 17 + 19 * 18 * 9, 5 },
    { "configs/sst-merlin-dragon72.ini", 72, 36, 2 * 72 + 36 * 3 + 9 * 8 * 1, 5 },
    /* fat trees: k^3/4 hosts, 5k^2/4 switches for k = 36; two links per cable */
    { "configs/fattree-36port-3level.ini", 11664, 1620, 2 * 3 * 11664, 6 },
    { "configs/fattree-2level-tapered.ini", 864, 48, 2 * (864 + 36 * 12), 4 },
    /* HyperX: 2N + S sum (S_d - 1) */
    { "configs/hyperx-12x8.ini", 672, 96, 2 * 672 + 96 * (11 + 7), 4 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *path = tu_src(cases[i].file);
    platform *p = tu_platform(path);
    platform_facts f;
    platform_get_facts(p, &f);
    cr_assert_eq(f.nodes, cases[i].nodes, "%s nodes %d", cases[i].file, f.nodes);
    cr_assert_eq(f.switches, cases[i].switches, "%s switches %d", cases[i].file, f.switches);
    cr_assert_eq(f.links, cases[i].links, "%s links %d", cases[i].file, f.links);
    cr_assert_eq(f.diameter, cases[i].diameter, "%s diameter %d", cases[i].file, f.diameter);
    cr_assert_eq(p->nalloc, cases[i].nodes);
    platform_free(p);
  }
}
