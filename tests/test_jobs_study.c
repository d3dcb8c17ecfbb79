/* test_jobs_study.c - studies over several jobs per run (study/jobs.c,
 * report/report-jobs.c): a mix that cannot be placed is refused before
 * anything runs with its reason; one that fails when it runs is named on
 * the terminal and exits 2 like a failed cell; a report of jobs files
 * only has the sections it fills, links only to those, the reason of a
 * mix that did not run, escaped once. */
#include <math.h>

#include "report/plot.h"
#include "testutil.h"

/* A jobs file of two ring-8 jobs on node lists `a` and `b`, and a study
 * of it on torus:4x4x2 (32 nodes) under `policies` (may be NULL); the
 * study file's path. */
static char *write_study(const char *a, const char *b, const char *policies)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *jobs = g_build_filename(dir, "two.ini", NULL);
  g_autofree char *jtext = g_strdup_printf("[job a]\ntrace = %s\n%s\n[job b]\ntrace = %s\n%s\n",
                                           ring, a, ring, b);
  cr_assert(g_file_set_contents(jobs, jtext, -1, NULL));
  char *study = g_build_filename(dir, "study.ini", NULL);
  g_autofree char *stext = g_strdup_printf("[study]\nname = two rings\njobs = two.ini\n%s%s%s"
                                           "platforms = torus:4x4x2\nmodels = flow\n"
                                           "compute-scale = 0\n", policies ? "policies = " : "",
                                           policies ? policies : "", policies ? "\n" : "");
  cr_assert(g_file_set_contents(study, stext, -1, NULL));
  return study;
}

