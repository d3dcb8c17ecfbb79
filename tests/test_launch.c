/* test_launch.c - launcher files of a mapping (mapping/launch.h): every
 * format written out by hand, host names from patterns and files, the
 * command line (map --format, export mapping), and real launchers placing
 * host_app's ranks by them: Open MPI's mpirun with the rankfile and with
 * the hostfile (--map-by seq), MPICH's mpiexec with the hostfile. The
 * launchers reach their "remote" hosts through tests/fake_rsh.sh, which
 * runs every daemon here and tells its ranks the host they stand for.
 * (Slurm's arbitrary distribution: tests/launch_slurm.sh.) */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "mapping/launch.h"
#include "mapping/launch-private.h"
#include "mpitest.h"
#include "testutil.h"

/* torus:2x2 (nodes 0..3), 2 cores per node, 6 ranks: 0,1 on node 3; 2,3
 * on node 0; 4,5 on node 1. */
static platform *two_by_two(void)
{
  platform *p = tu_platform("torus:2x2");
  cr_assert(platform_set_cores(p, 2, NULL));
  return p;
}

static mapping *six_ranks(const int *nodes)
{
  mapping *m = mapping_new(6);
  for (int r = 0; r < 6; r++)
    m->node[r] = nodes[r];
  return m;
}

static char *written(const char *format, const mapping *m, const platform *p, const host_names *h,
                     GError **error)
{
  const launch_format *f = launch_format_lookup(format, NULL);
  cr_assert_not_null(f, "%s", format);
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  gboolean ok = f->write(mf, m, p, h, error);
  fclose(mf);
  if (!ok) {
    free(buf);
    return NULL;
  }
  char *s = g_strdup(buf);
  free(buf);
  return s;
}

Test(launch, formats_by_hand)
{
  platform *p = two_by_two();
  static const int nodes[6] = { 3, 3, 0, 0, 1, 1 };
  mapping *m = six_ranks(nodes);
  GError *e = NULL;
  host_names *h = host_names_new(p, "h%02d", &e);
  cr_assert_not_null(h, "%s", e ? e->message : "");
  g_autofree char *rf = written("openmpi-rankfile", m, p, h, NULL);
  cr_assert_str_eq(rf, "rank 0=h03 slot=0\nrank 1=h03 slot=1\nrank 2=h00 slot=0\n"
                       "rank 3=h00 slot=1\nrank 4=h01 slot=0\nrank 5=h01 slot=1\n");
  g_autofree char *hf = written("hostfile", m, p, h, NULL);
  cr_assert_str_eq(hf, "h03\nh03\nh00\nh00\nh01\nh01\n");
  g_autofree char *sf = written("slurm-hostfile", m, p, h, NULL);
  cr_assert_str_eq(sf, hf);
  /* Cray MPICH: per node in allocation order (0, 1, 3), its ranks */
  g_autofree char *ro = written("mpich-rank-order", m, p, h, NULL);
  cr_assert_str_eq(ro, "2,3\n4,5\n0,1\n");
  /* unequal nodes: node 0 holds one rank, node 1 two */
  static const int uneven[6] = { 3, 0, 1, 1, 3, 2 };
  mapping *u = six_ranks(uneven);
  cr_assert_null(written("mpich-rank-order", u, p, h, &e));
  cr_assert_str_eq(e->message, "mpich-rank-order: node 1 (h01) holds 2 ranks, the first used "
                               "node holds 1, expected the same number on every node but the "
                               "last (MPICH deals the ranks out evenly; use --fill pack, or the "
                               "hostfile and slurm-hostfile formats)");
  g_clear_error(&e);
  /* the last node may hold fewer */
  static const int last_short[6] = { 0, 0, 1, 1, 2, 3 };
  mapping *l = six_ranks(last_short);
  cr_assert_null(written("mpich-rank-order", l, p, h, &e), "nodes 2 and 3 hold one each");
  g_clear_error(&e);
  static const int tail[6] = { 0, 0, 1, 1, 2, 2 };
  mapping *t = six_ranks(tail);
  g_autofree char *tro = written("mpich-rank-order", t, p, h, NULL);
  cr_assert_str_eq(tro, "0,1\n2,3\n4,5\n");
  cr_assert_null(launch_format_lookup("cray", &e));
  cr_assert(strstr(e->message, "expected openmpi-rankfile, mpich-rank-order, slurm-hostfile, "
                               "hostfile"), "%s", e->message);
  g_clear_error(&e);
  mapping_free(t);
  mapping_free(l);
  mapping_free(u);
  host_names_free(h);
  mapping_free(m);
  platform_free(p);
}

