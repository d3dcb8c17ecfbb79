/* testutil.h - small helpers shared by the Criterion tests: loading
 * platforms by shorthand, temporary files, running the `mapsim` binary. */
#pragma once

#include <criterion/criterion.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "routing/platform.h"

static inline platform *tu_platform(const char *spec)
{
  GError *e = NULL;
  platform *p = platform_load(spec, &e);
  cr_assert_not_null(p, "platform %s: %s", spec, e ? e->message : "?");
  return p;
}

/* Path under the source tree, caller frees. */
static inline char *tu_src(const char *rel)
{
  const char *root = g_getenv("MAPSIM_SRC");
  return g_build_filename(root ? root : ".", rel, NULL);
}

/* Path under ../shared, caller frees. */
static inline char *tu_shared(const char *rel)
{
  const char *root = g_getenv("MAPSIM_SHARED");
  return g_build_filename(root ? root : "../shared", rel, NULL);
}

/* Writes `text` to a new temporary file with suffix `name`; caller frees the
 * path (and may g_unlink it). */
static inline char *tu_write_tmp(const char *name, const char *text)
{
  char *dir = g_dir_make_tmp("mapsim-test-XXXXXX", NULL);
  cr_assert_not_null(dir);
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
