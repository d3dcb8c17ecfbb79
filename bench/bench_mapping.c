/* bench_mapping.c - speed and quality of the topology-aware strategies
 * (deveci2015 Algorithms 1-3: greedy, wh, mc/mmc; selvitopi's kl) next to
 * the baselines, on 4096 and 32,768 ranks: a periodic 3D stencil, a seeded
 * irregular graph, a sparse allocation and several ranks per node. For each
 * case and strategy it prints one markdown row: run time, and hop-bytes,
 * max link time and max link messages relative to identity. It also times
 * the refiners alone (wh from greedy, one mc refinement from greedy, kl
 * from random), calling the registry rows directly.
 *
 *   bench_mapping [4096|32768|all] [strategies...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/stencil-gen.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"

/* Irregular graph on a 3D grid of tasks: each task talks to `deg` partners
 * at random offsets within +-3 per dimension (periodic) and, with
 * probability 1/8 per edge, to a random far task; bytes 1..64 KiB; then the
 * task ids are block-shuffled (blocks of 8) so that rank order is only
 * partly local, as for a partitioned irregular application. */
static commgraph *irregular(int side, int deg, guint32 seed, double **coords)
{
  int n = side * side * side, ne = n * deg;
  GRand *r = g_rand_new_with_seed(seed);
  int *perm = g_new(int, n), *src = g_new(int, ne), *dst = g_new(int, ne);
  int64_t *bytes = g_new(int64_t, ne), *msgs = g_new(int64_t, ne);
  int nb = n / 8;
  int *bp = g_new(int, nb);
  for (int b = 0; b < nb; b++)
    bp[b] = b;
  for (int b = nb - 1; b > 0; b--) {
    int j = g_rand_int_range(r, 0, b + 1), t = bp[b];
    bp[b] = bp[j], bp[j] = t;
  }
  for (int i = 0; i < n; i++)
    perm[i] = bp[i / 8] * 8 + i % 8;
  *coords = g_new(double, 3 * (size_t)n);
  for (int i = 0; i < n; i++) {
    int x = i % side, y = i / side % side, z = i / side / side;
    (*coords)[3 * (size_t)perm[i]] = x, (*coords)[3 * (size_t)perm[i] + 1] = y;
    (*coords)[3 * (size_t)perm[i] + 2] = z;
    for (int k = 0; k < deg; k++) {
      int e = i * deg + k, j;
      if (g_rand_int_range(r, 0, 8) == 0) {
        j = g_rand_int_range(r, 0, n);
      } else {
        int dx = g_rand_int_range(r, -3, 4), dy = g_rand_int_range(r, -3, 4);
        int dz = g_rand_int_range(r, -3, 4);
        j = (x + dx + side) % side + side * ((y + dy + side) % side + side * ((z + dz + side) % side));
      }
      src[e] = perm[i], dst[e] = perm[j];
      bytes[e] = g_rand_int_range(r, 1, 65536);
      msgs[e] = g_rand_int_range(r, 1, 16);
    }
  }
  commgraph *g = commgraph_from_edges(n, ne, src, dst, bytes, msgs);
  g_free(perm), g_free(src), g_free(dst), g_free(bytes), g_free(msgs), g_free(bp);
  g_rand_free(r);
  return g;
}

typedef struct bcase {
  const char *name;
  const char *plat;
  const char *alloc;
  int cores;
  int kind;  /* 0 stencil, 1 irregular */
  int side;  /* task grid side */
} bcase;

static const bcase cases[] = {
  { "stencil 16^3", "torus:16x16x16", NULL, 1, 0, 16 },
  { "irregular 4096", "torus:16x16x16", NULL, 1, 1, 16 },
  { "irregular 4096, sparse 4096 of 8192", "torus:32x16x16", "random:4096:1", 1, 1, 16 },
  { "stencil 16^3, 4 ranks/node", "torus:16x8x8", NULL, 4, 0, 16 },
  { "stencil 32^3", "torus:32x32x32", NULL, 1, 0, 32 },
  { "irregular 32768", "torus:32x32x32", NULL, 1, 1, 32 },
  { "irregular 32768, sparse 32768 of 65536", "torus:64x32x32", "random:32768:1", 1, 1, 32 },
  { "stencil 32^3, 4 ranks/node", "torus:32x16x16", NULL, 4, 0, 32 },
};