Test(jobs_study, a_mix_that_cannot_be_placed_is_refused_by_check)
{
  struct {
    const char *a, *b, *policies, *want;
  } cases[] = {
    { "nodes = 0-7", "nodes = 4-11", NULL, "study.ini:3: [study] jobs: " },
    { "nodes = 0-7", "nodes = 4-11", NULL, "two.ini:6: job 'b' on torus:4x4x2: node 4 is also "
                                           "job 'a''s" },
    { "alloc = contiguous:16", "alloc = random:20", "random; contiguous",
      "[study] jobs, policy random: " },
    { "alloc = contiguous:16", "alloc = random:20", "random; contiguous",
      "20 nodes, expected at most 16" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *file = write_study(cases[i].a, cases[i].b, cases[i].policies);
    g_autofree char *dir = tu_tmp_dir();
    const char *check[] = { "study", "--check", file, NULL };
    const char *run[] = { "study", file, "-o", dir, "-q", NULL };
    const char *const *argv[] = { check, run };
    for (size_t k = 0; k < G_N_ELEMENTS(argv); k++) {
      char *out = NULL, *err = NULL;
      cr_assert_eq(tu_run(&out, &err, argv[k]), 2, "%zu/%zu: %s\n%s", i, k, out, err);
      cr_assert(strstr(err, cases[i].want), "%zu/%zu: %s", i, k, err);
      /* the overlap is the same under every policy: said once */
      cr_assert_eq(tu_count(err, "\n"), cases[i].policies ? 2 : 1, "%zu/%zu: %s", i, k, err);
      g_free(out);
      g_free(err);
    }
    g_autofree char *results = g_build_filename(dir, "results.csv", NULL);
    cr_assert_not(g_file_test(results, G_FILE_TEST_EXISTS), "nothing ran");
  }
}

/* Each `id="X"` the page links to (href="#X") is there. */
static void check_links(const char *html)
{
  for (const char *c = strstr(html, "href=\"#"); c; c = strstr(c + 1, "href=\"#")) {
    const char *end = strchr(c + 7, '"');
    cr_assert_not_null(end);
    g_autofree char *id = g_strdup_printf(" id=\"%.*s\"", (int)(end - c - 7), c + 7);
    cr_assert(strstr(html, id), "a link to a missing section:%s", id);
  }
}

Test(jobs_study, a_mix_that_fails_when_run_is_named_and_reported, .timeout = 120)
{
  /* 8 ranks on 4 nodes of 1 core: known only once the trace is read */
  g_autofree char *file = write_study("nodes = 0-3", "nodes = 8-15", "random; contiguous");
  g_autofree char *dir = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", file, "-o", dir, "-q", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s\n%s", out, err);
  cr_assert(strstr(err, "mapsim: mix 1 (two, torus-4x4x2, policy random, flow): "), "%s", err);
  cr_assert(strstr(err, "8 ranks do not fit 4 allocated nodes"), "%s", err);
  cr_assert(strstr(err, "mapsim: mix 2 (two, torus-4x4x2, policy contiguous, flow): "), "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *html = tu_read(dir, "index.html");
  check_links(html);
  cr_assert_null(strstr(html, "id=\"summary\""), "no empty summary");
  cr_assert_null(strstr(html, "id=\"ranking\""), "no empty ranking");
  cr_assert_null(strstr(html, "&lt;p&gt;"), "escaped once");
  cr_assert_null(strstr(html, "needs a replay"), "no cell needed one");
  cr_assert_null(strstr(html, "slowdown_two"), "no figure of mixes that did not run");
  cr_assert(strstr(html, "<p class=\"bad\">two on torus-4x4x2 (flow), policy contiguous did not "
                         "run: "), "%s", html);
  cr_assert_eq(tu_count(html, "8 ranks do not fit 4 allocated nodes"), 4,
               "the reason in the section and in the checks, per policy");
  cr_assert(strstr(html, "2 mixes of several jobs, 2 failed"), "%s", html);
}

Test(jobs_study, a_jobs_only_report_says_its_mixes_passed, .timeout = 300)
{
  g_autofree char *file = write_study("nodes = 0-7", "alloc = random:8:3", "random; striped");
  g_autofree char *dir = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", file, "-o", dir, "--progress", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s\n%s", out, err);
  /* the report's steps as the mixes': its section, the figures, the page */
  cr_assert(strstr(err, "mixes: 2/2 (100%)"), "%s", err);
  cr_assert(strstr(err, "report: 3/3 (100%)"), "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *html = tu_read(dir, "index.html");
  check_links(html);
  cr_assert(strstr(html, "<nav><a href=\"#jobs\">jobs</a><a href=\"#cells\">checks</a></nav>"),
            "%s", html);
  cr_assert_null(strstr(html, "needs a replay"));
  cr_assert(strstr(html, "<details id=\"jobs\" open>"), "all the page has: open");
  cr_assert(strstr(html, "2 mixes, 0 failed; their check holds"), "%s", html);
  cr_assert(strstr(html, "holds in all 2 that ran."), "%s", html);
  cr_assert(strstr(html, "slowdown_two_torus-4x4x2_flow"), "%s", html);
}

/* The jobs.csv rows of a policy: "policy,model,seed,,job,allocation". */
static int count_rows(const char *csv, const char *needle)
{
  return tu_count(csv, needle);
}

Test(jobs_study, seeds_are_draws_of_the_random_policies, .timeout = 300)
{
  g_autofree char *jobs = tu_data("jobs/three.ini");
  g_autofree char *text = g_strdup_printf("[study]\nname = draws\njobs = %s\n"
                                          "policies = random; contiguous; random:7\n"
                                          "platforms = torus:4x4x4\nmodels = flow; analytic\n"
                                          "seeds = 1; 2; 3\ncompute-scale = 0\n", jobs);
  g_autofree char *file = tu_write_tmp("draws.ini", text);
  g_autofree char *dir = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", file, "-o", dir, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s\n%s", out, err);
  /* random and random:7 3 draws each, contiguous once; 2 models */
  cr_assert(strstr(out, "14 mixes of several jobs (1 jobs file, 3 policies), random placements "
                        "drawn once per seed"), "%s", out);
  g_free(out);
  g_free(err);
  g_autofree char *csv = tu_read(dir, "jobs.csv");
  cr_assert_eq(tu_lines(csv), 1 + 14 * 3, "%s", csv);
  cr_assert(g_str_has_prefix(csv, "jobs,platform,policy,model,seed,error,job,allocation,"), "%s",
            csv);
  /* draw S: each job's SEED + S - 1 (a2a random:16:1, cg random-routers:16:2 in the file) */
  for (int d = 1; d <= 3; d++) {
    g_autofree char *a2a = g_strdup_printf(",random,flow,%d,,a2a,random:16:%d,", d, d);
    g_autofree char *cg = g_strdup_printf(",random,flow,%d,,cg,random:16:%d,", d, d + 1);
    g_autofree char *pinned = g_strdup_printf(",random:7,flow,%d,,cg,random:16:%d,", d, 6 + d);
    cr_assert_eq(count_rows(csv, a2a), 1, "%s\n%s", a2a, csv);
    cr_assert_eq(count_rows(csv, cg), 1, "%s\n%s", cg, csv);
    cr_assert_eq(count_rows(csv, pinned), 1, "%s\n%s", pinned, csv);
  }
  /* jobs.json: the seed a number, null where nothing is drawn */
  g_autofree char *json = tu_read(dir, "jobs.json");
  cr_assert(strstr(json, "\"seed\" : 1,") || strstr(json, "\"seed\":1,"), "%.600s", json);
  cr_assert(strstr(json, "\"seed\" : null") || strstr(json, "\"seed\":null"), "%.600s", json);
  /* a policy that draws nothing: once, without a seed */
  cr_assert_eq(count_rows(csv, ",contiguous,flow,,,a2a,contiguous:16,"), 1, "%s", csv);
  cr_assert_eq(count_rows(csv, "contiguous:16:"), 0, "%s", csv);
  g_autofree char *html = tu_read(dir, "index.html");
  cr_assert(strstr(html, "A random policy&apos;s bar is the mean slowdown over its draws"), "%s",
            html);
  cr_assert(strstr(html, "The analytic model has no contention"), "%s", html);
}

