/* cmd-plot.c - `mapsim plot`: the report's pictures of runs, from the JSON
 * of `mapsim simulate --json` or `mapsim metrics --json`: each run's link
 * loads drawn on the topology - several runs on one colour scale, so that
 * they compare - the busiest link per dimension and direction and, given
 * the runs' matrix or trace, the communication matrix
 * (sim/report/report.h). */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/report/report.h"
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
  const char *what = "the output of simulate --json or metrics --json";
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!budget_read_text(path, what, &text, &len, error) ||
      !budget_check_nesting(path, text, 64, what, error))
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
  char *out = NULL, *color = NULL, *name = NULL, *scale = NULL;
  const GOptionEntry entries[] = {
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
  report_run *runs = NULL;
  g_autofree char *spec = NULL;
  if (!cli_parse(&argc, &argv, "plot", "RUN.json...",
                 "Draw runs' link loads on the topology (one panel per Z plane; HAEC boards "
                 "with their wireless links), several runs on one colour scale, the busiest link "
                 "per dimension and direction of each and, with --matrix or --trace, the "
                 "communication matrix - the pictures of a study report - from simulate --json "
                 "or metrics --json.",
                 "Examples (runs saved with simulate --json > run.json, metrics --json > m.json):\n"
                 "  mapsim plot tests/data/runs/y_cg16_random_haec.json -t traces/data/cg-16 "
                 "--color busy -o figures\n"
                 "  mapsim plot tests/data/runs/y_cg16_identity_haec.json "
                 "tests/data/runs/y_cg16_random_haec.json -o figures   # one colour scale\n"
                 "  mapsim plot tests/data/runs/y_cg_torus_metrics.json -o figures",
                 CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES, &c, entries))
    goto out;
  int nruns = argc - 1;
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
  runs = g_new0(report_run, nruns);
  for (int k = 0; k < nruns; k++) {
    JsonParser *jp = read_run(argv[k + 1], &e);
    if (!jp)
      goto fail;
    g_ptr_array_add(parsers, jp);
    JsonNode *root = json_parser_get_root(jp);
    char *stem = name ? g_strdup(name) : file_stem(argv[k + 1]);
    g_ptr_array_add(stems, stem);
    runs[k] = (report_run){ root, stem };
    for (int j = 0; j < k; j++)
      if (strcmp(runs[j].name, stem) == 0) {
        g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s and %s would write the same files %s-*, expected JSON files of "
                    "different names", argv[j + 1], argv[k + 1], stem);
        goto fail;
      }
    /* one platform for all: --platform, else the one every run names */
    g_autofree char *named = root ? platform_of(root) : NULL;
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
                  "expected runs of one platform (or plot them separately)", argv[1], spec,
                  argv[k + 1], named);
      goto fail;
    }
    if (!spec)
      spec = g_strdup(named);
  }
  if (c.platform)
    spec = g_strdup(c.platform);
  if (!(p = cli_common_platform_spec(&c, spec, &e)))
    goto fail;
  gboolean with_colls;
  if ((c.matrix || c.trace) && !(g = cli_common_graph(&c, &with_colls, &e)))
    goto fail;
  const char *dir = out ? out : ".";
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(&e, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot create the folder", dir);
    goto fail;
  }
  int n = report_plot_runs(runs, nruns, p, g, color && strcmp(color, "busy") == 0,
                           scale && strcmp(scale, "own") == 0, dir, &e);
  report_release();
  if (n < 0)
    goto fail;
  for (int k = 0; k < nruns; k++)
    printf("%s/%s-links.png (.svg)\n", dir, runs[k].name);
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
  g_ptr_array_unref(parsers);
  g_ptr_array_unref(stems);
  platform_free(p);
  commgraph_free(g);
  g_free(out);
  g_free(color);
  g_free(name);
  g_free(scale);
  cli_common_clear(&c);
  return status;
}
