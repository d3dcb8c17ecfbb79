/* family.c - the registry of topology families (family.h) and the
 * topology functions that ask a topology's family: link classes, reverse
 * links, descriptions, the hierarchy. Above the family files (torus.c,
 * graph.c, dragonfly.c, fattree.c, hyperx.c, tree.c) and topology.c,
 * which they build with; none of them calls back here but through the
 * registry.
 */
#include "routing/family/family-private.h"

#include <string.h>

/* The built-in families, in the order help texts and `mapsim routings`
 * list them. */
static const family_ops *const builtin[] = {
  &family_torus_ops, &family_graph_ops, &family_dragonfly_ops, &family_fattree_ops,
  &family_hyperx_ops, &family_tree_ops,
};

/* Families added at run time (family_register), after the built-in ones. */
static GPtrArray *added;

void family_register(const family_ops *ops)
{
  g_assert(ops && ops->name && !family_find(ops->name));
  if (!added)
    added = g_ptr_array_new();
  g_ptr_array_add(added, (gpointer)ops);
}

int family_count(void)
{
  return (int)G_N_ELEMENTS(builtin) + (added ? (int)added->len : 0);
}

const family_ops *family_at(int i)
{
  int nb = (int)G_N_ELEMENTS(builtin);
  if (i < 0 || i >= family_count())
    return NULL;
  return i < nb ? builtin[i] : g_ptr_array_index(added, (guint)(i - nb));
}

const family_ops *family_find(const char *name)
{
  for (int i = 0; name && i < family_count(); i++)
    if (!strcmp(family_at(i)->name, name))
      return family_at(i);
  return NULL;
}

const family_ops *family_of(const topo *t)
{
  return t->ops;
}

void topo_class_name(const topo *t, int c, char *buf, size_t size)
{
  t->ops->class_name(t, c, buf, size);
}

int topo_reverse_link(const topo *t, int l)
{
  return t->ops->reverse_link(t, l);
}

char *topo_describe(const topo *t)
{
  return t->ops->describe(t);
}

const char *topo_kind_text(const topo *t)
{
  return t->ops->text;
}

int topo_hierarchy(const topo *t, int *radix)
{
  return t->ops->hierarchy ? t->ops->hierarchy(t, radix) : 0;
}

/* The reverse of link l found among its head's links (graphs, families
 * without a closed form). */
int family_reverse_by_scan(const topo *t, int l)
{
  int s = t->link_src[l], d = t->link_dst[l];
  for (int i = t->out_off[d]; i < t->out_off[d + 1]; i++)
    if (t->link_dst[t->out_link[i]] == s && t->link_dim[t->out_link[i]] == t->link_dim[l])
      return t->out_link[i];
  return -1;
}

char *family_routings_text(void)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < family_count(); i++) {
    const family_ops *f = family_at(i);
    int n = 0, k = 0;
    for (int r = 0; r < f->nroutings; r++)
      n += !(f->routings[r].flags & ROUTE_FLAG_ALIAS);
    for (int r = 0; r < f->nroutings; r++) {
      if (f->routings[r].flags & ROUTE_FLAG_ALIAS)
        continue;
      g_string_append_printf(s, "%s%s", k == 0 ? (s->len ? "; " : "") : k == n - 1 ? " or " : ", ",
                             f->routings[r].name);
      k++;
    }
    g_string_append_printf(s, " (%s)", f->text);
  }
  return g_string_free(s, FALSE);
}
