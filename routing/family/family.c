/* family.c - which family a topology belongs to (family_of: its ops
 * table) and the topology functions that ask it: link classes, reverse
 * links, descriptions. Above the family files (dragonfly.c, fattree.c,
 * hyperx.c, tree.c) and topology.c, which they build with; none of them
 * calls back here.
 */
#include "routing/family/family-private.h"

const family_ops *family_of(const topo *t)
{
  switch (t->family) {
  case TOPO_FAMILY_DRAGONFLY: return &family_dragonfly_ops;
  case TOPO_FAMILY_FATTREE: return &family_fattree_ops;
  case TOPO_FAMILY_HYPERX: return &family_hyperx_ops;
  case TOPO_FAMILY_TREE: return &family_tree_ops;
  case TOPO_FAMILY_DIRECT: break;
  }
  return NULL;
}

void topo_class_name(const topo *t, int c, char *buf, size_t size)
{
  const family_ops *f = family_of(t);
  if (f)
    f->class_name(t, c, buf, size);
  else if (topo_is_regular(t))
    g_snprintf(buf, size, "%c%c", topo_dim_letter(c / 2), c % 2 ? '-' : '+');
  else
    g_strlcpy(buf, "links", size);
}

int topo_reverse_link(const topo *t, int l)
{
  const family_ops *f = family_of(t);
  if (f)
    return f->reverse_link(t, l);
  int s = t->link_src[l], d = t->link_dst[l];
  if (topo_is_regular(t) && t->link_dim[l] != t->crossbar_dim) {
    int r = topo_link(t, d, t->link_dim[l], 1 - t->link_dir[l]);
    if (r >= 0 && t->link_dst[r] == s)
      return r;
  }
  for (int i = t->out_off[d]; i < t->out_off[d + 1]; i++)
    if (t->link_dst[t->out_link[i]] == s && t->link_dim[t->out_link[i]] == t->link_dim[l])
      return t->out_link[i];
  return -1;
}

char *topo_describe(const topo *t)
{
  const family_ops *f = family_of(t);
  if (f)
    return f->describe(t);
  if (!topo_is_regular(t))
    return g_strdup_printf("graph of %d nodes, %d links", t->nnodes, t->nlinks);
  GString *s = g_string_new(NULL);
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(s, d ? "x%d" : "%d", t->shape[d]);
  g_string_append_c(s, ' ');
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(s, d ? ",%s" : "%s", topo_conn_name(t->conn[d]));
  return g_string_free(s, FALSE);
}
