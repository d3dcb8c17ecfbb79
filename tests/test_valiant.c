/* test_valiant.c - per-packet Valiant and the dragonfly routings' options:
 * the closed form of a message's spread over the intermediate groups
 * (static view exactly, packet models within 4 sigma of a binomial), the
 * same bytes from the same seed and other bytes from another, the routing
 * options accepted and refused, and the routes-taken check under the new
 * routings in flow, packet and packet-buf. */
#include <math.h>

#include "sim/run.h"
#include "sim/run-private.h"
#include "testutil.h"
#include "traces/synth.h"

#define DF "dragonfly:g=9:a=4:p=2:h=2"

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

/* The global link from group x to group y (one cable per pair here). */
static int global_link(const platform *p, int x, int y)
{
  const topo *t = p->topo;
  int N = topo_compute_nodes(t), a = topo_dragonfly_of(t)->routers;
  for (int l = 0; l < t->nlinks; l++)
    if (t->link_class[l] == TOPO_DF_GLOBAL && (t->link_src[l] - N) / a == x &&
        (t->link_dst[l] - N) / a == y)
      return l;
  cr_assert_fail("no global link %d -> %d", x, y);
  return -1;
}

/* One message of B = 64 MiB from node 0 (group 0) to node 40 (group 5)
 * and back (a ping-pong), g = 9 groups, one cable per pair. Valiant
 * draws each packet's intermediate uniformly from the g - 2 = 7 groups
 * other than both ends, so the global link 0 -> z carries B/7 for every
 * z != 0, 5 and the direct link 0 -> 5 nothing; z -> 5 B/7 too. The
 * static view has it exactly, 67108864 = 7 x 9586980 + 4, the remainder
 * a byte each to the first four (groups 1-4); the packet models draw
 * 16,384 packets of 4 KiB, a binomial count of sigma sqrt(n p (1-p)) =
 * 44.8 around 2,340.6: within 8% (4.2 sigma). */
Test(valiant, per_packet_spread_approaches_the_closed_form, .timeout = 300)
{
  g_autofree char *nodes = tu_write_tmp("nodes", "0 40\n");
  platform *p = tu_platform_with(DF ":routing=valiant", nodes, 1);
  const int64_t B = 64 << 20;
  trace *t = synth("pingpong", 2, 1, B, 1);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  cr_assert_eq(route_candidates(p->router), 7);
  static const char *const models[] = { "packet", "packet-buf" };
  for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
    run_result *res = run(p, t, g, models[m]);
    cr_assert_eq(res->check, RUN_CHECK_ROUTES_TAKEN);
    cr_assert_eq(res->mismatch, -1, "%s", models[m]);
    cr_assert_eq(res->pre->link_bytes[global_link(p, 0, 5)], 0);
    cr_assert_eq(res->post->link_bytes[global_link(p, 0, 5)], 0);
    for (int z = 1; z < 9; z++) {
      if (z == 5)
        continue;
      int64_t want = 9586980 + (z <= 4);
      cr_assert_eq(res->pre->link_bytes[global_link(p, 0, z)], want, "static 0->%d", z);
      cr_assert_eq(res->pre->link_bytes[global_link(p, z, 5)], want, "static %d->5", z);
      double share = (double)res->post->link_bytes[global_link(p, 0, z)] / (double)B;
      cr_assert(fabs(share * 7 - 1) < 0.08, "%s: 0->%d carries %.4f of the bytes, expected 1/7",
                models[m], z, share);
    }
    run_result_free(res);
  }
  commgraph_free(g);
  trace_free(t);
  platform_free(p);
}

/* The same seed gives the same makespan and link bytes; seed 2 spreads
 * the packets otherwise (another count on the link 0 -> 1). The packet
 * models are single-threaded per run; a study's threads run whole cells,
 * so the draw (a hash of seed, message number, packet index) does not
 * depend on them. */
Test(valiant, same_seed_same_bytes_other_seed_other_draw, .timeout = 300)
{
  g_autofree char *nodes = tu_write_tmp("nodes", "0 40\n");
  platform *p1 = tu_platform_with(DF ":routing=valiant", nodes, 1);
  platform *p2 = tu_platform_with(DF ":routing=valiant:seed=2", nodes, 1);
  trace *t = synth("pingpong", 2, 1, 8 << 20, 2);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  run_result *a = run(p1, t, g, "packet"), *b = run(p1, t, g, "packet");
  run_result *c = run(p2, t, g, "packet");
  cr_assert_eq(a->r->makespan_ps, b->r->makespan_ps);
  for (int l = 0; l < p1->topo->nlinks; l++)
    cr_assert_eq(a->post->link_bytes[l], b->post->link_bytes[l], "link %d", l);
  int l01 = global_link(p1, 0, 1);
  cr_assert_neq(a->post->link_bytes[l01], c->post->link_bytes[l01]);
  cr_assert_eq(c->mismatch, -1);
  run_result_free(a);
  run_result_free(b);
  run_result_free(c);
  commgraph_free(g);
  trace_free(t);
  platform_free(p1);
  platform_free(p2);
}

