/* cmd-compare.c - `mapsim compare`: one trace on several platforms with
 * several strategies; pre and post metrics side by side, simulated time,
 * the pre/post check per cell (korndoerfer2021 Sections 7.1-7.4). */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "sim/cli/cli.h"
#include "sim/study.h"

static void add_dbl(JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_double_value(b, v);
}

static void add_str(JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_string_value(b, v);
}

static void print_json(const study *s, const char *trace_path)
{
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  add_str(b, "trace", trace_path);
  add_str(b, "model", s->model->name);
  json_builder_set_member_name(b, "cells");
  json_builder_begin_array(b);
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    json_builder_begin_object(b);
    add_str(b, "platform", c->platform_spec);
    add_str(b, "strategy", c->strategy_spec);
    if (c->error) {
      add_str(b, "error", c->error->message);
    } else {
      add_dbl(b, "makespan_s", c->r->makespan_ps * 1e-12);
      add_dbl(b, "comm_model_time_s", c->r->comm_model_ps * 1e-12);
      add_dbl(b, "parallel_cost_s", c->r->parallel_cost_ps * 1e-12);
      add_dbl(b, "p2p_cost_s", c->r->p2p_cost_ps * 1e-12);
      add_dbl(b, "map_s", c->map_seconds);
      const metrics *ms[2] = { c->pre, c->post };
      const char *names[2] = { "pre", "post" };
      for (int k = 0; k < 2; k++) {
        json_builder_set_member_name(b, names[k]);
        json_builder_begin_object(b);
        cli_metrics_json(b, ms[k]);
        json_builder_end_object(b);
      }
      json_builder_set_member_name(b, "pre_post_match");
      json_builder_add_boolean_value(b, c->match);
    }
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

static void print_table(const study *s, const char *trace_path)
{
  printf("%s: %d ranks, model %s\n\n", trace_path, s->t->nranks, s->model->name);
  printf("%-16s %-12s %14s %14s %12s %12s %13s %13s %s\n", "platform", "strategy",
         "hop_bytes pre", "post", "max_link pre", "post", "makespan (s)", "comm time (s)",
         "pre=post");
  const char *prev = NULL;
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    const char *pname = c->p ? c->p->name : c->platform_spec;
    if (prev && g_strcmp0(prev, c->platform_spec) != 0)
      printf("\n");
    prev = c->platform_spec;
    if (c->error) {
      printf("%-16s %-12s error: %s\n", pname, c->strategy_spec, c->error->message);
      continue;
    }
    printf("%-16s %-12s %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %12" G_GINT64_FORMAT
           " %12" G_GINT64_FORMAT " %13.9f %13.9f %s\n",
           pname, c->strategy_spec, c->pre->hop_bytes, c->post->hop_bytes,
           c->pre->max_link_bytes, c->post->max_link_bytes, c->r->makespan_ps * 1e-12,
           c->r->comm_model_ps * 1e-12, c->match ? "yes" : "NO");
  }
  printf("\nhop_bytes and max_link (bytes on the busiest link) before the replay (pre, "
         "static)\nand counted on the links during it (post); makespan and communication "
         "model\ntime are simulated. The table is the same whatever --threads; --json adds "
         "the\ntime each strategy took (map_s).\n");
}

int cmd_compare(int argc, char **argv)
{
  char *trace_path = NULL, *model = NULL, *alloc = NULL, *colls = NULL;
  char **plats = NULL, **strats = NULL;
  int seed = 1, threads = 0, cores = 0;
  double scale = 1.0;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace_path, "OTF2 trace (anchor file or directory)", "T" },
    { "platform", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &plats, "Platform file or shorthand (repeatable)", "P" },
    { "strategy", 's', 0, G_OPTION_ARG_STRING_ARRAY, &strats, "Mapping strategy pipeline (repeatable; default identity)", "S" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, "Network model (default analytic)", "NAME" },
    { "compute-scale", 0, 0, G_OPTION_ARG_DOUBLE, &scale, "Factor on computation gaps (default 1)", "X" },
    { "collectives", 0, 0, G_OPTION_ARG_STRING, &colls, "Collective algorithms, e.g. allreduce=ring", "SPEC" },
    { "alloc", 0, 0, G_OPTION_ARG_STRING, &alloc, "Allocation for every platform", "A" },
    { "cores", 0, 0, G_OPTION_ARG_INT, &cores, "Cores (ranks) per node for every platform", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "Seed of randomized strategies (default 1)", "N" },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &threads, "Replays run in parallel (default: all cores)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL },
  };
  int status = 2;
  trace *t = NULL;
  study *s = NULL;
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "compare", "",
                 "Replay one trace on several platforms with several mapping strategies and "
                 "compare: static (pre) and simulated (post) hop-bytes and link loads, "
                 "makespan, communication model time, the pre/post check.",
                 "Example:\n  mapsim compare --trace traces/data/stencil3d-64 \\\n"
                 "    -p configs/mesh-4x4x4.ini -p configs/torus-4x4x4.ini -p configs/haec-4x4x4.ini \\\n"
                 "    -s identity -s random -s hilbert -s greedy+wh -s scotch",
                 entries))
    goto out;
  const char *const default_strats[] = { "identity", NULL };
  const char *const *sv = strats ? (const char *const *)strats : default_strats;
  const struct netmodel_ops *ops = netmodel_find(model ? model : "analytic");
  if (!trace_path || !plats) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "expected --trace T and at least one --platform P");
    goto fail;
  }
  if (!ops) {
    g_autofree char *names = netmodel_names();
    g_set_error(&e, NETMODEL_ERROR, NETMODEL_ERROR_UNKNOWN,
                "--model %s: unknown network model, expected one of: %s", model, names);
    goto fail;
  }
  if (!(t = trace_read_otf2(trace_path, &e)))
    goto fail;
  s = study_new(t, (const char *const *)plats, (int)g_strv_length(plats), sv,
                (int)g_strv_length((char **)sv), ops, (guint32)seed, &e);
  if (!s)
    goto fail;
  s->opts.compute_scale = scale;
  s->opts.collectives = colls;
  s->alloc = g_strdup(alloc);
  s->cores = cores;
  if (!study_run(s, threads > 0 ? threads : (int)g_get_num_processors(), &e))
    goto fail;
  if (json)
    print_json(s, trace_path);
  else
    print_table(s, trace_path);
  status = 0;
  for (int i = 0; i < s->ncells; i++) {
    if (s->cells[i].error) {
      fprintf(stderr, "mapsim: %s with %s: %s\n", s->cells[i].platform_spec,
              s->cells[i].strategy_spec, s->cells[i].error->message);
      status = 2;
    } else if (!s->cells[i].match && status == 0) {
      fprintf(stderr, "mapsim: pre/post check failed on %s with %s\n",
              s->cells[i].platform_spec, s->cells[i].strategy_spec);
      status = 1;
    }
  }
  goto out;
fail:
  status = cli_fail(e);
out:
  study_free(s);
  trace_free(t);
  g_free(trace_path);
  g_free(model);
  g_free(alloc);
  g_free(colls);
  g_strfreev(plats);
  g_strfreev(strats);
  return status;
}
