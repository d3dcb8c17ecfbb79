/* test_synth.c - synthetic traces: closed-form message counts per
 * pattern, write -> read round trips (every field of every event), the
 * archives pass otf2-print, same options give the same bytes, the bundled
 * traces in traces/data read back, and bad options fail with one line. */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "testutil.h"
#include "traces/commgraph-private.h"
#include "traces/synth.h"

static trace *build(const char *pattern, int ranks, const char *dims, gboolean periodic,
                    int points, gboolean nonblocking, int iterations)
{
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = pattern;
  o.ranks = ranks;
  o.periodic = periodic;
  o.points = points;
  o.nonblocking = nonblocking;
  o.iterations = iterations;
  o.gap_random = TRUE;
  o.seed = 42;
  if (dims)
    sscanf(dims, "%dx%dx%dx%d", &o.dims[0], &o.dims[1], &o.dims[2], &o.dims[3]);
  GError *e = NULL;
  trace *t = synth_build(&o, &e);
  cr_assert(t, "%s: %s", pattern, e ? e->message : "");
  return t;
}

static int64_t p2p(const trace *t, trace_summary *s)
{
  trace_summarize(t, s);
  cr_assert_eq(s->unmatched_sends + s->unmatched_recvs + s->mismatched_bytes, 0);
  return s->p2p_messages;
}

Test(synth, closed_forms)
{
  trace_summary s;
  trace *t = build("stencil3d", 64, "4x4x4", TRUE, 0, FALSE, 3);
  cr_assert_eq(p2p(t, &s), 64 * 6 * 3);
  trace_free(t);
  /* open 4x4x4: per dim and direction 3*16 pairs of neighbours */
  t = build("stencil3d", 64, "4x4x4", FALSE, 0, TRUE, 2);
  cr_assert_eq(p2p(t, &s), 2 * (3 * 2 * 48));
  trace_free(t);
  t = build("stencil2d", 16, "4x4", TRUE, 9, FALSE, 1);
  cr_assert_eq(p2p(t, &s), 16 * 8);
  trace_free(t);
  t = build("stencil4d", 16, "2x2x2x2", FALSE, 0, FALSE, 1);
  cr_assert_eq(p2p(t, &s), 16 * 4);
  trace_free(t);
  t = build("ring", 8, NULL, FALSE, 0, FALSE, 5);
  cr_assert_eq(p2p(t, &s), 40);
  trace_free(t);
  t = build("alltoall", 12, NULL, FALSE, 0, TRUE, 2);
  cr_assert_eq(p2p(t, &s), 2 * 12 * 11);
  trace_free(t);
  /* pingpong, 5 ranks: pairs 0-1 and 2-3 (4 idles), 2 messages per pair
   * and iteration; the even rank sends first, the odd one receives first */
  t = build("pingpong", 5, NULL, FALSE, 0, FALSE, 3);
  cr_assert_eq(p2p(t, &s), 3 * 2 * 2);
  cr_assert_eq(t->ranks[4].nevents, 0);
  for (int r = 0; r < 4; r++) {
    int first = -1;
    for (int64_t k = 0; k < t->ranks[r].nevents && first < 0; k++)
      if (t->ranks[r].events[k].kind == TRACE_SEND || t->ranks[r].events[k].kind == TRACE_RECV)
        first = t->ranks[r].events[k].kind;
    cr_assert_eq(first, r % 2 ? TRACE_RECV : TRACE_SEND, "rank %d", r);
  }
  trace_free(t);
  /* cg 4x4: 2 row partners + transpose partner off the diagonal, allreduce */
  t = build("cg", 16, NULL, FALSE, 0, TRUE, 3);
  cr_assert_eq(p2p(t, &s), 3 * (16 * 2 + 12));
  cr_assert_eq(s.per_op[COLL_ALLREDUCE], 3 * 16);
  trace_free(t);
  t = build("random", 20, NULL, FALSE, 0, TRUE, 2);
  cr_assert_eq(p2p(t, &s), 2 * 20 * 4);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  for (int i = 0; i < g->n; i++)
    cr_assert_eq(g->xadj[i + 1] - g->xadj[i], 4, "rank %d: 4 distinct destinations", i);
  commgraph_free(g);
  trace_free(t);
}

/* shift: every rank sends to r + K (mod P) only, K negative or beyond P
 * too; bitcomp: to r XOR (P - 1); both with matching receives. */
