/* simulate-loggops.c - `simulate --model loggops[:L=..:o=..:g=..:G=..:O=..:
 * S=..:unit=..]`: LogGOPSim's model (sim/loggops.h) on a GOAL schedule, or
 * on any trace mapsim reads, turned into one (goal_of_trace); and `export
 * goal`, which writes that schedule.
 *
 * Without --platform LogGOPS has no network: every rank is a host of its
 * own and any two are L apart, without contention, so a mapping, a
 * strategy or an allocation - where ranks are, which links they share -
 * is refused with that reason rather than ignored. With --platform the
 * run is simulate's (cmd-simulate.c: run_cell with loggops params, the
 * messages crossing the platform, sim/loggops.h). */
#include "cli/simulate-loggops.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "sim/loggops.h"
#include "util/checked.h"
#include "util/output.h"
#include "traces/goal.h"
#include "traces/input.h"

goal *cli_loggops_schedule(const cli_common *c, const loggops_params *p, GError **error)
{
  g_auto(input) in = { 0 };
  if (!input_open(&in, c->trace, NULL, INPUT_TRACE | INPUT_GRAPH, error))
    return NULL;
  if (strcmp(in.reader->name, "goal") == 0)
    return goal_read(c->trace, error);
  if (!(in.reader->gives & INPUT_TRACE)) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "%s: %s has no operations to time, expected a GOAL schedule or a trace for "
                "--model loggops", c->trace, in.reader->what);
    return NULL;
  }
  coll_choice choice;
  if (!coll_choice_parse(&choice, c->collectives, error))
    return NULL;
  trace *t = cli_read_trace(c->trace, error);
  goal *g = t ? goal_of_trace(t, p->unit_s, &choice, error) : NULL;
  trace_free(t);
  return g;
}

static void print_text(const cli_common *c, const loggops_params *p, const goal *g,
                       const loggops_result *r, double wall)
{
  printf("%s, model loggops (L=%" G_GUINT64_FORMAT " o=%" G_GUINT64_FORMAT " g=%" G_GUINT64_FORMAT
         " G=%" G_GUINT64_FORMAT " O=%" G_GUINT64_FORMAT " S=%" G_GUINT64_FORMAT
         ", unit %g s), no platform: every rank a host, no contention\n\n",
         c->trace, p->L, p->o, p->g, p->G, p->O, p->S, p->unit_s);
  printf("ranks                  %d\n", g->nranks);
  printf("operations             %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " sends)\n", g->nops,
         r->messages);
  printf("makespan               %" G_GUINT64_FORMAT " units = %.9g s (rank %d)\n", r->makespan,
         (double)r->makespan * p->unit_s, r->host);
  printf("events                 %" G_GINT64_FORMAT " in %.3f s\n", r->events, wall);
}

static void print_json(const cli_common *c, const loggops_params *p, const goal *g,
                       const loggops_result *r, double wall)
{
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  cli_provenance_json(b, c, c->model, NULL, NULL);
  json_builder_set_member_name(b, "model");
  json_builder_add_string_value(b, "loggops");
  json_builder_set_member_name(b, "params");
  json_builder_begin_object(b);
  const char *names[] = { "L", "o", "g", "G", "O", "S" };
  const uint64_t values[] = { p->L, p->o, p->g, p->G, p->O, p->S };
  for (int i = 0; i < 6; i++) {
    json_builder_set_member_name(b, names[i]);
    json_builder_add_int_value(b, (gint64)values[i]);
  }
  cli_json_double(b, "unit_s", p->unit_s);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "platform");
  json_builder_add_null_value(b);
  json_builder_set_member_name(b, "ranks");
  json_builder_add_int_value(b, g->nranks);
  json_builder_set_member_name(b, "operations");
  json_builder_add_int_value(b, g->nops);
  json_builder_set_member_name(b, "messages");
  json_builder_add_int_value(b, r->messages);
  json_builder_set_member_name(b, "makespan_units");
  json_builder_add_int_value(b, (gint64)r->makespan);
  cli_json_double(b, "makespan_s", (double)r->makespan * p->unit_s);
  json_builder_set_member_name(b, "makespan_rank");
  json_builder_add_int_value(b, r->host);
  json_builder_set_member_name(b, "events");
  json_builder_add_int_value(b, r->events);
  cli_json_double(b, "replay_seconds", wall);
  json_builder_set_member_name(b, "finish_units");
  json_builder_begin_array(b);
  for (int i = 0; i < r->nranks; i++)
    json_builder_add_int_value(b, (gint64)r->finish[i]);
  json_builder_end_array(b);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

