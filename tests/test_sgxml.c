/* test_sgxml.c - SimGrid platform files read as platforms
 * (routing/platform-sgxml.c): hand-computed node and link counts, routes
 * with their latency sums and bottlenecks on a Full zone, a Floyd zone,
 * two zones joined by a zoneRoute, a FLAT cluster; TORUS, FAT_TREE and
 * DRAGONFLY clusters as mapsim's families; mapsim's own SimGrid export
 * read back to the same routes; bad files refused with their line; the
 * command on them. */
#include "routing/family/family.h"
#include "routing/route.h"
#include "testutil.h"

static platform *load_data(const char *name)
{
  g_autofree char *rel = g_strdup_printf("simgrid-xml/%s", name);
  g_autofree char *path = tu_data(rel);
  return tu_platform(path);
}

static int node(const platform *p, const char *name)
{
  GError *e = NULL;
  int v = platform_parse_node(p, name, &e);
  cr_assert_geq(v, 0, "%s: %s", name, e ? e->message : "?");
  return v;
}

/* The route a -> b: hops, latency sum, bottleneck and the links' type
 * names ("la bb lb"). */
typedef struct {
  int hops;
  double lat, bw;
  char types[256];
} route_sum;

static route_sum route_of(const platform *p, const char *a, const char *b)
{
  route_sum s = { 0, 0, INFINITY, "" };
  route_iter it;
  int l;
  route_begin(&it, p->router, node(p, a), node(p, b), 0);
  while (route_next(&it, &l)) {
    s.hops++;
    s.lat += p->link_lat[l];
    s.bw = MIN(s.bw, p->link_bw[l]);
    g_strlcat(s.types, s.hops > 1 ? " " : "", sizeof s.types);
    g_strlcat(s.types, p->linktypes[p->link_type[l]].name, sizeof s.types);
  }
  return s;
}

#define assert_route(p, a, b, h, latency, bottleneck, names)                                   \
  do {                                                                                         \
    route_sum s_ = route_of(p, a, b);                                                          \
    cr_assert_eq(s_.hops, h, "%s -> %s: %d hops", a, b, s_.hops);                              \
    cr_assert_float_eq(s_.lat, latency, 1e-15, "%s -> %s: latency %g", a, b, s_.lat);          \
    cr_assert_float_eq(s_.bw, bottleneck, 1e-3, "%s -> %s: bandwidth %g", a, b, s_.bw);        \
    cr_assert_str_eq(s_.types, names);                                                         \
  } while (0)

Test(sgxml, full_zone)
{
  platform *p = load_data("full.xml");
  /* A, B, C, the meeting points after la, after lb, before lc/la (the
   * backbone's two sides and C's side) */
  cr_assert_eq(p->topo->nnodes, 6);
  cr_assert_eq(p->nalloc, 3);
  cr_assert_eq(p->topo->nlinks, 8); /* la lb lc bb, each way */
  cr_assert_eq(p->cores_per_node, 1); /* hosts of 1 and 2 cores: the fewest */
  /* 1Gbps = 125e6 B/s, 125MBps, 2Gbps = 250e6, 10Gbps = 1.25e9 */
  assert_route(p, "A", "B", 3, 130e-6, 125e6, "la bb lb");
  assert_route(p, "A", "C", 3, 140e-6, 125e6, "la bb lc");
  assert_route(p, "B", "C", 3, 150e-6, 125e6, "lb bb lc");
  assert_route(p, "C", "A", 3, 140e-6, 125e6, "lc bb la"); /* symmetrical */
  cr_assert_str_eq(p->names[0], "A");
  cr_assert_str_eq(p->names[2], "C");
  platform_free(p);
}

