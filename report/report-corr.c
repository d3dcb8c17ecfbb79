/* report-corr.c - do the static metrics predict the simulation: Spearman
 * and Pearson of every static metric against the simulated time per
 * platform (correlations.csv), the verdicts, the table and the scatter
 * figure (korndoerfer2021 Section 7.4). */
#include <math.h>
#include <string.h>

#include "report/figures.h"
#include "report/report-private.h"
#include "study/stats.h"
#include "util/output.h"

static void rep_corr_free(gpointer p)
{
  corr *c = p;
  g_free(c->x);
  g_free(c->y);
  g_free(c->series);
  g_free(c);
}

const char *rep_outcome(const study *s)
{
  const field *f = rep_column_field(s->report.time);
  return f && f->unit == FIELD_JOULES ? "energy" : "time";
}

/* The static columns: pre_ + every static field; with a ranking by an
 * energy, the static energy proxies too (traffic_energy_j: the traffic's
 * energy along its routes). */
GPtrArray *rep_static_columns(const study *s)
{
  GPtrArray *cols = g_ptr_array_new_with_free_func(g_free);
  gboolean energy = strcmp(rep_outcome(s), "energy") == 0;
  for (int i = 0; i < metrics_nfields; i++) {
    const field *f = &metrics_fields[i];
    if (!field_in_view(f, FIELD_VIEW_STATIC) && !(energy && (f->views & FIELD_VIEW_ENERGY)))
      continue;
    char *c = g_strconcat("pre_", metrics_fields[i].name, NULL);
    if (rep_has_column(s, c))
      g_ptr_array_add(cols, c);
    else
      g_free(c);
  }
  return cols;
}

static gboolean all_equal(const double *v, int n)
{
  for (int k = 1; k < n; k++)
    if (v[k] != v[0])
      return FALSE;
  return TRUE;
}

/* Why the correlation of c is undefined, or NULL when it is not. */
static const char *undefined_reason(const corr *c)
{
  if (c->n < 2)
    return c->n ? "one cell" : "no cells";
  gboolean one = TRUE;
  for (int k = 1; k < c->n; k++)
    one = one && c->series[k] == c->series[0];
  if (one)
    return "one strategy";
  if (all_equal(c->y, c->n))
    return "equal times";
  if (all_equal(c->x, c->n))
    return "constant metric";
  return NULL;
}

GPtrArray *rep_correlations(const study *s, GPtrArray *cols)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(rep_corr_free);
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
            x->why = undefined_reason(x);
            x->rho = x->why ? NAN : stats_spearman(x->x, x->y, x->n);
            x->r = x->why ? NAN : stats_pearson(x->x, x->y, x->n);
            x->p = x->why ? NAN : stats_spearman_p(x->x, x->y, x->n);
            g_ptr_array_add(out, x);
          }
  }
  return out;
}

gboolean rep_write_correlations(const study *s, GPtrArray *cs, const char *dir, GError **error)
{
  GString *o = g_string_new("input,kind,model,platform,static_metric,simulated_time,cells,"
                            "spearman,pearson,spearman_p,undefined\n");
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
      text_double(o, c->rho);
    g_string_append_c(o, ',');
    if (!isnan(c->r))
      text_double(o, c->r);
    g_string_append_c(o, ',');
    if (!isnan(c->p))
      text_double(o, c->p);
    g_string_append_c(o, ',');
    csv_cell(o, c->why ? c->why : "");
    g_string_append_c(o, '\n');
  }
  g_autofree char *path = g_build_filename(dir, "correlations.csv", NULL);
  gboolean ok = output_write_all(path, o->str, o->len, NULL, error);
  g_string_free(o, TRUE);
  return ok;
}

/* What one platform's correlations say. */
typedef enum {
  JUDGE_NONE,     /* nothing simulated */
  JUDGE_FEW,      /* fewer than STATS_MIN_SPEARMAN_N points */
  JUDGE_EQUAL,    /* every strategy took the same time */
  JUDGE_FLAT,     /* no static metric varies */
  JUDGE_BEST,     /* best: the metric whose ranking agrees best */
} judge_kind;

