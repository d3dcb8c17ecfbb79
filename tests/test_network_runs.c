/* test_network_runs.c - whole runs on dragonflies, fat trees and HyperX:
 * pre == post on every bundled trace for every deterministic and keyed
 * routing under every network model (the replay passes each message's
 * route key as the static view does), the routes-taken check on the
 * adaptive ones (ugal, min-adaptive), and every mapping strategy either
 * runs on them, on graph distances, or refuses with one line. */
#include "mapping/strategy.h"
#include "traces/synth.h"
#include "sim/run.h"
#include "testutil.h"

static const char *const traces[] = {
  "traces/data/stencil3d-64", "traces/data/alltoall-16", "traces/data/ring-8",
  "traces/data/cg-16",
};

/* At least 64 nodes each, several groups, subtrees and lines. */
static const char *const platforms[] = {
  "dragonfly:g=5:a=4:p=4:h=2:routing=minimal", "dragonfly:g=5:a=4:p=4:h=2:routing=valiant",
  "dragonfly:g=9:a=4:p=2:h=2:arrangement=circulant:routing=valiant:seed=5",
  "fattree:k=4:n=3:routing=dmodk", "fattree:k=4:n=3:routing=smodk",
  "fattree:k=4:n=3:routing=random-up", "fattree:k=4:n=3:routing=ecmp",
  "fattree:2;8,12;1,4;1,2:routing=random-up", "hyperx:4x4x2:p=2",
  "dragonfly:g=5:a=4:p=4:h=2:routing=ugal", "hyperx:4x4x2:p=2:routing=min-adaptive",
};

Test(network_runs, pre_equals_post_every_trace_routing_model, .timeout = 600)
{
  for (size_t i = 0; i < G_N_ELEMENTS(traces); i++) {
    g_autofree char *path = tu_src(traces[i]);
    GError *e = NULL;
    trace *t = trace_read_otf2(path, &e);
    cr_assert_not_null(t, "%s: %s", traces[i], e ? e->message : "");
    gboolean with_colls = FALSE;
    commgraph *g = run_traffic_graph(t, NULL, &with_colls, &e);
    cr_assert_not_null(g, "%s", traces[i]);
    for (size_t k = 0; k < G_N_ELEMENTS(platforms); k++) {
      platform *p = tu_platform(platforms[k]);
      for (int m = 0; netmodel_registry[m]; m++) {
        run_inputs in = { .p = p, .g = g, .g_collectives = with_colls, .t = t };
        run_spec spec;
        run_spec_init(&spec);
        spec.model = netmodel_registry[m];
        spec.strategy = "random";
        run_result *res = run_cell(&in, &spec, &e);
        cr_assert_not_null(res, "%s %s %s: %s", traces[i], platforms[k], spec.model->name,
                           e ? e->message : "");
        cr_assert_eq(res->r->stuck, 0, "%s %s %s: stuck", traces[i], platforms[k],
                     spec.model->name);
        cr_assert_eq(res->check, run_checks_routes(p) ? RUN_CHECK_ROUTES_TAKEN
                                                      : RUN_CHECK_PRE_POST);
        cr_assert_eq(res->mismatch, -1, "%s %s %s: the %s check failed", traces[i],
                     platforms[k], spec.model->name, run_check_name(res->check));
        run_result_free(res);
      }
      platform_free(p);
    }
    commgraph_free(g);
    trace_free(t);
  }
}

/* Valiant routes the same traffic over longer paths than minimal on
 * average, and keyed routings spread one node pair's rank pairs: four
 * ranks per node all sending to the node of four others cross more than
 * one global link under Valiant. */
