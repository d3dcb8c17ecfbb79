/* report.h - what a study means, as one page people read at a glance: an
 * index.html beside results.csv, with every figure as PNG (embedded, so the
 * page stands alone: no network, no JavaScript) and SVG (in figures/).
 *
 * The page (korndoerfer2021 Section 7; deveci-geometric Fig. 12):
 *  - the strategies ranked per platform, with the change against identity;
 *  - when the study sweeps a platform value (study_sweeps), the ranking
 *    metric of every strategy against it: which mapping wins where;
 *  - pre vs post: whether each static metric predicts the simulated time,
 *    Spearman's rho and Pearson's r per platform (also correlations.csv),
 *    a verdict sentence per platform, and the scatter plots;
 *  - per platform each strategy's hop-bytes, max link load and simulated
 *    communication time against the identity line (Figs. 4-6);
 *  - the communication matrices as heat maps (Fig. 2);
 *  - the link loads of identity and of the best strategy drawn on the
 *    topology, and per dimension and direction (Fig. 12);
 *  - the pre/post check and the cells that failed.
 *
 * Ownership: the study is read only (a few cells are run again for their
 * per-link data). Not for: running studies (study/study.h).
 */
#pragma once

#include "study/study.h"

G_BEGIN_DECLS

/* Writes DIR/index.html, DIR/correlations.csv and DIR/figures/ (PNGs
 * encoded on `threads` threads), reporting "report" steps done/total to
 * `prog` (may be NULL; its stop ends the report "interrupted"); returns
 * the path of index.html (caller frees), or NULL + error. */
char *report_study(const study *s, const char *dir, int threads, const progress *prog,
                   GError **error);

/* `mapsim plot`: the pictures of runs from the JSON of `simulate --json`
 * or `metrics --json` (its "links"), all on platform `p`: each run's link
 * loads on the topology (by bytes, or busy time when `busy` and the runs
 * were simulated) as NAME-links, coloured on one scale from 0 to the
 * largest value of any run (each its own with `own_scale`; the figure says
 * which); the busiest link per dimension and direction of all runs side by
 * side (NAME1-vs-NAME2-directions, at most 8 runs drawn) and, when `g` is
 * given, the communication matrix (NAME1-matrix). Returns the number of
 * figures written, -1 on error. */
typedef struct report_run {
  JsonNode *json;
  const char *name;        /* file stem and label */
} report_run;

int report_plot_runs(const report_run *runs, int nruns, const platform *p, const commgraph *g,
                     gboolean busy, gboolean own_scale, const char *dir, GError **error);

/* The same for cells of a study (indices into s->cells, all of one
 * platform), run again for their per-link data; files are named
 * INPUT_PLATFORM_STRATEGY-links, and the matrix is the first cell's input. */
int report_plot_cells(const study *s, const int *cells, int ncells, gboolean busy,
                      gboolean own_scale, const char *dir, GError **error);

/* Is the run the JSON of `simulate --jobs --json` (it has "jobs")? */
gboolean report_is_jobs_run(const report_run *run);

/* Its jobs' pictures (report/figures.h): NAME-jobs-links (the busiest
 * links' bytes by job), NAME-slowdown and, when the run has it,
 * NAME-interference. Returns the number of figures, -1 on error. */
int report_plot_jobs(const report_run *run, const platform *p, const char *dir, GError **error);

/* What `mapsim plot` reads, checked before anything is drawn
 * (plot-inputs.c), so that a file lacking a member, or holding another
 * type there, ends in one error naming the file, the member's path and
 * what it should be - and no figure is written:
 *  - report_plot_check_platform: the top level an object, its
 *    "platform" (if any) a spec or an object with a "source" spec;
 *  - report_plot_check: a run's "links" (each "link" an id of p, its
 *    bytes and busy time numbers; busy times present for `busy`), its
 *    "provenance", and for a jobs run "jobs", each link's "job_bytes" (one
 *    integer per job) and "interference" (n rows of n numbers);
 *  - report_plot_check_timeline: a --timeline file's "traceEvents": the
 *    ranks' slices (ph X: tid, ts, dur) and the links' counters (ph C:
 *    name, ts, a numeric args member). */
gboolean report_plot_check_platform(const char *file, JsonNode *root, GError **error);
gboolean report_plot_check(const char *file, const report_run *run, const platform *p,
                           gboolean busy, GError **error);
gboolean report_plot_check_timeline(const char *file, JsonNode *root, GError **error);

/* Is `root` a Chrome Trace Event file (it has "traceEvents")? */
gboolean report_is_timeline(JsonNode *root);

/* What a run shows, from its "provenance" (simulate --json): "cg-16
 * mapped by greedy (model flow)" (and the seed when not 1), "the jobs of
 * halves.ini (model flow)"; the run's name without one (caller frees). */
char *report_run_label(const report_run *run);

/* A checked --timeline file (`file` names it in the title) as
 * NAME-timeline (fig_timeline): at most 64 ranks, evenly spaced, and the
 * first 8 link tracks of the file. Returns the number of figures (1), -1
 * on error. */
int report_plot_timeline(JsonNode *root, const char *file, const char *name, const char *dir,
                         GError **error);

/* Frees the process-wide font caches of the figures; call once when no
 * more reports or plots will be drawn. */
void report_release(void);

G_END_DECLS
