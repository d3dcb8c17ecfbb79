/* bench_metrics.c - how fast are the static metrics? A seeded random graph
 * of 1M directed edges among 32,768 tasks on a 32x32x32 torus, with the
 * identity and a random mapping; also a 3D stencil. Prints edges/s.
 * Usage: build/bench/bench_metrics [edges] (default 1000000). */
#include <stdio.h>
#include <stdlib.h>

#include "mapping/metrics.h"

static double now(void) { return (double)g_get_monotonic_time() / 1e6; }

static void run(const char *label, const commgraph *g, const platform *p, const mapping *m)
{
  metrics *x = NULL;
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now();
    metrics_free(x);
    x = metrics_compute(g, p, m);
    best = MIN(best, now() - t0);
  }
  printf("%-34s edges %8d  avg hops %6.3f  time %7.1f ms  %6.1f M edges/s  %6.1f M hops/s\n",
         label, x->edges, x->avg_hops, best * 1e3, x->edges / best / 1e6,
         (double)x->total_hops / best / 1e6);
  metrics_free(x);
}

int main(int argc, char **argv)
{
  int nedges = argc > 1 ? atoi(argv[1]) : 1000000;
  GError *e = NULL;
  platform *p = platform_load("torus:32x32x32", &e);
  int n = p->topo->nnodes;
  GRand *rng = g_rand_new_with_seed(1);
  int *src = g_new(int, nedges), *dst = g_new(int, nedges);
  int64_t *bytes = g_new(int64_t, nedges);
  for (int i = 0; i < nedges; i++) {
    src[i] = g_rand_int_range(rng, 0, n);
    dst[i] = g_rand_int_range(rng, 0, n);
    bytes[i] = g_rand_int_range(rng, 1, 1 << 20);
  }
  commgraph *g = commgraph_from_edges(n, nedges, src, dst, bytes, NULL);
  mapping *id = mapping_identity(p, n, &e);
  mapping *rnd = mapping_copy(id);
  for (int i = n - 1; i > 0; i--) {
    int j = g_rand_int_range(rng, 0, i + 1), t = rnd->node[i];
    rnd->node[i] = rnd->node[j];
    rnd->node[j] = t;
  }
  printf("static metrics on torus:32x32x32 (%d nodes, %d links)\n", n, p->topo->nlinks);
  run("random graph, identity mapping", g, p, id);
  run("random graph, random mapping", g, p, rnd);
  /* 7-point periodic stencil, 6 edges per task */
  int dims[3] = { 32, 32, 32 };
  int64_t sb[3] = { 4096, 4096, 4096 };
  commgraph *st = commgraph_stencil(3, dims, TRUE, sb);
  run("3D stencil, identity mapping", st, p, id);
  run("3D stencil, random mapping", st, p, rnd);
  commgraph_free(st);
  commgraph_free(g);
  mapping_free(id);
  mapping_free(rnd);
  platform_free(p);
  g_rand_free(rng);
  g_free(src);
  g_free(dst);
  g_free(bytes);
  return 0;
}
