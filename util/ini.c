/* ini.c - the line-aware INI reading of study files and jobs files (see
 * ini.h): the line of every group and key, problems collected with their
 * lines and reported together, lists, labels, groups named by list
 * entries, sweeps.
 */
#include <stdarg.h>
#include <string.h>

#include "util/ini.h"
#include "util/sweep.h"

typedef struct problem {
  int line;
  char *text;
} problem;

static void problem_clear(gpointer p)
{
  g_free(((problem *)p)->text);
}

void ini_problem(ini_file *L, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  problem p = { line, g_strdup_vprintf(fmt, ap) };
  va_end(ap);
  g_array_append_val(L->problems, p);
}

int ini_line(const ini_file *L, const char *group, const char *key)
{
  g_autofree char *k = key ? g_strconcat(group, "\n", key, NULL) : g_strdup(group);
  return GPOINTER_TO_INT(g_hash_table_lookup(L->lines, k));
}

/* Records the line of every group and key; adds a problem for each line
 * that is none of blank, comment, [group] or key = value. */
static void scan_lines(ini_file *L, const char *text, const char *first)
{
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  g_autofree char *group = NULL;
  for (int i = 0; lines[i]; i++) {
    char *l = g_strstrip(lines[i]);
    int no = i + 1;
    if (!*l || *l == '#')
      continue;
    if (*l == '[') {
      char *end = strrchr(l, ']');
      if (!end || end[1]) {
        ini_problem(L, no, "'%s' is not a group header, expected [NAME]", l);
        continue;
      }
      g_free(group);
      group = g_strndup(l + 1, (gsize)(end - l - 1));
      if (!g_hash_table_contains(L->lines, group))
        g_hash_table_insert(L->lines, g_strdup(group), GINT_TO_POINTER(no));
      continue;
    }
    char *eq = strchr(l, '=');
    if (!eq) {
      ini_problem(L, no, "'%s' is not a key = value line, a [group] or a # comment", l);
      continue;
    }
    if (!group) {
      ini_problem(L, no, "'%s' comes before any group, expected [%s] first", l, first);
      continue;
    }
    g_autofree char *key = g_strstrip(g_strndup(l, (gsize)(eq - l)));
    char *k = g_strconcat(group, "\n", key, NULL);
    if (g_hash_table_contains(L->lines, k)) {
      ini_problem(L, no, "[%s] %s given twice, expected it once", group, key);
      g_free(k);
    } else {
      g_hash_table_insert(L->lines, k, GINT_TO_POINTER(no));
    }
  }
}

char *ini_resolve(const ini_file *L, const char *path)
{
  return g_canonicalize_filename(path, L->base);
}

