/* test_tracer.c - libmapsim-trace on a real MPI run: tracer_app under
 * Open MPI's mpirun and under MPICH's mpiexec, 8 ranks oversubscribed,
 * the tracer built for that library preloaded. The program writes its own
 * tally of what it sent; the trace must say the same through three readers:
 * mapsim's (trace_read_otf2, `mapsim trace info`, `mapsim simulate`) and
 * otf2-print. The archive holds Score-P's byte counts of the collectives
 * (checked on otf2-print's output against Score-P 8's formulas, by hand);
 * mapsim's reader turns them back into what each rank handed to MPI, the
 * program's own tally. Skips, saying why, only when the launcher cannot start a
 * plain MPI program here (or MPICH was not there to build against).
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpitest.h"
#include "testutil.h"
#include "traces/trace.h"

enum { NP = 8 };

typedef struct {
  int64_t msgs[NP][NP], bytes[NP][NP];  /* [src][dst] */
  int64_t total_msgs, total_bytes;
  int64_t coll[COLL_NOPS];              /* calls summed over ranks */
  int64_t coll_bytes[NP][COLL_NOPS];    /* bytes rank r handed to MPI in all calls of op */
} tally;

/* The tracer built for each library and tracer_app built against it
 * (environment variables set by meson). */
typedef struct {
  const mpi_lib *lib;
  const char *preload;   /* env var with the LD_PRELOAD value */
  const char *app;       /* env var with tracer_app built for this library */
} traced_lib;

static const traced_lib open_mpi = { &mpi_open_mpi, "MAPSIM_TRACER_PRELOAD", "MAPSIM_TRACER_APP" };
static const traced_lib mpich = { &mpi_mpich, "MAPSIM_TRACER_MPICH_PRELOAD",
                                  "MAPSIM_TRACER_MPICH_APP" };

static void read_tally(const char *prefix, tally *t)
{
  memset(t, 0, sizeof *t);
  for (int r = 0; r < NP; r++) {
    char *path = g_strdup_printf("%s.%d", prefix, r), *text = NULL;
    cr_assert(g_file_get_contents(path, &text, NULL, NULL), "%s missing", path);
    char **lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
      int dst;
      long m, b;
      char op[32];
      if (sscanf(lines[i], "p2p %d %ld %ld", &dst, &m, &b) == 3) {
        t->msgs[r][dst] += m;
        t->bytes[r][dst] += b;
        t->total_msgs += m;
        t->total_bytes += b;
      } else if (sscanf(lines[i], "coll %31s %ld %ld", op, &m, &b) == 3) {
        coll_op code;
        cr_assert(coll_op_from_name(op, &code), "%s", op);
        t->coll[code] += m;
        t->coll_bytes[r][code] = b;
      }
    }
    g_strfreev(lines);
    g_free(text);
    g_free(path);
  }
  cr_assert_gt(t->total_msgs, 0);
}

/* What otf2-print shows of location r's first record of collective `op`
 * (its OTF2 name) on MPI_COMM_WORLD: root (-1 for NONE), sent, received. */
static void first_coll(const char *out, int r, const char *op, int *root, int64_t *sent,
                       int64_t *recvd)
{
  char *want = g_strdup_printf("Operation: %s, Communicator: \"MPI_COMM_WORLD\"", op);
  for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    int loc;
    const char *p = strstr(l, want), *end = strchr(l, '\n');
    if ((strncmp(l, "MPI_COLLECTIVE_END ", 19) && strncmp(l, "NON_BLOCKING_COLLECTIVE_COMPLETE ", 33)) ||
        !p || (end && p > end) || sscanf(strchr(l, ' '), "%d", &loc) != 1 || loc != r)
      continue;
    const char *rt = strstr(p, "Root: "), *st = strstr(p, "Sent: "), *rv = strstr(p, "Received: ");
    cr_assert(rt && st && rv, "%.*s", (int)(end ? end - l : 80), l);
    *root = strncmp(rt + 6, "NONE", 4) == 0 ? -1 : atoi(rt + 6);
    *sent = g_ascii_strtoll(st + 6, NULL, 10);
    *recvd = g_ascii_strtoll(rv + 10, NULL, 10);
    g_free(want);
    return;
  }
  cr_assert_fail("otf2-print: location %d has no %s on MPI_COMM_WORLD", r, op);
}

