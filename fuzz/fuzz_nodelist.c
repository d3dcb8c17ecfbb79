/* fuzz_nodelist.c - node list files of --alloc and [allocation] nodes
 * (routing/platform.c) on a 4x4x4 torus, then an identity mapping on the
 * new allocation. */
#include "fuzz.h"
#include "mapping/mapping.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "nodes.txt");
  platform *p = platform_load("torus:4x4x4", NULL);
  GError *e = NULL;
  if (p && platform_set_allocation(p, path, &e)) {
    mapping *m = mapping_identity(p, p->nalloc, &e);
    if (m && !mapping_validate(m, p, NULL))
      abort();
    mapping_free(m);
  }
  platform_free(p);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
