/* cmd-route.c - `mapsim route`: the link path between two nodes. */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "sim/cli/cli.h"

int cmd_route(int argc, char **argv)
{
  cli_common c;
  int status = 2;
  platform *p = NULL;
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "route", "SRC DST",
                 "The links a message takes from node SRC to node DST (ids, or coordinates x,y,z).",
                 "Example:\n  mapsim route --platform haec:4x4x4 0 63\n  mapsim route --platform torus:4x4x4 0,0,0 2,3,1",
                 CLI_OPT_PLATFORM | CLI_OPT_JSON, &c, NULL))
    goto out;
  if (argc != 3) {
    fprintf(stderr, "mapsim route: expected two nodes SRC DST (see mapsim route --help)\n");
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
  json_builder_set_member_name(b, "links");
  json_builder_begin_array(b);
  if (!c.json)
    printf("route %d -> %d on %s\n", src, dst, p->name);
  route_begin(&it, p->router, src, dst);
  while (route_next(&it, &l)) {
    char *name = platform_link_name(p, l);
    if (c.json) {
      json_builder_begin_object(b);
      json_builder_set_member_name(b, "link");
      json_builder_add_int_value(b, l);
      json_builder_set_member_name(b, "from");
      json_builder_add_int_value(b, p->topo->link_src[l]);
      json_builder_set_member_name(b, "to");
      json_builder_add_int_value(b, p->topo->link_dst[l]);
      json_builder_set_member_name(b, "type");
      json_builder_add_string_value(b, p->linktypes[p->link_type[l]].name);
      json_builder_end_object(b);
    } else {
      printf("  %2d  link %-6d %s\n", hops + 1, l, name);
    }
    g_free(name);
    hops++;
    lat += p->link_lat[l];
    bw = MIN(bw, p->link_bw[l]);
  }
  json_builder_end_array(b);
  json_builder_set_member_name(b, "hops");
  json_builder_add_int_value(b, hops);
  json_builder_set_member_name(b, "latency_s");
  json_builder_add_double_value(b, lat);
  json_builder_set_member_name(b, "bottleneck_bw");
  json_builder_add_double_value(b, hops ? bw : 0);
  json_builder_end_object(b);
  if (c.json)
    cli_print_json(json_builder_get_root(b));
  else
    printf("%d hops, latency %.1f ps, bottleneck %.2f Gbit/s\n", hops, lat * 1e12,
           hops ? bw * 8 / 1e9 : 0.0);
  g_object_unref(b);
  status = 0;
out:
  platform_free(p);
  cli_common_clear(&c);
  return status;
}
