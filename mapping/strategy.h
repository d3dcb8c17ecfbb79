/* strategy.h - mapping strategies: registry, option specs, pipelines.
 *
 * A strategy is a `const strategy` row: a constructor (places every task)
 * or a refiner (improves a valid mapping). A pipeline spec chains them:
 *   "greedy+wh+mc", "geometric:ordering=z", "kl:t=2", "greedy+wh:delta=16+mc"
 * i.e. steps separated by '+', each `name[:key=value[,key=value...]]`; a
 * value in brackets may hold '+', ',' and '|' (lists of pipelines:
 * "portfolio:try=[identity+tabu|scotch+kl],obj=max_link").
 * A pipeline that starts with a refiner first runs that refiner's
 * `start` constructor (for example random for kl, as selvitopi does).
 *
 * Several ranks per node: unless every step sets `places_slots` (it maps
 * ranks onto node slots itself, like the curves), strategy_run() groups the
 * tasks into the allocated nodes - with the first step when it places slots
 * (so a curve or geometric keeps its grouping and the refiners after it
 * move whole groups), otherwise with Scotch (deveci2015 Section III-A) -
 * runs the (remaining) pipeline on the quotient graph with one task per
 * node, and expands the result.
 *
 * Objectives by simulation: the context may carry an evaluation hook
 * (strategy_eval) that scores a mapping by replaying the trace; mapping/
 * never simulates, sim/optimize.h supplies the hook. Steps that choose by
 * it (portfolio:obj=makespan, replay) fail with a clear error without one.
 *
 * A step that needs node coordinates (curves, geometric, the stencil
 * embeddings) runs on a dragonfly, fat tree or HyperX on the grid of the
 * network's hierarchy (mapping/strategies/hierarchy.c): a node keeps its id, its coordinates
 * are its places in the levels (node of a switch, router, group), so
 * neighbours on the grid share a router or a group. Elsewhere without
 * coordinates it is refused in one line naming what it needs.
 *
 * Adding a strategy: one file defining `const strategy strategy_NAME` and
 * one row in mapping/strategies/registry.c. Its parameters are a table of
 * strategy_param with defaults as text; help is printed from the tables.
 *
 * Ownership: the registry is static; strategy_run() returns a mapping the
 * caller frees. Strategies allocate their own scratch space and free it.
 * Not for: measuring a mapping (metrics.h).
 */
#pragma once

#include "mapping/mapping.h"
#include "mapping/objective.h"
#include "traces/commgraph.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define STRATEGY_ERROR (strategy_error_quark())
GQuark strategy_error_quark(void);

typedef enum {
  STRATEGY_ERROR_SPEC,        /* unknown strategy or option, bad value */
  STRATEGY_ERROR_INPUT,       /* inputs the strategy cannot use (no coordinates ...) */
  STRATEGY_ERROR_FAILED,      /* the strategy could not produce a mapping */
} StrategyError;

#define STRATEGY_MAX_PARAMS 8

typedef enum {
  SPARAM_INT,
  SPARAM_DOUBLE,
  SPARAM_CHOICE, /* one word of `choices`, "a|b|c" */
  SPARAM_PIPELINES, /* a list of pipelines, "[identity+tabu|scotch+kl]" */
  SPARAM_OBJECTIVE, /* a static objective (mapping/objective.h) or one the evaluation hook
                     * scores (makespan, a simulated field: strategy_pipeline_check_objectives) */
  SPARAM_SIMULATED, /* an objective the evaluation hook scores */
  SPARAM_SWAP_OBJECTIVE, /* a static objective the refiners' swaps minimize (its `swaps`) */
} sparam_type;

typedef struct strategy_param {
  const char *name;
  sparam_type type;
  const char *defval;   /* default, as text */
  const char *choices;  /* SPARAM_CHOICE: "z|gray|fz"; numbers: "min..max" or NULL; objectives:
                         * NULL (mapping/objective.h lists them) */
  const char *help;
} strategy_param;

/* Parsed option values of one pipeline step, in the order of the table. */
typedef struct strategy_args {
  const strategy_param *defs;
  int n;
  char *values[STRATEGY_MAX_PARAMS];
} strategy_args;

int strategy_arg_int(const strategy_args *a, const char *name);
double strategy_arg_double(const strategy_args *a, const char *name);
const char *strategy_arg_str(const strategy_args *a, const char *name);

