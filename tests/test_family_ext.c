/* test_family_ext.c - the topology-family extension point
 * (routing/family/family.h): a family this test defines and registers
 * itself - a bidirectional ring of n nodes, `ring:n=N`, with one routing,
 * the shorter way round - goes through `topo`, `route`, `map`,
 * `simulate` and `routings` via mapsim_main() in a child process, with
 * diameters, hop counts, hop-bytes and transfer times worked out by hand.
 * Also the family registry itself and the lists printed from it.
 *
 * The ring: nodes 0 .. n-1, link i from i to i+1 (class "+"), link n+i
 * from i to i-1 (class "-"), one link type "link" (the shorthand's
 * default for a family: 25e9 bytes/s, 100 ns). */
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/netview.h"
#include "routing/family/family.h"
#include "routing/facts.h"
#include "routing/platform.h"
#include "maintest.h"
#include "testutil.h"

/* ---- the test's own family ---- */

static int ring_n(const topo *t)
{
  return t->nnodes;
}

/* the way round from a to b: +1 unless the - way is shorter */
static int ring_dir(int n, int a, int b)
{
  int ahead = ((b - a) % n + n) % n;
  return 2 * ahead <= n ? 1 : -1;
}

static int ring_hops(const topo *t, int a, int b)
{
  int n = ring_n(t), ahead = ((b - a) % n + n) % n;
  return MIN(ahead, n - ahead);
}

static int ring_route(const router *r, int s, int d, uint64_t key, route_path path, int variant,
                      int *links)
{
  int n = ring_n(r->t), dir = ring_dir(n, s, d), k = 0;
  for (int v = s; v != d && k < ROUTE_FAMILY_MAX_HOPS; v = ((v + dir) % n + n) % n)
    links[k++] = dir > 0 ? v : n + v;
  return k;
}

static const family_ops ring_ops;

static topo *ring_read(GKeyFile *kf, const char *path, const char *dir, platform *p,
                       GError **error)
{
  GError *e = NULL;
  gint64 n = g_key_file_get_int64(kf, "topology", "n", &e);
  if (e || n < 3 || n > 4096) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID, "%s: [topology] n: expected 3 to 4096",
                path);
    g_clear_error(&e);
    return NULL;
  }
  topo *t = family_alloc(&ring_ops, n, 0, 2 * n, 2, error);
  if (!t)
    return NULL;
  for (int i = 0; i < n; i++) {
    family_set_link(t, i, i, (int)((i + 1) % n), 0);
    family_set_link(t, (int)n + i, i, (int)((i + n - 1) % n), 1);
  }
  family_finish(t);
  return t;
}

static char *ring_describe(const topo *t)
{
  return g_strdup_printf("ring of %d nodes", ring_n(t));
}

static void ring_class_name(const topo *t, int c, char *buf, size_t size)
{
  g_strlcpy(buf, c ? "-" : "+", size);
}

static int ring_reverse(const topo *t, int l)
{
  int n = ring_n(t);
  return l < n ? n + (l + 1) % n : (l - n + n - 1) % n;
}

static int ring_nslots(const topo *t)
{
  return 1;
}

static void ring_slot_name(const topo *t, int s, char *buf, size_t size)
{
  g_strlcpy(buf, "link", size);
}

static int ring_slot_of_class(const topo *t, int c)
{
  return 0;
}

static int ring_shorthand_slots(char **parts, char names[][16], int max)
{
  g_strlcpy(names[0], "link", 16);
  return 1;
}

/* diameter n/2; from each node 2 (1 + 2 + ... + (n-1)/2) (+ n/2 once
 * when n is even); the cut into two halves crosses 2 cables */
static void ring_facts(const platform *p, platform_facts *f)
{
  int n = ring_n(p->topo);
  double sum = 0;
  for (int d = 1; d < n; d++)
    sum += MIN(d, n - d);
  f->diameter = n / 2;
  f->avg_distance = sum / (n - 1);
  f->bisection_dim = 0;
  f->bisection_links = 4;
  f->bisection_bw = 4 * p->link_bw[0];
  g_snprintf(f->cut, sizeof f->cut, "nodes 0-%d | %d-%d", n / 2 - 1, n / 2, n - 1);
}

/* its drawing: the + links (row 0) and - links (row 1) by source node */
static void ring_draw(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  family_panel q = { g_strdup("ring links"), g_strdup("way"), g_strdup("from node"), 2,
                     t->nnodes, g_new(double, (size_t)t->nlinks), NULL, NULL, NULL };
  for (int l = 0; l < t->nlinks; l++)
    q.value[(size_t)t->link_class[l] * t->nnodes + t->link_src[l]] = value[l];
  g_array_append_val(panels, q);
}

