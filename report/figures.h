/* figures.h - the report's figures, each written as DIR/STEM.png and
 * DIR/STEM.svg (plot.h), from plain data so that `mapsim plot` and the
 * study report draw the same pictures.
 *
 *  - fig_matrix: the communication matrix as heat maps of message counts
 *    and bytes, receivers across, senders down, rank 0 top left, white
 *    where nothing is sent (korndoerfer2021 Fig. 2).
 *  - fig_groups: per platform, each strategy's value of a few metrics as
 *    markers (circles: mapped by bytes, triangles: by message counts), the
 *    reference (identity) as a green line (korndoerfer2021 Figs. 4-6).
 *  - fig_links: one mapping's load on every link of the topology: one panel
 *    per Z plane of a 3D mesh/torus (Z links as arrows at the nodes), HAEC
 *    boards with the wireless links between neighbouring boards;
 *    switch-based networks by fig_network; graphs and other topologies as
 *    a ranked bar chart of their links.
 *  - fig_network: a dragonfly as groups, a fat tree or Slurm's tree by
 *    level, a HyperX by dimension (the matrices of netview.h).
 *  - fig_directions: per dimension and direction (per link class on
 *    switch-based networks) the busiest link's bytes
 *    and its bytes / bandwidth (static: no contention), normalised to the
 *    first mapping's first direction (deveci-geometric Fig. 12 calls them
 *    Data and Latency).
 *  - fig_scatter: each static metric against the simulated time, one row
 *    per metric and one column per platform, with Spearman's rho, Pearson's
 *    r and n in each panel (or why they are undefined).
 *  - fig_sweep: the ranking metric against a swept platform parameter, one
 *    line per strategy, the best strategy named under each value (the
 *    co-design question: which mapping wins at which bandwidth).
 *  - fig_timeline: a replayed run over time, one row per rank coloured by
 *    what it does (computation, point-to-point, collective, other MPI), and
 *    under it the throughput of a few links as steps, from zero
 *    (report-timeline.c).
 *
 *  - fig_jobs_links, fig_jobs_slowdown, fig_jobs_interference: several jobs
 *    on one network (sim/mix.h): the busiest links' bytes stacked by job,
 *    each job's slowdown (per variant: policies, networks) with a line at
 *    1, the interference matrix as a heat map with its values.
 *
 * Axes of values start at zero, or are marked broken (plot_zero_range);
 * category labels that do not fit are rotated.
 *
 * Ownership: the functions read their arguments only. Not for: deciding
 * what a study shows (report.c).
 */
#pragma once

#include "routing/platform.h"
#include "report/plot.h"
#include "traces/commgraph.h"

G_BEGIN_DECLS

gboolean fig_matrix(plot_writer *out, const char *stem, const char *title, const commgraph *g,
                    GError **error);

/* A value of one series (strategy) in one group (platform). */
typedef struct fig_point {
  int group, series;
  gboolean alt_marker;     /* triangle instead of circle */
  double value;
} fig_point;

typedef struct fig_metric {
  const char *title;       /* e.g. "hop-bytes (static)" */
  plot_unit unit;
  const fig_point *points;
  int npoints;
  const double *reference; /* per group, NAN: none */
} fig_metric;

typedef struct fig_groups_data {
  const char *title;
  const char *const *groups;   /* platform labels */
  int ngroups;
  const char *const *series;   /* strategy labels */
  int nseries;
  const char *reference_label; /* e.g. "identity", or NULL */
  const char *alt_label;       /* what triangles mean, or NULL when none are drawn */
  const fig_metric *metrics;
  int nmetrics;
} fig_groups_data;

gboolean fig_groups(plot_writer *out, const char *stem, const fig_groups_data *d,
                    GError **error);

/* value[l] per link (bytes or seconds) coloured from 0 to vmax: vmax is
 * shared between figures to be compared (<= 0: this figure's own maximum),
 * and `scale` (a line under the title, may be NULL) says which it is. */
gboolean fig_links(plot_writer *out, const char *stem, const char *title, const platform *p,
                   const double *value, double vmax, plot_unit unit, const char *what,
                   const char *scale, GError **error);

/* fig_links' figure for a dragonfly, fat tree, HyperX or tree of switches
 * (the same arguments). */
