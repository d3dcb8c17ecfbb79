/* study.c - platform x strategy grids of replays, post metrics, the pre/post
 * check (korndoerfer2021 Sections 7.3 and 7.4). */
#include "sim/study.h"

#include "mapping/strategy.h"

metrics *study_post_metrics(const replay_result *r, const metrics *pre, const platform *p)
{
  metrics *x = g_new0(metrics, 1);
  x->tasks = pre->tasks;
  x->edges = pre->edges;
  x->total_hops = pre->total_hops;
  x->avg_hops = pre->avg_hops;
  x->max_dilation = r->max_hops;
  x->hop_bytes = r->hop_bytes;
  x->message_hops = r->msg_hops;
  x->has_messages = TRUE;
  x->nlinks = r->nlinks;
  x->link_bytes = g_memdup2(r->link_bytes, sizeof(int64_t) * (size_t)MAX(r->nlinks, 1));
  x->link_messages = g_memdup2(r->link_messages, sizeof(int64_t) * (size_t)MAX(r->nlinks, 1));
  metrics_summarize_links(x, p);
  return x;
}

int study_first_mismatch(const metrics *pre, const metrics *post)
{
  for (int l = 0; l < pre->nlinks; l++)
    if (pre->link_bytes[l] != post->link_bytes[l])
      return l;
  return pre->hop_bytes != post->hop_bytes ? pre->nlinks : -1;
}

study *study_new(const trace *t, const char *const *platforms, int nplatforms,
                 const char *const *strategies, int nstrategies,
                 const struct netmodel_ops *model, guint32 seed, GError **error)
{
  commgraph *g = trace_commgraph(t, FALSE, NULL, error);
  if (!g)
    return NULL;
  study *s = g_new0(study, 1);
  s->t = t;
  s->g = g;
  s->model = model;
  s->seed = seed;
  replay_opts_init(&s->opts);
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

static void map_cell(study *s, study_cell *c)
{
  c->p = platform_load(c->platform_spec, &c->error);
  if (!c->p || (s->alloc && !platform_set_allocation(c->p, s->alloc, &c->error)) ||
      (s->cores && !platform_set_cores(c->p, s->cores, &c->error)))
    return;
  strategy_pipeline *pl = strategy_parse(c->strategy_spec, &c->error);
  if (!pl)
    return;
  gint64 t0 = g_get_monotonic_time();
  c->m = strategy_run(pl, s->g, c->p, s->seed, NULL, 0, &c->error);
  c->map_seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  strategy_pipeline_free(pl);
}

/* Worker: replays one mapped cell. */
static void replay_cell(gpointer data, gpointer user)
{
  study *s = user;
  study_cell *c = data;
  c->r = replay_run(s->t, c->p, c->m, s->model, &s->opts, &c->error);
  if (!c->r)
    return;
  if (c->r->stuck) {
    g_set_error(&c->error, REPLAY_ERROR, REPLAY_ERROR_INPUT, "%s", c->r->stuck_summary);
    return;
  }
  c->pre = metrics_compute(s->g, c->p, c->m);
  c->post = study_post_metrics(c->r, c->pre, c->p);
  c->match = study_first_mismatch(c->pre, c->post) < 0;
}

gboolean study_run(study *s, int threads, GError **error)
{
  for (int i = 0; i < s->ncells; i++)
    map_cell(s, &s->cells[i]);
  GThreadPool *pool = g_thread_pool_new(replay_cell, s, MAX(threads, 1), TRUE, error);
  if (!pool)
    return FALSE;
  for (int i = 0; i < s->ncells; i++)
    if (!s->cells[i].error && !g_thread_pool_push(pool, &s->cells[i], error)) {
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
    metrics_free(c->pre);
    metrics_free(c->post);
    replay_result_free(c->r);
    mapping_free(c->m);
    platform_free(c->p);
    g_clear_error(&c->error);
  }
  g_free(s->cells);
  g_free(s->alloc);
  commgraph_free(s->g);
  g_free(s);
}
