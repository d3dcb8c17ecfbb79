/* cmd-simulate.c - `mapsim simulate`: replay a trace on a platform with a
 * mapping (one run of sim/run.h), report simulated time, costs and pre/post
 * metrics.
 *
 * korndoerfer2021 Section 7.3 (communication model time, MPI point-to-point
 * cost, parallel cost) and Section 7.4 (the pre == post check on
 * point-to-point traffic). Not for: choosing mappings (mapsim map) or
 * static-only metrics (mapsim metrics).
 */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/simulate-jobs.h"
#include "cli/simulate-loggops.h"
#include "sim/loggops.h"
#include "sim/link-fields.h"
#include "sim/run.h"
#include "traces/input.h"
#include "sim/timeline.h"
#include "util/output.h"
#include "routing/energy.h"

static void add_metrics(JsonBuilder *b, const char *name, const metrics *m)
{
  json_builder_set_member_name(b, name);
  json_builder_begin_object(b);
  cli_metrics_json(b, m);
  json_builder_end_object(b);
}

/* Links that carried anything, busiest (by busy time) first; ties by id. */
static int cmp_busy(const void *a, const void *b, void *user)
{
  const replay_result *r = user;
  int x = *(const int *)a, y = *(const int *)b;
  if (r->link_busy_ps[x] != r->link_busy_ps[y])
    return r->link_busy_ps[x] > r->link_busy_ps[y] ? -1 : 1;
  return (x > y) - (x < y);
}

static int *used_links(const replay_result *r, int *n)
{
  int *ids = g_new(int, MAX(r->nlinks, 1));
  *n = 0;
  for (int l = 0; l < r->nlinks; l++)
    if (r->link_bytes[l] || r->link_busy_ps[l])
      ids[(*n)++] = l;
  g_qsort_with_data(ids, *n, sizeof(int), cmp_busy, (gpointer)r);
  return ids;
}

/* "links": per used link its p2p traffic, busy time, energy (with power
 * keys; a link that carried nothing draws its idle power over the
 * makespan) and, for contention models, its load (flows or queued
 * packets) and saturated time. */
