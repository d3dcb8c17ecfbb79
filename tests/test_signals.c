/* test_signals.c - how mapsim ends when it is told to. SIGINT, SIGTERM and
 * SIGHUP alike: status 130, "mapsim: interrupted", every temporary file
 * and folder removed, also when a second signal comes; within a second
 * even inside a library call (Scotch mapping 110,592 ranks, the report's
 * figures); and quietly with status 141 when the reader of its pipe went
 * away. Real processes, real signals, real pipes. */
#define _GNU_SOURCE /* unshare */
#include <string.h>

#include "proctest.h"

/* User plus system CPU seconds process `pid` used so far (/proc). */
static double cpu_seconds(pid_t pid)
{
  g_autofree char *path = g_strdup_printf("/proc/%d/stat", (int)pid);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL))
    return 0;
  const char *p = strrchr(text, ')');
  g_auto(GStrv) f = g_strsplit(p ? p + 2 : "", " ", 0);
  if (g_strv_length(f) < 13)
    return 0;
  /* fields 14 and 15 of the line, 12 and 13 after the name */
  return (double)(g_ascii_strtoll(f[11], NULL, 10) + g_ascii_strtoll(f[12], NULL, 10)) /
         (double)sysconf(_SC_CLK_TCK);
}

/* A reader that went away ends mapsim quietly with 141, as SIGPIPE ends
 * other tools there, not by the signal: before the first write, after
 * one line of a megabyte (`| head -1`), and a FIFO's reader too. */
Test(signals, closed_pipe_ends_quietly)
{
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  close(fds[0]);
  char *err = NULL;
  int st = pt_run(PT_ARGS("strategies"), fds[1], NULL, &err);
  close(fds[1]);
  cr_assert(EXITED_WITH(st, 141), "strategies into a closed pipe: %s: %s", how(st), err);
  cr_assert_str_eq(err, "");
  g_free(err);

  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *map = g_build_filename(dir, "id.map", NULL);
  GString *m = g_string_new(NULL);
  for (int r = 0; r < 32768; r++)
    g_string_append_printf(m, "%d %d\n", r, r);
  cr_assert(g_file_set_contents(map, m->str, (gssize)m->len, NULL));
  g_string_free(m, TRUE);
  const char *const *export = PT_ARGS("export", "mapping", "-p", "torus:32x32x32", "-M", map,
                                      "--format", "openmpi-rankfile");
  cr_assert_eq(pipe(fds), 0);
  pt_proc p = pt_start(export, fds[1]);
  close(fds[1]);
  char c = 0;
  while (read(fds[0], &c, 1) == 1 && c != '\n')
    ;
  close(fds[0]);
  st = pt_wait(&p, NULL, &err);
  cr_assert(EXITED_WITH(st, 141), "export | head -1: %s: %s", how(st), err);
  cr_assert_str_eq(err, "");
  g_free(err);

  g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
  cr_assert_eq(mkfifo(fifo, 0600), 0);
  int null = open("/dev/null", O_WRONLY);
  const char *const *export_to_fifo = PT_ARGS("export", "mapping", "-p", "torus:32x32x32", "-M",
                                              map, "--format", "openmpi-rankfile", "-o", fifo);
  p = pt_start(export_to_fifo, null);
  int reader = open(fifo, O_RDONLY);
  while (read(reader, &c, 1) == 1 && c != '\n')
    ;
  close(reader);
  st = pt_wait(&p, NULL, &err);
  cr_assert(EXITED_WITH(st, 141), "-o FIFO whose reader left: %s: %s", how(st), err);
  cr_assert_str_eq(err, "");
  g_free(err);
  close(null);
}

/* Starts `gen` of a large trace into dir/NAME, waits for its temporary
 * folder and sends `sig` (twice when `twice`): status 130, "mapsim:
 * interrupted", nothing left in dir but `keep` entries. */
static void stop_while_writing(const char *dir, const char *name, const char *const *args,
                               int sig, gboolean twice, int keep)
{
  int null = open("/dev/null", O_WRONLY);
  pt_proc p = pt_start(args, null);
  close(null);
  g_autofree char *prefix = g_strdup_printf(".%s.tmp-", name);
  int st = 0;
  cr_assert(pt_wait_for_entry(&p, dir, prefix, &st), "%s ended first: %s", args[0], how(st));
  pt_signal_and_time(&p, sig, twice ? 50 : -1, 20000, &st);
  char *err = NULL;
  pt_collect(&p, &err);
  cr_assert(EXITED_WITH(st, 130), "%s, signal %d%s: %s: %s", args[0], sig, twice ? " twice" : "",
            how(st), err);
  cr_assert(g_str_has_suffix(err, "mapsim: interrupted\n"), "%s", err);
  cr_assert_eq(pt_entries(dir), keep, "%s, signal %d%s: left files or folders behind", args[0],
               sig, twice ? " twice" : "");
  g_free(err);
}

/* SIGHUP (a closed terminal) is a stop like SIGINT and SIGTERM: once it
 * killed the process and left its temporary folder. */