Test(launch, host_names)
{
  platform *p = two_by_two();
  GError *e = NULL;
  host_names *h = host_names_new(p, "n%%%d", &e);
  cr_assert_not_null(h, "%s", e ? e->message : "");
  cr_assert_str_eq(host_names_get(h, 3), "n%3");
  host_names_free(h);
  const char *bad[] = { "node", "node%s", "n%d-%d", "n %d" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    cr_assert_null(host_names_new(p, bad[i], &e), "%s", bad[i]);
    cr_assert(strstr(e->message, bad[i]), "%s", e->message);
    g_clear_error(&e);
  }
  /* a file: one name per node, comments and blank lines ignored */
  char *f4 = tu_write_tmp("hosts4", "# the machine's names\nalpha\nbeta\n\ngamma   # third\ndelta\n");
  h = host_names_new(p, f4, &e);
  cr_assert_not_null(h, "%s", e ? e->message : "");
  cr_assert_str_eq(host_names_get(h, 2), "gamma");
  host_names_free(h);
  /* one per allocated node, in allocation order */
  char *alloc = tu_write_tmp("alloc", "3 1\n");
  cr_assert(platform_set_allocation(p, alloc, NULL));
  char *f2 = tu_write_tmp("hosts2", "x3\nx1\n");
  h = host_names_new(p, f2, &e);
  cr_assert_not_null(h, "%s", e ? e->message : "");
  cr_assert_str_eq(host_names_get(h, 3), "x3");
  cr_assert_str_eq(host_names_get(h, 1), "x1");
  cr_assert_null(host_names_get(h, 0));
  host_names_free(h);
  char *f3 = tu_write_tmp("hosts3", "a\nb\nc\n");
  cr_assert_null(host_names_new(p, f3, &e));
  cr_assert(strstr(e->message, "3 host names, expected 4 (one per node of torus:2x2, in node "
                               "order), 2 (one per allocated node, in allocation order) or 1 "
                               "(every rank on one host)"), "%s", e->message);
  g_clear_error(&e);
  /* one host for the whole job, as a launcher's hostfile writes it (Open
   * MPI's slots, MPICH's host:N): every node, allocated or not, is it */
  const char *one_host[] = { "solo\n", "solo slots=8 max_slots=16 # the laptop\n", "solo:8\n" };
  for (size_t i = 0; i < G_N_ELEMENTS(one_host); i++) {
    g_autofree char *f1 = tu_write_tmp("hosts1", one_host[i]);
    h = host_names_new(p, f1, &e);
    cr_assert_not_null(h, "%s: %s", one_host[i], e ? e->message : "");
    for (int n = 0; n < 4; n++)
      cr_assert_str_eq(host_names_get(h, n), "solo", "%s node %d", one_host[i], n);
    host_names_free(h);
    g_unlink(f1);
  }
  /* two nodes under one name would put both nodes' ranks on one host */
  char *fdup = tu_write_tmp("hostsdup", "# names\nalpha\nbeta\n\nalpha # again\ndelta\n");
  cr_assert_null(host_names_new(p, fdup, &e));
  g_autofree char *dup_msg = g_strdup_printf("%s:5: host 'alpha' again (first on line 2), "
                                             "expected each host once", fdup);
  cr_assert_str_eq(e->message, dup_msg);
  g_clear_error(&e);
  char *fbad = tu_write_tmp("hostsbad", "a\nb c\n");
  cr_assert_null(host_names_new(p, fbad, &e));
  cr_assert(g_str_has_suffix(strstr(e->message, ":2: 'b c'"),
                             "expected one host name per line (no commas or '='; a hostfile's "
                             "'host slots=N' or 'host:N' is read as host)"), "%s", e->message);
  g_clear_error(&e);
  const char *files[] = { f4, alloc, f2, f3, fdup, fbad };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_unlink(files[i]);
    g_free((char *)files[i]);
  }
  platform_free(p);
}

