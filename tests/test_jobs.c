/* test_jobs.c - several jobs on one network (sim/jobs.h, sim/mix.h,
 * `simulate --jobs`): jobs on disjoint partitions are not slowed at all,
 * two jobs on one link share it as the flow model's closed form says, a
 * job starting after another ended is unaffected, the union and every job
 * pass pre == post; the jobs file's errors with their lines. */
#include <json-glib/json-glib.h>
#include <math.h>

#include "sim/mix.h"
#include "testutil.h"

/* 1 MiB over a 31.25e9 B/s shorthand link: 33554432 ps exactly. */
#define MB_PS INT64_C(33554432)

/* The platforms of the mixes run: a result borrows its platform's
 * topology, so they live until the test ends. */
static GPtrArray *platforms;

static mix_result *run_mix(const char *jobs, const char *spec, const char *const *sets,
                           const char *model, const char *policy, int threads)
{
  GError *e = NULL;
  g_autofree char *path = tu_data(jobs);
  g_autoptr(jobs_file) jf = jobs_load(path, &e);
  cr_assert_not_null(jf, "%s", e ? e->message : "");
  if (!platforms)
    platforms = g_ptr_array_new();
  platform *p = platform_load_with(spec, sets, &e);
  g_ptr_array_add(platforms, p);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  mix_opts o;
  mix_opts_init(&o);
  o.model = netmodel_find(model);
  o.policy = policy;
  o.threads = threads;
  mix_result *r = mix_run(jf, p, &o, &e);
  cr_assert_not_null(r, "%s on %s, %s: %s", jobs, spec, model, e ? e->message : "");
  return r;
}

static void check_pre_post(const mix_result *r, const char *what)
{
  cr_assert_lt(r->mismatch, 0, "%s: the union's pre != post", what);
  for (int j = 0; j < r->njobs; j++)
    cr_assert_lt(r->jobs[j].mismatch, 0, "%s: job %s pre != post", what, r->jobs[j].name);
}

/* One job alone through the one-job pipeline (run_cell): its nodes as
 * the allocation, identity, the same model. */
static int64_t single_run(const char *trace_rel, const mix_result *r, int j, const char *model)
{
  GError *e = NULL;
  g_autofree char *tp = tu_src(trace_rel);
  trace *t = trace_read_otf2(tp, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, &e);
  g_autoptr(platform) p = tu_platform("mesh:8x4x4");
  int *nodes = g_new(int, r->jobs[j].ranks);
  for (int k = 0; k < r->jobs[j].ranks; k++)
    nodes[k] = r->m->node[r->jobs[j].first + k];
  cr_assert(platform_set_allocation_nodes(p, nodes, r->jobs[j].ranks, &e));
  run_spec s;
  run_spec_init(&s);
  s.model = netmodel_find(model);
  run_inputs in = { .p = p, .g = g, .g_collectives = colls, .t = t };
  run_result *res = run_cell(&in, &s, &e);
  cr_assert_not_null(res, "%s", e ? e->message : "");
  int64_t ms = res->r->makespan_ps;
  run_result_free(res);
  commgraph_free(g);
  trace_free(t);
  g_free(nodes);
  return ms;
}

