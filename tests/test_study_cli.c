/* test_study_cli.c - `mapsim study`: the same results for any -j, ties in
 * the rank column as the console shows them, a study killed mid-way and
 * resumed, an edited study that reruns only what changed, slices merged
 * into the single-machine results, results.json equal to results.csv, and
 * every bad study file rejected before anything runs with all its problems
 * and their lines. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "studytest.h"

static char *study_file(const char *name)
{
  g_autofree char *rel = g_build_filename("studies", name, NULL);
  return tu_data(rel);
}

static int run_study(char **out, char **err, const char *file, const char *dir, const char *jobs)
{
  const char *args[] = { "study", file, "-o", dir, "-j", jobs, "--quiet", "--no-report", NULL };
  return tu_run(out, err, args);
}

Test(study_cli, same_results_with_1_and_4_threads, .timeout = 240)
{
  g_autofree char *file = study_file("y_grid.ini");
  g_autofree char *d1 = tu_tmp_dir(), *d4 = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  cr_assert_eq(run_study(&out, &err, file, d1, "1"), 0, "%s%s", out, err);
  cr_assert_not_null(strstr(out, "12 cells: 2 inputs (2 traces), 2 platforms, 3 strategies"), "%s", out);
  g_free(out);
  g_free(err);
  cr_assert_eq(run_study(NULL, NULL, file, d4, "4"), 0);
  g_autofree char *a = tu_read(d1, "results.csv"), *b = tu_read(d4, "results.csv");
  cr_assert_eq(tu_lines(a), 13, "a header and 12 cells:\n%s", a);
  g_autofree char *a2 = csv_without(a, "map_s"), *b2 = csv_without(b, "map_s");
  cr_assert_str_eq(a2, b2);
  /* the rows are in factorial order and carry the names of metrics/simulate */
  g_auto(GStrv) lines = g_strsplit(a, "\n", -1);
  cr_assert(g_str_has_prefix(lines[0], "input,kind,platform,strategy,model,seed,error,map_s,"
                                       "pre_tasks,"), "%s", lines[0]);
  cr_assert_not_null(strstr(lines[0], ",makespan_s,"));
  cr_assert_not_null(strstr(lines[0], ",post_hop_bytes,"));
  /* the shorthand torus:4x4x4 is labelled as the file haec-4x4x4.ini is */
  cr_assert(g_str_has_prefix(lines[1], "cg-16,bytes,torus-4x4x4,identity,flow,1,,"), "%s",
            lines[1]);
  cr_assert(g_str_has_prefix(lines[12], "stencil3d-64,bytes,haec-4x4x4,greedy+wh,flow,1,,"),
            "%s", lines[12]);
}

/* On a full allocation sweep places the ranks as identity does: CG's
 * makespans are equal, and results.csv ranks them both 3rd (after greedy
 * and random, as the console's "=3" says), the same with 1 and 2 threads. */
Test(study_cli, rank_column_ties_as_the_console, .timeout = 240)
{
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nplatforms = torus:4x2x2\n"
                                          "strategies = identity; sweep; random; greedy\n"
                                          "models = flow\n", cg);
  g_autofree char *file = tu_write_tmp("tie.ini", text);
  g_autofree char *d1 = tu_tmp_dir(), *d2 = tu_tmp_dir();
  char *out = NULL;
  cr_assert_eq(run_study(&out, NULL, file, d1, "1"), 0);
  cr_assert_eq(run_study(NULL, NULL, file, d2, "2"), 0);
  g_autofree char *a = tu_read(d1, "results.csv"), *b = tu_read(d2, "results.csv");
  g_autofree char *a2 = csv_without(a, "map_s"), *b2 = csv_without(b, "map_s");
  cr_assert_str_eq(a2, b2);
  g_auto(GStrv) lines = g_strsplit(a, "\n", -1);
  GPtrArray *head = csv_split(lines[0]);
  int rank = -1, strategy = -1;
  for (guint i = 0; i < head->len; i++) {
    rank = strcmp(g_ptr_array_index(head, i), "rank") == 0 ? (int)i : rank;
    strategy = strcmp(g_ptr_array_index(head, i), "strategy") == 0 ? (int)i : strategy;
  }
  cr_assert(rank >= 0 && strategy >= 0, "%s", lines[0]);
  const char *want[][2] = { { "identity", "3" }, { "sweep", "3" }, { "random", "2" },
                            { "greedy", "1" } };
  for (int l = 0; l < 4; l++) {
    GPtrArray *cells = csv_split(lines[l + 1]);
    cr_assert_str_eq(g_ptr_array_index(cells, strategy), want[l][0]);
    cr_assert_str_eq(g_ptr_array_index(cells, rank), want[l][1], "%s", want[l][0]);
    g_ptr_array_free(cells, TRUE);
  }
  g_ptr_array_free(head, TRUE);
  cr_assert(strstr(out, "=3 identity") && strstr(out, "=3 sweep"), "%s", out);
  g_free(out);
}

