/* test_scotch_map.c - the Scotch-based code of mapping/: the several-ranks-
 * per-node partition (exact capacity, repair by least loss, determinism),
 * Scotch's mesh/torus terminal numbering against ours, and the `scotch`
 * strategy (valid mappings on torus, mesh, HAEC Box, a sparse allocation
 * and a several-cores case; its hop-bytes checked against Scotch's gmtst). */
#include <stdio.h>
#include <string.h>

#include "mapping/metrics.h"
#include "mapping/scotch-util.h"
#include "mapping/strategy.h"
#include "stencil.h"
#include "testutil.h"

static mapping *run_spec(const char *spec, const commgraph *g, const platform *p, guint32 seed)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  cr_assert_not_null(pl, "%s: %s", spec, e ? e->message : "?");
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p,
                                                 .seed = seed },
                            &e);
  cr_assert_not_null(m, "%s on %s: %s", spec, p->name, e ? e->message : "?");
  cr_assert(mapping_validate(m, p, &e), "%s: %s", spec, e ? e->message : "?");
  strategy_pipeline_free(pl);
  return m;
}

/* Undirected weight between different parts. */
static int64_t cut(const commgraph *g, const int *part)
{
  int64_t c = 0;
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
      if (part[i] != part[g->adj[e]])
        c += g->bytes[e];
  return c;
}

/* A path 0-1-...-7 all in part 0, 4 parts of 2: the repair moves the ends
 * first and then their neighbours (loss 0), giving contiguous pairs. */
Test(partition, repair_by_least_loss)
{
  int src[14], dst[14];
  int64_t b[14];
  for (int i = 0; i < 7; i++) {
    src[2 * i] = i, dst[2 * i] = i + 1, b[2 * i] = 1;
    src[2 * i + 1] = i + 1, dst[2 * i + 1] = i, b[2 * i + 1] = 1;
  }
  commgraph *g = commgraph_from_edges(8, 14, src, dst, b, NULL);
  int part[8] = { 0 };
  partition_repair(g, 4, 2, part);
  int want[8] = { 1, 1, 2, 2, 3, 3, 0, 0 };
  for (int i = 0; i < 8; i++)
    cr_assert_eq(part[i], want[i], "task %d in part %d, expected %d", i, part[i], want[i]);
  commgraph_free(g);
}

/* 64 ranks of a 4x4x4 periodic stencil into 16 nodes x 4 cores. */
Test(partition, exact_capacity_and_deterministic)
{
  platform *p = tu_platform("torus:2x2x4");
  GError *e = NULL;
  cr_assert(platform_set_cores(p, 4, &e));
  int dims[3] = { 4, 4, 4 };
  commgraph *g = st_stencil(3, dims, TRUE, NULL);
  int a[64], b[64], c[64], load[16] = { 0 };
  cr_assert(strategy_partition(g, p->nalloc, p->cores_per_node, 1, a, &e), "%s", e ? e->message : "?");
  cr_assert(strategy_partition(g, p->nalloc, p->cores_per_node, 1, b, &e));
  cr_assert(strategy_partition(g, p->nalloc, p->cores_per_node, 2, c, &e));
  for (int i = 0; i < 64; i++) {
    cr_assert(a[i] >= 0 && a[i] < 16);
    load[a[i]]++;
    cr_assert_eq(a[i], b[i], "rank %d: seed 1 gave parts %d and %d", i, a[i], b[i]);
  }
  for (int k = 0; k < 16; k++)
    cr_assert_eq(load[k], 4, "part %d holds %d ranks, expected 4", k, load[k]);
  /* rank blocks of 4 (x rings) keep 16 x 4 of the 192 undirected edges: the
   * cut is 128 edges x 2 directions x 1000 bytes; Scotch must do as well */
  int block[64];
  for (int i = 0; i < 64; i++)
    block[i] = i / 4;
  cr_assert_eq(cut(g, block), 256 * 1000);
  cr_assert_leq(cut(g, a), cut(g, block), "Scotch cut %ld > block cut %ld", (long)cut(g, a),
                (long)cut(g, block));
  (void)c;
  commgraph_free(g);
  platform_free(p);
}

/* Fewer ranks than slots, a partition that cannot be balanced by Scotch
 * alone (one heavy clique): still no part above capacity. */