static gpointer write_fifo(gpointer path)
{
  FILE *f = fopen(path, "w"); /* blocks until the reader opens the FIFO */
  if (f) {
    fputs("# scontrol show hostnames\nnid00007\nnid00003\nnid00001\nnid00002\n", f);
    fclose(f);
  }
  return NULL;
}

/* A names file that is a FIFO, as --hosts <(scontrol show hostnames)
 * passes it: read as a file, not taken for a pattern. */
Test(launch, host_names_from_fifo)
{
  platform *p = two_by_two();
  char *dir = tu_tmp_dir();
  g_autofree char *fifo = g_build_filename(dir, "hosts", NULL);
  cr_assert_eq(mkfifo(fifo, 0600), 0, "mkfifo %s: %s", fifo, g_strerror(errno));
  GThread *writer = g_thread_new("fifo", write_fifo, fifo);
  GError *e = NULL;
  host_names *h = host_names_new(p, fifo, &e);
  /* lets the writer finish also when nothing read the FIFO */
  int fd = open(fifo, O_RDONLY | O_NONBLOCK);
  g_thread_join(writer);
  if (fd >= 0)
    close(fd);
  cr_assert_not_null(h, "%s", e ? e->message : "");
  cr_assert_str_eq(host_names_get(h, 0), "nid00007");
  cr_assert_str_eq(host_names_get(h, 1), "nid00003");
  cr_assert_str_eq(host_names_get(h, 2), "nid00001");
  cr_assert_str_eq(host_names_get(h, 3), "nid00002");
  host_names_free(h);
  tu_rm_rf(dir);
  g_free(dir);
  platform_free(p);
}

