/* test_trace_read.c - the OTF2 reader on the real Score-P traces of
 * tests/data/traces: record counts equal otf2-print's (table computed
 * once with `otf2-print ARCHIVE | awk '{print $1}' | sort | uniq -c`, and
 * re-checked live when /usr/bin/otf2-print exists), every send matches its
 * receive, world/communicator translation, and bad archives give exit
 * status 2 with one line. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "traces/commgraph-private.h"
#include "traces/trace.h"
#include "tracetest.h"

typedef struct {
  char dir[40];  /* inline: criterion copies parameters to another process */
  int ranks, locations;
  int64_t enter, leave, send, recv, irecv_request, irecv, coll_begin, coll_end, onoff;
  int64_t p2p_bytes;
  int64_t barriers, allreduces;
  uint32_t world;    /* index of MPI_COMM_WORLD: not always comm 0 */
  int64_t retained;  /* events kept for the MPI ranks */
} trace_case;

static const trace_case cases[] = {
  { "casita-10_scorep_mpi_tags", 10, 10, 196, 196, 18, 18, 0, 0, 0, 0, 0, 72, 0, 0, 0, 228 },
  { "casita-2_jacobi_blame_cpu_015", 2, 10, 110425, 110425, 2000, 2000, 0, 0, 2004, 2004, 0,
    32752000, 4, 2000, 4, 16032 },
  { "casita-4_mpi_ls_barr", 4, 4, 48, 48, 3, 3, 0, 0, 4, 4, 0, 12, 4, 0, 0, 66 },
  { "pipit-ping-pong-otf2", 2, 2, 42, 42, 16, 16, 0, 0, 0, 0, 0, 8355840, 0, 0, 1, 112 },
  { "tracer-stencil4d-32", 32, 32, 1251, 1249, 512, 0, 512, 512, 96, 96, 96, 67108864, 96, 0, 0,
    4160 },
  { "tracer-stencil4d-64", 64, 64, 2499, 2497, 1024, 0, 1024, 1024, 192, 192, 192, 268435456,
    192, 0, 0, 8320 },
};

static char *trace_path(const char *name)
{
  char *rel = g_build_filename("traces", name, NULL);
  char *path = tu_data(rel);
  g_free(rel);
  return path;
}

static trace *read_case(const trace_case *c)
{
  char *dir = trace_path(c->dir);
  GError *e = NULL;
  trace *t = trace_read_otf2(dir, &e);
  cr_assert(t, "%s: %s", c->dir, e ? e->message : "?");
  g_free(dir);
  return t;
}

ParameterizedTestParameters(trace_read, real_traces)
{
  return cr_make_param_array(trace_case, cases, G_N_ELEMENTS(cases));
}

