/* test_slurm_topology.c - platforms from Slurm's topology files
 * (routing/platform-slurm.c, routing/family/tree.c) and Slurm's hostlists
 * (routing/hostlist.c): hand-written expectations for the bundled files
 * in tests/data/slurm (node ids, names, levels, routes, facts in closed
 * form), every refusal in one line naming the file and line, and the
 * hostlist expansion against Slurm's own (`scontrol show hostnames`,
 * which needs no daemon). tests/slurm_topology.sh compares the trees with
 * what a running slurmctld reads from the same files. */
#include <math.h>

#include "routing/facts.h"
#include "routing/hostlist.h"
#include "testutil.h"

static char **expand(const char *text)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  GError *e = NULL;
  cr_assert(hostlist_expand(text, out, &e), "%s: %s", text, e ? e->message : "?");
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

static void expect_names(const char *text, const char *joined)
{
  g_auto(GStrv) names = expand(text);
  g_autofree char *got = g_strjoinv(" ", names);
  cr_assert_str_eq(got, joined, "%s", text);
}

/* What scontrol show hostnames printed for each (Slurm 22.05). */
Test(hostlist, expands_as_slurm)
{
  expect_names("nid[001-004]", "nid001 nid002 nid003 nid004");
  expect_names("tux[0-3,12,18-20]", "tux0 tux1 tux2 tux3 tux12 tux18 tux19 tux20");
  expect_names("a[1-2]b[3-4]", "a1b3 a1b4 a2b3 a2b4");
  expect_names("n[08-11]", "n08 n09 n10 n11");
  expect_names("x[9-11],y,z[1,3]", "x9 x10 x11 y z1 z3");
  expect_names("n[1-3,2]", "n1 n2 n3 n2");
  expect_names("a[01-3]", "a01 a02 a03");
  expect_names("a[1-003]", "a1 a2 a3");
  expect_names("n[009-10]", "n009 n010");
  expect_names("rack1-n[1-2]", "rack1-n1 rack1-n2");
  expect_names("n[1-2],,m", "n1 n2 m");
  expect_names("foo", "foo");
}

Test(hostlist, refuses_in_one_line)
{
  const char *bad[] = { "n[3-1]", "n[]", "n[1-2", "n[a-b]", "node[1-3]-ib", "n[1-2]]", "a b",
                        "n[0-99999999]" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
    GError *e = NULL;
    cr_assert(!hostlist_expand(bad[i], out, &e), "%s expanded", bad[i]);
    cr_assert(strstr(e->message, bad[i]) && strstr(e->message, "expected") &&
              !strchr(e->message, '\n'), "%s", e->message);
    g_error_free(e);
    g_ptr_array_unref(out);
  }
}

/* Compression gives Slurm's ranged form and expands back to the names. */
Test(hostlist, compresses_and_expands_back)
{
  const char *lists[] = { "nid[001-004]", "nid[009-010,012]", "n[9-10]", "n[1,3]",
                          "n[08-11],login1,cn[001-002]", "a1b3", "foo" };
  for (size_t i = 0; i < G_N_ELEMENTS(lists); i++) {
    g_auto(GStrv) names = expand(lists[i]);
    g_autofree char *back = hostlist_compress((const char *const *)names,
                                              (int)g_strv_length(names));
    cr_assert_str_eq(back, lists[i]);
  }
}

/* The same expressions through Slurm's own parser, when scontrol is there
 * (it needs a slurm.conf naming a cluster, no daemon). */
Test(hostlist, equals_scontrol_show_hostnames)
{
  if (!g_find_program_in_path("scontrol"))
    cr_skip_test("scontrol not installed (Debian's slurm-client)");
  g_autofree char *conf = tu_write_tmp("slurm.conf", "ClusterName=x\nSlurmctldHost=localhost\n");
  g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "SLURM_CONF", conf, TRUE);
  const char *lists[] = { "nid[001-032]", "tux[0-3,12,18-20]", "a[1-2]b[3-4]", "n[009-10]",
                          "a[01-3],a[1-003]", "x[9-11],y,z[1,3]", "p[00098-00102]",
                          "gpu[01-16]", "cn[001-005],login[1-2]" };
  for (size_t i = 0; i < G_N_ELEMENTS(lists); i++) {
    char *argv[] = { "scontrol", "show", "hostnames", (char *)lists[i], NULL };
    g_autofree char *out = NULL, *err = NULL;
    cr_assert_eq(tu_spawn_env(argv, env, &out, &err), 0, "scontrol: %s", err);
    g_strchomp(out);
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    g_auto(GStrv) mine = expand(lists[i]);
    g_autofree char *a = g_strjoinv(" ", lines), *b = g_strjoinv(" ", mine);
    cr_assert_str_eq(b, a, "%s: mapsim against scontrol", lists[i]);
  }
}

