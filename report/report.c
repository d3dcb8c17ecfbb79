/* report.c - the study report: rankings, correlations and verdicts,
 * figures, index.html (see report.h). */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/figures.h"
#include "report/report-private.h"
#include "study/rank.h"
#include "study/stats.h"
#include "util/output.h"

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

/* ---- summary ---- */

/* "greedy" or "greedy = greedy+wh = scotch" (every strategy of rank 1). */
static char *best_names(const study *s, const rank_group *r)
{
  GString *t = g_string_new(NULL);
  int shown = 0, tied = 0;
  for (int k = 0; k < r->n && r->e[k].rank == 1; k++) {
    if (shown < 3)
      g_string_append_printf(t, "%s%s", shown ? " = " : "", s->strategies[r->e[k].strategy].label);
    else
      tied++;
    shown++;
  }
  if (tied)
    g_string_append_printf(t, " and %d more", tied);
  return g_string_free(t, FALSE);
}

/* The page's first screen: per ranking, the best strategy, its change,
 * the worst, and whether a static metric predicts the ranking; one line
 * each. */
static void html_summary(rep_page *pg, GPtrArray *groups, GPtrArray *cs, GPtrArray *cols)
{
  const study *s = pg->s;
  GString *h = pg->h;
  int ref = study_reference(s);
  gboolean one_metric = TRUE;
  for (guint g = 1; g < groups->len; g++)
    one_metric = one_metric && strcmp(((rank_group *)g_ptr_array_index(groups, g))->metric,
                                      ((rank_group *)g_ptr_array_index(groups, 0))->metric) == 0;
  g_string_append(h, "<section id=\"summary\"><h2>Summary</h2>\n<p>");
  if (one_metric && groups->len)
    html_printf(h, "Ranked by %s (lower is better). ",
                ((rank_group *)g_ptr_array_index(groups, 0))->metric);
  html_printf(h, "Best and worst strategy per input and platform, changes against %s; = joins "
              "ties (equal within a relative %g, or not told apart by a paired t-test over the "
              "seeds). Predictor: the static metric whose ranking agrees best with the "
              "simulated one (Spearman's ρ over n cells), named when significant (two-sided "
              "permutation test, p < 0.05). Details below.",
              ref >= 0 ? s->strategies[ref].label : "the first strategy", STATS_REL_TOL);
  g_string_append(h, "</p>\n<table class=\"summary\"><tr><th>input</th><th>platform</th>");
  if (!one_metric)
    g_string_append(h, "<th>ranked by</th>");
  g_string_append(h, "<th>best</th><th>change</th><th>worst</th><th>predictor</th></tr>\n");
  for (guint g = 0; g < groups->len; g++) {
    const rank_group *r = g_ptr_array_index(groups, g);
    const rank_entry *first = &r->e[0], *last = NULL;
    for (int k = 0; k < r->n; k++)
      if (r->e[k].rank > 0)
        last = &r->e[k];
    const rank_group *prev = g ? g_ptr_array_index(groups, g - 1) : NULL;
    g_string_append(h, "<tr><td>");
    if (!prev || prev->input != r->input || prev->kind != r->kind || prev->model != r->model) {
      const study_input *in = &s->inputs[r->input];
      GString *ctx = g_string_new(in->label);
      if (s->nmodels > 1 && r->model >= 0)
        g_string_append_printf(ctx, ", %s", rep_model_label(s, r->model));
      if (in->nkinds > 1)
        g_string_append_printf(ctx, ", by %s", study_kind_name(in->kinds[r->kind]));
      if (!in->t)
        g_string_append(ctx, " (matrix)");
      html_text(h, ctx->str);
      g_string_free(ctx, TRUE);
    }
    g_string_append(h, "</td><td>");
    html_text(h, s->platforms[r->platform].label);
    g_string_append(h, "</td>");
    if (!one_metric) {
      g_string_append(h, "<td><code>");
      html_text(h, r->metric);
      g_string_append(h, "</code></td>");
    }
    if (first->rank <= 0) {
      g_string_append(h, "<td colspan=\"4\" class=\"bad\">every cell failed</td></tr>\n");
      continue;
    }
    g_autofree char *best = best_names(s, r);
    char ch[32], v[32];
    rank_entry_change_text(ch, sizeof ch, r, first);
    g_string_append(h, "<td class=\"best\">");
    html_text(h, best);
    rep_value_text(v, sizeof v, r->metric, first->value);
    g_string_append_printf(h, " <span class=\"num\">%s</span></td><td class=\"num\">%s</td><td>",
                           v, first->strategy == r->reference ? "reference" : ch);
    if (last && last->rank != first->rank) {
      rank_entry_change_text(ch, sizeof ch, r, last);
      html_text(h, s->strategies[last->strategy].label);
      g_string_append_printf(h, " <span class=\"num\">%s</span>",
                             last->strategy == r->reference ? "(reference)" : ch);
    } else {
      g_string_append(h, "(all tied)");
    }
    g_string_append(h, "</td><td>");
    g_autofree char *pred = r->model >= 0 ? rep_verdict_short(s, cs, cols, r->input, r->kind,
                                                              r->model, r->platform) : NULL;
    html_text(h, pred ? pred : "- (static input)");
    g_string_append(h, "</td></tr>\n");
  }
  g_string_append(h, "</table>\n</section>\n");
}

