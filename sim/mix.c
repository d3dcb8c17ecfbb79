/* mix.c - several jobs at once on one network (mix.h): place, map, join,
 * replay the mix, every job alone and every pair, compare.
 *
 * Yang, Jenkins, Mubarak, Ross and Lan, "Watch out for the bully! Job
 * interference study on dragonfly network", SC16 (a job's slowdown next to
 * another against its run alone); Bhatele, Mohror, Langer and Isaacs,
 * "There goes the neighborhood: performance degradation due to nearby
 * jobs", SC13.
 */
#include "sim/mix-private.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "mapping/strategy.h"
#include "traces/input.h"
#include "util/budget.h"
#include "util/checked.h"

/* A job's nodes: its allocation's, not a count of its own. */
static int64_t job_nodes(const void *obj)
{
  return ((const mix_job *)obj)->p->nalloc;
}

#define F(key, member, type, unit, desc) { key, type, unit, offsetof(mix_job, member), desc, 0, NULL }
const field mix_job_fields[] = {
  F("ranks", ranks, FIELD_INT, FIELD_COUNT, "ranks of the job"),
  { "nodes", FIELD_INT, FIELD_COUNT, 0, "nodes of its allocation", 0, job_nodes },
  F("start_s", start_ps, FIELD_PS, FIELD_SECONDS, "when its ranks start"),
  F("makespan_s", makespan_ps, FIELD_PS, FIELD_SECONDS,
    "in the mix: its last rank's end minus its start"),
  F("alone_makespan_s", alone_ps, FIELD_PS, FIELD_SECONDS,
    "alone on the same allocation, mapping and start"),
  F("slowdown", slowdown, FIELD_DOUBLE, FIELD_RATIO, "makespan_s / alone_makespan_s"),
  F("link_bytes", link_bytes, FIELD_INT64, FIELD_COUNT,
    "its bytes summed over the links they cross (static: hop-bytes of its traffic)"),
  F("shared_link_bytes", shared_bytes, FIELD_INT64, FIELD_COUNT,
    "of them, on links another job of the mix uses too"),
  F("map_s", map_seconds, FIELD_DOUBLE, FIELD_SECONDS, "its strategy's run time"),
};
#undef F
const int mix_job_nfields = G_N_ELEMENTS(mix_job_fields);

const char *mix_model_note(const struct netmodel_ops *model)
{
  /* the one contention-free model of models/registry.c */
  if (model && strcmp(model->name, "analytic") == 0)
    return "the analytic model has no contention (every message takes its contention-free "
           "time): jobs cannot slow each other, every slowdown is 1 by construction; the flow "
           "or packet model measures interference";
  return NULL;
}

const char *mix_faster_note(void)
{
  return "a slowdown below 1 (faster next to the other jobs than alone) is the model's: the "
         "job starts at the same time on the same nodes and routes in both runs, but the "
         "others' traffic delays some of its messages, which changes how its own messages "
         "overlap - under fair sharing a job whose messages contend with each other can then "
         "finish sooner";
}

void mix_opts_init(mix_opts *o)
{
  *o = (mix_opts){ .model = netmodel_find("flow"), .pairs = TRUE, .threads = 1, .draw = 1 };
  replay_opts_init(&o->opts);
}

/* What a mix holds while it runs. */
typedef struct mix_state {
  const jobs_file *jf;
  const platform *p;
  const mix_opts *o;
  int njobs;
  jobs_placement *pl;
  trace **traces;           /* per job: its definitions once joined */
  commgraph **graphs;       /* per job: its traffic, job ranks */
  int *first;               /* per job: its first union rank */
  uint64_t trace_bytes;     /* the records of the jobs read so far */
  trace *u;                 /* the union */
  int64_t *start;           /* per union rank */
  platform *pu;             /* the union's allocation */
  mix_result *res;
  /* runs: 0 the mix, 1..n alone, then the pairs i < j */
  int ntasks;
  int *pair;                /* per pair: jobs i and j */
  int64_t *pair_ps;         /* per pair: makespans of i and j */
  GError **errors;          /* per run */
  progress inner;           /* the stop flag only: the mix reports runs */
  gint done;
} mix_state;

