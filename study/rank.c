/* rank.c - strategies ranked within the groups of a study (see study/rank.h). */
#include "study/rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/objective.h"
#include "study/stats.h"
#include "study/study-private.h"

char *study_rank_metric(const study *s, int input)
{
  if (s->inputs[input].t)
    return g_strdup(s->report.time ? s->report.time : "makespan_s");
  const char *rank_static = s->report.rank_static
                                ? s->report.rank_static
                                : strategy_objective_find(STRATEGY_OBJECTIVE_DEFAULT)->metric;
  return g_strconcat("pre_", rank_static, NULL);
}

int study_reference(const study *s)
{
  const char *names[] = { "identity", "sweep" };
  for (size_t k = 0; k < G_N_ELEMENTS(names); k++)
    for (int i = 0; i < s->nstrategies; i++) {
      const char *pl = s->strategies[i].pipeline;
      if (strcmp(pl ? pl : "identity", names[k]) == 0)
        return i;
    }
  return -1;
}

/* Seeds [*lo, *hi) of a group: its one seed, or all of them. */
static void seed_range(const study *s, int seed, int *lo, int *hi)
{
  *lo = seed >= 0 ? seed : 0;
  *hi = seed >= 0 ? seed + 1 : s->nseeds;
}

static double mean_over(const study *s, int input, int kind, int plat, int strategy, int model,
                        int seed, const char *name, int *n)
{
  double sum = 0;
  int k = 0, lo, hi;
  seed_range(s, seed, &lo, &hi);
  for (int sd = lo; sd < hi; sd++) {
    const study_cell *c = study_cell_at(s, input, kind, plat, strategy, model, sd);
    double v;
    if (c->row && !c->error && row_get_number(c->row, name, &v)) {
      sum += v;
      k++;
    }
  }
  if (n)
    *n = k;
  return k ? sum / k : NAN;
}

double study_mean(const study *s, int input, int kind, int plat, int strategy, int model,
                  const char *name, int *n)
{
  return mean_over(s, input, kind, plat, strategy, model, -1, name, n);
}

static int by_value(const void *a, const void *b)
{
  const rank_entry *x = a, *y = b;
  gboolean nx = isnan(x->value), ny = isnan(y->value);
  if (nx != ny)
    return nx ? 1 : -1;
  if (!nx && x->value != y->value)
    return x->value < y->value ? -1 : 1;
  return (x->strategy > y->strategy) - (x->strategy < y->strategy);
}

static void group_free(gpointer p)
{
  rank_group *g = p;
  g_free(g->metric);
  g_free(g->e);
  g_free(g);
}

/* Are strategies a and b of one group equal: pairs of the group's seeds
 * where both ran (stats_paired_equal), else their means. */
static gboolean entries_equal(const study *s, const rank_group *g, int kind, int model,
                              const rank_entry *a, const rank_entry *b)
{
  double *x = g_new(double, MAX(s->nseeds, 1)), *y = g_new(double, MAX(s->nseeds, 1));
  int n = 0, lo, hi;
  seed_range(s, g->seed, &lo, &hi);
  for (int sd = lo; sd < hi; sd++) {
    const study_cell *ca = study_cell_at(s, g->input, kind, g->platform, a->strategy, model, sd);
    const study_cell *cb = study_cell_at(s, g->input, kind, g->platform, b->strategy, model, sd);
    if (ca->row && !ca->error && cb->row && !cb->error &&
        row_get_number(ca->row, g->metric, &x[n]) && row_get_number(cb->row, g->metric, &y[n]))
      n++;
  }
  gboolean eq = n ? stats_paired_equal(x, y, n) : stats_equal(a->value, b->value);
  g_free(x);
  g_free(y);
  return eq;
}

/* Ranks after sorting: an entry equal to the first of the current group
 * joins it. */
static void assign_ranks(const study *s, rank_group *g, int kind, int model)
{
  int lead = -1;
  for (int k = 0; k < g->n; k++) {
    rank_entry *e = &g->e[k];
    if (isnan(e->value)) {
      e->rank = 0;
      continue;
    }
    if (lead >= 0 && entries_equal(s, g, kind, model, &g->e[lead], e)) {
      e->rank = g->e[lead].rank;
      e->tied = g->e[lead].tied = TRUE;
      continue;
    }
    lead = k;
    e->rank = k + 1;
  }
}

