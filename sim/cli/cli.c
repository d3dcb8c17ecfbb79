/* cli.c - helpers shared by the subcommands: option parsing, loading the
 * platform and the communication graph, errors, JSON output. */
#include "sim/cli/cli.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "traces/trace.h"

int cli_fail(GError *error)
{
  fprintf(stderr, "mapsim: %s\n", error ? error->message : "failed");
  if (error)
    g_error_free(error);
  return 2;
}

gboolean cli_parse(int *argc, char ***argv, const char *name, const char *usage,
                   const char *summary, const char *examples, const GOptionEntry *entries)
{
  char *prog = g_strdup_printf("mapsim %s", name);
  g_set_prgname(prog);
  GOptionContext *ctx = g_option_context_new(usage);
  g_option_context_set_summary(ctx, summary);
  if (examples)
    g_option_context_set_description(ctx, examples);
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *e = NULL;
  gboolean ok = g_option_context_parse(ctx, argc, argv, &e);
  if (!ok) {
    fprintf(stderr, "mapsim %s: %s (see mapsim %s --help)\n", name, e->message, name);
    g_error_free(e);
  }
  g_option_context_free(ctx);
  g_free(prog);
  return ok;
}

platform *cli_platform(const char *spec, const char *alloc, int cores, GError **error)
{
  if (!spec) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "--platform: missing, expected a platform file or shorthand like torus:4x4x4");
    return NULL;
  }
  platform *p = platform_load(spec, error);
  if (!p)
    return NULL;
  for (guint i = 0; i < p->notes->len; i++)
    fprintf(stderr, "mapsim: note: %s\n", (const char *)g_ptr_array_index(p->notes, i));
  if ((alloc && !platform_set_allocation(p, alloc, error)) ||
      (cores && !platform_set_cores(p, cores, error))) {
    platform_free(p);
    return NULL;
  }
  return p;
}

commgraph *cli_graph(const char *matrix, const char *counts, const char *trace_path,
                     GError **error)
{
  if ((matrix != NULL) == (trace_path != NULL)) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                "expected exactly one of --matrix M or --trace T");
    return NULL;
  }
  if (trace_path) {
    if (counts) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "--counts goes with --matrix; a trace carries its own message counts");
      return NULL;
    }
    return trace_commgraph_load(trace_path, FALSE, error);
  }
  commgraph *g = commgraph_load(matrix, error);
  if (g && counts && !commgraph_load_counts(g, counts, error)) {
    commgraph_free(g);
    return NULL;
  }
  return g;
}

void cli_print_json(JsonNode *root)
{
  JsonGenerator *gen = json_generator_new();
  json_generator_set_pretty(gen, TRUE);
  json_generator_set_root(gen, root);
  char *text = json_generator_to_data(gen, NULL);
  /* json-glib 1.6 prints a double such as 3e-10 as "3e-10.0" (invalid
   * JSON): move the ".0" into the mantissa. */
  GRegex *re = g_regex_new("([0-9])e([-+]?[0-9]+)\\.0(?![0-9])", 0, 0, NULL);
  char *fixed = g_regex_replace(re, text, -1, 0, "\\1.0e\\2", 0, NULL);
  printf("%s\n", fixed);
  g_regex_unref(re);
  g_free(fixed);
  g_free(text);
  g_object_unref(gen);
  json_node_unref(root);
}

void cli_metrics_json(JsonBuilder *b, const metrics *m)
{
#define INT_MEMBER(name, v) \
  do { json_builder_set_member_name(b, name); json_builder_add_int_value(b, (gint64)(v)); } while (0)
#define DBL_MEMBER(name, v) \
  do { json_builder_set_member_name(b, name); json_builder_add_double_value(b, (double)(v)); } while (0)
  INT_MEMBER("tasks", m->tasks);
  INT_MEMBER("edges", m->edges);
  INT_MEMBER("total_hops", m->total_hops);
  DBL_MEMBER("avg_hops", m->avg_hops);
  INT_MEMBER("max_dilation", m->max_dilation);
  INT_MEMBER("hop_bytes", m->hop_bytes);
  INT_MEMBER("message_hops", m->message_hops);
  INT_MEMBER("max_link_messages", m->max_link_messages);
  INT_MEMBER("max_link_bytes", m->max_link_bytes);
  DBL_MEMBER("max_link_time", m->max_link_time);
  DBL_MEMBER("avg_link_messages", m->avg_link_messages);
  DBL_MEMBER("avg_link_time", m->avg_link_time);
  INT_MEMBER("links_used", m->links_used);
#undef INT_MEMBER
#undef DBL_MEMBER
}

void cli_metrics_print(const metrics *const *ms, const char *const *labels, int n,
                       const platform *p, int top)
{
  if (labels) {
    printf("%-20s", "");
    for (int i = 0; i < n; i++)
      printf(" %16s", labels[i]);
    printf("\n");
  }
#define ROW(name, fmt, expr) \
  do { printf("%-20s", name); \
       for (int i = 0; i < n; i++) { const metrics *m = ms[i]; printf(" " fmt, expr); } \
       printf("\n"); } while (0)
  ROW("tasks", "%16d", m->tasks);
  ROW("edges", "%16d", m->edges);
  ROW("total_hops", "%16" G_GINT64_FORMAT, m->total_hops);
  ROW("avg_hops", "%16.4f", m->avg_hops);
  ROW("max_dilation", "%16d", m->max_dilation);
  ROW("hop_bytes", "%16" G_GINT64_FORMAT, m->hop_bytes);
  if (ms[0]->has_messages)
    ROW("message_hops", "%16" G_GINT64_FORMAT, m->message_hops);
  ROW("max_link_messages", "%16" G_GINT64_FORMAT, m->max_link_messages);
  ROW("max_link_bytes", "%16" G_GINT64_FORMAT, m->max_link_bytes);
  ROW("max_link_time", "%16.6g", m->max_link_time);
  ROW("avg_link_messages", "%16.4f", m->avg_link_messages);
  ROW("avg_link_time", "%16.6g", m->avg_link_time);
  ROW("links_used", "%16d", m->links_used);
#undef ROW
  if (top <= 0 || n != 1)
    return;
  metrics_dim_row rows[2 * TOPO_MAX_DIMS + 1];
  int nrows;
  metrics_by_dimension(ms[0], p, rows, &nrows);
  printf("\nper direction       links    used           bytes       max bytes   max time (s)\n");
  for (int r = 0; r < nrows; r++)
    printf("  %-16s %7d %7d %15" G_GINT64_FORMAT " %15" G_GINT64_FORMAT " %14.6g\n",
           rows[r].label, rows[r].links, rows[r].used, rows[r].bytes, rows[r].max_bytes,
           rows[r].max_time);
  int *ids = g_new(int, top);
  int k = metrics_hottest(ms[0], p, top, ids);
  if (k)
    printf("\nhottest links                                   messages           bytes       time (s)\n");
  for (int i = 0; i < k; i++) {
    char *name = platform_link_name(p, ids[i]);
    printf("  %-42s %10" G_GINT64_FORMAT " %15" G_GINT64_FORMAT " %14.6g\n", name,
           ms[0]->link_messages[ids[i]], ms[0]->link_bytes[ids[i]],
           (double)ms[0]->link_bytes[ids[i]] / p->link_bw[ids[i]]);
    g_free(name);
  }
  g_free(ids);
}
