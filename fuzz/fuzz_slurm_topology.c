/* fuzz_slurm_topology.c - Slurm's topology files (routing/platform-slurm.c):
 * the input is a topology.yaml when it mentions "topology:", else a
 * topology.conf; a loaded tree answers facts and a route, and its node
 * names compress to a hostlist that expands back to them (hostlist.c). */
#include "fuzz.h"
#include "routing/facts.h"
#include "routing/hostlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  gboolean yaml = g_strstr_len((const char *)data, (gssize)size, "topology:") != NULL;
  char *path = fuzz_file(data, size, yaml ? "topology.yaml" : "topology.conf");
  GError *e = NULL;
  platform *p = platform_load(path, &e);
  if (p) {
    platform_facts f;
    platform_get_facts(p, &f);
    int n = topo_compute_nodes(p->topo), l, hops = 0;
    route_iter it;
    route_begin(&it, p->router, 0, n - 1, 0);
    while (route_next(&it, &l))
      hops++;
    if (hops != route_hops(p->router, 0, n - 1))
      abort();
    char *list = hostlist_compress((const char *const *)p->names, n);
    GPtrArray *back = g_ptr_array_new_with_free_func(g_free);
    if (!hostlist_expand(list, back, NULL) || (int)back->len != n)
      abort();
    for (int v = 0; v < n; v++)
      if (strcmp(back->pdata[v], p->names[v]))
        abort();
    g_ptr_array_unref(back);
    g_free(list);
  }
  platform_free(p);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