Test(sgxml, floyd_zone)
{
  platform *p = load_data("floyd.xml");
  cr_assert_eq(p->topo->nnodes, 5); /* 3 hosts, 2 routers */
  cr_assert_eq(p->nalloc, 3);
  cr_assert_eq(p->topo->nlinks, 10);
  /* the fewest links: h1 r1 r2 h2 (3), not h1 r1 h3 r2 h2 (4) */
  assert_route(p, "h1", "h2", 3, 70e-6, 62.5e6, "l1 l2 l3");
  assert_route(p, "h3", "h2", 2, 1010e-6, 125e6, "l5 l3");
  assert_route(p, "h1", "h3", 2, 15e-6, 125e6, "l1 l4");
  assert_route(p, "h2", "h1", 3, 70e-6, 62.5e6, "l3 l2 l1");
  platform_free(p);
}

Test(sgxml, zone_route_gateways)
{
  platform *p = load_data("zones.xml");
  cr_assert_eq(p->topo->nnodes, 5); /* a1 a2 b1 gw1 gw2 */
  cr_assert_eq(p->nalloc, 3);
  cr_assert_eq(p->topo->nlinks, 8);
  /* a1 -> gw1, the zone route gw1 -> gw2, gw2 -> b1 */
  assert_route(p, "a1", "b1", 3, 1015e-6, 12.5e6, "a1l wan b1l");
  assert_route(p, "b1", "a2", 3, 1025e-6, 12.5e6, "b1l wan a2l");
  assert_route(p, "a2", "a1", 2, 30e-6, 125e6, "a2l a1l");
  platform_free(p);
}

Test(sgxml, flat_cluster)
{
  platform *p = load_data("flat.xml");
  /* 4 hosts, the router, the backbone's up and down sides; the routes
   * to and from the router cross the backbone (SimGrid's), by joints
   * down side -> router -> up side */
  cr_assert_eq(p->topo->nnodes, 7);
  cr_assert_eq(p->topo->nlinks, 4 * 2 + 1 + 2);
  cr_assert_eq(p->cores_per_node, 4);
  assert_route(p, "c-0.me", "c-3.me", 3, 600e-6, 125e6, "c_link_0 c_backbone c_link_3");
  cr_assert_eq(node(p, "c-c_router.me"), 4);
  platform_free(p);
}

Test(sgxml, torus_cluster)
{
  platform *p = load_data("torus.xml");
  cr_assert_eq(p->topo->ops, family_of(p->topo));
  cr_assert_str_eq(family_of(p->topo)->name, "torus");
  cr_assert_eq(p->topo->ndims, 3);
  cr_assert_eq(p->topo->shape[0], 4);
  cr_assert_eq(p->topo->shape[1], 3);
  cr_assert_eq(p->topo->shape[2], 4);
  for (int d = 0; d < 3; d++)
    cr_assert_eq(p->topo->conn[d], TOPO_TORUS);
  cr_assert_eq(p->router->tie, ROUTE_TIE_SIMGRID);
  cr_assert_eq(p->cores_per_node, 2);
  cr_assert_eq(p->topo->nlinks, 48 * 6);
  cr_assert_float_eq(p->link_bw[0], 10e9, 1);
  cr_assert_float_eq(p->link_lat[0], 1e-6, 1e-18);
  /* node-30 = (2, 1, 2): 2 + 1 + 2 hops */
  cr_assert_eq(node(p, "node-30"), 30);
  cr_assert_eq(route_hops(p->router, 0, 30), 5);
  /* written back, it is the same cluster */
  cr_assert_str_eq(platform_simgrid_cluster(p), "TORUS");
  platform_free(p);
}

