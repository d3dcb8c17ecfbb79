/* test_adaptive.c - adaptive routings (dragonfly ugal, HyperX
 * min-adaptive): every candidate path a connected walk no longer than
 * Valiant's, of the classes its kind crosses; an idle network routed
 * minimally; UGAL moving a group shift off the minimal global link in
 * every contention model; the same bytes from every run and thread; the
 * routes-taken check passing, and failing on a wrong record. */
#include "sim/run.h"
#include "sim/run-private.h"
#include "testutil.h"
#include "traces/synth.h"

/* Walks candidate c of s -> d, checking that the links chain from s to d
 * through switches only; counts hops per link class into per_class and
 * returns the hop count. */
static int walk_candidate(const platform *p, int s, int d, uint64_t key, int c, int *per_class,
                          int *links)
{
  const topo *t = p->topo;
  route_iter it;
  int l, h = 0, cur = s;
  route_begin_candidate(&it, p->router, s, d, key, c);
  while (route_next(&it, &l)) {
    cr_assert_eq(t->link_src[l], cur, "%s: candidate %d of %d->%d broken at hop %d", p->name, c,
                 s, d, h);
    cur = t->link_dst[l];
    if (cur != d)
      cr_assert(topo_is_switch(t, cur), "%s: %d->%d passes node %d", p->name, s, d, cur);
    per_class[t->link_class[l]]++;
    cr_assert(h < ROUTE_FAMILY_MAX_HOPS, "%s: candidate %d of %d->%d loops", p->name, c, s, d);
    if (links)
      links[h] = l;
    h++;
  }
  cr_assert_eq(cur, d, "%s: candidate %d of %d->%d ends at %d", p->name, c, s, d, cur);
  return h;
}

/* UGAL's candidates: 0 the minimal route (route_hops long, one global
 * link between groups), the others Valiant's (two global links between
 * groups through a third, at most 7 links: up, local, global, local,
 * global, local, down; fewer than the minimal route when both global
 * cables start and end where the route needs them), all of them within a
 * group the minimal one. */
Test(adaptive, ugal_candidates_valid_and_at_most_valiant)
{
  static const char *const specs[] = {
    "dragonfly:g=9:a=4:p=2:h=2:routing=ugal",
    "dragonfly:g=9:a=4:p=2:h=2:arrangement=relative:routing=ugal",
    "dragonfly:g=5:a=4:p=2:h=1:arrangement=circulant:routing=ugal",
    "dragonfly:g=4:a=4:p=1:h=2:routing=ugal", /* 2 cables per pair of groups */
  };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    platform *p = tu_platform(specs[i]);
    const topo *t = p->topo;
    int n = topo_compute_nodes(t), nc = route_candidates(p->router);
    cr_assert_eq(nc, 1 + ROUTE_UGAL_VALIANT);
    cr_assert(p->router->flags & ROUTE_FLAG_ADAPTIVE);
    for (int s = 0; s < n; s++)
      for (int d = 0; d < n; d++) {
        if (s == d)
          continue;
        gboolean apart = topo_group_of(t, s) != topo_group_of(t, d);
        for (int c = 0; c < nc; c++) {
          int cls[4] = { 0 };
          int h = walk_candidate(p, s, d, route_key(s, d), c, cls, NULL);
          cr_assert_eq(cls[TOPO_DF_NODE_UP], 1);
          cr_assert_eq(cls[TOPO_DF_NODE_DOWN], 1);
          cr_assert(h >= 2 + apart && h <= 7, "%s %d->%d candidate %d: %d hops", specs[i], s,
                    d, c, h);
          if (c == 0 || !apart) {
            cr_assert_eq(h, route_hops(p->router, s, d), "%s %d->%d", specs[i], s, d);
            cr_assert_eq(cls[TOPO_DF_GLOBAL], apart);
          } else {
            cr_assert_eq(cls[TOPO_DF_GLOBAL], 2, "%s %d->%d candidate %d", specs[i], s, d, c);
          }
        }
      }
    platform_free(p);
  }
}

/* min-adaptive's candidate c routes the differing dimensions in the order
 * c, c+1, ... (mod the dimensions): every candidate minimal, and the
 * candidates of a pair differing in two dimensions take different links. */