/* What an evaluation hook learns about one mapping (strategy_eval). */
typedef struct strategy_score {
  const char *objective; /* its canonical name, a static string ("makespan_s" for "makespan") */
  double value;       /* the objective; lower is better */
  gboolean over;      /* stopped early: value > the limit asked for (value = limit) */
  /* Where it hurts, filled when the caller gives the arrays (else NULL):
   * per link how long it was busy (ps), per task a weight of how much
   * moving it may help (larger: more). */
  int64_t *link_heat;  /* p->topo->nlinks */
  double *task_heat;   /* the mapping's ntasks */
} strategy_score;

/* An objective mapping/ cannot compute itself - the simulated time of a
 * replay, which sim/ supplies (sim/optimize.h): the dependency points
 * down, mapping/ only calls the hook. `objective` names what to measure
 * (simulated field names such as "makespan_s"; "makespan" is short for
 * it); the hook refuses names it does not know. With a finite limit the
 * caller keeps the mapping only if value <= limit, so the hook may stop
 * early once the value is known to exceed it (out->over; INFINITY: no
 * limit). Called from several threads at once; deterministic: the same
 * mapping gives the same score. FALSE + error when the mapping cannot be
 * scored (or on an interrupt). */
typedef struct strategy_eval {
  gboolean (*score)(void *user, const char *objective, const mapping *m, double limit,
                    strategy_score *out, GError **error);
  void *user;
} strategy_eval;

typedef struct strategy strategy;
typedef struct strategy_pipeline strategy_pipeline;
typedef struct strategy_request strategy_request;

/* Pipelines run by a step (portfolio's candidates, ml's refiner found by
 * name): the runner (pipeline.c) hands these down in the context, so that
 * the strategies, which the runner calls, never call it back: a strategy
 * of the registry by name, and the same functions as strategy_parse,
 * strategy_pipeline_list, strategy_pipeline_free and strategy_run below. */
typedef struct strategy_pipelines {
  const strategy *(*find)(const char *name);
  strategy_pipeline *(*parse)(const char *spec, GError **error);
  char **(*list)(const char *value, GError **error);
  void (*free)(strategy_pipeline *pl);
  mapping *(*run)(const strategy_request *rq, GError **error);
} strategy_pipelines;

/* The runner's own table (pipeline.c), for callers that build a context
 * themselves (tests, benches). */
extern const strategy_pipelines strategy_runner;

/* What every step sees. The graph has one task per slot to fill: when
 * tasks share nodes it is the quotient graph (see above). */
typedef struct strategy_ctx {
  const commgraph *g;
  const platform *p;
  guint32 seed;
  const double *coords;  /* task coordinates, ntasks x coord_dims, or NULL */
  int coord_dims;
  GString *report;       /* lines for the user (e.g. which pipeline won), or NULL */
  const progress *prog;  /* long steps report and stop early (best so far) through it, or NULL */
  /* Scores mappings by simulation, or NULL (static objectives only). With
   * tasks grouped per node it scores the ctx's mapping of groups as the
   * ranks' mapping (and sums the task heat per group). */
  const strategy_eval *eval;
  /* Steps that choose among mappings by an objective write its name here
   * (a static string: "makespan_s", "hop_bytes"); NULL: nobody asks. */
  const char **chosen_by;
  /* Runs pipelines for the steps that run others; never NULL in the
   * contexts strategy_run() builds. */
  const strategy_pipelines *pipelines;
} strategy_ctx;

typedef enum {
  STRATEGY_CONSTRUCT,
  STRATEGY_REFINE,
} strategy_kind;

struct strategy {
  const char *name;
  strategy_kind kind;
  const char *summary;
  const char *paper;             /* where it comes from, e.g. "deveci2015 Alg. 1" */
  const strategy_param *params;  /* terminated by a row with name NULL; may be NULL */
  const char *start;             /* refiners: the constructor run first, NULL = identity */
  gboolean places_slots;         /* maps onto node slots itself (no pre-partition) */
  gboolean needs_coordinates;    /* reads node coordinates: on a dragonfly, fat tree or HyperX
                                  * it runs on the hierarchy's grid (hier_grid_platform) */
  /* How it scales, for `mapsim strategies` and the portfolio's default
   * list: its cost in the graph's size (n ranks, E edges, N nodes), and
   * the most ranks it maps within about a minute on the bench machine
   * (bench/README.md, "Mappings at scale"); 0 = no limit (near-linear);
   * -1 = set by its parameters (a time limit, a number of replays). */
  const char *cost;
  int max_ranks;
  /* Constructors fill `m` (all -1 on entry); refiners improve a valid `m`.
   * Must leave a valid mapping for ctx->p (capacity, allocation). */
  gboolean (*run)(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                  GError **error);
};

