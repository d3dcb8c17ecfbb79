/* report-private.h - what the files of the study report share: the page
 * being written, its sections and figures, labels, and the correlations of
 * the static metrics with the simulated time.
 *
 * A section of the page is one function taking the page; it opens with
 * rep_section_open() (an HTML <details> whose summary line is its heading
 * and a one-line gist, so the page folds to one screen) and draws its
 * figures through rep_stem() (file names from the input, platform and
 * strategy labels, unique within the page) and html_figure().
 *
 * Ownership: a rep_page holds the page text and the stems used; the
 * study is borrowed. Only for report/.
 */
#pragma once

#include "report/plot.h"
#include "study/study.h"

G_BEGIN_DECLS

typedef struct rep_page {
  GString *h;             /* the page */
  const study *s;
  const char *dir;        /* the report's folder */
  char *figdir;           /* dir/figures */
  plot_writer *fig;       /* writes into figdir; the page owns it */
  GHashTable *stems;      /* figure stems used so far */
} rep_page;

/* ---- text ---- */

void html_text(GString *h, const char *text);
void html_printf(GString *h, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* A section folded in <details> (open when `open`); `gist` (may be NULL)
 * follows the heading on the summary line. */
void rep_section_open(rep_page *pg, const char *id, const char *title, const char *gist,
                      gboolean open);
void rep_section_close(rep_page *pg);

/* The stem of a figure file: `kind` and the labels in `parts` (NULL
 * ended), each reduced to letters, digits, '.', '+' and '-', joined by
 * '_' ("links_stencil3d-64_torus-4x4x4_greedy+wh"); a stem already used on
 * the page gets "-2", "-3", ... Caller frees. */
char *rep_stem(rep_page *pg, const char *kind, const char *const *parts);

/* An embedded figure: the PNG (filled in when the page is finished), a link
 * to the SVG and the caption. */
#define PNG_MARK "@@png:"
gboolean html_figure(rep_page *pg, const char *stem, const char *caption, GError **error);

/* Header cells, one per platform with `after` appended, closing the row. */
void html_platform_heads(GString *h, const study *s, const char *after);

/* ---- labels and columns ---- */

plot_unit rep_unit_of(const field *f);
/* The field a column name ("pre_hop_bytes", "makespan_s") comes from. */
const field *rep_column_field(const char *column);
/* Does any cell of the study carry this column? */
gboolean rep_has_column(const study *s, const char *column);
/* A value of a column with 5 significant digits and its unit. */
void rep_value_text(char *buf, size_t n, const char *column, double v);
const char *rep_model_label(const study *s, int model);
/* "stencil3d-64, model flow" or "cg (matrix, static)" (caller frees). */
char *rep_context_label(const study *s, int input, int kind, int model);
/* Labels of the platforms and strategies for figures (caller frees the
 * arrays, not the strings). */
const char **rep_platform_labels(const study *s);
const char **rep_strategy_labels(const study *s);

/* ---- correlations (report-corr.c) ---- */

typedef struct corr {
  int input, kind, model, platform;
  const char *metric;   /* static column */
  int n;
  double rho, r;        /* NAN when undefined: why says why */
  double p;             /* rho's two-sided permutation p-value (stats_spearman_p), or NAN */
  const char *why;      /* "constant metric", "one strategy", "equal times", ... or NULL */
  double *x, *y;
  int *series;
} corr;

/* "energy" when the study ranks by an energy ([report] time = energy_j),
 * else "time": the word for the simulated outcome. */
const char *rep_outcome(const study *s);

/* The static columns the cells carry: "pre_" + every static field (and
 * the static energy proxies when the outcome is an energy). */
GPtrArray *rep_static_columns(const study *s);

/* Correlations of every static column with the time, per (trace input,
 * kind, model, platform), over the cells that ran (strategies x seeds):
 * blocks of (input, kind, model), each platform by platform, each
 * platform column by column. */
GPtrArray *rep_correlations(const study *s, GPtrArray *cols);

gboolean rep_write_correlations(const study *s, GPtrArray *cs, const char *dir, GError **error);

/* The section "Do the static metrics predict the simulated time?". */
gboolean rep_html_correlations(rep_page *pg, GPtrArray *cs, GPtrArray *cols, GError **error);

/* The verdict of one platform in a few words for the summary ("max_link_bytes,
 * ρ = 0.98, n = 9"; "too few points, n = 4"); NULL when nothing was
 * simulated. Caller frees. */
char *rep_verdict_short(const study *s, GPtrArray *cs, GPtrArray *cols, int input, int kind,
                        int model, int platform);

/* ---- the timeline (report-timeline.c) ---- */

/* The section "Timeline": input `input` under the best strategy of every
 * platform, replayed again with its records and link activity. */
gboolean rep_html_timeline(rep_page *pg, GPtrArray *groups, int input, GError **error);

/* report-jobs.c: the section on several jobs per run (a study's jobs and
 * policies), when the study has them. */
gboolean rep_html_jobs(rep_page *pg, GError **error);

G_END_DECLS
