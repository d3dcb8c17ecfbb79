/* test_simgrid.c - the SimGrid bridge: time-independent actions of a
 * hand-built trace written out by hand, the platform files' shape, and,
 * when SimGrid is installed, the bundled traces exported and replayed by
 * smpirun on the torus and the HAEC Box: SimGrid's makespan is mapsim's
 * flow model's with the simgrid preset; smpirun.sh removes its log when
 * it is stopped by a signal or its output is closed early. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "simgridtest.h"
#include "testutil.h"
#include "traces/simgrid-ti.h"

static void ev(trace *t, int r, int kind, int64_t time, int peer, uint32_t tag, int64_t bytes,
               uint64_t req)
{
  trace_event e = { .time = time, .kind = (uint8_t)kind, .peer = peer, .tag = tag,
                    .bytes = bytes, .request = req, .comm = t->world };
  trace_push(t, r, &e);
}

static void region(trace *t, int r, uint32_t reg, int kind, int64_t time)
{
  trace_event e = { .time = time, .kind = (uint8_t)kind, .region = reg };
  trace_push(t, r, &e);
}

/* Two ranks: Isend/Irecv + Wait, Sendrecv, an allreduce of 8 bytes, a
 * blocking Send inside its region; 1 ns of computation between calls. */
static trace *hand_trace(void)
{
  trace *t = trace_new(2);
  uint32_t isend = trace_add_region(t, "MPI_Isend"), irecv = trace_add_region(t, "MPI_Irecv");
  uint32_t wait = trace_add_region(t, "MPI_Wait"), sr = trace_add_region(t, "MPI_Sendrecv");
  uint32_t ar = trace_add_region(t, "MPI_Allreduce"), send = trace_add_region(t, "MPI_Send");
  uint32_t recv = trace_add_region(t, "MPI_Recv");
  for (int r = 0; r < 2; r++) {
    int o = 1 - r;
    region(t, r, r ? irecv : isend, TRACE_ENTER, 1000);
    if (r)
      ev(t, r, TRACE_IRECV_REQUEST, 1000, -1, 0, 0, 9);
    else
      ev(t, r, TRACE_ISEND, 1000, o, 3, 100, 7);
    region(t, r, r ? irecv : isend, TRACE_LEAVE, 1010);
    region(t, r, wait, TRACE_ENTER, 3010);
    if (r)
      ev(t, r, TRACE_IRECV, 3010, o, 3, 100, 9);
    else
      ev(t, r, TRACE_ISEND_COMPLETE, 3010, -1, 0, 0, 7);
    region(t, r, wait, TRACE_LEAVE, 3020);
    region(t, r, sr, TRACE_ENTER, 4020);
    ev(t, r, TRACE_SEND, 4020, o, 4, r ? 20 : 10, 0);
    ev(t, r, TRACE_RECV, 4020, o, 4, r ? 10 : 20, 0);
    region(t, r, sr, TRACE_LEAVE, 4030);
    region(t, r, ar, TRACE_ENTER, 5030);
    trace_event c = { .time = 5030, .kind = TRACE_COLL_END, .op = COLL_ALLREDUCE, .peer = -1,
                      .comm = t->world, .bytes = 8, .bytes_recv = 16 };
    trace_push(t, r, &c);
    region(t, r, ar, TRACE_LEAVE, 5040);
    region(t, r, r ? recv : send, TRACE_ENTER, 6040);
    ev(t, r, r ? TRACE_RECV : TRACE_SEND, 6040, o, 5, 30, 0);
    region(t, r, r ? recv : send, TRACE_LEAVE, 6050);
  }
  t->duration_ps = 6050;
  return t;
}

/* Every action, by hand (simgrid-ti.h's rules): gaps as compute at one
 * flop per ps, the Irecv envelope from its completion, a blocking send in
 * a region as isend + wait at the region's end, the allreduce as
 * recursive doubling's one exchange of 8 bytes with tag 2^30. */
