/* bench_scale.c - mappings at scale when rank numbers hide the structure:
 * mapsim's strategies against the `scotch` strategy and Scotch's command
 * `scotch_gmap -Cd`, same run, measured with metrics_compute and the lower
 * bounds of mapping/bounds.h.
 *
 * stencils: periodic (on tori) and open (on meshes) 2D 512^2, 3D 32^3 and
 *   64^3, 4D 16^4 halo exchanges, and 32^3 periodic tasks on a 64x32x16
 *   torus; 1000 bytes per message each way; ranks renumbered by a seeded
 *   random permutation (Fisher-Yates, GRand seed 1), so nothing can be read
 *   from rank numbers.
 * mesh: process graphs of an unstructured 3D mesh. N points uniform at
 *   random in the unit cube (GRand seed 7), each joined to its 12 nearest
 *   points (symmetrized: the node graph of a Delaunay-like mesh, average
 *   degree about 14); the mesh graph is partitioned by Scotch into P parts
 *   (mesh_partition: SCOTCH_graphPart with Scotch's recursive
 *   bipartitioning strategy, SCOTCH_STRATRECURSIVE, 3% imbalance, seed 1;
 *   with Scotch's default, multilevel k-way strategy, 99% of the time went
 *   to its k-way Fiduccia-Mattheyses refinement, kgraphMapFm (perf), and
 *   the 2M-point mesh was not partitioned into 32,768 parts after 54
 *   minutes); the process graph is the quotient: part a sends part b 64
 *   bytes per mesh edge between them. P = 4096 (N = 524,288) on
 *   torus:16x16x16 and P = 32768 (N = 2,097,152) on torus:32x32x32, ranks
 *   in Scotch's part order. The kNN graph of 2M points takes about 50 s,
 *   its partition into 32,768 parts about 3.5 minutes; --cache keeps the
 *   process graphs.
 *
 * scaling: every registered strategy alone on 4,096, 32,768 and 262,144
 *   ranks (the kNN graph of as many random points, the renumbered periodic
 *   3D stencil for the grid heuristics) on the cube torus of as many nodes,
 *   and hier also on the k-ary 3-tree of as many nodes; each run in a child
 *   process stopped after 60 s of processor time (a size is not run when
 *   the one before took more than 60/8 s): the measured reach of `mapsim
 *   strategies`.
 *
 * Usage: bench_scale [stencils|mesh|scaling] [--quick] [--only PLATFORM] [--scotch-max N]
 *                    [--cache DIR] [--keep] [-s SPEC ...]
 *   -s adds a pipeline to the columns (default: portfolio, scotch,
 *   scotch_gmap; scaling: only the rows of the strategies named);
 *   --scotch-max skips Scotch above N ranks (default 40000: the
 *   262,144-rank runs take more than 20 minutes); --quick runs only the
 *   cases up to 65,536 ranks (scaling: up to 32,768); --only runs the
 *   stencils and meshes on platforms whose name contains PLATFORM; --cache
 *   keeps the mesh process graphs in DIR (MatrixMarket) and reads them from
 *   there on the next run.
 * Output: Markdown tables for bench/README.md ("Mappings at scale").
 */
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gmap.h"
#include "mapping/bounds.h"
#include "util/output.h"

/* Relabels the ranks of g by a seeded random permutation. */
static commgraph *renumber(const commgraph *g, guint32 seed)
{
  int n = g->n;
  int *label = g_new(int, n);
  for (int i = 0; i < n; i++)
    label[i] = i;
  GRand *rng = g_rand_new_with_seed(seed);
  for (int i = n - 1; i > 0; i--) {
    int j = g_rand_int_range(rng, 0, i + 1), t = label[i];
    label[i] = label[j];
    label[j] = t;
  }
  g_rand_free(rng);
  int *src = g_new(int, g->nedges + 1), *dst = g_new(int, g->nedges + 1);
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
      src[e] = label[i], dst[e] = label[g->adj[e]];
  commgraph *r = commgraph_from_edges(n, g->nedges, src, dst, g->bytes, g->msgs);
  g_free(src);
  g_free(dst);
  g_free(label);
  return r;
}

typedef struct column {
  const char *name;  /* pipeline, or "scotch_gmap" */
} column;

