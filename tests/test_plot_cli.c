/* test_plot_cli.c - what `mapsim plot` reads: the provenance simulate
 * --json and simulate --jobs --json write (and the titles plot takes from
 * it), a --timeline file drawn as a picture, and every input checked
 * before anything is drawn - a member of the wrong type is one line naming
 * the file and the member, exit 2, and no figure left behind. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/plot.h"
#include "report/report.h"
#include "testutil.h"

/* `mapsim ARGS` that must succeed; its standard output (caller frees). */
static char *run_ok(const char *const *args)
{
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_free(err);
  return out;
}

static JsonObject *object_of(JsonParser *jp, const char *json)
{
  cr_assert(json_parser_load_from_data(jp, json, -1, NULL), "%s", json);
  return json_node_get_object(json_parser_get_root(jp));
}

static int files_in(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  int n = 0;
  if (!d)
    return 0;
  while (g_dir_read_name(d))
    n++;
  g_dir_close(d);
  return n;
}

/* simulate --json says what made the run: the trace, platform, strategy,
 * mapping file, seed, model, compute scale and mapsim's version; the jobs
 * JSON the jobs file, and per job its trace and seed. */
Test(plot_cli, simulate_json_carries_its_provenance, .timeout = 120)
{
  g_autofree char *cg = tu_src("traces/data/cg-16");
  const char *sim[] = { "simulate", "-p", "torus:4x4x4", "-t", cg, "-s", "random",
                        "--seed", "7", "--model", "flow", "--compute-scale", "0.5", "--json",
                        NULL };
  g_autofree char *json = run_ok(sim);
  JsonParser *jp = json_parser_new();
  JsonObject *pv = json_object_get_object_member(object_of(jp, json), "provenance");
  cr_assert_not_null(pv, "%s", json);
  cr_assert_str_eq(json_object_get_string_member(pv, "trace"), cg);
  cr_assert_str_eq(json_object_get_string_member(pv, "platform"), "torus:4x4x4");
  cr_assert_str_eq(json_object_get_string_member(pv, "strategy"), "random");
  cr_assert(json_node_is_null(json_object_get_member(pv, "mapping_file")));
  cr_assert_eq(json_object_get_int_member(pv, "seed"), 7);
  cr_assert_str_eq(json_object_get_string_member(pv, "model"), "flow");
  cr_assert_float_eq(json_object_get_double_member(pv, "compute_scale"), 0.5, 0);
  char *version = NULL;
  const char *ver[] = { "--version", NULL };
  cr_assert_eq(tu_run(&version, NULL, ver), 0);
  g_autofree char *want = g_strdup_printf("mapsim %s\n",
                                          json_object_get_string_member(pv, "mapsim"));
  cr_assert_str_eq(version, want);
  g_free(version);
  g_object_unref(jp);
  g_autofree char *jobs = tu_data("jobs/halves.ini");
  const char *mix[] = { "simulate", "-p", "mesh:8x4x4", "--jobs", jobs, "--no-pairs",
                        "--json", NULL };
  g_autofree char *jjson = run_ok(mix);
  jp = json_parser_new();
  JsonObject *root = object_of(jp, jjson);
  pv = json_object_get_object_member(root, "provenance");
  cr_assert_str_eq(json_object_get_string_member(pv, "jobs_file"), jobs);
  cr_assert_str_eq(json_object_get_string_member(pv, "model"), "flow");
  cr_assert_eq(json_object_get_int_member(pv, "seed"), 1);
  JsonObject *job0 = json_array_get_object_element(json_object_get_array_member(root, "jobs"), 0);
  cr_assert(g_str_has_suffix(json_object_get_string_member(job0, "trace"), "stencil3d-64"), "%s",
            jjson);
  cr_assert(json_object_has_member(job0, "seed"));
  g_object_unref(jp);
}

