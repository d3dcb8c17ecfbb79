/* test_strategies.c - every registered strategy yields a valid mapping on
 * every platform kind; the refiners never worsen their
 * objective; greedy beats random on the MapLib matrices; strategies are
 * deterministic per seed; small cases with known optima; kl against a
 * pass worked by hand and against every swap it could still make. */
#include <criterion/criterion.h>
#include <string.h>

#include "mapping/map-util.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "evalhook.h"
#include "testutil.h"

static char *maplib(const char *app, const char *kind)
{
  char *name = g_strdup_printf("maplib/%s.p2p.%s.csv", app, kind);
  char *path = tu_data(name);
  g_free(name);
  return path;
}

static commgraph *load_app(const char *app)
{
  char *size = maplib(app, "size"), *count = maplib(app, "count");
  GError *e = NULL;
  commgraph *g = commgraph_load(size, &e);
  cr_assert_not_null(g, "%s", e ? e->message : "");
  cr_assert(commgraph_load_counts(g, count, &e), "%s", e ? e->message : "");
  g_free(size);
  g_free(count);
  return g;
}

/* A seeded irregular graph: each task sends to `deg` random others. */
static commgraph *random_graph(int n, int deg, guint32 seed)
{
  GRand *r = g_rand_new_with_seed(seed);
  int ne = n * deg;
  int *src = g_new(int, ne), *dst = g_new(int, ne);
  int64_t *bytes = g_new(int64_t, ne), *msgs = g_new(int64_t, ne);
  for (int i = 0; i < ne; i++) {
    src[i] = i / deg;
    dst[i] = g_rand_int_range(r, 0, n);
    bytes[i] = g_rand_int_range(r, 1, 100000);
    msgs[i] = g_rand_int_range(r, 1, 50);
  }
  commgraph *g = commgraph_from_edges(n, ne, src, dst, bytes, msgs);
  g_free(src), g_free(dst), g_free(bytes), g_free(msgs);
  g_rand_free(r);
  return g;
}

static platform *plat(const char *spec, const char *alloc, int cores)
{
  GError *e = NULL;
  platform *p = platform_load(spec, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  if (alloc)
    cr_assert(platform_set_allocation(p, alloc, &e), "%s", e ? e->message : "");
  if (cores)
    cr_assert(platform_set_cores(p, cores, &e), "%s", e ? e->message : "");
  return p;
}

/* Grid coordinates of rank r in a 4x4x4 block (geometric strategies). */
static double *grid_coords(int n)
{
  double *c = g_new(double, 3 * (size_t)n);
  for (int r = 0; r < n; r++)
    c[3 * r] = r % 4, c[3 * r + 1] = r / 4 % 4, c[3 * r + 2] = r / 16;
  return c;
}

static mapping *run(const char *spec, const commgraph *g, const platform *p, guint32 seed,
                    GError **e)
{
  strategy_pipeline *pl = strategy_parse(spec, e);
  cr_assert_not_null(pl, "%s: %s", spec, *e ? (*e)->message : "");
  double *coords = grid_coords(g->n);
  eh_hook h; /* the strategies that optimize by simulation score hop-bytes here */
  eh_init(&h, g, p);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = seed,
                                                 .coords = coords, .coord_dims = 3,
                                                 .eval = &h.hook },
                            e);
  g_free(coords);
  strategy_pipeline_free(pl);
  return m;
}

/* Every strategy of the registry, alone, gives a valid mapping. */
static void all_valid(const char *spec, const char *alloc, int cores, const commgraph *g)
{
  platform *p = plat(spec, alloc, cores);
  for (int i = 0; strategy_registry[i]; i++) {
    const char *name = strategy_registry[i]->name;
    GError *e = NULL;
    mapping *m = run(name, g, p, 3, &e);
    cr_assert_not_null(m, "%s on %s: %s", name, spec, e ? e->message : "");
    cr_assert(mapping_validate(m, p, &e), "%s on %s: %s", name, spec, e ? e->message : "");
    cr_assert_eq(m->ntasks, g->n);
    mapping_free(m);
  }
  platform_free(p);
}

