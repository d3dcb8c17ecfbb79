/* test_scale.c - the strategies for large and renumbered graphs: the
 * spectral embedding (`embed`) deterministic for a seed at any thread
 * count and exact on grids, multilevel refinement (`ml`) never worse than
 * its start, geometric on recognized grids optimal where the bound is
 * tight, no mapping below the lower bounds of mapping/bounds.h, and the
 * portfolio's time limit, its stop at a mapping that meets the bound and
 * its default list. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "mapping/bounds.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "stencil.h"
#include "studytest.h"
#include "testutil.h"

static mapping *run_with(const char *spec, const commgraph *g, const platform *p, guint32 seed,
                         GString *report, const progress *prog, GError **e)
{
  strategy_pipeline *pl = strategy_parse(spec, e);
  cr_assert_not_null(pl, "%s: %s", spec, *e ? (*e)->message : "");
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = seed,
                                                 .report = report, .prog = prog },
                            e);
  strategy_pipeline_free(pl);
  if (m)
    cr_assert(mapping_validate(m, p, NULL), "%s", spec);
  return m;
}

static mapping *run(const char *spec, const commgraph *g, const platform *p, guint32 seed)
{
  GError *e = NULL;
  mapping *m = run_with(spec, g, p, seed, NULL, NULL, &e);
  cr_assert_not_null(m, "%s on %s: %s", spec, p->name, e ? e->message : "");
  return m;
}

static int64_t hop_bytes_of(const commgraph *g, const platform *p, const mapping *m)
{
  metrics *x = metrics_compute(g, p, m);
  int64_t hb = x->hop_bytes;
  metrics_free(x);
  return hb;
}

/* ---- embed ---- */

/* A 3D grid graph of 8x8x8 (open), renumbered: its Laplacian's three
 * smallest eigenvalues coincide, their eigenvectors are any rotation of the
 * cosines along the three axes; aligned and followed by geometric they
 * place the grid exactly on the mesh of the same shape. */
Test(embed, exact_on_open_grids)
{
  int dims[3] = { 8, 8, 8 };
  commgraph *st = st_stencil(3, dims, FALSE, NULL), *g = st_renumbered(st, 3);
  platform *p = tu_platform("mesh:8x8x8");
  bounds b;
  bounds_compute(g, p, &b);
  mapping *m = run("embed", g, p, 1);
  cr_assert_eq(hop_bytes_of(g, p, m), b.hop_bytes, "embed: %" G_GINT64_FORMAT " > bound %"
               G_GINT64_FORMAT, hop_bytes_of(g, p, m), b.hop_bytes);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
  commgraph_free(st);
}

typedef struct par_job {
  const commgraph *g;
  const platform *p;
  mapping *m;
} par_job;

static void run_job(gpointer data, gpointer user)
{
  par_job *j = data;
  GError *e = NULL;
  j->m = run_with("embed", j->g, j->p, 7, NULL, NULL, &e);
  g_clear_error(&e);
}

/* One seed, one embedding: repeated, run by 1 or 4 threads at once (ARPACK
 * holds global state: calls must not interleave), or inside a portfolio of
 * 1 or 3 threads. */
Test(embed, deterministic_for_a_seed_and_any_thread_count)
{
  commgraph *g = st_random_graph(300, 3, 11);
  platform *p = tu_platform("torus:8x8x5");
  mapping *ref = run("embed", g, p, 7);
  mapping *again = run("embed", g, p, 7);
  cr_assert_arr_eq(ref->node, again->node, sizeof(int) * (size_t)g->n);
  mapping_free(again);
  par_job jobs[4];
  GThreadPool *pool = g_thread_pool_new(run_job, NULL, 4, TRUE, NULL);
  for (int i = 0; i < 4; i++) {
    jobs[i] = (par_job){ g, p, NULL };
    g_thread_pool_push(pool, &jobs[i], NULL);
  }
  g_thread_pool_free(pool, FALSE, TRUE);
  for (int i = 0; i < 4; i++) {
    cr_assert_not_null(jobs[i].m);
    cr_assert_arr_eq(jobs[i].m->node, ref->node, sizeof(int) * (size_t)g->n, "thread %d", i);
    mapping_free(jobs[i].m);
  }
  for (int threads = 1; threads <= 3; threads += 2) {
    char *spec = g_strdup_printf("portfolio:try=[embed|embed:dims=2|embed:tol=0.01],threads=%d",
                                 threads);
    mapping *m = run(spec, g, p, 7);
    mapping *one = run("portfolio:try=[embed|embed:dims=2|embed:tol=0.01],threads=1", g, p, 7);
    cr_assert_arr_eq(m->node, one->node, sizeof(int) * (size_t)g->n, "%s", spec);
    mapping_free(m);
    mapping_free(one);
    g_free(spec);
  }
  /* another seed starts Lanczos elsewhere: a valid mapping all the same */
  mapping *other = run("embed", g, p, 8);
  mapping_free(other);
  mapping_free(ref);
  platform_free(p);
  commgraph_free(g);
}

