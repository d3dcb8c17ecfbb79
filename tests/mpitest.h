/* mpitest.h - starting real MPI jobs from a Criterion test: Open MPI's
 * mpirun and MPICH's mpiexec, oversubscribed, with the environment a test
 * machine needs; a run whose MPI start-up failed (PMIx under load) is
 * launched again, up to three times. Used by test_tracer and test_launch.
 */
#pragma once

#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

/* Runs argv (PATH searched); returns the exit status, 128 + signal. */
static inline int mpi_spawn(char **argv, char **out, char **err)
{
  char **env = g_get_environ();
  /* Open MPI's CMA single-copy needs ptrace rights containers often lack */
  env = g_environ_setenv(env, "OMPI_MCA_btl_vader_single_copy_mechanism", "none", TRUE);
  /* Open MPI's session directories below the test binary's own temporary
   * directory: jobs of test binaries running side by side shared
   * /tmp/ompi.HOST.UID, where one job's clean-up removed a directory while
   * another created it (orte_session_dir: "mkdir ... File exists") */
  const char *tmp = g_environ_getenv(env, TU_TMP_ENV);
  if (tmp)
    env = g_environ_setenv(env, "OMPI_MCA_orte_tmpdir_base", tmp, FALSE);
  /* every process is on this machine: TCP between daemons and between
   * ranks of different (fake) hosts over the loopback, which Open MPI
   * leaves out by default, rather than the machine's network interface,
   * where connections between processes failed under load */
  env = g_environ_setenv(env, "OMPI_MCA_oob_tcp_if_include", "lo", FALSE);
  env = g_environ_setenv(env, "OMPI_MCA_btl_tcp_if_include", "lo", FALSE);
  /* sanitizer builds: full malloc stacks, so that the suppressions of
   * tests/data/lsan-mpi.supp recognise Open MPI's own allocations */
  const char *asan = g_environ_getenv(env, "ASAN_OPTIONS");
  char *opts = g_strdup_printf("%s%sfast_unwind_on_malloc=0", asan ? asan : "", asan ? ":" : "");
  env = g_environ_setenv(env, "ASAN_OPTIONS", opts, TRUE);
  g_free(opts);
  int status = tu_spawn_env(argv, env, out, err);
  g_strfreev(env);
  return status;
}

/* An MPI library and how to start its jobs. */
typedef struct {
  const char *name;      /* for messages */
  const char *launcher;  /* program */
  const char *package;   /* the Debian package that has it */
  gboolean open_mpi;     /* Open MPI's mpirun options, else MPICH's mpiexec */
} mpi_lib;

static const mpi_lib mpi_open_mpi = { "Open MPI", "mpirun", "openmpi-bin", TRUE };
static const mpi_lib mpi_mpich = { "MPICH", "mpiexec.mpich", "mpich", FALSE };

/* timeout 120 LAUNCHER [-n N] [-x|-genv NAME=VALUE]... (Open MPI: as root
 * --allow-run-as-root, and --oversubscribe; MPICH oversubscribes as is);
 * np 0 leaves -n out. */
static inline GPtrArray *mpi_argv(const mpi_lib *m, int np, const char *const *env)
{
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(a, g_strdup("timeout"));
  /* well inside the tests' own time limits, so that a hung launcher is
   * ended here and not left behind by Criterion killing the test */
  g_ptr_array_add(a, g_strdup("120"));
  g_ptr_array_add(a, g_strdup(m->launcher));
  if (m->open_mpi && getuid() == 0)
    g_ptr_array_add(a, g_strdup("--allow-run-as-root"));
  if (m->open_mpi)
    g_ptr_array_add(a, g_strdup("--oversubscribe"));
  if (np > 0) {
    g_ptr_array_add(a, g_strdup("-n"));
    g_ptr_array_add(a, g_strdup_printf("%d", np));
  }
  for (int i = 0; env && env[i]; i += 2) {
    if (m->open_mpi) {
      g_ptr_array_add(a, g_strdup("-x"));
      g_ptr_array_add(a, g_strdup_printf("%s=%s", env[i], env[i + 1]));
    } else {
      g_ptr_array_add(a, g_strdup("-genv"));
      g_ptr_array_add(a, g_strdup(env[i]));
      g_ptr_array_add(a, g_strdup(env[i + 1]));
    }
  }
  return a;
}

/* MPI's PMIx start-up can fail on a loaded machine ("Unreachable" in
 * MPI_Init), and so can Open MPI's TCP connections between processes;
 * such a run is retried, a run that started and failed otherwise is not. */
static inline gboolean mpi_startup_failed(const char *out, const char *err)
{
  static const char *const signs[] = { "An error occurred in MPI_Init", "OPAL ERROR",
                                       "ORTE was unable", "PMIX ERROR",
                                       "unable to complete a TCP connection" };
  for (size_t i = 0; i < G_N_ELEMENTS(signs); i++)
    if ((out && strstr(out, signs[i])) || (err && strstr(err, signs[i])))
      return TRUE;
  return FALSE;
}

/* A `retry` for mpi_run: removes the directory `dir` a failed attempt
 * wrote into. */
static inline void mpi_remove_dir(void *dir)
{
  tu_rm_rf(dir);
}

/* mpi_spawn, launched again (after `retry`, which may clean up, with
 * `user`) while the start-up failed, at most three times in all; `err`
 * keeps the standard error of every failed attempt, so that a failure
 * shows whether it repeated. */
static inline int mpi_run(char **argv, char **out, char **err, void (*retry)(void *), void *user)
{
  int rc = mpi_spawn(argv, out, err);
  GString *failed = g_string_new(NULL);
  for (int attempt = 1; rc != 0 && attempt < 3 && mpi_startup_failed(*out, *err); attempt++) {
    g_string_append_printf(failed, "[attempt %d failed at start-up, exit %d]\n%s%s", attempt, rc,
                           *out, *err);
    g_free(*out);
    g_free(*err);
    if (retry)
      retry(user);
    g_usleep(G_USEC_PER_SEC);
    rc = mpi_spawn(argv, out, err);
  }
  if (rc != 0 && failed->len) {
    g_string_append(failed, *err);
    g_free(*err);
    *err = g_strdup(failed->str);
  }
  g_string_free(failed, TRUE);
  return rc;
}

/* Skips the test, saying why, when the launcher is missing or cannot start
 * a plain 2-rank run of `app` (built for that library) here. */
static inline void mpi_skip_unless_launcher_starts(const mpi_lib *m, const char *app)
{
  char *path = g_find_program_in_path(m->launcher);
  if (path == NULL)
    cr_skip_test("%s not found (Debian package %s)", m->launcher, m->package);
  g_free(path);
  GPtrArray *a = mpi_argv(m, 2, NULL);
  g_ptr_array_add(a, g_strdup(app));
  g_ptr_array_add(a, NULL);
  char *out = NULL, *err = NULL;
  int rc = mpi_run((char **)a->pdata, &out, &err, NULL, NULL);
  g_ptr_array_unref(a);
  if (rc != 0)
    cr_skip_test("%s cannot start a plain 2-rank %s program here (exit %d): %s", m->launcher,
                 m->name, rc, err);
  g_free(out);
  g_free(err);
}
