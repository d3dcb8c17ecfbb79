/* fuzz_strategy.c - strategy pipeline specs (mapping/pipeline.c): parsed,
 * and run on an 8-rank ring on a 2x2x2 torus with 2 cores per node when
 * every number in the spec is below 1000 (options such as tries= or
 * passes= ask for as much work as they are given; the parser sees every
 * input, the strategies a bounded amount of work). */
#include "fuzz.h"
#include "mapping/strategy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static platform *torus;
static commgraph *ring;

static gboolean small_numbers(const char *s)
{
  int digits = 0;
  for (; *s; s++) {
    digits = g_ascii_isdigit(*s) ? digits + 1 : 0;
    if (digits > 3)
      return FALSE;
  }
  return TRUE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  fuzz_init();
  if (!torus) {
    torus = platform_load("torus:2x2x2", NULL);
    if (!torus || !platform_set_cores(torus, 2, NULL))
      abort();
    int src[8], dst[8];
    int64_t bytes[8];
    for (int i = 0; i < 8; i++) {
      src[i] = i;
      dst[i] = (i + 1) % 8;
      bytes[i] = 1000 * (i + 1);
    }
    ring = commgraph_from_edges(8, 8, src, dst, bytes, NULL);
  }
  char *spec = fuzz_string(data, size);
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  if (pl && small_numbers(spec)) {
    mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = ring, .p = torus,
                                                   .seed = 1 },
                              &e);
    if (m && !mapping_validate(m, torus, NULL))
      abort(); /* strategy_run returned an invalid mapping */
    mapping_free(m);
  }
  strategy_pipeline_free(pl);
  g_clear_error(&e);
  g_free(spec);
  return 0;
}