#define ASSERT_COLL(out, r, op, root, sent, recvd)                                           \
  do {                                                                                       \
    int root_;                                                                               \
    int64_t sent_, recvd_;                                                                   \
    first_coll(out, r, op, &root_, &sent_, &recvd_);                                         \
    cr_assert_eq(sent_, (sent), "rank %d %s: sent %ld, expected %ld", r, op, (long)sent_,    \
                 (long)(sent));                                                              \
    cr_assert_eq(recvd_, (recvd), "rank %d %s: received %ld, expected %ld", r, op,          \
                 (long)recvd_, (long)(recvd));                                               \
    cr_assert_eq(root_, (root), "rank %d %s: root %d", r, op, root_);                        \
  } while (0)

/* Score-P 8's byte counts, by hand for what tracer_app does on 8 ranks:
 * v-collectives with r + 1 ints from rank r (36 ints in all), 3 doubles
 * allreduced, 10 ints broadcast from rank 7, alltoallv of (r + d) % 3 + 1
 * ints from r to d, a scan of one double. */
static void check_collective_records(const char *out)
{
  for (int r = 0; r < NP; r++) {
    int64_t own = 4 * (r + 1), all = 4 * 36, a2a = 0;
    for (int d = 0; d < NP; d++)
      a2a += 4 * ((r + d) % 3 + 1);
    ASSERT_COLL(out, r, "GATHERV", 0, own, r == 0 ? all : 0);
    ASSERT_COLL(out, r, "SCATTERV", 0, r == 0 ? all : 0, own);
    ASSERT_COLL(out, r, "ALLGATHERV", -1, NP * own, all);
    ASSERT_COLL(out, r, "ALLREDUCE", -1, NP * 24, NP * 24);
    ASSERT_COLL(out, r, "BCAST", NP - 1, r == NP - 1 ? NP * 40 : 0, 40);
    ASSERT_COLL(out, r, "ALLTOALLV", -1, a2a, a2a);
    ASSERT_COLL(out, r, "SCAN", -1, (NP - r) * 8, (r + 1) * 8);
    ASSERT_COLL(out, r, "BARRIER", -1, 0, 0);
  }
}

/* The trace holds what each rank handed to MPI (collectives.h), summed
 * over its calls of each op: the program's tally. */
static void check_contributions(const trace *t, const tally *ty)
{
  for (int r = 0; r < NP; r++) {
    int64_t got[COLL_NOPS] = { 0 };
    for (int64_t k = 0; k < t->ranks[r].nevents; k++) {
      const trace_event *e = &t->ranks[r].events[k];
      if ((e->kind == TRACE_COLL_END || e->kind == TRACE_NBCOLL_COMPLETE) && e->op < COLL_NOPS)
        got[e->op] += e->bytes;
    }
    for (int op = 0; op < COLL_NOPS; op++)
      cr_assert_eq(got[op], ty->coll_bytes[r][op], "rank %d %s: %ld bytes, program handed %ld",
                   r, coll_op_name(op), (long)got[op], (long)ty->coll_bytes[r][op]);
  }
}