ParameterizedTest(const trace_case *c, trace_read, real_traces)
{
  trace *t = read_case(c);
  const int64_t *r = t->stats.records;
  cr_assert_eq(t->nranks, c->ranks, "%s ranks", c->dir);
  cr_assert_eq(t->stats.locations, c->locations, "%s locations", c->dir);
  cr_assert_eq(r[REC_ENTER], c->enter, "%s ENTER", c->dir);
  cr_assert_eq(r[REC_LEAVE], c->leave, "%s LEAVE", c->dir);
  cr_assert_eq(r[REC_MPI_SEND], c->send, "%s MPI_SEND", c->dir);
  cr_assert_eq(r[REC_MPI_RECV], c->recv, "%s MPI_RECV", c->dir);
  cr_assert_eq(r[REC_MPI_IRECV_REQUEST], c->irecv_request, "%s IRECV_REQUEST", c->dir);
  cr_assert_eq(r[REC_MPI_IRECV], c->irecv, "%s MPI_IRECV", c->dir);
  cr_assert_eq(r[REC_MPI_COLLECTIVE_BEGIN], c->coll_begin, "%s COLL_BEGIN", c->dir);
  cr_assert_eq(r[REC_MPI_COLLECTIVE_END], c->coll_end, "%s COLL_END", c->dir);
  cr_assert_eq(r[REC_MEASUREMENT_ON_OFF], c->onoff, "%s ON_OFF", c->dir);
  cr_assert_eq(t->world, c->world, "%s world comm", c->dir);
  cr_assert_eq(t->comms[t->world].size, c->ranks);

  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.events, c->retained, "%s retained %ld", c->dir, (long)s.events);
  cr_assert_eq(s.p2p_messages, c->send, "%s p2p messages", c->dir);
  cr_assert_eq(s.p2p_bytes, c->p2p_bytes, "%s p2p bytes %ld", c->dir, (long)s.p2p_bytes);
  cr_assert_eq(s.per_op[COLL_BARRIER], c->barriers, "%s barriers", c->dir);
  cr_assert_eq(s.per_op[COLL_ALLREDUCE], c->allreduces, "%s allreduces", c->dir);
  cr_assert_eq(s.unmatched_sends, 0, "%s unmatched sends", c->dir);
  cr_assert_eq(s.unmatched_recvs, 0, "%s unmatched receives", c->dir);
  cr_assert_eq(s.mismatched_bytes, 0, "%s size mismatches", c->dir);
  cr_assert_eq(t->stats.unbalanced, 0, "%s unbalanced MPI enter/leave", c->dir);
  /* per rank: time ascending, every MPI Enter has its Leave, peers are world ranks */
  for (int i = 0; i < t->nranks; i++) {
    int depth = 0;
    for (int64_t k = 0; k < t->ranks[i].nevents; k++) {
      const trace_event *e = &t->ranks[i].events[k];
      if (k > 0)
        cr_assert_geq(e->time, t->ranks[i].events[k - 1].time);
      cr_assert_geq(e->time, 0);
      cr_assert_leq(e->time, t->duration_ps);
      depth += e->kind == TRACE_ENTER ? 1 : e->kind == TRACE_LEAVE ? -1 : 0;
      cr_assert_geq(depth, 0);
      if (e->kind == TRACE_SEND || e->kind == TRACE_RECV || e->kind == TRACE_IRECV)
        cr_assert(e->peer >= 0 && e->peer < t->nranks && e->peer != i);
    }
    cr_assert_eq(depth, 0);
  }
  trace_free(t);
}

/* The jacobi trace has 10 locations (master + 3 OpenMP threads + a CUDA
 * stream per rank); only the master threads carry MPI. */
Test(trace_read, jacobi_master_threads_only)
{
  trace *t = read_case(&cases[1]);
  cr_assert_eq(t->ranks[0].nevents + t->ranks[1].nevents, 16032);
  cr_assert_eq(t->timer_resolution, 1000000000u);
  /* every rank sends 1000 messages to the other one */
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  cr_assert_eq(g->nedges, 2);
  cr_assert_eq(g->msgs[0], 1000);
  cr_assert_eq(g->msgs[1], 1000);
  commgraph_free(g);
  /* Score-P 1.3 recorded each allreduce as Sent 8 / Received 8: N = 2
   * times one float (the halo rows are 4094 floats, 16376 bytes); each
   * rank contributes those 4 bytes */
  int64_t allreduces = 0;
  for (int r = 0; r < 2; r++)
    for (int64_t k = 0; k < t->ranks[r].nevents; k++) {
      const trace_event *e = &t->ranks[r].events[k];
      if (e->kind == TRACE_COLL_END && e->op == COLL_ALLREDUCE) {
        cr_assert_eq(e->bytes, 4);
        cr_assert_eq(e->bytes_recv, 8);
        allreduces++;
      }
    }
  cr_assert_eq(allreduces, 2000);
  trace_free(t);
}

/* ping-pong: MPI_COMM_WORLD is comm 1 (comm 0 is Score-P's own); the
 * ps conversion uses the 2095197216 ticks/s clock. */
Test(trace_read, pingpong_world_is_comm1)
{
  trace *t = read_case(&cases[3]);
  cr_assert_eq(t->world, 1);
  cr_assert_eq(t->timer_resolution, 2095197216u);
  cr_assert_str_eq(t->comms[1].name, "MPI_COMM_WORLD");
  cr_assert(t->comms[2].self);
  /* duration = trace length 418210708 ticks = 0.199604... s */
  cr_assert_float_eq((double)t->duration_ps / 1e12, 418210708.0 / 2095197216.0, 1e-9);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  cr_assert_eq(commgraph_total_msgs(g), 16);
  cr_assert_eq(commgraph_total_bytes(g), 8355840);
  commgraph_free(g);
  trace_free(t);
}

