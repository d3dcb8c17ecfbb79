/* run.h - one run: place the ranks, measure the placement statically,
 * replay the trace on the network, measure again, compare.
 *
 * This is the one pipeline behind `simulate` (a single run), `compare` and
 * studies (grids of runs): korndoerfer2021 Fig. 1 from the mapping on.
 *   1. mapping: a mapping file, a strategy pipeline, or identity;
 *   2. pre: static metrics of the communication graph along the routes
 *      (mapping/metrics.h);
 *   3. (with a trace and a model) the replay (sim/replay.h); a GOAL
 *      schedule instead is replayed as a dependency graph (sim/dag.h) or
 *      under LogGOPS with the platform's network (sim/loggops.h);
 *   4. post: the same metrics counted on the simulated links, and the
 *      pre == post check of korndoerfer2021 Section 7.4 (bytes of every
 *      link and hop_bytes). Both views count the same traffic: the
 *      point-to-point messages and, unless --collectives none, the
 *      messages of the collective algorithms as the replay schedules them
 *      (the static graph expands them with the same coll_choice).
 * With a trace and a model, the strategy may optimize the simulated time:
 * its context carries the replay as an evaluation hook (sim/optimize.h)
 * on the run's trace, model and replay options.
 * The capacity check happens once, before the mapping is made; the mapping
 * is validated where it is made (mapping_load, strategy_run,
 * mapping_identity).
 *
 * Adaptive routings (routing/route.h: UGAL, HyperX min-adaptive) choose
 * paths by load during the replay, so no static view can know them: pre
 * is the static view along the minimal routes and, on a dragonfly,
 * pre_nonminimal along the Valiant ones (the two ends UGAL mixes); the
 * replay records the routes it took (replay_result.routes_taken) and the
 * check (RUN_CHECK_ROUTES_TAKEN) holds every simulated link's bytes and
 * hop_bytes against those routes, and the injection and ejection links,
 * which carry the same bytes on any path, against pre.
 *
 * Post metrics: link fields, hop_bytes, message_hops and max_dilation from
 * the p2p link counters of the replay; tasks, edges, total_hops and
 * avg_hops are graph properties copied from pre. Post link messages count
 * messages, pre counts graph edges, so the check compares bytes only.
 *
 * Ownership: run_inputs are borrowed for the call; run_cell() returns a
 * result freed with run_result_free(). Threads: runs share nothing, so
 * several may run at once on the same inputs.
 * Not for: parsing arguments or printing (cli/), grids of runs
 * (study/study.h).
 */
#pragma once

#include "mapping/metrics.h"
#include "sim/loggops.h"
#include "sim/replay.h"
#include "traces/goal.h"
#include "util/progress.h"

G_BEGIN_DECLS

/* What a run reads (borrowed). */
typedef struct run_inputs {
  const platform *p;
  const commgraph *g;        /* the traffic static metrics count (run_traffic_graph) */
  gboolean g_collectives;    /* g holds the trace's collective messages too */
  const commgraph *map_g;    /* the weights the strategy maps by (same ranks), or NULL: g */
  const trace *t;            /* NULL: static only (unless src) */
  const trace_source *src;   /* the trace as a source (streamed); replaces t when set */
  const goal *goal;          /* a GOAL schedule replayed instead of a trace (sim/dag.h,
                              * sim/loggops.h), its graph in g; t and src NULL */
  const double *coords;      /* task coordinates for geometric strategies, or NULL */
  int coord_dims;
} run_inputs;

/* How the run maps and replays. */
typedef struct run_spec {
  const char *mapping_file;  /* a mapping file, or NULL */
  const char *strategy;      /* a strategy pipeline, or NULL (both NULL: identity) */
  guint32 seed;              /* of randomized strategies */
  const struct netmodel_ops *model; /* NULL: no replay */
  const loggops_params *loggops; /* a GOAL schedule under LogGOPS on the platform
                                  * (loggops_run_platform; its own net= model), or NULL:
                                  * dag_run through `model` */
  const progress *map_progress; /* the strategy's progress hook, or NULL */
  replay_opts opts;
} run_spec;

/* Defaults: identity, seed 1, no replay, replay_opts_init(). */
void run_spec_init(run_spec *s);