/* Every CSV column of every cell equals the JSON member it is named
 * after; the stencil's identity on the torus is its own shape: 1152
 * messages of 4096 bytes, one hop each (as `compare` says). */
Test(study_cli, json_equals_csv_and_known_values, .timeout = 240)
{
  g_autofree char *file = study_file("y_grid.ini");
  g_autofree char *dir = tu_tmp_dir();
  cr_assert_eq(run_study(NULL, NULL, file, dir, "2"), 0);
  g_autofree char *csv = tu_read(dir, "results.csv");
  g_autofree char *json = tu_read(dir, "results.json");
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, json, -1, NULL));
  JsonArray *cells = json_object_get_array_member(json_node_get_object(json_parser_get_root(jp)),
                                                  "cells");
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  GPtrArray *head = csv_split(lines[0]);
  cr_assert_eq(json_array_get_length(cells), 12);
  for (guint r = 0; r < 12; r++) {
    JsonObject *o = json_array_get_object_element(cells, r);
    GPtrArray *row = csv_split(lines[r + 1]);
    cr_assert_eq(row->len, head->len);
    for (guint k = 0; k < head->len; k++) {
      const char *name = g_ptr_array_index(head, k), *text = g_ptr_array_index(row, k);
      JsonObject *in = o;
      const char *member = name;
      if (g_str_has_prefix(name, "pre_") && strcmp(name, "pre_post_match") != 0) {
        in = json_object_get_object_member(o, "pre");
        member = name + 4;
      } else if (g_str_has_prefix(name, "post_")) {
        in = json_object_get_object_member(o, "post");
        member = name + 5;
      }
      cr_assert(json_object_has_member(in, member), "JSON lacks %s", name);
      JsonNode *v = json_object_get_member(in, member);
      if (JSON_NODE_HOLDS_NULL(v)) {
        cr_assert_str_eq(text, "", "%s", name);
      } else if (json_node_get_value_type(v) == G_TYPE_STRING) {
        cr_assert_str_eq(text, json_node_get_string(v), "%s", name);
      } else if (json_node_get_value_type(v) == G_TYPE_BOOLEAN) {
        cr_assert_str_eq(text, json_node_get_boolean(v) ? "true" : "false", "%s", name);
      } else {
        double x = g_ascii_strtod(text, NULL), y = json_node_get_double(v);
        cr_assert(x == y || fabs(x - y) <= 1e-15 * fabs(y), "%s: %s vs %.17g", name, text, y);
      }
    }
    g_ptr_array_free(row, TRUE);
  }
  /* cell 7 (1-based): stencil3d-64, torus, identity */
  JsonObject *c = json_array_get_object_element(cells, 6);
  cr_assert_str_eq(json_object_get_string_member(c, "input"), "stencil3d-64");
  cr_assert_str_eq(json_object_get_string_member(c, "strategy"), "identity");
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(c, "pre"), "hop_bytes"),
               1152 * 4096);
  cr_assert(json_object_get_boolean_member(c, "pre_post_match"));
  g_ptr_array_free(head, TRUE);
  g_object_unref(jp);
}

/* Runs `argv` (a study writing to argv[4]) and sends it `sig` once at
 * least 3 cells are stored; the exit status in *status, the cells stored
 * returned. A study that stored all `total` cells before the signal came
 * (a loaded machine delays the log's writes, which then land in one
 * batch) did not stop mid-way: its folder goes and it runs again, up to
 * five times. */
static int stop_midway(const char **argv, int sig, int total, int *status)
{
  int stored = 0;
  for (int attempt = 0; attempt < 5; attempt++) {
    GPid pid = study_start(argv, 3);
    kill(pid, sig);
    waitpid(pid, status, 0);
    g_spawn_close_pid(pid);
    stored = count_cells(argv[4], NULL);
    if (stored < total)
      break;
    tu_rm_rf(argv[4]);
  }
  return stored;
}