Test(simgrid, actions_by_hand)
{
  trace *t = hand_trace();
  trace_source *s = trace_source_memory(t);
  char *dir = tu_tmp_dir();
  ti_opts o;
  ti_opts_init(&o);
  ti_stats st;
  GError *e = NULL;
  cr_assert(ti_write(s, dir, "ranks", "list.txt", &o, &st, &e), "%s", e ? e->message : "");
  g_autofree char *list = tu_read(dir, "list.txt");
  cr_assert_str_eq(list, "ranks/0.txt\nranks/1.txt\n");
  g_autofree char *r0 = tu_read(dir, "ranks/0.txt"), *r1 = tu_read(dir, "ranks/1.txt");
  cr_assert_str_eq(r0, "0 init\n0 compute 1000\n0 isend 1 3 100\n0 compute 2000\n0 wait 0 1 3\n"
                       "0 compute 1000\n0 isend 1 4 10\n0 recv 1 4 20\n0 wait 0 1 4\n"
                       "0 compute 1000\n0 irecv 1 1073741824 8\n0 isend 1 1073741824 8\n"
                       "0 wait 1 0 1073741824\n0 wait 0 1 1073741824\n0 compute 1000\n"
                       "0 isend 1 5 30\n0 wait 0 1 5\n0 finalize\n");
  cr_assert_str_eq(r1, "1 init\n1 compute 1000\n1 irecv 0 3 100\n1 compute 2000\n1 wait 0 1 3\n"
                       "1 compute 1000\n1 isend 0 4 20\n1 recv 0 4 10\n1 wait 1 0 4\n"
                       "1 compute 1000\n1 irecv 0 1073741824 8\n1 isend 0 1073741824 8\n"
                       "1 wait 0 1 1073741824\n1 wait 1 0 1073741824\n1 compute 1000\n"
                       "1 recv 0 5 30\n1 finalize\n");
  cr_assert_eq(st.actions, 18 + 17);
  cr_assert_eq(st.coll_calls, 2);
  cr_assert_eq(st.serialized + st.unmatched + st.coll_skipped, 0);
  /* gaps under 1.5 ns carried forward: the same 6000 ps in fewer actions,
   * half the computation at 1e9 flop/s as 3 flops */
  tu_rm_rf(dir);
  o.min_compute_ps = 1500;
  cr_assert(ti_write(s, dir, "r", "l", &o, &st, NULL));
  g_autofree char *c0 = tu_read(dir, "r/0.txt");
  cr_assert_str_eq(c0, "0 init\n0 isend 1 3 100\n0 compute 3000\n0 wait 0 1 3\n0 isend 1 4 10\n"
                       "0 recv 1 4 20\n0 wait 0 1 4\n0 compute 2000\n0 irecv 1 1073741824 8\n"
                       "0 isend 1 1073741824 8\n0 wait 1 0 1073741824\n0 wait 0 1 1073741824\n"
                       "0 isend 1 5 30\n0 wait 0 1 5\n0 compute 1000\n0 finalize\n");
  tu_rm_rf(dir);
  o.min_compute_ps = 0;
  o.flops_per_s = 1e9;
  o.compute_scale = 0.5;
  cr_assert(ti_write(s, dir, "r", "l", &o, &st, NULL));
  g_autofree char *h0 = tu_read(dir, "r/0.txt");
  cr_assert(g_str_has_prefix(h0, "0 init\n0 compute 0.5\n0 isend 1 3 100\n0 compute 1\n"), "%s", h0);
  tu_rm_rf(dir);
  g_free(dir);
  trace_source_free(s);
  trace_free(t);
}

/* Computation is counted in int64 ps, as the replay counts it: a gap that
 * fits is written exactly; one that does not, or a carried sum that does
 * not, fails naming rank and record, as simulate fails; the command leaves
 * no folder and exits 2. */
