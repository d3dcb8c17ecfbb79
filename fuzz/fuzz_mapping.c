/* fuzz_mapping.c - mapping files (mapping/mapping.c) on a 4x4x4 torus with
 * 2 cores per node, for 2 and for 64 ranks; whatever loads must validate. */
#include "fuzz.h"
#include "mapping/mapping.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static platform *torus;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_init();
  if (!torus) {
    torus = platform_load("torus:4x4x4", NULL);
    if (!torus || !platform_set_cores(torus, 2, NULL))
      abort();
  }
  char *path = fuzz_file(data, size, "m.map");
  static const int ranks[] = { 2, 64 };
  for (int i = 0; i < 2; i++) {
    GError *e = NULL;
    mapping *m = mapping_load(path, torus, ranks[i], &e);
    if (m && !mapping_validate(m, torus, NULL))
      abort(); /* the loader accepted what the validator refuses */
    mapping_free(m);
    g_clear_error(&e);
  }
  g_free(path);
  return 0;
}