/* A study of 32 cells of about 0.1 s each, killed (SIGKILL) once a few
 * cells are stored, then run again: it reads the stored cells, runs the
 * rest, and gives the CSV of an uninterrupted run. */
Test(study_cli, killed_and_resumed_gives_the_same_csv, .timeout = 600)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *trace = g_build_filename(tmp, "a2a64", NULL);
  const char *gen[] = { "gen", "--pattern", "alltoall", "--ranks", "64", "--bytes", "65536",
                        "--iterations", "3", "-o", trace, NULL };
  cr_assert_eq(tu_run(NULL, NULL, gen), 0);
  g_autofree char *ini = g_strdup_printf(
      "[study]\ntraces = a2a64\nplatforms = torus:4x4x4; mesh:4x4x4\n"
      "strategies = identity; random; hilbert; greedy\nmodels = flow; packet\nseeds = 1; 2\n");
  const int total = 32;
  g_autofree char *file = g_build_filename(tmp, "kill.ini", NULL);
  cr_assert(g_file_set_contents(file, ini, -1, NULL));
  g_autofree char *whole = g_build_filename(tmp, "whole", NULL);
  g_autofree char *cut = g_build_filename(tmp, "cut", NULL);
  cr_assert_eq(run_study(NULL, NULL, file, whole, "2"), 0);

  const char *exe = g_getenv("MAPSIM");
  const char *argv[] = { exe, "study", file, "-o", cut, "-j", "1", "--quiet", "--no-report",
                         NULL };
  int status;
  int stored = stop_midway(argv, SIGKILL, total, &status);
  cr_assert(WIFSIGNALED(status), "the study ended before it was killed (%d cells stored)",
            stored);
  cr_assert(stored >= 3 && stored < total, "%d cells stored when killed", stored);
  g_autofree char *log = NULL;
  count_cells(cut, &log);
  /* as if it had died in the middle of a record: half a line more */
  FILE *f = fopen(log, "a");
  cr_assert_not_null(f);
  fputs("{\"key\": \"0123\", \"row\": [[null, \"inp", f);
  fclose(f);
  g_autofree char *partial = g_build_filename(cut, "results.csv", NULL);
  cr_assert_not(g_file_test(partial, G_FILE_TEST_EXISTS), "no results before the end");

  char *out = NULL;
  cr_assert_eq(run_study(&out, NULL, file, cut, "2"), 0);
  g_autofree char *expect = g_strdup_printf("%d cells: %d read from %s/cells, %d run", total,
                                            stored, cut, total - stored);
  cr_assert_not_null(strstr(out, expect), "expected '%s' in:\n%s", expect, out);
  g_free(out);
  g_autofree char *a = tu_read(whole, "results.csv"), *b = tu_read(cut, "results.csv");
  g_autofree char *a2 = csv_without(a, "map_s"), *b2 = csv_without(b, "map_s");
  cr_assert_str_eq(a2, b2);

  /* ^C: the cells running stop, exit 130, none is kept as failed */
  g_autofree char *intr = g_build_filename(tmp, "int", NULL);
  argv[4] = intr;
  int kept = stop_midway(argv, SIGINT, total, &status);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "status %d after SIGINT", status);
  cr_assert(kept >= 3 && kept < total, "%d cells kept", kept);
  char *err = NULL;
  cr_assert_eq(run_study(NULL, &err, file, intr, "2"), 0, "%s", err);
  cr_assert_null(strstr(err, "interrupted"), "%s", err);
  g_free(err);
  g_autofree char *c = tu_read(intr, "results.csv");
  g_autofree char *c2 = csv_without(c, "map_s");
  cr_assert_str_eq(a2, c2);
}

/* An edited study file reruns only the cells whose key changed: a new
 * strategy adds its cells; a changed model reruns the trace cells only. */
