/* platform.c - platform construction, allocation, link types; what the
 * loaders (platform-ini.c, platform-json.c, platform-family.c) build with.
 * Which loader reads an argument is platform-load.c's choice.
 */
#include "routing/platform-private.h"

#include "routing/alloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/enumname.h"

platform *platform_alloc(const char *source)
{
  platform *p = g_new0(platform, 1);
  p->source = g_strdup(source);
  p->name = g_path_get_basename(source);
  p->cores_per_node = 1;
  p->notes = g_ptr_array_new_with_free_func(g_free);
  p->facts = g_ptr_array_new_with_free_func(g_free);
  p->left_out = g_ptr_array_new_with_free_func(g_free);
  p->model = (platform_model){
    .router_delay = 0.0,
    .eager_threshold = 65536,
    .handshake = PLATFORM_HANDSHAKE_RTS_CTS,
    .send_overhead = 0.0,
    .recv_overhead = 0.0,
    .packet_size = 4096,
    .packet_header = 0,
    .envelope = 0,
  };
  return p;
}

static const char *const handshake_names[] = { "rts-cts", "sync" };
static const char *const sharing_names[] = { "fair", "latency" };
static const char *const eager_start_names[] = { "send", "match" };

gboolean platform_handshake_from_name(const char *name, platform_handshake *out)
{
  int i;
  if (!enum_parse(handshake_names, G_N_ELEMENTS(handshake_names), name, &i))
    return FALSE;
  *out = (platform_handshake)i;
  return TRUE;
}

gboolean platform_eager_start_from_name(const char *name, platform_eager_start *out)
{
  int i;
  if (!enum_parse(eager_start_names, G_N_ELEMENTS(eager_start_names), name, &i))
    return FALSE;
  *out = (platform_eager_start)i;
  return TRUE;
}

const char *platform_sharing_name(platform_sharing s)
{
  return enum_name(sharing_names, G_N_ELEMENTS(sharing_names), (int)s);
}

gboolean platform_sharing_from_name(const char *name, platform_sharing *out)
{
  int i;
  if (!enum_parse(sharing_names, G_N_ELEMENTS(sharing_names), name, &i))
    return FALSE;
  *out = (platform_sharing)i;
  return TRUE;
}

/* SimGrid 3.32's smpi/bw-factor and smpi/lat-factor defaults
 * (src/simgrid/sg_config.cpp), measured MPI ping-pongs fitted by size. */
#define SMPI_BW_FACTOR                                                                      \
  "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;"   \
  "732:0.341987;257:0.338112;0:0.812084"
#define SMPI_LAT_FACTOR                                                                     \
  "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;"      \
  "732:1.9503;257:1.95341;0:2.01467"

