/* cmd-compare.c - `mapsim compare`: traces (or matrices) on several
 * platforms with several strategies, each input a small study
 * (study/study.h) run in parallel; per platform the cells ranked (the study
 * report's ranking, study/rank.h), each key result's change against
 * a baseline strategy in percent, nodes used, the pre/post check
 * (korndoerfer2021 Sections 7.1-7.4). */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "routing/energy.h"
#include "cli/cli.h"
#include "study/rank.h"
#include "study/stats.h"
#include "study/study.h"
#include "traces/input.h"

/* The results set side by side, as columns of the cells' rows: static
 * hop-bytes, busiest link, bandwidth-weighted hops; simulated makespan and
 * summed transfer time; the links' energy when a platform's links draw
 * power (routing/energy.h). */
static const char *const key_columns[] = { "pre_hop_bytes", "pre_max_link_bytes", "pre_hop_time",
                                           "makespan_s", "p2p_transfer_sum_s", "energy_j" };
#define NKEYS_STATIC 3
#define NKEYS_SIMULATED 5

/* The key columns a study shows: static ones for matrices, simulated ones
 * with a trace, energy_j when one of its platforms has link power. */
static int nkeys_of(const study *s)
{
  if (!s->inputs[0].t)
    return NKEYS_STATIC;
  for (int p = 0; p < s->nplatforms; p++)
    if (s->platforms[p].p && platform_has_power(s->platforms[p].p))
      return (int)G_N_ELEMENTS(key_columns);
  return NKEYS_SIMULATED;
}

/* A key column's name without its group ("hop_bytes"). */
static const char *bare(const char *column)
{
  return g_str_has_prefix(column, "pre_") ? column + 4 : column;
}

/* Ranks and changes against the baseline, added to every cell's row as
 * "rank" and "change_pct": {KEY: percent} (null when unknown). */
static void annotate(study *s, int base)
{
  GPtrArray *groups = study_rank_against(s, base);
  int nkeys = nkeys_of(s);
  for (guint gi = 0; gi < groups->len; gi++) {
    const rank_group *g = g_ptr_array_index(groups, gi);
    for (int k = 0; k < g->n; k++) {
      const rank_entry *e = &g->e[k];
      study_cell *c = study_cell_at(s, g->input, g->kind, g->platform, e->strategy, g->model, 0);
      if (!c->row || c->error)
        continue;
      row_group(c->row, NULL);
      row_add_int(c->row, "rank", e->rank);
      row_group(c->row, "change_pct");
      for (int q = 0; q < nkeys; q++) {
        double v = study_mean(s, g->input, g->kind, g->platform, e->strategy, g->model,
                              key_columns[q], NULL);
        double b = study_mean(s, g->input, g->kind, g->platform, base, g->model,
                              key_columns[q], NULL);
        /* equal values change by 0, never by -0 or by rounding noise */
        double pct = !isnan(v) && !isnan(b) && stats_equal(v, b) ? 0
                     : isnan(v) || isnan(b) || b == 0 ? NAN
                     : 100.0 * (v - b) / b;
        if (isnan(pct))
          row_add_string(c->row, bare(key_columns[q]), NULL);
        else
          row_add_double(c->row, bare(key_columns[q]), pct);
      }
      row_group(c->row, NULL);
    }
  }
  g_ptr_array_unref(groups);
}

/* Is column `name` of a row a fraction (not an integer)? */
static gboolean is_fraction(const result_row *r, const char *name)
{
  int i = row_find(r, name);
  const char *csv = i < 0 ? "" : row_csv_text(r, i);
  return strchr(csv, 'e') || strchr(csv, '.');
}

/* The text of column `name` of a row with `digits` significant digits
 * (integers exactly), with its change when asked. */
static char *cell_text(const result_row *r, const char *name, int digits, gboolean with_change)
{
  int i = row_find(r, name);
  if (i < 0)
    return g_strdup("");
  double v;
  GString *t = g_string_new(NULL);
  if (is_fraction(r, name) && row_get_number(r, name, &v))
    g_string_printf(t, "%.*g", digits, v);
  else
    g_string_assign(t, row_csv_text(r, i));
  g_autofree char *ch = g_strconcat("change_pct_", bare(name), NULL);
  double pct;
  char buf[32];
  if (with_change && row_get_number(r, ch, &pct)) {
    rank_change_text(buf, sizeof buf, pct, pct == 0);
    g_string_append_printf(t, " (%s)", buf);
  }
  return g_string_free(t, FALSE);
}