/* ---- rankings ---- */

static void format_value(char *buf, size_t n, double v, int digits, const void *user)
{
  plot_format_digits(buf, n, v, rep_unit_of(rep_column_field(user)), digits);
}

static void html_rankings(rep_page *pg, GPtrArray *groups)
{
  const study *s = pg->s;
  GString *h = pg->h;
  rep_section_open(pg, "ranking", "Ranking per platform",
                   "every strategy in order, with its value and change", FALSE);
  int ref = study_reference(s);
  g_string_append(h, "<p>Each column lists the strategies of one platform, best first, with "
                     "their rank (=N: tied), the value of the ranking metric (mean over seeds, "
                     "with as many digits as tell neighbours apart) and its change against ");
  html_text(h, ref >= 0 ? s->strategies[ref].label : "identity (not in this study)");
  g_string_append(h, " (negative: better; 0%: equal).</p>\n");
  for (guint g0 = 0; g0 < groups->len; g0 += (guint)s->nplatforms) {
    const rank_group *first = g_ptr_array_index(groups, g0);
    g_autofree char *ctx = rep_context_label(s, first->input, first->kind, first->model);
    g_string_append(h, "<h3>");
    html_text(h, ctx);
    g_string_append(h, ": ranked by <code>");
    html_text(h, first->metric);
    g_string_append(h, "</code></h3>\n<table class=\"rank\"><tr>");
    html_platform_heads(h, s, "");
    int digits[64];
    for (int p = 0; p < s->nplatforms && p < 64; p++) {
      const rank_group *r = g_ptr_array_index(groups, g0 + (guint)p);
      digits[p] = rank_digits(r, 5, format_value, r->metric);
    }
    for (int k = 0; k < s->nstrategies; k++) {
      g_string_append(h, "<tr>");
      for (int p = 0; p < s->nplatforms; p++) {
        const rank_group *r = g_ptr_array_index(groups, g0 + (guint)p);
        const rank_entry *e = &r->e[k];
        const char *cls = e->strategy == r->reference ? " class=\"ref\""
                          : e->rank == 1 ? " class=\"best\"" : "";
        char rk[16];
        rank_text(rk, sizeof rk, e);
        g_string_append_printf(h, "<td%s><span class=\"rk\">%s</span> ", cls, rk);
        html_text(h, s->strategies[e->strategy].label);
        if (isnan(e->value)) {
          g_string_append(h, " <span class=\"bad\">failed</span></td>");
          continue;
        }
        char v[48], ch[32];
        format_value(v, sizeof v, e->value, p < 64 ? digits[p] : 5, r->metric);
        g_string_append_printf(h, " <span class=\"num\">%s", v);
        if (!isnan(e->change) && e->strategy != r->reference) {
          rank_entry_change_text(ch, sizeof ch, r, e);
          g_string_append_printf(h, " (%s)", ch);
        }
        g_string_append(h, "</span></td>");
      }
      g_string_append(h, "</tr>\n");
    }
    g_string_append(h, "</table>\n");
  }
  rep_section_close(pg);
}

