/* test_pins.c - replay results pinned bit for bit.
 *
 * Every OTF2 trace in the repository (traces/data, tests/data/traces; the
 * EZTrace archive aside, which is never streamed: test_eztrace) and a
 * few synthesized ones that reach the paths the bundled traces do not
 * (rendezvous messages, random gaps, collectives, blocking exchanges) are
 * replayed with every model of the registry, on two platforms, two
 * mappings and two compute scales, through the run pipeline (run_cell).
 * The results - makespan, message and byte totals, model times, p2p cost,
 * hop-bytes, per-link p2p bytes/messages/busy time, per-rank statistics
 * and the pre/post check - must equal tests/data/replay-pins.txt exactly.
 * The arrays are pinned as FNV-1a hashes of their int64 values.
 *
 * The same results must come from the traces streamed from their OTF2
 * archives (trace-source.h), with tiny and large windows.
 *
 * The pins were written by the replay as it was before traces could be
 * streamed; a change of the replay, the reader or a model that moves any
 * value by one picosecond fails here. Regenerate only for an intended
 * change of results: MAPSIM_WRITE_PINS=FILE meson test pins.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "sim/run.h"
#include "traces/input.h"
#include "traces/trace-source.h"
#include "traces/synth.h"
#include "testutil.h"

static const char *const otf2_traces[] = {
  "traces/data/stencil3d-64", "traces/data/alltoall-16", "traces/data/ring-8",
  "traces/data/cg-16", "tests/data/traces/casita-10_scorep_mpi_tags",
  "tests/data/traces/casita-2_jacobi_blame_cpu_015", "tests/data/traces/casita-4_mpi_ls_barr",
  "tests/data/traces/pipit-ping-pong-otf2", "tests/data/traces/tracer-stencil4d-32",
  "tests/data/traces/tracer-stencil4d-64",
};

typedef struct synth_case {
  const char *name, *pattern;
  int ranks, dims[3], iterations, points;
  int64_t bytes;
  gboolean periodic, nonblocking, gap_random;
} synth_case;

static const synth_case synth_cases[] = {
  { "stencil3d-64-rndv", "stencil3d", 64, { 4, 4, 4 }, 2, 0, 131072, TRUE, TRUE, TRUE },
  { "stencil2d-32-9pt", "stencil2d", 32, { 8, 4, 0 }, 2, 9, 70000, FALSE, FALSE, TRUE },
  { "alltoall-16-rndv", "alltoall", 16, { 0 }, 1, 0, 100000, FALSE, TRUE, FALSE },
  { "cg-64", "cg", 64, { 0 }, 2, 0, 200000, FALSE, TRUE, TRUE },
  { "random-48", "random", 48, { 0 }, 2, 0, 50000, FALSE, TRUE, TRUE },
};

static const char *const platforms[] = { "torus:4x4x4", "haec:4x4x4" };

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * UINT64_C(1099511628211);
  return h;
}

#define FNV0 UINT64_C(14695981039346656037)

/* One line of results: everything a replay decides, in integers. */
static char *pin_line(const char *name, const char *plat, const char *map, const char *model,
                      double scale, const run_result *res)
{
  const replay_result *r = res->r;
  size_t nl = (size_t)r->nlinks;
  uint64_t links = fnv(FNV0, r->link_bytes, nl * sizeof(int64_t));
  links = fnv(links, r->link_messages, nl * sizeof(int64_t));
  uint64_t busy = fnv(FNV0, r->link_busy_ps, nl * sizeof(int64_t));
  uint64_t ranks = fnv(FNV0, r->per_rank, (size_t)r->nranks * sizeof(replay_rank_stats));
  return g_strdup_printf("%s %s %s %s %g makespan=%" G_GINT64_FORMAT " events=%" G_GINT64_FORMAT
                         " p2p=%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " coll=%" G_GINT64_FORMAT
                         "/%" G_GINT64_FORMAT " ctrl=%" G_GINT64_FORMAT " comm=%" G_GINT64_FORMAT
                         " collt=%" G_GINT64_FORMAT " cost=%" G_GINT64_FORMAT " hb=%" G_GINT64_FORMAT
                         " links=%016" G_GINT64_MODIFIER "x busy=%016" G_GINT64_MODIFIER
                         "x ranks=%016" G_GINT64_MODIFIER "x check=%d stuck=%d",
                         name, plat, map, model, scale, r->makespan_ps, r->events, r->p2p_messages,
                         r->p2p_bytes, r->coll_messages, r->coll_bytes, r->ctrl_messages,
                         r->comm_model_ps, r->coll_model_ps, r->p2p_cost_ps, r->hop_bytes, links,
                         busy, ranks, res->mismatch, r->stuck);
}

static trace *synth_trace(const synth_case *c)
{
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = c->pattern;
  o.ranks = c->ranks;
  memcpy(o.dims, c->dims, sizeof c->dims);
  o.iterations = c->iterations;
  o.points = c->points;
  o.bytes = c->bytes;
  o.periodic = c->periodic;
  o.nonblocking = c->nonblocking;
  o.gap_random = c->gap_random;
  o.gap_s = 2e-6;
  o.seed = 7;
  GError *e = NULL;
  trace *t = synth_build(&o, &e);
  cr_assert_not_null(t, "%s: %s", c->name, e ? e->message : "?");
  return t;
}