Test(adaptive, hyperx_candidates_are_the_rotations)
{
  platform *p = tu_platform("hyperx:4x3x2:p=2:routing=min-adaptive");
  const topo *t = p->topo;
  int n = topo_compute_nodes(t), nc = route_candidates(p->router);
  cr_assert_eq(nc, 3);
  for (int s = 0; s < n; s++)
    for (int d = 0; d < n; d++) {
      if (s == d)
        continue;
      int firsts[TOPO_MAX_DIMS], nfirst = 0;
      for (int c = 0; c < nc; c++) {
        int cls[2 + TOPO_MAX_DIMS] = { 0 }, links[ROUTE_FAMILY_MAX_HOPS];
        int h = walk_candidate(p, s, d, route_key(s, d), c, cls, links);
        cr_assert_eq(h, route_hops(p->router, s, d), "%d->%d candidate %d", s, d, c);
        /* the dimensions in rotated order: each next one further from c */
        int last = -1;
        for (int k = 1; k + 1 < h; k++) {
          int dim = t->link_class[links[k]] - 2, pos = (dim - c + nc) % nc;
          cr_assert_gt(pos, last, "%d->%d candidate %d: dimension %d out of order", s, d, c, dim);
          last = pos;
        }
        gboolean seen = FALSE;
        for (int k = 0; k < nfirst; k++)
          seen = seen || firsts[k] == links[1];
        if (!seen)
          firsts[nfirst++] = links[1];
      }
      /* as many different first hops as dimensions differ */
      cr_assert_eq(nfirst, route_hops(p->router, s, d) - 2 + (route_hops(p->router, s, d) == 2),
                   "%d->%d", s, d);
    }
  platform_free(p);
}

/* A synthetic trace of one pattern, all messages at once. */
static trace *synth(const char *pattern, int ranks, int64_t shift, int64_t bytes, int iterations)
{
  synth_opts o;
  synth_opts_init(&o);
  o.pattern = pattern;
  o.ranks = ranks;
  o.shift = shift;
  o.bytes = bytes;
  o.iterations = iterations;
  o.nonblocking = TRUE;
  o.gap_s = 0;
  GError *e = NULL;
  trace *t = synth_build(&o, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  return t;
}

static run_result *run(const platform *p, const trace *t, const commgraph *g, const char *model)
{
  run_inputs in = { .p = p, .g = g, .g_collectives = TRUE, .t = t };
  run_spec spec;
  run_spec_init(&spec);
  spec.model = netmodel_find(model);
  spec.opts.compute_scale = 0;
  GError *e = NULL;
  run_result *res = run_cell(&in, &spec, &e);
  cr_assert_not_null(res, "%s on %s: %s", model, p->name, e ? e->message : "");
  cr_assert_eq(res->r->stuck, 0, "%s on %s: stuck", model, p->name);
  return res;
}

static int64_t candidate_bytes(const run_result *res, int c)
{
  GHashTableIter it;
  gpointer v;
  int64_t sum = 0;
  g_hash_table_iter_init(&it, res->r->routes_taken);
  while (g_hash_table_iter_next(&it, NULL, &v))
    sum += ((const netmodel_taken *)v)->bytes[2 * c];
  return sum;
}

/* A lone ping-pong between two groups never sees load: every model takes
 * the minimal path, so the simulated links are pre_minimal's. */
Test(adaptive, idle_network_routes_minimally)
{
  g_autofree char *nodes = tu_write_tmp("nodes", "0 40\n"); /* groups 0 and 5 */
  platform *p = tu_platform_with("dragonfly:g=9:a=4:p=2:h=2:routing=ugal", nodes, 1);
  trace *t = synth("pingpong", 2, 1, 1 << 20, 3);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  for (int m = 0; netmodel_registry[m]; m++) {
    run_result *res = run(p, t, g, netmodel_registry[m]->name);
    cr_assert_eq(res->check, RUN_CHECK_ROUTES_TAKEN);
    cr_assert_eq(res->mismatch, -1, "%s", netmodel_registry[m]->name);
    cr_assert_not_null(res->pre_nonminimal);
    for (int l = 0; l < p->topo->nlinks; l++)
      cr_assert_eq(res->post->link_bytes[l], res->pre->link_bytes[l], "%s link %d",
                   netmodel_registry[m]->name, l);
    cr_assert_eq(candidate_bytes(res, 0), 3 * 2 * (1 << 20));
    cr_assert_gt(res->pre_nonminimal->hop_bytes, res->pre->hop_bytes);
    run_result_free(res);
  }
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
}

/* The group shift (rank r to r + 8, 8 nodes a group) crowds all of a
 * group's bytes onto the one cable to the next group under minimal
 * routing; UGAL sends part of them over Valiant paths in every contention
 * model, loads its busiest link less and finishes sooner. */
Test(adaptive, ugal_moves_group_shift_off_the_minimal_cable, .timeout = 300)
{
  platform *pm = tu_platform("dragonfly:g=9:a=4:p=2:h=2:routing=minimal");
  platform *pu = tu_platform("dragonfly:g=9:a=4:p=2:h=2:routing=ugal");
  trace *t = synth("shift", 72, 8, 1 << 18, 2);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  static const char *const models[] = { "flow", "flow-hd", "packet", "packet-vct", "packet-buf" };
  for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
    run_result *a = run(pm, t, g, models[m]), *b = run(pu, t, g, models[m]);
    cr_assert_eq(b->mismatch, -1, "%s", models[m]);
    int64_t valiant = 0;
    for (int c = 1; c < route_candidates(pu->router); c++)
      valiant += candidate_bytes(b, c);
    cr_assert_gt(valiant, 0, "%s: no byte left the minimal path", models[m]);
    cr_assert_lt(b->post->max_link_bytes, a->post->max_link_bytes, "%s", models[m]);
    cr_assert_lt(b->r->makespan_ps, a->r->makespan_ps, "%s", models[m]);
    run_result_free(a);
    run_result_free(b);
  }
  commgraph_free(g);
  trace_free(t);
  platform_free(pm);
  platform_free(pu);
}