/* ---- sweeps: the ranking metric against a swept platform value ---- */

static gboolean html_sweep(rep_page *pg, const study_sweep *sw, int i, int k, int m,
                           GError **error)
{
  const study *s = pg->s;
  const study_input *in = &s->inputs[i];
  g_autofree char *metric = study_rank_metric(s, i);
  double *y = g_new(double, (gsize)s->nstrategies * (gsize)sw->n);
  for (int st = 0; st < s->nstrategies; st++)
    for (int j = 0; j < sw->n; j++)
      y[st * sw->n + j] = study_mean(s, i, k, sw->platforms[j], st, m, metric, NULL);
  g_autofree char *ctx = rep_context_label(s, i, k, in->t ? m : -1);
  g_autofree char *title = g_strdup_printf("%s: %s against %s%s%s", ctx, metric, sw->key,
                                           *sw->fixed ? ", " : "", sw->fixed);
  /* the x axis in the unit the study wrote (Gbit/s), else the quantity's */
  const char *unit = sw->unit ? sw->unit : units_name(sw->quantity);
  g_autofree char *xlabel = *unit ? g_strdup_printf("%s (%s)", sw->key, unit)
                                  : g_strdup(sw->key);
  double *x = g_new(double, sw->n);
  for (int j = 0; j < sw->n; j++)
    x[j] = sw->unit ? sw->values[j] / sw->per_unit : sw->values[j];
  const char **series = rep_strategy_labels(s);
  fig_sweep_data d = { title, xlabel,
                       !sw->unit && sw->quantity == UNITS_TIME ? PLOT_SECONDS : PLOT_NUMBER, x,
                       sw->n, metric, rep_unit_of(rep_column_field(metric)), series,
                       s->nstrategies, y };
  /* named after the model too: one figure per model */
  const char *parts[] = { in->label, in->t ? rep_model_label(s, m) : sw->key,
                          in->t ? sw->key : (*sw->fixed ? sw->fixed : NULL),
                          in->t && *sw->fixed ? sw->fixed : NULL, NULL };
  g_autofree char *stem = rep_stem(pg, "sweep", parts);
  g_autofree char *caption = g_strdup_printf(
      "%s; x: %s, y: %s (from zero), one line per strategy; platforms %s to %s", title, xlabel,
      metric, s->platforms[sw->platforms[0]].label, s->platforms[sw->platforms[sw->n - 1]].label);
  gboolean ok = fig_sweep(pg->fig, stem, &d, error) && html_figure(pg, stem, caption, error);
  g_free(series);
  g_free(y);
  g_free(x);
  return ok;
}

/* Per sweep of the study (study_sweeps) and per input, kind and model, the
 * co-design figure: which mapping wins at which value. */
static gboolean html_sweeps(rep_page *pg, GError **error)
{
  const study *s = pg->s;
  GPtrArray *sweeps = study_sweeps(s);
  gboolean ok = TRUE;
  if (sweeps->len) {
    rep_section_open(pg, "sweeps", "Sweeps", "the ranking metric against each swept platform "
                     "value, and which strategy wins where", TRUE);
    for (guint w = 0; ok && w < sweeps->len; w++)
      for (int i = 0; ok && i < s->ninputs; i++)
        for (int k = 0; ok && k < s->inputs[i].nkinds; k++)
          for (int m = 0; ok && m < study_input_nmodels(s, i); m++)
            ok = html_sweep(pg, sweeps->pdata[w], i, k, m, error);
    rep_section_close(pg);
  }
  g_ptr_array_unref(sweeps);
  return ok;
}

/* ---- strategies per platform (Figs. 4-6) ---- */

