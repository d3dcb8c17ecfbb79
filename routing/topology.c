/* topology.c - regular (mesh/torus/crossbar) and graph topologies, and
 * what every family builds with (family_alloc, family_set_link,
 * family_finish); the functions that ask a topology's family are
 * family.c's.
 *
 * Mesh, torus and the HAEC Box are one topology with per-dimension
 * connectivity; only link enumeration and distance branch on it. Indirect
 * networks are built in their family's file (dragonfly.c, fattree.c,
 * hyperx.c) through family_alloc/family_finish below. Costs: construction
 * O(nlinks), topo_hops O(ndims), topo_crossbar_link O(ndims).
 */
#include "routing/family/family-private.h"

#include <stdlib.h>

#include "util/budget.h"
#include "util/enumname.h"

G_DEFINE_QUARK(topo-error-quark, topo_error)

static const char dim_letters[TOPO_MAX_DIMS + 1] = "xyzwvuts";

char topo_dim_letter(int d)
{
  return d >= 0 && d < TOPO_MAX_DIMS ? dim_letters[d] : '?';
}

static const char *const conn_names[] = {
  [TOPO_MESH] = "mesh", [TOPO_TORUS] = "torus", [TOPO_CROSSBAR] = "crossbar",
};

const char *topo_conn_name(topo_conn c)
{
  return enum_name(conn_names, G_N_ELEMENTS(conn_names), (int)c);
}

gboolean topo_conn_from_name(const char *name, topo_conn *out)
{
  int i;
  if (!enum_parse_case(conn_names, G_N_ELEMENTS(conn_names), name, TRUE, &i))
    return FALSE;
  *out = (topo_conn)i;
  return TRUE;
}

void topo_coords(const topo *t, int node, int *c)
{
  for (int d = 0; d < t->ndims; d++) {
    c[d] = node % t->shape[d];
    node /= t->shape[d];
  }
}

int topo_node(const topo *t, const int *c)
{
  int id = 0;
  for (int d = t->ndims - 1; d >= 0; d--)
    id = id * t->shape[d] + c[d];
  return id;
}

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

static topo *alloc_links(topo *t)
{
  t->link_src = g_new(int, t->nlinks ? t->nlinks : 1);
  t->link_dst = g_new(int, t->nlinks ? t->nlinks : 1);
  t->link_dim = g_new(int8_t, t->nlinks ? t->nlinks : 1);
  t->link_dir = g_new(int8_t, t->nlinks ? t->nlinks : 1);
  t->link_class = g_new0(uint8_t, t->nlinks ? t->nlinks : 1);
  t->out_off = g_new0(int, (size_t)t->nnodes + 1);
  t->out_link = g_new(int, t->nlinks ? t->nlinks : 1);
  return t;
}

static const char *const family_names[] = { "direct", "dragonfly", "fattree", "hyperx", "tree" };

const char *topo_family_name(topo_family f)
{
  return (unsigned)f < G_N_ELEMENTS(family_names) ? family_names[f] : "?";
}

int topo_group_of(const topo *t, int v)
{
  if (t->family != TOPO_FAMILY_DRAGONFLY)
    return -1;
  return v / (t->df.nodes_per_router * t->df.routers);
}

const char *topo_kind_text(const topo *t)
{
  switch (t->family) {
  case TOPO_FAMILY_DRAGONFLY: return "dragonfly";
  case TOPO_FAMILY_FATTREE: return "fat tree";
  case TOPO_FAMILY_HYPERX: return "HyperX";
  case TOPO_FAMILY_TREE: return "tree of switches";
  case TOPO_FAMILY_DIRECT: break;
  }
  return topo_is_regular(t) ? "mesh/torus" : "graph topology";
}

/* Indirect networks: nodes first, then switches; links counted in closed
 * form by the family and checked against the limits and the memory budget
 * (the per-link and per-vertex costs of check_size below) before anything
 * is allocated. */
