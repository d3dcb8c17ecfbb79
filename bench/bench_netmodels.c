/* bench_netmodels.c - cost and agreement of the network models.
 *
 * Replays in-memory traces (traces/synth.h, or built here with the trace
 * API) through sim/replay.h with each model, identity mapping, computation
 * gaps off (compute_scale 0), and prints markdown tables for bench/README.md:
 *   speed    engine events/s and wall time per simulated message on 3D
 *            stencils (512 and 4096 ranks) and all-to-alls (64..512 ranks);
 *   compare  flow vs packet makespans on bandwidth-bound stencil and
 *            all-to-all traces;
 *   model    the models alone (no replay) on a 4096-node torus stencil;
 *   pairing  bhatele2010 Section 5.2 (Figure 5.3): pairs along Z on an
 *            8x8x16 torus, 1 hop, 2 hops, and mostly 1 hop with one pair 8
 *            hops apart, message sizes 4 B .. 1 MB, all models.
 * Wall times are measured around replay_run() only (trace synthesis and
 * platform loading excluded). Not a test (nothing is asserted), see tests/test_{flow,packet,netmodels}.c.
 */
#include <stdio.h>
#include <string.h>

#include "mapping/mapping.h"
#include "sim/replay.h"
#include "traces/synth.h"

typedef struct run_out {
  double wall_s, makespan_s;
  uint64_t events;
  int64_t messages;
} run_out;

static gboolean run(const trace *t, const platform *p, const char *model, run_out *o)
{
  GError *e = NULL;
  mapping *m = mapping_identity(p, t->nranks, &e);
  replay_opts opts;
  replay_opts_init(&opts);
  opts.compute_scale = 0;
  int64_t t0 = g_get_monotonic_time();
  replay_result *r = m ? replay_run(t, p, m, netmodel_find(model), &opts, &e) : NULL;
  o->wall_s = (double)(g_get_monotonic_time() - t0) * 1e-6;
  mapping_free(m);
  if (!r) {
    fprintf(stderr, "%s: %s\n", model, e ? e->message : "?");
    g_clear_error(&e);
    return FALSE;
  }
  o->makespan_s = (double)r->makespan_ps * 1e-12;
  o->events = r->engine_events;
  o->messages = r->p2p_messages + r->coll_messages + r->ctrl_messages;
  if (r->stuck)
    fprintf(stderr, "%s: %d ranks stuck\n", model, r->stuck);
  replay_result_free(r);
  return TRUE;
}

static trace *synth(const char *pattern, int ranks, const int *dims, int64_t bytes, int iters)
{
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = pattern;
  o.ranks = ranks;
  if (dims)
    memcpy(o.dims, dims, 3 * sizeof(int));
  o.periodic = TRUE;
  o.bytes = bytes;
  o.iterations = iters;
  o.nonblocking = TRUE;
  o.gap_s = 0;
  GError *e = NULL;
  trace *t = synth_build(&o, &e);
  if (!t)
    g_error("synth %s: %s", pattern, e->message);
  return t;
}

static platform *load(const char *spec)
{
  GError *e = NULL;
  platform *p = platform_load(spec, &e);
  if (!p)
    g_error("%s: %s", spec, e->message);
  return p;
}

/* ---- speed ---------------------------------------------------------- */

typedef struct speed_case {
  const char *pattern, *platform;
  int ranks, dims[3];
  int64_t bytes;
  int iters;
  const char *models; /* comma list */
} speed_case;

static void bench_speed(void)
{
  const speed_case cases[] = {
    { "stencil3d", "torus:8x8x8", 512, { 8, 8, 8 }, 65536, 10, "analytic,flow,packet,packet-vct" },
    { "stencil3d", "torus:16x16x16", 4096, { 16, 16, 16 }, 65536, 10,
      "analytic,flow,packet,packet-vct" },
    { "stencil3d", "torus:16x16x16", 4096, { 16, 16, 16 }, 65536, 40, "analytic,flow" },
    { "alltoall", "torus:4x4x4", 64, { 0 }, 65536, 1, "analytic,flow,packet,packet-vct" },
    { "alltoall", "torus:8x8x4", 256, { 0 }, 65536, 1, "analytic,flow,packet,packet-vct" },
    { "alltoall", "torus:8x8x8", 512, { 0 }, 65536, 1, "analytic,flow,packet" },
  };
  printf("| pattern | ranks | platform | bytes x iters | model | messages | engine events | wall s "
         "| events/s | us/message |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const speed_case *c = &cases[i];
    g_autoptr(platform) p = load(c->platform);
    trace *t = synth(c->pattern, c->ranks, c->dims[0] ? c->dims : NULL, c->bytes, c->iters);
    g_auto(GStrv) models = g_strsplit(c->models, ",", -1);
    for (int k = 0; models[k]; k++) {
      run_out o;
      if (!run(t, p, models[k], &o))
        continue;
      printf("| %s | %d | %s | %" G_GINT64_FORMAT " x %d | %s | %" G_GINT64_FORMAT " | %" G_GUINT64_FORMAT
             " | %.2f | %.2fM | %.2f |\n",
             c->pattern, c->ranks, c->platform, c->bytes, c->iters, models[k], o.messages,
             o.events, o.wall_s, (double)o.events / o.wall_s * 1e-6,
             o.wall_s * 1e6 / (double)MAX(o.messages, 1));
      fflush(stdout);
    }
    trace_free(t);
  }
}