static gboolean html_groups(rep_page *pg, GError **error)
{
  const study *s = pg->s;
  g_autofree char *gist = g_strdup_printf("hop-bytes, busiest link and simulated %s against "
                                          "the reference", rep_outcome(s));
  rep_section_open(pg, "strategies", "Strategies per platform", gist, FALSE);
  g_string_append(pg->h, "<p>Each marker is one strategy (and seed); the green line is the "
                         "reference mapping (korndoerfer2021 Figs. 4-6). Every axis starts at "
                         "zero.</p>\n");
  int ref = study_reference(s);
  const char **plats = rep_platform_labels(s), **series = rep_strategy_labels(s);
  gboolean ok = TRUE;
  for (int i = 0; ok && i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
    int nm = study_input_nmodels(s, i);
    for (int m = 0; ok && m < nm; m++) {
      int model = in->t ? m : -1;
      const char *want_trace[] = { "pre_hop_bytes", "pre_max_link_bytes", "p2p_transfer_sum_s",
                                   s->report.time };
      const char *titles_trace[] = { "hop-bytes (static)", "busiest link's bytes (static)",
                                     "p2p transfer time, summed (simulated)", NULL };
      const char *want_static[] = { "pre_hop_bytes", "pre_max_link_bytes", "pre_max_link_time" };
      const char *titles_static[] = { "hop-bytes (static)", "busiest link's bytes (static)",
                                      "busiest link's bytes/bandwidth (static)" };
      const char **want = in->t ? want_trace : want_static;
      const char **titles = in->t ? titles_trace : titles_static;
      int nwant = in->t ? (strcmp(s->report.time, "p2p_transfer_sum_s") ? 4 : 3) : 3;
      fig_metric mets[4];
      fig_point *pts[4] = { 0 };
      double *refs[4] = { 0 };
      char *time_title = NULL;
      int nmet = 0;
      for (int w = 0; w < nwant; w++) {
        if (!rep_has_column(s, want[w]))
          continue;
        int cap = in->nkinds * s->nplatforms * s->nstrategies * s->nseeds;
        fig_point *pt = pts[nmet] = g_new(fig_point, MAX(cap, 1));
        double *rv = refs[nmet] = g_new(double, s->nplatforms);
        int n = 0;
        for (int p = 0; p < s->nplatforms; p++) {
          rv[p] = ref >= 0 ? study_mean(s, i, 0, p, ref, m, want[w], NULL) : NAN;
          const int at[STUDY_NDIMS] = { [STUDY_DIM_INPUT] = i, [STUDY_DIM_PLATFORM] = p,
                                        [STUDY_DIM_MODEL] = m };
          study_walk cells;
          for (study_walk_start(&cells, s, "ksd", at); study_walk_next(&cells);) {
            const study_cell *c = study_walk_cell(&cells);
            double v;
            if (c->row && !c->error && row_get_number(c->row, want[w], &v))
              pt[n++] = (fig_point){ p, c->strategy, in->kinds[c->kind] == STUDY_KIND_COUNT, v };
          }
        }
        const char *title = titles[w];
        if (!title)
          title = time_title = g_strdup_printf("%s (simulated)", want[w]);
        mets[nmet++] = (fig_metric){ title, rep_unit_of(rep_column_field(want[w])), pt, n, rv };
      }
      g_autofree char *ctx = rep_context_label(s, i, -1, model);
      gboolean counts = FALSE;
      for (int k = 0; k < in->nkinds; k++)
        counts |= in->kinds[k] == STUDY_KIND_COUNT;
      fig_groups_data d = { ctx, plats, s->nplatforms, series, s->nstrategies,
                            ref >= 0 ? s->strategies[ref].label : NULL,
                            counts ? "mapped by message counts" : NULL, mets, nmet };
      const char *parts[] = { in->label, in->t ? rep_model_label(s, model) : NULL, NULL };
      g_autofree char *stem = rep_stem(pg, "strategies", parts);
      ok = fig_groups(pg->fig, stem, &d, error) && html_figure(pg, stem, ctx, error);
      for (int k = 0; k < nmet; k++) {
        g_free(pts[k]);
        g_free(refs[k]);
      }
      g_free(time_title);
    }
  }
  g_free(plats);
  g_free(series);
  rep_section_close(pg);
  return ok;
}