Test(synth, shift_and_bitcomp)
{
  static const int64_t shifts[] = { 1, 4, 7, -3, 11 };
  for (size_t i = 0; i < G_N_ELEMENTS(shifts); i++) {
    synth_opts o;
    synth_opts_init(&o);
    o.pattern = "shift";
    o.ranks = 8;
    o.iterations = 3;
    o.shift = shifts[i];
    GError *e = NULL;
    trace *t = synth_build(&o, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    trace_summary s;
    cr_assert_eq(p2p(t, &s), 3 * 8);
    commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
    int k = (int)((shifts[i] % 8 + 8) % 8);
    for (int r = 0; r < 8; r++) {
      cr_assert_eq(g->xadj[r + 1] - g->xadj[r], 1);
      cr_assert_eq(g->adj[g->xadj[r]], (r + k) % 8, "shift %ld: rank %d", (long)shifts[i], r);
      cr_assert_eq(g->bytes[g->xadj[r]], 3 * 1024);
    }
    commgraph_free(g);
    trace_free(t);
  }
  trace *t = build("bitcomp", 16, NULL, FALSE, 0, TRUE, 2);
  trace_summary s;
  cr_assert_eq(p2p(t, &s), 2 * 16);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  for (int r = 0; r < 16; r++) {
    cr_assert_eq(g->xadj[r + 1] - g->xadj[r], 1);
    cr_assert_eq(g->adj[g->xadj[r]], 15 - r, "rank %d: its bit complement", r);
  }
  commgraph_free(g);
  trace_free(t);
  synth_opts o;
  synth_opts_init(&o);
  GError *e = NULL;
  o.pattern = "bitcomp";
  o.ranks = 12;
  cr_assert_null(synth_build(&o, &e));
  cr_assert(strstr(e->message, "power of two"), "%s", e->message);
  g_clear_error(&e);
  o.pattern = "shift";
  o.shift = 24;
  cr_assert_null(synth_build(&o, &e));
  cr_assert(strstr(e->message, "--shift 24"), "%s", e->message);
  g_clear_error(&e);
}

static void assert_same(const trace *a, const trace *b)
{
  cr_assert_eq(a->nranks, b->nranks);
  cr_assert_eq(a->nregions, b->nregions);
  for (int i = 0; i < a->nregions; i++)
    cr_assert_str_eq(a->regions[i], b->regions[i]);
  cr_assert_eq(a->world, b->world);
  cr_assert_eq(a->duration_ps, b->duration_ps);
  for (int r = 0; r < a->nranks; r++) {
    cr_assert_eq(a->ranks[r].nevents, b->ranks[r].nevents, "rank %d", r);
    for (int64_t i = 0; i < a->ranks[r].nevents; i++) {
      const trace_event *x = &a->ranks[r].events[i], *y = &b->ranks[r].events[i];
      cr_assert(x->kind == y->kind && x->time == y->time && x->peer == y->peer &&
                x->comm == y->comm && x->tag == y->tag && x->bytes == y->bytes &&
                x->bytes_recv == y->bytes_recv && x->request == y->request,
                "rank %d event %ld (%s): differs after the round trip", r, (long)i,
                trace_kind_name(x->kind));
    }
  }
}

static void round_trip(trace *t)
{
  char *tmp = tu_tmp_dir();
  char *dir = g_build_filename(tmp, "out", NULL);
  GError *e = NULL;
  cr_assert(trace_write_otf2(t, dir, NULL, &e), "%s", e ? e->message : "");
  trace *b = trace_read_otf2(dir, &e);
  cr_assert(b, "%s", e ? e->message : "");
  assert_same(t, b);
  if (g_file_test("/usr/bin/otf2-print", G_FILE_TEST_IS_EXECUTABLE)) {
    char *anchor = g_build_filename(dir, "traces.otf2", NULL);
    char *argv[] = { "/usr/bin/otf2-print", anchor, NULL };
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_spawn(argv, &out, &err), 0, "otf2-print: %s", err);
    trace_summary s;
    trace_summarize(t, &s);
    int64_t lines = 0;
    for (char *p = out; (p = strchr(p, '\n')); p++)
      lines += strncmp(p + 1, "MPI_SEND ", 9) == 0 || strncmp(p + 1, "MPI_ISEND ", 10) == 0;
    cr_assert_eq(lines, s.p2p_messages, "otf2-print sees every send");
    g_free(out);
    g_free(err);
    g_free(anchor);
  }
  trace_free(b);
  tu_rm_rf(tmp);
  g_free(dir);
  g_free(tmp);
}

