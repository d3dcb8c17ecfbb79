/* jobs.h - the jobs file: several jobs for one network, each with its
 * input, allocation, mapping strategy and start time (INI, GKeyFile).
 *
 *   [jobs]          name, strategy, seed: defaults for every job (optional)
 *   [job NAME]      trace = T | matrix = M [counts = C];
 *                   alloc = POLICY:N[:SEED] | FILE, or nodes = 0-63 ...;
 *                   strategy = PIPELINE (default identity);
 *                   seed = N (of a randomized strategy, default 1);
 *                   start = TIME (default 0 s; units as in platform files)
 * Comments, repeated groups and keys as in study files (util/ini.h).
 * Jobs keep the file's order. Paths are relative to the file. A policy
 * (routing/alloc.h) picks from the nodes no earlier job holds: node lists
 * (`nodes =` or a node list FILE, routing/platform.h's format) are placed
 * first, then the policies in file order, as a scheduler that honours
 * reservations. A matrix job sends each of its edges as one message, all
 * at once (MPI_Irecv, MPI_Isend, one MPI_Waitall; sim/mix.c).
 *
 * Every problem of the file is reported at once with its line, before
 * anything runs (jobs_load); what needs the platform - node ids, policies,
 * capacity - is checked by jobs_place, again with the job's line.
 *
 * Ownership: jobs_load() returns a file freed with jobs_file_free();
 * jobs_place() returns allocations freed with jobs_placement_free().
 * Not for: running the jobs (sim/mix.h), allocation policies themselves
 * (routing/alloc.h).
 */
#pragma once

#include "routing/platform.h"

G_BEGIN_DECLS

#define JOBS_ERROR (jobs_error_quark())
GQuark jobs_error_quark(void);

typedef enum {
  JOBS_ERROR_FILE,      /* a bad jobs file (every problem in the message) */
  JOBS_ERROR_PLACE,     /* the jobs do not fit the platform */
  JOBS_ERROR_RUN,       /* a run of them deadlocked (sim/mix.h) */
} JobsError;

/* The latest start a jobs file may give (92 days; a mix of several ranks
 * must also keep its parallel cost, start x ranks, within int64 ps: the
 * mix checks that, naming the start's line). */
#define JOBS_MAX_START_S 8e6

typedef struct job_spec {
  char *name;
  int line;              /* of [job NAME] */
  char *trace_path;      /* a trace, or NULL */
  char *matrix_path;     /* a matrix, or NULL */
  char *counts_path;     /* its message counts, or NULL */
  char *alloc;           /* a policy or a node list file, or NULL (nodes given) */
  int alloc_line;        /* of the alloc or nodes key */
  char *nodes_text;      /* `nodes =` as written (read against a platform), or NULL */
  char *strategy;        /* pipeline, or NULL: identity */
  guint32 seed;
  int64_t start_ps;
  int start_line;        /* of the start key, 0 when absent */
} job_spec;

typedef struct jobs_file {
  char *path;
  char *name;            /* [jobs] name, or the file's name */
  int njobs;
  job_spec *jobs;
} jobs_file;

/* Reads and checks a jobs file (see the header paragraph). NULL and one
 * error listing every problem, "FILE:LINE: what, expected what". */
jobs_file *jobs_load(const char *path, GError **error);

/* The same from `text`, the content of `path` read elsewhere (a README's
 * example), its paths relative to `base_dir`. */
jobs_file *jobs_load_text(const char *path, const char *text, const char *base_dir,
                          GError **error);

void jobs_file_free(jobs_file *jf);

/* Where the jobs of a file go on one platform: each job's nodes, in the
 * order its ranks fill them, and the allocation as a user reads it
 * (`random:16:1`, `nodes 0-15`, `nodes.txt`). */
typedef struct jobs_placement {
  int njobs;
  int **nodes;
  int *nnodes;
  char **alloc_text;
} jobs_placement;

/* Places the jobs of `jf` on `p`. `policy` (may be NULL; POLICY or, for
 * a random one, POLICY:SEED) replaces the policy of every job allocated
 * by one (keeping its N and, without :SEED, its SEED): a study over
 * policies. A policy that draws nothing is shown without a seed
 * (`contiguous:16`). JOBS_ERROR_PLACE naming the file, the job's line and
 * what did not fit. */
jobs_placement *jobs_place(const jobs_file *jf, const platform *p, const char *policy,
                           GError **error);

/* A placement of a study over policies and draws: `policy` (NULL: each
 * job's own) replaces every policy-allocated job's policy, keeping its N
 * and - unless `seed` is not 0 - its SEED; on draw d (1: as written) a
 * job placed by a random policy draws with SEED + d - 1, so that draws
 * differ and draw 1 is the file's. */
typedef struct jobs_draw {
  const char *policy;   /* a policy name (static storage), or NULL */
  guint32 seed;         /* 0: each job's own SEED */
  guint32 draw;         /* >= 1 */
} jobs_draw;

/* `POLICY` or, for a random policy, `POLICY:SEED` (NULL: each job's own)
 * as a draw 1; FALSE and one line naming it otherwise. */
gboolean jobs_parse_policy(const char *text, jobs_draw *out, GError **error);

/* Does any job of `jf` get its nodes from a random policy under `policy`
 * (NULL: the jobs' own)? Only those mixes differ by draw. */
gboolean jobs_draws_at_random(const jobs_file *jf, const jobs_draw *policy);

/* jobs_place with a parsed policy and a draw. */
jobs_placement *jobs_place_draw(const jobs_file *jf, const platform *p, const jobs_draw *policy,
                                GError **error);

void jobs_placement_free(jobs_placement *pl);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(jobs_file, jobs_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(jobs_placement, jobs_placement_free)

G_END_DECLS