/* One case: every column's time and quality, against the bound. */
static void run_case(const char *label, const commgraph *g, const char *plat, GPtrArray *cols,
                     int scotch_max, const char *work, GString *log, gboolean stencil)
{
  GError *e = NULL;
  platform *p = platform_load(plat, &e);
  if (!p) {
    fprintf(stderr, "%s: %s\n", plat, e->message);
    g_clear_error(&e);
    return;
  }
  bounds b;
  bounds_compute(g, p, &b);
  int64_t total = commgraph_total_bytes(g);
  double lb_hops = (double)b.hop_bytes / (double)total;
  for (guint c = 0; c < cols->len; c++) {
    const char *spec = g_ptr_array_index(cols, c);
    gboolean is_scotch = strcmp(spec, "scotch") == 0 || strcmp(spec, "scotch_gmap") == 0;
    if (is_scotch && g->n > scotch_max) {
      printf("| %s | %s | %s | not run (more than %d ranks) | | | |\n", label, plat, spec,
             scotch_max);
      continue;
    }
    result r;
    if (strcmp(spec, "scotch_gmap") == 0) {
      char tag[64];
      g_snprintf(tag, sizeof tag, "case%u", g_str_hash(label) ^ g_str_hash(plat));
      r = run_gmap(g, p, work, tag, log);
    } else {
      r = run_strategy(spec, g, p);
    }
    if (!r.ok) {
      printf("| %s | %s | %s | failed | | | |\n", label, plat, spec);
      continue;
    }
    double hops = (double)r.hop_bytes / (double)total;
    if (stencil)
      printf("| %s | %s | %s | %.2f s (%.2f s) | %.3f | %.3f | %+.1f%%%s |\n", label, plat, spec,
             r.secs, r.cpu,
             hops, lb_hops, 100.0 * (hops / lb_hops - 1), r.over ? " (over capacity)" : "");
    else
      printf("| %s | %s | %s | %.2f s (%.2f s) | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT
             " | %+.1f%%%s |\n", label, plat, spec, r.secs, r.cpu, r.hop_bytes, b.hop_bytes,
             100.0 * ((double)r.hop_bytes / (double)b.hop_bytes - 1),
             r.over ? " (over capacity)" : "");
    fflush(stdout);
  }
  platform_free(p);
}

static void stencils(GPtrArray *cols, gboolean quick, const char *only, int scotch_max,
                     const char *work, GString *log)
{
  static const struct {
    const char *label;
    int nd, dims[4];
    gboolean periodic;
    const char *plat;
  } cases[] = {
    { "3D 32^3 periodic", 3, { 32, 32, 32 }, TRUE, "torus:32x32x32" },
    { "3D 32^3 open", 3, { 32, 32, 32 }, FALSE, "mesh:32x32x32" },
    { "3D 32^3 periodic", 3, { 32, 32, 32 }, TRUE, "torus:64x32x16" },
    { "4D 16^4 periodic", 4, { 16, 16, 16, 16 }, TRUE, "torus:16x16x16x16" },
    { "4D 16^4 open", 4, { 16, 16, 16, 16 }, FALSE, "mesh:16x16x16x16" },
    { "2D 512^2 periodic", 2, { 512, 512 }, TRUE, "torus:512x512" },
    { "2D 512^2 open", 2, { 512, 512 }, FALSE, "mesh:512x512" },
    { "3D 64^3 periodic", 3, { 64, 64, 64 }, TRUE, "torus:64x64x64" },
    { "3D 64^3 open", 3, { 64, 64, 64 }, FALSE, "mesh:64x64x64" },
  };
  printf("Renumbered stencils: average hops (bytes-weighted) against the lower bound\n\n"
         "| tasks | platform | strategy | wall (processor) time | avg hops | lower bound | above bound |\n"
         "|---|---|---|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    int n = 1;
    for (int d = 0; d < cases[i].nd; d++)
      n *= cases[i].dims[d];
    if ((quick && n > 65536) || (only && !strstr(cases[i].plat, only)))
      continue;
    commgraph *st = commgraph_stencil(cases[i].nd, cases[i].dims, cases[i].periodic, NULL);
    commgraph *g = renumber(st, 1);
    run_case(cases[i].label, g, cases[i].plat, cols, scotch_max, work, log, TRUE);
    commgraph_free(g);
    commgraph_free(st);
  }
}