static void format_g(char *buf, size_t n, double v, int digits, const void *user)
{
  (void)user;
  g_snprintf(buf, n, "%.*g", digits, v);
}

/* Rows of cells with columns sized to their content (the first two
 * left-aligned). */
static void print_rows(GPtrArray *rows, int ncols)
{
  int *w = g_new0(int, ncols);
  for (guint r = 0; r < rows->len; r++) {
    char **cells = g_ptr_array_index(rows, r);
    for (int c = 0; c < ncols && cells[c]; c++)
      w[c] = MAX(w[c], (int)g_utf8_strlen(cells[c], -1));
  }
  for (guint r = 0; r < rows->len; r++) {
    char **cells = g_ptr_array_index(rows, r);
    for (int c = 0; c < ncols && cells[c]; c++) {
      int pad = w[c] - (int)g_utf8_strlen(cells[c], -1);
      if (c < 2)
        printf("%s%s%*s", c ? "  " : "", cells[c], c == 1 ? pad : pad, "");
      else
        printf("  %*s%s", pad, "", cells[c]);
    }
    printf("\n");
  }
  g_free(w);
}

static void print_table(const study *s, int base)
{
  const study_input *in = &s->inputs[0];
  int nkeys = nkeys_of(s);
  if (in->t)
    printf("%s: %d ranks, model %s, traffic %s; changes against %s\n", in->label,
           in->t->nranks, s->models[0]->name, run_traffic_name(in->g_collectives),
           s->strategies[base].label);
  else
    printf("%s: %d ranks, static metrics only (no trace to replay); changes against %s\n",
           in->label, in->g->n, s->strategies[base].label);
  int ncols = 3 + nkeys + (in->t ? 1 : 0);
  GPtrArray *groups = study_rank_against(s, base);
  for (guint gi = 0; gi < groups->len; gi++) {
    const rank_group *g = g_ptr_array_index(groups, gi);
    const study_platform *sp = &s->platforms[g->platform];
    printf("\n%s", sp->p ? sp->p->name : sp->label);
    if (sp->p)
      printf(" (%d allocated nodes, %d core%s each, fill %s)", sp->p->nalloc,
             sp->p->cores_per_node, sp->p->cores_per_node == 1 ? "" : "s",
             platform_fill_name(sp->p->fill));
    printf("\n");
    /* 7 significant digits, or as many as neighbours of different rank
     * need (CSV and JSON keep all) */
    int digits = rank_digits(g, 7, format_g, NULL);
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    char **head = g_new0(char *, ncols + 1);
    head[0] = g_strdup("rank");
    head[1] = g_strdup("strategy");
    head[2] = g_strdup("nodes x ranks");
    for (int q = 0; q < nkeys; q++)
      head[3 + q] = g_strdup(bare(key_columns[q]));
    gboolean taken = sp->p && run_checks_routes(sp->p);
    if (in->t)
      head[ncols - 1] = g_strdup(taken ? "routes-taken" : "pre=post");
    g_ptr_array_add(rows, head);
    for (int k = 0; k < g->n; k++) {
      const study_cell *c = study_cell_at(s, g->input, g->kind, g->platform, g->e[k].strategy,
                                          g->model, 0);
      char **row = g_new0(char *, ncols + 1);
      const char *chosen = c->row ? row_get_string(c->row, "objective") : NULL;
      row[1] = chosen ? g_strdup_printf("%s (by %s)", s->strategies[c->strategy].label, chosen)
                      : g_strdup(s->strategies[c->strategy].label);
      if (c->error) {
        row[0] = g_strdup("-");
        row[2] = g_strdup("failed (the error is on stderr)");
      } else {
        char rk[16];
        rank_text(rk, sizeof rk, &g->e[k]);
        row[0] = g_strdup(rk);
        g_autofree char *nodes = cell_text(c->row, "pre_nodes_used", 0, FALSE);
        g_autofree char *per = cell_text(c->row, "pre_ranks_per_node", 0, FALSE);
        row[2] = g_strdup_printf("%s x %s", nodes, per);
        for (int q = 0; q < nkeys; q++)
          row[3 + q] = q >= NKEYS_SIMULATED && !(sp->p && platform_has_power(sp->p))
                           ? g_strdup("-")
                           : cell_text(c->row, key_columns[q],
                                       strcmp(key_columns[q], g->metric) == 0 ? digits : 7,
                                       c->strategy != base);
        if (in->t)
          row[ncols - 1] = g_strdup(c->res && c->res->mismatch < 0 ? "yes" : "NO");
      }
      g_ptr_array_add(rows, row);
    }
    print_rows(rows, ncols);
    g_ptr_array_free(rows, TRUE);
  }
  gboolean any_taken = FALSE;
  for (guint gi = 0; gi < groups->len; gi++) {
    const rank_group *g = g_ptr_array_index(groups, gi);
    const study_platform *sp = &s->platforms[g->platform];
    any_taken = any_taken || (sp->p && run_checks_routes(sp->p));
  }
  g_ptr_array_unref(groups);
  if (in->t && any_taken)
    printf("\nroutes-taken (adaptive routings): the static metrics are those of the minimal\n"
           "routes; every link carried in the replay the bytes of the routes it took, and\n"
           "the injection and ejection links what the static metrics said.\n");
  if (in->t) {
    printf("\nRanked by simulated makespan; =N: tied (equal within a relative %g); in\n"
           "parentheses the change against %s (0%%: equal).\n"
           "nodes x ranks: nodes used x the most ranks on one. hop_bytes, max_link_bytes (the\n"
           "busiest link) and hop_time (hop-bytes weighted by link speed) are static, %s\n"
           "traffic; makespan_s and p2p_transfer_sum_s (network time of every p2p message,\n"
           "added up) are simulated. pre=post: every link carried in the replay what the\n"
           "static metrics said. --csv and --json give every value in full.\n",
           STATS_REL_TOL, s->strategies[base].label, run_traffic_name(in->g_collectives));
    if (nkeys > NKEYS_SIMULATED)
      printf("energy_j: the links' energy over the makespan, idle power included\n"
             "(configs/README.md, \"Link energy\"); - where a platform's links draw no power.\n");
  } else {
    printf("\nRanked by hop_bytes; =N: tied (equal within a relative %g); in parentheses the\n"
           "change against %s (0%%: equal).\n", STATS_REL_TOL, s->strategies[base].label);
  }
  for (int i = 0; i < s->ncells; i++)
    if (s->cells[i].row && row_get_string(s->cells[i].row, "objective")) {
      printf("(by OBJECTIVE): the objective that chose the mapping among candidates (portfolio,\n"
             "replay); objective and map_replays in --csv and --json.\n");
      break;
    }
}

