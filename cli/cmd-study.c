/* cmd-study.c - `mapsim study`: run a study file (every input x kind x
 * platform x strategy x model x seed) on this machine or as a Slurm job
 * array, keep each finished cell, write results.csv/json and the report,
 * and print the strategies ranked per platform (korndoerfer2021 Section 7,
 * Table 5). The study itself is study/study.h; the report report/. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "study/rank.h"
#include "report/report.h"
#include "study/study.h"

/* Where the bundled traces and configs are: $MAPSIM_DATA; the data folder
 * installed next to this binary (BIN/../share/mapsim, wherever the install
 * was moved); the source tree it was built from; the configured data
 * folder. */
static char *data_root(void)
{
  const char *env = g_getenv("MAPSIM_DATA");
  if (env && *env)
    return g_canonicalize_filename(env, NULL);
  g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
  g_autofree char *bin = exe ? g_path_get_dirname(exe) : NULL;
  g_autofree char *installed = bin ? g_build_filename(bin, "..", "share", "mapsim", NULL) : NULL;
  g_autofree char *probe = installed ? g_build_filename(installed, "traces", "data", NULL) : NULL;
  if (probe && g_file_test(probe, G_FILE_TEST_IS_DIR))
    return g_canonicalize_filename(installed, NULL);
  g_autofree char *src = g_build_filename(MAPSIM_SOURCE_ROOT, "traces", "data", NULL);
  if (g_file_test(src, G_FILE_TEST_IS_DIR))
    return g_strdup(MAPSIM_SOURCE_ROOT);
  return g_strdup(MAPSIM_DATADIR);
}

/* The built-in demo: the bundled traces on the paper's three platforms,
 * with absolute paths into `root` (data_root), so that a copy works in any
 * folder. Caller frees. */
static char *demo_study(const char *root)
{
  static const char *const traces[] = { "stencil3d-64", "cg-16", "alltoall-16", "ring-8" };
  static const char *const platforms[] = { "mesh-4x4x4", "torus-4x4x4", "haec-4x4x4" };
  GString *s = g_string_new(
      "# The built-in demo study (mapsim study --demo): the bundled traces on the\n"
      "# three 4x4x4 platforms of korndoerfer2021 (mesh, torus, HAEC Box) with the\n"
      "# main strategies. Communication only (compute-scale 0), links shared by\n"
      "# concurrent messages (model flow), so that the mapping shows in the time.\n"
      "# Copy it (mapsim study --show-demo > my.ini) and edit it for your own study:\n"
      "# the paths below are absolute, so the copy runs from any folder; your own\n"
      "# relative paths are taken from the study file's folder.\n"
      "[study]\n"
      "name = demo: the bundled traces on the paper's 4x4x4 platforms\n"
      "traces = ");
  for (size_t i = 0; i < G_N_ELEMENTS(traces); i++) {
    g_autofree char *path = g_build_filename(root, "traces", "data", traces[i], NULL);
    g_string_append_printf(s, "%s%s", i ? "; " : "", path);
  }
  g_string_append(s, "\nplatforms = ");
  for (size_t i = 0; i < G_N_ELEMENTS(platforms); i++) {
    g_autofree char *file = g_strconcat(platforms[i], ".ini", NULL);
    g_autofree char *path = g_build_filename(root, "configs", file, NULL);
    g_string_append_printf(s, "%s%s", i ? "; " : "", path);
  }
  g_string_append(s, "\nstrategies = identity; random; hilbert; morton; greedy; greedy+wh; "
                     "greedy+wh+mc; kl; scotch\n"
                     "models = flow\n"
                     "compute-scale = 0\n"
                     "\n"
                     "[report]\n"
                     "time = makespan_s\n"
                     "links = stencil3d-64\n");
  return g_string_free(s, FALSE);
}

/* The mapsim binary the batch tasks run. */
static char *self_exe(void)
{
  char *p = g_file_read_link("/proc/self/exe", NULL);
  return p ? p : g_strdup("mapsim");
}

static int fail_study(GError *e)
{
  g_auto(GStrv) lines = g_strsplit(e->message, "\n", -1);
  for (int i = 0; lines[i]; i++)
    fprintf(stderr, "mapsim: %s\n", lines[i]);
  g_error_free(e);
  return 2;
}

