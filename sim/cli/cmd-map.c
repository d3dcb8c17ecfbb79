/* cmd-map.c - `mapsim map`: runs a strategy pipeline (mapping/strategy.h),
 * writes the mapping file atomically, and prints the static metrics of the
 * default placement (identity) next to the new one, with the time the
 * strategy took. Task coordinates for geometric strategies come from
 * --coords FILE (strategy_load_coords). */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mapping/bounds.h"
#include "mapping/launch.h"
#include "mapping/strategy.h"
#include "sim/cli/cli.h"
#include "sim/run.h"

/* The metrics whose change against identity map reports (the static key
 * results of compare). */
static const char *const changed[] = { "hop_bytes", "max_link_bytes", "hop_time",
                                       "max_link_time" };

/* 100 (after - before) / before for metric `name`; NAN when before is 0. */
static double change_pct(const metrics *before, const metrics *after, const char *name)
{
  for (int i = 0; i < metrics_nfields; i++)
    if (strcmp(metrics_fields[i].name, name) == 0) {
      double a = field_double(&metrics_fields[i], before);
      double b = field_double(&metrics_fields[i], after);
      return a != 0 ? 100.0 * (b - a) / a : (b == 0 ? 0 : NAN);
    }
  return NAN;
}

static void print_json(const metrics *before, const metrics *after, const char *spec,
                       double seconds, const char *out, const char *report)
{
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "strategy");
  json_builder_add_string_value(b, spec);
  json_builder_set_member_name(b, "seconds");
  json_builder_add_double_value(b, seconds);
  json_builder_set_member_name(b, "output");
  out ? json_builder_add_string_value(b, out) : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "strategy_report");
  report ? json_builder_add_string_value(b, report) : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "identity");
  json_builder_begin_object(b);
  cli_metrics_json(b, before);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "mapped");
  json_builder_begin_object(b);
  cli_metrics_json(b, after);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "change_pct");
  json_builder_begin_object(b);
  for (size_t i = 0; i < G_N_ELEMENTS(changed); i++) {
    double x = change_pct(before, after, changed[i]);
    json_builder_set_member_name(b, changed[i]);
    if (isnan(x))
      json_builder_add_null_value(b);
    else
      json_builder_add_double_value(b, x);
  }
  json_builder_end_object(b);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

/* Writes the mapping to `out`: mapsim's file (`fmt` NULL) or a launcher
 * file (mapping/launch.h) naming the nodes by `hn`. */
static gboolean save(const cli_common *c, const mapping *m, const platform *p, const char *out,
                     const launch_format *fmt, const host_names *hn, GError **error)
{
  if (!fmt) {
    g_autofree char *comment = g_strdup_printf("mapsim map --strategy %s --seed %u on %s",
                                               c->strategy, c->seed, p->name);
    return mapping_save(m, out, comment, error);
  }
  return launch_save(fmt, m, p, hn, out, error);
}

