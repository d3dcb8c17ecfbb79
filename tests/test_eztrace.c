/* test_eztrace.c - EZTrace 2.0 archives: tests/data/traces/
 * eztrace-tracer_app-4 and eztrace-tracer_app-4-persistent,
 * tests/tracer_app on 4 Open MPI ranks under `eztrace -t openmpi`
 * (tests/data/README.md). Record counts equal
 * otf2-print's (table from `otf2-print ARCHIVE | awk '{print $1}' | sort |
 * uniq -c`, re-checked live when otf2-print is installed); messages and
 * bytes per rank pair are what the program's tally says it sent, less the
 * MPI_Sendrecv messages EZTrace does not record; the receive completions
 * EZTrace leaves out are approximated as otf2-eztrace.c says, with one
 * warning; `mapsim simulate` replays the trace and its pre/post check
 * passes. */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "traces/commgraph-private.h"
#include "traces/trace.h"
#include "tracetest.h"
#include "util/budget.h"

enum { NP = 4 };

/* The tally tracer_app wrote (tally.R: "p2p DST MESSAGES BYTES"), less its
 * one MPI_Sendrecv per rank (1000 + 10 * rank bytes to the next member of
 * its half, 0 <-> 2 and 1 <-> 3), which EZTrace 2.0 records as Enter/Leave
 * only. [src][dst] */
static const int64_t want_msgs[NP][NP] = {
  { 0, 16, 8 - 1, 1 }, { 8, 0, 7, 8 - 1 }, { 8 - 1, 0, 0, 14 }, { 7, 8 - 1, 7, 0 },
};
static const int64_t want_bytes[NP][NP] = {
  { 0, 2044, 1250 - 1000, 1048576 },
  { 412, 0, 1225, 1252 - 1010 },
  { 1254 - 1020, 0, 0, 1530 },
  { 1227, 1256 - 1030, 352, 0 },
};

static char *archive(void)
{
  return tu_data("traces/eztrace-tracer_app-4");
}

static trace *read_dir(const char *name)
{
  char *rel = g_build_filename("traces", name, NULL), *dir = tu_data(rel);
  g_free(rel);
  GError *e = NULL;
  trace *t = trace_read_otf2(dir, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "?");
  g_free(dir);
  return t;
}

static trace *read_archive(void)
{
  return read_dir("eztrace-tracer_app-4");
}

/* Messages and bytes per rank pair against the tally. */
static void check_pairs(const trace *t)
{
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  int64_t msgs[NP][NP] = { { 0 } }, bytes[NP][NP] = { { 0 } };
  for (int s = 0; s < NP; s++)
    for (int k = g->xadj[s]; k < g->xadj[s + 1]; k++) {
      msgs[s][g->adj[k]] += g->msgs[k];
      bytes[s][g->adj[k]] += g->bytes[k];
    }
  for (int s = 0; s < NP; s++)
    for (int d = 0; d < NP; d++) {
      cr_assert_eq(msgs[s][d], want_msgs[s][d], "%d -> %d: %ld messages", s, d, (long)msgs[s][d]);
      cr_assert_eq(bytes[s][d], want_bytes[s][d], "%d -> %d: %ld bytes", s, d, (long)bytes[s][d]);
    }
  cr_assert_eq(commgraph_total_msgs(g), 88);
  cr_assert_eq(commgraph_total_bytes(g), 1056318);
  commgraph_free(g);
}

