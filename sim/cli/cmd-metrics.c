/* cmd-metrics.c - `mapsim metrics`: static metrics of a mapping. */
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "sim/cli/cli.h"

int cmd_metrics(int argc, char **argv)
{
  char *plat = NULL, *alloc = NULL, *matrix = NULL, *counts = NULL, *trace = NULL, *map = NULL;
  int cores = 0, top = 5;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "platform", 'p', 0, G_OPTION_ARG_STRING, &plat, "Platform file or shorthand", "P" },
    { "alloc", 0, 0, G_OPTION_ARG_STRING, &alloc, "Allocation: all, random:N[:SEED], or a node list file", "A" },
    { "cores", 0, 0, G_OPTION_ARG_INT, &cores, "Cores (ranks) per node", "N" },
    { "matrix", 'm', 0, G_OPTION_ARG_FILENAME, &matrix, "Communication matrix (bytes): .csv, .mtx or edge list", "M" },
    { "counts", 'c', 0, G_OPTION_ARG_FILENAME, &counts, "Message counts matrix, same shape", "C" },
    { "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace, "OTF2 trace (its point-to-point messages)", "T" },
    { "mapping", 'M', 0, G_OPTION_ARG_FILENAME, &map, "Mapping file (default: identity)", "F" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Hottest links to list (default 5)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
    { NULL },
  };
  int status = 2;
  platform *p = NULL;
  commgraph *g = NULL;
  mapping *m = NULL;
  metrics *x = NULL;
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "metrics", "",
                 "Static metrics of a mapping: hops, hop-bytes, link congestion "
                 "(deveci2015 Section II).",
                 "Examples:\n"
                 "  mapsim metrics --platform torus:4x4x4 --matrix cg.p2p.size.csv --counts cg.p2p.count.csv\n"
                 "  mapsim metrics --platform configs/haec-4x4x4.ini --matrix m.csv --mapping m.map --json",
                 entries))
    goto out;
  if (!(p = cli_platform(plat, alloc, cores, &e)) || !(g = cli_graph(matrix, counts, trace, &e)))
    goto fail;
  m = map ? mapping_load(map, p, g->n, &e) : mapping_identity(p, g->n, &e);
  if (!m)
    goto fail;
  x = metrics_compute(g, p, m);
  if (json) {
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    cli_metrics_json(b, x);
    json_builder_end_object(b);
    cli_print_json(json_builder_get_root(b));
    g_object_unref(b);
  } else {
    printf("%s on %s, mapping %s\n\n", matrix ? matrix : trace, p->name,
           map ? map : "identity");
    const metrics *one[1] = { x };
    cli_metrics_print(one, NULL, 1, p, top);
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  metrics_free(x);
  mapping_free(m);
  commgraph_free(g);
  platform_free(p);
  g_free(plat);
  g_free(alloc);
  g_free(matrix);
  g_free(counts);
  g_free(trace);
  g_free(map);
  return status;
}