static gboolean job_fail(const mix_state *S, int j, GError *e, GError **error)
{
  const job_spec *js = &S->jf->jobs[j];
  g_set_error(error, e->domain, e->code, "%s:%d: job '%s': %s", S->jf->path, js->line, js->name,
              e->message);
  g_error_free(e);
  return FALSE;
}

static trace *read_job(const job_spec *j, GError **error)
{
  if (j->trace_path)
    return input_read_trace(j->trace_path, error);
  g_autoptr(commgraph) g = input_read_matrix(j->matrix_path, j->counts_path, error);
  if (!g)
    return NULL;
  return mix_matrix_trace(g);
}

static mapping *map_job(const job_spec *j, const platform *pj, const commgraph *g,
                        double *seconds, GError **error)
{
  gint64 t0 = g_get_monotonic_time();
  mapping *m = NULL;
  if (!j->strategy) {
    m = mapping_identity(pj, g->n, error);
  } else {
    g_autoptr(strategy_pipeline) pl = strategy_parse(j->strategy, error);
    if (pl)
      m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = pj, .seed = j->seed },
                       error);
  }
  *seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  return m;
}

/* Job j's input, its graph, its nodes and its mapping; fills its row. */
static gboolean load_job(mix_state *S, int j, mapping **m, GError **error)
{
  const job_spec *js = &S->jf->jobs[j];
  mix_job *mj = &S->res->jobs[j];
  GError *e = NULL;
  gboolean with_colls = FALSE;
  if (!(S->traces[j] = read_job(js, &e)))
    return job_fail(S, j, e, error);
  /* each read checks its own records against the budget; all jobs are
   * held at once */
  S->trace_bytes += trace_event_bytes(S->traces[j]);
  if (!budget_check_memory("the jobs' traces", S->trace_bytes, &e) ||
      !(S->graphs[j] = run_traffic_graph(S->traces[j], S->o->opts.collectives, &with_colls, &e)))
    return job_fail(S, j, e, error);
  S->res->with_colls = with_colls;
  g_autoptr(platform) pj = platform_with_allocation(S->p, S->pl->nodes[j], S->pl->nnodes[j], &e);
  double seconds = 0;
  if (!pj || !platform_check_capacity(pj, S->traces[j]->nranks, &e) ||
      !(*m = map_job(js, pj, S->graphs[j], &seconds, &e)))
    return job_fail(S, j, e, error);
  *mj = (mix_job){ .name = js->name, .alloc = g_strdup(S->pl->alloc_text[j]),
                   .strategy = js->strategy ? js->strategy : "identity",
                   .ranks = S->traces[j]->nranks, .p = g_steal_pointer(&pj),
                   .start_ps = js->start_ps, .map_seconds = seconds, .mismatch = -1 };
  return TRUE;
}

/* Every job loaded and mapped, joined into one trace, one mapping and one
 * allocation. */