Test(jobs, disjoint_halves_are_not_slowed_in_any_model, .timeout = 300)
{
  /* mesh:8x4x4 under dimension-order routing: the two x-halves' routes
   * stay inside them */
  for (int i = 0; netmodel_registry[i]; i++) {
    const char *model = netmodel_registry[i]->name;
    mix_result *r = run_mix("jobs/halves.ini", "mesh:8x4x4", NULL, model, NULL, 1);
    for (int j = 0; j < 2; j++) {
      const mix_job *mj = &r->jobs[j];
      cr_assert_eq(mj->shared_bytes, 0, "%s: job %s shares links", model, mj->name);
      if (strcmp(model, "flow-hd") == 0) {
        /* flow-hd re-rates a batch of flows incrementally or by whole
         * components as counts of the whole network decide (models/flow.c
         * rerate(): nfresh vs nactive), and the incremental path keeps
         * rates within 1e-12: the other half's flows move this half's
         * completions by picoseconds, which add up (measured: 1.4e-5) */
        cr_assert(fabs(mj->slowdown - 1.0) < 1e-4, "%s: job %s slowdown %.17g", model, mj->name,
                  mj->slowdown);
        continue;
      }
      cr_assert_eq(mj->makespan_ps, mj->alone_ps, "%s: job %s: %" G_GINT64_FORMAT " in the mix, %"
                   G_GINT64_FORMAT " alone", model, mj->name, mj->makespan_ps, mj->alone_ps);
      cr_assert(mj->slowdown == 1.0, "%s: job %s slowdown %.17g", model, mj->name, mj->slowdown);
      cr_assert(r->interference[j * 2 + (1 - j)] == 1.0);
    }
    check_pre_post(r, model);
    /* a job's nodes are its allocation's (64 listed each, x < 4 and x >= 4),
     * and its "nodes" output reads them from there */
    for (int j = 0; j < 2; j++) {
      const platform *pj = r->jobs[j].p;
      cr_assert_eq(pj->nalloc, 64);
      for (int k = 0; k < pj->nalloc; k++)
        cr_assert_eq(pj->alloc[k] % 8 >= 4, j, "job %d node %d", j, pj->alloc[k]);
      const field *f = &mix_job_fields[1];
      cr_assert_str_eq(f->name, "nodes");
      cr_assert_eq(field_int(f, &r->jobs[j]), 64);
    }
    if (i == 1) { /* flow: alone is the one-job run's makespan, bit for bit */
      cr_assert_eq(r->jobs[0].alone_ps, single_run("traces/data/stencil3d-64", r, 0, model));
      cr_assert_eq(r->jobs[1].alone_ps, single_run("traces/data/alltoall-16", r, 1, model));
    }
    mix_result_free(r);
  }
}

static const char *const eager_4mib[] = { "model.eager_threshold=4194304", NULL };

Test(jobs, two_jobs_on_one_link_share_it_fairly)
{
  /* mesh:4, a: node 0 -> 2, b: 1 -> 3, both 1 MiB (eager: the data leaves
   * at 0) over two 10 ps hops, sharing 1 -> 2: alone 20 ps + 1 MiB / bw,
   * together both drain at half the bandwidth: 20 ps + 2 MiB / bw */
  mix_result *r = run_mix("jobs/shared-link.ini", "mesh:4", eager_4mib, "flow", NULL, 1);
  for (int j = 0; j < 2; j++) {
    const mix_job *mj = &r->jobs[j];
    cr_assert_eq(mj->alone_ps, 20 + MB_PS, "%s alone %" G_GINT64_FORMAT, mj->name, mj->alone_ps);
    cr_assert_eq(mj->makespan_ps, 20 + 2 * MB_PS, "%s mix %" G_GINT64_FORMAT, mj->name,
                 mj->makespan_ps);
    cr_assert_eq(mj->slowdown, (double)(20 + 2 * MB_PS) / (double)(20 + MB_PS));
    cr_assert_eq(mj->shared_bytes, 1048576, "the shared link carries each job's MiB");
    cr_assert_eq(mj->link_bytes, 2 * 1048576, "two hops of 1 MiB");
  }
  /* the shared link 1 -> 2 carries both jobs' bytes, statically and
   * simulated */
  int l = topo_link(r->p->topo, 1, 0, 0);
  cr_assert_eq(mix_link_bytes(r, 0, l), 1048576);
  cr_assert_eq(mix_link_bytes(r, 1, l), 1048576);
  cr_assert_eq(r->post->link_bytes[l], 2 * 1048576);
  check_pre_post(r, "shared link");
  mix_result_free(r);
}

Test(jobs, a_job_starting_after_another_ended_is_unaffected)
{
  /* b starts at 1 ms, a ends at 20 ps + 1 MiB / bw = 33.6 us */
  mix_result *r = run_mix("jobs/after.ini", "mesh:4", eager_4mib, "flow", NULL, 1);
  for (int j = 0; j < 2; j++) {
    const mix_job *mj = &r->jobs[j];
    cr_assert_eq(mj->makespan_ps, 20 + MB_PS, "%s: %" G_GINT64_FORMAT, mj->name, mj->makespan_ps);
    cr_assert_eq(mj->alone_ps, mj->makespan_ps);
    cr_assert(mj->slowdown == 1.0);
  }
  cr_assert_eq(r->jobs[1].start_ps, INT64_C(1000000000));
  cr_assert_eq(r->r->makespan_ps, INT64_C(1000000000) + 20 + MB_PS, "the mix ends with b");
  cr_assert(r->interference[1] == 1.0 && r->interference[2] == 1.0);
  check_pre_post(r, "after");
  mix_result_free(r);
}