/* Above direct= ranks the piece is coarsened first: on a renumbered
 * 16x16x16 open grid (4,096 ranks, six levels down to 64) the smoothed
 * vectors still place it within 10% of the bound (1.3% measured), never
 * below it, one mapping per seed whatever the thread count. */
Test(embed, multilevel_near_the_bound_and_deterministic)
{
  int dims[3] = { 16, 16, 16 };
  commgraph *st = st_stencil(3, dims, FALSE, NULL), *g = st_renumbered(st, 5);
  platform *p = tu_platform("mesh:16x16x16");
  bounds b;
  bounds_compute(g, p, &b);
  mapping *m = run("embed:direct=64", g, p, 3);
  int64_t hb = hop_bytes_of(g, p, m);
  cr_assert_geq(hb, b.hop_bytes);
  cr_assert_leq((double)hb, 1.10 * (double)b.hop_bytes, "multilevel embed: %" G_GINT64_FORMAT
                " against bound %" G_GINT64_FORMAT, hb, b.hop_bytes);
  mapping *again = run("embed:direct=64", g, p, 3);
  cr_assert_arr_eq(m->node, again->node, sizeof(int) * (size_t)g->n);
  mapping *three = run("portfolio:try=[embed:direct=64|embed:direct=100],threads=3", g, p, 3);
  mapping *one = run("portfolio:try=[embed:direct=64|embed:direct=100],threads=1", g, p, 3);
  cr_assert_arr_eq(three->node, one->node, sizeof(int) * (size_t)g->n);
  mapping_free(three);
  mapping_free(one);
  mapping_free(again);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
  commgraph_free(st);
}

/* A star coarsens by one pair a level: above direct= it is embedded by
 * Lanczos as it is, the mapping the default direct= gives, instead of
 * through as many levels as ranks. */
Test(embed, a_star_that_does_not_coarsen_goes_to_lanczos)
{
  enum { N = 300 };
  int src[N - 1], dst[N - 1];
  int64_t bytes[N - 1];
  for (int i = 1; i < N; i++)
    src[i - 1] = 0, dst[i - 1] = i, bytes[i - 1] = 100 + i;
  commgraph *g = commgraph_from_edges(N, N - 1, src, dst, bytes, NULL);
  platform *p = tu_platform("torus:10x10x3");
  mapping *direct = run("embed", g, p, 4);
  mapping *ml = run("embed:direct=64", g, p, 4);
  cr_assert_arr_eq(ml->node, direct->node, sizeof(int) * N);
  mapping_free(ml);
  mapping_free(direct);
  platform_free(p);
  commgraph_free(g);
}

