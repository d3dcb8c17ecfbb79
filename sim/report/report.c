/* report.c - the study report: rankings, correlations and verdicts,
 * figures, index.html (see report.h). */
#include "sim/report/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/figures.h"
#include "sim/report/rank.h"
#include "sim/report/stats.h"
#include "util/output.h"

/* ---- helpers ---- */

static plot_unit unit_of(const field *f)
{
  return f && f->unit == FIELD_SECONDS ? PLOT_SECONDS : PLOT_NUMBER;
}

/* The field a column name ("pre_hop_bytes", "makespan_s") comes from. */
static const field *column_field(const char *column)
{
  const char *name = column;
  const field *f = metrics_fields;
  int n = metrics_nfields;
  if (g_str_has_prefix(column, "pre_"))
    name = column + 4;
  else if (g_str_has_prefix(column, "post_"))
    name = column + 5;
  else {
    f = run_replay_fields;
    n = run_replay_nfields;
  }
  for (int i = 0; i < n; i++)
    if (strcmp(f[i].name, name) == 0)
      return &f[i];
  return NULL;
}

/* Does any cell of the study carry this column? */
static gboolean has_column(const study *s, const char *column)
{
  for (int i = 0; i < s->ncells; i++)
    if (s->cells[i].row && row_find(s->cells[i].row, column) >= 0)
      return TRUE;
  return FALSE;
}

static void html_text(GString *h, const char *text)
{
  g_autofree char *e = g_markup_escape_text(text, -1);
  g_string_append(h, e);
}

static void html_printf(GString *h, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void html_printf(GString *h, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *t = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  html_text(h, t);
}

static void value_text(char *buf, size_t n, const char *column, double v)
{
  plot_format_digits(buf, n, v, unit_of(column_field(column)), 5);
}

/* An embedded figure: the PNG as a data URI (filled in by embed_pngs once
 * every PNG is written), a link to the SVG. */
#define PNG_MARK "@@png:"

static gboolean html_figure(GString *h, const char *dir, const char *stem, const char *caption,
                            GError **error)
{
  /* the PNG has more pixels than the figure's size, which its SVG states */
  g_autofree char *svg_name = g_strconcat(stem, ".svg", NULL);
  g_autofree char *svg = g_build_filename(dir, "figures", svg_name, NULL);
  g_autofree char *svg_text = NULL;
  if (!g_file_get_contents(svg, &svg_text, NULL, error))
    return FALSE;
  const char *w = strstr(svg_text, " width=\"");
  int width = w ? atoi(w + 8) : 800;
  g_string_append_printf(h, "<figure><img width=\"%d\" alt=\"", width);
  html_text(h, caption);
  g_string_append_printf(h, "\" src=\"data:image/png;base64," PNG_MARK "%s@@\"><figcaption>",
                         stem);
  html_text(h, caption);
  g_string_append_printf(h, " <a href=\"figures/%s.svg\">SVG</a> <a href=\"figures/%s.png\">PNG</a>"
                         "</figcaption></figure>\n", stem, stem);
  return TRUE;
}

/* The page with every PNG mark replaced by the PNG's base64 (caller frees). */
static char *embed_pngs(const char *page, const char *dir, GError **error)
{
  GString *out = g_string_sized_new(strlen(page) * 2);
  const char *at = page, *mark;
  while ((mark = strstr(at, PNG_MARK))) {
    g_string_append_len(out, at, mark - at);
    const char *stem = mark + strlen(PNG_MARK), *end = strstr(stem, "@@");
    g_autofree char *name = g_strndup(stem, (gsize)(end - stem));
    g_autofree char *file = g_strconcat(name, ".png", NULL);
    g_autofree char *path = g_build_filename(dir, "figures", file, NULL);
    char *data = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &data, &len, error)) {
      g_string_free(out, TRUE);
      return NULL;
    }
    g_autofree char *b64 = g_base64_encode((const guchar *)data, len);
    g_free(data);
    g_string_append(out, b64);
    at = end + 2;
  }
  g_string_append(out, at);
  return g_string_free(out, FALSE);
}

static const char *model_label(const study *s, int model)
{
  return model >= 0 ? s->models[model]->name : "static";
}

/* "stencil3d-64, flow" or "cg (matrix), by count" */
static char *context_label(const study *s, int input, int kind, int model)
{
  const study_input *in = &s->inputs[input];
  GString *t = g_string_new(in->label);
  if (in->t)
    g_string_append_printf(t, ", model %s", model_label(s, model));
  else
    g_string_append(t, " (matrix, static)");
  if (kind >= 0 && in->nkinds > 1)
    g_string_append_printf(t, ", mapped by %s", study_kind_name(in->kinds[kind]));
  return g_string_free(t, FALSE);
}

/* Labels of the platforms and strategies, for figures (caller frees the
 * arrays, not the strings). */
