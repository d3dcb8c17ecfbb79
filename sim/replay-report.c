/* replay-report.c - what a replay hands back: per-rank statistics, model
 * counters, the deadlock report (which rank waits for what) and the
 * simulated run as a trace.
 */
#include "sim/replay-private.h"

#include <stddef.h>

#define F(key, member, type, unit, desc)                                                 \
  { key, type, unit, offsetof(replay_result, member), desc, 0, NULL }
const field run_replay_fields[] = {
  F("makespan_s", makespan_ps, FIELD_PS, FIELD_SECONDS, "simulated end of the last rank"),
  F("ranks", nranks, FIELD_INT, FIELD_COUNT, "ranks replayed"),
  F("events", events, FIELD_INT64, FIELD_COUNT, "trace records replayed"),
  F("p2p_messages", p2p_messages, FIELD_INT64, FIELD_COUNT, "point-to-point messages"),
  F("p2p_bytes", p2p_bytes, FIELD_INT64, FIELD_COUNT, "point-to-point payload bytes"),
  F("collective_messages", coll_messages, FIELD_INT64, FIELD_COUNT,
    "messages of the collective algorithms"),
  F("collective_bytes", coll_bytes, FIELD_INT64, FIELD_COUNT, "their bytes"),
  F("control_messages", ctrl_messages, FIELD_INT64, FIELD_COUNT,
    "rendezvous RTS/CTS messages"),
  F("p2p_transfer_sum_s", comm_model_ps, FIELD_PS, FIELD_SECONDS,
    "sum over p2p messages of their network time (korndoerfer2021's communication model "
    "time); transfers overlap, so the sum can exceed the makespan"),
  F("collective_transfer_sum_s", coll_model_ps, FIELD_PS, FIELD_SECONDS,
    "the same sum over the messages of collective algorithms"),
  F("parallel_cost_s", parallel_cost_ps, FIELD_PS, FIELD_SECONDS, "makespan x ranks"),
  F("p2p_cost_s", p2p_cost_ps, FIELD_PS, FIELD_SECONDS,
    "time in MPI point-to-point calls, all ranks"),
  F("energy_j", energy_j, FIELD_DOUBLE, FIELD_JOULES,
    "energy of all links over the makespan (routing/energy.h): idle + traffic + off"),
  F("energy_idle_j", energy_idle_j, FIELD_DOUBLE, FIELD_JOULES,
    "what the links draw while on without traffic: power-idle x time on"),
  F("energy_traffic_j", energy_traffic_j, FIELD_DOUBLE, FIELD_JOULES,
    "what their traffic adds: (power-busy - power-idle) x busy time"),
  F("energy_off_j", energy_off_j, FIELD_DOUBLE, FIELD_JOULES,
    "what switched-off links draw: power-off x time off"),
  F("link_wakeups", link_wakeups, FIELD_INT64, FIELD_COUNT,
    "times a switched-off link was woken by a message"),
  F("max_link_busy_s", max_link_busy_ps, FIELD_PS, FIELD_SECONDS,
    "the busiest link's busy time (all traffic)"),
};
#undef F
const int run_replay_nfields = G_N_ELEMENTS(run_replay_fields);

static const char *region_name(const replay *R, const rank_st *rs)
{
  if (rs->depth <= 0 || rs->region < 0 || rs->region >= R->t->nregions)
    return "(no MPI region)";
  return R->t->regions[rs->region];
}

