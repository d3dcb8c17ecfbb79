/* curves.c - topology-oblivious curve placements over the allocated
 * nodes (korndoerfer2021 Section 6.2, the curves of MapLib's
 * mapper/mapping.py, re-implemented here): `sweep`, `scan`, `morton` (alias
 * `peano`), `gray` and `hilbert`. Every allocated node gets a key - its
 * position along the curve over the node coordinates - and the nodes are
 * sorted by key; rank r then takes slot r, the cores of one node being
 * consecutive (places_slots).
 *
 *  - sweep: node id order, dimension 0 fastest. Any shape, any dimension.
 *  - scan: boustrophedon; dimension d runs backwards whenever the count of
 *    completed runs of the dimensions up to d is odd, so every step is one
 *    hop (mesh distance). Any shape, any dimension.
 *  - morton: Z order, bits of the coordinates interleaved level by level
 *    with dimension 0 the least significant. MapLib calls this curve
 *    "peano" although it is Morton's Z order, hence the alias. Any
 *    dimension; shapes that are not powers of two use the enclosing
 *    power-of-two box.
 *  - gray, hilbert: MapLib's recursive 3D constructions (an octant table of
 *    origin offsets and signed, permuted half vectors, integer halving
 *    towards zero). Up to 3 dimensions (fewer are padded with size 1);
 *    shapes other than a power-of-two cube use the enclosing power-of-two
 *    cube, and sub-boxes outside the shape are pruned.
 * In every case nodes that are absent (outside the shape, or not allocated)
 * are skipped: a sparse allocation gets its nodes in curve order. Graph
 * topologies have no coordinates and are refused. */
#include "mapping/strategy.h"

#include <stdlib.h>

/* One child of a recursive 3D curve: origin += sum full[k]*V[k] +
 * half[k]*H[k] (V the current vectors, H = V/2); the child's vector j is
 * sign[j] * H[src[j]]. */
typedef struct curve_child {
  signed char full[3], half[3], src[3], sign[3];
} curve_child;

static const curve_child gray_children[8] = {
  { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 1, 2 }, { 1, 1, 1 } },
  { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 1, 2 }, { -1, -1, 1 } },
  { { 1, 0, 1 }, { 0, 0, 0 }, { 0, 1, 2 }, { -1, 1, -1 } },
  { { 0, 0, 1 }, { 0, 1, 0 }, { 0, 1, 2 }, { 1, -1, -1 } },
  { { 0, 1, 1 }, { 0, 0, 0 }, { 0, 1, 2 }, { 1, -1, -1 } },
  { { 1, 1, 1 }, { 0, -1, 0 }, { 0, 1, 2 }, { -1, 1, -1 } },
  { { 1, 1, 0 }, { 0, 0, 0 }, { 0, 1, 2 }, { -1, -1, 1 } },
  { { 0, 1, 0 }, { 0, -1, 0 }, { 0, 1, 2 }, { 1, 1, 1 } },
};

static const curve_child hilbert_children[8] = {
  { { 0, 0, 0 }, { 0, 0, 0 }, { 2, 0, 1 }, { 1, 1, 1 } },
  { { 0, 1, 0 }, { 0, -1, 0 }, { 1, 2, 0 }, { 1, 1, 1 } },
  { { 1, 1, 0 }, { -1, -1, 0 }, { 1, 2, 0 }, { 1, 1, 1 } },
  { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 1, 2 }, { -1, -1, 1 } },
  { { 1, 0, 1 }, { 0, 1, -1 }, { 0, 1, 2 }, { -1, -1, 1 } },
  { { 1, 1, 1 }, { 0, -1, 0 }, { 1, 2, 0 }, { 1, -1, -1 } },
  { { 0, 1, 1 }, { 1, -1, 0 }, { 1, 2, 0 }, { 1, -1, -1 } },
  { { 0, 0, 1 }, { 0, 1, 0 }, { 2, 0, 1 }, { -1, 1, -1 } },
};

/* Walk state of a recursive curve: assigns key[node] = visit count. */
typedef struct curve_walk {
  const curve_child *rule;
  const topo *t;
  int shape[3];
  int64_t *key;
  int64_t next;
} curve_walk;