static const char **platform_labels(const study *s)
{
  const char **v = g_new(const char *, MAX(s->nplatforms, 1));
  for (int p = 0; p < s->nplatforms; p++)
    v[p] = s->platforms[p].label;
  return v;
}

static const char **strategy_labels(const study *s)
{
  const char **v = g_new(const char *, MAX(s->nstrategies, 1));
  for (int i = 0; i < s->nstrategies; i++)
    v[i] = s->strategies[i].label;
  return v;
}

/* Header cells, one per platform, after `first` (already open row). */
static void html_platform_heads(GString *h, const study *s, const char *after)
{
  for (int p = 0; p < s->nplatforms; p++) {
    g_string_append(h, "<th>");
    html_text(h, s->platforms[p].label);
    g_string_append_printf(h, "%s</th>", after);
  }
  g_string_append(h, "</tr>\n");
}

/* ---- rankings ---- */

static void html_rankings(GString *h, const study *s, GPtrArray *groups)
{
  g_string_append(h, "<h2 id=\"ranking\">Ranking per platform</h2>\n");
  int ref = report_reference(s);
  g_string_append(h, "<p>Each column lists the strategies of one platform, best first, with "
                     "the value of the ranking metric (mean over seeds) and its change against ");
  html_text(h, ref >= 0 ? s->strategies[ref].label : "identity (not in this study)");
  g_string_append(h, " (negative: better).</p>\n");
  for (guint g0 = 0; g0 < groups->len; g0 += (guint)s->nplatforms) {
    const rank_group *first = g_ptr_array_index(groups, g0);
    g_autofree char *ctx = context_label(s, first->input, first->kind, first->model);
    g_string_append(h, "<h3>");
    html_text(h, ctx);
    g_string_append(h, ": ranked by <code>");
    html_text(h, first->metric);
    g_string_append(h, "</code></h3>\n<table class=\"rank\"><tr><th>#</th>");
    html_platform_heads(h, s, "");
    for (int k = 0; k < s->nstrategies; k++) {
      g_string_append_printf(h, "<tr><td>%d</td>", k + 1);
      for (int p = 0; p < s->nplatforms; p++) {
        const rank_group *r = g_ptr_array_index(groups, g0 + (guint)p);
        const rank_entry *e = &r->e[k];
        const char *cls = e->strategy == r->reference ? " class=\"ref\""
                          : k == 0 && !isnan(e->value) ? " class=\"best\"" : "";
        g_string_append_printf(h, "<td%s>", cls);
        html_text(h, s->strategies[e->strategy].label);
        if (isnan(e->value)) {
          g_string_append(h, " <span class=\"bad\">failed</span></td>");
          continue;
        }
        char v[32];
        value_text(v, sizeof v, r->metric, e->value);
        g_string_append_printf(h, " <span class=\"num\">%s", v);
        if (!isnan(e->change) && e->strategy != r->reference)
          g_string_append_printf(h, " (%+.1f%%)", e->change);
        g_string_append(h, "</span></td>");
      }
      g_string_append(h, "</tr>\n");
    }
    g_string_append(h, "</table>\n");
  }
}

/* ---- correlations ---- */

typedef struct corr {
  int input, kind, model, platform;
  const char *metric;   /* static column */
  int n;
  double rho, r;
  double *x, *y;
  int *series;
} corr;

static void corr_free(gpointer p)
{
  corr *c = p;
  g_free(c->x);
  g_free(c->y);
  g_free(c->series);
  g_free(c);
}

/* The static columns: pre_ + every static field. */
static GPtrArray *static_columns(const study *s)
{
  GPtrArray *cols = g_ptr_array_new_with_free_func(g_free);
  for (int i = 0; i < metrics_nfields; i++) {
    if (!field_in_view(&metrics_fields[i], FIELD_VIEW_STATIC))
      continue;
    char *c = g_strconcat("pre_", metrics_fields[i].name, NULL);
    if (has_column(s, c))
      g_ptr_array_add(cols, c);
    else
      g_free(c);
  }
  return cols;
}

/* Correlations of every static column with the time, per (trace input,
 * kind, model, platform), over the cells that ran (strategies x seeds). */
