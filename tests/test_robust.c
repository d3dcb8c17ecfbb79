/* test_robust.c - the exit status contract of every subcommand (0 success,
 * 1 a failed check, 2 bad input, 3 internal error, 130 interrupted; never a
 * signal) on missing, empty, endless, binary and absurd inputs, and one
 * regression test per input that once crashed, hung, overflowed or
 * misled: each test is built from that input. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "robusttest.h"
#include "testutil.h"
#include "traces/trace-private.h"

/* Files no loader should accept, in a fresh directory. */
typedef struct {
  char *dir;
  char *path[6];
  const char *what[6];
} bad_files;

static void bad_files_make(bad_files *b)
{
  b->dir = tu_tmp_dir();
  const char *what[6] = { "missing", "empty", "endless (/dev/zero)", "a directory", "binary",
                          "text garbage" };
  for (int i = 0; i < 6; i++)
    b->what[i] = what[i];
  b->path[0] = g_build_filename(b->dir, "missing", "x", NULL);
  b->path[1] = g_build_filename(b->dir, "empty", NULL);
  cr_assert(g_file_set_contents(b->path[1], "", 0, NULL));
  b->path[2] = g_strdup("/dev/zero");
  b->path[3] = g_build_filename(b->dir, "folder", NULL);
  cr_assert_eq(g_mkdir(b->path[3], 0755), 0);
  b->path[4] = g_build_filename(b->dir, "binary", NULL);
  const char bin[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\xff\xfe";
  cr_assert(g_file_set_contents(b->path[4], bin, sizeof bin, NULL));
  b->path[5] = g_build_filename(b->dir, "garbage", NULL);
  cr_assert(g_file_set_contents(b->path[5], "[[[\n}} = =\n0x10 -1 1e999 nan\n\xc3\x28\n", -1,
                                NULL));
}

static void bad_files_free(bad_files *b)
{
  for (int i = 0; i < 6; i++)
    g_free(b->path[i]);
  tu_rm_rf(b->dir);
  g_free(b->dir);
}

/* Every subcommand, every file slot of it, every bad file: status 2 and
 * one line. "@" in a template is replaced by the bad file. */
Test(robust, every_subcommand_refuses_bad_files)
{
  bad_files b;
  bad_files_make(&b);
  char *pair = tu_data("y_pair.csv");
  char *ring8 = tu_src("traces/data/ring-8");
  char *out = g_build_filename(b.dir, "out", NULL);
  char *outdir = g_build_filename(b.dir, "outdir", NULL);
  const char *templates[][16] = {
    { "topo", "-p", "@", NULL },
    { "topo", "-p", "torus:4x4x4", "--alloc", "@", NULL },
    { "route", "-p", "@", "0", "1", NULL },
    { "metrics", "-p", "torus:4x4x4", "-m", "@", NULL },
    { "metrics", "-p", "torus:4x4x4", "-m", pair, "-c", "@", NULL },
    { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", "@", NULL },
    { "metrics", "-p", "torus:4x4x4", "-t", "@", NULL },
    { "trace", "info", "@", NULL },
    { "trace", "matrix", "@", "-o", out, NULL },
    { "commstats", "-m", "@", NULL },
    { "commstats", "-t", "@", NULL },
    { "gen", "--pattern", "spmv", "-n", "4", "--matrix", "@", "-o", outdir, NULL },
    { "map", "-p", "torus:4x4x4", "-m", "@", "-s", "greedy", NULL },
    { "map", "-p", "torus:4x4x4", "-m", pair, "-s", "geometric", "--coords", "@", NULL },
    { "simulate", "-p", "torus:4x4x4", "-t", "@", NULL },
    { "simulate", "-p", "@", "-t", ring8, NULL },
    { "compare", "-t", "@", "-p", "torus:4x4x4", NULL },
    { "study", "@", "-o", outdir, NULL },
    { "show", "-p", "mesh:4x4", "-m", "@", NULL },
    { "show", "-p", "@", "-m", pair, NULL },
    { "plot", "@", "-o", outdir, NULL },
    { "export", "simgrid", "-p", "torus:4x4x4", "-t", "@", "-o", outdir, NULL },
    { "export", "simgrid", "-p", "@", "-t", ring8, "-o", outdir, NULL },
    { "export", "simgrid", "-p", "torus:4x4x4", "-t", ring8, "-M", "@", "-o", outdir, NULL },
    { "export", "mapping", "-p", "torus:4x4x4", "-M", "@", "--format", "hostfile", "-o", out,
      NULL },
    { "export", "mapping", "-p", "torus:4x4x4", "-t", ring8, "--format", "hostfile", "--hosts",
      "@", "-o", out, NULL },
  };
  for (size_t t = 0; t < G_N_ELEMENTS(templates); t++)
    for (int f = 0; f < 6; f++) {
      const char *args[16];
      int n = 0;
      for (; templates[t][n]; n++)
        args[n] = strcmp(templates[t][n], "@") == 0 ? b.path[f] : templates[t][n];
      args[n] = NULL;
      expect_status(2, NULL, args);
    }
  /* compare runs the other cells of its grid: a platform that does not
   * load fails its cells (an error row each, status 2) */
  for (int f = 0; f < 6; f++) {
    char *o = NULL, *e = NULL;
    const char *args[] = { "compare", "-t", ring8, "-p", b.path[f], NULL };
    cr_assert_eq(tu_run(&o, &e, args), 2, "compare -p %s: %s", b.what[f], e);
    cr_assert(g_str_has_prefix(e, "mapsim: ") && strstr(e, b.path[f]), "%s", e);
    g_free(o);
    g_free(e);
  }
  cr_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
  cr_assert(!g_file_test(outdir, G_FILE_TEST_EXISTS));
  g_free(pair);
  g_free(ring8);
  g_free(out);
  g_free(outdir);
  bad_files_free(&b);
}

/* Absurd numbers and options of every subcommand: status 2, one line. */
Test(robust, every_subcommand_refuses_absurd_options)
{
  char *pair = tu_data("y_pair.csv");
  char *ring8 = tu_src("traces/data/ring-8");
  char *dir = tu_tmp_dir();
  char *out = g_build_filename(dir, "o", NULL);
  const char *cases[][14] = {
    { "nosuch", NULL },
    { "topo", NULL },
    { "topo", "-p", "torus:0x4", NULL },
    { "topo", "-p", "torus:4x4x4", "--cores", "0", NULL },
    { "topo", "-p", "torus:4x4x4", "--cores", "2147483647", NULL },
    { "topo", "-p", "torus:4x4x4", "--max-memory", "0", NULL },
    { "topo", "-p", "torus:4x4x4", "--max-memory", "lots", NULL },
    { "topo", "-p", "torus:4x4x4", "--alloc", "random:0", NULL },
    { "route", "-p", "torus:4x4x4", "0", NULL },
    { "route", "-p", "torus:4x4x4", "0", "99999999999", NULL },
    { "route", "-p", "torus:4x4x4", "0", "1,2", NULL },
    { "metrics", "-p", "torus:4x4x4", "-m", pair, "--top", "-1", NULL },
    { "metrics", "-p", "torus:4x4x4", "-m", pair, "-m", pair, NULL },
    { "trace", NULL },
    { "trace", "matrix", ring8, "--kind", "weight", "-o", out, NULL },
    { "commstats", "-m", pair, "--split", "0", NULL },
    { "commstats", "-m", pair, "--split", "3", NULL },
    { "gen", "--pattern", "ring", "-n", "0", "-o", out, NULL },
    { "gen", "--pattern", "ring", "-n", "4", "--gap", "nan", "-o", out, NULL },
    { "gen", "--pattern", "nosuch", "-o", out, NULL },
    { "map", "-p", "torus:4x4x4", "-m", pair, NULL },
    { "map", "-p", "torus:4x4x4", "-m", pair, "-s", "nosuch", NULL },
    { "map", "-p", "torus:4x4x4", "-m", pair, "-s", "kl:t=99999999999", NULL },
    { "map", "-p", "torus:4x4x4", "-m", pair, "-s", "greedy", "--seed", "-1", NULL },
    { "strategies", "extra", NULL },
    { "routings", "extra", NULL },
    { "simulate", "-p", "torus:4x4x4", "-t", ring8, "--compute-scale", "nan", NULL },
    { "simulate", "-p", "torus:4x4x4", "-t", ring8, "--compute-scale", "-1", NULL },
    { "simulate", "-p", "torus:4x4x4", "-t", ring8, "--model", "nosuch", NULL },
    { "simulate", "-p", "torus:4x4x4", "-t", ring8, "--collectives", "bcast=nosuch", NULL },
    { "compare", "-t", ring8, NULL },
    { "compare", "-t", ring8, "-p", "torus:4x4x4", "--json", "--csv", NULL },
    { "export", NULL },
    { "export", "simgrid", "-p", "torus:4x4x4", "-t", ring8, NULL },
    { "export", "simgrid", "-p", "torus:4x4x4", "-t", ring8, "-o", out, "--min-compute", "nan",
      NULL },
    { "export", "simgrid", "-p", "torus:4x4x4", "-t", ring8, "-o", out, "--handshake", "x", NULL },
    { "export", "mapping", "-p", "torus:4x4x4", "-t", ring8, "--format", "nosuch", "-o", out,
      NULL },
    { "export", "mapping", "-p", "torus:4x4x4", "-t", ring8, "--format", "hostfile", "--hosts",
      "node%s", "-o", out, NULL },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++)
    expect_status(2, NULL, cases[i]);
  cr_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
  g_free(pair);
  g_free(ring8);
  g_free(out);
  tu_rm_rf(dir);
  g_free(dir);
}

/* The same subcommands succeed on good input, so the tables above test the
 * inputs, not a broken command; the list covers every subcommand of
 * `mapsim --help`. */
Test(robust, every_subcommand_succeeds_on_good_input)
{
  char *pair = tu_data("y_pair.csv");
  char *ring8 = tu_src("traces/data/ring-8");
  char *dir = tu_tmp_dir();
  char *csv = g_build_filename(dir, "m.csv", NULL);
  char *map = g_build_filename(dir, "m.map", NULL);
  char *gen = g_build_filename(dir, "gen", NULL);
  char *gen2 = g_build_filename(dir, "sg", NULL);
  char *study_out = g_build_filename(dir, "study", NULL);
  char *run = tu_data("runs/y_cg_torus_metrics.json");
  char *plots = g_build_filename(dir, "plots", NULL);
  char *study = g_build_filename(dir, "s.ini", NULL);
  char *text = g_strdup_printf("[study]\nmatrices = %s\nplatforms = torus:2x2x2\n"
                               "strategies = identity; greedy\n", pair);
  cr_assert(g_file_set_contents(study, text, -1, NULL));
  g_free(text);
  const char *cases[][14] = {
    { "topo", "-p", "torus:4x4x4", NULL },
    { "route", "-p", "torus:4x4x4", "0", "63", NULL },
    { "metrics", "-p", "torus:4x4x4", "-m", pair, NULL },
    { "trace", "info", ring8, NULL },
    { "commstats", "-t", ring8, NULL },
    { "gen", "--pattern", "ring", "-n", "4", "-o", gen, NULL },
    { "map", "-p", "torus:4x4x4", "-m", pair, "-s", "greedy", "-o", map, NULL },
    { "strategies", NULL },
    { "routings", NULL },
    { "simulate", "-p", "torus:2x2x2", "-t", ring8, NULL },
    { "compare", "-t", ring8, "-p", "torus:2x2x2", "-j", "1024", NULL },
    { "study", study, "-o", study_out, "--quiet", NULL },
    { "show", "-p", "mesh:4x4", "-m", pair, NULL },
    { "plot", run, "-o", plots, NULL },
    { "export", "simgrid", "-p", "torus:2x2x2", "-t", ring8, "-o", gen2, NULL },
  };
  GHashTable *covered = g_hash_table_new(g_str_hash, g_str_equal);
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    expect_status(0, NULL, cases[i]);
    g_hash_table_add(covered, (gpointer)cases[i][0]);
  }
  const char *mx[] = { "trace", "matrix", ring8, "-o", csv, NULL };
  expect_status(0, NULL, mx);
  const char *mx_stdout[] = { "trace", "matrix", ring8, NULL };
  expect_status(0, NULL, mx_stdout);
  char *list = NULL;
  const char *help[] = { "--help", NULL };
  cr_assert_eq(tu_run(&list, NULL, help), 0);
  char **lines = g_strsplit(strstr(list, "Subcommands:\n"), "\n", -1);
  for (int i = 1; lines[i] && g_str_has_prefix(lines[i], "  "); i++) {
    char **words = g_strsplit(g_strstrip(lines[i]), " ", 2);
    cr_assert(g_hash_table_contains(covered, words[0]), "subcommand %s is not covered",
              words[0]);
    g_strfreev(words);
  }
  g_strfreev(lines);
  g_free(list);
  g_hash_table_destroy(covered);
  g_free(pair);
  g_free(ring8);
  g_free(csv);
  g_free(map);
  g_free(gen);
  g_free(gen2);
  g_free(study);
  g_free(study_out);
  g_free(run);
  g_free(plots);
  tu_rm_rf(dir);
  g_free(dir);
}

/* -o writes a symbolic link's target, a device and a FIFO in place;
 * regular files are replaced whole (the old content stays until then). */
Test(robust, output_through_links_devices_and_fifos)
{
  char *ring8 = tu_src("traces/data/ring-8");
  char *dir = tu_tmp_dir();
  char *target = g_build_filename(dir, "real.csv", NULL);
  char *link = g_build_filename(dir, "link.csv", NULL);
  char *dangling = g_build_filename(dir, "dangling.csv", NULL);
  char *made = g_build_filename(dir, "made.csv", NULL);
  char *fifo = g_build_filename(dir, "fifo.csv", NULL);
  cr_assert(g_file_set_contents(target, "old\n", -1, NULL));
  cr_assert_eq(chmod(target, 0640), 0);
  cr_assert_eq(symlink("real.csv", link), 0);
  cr_assert_eq(symlink("made.csv", dangling), 0);

  EXPECT(0, NULL, "trace", "matrix", ring8, "-o", link);
  struct stat st;
  cr_assert_eq(lstat(link, &st), 0);
  cr_assert(S_ISLNK(st.st_mode), "the link was replaced");
  char *text = NULL;
  cr_assert(g_file_get_contents(target, &text, NULL, NULL));
  cr_assert(g_str_has_prefix(text, "0,5120,0,0,0,0,0,0\n"), "%s", text);
  g_free(text);
  cr_assert_eq(stat(target, &st), 0);
  cr_assert_eq(st.st_mode & 07777, 0640, "permissions of the replaced file: %o",
               st.st_mode & 07777);

  EXPECT(0, NULL, "trace", "matrix", ring8, "-o", dangling);
  cr_assert(g_file_test(made, G_FILE_TEST_IS_REGULAR));

  EXPECT(0, NULL, "trace", "matrix", ring8, "-o", "/dev/null");
  cr_assert_eq(stat("/dev/null", &st), 0);
  cr_assert(S_ISCHR(st.st_mode), "/dev/null is no longer a device");

  cr_assert_eq(mkfifo(fifo, 0600), 0);
  pid_t reader = fork();
  cr_assert_geq(reader, 0);
  if (reader == 0) {
    /* count the lines that come through the FIFO: 8 rows */
    FILE *f = fopen(fifo, "r");
    int lines = 0, c;
    while (f && (c = fgetc(f)) != EOF)
      lines += c == '\n';
    _exit(lines);
  }
  EXPECT(0, NULL, "trace", "matrix", ring8, "-o", fifo);
  int st_reader = 0;
  cr_assert_eq(waitpid(reader, &st_reader, 0), reader);
  cr_assert_eq(WEXITSTATUS(st_reader), 8);
  cr_assert_eq(lstat(fifo, &st), 0);
  cr_assert(S_ISFIFO(st.st_mode));

  assert_clean(dir, NULL);
  g_free(ring8);
  g_free(target);
  g_free(link);
  g_free(dangling);
  g_free(made);
  g_free(fifo);
  tu_rm_rf(dir);
  g_free(dir);
}

/* Runs mapsim ARGS, waits until the temporary of output NAME
 * (".NAME.tmp-...") appears in `dir` and sends SIGTERM (unless it ended
 * first, between two looks); the exit status in *status, its standard
 * error in err[size]. */
static void terminate_while_writing(const char *dir, const char *name, const char *const *args,
                                    int *status, char *err, size_t size)
{
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)g_getenv("MAPSIM"));
  for (int i = 0; args[i]; i++)
    g_ptr_array_add(argv, (char *)args[i]);
  g_ptr_array_add(argv, NULL);
  GPid pid;
  int err_fd;
  cr_assert(g_spawn_async_with_pipes(NULL, (char **)argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                     NULL, NULL, &pid, NULL, NULL, &err_fd, NULL));
  g_ptr_array_free(argv, TRUE);
  char *prefix = g_strdup_printf(".%s.tmp-", name);
  gboolean seen = FALSE, exited = FALSE;
  for (int i = 0; i < 60000 && !seen && !exited; i++) {
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;
    while (d && (n = g_dir_read_name(d)))
      seen = seen || g_str_has_prefix(n, prefix);
    g_dir_close(d);
    exited = !seen && waitpid(pid, status, WNOHANG) == pid;
    if (!seen && !exited)
      g_usleep(1000);
  }
  cr_assert(seen || exited, "no temporary %s* appeared", prefix);
  g_free(prefix);
  if (!exited) {
    kill(pid, SIGTERM);
    cr_assert_eq(waitpid(pid, status, 0), pid);
  }
  g_spawn_close_pid(pid);
  ssize_t n = read(err_fd, err, size - 1);
  err[n > 0 ? n : 0] = '\0';
  close(err_fd);
}

