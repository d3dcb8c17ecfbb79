/* grid-detect.c - Cartesian and toroidal grids recognized in a
 * communication graph by its structure alone (no rank numbering), with
 * every rank's coordinates.
 *
 * A d-dimensional halo exchange on an open or periodic grid is, as a graph,
 * the Cartesian product of paths and cycles (5-/7-point stencils), of
 * their powers (star stencils reaching 2 or 3 neighbours along each axis),
 * or such a product plus the diagonals of the unit box (9-/27-point
 * stencils). Recognition works on the undirected graph of the edges
 * carrying at least 20% of the mean weight (collectives and stray messages
 * drop out; if that fails, on all edges):
 *
 * 1. A skeleton that should be the product itself: the graph as it is;
 *    else the edges no other neighbour dominates (edge xy is dropped when
 *    some z adjacent to x or y has N[x] n N[y] strictly inside
 *    N[x] n N[z], strictly inside N[x] - after the Cartesian skeleton of
 *    strong products, Hammack and Imrich, "On Cartesian skeletons of
 *    graphs", Ars Math. Contemp. 2 (2009); it removes the diagonals of box
 *    stencils); else the heaviest edges of every rank (faces carrying more
 *    than diagonals).
 * 2. Factorization by squares (the square property of Cartesian products,
 *    Imrich and Klavzar, "Product Graphs", Wiley 2000, Chapter 4): two
 *    edges va, vb lie in different factors exactly when a and b have one
 *    other common neighbour c, not adjacent to v, and then the opposite
 *    edges of the square v-a-c-b lie in the same factors. Union-find over
 *    edges gives the dimensions. Removing the edges of one dimension leaves
 *    its slices; the slices form a path (open) or a cycle (periodic), or a
 *    power of one, whose order gives that coordinate.
 * 3. Checks that make the result exact: the coordinates are a bijection onto
 *    the box, every skeleton edge is a step of at most its reach along its
 *    dimension alone, the edge count is that of the product, and every kept
 *    edge of the graph is at most DETECT_RADIUS steps long in each
 *    dimension.
 *
 * Coordinates are unique up to the grid's symmetries (translations of
 * periodic dimensions, reflections, permutations of equal sides); a
 * 4-cycle is the product of two 2-paths, so a periodic side of 4 comes
 * back as two sides of 2 (the same graph; grid_merge_pairs() folds them
 * back where a machine wants fewer dimensions). Periodic sides shorter
 * than 3r + 2 for stencils of reach r > 1 close extra squares and are not
 * recognized. Dimensions are listed longest first; slices start at the one
 * holding the lowest rank, so a graph whose ranks follow the grid gets its
 * own coordinates back.
 *
 * Cost: O(E x degree^2) time, O(E) memory (checked against the budget).
 */
#include "mapping/grid.h"

#include <string.h>

#include "mapping/map-util.h"
#include "util/budget.h"

#define DETECT_RADIUS 3          /* longest offset per dimension of a kept edge */
#define DETECT_MAX_DEGREE 62     /* skeleton search: neighbourhoods as 64-bit masks */

/* An undirected simple graph, neighbours sorted: arcs xadj[v]..xadj[v+1]-1. */
typedef struct sgraph {
  int n;
  int *xadj;
  int *adj;
  int64_t *w;
} sgraph;

static void sgraph_clear(sgraph *s)
{
  g_free(s->xadj);
  g_free(s->adj);
  g_free(s->w);
  memset(s, 0, sizeof *s);
}

/* The arcs of `from` for which keep[arc] is set (keep NULL: all). */
static void sgraph_subset(const sgraph *from, const uint8_t *keep, sgraph *to)
{
  int n = from->n;
  to->n = n;
  to->xadj = g_new0(int, n + 1);
  to->adj = g_new(int, from->xadj[n] + 1);
  to->w = g_new(int64_t, from->xadj[n] + 1);
  int k = 0;
  for (int v = 0; v < n; v++) {
    for (int e = from->xadj[v]; e < from->xadj[v + 1]; e++)
      if (!keep || keep[e]) {
        to->adj[k] = from->adj[e];
        to->w[k++] = from->w[e];
      }
    to->xadj[v + 1] = k;
  }
}