Test(simgrid, computation_beyond_int64_fails)
{
  trace *t = hand_trace();
  trace_source *s = trace_source_memory(t);
  char *dir = tu_tmp_dir();
  ti_opts o;
  ti_opts_init(&o);
  o.compute_scale = 4e15; /* 1000 ps -> 4e18, 2000 ps -> 8e18: each fits int64 */
  GError *e = NULL;
  cr_assert(ti_write(s, dir, "r", "l", &o, NULL, &e), "%s", e ? e->message : "");
  g_autofree char *r0 = tu_read(dir, "r/0.txt");
  cr_assert(g_str_has_prefix(r0, "0 init\n0 compute 4000000000000000000\n0 isend 1 3 100\n"
                                 "0 compute 8000000000000000000\n"), "%s", r0);
  /* carried: 4e18 + 8e18 at record 3 (the Wait's ENTER) */
  tu_rm_rf(dir);
  o.min_compute_ps = INT64_MAX;
  cr_assert_not(ti_write(s, dir, "r", "l", &o, NULL, &e));
  cr_assert_str_eq(e->message, "computation exceeds 106 days at ps resolution (rank 0 at record 3), "
                               "expected a --compute-scale that keeps every computation below it");
  g_clear_error(&e);
  tu_rm_rf(dir);
  o.min_compute_ps = 0;
  o.compute_scale = 1e30;
  cr_assert_not(ti_write(s, dir, "r", "l", &o, NULL, &e));
  cr_assert_str_eq(e->message, "computation exceeds 106 days at ps resolution (rank 0 at record 0), "
                               "expected a --compute-scale that keeps every computation below it");
  g_clear_error(&e);
  tu_rm_rf(dir);
  g_autofree char *tr = tu_src("traces/data/cg-16");
  g_autofree char *out_dir = g_build_filename(dir, "sg", NULL);
  const char *args[] = { "export", "simgrid", "-q", "-p", "torus:4x4x4", "-t", tr,
                         "--compute-scale", "1e30", "-o", out_dir, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  cr_assert_str_eq(out, "");
  cr_assert_str_eq(err, "mapsim: computation exceeds 106 days at ps resolution (rank 0 at record "
                        "0), expected a --compute-scale that keeps every computation below it\n");
  cr_assert_not(g_file_test(out_dir, G_FILE_TEST_EXISTS), "half-written output left");
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
  g_free(dir);
  trace_source_free(s);
  trace_free(t);
}

/* Files larger than stdio's buffer on a full disk: the first failed write
 * comes before fclose (C promises only that ferror remembers it); the
 * error names the file. */
Test(simgrid, write_error_names_the_file)
{
  if (!g_file_test("/dev/full", G_FILE_TEST_EXISTS))
    cr_skip_test("no /dev/full");
  trace *t = trace_new(2);
  for (int i = 0; i < 2000; i++)
    ev(t, 0, TRACE_SEND, 0, 1, 3, 100, 0);
  trace_source *s = trace_source_memory(t);
  char *dir = tu_tmp_dir();
  g_autofree char *rdir = g_build_filename(dir, "r", NULL);
  g_autofree char *r0 = g_build_filename(rdir, "0.txt", NULL);
  g_autofree char *list = g_build_filename(dir, "l", NULL);
  cr_assert_eq(g_mkdir(rdir, 0755), 0);
  cr_assert_eq(symlink("/dev/full", r0), 0);
  ti_opts o;
  ti_opts_init(&o);
  GError *e = NULL;
  cr_assert_not(ti_write(s, dir, "r", "l", &o, NULL, &e));
  g_autofree char *want = g_strdup_printf("%s: %s, expected a writable file", r0, g_strerror(ENOSPC));
  cr_assert_str_eq(e->message, want);
  g_clear_error(&e);
  /* the list, written after every rank: its lines fill stdio's buffer too */
  cr_assert_eq(unlink(r0), 0);
  cr_assert_eq(unlink(list), 0);
  cr_assert_eq(symlink("/dev/full", list), 0);
  trace *big = trace_new(600);
  trace_source *sb = trace_source_memory(big);
  cr_assert_not(ti_write(sb, dir, "r", "l", &o, NULL, &e));
  g_autofree char *want_l = g_strdup_printf("%s: %s, expected a writable file", list,
                                            g_strerror(ENOSPC));
  cr_assert_str_eq(e->message, want_l);
  g_clear_error(&e);
  trace_source_free(sb);
  trace_free(big);
  tu_rm_rf(dir);
  g_free(dir);
  trace_source_free(s);
  trace_free(t);
}

/* A collective of several rounds: a ring allreduce of 9 bytes on 3 ranks
 * is 4 rounds of 3-byte chunks r -> r + 1 (collectives.h). Every receive
 * posted at the call, then per round the previous round's receive waited
 * and this round's send posted, then the rest waited. */
Test(simgrid, collective_rounds_in_order)
{
  trace *t = trace_new(3);
  for (int r = 0; r < 3; r++) {
    trace_event c = { .time = 0, .kind = TRACE_COLL_END, .op = COLL_ALLREDUCE, .peer = -1,
                      .comm = t->world, .bytes = 9, .bytes_recv = 9 };
    trace_push(t, r, &c);
  }
  trace_source *s = trace_source_memory(t);
  char *dir = tu_tmp_dir();
  ti_opts o;
  ti_opts_init(&o);
  coll_choice colls;
  cr_assert(coll_choice_parse(&colls, "ring", NULL));
  o.colls = &colls;
  ti_stats st;
  GError *e = NULL;
  cr_assert(ti_write(s, dir, "r", "l", &o, &st, &e), "%s", e ? e->message : "");
  g_autofree char *r0 = tu_read(dir, "r/0.txt");
  cr_assert_str_eq(r0, "0 init\n"
                       "0 irecv 2 1073741824 3\n0 irecv 2 1073741825 3\n"
                       "0 irecv 2 1073741826 3\n0 irecv 2 1073741827 3\n"
                       "0 isend 1 1073741824 3\n"
                       "0 wait 2 0 1073741824\n0 isend 1 1073741825 3\n"
                       "0 wait 2 0 1073741825\n0 isend 1 1073741826 3\n"
                       "0 wait 2 0 1073741826\n0 isend 1 1073741827 3\n"
                       "0 wait 2 0 1073741827\n"
                       "0 wait 0 1 1073741824\n0 wait 0 1 1073741825\n"
                       "0 wait 0 1 1073741826\n0 wait 0 1 1073741827\n"
                       "0 finalize\n");
  g_autofree char *r2 = tu_read(dir, "r/2.txt");
  cr_assert(g_str_has_prefix(r2, "2 init\n2 irecv 1 1073741824 3\n"), "%s", r2);
  cr_assert(strstr(r2, "2 isend 0 1073741824 3\n2 wait 1 2 1073741824\n"), "%s", r2);
  cr_assert_eq(st.coll_calls, 3);
  cr_assert_eq(st.actions, 3 * 18);
  tu_rm_rf(dir);
  g_free(dir);
  trace_source_free(s);
  trace_free(t);
}

/* The actions of `t` with the default options into a new temporary
 * folder (r/RANK.txt), which the caller removes; `t` is freed. */
static char *write_default(trace *t, ti_stats *st)
{
  trace_source *s = trace_source_memory(t);
  char *dir = tu_tmp_dir();
  ti_opts o;
  ti_opts_init(&o);
  cr_assert(ti_write(s, dir, "r", "l", &o, st, NULL));
  trace_source_free(s);
  trace_free(t);
  return dir;
}

/* SMPI keeps one open request per (source, destination, tag): open
 * requests of one envelope get tags of their own lanes (tag + 32768 k),
 * up to 64 at once; the 65th waits for the first before it. */
Test(simgrid, open_envelopes_get_lanes)
{
  trace *t = trace_new(2);
  uint32_t reg = trace_add_region(t, "MPI_Isend");
  region(t, 0, reg, TRACE_ENTER, 0);
  for (int k = 0; k < 65; k++)
    ev(t, 0, TRACE_ISEND, 0, 1, 3, 100 + k, (uint64_t)k + 1);
  for (int k = 0; k < 65; k++)
    ev(t, 0, TRACE_ISEND_COMPLETE, 0, -1, 0, 0, (uint64_t)k + 1);
  region(t, 0, reg, TRACE_LEAVE, 0);
  ti_stats st;
  char *dir = write_default(t, &st);
  g_autofree char *r0 = tu_read(dir, "r/0.txt");
  cr_assert(g_str_has_prefix(r0, "0 init\n0 isend 1 3 100\n0 isend 1 32771 101\n"
                                 "0 isend 1 65539 102\n"), "%s", r0);
  cr_assert(strstr(r0, "0 isend 1 2064387 163\n0 wait 0 1 3\n0 isend 1 3 164\n"), "%s", r0);
  cr_assert_eq(tu_count(r0, " wait "), 65);
  cr_assert_eq(st.serialized, 1);
  tu_rm_rf(dir);
  g_free(dir);
}

/* Two any-source receives that matched two messages of one sender and tag
 * (HPCC's RandomAccess): each gets the SMPI tag of the message it matched,
 * both are posted before the rank's send, and no wait comes before it. */
Test(simgrid, wildcard_receives_keep_their_matches)
{
  trace *t = trace_new(2);
  uint32_t isend = trace_add_region(t, "MPI_Isend"), irecv = trace_add_region(t, "MPI_Irecv");
  uint32_t send = trace_add_region(t, "MPI_Send"), wait = trace_add_region(t, "MPI_Waitall");
  for (int k = 0; k < 2; k++) {
    region(t, 0, isend, TRACE_ENTER, 0);
    ev(t, 0, TRACE_ISEND, 0, 1, 3, 100 * (k + 1), (uint64_t)k + 1);
    region(t, 0, isend, TRACE_LEAVE, 0);
    region(t, 1, irecv, TRACE_ENTER, 0);
    ev(t, 1, TRACE_IRECV_REQUEST, 0, -1, 0, 0, (uint64_t)k + 1);
    region(t, 1, irecv, TRACE_LEAVE, 0);
  }
  region(t, 1, send, TRACE_ENTER, 0);
  ev(t, 1, TRACE_SEND, 0, 0, 4, 8, 0);
  region(t, 1, send, TRACE_LEAVE, 0);
  region(t, 0, wait, TRACE_ENTER, 0);
  region(t, 1, wait, TRACE_ENTER, 0);
  for (int k = 0; k < 2; k++) {
    ev(t, 0, TRACE_ISEND_COMPLETE, 0, -1, 0, 0, (uint64_t)k + 1);
    ev(t, 1, TRACE_IRECV, 0, 0, 3, 100 * (k + 1), (uint64_t)k + 1);
  }
  region(t, 0, wait, TRACE_LEAVE, 0);
  region(t, 1, wait, TRACE_LEAVE, 0);
  ti_stats st;
  char *dir = write_default(t, &st);
  g_autofree char *r0 = tu_read(dir, "r/0.txt");
  g_autofree char *r1 = tu_read(dir, "r/1.txt");
  cr_assert_str_eq(r0, "0 init\n0 isend 1 3 100\n0 isend 1 32771 200\n0 wait 0 1 3\n"
                       "0 wait 0 1 32771\n0 finalize\n");
  cr_assert_str_eq(r1, "1 init\n1 irecv 0 3 100\n1 irecv 0 32771 200\n1 isend 0 4 8\n"
                       "1 wait 1 0 4\n1 wait 0 1 3\n1 wait 0 1 32771\n1 finalize\n");
  cr_assert_eq(st.serialized + st.tags_folded + st.comms_folded, 0);
  tu_rm_rf(dir);
  g_free(dir);
}

static char *xml_of(const char *spec, const char *const *sets, int cores, gboolean cluster)
{
  GError *e = NULL;
  platform *p = platform_load_with(spec, sets, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  if (cores)
    cr_assert(platform_set_cores(p, cores, NULL));
  cr_assert_eq(platform_simgrid_is_cluster(p), cluster, "%s", spec);
  char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "p.xml", NULL);
  cr_assert(platform_write_simgrid(p, NULL, "node-", 1e12, path, &e), "%s", e ? e->message : "");
  char *text = NULL;
  cr_assert(g_file_get_contents(path, &text, NULL, NULL));
  tu_rm_rf(dir);
  g_free(dir);
  platform_free(p);
  return text;
}

/* A torus with SimGrid's tie rule is a TORUS cluster; any other platform a
 * Full zone with one route per ordered pair of hosts and mapsim's links. */
Test(simgrid, platform_files)
{
  const char *simgrid_tie[] = { "routing.tie=simgrid", NULL };
  g_autofree char *c = xml_of("torus:4x4x4", simgrid_tie, 0, TRUE);
  cr_assert(strstr(c, "topology=\"TORUS\" topo_parameters=\"4,4,4\""), "%s", c);
  cr_assert(strstr(c, "radical=\"0-63\""), "%s", c);
  g_autofree char *links = g_strdup_printf("bw=\"31250000000Bps\" lat=\"%.17gs\"", 10e-12);
  cr_assert(strstr(c, links), "%s", c);
  /* tie positive: SimGrid's cluster would route 2 -> 0 through 1 */
  g_autofree char *f = xml_of("torus:4", NULL, 0, FALSE);
  cr_assert_eq(tu_count(f, "<host "), 4);
  cr_assert_eq(tu_count(f, "<route "), 12);
  cr_assert_eq(tu_count(f, "<link "), 8, "%s", f);
  cr_assert(strstr(f, "<route src=\"node-2\" dst=\"node-0\" symmetrical=\"NO\">"
                      "<link_ctn id=\"l4\"/><link_ctn id=\"l6\"/></route>"), "%s", f);
  /* a mesh of 2x2 with 2 cores: loopback routes for ranks sharing a node */
  g_autofree char *m = xml_of("mesh:2x2", NULL, 2, FALSE);
  cr_assert_eq(tu_count(m, "<route "), 16);
  cr_assert_eq(tu_count(m, "<link_ctn id=\"loopback\"/>"), 4);
  cr_assert(strstr(m, "core=\"2\""));
  /* the HAEC Box: wireless links in the routes */
  g_autofree char *h = xml_of("haec:2x2x2", NULL, 0, FALSE);
  cr_assert_eq(tu_count(h, "<route "), 56);
  g_autofree char *wireless = g_strdup_printf("latency=\"%.17gs\"", 100e-12);
  cr_assert(strstr(h, wireless), "the wireless links' 100 ps: %s", h);
}

/* The default model differs from SMPI in the handshake, eager start,
 * sharing and envelope: one note each on stderr; the simgrid preset is
 * SMPI's, no note. */
Test(simgrid, notes_name_what_smpi_does_otherwise)
{
  g_autofree char *tr = tu_src("traces/data/ring-8");
  char *dir = tu_tmp_dir();
  g_autofree char *a = g_build_filename(dir, "a", NULL), *b = g_build_filename(dir, "b", NULL);
  const char *def[] = { "export", "simgrid", "-q", "-p", "torus:4x4x4", "-t", tr, "-o", a, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, def), 0, "%s", err);
  cr_assert_str_eq(err,
                   "mapsim: note: SMPI has no RTS/CTS handshake: it sends messages above the eager "
                   "limit synchronously, as mapsim's --handshake sync does (--preset simgrid sets "
                   "it)\n"
                   "mapsim: note: SMPI starts an eager message only once its receive is posted, as "
                   "mapsim's --eager-start match does (--preset simgrid sets it)\n"
                   "mapsim: note: SimGrid's CM02 shares a link among flows in inverse proportion "
                   "to their route latency, as mapsim's --sharing latency does (--preset simgrid "
                   "sets it)\n"
                   "mapsim: note: SMPI adds a 16-byte envelope to every message, the platform 0 "
                   "(--envelope 16 or --preset simgrid for the same times)\n");
  g_free(out);
  g_free(err);
  const char *sg[] = { "export", "simgrid", "-q", "-p", "torus:4x4x4", "-t", tr, "--preset",
                       "simgrid", "-o", b, NULL };
  cr_assert_eq(tu_run(&out, &err, sg), 0, "%s", err);
  cr_assert_str_eq(err, "");
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
  g_free(dir);
}