static const char *const ring_keys[] = { "kind", "n", NULL };
static const family_param ring_params[] = { { "n", "topology", "n", "ring: nodes" } };
static const family_routing ring_routings[] = {
  { .name = "shorter", .algo = 0, .flags = 0, .summary = "the shorter way round, + on a tie" },
};

static const family_ops ring_ops = {
  .name = "ring",
  .text = "ring",
  .kind = TOPO_FAMILY_DIRECT,
  .keys = ring_keys,
  .params = ring_params,
  .nparams = G_N_ELEMENTS(ring_params),
  .usage = "ring:n=N",
  .routings = ring_routings,
  .nroutings = G_N_ELEMENTS(ring_routings),
  .shorthand_slots = ring_shorthand_slots,
  .read = ring_read,
  .describe = ring_describe,
  .class_name = ring_class_name,
  .reverse_link = ring_reverse,
  .nslots = ring_nslots,
  .slot_name = ring_slot_name,
  .slot_of_class = ring_slot_of_class,
  .hops = ring_hops,
  .route = ring_route,
  .facts = ring_facts,
  .draw = ring_draw,
};

static void register_ring(void)
{
  if (!family_find("ring"))
    family_register(&ring_ops);
}

Test(family_ext, a_registered_family_goes_through_topo_route_map_and_simulate)
{
  register_ring();
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *ring8 = tu_src("traces/data/ring-8");
  char *out = NULL, *err = NULL;

  /* 8 nodes, 16 links; diameter 4, average (1+1+2+2+3+3+4)/7 = 16/7 */
  const char *topo_args[] = { "topo", "-p", "ring:n=8", "--json", NULL };
  cr_assert_eq(run_main(dir, topo_args, &out, &err), 0, "%s", err);
  g_autoptr(JsonParser) tp = json_parser_new();
  JsonObject *t = parse_object(tp, out);
  cr_assert_eq(json_object_get_int_member(t, "nodes"), 8, "%s", out);
  cr_assert_eq(json_object_get_int_member(t, "links"), 16, "%s", out);
  cr_assert_eq(json_object_get_int_member(t, "diameter"), 4, "%s", out);
  cr_assert_float_eq(json_object_get_double_member(t, "avg_distance"), 16.0 / 7, 1e-12);
  cr_assert_str_eq(json_object_get_string_member(t, "routing"), "shorter");
  g_free(out);
  g_free(err);

  /* 0 -> 5 is 3 hops the - way: links 8 + 0, 8 + 7, 8 + 6 */
  const char *route_args[] = { "route", "-p", "ring:n=8", "0", "5", NULL };
  cr_assert_eq(run_main(dir, route_args, &out, &err), 0, "%s", err);
  cr_assert(strstr(out, "3 hops"), "%s", out);
  g_free(out);
  g_free(err);

  /* ring-8: rank i sends 5 x 1024 bytes to rank i + 1 (7 to 0); on the
   * ring every pair is one hop apart: 8 x 5120 hop-bytes, the least any
   * mapping can have, which greedy keeps */
  const char *map_args[] = { "map", "-q", "-p", "ring:n=8", "-t", ring8, "-s",
                             "greedy", "--json", NULL };
  cr_assert_eq(run_main(dir, map_args, &out, &err), 0, "%s", err);
  g_autoptr(JsonParser) mp = json_parser_new();
  JsonObject *m = parse_object(mp, out);
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(m, "identity"),
                                          "hop_bytes"), 8 * 5120, "%s", out);
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(m, "mapped"),
                                          "hop_bytes"), 8 * 5120, "%s", out);
  g_free(out);
  g_free(err);

  /* the analytic model: each of the 40 messages of 1024 bytes takes one
   * hop of 100 ns and 1024 B / 25e9 B/s */
  const char *sim_args[] = { "simulate", "-q", "-p", "ring:n=8", "-t", ring8, "--json",
                             NULL };
  cr_assert_eq(run_main(dir, sim_args, &out, &err), 0, "%s", err);
  g_autoptr(JsonParser) sp = json_parser_new();
  JsonObject *s = parse_object(sp, out);
  cr_assert_eq(json_object_get_int_member(s, "p2p_messages"), 40);
  cr_assert_eq(json_object_get_int_member(s, "p2p_bytes"), 40960);
  double sum = json_object_get_double_member(s, "p2p_transfer_sum_s");
  cr_assert_float_eq(sum, 40 * (100e-9 + 1024 / 25e9), 1e-15, "%.12g", sum);
  g_free(out);
  g_free(err);

  /* a routing the family does not have is refused naming the one it has */
  const char *bad_args[] = { "topo", "-p", "ring:n=8:routing=dor", NULL };
  cr_assert_eq(run_main(dir, bad_args, &out, &err), 2, "%s", err);
  cr_assert(strstr(err, "routing 'dor' on a ring, expected shorter"), "%s", err);
  g_free(out);
  g_free(err);

  /* and `mapsim routings` lists it with the built-in ones */
  const char *list_args[] = { "routings", NULL };
  cr_assert_eq(run_main(dir, list_args, &out, &err), 0, "%s", err);
  cr_assert(strstr(out, "\nring       shorter        -                the shorter way round"),
            "%s", out);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
}

