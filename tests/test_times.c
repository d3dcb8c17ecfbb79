/* test_times.c - where traced time goes (trace_time_split) on a
 * hand-built trace, and the simulated split of the same trace next to it:
 * computation is replayed as traced, MPI_Init/Finalize are not. */
#include "sim/run.h"
#include "testutil.h"

#define US 1000000 /* ps per microsecond */

static void rec(trace *t, int rank, int kind, int64_t time, uint32_t region_or_tag, int peer,
                int64_t bytes)
{
  trace_event e = { .time = time, .bytes = bytes, .peer = peer, .kind = (uint8_t)kind };
  e.region = region_or_tag;
  e.comm = t->world;
  trace_push(t, rank, &e);
}

/* Two ranks: compute 5 us, MPI_Init 100 us, compute 10 us, a 4-byte
 * message from 0 to 1 (MPI_Send 115..120 us / MPI_Recv 115..121 us),
 * compute 2 us, MPI_Barrier (8 us), MPI_Finalize 70 us. */
static trace *hand_trace(void)
{
  trace *t = trace_new(2);
  uint32_t init = trace_add_region(t, "MPI_Init"), fin = trace_add_region(t, "MPI_Finalize");
  uint32_t send = trace_add_region(t, "MPI_Send"), recv = trace_add_region(t, "MPI_Recv");
  uint32_t bar = trace_add_region(t, "MPI_Barrier");
  for (int r = 0; r < 2; r++) {
    rec(t, r, TRACE_ENTER, 5 * US, init, -1, 0);
    rec(t, r, TRACE_LEAVE, 105 * US, init, -1, 0);
    rec(t, r, TRACE_ENTER, 115 * US, r ? recv : send, -1, 0);
    rec(t, r, r ? TRACE_RECV : TRACE_SEND, 116 * US, 0, 1 - r, 4);
    rec(t, r, TRACE_LEAVE, (r ? 121 : 120) * US, r ? recv : send, -1, 0);
    rec(t, r, TRACE_ENTER, (r ? 123 : 122) * US, bar, -1, 0);
    trace_event ce = { .time = 125 * US, .peer = -1, .comm = t->world, .kind = TRACE_COLL_END };
    ce.op = COLL_BARRIER;
    trace_push(t, r, &ce);
    rec(t, r, TRACE_LEAVE, 130 * US, bar, -1, 0);
    rec(t, r, TRACE_ENTER, 130 * US, fin, -1, 0);
    rec(t, r, TRACE_LEAVE, 200 * US, fin, -1, 0);
  }
  t->duration_ps = 200 * US;
  return t;
}

Test(times, traced_split_by_hand)
{
  trace *t = hand_trace();
  trace_times tt;
  trace_time_split(t, &tt);
  cr_assert_eq(tt.duration_ps, 200 * US);
  /* per rank 5 + 10 + 2 us outside MPI */
  cr_assert_eq(tt.compute_ps, 2 * 17 * US);
  /* Send 5 us + Recv 6 us */
  cr_assert_eq(tt.p2p_ps, (5 + 6) * US);
  /* Barrier 8 + 7 us */
  cr_assert_eq(tt.coll_ps, (8 + 7) * US);
  /* Init 100 + Finalize 70 us per rank, all of it setup */
  cr_assert_eq(tt.other_mpi_ps, 2 * 170 * US);
  cr_assert_eq(tt.setup_ps, 2 * 170 * US);
  trace_free(t);
}

/* The replay keeps the computation and re-times MPI: with no overheads and
 * 10 ps links, Init and Finalize cost nothing. */
Test(times, simulated_split_keeps_compute_drops_setup)
{
  trace *t = hand_trace();
  platform *p = tu_platform("torus:2");
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  run_inputs in = { .p = p, .g = g, .t = t };
  run_spec spec;
  run_spec_init(&spec);
  spec.model = netmodel_find("analytic");
  GError *e = NULL;
  run_result *res = run_cell(&in, &spec, &e);
  cr_assert_not_null(res, "%s", e ? e->message : "");
  cr_assert_eq(res->times.compute_ps, 2 * 17 * US);
  cr_assert_eq(res->times.other_mpi_ps, 0, "Init/Finalize are not replayed");
  cr_assert_lt(res->times.makespan_ps, 20 * US, "17 us of computation plus tiny messages");
  cr_assert_geq(res->times.makespan_ps, 17 * US);
  run_result_free(res);
  commgraph_free(g);
  platform_free(p);
  trace_free(t);
}
