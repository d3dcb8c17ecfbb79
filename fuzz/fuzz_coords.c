/* fuzz_coords.c - task coordinates files (mapping/coords.c) for as many
 * ranks as the file has lines (1..64); loaded coordinates also drive the
 * geometric strategy on a 4x4x4 torus. */
#include "fuzz.h"
#include "mapping/strategy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static platform *torus;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_init();
  if (!torus && !(torus = platform_load("torus:4x4x4", NULL)))
    abort();
  int n = 1, dims = 0;
  for (size_t i = 0; i + 1 < size && n < 64; i++)
    n += data[i] == '\n';
  char *path = fuzz_file(data, size, "c.txt");
  GError *e = NULL;
  double *c = strategy_load_coords(path, n, &dims, &e);
  if (c) {
    int *src = g_new(int, n), *dst = g_new(int, n);
    int64_t *bytes = g_new(int64_t, n);
    for (int i = 0; i < n; i++) {
      src[i] = i;
      dst[i] = (i + 1) % n;
      bytes[i] = 1;
    }
    commgraph *g = commgraph_from_edges(n, n, src, dst, bytes, NULL);
    strategy_pipeline *pl = strategy_parse("geometric", NULL);
    mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = torus, .seed = 1,
                                                   .coords = c, .coord_dims = dims },
                              &e);
    mapping_free(m);
    strategy_pipeline_free(pl);
    commgraph_free(g);
    g_free(src);
    g_free(dst);
    g_free(bytes);
  }
  g_free(c);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
