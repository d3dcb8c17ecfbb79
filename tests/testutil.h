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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

/* Runs argv (PATH searched) with environment `env` (NULL: this
 * process's); returns the exit status, 128 + signal. Standard output and
 * error go to *out and *err when given (caller frees), else are dropped. */
static inline int tu_spawn_env(char **argv, char **env, char **out, char **err)
{
  int status = -1;
  GError *e = NULL;
  char *discard_out = NULL, *discard_err = NULL;
  gboolean ok = g_spawn_sync(NULL, argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL,
                             out ? out : &discard_out, err ? err : &discard_err, &status, &e);
  g_free(discard_out);
  g_free(discard_err);
  cr_assert(ok, "spawn %s: %s", argv[0], e ? e->message : "?");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static inline int tu_spawn(char **argv, char **out, char **err)
{
  return tu_spawn_env(argv, NULL, out, err);
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
  int status = tu_spawn((char **)argv->pdata, out, err);
  g_ptr_array_free(argv, TRUE);
  return status;
}

/* The contents of file `rel` below `dir` (caller frees). Not inlined:
 * inlined, gcc 12 takes strstr() results on the text for pointers into
 * this frame (-Wdangling-pointer, a false positive). */
G_NO_INLINE G_GNUC_UNUSED static char *tu_read(const char *dir, const char *rel)
{
  g_autofree char *path = g_build_filename(dir, rel, NULL);
  GError *e = NULL;
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, &e))
    cr_assert_fail("%s", e->message);
  return text;
}

/* Copies directory `from` to `to` (cp -r), made writable: the repository's
 * archives may be read-only in a checkout. */
static inline void tu_copy_dir(const char *from, const char *to)
{
  char *copy[] = { "cp", "-r", (char *)from, (char *)to, NULL };
  char *writable[] = { "chmod", "-R", "u+w", (char *)to, NULL };
  char *err = NULL;
  cr_assert_eq(tu_spawn(copy, NULL, &err), 0, "cp -r %s %s: %s", from, to, err);
  g_free(err);
  cr_assert_eq(tu_spawn(writable, NULL, &err), 0, "chmod -R u+w %s: %s", to, err);
  g_free(err);
}

/* Occurrences of `needle` in `text`, not overlapping. */
/* Does an SVG cairo wrote paint with colour (r, g, b) in [0, 1] (it writes
 * "rgb(R%,G%,B%)")? */
static inline gboolean tu_svg_has_rgb(const char *svg, double r, double g, double b)
{
  for (const char *p = svg; (p = strstr(p, "rgb(")); p++) {
    double v[3];
    if (sscanf(p, "rgb(%lf%%,%lf%%,%lf%%)", &v[0], &v[1], &v[2]) == 3 &&
        fabs(v[0] / 100 - r) < 2e-3 && fabs(v[1] / 100 - g) < 2e-3 && fabs(v[2] / 100 - b) < 2e-3)
      return TRUE;
  }
  return FALSE;
}

static inline int tu_count(const char *text, const char *needle)
{
  int n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

/* Of otf2-print's output: the records of type `type` (lines "TYPE ...")
 * and the sum of their "Length: N" fields. */
static inline int64_t tu_otf2_records(const char *text, const char *type)
{
  int64_t n = 0;
  size_t len = strlen(type);
  for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    n += strncmp(l, type, len) == 0 && l[len] == ' ';
  return n;
}

static inline int64_t tu_otf2_lengths(const char *text, const char *type)
{
  int64_t sum = 0;
  size_t len = strlen(type);
  for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    const char *end = strchr(l, '\n'), *p = strstr(l, "Length: ");
    if (strncmp(l, type, len) == 0 && l[len] == ' ' && p && (!end || p < end))
      sum += g_ascii_strtoll(p + 8, NULL, 10);
  }
  return sum;
}

/* Number of lines of a string (a trailing newline ends the last line). */
static inline int tu_lines(const char *s)
{
  int n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}
