/* torus.c - the regular direct networks: N dimensions (1 to
 * TOPO_MAX_DIMS), each a mesh, a torus ring or the HAEC Box's wireless
 * crossbar (topology.h), every vertex a node; their dimension-order
 * routing with the HAEC Box rule (route.h) and closed-form facts.
 *
 * Mesh, torus and the HAEC Box are one topology with per-dimension
 * connectivity; only link enumeration and distance branch on it. Costs:
 * construction O(nlinks), topo_hops O(ndims), topo_crossbar_link
 * O(ndims), a route hop O(ndims), facts O(ndims) (closed form) and the
 * bisection O(ndims nlinks).
 */
#include "routing/family/family-private.h"

#include <string.h>

#include "util/budget.h"
#include "util/checked.h"

/* Index of `node` within its crossbar layer (crossbar coordinate removed). */
static int slab_index(const topo *t, int node)
{
  int cd = t->crossbar_dim;
  int low = node % t->stride[cd];
  int high = node / (t->stride[cd] * t->shape[cd]);
  return low + high * t->stride[cd];
}

int topo_crossbar_link(const topo *t, int from, int to)
{
  int cd = t->crossbar_dim;
  if (cd < 0)
    return -1;
  int cf = (from / t->stride[cd]) % t->shape[cd];
  int ct = (to / t->stride[cd]) % t->shape[cd];
  int dir;
  if (ct == cf + 1)
    dir = 0;
  else if (ct == cf - 1)
    dir = 1;
  else
    return -1;
  int first = t->first_link[((size_t)from * t->ndims + cd) * 2 + dir];
  return first < 0 ? -1 : first + slab_index(t, to);
}

int topo_hops(const topo *t, int a, int b)
{
  g_assert(topo_is_regular(t));
  int ca[TOPO_MAX_DIMS], cb[TOPO_MAX_DIMS];
  topo_coords(t, a, ca);
  topo_coords(t, b, cb);
  return topo_coord_hops(t, ca, cb);
}

/* Number of links leaving `node` along dimension d in direction dir. */
static int64_t links_at(const topo *t, const int *c, int d, int dir)
{
  int n = t->shape[d];
  switch (t->conn[d]) {
  case TOPO_MESH:
    return dir == 0 ? c[d] < n - 1 : c[d] > 0;
  case TOPO_TORUS:
    return n > 1;
  case TOPO_CROSSBAR:
    return (dir == 0 ? c[d] < n - 1 : c[d] > 0) ? t->slab : 0;
  }
  return 0;
}

/* The links of a regular topology in closed form (what the loop below
 * counts), checked against the link limit and, with the nodes, against
 * the memory budget before anything is allocated: a mistyped shape such as
 * 1000x1000x1000 ends here at once. */
static gboolean check_size(const topo *t, GError **error)
{
  double links = 0, n = t->nnodes;
  for (int d = 0; d < t->ndims; d++) {
    double k = t->shape[d];
    switch (t->conn[d]) {
    case TOPO_MESH: links += 2 * (k - 1) * (n / k); break;
    case TOPO_TORUS: links += k > 1 ? 2 * n : 0; break;
    case TOPO_CROSSBAR: links += 2 * (k - 1) * (n / k) * (n / k); break;
    }
  }
  if (links >= TOPO_MAX_LINKS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "%.0f links, expected fewer than %d", links, TOPO_MAX_LINKS);
    return FALSE;
  }
  /* per node: its link offsets and first links, allocation tables; per
   * link: ends, dimension, direction, type, bandwidth, latency and the
   * counters of metrics and models */
  uint64_t bytes = (uint64_t)n * (16 + 8 * (uint64_t)t->ndims) + (uint64_t)links * 64;
  return budget_check_memory("the platform's nodes and links", bytes, error);
}

