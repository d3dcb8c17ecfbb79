/* test_simgrid_zones.c - the SimGrid bridge of indirect networks: a fat
 * tree routed d-mod-k and a dragonfly routed minimal with SimGrid's
 * cabling are written as SimGrid's own FAT_TREE and DRAGONFLY cluster
 * zones, and SimGrid's routes (Host::route_to, printed by the s4u program
 * simgrid_routes) are mapsim's, node by node and switch by switch, on
 * every pair or a sample; the platforms SimGrid cannot route as mapsim
 * does fall back to a Full zone, keyed routings are refused. */
#include <stdio.h>

#include "routing/route.h"
#include "testutil.h"

static char *export_platform(const platform *p, const char *dir)
{
  char *xml = g_build_filename(dir, "platform.xml", NULL);
  GError *e = NULL;
  cr_assert(platform_write_simgrid(p, NULL, "node-", 1e9, xml, &e), "%s", e ? e->message : "");
  return xml;
}

/* The vertices of mapsim's route a -> b. */
static int mapsim_path(const platform *p, int a, int b, int *v)
{
  route_iter it;
  int l, n = 0;
  v[n++] = a;
  route_begin(&it, p->router, a, b, 0);
  while (route_next(&it, &l))
    v[n++] = p->topo->link_dst[l];
  return n;
}

/* SimGrid's fat-tree link "link_from_C_P_UID_UP|DOWN": child id C, parent
 * id P. SimGrid creates the switches in mapsim's order (level by level,
 * by position) and ids them counting down from `top` (3.32: 2 N - 1;
 * older versions count down from -1); hosts go by their first hop. */
static int fattree_vertex(const platform *p, long id, const long *host_id, long top)
{
  int n = topo_compute_nodes(p->topo);
  if (id < 0)
    return n + (int)(-id - 1);
  if (id >= n)
    return n + (int)(top - id);
  for (int i = 0; i < n; i++)
    if (host_id[i] == id)
      return i;
  return -1;
}

/* Follows SimGrid's links of one route from host a: the vertices. */
static int simgrid_fattree_path(const platform *p, int a, char **links, const long *host_id,
                                long top, int *v)
{
  int n = 0;
  v[n++] = a;
  for (int k = 0; links[k]; k++) {
    long c, par;
    char dir[8];
    int uid;
    cr_assert_eq(sscanf(links[k], "link_from_%ld_%ld_%d_%7s", &c, &par, &uid, dir), 4, "%s",
                 links[k]);
    gboolean up = strcmp(dir, "UP") == 0;
    v[n++] = fattree_vertex(p, up ? par : c, host_id, top);
  }
  return n;
}

/* SimGrid's dragonfly links: "local_link_from_router_R_to_node_J_UID_UP"
 * (node R p + J up to router R, DOWN back), "green_link_in_chassis_C_
 * between_routers_J_and_K_UID_UP|DOWN" (router J to K of the current
 * group, or back), "blue_link_between_group_I_and_J_routers_RI_and_RJ_
 * UID_UP|DOWN" (router RI to RJ, or back). */
static int simgrid_dragonfly_path(const platform *p, int a, char **links, int *v)
{
  const topo_dragonfly *df = topo_dragonfly_of(p->topo);
  int N = topo_compute_nodes(p->topo), n = 0, cur = a;
  v[n++] = a;
  for (int k = 0; links[k]; k++) {
    int r, j, c, kk, gi, gj, ri, rj, uid;
    char dir[8];
    gboolean up = g_str_has_suffix(links[k], "_UP");
    if (sscanf(links[k], "local_link_from_router_%d_to_node_%d_%d_%7s", &r, &j, &uid, dir) == 4)
      cur = up ? N + r : r * df->nodes_per_router + j;
    else if (sscanf(links[k], "green_link_in_chassis_%d_between_routers_%d_and_%d_%d_%7s", &c, &j,
                    &kk, &uid, dir) == 5) {
      int group = (cur - N) / df->routers, from = (cur - N) % df->routers;
      cr_assert_eq(from, up ? j : kk, "%s leaves router %d", links[k], from);
      cur = N + group * df->routers + (up ? kk : j);
    } else if (sscanf(links[k], "blue_link_between_group_%d_and_%d_routers_%d_and_%d_%d_%7s", &gi,
                      &gj, &ri, &rj, &uid, dir) == 6) {
      cr_assert_eq(cur - N, up ? ri : rj, "%s leaves router %d", links[k], cur - N);
      cur = N + (up ? rj : ri);
    } else
      cr_assert_fail("SimGrid link '%s' of no known kind", links[k]);
    v[n++] = cur;
  }
  return n;
}

/* Runs simgrid_routes on the exported platform and compares every route
 * it prints with mapsim's. */
