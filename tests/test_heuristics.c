/* test_heuristics.c - the strategies of korndoerfer2021 Section 6.3
 * (MapLib), bhatele2010 Chapters 8-10, tabu and portfolio: pattern
 * detection of the 4D stencil traces, the thesis's affine bound, hand cases
 * with known optima, refiners that never worsen their objective, and the
 * portfolio's choice. */
#include <criterion/criterion.h>
#include <string.h>

#include "mapping/strategies/geometric-private.h"
#include "mapping/grid-private.h"
#include "mapping/grid.h"
#include "mapping/map-util.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "stencil.h"
#include "testutil.h"
#include "traces/trace.h"

#include <json-glib/json-glib.h>

static mapping *run_c(const char *spec, const commgraph *g, const platform *p, guint32 seed,
                      const double *coords, int cd, GString *report)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  cr_assert_not_null(pl, "%s: %s", spec, e ? e->message : "");
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = seed,
                                                 .coords = coords, .coord_dims = cd,
                                                 .report = report },
                            &e);
  cr_assert_not_null(m, "%s on %s: %s", spec, p->name, e ? e->message : "");
  cr_assert(mapping_validate(m, p, NULL), "%s", spec);
  strategy_pipeline_free(pl);
  return m;
}

static mapping *run(const char *spec, const commgraph *g, const platform *p, guint32 seed)
{
  return run_c(spec, g, p, seed, NULL, 0, NULL);
}

static int64_t hop_bytes(const commgraph *g, const platform *p, const mapping *m)
{
  metrics *x = metrics_compute(g, p, m);
  int64_t hb = x->hop_bytes;
  metrics_free(x);
  return hb;
}

static int64_t hb_of(const char *spec, const commgraph *g, const platform *p, guint32 seed)
{
  mapping *m = run(spec, g, p, seed);
  int64_t hb = hop_bytes(g, p, m);
  mapping_free(m);
  return hb;
}

static commgraph *load_app(const char *app)
{
  char *rel = g_strdup_printf("maplib/%s.p2p.count.csv", app);
  char *path = tu_data(rel);
  GError *e = NULL;
  commgraph *g = commgraph_load(path, &e);
  cr_assert_not_null(g, "%s", e ? e->message : "");
  g_free(rel);
  g_free(path);
  return g;
}

/* ---- pattern detection (bhatele2010 Section 8.1) ---- */

/* TraceR's stencil4d traces: 32 ranks are a 2x2x2x4 grid, 64 ranks
 * 2x2x4x4; every heavy edge joins grid neighbours. */
Test(pattern, finds_the_4d_stencil_of_the_traces)
{
  struct {
    const char *dir;
    int n, dims[4];
  } cases[] = {
    { "traces/tracer-stencil4d-32", 32, { 2, 2, 2, 4 } },
    { "traces/tracer-stencil4d-64", 64, { 2, 2, 4, 4 } },
  };
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    char *path = tu_data(cases[c].dir);
    GError *e = NULL;
    trace *t = trace_read_otf2(path, &e);
    cr_assert_not_null(t, "%s: %s", path, e ? e->message : "");
    commgraph *g = trace_commgraph(t, FALSE, NULL, &e);
    trace_free(t);
    cr_assert_not_null(g, "%s: %s", path, e ? e->message : "");
    cr_assert_eq(g->n, cases[c].n);
    double *x = NULL;
    int nd = 0;
    cr_assert(grid_rank_stencil(g, &x, &nd), "%s: no stencil found", path);
    cr_assert_eq(nd, 4, "%s: %d dimensions", path, nd);
    int hi[4] = { 0 };
    for (int r = 0; r < g->n; r++)
      for (int d = 0; d < 4; d++)
        hi[d] = MAX(hi[d], (int)x[r * 4 + d]);
    for (int d = 0; d < 4; d++)
      cr_assert_eq(hi[d] + 1, cases[c].dims[d], "%s: dimension %d", path, d);
    for (int r = 0; r < g->n; r++)
      for (int k = g->xadj[r]; k < g->xadj[r + 1]; k++) {
        int s = g->adj[k], diff = 0;
        if (s == r)
          continue;
        for (int d = 0; d < 4; d++) {
          int a = (int)x[r * 4 + d], b = (int)x[s * 4 + d], dd = abs(a - b);
          if (dd)
            diff++;
          cr_assert(dd <= 1 || dd == cases[c].dims[d] - 1, "ranks %d, %d", r, s);
        }
        cr_assert_eq(diff, 1, "ranks %d and %d are not grid neighbours", r, s);
      }
    g_free(x);
    commgraph_free(g);
    g_free(path);
  }
}