Test(strategies, valid_torus)
{
  commgraph *g = load_app("cg");
  all_valid("torus:4x4x4", NULL, 0, g);
  commgraph_free(g);
}

Test(strategies, valid_mesh)
{
  commgraph *g = load_app("lulesh");
  all_valid("mesh:4x4x4", NULL, 0, g);
  commgraph_free(g);
}

Test(strategies, valid_haec)
{
  commgraph *g = load_app("btmz");
  all_valid("haec:4x4x4", NULL, 0, g);
  commgraph_free(g);
}

Test(strategies, valid_sparse_allocation)
{
  commgraph *g = random_graph(40, 5, 11);
  all_valid("torus:4x4x4", "random:40:7", 0, g);
  commgraph_free(g);
}

Test(strategies, valid_fewer_tasks_than_nodes)
{
  commgraph *g = random_graph(50, 4, 12);
  all_valid("mesh:4x4x4", NULL, 0, g);
  commgraph_free(g);
}

Test(strategies, valid_several_cores)
{
  commgraph *g = load_app("amg");
  all_valid("torus:2x2x4", NULL, 4, g);
  commgraph_free(g);
}

/* The topology-aware strategies also run on a graph topology (a ring of
 * 8 nodes given link by link). */
Test(strategies, graph_topology)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *links = g_build_filename(dir, "ring.txt", NULL);
  g_autofree char *ini = g_build_filename(dir, "ring.ini", NULL);
  GString *l = g_string_new(NULL);
  for (int i = 0; i < 8; i++)
    g_string_append_printf(l, "%d %d\n", i, (i + 1) % 8);
  cr_assert(g_file_set_contents(links, l->str, -1, NULL));
  g_string_free(l, TRUE);
  cr_assert(g_file_set_contents(ini, "[platform]\nname = ring8\n[topology]\ngraph = ring.txt\n"
                                     "bidirectional = true\n[linktype.optical]\n"
                                     "bandwidth = 1e9\nlatency = 0\n", -1, NULL));
  platform *p = plat(ini, NULL, 0);
  commgraph *g = random_graph(8, 3, 5);
  const char *specs[] = { "greedy", "greedy+wh", "greedy+mc", "greedy+mmc", "kl", "kl:t=2",
                          "greedy_hoefler", "fhgreedy", "greedy_allc", "pacmap", "topo_aware",
                          "bipartition", "bft", "mht", "bokhari", "pairs", "tabu",
                          "portfolio:try=[bft+tabu|mht+kl]" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    GError *e = NULL;
    mapping *m = run(specs[i], g, p, 1, &e);
    cr_assert_not_null(m, "%s: %s", specs[i], e ? e->message : "");
    cr_assert(mapping_validate(m, p, NULL));
    mapping_free(m);
  }
  commgraph_free(g);
  platform_free(p);
}

typedef enum { OBJ_HOP_BYTES, OBJ_MAX_TIME, OBJ_MAX_MSGS } objective;

static double objective_of(const metrics *x, objective o)
{
  return o == OBJ_HOP_BYTES ? (double)x->hop_bytes
         : o == OBJ_MAX_TIME ? x->max_link_time
                             : (double)x->max_link_messages;
}

/* start+refiner is never worse than start on the refiner's objective;
 * returns the relative change (negative = better). */