static void add_links(JsonBuilder *b, const replay_result *r, const platform *p)
{
  int n;
  int *ids = used_links(r, &n);
  if (r->load_unit) {
    json_builder_set_member_name(b, "load_unit");
    json_builder_add_string_value(b, r->load_unit);
  }
  json_builder_set_member_name(b, "links");
  json_builder_begin_array(b);
  link_source src = { .p = p, .r = r };
  for (int i = 0; i < n; i++) {
    json_builder_begin_object(b);
    link_fields_json(b, LINK_VIEW_REPLAY, &src, ids[i]);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  g_free(ids);
}

/* Column c of the busiest links: its field, width and head alignment
 * (a load's head ends in the model's unit word, left-aligned), and the
 * spaces before it. */
static const struct {
  link_field_id f;
  int width;
  gboolean head_left;
  const char *gap;
} busiest_cols[] = {
  { LINK_F_P2P_BYTES, 12, FALSE, " " }, { LINK_F_BUSY, 11, FALSE, " " },
  { LINK_F_MAX_LOAD, 11, TRUE, "  " },  { LINK_F_AVG_LOAD, 11, TRUE, " " },
  { LINK_F_SATURATED, 13, FALSE, " " },
};

static void print_busiest(const replay_result *r, const platform *p, int top)
{
  int n;
  int *ids = used_links(r, &n);
  link_source src = { .p = p, .r = r };
  GString *cell = g_string_new(NULL);
  printf("\n%-42s", "busiest links (all traffic)");
  for (size_t c = 0; c < G_N_ELEMENTS(busiest_cols); c++) {
    if (!link_field_has(busiest_cols[c].f, &src, 0))
      continue;
    g_string_truncate(cell, 0);
    link_field_head(cell, busiest_cols[c].f, &src);
    printf(busiest_cols[c].head_left ? "%s%-*s" : "%s%*s", busiest_cols[c].gap,
           busiest_cols[c].width, cell->str);
  }
  printf("\n");
  for (int i = 0; i < MIN(n, top); i++) {
    int l = ids[i];
    g_autofree char *name = platform_link_name(p, l);
    printf("  %-40s", name);
    for (size_t c = 0; c < G_N_ELEMENTS(busiest_cols); c++) {
      if (!link_field_has(busiest_cols[c].f, &src, l))
        continue;
      g_string_truncate(cell, 0);
      link_field_text(cell, busiest_cols[c].f, &src, l);
      printf("%s%*s", busiest_cols[c].gap, busiest_cols[c].width, cell->str);
    }
    printf("\n");
  }
  g_string_free(cell, TRUE);
  if (r->link_stats)
    printf("(busy: time the link carried data; max %s: the most %s on it at once; avg\n"
           " %s: their number averaged over the whole run (the makespan), 0.5 = one for\n"
           " half of it; saturated: time it ran at its full bandwidth)\n", r->load_unit,
           r->load_unit, r->load_unit);
  g_free(ids);
}

/* "energy_by_type": per link type the parts of energy_j (routing/energy.h). */
static void add_energy(JsonBuilder *b, const replay_result *r, const platform *p)
{
  json_builder_set_member_name(b, "energy_by_type");
  json_builder_begin_array(b);
  for (int i = 0; i < r->ntypes; i++) {
    const link_energy *e = &r->type_energy[i];
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "type");
    json_builder_add_string_value(b, p->linktypes[i].name);
    cli_json_double(b, "energy_j", link_energy_total(e));
    cli_json_double(b, "energy_idle_j", e->idle_j);
    cli_json_double(b, "energy_traffic_j", e->traffic_j);
    cli_json_double(b, "energy_off_j", e->off_j);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

static void print_energy(const replay_result *r, const platform *p)
{
  if (!platform_has_power(p))
    return;
  printf("link energy            %.9g J over the makespan: idle %.9g, traffic %.9g, off %.9g,\n"
         "                       %" G_GINT64_FORMAT " wake-ups (routing/energy.h)\n", r->energy_j,
         r->energy_idle_j, r->energy_traffic_j, r->energy_off_j, r->link_wakeups);
  for (int i = 0; i < r->ntypes; i++) {
    const link_energy *e = &r->type_energy[i];
    printf("  %-20s %.9g J: idle %.9g, traffic %.9g, off %.9g\n", p->linktypes[i].name,
           link_energy_total(e), e->idle_j, e->traffic_j, e->off_j);
  }
  printf("\n");
}

/* "loggops": the parameters and the makespan in units (a run under
 * --model loggops with --platform). */
static void add_loggops(JsonBuilder *b, const loggops_params *lp, const replay_result *r)
{
  int64_t unit_ps = (int64_t)llround(lp->unit_s * 1e12);
  json_builder_set_member_name(b, "loggops");
  json_builder_begin_object(b);
  const char *names[] = { "L", "o", "g", "G", "O", "S" };
  const uint64_t values[] = { lp->L, lp->o, lp->g, lp->G, lp->O, lp->S };
  for (int i = 0; i < 6; i++) {
    json_builder_set_member_name(b, names[i]);
    json_builder_add_int_value(b, (gint64)values[i]);
  }
  cli_json_double(b, "unit_s", lp->unit_s);
  json_builder_set_member_name(b, "net");
  json_builder_add_string_value(b, lp->net);
  json_builder_set_member_name(b, "makespan_units");
  json_builder_add_int_value(b, r->makespan_ps / unit_ps);
  json_builder_end_object(b);
}

static void print_json(const cli_common *c, const run_result *res, const trace_times *tt,
                       const char *model, const loggops_params *lp, const platform *p,
                       gboolean with_colls)
{
  const replay_result *r = res->r;
  double wall = res->replay_seconds;
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  cli_provenance_json(b, c, model, NULL, NULL);
  cli_fields_json(b, run_replay_fields, run_replay_nfields, r, 0);
  json_builder_set_member_name(b, "model");
  json_builder_add_string_value(b, model);
  if (lp)
    add_loggops(b, lp, r);
  json_builder_set_member_name(b, "input");
  json_builder_add_string_value(b, tt ? "trace" : "goal");
  cli_platform_json(b, p);
  json_builder_set_member_name(b, "traffic");
  json_builder_add_string_value(b, run_traffic_name(with_colls));
  json_builder_set_member_name(b, "objective");
  res->objective ? json_builder_add_string_value(b, res->objective)
                 : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "map_replays");
  json_builder_add_int_value(b, res->map_replays);
  json_builder_set_member_name(b, "traced");
  if (tt) {
    json_builder_begin_object(b);
    cli_fields_json(b, trace_times_fields, trace_times_nfields, tt, 0);
    json_builder_end_object(b);
  } else { /* a schedule has no traced times */
    json_builder_add_null_value(b);
  }
  json_builder_set_member_name(b, "simulated");
  json_builder_begin_object(b);
  cli_fields_json(b, run_times_fields, run_times_nfields, &res->times, 0);
  json_builder_end_object(b);
  add_metrics(b, "pre", res->pre);
  if (res->pre_nonminimal)
    add_metrics(b, "pre_valiant", res->pre_nonminimal);
  add_metrics(b, "post", res->post);
  json_builder_set_member_name(b, "pre_post_match");
  json_builder_add_boolean_value(b, res->mismatch < 0);
  json_builder_set_member_name(b, "check");
  json_builder_add_string_value(b, run_check_name(res->check));
  json_builder_set_member_name(b, "per_rank");
  json_builder_begin_array(b);
  for (int i = 0; i < r->nranks; i++) {
    const replay_rank_stats *s = &r->per_rank[i];
    json_builder_begin_object(b);
    cli_json_double(b, "finish_s", s->finish_ps * 1e-12);
    cli_json_double(b, "compute_s", s->compute_ps * 1e-12);
    cli_json_double(b, "p2p_s", s->p2p_ps * 1e-12);
    cli_json_double(b, "collective_s", s->coll_ps * 1e-12);
    cli_json_double(b, "other_mpi_s", s->other_mpi_ps * 1e-12);
    cli_json_double(b, "wait_s", s->wait_ps * 1e-12);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  for (int i = 0; i < r->nmodel_stats; i++)
    cli_json_double(b, r->model_stats[i].name, r->model_stats[i].value);
  add_links(b, r, p);
  add_energy(b, r, p);
  cli_json_double(b, "wall_s", wall);
  cli_json_double(b, "events_per_s", wall > 0 ? r->events / wall : 0);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

/* Traced and simulated time side by side: the first rows of both tables
 * (duration, makespan) pair up, the others by name; a time only one side
 * has shows "-" on the other. */
static void print_times(const trace_times *tt, const run_times *rt, const cli_common *c,
                        int nranks)
{
  typedef struct { const field *a, *b; } row;
  row rows[32];
  int n = 0;
  rows[n++] = (row){ &trace_times_fields[0], &run_times_fields[0] };
  for (int i = 1; i < trace_times_nfields; i++) {
    const field *b = NULL;
    for (int j = 1; j < run_times_nfields; j++)
      if (strcmp(trace_times_fields[i].name, run_times_fields[j].name) == 0)
        b = &run_times_fields[j];
    rows[n++] = (row){ &trace_times_fields[i], b };
  }
  for (int j = 1; j < run_times_nfields; j++) {
    gboolean seen = FALSE;
    for (int i = 1; i < trace_times_nfields; i++)
      seen = seen || strcmp(trace_times_fields[i].name, run_times_fields[j].name) == 0;
    if (!seen)
      rows[n++] = (row){ NULL, &run_times_fields[j] };
  }
  GString *a = g_string_new(NULL), *b = g_string_new(NULL);
  printf("%-26s %16s %16s\n", "time (s)", "traced", "simulated");
  for (int i = 0; i < n; i++) {
    g_string_assign(a, "-");
    g_string_assign(b, "-");
    if (rows[i].a) {
      g_string_truncate(a, 0);
      cli_field_format(a, rows[i].a, tt);
    }
    if (rows[i].b) {
      g_string_truncate(b, 0);
      cli_field_format(b, rows[i].b, rt);
    }
    g_autofree char *label = rows[i].a && rows[i].b && i == 0
                                 ? g_strdup_printf("%s / %s", rows[i].a->name, rows[i].b->name)
                                 : g_strdup(rows[i].a ? rows[i].a->name : rows[i].b->name);
    printf("%-26s %16s %16s\n", label, a->str, b->str);
  }
  g_string_free(a, TRUE);
  g_string_free(b, TRUE);
  printf("(rows after the first are sums over the %d ranks)\n", nranks);
}

/* Do two times differ by more than 5%? */
static gboolean differ(int64_t a, int64_t b)
{
  double x = (double)a, y = (double)b;
  return fabs(x - y) > 0.05 * MAX(fabs(x), fabs(y));
}

/* Appends `text` to a paragraph folded at 80 columns, lines indented by
 * two spaces after the first ("- "). */
static void fold(GString *out, const char *text)
{
  g_auto(GStrv) words = g_strsplit(text, " ", -1);
  gsize line = out->len - (strrchr(out->str, '\n') ? (gsize)(strrchr(out->str, '\n') - out->str) + 1
                                                  : 0);
  for (int i = 0; words[i]; i++) {
    if (!*words[i])
      continue;
    gsize w = strlen(words[i]);
    if (line > 2 && line + 1 + w > 80) {
      g_string_append(out, "\n  ");
      line = 2;
    } else if (line > 2) {
      g_string_append_c(out, ' ');
      line++;
    }
    g_string_append(out, words[i]);
    line += w;
  }
}

/* Why the traced and simulated times differ, row by row, with the numbers
 * that account for it (seconds). Each sentence is said only where its
 * premise holds for this run: the setup of MPI_Init and MPI_Finalize only
 * when the trace spent time there, a rank waiting for a partner that
 * computes only when computation is replayed, the traced ranks' sharing
 * of cores only for a measured trace (not one mapsim wrote). */
static void print_differences(const trace_times *tt, const run_result *res, double scale,
                              gboolean synthetic)
{
  const replay_result *r = res->r;
  const run_times *rt = &res->times;
  int n = MAX(r->nranks, 1);
  int64_t cmax = 0;
  for (int i = 0; i < r->nranks; i++)
    cmax = MAX(cmax, r->per_rank[i].compute_ps);
  double setup = tt->setup_ps * 1e-12, wait = rt->wait_ps * 1e-12;
  gboolean has_setup = tt->setup_ps > 0, computes = rt->compute_ps > 0;
  const char *traced_by = synthetic ? "what the model of `mapsim gen` wrote into the trace"
                                    : "what the MPI library took, waiting for the last rank to "
                                      "arrive included";
  GString *o = g_string_new("why traced and simulated differ:\n");
  gsize empty = o->len;
  if (has_setup && differ(tt->duration_ps, rt->makespan_ps)) {
    g_autofree char *text = g_strdup_printf(
        "duration vs makespan: the traced run includes MPI_Init and MPI_Finalize (setup_s %.6f "
        "s over all ranks, %.6f s per rank on average); the replay starts every rank at 0 s "
        "after MPI_Init and leaves both calls out.", setup, setup / n);
    g_string_append(o, "- ");
    fold(o, text);
    g_string_append_c(o, '\n');
  }
  if (differ(tt->compute_ps, rt->compute_ps)) {
    g_autofree char *text =
        scale == 0 ? g_strdup("compute: the replay leaves the traced computation out "
                              "(--compute-scale 0): communication only.")
                   : g_strdup_printf("compute: the replay runs the traced computation x %g "
                                     "(--compute-scale).", scale);
    g_string_append(o, "- ");
    fold(o, text);
    g_string_append_c(o, '\n');
  }
  if (differ(tt->p2p_ps, rt->p2p_ps)) {
    g_string_append(o, "- ");
    g_autofree char *both = g_strdup_printf(
        "p2p: both are the time inside point-to-point calls, waiting included (MPI_Wait*, a "
        "blocking MPI_Recv). Simulated: %.6f s of transfers (network time of every message, "
        "summed) and %.6f s blocked on partners (wait_s, p2p and collective calls).",
        r->comm_model_ps * 1e-12, wait);
    fold(o, both);
    g_autofree char *blocking =
        computes ? g_strdup_printf("The replay keeps each rank's traced computation but starts "
                                   "all ranks together: a rank blocks while its partner still "
                                   "computes (the busiest rank computes %.6f s, the mean rank "
                                   "%.6f s).", cmax * 1e-12, rt->compute_ps * 1e-12 / n)
                 : g_strdup("With no computation replayed, a rank blocks only on messages "
                            "still crossing the network or queued behind others.");
    fold(o, blocking);
    gboolean less = tt->p2p_ps < rt->p2p_ps;
    g_autofree char *traced = g_strdup_printf(
        "The traced ranks %s %.6f s in these calls%s", less ? "blocked only" : "spent",
        tt->p2p_ps * 1e-12,
        synthetic ? ", the time the model of `mapsim gen` wrote."
        : !less ? "."
        : has_setup ? ": they ran out of step (leaving MPI_Init at different times, sharing "
                      "cores), which the trace's MPI_Init/MPI_Finalize absorbed."
        : ": they ran out of step (sharing cores, say), which the replay does not model.");
    fold(o, traced);
    g_string_append_c(o, '\n');
  }
  if (differ(tt->coll_ps, rt->coll_ps)) {
    g_autofree char *text = g_strdup_printf(
        "collective: the replay times each collective from the messages of its algorithm "
        "(--collectives) on this platform; the traced time is %s.", traced_by);
    g_string_append(o, "- ");
    fold(o, text);
    g_string_append_c(o, '\n');
  }
  if (differ(tt->other_mpi_ps, rt->other_mpi_ps)) {
    g_autofree char *text =
        has_setup ? g_strdup_printf("other_mpi: MPI calls that move no data (MPI_Init and "
                                    "MPI_Finalize: %.6f s of the traced %.6f s) take no time in "
                                    "the replay.", setup, tt->other_mpi_ps * 1e-12)
                  : g_strdup_printf("other_mpi: MPI calls that move no data (the traced %.6f s) "
                                    "take no time in the replay.", tt->other_mpi_ps * 1e-12);
    g_string_append(o, "- ");
    fold(o, text);
    g_string_append_c(o, '\n');
  }
  if (o->len == empty && differ(tt->duration_ps, rt->makespan_ps))
    g_string_append(o, "- duration vs makespan: no row differs by more than 5%; the ranks'\n"
                       "  calls overlap differently (another critical path).\n");
  else if (o->len == empty)
    g_string_append(o, "- no row differs by more than 5%.\n");
  fputs(o->str, stdout);
  printf("\n");
  g_string_free(o, TRUE);
}

/* A GOAL schedule's run: no traced times to set beside the simulated
 * ones; under loggops the makespan in its units too. */
static void print_schedule_times(const run_result *res, const loggops_params *lp)
{
  const replay_result *r = res->r;
  GString *v = g_string_new(NULL);
  printf("%-26s %16s\n", "time (s)", "simulated");
  for (int i = 0; i < run_times_nfields; i++) {
    g_string_truncate(v, 0);
    cli_field_format(v, &run_times_fields[i], &res->times);
    printf("%-26s %16s\n", run_times_fields[i].name, v->str);
  }
  g_string_free(v, TRUE);
  printf("(rows after the first are sums over the %d ranks; p2p_s: each send and receive\n"
         " from its start to its end, wait_s: receives posted before their message)\n",
         r->nranks);
  if (lp) {
    int64_t unit_ps = (int64_t)llround(lp->unit_s * 1e12);
    printf("makespan               %" G_GINT64_FORMAT " units of %g s\n"
           "loggops                o=%" G_GUINT64_FORMAT " g=%" G_GUINT64_FORMAT " G=%"
           G_GUINT64_FORMAT " O=%" G_GUINT64_FORMAT " S=%" G_GUINT64_FORMAT "; L=%"
           G_GUINT64_FORMAT " unused: messages cross\n"
           "                       the platform through model %s\n",
           r->makespan_ps / unit_ps, lp->unit_s, lp->o, lp->g, lp->G, lp->O, lp->S, lp->L,
           lp->net);
  }
  printf("\n");
}

static void print_human(const cli_common *c, const run_result *res, const trace_times *tt,
                        const loggops_params *lp, const platform *p, gboolean with_colls,
                        gboolean synthetic)
{
  const replay_result *r = res->r;
  double wall = res->replay_seconds;
  printf("%s on %s, mapping %s, model %s, traffic %s\n\n", c->trace, p->name,
         c->mapping ? c->mapping : c->strategy ? c->strategy : "identity",
         c->model ? c->model : "analytic", run_traffic_name(with_colls));
  g_autofree char *chosen = run_objective_text(res);
  if (chosen)
    printf("%s\n%s\n", chosen, res->map_report ? res->map_report : "");
  if (tt) {
    print_times(tt, &res->times, c, r->nranks);
    print_differences(tt, res, c->compute_scale, synthetic);
  } else {
    print_schedule_times(res, lp);
  }
  printf("parallel cost          %.9f s (makespan x %d ranks)\n", r->parallel_cost_ps * 1e-12,
         r->nranks);
  printf("p2p cost               %.9f s (time in MPI point-to-point calls, all ranks)\n",
         r->p2p_cost_ps * 1e-12);
  printf("p2p transfers, summed  %.9f s (network time of every p2p message, added up:\n"
         "                       transfers overlap, so this can exceed the makespan)\n",
         r->comm_model_ps * 1e-12);
  printf("p2p messages           %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " bytes), collective "
         "messages %" G_GINT64_FORMAT ", control messages %" G_GINT64_FORMAT "\n",
         r->p2p_messages, r->p2p_bytes, r->coll_messages, r->ctrl_messages);
  printf("events                 %" G_GINT64_FORMAT " in %.3f s (%.3g events/s)\n\n",
         r->events, wall, wall > 0 ? r->events / wall : 0);
  print_energy(r, p);
  gboolean taken = res->check == RUN_CHECK_ROUTES_TAKEN;
  const metrics *ms[3] = { res->pre, res->pre_nonminimal ? res->pre_nonminimal : res->post,
                           res->post };
  const char *labels[3] = { taken ? "pre_minimal" : "pre",
                            res->pre_nonminimal ? "pre_valiant" : "post", "post" };
  cli_metrics_print(ms, labels, res->pre_nonminimal ? 3 : 2, p, 0);
  print_busiest(r, p, 5);
  if (taken)
    printf("\nrouting %s is adaptive: pre_minimal is the static view of the minimal routes,\n"
           "%spost the routes the simulation took.\n"
           "routes-taken check (every link's bytes and hop_bytes against the routes taken;\n"
           "the injection and ejection links, the same on any path, against pre_minimal;\n"
           "%s traffic): %s\n", router_algo_name(p->router),
           res->pre_nonminimal ? "pre_valiant of the Valiant ones, " : "",
           run_traffic_name(with_colls), res->mismatch < 0 ? "match" : "MISMATCH");
  else
    printf("\npre/post check (bytes of every link and hop_bytes, %s traffic): %s\n",
           run_traffic_name(with_colls), res->mismatch < 0 ? "match" : "MISMATCH");
}

/* One header line and one row: the simulated results, the traced and
 * simulated times, the static (pre_) and simulated (post_) metrics, the
 * check. */
static void print_csv(const cli_common *c, const run_result *res, const trace_times *tt,
                      const char *model, const platform *p, gboolean with_colls)
{
  GString *o = g_string_new("trace,platform,mapping,model,traffic");
  cli_fields_csv_header(o, NULL, run_replay_fields, run_replay_nfields, 0);
  cli_fields_csv_header(o, "traced_", trace_times_fields, trace_times_nfields, 0);
  cli_fields_csv_header(o, "simulated_", run_times_fields, run_times_nfields, 0);
  cli_fields_csv_header(o, "pre_", metrics_fields, metrics_nfields,
                        FIELD_VIEW_STATIC | FIELD_VIEW_ENERGY);
  cli_fields_csv_header(o, "post_", metrics_fields, metrics_nfields,
                        FIELD_VIEW_SIMULATED | FIELD_VIEW_ENERGY);
  g_string_append(o, ",pre_post_match\n");
  const char *cells[] = { c->trace, p->name,
                          c->mapping ? c->mapping : c->strategy ? c->strategy : "identity", model,
                          run_traffic_name(with_colls) };
  for (size_t i = 0; i < G_N_ELEMENTS(cells); i++) {
    if (i)
      g_string_append_c(o, ',');
    cli_csv_cell(o, cells[i]);
  }
  cli_fields_csv_row(o, run_replay_fields, run_replay_nfields, res->r, 0);
  if (tt)
    cli_fields_csv_row(o, trace_times_fields, trace_times_nfields, tt, 0);
  else /* a schedule has no traced times: empty cells */
    for (int i = 0; i < trace_times_nfields; i++)
      g_string_append_c(o, ',');
  cli_fields_csv_row(o, run_times_fields, run_times_nfields, &res->times, 0);
  cli_fields_csv_row(o, metrics_fields, metrics_nfields, res->pre,
                     FIELD_VIEW_STATIC | FIELD_VIEW_ENERGY);
  cli_fields_csv_row(o, metrics_fields, metrics_nfields, res->post,
                     FIELD_VIEW_SIMULATED | FIELD_VIEW_ENERGY);
  g_string_append_printf(o, ",%s\n", res->mismatch < 0 ? "true" : "false");
  fputs(o->str, stdout);
  g_string_free(o, TRUE);
}

/* What simulate writes besides its report: a path per timeline writer
 * (sim/timeline.h's table, in its order; NULL: not asked) and the link
 * tracks they draw (--timeline-links, NULL: each writer's default). */
typedef struct outputs {
  int n;
  char **path;
  char *links;
} outputs;

/* The options of the writers that need `what` (TIMELINE_* bits; 0: of
 * all), "--a or --b" (`sep` " or ") or "--a, --b". */
static char *writer_options(const outputs *w, unsigned what, const char *sep)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < w->n; i++)
    if (!what || (timeline_writers[i]->needs & what))
      g_string_append_printf(s, "%s--%s", s->len ? sep : "", timeline_writers[i]->option);
  return g_string_free(s, FALSE);
}