/* ---- compare -------------------------------------------------------- */

static void bench_compare(void)
{
  const speed_case cases[] = {
    { "stencil3d", "torus:4x4x4", 64, { 4, 4, 4 }, 1 << 20, 4, NULL },
    { "stencil3d", "torus:8x8x8", 512, { 8, 8, 8 }, 1 << 20, 2, NULL },
    { "stencil3d", "mesh:4x4x4", 64, { 4, 4, 4 }, 1 << 20, 4, NULL },
    { "stencil3d", "torus:4x4x4", 64, { 2, 4, 8 }, 1 << 20, 4, NULL },
    { "alltoall", "torus:4x4x4", 64, { 0 }, 1 << 18, 1, NULL },
    { "alltoall", "mesh:4x4x4", 64, { 0 }, 1 << 18, 1, NULL },
    { "alltoall", "torus:8x8x4", 256, { 0 }, 1 << 16, 1, NULL },
  };
  const char *models[] = { "analytic", "flow", "packet", "packet-vct" };
  printf("| pattern | platform | grid | bytes x iters | analytic s | flow s | packet s | packet-vct s "
         "| flow/packet - 1 |\n|---|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const speed_case *c = &cases[i];
    g_autoptr(platform) p = load(c->platform);
    trace *t = synth(c->pattern, c->ranks, c->dims[0] ? c->dims : NULL, c->bytes, c->iters);
    double ms[4] = { 0 };
    for (int k = 0; k < 4; k++) {
      run_out o;
      if (run(t, p, models[k], &o))
        ms[k] = o.makespan_s;
    }
    char grid[32] = "-";
    if (c->dims[0])
      g_snprintf(grid, sizeof grid, "%dx%dx%d", c->dims[0], c->dims[1], c->dims[2]);
    printf("| %s | %s | %s | %" G_GINT64_FORMAT " x %d | %.6g | %.6g | %.6g | %.6g | %+.2f%% |\n",
           c->pattern, c->platform, grid, c->bytes, c->iters, ms[0], ms[1], ms[2], ms[3],
           (ms[1] / ms[2] - 1) * 100);
    fflush(stdout);
    trace_free(t);
  }
}

/* ---- pairing (bhatele2010 Section 5.2, Figure 5.3) ------------------- */

/* Partner of Z coordinate z (ring of 16) in each mode. */
static int partner_z(int mode, int z)
{
  /* mode 2: (0,8) 8 hops, (7,9) 2 hops, the rest adjacent pairs: avg 2 */
  static const int far[16] = { 8, 2, 1, 4, 3, 6, 5, 9, 0, 7, 11, 10, 13, 12, 15, 14 };
  switch (mode) {
  case 0:
    return z ^ 1;                  /* 1 hop */
  case 1:
    return (z & ~3) | ((z + 2) & 3); /* (0,2) (1,3) (4,6) ...: 2 hops */
  default:
    return far[z];
  }
}

/* Every rank (node x + 8 (y + 8 z)) pairs with the rank at the partner Z
 * coordinate: MPI_Irecv, MPI_Send, MPI_Wait, `iters` times. */
static trace *pairing_trace(int mode, int64_t bytes, int iters)
{
  trace *t = trace_new(1024);
  uint32_t rg[3] = { trace_add_region(t, "MPI_Irecv"), trace_add_region(t, "MPI_Send"),
                     trace_add_region(t, "MPI_Wait") };
  for (int r = 0; r < 1024; r++) {
    int z = r / 64, peer = r % 64 + 64 * partner_z(mode, z);
    int64_t clock = 0;
    for (int i = 0; i < iters; i++) {
      trace_event ev[] = {
        { .kind = TRACE_ENTER, .region = rg[0] },
        { .kind = TRACE_IRECV_REQUEST, .peer = -1, .request = (uint64_t)i, .comm = t->world },
        { .kind = TRACE_LEAVE, .region = rg[0] },
        { .kind = TRACE_ENTER, .region = rg[1] },
        { .kind = TRACE_SEND, .peer = peer, .bytes = bytes, .comm = t->world },
        { .kind = TRACE_LEAVE, .region = rg[1] },
        { .kind = TRACE_ENTER, .region = rg[2] },
        { .kind = TRACE_IRECV, .peer = peer, .bytes = bytes, .request = (uint64_t)i, .comm = t->world },
        { .kind = TRACE_LEAVE, .region = rg[2] },
      };
      for (size_t k = 0; k < G_N_ELEMENTS(ev); k++) {
        ev[k].time = clock;
        clock += 10000;
        trace_push(t, r, &ev[k]);
      }
    }
    t->duration_ps = MAX(t->duration_ps, clock);
  }
  return t;
}

