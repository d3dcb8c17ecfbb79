/* robusttest.h - what the robustness tests share: running the command
 * and asserting its exit status and its one line of error, and that a
 * failed write left no temporary behind; copies of a bundled OTF2 archive
 * to damage. */
#pragma once

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* Runs mapsim; asserts the status, one line on stderr containing `expect`
 * (NULL: any) and nothing on stdout for a failure. A study file lists all
 * its problems, one line each. */
G_GNUC_UNUSED static void expect_status(int want, const char *expect, const char *const *args)
{
  char *out = NULL, *err = NULL;
  int status = tu_run(&out, &err, args);
  GString *cmd = g_string_new("mapsim");
  for (int i = 0; args[i]; i++)
    g_string_append_printf(cmd, " %s", args[i]);
  cr_assert_eq(status, want, "%s: status %d, expected %d; stderr: %s", cmd->str, status, want,
               err);
  if (want == 2) {
    gboolean study = strcmp(args[0], "study") == 0;
    cr_assert(study ? tu_lines(err) >= 1 : tu_lines(err) == 1,
              "%s: expected one line on stderr: %s", cmd->str, err);
    char **lines = g_strsplit(err, "\n", -1);
    for (int i = 0; lines[i] && *lines[i]; i++)
      cr_assert(g_str_has_prefix(lines[i], "mapsim"), "%s: %s", cmd->str, err);
    g_strfreev(lines);
    cr_assert_str_eq(out, "", "%s printed on stdout: %s", cmd->str, out);
  }
  if (expect)
    cr_assert_not_null(strstr(err, expect), "%s: expected '%s' in: %s", cmd->str, expect, err);
  g_string_free(cmd, TRUE);
  g_free(out);
  g_free(err);
}

/* Asserts that `dir` holds no temporary (.NAME.tmp-*) and no `gone`. */
G_GNUC_UNUSED static void assert_clean(const char *dir, const char *gone)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name(d)))
    cr_assert(!g_str_has_prefix(name, ".") && g_strcmp0(name, gone) != 0, "%s: left %s", dir,
              name);
  g_dir_close(d);
}

#define EXPECT(want, expect, ...)                              \
  do {                                                         \
    const char *args_[] = { __VA_ARGS__, NULL };               \
    expect_status(want, expect, args_);                        \
  } while (0)

/* Copies one file's bytes. */
G_GNUC_UNUSED static void copy_file(const char *from, const char *to)
{
  char *data = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(from, &data, &len, NULL), "%s", from);
  cr_assert(g_file_set_contents(to, data, (gssize)len, NULL), "%s", to);
  g_free(data);
}

/* Copies the files of archive `src` (anchor, global definitions, the
 * location files) into a new folder `name` below `dir`; returns its path. */
G_GNUC_UNUSED static char *copy_archive(const char *src, const char *dir, const char *name)
{
  char *dst = g_build_filename(dir, name, NULL);
  char *sub = g_build_filename(dst, "traces", NULL);
  cr_assert_eq(g_mkdir_with_parents(sub, 0755), 0);
  const char *top[] = { "traces.otf2", "traces.def" };
  for (int i = 0; i < 2; i++) {
    char *from = g_build_filename(src, top[i], NULL), *to = g_build_filename(dst, top[i], NULL);
    copy_file(from, to);
    g_free(from);
    g_free(to);
  }
  char *from_sub = g_build_filename(src, "traces", NULL);
  GDir *d = g_dir_open(from_sub, 0, NULL);
  const char *n;
  while ((n = g_dir_read_name(d))) {
    char *from = g_build_filename(from_sub, n, NULL), *to = g_build_filename(sub, n, NULL);
    copy_file(from, to);
    g_free(from);
    g_free(to);
  }
  g_dir_close(d);
  g_free(from_sub);
  g_free(sub);
  return dst;
}

/* Overwrites `n` bytes at `offset` of the archive's file `rel`. */
G_GNUC_UNUSED static void patch(const char *archive, const char *rel, size_t offset,
                                 const void *bytes, size_t n)
{
  char *path = g_build_filename(archive, rel, NULL);
  char *data = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(path, &data, &len, NULL));
  cr_assert_leq(offset + n, len);
  memcpy(data + offset, bytes, n);
  cr_assert(g_file_set_contents(path, data, (gssize)len, NULL));
  g_free(data);
  g_free(path);
}
