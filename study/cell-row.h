/* cell-row.h - the columns of a study cell's row as one table, which both
 * builds the row of a finished cell and checks a row read back from the
 * store: a column added to the row is a column the store expects, so its
 * records are never read as damaged because the check lagged behind.
 *
 * The table lists the row's parts in order: labels (input, platform,
 * strategy: any string, which the study file's labels replace when read),
 * values of the cell itself (kind, model, seed, traffic, key: a stored one
 * must be what the part writes for its cell), the error, and the parts of
 * a result - the strategy's time, the static metrics as pre_*, the
 * simulated fields, the model's statistics, the simulated link metrics as
 * post_*, the pre/post check, what chose the mapping and its replays. A
 * part of a field table (util/field.h) holds any of its fields in table
 * order: views leave some out, and records
 * written before a field was added lack it. Which parts a row must have is
 * the part's `need`: every row, every cell without an error (it was
 * mapped), every trace's cell without an error (it was replayed to the
 * end), or none (the model's statistics; a result that failed on the way
 * keeps what it got).
 *
 * Ownership: tables are static and read-only; rows returned are the
 * caller's (row_free). Not for: results files (study_write_results adds
 * each cell's rank, which depends on the other cells).
 */
#pragma once

#include "sim/row.h"
#include "study/study.h"

G_BEGIN_DECLS

typedef enum {
  STUDY_COL_LABEL,   /* a label: a string; the study file's replaces it when read */
  STUDY_COL_CELL,    /* a value of the cell itself: stored, it must be what `add` writes */
  STUDY_COL_ERROR,   /* the cell's error message, or null */
  STUDY_COL_VALUE,   /* one value of the result */
  STUDY_COL_FIELDS,  /* fields of a table, in table order */
  STUDY_COL_NAMED,   /* values the result names itself (visible ASCII names) */
} study_col_role;

typedef enum {
  STUDY_COL_EVERY_ROW,
  STUDY_COL_EVERY_MAPPED,    /* every row without an error */
  STUDY_COL_EVERY_REPLAYED,  /* every row of a trace without an error */
  STUDY_COL_OPTIONAL,
} study_col_need;

typedef struct study_col study_col;

/* Adds the part's columns for cell `c` of `s`, its result (NULL: none)
 * and its error (NULL: none); nothing when the result lacks the part. */
typedef void (*study_col_add_fn)(result_row *r, const study_col *col, const study *s,
                                 const study_cell *c, const run_result *res,
                                 const GError *error);

struct study_col {
  study_col_role role;
  study_col_need need;
  const char *name;          /* the column; for FIELDS and NAMED what they are, in messages */
  const char *group;         /* FIELDS: the group of its columns (pre, post), or NULL */
  const field *fields;       /* FIELDS: the table */
  const int *nfields;
  study_col_add_fn add;
};

/* The parts of a study cell's row. */
extern const study_col study_cols[];
extern const int study_ncols;

/* The row of a finished cell (its result, or its error, or both) from the
 * parts cols[0..n-1]. */
result_row *study_row_build(const study_col *cols, int n, const study *s, const study_cell *c,
                            const run_result *res, const GError *error);

/* Why `r` cannot be the row of cell `c` built from cols[0..n-1], or NULL
 * when it can (a short phrase: "its seed is not its cell's"). */
const char *study_row_check(const study_col *cols, int n, const study *s, const study_cell *c,
                            const result_row *r);

/* Gives `r` (a row of cell `c`) the cell's current labels. */
void study_row_relabel(const study_col *cols, int n, const study *s, const study_cell *c,
                       result_row *r);

G_END_DECLS
