/* topology.c - what every family builds with (family_alloc,
 * family_set_link, family_finish), coordinates and the names of
 * connectivities and arrangements; each family is built in its file of
 * routing/family/ (torus.c: mesh, torus, HAEC Box; graph.c: graphs) and
 * the functions that ask a topology's family are family.c's.
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

topo *family_alloc_links(topo *t)
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

int topo_group_of(const topo *t, int v)
{
  const topo_dragonfly *df = topo_dragonfly_of(t);
  return df ? v / (df->nodes_per_router * df->routers) : -1;
}

/* Indirect networks: nodes first, then switches; links counted in closed
 * form by the family and checked against the limits and the memory budget
 * (the per-link and per-vertex costs of check_size below) before anything
 * is allocated. */
topo *family_alloc(const family_ops *ops, int64_t nodes, int64_t switches, int64_t links,
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
  t->family = ops->kind;
  t->ops = ops;
  t->crossbar_dim = -1;
  t->nnodes = (int)vertices;
  t->nswitches = (int)switches;
  t->nlinks = (int)links;
  t->nclasses = nclasses;
  return family_alloc_links(t);
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
  if (t->state && t->ops && t->ops->free_state)
    t->ops->free_state(t->state);
  g_free(t);
}