typedef struct judgement {
  judge_kind kind;
  int n;
  const corr *best, *hop;
  GPtrArray *same;  /* metric names (without pre_) with the best rho */
} judgement;

static judgement judge(corr *const *row, int n)
{
  judgement j = { .kind = JUDGE_NONE, .n = n ? row[0]->n : 0 };
  if (j.n == 0)
    return j;
  if (j.n < STATS_MIN_SPEARMAN_N) {
    j.kind = JUDGE_FEW;
    return j;
  }
  if (all_equal(row[0]->y, row[0]->n)) {
    j.kind = JUDGE_EQUAL;
    return j;
  }
  for (int i = 0; i < n; i++) {
    if (strcmp(row[i]->metric, "pre_hop_bytes") == 0)
      j.hop = row[i];
    if (!isnan(row[i]->rho) && (!j.best || row[i]->rho > j.best->rho))
      j.best = row[i];
  }
  if (!j.best) {
    j.kind = JUDGE_FLAT;
    return j;
  }
  j.kind = JUDGE_BEST;
  j.same = g_ptr_array_new();
  for (int i = 0; i < n; i++)
    if (row[i]->rho == j.best->rho)
      g_ptr_array_add(j.same, (char *)row[i]->metric + 4);
  return j;
}

/* "a", "a and b", "a, b and c", "a, b and 3 others" */
static char *name_list(GPtrArray *names)
{
  GString *t = g_string_new(NULL);
  guint named = names->len <= 3 ? names->len : 2;
  for (guint i = 0; i < named; i++)
    g_string_append_printf(t, "%s%s", i == 0 ? "" : i + 1 == names->len ? " and " : ", ",
                           (char *)g_ptr_array_index(names, i));
  if (named < names->len)
    g_string_append_printf(t, " and %u others", names->len - named);
  return g_string_free(t, FALSE);
}

/* A correlation with two decimals, never "-0.00". */
static void corr_text(char *buf, size_t n, double v)
{
  g_snprintf(buf, n, "%.2f", fabs(v) < 0.005 ? 0.0 : v);
}

/* A p-value as a reader wants it: two digits, "< 0.001" below that. */
static void p_text(char *buf, size_t n, double p)
{
  if (p < 0.001)
    g_snprintf(buf, n, "< 0.001");
  else
    g_snprintf(buf, n, "= %.2g", p);
}

/* Does the best metric predict the ranking: its rho positive and
 * significant at the 5% level (two-sided permutation test)? */
static gboolean significant(const corr *best)
{
  return best->rho > 0 && best->p < 0.05;
}

/* The verdict of one platform: the static metric whose ranking agrees
 * best with the simulated outcome's, named only when the agreement is
 * significant, and how many points say so. */
static void verdict(GString *h, const study *s, corr *const *row, int n)
{
  judgement j = judge(row, n);
  const char *plat = s->platforms[row[0]->platform].label;
  char rho[16], hop[16];
  g_string_append(h, "<li>");
  switch (j.kind) {
  case JUDGE_NONE:
    html_printf(h, "On %s no cell ran.", plat);
    break;
  case JUDGE_FEW:
    html_printf(h, "On %s too few points to judge (n = %d): with fewer than %d points "
                "Spearman's ρ cannot reach p < 0.05 (n = 4: the smallest two-sided p is "
                "2/4! = 0.083).", plat, j.n, STATS_MIN_SPEARMAN_N);
    break;
  case JUDGE_EQUAL:
    html_printf(h, "On %s the simulated %s is the same for every strategy (n = %d): there is "
                "no ranking to predict.", plat, s->report.time, j.n);
    break;
  case JUDGE_FLAT:
    html_printf(h, "On %s no static metric varies with the strategy (n = %d).", plat, j.n);
    break;
  case JUDGE_BEST: {
    g_autofree char *names = name_list(j.same);
    char p[16];
    corr_text(rho, sizeof rho, j.best->rho);
    p_text(p, sizeof p, j.best->p);
    gboolean sig = significant(j.best);
    g_string_append(h, sig && j.best->rho >= 0.7 ? "<b>" : "");
    if (sig)
      html_printf(h, "%s predict%s the ranking best on %s (Spearman's ρ = %s, permutation test "
                  "p %s, n = %d", names, j.same->len > 1 ? "" : "s", plat, rho, p, j.n);
    else
      html_printf(h, "No static metric predicts the ranking significantly on %s (n = %d; best: "
                  "%s, Spearman's ρ = %s, permutation test p %s", plat, j.n, names, rho, p);
    if (j.hop && j.hop->rho != j.best->rho) {
      corr_text(hop, sizeof hop, j.hop->rho);
      html_printf(h, "; hop_bytes ρ = %s", isnan(j.hop->rho) ? "- (constant)" : hop);
    }
    g_string_append(h, ").");
    g_string_append(h, sig && j.best->rho >= 0.7 ? "</b>" : "");
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
    break;
  }
  }
  g_string_append(h, "</li>\n");
  if (j.same)
    g_ptr_array_free(j.same, TRUE);
}

