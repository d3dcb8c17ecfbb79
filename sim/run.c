/* run.c - one run from mapping to the pre/post check (see run.h). */
#include "sim/run-private.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "util/checked.h"

#include "mapping/strategy.h"
#include "sim/dag.h"
#include "sim/optimize.h"

#define T(key, member, desc) \
  { key, FIELD_PS, FIELD_SECONDS, offsetof(run_times, member), desc, 0, NULL }
const field run_times_fields[] = {
  T("makespan_s", makespan_ps, "simulated end of the last rank"),
  T("compute_s", compute_ps, "computation (traced gaps x --compute-scale), summed over ranks"),
  T("p2p_s", p2p_ps, "simulated time in MPI point-to-point calls, summed over ranks"),
  T("collective_s", coll_ps, "simulated time in MPI collective calls, summed over ranks"),
  T("other_mpi_s", other_mpi_ps, "simulated time in other MPI calls, summed over ranks"),
  T("wait_s", wait_ps, "of the MPI time: blocked on a partner, summed over ranks"),
};
#undef T
const int run_times_nfields = G_N_ELEMENTS(run_times_fields);

static void sum_times(const replay_result *r, run_times *t)
{
  memset(t, 0, sizeof *t);
  t->makespan_ps = r->makespan_ps;
  for (int i = 0; i < r->nranks; i++) {
    const replay_rank_stats *s = &r->per_rank[i];
    t->compute_ps = saturating_add_i64(t->compute_ps, s->compute_ps);
    t->p2p_ps = saturating_add_i64(t->p2p_ps, s->p2p_ps);
    t->coll_ps = saturating_add_i64(t->coll_ps, s->coll_ps);
    t->other_mpi_ps = saturating_add_i64(t->other_mpi_ps, s->other_mpi_ps);
    t->wait_ps = saturating_add_i64(t->wait_ps, s->wait_ps);
  }
}

void run_spec_init(run_spec *s)
{
  *s = (run_spec){ .seed = 1 };
  replay_opts_init(&s->opts);
}

commgraph *run_traffic_graph(const trace *t, const char *collectives, gboolean *with_colls,
                             GError **error)
{
  coll_choice c;
  if (!coll_choice_parse(&c, collectives, error))
    return NULL;
  *with_colls = !c.none;
  return trace_commgraph(t, !c.none, collectives, error);
}

commgraph *run_traffic_graph_source(const trace_source *src, const char *collectives,
                                    gboolean *with_colls, GError **error)
{
  coll_choice c;
  if (!coll_choice_parse(&c, collectives, error))
    return NULL;
  *with_colls = !c.none;
  return trace_source_commgraph(src, !c.none, collectives, error);
}

const char *run_traffic_name(gboolean with_colls)
{
  return with_colls ? "p2p+collectives" : "p2p";
}

metrics *run_post_metrics(const replay_result *r, const metrics *pre, const platform *p,
                          gboolean with_colls)
{
  metrics *x = g_new0(metrics, 1);
  x->tasks = pre->tasks;
  x->nodes_used = pre->nodes_used;
  x->ranks_per_node = pre->ranks_per_node;
  x->edges = pre->edges;
  x->total_hops = pre->total_hops;
  x->avg_hops = pre->avg_hops;
  x->max_dilation = r->max_hops;
  x->hop_bytes = r->hop_bytes;
  x->message_hops = r->msg_hops;
  x->has_messages = TRUE;
  x->simulated = TRUE;
  x->nlinks = r->nlinks;
  x->link_bytes = g_memdup2(r->link_bytes, sizeof(int64_t) * (size_t)MAX(r->nlinks, 1));
  x->link_messages = g_memdup2(r->link_messages, sizeof(int64_t) * (size_t)MAX(r->nlinks, 1));
  if (with_colls) {
    x->max_dilation = MAX(r->max_hops, r->coll_max_hops);
    x->hop_bytes += r->coll_hop_bytes;
    x->message_hops += r->coll_msg_hops;
    for (int l = 0; l < r->nlinks; l++) {
      x->link_bytes[l] += r->coll_link_bytes[l];
      x->link_messages[l] += r->coll_link_messages[l];
    }
  }
  metrics_summarize_links(x, p);
  return x;
}

int run_first_mismatch(const metrics *pre, const metrics *post)
{
  for (int l = 0; l < pre->nlinks; l++)
    if (pre->link_bytes[l] != post->link_bytes[l])
      return l;
  return pre->hop_bytes != post->hop_bytes ? pre->nlinks : -1;
}