static void check_reader(const char *dir, const tally *ty)
{
  GError *e = NULL;
  trace *t = trace_read_otf2(dir, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "?");
  cr_assert_eq(t->nranks, NP);
  cr_assert_eq(t->timer_resolution, 1000000000u);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.p2p_messages, ty->total_msgs, "%ld messages, program sent %ld",
               (long)s.p2p_messages, (long)ty->total_msgs);
  cr_assert_eq(s.p2p_bytes, ty->total_bytes);
  cr_assert_eq(s.unmatched_sends, 0);
  cr_assert_eq(s.unmatched_recvs, 0);
  cr_assert_eq(s.mismatched_bytes, 0);
  cr_assert_eq(t->stats.unbalanced, 0);
  const int64_t *rec = t->stats.records;
  cr_assert_eq(rec[REC_ENTER], rec[REC_LEAVE]);
  cr_assert_eq(rec[REC_MPI_ISEND], rec[REC_MPI_ISEND_COMPLETE]);
  cr_assert_eq(rec[REC_MPI_IRECV_REQUEST], rec[REC_MPI_IRECV]);
  cr_assert_eq(rec[REC_MPI_COLLECTIVE_BEGIN], rec[REC_MPI_COLLECTIVE_END]);
  cr_assert_eq(rec[REC_NB_COLLECTIVE_REQUEST], rec[REC_NB_COLLECTIVE_COMPLETE]);
  cr_assert_gt(rec[REC_MPI_REQUEST_TEST], 0, "the Test loops left no MpiRequestTest");
  /* counts and bytes per rank pair */
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  int64_t got_msgs[NP][NP] = { { 0 } }, got_bytes[NP][NP] = { { 0 } };
  for (int src = 0; src < NP; src++)
    for (int k = g->xadj[src]; k < g->xadj[src + 1]; k++) {
      got_msgs[src][g->adj[k]] += g->msgs[k];
      got_bytes[src][g->adj[k]] += g->bytes[k];
    }
  for (int src = 0; src < NP; src++)
    for (int dst = 0; dst < NP; dst++) {
      cr_assert_eq(got_msgs[src][dst], ty->msgs[src][dst], "%d -> %d: %ld messages, sent %ld",
                   src, dst, (long)got_msgs[src][dst], (long)ty->msgs[src][dst]);
      cr_assert_eq(got_bytes[src][dst], ty->bytes[src][dst], "%d -> %d: %ld bytes, sent %ld", src,
                   dst, (long)got_bytes[src][dst], (long)ty->bytes[src][dst]);
    }
  commgraph_free(g);
  for (int op = 0; op < COLL_NOPS; op++)
    if (ty->coll[op])
      cr_assert_eq(s.per_op[op], ty->coll[op], "%s: %ld calls, program made %ld",
                   coll_op_name(op), (long)s.per_op[op], (long)ty->coll[op]);
  check_contributions(t, ty);
  /* the split communicators: members in comm rank order (key = P - rank) */
  int found = 0;
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    if (tc->size == NP / 2 && tc->members[0] == NP - 2)
      found += tc->members[1] == NP - 4 && tc->members[NP / 2 - 1] == 0;
    if (tc->size == NP / 2 && tc->members[0] == NP - 1)
      found += tc->members[NP / 2 - 1] == 1;
  }
  cr_assert_eq(found, 2, "the two MPI_Comm_split halves are not defined as split");
  /* MPI_COMM_WORLD and its MPI_Comm_dup: two communicators of the same
   * members, kept apart (messages of the same tag on both matched above) */
  int identity = 0;
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    gboolean same = !tc->self && tc->size == NP;
    for (int i = 0; same && i < NP; i++)
      same = tc->members[i] == i;
    identity += same;
  }
  cr_assert_eq(identity, 2, "%d communicators of all ranks in order, expected world and its dup",
               identity);
  /* every rank: times ascending inside [0, duration] */
  for (int r = 0; r < NP; r++)
    for (int64_t k = 0; k < t->ranks[r].nevents; k++) {
      const trace_event *ev = &t->ranks[r].events[k];
      cr_assert_geq(ev->time, k ? t->ranks[r].events[k - 1].time : 0);
      cr_assert_leq(ev->time, t->duration_ps);
    }
  trace_free(t);
}

static void check_cli(const char *dir, const tally *ty)
{
  char *out = NULL, *err = NULL;
  const char *info[] = { "trace", "info", dir, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, info), 0, "%s", err);
  char *want = g_strdup_printf("\"p2p_messages\" : %ld", (long)ty->total_msgs);
  cr_assert(strstr(out, want), "%s not in %s", want, out);
  g_free(want);
  want = g_strdup_printf("\"p2p_bytes\" : %ld", (long)ty->total_bytes);
  cr_assert(strstr(out, want), "%s not in %s", want, out);
  g_free(want);
  cr_assert(strstr(out, "\"unmatched\" : 0"), "%s", out);
  g_free(out);
  g_free(err);
  /* replay: every message delivered, nothing stuck */
  const char *sim[] = { "simulate", "--platform", "torus:2x2x2", "--trace", dir, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, sim), 0, "%s", err);
  want = g_strdup_printf("\"p2p_messages\" : %ld", (long)ty->total_msgs);
  cr_assert(strstr(out, want), "%s not in %s", want, out);
  g_free(want);
  want = g_strdup_printf("\"p2p_bytes\" : %ld", (long)ty->total_bytes);
  cr_assert(strstr(out, want), "%s not in %s", want, out);
  g_free(want);
  g_free(out);
  g_free(err);
}

