/* hyperx.c - HyperX (Ahn, Binkert, Davis, McLaren and Schreiber, "HyperX:
 * topology, routing, and packaging of efficient large-scale networks",
 * SC09; measured against a fat tree by Domke et al., SC19): switches on a
 * grid S1 x S2 x ..., every switch joined to every other switch of each
 * line along a dimension (a Hamming graph), p nodes per switch.
 *
 * Ids: nodes [0, N), N = S p with S = S1 S2 ..., node n on switch n / p
 * (vertex N + s); switch coordinates dimension 0 fastest. Links: node n up
 * = n, down = N + n; switch s to coordinate t != c along d =
 * switch_base + s per_switch + dim_off[d] + (t < c ? t : t - 1). Routing
 * `dor`: one hop per differing dimension, dimension 0 first;
 * `min-adaptive`: the same in the rotation of that order the models find
 * least loaded at the source (route.h). Costs: a route or distance
 * O(ndims), facts O(ndims nlinks).
 */
#include "routing/family/family-private.h"

#include "routing/platform-private.h"

/* The parameters of t, a HyperX (the family's own hooks: t->state). */
static inline const topo_hyperx *hx_of(const topo *t)
{
  return t->state;
}

const topo_hyperx *topo_hyperx_of(const topo *t)
{
  return t && t->ops == &family_hyperx_ops ? t->state : NULL;
}


enum { HX_UP, HX_DOWN, HX_DIM0 };

static inline int coord(const topo_hyperx *hx, int s, int d)
{
  return s / hx->stride[d] % hx->shape[d];
}

static inline int switch_link(const topo_hyperx *hx, int s, int d, int t)
{
  int c = coord(hx, s, d);
  return hx->switch_base + s * hx->per_switch + hx->dim_off[d] + (t < c ? t : t - 1);
}

topo *topo_new_hyperx(const topo_hyperx *in, GError **error)
{
  if (in->ndims < 1 || in->ndims > TOPO_MAX_DIMS || in->nodes_per_router < 1) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "hyperx of %d dimensions, %d nodes per switch, expected 1 to %d dimensions and "
                "at least 1 node", in->ndims, in->nodes_per_router, TOPO_MAX_DIMS);
    return NULL;
  }
  topo_hyperx hx = { .ndims = in->ndims, .nodes_per_router = in->nodes_per_router };
  double switches = 1, per = 0;
  for (int d = 0; d < in->ndims; d++) {
    if (in->shape[d] < 1) {
      g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                  "hyperx dimension %c has size %d, expected at least 1", topo_dim_letter(d),
                  in->shape[d]);
      return NULL;
    }
    hx.shape[d] = in->shape[d];
    hx.stride[d] = (int)MIN(switches, G_MAXINT);
    hx.dim_off[d] = (int)per;
    switches *= in->shape[d];
    per += in->shape[d] - 1;
  }
  double nodes = switches * in->nodes_per_router, links = 2 * nodes + switches * per;
  if (nodes + switches >= TOPO_MAX_NODES || links >= TOPO_MAX_LINKS) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "hyperx: %.0f nodes and switches, %.0f links, expected fewer than %d of each",
                nodes + switches, links, TOPO_MAX_NODES);
    return NULL;
  }
  hx.switches = (int)switches;
  hx.per_switch = (int)per;
  hx.switch_base = (int)(2 * nodes);
  topo *t = family_alloc(&family_hyperx_ops, (int64_t)nodes, hx.switches, (int64_t)links,
                         HX_DIM0 + hx.ndims, error);
  if (!t)
    return NULL;
  t->state = g_memdup2(&hx, sizeof hx);
  int N = (int)nodes, p = hx.nodes_per_router;
  for (int n = 0; n < N; n++) {
    family_set_link(t, n, n, N + n / p, HX_UP);
    family_set_link(t, N + n, N + n / p, n, HX_DOWN);
  }
  for (int s = 0; s < hx.switches; s++)
    for (int d = 0; d < hx.ndims; d++) {
      int c = coord(&hx, s, d);
      for (int v = 0; v < hx.shape[d]; v++)
        if (v != c)
          family_set_link(t, switch_link(&hx, s, d, v), N + s, N + s + (v - c) * hx.stride[d],
                          HX_DIM0 + d);
    }
  family_finish(t);
  return t;
}

static char *hx_describe(const topo *t)
{
  const topo_hyperx *hx = hx_of(t);
  GString *s = g_string_new("hyperx ");
  for (int d = 0; d < hx->ndims; d++)
    g_string_append_printf(s, d ? "x%d" : "%d", hx->shape[d]);
  g_string_append_printf(s, " p=%d", hx->nodes_per_router);
  return g_string_free(s, FALSE);
}

static void hx_slot_name(const topo *t, int s, char *buf, size_t size)
{
  if (s == 0)
    g_strlcpy(buf, "node", size);
  else
    g_snprintf(buf, size, "%c", topo_dim_letter(s - 1));
}