const char *run_check_name(run_check c)
{
  return c == RUN_CHECK_ROUTES_TAKEN ? "routes-taken" : "pre=post";
}

gboolean run_checks_routes(const platform *p)
{
  return (p->router->flags & ROUTE_FLAG_ADAPTIVE) != 0;
}

/* Adds the bytes of every route taken to res->taken_link_bytes and
 * res->taken_hop_bytes, walking each candidate path again. */
static void sum_routes_taken(run_result *res, const platform *p, gboolean with_colls)
{
  int ncand = route_candidates(p->router);
  g_free(res->taken_link_bytes);
  res->taken_link_bytes = g_new0(int64_t, MAX(p->topo->nlinks, 1));
  res->taken_hop_bytes = 0;
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init(&it, res->r->routes_taken);
  while (g_hash_table_iter_next(&it, NULL, &v)) {
    const netmodel_taken *u = v;
    for (int c = 0; c < ncand; c++) {
      int64_t b = saturating_add_i64(u->bytes[2 * c], with_colls ? u->bytes[2 * c + 1] : 0);
      if (b == 0)
        continue;
      route_iter ri;
      int l, h = 0;
      route_begin_candidate(&ri, p->router, u->src, u->dst, u->key, c);
      while (route_next(&ri, &l)) {
        res->taken_link_bytes[l] = saturating_add_i64(res->taken_link_bytes[l], b);
        h++;
      }
      res->taken_hop_bytes = saturating_add_i64(res->taken_hop_bytes, saturating_mul_i64(b, h));
    }
  }
}

void run_check_routes_taken(run_result *res, const platform *p, gboolean with_colls)
{
  const topo *t = p->topo;
  res->check = RUN_CHECK_ROUTES_TAKEN;
  res->mismatch = -1;
  sum_routes_taken(res, p, with_colls);
  for (int l = 0; l < t->nlinks && res->mismatch < 0; l++) {
    gboolean end = !topo_is_switch(t, t->link_src[l]) || !topo_is_switch(t, t->link_dst[l]);
    res->mismatch_static = end && res->pre->link_bytes[l] != res->post->link_bytes[l];
    if (res->mismatch_static || res->taken_link_bytes[l] != res->post->link_bytes[l])
      res->mismatch = l;
  }
  if (res->mismatch < 0 && res->taken_hop_bytes != res->post->hop_bytes)
    res->mismatch = t->nlinks;
}

char *run_mismatch_text(const run_result *res, const platform *p)
{
  int l = res->mismatch;
  if (l < 0)
    return g_strdup(res->check == RUN_CHECK_ROUTES_TAKEN
                        ? "the simulated links carry the bytes of the routes taken"
                        : "pre and post agree");
  if (res->check == RUN_CHECK_ROUTES_TAKEN && !res->mismatch_static) {
    if (l == res->post->nlinks)
      return g_strdup_printf("hop_bytes %" G_GINT64_FORMAT " on the routes taken, %"
                             G_GINT64_FORMAT " simulated", res->taken_hop_bytes,
                             res->post->hop_bytes);
    g_autofree char *name = platform_link_name(p, l);
    return g_strdup_printf("link %s carries %" G_GINT64_FORMAT " bytes on the routes taken "
                           "but %" G_GINT64_FORMAT " in the simulation", name,
                           res->taken_link_bytes[l], res->post->link_bytes[l]);
  }
  if (l < res->pre->nlinks) {
    g_autofree char *name = platform_link_name(p, l);
    return g_strdup_printf("link %s carries %" G_GINT64_FORMAT " bytes statically but %"
                           G_GINT64_FORMAT " in the simulation", name, res->pre->link_bytes[l],
                           res->post->link_bytes[l]);
  }
  return g_strdup_printf("hop_bytes %" G_GINT64_FORMAT " statically, %" G_GINT64_FORMAT
                         " simulated", res->pre->hop_bytes, res->post->hop_bytes);
}

gboolean run_spec_check(const run_spec *s, GError **error)
{
  if (s->mapping_file && s->strategy) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--mapping and --strategy exclude each other; expected one of them");
    return FALSE;
  }
  coll_choice colls;
  if (!coll_choice_parse(&colls, s->opts.collectives, error))
    return FALSE;
  if (!s->strategy)
    return TRUE;
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(s->strategy, &e);
  if (pl && !optimize_check_objectives(pl, &e))
    g_clear_pointer(&pl, strategy_pipeline_free);
  if (!pl) {
    /* the parser names the step; the user should see the pipeline they typed */
    const char *m = e->message, *colon = strstr(m, ": ");
    if (g_str_has_prefix(m, "--strategy") && colon)
      m = colon + 2;
    g_set_error(error, e->domain, e->code, "--strategy %s: %s", s->strategy, m);
    g_error_free(e);
    return FALSE;
  }
  strategy_pipeline_free(pl);
  return TRUE;
}

