/* platform-json.c - HAEC-SIM JSON platform files (korndoerfer2021,
 * appendix A.1, listings 1-3), read with json-glib.
 *
 * Modeled: platform.link_types[] {name, bandwidth (bytes/s), latency (ps)},
 * platform.topology {shape[], link_types[] (one per dimension),
 * connectivity[] (mesh | torus | crossbar)}, and from
 * modules.static_network_model: routing ("shortest_path" or "haec_box":
 * both are dimension-order routing, the crossbar rule applies by itself),
 * size_packet (bytes per packet) and size_mpi_header (header bytes per
 * packet). Everything else (bit error rates, packet attack rates, the NCDr
 * network-coding parameters, delays of that model) is ignored and listed in
 * platform->notes.
 */
#include "routing/platform-private.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "util/budget.h"

static gboolean fail(GError **error, const char *path, const char *field, const char *expected)
{
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "%s: %s: expected %s", path, field,
              expected);
  return FALSE;
}

static JsonObject *get_object(JsonObject *o, const char *member)
{
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static JsonArray *get_array(JsonObject *o, const char *member)
{
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  return n && JSON_NODE_HOLDS_ARRAY(n) ? json_node_get_array(n) : NULL;
}

/* The string `member` of `o`; NULL when missing or not a string (json-glib's
 * own getters raise a critical on arrays and objects). */
static const char *get_string(JsonObject *o, const char *member)
{
  JsonNode *n = o ? json_object_get_member(o, member) : NULL;
  return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
             ? json_node_get_string(n) : NULL;
}

static gboolean get_number(JsonObject *o, const char *member, double *out)
{
  JsonNode *n = json_object_get_member(o, member);
  if (!n || !JSON_NODE_HOLDS_VALUE(n))
    return FALSE;
  GType t = json_node_get_value_type(n);
  if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
    return FALSE;
  *out = json_node_get_double(n);
  return isfinite(*out);
}

/* Collects the members of `o` mapsim does not model into `ignored`
 * (unique "where.key" strings, first-seen order). */
static void note_ignored(GPtrArray *ignored, const char *where, JsonObject *o,
                         const char *const *known)
{
  GList *members = json_object_get_members(o);
  for (GList *m = members; m; m = m->next) {
    gboolean k = FALSE;
    for (int i = 0; known[i]; i++)
      k = k || strcmp(known[i], m->data) == 0;
    char *name = g_strdup_printf("%s.%s", where, (const char *)m->data);
    gboolean seen = FALSE;
    for (guint i = 0; i < ignored->len; i++)
      seen = seen || strcmp(g_ptr_array_index(ignored, i), name) == 0;
    if (!k && !seen)
      g_ptr_array_add(ignored, name);
    else
      g_free(name);
  }
  g_list_free(members);
}

static gboolean read_linktypes(platform *p, JsonObject *plat, const char *path,
                               GPtrArray *ignored, GError **error)
{
  JsonArray *types = get_array(plat, "link_types");
  if (!types || json_array_get_length(types) == 0)
    return fail(error, path, "platform.link_types", "a non-empty array of link types");
  static const char *const known[] = { "name", "bandwidth", "latency", NULL };
  for (guint i = 0; i < json_array_get_length(types); i++) {
    char field[64];
    g_snprintf(field, sizeof field, "platform.link_types[%u]", i);
    JsonNode *n = json_array_get_element(types, i);
    JsonObject *o = JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
    const char *name = get_string(o, "name");
    double bw, lat_ps;
    if (!o || !name || !get_number(o, "bandwidth", &bw) || !get_number(o, "latency", &lat_ps))
      return fail(error, path, field,
                  "an object with name, bandwidth (bytes/s) and latency (ps)");
    char *where = g_strdup_printf("%s: %s", path, field);
    int idx = platform_add_linktype(p, name, bw, lat_ps * 1e-12, where, error);
    g_free(where);
    if (idx < 0)
      return FALSE;
    note_ignored(ignored, "platform.link_types[]", o, known);
  }
  return TRUE;
}

static gboolean read_topology(platform *p, JsonObject *plat, const char *path, GError **error)
{
  JsonObject *topo_o = get_object(plat, "topology");
  JsonArray *shape = get_array(topo_o, "shape");
  JsonArray *types = get_array(topo_o, "link_types");
  JsonArray *conns = get_array(topo_o, "connectivity");
  if (!shape)
    return fail(error, path, "platform.topology.shape", "an array of dimension sizes");
  int ndims = (int)json_array_get_length(shape);
  if (ndims < 1 || ndims > TOPO_MAX_DIMS)
    return fail(error, path, "platform.topology.shape", "1 to 8 dimension sizes");
  if (!types || (int)json_array_get_length(types) != ndims)
    return fail(error, path, "platform.topology.link_types", "one link type name per dimension");
  if (!conns || (int)json_array_get_length(conns) != ndims)
    return fail(error, path, "platform.topology.connectivity",
                "one of mesh, torus, crossbar per dimension");
  int sh[TOPO_MAX_DIMS], pat[TOPO_MAX_DIMS], len[TOPO_MAX_DIMS];
  int *pattern[TOPO_MAX_DIMS];
  topo_conn conn[TOPO_MAX_DIMS];
  for (int d = 0; d < ndims; d++) {
    JsonNode *s = json_array_get_element(shape, d);
    JsonNode *t = json_array_get_element(types, d);
    JsonNode *c = json_array_get_element(conns, d);
    if (!JSON_NODE_HOLDS_VALUE(s) || json_node_get_value_type(s) != G_TYPE_INT64 ||
        json_node_get_int(s) < 1 || json_node_get_int(s) > (1 << 20))
      return fail(error, path, "platform.topology.shape", "positive integer sizes");
    sh[d] = (int)json_node_get_int(s);
    const char *tn = JSON_NODE_HOLDS_VALUE(t) && json_node_get_value_type(t) == G_TYPE_STRING
                         ? json_node_get_string(t) : NULL;
    pat[d] = tn ? platform_find_linktype(p, tn) : -1;
    if (pat[d] < 0)
      return fail(error, path, "platform.topology.link_types",
                  "names defined in platform.link_types");
    const char *cn = JSON_NODE_HOLDS_VALUE(c) && json_node_get_value_type(c) == G_TYPE_STRING
                         ? json_node_get_string(c) : NULL;
    if (!cn || !topo_conn_from_name(cn, &conn[d]))
      return fail(error, path, "platform.topology.connectivity",
                  "one of mesh, torus, crossbar per dimension");
    pattern[d] = &pat[d];
    len[d] = 1;
  }
  if (!platform_build_regular(p, ndims, sh, conn, pattern, len, error)) {
    g_prefix_error(error, "%s: platform.topology: ", path);
    return FALSE;
  }
  return TRUE;
}

static gboolean read_modules(platform *p, JsonObject *root, const char *path,
                             GPtrArray *ignored, GError **error)
{
  JsonObject *snm = get_object(get_object(root, "modules"), "static_network_model");
  if (!snm)
    return TRUE;
  const char *routing = get_string(snm, "routing");
  if (json_object_has_member(snm, "routing") &&
      (!routing || (strcmp(routing, "shortest_path") && strcmp(routing, "haec_box"))))
    return fail(error, path, "modules.static_network_model.routing",
                "shortest_path or haec_box");
  double v;
  if (json_object_has_member(snm, "size_packet")) {
    if (!get_number(snm, "size_packet", &v) || v < 1 || v != floor(v))
      return fail(error, path, "modules.static_network_model.size_packet",
                  "a positive whole number of bytes");
    p->model.packet_size = (int64_t)v;
  }
  if (json_object_has_member(snm, "size_mpi_header")) {
    if (!get_number(snm, "size_mpi_header", &v) || v < 0 || v != floor(v))
      return fail(error, path, "modules.static_network_model.size_mpi_header",
                  "a non-negative whole number of bytes");
    p->model.packet_header = (int64_t)v;
  }
  static const char *const known[] = { "routing", "size_packet", "size_mpi_header", NULL };
  note_ignored(ignored, "modules.static_network_model", snm, known);
  return TRUE;
}

platform *platform_load_json(const char *path, GError **error)
{
  JsonParser *parser = json_parser_new();
  platform *p = NULL;
  GError *e = NULL;
  char *text = NULL;
  gsize len = 0;
  /* a platform file nests five levels deep */
  if (!budget_read_text(path, "a HAEC-SIM JSON platform file", &text, &len, error) ||
      !budget_check_nesting(path, text, 64, "a HAEC-SIM JSON platform file", error))
    goto out;
  if (!json_parser_load_from_data(parser, text, (gssize)len, &e)) {
    /* json-glib names in-memory data "<data>"; the file has a name */
    const char *msg = g_str_has_prefix(e->message, "<data>:") ? e->message + 7 : e->message;
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s:%s%s, expected a HAEC-SIM JSON platform file", path, msg == e->message ? " " : "",
                msg);
    g_error_free(e);
    goto out;
  }
  JsonNode *rootn = json_parser_get_root(parser);
  JsonObject *root = rootn && JSON_NODE_HOLDS_OBJECT(rootn) ? json_node_get_object(rootn) : NULL;
  JsonObject *plat = get_object(root, "platform");
  if (!plat) {
    fail(error, path, "platform", "a top-level object with a \"platform\" member");
    goto out;
  }
  p = platform_alloc(path);
  GPtrArray *ignored = g_ptr_array_new_with_free_func(g_free);
  if (!read_linktypes(p, plat, path, ignored, error) || !read_topology(p, plat, path, error) ||
      !read_modules(p, root, path, ignored, error) || !platform_finish(p, NULL, error)) {
    platform_free(p);
    p = NULL;
  } else if (ignored->len) {
    g_ptr_array_add(ignored, NULL);
    char *list = g_strjoinv(", ", (char **)ignored->pdata);
    g_ptr_array_add(p->notes, g_strdup_printf("%s: not modeled, ignored: %s", path, list));
    g_free(list);
  }
  g_ptr_array_unref(ignored);
out:
  g_free(text);
  g_object_unref(parser);
  return p;
}
