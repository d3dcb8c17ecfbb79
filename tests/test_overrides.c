/* test_overrides.c - sweeps without hand-written files: --set overrides of
 * platform keys and the extended shorthands (kinds, link parameters),
 * against the equivalent INI platform and closed forms. */
#include <criterion/criterion.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "routing/facts.h"
#include "testutil.h"

static platform *load(const char *spec, const char *const *sets)
{
  GError *e = NULL;
  platform *p = platform_load_with(spec, sets, &e);
  cr_assert_not_null(p, "%s: %s", spec, e ? e->message : "");
  return p;
}

/* The extended shorthand builds exactly the platform of its INI file. */
Test(overrides, shorthand_equals_its_ini)
{
  char *ini = tu_write_tmp("kinds.ini",
                           "[topology]\nshape = 4x4x4\nconnectivity = torus,torus,mesh\n"
                           "[linktype.optical]\nbandwidth = 62.5e9\nlatency = 20e-12\n"
                           "[nodes]\ncores = 2\n");
  platform *a = load("torus:4x4x4:kinds=torus,torus,mesh:bw=62.5e9:lat=20e-12:cores=2", NULL);
  platform *b = load(ini, NULL);
  cr_assert_eq(a->topo->nlinks, b->topo->nlinks);
  cr_assert_eq(a->topo->nlinks, 64 * 4 + 48 * 2, "torus x, y: 2 links/node each; mesh z: 48x2");
  cr_assert_eq(a->cores_per_node, 2);
  for (int l = 0; l < a->topo->nlinks; l++) {
    cr_assert_eq(a->link_bw[l], 62.5e9);
    cr_assert_eq(a->link_lat[l], 20e-12);
    cr_assert_eq(a->topo->link_src[l], b->topo->link_src[l]);
    cr_assert_eq(a->topo->link_dst[l], b->topo->link_dst[l]);
  }
  platform_facts fa, fb;
  platform_get_facts(a, &fa);
  platform_get_facts(b, &fb);
  cr_assert_eq(fa.diameter, 2 + 2 + 3);
  cr_assert_eq(fa.diameter, fb.diameter);
  cr_assert_float_eq(fa.avg_distance, fb.avg_distance, 1e-12);
  platform_free(a);
  platform_free(b);
  g_free(ini);
}

/* HAEC wireless links get their own parameters. */
Test(overrides, haec_wireless_parameters)
{
  platform *p = load("haec:4x4x4:wbw=25e9:wlat=50e-12", NULL);
  int wl = -1;
  for (int i = 0; i < p->nlinktypes; i++)
    if (strcmp(p->linktypes[i].name, "wireless") == 0)
      wl = i;
  cr_assert_geq(wl, 0);
  cr_assert_eq(p->linktypes[wl].bandwidth, 25e9);
  cr_assert_eq(p->linktypes[wl].latency, 50e-12);
  platform_free(p);
}

/* --set on a file and on a shorthand, before the platform is built. */
Test(overrides, set_keys)
{
  char *cfg = tu_src("configs/torus-4x4x4.ini");
  const char *const sets[] = { "linktype.optical.bandwidth=62.5e9", "nodes.cores=4",
                               "allocation.fill=spread", NULL };
  platform *p = load(cfg, sets);
  cr_assert_eq(p->cores_per_node, 4);
  cr_assert_eq(p->fill, PLATFORM_FILL_SPREAD);
  for (int l = 0; l < p->topo->nlinks; l++)
    cr_assert_eq(p->link_bw[l], 62.5e9);
  cr_assert_not_null(strstr(p->name, "linktype.optical.bandwidth=62.5e9"), "%s", p->name);
  platform_free(p);
  const char *const conn[] = { "topology.connectivity=mesh", NULL };
  platform *m = load("torus:4x4x4", conn);
  cr_assert_eq(m->topo->nlinks, 288, "a 4x4x4 mesh");
  platform_free(m);
  g_free(cfg);
}