/* SIGTERM while output NAME is written: status 130, "mapsim:
 * interrupted", and neither NAME nor its temporary remains. A run that
 * finished before the signal came (a loaded machine) did not test that:
 * its output goes and it runs again, up to five times. */
static void interrupt_while_writing(const char *dir, const char *name, const char *const *args)
{
  int status = 0;
  char err[256] = "";
  for (int attempt = 0; attempt < 5; attempt++) {
    terminate_while_writing(dir, name, args, &status, err, sizeof err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      break;
    g_autofree char *done = g_build_filename(dir, name, NULL);
    tu_rm_rf(done);
  }
  cr_assert(WIFEXITED(status), "killed by signal %d", WTERMSIG(status));
  cr_assert_eq(WEXITSTATUS(status), 130, "status %d: %s", WEXITSTATUS(status), err);
  cr_assert(g_str_has_suffix(err, "mapsim: interrupted\n"), "%s", err);
  assert_clean(dir, name);
}

/* SIGTERM while a dense matrix, a generated trace or a simulated trace is
 * written: status 130, neither the output nor its temporary remains (a
 * killed gen once left .NAME.tmp-XXXXXX folders of hundreds of MB). */
Test(robust, interrupt_removes_the_temporary)
{
  char *dir = tu_tmp_dir();
  char *out = g_build_filename(dir, "wide.csv", NULL);
  /* a ring of 3000 ranks: its dense matrix has 9 million cells to write,
   * its archive 3000 event files */
  char *gen = g_build_filename(dir, "t", NULL);
  EXPECT(0, NULL, "gen", "--pattern", "ring", "-n", "3000", "-i", "1", "--gap", "0", "-o", gen);
  const char *matrix[] = { "trace", "matrix", gen, "-o", out, "--quiet", NULL };
  interrupt_while_writing(dir, "wide.csv", matrix);
  char *big = g_build_filename(dir, "big", NULL);
  const char *generate[] = { "gen", "--pattern", "ring", "-n", "30000", "-i", "2", "--gap", "0",
                             "-o", big, "--quiet", NULL };
  interrupt_while_writing(dir, "big", generate);
  char *sim = g_build_filename(dir, "sim", NULL);
  const char *simulate[] = { "simulate", "-p", "torus:16x16x16", "-t", gen, "--compute-scale", "0",
                             "--out-trace", sim, "--quiet", NULL };
  interrupt_while_writing(dir, "sim", simulate);
  g_free(out);
  g_free(gen);
  g_free(big);
  g_free(sim);
  tu_rm_rf(dir);
  g_free(dir);
}

/* Empty steps of a strategy pipeline (once a NULL into strcmp). */
Test(robust, empty_pipeline_steps)
{
  char *cg = tu_data("maplib/cg.p2p.size.csv");
  const char *specs[] = { "greedy+", "+greedy", "greedy++wh", "+", "greedy:,", "" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++)
    EXPECT(2, "--strategy", "map", "-p", "torus:4x4x4", "-m", cg, "-s", specs[i]);
  EXPECT(2, "step 2 is empty", "map", "-p", "torus:4x4x4", "-m", cg, "-s", "greedy++wh");
  g_free(cg);
}

/* Times beyond int64 picoseconds: a clear error, never an assertion or a
 * wrapped clock (a compute scale of 1e300, bandwidths of 1e-300 to 1e-3
 * bytes/s, a latency of 1e9 s, with every network model). */
Test(robust, simulated_time_beyond_int64)
{
  char *st = tu_src("traces/data/stencil3d-64");
  char *dir = tu_tmp_dir();
  EXPECT(2, "simulated time exceeds 106 days at ps resolution", "simulate", "-p", "torus:4x4x4",
         "-t", st, "--compute-scale", "1e300");
  /* 3e6 s x 64 ranks: the makespan fits, makespan x ranks does not */
  EXPECT(2, "parallel cost (makespan x ranks) exceeds 106 days", "simulate", "-p", "torus:4x4x4",
         "-t", st, "--compute-scale", "1e9");
  const char *bws[] = { "1e-300", "1e-6", "1e-3" };
  const char *models[] = { "analytic", "flow", "packet" };
  for (size_t b = 0; b < G_N_ELEMENTS(bws); b++) {
    char *text = g_strdup_printf("[topology]\nshape = 4x4x4\n[linktype.slow]\nbandwidth = %s\n"
                                 "latency = 1e-9\n", bws[b]);
    char *ini = g_build_filename(dir, "slow.ini", NULL);
    cr_assert(g_file_set_contents(ini, text, -1, NULL));
    for (size_t m = 0; m < G_N_ELEMENTS(models); m++)
      EXPECT(2, "simulated time exceeds 106 days at ps resolution", "simulate", "-p", ini, "-t",
             st, "--model", models[m]);
    g_free(ini);
    g_free(text);
  }
  char *lat = g_build_filename(dir, "late.ini", NULL);
  cr_assert(g_file_set_contents(lat, "[topology]\nshape = 4x4x4\n[linktype.far]\n"
                                "bandwidth = 1e9\nlatency = 1e9\n", -1, NULL));
  EXPECT(2, "simulated time exceeds 106 days at ps resolution", "simulate", "-p", lat, "-t", st);
  g_free(lat);
  g_free(st);
  tu_rm_rf(dir);
  g_free(dir);
}

/* Byte counts whose sums pass 2^63 - 1: refused where they enter. */
Test(robust, byte_totals_beyond_int64)
{
  char *dir = tu_tmp_dir();
  char *out = g_build_filename(dir, "t", NULL);
  EXPECT(2, "--bytes 9223372036854775807", "gen", "--pattern", "ring", "-n", "4", "-b",
         "9223372036854775807", "-o", out);
  cr_assert(!g_file_test(out, G_FILE_TEST_EXISTS));
  char *sum = tu_write_tmp("sum.txt", "0 1 9223372036854775807\n1 0 1\n");
  EXPECT(2, ":2: the values add up to more than 2^63 - 1", "metrics", "-p", "torus:4x4x4", "-m",
         sum);
  /* each edge fits, bytes x hops does not: 2^62 bytes over 4 hops */
  char *far = tu_write_tmp("far.txt", "0 1 4611686018427387904\n");
  char *map = tu_write_tmp("far.map", "0 0\n1 4\n");
  EXPECT(2, "hop_bytes or a link's bytes exceed 2^63 - 1", "metrics", "-p", "torus:8x8x8", "-m",
         far, "--mapping", map);
  g_free(out);
  g_free(sum);
  g_free(far);
  g_free(map);
  tu_rm_rf(dir);
  g_free(dir);
}

/* A link graph some nodes cannot reach is refused with the pair, by every
 * command that loads it (topo once printed a negative distance, route 0
 * hops, metrics dropped pairs, map -s wh never ended). */
Test(robust, disconnected_link_graph)
{
  char *dir = tu_tmp_dir();
  char *ini = g_build_filename(dir, "split.ini", NULL);
  char *links = g_build_filename(dir, "split.links", NULL);
  cr_assert(g_file_set_contents(links, "0 1\n1 0\n2 3\n3 2\n", -1, NULL));
  cr_assert(g_file_set_contents(ini, "[topology]\ngraph = split.links\n[linktype.a]\n"
                                "bandwidth = 1e9\nlatency = 1e-9\n", -1, NULL));
  char *pair = tu_data("y_pair.csv");
  const char *expect = "node 0 cannot reach node 2 over the links";
  EXPECT(2, expect, "topo", "-p", ini);
  EXPECT(2, expect, "route", "-p", ini, "0", "3");
  EXPECT(2, expect, "metrics", "-p", ini, "-m", pair);
  EXPECT(2, expect, "map", "-p", ini, "-m", pair, "-s", "wh");
  g_free(pair);
  g_free(ini);
  g_free(links);
  tu_rm_rf(dir);
  g_free(dir);
}

/* Sizes are checked before allocating: one large id or header makes no
 * 10^18-cell matrix (once a GLib abort, exit 133). */
Test(robust, matrix_sizes_checked_before_allocating)
{
  char *edges = tu_write_tmp("far.txt", "0 1000000000 100\n");
  EXPECT(2, "far.txt:1: 1000000001 ranks, expected at most 16777216", "commstats", "-m", edges);
  char *mtx = tu_write_tmp("big.mtx", "%%MatrixMarket matrix coordinate integer general\n"
                           "2000000000 2000000000 1\n1 1 1\n");
  EXPECT(2, "big.mtx:2: 2000000000 ranks, expected at most", "commstats", "-m", mtx);
  char *nnz = tu_write_tmp("nnz.mtx", "%%MatrixMarket matrix coordinate integer general\n"
                           "1000 1000 2000000000\n1 1 1\n");
  EXPECT(2, "nnz.mtx:2: 2000000000 entries: needs about 44.7 GiB, more than the memory budget "
         "of 1.0 GiB (--max-memory)", "commstats", "-m", nnz, "--max-memory", "1G");
  /* a dense matrix of 16 million ranks: 2 PiB */
  char *wide = tu_write_tmp("wide.txt", "0 16777215 1\n");
  EXPECT(2, "dense communication matrix: needs about 2.0 PiB", "commstats", "-m", wide);
  g_free(edges);
  g_free(mtx);
  g_free(nnz);
  g_free(wide);
}

/* Cores per node beyond the limit and capacities past int (once "at most
 * -64 ranks"). */
Test(robust, cores_and_capacity)
{
  char *cg = tu_data("maplib/cg.p2p.size.csv");
  char *ini = tu_write_tmp("many.ini", "[topology]\nshape = 4x4x4\n[nodes]\ncores = 2147483647\n"
                           "[linktype.a]\nbandwidth = 1e9\nlatency = 1e-9\n");
  EXPECT(2, "[nodes] cores = 2147483647: expected a whole number from 1 to 1048576", "metrics",
         "-p", ini, "-m", cg);
  EXPECT(2, "--cores 2147483647: expected an integer from 1 to 1048576", "metrics", "-p",
         "torus:4x4x4", "-m", cg, "--cores", "2147483647");
  EXPECT(2, "--cores 0", "metrics", "-p", "torus:4x4x4", "-m", cg, "--cores", "0");
  /* 2^20 cores on 2^20 nodes hold 2^40 ranks: the capacity is exact */
  EXPECT(2, "64 ranks do not fit 1 allocated node x 1 core, expected at most 1 rank ",
         "metrics", "-p", "torus:4x4x4", "-m", cg, "--alloc", "random:1");
  EXPECT(0, NULL, "map", "-p", "torus:4x4x4", "-m", cg, "--cores", "1048576", "-s", "random");
  g_free(cg);
  g_free(ini);
}

/* --threads: 1 to 1024, no more threads than cells. */
Test(robust, thread_counts)
{
  char *ring = tu_src("traces/data/ring-8");
  const char *bad[] = { "100000", "0", "-3", "x" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
    EXPECT(2, "--threads", "compare", "-t", ring, "-p", "torus:2x2x2", "-j", bad[i]);
  EXPECT(0, NULL, "compare", "-t", ring, "-p", "torus:2x2x2", "-j", "1024");
  g_free(ring);
}

/* commstats on fewer than 16 ranks: the default SP(k) are those that fit
 * (once "--split 16: out of range", an option never given). */
Test(robust, commstats_default_splits)
{
  char *ring = tu_src("traces/data/ring-8");
  char *out = NULL;
  const char *args[] = { "commstats", "-t", ring, NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert_not_null(strstr(out, "SP(4)"), "%s", out);
  cr_assert_null(strstr(out, "SP(16)"), "%s", out);
  g_free(out);
  g_free(ring);
}

/* JSON nested 100000 deep (once a stack overflow in the parser). */
Test(robust, deeply_nested_json)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < 100000; i++)
    g_string_append_c(s, '[');
  char *json = tu_write_tmp("deep.json", s->str);
  EXPECT(2, "deep.json:1: nested more than 64 levels deep", "topo", "-p", json);
  g_string_free(s, TRUE);
  g_free(json);
}

/* Inputs that never end (/dev/zero) as every kind of referenced file, and a
 * text input beyond a quarter of the memory budget. */
Test(robust, endless_and_oversized_inputs)
{
  char *pair = tu_data("y_pair.csv");
  char *table = tu_write_tmp("table.ini", "[topology]\nshape = 4x4x4\n[routing]\n"
                             "table = /dev/zero\n[linktype.a]\nbandwidth = 1e9\nlatency = 1e-9\n");
  char *graph = tu_write_tmp("graph.ini", "[topology]\ngraph = /dev/zero\n[linktype.a]\n"
                             "bandwidth = 1e9\nlatency = 1e-9\n");
  const char *zero = "/dev/zero: binary data (a NUL byte at byte 1)";
  EXPECT(2, zero, "topo", "-p", table);
  EXPECT(2, zero, "topo", "-p", graph);
  EXPECT(2, zero, "topo", "-p", "torus:4x4x4", "--alloc", "/dev/zero");
  EXPECT(2, zero, "metrics", "-p", "torus:4x4x4", "-m", "/dev/zero");
  EXPECT(2, zero, "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", "/dev/zero");
  EXPECT(2, zero, "map", "-p", "torus:4x4x4", "-m", pair, "-s", "geometric", "--coords",
         "/dev/zero");
  /* 2 MiB of text against a 4 MiB budget (1 MiB for a text input) */
  GString *big = g_string_new(NULL);
  while (big->len < 2 << 20)
    g_string_append(big, "0 1 1\n");
  char *edges = tu_write_tmp("big.txt", big->str);
  EXPECT(2, "big.txt: more than 1.0 MiB, expected a communication matrix of at most a quarter "
         "of the memory budget 4.0 MiB (--max-memory)", "commstats", "-m", edges,
         "--max-memory", "4M");
  g_string_free(big, TRUE);
  g_free(edges);
  g_free(pair);
  g_free(table);
  g_free(graph);
}

/* A mistyped huge shape ends at once with the platform's name (once a
 * minute and 7 GB before "too many links"). */
Test(robust, huge_platforms_refused_before_building)
{
  EXPECT(2, "torus:1000x1000x1000: [topology]: 6000000000 links, expected fewer than 1073741824",
         "topo", "-p", "torus:1000x1000x1000");
  EXPECT(2, "torus:2000x2000x2000: [topology]: 8000000000 nodes, expected fewer than", "topo",
         "-p", "torus:2000x2000x2000");
  /* within the link limit, beyond a 64 MiB budget: refused before building */
  EXPECT(2, "torus:200x200x200: [topology]: the platform's nodes and links: needs about",
         "topo", "-p", "torus:200x200x200", "--max-memory", "64M");
}

/* Matrix values are exact decimal integers: no hex, no exponent, nothing
 * after the number, 2^53 + 1 not rounded. */
Test(robust, matrix_values_exact_integers)
{
  const char *bad[][2] = {
    { "hex.txt", "0 1 0x10\n" }, { "exp.txt", "0 1 1e3\n" }, { "junk.txt", "0 1 5junk\n" },
    { "hex.csv", "0,0x10\n1,0\n" }, { "exp.csv", "0,1e3\n1,0\n" }, { "neg.csv", "0,-0\n1,0\n" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    char *path = tu_write_tmp(bad[i][0], bad[i][1]);
    EXPECT(2, bad[i][0], "metrics", "-p", "torus:4x4x4", "-m", path);
    g_free(path);
  }
  /* 2^53 + 1 bytes between neighbours: hop_bytes is exactly that */
  char *exact = tu_write_tmp("exact.txt", "0 1 9007199254740993\n");
  char *out = NULL;
  const char *args[] = { "metrics", "-p", "torus:4x4x4", "-m", exact, "--json", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert_not_null(strstr(out, "\"hop_bytes\" : 9007199254740993"), "%s", out);
  g_free(out);
  g_free(exact);
  /* a MatrixMarket real matrix may write whole numbers as reals */
  char *real = tu_write_tmp("real.mtx", "%%MatrixMarket matrix coordinate real general\n"
                            "2 2 1\n1 2 1.5e3\n");
  const char *rargs[] = { "metrics", "-p", "torus:4x4x4", "-m", real, "--json", NULL };
  cr_assert_eq(tu_run(&out, NULL, rargs), 0);
  cr_assert_not_null(strstr(out, "\"hop_bytes\" : 1500"), "%s", out);
  g_free(out);
  g_free(real);
}

/* Small clear messages: INI groups and keys given twice, --top beyond the
 * links, an unbounded gen, trace info on unmatched messages. */
Test(robust, unclear_inputs_made_clear)
{
  char *pair = tu_data("y_pair.csv");
  char *keys = tu_write_tmp("keys.ini", "[topology]\nshape = 4x4x4\nshape = 8x8x8\n"
                            "[linktype.a]\nbandwidth = 1e9\nlatency = 1e-9\n");
  EXPECT(2, "keys.ini:3: [topology] shape given again (first on line 2)", "topo", "-p", keys);
  char *groups = tu_write_tmp("groups.ini", "[topology]\nshape = 4x4x4\n[linktype.a]\n"
                              "bandwidth = 1e9\n[topology]\nconnectivity = mesh\n"
                              "[linktype.a]\nlatency = 1e-9\n");
  EXPECT(2, "groups.ini:5: group [topology] again (first on line 1)", "topo", "-p", groups);
  EXPECT(2, "--top 2147483647: expected 0 to 1000000", "metrics", "-p", "torus:4x4x4", "-m",
         pair, "--top", "2147483647");
  char *out = NULL;
  const char *top[] = { "metrics", "-p", "torus:4x4x4", "-m", pair, "--top", "1000000", NULL };
  cr_assert_eq(tu_run(&out, NULL, top), 0);
  cr_assert_lt(tu_lines(out), 500, "%d lines", tu_lines(out));
  g_free(out);
  char *dir = tu_tmp_dir();
  char *gen = g_build_filename(dir, "t", NULL);
  EXPECT(2, "gen: the records of one rank: needs about", "gen", "--pattern", "ring", "-n", "4", "-i",
         "2147483647", "-o", gen);
  EXPECT(2, "the trace would last", "gen", "--pattern", "ring", "-n", "4", "-i", "20000000",
         "--gap", "999999", "--max-memory", "100G", "-o", gen);
  cr_assert(!g_file_test(gen, G_FILE_TEST_EXISTS));
  g_free(gen);
  /* a mapping's rank count: lines of only \f or \r are blank, as for the
   * parser's g_strstrip (once counted as ranks: "rank 2 is not mapped") */
  char *vf = g_build_filename(dir, "vf.map", NULL);
  cr_assert(g_file_set_contents(vf, "\f\n# c\n0 1\n\f \r\n1 2\r\n", -1, NULL));
  const char *hosts[] = { "export", "mapping", "-p", "torus:4x4x4", "-M", vf, "--format",
                          "hostfile", NULL };
  cr_assert_eq(tu_run(&out, NULL, hosts), 0);
  cr_assert_str_eq(out, "node-1\nnode-2\n");
  g_free(out);
  char *none = g_build_filename(dir, "none.map", NULL);
  cr_assert(g_file_set_contents(none, "# mapsim mapping: rank node\n\f \r\n", -1, NULL));
  g_autofree char *none_msg = g_strdup_printf("%s: no 'rank node' lines, expected one line "
                                              "'rank node' per rank\n", none);
  EXPECT(2, none_msg, "export", "mapping", "-p", "torus:4x4x4", "-M", none, "--format",
         "hostfile");
  g_free(vf);
  g_free(none);
  tu_rm_rf(dir);
  g_free(dir);
  g_free(pair);
  g_free(keys);
  g_free(groups);
}

/* Inputs the fuzzers found: the facts of a ring of a million nodes (once
 * an O(n^2) loop: minutes), a --set name GKeyFile refuses (once a GLib
 * critical on stderr); the replay sized against the budget; a JSON name
 * that is not a string (once a json-glib critical); OTF2 arrays longer
 * than their records (once a 32 GB allocation inside libotf2). */
Test(robust, found_by_fuzzing)
{
  char *out = NULL;
  const char *ring[] = { "topo", "-p", "torus:1048576", NULL };
  cr_assert_eq(tu_run(&out, NULL, ring), 0);
  cr_assert_not_null(strstr(out, "diameter        524288 hops"), "%s", out);
  cr_assert_not_null(strstr(out, "avg distance    262144.2500 hops"), "%s", out);
  g_free(out);
  EXPECT(2, "ical.bandwidth=1': expected GROUP.KEY=VALUE", "topo", "-p",
         "torus:4x4x4", "--set", "linktype.opt\001ical.bandwidth=1");
  char *st = tu_src("traces/data/stencil3d-64");
  EXPECT(2, "the replay of 64 ranks and 4608 records: needs about", "simulate", "-p",
         "torus:4x4x4", "-t", st, "--max-memory", "12M");
  g_free(st);

  /* a JSON link type named by an array (once a json-glib critical) */
  char *named = tu_write_tmp("named.json",
                             "{\"platform\": {\"link_types\": [{\"name\": [1, 8], "
                             "\"bandwidth\": 1e9, \"latency\": 10}], \"topology\": "
                             "{\"shape\": [8], \"link_types\": [\"o\"], "
                             "\"connectivity\": [\"torus\"]}}}\n");
  EXPECT(2, "named.json: platform.link_types[0]: expected an object with name, bandwidth "
         "(bytes/s) and latency (ps)", "topo", "-p", named);
  g_free(named);

  /* a group of 2^32 - 1 members (one byte, 0xff) made libotf2 malloc 32 GB
   * for them; ring-8's first group record is at byte 420 of traces.def
   * (type, length 23, self, name, type, member count at 425); a mapping
   * table's 64-bit count is the same allocation in local definitions
   * (casita-10's 1.def: the record at byte 18, its count at 21) */
  char *dir = tu_tmp_dir();
  char *ring8 = tu_src("traces/data/ring-8");
  char *a = copy_archive(ring8, dir, "group");
  const uint8_t all = 0xff;
  patch(a, "traces.def", 425, &all, 1);
  EXPECT(2, "traces.def: 4294967295 group members announced in a record of 23 bytes at byte 420, "
         "expected an intact OTF2 definition file", "trace", "info", a);
  g_free(a);
  char *casita = tu_src("tests/data/traces/casita-10_scorep_mpi_tags");
  a = copy_archive(casita, dir, "mapping");
  patch(a, "traces/1.def", 21, &all, 1);
  EXPECT(2, "1.def: 18446744073709551615 mapping table entries announced in a record of 10 bytes "
         "at byte 18", "trace", "info", a);
  g_free(a);
  /* libotf2 reads a record's fields past the length it announces: the
   * second mapping table of casita-10's 1.def (bytes 30-37) turned into a
   * record of type 1 and length 5 and one of type 1 and length 6 puts a
   * mapping table of length 0 at byte 45, whose count libotf2 read from the
   * clock offset behind it (-2704: a 2^64 - 21,632 byte malloc; found by
   * the OTF2 fuzzer) */
  a = copy_archive(casita, dir, "short");
  const uint8_t shifted[4] = { 0x01, 0x05, 0x02, 0x06 };
  patch(a, "traces/1.def", 30, shifted, 4);
  EXPECT(2, "1.def: 18446744073709548912 mapping table entries announced in a record of 0 bytes "
         "at byte 45", "trace", "info", a);
  g_free(a);
  g_free(casita);
  g_free(ring8);
  tu_rm_rf(dir);
  g_free(dir);
}
