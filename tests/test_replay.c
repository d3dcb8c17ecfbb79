/* test_replay.c - MPI replay: closed forms, real traces, output traces,
 * deadlocks. Every test runs under every model of the registry.
 *
 * Closed forms (T(h, b) = engine_ps(h (lat + router_delay) + b / bw), one
 * message of b bytes over h hops, packet_header 0, rounded once):
 *   eager ping-pong      2 (o_s + T(h, b) + o_r)
 *   rendezvous ping-pong 2 (o_s + 2 T(h, 0) + T(h, b) + o_r)   (RTS + CTS)
 *                        2 (o_s + T(h, b) + o_r)                handshake sync
 *   binomial bcast       ceil(log2 P) T(1, b) on a complete graph
 *   computation          gaps x compute_scale on a zero-cost network
 */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <math.h>

#include "mapping/metrics.h"
#include "sim/replay.h"
#include "tracetest.h"

#define EACH_MODEL(ops) \
  for (const struct netmodel_ops *const *ops##_p = netmodel_registry, *ops; (ops = *ops##_p); ops##_p++)

static const char mesh_ini[] =
  "[platform]\nname = t-mesh\n[topology]\nshape = 4x4x4\nconnectivity = mesh\n"
  "[linktype.0]\nbandwidth = 1e9\nlatency = 1e-6\n[links]\ndefault = 0\n"
  "[model]\nrouter_delay = 1e-7\n";

static const char free_ini[] =
  "[platform]\nname = t-free\n[topology]\nshape = 4x4x4\nconnectivity = torus\n"
  "[linktype.0]\nbandwidth = 1e300\nlatency = 0\n[links]\ndefault = 0\n";

static platform *ini_platform(const char *text)
{
  char *path = tu_write_tmp("p.ini", text);
  platform *p = tu_platform(path);
  g_unlink(path);
  g_free(path);
  return p;
}

/* A complete graph of n nodes: every pair one link of 2e9 B/s, 3e-7 s. */
static platform *complete_platform(int n)
{
  GString *g = g_string_new(NULL);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      g_string_append_printf(g, "%d %d\n", i, j);
  char *gpath = tu_write_tmp("k.graph", g->str);
  g_string_free(g, TRUE);
  char *ini = g_strdup_printf("[platform]\nname = k%d\n[topology]\ngraph = %s\nbidirectional = true\n"
                              "[linktype.0]\nbandwidth = 2e9\nlatency = 3e-7\n[links]\ndefault = 0\n",
                              n, gpath);
  platform *p = ini_platform(ini);
  g_unlink(gpath);
  g_free(gpath);
  g_free(ini);
  return p;
}

/* ENTER region, record, LEAVE at time `t`. */
static void call(trace *t, int rank, uint32_t region, int kind, int64_t time, int peer,
                 int64_t bytes)
{
  tu_push(t, rank, TRACE_ENTER, time, -1, 0, region);
  tu_push(t, rank, kind, time, peer, bytes, 7);
  tu_push(t, rank, TRACE_LEAVE, time, -1, 0, region);
}

static replay_result *run(const trace *t, const platform *p, const mapping *m,
                          const struct netmodel_ops *ops, double scale)
{
  replay_opts o;
  replay_opts_init(&o);
  o.compute_scale = scale;
  GError *e = NULL;
  replay_result *r = replay_run(t, p, m, ops, &o, &e);
  cr_assert_not_null(r, "%s: %s", ops->name, e ? e->message : "?");
  return r;
}

static trace *ping_pong(int64_t bytes)
{
  trace *t = trace_new(2);
  uint32_t rs = trace_add_region(t, "MPI_Send"), rr = trace_add_region(t, "MPI_Recv");
  call(t, 0, rs, TRACE_SEND, 0, 1, bytes);
  call(t, 0, rr, TRACE_RECV, 0, 1, bytes);
  call(t, 1, rr, TRACE_RECV, 0, 0, bytes);
  call(t, 1, rs, TRACE_SEND, 0, 0, bytes);
  return t;
}

/* rank 0 on node 0, rank 1 on node (2,1,0) = 6: 3 hops of the mesh. */
static mapping *two_apart(void)
{
  mapping *m = mapping_new(2);
  m->node[0] = 0;
  m->node[1] = 6;
  return m;
}

/* Exact for models with NETMODEL_CAP_ISOLATED_EXACT; a lower bound for
 * the others (contention and store-and-forward only add time). */
#define assert_time(ops, got, want, ...)                                    \
  do {                                                                      \
    if ((ops)->impl->caps & NETMODEL_CAP_ISOLATED_EXACT)                    \
      cr_assert_eq((got), (want), __VA_ARGS__);                             \
    else                                                                    \
      cr_assert_geq((got), (want), __VA_ARGS__);                            \
  } while (0)

static int64_t T(const platform *p, int hops, int64_t bytes)
{
  return engine_ps(hops * (p->link_lat[0] + p->model.router_delay) + (double)bytes / p->link_bw[0]);
}

Test(replay, eager_ping_pong_closed_form)
{
  platform *p = ini_platform(mesh_ini);
  mapping *m = two_apart();
  cr_assert_eq(route_hops(p->router, 0, 6), 3);
  int64_t sizes[] = { 0, 8, 1000, 65536 };
  EACH_MODEL(ops) {
    for (int i = 0; i < 4; i++) {
      trace *t = ping_pong(sizes[i]);
      replay_result *r = run(t, p, m, ops, 1.0);
      int64_t want = 2 * T(p, 3, sizes[i]);
      assert_time(ops, r->makespan_ps, want, "%s, %ld bytes: %ld ps, expected %ld", ops->name,
                  (long)sizes[i], (long)r->makespan_ps, (long)want);
      cr_assert_eq(r->stuck, 0);
      cr_assert_eq(r->p2p_messages, 2);
      cr_assert_eq(r->ctrl_messages, 0);
      assert_time(ops, r->comm_model_ps, want, "%s", ops->name);
      cr_assert_eq(r->hop_bytes, 2 * 3 * sizes[i]);
      replay_result_free(r);
      trace_free(t);
    }
  }
  mapping_free(m);
  platform_free(p);
}

Test(replay, eager_ping_pong_with_overheads)
{
  platform *p = ini_platform(mesh_ini);
  p->model.send_overhead = 2e-7;
  p->model.recv_overhead = 5e-8;
  mapping *m = two_apart();
  EACH_MODEL(ops) {
    trace *t = ping_pong(4096);
    replay_result *r = run(t, p, m, ops, 1.0);
    int64_t want = 2 * (engine_ps(2e-7) + T(p, 3, 4096) + engine_ps(5e-8));
    assert_time(ops, r->makespan_ps, want, "%s: %ld, expected %ld", ops->name,
                (long)r->makespan_ps, (long)want);
    replay_result_free(r);
    trace_free(t);
  }
  mapping_free(m);
  platform_free(p);
}

Test(replay, rendezvous_adds_rts_and_cts)
{
  platform *p = ini_platform(mesh_ini);
  p->model.send_overhead = 1e-7;
  mapping *m = two_apart();
  int64_t b = p->model.eager_threshold + 1;
  EACH_MODEL(ops) {
    trace *t = ping_pong(b);
    replay_result *r = run(t, p, m, ops, 1.0);
    int64_t want = 2 * (engine_ps(1e-7) + 2 * T(p, 3, 0) + T(p, 3, b));
    assert_time(ops, r->makespan_ps, want, "%s: %ld, expected %ld", ops->name,
                (long)r->makespan_ps, (long)want);
    cr_assert_eq(r->ctrl_messages, 4);
    cr_assert_eq(r->p2p_bytes, 2 * b);
    replay_result_free(r);
    trace_free(t);
  }
  mapping_free(m);
  platform_free(p);
}

/* handshake sync: the same ping-pong without RTS and CTS; the eager limit
 * decides which messages take it (up to the limit: eager). */
Test(replay, sync_handshake_and_eager_limit)
{
  platform *p = ini_platform(mesh_ini);
  p->model.send_overhead = 1e-7;
  p->model.recv_overhead = 3e-8;
  p->model.handshake = PLATFORM_HANDSHAKE_SYNC;
  p->model.eager_threshold = 4096;
  mapping *m = two_apart();
  int64_t sizes[] = { 4096, 4097, 1 << 20 };
  EACH_MODEL(ops) {
    for (int i = 0; i < 3; i++) {
      trace *t = ping_pong(sizes[i]);
      replay_result *r = run(t, p, m, ops, 1.0);
      int64_t want = 2 * (engine_ps(1e-7) + T(p, 3, sizes[i]) + engine_ps(3e-8));
      assert_time(ops, r->makespan_ps, want, "%s %ld B: %ld, expected %ld", ops->name,
                  (long)sizes[i], (long)r->makespan_ps, (long)want);
      cr_assert_eq(r->ctrl_messages, 0);
      replay_result_free(r);
      trace_free(t);
    }
  }
  /* rts-cts with the same limit: 4096 bytes still eager, 4097 pays RTS and CTS */
  p->model.handshake = PLATFORM_HANDSHAKE_RTS_CTS;
  for (int i = 0; i < 2; i++) {
    trace *t = ping_pong(sizes[i]);
    replay_result *r = run(t, p, m, netmodel_registry[0], 1.0);
    cr_assert_eq(r->ctrl_messages, i == 0 ? 0 : 4);
    replay_result_free(r);
    trace_free(t);
  }
  mapping_free(m);
  platform_free(p);
}

/* A late receiver: with sync the data leaves when the receive is posted,
 * so the receive completes T(h, b) after it; eager data arrived before,
 * unless eager_start is match (then it too leaves at the post). */
Test(replay, sync_waits_for_the_receive)
{
  platform *p = ini_platform(mesh_ini);
  p->model.handshake = PLATFORM_HANDSHAKE_SYNC;
  mapping *m = two_apart();
  const int64_t late = 50000000; /* the receive is posted 50 us after the send */
  for (int k = 0; k < 3; k++) {
    int rndv = k == 1;
    p->model.eager_start = k == 2 ? PLATFORM_EAGER_MATCH : PLATFORM_EAGER_SEND;
    int64_t b = rndv ? p->model.eager_threshold + 1 : 1000;
    trace *t = trace_new(2);
    uint32_t rs = trace_add_region(t, "MPI_Send"), rr = trace_add_region(t, "MPI_Recv");
    call(t, 0, rs, TRACE_SEND, 0, 1, b);
    call(t, 1, rr, TRACE_RECV, late, 0, b);
    replay_result *r = run(t, p, m, netmodel_registry[0], 1.0);
    int64_t want = k ? late + T(p, 3, b) : late;
    cr_assert_eq(r->makespan_ps, want, "%ld B: %ld, expected %ld", (long)b, (long)r->makespan_ps,
                 (long)want);
    replay_result_free(r);
    trace_free(t);
  }
  mapping_free(m);
  platform_free(p);
}

/* An envelope of 16 bytes travels with every message: the ping-pong takes
 * 2 T(h, b + 16), the bytes counted on links stay the payload. */
Test(replay, envelope_on_every_message)
{
  platform *p = ini_platform(mesh_ini);
  p->model.envelope = 16;
  mapping *m = two_apart();
  EACH_MODEL(ops) {
    trace *t = ping_pong(1000);
    replay_result *r = run(t, p, m, ops, 1.0);
    int64_t want = 2 * T(p, 3, 1016);
    assert_time(ops, r->makespan_ps, want, "%s: %ld, expected %ld", ops->name,
                (long)r->makespan_ps, (long)want);
    cr_assert_eq(r->p2p_bytes, 2000);
    cr_assert_eq(r->hop_bytes, 2 * 3 * 1000);
    replay_result_free(r);
    trace_free(t);
  }
  mapping_free(m);
  platform_free(p);
}

static trace *bcast_trace(int P, int64_t bytes)
{
  trace *t = trace_new(P);
  uint32_t reg = trace_add_region(t, "MPI_Bcast");
  for (int r = 0; r < P; r++) {
    tu_push(t, r, TRACE_ENTER, 0, -1, 0, reg);
    tu_push(t, r, TRACE_COLL_BEGIN, 0, -1, 0, 0);
    trace_event e = { .time = 0, .peer = 0, .op = COLL_BCAST, .kind = TRACE_COLL_END,
                      .comm = t->world, .bytes = r == 0 ? bytes : 0,
                      .bytes_recv = r == 0 ? 0 : bytes };
    trace_push(t, r, &e);
    tu_push(t, r, TRACE_LEAVE, 0, -1, 0, reg);
  }
  return t;
}

/* Dependency rule of collectives.h: a member sends round k once all messages
 * addressed to it in rounds < k arrived, so the root sends all its rounds at
 * once and the makespan is the longest receive chain: exactly ceil(log2 P)
 * messages for P a power of two; for other P between floor and ceil. */
Test(replay, binomial_bcast_takes_log2_rounds)
{
  int sizes[] = { 2, 4, 8, 16, 5, 6 };
  EACH_MODEL(ops) {
    for (int i = 0; i < 6; i++) {
      int P = sizes[i];
      platform *p = complete_platform(P);
      GError *e = NULL;
      mapping *m = mapping_identity(p, P, &e);
      cr_assert_not_null(m);
      trace *t = bcast_trace(P, 1000);
      replay_result *r = run(t, p, m, ops, 1.0);
      int rounds = (int)ceil(log2(P));
      int64_t want = rounds * T(p, 1, 1000);
      if ((P & (P - 1)) == 0) {
        assert_time(ops, r->makespan_ps, want, "%s P=%d: %ld ps, expected %d rounds = %ld",
                    ops->name, P, (long)r->makespan_ps, rounds, (long)want);
      } else if (ops->impl->caps & NETMODEL_CAP_ISOLATED_EXACT) {
        cr_assert_leq(r->makespan_ps, want);
        cr_assert_geq(r->makespan_ps, (rounds - 1) * T(p, 1, 1000));
      }
      cr_assert_eq(r->coll_messages, P - 1);
      cr_assert_eq(r->coll_bytes, (int64_t)(P - 1) * 1000);
      cr_assert_eq(r->p2p_messages, 0);
      cr_assert_eq(r->per_rank[0].coll_ps, r->per_rank[0].finish_ps);
      replay_result_free(r);
      trace_free(t);
      mapping_free(m);
      platform_free(p);
    }
  }
}

Test(replay, collective_algorithm_is_selectable)
{
  platform *p = complete_platform(8);
  mapping *m = mapping_identity(p, 8, NULL);
  trace *t = bcast_trace(8, 1000);
  replay_opts o;
  replay_opts_init(&o);
  o.collectives = "bcast=linear";
  replay_result *r = replay_run(t, p, m, netmodel_registry[0], &o, NULL);
  cr_assert_not_null(r);
  cr_assert_eq(r->makespan_ps, T(p, 1, 1000), "linear bcast: one round");
  replay_result_free(r);
  GError *e = NULL;
  o.collectives = "bcast=ring";
  cr_assert_null(replay_run(t, p, m, netmodel_registry[0], &o, &e));
  cr_assert_not_null(e);
  cr_assert(strstr(e->message, "ring"), "%s", e->message);
  g_clear_error(&e);
  trace_free(t);
  mapping_free(m);
  platform_free(p);
}

/* rank 0: compute 5us, Send; compute 7us, Recv. rank 1: compute 3us, Recv;
 * compute 2us, Send. With a free network: rank 1 gets the message at 5
 * (scaled: 5s), sends at 5s+2s; rank 0 posts at 12s: makespan 12 s us. */
static trace *gaps_trace(void)
{
  const int64_t us = 1000000;
  trace *t = trace_new(2);
  uint32_t rs = trace_add_region(t, "MPI_Send"), rr = trace_add_region(t, "MPI_Recv");
  call(t, 0, rs, TRACE_SEND, 5 * us, 1, 100);
  tu_push(t, 0, TRACE_ENTER, 12 * us, -1, 0, rr);
  tu_push(t, 0, TRACE_RECV, 20 * us, 1, 100, 7);
  tu_push(t, 0, TRACE_LEAVE, 20 * us, -1, 0, rr);
  tu_push(t, 1, TRACE_ENTER, 3 * us, -1, 0, rr);
  tu_push(t, 1, TRACE_RECV, 5 * us, 0, 100, 7);
  tu_push(t, 1, TRACE_LEAVE, 5 * us, -1, 0, rr);
  call(t, 1, rs, TRACE_SEND, 7 * us, 0, 100);
  return t;
}

Test(replay, computation_gaps_exact_on_free_network)
{
  platform *p = ini_platform(free_ini);
  mapping *m = two_apart();
  trace *t = gaps_trace();
  double scales[] = { 1.0, 2.0, 0.5, 0.0 };
  EACH_MODEL(ops) {
    for (int i = 0; i < 4; i++) {
      double s = scales[i];
      replay_result *r = run(t, p, m, ops, s);
      int64_t us = llround(1e6 * s);
      cr_assert_eq(r->makespan_ps, 12 * us, "%s scale %g: %ld", ops->name, s, (long)r->makespan_ps);
      cr_assert_eq(r->per_rank[0].compute_ps, 12 * us);
      cr_assert_eq(r->per_rank[1].compute_ps, 5 * us);
      cr_assert_eq(r->per_rank[1].finish_ps, 7 * us);
      cr_assert_eq(r->per_rank[1].wait_ps, 2 * us, "rank 1 waits from 3 to 5");
      cr_assert_eq(r->per_rank[1].p2p_ps, 2 * us);
      cr_assert_eq(r->p2p_cost_ps, 2 * us);
      cr_assert_eq(r->parallel_cost_ps, 2 * 12 * us);
      replay_result_free(r);
    }
  }
  trace_free(t);
  mapping_free(m);
  platform_free(p);
}

Test(replay, sendrecv_exchange_does_not_deadlock)
{
  /* both ranks: MPI_Sendrecv of a rendezvous message to each other */
  platform *p = ini_platform(mesh_ini);
  mapping *m = two_apart();
  trace *t = trace_new(2);
  uint32_t reg = trace_add_region(t, "MPI_Sendrecv");
  int64_t b = 1 << 20;
  for (int r = 0; r < 2; r++) {
    tu_push(t, r, TRACE_ENTER, 0, -1, 0, reg);
    tu_push(t, r, TRACE_SEND, 0, 1 - r, b, 7);
    tu_push(t, r, TRACE_RECV, 0, 1 - r, b, 7);
    tu_push(t, r, TRACE_LEAVE, 0, -1, 0, reg);
  }
  EACH_MODEL(ops) {
    replay_result *r = run(t, p, m, ops, 1.0);
    cr_assert_eq(r->stuck, 0);
    assert_time(ops, r->makespan_ps, 2 * T(p, 3, 0) + T(p, 3, b), "%s", ops->name);
    replay_result_free(r);
  }
  trace_free(t);
  mapping_free(m);
  platform_free(p);
}

/* Two ranks that both block in Recv first. */
static trace *deadlock_trace(void)
{
  trace *t = trace_new(2);
  uint32_t rs = trace_add_region(t, "MPI_Send"), rr = trace_add_region(t, "MPI_Recv");
  for (int r = 0; r < 2; r++) {
    call(t, r, rr, TRACE_RECV, 0, 1 - r, 8);
    call(t, r, rs, TRACE_SEND, 0, 1 - r, 8);
  }
  return t;
}

Test(replay, deadlock_reports_stuck_ranks)
{
  platform *p = ini_platform(mesh_ini);
  mapping *m = two_apart();
  trace *t = deadlock_trace();
  EACH_MODEL(ops) {
    replay_result *r = run(t, p, m, ops, 1.0);
    cr_assert_eq(r->stuck, 2);
    cr_assert(strstr(r->stuck_summary, "deadlock: 2 of 2 ranks"), "%s", r->stuck_summary);
    cr_assert(strstr(r->stuck_detail, "rank 0:"), "%s", r->stuck_detail);
    cr_assert(strstr(r->stuck_detail, "rank 1:"), "%s", r->stuck_detail);
    cr_assert(strstr(r->stuck_detail, "receive from rank 1 (comm 0, tag 7, 8 bytes)"), "%s",
              r->stuck_detail);
    cr_assert_null(r->out_trace);
    replay_result_free(r);
  }
  trace_free(t);
  mapping_free(m);
  platform_free(p);
}

/* 64 ranks in a ring, each receiving from r-1 before sending to r+1:
 * all stuck; the detail describes the first 8 and counts the 56 others
 * (one line per rank was 4,096 lines at 4,096 ranks). */
Test(replay, deadlock_of_many_ranks_shows_the_first_and_a_count)
{
  platform *p = ini_platform(mesh_ini);
  trace *t = trace_new(64);
  uint32_t rs = trace_add_region(t, "MPI_Send"), rr = trace_add_region(t, "MPI_Recv");
  for (int r = 0; r < 64; r++) {
    call(t, r, rr, TRACE_RECV, 0, (r + 63) % 64, 8);
    call(t, r, rs, TRACE_SEND, 0, (r + 1) % 64, 8);
  }
  GError *e = NULL;
  mapping *m = mapping_identity(p, 64, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  replay_result *r = run(t, p, m, netmodel_registry[0], 1.0);
  cr_assert_eq(r->stuck, 64);
  cr_assert(strstr(r->stuck_summary, "deadlock: 64 of 64 ranks"), "%s", r->stuck_summary);
  g_auto(GStrv) lines = g_strsplit(r->stuck_detail, "\n", -1);
  cr_assert_eq(g_strv_length(lines), 10, "%s", r->stuck_detail); /* 9 lines and "" */
  for (int i = 0; i < 8; i++) {
    g_autofree char *want = g_strdup_printf("  rank %d: ", i);
    cr_assert(g_str_has_prefix(lines[i], want), "line %d: %s", i, lines[i]);
  }
  cr_assert_str_eq(lines[8], "  ... and 56 more ranks that cannot progress");
  replay_result_free(r);
  mapping_free(m);
  trace_free(t);
  platform_free(p);
}

Test(replay, unmatched_rendezvous_send_is_reported)
{
  platform *p = ini_platform(mesh_ini);
  mapping *m = two_apart();
  trace *t = trace_new(2);
  call(t, 0, trace_add_region(t, "MPI_Send"), TRACE_SEND, 0, 1, 1 << 20);
  replay_result *r = run(t, p, m, netmodel_registry[0], 1.0);
  cr_assert_eq(r->stuck, 1);
  cr_assert(strstr(r->stuck_detail, "rendezvous send to rank 1"), "%s", r->stuck_detail);
  cr_assert(strstr(r->stuck_detail, "never matched"), "%s", r->stuck_detail);
  replay_result_free(r);
  trace_free(t);
  mapping_free(m);
  platform_free(p);
}

Test(replay, too_many_ranks_is_an_input_error)
{
  platform *p = tu_platform("torus:2x2x2");
  trace *t = trace_new(9);
  mapping *m = mapping_new(9);
  GError *e = NULL;
  cr_assert_null(replay_run(t, p, m, netmodel_registry[0], NULL, &e));
  cr_assert(g_error_matches(e, REPLAY_ERROR, REPLAY_ERROR_INPUT));
  cr_assert(strstr(e->message, "9 ranks"), "%s", e->message);
  g_error_free(e);
  mapping_free(m);
  trace_free(t);
  platform_free(p);
}

static const char *const scorep_traces[] = {
  "tracer-stencil4d-32", "tracer-stencil4d-64", "pipit-ping-pong-otf2",
  "casita-4_mpi_ls_barr", "casita-10_scorep_mpi_tags", "casita-2_jacobi_blame_cpu_015",
};

static trace *scorep_trace(const char *name)
{
  char *rel = g_build_filename("traces", name, "traces.otf2", NULL);
  char *path = tu_data(rel);
  GError *e = NULL;
  trace *t = trace_read_otf2(path, &e);
  cr_assert_not_null(t, "%s: %s", path, e ? e->message : "?");
  g_free(rel);
  g_free(path);
  return t;
}

Test(replay, scorep_traces_complete_and_match_static_metrics, .timeout = 300)
{
  platform *p = tu_platform("torus:4x4x4");
  for (size_t i = 0; i < G_N_ELEMENTS(scorep_traces); i++) {
    trace *t = scorep_trace(scorep_traces[i]);
    trace_summary s;
    trace_summarize(t, &s);
    commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
    mapping *m = mapping_identity(p, t->nranks, NULL);
    metrics *pre = metrics_compute(g, p, m);
    EACH_MODEL(ops) {
      replay_result *r = run(t, p, m, ops, 1.0);
      cr_assert_eq(r->stuck, 0, "%s/%s: %s", scorep_traces[i], ops->name,
                   r->stuck_summary ? r->stuck_summary : "");
      cr_assert_eq(r->p2p_bytes, s.p2p_bytes, "%s", scorep_traces[i]);
      cr_assert_eq(r->p2p_messages, s.p2p_messages, "%s", scorep_traces[i]);
      cr_assert_eq(r->events, s.events);
      cr_assert_eq(r->hop_bytes, pre->hop_bytes, "%s", scorep_traces[i]);
      for (int l = 0; l < pre->nlinks; l++)
        cr_assert_eq(r->link_bytes[l], pre->link_bytes[l], "%s link %d", scorep_traces[i], l);
      cr_assert_gt(r->makespan_ps, 0);
      if (s.collective_calls)
        cr_assert_gt(r->coll_messages, 0, "%s", scorep_traces[i]);
      replay_result_free(r);
    }
    metrics_free(pre);
    mapping_free(m);
    commgraph_free(g);
    trace_free(t);
  }
  platform_free(p);
}

Test(replay, output_trace_reads_back_with_same_messages, .timeout = 300)
{
  platform *p = tu_platform("torus:4x4x4");
  const char *names[] = { "tracer-stencil4d-32", "casita-2_jacobi_blame_cpu_015" };
  for (int i = 0; i < 2; i++) {
    trace *t = scorep_trace(names[i]);
    mapping *m = mapping_identity(p, t->nranks, NULL);
    replay_opts o;
    replay_opts_init(&o);
    o.record_times = TRUE;
    replay_result *r = replay_run(t, p, m, netmodel_registry[0], &o, NULL);
    cr_assert_not_null(r);
    cr_assert_not_null(r->out_trace);
    char *tmp = tu_tmp_dir();
    char *dir = g_build_filename(tmp, "out", NULL);
    GError *e = NULL;
    cr_assert(trace_write_otf2(r->out_trace, dir, NULL, &e), "%s", e ? e->message : "");
    char *anchor = g_build_filename(dir, "traces.otf2", NULL);
    trace *back = trace_read_otf2(anchor, &e);
    cr_assert_not_null(back, "%s", e ? e->message : "");
    trace_summary a, b;
    trace_summarize(t, &a);
    trace_summarize(back, &b);
    cr_assert_eq(b.p2p_messages, a.p2p_messages);
    cr_assert_eq(b.p2p_bytes, a.p2p_bytes);
    cr_assert_eq(b.collective_calls, a.collective_calls);
    cr_assert_eq(b.events, a.events);
    int64_t last = 0;
    for (int rk = 0; rk < back->nranks; rk++)
      if (back->ranks[rk].nevents)
        last = MAX(last, back->ranks[rk].events[back->ranks[rk].nevents - 1].time);
    cr_assert_eq(last, r->makespan_ps, "new timestamps end at the makespan");
    if (g_file_test("/usr/bin/otf2-print", G_FILE_TEST_IS_EXECUTABLE)) {
      char *out = NULL, *err = NULL;
      const char *argv[] = { "/usr/bin/otf2-print", anchor, NULL };
      cr_assert(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                             NULL, NULL));
      /* no definition otf2-print warns about (one COMM_SELF group) */
      cr_assert_null(strstr(err, "warning"), "otf2-print: %s", err);
      g_free(err);
      int64_t sends = tu_otf2_records(out, "MPI_SEND") + tu_otf2_records(out, "MPI_ISEND");
      int64_t recvs = tu_otf2_records(out, "MPI_RECV") + tu_otf2_records(out, "MPI_IRECV");
      cr_assert_eq(sends, a.p2p_messages, "otf2-print: %ld sends", (long)sends);
      cr_assert_eq(recvs, a.per_kind[TRACE_RECV] + a.per_kind[TRACE_IRECV]);
      g_free(out);
    }
    trace_free(back);
    tu_rm_rf(tmp);
    g_free(anchor);
    g_free(dir);
    g_free(tmp);
    replay_result_free(r);
    mapping_free(m);
    trace_free(t);
  }
  platform_free(p);
}

/* A bcast on a sub-communicator: the odd world ranks {1, 3, 5, 7}, root
 * world rank 3 (communicator rank 1). Binomial on 4 members: 3 messages,
 * exactly 2 rounds on the complete graph; the even ranks take no part. */
Test(replay, subcommunicator_bcast)
{
  platform *p = complete_platform(8);
  GError *e = NULL;
  mapping *m = mapping_identity(p, 8, &e);
  trace *t = trace_new(8);
  int members[4] = { 1, 3, 5, 7 };
  uint32_t odd = trace_add_comm(t, "odd", 4, members);
  uint32_t reg = trace_add_region(t, "MPI_Bcast");
  for (int i = 0; i < 4; i++) {
    int r = members[i];
    tu_push(t, r, TRACE_ENTER, 0, -1, 0, reg);
    tu_push(t, r, TRACE_COLL_BEGIN, 0, -1, 0, 0);
    trace_event ev = { .time = 0, .peer = 3, .op = COLL_BCAST, .kind = TRACE_COLL_END,
                       .comm = odd, .bytes = r == 3 ? 1000 : 0, .bytes_recv = r == 3 ? 0 : 1000 };
    trace_push(t, r, &ev);
    tu_push(t, r, TRACE_LEAVE, 0, -1, 0, reg);
  }
  EACH_MODEL(ops) {
    replay_result *r = run(t, p, m, ops, 1.0);
    cr_assert_eq(r->stuck, 0, "%s", ops->name);
    cr_assert_eq(r->coll_messages, 3, "%s", ops->name);
    cr_assert_eq(r->coll_bytes, 3000);
    assert_time(ops, r->makespan_ps, 2 * T(p, 1, 1000), "%s: %ld ps", ops->name,
                (long)r->makespan_ps);
    for (int w = 0; w < 8; w += 2)
      cr_assert_eq(r->per_rank[w].coll_ps, 0, "%s: even rank %d in the bcast", ops->name, w);
    cr_assert_gt(r->per_rank[7].coll_ps, 0);
    replay_result_free(r);
  }
  trace_free(t);
  mapping_free(m);
  platform_free(p);
}

/* --preset smpi on a lone message (analytic and flow, routing/platform.h):
 * latency 3 x (1 us + 0.1 us) times lat_factor(wire), wire = payload + 16,
 * at bandwidth min(1e9, gamma / (2 x 3.3 us)) times bw_factor(wire). By
 * hand from SimGrid's tables: 1016 wire bytes get 1.9503 and 0.341987
 * (the values of threshold 732); 100016 get 11.6436 and 0.940694 (of
 * 65472); gamma 3300 bounds the rate at 5e8 bytes/s. */
Test(replay, smpi_factors_ping_pong)
{
  platform *p = ini_platform(mesh_ini);
  GError *e = NULL;
  cr_assert(platform_apply_preset(p, "smpi", &e));
  mapping *m = two_apart();
  struct {
    int64_t bytes;
    double gamma, want_one_way;
  } cases[] = {
    { 1000, 4194304, 3.3e-6 * 1.9503 + 1016 / (1e9 * 0.341987) },
    { 100000, 3300, 3.3e-6 * 11.6436 + 100016 / (5e8 * 0.940694) },
  };
  const char *models[] = { "analytic", "flow" };
  for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
    p->model.tcp_gamma = cases[c].gamma;
    for (size_t k = 0; k < G_N_ELEMENTS(models); k++) {
      const struct netmodel_ops *ops = netmodel_find(models[k]);
      cr_assert_not_null(ops);
      trace *t = ping_pong(cases[c].bytes);
      replay_result *r = run(t, p, m, ops, 1.0);
      double want = 2 * cases[c].want_one_way * 1e12;
      cr_assert(fabs((double)r->makespan_ps - want) <= 4, "%s, %ld bytes: %ld ps, expected %.1f",
                models[k], (long)cases[c].bytes, (long)r->makespan_ps, want);
      replay_result_free(r);
      trace_free(t);
    }
  }
  mapping_free(m);
  platform_free(p);
}