/* "greedy+wh +12.3%" in a column of width w; "=1 greedy 0%" when tied. */
static void print_entry(const study *s, const rank_group *r, const rank_entry *e, int w)
{
  g_autofree char *cell = NULL;
  const char *name = s->strategies[e->strategy].label;
  char rk[16] = "", ch[32];
  if (e->tied)
    rank_text(rk, sizeof rk, e);
  rank_entry_change_text(ch, sizeof ch, r, e);
  if (isnan(e->value))
    cell = g_strdup_printf("%s failed", name);
  else if (isnan(e->change) || e->strategy == r->reference)
    cell = g_strdup_printf("%s%s%s", rk, *rk ? " " : "", name);
  else
    cell = g_strdup_printf("%s%s%s %s", rk, *rk ? " " : "", name, ch);
  printf("  %-*s", w, cell);
}

/* Per ranking one line: the three best and the worst strategy with their
 * change against the reference; kind and model only when they vary. */
static void print_ranking(const study *s)
{
  GPtrArray *groups = study_rank(s);
  gboolean kinds = FALSE;
  int wi = 5, wp = 8, ws = 8;
  for (int i = 0; i < s->ninputs; i++) {
    wi = MAX(wi, (int)strlen(s->inputs[i].label));
    kinds |= s->inputs[i].nkinds > 1;
  }
  for (int i = 0; i < s->nplatforms; i++)
    wp = MAX(wp, (int)strlen(s->platforms[i].label));
  for (int i = 0; i < s->nstrategies; i++)
    ws = MAX(ws, (int)strlen(s->strategies[i].label) + 11);
  ws = MIN(ws, 31);
  gboolean models = s->nmodels > 1;
  const char *prev_metric = NULL;
  for (guint g = 0; g < groups->len; g++) {
    const rank_group *r = g_ptr_array_index(groups, g);
    const study_input *in = &s->inputs[r->input];
    if (!prev_metric || strcmp(prev_metric, r->metric) != 0) {
      printf("\nranked by %s (lower is better), =N: tied, %% = change against %s\n", r->metric,
             r->reference >= 0 ? s->strategies[r->reference].label : "(no identity in the study)");
      printf("%-*s%s%s %-*s  %-*s  %-*s  %-*s  %s\n", wi, "input", kinds ? " kind " : "",
             models ? " model     " : "", wp, "platform", ws, "best", ws, "2nd", ws, "3rd",
             "worst");
      prev_metric = r->metric;
    }
    printf("%-*s", wi, in->label);
    if (kinds)
      printf(" %-5s", study_kind_name(in->kinds[r->kind]));
    if (models)
      printf(" %-9s", r->model >= 0 ? s->models[r->model]->name : "-");
    printf(" %-*s", wp, s->platforms[r->platform].label);
    for (int k = 0; k < 3; k++)
      if (k < r->n - (r->n > 3))
        print_entry(s, r, &r->e[k], ws);
      else
        printf("  %-*s", ws, "");
    if (r->n > 3)
      print_entry(s, r, &r->e[r->n - 1], 0);
    printf("\n");
  }
  g_ptr_array_unref(groups);
}

static int count_failed(const study *s, const study_slice *slice)
{
  int n = 0;
  for (int i = 0; i < s->ncells; i++)
    if (study_in_slice(slice, i) && s->cells[i].error)
      n++;
  return n;
}

static int count_mismatch(const study *s)
{
  int n = 0;
  for (int i = 0; i < s->ncells; i++) {
    double v;
    if (s->cells[i].row && row_get_number(s->cells[i].row, "pre_post_match", &v) && v == 0)
      n++;
  }
  for (int i = 0; s->mixes && i < study_nmixes(s); i++)
    n += s->mixes[i] && !mix_result_matches(s->mixes[i]);
  return n;
}

/* The first failing cells and mixes on stderr, then the exit status: 2
 * when cells or mixes failed, 1 when a pre/post check failed, else 0. */