/* Does a writer asked for need `what` (TIMELINE_* bits; 0: is any asked
 * for)? */
static gboolean outputs_need(const outputs *w, unsigned what)
{
  for (int i = 0; i < w->n; i++)
    if (w->path[i] && (!what || (timeline_writers[i]->needs & what)))
      return TRUE;
  return FALSE;
}

/* The report on standard output, the writers' files and the inputs they
 * must not overwrite, checked before anything is read or written. */
static gboolean check_outputs(const cli_common *c, const outputs *w, GError **error)
{
  cli_path *outs = g_new0(cli_path, (gsize)w->n + 1);
  outs[0] = (cli_path){ "the report", "-" };
  g_autofree char **options = g_new0(char *, (gsize)w->n + 1);
  for (int i = 0; i < w->n; i++) {
    options[i] = g_strconcat("--", timeline_writers[i]->option, NULL);
    outs[i + 1] = (cli_path){ options[i], w->path[i] };
  }
  const cli_path ins[] = { { "--trace", c->trace }, { "--platform", c->platform },
                           { "--mapping", c->mapping }, { "--alloc", c->alloc } };
  gboolean ok = cli_outputs_check(outs, w->n + 1, ins, G_N_ELEMENTS(ins), error);
  for (int i = 0; i < w->n; i++)
    g_free(options[i]);
  g_free(outs);
  return ok;
}