Test(study_cli, edited_study_reruns_only_changed_cells, .timeout = 240)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *tr = tu_src("traces/data/cg-16");
  g_autofree char *mx = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *file = g_build_filename(tmp, "edit.ini", NULL);
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
#define EDIT_FMT "[study]\ntraces = %s\nmatrices = %s\nplatforms = torus:4x4x4\n" \
                 "strategies = %s\nmodels = %s\n"
  g_autofree char *v1 = g_strdup_printf(EDIT_FMT, tr, mx, "identity; greedy", "analytic");
  g_autofree char *v2 = g_strdup_printf(EDIT_FMT, tr, mx, "identity; greedy; scotch", "analytic");
  g_autofree char *v3 = g_strdup_printf(EDIT_FMT, tr, mx, "identity; greedy; scotch", "flow");
  const char *versions[] = { v1, v2, v3 };
  const char *expect[] = { "4 cells: 0 read from", "6 cells: 4 read from", "6 cells: 3 read from" };
  const char *ran[] = { "4 run on", "2 run on", "3 run on" };
  for (int i = 0; i < 3; i++) {
    cr_assert(g_file_set_contents(file, versions[i], -1, NULL));
    char *out = NULL;
    cr_assert_eq(run_study(&out, NULL, file, dir, "2"), 0, "%s", out);
    cr_assert_not_null(strstr(out, expect[i]), "version %d: %s", i + 1, out);
    cr_assert_not_null(strstr(out, ran[i]), "version %d: %s", i + 1, out);
    g_free(out);
  }
}

/* The slices of an emitted study, run one by one and merged, give the
 * single-machine results (the Slurm test does the same through sbatch). */
Test(study_cli, slices_merge_into_the_single_machine_csv, .timeout = 240)
{
  g_autofree char *file = study_file("y_grid.ini");
  g_autofree char *single = tu_tmp_dir(), *batch = tu_tmp_dir();
  cr_assert_eq(run_study(NULL, NULL, file, single, "2"), 0);
  char *out = NULL;
  const char *emit[] = { "study", file, "--emit-slurm", batch, "--slices", "3", NULL };
  cr_assert_eq(tu_run(&out, NULL, emit), 0);
  cr_assert_not_null(strstr(out, "(3 array tasks)"), "%s", out);
  g_free(out);
  g_autofree char *script = tu_read(batch, "study.sbatch");
  cr_assert_not_null(strstr(script, "#SBATCH --array=1-3"), "%s", script);
  cr_assert_not_null(strstr(script, "--slice \"${SLURM_ARRAY_TASK_ID}/3\""), "%s", script);
  g_autofree char *ini = g_build_filename(batch, "study.ini", NULL);
  /* merging before every slice ran names what is missing */
  const char *merge[] = { "study", "--merge", batch, "--no-report", NULL };
  char *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, merge), 2);
  cr_assert_not_null(strstr(err, "12 of 12 cells have no stored result"), "%s", err);
  g_free(err);
  for (int k = 1; k <= 3; k++) {
    g_autofree char *slice = g_strdup_printf("%d/3", k);
    const char *args[] = { "study", ini, "-o", batch, "--slice", slice, "-q", NULL };
    cr_assert_eq(tu_run(NULL, NULL, args), 0);
    g_autofree char *part = g_strdup_printf("slice-%d-of-3.csv", k);
    g_autofree char *text = tu_read(batch, part);
    cr_assert_eq(tu_lines(text), 5, "a header and 4 cells:\n%s", text);
  }
  cr_assert_eq(tu_run(NULL, NULL, merge), 0);
  g_autofree char *a = tu_read(single, "results.csv"), *b = tu_read(batch, "results.csv");
  g_autofree char *a2 = csv_without(a, "map_s"), *b2 = csv_without(b, "map_s");
  cr_assert_str_eq(a2, b2);
}

/* Every bad study file: exit 2, nothing run, nothing written, and every
 * problem on its own line "FILE:LINE: ...". */
typedef struct bad_case {
  const char *file;
  const char *lines[8]; /* "LINE: text" fragments, in order, NULL-terminated */
} bad_case;