Test(sgxml, fattree_cluster)
{
  platform *p = load_data("fattree.xml");
  const topo_fattree *ft = topo_fattree_of(p->topo);
  cr_assert_not_null(ft);
  cr_assert_eq(ft->levels, 2);
  cr_assert_eq(ft->down[0], 4);
  cr_assert_eq(ft->down[1], 4);
  cr_assert_eq(ft->up[0], 1);
  cr_assert_eq(ft->up[1], 2);
  cr_assert_eq(topo_compute_nodes(p->topo), 16);
  cr_assert_eq(p->topo->nswitches, 6); /* 4 leaves, 2 tops */
  cr_assert_eq(node(p, "node-15.ft"), 15);
  cr_assert_eq(route_hops(p->router, 0, 1), 2);  /* one leaf */
  cr_assert_eq(route_hops(p->router, 0, 15), 4); /* over a top switch */
  cr_assert_str_eq(platform_simgrid_cluster(p), "FAT_TREE");
  platform_free(p);
}

Test(sgxml, dragonfly_cluster)
{
  platform *p = load_data("dragonfly.xml");
  const topo_dragonfly *df = topo_dragonfly_of(p->topo);
  cr_assert_not_null(df);
  cr_assert_eq(df->groups, 3);
  cr_assert_eq(df->routers, 4);
  cr_assert_eq(df->nodes_per_router, 2);
  cr_assert_eq(df->arrangement, TOPO_ARRANGE_SIMGRID);
  cr_assert_eq(topo_compute_nodes(p->topo), 24);
  cr_assert_eq(p->topo->nswitches, 12);
  cr_assert_eq(route_hops(p->router, 0, 1), 2); /* one router */
  cr_assert_str_eq(platform_simgrid_cluster(p), "DRAGONFLY");
  platform_free(p);
}

/* mapsim's export read back: every pair's route visits the same nodes. */
static void round_trip(platform *p)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *xml = g_build_filename(dir, "p.xml", NULL);
  GError *e = NULL;
  cr_assert(platform_write_simgrid(p, NULL, "node-", 1e9, xml, &e), "%s", e ? e->message : "");
  platform *q = tu_platform(xml);
  int n = topo_compute_nodes(p->topo);
  cr_assert_eq(q->nalloc, n);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      if (a == b)
        continue;
      route_iter i1, i2;
      int l1, l2, hops = 0;
      route_begin(&i1, p->router, a, b, 0);
      route_begin(&i2, q->router, a, b, 0);
      gboolean m1, m2;
      while ((m1 = route_next(&i1, &l1)) & (m2 = route_next(&i2, &l2))) {
        hops++;
        cr_assert_eq(q->topo->link_dst[l2] < n ? q->topo->link_dst[l2] : -1,
                     p->topo->link_dst[l1] < n ? p->topo->link_dst[l1] : -1,
                     "%d -> %d, hop %d", a, b, hops);
        cr_assert_float_eq(q->link_lat[l2], p->link_lat[l1], 1e-18);
        cr_assert_float_eq(q->link_bw[l2], p->link_bw[l1], 1e-3);
      }
      cr_assert_eq(m1, m2, "%d -> %d: lengths differ after %d hops", a, b, hops);
    }
  platform_free(q);
}

Test(sgxml, round_trip_full_zone)
{
  /* a mesh is written as a Full zone of every route */
  platform *p = tu_platform("mesh:3x3:bw=1GB/s:lat=2us");
  round_trip(p);
  platform_free(p);
}

Test(sgxml, round_trip_torus_cluster)
{
  platform *p = tu_platform("torus:4x4:bw=1GB/s:lat=2us");
  cr_assert(platform_apply_preset(p, "simgrid", NULL));
  cr_assert_str_eq(platform_simgrid_cluster(p), "TORUS");
  round_trip(p);
  platform_free(p);
}

/* A bad file's error: "FILE:LINE: ..." containing `what`. */
static void assert_refused(const char *text, int line, const char *what)
{
  g_autofree char *path = tu_write_tmp("bad.xml", text);
  GError *e = NULL;
  platform *p = platform_load(path, &e);
  cr_assert_null(p);
  cr_assert_not_null(e);
  g_autofree char *head = g_strdup_printf("%s:%d: ", path, line);
  cr_assert(g_str_has_prefix(e->message, head), "'%s', expected it to start with '%s'",
            e->message, head);
  cr_assert(strstr(e->message, what), "'%s', expected '%s'", e->message, what);
  cr_assert(strstr(e->message, "expected"), "%s", e->message);
  cr_assert_null(strchr(e->message, '\n'), "%s", e->message);
  g_error_free(e);
}