Test(eztrace, records_as_otf2_print_counts)
{
  trace *t = read_archive();
  const int64_t *r = t->stats.records;
  cr_assert_eq(t->nranks, NP);
  cr_assert_eq(t->stats.locations, NP);
  cr_assert_eq(t->timer_resolution, 1000000000u);
  cr_assert_eq(r[REC_ENTER], 397);
  cr_assert_eq(r[REC_LEAVE], 397);
  cr_assert_eq(r[REC_MPI_SEND], 4);
  cr_assert_eq(r[REC_MPI_ISEND], 84);
  cr_assert_eq(r[REC_MPI_ISEND_COMPLETE], 8);
  cr_assert_eq(r[REC_MPI_RECV], 4);
  cr_assert_eq(r[REC_MPI_IRECV_REQUEST], 84);
  cr_assert_eq(r[REC_MPI_IRECV], 0, "EZTrace writes no MPI_IRECV");
  cr_assert_eq(r[REC_MPI_COLLECTIVE_BEGIN], 52);
  cr_assert_eq(r[REC_MPI_COLLECTIVE_END], 36);
  cr_assert_eq(t->stats.unbalanced, 0);
  /* MPI_COMM_WORLD is the COMM_GROUP of id 0, which shares its id with
   * the COMM_LOCATIONS group of the ranks */
  cr_assert_str_eq(t->comms[t->world].name, "MPI_COMM_WORLD");
  cr_assert_eq(t->comms[t->world].size, NP);
  /* the halves of MPI_Comm_split(me % 2, key P - me): comm rank order 2, 0
   * and 3, 1; their bcast's root is comm rank 1 (world 0 and 1) */
  int halves = 0, bcasts = 0;
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    halves += !tc->self && tc->size == 2 &&
              ((tc->members[0] == 2 && tc->members[1] == 0) ||
               (tc->members[0] == 3 && tc->members[1] == 1));
  }
  cr_assert_eq(halves, 2);
  for (int k = 0; k < NP; k++)
    for (int64_t i = 0; i < t->ranks[k].nevents; i++) {
      const trace_event *e = &t->ranks[k].events[i];
      if (e->kind == TRACE_COLL_END && e->op == COLL_BCAST && e->comm != t->world) {
        cr_assert_eq(e->peer, k % 2, "rank %d: bcast root %d", k, e->peer);
        cr_assert_eq(e->bytes, 400);
        bcasts++;
      }
    }
  cr_assert_eq(bcasts, NP);
  trace_free(t);
}

Test(eztrace, messages_per_pair_as_sent)
{
  trace *t = read_archive();
  check_pairs(t);
  trace_free(t);
}

/* The other archive of the same program (tests/data/README.md): here
 * EZTrace did write MPI_IRECV for the 8 persistent receives (tag 30, 512
 * bytes from the previous rank, twice per rank); those are kept as they
 * are and take their sends, the other 76 receives are approximated. */
Test(eztrace, recorded_completions_kept)
{
  trace *t = read_dir("eztrace-tracer_app-4-persistent");
  cr_assert_eq(t->stats.records[REC_MPI_IRECV], 8);
  cr_assert_eq(t->stats.records[REC_MPI_IRECV_REQUEST], 84);
  cr_assert(t->notice && strstr(t->notice, "EZTrace trace: its 76 non-blocking receives"), "%s",
            t->notice ? t->notice : "no notice");
  check_pairs(t);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.per_kind[TRACE_IRECV], 84);
  cr_assert_eq(s.unmatched_sends, 0);
  cr_assert_eq(s.unmatched_recvs, 0);
  int tag30 = 0;
  for (int r = 0; r < NP; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (e->kind == TRACE_IRECV && e->tag == 30) {
        cr_assert_eq(e->peer, (r + NP - 1) % NP);
        cr_assert_eq(e->bytes, 512);
        tag30++;
      }
    }
  cr_assert_eq(tag30, 8);
  trace_free(t);
  char *dir = tu_data("traces/eztrace-tracer_app-4-persistent");
  char *out = NULL, *err = NULL;
  const char *sim[] = { "simulate", "-p", "torus:2x2x1", "-t", dir, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, sim), 0, "%s", err);
  cr_assert(strstr(out, "\"pre_post_match\" : true"), "%s", out);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(out);
  g_free(err);
  g_free(dir);
}

/* Every receive request got its completion: an MPI_IRECV of the same
 * request, placed just before the Leave of an MPI_Wait* / MPI_Test* call,
 * at its time; each send is received once (one size pair differs: the
 * MPI_Comm_dup messages of rank 0 to 1, which EZTrace records on
 * MPI_COMM_WORLD with the same tag as the MPI_COMM_WORLD one, swap). */