Test(network_runs, valiant_spreads_rank_pairs)
{
  platform *min = tu_platform_with("dragonfly:g=6:a=4:p=1:h=2:routing=minimal", NULL, 4);
  platform *val = tu_platform_with("dragonfly:g=6:a=4:p=1:h=2:routing=valiant", NULL, 4);
  /* ranks 0-3 on node 0 (group 0) send to ranks 20-23 on node 5 (group 1) */
  int src[16], dst[16];
  int64_t bytes[16];
  for (int i = 0; i < 16; i++) {
    src[i] = i / 4;
    dst[i] = 20 + i % 4;
    bytes[i] = 1000;
  }
  commgraph *g = commgraph_from_edges(24, 16, src, dst, bytes, NULL);
  GError *e = NULL;
  mapping *m = mapping_identity(min, 24, &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  metrics *a = metrics_compute(g, min, m), *b = metrics_compute(g, val, m);
  int globals_a = 0, globals_b = 0;
  for (int l = 0; l < min->topo->nlinks; l++) {
    globals_a += min->topo->link_class[l] == 3 && a->link_bytes[l] > 0;
    globals_b += val->topo->link_class[l] == 3 && b->link_bytes[l] > 0;
  }
  cr_assert_eq(globals_a, 1, "minimal: one cable of group 0 to group 1");
  cr_assert_gt(globals_b, 2, "valiant: rank pairs through several groups");
  cr_assert_gt(b->hop_bytes, a->hop_bytes);
  metrics_free(a);
  metrics_free(b);
  mapping_free(m);
  commgraph_free(g);
  platform_free(min);
  platform_free(val);
}

/* Every strategy of the registry places the stencil on a dragonfly, a fat
 * tree and a HyperX, or says in one line why it cannot. */
Test(network_runs, every_strategy_runs_or_refuses, .timeout = 600)
{
  g_autofree char *path = tu_src("traces/data/stencil3d-64");
  GError *e = NULL;
  trace *t = trace_read_otf2(path, &e);
  cr_assert_not_null(t);
  gboolean with_colls;
  commgraph *g = run_traffic_graph(t, NULL, &with_colls, &e);
  g_autofree char *slurm = tu_src("tests/data/slurm/tree.conf");
  const char *const specs[] = { "dragonfly:g=5:a=4:p=4:h=2", "fattree:k=4:n=3",
                                "hyperx:4x4x2:p=2", slurm };
  int total = 0, coordinates = 0;
  for (int s = 0; strategy_registry[s]; s++) {
    total++;
    coordinates += strategy_registry[s]->needs_coordinates;
  }
  for (size_t k = 0; k < G_N_ELEMENTS(specs); k++) {
    /* the Slurm tree: 11 nodes, 8 cores each */
    platform *p = tu_platform_with(specs[k], NULL, k == 3 ? 8 : 0);
    int ran = 0;
    for (int s = 0; strategy_registry[s]; s++) {
      run_inputs in = { .p = p, .g = g, .g_collectives = with_colls, .t = t };
      run_spec spec;
      run_spec_init(&spec);
      spec.strategy = strategy_registry[s]->name;
      spec.model = netmodel_find("analytic");
      run_result *res = run_cell(&in, &spec, &e);
      if (!res) {
        cr_assert_not_null(e, "%s on %s failed without a message", spec.strategy, specs[k]);
        cr_assert(!strchr(e->message, '\n'), "%s: %s", spec.strategy, e->message);
        cr_assert(strstr(e->message, "without") && strstr(e->message, "expected"),
                  "%s on %s: '%s'", spec.strategy, specs[k], e->message);
        g_clear_error(&e);
        continue;
      }
      for (int r = 0; r < res->m->ntasks; r++)
        cr_assert(!topo_is_switch(p->topo, res->m->node[r]), "%s put rank %d on a switch",
                  spec.strategy, r);
      cr_assert_eq(res->mismatch, -1, "%s on %s", spec.strategy, specs[k]);
      ran++;
      run_result_free(res);
    }
    /* every strategy on the three with coordinates (their hierarchy's
     * grid), all but those needing coordinates on the tree */
    cr_assert_eq(ran, k == 3 ? total - coordinates : total, "%s: %d of %d strategies ran",
                 specs[k], ran, total);
    platform_free(p);
  }
  commgraph_free(g);
  trace_free(t);
}

/* Route lengths per class on an all-to-all: every route crosses one node
 * up and one node down link; on a dragonfly minimal routes cross one
 * global link exactly between groups (the inter-group bytes) and Valiant
 * routes two; on a k-ary n-tree the bytes climbing past level l are those
 * of node pairs whose labels differ above digit l. */
Test(network_runs, route_lengths_by_class)
{
  int n = 64, ne = n * (n - 1), k = 0;
  int *src = g_new(int, ne), *dst = g_new(int, ne);
  int64_t *bytes = g_new(int64_t, ne);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != j)
        src[k] = i, dst[k] = j, bytes[k++] = 100 + i;
  commgraph *g = commgraph_from_edges(n, ne, src, dst, bytes, NULL);
  GError *e = NULL;
  static const char *const specs[] = { "dragonfly:g=4:a=4:p=4:h=1:routing=minimal",
                                       "dragonfly:g=4:a=4:p=4:h=1:routing=valiant",
                                       "fattree:k=4:n=3:routing=random-up" };
  for (size_t s = 0; s < G_N_ELEMENTS(specs); s++) {
    platform *p = tu_platform(specs[s]);
    mapping *m = mapping_identity(p, n, &e);
    metrics *x = metrics_compute(g, p, m);
    const int K = METRICS_CLASS_HOPS + 1;
    int64_t total = commgraph_total_bytes(g), inter = 0;
    for (int e2 = 0; e2 < ne; e2++)
      inter += src[e2] / 16 != dst[e2] / 16 ? bytes[e2] : 0;
    cr_assert_eq(x->class_bytes[0 * K + 1], total, "%s: node up once", specs[s]);
    cr_assert_eq(x->class_bytes[1 * K + 1], total, "%s: node down once", specs[s]);
    if (s < 2) {
      cr_assert_eq(x->inter_group_bytes, inter);
      cr_assert_eq(x->class_bytes[3 * K + (s == 0 ? 1 : 2)], inter, "%s: global hops", specs[s]);
      cr_assert_eq(x->class_bytes[3 * K + 0], total - inter);
    } else {
      for (int l = 1; l < 3; l++) {
        int64_t climb = 0;
        int span = l == 1 ? 4 : 16; /* nodes under one level-l switch */
        for (int e2 = 0; e2 < ne; e2++)
          climb += src[e2] / span != dst[e2] / span ? bytes[e2] : 0;
        cr_assert_eq(x->class_bytes[(2 * l) * K + 1], climb, "level %d up", l + 1);
        cr_assert_eq(x->class_bytes[(2 * l + 1) * K + 1], climb, "level %d down", l + 1);
      }
    }
    metrics_free(x);
    mapping_free(m);
    platform_free(p);
  }
  commgraph_free(g);
  g_free(src);
  g_free(dst);
  g_free(bytes);
}