static const bad_case bad_cases[] = {
  { "n_missing_input.ini",
    { "n_missing_input.ini:3: trace ", "n_missing_input.ini:7: matrix " } },
  { "n_unknown_strategy.ini",
    { "n_unknown_strategy.ini:5: strategy 'teleport': unknown strategy 'teleport'",
      "n_unknown_strategy.ini:8: strategy 'wh': wh:delta=many: expected an integer" } },
  { "n_unknown_platform.ini",
    { "n_unknown_platform.ini:4: platform 'hypercube:4x4'",
      "n_unknown_platform.ini:7: platform 'big': " } },
  { "n_too_many_ranks.ini",
    { "n_too_many_ranks.ini:4: platform 'torus-2x2x2' cannot hold input 'stencil3d-64' (line 3): "
      "torus:2x2x2: 64 ranks do not fit 8 allocated nodes",
      "n_too_many_ranks.ini:7: platform 'half' cannot hold input 'stencil3d-64' (line 3): "
      "torus:4x4x4: 64 ranks do not fit 32 allocated nodes" } },
  { "n_syntax.ini",
    { "n_syntax.ini:4: 'this line has no equals sign' is not a key = value line",
      "n_syntax.ini:5: '[platform broken' is not a group header" } },
  { "n_keys.ini",
    { "n_keys.ini:5: strategy 'identity' is defined twice",
      "n_keys.ini:6: [study] models: 'warp' is unknown",
      "n_keys.ini:7: [study] seeds: '-2' is not an integer",
      "n_keys.ini:8: [study] unknown key 'colour'",
      "n_keys.ini:10: unknown group [platfrom torus]",
      "n_keys.ini:14: [report] time = hop_bytes: expected a simulated field" } },
};

Test(study_cli, bad_study_files_list_every_problem, .timeout = 120)
{
  for (size_t i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
    const bad_case *bc = &bad_cases[i];
    g_autofree char *file = study_file(bc->file);
    g_autofree char *dir = tu_tmp_dir();
    g_autofree char *outdir = g_build_filename(dir, "out", NULL);
    char *out = NULL, *err = NULL;
    const char *args[] = { "study", file, "-o", outdir, "-q", NULL };
    cr_assert_eq(tu_run(&out, &err, args), 2, "%s: %s", bc->file, err);
    cr_assert_str_eq(out, "", "%s: nothing may run: %s", bc->file, out);
    cr_assert_not(g_file_test(outdir, G_FILE_TEST_EXISTS), "%s: wrote %s", bc->file, outdir);
    g_auto(GStrv) lines = g_strsplit(err, "\n", -1);
    int n = 0;
    while (bc->lines[n])
      n++;
    cr_assert_eq(tu_lines(err), n, "%s: expected %d problems:\n%s", bc->file, n, err);
    for (int k = 0; k < n; k++) {
      g_autofree char *want = g_strconcat("mapsim: ", file, ":", strchr(bc->lines[k], ':') + 1,
                                          NULL);
      cr_assert(g_str_has_prefix(lines[k], want), "%s: line %d\n  got:      %s\n  expected: %s",
                bc->file, k + 1, lines[k], want);
    }
    g_free(out);
    g_free(err);
  }
}

/* The paper's design in bench/table5.ini stays a valid study: 4 MapLib
 * matrices x 2 kinds x 3 platforms x 12 strategies = 288 static cells,
 * plus 4 traces x 2 kinds x 3 x 12 x 2 models = 576 replays. */
Test(study_cli, bench_table5_is_a_valid_study, .timeout = 120)
{
  g_autofree char *file = tu_src("bench/table5.ini");
  char *out = NULL;
  const char *args[] = { "study", file, "--check", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0, "%s", out);
  cr_assert_not_null(strstr(out, "864 cells: 8 inputs (4 traces), 3 platforms, 12 strategies"),
                     "%s", out);
  g_free(out);
}

/* Runs `mapsim study FILE -o DIR -j 2 -q EXTRA...`: the exit status. */
static int study_in(const char *file, const char *dir, const char *extra, char **err)
{
  const char *args[] = { "study", file, "-o", dir, "-j", "2", "--quiet", extra, NULL };
  char *out = NULL;
  int st = tu_run(&out, err, args);
  g_free(out);
  return st;
}

static gboolean exists_in(const char *dir, const char *rel)
{
  g_autofree char *path = g_build_filename(dir, rel, NULL);
  return g_file_test(path, G_FILE_TEST_EXISTS);
}

/* Issue 35 item 10: a rerun that drops a platform removes its figures,
 * one with --no-report the old report, one whose report fails (its
 * figures folder cannot be made) the old index.html beside the new
 * results; DIR/manifest.txt lists what the last run wrote. */
