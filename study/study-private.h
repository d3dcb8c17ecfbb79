/* study-private.h - what the study's source files share, and what two of
 * them show their tests (tests/test_report_stats.c): fractional ranks and
 * the rankings of each seed alone. Not for users of study/.
 */
#pragma once

#include <sys/types.h>

#include "study/study.h"

G_BEGIN_DECLS

/* ---- stats.c, rank.c ---- */

/* Fractional ranks of x (1-based, ties averaged) into r[0..n-1]. */
void stats_ranks(const double *x, int n, double *r);

/* One ranking per (input, kind, model, platform, seed), each seed's cells
 * alone (ties within the relative 1e-9 of stats_equal). */
GPtrArray *study_rank_each_seed(const study *s);


/* Builds s->cells from the factors and computes every cell's key; FALSE
 * + error (study_check_grid's) when they are too many. */
gboolean study_make_cells(study *s, GError **error);

/* FALSE + error "N cells (the grid), more than ..." when the grid of s's
 * inputs and models with these platform, strategy and seed counts has
 * more than STUDY_MAX_CELLS cells or mixes, or its cells and mixes need
 * more than the memory budget (STUDY_CELL_BYTES each); counted in
 * checked 64-bit arithmetic (study/size.c). */
gboolean study_check_grid(const study *s, int64_t nplatforms, int64_t nstrategies,
                          int64_t nseeds, GError **error);

/* SHA-256 of the contents of a file or, for a folder, of every file below
 * it (sorted relative names and contents) into `sum`. FALSE + error when
 * unreadable. */
gboolean study_hash_path(GChecksum *sum, const char *path, GError **error);

/* Hex digest of a finished checksum into out[65]. */
void study_digest(GChecksum *sum, char out[65]);

/* The content hash of a platform (the file and every file its INI names,
 * or the shorthand) with its overrides, into out[65]. */
gboolean study_platform_hash(const study_platform *sp, char out[65], GError **error);

/* Loads sp->p from its spec and overrides; FALSE + error otherwise. */
gboolean study_platform_load(study_platform *sp, GError **error);

/* Does a platform or allocation spec name a file: a '/' before any ':'
 * (torus:4x4x4:bw=100Gbit/s is a shorthand), or an .ini or .json name? */
gboolean study_spec_is_path(const char *spec);

/* Frees what a platform of a study holds and zeroes it. */
void study_platform_clear(study_platform *sp);

/* Appends the platforms of `g` to s, every sweep in a spec or an override
 * expanded (study/lists.c), each loaded (a failure kept in its error).
 * FALSE + error on a malformed sweep. */
gboolean study_grid_add_platforms(study *s, const study_grid_platforms *g, GError **error);

/* ---- the store (study/store.c) ---- */

/* STORE/cells, created when missing. */
gboolean study_store_make(const char *store, GError **error);

/* Every intact record of a cell of `s` in the logs of STORE/cells: key ->
 * row (the newest wins; damaged records get a note in s->notes). NULL +
 * error when a log cannot be read or is not a regular file within the
 * budget. */
GHashTable *study_store_read(study *s, const char *store, GError **error);

/* A new log of this process, STORE/cells/cells-G<next generation>-HOST-
 * PID.jsonl (opened for appending; its name synced); its path into *path
 * (caller frees). -1 + error otherwise. */
int study_store_open_log(const char *store, char **path, GError **error);

/* The line of a finished cell in a log, with its newline (caller frees). */
char *study_record(const study_cell *c);

/* Writes rows as DIR/STEM.csv and DIR/STEM.json ({"study": name, MEMBER:
 * [rows]}), each atomically; the one writer of a study's result files. */
gboolean study_write_rows(const study *s, const result_row *const *rows, int n, const char *dir,
                          const char *stem, const char *member, GError **error);

/* Frees what the study's jobs files and mixes hold (study/jobs.c). */
void study_jobs_free(study *s);

G_END_DECLS