char *rep_verdict_short(const study *s, GPtrArray *cs, GPtrArray *cols, int input, int kind,
                        int model, int plat)
{
  corr *row[64];
  int n = 0;
  for (guint i = 0; i < cs->len && n < 64; i++) {
    corr *c = g_ptr_array_index(cs, i);
    if (c->input == input && c->kind == kind && c->model == model && c->platform == plat)
      row[n++] = c;
  }
  (void)cols;
  if (n == 0)
    return NULL;
  judgement j = judge(row, n);
  char rho[16];
  char *out = NULL;
  switch (j.kind) {
  case JUDGE_NONE:
    out = g_strdup("no cell ran");
    break;
  case JUDGE_FEW:
    out = g_strdup_printf("too few points (n = %d)", j.n);
    break;
  case JUDGE_EQUAL:
    out = g_strdup_printf("all %s equal (n = %d)", s->report.time, j.n);
    break;
  case JUDGE_FLAT:
    out = g_strdup_printf("no static metric varies (n = %d)", j.n);
    break;
  case JUDGE_BEST: {
    corr_text(rho, sizeof rho, j.best->rho);
    const char *first = g_ptr_array_index(j.same, 0);
    g_autofree char *shown = j.same->len == 1 ? g_strdup(first)
                             : g_strdup_printf("%s (+%u alike)", first, j.same->len - 1);
    char p[16];
    p_text(p, sizeof p, j.best->p);
    out = significant(j.best)
              ? g_strdup_printf("%s, ρ = %s, p %s, n = %d", shown, rho, p, j.n)
              : g_strdup_printf("no static metric predicts the ranking significantly (n = %d)",
                                j.n);
    g_ptr_array_free(j.same, TRUE);
    break;
  }
  }
  return out;
}

/* One table row per metric that varies somewhere; "-" and the reason
 * where a correlation is undefined. Metrics constant on every platform
 * are left out and named in `constant`. */
