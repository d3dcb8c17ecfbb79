/* test_ti_input.c - the reader of SimGrid's time-independent traces
 * (traces/input-simgrid-ti.c) on SimGrid's own example traces
 * (tests/data/simgrid-ti, from examples/smpi/replay): the regions, messages
 * and collectives of every rank counted by hand from the action lines,
 * sizes by SMPI's datatype rules, makespans worked out by hand on a small
 * mesh, bad input refused with one line, streamed and whole reads equal,
 * and a trace exported as TI (`mapsim export simgrid`) read back with the
 * same messages and bytes between every pair of ranks. */
#include <json-glib/json-glib.h>

#include "testutil.h"
#include "traces/input.h"
#include "util/budget.h"

static char *ti_data(const char *name)
{
  g_autofree char *rel = g_build_filename("tests/data/simgrid-ti", name, NULL);
  return tu_src(rel);
}

static trace *read_ti(const char *name)
{
  g_autofree char *path = ti_data(name);
  GError *e = NULL;
  trace *t = input_read_trace(path, &e);
  cr_assert_not_null(t, "%s: %s", path, e ? e->message : "");
  return t;
}

typedef struct rank_counts {
  int regions, sends, recvs, colls;
  int64_t sent, end_ps;
} rank_counts;

static rank_counts count_rank(const trace *t, int r)
{
  rank_counts c = { 0 };
  for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
    const trace_event *e = &t->ranks[r].events[i];
    c.regions += e->kind == TRACE_ENTER;
    c.sends += e->kind == TRACE_SEND || e->kind == TRACE_ISEND;
    c.recvs += e->kind == TRACE_RECV || e->kind == TRACE_IRECV;
    c.colls += e->kind == TRACE_COLL_END;
    if (e->kind == TRACE_SEND || e->kind == TRACE_ISEND)
      c.sent += e->bytes;
    c.end_ps = e->time;
  }
  return c;
}

/* Per rank, from the files' lines: MPI actions (a region each; requests
 * still open at finalize add a Waitall), messages and bytes sent,
 * collective calls, and the clock at the last record (compute amounts in
 * ps, one flop a picosecond). */
Test(ti_input, simgrid_examples_count_by_hand)
{
  const struct {
    const char *file;
    int rank;
    rank_counts want;
  } cases[] = {
    /* init send recv finalize; compute 1e9 + 1e9 */
    { "actions_with_isend.txt", 0, { 4, 1, 1, 0, 1000000, 2000000000 } },
    /* init irecv test wait send finalize; compute 5e8 + 5e8 */
    { "actions_with_isend.txt", 1, { 6, 1, 1, 0, 1000000, 1000000000 } },
    /* init irecv test wait isend (open at finalize: a Waitall) finalize;
     * compute 2e9 + 2.5e8 + 2.5e8 + 5e8 */
    { "actions_with_isend.txt", 2, { 7, 1, 1, 0, 1000000, 3000000000 } },
    /* split_traces lists actions0.txt (init send recv send finalize) and
     * actions1.txt (init recv isend irecv wait, the isend open: Waitall,
     * finalize) */
    { "split_traces", 0, { 5, 2, 1, 0, 2000000, 0 } },
    { "split_traces", 1, { 7, 1, 2, 0, 1000000, 1000000000 } },
    /* send 1e7, barrier, compute 98095000 */
    { "actions_barrier.txt", 0, { 4, 1, 0, 1, 10000000, 98095000 } },
    /* bcast, bcast, reduce with 5e8 flops after it; rank 1 computes 2e8
     * twice, then the reduce's 5e8 before finalize */
    { "actions_bcast.txt", 1, { 5, 0, 0, 3, 0, 900000000 } },
    { "actions_waitall.txt", 0, { 5, 0, 2, 0, 0, 0 } },
    { "actions_alltoallv.txt", 2, { 3, 0, 0, 1, 0, 0 } },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autoptr(trace) t = read_ti(cases[i].file);
    rank_counts c = count_rank(t, cases[i].rank);
    const rank_counts *w = &cases[i].want;
    cr_assert(c.regions == w->regions && c.sends == w->sends && c.recvs == w->recvs &&
                  c.colls == w->colls && c.sent == w->sent && c.end_ps == w->end_ps,
              "%s rank %d: regions %d sends %d recvs %d colls %d sent %" G_GINT64_FORMAT
              " end %" G_GINT64_FORMAT, cases[i].file, cases[i].rank, c.regions, c.sends,
              c.recvs, c.colls, c.sent, c.end_ps);
  }
}