typedef struct job {
  const platform *p;
  const trace *t;
  const commgraph *g;
  const char *model;
  run_result *res;
} job;

static gpointer run_job(gpointer data)
{
  job *j = data;
  j->res = run(j->p, j->t, j->g, j->model);
  return NULL;
}

static void assert_same(const run_result *a, const run_result *b, const char *what)
{
  cr_assert_eq(a->r->makespan_ps, b->r->makespan_ps, "%s", what);
  cr_assert_eq(a->post->hop_bytes, b->post->hop_bytes, "%s", what);
  for (int l = 0; l < a->post->nlinks; l++) {
    cr_assert_eq(a->post->link_bytes[l], b->post->link_bytes[l], "%s link %d", what, l);
    cr_assert_eq(a->post->link_messages[l], b->post->link_messages[l], "%s link %d", what, l);
  }
  for (int c = 0; c < ROUTE_UGAL_VALIANT + 1; c++)
    cr_assert_eq(candidate_bytes(a, c), candidate_bytes(b, c), "%s candidate %d", what, c);
}

/* Decisions depend on the simulation and the seed only: a run alone and
 * two runs at once on two threads give the same makespan, links and
 * routes; another seed draws other Valiant paths. */
Test(adaptive, same_bytes_any_run_and_thread, .timeout = 300)
{
  platform *p = tu_platform("dragonfly:g=9:a=4:p=2:h=2:routing=ugal");
  trace *t = synth("alltoall", 72, 1, 1 << 14, 1);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  static const char *const models[] = { "flow", "packet-buf" };
  for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
    run_result *alone = run(p, t, g, models[m]);
    job jobs[2] = { { p, t, g, models[m], NULL }, { p, t, g, models[m], NULL } };
    GThread *th[2];
    for (int k = 0; k < 2; k++)
      th[k] = g_thread_new("run", run_job, &jobs[k]);
    for (int k = 0; k < 2; k++) {
      g_thread_join(th[k]);
      assert_same(alone, jobs[k].res, models[m]);
      run_result_free(jobs[k].res);
    }
    p->router->seed = 7;
    run_result *other = run(p, t, g, models[m]);
    p->router->seed = 1;
    int differ = 0;
    for (int l = 0; l < p->topo->nlinks; l++)
      differ += other->post->link_bytes[l] != alone->post->link_bytes[l];
    cr_assert_gt(differ, 0, "%s: the seed draws the Valiant paths", models[m]);
    run_result_free(other);
    run_result_free(alone);
  }
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
}