/* map --format writes what export mapping writes from the mapping file. */
Test(launch, command_line)
{
  char *tmp = tu_tmp_dir();
  g_autofree char *tr = tu_src("traces/data/cg-16");
  g_autofree char *map = g_build_filename(tmp, "cg.map", NULL);
  g_autofree char *rf1 = g_build_filename(tmp, "a.rankfile", NULL);
  const char *m1[] = { "map", "-p", "torus:4x4x4", "--cores", "2", "-t", tr, "-s", "greedy",
                       "-o", map, NULL };
  cr_assert_eq(tu_run(NULL, NULL, m1), 0);
  const char *m2[] = { "map", "-p", "torus:4x4x4", "--cores", "2", "-t", tr, "-s", "greedy",
                       "--format", "openmpi-rankfile", "--hosts", "nid%05d", "-o", rf1, NULL };
  cr_assert_eq(tu_run(NULL, NULL, m2), 0);
  char *out = NULL, *err = NULL;
  const char *ex[] = { "export", "mapping", "-p", "torus:4x4x4", "--cores", "2", "-M", map,
                       "--format", "openmpi-rankfile", "--hosts", "nid%05d", NULL };
  cr_assert_eq(tu_run(&out, &err, ex), 0, "%s", err);
  g_autofree char *text = NULL;
  cr_assert(g_file_get_contents(rf1, &text, NULL, NULL));
  cr_assert_str_eq(out, text);
  /* 16 ranks, the mapping file's nodes, slots 0 and 1 */
  mapping *m = NULL;
  platform *p = tu_platform("torus:4x4x4");
  cr_assert(platform_set_cores(p, 2, NULL));
  cr_assert_not_null(m = mapping_load(map, p, 0, NULL));
  cr_assert_eq(m->ntasks, 16);
  int slots[64] = { 0 };
  for (int r = 0; r < 16; r++) {
    g_autofree char *line = g_strdup_printf("rank %d=nid%05d slot=%d\n", r, m->node[r],
                                            slots[m->node[r]]++);
    cr_assert(strstr(out, line), "%s not in\n%s", line, out);
  }
  g_free(out);
  g_free(err);
  const char *noout[] = { "map", "-p", "torus:4x4x4", "-t", tr, "-s", "greedy", "--format",
                          "hostfile", NULL };
  cr_assert_eq(tu_run(NULL, &err, noout), 2);
  cr_assert(strstr(err, "expected -o FILE"), "%s", err);
  g_free(err);
  /* host names in a mapsim mapping file: not silently dropped */
  g_autofree char *rf2 = g_build_filename(tmp, "b.map", NULL);
  const char *mapsim_hosts[] = { "map", "-p", "torus:4x4x4", "-t", tr, "-s", "greedy",
                                 "--hosts", "nid%05d", "-o", rf2, NULL };
  cr_assert_eq(tu_run(&out, &err, mapsim_hosts), 2);
  cr_assert_str_eq(err, "mapsim: --hosts goes with a launcher --format (see mapsim map --help); "
                        "a mapsim mapping file names nodes by id\n");
  cr_assert_str_eq(out, "");
  g_free(out);
  g_free(err);
  /* a bad names file fails before the trace is even read */
  g_autofree char *dup = g_build_filename(tmp, "dup.hosts", NULL);
  cr_assert(g_file_set_contents(dup, "a\nb\na\n", -1, NULL));
  const char *bad_hosts[] = { "map", "-p", "torus:4x4x4", "-t", "/nonexistent-trace", "-s",
                              "greedy", "--format", "hostfile", "--hosts", dup, "-o", rf2, NULL };
  cr_assert_eq(tu_run(NULL, &err, bad_hosts), 2);
  g_autofree char *dup_msg = g_strdup_printf("mapsim: %s:3: host 'a' again (first on line 1), "
                                             "expected each host once\n", dup);
  cr_assert_str_eq(err, dup_msg);
  g_free(err);
  cr_assert(!g_file_test(rf2, G_FILE_TEST_EXISTS));
  /* the help lists every format with its summary and commands */
  const char *help[] = { "map", "--help", NULL };
  cr_assert_eq(tu_run(&out, NULL, help), 0);
  cr_assert(strstr(out, "  openmpi-rankfile  Open MPI rankfile: rank R=HOST slot=S\n"
                        "                    mpirun --rankfile FILE -np N ./app\n"), "%s", out);
  cr_assert(strstr(out, "  hostfile          one host per rank (MPICH, Open MPI's seq mapper, "
                        "SimGrid)\n"
                        "                    mpiexec -f FILE -n N ./app (MPICH)\n"
                        "                    mpirun --hostfile FILE --map-by seq -np N ./app "
                        "(Open MPI)"), "%s", out);
  for (int i = 0; i < launch_nformats; i++) {
    g_autofree char *line = g_strdup_printf("  %-17s %s\n", launch_formats[i].name,
                                            launch_formats[i].summary);
    cr_assert(strstr(out, line), "%s missing in\n%s", line, out);
  }
  g_free(out);
  mapping_free(m);
  platform_free(p);
  tu_rm_rf(tmp);
  g_free(tmp);
}

/* ---- real launchers -------------------------------------------------- */

/* 6 ranks on 4 hosts named in a file (n-a .. n-d), up to 2 per host, not
 * in rank order: the mapping file, the launcher file and the names. */
static const char *const fake_hosts[4] = { "n-a", "n-b", "n-c", "n-d" };

typedef struct {
  char *dir, *map, *hosts, *file;
  int node[6];
} job;

