/* test_collectives.c - collective schedules against closed forms: round
 * and message counts, bytes delivered, and the dependency rule (a rank
 * forwards data in round k only what it received before round k). */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "traces/collectives.h"
#include "traces/collectives-private.h"

static const int sizes[] = { 1, 2, 3, 5, 6, 8, 13, 16, 64 };

static int clog2(int P)
{
  int l = 0;
  while ((1 << l) < P)
    l++;
  return l;
}

static GArray *sched(coll_op op, const char *algo, int P, int root, const int64_t *bytes)
{
  GArray *a = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  GError *e = NULL;
  cr_assert(coll_schedule(op, algo, P, root, bytes, a, &e), "%s P=%d: %s", algo, P,
            e ? e->message : "");
  return a;
}

static int rounds(GArray *a)
{
  return coll_nrounds((coll_msg *)a->data, a->len);
}

/* bytes received per rank (caller frees) */
static int64_t *received(GArray *a, int P)
{
  int64_t *r = g_new0(int64_t, P);
  for (guint i = 0; i < a->len; i++)
    r[g_array_index(a, coll_msg, i).dst] += g_array_index(a, coll_msg, i).bytes;
  return r;
}

/* to-all trees: a rank sends only after it received (root: always) */
static void assert_tree_order(GArray *a, int P, int root)
{
  int *got = g_new(int, P);
  for (int r = 0; r < P; r++)
    got[r] = r == root ? -1 : G_MAXINT;
  for (guint i = 0; i < a->len; i++) {
    coll_msg *m = &g_array_index(a, coll_msg, i);
    cr_assert_lt(got[m->src], m->round, "rank %d sends in round %d before receiving", m->src,
                 m->round);
    cr_assert_eq(got[m->dst], G_MAXINT, "rank %d receives twice", m->dst);
    got[m->dst] = m->round;
  }
  for (int r = 0; r < P; r++)
    cr_assert_neq(got[r], G_MAXINT, "rank %d never reached", r);
  g_free(got);
}

Test(collectives, binomial_bcast)
{
  for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int P = sizes[i], root = P / 2;
    int64_t *b = g_new0(int64_t, P);
    b[root] = 1000;
    GArray *a = sched(COLL_BCAST, "binomial", P, root, b);
    cr_assert_eq(rounds(a), clog2(P), "P=%d", P);
    cr_assert_eq(a->len, (guint)P - 1);
    assert_tree_order(a, P, root);
    for (guint k = 0; k < a->len; k++)
      cr_assert_eq(g_array_index(a, coll_msg, k).bytes, 1000);
    g_array_free(a, TRUE);
    g_free(b);
  }
}

Test(collectives, binomial_scatter_gather_reduce)
{
  for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int P = sizes[i], root = P - 1;
    int64_t *b = g_new(int64_t, P), others = 0;
    for (int r = 0; r < P; r++) {
      b[r] = 10 * (r + 1);
      others += r == root ? 0 : b[r];
    }
    GArray *s = sched(COLL_SCATTER, "binomial", P, root, b);
    assert_tree_order(s, P, root);
    int64_t *rs = received(s, P), out = 0;
    for (guint k = 0; k < s->len; k++)
      out += g_array_index(s, coll_msg, k).src == root ? g_array_index(s, coll_msg, k).bytes : 0;
    cr_assert_eq(out, others, "scatter P=%d: root sends all blocks once", P);
    /* a leaf receives exactly its block */
    g_free(rs);
    GArray *g = sched(COLL_GATHER, "binomial", P, root, b);
    int64_t *rg = received(g, P);
    cr_assert_eq(rg[root], others, "gather P=%d: every block reaches the root", P);
    cr_assert_eq(g->len, (guint)P - 1);
    cr_assert_eq(rounds(g), clog2(P));
    GArray *rd = sched(COLL_REDUCE, "binomial", P, root, b);
    cr_assert_eq(rd->len, (guint)P - 1);
    cr_assert_eq(rounds(rd), clog2(P));
    for (guint k = 0; k < rd->len; k++)
      cr_assert_neq(g_array_index(rd, coll_msg, k).src, root);
    g_free(rg);
    g_array_free(s, TRUE);
    g_array_free(g, TRUE);
    g_array_free(rd, TRUE);
    g_free(b);
  }
}