/* Is `path` a GOAL schedule (traces/input-goal.c's row)? FALSE and *error
 * when no reader takes it. */
static gboolean cli_is_goal(const char *path, GError **error)
{
  g_auto(input) in = { 0 };
  if (!input_open(&in, path, NULL, INPUT_TRACE | INPUT_GRAPH, error))
    return FALSE;
  return strcmp(in.reader->name, "goal") == 0;
}

/* Runs everything after parsing; returns the exit status. */
static int simulate(const cli_common *c, const outputs *w)
{
  gboolean recorder = outputs_need(w, 0); /* every writer reads the links' recording */
  gboolean whole = outputs_need(w, TIMELINE_NEEDS_RUN);
  linkrec *rec = NULL;
  void **state = g_new0(void *, MAX(w->n, 1)); /* each writer's, while it is open */
  int status = 2;
  platform *p = NULL;
  trace *t = NULL;
  trace_source *src = NULL;
  commgraph *g = NULL;
  run_result *res = NULL;
  goal *sched = NULL;
  GError *e = NULL;
  run_spec spec;
  run_spec_init(&spec);
  loggops_params lp;
  gboolean loggops = loggops_is_model(c->model);
  if (loggops) { /* with a platform: LogGOPS's rules, the messages cross its links */
    if (!loggops_parse(c->model, &lp, &e))
      goto fail;
    spec.loggops = &lp;
    spec.model = netmodel_find(lp.net);
  } else if (!(spec.model = cli_common_model(c, "analytic", &e))) {
    goto fail;
  }
  if (!c->trace) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--trace T is required");
    goto fail;
  }
  if (c->json && c->csv) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--json and --csv exclude each other; expected one of them");
    goto fail;
  }
  if (!check_outputs(c, w, &e))
    goto fail;
  gboolean with_colls = FALSE, sched_in = FALSE;
  if (w->links && !outputs_need(w, TIMELINE_DRAWS_TRACKS)) {
    g_autofree char *with = writer_options(w, TIMELINE_DRAWS_TRACKS, " or ");
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--timeline-links goes with %s, expected one of them", with);
    goto fail;
  }
  if (!timeline_spec_check(w->links ? w->links : TIMELINE_DEFAULT_LINKS, &e) ||
      !(p = cli_common_platform(c, &e)))
    goto fail;
  if (!loggops && !(sched_in = cli_is_goal(c->trace, &e)) && e)
    goto fail;
  if ((loggops || sched_in) && (w->links || outputs_need(w, 0))) {
    g_autofree char *writers = writer_options(w, 0, ", ");
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "%s: a GOAL schedule's replay records no timeline, expected none of these "
                "options", writers);
    goto fail;
  }
  if (loggops || sched_in) { /* a dependency graph: its sends are the static traffic */
    if (!(sched = loggops ? cli_loggops_schedule(c, &lp, &e) : goal_read(c->trace, &e)))
      goto fail;
    g = goal_graph(sched);
  } else if (whole) { /* streamed rank by rank, unless an output needs the run's records */
    if ((t = cli_read_trace(c->trace, &e)))
      src = trace_source_memory(t);
  } else {
    src = cli_open_source(c, c->trace, &e);
  }
  if (!sched && (!src || !(g = run_traffic_graph_source(src, c->collectives, &with_colls, &e))))
    goto fail;
  spec.mapping_file = c->mapping;
  spec.strategy = c->strategy;
  spec.seed = c->seed;
  spec.opts.compute_scale = c->compute_scale;
  spec.opts.collectives = c->collectives;
  spec.opts.record_times = whole;
  spec.opts.progress = cli_progress(c);
  spec.opts.links = rec = recorder ? linkrec_new(p->topo->nlinks) : NULL;
  if (outputs_need(w, TIMELINE_NEEDS_EVENTS))
    linkrec_keep_events(rec);
  spec.map_progress = spec.opts.progress;
  timeline_start start = { src ? trace_source_trace(src) : NULL, spec.opts.progress };
  output_group_begin(); /* every output of the run renamed into place together */
  for (int i = 0; i < w->n; i++) {
    const timeline_writer *tw = timeline_writers[i];
    if (!w->path[i])
      continue;
    if (!(state[i] = tw->open(w->path[i], &start, &e)))
      goto fail;
    if (tw->record) { /* the replay calls the writer directly: nothing in between */
      g_assert(!spec.opts.on_record);
      spec.opts.on_record = tw->record;
      spec.opts.on_record_user = state[i];
    }
  }
  run_inputs in = { .p = p, .g = g, .g_collectives = with_colls, .src = src, .goal = sched };
  res = run_cell(&in, &spec, &e);
  cli_progress_end();
  if (!res)
    goto fail;
  if (res->r->stuck) {
    fprintf(stderr, "mapsim: %s: %s\n%s", c->trace, res->r->stuck_summary, res->r->stuck_detail);
    goto out;
  }
  trace_times tt;
  if (src)
    trace_source_times(src, &tt);
  const char *model = loggops ? "loggops" : spec.model->name;
  const loggops_params *lpp = loggops ? &lp : NULL;
  if (c->json)
    print_json(c, res, src ? &tt : NULL, model, lpp, p, with_colls);
  else if (c->csv)
    print_csv(c, res, src ? &tt : NULL, model, p, with_colls);
  else
    print_human(c, res, src ? &tt : NULL, lpp, p, with_colls,
                src && trace_is_synthetic(trace_source_trace(src)));
  timeline_end end = { res->m, p, rec, res->r->out_trace, w->links, spec.opts.progress };
  gboolean written = TRUE;
  for (int i = 0; i < w->n && written; i++)
    if (state[i])
      written = timeline_writers[i]->finish(g_steal_pointer(&state[i]), &end, &e);
  written = written && output_group_commit(&e);
  cli_progress_end();
  if (!written)
    goto fail;
  status = 0;
  if (res->mismatch >= 0) {
    g_autofree char *what = run_mismatch_text(res, p);
    fprintf(stderr, "mapsim: %s check failed: %s\n",
            res->check == RUN_CHECK_ROUTES_TAKEN ? "routes-taken" : "pre/post", what);
    status = 1;
  }
  goto out;
