/* row.c - named result values as JSON and CSV (see row.h). */
#include "sim/row.h"

#include <math.h>
#include <string.h>

#include "util/json-number.h"
#include "util/utf8.h"

typedef struct row_col {
  char *group;     /* NULL: top level */
  char *name;
  char *csv_name;  /* group_name or name */
  JsonNode *value;
  char *text;      /* CSV text */
} row_col;

struct result_row {
  GPtrArray *cols; /* row_col */
  char *group;
};

static void col_free(gpointer data)
{
  row_col *c = data;
  g_free(c->group);
  g_free(c->name);
  g_free(c->csv_name);
  if (c->value)
    json_node_unref(c->value);
  g_free(c->text);
  g_free(c);
}

result_row *row_new(void)
{
  result_row *r = g_new0(result_row, 1);
  r->cols = g_ptr_array_new_with_free_func(col_free);
  return r;
}

void row_free(result_row *r)
{
  if (!r)
    return;
  g_ptr_array_free(r->cols, TRUE);
  g_free(r->group);
  g_free(r);
}

void row_group(result_row *r, const char *group)
{
  g_free(r->group);
  r->group = g_strdup(group);
}

/* Takes `value` and `text`. */
static void add_col(result_row *r, const char *group, const char *name, JsonNode *value, char *text)
{
  row_col *c = g_new0(row_col, 1);
  c->group = g_strdup(group);
  c->name = g_strdup(name);
  c->csv_name = group ? g_strconcat(group, "_", name, NULL) : g_strdup(name);
  c->value = value;
  c->text = text;
  g_ptr_array_add(r->cols, c);
}

/* A string value as a JSON node and its CSV text (names that are not
 * UTF-8 escaped: the row goes into JSON and CSV). */
static JsonNode *string_node(const char *v, char **text)
{
  char *u = utf8_escape(v);
  *text = g_strdup(u ? u : "");
  JsonNode *n = json_node_alloc();
  if (!u)
    return json_node_init_null(n);
  json_node_init_string(n, u);
  g_free(u);
  return n;
}

void row_add_string(result_row *r, const char *name, const char *v)
{
  char *text;
  JsonNode *n = string_node(v, &text);
  add_col(r, r->group, name, n, text);
}

gboolean row_set_string(result_row *r, const char *name, const char *v)
{
  int i = row_find(r, name);
  if (i < 0)
    return FALSE;
  row_col *c = g_ptr_array_index(r->cols, i);
  json_node_unref(c->value);
  g_free(c->text);
  c->value = string_node(v, &c->text);
  return TRUE;
}

result_row *row_copy(const result_row *r)
{
  result_row *copy = row_new();
  for (guint i = 0; i < r->cols->len; i++) {
    const row_col *c = g_ptr_array_index(r->cols, i);
    add_col(copy, c->group, c->name, json_node_copy(c->value), g_strdup(c->text));
  }
  return copy;
}

void row_add_int(result_row *r, const char *name, int64_t v)
{
  add_col(r, r->group, name, json_node_init_int(json_node_alloc(), v),
          g_strdup_printf("%" G_GINT64_FORMAT, v));
}

void row_add_double(result_row *r, const char *name, double v)
{
  /* an undefined value is null in JSON and empty in CSV, never "nan" */
  if (!isfinite(v)) {
    add_col(r, r->group, name, json_node_init_null(json_node_alloc()), g_strdup(""));
    return;
  }
  GString *t = g_string_new(NULL);
  text_double(t, v);
  add_col(r, r->group, name, json_number_node(v), g_string_free(t, FALSE));
}

void row_add_bool(result_row *r, const char *name, gboolean v)
{
  add_col(r, r->group, name, json_node_init_boolean(json_node_alloc(), v),
          g_strdup(v ? "true" : "false"));
}

void row_add_fields(result_row *r, const field *f, int n, const void *obj, unsigned view)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < n; i++) {
    if (!field_in_view(&f[i], view))
      continue;
    g_string_truncate(s, 0);
    field_csv_text(s, &f[i], obj);
    add_col(r, r->group, f[i].name, field_json_node(&f[i], obj), g_strdup(s->str));
  }
  g_string_free(s, TRUE);
}