/* Collective expansion: 96 barriers on 32 ranks with dissemination =
 * 96/32 calls * 32 * log2(32) zero-byte messages added as edges. */
Test(trace_read, stencil_collectives_expanded)
{
  trace *t = read_case(&cases[4]);
  commgraph *p2p = trace_commgraph(t, FALSE, NULL, NULL);
  commgraph *all = trace_commgraph(t, TRUE, "dissemination", NULL);
  cr_assert_eq(commgraph_total_msgs(p2p), 512);
  cr_assert_eq(commgraph_total_msgs(all), 512 + 3 * 32 * 5);
  cr_assert_eq(commgraph_total_bytes(all), commgraph_total_bytes(p2p));
  GError *e = NULL;
  cr_assert_null(trace_commgraph(t, TRUE, "nonsense", &e));
  cr_assert_not_null(e);
  g_error_free(e);
  commgraph_free(p2p);
  commgraph_free(all);
  trace_free(t);
}

/* ---- the command, live otf2-print, bad input --------------------------- */

Test(trace_read, info_json)
{
  char *dir = trace_path("tracer-stencil4d-64");
  char *argv[] = { (char *)g_getenv("MAPSIM"), "trace", "info", dir, "--json", NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "%s", err);
  cr_assert(strstr(out, "\"ranks\" : 64"), "%s", out);
  cr_assert(strstr(out, "\"p2p_messages\" : 1024"));
  cr_assert(strstr(out, "\"p2p_bytes\" : 268435456"));
  cr_assert(strstr(out, "\"collective_calls\" : 192"));
  cr_assert(strstr(out, "\"unmatched\" : 0"));
  cr_assert(strstr(out, "\"MPI_IRECV\" : 1024"));
  /* 8320 records over 64 ranks, 130 each; the estimate's in-memory part
   * is 12 MiB + 1.5 KiB per rank + 48 bytes per record, the file 8 per record */
  cr_assert(strstr(out, "\"records_per_rank_min\" : 130,"), "%s", out);
  cr_assert(strstr(out, "\"records_per_rank_max\" : 130,"));
  cr_assert(strstr(out, "\"replay_memory_in_memory_bytes\" : 13080576.0"));
  cr_assert(strstr(out, "\"replay_temporary_file_bytes\" : 66560.0"));
  g_free(out);
  g_free(err);
  g_free(dir);
}

Test(trace_read, matrix_csv)
{
  char *dir = trace_path("tracer-stencil4d-32");
  char *tmp = tu_tmp_dir();
  char *csv = g_build_filename(tmp, "m.csv", NULL);
  char *argv[] = { (char *)g_getenv("MAPSIM"), "trace", "matrix", dir, "--kind", "count", "-o",
                   csv, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "%s", err);
  GError *e = NULL;
  commgraph *g = commgraph_load(csv, &e);
  cr_assert(g, "%s", e ? e->message : "");
  cr_assert_eq(g->n, 32);
  cr_assert_eq(commgraph_total_bytes(g), 512);  /* counts land in the value column */
  commgraph_free(g);
  g_unlink(csv);
  g_rmdir(tmp);
  g_free(csv);
  g_free(tmp);
  g_free(out);
  g_free(err);
  g_free(dir);
}