Test(jobs_study, a_seed_only_for_a_random_policy)
{
  const struct {
    const char *policies, *want;
  } cases[] = {
    { "contiguous:3", "policy 'contiguous:3': a policy that draws nothing has no seed" },
    { "random:x", "policy 'random:x': a bad seed" },
    { "random:1:2", "unknown allocation policy 'random:1:2'" },
    { "randm", "unknown allocation policy 'randm'" },
  };
  g_autofree char *jobs = tu_data("jobs/three.ini");
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *text = g_strdup_printf("[study]\njobs = %s\npolicies = %s\n"
                                            "platforms = torus:4x4x4\n", jobs, cases[i].policies);
    g_autofree char *file = tu_write_tmp("bad.ini", text);
    char *out = NULL, *err = NULL;
    const char *args[] = { "study", "--check", file, NULL };
    cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
    cr_assert(strstr(err, "bad.ini:3: [study] policies: "), "%s", err);
    cr_assert(strstr(err, cases[i].want), "%s", err);
    cr_assert_eq(tu_count(err, "\n"), 1, "%s", err);
    g_free(out);
    g_free(err);
  }
}

/* simulate --jobs says why its slowdowns read as they do: 1 everywhere
 * under the contention-free model, below 1 where a job ran faster (the
 * a2a of three.ini next to cg on torus:4x4x4 under random:3, 0.9461 in
 * the pair run), nothing when neither holds (the README's dragonfly). */