int row_ncols(const result_row *r)
{
  return (int)r->cols->len;
}

static const row_col *col_at(const result_row *r, int i)
{
  return g_ptr_array_index(r->cols, i);
}

static const char *row_csv_name(const result_row *r, int i)
{
  return col_at(r, i)->csv_name;
}

const char *row_csv_text(const result_row *r, int i)
{
  return col_at(r, i)->text;
}

const char *row_col_group(const result_row *r, int i)
{
  return col_at(r, i)->group;
}

const char *row_col_name(const result_row *r, int i)
{
  return col_at(r, i)->name;
}

JsonNode *row_col_value(const result_row *r, int i)
{
  return col_at(r, i)->value;
}

int row_find(const result_row *r, const char *name)
{
  for (guint i = 0; i < r->cols->len; i++)
    if (strcmp(col_at(r, (int)i)->csv_name, name) == 0)
      return (int)i;
  return -1;
}

gboolean row_get_number(const result_row *r, const char *name, double *out)
{
  int i = row_find(r, name);
  if (i < 0 || JSON_NODE_TYPE(col_at(r, i)->value) != JSON_NODE_VALUE)
    return FALSE;
  JsonNode *v = col_at(r, i)->value;
  GType t = json_node_get_value_type(v);
  if (t == G_TYPE_INT64)
    *out = (double)json_node_get_int(v);
  else if (t == G_TYPE_DOUBLE)
    *out = json_node_get_double(v);
  else if (t == G_TYPE_BOOLEAN)
    *out = json_node_get_boolean(v);
  else
    return FALSE;
  return TRUE;
}

