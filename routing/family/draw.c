/* draw.c - what the families' drawing hooks (family_ops.draw) share:
 * panels of link values and the drawing of trees of levels (fat trees,
 * trees of switches): per level, each switch's busiest link up and down.
 * report/netview.c folds and frees the panels; report/fig-network.c and
 * `mapsim show` draw them.
 */
#include "routing/family/family-private.h"

#include <math.h>

family_panel *family_panel_add(GArray *panels, int rows, int cols, const char *row_label,
                               const char *col_label, char *title)
{
  family_panel q = { title, g_strdup(row_label), g_strdup(col_label), rows, cols,
                     g_new(double, (size_t)rows * cols), NULL, NULL, NULL };
  for (size_t i = 0; i < (size_t)rows * cols; i++)
    q.value[i] = NAN;
  g_array_append_val(panels, q);
  return &g_array_index(panels, family_panel, panels->len - 1);
}

void family_panel_put(family_panel *q, int r, int c, double v)
{
  double *cell = &q->value[(size_t)r * q->cols + c];
  if (isnan(*cell) || v > *cell)
    *cell = v;
}

static char **names_of(int n, const char *const *src)
{
  char **out = g_new0(char *, (size_t)n + 1);
  for (int i = 0; i < n; i++)
    out[i] = g_strdup(src[i]);
  return out;
}

/* Level of each vertex and its position among its level's vertices;
 * returns the levels of switches. */
static int levels_of(const topo *t, int *level, int *pos, int *count)
{
  const topo_fattree *ft = topo_fattree_of(t);
  const topo_tree *tr = topo_tree_of(t);
  int L = ft ? ft->levels : tr->levels;
  for (int l = 0; l <= L; l++)
    count[l] = 0;
  for (int v = 0; v < t->nnodes; v++) {
    if (tr) {
      level[v] = tr->level[v];
    } else {
      int l = 0;
      while (l < L && v >= ft->first[l + 1])
        l++;
      level[v] = l;
    }
    pos[v] = count[level[v]]++;
  }
  return L;
}

void family_draw_levels(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  int *level = g_new(int, t->nnodes), *pos = g_new(int, t->nnodes);
  int count[TOPO_MAX_LEVELS + 1];
  int L = levels_of(t, level, pos, count);
  int first = (int)panels->len;
  for (int l = L; l >= 0; l--) {
    const char *rows[] = { "up", "down" };
    gboolean top = l == L;
    family_panel *q = family_panel_add(panels, top ? 1 : 2, MAX(count[l], 1), NULL,
                             l ? "switch" : "node",
                             l ? g_strdup_printf("level %d switches: busiest link %s", l,
                                                 top ? "down" : "up and down")
                               : g_strdup("nodes: link up and down"));
    q->row_names = names_of(top ? 1 : 2, top ? rows + 1 : rows);
  }
  for (int l = 0; l < t->nlinks; l++) {
    int s = t->link_src[l], d = t->link_dst[l];
    gboolean up = level[d] > level[s];
    family_panel *q = &g_array_index(panels, family_panel, first + L - level[s]);
    family_panel_put(q, up || level[s] == L ? 0 : 1, pos[s], value[l]);
    if (level[s] == 0 || level[d] == 0) { /* a node's own row shows both ways */
      int n = level[s] == 0 ? s : d;
      family_panel *nq = &g_array_index(panels, family_panel, first + L);
      family_panel_put(nq, level[s] == 0 ? 0 : 1, pos[n], value[l]);
    }
  }
  if (p->names)
    for (int l = L; l >= 0; l--) {
      family_panel *q = &g_array_index(panels, family_panel, first + L - l);
      q->col_names = g_new0(char *, (size_t)q->cols + 1);
      for (int v = 0; v < t->nnodes; v++)
        if (level[v] == l)
          q->col_names[pos[v]] = g_strdup(p->names[v]);
    }
  g_free(level);
  g_free(pos);
}