topo *topo_new_regular(int ndims, const int *shape, const topo_conn *conn, GError **error)
{
  if (ndims < 1 || ndims > TOPO_MAX_DIMS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "%d dimensions, expected 1 to %d", ndims, TOPO_MAX_DIMS);
    return NULL;
  }
  topo *t = g_new0(topo, 1);
  t->ops = &family_torus_ops;
  t->ndims = ndims;
  t->crossbar_dim = -1;
  int64_t nnodes = 1;
  for (int d = 0; d < ndims; d++) {
    if (shape[d] < 1) {
      g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                  "dimension %c has size %d, expected at least 1", topo_dim_letter(d), shape[d]);
      goto fail;
    }
    if (conn[d] == TOPO_CROSSBAR) {
      if (t->crossbar_dim >= 0) {
        g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                    "dimensions %c and %c are both crossbars, expected at most one",
                    topo_dim_letter(t->crossbar_dim), topo_dim_letter(d));
        goto fail;
      }
      t->crossbar_dim = d;
    }
    t->shape[d] = shape[d];
    t->conn[d] = conn[d];
    t->stride[d] = (int)nnodes;
    nnodes *= shape[d];
    if (nnodes >= TOPO_MAX_NODES) {
      g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                  "%" G_GINT64_FORMAT "%s nodes, expected fewer than %d", nnodes,
                  d + 1 < ndims ? " or more" : "", TOPO_MAX_NODES);
      goto fail;
    }
  }
  t->nnodes = (int)nnodes;
  t->slab = t->crossbar_dim >= 0 ? t->nnodes / t->shape[t->crossbar_dim] : 0;
  if (!check_size(t, error))
    goto fail;

  /* Count links node by node, dimension by dimension, + before -. */
  t->first_link = g_new(int, (size_t)t->nnodes * ndims * 2);
  int64_t nl = 0;
  int c[TOPO_MAX_DIMS];
  for (int u = 0; u < t->nnodes; u++) {
    topo_coords(t, u, c);
    for (int d = 0; d < ndims; d++)
      for (int dir = 0; dir < 2; dir++) {
        int64_t k = links_at(t, c, d, dir);
        t->first_link[((size_t)u * ndims + d) * 2 + dir] = k ? (int)nl : -1;
        nl += k;
      }
    g_assert(nl < TOPO_MAX_LINKS); /* check_size counted them */
  }
  t->nlinks = (int)nl;
  t->nclasses = 2 * ndims;
  family_alloc_links(t);

  int l = 0;
  for (int u = 0; u < t->nnodes; u++) {
    topo_coords(t, u, c);
    t->out_off[u] = l;
    for (int d = 0; d < ndims; d++)
      for (int dir = 0; dir < 2; dir++) {
        int64_t k = links_at(t, c, d, dir);
        if (!k)
          continue;
        int step = dir == 0 ? 1 : -1;
        if (t->conn[d] == TOPO_CROSSBAR) {
          /* targets: every node of the adjacent layer, in slab order */
          int layer_base = (c[d] + step) * t->stride[d];
          for (int s = 0; s < t->slab; s++) {
            int low = s % t->stride[d];
            int high = s / t->stride[d];
            int v = low + layer_base + high * t->stride[d] * t->shape[d];
            t->link_src[l] = u;
            t->link_dst[l] = v;
            t->link_dim[l] = (int8_t)d;
            t->link_dir[l] = (int8_t)dir;
            t->link_class[l] = (uint8_t)(2 * d + dir);
            t->out_link[l] = l;
            l++;
          }
        } else {
          int n = t->shape[d];
          int nc = ((c[d] + step) % n + n) % n;
          t->link_src[l] = u;
          t->link_dst[l] = u + (nc - c[d]) * t->stride[d];
          t->link_dim[l] = (int8_t)d;
          t->link_dir[l] = (int8_t)dir;
          t->link_class[l] = (uint8_t)(2 * d + dir);
          t->out_link[l] = l;
          l++;
        }
      }
  }
  t->out_off[t->nnodes] = l;
  g_assert(l == t->nlinks);
  return t;

fail:
  topo_free(t);
  return NULL;
}

/* a * b * c, exact while it fits int64 (the sums below are integers), else
 * rounded as a double: a dimension of millions of nodes (mesh:3000000) has
 * a distance sum beyond int64. */
static double product(int64_t a, int64_t b, int64_t c)
{
  int64_t ab, abc;
  if (checked_mul_i64(a, b, &ab) && checked_mul_i64(ab, c, &abc))
    return (double)abc;
  return (double)a * (double)b * (double)c;
}