static int factor_cmp(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

gboolean platform_factors_parse(const char *text, platform_factors *out, char **why)
{
  platform_factors f = { 0 };
  g_auto(GStrv) items = g_strsplit(text, ";", -1);
  struct {
    int64_t above;
    double value;
  } e[PLATFORM_MAX_FACTORS];
  for (int i = 0; items[i]; i++) {
    char *item = g_strstrip(items[i]);
    if (!*item)
      continue;
    char *colon = strchr(item, ':'), *end = NULL;
    if (f.n == PLATFORM_MAX_FACTORS) {
      *why = g_strdup_printf("more than %d sizes", PLATFORM_MAX_FACTORS);
      return FALSE;
    }
    if (!colon) {
      *why = g_strdup_printf("'%s': expected SIZE:FACTOR", item);
      return FALSE;
    }
    *colon = '\0';
    guint64 t;
    if (!g_ascii_string_to_unsigned(g_strstrip(item), 10, 0, G_MAXINT64, &t, NULL)) {
      *why = g_strdup_printf("'%s': expected a size in bytes", item);
      return FALSE;
    }
    double v = g_ascii_strtod(colon + 1, &end);
    while (end && g_ascii_isspace(*end))
      end++;
    if (end == colon + 1 || *end || !(v > 0) || !isfinite(v)) {
      *why = g_strdup_printf("'%s': expected a factor > 0", colon + 1);
      return FALSE;
    }
    for (int j = 0; j < f.n; j++)
      if (e[j].above == (int64_t)t) {
        *why = g_strdup_printf("size %" G_GUINT64_FORMAT " given twice", t);
        return FALSE;
      }
    e[f.n].above = (int64_t)t;
    e[f.n].value = v;
    f.n++;
  }
  qsort(e, (size_t)f.n, sizeof e[0], factor_cmp);
  for (int i = 0; i < f.n; i++) {
    f.above[i] = e[i].above;
    f.value[i] = e[i].value;
  }
  *out = f;
  return TRUE;
}

gboolean platform_apply_preset(platform *p, const char *name, GError **error)
{
  gboolean smpi = g_strcmp0(name, "smpi") == 0;
  gboolean simgrid = smpi || g_strcmp0(name, "simgrid") == 0;
  if (!simgrid && g_strcmp0(name, "mapsim") != 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "preset '%s': unknown, expected mapsim, simgrid or smpi", name);
    return FALSE;
  }
  /* SMPI detaches (sends eagerly) messages of size < 65536: 65535 here,
   * where messages up to the threshold are eager */
  p->model.eager_threshold = simgrid ? 65535 : 65536;
  p->model.handshake = simgrid ? PLATFORM_HANDSHAKE_SYNC : PLATFORM_HANDSHAKE_RTS_CTS;
  p->model.send_overhead = p->model.recv_overhead = 0;
  p->model.envelope = simgrid ? 16 : 0;
  p->model.sharing = simgrid ? PLATFORM_SHARING_LATENCY : PLATFORM_SHARING_FAIR;
  p->model.eager_start = simgrid ? PLATFORM_EAGER_MATCH : PLATFORM_EAGER_SEND;
  p->model.bw_factor = p->model.lat_factor = (platform_factors){ 0 };
  p->model.tcp_gamma = p->model.crosstraffic = p->model.weight_s = 0;
  if (smpi) {
    char *why = NULL;
    if (!platform_factors_parse(SMPI_BW_FACTOR, &p->model.bw_factor, &why) ||
        !platform_factors_parse(SMPI_LAT_FACTOR, &p->model.lat_factor, &why))
      g_error("SMPI's factors: %s", why); /* constant text: cannot happen */
    /* network/TCP-gamma (NetworkModel.cpp), crosstraffic's 5 % of the
     * rate on the route back (network_cm02.cpp), network/weight-S that
     * surf_network_model_init_SMPI sets */
    p->model.tcp_gamma = 4194304;
    p->model.crosstraffic = 0.05;
    p->model.weight_s = 8775;
  }
  if (p->router)
    p->router->tie = simgrid ? ROUTE_TIE_SIMGRID : ROUTE_TIE_POSITIVE;
  return TRUE;
}

gboolean platform_model_is_cm02(const platform_model *m)
{
  return m->bw_factor.n == 0 && m->lat_factor.n == 0 && m->tcp_gamma == 0 &&
         m->crosstraffic == 0 && m->weight_s == 0;
}

platform *platform_with_allocation(const platform *p, const int *nodes, int n, GError **error)
{
  platform *v = g_new(platform, 1);
  *v = *p;
  v->shared = p->shared ? p->shared : p;
  v->alloc = v->alloc_index = NULL;
  if (!platform_set_allocation_nodes(v, nodes, n, error)) {
    platform_free(v);
    return NULL;
  }
  return v;
}

void platform_free(platform *p)
{
  if (!p)
    return;
  g_free(p->alloc);
  g_free(p->alloc_index);
  if (p->shared) {
    g_free(p);
    return;
  }
  router_free(p->router);
  topo_free(p->topo);
  for (int i = 0; i < p->nlinktypes; i++)
    g_free(p->linktypes[i].name);
  g_free(p->linktypes);
  g_free(p->link_type);
  g_free(p->link_bw);
  g_free(p->link_lat);
  g_ptr_array_unref(p->notes);
  g_ptr_array_unref(p->facts);
  g_ptr_array_unref(p->left_out);
  g_strfreev(p->names);
  g_free(p->name);
  g_free(p->source);
  g_free(p);
}

int platform_find_linktype(const platform *p, const char *name)
{
  for (int i = 0; i < p->nlinktypes; i++)
    if (strcmp(p->linktypes[i].name, name) == 0)
      return i;
  return -1;
}

