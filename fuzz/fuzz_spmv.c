/* fuzz_spmv.c - the input files of `mapsim gen --pattern spmv`
 * (traces/synth.h): a MatrixMarket matrix, and after a line
 * "%%partition" a row partition (part of row i on line i) for 4 ranks;
 * the trace built from them (its deadlock check played out), freed. */
#include "fuzz.h"
#include "traces/synth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_string(data, size);
  char *split = strstr(text, "%%partition\n");
  char *part = NULL;
  if (split) {
    const char *rest = split + strlen("%%partition\n");
    part = fuzz_file((const uint8_t *)rest, strlen(rest), "part.txt");
    *split = '\0';
  }
  char *matrix = fuzz_file((const uint8_t *)text, strlen(text), "a.mtx");
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = "spmv";
  o.ranks = 4;
  o.iterations = 1;
  o.matrix = matrix;
  o.partition = part;
  GError *e = NULL;
  trace *t = synth_build(&o, &e);
  trace_free(t);
  g_clear_error(&e);
  g_free(matrix);
  g_free(part);
  g_free(text);
  return 0;
}