/* `mapsim routings` prints every row of every family, the adaptive ones
 * marked; the --routing help and the shorthand help are generated from
 * the same rows (the hand-written lists had lost ugal, min-adaptive and
 * the tree's minimal). */
Test(family_ext, routings_and_the_help_lists_come_from_the_rows)
{
  g_autofree char *dir = tu_tmp_dir();
  char *out = NULL, *err = NULL;
  const char *list_args[] = { "routings", NULL };
  cr_assert_eq(run_main(dir, list_args, &out, &err), 0, "%s", err);
  cr_assert(g_str_has_prefix(out, "family     routing        kind             summary\n"), "%s",
            out);
  cr_assert(strstr(out, "\ntorus      dor            -                dimension order"), "%s",
            out);
  cr_assert(strstr(out, "\ndragonfly  ugal           adaptive, seeded per message (flow models)"), "%s", out);
  cr_assert(strstr(out, "\nfattree    ecmp           keyed            a hash of source"), "%s",
            out);
  cr_assert(strstr(out, "\nhyperx     min-adaptive   adaptive         one hop per"), "%s", out);
  cr_assert(strstr(out, "\ntree       minimal        -                up to the lowest common"),
            "%s", out);
  g_free(out);
  g_free(err);

  const char *help_args[] = { "simulate", "--help", NULL };
  cr_assert_eq(run_main(dir, help_args, &out, &err), 0, "%s", err);
  cr_assert(strstr(out, "minimal, valiant or ugal (dragonfly)"), "%s", out);
  cr_assert(strstr(out, "dor or min-adaptive (HyperX)"), "%s", out);
  cr_assert(strstr(out, "minimal (tree of switches)"), "%s", out);
  cr_assert(strstr(out, "  routing     minimal, valiant, ugal (dragonfly); dmodk, smodk, "
                        "random-up, ecmp (fattree); dor, min-adaptive (hyperx)\n"),
            "%s", out);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
}

/* The registry: the built-in families in order, found by name, and one
 * registered at run time after them. */
Test(family_ext, the_registry_finds_every_family)
{
  const char *names[] = { "torus", "graph", "dragonfly", "fattree", "hyperx", "tree" };
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    cr_assert_str_eq(family_at((int)i)->name, names[i]);
    cr_assert_eq(family_find(names[i]), family_at((int)i));
  }
  cr_assert_null(family_find("ring"));
  int before = family_count();
  register_ring();
  cr_assert_eq(family_count(), before + 1);
  cr_assert_eq(family_find("ring"), &ring_ops);
  cr_assert_eq(family_at(before), &ring_ops);
}

/* Issue 33: each indirect family's parameters live in its topology's
 * state, read through that family's accessor only; the others answer
 * NULL. dragonfly:g=9:a=4:p=2:h=2: m = floor(4 x 2 / 8) = 1 cable per
 * pair of groups, global links after the 2 x 72 node links and 36 x 3
 * local ones; fattree:k=4:n=3: 3 levels of 16 switches; hyperx:4x4:p=4:
 * 16 switches on 2 dimensions; tree.conf: 3 levels, top the root. */