/* The rank's COLL_END records: op, root and contribution. */
static void colls_of(const trace *t, int r, int *op, int *root, int64_t *bytes, int max, int *n)
{
  *n = 0;
  for (int64_t i = 0; i < t->ranks[r].nevents && *n < max; i++) {
    const trace_event *e = &t->ranks[r].events[i];
    if (e->kind == TRACE_COLL_END) {
      op[*n] = (int)e->op;
      root[*n] = e->peer;
      bytes[(*n)++] = e->bytes;
    }
  }
}

/* SMPI's size rules: counts times the datatype (`init 1` makes MPI_DOUBLE
 * the default), the contribution as collectives.h counts it. */
Test(ti_input, sizes_follow_smpi_datatypes)
{
  int op[4], root[4], n;
  int64_t b[4];
  g_autoptr(trace) dt = read_ti("actions_bcast_reduce_datatypes.txt");
  colls_of(dt, 2, op, root, b, 4, &n);
  cr_assert_eq(n, 3);
  /* bcast 5e4 1 0: MPI_DOUBLE from root 1; bcast 5e4 0 3: MPI_SHORT;
   * reduce 5e4 5e8 0 4: MPI_LONG */
  cr_assert(op[0] == COLL_BCAST && root[0] == 1 && b[0] == 400000);
  cr_assert(op[1] == COLL_BCAST && root[1] == 0 && b[1] == 100000);
  cr_assert(op[2] == COLL_REDUCE && root[2] == 0 && b[2] == 400000);

  /* the defaults: MPI_BYTE; alltoall 500 500 on 3 ranks sends 3 x 500 */
  g_autoptr(trace) a2a = read_ti("actions_alltoall.txt");
  colls_of(a2a, 0, op, root, b, 4, &n);
  cr_assert(n == 1 && op[0] == COLL_ALLTOALL && root[0] == -1 && b[0] == 1500);
  /* alltoallv on rank 1: sendcounts 80 1 40 */
  g_autoptr(trace) a2av = read_ti("actions_alltoallv.txt");
  colls_of(a2av, 1, op, root, b, 4, &n);
  cr_assert(n == 1 && op[0] == COLL_ALLTOALLV && b[0] == 121);
  /* gather 68 68 0 0 0: MPI_DOUBLE blocks to root 0 */
  g_autoptr(trace) g = read_ti("actions_gather.txt");
  colls_of(g, 3, op, root, b, 4, &n);
  cr_assert(n == 1 && op[0] == COLL_GATHER && root[0] == 0 && b[0] == 68 * 8);
  /* allgatherv: rank 3 sends 204020 MPI_DOUBLEs */
  g_autoptr(trace) agv = read_ti("actions_allgatherv.txt");
  colls_of(agv, 3, op, root, b, 4, &n);
  cr_assert(n == 1 && op[0] == COLL_ALLGATHERV && b[0] == 204020 * 8, "%" G_GINT64_FORMAT, b[0]);
  /* reducescatter: the rank's own block of the 275427 275427 275427
   * 204020 doubles (rank 0 the first, rank 3 the last), then its flops as
   * computation */
  g_autoptr(trace) rs = read_ti("actions_reducescatter.txt");
  colls_of(rs, 0, op, root, b, 4, &n);
  cr_assert(n == 1 && op[0] == COLL_REDUCE_SCATTER && b[0] == 275427 * 8, "%" G_GINT64_FORMAT, b[0]);
  cr_assert_eq(count_rank(rs, 0).end_ps, 11349173);
  colls_of(rs, 3, op, root, b, 4, &n);
  cr_assert(n == 1 && b[0] == 204020 * 8, "%" G_GINT64_FORMAT, b[0]);
}

static double makespan_of(const char *out)
{
  g_autoptr(JsonParser) p = json_parser_new();
  cr_assert(json_parser_load_from_data(p, out, -1, NULL), "%s", out);
  return json_object_get_double_member(json_node_get_object(json_parser_get_root(p)),
                                       "makespan_s");
}

/* Hand-computed makespans on a mesh (analytic model: 31.25e9 B/s, 10 ps a
 * hop; messages above 64 KiB by rendezvous, which adds a control message
 * each way). */
