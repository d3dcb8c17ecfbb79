/* cmd-topo.c - `mapsim topo`: facts about a platform. */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "routing/facts.h"
#include "cli/cli.h"
#include "util/json-number.h"

int cmd_topo(int argc, char **argv)
{
  cli_common c;
  int status = 2;
  platform *p = NULL;
  if (!cli_parse(&argc, &argv, "topo", "", "Facts about a platform: nodes, links, link types, "
                 "diameter, average distance, bisection.",
                 "Example:\n  mapsim topo --platform haec:4x4x4\n  mapsim topo --platform configs/gemini-3d.ini --json",
                 CLI_OPT_PLACE | CLI_OPT_JSON, &c, NULL))
    goto out;
  GError *e = NULL;
  p = cli_common_platform(&c, &e);
  if (!p) {
    status = cli_fail(e);
    goto out;
  }
  platform_facts f;
  platform_get_facts(p, &f);
  char *shape = topo_describe(p->topo);
  if (c.json) {
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "name");
    json_builder_add_string_value(b, p->name);
    json_builder_set_member_name(b, "topology");
    json_builder_add_string_value(b, shape);
    json_builder_set_member_name(b, "nodes");
    json_builder_add_int_value(b, f.nodes);
    json_builder_set_member_name(b, "switches");
    json_builder_add_int_value(b, f.switches);
    json_builder_set_member_name(b, "links");
    json_builder_add_int_value(b, f.links);
    json_builder_set_member_name(b, "routing");
    json_builder_add_string_value(b, router_algo_name(p->router));
    json_builder_set_member_name(b, "diameter");
    json_builder_add_int_value(b, f.diameter);
    json_builder_set_member_name(b, "avg_distance");
    json_number_add(b, f.avg_distance);
    json_builder_set_member_name(b, "bisection_links");
    json_builder_add_int_value(b, f.bisection_dim >= 0 ? f.bisection_links : 0);
    json_builder_set_member_name(b, "bisection_bw");
    json_number_add(b, f.bisection_dim >= 0 ? f.bisection_bw : 0);
    json_builder_set_member_name(b, "cores_per_node");
    json_builder_add_int_value(b, p->cores_per_node);
    json_builder_set_member_name(b, "allocated_nodes");
    json_builder_add_int_value(b, p->nalloc);
    json_builder_end_object(b);
    cli_print_json(json_builder_get_root(b));
    g_object_unref(b);
  } else {
    printf("platform        %s\n", p->name);
    printf("topology        %s\n", shape);
    printf("nodes           %d (%d allocated, %d core%s each, fill %s)\n", f.nodes, p->nalloc,
           p->cores_per_node, p->cores_per_node == 1 ? "" : "s", platform_fill_name(p->fill));
    if (f.switches)
      printf("switches        %d\n", f.switches);
    printf("links           %d directed\n", f.links);
    for (int i = 0; i < p->nlinktypes; i++) {
      double lat = p->linktypes[i].latency;
      printf("  link type     %-10s %8.2f Gbit/s  %8.1f %s\n", p->linktypes[i].name,
             p->linktypes[i].bandwidth * 8 / 1e9, lat < 1e-9 ? lat * 1e12 : lat * 1e9,
             lat < 1e-9 ? "ps" : "ns");
    }
    printf("routing         %s\n", router_algo_name(p->router));
    printf("diameter        %d hops\n", f.diameter);
    printf("avg distance    %.4f hops\n", f.avg_distance);
    if (f.bisection_dim >= 0)
      printf("bisection       %d links (cut %s), %.1f GB/s\n", f.bisection_links, f.cut,
             f.bisection_bw / 1e9);
    for (guint i = 0; i < p->facts->len; i++) {
      g_autofree char *fact = cli_visible(g_ptr_array_index(p->facts, i));
      printf("note            %s\n", fact);
    }
  }
  g_free(shape);
  status = 0;
out:
  platform_free(p);
  cli_common_clear(&c);
  return status;
}