/* Arc index of a -> b (must exist). */
static int arc_of(const sgraph *s, int a, int b)
{
  int lo = s->xadj[a], hi = s->xadj[a + 1];
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (s->adj[mid] < b)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int uf_find(int *parent, int x)
{
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

static void uf_union(int *parent, int a, int b)
{
  a = uf_find(parent, a);
  b = uf_find(parent, b);
  if (a != b)
    parent[MAX(a, b)] = MIN(a, b); /* the lower id is the root: deterministic */
}

static gboolean connected(const sgraph *s)
{
  int *queue = g_new(int, s->n);
  uint8_t *seen = g_new0(uint8_t, s->n);
  int head = 0, tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    int v = queue[head++];
    for (int e = s->xadj[v]; e < s->xadj[v + 1]; e++)
      if (!seen[s->adj[e]]) {
        seen[s->adj[e]] = 1;
        queue[tail++] = s->adj[e];
      }
  }
  g_free(queue);
  g_free(seen);
  return tail == s->n;
}

/* ---- step 1: skeletons ---- */

/* Keeps edge xy unless, from x or from y, another neighbour z has a
 * closed-neighbourhood intersection strictly between N[x] n N[y] and N[x]. */
static gboolean skeleton_dominance(const sgraph *s, uint8_t *keep, const progress *prog)
{
  int n = s->n;
  int *pos = g_new(int, n);
  uint64_t mask[DETECT_MAX_DEGREE + 1];
  for (int v = 0; v < n; v++)
    pos[v] = -1;
  memset(keep, 1, (size_t)s->xadj[n]);
  for (int x = 0; x < n; x++) {
    int lo = s->xadj[x], k = s->xadj[x + 1] - lo;
    if (k > DETECT_MAX_DEGREE || ((x & 4095) == 4095 && progress_stopped(prog))) {
      g_free(pos);
      return FALSE;
    }
    for (int i = 0; i < k; i++)
      pos[s->adj[lo + i]] = i;
    uint64_t full = (k + 1 < 64 ? (1ull << (k + 1)) : 0) - 1; /* bit k: x itself */
    for (int i = 0; i < k; i++) {
      int y = s->adj[lo + i];
      uint64_t m = (1ull << i) | (1ull << k);
      for (int e = s->xadj[y]; e < s->xadj[y + 1]; e++)
        if (pos[s->adj[e]] >= 0)
          m |= 1ull << pos[s->adj[e]];
      mask[i] = m;
    }
    for (int i = 0; i < k; i++)
      for (int j = 0; j < k; j++) {
        uint64_t a = mask[i], b = mask[j];
        if (j != i && (a & b) == a && a != b && b != full) {
          int y = s->adj[lo + i];
          keep[lo + i] = 0;
          keep[arc_of(s, y, x)] = 0;
          break;
        }
      }
    for (int i = 0; i < k; i++)
      pos[s->adj[lo + i]] = -1;
  }
  g_free(pos);
  return TRUE;
}

/* Keeps the edges carrying at least half of the heaviest edge of both ends. */
static void skeleton_heaviest(const sgraph *s, uint8_t *keep)
{
  int n = s->n;
  int64_t *top = g_new0(int64_t, n);
  for (int v = 0; v < n; v++)
    for (int e = s->xadj[v]; e < s->xadj[v + 1]; e++)
      top[v] = MAX(top[v], s->w[e]);
  for (int v = 0; v < n; v++)
    for (int e = s->xadj[v]; e < s->xadj[v + 1]; e++)
      keep[e] = 2 * s->w[e] >= top[v] && 2 * s->w[e] >= top[s->adj[e]];
  g_free(top);
}

/* ---- step 2: factorization ---- */

/* Dimension of every arc by the square property; FALSE when the graph
 * cannot be a product. Two edges va, vb lie in one factor when a and b
 * are adjacent (a triangle: a cycle of 3, or a path power) or every other
 * common neighbour of a and b is adjacent to v; in two factors when a and b
 * have one other common neighbour c, not adjacent to v: the square v-a-c-b,
 * whose opposite edges are parallel. */
static gboolean arc_dimensions(const sgraph *s, int *dim_of, int *nd_out)
{
  int n = s->n, m = s->xadj[n];
  int *parent = g_new(int, m + 1), *mark = g_new(int, n), *near = g_new(int, n);
  gboolean ok = TRUE;
  for (int e = 0; e < m; e++)
    parent[e] = e;
  for (int v = 0; v < n; v++)
    mark[v] = near[v] = -1;
  /* an undirected edge is its arc from the lower end */
#define CANON(a, b, arc) ((a) < (b) ? (arc) : arc_of(s, b, a))
  for (int v = 0; v < n && ok; v++) {
    int lo = s->xadj[v], hi = s->xadj[v + 1];
    if (hi - lo > 2 * GRID_MAX_DIMS * DETECT_RADIUS)
      ok = FALSE;
    for (int e = lo; e < hi; e++)
      near[s->adj[e]] = v;
    for (int i = lo; i < hi && ok; i++) {
      int a = s->adj[i];
      for (int e = s->xadj[a]; e < s->xadj[a + 1]; e++)
        mark[s->adj[e]] = i;
      for (int j = i + 1; j < hi && ok; j++) {
        int b = s->adj[j], c = -1, far = 0;
        if (mark[b] != i) {
          for (int e = s->xadj[b]; e < s->xadj[b + 1]; e++) {
            int w = s->adj[e];
            if (mark[w] == i && w != v && near[w] != v)
              c = w, far++;
          }
        }
        if (far == 0) {
          uf_union(parent, CANON(v, a, i), CANON(v, b, j));
        } else if (far == 1) {
          int ca = arc_of(s, a, c), cb = arc_of(s, b, c);
          ok = ca < s->xadj[a + 1] && s->adj[ca] == c && cb < s->xadj[b + 1] && s->adj[cb] == c;
          if (ok) {
            uf_union(parent, CANON(v, a, i), CANON(b, c, cb));
            uf_union(parent, CANON(v, b, j), CANON(a, c, ca));
          }
        } else {
          ok = FALSE;
        }
      }
    }
  }
#undef CANON
  int nd = 0;
  int *label = g_new(int, m + 1);
  for (int e = 0; e < m; e++)
    label[e] = -1;
  for (int v = 0; v < n && ok; v++)
    for (int e = s->xadj[v]; e < s->xadj[v + 1] && ok; e++) {
      int b = s->adj[e];
      int r = uf_find(parent, v < b ? e : arc_of(s, b, v));
      if (label[r] < 0) {
        if (nd == GRID_MAX_DIMS)
          ok = FALSE;
        else
          label[r] = nd++;
      }
      dim_of[e] = ok ? label[r] : -1;
    }
  *nd_out = nd;
  g_free(label);
  g_free(parent);
  g_free(mark);
  g_free(near);
  return ok;
}

/* The offset b - a along one dimension, the shorter way round a periodic
 * one. */
static int offset(int a, int b, int size, gboolean periodic)
{
  int o = b - a;
  if (periodic) {
    if (o > size / 2)
      o -= size;
    else if (o < -(size - 1) / 2)
      o += size;
  }
  return o;
}

/* Positions of the vertices of q, a path or cycle raised to the power
 * *reach (every pair at most reach apart adjacent), or FALSE. Placed one by
 * one next to the last: the unplaced neighbour adjacent to most placed
 * vertices, then of lowest degree (nearer a path's end), then sharing most
 * neighbours with the last (the nearer one), then the lowest id. */
static gboolean power_order(const sgraph *q, int *pos, int *reach, gboolean *cycle)
{
  int ns = q->n, mindeg = G_MAXINT, maxdeg = 0;
  for (int a = 0; a < ns; a++) {
    int deg = q->xadj[a + 1] - q->xadj[a];
    mindeg = MIN(mindeg, deg);
    maxdeg = MAX(maxdeg, deg);
  }
  int start = 0;
  if (mindeg == ns - 1) { /* complete: a 3-cycle, or any path power */
    *cycle = ns == 3;
    *reach = ns == 3 ? 1 : ns - 1;
  } else if (mindeg == maxdeg) {
    *cycle = TRUE;
    *reach = maxdeg / 2;
  } else {
    *cycle = FALSE;
    *reach = mindeg;
    while (q->xadj[start + 1] - q->xadj[start] != mindeg)
      start++;
  }
  if (*reach < 1 || *reach > DETECT_RADIUS)
    return FALSE;
  int *placed_nb = g_new0(int, ns), *mark = g_new(int, ns);
  for (int a = 0; a < ns; a++)
    pos[a] = -1, mark[a] = -1;
  int last = start, k = 0;
  gboolean ok = TRUE;
  while (ok) {
    pos[last] = k++;
    for (int e = q->xadj[last]; e < q->xadj[last + 1]; e++)
      placed_nb[q->adj[e]]++, mark[q->adj[e]] = last;
    if (k == ns)
      break;
    int best = -1, best_pl = 0, best_deg = 0, best_common = 0;
    for (int e = q->xadj[last]; e < q->xadj[last + 1]; e++) {
      int b = q->adj[e];
      if (pos[b] >= 0)
        continue;
      int deg = q->xadj[b + 1] - q->xadj[b], common = 0;
      for (int f = q->xadj[b]; f < q->xadj[b + 1]; f++)
        common += mark[q->adj[f]] == last;
      gboolean better = best < 0 || placed_nb[b] > best_pl ||
                        (placed_nb[b] == best_pl &&
                         (deg < best_deg || (deg == best_deg && common > best_common)));
      if (better)
        best = b, best_pl = placed_nb[b], best_deg = deg, best_common = common;
    }
    ok = best >= 0;
    last = best;
  }
  /* exact: every edge spans 1..reach positions, and all such pairs are edges */
  int64_t edges = 0, want = 0;
  for (int a = 0; a < ns && ok; a++)
    for (int e = q->xadj[a]; e < q->xadj[a + 1] && ok; e++) {
      int o = offset(pos[a], pos[q->adj[e]], ns, *cycle);
      ok = o != 0 && o >= -*reach && o <= *reach;
      edges++;
    }
  for (int o = 1; o <= *reach; o++)
    want += *cycle ? ns : ns - o;
  if (*cycle && 2 * *reach >= ns)
    want = (int64_t)ns * (ns - 1) / 2;
  ok = ok && edges == 2 * want;
  g_free(placed_nb);
  g_free(mark);
  return ok;
}

/* Coordinate `d` of every vertex from the slices left when the edges of
 * dimension d are removed, which must form a path or cycle (or a power of
 * one); *reach is the longest step along d. */
static gboolean dimension_coords(const sgraph *s, const int *dim_of, int d, int nd, int *c,
                                 int *size, gboolean *periodic, int *reach)
{
  int n = s->n;
  gboolean ok = TRUE;
  int *parent = g_new(int, n), *slice = g_new(int, n), *id = g_new(int, n);
  for (int v = 0; v < n; v++)
    parent[v] = v, id[v] = -1;
  for (int v = 0; v < n; v++)
    for (int e = s->xadj[v]; e < s->xadj[v + 1]; e++)
      if (dim_of[e] != d)
        uf_union(parent, v, s->adj[e]);
  int ns = 0;
  for (int v = 0; v < n; v++) { /* slices numbered by their lowest vertex */
    int r = uf_find(parent, v);
    if (id[r] < 0)
      id[r] = ns++;
    slice[v] = id[r];
  }
  /* the slice graph q, each slice with at most 2 x DETECT_RADIUS neighbours */
  int cap = 2 * DETECT_RADIUS;
  int *nb = g_new(int, (size_t)ns * cap), *cnt = g_new0(int, ns);
  for (int v = 0; v < n && ok; v++)
    for (int e = s->xadj[v]; e < s->xadj[v + 1] && ok; e++) {
      if (dim_of[e] != d)
        continue;
      int a = slice[v], b = slice[s->adj[e]], k = 0;
      while (k < cnt[a] && nb[(size_t)a * cap + k] != b)
        k++;
      if (a == b || (k == cnt[a] && cnt[a] == cap))
        ok = FALSE;
      else if (k == cnt[a])
        nb[(size_t)a * cap + cnt[a]++] = b;
    }
  sgraph q = { ns, g_new0(int, ns + 1), g_new(int, (size_t)ns * cap + 1), NULL };
  for (int a = 0; a < ns && ok; a++) {
    int base = q.xadj[a];
    for (int k = 0; k < cnt[a]; k++) { /* sorted insertion: at most cap */
      int x = nb[(size_t)a * cap + k], j = base + k;
      while (j > base && q.adj[j - 1] > x)
        q.adj[j] = q.adj[j - 1], j--;
      q.adj[j] = x;
    }
    q.xadj[a + 1] = base + cnt[a];
  }
  int *pos = g_new(int, ns);
  ok = ok && ns >= 2 && power_order(&q, pos, reach, periodic);
  for (int v = 0; v < n && ok; v++)
    c[(size_t)v * nd + d] = pos[slice[v]];
  *size = ns;
  if (ns == 2)
    *periodic = FALSE;
  g_free(pos);
  sgraph_clear(&q);
  g_free(nb);
  g_free(cnt);
  g_free(id);
  g_free(parent);
  g_free(slice);
  return ok;
}

/* Factorizes the skeleton into out (coordinates, sizes, periodicity);
 * TRUE only for an exact product of paths and cycles (or their powers). */
static gboolean factorize(const sgraph *s, gdetect *out)
{
  int n = s->n, m = s->xadj[n], nd = 0, reach[GRID_MAX_DIMS];
  int *dim_of = g_new(int, m + 1);
  gboolean ok = m > 0 && arc_dimensions(s, dim_of, &nd);
  int *c = ok ? g_new(int, (size_t)n * nd) : NULL;
  for (int d = 0; ok && d < nd; d++)
    ok = dimension_coords(s, dim_of, d, nd, c, &out->dims[d], &out->periodic[d], &reach[d]);
  /* a bijection onto the box, every edge a step of 1..reach along its
   * dimension only, and as many edges as the product has */
  int64_t cells = 1, edges = 0;
  for (int d = 0; ok && d < nd; d++)
    cells *= out->dims[d];
  ok = ok && cells == n;
  for (int d = 0; ok && d < nd; d++) {
    int side = out->dims[d];
    int64_t per_line = 0;
    for (int o = 1; o <= reach[d] && o < side; o++)
      per_line += out->periodic[d] ? side : side - o;
    if (out->periodic[d] && 2 * reach[d] >= side)
      per_line = (int64_t)side * (side - 1) / 2;
    edges += (int64_t)(n / side) * per_line;
  }
  ok = ok && 2 * edges == m;
  uint8_t *seen = ok ? g_new0(uint8_t, n) : NULL;
  for (int v = 0; ok && v < n; v++) {
    int64_t idx = 0;
    for (int d = nd - 1; d >= 0; d--)
      idx = idx * out->dims[d] + c[(size_t)v * nd + d];
    ok = !seen[idx];
    seen[idx] = 1;
    for (int e = s->xadj[v]; ok && e < s->xadj[v + 1]; e++) {
      int w = s->adj[e];
      for (int d = 0; ok && d < nd; d++) {
        int o = offset(c[(size_t)v * nd + d], c[(size_t)w * nd + d], out->dims[d],
                       out->periodic[d]);
        ok = d == dim_of[e] ? (o != 0 && o >= -reach[d] && o <= reach[d]) : o == 0;
      }
    }
  }
  g_free(seen);
  g_free(dim_of);
  if (!ok) {
    g_free(c);
    return FALSE;
  }
  out->nd = nd;
  out->c = c;
  return TRUE;
}

/* Every edge of the graph at most DETECT_RADIUS steps in each dimension. */
static gboolean edges_short(const sgraph *s, const gdetect *gd)
{
  for (int v = 0; v < s->n; v++)
    for (int e = s->xadj[v]; e < s->xadj[v + 1]; e++)
      for (int d = 0; d < gd->nd; d++) {
        int o = offset(gd->c[(size_t)v * gd->nd + d], gd->c[(size_t)s->adj[e] * gd->nd + d],
                       gd->dims[d], gd->periodic[d]);
        if (o > DETECT_RADIUS || o < -DETECT_RADIUS)
          return FALSE;
      }
  return TRUE;
}

/* Dimensions longest first (stable), coordinates permuted alike. */
static void sort_dimensions(gdetect *gd, int n)
{
  int perm[GRID_MAX_DIMS], nd = gd->nd;
  for (int d = 0; d < nd; d++)
    perm[d] = d;
  for (int i = 1; i < nd; i++)
    for (int j = i; j > 0 && gd->dims[perm[j]] > gd->dims[perm[j - 1]]; j--) {
      int t = perm[j];
      perm[j] = perm[j - 1];
      perm[j - 1] = t;
    }
  int dims[GRID_MAX_DIMS], tmp[GRID_MAX_DIMS];
  gboolean per[GRID_MAX_DIMS];
  for (int d = 0; d < nd; d++)
    dims[d] = gd->dims[perm[d]], per[d] = gd->periodic[perm[d]];
  memcpy(gd->dims, dims, sizeof dims);
  memcpy(gd->periodic, per, sizeof per);
  for (int v = 0; v < n; v++) {
    int *row = gd->c + (size_t)v * nd;
    for (int d = 0; d < nd; d++)
      tmp[d] = row[perm[d]];
    memcpy(row, tmp, sizeof(int) * (size_t)nd);
  }
}

/* Tries the skeletons of `s` in turn. */
static gboolean detect_on(const sgraph *s, gdetect *out, const progress *prog)
{
  if (!connected(s))
    return FALSE;
  uint8_t *keep = g_new(uint8_t, s->xadj[s->n] + 1);
  gboolean found = FALSE;
  for (int kind = 0; kind < 3 && !found && !progress_stopped(prog); kind++) {
    sgraph sk = { 0 };
    if (kind == 0)
      sgraph_subset(s, NULL, &sk);
    else if (kind == 1 && skeleton_dominance(s, keep, prog))
      sgraph_subset(s, keep, &sk);
    else if (kind == 2) {
      skeleton_heaviest(s, keep);
      sgraph_subset(s, keep, &sk);
    } else
      continue;
    if ((kind == 0 || sk.xadj[s->n] < s->xadj[s->n]) && factorize(&sk, out)) {
      found = edges_short(s, out);
      if (!found)
        g_clear_pointer(&out->c, g_free);
    }
    sgraph_clear(&sk);
  }
  g_free(keep);
  return found;
}

gboolean grid_detect(const commgraph *g, const progress *prog, gdetect *out, GError **error)
{
  memset(out, 0, sizeof *out);
  int n = g->n;
  if (n < 2)
    return FALSE;
  /* the symmetric graph, its filtered copy, a skeleton and the scratch of
   * the factorization: about 10 ints per arc and 8 per rank */
  if (!budget_check_array("grid detection: the communication graph's edges",
                          2 * (uint64_t)g->nedges + 1, 10 * sizeof(int64_t) + 8 * sizeof(int),
                          error))
    return FALSE;
  sym_graph ms;
  sym_graph_build(&ms, g);
  sgraph all = { n, ms.xadj, ms.adj, g_new(int64_t, ms.xadj[n] + 1) };
  double mean = 0;
  for (int e = 0; e < ms.xadj[n]; e++) {
    all.w[e] = ms.wout[e] + ms.win[e];
    mean += (double)all.w[e];
  }
  mean = ms.xadj[n] ? mean / ms.xadj[n] : 0;
  uint8_t *heavy = g_new(uint8_t, ms.xadj[n] + 1);
  gboolean filtered = FALSE;
  for (int e = 0; e < ms.xadj[n]; e++) {
    heavy[e] = (double)all.w[e] >= 0.2 * mean;
    filtered |= !heavy[e];
  }
  gboolean found = FALSE;
  for (int pass = 0; pass < 2 && !found && !progress_stopped(prog); pass++) {
    if (pass == 1 && !filtered)
      break;
    sgraph s = { 0 };
    sgraph_subset(&all, pass == 0 ? heavy : NULL, &s);
    found = detect_on(&s, out, prog);
    sgraph_clear(&s);
  }
  if (found)
    sort_dimensions(out, n);
  g_free(heavy);
  g_free(all.w);
  sym_graph_clear(&ms);
  return found;
}

void gdetect_clear(gdetect *d)
{
  g_free(d->c);
  memset(d, 0, sizeof *d);
}