static void hx_class_name(const topo *t, int c, char *buf, size_t size)
{
  if (c < HX_DIM0)
    g_strlcpy(buf, c == HX_UP ? "node up" : "node down", size);
  else
    hx_slot_name(t, c - HX_DIM0 + 1, buf, size);
}

static int hx_nslots(const topo *t)
{
  return 1 + hx_of(t)->ndims;
}

static int hx_slot_of_class(const topo *t, int c)
{
  return c < HX_DIM0 ? 0 : c - HX_DIM0 + 1;
}

static int hx_reverse_link(const topo *t, int l)
{
  const topo_hyperx *hx = hx_of(t);
  int N = hx->switch_base / 2;
  if (l < hx->switch_base)
    return l < N ? l + N : l - N;
  int s = t->link_src[l] - N, d = t->link_class[l] - HX_DIM0;
  return switch_link(hx, t->link_dst[l] - N, d, coord(hx, s, d));
}

static int hx_hops(const topo *t, int a, int b)
{
  const topo_hyperx *hx = hx_of(t);
  int sa = a / hx->nodes_per_router, sb = b / hx->nodes_per_router, h = 2;
  for (int d = 0; d < hx->ndims; d++)
    h += coord(hx, sa, d) != coord(hx, sb, d);
  return h;
}

/* Dimension order from dimension `variant` on (dor: 0, x first); every
 * rotation is a minimal route, the candidates of min-adaptive. */
static int hx_route(const router *r, int s, int d, uint64_t key, route_path path, int variant,
                    int *links)
{
  const topo_hyperx *hx = hx_of(r->t);
  int N = hx->switch_base / 2, cur = s / hx->nodes_per_router, to = d / hx->nodes_per_router;
  int n = 0;
  links[n++] = s;
  for (int i = 0; i < hx->ndims; i++) {
    int k = (variant + i) % hx->ndims;
    int c = coord(hx, cur, k), want = coord(hx, to, k);
    if (c == want)
      continue;
    links[n++] = switch_link(hx, cur, k, want);
    cur += (want - c) * hx->stride[k];
  }
  links[n++] = N + d;
  return n;
}

static void hx_facts(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  const topo_hyperx *hx = hx_of(t);
  double S = hx->switches, pp = hx->nodes_per_router, N = S * pp, ham = 0;
  int diam = pp > 1 ? 2 : 0;
  for (int d = 0; d < hx->ndims; d++) {
    ham += 1 - 1.0 / hx->shape[d];
    if (hx->shape[d] > 1)
      diam = diam ? diam + 1 : 3;
  }
  double total = 2 * S * pp * (pp - 1) + pp * pp * (2 * S * (S - 1) + S * S * ham);
  f->diameter = diam;
  f->avg_distance = N > 1 ? total / family_pairs(N) : 0;
  /* the cheapest cut of one dimension in half */
  for (int d = 0; d < hx->ndims; d++) {
    int half = hx->shape[d] / 2, count = 0;
    double bw = 0;
    if (half < 1)
      continue;
    for (int l = hx->switch_base; l < t->nlinks; l++)
      if (t->link_class[l] == HX_DIM0 + d &&
          (coord(hx, t->link_src[l] - (int)N, d) < half) !=
              (coord(hx, t->link_dst[l] - (int)N, d) < half)) {
        count++;
        bw += p->link_bw[l];
      }
    facts_offer_dimension_cut(f, d, count, bw);
  }
}

/* min-adaptive: one candidate per rotation of the dimension order */
static int rotations(const router *r)
{
  return MAX(hx_of(r->t)->ndims, 1);
}

/* min-adaptive routes the dimensions in any order, so the channel is the
 * count of switch-to-switch hops taken (route.h, route_vc_classes) */
static int hops_classes(const router *r)
{
  return hx_of(r->t)->ndims + 1;
}

static gboolean switch_hop(const router *r, int link)
{
  const topo *t = r->t;
  return topo_is_switch(t, t->link_src[link]) && topo_is_switch(t, t->link_dst[link]);
}

static const family_routing hx_routings[] = {
  { .name = "dor", .algo = ROUTE_ALGO_DOR, .flags = 0,
    .summary = "one hop per differing dimension, x first" },
  { .name = "min-adaptive", .algo = ROUTE_ALGO_MIN_ADAPTIVE, .flags = ROUTE_FLAG_ADAPTIVE,
    .summary = "one hop per differing dimension, in the rotation of the order least loaded at the "
    "source", .candidates = rotations, .vc_classes = hops_classes, .vc_step = switch_hop },
};

static const char *const hx_keys[] = { "kind", "shape", "nodes_per_router", NULL };

static const family_param hx_params[] = {
  { "p", "topology", "nodes_per_router", "dragonfly, hyperx: nodes per router (switch)" },
};