static GPtrArray *correlations(const study *s, GPtrArray *cols)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(corr_free);
  const char *time = s->report.time;
  for (int i = 0; i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
    if (!in->t)
      continue;
    for (int k = 0; k < in->nkinds; k++)
      for (int m = 0; m < s->nmodels; m++)
        for (int p = 0; p < s->nplatforms; p++)
          for (guint c = 0; c < cols->len; c++) {
            corr *x = g_new0(corr, 1);
            *x = (corr){ .input = i, .kind = k, .model = m, .platform = p,
                         .metric = g_ptr_array_index(cols, c) };
            int cap = s->nstrategies * s->nseeds;
            x->x = g_new(double, MAX(cap, 1));
            x->y = g_new(double, MAX(cap, 1));
            x->series = g_new(int, MAX(cap, 1));
            for (int st = 0; st < s->nstrategies; st++)
              for (int sd = 0; sd < s->nseeds; sd++) {
                const study_cell *cell = study_cell_at(s, i, k, p, st, m, sd);
                double a, b;
                if (cell->row && !cell->error && row_get_number(cell->row, x->metric, &a) &&
                    row_get_number(cell->row, time, &b)) {
                  x->x[x->n] = a;
                  x->y[x->n] = b;
                  x->series[x->n++] = st;
                }
              }
            x->rho = stats_spearman(x->x, x->y, x->n);
            x->r = stats_pearson(x->x, x->y, x->n);
            g_ptr_array_add(out, x);
          }
  }
  return out;
}

static gboolean write_correlations(const study *s, GPtrArray *cs, const char *dir, GError **error)
{
  GString *o = g_string_new("input,kind,model,platform,static_metric,simulated_time,cells,"
                            "spearman,pearson\n");
  for (guint i = 0; i < cs->len; i++) {
    const corr *c = g_ptr_array_index(cs, i);
    const study_input *in = &s->inputs[c->input];
    const char *cells[] = { in->label, study_kind_name(in->kinds[c->kind]),
                            s->models[c->model]->name, s->platforms[c->platform].label,
                            c->metric + 4, s->report.time };
    for (size_t k = 0; k < G_N_ELEMENTS(cells); k++) {
      csv_cell(o, cells[k]);
      g_string_append_c(o, ',');
    }
    g_string_append_printf(o, "%d,", c->n);
    if (!isnan(c->rho))
      g_string_append_printf(o, "%.17g", c->rho);
    g_string_append_c(o, ',');
    if (!isnan(c->r))
      g_string_append_printf(o, "%.17g", c->r);
    g_string_append_c(o, '\n');
  }
  g_autofree char *path = g_build_filename(dir, "correlations.csv", NULL);
  gboolean ok = output_write_all(path, o->str, o->len, NULL, error);
  g_string_free(o, TRUE);
  return ok;
}

/* The verdict of one platform: the static metric whose ranking agrees
 * best with the simulated time's. */
static void verdict(GString *h, const study *s, corr *const *row, int n)
{
  const corr *best = NULL, *hop = NULL;
  gboolean varies = FALSE;
  for (int i = 0; i < n; i++) {
    const corr *c = row[i];
    for (int k = 1; k < c->n; k++)
      varies |= c->y[k] != c->y[0];
    if (strcmp(c->metric, "pre_hop_bytes") == 0)
      hop = c;
    if (!isnan(c->rho) && (!best || c->rho > best->rho))
      best = c;
  }
  const char *plat = s->platforms[row[0]->platform].label;
  g_string_append(h, "<li>");
  if (row[0]->n < 3) {
    html_printf(h, "On %s too few cells ran (%d) to judge.", plat, row[0]->n);
  } else if (!varies) {
    html_printf(h, "On %s the simulated %s is the same for every strategy: there is no "
                "ranking to predict.", plat, s->report.time);
  } else if (!best) {
    html_printf(h, "On %s no static metric varies with the strategy.", plat);
  } else {
    g_string_append(h, best->rho >= 0.7 ? "<b>" : "");
    /* metrics that rank the strategies the same way: named together */
    GPtrArray *same = g_ptr_array_new();
    for (int i = 0; i < n; i++)
      if (row[i]->rho == best->rho)
        g_ptr_array_add(same, (char *)row[i]->metric + 4);
    GString *names = g_string_new(NULL);
    guint named = same->len <= 3 ? same->len : 2;
    for (guint i = 0; i < named; i++)
      g_string_append_printf(names, "%s%s", i == 0 ? "" : i + 1 == same->len ? " and " : ", ",
                             (char *)g_ptr_array_index(same, i));
    if (named < same->len)
      g_string_append_printf(names, " and %u others", same->len - named);
    if (best->rho >= 0.5)
      html_printf(h, "%s predict%s the ranking best on %s (ρ = %.2f", names->str,
                  same->len > 1 ? "" : "s", plat, best->rho);
    else
      html_printf(h, "No static metric predicts the ranking well on %s (best: %s, ρ = %.2f",
                  plat, best->metric + 4, best->rho);
    if (hop && !(hop->rho == best->rho))
      html_printf(h, "; hop_bytes ρ = %s%.2f", isnan(hop->rho) ? "n/a " : "",
                  isnan(hop->rho) ? 0.0 : hop->rho);
    g_string_free(names, TRUE);
    g_ptr_array_free(same, TRUE);
    g_string_append(h, ").");
    g_string_append(h, best->rho >= 0.7 ? "</b>" : "");
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < row[0]->n; k++) {
      lo = MIN(lo, row[0]->y[k]);
      hi = MAX(hi, row[0]->y[k]);
    }
    double spread = lo > 0 ? (hi - lo) / lo * 100 : NAN;
    if (spread >= 10)
      html_printf(h, " The strategies' %s differ by up to %.0f%%.", s->report.time, spread);
    else if (spread >= 0)
      html_printf(h, " The strategies' %s differ by up to %.2g%%.", s->report.time, spread);
  }
  g_string_append(h, "</li>\n");
}