static gboolean setup(mix_state *S, GError **error)
{
  int n = S->njobs;
  mapping **maps = g_new0(mapping *, n);
  int64_t total = 0;
  gboolean ok = TRUE;
  for (int j = 0; j < n && ok; j++) {
    ok = load_job(S, j, &maps[j], error);
    S->first[j] = (int)MIN(total, BUDGET_MAX_RANKS);
    total += ok ? S->traces[j]->nranks : 0;
    if (ok && total > BUDGET_MAX_RANKS) {
      g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "%s: %" G_GINT64_FORMAT " ranks in all, "
                  "expected at most %d", S->jf->path, total, BUDGET_MAX_RANKS);
      ok = FALSE;
    }
  }
  for (int j = 0; ok && j < n; j++) {
    /* the mix lasts at least until its last start, on all its ranks */
    const job_spec *js = &S->jf->jobs[j];
    int64_t cost;
    if (!checked_mul_i64(js->start_ps, total, &cost)) {
      g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "%s:%d: [job %s] start = %.9g s: the "
                  "mix's %" G_GINT64_FORMAT " ranks would then cost more than " CHECKED_PS_LIMIT
                  " (makespan x ranks), expected a start below %.0f s", S->jf->path,
                  js->start_line, js->name, (double)js->start_ps * 1e-12, total,
                  floor((double)INT64_MAX / (double)total * 1e-12));
      ok = FALSE;
    }
  }
  if (ok) {
    /* the union's allocation: every job's, in job order */
    int nodes = 0;
    for (int j = 0; j < n; j++)
      nodes += S->res->jobs[j].p->nalloc;
    g_autofree int *all = g_new(int, MAX(nodes, 1));
    S->res->m = mapping_new((int)total);
    S->start = g_new(int64_t, MAX(total, 1));
    for (int j = 0, k = 0; j < n; j++) {
      const platform *pj = S->res->jobs[j].p;
      memcpy(all + k, pj->alloc, sizeof(int) * (size_t)pj->nalloc);
      k += pj->nalloc;
      S->res->jobs[j].first = S->first[j];
      for (int r = 0; r < S->traces[j]->nranks; r++) {
        S->res->m->node[S->first[j] + r] = maps[j]->node[r];
        S->start[S->first[j] + r] = S->jf->jobs[j].start_ps;
      }
    }
    S->res->nranks = (int)total;
    S->pu = platform_with_allocation(S->p, all, nodes, error);
    S->res->p = S->pu;
    S->u = mix_union(S->traces, n, S->first);
    ok = S->pu != NULL;
  }
  for (int j = 0; j < n; j++)
    mapping_free(maps[j]);
  g_free(maps);
  return ok;
}

/* The static view of every job and of the union, over the union's ranks;
 * the bytes each job shares with others. */
static void static_views(mix_state *S)
{
  mix_result *res = S->res;
  int n = S->njobs;
  g_autofree int *per_node = g_new0(int, MAX(S->p->topo->nnodes, 1));
  for (int j = 0; j < n; j++) {
    g_autoptr(commgraph) g = mix_embed((const commgraph *const *)&S->graphs[j], &S->first[j], 1,
                                       res->nranks);
    metrics *pre = res->jobs[j].pre = metrics_compute(g, S->pu, res->m);
    /* the job's own placement, not the union's */
    const int *node = res->m->node + S->first[j];
    pre->tasks = res->jobs[j].ranks;
    pre->nodes_used = pre->ranks_per_node = 0;
    for (int r = 0; r < pre->tasks; r++) {
      pre->nodes_used += per_node[node[r]]++ == 0;
      pre->ranks_per_node = MAX(pre->ranks_per_node, per_node[node[r]]);
    }
    for (int r = 0; r < pre->tasks; r++)
      per_node[node[r]] = 0;
  }
  g_autoptr(commgraph) gu = mix_embed((const commgraph *const *)S->graphs, S->first, n,
                                      res->nranks);
  res->pre = metrics_compute(gu, S->pu, res->m);
  int nlinks = S->p->topo->nlinks;
  for (int l = 0; l < nlinks; l++) {
    int users = 0;
    for (int j = 0; j < n; j++)
      users += mix_link_bytes(res, j, l) > 0;
    for (int j = 0; j < n; j++) {
      int64_t b = mix_link_bytes(res, j, l);
      res->jobs[j].link_bytes = saturating_add_i64(res->jobs[j].link_bytes, b);
      if (b > 0 && users > 1)
        res->jobs[j].shared_bytes = saturating_add_i64(res->jobs[j].shared_bytes, b);
    }
  }
}

/* Job j's makespan in run r: its last rank's finish minus its start. */
static int64_t job_makespan(const mix_state *S, const replay_result *r, int j)
{
  int64_t end = S->jf->jobs[j].start_ps;
  for (int k = 0; k < S->res->jobs[j].ranks; k++)
    end = MAX(end, r->per_rank[S->first[j] + k].finish_ps);
  return end - S->jf->jobs[j].start_ps;
}

