/* test_traffic.c - static metrics and the replay count the same traffic:
 * on every trace of the repository, under every network model, the
 * pre/post check holds with the collectives' messages included (the
 * default), and they are really there: a trace with collectives puts
 * collective bytes on the links, and "none" leaves exactly the p2p view. */
#include "sim/run.h"
#include "testutil.h"

static const char *const traces[] = {
  "traces/data/stencil3d-64", "traces/data/alltoall-16", "traces/data/ring-8",
  "traces/data/cg-16", "tests/data/traces/casita-10_scorep_mpi_tags",
  "tests/data/traces/casita-2_jacobi_blame_cpu_015", "tests/data/traces/casita-4_mpi_ls_barr",
  "tests/data/traces/pipit-ping-pong-otf2", "tests/data/traces/tracer-stencil4d-32",
};

Test(traffic, pre_equals_post_with_collectives_every_model, .timeout = 600)
{
  platform *p = tu_platform("haec:4x4x4");
  for (size_t i = 0; i < G_N_ELEMENTS(traces); i++) {
    g_autofree char *path = tu_src(traces[i]);
    GError *e = NULL;
    trace *t = trace_read_otf2(path, &e);
    cr_assert_not_null(t, "%s: %s", traces[i], e ? e->message : "");
    trace_summary s;
    trace_summarize(t, &s);
    gboolean with_colls = FALSE;
    commgraph *g = run_traffic_graph(t, NULL, &with_colls, &e);
    commgraph *p2p = run_traffic_graph(t, "none", &with_colls, NULL);
    cr_assert_not(with_colls, "none: p2p only");
    cr_assert_not_null(g, "%s", traces[i]);
    for (int m = 0; netmodel_registry[m]; m++) {
      run_inputs in = { .p = p, .g = g, .g_collectives = TRUE, .t = t };
      run_spec spec;
      run_spec_init(&spec);
      spec.model = netmodel_registry[m];
      spec.strategy = "random";
      run_result *res = run_cell(&in, &spec, &e);
      cr_assert_not_null(res, "%s/%s: %s", traces[i], spec.model->name, e ? e->message : "");
      cr_assert_eq(res->r->stuck, 0, "%s", traces[i]);
      cr_assert_eq(res->mismatch, -1, "%s/%s: pre and post differ", traces[i],
                   spec.model->name);
      int64_t coll_on_links = 0;
      for (int l = 0; l < res->r->nlinks; l++)
        coll_on_links += res->r->coll_link_bytes[l];
      if (s.collective_calls && res->r->coll_bytes)
        cr_assert_gt(coll_on_links, 0, "%s: collective bytes reach the links", traces[i]);
      /* the p2p view: same mapping, no collective edges */
      metrics *x = metrics_compute(p2p, p, res->m);
      cr_assert_eq(res->pre->hop_bytes - x->hop_bytes, res->r->coll_hop_bytes,
                   "%s/%s: the collective part of hop_bytes is what the replay sent",
                   traces[i], spec.model->name);
      metrics_free(x);
      run_result_free(res);
    }
    commgraph_free(p2p);
    commgraph_free(g);
    trace_free(t);
  }
  platform_free(p);
}
