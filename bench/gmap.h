/* gmap.h - benchmark helpers shared by bench_scotch.c and bench_scale.c:
 * measuring a mapping (hop-bytes, busiest link, nodes over capacity), running
 * a strategy pipeline timed, and running Scotch's command-line mapper
 * `scotch_gmap -Cd` on a graph and platform in a work directory (the graph
 * as a symmetrized .grf, a native target line or a deco target made by
 * amk_grf from the graph of the platform's links), its mapping read back
 * and measured like every other. The commands run are appended to a log.
 * Static functions, bench-only.
 */
#pragma once

#include <stdio.h>
#include <sys/resource.h>
#include <string.h>

#include "mapping/metrics.h"
#include "mapping/scotch-util.h"
#include "mapping/strategy.h"

typedef struct result {
  gboolean ok;
  int64_t hop_bytes;
  int64_t max_link;
  double secs;
  int over; /* nodes above capacity (scotch_gmap only balances within 5%) */
  double gap_hb, gap_ml; /* to the lower bounds */
  double cpu;            /* processor seconds, every thread (or the child's) */
} result;

/* Processor seconds used so far by this process (all its threads), or by
 * its children waited for. */
static G_GNUC_UNUSED double cpu_seconds(int who)
{
  struct rusage u;
  getrusage(who, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_stime.tv_sec +
         ((double)u.ru_utime.tv_usec + (double)u.ru_stime.tv_usec) / 1e6;
}

static G_GNUC_UNUSED result measure(const commgraph *g, const platform *p, const mapping *m, double secs)
{
  metrics *mt = metrics_compute(g, p, m);
  result r = { .ok = TRUE, .hop_bytes = mt->hop_bytes, .max_link = mt->max_link_bytes,
                .secs = secs };
  int *load = g_new0(int, p->topo->nnodes);
  for (int i = 0; i < m->ntasks; i++)
    if (++load[m->node[i]] == p->cores_per_node + 1)
      r.over++;
  g_free(load);
  metrics_free(mt);
  return r;
}

static G_GNUC_UNUSED result run_strategy(const char *spec, const commgraph *g, const platform *p)
{
  result r = { 0 };
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(spec, &e);
  if (!pl) {
    g_clear_error(&e);
    return r;
  }
  gint64 t0 = g_get_monotonic_time();
  double c0 = cpu_seconds(RUSAGE_SELF);
  mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1 }, &e);
  double secs = (double)(g_get_monotonic_time() - t0) / 1e6, cpu = cpu_seconds(RUSAGE_SELF) - c0;
  if (m) {
    r = measure(g, p, m, secs);
    r.cpu = cpu;
  }
  else
    fprintf(stderr, "  %s on %s: %s\n", spec, p->name, e->message);
  g_clear_error(&e);
  mapping_free(m);
  strategy_pipeline_free(pl);
  return r;
}

static G_GNUC_UNUSED gboolean spawn(const char *dir, char **argv, GString *log)
{
  GError *e = NULL;
  int status = -1;
  char *cmd = g_strjoinv(" ", argv);
  g_string_append_printf(log, "%s\n", cmd);
  g_free(cmd);
  gboolean ok = g_spawn_sync(dir, argv, NULL,
                             G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                               G_SPAWN_STDERR_TO_DEV_NULL,
                             NULL, NULL, NULL, NULL, &status, &e);
  ok = ok && g_spawn_check_wait_status(status, NULL);
  g_clear_error(&e);
  return ok;
}

/* The graph of p's links as a Scotch .grf (unit weights), for amk_grf. */
static G_GNUC_UNUSED void save_topology_grf(const platform *p, const char *path)
{
  const topo *t = p->topo;
  int64_t *one = g_new(int64_t, t->nlinks);
  for (int l = 0; l < t->nlinks; l++)
    one[l] = 1;
  commgraph *lg = commgraph_from_edges(t->nnodes, t->nlinks, t->link_src, t->link_dst, one, NULL);
  scotch_graph sg;
  GError *e = NULL;
  g_assert(scotch_graph_build(&sg, lg, &e));
  for (int k = 0; k < sg.verttab[sg.n]; k++)
    sg.edlotab[k] = 1;
  g_assert(scotch_graph_save(&sg, path, &e));
  scotch_graph_free(&sg);
  commgraph_free(lg);
  g_free(one);
}

