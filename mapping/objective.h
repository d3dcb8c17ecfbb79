/* objective.h - what a mapping can be chosen by, in one table.
 *
 * The static objectives are rows of one table (objective.c): each with its
 * name (a strategy's obj=NAME), the measure of mapping/metrics.h that
 * decides, whether the hop_bytes lower bound (mapping/bounds.h) proves a
 * mapping optimal, whether the refiners' swaps minimize it (obj= of wh,
 * kl, tabu, pairs), whether it needs links that draw power, and how two
 * mappings compare. The simulated objectives - makespan, or a field of
 * simulate's output - are not rows: an evaluation hook scores them by
 * replaying (strategy_eval in mapping/strategy.h; sim/optimize.h names
 * them). portfolio, the refiners, the option checks and every help text
 * and error that lists objectives read this table: a new static objective
 * is one row and its comparison.
 *
 * Ownership: the table is static; the names' texts are the caller's
 * (g_free). Not for: computing the measures (metrics.h), replaying.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* The objective of a step that names none (portfolio's obj=, the
 * refiners'); the first row. */
#define STRATEGY_OBJECTIVE_DEFAULT "hop_bytes"

/* The measures of one mapping that the static objectives compare. */
typedef struct strategy_scores {
  int64_t hop_bytes;
  int64_t max_link_bytes;
  double traffic_energy_j;
} strategy_scores;

/* What a relative objective (weighted) compares against: the least
 * hop_bytes and max_link_bytes of the mappings compared, and alpha, the
 * weight of max_link_bytes. */
typedef struct strategy_scale {
  double alpha;
  int64_t min_hop_bytes, min_max_link_bytes;
} strategy_scale;

typedef struct strategy_objective {
  const char *name;     /* obj=NAME */
  const char *metric;   /* what decides, as the outputs name it (metrics.h; "weighted") */
  gboolean bounded;     /* reaching the hop_bytes lower bound proves a mapping optimal */
  gboolean swaps;       /* the refiners' swaps minimize it (their obj=) */
  gboolean needs_power; /* the platform's links must draw power (routing/energy.h) */
  /* Whether a is better than b; ties go to the other measure, then FALSE. */
  gboolean (*better)(const strategy_scores *a, const strategy_scores *b, const strategy_scale *s);
} strategy_objective;

/* The static objective `name`, or NULL: any other name is the
 * evaluation hook's to score (or unknown). */
const strategy_objective *strategy_objective_find(const char *name);

/* The names of the rows (only those the refiners' swaps minimize, with
 * `swaps_only`) joined by `sep`: "hop_bytes|energy". */
char *strategy_objective_names(gboolean swaps_only, const char *sep);

/* Sets `error` (STRATEGY_ERROR_SPEC): "WHO: unknown objective 'NAME',
 * expected hop_bytes, max_link, weighted, energy, makespan or a simulated
 * field (...)" - the static rows only when `statics`, then `simulated`
 * (the hook's names, NULL-terminated: its short form first, then the
 * fields), or "a simulated field" alone when `simulated` is NULL; no
 * "WHO: " when `who` is NULL. */
void strategy_objective_unknown(GError **error, const char *who, const char *name,
                                gboolean statics, const char *const *simulated);

G_END_DECLS
