/* bounds.c - lower bounds of hop_bytes and max_link_bytes (see bounds.h for
 * each bound's argument).
 *
 * Cost: distance profiles O(N^2) hop counts for N allocated nodes (up to
 * BOUNDS_EXACT_MAX); l(i, s) O(n N (degree + diameter)); the Hungarian
 * method O(n^2 S) for S slots; the Fiedler value O(n^3) per Jacobi sweep;
 * cuts O(dimensions x side x links).
 */
#include "mapping/bounds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/map-util.h"

double bounds_gap(double value, double bound)
{
  if (value <= 0)
    return 0;
  return (value - bound) / value;
}

static int cmp_desc64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x < y) - (x > y);
}

/* ---- distance profiles ---- */

/* prof[v * (maxh + 1) + h]: allocated nodes other than v at distance h
 * (the smaller of the two directions) from allocated node index v. */
typedef struct profiles {
  int nprof;        /* N, or 1 for the centre profile */
  int maxh;
  int64_t *cnt;
} profiles;

static inline int hmin(const hop_table *h, int a, int b)
{
  if (a == b)
    return 0;
  int x = hop_table_get(h, a, b), y = hop_table_get(h, b, a);
  return MIN(x, y);
}

static gboolean profiles_build(profiles *pr, const platform *p, const hop_table *h, int ntasks)
{
  int N = p->nalloc;
  memset(pr, 0, sizeof *pr);
  if (N <= BOUNDS_EXACT_MAX && (int64_t)ntasks * N <= (1 << 26)) {
    for (int i = 0; i < N; i++)
      for (int j = i + 1; j < N; j++)
        pr->maxh = MAX(pr->maxh, hmin(h, p->alloc[i], p->alloc[j]));
    pr->nprof = N;
    pr->cnt = g_new0(int64_t, (size_t)N * (pr->maxh + 1) + 1);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        if (i != j)
          pr->cnt[(size_t)i * (pr->maxh + 1) + hmin(h, p->alloc[i], p->alloc[j])]++;
    return TRUE;
  }
  const topo *t = p->topo;
  if (!topo_is_regular(t) || !h->fast)
    return FALSE;
  /* the centre of the whole topology: no node has more nodes within r */
  int c[TOPO_MAX_DIMS];
  for (int d = 0; d < t->ndims; d++)
    c[d] = (t->shape[d] - 1) / 2;
  int centre = topo_node(t, c);
  for (int v = 0; v < t->nnodes; v++)
    pr->maxh = MAX(pr->maxh, hmin(h, centre, v));
  pr->nprof = 1;
  pr->cnt = g_new0(int64_t, pr->maxh + 1);
  for (int v = 0; v < t->nnodes; v++)
    if (v != centre)
      pr->cnt[hmin(h, centre, v)]++;
  return TRUE;
}

/* l(i, profile v): weights w[0..d) (largest first) against the slots of
 * the profile, nearest first; `cores` slots per node, the own node's other
 * cores at distance 0. */
static int64_t scalar_min(const int64_t *w, int d, const profiles *pr, int v, int cores)
{
  const int64_t *cnt = pr->cnt + (size_t)v * (pr->maxh + 1);
  int k = MIN(d, cores - 1); /* on the own node */
  int64_t sum = 0;
  for (int h = 0; h <= pr->maxh && k < d; h++) {
    int64_t slots = cnt[h] * cores;
    for (int64_t s = 0; s < slots && k < d; s++)
      sum += w[k++] * h;
  }
  return sum;
}

/* ---- linear assignment (Hungarian method, shortest augmenting paths) ---- */

