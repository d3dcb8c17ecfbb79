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
  add_str(b, "model", s->models[0]->name);
  json_builder_set_member_name(b, "cells");
  json_builder_begin_array(b);
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    json_builder_begin_object(b);
    add_str(b, "platform", s->platforms[c->platform].label);
    add_str(b, "strategy", s->strategies[c->strategy].label);
    if (c->error) {
      add_str(b, "error", c->error->message);
    } else {
      cli_fields_json(b, run_replay_fields, run_replay_nfields, c->res->r, 0);
      add_dbl(b, "map_s", c->res->map_seconds);
      const metrics *ms[2] = { c->res->pre, c->res->post };
      const char *names[2] = { "pre", "post" };
      for (int k = 0; k < 2; k++) {
        json_builder_set_member_name(b, names[k]);
        json_builder_begin_object(b);
        cli_metrics_json(b, ms[k]);
        json_builder_end_object(b);
      }
      json_builder_set_member_name(b, "pre_post_match");
      json_builder_add_boolean_value(b, c->res->mismatch < 0);
    }
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

/* One CSV row per cell: platform, strategy, error, every simulated field,
 * the strategy's time, then every static metric before (pre_) and after
 * (post_) the replay, and the check. */
static void print_csv(const study *s)
{
  GString *o = g_string_new("platform,strategy,error");
  cli_fields_csv_header(o, NULL, run_replay_fields, run_replay_nfields, 0);
  g_string_append(o, ",map_s");
  cli_fields_csv_header(o, "pre_", metrics_fields, metrics_nfields, FIELD_VIEW_STATIC);
  cli_fields_csv_header(o, "post_", metrics_fields, metrics_nfields, FIELD_VIEW_SIMULATED);
  g_string_append(o, ",pre_post_match\n");
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    cli_csv_cell(o, s->platforms[c->platform].label);
    g_string_append_c(o, ',');
    cli_csv_cell(o, s->strategies[c->strategy].label);
    g_string_append_c(o, ',');
    if (c->error) {
      cli_csv_cell(o, c->error->message);
      g_string_append_c(o, '\n');
      continue;
    }
    cli_fields_csv_row(o, run_replay_fields, run_replay_nfields, c->res->r, 0);
    g_string_append_printf(o, ",%.6f", c->res->map_seconds);
    cli_fields_csv_row(o, metrics_fields, metrics_nfields, c->res->pre, FIELD_VIEW_STATIC);
    cli_fields_csv_row(o, metrics_fields, metrics_nfields, c->res->post, FIELD_VIEW_SIMULATED);
    g_string_append_printf(o, ",%s\n", c->res->mismatch < 0 ? "true" : "false");
  }
  fputs(o->str, stdout);
  g_string_free(o, TRUE);
}

static void print_table(const study *s, const char *trace_path)
{
  printf("%s: %d ranks, model %s\n\n", trace_path, s->inputs[0].t->nranks, s->models[0]->name);
  printf("%-16s %-12s %14s %14s %12s %12s %13s %13s %s\n", "platform", "strategy",
         "hop_bytes pre", "post", "max_link pre", "post", "makespan (s)", "comm time (s)",
         "pre=post");
  const char *prev = NULL;
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    const study_platform *sp = &s->platforms[c->platform];
    const char *sname = s->strategies[c->strategy].label;
    const char *pname = sp->p ? sp->p->name : sp->label;
    if (prev && g_strcmp0(prev, sp->label) != 0)
      printf("\n");
    prev = sp->label;
    if (c->error) {
      printf("%-16s %-12s error: %s\n", pname, sname, c->error->message);
      continue;
    }
    const run_result *res = c->res;
    printf("%-16s %-12s %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %12" G_GINT64_FORMAT
           " %12" G_GINT64_FORMAT " %13.9f %13.9f %s\n",
           pname, sname, res->pre->hop_bytes, res->post->hop_bytes,
           res->pre->max_link_bytes, res->post->max_link_bytes, res->r->makespan_ps * 1e-12,
           res->r->comm_model_ps * 1e-12, res->mismatch < 0 ? "yes" : "NO");
  }
  printf("\nhop_bytes and max_link (bytes on the busiest link) before the replay (pre, "
         "static)\nand counted on the links during it (post); makespan and communication "
         "model\ntime are simulated. The table is the same whatever --threads; --json adds "
         "the\ntime each strategy took (map_s).\n");
}

