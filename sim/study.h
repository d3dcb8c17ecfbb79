/* study.h - what-if studies: one trace replayed on several platforms with
 * several mapping strategies, the pre/post comparison of every cell.
 *
 * A study is a grid of cells (platform x strategy). Mappings are computed
 * one after the other in the calling thread (Scotch and the strategies keep
 * no shared state, but mapping is cheap next to replay); the replays run in
 * a GThreadPool. Each cell writes only its own slot, so the results - and
 * everything printed from them - are identical whatever the thread count.
 *
 * Also here: the post-simulation metrics built from a replay's link
 * counters, and the pre == post check of korndoerfer2021 Section 7.4.
 *
 * Ownership: study_new() copies its specs; study_free() frees the cells and
 * their results. The trace is borrowed and must outlive study_run().
 * Not for: printing (sim/cli/cmd-compare.c), single runs (mapsim simulate).
 */
#pragma once

#include "mapping/metrics.h"
#include "sim/replay.h"

G_BEGIN_DECLS

/* Post metrics: link fields, hop_bytes, message_hops and max_dilation from
 * the p2p link counters of `r`; tasks, edges, total_hops, avg_hops (graph
 * properties) copied from `pre`. Post link messages count messages, pre
 * counts graph edges. Caller frees with metrics_free(). */
metrics *study_post_metrics(const replay_result *r, const metrics *pre, const platform *p);

/* The check: index of the first link whose p2p bytes differ, nlinks when
 * only hop_bytes differs, or -1 when pre and post agree. */
int study_first_mismatch(const metrics *pre, const metrics *post);

typedef struct study_cell {
  char *platform_spec;
  char *strategy_spec;
  /* results, filled by study_run */
  platform *p;
  mapping *m;
  metrics *pre, *post;
  replay_result *r;
  double map_seconds;
  gboolean match;
  GError *error;          /* this cell failed (the others still ran) */
} study_cell;

typedef struct study {
  const trace *t;
  commgraph *g;           /* p2p graph of the trace */
  const struct netmodel_ops *model;
  replay_opts opts;
  guint32 seed;
  char *alloc;            /* allocation applied to every platform, or NULL */
  int cores;              /* cores per node for every platform, or 0 */
  int ncells;
  study_cell *cells;      /* platform-major: cell = platform * nstrategies + strategy */
  int nplatforms, nstrategies;
} study;

/* A study of every platform x every strategy on trace `t`. */
study *study_new(const trace *t, const char *const *platforms, int nplatforms,
                 const char *const *strategies, int nstrategies,
                 const struct netmodel_ops *model, guint32 seed, GError **error);

/* Maps, replays (on `threads` worker threads, >= 1) and compares every
 * cell. Returns FALSE only for errors of the whole study (such as a trace
 * without p2p graph); a failing cell records its own error. */
gboolean study_run(study *s, int threads, GError **error);

void study_free(study *s);

G_END_DECLS