int platform_add_linktype(platform *p, const char *name, double bandwidth, double latency,
                          const char *where, GError **error)
{
  if (!(bandwidth > 0) || !isfinite(bandwidth)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: bandwidth %g, expected a positive number of bytes/s", where, bandwidth);
    return -1;
  }
  if (!(latency >= 0) || !isfinite(latency)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: latency %g, expected a non-negative number of seconds", where, latency);
    return -1;
  }
  if (platform_find_linktype(p, name) >= 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: link type '%s' defined twice, expected unique names", where, name);
    return -1;
  }
  if (p->nlinktypes >= 255) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: more than 255 link types", where);
    return -1;
  }
  p->linktypes = g_renew(linktype, p->linktypes, p->nlinktypes + 1);
  p->linktypes[p->nlinktypes] = (linktype){ g_strdup(name), bandwidth, latency,
                                            { .idle_timeout = -1 } };
  return p->nlinktypes++;
}

int platform_links_type_named(GKeyFile *kf, const platform *p, const char *path, const char *name,
                              const char *field, GError **error)
{
  if (!name) {
    char *def = g_key_file_get_string(kf, "links", "default", NULL);
    if (!def && p->nlinktypes == 1)
      return 0;
    if (!def) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "%s: %s: no link type given, expected [links] %s or [links] default", path,
                  field, field);
      return -1;
    }
    int i = platform_links_type_named(kf, p, path, g_strstrip(def), "[links] default", error);
    g_free(def);
    return i;
  }
  int i = platform_find_linktype(p, name);
  if (i < 0)
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: %s: unknown link type '%s', expected a [linktype.%s] group", path, field,
                name, name);
  return i;
}

int platform_links_type(GKeyFile *kf, const platform *p, const char *path, const char *key,
                        GError **error)
{
  g_autofree char *name = g_key_file_get_string(kf, "links", key, NULL);
  char field[32];
  g_snprintf(field, sizeof field, "[links] %s", key);
  return platform_links_type_named(kf, p, path, name ? g_strstrip(name) : NULL,
                                   name ? field : key, error);
}

static void fill_link_params(platform *p)
{
  int nl = p->topo->nlinks;
  p->link_bw = g_new(double, nl ? nl : 1);
  p->link_lat = g_new(double, nl ? nl : 1);
  for (int l = 0; l < nl; l++) {
    p->link_bw[l] = p->linktypes[p->link_type[l]].bandwidth;
    p->link_lat[l] = p->linktypes[p->link_type[l]].latency;
  }
}

gboolean platform_build_regular(platform *p, int ndims, const int *shape, const topo_conn *conn,
                                int *const *pattern, const int *pattern_len, GError **error)
{
  p->topo = topo_new_regular(ndims, shape, conn, error);
  if (!p->topo)
    return FALSE;
  const topo *t = p->topo;
  p->link_type = g_new(uint8_t, t->nlinks ? t->nlinks : 1);
  for (int l = 0; l < t->nlinks; l++) {
    int d = t->link_dim[l];
    int n = t->shape[d];
    int a = (t->link_src[l] / t->stride[d]) % n;
    int b = (t->link_dst[l] / t->stride[d]) % n;
    /* the lower end names the cable; the wrap link n-1 <-> 0 counts as n-1 */
    int c = MIN(a, b);
    if (t->conn[d] == TOPO_TORUS && MAX(a, b) == n - 1 && c == 0 && n > 2)
      c = n - 1;
    p->link_type[l] = (uint8_t)pattern[d][c % pattern_len[d]];
  }
  fill_link_params(p);
  return TRUE;
}

void platform_set_topo(platform *p, topo *t, uint8_t *link_type)
{
  p->topo = t;
  p->link_type = link_type;
  fill_link_params(p);
}

gboolean platform_build_graph(platform *p, int nnodes, int nlinks, const int *src,
                              const int *dst, const uint8_t *type, GError **error)
{
  p->topo = topo_new_graph(nnodes, nlinks, src, dst, error);
  if (!p->topo)
    return FALSE;
  p->link_type = g_memdup2(type, nlinks ? (gsize)nlinks : 1);
  fill_link_params(p);
  return TRUE;
}