static double refine_gain(const char *start, const char *refiner, objective o,
                          const commgraph *g, const platform *p)
{
  char *spec = g_strdup_printf("%s+%s", start, refiner);
  GError *e = NULL;
  mapping *a = run(start, g, p, 1, &e);
  mapping *b = run(spec, g, p, 1, &e);
  cr_assert(a && b, "%s: %s", spec, e ? e->message : "");
  metrics *ma = metrics_compute(g, p, a), *mb = metrics_compute(g, p, b);
  double va = objective_of(ma, o), vb = objective_of(mb, o);
  cr_assert_leq(vb, va, "%s on %s: %g after, %g before", spec, p->name, vb, va);
  metrics_free(ma), metrics_free(mb);
  mapping_free(a), mapping_free(b);
  g_free(spec);
  return va > 0 ? (vb - va) / va : 0;
}

/* kl:t=2 on the dense MapLib graphs costs seconds: only where `wide`. */
static void refiners_never_worse(const commgraph *g, const platform *p, gboolean wide)
{
  const char *starts[] = { "identity", "random", "greedy", "hilbert" };
  for (size_t s = 0; s < G_N_ELEMENTS(starts); s++) {
    refine_gain(starts[s], "wh", OBJ_HOP_BYTES, g, p);
    refine_gain(starts[s], "kl", OBJ_HOP_BYTES, g, p);
    if (wide)
      refine_gain(starts[s], "kl:t=2", OBJ_HOP_BYTES, g, p);
    refine_gain(starts[s], "mc", OBJ_MAX_TIME, g, p);
    refine_gain(starts[s], "mmc", OBJ_MAX_MSGS, g, p);
    /* replay's objective is the hook's: hop-bytes here (evalhook.h) */
    refine_gain(starts[s], "replay:evals=24", OBJ_HOP_BYTES, g, p);
  }
}

Test(refiners, never_worse_maplib)
{
  const char *apps[] = { "amg", "btmz", "cg", "lulesh" };
  const char *plats[] = { "torus:4x4x4", "mesh:4x4x4", "haec:4x4x4" };
  for (size_t a = 0; a < G_N_ELEMENTS(apps); a++) {
    commgraph *g = load_app(apps[a]);
    for (size_t k = 0; k < G_N_ELEMENTS(plats); k++) {
      platform *p = plat(plats[k], NULL, 0);
      refiners_never_worse(g, p, FALSE);
      platform_free(p);
    }
    commgraph_free(g);
  }
}

Test(refiners, never_worse_random_graphs)
{
  for (guint32 seed = 1; seed <= 3; seed++) {
    commgraph *g = random_graph(256, 4, seed);
    platform *p = plat("torus:8x8x4", NULL, 0);
    refiners_never_worse(g, p, seed == 1);
    platform_free(p);
    p = plat("mesh:8x8x8", "random:256:9", 0);
    refiners_never_worse(g, p, seed == 1);
    platform_free(p);
    commgraph_free(g);
  }
}

/* The refiners do improve a random start (not only "not worse"). */
Test(refiners, improve_random_start)
{
  commgraph *g = random_graph(256, 4, 21);
  platform *p = plat("torus:8x8x4", NULL, 0);
  cr_assert_lt(refine_gain("random", "wh", OBJ_HOP_BYTES, g, p), -0.05);
  cr_assert_lt(refine_gain("random", "kl", OBJ_HOP_BYTES, g, p), -0.05);
  cr_assert_lt(refine_gain("random", "mc", OBJ_MAX_TIME, g, p), -0.05);
  cr_assert_lt(refine_gain("random", "mmc", OBJ_MAX_MSGS, g, p), -0.05);
  cr_assert_lt(refine_gain("random", "replay:evals=400", OBJ_HOP_BYTES, g, p), -0.05);
  platform_free(p);
  commgraph_free(g);
}

static int64_t hop_bytes_of(const char *spec, const commgraph *g, const platform *p, guint32 seed)
{
  GError *e = NULL;
  mapping *m = run(spec, g, p, seed, &e);
  cr_assert_not_null(m, "%s: %s", spec, e ? e->message : "");
  metrics *x = metrics_compute(g, p, m);
  int64_t hb = x->hop_bytes;
  metrics_free(x);
  mapping_free(m);
  return hb;
}