static void check_otf2_print(const char *dir, const tally *ty)
{
  char *anchor = g_build_filename(dir, "traces.otf2", NULL);
  char *out = NULL, *err = NULL;
  char *argv[] = { "otf2-print", anchor, NULL };
  cr_assert_eq(mpi_spawn(argv, &out, &err), 0, "otf2-print: %s", err);
  int sends = tu_otf2_records(out, "MPI_SEND") + tu_otf2_records(out, "MPI_ISEND");
  int recvs = tu_otf2_records(out, "MPI_RECV") + tu_otf2_records(out, "MPI_IRECV");
  cr_assert_eq(sends, ty->total_msgs, "otf2-print: %d sends", sends);
  cr_assert_eq(recvs, ty->total_msgs, "otf2-print: %d receives", recvs);
  cr_assert_eq(tu_otf2_lengths(out, "MPI_SEND") + tu_otf2_lengths(out, "MPI_ISEND"), ty->total_bytes);
  cr_assert_eq(tu_otf2_lengths(out, "MPI_RECV") + tu_otf2_lengths(out, "MPI_IRECV"), ty->total_bytes);
  check_collective_records(out);
  g_free(out);
  g_free(err);
  /* OTF2's own validation: no warning about the archive */
  char *argw[] = { "otf2-print", "-Werror", "--silent", anchor, NULL };
  cr_assert_eq(mpi_spawn(argw, &out, &err), 0, "otf2-print -Werror: %s", err);
  g_free(out);
  g_free(err);
  /* clock offsets measured at init and finalize: two per rank */
  char *argc[] = { "otf2-print", "-C", anchor, NULL };
  cr_assert_eq(mpi_spawn(argc, &out, &err), 0, "otf2-print -C: %s", err);
  cr_assert_eq(tu_otf2_records(out, "CLOCK_OFFSET"), 2 * NP, "%s", out);
  g_free(out);
  g_free(err);
  g_free(anchor);
}

/* tracer_app under `m` with the tracer preloaded; every reader agrees with
 * the program's tally. */
static void traced_run(const traced_lib *m)
{
  const char *lib = g_getenv(m->preload), *app = g_getenv(m->app);
  if (!m->lib->open_mpi && !(lib && app))
    cr_skip_test("%s was not found when building (Debian package libmpich-dev)", m->lib->name);
  cr_assert(lib && app, "%s / %s not set (run through meson test)", m->preload, m->app);
  mpi_skip_unless_launcher_starts(m->lib, app);
  char *tmp = tu_tmp_dir();  /* removed after the last test, whatever the outcome */
  char *dir = g_build_filename(tmp, "trace", NULL), *prefix = g_build_filename(tmp, "tally", NULL);
  const char *env[] = { "LD_PRELOAD", lib, "MAPSIM_TRACE_DIR", dir, NULL };
  GPtrArray *a = mpi_argv(m->lib, NP, env);
  g_ptr_array_add(a, g_strdup(app));
  g_ptr_array_add(a, g_strdup(prefix));
  g_ptr_array_add(a, NULL);
  char *out = NULL, *err = NULL;
  int rc = mpi_run((char **)a->pdata, &out, &err, mpi_remove_dir, dir);
  cr_assert_eq(rc, 0, "traced run failed (%d): %s%s", rc, out, err);
  cr_assert(strstr(err, "mapsim-trace: wrote"), "%s", err);
  tally ty;
  read_tally(prefix, &ty);
  check_reader(dir, &ty);
  check_cli(dir, &ty);
  check_otf2_print(dir, &ty);
  g_ptr_array_unref(a);
  g_free(out);
  g_free(err);
  g_free(dir);
  g_free(prefix);
  g_free(tmp);
}

Test(tracer, open_mpi, .timeout = 600)
{
  traced_run(&open_mpi);
}

Test(tracer, mpich, .timeout = 600)
{
  traced_run(&mpich);
}

/* ---- EZTrace on the same program --------------------------------------- */