Test(synth, round_trip)
{
  trace *t = build("stencil3d", 27, NULL, TRUE, 0, TRUE, 2);
  round_trip(t);
  trace_free(t);
  t = build("cg", 16, NULL, FALSE, 0, FALSE, 2);
  round_trip(t);
  trace_free(t);
  /* a hand-built trace: sub-communicator, COMM_SELF, rooted collective */
  t = trace_new(4);
  int odd[2] = { 1, 3 };
  uint32_t sub = trace_add_comm(t, "odd", 2, odd);
  uint32_t reg = trace_add_region(t, "MPI_Bcast");
  for (int r = 0; r < 4; r++) {
    trace_event en = { .time = 10 + r, .kind = TRACE_ENTER, .region = reg };
    trace_push(t, r, &en);
    /* a payload of 100: every rank's contribution, and what each receives as
     * Score-P counts it (the root's 4 x 100 sent are written, not held) */
    trace_event ce = { .time = 20 + r, .kind = TRACE_COLL_END, .op = COLL_BCAST, .comm = 0,
                       .peer = 2, .bytes = 100, .bytes_recv = 100 };
    trace_push(t, r, &ce);
    if (r % 2) {
      trace_event s = { .time = 30, .kind = TRACE_ISEND, .comm = sub, .peer = 4 - r, .tag = 7,
                        .bytes = 5, .request = 9 };
      trace_push(t, r, &s);
      trace_event v = { .time = 40, .kind = TRACE_RECV, .comm = sub, .peer = 4 - r, .tag = 7,
                        .bytes = 5 };
      trace_push(t, r, &v);
    }
    trace_event lv = { .time = 50, .kind = TRACE_LEAVE, .region = reg };
    trace_push(t, r, &lv);
  }
  t->duration_ps = 1000;
  round_trip(t);
  commgraph *g = trace_commgraph(t, TRUE, "binomial", NULL);
  /* 2 p2p messages of 5 bytes + binomial bcast from 2: 3 messages of 100 */
  cr_assert_eq(commgraph_total_msgs(g), 5);
  cr_assert_eq(commgraph_total_bytes(g), 2 * 5 + 3 * 100);
  commgraph_free(g);
  trace_free(t);
}

/* Every collective op on a sub-communicator of 3 of 5 ranks, rooted at
 * its comm rank 1: contributions written as Score-P's counts (otf2-print
 * shows an allreduce of 24 bytes as 3 x 24 sent) and read back as they
 * were; receive counts a contribution cannot give kept as held. */
Test(synth, collective_counts_round_trip)
{
  trace *t = trace_new(5);
  int members[3] = { 4, 0, 2 };
  uint32_t sub = trace_add_comm(t, "sub", 3, members);
  uint32_t reg = trace_add_region(t, "MPI_Allreduce");
  for (int me = 0; me < 3; me++) {
    int r = members[me];
    for (int op = 0; op < COLL_NOPS; op++) {
      int64_t c = 24 * (op + 1) + 8 * me, sent, recvd = 1000 + op;
      gboolean rooted = op == COLL_BCAST || op == COLL_SCATTER || op == COLL_SCATTERV ||
                        op == COLL_GATHER || op == COLL_GATHERV || op == COLL_REDUCE;
      if (op == COLL_BARRIER)
        c = 0;
      if (op == COLL_BCAST) /* one payload */
        c = 48;
      coll_record_of_contrib((coll_op)op, 3, me, rooted && me == 1, c, &sent, &recvd);
      trace_event en = { .time = 100 * op, .kind = TRACE_ENTER, .region = reg };
      trace_event ce = { .time = 100 * op + 10, .kind = TRACE_COLL_END, .op = (uint32_t)op,
                         .comm = sub, .peer = rooted ? 0 : -1, .bytes = c, .bytes_recv = recvd };
      trace_event lv = { .time = 100 * op + 20, .kind = TRACE_LEAVE, .region = reg };
      trace_push(t, r, &en);
      trace_push(t, r, &ce);
      trace_push(t, r, &lv);
    }
  }
  t->duration_ps = 100 * COLL_NOPS;
  round_trip(t);
  /* the archive holds Score-P's counts: rank 4 (comm rank 0) */
  char *tmp = tu_tmp_dir(), *dir = g_build_filename(tmp, "out", NULL);
  cr_assert(trace_write_otf2(t, dir, NULL, NULL));
  if (g_file_test("/usr/bin/otf2-print", G_FILE_TEST_IS_EXECUTABLE)) {
    char *anchor = g_build_filename(dir, "traces.otf2", NULL);
    char *argv[] = { "/usr/bin/otf2-print", anchor, NULL };
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_spawn(argv, &out, &err), 0, "otf2-print: %s", err);
    /* allreduce (op 11): contribution 288 at comm rank 0 -> 3 x 288 */
    cr_assert(strstr(out, "Operation: ALLREDUCE, Communicator: \"sub\" <2>, Root: NONE, "
                          "Sent: 864, Received: 864"), "%s", out);
    /* scan (op 14) at comm rank 0: 3 x 360 sent, 1 x 360 received */
    cr_assert(strstr(out, "Operation: SCAN, Communicator: \"sub\" <2>, Root: NONE, "
                          "Sent: 1080, Received: 360"), "%s", out);
    g_free(out);
    g_free(err);
    g_free(anchor);
  }
  tu_rm_rf(tmp);
  g_free(dir);
  g_free(tmp);
  trace_free(t);
}

