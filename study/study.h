/* study.h - what-if studies: the full factorial of inputs x matrix kinds x
 * platforms x strategies x models x seeds, each cell one run (sim/run.h),
 * on a thread pool, resumable, splittable into slices for a batch system.
 *
 * korndoerfer2021 Section 7 and Table 5 (4 applications x 12 mappings x 2
 * matrix kinds x 3 topologies): for every cell the mapping, the static
 * metrics and, when the input is a trace, the replay with its post metrics
 * and the pre == post check.
 *
 * A study comes from a study file (study_load; the format is in
 * study/file.c, `mapsim study --help` and the README), or is built in code
 * (study_new_grid, for `compare`). Loading checks everything a run needs before any cell runs -
 * files exist, platforms load, strategies and models exist, every input
 * fits every platform - and reports every problem with its line. Before
 * any of that it counts the cells and mixes from the file's entries and
 * refuses more than STUDY_MAX_CELLS or than the memory budget holds
 * (study/size.c).
 *
 * Cells: cell i is the i-th combination in the order input, kind, platform,
 * strategy, model, seed (the last fastest). Static inputs (matrices) have
 * no model: their cells run once per seed. Each cell's result is a row
 * (sim/row.h) with the same names as `metrics --json` / `simulate --json`:
 * input, kind, platform, strategy, model, seed, error, map_s, pre.*, the
 * simulated fields, the model's statistics, post.*, pre_post_match,
 * objective (what chose the mapping among candidates, null when no step
 * chose by one), map_replays (the strategy's replays), traffic, key - built
 * and, when read back, checked by one table of its parts
 * (study/cell-row.h). The results files add each cell's rank
 * (study_write_results).
 *
 * Determinism: a cell's result depends on its own inputs only (strategies
 * and Scotch are seeded per run), cells write only their own slot, so the
 * results are the same for any thread count; only map_s (the strategy's
 * wall time) is a measurement.
 *
 * Resume: a cell's key is a SHA-256 of everything that determines its
 * result (input file contents, platform file contents and the files it
 * names, kind, strategy, model, seed, replay options, mapsim's version and
 * the result's field names); labels are not in it. With a store folder,
 * each finished cell is appended at once to a log of this process,
 * STORE/cells/cells-G<generation>-HOST-PID.jsonl (the generation one more
 * than the newest log's), one line per cell, and synced (cells that finish
 * while the log is being synced share the next sync). A line is the
 * compact JSON {"key":KEY,"row":ROW} (ROW: row_to_record) with the member
 * ,"sum":HEX added before its closing brace, HEX the SHA-256 of the line
 * without it. Cells found in the logs are not run again: an interrupted
 * study continues where it stopped, an edited study file reruns only the
 * cells whose key changed. Reading: logs are regular files of at most a
 * quarter of the memory budget (anything else stops the study with one
 * line); later generations and later lines win; a record is used only when
 * its checksum holds and its row has the columns, kind, model, seed, traffic
 * and key of its cell (study_row_check, by the table that builds rows) -
 * otherwise it is damaged, s->notes gets one line per log
 * and its cell runs again. A last line cut short (a crash mid-write) is
 * ignored silently. Labels come from the study file, not from the record,
 * so renaming one relabels stored cells. Cells of one key (two labels on
 * the same content) run once and share their row. Results that depend on
 * the run rather than the cell - an interruption, an internal error, the
 * memory budget - are never stored.
 *
 * Several jobs per run: a study file's `jobs = FILE; ...` (jobs files,
 * sim/jobs.h) and `policies = contiguous; random ...` (allocation policies
 * every job allocated by one gets) add mixes (sim/mix.h): every jobs file
 * x platform x policy x model, run after the cells, their rows in
 * jobs.csv and jobs.json, their figures in the report.
 *
 * Ownership: a study owns its inputs, platforms and cells; free it with
 * study_free(). Threads: study_run() runs cells in parallel; nothing else
 * may touch the study meanwhile.
 * Not for: printing (cli/), the report (report/).
 */
#pragma once