/* ---- matrices (Fig. 2) ---- */

static gboolean html_matrices(rep_page *pg, GError **error)
{
  const study *s = pg->s;
  rep_section_open(pg, "matrices", "Communication matrices",
                   "messages and bytes between every pair of ranks", FALSE);
  g_string_append(pg->h, "<p>Messages and bytes from each sender (row) to each receiver "
                         "(column), rank 0 top left, white where nothing is sent "
                         "(korndoerfer2021 Fig. 2). For traces: the traffic the static metrics "
                         "count.</p>\n");
  gboolean ok = TRUE;
  for (int i = 0; ok && i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
    char bytes[32];
    plot_format(bytes, sizeof bytes, (double)commgraph_total_bytes(in->g), PLOT_NUMBER);
    g_autofree char *title = g_strdup_printf(
        "%s: %d ranks, %s bytes%s", in->label, in->g->n, bytes,
        in->t ? (in->g_collectives ? " (p2p + collectives)" : " (p2p)") : " (matrix)");
    const char *parts[] = { in->label, NULL };
    g_autofree char *stem = rep_stem(pg, "matrix", parts);
    ok = fig_matrix(pg->fig, stem, title, in->g, error) &&
         html_figure(pg, stem, title, error);
  }
  rep_section_close(pg);
  return ok;
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

/* "rank =2 of 9, +38.3% against identity" (caller frees). */
static char *rank_phrase(const study *s, const rank_group *r, int strategy)
{
  for (int k = 0; k < r->n; k++) {
    const rank_entry *e = &r->e[k];
    if (e->strategy != strategy)
      continue;
    char rk[16], ch[32];
    rank_text(rk, sizeof rk, e);
    int ranked = 0;
    for (int q = 0; q < r->n; q++)
      ranked += r->e[q].rank > 0;
    if (strategy == r->reference)
      return g_strdup_printf("the reference, rank %s of %d", rk, ranked);
    rank_entry_change_text(ch, sizeof ch, r, e);
    return g_strdup_printf("rank %s of %d, %s %s against %s", rk, ranked, ch, r->metric,
                           r->reference >= 0 ? s->strategies[r->reference].label : "-");
  }
  return g_strdup("");
}

static gboolean html_links(rep_page *pg, GPtrArray *groups, GError **error)
{
  const study *s = pg->s;
  GString *h = pg->h;
  int i = links_input(s);
  const study_input *in = &s->inputs[i];
  gboolean busy = s->report.color_busy && in->t;
  rep_section_open(pg, "links", "Link loads", "the busiest links of three mappings per platform",
                   FALSE);
  g_string_append(h, "<p>");
  html_printf(h, "Input %s: per platform the reference mapping and the best and the worst of "
              "the other strategies (by the ranking above; each title gives the rank), links "
              "coloured by %s on one colour scale shared by the mappings of a platform; then "
              "the busiest link per dimension and direction (deveci-geometric Fig. 12).",
              in->label, busy ? "busy time" : "bytes");
  g_string_append(h, "</p>\n");
  int ref = study_reference(s);
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
      nsets++;
    }
    gboolean ok = TRUE;
    const int64_t *bytes[3];
    const char *labels[3];
    char *named[3] = { 0 };
    char top[32];
    plot_format(top, sizeof top, vmax, busy ? PLOT_SECONDS : PLOT_NUMBER);
    g_autofree char *scale = g_strdup_printf("colour scale shared by the %d mappings of %s shown: 0 to %s%s",
                            nsets, sp->label, top, busy ? "" : " bytes");
    for (int k = 0; ok && k < nsets; k++) {
      const char *label = s->strategies[picks[k]].label;
      g_autofree char *phrase = rank_phrase(s, r, picks[k]);
      g_autofree char *title = g_strdup_printf("%s of %s on %s mapped by %s (%s)",
                                               busy ? "Link busy time" : "Link bytes", in->label,
                                               sp->label, label, phrase);
      const char *parts[] = { in->label, sp->label, label, NULL };
      g_autofree char *stem = rep_stem(pg, "links", parts);
      ok = fig_links(pg->fig, stem, title, sp->p, vals[k], vmax,
                     busy ? PLOT_SECONDS : PLOT_NUMBER, busy ? "busy time" : "bytes", scale,
                     error) &&
           html_figure(pg, stem, title, error);
      const metrics *m = res[k]->post ? res[k]->post : res[k]->pre;
      bytes[k] = m->link_bytes;
      labels[k] = named[k] = g_strdup_printf("%s (%s)", label,
                                             picks[k] == ref ? "reference"
                                             : k == 1 ? "best other" : "worst");
    }
    if (ok && nsets) {
      g_autofree char *title = g_strdup_printf("%s on %s: busiest link per %s", in->label,
                                               sp->label, sp->p->topo->nswitches
                                                              ? "link class"
                                                              : "dimension and direction");
      const char *parts[] = { in->label, sp->label, NULL };
      g_autofree char *stem = rep_stem(pg, "directions", parts);
      ok = fig_directions(pg->fig, stem, title, sp->p, bytes, labels, nsets, error) &&
           html_figure(pg, stem, title, error);
    }
    for (int k = 0; k < 3; k++) {
      run_result_free(res[k]);
      g_free(vals[k]);
      g_free(named[k]);
    }
    if (!ok)
      return FALSE;
  }
  rep_section_close(pg);
  return TRUE;
}