static topo *hx_read(GKeyFile *kf, const char *path, const char *dir, platform *p,
                     GError **error)
{
  topo_hyperx hx = { 0 };
  g_autofree char *shape = g_key_file_get_string(kf, "topology", "shape", NULL);
  g_auto(GStrv) dims = g_strsplit_set(shape ? g_strstrip(shape) : "", "x,", -1);
  hx.ndims = (int)g_strv_length(dims);
  gboolean ok = shape && hx.ndims >= 1 && hx.ndims <= TOPO_MAX_DIMS;
  for (int d = 0; ok && d < hx.ndims; d++) {
    gint64 v;
    ok = g_ascii_string_to_signed(dims[d], 10, 1, 1 << 20, &v, NULL);
    hx.shape[d] = (int)v;
  }
  if (!ok) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] shape = '%s': expected 1 to %d positive sizes like 12x8", path,
                shape ? shape : "", TOPO_MAX_DIMS);
    return NULL;
  }
  if (!platform_topology_int(kf, path, "nodes_per_router", TRUE, 1, &hx.nodes_per_router,
                             error))
    return NULL;
  return topo_new_hyperx(&hx, error);
}

/* node, x, y ...: one per dimension of the shape (12x8 or, as the INI
 * key reads it, 12,8) */
static int hx_shorthand_slots(char **parts, char names[][16], int max)
{
  int dims = 0;
  if (parts[1]) {
    g_auto(GStrv) v = g_strsplit_set(parts[1], "x,", -1);
    dims = (int)g_strv_length(v);
  }
  int n = MIN(MAX(dims, 1), MIN(TOPO_MAX_DIMS, max - 1)) + 1;
  g_strlcpy(names[0], "node", 16);
  for (int s = 1; s < n; s++)
    g_snprintf(names[s], 16, "%c", topo_dim_letter(s - 1));
  return n;
}

/* the switches along each dimension, the last first, then the nodes */
static int hx_hierarchy(const topo *t, int *radix)
{
  int n = 0;
  for (int d = hx_of(t)->ndims - 1; d >= 0; d--)
    radix[n++] = hx_of(t)->shape[d];
  radix[n++] = hx_of(t)->nodes_per_router;
  return n;
}

static void hx_draw(const platform *p, const double *value, GArray *panels)
{
  const topo *t = p->topo;
  const topo_hyperx *hx = topo_hyperx_of(t);
  int N = topo_compute_nodes(t), S0 = hx->shape[0], rows = hx->switches / S0;
  const char *down = hx->ndims == 2 ? "y" : "y, z ... (folded)";
  int first = (int)panels->len;
  for (int d = 0; d < hx->ndims; d++) {
    char dim = topo_dim_letter(d);
    family_panel_add(panels, hx->shape[d], hx->shape[d], "from", "to",
              g_strdup_printf("dimension %c: coordinate to coordinate (busiest of the %d lines)",
                              dim, hx->switches / hx->shape[d]));
    family_panel_add(panels, rows, S0, down, "x",
              g_strdup_printf("dimension %c: each switch's busiest %c link", dim, dim));
  }
  family_panel *nodes = family_panel_add(panels, rows, S0, down, "x",
                               g_strdup("node links of each switch (busier way)"));
  for (int l = 0; l < t->nlinks; l++) {
    int s = t->link_src[l], e = t->link_dst[l];
    if (s < N || e < N) {
      int sw = (s < N ? e : s) - N;
      family_panel_put(nodes, sw / S0, sw % S0, value[l]);
      continue;
    }
    s -= N;
    e -= N;
    int d = t->link_class[l] - 2;
    int cs = s / hx->stride[d] % hx->shape[d], ce = e / hx->stride[d] % hx->shape[d];
    family_panel_put(&g_array_index(panels, family_panel, first + 2 * d), cs, ce, value[l]);
    family_panel_put(&g_array_index(panels, family_panel, first + 2 * d + 1), s / S0, s % S0, value[l]);
  }
}

const family_ops family_hyperx_ops = {
  .name = "hyperx",
  .text = "HyperX",
  .kind = TOPO_FAMILY_HYPERX,
  .keys = hx_keys,
  .params = hx_params,
  .nparams = G_N_ELEMENTS(hx_params),
  .positional = "shape",
  .usage = "hyperx:SxS:p=P",
  .routings = hx_routings,
  .nroutings = G_N_ELEMENTS(hx_routings),
  .shorthand_slots = hx_shorthand_slots,
  .read = hx_read,
  .describe = hx_describe,
  .class_name = hx_class_name,
  .reverse_link = hx_reverse_link,
  .nslots = hx_nslots,
  .slot_name = hx_slot_name,
  .slot_of_class = hx_slot_of_class,
  .hops = hx_hops,
  .route = hx_route,
  .facts = hx_facts,
  .hierarchy = hx_hierarchy,
  .draw = hx_draw,
  .free_state = g_free,
};