static void bench_pairing(const char *spec, gboolean write)
{
  const char *modes[] = { "avg 1 max 1", "avg 2 max 2", "avg 2 max 8" };
  const char *models[] = { "analytic", "flow", "packet-vct", "packet" };
  const int iters = 4;
  g_autoptr(platform) p = load(spec);
  printf("Time per iteration (us) on %s, 1024 ranks, %d iterations, identity mapping\n\n", spec,
         iters);
  printf("| bytes |");
  for (int m = 0; m < 3; m++)
    for (int k = 0; k < 4; k++)
      printf(" %s %s |", models[k], modes[m]);
  printf("\n|---|");
  for (int i = 0; i < 12; i++)
    printf("---|");
  printf("\n");
  for (int64_t b = 4; b <= 1 << 20; b *= 4) {
    printf("| %" G_GINT64_FORMAT " |", b);
    for (int m = 0; m < 3; m++) {
      trace *t = pairing_trace(m, b, iters);
      if (write && b == 1024) {
        char *dir = g_strdup_printf("pairing-mode%d-1024B", m);
        GError *e = NULL;
        if (!trace_write_otf2(t, dir, NULL, &e))
          fprintf(stderr, "%s: %s\n", dir, e->message);
        g_clear_error(&e);
        g_free(dir);
      }
      for (int k = 0; k < 4; k++) {
        run_out o;
        if (run(t, p, models[k], &o))
          printf(" %.4g |", o.makespan_s * 1e6 / iters);
        else
          printf(" - |");
      }
      trace_free(t);
    }
    printf("\n");
    fflush(stdout);
  }
}

/* ---- model only (no replay) ----------------------------------------- */

static void count_done(void *ctx, engine *e, const engine_event *ev)
{
  (*(int64_t *)ctx)++;
}

/* Drives a model directly: on a 16x16x16 torus every node sends `bytes`
 * to its 6 neighbours, `iters` times, iteration i injected at i x `gap`
 * ps (gap 0: all at once). Isolates model + engine from the replay. */
static void model_only(const char *name, int64_t bytes, int iters, int64_t gap)
{
  g_autoptr(platform) p = load("torus:16x16x16");
  engine *e = engine_new(0);
  int64_t done = 0;
  uint32_t kind = engine_register(e, count_done, &done);
  netmodel *m = netmodel_new(netmodel_find(name), p, e, kind, NULL);
  int64_t t0 = g_get_monotonic_time();
  for (int i = 0; i < iters; i++)
    for (int u = 0; u < p->topo->nnodes; u++)
      for (int d = 0; d < 3; d++)
        for (int dir = 0; dir < 2; dir++) {
          int l = topo_link(p->topo, u, d, dir);
          netmodel_msg msg = { u, p->topo->link_dst[l], bytes, i * gap, NETMODEL_P2P, 0, 0, 0 };
          netmodel_start(m, &msg);
        }
  uint64_t ev = engine_run(e);
  double wall = (double)(g_get_monotonic_time() - t0) * 1e-6;
  printf("| %s | %" G_GINT64_FORMAT " | %d | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT " | %" G_GUINT64_FORMAT
         " | %.3f | %.2fM | %.3f |\n",
         name, bytes, iters, gap, done, ev, wall, (double)ev / wall * 1e-6, wall * 1e6 / (double)done);
  netmodel_free(m);
  engine_free(e);
}

static void bench_model(void)
{
  printf("| model | bytes | iterations | gap ps | messages | engine events | wall s | events/s "
         "| us/message |\n|---|---|---|---|---|---|---|---|---|\n");
  const char *models[] = { "analytic", "flow", "packet" };
  for (int k = 0; k < 3; k++) {
    model_only(models[k], 65536, 10, 3000000);
    model_only(models[k], 65536, 10, 0);
  }
}

int main(int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "all";
  if (!strcmp(what, "speed") || !strcmp(what, "all"))
    bench_speed();
  if (!strcmp(what, "compare") || !strcmp(what, "all"))
    bench_compare();
  if (!strcmp(what, "model") || !strcmp(what, "all"))
    bench_model();
  if (!strcmp(what, "pairing") || !strcmp(what, "all"))
    bench_pairing(argc > 2 ? argv[2] : "torus:8x8x16", argc > 3 && !strcmp(argv[3], "--write"));
  return 0;
}