const char *row_get_string(const result_row *r, const char *name)
{
  int i = row_find(r, name);
  if (i < 0 || JSON_NODE_HOLDS_NULL(col_at(r, i)->value) ||
      json_node_get_value_type(col_at(r, i)->value) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string(col_at(r, i)->value);
}

/* Adds the columns as members of the object being built (groups as nested
 * objects). */
static void row_json(const result_row *r, JsonBuilder *b)
{
  const char *open = NULL;
  for (guint i = 0; i < r->cols->len; i++) {
    const row_col *c = col_at(r, (int)i);
    if (g_strcmp0(open, c->group) != 0) {
      if (open)
        json_builder_end_object(b);
      open = c->group;
      if (open) {
        json_builder_set_member_name(b, open);
        json_builder_begin_object(b);
      }
    }
    json_builder_set_member_name(b, c->name);
    json_builder_add_value(b, json_node_copy(c->value));
  }
  if (open)
    json_builder_end_object(b);
}

void rows_json(JsonBuilder *b, const result_row *const *rows, int n)
{
  json_builder_begin_array(b);
  for (int i = 0; i < n; i++) {
    json_builder_begin_object(b);
    row_json(rows[i], b);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

JsonNode *row_to_record(const result_row *r)
{
  JsonArray *a = json_array_sized_new(r->cols->len);
  for (guint i = 0; i < r->cols->len; i++) {
    const row_col *c = col_at(r, (int)i);
    JsonArray *e = json_array_sized_new(4);
    if (c->group)
      json_array_add_string_element(e, c->group);
    else
      json_array_add_null_element(e);
    json_array_add_string_element(e, c->name);
    json_array_add_element(e, json_node_copy(c->value));
    json_array_add_string_element(e, c->text);
    json_array_add_array_element(a, e);
  }
  JsonNode *n = json_node_alloc();
  json_node_init_array(n, a);
  json_array_unref(a);
  return n;
}

/* Is `text` the CSV text of `value` (row_add_*)? Numbers that are not
 * integers are not compared: picoseconds are exact decimals in CSV and
 * seconds in JSON. */
static gboolean value_matches_text(JsonNode *value, const char *text)
{
  if (JSON_NODE_HOLDS_NULL(value))
    return *text == '\0';
  if (!JSON_NODE_HOLDS_VALUE(value))
    return FALSE;
  GType t = json_node_get_value_type(value);
  if (t == G_TYPE_STRING)
    return strcmp(json_node_get_string(value), text) == 0;
  if (t == G_TYPE_BOOLEAN)
    return strcmp(json_node_get_boolean(value) ? "true" : "false", text) == 0;
  if (t == G_TYPE_INT64) {
    char n[32];
    g_snprintf(n, sizeof n, "%" G_GINT64_FORMAT, json_node_get_int(value));
    return strcmp(n, text) == 0;
  }
  return t == G_TYPE_DOUBLE;
}

/* Adds the column of record element `en` ([group, name, value, text]);
 * FALSE when it is malformed or a column of that name is there already. */
static gboolean add_record_col(result_row *r, GHashTable *seen, JsonNode *en)
{
  JsonArray *e = JSON_NODE_HOLDS_ARRAY(en) ? json_node_get_array(en) : NULL;
  if (!e || json_array_get_length(e) != 4)
    return FALSE;
  JsonNode *g = json_array_get_element(e, 0), *name = json_array_get_element(e, 1),
           *value = json_array_get_element(e, 2), *text = json_array_get_element(e, 3);
  if (json_node_get_value_type(name) != G_TYPE_STRING ||
      json_node_get_value_type(text) != G_TYPE_STRING ||
      !(JSON_NODE_HOLDS_NULL(g) || json_node_get_value_type(g) == G_TYPE_STRING))
    return FALSE;
  const char *group = JSON_NODE_HOLDS_NULL(g) ? NULL : json_node_get_string(g);
  if ((group && !*group) || !*json_node_get_string(name) ||
      !value_matches_text(value, json_node_get_string(text)))
    return FALSE;
  add_col(r, group, json_node_get_string(name), json_node_copy(value),
          g_strdup(json_node_get_string(text)));
  return g_hash_table_add(seen, (gpointer)row_csv_name(r, row_ncols(r) - 1));
}

result_row *row_from_record(JsonNode *node, GError **error)
{
  result_row *r = row_new();
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  gboolean ok = node && JSON_NODE_HOLDS_ARRAY(node);
  JsonArray *a = ok ? json_node_get_array(node) : NULL;
  for (guint i = 0; ok && i < json_array_get_length(a); i++)
    ok = add_record_col(r, seen, json_array_get_element(a, i));
  g_hash_table_destroy(seen);
  if (ok)
    return r;
  row_free(r);
  g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
              "malformed row record, expected [[group, name, value, text], ...] with each "
              "column once and its text the value's");
  return NULL;
}

/* Inserts the columns of `r` into the union `names` (order kept). */
static void union_add(GPtrArray *names, GHashTable *seen, const result_row *r)
{
  guint pos = 0;
  for (int i = 0; i < row_ncols(r); i++) {
    const char *n = row_csv_name(r, i);
    gpointer at;
    if (g_hash_table_lookup_extended(seen, n, NULL, &at)) {
      pos = GPOINTER_TO_UINT(at) + 1;
      continue;
    }
    g_ptr_array_insert(names, (gint)pos, (gpointer)n);
    for (guint k = pos; k < names->len; k++)
      g_hash_table_insert(seen, g_ptr_array_index(names, k), GUINT_TO_POINTER(k));
    pos++;
  }
}

char *rows_csv(const result_row *const *rows, int n)
{
  GPtrArray *names = g_ptr_array_new();
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < n; i++)
    union_add(names, seen, rows[i]);
  GString *s = g_string_new(NULL);
  for (guint k = 0; k < names->len; k++) {
    if (k)
      g_string_append_c(s, ',');
    csv_cell(s, g_ptr_array_index(names, k));
  }
  g_string_append_c(s, '\n');
  GHashTable *at = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < n; i++) {
    g_hash_table_remove_all(at);
    for (int c = 0; c < row_ncols(rows[i]); c++)
      g_hash_table_insert(at, (gpointer)row_csv_name(rows[i], c), GINT_TO_POINTER(c + 1));
    for (guint k = 0; k < names->len; k++) {
      if (k)
        g_string_append_c(s, ',');
      int c = GPOINTER_TO_INT(g_hash_table_lookup(at, g_ptr_array_index(names, k)));
      if (c)
        csv_cell(s, row_csv_text(rows[i], c - 1));
    }
    g_string_append_c(s, '\n');
  }
  g_hash_table_destroy(at);
  g_hash_table_destroy(seen);
  g_ptr_array_free(names, TRUE);
  return g_string_free(s, FALSE);
}

