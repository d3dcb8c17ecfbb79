/* test_dumpi_input.c - the reader of sst-dumpi's binary traces
 * (traces/input-dumpi.c) on SST/macro's 4-rank test trace
 * (tests/data/dumpi), against sst-dumpi's own dumpi2ascii.
 *
 * The oracle: `dumpi2ascii testtrace-000R.bin` (sst-dumpi a4c8bf5, built
 * from source) prints for every rank R nine calls - MPI_Init, Comm_rank,
 * Comm_size, Barrier, Isend, Recv, Wait, Allreduce, Finalize - with one
 * Isend of `count=1 datatype=9 (MPI_INT)` to dest (R + 1) mod 4 and one
 * Allreduce of the same; the files' datatype table gives MPI_INT 4 bytes.
 * Rank 0's MPI_Init enters at walltime 1296777956.737669000 (the earliest
 * record), rank 1's at .739561000, rank 3's MPI_Finalize returns at
 * .743226000 (the latest). Those numbers are hard-coded below; a further
 * test reruns dumpi2ascii when it is on PATH and compares every send. */
#include <json-glib/json-glib.h>

#include "testutil.h"
#include "traces/input.h"

static char *meta_path(void)
{
  return tu_src("tests/data/dumpi/testtrace.meta");
}

static trace *read_dumpi(void)
{
  g_autofree char *path = meta_path();
  GError *e = NULL;
  trace *t = input_read_trace(path, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  return t;
}

Test(dumpi_input, calls_pairs_and_times_match_dumpi2ascii)
{
  g_autoptr(trace) t = read_dumpi();
  cr_assert_eq(t->nranks, 4);
  const char *calls[] = { "MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Barrier",
                          "MPI_Isend", "MPI_Recv", "MPI_Wait", "MPI_Allreduce", "MPI_Finalize" };
  for (int r = 0; r < 4; r++) {
    int n = 0, colls = 0;
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (e->kind == TRACE_ENTER) {
        cr_assert(n < 9, "rank %d: more than 9 calls", r);
        cr_assert_str_eq(t->regions[e->region], calls[n], "rank %d call %d", r, n);
        n++;
      }
      if (e->kind == TRACE_COLL_END) {
        cr_assert_eq(e->op, colls == 0 ? COLL_BARRIER : COLL_ALLREDUCE);
        cr_assert_eq(e->bytes, colls == 0 ? 0 : 4);
        colls++;
      }
    }
    cr_assert_eq(n, 9, "rank %d", r);
    cr_assert_eq(colls, 2);
  }
  /* per pair: one message of 4 bytes from r to (r + 1) mod 4, nothing else */
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  cr_assert_eq(g->nedges, 4);
  for (int u = 0; u < 4; u++) {
    cr_assert_eq(g->xadj[u + 1] - g->xadj[u], 1);
    int k = g->xadj[u];
    cr_assert(g->adj[k] == (u + 1) % 4 && g->bytes[k] == 4 && g->msgs[k] == 1, "rank %d", u);
  }
  commgraph_free(g);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.unmatched_sends + s.unmatched_recvs, 0);
  /* the wall clock from the earliest record */
  cr_assert_eq(t->ranks[0].events[0].time, 0);
  cr_assert_eq(t->ranks[1].events[0].time, INT64_C(1892000000));
  cr_assert_eq(t->duration_ps, INT64_C(5557000000));
}

Test(dumpi_input, streamed_equals_whole)
{
  g_autoptr(trace) t = read_dumpi();
  g_autofree char *path = meta_path();
  GError *e = NULL;
  trace_source *s = input_read_source(path, NULL, &e);
  cr_assert_not_null(s, "%s", e ? e->message : "");
  cr_assert(trace_source_streamed(s));
  cr_assert_eq(trace_source_trace(s)->duration_ps, t->duration_ps);
  trace_cursor *c = trace_cursor_new(s);
  for (int r = 0; r < 4; r++) {
    trace_event ev[64];
    int64_t n = trace_cursor_read(c, r, ev, 64);
    cr_assert_eq(n, t->ranks[r].nevents);
    cr_assert(memcmp(ev, t->ranks[r].events, sizeof ev[0] * (size_t)n) == 0, "rank %d", r);
  }
  trace_cursor_free(c);
  trace_source_free(s);
}

/* Every send dumpi2ascii prints (count, datatype, dest) against the
 * reader's messages, when dumpi2ascii is on PATH. */