Test(partition, under_full_and_clique)
{
  platform *p = tu_platform("mesh:3x3");
  GError *e = NULL;
  cr_assert(platform_set_cores(p, 3, &e));
  commgraph *g = st_random_graph(20, 6, 5);
  int part[20], load[9] = { 0 };
  cr_assert(strategy_partition(g, p->nalloc, p->cores_per_node, 3, part, &e), "%s", e ? e->message : "?");
  for (int i = 0; i < 20; i++)
    load[part[i]]++;
  for (int k = 0; k < 9; k++)
    cr_assert_leq(load[k], 3);
  commgraph_free(g);
  platform_free(p);
}

/* Scotch numbers mesh/torus terminals with dimension 0 fastest: the
 * distance between terminals a and b equals topo_hops(a, b) for all pairs. */
static void check_numbering(const char *spec)
{
  platform *p = tu_platform(spec);
  const topo *t = p->topo;
  SCOTCH_Arch arch;
  SCOTCH_Num dims[TOPO_MAX_DIMS];
  for (int d = 0; d < t->ndims; d++)
    dims[d] = t->shape[d];
  cr_assert_eq(SCOTCH_archInit(&arch), 0);
  /* meshes through mesh2D/mesh3D: Scotch 7.0.3's archMeshX measures wrap
   * distances, so mapping/strategies/scotch.c does not use it */
  int rc = t->conn[0] == TOPO_TORUS ? SCOTCH_archTorusX(&arch, t->ndims, dims)
           : t->ndims == 2          ? SCOTCH_archMesh2(&arch, dims[0], dims[1])
                                    : SCOTCH_archMesh3(&arch, dims[0], dims[1], dims[2]);
  cr_assert_eq(rc, 0);
  cr_assert_eq(SCOTCH_archSize(&arch), t->nnodes);
  SCOTCH_ArchDom da, db;
  for (int a = 0; a < t->nnodes; a++) {
    cr_assert_eq(SCOTCH_archDomTerm(&arch, &da, a), 0);
    cr_assert_eq(SCOTCH_archDomNum(&arch, &da), a);
    for (int b = 0; b < t->nnodes; b++) {
      cr_assert_eq(SCOTCH_archDomTerm(&arch, &db, b), 0);
      cr_assert_eq(SCOTCH_archDomDist(&arch, &da, &db), topo_hops(t, a, b),
                   "%s: terminals %d %d", spec, a, b);
    }
  }
  SCOTCH_archExit(&arch);
  platform_free(p);
}

Test(scotch, terminal_numbering_is_ours)
{
  check_numbering("torus:4x4x4");
  check_numbering("mesh:4x3x5");
  check_numbering("torus:5x3x4x2");
  check_numbering("torus:2x3x2x3x2");
  check_numbering("mesh:3x5");
}

/* Every placed node is allocated and holds at most cores ranks (validated in
 * run_spec); the same seed gives the same mapping. */
static void check_valid(const char *spec, const char *alloc, int cores, const commgraph *g,
                        const char *strat)
{
  platform *p = tu_platform(spec);
  GError *e = NULL;
  if (alloc)
    cr_assert(platform_set_allocation(p, alloc, &e), "%s", e ? e->message : "?");
  cr_assert(platform_set_cores(p, cores, &e));
  mapping *m1 = run_spec(strat, g, p, 7);
  mapping *m2 = run_spec(strat, g, p, 7);
  cr_assert_eq(memcmp(m1->node, m2->node, sizeof(int) * (size_t)g->n), 0,
               "%s on %s: not deterministic", strat, spec);
  mapping_free(m1);
  mapping_free(m2);
  platform_free(p);
}

Test(scotch, valid_on_every_platform_kind)
{
  int dims[3] = { 4, 4, 4 };
  commgraph *st = st_stencil(3, dims, TRUE, NULL);
  commgraph *irr = st_random_graph(64, 5, 11);
  commgraph *small = st_random_graph(30, 4, 12);
  const char *strats[] = { "scotch", "scotch:target=deco", "scotch:target=deco2" };
  for (int s = 0; s < 3; s++) {
    check_valid("torus:4x4x4", NULL, 1, st, strats[s]);
    check_valid("mesh:4x4x4", NULL, 1, irr, strats[s]);
    check_valid("haec:4x4x4", NULL, 1, st, strats[s]);
    check_valid("torus:4x4x4", "random:40:7", 1, small, strats[s]);
    check_valid("torus:2x2x4", NULL, 4, st, strats[s]);
    check_valid("mesh:4x4x4", NULL, 1, small, strats[s]); /* tasks < nodes */
  }
  commgraph_free(st);
  commgraph_free(irr);
  commgraph_free(small);
}

