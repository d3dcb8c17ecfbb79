/* cmd-metrics.c - `mapsim metrics`: static metrics of a mapping. */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "mapping/bounds.h"
#include "cli/cli.h"
#include "sim/run.h"

int cmd_metrics(int argc, char **argv)
{
  cli_common c;
  int top = 5;
  const GOptionEntry entries[] = {
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Hottest links to list (default 5)", "K" },
    { NULL },
  };
  int status = 2;
  platform *p = NULL;
  commgraph *g = NULL;
  run_result *res = NULL;
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "metrics", "",
                 "Static metrics of a mapping: hops, hop-bytes, link congestion "
                 "(deveci2015 Section II), and how far hop_bytes and the busiest link are from "
                 "their lower bounds over every mapping (gap_hop_bytes, gap_max_link).",
                 "Examples:\n"
                 "  mapsim metrics --platform torus:4x4x4 --matrix tests/data/maplib/cg.p2p.size.csv \\\n"
                 "    --counts tests/data/maplib/cg.p2p.count.csv\n"
                 "  mapsim metrics --platform configs/haec-4x4x4.ini --trace traces/data/stencil3d-64 --json\n"
                 "  mapsim metrics -p torus:4x4x4 -t traces/data/cg-16 --cores 4 --fill spread --csv",
                 CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES | CLI_OPT_MAPPING | CLI_OPT_JSON |
                 CLI_OPT_CSV, &c, entries))
    goto out;
  if (top < 0 || top > 1000000) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--top %d: expected 0 to 1000000 links", top);
    goto fail;
  }
  gboolean with_colls;
  if (!(p = cli_common_platform(&c, &e)) || !(g = cli_common_graph(&c, &with_colls, &e)))
    goto fail;
  run_inputs in = { .p = p, .g = g, .g_collectives = with_colls };
  run_spec spec;
  run_spec_init(&spec);
  spec.mapping_file = c.mapping;
  if (!(res = run_cell(&in, &spec, &e)))
    goto fail;
  bounds bd;
  bounds_compute(g, p, &bd);
  metrics_set_bounds(res->pre, &bd);
  const char *traffic = c.trace ? run_traffic_name(with_colls) : "matrix";
  if (c.json) {
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cli_provenance_json(b, &c, NULL, NULL, NULL);
    cli_metrics_json(b, res->pre);
    cli_platform_json(b, p);
    json_builder_set_member_name(b, "traffic");
    json_builder_add_string_value(b, traffic);
    cli_metrics_detail_json(b, res->pre, p);
    if (res->pre_nonminimal) {
      json_builder_set_member_name(b, "pre_valiant");
      json_builder_begin_object(b);
      cli_metrics_json(b, res->pre_nonminimal);
      json_builder_end_object(b);
    }
    json_builder_end_object(b);
    cli_print_json(json_builder_get_root(b));
    g_object_unref(b);
  } else if (c.csv) {
    GString *o = g_string_new("input,platform,mapping,traffic");
    cli_fields_csv_header(o, NULL, metrics_fields, metrics_nfields, metrics_view(res->pre));
    g_string_append_c(o, '\n');
    cli_csv_cell(o, c.matrix ? c.matrix : c.trace);
    g_string_append_c(o, ',');
    cli_csv_cell(o, p->name);
    g_string_append_c(o, ',');
    cli_csv_cell(o, c.mapping ? c.mapping : "identity");
    g_string_append_printf(o, ",%s", traffic);
    cli_fields_csv_row(o, metrics_fields, metrics_nfields, res->pre, metrics_view(res->pre));
    g_string_append_c(o, '\n');
    fputs(o->str, stdout);
    g_string_free(o, TRUE);
  } else {
    printf("%s on %s, mapping %s, traffic %s\n\n", c.matrix ? c.matrix : c.trace, p->name,
           c.mapping ? c.mapping : "identity", traffic);
    if (res->pre_nonminimal) {
      const metrics *two[2] = { res->pre, res->pre_nonminimal };
      const char *labels[2] = { "pre_minimal", "pre_valiant" };
      printf("routing %s is adaptive: a replay chooses between the minimal routes\n"
             "(pre_minimal) and the Valiant ones (pre_valiant) by load\n\n",
             router_algo_name(p->router));
      cli_metrics_print(two, labels, 2, p, 0);
    } else {
      if (p->router->flags & ROUTE_FLAG_ADAPTIVE)
        printf("routing %s is adaptive: these are its first candidates' routes (dor's); a\n"
               "replay chooses among its minimal routes by load\n\n",
               router_algo_name(p->router));
      const metrics *one[1] = { res->pre };
      cli_metrics_print(one, NULL, 1, p, top);
    }
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  run_result_free(res);
  commgraph_free(g);
  platform_free(p);
  cli_common_clear(&c);
  return status;
}