/* ---- unstructured mesh process graphs ---- */

typedef struct pt {
  double x[3];
} pt;

/* The k nearest neighbours of every point (uniform cell grid, searched in
 * growing shells until the k-th distance is certain), symmetrized. */
static commgraph *knn_graph(const pt *p, int n, int k)
{
  int side = MAX(1, (int)cbrt((double)n / 2.0)); /* about 2 points per cell */
  int ncell = side * side * side;
  int *start = g_new0(int, ncell + 1), *order = g_new(int, n), *cell = g_new(int, n);
  for (int i = 0; i < n; i++) {
    int c[3];
    for (int d = 0; d < 3; d++)
      c[d] = MIN(side - 1, (int)(p[i].x[d] * side));
    cell[i] = c[0] + side * (c[1] + side * c[2]);
    start[cell[i] + 1]++;
  }
  for (int c = 0; c < ncell; c++)
    start[c + 1] += start[c];
  int *fill = g_memdup2(start, sizeof(int) * (size_t)ncell);
  for (int i = 0; i < n; i++)
    order[fill[cell[i]]++] = i;
  g_free(fill);
  int *src = g_new(int, 2 * (size_t)n * k), *dst = g_new(int, 2 * (size_t)n * k);
  int64_t *w = g_new(int64_t, 2 * (size_t)n * k);
  int m = 0;
  double *bd = g_new(double, k);
  int *bi = g_new(int, k);
  for (int i = 0; i < n; i++) {
    int cnt = 0;
    int ci[3] = { cell[i] % side, cell[i] / side % side, cell[i] / side / side };
    for (int r = 0; r < side; r++) {
      /* shell r: cells at Chebyshev distance r */
      for (int dz = -r; dz <= r; dz++)
        for (int dy = -r; dy <= r; dy++)
          for (int dx = -r; dx <= r; dx++) {
            if (MAX(abs(dx), MAX(abs(dy), abs(dz))) != r)
              continue;
            int x = ci[0] + dx, y = ci[1] + dy, z = ci[2] + dz;
            if (x < 0 || y < 0 || z < 0 || x >= side || y >= side || z >= side)
              continue;
            int c = x + side * (y + side * z);
            for (int q = start[c]; q < start[c + 1]; q++) {
              int j = order[q];
              if (j == i)
                continue;
              double d2 = 0;
              for (int d = 0; d < 3; d++)
                d2 += (p[i].x[d] - p[j].x[d]) * (p[i].x[d] - p[j].x[d]);
              if (cnt < k || d2 < bd[cnt - 1]) {
                int a = cnt < k ? cnt++ : k - 1;
                while (a > 0 && bd[a - 1] > d2)
                  bd[a] = bd[a - 1], bi[a] = bi[a - 1], a--;
                bd[a] = d2, bi[a] = j;
              }
            }
          }
      /* every point beyond shell r is at least r / side away */
      if (cnt == k && bd[k - 1] <= ((double)r / side) * ((double)r / side))
        break;
    }
    for (int a = 0; a < cnt; a++) {
      src[m] = i, dst[m] = bi[a], w[m++] = 1;
      src[m] = bi[a], dst[m] = i, w[m++] = 1;
    }
  }
  /* an edge found from both ends is summed (weight 2): count it once */
  commgraph *g = commgraph_from_edges(n, m, src, dst, w, NULL);
  for (int e = 0; e < g->nedges; e++)
    g->bytes[e] = 1;
  g_free(bd);
  g_free(bi);
  g_free(src);
  g_free(dst);
  g_free(w);
  g_free(start);
  g_free(order);
  g_free(cell);
  return g;
}

/* Scotch's k-way partition of the mesh (SCOTCH_graphPart, the default
 * strategy of SCOTCH_stratGraphMapBuild with SCOTCH_STRATDEFAULT,
 * 3% imbalance), in a private seeded single-thread context (seed 1). */