static platform *slurm(const char *rel)
{
  g_autofree char *path = tu_data(rel);
  return tu_platform(path);
}

static int node_named(const platform *p, const char *name)
{
  GError *e = NULL;
  int v = platform_parse_node(p, name, &e);
  cr_assert_geq(v, 0, "%s: %s", name, e ? e->message : "?");
  return v;
}

/* tree.conf: nodes in the order a walk from the top meets them, switches
 * after them in the same order, Slurm's levels plus one, hops in closed
 * form, the average distance from the cables' subtree sizes. */
Test(slurm, tree_conf)
{
  platform *p = slurm("slurm/tree.conf");
  const topo *t = p->topo;
  cr_assert_eq(t->family, TOPO_FAMILY_TREE);
  cr_assert_eq(topo_compute_nodes(t), 11);
  cr_assert_eq(t->nswitches, 6);
  cr_assert_eq(t->nlinks, 2 * 16);
  const char *order[] = { "nid001", "nid002", "nid003", "nid004", "nid005", "nid006", "nid007",
                          "nid008", "nid009", "nid010", "nid012", "top", "spine0", "leaf0",
                          "leaf1", "spine1", "leaf2" };
  for (int v = 0; v < 17; v++)
    cr_assert_str_eq(p->names[v], order[v]);
  int level[] = { 3, 2, 1, 1, 2, 1 };
  for (int s = 0; s < 6; s++)
    cr_assert_eq(topo_tree_of(t)->level[11 + s], level[s], "%s", order[11 + s]);
  cr_assert_eq(topo_tree_of(t)->levels, 3);
  cr_assert_eq(topo_tree_of(t)->parent[node_named(p, "nid012")], 16);
  cr_assert_eq(route_hops(p->router, node_named(p, "nid001"), node_named(p, "nid004")), 2);
  cr_assert_eq(route_hops(p->router, node_named(p, "nid001"), node_named(p, "nid008")), 4);
  cr_assert_eq(route_hops(p->router, node_named(p, "nid001"), node_named(p, "nid012")), 6);
  /* a route climbs node, level2, level3 and comes down the same classes */
  route_iter it;
  int l, k = 0;
  const char *classes[] = { "node up", "level2 up", "level3 up", "level3 down", "level2 down",
                            "node down" };
  route_begin(&it, p->router, 0, 10, route_key(0, 1));
  while (route_next(&it, &l)) {
    char name[16];
    topo_class_name(t, t->link_class[l], name, sizeof name);
    cr_assert_str_eq(name, classes[k++]);
  }
  cr_assert_eq(k, 6);
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 6);
  /* 2 b (N - b) per cable over N (N - 1) ordered pairs: 11 node cables
   * (b = 1), leaves of 4, 4, 3, spines of 8 and 3 */
  double want = (11 * 2.0 * 10 + 2 * 2 * 4 * 7 + 2 * 3 * 8 + 2 * 8 * 3 + 2 * 3 * 8) / 110;
  cr_assert(fabs(f.avg_distance - want) < 1e-12, "%g != %g", f.avg_distance, want);
  gboolean noted = FALSE;
  for (guint i = 0; i < p->notes->len; i++)
    noted = noted || strstr(g_ptr_array_index(p->notes, i), "LinkSpeed");
  cr_assert(noted, "no note on LinkSpeed");
  cr_assert_eq(p->nlinktypes, 3);
  platform_free(p);
}

/* An unbalanced tree: a rack under the core, two under a row switch. */
Test(slurm, deep_conf)
{
  platform *p = slurm("slurm/deep.conf");
  const topo *t = p->topo;
  cr_assert_eq(topo_compute_nodes(t), 6);
  cr_assert_eq(topo_tree_of(t)->levels, 3);
  int a = node_named(p, "cn001"), b = node_named(p, "cn004"), c = node_named(p, "cn006");
  cr_assert_eq(route_hops(p->router, a, b), 5);
  cr_assert_eq(route_hops(p->router, b, c), 4);
  /* the cable from r1 up to the core is a level3 cable */
  char name[16];
  const topo_tree *tr = topo_tree_of(t);
  topo_class_name(t, t->link_class[tr->up_link[tr->parent[a]]], name, sizeof name);
  cr_assert_str_eq(name, "level3 up");
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 5);
  platform_free(p);
}