static void compare_routes(const char *spec, const char *zone, int step)
{
  const char *tool = g_getenv("MAPSIM_SIMGRID_ROUTES");
  if (!tool)
    cr_skip_test("SimGrid (libsimgrid-dev) or a C++ compiler missing at build time: "
                 "no simgrid_routes to ask SimGrid for its routes");
  g_autofree char *path = g_str_has_prefix(spec, "configs/") ? tu_src(spec) : g_strdup(spec);
  platform *p = tu_platform(path);
  cr_assert_str_eq(platform_simgrid_cluster(p), zone, "%s", spec);
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *xml = export_platform(p, dir);
  g_autofree char *text = NULL;
  g_file_get_contents(xml, &text, NULL, NULL);
  g_autofree char *topology = g_strdup_printf("topology=\"%s\"", zone);
  cr_assert(strstr(text, topology), "%s", text);
  int n = topo_compute_nodes(p->topo);
  g_autofree char *ns = g_strdup_printf("%d", n), *st = g_strdup_printf("%d", step);
  char *argv[] = { (char *)tool, xml, ns, st, "--log=root.thres:critical", NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "simgrid_routes: %s", err);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  /* hosts' fat-tree ids: the child end of their first link; the top of
   * the switch ids from the first route's first switch */
  long *host_id = g_new(long, n), top = 0;
  int checked = 0, mine[ROUTE_FAMILY_MAX_HOPS + 1], theirs[64];
  for (int i = 0; lines[i] && *lines[i]; i++) {
    g_auto(GStrv) tok = g_strsplit(lines[i], " ", -1);
    long c, par;
    if (sscanf(tok[2], "link_from_%ld_%ld_", &c, &par) == 2) {
      host_id[atoi(tok[0])] = c;
      if (i == 0 && par >= n) {
        mapsim_path(p, atoi(tok[0]), atoi(tok[1]), mine);
        top = par + (mine[1] - n);
      }
    }
  }
  for (int i = 0; lines[i] && *lines[i]; i++) {
    g_auto(GStrv) tok = g_strsplit(lines[i], " ", -1);
    int a = atoi(tok[0]), b = atoi(tok[1]);
    int hn = p->topo->family == TOPO_FAMILY_FATTREE
                 ? simgrid_fattree_path(p, a, tok + 2, host_id, top, theirs)
                 : simgrid_dragonfly_path(p, a, tok + 2, theirs);
    int mn = mapsim_path(p, a, b, mine);
    cr_assert_eq(hn, mn, "%s %d -> %d: SimGrid %d hops, mapsim %d", spec, a, b, hn - 1, mn - 1);
    for (int k = 0; k < mn; k++)
      cr_assert_eq(theirs[k], mine[k], "%s %d -> %d hop %d: SimGrid at %d, mapsim at %d", spec,
                   a, b, k, theirs[k], mine[k]);
    checked++;
  }
  int pairs = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      pairs += a != b && (a * n + b) % step == 0;
  cr_assert_eq(checked, pairs, "%s: every route of the sample compared", spec);
  g_free(host_id);
  g_free(out);
  g_free(err);
  platform_free(p);
}

Test(simgrid_zones, fattree_dmodk_routes_are_simgrids)
{
  compare_routes("fattree:k=4:n=3", "FAT_TREE", 1);
}

Test(simgrid_zones, tapered_fattree_routes_are_simgrids)
{
  compare_routes("fattree:3;4,3,2;1,2,3;1,1,1", "FAT_TREE", 1);
  compare_routes("fattree:2;8,8;1,8;1,1", "FAT_TREE", 1);
  compare_routes("configs/fattree-2level-tapered.ini", "FAT_TREE", 97);
}

Test(simgrid_zones, dragonfly_minimal_routes_are_simgrids)
{
  compare_routes("dragonfly:g=4:a=5:p=2:h=1:arrangement=simgrid", "DRAGONFLY", 1);
  compare_routes("dragonfly:g=4:a=5:p=4:h=1:arrangement=simgrid", "DRAGONFLY", 1);
  compare_routes("dragonfly:g=6:a=6:p=3:h=1:arrangement=simgrid", "DRAGONFLY", 7);
}

/* What SimGrid cannot route as mapsim does is a Full zone of mapsim's
 * routes over the compute nodes only; keyed routings have no SimGrid form. */
Test(simgrid_zones, full_zone_or_refusal)
{
  static const char *const full[] = {
    "fattree:k=4:n=2:routing=smodk", "fattree:2;4,4;1,2;1,2",
    "dragonfly:g=4:a=4:p=1:h=1", "hyperx:3x3:p=2",
    "dragonfly:g=4:a=5:p=2:h=1:arrangement=simgrid:bw=1e9",
  };
  g_autofree char *dir = tu_tmp_dir();
  for (size_t i = 0; i < G_N_ELEMENTS(full); i++) {
    platform *p = tu_platform(full[i]);
    if (i == 4)
      p->link_bw[0] *= 2; /* one link unlike the others */
    cr_assert_null(platform_simgrid_cluster(p), "%s", full[i]);
    g_autofree char *xml = export_platform(p, dir);
    g_autofree char *text = NULL;
    g_file_get_contents(xml, &text, NULL, NULL);
    cr_assert(strstr(text, "routing=\"Full\""), "%s", full[i]);
    int n = topo_compute_nodes(p->topo);
    g_autofree char *last = g_strdup_printf("<host id=\"node-%d\"", n - 1);
    g_autofree char *beyond = g_strdup_printf("<host id=\"node-%d\"", n);
    cr_assert(strstr(text, last) && !strstr(text, beyond), "%s: hosts are the compute nodes",
              full[i]);
    platform_free(p);
  }
  platform *p = tu_platform("dragonfly:g=4:a=4:p=1:h=1:routing=valiant");
  GError *e = NULL;
  g_autofree char *xml = g_build_filename(dir, "v.xml", NULL);
  cr_assert_not(platform_write_simgrid(p, NULL, "node-", 1e9, xml, &e));
  cr_assert(strstr(e->message, "--routing minimal"), "%s", e->message);
  g_error_free(e);
  platform_free(p);
}
