/* cmd-simulate.c - `mapsim simulate`: replay a trace on a platform with a
 * mapping, report simulated time, costs and pre/post metrics.
 *
 * korndoerfer2021 Section 7.3 (communication model time, MPI point-to-point
 * cost, parallel cost) and Section 7.4 (the pre == post check on
 * point-to-point traffic). Owned by the sim/ engineer; the replay itself is
 * sim/replay.c. Not for: choosing mappings (mapsim map) or static-only
 * metrics (mapsim metrics).
 *
 * Post metrics: the link fields and hop_bytes/message_hops/max_dilation come
 * from the link counters of the simulated p2p payload; edges, total_hops and
 * avg_hops are graph properties and are copied from pre. Post link messages
 * count messages, pre counts graph edges (deveci2015's congestion): the
 * check compares per-link bytes and hop_bytes only.
 */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "mapping/strategy.h"
#include "sim/cli/cli.h"
#include "sim/replay.h"
#include "sim/study.h"

typedef struct sim_args {
  char *plat, *alloc, *trace, *map, *strategy, *model, *colls, *out;
  int cores, seed;
  double scale;
  gboolean json;
} sim_args;

static void add_int(JsonBuilder *b, const char *name, int64_t v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, v);
}

static void add_dbl(JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_double_value(b, v);
}

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

/* "links": per used link its p2p traffic, busy time and, for contention
 * models, its load (flows or queued packets) and saturated time. */
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
  for (int i = 0; i < n; i++) {
    int l = ids[i];
    json_builder_begin_object(b);
    add_int(b, "link", l);
    add_int(b, "from", p->topo->link_src[l]);
    add_int(b, "to", p->topo->link_dst[l]);
    add_int(b, "p2p_bytes", r->link_bytes[l]);
    add_int(b, "p2p_messages", r->link_messages[l]);
    add_dbl(b, "busy_s", r->link_busy_ps[l] * 1e-12);
    if (r->link_stats) {
      add_dbl(b, "max_load", r->link_stats[l].max_load);
      add_dbl(b, "avg_load", r->link_stats[l].avg_load);
      add_dbl(b, "saturated_s", r->link_stats[l].saturated_ps * 1e-12);
    }
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  g_free(ids);
}

static void print_busiest(const replay_result *r, const platform *p, int top)
{
  int n;
  int *ids = used_links(r, &n);
  printf("\nbusiest links (all traffic)                   p2p bytes    busy (s)");
  if (r->link_stats)
    printf("  max %-7s avg %-7s saturated (s)", r->load_unit, r->load_unit);
  printf("\n");
  for (int i = 0; i < MIN(n, top); i++) {
    int l = ids[i];
    g_autofree char *name = platform_link_name(p, l);
    printf("  %-40s %12" G_GINT64_FORMAT " %11.6g", name, r->link_bytes[l],
           r->link_busy_ps[l] * 1e-12);
    if (r->link_stats)
      printf("  %11.0f %11.3f %13.6g", r->link_stats[l].max_load, r->link_stats[l].avg_load,
             r->link_stats[l].saturated_ps * 1e-12);
    printf("\n");
  }
  g_free(ids);
}

