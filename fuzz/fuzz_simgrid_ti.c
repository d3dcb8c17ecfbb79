/* fuzz_simgrid_ti.c - the SimGrid time-independent reader
 * (traces/input-simgrid-ti.c, simgrid-ti-actions.c) on mutated action
 * files: the input is an action file (seeds: SimGrid's examples in
 * tests/data/simgrid-ti), read whole and streamed through the input
 * dispatcher; a trace that loads is summarized and turned into its
 * communication graph with collectives, as `mapsim trace info` does; the
 * streamed read must agree with the whole one on the record count. */
#include "fuzz.h"
#include "traces/input.h"
#include "traces/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "actions.txt");
  GError *e = NULL;
  trace *t = input_read_trace(path, &e);
  g_clear_error(&e);
  trace_source *s = input_read_source(path, NULL, &e);
  g_clear_error(&e);
  if (t) {
    trace_summary sum;
    trace_summarize(t, &sum);
    commgraph *g = trace_commgraph(t, TRUE, NULL, &e);
    commgraph_free(g);
    g_clear_error(&e);
    int64_t n = 0;
    for (int r = 0; r < t->nranks; r++)
      n += t->ranks[r].nevents;
    if (!s || trace_source_total(s) != n)
      abort(); /* the two reads disagree */
  } else if (s) {
    abort();
  }
  trace_source_free(s);
  trace_free(t);
  g_free(path);
  return 0;
}