static gboolean mesh_partition(const commgraph *mesh, int nparts, int *part, GError **error)
{
  scotch_graph sg = { 0 };
  SCOTCH_Strat strat;
  gboolean ok = scotch_graph_build(&sg, mesh, error) && scotch_graph_context(&sg, 1, error);
  SCOTCH_stratInit(&strat);
  ok = ok && SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATRECURSIVE, nparts, 0.03) == 0;
  SCOTCH_Num *tab = g_new(SCOTCH_Num, mesh->n);
  ok = ok && SCOTCH_graphPart(sg.use, nparts, &strat, tab) == 0;
  for (int i = 0; ok && i < mesh->n; i++)
    part[i] = (int)tab[i];
  if (!ok && error && !*error)
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "SCOTCH_graphPart failed");
  g_free(tab);
  SCOTCH_stratExit(&strat);
  scotch_graph_free(&sg);
  return ok;
}

/* The process graph of the mesh of n points partitioned into nparts. */
static commgraph *mesh_process_graph(int n, int nparts, double *part_secs)
{
  GRand *rng = g_rand_new_with_seed(7);
  pt *p = g_new(pt, n);
  for (int i = 0; i < n; i++)
    for (int d = 0; d < 3; d++)
      p[i].x[d] = g_rand_double(rng);
  g_rand_free(rng);
  gint64 t0 = g_get_monotonic_time();
  commgraph *mesh = knn_graph(p, n, 12);
  g_free(p);
  fprintf(stderr, "%d points: kNN graph (%d edges) in %.1f s\n", n, mesh->nedges,
          (double)(g_get_monotonic_time() - t0) / 1e6);
  int *part = g_new(int, n);
  GError *e = NULL;
  t0 = g_get_monotonic_time();
  if (!mesh_partition(mesh, nparts, part, &e)) {
    fprintf(stderr, "partition: %s\n", e->message);
    g_clear_error(&e);
    commgraph_free(mesh);
    g_free(part);
    return NULL;
  }
  *part_secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  int *src = g_new(int, mesh->nedges + 1), *dst = g_new(int, mesh->nedges + 1);
  int64_t *bytes = g_new(int64_t, mesh->nedges + 1);
  int m = 0;
  for (int i = 0; i < n; i++)
    for (int e2 = mesh->xadj[i]; e2 < mesh->xadj[i + 1]; e2++)
      if (part[i] != part[mesh->adj[e2]])
        src[m] = part[i], dst[m] = part[mesh->adj[e2]], bytes[m++] = 64;
  commgraph *q = commgraph_from_edges(nparts, m, src, dst, bytes, NULL);
  fprintf(stderr, "%d parts: quotient in %.1f s\n", nparts,
          (double)(g_get_monotonic_time() - t0) / 1e6 - *part_secs);
  g_free(src);
  g_free(dst);
  g_free(bytes);
  g_free(part);
  commgraph_free(mesh);
  return q;
}

static void meshes(GPtrArray *cols, gboolean quick, const char *only, int scotch_max,
                   const char *work, GString *log, const char *cache)
{
  static const struct {
    int points, parts;
    const char *plat;
  } cases[] = {
    { 524288, 4096, "torus:16x16x16" },
    { 2097152, 32768, "torus:32x32x32" },
  };
  printf("\nUnstructured 3D mesh partitioned by Scotch: hop-bytes of the process graph\n\n"
         "| process graph | platform | strategy | wall (processor) time | hop-bytes | lower bound | above bound |\n"
         "|---|---|---|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    if ((quick && cases[i].parts > 4096) || (only && !strstr(cases[i].plat, only)))
      continue;
    double secs = 0;
    char *path = cache ? g_strdup_printf("%s/mesh-%d-%d.mtx", cache, cases[i].points,
                                         cases[i].parts) : NULL;
    commgraph *g = path && g_file_test(path, G_FILE_TEST_EXISTS) ? commgraph_load(path, NULL)
                                                                 : NULL;
    if (!g) {
      g = mesh_process_graph(cases[i].points, cases[i].parts, &secs);
      if (g && path)
        commgraph_save(g, 0, path, NULL, NULL);
    }
    g_free(path);
    if (!g)
      continue;
    char label[128];
    g_snprintf(label, sizeof label, "%d points into %d parts (%d edges)", cases[i].points,
               cases[i].parts, g->nedges);
    if (secs > 0)
      fprintf(stderr, "%s: partitioned in %.1f s\n", label, secs);
    run_case(label, g, cases[i].plat, cols, MAX(scotch_max, cases[i].parts), work, log, FALSE);
    commgraph_free(g);
  }
}

/* ---- how far each strategy scales ---- */