/* plot's titles come from the provenance, not the file name. */
Test(plot_cli, titles_from_the_provenance)
{
  const char *with =
      "{\"provenance\": {\"mapsim\": \"0.1.0\", \"trace\": \"traces/data/cg-16\", "
      "\"strategy\": \"greedy\", \"mapping_file\": null, \"platform\": \"torus:4x4x4\", "
      "\"seed\": 3, \"model\": \"flow\", \"compute_scale\": 1.0}}";
  const char *mapped =
      "{\"provenance\": {\"trace\": \"/x/cg-16\", \"strategy\": null, "
      "\"mapping_file\": \"runs/best.map\", \"seed\": 1, \"model\": \"packet\"}}";
  const char *jobs = "{\"provenance\": {\"jobs_file\": \"tests/data/jobs/halves.ini\", "
                     "\"model\": \"flow\", \"seed\": 1}}";
  const char *none = "{\"links\": []}";
  const char *texts[] = { with, mapped, jobs, none };
  const char *want[] = { "cg-16 mapped by greedy (model flow, seed 3)",
                         "cg-16 mapped by best.map (model packet)",
                         "the jobs of halves.ini (model flow)", "run-7" };
  for (size_t i = 0; i < G_N_ELEMENTS(texts); i++) {
    JsonParser *jp = json_parser_new();
    cr_assert(json_parser_load_from_data(jp, texts[i], -1, NULL));
    report_run run = { json_parser_get_root(jp), "run-7" };
    g_autofree char *label = report_run_label(&run);
    cr_assert_str_eq(label, want[i]);
    g_object_unref(jp);
  }
}

/* Does the SVG paint with colour c? */
static gboolean svg_has_color(const char *svg, plot_rgb c)
{
  return tu_svg_has_rgb(svg, c.r, c.g, c.b);
}

/* A --timeline file drawn: NAME-timeline.png and .svg, the ranks'
 * point-to-point calls in their colour. */
Test(plot_cli, plot_draws_a_timeline, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *tl = g_build_filename(dir, "cg.json", NULL);
  g_autofree char *figs = g_build_filename(dir, "figs", NULL);
  const char *sim[] = { "simulate", "-p", "torus:4x4x4", "-t", cg, "--model", "flow",
                        "--compute-scale", "0", "--timeline", tl, NULL };
  g_free(run_ok(sim));
  const char *plot[] = { "plot", tl, "-o", figs, NULL };
  g_autofree char *out = run_ok(plot);
  g_autofree char *line = g_strdup_printf("%s/cg-timeline.png (.svg)\n", figs);
  cr_assert_str_eq(out, line);
  g_autofree char *png = tu_read(figs, "cg-timeline.png");
  cr_assert_eq(memcmp(png, "\x89PNG", 4), 0);
  g_autofree char *svg = tu_read(figs, "cg-timeline.svg");
  cr_assert(strstr(svg, "<svg"), "not an SVG");
  cr_assert(svg_has_color(svg, plot_category(0)), "no point-to-point slice drawn");
  cr_assert_eq(files_in(figs), 2);
  tu_rm_rf(dir);
}

/* Every file is checked before anything is drawn: a member of the wrong
 * type is one line naming the file, the member and what it should be,
 * exit 2, and the output folder stays empty - also when a good file comes
 * first. Before, an "interference" string ended in a Json-CRITICAL
 * assertion and exit 0, a "job_bytes" string in exit 2 with 4 figures
 * written. */