static int report_failures(const study *s, const study_slice *slice)
{
  int failed = count_failed(s, slice), shown = 0;
  for (int i = 0; i < s->ncells && shown < 5; i++) {
    const study_cell *c = &s->cells[i];
    if (!study_in_slice(slice, i) || !c->error)
      continue;
    fprintf(stderr, "mapsim: cell %d (%s, %s, %s): %s\n", i + 1, s->inputs[c->input].label,
            s->platforms[c->platform].label, s->strategies[c->strategy].label,
            c->error->message);
    shown++;
  }
  if (failed > shown)
    fprintf(stderr, "mapsim: ... %d cells failed in all (the error column says why)\n", failed);
  /* a failed mix as a failed cell: on the terminal with its reason */
  int mixes = s->mixes ? study_nmixes(s) : 0, mix_failed = 0;
  for (int i = 0; i < mixes; i++) {
    if (!s->mix_errors[i])
      continue;
    if (mix_failed++ < 5) {
      study_mix_key k;
      study_mix_at(s, i, &k);
      const char *policy = study_mix_policy(s, &k);
      fprintf(stderr, "mapsim: mix %d (%s, %s, policy %s, %s): %s\n", i + 1,
              s->jobfiles[k.jobs]->name, s->platforms[k.platform].label,
              policy ? policy : "as in the file", s->models[k.model]->name,
              s->mix_errors[i]->message);
    }
  }
  if (mix_failed > 5)
    fprintf(stderr, "mapsim: ... %d mixes failed in all (jobs.csv's error column says why)\n",
            mix_failed);
  failed += mix_failed;
  int mismatch = count_mismatch(s);
  if (mismatch)
    fprintf(stderr, "mapsim: the pre/post check failed in %d cells or mixes (pre_post_match = "
            "false)\n", mismatch);
  return failed ? 2 : mismatch ? 1 : 0;
}

static void print_size(const study *s)
{
  g_autofree char *d = study_describe(s);
  printf("study \"%s\": %s\n", s->name, d);
}

/* results.csv, results.json, the report and the ranking of a complete
 * study in `out`. */
static int finish(const cli_common *c, const study *s, const char *out, gboolean report,
                  int threads)
{
  GError *e = NULL;
  study_outputs *written = study_outputs_begin(out); /* what a rerun no longer writes goes */
  if (!study_write_results(s, NULL, out, "results", &e)) {
    study_outputs_end(written, FALSE, NULL);
    return cli_fail(e);
  }
  print_ranking(s);
  printf("\nresults: %s/results.csv, %s/results.json\n", out, out);
  if (s->mixes)
    printf("jobs:    %s/jobs.csv, %s/jobs.json (every job of every mix)\n", out, out);
  if (report) {
    /* the report's steps on the progress line, as the cells' */
    g_autofree char *index = report_study(s, out, threads, cli_progress(c), &e);
    cli_progress_end();
    report_release();
    if (!index) {
      study_outputs_end(written, FALSE, NULL);
      return cli_fail(e);
    }
    printf("report:  %s (the full rankings, whether the static metrics predict the "
           "simulation, figures)\n", index);
  }
  if (!study_outputs_end(written, TRUE, &e))
    return cli_fail(e);
  return report_failures(s, NULL);
}

typedef struct study_args {
  char *out, *slice, *emit, *merge;
  gboolean demo, show_demo, fresh, check, no_report, wait;
  int slices;
} study_args;

/* The output folder's lock; with --wait, after one line saying whom it
 * waits for. NULL after printing why not (*status: the exit status). */
static study_lock *lock_folder(const char *dir, const study_slice *slice, const study_args *a,
                               const cli_common *c, int *status)
{
  GError *e = NULL;
  study_lock *l = study_lock_dir(dir, slice, FALSE, NULL, &e);
  if (!l && g_error_matches(e, STUDY_ERROR, STUDY_ERROR_BUSY)) {
    if (!a->wait) {
      fprintf(stderr, "mapsim: %s, expected a folder no other study writes to (wait for it "
              "with --wait, or choose another one with -o)\n", e->message);
      g_error_free(e);
      *status = 2;
      return NULL;
    }
    fprintf(stderr, "mapsim: %s; waiting for it (--wait)\n", e->message);
    g_clear_error(&e);
    l = study_lock_dir(dir, slice, TRUE, cli_progress(c), &e);
  }
  if (!l)
    *status = cli_fail(e);
  return l;
}

/* The warnings of the loader (a glob's skipped files) or of the store's
 * last read (damaged records). */
static void print_notes(const study *s)
{
  for (guint i = 0; s->notes && i < s->notes->len; i++)
    fprintf(stderr, "mapsim: warning: %s\n", (const char *)g_ptr_array_index(s->notes, i));
}

