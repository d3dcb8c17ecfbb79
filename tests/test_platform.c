/* test_platform.c - shorthands, INI and HAEC-SIM JSON platforms, link type
 * patterns, allocations, and every bad platform file. */
#include <string.h>

#include "routing/facts.h"
#include "routing/platform-private.h"
#include "testutil.h"

Test(platform, shorthand_5d_torus)
{
  platform *p = tu_platform("torus:4x4x4x4x2");
  cr_assert_eq(p->topo->ndims, 5);
  cr_assert_eq(p->topo->nnodes, 512);
  cr_assert_eq(p->topo->nlinks, 512 * 10);
  cr_assert_eq(p->nalloc, 512);
  cr_assert_eq(p->cores_per_node, 1);
  for (int l = 0; l < p->topo->nlinks; l++) {
    cr_assert_float_eq(p->link_bw[l], 31.25e9, 1);
    cr_assert_float_eq(p->link_lat[l], 10e-12, 1e-18);
  }
  platform_free(p);
}

Test(platform, shorthand_haec_has_wireless_z)
{
  platform *p = tu_platform("haec:4x4x4");
  cr_assert_eq(p->topo->conn[2], TOPO_CROSSBAR);
  for (int l = 0; l < p->topo->nlinks; l++)
    cr_assert_float_eq(p->link_bw[l], p->topo->link_dim[l] == 2 ? 12.5e9 : 31.25e9, 1);
  platform_free(p);
}

Test(platform, paper_configs_match_shorthands)
{
  const char *pairs[][2] = {
    { "configs/mesh-4x4x4.ini", "mesh:4x4x4" },
    { "configs/torus-4x4x4.ini", "torus:4x4x4" },
    { "configs/haec-4x4x4.ini", "haec:4x4x4" },
    { "configs/haecsim/mesh-4x4x4.json", "mesh:4x4x4" },
    { "configs/haecsim/torus-4x4x4.json", "torus:4x4x4" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(pairs); i++) {
    char *path = tu_src(pairs[i][0]);
    platform *a = tu_platform(path), *b = tu_platform(pairs[i][1]);
    cr_assert_eq(a->topo->nlinks, b->topo->nlinks, "%s", path);
    for (int l = 0; l < a->topo->nlinks; l++) {
      cr_assert_eq(a->topo->link_src[l], b->topo->link_src[l]);
      cr_assert_eq(a->topo->link_dst[l], b->topo->link_dst[l]);
      cr_assert_float_eq(a->link_bw[l], b->link_bw[l], 1, "%s link %d", path, l);
      cr_assert_float_eq(a->link_lat[l], b->link_lat[l], 1e-18, "%s link %d", path, l);
    }
    platform_free(a);
    platform_free(b);
    g_free(path);
  }
}

Test(platform, haecsim_json_as_printed)
{
  /* listing 3 prints the wireless bandwidth as 125000000000 (1 Tbit/s),
   * not Table 4's 100 Gbit/s; the loader reads what the file says */
  char *path = tu_src("configs/haecsim/haec-4x4x4.json");
  platform *p = tu_platform(path);
  cr_assert_eq(p->topo->crossbar_dim, 2);
  cr_assert_eq(p->nlinktypes, 2);
  cr_assert_float_eq(p->linktypes[0].bandwidth, 31250000000.0, 1);
  cr_assert_float_eq(p->linktypes[0].latency, 10e-12, 1e-18, "latency is in ps");
  cr_assert_float_eq(p->linktypes[1].bandwidth, 125000000000.0, 1);
  cr_assert_float_eq(p->linktypes[1].latency, 100e-12, 1e-18);
  cr_assert_eq(p->model.packet_size, 1500);
  cr_assert_eq(p->model.packet_header, 16);
  cr_assert_eq(p->notes->len, 1);
  const char *note = g_ptr_array_index(p->notes, 0);
  cr_assert_not_null(strstr(note, "bit_error_rate"));
  cr_assert_not_null(strstr(note, "size_finitefield"));
  platform_free(p);
  g_free(path);
}

Test(platform, gemini_link_pattern)
{
  char *path = tu_src("configs/gemini-3d.ini");
  platform *p = tu_platform(path);
  const topo *t = p->topo;
  cr_assert_eq(p->cores_per_node, 16);
  /* y: mezzanine (75 GB/s) between y=0,1; cable (37.5) between 1,2; the
   * wrap link 7 <-> 0 counts as c = 7: cable */
  int y0 = topo_link(t, 0, 1, 0), y1 = topo_link(t, 8, 1, 0), ywrap = topo_link(t, 0, 1, 1);
  cr_assert_float_eq(p->link_bw[y0], 75e9, 1);
  cr_assert_float_eq(p->link_bw[y1], 37.5e9, 1);
  cr_assert_float_eq(p->link_bw[ywrap], 37.5e9, 1);
  /* z: backplane inside a chassis of 8, cable 7 <-> 8 and 15 <-> 0 */
  int z0 = topo_link(t, 0, 2, 0), z7 = topo_link(t, 7 * 64, 2, 0), zwrap = topo_link(t, 0, 2, 1);
  cr_assert_float_eq(p->link_bw[z0], 120e9, 1);
  cr_assert_float_eq(p->link_bw[z7], 75e9, 1);
  cr_assert_float_eq(p->link_bw[zwrap], 75e9, 1);
  /* the reverse link has the same type */
  cr_assert_float_eq(p->link_bw[topo_link(t, 16, 1, 1)], 37.5e9, 1);
  platform_free(p);
  g_free(path);
}

Test(platform, facts_closed_forms)
{
  platform_facts f;
  platform *p = tu_platform("torus:4x4x4");
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 6);
  /* ring of 4: mean distance over all 16 ordered pairs = 1; 3 dims over
   * distinct pairs: 3 * 64 * 64 / (64 * 63) */
  cr_assert_float_eq(f.avg_distance, 3.0 * 64 / 63, 1e-12);
  cr_assert_eq(f.bisection_links, 64, "2 x 16 cables per cut, both directions");
  platform_free(p);
  p = tu_platform("mesh:4x4x4");
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 9);
  cr_assert_float_eq(f.avg_distance, 3 * 1.25 * 64 / 63, 1e-12);
  cr_assert_eq(f.bisection_links, 32);
  platform_free(p);
  /* the closed form agrees with all pairs for the HAEC Box */
  p = tu_platform("haec:4x4x4");
  platform_get_facts(p, &f);
  double sum = 0;
  for (int a = 0; a < 64; a++)
    for (int b = 0; b < 64; b++)
      sum += route_hops(p->router, a, b);
  cr_assert_float_eq(f.avg_distance, sum / (64 * 63), 1e-12);
  cr_assert_eq(f.diameter, 4);
  platform_free(p);
}