static void job_make(job *j, const char *format)
{
  static const int nodes[6] = { 2, 0, 2, 3, 1, 0 };
  j->dir = tu_tmp_dir();
  j->map = g_build_filename(j->dir, "job.map", NULL);
  j->hosts = g_build_filename(j->dir, "hosts", NULL);
  j->file = g_build_filename(j->dir, format, NULL);
  GString *m = g_string_new(NULL);
  for (int r = 0; r < 6; r++) {
    j->node[r] = nodes[r];
    g_string_append_printf(m, "%d %d\n", r, nodes[r]);
  }
  cr_assert(g_file_set_contents(j->map, m->str, -1, NULL));
  g_string_free(m, TRUE);
  GString *list = g_string_new(NULL);
  for (int h = 0; h < 4; h++)
    g_string_append_printf(list, "%s\n", fake_hosts[h]);
  cr_assert(g_file_set_contents(j->hosts, list->str, -1, NULL));
  g_string_free(list, TRUE);
  const char *args[] = { "export", "mapping", "-p", "torus:2x2", "--cores", "2", "-M", j->map,
                         "--format", format, "--hosts", j->hosts, "-o", j->file, NULL };
  char *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, args), 0, "%s", err);
  g_free(err);
}

static void job_free(job *j)
{
  tu_rm_rf(j->dir);
  g_free(j->dir);
  g_free(j->map);
  g_free(j->hosts);
  g_free(j->file);
}

/* Every rank printed the host the mapping gave it. */
static void check_hosts(const job *j, const char *out, const char *how)
{
  for (int r = 0; r < 6; r++) {
    g_autofree char *line = g_strdup_printf("rank %d host %s\n", r, fake_hosts[j->node[r]]);
    cr_assert(strstr(out, line), "%s: '%.*s' missing in\n%s", how, (int)strlen(line) - 1, line,
              out);
  }
}

/* Before a launch is tried again: the fake hosts' session directories of
 * the failed attempt go. */
static void remove_fake_hosts(void *dir)
{
  for (int h = 0; h < 4; h++) {
    g_autofree char *d = g_build_filename(dir, fake_hosts[h], NULL);
    tu_rm_rf(d);
  }
}

static char *fake_rsh(void)
{
  return tu_src("tests/fake_rsh.sh");
}

static void launch(const mpi_lib *lib, const char *app_env, const char *format,
                   const char *const *opts)
{
  const char *app = g_getenv(app_env);
  if (!app)
    cr_skip_test("%s was not built (%s not set: its MPI was not found when building)", app_env,
                 app_env);
  mpi_skip_unless_launcher_starts(lib, app);
  job j;
  job_make(&j, format);
  g_autofree char *agent = fake_rsh();
  GPtrArray *a = mpi_argv(lib, 6, NULL);
  for (int i = 0; opts[i]; i++) {
    const char *o = opts[i];
    g_ptr_array_add(a, g_strdup(strcmp(o, "FILE") == 0 ? j.file : strcmp(o, "AGENT") == 0 ? agent : o));
  }
  g_ptr_array_add(a, g_strdup(app));
  g_ptr_array_add(a, NULL);
  cr_assert(g_setenv("MAPSIM_FAKE_TMP", j.dir, TRUE));
  char *out = NULL, *err = NULL;
  int rc = mpi_run((char **)a->pdata, &out, &err, remove_fake_hosts, j.dir);
  g_autofree char *shown = g_strjoinv(" ", (char **)a->pdata);
  cr_assert_eq(rc, 0, "%s failed (%d):\n%s%s", shown, rc, out, err);
  check_hosts(&j, out, shown);
  g_free(out);
  g_free(err);
  g_ptr_array_unref(a);
  job_free(&j);
}

Test(launch, open_mpi_rankfile, .timeout = 300)
{
  const char *opts[] = { "--rankfile", "FILE", "--mca", "plm_rsh_agent", "AGENT", "--mca", "btl",
                         "self,tcp", NULL };
  launch(&mpi_open_mpi, "MAPSIM_HOST_APP", "openmpi-rankfile", opts);
}

Test(launch, open_mpi_hostfile_seq, .timeout = 300)
{
  const char *opts[] = { "--hostfile", "FILE", "--map-by", "seq", "--mca", "plm_rsh_agent",
                         "AGENT", "--mca", "btl", "self,tcp", NULL };
  launch(&mpi_open_mpi, "MAPSIM_HOST_APP", "hostfile", opts);
}