Test(collectives, ring_allgather)
{
  for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int P = sizes[i];
    int64_t *b = g_new(int64_t, P), total = 0;
    for (int r = 0; r < P; r++)
      total += b[r] = r + 1;
    GArray *a = sched(COLL_ALLGATHER, "ring", P, 0, b);
    cr_assert_eq(rounds(a), P - 1, "P=%d", P);
    cr_assert_eq(a->len, (guint)(P * (P - 1)));
    int64_t *rc = received(a, P);
    for (int r = 0; r < P; r++)
      cr_assert_eq(rc[r], total - b[r], "P=%d rank %d gets every other block once", P, r);
    g_free(rc);
    g_array_free(a, TRUE);
    g_free(b);
  }
}

Test(collectives, recursive_doubling)
{
  int P = 16;
  int64_t b[16];
  for (int r = 0; r < P; r++)
    b[r] = 4;
  GArray *ag = sched(COLL_ALLGATHER, "recursive_doubling", P, 0, b);
  cr_assert_eq(rounds(ag), 4);
  cr_assert_eq(ag->len, 16u * 4);
  int64_t *rc = received(ag, P);
  for (int r = 0; r < P; r++)
    cr_assert_eq(rc[r], 15 * 4);
  g_free(rc);
  GArray *ar = sched(COLL_ALLREDUCE, "recursive_doubling", 6, 0, b);
  /* p2 = 4, 2 extra ranks: fold-in round + 2 doubling rounds + result round */
  cr_assert_eq(rounds(ar), 4);
  cr_assert_eq(ar->len, 2u + 4 * 2 + 2);
  GError *e = NULL;
  GArray *x = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  cr_assert_not(coll_schedule(COLL_ALLGATHER, "recursive_doubling", 6, 0, b, x, &e));
  cr_assert(strstr(e->message, "power-of-two"));
  cr_assert_eq(x->len, 0);
  g_clear_error(&e);
  g_array_free(x, TRUE);
  g_array_free(ag, TRUE);
  g_array_free(ar, TRUE);
}

Test(collectives, ring_allreduce)
{
  int P = 8;
  int64_t b[8];
  for (int r = 0; r < P; r++)
    b[r] = 8000;
  GArray *a = sched(COLL_ALLREDUCE, "ring", P, 0, b);
  cr_assert_eq(rounds(a), 2 * (P - 1));
  cr_assert_eq(a->len, (guint)(2 * P * (P - 1)));
  int64_t *rc = received(a, P);
  for (int r = 0; r < P; r++)
    cr_assert_eq(rc[r], 2 * (P - 1) * 8000 / P);  /* 2 (P-1)/P n */
  g_free(rc);
  g_array_free(a, TRUE);
}

Test(collectives, barrier_alltoall_scan)
{
  for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
    int P = sizes[i];
    GArray *d = sched(COLL_BARRIER, "dissemination", P, 0, NULL);
    cr_assert_eq(rounds(d), clog2(P));
    cr_assert_eq(d->len, (guint)(P * clog2(P)));
    int64_t *b = g_new(int64_t, P);
    for (int r = 0; r < P; r++)
      b[r] = 100 * P;
    GArray *a = sched(COLL_ALLTOALL, "pairwise", P, 0, b);
    cr_assert_eq(rounds(a), P - 1);
    cr_assert_eq(a->len, (guint)(P * (P - 1)));
    for (guint k = 0; k < a->len; k++)
      cr_assert_eq(g_array_index(a, coll_msg, k).bytes, 100);
    GArray *s = sched(COLL_SCAN, "chain", P, 0, b);
    cr_assert_eq(rounds(s), P - 1);
    cr_assert_eq(s->len, (guint)P - 1);
    g_array_free(d, TRUE);
    g_array_free(a, TRUE);
    g_array_free(s, TRUE);
    g_free(b);
  }
}