/* The packet model with finite buffers finishes adversarial patterns on
 * every routing: the group shift (K = nodes per group), bit complement and
 * a large all-to-all, whose Valiant routes on a dragonfly deadlocked in
 * one buffer per link (channel dependencies local -> global -> local
 * around the groups) and finish with a channel per global hop, which
 * UGAL's Valiant paths share; HyperX min-adaptive, whose dimension
 * orders close cycles in one channel, with a channel per switch hop. */
Test(network_runs, packet_buffers_never_deadlock, .timeout = 600)
{
  static const struct { const char *pattern; int ranks; int64_t shift, bytes; } traffic[] = {
    { "shift", 72, 8, 262144 }, { "alltoall", 72, 0, 65536 }, { "bitcomp", 64, 0, 262144 },
  };
  static const char *const specs[] = {
    "configs/sst-merlin-dragon72.ini", "dragonfly:g=9:a=4:p=2:h=2:routing=valiant",
    "dragonfly:g=9:a=4:p=2:h=2:arrangement=relative:routing=valiant",
    "dragonfly:g=9:a=4:p=2:h=2:routing=ugal",
    "dragonfly:g=9:a=4:p=2:h=2:arrangement=relative:routing=ugal",
    "fattree:k=4:n=3:routing=dmodk", "fattree:k=4:n=3:routing=random-up",
    "fattree:k=4:n=3:routing=smodk", "fattree:2;8,9;1,4;1,2:routing=ecmp", "hyperx:6x4x3:p=1",
    "hyperx:6x4x3:p=1:routing=min-adaptive",
  };
  const struct netmodel_ops *buf = netmodel_find("packet-buf");
  for (size_t i = 0; i < G_N_ELEMENTS(traffic); i++) {
    synth_opts o;
    synth_opts_init(&o);
    o.pattern = traffic[i].pattern;
    o.ranks = traffic[i].ranks;
    o.shift = traffic[i].shift ? traffic[i].shift : 1;
    o.bytes = traffic[i].bytes;
    o.iterations = 2;
    o.nonblocking = TRUE;
    GError *e = NULL;
    trace *t = synth_build(&o, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    gboolean with_colls;
    commgraph *g = run_traffic_graph(t, NULL, &with_colls, &e);
    for (size_t k = 0; k < G_N_ELEMENTS(specs); k++) {
      g_autofree char *path = g_str_has_prefix(specs[k], "configs/") ? tu_src(specs[k])
                                                                     : g_strdup(specs[k]);
      platform *p = tu_platform(path);
      int nodes = topo_compute_nodes(p->topo);
      cr_assert(platform_set_cores(p, (o.ranks + nodes - 1) / nodes, NULL));
      run_inputs in = { .p = p, .g = g, .g_collectives = with_colls, .t = t };
      run_spec spec;
      run_spec_init(&spec);
      spec.model = buf;
      run_result *res = run_cell(&in, &spec, &e);
      cr_assert_not_null(res, "%s on %s: %s", o.pattern, specs[k], e ? e->message : "");
      cr_assert_eq(res->r->stuck, 0, "%s on %s: the network deadlocked", o.pattern, specs[k]);
      cr_assert_eq(res->mismatch, -1, "%s on %s", o.pattern, specs[k]);
      run_result_free(res);
      platform_free(p);
    }
    commgraph_free(g);
    trace_free(t);
  }
}
