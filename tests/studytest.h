/* studytest.h - what the tests of `mapsim study` share: results.csv
 * without its wall-clock column, the records stored in an output folder's
 * cell logs. */
#pragma once

#include "testutil.h"

/* Splits one CSV line into cells (quotes honoured). */
G_GNUC_UNUSED static GPtrArray *csv_split(const char *line)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
  GString *cur = g_string_new(NULL);
  gboolean quoted = FALSE;
  for (const char *c = line;; c++) {
    if (quoted) {
      if (*c == '"' && c[1] == '"') {
        g_string_append_c(cur, '"');
        c++;
      } else if (*c == '"') {
        quoted = FALSE;
      } else if (*c) {
        g_string_append_c(cur, *c);
      } else {
        break;
      }
      continue;
    }
    if (*c == '"') {
      quoted = TRUE;
    } else if (*c == ',' || !*c) {
      g_ptr_array_add(cells, g_strdup(cur->str));
      g_string_truncate(cur, 0);
      if (!*c)
        break;
    } else {
      g_string_append_c(cur, *c);
    }
  }
  g_string_free(cur, TRUE);
  return cells;
}

/* The CSV without the column `drop` (a wall-clock time). */
G_GNUC_UNUSED static char *csv_without(const char *csv, const char *drop)
{
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  GPtrArray *head = csv_split(lines[0]);
  int col = -1;
  for (guint i = 0; i < head->len; i++)
    if (strcmp(g_ptr_array_index(head, i), drop) == 0)
      col = (int)i;
  cr_assert_geq(col, 0, "no column %s", drop);
  g_ptr_array_free(head, TRUE);
  GString *out = g_string_new(NULL);
  for (int l = 0; lines[l] && *lines[l]; l++) {
    GPtrArray *cells = csv_split(lines[l]);
    for (guint i = 0; i < cells->len; i++)
      if ((int)i != col)
        g_string_append_printf(out, "%s|", (char *)g_ptr_array_index(cells, i));
    g_string_append_c(out, '\n');
    g_ptr_array_free(cells, TRUE);
  }
  return g_string_free(out, FALSE);
}

/* Cell records in the logs of DIR/cells (whole lines); the path of the
 * last log into *log when given. */
G_GNUC_UNUSED static int count_cells(const char *dir, char **log)
{
  g_autofree char *cells = g_build_filename(dir, "cells", NULL);
  GDir *d = g_dir_open(cells, 0, NULL);
  int n = 0;
  const char *name;
  while (d && (name = g_dir_read_name(d))) {
    if (!g_str_has_suffix(name, ".jsonl"))
      continue;
    g_autofree char *path = g_build_filename(cells, name, NULL);
    g_autofree char *text = NULL;
    if (g_file_get_contents(path, &text, NULL, NULL))
      n += tu_lines(text);
    if (log) {
      g_free(*log);
      *log = g_strdup(path);
    }
  }
  if (d)
    g_dir_close(d);
  return n;
}

/* Starts `argv` with its output dropped; the caller reaps it. */
G_GNUC_UNUSED static GPid spawn_quiet(const char *const *argv)
{
  GPid pid;
  GError *e = NULL;
  cr_assert(g_spawn_async(NULL, (char **)argv, NULL,
                          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                          G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &e),
            "%s", e ? e->message : "");
  return pid;
}

/* Starts `argv` (a study writing to argv[4]) with its output dropped and
 * returns once it has stored `cells` cells (or after a minute). */
G_GNUC_UNUSED static GPid study_start(const char *const *argv, int cells)
{
  GPid pid = spawn_quiet(argv);
  for (int i = 0; i < 60000 && count_cells(argv[4], NULL) < cells; i++)
    g_usleep(1000);
  return pid;
}