/* Sum and maximum of topo_dim_distance over all ordered coordinate pairs
 * of one dimension, in closed form (a loop over the pairs is O(size^2): a
 * minute for a ring of a million nodes). A line of n: sum |a - b| =
 * (n^3 - n) / 3 = (n - 1) n (n + 1) / 3, at most n - 1; a ring: every a
 * sees the distances min(k, n - k), k < n, which add up to
 * floor(n^2 / 4) = h (n - h) with h = floor(n / 2), at most n / 2. */
static void dim_sums(const topo *t, int d, double *sum, int *max)
{
  int64_t n = t->shape[d];
  if (t->conn[d] == TOPO_TORUS) {
    int64_t h = n / 2;
    *sum = product(n, h, n - h);
    *max = (int)h;
  } else {
    /* one of three consecutive integers is a multiple of 3 */
    int64_t a = n - 1, b = n, c = n + 1;
    if (a % 3 == 0)
      a /= 3;
    else if (b % 3 == 0)
      b /= 3;
    else
      c /= 3;
    *sum = product(a, b, c);
    *max = (int)(n - 1);
  }
}

static void closed_form(const topo *t, platform_facts *f)
{
  double n = t->nnodes;
  double total = 0;
  int diam = 0, cd = t->crossbar_dim;
  double within = 0; /* distance sum over pairs inside one crossbar layer */
  int diam_within = 0;
  for (int d = 0; d < t->ndims; d++) {
    double s;
    int mx;
    dim_sums(t, d, &s, &mx);
    if (d == cd) {
      /* across layers only the layer distance counts */
      total += s * (double)t->slab * t->slab;
      diam = MAX(diam, mx);
      continue;
    }
    double others = (cd >= 0 ? t->slab : n) / t->shape[d];
    if (cd >= 0)
      within += s * others * others;
    else
      total += s * others * others;
    diam_within += mx;
  }
  if (cd >= 0)
    total += within * t->shape[cd];
  f->diameter = MAX(diam, diam_within);
  f->avg_distance = n > 1 ? total / (n * (n - 1)) : 0;
}

static void bisection(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  f->bisection_dim = -1;
  if (!topo_is_regular(t))
    return;
  for (int d = 0; d < t->ndims; d++) {
    int half = t->shape[d] / 2;
    if (t->shape[d] < 2)
      continue;
    int count = 0;
    double bw = 0;
    for (int l = 0; l < t->nlinks; l++) {
      int a = (t->link_src[l] / t->stride[d]) % t->shape[d];
      int b = (t->link_dst[l] / t->stride[d]) % t->shape[d];
      if ((a < half) != (b < half)) {
        count++;
        bw += p->link_bw[l];
      }
    }
    facts_offer_dimension_cut(f, d, count, bw);
  }
}

static gboolean dor_next(route_iter *it, int *link)
{
  const topo *t = it->r->t;
  int cd = t->crossbar_dim;
  if (cd >= 0 && it->cc[cd] != it->dc[cd]) {
    int step = it->dc[cd] > it->cc[cd] ? 1 : -1;
    int next[TOPO_MAX_DIMS];
    memcpy(next, it->dc, sizeof next);
    next[cd] = it->cc[cd] + step;
    int v = topo_node(t, next);
    *link = topo_crossbar_link(t, it->cur, v);
    memcpy(it->cc, next, sizeof next);
    it->cur = v;
    return TRUE;
  }
  while (it->k < t->ndims) {
    int d = it->r->order[it->k];
    int c = it->cc[d], target = it->dc[d], n = t->shape[d];
    if (c == target) {
      it->k++;
      continue;
    }
    int dir;
    if (t->conn[d] == TOPO_TORUS) {
      int ahead = ((target - c) % n + n) % n;
      dir = 2 * ahead < n ? 0 : 2 * ahead > n ? 1
            : it->r->tie == ROUTE_TIE_SIMGRID && 2 * c == n ? 1 : 0; /* the tie rule */
    } else {
      dir = target > c ? 0 : 1;
    }
    *link = topo_link(t, it->cur, d, dir);
    int nc = dir == 0 ? c + 1 : c - 1;
    nc = (nc + n) % n;
    it->cur += (nc - c) * t->stride[d];
    it->cc[d] = nc;
    return TRUE;
  }
  return FALSE;
}

