/* cmd-plot.c - `mapsim plot`: the report's pictures of a single run, from
 * the JSON of `mapsim simulate --json` or `mapsim metrics --json`: its
 * link loads drawn on the topology, the busiest link per dimension and
 * direction and, given the run's matrix or trace, the communication
 * matrix (sim/report/report.h). */
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

int cmd_plot(int argc, char **argv)
{
  cli_common c;
  char *out = NULL, *color = NULL, *name = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder for the PNG and SVG files "
      "(default: the current folder)", "DIR" },
    { "color", 0, 0, G_OPTION_ARG_STRING, &color, "Colour links by bytes (default) or busy "
      "(busy time, simulate --json only)", "bytes|busy" },
    { "name", 0, 0, G_OPTION_ARG_STRING, &name, "File name stem (default: the JSON file's)",
      "NAME" },
    { NULL },
  };
  int status = 2;
  GError *e = NULL;
  platform *p = NULL;
  commgraph *g = NULL;
  JsonParser *jp = NULL;
  g_autofree char *spec = NULL, *stem = NULL, *text = NULL;
  if (!cli_parse(&argc, &argv, "plot", "RUN.json",
                 "Draw one run's link loads on the topology (one panel per Z plane; HAEC boards "
                 "with their wireless links), the busiest link per dimension and direction and, "
                 "with --matrix or --trace, its communication matrix - the pictures of a study "
                 "report - from simulate --json or metrics --json.",
                 "Examples (runs saved with simulate --json > run.json, metrics --json > m.json):\n"
                 "  mapsim plot tests/data/runs/y_cg16_random_haec.json -t traces/data/cg-16 "
                 "--color busy -o figures\n"
                 "  mapsim plot tests/data/runs/y_cg_torus_metrics.json -o figures",
                 CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES, &c, entries))
    goto out;
  if (argc != 2) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "expected one RUN.json (the output of simulate --json or metrics --json)");
    goto fail;
  }
  if (color && strcmp(color, "bytes") != 0 && strcmp(color, "busy") != 0) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--color %s: expected bytes or busy", color);
    goto fail;
  }
  jp = json_parser_new();
  const char *what = "the output of simulate --json or metrics --json";
  gsize len = 0;
  if (!budget_read_text(argv[1], what, &text, &len, &e) ||
      !budget_check_nesting(argv[1], text, 64, what, &e))
    goto fail;
  if (!json_parser_load_from_data(jp, text, (gssize)len, &e)) {
    g_prefix_error(&e, "%s: ", argv[1]);
    goto fail;
  }
  JsonNode *root = json_parser_get_root(jp);
  spec = c.platform ? g_strdup(c.platform) : root ? platform_of(root) : NULL;
  if (!spec) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "%s names no platform, expected --platform P (the run's platform)", argv[1]);
    goto fail;
  }
  if (!(p = cli_common_platform_spec(&c, spec, &e)))
    goto fail;
  gboolean with_colls;
  if ((c.matrix || c.trace) && !(g = cli_common_graph(&c, &with_colls, &e)))
    goto fail;
  if (name) {
    stem = g_strdup(name);
  } else {
    stem = g_path_get_basename(argv[1]);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
      *dot = '\0';
  }
  const char *dir = out ? out : ".";
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(&e, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot create the folder", dir);
    goto fail;
  }
  int n = report_plot_run(root, p, g, color && strcmp(color, "busy") == 0, dir, stem, &e);
  report_release();
  if (n < 0) {
    g_prefix_error(&e, "%s: ", argv[1]);
    goto fail;
  }
  printf("%s/%s-links.png (.svg)\n%s/%s-directions.png (.svg)\n", dir, stem, dir, stem);
  if (g)
    printf("%s/%s-matrix.png (.svg)\n", dir, stem);
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  if (jp)
    g_object_unref(jp);
  platform_free(p);
  commgraph_free(g);
  g_free(out);
  g_free(color);
  g_free(name);
  cli_common_clear(&c);
  return status;
}