/* otf2-print, when installed, sees as many MPI_SEND lines as we count. */
Test(trace_read, live_otf2_print)
{
  if (!g_file_test("/usr/bin/otf2-print", G_FILE_TEST_IS_EXECUTABLE))
    cr_skip_test("otf2-print not installed");
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *dir = trace_path(cases[i].dir);
    char *anchor = g_build_filename(dir, "traces.otf2", NULL);
    char *argv[] = { "/usr/bin/otf2-print", anchor, NULL };
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_spawn(argv, &out, &err), 0);
    int64_t sends = 0, enters = 0;
    for (char *p = out; (p = strchr(p, '\n')); p++) {
      sends += strncmp(p + 1, "MPI_SEND ", 9) == 0;
      enters += strncmp(p + 1, "ENTER ", 6) == 0;
    }
    cr_assert_eq(sends, cases[i].send, "%s", cases[i].dir);
    cr_assert_eq(enters, cases[i].enter, "%s", cases[i].dir);
    g_free(out);
    g_free(err);
    g_free(anchor);
    g_free(dir);
  }
}

static char *copy_trace(const char *name, const char *tmp)
{
  char *src = trace_path(name);
  char *dst = g_build_filename(tmp, name, NULL);
  tu_copy_dir(src, dst);
  g_free(src);
  return dst;
}

Test(trace_read, bad_input)
{
  char *tmp = tu_tmp_dir();
  char *missing = g_build_filename(tmp, "nope", NULL);
  tu_expect_bad_trace(missing, "no such file");
  char *garbage = g_build_filename(tmp, "garbage.otf2", NULL);
  g_file_set_contents(garbage, "this is not an OTF2 anchor\n", -1, NULL);
  tu_expect_bad_trace(garbage, "no OTF2 signature, expected an OTF2 anchor file");
  char *txt = g_build_filename(tmp, "matrix.csv", NULL);
  g_file_set_contents(txt, "0,1\n1,0\n", -1, NULL);
  tu_expect_bad_trace(txt, "matrix.csv: a dense CSV matrix (*.csv, row = sender), not a trace; "
                           "expected a trace: an OTF2 archive");

  char *trunc = copy_trace("tracer-stencil4d-32", tmp);
  char *evt = g_build_filename(trunc, "traces", "3.evt", NULL);
  cr_assert_eq(truncate(evt, 1000), 0);
  tu_expect_bad_trace(trunc, "3.evt");
  g_unlink(evt);
  tu_expect_bad_trace(trunc, "3.evt: No such file or directory");
  char *def = g_build_filename(trunc, "traces.def", NULL);
  cr_assert_eq(truncate(def, 300), 0);
  tu_expect_bad_trace(trunc, "global definitions");

  tu_rm_rf(tmp);
  g_free(def);
  g_free(evt);
  g_free(trunc);
  g_free(txt);
  g_free(garbage);
  g_free(missing);
  g_free(tmp);
}

/* More locations than one reader batch: batches run on pool threads, the
 * records come back in location order, OTF2 stays silent on those threads
 * and the first broken location is the one named. */
Test(trace_read, many_locations_in_batches)
{
  char *tmp = tu_tmp_dir();
  char *dir = g_build_filename(tmp, "ring", NULL);
  char *argv_gen[] = { (char *)g_getenv("MAPSIM"), "gen", "--pattern", "ring", "--ranks", "700",
                       "-i", "2", "--nonblocking", "-o", dir, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv_gen, &out, &err), 0, "%s", err);
  g_free(out);
  g_free(err);
  GError *e = NULL;
  trace *t = trace_read_otf2(dir, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "?");
  cr_assert_eq(t->nranks, 700);
  for (int r = 0; r < t->nranks; r++) {
    cr_assert_eq(t->ranks[r].nevents, 2 * 10, "rank %d: %" G_GINT64_FORMAT, r, t->ranks[r].nevents);
    cr_assert_eq(t->ranks[r].events[4].kind, TRACE_ISEND);
    cr_assert_eq(t->ranks[r].events[4].peer, (r + 1) % 700);
  }
  cr_assert_eq(t->stats.records[REC_MPI_ISEND], 1400);
  trace_free(t);
  char *late = g_build_filename(dir, "traces", "650.evt", NULL);
  char *later = g_build_filename(dir, "traces", "699.evt", NULL);
  cr_assert_eq(truncate(late, 10), 0);
  cr_assert_eq(truncate(later, 10), 0);
  tu_expect_bad_trace(dir, "650.evt");
  g_free(later);
  g_free(late);
  g_free(dir);
  g_free(tmp);
}