/* A dimension of millions of nodes (loaders cap a size at 2^20; the
 * topology takes up to 2^30 nodes): its distance sum (n^3 - n) / 3 is
 * beyond int64 from n = 2097152 on (once wrapped around). Over the
 * n (n - 1) ordered pairs a line of n averages (n + 1) / 3 hops. */
Test(platform, facts_beyond_int64)
{
  platform *p = platform_alloc("long line");
  GError *e = NULL;
  int type = platform_add_linktype(p, "wire", 1e9, 1e-9, "test", &e);
  cr_assert_geq(type, 0, "%s", e ? e->message : "");
  int shape[1] = { 2200001 }, len[1] = { 1 };
  int *pattern[1] = { &type };
  topo_conn conn[1] = { TOPO_MESH };
  cr_assert(platform_build_regular(p, 1, shape, conn, pattern, len, &e), "%s",
            e ? e->message : "");
  cr_assert(platform_finish(p, NULL, &e), "%s", e ? e->message : "");
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 2200000);
  cr_assert_float_eq(f.avg_distance, 733334.0, 1e-6, "%.9f", f.avg_distance);
  platform_free(p);
  /* the largest a loader takes: exact as before, (2^20 + 1) / 3 */
  p = tu_platform("mesh:1048576");
  platform_get_facts(p, &f);
  cr_assert_eq(f.avg_distance, 1048577.0 / 3, "%.9f", f.avg_distance);
  platform_free(p);
}