static int run(const cli_common *c, study_args *a, const char *file)
{
  GError *e = NULL;
  g_autoptr(study) s = NULL;
  g_autofree char *root = NULL, *merge_ini = NULL;
  if (a->merge) {
    merge_ini = g_build_filename(a->merge, "study.ini", NULL);
    s = study_load(merge_ini, NULL, NULL, &e);
  } else if (a->demo) {
    root = data_root();
    g_autofree char *text = demo_study(root);
    s = study_load("demo", text, root, &e);
  } else {
    s = study_load(file, NULL, NULL, &e);
  }
  if (!s)
    return fail_study(e);
  print_notes(s); /* the loader's (a glob's skipped files), before anything runs */
  if (s->notes)
    g_ptr_array_set_size(s->notes, 0);
  for (int i = 0; i < s->ninputs; i++)
    cli_trace_notice(s->inputs[i].t);
  int threads = c->threads > 0 ? c->threads : (int)g_get_num_processors();
  if (a->check) {
    print_size(s);
    return 0;
  }
  int status = 2;
  g_autoptr(study_lock) lock = NULL;
  if (a->emit) {
    if (!(lock = lock_folder(a->emit, NULL, a, c, &status)))
      return status;
    g_autofree char *exe = self_exe();
    if (!study_emit_slurm(s, a->emit, exe, a->slices, c->threads > 0 ? c->threads : 1, &e))
      return cli_fail(e);
    print_size(s);
    printf("wrote %s/study.ini and %s/study.sbatch (%d array tasks)\n"
           "submit:  sbatch %s/study.sbatch\n"
           "then:    %s study --merge %s\n",
           a->emit, a->emit, CLAMP(a->slices, 1, MAX(s->ncells, 1)), a->emit, exe, a->emit);
    return 0;
  }
  if (a->merge) {
    if (!(lock = lock_folder(a->merge, NULL, a, c, &status)))
      return status;
    int missing = study_collect(s, a->merge, &e);
    print_notes(s);
    if (missing < 0)
      return cli_fail(e);
    if (missing) {
      g_set_error(&e, STUDY_ERROR, STUDY_ERROR_MISSING,
                  "%s: %d of %d cells have no stored result in %s/cells; did every array task "
                  "finish? (see %s/logs)",
                  merge_ini, missing, s->ncells, a->merge, a->merge);
      return cli_fail(e);
    }
    print_size(s);
    return finish(c, s, a->merge, !a->no_report, threads);
  }
  study_slice slice, *sl = NULL;
  if (a->slice) {
    if (!study_parse_slice(a->slice, &slice, &e))
      return cli_fail(e);
    sl = &slice;
  }
  g_autofree char *out = NULL;
  if (a->out) {
    out = g_strdup(a->out);
  } else if (a->demo) {
    out = g_strdup("mapsim-demo");
  } else {
    g_autofree char *base = g_path_get_basename(file);
    char *dot = strrchr(base, '.');
    if (dot && dot != base)
      *dot = '\0';
    out = g_strconcat(base, "-study", NULL);
  }
  if (!(lock = lock_folder(out, sl, a, c, &status)))
    return status;
  print_size(s);
  const progress *prog = cli_progress(c);
  gboolean ok = study_run(s, sl, threads, out, a->fresh, prog, &e);
  cli_progress_end();
  print_notes(s);
  if (!ok)
    return cli_fail(e);
  int stored = 0, ran = 0, todo = 0;
  for (int i = 0; i < s->ncells; i++) {
    stored += s->cells[i].stored;
    ran += s->cells[i].ran;
    todo += study_in_slice(sl, i);
  }
  printf("%d cells: %d read from %s/cells, %d run on %d thread%s\n", todo, stored, out, ran,
         threads, threads == 1 ? "" : "s");
  if (progress_stopped(prog)) {
    fprintf(stderr, "mapsim: interrupted: %d of %d cells are stored in %s/cells; run the same "
            "command again to continue\n", stored + ran, todo, out);
    return 130;
  }
  if (sl) {
    g_autofree char *stem = g_strdup_printf("slice-%d-of-%d", sl->k, sl->n);
    if (!study_write_results(s, sl, out, stem, &e))
      return cli_fail(e);
    printf("slice %d of %d: %s/%s.csv, %s/%s.json; merge all slices with: mapsim study "
           "--merge %s\n", sl->k, sl->n, out, stem, out, stem, out);
    return report_failures(s, sl);
  }
  return finish(c, s, out, !a->no_report, threads);
}

