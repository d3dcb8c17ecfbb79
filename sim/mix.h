/* mix.h - several jobs replayed at once on one network: their slowdowns
 * and how they interfere.
 *
 * A mix is a jobs file (sim/jobs.h) on one platform. Each job gets its
 * nodes (jobs_place), its ranks are mapped inside them by its strategy
 * (on a platform_with_allocation view), and all jobs' traces become one
 * trace (job j's rank r is rank first + r; its communicators, regions and
 * peers renumbered) replayed through one network model, each job's ranks
 * starting at its start time (replay_opts.start_ps). Then, on the same
 * allocation, mapping and start times:
 *  - every job alone (the union with only its records), its `alone`
 *    makespan; slowdown = makespan in the mix / alone (1 when both are 0);
 *  - with `pairs`, every pair of jobs alone together: the interference
 *    matrix, entry (i, j) the slowdown of job i in a run with job j alone
 *    (the pairwise interference of Yang et al., "Watch out for the
 *    bully! Job interference study on dragonfly network", SC16);
 *  - the static view of each job (its traffic along its routes; ranks are
 *    numbered as in the union, so keyed routings take the same paths in
 *    every run) checked against its alone run (pre == post per job), and
 *    the union's against the mix (pre == post for the union);
 *  - per job the bytes it puts on links another job uses too.
 * A job's makespan is its last rank's finish minus its start. Link loads
 * by job are each job's static bytes per link (exact for the oblivious
 * routings, whose mix carries their sum: the union check holds).
 *
 * Memory: the jobs' traces are read into memory once and joined without
 * copying their records; alone and pair runs are views of the union. The
 * replay's hot path is the one-job replay's (nothing per event).
 * Deterministic: runs are independent; threads only share read-only
 * inputs and write their own slots.
 *
 * Ownership: mix_run() borrows its inputs and returns a result freed with
 * mix_result_free(); the result's platforms (the union's, each job's)
 * borrow `p`'s topology, links and model, so `p` must outlive it.
 * Not for: printing (cli/), figures (report/).
 */
#pragma once

#include "sim/jobs.h"
#include "sim/run.h"

G_BEGIN_DECLS

typedef struct mix_opts {
  const struct netmodel_ops *model;
  replay_opts opts;          /* compute_scale, collectives (start_ps is the mix's) */
  const char *policy;        /* replaces every job's allocation policy (POLICY[:SEED]), or NULL */
  guint32 draw;              /* of the random policies (jobs_draw): 1 the file's seeds */
  gboolean pairs;            /* the interference matrix: one run per pair of jobs */
  int threads;               /* alone and pair runs at once (1: one after the other) */
  const progress *progress;  /* "jobs: runs" done of all; stop = "interrupted" */
} mix_opts;

/* Defaults: model flow, pairs, 1 thread, draw 1, replay_opts_init(). */
void mix_opts_init(mix_opts *o);

typedef struct mix_job {
  const char *name;          /* borrowed from the jobs file */
  char *alloc;               /* the allocation as the user reads it */
  const char *strategy;      /* "identity" or the pipeline (borrowed) */
  int first, ranks;          /* union ranks first .. first + ranks - 1 */
  platform *p;               /* its allocation (a view of the mix's platform; its nodes in
                              * the order its ranks fill them), owned */
  int64_t start_ps;
  int64_t makespan_ps;       /* in the mix */
  int64_t alone_ps;          /* alone on the same allocation */
  double slowdown;           /* makespan / alone (1 for a job that takes no time) */
  int64_t link_bytes;        /* sum over links of its bytes (static) */
  int64_t shared_bytes;      /* of them on links another job uses too */
  double map_seconds;
  metrics *pre;              /* static, over the union's links */
  metrics *post;             /* from its alone run */
  int mismatch;              /* run_first_mismatch(pre, post) */
} mix_job;

/* The numbers of a job, in output order (names of `simulate --jobs
 * --json`'s jobs[]). */
extern const field mix_job_fields[];
extern const int mix_job_nfields;

typedef struct mix_result {
  int njobs;
  mix_job *jobs;
  int nranks;
  gboolean with_colls;       /* static views count collective messages too */
  const platform *p;         /* the union's allocation (owned) */
  mapping *m;                /* union rank -> node */
  replay_result *r;          /* the mix */
  metrics *pre, *post;       /* the union */
  int mismatch;
  double *interference;      /* njobs x njobs, [i * njobs + j]; NULL without pairs */
  int runs;                  /* replays made */
  double replay_seconds;     /* wall time of all of them */
} mix_result;

/* Places, maps and replays the jobs of `jf` on `p` (see the header).
 * NULL + error when they do not fit, a job's input cannot be read, a run
 * fails, deadlocks (JOBS_ERROR_RUN naming the stuck ranks) or is
 * interrupted. */
mix_result *mix_run(const jobs_file *jf, const platform *p, const mix_opts *o, GError **error);

/* Link l's bytes of job j (its static view). */
static inline int64_t mix_link_bytes(const mix_result *r, int j, int l)
{
  return r->jobs[j].pre->link_bytes[l];
}

/* What a reader must know to read a mix's slowdowns, one sentence each
 * (static strings): mix_model_note, NULL but under a contention-free
 * model (analytic), where jobs cannot slow each other - every slowdown
 * is 1 by construction; mix_faster_note, for a slowdown below 1 (a job
 * faster next to the others than alone): the model's, not a measuring
 * error. */
const char *mix_model_note(const struct netmodel_ops *model);
const char *mix_faster_note(void);

/* Whether pre == post held for the union and every job alone. */
static inline gboolean mix_result_matches(const mix_result *r)
{
  gboolean ok = r->mismatch < 0;
  for (int j = 0; j < r->njobs; j++)
    ok = ok && r->jobs[j].mismatch < 0;
  return ok;
}

void mix_result_free(mix_result *r);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(mix_result, mix_result_free)

G_END_DECLS