#define HEAD "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"

Test(sgxml, bad_inputs)
{
  assert_refused(HEAD "<zone id=\"z\" routing=\"Full\">\n</platform>\n", 4, "closed");
  assert_refused("<platform version=\"3\">\n</platform>\n", 1, "version");
  assert_refused(HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n"
                 "<link id=\"l\" bandwidth=\"fast\"/>\n</zone></platform>\n", 5, "fast");
  assert_refused(HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n"
                 "<host id=\"b\" speed=\"1Gf\"/>\n<route src=\"a\" dst=\"b\">\n"
                 "<link_ctn id=\"nope\"/></route>\n</zone></platform>\n", 7, "nope");
  assert_refused(HEAD "<zone id=\"z\" routing=\"Fast\">\n</zone></platform>\n", 3, "Fast");
  assert_refused(HEAD "<zone id=\"z\" routing=\"Full\">\n<hots id=\"a\"/>\n</zone></platform>\n",
                 4, "hots");
  /* a route crossing a link twice: its line */
  assert_refused(HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n"
                 "<host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"1Gbps\"/>\n"
                 "<link id=\"m\" bandwidth=\"1Gbps\"/>\n"
                 "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/><link_ctn id=\"m\"/>"
                 "<link_ctn id=\"l\"/></route>\n</zone></platform>\n", 8, "twice");
  assert_refused(HEAD "<cluster id=\"t\" prefix=\"n\" radical=\"0-9\" bw=\"1Gbps\" lat=\"1us\" "
                 "topology=\"TORUS\" topo_parameters=\"2,2\"/>\n</platform>\n", 3,
                 "10 hosts");
  assert_refused(HEAD "<cluster id=\"d\" prefix=\"n\" radical=\"0-15\" bw=\"1Gbps\" lat=\"1us\" "
                 "topology=\"DRAGONFLY\" topo_parameters=\"2,1;2,1;2,1;2\"/>\n</platform>\n", 3,
                 "chassis");
}

/* one link that two routes end at two hosts: every link end a point of
 * its own, joined by joints; the link stays one resource */
Test(sgxml, joints)
{
  g_autofree char *path = tu_write_tmp("j.xml", HEAD "<zone id=\"z\" routing=\"Full\">\n"
                                       "<host id=\"a\" speed=\"1Gf\"/>\n"
                                       "<host id=\"b\" speed=\"1Gf\"/>\n"
                                       "<host id=\"c\" speed=\"1Gf\"/>\n"
                                       "<link id=\"l\" bandwidth=\"1Gbps\" latency=\"5us\"/>\n"
                                       "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                                       "<route src=\"a\" dst=\"c\"><link_ctn id=\"l\"/></route>\n"
                                       "</zone></platform>\n");
  platform *p = tu_platform(path);
  /* a b c, l's two ends each way; joints a>l, l>b, l>c and back */
  cr_assert_eq(p->topo->nnodes, 7);
  cr_assert_eq(p->topo->nlinks, 2 + 6);
  assert_route(p, "a", "b", 3, 5e-6, 125e6, "joint l joint");
  assert_route(p, "a", "c", 3, 5e-6, 125e6, "joint l joint");
  assert_route(p, "c", "a", 3, 5e-6, 125e6, "joint l joint");
  route_iter i1, i2;
  int l1 = -1, l2 = -1;
  route_begin(&i1, p->router, 0, 1, 0);
  route_begin(&i2, p->router, 0, 2, 0);
  for (int k = 0; k < 2; k++)
    cr_assert(route_next(&i1, &l1) && route_next(&i2, &l2));
  cr_assert_eq(l1, l2, "a -> b and a -> c cross the one link l");
  gboolean noted = FALSE;
  for (guint i = 0; i < p->notes->len; i++)
    noted = noted || strstr(g_ptr_array_index(p->notes, i), "joints");
  cr_assert(noted);
  platform_free(p);
}