#include "sim/mix.h"
#include "sim/row.h"
#include "sim/run.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define STUDY_ERROR (study_error_quark())
/* inline, so that every file of the folder can raise it without calling
 * the file that would otherwise define it */
static inline GQuark study_error_quark(void)
{
  return g_quark_from_static_string("study-error-quark");
}

typedef enum {
  STUDY_ERROR_FILE,        /* a bad study file (every problem in the message) */
  STUDY_ERROR_STORE,       /* the output folder: unreadable, unwritable */
  STUDY_ERROR_MISSING,     /* results of some cells are missing (merge) */
  STUDY_ERROR_BUSY,        /* another process holds the output folder's lock */
} StudyError;

/* The weights a strategy maps by (korndoerfer2021 Table 5 "mapping
 * input"); static metrics always count bytes. */
typedef enum {
  STUDY_KIND_BYTES,
  STUDY_KIND_COUNT,
} study_kind;

const char *study_kind_name(study_kind k);

typedef struct study_input {
  char *label;
  int line;                  /* in the study file, 0 when built in code */
  char *trace_path;          /* a trace, or NULL */
  char *matrix_path;         /* a matrix, or NULL */
  char *counts_path;         /* its message counts, or NULL */
  char *coords_path;         /* task coordinates, or NULL */
  int nkinds;
  study_kind kinds[2];
  /* loaded */
  trace *t;                  /* NULL for matrices */
  commgraph *g;              /* bytes (and messages when known): the traffic metrics count */
  gboolean g_collectives;    /* g holds the trace's collective messages too */
  commgraph *g_count;        /* weights = message counts, or NULL */
  double *coords;
  int coord_dims;
  char hash[65];             /* of the files' contents */
} study_input;

typedef struct study_platform {
  char *label;
  int line;
  char *spec;                /* file or shorthand */
  char *alloc;               /* allocation override, or NULL */
  int cores;                 /* cores override, or 0 */
  char *fill;                /* fill policy override (pack, spread), or NULL */
  char **sets;               /* GROUP.KEY=VALUE overrides of platform keys, or NULL */
  platform *p;               /* NULL when it did not load (error) */
  GError *error;
  char hash[65];
  /* a platform of a sweep (util/sweep.h): the entry of the study file (or
   * of compare's -p) it was expanded from, and the values it takes */
  int entry;
  int nswept;
  struct study_swept {
    char *key;               /* what was swept (bw, linktype.wireless.bandwidth), or NULL */
    char *value;             /* as written (25e9, 100Gbit/s) */
  } *swept;
} study_platform;

typedef struct study_strategy {
  char *label;
  int line;
  char *pipeline;            /* NULL: identity */
} study_strategy;

typedef struct study_cell {
  int input, kind, platform, strategy, model, seed; /* indices; model -1: static */
  char key[65];
  result_row *row;                  /* the result (fresh or read from the store) */
  run_result *res;           /* kept only with study.keep_results */
  GError *error;             /* this cell failed (the others still ran) */
  gboolean stored;           /* read from the store, not run */
  gboolean ran;              /* run in this study_run */
} study_cell;

/* Report settings of a study file ([report] group). */
typedef struct study_report_opts {
  char *time;                /* simulated field ranked and correlated (default makespan_s) */
  char *rank_static;         /* static field ranking matrix inputs (default hop_bytes) */
  char *links_input;         /* input whose link loads are drawn, or NULL: the first */
  gboolean color_busy;       /* links coloured by busy time instead of bytes */
} study_report_opts;

