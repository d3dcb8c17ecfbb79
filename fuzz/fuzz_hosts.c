/* fuzz_hosts.c - the --hosts file of `mapsim map --format` (host names
 * one a line, `#` comments, launcher hostfile lines: mapping/launch.h) on
 * a 4x4 torus with 8 of its nodes allocated, then every launcher format
 * written for the identity mapping with those names. */
#include "fuzz.h"
#include "mapping/launch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "hosts.txt");
  GError *e = NULL;
  platform *p = platform_load("torus:4x4", NULL);
  if (!p || !platform_set_allocation(p, "contiguous:8", &e))
    abort();
  host_names *hn = host_names_new(p, path, &e);
  g_clear_error(&e);
  mapping *m = hn ? mapping_identity(p, p->nalloc, &e) : NULL;
  g_clear_error(&e);
  FILE *sink = m ? fopen("/dev/null", "w") : NULL;
  for (int i = 0; sink && i < launch_nformats; i++) {
    launch_formats[i].write(sink, m, p, hn, &e);
    g_clear_error(&e);
  }
  if (sink)
    fclose(sink);
  mapping_free(m);
  host_names_free(hn);
  platform_free(p);
  g_free(path);
  return 0;
}