static void corr_table(GString *h, const study *s, corr *const *block, GPtrArray *cols,
                       GPtrArray *constant)
{
  g_string_append(h, "<table class=\"corr\"><tr><th>static metric</th>");
  html_platform_heads(h, s, "<br>ρ / r");
  for (guint c = 0; c < cols->len; c++) {
    gboolean flat = TRUE;
    for (int p = 0; p < s->nplatforms; p++) {
      const corr *x = block[p * cols->len + c];
      flat = flat && (x->n == 0 || all_equal(x->x, x->n));
    }
    if (flat) {
      g_ptr_array_add(constant, (char *)g_ptr_array_index(cols, c) + 4);
      continue;
    }
    g_string_append(h, "<tr><td><code>");
    html_text(h, (const char *)g_ptr_array_index(cols, c) + 4);
    g_string_append(h, "</code></td>");
    for (int p = 0; p < s->nplatforms; p++) {
      const corr *x = block[p * cols->len + c];
      char rho[16], r[16];
      if (x->why) {
        g_string_append(h, "<td class=\"na\">- <small>(");
        html_text(h, x->why);
        g_string_append(h, ")</small></td>");
        continue;
      }
      corr_text(rho, sizeof rho, x->rho);
      corr_text(r, sizeof r, x->r);
      g_string_append_printf(h, "<td%s>%s / %s</td>", x->rho >= 0.7 ? " class=\"good\"" : "",
                             rho, r);
    }
    g_string_append(h, "</tr>\n");
  }
  g_string_append(h, "</table>\n");
  if (constant->len) {
    g_autofree char *names = NULL;
    GString *t = g_string_new(NULL);
    for (guint i = 0; i < constant->len; i++)
      g_string_append_printf(t, "%s%s", i ? ", " : "", (char *)g_ptr_array_index(constant, i));
    names = g_string_free(t, FALSE);
    g_string_append(h, "<p class=\"note\">The same for every strategy on every platform (no "
                       "correlation defined): ");
    html_text(h, names);
    g_string_append(h, ".</p>\n");
  }
}

/* The figure of corr_scatter's rows (indices into cols) and the metrics
 * each stands for. */
static gboolean draw_scatter(rep_page *pg, corr *const *block, GPtrArray *cols, const char *ctx,
                             const study_input *in, int kind, int model, GArray *rows,
                             GPtrArray *also, GError **error)
{
  const study *s = pg->s;
  const char **names = g_new(const char *, rows->len);
  plot_unit *units = g_new(plot_unit, rows->len);
  fig_scatter_panel *panels = g_new0(fig_scatter_panel, rows->len * (guint)s->nplatforms);
  GString *note = g_string_new(NULL);
  for (guint r = 0; r < rows->len; r++) {
    guint c = g_array_index(rows, guint, r);
    const char *col = g_ptr_array_index(cols, c);
    names[r] = col + 4;
    units[r] = rep_unit_of(rep_column_field(col));
    GPtrArray *same = g_ptr_array_index(also, r);
    if (same->len) {
      g_autofree char *list = name_list(same);
      g_string_append_printf(note, "%s%s also stands for %s", note->len ? "; " : "", col + 4,
                             list);
    }
    for (int p = 0; p < s->nplatforms; p++) {
      const corr *x = block[p * cols->len + c];
      panels[r * (guint)s->nplatforms + (guint)p] =
          (fig_scatter_panel){ x->x, x->y, x->series, x->n, x->rho, x->r, x->why };
    }
  }
  if (note->len)
    g_string_append(note, " (the same ρ and r on every platform: not drawn again)");
  const char **plats = rep_platform_labels(s), **series = rep_strategy_labels(s);
  g_autofree char *title = g_strdup_printf("Static metrics against the simulated %s: %s",
                                           s->report.time, ctx);
  fig_scatter_data d = { title, names, (int)rows->len, plats, s->nplatforms, units,
                         s->report.time, rep_unit_of(rep_column_field(s->report.time)), panels,
                         series, s->nstrategies, note->len ? note->str : NULL };
  const char *parts[] = { in->label, in->t ? rep_model_label(s, model) : NULL,
                          in->nkinds > 1 ? study_kind_name(in->kinds[kind]) : NULL, NULL };
  if (!parts[1])
    parts[1] = parts[2];
  g_autofree char *stem = rep_stem(pg, "static-vs-simulated", parts);
  g_autofree char *caption = g_strdup_printf(
      "Each static metric (before the replay) against the simulated %s, per platform; one "
      "point per strategy and seed.%s%s", s->report.time, note->len ? " " : "", note->str);
  gboolean ok = fig_scatter(pg->fig, stem, &d, error) &&
                html_figure(pg, stem, caption, error);
  g_string_free(note, TRUE);
  g_free(names);
  g_free(units);
  g_free(panels);
  g_free(plats);
  g_free(series);
  return ok;
}