typedef struct study {
  char *name;
  char *path;                /* the study file, or NULL */
  char *text;                /* its content, or NULL */
  char *base_dir;            /* relative paths in the file start here */
  int ninputs, nplatforms, nstrategies, nmodels, nseeds;
  study_input *inputs;
  study_platform *platforms;
  study_strategy *strategies;
  const struct netmodel_ops **models;
  guint32 *seeds;
  replay_opts opts;          /* compute_scale, collectives (owned copy) */
  study_report_opts report;
  int ncells;
  study_cell *cells;
  gboolean keep_results;     /* keep each cell's run_result (compare) */
  gboolean borrowed_trace;   /* the input's trace belongs to the caller */
  GPtrArray *notes;          /* warnings about the store (damaged records), one line each */
  /* several jobs per run (study/jobs.c): every jobs file x platform x policy x model */
  int njobfiles;
  jobs_file **jobfiles;      /* [study] jobs */
  int npolicies;             /* [study] policies; 0: each job's own */
  char **policies;
  int *mix_draws;            /* [jobs file * MAX(npolicies, 1) + policy]: nseeds when a job
                              * is placed at random, else 1 */
  mix_result **mixes;        /* study_nmixes(s) results after study_run, or NULL */
  GError **mix_errors;       /* the same: why a mix failed */
  /* during study_run */
  const progress *prog;
  gint done, to_run;
} study;

/* Platforms of one entry of a study that differ in the value of one
 * numeric key only: a sweep the report plots the ranking metric against
 * (study_sweeps). */
typedef struct study_sweep {
  char *key;                 /* bw, linktype.wireless.bandwidth, model.envelope */
  units_quantity quantity;   /* of the key (routing/platform.h) */
  int n;
  int *platforms;            /* by ascending value */
  double *values;            /* in the quantity's unit (bytes/s, s, bytes) */
  char *fixed;               /* the entry's other swept values, "key=value ..."; "" when none */
  char *unit;                /* the unit every value was written in ("Gbit/s"), or NULL:
                              * none, or not the same for all */
  double per_unit;           /* the quantity's units in one `unit` (1.25e8 for Gbit/s) */
} study_sweep;

/* The [report] group's keys, an example value and what each means, as
 * lines for --help (caller frees); the reader checks the same table. */
char *study_report_help(void);

/* Every sweep of the study with at least two values, in the order of the
 * platforms; caller frees with g_ptr_array_unref(). */
GPtrArray *study_sweeps(const study *s);

/* Reads and checks a study file. Relative paths are taken from the file's
 * folder, or from `base_dir` when given (a built-in study). On any problem:
 * NULL and one error whose message lists every problem, one per line,
 * "FILE:LINE: what was wrong, expected what". `text` (may be NULL) is the
 * file's content when it does not come from disk. */
study *study_load(const char *path, const char *text, const char *base_dir, GError **error);

/* Platforms of a study built in code, with the overrides every one gets
 * (NULL/0: keep the platform's own). */
typedef struct study_grid_platforms {
  const char *const *specs;
  int n;
  const char *alloc;
  int cores;
  const char *fill;
  const char *const *sets;
} study_grid_platforms;

/* A study in code: one input - a trace `t` (borrowed, must outlive the
 * study), or, when t is NULL, a communication graph `g` (taken: static
 * cells only) - on every platform x strategy with one model and seed. For a
 * trace, `collectives` (NULL: auto) is the --collectives spec of the replay
 * and of the traffic the static metrics count. A platform that does not
 * load fails its cells. */
study *study_new_grid(const trace *t, commgraph *g, const char *label,
                      const study_grid_platforms *platforms, const char *const *strategies,
                      int nstrategies, const struct netmodel_ops *model, guint32 seed,
                      const char *collectives, GError **error);

/* The most cells (and, apart, mixes) a study may have: 2^20, a million
 * runs, beyond what a study runs in a day; checked - with the memory its
 * rows will take, STUDY_CELL_BYTES a cell - before anything of the study
 * is loaded (study --check refuses 2^32 cells at once). */
#define STUDY_MAX_CELLS (1 << 20)

/* What one cell costs while the study runs and writes its results: its
 * row of about 66 columns as JSON values and CSV texts, and its share of
 * results.json (measured: 8,000 cells of a replayed trace take 360 MB more
 * than one cell, 45 KiB a cell). */
#define STUDY_CELL_BYTES (48 * 1024)

/* The most slices a study is cut into (2^20: beyond any job array). */
#define STUDY_MAX_SLICES (1 << 20)

