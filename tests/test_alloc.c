/* test_alloc.c - allocation policies (routing/alloc.h) against
 * hand-computed node sets on a dragonfly, a fat tree and a torus, with and
 * without nodes other jobs hold; their parser and their errors. */
#include "testutil.h"

#include "routing/alloc.h"

/* 5 groups of 4 routers of 2 nodes: routers of 2 nodes, groups of 8. */
#define DF "dragonfly:g=5:a=4:p=2:h=1"

static int *pick(const char *spec, const char *platform_spec, const gboolean *taken, int *n)
{
  g_autoptr(platform) p = tu_platform(platform_spec);
  alloc_request r;
  GError *e = NULL;
  cr_assert(alloc_parse(spec, topo_compute_nodes(p->topo), &r, &e), "%s", e ? e->message : "");
  int *nodes = alloc_pick(p->topo, &r, taken, spec, &e);
  cr_assert_not_null(nodes, "%s: %s", spec, e ? e->message : "");
  *n = r.nodes;
  for (int i = 1; i < *n; i++)
    cr_assert_lt(nodes[i - 1], nodes[i], "%s: ascending ids", spec);
  return nodes;
}

static void expect_nodes(const char *spec, const char *platform_spec, const gboolean *taken,
                         const int *want, int nwant)
{
  int n;
  g_autofree int *got = pick(spec, platform_spec, taken, &n);
  cr_assert_eq(n, nwant, "%s", spec);
  for (int i = 0; i < n; i++)
    cr_assert_eq(got[i], want[i], "%s: node %d is %d, expected %d", spec, i, got[i], want[i]);
}

Test(alloc, deterministic_policies_by_hand)
{
  int first10[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  expect_nodes("contiguous:10", DF, NULL, first10, 10);
  int stripes[10] = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 36 }; /* floor(i 40 / 10) */
  expect_nodes("striped:10", DF, NULL, stripes, 10);
  /* blocks of 8 (groups): 10 nodes need 2, the first aligned pair */
  expect_nodes("blocks:10", DF, NULL, first10, 10);
  /* best fit: no router holds 3, group 0 does (the first of five equal ones) */
  int three[3] = { 0, 1, 2 };
  expect_nodes("best-fit:3", DF, NULL, three, 3);
}