/* ---- SimGrid itself ------------------------------------------------------ */

/* The bundled traces on the paper's torus and HAEC Box (and one random
 * placement each): SimGrid replays the exported run in the time mapsim's
 * flow model gives it under the simgrid preset, to 0.2%. */
Test(simgrid, bundled_traces_replay_in_simgrid, .timeout = 600)
{
  skip_without_simgrid();
  const char *traces[] = { "stencil3d-64", "alltoall-16", "ring-8", "cg-16" };
  g_autofree char *haec = tu_src("configs/haec-4x4x4.ini");
  const char *plats[] = { "torus:4x4x4", haec };
  char *tmp = tu_tmp_dir();
  g_autofree char *dir = g_build_filename(tmp, "sg", NULL);
  for (size_t p = 0; p < G_N_ELEMENTS(plats); p++)
    for (size_t i = 0; i < G_N_ELEMENTS(traces); i++)
      for (int rnd = 0; rnd < (i == 0 ? 2 : 1); rnd++) {
        g_autofree char *rel = g_build_filename("traces/data", traces[i], NULL);
        g_autofree char *tr = tu_src(rel);
        const char *strategy = rnd ? "random" : NULL;
        double sg = simgrid_makespan(plats[p], tr, strategy, dir);
        double ms = mapsim_makespan(plats[p], tr, strategy);
        cr_assert(sg > 0 && fabs(ms - sg) <= 2e-3 * sg, "%s on %s%s: SimGrid %.9g s, mapsim %.9g s",
                  traces[i], plats[p], rnd ? " (random)" : "", sg, ms);
      }
  tu_rm_rf(tmp);
  g_free(tmp);
}

