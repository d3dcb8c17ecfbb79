/* fuzz_plot_json.c - what `mapsim plot RUN.json` reads: the JSON of
 * simulate --json, metrics --json, simulate --jobs --json or a
 * simulate --timeline file, parsed and checked as cli/cmd-plot.c does
 * (report/report.h: report_plot_check_platform, report_plot_check,
 * report_plot_check_timeline) on the run's platform when it names a small
 * shorthand (at most 64 nodes; torus:4x4 otherwise); a run or timeline
 * that passes is drawn (PNG and SVG into the harness's folder), so that a
 * member the checks let through but a figure trips on is found. */
#include <json-glib/json-glib.h>

#include "fuzz.h"
#include "report/report.h"
#include "routing/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The run's platform spec (checked by report_plot_check_platform first). */
static const char *named_platform(JsonNode *root)
{
  JsonNode *p = json_object_get_member(json_node_get_object(root), "platform");
  if (p && JSON_NODE_HOLDS_VALUE(p) && json_node_get_value_type(p) == G_TYPE_STRING)
    return json_node_get_string(p);
  if (p && JSON_NODE_HOLDS_OBJECT(p) && json_object_has_member(json_node_get_object(p), "source"))
    return json_object_get_string_member(json_node_get_object(p), "source");
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_string(data, size);
  GError *e = NULL;
  JsonParser *jp = json_parser_new();
  if (!budget_check_nesting("run.json", text, 64, "a run", &e) ||
      !json_parser_load_from_data(jp, text, (gssize)size, &e)) {
    g_clear_error(&e);
    g_object_unref(jp);
    g_free(text);
    return 0;
  }
  JsonNode *root = json_parser_get_root(jp);
  g_autofree char *out = g_build_filename(fuzz_dir, "figures", NULL);
  g_mkdir_with_parents(out, 0700);
  if (root && report_is_timeline(root)) {
    if (report_plot_check_timeline("run.json", root, &e))
      report_plot_timeline(root, "run.json", "run", out, &e);
  } else if (root && report_plot_check_platform("run.json", root, &e)) {
    const char *spec = named_platform(root);
    platform *p = NULL;
    if (spec && strchr(spec, ':') && !strchr(spec, '/'))
      p = platform_load(spec, NULL);
    if (p && p->topo->nnodes > 64) {
      platform_free(p);
      p = NULL;
    }
    if (!p)
      p = platform_load("torus:4x4", NULL);
    report_run run = { root, "run" };
    /* coloured by busy time when the run has them (simulate --json) */
    gboolean busy = report_plot_check("run.json", &run, p, TRUE, NULL);
    if (report_plot_check("run.json", &run, p, busy, &e) &&
        report_plot_runs(&run, 1, p, NULL, busy, FALSE, out, &e) >= 0 &&
        report_is_jobs_run(&run))
      report_plot_jobs(&run, p, out, &e);
    platform_free(p);
  }
  g_clear_error(&e);
  g_object_unref(jp);
  g_free(text);
  return 0;
}