/* A graph in pieces (two rings and isolated ranks) still embeds. */
Test(embed, pieces_and_isolated_ranks)
{
  int n = 90;
  int src[200], dst[200];
  int64_t bytes[200];
  int k = 0;
  for (int i = 0; i < 40; i++) /* ring 0..39 */
    src[k] = i, dst[k] = (i + 1) % 40, bytes[k++] = 100;
  for (int i = 0; i < 40; i++) /* ring 40..79 */
    src[k] = 40 + i, dst[k] = 40 + (i + 1) % 40, bytes[k++] = 100;
  /* 80..89 talk to nobody */
  commgraph *g = commgraph_from_edges(n, k, src, dst, bytes, NULL);
  platform *p = tu_platform("torus:10x9");
  mapping *m = run("embed", g, p, 1);
  bounds b;
  bounds_compute(g, p, &b);
  cr_assert_geq(hop_bytes_of(g, p, m), b.hop_bytes);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* ---- geometric on recognized grids ---- */

/* Renumbered stencils on tori and meshes of their own shape: the grid is
 * recognized and the placement meets the (tight) lower bound - by
 * geometric on sides of powers of two (its bisections then never cut a
 * slab of the grid), by affine on any sides. */
Test(geometric, renumbered_stencils_meet_the_bound)
{
  static const struct {
    const char *spec;
    int nd, dims[4];
    gboolean periodic;
    const char *plat;
  } cases[] = {
    { "geometric", 2, { 16, 8 }, TRUE, "torus:16x8" },
    { "geometric", 2, { 8, 4 }, FALSE, "mesh:4x8" },
    { "geometric", 3, { 8, 8, 4 }, TRUE, "torus:8x8x4" },
    { "geometric", 3, { 4, 4, 8 }, FALSE, "mesh:4x4x8" },
    { "geometric", 4, { 4, 4, 4, 2 }, TRUE, "torus:4x4x4x2" },
    { "geometric", 4, { 2, 4, 2, 4 }, FALSE, "mesh:2x4x2x4" },
    { "affine", 2, { 12, 10 }, TRUE, "torus:12x10" },
    { "affine", 2, { 12, 10 }, FALSE, "mesh:10x12" },
    { "affine", 3, { 8, 6, 5 }, TRUE, "torus:8x6x5" },
    { "affine", 3, { 6, 6, 6 }, FALSE, "mesh:6x6x6" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    commgraph *st = st_stencil(cases[i].nd, cases[i].dims, cases[i].periodic, NULL);
    commgraph *g = st_renumbered(st, (guint32)i + 5);
    platform *p = tu_platform(cases[i].plat);
    bounds b;
    bounds_compute(g, p, &b);
    mapping *m = run(cases[i].spec, g, p, 1);
    cr_assert_eq(hop_bytes_of(g, p, m), b.hop_bytes, "%s on %s: %" G_GINT64_FORMAT " above %"
                 G_GINT64_FORMAT, cases[i].spec, cases[i].plat, hop_bytes_of(g, p, m),
                 b.hop_bytes);
    mapping_free(m);
    platform_free(p);
    commgraph_free(g);
    commgraph_free(st);
  }
}

/* ---- ml ---- */

/* ml never leaves its start worse (its refiner keeps the best prefix on
 * every level), whatever the refiner; from random it gains a lot. */
Test(ml, never_worse_than_its_start)
{
  commgraph *g = st_random_graph(512, 4, 21);
  const char *plats[] = { "torus:8x8x8", "mesh:16x32", "haec:4x4x4" };
  const char *refiners[] = { "kl", "wh", "mmc" };
  for (size_t k = 0; k < G_N_ELEMENTS(plats); k++) {
    platform *p = tu_platform_with(plats[k], k == 2 ? "random:60:3" : NULL, 0);
    commgraph *gg = k == 2 ? st_random_graph(60, 4, 21) : NULL;
    const commgraph *use = gg ? gg : g;
    mapping *start = run("random", use, p, 3);
    int64_t before = hop_bytes_of(use, p, start);
    for (size_t r = 0; r < G_N_ELEMENTS(refiners); r++) {
      char *spec = g_strdup_printf("random+ml:refine=%s", refiners[r]);
      mapping *m = run(spec, use, p, 3);
      int64_t after = hop_bytes_of(use, p, m);
      if (strcmp(refiners[r], "mmc") != 0)
        cr_assert_leq(after, before, "%s on %s", spec, plats[k]);
      mapping_free(m);
      g_free(spec);
    }
    mapping *m = run("random+ml", use, p, 3);
    cr_assert_lt(hop_bytes_of(use, p, m), before * 9 / 10, "random+ml on %s", plats[k]);
    mapping_free(m);
    mapping_free(start);
    platform_free(p);
    commgraph_free(gg);
  }
  commgraph_free(g);
}

/* ---- bounds ---- */

/* No mapping of the new strategies goes below the lower bounds. */
Test(bounds, new_strategies_never_below)
{
  static const struct {
    const char *spec, *alloc;
    int cores;
  } plats[] = {
    { "torus:4x4x4", NULL, 0 }, { "mesh:6x12", NULL, 0 }, { "haec:4x4x4", NULL, 0 },
    { "torus:8x8", "random:40:3", 0 }, { "torus:4x4x2", NULL, 3 },
  };
  const char *specs[] = { "embed", "embed+ml", "geometric+ml", "random+ml:refine=wh",
                          "portfolio" };
  GRand *r = g_rand_new_with_seed(77);
  for (int round = 0; round < 10; round++) {
    int k = round % (int)G_N_ELEMENTS(plats);
    platform *p = tu_platform_with(plats[k].spec, plats[k].alloc, plats[k].cores);
    int cap = (int)platform_capacity(p);
    int n = g_rand_int_range(r, MAX(2, cap / 3), cap + 1);
    commgraph *g = round % 2 ? st_random_graph(n, g_rand_int_range(r, 1, 6), (guint32)round)
                             : NULL;
    if (!g) { /* a renumbered stencil of the first n ranks' grid */
      int dims[2] = { 4, MAX(1, n / 4) };
      commgraph *st = st_stencil(2, dims, round % 4 == 0, NULL);
      g = st_renumbered(st, (guint32)round);
      commgraph_free(st);
    }
    bounds b;
    bounds_compute(g, p, &b);
    for (size_t s = 0; s < G_N_ELEMENTS(specs); s++) {
      GError *e = NULL;
      mapping *m = run_with(specs[s], g, p, (guint32)round, NULL, NULL, &e);
      if (!m) { /* geometric needs a grid */
        cr_assert(strstr(specs[s], "geometric"), "%s on %s: %s", specs[s], p->name,
                  e ? e->message : "?");
        g_clear_error(&e);
        continue;
      }
      metrics *x = metrics_compute(g, p, m);
      cr_assert_geq(x->hop_bytes, b.hop_bytes, "%s on %s", specs[s], p->name);
      cr_assert_geq(x->max_link_bytes, b.max_link_bytes, "%s on %s", specs[s], p->name);
      metrics_free(x);
      mapping_free(m);
    }
    commgraph_free(g);
    platform_free(p);
  }
  g_rand_free(r);
}

/* ---- portfolio ---- */

/* A candidate that meets the lower bound ends the search; the report says
 * so, and the kept mapping is that candidate's. */
Test(portfolio, stops_at_a_mapping_that_meets_the_bound)
{
  int dims[3] = { 8, 8, 8 };
  commgraph *st = st_stencil(3, dims, TRUE, NULL), *g = st_renumbered(st, 9);
  platform *p = tu_platform("torus:8x8x8");
  GString *report = g_string_new(NULL);
  GError *e = NULL;
  mapping *m = run_with("portfolio:threads=1", g, p, 1, report, NULL, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  bounds b;
  bounds_compute(g, p, &b);
  cr_assert_eq(hop_bytes_of(g, p, m), b.hop_bytes);
  cr_assert(strstr(report->str, "kept geometric+ml"), "%s", report->str);
  cr_assert(strstr(report->str, "meets the lower bound"), "%s", report->str);
  /* the later candidates: not needed, the same at any thread count */
  cr_assert(strstr(report->str, "scotch+kl: not needed"), "%s", report->str);
  cr_assert_null(strstr(report->str, "(cut)"), "%s", report->str);
  g_string_free(report, TRUE);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
  commgraph_free(st);
}

/* Under a time limit a long candidate stops at its best so far: tabu of
 * ten million iterations ends within the limit (plus its polling), the
 * other candidate is kept or compared, and the report names the limit. */
Test(portfolio, time_limit_keeps_the_best_so_far)
{
  commgraph *g = st_random_graph(64, 4, 5);
  platform *p = tu_platform("torus:4x4x4");
  GString *report = g_string_new(NULL);
  GError *e = NULL;
  gint64 t0 = g_get_monotonic_time();
  mapping *m = run_with("portfolio:try=[identity+tabu:iters=10000000|greedy],time=0.5", g, p,
                        1, report, NULL, &e);
  double secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  cr_assert_not_null(m, "%s", e ? e->message : "");
  cr_assert_lt(secs, 5.0, "took %.1f s", secs);
  cr_assert(strstr(report->str, "time limit of 0.5 s reached"), "%s", report->str);
  cr_assert(strstr(report->str, "identity+tabu:iters=10000000: hop_bytes"), "%s", report->str);
  /* tabu was cut: marked so, or, kept, as what it found by the limit (the
   * kept candidate is never marked cut) */
  const char *tabu = strstr(report->str, "identity+tabu:iters=10000000: hop_bytes");
  const char *end = strchr(tabu, '\n');
  g_autofree char *line = g_strndup(tabu, (gsize)(end - tabu));
  gboolean kept = strstr(report->str, "kept identity+tabu") != NULL;
  cr_assert(g_str_has_suffix(line, kept ? " (its best at the time limit)" : " (cut)"), "%s",
            report->str);
  mapping *gm = run("greedy", g, p, 1);
  cr_assert_leq(hop_bytes_of(g, p, m), hop_bytes_of(g, p, gm));
  mapping_free(gm);
  g_string_free(report, TRUE);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* An interrupt before the start: nothing runs, "interrupted". */
Test(portfolio, interrupt_stops_every_candidate)
{
  commgraph *g = st_random_graph(64, 4, 5);
  platform *p = tu_platform("torus:4x4x4");
  volatile sig_atomic_t stop = 1;
  progress prog = { NULL, NULL, &stop };
  GError *e = NULL;
  gint64 t0 = g_get_monotonic_time();
  mapping *m = run_with("portfolio:try=[identity+tabu:iters=10000000|embed+ml]", g, p, 1, NULL,
                        &prog, &e);
  cr_assert_lt((double)(g_get_monotonic_time() - t0) / 1e6, 5.0);
  cr_assert_null(m);
  cr_assert_not_null(e);
  cr_assert(strstr(e->message, "interrupted"), "%s", e->message);
  g_clear_error(&e);
  platform_free(p);
  commgraph_free(g);
}

/* The default list leaves out the pipelines whose steps do not reach the
 * graph's size, and says so. */
Test(portfolio, default_list_by_size)
{
  commgraph *g = st_random_graph(64, 4, 5);
  platform *p = tu_platform("torus:4x4x4");
  GString *report = g_string_new(NULL);
  mapping *m = NULL;
  GError *e = NULL;
  m = run_with("portfolio", g, p, 1, report, NULL, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  cr_assert_not(strstr(report->str, "left out"), "%s", report->str);
  cr_assert(strstr(report->str, "scotch+kl: hop_bytes"), "%s", report->str);
  for (int i = 0; strategy_registry[i]; i++)
    cr_assert(strategy_registry[i]->cost, "%s: no cost in its row", strategy_registry[i]->name);
  g_string_free(report, TRUE);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* ---- interrupts ---- */

/* `mapsim map` on 32,768 ranks (a 3D stencil in rank order, so that the
 * identity's metrics the command computes first are cheap), SIGINT after
 * 0.5 s: it exits 130 within a few seconds of the signal (within one on a
 * quiet machine; the tests share it), whatever step was running. */
Test(interrupt, map_stops_soon_after_sigint, .timeout = 600)
{
#ifdef __SANITIZE_ADDRESS__
  cr_skip_test("under AddressSanitizer reading the 196,608-edge input alone takes minutes "
               "(97%% of the time in the sanitizer's internal_strlen), so the signal never "
               "reaches a strategy; the release build runs this test");
#endif
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = g_build_filename(tmp, "stencil32k.mtx", NULL);
  commgraph *g = st_stencil(3, (int[]){ 32, 32, 32 }, TRUE, NULL);
  cr_assert(commgraph_save(g, 0, file, NULL, NULL));
  commgraph_free(g);
  const char *specs[] = { "embed+ml", "random+wh+kl", "portfolio:try=[random+kl|embed]" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    const char *argv[] = { g_getenv("MAPSIM"), "map", "-q", "-p", "torus:32x32x32", "-m", file,
                           "-s", specs[i], NULL };
    GPid pid = spawn_quiet(argv);
    g_usleep(500000);
    int status = 0;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) { /* finished before the signal: nothing to interrupt */
      cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", specs[i]);
      g_spawn_close_pid(pid);
      continue;
    }
    gint64 t0 = g_get_monotonic_time();
    kill(pid, SIGINT);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    double secs = (double)(g_get_monotonic_time() - t0) / 1e6;
    g_spawn_close_pid(pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "%s: status %d", specs[i],
              status);
    cr_assert_lt(secs, 5.0, "%s: %.2f s after SIGINT", specs[i], secs);
  }
}

/* --time-limit reaches the portfolio of `mapsim map`; a bad value is bad
 * input. */
Test(portfolio, cli_time_limit)
{
  g_autofree char *cg = tu_data("maplib/cg.p2p.size.csv");
  char *out = NULL, *err = NULL;
  const char *args[] = { "map", "-q", "-p", "torus:4x4x4", "-m", cg, "-s",
                         "portfolio:try=[identity+tabu:iters=100000000|greedy]", "--time-limit",
                         "0.5", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  cr_assert(strstr(out, "time limit of 0.5 s reached"), "%s", out);
  g_free(out), g_free(err);
  const char *bad[] = { "map", "-p", "torus:4x4x4", "-m", cg, "-s", "portfolio", "--time-limit",
                        "-1", NULL };
  cr_assert_eq(tu_run(&out, &err, bad), 2);
  cr_assert(strstr(err, "--time-limit -1: expected a number of seconds > 0"), "%s", err);
  g_free(out), g_free(err);
}
