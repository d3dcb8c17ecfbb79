/* fuzz_platform_ini.c - the INI platform loader (routing/platform-ini.c),
 * with the files it names (link lists, route tables, node lists) read
 * through the same bounded reader; a loaded platform also answers facts
 * and routes, as `mapsim topo` and `route` ask. */
#include "fuzz.h"
#include "routing/facts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "p.ini");
  GError *e = NULL;
  platform *p = platform_load(path, &e);
  if (p) {
    platform_facts f;
    platform_get_facts(p, &f);
    route_iter it;
    int l, hops = 0;
    route_begin(&it, p->router, 0, topo_compute_nodes(p->topo) - 1, 0);
    while (route_next(&it, &l) && hops < p->topo->nlinks)
      hops++;
  }
  platform_free(p);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