static void set_alloc(platform *p, int *nodes, int n)
{
  g_free(p->alloc);
  g_free(p->alloc_index);
  p->alloc = nodes;
  p->nalloc = n;
  p->alloc_index = g_new(int, p->topo->nnodes);
  for (int i = 0; i < p->topo->nnodes; i++)
    p->alloc_index[i] = -1;
  for (int i = 0; i < n; i++)
    p->alloc_index[nodes[i]] = i;
}

/* Every compute node (switches hold no ranks), in id order. */
static void set_alloc_all(platform *p)
{
  int n = topo_compute_nodes(p->topo);
  int *all = g_new(int, n);
  for (int i = 0; i < n; i++)
    all[i] = i;
  set_alloc(p, all, n);
}

gboolean platform_finish(platform *p, const char *order, GError **error)
{
  int ord[TOPO_MAX_DIMS];
  if (order && topo_is_regular(p->topo) &&
      !router_parse_order(p->topo, order, ord, error))
    return FALSE;
  p->router = router_new(p->topo, order && topo_is_regular(p->topo) ? ord : NULL, error);
  if (!p->router)
    return FALSE;
  if (p->router->dist) {
    /* regular topologies are connected by construction; a link graph must be
     * strongly connected, or routes, distances and the mappers' searches
     * have no answer for some pairs */
    size_t n = (size_t)p->topo->nnodes;
    for (size_t i = 0; i < n * n; i++)
      if (p->router->dist[i] < 0) {
        g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                    "%s: node %zu cannot reach node %zu over the links, expected a connected "
                    "link graph (every node reaching every other)", p->source, i / n, i % n);
        return FALSE;
      }
  }
  if (!p->alloc)
    set_alloc_all(p);
  return TRUE;
}

gboolean platform_set_cores(platform *p, int cores, GError **error)
{
  if (cores < 1 || cores > PLATFORM_MAX_CORES) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: %d cores per node, expected 1 to %d", p->source, cores, PLATFORM_MAX_CORES);
    return FALSE;
  }
  p->cores_per_node = cores;
  return TRUE;
}

/* A token of a node list: an id, or a range A-B of ids (A <= B). */
static gboolean parse_node_range(const char *tok, int nnodes, long *lo, long *hi)
{
  const char *dash = strchr(tok, '-');
  if (!dash)
    return platform_parse_long(tok, 0, nnodes - 1, lo) && (*hi = *lo, TRUE);
  g_autofree char *a = g_strndup(tok, (gsize)(dash - tok));
  return platform_parse_long(a, 0, nnodes - 1, lo) && platform_parse_long(dash + 1, *lo, nnodes - 1, hi);
}

gboolean platform_parse_node_list(const platform *p, const char *text, const char *source,
                                  int first_line, int **nodes_out, int *n_out, GError **error)
{
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  int nnodes = topo_compute_nodes(p->topo);
  g_autofree gboolean *used = g_new0(gboolean, MAX(nnodes, 1));
  GArray *nodes = g_array_new(FALSE, FALSE, sizeof(int));
  for (int ln = 0; lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    g_auto(GStrv) tok = g_strsplit_set(lines[ln], " \t\r,", -1);
    for (int i = 0; tok[i]; i++) {
      long lo, hi;
      if (!*tok[i])
        continue;
      if (!parse_node_range(tok[i], nnodes, &lo, &hi)) {
        g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                    "%s:%d: '%s' is not a node, expected ids or ranges A-B in [0, %d)%s", source,
                    first_line + ln, tok[i], nnodes,
                    p->topo->nswitches ? " (switches hold no ranks)" : "");
        g_array_free(nodes, TRUE);
        return FALSE;
      }
      for (long v = lo; v <= hi; v++) {
        if (used[v]) {
          g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                      "%s:%d: node %ld listed twice, expected each node once", source,
                      first_line + ln, v);
          g_array_free(nodes, TRUE);
          return FALSE;
        }
        used[v] = TRUE;
        int node = (int)v;
        g_array_append_val(nodes, node);
      }
    }
  }
  if (nodes->len == 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s:%d: no nodes, expected at least one node id", source, first_line);
    g_array_free(nodes, TRUE);
    return FALSE;
  }
  *n_out = (int)nodes->len;
  *nodes_out = (int *)(void *)g_array_free(nodes, FALSE);
  return TRUE;
}