fail:
  status = cli_fail(e);
out:
  for (int i = 0; i < w->n; i++)
    if (state[i])
      timeline_writers[i]->abort(state[i]);
  output_group_abort(); /* what a failed run held (none after the commit) */
  g_free(state);
  run_result_free(res);
  linkrec_free(rec);
  commgraph_free(g);
  goal_free(sched);
  trace_source_free(src);
  trace_free(t);
  platform_free(p);
  return status;
}

/* The writers' options (their rows), those that draw link tracks first
 * and --timeline-links after them, then `rest`; the caller frees the
 * array (g_free). */
static GOptionEntry *output_entries(outputs *w, const GOptionEntry *rest)
{
  GArray *a = g_array_new(FALSE, TRUE, sizeof(GOptionEntry));
  for (int drawing = 1; drawing >= 0; drawing--) {
    for (int i = 0; i < w->n; i++) {
      const timeline_writer *tw = timeline_writers[i];
      if (!(tw->needs & TIMELINE_DRAWS_TRACKS) != !drawing)
        continue;
      GOptionEntry o = { tw->option, tw->short_option, 0, G_OPTION_ARG_FILENAME, &w->path[i],
                         tw->help, tw->arg };
      g_array_append_val(a, o);
    }
    if (drawing) {
      GOptionEntry o = {
        "timeline-links", 0, 0, G_OPTION_ARG_STRING, &w->links,
        "Links with a throughput track: the N busiest (default " TIMELINE_DEFAULT_LINKS "), all, "
        "or dims (one per link class: dimension and direction on a torus); with --out-trace "
        "also as OTF2 metrics",
        "N|all|dims" };
      g_array_append_val(a, o);
    }
  }
  for (; rest->long_name; rest++)
    g_array_append_val(a, *rest);
  GOptionEntry end = { NULL };
  g_array_append_val(a, end);
  return (GOptionEntry *)(void *)g_array_free(a, FALSE);
}

