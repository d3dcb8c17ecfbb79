/* facts.c - diameter, average distance and bisection of a platform. */
#include "routing/family/family-private.h"

#include <string.h>

void platform_get_facts(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  memset(f, 0, sizeof *f);
  f->nodes = topo_compute_nodes(t);
  f->switches = t->nswitches;
  f->links = t->nlinks;
  f->bisection_dim = -1;
  family_of(t)->facts(p, f);
}