/* Does the box spanned from o by the vectors v meet the shape? */
static gboolean box_meets(const curve_walk *w, const int *o, int v[3][3])
{
  for (int ax = 0; ax < 3; ax++) {
    int lo = o[ax], hi = o[ax];
    for (int k = 0; k < 3; k++)
      v[k][ax] < 0 ? (lo += v[k][ax]) : (hi += v[k][ax]);
    if (hi < 0 || lo >= w->shape[ax])
      return FALSE;
  }
  return TRUE;
}

static void visit_point(curve_walk *w, const int *o)
{
  int c[TOPO_MAX_DIMS] = { 0 };
  for (int d = 0; d < w->t->ndims; d++)
    c[d] = o[d];
  w->key[topo_node(w->t, c)] = w->next++;
}

static void curve_recurse(curve_walk *w, const int *o, int v[3][3])
{
  if (!box_meets(w, o, v))
    return;
  int h[3][3];
  gboolean leaf = TRUE;
  for (int k = 0; k < 3; k++)
    for (int ax = 0; ax < 3; ax++) {
      h[k][ax] = v[k][ax] / 2; /* C truncates towards zero, as MapLib's Vector // */
      leaf = leaf && v[k][ax] == 0;
    }
  if (leaf) {
    visit_point(w, o);
    return;
  }
  for (int c = 0; c < 8; c++) {
    const curve_child *ch = &w->rule[c];
    int co[3], cv[3][3];
    for (int ax = 0; ax < 3; ax++) {
      co[ax] = o[ax];
      for (int k = 0; k < 3; k++)
        co[ax] += ch->full[k] * v[k][ax] + ch->half[k] * h[k][ax];
    }
    for (int j = 0; j < 3; j++)
      for (int ax = 0; ax < 3; ax++)
        cv[j][ax] = ch->sign[j] * h[(int)ch->src[j]][ax];
    curve_recurse(w, co, cv);
  }
}

/* Side of the enclosing power-of-two box of the first `nd` dimensions. */
static int pow2_side(const topo *t)
{
  int side = 1;
  for (int d = 0; d < t->ndims; d++)
    while (side < t->shape[d])
      side *= 2;
  return side;
}

static gboolean keys_recursive(const topo *t, const curve_child *rule, const char *name,
                               int64_t *key, GError **error)
{
  if (t->ndims > 3) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: the curve is defined for up to 3 dimensions, the platform has %d; "
                "expected morton, scan or sweep for it", name, t->ndims);
    return FALSE;
  }
  curve_walk w = { rule, t, { 1, 1, 1 }, key, 0 };
  for (int d = 0; d < t->ndims; d++)
    w.shape[d] = t->shape[d];
  int side = pow2_side(t);
  int o[3] = { 0, 0, 0 };
  int v[3][3] = { { side - 1, 0, 0 }, { 0, side - 1, 0 }, { 0, 0, side - 1 } };
  curve_recurse(&w, o, v);
  return TRUE;
}

static gboolean keys_morton(const topo *t, int64_t *key, GError **error)
{
  int bits = 0;
  while ((1 << bits) < pow2_side(t))
    bits++;
  if (bits * t->ndims > 62) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "morton: %d dimensions of %d bits do not fit a 62-bit key", t->ndims, bits);
    return FALSE;
  }
  int c[TOPO_MAX_DIMS];
  for (int v = 0; v < t->nnodes; v++) {
    topo_coords(t, v, c);
    int64_t k = 0;
    for (int b = bits - 1; b >= 0; b--)
      for (int d = t->ndims - 1; d >= 0; d--)
        k = (k << 1) | ((c[d] >> b) & 1);
    key[v] = k;
  }
  return TRUE;
}

/* Boustrophedon: position p has digits c_d (dimension 0 fastest); digit d
 * is mirrored when floor(p / (shape_0 * ... * shape_d)) is odd. */
static void keys_scan(const topo *t, int64_t *key)
{
  int c[TOPO_MAX_DIMS];
  for (int64_t p = 0; p < t->nnodes; p++) {
    int64_t below = 1;
    for (int d = 0; d < t->ndims; d++) {
      c[d] = (int)((p / below) % t->shape[d]);
      below *= t->shape[d];
      if ((p / below) & 1)
        c[d] = t->shape[d] - 1 - c[d];
    }
    key[topo_node(t, c)] = p;
  }
}