static gboolean html_correlations(GString *h, const study *s, GPtrArray *cs, GPtrArray *cols,
                                  const char *dir, GError **error)
{
  g_string_append(h, "<h2 id=\"prepost\">Do the static metrics predict the simulation?</h2>\n");
  if (cs->len == 0) {
    g_string_append(h, "<p>No trace in this study: nothing was simulated.</p>\n");
    return TRUE;
  }
  g_string_append(h, "<p>Spearman's ρ compares the rankings (ties at their average rank), "
                     "Pearson's r the linear fit, of each static metric (before the replay) "
                     "against the simulated <code>");
  html_text(h, s->report.time);
  g_string_append(h, "</code> over the strategies (and seeds) of a platform. "
                     "<a href=\"correlations.csv\">correlations.csv</a> has every value.</p>\n");
  guint per = cols->len * (guint)s->nplatforms;
  g_autofree char *figdir = g_build_filename(dir, "figures", NULL);
  for (guint g0 = 0, idx = 0; g0 < cs->len; g0 += per, idx++) {
    corr *const *block = (corr *const *)&cs->pdata[g0];
    g_autofree char *ctx = context_label(s, block[0]->input, block[0]->kind, block[0]->model);
    g_string_append(h, "<h3>");
    html_text(h, ctx);
    g_string_append(h, "</h3>\n<ul class=\"verdict\">\n");
    for (int p = 0; p < s->nplatforms; p++) {
      corr *row[64] = { 0 };
      int n = 0;
      for (guint c = 0; c < cols->len && n < 64; c++)
        row[n++] = block[p * cols->len + c];
      verdict(h, s, row, n);
    }
    g_string_append(h, "</ul>\n<table class=\"corr\"><tr><th>static metric</th>");
    html_platform_heads(h, s, "<br>ρ / r");
    /* the scatter figure: metrics that vary somewhere */
    GPtrArray *rows = g_ptr_array_new();
    for (guint c = 0; c < cols->len; c++) {
      gboolean any = FALSE;
      g_string_append(h, "<tr><td><code>");
      html_text(h, (const char *)g_ptr_array_index(cols, c) + 4);
      g_string_append(h, "</code></td>");
      for (int p = 0; p < s->nplatforms; p++) {
        const corr *x = block[p * cols->len + c];
        any |= !isnan(x->rho) || !isnan(x->r);
        if (isnan(x->rho) && isnan(x->r))
          g_string_append(h, "<td class=\"na\">-</td>");
        else
          g_string_append_printf(h, "<td%s>%.2f / %.2f</td>",
                                 x->rho >= 0.7 ? " class=\"good\"" : "", x->rho, x->r);
      }
      g_string_append(h, "</tr>\n");
      if (any)
        g_ptr_array_add(rows, GUINT_TO_POINTER(c));
    }
    g_string_append(h, "</table>\n");
    if (rows->len == 0) {
      g_ptr_array_free(rows, TRUE);
      continue;
    }
    /* a metric with the same rho and r as an earlier one on every platform
     * orders the strategies the same way (total_hops and avg_hops, say):
     * one scatter row shows both */
    GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
    for (guint r = 0; r < rows->len;) {
      guint c = GPOINTER_TO_UINT(g_ptr_array_index(rows, r));
      guint same = G_MAXUINT;
      for (guint q = 0; q < r && same == G_MAXUINT; q++) {
        guint d = GPOINTER_TO_UINT(g_ptr_array_index(rows, q));
        gboolean eq = TRUE;
        for (int p = 0; p < s->nplatforms && eq; p++) {
          const corr *a = block[p * cols->len + c], *b = block[p * cols->len + d];
          eq = ((isnan(a->rho) && isnan(b->rho)) || fabs(a->rho - b->rho) < 1e-12) &&
               ((isnan(a->r) && isnan(b->r)) || fabs(a->r - b->r) < 1e-12);
        }
        if (eq)
          same = q;
      }
      const char *name = (const char *)g_ptr_array_index(cols, c) + 4;
      if (same == G_MAXUINT) {
        g_ptr_array_add(labels, g_strdup(name));
        r++;
        continue;
      }
      char *old = g_ptr_array_index(labels, same);
      labels->pdata[same] = g_strconcat(old, " ~ ", name, NULL);
      g_free(old);
      g_ptr_array_remove_index(rows, r);
    }
    const char **names = g_new(const char *, rows->len);
    plot_unit *units = g_new(plot_unit, rows->len);
    fig_scatter_panel *panels = g_new0(fig_scatter_panel, rows->len * (guint)s->nplatforms);
    for (guint r = 0; r < rows->len; r++) {
      guint c = GPOINTER_TO_UINT(g_ptr_array_index(rows, r));
      const char *col = g_ptr_array_index(cols, c);
      names[r] = g_ptr_array_index(labels, r);
      units[r] = unit_of(column_field(col));
      for (int p = 0; p < s->nplatforms; p++) {
        const corr *x = block[p * cols->len + c];
        panels[r * (guint)s->nplatforms + (guint)p] =
            (fig_scatter_panel){ x->x, x->y, x->series, x->n, x->rho, x->r };
      }
    }
    const char **plats = platform_labels(s), **series = strategy_labels(s);
    g_autofree char *title = g_strdup_printf("pre vs post: %s", ctx);
    fig_scatter_data d = { title, names, (int)rows->len, plats, s->nplatforms, units,
                           s->report.time, unit_of(column_field(s->report.time)), panels,
                           series, s->nstrategies };
    g_autofree char *stem = g_strdup_printf("prepost-%u", idx + 1);
    gboolean ok = fig_scatter(figdir, stem, &d, error) &&
                  html_figure(h, dir, stem, "Each static metric against the simulated time, "
                              "per platform; one point per strategy and seed; a ~ b: b has "
                              "the same correlations as a and is not drawn again.", error);
    g_free(names);
    g_ptr_array_free(labels, TRUE);
    g_free(units);
    g_free(panels);
    g_free(plats);
    g_free(series);
    g_ptr_array_free(rows, TRUE);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* ---- strategies per platform (Figs. 4-6) ---- */

static gboolean html_groups(GString *h, const study *s, const char *dir, GError **error)
{
  g_string_append(h, "<h2 id=\"strategies\">Strategies per platform</h2>\n<p>Each marker is "
                     "one strategy (and seed); the green line is the reference mapping "
                     "(korndoerfer2021 Figs. 4-6).</p>\n");
  g_autofree char *figdir = g_build_filename(dir, "figures", NULL);
  int ref = report_reference(s);
  const char **plats = platform_labels(s), **series = strategy_labels(s);
  gboolean ok = TRUE;
  int idx = 0;
  for (int i = 0; ok && i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
    int nm = study_input_nmodels(s, i);
    for (int m = 0; ok && m < nm; m++) {
      int model = in->t ? m : -1;
      const char *want_trace[] = { "pre_hop_bytes", "pre_max_link_bytes", "p2p_transfer_sum_s",
                                   s->report.time };
      const char *titles_trace[] = { "hop-bytes (static)", "max link load, bytes (static)",
                                     "communication time (simulated sum)", NULL };
      const char *want_static[] = { "pre_hop_bytes", "pre_max_link_bytes", "pre_max_link_time" };
      const char *titles_static[] = { "hop-bytes (static)", "max link load, bytes (static)",
                                      "max link time (static)" };
      const char **want = in->t ? want_trace : want_static;
      const char **titles = in->t ? titles_trace : titles_static;
      int nwant = in->t ? (strcmp(s->report.time, "p2p_transfer_sum_s") ? 4 : 3) : 3;
      fig_metric mets[4];
      fig_point *pts[4] = { 0 };
      double *refs[4] = { 0 };
      char *time_title = NULL;
      int nmet = 0;
      for (int w = 0; w < nwant; w++) {
        if (!has_column(s, want[w]))
          continue;
        int cap = in->nkinds * s->nplatforms * s->nstrategies * s->nseeds;
        fig_point *pt = pts[nmet] = g_new(fig_point, MAX(cap, 1));
        double *rv = refs[nmet] = g_new(double, s->nplatforms);
        int n = 0;
        for (int p = 0; p < s->nplatforms; p++) {
          rv[p] = ref >= 0 ? report_mean(s, i, 0, p, ref, m, want[w], NULL) : NAN;
          for (int k = 0; k < in->nkinds; k++)
            for (int st = 0; st < s->nstrategies; st++)
              for (int sd = 0; sd < s->nseeds; sd++) {
                const study_cell *c = study_cell_at(s, i, k, p, st, m, sd);
                double v;
                if (c->row && !c->error && row_get_number(c->row, want[w], &v))
                  pt[n++] = (fig_point){ p, st, in->kinds[k] == STUDY_KIND_COUNT, v };
              }
        }
        const char *title = titles[w];
        if (!title)
          title = time_title = g_strdup_printf("%s (simulated)", want[w]);
        mets[nmet++] = (fig_metric){ title, unit_of(column_field(want[w])), pt, n, rv };
      }
      g_autofree char *ctx = context_label(s, i, -1, model);
      gboolean counts = FALSE;
      for (int k = 0; k < in->nkinds; k++)
        counts |= in->kinds[k] == STUDY_KIND_COUNT;
      fig_groups_data d = { ctx, plats, s->nplatforms, series, s->nstrategies,
                            ref >= 0 ? s->strategies[ref].label : NULL,
                            counts ? "mapped by message counts" : NULL, mets, nmet };
      g_autofree char *stem = g_strdup_printf("strategies-%d", ++idx);
      ok = fig_groups(figdir, stem, &d, error) &&
           html_figure(h, dir, stem, ctx, error);
      for (int k = 0; k < nmet; k++) {
        g_free(pts[k]);
        g_free(refs[k]);
      }
      g_free(time_title);
    }
  }
  g_free(plats);
  g_free(series);
  return ok;
}

/* ---- matrices (Fig. 2) ---- */

static gboolean html_matrices(GString *h, const study *s, const char *dir, GError **error)
{
  g_string_append(h, "<h2 id=\"matrices\">Communication matrices</h2>\n<p>Messages and bytes "
                     "from each sender (row) to each receiver (column), rank 0 top left, white "
                     "where nothing is sent (korndoerfer2021 Fig. 2). For traces: the traffic "
                     "the static metrics count.</p>\n");
  g_autofree char *figdir = g_build_filename(dir, "figures", NULL);
  for (int i = 0; i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
      char bytes[32];
    plot_format(bytes, sizeof bytes, (double)commgraph_total_bytes(in->g), PLOT_NUMBER);
    g_autofree char *title = g_strdup_printf(
        "%s: %d ranks, %s bytes%s", in->label, in->g->n, bytes,
        in->t ? (in->g_collectives ? " (p2p + collectives)" : " (p2p)") : " (matrix)");
    g_autofree char *stem = g_strdup_printf("matrix-%d", i + 1);
    if (!fig_matrix(figdir, stem, title, in->g, error) ||
        !html_figure(h, dir, stem, title, error))
      return FALSE;
  }
  return TRUE;
}

/* ---- link loads ---- */

static int links_input(const study *s)
{
  for (int i = 0; s->report.links_input && i < s->ninputs; i++)
    if (strcmp(s->inputs[i].label, s->report.links_input) == 0)
      return i;
  for (int i = 0; i < s->ninputs; i++)
    if (s->inputs[i].t)
      return i;
  return 0;
}

/* Per-link values of a cell's result: bytes (all traffic the check
 * counts) or busy time. */
static double *link_values(const run_result *res, gboolean busy, int nlinks)
{
  double *v = g_new0(double, MAX(nlinks, 1));
  const metrics *m = res->post ? res->post : res->pre;
  for (int l = 0; l < nlinks; l++)
    v[l] = busy && res->r ? res->r->link_busy_ps[l] * 1e-12 : (double)m->link_bytes[l];
  return v;
}

static gboolean html_links(GString *h, const study *s, GPtrArray *groups, const char *dir,
                           GError **error)
{
  int i = links_input(s);
  const study_input *in = &s->inputs[i];
  gboolean busy = s->report.color_busy && in->t;
  g_string_append(h, "<h2 id=\"links\">Link loads</h2>\n<p>");
  html_printf(h, "Input %s: per platform the reference mapping, the best and the worst "
              "other strategy (by the ranking above), links coloured by %s on one scale per "
              "platform; then the busiest link per dimension and direction "
              "(deveci-geometric Fig. 12).", in->label, busy ? "busy time" : "bytes");
  g_string_append(h, "</p>\n");
  g_autofree char *figdir = g_build_filename(dir, "figures", NULL);
  int ref = report_reference(s);
  for (guint g = 0; g < groups->len; g++) {
    const rank_group *r = g_ptr_array_index(groups, g);
    if (r->input != i || r->kind != 0 || r->model > 0)
      continue;
    const study_platform *sp = &s->platforms[r->platform];
    if (!sp->p)
      continue;
    /* the reference, the best and the worst other strategy that ran */
    int picks[3] = { ref, -1, -1 };
    for (int k = 0; k < r->n; k++)
      if (r->e[k].strategy != ref && !isnan(r->e[k].value)) {
        if (picks[1] < 0)
          picks[1] = r->e[k].strategy;
        else
          picks[2] = r->e[k].strategy;
      }
    run_result *res[3] = { 0 };
    double *vals[3] = { 0 };
    const char *roles[3] = { "reference", "best", "worst" };
    const char *role[3];
    double vmax = 0;
    int nsets = 0;
    for (int k = 0; k < 3; k++) {
      if (picks[k] < 0)
        continue;
      const study_cell *c = study_cell_at(s, i, 0, r->platform, picks[k], MAX(r->model, 0), 0);
      GError *e = NULL;
      res[nsets] = study_cell_run(s, c, &e);
      if (!res[nsets]) {
        g_clear_error(&e);
        continue;
      }
      vals[nsets] = link_values(res[nsets], busy, sp->p->topo->nlinks);
      for (int l = 0; l < sp->p->topo->nlinks; l++)
        vmax = MAX(vmax, vals[nsets][l]);
      picks[nsets] = picks[k];
      role[nsets] = roles[k];
      nsets++;
    }
    gboolean ok = TRUE;
    const int64_t *bytes[3];
    const char *labels[3];
    char *named[3] = { 0 };
    for (int k = 0; ok && k < nsets; k++) {
      const char *label = s->strategies[picks[k]].label;
      g_autofree char *title = g_strdup_printf("%s on %s, %s (%s)", in->label, sp->label, label,
                                               role[k]);
      g_autofree char *stem = g_strdup_printf("links-%d-%d", r->platform + 1, k + 1);
      ok = fig_links(figdir, stem, title, sp->p, vals[k], vmax,
                     busy ? PLOT_SECONDS : PLOT_NUMBER, busy ? "busy time" : "bytes", error) &&
           html_figure(h, dir, stem, title, error);
      const metrics *m = res[k]->post ? res[k]->post : res[k]->pre;
      bytes[k] = m->link_bytes;
      labels[k] = named[k] = g_strdup_printf("%s (%s)", label, role[k]);
    }
    if (ok && nsets) {
      g_autofree char *title = g_strdup_printf("%s on %s: busiest link per direction", in->label,
                                               sp->label);
      g_autofree char *stem = g_strdup_printf("directions-%d", r->platform + 1);
      ok = fig_directions(figdir, stem, title, sp->p, bytes, labels, nsets, error) &&
           html_figure(h, dir, stem, title, error);
    }
    for (int k = 0; k < 3; k++) {
      run_result_free(res[k]);
      g_free(vals[k]);
      g_free(named[k]);
    }
    if (!ok)
      return FALSE;
  }
  return TRUE;
}

/* ---- the rest ---- */

static void html_checks(GString *h, const study *s)
{
  int sim = 0, match = 0, failed = 0;
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    double v;
    failed += c->error != NULL;
    if (c->row && row_get_number(c->row, "pre_post_match", &v)) {
      sim++;
      match += v != 0;
    }
  }
  g_string_append(h, "<h2 id=\"cells\">Cells</h2>\n<p>");
  html_printf(h, "%d cells, %d simulated; the pre/post check (static and simulated link "
              "bytes and hop-bytes agree, korndoerfer2021 Section 7.4) ", s->ncells, sim);
  if (sim && match == sim)
    html_printf(h, "holds in all %d.", sim);
  else if (sim)
    html_printf(h, "FAILS in %d of %d (pre_post_match = false).", sim - match, sim);
  else
    g_string_append(h, "needs a replay.");
  g_string_append(h, " Every value of every cell: <a href=\"results.csv\">results.csv</a>, "
                     "<a href=\"results.json\">results.json</a>.</p>\n");
  if (!failed)
    return;
  g_string_append(h, "<table class=\"failed\"><tr><th>input</th><th>platform</th><th>strategy"
                     "</th><th>model</th><th>seed</th><th>error</th></tr>\n");
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    if (!c->error)
      continue;
    const char *cells[] = { s->inputs[c->input].label, s->platforms[c->platform].label,
                            s->strategies[c->strategy].label, model_label(s, c->model) };
    g_string_append(h, "<tr>");
    for (size_t k = 0; k < G_N_ELEMENTS(cells); k++) {
      g_string_append(h, "<td>");
      html_text(h, cells[k]);
      g_string_append(h, "</td>");
    }
    g_string_append_printf(h, "<td>%u</td><td>", s->seeds[c->seed]);
    html_text(h, c->error->message);
    g_string_append(h, "</td></tr>\n");
  }
  g_string_append(h, "</table>\n");
}