Test(overrides, bad_sets_and_shorthands_named)
{
  char *json = tu_src("configs/haecsim/torus-4x4x4.json");
  struct { const char *spec; const char *set; const char *expect; } cases[] = {
    { "torus:4x4", "nokey", "--set 'nokey': expected GROUP.KEY=VALUE" },
    { "torus:4x4", "=1", "expected GROUP.KEY=VALUE" },
    { "torus:4x4", "bogus.key=1", "torus:4x4 has no group [bogus], expected one of its groups: "
      "platform, topology, linktype.optical, links" },
    { "torus:4x4", "nodes.colors=1", "[nodes] has no key 'colors', expected one of: cores" },
    { "torus:4x4", "linktype.optical.bandwidth=fast",
      "[linktype.optical] bandwidth = 'fast', expected a bandwidth in bytes/s" },
    { json, "nodes.cores=2", "--set applies to INI platform files and shorthands" },
    { "torus:4x4:bw=x", NULL, "bw: 'x', expected a bandwidth in bytes/s" },
    { "torus:4x4:speed=1", NULL, "'speed=1', expected KEY=VALUE with KEY one of bw" },
    { "torus:4x4:wbw=1e9", NULL, "wbw is a parameter of the HAEC Box's wireless links" },
    { "torus:4x4:kinds=torus,ring", NULL, "connectivity" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *const sets[] = { cases[i].set, NULL };
    GError *e = NULL;
    platform *p = platform_load_with(cases[i].spec, cases[i].set ? sets : NULL, &e);
    cr_assert_null(p, "case %zu", i);
    cr_assert_not_null(strstr(e->message, cases[i].expect), "case %zu: %s", i, e->message);
    g_error_free(e);
  }
  g_free(json);
}

/* Through the command: doubling every link's bandwidth halves hop_time
 * (sum over links of bytes / bandwidth) and leaves hop_bytes alone. */
Test(overrides, cli_set_halves_hop_time)
{
  char *tr = tu_src("traces/data/cg-16");
  double hop_time[2];
  int64_t hop_bytes[2];
  for (int k = 0; k < 2; k++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "metrics", "-p", "torus:4x4", "-t", tr, "--json",
                           k ? "--set" : NULL, "linktype.optical.bandwidth=62.5e9", NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    JsonParser *jp = json_parser_new();
    cr_assert(json_parser_load_from_data(jp, out, -1, NULL));
    JsonObject *o = json_node_get_object(json_parser_get_root(jp));
    hop_time[k] = json_object_get_double_member(o, "hop_time");
    hop_bytes[k] = json_object_get_int_member(o, "hop_bytes");
    g_object_unref(jp);
    g_free(out);
    g_free(err);
  }
  cr_assert_eq(hop_bytes[0], hop_bytes[1]);
  cr_assert_float_eq(hop_time[1], hop_time[0] / 2, 1e-15);
  cr_assert_float_eq(hop_time[0], hop_bytes[0] / 31.25e9, 1e-15);
  g_free(tr);
}

/* The link type a platform names `name`, or -1. */
static int linktype_of(const platform *p, const char *name)
{
  for (int i = 0; i < p->nlinktypes; i++)
    if (strcmp(p->linktypes[i].name, name) == 0)
      return i;
  return -1;
}

/* Units in a file, a shorthand and an override give the very numbers
 * their exponent forms give (util/units.h). */
Test(overrides, units_everywhere)
{
  char *plain = tu_write_tmp("plain.ini", "[topology]\nshape = 4x4\n"
                             "[linktype.optical]\nbandwidth = 31.25e9\nlatency = 10e-12\n"
                             "[model]\neager_threshold = 65536\nrouter_delay = 1e-9\n"
                             "send_overhead = 1.5e-6\npacket_size = 2048\n");
  char *units = tu_write_tmp("units.ini", "[topology]\nshape = 4x4\n"
                             "[linktype.optical]\nbandwidth = 250Gbit/s\nlatency = 10ps\n"
                             "[model]\neager_threshold = 64KiB\nrouter_delay = 1ns\n"
                             "send_overhead = 1.5us\npacket_size = 2Ki\n");
  platform *a = load(plain, NULL), *b = load(units, NULL);
  cr_assert(a->linktypes[0].bandwidth == b->linktypes[0].bandwidth);
  cr_assert(a->linktypes[0].latency == b->linktypes[0].latency);
  cr_assert_eq(b->model.eager_threshold, 65536);
  cr_assert_eq(b->model.packet_size, 2048);
  cr_assert(a->model.router_delay == b->model.router_delay);
  cr_assert(a->model.send_overhead == b->model.send_overhead);
  platform_free(a);
  platform_free(b);
  /* shorthands: the paper's wireless links written three ways */
  const char *specs[] = { "haec:4x4x4:wbw=12.5e9:wlat=100e-12", "haec:4x4x4:wbw=100Gbit/s:wlat=100ps",
                          "haec:4x4x4:wbw=12.5G:wlat=0.1ns" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    platform *h = load(specs[i], NULL);
    int w = linktype_of(h, "wireless");
    cr_assert(h->linktypes[w].bandwidth == 12.5e9, "%s", specs[i]);
    cr_assert(h->linktypes[w].latency == 100e-12, "%s", specs[i]);
    platform_free(h);
  }
  const char *const sets[] = { "linktype.optical.bandwidth=500Gbit/s", "model.envelope=16B",
                               "model.eager_threshold=1MiB", NULL };
  platform *t = load("torus:4x4", sets);
  cr_assert(t->linktypes[0].bandwidth == 62.5e9);
  cr_assert_eq(t->model.envelope, 16);
  cr_assert_eq(t->model.eager_threshold, 1 << 20);
  platform_free(t);
  g_free(plain);
  g_free(units);
}

/* A typo in an override names the group or key and the nearest valid
 * one; a link type's typo never reads "missing latency". */
Test(overrides, typos_named_with_the_nearest)
{
  static const struct { const char *spec, *set, *expect; } cases[] = {
    { "torus:4x4", "linktype.opticl.bandwidth=62.5e9",
      "--set 'linktype.opticl.bandwidth=62.5e9': torus:4x4 has no group [linktype.opticl] (did "
      "you mean linktype.optical?)" },
    { "haec:4x4x4", "linktype.wirelss.latency=1ns",
      "has no group [linktype.wirelss] (did you mean linktype.wireless?)" },
    { "torus:4x4", "nodes.core=4", "[nodes] has no key 'core' (did you mean nodes.cores?)" },
    { "torus:4x4", "model.eager_treshold=1",
      "[model] has no key 'eager_treshold' (did you mean model.eager_threshold?)" },
    { "torus:4x4", "modle.envelope=1", "has no group [modle] (did you mean model?)" },
    { "torus:4x4", "linktype.optical.latency=100Gbit/s",
      "latency = '100Gbit/s' is a bandwidth, expected a time in seconds" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *const sets[] = { cases[i].set, NULL };
    GError *e = NULL;
    cr_assert_null(platform_load_with(cases[i].spec, sets, &e), "%s", cases[i].set);
    cr_assert_not_null(strstr(e->message, cases[i].expect), "%s: %s", cases[i].set, e->message);
    cr_assert_null(strstr(e->message, "missing"), "%s", e->message);
    g_error_free(e);
  }
}

/* One list of overrides for a torus and a HAEC Box: an optional one is
 * left out (and said so) where its link type does not exist, the others
 * apply everywhere; without the mark it is an error on the torus. */
Test(overrides, set_if_present_covers_torus_and_haec)
{
  const char *const sets[] = { "?linktype.wireless.bandwidth=25e9",
                               "linktype.optical.latency=20ps", NULL };
  platform *t = load("torus:4x4x4", sets), *h = load("haec:4x4x4", sets);
  cr_assert(t->linktypes[linktype_of(t, "optical")].latency == 20e-12);
  cr_assert(h->linktypes[linktype_of(h, "optical")].latency == 20e-12);
  cr_assert(h->linktypes[linktype_of(h, "wireless")].bandwidth == 25e9);
  cr_assert_eq(t->left_out->len, 1);
  cr_assert_str_eq(g_ptr_array_index(t->left_out, 0), "linktype.wireless.bandwidth=25e9");
  cr_assert_eq(h->left_out->len, 0);
  cr_assert_str_eq(t->name, "torus:4x4x4 [linktype.optical.latency=20ps]", "only what applied");
  cr_assert_not_null(strstr(g_ptr_array_index(t->notes, 0), "left out"));
  platform_free(t);
  platform_free(h);
  const char *const strict[] = { "linktype.wireless.bandwidth=25e9", NULL };
  GError *e = NULL;
  cr_assert_null(platform_load_with("torus:4x4x4", strict, &e));
  cr_assert_not_null(strstr(e->message, "torus:4x4x4 has no group [linktype.wireless]"), "%s",
                     e->message);
  cr_assert_not_null(strstr(e->message, "--set-if-present"), "%s", e->message);
  g_error_free(e);
  /* an optional override of a group no platform has is still a typo */
  const char *const bogus[] = { "?modle.envelope=1", NULL };
  cr_assert_null(platform_load_with("torus:4x4x4", bogus, &e));
  g_error_free(e);
}

/* Through the command: --set-if-present on a torus and a HAEC Box in one
 * compare; a sweep in --set becomes one platform per value there and is
 * refused where one platform is expected. */
Test(overrides, cli_set_if_present_and_sweeps)
{
  char *tr = tu_src("traces/data/ring-8");
  char *out = NULL, *err = NULL;
  const char *both[] = { "compare", "-t", tr, "-p", "torus:2x2x2", "-p", "haec:2x2x2",
                         "--set-if-present", "linktype.wireless.bandwidth={25e9,50e9}", "-s",
                         "identity", "--csv", NULL };
  cr_assert_eq(tu_run(&out, &err, both), 0, "%s", err);
  cr_assert_eq(tu_lines(out), 4, "a header, one torus, two HAEC Boxes:\n%s", out);
  cr_assert_not_null(strstr(out, ",haec:2x2x2 linktype.wireless.bandwidth=25e9,"), "%s", out);
  cr_assert_not_null(strstr(out, ",haec:2x2x2 linktype.wireless.bandwidth=50e9,"), "%s", out);
  cr_assert_not_null(strstr(out, ",torus:2x2x2,"), "%s", out);
  g_free(out);
  g_free(err);
  const char *one[] = { "topo", "-p", "torus:2x2x2", "--set",
                        "linktype.optical.bandwidth={1e9,2e9}", NULL };
  cr_assert_eq(tu_run(&out, &err, one), 2);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  cr_assert_not_null(strstr(err, "a sweep ({...}) stands for several platforms"), "%s", err);
  g_free(out);
  g_free(err);
  g_free(tr);
}

/* Every command taking --platform lists the shorthand parameters of the
 * parser's own table, and the units, in its --help. */
Test(overrides, shorthand_parameters_in_help)
{
  const char *commands[][2] = { { "topo", NULL }, { "route", NULL }, { "metrics", NULL },
                                { "map", NULL }, { "simulate", NULL }, { "compare", NULL },
                                { "show", NULL }, { "plot", NULL }, { "export", "simgrid" },
                                { "export", "mapping" } };
  for (size_t c = 0; c < G_N_ELEMENTS(commands); c++) {
    char *out = NULL;
    const char *args[] = { commands[c][0], commands[c][1] ? commands[c][1] : "--help",
                           commands[c][1] ? "--help" : NULL, NULL };
    cr_assert_eq(tu_run(&out, NULL, args), 0, "%s --help", commands[c][0]);
    for (int i = 0; i < platform_nshorthand_params; i++) {
      g_autofree char *line = g_strdup_printf("\n  %-7s %s", platform_shorthand_params[i].key,
                                              platform_shorthand_params[i].help);
      cr_assert_not_null(strstr(out, line), "%s %s --help lacks %s", commands[c][0],
                         commands[c][1] ? commands[c][1] : "", platform_shorthand_params[i].key);
    }
    cr_assert_not_null(strstr(out, "Gbit/s"), "%s: no units", commands[c][0]);
    cr_assert_not_null(strstr(out, "--set-if-present"), "%s", commands[c][0]);
    g_free(out);
  }
}
