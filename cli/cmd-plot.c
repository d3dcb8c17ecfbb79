/* cmd-plot.c - `mapsim plot`: the report's pictures of runs, from the JSON
 * of `mapsim simulate --json` or `mapsim metrics --json`: each run's link
 * loads drawn on the topology - several runs on one colour scale, so that
 * they compare - the busiest link per dimension and direction and, given
 * the runs' matrix or trace, the communication matrix
 * (report/report.h). */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report.h"
#include "study/study.h"
#include "util/budget.h"

/* The platform the run names ("platform": {"source": ...} or a string),
 * unless --platform gives one. */
static char *platform_of(JsonNode *root)
{
  JsonObject *o = JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
  JsonNode *p = o ? json_object_get_member(o, "platform") : NULL;
  if (!p)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE(p) && json_node_get_value_type(p) == G_TYPE_STRING)
    return g_strdup(json_node_get_string(p));
  if (JSON_NODE_HOLDS_OBJECT(p)) {
    JsonObject *po = json_node_get_object(p);
    if (json_object_has_member(po, "source"))
      return g_strdup(json_object_get_string_member(po, "source"));
  }
  return NULL;
}

/* The index of `label` among n labels (stride bytes apart), or -1. */
static int label_index(const char *label, const void *first, size_t stride, int n)
{
  for (int i = 0; i < n; i++) {
    const char *l = *(const char *const *)(const void *)((const char *)first + stride * (size_t)i);
    if (strcmp(l, label) == 0)
      return i;
  }
  return -1;
}

/* The cells "INPUT,PLATFORM,STRATEGY" name in study s (first model and
 * seed): their indices into cells[], or FALSE + error naming the label
 * that is not in the study. */
static gboolean find_cells(const study *s, char **specs, int *cells, GError **error)
{
  for (int k = 0; specs[k]; k++) {
    g_auto(GStrv) part = g_strsplit(specs[k], ",", -1);
    if (g_strv_length(part) != 3) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--cell %s: expected INPUT,PLATFORM,STRATEGY (labels of the study)", specs[k]);
      return FALSE;
    }
    int in = label_index(part[0], &s->inputs[0].label, sizeof s->inputs[0], s->ninputs);
    int pl = label_index(part[1], &s->platforms[0].label, sizeof s->platforms[0], s->nplatforms);
    int st = label_index(part[2], &s->strategies[0].label, sizeof s->strategies[0],
                         s->nstrategies);
    const char *bad = in < 0 ? "input" : pl < 0 ? "platform" : st < 0 ? "strategy" : NULL;
    if (bad) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--cell %s: no %s %s in %s, expected a label of its list", specs[k], bad,
                  in < 0 ? part[0] : pl < 0 ? part[1] : part[2], s->path ? s->path : s->name);
      return FALSE;
    }
    const study_cell *c = study_cell_at(s, in, 0, pl, st, 0, 0);
    cells[k] = (int)(c - s->cells);
  }
  return TRUE;
}

/* `plot --study FILE --cell ...`: cells of a study run again and drawn on
 * one scale. */
static int plot_cells(const char *file, char **specs, gboolean busy, gboolean own,
                      const char *dir)
{
  GError *e = NULL;
  int n = (int)g_strv_length(specs), status = 2;
  int *cells = g_new(int, MAX(n, 1));
  study *s = study_load(file, NULL, NULL, &e);
  if (s && find_cells(s, specs, cells, &e) && g_mkdir_with_parents(dir, 0755) == 0) {
    int figures = report_plot_cells(s, cells, n, busy, own, dir, &e);
    report_release();
    if (figures >= 0) {
      printf("%d figures in %s, links coloured on %s\n", figures, dir,
             own ? "each cell's own scale (--scale own)" : "one scale shared by the cells");
      status = 0;
    }
  }
  if (status)
    status = e ? cli_fail(e) : 2;
  study_free(s);
  g_free(cells);
  return status;
}

/* A JSON file's stem ("runs/identity.json" -> "identity"); caller frees. */
static char *file_stem(const char *path)
{
  char *stem = g_path_get_basename(path);
  char *dot = strrchr(stem, '.');
  if (dot && dot != stem)
    *dot = '\0';
  return stem;
}

/* Reads one run's JSON; the parser keeps the tree. */
static JsonParser *read_run(const char *path, GError **error)
{
  const char *what = "the output of simulate --json, metrics --json or simulate --timeline";
  g_autofree char *text = NULL;
  gsize len = 0;
  /* json-glib's tree takes about 16 times the text (a --timeline file of
   * a large run is hundreds of MB) */
  if (!budget_read_text(path, what, &text, &len, error) ||
      !budget_check_nesting(path, text, 64, what, error) ||
      !budget_check_memory(path, (uint64_t)len * 16, error))
    return NULL;
  JsonParser *jp = json_parser_new();
  if (!json_parser_load_from_data(jp, text, (gssize)len, error)) {
    g_prefix_error(error, "%s: ", path);
    g_object_unref(jp);
    return NULL;
  }
  return jp;
}

