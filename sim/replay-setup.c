/* replay-setup.c - the replay's entry points (see sim/replay.h): the inputs
 * checked, the replay's memory estimated against the budget before
 * anything is allocated, the state of every rank set up (a rank in memory
 * is one window, checked; a streamed one reads its first window when it
 * first runs), then the event loop of replay.c, and the results collected.
 */
#include "sim/replay-private.h"

#include <string.h>

#include "util/budget.h"

void replay_opts_init(replay_opts *o)
{
  *o = (replay_opts){ .compute_scale = 1.0 };
}

/* In-memory traces may be built by hand: communicator indices checked. */
static gboolean check_comms(const replay *R, int r, const rank_st *rs, GError **error)
{
  for (int64_t i = 0; i < rs->nev; i++) {
    const trace_event *e = &rs->ev[i];
    switch (e->kind) {
    case TRACE_SEND:
    case TRACE_ISEND:
    case TRACE_RECV:
    case TRACE_IRECV:
    case TRACE_COLL_END:
    case TRACE_NBCOLL_COMPLETE:
      if (G_UNLIKELY(e->comm >= (uint32_t)R->t->ncomms)) {
        g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                    "rank %d record %" G_GINT64_FORMAT ": communicator %u out of range, "
                    "expected < %d", r, i, e->comm, R->t->ncomms);
        return FALSE;
      }
      break;
    default:
      break;
    }
  }
  return TRUE;
}

gboolean replay_check_placement(int nranks, const platform *p, const mapping *m, GError **error)
{
  GError *e = NULL;
  if (!platform_check_capacity(p, nranks, &e)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT, "%s", e->message);
    g_error_free(e);
    return FALSE;
  }
  if (m->ntasks < nranks) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "the mapping places %d ranks, the trace has %d; expected one node per rank",
                m->ntasks, nranks);
    return FALSE;
  }
  return mapping_validate(m, p, error);
}

static replay *replay_new(const trace_source *src, const platform *p, const mapping *m,
                          const replay_opts *o, GError **error)
{
  const trace *t = trace_source_trace(src);
  replay *R = g_new0(replay, 1);
  R->t = t;
  R->src = src;
  R->p = p;
  R->node = m->node;
  R->scale = o->compute_scale;
  R->progress = o->progress;
  R->on_record = o->on_record;
  R->on_record_user = o->on_record_user;
  R->limit = o->limit_ps > 0 ? o->limit_ps : INT64_MAX;
  R->o_send = engine_ps(p->model.send_overhead);
  R->o_recv = engine_ps(p->model.recv_overhead);
  R->eager = p->model.eager_threshold;
  R->sync = p->model.handshake == PLATFORM_HANDSHAKE_SYNC;
  R->eager_match = p->model.eager_start == PLATFORM_EAGER_MATCH;
  R->free_op = R->free_msg = NONE;
  R->window = o->window > 0 ? o->window : replay_window_size(t->nranks);
  R->cur = trace_cursor_new(src);
  R->ranks = g_new0(rank_st, t->nranks);
  R->call_cur = g_new0(int64_t, (size_t)t->nranks * (size_t)MAX(t->ncomms, 1));
  R->insts = g_ptr_array_new();
  R->inst_by_key = g_hash_table_new(g_int64_hash, g_int64_equal);
  R->region_cls = g_new0(uint8_t, MAX(t->nregions, 1));
  R->ready = g_new(uint32_t, MAX(t->nranks, 1));
  R->cc = g_new(cc_ent, (size_t)MAX(t->nranks, 1) * CCACHE);
  for (int i = 0; i < t->nregions; i++)
    R->region_cls[i] = (uint8_t)trace_region_class_of(t->regions[i]);
  if (o->record_times)
    R->times = g_new0(int64_t *, t->nranks);
  if (!coll_choice_parse(&R->colls, o->collectives, error))
    return R;
  for (int r = 0; r < t->nranks; r++) {
    rank_st *rs = &R->ranks[r];
    rs->cur_op = rs->cur_coll = NONE;
    rs->total = trace_source_records(src, r);
    if (R->times)
      R->times[r] = g_new(int64_t, MAX(rs->total, 1));
    const trace_event *direct = trace_source_direct(src, r);
    if (direct) { /* in memory: one window, the whole rank */
      rs->ev = direct;
      rs->nev = rs->total;
      R->nopen = 0;
      replay_scan_irecvs(R, rs, 0);
      if (!check_comms(R, r, rs, error))
        return R;
    } else {
      rs->win = g_new(trace_event, 1); /* refill() reads the first window */
      rs->capwin = 1;
    }
  }
  R->calls = trace_source_colls(src);
  return R;
}