/* ---- formatting rules ---- */

/* Picoseconds as exact decimal seconds ("0.003000992876"). */
static void append_ps(GString *s, int64_t ps)
{
  uint64_t a = ps < 0 ? (uint64_t)0 - (uint64_t)ps : (uint64_t)ps;
  char frac[16];
  g_snprintf(frac, sizeof frac, "%012" G_GUINT64_FORMAT, a % G_GUINT64_CONSTANT(1000000000000));
  int n = 12;
  while (n > 1 && frac[n - 1] == '0')
    n--;
  frac[n] = '\0';
  g_string_append_printf(s, "%s%" G_GUINT64_FORMAT ".%s", ps < 0 ? "-" : "",
                         a / G_GUINT64_CONSTANT(1000000000000), frac);
}

void field_csv_text(GString *s, const field *f, const void *obj)
{
  if (f->type == FIELD_PS)
    append_ps(s, field_int(f, obj));
  else if (field_is_integer(f))
    g_string_append_printf(s, "%" G_GINT64_FORMAT, field_int(f, obj));
  else if (isfinite(field_double(f, obj)))
    text_double(s, field_double(f, obj));
}

void text_double(GString *s, double v)
{
  number_shortest_text(s, v);
}

JsonNode *field_json_node(const field *f, const void *obj)
{
  if (field_is_integer(f))
    return json_node_init_int(json_node_alloc(), field_int(f, obj));
  return json_number_node(field_double(f, obj));
}

void csv_cell(GString *s, const char *text)
{
  if (!strpbrk(text, ",\"\n\r")) {
    g_string_append(s, text);
    return;
  }
  g_string_append_c(s, '"');
  for (const char *c = text; *c; c++) {
    if (*c == '"')
      g_string_append_c(s, '"');
    g_string_append_c(s, *c);
  }
  g_string_append_c(s, '"');
}

/* json-glib 1.6 prints doubles with 17 digits (6.9999999999999999e-06)
 * and a double such as 3e-10 as "3e-10.0" (invalid JSON): every number
 * with a fraction or an exponent is written again as the shortest text
 * that reads back as the same double (text_double), keeping a '.' or an
 * exponent so that it still reads as a double. One pass, outside strings. */
static char *tidy_numbers(const char *text)
{
  GString *s = g_string_sized_new(strlen(text) + 64);
  gboolean in_str = FALSE;
  for (const char *c = text; *c; c++) {
    if (in_str) {
      g_string_append_c(s, *c);
      if (*c == '\\' && c[1])
        g_string_append_c(s, *++c);
      else if (*c == '"')
        in_str = FALSE;
      continue;
    }
    if (*c == '"') {
      in_str = TRUE;
      g_string_append_c(s, *c);
      continue;
    }
    if (*c != '-' && !g_ascii_isdigit(*c)) {
      g_string_append_c(s, *c);
      continue;
    }
    gsize n = strspn(c, "0123456789+-.eE");
    if (!memchr(c, '.', n) && !memchr(c, 'e', n) && !memchr(c, 'E', n)) {
      g_string_append_len(s, c, (gssize)n); /* an integer stays as it is */
    } else {
      g_autofree char *token = g_strndup(c, n);
      gsize start = s->len;
      text_double(s, g_ascii_strtod(token, NULL)); /* stops before json-glib's ".0" */
      if (!strpbrk(s->str + start, ".eEn"))
        g_string_append(s, ".0");
    }
    c += n - 1;
  }
  return g_string_free(s, FALSE);
}

char *json_text(JsonNode *root, gboolean pretty)
{
  JsonGenerator *gen = json_generator_new();
  json_generator_set_pretty(gen, pretty);
  json_generator_set_root(gen, root);
  g_autofree char *text = json_generator_to_data(gen, NULL);
  g_object_unref(gen);
  return tidy_numbers(text);
}
