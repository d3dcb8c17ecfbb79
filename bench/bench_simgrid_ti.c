/* bench_simgrid_ti.c - writes the same workload for SimGrid's offline
 * replay (smpirun -replay): a trace of mapsim's in SimGrid's
 * time-independent format, one action file per rank, their list, a
 * platform file with the torus mapsim's shorthand `torus:XxYxZ` stands for
 * (31.25 GB/s and 10 ps per link, full duplex, dimension-order routes) and
 * a hostfile placing rank r on node r (mapsim's identity mapping).
 *
 * Records -> actions: computation gaps (time outside MPI regions) ->
 * `compute` at 1 Gflop/s, gaps under 1 us (the 10 ns between two MPI
 * calls of a synthesized trace) carried over into the next one, so that
 * SimGrid does not pay an action for each while the computed total stays
 * the same; Isend -> `isend`; the Irecv envelope (taken
 * from its completion record, as mapsim's replay does) -> `irecv` where
 * the request was posted; leaving an MPI_Wait* region -> `waitall`;
 * Send/Recv -> `send`/`recv`; an allreduce -> `allreduce`. Enough for the
 * synthesized stencils, rings and CG traces the bench uses; other records
 * are left out (and counted on stderr).
 *
 * Usage: bench_simgrid_ti TRACE OUTDIR X Y Z
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace.h"

#define SPEED 1e9 /* flop/s of every host */
#define MIN_GAP_PS 1000000 /* shorter gaps wait for the next one */

static const trace_event *irecv_envelope(const trace_rank *tr, int64_t i)
{
  for (int64_t j = i + 1; j < tr->nevents; j++)
    if ((tr->events[j].kind == TRACE_IRECV || tr->events[j].kind == TRACE_REQUEST_CANCELLED) &&
        tr->events[j].request == tr->events[i].request)
      return tr->events[j].kind == TRACE_IRECV ? &tr->events[j] : NULL;
  return NULL;
}

static int64_t write_rank(const trace *t, int r, FILE *f)
{
  const trace_rank *tr = &t->ranks[r];
  int64_t skipped = 0, prev = 0, carry = 0;
  int depth = 0;
  fprintf(f, "%d init\n", r);
  for (int64_t i = 0; i < tr->nevents; i++) {
    const trace_event *e = &tr->events[i];
    if (depth == 0 && e->time > prev)
      carry += e->time - prev;
    if (carry >= MIN_GAP_PS) {
      fprintf(f, "%d compute %.0f\n", r, (double)carry * 1e-12 * SPEED);
      carry = 0;
    }
    prev = e->time;
    switch (e->kind) {
    case TRACE_ENTER:
      depth++;
      break;
    case TRACE_LEAVE:
      if (depth > 0 && --depth == 0 && g_str_has_prefix(t->regions[e->region], "MPI_Wait"))
        fprintf(f, "%d waitall\n", r);
      break;
    case TRACE_ISEND:
      fprintf(f, "%d isend %d %u %" G_GINT64_FORMAT "\n", r, e->peer, e->tag, e->bytes);
      break;
    case TRACE_IRECV_REQUEST: {
      const trace_event *env = irecv_envelope(tr, i);
      if (env)
        fprintf(f, "%d irecv %d %u %" G_GINT64_FORMAT "\n", r, env->peer, env->tag, env->bytes);
      break;
    }
    case TRACE_SEND:
      fprintf(f, "%d send %d %u %" G_GINT64_FORMAT "\n", r, e->peer, e->tag, e->bytes);
      break;
    case TRACE_RECV:
      fprintf(f, "%d recv %d %u %" G_GINT64_FORMAT "\n", r, e->peer, e->tag, e->bytes);
      break;
    case TRACE_COLL_END:
      if (e->op == COLL_ALLREDUCE)
        fprintf(f, "%d allreduce %" G_GINT64_FORMAT " 0\n", r, e->bytes);
      else
        skipped++;
      break;
    case TRACE_ISEND_COMPLETE:
    case TRACE_IRECV:
    case TRACE_COLL_BEGIN:
      break;
    default:
      skipped++;
    }
  }
  fprintf(f, "%d finalize\n", r);
  return skipped;
}

int main(int argc, char **argv)
{
  if (argc != 6) {
    fprintf(stderr, "usage: %s TRACE OUTDIR X Y Z\n", argv[0]);
    return 2;
  }
  GError *e = NULL;
  trace *t = trace_read_otf2(argv[1], &e);
  if (!t) {
    fprintf(stderr, "bench_simgrid_ti: %s\n", e->message);
    return 2;
  }
  int X = atoi(argv[3]), Y = atoi(argv[4]), Z = atoi(argv[5]);
  if (X * Y * Z < t->nranks || g_mkdir_with_parents(argv[2], 0755) != 0) {
    fprintf(stderr, "bench_simgrid_ti: %dx%dx%d nodes for %d ranks, or %s not writable\n", X, Y,
            Z, t->nranks, argv[2]);
    return 2;
  }
  char *p = g_build_filename(argv[2], "platform.xml", NULL);
  FILE *f = fopen(p, "w");
  fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n  <zone id=\"world\" routing=\"Full\">\n"
             "    <cluster id=\"torus\" prefix=\"node-\" radical=\"0-%d\" suffix=\"\" speed=\"1Gf\" "
             "bw=\"31.25GBps\" lat=\"10ps\" topology=\"TORUS\" topo_parameters=\"%d,%d,%d\" "
             "sharing_policy=\"SPLITDUPLEX\" loopback_bw=\"1000GBps\" loopback_lat=\"0\"/>\n"
             "  </zone>\n</platform>\n", X * Y * Z - 1, X, Y, Z);
  fclose(f);
  g_free(p);
  char *hosts = g_build_filename(argv[2], "hostfile", NULL), *list = g_build_filename(argv[2], "traces.txt", NULL);
  FILE *fh = fopen(hosts, "w"), *fl = fopen(list, "w");
  int64_t skipped = 0;
  for (int r = 0; r < t->nranks; r++) {
    char *name = g_strdup_printf("rank-%d.txt", r), *rel = g_build_filename(argv[2], name, NULL);
    char *path = g_canonicalize_filename(rel, NULL); /* smpirun runs elsewhere */
    g_free(rel);
    FILE *fr = fopen(path, "w");
    skipped += write_rank(t, r, fr);
    fclose(fr);
    fprintf(fh, "node-%d\n", r);
    fprintf(fl, "%s\n", path);
    g_free(path);
    g_free(name);
  }
  fclose(fh);
  fclose(fl);
  if (skipped)
    fprintf(stderr, "bench_simgrid_ti: %" G_GINT64_FORMAT " records without a SimGrid action\n", skipped);
  g_free(hosts);
  g_free(list);
  trace_free(t);
  return 0;
}
