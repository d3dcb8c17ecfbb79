/* output.c - the files a study writes: result rows as CSV and JSON
 * (study_write_rows: the cells' results.*, the mixes' jobs.*) and every
 * file written whole and atomically (study_write_file, util/output.h).
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "study/study-private.h"
#include "util/output.h"

gboolean study_write_file(const char *path, const char *data, gsize len, GError **error)
{
  return output_write_all(path, data, len, NULL, error);
}

gboolean study_write_rows(const study *s, const result_row *const *rows, int n, const char *dir,
                          const char *stem, const char *member, GError **error)
{
  g_autofree char *csv = rows_csv(rows, n);
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "study");
  json_builder_add_string_value(b, s->name);
  json_builder_set_member_name(b, member);
  rows_json(b, rows, n);
  json_builder_end_object(b);
  JsonNode *root = json_builder_get_root(b);
  g_object_unref(b);
  g_autofree char *json = json_text(root, TRUE);
  json_node_unref(root);
  g_autofree char *csv_name = g_strconcat(stem, ".csv", NULL);
  g_autofree char *json_name = g_strconcat(stem, ".json", NULL);
  g_autofree char *csv_path = g_build_filename(dir, csv_name, NULL);
  g_autofree char *json_path = g_build_filename(dir, json_name, NULL);
  g_autofree char *json_nl = g_strconcat(json, "\n", NULL);
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", dir,
                g_strerror(errno));
    return FALSE;
  }
  return study_write_file(csv_path, csv, strlen(csv), error) &&
         study_write_file(json_path, json_nl, strlen(json_nl), error);
}

/* ---- the manifest of a study folder ----
 * DIR/manifest.txt lists, one relative path a line, the files the last
 * run published in DIR outside cells/ (results, jobs, correlations,
 * figures, the report). A rerun removes what that list has and it did not
 * write again (the figures of a dropped platform, the report of a run
 * with --no-report, another study's files in the same folder), and every
 * file in DIR/figures/ it did not write (folders of an older mapsim have
 * no manifest). Removed first, listed after: a run killed in between
 * leaves a list of files that are gone, which the next run skips. */

#define MANIFEST "manifest.txt"

struct study_outputs {
  char *dir;
  GMutex lock;
  GHashTable *written; /* relative paths published by this run */
};

static void on_published(const char *path, void *user)
{
  study_outputs *o = user;
  size_t n = strlen(o->dir);
  if (strncmp(path, o->dir, n) || path[n] != '/')
    return;
  const char *rel = path + n + 1;
  if (g_str_has_prefix(rel, "cells/") || !strcmp(rel, MANIFEST))
    return;
  g_mutex_lock(&o->lock);
  g_hash_table_add(o->written, g_strdup(rel));
  g_mutex_unlock(&o->lock);
}

study_outputs *study_outputs_begin(const char *dir)
{
  study_outputs *o = g_new0(study_outputs, 1);
  o->dir = g_strdup(dir);
  for (size_t n = strlen(o->dir); n > 1 && o->dir[n - 1] == '/'; n--)
    o->dir[n - 1] = '\0'; /* "S/": the paths built from it read "S/figures" */
  g_mutex_init(&o->lock);
  o->written = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  output_set_publish_hook(on_published, o);
  return o;
}

/* A manifest line mapsim may remove: relative, no "..", not the cells. */
static gboolean removable(const char *rel)
{
  if (!*rel || g_path_is_absolute(rel) || g_str_has_prefix(rel, "cells/") ||
      !strcmp(rel, MANIFEST) || !strcmp(rel, "study.lock"))
    return FALSE;
  g_auto(GStrv) parts = g_strsplit(rel, "/", -1);
  for (int i = 0; parts[i]; i++)
    if (!strcmp(parts[i], "..") || !strcmp(parts[i], "."))
      return FALSE;
  return TRUE;
}

/* The paths of DIR's manifest (none when it is absent or unreadable). */
static GPtrArray *old_manifest(const char *dir)
{
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  g_autofree char *path = g_build_filename(dir, MANIFEST, NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL))
    return a;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  for (int i = 0; lines[i]; i++)
    if (lines[i][0] != '#' && removable(lines[i]))
      g_ptr_array_add(a, g_strdup(lines[i]));
  return a;
}

static void remove_rel(const char *dir, const char *rel)
{
  g_autofree char *path = g_build_filename(dir, rel, NULL);
  if (g_file_test(path, G_FILE_TEST_IS_REGULAR) || g_file_test(path, G_FILE_TEST_IS_SYMLINK))
    g_unlink(path);
}

static int by_text(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

gboolean study_outputs_end(study_outputs *o, gboolean complete, GError **error)
{
  output_set_publish_hook(NULL, NULL);
  GPtrArray *old = old_manifest(o->dir);
  GPtrArray *keep = g_ptr_array_new(); /* listed in the new manifest */
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init(&it, o->written);
  while (g_hash_table_iter_next(&it, &key, NULL))
    g_ptr_array_add(keep, key);
  if (complete) {
    for (guint i = 0; i < old->len; i++)
      if (!g_hash_table_contains(o->written, g_ptr_array_index(old, i)))
        remove_rel(o->dir, g_ptr_array_index(old, i));
    g_autofree char *figdir = g_build_filename(o->dir, "figures", NULL);
    GDir *d = g_dir_open(figdir, 0, NULL);
    for (const char *name; d && (name = g_dir_read_name(d));) {
      g_autofree char *rel = g_build_filename("figures", name, NULL);
      if (!g_hash_table_contains(o->written, rel))
        remove_rel(o->dir, rel);
    }
    if (d)
      g_dir_close(d);
  } else {
    /* the report failed (or was not reached): no old index beside the
     * new results; the rest stays listed for the next run */
    if (!g_hash_table_contains(o->written, "index.html"))
      remove_rel(o->dir, "index.html");
    for (guint i = 0; i < old->len; i++) {
      const char *rel = g_ptr_array_index(old, i);
      if (!g_hash_table_contains(o->written, rel) && strcmp(rel, "index.html"))
        g_ptr_array_add(keep, (char *)rel);
    }
  }
  g_ptr_array_sort(keep, by_text);
  GString *text = g_string_new("# mapsim study: the files its last run wrote here; a rerun "
                               "removes those it no longer writes\n");
  for (guint i = 0; i < keep->len; i++)
    g_string_append_printf(text, "%s\n", (const char *)g_ptr_array_index(keep, i));
  g_autofree char *path = g_build_filename(o->dir, MANIFEST, NULL);
  gboolean ok = g_file_test(o->dir, G_FILE_TEST_IS_DIR)
                  ? output_write_all(path, text->str, text->len, NULL, error)
                  : TRUE;
  g_string_free(text, TRUE);
  g_ptr_array_free(keep, TRUE);
  g_ptr_array_free(old, TRUE);
  g_hash_table_destroy(o->written);
  g_mutex_clear(&o->lock);
  g_free(o->dir);
  g_free(o);
  return ok;
}