Test(jobs, union_and_jobs_pass_pre_post_with_keyed_routings, .timeout = 300)
{
  /* keyed routings draw each path from the rank pair: the static views,
   * the mix and every alone and pair run must take the same paths */
  const struct { const char *spec; const char *const sets[2]; } nets[] = {
    { "dragonfly:g=9:a=4:p=2:h=2", { "routing.algorithm=valiant:per=message", NULL } },
    { "fattree:k=4:n=3", { "routing.algorithm=random-up", NULL } },
    { "torus:4x4x4", { NULL } },
  };
  for (size_t k = 0; k < G_N_ELEMENTS(nets); k++) {
    mix_result *r = run_mix("jobs/three.ini", nets[k].spec, nets[k].sets, "flow", NULL, 2);
    check_pre_post(r, nets[k].spec);
    /* link loads by job add up to the union's */
    for (int l = 0; l < r->p->topo->nlinks; l++) {
      int64_t sum = 0;
      for (int j = 0; j < r->njobs; j++)
        sum += mix_link_bytes(r, j, l);
      cr_assert_eq(sum, r->pre->link_bytes[l], "%s link %d", nets[k].spec, l);
    }
    /* the same on one thread: results do not depend on the thread count */
    mix_result *one = run_mix("jobs/three.ini", nets[k].spec, nets[k].sets, "flow", NULL, 1);
    for (int j = 0; j < r->njobs; j++) {
      cr_assert_eq(r->jobs[j].makespan_ps, one->jobs[j].makespan_ps);
      cr_assert_eq(r->jobs[j].alone_ps, one->jobs[j].alone_ps);
      for (int i = 0; i < r->njobs; i++)
        cr_assert(r->interference[j * r->njobs + i] == one->interference[j * r->njobs + i]);
    }
    mix_result_free(one);
    mix_result_free(r);
  }
}

Test(jobs, policy_override_keeps_n_and_seed)
{
  mix_result *r = run_mix("jobs/three.ini", "dragonfly:g=9:a=4:p=2:h=2", NULL, "analytic",
                          "contiguous", 1);
  /* a policy that draws nothing is shown without the seed it ignores */
  cr_assert_str_eq(r->jobs[0].alloc, "contiguous:16");
  cr_assert_str_eq(r->jobs[1].alloc, "contiguous:16");
  /* contiguous jobs in file order: 0-15, 16-31, then the node list job */
  cr_assert_eq(r->m->node[r->jobs[1].first], 16);
  for (int j = 0; j < r->njobs; j++)
    cr_assert(r->jobs[j].slowdown == 1.0, "analytic: no contention, no slowdown");
  mix_result_free(r);
}

static void expect_load_problems(const char *text, const char *const *want, int nwant)
{
  g_autofree char *path = tu_write_tmp("bad.ini", text);
  GError *e = NULL;
  jobs_file *jf = jobs_load(path, &e);
  cr_assert_null(jf);
  cr_assert_eq(e->domain, JOBS_ERROR);
  for (int i = 0; i < nwant; i++)
    cr_assert(strstr(e->message, want[i]), "missing '%s' in:\n%s", want[i], e->message);
  cr_assert_eq(tu_count(e->message, "\n") + 1, nwant, "one line per problem:\n%s", e->message);
  g_error_free(e);
}

Test(jobs, file_problems_with_their_lines)
{
  const char *text = "[jobs]\n"                                    /* 1 */
                     "strategy = nosuch\n"                         /* 2 */
                     "[job a]\n"                                   /* 3 */
                     "trace = nowhere\n"                           /* 4 */
                     "alloc = random:0\n"                          /* 5 */
                     "start = 5 apples\n"                          /* 6 */
                     "[job b]\n"                                   /* 7 */
                     "colour = red\n"                              /* 8 */
                     "seed = -1\n"                                 /* 9 */
                     "[jobz c]\n";                                 /* 10 */
  const char *const want[] = {
    ":2: [jobs] strategy = nosuch",
    ":4: [job a] trace = nowhere: no such file",
    ":5: [job a] allocation 'random:0': expected random:N[:SEED]",
    ":6: [job a] start = 5 apples",
    ":7: [job b] expected exactly one of trace = T or matrix = M",
    ":7: [job b] expected exactly one of alloc",
    ":8: [job b] unknown key 'colour'",
    ":9: [job b] seed = -1, expected 0..4294967295",
    ":10: unknown group [jobz c] (did you mean [job c]?), expected [jobs] or [job NAME]",
  };
  expect_load_problems(text, want, G_N_ELEMENTS(want));
  const char *const none[] = { ":1: no jobs, expected at least one [job NAME] group" };
  expect_load_problems("[jobs]\nname = empty\n", none, 1);
  const char *const stray[] = { ":1: 'trace = x' comes before any group, expected [job NAME]" };
  expect_load_problems("trace = x\n", stray, 1);
}