Test(study_cli, rerun_removes_what_it_no_longer_writes, .timeout = 240)
{
  g_autofree char *trace = tu_src("traces/data/ring-8");
  g_autofree char *two_text = g_strdup_printf("[study]\nname = drop\ntraces = %s\n"
                                              "platforms = torus:4x4; mesh:4x4\n"
                                              "strategies = identity\nmodels = analytic\n",
                                              trace);
  g_autofree char *one_text = g_strdup_printf("[study]\nname = drop\ntraces = %s\n"
                                              "platforms = torus:4x4\n"
                                              "strategies = identity\nmodels = analytic\n",
                                              trace);
  g_autofree char *two = tu_write_tmp("drop2.ini", two_text);
  g_autofree char *one = tu_write_tmp("drop1.ini", one_text);
  g_autofree char *dir = tu_tmp_dir();
  const char *mesh = "figures/links_ring-8_mesh-4x4_identity.svg";
  const char *torus = "figures/links_ring-8_torus-4x4_identity.svg";
  char *err = NULL;
  cr_assert_eq(study_in(two, dir, NULL, &err), 0, "%s", err);
  g_free(err);
  cr_assert(exists_in(dir, mesh) && exists_in(dir, torus));
  g_autofree char *m1 = tu_read(dir, "manifest.txt");
  cr_assert(strstr(m1, "\nindex.html\n") && strstr(m1, mesh), "%s", m1);

  cr_assert_eq(study_in(one, dir, NULL, &err), 0, "%s", err);
  g_free(err);
  cr_assert_not(exists_in(dir, mesh), "the dropped platform's figure stayed");
  cr_assert(exists_in(dir, torus) && exists_in(dir, "index.html"));
  g_autofree char *m2 = tu_read(dir, "manifest.txt");
  cr_assert_null(strstr(m2, "mesh"), "%s", m2);

  cr_assert_eq(study_in(one, dir, "--no-report", &err), 0, "%s", err);
  g_free(err);
  cr_assert_not(exists_in(dir, "index.html"), "an old report beside new results");
  cr_assert_not(exists_in(dir, torus));
  cr_assert(exists_in(dir, "results.csv"));

  /* the report fails: figures/ is a file; no index.html is left */
  cr_assert_eq(study_in(two, dir, NULL, &err), 0, "%s", err);
  g_free(err);
  cr_assert(exists_in(dir, "index.html"));
  g_autofree char *figs = g_build_filename(dir, "figures", NULL);
  tu_rm_rf(figs);
  cr_assert(g_file_set_contents(figs, "x", 1, NULL));
  cr_assert_eq(study_in(one, dir, NULL, &err), 2, "%s", err);
  cr_assert(strstr(err, "figures"), "%s", err);
  g_free(err);
  cr_assert_not(exists_in(dir, "index.html"), "the old report beside the new results");
  g_autofree char *csv = tu_read(dir, "results.csv");
  cr_assert_null(strstr(csv, "mesh"), "%s", csv);
  tu_rm_rf(dir);
  g_unlink(one);
  g_unlink(two);
}

/* study --help lists every [report] key the reader accepts (one table). */
Test(study_cli, help_lists_the_report_keys)
{
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", "--help", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  const char *keys[] = { "  time = makespan_s ", "  rank-static = hop_bytes ", "  links = ",
                         "  color = bytes " };
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    cr_assert(strstr(out, keys[i]), "no '%s' in:\n%s", keys[i], out);
  g_free(out);
  g_free(err);
  /* and the reader refuses a key not in that table, naming the ones it has */
  g_autofree char *bad = tu_write_tmp("bad.ini", "[study]\nplatforms = torus:4x4\n"
                                      "strategies = identity\ntraces = x\n[report]\ncolour = busy\n");
  const char *check[] = { "study", "--check", bad, NULL };
  cr_assert_eq(tu_run(&out, &err, check), 2, "%s", err);
  cr_assert(strstr(err, "colour"), "%s", err);
  g_free(out);
  g_free(err);
}

/* With several seeds the header says that every strategy repeats per
 * seed, deterministic ones too (identity at seeds 1 and 2: 2 cells). */
Test(study_cli, header_says_strategies_repeat_per_seed)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nplatforms = torus:4x4\n"
                                          "strategies = identity\nseeds = 1; 2\n", ring);
  g_autofree char *file = tu_write_tmp("seeds.ini", text);
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", "--check", file, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  cr_assert(strstr(out, "2 cells: ") && strstr(out, "seeds 1, 2 (each strategy runs once per "
                                                    "seed; a deterministic one repeats its result)"),
            "%s", out);
  g_free(out);
  g_free(err);
}