Test(ti_input, makespans_by_hand)
{
  const double data = 1e6 / 31.25e9, rdv = 3 * 10e-12;
  /* split_traces on mesh:2: 0 -> 1 at once; 1 computes 1 ms and sends
   * back; 0 then sends again: three messages one after the other */
  g_autofree char *split = ti_data("split_traces");
  char *out = NULL, *err = NULL;
  const char *a[] = { "simulate", "-q", "-p", "mesh:2", "-t", split, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, a), 0, "%s", err);
  cr_assert_float_eq(makespan_of(out), 1e-3 + 3 * (data + rdv), 1e-15, "%s", out);
  g_free(out);
  g_free(err);
  /* actions_with_isend on mesh:3: rank 2 computes 2.5 ms before its
   * isend and 0.5 ms after it; every message is over by then (0's recv
   * from 2 is posted at 2.032 ms, the message leaves at 2.5 ms) */
  g_autofree char *isend = ti_data("actions_with_isend.txt");
  const char *b[] = { "simulate", "-q", "-p", "mesh:3", "-t", isend, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, b), 0, "%s", err);
  cr_assert_float_eq(makespan_of(out), 3e-3, 1e-15, "%s", out);
  g_free(out);
  g_free(err);
  /* --compute-scale is the host speed: 1e-3 makes a flop 1 ns (1 Gflop/s) */
  const char *c[] = { "simulate", "-q", "-p", "mesh:3", "-t", isend, "--compute-scale", "1000",
                      "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, c), 0, "%s", err);
  cr_assert_float_eq(makespan_of(out), 3.0, 1e-9, "%s", out);
  g_free(out);
  g_free(err);
}

/* Every file: the streamed source gives the whole read's records. */
Test(ti_input, streamed_equals_whole)
{
  const char *files[] = { "actions_with_isend.txt", "split_traces", "actions_allgatherv.txt",
                          "actions_waitall.txt", "actions_bcast_reduce_datatypes.txt" };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autoptr(trace) t = read_ti(files[i]);
    g_autofree char *path = ti_data(files[i]);
    GError *e = NULL;
    trace_source *s = input_read_source(path, NULL, &e);
    cr_assert_not_null(s, "%s", e ? e->message : "");
    cr_assert(trace_source_streamed(s), "%s", files[i]);
    cr_assert_eq(trace_source_trace(s)->duration_ps, t->duration_ps);
    trace_cursor *c = trace_cursor_new(s);
    for (int r = 0; r < t->nranks; r++) {
      cr_assert_eq(trace_source_records(s, r), t->ranks[r].nevents);
      trace_event ev[64];
      int64_t n = trace_cursor_read(c, r, ev, 64);
      cr_assert_eq(n, t->ranks[r].nevents);
      cr_assert(memcmp(ev, t->ranks[r].events, sizeof ev[0] * (size_t)n) == 0, "%s rank %d",
                files[i], r);
    }
    trace_cursor_free(c);
    trace_source_free(s);
  }
}

/* One line naming the file, the line and what was expected; the same from
 * the streamed read; exit 2 from the command. */
Test(ti_input, bad_input_one_line)
{
  const struct {
    const char *text, *expect;
  } bad[] = {
    { "0 init\n0 frobnicate 1\n", "bad.ti:2: unknown action 'frobnicate', expected one of SMPI's" },
    { "0 init\n0 send 5 0 10\n", "bad.ti:2: field 3 is '5', expected a rank from 0 to 0" },
    { "0 init\n\n# comment\n0 send 0 0\n",
      "bad.ti:4: 4 fields, expected 5 for 'RANK send PEER TAG COUNT [DATATYPE]' on 1 ranks" },
    { "1 init\n0 init\n0 gatherv 1 2\n", "bad.ti:3: 4 fields, expected 5 for 'RANK gatherv" },
    { "0 init\n0 compute -5\n", "bad.ti:2: field 3 is '-5', expected an amount of 0 or more" },
    { "0 init\n0 wait 0 0 0\n", "bad.ti:2: a wait with no request open, expected an isend" },
    { "0 init\n0 bcast 10 0 77\n", "bad.ti:2: field 5 is '77', expected a datatype id from -1 to 59" },
    { "0 init\n0 send 0 -1 10\n", "bad.ti:2: field 4 is '-1', expected a tag from 0 to" },
    { "0 init\n0 recv 0 0 1x\n", "bad.ti:2: field 5 is '1x', expected a count" },
    { "0 init\n0 compute 1e300\n", "bad.ti:2: the rank's time exceeds 106 days" },
    { "0 init\nx send 0 0 1\n", "bad.ti:2: 'x', expected 'RANK ACTION ...' with a rank" },
    /* fuzz_simgrid_ti: the first pass cut this line to 64 blanks, so the
     * streamed read skipped it and the whole read refused it */
    { "0 init\n\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r"
      "\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r0\tndt\n",
      "bad.ti:2: unknown action 'ndt'" },
  };
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "bad.ti", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    cr_assert(g_file_set_contents(path, bad[i].text, -1, NULL));
    GError *e = NULL;
    cr_assert_null(input_read_trace(path, &e), "%s", bad[i].text);
    cr_assert(e && strstr(e->message, bad[i].expect), "'%s' not in '%s'", bad[i].expect,
              e ? e->message : "");
    cr_assert_null(strchr(e->message, '\n'));
    g_clear_error(&e);
    cr_assert_null(input_read_source(path, NULL, &e));
    cr_assert(e && strstr(e->message, bad[i].expect), "streamed: '%s' not in '%s'",
              bad[i].expect, e ? e->message : "");
    g_clear_error(&e);
  }
  char *out = NULL, *err = NULL;
  const char *args[] = { "trace", "info", path, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
}

