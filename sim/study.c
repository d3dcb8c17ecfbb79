/* study.c - platform x strategy grids of runs (korndoerfer2021 Sections 7.3
 * and 7.4). */
#include "sim/study.h"

G_DEFINE_QUARK(study-error-quark, study_error)

study *study_new(const trace *t, const char *const *platforms, int nplatforms,
                 const char *const *strategies, int nstrategies,
                 const struct netmodel_ops *model, guint32 seed, const char *collectives,
                 GError **error)
{
  gboolean with_colls;
  commgraph *g = run_traffic_graph(t, collectives, &with_colls, error);
  if (!g)
    return NULL;
  study *s = g_new0(study, 1);
  s->t = t;
  s->g = g;
  s->g_collectives = with_colls;
  s->collectives = g_strdup(collectives);
  run_spec_init(&s->spec);
  s->spec.opts.collectives = s->collectives;
  s->spec.model = model;
  s->spec.seed = seed;
  s->nplatforms = nplatforms;
  s->nstrategies = nstrategies;
  s->ncells = nplatforms * nstrategies;
  s->cells = g_new0(study_cell, s->ncells ? s->ncells : 1);
  for (int i = 0; i < nplatforms; i++)
    for (int j = 0; j < nstrategies; j++) {
      study_cell *c = &s->cells[i * nstrategies + j];
      c->platform_spec = g_strdup(platforms[i]);
      c->strategy_spec = g_strdup(strategies[j]);
    }
  return s;
}

static void run_cell_in(study *s, study_cell *c);

/* Worker: loads the cell's platform and runs it. */
static void run_one(gpointer data, gpointer user)
{
  study *s = user;
  study_cell *c = data;
  if (progress_stopped(s->prog)) {
    g_set_error(&c->error, STUDY_ERROR, STUDY_ERROR_INTERRUPTED, "interrupted");
    return;
  }
  run_cell_in(s, c);
  int done = g_atomic_int_add(&s->done, 1) + 1;
  progress_report(s->prog, "cells", (uint64_t)done, (uint64_t)s->ncells);
}

static void run_cell_in(study *s, study_cell *c)
{
  c->p = platform_load(c->platform_spec, &c->error);
  if (!c->p || (s->alloc && !platform_set_allocation(c->p, s->alloc, &c->error)) ||
      (s->cores && !platform_set_cores(c->p, s->cores, &c->error)) ||
      (s->fill && !platform_set_fill(c->p, s->fill, &c->error)))
    return;
  run_inputs in = { .p = c->p, .g = s->g, .g_collectives = s->g_collectives, .t = s->t };
  run_spec spec = s->spec;
  spec.strategy = c->strategy_spec;
  c->res = run_cell(&in, &spec, &c->error);
  if (c->res && c->res->r && c->res->r->stuck)
    g_set_error(&c->error, REPLAY_ERROR, REPLAY_ERROR_INPUT, "%s", c->res->r->stuck_summary);
}

gboolean study_run(study *s, int threads, const progress *prog, GError **error)
{
  s->prog = prog;
  s->done = 0;
  GThreadPool *pool = g_thread_pool_new(run_one, s, MAX(threads, 1), TRUE, error);
  if (!pool)
    return FALSE;
  for (int i = 0; i < s->ncells; i++)
    if (!g_thread_pool_push(pool, &s->cells[i], error)) {
      g_thread_pool_free(pool, FALSE, TRUE);
      return FALSE;
    }
  g_thread_pool_free(pool, FALSE, TRUE); /* waits for every cell */
  return TRUE;
}

void study_free(study *s)
{
  if (!s)
    return;
  for (int i = 0; i < s->ncells; i++) {
    study_cell *c = &s->cells[i];
    g_free(c->platform_spec);
    g_free(c->strategy_spec);
    run_result_free(c->res);
    platform_free(c->p);
    g_clear_error(&c->error);
  }
  g_free(s->cells);
  g_free(s->alloc);
  g_free(s->fill);
  g_free(s->collectives);
  commgraph_free(s->g);
  g_free(s);
}