Test(collectives, auto_and_errors)
{
  int64_t small[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
  int64_t large[8] = { 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20 };
  cr_assert_str_eq(coll_algo_auto(COLL_ALLREDUCE, 8, small)->name, "recursive_doubling");
  cr_assert_str_eq(coll_algo_auto(COLL_ALLREDUCE, 8, large)->name, "ring");
  cr_assert_str_eq(coll_algo_auto(COLL_ALLGATHER, 6, small)->name, "ring");
  cr_assert_str_eq(coll_algo_auto(COLL_BCAST, 8, small)->name, "binomial");
  cr_assert_str_eq(coll_algo_auto(COLL_BARRIER, 8, NULL)->name, "dissemination");
  cr_assert_str_eq(coll_algo_auto(COLL_ALLTOALLV, 8, small)->name, "pairwise");
  GArray *a = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  GError *e = NULL;
  cr_assert_not(coll_schedule(COLL_BCAST, "ring", 8, 0, small, a, &e));
  cr_assert(strstr(e->message, "does not implement"));
  g_clear_error(&e);
  cr_assert_not(coll_schedule(COLL_BCAST, "bogus", 8, 0, small, a, &e));
  cr_assert(strstr(e->message, "unknown"));
  g_clear_error(&e);
  cr_assert_not(coll_schedule(COLL_OTHER, NULL, 8, 0, small, a, &e));
  g_clear_error(&e);
  cr_assert_eq(a->len, 0);
  coll_op op;
  cr_assert(coll_op_from_name("reduce_scatter_block", &op));
  cr_assert_eq(op, COLL_REDUCE_SCATTER_BLOCK);
  cr_assert_str_eq(coll_op_name(COLL_OTHER), "other");
  g_array_free(a, TRUE);
}

/* Score-P's counts for rank me of P, by hand from scorep_mpi_coll_bytes_*
 * (Score-P 8; the same in SCOREP_Mpi_Coll.c since 1.x), and back. */
typedef struct {
  coll_op op;
  int P, me;
  gboolean root;
  int64_t contrib, sent, recvd;  /* not in place */
} record_case;

static const record_case records[] = {
  { COLL_BARRIER, 8, 3, FALSE, 0, 0, 0 },
  { COLL_BCAST, 8, 7, TRUE, 40, 320, 40 },
  { COLL_BCAST, 8, 3, FALSE, 40, 0, 40 },
  { COLL_SCATTER, 4, 0, TRUE, 100, 400, 100 },
  { COLL_SCATTER, 4, 2, FALSE, 100, 0, 100 },
  { COLL_SCATTERV, 8, 5, FALSE, 24, 0, 24 },
  { COLL_GATHER, 4, 0, TRUE, 100, 100, 400 },
  { COLL_GATHER, 4, 1, FALSE, 100, 100, 0 },
  { COLL_REDUCE, 16, 0, TRUE, 8, 8, 128 },
  { COLL_REDUCE, 16, 9, FALSE, 8, 8, 0 },
  { COLL_GATHERV, 8, 3, FALSE, 16, 16, 0 },
  { COLL_ALLGATHER, 8, 2, FALSE, 12, 96, 96 },
  { COLL_ALLREDUCE, 8, 3, FALSE, 24, 192, 192 },  /* tracer_app: 3 doubles */
  { COLL_ALLREDUCE, 2, 0, FALSE, 4, 8, 8 },        /* the jacobi trace: one float */
  { COLL_ALLTOALL, 8, 1, FALSE, 64, 64, 64 },
  { COLL_REDUCE_SCATTER_BLOCK, 4, 1, FALSE, 400, 400, 400 },
  { COLL_SCAN, 8, 3, FALSE, 8, 40, 32 },           /* tracer_app: one double */
  { COLL_SCAN, 8, 0, FALSE, 8, 64, 8 },
  { COLL_SCAN, 8, 7, FALSE, 8, 8, 64 },
  { COLL_EXSCAN, 8, 3, FALSE, 8, 32, 24 },
  { COLL_EXSCAN, 8, 0, FALSE, 8, 56, 0 },
  { COLL_ALLREDUCE, 1, 0, FALSE, 24, 24, 24 },     /* a communicator of one */
};

Test(collectives, score_p_counts_both_ways)
{
  for (size_t i = 0; i < G_N_ELEMENTS(records); i++) {
    const record_case *c = &records[i];
    int64_t s, r = -1;
    coll_record_of_contrib(c->op, c->P, c->me, c->root, c->contrib, &s, &r);
    cr_assert(s == c->sent && r == c->recvd, "%s P=%d me=%d: %ld / %ld, expected %ld / %ld",
              coll_op_name(c->op), c->P, c->me, (long)s, (long)r, (long)c->sent,
              (long)c->recvd);
    cr_assert_eq(coll_contrib_of_record(c->op, c->P, c->me, c->root, c->sent, c->recvd),
                 c->contrib, "%s P=%d me=%d", coll_op_name(c->op), c->P, c->me);
  }
}

/* Receive counts that depend on the other ranks' blocks are left alone;
 * the record gives the rank's own share back. */
Test(collectives, score_p_counts_of_v_collectives)
{
  /* gatherv root of 8, blocks 4(r+1): own 4, all 144 */
  int64_t s, r = 144;
  coll_record_of_contrib(COLL_GATHERV, 8, 0, TRUE, 4, &s, &r);
  cr_assert(s == 4 && r == 144);
  /* allgatherv at rank 2: sends 8 x its 12-byte block, receives all 144 */
  coll_record_of_contrib(COLL_ALLGATHERV, 8, 2, FALSE, 12, &s, &r);
  cr_assert(s == 96 && r == 144);
  cr_assert_eq(coll_contrib_of_record(COLL_ALLGATHERV, 8, 2, FALSE, 96, 144), 12);
  /* alltoallv: everything sent is the contribution */
  r = 60;
  coll_record_of_contrib(COLL_ALLTOALLV, 8, 3, FALSE, 64, &s, &r);
  cr_assert(s == 64 && r == 60);
  cr_assert_eq(coll_contrib_of_record(COLL_ALLTOALLV, 8, 3, FALSE, 64, 60), 64);
  /* reduce_scatter of a 400-byte vector, own block 40: the contribution is
   * the block (Score-P records P x it received), or without a received
   * count the vector's P-th part; written back as P blocks like it */
  cr_assert_eq(coll_contrib_of_record(COLL_REDUCE_SCATTER, 4, 1, FALSE, 400, 160), 40);
  cr_assert_eq(coll_contrib_of_record(COLL_REDUCE_SCATTER, 4, 1, FALSE, 400, 0), 100);
  coll_record_of_contrib(COLL_REDUCE_SCATTER, 4, 1, FALSE, 40, &s, &r);
  cr_assert(s == 160 && r == 160);
  /* scatterv root of 8: its own 4 bytes (the others' blocks it does not
   * contribute to the schedule) */
  cr_assert_eq(coll_contrib_of_record(COLL_SCATTERV, 8, 0, TRUE, 144, 4), 4);
  /* saturation instead of wrapping */
  coll_record_of_contrib(COLL_ALLREDUCE, 1 << 20, 0, FALSE, INT64_MAX / 2, &s, &r);
  cr_assert(s == INT64_MAX && r == INT64_MAX);
}

/* MPI_IN_PLACE: what the counts show is undone; what they hide (an
 * allreduce) reads as (P-1)/P of the vector, as collectives.h says. */
Test(collectives, score_p_counts_in_place)
{
  /* gather/reduce root in place: 0 sent, (P-1) blocks received */
  cr_assert_eq(coll_contrib_of_record(COLL_GATHER, 4, 0, TRUE, 0, 300), 100);
  cr_assert_eq(coll_contrib_of_record(COLL_REDUCE, 16, 0, TRUE, 0, 120), 8);
  /* scatter root in place: (P-1) blocks sent, nothing received */
  cr_assert_eq(coll_contrib_of_record(COLL_SCATTER, 4, 0, TRUE, 300, 0), 100);
  /* scan in place, one double: (P-me-1)*8 / me*8 */
  for (int me = 0; me < 8; me++)
    cr_assert_eq(coll_contrib_of_record(COLL_SCAN, 8, me, FALSE, (7 - me) * 8, me * 8), 8,
                 "me %d", me);
  /* odd P: the middle rank of an in-place scan looks plain */
  cr_assert_eq(coll_contrib_of_record(COLL_SCAN, 7, 3, FALSE, 3 * 8, 3 * 8), 6);
  /* allreduce in place, 3 doubles on 8 ranks: 7 x 24 recorded, 21 read */
  cr_assert_eq(coll_contrib_of_record(COLL_ALLREDUCE, 8, 3, FALSE, 168, 168), 21);
}

/* reduce_scatter with the blocks of SimGrid's example (275427 x 3 and
 * 204020 elements): pairwise sends each rank its own block from every
 * other, P-1 times; "smpi" is pairwise for these unequal blocks (SMPI's
 * reduce_scatter__mpich_pair) and, for equal ones, a reduce of the whole
 * vector to rank 0 then a scatter of the blocks (reduce + scatterv) */
Test(collectives, reduce_scatter_blocks_are_each_ranks_own)
{
  const int64_t blocks[4] = { 275427, 275427, 275427, 204020 };
  const int64_t vec = 3 * 275427 + 204020;
  const char *algos[] = { "pairwise", "smpi" };
  for (int a = 0; a < 2; a++) {
    GArray *s = sched(COLL_REDUCE_SCATTER, algos[a], 4, 0, blocks);
    cr_assert_eq(rounds(s), 3, "%s", algos[a]);
    cr_assert_eq(s->len, 12, "%s", algos[a]);
    for (guint i = 0; i < s->len; i++) {
      coll_msg *m = &g_array_index(s, coll_msg, i);
      cr_assert_eq(m->dst, (m->src + m->round + 1) % 4);
      cr_assert_eq(m->bytes, blocks[m->dst], "%s: %d -> %d", algos[a], m->src, m->dst);
    }
    int64_t *got = received(s, 4);
    for (int r = 0; r < 4; r++)
      cr_assert_eq(got[r], 3 * blocks[r]);
    g_free(got);
    g_array_free(s, TRUE);
  }
  const int64_t equal[4] = { 100, 100, 100, 100 };
  GArray *s = sched(COLL_REDUCE_SCATTER, "smpi", 4, 0, equal);
  cr_assert_eq(rounds(s), 2);
  int64_t *got = received(s, 4);
  cr_assert_eq(got[0], 3 * 400);
  for (int r = 1; r < 4; r++)
    cr_assert_eq(got[r], 100);
  g_free(got);
  g_array_free(s, TRUE);
  /* redbcast on the unequal blocks: the vector to 0, each block back */
  s = sched(COLL_REDUCE_SCATTER, "redbcast", 4, 0, blocks);
  got = received(s, 4);
  cr_assert_eq(got[0], 3 * vec);
  for (int r = 1; r < 4; r++)
    cr_assert_eq(got[r], blocks[r]);
  g_free(got);
  g_array_free(s, TRUE);
}
