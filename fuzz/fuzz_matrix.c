/* fuzz_matrix.c - the communication matrix loaders (traces/commgraph.c):
 * the format comes from the content as a user's file name would give it
 * (a MatrixMarket header: .mtx, commas: .csv, else an edge list); a loaded
 * graph is also written back (commgraph_save) and, as `--counts`, merged
 * with itself. */
#include "fuzz.h"
#include "traces/commgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *name = size >= 2 && data[0] == '%' && data[1] == '%' ? "m.mtx"
                     : memchr(data, ',', size)                    ? "m.csv"
                                                                  : "m.txt";
  char *path = fuzz_file(data, size, name);
  GError *e = NULL;
  commgraph *g = commgraph_load(path, &e);
  if (g && g->n <= 256) {
    for (int kind = 0; kind < 2; kind++) {
      char *out = g_build_filename(fuzz_dir, kind ? "out.mtx" : "out.csv", NULL);
      if (!commgraph_save(g, kind, out, NULL, &e))
        g_clear_error(&e);
      g_free(out);
    }
    if (!commgraph_load_counts(g, path, &e))
      g_clear_error(&e);
  }
  commgraph_free(g);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