/* ---- the rest ---- */

/* The mixes' part of the checks: how many ran, whether pre == post held
 * for the union and every job alone, and each failed mix with its reason. */
static void html_mix_checks(rep_page *pg)
{
  const study *s = pg->s;
  GString *h = pg->h;
  int n = study_nmixes(s), failed = 0, bad = 0;
  for (int i = 0; i < n; i++) {
    failed += s->mixes[i] == NULL;
    bad += s->mixes[i] && !mix_result_matches(s->mixes[i]);
  }
  g_string_append(h, "<p>");
  html_printf(h, "%d mix%s of several jobs, %d failed; the pre/post check (each job's static "
              "link bytes and hop-bytes equal its run alone, the union's the mix's) ", n,
              n == 1 ? "" : "es", failed);
  if (n == failed)
    g_string_append(h, "ran in none.");
  else if (!bad)
    html_printf(h, "holds in all %d that ran.", n - failed);
  else
    html_printf(h, "FAILS in %d of %d (jobs.csv: pre_post_match = false).", bad, n - failed);
  g_string_append(h, " Every job of every mix: <a href=\"jobs.csv\">jobs.csv</a>, "
                     "<a href=\"jobs.json\">jobs.json</a>.</p>\n");
  if (!failed)
    return;
  g_string_append(h, "<table class=\"failed\"><tr><th>jobs</th><th>platform</th><th>policy"
                     "</th><th>model</th><th>error</th></tr>\n");
  for (int i = 0; i < n; i++) {
    if (s->mixes[i])
      continue;
    study_mix_key k;
    study_mix_at(s, i, &k);
    const char *policy = study_mix_policy(s, &k);
    const char *cells[] = { s->jobfiles[k.jobs]->name, s->platforms[k.platform].label,
                            policy ? policy : "as in the file", s->models[k.model]->name,
                            s->mix_errors[i] ? s->mix_errors[i]->message : "?" };
    g_string_append(h, "<tr>");
    for (size_t c = 0; c < G_N_ELEMENTS(cells); c++) {
      g_string_append(h, "<td>");
      html_text(h, cells[c]);
      g_string_append(h, "</td>");
    }
    g_string_append(h, "</tr>\n");
  }
  g_string_append(h, "</table>\n");
}