/* What rank r waits for, one line (caller frees). */
static char *stuck_line(const replay *R, int r)
{
  const rank_st *rs = &R->ranks[r];
  const trace_event *ev = rs->pos < rs->nev ? &rs->ev[rs->pos] : NULL;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "rank %d: at record %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                         " (%s in %s, simulated t=%.9f s), %d pending request(s): ",
                         r, rs->base + rs->pos, rs->total, ev ? trace_kind_name(ev->kind) : "end",
                         region_name(R, rs), rs->now * 1e-12, rs->npend);
  if (rs->cur_coll != NONE) {
    const coll_inst *ci = g_ptr_array_index(R->insts, rs->cur_coll);
    g_string_append_printf(s, "in %s on communicator %u, members not arrived:",
                           coll_op_name(ci->op), ci->comm);
    for (int j = 0; j < ci->P; j++)
      if (ci->t_join[j] < 0)
        g_string_append_printf(s, " %d", ci->world[j]);
  } else if (rs->cur_op != NONE) {
    const op *o = &R->ops[rs->cur_op];
    const msg *m = o->msg != NONE ? &R->msgs[o->msg] : NULL;
    if (m && m->src == r)
      g_string_append_printf(s, "rendezvous send to rank %d (comm %u, tag %u, %" G_GINT64_FORMAT
                             " bytes) %s", m->dst, m->comm, m->tag, m->bytes,
                             m->recv_op == NONE ? "never matched by a receive" : "in flight");
    else if (ev)
      g_string_append_printf(s, "receive from rank %d (comm %u, tag %u, %" G_GINT64_FORMAT
                             " bytes): no matching send", ev->peer, ev->comm, ev->tag,
                             ev->bytes);
  } else {
    g_string_append(s, "not finished");
  }
  return g_string_free(s, FALSE);
}

/* Ranks of a deadlock described one line each; the others are counted. */
#define STUCK_SHOWN 8

static void report_stuck(const replay *R, replay_result *res)
{
  GString *d = g_string_new(NULL);
  char *first = NULL;
  int64_t tmax = 0;
  for (int r = 0; r < R->t->nranks; r++) {
    if (R->ranks[r].state == RS_DONE)
      continue;
    tmax = MAX(tmax, R->ranks[r].now);
    if (res->stuck++ >= STUCK_SHOWN)
      continue;
    char *line = stuck_line(R, r);
    g_string_append_printf(d, "  %s\n", line);
    if (!first)
      first = line;
    else
      g_free(line);
  }
  if (res->stuck > STUCK_SHOWN)
    g_string_append_printf(d, "  ... and %d more ranks that cannot progress\n",
                           res->stuck - STUCK_SHOWN);
  res->stuck_summary = g_strdup_printf(
      "deadlock: %d of %d ranks cannot progress (simulated t=%.9f s); first %s", res->stuck,
      R->t->nranks, tmax * 1e-12, first);
  res->stuck_detail = g_string_free(d, FALSE);
  g_free(first);
}

/* The input trace with the simulated times (comm indices shifted by the two
 * communicators trace_new() creates). */
static trace *build_out_trace(const replay *R)
{
  const trace *t = R->t;
  trace *o = trace_new(t->nranks);
  uint32_t off = (uint32_t)o->ncomms;
  for (int i = 0; i < t->nregions; i++)
    trace_add_region(o, t->regions[i]);
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    uint32_t k = trace_add_comm(o, tc->name, tc->size, tc->self ? NULL : tc->members);
    o->comms[k].self = tc->self;
  }
  o->world = t->world + off;
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      trace_event e = t->ranks[r].events[i];
      e.time = R->times[r][i];
      gboolean has_comm = (e.kind >= TRACE_SEND && e.kind <= TRACE_IRECV &&
                           e.kind != TRACE_ISEND_COMPLETE && e.kind != TRACE_IRECV_REQUEST) ||
                          e.kind == TRACE_COLL_END || e.kind == TRACE_NBCOLL_COMPLETE;
      if (has_comm)
        e.comm += off;
      trace_push(o, r, &e);
    }
  int64_t end = 0;
  for (int r = 0; r < t->nranks; r++)
    end = MAX(end, R->ranks[r].st.finish_ps);
  o->duration_ps = end;
  trace_shrink(o);
  return o;
}