/* How a timed run ended: done, or why it has no time. */
typedef enum { RUN_DONE, RUN_STOPPED, RUN_REFUSED, RUN_FAILED } run_end;

/* One strategy alone (a refiner from its start) on g in a child process
 * stopped after `limit` seconds of processor time (RLIMIT_CPU), so that
 * the reach does not depend on the machine's load, or after 5 x `limit`
 * of wall time: Scotch's calls cannot be interrupted from inside, so only
 * a process boundary stops every strategy. The child reports
 * STRATEGY_ERROR_INPUT (inputs it cannot use) by its exit status. */
static run_end timed_run(const strategy *s, const commgraph *g, const platform *p, int limit,
                         double *secs, double *cpu)
{
  fflush(stdout);
  gint64 t0 = g_get_monotonic_time();
  pid_t pid = fork();
  if (pid < 0)
    return RUN_FAILED;
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* no orphan when the bench is stopped */
    struct rlimit cpu_limit = { (rlim_t)limit, (rlim_t)limit }, no_core = { 0, 0 };
    setrlimit(RLIMIT_CORE, &no_core);
    setrlimit(RLIMIT_CPU, &cpu_limit);
    GError *e = NULL;
    strategy_pipeline *pl = strategy_parse(s->name, &e);
    strategy_request rq = { .pipeline = pl, .g = g, .p = p, .seed = 1 };
    mapping *m = pl ? strategy_run(&rq, &e) : NULL;
    _exit(m ? 0 : g_error_matches(e, STRATEGY_ERROR, STRATEGY_ERROR_INPUT) ? 2 : 1);
  }
  gint64 end = t0 + (gint64)limit * 5000000;
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, WNOHANG, &ru) == 0) {
    if (g_get_monotonic_time() >= end)
      kill(pid, SIGKILL);
    g_usleep(5000);
  }
  *secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL))
    return RUN_STOPPED;
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 1)
    return RUN_FAILED;
  return WEXITSTATUS(status) == 2 ? RUN_REFUSED : RUN_DONE;
}

/* One row of the scaling table: s at every size, on the kNN graph, or on
 * the renumbered stencil when it refuses that. */
static void scaling_row(const strategy *s, const char *label, commgraph *const *knn,
                        commgraph *const *grid, platform *const *plat, int nsides, int limit)
{
  printf("| %s |", label);
  gboolean over = FALSE;
  double last = 0;
  for (int i = 0; i < nsides; i++) {
    if (over) {
      printf(" - |");
      continue;
    }
    if (last > limit / 8.0) { /* 8 times the ranks would not fit in the limit */
      printf(" not run |");
      over = TRUE;
      continue;
    }
    double secs = 0, cpu = 0;
    run_end r = timed_run(s, knn[i], plat[i], limit, &secs, &cpu);
    const char *on = "";
    if (r == RUN_REFUSED) {
      r = timed_run(s, grid[i], plat[i], limit, &secs, &cpu);
      on = " (grid)";
    }
    if (r == RUN_STOPPED && secs >= 5 * limit) {
      printf(" > %d wall |", 5 * limit);
      over = TRUE;
    } else if (r == RUN_STOPPED) {
      printf(" > %d |", limit);
      over = TRUE;
    } else if (r != RUN_DONE) {
      printf(" %s |", r == RUN_REFUSED ? "refused" : "failed");
      over = TRUE;
    } else {
      printf(" %.2f (%.2f)%s |", secs, cpu, on);
      last = cpu;
    }
    fflush(stdout);
  }
  printf("\n");
}

/* Every registered strategy at growing sizes: a kNN graph of random points
 * (12 neighbours, as the mesh above) on the cube torus of that size, or,
 * for the grid heuristics, the renumbered periodic 3D stencil. */