/* Minimum of sum_i a[i][col(i)] over injective col, rows n <= cols m. */
static int64_t lap_min(const int64_t *a, int n, int m)
{
  const int64_t INF = INT64_MAX / 4;
  int64_t *u = g_new0(int64_t, n + 1), *v = g_new0(int64_t, m + 1), *minv = g_new(int64_t, m + 1);
  int *p = g_new0(int, m + 1), *way = g_new0(int, m + 1);
  gboolean *used = g_new(gboolean, m + 1);
  for (int i = 1; i <= n; i++) {
    p[0] = i;
    int j0 = 0;
    for (int j = 0; j <= m; j++)
      minv[j] = INF, used[j] = FALSE;
    do {
      used[j0] = TRUE;
      int i0 = p[j0], j1 = 0;
      int64_t delta = INF;
      for (int j = 1; j <= m; j++) {
        if (used[j])
          continue;
        int64_t cur = a[(size_t)(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
        if (cur < minv[j])
          minv[j] = cur, way[j] = j0;
        if (minv[j] < delta)
          delta = minv[j], j1 = j;
      }
      for (int j = 0; j <= m; j++) {
        if (used[j])
          u[p[j]] += delta, v[j] -= delta;
        else
          minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  int64_t cost = 0;
  for (int j = 1; j <= m; j++)
    if (p[j])
      cost += a[(size_t)(p[j] - 1) * m + (j - 1)];
  g_free(u);
  g_free(v);
  g_free(minv);
  g_free(p);
  g_free(way);
  g_free(used);
  return cost;
}

/* ---- hop_bytes ---- */

static int64_t bound_hop_bytes(const sym_graph *s, const platform *p, const hop_table *h,
                               const char **how)
{
  int n = s->n, N = p->nalloc, cores = p->cores_per_node;
  profiles pr;
  if (!profiles_build(&pr, p, h, n)) {
    /* no profile: every edge between two nodes costs a hop, if any must */
    int64_t total = 0;
    for (int t = 0; t < n && cores == 1; t++)
      for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
        total += s->wout[k];
    *how = "one hop per edge";
    return total;
  }
  int64_t *w = g_new(int64_t, n + 1);
  int64_t total = 0;
  gboolean lap = pr.nprof == N && n <= BOUNDS_LAP_MAX && (int64_t)n * N * cores <= (1 << 22);
  int64_t *a = lap ? g_new(int64_t, (size_t)n * N * cores + 1) : NULL;
  for (int i = 0; i < n; i++) {
    int d = 0;
    for (int k = s->xadj[i]; k < s->xadj[i + 1]; k++)
      w[d++] = s->wout[k] + s->win[k];
    qsort(w, (size_t)d, sizeof(int64_t), cmp_desc64);
    int64_t best = INT64_MAX;
    for (int v = 0; v < pr.nprof; v++) {
      int64_t l = scalar_min(w, d, &pr, v, cores);
      best = MIN(best, l);
      for (int c = 0; lap && c < cores; c++)
        a[((size_t)i * N + v) * cores + c] = l;
    }
    total += best;
  }
  if (lap) {
    total = lap_min(a, n, N * cores);
    *how = "gilmore-lawler";
  } else {
    *how = pr.nprof == N ? "gilmore-lawler (relaxed)" : "gilmore-lawler (centre profile)";
  }
  g_free(a);
  g_free(w);
  g_free(pr.cnt);
  return (total + 1) / 2; /* hop_bytes >= total / 2, an integer */
}

/* ---- max_link_bytes ---- */

/* Second smallest eigenvalue of the Laplacian of the symmetric weights
 * (cyclic Jacobi), lowered by a rounding margin; 0 if n < 2. */
static double fiedler_lower(const sym_graph *s)
{
  int n = s->n;
  if (n < 2)
    return 0;
  double *A = g_new0(double, (size_t)n * n);
  double trace = 0;
  for (int i = 0; i < n; i++)
    for (int k = s->xadj[i]; k < s->xadj[i + 1]; k++) {
      double x = (double)(s->wout[k] + s->win[k]);
      A[(size_t)i * n + s->adj[k]] -= x;
      A[(size_t)i * n + i] += x;
    }
  for (int i = 0; i < n; i++)
    trace += A[(size_t)i * n + i];
  if (trace <= 0) {
    g_free(A);
    return 0;
  }
  for (int sweep = 0; sweep < 60; sweep++) {
    double off = 0;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        off += A[(size_t)i * n + j] * A[(size_t)i * n + j];
    if (off < 1e-30 * trace * trace)
      break;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) {
        double apq = A[(size_t)p * n + q];
        if (fabs(apq) < 1e-300)
          continue;
        double app = A[(size_t)p * n + p], aqq = A[(size_t)q * n + q];
        double theta = (aqq - app) / (2 * apq);
        double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), sn = t * c;
        for (int k = 0; k < n; k++) {
          double akp = A[(size_t)k * n + p], akq = A[(size_t)k * n + q];
          A[(size_t)k * n + p] = c * akp - sn * akq;
          A[(size_t)k * n + q] = sn * akp + c * akq;
        }
        for (int k = 0; k < n; k++) {
          double apk = A[(size_t)p * n + k], aqk = A[(size_t)q * n + k];
          A[(size_t)p * n + k] = c * apk - sn * aqk;
          A[(size_t)q * n + k] = sn * apk + c * aqk;
        }
      }
  }
  double e1 = INFINITY, e2 = INFINITY;
  for (int i = 0; i < n; i++) {
    double e = A[(size_t)i * n + i];
    if (e < e1)
      e2 = e1, e1 = e;
    else if (e < e2)
      e2 = e;
  }
  g_free(A);
  double lb = e2 - 1e-9 * trace;
  return lb > 0 ? lb : 0;
}

/* The degree bound (see bounds.h). */
static int64_t bound_degree(const commgraph *g, const platform *p)
{
  const topo *t = p->topo;
  int dout = 0, din = 0, cores = p->cores_per_node;
  int *indeg = g_new0(int, t->nnodes);
  for (int l = 0; l < t->nlinks; l++)
    indeg[t->link_dst[l]]++;
  for (int i = 0; i < p->nalloc; i++) {
    int v = p->alloc[i];
    dout = MAX(dout, t->out_off[v + 1] - t->out_off[v]);
    din = MAX(din, indeg[v]);
  }
  g_free(indeg);
  if (dout == 0 || din == 0)
    return 0;
  /* per task: sends (and receives), the cores - 1 largest taken off */
  int n = g->n;
  int64_t *sent = g_new0(int64_t, n), *recv = g_new0(int64_t, n), best = 0;
  GPtrArray *inw = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
  for (int i = 0; i < n; i++)
    g_ptr_array_add(inw, g_array_new(FALSE, FALSE, sizeof(int64_t)));
  int64_t *w = g_new(int64_t, n + 1);
  for (int i = 0; i < n; i++) {
    int d = 0;
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int j = g->adj[e];
      if (j == i)
        continue;
      w[d++] = g->bytes[e];
      sent[i] += g->bytes[e];
      recv[j] += g->bytes[e];
      g_array_append_val(g_ptr_array_index(inw, j), g->bytes[e]);
    }
    qsort(w, (size_t)d, sizeof(int64_t), cmp_desc64);
    for (int k = 0; k < MIN(d, cores - 1); k++)
      sent[i] -= w[k];
    best = MAX(best, (sent[i] + dout - 1) / dout);
  }
  for (int j = 0; j < n; j++) {
    GArray *a = g_ptr_array_index(inw, j);
    if (a->len > 1)
      qsort(a->data, a->len, sizeof(int64_t), cmp_desc64);
    for (int k = 0; k < MIN((int)a->len, cores - 1); k++)
      recv[j] -= g_array_index(a, int64_t, k);
    best = MAX(best, (recv[j] + din - 1) / din);
  }
  g_ptr_array_free(inw, TRUE);
  g_free(w);
  g_free(sent);
  g_free(recv);
  return best;
}

/* The cut bound over the planes across each dimension (see bounds.h). */
static int64_t bound_cut(const sym_graph *s, const platform *p)
{
  const topo *t = p->topo;
  int n = s->n;
  if (!topo_is_regular(t) || n < 2 || n > BOUNDS_SPECTRAL_MAX)
    return 0;
  double l2 = fiedler_lower(s);
  if (l2 <= 0)
    return 0;
  int64_t best = 0, cores = p->cores_per_node;
  int *cc = g_new(int, (size_t)t->nnodes * t->ndims);
  for (int v = 0; v < t->nnodes; v++)
    topo_coords(t, v, cc + (size_t)v * t->ndims);
  for (int d = 0; d < t->ndims; d++)
    for (int k = 1; k < t->shape[d]; k++) {
      int64_t links = 0, capa = 0;
      for (int l = 0; l < t->nlinks; l++) {
        int a = cc[(size_t)t->link_src[l] * t->ndims + d] < k;
        int b = cc[(size_t)t->link_dst[l] * t->ndims + d] < k;
        links += a != b;
      }
      for (int i = 0; i < p->nalloc; i++)
        capa += cc[(size_t)p->alloc[i] * t->ndims + d] < k;
      capa *= cores;
      int64_t capb = (int64_t)p->nalloc * cores - capa;
      int64_t lo = MAX(0, n - capb), hi = MIN(n, capa);
      if (links == 0 || lo > hi)
        continue;
      double sn = MIN((double)lo * (n - lo), (double)hi * (n - hi)) / n;
      double cut = l2 * sn / (double)links;
      best = MAX(best, (int64_t)floor(cut));
    }
  g_free(cc);
  return best;
}

void metrics_set_bounds(metrics *x, const bounds *b)
{
  x->has_bounds = TRUE;
  x->hop_bytes_bound = b->hop_bytes;
  x->gap_hop_bytes = bounds_gap((double)x->hop_bytes, (double)b->hop_bytes);
  x->max_link_bytes_bound = b->max_link_bytes;
  x->gap_max_link = bounds_gap((double)x->max_link_bytes, (double)b->max_link_bytes);
}

void bounds_compute(const commgraph *g, const platform *p, bounds *out)
{
  sym_graph s;
  hop_table h;
  sym_graph_build(&s, g);
  hop_table_init(&h, p);
  out->hop_bytes = bound_hop_bytes(&s, p, &h, &out->hop_bytes_how);
  int nl = p->topo->nlinks;
  int64_t vol = nl ? (out->hop_bytes + nl - 1) / nl : 0;
  int64_t deg = bound_degree(g, p), cut = bound_cut(&s, p);
  out->max_link_bytes = vol, out->max_link_how = "volume";
  if (deg > out->max_link_bytes)
    out->max_link_bytes = deg, out->max_link_how = "degree";
  if (cut > out->max_link_bytes)
    out->max_link_bytes = cut, out->max_link_how = "cut";
  hop_table_clear(&h);
  sym_graph_clear(&s);
}