static platform *make_platform(const bcase *c)
{
  GError *e = NULL;
  platform *p = platform_load(c->plat, &e);
  if (p && c->alloc && !platform_set_allocation(p, c->alloc, &e))
    g_clear_pointer(&p, platform_free);
  if (p && c->cores > 1 && !platform_set_cores(p, c->cores, &e))
    g_clear_pointer(&p, platform_free);
  if (!p)
    g_error("%s", e->message);
  return p;
}

static commgraph *make_graph(const bcase *c, double **coords)
{
  if (c->kind == 1)
    return irregular(c->side, 6, 7, coords);
  int dims[3] = { c->side, c->side, c->side };
  return bench_stencil(3, dims, TRUE, 4096, coords);
}

/* Runs `spec`; prints a row; returns its mapping (or NULL). */
static mapping *row(const char *spec, const commgraph *g, const platform *p, const double *coords,
                    const metrics *base)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  if (!pl)
    g_error("%s", e->message);
  gint64 t0 = g_get_monotonic_time();
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1,
                                                 .coords = coords, .coord_dims = 3 },
                            &e);
  double s = (double)(g_get_monotonic_time() - t0) * 1e-6;
  strategy_pipeline_free(pl);
  if (!m) {
    printf("| %s | failed: %s | | | |\n", spec, e->message);
    g_error_free(e);
    return NULL;
  }
  metrics *x = metrics_compute(g, p, m);
  printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", spec, s, (double)x->hop_bytes / base->hop_bytes,
         x->max_link_time / base->max_link_time,
         (double)x->max_link_messages / base->max_link_messages);
  fflush(stdout);
  metrics_free(x);
  return m;
}

/* Times one refiner alone on a copy of `start` (one task per node). */
static void time_refiner(const char *spec, const commgraph *g, const platform *p,
                         const mapping *start)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  mapping *m = mapping_copy(start);
  strategy_ctx ctx = { .g = g, .p = p, .seed = 1, .pipelines = &strategy_runner };
  metrics *before = metrics_compute(g, p, m);
  gint64 t0 = g_get_monotonic_time();
  gboolean ok = pl->steps[0].s->run(&ctx, &pl->steps[0].args, m, &e);
  double s = (double)(g_get_monotonic_time() - t0) * 1e-6;
  metrics *x = metrics_compute(g, p, m);
  if (ok)
    printf("  %-8s alone: %.3f s; hop-bytes x%.3f, max link time x%.3f, max link messages x%.3f\n",
           spec, s, (double)x->hop_bytes / before->hop_bytes,
           x->max_link_time / before->max_link_time,
           (double)x->max_link_messages / before->max_link_messages);
  metrics_free(before);
  metrics_free(x);
  mapping_free(m);
  strategy_pipeline_free(pl);
}

static const char *const default_specs[] = {
  "identity", "random", "hilbert", "scotch", "greedy", "greedy+wh", "greedy+mc", "greedy+mmc",
  "greedy+wh+mc", "kl", "geometric", NULL,
};

static void run_case(const bcase *c, const char *const *specs)
{
  platform *p = make_platform(c);
  double *coords = NULL;
  commgraph *g = make_graph(c, &coords);
  GError *e = NULL;
  mapping *id = mapping_identity(p, g->n, &e);
  metrics *base = metrics_compute(g, p, id);
  printf("\n### %s on %s%s%s, %d cores/node (%d ranks, %d edges)\n\n", c->name, c->plat,
         c->alloc ? ", alloc " : "", c->alloc ? c->alloc : "", p->cores_per_node, g->n, g->nedges);
  printf("| strategy | time (s) | hop-bytes | max link time | max link msgs |\n");
  printf("|---|---:|---:|---:|---:|\n");
  mapping *greedy = NULL;
  for (int i = 0; specs[i]; i++) {
    mapping *m = row(specs[i], g, p, coords, base);
    if (strcmp(specs[i], "greedy") == 0)
      greedy = m;
    else
      mapping_free(m);
  }
  if (greedy && p->cores_per_node == 1) {
    printf("\n");
    time_refiner("wh", g, p, greedy);
    time_refiner("mc", g, p, greedy);
    time_refiner("mmc", g, p, greedy);
  }
  mapping_free(greedy);
  metrics_free(base);
  mapping_free(id);
  g_free(coords);
  commgraph_free(g);
  platform_free(p);
}

int main(int argc, char **argv)
{
  const char *scale = argc > 1 ? argv[1] : "all";
  const char *const *specs = argc > 2 ? (const char *const *)argv + 2 : default_specs;
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    int n = cases[i].side * cases[i].side * cases[i].side;
    if (strcmp(scale, "all") != 0 && atoi(scale) != n)
      continue;
    run_case(&cases[i], specs);
  }
  return 0;
}