/* One slice of the cells: those with index % n == k - 1 (1 <= k <= n). */
typedef struct study_slice {
  int k, n;
} study_slice;

/* Parses "K/N"; FALSE + error otherwise. */
gboolean study_parse_slice(const char *text, study_slice *out, GError **error);

/* Cells of `slice` (NULL: all). */
gboolean study_in_slice(const study_slice *slice, int cell);

/* The lock of an output folder (a file descriptor holding fcntl locks). */
typedef struct study_lock study_lock;

/* Locks the output folder `dir` (created when missing) for this process
 * through the lock file DIR/study.lock: alone, or, for a `slice`, shared
 * with the other slices but alone for its own K/N. When another process
 * holds it: STUDY_ERROR_BUSY naming the holder's pid, or with `wait` a
 * poll every 50 ms until it is free or `prog` says stop (then
 * "interrupted"). Once locked, the temporaries a killed run left in the
 * folder and its figures/ (those whose process is gone, util/output.h)
 * are removed. Other processes see the folder locked until study_unlock()
 * or this process ends. */
study_lock *study_lock_dir(const char *dir, const study_slice *slice, gboolean wait,
                           const progress *prog, GError **error);
void study_unlock(study_lock *l);

/* Runs the cells of `slice` (NULL: all) on `threads` worker threads,
 * reporting "cells" to `prog` (may be NULL); once prog says stop, cells not
 * started yet fail with "interrupted". With a `store` folder, cells stored
 * there are read instead of run (unless `fresh`), and every finished cell
 * is stored; the caller holds the folder's lock (study_lock_dir) when
 * other processes may use it. FALSE only for errors of the whole study
 * (the store cannot be read or written); a failing cell records its own
 * error. */
gboolean study_run(study *s, const study_slice *slice, int threads, const char *store,
                   gboolean fresh, const progress *prog, GError **error);

/* Runs one cell and returns its full result (per-link data, per-rank
 * times): what its row was made from, for a closer look (the report). */
run_result *study_cell_run(const study *s, const study_cell *c, GError **error);

/* The same, keeping the simulated run's records (out_trace) and the
 * links' activity in `links` (models/linkrec.h): for timelines. */
run_result *study_cell_rerun(const study *s, const study_cell *c, linkrec *links,
                             GError **error);

/* Reads stored results of cells not yet done from `store` (merging the
 * slices of a batch run). Returns how many cells are still missing, or -1
 * + error when the store cannot be read. */
int study_collect(study *s, const char *store, GError **error);

/* results.csv and results.json of the cells of `slice` (NULL: all) into
 * `dir` as `stem`.csv and `stem`.json, each written atomically: every
 * cell's row and, for the whole study (not a slice: its groups are
 * incomplete), the column rank - the cell's rank among the strategies of
 * its (input, kind, platform, model, seed) by the report's ranking metric
 * and rule (study/rank.h: equal results share the lower rank, 1, 1, 3;
 * null when the cell has no value). Cells without a row are an error
 * (STUDY_ERROR_MISSING). */
gboolean study_write_results(const study *s, const study_slice *slice, const char *dir,
                             const char *stem, GError **error);

/* Writes DIR/study.ini (resolved), DIR/study.sbatch (a job array of
 * `nslices` tasks, each running `mapsim study DIR/study.ini -o DIR --slice
 * K/N` with `cpus` threads) and DIR/logs/. `exe` is the mapsim binary the
 * tasks run. */
gboolean study_emit_slurm(const study *s, const char *dir, const char *exe, int nslices,
                          int cpus, GError **error);

/* "108 cells: 4 inputs (4 traces), 3 platforms, 9 strategies, model flow,
 * seed 1" (caller frees). */
char *study_describe(const study *s);

/* The model's name of a cell, NULL for a static cell. */
const char *study_cell_model_name(const study *s, const study_cell *c);

/* The cell of these coordinates (model -1 or any for static inputs). */
study_cell *study_cell_at(const study *s, int input, int kind, int platform, int strategy,
                          int model, int seed);