/* Bytes and messages per (src, dst) of g, as "src dst bytes msgs" lines. */
static char *pairs(const commgraph *g)
{
  GString *s = g_string_new(NULL);
  for (int u = 0; u < g->n; u++)
    for (int k = g->xadj[u]; k < g->xadj[u + 1]; k++)
      g_string_append_printf(s, "%d %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", u,
                             g->adj[k], g->bytes[k], g->msgs ? g->msgs[k] : -1);
  return g_string_free(s, FALSE);
}

/* OTF2 -> TI (`mapsim export simgrid`) -> read back: every pair's bytes and
 * messages are the original's, collectives included (the export writes
 * their schedule's messages); the TI read back maps and replays. */
Test(ti_input, export_round_trip_and_commands)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *sg = g_build_filename(dir, "cg", NULL);
  g_autofree char *cg = tu_src("traces/data/cg-16");
  char *out = NULL, *err = NULL;
  const char *exp[] = { "export", "simgrid", "-q", "-p", "torus:4x4", "-t", cg, "-o", sg, NULL };
  cr_assert_eq(tu_run(&out, &err, exp), 0, "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *ls = g_strdup_printf("ls %s > %s/ls.txt", sg, dir);
  cr_assert_eq(system(ls), 0);
  g_autofree char *listing = tu_read(dir, "ls.txt");
  g_autofree char *list = NULL;
  {
    /* the list smpirun.sh gives -replay */
    g_auto(GStrv) names = g_strsplit(listing, "\n", -1);
    for (int i = 0; names[i]; i++) {
      g_autofree char *p = g_build_filename(sg, names[i], NULL);
      if (*names[i] && g_file_test(p, G_FILE_TEST_IS_REGULAR) &&
          input_recognize(p, INPUT_TRACE, INPUT_PROBE_CONTENT) == input_reader_find("simgrid-ti"))
        list = g_steal_pointer(&p);
    }
  }
  cr_assert_not_null(list, "no TI list in %s: %s", sg, listing);
  GError *e = NULL;
  g_autoptr(trace) orig = input_read_trace(cg, &e);
  g_autoptr(trace) back = input_read_trace(list, &e);
  cr_assert_not_null(back, "%s", e ? e->message : "");
  commgraph *a = trace_commgraph(orig, TRUE, NULL, &e);
  commgraph *b = trace_commgraph(back, TRUE, NULL, &e);
  g_autofree char *pa = pairs(a), *pb = pairs(b);
  cr_assert_str_eq(pa, pb);
  cr_assert_gt(a->nedges, 16);
  commgraph_free(a);
  commgraph_free(b);

  const char *info[] = { "trace", "info", list, NULL };
  cr_assert_eq(tu_run(&out, &err, info), 0, "%s", err);
  cr_assert(strstr(out, "\nformat          simgrid-ti\n"), "%s", out);
  g_free(out);
  g_free(err);
  const char *map[] = { "map", "-q", "-p", "torus:4x4", "-t", list, "-s", "greedy", "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, map), 0, "%s", err);
  cr_assert(strstr(out, "\"hop_bytes\""), "%s", out);
  g_free(out);
  g_free(err);
  const char *cmp[] = { "compare", "-q", "-p", "torus:4x4", "-t", list, "-s", "greedy", NULL };
  cr_assert_eq(tu_run(&out, &err, cmp), 0, "%s", err);
  cr_assert(strstr(out, "greedy"), "%s", out);
  g_free(out);
  g_free(err);
  /* the TI read back replays to the original's makespan (its computation
   * and messages are the export's) */
  const char *s1[] = { "simulate", "-q", "-p", "torus:4x4", "-t", cg, "--json", NULL };
  const char *s2[] = { "simulate", "-q", "-p", "torus:4x4", "-t", list, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, s1), 0, "%s", err);
  double m1 = makespan_of(out);
  g_free(out);
  g_free(err);
  cr_assert_eq(tu_run(&out, &err, s2), 0, "%s", err);
  double m2 = makespan_of(out);
  g_free(out);
  g_free(err);
  cr_assert_gt(m2, 0);
  cr_assert(fabs(m2 - m1) <= 0.05 * m1, "TI %g vs OTF2 %g", m2, m1);
  tu_rm_rf(dir);
}