/* The routes-taken check fails when the record says another path than
 * the links carried, or when an injection link differs from pre. */
Test(adaptive, check_finds_a_wrong_route)
{
  platform *p = tu_platform("dragonfly:g=9:a=4:p=2:h=2:routing=ugal");
  trace *t = synth("shift", 72, 8, 1 << 16, 1);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  run_result *res = run(p, t, g, "flow");
  cr_assert_eq(res->mismatch, -1);
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init(&it, res->r->routes_taken);
  netmodel_taken *u = NULL;
  while (g_hash_table_iter_next(&it, NULL, &v) && !u)
    if (((netmodel_taken *)v)->bytes[0] > 0)
      u = v;
  cr_assert_not_null(u);
  int64_t b0 = u->bytes[0], b2 = u->bytes[2];
  u->bytes[2] += b0; /* claim the minimal bytes went Valiant's way */
  u->bytes[0] = 0;
  run_check_routes_taken(res, p, TRUE);
  cr_assert_geq(res->mismatch, 0);
  cr_assert(!res->mismatch_static);
  g_autofree char *text = run_mismatch_text(res, p);
  cr_assert(strstr(text, "on the routes taken"), "%s", text);
  u->bytes[0] = b0;
  u->bytes[2] = b2;
  run_check_routes_taken(res, p, TRUE);
  cr_assert_eq(res->mismatch, -1);
  res->post->link_bytes[u->src]++; /* the node-up link of the record's source */
  run_check_routes_taken(res, p, TRUE);
  cr_assert_eq(res->mismatch, u->src);
  cr_assert(res->mismatch_static);
  run_result_free(res);
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
}

/* Links that switch off are woken along a route before an adaptive
 * routing has chosen it: the combination is refused in one line. */
Test(adaptive, refuses_links_that_switch_off)
{
  const char *sets[] = { "linktype.global.idle-timeout=1e-6", NULL };
  GError *e = NULL;
  platform *p = platform_load_with("dragonfly:g=9:a=4:p=2:h=2:routing=ugal", sets, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  trace *t = synth("shift", 72, 8, 1 << 12, 1);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  run_inputs in = { .p = p, .g = g, .g_collectives = colls, .t = t };
  run_spec spec;
  run_spec_init(&spec);
  spec.model = netmodel_find("flow");
  cr_assert_null(run_cell(&in, &spec, &e));
  cr_assert(e && strstr(e->message, "switch off") && !strchr(e->message, '\n'), "%s",
            e ? e->message : "no error");
  g_clear_error(&e);
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
}

/* Issue 35 item 5: min-adaptive on a one-dimensional HyperX has a single
 * candidate (one rotation of one dimension); the packet models took it
 * for a routing that is not adaptive and recorded no route, so their own
 * routes-taken check failed on correct input. Every model that routes
 * adaptively passes it, and the record holds every byte of the ring. */
Test(adaptive, single_candidate_records_its_route, .timeout = 120)
{
  platform *p = tu_platform("hyperx:8:p=1:routing=min-adaptive");
  cr_assert_eq(route_candidates(p->router), 1);
  trace *t = synth("ring", 8, 1, 1 << 12, 2);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  static const char *const models[] = { "flow", "packet", "packet-vct", "packet-buf" };
  for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
    run_result *res = run(p, t, g, models[m]);
    cr_assert_eq(res->mismatch, -1, "%s: %s", models[m], run_mismatch_text(res, p));
    int64_t recorded = 0;
    GHashTableIter it;
    gpointer v;
    g_hash_table_iter_init(&it, res->r->routes_taken);
    while (g_hash_table_iter_next(&it, NULL, &v))
      recorded += ((netmodel_taken *)v)->bytes[0];
    /* 8 ranks x 2 iterations x 4 KiB to the next rank of the ring */
    cr_assert_eq(recorded, (int64_t)8 * 2 * (1 << 12), "%s: %" G_GINT64_FORMAT, models[m],
                 recorded);
    run_result_free(res);
  }
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
}