/* ---- what SMPI does that mapsim's simgrid preset mirrors -------------------- */

/* A blocking call of one point-to-point record (MPI_Send / MPI_Recv). */
static void blocking(trace *t, int r, const char *name, int kind, int peer, uint32_t tag,
                     int64_t bytes)
{
  uint32_t reg = trace_add_region(t, name);
  region(t, r, reg, TRACE_ENTER, 0);
  ev(t, r, kind, 0, peer, tag, bytes, 0);
  region(t, r, reg, TRACE_LEAVE, 0);
}

static void collective(trace *t, int r, const char *name, int op, uint32_t comm, int64_t bytes)
{
  uint32_t reg = trace_add_region(t, name);
  region(t, r, reg, TRACE_ENTER, 0);
  trace_event c = { .kind = TRACE_COLL_END, .op = (uint32_t)op, .peer = -1, .comm = comm,
                    .bytes = bytes, .bytes_recv = bytes };
  trace_push(t, r, &c);
  region(t, r, reg, TRACE_LEAVE, 0);
}

/* Isends of `n` messages (peer, tag, bytes) completed by one Waitall, or
 * Irecvs of them when `recv`. */
static void nonblocking(trace *t, int r, gboolean recv, int n, const int *peer,
                        const uint32_t *tag, int64_t bytes)
{
  uint32_t post = trace_add_region(t, recv ? "MPI_Irecv" : "MPI_Isend");
  uint32_t all = trace_add_region(t, "MPI_Waitall");
  for (int k = 0; k < n; k++) {
    region(t, r, post, TRACE_ENTER, 0);
    if (recv)
      ev(t, r, TRACE_IRECV_REQUEST, 0, -1, 0, 0, (uint64_t)k + 1);
    else
      ev(t, r, TRACE_ISEND, 0, peer[k], tag[k], bytes, (uint64_t)k + 1);
    region(t, r, post, TRACE_LEAVE, 0);
  }
  region(t, r, all, TRACE_ENTER, 0);
  for (int k = 0; k < n; k++)
    if (recv)
      ev(t, r, TRACE_IRECV, 0, peer[k], tag[k], bytes, (uint64_t)k + 1);
    else
      ev(t, r, TRACE_ISEND_COMPLETE, 0, -1, 0, 0, (uint64_t)k + 1);
  region(t, r, all, TRACE_LEAVE, 0);
}

