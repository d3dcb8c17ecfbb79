/* testutil.h - small helpers shared by the Criterion tests: loading
 * platforms by shorthand, test data, temporary files, running the `mapsim`
 * binary.
 *
 * Temporary files: each test binary that includes this header makes one
 * directory $TMPDIR/mapsim-test-XXXXXX before its first test and removes it
 * with everything inside after its last, passed or failed. Criterion runs
 * every test in a child process; the children find the directory through
 * the environment (MAPSIM_TEST_TMP) and create their files in fresh
 * subdirectories of it (tu_tmp_dir), so nothing a test writes outlives the
 * run. Only a test binary killed from outside leaves its directory behind. */
#pragma once

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "routing/platform.h"
#include "util/output.h"

static inline platform *tu_platform(const char *spec)
{
  GError *e = NULL;
  platform *p = platform_load(spec, &e);
  cr_assert_not_null(p, "platform %s: %s", spec, e ? e->message : "?");
  return p;
}

/* A platform with an allocation (NULL: all) and cores per node (0: the
 * platform's). */
static inline platform *tu_platform_with(const char *spec, const char *alloc, int cores)
{
  platform *p = tu_platform(spec);
  GError *e = NULL;
  if (alloc)
    cr_assert(platform_set_allocation(p, alloc, &e), "%s", e ? e->message : "?");
  if (cores)
    cr_assert(platform_set_cores(p, cores, &e), "%s", e ? e->message : "?");
  return p;
}

/* Path under the source tree, caller frees. */
static inline char *tu_src(const char *rel)
{
  const char *root = g_getenv("MAPSIM_SRC");
  return g_build_filename(root ? root : ".", rel, NULL);
}

/* Path of a test input under tests/data (tests/data/README.md says where
 * each file comes from), caller frees. */
static inline char *tu_data(const char *rel)
{
  const char *root = g_getenv("MAPSIM_SRC");
  return g_build_filename(root ? root : ".", "tests", "data", rel, NULL);
}

/* Removes `path` and, if it is a directory, everything below it. */
static inline void tu_rm_rf(const char *path)
{
  output_remove_tree(path);
}

#define TU_TMP_ENV "MAPSIM_TEST_TMP"

static char *tu_tmp_root;

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
  tu_tmp_root = g_dir_make_tmp("mapsim-test-XXXXXX", NULL);
  if (tu_tmp_root)
    g_setenv(TU_TMP_ENV, tu_tmp_root, TRUE);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
  if (tu_tmp_root)
    tu_rm_rf(tu_tmp_root);
  g_free(tu_tmp_root);
  tu_tmp_root = NULL;
}

/* A new empty directory for this test, removed with the binary's temporary
 * directory after the last test; caller frees the path. */
static inline char *tu_tmp_dir(void)
{
  const char *root = g_getenv(TU_TMP_ENV);
  cr_assert_not_null(root, "%s not set: could not create the test binary's temporary directory",
                     TU_TMP_ENV);
  char *dir = g_build_filename(root, "XXXXXX", NULL);
  cr_assert_not_null(g_mkdtemp(dir), "%s: %s", dir, g_strerror(errno));
  return dir;
}

/* Writes `text` to a new temporary file with suffix `name`; caller frees the
 * path (and may g_unlink it). */
static inline char *tu_write_tmp(const char *name, const char *text)
{
  char *dir = tu_tmp_dir();
  char *path = g_build_filename(dir, name, NULL);
  g_free(dir);
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* Runs `mapsim ARGS...` (NULL-terminated argv after the program); returns
 * the exit status, stdout and stderr (caller frees). */
static inline int tu_run(char **out, char **err, const char *const *args)
{
  const char *exe = g_getenv("MAPSIM");
  cr_assert_not_null(exe, "MAPSIM not set (run through meson test)");
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)exe);
  for (int i = 0; args[i]; i++)
    g_ptr_array_add(argv, (char *)args[i]);
  g_ptr_array_add(argv, NULL);
  int status = -1;
  GError *e = NULL;
  char *discard_out = NULL, *discard_err = NULL;
  char **o = out ? out : &discard_out, **r = err ? err : &discard_err;
  gboolean ok = g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, o,
                             r, &status, &e);
  cr_assert(ok, "spawn: %s", e ? e->message : "?");
  g_ptr_array_free(argv, TRUE);
  g_free(discard_out);
  g_free(discard_err);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Number of lines of a string (a trailing newline ends the last line). */
static inline int tu_lines(const char *s)
{
  int n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}