/* Cells of one platform that use different numbers of nodes compare
 * placements of different jobs: say so. */
static void warn_nodes(const study *s)
{
  for (int p = 0; p < s->nplatforms; p++) {
    double nodes = NAN;
    for (int st = 0; st < s->nstrategies; st++) {
      const study_cell *c = study_cell_at(s, 0, 0, p, st, 0, 0);
      double n;
      if (!c->row || c->error || !row_get_number(c->row, "pre_nodes_used", &n))
        continue;
      if (!isnan(nodes) && n != nodes) {
        fprintf(stderr, "mapsim: warning: on %s the mappings use different numbers of nodes "
                "(%.0f and %.0f): their metrics compare different jobs\n",
                s->platforms[p].label, nodes, n);
        break;
      }
      nodes = n;
    }
  }
}

/* The strategy the changes are measured against: --baseline (one of the
 * strategies), else identity when listed, else the first one. */
static int find_baseline(const char *const *sv, const char *baseline, GError **error)
{
  int n = (int)g_strv_length((char **)sv);
  for (int j = 0; j < n; j++)
    if (g_strcmp0(sv[j], baseline ? baseline : "identity") == 0)
      return j;
  if (!baseline)
    return 0;
  g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
              "--baseline %s: not one of the strategies compared, expected one of the -s values",
              baseline);
  return -1;
}

/* Every strategy and the --collectives spec checked as run_cell will
 * check them, before any input is read or any cell runs. */