gboolean replay_check_totals(gboolean time_overflow, int64_t makespan, int nranks,
                             gboolean p2p_sum_ok, const netmodel *nm, const char *check,
                             GError **error)
{
  int64_t cost;
  if (time_overflow || makespan == INT64_MAX) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_OVERFLOW,
                "simulated time exceeds " CHECKED_PS_LIMIT " (check %s)", check);
    return FALSE;
  }
  if (!p2p_sum_ok || !checked_mul_i64(makespan, nranks, &cost)) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_OVERFLOW,
                "%s exceeds " CHECKED_PS_LIMIT " (a sum over %d ranks of a %.6g s run)",
                p2p_sum_ok ? "the parallel cost (makespan x ranks)" : "the point-to-point cost",
                nranks, (double)makespan * 1e-12);
    return FALSE;
  }
  if (nm->overflow) {
    g_set_error(error, REPLAY_ERROR, REPLAY_ERROR_OVERFLOW,
                "the network model's counters (bytes, hop-bytes or busy time of a link) "
                "exceed 2^63 - 1");
    return FALSE;
  }
  return TRUE;
}

gboolean replay_check_overflow(const replay *R, GError **error)
{
  const trace *t = R->t;
  int64_t makespan = 0, p2p = 0;
  gboolean sums = TRUE;
  for (int r = 0; r < t->nranks; r++) {
    makespan = MAX(makespan, R->ranks[r].st.finish_ps);
    sums = sums && checked_add_i64(p2p, R->ranks[r].st.p2p_ps, &p2p);
  }
  return replay_check_totals(R->eng->overflow, makespan, t->nranks, sums, R->model,
                             "--compute-scale and the platform's bandwidths and latencies",
                             error);
}

/* The links' energy over the makespan, per link type and in total. */
static void collect_energy(const netmodel *nm, const platform *p, replay_result *res)
{
  res->ntypes = p->nlinktypes;
  res->type_energy = g_new0(link_energy, MAX(p->nlinktypes, 1));
  if (!platform_has_power(p) && !nm->link_inflight)
    return;
  double span = (double)res->makespan_ps * 1e-12;
  if (platform_has_power(p))
    res->link_energy_j = g_new0(double, MAX(nm->nlinks, 1));
  for (int l = 0; l < nm->nlinks; l++) {
    int ty = p->link_type[l];
    link_energy e;
    linktype_energy(&p->linktypes[ty], span, (double)nm->link_busy_ps[l] * 1e-12,
                    (double)netmodel_link_off_ps(nm, l, res->makespan_ps) * 1e-12, &e);
    if (res->link_energy_j)
      res->link_energy_j[l] = link_energy_total(&e);
    res->type_energy[ty].idle_j += e.idle_j;
    res->type_energy[ty].traffic_j += e.traffic_j;
    res->type_energy[ty].off_j += e.off_j;
    if (nm->link_wakeups)
      res->link_wakeups += nm->link_wakeups[l];
  }
  for (int ty = 0; ty < p->nlinktypes; ty++) {
    res->energy_idle_j += res->type_energy[ty].idle_j;
    res->energy_traffic_j += res->type_energy[ty].traffic_j;
    res->energy_off_j += res->type_energy[ty].off_j;
  }
  res->energy_j = res->energy_idle_j + res->energy_traffic_j + res->energy_off_j;
}

