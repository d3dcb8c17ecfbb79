/* test_anysource.c - a traced run with wildcard receives through SimGrid:
 * anysource_app (four MPI_ANY_SOURCE receives per round, two of them
 * matching one sender's messages of one tag, completed by MPI_Testall) on
 * 4 ranks under Open MPI with libmapsim-trace, exported with `mapsim
 * export simgrid` and replayed by smpirun: no deadlock, and SimGrid's
 * makespan within 1% of mapsim's flow model under the simgrid preset.
 * smpirun.sh fails, saying so, when SimGrid reports a deadlock or prints no
 * simulated time. Skips, saying why, without SimGrid or where mpirun
 * cannot start a plain MPI program. */
#include <criterion/criterion.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "mpitest.h"
#include "simgridtest.h"
#include "testutil.h"

enum { NP = 4 };

/* The any-source program traced into tmp/trace; its path. */
static char *traced_anysource(const char *tmp)
{
  const char *app = g_getenv("MAPSIM_ANYSOURCE_APP");
  cr_assert(app, "MAPSIM_ANYSOURCE_APP not set (run through meson test)");
  mpi_skip_unless_launcher_starts(&mpi_open_mpi, g_getenv("MAPSIM_TRACER_APP"));
  char *dir = g_build_filename(tmp, "trace", NULL);
  const char *env[] = { "LD_PRELOAD", g_getenv("MAPSIM_TRACER_PRELOAD"), "MAPSIM_TRACE_DIR", dir,
                        NULL };
  GPtrArray *a = mpi_argv(&mpi_open_mpi, NP, env);
  g_ptr_array_add(a, g_strdup(app));
  g_ptr_array_add(a, NULL);
  char *out = NULL, *err = NULL;
  int rc = mpi_run((char **)a->pdata, &out, &err, mpi_remove_dir, dir);
  cr_assert_eq(rc, 0, "anysource_app under the tracer failed (%d): %s%s", rc, out, err);
  cr_assert(strstr(err, "mapsim-trace: wrote"), "%s", err);
  g_ptr_array_unref(a);
  g_free(out);
  g_free(err);
  return dir;
}

Test(anysource, traced_exported_replayed_in_simgrid, .timeout = 600)
{
  skip_without_simgrid();
  char *tmp = tu_tmp_dir();
  g_autofree char *trace = traced_anysource(tmp);
  /* the export: no note (every receive keeps its match), and in every rank
   * the first send of a round comes before any wait */
  g_autofree char *sg = g_build_filename(tmp, "sg", NULL);
  char *out = NULL, *err = NULL;
  const char *args[] = { "export", "simgrid", "-p", "torus:2x2x1", "-t", trace, "--preset",
                         "simgrid", "--compute-scale", "0", "-o", sg, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  cr_assert_str_empty(err);
  g_free(out);
  g_free(err);
  for (int r = 0; r < NP; r++) {
    g_autofree char *name = g_strdup_printf("ranks/%d.txt", r);
    g_autofree char *text = tu_read(sg, name);
    const char *send = strstr(text, " isend "), *wait = strstr(text, " wait ");
    cr_assert(send && wait && send < wait, "rank %d waits before its first send:\n%.400s", r,
              text);
  }
  tu_rm_rf(sg);
  double sim = simgrid_makespan("torus:2x2x1", trace, NULL, sg);
  double ms = mapsim_makespan("torus:2x2x1", trace, NULL);
  cr_assert(sim > 0 && fabs(ms - sim) <= 0.01 * sim, "SimGrid %.9g s, mapsim %.9g s", sim, ms);
  tu_rm_rf(tmp);
  g_free(tmp);
}

/* smpirun.sh on a replay that deadlocks (two ranks that each receive
 * first), and on one whose simulated time is not printed: exit 1 and the
 * reason. */
Test(anysource, smpirun_sh_fails_on_deadlock, .timeout = 300)
{
  skip_without_simgrid();
  char *tmp = tu_tmp_dir();
  g_autofree char *sg = g_build_filename(tmp, "sg", NULL);
  g_autofree char *ring = tu_src("traces/data/ring-8");
  char *out = NULL, *err = NULL;
  const char *args[] = { "export", "simgrid", "-p", "torus:2x2x2", "-t", ring, "--preset",
                         "simgrid", "-o", sg, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *script = g_build_filename(sg, "smpirun.sh", NULL);
  char *quiet[] = { "sh", script, "--log=smpi_replay.thres:critical", NULL };
  cr_assert_eq(tu_spawn(quiet, &out, &err), 1, "%s%s", out, err);
  cr_assert(strstr(err, "smpirun.sh: SimGrid printed no simulated time"), "%s", err);
  g_free(out);
  g_free(err);
  for (int r = 0; r < 8; r++) {
    g_autofree char *name = g_strdup_printf("ranks/%d.txt", r);
    g_autofree char *path = g_build_filename(sg, name, NULL);
    g_autofree char *text = r < 2 ? g_strdup_printf("%d init\n%d recv %d 0 8\n%d finalize\n", r,
                                                    r, 1 - r, r)
                                  : g_strdup_printf("%d init\n%d finalize\n", r, r);
    cr_assert(g_file_set_contents(path, text, -1, NULL));
  }
  char *argv[] = { "sh", script, NULL };
  cr_assert_eq(tu_spawn(argv, &out, &err), 1, "%s%s", out, err);
  cr_assert(strstr(err, "smpirun.sh: SimGrid reports a deadlock"), "%s", err);
  g_free(out);
  g_free(err);
  tu_rm_rf(tmp);
  g_free(tmp);
}
