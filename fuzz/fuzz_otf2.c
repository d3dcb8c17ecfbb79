/* fuzz_otf2.c - the OTF2 reader (traces/otf2-read.c and the libotf2 it
 * drives) on mutated archives: the input is a whole archive
 * (otf2-blob.h; seeds are the bundled traces), unpacked into a fresh
 * folder and read through the input dispatcher (traces/input.h: its probe,
 * then the reader); a trace that loads is summarized and turned into its
 * communication graph with collectives, as `mapsim trace info` and
 * `trace matrix` do. */
#include "fuzz.h"
#include "otf2-blob.h"
#include "traces/input.h"
#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_init();
  char *dir = g_build_filename(fuzz_dir, "archive", NULL);
  output_remove_tree(dir);
  g_mkdir(dir, 0755);
  blob_unpack(data, size, dir);
  GError *e = NULL;
  trace *t = input_read_trace(dir, &e);
  if (t) {
    trace_summary s;
    trace_summarize(t, &s);
    commgraph *g = trace_commgraph(t, TRUE, NULL, &e);
    commgraph_free(g);
  }
  trace_free(t);
  g_clear_error(&e);
  output_remove_tree(dir);
  g_free(dir);
  return 0;
}
