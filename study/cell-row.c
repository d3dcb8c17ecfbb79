/* cell-row.c - the columns of a study cell's row: one table that builds
 * the row and checks a stored one (see study/cell-row.h). */
#include "study/cell-row.h"

#include <string.h>

/* ---- the parts ---- */

static void add_input(result_row *r, const study_col *col, const study *s, const study_cell *c,
                      const run_result *res, const GError *error)
{
  (void)res, (void)error;
  row_add_string(r, col->name, s->inputs[c->input].label);
}

static void add_kind(result_row *r, const study_col *col, const study *s, const study_cell *c,
                     const run_result *res, const GError *error)
{
  (void)res, (void)error;
  row_add_string(r, col->name, study_kind_name(s->inputs[c->input].kinds[c->kind]));
}

static void add_platform(result_row *r, const study_col *col, const study *s,
                         const study_cell *c, const run_result *res, const GError *error)
{
  (void)res, (void)error;
  row_add_string(r, col->name, s->platforms[c->platform].label);
}

static void add_strategy(result_row *r, const study_col *col, const study *s,
                         const study_cell *c, const run_result *res, const GError *error)
{
  (void)res, (void)error;
  row_add_string(r, col->name, s->strategies[c->strategy].label);
}

static void add_model(result_row *r, const study_col *col, const study *s, const study_cell *c,
                      const run_result *res, const GError *error)
{
  (void)res, (void)error;
  row_add_string(r, col->name, study_cell_model_name(s, c));
}

static void add_seed(result_row *r, const study_col *col, const study *s, const study_cell *c,
                     const run_result *res, const GError *error)
{
  (void)res, (void)error;
  row_add_int(r, col->name, s->seeds[c->seed]);
}

static void add_error(result_row *r, const study_col *col, const study *s, const study_cell *c,
                      const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)res;
  row_add_string(r, col->name, error ? error->message : NULL);
}

static void add_map_s(result_row *r, const study_col *col, const study *s, const study_cell *c,
                      const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res)
    row_add_double(r, col->name, res->map_seconds);
}

static void add_table(result_row *r, const study_col *col, const void *obj, unsigned view)
{
  if (!obj)
    return;
  row_group(r, col->group);
  row_add_fields(r, col->fields, *col->nfields, obj, view);
  row_group(r, NULL);
}

/* every cell the same columns: traffic_energy_j is 0 on platforms whose
 * links draw no power */
static void add_pre(result_row *r, const study_col *col, const study *s, const study_cell *c,
                    const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res)
    add_table(r, col, res->pre, metrics_view(res->pre) | FIELD_VIEW_ENERGY);
}

static void add_replay(result_row *r, const study_col *col, const study *s, const study_cell *c,
                       const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res)
    add_table(r, col, res->r, 0);
}

static void add_stats(result_row *r, const study_col *col, const study *s, const study_cell *c,
                      const run_result *res, const GError *error)
{
  (void)col, (void)s, (void)c, (void)error;
  for (int i = 0; res && res->r && i < res->r->nmodel_stats; i++)
    row_add_double(r, res->r->model_stats[i].name, res->r->model_stats[i].value);
}

static void add_post(result_row *r, const study_col *col, const study *s, const study_cell *c,
                     const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res && res->post)
    add_table(r, col, res->post, metrics_view(res->post) | FIELD_VIEW_ENERGY);
}

static void add_match(result_row *r, const study_col *col, const study *s, const study_cell *c,
                      const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res && res->post)
    row_add_bool(r, col->name, res->mismatch < 0);
}

/* what chose the mapping among candidates (null: no step chose by one) */
static void add_objective(result_row *r, const study_col *col, const study *s,
                          const study_cell *c, const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res)
    row_add_string(r, col->name, res->objective);
}

static void add_map_replays(result_row *r, const study_col *col, const study *s,
                            const study_cell *c, const run_result *res, const GError *error)
{
  (void)s, (void)c, (void)error;
  if (res)
    row_add_int(r, col->name, res->map_replays);
}

/* what the static metrics and the check count */
static void add_traffic(result_row *r, const study_col *col, const study *s,
                        const study_cell *c, const run_result *res, const GError *error)
{
  (void)res, (void)error;
  const study_input *in = &s->inputs[c->input];
  row_add_string(r, col->name, in->t ? run_traffic_name(in->g_collectives) : "matrix");
}