static mapping *make_mapping(const run_inputs *in, const run_spec *s, run_result *res,
                             GError **error)
{
  double *seconds = &res->map_seconds;
  char **report = &res->map_report;
  *seconds = 0;
  if (!run_spec_check(s, error))
    return NULL;
  if (s->mapping_file)
    return mapping_load(s->mapping_file, in->p, in->g->n, error);
  if (!s->strategy)
    return mapping_identity(in->p, in->g->n, error);
  g_autoptr(strategy_pipeline) pl = strategy_parse(s->strategy, error);
  if (!pl)
    return NULL;
  gint64 t0 = g_get_monotonic_time();
  const commgraph *g = in->map_g ? in->map_g : in->g;
  GString *r = g_string_new(NULL);
  optimize_eval *ev = NULL;
  if ((in->t || in->src) && s->model)
    ev = optimize_eval_new(in->t, in->src, in->p, s->model, &s->opts,
                           s->map_progress ? s->map_progress : s->opts.progress);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = in->p,
                                                .seed = s->seed, .coords = in->coords,
                                                .coord_dims = in->coord_dims, .report = r,
                                                .prog = s->map_progress,
                                                .eval = ev ? optimize_eval_hook(ev) : NULL,
                                                .chosen_by = &res->objective },
                            error);
  *seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  res->map_replays = optimize_eval_replays(ev, NULL);
  optimize_eval_free(ev);
  *report = r->len ? g_string_free(r, FALSE) : (g_string_free(r, TRUE), NULL);
  return m;
}

run_result *run_cell(const run_inputs *in, const run_spec *s, GError **error)
{
  const trace *t = in->src ? trace_source_trace(in->src) : in->t;
  int nranks = in->goal ? MAX(in->goal->nranks, in->g->n)
               : t      ? MAX(t->nranks, in->g->n)
                        : in->g->n;
  if (!platform_check_capacity(in->p, nranks, error))
    return NULL;
  run_result *res = g_new0(run_result, 1);
  res->mismatch = -1;
  if (!(res->m = make_mapping(in, s, res, error)))
    goto fail;
  res->pre = metrics_compute(in->g, in->p, res->m);
  if (!metrics_check(res->pre, error))
    goto fail;
  if (run_checks_routes(in->p) && topo_dragonfly_of(in->p->topo)) {
    router valiant;
    router_nonminimal_view(in->p->router, &valiant);
    platform pv = *in->p;
    pv.router = &valiant;
    res->pre_nonminimal = metrics_compute(in->g, &pv, res->m);
    if (!metrics_check(res->pre_nonminimal, error))
      goto fail;
  }
  if (in->goal ? !s->model && !s->loggops : !t || !s->model)
    return res;
  gint64 t0 = g_get_monotonic_time();
  if (in->goal)
    res->r = s->loggops ? loggops_run_platform(in->goal, s->loggops, in->p, res->m, &s->opts, error)
                        : dag_run(in->goal, in->p, res->m, s->model, &s->opts, error);
  else
    res->r = in->src ? replay_run_source(in->src, in->p, res->m, s->model, &s->opts, error)
                     : replay_run(in->t, in->p, res->m, s->model, &s->opts, error);
  res->replay_seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  if (!res->r)
    goto fail;
  sum_times(res->r, &res->times);
  if (res->r->stuck)
    return res;
  res->post = run_post_metrics(res->r, res->pre, in->p, in->g_collectives);
  if (res->r->routes_taken)
    run_check_routes_taken(res, in->p, in->g_collectives);
  else
    res->mismatch = run_first_mismatch(res->pre, res->post);
  return res;
fail:
  run_result_free(res);
  return NULL;
}

char *run_objective_text(const run_result *res)
{
  if (!res->objective)
    return NULL;
  if (!res->map_replays)
    return g_strdup_printf("mapping chosen by %s", res->objective);
  return g_strdup_printf("mapping chosen by %s, %" G_GINT64_FORMAT " replays in %.3f s",
                         res->objective, res->map_replays, res->map_seconds);
}

void run_result_free(run_result *res)
{
  if (!res)
    return;
  mapping_free(res->m);
  g_free(res->map_report);
  metrics_free(res->pre);
  metrics_free(res->post);
  metrics_free(res->pre_nonminimal);
  g_free(res->taken_link_bytes);
  replay_result_free(res->r);
  g_free(res);
}