/* Runs the strategy and reports; returns the exit status. */
static int map_run(const cli_common *c, const char *coords_path, const char *out,
                   const char *format, const char *hosts)
{
  GError *e = NULL;
  platform *p = NULL;
  commgraph *g = NULL;
  host_names *hn = NULL;
  const launch_format *fmt = NULL;
  double *coords = NULL;
  run_result *base = NULL, *res = NULL;
  int dims = 0, status = 2;
  gboolean launcher = format && strcmp(format, "mapsim") != 0;
  if (!c->strategy)
    g_set_error(&e, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "--strategy: missing, expected a pipeline such as greedy+wh (see mapsim strategies)");
  else if ((format || hosts) && !out)
    g_set_error(&e, LAUNCH_ERROR, LAUNCH_ERROR_FORMAT,
                "--format and --hosts describe the file -o writes: expected -o FILE");
  else if (hosts && !launcher)
    g_set_error(&e, LAUNCH_ERROR, LAUNCH_ERROR_HOSTS,
                "--hosts goes with a launcher --format (see mapsim map --help); a mapsim mapping "
                "file names nodes by id");
  else if (launcher)
    fmt = launch_format_lookup(format, &e); /* checked before the strategy runs */
  run_spec spec;
  run_spec_init(&spec);
  spec.strategy = c->strategy;
  spec.seed = c->seed;
  spec.opts.collectives = c->collectives;
  if (!e)
    run_spec_check(&spec, &e); /* before the inputs are read */
  /* the host names too: a bad names file fails before the strategy runs */
  if (!e && (p = cli_common_platform(c, &e)) && fmt)
    hn = host_names_new(p, hosts ? hosts : LAUNCH_DEFAULT_HOSTS, &e);
  gboolean with_colls;
  if (e || !(g = cli_common_graph(c, &with_colls, &e)))
    goto fail;
  if (coords_path && !(coords = strategy_load_coords(coords_path, g->n, &dims, &e)))
    goto fail;
  run_inputs in = { .p = p, .g = g, .coords = coords, .coord_dims = dims };
  run_spec identity;
  run_spec_init(&identity);
  if (!(base = run_cell(&in, &identity, &e)))
    goto fail;
  spec.map_progress = cli_progress(c);
  res = run_cell(&in, &spec, &e);
  cli_progress_end();
  if (!res)
    goto fail;
  bounds bd;
  bounds_compute(g, p, &bd);
  metrics_set_bounds(base->pre, &bd);
  metrics_set_bounds(res->pre, &bd);
  if (out && !save(c, res->m, p, out, fmt, hn, &e))
    goto fail;
  if (c->json) {
    print_json(base->pre, res->pre, c->strategy, res->map_seconds, out, res->map_report);
  } else {
    printf("%s on %s, strategy %s (seed %u): %.3f s%s%s\n\n", c->matrix ? c->matrix : c->trace,
           p->name, c->strategy, c->seed, res->map_seconds, out ? ", written to " : "",
           out ? out : "");
    const metrics *two[2] = { base->pre, res->pre };
    const char *labels[2] = { "identity", c->strategy };
    cli_metrics_print(two, labels, 2, p, 0);
    printf("\nchange against identity:");
    for (size_t i = 0; i < G_N_ELEMENTS(changed); i++)
      printf(" %s %+.1f%%%s", changed[i], change_pct(two[0], two[1], changed[i]),
             i + 1 < G_N_ELEMENTS(changed) ? "," : "\n");
    if (res->map_report)
      printf("\n%s", res->map_report);
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  run_result_free(base);
  run_result_free(res);
  g_free(coords);
  commgraph_free(g);
  host_names_free(hn);
  platform_free(p);
  return status;
}

int cmd_map(int argc, char **argv)
{
  cli_common c;
  char *coords = NULL, *out = NULL, *format = NULL, *hosts = NULL;
  const GOptionEntry entries[] = {
    { "coords", 0, 0, G_OPTION_ARG_FILENAME, &coords, "Task coordinates, one line per rank", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Write the mapping here (atomic)", "MAP" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      "File -o writes: mapsim (default) or a launcher's (listed below)", "F" },
    { "hosts", 0, 0, G_OPTION_ARG_STRING, &hosts,
      "Host names of a launcher file: a pattern with the node id (node-%d, nid%05d; default "
      LAUNCH_DEFAULT_HOSTS ") or a file, one name per node, per allocated node, or one for all "
      "(a hostfile's 'host slots=N' lines do)", "SPEC" },
    { NULL },
  };
  int status = 2;
  g_autofree char *formats = cli_launch_formats_help(
      "Formats of --format: mapsim (default; 'rank node' lines) or a launcher's file, host "
      "names\nfrom --hosts, and the command that applies it:");
  g_autofree char *examples = g_strconcat(
      "Examples:\n"
      "  mapsim map --platform torus:4x4x4 --matrix tests/data/maplib/cg.p2p.size.csv \\\n"
      "    --strategy greedy+wh -o cg.map\n"
      "  mapsim map --platform torus:8x8x8 --trace traces/data/stencil3d-64 --strategy kl:t=2 --seed 3\n"
      "  mapsim map -p torus:4x4x4 -t traces/data/cg-16 -s greedy --format openmpi-rankfile \\\n"
      "    --hosts 'nid%05d' -o cg.rankfile\n"
      "  mapsim strategies   # lists strategies and options\n\n",
      formats, NULL);
  if (cli_parse(&argc, &argv, "map", "",
                "Places the ranks with a strategy pipeline and compares the static metrics with "
                "the default placement (identity), with the gaps to their lower bounds.",
                examples,
                CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES | CLI_OPT_STRATEGY | CLI_OPT_SEED |
                CLI_OPT_JSON | CLI_OPT_PROGRESS, &c,
                entries)) {
    if (argc > 1) {
      fprintf(stderr, "mapsim map: unexpected argument '%s', expected options only\n", argv[1]);
    } else {
      status = map_run(&c, coords, out, format, hosts);
    }
  }
  cli_common_clear(&c);
  g_free(coords);
  g_free(out);
  g_free(format);
  g_free(hosts);
  return status;
}