int cmd_simulate(int argc, char **argv)
{
  cli_common c;
  outputs w = { 0 };
  while (timeline_writers[w.n])
    w.n++;
  w.path = g_new0(char *, MAX(w.n, 1));
  char *jobs = NULL, *policy = NULL;
  gboolean no_pairs = FALSE;
  const GOptionEntry rest[] = {
    { "jobs", 0, 0, G_OPTION_ARG_FILENAME, &jobs,
      "Replay the jobs of a jobs file at once (each its trace, allocation, strategy and start; "
      "model flow unless --model): per job makespan, alone, slowdown, shared link bytes, the "
      "interference matrix", "FILE" },
    { "policy", 0, 0, G_OPTION_ARG_STRING, &policy,
      "With --jobs: this allocation policy for every job allocated by one (its N and SEED "
      "kept)", "NAME" },
    { "no-pairs", 0, 0, G_OPTION_ARG_NONE, &no_pairs,
      "With --jobs: no interference matrix (it replays every pair of jobs)", NULL },
    { NULL },
  };
  g_autofree GOptionEntry *entries = output_entries(&w, rest);
  int status = 2;
  if (cli_parse(&argc, &argv, "simulate", "",
                "Replay an OTF2 trace on a modeled network with a mapping: simulated time, "
                "costs and pre/post link metrics (korndoerfer2021 Sections 7.3, 7.4).",
                "Examples:\n"
                "  mapsim simulate --platform torus:4x4x4 --trace traces/data/stencil3d-64\n"
                "  mapsim simulate -p configs/haec-4x4x4.ini -t traces/data/cg-16 --strategy greedy --json\n"
                "  mapsim simulate -p mesh:4x4x4 -t traces/data/ring-8 --compute-scale 0 --out-trace sim-run\n"
                "  mapsim simulate -p haec:4x4x4 -t traces/data/cg-16 --model flow --timeline cg.json\n"
                "  mapsim simulate -p torus:4x4x4 -t traces/data/cg-16 --model flow --preset simgrid\n"
                "  mapsim simulate -p mesh:8x4x4 --jobs tests/data/jobs/halves.ini",
                CLI_OPT_PLACE | CLI_OPT_TRACE | CLI_OPT_MAPPING | CLI_OPT_STRATEGY | CLI_OPT_SEED |
                CLI_OPT_MODEL | CLI_OPT_REPLAY | CLI_OPT_PROTOCOL | CLI_OPT_COLLECTIVES |
                CLI_OPT_JSON | CLI_OPT_CSV | CLI_OPT_THREADS |
                CLI_OPT_PROGRESS, &c, entries)) {
    gboolean writes = w.links != NULL;
    for (int i = 0; i < w.n; i++)
      writes |= w.path[i] != NULL;
    g_autofree char *writers = writer_options(&w, 0, ", ");
    const char *lone = !jobs && policy ? "--policy" : !jobs && no_pairs ? "--no-pairs"
                     : !jobs && c.threads ? "--threads"
                     : jobs && writes ? writers
                     : NULL;
    if (lone)
      status = cli_fail(g_error_new(G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s %s", lone,
                                    jobs ? "write one job's run; they do not go with --jobs"
                                         : "goes with --jobs FILE"));
    else
      status = jobs                        ? simulate_jobs(&c, jobs, policy, !no_pairs)
               : loggops_is_model(c.model) && !c.platform
                   ? simulate_loggops(&c, writes ? writers : NULL)
                   : simulate(&c, &w);
  }
  cli_common_clear(&c);
  for (int i = 0; i < w.n; i++)
    g_free(w.path[i]);
  g_free(w.path);
  g_free(w.links);
  g_free(jobs);
  g_free(policy);
  return status;
}
