/* slurm-leafspine.c - a leaf-spine Slurm topology file (every leaf switch
 * under every spine switch) as the two-level fat tree it is: its vertices
 * the nodes leaf by leaf, the leaves in the first spine's order, then the
 * spines - the fat tree's own numbering (fattree.c) - with Slurm's names.
 * Costs: O(switches x leaves) to recognise it.
 */
#include "routing/slurm-private.h"

gboolean slurm_leaf_spine(slurm_desc *d, char ***names, topo **out, GError **error)
{
  *out = NULL;
  int n = (int)d->sw->len, spines = 0, leaves = 0, k = -1;
  const sw_desc *first_spine = NULL;
  for (int i = 0; i < n; i++) {
    const sw_desc *s = d->sw->pdata[i];
    gboolean leaf = s->nodes->len && !s->children->len, spine = s->children->len && !s->nodes->len;
    if (!leaf && !spine)
      return TRUE;
    if (leaf && k >= 0 && (int)s->nodes->len != k)
      return TRUE;
    if (leaf)
      k = (int)s->nodes->len, leaves++;
    else if (!spines++)
      first_spine = s;
  }
  if (spines < 2 || !leaves)
    return TRUE;
  /* every spine over every leaf once: as many children, each a leaf, no
   * repeats */
  for (int i = 0; i < n; i++) {
    const sw_desc *s = d->sw->pdata[i];
    if (!s->children->len)
      continue;
    if ((int)s->children->len != leaves)
      return TRUE;
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (int c = 0; c < leaves; c++) {
      int j = GPOINTER_TO_INT(g_hash_table_lookup(d->index, s->children->pdata[c])) - 1;
      if (j < 0 || ((sw_desc *)d->sw->pdata[j])->children->len ||
          !g_hash_table_add(seen, s->children->pdata[c]))
        return TRUE;
    }
  }
  /* a node on one leaf only */
  g_autoptr(GHashTable) nodes = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < n; i++) {
    const sw_desc *s = d->sw->pdata[i];
    for (int v = 0; v < (int)s->nodes->len; v++)
      if (!g_hash_table_add(nodes, s->nodes->pdata[v]))
        return TRUE;
  }
  topo_fattree ft = { .levels = 2, .down = { k, leaves }, .up = { 1, spines },
                      .parallel = { 1, 1 } };
  topo *t = topo_new_fattree(&ft, error);
  if (!t)
    return FALSE;
  int nn = k * leaves, v = 0;
  *names = g_new0(char *, (size_t)nn + leaves + spines + 1);
  for (int c = 0; c < leaves; c++) {
    const char *leaf = first_spine->children->pdata[c];
    const sw_desc *s = d->sw->pdata[GPOINTER_TO_INT(g_hash_table_lookup(d->index, leaf)) - 1];
    for (int i = 0; i < k; i++)
      (*names)[v++] = g_strdup(s->nodes->pdata[i]);
    (*names)[nn + c] = g_strdup(leaf);
  }
  for (int i = 0, j = 0; i < n; i++)
    if (((sw_desc *)d->sw->pdata[i])->children->len)
      (*names)[nn + leaves + j++] = g_strdup(((sw_desc *)d->sw->pdata[i])->name);
  if (d->notes)
    g_ptr_array_add(d->notes, g_strdup_printf("%s: every leaf switch is under every spine "
                                              "switch: read as the two-level fat tree it is "
                                              "(%d nodes per leaf, %d leaves, %d spines)",
                                              d->path, k, leaves, spines));
  *out = t;
  return TRUE;
}