Test(plot_cli, every_input_checked_before_drawing, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *jobs = tu_data("jobs/halves.ini");
  g_autofree char *tl = g_build_filename(dir, "tl.json", NULL);
  const char *sim[] = { "simulate", "-p", "mesh:8x4x4", "-t", cg, "--json", "--timeline", tl,
                        NULL };
  g_autofree char *run = run_ok(sim);
  const char *mix[] = { "simulate", "-p", "mesh:8x4x4", "--jobs", jobs, "--json", NULL };
  g_autofree char *mixed = run_ok(mix);
  g_autofree char *tltext = tu_read(dir, "tl.json");
  g_autofree char *good = g_build_filename(dir, "good.json", NULL);
  cr_assert(g_file_set_contents(good, run, -1, NULL));
  const struct {
    const char *from, *find, *put, *member;
  } cases[] = {
    { mixed, "\"interference\" : [", "\"interference\" : \"x\", \"was\" : [", "interference" },
    { mixed, "\"job_bytes\" : [", "\"job_bytes\" : \"x\", \"was\" : [", "links[0].job_bytes" },
    { run, "\"link\" : ", "\"link\" : \"x\", \"was\" : ", "links[0].link" },
    { run, "\"busy_s\" : ", "\"busy_s\" : \"x\", \"was\" : ", "links[0].busy_s" },
    { run, "\"platform\" : {", "\"platform\" : 5, \"was\" : {", "platform" },
    { run, "\"provenance\" : {", "\"provenance\" : [], \"was\" : {", "provenance" },
    { tltext, "\"dur\":", "\"dur\":\"x\",\"was\":", ".dur" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *at = strstr(cases[i].from, cases[i].find);
    cr_assert_not_null(at, "case %zu: no %s", i, cases[i].find);
    GString *text = g_string_new_len(cases[i].from, at - cases[i].from);
    g_string_append(text, cases[i].put);
    g_string_append(text, at + strlen(cases[i].find));
    g_autofree char *bad = g_build_filename(dir, "bad.json", NULL);
    cr_assert(g_file_set_contents(bad, text->str, -1, NULL));
    g_string_free(text, TRUE);
    g_autofree char *figs = g_build_filename(dir, "figs", NULL);
    char *out = NULL, *err = NULL;
    const char *plot[] = { "plot", good, bad, "-o", figs, NULL };
    /* a jobs run and a timeline draw alone; the run pairs with the good one */
    const char *alone[] = { "plot", bad, "-o", figs, NULL };
    int st = tu_run(&out, &err, i < 2 || i == 6 ? alone : plot);
    cr_assert_eq(st, 2, "case %zu: exit %d\n%s%s", i, st, out, err);
    g_autofree char *want = g_strdup_printf("mapsim: %s: ", bad);
    cr_assert(g_str_has_prefix(err, want), "case %zu: %s", i, err);
    cr_assert(strstr(err, cases[i].member), "case %zu: no %s in %s", i, cases[i].member, err);
    cr_assert(strstr(err, ": expected "), "case %zu: %s", i, err);
    cr_assert_eq(tu_lines(err), 1, "case %zu: %s", i, err);
    cr_assert_eq(files_in(figs), 0, "case %zu: figures written", i);
    g_free(out);
    g_free(err);
    tu_rm_rf(figs);
  }
  tu_rm_rf(dir);
}

/* null is what mapsim writes for a number that is not finite
 * (util/json-number.h: a slowdown beside a job that took no time): a jobs
 * run whose interference matrix and slowdown hold null is drawn, those
 * cells left blank, without a json-glib critical (the figure read the
 * null as a double) and with status 0. */
Test(plot_cli, jobs_run_with_null_numbers_drawn, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *jobs = tu_data("jobs/halves.ini");
  const char *mix[] = { "simulate", "-p", "mesh:8x4x4", "--jobs", jobs, "--json", NULL };
  g_autofree char *mixed = run_ok(mix);
  const char *at = strstr(mixed, "\"interference\" : [");
  cr_assert_not_null(at);
  const char *first = strpbrk(at + strlen("\"interference\" : ["), "0123456789");
  cr_assert_not_null(first);
  size_t len = strspn(first, "0123456789.e-+");
  GString *text = g_string_new_len(mixed, first - mixed);
  g_string_append(text, "null");
  g_string_append(text, first + len);
  g_autofree char *path = g_build_filename(dir, "mix.json", NULL);
  cr_assert(g_file_set_contents(path, text->str, -1, NULL));
  g_string_free(text, TRUE);
  g_autofree char *figs = g_build_filename(dir, "figs", NULL);
  char *out = NULL, *err = NULL;
  const char *plot[] = { "plot", path, "-o", figs, NULL };
  cr_assert_eq(tu_run(&out, &err, plot), 0, "%s", err);
  cr_assert_null(strstr(err, "CRITICAL"), "%s", err);
  cr_assert(strstr(out, "mix-interference.png"), "%s", out);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
}