/* Rank 0 sends rank 1 two 88-byte messages and joins an allreduce; rank 1
 * joins it once it has received both. SMPI's isend of the allreduce waits
 * for rank 1's irecv: 2 x (104 B / 31.25 GB/s + 10 ps) for the messages,
 * then 24 B + 10 ps each way, 7.454 ns (mapsim's data leaving at rank 0's
 * join shared the link with the second message: 8.222 ns). */
static trace *held_allreduce(void)
{
  trace *t = trace_new(2);
  blocking(t, 0, "MPI_Send", TRACE_SEND, 1, 1, 88);
  blocking(t, 0, "MPI_Send", TRACE_SEND, 1, 2, 88);
  blocking(t, 1, "MPI_Recv", TRACE_RECV, 0, 1, 88);
  blocking(t, 1, "MPI_Recv", TRACE_RECV, 0, 2, 88);
  for (int r = 0; r < 2; r++)
    collective(t, r, "MPI_Allreduce", COLL_ALLREDUCE, t->world, 8);
  return t;
}

/* A 1 MiB bcast from rank 0 to rank 1 (a communicator of the two), then 8
 * bytes from rank 0 to rank 2, which then sends 1 MiB to rank 3. SMPI's
 * isend above the eager limit is not detached: rank 0 leaves the bcast when
 * its message has arrived, (2^20 + 16) x 32 ps + 10 ps = 33.554954 us, and
 * rank 3 has its MiB at 67.110686 us (mapsim's rank 0 leaving at once let
 * both MiB cross at the same time: 33.56 us). */