Test(valiant, routing_options_accepted_and_refused)
{
  platform *p = tu_platform(DF);
  router *r = p->router;
  cr_assert(router_set_algo(r, "valiant", NULL));
  cr_assert(r->flags & ROUTE_FLAG_SPREAD);
  cr_assert_eq(route_candidates(r), 7);
  cr_assert(router_set_algo(r, "valiant:per=message", NULL));
  cr_assert(!(r->flags & (ROUTE_FLAG_SPREAD | ROUTE_FLAG_ADAPTIVE)));
  cr_assert_eq(route_candidates(r), 1);
  cr_assert(router_set_algo(r, "valiant:per=pair", NULL));
  cr_assert(r->per_message);
  cr_assert(router_set_algo(r, "valiant:per=packet", NULL));
  cr_assert(!r->per_message);
  cr_assert(router_set_algo(r, "ugal", NULL));
  cr_assert_eq(route_candidates(r), 1 + ROUTE_UGAL_VALIANT);
  cr_assert_eq(r->ugal_variant, ROUTE_UGAL_GLOBAL);
  cr_assert(router_set_algo(r, "ugal:variant=local:candidates=2:bias=1.5", NULL));
  cr_assert_eq(r->ugal_variant, ROUTE_UGAL_LOCAL);
  cr_assert_eq(route_candidates(r), 3);
  cr_assert_float_eq(r->ugal_bias, 1.5, 1e-15);
  /* UGAL-L sees the source router's port only (links 0 and 1 of a path
   * up, local, global, ...), UGAL-G up to the first global link */
  int links[8], h;
  route_iter it;
  route_begin_candidate(&it, r, 0, 40, route_key(0, 1), 1);
  for (h = 0; route_next(&it, &links[h]); h++)
    ;
  int first_global = 1;
  while (p->topo->link_class[links[first_global]] != TOPO_DF_GLOBAL)
    first_global++;
  cr_assert_eq(route_seen_links(r, links, h), 2);
  cr_assert(router_set_algo(r, "ugal:variant=global", NULL));
  cr_assert_eq(route_seen_links(r, links, h), first_global + 1);
  static const char *const bad[][2] = {
    { "valiant:per=x", "per = 'x', expected packet, message or pair" },
    { "ugal:variant=lokal", "variant = 'lokal', expected local or global" },
    { "ugal:candidates=0", "candidates = '0', expected a whole number" },
    { "ugal:candidates=33", "candidates = '33', expected a whole number" },
    { "ugal:bias=abc", "bias = 'abc', expected a number" },
    { "minimal:per=packet", "option 'per' of minimal, expected no option" },
    { "valiant:variant=local", "option 'variant' of valiant, expected per=packet|message|pair" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    GError *e = NULL;
    cr_assert(!router_set_algo(r, bad[i][0], &e), "%s", bad[i][0]);
    cr_assert(strstr(e->message, bad[i][1]), "%s: %s", bad[i][0], e->message);
    cr_assert_null(strchr(e->message, '\n'));
    g_error_free(e);
    cr_assert_str_eq(router_algo_name(r), "minimal"); /* refused: the default again */
  }
  platform_free(p);
  /* the shorthand hands a routing its options; a bad one exits 2 in one line */
  char *out = NULL, *err = NULL;
  const char *args[] = { "topo", "-p", DF ":routing=ugal:variant=lokal", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  cr_assert(strstr(err, "variant = 'lokal', expected local or global"), "%s", err);
  cr_assert_eq(tu_count(err, "\n"), 1, "%s", err);
  g_free(out);
  g_free(err);
}

/* The group shift under the new routings: every run passes the check of
 * the routes taken, in flow, packet and packet-buf; per-packet Valiant
 * ends sooner than per-message Valiant in the packet models (the shift's
 * 8 pairs of a group spread over 7 intermediates per packet instead of
 * one each). */
Test(valiant, routes_taken_hold_under_the_new_routings, .timeout = 300)
{
  static const char *const routings[] = { "valiant", "valiant:per=message",
                                          "ugal:variant=local", "ugal:variant=global:bias=2:candidates=2" };
  static const char *const models[] = { "flow", "packet", "packet-buf" };
  trace *t = synth("shift", 72, 8, 1 << 18, 1);
  gboolean colls;
  commgraph *g = run_traffic_graph(t, NULL, &colls, NULL);
  int64_t ms[2][3];
  for (size_t k = 0; k < G_N_ELEMENTS(routings); k++) {
    g_autofree char *spec = g_strdup_printf(DF ":routing=%s", routings[k]);
    platform *p = tu_platform(spec);
    for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
      run_result *res = run(p, t, g, models[m]);
      cr_assert_eq(res->check, k == 1 ? RUN_CHECK_PRE_POST : RUN_CHECK_ROUTES_TAKEN);
      cr_assert_eq(res->mismatch, -1, "%s %s", routings[k], models[m]);
      if (k < 2)
        ms[k][m] = res->r->makespan_ps;
      run_result_free(res);
    }
    platform_free(p);
  }
  cr_assert_lt(ms[0][1], ms[1][1]);
  cr_assert_lt(ms[0][2], ms[1][2]);
  commgraph_free(g);
  trace_free(t);
}
