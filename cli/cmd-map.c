/* cmd-map.c - `mapsim map`: runs a strategy pipeline (mapping/strategy.h),
 * writes the mapping file atomically, and prints the static metrics of the
 * default placement (identity) next to the new one, with the time the
 * strategy took. Task coordinates for geometric strategies come from
 * --coords FILE (strategy_load_coords). With --model the trace is read
 * once as a source, strategies may score mappings by replays of it
 * (sim/optimize.h), and both placements' makespans are printed. */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mapping/bounds.h"
#include "mapping/launch.h"
#include "mapping/strategy.h"
#include "cli/cli.h"
#include "sim/run.h"
#include "util/json-number.h"

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

static void print_json(const run_result *base, const run_result *res, const char *spec,
                       const char *out)
{
  const metrics *before = base->pre, *after = res->pre;
  double seconds = res->map_seconds;
  const char *report = res->map_report;
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "strategy");
  json_builder_add_string_value(b, spec);
  json_builder_set_member_name(b, "seconds");
  json_number_add(b, seconds);
  json_builder_set_member_name(b, "output");
  out ? json_builder_add_string_value(b, out) : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "strategy_report");
  report ? json_builder_add_string_value(b, report) : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "objective");
  res->objective ? json_builder_add_string_value(b, res->objective)
                 : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "map_replays");
  json_builder_add_int_value(b, res->map_replays);
  if (res->r) { /* --model: both placements replayed */
    json_builder_set_member_name(b, "makespan_s");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "identity");
    json_number_add(b, base->r->makespan_ps * 1e-12);
    json_builder_set_member_name(b, "mapped");
    json_number_add(b, res->r->makespan_ps * 1e-12);
    json_builder_end_object(b);
  }
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
      json_number_add(b, x);
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
  trace_source *src = NULL;
  const launch_format *fmt = NULL;
  double *coords = NULL;
  run_result *base = NULL, *res = NULL;
  int dims = 0, status = 2;
  gboolean launcher = format && strcmp(format, "mapsim") != 0;
  if (!c->strategy)
    g_set_error(&e, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "--strategy: missing, expected a pipeline such as greedy+wh (see mapsim strategies)");
  else if (out && !cli_outputs_check((const cli_path[]){ { "the report", "-" }, { "-o", out } }, 2,
                                     (const cli_path[]){ { "--trace", c->trace },
                                                         { "--matrix", c->matrix },
                                                         { "--counts", c->counts },
                                                         { "--mapping", c->mapping },
                                                         { "--platform", c->platform },
                                                         { "--alloc", c->alloc },
                                                         { "--coords", coords_path },
                                                         { "--hosts", hosts } },
                                     8, &e))
    ; /* e says which */
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
    hn = host_names_new(p, hosts, &e);
  gboolean with_colls;
  if (!e && c->model && !c->trace)
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--model replays a trace: expected --trace (a matrix has nothing to replay)");
  if (!e && c->model) { /* strategies may optimize the simulated time: the trace read once */
    if ((spec.model = cli_common_model(c, NULL, &e)) && (src = cli_open_source(c, c->trace, &e)))
      g = run_traffic_graph_source(src, c->collectives, &with_colls, &e);
    spec.opts.compute_scale = c->compute_scale;
    spec.opts.collectives = c->collectives;
    spec.opts.progress = cli_progress(c);
  } else if (!e) {
    g = cli_common_graph(c, &with_colls, &e);
  }
  if (e || !g)
    goto fail;
  if (coords_path && !(coords = strategy_load_coords(coords_path, g->n, &dims, &e)))
    goto fail;
  run_inputs in = { .p = p, .g = g, .g_collectives = with_colls, .src = src,
                    .coords = coords, .coord_dims = dims };
  run_spec identity = spec; /* the same replay (with --model), no strategy */
  identity.strategy = NULL;
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
    print_json(base, res, c->strategy, out);
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
    if (res->r)
      printf("simulated makespan_s (model %s): identity %.9g, mapped %.9g (%+.1f%%)\n",
             spec.model->name, base->r->makespan_ps * 1e-12, res->r->makespan_ps * 1e-12,
             base->r->makespan_ps ? 100.0 * (double)(res->r->makespan_ps - base->r->makespan_ps) /
                                        (double)base->r->makespan_ps : 0.0);
    g_autofree char *chosen = run_objective_text(res);
    if (chosen)
      printf("%s\n", chosen);
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
  trace_source_free(src);
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
      "the platform's node names (a Slurm topology's), else " LAUNCH_DEFAULT_HOSTS ") or a file, one name per node, per allocated node, or one for all "
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
      "  mapsim map -p torus:4x4x4 --alloc random:16:3 -t traces/data/cg-16 --model flow \\\n"
      "    --compute-scale 0 -s 'greedy+wh+replay:evals=40' -o cg.map   # by the simulated time\n"
      "  mapsim map -p torus:4x4x4 -t traces/data/cg-16 -s greedy --format openmpi-rankfile \\\n"
      "    --hosts 'nid%05d' -o cg.rankfile\n"
      "  mapsim strategies   # lists strategies and options\n\n",
      formats, NULL);
  if (cli_parse(&argc, &argv, "map", "",
                "Places the ranks with a strategy pipeline and compares the static metrics with "
                "the default placement (identity), with the gaps to their lower bounds. With "
                "--model and a trace both placements are replayed too, and strategies may "
                "optimize the simulated time (portfolio:obj=makespan, replay).",
                examples,
                CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES | CLI_OPT_STRATEGY | CLI_OPT_SEED |
                CLI_OPT_JSON | CLI_OPT_PROGRESS | CLI_OPT_MODEL | CLI_OPT_REPLAY |
                CLI_OPT_PROTOCOL, &c,
                entries)) {
    if (argc > 1) {
      fprintf(stderr, "mapsim: map: unexpected argument '%s', expected options only\n", argv[1]);
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