static void add_key(result_row *r, const study_col *col, const study *s, const study_cell *c,
                    const run_result *res, const GError *error)
{
  (void)s, (void)res, (void)error;
  row_add_string(r, col->name, c->key);
}

const study_col study_cols[] = {
  { STUDY_COL_LABEL, STUDY_COL_EVERY_ROW, "input", .add = add_input },
  { STUDY_COL_CELL, STUDY_COL_EVERY_ROW, "kind", .add = add_kind },
  { STUDY_COL_LABEL, STUDY_COL_EVERY_ROW, "platform", .add = add_platform },
  { STUDY_COL_LABEL, STUDY_COL_EVERY_ROW, "strategy", .add = add_strategy },
  { STUDY_COL_CELL, STUDY_COL_EVERY_ROW, "model", .add = add_model },
  { STUDY_COL_CELL, STUDY_COL_EVERY_ROW, "seed", .add = add_seed },
  { STUDY_COL_ERROR, STUDY_COL_EVERY_ROW, "error", .add = add_error },
  { STUDY_COL_VALUE, STUDY_COL_EVERY_MAPPED, "map_s", .add = add_map_s },
  { STUDY_COL_FIELDS, STUDY_COL_EVERY_MAPPED, "pre_*", "pre", metrics_fields, &metrics_nfields,
    add_pre },
  { STUDY_COL_FIELDS, STUDY_COL_EVERY_REPLAYED, "the simulated fields", NULL, run_replay_fields,
    &run_replay_nfields, add_replay },
  { STUDY_COL_NAMED, STUDY_COL_OPTIONAL, "the model's statistics", .add = add_stats },
  { STUDY_COL_FIELDS, STUDY_COL_EVERY_REPLAYED, "post_*", "post", metrics_fields,
    &metrics_nfields, add_post },
  { STUDY_COL_VALUE, STUDY_COL_EVERY_REPLAYED, "pre_post_match", .add = add_match },
  { STUDY_COL_VALUE, STUDY_COL_EVERY_MAPPED, "objective", .add = add_objective },
  { STUDY_COL_VALUE, STUDY_COL_EVERY_MAPPED, "map_replays", .add = add_map_replays },
  { STUDY_COL_CELL, STUDY_COL_EVERY_ROW, "traffic", .add = add_traffic },
  { STUDY_COL_CELL, STUDY_COL_EVERY_ROW, "key", .add = add_key },
};
const int study_ncols = G_N_ELEMENTS(study_cols);

result_row *study_row_build(const study_col *cols, int n, const study *s, const study_cell *c,
                            const run_result *res, const GError *error)
{
  result_row *r = row_new();
  for (int k = 0; k < n; k++)
    cols[k].add(r, &cols[k], s, c, res, error);
  return r;
}

void study_row_relabel(const study_col *cols, int n, const study *s, const study_cell *c,
                       result_row *r)
{
  for (int k = 0; k < n; k++) {
    if (cols[k].role != STUDY_COL_LABEL)
      continue;
    g_autoptr(result_row) label = row_new();
    cols[k].add(label, &cols[k], s, c, NULL, NULL);
    row_set_string(r, cols[k].name, row_get_string(label, cols[k].name));
  }
}

/* ---- checking a stored row ---- */

/* A result's own name (a model's statistic): visible ASCII. */
static gboolean is_name(const char *n)
{
  for (const char *c = n; *c; c++)
    if (!g_ascii_isgraph(*c))
      return FALSE;
  return *n != '\0';
}

/* The index of field `name` in f[from..n-1], or -1. */
static int field_from(const field *f, int n, int from, const char *name)
{
  for (int i = from; i < n; i++)
    if (strcmp(f[i].name, name) == 0)
      return i;
  return -1;
}

static gboolean needed(const study_col *col, const study_cell *c, gboolean failed)
{
  switch (col->need) {
  case STUDY_COL_EVERY_ROW:
    return TRUE;
  case STUDY_COL_EVERY_MAPPED:
    return !failed;
  case STUDY_COL_EVERY_REPLAYED:
    return !failed && c->model >= 0;
  case STUDY_COL_OPTIONAL:
  default:
    return FALSE;
  }
}

/* Column i of `r` as the one-column part `col` of cell `c`; the error
 * part sets *failed. */