static void expect_place_error(const char *text, const char *spec, const char *want)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "place.ini", NULL);
  g_autofree char *pair = g_build_filename(dir, "pair.csv", NULL);
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  cr_assert(g_file_set_contents(pair, "0,5\n5,0\n", -1, NULL));
  GError *e = NULL;
  g_autoptr(jobs_file) jf = jobs_load(path, &e);
  cr_assert_not_null(jf, "%s", e ? e->message : "");
  g_autoptr(platform) p = tu_platform(spec);
  mix_opts o;
  mix_opts_init(&o);
  mix_result *r = mix_run(jf, p, &o, &e);
  cr_assert_null(r);
  cr_assert(strstr(e->message, want), "missing '%s' in: %s", want, e->message);
  cr_assert_null(strchr(e->message, '\n'), "one line: %s", e->message);
  cr_assert(strstr(e->message, "place.ini:"), "names the file: %s", e->message);
  g_error_free(e);
}

Test(jobs, placement_problems_name_the_job)
{
  expect_place_error("[job a]\nmatrix = pair.csv\nnodes = 0-3\n[job b]\nmatrix = pair.csv\nnodes = 3 4\n",
                     "torus:4x4", "node 3 is also job 'a''s");
  expect_place_error("[job a]\nmatrix = pair.csv\nnodes = 0-9\n[job b]\nmatrix = pair.csv\nalloc = random:8\n",
                     "torus:4x4", "8 nodes, expected at most 6");
  expect_place_error("[job a]\nmatrix = pair.csv\nnodes = 0\n[job b]\nmatrix = pair.csv\nnodes = 1-2\n",
                     "torus:4x4", "job 'a': ");
  expect_place_error("[job a]\nmatrix = pair.csv\nnodes = 0 99\n[job b]\nmatrix = pair.csv\nnodes = 1\n",
                     "torus:4x4", "'99' is not a node");
  expect_place_error("[job a]\nmatrix = pair.csv\nalloc = blocks:2\n[job b]\nmatrix = pair.csv\nnodes = 1\n",
                     "torus:4x4", "has no groups");
}

static JsonObject *parse(JsonParser **parser, const char *text)
{
  GError *e = NULL;
  *parser = json_parser_new();
  cr_assert(json_parser_load_from_data(*parser, text, -1, &e), "%s\n%s", e ? e->message : "", text);
  return json_node_get_object(json_parser_get_root(*parser));
}

