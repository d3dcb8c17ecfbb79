/* fuzz_sgxml.c - SimGrid platform files (routing/platform-sgxml.c),
 * probed and read through platform_load as `-p FILE.xml` is. A platform
 * that loads has every route between its first 64 hosts walked: a chain
 * of links from the source that ends at the destination, as long as
 * route_hops says, no link twice. */
#include "fuzz.h"
#include "routing/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "p.xml");
  GError *e = NULL;
  platform *p = platform_load(path, &e);
  if (p) {
    const topo *t = p->topo;
    int n = MIN(p->nalloc, 64);
    gboolean *seen = g_new0(gboolean, MAX(t->nlinks, 1));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        int a = p->alloc[i], b = p->alloc[j], cur = a, hops = 0, l;
        route_iter it;
        if (a == b)
          continue;
        route_begin(&it, p->router, a, b, 0);
        while (route_next(&it, &l)) {
          if (l < 0 || l >= t->nlinks || t->link_src[l] != cur || seen[l] || hops > t->nlinks)
            abort();
          seen[l] = TRUE;
          cur = t->link_dst[l];
          hops++;
        }
        if (cur != b || hops != route_hops(p->router, a, b))
          abort();
        route_begin(&it, p->router, a, b, 0);
        while (route_next(&it, &l))
          seen[l] = FALSE;
      }
    g_free(seen);
  }
  platform_free(p);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
