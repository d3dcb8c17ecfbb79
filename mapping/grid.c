/* grid.c - task grids, slot grids and folded views (see grid.h). */
#include "mapping/grid-private.h"

#include <math.h>
#include <string.h>


#define GRID_STENCIL_MAX_DIMS 8
#define GRID_STENCIL_MAX_OFFSETS 128 /* distinct rank offsets a stencil may show */

/* --- stencil detection (bhatele2010 Section 8.1) --- */

static int int_cmp(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}


/* TRUE if every kept edge joins grid neighbours of dims[] (dimension 0
 * fastest): coordinates differ by 0 or 1 (or the wrap of a dimension
 * longer than 2) - face neighbours of 5/7-point stencils and the diagonal
 * ones of 9/27-point stencils (bhatele2010 Fig. 8.2). Every dimension must
 * carry at least one face edge. */
static gboolean grid_explains(int n, int nd, const int *dims, const int *eu, const int *ev,
                              int ne)
{
  int used[GRID_STENCIL_MAX_DIMS] = { 0 };
  for (int e = 0; e < ne; e++) {
    int a = eu[e], b = ev[e], diff = -1, ndiff = 0;
    for (int d = 0; d < nd; d++) {
      int ca = a % dims[d], cb = b % dims[d];
      a /= dims[d], b /= dims[d];
      if (ca == cb)
        continue;
      int dd = ca > cb ? ca - cb : cb - ca;
      if (dd != 1 && !(dd == dims[d] - 1 && dims[d] > 2))
        return FALSE;
      diff = d;
      ndiff++;
    }
    if (ndiff == 0)
      return FALSE;
    if (ndiff == 1)
      used[diff] = 1;
  }
  for (int d = 0; d < nd; d++)
    if (!used[d])
      return FALSE; /* a dimension no edge runs along is not observable */
  return TRUE;
}

/* Tries stride chains 1 | s1 | s2 ... drawn from the observed offsets. */
static gboolean chain_search(int n, const int *offs, int noffs, int *strides, int nd, int maxd,
                             const int *eu, const int *ev, int ne, int *dims, int *out_nd)
{
  if (nd >= 1) {
    int last = strides[nd - 1];
    if (n % last == 0 && n / last >= 2) {
      for (int d = 0; d + 1 < nd; d++)
        dims[d] = strides[d + 1] / strides[d];
      dims[nd - 1] = n / last;
      if (grid_explains(n, nd, dims, eu, ev, ne)) {
        *out_nd = nd;
        return TRUE;
      }
    }
  }
  if (nd == maxd)
    return FALSE;
  for (int k = 0; k < noffs; k++) {
    int s = offs[k];
    int prev = nd ? strides[nd - 1] : 0;
    if (nd == 0 ? s != 1 : (s <= prev || s % prev != 0 || s / prev < 2 || n % s != 0))
      continue;
    strides[nd] = s;
    if (chain_search(n, offs, noffs, strides, nd + 1, maxd, eu, ev, ne, dims, out_nd))
      return TRUE;
  }
  return FALSE;
}

/* Coordinates of a detected stencil into *coords (n x *nd), or FALSE. */
gboolean grid_rank_stencil(const commgraph *g, double **coords, int *out_nd)
{
  int n = g->n;
  gboolean ok = FALSE;
  if (n < 2)
    return FALSE;
  double mean = 0;
  int64_t cnt = 0;
  for (int e = 0; e < g->nedges; e++)
    if (g->bytes[e] > 0)
      mean += (double)g->bytes[e], cnt++;
  mean = cnt ? mean / (double)cnt : 0;
  /* rank 0 as a hub (broadcasts, reductions): ignore it if it talks to far
   * more ranks than anyone else */
  int *deg = g_new0(int, n);
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
      if (g->adj[e] != i)
        deg[i]++, deg[g->adj[e]]++;
  int maxdeg_other = 0;
  for (int i = 1; i < n; i++)
    maxdeg_other = MAX(maxdeg_other, deg[i]);
  gboolean skip0 = deg[0] > 2 * maxdeg_other + 4;
  int *eu = g_new(int, g->nedges + 1), *ev = g_new(int, g->nedges + 1);
  int ne = 0;
  GHashTable *offsets = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int j = g->adj[e];
      if (j == i || (skip0 && (i == 0 || j == 0)) || (double)g->bytes[e] < 0.2 * mean)
        continue;
      eu[ne] = i, ev[ne] = j, ne++;
      g_hash_table_add(offsets, GINT_TO_POINTER(ABS(j - i)));
      if (g_hash_table_size(offsets) > GRID_STENCIL_MAX_OFFSETS)
        goto out; /* too many distinct offsets for a stencil */
    }
  if (ne == 0)
    goto out;
  int noffs = (int)g_hash_table_size(offsets);
  int offs[GRID_STENCIL_MAX_OFFSETS + 1];
  GHashTableIter it;
  gpointer key;
  int k = 0;
  g_hash_table_iter_init(&it, offsets);
  while (g_hash_table_iter_next(&it, &key, NULL))
    offs[k++] = GPOINTER_TO_INT(key);
  qsort(offs, noffs, sizeof(int), int_cmp);
  int strides[GRID_STENCIL_MAX_DIMS], dims[GRID_STENCIL_MAX_DIMS], nd = 0;
  if (!chain_search(n, offs, noffs, strides, 0, 5, eu, ev, ne, dims, &nd))
    goto out;
  *coords = g_new(double, (size_t)n * nd);
  for (int r = 0; r < n; r++) {
    int rem = r;
    for (int d = 0; d < nd; d++)
      (*coords)[(size_t)r * nd + d] = rem % dims[d], rem /= dims[d];
  }
  *out_nd = nd;
  ok = TRUE;