static int64_t hop_bytes(const commgraph *g, const platform *p, const mapping *m)
{
  metrics *mt = metrics_compute(g, p, m);
  int64_t hb = mt->hop_bytes;
  metrics_free(mt);
  return hb;
}

/* The 4x4x4 periodic stencil on torus:4x4x4: identity is optimal (every
 * edge 1 hop: 384 edges x 1000 bytes); Scotch gets within 2x of it and far
 * below a random placement. */
Test(scotch, stencil_quality)
{
  platform *p = tu_platform("torus:4x4x4");
  int dims[3] = { 4, 4, 4 };
  commgraph *g = st_stencil(3, dims, TRUE, NULL);
  mapping *id = run_spec("identity", g, p, 1);
  mapping *sc = run_spec("scotch", g, p, 1);
  mapping *rnd = run_spec("random", g, p, 1);
  cr_assert_eq(hop_bytes(g, p, id), 384000);
  int64_t hs = hop_bytes(g, p, sc);
  cr_assert_leq(hs, 2 * 384000, "scotch hop-bytes %ld", (long)hs);
  cr_assert_lt(hs, hop_bytes(g, p, rnd) / 2);
  mapping_free(id);
  mapping_free(sc);
  mapping_free(rnd);
  commgraph_free(g);
  platform_free(p);
}

/* Runs gmtst on (graph, target, mapping) and returns CommExpan's integer
 * sum (the value in parentheses). */
static int64_t gmtst_expan(const scotch_graph *sg, const char *target, const mapping *m)
{
  char *dir = tu_tmp_dir();
  char *grf = g_build_filename(dir, "g.grf", NULL);
  char *tgt = g_build_filename(dir, "t.tgt", NULL);
  char *map = g_build_filename(dir, "m.map", NULL);
  GError *e = NULL;
  cr_assert(scotch_graph_save(sg, grf, &e));
  cr_assert(g_file_set_contents(tgt, target, -1, NULL));
  GString *ms = g_string_new(NULL);
  g_string_append_printf(ms, "%d\n", m->ntasks);
  for (int i = 0; i < m->ntasks; i++)
    g_string_append_printf(ms, "%d %d\n", i, m->node[i]);
  cr_assert(g_file_set_contents(map, ms->str, -1, NULL));
  g_string_free(ms, TRUE);
  char *argv[] = { "gmtst", grf, tgt, map, NULL };
  char *out = NULL;
  int status = -1;
  cr_assert(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                         NULL, &out, NULL, &status, &e),
            "gmtst: %s", e ? e->message : "?");
  const char *s = strstr(out, "CommExpan=");
  cr_assert_not_null(s, "gmtst printed: %s", out);
  s = strchr(s, '(');
  cr_assert_not_null(s);
  int64_t v = g_ascii_strtoll(s + 1, NULL, 10);
  g_free(out);
  g_unlink(grf);
  g_unlink(tgt);
  g_unlink(map);
  g_rmdir(dir);
  g_free(grf);
  g_free(tgt);
  g_free(map);
  g_free(dir);
  return v;
}

/* The hop-bytes of Scotch's own mapping, measured by mapsim, equal what
 * Scotch's gmtst says for it (symmetric traffic, unscaled weights). */
Test(scotch, hop_bytes_match_gmtst)
{
  const char *specs[] = { "torus:4x4x4", "mesh:4x4x4" };
  const char *tgts[] = { "torus3D 4 4 4\n", "mesh3D 4 4 4\n" };
  int dims[3] = { 4, 4, 4 };
  int64_t bytes[3] = { 100, 250, 700 };
  commgraph *g = st_stencil(3, dims, FALSE, bytes);
  for (int k = 0; k < 2; k++) {
    platform *p = tu_platform(specs[k]);
    mapping *m = run_spec("scotch", g, p, 3);
    scotch_graph sg;
    GError *e = NULL;
    cr_assert(scotch_graph_build(&sg, g, &e));
    int64_t hb = hop_bytes(g, p, m);
    cr_assert_gt(hb, 0);
    cr_assert_eq(gmtst_expan(&sg, tgts[k], m), hb, "%s: mapsim %ld", specs[k], (long)hb);
    scotch_graph_free(&sg);
    mapping_free(m);
    platform_free(p);
  }
  commgraph_free(g);
}
