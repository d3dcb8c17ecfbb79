/* cmd-route.c - `mapsim route`: the link path between two nodes. */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "cli/cli.h"
#include "util/json-number.h"

/* "(nid001)", "(leaf0)": the name the platform's source gives (Slurm's
 * topology); else "(1,2,3)" for a node of a regular topology, "(sw4)" for
 * a switch, "" otherwise; caller frees. */
static char *coords_text(const platform *p, int node)
{
  const topo *t = p->topo;
  if (p->names && p->names[node])
    return g_strdup_printf("(%s)", p->names[node]);
  if (topo_is_switch(t, node))
    return g_strdup_printf("(sw%d)", node - topo_compute_nodes(t));
  if (!topo_is_regular(t))
    return g_strdup("");
  int c[TOPO_MAX_DIMS];
  topo_coords(t, node, c);
  GString *s = g_string_new("(");
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(s, "%s%d", d ? "," : "", c[d]);
  g_string_append_c(s, ')');
  return g_string_free(s, FALSE);
}

/* Members `name` (the node id), `name`_name (a source's name for it) and
 * `name`_coords (regular topologies). */
static void add_node_json(JsonBuilder *b, const char *name, const platform *p, int node)
{
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, node);
  if (p->names && p->names[node]) {
    g_autofree char *key = g_strconcat(name, "_name", NULL);
    json_builder_set_member_name(b, key);
    json_builder_add_string_value(b, p->names[node]);
  }
  if (topo_is_regular(p->topo)) {
    int c[TOPO_MAX_DIMS];
    topo_coords(p->topo, node, c);
    g_autofree char *key = g_strconcat(name, "_coords", NULL);
    json_builder_set_member_name(b, key);
    json_builder_begin_array(b);
    for (int d = 0; d < p->topo->ndims; d++)
      json_builder_add_int_value(b, c[d]);
    json_builder_end_array(b);
  }
}

/* "x+" for a link of a regular dimension, the class of a link of an
 * indirect network ("global", "level2 up"), "" for graph links. */
static void link_direction(const platform *p, int l, char dir[16])
{
  const topo *t = p->topo;
  dir[0] = '\0';
  if (t->nswitches)
    topo_class_name(t, t->link_class[l], dir, 16);
  else if (t->link_dim[l] >= 0) {
    dir[0] = topo_dim_letter(t->link_dim[l]);
    dir[1] = t->link_dir[l] ? '-' : '+';
    dir[2] = '\0';
  }
}

int cmd_route(int argc, char **argv)
{
  cli_common c;
  int status = 2;
  platform *p = NULL;
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "route", "SRC DST",
                 "The links a message takes from node SRC to node DST (ids, coordinates x,y,z, or "
                 "the node names of a Slurm topology); "
                 "under valiant, random-up and ecmp, which draw a path per rank pair, a message "
                 "of rank SRC to rank DST placed on those nodes.",
                 "Example:\n  mapsim route --platform haec:4x4x4 0 63\n  mapsim route --platform torus:4x4x4 0,0,0 2,3,1\n"
                 "  mapsim route --platform torus:4x4x4 2,0,0 0,0,0 --tie simgrid",
                 CLI_OPT_PLATFORM | CLI_OPT_SET | CLI_OPT_RULES | CLI_OPT_JSON, &c, NULL))
    goto out;
  if (argc != 3) {
    fprintf(stderr, "mapsim: route: expected two nodes SRC DST (see mapsim route --help)\n");
    goto out;
  }
  p = cli_common_platform(&c, &e);
  int src = p ? platform_parse_node(p, argv[1], &e) : -1;
  int dst = src >= 0 ? platform_parse_node(p, argv[2], &e) : -1;
  if (dst < 0) {
    status = cli_fail(e);
    goto out;
  }
  route_iter it;
  int l, hops = 0;
  double lat = 0, bw = G_MAXDOUBLE;
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  add_node_json(b, "src", p, src);
  add_node_json(b, "dst", p, dst);
  json_builder_set_member_name(b, "links");
  json_builder_begin_array(b);
  if (!c.json) {
    g_autofree char *cs = coords_text(p, src), *cd = coords_text(p, dst);
    printf("route %d %s -> %d %s on %s\n", src, cs, dst, cd, p->name);
  }
  route_begin(&it, p->router, src, dst, route_key(src, dst));
  while (route_next(&it, &l)) {
    char dir[16];
    link_direction(p, l, dir);
    int from = p->topo->link_src[l], to = p->topo->link_dst[l];
    const char *type = p->linktypes[p->link_type[l]].name;
    if (c.json) {
      json_builder_begin_object(b);
      json_builder_set_member_name(b, "link");
      json_builder_add_int_value(b, l);
      add_node_json(b, "from", p, from);
      add_node_json(b, "to", p, to);
      if (dir[0]) {
        json_builder_set_member_name(b, "direction");
        json_builder_add_string_value(b, dir);
      }
      json_builder_set_member_name(b, "type");
      json_builder_add_string_value(b, type);
      json_builder_end_object(b);
    } else {
      g_autofree char *cf = coords_text(p, from), *ct = coords_text(p, to);
      printf("  %2d  link %-6d %d %s -> %d %s  %s%s%s\n", hops + 1, l, from, cf, to, ct, dir,
             dir[0] ? ", " : "", type);
    }
    hops++;
    lat += p->link_lat[l];
    bw = MIN(bw, p->link_bw[l]);
  }
  json_builder_end_array(b);
  json_builder_set_member_name(b, "hops");
  json_builder_add_int_value(b, hops);
  json_builder_set_member_name(b, "latency_s");
  json_number_add(b, lat);
  json_builder_set_member_name(b, "bottleneck_bw");
  json_number_add(b, hops ? bw : 0);
  /* an adaptive routing chooses per message by the links' loads: the path
   * shown is its minimal candidate, which a replay may not take */
  gboolean adaptive = (p->router->flags & ROUTE_FLAG_ADAPTIVE) != 0;
  json_builder_set_member_name(b, "adaptive");
  json_builder_add_boolean_value(b, adaptive);
  json_builder_end_object(b);
  if (c.json)
    cli_print_json(json_builder_get_root(b));
  else
    printf("%d hops, latency %.4g ns, bottleneck %.2f Gbit/s\n", hops, lat * 1e9,
           hops ? bw * 8 / 1e9 : 0.0);
  if (!c.json && adaptive)
    printf("adaptive: this is the minimal candidate; %s chooses per message by the links' "
           "loads, so a replay may take another (simulate: pre_minimal and post)\n",
           router_algo_name(p->router));
  g_object_unref(b);
  status = 0;
out:
  platform_free(p);
  cli_common_clear(&c);
  return status;
}