void rank_text(char *buf, size_t n, const rank_entry *e)
{
  if (e->rank <= 0)
    g_snprintf(buf, n, "-");
  else
    g_snprintf(buf, n, "%s%d", e->tied ? "=" : "", e->rank);
}

void rank_change_text(char *buf, size_t n, double change, gboolean equal)
{
  if (isnan(change)) {
    g_snprintf(buf, n, "n/a");
    return;
  }
  if (equal || change == 0) {
    g_snprintf(buf, n, "0%%");
    return;
  }
  double a = fabs(change);
  const char *sign = change < 0 ? "-" : "+";
  if (a >= 0.05) {
    g_snprintf(buf, n, "%s%.1f%%", sign, a);
    return;
  }
  /* two significant digits: -0.037%, +2.1e-05% */
  g_snprintf(buf, n, "%s%.2g%%", sign, a);
}

int rank_digits(const rank_group *g, int digits, rank_format_fn fmt, const void *user)
{
  char x[48], y[48];
  for (int k = 1; k < g->n; k++) {
    const rank_entry *a = &g->e[k - 1], *b = &g->e[k];
    if (a->rank <= 0 || b->rank <= 0 || a->rank == b->rank)
      continue;
    for (; digits < 17; digits++) {
      fmt(x, sizeof x, a->value, digits, user);
      fmt(y, sizeof y, b->value, digits, user);
      if (strcmp(x, y) != 0)
        break;
    }
  }
  return digits;
}

void rank_entry_change_text(char *buf, size_t n, const rank_group *g, const rank_entry *e)
{
  rank_change_text(buf, n, e->change, stats_equal(e->value, g->ref_value));
}

GPtrArray *study_rank(const study *s)
{
  return study_rank_against(s, study_reference(s));
}

/* One group: the strategies of (input i, kind k, model m, platform p)
 * at seed `seed` (-1: their means over every seed) ranked. */
static rank_group *rank_one(const study *s, int ref, int i, int k, int m, int p, int seed)
{
  rank_group *g = g_new0(rank_group, 1);
  *g = (rank_group){ .input = i, .kind = k, .model = s->inputs[i].t ? m : -1, .platform = p,
                     .seed = seed, .metric = study_rank_metric(s, i), .reference = ref,
                     .ref_value = NAN, .n = s->nstrategies };
  g->e = g_new0(rank_entry, MAX(g->n, 1));
  if (ref >= 0)
    g->ref_value = mean_over(s, i, k, p, ref, m, seed, g->metric, NULL);
  for (int st = 0; st < s->nstrategies; st++) {
    rank_entry *e = &g->e[st];
    e->strategy = st;
    e->value = mean_over(s, i, k, p, st, m, seed, g->metric, &e->nvalues);
    e->change = g->ref_value > 0 && !isnan(e->value)
                    ? (e->value - g->ref_value) / g->ref_value * 100.0 : NAN;
  }
  qsort(g->e, (size_t)g->n, sizeof *g->e, by_value);
  assign_ranks(s, g, k, m);
  return g;
}

/* Every group of the study, in the order of its cells; each seed alone
 * when `each_seed`. */
static GPtrArray *rank_groups(const study *s, int ref, gboolean each_seed)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(group_free);
  study_walk w;
  for (study_walk_start(&w, s, each_seed ? "ikmpd" : "ikmp", NULL); study_walk_next(&w);) {
    const int *a = w.at;
    g_ptr_array_add(out, rank_one(s, ref, a[STUDY_DIM_INPUT], a[STUDY_DIM_KIND],
                                  a[STUDY_DIM_MODEL], a[STUDY_DIM_PLATFORM],
                                  each_seed ? a[STUDY_DIM_SEED] : -1));
  }
  return out;
}

GPtrArray *study_rank_against(const study *s, int ref)
{
  return rank_groups(s, ref, FALSE);
}

GPtrArray *study_rank_each_seed(const study *s)
{
  return rank_groups(s, study_reference(s), TRUE);
}

void study_cell_ranks(const study *s, int *ranks)
{
  GPtrArray *groups = study_rank_each_seed(s);
  for (guint gi = 0; gi < groups->len; gi++) {
    const rank_group *g = g_ptr_array_index(groups, gi);
    for (int k = 0; k < g->n; k++) {
      const study_cell *c = study_cell_at(s, g->input, g->kind, g->platform, g->e[k].strategy,
                                          g->model, g->seed);
      ranks[c - s->cells] = g->e[k].rank;
    }
  }
  g_ptr_array_unref(groups);
}
