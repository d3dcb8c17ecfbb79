/* test_hier.c - hierarchy-aware mapping (mapping/strategies/hierarchy.c) and the
 * hierarchy's grid the coordinate strategies run on.
 *
 * The main case is hand-computed: a 3D stencil of g x a x p ranks whose
 * neighbours along the first two dimensions exchange 1000 bytes and along
 * the third 10, ranks shuffled. On a dragonfly of g groups of a routers of
 * p nodes the cheapest split into groups keeps each plane of a*p ranks in
 * one group: the bytes between groups are then those of the light edges
 * between planes, 2 (g - 1) a p x 10, and any other split cuts a heavy
 * edge (1000 bytes, more than all light ones together). */
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "testutil.h"

#define HEAVY 1000
#define LIGHT 10

/* The stencil X x Y x Z (x fastest), ranks renamed by a fixed shuffle. */
static commgraph *planes(int X, int Y, int Z, guint32 seed)
{
  int n = X * Y * Z, *perm = g_new(int, n);
  for (int i = 0; i < n; i++)
    perm[i] = i;
  GRand *r = g_rand_new_with_seed(seed);
  for (int i = n - 1; i > 0; i--) {
    int j = g_rand_int_range(r, 0, i + 1), tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
  }
  g_rand_free(r);
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int)), *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *bytes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int z = 0; z < Z; z++)
    for (int y = 0; y < Y; y++)
      for (int x = 0; x < X; x++) {
        int me = x + X * (y + Y * z);
        int nb[3] = { x + 1 < X ? me + 1 : -1, y + 1 < Y ? me + X : -1,
                      z + 1 < Z ? me + X * Y : -1 };
        for (int d = 0; d < 3; d++) {
          if (nb[d] < 0)
            continue;
          int64_t w = d < 2 ? HEAVY : LIGHT;
          for (int way = 0; way < 2; way++) {
            int a = perm[way ? nb[d] : me], b = perm[way ? me : nb[d]];
            g_array_append_val(src, a);
            g_array_append_val(dst, b);
            g_array_append_val(bytes, w);
          }
        }
      }
  commgraph *g = commgraph_from_edges(n, (int)src->len, (int *)(void *)src->data,
                                      (int *)(void *)dst->data, (int64_t *)(void *)bytes->data,
                                      NULL);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(bytes, TRUE);
  g_free(perm);
  return g;
}

static mapping *map_with(const char *spec, const commgraph *g, const platform *p)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  cr_assert_not_null(pl, "%s: %s", spec, e ? e->message : "?");
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 7 }, &e);
  cr_assert_not_null(m, "%s on %s: %s", spec, p->name, e ? e->message : "?");
  cr_assert(mapping_validate(m, p, &e), "%s: %s", spec, e ? e->message : "?");
  strategy_pipeline_free(pl);
  return m;
}

static int64_t inter_group(const char *spec, const commgraph *g, const platform *p)
{
  mapping *m = map_with(spec, g, p);
  metrics *mt = metrics_compute(g, p, m);
  int64_t v = mt->inter_group_bytes;
  metrics_free(mt);
  mapping_free(m);
  return v;
}

static int groups_used(const mapping *m, const platform *p)
{
  gboolean seen[64] = { FALSE };
  int n = 0;
  for (int r = 0; r < m->ntasks; r++) {
    int grp = topo_group_of(p->topo, m->node[r]);
    n += !seen[grp];
    seen[grp] = TRUE;
  }
  return n;
}

Test(hier, dragonfly_keeps_planes_in_groups)
{
  int g = 4, a = 4, pp = 2;
  platform *p = tu_platform("dragonfly:g=4:a=4:p=2:h=1");
  commgraph *st = planes(pp, a, g, 11);
  int64_t want = 2LL * (g - 1) * a * pp * LIGHT;
  cr_assert_eq(inter_group("hier", st, p), want);
  cr_assert_eq(inter_group("hier:target=tleaf", st, p), want);
  cr_assert_gt(inter_group("identity", st, p), want, "the shuffle must hide the planes");
  commgraph_free(st);
  platform_free(p);
}

/* Two ranks a node: planes of a*p*2 ranks; the ranks of one node talk
 * most (the heavy x pairs), the groups still hold whole planes. */
Test(hier, several_ranks_per_node)
{
  platform *p = tu_platform_with("dragonfly:g=4:a=4:p=2:h=1", NULL, 2);
  commgraph *st = planes(4, 4, 4, 5);
  cr_assert_eq(inter_group("hier", st, p), 2LL * 3 * 16 * LIGHT);
  mapping *m = map_with("hier", st, p);
  int *load = g_new0(int, p->topo->nnodes);
  for (int r = 0; r < m->ntasks; r++)
    cr_assert_leq(++load[m->node[r]], 2);
  g_free(load);
  mapping_free(m);
  commgraph_free(st);
  platform_free(p);
}

/* A sparse allocation: all of groups 1 and 4, three nodes of group 2;
 * 16 ranks fill groups 1 and 4 (the fullest) and no other. */