int simulate_loggops(const cli_common *c, const char *writers)
{
  GError *e = NULL;
  loggops_params p;
  const char *placed = c->mapping ? "--mapping" : c->strategy ? "--strategy"
                       : c->alloc ? "--alloc" : NULL;
  if (!loggops_parse(c->model, &p, &e))
    return cli_fail(e);
  if (!c->trace)
    return cli_fail(g_error_new(G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                "--trace T is required"));
  if (writers)
    return cli_fail(g_error_new(G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                "%s: --model loggops records no timeline, expected none of these options",
                                writers));
  if (placed)
    return cli_fail(g_error_new(G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                "%s: --model loggops without --platform has no network to "
                                "place ranks on (every rank is a host of its own, any two L "
                                "apart, no contention, as in LogGOPSim); expected --platform "
                                "too, or no %s", placed, placed));
  if (c->json && c->csv)
    return cli_fail(g_error_new(G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                                "--json and --csv exclude each other; expected one of them"));
  g_autoptr(goal) g = cli_loggops_schedule(c, &p, &e);
  if (!g)
    return cli_fail(e);
  loggops_result r;
  gint64 t0 = g_get_monotonic_time();
  gboolean ok = loggops_run(g, &p, cli_progress(c), &r, &e);
  double wall = (double)(g_get_monotonic_time() - t0) * 1e-6;
  cli_progress_end();
  if (!ok) {
    g_prefix_error(&e, "%s: ", c->trace);
    return cli_fail(e);
  }
  if (c->json) {
    print_json(c, &p, g, &r, wall);
  } else if (c->csv) {
    printf("trace,model,ranks,operations,messages,makespan_units,makespan_s,makespan_rank\n");
    GString *s = g_string_new(NULL);
    cli_csv_cell(s, c->trace);
    printf("%s,loggops,%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.17g,%d\n",
           s->str, g->nranks, g->nops, r.messages, r.makespan, (double)r.makespan * p.unit_s,
           r.host);
    g_string_free(s, TRUE);
  } else {
    print_text(c, &p, g, &r, wall);
  }
  loggops_result_clear(&r);
  return 0;
}

int export_goal(int argc, char **argv)
{
  cli_common c;
  char *out = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "GOAL file to write ('-': standard output)",
      "F.goal" },
    { NULL },
  };
  int status = 2;
  GError *e = NULL;
  loggops_params p;
  goal *g = NULL;
  if (!cli_parse(&argc, &argv, "export goal", "",
                 "Writes a trace as a LogGOPSim GOAL schedule (sim/loggops.h: each rank's records "
                 "in order; the time between MPI calls a calc in units of --model "
                 "loggops:unit=T, default 1ns; nonblocking operations with irequires; collectives "
                 "as their algorithm's messages, --collectives), which LogGOPSim's txt2bin and "
                 "`mapsim simulate --model loggops` read.",
                 "Examples:\n"
                 "  mapsim export goal -t traces/data/cg-16 -o cg-16.goal\n"
                 "  mapsim export goal -t traces/data/ring-8 --model loggops:unit=1us -o ring.goal",
                 CLI_OPT_TRACE | CLI_OPT_MODEL | CLI_OPT_COLLECTIVES | CLI_OPT_PROGRESS, &c,
                 entries))
    goto done;
  if (argc > 1 || !out || !c.trace) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                argc > 1 ? "export goal: unexpected argument, expected options only"
                         : "export goal: %s missing, expected --trace T and -o F.goal",
                out ? "--trace" : "-o F.goal");
    goto fail;
  }
  if (!loggops_parse(c.model ? c.model : "loggops", &p, &e) || !(g = cli_loggops_schedule(&c, &p, &e)))
    goto fail;
  output *o = output_open(out, cli_progress(&c), &e);
  if (!o)
    goto fail;
  if (!goal_write(g, output_stream(o))) {
    output_abort(o);
    g_set_error(&e, GOAL_ERROR, GOAL_ERROR_IO, "%s: cannot write the schedule", out);
    goto fail;
  }
  if (!output_commit(o, &e))
    goto fail;
  status = 0;
  goto done;
fail:
  status = cli_fail(e);
done:
  goal_free(g);
  g_free(out);
  cli_common_clear(&c);
  return status;
}

int trace_info_goal(const char *path, gboolean json)
{
  GError *e = NULL;
  g_autoptr(goal) g = goal_read(path, &e);
  if (!g)
    return cli_fail(e);
  int64_t count[4] = { 0 }, bytes = 0;
  for (int64_t i = 0; i < g->nops; i++) {
    count[g->ops[i].kind]++;
    if (g->ops[i].kind == GOAL_SEND)
      bytes = saturating_add_i64(bytes, (int64_t)MIN(g->ops[i].size, (uint64_t)INT64_MAX));
  }
  int64_t requires = g->end_xadj[g->nops], irequires = g->start_xadj[g->nops];
  if (!json) {
    printf("trace           %s\n", path);
    printf("format          goal (a LogGOPSim GOAL schedule)\n");
    printf("ranks           %d\n", g->nranks);
    printf("operations      %" G_GINT64_FORMAT ": %" G_GINT64_FORMAT " sends, %" G_GINT64_FORMAT
           " receives, %" G_GINT64_FORMAT " calcs; %" G_GINT64_FORMAT " requires, %"
           G_GINT64_FORMAT " irequires\n", g->nops, count[GOAL_SEND], count[GOAL_RECV],
           count[GOAL_CALC], requires, irequires);
    printf("p2p             %" G_GINT64_FORMAT " messages, %" G_GINT64_FORMAT " bytes\n",
           count[GOAL_SEND], bytes);
    printf("cpus, nics      %d, %d per rank\n", g->max_cpu + 1, g->max_nic + 1);
    return 0;
  }
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "format");
  json_builder_add_string_value(b, "goal");
  const char *names[] = { "ranks", "operations", "sends", "receives", "calcs", "requires",
                          "irequires", "p2p_bytes", "cpus", "nics" };
  const int64_t values[] = { g->nranks, g->nops, count[GOAL_SEND], count[GOAL_RECV],
                             count[GOAL_CALC], requires, irequires, bytes, g->max_cpu + 1,
                             g->max_nic + 1 };
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    json_builder_set_member_name(b, names[i]);
    json_builder_add_int_value(b, values[i]);
  }
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
  return 0;
}
