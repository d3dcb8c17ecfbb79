/* rank.c - strategies ranked per platform (see rank.h). */
#include "sim/report/rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

char *report_rank_metric(const study *s, int input)
{
  if (s->inputs[input].t)
    return g_strdup(s->report.time ? s->report.time : "makespan_s");
  return g_strconcat("pre_", s->report.rank_static ? s->report.rank_static : "hop_bytes", NULL);
}

int report_reference(const study *s)
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

double report_mean(const study *s, int input, int kind, int plat, int strategy, int model,
                   const char *name, int *n)
{
  double sum = 0;
  int k = 0;
  for (int sd = 0; sd < s->nseeds; sd++) {
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

GPtrArray *report_rank(const study *s)
{
  return report_rank_against(s, report_reference(s));
}

GPtrArray *report_rank_against(const study *s, int ref)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(group_free);
  for (int i = 0; i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
    int nm = study_input_nmodels(s, i);
    for (int k = 0; k < in->nkinds; k++)
      for (int m = 0; m < nm; m++)
        for (int p = 0; p < s->nplatforms; p++) {
          rank_group *g = g_new0(rank_group, 1);
          *g = (rank_group){ .input = i, .kind = k, .model = in->t ? m : -1, .platform = p,
                             .metric = report_rank_metric(s, i), .reference = ref,
                             .ref_value = NAN, .n = s->nstrategies };
          g->e = g_new0(rank_entry, MAX(g->n, 1));
          if (ref >= 0)
            g->ref_value = report_mean(s, i, k, p, ref, m, g->metric, NULL);
          for (int st = 0; st < s->nstrategies; st++) {
            rank_entry *e = &g->e[st];
            e->strategy = st;
            e->value = report_mean(s, i, k, p, st, m, g->metric, &e->nvalues);
            e->change = g->ref_value > 0 && !isnan(e->value)
                            ? (e->value - g->ref_value) / g->ref_value * 100.0 : NAN;
          }
          qsort(g->e, (size_t)g->n, sizeof *g->e, by_value);
          g_ptr_array_add(out, g);
        }
  }
  return out;
}
