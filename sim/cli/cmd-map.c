/* cmd-map.c - `mapsim map`: runs a strategy pipeline (mapping/strategy.h),
 * writes the mapping file atomically, and prints the static metrics of the
 * default placement (identity) next to the new one, with the time the
 * strategy took. Task coordinates for geometric strategies come from
 * --coords FILE: one line per rank, its coordinates separated by blanks,
 * the same count on every line (`#` comments and blank lines ignored). */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/strategy.h"
#include "sim/cli/cli.h"

/* Reads a coordinates file for `ntasks` ranks; returns ntasks x *dims
 * doubles (caller frees) or NULL with `file:line: ...` in error. */
static double *load_coords(const char *path, int ntasks, int *dims, GError **error)
{
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: cannot read, expected a coordinates file (one line per rank)", path);
    return NULL;
  }
  char **lines = g_strsplit(text, "\n", -1);
  GArray *vals = g_array_new(FALSE, FALSE, sizeof(double));
  int rows = 0, nd = -1;
  gboolean ok = TRUE;
  for (int ln = 0; ok && lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    char **tok = g_strsplit_set(g_strstrip(lines[ln]), " \t,", -1);
    int k = 0;
    for (int i = 0; ok && tok[i]; i++) {
      if (!*tok[i])
        continue;
      char *end;
      double v = g_ascii_strtod(tok[i], &end);
      if (*end || !isfinite(v)) {
        g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                    "%s:%d: '%s', expected a number", path, ln + 1, tok[i]);
        ok = FALSE;
      }
      g_array_append_val(vals, v);
      k++;
    }
    g_strfreev(tok);
    if (!ok || k == 0)
      continue;
    if (nd >= 0 && k != nd) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "%s:%d: %d coordinates, expected %d like the lines before", path, ln + 1, k, nd);
      ok = FALSE;
    } else if (k > TOPO_MAX_DIMS) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "%s:%d: %d coordinates, expected at most %d", path, ln + 1, k, TOPO_MAX_DIMS);
      ok = FALSE;
    }
    nd = k;
    rows++;
  }
  if (ok && rows != ntasks) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: %d lines of coordinates, expected one per rank (%d)", path, rows, ntasks);
    ok = FALSE;
  }
  g_strfreev(lines);
  g_free(text);
  *dims = nd;
  return (double *)(void *)g_array_free(vals, !ok);
}

static void print_json(const metrics *before, const metrics *after, const char *spec,
                       double seconds, const char *out)
{
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "strategy");
  json_builder_add_string_value(b, spec);
  json_builder_set_member_name(b, "seconds");
  json_builder_add_double_value(b, seconds);
  json_builder_set_member_name(b, "output");
  out ? json_builder_add_string_value(b, out) : json_builder_add_null_value(b);
  json_builder_set_member_name(b, "identity");
  json_builder_begin_object(b);
  cli_metrics_json(b, before);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "mapped");
  json_builder_begin_object(b);
  cli_metrics_json(b, after);
  json_builder_end_object(b);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

typedef struct map_opts {
  char *plat, *alloc, *matrix, *counts, *trace, *spec, *coords, *out;
  int cores, seed;
  gboolean json;
} map_opts;

static void map_opts_free(map_opts *o)
{
  g_free(o->plat);
  g_free(o->alloc);
  g_free(o->matrix);
  g_free(o->counts);
  g_free(o->trace);
  g_free(o->spec);
  g_free(o->coords);
  g_free(o->out);
}