static gboolean load_node_list(platform *p, const char *path, GError **error)
{
  g_autofree char *text = NULL;
  int *nodes, n;
  if (!budget_read_text(path, "a node list (or all, POLICY:N[:SEED])", &text, NULL, error) ||
      !platform_parse_node_list(p, text, path, 1, &nodes, &n, error))
    return FALSE;
  set_alloc(p, nodes, n);
  return TRUE;
}

gboolean platform_set_allocation(platform *p, const char *spec, GError **error)
{
  if (strcmp(spec, "all") == 0) {
    set_alloc_all(p);
    return TRUE;
  }
  if (!alloc_is_policy(spec)) {
    /* `randm:16` is a mistyped policy, not a node list file that is missing */
    g_autofree char *hint = strchr(spec, ':') && !g_file_test(spec, G_FILE_TEST_EXISTS)
                                ? alloc_policy_hint(spec) : NULL;
    if (hint && *hint) {
      g_autofree char *names = alloc_policy_names();
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                  "allocation %s: unknown policy '%.*s'%s, expected POLICY:N[:SEED] "
                  "with POLICY one of %s, all, or a node list file", spec,
                  (int)strcspn(spec, ":"), spec, hint, names);
      return FALSE;
    }
    return load_node_list(p, spec, error);
  }
  alloc_request r;
  if (!alloc_parse(spec, topo_compute_nodes(p->topo), &r, error))
    return FALSE;
  int *nodes = alloc_pick(p->topo, &r, NULL, spec, error);
  if (!nodes)
    return FALSE;
  set_alloc(p, nodes, r.nodes);
  return TRUE;
}

gboolean platform_set_allocation_nodes(platform *p, const int *nodes, int n, GError **error)
{
  int nnodes = topo_compute_nodes(p->topo);
  g_autofree gboolean *used = g_new0(gboolean, MAX(nnodes, 1));
  for (int i = 0; i < n; i++) {
    if (nodes[i] < 0 || nodes[i] >= nnodes || used[nodes[i]]) {
      g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                  "%s: allocation of node %d, expected each compute node in [0, %d) once",
                  p->source, nodes[i], nnodes);
      return FALSE;
    }
    used[nodes[i]] = TRUE;
  }
  if (n < 1) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: an allocation of no nodes, expected at least one", p->source);
    return FALSE;
  }
  set_alloc(p, g_memdup2(nodes, sizeof(int) * (size_t)n), n);
  return TRUE;
}

gboolean platform_set_fill(platform *p, const char *name, GError **error)
{
  if (g_strcmp0(name, "pack") == 0)
    p->fill = PLATFORM_FILL_PACK;
  else if (g_strcmp0(name, "spread") == 0)
    p->fill = PLATFORM_FILL_SPREAD;
  else {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "fill policy '%s': expected pack (cores first) or spread (nodes first)",
                name ? name : "");
    return FALSE;
  }
  return TRUE;
}

const char *platform_fill_name(platform_fill f)
{
  return f == PLATFORM_FILL_SPREAD ? "spread" : "pack";
}

int platform_ranks_per_node(const platform *p, int nranks)
{
  if (p->fill == PLATFORM_FILL_PACK || p->nalloc < 1 || nranks < 1)
    return p->cores_per_node;
  int per = (int)(((int64_t)nranks + p->nalloc - 1) / p->nalloc);
  return MIN(per, p->cores_per_node);
}

gboolean platform_check_capacity(const platform *p, int64_t nranks, GError **error)
{
  int64_t cap = platform_capacity(p);
  if (nranks <= cap)
    return TRUE;
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
              "%s: %" G_GINT64_FORMAT " ranks do not fit %d allocated node%s x %d core%s, "
              "expected at most %" G_GINT64_FORMAT " rank%s (use --cores or --alloc)",
              p->name, nranks, p->nalloc, p->nalloc == 1 ? "" : "s", p->cores_per_node,
              p->cores_per_node == 1 ? "" : "s", cap, cap == 1 ? "" : "s");
  return FALSE;
}