Test(hier, sparse_allocation_fewest_groups)
{
  GString *nodes = g_string_new(NULL);
  for (int v = 0; v < 8; v++)
    g_string_append_printf(nodes, "%d %d ", 8 + v, 32 + v);
  g_string_append(nodes, "16 18 20\n");
  g_autofree char *alloc = tu_write_tmp("sparse.nodes", nodes->str);
  g_string_free(nodes, TRUE);
  platform *p = tu_platform_with("dragonfly:g=6:a=4:p=2:h=2", alloc, 0);
  commgraph *st = planes(2, 4, 2, 3);
  for (int k = 0; k < 2; k++) {
    mapping *m = map_with(k ? "hier:target=tleaf" : "hier", st, p);
    cr_assert_eq(groups_used(m, p), 2);
    for (int r = 0; r < m->ntasks; r++) {
      int grp = topo_group_of(p->topo, m->node[r]);
      cr_assert(grp == 1 || grp == 4, "rank %d in group %d", r, grp);
    }
    mapping_free(m);
  }
  cr_assert_eq(inter_group("hier", st, p), 2LL * 1 * 8 * LIGHT);
  commgraph_free(st);
  platform_free(p);
}

/* Scotch's tree-leaf target on fat trees: valid mappings whatever the
 * allocation and cores, never more hop-bytes than a random placement, and
 * on a k-ary n-tree the pods hold the planes (a pod of k^(n-1) nodes is
 * one plane of the stencil here). */
Test(hier, tleaf_on_fat_trees)
{
  const char *specs[] = { "fattree:k=4:n=3", "fattree:3;4,4,4;1,2,2;1,2,1", "fattree:k=8:n=2" };
  commgraph *st = planes(4, 4, 4, 9);
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++)
    for (int cores = 1; cores <= 2; cores++) {
      platform *p = tu_platform_with(specs[i], cores == 2 ? "random:48:3" : NULL, cores);
      if (platform_capacity(p) < st->n) {
        platform_free(p);
        continue;
      }
      mapping *t = map_with("hier:target=tleaf", st, p), *r = map_with("random", st, p);
      metrics *mt = metrics_compute(st, p, t), *mr = metrics_compute(st, p, r);
      cr_assert_leq(mt->hop_bytes, mr->hop_bytes, "%s cores %d", specs[i], cores);
      metrics_free(mt);
      metrics_free(mr);
      mapping_free(t);
      mapping_free(r);
      platform_free(p);
    }
  /* 4-ary 3-tree: a pod (level-2 subtree) is 16 nodes, a plane 16 ranks;
   * the light edges alone cross the top: 3 boundaries x 16 x 2 x 10 bytes
   * climbing two levels (level2 and level3 up, then down: 4 hops more
   * than within a pod's 2 + 2) */
  platform *p = tu_platform("fattree:k=4:n=3");
  for (int k = 0; k < 2; k++) {
    mapping *m = map_with(k ? "hier:target=tleaf" : "hier", st, p);
    metrics *mt = metrics_compute(st, p, m);
    int64_t top = 0;
    for (int hop = 1; hop <= METRICS_CLASS_HOPS; hop++) /* bytes crossing level3 up */
      top += mt->class_bytes[4 * (METRICS_CLASS_HOPS + 1) + hop];
    cr_assert_eq(top, 2LL * 3 * 16 * LIGHT, "%s", k ? "tleaf" : "split");
    metrics_free(mt);
    mapping_free(m);
  }
  platform_free(p);
  commgraph_free(st);
}

/* A Slurm tree: ranks stay under one spine when they fit; tleaf is
 * refused there (irregular), in one line. */
Test(hier, slurm_tree)
{
  g_autofree char *conf = tu_data("slurm/tree.conf");
  platform *p = tu_platform(conf);
  commgraph *st = planes(2, 2, 2, 1);
  mapping *m = map_with("hier", st, p);
  for (int r = 0; r < m->ntasks; r++)
    cr_assert_lt(m->node[r], 8, "rank %d left spine0 (nodes 0-7)", r);
  mapping_free(m);
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse("hier:target=tleaf", &e);
  cr_assert_null(strategy_run(&(strategy_request){ .pipeline = pl, .g = st, .p = p,
                                                   .seed = 1 },
                              &e));
  cr_assert(strstr(e->message, "expected") && !strchr(e->message, '\n'), "%s", e->message);
  g_clear_error(&e);
  strategy_pipeline_free(pl);
  commgraph_free(st);
  platform_free(p);
}

/* The strategies that need coordinates run on the hierarchy's grid of a
 * dragonfly (node, router, group): hilbert keeps a router's nodes
 * together like identity; on a Slurm tree they are refused naming what
 * they need. */
Test(hier, coordinate_strategies_on_the_grid)
{
  platform *p = tu_platform("dragonfly:g=4:a=4:p=2:h=1");
  commgraph *st = planes(2, 4, 4, 0);
  const char *need[] = { "sweep", "hilbert", "morton", "gray", "scan" };
  for (size_t i = 0; i < G_N_ELEMENTS(need); i++) {
    mapping *m = map_with(need[i], st, p);
    mapping_free(m);
  }
  /* sweep walks the grid in node-id order: identity */
  mapping *s = map_with("sweep", st, p), *id = map_with("identity", st, p);
  cr_assert_arr_eq(s->node, id->node, sizeof(int) * (size_t)st->n);
  mapping_free(s);
  mapping_free(id);
  platform_free(p);
  g_autofree char *conf = tu_data("slurm/tree.conf");
  p = tu_platform(conf);
  commgraph *small = planes(2, 2, 2, 0);
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse("hilbert", &e);
  cr_assert_null(strategy_run(&(strategy_request){ .pipeline = pl, .g = small, .p = p, .seed = 1 },
                              &e));
  cr_assert(strstr(e->message, "without node coordinates") && strstr(e->message, "expected"), "%s",
            e->message);
  g_clear_error(&e);
  strategy_pipeline_free(pl);
  commgraph_free(small);
  commgraph_free(st);
  platform_free(p);
}