static void print_json(const replay_result *r, const metrics *pre, const metrics *post,
                       gboolean match, double wall, const char *model, const platform *p)
{
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  add_dbl(b, "makespan_s", r->makespan_ps * 1e-12);
  add_int(b, "ranks", r->nranks);
  add_int(b, "events", r->events);
  add_int(b, "p2p_messages", r->p2p_messages);
  add_int(b, "p2p_bytes", r->p2p_bytes);
  add_int(b, "collective_messages", r->coll_messages);
  add_int(b, "collective_bytes", r->coll_bytes);
  add_int(b, "control_messages", r->ctrl_messages);
  add_dbl(b, "comm_model_time_s", r->comm_model_ps * 1e-12);
  add_dbl(b, "collective_model_time_s", r->coll_model_ps * 1e-12);
  add_dbl(b, "parallel_cost_s", r->parallel_cost_ps * 1e-12);
  add_dbl(b, "p2p_cost_s", r->p2p_cost_ps * 1e-12);
  json_builder_set_member_name(b, "model");
  json_builder_add_string_value(b, model);
  add_metrics(b, "pre", pre);
  add_metrics(b, "post", post);
  json_builder_set_member_name(b, "pre_post_match");
  json_builder_add_boolean_value(b, match);
  json_builder_set_member_name(b, "per_rank");
  json_builder_begin_array(b);
  for (int i = 0; i < r->nranks; i++) {
    const replay_rank_stats *s = &r->per_rank[i];
    json_builder_begin_object(b);
    add_dbl(b, "finish_s", s->finish_ps * 1e-12);
    add_dbl(b, "compute_s", s->compute_ps * 1e-12);
    add_dbl(b, "p2p_s", s->p2p_ps * 1e-12);
    add_dbl(b, "collective_s", s->coll_ps * 1e-12);
    add_dbl(b, "other_mpi_s", s->other_mpi_ps * 1e-12);
    add_dbl(b, "wait_s", s->wait_ps * 1e-12);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  for (int i = 0; i < r->nmodel_stats; i++)
    add_dbl(b, r->model_stats[i].name, r->model_stats[i].value);
  add_links(b, r, p);
  add_dbl(b, "wall_s", wall);
  add_dbl(b, "events_per_s", wall > 0 ? r->events / wall : 0);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

static void print_human(const sim_args *a, const replay_result *r, const metrics *pre,
                        const metrics *post, gboolean match, double wall, const platform *p)
{
  int64_t comp = 0, wait = 0, coll = 0;
  for (int i = 0; i < r->nranks; i++) {
    comp += r->per_rank[i].compute_ps;
    wait += r->per_rank[i].wait_ps;
    coll += r->per_rank[i].coll_ps;
  }
  printf("%s on %s, mapping %s, model %s\n\n", a->trace, p->name,
         a->map ? a->map : a->strategy ? a->strategy : "identity", a->model);
  printf("makespan               %.9f s\n", r->makespan_ps * 1e-12);
  printf("parallel cost          %.9f s (makespan x %d ranks)\n", r->parallel_cost_ps * 1e-12,
         r->nranks);
  printf("p2p cost               %.9f s (time in MPI point-to-point calls, all ranks)\n",
         r->p2p_cost_ps * 1e-12);
  printf("collective time        %.9f s, computation %.9f s, waiting %.9f s (all ranks)\n",
         coll * 1e-12, comp * 1e-12, wait * 1e-12);
  printf("comm model time        %.9f s (sum of p2p transfer durations)\n",
         r->comm_model_ps * 1e-12);
  printf("p2p messages           %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " bytes), collective "
         "messages %" G_GINT64_FORMAT ", control messages %" G_GINT64_FORMAT "\n",
         r->p2p_messages, r->p2p_bytes, r->coll_messages, r->ctrl_messages);
  printf("events                 %" G_GINT64_FORMAT " in %.3f s (%.3g events/s)\n\n",
         r->events, wall, wall > 0 ? r->events / wall : 0);
  const metrics *ms[2] = { pre, post };
  const char *labels[2] = { "pre", "post" };
  cli_metrics_print(ms, labels, 2, p, 0);
  print_busiest(r, p, 5);
  printf("\npre/post p2p link bytes and hop_bytes: %s\n", match ? "match" : "MISMATCH");
}

static mapping *make_mapping(const sim_args *a, const platform *p, const commgraph *g,
                             int nranks, GError **error)
{
  if (a->map && a->strategy) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--mapping and --strategy exclude each other; expected one of them");
    return NULL;
  }
  if (a->map)
    return mapping_load(a->map, p, nranks, error);
  if (!a->strategy)
    return mapping_identity(p, nranks, error);
  g_autoptr(strategy_pipeline) pl = strategy_parse(a->strategy, error);
  return pl ? strategy_run(pl, g, p, (guint32)a->seed, NULL, 0, error) : NULL;
}

static void args_free(sim_args *a)
{
  g_free(a->plat);
  g_free(a->alloc);
  g_free(a->trace);
  g_free(a->map);
  g_free(a->strategy);
  g_free(a->model);
  g_free(a->colls);
  g_free(a->out);
}