int cmd_compare(int argc, char **argv)
{
  cli_common c;
  int status = 2;
  trace *t = NULL;
  study *s = NULL;
  GError *e = NULL;
  const struct netmodel_ops *ops = NULL;
  if (!cli_parse(&argc, &argv, "compare", "",
                 "Replay one trace on several platforms with several mapping strategies and "
                 "compare: static (pre) and simulated (post) hop-bytes and link loads, "
                 "makespan, communication model time, the pre/post check.",
                 "Example:\n  mapsim compare --trace traces/data/stencil3d-64 \\\n"
                 "    -p configs/mesh-4x4x4.ini -p configs/torus-4x4x4.ini -p configs/haec-4x4x4.ini \\\n"
                 "    -s identity -s random -s hilbert -s greedy+wh -s scotch",
                 CLI_OPT_PLATFORMS | CLI_OPT_ALLOC | CLI_OPT_CORES | CLI_OPT_TRACE |
                 CLI_OPT_STRATEGIES | CLI_OPT_SEED | CLI_OPT_MODEL | CLI_OPT_REPLAY | CLI_OPT_COLLECTIVES |
                 CLI_OPT_THREADS | CLI_OPT_PROGRESS | CLI_OPT_JSON | CLI_OPT_CSV, &c, NULL))
    goto out;
  const char *const default_strats[] = { "identity", NULL };
  const char *const *sv = c.strategies ? (const char *const *)c.strategies : default_strats;
  if (!c.trace || !c.platforms) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "expected --trace T and at least one --platform P");
    goto fail;
  }
  if (c.json && c.csv) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--json and --csv exclude each other; expected one of them");
    goto fail;
  }
  if (!(ops = cli_common_model(&c, &e)) || !(t = trace_read_otf2(c.trace, &e)))
    goto fail;
  s = study_new_grid(t, c.trace, (const char *const *)c.platforms,
                     (int)g_strv_length(c.platforms), c.alloc, c.cores, c.fill, sv,
                     (int)g_strv_length((char **)sv), ops, c.seed, c.collectives, &e);
  if (!s)
    goto fail;
  s->opts.compute_scale = c.compute_scale;
  const progress *prog = cli_progress(&c);
  gboolean ran = study_run(s, NULL, c.threads > 0 ? c.threads : (int)g_get_num_processors(), NULL,
                           FALSE, prog, &e);
  cli_progress_end();
  if (!ran)
    goto fail;
  if (progress_stopped(prog)) {
    fprintf(stderr, "mapsim: interrupted\n");
    status = 130;
    goto out;
  }
  if (c.json)
    print_json(s, c.trace);
  else if (c.csv)
    print_csv(s);
  else
    print_table(s, c.trace);
  status = 0;
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *cell = &s->cells[i];
    if (cell->error) {
      fprintf(stderr, "mapsim: %s with %s: %s\n", s->platforms[cell->platform].label,
              s->strategies[cell->strategy].label, cell->error->message);
      status = 2;
    } else if (cell->res->mismatch >= 0 && status == 0) {
      fprintf(stderr, "mapsim: pre/post check failed on %s with %s\n",
              s->platforms[cell->platform].label, s->strategies[cell->strategy].label);
      status = 1;
    }
  }
  goto out;
fail:
  status = cli_fail(e);
out:
  study_free(s);
  trace_free(t);
  cli_common_clear(&c);
  return status;
}
