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
    { "torus:4x4", "bogus.key=1", "[bogus]: unknown group" },
    { "torus:4x4", "nodes.colors=1", "[nodes] colors: unknown key" },
    { "torus:4x4", "linktype.optical.bandwidth=fast", "expected a number" },
    { json, "nodes.cores=2", "--set applies to INI platform files and shorthands" },
    { "torus:4x4:bw=x", NULL, "bw=x: expected a number" },
    { "torus:4x4:speed=1", NULL, "'speed=1', expected KEY=VALUE with KEY one of bw" },
    { "torus:4x4:wbw=1e9", NULL, "'wbw=1e9', expected" },
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