topo *family_alloc(topo_family family, int64_t nodes, int64_t switches, int64_t links,
                   int nclasses, GError **error)
{
  int64_t vertices = nodes + switches;
  if (vertices >= TOPO_MAX_NODES || links >= TOPO_MAX_LINKS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "%" G_GINT64_FORMAT " nodes and switches, %" G_GINT64_FORMAT " links, expected "
                "fewer than %d of each", vertices, links, TOPO_MAX_NODES);
    return NULL;
  }
  uint64_t bytes = (uint64_t)vertices * 16 + (uint64_t)links * 64;
  if (!budget_check_memory("the platform's nodes, switches and links", bytes, error))
    return NULL;
  topo *t = g_new0(topo, 1);
  t->family = family;
  t->crossbar_dim = -1;
  t->nnodes = (int)vertices;
  t->nswitches = (int)switches;
  t->nlinks = (int)links;
  t->nclasses = nclasses;
  return alloc_links(t);
}

void family_set_link(topo *t, int l, int src, int dst, int cls)
{
  t->link_src[l] = src;
  t->link_dst[l] = dst;
  t->link_dim[l] = -1;
  t->link_dir[l] = 0;
  t->link_class[l] = (uint8_t)cls;
}

void family_finish(topo *t)
{
  for (int l = 0; l < t->nlinks; l++)
    t->out_off[t->link_src[l] + 1]++;
  for (int u = 0; u < t->nnodes; u++)
    t->out_off[u + 1] += t->out_off[u];
  int *fill = g_memdup2(t->out_off, sizeof(int) * (size_t)t->nnodes);
  for (int l = 0; l < t->nlinks; l++)
    t->out_link[fill[t->link_src[l]]++] = l;
  g_free(fill);
}

static const char *const arrangement_names[] = { "absolute", "relative", "circulant", "simgrid" };

const char *topo_arrangement_name(topo_arrangement a)
{
  return enum_name(arrangement_names, G_N_ELEMENTS(arrangement_names), (int)a);
}

gboolean topo_arrangement_from_name(const char *name, topo_arrangement *out)
{
  int i;
  if (!enum_parse(arrangement_names, G_N_ELEMENTS(arrangement_names), name, &i))
    return FALSE;
  *out = (topo_arrangement)i;
  return TRUE;
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
  alloc_links(t);

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

topo *topo_new_graph(int nnodes, int nlinks, const int *src, const int *dst, GError **error)
{
  if (nnodes < 1) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID, "%d nodes, expected at least 1", nnodes);
    return NULL;
  }
  for (int i = 0; i < nlinks; i++)
    if (src[i] < 0 || src[i] >= nnodes || dst[i] < 0 || dst[i] >= nnodes || src[i] == dst[i]) {
      g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                  "link %d: %d -> %d, expected two different nodes in [0, %d)", i, src[i],
                  dst[i], nnodes);
      return NULL;
    }
  topo *t = g_new0(topo, 1);
  t->crossbar_dim = -1;
  t->nnodes = nnodes;
  t->nlinks = nlinks;
  t->nclasses = 1;
  alloc_links(t);
  for (int i = 0; i < nlinks; i++) {
    t->link_src[i] = src[i];
    t->link_dst[i] = dst[i];
    t->link_dim[i] = -1;
    t->link_dir[i] = 0;
    t->out_off[src[i] + 1]++;
  }
  for (int u = 0; u < nnodes; u++)
    t->out_off[u + 1] += t->out_off[u];
  int *fill = g_memdup2(t->out_off, sizeof(int) * (size_t)nnodes);
  for (int i = 0; i < nlinks; i++)
    t->out_link[fill[src[i]]++] = i;
  g_free(fill);
  return t;
}

void topo_free(topo *t)
{
  if (!t)
    return;
  g_free(t->link_src);
  g_free(t->link_dst);
  g_free(t->link_dim);
  g_free(t->link_dir);
  g_free(t->out_off);
  g_free(t->out_link);
  g_free(t->first_link);
  g_free(t->link_class);
  g_free(t->df.gateway);
  g_free(t->tree.parent);
  g_free(t->tree.level);
  g_free(t->tree.depth);
  g_free(t->tree.up_link);
  g_free(t);
}
