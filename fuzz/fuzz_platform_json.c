/* fuzz_platform_json.c - the HAEC-SIM JSON platform loader
 * (routing/platform-json.c). */
#include "fuzz.h"
#include "routing/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "p.json");
  GError *e = NULL;
  platform *p = platform_load(path, &e);
  platform_free(p);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