char *platform_link_name(const platform *p, int link)
{
  const topo *t = p->topo;
  const char *type = p->linktypes[p->link_type[link]].name;
  if (t->nswitches) {
    char cls[16], ends[2][24];
    topo_class_name(t, t->link_class[link], cls, sizeof cls);
    for (int e = 0; e < 2; e++) {
      int v = e ? t->link_dst[link] : t->link_src[link];
      if (p->names)
        g_strlcpy(ends[e], p->names[v], sizeof ends[e]);
      else if (topo_is_switch(t, v))
        g_snprintf(ends[e], sizeof ends[e], "sw%d", v - topo_compute_nodes(t));
      else
        g_snprintf(ends[e], sizeof ends[e], "%d", v);
    }
    return g_strdup_printf("%s -> %s (%s, %s)", ends[0], ends[1], cls, type);
  }
  if (!topo_is_regular(t))
    return g_strdup_printf("%d -> %d (%s)", t->link_src[link], t->link_dst[link], type);
  return g_strdup_printf("%d -> %d (%c%c, %s)", t->link_src[link], t->link_dst[link],
                         topo_dim_letter(t->link_dim[link]), t->link_dir[link] ? '-' : '+', type);
}

const platform_shorthand_param platform_shorthand_params[] = {
  { "bw", "linktype.optical", "bandwidth", UNITS_BANDWIDTH, TRUE, FALSE,
    "optical link bandwidth (default 31.25e9 bytes/s = 250Gbit/s)" },
  { "lat", "linktype.optical", "latency", UNITS_TIME, TRUE, FALSE,
    "optical link latency (default 10ps)" },
  { "wbw", "linktype.wireless", "bandwidth", UNITS_BANDWIDTH, TRUE, TRUE,
    "HAEC wireless link bandwidth (default 12.5e9 bytes/s = 100Gbit/s)" },
  { "wlat", "linktype.wireless", "latency", UNITS_TIME, TRUE, TRUE,
    "HAEC wireless link latency (default 100ps)" },
  { "kinds", "topology", "connectivity", UNITS_NUMBER, FALSE, FALSE,
    "per dimension mesh, torus or crossbar (kinds=torus,torus,mesh)" },
  { "cores", "nodes", "cores", UNITS_NUMBER, FALSE, FALSE, "cores (ranks) per node (default 1)" },
  { "order", "routing", "order", UNITS_NUMBER, FALSE, FALSE,
    "dimension order of the routes (default xyz)" },
};
const int platform_nshorthand_params = G_N_ELEMENTS(platform_shorthand_params);

gboolean platform_shorthand_number(const char *spec, const char *key, const char *value,
                                   units_quantity quantity, double *v, GError **error)
{
  GError *e = NULL;
  if (units_parse(value, quantity, v, &e))
    return TRUE;
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "platform '%s': %s: %s", spec, key,
              e->message);
  g_error_free(e);
  return FALSE;
}

int platform_parse_node(const platform *p, const char *s, GError **error)
{
  const topo *t = p->topo;
  for (int v = 0; p->names && v < topo_compute_nodes(t); v++)
    if (!strcmp(p->names[v], s))
      return v;
  char **parts = g_strsplit(s, ",", -1);
  int n = (int)g_strv_length(parts), node = -1, nodes = topo_compute_nodes(t);
  gboolean ok = n == 1 || (topo_is_regular(t) && n == t->ndims);
  int c[TOPO_MAX_DIMS];
  for (int i = 0; ok && i < n; i++) {
    char *end;
    errno = 0;
    long v = strtol(parts[i], &end, 10);
    ok = !errno && end != parts[i] && *end == '\0' && v >= 0 &&
         v < (n == 1 ? nodes : t->shape[i]);
    c[i] = (int)v;
  }
  if (ok)
    node = n == 1 ? c[0] : topo_node(t, c);
  else if (topo_is_regular(t))
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "node '%s': expected an id in [0, %d) or %d comma-separated coordinates", s,
                nodes, t->ndims);
  else
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "node '%s': expected an id in "
                "[0, %d)%s%s", s, nodes, t->nswitches ? " (a compute node, not a switch)" : "",
                p->names ? " or a node name of the platform" : "");
  g_strfreev(parts);
  return node;
}
