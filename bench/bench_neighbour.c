/* bench_neighbour.c - a neighbour for a timed run on the other processor:
 * register arithmetic (`alu`) or memset over a buffer of SIZE bytes again
 * and again (`stream SIZE`), until killed or after `seconds` (default 60).
 * bench/energy.sh's `neighbour` part times the replay beside each, to tell
 * processing on the second core from traffic through the shared cache and
 * memory (bench/README.md, "Link energy and timelines").
 *
 * Usage: bench_neighbour alu [seconds] | stream SIZE [seconds]
 */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t alu_round(uint64_t *r)
{
  for (int k = 0; k < 1000; k++) {
    r[0] = r[0] * 3 + r[1];
    r[1] ^= r[2] << 1;
    r[2] += r[3];
    r[3] = r[3] * 5 + r[4];
    r[4] ^= r[5] >> 3;
    r[5] += r[0];
  }
  return r[0] ^ r[5];
}

int main(int argc, char **argv)
{
  gboolean alu = argc >= 2 && strcmp(argv[1], "alu") == 0;
  gboolean stream = argc >= 3 && strcmp(argv[1], "stream") == 0;
  if (!alu && !stream) {
    fprintf(stderr, "usage: bench_neighbour alu [seconds] | stream SIZE [seconds]\n");
    return 2;
  }
  size_t size = stream ? strtoull(argv[2], NULL, 10) : 0;
  double seconds = argc >= (alu ? 3 : 4) ? strtod(argv[alu ? 2 : 3], NULL) : 60;
  char *buf = stream ? g_malloc(MAX(size, 1)) : NULL;
  uint64_t r[6] = { 1, 2, 3, 4, 5, 6 }, sink = 0;
  gint64 end = g_get_monotonic_time() + (gint64)(seconds * 1e6);
  for (unsigned it = 0; g_get_monotonic_time() < end; it++) {
    if (alu) {
      sink += alu_round(r);
    } else {
      memset(buf, (int)it, size);
      __asm__ volatile("" : : "r"(buf) : "memory"); /* keep the stores */
    }
  }
  g_free(buf);
  __asm__ volatile("" : : "r"(sink)); /* keep the arithmetic */
  return 0;
}