static gboolean check_strategies(const cli_common *c, const char *const *sv, GError **error)
{
  for (int j = 0; sv[j]; j++) {
    run_spec spec;
    run_spec_init(&spec);
    spec.strategy = sv[j];
    spec.opts.collectives = c->collectives;
    if (!run_spec_check(&spec, error))
      return FALSE;
  }
  return TRUE;
}

/* One input (a trace, or a matrix with its counts) laid out on every
 * platform x strategy, nothing run yet; NULL + error when it cannot be
 * read, a platform does not load or cannot hold it. */
static study *prepare_input(const cli_common *c, const char *trace_path, const char *matrix,
                            const char *counts, const char *const *sv,
                            const struct netmodel_ops *ops, trace **t, GError **error)
{
  commgraph *g = NULL;
  if (trace_path && !(*t = cli_read_trace(trace_path, error)))
    return NULL;
  if (!trace_path && !(g = input_read_matrix(matrix, counts, error)))
    return NULL;
  study_grid_platforms plats = { (const char *const *)c->platforms,
                                 (int)g_strv_length(c->platforms), c->alloc, c->cores, c->fill,
                                 (const char *const *)c->sets };
  study *s = study_new_grid(*t, g, trace_path ? trace_path : matrix, &plats, sv,
                            (int)g_strv_length((char **)sv), ops, c->seed, c->collectives,
                            error);
  if (!s)
    return NULL;
  s->opts.compute_scale = c->compute_scale;
  const study_input *in = &s->inputs[0];
  int nranks = in->t ? MAX(in->t->nranks, in->g->n) : in->g->n;
  for (int i = 0; i < s->nplatforms; i++) {
    const study_platform *sp = &s->platforms[i];
    if (sp->error)
      g_propagate_error(error, g_error_copy(sp->error));
    else if (!platform_check_capacity(sp->p, nranks, error))
      g_prefix_error(error, "%s: ", in->label);
    else
      continue;
    study_free(s);
    return NULL;
  }
  return s;
}

/* Runs every cell of a prepared input; FALSE + error only when the whole
 * run failed. */
static gboolean run_input(const cli_common *c, study *s, GError **error)
{
  const progress *prog = cli_progress(c);
  gboolean ran = study_run(s, NULL, c->threads > 0 ? c->threads : (int)g_get_num_processors(),
                           NULL, FALSE, prog, error);
  cli_progress_end();
  return ran;
}

/* Exit status of the cells: 2 for a failed cell, 1 for a failed check. */
static int report_cells(const study *s, int status)
{
  for (int i = 0; i < s->ncells; i++) {
    const study_cell *cell = &s->cells[i];
    const char *pl = s->platforms[cell->platform].label, *st = s->strategies[cell->strategy].label;
    if (cell->error) {
      fprintf(stderr, "mapsim: %s on %s with %s: %s\n", s->inputs[0].label, pl, st,
              cell->error->message);
      status = 2;
    } else if (cell->res && cell->res->r && cell->res->mismatch >= 0 && status == 0) {
      fprintf(stderr, "mapsim: %s check failed for %s on %s with %s\n",
              run_check_name(cell->res->check), s->inputs[0].label, pl, st);
      status = 1;
    }
  }
  return status;
}