static char *gen_dir(const char *tmp, const char *name, const char *pattern)
{
  char *dir = g_build_filename(tmp, name, NULL);
  char *argv[] = { (char *)g_getenv("MAPSIM"), "gen", "--pattern", (char *)pattern, "--ranks",
                   "12", "--gap-random", "--seed", "5", "--nonblocking", "-o", dir, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "%s", err);
  g_free(out);
  g_free(err);
  return dir;
}

static void assert_same_file(const char *a, const char *b)
{
  char *x = NULL, *y = NULL;
  gsize nx = 0, ny = 0;
  cr_assert(g_file_get_contents(a, &x, &nx, NULL));
  cr_assert(g_file_get_contents(b, &y, &ny, NULL));
  cr_assert(nx == ny && memcmp(x, y, nx) == 0, "%s and %s differ", a, b);
  g_free(x);
  g_free(y);
}

/* Same options, same bytes - except the anchor file, where OTF2 3.0
 * stores a random trace id it offers no way to set. */
Test(synth, deterministic)
{
  char *tmp = tu_tmp_dir();
  char *a = gen_dir(tmp, "a", "random"), *b = gen_dir(tmp, "b", "random");
  char *da = g_build_filename(a, "traces.def", NULL), *db = g_build_filename(b, "traces.def", NULL);
  assert_same_file(da, db);
  for (int r = 0; r < 12; r++) {
    char *name = g_strdup_printf("traces/%d.evt", r);
    char *fa = g_build_filename(a, name, NULL), *fb = g_build_filename(b, name, NULL);
    assert_same_file(fa, fb);
    g_free(fa);
    g_free(fb);
    g_free(name);
  }
  tu_rm_rf(tmp);
  g_free(da);
  g_free(db);
  g_free(a);
  g_free(b);
  g_free(tmp);
}

typedef struct {
  const char *dir;
  int ranks;
  int64_t p2p, collectives;
} bundled;