Test(jobs, simulate_jobs_json_and_refusals, .timeout = 120)
{
  g_autofree char *jobs = tu_data("jobs/shared-link.ini");
  char *out = NULL, *err = NULL;
  const char *args[] = { "simulate", "-p", "mesh:4", "--eager-limit", "4MiB", "--jobs", jobs,
                         "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  JsonParser *ps;
  JsonObject *o = parse(&ps, out);
  JsonArray *arr = json_object_get_array_member(o, "jobs");
  cr_assert_eq(json_array_get_length(arr), 2);
  JsonObject *a = json_array_get_object_element(arr, 0);
  cr_assert_str_eq(json_object_get_string_member(a, "name"), "a");
  cr_assert_eq(json_object_get_double_member(a, "makespan_s"), (20 + 2 * MB_PS) * 1e-12);
  cr_assert_eq(json_object_get_double_member(a, "alone_makespan_s"), (20 + MB_PS) * 1e-12);
  cr_assert_eq(json_object_get_double_member(a, "slowdown"),
               (double)(20 + 2 * MB_PS) / (double)(20 + MB_PS));
  cr_assert(json_object_get_boolean_member(o, "pre_post_match"));
  cr_assert_eq(json_array_get_length(json_object_get_array_member(o, "interference")), 2);
  g_object_unref(ps);
  g_free(out);
  g_free(err);
  const char *bad[][9] = {
    { "simulate", "-p", "mesh:4", "--jobs", jobs, "--trace", "x", NULL },
    { "simulate", "-p", "mesh:4", "--jobs", jobs, "--alloc", "random:2", NULL },
    { "simulate", "-p", "mesh:4", "--policy", "random", NULL },
    { "simulate", "-p", "mesh:4", "--jobs", jobs, "--policy", "nosuch", NULL },
    { "simulate", "-p", "mesh:4", "--jobs", "/nonexistent.ini", NULL },
    { "simulate", "-p", "dragonfly:g=9:a=4:p=2:h=2", "--routing", "ugal", "--jobs", jobs, NULL },
  };
  const char *want[] = { "--trace goes with a single job", "--alloc goes with a single job",
                         "--policy goes with --jobs", "unknown allocation policy 'nosuch'",
                         "/nonexistent.ini", "under an adaptive or per-packet routing (ugal, min-adaptive" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    cr_assert_eq(tu_run(&out, &err, bad[i]), 2, "%zu: %s", i, err);
    cr_assert(strstr(err, want[i]), "%zu: %s", i, err);
    cr_assert_eq(tu_count(err, "\n"), 1, "one line: %s", err);
    g_free(out);
    g_free(err);
  }
}

static gboolean is_png(const char *dir, const char *name)
{
  g_autofree char *text = tu_read(dir, name);
  return memcmp(text, "\x89PNG", 4) == 0;
}

Test(jobs, plot_draws_the_jobs_figures, .timeout = 120)
{
  g_autofree char *jobs = tu_data("jobs/three.ini");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *json = g_build_filename(dir, "three.json", NULL);
  const char *const pairs[] = { NULL, "--no-pairs" };
  for (size_t k = 0; k < G_N_ELEMENTS(pairs); k++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "-p", "torus:4x4x4", "--compute-scale", "0", "--jobs", jobs,
                           "--json", pairs[k], NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    cr_assert(g_file_set_contents(json, out, -1, NULL));
    g_free(out);
    g_free(err);
    const char *plot[] = { "plot", json, "-o", dir, NULL };
    cr_assert_eq(tu_run(&out, &err, plot), 0, "%s", err);
    cr_assert(strstr(out, "three-jobs-links.png") && strstr(out, "three-slowdown.png"), "%s", out);
    cr_assert(is_png(dir, "three-jobs-links.png") && is_png(dir, "three-slowdown.png"));
    g_autofree char *inter = g_build_filename(dir, "three-interference.png", NULL);
    cr_assert_eq(strstr(out, "three-interference.png") != NULL, k == 0, "%s", out);
    cr_assert_eq(g_file_test(inter, G_FILE_TEST_EXISTS), k == 0, "the matrix only with pairs");
    g_unlink(inter);
    g_free(out);
    g_free(err);
  }
}

Test(jobs, study_over_policies_writes_jobs_csv_and_the_report, .timeout = 300)
{
  g_autofree char *file = tu_data("studies/y_jobs.ini");
  g_autofree char *dir = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", file, "-o", dir, "-q", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s\n%s", out, err);
  cr_assert(strstr(out, "4 mixes of several jobs (1 jobs file, 2 policies)"), "%s", out);
  cr_assert(strstr(out, "jobs.csv"), "%s", out);
  g_free(out);
  g_free(err);
  g_autofree char *csv = tu_read(dir, "jobs.csv");
  /* a header and 2 platforms x 2 policies x 3 jobs */
  cr_assert_eq(tu_lines(csv), 13, "%s", csv);
  cr_assert(strstr(csv, ",contiguous,flow,,,a2a,contiguous:16,identity,"), "%s", csv);
  cr_assert(strstr(csv, ",random,flow,1,,cg,random:16:2,identity,"), "%s", csv);
  cr_assert_eq(tu_count(csv, "nodes 56-63"), 4, "the node list job keeps its nodes:\n%s", csv);
  cr_assert_eq(tu_count(csv, ",true\n"), 12, "every job passes pre == post:\n%s", csv);
  g_autofree char *html = tu_read(dir, "index.html");
  cr_assert(strstr(html, "Several jobs on one network"));
  cr_assert(strstr(html, "slowdown_three_torus-4x4x4_flow"));
  cr_assert(strstr(html, "interference_three_dragonfly"));
  /* a bad policy, named with its line */
  g_autofree char *bad = tu_write_tmp("bad.ini", "[study]\njobs = /nonexistent.ini\n"
                                      "policies = random; nosuch\nplatforms = torus:4x4x4\n");
  const char *bargs[] = { "study", bad, "-o", dir, NULL };
  cr_assert_eq(tu_run(&out, &err, bargs), 2, "%s", err);
  cr_assert(strstr(err, "bad.ini:2: [study] jobs: /nonexistent.ini"), "%s", err);
  cr_assert(strstr(err, "bad.ini:3: [study] policies: unknown allocation policy 'nosuch'"), "%s", err);
  g_free(out);
  g_free(err);
}