/* The scatter figure of one block: one row per metric that varies
 * somewhere; a metric with the same rho and r as an earlier one on every
 * platform orders the strategies the same way (total_hops and avg_hops,
 * say) and is named under its figure instead of drawn again. */
static gboolean corr_scatter(rep_page *pg, corr *const *block, GPtrArray *cols,
                             const char *ctx, const study_input *in, int kind, int model,
                             GError **error)
{
  const study *s = pg->s;
  GArray *rows = g_array_new(FALSE, FALSE, sizeof(guint));
  GPtrArray *also = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  for (guint c = 0; c < cols->len; c++) {
    gboolean any = FALSE;
    for (int p = 0; p < s->nplatforms; p++)
      any = any || !block[p * cols->len + c]->why;
    if (!any)
      continue;
    guint same = G_MAXUINT;
    for (guint q = 0; q < rows->len && same == G_MAXUINT; q++) {
      guint d = g_array_index(rows, guint, q);
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
    if (same != G_MAXUINT) {
      g_ptr_array_add(g_ptr_array_index(also, same), (char *)name);
      continue;
    }
    g_array_append_val(rows, c);
    g_ptr_array_add(also, g_ptr_array_new());
  }
  gboolean ok = rows->len == 0 ||
                draw_scatter(pg, block, cols, ctx, in, kind, model, rows, also, error);
  g_array_free(rows, TRUE);
  g_ptr_array_free(also, TRUE);
  return ok;
}

gboolean rep_html_correlations(rep_page *pg, GPtrArray *cs, GPtrArray *cols, GError **error)
{
  const study *s = pg->s;
  GString *h = pg->h;
  g_autofree char *title = g_strdup_printf("Do the static metrics predict the simulated %s?",
                                           rep_outcome(s));
  g_autofree char *gist = g_strdup_printf("Spearman's ρ and Pearson's r of each static metric "
                                          "against the simulated %s, per platform",
                                          rep_outcome(s));
  rep_section_open(pg, "prepost", title, gist, FALSE);
  if (cs->len == 0) {
    g_string_append(h, "<p>No trace in this study: nothing was simulated.</p>\n");
    rep_section_close(pg);
    return TRUE;
  }
  g_string_append(h, "<p>Spearman's ρ compares the rankings (ties at their average rank), "
                     "Pearson's r the linear fit, of each static metric (computed before the "
                     "replay) against the simulated <code>");
  html_text(h, s->report.time);
  g_string_append(h, "</code> over the strategies (and seeds) of a platform; n is the number of "
                     "cells. A correlation is undefined (-) when the metric or the outcome is the "
                     "same for every cell, or only one strategy ran. A metric is said to "
                     "predict the ranking when its ρ is positive and significant at the 5% "
                     "level: p is a two-sided permutation test of ρ (every order of the cells "
                     "up to 8, 20,000 random orders above). "
                     "<a href=\"correlations.csv\">correlations.csv</a> has every value.</p>\n");
  guint per = cols->len * (guint)s->nplatforms;
  gboolean ok = TRUE;
  for (guint g0 = 0; ok && g0 < cs->len; g0 += per) {
    corr *const *block = (corr *const *)&cs->pdata[g0];
    const study_input *in = &s->inputs[block[0]->input];
    g_autofree char *ctx = rep_context_label(s, block[0]->input, block[0]->kind,
                                             block[0]->model);
    g_string_append(h, "<h3>");
    html_text(h, ctx);
    g_string_append(h, "</h3>\n<ul class=\"verdict\">\n");
    for (int p = 0; p < s->nplatforms; p++)
      verdict(h, s, &block[p * cols->len], (int)MIN(cols->len, 64));
    g_string_append(h, "</ul>\n");
    GPtrArray *constant = g_ptr_array_new();
    corr_table(h, s, block, cols, constant);
    g_ptr_array_free(constant, TRUE);
    ok = corr_scatter(pg, block, cols, ctx, in, block[0]->kind, block[0]->model, error);
  }
  rep_section_close(pg);
  return ok;
}