static trace *rendezvous_bcast(void)
{
  trace *t = trace_new(4);
  uint32_t pair = trace_add_comm(t, "pair", 2, (const int[]){ 0, 1 });
  for (int r = 0; r < 2; r++)
    collective(t, r, "MPI_Bcast", COLL_BCAST, pair, 1 << 20);
  blocking(t, 0, "MPI_Send", TRACE_SEND, 2, 1, 8);
  blocking(t, 2, "MPI_Recv", TRACE_RECV, 0, 1, 8);
  blocking(t, 2, "MPI_Send", TRACE_SEND, 3, 1, 1 << 20);
  blocking(t, 3, "MPI_Recv", TRACE_RECV, 2, 1, 1 << 20);
  return t;
}

/* On torus:2x2x2 rank 1 sends 1000 bytes to rank 3 (link 1->3) and to rank
 * 5 (link 1->5); once 8 bytes from rank 2 have arrived, rank 0 sends 1000
 * bytes to ranks 3 (0->1->3) and 5 (0->1->5): two flows that share their
 * first link end their latency in one instant. SimGrid's default lazy
 * update re-rates only the links of the first one, 1->5 carries 1->5 at
 * full rate plus 0->5's share, and the run ends 19% early (65.822 ns
 * against 81.684 ns); smpirun.sh solves in full. */
static trace *flows_joining_together(void)
{
  trace *t = trace_new(8);
  nonblocking(t, 1, FALSE, 2, (const int[]){ 3, 5 }, (const uint32_t[]){ 1, 1 }, 1000);
  blocking(t, 2, "MPI_Send", TRACE_SEND, 0, 1, 8);
  blocking(t, 0, "MPI_Recv", TRACE_RECV, 2, 1, 8);
  nonblocking(t, 0, FALSE, 2, (const int[]){ 3, 5 }, (const uint32_t[]){ 2, 2 }, 1000);
  for (int r = 3; r <= 5; r += 2)
    nonblocking(t, r, TRUE, 2, (const int[]){ 1, 0 }, (const uint32_t[]){ 1, 2 }, 1000);
  return t;
}

/* Each case exported and replayed by smpirun, and by mapsim's flow model
 * under the simgrid preset: the closed forms above, within 1%. */