static void scaling(int limit, const int *sides, int nsides, GPtrArray *only)
{
  printf("Wall (processor) time of every strategy alone in s (a refiner from its start), "
         "stopped at %d s of processor time\n\n"
         "| strategy |", limit);
  for (int i = 0; i < nsides; i++)
    printf(" %d ranks |", sides[i] * sides[i] * sides[i]);
  printf("\n|---|");
  for (int i = 0; i < nsides; i++)
    printf("---:|");
  printf("\n");
  commgraph **knn = g_new0(commgraph *, nsides), **grid = g_new0(commgraph *, nsides);
  platform **plat = g_new0(platform *, nsides), **tree = g_new0(platform *, nsides);
  for (int i = 0; i < nsides; i++) {
    int n = sides[i] * sides[i] * sides[i];
    GRand *rng = g_rand_new_with_seed(7);
    pt *p = g_new(pt, n);
    for (int j = 0; j < n; j++)
      for (int d = 0; d < 3; d++)
        p[j].x[d] = g_rand_double(rng);
    g_rand_free(rng);
    knn[i] = knn_graph(p, n, 12);
    g_free(p);
    int dims[3] = { sides[i], sides[i], sides[i] };
    commgraph *st = commgraph_stencil(3, dims, TRUE, NULL);
    grid[i] = renumber(st, 1);
    commgraph_free(st);
    char *spec = g_strdup_printf("torus:%dx%dx%d", sides[i], sides[i], sides[i]);
    plat[i] = platform_load(spec, NULL);
    g_free(spec);
    spec = g_strdup_printf("fattree:k=%d:n=3", sides[i]);
    tree[i] = platform_load(spec, NULL);
    g_free(spec);
  }
  for (int k = 0; strategy_registry[k]; k++) {
    const strategy *s = strategy_registry[k];
    if (only->len && !g_ptr_array_find_with_equal_func(only, s->name, g_str_equal, NULL))
      continue;
    scaling_row(s, s->name, knn, grid, plat, nsides, limit);
    if (strcmp(s->name, "hier") == 0) /* it groups down a switch hierarchy */
      scaling_row(s, "hier (fat tree fattree:k=S:n=3, S^3 nodes)", knn, grid, tree, nsides,
                  limit);
  }
  for (int i = 0; i < nsides; i++) {
    commgraph_free(knn[i]);
    commgraph_free(grid[i]);
    platform_free(plat[i]);
    platform_free(tree[i]);
  }
  g_free(knn);
  g_free(grid);
  g_free(plat);
  g_free(tree);
}

int main(int argc, char **argv)
{
  gboolean quick = FALSE, keep = FALSE, do_stencils = TRUE, do_mesh = TRUE, do_scaling = FALSE;
  int scotch_max = 40000;
  const char *only = NULL, *cache = NULL;
  GPtrArray *cols = g_ptr_array_new();
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0)
      quick = TRUE;
    else if (strcmp(argv[i], "--keep") == 0)
      keep = TRUE;
    else if (strcmp(argv[i], "--scotch-max") == 0 && i + 1 < argc)
      scotch_max = atoi(argv[++i]);
    else if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc)
      cache = argv[++i];
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
      g_ptr_array_add(cols, argv[++i]);
    else if (strcmp(argv[i], "stencils") == 0)
      do_mesh = FALSE;
    else if (strcmp(argv[i], "mesh") == 0)
      do_stencils = FALSE;
    else if (strcmp(argv[i], "scaling") == 0)
      do_scaling = TRUE;
    else {
      fprintf(stderr, "usage: bench_scale [stencils|mesh|scaling] [--quick] [--only PLATFORM] "
                      "[--scotch-max N] [--cache DIR] [--keep] [-s SPEC ...]\n");
      return 2;
    }
  }
  if (do_scaling) {
    static const int sides[] = { 16, 32, 64 };
    scaling(60, sides, quick ? 2 : 3, cols);
    g_ptr_array_free(cols, TRUE);
    return 0;
  }
  if (cols->len == 0) {
    g_ptr_array_add(cols, "portfolio");
    g_ptr_array_add(cols, "scotch");
    g_ptr_array_add(cols, "scotch_gmap");
  }
  char *work = g_dir_make_tmp("bench-scale-XXXXXX", NULL);
  GString *log = g_string_new(NULL);
  if (do_stencils)
    stencils(cols, quick, only, scotch_max, work, log);
  if (do_mesh)
    meshes(cols, quick, only, scotch_max, work, log, cache);
  printf("\nCommands run (in %s%s):\n\n```\n%s```\n", work, keep ? "" : ", removed", log->str);
  if (!keep)
    output_remove_tree(work);
  g_string_free(log, TRUE);
  g_free(work);
  g_ptr_array_free(cols, TRUE);
  return 0;
}