Test(launch, mpich_hostfile, .timeout = 300)
{
  const char *opts[] = { "-f", "FILE", "-launcher", "ssh", "-launcher-exec", "AGENT", NULL };
  launch(&mpi_mpich, "MAPSIM_HOST_APP_MPICH", "hostfile", opts);
}

/* A job on one machine: a names file of one line (here Open MPI's hostfile
 * line for it) puts every node's ranks on that host, every rank on its own
 * core, the nodes' ranks one after the other in node id order: 6 ranks on
 * nodes 2, 0, 2, 3, 1, 0 (node 0 holds ranks 1 and 5, node 1 rank 4, node
 * 2 ranks 0 and 2, node 3 rank 3) take slots 3, 0, 4, 5, 2, 1. */
Test(launch, one_host_every_rank_its_own_slot)
{
  job j;
  job_make(&j, "openmpi-rankfile");
  cr_assert(g_file_set_contents(j.hosts, "localhost slots=6\n", -1, NULL));
  const char *args[] = { "export", "mapping", "-p", "torus:2x2", "--cores", "2", "-M", j.map,
                         "--format", "openmpi-rankfile", "--hosts", j.hosts, "-o", j.file, NULL };
  char *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, args), 0, "%s", err);
  g_free(err);
  g_autofree char *rankfile = NULL;
  cr_assert(g_file_get_contents(j.file, &rankfile, NULL, NULL));
  cr_assert_str_eq(rankfile, "rank 0=localhost slot=3\nrank 1=localhost slot=0\n"
                             "rank 2=localhost slot=4\nrank 3=localhost slot=5\n"
                             "rank 4=localhost slot=2\nrank 5=localhost slot=1\n");
  job_free(&j);
}

/* mpirun runs a one-host rankfile: 2 ranks (as many as the test machine
 * has cores at least) on nodes 3 and 1 take slots 1 and 0. */
Test(launch, open_mpi_rankfile_one_host, .timeout = 300)
{
  const char *app = g_getenv("MAPSIM_HOST_APP");
  if (!app)
    cr_skip_test("MAPSIM_HOST_APP was not built (its MPI was not found when building)");
  mpi_skip_unless_launcher_starts(&mpi_open_mpi, app);
  job j;
  job_make(&j, "openmpi-rankfile");
  cr_assert(g_file_set_contents(j.hosts, "localhost slots=2\n", -1, NULL));
  cr_assert(g_file_set_contents(j.map, "0 3\n1 1\n", -1, NULL));
  const char *args[] = { "export", "mapping", "-p", "torus:2x2", "--cores", "2", "-M", j.map,
                         "--format", "openmpi-rankfile", "--hosts", j.hosts, "-o", j.file, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, args), 0, "%s", err);
  g_free(err);
  g_autofree char *rankfile = NULL;
  cr_assert(g_file_get_contents(j.file, &rankfile, NULL, NULL));
  cr_assert_str_eq(rankfile, "rank 0=localhost slot=1\nrank 1=localhost slot=0\n");
  GPtrArray *a = mpi_argv(&mpi_open_mpi, 2, NULL);
  const char *opts[] = { "--rankfile", j.file, "--mca", "btl", "self,tcp", app, NULL };
  for (int i = 0; opts[i]; i++)
    g_ptr_array_add(a, g_strdup(opts[i]));
  g_ptr_array_add(a, NULL);
  int rc = mpi_run((char **)a->pdata, &out, &err, NULL, NULL);
  g_autofree char *shown = g_strjoinv(" ", (char **)a->pdata);
  cr_assert_eq(rc, 0, "%s failed (%d):\n%s%s", shown, rc, out, err);
  for (int r = 0; r < 2; r++) {
    g_autofree char *line = g_strdup_printf("rank %d host ", r);
    cr_assert(strstr(out, line), "%s: '%s' missing in\n%s", shown, line, out);
  }
  g_free(out);
  g_free(err);
  g_ptr_array_unref(a);
  job_free(&j);
}