/* Every configuration of one trace, appended to `out`; streamed (src set)
 * with windows of `window` records. */
static void run_trace(const char *name, const trace *t, const trace_source *src, int64_t window,
                      GString *out)
{
  GError *e = NULL;
  commgraph *g = src ? trace_source_commgraph(src, FALSE, NULL, &e)
                     : trace_commgraph(t, FALSE, NULL, &e);
  cr_assert_not_null(g, "%s: %s", name, e ? e->message : "?");
  for (size_t pi = 0; pi < G_N_ELEMENTS(platforms); pi++) {
    platform *p = tu_platform(platforms[pi]);
    for (int mi = 0; mi < 2; mi++) {
      if (pi == 1 && mi == 1)
        continue;
      for (const struct netmodel_ops *const *m = netmodel_registry; *m; m++)
        for (int si = 0; si < 2; si++) {
          run_spec s;
          run_spec_init(&s);
          s.strategy = mi ? "random" : NULL;
          s.model = *m;
          s.opts.compute_scale = si ? 0.0 : 1.0;
          s.opts.window = window;
          run_inputs in = { .p = p, .g = g, .t = t, .src = src };
          run_result *res = run_cell(&in, &s, &e);
          cr_assert_not_null(res, "%s %s %s: %s", name, platforms[pi], (*m)->name,
                             e ? e->message : "?");
          char *line = pin_line(name, platforms[pi], mi ? "random" : "identity", (*m)->name,
                                s.opts.compute_scale, res);
          g_string_append_printf(out, "%s\n", line);
          g_free(line);
          run_result_free(res);
        }
    }
    platform_free(p);
  }
  commgraph_free(g);
}

/* The results of every trace: read into memory (window 0), or streamed
 * from its archive with windows of `window` records (synthesized traces
 * are written to OTF2 first). */
static GString *all_results(int64_t window)
{
  GString *out = g_string_new(NULL);
  GError *e = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(otf2_traces); i++) {
    char *path = tu_src(otf2_traces[i]);
    const char *name = strrchr(otf2_traces[i], '/') + 1;
    if (window) {
      trace_source *src = input_read_source(path, NULL, &e);
      cr_assert_not_null(src, "%s: %s", path, e ? e->message : "?");
      run_trace(name, NULL, src, window, out);
      trace_source_free(src);
    } else {
      trace *t = trace_read_otf2(path, &e);
      cr_assert_not_null(t, "%s: %s", path, e ? e->message : "?");
      run_trace(name, t, NULL, 0, out);
      trace_free(t);
    }
    g_free(path);
  }
  for (size_t i = 0; i < G_N_ELEMENTS(synth_cases); i++) {
    trace *t = synth_trace(&synth_cases[i]);
    if (window) {
      char *dir = tu_tmp_dir(), *arch = g_build_filename(dir, "t", NULL);
      cr_assert(trace_write_otf2(t, arch, NULL, &e), "%s", e ? e->message : "?");
      trace_source *src = input_read_source(arch, NULL, &e);
      cr_assert_not_null(src, "%s: %s", arch, e ? e->message : "?");
      run_trace(synth_cases[i].name, NULL, src, window, out);
      trace_source_free(src);
      tu_rm_rf(dir);
      g_free(arch);
      g_free(dir);
    } else {
      run_trace(synth_cases[i].name, t, NULL, 0, out);
    }
    trace_free(t);
  }
  return out;
}

static char *pins(void)
{
  char *path = tu_data("replay-pins.txt"), *want = NULL;
  cr_assert(g_file_get_contents(path, &want, NULL, NULL), "%s: missing", path);
  g_free(path);
  return want;
}

/* Compares line by line, naming the first difference. */
static void assert_same(const char *want, const char *got)
{
  char **w = g_strsplit(want, "\n", -1), **g = g_strsplit(got, "\n", -1);
  guint nw = g_strv_length(w), ng = g_strv_length(g);
  for (guint i = 0; i < MIN(nw, ng); i++)
    cr_assert_str_eq(g[i], w[i], "line %u differs from the pin:\n  pinned %s\n  now    %s", i + 1,
                     w[i], g[i]);
  cr_assert_eq(ng, nw, "%u result lines, %u pinned", ng, nw);
  g_strfreev(w);
  g_strfreev(g);
}

Test(pins, every_trace_every_model, .timeout = 600)
{
  GString *got = all_results(0);
  const char *write = g_getenv("MAPSIM_WRITE_PINS");
  if (write) {
    cr_assert(g_file_set_contents(write, got->str, -1, NULL), "cannot write %s", write);
    cr_log_warn("pins written to %s", write);
  } else {
    char *want = pins();
    assert_same(want, got->str);
    g_free(want);
  }
  g_string_free(got, TRUE);
}

/* Streamed in windows of 7 records (refilled constantly, and stretched
 * whenever an Irecv's completion lies beyond the window) and of 4096 (one
 * window per rank): the same results. */
Test(pins, streamed_the_same, .timeout = 600)
{
  char *want = pins();
  const int64_t windows[] = { 7, 4096 };
  for (size_t i = 0; i < G_N_ELEMENTS(windows); i++) {
    GString *got = all_results(windows[i]);
    assert_same(want, got->str);
    g_string_free(got, TRUE);
  }
  g_free(want);
}
