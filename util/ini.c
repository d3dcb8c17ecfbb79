/* ini.c - the line-aware INI reading of study files and jobs files (see
 * ini.h): the line of every group and key, problems collected with their
 * lines and reported together, lists, labels, groups named by list
 * entries, sweeps.
 */
#include <stdarg.h>
#include <string.h>

#include "util/ini.h"
#include "util/suggest.h"
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

/* Where a comment starts in `l` (a stripped line): a '#' at the start or
 * after a blank; NULL when none. */
static char *comment_start(char *l)
{
  for (char *c = l; *c; c++)
    if (*c == '#' && (c == l || c[-1] == ' ' || c[-1] == '\t'))
      return c;
  return NULL;
}

/* Records the line of every group and key; adds a problem for each line
 * that is none of blank, comment, [group] or key = value. Returns the text
 * GKeyFile reads: the same lines, comments blanked (GKeyFile knows only
 * whole-line '#' comments). */
static char *scan_lines(ini_file *L, const char *text, const char *first)
{
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  GString *clean = g_string_new(NULL);
  g_autofree char *group = NULL;
  for (int i = 0; lines[i]; i++) {
    char *l = g_strstrip(lines[i]);
    int no = i + 1;
    char *hash = *l == ';' ? l : comment_start(l);
    if (hash) {
      *hash = '\0';
      g_strchomp(l);
    }
    if (i)
      g_string_append_c(clean, '\n');
    if (!*l)
      continue;
    if (*l == '[') {
      char *end = strrchr(l, ']');
      if (!end || end[1]) {
        ini_problem(L, no, "'%s' is not a group header, expected [NAME]", l);
        continue;
      }
      g_free(group);
      group = g_strndup(l + 1, (gsize)(end - l - 1));
      int prior = ini_line(L, group, NULL);
      if (prior)
        ini_problem(L, no, "group [%s] again (first on line %d), expected each group once",
                    group, prior);
      else
        g_hash_table_insert(L->lines, g_strdup(group), GINT_TO_POINTER(no));
      g_string_append(clean, l);
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
    int prior = ini_line(L, group, key);
    if (prior)
      ini_problem(L, no, "[%s] %s given again (first on line %d), expected each key once",
                  group, key, prior);
    else
      g_hash_table_insert(L->lines, g_strconcat(group, "\n", key, NULL), GINT_TO_POINTER(no));
    g_string_append(clean, l);
  }
  return g_string_free(clean, FALSE);
}

char *ini_resolve(const ini_file *L, const char *path)
{
  return g_canonicalize_filename(path, L->base);
}

/* TRUE when `item` holds ", " outside braces (a sweep {a, b} may). */
static gboolean comma_listed(const char *item)
{
  int depth = 0;
  for (const char *c = item; *c; c++) {
    depth += (*c == '{') - (*c == '}');
    if (depth == 0 && c[0] == ',' && c[1] == ' ')
      return TRUE;
  }
  return FALSE;
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
    if (!*item)
      continue;
    g_autofree char *path = comma_listed(item) ? ini_resolve(L, item) : NULL;
    if (path && !g_file_test(path, G_FILE_TEST_EXISTS)) {
      /* people write lists with commas: say how they are written here, and
       * read the entries meant, so that their own problems show too */
      g_auto(GStrv) parts = g_strsplit(item, ", ", -1);
      g_autofree char *fixed = g_strjoinv("; ", parts);
      ini_problem(L, ini_line(L, group, key), "[%s] %s: '%s' holds ', ', expected entries "
                  "separated by ';' (lists use ';': %s)", group, key, item, fixed);
      for (int k = 0; parts[k]; k++)
        if (*g_strstrip(parts[k]))
          g_ptr_array_add(out, g_strdup(parts[k]));
      continue;
    }
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
  if (!v)
    return NULL;
  /* one value, so ';' is free to start a comment, as '#' is everywhere */
  for (char *c = v; *c; c++)
    if (*c == ';' && (c == v || c[-1] == ' ' || c[-1] == '\t')) {
      *c = '\0';
      break;
    }
  g_strstrip(v);
  if (!*v) {
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
    suggestion sg;
    suggestion_init(&sg, keys[i]);
    for (int k = 0; known[k]; k++)
      suggestion_add(&sg, known[k]);
    const char *near = suggestion_best(&sg);
    g_autofree char *hint = near ? g_strdup_printf(" (did you mean %s?)", near) : g_strdup("");
    g_autofree char *list = g_strjoinv(", ", (char **)known);
    ini_problem(L, ini_line(L, group, keys[i]), "[%s] unknown key '%s'%s, expected one of: %s",
                group, keys[i], hint, list);
  }
}

gboolean ini_known_group(ini_file *L, const char *group, const char *const *known,
                         const char *expected)
{
  for (int k = 0; known[k]; k++) {
    gsize n = strlen(known[k]);
    if (known[k][n - 1] == ' ' ? g_str_has_prefix(group, known[k]) && group[n]
                               : strcmp(group, known[k]) == 0)
      return TRUE;
  }
  /* a prefix ("platform ") is a candidate for the group's first word when
   * a label follows it, a whole name when none does */
  const char *space = strchr(group, ' ');
  g_autofree char *word = space ? g_strndup(group, (gsize)(space - group)) : g_strdup(group);
  GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
  suggestion sg;
  suggestion_init(&sg, word);
  for (int k = 0; known[k]; k++) {
    gsize n = strlen(known[k]);
    gboolean prefix = known[k][n - 1] == ' ';
    if (prefix != (space != NULL))
      continue;
    g_ptr_array_add(words, g_strndup(known[k], prefix ? n - 1 : n));
    suggestion_add(&sg, g_ptr_array_index(words, words->len - 1));
  }
  const char *near = suggestion_best(&sg);
  g_autofree char *hint = near ? g_strdup_printf(" (did you mean [%s%s]?)", near,
                                                 space ? space : "") : g_strdup("");
  ini_problem(L, ini_line(L, group, NULL), "unknown group [%s]%s, expected %s", group, hint,
              expected);
  g_ptr_array_unref(words);
  return FALSE;
}

void ini_check_distinct(ini_file *L, const char *group, const char *key, char *const *items,
                        const gint64 *ids, int n)
{
  /* id (or text) -> index + 1 of its first entry; linear in the entries */
  GHashTable *first = ids ? g_hash_table_new(g_int64_hash, g_int64_equal)
                          : g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < n; i++) {
    gconstpointer k = ids ? (gconstpointer)&ids[i] : (gconstpointer)items[i];
    int j = GPOINTER_TO_INT(g_hash_table_lookup(first, k)) - 1;
    if (j >= 0)
      ini_problem(L, ini_line(L, group, key), "[%s] %s: '%s' (entry %d) repeats '%s' (entry "
                  "%d), expected each once", group, key, items[i], i + 1, items[j], j + 1);
    else
      g_hash_table_insert(first, (gpointer)k, GINT_TO_POINTER(i + 1));
  }
  g_hash_table_unref(first);
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

int64_t ini_list_count(const ini_file *L, const char *group, const char *key)
{
  g_autofree char *v = g_key_file_get_value(L->kf, group, key, NULL);
  if (!v)
    return 0;
  g_auto(GStrv) raw = g_strsplit(v, ";", -1);
  int64_t n = 0;
  for (int i = 0; raw[i]; i++) {
    const char *texts[] = { g_strstrip(raw[i]) };
    int k = 1; /* a malformed sweep is one entry: its expansion says what is wrong */
    if (*texts[0] && !sweep_count(texts, 1, &k, NULL))
      k = 1;
    n += *texts[0] ? k : 0;
  }
  return n;
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
  g_autofree char *clean = scan_lines(L, text, first);
  GError *e = NULL;
  if (L->problems->len == 0 &&
      !g_key_file_load_from_data(L->kf, clean, (gsize)-1, G_KEY_FILE_NONE, &e)) {
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
