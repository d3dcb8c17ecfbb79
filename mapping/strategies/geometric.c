/* geometric.c - `geometric`: geometric task mapping by recursive
 * coordinate partitioning of tasks and of allocated nodes into the same
 * numbered parts, matched part by part.
 *
 * deveci-geometric (Deveci et al., "Exploiting Geometric Partitioning in
 * Task Mapping for Parallel Computers"), Algorithm 1 (MJ on task and on
 * machine coordinates, GETMAPPINGARRAYS) and Algorithm 2 (MJ by recursive
 * bisection, GETPARTDIM = the longest dimension of the points' bounding box,
 * part numbers in Z, Gray or flipped-Z order: after a cut, Gray negates all
 * coordinates of the upper half, FZ only the cut coordinate, Z none), with
 * the improvements of Section 4.3: MFZ (the task set flips its lower half
 * instead, when pd is a multiple of td and pd > td), a Hilbert order, the
 * torus shift of machine coordinates at the largest gap of used
 * coordinates, rotations (dimension permutations of task and machine
 * coordinates, keeping the lowest hop-bytes), and bandwidth-scaled machine
 * coordinates (Section 5.3: a dimension with slower links looks longer).
 * When the part count of a step is not a power of two, the step splits it
 * unevenly by its largest prime factor q: floor(q/2) * (np/q) parts on the
 * low side, points in proportion.
 *
 * Tasks and slots: every allocated node appears cores_per_node times as a
 * slot (the node coordinates repeated), so several ranks per node need no
 * pre-partition (places_slots). Tasks T <= slots S: both sets are split
 * into T parts - one task per part, one or more slots - and each task gets
 * the lowest slot of its part (paper case 3 picks slots by K-means; this
 * is a simpler rule with the same capacity guarantee).
 *
 * Task coordinates come from --coords (ctx->coords) or, failing that, from
 * recognizing a Cartesian near-neighbour stencil in the graph (bhatele2010
 * Section 8.1, Algorithm 8.1, generalized to 1..5 dimensions and to the
 * diagonal neighbours of 9/27-point stencils: edges below 20% of the mean
 * weight and a rank-0 hub are ignored; the rank offsets of the remaining
 * edges must be explained by strides 1, X, XY, ... with ranks numbered
 * dimension 0 fastest; the fewest dimensions that explain them win).
 *
 * Cost: O(n log n) per MJ call (linear-time selection per level, log n
 * levels) for n = tasks or slots; rotations multiply by the permutations
 * tried and add one hop-bytes evaluation O(E) per pair.
 */
#include "mapping/strategies/geometric-private.h"
#include "mapping/grid.h"
#include "mapping/strategy.h"

#include <math.h>
#include <string.h>

#include "util/budget.h"

#define GEO_MAX_DIMS 8

typedef enum {
  SFC_Z = GEO_SFC_Z,
  SFC_GRAY = GEO_SFC_GRAY,
  SFC_FZ = GEO_SFC_FZ,
  SFC_MFZ = GEO_SFC_MFZ,
  SFC_HILBERT = GEO_SFC_HILBERT,
} sfc_kind;

static const strategy_param geometric_params[] = {
  GEOMETRIC_PARAM_ROWS,
  { NULL, 0, NULL, NULL, NULL },
};

/* One MJ run: points x[n*dim] (modified: flips), parts out in mu[n]. */
typedef struct mj_run {
  double *x;
  int dim;
  int *idx;
  int *mu;
  const int *order;     /* dimension preference for longest-dimension ties */
  sfc_kind sfc;
  gboolean flip_lower;  /* MFZ on this set */
  int *seq;             /* cut dimensions in visiting order: recorded, or followed */
  const int *follow;    /* NULL: record (if seq); else seq is followed, follow[d] = own axis */
  int seq_pos;
} mj_run;

static inline gboolean key_less(const mj_run *r, int d, int a, int b)
{
  double ka = r->x[(size_t)a * r->dim + d], kb = r->x[(size_t)b * r->dim + d];
  return ka < kb || (ka == kb && a < b);
}

/* Rearranges idx[lo, hi) so that idx[k] holds the point of rank k and all
 * before it are smaller (coordinate d, ties by point id). Expected O(hi-lo). */
