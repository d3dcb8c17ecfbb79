/* test_strategies.c - every registered strategy yields a valid mapping on
 * every platform kind; the refiners never worsen their
 * objective; greedy beats random on the MapLib matrices; strategies are
 * deterministic per seed; small cases with known optima. */
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
  mapping *m = strategy_run_eval(pl, g, p, seed, coords, 3, NULL, NULL, &h.hook, NULL, e);
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

/* Reference kl: the pass of selvitopi recomputed from scratch - every
 * open pair's gain re-evaluated with refine_state_swap_delta before each swap,
 * the largest taken (ties to the lower pair id, pairs numbered as kl
 * numbers them: allocated nodes in order, partners in BFS order). */
static void reference_kl(const strategy_ctx *ctx, int t, double eps, int passes, mapping *m)
{
  const platform *p = ctx->p;
  refine_state st;
  cr_assert(refine_state_init(&st, ctx, m, "reference", NULL));
  GArray *pa = g_array_new(FALSE, FALSE, sizeof(int)), *pb = g_array_new(FALSE, FALSE, sizeof(int));
  node_bfs bfs;
  node_bfs_init(&bfs, p->topo);
  for (int i = 0; i < p->nalloc; i++) {
    int u = p->alloc[i];
    node_bfs_start(&bfs);
    node_bfs_add(&bfs, u);
    for (int v; (v = node_bfs_next(&bfs)) >= 0 && bfs.level <= t;)
      if (p->alloc_index[v] > i) {
        g_array_append_val(pa, u);
        g_array_append_val(pb, v);
      }
  }
  node_bfs_clear(&bfs);
  int np = (int)pa->len, *a = (int *)(void *)pa->data, *b = (int *)(void *)pb->data;
  uint8_t *locked = g_new0(uint8_t, p->topo->nnodes);
  int *log = g_new(int, np + 1);
  int64_t total = refine_state_total(&st);
  for (int pass = 0; pass < passes && total > 0; pass++) {
    memset(locked, 0, (size_t)p->topo->nnodes);
    int nlog = 0, best_len = 0;
    int64_t cum = 0, best = 0;
    for (;;) {
      int bq = -1;
      int64_t bg = 0;
      for (int q = 0; q < np; q++) {
        if (locked[a[q]] || locked[b[q]] || (st.node_task[a[q]] < 0 && st.node_task[b[q]] < 0))
          continue;
        int64_t g = -refine_state_swap_delta(&st, a[q], b[q]);
        if (bq < 0 || g > bg)
          bq = q, bg = g;
      }
      if (bq < 0)
        break;
      refine_state_swap(&st, a[bq], b[bq]);
      locked[a[bq]] = locked[b[bq]] = 1;
      cum += bg;
      log[nlog++] = bq;
      if (cum > best)
        best = cum, best_len = nlog;
    }
    while (nlog > best_len) {
      int q = log[--nlog];
      refine_state_swap(&st, a[q], b[q]);
    }
    total -= best;
    if (best <= 0 || (double)best < eps * (double)(total + best))
      break;
  }
  g_free(locked);
  g_free(log);
  g_array_free(pa, TRUE);
  g_array_free(pb, TRUE);
  refine_state_clear(&st);
}

/* kl's incremental gains (O(1) per pair and moved neighbour, gains kept
 * across passes where nothing changed, per-dimension hop tables) give
 * exactly the swaps of the from-scratch reference: on tori and meshes,
 * with empty allocated nodes, on a one-way ring (asymmetric hops, the
 * route path) and for t = 1..3. */
Test(kl, matches_reference)
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
    const char *plat, *alloc, *spec;
    int ntasks, t;
  } cases[] = {
    { "torus:8x4x4", NULL, "kl", 128, 1 },
    { "torus:8x4x4", NULL, "kl:t=2", 100, 2 },     /* 28 empty nodes */
    { "mesh:6x5x4", "random:90:4", "kl", 70, 1 },  /* sparse and empty */
    { "torus:8x8", NULL, "kl:t=3", 64, 3 },
    { ini, NULL, "kl", 20, 1 },
    { ini, NULL, "kl:t=2", 24, 2 },
  };
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    platform *p = plat(cases[c].plat, cases[c].alloc, 0);
    commgraph *g = random_graph(cases[c].ntasks, 3, 50 + (guint32)c);
    for (guint32 seed = 1; seed <= 2; seed++) {
      GError *e = NULL;
      mapping *start = run("random", g, p, seed, &e);
      cr_assert_not_null(start, "%s", e ? e->message : "");
      strategy_pipeline *pl = strategy_parse(cases[c].spec, &e);
      cr_assert_not_null(pl);
      strategy_ctx ctx = { .g = g, .p = p, .seed = seed, .pipelines = &strategy_runner };
      mapping *mk = mapping_copy(start), *mr = mapping_copy(start);
      cr_assert(pl->steps[0].s->run(&ctx, &pl->steps[0].args, mk, &e), "%s",
                e ? e->message : "");
      reference_kl(&ctx, cases[c].t, 0.001, 100, mr);
      cr_assert_arr_eq(mk->node, mr->node, sizeof(int) * (size_t)g->n, "%s on %s, seed %u",
                       cases[c].spec, cases[c].plat, seed);
      mapping_free(mk), mapping_free(mr), mapping_free(start);
      strategy_pipeline_free(pl);
    }
    commgraph_free(g);
    platform_free(p);
  }
}