/* The registry (mapping/strategies/registry.c), NULL-terminated. */
extern const strategy *const strategy_registry[];

/* The default values of s's options (borrowed from its table), for running
 * a strategy inside another one. */
void strategy_args_defaults(const strategy *s, strategy_args *a);

/* A parsed pipeline. */
typedef struct strategy_step {
  const strategy *s;
  strategy_args args;
} strategy_step;

struct strategy_pipeline {
  int nsteps;
  strategy_step *steps;
};

strategy_pipeline *strategy_parse(const char *spec, GError **error);

/* Checks every objective `pl` names - in its steps and in the pipelines
 * they run (portfolio's try=) - against the static objectives where a
 * step takes those and against `simulated`, the names the evaluation hook
 * scores (NULL-terminated, its short form first: sim/optimize.h), before
 * anything runs. FALSE + STRATEGY_ERROR_SPEC naming the step and every
 * valid name. */
gboolean strategy_pipeline_check_objectives(const strategy_pipeline *pl,
                                            const char *const *simulated, GError **error);

void strategy_pipeline_free(strategy_pipeline *pl);

/* What one run of a pipeline needs; callers fill it with designated
 * initializers, every member but the pipeline, the graph and the platform
 * may be left 0 / NULL. All of it is borrowed for the run. */
typedef struct strategy_request {
  const strategy_pipeline *pipeline;
  const commgraph *g;
  const platform *p;           /* tasks may exceed nodes when cores per node > 1 */
  guint32 seed;
  const double *coords;        /* task coordinates, g->n x coord_dims, or NULL */
  int coord_dims;
  GString *report;             /* steps append what they have to report, or NULL */
  const progress *prog;        /* long steps report progress and stop early, or NULL */
  const strategy_eval *eval;   /* for the steps that score mappings by simulation, or NULL */
  /* gets the objective of the last step that chose among mappings by one,
   * or NULL when none did; NULL: nobody asks */
  const char **chosen_by;
} strategy_request;

/* Runs the request's pipeline for its graph on its platform and returns a
 * validated mapping of g->n tasks (the caller's), or NULL + error. */
mapping *strategy_run(const strategy_request *rq, GError **error);

/* Partition hook for several ranks per node: fills part[ntasks] with part
 * indices 0..nparts-1, each part holding at most `cap` tasks (needs
 * ntasks <= nparts * cap; with ntasks > (nparts - 1) * cap no part is
 * empty). Implemented with Scotch in mapping/partition.c. */
gboolean strategy_partition(const commgraph *g, int nparts, int cap, guint32 seed, int *part,
                            GError **error);

/* The same with a capacity per part: part i holds at most cap[i] tasks
 * (exactly cap[i] when the caps add up to ntasks). */
gboolean strategy_partition_sizes(const commgraph *g, int nparts, const int *cap, guint32 seed,
                                  int *part, GError **error);

/* The time limit of the searches that take one (portfolio), in seconds;
 * 0: none given (each has its default). Set once at start-up (the command
 * line's --time-limit) and only read afterwards, like the memory budget. */
void strategy_set_time_limit(double seconds);
double strategy_time_limit(void);

/* Reads a coordinates file for `ntasks` ranks (mapping/coords.c): one line
 * per rank, blank- or comma-separated numbers, the same count on every
 * line, `#` comments. Returns ntasks x *dims doubles (caller frees) or NULL
 * with `file:line: ...` in error (STRATEGY_ERROR_INPUT). */
double *strategy_load_coords(const char *path, int ntasks, int *dims, GError **error);

/* Help text: name, summary, paper and options of every strategy. */
char *strategy_describe_all(void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(strategy_pipeline, strategy_pipeline_free)

G_END_DECLS
