/* row.h - one result as named values, printed as JSON and as CSV with the
 * same names.
 *
 * A row is an ordered list of columns. A column has a name, an optional
 * group (in JSON a nested object "pre": {...}, in CSV the column
 * "pre_NAME"), its JSON value and its CSV text. Values come one by one or
 * from field tables (mapping/metrics.h `field`), and every output that
 * prints a field table - `metrics`, `simulate`, `compare` and study results
 * - formats it by the rules here: integers exactly, picoseconds as exact
 * decimal seconds in CSV and as seconds in JSON, other numbers with 17
 * significant digits, an undefined number (NaN, infinite) as JSON null and
 * an empty CSV cell, CSV cells quoted only when they must be.
 *
 * A row survives a round trip through row_to_record()/row_from_record()
 * unchanged (study cell records), so results written from stored rows are
 * byte for byte those of a fresh run.
 *
 * Ownership: a row owns its columns; free it with row_free(). Values given
 * to row_add_*() are copied. Not for: parsing CSV.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "mapping/metrics.h"

G_BEGIN_DECLS

typedef struct result_row result_row;

result_row *row_new(void);
void row_free(result_row *r);

/* Columns added after this call belong to `group` (NULL: the top level).
 * A group's columns must be added together. */
void row_group(result_row *r, const char *group);

/* NULL: JSON null, empty CSV; bytes that are not UTF-8 are shown escaped
 * (util/utf8.h). */
void row_add_string(result_row *r, const char *name, const char *v);
void row_add_int(result_row *r, const char *name, int64_t v);
void row_add_double(result_row *r, const char *name, double v);
void row_add_bool(result_row *r, const char *name, gboolean v);
/* Every field of `obj` in table order that belongs to `view` (0: all). */
void row_add_fields(result_row *r, const field *f, int n, const void *obj, unsigned view);

/* Replaces the value of the string column `name` (as row_add_string);
 * FALSE when there is none. */
gboolean row_set_string(result_row *r, const char *name, const char *v);

/* A copy of every column. */
result_row *row_copy(const result_row *r);

/* Number of columns; the CSV text of column i. */
int row_ncols(const result_row *r);
const char *row_csv_text(const result_row *r, int i);
/* The group (NULL: top level) and the name within it of column i. */
const char *row_col_group(const result_row *r, int i);
const char *row_col_name(const result_row *r, int i);
/* The JSON value of column i (the row's; null for an undefined number). */
JsonNode *row_col_value(const result_row *r, int i);

/* The column whose CSV name is `name`, or -1. */
int row_find(const result_row *r, const char *name);
/* A number column as a double (integers and booleans too); FALSE when the
 * column is missing or not a number. */
gboolean row_get_number(const result_row *r, const char *name, double *out);
/* A string column, or NULL when missing or null. */
const char *row_get_string(const result_row *r, const char *name);

/* An array of one object per row (its columns as members, groups as
 * nested objects) as the value being built. */
void rows_json(JsonBuilder *b, const result_row *const *rows, int n);

/* A lossless JSON form of the row and back (NULL + error on a malformed
 * record: not [[group, name, value, text], ...], a column twice, or a
 * text that is not its value's). */
JsonNode *row_to_record(const result_row *r);
result_row *row_from_record(JsonNode *node, GError **error);

/* CSV of several rows: a header that is the union of their column names
 * (each row's order kept; a name first seen later goes right after the
 * column it follows in its row), then one line per row (empty cells where a
 * row lacks a column). */
char *rows_csv(const result_row *const *rows, int n);

/* ---- formatting rules, also used directly by the command layer ---- */

/* One field's value as CSV text (appended). */
void field_csv_text(GString *s, const field *f, const void *obj);
/* One field's value as a JSON node (caller owns). */
JsonNode *field_json_node(const field *f, const void *obj);
/* Appends the shortest text that reads back as exactly `v` (7e-06, not
 * 6.9999999999999999e-06). */
void text_double(GString *s, double v);
/* Appends `text` as one CSV cell, quoted when it holds , " or a newline. */
void csv_cell(GString *s, const char *text);
/* JSON text of `root` (pretty or compact), doubles in text_double's
 * shortest form (json-glib 1.6 writes 17 digits, and 3e-10 as the invalid
 * "3e-10.0"); caller frees. */
char *json_text(JsonNode *root, gboolean pretty);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(result_row, row_free)

G_END_DECLS