Test(dumpi_input, dumpi2ascii_on_path_agrees)
{
  g_autofree char *exe = g_find_program_in_path("dumpi2ascii");
  if (!exe)
    cr_skip_test("dumpi2ascii not on PATH (build sst-dumpi: ./bootstrap.sh && ./configure && "
                 "make); the hard-coded counts of the other tests still hold");
  g_autoptr(trace) t = read_dumpi();
  for (int r = 0; r < 4; r++) {
    g_autofree char *rel = g_strdup_printf("tests/data/dumpi/testtrace-%04d.bin", r);
    g_autofree char *bin = tu_src(rel);
    char *argv[] = { exe, bin, NULL };
    char *out = NULL;
    cr_assert_eq(tu_spawn(argv, &out, NULL), 0);
    int64_t want = 0, got = 0;
    int dest = -1;
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    gboolean in_send = FALSE;
    for (int i = 0; lines[i]; i++) {
      if (g_str_has_prefix(lines[i], "MPI_Isend entering") || g_str_has_prefix(lines[i], "MPI_Send entering"))
        in_send = TRUE;
      else if (in_send && sscanf(lines[i], "int dest=%d", &dest) == 1) {
        want++;
        in_send = FALSE;
      }
    }
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (e->kind == TRACE_SEND || e->kind == TRACE_ISEND) {
        got++;
        cr_assert_eq(e->peer, dest);
      }
    }
    cr_assert_eq(got, want, "rank %d", r);
    g_free(out);
  }
}

/* One line naming the file and what was expected, exit 2. */
Test(dumpi_input, bad_input_one_line)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *src = tu_src("tests/data/dumpi");
  g_autofree char *copy = g_build_filename(dir, "d", NULL);
  tu_copy_dir(src, copy);
  g_autofree char *meta = g_build_filename(copy, "testtrace.meta", NULL);
  g_autofree char *bin2 = g_build_filename(copy, "testtrace-0002.bin", NULL);
  g_autofree char *text = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(bin2, &text, &len, NULL));
  const struct {
    const char *what;
    gsize keep;          /* bytes of rank 2's file kept (0: the file as it is) */
    gssize flip;         /* a byte of it set to 0xff, or -1 */
    const char *meta, *expect;
  } bad[] = {
    { "truncated", 100, -1, NULL, "testtrace-0002.bin: record at byte 0: an index without "
                                 "datatype sizes, expected a file of sst-dumpi 0.6.6 or later" },
    { "tiny", 40, -1, NULL, "testtrace-0002.bin: record at byte 0: a file of 40 bytes, expected "
                            "a DUMPI .bin file" },
    { "label", 0, 0x3a, NULL, "testtrace-0002.bin: record at byte 58: function label 65362, "
                              "expected one of the 293 calls" },
    { "no numprocs", 0, -1, "fileprefix=testtrace\n", "testtrace.meta: no numprocs, expected a "
                                                      "DUMPI .meta file" },
    { "missing rank", 0, -1, "numprocs=5\nfileprefix=testtrace\n",
      "testtrace-0004.bin: No such file or directory, expected a DUMPI .bin file" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *b = g_memdup2(text, len);
    if (bad[i].flip >= 0)
      b[bad[i].flip] = (char)0xff;
    cr_assert(g_file_set_contents(bin2, b, (gssize)(bad[i].keep ? bad[i].keep : len), NULL));
    cr_assert(g_file_set_contents(meta, bad[i].meta ? bad[i].meta
                                                   : "numprocs=4\nfileprefix=testtrace\n", -1, NULL));
    GError *e = NULL;
    cr_assert_null(input_read_trace(meta, &e), "%s", bad[i].what);
    cr_assert(e && strstr(e->message, bad[i].expect), "%s: '%s' not in '%s'", bad[i].what,
              bad[i].expect, e ? e->message : "");
    g_clear_error(&e);
    char *out = NULL, *err = NULL;
    const char *args[] = { "trace", "info", meta, NULL };
    cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
    cr_assert_eq(tu_lines(err), 1, "%s", err);
    g_free(out);
    g_free(err);
  }
  tu_rm_rf(dir);
}

static double makespan_of(const char *out)
{
  g_autoptr(JsonParser) p = json_parser_new();
  cr_assert(json_parser_load_from_data(p, out, -1, NULL), "%s", out);
  return json_object_get_double_member(json_node_get_object(json_parser_get_root(p)),
                                       "makespan_s");
}