Test(synth, bundled_traces)
{
  const bundled cases[] = {
    { "stencil3d-64", 64, 64 * 6 * 3, 0 },
    { "alltoall-16", 16, 16 * 15 * 2, 0 },
    { "ring-8", 8, 8 * 5, 0 },
    { "cg-16", 16, 3 * 44, 3 * 16 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *dir = g_build_filename(g_getenv("MAPSIM_SRC"), "traces", "data", cases[i].dir, NULL);
    GError *e = NULL;
    trace *t = trace_read_otf2(dir, &e);
    cr_assert(t, "%s", e ? e->message : "");
    trace_summary s;
    cr_assert_eq(t->nranks, cases[i].ranks);
    cr_assert_eq(p2p(t, &s), cases[i].p2p, "%s", cases[i].dir);
    cr_assert_eq(s.collective_calls, cases[i].collectives, "%s", cases[i].dir);
    trace_free(t);
    g_free(dir);
  }
}

/* deveci2015 IV-C on a 6x6 symmetric matrix, 3 ranks of 2 rows: every rank
 * needs one column from each other rank -> 6 messages of 8 bytes. */
Test(synth, spmv_hand)
{
  char *tmp = tu_tmp_dir();
  char *mtx = g_build_filename(tmp, "a.mtx", NULL);
  g_file_set_contents(mtx, "%%MatrixMarket matrix coordinate pattern symmetric\n"
                           "% comment\n6 6 7\n1 1\n2 1\n3 2\n4 3\n5 4\n6 5\n6 1\n", -1, NULL);
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = "spmv";
  o.ranks = 3;
  o.matrix = mtx;
  o.iterations = 1;
  o.nonblocking = TRUE;
  trace *t = synth_build(&o, NULL);
  cr_assert(t);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  cr_assert_eq(g->nedges, 6);
  for (int e = 0; e < g->nedges; e++)
    cr_assert_eq(g->bytes[e], 8);
  commgraph_free(g);
  trace_free(t);
  /* a partition putting rows 0..4 on rank 0 and row 5 on rank 1 */
  char *part = g_build_filename(tmp, "a.part", NULL);
  g_file_set_contents(part, "0\n0\n0\n0\n0\n1\n", -1, NULL);
  o.partition = part;
  o.ranks = 2;
  t = synth_build(&o, NULL);
  g = trace_commgraph(t, FALSE, NULL, NULL);
  /* row 5 needs cols 0 and 4 from rank 0; rows 0 and 4 need col 5 from rank 1 */
  cr_assert_eq(g->nedges, 2);
  cr_assert_eq(commgraph_total_bytes(g), 16 + 8);
  commgraph_free(g);
  trace_free(t);
  tu_rm_rf(tmp);
  g_free(part);
  g_free(mtx);
  g_free(tmp);
}

static void expect_gen_fails(char **args, const char *needle)
{
  char *argv[24] = { (char *)g_getenv("MAPSIM"), "gen" };
  int n = 2;
  for (int i = 0; args[i]; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 2, "%s", err);
  cr_assert(g_str_has_prefix(err, "mapsim"), "%s", err);
  cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
  cr_assert(strstr(err, needle), "'%s' not in %s", needle, err);
  g_free(out);
  g_free(err);
}

Test(synth, bad_options)
{
  char *tmp = tu_tmp_dir();
  char *o = g_build_filename(tmp, "o", NULL);
  char *mtx = g_build_filename(tmp, "bad.mtx", NULL);
  g_file_set_contents(mtx, "hello\n", -1, NULL);
  expect_gen_fails((char *[]){ "--pattern", "blob", "-o", o, NULL }, "--pattern 'blob'");
  expect_gen_fails((char *[]){ "--pattern", "stencil3d", "--ranks", "10", "--dims", "2x2x2", "-o",
                               o, NULL }, "--dims");
  expect_gen_fails((char *[]){ "--pattern", "stencil3d", "--dims", "2xx", "-o", o, NULL }, "--dims");
  expect_gen_fails((char *[]){ "--pattern", "stencil2d", "--points", "7", "-o", o, NULL }, "--points 7");
  expect_gen_fails((char *[]){ "--pattern", "spmv", "-o", o, NULL }, "--matrix");
  expect_gen_fails((char *[]){ "--pattern", "spmv", "--matrix", mtx, "-o", o, NULL }, "bad.mtx:1:");
  expect_gen_fails((char *[]){ "--pattern", "ring", NULL }, "--output");
  expect_gen_fails((char *[]){ "--pattern", "shift", "--shift", "8", "-o", o, NULL }, "--shift 8");
  expect_gen_fails((char *[]){ "--pattern", "bitcomp", "--ranks", "6", "-o", o, NULL },
                   "power of two");
  cr_assert_not(g_file_test(o, G_FILE_TEST_EXISTS), "no output left behind");
  expect_gen_fails((char *[]){ "--pattern", "ring", "-o", tmp, NULL }, "not an empty directory");
  tu_rm_rf(tmp);
  g_free(mtx);
  g_free(o);
  g_free(tmp);
}

/* gen --pattern spmv's MatrixMarket and partition files: every error names
 * the line at fault (issue 35 item 20: a file that ended early, or had an
 * entry too many, was reported at line 0, and a short partition at the
 * count of its parts). */
Test(synth, spmv_errors_name_their_line)
{
  char *tmp = tu_tmp_dir();
  char *o = g_build_filename(tmp, "o", NULL);
  const struct {
    const char *name, *text, *expect;
  } mtx[] = {
    { "short.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 4\n1 1\n2 2\n\n",
      "short.mtx:4: the file ends after 2 entries, expected the 4 the size line (line 2) says" },
    { "long.mtx", "%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 1\n1 1\n2 2\n",
      "long.mtx:5: more entries than the 1 the size line (line 3) says" },
    { "nosize.mtx", "%%MatrixMarket matrix coordinate pattern general\n% only a comment\n",
      "nosize.mtx:2: no size line, expected 'N N NNZ' after the header" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(mtx); i++) {
    char *path = g_build_filename(tmp, mtx[i].name, NULL);
    cr_assert(g_file_set_contents(path, mtx[i].text, -1, NULL));
    expect_gen_fails((char *[]){ "--pattern", "spmv", "--ranks", "2", "--matrix", path, "-o", o,
                                 NULL }, mtx[i].expect);
    g_free(path);
  }
  char *good = g_build_filename(tmp, "good.mtx", NULL);
  cr_assert(g_file_set_contents(good, "%%MatrixMarket matrix coordinate pattern general\n"
                                      "3 3 3\n1 2\n2 3\n3 1\n", -1, NULL));
  const struct {
    const char *name, *text, *expect;
  } part[] = {
    { "short.part", "# parts\n0\n1\n", "short.part:3: the file ends after 2 parts, expected one "
                                        "part per row of the matrix's 3" },
    { "empty.part", "", "empty.part:1: the file ends after 0 parts" },
    { "long.part", "0\n1\n0\n1\n", "long.part:4: more lines than matrix rows" },
    { "bad.part", "0\n\n7\n", "bad.part:3: bad part, expected an integer in [0, ranks)" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(part); i++) {
    char *path = g_build_filename(tmp, part[i].name, NULL);
    cr_assert(g_file_set_contents(path, part[i].text, -1, NULL));
    expect_gen_fails((char *[]){ "--pattern", "spmv", "--ranks", "2", "--matrix", good,
                                 "--partition", path, "-o", o, NULL }, part[i].expect);
    g_free(path);
  }
  cr_assert_not(g_file_test(o, G_FILE_TEST_EXISTS), "no output left behind");
  tu_rm_rf(tmp);
  g_free(good);
  g_free(o);
  g_free(tmp);
}

/* A send without its receive and a size mismatch: `trace info` prints the
 * facts (its "unmatched" line among them), a one-line note with the counts,
 * and succeeds: describing such a trace is what it is for. */
Test(synth, unmatched_messages)
{
  trace *t = trace_new(3);
  trace_event s1 = { .time = 1, .kind = TRACE_SEND, .peer = 1, .tag = 3, .bytes = 10 };
  trace_event s2 = { .time = 2, .kind = TRACE_SEND, .peer = 2, .tag = 3, .bytes = 10 };
  trace_event r1 = { .time = 5, .kind = TRACE_RECV, .peer = 0, .tag = 3, .bytes = 12 };
  trace_push(t, 0, &s1);
  trace_push(t, 0, &s2);
  trace_push(t, 1, &r1);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.unmatched_sends, 1);
  cr_assert_eq(s.unmatched_recvs, 0);
  cr_assert_eq(s.mismatched_bytes, 1);
  char *tmp = tu_tmp_dir();
  char *dir = g_build_filename(tmp, "t", NULL);
  cr_assert(trace_write_otf2(t, dir, NULL, NULL));
  char *argv[] = { (char *)g_getenv("MAPSIM"), "trace", "info", dir, "--json", NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "%s", err);
  cr_assert(strstr(out, "\"unmatched\" : 1"), "%s", out);
  cr_assert(g_str_has_prefix(err, "mapsim: note: "), "%s", err);
  cr_assert(strstr(err, "1 unmatched sends, 0 unmatched receives, 1 size mismatches"), "%s", err);
  cr_assert_eq(strchr(err, '\n'), err + strlen(err) - 1, "one line: %s", err);
  g_free(out);
  g_free(err);
  tu_rm_rf(tmp);
  g_free(dir);
  g_free(tmp);
  trace_free(t);
}

/* Streamed to the writer rank by rank = built in memory and written. */
Test(synth, write_streams_the_same_archive)
{
  const char *patterns[] = { "stencil3d", "cg", "random", "alltoall" };
  for (size_t i = 0; i < G_N_ELEMENTS(patterns); i++) {
    synth_opts o;
    synth_opts_init(&o);
    o.pattern = patterns[i];
    o.ranks = 27;
    o.iterations = 3;
    o.nonblocking = i % 2 == 0;
    o.gap_random = TRUE;
    o.periodic = TRUE;
    char *tmp = tu_tmp_dir();
    char *a = g_build_filename(tmp, "built", NULL), *b = g_build_filename(tmp, "streamed", NULL);
    GError *e = NULL;
    trace *t = synth_build(&o, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "?");
    cr_assert(trace_write_otf2(t, a, NULL, &e), "%s", e ? e->message : "?");
    cr_assert(synth_write(&o, b, NULL, &e), "%s", e ? e->message : "?");
    for (int r = -1; r < o.ranks; r++) {
      char *name = r < 0 ? g_strdup("traces.def") : g_strdup_printf("traces/%d.evt", r);
      char *pa = g_build_filename(a, name, NULL), *pb = g_build_filename(b, name, NULL);
      assert_same_file(pa, pb);
      g_free(pa);
      g_free(pb);
      g_free(name);
    }
    trace_free(t);
    g_free(a);
    g_free(b);
    g_free(tmp);
  }
}

/* `mapsim gen ARGS... -o DIR` (DIR in tmp); its exit status, stdout and
 * stderr (caller frees). */
static int gen_run(const char *tmp, const char *name, const char *const *args, char **out,
                   char **err, char **dir)
{
  *dir = g_build_filename(tmp, name, NULL);
  char *argv[32] = { (char *)g_getenv("MAPSIM"), "gen" };
  int n = 2;
  for (int i = 0; args[i]; i++)
    argv[n++] = (char *)args[i];
  argv[n++] = "-o";
  argv[n++] = *dir;
  argv[n] = NULL;
  return tu_spawn(argv, out, err);
}

/* Every pattern in blocking mode (MPI_Sendrecv) at sizes that exercise
 * its structure: either it is written, and its replay completes with
 * every send waiting for its receive (--eager-limit 0: no buffering to
 * hide a cycle), or gen refuses it - random and spmv, whose i-th
 * destination and i-th source of a rank need not meet - before writing
 * anything. The structured patterns meet their partners in one order of
 * directions, rounds or bits, so they always complete. */
Test(synth, blocking_patterns_complete_or_are_refused, .timeout = 120)
{
  char *tmp = tu_tmp_dir();
  /* 3 ranks of 2 rows: rank 0 sends to 1 and 2, ranks 1 and 2 send to
   * each other; each of them first sends to the other while receiving
   * from rank 0, and receives from the other only second: a cycle */
  g_autofree char *cycle = g_build_filename(tmp, "cycle.mtx", NULL);
  cr_assert(g_file_set_contents(cycle, "%%MatrixMarket matrix coordinate pattern general\n"
                                "6 6 6\n3 2\n4 5\n5 4\n6 1\n6 2\n1 1\n", -1, NULL));
  g_autofree char *sym = tu_data("y_sym.mtx");
  const struct {
    const char *args[12];
    gboolean refused;
  } cases[] = {
    { { "--pattern", "stencil2d", "--ranks", "16", NULL }, FALSE },
    { { "--pattern", "stencil2d", "--ranks", "12", "--points", "9", "--periodic", NULL }, FALSE },
    { { "--pattern", "stencil3d", "--ranks", "8", "--periodic", NULL }, FALSE },
    { { "--pattern", "stencil3d", "--ranks", "27", NULL }, FALSE },
    { { "--pattern", "stencil4d", "--ranks", "16", "--periodic", NULL }, FALSE },
    { { "--pattern", "ring", "--ranks", "7", NULL }, FALSE },
    { { "--pattern", "alltoall", "--ranks", "5", NULL }, FALSE },
    { { "--pattern", "pingpong", "--ranks", "5", NULL }, FALSE },
    { { "--pattern", "cg", "--ranks", "12", NULL }, FALSE },
    { { "--pattern", "cg", "--ranks", "16", NULL }, FALSE },
    { { "--pattern", "shift", "--ranks", "6", "--shift", "2", NULL }, FALSE },
    { { "--pattern", "bitcomp", "--ranks", "8", NULL }, FALSE },
    { { "--pattern", "random", "--ranks", "2", NULL }, FALSE },
    { { "--pattern", "random", "--ranks", "8", "--degree", "1", NULL }, FALSE },
    { { "--pattern", "random", NULL }, TRUE },
    { { "--pattern", "random", "--ranks", "4", "--degree", "3", NULL }, TRUE },
    { { "--pattern", "spmv", "--ranks", "2", "--matrix", sym, NULL }, FALSE },
    { { "--pattern", "spmv", "--ranks", "3", "--matrix", cycle, NULL }, TRUE },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *const *a = cases[i].args;
    g_autofree char *name = g_strdup_printf("t%zu", i), *shown = g_strjoinv(" ", (char **)a);
    char *out = NULL, *err = NULL, *dir = NULL;
    int rc = gen_run(tmp, name, (const char *const *)a, &out, &err, &dir);
    if (cases[i].refused) {
      cr_assert_eq(rc, 2, "%s: %s", shown, err);
      cr_assert(strstr(err, "without --nonblocking: its blocking exchanges"), "%s: %s", shown, err);
      cr_assert(strstr(err, "expected --nonblocking"), "%s: %s", shown, err);
      cr_assert_eq(tu_lines(err), 1, "%s: %s", shown, err);
      cr_assert_not(g_file_test(dir, G_FILE_TEST_EXISTS), "%s: %s written", shown, dir);
      /* the same with --nonblocking is written */
      g_free(out);
      g_free(err);
      g_free(dir);
      const char *nb[16];
      int n = 0;
      for (; a[n]; n++)
        nb[n] = a[n];
      nb[n++] = "--nonblocking";
      nb[n] = NULL;
      g_autofree char *name2 = g_strdup_printf("nb%zu", i);
      rc = gen_run(tmp, name2, nb, &out, &err, &dir);
      cr_assert_eq(rc, 0, "%s --nonblocking: %s", shown, err);
    } else {
      cr_assert_eq(rc, 0, "%s: %s", shown, err);
    }
    if (rc == 0) {
      /* one confirmation line */
      g_autofree char *want = g_strdup_printf("wrote %s/traces.otf2: %s, ", dir, a[1]);
      cr_assert(g_str_has_prefix(out, want), "%s: %s", shown, out);
      cr_assert_eq(tu_lines(out), 1, "%s: %s", shown, out);
      g_autofree char *anchor = g_build_filename(dir, "traces.otf2", NULL);
      char *sout = NULL, *serr = NULL;
      char *sim[] = { (char *)g_getenv("MAPSIM"), "simulate", "-p", "mesh:8x8", "-t", anchor,
                      "--eager-limit", "0", NULL };
      cr_assert_eq(tu_spawn(sim, &sout, &serr), 0, "%s: the replay: %s", shown, serr);
      g_free(sout);
      g_free(serr);
    }
    g_free(out);
    g_free(err);
    g_free(dir);
  }
  tu_rm_rf(tmp);
  g_free(tmp);
}

/* gen's pattern list is one table: --list, --help and the unknown-pattern
 * message name the same patterns in the same order. */
Test(synth, one_pattern_list_in_every_help)
{
  char *list[] = { (char *)g_getenv("MAPSIM"), "gen", "--list", NULL };
  char *help[] = { (char *)g_getenv("MAPSIM"), "gen", "--help", NULL };
  char *bad[] = { (char *)g_getenv("MAPSIM"), "gen", "--pattern", "nosuch", "-o", "x", NULL };
  char *lo = NULL, *ho = NULL, *be = NULL;
  cr_assert_eq(tu_spawn(list, &lo, NULL), 0);
  cr_assert_eq(tu_spawn(help, &ho, NULL), 0);
  cr_assert_eq(tu_spawn(bad, NULL, &be), 2);
  GString *names = g_string_new(NULL);
  for (int i = 0; i < synth_npatterns; i++) {
    const char *name = synth_patterns[i].name;
    g_autofree char *row = g_strdup_printf("  %-10s %s\n", name, synth_patterns[i].summary);
    cr_assert(strstr(lo, row), "--list lacks %s:\n%s", name, lo);
    cr_assert(strstr(ho, row), "--help lacks %s:\n%s", name, ho);
    g_string_append_printf(names, "%s%s", i == 0 ? "" : i + 1 == synth_npatterns ? " or " : ", ",
                           name);
    cr_assert(strstr(ho, name), "--help lacks %s", name);
  }
  cr_assert(strstr(be, names->str), "%s", be);
  cr_assert(strstr(ho, names->str), "--pattern's help lacks the list:\n%s", ho);
  g_string_free(names, TRUE);
  g_free(lo);
  g_free(ho);
  g_free(be);
}