int cmd_plot(int argc, char **argv)
{
  cli_common c;
  char *out = NULL, *color = NULL, *name = NULL, *scale = NULL, *study_file = NULL;
  char **cell_specs = NULL;
  const GOptionEntry entries[] = {
    { "study", 0, 0, G_OPTION_ARG_FILENAME, &study_file, "Draw cells of this study file "
      "(run again for their links) instead of RUN.json files", "FILE.ini" },
    { "cell", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cell_specs, "With --study: a cell by the labels "
      "of its input, platform and strategy (first model and seed), repeatable",
      "INPUT,PLATFORM,STRATEGY" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder for the PNG and SVG files "
      "(default: the current folder)", "DIR" },
    { "color", 0, 0, G_OPTION_ARG_STRING, &color, "Colour links by bytes (default) or busy "
      "(busy time, simulate --json only)", "bytes|busy" },
    { "scale", 0, 0, G_OPTION_ARG_STRING, &scale, "Colour scale of several runs: shared "
      "(default: 0 to the largest value of any run, so that they compare) or own (each run "
      "0 to its own maximum)", "shared|own" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, "File name stem of a single run (default: the "
      "JSON file's)", "NAME" },
    { NULL },
  };
  int status = 2;
  GError *e = NULL;
  platform *p = NULL;
  commgraph *g = NULL;
  GPtrArray *parsers = g_ptr_array_new_with_free_func(g_object_unref);
  GPtrArray *stems = g_ptr_array_new_with_free_func(g_free);
  report_run *runs = NULL, *timelines = NULL;
  const char **timeline_file = NULL, **run_file = NULL;
  int *jobs_figures = NULL;
  g_autofree char *spec = NULL;
  if (!cli_parse(&argc, &argv, "plot", "RUN.json...",
                 "Draw runs' link loads on the topology (one panel per Z plane; HAEC boards "
                 "with their wireless links), several runs on one colour scale, the busiest link "
                 "per dimension and direction of each and, with --matrix or --trace, the "
                 "communication matrix - the pictures of a study report - from simulate --json "
                 "or metrics --json (titled by the run's provenance: trace, strategy, model); "
                 "a simulate --timeline file as a timeline of its ranks and links. Every file "
                 "is checked before anything is drawn.",
                 "Examples (runs saved with simulate --json > run.json, metrics --json > m.json):\n"
                 "  mapsim plot tests/data/runs/y_cg16_random_haec.json -t traces/data/cg-16 "
                 "--color busy -o figures\n"
                 "  mapsim plot tests/data/runs/y_cg16_identity_haec.json "
                 "tests/data/runs/y_cg16_random_haec.json -o figures   # one colour scale\n"
                 "  mapsim plot tests/data/runs/y_cg_torus_metrics.json -o figures\n"
                 "  mapsim plot cg.json -o figures   # simulate ... --timeline cg.json\n"
                 "  mapsim plot --study tests/data/studies/y_grid.ini --cell "
                 "cg-16,torus-4x4x4,identity --cell cg-16,torus-4x4x4,random -o figures",
                 CLI_OPT_PLATFORM | CLI_OPT_SET | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES, &c, entries))
    goto out;
  int nruns = argc - 1;
  if (study_file || cell_specs) {
    if (!study_file || !cell_specs || nruns > 0) {
      g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--study FILE.ini takes one or more --cell INPUT,PLATFORM,STRATEGY and no "
                  "RUN.json");
      goto fail;
    }
    status = plot_cells(study_file, cell_specs, color && strcmp(color, "busy") == 0,
                        scale && strcmp(scale, "own") == 0, out ? out : ".");
    goto out;
  }
  if (nruns < 1) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "expected one or more RUN.json (the output of simulate --json or metrics --json)");
    goto fail;
  }
  if (color && strcmp(color, "bytes") != 0 && strcmp(color, "busy") != 0) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--color %s: expected bytes or busy", color);
    goto fail;
  }
  if (scale && strcmp(scale, "shared") != 0 && strcmp(scale, "own") != 0) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--scale %s: expected shared or own", scale);
    goto fail;
  }
  if (name && nruns > 1) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--name names the files of one run; %d runs are named after their JSON files",
                nruns);
    goto fail;
  }
  /* every file read and checked before anything is drawn: a bad one
   * leaves no figure behind */
  runs = g_new0(report_run, nruns);
  timelines = g_new0(report_run, nruns);
  run_file = g_new0(const char *, nruns);
  timeline_file = g_new0(const char *, nruns);
  int nlinks_runs = 0, ntimelines = 0;
  gboolean busy = color && strcmp(color, "busy") == 0;
  for (int k = 0; k < nruns; k++) {
    JsonParser *jp = read_run(argv[k + 1], &e);
    if (!jp)
      goto fail;
    g_ptr_array_add(parsers, jp);
    JsonNode *root = json_parser_get_root(jp);
    char *stem = name ? g_strdup(name) : file_stem(argv[k + 1]);
    g_ptr_array_add(stems, stem);
    for (int j = 0; j < k; j++)
      if (strcmp(g_ptr_array_index(stems, j), stem) == 0) {
        g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s and %s would write the same files %s-*, expected JSON files of "
                    "different names", argv[j + 1], argv[k + 1], stem);
        goto fail;
      }
    if (report_is_timeline(root)) {
      if (!report_plot_check_timeline(argv[k + 1], root, &e))
        goto fail;
      timeline_file[ntimelines] = argv[k + 1];
      timelines[ntimelines++] = (report_run){ root, stem };
      continue;
    }
    if (!report_plot_check_platform(argv[k + 1], root, &e))
      goto fail;
    run_file[nlinks_runs] = argv[k + 1];
    runs[nlinks_runs++] = (report_run){ root, stem };
    /* one platform for all: --platform, else the one every run names */
    g_autofree char *named = platform_of(root);
    if (c.platform)
      continue;
    if (!named) {
      g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "%s names no platform, expected --platform P (the run's platform)",
                  argv[k + 1]);
      goto fail;
    }
    if (spec && strcmp(spec, named) != 0) {
      g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "%s ran on %s, %s on %s: runs drawn on one scale must share a platform, "
                  "expected runs of one platform (or plot them separately)", run_file[0], spec,
                  argv[k + 1], named);
      goto fail;
    }
    if (!spec)
      spec = g_strdup(named);
  }
  if (c.platform)
    spec = g_strdup(c.platform);
  gboolean checked = TRUE;
  if (nlinks_runs && !(p = cli_common_platform_spec(&c, spec, &e)))
    checked = FALSE;
  for (int k = 0; checked && k < nlinks_runs; k++)
    checked = report_plot_check(run_file[k], &runs[k], p, busy, &e);
  if (!checked)
    goto fail;
  gboolean with_colls;
  if ((c.matrix || c.trace) && !(g = cli_common_graph(&c, &with_colls, &e)))
    goto fail;
  const char *dir = out ? out : ".";
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(&e, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot create the folder", dir);
    goto fail;
  }
  int n = nlinks_runs ? report_plot_runs(runs, nlinks_runs, p, g, busy,
                                         scale && strcmp(scale, "own") == 0, dir, &e) : 0;
  /* the jobs' figures and the timelines before the fonts are released:
   * drawn after, they would take fontconfig up again */
  jobs_figures = g_new0(int, nruns);
  for (int k = 0; n >= 0 && k < nlinks_runs; k++)
    if (report_is_jobs_run(&runs[k]))
      n = jobs_figures[k] = report_plot_jobs(&runs[k], p, dir, &e);
  for (int k = 0; n >= 0 && k < ntimelines; k++)
    n = report_plot_timeline(timelines[k].json, timeline_file[k], timelines[k].name, dir, &e);
  report_release();
  if (n < 0)
    goto fail;
  for (int k = 0; k < ntimelines; k++)
    printf("%s/%s-timeline.png (.svg)\n", dir, timelines[k].name);
  nruns = nlinks_runs;
  if (!nruns) {
    status = 0;
    goto out;
  }
  for (int k = 0; k < nruns; k++) {
    printf("%s/%s-links.png (.svg)\n", dir, runs[k].name);
    if (jobs_figures[k] > 0)
      printf("%s/%s-jobs-links.png (.svg)\n%s/%s-slowdown.png (.svg)\n", dir, runs[k].name, dir,
             runs[k].name);
    if (jobs_figures[k] > 2)
      printf("%s/%s-interference.png (.svg)\n", dir, runs[k].name);
  }
  GString *names = g_string_new(runs[0].name);
  for (int k = 1; k < MIN(nruns, 3); k++)
    g_string_append_printf(names, "-vs-%s", runs[k].name);
  if (nruns > 3)
    g_string_append_printf(names, "-and-%d-more", nruns - 3);
  printf("%s/%s-directions.png (.svg)\n", dir, names->str);
  g_string_free(names, TRUE);
  if (g)
    printf("%s/%s-matrix.png (.svg)\n", dir, runs[0].name);
  if (nruns > 1)
    printf("links coloured on %s\n", scale && strcmp(scale, "own") == 0
                                          ? "each run's own scale (--scale own)"
                                          : "one scale shared by the runs");
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  g_free(runs);
  g_free(timelines);
  g_free(timeline_file);
  g_free(run_file);
  g_free(jobs_figures);
  g_ptr_array_unref(parsers);
  g_ptr_array_unref(stems);
  platform_free(p);
  commgraph_free(g);
  g_free(out);
  g_free(color);
  g_free(name);
  g_free(scale);
  g_free(study_file);
  g_strfreev(cell_specs);
  cli_common_clear(&c);
  return status;
}
