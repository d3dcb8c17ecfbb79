/* bench_bhatele.c - bhatele2010 Table 10.3 rerun: a 1,024-node irregular
 * graph mapped onto 2D meshes of 512x2 .. 32x32 by every heuristic for
 * irregular graphs (Default, BFT, MHT, COCE, COCE+MHT, AFFN), average hops
 * per byte, next to the thesis's values; then the other strategies of the
 * registry that need no grid, and the lower bound.
 *
 * The thesis's graph is a ParFUM 2D unstructured mesh partitioned by METIS
 * into 1,024 parts (Section 10.5). Ours is generated, seeded: one point per
 * cell of a 32 x 32 grid at a random offset (the parts' centroids), each
 * joined to its 6 nearest points (both ways, bytes 1000 to 2000 by
 * distance: nearer parts share longer borders), and numbered by recursive
 * coordinate bisection - METIS numbers nearby parts close together, which
 * is why the default mapping does well (Section 10.6.1). The centroids are
 * the coordinates COCE and AFFN use.
 *
 * Usage: bench_bhatele [--seed N]
 * Output: Markdown tables for bench/README.md ("bhatele2010 Table 10.3").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mapping/bounds.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"

#define SIDE 32
#define N (SIDE * SIDE)
#define K 6

typedef struct pt {
  double x, y;
  int id;
} pt;

static int cmp_x(const void *a, const void *b)
{
  const pt *p = a, *q = b;
  return (p->x > q->x) - (p->x < q->x);
}

static int cmp_y(const void *a, const void *b)
{
  const pt *p = a, *q = b;
  return (p->y > q->y) - (p->y < q->y);
}

/* Recursive coordinate bisection: halves along the wider side. */
static void rcb(pt *p, int n)
{
  if (n <= 1)
    return;
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (int i = 0; i < n; i++) {
    x0 = MIN(x0, p[i].x), x1 = MAX(x1, p[i].x);
    y0 = MIN(y0, p[i].y), y1 = MAX(y1, p[i].y);
  }
  qsort(p, (size_t)n, sizeof(pt), x1 - x0 >= y1 - y0 ? cmp_x : cmp_y);
  rcb(p, n / 2);
  rcb(p + n / 2, n - n / 2);
}

static commgraph *irregular_graph(guint32 seed, double *coords)
{
  GRand *r = g_rand_new_with_seed(seed);
  pt *p = g_new(pt, N);
  for (int i = 0; i < N; i++) {
    p[i].x = i % SIDE + g_rand_double(r);
    p[i].y = i / SIDE + g_rand_double(r);
  }
  rcb(p, N);
  for (int i = 0; i < N; i++)
    p[i].id = i, coords[2 * i] = p[i].x, coords[2 * i + 1] = p[i].y;
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int)), *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *w = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int i = 0; i < N; i++) {
    int best[K];
    double bd[K];
    for (int k = 0; k < K; k++)
      best[k] = -1, bd[k] = INFINITY;
    for (int j = 0; j < N; j++) {
      if (j == i)
        continue;
      double d = hypot(p[i].x - p[j].x, p[i].y - p[j].y);
      for (int k = 0; k < K; k++)
        if (d < bd[k]) {
          memmove(bd + k + 1, bd + k, sizeof(double) * (K - 1 - k));
          memmove(best + k + 1, best + k, sizeof(int) * (K - 1 - k));
          bd[k] = d, best[k] = j;
          break;
        }
    }
    for (int k = 0; k < K; k++) {
      int64_t bytes = (int64_t)(1000 + 1000 * MAX(0.0, 1.5 - bd[k]) / 1.5);
      int a = i, b = best[k];
      g_array_append_val(src, a), g_array_append_val(dst, b), g_array_append_val(w, bytes);
      g_array_append_val(src, b), g_array_append_val(dst, a), g_array_append_val(w, bytes);
    }
  }
  /* commgraph_from_edges sums duplicates: a pair chosen by both ends weighs double */
  commgraph *g = commgraph_from_edges(N, (int)src->len, (int *)(void *)src->data,
                                      (int *)(void *)dst->data, (int64_t *)(void *)w->data, NULL);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(w, TRUE);
  g_free(p);
  g_rand_free(r);
  return g;
}

typedef struct cell {
  double hpb;
  double secs;
} cell;

