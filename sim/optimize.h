/* optimize.h - the replay as the objective of a mapping: the evaluation
 * hook of mapping/strategy.h (strategy_eval) that scores a mapping by
 * replaying the trace under the run's network model.
 *
 * mapping/ never simulates; its steps that optimize the simulated time
 * (`portfolio:obj=makespan`, the `replay` search) call this hook, which
 * run_cell() puts in the strategy context when the run has a trace and a
 * model. An objective is "makespan" (short for makespan_s) or the name of
 * a field of run_replay_fields (sim/run.h: simulate --json's names, the
 * columns a study ranks by with [report] time) other than the counts,
 * which no mapping changes; lower is better.
 *
 * Cheap evaluations: the trace is read once, as the run's trace source
 * (in memory, or streamed from its compact spill file), and every
 * replay reads it through its own cursor, so candidates replay in parallel
 * threads; a makespan replay with a limit stops as soon as the makespan
 * passes it (replay_opts.limit_ps). The scores' heat: per link its busy
 * time, per rank its finish time (the ranks finishing last end the
 * critical path).
 *
 * Ownership: the hook borrows the trace (or source), platform, model and
 * options given to optimize_eval_new(); they must outlive it. Threads:
 * the hook may be called from several threads at once.
 * Not for: searching (mapping/strategies/replay-search.c, mapping/strategies/portfolio.c), one run
 * (sim/run.h).
 */
#pragma once

#include "mapping/strategy.h"
#include "sim/replay.h"
#include "util/field.h"

G_BEGIN_DECLS

typedef struct optimize_eval optimize_eval;

/* A hook replaying `t` (or `src` when not NULL) on `p` through `model`
 * with `opts` (its progress is replaced: replays report nothing and stop
 * when `stop` says so). */
optimize_eval *optimize_eval_new(const trace *t, const trace_source *src, const platform *p,
                                 const struct netmodel_ops *model, const replay_opts *opts,
                                 const progress *stop);
const strategy_eval *optimize_eval_hook(optimize_eval *e);
/* Replays made so far and how many of them stopped at their limit. */
int64_t optimize_eval_replays(const optimize_eval *e, int64_t *stopped_early);
void optimize_eval_free(optimize_eval *e);

/* Every objective the pipeline names (strategy_pipeline_check_objectives)
 * is a static one or one the hook scores; FALSE + an error listing them. */
gboolean optimize_check_objectives(const strategy_pipeline *pl, GError **error);

G_END_DECLS