/* Runs scotch_gmap -Cd on (g, p) in dir; the mapping is measured. */
static G_GNUC_UNUSED result run_gmap(const commgraph *g, const platform *p, const char *dir, const char *tag,
                       GString *log)
{
  result r = { 0 };
  char grf[256], tgt[256], map[256];
  g_snprintf(grf, sizeof grf, "%s.grf", tag);
  g_snprintf(tgt, sizeof tgt, "%s.tgt", p->name);
  for (char *c = tgt; *c; c++)
    if (*c == ':')
      *c = '-';
  g_snprintf(map, sizeof map, "%s.map", tag);
  char *grf_path = g_build_filename(dir, grf, NULL), *tgt_path = g_build_filename(dir, tgt, NULL);
  char *map_path = g_build_filename(dir, map, NULL);
  scotch_graph sg;
  GError *e = NULL;
  g_assert(scotch_graph_build(&sg, g, &e));
  g_assert(scotch_graph_save(&sg, grf_path, &e));
  scotch_graph_free(&sg);
  const topo *t = p->topo;
  if (!g_file_test(tgt_path, G_FILE_TEST_EXISTS)) {
    gboolean native = t->crossbar_dim < 0 && topo_is_regular(t) && p->nalloc == t->nnodes;
    for (int d = 1; native && d < t->ndims; d++)
      native = t->conn[d] == t->conn[0];
    if (native) {
      /* mesh2D/3D, torus2D/3D, else torusXD/meshXD (Scotch 7.0.3's meshXD
       * measures wrap-around distances: a 4D mesh is mapped as a torus) */
      GString *txt = g_string_new(t->conn[0] == TOPO_TORUS ? "torus" : "mesh");
      if (t->ndims == 2 || t->ndims == 3)
        g_string_append_printf(txt, "%dD", t->ndims);
      else
        g_string_append_printf(txt, "XD %d", t->ndims);
      for (int d = 0; d < t->ndims; d++)
        g_string_append_printf(txt, " %d", t->shape[d]);
      g_file_set_contents(tgt_path, txt->str, -1, NULL);
      g_string_append_printf(log, "echo '%s' > %s\n", txt->str, tgt);
      g_string_free(txt, TRUE);
    } else {
      char topo_grf[256];
      g_snprintf(topo_grf, sizeof topo_grf, "%.*s-links.grf", (int)strlen(tgt) - 4, tgt);
      char *tp = g_build_filename(dir, topo_grf, NULL);
      save_topology_grf(p, tp);
      char *argv[] = { "amk_grf", topo_grf, tgt, NULL };
      gboolean ok = spawn(dir, argv, log);
      g_free(tp);
      if (!ok)
        goto out;
    }
  }
  char *argv[] = { "scotch_gmap", "-Cd", grf, tgt, map, NULL };
  gint64 t0 = g_get_monotonic_time();
  double c0 = cpu_seconds(RUSAGE_CHILDREN);
  if (!spawn(dir, argv, log))
    goto out;
  double secs = (double)(g_get_monotonic_time() - t0) / 1e6, cpu = cpu_seconds(RUSAGE_CHILDREN) - c0;
  char *text = NULL;
  if (!g_file_get_contents(map_path, &text, NULL, NULL))
    goto out;
  mapping *m = mapping_new(g->n);
  char **lines = g_strsplit(text, "\n", -1);
  for (int i = 1; lines[i]; i++) {
    int v, term;
    if (sscanf(lines[i], "%d %d", &v, &term) == 2 && v >= 0 && v < g->n)
      m->node[v] = term;
  }
  g_strfreev(lines);
  g_free(text);
  gboolean in_range = TRUE;
  for (int i = 0; i < g->n; i++)
    in_range = in_range && m->node[i] >= 0 && m->node[i] < t->nnodes &&
               p->alloc_index[m->node[i]] >= 0;
  if (in_range) {
    r = measure(g, p, m, secs); /* even when over capacity: r.over says so */
    r.cpu = cpu;
  } else {
    fprintf(stderr, "  scotch_gmap mapping for %s names nodes outside the allocation\n", tag);
  }
  mapping_free(m);
out:
  g_free(grf_path);
  g_free(tgt_path);
  g_free(map_path);
  return r;
}