/* Run `task`: the jobs it keeps, replayed; its results into its slots. */
static gboolean run_task(mix_state *S, int task, GError **error)
{
  int n = S->njobs;
  g_autofree gboolean *keep = g_new0(gboolean, n);
  int a = -1, b = -1;
  if (task == 0) {
    for (int j = 0; j < n; j++)
      keep[j] = TRUE;
  } else if (task <= n) {
    a = task - 1;
    keep[a] = TRUE;
  } else {
    a = S->pair[2 * (task - n - 1)];
    b = S->pair[2 * (task - n - 1) + 1];
    keep[a] = keep[b] = TRUE;
  }
  trace *v = mix_view(S->u, S->first, n, keep);
  replay_opts opts = S->o->opts;
  opts.start_ps = S->start;
  opts.progress = &S->inner;
  opts.record_times = FALSE;
  replay_result *r = replay_run(v, S->pu, S->res->m, S->o->model, &opts, error);
  mix_view_free(v);
  if (!r)
    return FALSE;
  if (r->stuck) {
    g_set_error(error, JOBS_ERROR, JOBS_ERROR_RUN, "%s: the jobs deadlock: %s", S->jf->path,
                r->stuck_summary);
    replay_result_free(r);
    return FALSE;
  }
  mix_result *res = S->res;
  if (task == 0) {
    for (int j = 0; j < n; j++)
      res->jobs[j].makespan_ps = job_makespan(S, r, j);
    res->r = r;
    return TRUE;
  }
  if (b < 0) {
    mix_job *mj = &res->jobs[a];
    mj->alone_ps = job_makespan(S, r, a);
    mj->post = run_post_metrics(r, mj->pre, S->pu, res->with_colls);
    mj->mismatch = run_first_mismatch(mj->pre, mj->post);
  } else {
    S->pair_ps[2 * (task - n - 1)] = job_makespan(S, r, a);
    S->pair_ps[2 * (task - n - 1) + 1] = job_makespan(S, r, b);
  }
  replay_result_free(r);
  return TRUE;
}

static void worker(gpointer data, gpointer user)
{
  mix_state *S = user;
  int task = GPOINTER_TO_INT(data) - 1;
  if (!progress_stopped(S->o->progress))
    run_task(S, task, &S->errors[task]);
  else
    progress_check(S->o->progress, &S->errors[task]);
  int done = g_atomic_int_add(&S->done, 1) + 1;
  progress_report(S->o->progress, "jobs: runs", (uint64_t)done, (uint64_t)S->ntasks);
}

/* A slowdown. A job that takes no time alone neither computes nor sends
 * over the network, so it takes none next to others either: 1. */
static double ratio(int64_t a, int64_t b)
{
  return b ? (double)a / (double)b : 1.0;
}

static gboolean run_all(mix_state *S, GError **error)
{
  /* two jobs: their one pair is the mix itself */
  int n = S->njobs, npairs = S->o->pairs && n > 2 ? n * (n - 1) / 2 : 0;
  S->ntasks = 1 + n + npairs;
  S->pair = g_new(int, 2 * (size_t)MAX(npairs, 1));
  S->pair_ps = g_new0(int64_t, 2 * (size_t)MAX(npairs, 1));
  S->errors = g_new0(GError *, S->ntasks);
  for (int i = 0, k = 0; i < n && npairs; i++)
    for (int j = i + 1; j < n; j++, k++) {
      S->pair[2 * k] = i;
      S->pair[2 * k + 1] = j;
    }
  S->inner = (progress){ .stop = S->o->progress ? S->o->progress->stop : NULL };
  progress_report(S->o->progress, "jobs: runs", 0, (uint64_t)S->ntasks);
  gint64 t0 = g_get_monotonic_time();
  int threads = CLAMP(S->o->threads, 1, S->ntasks);
  if (threads == 1) {
    for (int t = 0; t < S->ntasks; t++)
      worker(GINT_TO_POINTER(t + 1), S);
  } else {
    GThreadPool *pool = g_thread_pool_new(worker, S, threads, TRUE, NULL);
    for (int t = 0; t < S->ntasks; t++)
      g_thread_pool_push(pool, GINT_TO_POINTER(t + 1), NULL);
    g_thread_pool_free(pool, FALSE, TRUE);
  }
  S->res->replay_seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  S->res->runs = S->ntasks;
  for (int t = 0; t < S->ntasks; t++)
    if (S->errors[t]) {
      g_propagate_error(error, S->errors[t]);
      S->errors[t] = NULL;
      return FALSE;
    }
  mix_result *res = S->res;
  for (int j = 0; j < n; j++)
    res->jobs[j].slowdown = ratio(res->jobs[j].makespan_ps, res->jobs[j].alone_ps);
  if (S->o->pairs && n > 1) {
    res->interference = g_new(double, (size_t)n * n);
    for (int j = 0; j < n; j++)
      res->interference[j * n + j] = 1.0;
    if (n == 2) {
      res->interference[1] = res->jobs[0].slowdown;
      res->interference[2] = res->jobs[1].slowdown;
    }
    for (int k = 0; k < npairs; k++) {
      int a = S->pair[2 * k], b = S->pair[2 * k + 1];
      res->interference[a * n + b] = ratio(S->pair_ps[2 * k], res->jobs[a].alone_ps);
      res->interference[b * n + a] = ratio(S->pair_ps[2 * k + 1], res->jobs[b].alone_ps);
    }
  }
  res->post = run_post_metrics(res->r, res->pre, S->pu, res->with_colls);
  res->mismatch = run_first_mismatch(res->pre, res->post);
  return TRUE;
}