Test(alloc, policies_skip_taken_nodes)
{
  gboolean taken[40] = { 0 };
  for (int i = 0; i < 5; i++)
    taken[i] = TRUE; /* routers 0 and 1 full, router 2 holds node 5 only */
  int c[3] = { 5, 6, 7 };
  expect_nodes("contiguous:3", DF, taken, c, 3);
  /* best fit, 2 nodes: router 3 (6, 7) is the first router with 2 free */
  int bf2[2] = { 6, 7 };
  expect_nodes("best-fit:2", DF, taken, bf2, 2);
  /* best fit, 3 nodes: no router holds 3; group 0 has exactly 3 free */
  expect_nodes("best-fit:3", DF, taken, c, 3);
  /* best fit, 9 nodes: no group holds 9 (group 0: 3 free, the others 8):
   * the machine, fewest routers: the fullest first (routers 3 to 6: nodes
   * 6 to 13), then the smallest router that holds the rest (router 2:
   * node 5) */
  int bf9[9] = { 5, 6, 7, 8, 9, 10, 11, 12, 13 };
  expect_nodes("best-fit:9", DF, taken, bf9, 9);
  /* blocks, 10 nodes: aligned pairs of groups [0, 16) with 11 free and
   * [16, 32) with 16: best fit the first; emptiest block first: group 1
   * whole, then group 0's first free nodes */
  int b10[10] = { 5, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
  expect_nodes("blocks:10", DF, taken, b10, 10);
  /* more than are free */
  g_autoptr(platform) p = tu_platform(DF);
  alloc_request r;
  cr_assert(alloc_parse("random:36", 40, &r, NULL));
  GError *e = NULL;
  cr_assert_null(alloc_pick(p->topo, &r, taken, "random:36", &e));
  cr_assert(strstr(e->message, "36 nodes, expected at most 35"), "%s", e->message);
  g_error_free(e);
}

/* Every router (2 nodes) or group (8 nodes) is taken whole or not at all,
 * except the last one drawn, which holds its lowest ids. */
static void check_whole_units(const int *nodes, int n, int unit, const char *spec)
{
  int per[40] = { 0 };
  for (int i = 0; i < n; i++)
    per[nodes[i] / unit]++;
  int partial = 0;
  for (int u = 0; u < 40 / unit; u++)
    if (per[u] && per[u] < unit) {
      partial++;
      for (int i = 0; i < n; i++)
        if (nodes[i] / unit == u)
          cr_assert_lt(nodes[i] % unit, per[u], "%s: partial unit %d takes its lowest ids", spec,
                       u);
    }
  cr_assert_leq(partial, 1, "%s: %d partial units", spec, partial);
}

Test(alloc, random_policies_take_whole_units_and_follow_the_seed)
{
  const char *specs[] = { "random-routers:9:3", "random-groups:12:3", "random:12:3" };
  int units[] = { 2, 8, 1 };
  for (size_t k = 0; k < G_N_ELEMENTS(specs); k++) {
    int n, n2, n3;
    g_autofree int *a = pick(specs[k], DF, NULL, &n);
    g_autofree int *b = pick(specs[k], DF, NULL, &n2);
    check_whole_units(a, n, units[k], specs[k]);
    cr_assert_eq(memcmp(a, b, sizeof(int) * (size_t)n), 0, "%s: same seed, same nodes", specs[k]);
    g_autofree char *other = g_strdup(specs[k]);
    other[strlen(other) - 1] = '4';
    g_autofree int *c = pick(other, DF, NULL, &n3);
    cr_assert_neq(memcmp(a, c, sizeof(int) * (size_t)n), 0, "%s: another seed, other nodes",
                  specs[k]);
  }
}

Test(alloc, random_keeps_the_sets_it_always_gave)
{
  /* random:N:SEED on a machine with every node free is the partial
   * Fisher-Yates shuffle it has always been (the allocation of bundled
   * studies must not move) */
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  GRand *rng = g_rand_new_with_seed(7);
  int perm[64];
  for (int i = 0; i < 64; i++)
    perm[i] = i;
  for (int i = 0; i < 40; i++) {
    int j = g_rand_int_range(rng, i, 64), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  g_rand_free(rng);
  gboolean in[64] = { 0 };
  for (int i = 0; i < 40; i++)
    in[perm[i]] = TRUE;
  cr_assert(platform_set_allocation(p, "random:40:7", NULL));
  cr_assert_eq(p->nalloc, 40);
  for (int i = 0; i < 40; i++)
    cr_assert(in[p->alloc[i]], "node %d", p->alloc[i]);
}

Test(alloc, fat_tree_pods_and_leaf_switches)
{
  /* 4-ary 3-tree: leaf switches of 4 nodes, pods of 16 */
  int n;
  g_autofree int *pods = pick("random-groups:20:5", "fattree:k=4:n=3", NULL, &n);
  int per[4] = { 0 };
  for (int i = 0; i < n; i++)
    per[pods[i] / 16]++;
  int full = 0, four = 0;
  for (int u = 0; u < 4; u++) {
    full += per[u] == 16;
    four += per[u] == 4;
  }
  cr_assert(full == 1 && four == 1, "one whole pod and 4 nodes of another");
  /* best fit of 6: no leaf switch holds 6, pod 0 does: two leaf switches
   * (the fullest, then the smallest that holds the rest) */
  int bf[6] = { 0, 1, 2, 3, 4, 5 };
  expect_nodes("best-fit:6", "fattree:k=4:n=3", NULL, bf, 6);
}

Test(alloc, parse_and_refuse_in_one_line)
{
  alloc_request r;
  GError *e = NULL;
  cr_assert(alloc_is_policy("random-routers:4"));
  cr_assert(!alloc_is_policy("nodes.txt"));
  cr_assert(!alloc_is_policy("my:nodes"));
  const char *bad[] = { "random:0", "contiguous:5:x", "striped:65", "blocks:4:1:2", "random:" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    cr_assert(!alloc_parse(bad[i], 64, &r, &e), "%s", bad[i]);
    cr_assert(strstr(e->message, "expected") && strstr(e->message, bad[i]), "%s", e->message);
    cr_assert_null(strchr(e->message, '\n'));
    g_clear_error(&e);
  }
  cr_assert(alloc_parse("random-groups:8:4294967295", 64, &r, &e));
  cr_assert_eq(r.seed, 4294967295u);
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  cr_assert(!platform_set_allocation(p, "random-groups:8", &e));
  cr_assert(strstr(e->message, "mesh/torus has no groups"), "%s", e->message);
  g_clear_error(&e);
  cr_assert(!platform_set_allocation(p, "blocks:8", &e));
  g_clear_error(&e);
  /* issue 34: a mistyped policy is named as one, not as a missing node list file */
  cr_assert(!platform_set_allocation(p, "randm:16", &e));
  cr_assert(strstr(e->message, "allocation randm:16: unknown policy 'randm' (did you mean "
                               "random?), expected POLICY:N[:SEED]"), "%s", e->message);
  cr_assert_null(strstr(e->message, "No such file"), "%s", e->message);
  g_clear_error(&e);
  /* on a torus every node is its own router */
  cr_assert(platform_set_allocation(p, "random-routers:8:2", &e));
  g_autoptr(platform) q = tu_platform("torus:4x4x4");
  cr_assert(platform_set_allocation(q, "random:8:2", &e));
  cr_assert_eq(memcmp(p->alloc, q->alloc, sizeof(int) * 8), 0);
}

Test(alloc, node_lists_take_ranges)
{
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  int *nodes, n;
  GError *e = NULL;
  cr_assert(platform_parse_node_list(p, "0-3 8,9\n# a comment\n 60-63", "x", 1, &nodes, &n, &e));
  int want[] = { 0, 1, 2, 3, 8, 9, 60, 61, 62, 63 };
  cr_assert_eq(n, 10);
  cr_assert_eq(memcmp(nodes, want, sizeof want), 0);
  g_free(nodes);
  cr_assert(!platform_parse_node_list(p, "0-3\n2", "f.txt", 5, &nodes, &n, &e));
  cr_assert(strstr(e->message, "f.txt:6: node 2 listed twice"), "%s", e->message);
  g_clear_error(&e);
  cr_assert(!platform_parse_node_list(p, "5-2", "f.txt", 1, &nodes, &n, &e));
  cr_assert(strstr(e->message, "'5-2' is not a node"), "%s", e->message);
  g_clear_error(&e);
}

/* A Slurm tree may be irregular (tests/data/slurm/tree.conf: leaf switches
 * of different sizes): the policies by units refuse it by name, the
 * others place as anywhere. */
Test(alloc, unit_policies_refused_on_a_tree_of_switches)
{
  g_autofree char *conf = tu_data("slurm/tree.conf");
  const char *units[] = { "random-routers:4", "random-groups:4", "best-fit:4", "blocks:4" };
  for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
    g_autoptr(platform) p = tu_platform(conf);
    GError *e = NULL;
    cr_assert(!platform_set_allocation(p, units[i], &e), "%s", units[i]);
    cr_assert(strstr(e->message, units[i]) && strstr(e->message, "tree of switches") &&
              strstr(e->message, "expected contiguous, random or striped"), "%s", e->message);
    g_error_free(e);
  }
  const char *fine[] = { "contiguous:4", "random:4:2", "striped:4" };
  for (size_t i = 0; i < G_N_ELEMENTS(fine); i++) {
    g_autoptr(platform) p = tu_platform(conf);
    GError *e = NULL;
    cr_assert(platform_set_allocation(p, fine[i], &e), "%s: %s", fine[i], e ? e->message : "");
    cr_assert_eq(p->nalloc, 4);
  }
}
