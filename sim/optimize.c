/* optimize.c - the replay as an evaluation hook (see optimize.h). */
#include "sim/optimize.h"

#include <math.h>
#include <string.h>

#include "sim/run.h"

struct optimize_eval {
  strategy_eval hook;
  const trace *t;
  const trace_source *src;    /* given, or made from t on the first replay */
  trace_source *own;
  const platform *p;
  const struct netmodel_ops *model;
  replay_opts opts;
  progress stop;              /* the caller's stop flag, nothing reported */
  GMutex lock;                /* own, the counters */
  int64_t replays, stopped_early;
};

/* The short form of makespan_s. */
#define MAKESPAN "makespan"

/* The objectives the hook scores, NULL-terminated and static: "makespan"
 * (short for makespan_s) first, then the simulated fields that are not
 * counts (run_replay_fields). */
static const char *const *optimize_objective_names(void)
{
  static const char *const *names;
  static gsize built;
  if (g_once_init_enter(&built)) {
    GPtrArray *a = g_ptr_array_new();
    g_ptr_array_add(a, (gpointer)MAKESPAN);
    for (int i = 0; i < run_replay_nfields; i++)
      if (run_replay_fields[i].unit != FIELD_COUNT)
        g_ptr_array_add(a, (gpointer)run_replay_fields[i].name);
    g_ptr_array_add(a, NULL);
    names = (const char *const *)g_ptr_array_free(a, FALSE);
    g_once_init_leave(&built, 1);
  }
  return names;
}

gboolean optimize_check_objectives(const strategy_pipeline *pl, GError **error)
{
  return strategy_pipeline_check_objectives(pl, optimize_objective_names(), error);
}

/* The simulated field an objective names ("makespan": makespan_s), or
 * NULL with an error listing them. */
static const field *objective_field(const char *name, GError **error)
{
  const char *want = strcmp(name, MAKESPAN) == 0 ? "makespan_s" : name;
  for (int i = 0; i < run_replay_nfields; i++)
    if (run_replay_fields[i].unit != FIELD_COUNT && strcmp(run_replay_fields[i].name, want) == 0)
      return &run_replay_fields[i];
  strategy_objective_unknown(error, NULL, name, FALSE, optimize_objective_names());
  return NULL;
}

static const trace_source *source(optimize_eval *E)
{
  g_mutex_lock(&E->lock);
  if (!E->src)
    E->src = E->own = trace_source_memory(E->t);
  g_mutex_unlock(&E->lock);
  return E->src;
}

/* The limit in ps of a makespan in seconds: past it, the makespan exceeds
 * `limit` for sure (2 ps of margin for the rounding of seconds). */
static int64_t limit_ps(double limit)
{
  double ps = floor(limit * 1e12) + 2;
  return ps > 0 && ps < 9.2e18 ? (int64_t)ps : 0;
}

static gboolean score(void *user, const char *objective, const mapping *m, double limit,
                      strategy_score *out, GError **error)
{
  optimize_eval *E = user;
  const field *f = objective_field(objective, error);
  if (!f)
    return FALSE;
  replay_opts o = E->opts;
  o.progress = &E->stop;
  o.record_times = FALSE;
  gboolean makespan = strcmp(f->name, "makespan_s") == 0;
  o.limit_ps = makespan && isfinite(limit) ? limit_ps(limit) : 0;
  GError *e = NULL;
  replay_result *r = replay_run_source(source(E), E->p, m, E->model, &o, &e);
  gboolean over = !r && g_error_matches(e, REPLAY_ERROR, REPLAY_ERROR_LIMIT);
  g_mutex_lock(&E->lock);
  E->replays++;
  E->stopped_early += over;
  g_mutex_unlock(&E->lock);
  out->objective = f->name;
  if (over) {
    g_error_free(e);
    out->value = limit;
    out->over = TRUE;
    return TRUE;
  }
  if (!r) {
    g_propagate_error(error, e);
    return FALSE;
  }
  if (r->stuck) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "the replay deadlocks (%s): no simulated time to optimize", r->stuck_summary);
    replay_result_free(r);
    return FALSE;
  }
  out->value = field_double(f, r);
  out->over = FALSE;
  if (out->link_heat)
    memcpy(out->link_heat, r->link_busy_ps, sizeof(int64_t) * (size_t)r->nlinks);
  if (out->task_heat)
    for (int i = 0; i < m->ntasks; i++)
      out->task_heat[i] = i < r->nranks ? (double)r->per_rank[i].finish_ps : 0.0;
  replay_result_free(r);
  return TRUE;
}

optimize_eval *optimize_eval_new(const trace *t, const trace_source *src, const platform *p,
                                 const struct netmodel_ops *model, const replay_opts *opts,
                                 const progress *stop)
{
  optimize_eval *E = g_new0(optimize_eval, 1);
  E->hook = (strategy_eval){ score, E };
  E->t = t;
  E->src = src;
  E->p = p;
  E->model = model;
  E->opts = *opts;
  E->stop.stop = stop ? stop->stop : NULL;
  g_mutex_init(&E->lock);
  return E;
}

const strategy_eval *optimize_eval_hook(optimize_eval *e)
{
  return &e->hook;
}

int64_t optimize_eval_replays(const optimize_eval *e, int64_t *stopped_early)
{
  if (stopped_early)
    *stopped_early = e ? e->stopped_early : 0;
  return e ? e->replays : 0;
}

void optimize_eval_free(optimize_eval *e)
{
  if (!e)
    return;
  trace_source_free(e->own);
  g_mutex_clear(&e->lock);
  g_free(e);
}
