/* netview.c - a switch-based network's link loads as matrices (netview.h).
 * Every link is placed by its ends and class, so the view follows the
 * topology's own tables. Cost: O(nlinks + cells). */
#include "report/netview.h"

#include <math.h>
#include <string.h>

/* Folds rows and columns beyond `max` into runs, each the largest of its
 * run; says so in the panel's note. */
static void fold(net_panel *q, int max)
{
  int fr = (q->rows + max - 1) / max, fc = (q->cols + max - 1) / max;
  if (fr <= 1 && fc <= 1)
    return;
  int rows = (q->rows + fr - 1) / fr, cols = (q->cols + fc - 1) / fc;
  double *v = g_new(double, (size_t)rows * cols);
  for (size_t i = 0; i < (size_t)rows * cols; i++)
    v[i] = NAN;
  for (int r = 0; r < q->rows; r++)
    for (int c = 0; c < q->cols; c++) {
      double x = q->value[(size_t)r * q->cols + c];
      double *cell = &v[(size_t)(r / fr) * cols + c / fc];
      if (!isnan(x) && (isnan(*cell) || x > *cell))
        *cell = x;
    }
  g_free(q->value);
  q->value = v;
  q->rows = rows;
  q->cols = cols;
  g_strfreev(q->row_names);
  g_strfreev(q->col_names);
  q->row_names = q->col_names = NULL;
  g_free(q->note);
  q->note = fr > 1 && fc > 1
                ? g_strdup_printf("each cell the busiest of %d x %d (rows x columns)", fr, fc)
                : g_strdup_printf("each %s the busiest of %d", fr > 1 ? "row" : "column",
                                  MAX(fr, fc));
}

net_view *net_view_new(const platform *p, const double *value, int max_cols)
{
  const topo *t = p->topo;
  const family_ops *f = family_of(t);
  if (!f->draw)
    return NULL;
  GArray *panels = g_array_new(FALSE, FALSE, sizeof(net_panel));
  f->draw(p, value, panels);
  net_view *v = g_new0(net_view, 1);
  v->npanels = (int)panels->len;
  v->panels = (net_panel *)(void *)g_array_free(panels, FALSE);
  for (int i = 0; i < v->npanels; i++)
    fold(&v->panels[i], MAX(max_cols, 1));
  return v;
}

void net_view_free(net_view *v)
{
  if (!v)
    return;
  for (int i = 0; i < v->npanels; i++) {
    net_panel *q = &v->panels[i];
    g_free(q->title);
    g_free(q->row_label);
    g_free(q->col_label);
    g_free(q->value);
    g_strfreev(q->row_names);
    g_strfreev(q->col_names);
    g_free(q->note);
  }
  g_free(v->panels);
  g_free(v);
}
