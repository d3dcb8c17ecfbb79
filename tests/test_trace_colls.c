/* test_trace_colls.c - a trace's collective calls kept as runs of
 * identical calls (memory flat in the trace's length) and expanded once
 * per run, against the expansion of every call by itself. */
#include <criterion/criterion.h>

#include "traces/collectives.h"
#include "traces/trace-colls.h"
#include "traces/trace.h"

#define P 4

/* The edge arrays trace_colls_expand fills. */
typedef struct edges {
  GArray *src, *dst, *bytes, *msgs;
} edges;

static edges edges_new(void)
{
  return (edges){ g_array_new(FALSE, FALSE, sizeof(int)), g_array_new(FALSE, FALSE, sizeof(int)),
                  g_array_new(FALSE, FALSE, sizeof(int64_t)),
                  g_array_new(FALSE, FALSE, sizeof(int64_t)) };
}

static void edges_free(edges *e)
{
  g_array_free(e->src, TRUE);
  g_array_free(e->dst, TRUE);
  g_array_free(e->bytes, TRUE);
  g_array_free(e->msgs, TRUE);
}

/* Rank r's calls: n1 allreduces of 64 bytes, one of 128, n2 of 64. */
static void add_calls(trace_colls *c, trace *t, int r, int n1, int n2)
{
  trace_event e = { .peer = -1, .op = COLL_ALLREDUCE, .kind = TRACE_COLL_END, .comm = 0 };
  for (int i = 0; i < n1 + 1 + n2; i++) {
    e.bytes = i == n1 ? 128 : 64;
    trace_colls_add(c, r, &e);
  }
  (void)t;
}

/* The pair sums of one call of 64 bytes per member x `times`, plus one of
 * 128, straight from the schedule. */
static void expected_sums(int64_t times, int64_t bytes[P][P], int64_t msgs[P][P])
{
  coll_choice choice;
  cr_assert(coll_choice_parse(&choice, NULL, NULL));
  for (int size = 64; size <= 128; size += 64) {
    int64_t b[P] = { size, size, size, size };
    GArray *m = g_array_new(FALSE, FALSE, sizeof(coll_msg));
    cr_assert(coll_schedule_choice(&choice, COLL_ALLREDUCE, P, 0, b, m, NULL));
    int64_t n = size == 64 ? times : 1;
    for (guint i = 0; i < m->len; i++) {
      const coll_msg *cm = &g_array_index(m, coll_msg, i);
      bytes[cm->src][cm->dst] += cm->bytes * n;
      msgs[cm->src][cm->dst] += n;
    }
    g_array_free(m, TRUE);
  }
}

Test(trace_colls, runs_flat_and_expanded_once_per_run)
{
  trace *t = trace_new(P);
  trace_colls *small = trace_colls_new(P, t->ncomms), *big = trace_colls_new(P, t->ncomms);
  for (int r = 0; r < P; r++) {
    add_calls(small, t, r, 10, 10);
    add_calls(big, t, r, 100000, 100000);
  }
  /* three runs per rank whatever the length */
  cr_assert_eq(trace_colls_bytes(small), trace_colls_bytes(big));

  int64_t contrib[P];
  int root, op;
  cr_assert_eq(trace_colls_call(big, t, 0, 100000, contrib, &root, &op), P);
  cr_assert_eq(contrib[2], 128);
  cr_assert_eq(op, COLL_ALLREDUCE);
  cr_assert_eq(trace_colls_call(big, t, 0, 100001, contrib, &root, &op), P);
  cr_assert_eq(contrib[3], 64);
  cr_assert_eq(trace_colls_call(big, t, 0, 200001, contrib, &root, &op), 0);

  coll_choice choice;
  cr_assert(coll_choice_parse(&choice, NULL, NULL));
  edges ed = edges_new();
  GArray *src = ed.src, *dst = ed.dst, *bytes = ed.bytes, *msgs = ed.msgs;
  cr_assert(trace_colls_expand(big, t, &choice, src, dst, bytes, msgs, NULL));
  int64_t want_b[P][P] = { { 0 } }, want_m[P][P] = { { 0 } }, got_b[P][P] = { { 0 } },
          got_m[P][P] = { { 0 } };
  expected_sums(200000, want_b, want_m);
  for (guint i = 0; i < src->len; i++) {
    int s = g_array_index(src, int, i), d = g_array_index(dst, int, i);
    cr_assert_eq(got_m[s][d], 0, "pair %d->%d listed twice", s, d);
    got_b[s][d] = g_array_index(bytes, int64_t, i);
    got_m[s][d] = g_array_index(msgs, int64_t, i);
  }
  int pairs = 0;
  for (int s = 0; s < P; s++)
    for (int d = 0; d < P; d++) {
      cr_assert_eq(got_b[s][d], want_b[s][d], "%d->%d bytes", s, d);
      cr_assert_eq(got_m[s][d], want_m[s][d], "%d->%d messages", s, d);
      pairs += want_m[s][d] > 0;
    }
  cr_assert_eq((int)src->len, pairs);
  cr_assert_gt(pairs, 0);
  edges_free(&ed);
  trace_colls_free(small);
  trace_colls_free(big);
  trace_free(t);
}