int cmd_compare(int argc, char **argv)
{
  cli_common c;
  char *baseline = NULL;
  const GOptionEntry entries[] = {
    { "baseline", 'b', 0, G_OPTION_ARG_STRING, &baseline,
      "Strategy the changes are measured against (default identity, else the first -s)", "S" },
    { NULL },
  };
  int status = 2, base = 0;
  GError *e = NULL;
  const struct netmodel_ops *ops = NULL;
  GPtrArray *rows = g_ptr_array_new();
  GPtrArray *studies = g_ptr_array_new_with_free_func((GDestroyNotify)study_free);
  GPtrArray *traces = g_ptr_array_new_with_free_func((GDestroyNotify)trace_free);
  if (!cli_parse(&argc, &argv, "compare", "",
                 "Place and replay traces (or place matrices) on several platforms with several "
                 "mapping strategies and compare: static and simulated results side by side, "
                 "ranked, with each cell's change against a baseline strategy in percent, and "
                 "the pre/post check.",
                 "Examples:\n  mapsim compare --trace traces/data/stencil3d-64 \\\n"
                 "    -p configs/mesh-4x4x4.ini -p configs/torus-4x4x4.ini -p configs/haec-4x4x4.ini \\\n"
                 "    -s identity -s random -s hilbert -s greedy+wh -s scotch\n"
                 "  mapsim compare -m tests/data/maplib/cg.p2p.size.csv -m tests/data/maplib/amg.p2p.size.csv \\\n"
                 "    -p torus:4x4x4 -s identity -s greedy+wh -s scotch --csv",
                 CLI_OPT_PLATFORMS | CLI_OPT_ALLOC | CLI_OPT_CORES | CLI_OPT_SET | CLI_OPT_RULES | CLI_OPT_TRACES |
                 CLI_OPT_MATRICES | CLI_OPT_STRATEGIES | CLI_OPT_SEED | CLI_OPT_MODEL |
                 CLI_OPT_REPLAY | CLI_OPT_PROTOCOL | CLI_OPT_COLLECTIVES | CLI_OPT_THREADS | CLI_OPT_PROGRESS |
                 CLI_OPT_JSON | CLI_OPT_CSV, &c, entries))
    goto out;
  const char *const default_strats[] = { "identity", NULL };
  const char *const *sv = c.strategies ? (const char *const *)c.strategies : default_strats;
  int ntraces = c.traces ? (int)g_strv_length(c.traces) : 0;
  int nmatrices = c.matrices ? (int)g_strv_length(c.matrices) : 0;
  int ncounts = c.counts_list ? (int)g_strv_length(c.counts_list) : 0;
  if (ntraces + nmatrices == 0 || !c.platforms) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "expected at least one --trace T or --matrix M and at least one --platform P");
    goto fail;
  }
  if (ncounts && ncounts != nmatrices) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "%d --counts for %d --matrix, expected one per matrix or none", ncounts,
                nmatrices);
    goto fail;
  }
  if (c.json && c.csv) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--json and --csv exclude each other; expected one of them");
    goto fail;
  }
  if ((base = find_baseline(sv, baseline, &e)) < 0 || !(ops = cli_common_model(&c, "flow", &e)) ||
      !check_strategies(&c, sv, &e))
    goto fail;
  /* every input read and every platform loaded before anything runs */
  for (int in = 0; in < ntraces + nmatrices; in++) {
    gboolean is_trace = in < ntraces;
    trace *t = NULL;
    study *s = prepare_input(&c, is_trace ? c.traces[in] : NULL,
                             is_trace ? NULL : c.matrices[in - ntraces],
                             !is_trace && ncounts ? c.counts_list[in - ntraces] : NULL, sv, ops,
                             &t, &e);
    if (t)
      g_ptr_array_add(traces, t);
    if (!s)
      goto fail;
    g_ptr_array_add(studies, s);
  }
  status = 0;
  for (guint in = 0; in < studies->len; in++) {
    study *s = g_ptr_array_index(studies, in);
    if (!run_input(&c, s, &e))
      goto fail;
    if (progress_stopped(cli_progress(&c))) {
      fprintf(stderr, "mapsim: interrupted\n");
      status = 130;
      goto out;
    }
    annotate(s, base);
    for (int i = 0; i < s->ncells; i++)
      g_ptr_array_add(rows, s->cells[i].row);
    if (!c.json && !c.csv) {
      if (in)
        printf("\n");
      print_table(s, base);
    }
    warn_nodes(s);
    status = report_cells(s, status);
  }
  if (c.csv) {
    g_autofree char *text = rows_csv((const result_row *const *)rows->pdata, (int)rows->len);
    fputs(text, stdout);
  } else if (c.json) {
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "baseline");
    json_builder_add_string_value(b, sv[base]);
    json_builder_set_member_name(b, "cells");
    rows_json(b, (const result_row *const *)rows->pdata, (int)rows->len);
    json_builder_end_object(b);
    cli_print_json(json_builder_get_root(b));
    g_object_unref(b);
  }
  goto out;
fail:
  status = cli_fail(e);
out:
  g_ptr_array_free(rows, TRUE);
  g_ptr_array_unref(studies);
  g_ptr_array_unref(traces);
  cli_common_clear(&c);
  g_free(baseline);
  return status;
}