static void torus_walk_begin(route_iter *it)
{
  topo_coords(it->r->t, it->cur, it->cc);
  topo_coords(it->r->t, it->dst, it->dc);
}

/* closed forms, but a route table's paths are counted pair by pair */
static void torus_facts(const platform *p, platform_facts *f)
{
  if (!p->router->path_off)
    closed_form(p->topo, f);
  else
    family_all_pairs(p, f);
  bisection(p, f);
}

static void torus_class_name(const topo *t, int c, char *buf, size_t size)
{
  g_snprintf(buf, size, "%c%c", topo_dim_letter(c / 2), c % 2 ? '-' : '+');
}

static int torus_reverse_link(const topo *t, int l)
{
  int s = t->link_src[l], d = t->link_dst[l];
  if (t->link_dim[l] != t->crossbar_dim) {
    int r = topo_link(t, d, t->link_dim[l], 1 - t->link_dir[l]);
    if (r >= 0 && t->link_dst[r] == s)
      return r;
  }
  return family_reverse_by_scan(t, l);
}

static char *torus_describe(const topo *t)
{
  GString *s = g_string_new(NULL);
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(s, d ? "x%d" : "%d", t->shape[d]);
  g_string_append_c(s, ' ');
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(s, d ? ",%s" : "%s", topo_conn_name(t->conn[d]));
  return g_string_free(s, FALSE);
}

static int torus_hops(const topo *t, int a, int b)
{
  return topo_hops(t, a, b);
}

/* the nodes along each dimension, the last first */
static int torus_hierarchy(const topo *t, int *radix)
{
  int n = 0;
  for (int d = t->ndims - 1; d >= 0; d--)
    radix[n++] = t->shape[d];
  return n;
}

/* SimGrid's TorusZone routes exactly as mapsim does: a torus in every
 * dimension, dimension order x, y, z ..., SimGrid's tie rule; its
 * topo_parameters the sizes "4,4,4". */
static const char *torus_simgrid_zone(const platform *p, char **parameters)
{
  const topo *t = p->topo;
  if (p->router->tie != ROUTE_TIE_SIMGRID)
    return NULL;
  for (int d = 0; d < t->ndims; d++)
    if (t->conn[d] != TOPO_TORUS || p->router->order[d] != d)
      return NULL;
  if (parameters) {
    GString *s = g_string_new(NULL);
    for (int d = 0; d < t->ndims; d++)
      g_string_append_printf(s, "%s%d", d ? "," : "", t->shape[d]);
    *parameters = g_string_free(s, FALSE);
  }
  return "TORUS";
}

/* The names of the direct networks' routings (route.h, ROUTE_FLAG_ALIAS):
 * all stand for the routing the shape has. */
static const family_routing torus_routings[] = {
  { .name = "dor", .algo = ROUTE_ALGO_DOR, .flags = 0,

    .summary = "dimension order in [routing] order (HAEC Box: the wireless hop first); a "
               "route table's paths first" },
  { .name = "shortest_path", .algo = ROUTE_ALGO_DOR, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as dor" },
  { .name = "table", .algo = ROUTE_ALGO_DOR, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as dor ([routing] table first)" },
  { .name = "haec", .algo = ROUTE_ALGO_DOR, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as dor" },
  { .name = "haec_box", .algo = ROUTE_ALGO_DOR, .flags = ROUTE_FLAG_ALIAS,
    .summary = "the same as dor" },
};

const family_ops family_torus_ops = {
  .name = "torus",
  .text = "mesh/torus",
  .kind = TOPO_FAMILY_DIRECT,
  .routings = torus_routings,
  .nroutings = G_N_ELEMENTS(torus_routings),
  .describe = torus_describe,
  .class_name = torus_class_name,
  .reverse_link = torus_reverse_link,
  .hops = torus_hops,
  .walk_begin = torus_walk_begin,
  .walk_next = dor_next,
  .facts = torus_facts,
  .hierarchy = torus_hierarchy,
  .simgrid_zone = torus_simgrid_zone,
};