Test(platform, allocations)
{
  GError *e = NULL;
  platform *p = tu_platform("torus:8x8x8");
  cr_assert(platform_set_allocation(p, "random:100:42", &e));
  cr_assert_eq(p->nalloc, 100);
  for (int i = 1; i < p->nalloc; i++)
    cr_assert_lt(p->alloc[i - 1], p->alloc[i], "ascending and distinct");
  int first[100];
  memcpy(first, p->alloc, sizeof first);
  cr_assert(platform_set_allocation(p, "random:100:42", &e));
  cr_assert_arr_eq(first, p->alloc, sizeof first, "same seed, same nodes");
  cr_assert(platform_set_allocation(p, "random:100:43", &e));
  cr_assert_neq(memcmp(first, p->alloc, sizeof first), 0);
  char *list = tu_write_tmp("alloc.nodes", "# three nodes\n7 3\n100\n");
  cr_assert(platform_set_allocation(p, list, &e));
  cr_assert_eq(p->nalloc, 3);
  cr_assert_eq(p->alloc[0], 7);
  cr_assert_eq(p->alloc[2], 100);
  cr_assert_eq(p->alloc_index[3], 1);
  cr_assert_eq(p->alloc_index[4], -1);
  cr_assert(platform_set_allocation(p, "all", &e));
  cr_assert_eq(p->nalloc, 512);
  char *dup = tu_data("n_alloc_dup.nodes");
  cr_assert_not(platform_set_allocation(p, dup, &e));
  cr_assert_not_null(strstr(e->message, ":1: node 3 listed twice"), "%s", e->message);
  g_clear_error(&e);
  cr_assert_not(platform_set_allocation(p, "random:0", &e));
  g_clear_error(&e);
  platform_free(p);
  g_free(list);
  g_free(dup);
}

