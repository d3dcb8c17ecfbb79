/* fuzz_shorthand.c - platform shorthands (torus:4x4x4:bw=1e9) with
 * --set overrides: the first line is the shorthand, each further line one
 * GROUP.KEY=VALUE; then the node syntax of `mapsim route` on the result. */
#include "fuzz.h"
#include "routing/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_string(data, size);
  char **lines = g_strsplit(text, "\n", 16);
  GError *e = NULL;
  /* a shorthand, never a file: paths are the other harnesses' concern */
  platform *p = lines[0] && strchr(lines[0], ':') && !strchr(lines[0], '/')
                    ? platform_load_with(lines[0], (const char *const *)lines + 1, &e)
                    : NULL;
  if (p && lines[1]) {
    int node = platform_parse_node(p, lines[1], NULL);
    (void)node;
  }
  platform_free(p);
  g_clear_error(&e);
  g_strfreev(lines);
  g_free(text);
  return 0;
}