static void replay_free(replay *R)
{
  if (!R)
    return;
  for (int r = 0; r < R->t->nranks; r++) {
    rank_st *rs = &R->ranks[r];
    g_free(rs->pend);
    g_free(rs->defer);
    g_free(rs->irecv_env);
    g_free(rs->win);
    if (R->times)
      g_free(R->times[r]);
  }
  for (guint i = 0; i < R->insts->len; i++)
    replay_inst_free(g_ptr_array_index(R->insts, i));
  g_ptr_array_free(R->insts, TRUE);
  g_hash_table_destroy(R->inst_by_key);
  g_free(R->times);
  g_free(R->open);
  trace_cursor_free(R->cur);
  g_free(R->call_cur);
  g_free(R->region_cls);
  g_free(R->ready);
  g_free(R->cc);
  g_free(R->ranks);
  g_free(R->ops);
  g_free(R->msgs);
  g_free(R->chans);
  g_free(R->slots);
  netmodel_free(R->model);
  engine_free(R->eng);
  g_clear_error(&R->error);
  g_free(R);
}

/* The replay's own memory (replay_estimate_for: its state, windows when
 * streamed; the times of an output trace; the model's per-link counters)
 * against the memory budget, before anything is allocated. A trace in
 * memory is already paid for. */
static gboolean check_budget(const trace_source *src, const platform *p, const replay_opts *o,
                             GError **error)
{
  const trace *t = trace_source_trace(src);
  int64_t records = trace_source_total(src);
  replay_estimate est;
  replay_estimate_for(t->nranks, records, &est);
  double bytes = trace_source_streamed(src) ? est.stream_bytes
                                            : est.memory_bytes - (double)sizeof(trace_event) * records;
  bytes += o->record_times ? 2.0 * sizeof(trace_event) * records : 0; /* times, output trace */
  bytes += 128.0 * p->topo->nlinks;
  char *what = g_strdup_printf("the replay of %d ranks and %" G_GINT64_FORMAT " records",
                               t->nranks, records);
  gboolean ok = budget_check_memory(what, (uint64_t)MIN(bytes, 1.8e19), error);
  g_free(what);
  return ok;
}

replay_result *replay_run_source(const trace_source *src, const platform *p, const mapping *m,
                                 const struct netmodel_ops *model, const replay_opts *o,
                                 GError **error)
{
  const trace *t = trace_source_trace(src);
  replay_opts defaults;
  replay_result *res = NULL;
  if (!o) {
    replay_opts_init(&defaults);
    o = &defaults;
  }
  if (!(o->compute_scale >= 0)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "compute scale %g: expected a number >= 0", o->compute_scale);
    return NULL;
  }
  if (o->record_times && trace_source_streamed(src)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "an output trace needs the input trace in memory, expected an in-memory source");
    return NULL;
  }
  if (!replay_check_placement(t->nranks, p, m, error) || !check_budget(src, p, o, error))
    return NULL;
  GError *e = NULL;
  replay *R = replay_new(src, p, m, o, &e);
  if (e) {
    g_propagate_error(error, e);
    goto out;
  }
  replay_engine_start(R);
  if (!(R->model = netmodel_new(model, p, R->eng, R->k_net, error)))
    goto out;
  R->model->rec = o->links;
  replay_run_events(R, o->start_ps);
  if (o->links)
    linkrec_settle(o->links);
  if (!R->error)
    replay_check_overflow(R, &R->error);
  if (R->error) {
    g_propagate_error(error, R->error);
    R->error = NULL;
    goto out;
  }
  res = replay_collect(R);
out:
  replay_free(R);
  return res;
}

replay_result *replay_run(const trace *t, const platform *p, const mapping *m,
                          const struct netmodel_ops *model, const replay_opts *o,
                          GError **error)
{
  trace_source *src = trace_source_memory(t);
  replay_result *res = replay_run_source(src, p, m, model, o, error);
  trace_source_free(src);
  return res;
}

void replay_estimate_for(int nranks, int64_t records, replay_estimate *out)
{
  /* per rank: rank_st, channel cache, a few channels, requests and
   * messages in flight, the first pass's per-rank entries (~1.5 KiB in
   * all); plus the process itself (~12 MiB of libraries and tables) */
  double per_rank = 1536.0, base = 12.0 * 1048576.0;
  double per = MIN((double)replay_window_size(nranks), (double)records / MAX(nranks, 1) + 1);
  double windows = per * (double)sizeof(trace_event) * nranks;
  out->stream_bytes = base + windows + per_rank * nranks;
  out->memory_bytes = base + per_rank * nranks + (double)sizeof(trace_event) * (double)records;
  out->spill_bytes = 8.0 * (double)records;
  out->seconds = (double)records / 1.0e7; /* ~10 M records/s read + replayed, one core */
}