/* Every rejected platform: the message names the file and the field. */
Test(platform, bad_files_give_one_line_errors)
{
  const char *cases[][2] = {
    { "n_zero_bandwidth.ini", "[linktype.a]: bandwidth 0, expected a positive" },
    { "n_negative_bandwidth.ini", "bandwidth -5e+09, expected a positive" },
    { "n_negative_latency.ini", "latency -1, expected a non-negative" },
    { "n_zero_size.ini", "shape = '4x0x4': expected" },
    { "n_bad_connectivity.ini", "connectivity = 'ring'" },
    { "n_bad_number.ini", "bandwidth = 'fast', expected a bandwidth in bytes/s" },
    { "n_unknown_linktype.ini", "unknown link type 'b'" },
    { "n_unknown_key.ini", "[topology] wrap: unknown key" },
    { "n_malformed.ini", "expected an INI platform file" },
    { "n_no_linktype.ini", "expected at least one link type" },
    { "n_bad_order.ini", "[routing] order: dimension order 'xz'" },
    { "n_alloc_too_many.ini", "allocation 'random:99': expected random:N[:SEED] with 1 <= N <= 16" },
    { "n_zero_cores.ini", "[nodes] cores = 0: expected a whole number from 1 to 1048576" },
    { "n_zero_bandwidth.json", "platform.link_types[0]: bandwidth 0" },
    { "n_shape_mismatch.json", "platform.topology.link_types: expected one link type name per dimension" },
    { "n_malformed.json", "expected a HAEC-SIM JSON platform file" },
    { "does_not_exist.ini", "expected an INI platform file" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *path = tu_data(cases[i][0]);
    GError *e = NULL;
    platform *p = platform_load(path, &e);
    cr_assert_null(p, "%s accepted", cases[i][0]);
    cr_assert_not_null(e);
    cr_assert_not_null(strstr(e->message, cases[i][0]), "no file name: %s", e->message);
    cr_assert_not_null(strstr(e->message, cases[i][1]), "%s: %s", cases[i][0], e->message);
    cr_assert_null(strchr(e->message, '\n'), "one line: %s", e->message);
    g_error_free(e);
    g_free(path);
  }
  const char *shorthands[][2] = {
    { "torus:4x0", "size '0' of dimension y" },
    { "ring:4x4", "expected an .ini or .json file or a shorthand" },
    { "haec:4", "expected a shape like 4x4x4 with 2 to 8 sizes" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(shorthands); i++) {
    GError *e = NULL;
    cr_assert_null(platform_load(shorthands[i][0], &e));
    cr_assert_not_null(strstr(e->message, shorthands[i][1]), "%s", e->message);
    g_error_free(e);
  }
}

Test(platform, y_small_json)
{
  char *path = tu_data("y_small.json");
  platform *p = tu_platform(path);
  cr_assert_eq(p->topo->nnodes, 16);
  cr_assert_eq(p->topo->nlinks, 16 * 2 + 2 * 3 * 4);
  cr_assert_float_eq(p->link_lat[0], 10e-12, 1e-18);
  platform_free(p);
  g_free(path);
}

/* [platform] preset sets the protocol and the tie rule; explicit keys and
 * --set overrides win over it. */
Test(platform, presets_and_protocol_keys)
{
  platform *p = tu_platform("torus:4x4x4");
  cr_assert_eq(p->model.eager_threshold, 65536);
  cr_assert_eq(p->model.handshake, PLATFORM_HANDSHAKE_RTS_CTS);
  cr_assert_eq(p->router->tie, ROUTE_TIE_POSITIVE);
  platform_free(p);
  GError *e = NULL;
  const char *simgrid[] = { "platform.preset=simgrid", NULL };
  p = platform_load_with("torus:4x4x4", simgrid, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  cr_assert_eq(p->model.eager_threshold, 65535);
  cr_assert_eq(p->model.handshake, PLATFORM_HANDSHAKE_SYNC);
  cr_assert_eq(p->router->tie, ROUTE_TIE_SIMGRID);
  cr_assert_eq(p->model.send_overhead, 0);
  cr_assert_eq(p->model.eager_start, PLATFORM_EAGER_MATCH);
  cr_assert_eq(p->model.envelope, 16);
  cr_assert_eq(p->model.sharing, PLATFORM_SHARING_LATENCY);
  platform_free(p);
  const char *mixed[] = { "model.handshake=rts-cts", "platform.preset=simgrid",
                          "model.eager_threshold=1000", "routing.tie=positive",
                          "model.send_overhead=1e-6", "model.envelope=0",
                          "model.sharing=fair", "model.eager_start=send", NULL };
  p = platform_load_with("torus:4x4x4", mixed, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "?");
  cr_assert_eq(p->model.eager_threshold, 1000);
  cr_assert_eq(p->model.handshake, PLATFORM_HANDSHAKE_RTS_CTS);
  cr_assert_eq(p->router->tie, ROUTE_TIE_POSITIVE);
  cr_assert_float_eq(p->model.send_overhead, 1e-6, 1e-18);
  cr_assert_eq(p->model.envelope, 0);
  cr_assert_eq(p->model.sharing, PLATFORM_SHARING_FAIR);
  cr_assert_eq(p->model.eager_start, PLATFORM_EAGER_SEND);
  platform_free(p);
  struct { const char *set, *msg; } bad[] = {
    { "platform.preset=mpich", "preset 'mpich': unknown, expected mapsim, simgrid or smpi" },
    { "model.bw_factor=0:x", "[model] bw_factor = '0:x': 'x': expected a factor > 0" },
    { "model.handshake=rdv", "[model] handshake = 'rdv': expected rts-cts or sync" },
    { "routing.tie=minus", "[routing] tie = 'minus': expected positive or simgrid" },
    { "model.sharing=rtt", "[model] sharing = 'rtt': expected fair or latency" },
    { "model.eager_start=now", "[model] eager_start = 'now': expected send or match" },
    { "model.envelope=-1", "[model] envelope = -1: expected a whole number >= 0" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    const char *sets[] = { bad[i].set, NULL };
    cr_assert_null(platform_load_with("torus:4x4x4", sets, &e), "%s", bad[i].set);
    cr_assert(strstr(e->message, bad[i].msg), "%s", e->message);
    cr_assert(g_str_has_prefix(e->message, "torus:4x4x4: "), "%s", e->message);
    g_clear_error(&e);
  }
}

/* --preset smpi: SimGrid 3.32's tables (sg_config.cpp) and SMPI's rule,
 * a size gets the value of the largest threshold below it. */
Test(platform, preset_smpi_factors)
{
  GError *e = NULL;
  const char *sets[] = { "platform.preset=smpi", NULL };
  platform *p = platform_load_with("torus:2x2", sets, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  const platform_model *m = &p->model;
  cr_assert_eq(m->bw_factor.n, 9);
  cr_assert_eq(platform_factor(&m->bw_factor, 0), 1.0);
  cr_assert_eq(platform_factor(&m->bw_factor, 16), 0.812084);
  cr_assert_eq(platform_factor(&m->bw_factor, 257), 0.812084);
  cr_assert_eq(platform_factor(&m->bw_factor, 258), 0.338112);
  cr_assert_eq(platform_factor(&m->bw_factor, 65472), 0.697866);
  cr_assert_eq(platform_factor(&m->bw_factor, 65473), 0.940694);
  cr_assert_eq(platform_factor(&m->lat_factor, 1016), 1.9503);
  cr_assert_eq(platform_factor(&m->lat_factor, 2000), 1.61075);
  cr_assert_eq(platform_factor(&m->lat_factor, 1 << 20), 11.6436);
  cr_assert_eq(m->tcp_gamma, 4194304);
  cr_assert_eq(m->crosstraffic, 0.05);
  cr_assert_eq(m->weight_s, 8775);
  cr_assert_eq(m->envelope, 16);
  cr_assert_eq(m->eager_threshold, 65535);
  cr_assert_not(platform_model_is_cm02(m));
  platform_free(p);
}
