/* bench_replay.c - replay speed of the discrete-event engine: records per
 * second and memory per record on a generated 3D stencil.
 *
 * Target: >= 10 million replayed trace records per second on one
 * core with the contention-free model (korndoerfer2021 Section 5.3's
 * contention-oblivious model). The trace (synth.h "stencil3d", 4096 ranks,
 * non-blocking halo exchange, periodic) is built in memory, then replayed
 * once per model given on the command line (default: analytic) on a
 * 16x16x16 torus with the identity mapping. Not a test (it times things). Results and the command: bench/README.md,
 * "Replay engine".
 *
 * Usage: bench_replay [ITERATIONS [BYTES [MODEL...]]]   (default 60 1024)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/replay.h"
#include "traces/synth.h"

static void print_machine(void)
{
  char *info = NULL, model[256] = "unknown";
  if (g_file_get_contents("/proc/cpuinfo", &info, NULL, NULL)) {
    const char *m = strstr(info, "model name");
    const char *colon = m ? strchr(m, ':') : NULL;
    if (colon && sscanf(colon + 1, " %255[^\n]", model) != 1)
      strcpy(model, "unknown");
  }
  g_free(info);
  printf("machine: %ld cores online (nproc), CPU %s\n", sysconf(_SC_NPROCESSORS_ONLN), model);
}

/* CPU seconds of this thread: the machine may be shared, wall time is not
 * the replay's cost alone. */
static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int bench_model(const trace *t, const platform *p, const mapping *m, const char *name,
                       int64_t nrecords)
{
  const struct netmodel_ops *ops = netmodel_find(name);
  if (!ops) {
    fprintf(stderr, "bench_replay: unknown model %s\n", name);
    return 2;
  }
  GError *e = NULL;
  gint64 t0 = g_get_monotonic_time();
  double c0 = cpu_now();
  replay_result *r = replay_run(t, p, m, ops, NULL, &e);
  double cpu = cpu_now() - c0;
  double wall = (g_get_monotonic_time() - t0) * 1e-6;
  if (!r || r->stuck) {
    fprintf(stderr, "bench_replay: %s\n", r ? r->stuck_summary : e->message);
    g_clear_error(&e);
    replay_result_free(r);
    return 1;
  }
  printf("%-10s %.3f s wall, %.3f s cpu: %.2f M records/s (cpu), %.2f M records/s (wall), "
         "%.2f M engine events/s (cpu; %" G_GUINT64_FORMAT " events), makespan %.6f s, %"
         G_GINT64_FORMAT " p2p msgs, replay state %.1f MiB = %.1f bytes/record\n",
         ops->name, wall, cpu, nrecords / cpu * 1e-6, nrecords / wall * 1e-6,
         r->engine_events / cpu * 1e-6,
         r->engine_events, r->makespan_ps * 1e-12, r->p2p_messages,
         r->peak_bytes / 1048576.0, (double)r->peak_bytes / (double)nrecords);
  replay_result_free(r);
  return 0;
}

int main(int argc, char **argv)
{
  int status = 1;
  GError *e = NULL;
  trace *t = NULL;
  platform *p = NULL;
  mapping *m = NULL;
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = "stencil3d";
  o.ranks = 4096;
  o.periodic = TRUE;
  o.nonblocking = TRUE;
  o.iterations = argc > 1 ? atoi(argv[1]) : 60;
  o.bytes = argc > 2 ? atoll(argv[2]) : 1024;
  o.gap_s = 1e-5;
  print_machine();
  gint64 t0 = g_get_monotonic_time();
  if (!(t = synth_build(&o, &e)) || !(p = platform_load("torus:16x16x16", &e)) ||
      !(m = mapping_identity(p, t->nranks, &e))) {
    fprintf(stderr, "bench_replay: %s\n", e->message);
    goto out;
  }
  int64_t n = 0;
  for (int r = 0; r < t->nranks; r++)
    n += t->ranks[r].nevents;
  printf("trace: stencil3d %d ranks, %d iterations, %" G_GINT64_FORMAT " bytes/msg: %"
         G_GINT64_FORMAT " records (%.1f MiB, %zu bytes/record), built in %.2f s\n",
         t->nranks, o.iterations, o.bytes, n, trace_event_bytes(t) / 1048576.0,
         sizeof(trace_event), (g_get_monotonic_time() - t0) * 1e-6);
  status = 0;
  if (argc > 3) {
    for (int i = 3; i < argc && !status; i++)
      status = bench_model(t, p, m, argv[i], n);
  } else {
    status = bench_model(t, p, m, "analytic", n);
  }
out:
  g_clear_error(&e);
  mapping_free(m);
  platform_free(p);
  trace_free(t);
  return status;
}