Test(eztrace, receive_completions_approximated)
{
  trace *t = read_archive();
  cr_assert_not_null(t->notice);
  cr_assert(strstr(t->notice, "eztrace_log.otf2: EZTrace trace: its 84 non-blocking receives "
                   "have no completion records"), "%s", t->notice);
  cr_assert(strstr(t->notice, "first run of MPI_Wait*/MPI_Test* calls"), "%s", t->notice);
  cr_assert_null(strstr(t->notice, "found no send"), "%s", t->notice);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.per_kind[TRACE_IRECV], 84);
  cr_assert_eq(s.per_kind[TRACE_IRECV_REQUEST], 84);
  cr_assert_eq(s.p2p_messages, 88);
  cr_assert_eq(s.p2p_bytes, 1056318);
  cr_assert_eq(s.unmatched_sends, 0);
  cr_assert_eq(s.unmatched_recvs, 0);
  cr_assert_eq(s.mismatched_bytes, 2);
  for (int r = 0; r < NP; r++) {
    const trace_rank *tr = &t->ranks[r];
    int64_t posted = 0, completed = 0;
    for (int64_t i = 0; i < tr->nevents; i++) {
      const trace_event *e = &tr->events[i];
      if (i > 0)
        cr_assert_geq(e->time, tr->events[i - 1].time, "rank %d record %ld", r, (long)i);
      posted += e->kind == TRACE_IRECV_REQUEST;
      if (e->kind != TRACE_IRECV)
        continue;
      completed++;
      int64_t j = i + 1;
      while (j < tr->nevents && tr->events[j].kind == TRACE_IRECV)
        j++;
      cr_assert_lt(j, tr->nevents);
      const trace_event *leave = &tr->events[j];
      cr_assert_eq(leave->kind, TRACE_LEAVE, "rank %d: record %ld after an IRECV", r, (long)j);
      const char *name = t->regions[leave->region];
      cr_assert(g_str_has_prefix(name, "MPI_Wait") || g_str_has_prefix(name, "MPI_Test"), "%s",
                name);
      cr_assert_eq(e->time, leave->time);
      cr_assert(e->peer >= 0 && e->peer < NP && e->peer != r);
      gboolean was_posted = FALSE;
      for (int64_t k = i; k-- > 0 && !was_posted;)
        was_posted = tr->events[k].kind == TRACE_IRECV_REQUEST &&
                     tr->events[k].request == e->request;
      cr_assert(was_posted, "rank %d: IRECV of a request never posted", r);
    }
    cr_assert_eq(posted, 21, "rank %d", r);
    cr_assert_eq(completed, posted, "rank %d", r);
  }
  /* rank 0's first halo exchange (2x2 periodic grid): its 4 receives
   * complete at the Leave of the first MPI_Waitall, from ranks 1 and 2
   * twice each; tracer_app's sizes 8 * (1 + (src + 3 d + 5 it) % 7): from
   * 1 directions 0 and 1 (16 + 40, tags 0, 1), from 2 directions 2 and 3
   * (16 + 40, tags 2, 3) */
  const trace_rank *r0 = &t->ranks[0];
  int64_t waitall = -1;
  for (int64_t i = 0; i < r0->nevents && waitall < 0; i++)
    if (r0->events[i].kind == TRACE_LEAVE &&
        strcmp(t->regions[r0->events[i].region], "MPI_Waitall") == 0)
      waitall = i;
  cr_assert_geq(waitall, 4);
  int64_t bytes = 0;
  int from[NP] = { 0 };
  uint32_t tags = 0;
  for (int64_t i = waitall - 4; i < waitall; i++) {
    const trace_event *e = &r0->events[i];
    cr_assert_eq(e->kind, TRACE_IRECV);
    cr_assert_eq(e->time, r0->events[waitall].time);
    cr_assert_eq(e->time, 280867000); /* ps: the Leave at 280867 ns */
    from[e->peer]++;
    bytes += e->bytes;
    tags |= 1u << e->tag;
  }
  cr_assert_eq(r0->events[waitall - 5].kind, TRACE_ENTER);
  cr_assert_eq(from[1], 2);
  cr_assert_eq(from[2], 2);
  cr_assert_eq(bytes, 16 + 40 + 16 + 40);
  cr_assert_eq(tags, 0xfu);
  trace_free(t);
}