gboolean fig_network(plot_writer *out, const char *stem, const char *title, const platform *p,
                     const double *value, double vmax, plot_unit unit, const char *what,
                     const char *scale, GError **error);

/* Per-link bytes of `nsets` mappings on platform p (labels name them). */
gboolean fig_directions(plot_writer *out, const char *stem, const char *title,
                        const platform *p, const int64_t *const *link_bytes,
                        const char *const *labels, int nsets, GError **error);

typedef struct fig_scatter_panel {
  const double *x, *y;     /* static metric, simulated time */
  const int *series;       /* colour index per point */
  int n;
  double rho, r;
  const char *why;         /* why rho and r are undefined, or NULL */
} fig_scatter_panel;

typedef struct fig_scatter_data {
  const char *title;
  const char *const *rows;     /* static metric names */
  int nrows;
  const char *const *columns;  /* platform labels */
  int ncolumns;
  const plot_unit *row_units;
  const char *y_label;
  plot_unit y_unit;
  const fig_scatter_panel *panels; /* nrows x ncolumns, row-major */
  const char *const *series;       /* legend */
  int nseries;
  const char *note;                /* a line under the panels, or NULL */
} fig_scatter_data;

gboolean fig_scatter(plot_writer *out, const char *stem, const fig_scatter_data *d,
                     GError **error);

typedef struct fig_sweep_data {
  const char *title;
  const char *x_label;         /* the swept key with its unit */
  plot_unit x_unit;
  const double *x;             /* the swept values, ascending */
  int nx;
  const char *y_label;
  plot_unit y_unit;
  const char *const *series;   /* strategy labels */
  int nseries;
  const double *y;             /* nseries x nx, row-major; NAN: no value */
} fig_sweep_data;

/* The SVG also carries the title and both axis labels as its <title> and
 * <desc> (cairo draws text as glyphs). */
gboolean fig_sweep(plot_writer *out, const char *stem, const fig_sweep_data *d, GError **error);

enum { FIG_TL_COMPUTE, FIG_TL_P2P, FIG_TL_COLL, FIG_TL_OTHER, FIG_TL_NCLASSES };

/* A stretch of one rank's time spent in one class (FIG_TL_*). */
typedef struct fig_tl_slice {
  double t0, t1;  /* seconds */
  int cls;
} fig_tl_slice;

typedef struct fig_timeline_data {
  const char *title;
  double end_s;                        /* the time axis: 0 to end_s */
  int nrows;
  const char *const *row_labels;       /* "rank 12" */
  const int *row_nslices;
  const fig_tl_slice *const *rows;
  int ntracks;                         /* link throughput, piecewise constant */
  const char *const *track_labels;
  const int64_t *track_n;
  const double *const *track_t;        /* seconds: value i from t[i] to t[i + 1] */
  const double *const *track_v;        /* bytes/s */
  const char *note;                    /* a line under the figure, or NULL */
} fig_timeline_data;

gboolean fig_timeline(plot_writer *out, const char *stem, const fig_timeline_data *d,
                      GError **error);

typedef struct fig_jobs_links_data {
  const char *title;
  const platform *p;
  const char *const *names;    /* the jobs */
  int njobs;
  const int64_t *const *bytes; /* njobs arrays of p's nlinks: each job's bytes per link */
} fig_jobs_links_data;

gboolean fig_jobs_links(plot_writer *out, const char *stem, const fig_jobs_links_data *d,
                        GError **error);

typedef struct fig_jobs_slowdown_data {
  const char *title;
  const char *const *jobs;
  int njobs;
  const char *const *series;   /* variants (policies), NULL for one */
  int nseries;                 /* >= 1 */
  const double *slowdown;      /* nseries x njobs, row-major; NAN: none */
  const double *lo, *hi;       /* the same: the range over draws (a whisker), or NULL */
} fig_jobs_slowdown_data;

gboolean fig_jobs_slowdown(plot_writer *out, const char *stem, const fig_jobs_slowdown_data *d,
                           GError **error);

typedef struct fig_jobs_interference_data {
  const char *title;
  const char *const *jobs;
  int njobs;
  const double *matrix;        /* njobs x njobs: [i * njobs + j] job i next to job j */
} fig_jobs_interference_data;

gboolean fig_jobs_interference(plot_writer *out, const char *stem,
                               const fig_jobs_interference_data *d, GError **error);

G_END_DECLS