/* ---- the affine bound (bhatele2010 Section 9.1) ---- */

/* The thesis's hops per byte of a 5-point stencil: mean hops of the
 * x-neighbour messages plus mean hops of the y-neighbour messages (2 for
 * the identity on equal shapes). */
static double thesis_hops_per_byte(const mapping *m, const platform *p, int ox, int oy)
{
  double sum[2] = { 0, 0 };
  int cnt[2] = { 0, 0 };
  for (int y = 0; y < oy; y++)
    for (int x = 0; x < ox; x++) {
      int r = x + ox * y;
      if (x + 1 < ox)
        sum[0] += route_hops(p->router, m->node[r], m->node[r + 1]), cnt[0]++;
      if (y + 1 < oy)
        sum[1] += route_hops(p->router, m->node[r], m->node[r + ox]), cnt[1]++;
    }
  return sum[0] / cnt[0] + sum[1] / cnt[1];
}

/* A 9x8 grid on a 6x12 mesh: P_x/O_x + P_y/O_y = 6/9 + 12/8 = 2.167, the
 * loose bound of the affine mapping, is beaten by no heuristic of Chapter
 * 9, nor by pairwise exchanges or tabu search. */
Test(affine, bound_never_beaten)
{
  int dims[2] = { 9, 8 };
  commgraph *g = commgraph_stencil(2, dims, FALSE, NULL);
  platform *p = tu_platform_with("mesh:6x12", NULL, 0);
  double bound = 6.0 / 9 + 12.0 / 8;
  cr_assert_float_eq(bound, 2.1667, 1e-4);
  const char *specs[] = { "affine:align=0", "affine", "mxovlp", "mxov_al", "exco", "coce", "step",
                          "identity+pairs", "mxov_al+tabu:iters=4000", "random+tabu:iters=4000" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++)
    for (guint32 seed = 1; seed <= 2; seed++) {
      mapping *m = run(specs[i], g, p, seed);
      double h = thesis_hops_per_byte(m, p, 9, 8);
      cr_assert_geq(h, bound, "%s: %.4f hops per byte beats the affine bound %.4f", specs[i], h,
                    bound);
      mapping_free(m);
    }
  platform_free(p);
  commgraph_free(g);
}

/* Without collisions affine is the stretch itself: a 4x4 grid on an 8x8
 * mesh puts (x, y) on (2x, 2y). */
