/* fuzz_route_table.c - route tables (routing/route.c) of a 3x3 mesh and of
 * a 6-node ring graph; every route of a loaded table is then walked. */
#include "fuzz.h"
#include "routing/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static platform *mesh, *ring;

static platform *ring_platform(void)
{
  char *links = fuzz_file((const uint8_t *)"0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n", 24, "ring.links");
  char *ini = g_build_filename(fuzz_dir, "ring.ini", NULL);
  const char *text = "[topology]\ngraph = ring.links\nbidirectional = true\n"
                     "[linktype.a]\nbandwidth = 1e9\nlatency = 1e-9\n";
  if (!g_file_set_contents(ini, text, -1, NULL))
    abort();
  platform *p = platform_load(ini, NULL);
  g_free(ini);
  g_free(links);
  return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_init();
  if (!mesh) {
    mesh = platform_load("mesh:3x3", NULL);
    ring = ring_platform();
    if (!mesh || !ring)
      abort();
  }
  char *path = fuzz_file(data, size, "routes.txt");
  platform *both[2] = { mesh, ring };
  for (int k = 0; k < 2; k++) {
    platform *p = both[k];
    GError *e = NULL;
    if (!router_load_table(p->router, path, &e)) {
      g_clear_error(&e);
      continue;
    }
    for (int s = 0; s < p->topo->nnodes; s++)
      for (int d = 0; d < p->topo->nnodes; d++) {
        route_iter it;
        int l, hops = 0;
        route_begin(&it, p->router, s, d, 0);
        while (route_next(&it, &l))
          if (++hops > p->topo->nlinks * p->topo->nnodes)
            abort(); /* a route that never ends */
        if (s != d && route_hops(p->router, s, d) != hops)
          abort(); /* the hop count and the walk disagree */
      }
    /* back to the platform's own routes for the next input */
    router *fresh = router_new(p->topo, NULL, NULL);
    router_free(p->router);
    p->router = fresh;
  }
  g_free(path);
  return 0;
}