/* Everything of `s` that can be checked without the inputs, as run_cell
 * checks it: not both a mapping file and a strategy, a strategy pipeline
 * that parses (the message names the whole pipeline and the nearest valid
 * strategy), a --collectives spec that parses. For commands that refuse a
 * bad request before they read inputs or run anything. */
gboolean run_spec_check(const run_spec *s, GError **error);

/* Where the simulated time went, summed over ranks (ps), next to the
 * makespan: the counterpart of traces/trace.h's trace_times. */
typedef struct run_times {
  int64_t makespan_ps;
  int64_t compute_ps, p2p_ps, coll_ps, other_mpi_ps, wait_ps;
} run_times;

extern const field run_times_fields[];
extern const int run_times_nfields;

/* Which check a run made (see the header). */
typedef enum {
  RUN_CHECK_PRE_POST,     /* every link and hop_bytes: pre == post */
  RUN_CHECK_ROUTES_TAKEN, /* adaptive: post == the routes taken; injection links pre == post */
} run_check;

/* "pre=post", "routes-taken": the check's name in every output. */
const char *run_check_name(run_check c);

typedef struct run_result {
  mapping *m;
  double map_seconds;        /* the strategy's run time (0 for files, identity) */
  char *map_report;          /* what the strategy reported (e.g. portfolio's choice), or NULL */
  const char *objective;     /* what chose the mapping among candidates (a static string:
                              * "makespan_s", "hop_bytes"), or NULL: no step chose by one */
  int64_t map_replays;       /* replays the strategy made (sim/optimize.h) */
  metrics *pre;
  replay_result *r;          /* NULL without replay */
  double replay_seconds;     /* wall time of the replay */
  run_times times;           /* with a replay */
  metrics *post;             /* NULL without replay */
  metrics *pre_nonminimal;   /* adaptive routing on a dragonfly: pre along Valiant routes; else NULL */
  run_check check;
  int mismatch;              /* -1: the check passed; a link id; nlinks: only hop_bytes differs */
  gboolean mismatch_static;  /* routes-taken check: the link differs from pre, not from the routes */
  int64_t *taken_link_bytes; /* routes-taken check: per link, the bytes of the routes taken */
  int64_t taken_hop_bytes;
} run_result;

/* Runs one cell. NULL + error for inputs that do not fit (capacity, bad
 * mapping or strategy, replay input errors); a deadlock is not an error
 * (r->stuck > 0, no post metrics). */
run_result *run_cell(const run_inputs *in, const run_spec *s, GError **error);

void run_result_free(run_result *res);

/* The communication graph of trace `t` that static metrics count: p2p
 * messages plus, unless the --collectives spec says none, the collective
 * messages as the replay schedules them. *with_colls tells which. */
commgraph *run_traffic_graph(const trace *t, const char *collectives, gboolean *with_colls,
                             GError **error);
/* The same for a trace source (streamed traces: from the first pass). */
commgraph *run_traffic_graph_source(const trace_source *src, const char *collectives,
                                    gboolean *with_colls, GError **error);

/* "p2p" or "p2p+collectives": what static metrics and the check count. */
const char *run_traffic_name(gboolean with_colls);

/* Post metrics from the replay's link counters - p2p, plus collective
 * messages when `with_colls` (see the header). */
metrics *run_post_metrics(const replay_result *r, const metrics *pre, const platform *p,
                          gboolean with_colls);

/* The check: -1 when pre and post agree, else the first link whose p2p
 * bytes differ, or nlinks when only hop_bytes differs. */
int run_first_mismatch(const metrics *pre, const metrics *post);

/* "mapping chosen by makespan_s, 200 replays in 0.151 s": which objective
 * chose the mapping and what it cost, or NULL when no step chose by one
 * (caller frees). */
char *run_objective_text(const run_result *res);

/* Does the check of a run on `p` walk the routes taken (adaptive
 * routing) rather than compare pre with post? */
gboolean run_checks_routes(const platform *p);

/* One line saying what differs, for a failed check (caller frees). */
char *run_mismatch_text(const run_result *res, const platform *p);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(run_result, run_result_free)

G_END_DECLS