Test(affine, stretch_without_collisions)
{
  int dims[2] = { 4, 4 };
  commgraph *g = commgraph_stencil(2, dims, FALSE, NULL);
  platform *p = tu_platform_with("mesh:8x8", NULL, 0);
  mapping *m = run("affine", g, p, 1);
  for (int r = 0; r < 16; r++)
    cr_assert_eq(m->node[r], 2 * (r % 4) + 8 * 2 * (r / 4), "rank %d", r);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* Equal shapes: every grid heuristic gives the identity's optimum, on a
 * torus, a mesh and (folded) a 3D mesh for a 2D grid of the same size. */
Test(regular, equal_shapes_are_optimal)
{
  int d2[2] = { 8, 6 }, d3[3] = { 4, 4, 4 };
  commgraph *g2 = commgraph_stencil(2, d2, FALSE, NULL), *g3 = commgraph_stencil(3, d3, TRUE, NULL);
  platform *m2 = tu_platform_with("mesh:8x6", NULL, 0), *t3 = tu_platform_with("torus:4x4x4", NULL, 0);
  const char *specs[] = { "mxovlp", "mxov_al", "exco", "coce", "affine", "step" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    cr_assert_eq(hb_of(specs[i], g2, m2, 1), hb_of("identity", g2, m2, 1), "%s 2D", specs[i]);
    cr_assert_eq(hb_of(specs[i], g3, t3, 1), 64 * 6 * 1000, "%s 3D", specs[i]);
  }
  /* a 16x4 grid folded onto a 4x4x4 mesh: fold keeps the seams short,
   * stacking does not */
  int d16[2] = { 16, 4 };
  commgraph *g16 = commgraph_stencil(2, d16, FALSE, NULL);
  platform *m3 = tu_platform_with("mesh:4x4x4", NULL, 0);
  int64_t fold = hb_of("fold", g16, m3, 1), stack = hb_of("stack", g16, m3, 1);
  cr_assert_lt(fold, stack, "fold %" G_GINT64_FORMAT ", stack %" G_GINT64_FORMAT, fold, stack);
  /* every edge of the folded 16x4 grid is one hop: 2 x (15 x 4 + 16 x 3) x 1000 */
  cr_assert_eq(fold, 2 * (15 * 4 + 16 * 3) * 1000);
  commgraph_free(g16);
  platform_free(m3);
  commgraph_free(g2);
  commgraph_free(g3);
  platform_free(m2);
  platform_free(t3);
}

/* MXOVLP on 9x8 -> 6x12 (aligned to 9x8 -> 12x6): its first overlap, 9x6,
 * lies one to one, so those 8 x 6 + 9 x 5 edges are one hop. */
Test(regular, mxovlp_first_overlap)
{
  int dims[2] = { 9, 8 };
  commgraph *g = commgraph_stencil(2, dims, FALSE, NULL);
  platform *p = tu_platform_with("mesh:6x12", NULL, 0);
  mapping *m = run("mxovlp", g, p, 1);
  int ones = 0;
  for (int y = 0; y < 6; y++)
    for (int x = 0; x < 9; x++) {
      int r = x + 9 * y;
      if (x + 1 < 9)
        ones += route_hops(p->router, m->node[r], m->node[r + 1]) == 1;
      if (y + 1 < 6)
        ones += route_hops(p->router, m->node[r], m->node[r + 9]) == 1;
    }
  cr_assert_eq(ones, 8 * 6 + 9 * 5);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* ---- hand cases of the greedy constructors ---- */

/* A ring of 8 tasks on an 8-node ring: every greedy constructor, bft, mht
 * and bipartition find the optimum 16 (each edge one hop). An 8x8 stencil
 * on an 8x8 mesh: pacmap, topo_aware, bft and bipartition find its
 * optimum 2 x 112 x 1000. */
Test(greedy_family, known_optima)
{
  commgraph *g = st_ring(8, 1);
  platform *p = tu_platform_with("torus:8", NULL, 0);
  const char *ring[] = { "greedy_hoefler", "fhgreedy", "greedy_allc", "pacmap", "topo_aware",
                         "bipartition", "bft", "mht", "bokhari", "random+tabu" };
  for (size_t i = 0; i < G_N_ELEMENTS(ring); i++)
    cr_assert_eq(hb_of(ring[i], g, p, 1), 16, "%s", ring[i]);
  commgraph_free(g);
  platform_free(p);
  int d2[2] = { 8, 8 };
  g = commgraph_stencil(2, d2, FALSE, NULL);
  p = tu_platform_with("mesh:8x8", NULL, 0);
  const char *grid[] = { "pacmap", "topo_aware", "bft", "bipartition", "bokhari" };
  for (size_t i = 0; i < G_N_ELEMENTS(grid); i++)
    cr_assert_eq(hb_of(grid[i], g, p, 1), 224000, "%s", grid[i]);
  commgraph_free(g);
  platform_free(p);
}

/* ---- refiners never worsen their objective ---- */

/* Task-graph edges whose nodes are one hop apart (bokhari's objective). */
static int64_t cardinality(const commgraph *g, const platform *p, const mapping *m)
{
  sym_graph s;
  sym_graph_build(&s, g);
  int64_t c = 0;
  for (int t = 0; t < s.n; t++)
    for (int k = s.xadj[t]; k < s.xadj[t + 1]; k++)
      if (s.adj[k] > t && m->node[t] != m->node[s.adj[k]] &&
          route_hops(p->router, m->node[t], m->node[s.adj[k]]) == 1)
        c++;
  sym_graph_clear(&s);
  return c;
}

Test(refiners, pairs_bokhari_tabu_never_worse)
{
  const char *apps[] = { "cg", "btmz", "amg", "lulesh" };
  const char *plats[] = { "torus:4x4x4", "mesh:4x4x4", "haec:4x4x4" };
  const char *starts[] = { "identity", "random", "mht" };
  for (size_t a = 0; a < G_N_ELEMENTS(apps); a++) {
    commgraph *g = load_app(apps[a]);
    for (size_t k = 0; k < G_N_ELEMENTS(plats); k++) {
      platform *p = tu_platform_with(plats[k], NULL, 0);
      for (size_t s = 0; s < G_N_ELEMENTS(starts); s++) {
        mapping *m0 = run(starts[s], g, p, 2);
        char *sp = g_strdup_printf("%s+pairs", starts[s]);
        char *sb = g_strdup_printf("%s+bokhari:tries=1", starts[s]);
        char *st = g_strdup_printf("%s+tabu:iters=300", starts[s]);
        mapping *mp = run(sp, g, p, 2), *mb = run(sb, g, p, 2), *mt = run(st, g, p, 2);
        cr_assert_leq(hop_bytes(g, p, mp), hop_bytes(g, p, m0), "%s on %s", sp, plats[k]);
        cr_assert_leq(hop_bytes(g, p, mt), hop_bytes(g, p, m0), "%s on %s", st, plats[k]);
        cr_assert_geq(cardinality(g, p, mb), cardinality(g, p, m0), "%s on %s", sb, plats[k]);
        mapping_free(m0), mapping_free(mp), mapping_free(mb), mapping_free(mt);
        g_free(sp), g_free(sb), g_free(st);
      }
      platform_free(p);
    }
    commgraph_free(g);
  }
}

/* ---- portfolio ---- */

Test(portfolio, keeps_the_best_and_says_which)
{
  commgraph *g = load_app("btmz");
  platform *p = tu_platform_with("torus:4x4x4", NULL, 0);
  const char *cands[] = { "identity+kl", "greedy+wh", "scotch+kl:t=2", "random" };
  int64_t best = -1;
  int win = -1;
  for (int i = 0; i < 4; i++) {
    int64_t hb = hb_of(cands[i], g, p, 5);
    if (best < 0 || hb < best)
      best = hb, win = i;
  }
  const char *spec = "portfolio:try=[identity+kl|greedy+wh|scotch+kl:t=2|random]";
  for (int threads = 1; threads <= 3; threads++) {
    char *s = g_strdup_printf("%s,threads=%d", spec, threads);
    GString *report = g_string_new(NULL);
    mapping *m = run_c(s, g, p, 5, NULL, 0, report);
    cr_assert_eq(hop_bytes(g, p, m), best, "threads=%d", threads);
    char *kept = g_strdup_printf("kept %s\n", cands[win]);
    cr_assert(strstr(report->str, kept), "report: %s", report->str);
    g_free(kept);
    g_string_free(report, TRUE);
    mapping_free(m);
    g_free(s);
  }
  /* max_link: the candidate of the least busiest link */
  mapping *m = run("portfolio:try=[identity|random|greedy+mc],obj=max_link", g, p, 5);
  metrics *x = metrics_compute(g, p, m);
  const char *ml[] = { "identity", "random", "greedy+mc" };
  for (int i = 0; i < 3; i++) {
    mapping *c = run(ml[i], g, p, 5);
    metrics *y = metrics_compute(g, p, c);
    cr_assert_leq(x->max_link_bytes, y->max_link_bytes, "%s", ml[i]);
    metrics_free(y);
    mapping_free(c);
  }
  metrics_free(x);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* The report with its timings (", 0.012 s") masked. */
static char *masked_report(const char *text)
{
  GRegex *re = g_regex_new(", [0-9]+\\.[0-9]+ s", 0, 0, NULL);
  char *out = g_regex_replace_literal(re, text, -1, 0, ", T s", 0, NULL);
  g_regex_unref(re);
  return out;
}

/* Several candidates meet the hop-bytes lower bound (a ring of 8 on a
 * 4x4 torus): the earliest of them is kept whichever thread finishes
 * first, the later ones are "not needed", and the report is the same
 * bytes at any thread count and on every run; the kept candidate is never
 * marked (cut). A failing candidate is one line. */
Test(portfolio, report_deterministic_when_the_bound_is_met)
{
  int dims[1] = { 8 };
  commgraph *g = commgraph_stencil(1, dims, TRUE, NULL);
  platform *p = tu_platform_with("torus:4x4", NULL, 0);
  /* replay fails without a trace to replay */
  const char *list = "[random|replay|identity+kl|greedy+wh+kl|scotch+kl|hilbert+kl|geometric+ml|"
                     "morton+kl|random+kl]";
  char *first = NULL;
  for (int round = 0; round < 3; round++)
    for (int threads = 1; threads <= 4; threads++) {
      g_autofree char *spec = g_strdup_printf("portfolio:try=%s,threads=%d", list, threads);
      GString *report = g_string_new(NULL);
      mapping *m = run_c(spec, g, p, 1, NULL, 0, report);
      cr_assert_eq(hop_bytes(g, p, m), 16 * 1000, "%s", report->str); /* 1 hop each way */
      char *text = masked_report(report->str);
      cr_assert(strstr(text, "meets the lower bound"), "%s", text);
      cr_assert(strstr(text, ": not needed\n"), "%s", text);
      cr_assert_null(strstr(text, "(cut)"), "%s", text);
      /* the failure: one line, then the next candidate */
      cr_assert(strstr(text, "\n    replay: failed: "), "%s", text);
      const char *after = strchr(strstr(text, "replay: failed: "), '\n') + 1;
      cr_assert(g_str_has_prefix(after, "  ") && strstr(after, "identity+kl") == after + 4,
                "%s", text);
      if (!first)
        first = text;
      else {
        cr_assert_str_eq(text, first, "threads=%d, round %d", threads, round);
        g_free(text);
      }
      g_string_free(report, TRUE);
      mapping_free(m);
    }
  g_free(first);
  platform_free(p);
  commgraph_free(g);
}

Test(portfolio, specs)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse("portfolio:try=[kl:t=2,eps=0.1|greedy+wh:delta=4],"
                                         "obj=weighted,alpha=0.5+tabu", &e);
  cr_assert_not_null(pl, "%s", e ? e->message : "");
  cr_assert_eq(pl->nsteps, 2);
  strategy_pipeline_free(pl);
  cr_assert_null(strategy_parse("portfolio:try=identity", &e));
  cr_assert(strstr(e->message, "expected a list of pipelines in brackets"), "%s", e->message);
  g_clear_error(&e);
  cr_assert_null(strategy_parse("portfolio:try=[identity|nosuch]", &e));
  cr_assert(strstr(e->message, "unknown strategy 'nosuch'"), "%s", e->message);
  g_clear_error(&e);
  cr_assert_null(strategy_parse("portfolio:try=[]", &e));
  cr_assert(strstr(e->message, "expected at least one pipeline"), "%s", e->message);
  g_clear_error(&e);
  /* issue 34: a parameter given twice is refused naming both (it was: the last won) */
  cr_assert_null(strategy_parse("greedy+tabu:iters=5,iters=6", &e));
  cr_assert(strstr(e->message, "tabu: 'iters' given twice ('iters=5' and 'iters=6'), expected each "
                               "key once"), "%s", e->message);
  g_clear_error(&e);
  cr_assert_null(strategy_parse("portfolio:try=[identity|greedy],try=[identity]", &e));
  cr_assert(strstr(e->message, "'try' given twice"), "%s", e->message);
  g_clear_error(&e);
  const char *empty[] = { "greedy++wh", "+", "portfolio:try=[greedy+|wh]", "" };
  for (size_t i = 0; i < G_N_ELEMENTS(empty); i++) {
    cr_assert_null(strategy_parse(empty[i], &e), "%s", empty[i]);
    cr_assert(g_error_matches(e, STRATEGY_ERROR, STRATEGY_ERROR_SPEC), "%s", empty[i]);
    g_clear_error(&e);
  }
  /* a failing candidate is skipped: mxovlp has no grid here */
  commgraph *g = load_app("cg");
  platform *p = tu_platform_with("mesh:4x4x4", NULL, 0);
  GString *report = g_string_new(NULL);
  mapping *m = run_c("portfolio:try=[mxovlp|morton]", g, p, 1, NULL, 0, report);
  cr_assert(strstr(report->str, "kept morton"), "%s", report->str);
  cr_assert(strstr(report->str, "mxovlp: failed"), "%s", report->str);
  g_string_free(report, TRUE);
  mapping_free(m);
  platform_free(p);
  commgraph_free(g);
}

/* ---- the command line ---- */

/* `strategies` shows every strategy with its paper, section and options. */
Test(cli, strategies_list_papers_and_options)
{
  char *out = NULL, *err = NULL;
  const char *args[] = { "strategies", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  for (int i = 0; strategy_registry[i]; i++) {
    const strategy *s = strategy_registry[i];
    char *head = g_strdup_printf("\n%s ", s->name);
    cr_assert(strstr(out, head) || g_str_has_prefix(out, head + 1), "%s missing", s->name);
    cr_assert(strstr(out, s->paper), "%s: paper '%s' missing", s->name, s->paper);
    for (int j = 0; s->params && s->params[j].name; j++) {
      char *opt = g_strdup_printf("%s=%s", s->params[j].name, s->params[j].defval);
      cr_assert(strstr(out, opt), "%s: option %s missing", s->name, opt);
      g_free(opt);
    }
    g_free(head);
  }
  cr_assert(strstr(out, "bhatele2010 Section 9.1, Algorithm 9.1 (MXOVLP)"));
  cr_assert(strstr(out, "korndoerfer2021 Section 6.3"));
  g_free(out), g_free(err);
}

/* Long steps report progress; a stop request ends tabu and the portfolio
 * at their best so far, still a valid mapping no worse than the start. */
static void count_reports(void *user, const char *what, uint64_t done, uint64_t total)
{
  int *n = user;
  cr_assert_leq(done, total, "%s", what);
  (*n)++;
}

Test(progress, tabu_reports_and_stops)
{
  commgraph *g = load_app("amg");
  platform *p = tu_platform_with("torus:4x4x4", NULL, 0);
  int reports = 0;
  volatile sig_atomic_t stop = 0;
  progress prog = { count_reports, &reports, &stop };
  strategy_pipeline *pl = strategy_parse("identity+tabu:iters=2048", NULL);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1,
                                                 .prog = &prog },
                            NULL);
  cr_assert_not_null(m);
  cr_assert_eq(reports, 8, "one report every 256 iterations");
  mapping_free(m);
  stop = 1;
  reports = 0;
  m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1, .prog = &prog },
                   NULL);
  cr_assert_not_null(m);
  cr_assert(mapping_validate(m, p, NULL));
  cr_assert_leq(hop_bytes(g, p, m), hb_of("identity", g, p, 1));
  mapping_free(m);
  strategy_pipeline_free(pl);
  platform_free(p);
  commgraph_free(g);
}