Test(signals, hangup_interrupt_and_terminate_alike, .timeout = 300)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *out = g_build_filename(dir, "big", NULL);
  const char *const *gen = PT_ARGS("gen", "--pattern", "ring", "-n", "30000", "-i", "2", "--gap",
                                   "0", "-o", out, "--quiet");
  const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
  for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++)
    stop_while_writing(dir, "big", gen, sigs[i], FALSE, 0);
}

/* A second signal ends the process at once and still removes temporary
 * folders, not only files (once gen and export simgrid left theirs). */
Test(signals, second_signal_removes_temporary_folders, .timeout = 300)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *out = g_build_filename(dir, "big", NULL);
  g_autofree char *trace = g_build_filename(dir, "ring", NULL);
  g_autofree char *sg = g_build_filename(dir, "sg", NULL);
  const char *const *gen = PT_ARGS("gen", "--pattern", "ring", "-n", "30000", "-i", "2", "--gap",
                                   "0", "-o", out, "--quiet");
  stop_while_writing(dir, "big", gen, SIGINT, TRUE, 0);
  char *err = NULL;
  int st = pt_run(PT_ARGS("gen", "--pattern", "ring", "-n", "3000", "-i", "1", "--gap", "0",
                          "-o", trace, "--quiet"), PT_PIPE, NULL, &err);
  cr_assert(EXITED_WITH(st, 0), "%s: %s", how(st), err);
  g_free(err);
  const char *const *export = PT_ARGS("export", "simgrid", "-p", "torus:16x16x16", "-t", trace,
                                      "-o", sg, "--quiet");
  stop_while_writing(dir, "sg", export, SIGINT, TRUE, 1);
}

/* SIGTERM ends `map -s scotch` of a 48x48x48 stencil (110,592 ranks)
 * within a second although Scotch cannot be stopped, leaving nothing
 * behind; once it ran on for minutes (a job scheduler sends SIGKILL
 * then). The time is measured from the signal to the end, twice at most
 * on a loaded machine. */
Test(signals, terminate_inside_scotch_within_a_second, .timeout = 300)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *edges = g_build_filename(dir, "stencil.edges", NULL);
  g_autofree char *out = g_build_filename(dir, "stencil.map", NULL);
  const int n = 48;
  FILE *f = fopen(edges, "w");
  cr_assert_not_null(f);
  for (int z = 0; z < n; z++)
    for (int y = 0; y < n; y++)
      for (int x = 0; x < n; x++) {
        const int d[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 },
                              { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
        for (int k = 0; k < 6; k++)
          fprintf(f, "%d %d 1000\n", (z * n + y) * n + x,
                  (((z + d[k][2] + n) % n) * n + (y + d[k][1] + n) % n) * n +
                    (x + d[k][0] + n) % n);
      }
  cr_assert_eq(fclose(f), 0);
  int null = open("/dev/null", O_WRONLY);
  int ms = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    pt_proc p = pt_start(PT_ARGS("map", "-p", "torus:48x48x48", "-m", edges, "-s", "scotch", "-o",
                                 out, "--quiet"), null);
    int st = 0;
    /* reading and building take about half a CPU second: then Scotch maps */
    while (cpu_seconds(p.pid) < 1.5 && waitpid(p.pid, &st, WNOHANG) == 0)
      g_usleep(10000);
    cr_assert(cpu_seconds(p.pid) >= 1.5, "map ended before the signal: %s", how(st));
    ms = pt_signal_and_time(&p, SIGTERM, -1, 20000, &st);
    char *err = NULL;
    pt_collect(&p, &err);
    cr_assert(EXITED_WITH(st, 130), "SIGTERM inside Scotch: %s after %d ms: %s", how(st), ms,
              err);
    cr_assert(g_str_has_suffix(err, "mapsim: interrupted\n"), "%s", err);
    g_free(err);
    cr_assert_eq(pt_entries(dir), 1, "the mapping or a temporary was left behind");
    if (ms < 1000)
      break;
  }
  cr_assert_lt(ms, 1000, "SIGTERM inside Scotch: the process ended %d ms after the signal", ms);
  close(null);
}

/* SIGINT while the study draws its report ends it within a second (once
 * the whole report was drawn first), no temporary left. */
Test(signals, interrupt_during_the_report_within_a_second, .timeout = 300)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *out = g_build_filename(dir, "demo", NULL);
  int null = open("/dev/null", O_WRONLY);
  int ms = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    tu_rm_rf(out);
    pt_proc p = pt_start(PT_ARGS("study", "--demo", "-o", out, "--quiet"), null);
    int st = 0;
    cr_assert(pt_wait_for_entry(&p, out, "figures", &st), "the study ended first: %s", how(st));
    ms = pt_signal_and_time(&p, SIGINT, -1, 20000, &st);
    char *err = NULL;
    pt_collect(&p, &err);
    cr_assert(EXITED_WITH(st, 130), "SIGINT during the report: %s after %d ms: %s", how(st), ms,
              err);
    g_free(err);
    pt_assert_no_temporaries(out);
    cr_assert(!pt_has_entry(out, "index.html"), "the report was finished all the same");
    if (ms < 1000)
      break;
  }
  cr_assert_lt(ms, 1000, "SIGINT during the report: the process ended %d ms after it", ms);
  close(null);
}