/* Runs the strategy and reports; returns the exit status. */
static int map_run(const map_opts *o)
{
  GError *e = NULL;
  platform *p = NULL;
  commgraph *g = NULL;
  strategy_pipeline *pl = NULL;
  double *coords = NULL;
  mapping *base = NULL, *m = NULL;
  metrics *mb = NULL, *ma = NULL;
  int dims = 0, status = 2;
  if (!o->spec)
    g_set_error(&e, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "--strategy: missing, expected a pipeline such as greedy+wh (see mapsim strategies)");
  if (e || !(pl = strategy_parse(o->spec, &e)) || !(p = cli_platform(o->plat, o->alloc, o->cores, &e)) ||
      !(g = cli_graph(o->matrix, o->counts, o->trace, &e)))
    goto fail;
  if (o->coords && !(coords = load_coords(o->coords, g->n, &dims, &e)))
    goto fail;
  if (!(base = mapping_identity(p, g->n, &e)))
    goto fail;
  gint64 t0 = g_get_monotonic_time();
  m = strategy_run(pl, g, p, (guint32)o->seed, coords, dims, &e);
  double seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  if (!m)
    goto fail;
  char *comment = g_strdup_printf("mapsim map --strategy %s --seed %d on %s", o->spec, o->seed,
                                  p->name);
  gboolean saved = !o->out || mapping_save(m, o->out, comment, &e);
  g_free(comment);
  if (!saved)
    goto fail;
  mb = metrics_compute(g, p, base);
  ma = metrics_compute(g, p, m);
  if (o->json) {
    print_json(mb, ma, o->spec, seconds, o->out);
  } else {
    printf("%s on %s, strategy %s (seed %d): %.3f s%s%s\n\n", o->matrix ? o->matrix : o->trace,
           p->name, o->spec, o->seed, seconds, o->out ? ", written to " : "",
           o->out ? o->out : "");
    const metrics *two[2] = { mb, ma };
    const char *labels[2] = { "identity", o->spec };
    cli_metrics_print(two, labels, 2, p, 0);
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  metrics_free(mb);
  metrics_free(ma);
  mapping_free(base);
  mapping_free(m);
  g_free(coords);
  strategy_pipeline_free(pl);
  commgraph_free(g);
  platform_free(p);
  return status;
}

int cmd_map(int argc, char **argv)
{
  map_opts o = { .seed = 1 };
  const GOptionEntry entries[] = {
    { "platform", 'p', 0, G_OPTION_ARG_STRING, &o.plat, "Platform file or shorthand", "P" },
    { "alloc", 0, 0, G_OPTION_ARG_STRING, &o.alloc, "Allocation: all, random:N[:SEED], or a node list file", "A" },
    { "cores", 0, 0, G_OPTION_ARG_INT, &o.cores, "Cores (ranks) per node", "N" },
    { "matrix", 'm', 0, G_OPTION_ARG_FILENAME, &o.matrix, "Communication matrix (bytes): .csv, .mtx or edge list", "M" },
    { "counts", 'c', 0, G_OPTION_ARG_FILENAME, &o.counts, "Message counts matrix, same shape", "C" },
    { "trace", 't', 0, G_OPTION_ARG_FILENAME, &o.trace, "OTF2 trace (its point-to-point messages)", "T" },
    { "strategy", 's', 0, G_OPTION_ARG_STRING, &o.spec, "Strategy pipeline, e.g. greedy+wh:delta=16+mc", "S" },
    { "coords", 0, 0, G_OPTION_ARG_FILENAME, &o.coords, "Task coordinates, one line per rank", "FILE" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &o.seed, "Seed of randomized strategies (default 1)", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "Write the mapping here (atomic)", "MAP" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Print one JSON object", NULL },
    { NULL },
  };
  int status = 2;
  if (cli_parse(&argc, &argv, "map", "",
                "Places the ranks with a strategy pipeline and compares the static metrics with "
                "the default placement (identity).",
                "Examples:\n"
                "  mapsim map --platform torus:4x4x4 --matrix cg.p2p.size.csv --strategy greedy+wh -o cg.map\n"
                "  mapsim map --platform torus:8x8x8 --trace t/traces.otf2 --strategy kl:t=2 --seed 3\n"
                "  mapsim strategies   # lists strategies and options",
                entries)) {
    if (argc > 1) {
      fprintf(stderr, "mapsim map: unexpected argument '%s', expected options only\n", argv[1]);
    } else {
      status = map_run(&o);
    }
  }
  map_opts_free(&o);
  return status;
}