Test(greedy, beats_random_on_maplib)
{
  const char *apps[] = { "amg", "btmz", "cg", "lulesh" };
  platform *p = plat("torus:4x4x4", NULL, 0);
  for (size_t a = 0; a < G_N_ELEMENTS(apps); a++) {
    commgraph *g = load_app(apps[a]);
    int64_t hg = hop_bytes_of("greedy", g, p, 1), hr = hop_bytes_of("random", g, p, 1);
    cr_assert_lt(hg, hr, "%s: greedy %" G_GINT64_FORMAT " random %" G_GINT64_FORMAT, apps[a],
                 hg, hr);
    commgraph_free(g);
  }
  platform_free(p);
}

/* A ring of 8 tasks (1 byte each way to each neighbour) on an 8-node
 * ring: the optimum puts every edge on one hop, hop_bytes = 16. */
Test(greedy, ring_optimum)
{
  int src[16], dst[16];
  int64_t bytes[16];
  for (int i = 0; i < 8; i++) {
    src[2 * i] = i, dst[2 * i] = (i + 1) % 8, bytes[2 * i] = 1;
    src[2 * i + 1] = (i + 1) % 8, dst[2 * i + 1] = i, bytes[2 * i + 1] = 1;
  }
  commgraph *g = commgraph_from_edges(8, 16, src, dst, bytes, NULL);
  platform *p = plat("torus:8", NULL, 0);
  cr_assert_eq(hop_bytes_of("greedy", g, p, 1), 16);
  cr_assert_eq(hop_bytes_of("random+wh", g, p, 1) <= hop_bytes_of("random", g, p, 1), 1);
  platform_free(p);
  commgraph_free(g);
}

/* Two tasks exchanging 10 bytes each way on a 1x4 mesh line, start
 * identity puts them at distance 1 already: wh and kl keep 20. Starting
 * from random, kl:t=3 reaches the optimum 20. */
Test(kl, pair_optimum)
{
  int src[2] = { 0, 1 }, dst[2] = { 1, 0 };
  int64_t bytes[2] = { 10, 10 };
  commgraph *g = commgraph_from_edges(2, 2, src, dst, bytes, NULL);
  platform *p = plat("mesh:4", NULL, 0);
  for (guint32 seed = 0; seed < 8; seed++)
    cr_assert_eq(hop_bytes_of("kl:t=3", g, p, seed), 20, "seed %u", seed);
  platform_free(p);
  commgraph_free(g);
}

Test(determinism, same_seed_same_mapping)
{
  commgraph *g = random_graph(60, 4, 33);
  platform *p = plat("torus:4x4x4", "random:60:2", 0);
  for (int i = 0; strategy_registry[i]; i++) {
    const char *name = strategy_registry[i]->name;
    GError *e = NULL;
    mapping *a = run(name, g, p, 42, &e), *b = run(name, g, p, 42, &e);
    cr_assert(a && b, "%s: %s", name, e ? e->message : "");
    cr_assert_arr_eq(a->node, b->node, sizeof(int) * (size_t)g->n, "%s differs", name);
    mapping_free(a), mapping_free(b);
  }
  GError *e = NULL;
  mapping *a = run("random+kl", g, p, 1, &e), *b = run("random+kl", g, p, 2, &e);
  cr_assert(memcmp(a->node, b->node, sizeof(int) * (size_t)g->n) != 0,
            "different seeds give different random starts");
  mapping_free(a), mapping_free(b);
  platform_free(p);
  commgraph_free(g);
}

/* The strategies' fast hop counts agree with the routes on every pair. */
Test(hops, fast_path_matches_routes)
{
  const char *plats[] = { "torus:4x4x4", "mesh:4x3x5", "haec:4x4x4", "torus:3x4x2x2x2" };
  for (size_t k = 0; k < G_N_ELEMENTS(plats); k++) {
    platform *p = plat(plats[k], NULL, 0);
    hop_table h;
    hop_table_init(&h, p);
    cr_assert(h.fast, "%s", plats[k]);
    for (int a = 0; a < p->topo->nnodes; a++)
      for (int b = 0; b < p->topo->nnodes; b++)
        cr_assert_eq(hop_table_get(&h, a, b), route_hops(p->router, a, b), "%s %d->%d", plats[k],
                     a, b);
    hop_table_clear(&h);
    platform_free(p);
  }
}