/* A member with fewer calls ends the communicator's expansion there, and
 * a run cut short by it is counted only up to that member's last call. */
Test(trace_colls, shortest_member_ends_expansion)
{
  trace *t = trace_new(P);
  trace_colls *c = trace_colls_new(P, t->ncomms);
  for (int r = 0; r < P; r++)
    add_calls(c, t, r, r == 1 ? 3 : 50, 0);
  coll_choice choice;
  cr_assert(coll_choice_parse(&choice, NULL, NULL));
  edges ed = edges_new();
  GArray *src = ed.src, *dst = ed.dst, *bytes = ed.bytes, *msgs = ed.msgs;
  cr_assert(trace_colls_expand(c, t, &choice, src, dst, bytes, msgs, NULL));
  /* rank 1 made 4 calls (3 of 64, one of 128): 4 calls of everyone count,
   * the 4th of the others being a 64 one against rank 1's 128 */
  int64_t total = 0;
  for (guint i = 0; i < msgs->len; i++)
    total += g_array_index(msgs, int64_t, i);
  int64_t b[P] = { 64, 64, 64, 64 };
  GArray *m = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  cr_assert(coll_schedule_choice(&choice, COLL_ALLREDUCE, P, 0, b, m, NULL));
  cr_assert_eq(total, 4 * (int64_t)m->len);
  g_array_free(m, TRUE);
  edges_free(&ed);
  trace_colls_free(c);
  trace_free(t);
}

/* A communicator naming a rank the trace does not define (the OTF2 reader
 * gives it -1) has no complete call: nothing is expanded, nothing read out
 * of bounds (an OTF2 fuzz input). */
Test(trace_colls, undefined_member_makes_no_call)
{
  trace *t = trace_new(P);
  uint32_t comm = trace_add_comm(t, "odd", 2, (const int[]){ 0, -1 });
  trace_colls *c = trace_colls_new(P, t->ncomms);
  trace_event e = { .peer = -1, .op = COLL_ALLREDUCE, .kind = TRACE_COLL_END, .comm = comm,
                    .bytes = 8 };
  trace_colls_add(c, 0, &e);
  int64_t contrib[2];
  int root, op;
  cr_assert_eq(trace_colls_call(c, t, comm, 0, contrib, &root, &op), 1);
  coll_choice choice;
  cr_assert(coll_choice_parse(&choice, NULL, NULL));
  edges ed = edges_new();
  GArray *src = ed.src, *dst = ed.dst, *bytes = ed.bytes, *msgs = ed.msgs;
  cr_assert(trace_colls_expand(c, t, &choice, src, dst, bytes, msgs, NULL));
  cr_assert_eq(src->len, 0);
  edges_free(&ed);
  trace_colls_free(c);
  trace_free(t);
}