/* tracer_app under `eztrace -t openmpi` (Debian's eztrace 2.0, whose
 * openmpi module is built for Debian's Open MPI), 4 ranks: mapsim reads
 * the archive EZTrace writes, pairs every one of its non-blocking receives
 * with a send (otf2-eztrace.c) and says so once; what it carries per rank
 * pair is the program's tally less the MPI_Sendrecv messages, which
 * EZTrace 2.0 does not record (one per rank, 1000 + 10 * rank bytes, to the
 * next lower rank of its parity, the highest one for ranks 0 and 1: the
 * halves of MPI_Comm_split(me % 2, key P - me)). Skips, saying why, when
 * eztrace is not installed or cannot start a plain MPI program here. */
enum { EZ_NP = 4 };

static GPtrArray *eztrace_argv(const char *out_dir, int np, const char *app, const char *arg)
{
  /* a sanitized tracer_app: eztrace preloads its libraries before the ASan
   * runtime, which ASan refuses unless told; their leaks are not ours */
  const char *env[] = { "ASAN_OPTIONS", "verify_asan_link_order=0:detect_leaks=0", NULL };
  GPtrArray *a = mpi_argv(&mpi_open_mpi, np, env);
  g_ptr_array_add(a, g_strdup("eztrace"));
  g_ptr_array_add(a, g_strdup("-t"));
  g_ptr_array_add(a, g_strdup("openmpi"));
  g_ptr_array_add(a, g_strdup("-o"));
  g_ptr_array_add(a, g_strdup(out_dir));
  g_ptr_array_add(a, g_strdup(app));
  if (arg)
    g_ptr_array_add(a, g_strdup(arg));
  g_ptr_array_add(a, NULL);
  return a;
}