/* Models of an input's cells: s->nmodels for traces, 1 (static) for matrices. */
int study_input_nmodels(const study *s, int input);

/* The mixes of a study's jobs files (several jobs per run, sim/mix.h):
 * mix i is the i-th combination in the order jobs file, platform, policy,
 * draw, model (the last fastest). A jobs file and policy that place a job
 * at random has one draw per study seed (jobs_draw: seed S draws with
 * each job's SEED + S - 1); one that draws nothing runs once. */
typedef struct study_mix_key {
  int jobs, platform, policy, model;
  int seed;                  /* index into s->seeds, or -1: nothing drawn at random */
} study_mix_key;

int study_nmixes(const study *s);
void study_mix_at(const study *s, int i, study_mix_key *k);
/* The policy of mix k, or NULL: each job's own. */
const char *study_mix_policy(const study *s, const study_mix_key *k);
/* The draws of jobs file f under policy k (1: nothing drawn at random). */
int study_mix_draws(const study *s, int f, int k);

/* Runs every mix (study_run does, after its cells, unless it runs a
 * slice) on `threads` threads, reporting "mixes" to `prog`; a failing mix
 * keeps its error (s->mix_errors), the others run. FALSE only when
 * interrupted. Mixes are not stored: a resumed study runs them again. */
gboolean study_run_jobs(study *s, int threads, const progress *prog, GError **error);

/* jobs.csv and jobs.json of the mixes into `dir` (nothing without mixes):
 * one row per job - jobs, platform, policy, model, seed (the draw; null
 * where nothing is drawn), error, job, allocation, strategy,
 * mix_job_fields, pre_post_match. */
gboolean study_write_jobs(const study *s, const char *dir, GError **error);

/* The grid's dimensions, in the order of s->cells (outermost first). */
typedef enum {
  STUDY_DIM_INPUT, STUDY_DIM_KIND, STUDY_DIM_PLATFORM, STUDY_DIM_STRATEGY, STUDY_DIM_MODEL,
  STUDY_DIM_SEED, STUDY_NDIMS,
} study_dim;

/* A walk over the grid's coordinates, the one way to loop over it: the
 * dimensions named in `dims` (letters i k p s m d for input, kind,
 * platform, strategy, model, seed; outermost first, the input before
 * kinds and models, whose counts are the current input's) run over their
 * values, the others stay where `from` puts them (NULL: 0). at[] holds
 * the coordinates as study_cell_at takes them (model 0 .. nmodels - 1,
 * one model for a matrix):
 *   study_walk w;
 *   for (study_walk_start(&w, s, "ikmp", NULL); study_walk_next(&w);)
 *     ... w.at[STUDY_DIM_PLATFORM] ... study_walk_cell(&w) ...  */
typedef struct study_walk {
  const study *s;
  int at[STUDY_NDIMS];
  int dims[STUDY_NDIMS], ndims;
  gboolean started;
} study_walk;
void study_walk_start(study_walk *w, const study *s, const char *dims, const int *from);
gboolean study_walk_next(study_walk *w);
study_cell *study_walk_cell(const study_walk *w);

/* The files one run writes in a study folder DIR (study/output.c): from
 * study_outputs_begin() on, every file published under DIR outside cells/
 * is recorded. study_outputs_end() with `complete` (results and report,
 * or results under --no-report, all written) removes what the previous
 * run listed in DIR/manifest.txt and this one did not write, and every
 * file of DIR/figures/ it did not write, then lists this run's files in
 * DIR/manifest.txt; without `complete` (a failed report) it removes an
 * older DIR/index.html the run did not replace and lists the rest for the
 * next run. Frees `o`. One at a time per process. */
typedef struct study_outputs study_outputs;
study_outputs *study_outputs_begin(const char *dir);
gboolean study_outputs_end(study_outputs *o, gboolean complete, GError **error);

/* Writes `data` to `path` atomically (util/output.h's output_write_all). */
gboolean study_write_file(const char *path, const char *data, gsize len, GError **error);

void study_free(study *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(study, study_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(study_lock, study_unlock)

G_END_DECLS