Test(sgxml, budget_before_allocating)
{
  g_autofree char *path = tu_write_tmp("big.xml", HEAD "<cluster id=\"c\" prefix=\"n\" "
                                       "radical=\"0-4194303\" bw=\"1Gbps\" lat=\"1us\"/>\n"
                                       "</platform>\n");
  const char *args[] = { "topo", "-p", path, "--max-memory", "64M", NULL };
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  cr_assert(strstr(err, ":3: "), "%s", err);
  cr_assert(strstr(err, "budget") || strstr(err, "memory"), "%s", err);
}

Test(sgxml, probe)
{
  g_autofree char *a = tu_write_tmp("a.txt", "  <!-- c --><?xml version='1.0'?>\n<!DOCTYPE "
                                    "platform SYSTEM \"x\"><platform version=\"4.1\"/>");
  g_autofree char *b = tu_write_tmp("b.xml", "<?xml version='1.0'?><plat/>");
  GError *e = NULL;
  /* read as SimGrid's: its complaint */
  cr_assert_null(platform_load(a, &e));
  cr_assert(strstr(e->message, "no host, expected <host> or <cluster>"), "%s", e->message);
  g_clear_error(&e);
  cr_assert_null(platform_load(b, &e));
  cr_assert_null(strstr(e->message, "<host>"), "%s", e->message);
  g_clear_error(&e);
}

Test(sgxml, commands)
{
  g_autofree char *full = tu_data("simgrid-xml/full.xml");
  g_autofree char *torus = tu_data("simgrid-xml/torus.xml");
  g_autofree char *out = NULL, *err = NULL;
  const char *route[] = { "route", "-p", full, "A", "C", NULL };
  cr_assert_eq(tu_run(&out, &err, route), 0, "%s", err);
  cr_assert(strstr(out, "3 hops, latency 1.4e+05 ns"), "%s", out);
  g_free(out);
  g_free(err);
  const char *topo_args[] = { "topo", "-p", torus, NULL };
  cr_assert_eq(tu_run(&out, &err, topo_args), 0, "%s", err);
  cr_assert(strstr(out, "4x3x4 torus"), "%s", out);
  cr_assert(strstr(out, "48 (48 allocated, 2 cores each"), "%s", out);
}

/* simulate on the TORUS cluster is simulate on the torus it stands for */
Test(sgxml, simulate_end_to_end)
{
  g_autofree char *torus = tu_data("simgrid-xml/torus.xml");
  g_autofree char *tr = tu_src("traces/data/ring-8/traces.otf2");
  g_autofree char *o1 = NULL, *o2 = NULL, *e1 = NULL, *e2 = NULL;
  const char *a1[] = { "simulate", "-p", torus, "-t", tr, "--model", "flow", "--csv", NULL };
  const char *a2[] = { "simulate", "-p", "torus:4x3x4:bw=10GB/s:lat=1us:cores=2", "--tie",
                       "simgrid", "-t", tr, "--model", "flow", "--csv", NULL };
  cr_assert_eq(tu_run(&o1, &e1, a1), 0, "%s", e1);
  cr_assert_eq(tu_run(&o2, &e2, a2), 0, "%s", e2);
  /* the same numbers but for the platform's name and source */
  g_auto(GStrv) l1 = g_strsplit(o1, "\n", -1);
  g_auto(GStrv) l2 = g_strsplit(o2, "\n", -1);
  g_auto(GStrv) h = g_strsplit(l1[0], ",", -1);
  g_auto(GStrv) v1 = g_strsplit(l1[1], ",", -1);
  g_auto(GStrv) v2 = g_strsplit(l2[1], ",", -1);
  int checked = 0;
  for (int i = 0; h[i] && v1[i] && v2[i]; i++) {
    if (strstr(h[i], "platform") || strstr(h[i], "wall") || strstr(h[i], "per_s"))
      continue;
    cr_assert_str_eq(v1[i], v2[i], "%s: %s vs %s", h[i], v1[i], v2[i]);
    checked += !strcmp(h[i], "makespan_s");
  }
  cr_assert_eq(checked, 1, "no makespan_s column in %s", l1[0]);
}