static void select_rank(const mj_run *r, int d, int lo, int hi, int k)
{
  int *idx = r->idx;
  while (hi - lo > 1) {
    int a = idx[lo], b = idx[lo + (hi - lo) / 2], c = idx[hi - 1];
    int piv;
    if (key_less(r, d, a, b))
      piv = key_less(r, d, b, c) ? b : key_less(r, d, a, c) ? c : a;
    else
      piv = key_less(r, d, a, c) ? a : key_less(r, d, b, c) ? c : b;
    int i = lo, j = hi - 1;
    while (i <= j) {
      while (key_less(r, d, idx[i], piv))
        i++;
      while (key_less(r, d, piv, idx[j]))
        j--;
      if (i <= j) {
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j)
      hi = j + 1;
    else if (k >= i)
      lo = i;
    else
      return;
  }
}

static int largest_prime_factor(int n)
{
  int q = 1;
  for (int f = 2; (int64_t)f * f <= n; f++)
    while (n % f == 0)
      q = f, n /= f;
  return n > 1 ? n : q;
}

/* MJ_HELPER of Algorithm 2 on idx[lo, hi) into np parts numbered from base. */
static void mj_helper(mj_run *r, int lo, int hi, int np, int base)
{
  int n = hi - lo;
  if (np <= 1 || n <= 1) {
    for (int i = lo; i < hi; i++)
      r->mu[r->idx[i]] = base;
    return;
  }
  /* GETPARTDIM: the longest extent; ties go to the earliest in r->order */
  double lo_c[GEO_MAX_DIMS], hi_c[GEO_MAX_DIMS];
  for (int d = 0; d < r->dim; d++)
    lo_c[d] = INFINITY, hi_c[d] = -INFINITY;
  for (int i = lo; i < hi; i++) {
    const double *p = r->x + (size_t)r->idx[i] * r->dim;
    for (int d = 0; d < r->dim; d++) {
      if (p[d] < lo_c[d])
        lo_c[d] = p[d];
      if (p[d] > hi_c[d])
        hi_c[d] = p[d];
    }
  }
  int cd = r->order[0];
  for (int k = 1; k < r->dim; k++) {
    int d = r->order[k];
    if (hi_c[d] - lo_c[d] > hi_c[cd] - lo_c[cd])
      cd = d;
  }
  if (r->seq && r->follow)
    cd = r->follow[r->seq[r->seq_pos++]];
  else if (r->seq)
    r->seq[r->seq_pos++] = cd;
  /* BIN1DPART: low side gets npl parts and points in proportion */
  int npl = np % 2 == 0 ? np / 2 : (largest_prime_factor(np) / 2) * (np / largest_prime_factor(np));
  int nl = (int)((int64_t)n * npl / np);
  select_rank(r, cd, lo, hi, lo + nl);
  int flo = r->flip_lower ? lo : lo + nl, fhi = r->flip_lower ? lo + nl : hi;
  if (r->sfc == SFC_FZ || r->sfc == SFC_MFZ) {
    for (int i = flo; i < fhi; i++)
      r->x[(size_t)r->idx[i] * r->dim + cd] = -r->x[(size_t)r->idx[i] * r->dim + cd];
  } else if (r->sfc == SFC_GRAY) {
    for (int i = flo; i < fhi; i++)
      for (int d = 0; d < r->dim; d++)
        r->x[(size_t)r->idx[i] * r->dim + d] = -r->x[(size_t)r->idx[i] * r->dim + d];
  }
  mj_helper(r, lo, lo + nl, npl, base);
  mj_helper(r, lo + nl, hi, np - npl, base + npl);
}

/* Hilbert index of integer coordinates c[0..dim) with `bits` bits each
 * (Skilling's AxesToTranspose, then bit interleaving, dimension 0 most
 * significant). */
static uint64_t hilbert_key(uint32_t *c, int dim, int bits)
{
  uint32_t m = 1u << (bits - 1);
  for (uint32_t q = m; q > 1; q >>= 1) {
    uint32_t p = q - 1;
    for (int i = 0; i < dim; i++) {
      if (c[i] & q) {
        c[0] ^= p;
      } else {
        uint32_t t = (c[0] ^ c[i]) & p;
        c[0] ^= t;
        c[i] ^= t;
      }
    }
  }
  for (int i = 1; i < dim; i++)
    c[i] ^= c[i - 1];
  uint32_t t = 0;
  for (uint32_t q = m; q > 1; q >>= 1)
    if (c[dim - 1] & q)
      t ^= q - 1;
  for (int i = 0; i < dim; i++)
    c[i] ^= t;
  uint64_t key = 0;
  for (int b = bits - 1; b >= 0; b--)
    for (int i = 0; i < dim; i++)
      key = (key << 1) | ((c[i] >> b) & 1u);
  return key;
}

typedef struct hkey {
  uint64_t key;
  int id;
} hkey;

static int hkey_cmp(const void *a, const void *b)
{
  const hkey *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

static int double_cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Hilbert ordering: coordinates become ranks of their distinct values per
 * dimension, points are sorted by Hilbert index and cut into np runs of
 * proportional length. */
static void hilbert_parts(const double *x, int n, int dim, const int *order, int np, int *mu)
{
  uint32_t *q = g_new(uint32_t, (size_t)n * dim);
  double *vals = g_new(double, n);
  int maxrank = 1;
  for (int k = 0; k < dim; k++) {
    int d = order[k];
    for (int i = 0; i < n; i++)
      vals[i] = x[(size_t)i * dim + d];
    qsort(vals, n, sizeof(double), double_cmp);
    int u = 0;
    for (int i = 0; i < n; i++)
      if (i == 0 || vals[i] != vals[u - 1])
        vals[u++] = vals[i];
    if (u > maxrank)
      maxrank = u;
    for (int i = 0; i < n; i++) {
      double v = x[(size_t)i * dim + d];
      int a = 0, b = u - 1;
      while (a < b) {
        int mid = (a + b) / 2;
        if (vals[mid] < v)
          a = mid + 1;
        else
          b = mid;
      }
      q[(size_t)i * dim + k] = (uint32_t)a;
    }
  }
  int bits = 1;
  while ((1 << bits) < maxrank)
    bits++;
  int shift = 0;
  if (bits * dim > 64) { /* keep the top bits */
    shift = bits - 64 / dim;
    bits = 64 / dim;
  }
  hkey *keys = g_new(hkey, n);
  for (int i = 0; i < n; i++) {
    uint32_t c[GEO_MAX_DIMS];
    for (int k = 0; k < dim; k++)
      c[k] = q[(size_t)i * dim + k] >> shift;
    keys[i].key = dim == 1 ? c[0] : hilbert_key(c, dim, bits);
    keys[i].id = i;
  }
  qsort(keys, n, sizeof(hkey), hkey_cmp);
  for (int r = 0; r < n; r++)
    mu[keys[r].id] = (int)((int64_t)r * np / n);
  g_free(keys);
  g_free(vals);
  g_free(q);
}

/* Runs the chosen ordering on a copy of x: part numbers 0..np-1 in mu. */
static void partition_points(const double *x, int n, int dim, const int *order, sfc_kind sfc,
                             gboolean flip_lower, int np, int *mu, int *seq, const int *follow)
{
  if (sfc == SFC_HILBERT) {
    hilbert_parts(x, n, dim, order, np, mu);
    return;
  }
  mj_run r = { g_memdup2(x, sizeof(double) * (size_t)n * dim), dim, g_new(int, n), mu, order,
               sfc, flip_lower, seq, follow, 0 };
  for (int i = 0; i < n; i++)
    r.idx[i] = i;
  mj_helper(&r, 0, n, np, 0);
  g_free(r.x);
  g_free(r.idx);
}

/* Exported for tests and spectral-embed.c (mapping/strategies/geometric-private.h). */
void geometric_parts(const double *x, int n, int dim, const int *order, int sfc,
                     gboolean flip_lower, int np, int *mu)
{
  int ident[GEO_MAX_DIMS];
  for (int d = 0; d < dim; d++)
    ident[d] = d;
  partition_points(x, n, dim, order ? order : ident, (sfc_kind)sfc, flip_lower, np, mu, NULL,
                   NULL);
}

/* --- machine coordinates --- */

/* Coordinates of every slot (allocated node, repeated cores_per_node
 * times) into x[S * ndims], with the torus shift and bandwidth scaling. */
static double *slot_coords(const platform *p, gboolean shift, gboolean bwscale)
{
  const topo *t = p->topo;
  int nd = t->ndims, cores = p->cores_per_node, S = (int)platform_capacity(p);
  int *nc = g_new(int, (size_t)p->nalloc * nd);
  for (int a = 0; a < p->nalloc; a++)
    topo_coords(t, p->alloc[a], nc + (size_t)a * nd);
  double scale[TOPO_MAX_DIMS];
  for (int d = 0; d < nd; d++)
    scale[d] = 1.0;
  if (bwscale) {
    /* mean bandwidth of each dimension's links; the fastest keeps scale 1 */
    double sum[TOPO_MAX_DIMS] = { 0 }, best = 0;
    int cnt[TOPO_MAX_DIMS] = { 0 };
    for (int l = 0; l < t->nlinks; l++)
      if (t->link_dim[l] >= 0)
        sum[t->link_dim[l]] += p->link_bw[l], cnt[t->link_dim[l]]++;
    for (int d = 0; d < nd; d++)
      if (cnt[d] && sum[d] / cnt[d] > best)
        best = sum[d] / cnt[d];
    for (int d = 0; d < nd; d++)
      if (cnt[d])
        scale[d] = best / (sum[d] / cnt[d]);
  }
  for (int d = 0; shift && d < nd; d++) {
    if (t->conn[d] != TOPO_TORUS)
      continue;
    /* the largest gap between used coordinates, the wrap gap included: if
     * it is inside the ring, coordinates below it move up by the ring size */
    int X = t->shape[d];
    gboolean *used = g_new0(gboolean, X);
    for (int a = 0; a < p->nalloc; a++)
      used[nc[(size_t)a * nd + d]] = TRUE;
    int first = -1, last = -1, gap = 0, gap_lo = -1;
    for (int c = 0; c < X; c++) {
      if (!used[c])
        continue;
      if (first < 0)
        first = c;
      if (last >= 0 && c - last > gap)
        gap = c - last, gap_lo = last;
      last = c;
    }
    int wrap = first + X - last;
    if (gap > 1 && gap > wrap)
      for (int a = 0; a < p->nalloc; a++)
        if (nc[(size_t)a * nd + d] <= gap_lo)
          nc[(size_t)a * nd + d] += X;
    g_free(used);
  }
  double *x = g_new(double, (size_t)S * nd);
  for (int s = 0; s < S; s++)
    for (int d = 0; d < nd; d++)
      x[(size_t)s * nd + d] = nc[(size_t)(s / cores) * nd + d] * scale[d];
  g_free(nc);
  return x;
}

/* --- the strategy --- */

/* The k-th permutation of 0..n-1 in lexicographic order (k < n!). */
static void nth_permutation(int n, int k, int *perm)
{
  int pool[GEO_MAX_DIMS];
  for (int i = 0; i < n; i++)
    pool[i] = i;
  for (int i = 0; i < n; i++) {
    int f = 1;
    for (int j = 2; j <= n - 1 - i; j++)
      f *= j;
    int q = k / f;
    k %= f;
    perm[i] = pool[q];
    memmove(pool + q, pool + q + 1, sizeof(int) * (size_t)(n - 1 - i - q));
  }
}

static int factorial_capped(int n, int cap)
{
  int f = 1;
  for (int i = 2; i <= n && f <= cap; i++)
    f *= i;
  return f;
}

/* Hop-bytes of a task -> node array along the platform's routes. */
static int64_t hop_bytes(const commgraph *g, const platform *p, const int *node)
{
  int64_t hb = 0;
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
      if (node[i] != node[g->adj[e]])
        hb += g->bytes[e] * route_hops(p->router, node[i], node[g->adj[e]]);
  return hb;
}

/* axis[m] = the task axis paired with machine axis m: both sorted by
 * extent, longest first (ties: lower axis first). */
static void pair_axes(const double *tc, int T, const double *sx, int S, int pd, int *axis)
{
  double text[GEO_MAX_DIMS], sext[GEO_MAX_DIMS];
  int tord[GEO_MAX_DIMS], sord[GEO_MAX_DIMS];
  for (int d = 0; d < pd; d++) {
    double tlo = INFINITY, thi = -INFINITY, slo = INFINITY, shi = -INFINITY;
    for (int i = 0; i < T; i++)
      tlo = MIN(tlo, tc[(size_t)i * pd + d]), thi = MAX(thi, tc[(size_t)i * pd + d]);
    for (int i = 0; i < S; i++)
      slo = MIN(slo, sx[(size_t)i * pd + d]), shi = MAX(shi, sx[(size_t)i * pd + d]);
    text[d] = thi - tlo, sext[d] = shi - slo;
    tord[d] = sord[d] = d;
  }
  for (int i = 1; i < pd; i++)
    for (int j = i; j > 0; j--) {
      if (text[tord[j]] > text[tord[j - 1]]) {
        int t = tord[j];
        tord[j] = tord[j - 1], tord[j - 1] = t;
      }
      if (sext[sord[j]] > sext[sord[j - 1]]) {
        int t = sord[j];
        sord[j] = sord[j - 1], sord[j - 1] = t;
      }
    }
  for (int r = 0; r < pd; r++)
    axis[sord[r]] = tord[r];
}

gboolean geometric_map(const strategy_ctx *ctx, const strategy_args *args, const double *tc,
                       int td, mapping *m, GError **error)
{
  gboolean follow = strategy_arg_int(args, "follow");
  const platform *p = ctx->p;
  const commgraph *g = ctx->g;
  const char *ord = strategy_arg_str(args, "ordering");
  int rotations = strategy_arg_int(args, "rotations");
  gboolean ok = FALSE;
  double *sx = NULL;
  int *tpart = NULL, *spart = NULL, *first_slot = NULL, *node = NULL, *seq = NULL;
  int T = g->n, S = (int)MIN(platform_capacity(p), G_MAXINT);

  if (!topo_is_regular(p->topo)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "geometric: platform %s is a %s without node coordinates; "
                "expected a mesh, torus or HAEC Box platform", p->name, topo_kind_text(p->topo));
    goto out;
  }
  if (td < 1 || td > GEO_MAX_DIMS) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "geometric: task coordinates have %d dimensions, expected 1..%d", td,
                GEO_MAX_DIMS);
    goto out;
  }
  for (size_t i = 0; i < (size_t)T * td; i++)
    if (!isfinite(tc[i])) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "geometric: coordinate %zu of rank %zu is not a finite number", i % td + 1,
                  i / td);
      goto out;
    }
  sfc_kind sfc = strcmp(ord, "z") == 0      ? SFC_Z
                 : strcmp(ord, "gray") == 0 ? SFC_GRAY
                 : strcmp(ord, "mfz") == 0  ? SFC_MFZ
                 : strcmp(ord, "hilbert") == 0 ? SFC_HILBERT
                                               : SFC_FZ;
  int pd = p->topo->ndims;
  /* MFZ: the task set flips its lower halves when pd is a multiple of td */
  gboolean task_flip_lower = sfc == SFC_MFZ && pd > td && pd % td == 0;
  sfc_kind node_sfc = sfc == SFC_MFZ ? SFC_FZ : sfc;
  int ntp = 1, nnp = 1; /* task and node permutations tried */
  if (rotations > 0) {
    int ft = factorial_capped(td, 720), fn = factorial_capped(pd, 720);
    ntp = MIN(ft, rotations);
    nnp = MIN(fn, MAX(1, rotations / ntp));
  }
  /* every slot (node x core) is a point: its coordinates and part; the
   * task parts of every task permutation */
  if (platform_capacity(p) > G_MAXINT ||
      !budget_check_array("geometric: the slots (nodes x cores) of the platform",
                          (uint64_t)platform_capacity(p), sizeof(double) * pd + 2 * sizeof(int),
                          error) ||
      !budget_check_array("geometric: the task parts of every rotation", (uint64_t)T,
                          sizeof(int) * (size_t)(ntp + nnp + 1) + sizeof(double) * td, error)) {
    if (error && !*error)
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "geometric: %s has %" G_GINT64_FORMAT " slots (nodes x cores), expected at "
                  "most 2^31 - 1 (lower --cores)", p->name, platform_capacity(p));
    goto out;
  }
  sx = slot_coords(p, strategy_arg_int(args, "shift"), strategy_arg_int(args, "bwscale"));
  /* following: the tasks are cut along the machine's cut dimensions (task
   * axes paired with machine axes by extent), once per machine rotation */
  gboolean follow_ok = follow && td == pd && sfc != SFC_HILBERT;
  int nts = follow_ok ? nnp : ntp;
  int axis[GEO_MAX_DIMS];
  if (follow_ok)
    pair_axes(tc, T, sx, S, pd, axis);
  tpart = g_new(int, (size_t)T * nts);
  spart = g_new(int, S);
  first_slot = g_new(int, (size_t)T * nnp);
  seq = follow_ok ? g_new(int, T) : NULL;
  for (int k = 0; k < nnp; k++) {
    int perm[GEO_MAX_DIMS];
    nth_permutation(pd, k, perm);
    partition_points(sx, S, pd, perm, node_sfc, FALSE, T, spart, seq, NULL);
    int *fs = first_slot + (size_t)k * T;
    for (int q = 0; q < T; q++)
      fs[q] = -1;
    for (int s = 0; s < S; s++)
      if (fs[spart[s]] < 0)
        fs[spart[s]] = s;
    if (follow_ok)
      partition_points(tc, T, td, perm, sfc, task_flip_lower, T, tpart + (size_t)k * T, seq,
                       axis);
    if (!progress_check(ctx->prog, error))
      goto out;
  }
  for (int k = 0; !follow_ok && k < ntp; k++) {
    int perm[GEO_MAX_DIMS];
    nth_permutation(td, k, perm);
    partition_points(tc, T, td, perm, sfc, task_flip_lower, T, tpart + (size_t)k * T, NULL,
                     NULL);
    if (!progress_check(ctx->prog, error))
      goto out;
  }
  /* GETMAPPINGARRAYS: task part q -> lowest slot of node part q */
  node = g_new(int, T);
  int64_t best = -1;
  for (int a = 0; a < nts; a++)
    for (int b = follow_ok ? a : 0; b < (follow_ok ? a + 1 : nnp); b++) {
      const int *tp = tpart + (size_t)a * T, *fs = first_slot + (size_t)b * T;
      for (int t = 0; t < T; t++) {
        int s = fs[tp[t]];
        g_assert(s >= 0);
        node[t] = p->alloc[s / p->cores_per_node];
      }
      int64_t hb = nts * nnp > 1 ? hop_bytes(g, p, node) : 0;
      if (best < 0 || hb < best) {
        best = hb;
        memcpy(m->node, node, sizeof(int) * (size_t)T);
      }
      progress_report(ctx->prog, "geometric rotations", (uint64_t)(a * nnp + b + 1),
                      (uint64_t)(nts * nnp));
      if (progress_stopped(ctx->prog))
        goto done; /* the best so far is a valid mapping */
    }
