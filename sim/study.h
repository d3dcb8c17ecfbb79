/* study.h - what-if studies: one trace replayed on several platforms with
 * several mapping strategies, the pre/post comparison of every cell.
 *
 * A study is a grid of cells (platform x strategy); each cell is one run
 * (sim/run.h). Cells run on a GThreadPool; each writes only its own slot
 * and a run's result depends on its own inputs only (strategies and Scotch
 * are seeded per run), so the results - and everything printed from them -
 * are identical whatever the thread count.
 *
 * Ownership: study_new() copies its specs; study_free() frees the cells and
 * their results. The trace is borrowed and must outlive study_run().
 * Not for: printing (sim/cli/cmd-compare.c), single runs (sim/run.h).
 */
#pragma once

#include "sim/run.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define STUDY_ERROR (study_error_quark())
GQuark study_error_quark(void);

typedef enum {
  STUDY_ERROR_INTERRUPTED, /* stopped by the progress hook before the cell ran */
} StudyError;

typedef struct study_cell {
  char *platform_spec;
  char *strategy_spec;
  /* results, filled by study_run */
  platform *p;
  run_result *res;
  GError *error;          /* this cell failed (the others still ran) */
} study_cell;

typedef struct study {
  const trace *t;
  commgraph *g;           /* traffic of the trace (run_traffic_graph) */
  gboolean g_collectives; /* g includes collective messages */
  char *collectives;      /* the --collectives spec, or NULL */
  run_spec spec;          /* model, seed, replay options of every cell */
  char *alloc;            /* allocation applied to every platform, or NULL */
  int cores;              /* cores per node for every platform, or 0 */
  char *fill;             /* fill policy for every platform, or NULL */
  int ncells;
  study_cell *cells;      /* platform-major: cell = platform * nstrategies + strategy */
  int nplatforms, nstrategies;
  const progress *prog;   /* during study_run */
  gint done;              /* cells finished (atomic) */
} study;

/* A study of every platform x every strategy on trace `t`; `collectives`
 * is the --collectives spec (NULL: auto) of the replay and of the traffic
 * the static metrics count. */
study *study_new(const trace *t, const char *const *platforms, int nplatforms,
                 const char *const *strategies, int nstrategies,
                 const struct netmodel_ops *model, guint32 seed, const char *collectives,
                 GError **error);

/* Runs every cell on `threads` worker threads (>= 1), reporting "cells"
 * done to `prog` (may be NULL); once prog says stop, cells not started yet
 * fail with "interrupted". Returns FALSE only for errors of the whole
 * study; a failing cell records its own error. */
gboolean study_run(study *s, int threads, const progress *prog, GError **error);

void study_free(study *s);

G_END_DECLS