/* The cells' counts and check, and each failed cell with its reason. */
static void html_cell_checks(rep_page *pg, int sim, int match, int failed)
{
  const study *s = pg->s;
  GString *h = pg->h;
  g_string_append(h, "<p>");
  html_printf(h, "%d cells, %d simulated; the pre/post check (the static metrics' link bytes "
              "and hop-bytes equal the replay's, korndoerfer2021 Section 7.4) ", s->ncells, sim);
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
                            s->strategies[c->strategy].label, rep_model_label(s, c->model) };
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

/* The cells' part of the checks, then the mixes'. */
static void html_checks(rep_page *pg)
{
  const study *s = pg->s;
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
  int nmix = s->mixes ? study_nmixes(s) : 0, mix_failed = 0, mix_bad = 0, mix_ok = 0;
  for (int i = 0; i < nmix; i++) {
    mix_failed += s->mixes[i] == NULL;
    mix_bad += s->mixes[i] && !mix_result_matches(s->mixes[i]);
  }
  mix_ok = nmix - mix_failed;
  GString *gist = g_string_new(NULL);
  gboolean cells = s->ncells > 0 || !s->mixes;
  if (cells)
    g_string_append_printf(gist, "%d cells, %d failed; the static = simulated link bytes check "
                           "%s", s->ncells, failed, !sim ? "needs a replay"
                           : match == sim ? "holds" : "FAILS");
  if (nmix)
    g_string_append_printf(gist, "%s%d mix%s, %d failed; their check %s", cells ? "; " : "",
                           nmix, nmix == 1 ? "" : "es", mix_failed, !mix_ok ? "did not run"
                           : mix_bad ? "FAILS" : "holds");
  rep_section_open(pg, "cells", !cells ? "Checks" : "Cells and checks", gist->str,
                   failed > 0 || match < sim || mix_failed > 0 || mix_bad > 0);
  g_string_free(gist, TRUE);
  if (cells)
    html_cell_checks(pg, sim, match, failed);
  if (nmix)
    html_mix_checks(pg);
  rep_section_close(pg);
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
  "figcaption{font-size:.85em;color:#555}nav a{margin-right:1em}ul.verdict li{margin:.2em 0}"
  "details{border-top:1px solid #ccc;margin:.4em 0}summary{cursor:pointer;padding:.4em 0}"
  "summary h2{display:inline;border:0;margin:0;font-size:1.25em}.gist{color:#666;margin-left:.6em}"
  "section h2{margin-top:1em}table.summary{font-size:.82em}table.summary td{padding:.15em .5em}.rk{color:#666;font-size:.85em}p.note{color:#555;font-size:.9em}"
  ".foot{color:#888;font-size:.8em}";

/* A model that does not decide adaptive routings by load (the analytic
 * one sees none) takes an adaptive routing's minimal candidate: its cells
 * on such a platform are the minimal routing's; one line says so. */
static void html_adaptive_note(GString *h, const study *s)
{
  GString *plats = g_string_new(NULL);
  for (int p = 0; p < s->nplatforms; p++)
    if (s->platforms[p].p && run_checks_routes(s->platforms[p].p))
      g_string_append_printf(plats, "%s%s", plats->len ? ", " : "", s->platforms[p].label);
  for (int m = 0; plats->len && s->ninputs && m < s->nmodels; m++)
    if (!(s->models[m]->impl->caps & NETMODEL_CAP_ADAPTIVE)) {
      g_string_append(h, "<p class=\"note\">");
      html_printf(h, "Under the %s model, which sees no load, an adaptive routing takes its "
                  "minimal candidate: its cells on %s are those of minimal routing.",
                  s->models[m]->name, plats->str);
      g_string_append(h, "</p>\n");
    }
  g_string_free(plats, TRUE);
}

/* The sections a page may have, in page order, and their links' words. */
static const struct {
  const char *id, *label;
} nav_sections[] = {
  { "summary", "summary" },     { "ranking", "ranking" },       { "sweeps", "sweeps" },
  { "prepost", "static vs simulated" }, { "strategies", "strategies" },
  { "matrices", "matrices" },   { "links", "link loads" },      { "timeline", "timeline" },
  { "jobs", "jobs" },           { "cells", "checks" },
};

/* The page's links at `at`: one to each section the page has, none to a
 * section it left out (a study of jobs files only has no ranking). */
static void insert_nav(GString *h, size_t at)
{
  GString *nav = g_string_new("<nav>");
  for (size_t i = 0; i < G_N_ELEMENTS(nav_sections); i++) {
    g_autofree char *id = g_strdup_printf(" id=\"%s\"", nav_sections[i].id);
    if (strstr(h->str + at, id))
      g_string_append_printf(nav, "<a href=\"#%s\">%s</a>", nav_sections[i].id,
                             nav_sections[i].label);
  }
  g_string_append(nav, "</nav>\n");
  g_string_insert(h, (gssize)at, nav->str);
  g_string_free(nav, TRUE);
}

char *report_study(const study *s, const char *dir, int threads, const progress *prog,
                   GError **error)
{
  rep_page pg = { .s = s, .dir = dir, .figdir = g_build_filename(dir, "figures", NULL),
                  .stems = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
  if (g_mkdir_with_parents(pg.figdir, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", pg.figdir,
                g_strerror(errno));
    g_free(pg.figdir);
    g_hash_table_destroy(pg.stems);
    return NULL;
  }
  pg.fig = plot_writer_new(pg.figdir, MAX(threads, 1));
  GPtrArray *groups = study_rank(s);
  GPtrArray *cols = rep_static_columns(s);
  GPtrArray *cs = rep_correlations(s, cols);
  GString *h = pg.h = g_string_new("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                                   "charset=\"utf-8\"><title>");
  html_printf(h, "mapsim study: %s", s->name);
  g_string_append_printf(h, "</title>\n<style>%s</style></head><body>\n<h1>", css);
  html_printf(h, "mapsim study: %s", s->name);
  g_string_append(h, "</h1>\n<p>");
  g_autofree char *size = study_describe(s);
  html_printf(h, "%s.", size);
  g_string_append(h, "</p>\n");
  html_adaptive_note(h, s);
  size_t nav_at = h->len; /* the links, once the sections are known */
  if (groups->len) { /* a study of jobs files only ranks nothing */
    html_summary(&pg, groups, cs, cols);
    html_rankings(&pg, groups);
  }
  /* the sections, in page order: one call each */
  /* the steps as done/total ("report: 3/9"): the sections, the figures'
   * encoding, the page */
  uint64_t step = 0, steps = (s->ninputs ? 6 : 0) + (s->mixes ? 1 : 0) + 2;
  progress_report(prog, "report", step, steps);
#define STEP(call) ((call) && progress_check(prog, error) && \
                    (progress_report(prog, "report", ++step, steps), TRUE))
  gboolean ok = (s->ninputs == 0 || /* a study of jobs files only */
                 (STEP(html_sweeps(&pg, error)) && rep_write_correlations(s, cs, dir, error) &&
                  STEP(rep_html_correlations(&pg, cs, cols, error)) &&
                  STEP(html_groups(&pg, error)) && STEP(html_matrices(&pg, error)) &&
                  STEP(html_links(&pg, groups, error)) &&
                  STEP(rep_html_timeline(&pg, groups, links_input(s), error)))) &&
                (!s->mixes || STEP(rep_html_jobs(&pg, error)));
  ok = plot_writer_finish(pg.fig, ok ? error : NULL) && ok;
  ok = ok && STEP(TRUE);
  html_checks(&pg);
  insert_nav(h, nav_at);
  g_string_append(h, "<p class=\"foot\">Written by mapsim study; figures drawn with cairo "
                     "(each also as SVG and PNG in figures/).</p>\n</body></html>\n");
  char *index = g_build_filename(dir, "index.html", NULL);
  g_autofree char *page = ok ? embed_pngs(h->str, dir, error) : NULL;
  ok = page && study_write_file(index, page, strlen(page), error) && STEP(TRUE);
#undef STEP
  g_string_free(h, TRUE);
  g_free(pg.figdir);
  g_hash_table_destroy(pg.stems);
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