static const char *check_one(const study_col *col, const study *s, const study_cell *c,
                             const result_row *r, int i, gboolean *failed)
{
  JsonNode *v = row_col_value(r, i);
  switch (col->role) {
  case STUDY_COL_LABEL:
    return JSON_NODE_HOLDS_VALUE(v) && json_node_get_value_type(v) == G_TYPE_STRING
               ? NULL : "a label is missing";
  case STUDY_COL_ERROR:
    *failed = !JSON_NODE_HOLDS_NULL(v);
    return *failed && json_node_get_value_type(v) != G_TYPE_STRING ? "its error is no message"
                                                                   : NULL;
  case STUDY_COL_CELL: {
    /* what the part writes for this cell, compared value and text */
    g_autoptr(result_row) want = row_new();
    col->add(want, col, s, c, NULL, NULL);
    if (json_node_equal(row_col_value(want, 0), v) &&
        strcmp(row_csv_text(want, 0), row_csv_text(r, i)) == 0)
      return NULL;
    char text[96]; /* interned: one lasting copy per part (g_intern_string) */
    g_snprintf(text, sizeof text, "its %s is not its cell's", col->name);
    return g_intern_string(text);
  }
  default:
    return NULL;
  }
}

/* Would part `col` take column i of `r` (as its first)? */
static gboolean takes(const study_col *col, const result_row *r, int i)
{
  if (i >= row_ncols(r))
    return FALSE;
  const char *group = row_col_group(r, i), *name = row_col_name(r, i);
  if (col->role == STUDY_COL_FIELDS)
    return g_strcmp0(group, col->group) == 0 &&
           field_from(col->fields, *col->nfields, 0, name) >= 0;
  if (col->role == STUDY_COL_NAMED)
    return !group && is_name(name);
  return !group && strcmp(name, col->name) == 0;
}

/* Does a part of rest[0..n-1] take column i (named values too when
 * `named`)? */
static gboolean later_takes(const study_col *rest, int n, const result_row *r, int i,
                            gboolean named)
{
  for (int k = 0; k < n; k++)
    if ((named || rest[k].role != STUDY_COL_NAMED) && takes(&rest[k], r, i))
      return TRUE;
  return FALSE;
}

/* Takes the columns of table part `col` from column *i on: those of its
 * group that are fields of its table, in table order. */
static int take_fields(const study_col *col, const result_row *r, int *i)
{
  int took = 0;
  for (int at = 0; *i < row_ncols(r) && g_strcmp0(row_col_group(r, *i), col->group) == 0;
       took++, (*i)++) {
    int f = field_from(col->fields, *col->nfields, at, row_col_name(r, *i));
    if (f < 0)
      break;
    at = f + 1;
  }
  return took;
}

/* Takes the named values from column *i on, up to one that a later part
 * `rest[0..n-1]` takes. */
static int take_named(const study_col *col, const study_col *rest, int n, const result_row *r,
                      int *i)
{
  int took = 0;
  for (; takes(col, r, *i) && !later_takes(rest, n, r, *i, FALSE); (*i)++)
    took++;
  return took;
}

/* Why part `col`, which the row needs, is not at column i: a column no
 * part takes is there, the columns are out of order, or the part is
 * missing. */
static const char *missing(const study_col *col, const study_col *rest, int n,
                           const result_row *r, int i)
{
  if (i < row_ncols(r) && !later_takes(rest, n, r, i, TRUE))
    return "a column no result has";
  if (col->need == STUDY_COL_EVERY_ROW)
    return i < row_ncols(r) ? "not the columns of a cell" : "too few columns";
  char text[96];
  g_snprintf(text, sizeof text, "a result without %s", col->name);
  return g_intern_string(text);
}

const char *study_row_check(const study_col *cols, int n, const study *s, const study_cell *c,
                            const result_row *r)
{
  gboolean failed = FALSE;
  int i = 0;
  for (int k = 0; k < n; k++) {
    const study_col *col = &cols[k], *rest = cols + k + 1;
    int took;
    const char *why = NULL;
    if (col->role == STUDY_COL_FIELDS)
      took = take_fields(col, r, &i);
    else if (col->role == STUDY_COL_NAMED)
      took = take_named(col, rest, n - k - 1, r, &i);
    else if ((took = takes(col, r, i)))
      why = check_one(col, s, c, r, i++, &failed);
    if (!why && !took && needed(col, c, failed))
      why = missing(col, rest, n - k - 1, r, i);
    if (why)
      return why;
  }
  return i < row_ncols(r) ? "a column no result has" : NULL;
}