int cmd_study(int argc, char **argv)
{
  cli_common c;
  study_args a = { .slices = 4 };
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.out,
      "Output folder: cells/, results.csv, results.json, index.html (default: FILE's name + "
      "-study, or mapsim-demo)", "DIR" },
    { "demo", 0, 0, G_OPTION_ARG_NONE, &a.demo,
      "Run the built-in demo study (bundled traces, the paper's three platforms)", NULL },
    { "show-demo", 0, 0, G_OPTION_ARG_NONE, &a.show_demo,
      "Print the demo's study file (a template for your own)", NULL },
    { "check", 0, 0, G_OPTION_ARG_NONE, &a.check,
      "Check the study file and count its cells; run nothing", NULL },
    { "fresh", 0, 0, G_OPTION_ARG_NONE, &a.fresh,
      "Run every cell again, even those stored in DIR/cells", NULL },
    { "slice", 0, 0, G_OPTION_ARG_STRING, &a.slice,
      "Run only slice K of N (cells i with i mod N = K-1) and write DIR/slice-K-of-N.csv/json",
      "K/N" },
    { "emit-slurm", 0, 0, G_OPTION_ARG_FILENAME, &a.emit,
      "Write DIR/study.sbatch, a Slurm job array whose tasks run the slices", "DIR" },
    { "slices", 0, 0, G_OPTION_ARG_INT, &a.slices,
      "Array tasks of --emit-slurm (default 4; -j sets their CPUs)", "N" },
    { "merge", 0, 0, G_OPTION_ARG_FILENAME, &a.merge,
      "Join the stored cells of an emitted study in DIR: results and report", "DIR" },
    { "no-report", 0, 0, G_OPTION_ARG_NONE, &a.no_report, "Write no report (index.html)", NULL },
    { "wait", 0, 0, G_OPTION_ARG_NONE, &a.wait,
      "When another study uses the output folder, wait for it instead of exiting (status 2)",
      NULL },
    { NULL },
  };
  int status = 2;
  g_autofree char *report_keys = study_report_help();
  g_autofree char *file_help = g_strdup_printf(
                 "Study file (INI; paths relative to the file; the README has every key):\n"
                 "  [study]\n"
                 "  name = stencils on the paper's platforms   # a comment after a blank\n"
                 "  # lists separate entries by ';': a path, a glob, labels of groups below;\n"
                 "  # {a,b} {A..B*F} {A..B+S} sweep\n"
                 "  traces = traces/data/stencil3d-64; traces/data/*-16\n"
                 "  platforms = torus:4x4x4:bw={250Gbit/s,500Gbit/s}; big\n"
                 "  strategies = identity; greedy+wh:delta={4,16}; scotch\n"
                 "  models = analytic; flow\n"
                 "  seeds = 1; 2\n"
                 "  kinds = bytes; count\n"
                 "  [input cg]\n"
                 "  matrix = tests/data/maplib/cg.p2p.size.csv\n"
                 "  counts = tests/data/maplib/cg.p2p.count.csv\n"
                 "  [platform big]\n"
                 "  spec = torus:8x8x8\n"
                 "  alloc = random:64:1\n"
                 "  set = linktype.optical.latency={10ps..1000ps*10}\n"
                 "  [strategy wh16]\n"
                 "  pipeline = greedy+wh:delta=16\n"
                 "%s"
                 "Examples:\n"
                 "  mapsim study --demo -o demo\n"
                 "  mapsim study tests/data/studies/y_grid.ini -j 2 -o my-study   # again after ^C: continues\n"
                 "  mapsim study tests/data/studies/y_grid.ini --emit-slurm slurm-run --slices 4 -j 2\n"
                 "  mapsim study --merge slurm-run   # after the job array ran (sbatch slurm-run/study.sbatch)",
                 report_keys);
  if (!cli_parse(&argc, &argv, "study", "[STUDY.ini]",
                 "Run a study: every input x matrix kind x platform x strategy x model x seed "
                 "(korndoerfer2021 Table 5). Cells run in parallel (-j) and are stored as they "
                 "finish, so an interrupted or edited study reruns only what is missing or "
                 "changed. Writes results.csv, results.json and a report (index.html).",
                 file_help,
                 CLI_OPT_THREADS | CLI_OPT_PROGRESS, &c, entries))
    goto out;
  if (a.show_demo) {
    g_autofree char *root = data_root(), *text = demo_study(root);
    fputs(text, stdout);
    status = 0;
    goto out;
  }
  int sources = (argc == 2) + a.demo + (a.merge != NULL);
  if (sources != 1 || argc > 2) {
    fprintf(stderr, "mapsim: study: expected one of: a study file, --demo, --merge DIR (see "
            "mapsim study --help)\n");
    goto out;
  }
  if (a.slices < 1 || a.slices > STUDY_MAX_SLICES) {
    fprintf(stderr, "mapsim: study: --slices %d: expected 1 to %d\n", a.slices, STUDY_MAX_SLICES);
    goto out;
  }
  status = run(&c, &a, argc == 2 ? argv[1] : NULL);
out:
  g_free(a.out);
  g_free(a.slice);
  g_free(a.emit);
  g_free(a.merge);
  cli_common_clear(&c);
  return status;
}