/* The oracle's hop-bytes of `node` (task -> node): every edge's bytes
 * times its route's hop count, summed here - not by the strategies'
 * incremental costs (map-util.h's refine_state) that kl uses. */
static int64_t route_hop_bytes(const commgraph *g, const platform *p, const int *node)
{
  int64_t sum = 0;
  for (int i = 0; i < g->n; i++)
    for (int k = g->xadj[i]; k < g->xadj[i + 1]; k++)
      if (g->adj[k] != i)
        sum += g->bytes[k] * route_hops(p->router, node[i], node[g->adj[k]]);
  return sum;
}

/* One kl pass worked by hand. Ring torus:6 (hops min(|a - b|, 6 - |a -
 * b|)), t = 1 (the six neighbouring pairs), edges 0->4 (2 bytes), 0->1
 * (3), 5->3 (1), 4->3 (5), identity start: 2*2 + 3*1 + 1*2 + 5*1 = 14.
 * Every single swap loses - (3,4): -1, (0,1), (0,5), (4,5): -2, (1,2):
 * -3, (2,3): -6 - so a descent stops here. kl takes the least bad one,
 * (3,4) (tasks 3 and 4 trade nodes: 15), locks nodes 3 and 4, and of the
 * open pairs (0,1) then gains 2 (0->4 and 5->3 one hop shorter each,
 * 0->1 unchanged: 13) while (0,5) loses 2 and (1,2) 3; nothing is left
 * open, and the best prefix is both swaps: 13, tasks 0..5 on nodes 1, 0,
 * 2, 4, 3, 5. The next pass finds no prefix that gains ((1,2) -1, then
 * -3, -4): kl stops at 13. The optimum of all 720 mappings is 11, which
 * a swap of neighbours cannot reach from here. */
Test(kl, hand_computed_pass_through_a_losing_swap)
{
  int src[4] = { 0, 0, 5, 4 }, dst[4] = { 4, 1, 3, 3 };
  int64_t bytes[4] = { 2, 3, 1, 5 };
  commgraph *g = commgraph_from_edges(6, 4, src, dst, bytes, NULL);
  platform *p = plat("torus:6", NULL, 0);
  GError *e = NULL;
  mapping *one = run("identity+kl:t=1,passes=1", g, p, 1, &e);
  cr_assert_not_null(one, "%s", e ? e->message : "");
  const int want[6] = { 1, 0, 2, 4, 3, 5 };
  cr_assert_arr_eq(one->node, want, sizeof want);
  cr_assert_eq(route_hop_bytes(g, p, one->node), 13);
  mapping *all = run("identity+kl:t=1", g, p, 1, &e);
  cr_assert_arr_eq(all->node, want, sizeof want);
  /* the optimum, by trying every mapping */
  int perm[6] = { 0, 1, 2, 3, 4, 5 }, c[6] = { 0 };
  int64_t best = route_hop_bytes(g, p, perm);
  for (int i = 1; i < 6;) { /* Heap's algorithm */
    if (c[i] < i) {
      int j = i % 2 ? c[i] : 0, t = perm[j];
      perm[j] = perm[i], perm[i] = t;
      best = MIN(best, route_hop_bytes(g, p, perm));
      c[i]++, i = 1;
    } else {
      c[i++] = 0;
    }
  }
  cr_assert_eq(best, 11);
  mapping_free(one), mapping_free(all);
  platform_free(p);
  commgraph_free(g);
}