Test(family_ext, each_family_reads_its_own_parameters)
{
  const char *specs[] = { "torus:4x4", "dragonfly:g=9:a=4:p=2:h=2", "fattree:k=4:n=3",
                          "hyperx:4x4:p=4", "slurm/tree.conf" };
  for (size_t i = 0; i < G_N_ELEMENTS(specs); i++) {
    g_autofree char *path = i == 4 ? tu_data(specs[i]) : g_strdup(specs[i]);
    GError *e = NULL;
    platform *p = platform_load(path, &e);
    cr_assert_not_null(p, "%s: %s", specs[i], e ? e->message : "");
    const topo *t = p->topo;
    const topo_dragonfly *df = topo_dragonfly_of(t);
    const topo_fattree *ft = topo_fattree_of(t);
    const topo_hyperx *hx = topo_hyperx_of(t);
    const topo_tree *tr = topo_tree_of(t);
    cr_assert_eq((df != NULL) + (ft != NULL) + (hx != NULL) + (tr != NULL), i == 0 ? 0 : 1,
                 "%s", specs[i]);
    cr_assert_eq(df != NULL, i == 1, "%s", specs[i]);
    cr_assert_eq(ft != NULL, i == 2, "%s", specs[i]);
    cr_assert_eq(hx != NULL, i == 3, "%s", specs[i]);
    cr_assert_eq(tr != NULL, i == 4, "%s", specs[i]);
    if (df) {
      cr_assert_eq(df->groups, 9);
      cr_assert_eq(df->parallel, 1);
      cr_assert_eq(df->global_base, 2 * 72 + 36 * 3);
      cr_assert_eq(topo_group_of(t, 71), 8);
    } else {
      cr_assert_eq(topo_group_of(t, 0), -1, "%s", specs[i]);
    }
    if (ft) {
      cr_assert_eq(ft->levels, 3);
      cr_assert_eq(ft->count[1] + ft->count[2] + ft->count[3], 48);
    }
    if (hx) {
      cr_assert_eq(hx->ndims, 2);
      cr_assert_eq(hx->switches, 16);
    }
    if (tr) {
      cr_assert_eq(tr->levels, 3);
      cr_assert_str_eq(p->names[tr->root], "top");
    }
    platform_free(p);
  }
  cr_assert_null(topo_dragonfly_of(NULL));
}

/* Issue 33: a family draws itself (family_ops.draw); report/netview.c
 * asks the hook and no longer switches on the family. The ring's panel
 * holds link l's value l at (class, source): + links 0..7 in row 0, -
 * links 8..15 in row 1; a torus has no drawing. */
