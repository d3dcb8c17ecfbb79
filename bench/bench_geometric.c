/* bench_geometric.c - reproduces rows of deveci-geometric Table 1
 * (Section 5.1): td-dimensional stencil tasks (mesh- or torus-connected,
 * nearest neighbours) one-to-one onto pd-dimensional block-allocated
 * meshes/tori, AverageHops (Eqn. 2 = metrics avg_hops) per ordering, next
 * to the paper's values; and the time of `geometric` on the largest rows.
 *
 * Usage: bench_geometric [--quick] [--row N [--n TASKS]]
 * Prints a Markdown table (bench/README.md, "Geometric (deveci-geometric
 * Table 1)"). Times are wall clock of strategy_run, one run each.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "stencil-gen.h"

typedef struct row {
  int n, pd, td;
  /* paper: H Z FZ MFZ for Mesh-Mesh, Mesh-Torus, Torus-Torus (-1 = none) */
  double paper[3][4];
} row;

static const row rows[] = {
  { 262144, 3, 2, { { 2.56, 3.30, 1.97, -1 }, { 2.50, 3.28, 1.88, -1 }, { 2.55, 3.40, 1.89, -1 } } },
  { 32768, 3, 1, { { 1.00, 2.00, 1.33, 1.04 }, { 1.00, 1.99, 1.32, 1.04 }, { 1.00, 1.99, 1.32, 1.04 } } },
  { 4096, 3, 4, { { 3.46, 3.54, 2.57, -1 }, { 3.18, 3.54, 2.14, -1 }, { 3.80, 4.50, 2.38, -1 } } },
  { 262144, 3, 6, { { 7.15, 4.50, 6.00, -1 }, { 6.23, 4.50, 5.43, -1 }, { 8.97, 6.63, 6.25, -1 } } },
  { 262144, 2, 3, { { 11.55, 13.45, 10.67, -1 }, { 10.79, 13.45, 9.31, -1 }, { 14.03, 17.81, 11.17, -1 } } },
  { 65536, 4, 2, { { 1.80, 1.94, 1.91, 1.17 }, { 1.80, 1.91, 1.82, 1.17 }, { 1.82, 1.91, 1.82, 1.18 } } },
  { 4096, 4, 3, { { 2.38, 2.58, 1.60, -1 }, { 2.21, 2.58, 1.38, -1 }, { 2.37, 3.00, 1.42, -1 } } },
  { 32768, 5, 3, { { 2.38, 2.55, 1.46, -1 }, { 2.27, 2.55, 1.31, -1 }, { 2.37, 2.83, 1.33, -1 } } },
  { 1048576, 5, 2, { { 1.96, 2.43, 1.27, -1 }, { 1.94, 2.42, 1.24, -1 }, { 1.95, 2.44, 1.24, -1 } } },
  { 32768, 5, 1, { { 1.00, 2.00, 1.07, 1.00 }, { 1.00, 1.99, 1.06, 1.00 }, { 1.00, 1.99, 1.06, 1.00 } } },
};

static const char *orderings[] = { "hilbert", "z", "fz", "mfz" };

static int iroot(int n, int k)
{
  int r = (int)llround(pow(n, 1.0 / k));
  for (int c = r - 1; c <= r + 1; c++) {
    int64_t v = 1;
    for (int i = 0; i < k; i++)
      v *= c;
    if (v == n)
      return c;
  }
  return -1;
}

static double run_one(const commgraph *g, const platform *p, const double *coords, int td,
                      const char *ordering, double *secs)
{
  GError *e = NULL;
  char spec[64];
  g_snprintf(spec, sizeof spec, "geometric:ordering=%s", ordering);
  strategy_pipeline *pl = strategy_parse(spec, &e);
  gint64 t0 = g_get_monotonic_time();
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1,
                                                 .coords = coords, .coord_dims = td },
                            &e);
  *secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  if (!m) {
    fprintf(stderr, "%s: %s\n", spec, e->message);
    return NAN;
  }
  metrics *mt = metrics_compute(g, p, m);
  double v = mt->avg_hops;
  metrics_free(mt);
  mapping_free(m);
  strategy_pipeline_free(pl);
  return v;
}

int main(int argc, char **argv)
{
  gboolean quick = FALSE;
  int only = -1, n_override = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0)
      quick = TRUE;
    else if (strcmp(argv[i], "--row") == 0 && i + 1 < argc)
      only = atoi(argv[++i]);
    else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc)
      n_override = atoi(argv[++i]); /* another task count for --row */
  }
  static const char *kinds[3] = { "Mesh to Mesh", "Mesh to Torus", "Torus to Torus" };
  printf("| tasks | pd | td | case | H (paper) | Z (paper) | FZ (paper) | MFZ (paper) | "
         "geometric time (fz) |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int r = 0; r < (int)G_N_ELEMENTS(rows); r++) {
    row wr = rows[r];
    if (n_override > 0)
      wr.n = n_override;
    const row *w = &wr;
    if ((only >= 0 && r != only) || (quick && w->n > 32768))
      continue;
    int tk = iroot(w->n, w->td), nk = iroot(w->n, w->pd);
    g_assert(tk > 0 && nk > 0);
    int tdims[16];
    for (int d = 0; d < w->td; d++)
      tdims[d] = tk;
    for (int k = 0; k < 3; k++) {
      double *coords = NULL;
      commgraph *g = bench_stencil(w->td, tdims, k == 2, 1000, &coords);
      GString *spec = g_string_new(k == 0 ? "mesh:" : "torus:");
      for (int d = 0; d < w->pd; d++)
        g_string_append_printf(spec, d ? "x%d" : "%d", nk);
      GError *e = NULL;
      platform *p = platform_load(spec->str, &e);
      g_assert(p);
      printf("| %d | %d | %d | %s", w->n, w->pd, w->td, kinds[k]);
      double tfz = 0;
      for (int o = 0; o < 4; o++) {
        gboolean mfz_applies = w->pd > w->td && w->pd % w->td == 0;
        if (o == 3 && !mfz_applies) {
          printf(" | -");
          continue;
        }
        double secs;
        double v = run_one(g, p, coords, w->td, orderings[o], &secs);
        if (o == 2)
          tfz = secs;
        if (w->paper[k][o] >= 0)
          printf(" | %.2f (%.2f)", v, w->paper[k][o]);
        else
          printf(" | %.2f", v);
      }
      printf(" | %.3f s |\n", tfz);
      fflush(stdout);
      g_string_free(spec, TRUE);
      platform_free(p);
      commgraph_free(g);
      g_free(coords);
    }
  }
  return 0;
}
