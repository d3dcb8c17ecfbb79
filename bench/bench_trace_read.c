/* bench_trace_read.c - OTF2 reader throughput and memory per event.
 *
 * Synthesizes a stencil3d trace (default 4096 ranks, 16x16x16 periodic,
 * non-blocking, 50 iterations = 10.2 M events), writes it with the OTF2
 * writer into a temporary directory, reads it back through the input
 * dispatcher (traces/input.h, which hands it to trace_read_otf2())
 * and reports events/s of the reader and bytes per retained event (event
 * arrays / events) plus the peak resident size of the process.
 * Usage: bench_trace_read [RANKS_PER_DIM [ITERATIONS]]
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "traces/input.h"
#include "traces/synth.h"

static void rm_tree(const char *path)
{
  char *argv[] = { "/bin/rm", "-rf", (char *)path, NULL };
  g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL);
}

int main(int argc, char **argv)
{
  int side = argc > 1 ? atoi(argv[1]) : 16, iters = argc > 2 ? atoi(argv[2]) : 50;
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = "stencil3d";
  o.ranks = side * side * side;
  o.dims[0] = o.dims[1] = o.dims[2] = side;
  o.periodic = TRUE;
  o.nonblocking = TRUE;
  o.iterations = iters;
  o.bytes = 65536;
  GError *e = NULL;
  char *tmp = g_dir_make_tmp("bench-trace-XXXXXX", &e);
  char *dir = g_build_filename(tmp, "t", NULL);
  gint64 t0 = g_get_monotonic_time();
  trace *t = synth_build(&o, &e);
  gint64 t1 = g_get_monotonic_time();
  if (!t || !trace_write_otf2(t, dir, NULL, &e)) {
    fprintf(stderr, "bench: %s\n", e->message);
    return 2;
  }
  gint64 t2 = g_get_monotonic_time();
  trace_summary s;
  trace_summarize(t, &s);
  trace_free(t);
  gint64 t3 = g_get_monotonic_time();
  trace *r = input_read_trace(dir, &e);
  gint64 t4 = g_get_monotonic_time();
  if (!r) {
    fprintf(stderr, "bench: %s\n", e->message);
    return 2;
  }
  trace_summary rs;
  trace_summarize(r, &rs);
  gint64 t5 = g_get_monotonic_time();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double rd = (double)(t4 - t3) / 1e6;
  printf("trace: stencil3d %dx%dx%d periodic non-blocking, %d iterations, %d ranks\n", side, side,
         side, iters, o.ranks);
  printf("events           %" G_GINT64_FORMAT " (read back %" G_GINT64_FORMAT ")\n", s.events,
         rs.events);
  printf("synthesize       %.2f s\n", (double)(t1 - t0) / 1e6);
  printf("write OTF2       %.2f s  (%.2f M events/s)\n", (double)(t2 - t1) / 1e6,
         (double)s.events / ((double)(t2 - t1) / 1e6) / 1e6);
  printf("read OTF2        %.2f s  (%.2f M events/s)\n", rd, (double)rs.events / rd / 1e6);
  printf("summarize+match  %.2f s\n", (double)(t5 - t4) / 1e6);
  printf("bytes/event      %.1f (event arrays %zu bytes, record %zu bytes)\n",
         (double)trace_event_bytes(r) / (double)rs.events, trace_event_bytes(r),
         sizeof(trace_event));
  printf("peak RSS         %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
  printf("unmatched        %" G_GINT64_FORMAT "\n", rs.unmatched_sends + rs.unmatched_recvs);
  trace_free(r);
  rm_tree(tmp);
  g_free(dir);
  g_free(tmp);
  return 0;
}
