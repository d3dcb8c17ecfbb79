/* test_study_rows.c - the columns of a study cell's row (study/cell-row.h):
 * one table builds a finished cell's row and checks a row read back from
 * the store, so a field added to a field table or a model statistic added
 * to a model never makes stored records read as damaged, while every check
 * of a stored row (its kind, model, seed, traffic, key, labels, the order
 * of its columns, a result's parts) still refuses what is not its cell's. */
#include <string.h>

#include "models/model.h"
#include "study/cell-row.h"
#include "testutil.h"

/* A study of the ring trace (flow: the model has statistics) and a
 * matrix (static cells), two strategies, two seeds, its cells run here
 * (not stored) with their results kept. */
static study *run_in_memory(const char *store)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *pair = tu_data("y_pair.csv");
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nmatrices = %s\n"
                                          "platforms = torus:2x2x2\nstrategies = identity; "
                                          "greedy\nmodels = flow\nseeds = 1; 2\n", ring, pair);
  GError *e = NULL;
  study *s = study_load("rows.ini", text, NULL, &e);
  cr_assert_not_null(s, "%s", e ? e->message : "");
  s->keep_results = store == NULL;
  cr_assert(study_run(s, NULL, 1, store, FALSE, NULL, &e), "%s", e ? e->message : "");
  return s;
}

/* `t` (n fields) with one more: a copy of field `like` named `name`. */
static field *table_plus(const field *t, int n, const char *like, const char *name)
{
  field *plus = g_new(field, n + 1);
  memcpy(plus, t, sizeof *t * (size_t)n);
  for (int i = 0; i < n; i++)
    if (strcmp(t[i].name, like) == 0)
      plus[n] = t[i];
  cr_assert_not_null(plus[n].name, "no field %s", like);
  plus[n].name = name;
  return plus;
}

/* The row's parts with a simulated field and a static metric more, as if
 * both had been added to their tables after the stored records were
 * written: records with one field less are no damage, records with the
 * new fields are checked by the table that wrote them. A check keeping its
 * own list of columns (the stock table's here) refuses the new pre_*. */
Test(study_rows, a_field_added_to_a_table_is_no_damage, .timeout = 120)
{
  g_autoptr(study) s = run_in_memory(NULL);
  int nsim = run_replay_nfields + 1, npre = metrics_nfields + 1;
  g_autofree field *sim = table_plus(run_replay_fields, run_replay_nfields, "makespan_s",
                                     "makespan_again_s");
  g_autofree field *pre = table_plus(metrics_fields, metrics_nfields, "hop_bytes",
                                     "hop_bytes_again");
  g_autofree study_col *cols = g_memdup2(study_cols, sizeof *study_cols * (gsize)study_ncols);
  for (int k = 0; k < study_ncols; k++) {
    if (cols[k].role == STUDY_COL_FIELDS && !cols[k].group) {
      cols[k].fields = sim;
      cols[k].nfields = &nsim;
    } else if (cols[k].role == STUDY_COL_FIELDS && strcmp(cols[k].group, "pre") == 0) {
      cols[k].fields = pre;
      cols[k].nfields = &npre;
    }
  }
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    cr_assert_null(c->error, "%s", c->error ? c->error->message : "");
    g_autoptr(result_row) plus = study_row_build(cols, study_ncols, s, c, c->res, NULL);
    cr_assert_eq(row_ncols(plus), row_ncols(c->row) + (c->model >= 0 ? 2 : 1));
    cr_assert_geq(row_find(plus, "pre_hop_bytes_again"), 0);
    cr_assert_eq(row_find(plus, "makespan_again_s") >= 0, c->model >= 0);
    cr_assert_null(study_row_check(study_cols, study_ncols, s, c, c->row));
    cr_assert_null(study_row_check(cols, study_ncols, s, c, plus), "%s",
                   study_row_check(cols, study_ncols, s, c, plus));
    cr_assert_null(study_row_check(cols, study_ncols, s, c, c->row), "%s",
                   study_row_check(cols, study_ncols, s, c, c->row));
    cr_assert_str_eq(study_row_check(study_cols, study_ncols, s, c, plus),
                     "a column no result has");
  }
}

/* Flow's statistics and one more, "extra_statistic". */
static const struct netmodel_ops *stock_flow;
static int stats_plus_one(const netmodel *m, netmodel_stat *out, int max)
{
  int n = stock_flow->impl->stats(m, out, max - 1);
  out[n] = (netmodel_stat){ "extra_statistic", 42 };
  return n + 1;
}

/* Through the store: records of a model with a statistic more than
 * today's are read back intact (no note, no cell run), and so are records
 * without it; the statistic is not in the key, so these are the same
 * cells. */