out:
  g_hash_table_destroy(offsets);
  g_free(eu);
  g_free(ev);
  g_free(deg);
  return ok;
}

static gboolean grid_from_coords(task_grid *g, const double *x, int n, int nd)
{
  if (nd < 1 || nd > GRID_MAX_DIMS)
    return FALSE;
  double lo[GRID_MAX_DIMS], hi[GRID_MAX_DIMS];
  for (int d = 0; d < nd; d++)
    lo[d] = INFINITY, hi[d] = -INFINITY;
  for (size_t i = 0; i < (size_t)n * nd; i++) {
    double v = x[i];
    if (!isfinite(v) || v != floor(v) || fabs(v) > 1e7)
      return FALSE;
    lo[i % nd] = MIN(lo[i % nd], v);
    hi[i % nd] = MAX(hi[i % nd], v);
  }
  g->n = n;
  g->nd = nd;
  int64_t cells = 1;
  for (int d = 0; d < nd; d++) {
    g->dims[d] = n ? (int)(hi[d] - lo[d]) + 1 : 1;
    cells *= g->dims[d];
  }
  if (cells > MAX(16 * (int64_t)n, 1 << 20))
    return FALSE; /* too sparse to be a grid: the heuristics walk every cell */
  g->c = g_new(int, (size_t)n * nd + 1);
  for (size_t i = 0; i < (size_t)n * nd; i++)
    g->c[i] = (int)(x[i] - lo[i % nd]);
  return TRUE;
}

gboolean grid_coords_of_graph(const commgraph *g, const progress *prog, double **coords,
                              int *nd, GError **error)
{
  if (grid_rank_stencil(g, coords, nd))
    return TRUE;
  gdetect gd;
  if (!grid_detect(g, prog, &gd, error))
    return FALSE;
  *nd = gd.nd;
  *coords = g_new(double, (size_t)g->n * gd.nd);
  for (size_t i = 0; i < (size_t)g->n * gd.nd; i++)
    (*coords)[i] = gd.c[i];
  gdetect_clear(&gd);
  return TRUE;
}

void grid_merge_pairs(double *c, int n, int *nd, int target)
{
  for (;;) {
    int two[2], k = 0;
    for (int d = *nd - 1; d >= 0 && k < 2 && *nd > target; d--) {
      gboolean binary = TRUE;
      for (int i = 0; i < n && binary; i++)
        binary = c[(size_t)i * *nd + d] == 0 || c[(size_t)i * *nd + d] == 1;
      if (binary)
        two[k++] = d;
    }
    if (k < 2)
      return;
    /* (a, b) -> the ring 0 1 2 3 of (0,0) (1,0) (1,1) (0,1); two[1] < two[0] */
    int a = two[1], b = two[0], od = *nd, w = 0;
    for (int i = 0; i < n; i++) {
      const double *row = c + (size_t)i * od;
      double ring = row[a] == 0 ? (row[b] == 0 ? 0 : 3) : (row[b] == 0 ? 1 : 2);
      double tmp[GRID_MAX_DIMS];
      for (int d = 0, j = 0; d < od; d++)
        if (d != b)
          tmp[j++] = d == a ? ring : row[d];
      memcpy(c + (size_t)w, tmp, sizeof(double) * (size_t)(od - 1));
      w += od - 1;
    }
    (*nd)--;
  }
}