static void state_clear(mix_state *S)
{
  for (int j = 0; j < S->njobs; j++) {
    trace_free(S->traces[j]);
    commgraph_free(S->graphs[j]);
  }
  for (int t = 0; t < S->ntasks; t++)
    g_clear_error(&S->errors[t]);
  g_free(S->errors);
  g_free(S->traces);
  g_free(S->graphs);
  g_free(S->first);
  g_free(S->start);
  g_free(S->pair);
  g_free(S->pair_ps);
  trace_free(S->u);
  jobs_placement_free(S->pl);
}

mix_result *mix_run(const jobs_file *jf, const platform *p, const mix_opts *o, GError **error)
{
  mix_state S = { .jf = jf, .p = p, .o = o, .njobs = jf->njobs };
  /* an adaptive run is checked against the routes it took (sim/run.c),
   * which the mix's per-job views do not record yet */
  if (run_checks_routes(p)) {
    g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE,
                "%s: several jobs under an adaptive or per-packet routing (ugal, min-adaptive, "
                "valiant per=packet) are not "
                "supported, expected a deterministic or seeded one (minimal, valiant:per=message, ...)",
                jf->path);
    return NULL;
  }
  jobs_draw d;
  if (!jobs_parse_policy(o->policy, &d, error))
    return NULL;
  d.draw = MAX(o->draw, 1);
  if (!(S.pl = jobs_place_draw(jf, p, &d, error)))
    return NULL;
  S.traces = g_new0(trace *, jf->njobs);
  S.graphs = g_new0(commgraph *, jf->njobs);
  S.first = g_new0(int, jf->njobs);
  S.res = g_new0(mix_result, 1);
  S.res->njobs = jf->njobs;
  S.res->jobs = g_new0(mix_job, jf->njobs);
  S.res->mismatch = -1;
  gboolean ok = setup(&S, error);
  if (ok) {
    static_views(&S);
    ok = run_all(&S, error);
  }
  if (!ok) {
    S.res->p = S.pu;
    g_clear_pointer(&S.res, mix_result_free);
  }
  state_clear(&S);
  return S.res;
}

void mix_result_free(mix_result *r)
{
  if (!r)
    return;
  for (int j = 0; j < r->njobs; j++) {
    g_free(r->jobs[j].alloc);
    platform_free(r->jobs[j].p);
    metrics_free(r->jobs[j].pre);
    metrics_free(r->jobs[j].post);
  }
  g_free(r->jobs);
  platform_free((platform *)r->p);
  mapping_free(r->m);
  replay_result_free(r->r);
  metrics_free(r->pre);
  metrics_free(r->post);
  g_free(r->interference);
  g_free(r);
}