/* Where kl ends (eps=0: only when a pass gains nothing), no swap of two
 * allocated nodes at most t hops apart (kl's pairs: the second one
 * reached from the first along links in t hops, later in the
 * allocation; one of them may be empty, a move) lowers the hop-bytes,
 * each swap tried and summed by the oracle; and kl never ends above its
 * start. kl gets there with incremental gains (O(1) per pair and moved
 * neighbour, kept across passes, per-dimension hop tables): on tori and
 * meshes, with empty allocated nodes, on a one-way ring (asymmetric hops,
 * the route path) and for t = 1..3. */
Test(kl, ends_where_no_swap_within_t_gains, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *links = g_build_filename(dir, "ring.txt", NULL);
  g_autofree char *ini = g_build_filename(dir, "ring.ini", NULL);
  GString *l = g_string_new(NULL);
  for (int i = 0; i < 24; i++)
    g_string_append_printf(l, "%d %d\n", i, (i + 1) % 24);
  for (int i = 0; i < 24; i += 5)
    g_string_append_printf(l, "%d %d\n", i, (i + 7) % 24);
  cr_assert(g_file_set_contents(links, l->str, -1, NULL));
  g_string_free(l, TRUE);
  cr_assert(g_file_set_contents(ini, "[platform]\nname = ring24\n[topology]\ngraph = ring.txt\n"
                                     "bidirectional = false\n[linktype.optical]\n"
                                     "bandwidth = 1e9\nlatency = 0\n", -1, NULL));
  struct {
    const char *plat, *alloc;
    int ntasks, t;
  } cases[] = {
    { "torus:8x4x4", NULL, 128, 1 },
    { "torus:8x4x4", NULL, 100, 2 },     /* 28 empty nodes */
    { "mesh:6x5x4", "random:90:4", 70, 1 }, /* sparse and empty */
    { "torus:8x8", NULL, 64, 3 },
    { ini, NULL, 20, 1 },
    { ini, NULL, 24, 2 },
  };
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    platform *p = plat(cases[c].plat, cases[c].alloc, 0);
    commgraph *g = random_graph(cases[c].ntasks, 3, 50 + (guint32)c);
    int nn = p->topo->nnodes;
    for (guint32 seed = 1; seed <= 2; seed++) {
      GError *e = NULL;
      g_autofree char *spec = g_strdup_printf("random+kl:t=%d,eps=0,passes=1000", cases[c].t);
      mapping *start = run("random", g, p, seed, &e);
      mapping *m = run(spec, g, p, seed, &e);
      cr_assert_not_null(m, "%s", e ? e->message : "");
      int64_t hb = route_hop_bytes(g, p, m->node);
      cr_assert_leq(hb, route_hop_bytes(g, p, start->node), "%s on %s", spec, cases[c].plat);
      int *task_on = g_new(int, nn);
      for (int v = 0; v < nn; v++)
        task_on[v] = -1;
      for (int i = 0; i < g->n; i++)
        task_on[m->node[i]] = i;
      for (int i = 0; i < p->nalloc; i++)
        for (int j = i + 1; j < p->nalloc; j++) {
          int u = p->alloc[i], v = p->alloc[j], a = task_on[u], b = task_on[v];
          if ((a < 0 && b < 0) || route_hops(p->router, u, v) > cases[c].t)
            continue;
          if (a >= 0)
            m->node[a] = v;
          if (b >= 0)
            m->node[b] = u;
          int64_t swapped = route_hop_bytes(g, p, m->node);
          if (a >= 0)
            m->node[a] = u;
          if (b >= 0)
            m->node[b] = v;
          cr_assert_geq(swapped, hb, "%s on %s, seed %u: swapping nodes %d and %d gains %"
                        G_GINT64_FORMAT, spec, cases[c].plat, seed, u, v, hb - swapped);
        }
      g_free(task_on);
      mapping_free(m), mapping_free(start);
    }
    commgraph_free(g);
    platform_free(p);
  }
}