static const char css[] =
  "body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:2em auto;max-width:1200px;"
  "padding:0 1em;color:#222;line-height:1.4}"
  "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em}"
  "table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.9em}"
  "td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}"
  "th{background:#f3f3f3}td.best{background:#e6f4ea}td.ref{background:#eef3fb}"
  "td.good{background:#e6f4ea;font-weight:bold}td.na{color:#999}.bad{color:#b00020}"
  ".num{color:#555;white-space:nowrap}code{background:#f5f5f5;padding:0 .2em}"
  "figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}"
  "figcaption{font-size:.85em;color:#555}nav a{margin-right:1em}ul.verdict li{margin:.2em 0}";

char *report_study(const study *s, const char *dir, int threads, GError **error)
{
  g_autofree char *figdir = g_build_filename(dir, "figures", NULL);
  if (g_mkdir_with_parents(figdir, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", figdir,
                g_strerror(errno));
    return NULL;
  }
  GPtrArray *groups = report_rank(s);
  GPtrArray *cols = static_columns(s);
  GPtrArray *cs = correlations(s, cols);
  GString *h = g_string_new("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                            "<title>");
  html_printf(h, "mapsim study: %s", s->name);
  g_string_append_printf(h, "</title>\n<style>%s</style></head><body>\n<h1>", css);
  html_printf(h, "mapsim study: %s", s->name);
  g_string_append(h, "</h1>\n<p>");
  g_autofree char *size = study_describe(s);
  html_printf(h, "%s.", size);
  g_string_append(h, "</p>\n<nav><a href=\"#ranking\">ranking</a><a href=\"#prepost\">pre vs "
                     "post</a><a href=\"#strategies\">strategies</a><a href=\"#matrices\">"
                     "matrices</a><a href=\"#links\">link loads</a><a href=\"#cells\">cells</a>"
                     "</nav>\n");
  html_rankings(h, s, groups);
  plot_begin(threads);
  gboolean ok = write_correlations(s, cs, dir, error) &&
                html_correlations(h, s, cs, cols, dir, error) &&
                html_groups(h, s, dir, error) && html_matrices(h, s, dir, error) &&
                html_links(h, s, groups, dir, error);
  ok = plot_end(ok ? error : NULL) && ok;
  html_checks(h, s);
  g_string_append(h, "<p style=\"color:#888;font-size:.8em\">Written by mapsim study; "
                     "figures drawn with cairo.</p>\n</body></html>\n");
  char *index = g_build_filename(dir, "index.html", NULL);
  g_autofree char *page = ok ? embed_pngs(h->str, dir, error) : NULL;
  ok = page && study_write_file(index, page, strlen(page), error);
  g_string_free(h, TRUE);
  g_ptr_array_unref(cs);
  g_ptr_array_unref(cols);
  g_ptr_array_unref(groups);
  if (!ok)
    g_clear_pointer(&index, g_free);
  return index;
}

void report_release(void)
{
  plot_release_fonts();
}

/* ---- mapsim plot ---- */

int report_plot_run(JsonNode *run, const platform *p, const commgraph *g, gboolean busy,
                    const char *dir, const char *name, GError **error)
{
  JsonObject *o = run && JSON_NODE_HOLDS_OBJECT(run) ? json_node_get_object(run) : NULL;
  JsonArray *links = o && json_object_has_member(o, "links")
                         ? json_object_get_array_member(o, "links") : NULL;
  if (!links) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "no \"links\" array, expected the JSON of mapsim simulate --json or metrics "
                "--json");
    return -1;
  }
  int nl = p->topo->nlinks, figures = 0;
  int64_t *bytes = g_new0(int64_t, MAX(nl, 1));
  double *vals = g_new0(double, MAX(nl, 1));
  gboolean have_busy = FALSE;
  for (guint i = 0; i < json_array_get_length(links); i++) {
    JsonObject *e = json_array_get_object_element(links, i);
    gint64 l = e ? json_object_get_int_member_with_default(e, "link", -1) : -1;
    if (l < 0 || l >= nl) {
      g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                  "links[%u]: link id %" G_GINT64_FORMAT " is not a link of %s (0..%d); is this "
                  "the platform of the run?", i, l, p->name, nl - 1);
      g_free(bytes);
      g_free(vals);
      return -1;
    }
    const char *bytes_key = json_object_has_member(e, "bytes") ? "bytes" : "p2p_bytes";
    bytes[l] = json_object_get_int_member_with_default(e, bytes_key, 0);
    if (json_object_has_member(e, "busy_s"))
      have_busy = TRUE;
    vals[l] = busy ? json_object_get_double_member_with_default(e, "busy_s", 0)
                   : (double)bytes[l];
  }
  if (busy && !have_busy) {
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "--color busy needs busy times, which only simulate --json has");
    g_free(bytes);
    g_free(vals);
    return -1;
  }
  g_autofree char *title = g_strdup_printf("%s on %s", name, p->name);
  g_autofree char *stem_links = g_strdup_printf("%s-links", name);
  g_autofree char *stem_dirs = g_strdup_printf("%s-directions", name);
  g_autofree char *stem_matrix = g_strdup_printf("%s-matrix", name);
  const int64_t *sets[1] = { bytes };
  const char *labels[1] = { name };
  gboolean ok = fig_links(dir, stem_links, title, p, vals, 0, busy ? PLOT_SECONDS : PLOT_NUMBER,
                          busy ? "busy time" : "bytes", error);
  figures += ok;
  ok = ok && fig_directions(dir, stem_dirs, title, p, sets, labels, 1, error);
  figures += ok;
  if (ok && g) {
    ok = fig_matrix(dir, stem_matrix, name, g, error);
    figures += ok;
  }
  g_free(bytes);
  g_free(vals);
  return ok ? figures : -1;
}