gboolean task_grid_init(task_grid *g, const strategy_ctx *ctx, const char *who, GError **error)
{
  memset(g, 0, sizeof *g);
  if (ctx->coords && grid_from_coords(g, ctx->coords, ctx->g->n, ctx->coord_dims))
    return TRUE;
  double *x = NULL;
  int nd = 0;
  GError *e = NULL;
  if (grid_coords_of_graph(ctx->g, ctx->prog, &x, &nd, &e)) {
    gboolean ok = grid_from_coords(g, x, ctx->g->n, nd);
    g_free(x);
    if (ok)
      return TRUE;
  }
  if (e) {
    g_propagate_prefixed_error(error, e, "%s: ", who);
    return FALSE;
  }
  if (!progress_check(ctx->prog, error))
    return FALSE;
  g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
              "%s: no grid: the %d ranks have no integer --coords and the communication graph "
              "is not a Cartesian or toroidal grid (in rank order, bhatele2010 Section 8.1, or "
              "renumbered); expected a stencil, or --coords FILE with integer grid coordinates",
              who, ctx->g->n);
  return FALSE;
}

void task_grid_clear(task_grid *g)
{
  g_free(g->c);
  memset(g, 0, sizeof *g);
}

/* ---- views ---- */

static void axis_add(gaxis *a, int dim, int size)
{
  a->dim[a->ndims] = dim;
  a->size[a->ndims] = size;
  a->ndims++;
  a->n = a->n ? a->n * size : size;
}

void gview_native(gview *v, int nd, const int *dims)
{
  memset(v, 0, sizeof *v);
  for (int d = 0; d < nd; d++)
    if (dims[d] > 1)
      axis_add(&v->ax[v->naxes++], d, dims[d]);
  if (v->naxes == 0)
    axis_add(&v->ax[v->naxes++], 0, 1);
}

void gview_plane(gview *v, int nd, const int *dims)
{
  memset(v, 0, sizeof *v);
  int order[GRID_MAX_DIMS], k = 0;
  for (int d = 0; d < nd; d++)
    if (dims[d] > 1)
      order[k++] = d;
  /* by size, largest first; ties to the lower dimension */
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && dims[order[j]] > dims[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  v->naxes = 2;
  if (k == 0) {
    axis_add(&v->ax[0], 0, 1);
    axis_add(&v->ax[1], 0, 1);
    return;
  }
  axis_add(&v->ax[0], order[0], dims[order[0]]);
  if (k == 1)
    axis_add(&v->ax[1], nd > 1 ? (order[0] == 0 ? 1 : 0) : 0, 1);
  for (int i = 1; i < k; i++)
    axis_add(&v->ax[1], order[i], dims[order[i]]);
}

/* Boustrophedon position of the axis's dimensions (fastest first). */
static int axis_pos(const gaxis *a, const int *c)
{
  int pos = 0;
  for (int j = a->ndims - 1; j >= 0; j--) {
    int x = a->size[j] > 1 ? c[a->dim[j]] : 0;
    int digit = (pos & 1) ? a->size[j] - 1 - x : x;
    pos = pos * a->size[j] + digit;
  }
  return pos;
}

static void axis_coords(const gaxis *a, int pos, int *c)
{
  int block = a->n, prefix = 0;
  for (int j = a->ndims - 1; j >= 0; j--) {
    block /= a->size[j];
    int digit = (pos / block) % a->size[j];
    if (a->size[j] > 1)
      c[a->dim[j]] = (prefix & 1) ? a->size[j] - 1 - digit : digit;
    prefix = prefix * a->size[j] + digit;
  }
}

void gview_to_view(const gview *v, const int *c, int *vc)
{
  for (int i = 0; i < v->naxes; i++)
    vc[i] = axis_pos(&v->ax[i], c);
}

void gview_to_base(const gview *v, const int *vc, int *c)
{
  for (int i = 0; i < v->naxes; i++)
    axis_coords(&v->ax[i], CLAMP(vc[i], 0, v->ax[i].n - 1), c);
}

/* ---- slot grid ---- */

void slotgrid_dims(const platform *p, int *dims)
{
  const topo *t = p->topo;
  for (int d = 0; d < t->ndims; d++)
    dims[d] = t->shape[d];
  dims[0] *= p->cores_per_node;
}

int slotgrid_node(const platform *p, const int *s)
{
  const topo *t = p->topo;
  int v = 0;
  for (int d = 0; d < t->ndims; d++) {
    int x = d == 0 ? s[0] / p->cores_per_node : s[d];
    v += CLAMP(x, 0, t->shape[d] - 1) * t->stride[d];
  }
  return v;
}