Test(family_ext, a_registered_family_draws_its_own_view)
{
  register_ring();
  GError *e = NULL;
  platform *p = platform_load("ring:n=8", &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  double value[16];
  for (int l = 0; l < 16; l++)
    value[l] = l;
  net_view *v = net_view_new(p, value, 80);
  cr_assert_not_null(v);
  cr_assert_eq(v->npanels, 1);
  const net_panel *q = &v->panels[0];
  cr_assert_str_eq(q->title, "ring links");
  cr_assert_eq(q->rows, 2);
  cr_assert_eq(q->cols, 8);
  for (int i = 0; i < 8; i++) {
    cr_assert_float_eq(q->value[i], i, 0);
    cr_assert_float_eq(q->value[8 + i], 8 + i, 0);
  }
  net_view_free(v);
  platform_free(p);
  platform *torus = platform_load("torus:4x4", &e);
  cr_assert_not_null(torus, "%s", e ? e->message : "");
  cr_assert_null(net_view_new(torus, value, 80));
  platform_free(torus);
}

/* platform_load's message for `spec`, which must fail (caller frees). */
static char *load_error(const char *spec)
{
  GError *e = NULL;
  platform *p = platform_load(spec, &e);
  cr_assert_null(p, "%s loaded", spec);
  cr_assert_not_null(e, "%s", spec);
  char *message = g_strdup(e->message);
  g_error_free(e);
  return message;
}

/* Issue 35 item 16: a shorthand key given twice was taken silently (the
 * last won); both segments are named. */
Test(family_shorthands, a_key_given_twice_is_refused_naming_both)
{
  g_autofree char *df = load_error("dragonfly:g=9:a=4:p=2:h=2:g=5");
  cr_assert_str_eq(df, "platform 'dragonfly:g=9:a=4:p=2:h=2:g=5': 'g=9' and 'g=5' both give g, "
                       "expected each key once");
  g_autofree char *torus = load_error("torus:4x4:bw=1e9:bw=2e9");
  cr_assert(strstr(torus, "'bw=1e9' and 'bw=2e9' both give bw"), "%s", torus);
}

/* Issue 35 item 17: `hyperx:4,4:p=2` was refused ("y: no link type
 * given") although an INI file takes shape = 4,4: 16 switches of 2 nodes,
 * link types node, x and y. */
Test(family_shorthands, a_hyperx_shape_with_commas_is_a_shape)
{
  GError *e = NULL;
  platform *p = platform_load("hyperx:4,4:p=2", &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  cr_assert_eq(topo_compute_nodes(p->topo), 32);
  cr_assert_eq(p->topo->nswitches, 16);
  cr_assert_eq(topo_hyperx_of(p->topo)->ndims, 2);
  /* 2 x 32 injection links, 16 switches x 2 dimensions x 3 others */
  cr_assert_eq(p->topo->nlinks, 64 + 96);
  platform_free(p);
}

/* Issue 35 item 13: g = a = p = h = 2^24 overflowed int64 (UBSan) and the
 * message showed a negative link count; now counted in checked arithmetic. */
Test(family_shorthands, a_dragonfly_too_large_for_64_bits_is_refused_plainly)
{
  g_autofree char *m = load_error("dragonfly:g=16777216:a=16777216:p=16777216:h=16777216");
  cr_assert(strstr(m, "dragonfly g=16777216 a=16777216 p=16777216 h=16777216: more nodes and "
                      "links than a 64-bit count holds, expected fewer than 1073741824 of each"),
            "%s", m);
  cr_assert(!g_regex_match_simple("-[0-9]", m, 0, 0), "a negative count: %s", m);
}

/* A mistyped family name gets the nearest one, in a shorthand and in an
 * INI file's [topology] kind. */
Test(family_shorthands, an_unknown_family_name_suggests_the_nearest)
{
  g_autofree char *m = load_error("dragonfy:g=9:a=4:p=2:h=2");
  cr_assert(strstr(m, "platform 'dragonfy:g=9:a=4:p=2:h=2': not a file (did you mean dragonfly?), "
                      "expected an .ini or .json file or a shorthand mesh:XxYxZ, torus:XxYxZ, "
                      "haec:XxYxZ, dragonfly:g=G:a=A:p=P:h=H, fattree:k=K:n=N, hyperx:SxS:p=P"),
            "%s", m);
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *ini = g_build_filename(dir, "typo.ini", NULL);
  cr_assert(g_file_set_contents(ini,
                                "[linktype.l]\nbandwidth = 1e9\nlatency = 1e-9\n"
                                "[links]\ndefault = l\n[topology]\nkind = fatree\nk = 4\nn = 2\n",
                                -1, NULL));
  g_autofree char *k = load_error(ini);
  g_autofree char *want = g_strdup_printf("%s: [topology] kind = 'fatree' (did you mean "
                                          "fattree?): expected dragonfly, fattree, hyperx or tree",
                                          ini);
  cr_assert_str_eq(k, want);
  tu_rm_rf(dir);
}

/* Issue 34: a leaf-spine topology.conf (every leaf under every spine) was
 * refused ("switch leaf1 is under spine1 and spine2"); it is the fat tree
 * XGFT(2; 4,4; 1,2): 16 nodes, 4 leaves, 2 spines, 2 x 16 + 2 x 8 links;
 * two hops within a leaf, four across (up to a spine and down), so the
 * average distance is (3 x 2 + 12 x 4) / 15 = 3.6. The names stay
 * Slurm's, the nodes leaf by leaf. */
Test(family_shorthands, a_leaf_spine_slurm_file_is_a_two_level_fat_tree)
{
  g_autofree char *conf = tu_data("slurm/leafspine.conf");
  GError *e = NULL;
  platform *p = platform_load(conf, &e);
  cr_assert_not_null(p, "%s", e ? e->message : "");
  const topo *t = p->topo;
  cr_assert_str_eq(family_of(t)->name, "fattree");
  cr_assert_eq(topo_fattree_of(t)->levels, 2);
  cr_assert_eq(topo_fattree_of(t)->down[0], 4);
  cr_assert_eq(topo_fattree_of(t)->down[1], 4);
  cr_assert_eq(topo_fattree_of(t)->up[1], 2);
  cr_assert_eq(topo_compute_nodes(t), 16);
  cr_assert_eq(t->nswitches, 6);
  cr_assert_eq(t->nlinks, 48);
  cr_assert_eq(route_hops(p->router, 0, 3), 2);
  cr_assert_eq(route_hops(p->router, 0, 4), 4);
  platform_facts f;
  platform_get_facts(p, &f);
  cr_assert_eq(f.diameter, 4);
  cr_assert_float_eq(f.avg_distance, 3.6, 1e-12);
  cr_assert_str_eq(p->names[0], "n01");
  cr_assert_str_eq(p->names[5], "n06");
  cr_assert_str_eq(p->names[16], "leaf1");
  cr_assert_str_eq(p->names[21], "spine2");
  platform_free(p);
}