/* The replay: every message delivered, the pre/post check passes, and the
 * warning is printed once, on one line. */
Test(eztrace, simulate_with_one_warning)
{
  char *dir = archive();
  char *out = NULL, *err = NULL;
  const char *sim[] = { "simulate", "--platform", "torus:2x2x1", "--trace", dir, NULL };
  cr_assert_eq(tu_run(&out, &err, sim), 0, "%s", err);
  cr_assert(strstr(out, "pre/post check (bytes of every link and hop_bytes, p2p+collectives "
                   "traffic): match"), "%s", out);
  cr_assert(strstr(out, "p2p messages           88 (1056318 bytes)"), "%s", out);
  cr_assert_eq(tu_count(err, "mapsim: warning: "), 1, "%s", err);
  cr_assert_eq(tu_count(err, "EZTrace trace: its 84 non-blocking receives"), 1, "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(out);
  g_free(err);
  /* with an output trace the archive is read in memory, not through a
   * source: the same results, the same warning */
  char *tmp = tu_tmp_dir(), *sim_out = g_build_filename(tmp, "sim", NULL);
  const char *json[] = { "simulate", "-p", "torus:2x2x1", "-t", dir, "--json", "-o", sim_out,
                         NULL };
  cr_assert_eq(tu_run(&out, &err, json), 0, "%s", err);
  cr_assert(strstr(out, "\"p2p_messages\" : 88,"), "%s", out);
  cr_assert(strstr(out, "\"pre_post_match\" : true"), "%s", out);
  cr_assert_eq(tu_count(err, "mapsim: warning: "), 1, "%s", err);
  g_free(out);
  g_free(err);
  g_free(sim_out);
  g_free(tmp);
  g_free(dir);
}

/* The memory budget of an EZTrace read counts the records read: the
 * event files (16,475 bytes) bound the records at 2 bytes each, 8,237
 * events or 395,376 bytes at 48 bytes an event, while the archive keeps
 * 1,050 records (the 1,066 of the table above less the Enter and Leave
 * of "Working" and "EZTrace finalize" on every rank), 50,400 bytes. A
 * budget of 128 KiB reads it; one of 32 KiB fails naming the archive. */
Test(eztrace, budget_counts_records_read)
{
  char *dir = archive();
  GError *e = NULL;
  budget_set_memory(128 * 1024);
  trace *t = trace_read_otf2(dir, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "?");
  int64_t events = 0;
  for (int r = 0; r < t->nranks; r++)
    events += t->ranks[r].nevents;
  /* plus the 84 approximated completions */
  cr_assert_eq(events, 1050 + 84);
  trace_free(t);
  budget_set_memory(32 * 1024);
  cr_assert_null(trace_read_otf2(dir, &e));
  cr_assert_not_null(e);
  cr_assert(g_error_matches(e, BUDGET_ERROR, BUDGET_ERROR_MEMORY), "%s", e->message);
  cr_assert(strstr(e->message, "eztrace_log.otf2: ") &&
                strstr(e->message, " events read so far (EZTrace): needs about ") &&
                strstr(e->message, "more than the memory budget of 32.0 KiB"),
            "%s", e->message);
  g_error_free(e);
  budget_set_memory(0);
  g_free(dir);
}

/* otf2-print, when installed, shows the same records: 88 sends of
 * 1,056,318 bytes, 84 receive requests and not one MPI_IRECV. */
Test(eztrace, live_otf2_print)
{
  char *path = g_find_program_in_path("otf2-print");
  if (!path)
    cr_skip_test("otf2-print not installed (Debian package otf2-tools)");
  char *dir = archive();
  char *anchor = g_build_filename(dir, "eztrace_log.otf2", NULL);
  char *argv[] = { path, anchor, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "%s", err);
  int64_t sends = tu_otf2_records(out, "MPI_SEND") + tu_otf2_records(out, "MPI_ISEND");
  int64_t bytes = tu_otf2_lengths(out, "MPI_SEND") + tu_otf2_lengths(out, "MPI_ISEND");
  int64_t requests = tu_otf2_records(out, "MPI_IRECV_REQUEST");
  int64_t irecvs = tu_otf2_records(out, "MPI_IRECV"), enters = tu_otf2_records(out, "ENTER");
  cr_assert_eq(sends, 88);
  cr_assert_eq(bytes, 1056318);
  cr_assert_eq(requests, 84);
  cr_assert_eq(irecvs, 0);
  cr_assert_eq(enters, 397);
  g_free(out);
  g_free(err);
  g_free(anchor);
  g_free(dir);
  g_free(path);
}

/* Damaged EZTrace archives: one line naming the file, exit 2. */
Test(eztrace, bad_archives)
{
  char *tmp = tu_tmp_dir(), *src = archive();
  char *dir = g_build_filename(tmp, "ez", NULL);
  tu_copy_dir(src, dir);
  char *evt = g_build_filename(dir, "eztrace_log", "536870911.evt", NULL);
  cr_assert_eq(truncate(evt, 1000), 0);
  tu_expect_bad_trace(dir, "536870911.evt");
  g_unlink(evt);
  tu_expect_bad_trace(dir, "536870911.evt: No such file or directory");
  /* a second anchor: the directory no longer names one */
  char *other = g_build_filename(dir, "other.otf2", NULL);
  cr_assert(g_file_set_contents(other, "x", 1, NULL));
  tu_expect_bad_trace(dir, "traces.otf2: no such file");
  g_free(other);
  g_free(evt);
  g_free(dir);
  g_free(src);
  g_free(tmp);
}

/* A Fortran program under EZTrace: its regions are named after the Fortran
 * symbols (mpi_isend_, paradigm USER) and read as the MPI calls they are,
 * so their time is MPI time, not computation. */
Test(eztrace, fortran_names_are_mpi_calls)
{
  trace *t = read_dir("eztrace-fortran-4");
  const char *want[] = { "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Send", "MPI_Recv",
                         "MPI_Allreduce", "MPI_Barrier" };
  for (size_t i = 0; i < G_N_ELEMENTS(want); i++) {
    gboolean found = FALSE;
    for (int r = 0; r < t->nregions; r++)
      found = found || strcmp(t->regions[r], want[i]) == 0;
    cr_assert(found, "no region %s", want[i]);
  }
  for (int r = 0; r < t->nregions; r++)
    cr_assert_not(g_str_has_prefix(t->regions[r], "mpi_"), "%s", t->regions[r]);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.p2p_messages, 16);
  cr_assert_eq(s.p2p_bytes, 4960);
  /* 60 Enters, less EZTrace's own "Working" and "EZTrace finalize" */
  cr_assert_eq(s.per_kind[TRACE_ENTER], 52);
  trace_free(t);
  /* the traced time splits into MPI calls and a little computation */
  g_autofree char *dir = tu_data("traces/eztrace-fortran-4");
  char *out = NULL, *err = NULL;
  const char *sim[] = { "simulate", "-p", "torus:2x2x1", "-t", dir, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, sim), 0, "%s", err);
  const char *traced = strstr(out, "\"traced\"");
  cr_assert_not_null(traced, "%s", out);
  double compute = g_ascii_strtod(strstr(traced, "\"compute_s\" : ") + 14, NULL);
  double p2p = g_ascii_strtod(strstr(traced, "\"p2p_s\" : ") + 10, NULL);
  cr_assert(p2p > 0.1 && compute < 0.01 * p2p, "traced compute %g s, p2p %g s", compute, p2p);
  g_free(out);
  g_free(err);
}
