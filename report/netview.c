/* netview.c - a switch-based network's link loads as matrices (netview.h).
 * Every link is placed by its ends and class, so the view follows the
 * topology's own tables. Cost: O(nlinks + cells). */
#include "report/netview.h"

#include <math.h>
#include <string.h>

/* Local panels of a dragonfly: the groups with the most local bytes. */
#define NET_LOCAL_GROUPS 6

static net_panel *add_panel(GArray *panels, int rows, int cols, const char *row_label,
                            const char *col_label, char *title)
{
  net_panel q = { title, g_strdup(row_label), g_strdup(col_label), rows, cols,
                  g_new(double, (size_t)rows * cols), NULL, NULL, NULL };
  for (size_t i = 0; i < (size_t)rows * cols; i++)
    q.value[i] = NAN;
  g_array_append_val(panels, q);
  return &g_array_index(panels, net_panel, panels->len - 1);
}

/* Cell (r, c) takes v when it is larger (a NAN cell takes any value). */
static void put(net_panel *q, int r, int c, double v)
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

static void dragonfly_view(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  const topo_dragonfly *df = topo_dragonfly_of(t);
  int N = topo_compute_nodes(t), g = df->groups, a = df->routers;
  int first = (int)panels->len;
  add_panel(panels, g, g, "from group", "to group",
            g_strdup(df->parallel > 1 ? "global links, group to group (busiest of the parallel "
                                        "cables)"
                                      : "global links, group to group"));
  add_panel(panels, g, a, "group", "router", g_strdup("node links of each router (busier way)"));
  net_panel *global = &g_array_index(panels, net_panel, first);
  net_panel *nodes = &g_array_index(panels, net_panel, first + 1);
  double *local_sum = g_new0(double, g);
  for (int l = 0; l < t->nlinks; l++) {
    int s = t->link_src[l], d = t->link_dst[l], c = t->link_class[l];
    if (c == TOPO_DF_GLOBAL)
      put(global, (s - N) / a, (d - N) / a, value[l]);
    else if (c == TOPO_DF_LOCAL)
      local_sum[(s - N) / a] += value[l];
    else {
      int r = (c == TOPO_DF_NODE_UP ? d : s) - N;
      put(nodes, r / a, r % a, value[l]);
    }
  }
  /* the groups with the most local bytes (lower index on ties) */
  int shown = 0, pick[NET_LOCAL_GROUPS];
  gboolean *taken = g_new0(gboolean, g);
  while (shown < MIN(NET_LOCAL_GROUPS, g)) {
    int best = -1;
    for (int x = 0; x < g; x++)
      if (!taken[x] && (best < 0 || local_sum[x] > local_sum[best]))
        best = x;
    if (shown > 0 && local_sum[best] <= 0)
      break;
    taken[best] = TRUE;
    shown++;
  }
  for (int x = 0, k = 0; x < g; x++) /* in group order */
    if (taken[x])
      pick[k++] = x;
  for (int k = 0; k < shown && a > 1; k++) {
    int x = pick[k];
    net_panel *q = add_panel(panels, a, a, "from router", "to router",
                             g_strdup_printf("local links inside group %d", x));
    if (k == shown - 1 && shown < g)
      q->note = g_strdup_printf("the %d of %d groups with the most local bytes", shown, g);
    for (int l = df->local_base; l < df->global_base; l++) {
      int s = t->link_src[l] - N, d = t->link_dst[l] - N;
      if (s / a == x)
        put(q, s % a, d % a, value[l]);
    }
  }
  g_free(taken);
  g_free(local_sum);
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

static void tree_view(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  int *level = g_new(int, t->nnodes), *pos = g_new(int, t->nnodes);
  int count[TOPO_MAX_LEVELS + 1];
  int L = levels_of(t, level, pos, count);
  int first = (int)panels->len;
  for (int l = L; l >= 0; l--) {
    const char *rows[] = { "up", "down" };
    gboolean top = l == L;
    net_panel *q = add_panel(panels, top ? 1 : 2, MAX(count[l], 1), NULL,
                             l ? "switch" : "node",
                             l ? g_strdup_printf("level %d switches: busiest link %s", l,
                                                 top ? "down" : "up and down")
                               : g_strdup("nodes: link up and down"));
    q->row_names = names_of(top ? 1 : 2, top ? rows + 1 : rows);
  }
  for (int l = 0; l < t->nlinks; l++) {
    int s = t->link_src[l], d = t->link_dst[l];
    gboolean up = level[d] > level[s];
    net_panel *q = &g_array_index(panels, net_panel, first + L - level[s]);
    put(q, up || level[s] == L ? 0 : 1, pos[s], value[l]);
    if (level[s] == 0 || level[d] == 0) { /* a node's own row shows both ways */
      int n = level[s] == 0 ? s : d;
      net_panel *nq = &g_array_index(panels, net_panel, first + L);
      put(nq, level[s] == 0 ? 0 : 1, pos[n], value[l]);
    }
  }
  if (p->names)
    for (int l = L; l >= 0; l--) {
      net_panel *q = &g_array_index(panels, net_panel, first + L - l);
      q->col_names = g_new0(char *, (size_t)q->cols + 1);
      for (int v = 0; v < t->nnodes; v++)
        if (level[v] == l)
          q->col_names[pos[v]] = g_strdup(p->names[v]);
    }
  g_free(level);
  g_free(pos);
}

static void hyperx_view(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  const topo_hyperx *hx = topo_hyperx_of(t);
  int N = topo_compute_nodes(t), S0 = hx->shape[0], rows = hx->switches / S0;
  const char *down = hx->ndims == 2 ? "y" : "y, z ... (folded)";
  int first = (int)panels->len;
  for (int d = 0; d < hx->ndims; d++) {
    char dim = topo_dim_letter(d);
    add_panel(panels, hx->shape[d], hx->shape[d], "from", "to",
              g_strdup_printf("dimension %c: coordinate to coordinate (busiest of the %d lines)",
                              dim, hx->switches / hx->shape[d]));
    add_panel(panels, rows, S0, down, "x",
              g_strdup_printf("dimension %c: each switch's busiest %c link", dim, dim));
  }
  net_panel *nodes = add_panel(panels, rows, S0, down, "x",
                               g_strdup("node links of each switch (busier way)"));
  for (int l = 0; l < t->nlinks; l++) {
    int s = t->link_src[l], e = t->link_dst[l];
    if (s < N || e < N) {
      int sw = (s < N ? e : s) - N;
      put(nodes, sw / S0, sw % S0, value[l]);
      continue;
    }
    s -= N;
    e -= N;
    int d = t->link_class[l] - 2;
    int cs = s / hx->stride[d] % hx->shape[d], ce = e / hx->stride[d] % hx->shape[d];
    put(&g_array_index(panels, net_panel, first + 2 * d), cs, ce, value[l]);
    put(&g_array_index(panels, net_panel, first + 2 * d + 1), s / S0, s % S0, value[l]);
  }
}

net_view *net_view_new(const platform *p, const double *value, int max_cols)
{
  const topo *t = p->topo;
  GArray *panels = g_array_new(FALSE, FALSE, sizeof(net_panel));
  switch (t->family) {
  case TOPO_FAMILY_DRAGONFLY:
    dragonfly_view(p, value, panels);
    break;
  case TOPO_FAMILY_FATTREE:
  case TOPO_FAMILY_TREE:
    tree_view(p, value, panels);
    break;
  case TOPO_FAMILY_HYPERX:
    hyperx_view(p, value, panels);
    break;
  case TOPO_FAMILY_DIRECT:
    g_array_free(panels, TRUE);
    return NULL;
  }
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