static int cmp_key(const void *a, const void *b)
{
  const int64_t *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Places rank r on the (r / cores)-th allocated node in key order. */
static void place_by_key(const platform *p, const int64_t *key, mapping *m)
{
  int64_t *pairs = g_new(int64_t, 2 * (size_t)p->nalloc);
  for (int i = 0; i < p->nalloc; i++) {
    pairs[2 * i] = key[p->alloc[i]];
    pairs[2 * i + 1] = p->alloc[i];
  }
  qsort(pairs, (size_t)p->nalloc, 2 * sizeof(int64_t), cmp_key);
  for (int r = 0; r < m->ntasks; r++)
    m->node[r] = (int)pairs[2 * (r / p->cores_per_node) + 1];
  g_free(pairs);
}

typedef enum { CURVE_SWEEP, CURVE_SCAN, CURVE_MORTON, CURVE_GRAY, CURVE_HILBERT } curve_kind;

static gboolean run_curve(const strategy_ctx *ctx, mapping *m, curve_kind kind, const char *name,
                          GError **error)
{
  const topo *t = ctx->p->topo;
  if (!topo_is_regular(t)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: platform %s is a %s without node coordinates, expected a "
                "mesh, torus or HAEC Box", name, ctx->p->name,
                topo_kind_text(ctx->p->topo));
    return FALSE;
  }
  int64_t *key = g_new(int64_t, t->nnodes);
  for (int v = 0; v < t->nnodes; v++)
    key[v] = v; /* sweep; the other curves overwrite every key */
  gboolean ok = TRUE;
  if (kind == CURVE_SCAN)
    keys_scan(t, key);
  else if (kind == CURVE_MORTON)
    ok = keys_morton(t, key, error);
  else if (kind == CURVE_GRAY)
    ok = keys_recursive(t, gray_children, name, key, error);
  else if (kind == CURVE_HILBERT)
    ok = keys_recursive(t, hilbert_children, name, key, error);
  if (ok)
    place_by_key(ctx->p, key, m);
  g_free(key);
  return ok;
}

static gboolean run_sweep(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                          GError **error)
{
  return run_curve(ctx, m, CURVE_SWEEP, "sweep", error);
}

static gboolean run_scan(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  return run_curve(ctx, m, CURVE_SCAN, "scan", error);
}

static gboolean run_morton(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  return run_curve(ctx, m, CURVE_MORTON, "morton", error);
}

static gboolean run_gray(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  return run_curve(ctx, m, CURVE_GRAY, "gray", error);
}

static gboolean run_hilbert(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                            GError **error)
{
  return run_curve(ctx, m, CURVE_HILBERT, "hilbert", error);
}

const strategy strategy_sweep = {
  .name = "sweep",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "allocated nodes in node-id order (x fastest); any shape",
  .paper = "korndoerfer2021 Section 6.2 (MapLib Sweep)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n)",
  .max_ranks = 0,
  .run = run_sweep,
};

const strategy strategy_scan = {
  .name = "scan",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "boustrophedon curve, every step one hop; any shape",
  .paper = "korndoerfer2021 Section 6.2 (MapLib Scan)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n)",
  .max_ranks = 0,
  .run = run_scan,
};

const strategy strategy_morton = {
  .name = "morton",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "Morton/Z-order curve, N dimensions, enclosing power-of-two box",
  .paper = "korndoerfer2021 Section 6.2 (MapLib \"Peano\", really Morton)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n log n)",
  .max_ranks = 0,
  .run = run_morton,
};

const strategy strategy_peano = {
  .name = "peano",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "alias of morton: MapLib's \"Peano\" curve is a Morton/Z order",
  .paper = "korndoerfer2021 Section 6.2 (MapLib Peano)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n log n)",
  .max_ranks = 0,
  .run = run_morton,
};

const strategy strategy_gray = {
  .name = "gray",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "MapLib's recursive Gray curve, up to 3D, enclosing power-of-two cube",
  .paper = "korndoerfer2021 Section 6.2 (MapLib Gray)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n log n)",
  .max_ranks = 0,
  .run = run_gray,
};

const strategy strategy_hilbert = {
  .name = "hilbert",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "3D Hilbert curve (MapLib's construction), enclosing power-of-two cube",
  .paper = "korndoerfer2021 Section 6.2 (MapLib Hilbert)",
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n log n)",
  .max_ranks = 0,
  .run = run_hilbert,
};