/* A shared file whose ranks interleave so much that reading it once per
 * rank would read it more than 16 times over is read whole instead, with
 * the same records; a list's files skip other ranks' lines, as SMPI does. */
Test(ti_input, interleaved_read_whole_and_lists)
{
  g_autofree char *dir = tu_tmp_dir();
  GString *s = g_string_new(NULL);
  for (int r = 0; r < 40; r++)
    g_string_append_printf(s, "%d init\n", r);
  for (int r = 0; r < 40; r++)
    g_string_append_printf(s, "%d send %d 7 100\n%d recv %d 7 100\n", r, (r + 1) % 40, r,
                           (r + 39) % 40);
  for (int r = 0; r < 40; r++)
    g_string_append_printf(s, "%d finalize\n", r);
  g_autofree char *shared = g_build_filename(dir, "all.txt", NULL);
  cr_assert(g_file_set_contents(shared, s->str, -1, NULL));
  g_string_free(s, TRUE);
  GError *e = NULL;
  g_autoptr(trace) t = input_read_trace(shared, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  trace_source *src = input_read_source(shared, NULL, &e);
  cr_assert_not_null(src, "%s", e ? e->message : "");
  cr_assert_not(trace_source_streamed(src));
  cr_assert_eq(trace_source_total(src), 40 * 10);
  trace_source_free(src);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  cr_assert_eq(g->nedges, 40);
  cr_assert_eq(commgraph_total_bytes(g), 4000);
  commgraph_free(g);

  /* two ranks' files, each also holding a line of the other rank */
  g_autofree char *f0 = g_build_filename(dir, "r0.txt", NULL);
  g_autofree char *f1 = g_build_filename(dir, "r1.txt", NULL);
  g_autofree char *list = g_build_filename(dir, "list", NULL);
  cr_assert(g_file_set_contents(f0, "0 init\n1 compute 5\n0 send 1 0 64\n0 finalize\n", -1, NULL));
  cr_assert(g_file_set_contents(f1, "1 init\n0 compute 5\n1 recv 0 0 64\n1 finalize\n", -1, NULL));
  cr_assert(g_file_set_contents(list, "r0.txt\nr1.txt\n", -1, NULL));
  g_autoptr(trace) l = input_read_trace(list, &e);
  cr_assert_not_null(l, "%s", e ? e->message : "");
  cr_assert_eq(l->nranks, 2);
  cr_assert_eq(l->duration_ps, 0); /* the compute lines are the other rank's: skipped */
  cr_assert_eq(l->ranks[0].nevents, 7);
  tu_rm_rf(dir);
}

/* A list of 200,000 ranks within a 16 MiB budget: its ranks fit, the
 * states of a whole read do not: refused, nothing left allocated
 * (fuzz_simgrid_ti found the definitions leaked on that path; CI's
 * sanitizer run sees a leak). A shared file naming a rank far beyond the
 * others is refused at once (it made a million idle ranks from a few
 * lines). */
Test(ti_input, many_ranks_within_the_budget)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *a = g_build_filename(dir, "a", NULL);
  cr_assert(g_file_set_contents(a, "0 init\n", -1, NULL));
  GString *s = g_string_new(NULL);
  for (int r = 0; r < 200000; r++)
    g_string_append(s, "a\n");
  g_autofree char *list = g_build_filename(dir, "list", NULL);
  cr_assert(g_file_set_contents(list, s->str, -1, NULL));
  g_string_free(s, TRUE);
  uint64_t was = budget_memory();
  budget_set_memory(UINT64_C(16) << 20);
  GError *e = NULL;
  trace *t = input_read_trace(list, &e);
  budget_set_memory(was);
  cr_assert_null(t);
  cr_assert(e && strstr(e->message, "SimGrid trace rank states: needs about"), "%s",
            e ? e->message : "");
  g_clear_error(&e);

  g_autofree char *far = g_build_filename(dir, "far.txt", NULL);
  cr_assert(g_file_set_contents(far, "0 init\n962001 init\n962001 finalize\n", -1, NULL));
  cr_assert_null(input_read_trace(far, &e));
  cr_assert(strstr(e->message, "far.txt: rank 1 has no actions, expected actions of every rank "
                               "from 0 to 962001 (the largest rank named)"), "%s", e->message);
  g_clear_error(&e);
  cr_assert_null(input_read_source(far, NULL, &e));
  g_clear_error(&e);
  tu_rm_rf(dir);
}