#include "mapping/mapping.h"

/* smpirun's order: rank i on the i-th entry, HOST:N as N entries, again
 * from the first when the ranks outnumber them */
Test(sgxml, hostfile)
{
  platform *p = load_data("flat.xml"); /* c-0.me .. c-3.me, 4 cores */
  g_autofree char *hf = tu_data("simgrid-xml/flat.hostfile");
  GError *e = NULL;
  mapping *m = mapping_load(hf, p, 0, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  cr_assert_eq(m->ntasks, 4);
  static const int four[] = { 2, 2, 0, 3 };
  for (int r = 0; r < 4; r++)
    cr_assert_eq(m->node[r], four[r], "rank %d on %d", r, m->node[r]);
  mapping_free(m);
  m = mapping_load(hf, p, 8, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  static const int eight[] = { 2, 2, 0, 3, 2, 2, 0, 3 };
  for (int r = 0; r < 8; r++)
    cr_assert_eq(m->node[r], eight[r], "rank %d on %d", r, m->node[r]);
  mapping_free(m);
  /* 12 ranks: rank 8 would be the fifth on c-2.me's 4 cores: its line named */
  cr_assert_null(mapping_load(hf, p, 12, &e));
  cr_assert(strstr(e->message, "flat.hostfile:1: rank 8 on node 2"), "%s", e->message);
  g_clear_error(&e);
  g_autofree char *bad = tu_write_tmp("h", "c-0.me\n\nc-9.me\n");
  cr_assert_null(mapping_load(bad, p, 0, &e));
  cr_assert(strstr(e->message, "h:3: node 'c-9.me'"), "%s", e->message);
  g_clear_error(&e);
  g_autofree char *bad2 = tu_write_tmp("h2", "# x\nc-0.me:two\n");
  cr_assert_null(mapping_load(bad2, p, 0, &e));
  cr_assert(strstr(e->message, "h2:2: 'c-0.me:two': expected HOST or HOST:N"), "%s", e->message);
  g_clear_error(&e);
  platform_free(p);
}

/* -M hostfile is -M of the mapping file it stands for */
Test(sgxml, hostfile_simulate)
{
  g_autofree char *flat = tu_data("simgrid-xml/flat.xml");
  g_autofree char *hf = tu_data("simgrid-xml/flat.hostfile");
  g_autofree char *tr = tu_src("traces/data/ring-8/traces.otf2");
  g_autofree char *map = tu_write_tmp("m.map", "0 2\n1 2\n2 0\n3 3\n4 2\n5 2\n6 0\n7 3\n");
  g_autofree char *o1 = NULL, *o2 = NULL, *e1 = NULL, *e2 = NULL;
  const char *a1[] = { "simulate", "-p", flat, "-t", tr, "-M", hf, "--model", "flow", NULL };
  const char *a2[] = { "simulate", "-p", flat, "-t", tr, "-M", map, "--model", "flow", NULL };
  cr_assert_eq(tu_run(&o1, &e1, a1), 0, "%s", e1);
  cr_assert_eq(tu_run(&o2, &e2, a2), 0, "%s", e2);
  const char *k1 = strstr(o1, "makespan"), *k2 = strstr(o2, "makespan");
  cr_assert(k1 && k2, "%s", o1);
  cr_assert_eq(strcspn(k1, "\n"), strcspn(k2, "\n"));
  cr_assert(!strncmp(k1, k2, strcspn(k1, "\n")), "%s vs %s", k1, k2);
}

/* SimGrid itself as the oracle: every host pair's route (Host::route_to,
 * printed by tests/simgrid_routes.cpp) has mapsim's latency sum and, link
 * by link, mapsim's links (named by their SimGrid link; SimGrid's _UP and
 * _DOWN are the directions of one split-duplex link; joints left out). */
static void against_simgrid_as(const char *rel, gboolean by_name);

static void against_simgrid(const char *rel)
{
  against_simgrid_as(rel, TRUE);
}

/* A cluster mapsim reads as its family: links of one type, so the
 * number of links and the latency sum are compared. */
static void against_simgrid_counts(const char *rel)
{
  against_simgrid_as(rel, FALSE);
}

static void against_simgrid_as(const char *rel, gboolean by_name)
{
  const char *exe = g_getenv("MAPSIM_SIMGRID_ROUTES");
  if (!exe)
    cr_skip_test("SimGrid (libsimgrid-dev) or a C++ compiler missing: no oracle");
  g_autofree char *path = tu_data(rel);
  char *argv[] = { (char *)exe, path, "--names", NULL };
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "%s", err);
  platform *p = tu_platform(path);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  int pairs = 0, none = 0;
  for (int i = 0; lines[i] && *lines[i]; i++) {
    g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
    cr_assert(f[0] && f[1] && f[2], "%s", lines[i]);
    if (!f[3]) { /* a pair a Full zone gives no route: SimGrid's is empty */
      none++;
      continue;
    }
    double lat = g_ascii_strtod(f[2], NULL);
    route_iter it;
    int l, k = 3;
    double sum = 0;
    route_begin(&it, p->router, node(p, f[0]), node(p, f[1]), 0);
    while (route_next(&it, &l)) {
      sum += p->link_lat[l];
      const char *name = p->linktypes[p->link_type[l]].name;
      if (!strcmp(name, "joint"))
        continue;
      cr_assert_not_null(f[k], "%s -> %s: mapsim's %s beyond SimGrid's route", f[0], f[1], name);
      g_autofree char *sg = g_strdup(f[k++]);
      if (!by_name)
        continue;
      if (g_str_has_suffix(sg, "_UP") && strcmp(sg, name))
        sg[strlen(sg) - 3] = '\0';
      if (g_str_has_suffix(sg, "_DOWN") && strcmp(sg, name))
        sg[strlen(sg) - 5] = '\0';
      cr_assert_str_eq(name, sg, "%s -> %s: link %d", f[0], f[1], k - 3);
    }
    cr_assert_null(f[k], "%s -> %s: SimGrid's %s beyond mapsim's route", f[0], f[1], f[k]);
    cr_assert_float_eq(sum, lat, 1e-9 * lat + 1e-18, "%s -> %s: %g vs %g", f[0], f[1], sum,
                       lat);
    pairs++;
  }
  cr_assert_eq(pairs + none, p->nalloc * (p->nalloc - 1));
  cr_assert_geq(pairs, p->nalloc);
  platform_free(p);
}

Test(sgxml, simgrid_oracle_small_platform)
{
  against_simgrid("simgrid-xml/simgrid/small_platform.xml");
}
Test(sgxml, simgrid_oracle_with_routers)
{
  against_simgrid("simgrid-xml/simgrid/small_platform_with_routers.xml");
}
Test(sgxml, simgrid_oracle_cluster_backbone)
{
  against_simgrid("simgrid-xml/simgrid/cluster_backbone.xml");
}
Test(sgxml, simgrid_oracle_two_hosts)
{
  against_simgrid("simgrid-xml/simgrid/two_hosts.xml");
}
Test(sgxml, simgrid_oracle_dogbone)
{
  against_simgrid("simgrid-xml/simgrid/dogbone.xml");
}
Test(sgxml, simgrid_oracle_four_hosts_floyd)
{
  against_simgrid("simgrid-xml/simgrid/four_hosts_floyd.xml");
}
Test(sgxml, simgrid_oracle_ns3_big_cluster)
{
  against_simgrid("simgrid-xml/simgrid/ns3-big-cluster.xml");
}
Test(sgxml, simgrid_oracle_torus)
{
  against_simgrid_counts("simgrid-xml/torus.xml");
}
Test(sgxml, simgrid_oracle_fattree)
{
  against_simgrid_counts("simgrid-xml/fattree.xml");
}
Test(sgxml, simgrid_oracle_dragonfly)
{
  against_simgrid_counts("simgrid-xml/dragonfly.xml");
}
Test(sgxml, simgrid_oracle_cluster_torus)
{
  against_simgrid_counts("simgrid-xml/simgrid/cluster_torus.xml");
}
Test(sgxml, simgrid_oracle_cluster_fat_tree)
{
  against_simgrid_counts("simgrid-xml/simgrid/cluster_fat_tree.xml");
}
/* clusters joined by zone routes through their routers (the backbone
 * crossed to and from a router), cabinets, a bypass route */
Test(sgxml, simgrid_oracle_cluster_multi)
{
  against_simgrid("simgrid-xml/simgrid/cluster_multi.xml");
}
Test(sgxml, simgrid_oracle_griffon)
{
  against_simgrid("simgrid-xml/simgrid/griffon.xml");
}
Test(sgxml, simgrid_oracle_bypass_route)
{
  against_simgrid("simgrid-xml/simgrid/bypassRoute.xml");
}
Test(sgxml, simgrid_oracle_own) {
  against_simgrid("simgrid-xml/full.xml");
  against_simgrid("simgrid-xml/zones.xml");
  against_simgrid("simgrid-xml/floyd.xml");
  against_simgrid("simgrid-xml/dijkstra.xml");
  against_simgrid("simgrid-xml/flat.xml");
}

Test(sgxml, simgrid_oracle_meta_cluster)
{
  against_simgrid("simgrid-xml/simgrid/meta_cluster.xml");
}

/* `export simgrid`'s platform.xml and hostfile read back: the same run
 * as the platform and placement they were written from */
Test(sgxml, export_read_back)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *tr = tu_src("traces/data/ring-8/traces.otf2");
  g_autofree char *xml = g_build_filename(dir, "platform.xml", NULL);
  g_autofree char *hf = g_build_filename(dir, "hostfile", NULL);
  g_autofree char *o0 = NULL, *o1 = NULL, *o2 = NULL, *e0 = NULL, *e1 = NULL, *e2 = NULL;
  const char *ex[] = { "export", "simgrid", "-p", "mesh:2x2:cores=2", "-t", tr, "-s", "random",
                       "-o", dir, NULL };
  cr_assert_eq(tu_run(&o0, &e0, ex), 0, "%s", e0);
  const char *a1[] = { "simulate", "-p", "mesh:2x2:cores=2", "-t", tr, "-s", "random",
                       "--model", "flow", NULL };
  const char *a2[] = { "simulate", "-p", xml, "-t", tr, "-M", hf, "--model", "flow", NULL };
  cr_assert_eq(tu_run(&o1, &e1, a1), 0, "%s", e1);
  cr_assert_eq(tu_run(&o2, &e2, a2), 0, "%s", e2);
  const char *k1 = strstr(o1, "makespan_s"), *k2 = strstr(o2, "makespan_s");
  cr_assert(k1 && k2, "%s", o2);
  size_t n = strcspn(k1, "\n");
  cr_assert(n == strcspn(k2, "\n") && !strncmp(k1, k2, n), "%.*s vs %.*s", (int)n, k1,
            (int)strcspn(k2, "\n"), k2);
}