void replay_collect_model(netmodel *nm, const platform *p, replay_result *res)
{
  const netmodel_totals *pt = &nm->tot[NETMODEL_P2P], *ct = &nm->tot[NETMODEL_COLL];
  res->p2p_messages = pt->messages;
  res->p2p_bytes = pt->bytes;
  res->coll_messages = ct->messages;
  res->coll_bytes = ct->bytes;
  res->ctrl_messages = nm->tot[NETMODEL_CTRL].messages;
  res->comm_model_ps = pt->transfer_ps;
  res->coll_model_ps = ct->transfer_ps;
  res->hop_bytes = pt->hop_bytes;
  res->msg_hops = pt->msg_hops;
  res->max_hops = pt->max_hops;
  res->nlinks = nm->nlinks;
  size_t n = (size_t)MAX(nm->nlinks, 1);
  res->link_bytes = g_memdup2(nm->link_bytes[NETMODEL_P2P], n * sizeof(int64_t));
  res->link_messages = g_memdup2(nm->link_messages[NETMODEL_P2P], n * sizeof(int64_t));
  res->coll_link_bytes = g_memdup2(nm->link_bytes[NETMODEL_COLL], n * sizeof(int64_t));
  res->coll_link_messages = g_memdup2(nm->link_messages[NETMODEL_COLL], n * sizeof(int64_t));
  res->coll_hop_bytes = ct->hop_bytes;
  res->coll_msg_hops = ct->msg_hops;
  res->coll_max_hops = ct->max_hops;
  res->link_busy_ps = g_memdup2(nm->link_busy_ps, n * sizeof(int64_t));
  for (int l = 0; l < nm->nlinks; l++)
    res->max_link_busy_ps = MAX(res->max_link_busy_ps, res->link_busy_ps[l]);
  res->routes_taken = netmodel_take_routes(nm);
  if (nm->ops->impl->stats)
    res->nmodel_stats = nm->ops->impl->stats(nm, res->model_stats, G_N_ELEMENTS(res->model_stats));
  if (nm->ops->impl->link_stat) {
    res->link_stats = g_new0(netmodel_link_stat, n);
    for (int l = 0; l < nm->nlinks; l++)
      nm->ops->impl->link_stat(nm, l, &res->link_stats[l]);
    res->load_unit = nm->ops->impl->load_unit;
  }
  collect_energy(nm, p, res);
}

replay_result *replay_collect(replay *R)
{
  const trace *t = R->t;
  replay_result *res = g_new0(replay_result, 1);
  res->nranks = t->nranks;
  res->per_rank = g_new0(replay_rank_stats, MAX(t->nranks, 1));
  for (int r = 0; r < t->nranks; r++) {
    res->per_rank[r] = R->ranks[r].st;
    res->events += R->ranks[r].base + R->ranks[r].pos;
    res->makespan_ps = MAX(res->makespan_ps, R->ranks[r].st.finish_ps);
    res->p2p_cost_ps += R->ranks[r].st.p2p_ps;
  }
  res->parallel_cost_ps = res->makespan_ps * t->nranks;
  res->engine_events = R->eng->handled;
  replay_collect_model(R->model, R->p, res);
  res->peak_bytes = engine_bytes(R->eng) + R->capops * sizeof(op) + R->capmsgs * sizeof(msg) +
                    R->capchans * sizeof(chan) + R->nslots * sizeof(uint32_t) +
                    (size_t)t->nranks * (sizeof(rank_st) + CCACHE * sizeof(cc_ent)) +
                    trace_source_bytes(R->src) + trace_cursor_bytes(R->cur);
  for (int r = 0; r < t->nranks; r++)
    res->peak_bytes += (size_t)R->ranks[r].capwin * sizeof(trace_event) +
                       (size_t)R->ranks[r].capenv * sizeof(int64_t);
  for (int r = 0; r < t->nranks; r++)
    if (R->ranks[r].state != RS_DONE) {
      report_stuck(R, res);
      break;
    }
  if (R->times && !res->stuck)
    res->out_trace = build_out_trace(R);
  return res;
}

void replay_result_free(replay_result *r)
{
  if (!r)
    return;
  g_free(r->per_rank);
  g_free(r->link_bytes);
  g_free(r->link_messages);
  g_free(r->coll_link_bytes);
  g_free(r->coll_link_messages);
  g_free(r->link_busy_ps);
  g_free(r->link_stats);
  g_free(r->type_energy);
  g_free(r->link_energy_j);
  if (r->routes_taken)
    g_hash_table_destroy(r->routes_taken);
  g_free(r->stuck_summary);
  g_free(r->stuck_detail);
  trace_free(r->out_trace);
  g_free(r);
}