Test(study_rows, a_model_statistic_more_or_less_is_no_damage, .timeout = 120)
{
  g_autofree char *store = tu_tmp_dir();
  struct netmodel_ops plus;
  netmodel_impl plus_impl;
  for (int round = 0; round < 4; round++) {
    /* the model with the statistic writes (0) and reads (3); today's model
     * reads (1) and writes (2, --fresh) */
    gboolean with_extra = round == 0 || round == 3, fresh = round == 2;
    g_autofree char *ring = tu_src("traces/data/ring-8");
    g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nplatforms = torus:2x2x2\n"
                                            "strategies = identity; greedy\nmodels = flow\n",
                                            ring);
    GError *e = NULL;
    g_autoptr(study) s = study_load("stats.ini", text, NULL, &e);
    cr_assert_not_null(s, "%s", e ? e->message : "");
    stock_flow = s->models[0];
    plus = *stock_flow;
    plus_impl = *stock_flow->impl;
    plus_impl.stats = stats_plus_one;
    plus.impl = &plus_impl;
    if (with_extra)
      s->models[0] = &plus;
    cr_assert(study_run(s, NULL, 1, store, fresh, NULL, &e), "%s", e ? e->message : "");
    cr_assert(!s->notes || s->notes->len == 0, "round %d: %s", round,
              s->notes && s->notes->len ? (char *)g_ptr_array_index(s->notes, 0) : "");
    gboolean read_back = round % 2 == 1;
    for (int i = 0; i < s->ncells; i++) {
      cr_assert_eq(s->cells[i].stored, read_back, "round %d cell %d", round, i);
      cr_assert_eq(row_find(s->cells[i].row, "extra_statistic") >= 0, round < 2,
                   "round %d cell %d", round, i);
    }
  }
}

/* Every check of a stored row still holds: its kind, model, seed, traffic
 * and key are its cell's, its labels are strings, its columns come in the
 * row's order, a result has map_s and its replay. */
Test(study_rows, stored_rows_are_checked_against_their_cell, .timeout = 120)
{
  g_autoptr(study) s = run_in_memory(NULL);
  const study_cell *trace1 = study_cell_at(s, 0, 0, 0, 0, 0, 0);
  const study_cell *trace2 = study_cell_at(s, 0, 0, 0, 0, 0, 1);
  const study_cell *greedy1 = study_cell_at(s, 0, 0, 0, 1, 0, 0);
  const study_cell *matrix1 = study_cell_at(s, 1, 0, 0, 0, -1, 0);
  const char *(*check)(const study_col *, int, const study *, const study_cell *,
                       const result_row *) = study_row_check;
  cr_assert_str_eq(check(study_cols, study_ncols, s, trace2, trace1->row),
                   "its seed is not its cell's");
  cr_assert_str_eq(check(study_cols, study_ncols, s, greedy1, trace1->row),
                   "its key is not its cell's");
  cr_assert_str_eq(check(study_cols, study_ncols, s, matrix1, trace1->row),
                   "its model is not its cell's");
  struct { const char *column, *value, *why; } edits[] = {
    { "kind", "count", "its kind is not its cell's" },
    { "model", "analytic", "its model is not its cell's" },
    { "model", NULL, "its model is not its cell's" },
    { "traffic", "matrix", "its traffic is not its cell's" },
    { "key", "0000", "its key is not its cell's" },
    { "platform", NULL, "a label is missing" },
  };
  for (size_t k = 0; k < G_N_ELEMENTS(edits); k++) {
    g_autoptr(result_row) r = row_copy(trace1->row);
    cr_assert(row_set_string(r, edits[k].column, edits[k].value));
    cr_assert_str_eq(check(study_cols, study_ncols, s, trace1, r), edits[k].why, "%s",
                     edits[k].column);
  }
  /* rows built from the table with a part left out, or two swapped */
  g_autofree study_col *cols = g_memdup2(study_cols, sizeof *study_cols * (gsize)study_ncols);
  struct { const char *left_out, *why; } parts[] = {
    { "map_s", "a result without map_s" },
    { "the simulated fields", "a result without the simulated fields" },
    { "post_*", "a result without post_*" },
    { "key", "too few columns" },
    { "kind", "not the columns of a cell" },
  };
  for (size_t k = 0; k < G_N_ELEMENTS(parts); k++) {
    int n = 0;
    for (int i = 0; i < study_ncols; i++)
      if (strcmp(study_cols[i].name, parts[k].left_out) != 0)
        cols[n++] = study_cols[i];
    cr_assert_eq(n, study_ncols - 1);
    g_autoptr(result_row) r = study_row_build(cols, n, s, trace1, trace1->res, NULL);
    cr_assert_str_eq(check(study_cols, study_ncols, s, trace1, r), parts[k].why, "%s",
                     parts[k].left_out);
  }
  memcpy(cols, study_cols, sizeof *study_cols * (gsize)study_ncols);
  study_col first = cols[0];
  cols[0] = cols[1];
  cols[1] = first;
  g_autoptr(result_row) swapped = study_row_build(cols, study_ncols, s, trace1, trace1->res, NULL);
  cr_assert_str_eq(check(study_cols, study_ncols, s, trace1, swapped),
                   "not the columns of a cell");
  /* a failed cell's row keeps what its result got, or nothing */
  GError *failed = g_error_new_literal(STUDY_ERROR, STUDY_ERROR_FILE, "failed on purpose");
  g_autoptr(result_row) bare = study_row_build(study_cols, study_ncols, s, trace1, NULL, failed);
  cr_assert_null(check(study_cols, study_ncols, s, trace1, bare));
  g_autoptr(result_row) kept = study_row_build(study_cols, study_ncols, s, trace1, trace1->res,
                                               failed);
  cr_assert_null(check(study_cols, study_ncols, s, trace1, kept));
  g_error_free(failed);
}