/* trace info, map, compare, simulate and export on the DUMPI trace. */
Test(dumpi_input, commands)
{
  g_autofree char *meta = meta_path();
  g_autofree char *dir = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  const char *info[] = { "trace", "info", meta, NULL };
  cr_assert_eq(tu_run(&out, &err, info), 0, "%s", err);
  cr_assert(strstr(out, "\nformat          dumpi (sst-dumpi)\n"), "%s", out);
  cr_assert(strstr(out, "\np2p             4 messages, 16 bytes\n"), "%s", out);
  g_free(out);
  g_free(err);
  /* a ring on a line of 4: the identity has 3 one-hop messages and one of
   * three hops: 4 x 3 + 4 x 1 x 3 hop-bytes */
  const char *map[] = { "map", "-q", "-p", "mesh:4", "-t", meta, "-s", "greedy", "--json",
                        "--collectives", "none", NULL };
  cr_assert_eq(tu_run(&out, &err, map), 0, "%s", err);
  g_autoptr(JsonParser) mp = json_parser_new();
  cr_assert(json_parser_load_from_data(mp, out, -1, NULL), "%s", out);
  JsonObject *m = json_node_get_object(json_parser_get_root(mp));
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(m, "identity"),
                                          "hop_bytes"), 24, "%s", out);
  g_free(out);
  g_free(err);
  const char *cmp[] = { "compare", "-q", "-p", "mesh:4", "-t", meta, "-s", "greedy", NULL };
  cr_assert_eq(tu_run(&out, &err, cmp), 0, "%s", err);
  g_free(out);
  g_free(err);
  /* the computation between calls dominates: the replay ends near the
   * traced 5.557 ms */
  const char *sim[] = { "simulate", "-q", "-p", "mesh:4", "-t", meta, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, sim), 0, "%s", err);
  double ms = makespan_of(out);
  cr_assert(ms > 1e-3 && ms < 6e-3, "%g", ms);
  g_free(out);
  g_free(err);
  g_autofree char *sg = g_build_filename(dir, "sg", NULL);
  const char *exp[] = { "export", "simgrid", "-q", "-p", "mesh:4", "-t", meta, "-o", sg, NULL };
  cr_assert_eq(tu_run(&out, &err, exp), 0, "%s", err);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
}

/* A trace of tests/data/dumpi-split/app.c (libdumpi 13.0.0, 4 ranks):
 * Comm_split by rank parity with key -rank (so ranks 2, 0 and 3, 1 in that
 * order), a Sendrecv of 1000 doubles with the other member, Alltoallv of
 * (rank + 1)(j + 1) ints to rank j, an any-source Irecv and an Isend of 7
 * ints around the ring completed by one Waitall, Bcast of 10 ints from the
 * split communicator's rank 0, Barrier and Allreduce on a Comm_dup of
 * MPI_COMM_WORLD, and from rank 0 to 2 a Send of two Type_contiguous(3,
 * MPI_DOUBLE), and last an Irecv and an Isend with MPI_PROC_NULL, one
 * Waitall. dumpi2ascii prints rank 0's Sendrecv as `dest=0` on comm 4
 * (its split communicator, color 0 key 0: world rank 2 is its rank 0),
 * its Alltoallv `sendcounts[4]=[1, 2, 3, 4]` of MPI_INT, its Send of
 * `count=2` of datatype 28 (user-defined) to dest 2. */
Test(dumpi_input, communicators_and_derived_types)
{
  g_autofree char *meta = tu_src("tests/data/dumpi-split/split.meta");
  GError *e = NULL;
  g_autoptr(trace) t = input_read_trace(meta, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  /* per pair (row = sender): Sendrecv 8000 with the split partner, 28 on
   * the ring, 48 more from 0 to 2 */
  const int64_t want[4][4] = { { 0, 28, 8048, 0 }, { 0, 0, 28, 8000 }, { 8000, 0, 0, 28 },
                               { 28, 8000, 0, 0 } };
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  int64_t got[4][4] = { { 0 } };
  for (int u = 0; u < 4; u++)
    for (int k = g->xadj[u]; k < g->xadj[u + 1]; k++)
      got[u][g->adj[k]] = g->bytes[k];
  commgraph_free(g);
  cr_assert(memcmp(got, want, sizeof want) == 0);
  for (int r = 0; r < 4; r++) {
    int64_t a2av = -1;
    int bcast_root = -2, irecv_from = -1, cancelled = 0;
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *ev = &t->ranks[r].events[i];
      if (ev->kind == TRACE_COLL_END && ev->op == COLL_ALLTOALLV)
        a2av = ev->bytes;
      if (ev->kind == TRACE_COLL_END && ev->op == COLL_BCAST) {
        bcast_root = ev->peer;
        cr_assert_eq(t->comms[ev->comm].size, 2);
      }
      if (ev->kind == TRACE_IRECV)
        irecv_from = ev->peer;
      cancelled += ev->kind == TRACE_REQUEST_CANCELLED;
    }
    /* the MPI_PROC_NULL receive ends without a message (it was a receive
     * from rank -1, which nothing matches) */
    cr_assert_eq(cancelled, 1, "rank %d", r);
    cr_assert_eq(a2av, (r + 1) * 10 * 4, "rank %d", r);     /* (r+1)(1+2+3+4) ints */
    cr_assert_eq(bcast_root, r % 2 == 0 ? 2 : 3, "rank %d", r);
    cr_assert_eq(irecv_from, (r + 3) % 4, "rank %d", r);     /* the status's source */
  }
  trace_summary sum;
  trace_summarize(t, &sum);
  cr_assert_eq(sum.unmatched_sends + sum.unmatched_recvs, 0);
}
