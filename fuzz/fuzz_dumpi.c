/* fuzz_dumpi.c - the DUMPI reader (traces/input-dumpi.c, dumpi-bin.c) on
 * mutated .bin files: the input is rank 0's file of a one-rank trace (its
 * .meta written here; seeds: the four ranks of SST/macro's test trace in
 * tests/data/dumpi), read whole and streamed through the input
 * dispatcher; a trace that loads is summarized and turned into its
 * communication graph with collectives; the streamed read must agree with
 * the whole one on the record count. */
#include "fuzz.h"
#include "traces/input.h"
#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static const char meta_text[] = "numprocs=1\nfileprefix=t\n";
  char *bin = fuzz_file(data, size, "t-0000.bin");
  char *meta = fuzz_file((const uint8_t *)meta_text, sizeof meta_text - 1, "t.meta");
  GError *e = NULL;
  trace *t = input_read_trace(meta, &e);
  g_clear_error(&e);
  trace_source *s = input_read_source(meta, NULL, &e);
  g_clear_error(&e);
  if (t) {
    trace_summary sum;
    trace_summarize(t, &sum);
    commgraph *g = trace_commgraph(t, TRUE, NULL, &e);
    commgraph_free(g);
    g_clear_error(&e);
    if (!s || trace_source_total(s) != t->ranks[0].nevents)
      abort(); /* the two reads disagree */
  } else if (s) {
    abort();
  }
  trace_source_free(s);
  trace_free(t);
  g_free(bin);
  g_free(meta);
  return 0;
}