/* Runs everything after parsing; returns the exit status. */
static int simulate(sim_args *a)
{
  int status = 2;
  platform *p = NULL;
  trace *t = NULL;
  commgraph *g = NULL;
  mapping *m = NULL;
  replay_result *r = NULL;
  metrics *pre = NULL, *post = NULL;
  GError *e = NULL;
  const struct netmodel_ops *ops = netmodel_find(a->model);
  if (!ops) {
    g_autofree char *names = netmodel_names();
    g_set_error(&e, NETMODEL_ERROR, NETMODEL_ERROR_UNKNOWN,
                "--model %s: unknown network model, expected one of: %s", a->model, names);
    goto fail;
  }
  if (!a->trace) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--trace T is required");
    goto fail;
  }
  if (!(p = cli_platform(a->plat, a->alloc, a->cores, &e)) || !(t = trace_read_otf2(a->trace, &e)))
    goto fail;
  if (t->nranks > platform_capacity(p)) {
    g_set_error(&e, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "%s: %d ranks do not fit platform %s: %d allocated nodes x %d cores = %d; "
                "expected at most %d ranks (use --cores or --alloc)", a->trace, t->nranks,
                p->name, p->nalloc, p->cores_per_node, platform_capacity(p),
                platform_capacity(p));
    goto fail;
  }
  if (!(g = trace_commgraph(t, FALSE, NULL, &e)) || !(m = make_mapping(a, p, g, t->nranks, &e)))
    goto fail;
  replay_opts o;
  replay_opts_init(&o);
  o.compute_scale = a->scale;
  o.collectives = a->colls;
  o.record_times = a->out != NULL;
  gint64 t0 = g_get_monotonic_time();
  if (!(r = replay_run(t, p, m, ops, &o, &e)))
    goto fail;
  double wall = (g_get_monotonic_time() - t0) * 1e-6;
  if (r->stuck) {
    fprintf(stderr, "mapsim: %s: %s\n%s", a->trace, r->stuck_summary, r->stuck_detail);
    goto out;
  }
  pre = metrics_compute(g, p, m);
  post = study_post_metrics(r, pre, p);
  int bad = study_first_mismatch(pre, post);
  if (a->json)
    print_json(r, pre, post, bad < 0, wall, ops->name, p);
  else
    print_human(a, r, pre, post, bad < 0, wall, p);
  if (a->out && !trace_write_otf2(r->out_trace, a->out, &e))
    goto fail;
  status = 0;
  if (bad >= 0) {
    if (bad < pre->nlinks) {
      g_autofree char *ln = platform_link_name(p, bad);
      fprintf(stderr, "mapsim: pre/post check failed: link %s carries %" G_GINT64_FORMAT
              " p2p bytes statically but %" G_GINT64_FORMAT " in the simulation\n", ln,
              pre->link_bytes[bad], post->link_bytes[bad]);
    } else {
      fprintf(stderr, "mapsim: pre/post check failed: hop_bytes %" G_GINT64_FORMAT
              " statically, %" G_GINT64_FORMAT " simulated\n", pre->hop_bytes, post->hop_bytes);
    }
    status = 1;
  }
  goto out;
fail:
  status = cli_fail(e);
out:
  metrics_free(pre);
  metrics_free(post);
  replay_result_free(r);
  mapping_free(m);
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
  return status;
}

int cmd_simulate(int argc, char **argv)
{
  sim_args a = { .scale = 1.0, .seed = 1 };
  g_autofree char *models = netmodel_names();
  g_autofree char *model_help = g_strdup_printf("Network model: %s (default analytic)", models);
  const GOptionEntry entries[] = {
    { "platform", 'p', 0, G_OPTION_ARG_STRING, &a.plat, "Platform file or shorthand", "P" },
    { "trace", 't', 0, G_OPTION_ARG_FILENAME, &a.trace, "OTF2 trace (anchor file or directory)", "T" },
    { "mapping", 'M', 0, G_OPTION_ARG_FILENAME, &a.map, "Mapping file (default: identity)", "F" },
    { "strategy", 's', 0, G_OPTION_ARG_STRING, &a.strategy, "Mapping strategy pipeline, e.g. greedy+wh", "S" },
    { "model", 0, 0, G_OPTION_ARG_STRING, &a.model, model_help, "NAME" },
    { "compute-scale", 0, 0, G_OPTION_ARG_DOUBLE, &a.scale, "Factor on computation gaps (0 = communication only; default 1)", "X" },
    { "collectives", 0, 0, G_OPTION_ARG_STRING, &a.colls, "Collective algorithms, e.g. allreduce=ring,bcast=binomial (default auto)", "SPEC" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &a.json, "Print one JSON object", NULL },
    { "out-trace", 'o', 0, G_OPTION_ARG_FILENAME, &a.out, "Write the simulated run as an OTF2 archive in DIR", "DIR" },
    { "alloc", 0, 0, G_OPTION_ARG_STRING, &a.alloc, "Allocation: all, random:N[:SEED], or a node list file", "A" },
    { "cores", 0, 0, G_OPTION_ARG_INT, &a.cores, "Cores (ranks) per node", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &a.seed, "Seed of randomized strategies (default 1)", "N" },
    { NULL },
  };
  int status = 2;
  if (cli_parse(&argc, &argv, "simulate", "",
                "Replay an OTF2 trace on a modeled network with a mapping: simulated time, "
                "costs and pre/post link metrics (korndoerfer2021 Sections 7.3, 7.4).",
                "Examples:\n"
                "  mapsim simulate --platform torus:4x4x4 --trace run/traces.otf2\n"
                "  mapsim simulate -p configs/haec-4x4x4.ini -t run --strategy greedy --json\n"
                "  mapsim simulate -p mesh:4x4x4 -t run --compute-scale 0 --out-trace sim-run",
                entries)) {
    if (!a.model)
      a.model = g_strdup("analytic");
    status = simulate(&a);
  }
  args_free(&a);
  return status;
}