done:
  ok = TRUE;
out:
  g_free(seq);
  g_free(sx);
  g_free(tpart);
  g_free(spart);
  g_free(first_slot);
  g_free(node);
  return ok;
}

static gboolean run_geometric(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                              GError **error)
{
  double *tc_owned = NULL;
  const double *tc = ctx->coords;
  int td = ctx->coord_dims;
  if (!tc) {
    GError *e = NULL;
    if (!grid_coords_of_graph(ctx->g, ctx->prog, &tc_owned, &td, &e)) {
      if (e)
        g_propagate_prefixed_error(error, e, "geometric: ");
      else if (progress_check(ctx->prog, error))
        g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                    "geometric: no task coordinates and the communication graph of %d ranks is "
                    "not a Cartesian or toroidal grid; pass --coords FILE (one line per rank: "
                    "its coordinates), or use `embed`, which computes them", ctx->g->n);
      return FALSE;
    }
    if (topo_is_regular(ctx->p->topo))
      grid_merge_pairs(tc_owned, ctx->g->n, &td, ctx->p->topo->ndims);
    tc = tc_owned;
  }
  gboolean ok = geometric_map(ctx, args, tc, td, m, error);
  g_free(tc_owned);
  return ok;
}

const strategy strategy_geometric = {
  .name = "geometric",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "recursive coordinate partitioning of tasks and nodes, matched part by part "
             "(needs --coords or a stencil graph)",
  .paper = "deveci-geometric Alg. 1-2, Section 4.3; bhatele2010 Section 8.1",
  .params = geometric_params,
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(n log n); grid recognition O(E degree)",
  .max_ranks = 0,
  .run = run_geometric,
};