char **ini_list(ini_file *L, const char *group, const char *key)
{
  g_autofree char *v = g_key_file_get_value(L->kf, group, key, NULL);
  if (!v)
    return NULL;
  g_auto(GStrv) raw = g_strsplit(v, ";", -1);
  GPtrArray *out = g_ptr_array_new();
  for (int i = 0; raw[i]; i++) {
    char *item = g_strstrip(raw[i]);
    if (*item)
      g_ptr_array_add(out, g_strdup(item));
  }
  if (out->len == 0)
    ini_problem(L, ini_line(L, group, key), "[%s] %s is empty, expected a list like a; b",
                group, key);
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

char *ini_string(ini_file *L, const char *group, const char *key)
{
  char *v = g_key_file_get_value(L->kf, group, key, NULL);
  if (v)
    g_strstrip(v);
  if (v && !*v) {
    ini_problem(L, ini_line(L, group, key), "[%s] %s is empty, expected a value", group, key);
    g_clear_pointer(&v, g_free);
  }
  return v;
}

void ini_check_keys(ini_file *L, const char *group, const char *const *known)
{
  g_auto(GStrv) keys = g_key_file_get_keys(L->kf, group, NULL, NULL);
  for (int i = 0; keys && keys[i]; i++) {
    if (g_strv_contains(known, keys[i]))
      continue;
    g_autofree char *list = g_strjoinv(", ", (char **)known);
    ini_problem(L, ini_line(L, group, keys[i]), "[%s] unknown key '%s', expected one of: %s",
                group, keys[i], list);
  }
}

char *ini_path_label(const char *path)
{
  g_autofree char *p = g_strdup(path);
  gsize len = strlen(p);
  while (len > 1 && p[len - 1] == '/')
    p[--len] = '\0';
  if (g_str_has_suffix(p, ".otf2")) {
    g_autofree char *dir = g_path_get_dirname(p);
    return g_path_get_basename(dir);
  }
  char *base = g_path_get_basename(p);
  char *dot = strrchr(base, '.');
  if (dot && dot != base)
    *dot = '\0';
  return base;
}

gboolean ini_listed_group(ini_file *L, const char *prefix, const char *item, int line,
                          GFileTest file, const char *also, GHashTable *listed, char **group)
{
  *group = NULL;
  if (strchr(item, '/'))
    return FALSE;
  g_autofree char *g = g_strconcat(prefix, item, NULL);
  if (!g_key_file_has_group(L->kf, g))
    return FALSE;
  g_autofree char *path = file ? ini_resolve(L, item) : NULL;
  g_autofree char *other = path && g_file_test(path, file) ? g_strdup_printf("the file %s", path)
                                                           : g_strdup(also);
  g_autofree char *what = g_strndup(prefix, strlen(prefix) - 1);
  if (other) {
    /* the group is still read, in its place among the groups */
    g_autofree char *as_path = path ? g_strdup_printf(" or write the entry as ./%s", item)
                                    : NULL;
    ini_problem(L, line, "%s '%s' names both the group [%s] (line %d) and %s, expected one "
                "of them: rename the group%s", what, item, g, ini_line(L, g, NULL), other,
                as_path ? as_path : "");
    return TRUE;
  }
  if (g_hash_table_contains(listed, g))
    ini_problem(L, line, "%s '%s' is listed twice, expected each label once", what, item);
  else
    *group = g_strdup(g);
  g_hash_table_add(listed, g_steal_pointer(&g));
  return TRUE;
}

char **ini_list_expanded(ini_file *L, const char *group, const char *key)
{
  g_auto(GStrv) items = ini_list(L, group, key);
  if (!items)
    return NULL;
  GPtrArray *out = g_ptr_array_new();
  for (int i = 0; items[i]; i++) {
    GError *e = NULL;
    const char *texts[] = { items[i] };
    GPtrArray *combos = sweep_product(texts, 1, &e);
    if (!combos) {
      ini_problem(L, ini_line(L, group, key), "[%s] %s: %s", group, key, e->message);
      g_error_free(e);
      continue;
    }
    for (guint c = 0; c < combos->len; c++)
      g_ptr_array_add(out, g_strdup(((sweep_combo *)combos->pdata[c])->texts[0]));
    g_ptr_array_unref(combos);
  }
  g_ptr_array_add(out, NULL);
  return (char **)g_ptr_array_free(out, FALSE);
}

static gint by_line(gconstpointer a, gconstpointer b)
{
  const problem *x = a, *y = b;
  return (x->line > y->line) - (x->line < y->line);
}

void ini_open(ini_file *L, const char *path, const char *base, const char *text,
              const char *first)
{
  *L = (ini_file){ .path = path, .base = base };
  L->kf = g_key_file_new();
  L->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  L->problems = g_array_new(FALSE, FALSE, sizeof(problem));
  g_array_set_clear_func(L->problems, problem_clear);
  scan_lines(L, text, first);
  GError *e = NULL;
  if (L->problems->len == 0 && !g_key_file_load_from_data(L->kf, text, (gsize)-1, G_KEY_FILE_NONE, &e)) {
    ini_problem(L, 1, "%s", e->message);
    g_clear_error(&e);
  }
}

gboolean ini_close(ini_file *L, GQuark domain, int code, GError **error)
{
  gboolean ok = L->problems->len == 0;
  if (!ok) {
    g_array_sort(L->problems, by_line);
    GString *m = g_string_new(NULL);
    for (guint i = 0; i < L->problems->len; i++) {
      const problem *p = &g_array_index(L->problems, problem, i);
      g_string_append_printf(m, "%s%s:%d: %s", i ? "\n" : "", L->path, MAX(p->line, 1), p->text);
    }
    g_set_error_literal(error, domain, code, m->str);
    g_string_free(m, TRUE);
  }
  g_array_free(L->problems, TRUE);
  g_hash_table_destroy(L->lines);
  g_key_file_free(L->kf);
  return ok;
}
