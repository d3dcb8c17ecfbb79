/* fuzz_routed_replay.c - a small platform shorthand (first line; further
 * lines GROUP.KEY=VALUE overrides, as fuzz_shorthand.c) routed and
 * replayed under every routing of its family: every pair's route a
 * connected walk from source to destination, then a ring of up to 8 ranks
 * (2 iterations, 4 KiB) replayed by every network model, each run passing
 * its own pre/post or routes-taken check. A check that fails on this
 * correct input (issue 35 item 5: a single adaptive candidate) aborts.
 * Platforms above 64 nodes or 512 links are skipped: the harness looks
 * for wrong routes and replays, not for big ones (fuzz_shorthand does). */
#include "fuzz.h"
#include "models/model.h"
#include "routing/family/family.h"
#include "routing/platform.h"
#include "sim/run.h"
#include "traces/synth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walks every route of p's routing: each a chain of links from s to d. */
static void check_routes(const platform *p)
{
  const topo *t = p->topo;
  int hosts = t->nnodes - t->nswitches; /* switches come last */
  for (int s = 0; s < hosts; s++)
    for (int d = 0; d < hosts; d++) {
      route_iter it;
      int l, cur = s, hops = 0;
      route_begin(&it, p->router, s, d, (uint64_t)s << 32 | (uint32_t)d);
      while (route_next(&it, &l)) {
        if (l < 0 || l >= t->nlinks || t->link_src[l] != cur || ++hops > t->nlinks)
          abort();
        cur = t->link_dst[l];
      }
      if (cur != d)
        abort();
    }
}

static void replay_all_models(const platform *p, const trace *tr, const commgraph *g,
                              gboolean colls)
{
  for (int m = 0; netmodel_registry[m]; m++) {
    run_inputs in = { .p = p, .g = g, .g_collectives = colls, .t = tr };
    run_spec spec;
    run_spec_init(&spec);
    spec.model = netmodel_registry[m];
    spec.opts.compute_scale = 0;
    GError *e = NULL;
    run_result *res = run_cell(&in, &spec, &e);
    if (res && !res->r->stuck && res->mismatch >= 0) {
      g_autofree char *what = run_mismatch_text(res, p);
      fprintf(stderr, "%s [%s] model %s: check failed: %s\n", p->name,
              router_algo_name(p->router), spec.model->name, what);
      abort();
    }
    run_result_free(res);
    g_clear_error(&e);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_string(data, size);
  char **lines = g_strsplit(text, "\n", 16);
  guint n = g_strv_length(lines);
  if (n > 1 && !*lines[n - 1]) { /* a final newline ends the last line */
    g_free(lines[n - 1]);
    lines[n - 1] = NULL;
  }
  GError *e = NULL;
  platform *p = lines[0] && strchr(lines[0], ':') && !strchr(lines[0], '/')
                    ? platform_load_with(lines[0], (const char *const *)lines + 1, &e)
                    : NULL;
  g_clear_error(&e);
  if (p && p->topo->nnodes <= 64 && p->topo->nlinks <= 512 && p->nalloc >= 2) {
    synth_opts o;
    synth_opts_init(&o);
    o.pattern = "ring";
    o.ranks = MIN(p->nalloc * MAX(p->cores_per_node, 1), 8);
    o.bytes = 4096;
    o.iterations = 2;
    o.nonblocking = TRUE;
    o.gap_s = 0;
    trace *tr = synth_build(&o, &e);
    g_clear_error(&e);
    gboolean colls = FALSE;
    commgraph *g = tr ? run_traffic_graph(tr, NULL, &colls, NULL) : NULL;
    const family_ops *fam = family_of(p->topo);
    for (int i = 0; g && fam && i < fam->nroutings; i++) {
      const family_routing *row = &fam->routings[i];
      if ((row->flags & ROUTE_FLAG_ALIAS) || !router_set_algo(p->router, row->name, &e)) {
        g_clear_error(&e);
        continue;
      }
      check_routes(p);
      replay_all_models(p, tr, g, colls);
    }
    commgraph_free(g);
    trace_free(tr);
  }
  platform_free(p);
  g_strfreev(lines);
  g_free(text);
  return 0;
}