Test(jobs_study, simulate_jobs_notes_on_the_slowdowns, .timeout = 120)
{
  g_autofree char *jobs = tu_data("jobs/three.ini");
  const struct {
    const char *spec, *model, *policy;
    gboolean contention_free, faster;
  } cases[] = {
    { "torus:4x4x4", "analytic", "random", TRUE, FALSE },
    { "torus:4x4x4", "flow", "random:3", FALSE, TRUE },
    { "dragonfly:g=9:a=4:p=2:h=2", "flow", "random", FALSE, FALSE },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "-p", cases[i].spec, "--compute-scale", "0", "--model",
                           cases[i].model, "--policy", cases[i].policy, "--jobs", jobs, NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    cr_assert_eq(strstr(out, "note: the analytic model has no contention") != NULL,
                 cases[i].contention_free, "%zu: %s", i, out);
    cr_assert_eq(strstr(out, "note: a slowdown below 1") != NULL, cases[i].faster, "%zu: %s", i,
                 out);
    if (cases[i].faster)
      cr_assert(strstr(out, "0.9461"), "%s", out);
    g_free(out);
    g_free(err);
  }
}

/* A mistyped policy is named as one, with the nearest name, not taken
 * for a missing node list file (jobs files, policies, --policy). */
Test(jobs_study, a_policy_typo_is_a_policy_typo)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *text = g_strdup_printf("[job a]\ntrace = %s\nalloc = randm:8\n", ring);
  g_autofree char *jobs = tu_write_tmp("typo.ini", text);
  char *out = NULL, *err = NULL;
  const char *args[] = { "simulate", "-p", "torus:4x4", "--jobs", jobs, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  cr_assert(strstr(err, "typo.ini:3: [job a] alloc = randm:8: unknown allocation policy (did you "
                        "mean random?)"), "%s", err);
  cr_assert_null(strstr(err, "No such file"), "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *three = tu_data("jobs/three.ini");
  const char *pol[] = { "simulate", "-p", "torus:4x4x4", "--jobs", three, "--policy", "contigous",
                        NULL };
  cr_assert_eq(tu_run(&out, &err, pol), 2, "%s", err);
  cr_assert(strstr(err, "unknown allocation policy 'contigous' (did you mean contiguous?)"), "%s",
            err);
  g_free(out);
  g_free(err);
}

/* The interference figure's colours say what its numbers say: a slowdown
 * below 1 (a2a next to cg under random:3 on torus:4x4x4, 0.9461) is blue,
 * not the heat of a slowdown; a matrix of 1s only (the analytic model) has
 * its cells in the colour of the bar's one swatch "all 1". */
Test(jobs_study, interference_colours_match_their_key, .timeout = 120)
{
  g_autofree char *jobs = tu_data("jobs/three.ini");
  g_autofree char *dir = tu_tmp_dir();
  const char *models[] = { "flow", "analytic" };
  for (size_t k = 0; k < G_N_ELEMENTS(models); k++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "-p", "torus:4x4x4", "--compute-scale", "0", "--model",
                           models[k], "--policy", "random:3", "--jobs", jobs, "--json", NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    g_autofree char *json = g_build_filename(dir, "mix.json", NULL);
    cr_assert(g_file_set_contents(json, out, -1, NULL));
    g_free(out);
    g_free(err);
    const char *plot[] = { "plot", json, "-o", dir, NULL };
    cr_assert_eq(tu_run(&out, &err, plot), 0, "%s", err);
    g_free(out);
    g_free(err);
    g_autofree char *svg = tu_read(dir, "mix-interference.svg");
    gboolean blue = tu_svg_has_rgb(svg, 0.62, 0.79, 0.93);
    cr_assert_eq(blue, k == 0, "%s: the blue of a slowdown below 1", models[k]);
    if (k == 1) {
      plot_rgb c = plot_heat(PLOT_CONSTANT_AT);
      g_autofree char *fill = g_strdup_printf("rgb(%.6f%%,%.6f%%,%.6f%%)", c.r * 100, c.g * 100,
                                              c.b * 100);
      /* 6 cells off the diagonal and the swatch */
      cr_assert_geq(tu_count(svg, fill), 7, "%s in:\n%.2000s", fill, svg);
    }
  }
}