static cell run(const char *spec, const commgraph *g, const platform *p, const double *coords)
{
  cell c = { NAN, 0 };
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  g_assert(pl);
  gint64 t0 = g_get_monotonic_time();
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1,
                                                 .coords = coords, .coord_dims = 2 },
                            &e);
  c.secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  if (m) {
    metrics *x = metrics_compute(g, p, m);
    c.hpb = (double)x->hop_bytes / (double)commgraph_total_bytes(g);
    metrics_free(x);
  } else {
    fprintf(stderr, "%s on %s: %s\n", spec, p->name, e->message);
  }
  g_clear_error(&e);
  mapping_free(m);
  strategy_pipeline_free(pl);
  return c;
}

int main(int argc, char **argv)
{
  guint32 seed = 1;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
      seed = (guint32)atoi(argv[++i]);
  double *coords = g_new(double, 2 * N);
  commgraph *g = irregular_graph(seed, coords);
  static const char *meshes[] = { "mesh:512x2", "mesh:256x4", "mesh:128x8", "mesh:64x16", "mesh:32x32" };
  /* Table 10.3 of the thesis: Default, BFT, MHT, COCE, COCE+MHT, AFFN */
  static const double thesis[5][6] = {
    { 11.97, 11.67, 22.97, 15.86, 14.85, 14.70 }, { 6.93, 6.57, 11.00, 8.69, 8.28, 7.87 },
    { 5.02, 4.37, 6.27, 5.45, 4.95, 4.77 },       { 4.93, 4.03, 4.59, 4.45, 4.02, 3.92 },
    { 6.28, 4.87, 3.23, 4.66, 3.29, 4.55 },
  };
  static const char *heur[] = { "identity", "bft", "mht", "coce", "coce_mht", "affine" };
  static const char *more[] = { "greedy", "greedy_hoefler", "fhgreedy", "greedy_allc", "pacmap",
                                "bipartition", "scotch", "geometric", "hilbert", "mht+pairs",
                                "affine+kl", "scotch+kl", "greedy+wh+kl" };
  int nmore = (int)G_N_ELEMENTS(more);
  printf("Graph: %d nodes, %d directed edges, %" G_GINT64_FORMAT " bytes (seed %u)\n\n", g->n,
         g->nedges, commgraph_total_bytes(g), seed);
  printf("| mesh | Default | BFT | MHT | COCE | COCE+MHT | AFFN |\n|---|---:|---:|---:|---:|---:|---:|\n");
  cell res[5][6];
  for (int k = 0; k < 5; k++) {
    platform *p = platform_load(meshes[k], NULL);
    printf("| %s |", meshes[k] + 5);
    for (int h = 0; h < 6; h++) {
      res[k][h] = run(heur[h], g, p, coords);
      printf(" %.2f (%.2f) |", res[k][h].hpb, thesis[k][h]);
    }
    printf("\n");
    fflush(stdout);
    platform_free(p);
  }
  printf("\nEach cell: mapsim's average hops per byte (the thesis's Table 10.3 value).\n");
  printf("\nRun time of the six (s, mesh 32x32): ");
  for (int h = 0; h < 6; h++)
    printf("%s %.3f%s", heur[h], res[4][h].secs, h < 5 ? ", " : "\n");
  printf("\nThe rest of the registry that needs no grid, and the lower bound (hops per byte)\n\n"
         "| strategy |");
  for (int k = 0; k < 5; k++)
    printf(" %s |", meshes[k] + 5);
  printf("\n|---|");
  for (int k = 0; k < 5; k++)
    printf("---:|");
  printf("\n");
  for (int s = 0; s <= nmore; s++) {
    printf("| %s |", s < nmore ? more[s] : "**lower bound**");
    for (int k = 0; k < 5; k++) {
      platform *p = platform_load(meshes[k], NULL);
      if (s < nmore) {
        cell c = run(more[s], g, p, coords);
        printf(" %.2f |", c.hpb);
      } else {
        bounds b;
        bounds_compute(g, p, &b);
        printf(" %.2f (%s) |", (double)b.hop_bytes / (double)commgraph_total_bytes(g),
               b.hop_bytes_how);
      }
      platform_free(p);
    }
    printf("\n");
    fflush(stdout);
  }
  commgraph_free(g);
  g_free(coords);
  return 0;
}
