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