/* topology/block from topology.conf: blocks of 4 under aggregates of 8
 * under a top switch. */
Test(slurm, block_conf)
{
  platform *p = slurm("slurm/block.conf");
  const topo *t = p->topo;
  cr_assert_eq(topo_compute_nodes(t), 16);
  cr_assert_eq(t->nswitches, 4 + 2 + 1);
  cr_assert_eq(topo_tree_of(t)->levels, 3);
  cr_assert_str_eq(p->names[16], "top");
  cr_assert_str_eq(p->names[17], "b1..b2");
  int n1 = node_named(p, "gpu01");
  cr_assert_eq(route_hops(p->router, n1, node_named(p, "gpu04")), 2);
  cr_assert_eq(route_hops(p->router, n1, node_named(p, "gpu05")), 4);
  cr_assert_eq(route_hops(p->router, n1, node_named(p, "gpu16")), 6);
  platform_free(p);
}

/* topology.yaml: the cluster default (a block topology), another picked
 * by name through an INI key, the flat one refused. */
Test(slurm, topology_yaml)
{
  platform *p = slurm("slurm/topology.yaml");
  cr_assert_eq(topo_compute_nodes(p->topo), 16);
  cr_assert_eq(p->topo->nswitches, 4 + 1, "blocks of 4 under one aggregate of 16");
  cr_assert_str_eq(p->names[16], "b1..b4");
  cr_assert_eq(route_hops(p->router, 0, 15), 4);
  platform_free(p);
  g_autofree char *yaml = tu_data("slurm/topology.yaml");
  const char *fabric[] = { "topology.slurm_topology=fabric", NULL };
  GError *e = NULL;
  p = platform_load_with(yaml, fabric, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  cr_assert_eq(topo_compute_nodes(p->topo), 8);
  cr_assert_str_eq(p->names[8], "top");
  cr_assert_eq(route_hops(p->router, node_named(p, "node01"), node_named(p, "node05")), 4);
  platform_free(p);
  const char *flat[] = { "topology.slurm_topology=plain", NULL };
  cr_assert_null(platform_load_with(yaml, flat, &e));
  cr_assert(strstr(e->message, "flat") && strstr(e->message, "expected"), "%s", e->message);
  g_clear_error(&e);
}

/* Overrides and INI files: a level's link type set, the file named from
 * an INI platform relative to it, cores and allocation keys as usual. */
Test(slurm, keys_and_ini)
{
  g_autofree char *conf = tu_data("slurm/tree.conf");
  const char *sets[] = { "linktype.level3.bandwidth=1e9", "nodes.cores=4", NULL };
  GError *e = NULL;
  platform *p = platform_load_with(conf, sets, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  cr_assert_eq(p->cores_per_node, 4);
  int node_link = topo_tree_of(p->topo)->up_link[node_named(p, "nid012")];
  cr_assert_eq(p->link_bw[node_link], 25e9, "a node link keeps the default");
  int spine1 = 15;
  cr_assert_eq(p->link_bw[topo_tree_of(p->topo)->up_link[spine1]], 1e9);
  platform_free(p);
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *copy = g_build_filename(dir, "machine.conf", NULL);
  g_autofree char *text = NULL;
  cr_assert(g_file_get_contents(conf, &text, NULL, NULL));
  cr_assert(g_file_set_contents(copy, text, -1, NULL));
  g_autofree char *ini = g_build_filename(dir, "machine.ini", NULL);
  cr_assert(g_file_set_contents(ini, "[topology]\nkind = tree\nslurm = machine.conf\n"
                                     "[linktype.hdr]\nbandwidth = 200Gbit/s\nlatency = 130ns\n"
                                     "[links]\ndefault = hdr\n", -1, NULL));
  p = platform_load_with(ini, NULL, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  cr_assert_eq(topo_compute_nodes(p->topo), 11);
  cr_assert_eq(p->link_bw[0], 25e9);
  cr_assert(fabs(p->link_lat[0] - 130e-9) < 1e-18);
  platform_free(p);
}

/* Every refusal names the file and line and what was expected. */
Test(slurm, refusals)
{
  static const struct {
    const char *text, *line, *says;
  } bad[] = {
    { "SwitchName=a Nodes=n[1-2] Switches=b\n", ":1:", "both Nodes and Switches" },
    { "SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[2-3]\nSwitchName=c Switches=a,b\n", ":2:",
      "node n2 is under switches a and b" },
    { "SwitchName=a Nodes=n1\nSwitchName=b Switches=a\nSwitchName=c Switches=a,b\n", ":3:",
      "switch a is under b and c" },
    { "SwitchName=a Nodes=n1\nSwitchName=t Switches=a,x\n", ":2:", "child 'x' is not defined" },
    { "SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n", ":2:", "defined again (first on line 1)" },
    { "SwitchName=a Nodes=n1 Foo=3\n", ":1:", "'Foo=3', expected Nodes=, Switches= or LinkSpeed=" },
    { "# comment\nSwitchName=a Nodes=n[3-1]\n", ":2:", "end is below its start" },
    { "SwitchName=a Switches=b\nSwitchName=b Switches=a\nSwitchName=c Nodes=n1\n", ":1:",
      "not below the top switch" },
    { "BlockName=b1 Nodes=n[1-4]\nBlockSizes=4,12\n", ":2:", "powers of two" },
    { "BlockName=b1 Nodes=n[1-4]\nSwitchName=s Nodes=n5\n", ":2:", "one kind of topology" },
    { "SwitchName=a LinkSpeed=fast Nodes=n1\n", ":1:", "LinkSpeed=fast" },
    { "BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=\"\"\n", ":2:", "block b2 without nodes" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *path = tu_write_tmp("topology.conf", bad[i].text);
    GError *e = NULL;
    cr_assert_null(platform_load(path, &e), "%s loaded", bad[i].text);
    cr_assert(strstr(e->message, path) && strstr(e->message, bad[i].line) &&
              strstr(e->message, bad[i].says) && strstr(e->message, "expected") &&
              !strchr(e->message, '\n'), "%s: %s", bad[i].text, e->message);
    g_error_free(e);
  }
  g_autofree char *yaml = tu_write_tmp("topology.yaml", "- topology: t\n  tree:\n    switches:\n"
                                                         "      - nodes: n[1-2]\n");
  GError *e = NULL;
  cr_assert_null(platform_load(yaml, &e));
  cr_assert(strstr(e->message, ":4:") && strstr(e->message, "without 'switch:'"), "%s",
            e->message);
  g_clear_error(&e);
  g_autofree char *both = tu_write_tmp("topology.yaml", "- topology: t\n  tree:\n    switches:\n"
                                                         "      - switch: s\n        nodes: n1\n"
                                                         "  block:\n    blocks:\n"
                                                         "      - block: b\n        nodes: n1\n");
  cr_assert_null(platform_load(both, &e));
  cr_assert(strstr(e->message, ":1:") && strstr(e->message, "both a tree and a block"), "%s",
            e->message);
  g_clear_error(&e);
  g_autofree char *broken = tu_write_tmp("topology.yaml", "- topology: t\n  tree: [\n");
  cr_assert_null(platform_load(broken, &e));
  cr_assert(strstr(e->message, broken) && strstr(e->message, "expected YAML"), "%s", e->message);
  g_clear_error(&e);
}

/* Top switches without one above them: joined under "(top)", noted. */
Test(slurm, several_tops_joined)
{
  g_autofree char *path = tu_write_tmp("topology.conf", "SwitchName=a Nodes=n[1-2]\n"
                                                        "SwitchName=b Nodes=n[3-4]\n");
  platform *p = tu_platform(path);
  cr_assert_eq(p->topo->nswitches, 3);
  cr_assert_str_eq(p->names[4], "(top)");
  cr_assert_eq(route_hops(p->router, 0, 3), 4);
  cr_assert_eq(p->notes->len, 1);
  cr_assert(strstr(g_ptr_array_index(p->notes, 0), "a, b"));
  platform_free(p);
}

/* Launcher files name Slurm's nodes: the mapping's nodes by name. */
Test(slurm, launcher_files_use_the_names)
{
  g_autofree char *conf = tu_data("slurm/tree.conf");
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *hosts = g_build_filename(dir, "hosts", NULL);
  g_autofree char *alloc = g_build_filename(dir, "alloc.nodes", NULL);
  cr_assert(g_file_set_contents(alloc, "10 9 8 0\n", -1, NULL));
  char *out = NULL, *err = NULL;
  const char *gen[] = { "export", "mapping", "-p", conf, "-t", ring, "--alloc", alloc, "--cores",
                        "2", "--format", "slurm-hostfile", "-o", hosts, NULL };
  cr_assert_eq(tu_run(&out, &err, gen), 0, "%s", err);
  g_autofree char *text = tu_read(dir, "hosts");
  /* identity on the allocation order, two ranks a node */
  cr_assert_str_eq(text, "nid012\nnid012\nnid010\nnid010\nnid009\nnid009\nnid001\nnid001\n");
  g_free(out);
  g_free(err);
}