Test(tracer, eztrace, .timeout = 600)
{
  const char *app = g_getenv(open_mpi.app);
  cr_assert(app, "%s not set (run through meson test)", open_mpi.app);
  char *ez = g_find_program_in_path("eztrace");
  if (!ez)
    cr_skip_test("eztrace not found (Debian package eztrace; ./setup installs it)");
  g_free(ez);
  mpi_skip_unless_launcher_starts(&mpi_open_mpi, app);
  char *tmp = tu_tmp_dir();
  char *dir = g_build_filename(tmp, "ez", NULL), *prefix = g_build_filename(tmp, "tally", NULL);
  char *out = NULL, *err = NULL;
  /* can eztrace start MPI_Init and MPI_Finalize under mpirun here? */
  GPtrArray *a = eztrace_argv(dir, 2, app, NULL);
  int rc = mpi_run((char **)a->pdata, &out, &err, mpi_remove_dir, dir);
  g_ptr_array_unref(a);
  if (rc != 0)
    cr_skip_test("eztrace -t openmpi cannot start a plain 2-rank Open MPI program here (exit "
                 "%d): %s%s", rc, out, err);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
  a = eztrace_argv(dir, EZ_NP, app, prefix);
  rc = mpi_run((char **)a->pdata, &out, &err, mpi_remove_dir, dir);
  g_ptr_array_unref(a);
  cr_assert_eq(rc, 0, "eztrace run failed (%d): %s%s", rc, out, err);
  g_free(out);
  g_free(err);
  char *archive = g_build_filename(dir, "tracer_app_trace", NULL);
  char *anchor = g_build_filename(archive, "eztrace_log.otf2", NULL);
  cr_assert(g_file_test(anchor, G_FILE_TEST_IS_REGULAR), "EZTrace wrote no %s", anchor);
  /* the program's tally, less the unrecorded MPI_Sendrecv messages */
  int64_t msgs[EZ_NP][EZ_NP] = { { 0 } }, bytes[EZ_NP][EZ_NP] = { { 0 } }, total = 0, total_b = 0;
  for (int r = 0; r < EZ_NP; r++) {
    char *path = g_strdup_printf("%s.%d", prefix, r), *text = NULL;
    cr_assert(g_file_get_contents(path, &text, NULL, NULL), "%s missing", path);
    char **lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
      int d;
      long m, b;
      if (sscanf(lines[i], "p2p %d %ld %ld", &d, &m, &b) == 3) {
        msgs[r][d] += m;
        bytes[r][d] += b;
      }
    }
    g_strfreev(lines);
    g_free(text);
    g_free(path);
    int to = r >= 2 ? r - 2 : EZ_NP - 2 + r % 2;
    msgs[r][to]--;
    bytes[r][to] -= 1000 + 10 * r;
  }
  for (int s = 0; s < EZ_NP; s++)
    for (int d = 0; d < EZ_NP; d++) {
      total += msgs[s][d];
      total_b += bytes[s][d];
    }
  GError *e = NULL;
  trace *t = trace_read_otf2(archive, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "?");
  cr_assert_eq(t->nranks, EZ_NP);
  /* EZTrace completes a persistent receive now and then (MPI_IRECV in
   * MPI_Waitall, seen in sanitized runs), never another one */
  int64_t requests = t->stats.records[REC_MPI_IRECV_REQUEST];
  int64_t recorded = t->stats.records[REC_MPI_IRECV];
  cr_assert_eq(requests, EZ_NP * 21, "12 halo, 7 completion and 2 persistent receives per rank");
  cr_assert_leq(recorded, EZ_NP * 2);
  char *want = g_strdup_printf("EZTrace trace: its %ld non-blocking receives",
                               (long)(requests - recorded));
  cr_assert(t->notice && strstr(t->notice, want), "%s", t->notice ? t->notice : "no notice");
  g_free(want);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.per_kind[TRACE_IRECV], requests);
  cr_assert_eq(s.unmatched_sends, 0);
  cr_assert_eq(s.unmatched_recvs, 0);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  int64_t got_m[EZ_NP][EZ_NP] = { { 0 } }, got_b[EZ_NP][EZ_NP] = { { 0 } };
  for (int src = 0; src < EZ_NP; src++)
    for (int k = g->xadj[src]; k < g->xadj[src + 1]; k++) {
      got_m[src][g->adj[k]] += g->msgs[k];
      got_b[src][g->adj[k]] += g->bytes[k];
    }
  for (int src = 0; src < EZ_NP; src++)
    for (int dst = 0; dst < EZ_NP; dst++) {
      cr_assert_eq(got_m[src][dst], msgs[src][dst], "%d -> %d: %ld messages, sent %ld", src,
                   dst, (long)got_m[src][dst], (long)msgs[src][dst]);
      cr_assert_eq(got_b[src][dst], bytes[src][dst], "%d -> %d: %ld bytes, sent %ld", src, dst,
                   (long)got_b[src][dst], (long)bytes[src][dst]);
    }
  commgraph_free(g);
  trace_free(t);
  /* otf2-print sees as many sends and receive requests */
  char *argv[] = { "otf2-print", anchor, NULL };
  cr_assert_eq(mpi_spawn(argv, &out, &err), 0, "otf2-print: %s", err);
  int sends = tu_otf2_records(out, "MPI_SEND") + tu_otf2_records(out, "MPI_ISEND");
  cr_assert_eq(sends, total, "otf2-print: %d sends, expected %ld", sends, (long)total);
  cr_assert_eq(tu_otf2_lengths(out, "MPI_SEND") + tu_otf2_lengths(out, "MPI_ISEND"), total_b);
  cr_assert_eq(tu_otf2_records(out, "MPI_IRECV_REQUEST"), requests);
  cr_assert_eq(tu_otf2_records(out, "MPI_IRECV"), recorded);
  g_free(out);
  g_free(err);
  /* the replay: everything delivered, pre == post, the warning once */
  const char *sim[] = { "simulate", "--platform", "torus:2x2x1", "--trace", archive, "--json",
                        NULL };
  cr_assert_eq(tu_run(&out, &err, sim), 0, "%s", err);
  want = g_strdup_printf("\"p2p_messages\" : %ld,", (long)total);
  cr_assert(strstr(out, want), "%s not in %s", want, out);
  g_free(want);
  cr_assert(strstr(out, "\"pre_post_match\" : true"), "%s", out);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  cr_assert(g_str_has_prefix(err, "mapsim: warning: ") && strstr(err, "EZTrace trace"), "%s",
            err);
  g_free(out);
  g_free(err);
  g_free(anchor);
  g_free(archive);
  g_free(dir);
  g_free(prefix);
  g_free(tmp);
}