Test(simgrid, smpi_protocol_cases_replay_alike, .timeout = 300)
{
  skip_without_simgrid();
  struct {
    trace *(*build)(void);
    const char *plat;
    double expect_s; /* 0: no closed form */
  } cases[] = { { held_allreduce, "torus:2x2x2", 7.454e-9 },
                { rendezvous_bcast, "torus:2x2x1", 67.110686e-6 },
                { flows_joining_together, "torus:2x2x2", 0 } };
  char *tmp = tu_tmp_dir();
  g_autofree char *tr = g_build_filename(tmp, "trace", NULL);
  g_autofree char *sg = g_build_filename(tmp, "sg", NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    trace *t = cases[i].build();
    t->duration_ps = 0;
    GError *e = NULL;
    cr_assert(trace_write_otf2(t, tr, NULL, &e), "%s", e ? e->message : "");
    trace_free(t);
    double s = simgrid_makespan(cases[i].plat, tr, NULL, sg);
    double m = mapsim_makespan(cases[i].plat, tr, NULL);
    cr_assert(s > 0 && fabs(m - s) <= 0.01 * s, "case %zu: SimGrid %.9g s, mapsim %.9g s", i, s, m);
    if (cases[i].expect_s > 0)
      cr_assert(fabs(m - cases[i].expect_s) <= 1e-15, "case %zu: mapsim %.12g s, expected %.12g s",
                i, m, cases[i].expect_s);
    tu_rm_rf(tr);
  }
  tu_rm_rf(tmp);
  g_free(tmp);
}

/* ---- smpirun.sh stopped ---- */

/* The shell must start with the signals' default actions: a signal ignored
 * on entry cannot be trapped (POSIX, "trap"). */
static void default_signals(gpointer user)
{
  (void)user;
  const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
  for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
    signal(sigs[i], SIG_DFL);
}

/* Starts `sh script` with TMPDIR=tmpdir, standard output and error to fd;
 * its pid. */
static GPid start_script(const char *script, const char *tmpdir, int fd)
{
  char *argv[] = { "sh", (char *)script, NULL };
  char **env = g_environ_setenv(g_get_environ(), "TMPDIR", tmpdir, TRUE);
  GPid pid = 0;
  GError *e = NULL;
  gboolean ok = g_spawn_async_with_pipes_and_fds(NULL, (const char *const *)argv,
                                                 (const char *const *)env,
                                                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                                 default_signals, NULL, -1, fd, fd, NULL, NULL, 0,
                                                 &pid, NULL, NULL, NULL, &e);
  g_strfreev(env);
  cr_assert(ok, "spawn sh %s: %s", script, e ? e->message : "?");
  return pid;
}

/* How many of the script's logs (mapsim-smpirun.*) are in dir. */
static int script_logs(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  cr_assert_not_null(d, "%s", dir);
  int n = 0;
  for (const char *name; (name = g_dir_read_name(d));)
    n += g_str_has_prefix(name, "mapsim-smpirun.");
  g_dir_close(d);
  return n;
}

static const char *ended(int status, char *buf, size_t len)
{
  if (WIFSIGNALED(status))
    g_snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
  else
    g_snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
  return buf;
}

/* smpirun.sh with its output closed before it writes (as in `sh smpirun.sh
 * 2>&1 | head -1`), and stopped by SIGHUP, SIGINT or SIGTERM while SimGrid
 * runs: it exits 130 and leaves no log behind (before its trap covered HUP
 * and PIPE, the shell died of those signals and left its log in $TMPDIR). */
Test(simgrid, smpirun_sh_removes_its_log_when_stopped, .timeout = 300)
{
  skip_without_simgrid();
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *sg = g_build_filename(tmp, "sg", NULL);
  g_autofree char *logs = g_build_filename(tmp, "tmpdir", NULL);
  cr_assert_eq(g_mkdir(logs, 0700), 0);
  g_autofree char *stencil = tu_src("traces/data/stencil3d-64");
  char *out = NULL, *err = NULL;
  const char *args[] = { "export", "simgrid", "-p", "torus:4x4x4", "-t", stencil, "--preset",
                         "simgrid", "-o", sg, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *script = g_build_filename(sg, "smpirun.sh", NULL);
  char buf[64];
  int status;
  /* a closed pipe: SimGrid's tee dies of SIGPIPE, and smpirun.sh's message
   * about it raises SIGPIPE in the shell itself */
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  close(fds[0]);
  GPid pid = start_script(script, logs, fds[1]);
  close(fds[1]);
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "output closed: %s",
            ended(status, buf, sizeof buf));
  cr_assert_eq(script_logs(logs), 0, "output closed: the log was left in %s", logs);
  /* a signal once the log exists, SimGrid running */
  const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
  for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
    int null = open("/dev/null", O_WRONLY);
    pid = start_script(script, logs, null);
    close(null);
    for (int ms = 0; script_logs(logs) == 0 && ms < 30000; ms++)
      g_usleep(1000);
    cr_assert_eq(script_logs(logs), 1, "signal %d: smpirun.sh made no log in 30 s", sigs[i]);
    cr_assert_eq(kill(pid, sigs[i]), 0);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "signal %d: %s", sigs[i],
              ended(status, buf, sizeof buf));
    cr_assert_eq(script_logs(logs), 0, "signal %d: the log was left in %s", sigs[i], logs);
  }
  tu_rm_rf(tmp);
}
