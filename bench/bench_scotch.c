/* bench_scotch.c - every registered strategy against `scotch_gmap -Cd` on
 * the 12 MapLib cases of korndoerfer2021 (Section 6: NAS CG, BT-MZ, AMG,
 * LULESH, 64 ranks, on a 4x4x4 mesh, torus and HAEC Box; the count
 * matrices), and (--large) Scotch's library mapping vs the scotch_gmap
 * command on larger graphs, with `geometric` for scale.
 *
 * For scotch_gmap the graph is written as a Scotch .grf (symmetrized: the
 * weight of {i, j} = count i->j + count j->i, unscaled at this size), the
 * target is `torus3D 4 4 4` / `mesh3D 4 4 4`, or for the HAEC Box a deco
 * target made by `amk_grf` from the graph of the box's links; gmap's
 * mapping is read back and measured with metrics_compute like every other
 * mapping. The commands run are printed (they can be rerun by hand in the
 * work directory, which is kept with --keep).
 *
 * Next to them: MapLib's published best for each case (its curves, which
 * mapsim reproduces, and its published topology-aware mappings in
 * bench/data/maplib-published.txt, measured here), the lower bounds of
 * mapping/bounds.h and every strategy's gap to them, and the best mapsim
 * result against the better reference, with the geometric mean.
 *
 * Usage: bench_scotch [--maplib DIR] [--published FILE] [--large] [--keep]
 * DIR defaults to the source tree's tests/data/maplib, FILE to
 * bench/data/maplib-published.txt.
 * Output: Markdown tables for bench/README.md ("Scotch and MapLib cases").
 */
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gmap.h"
#include "mapping/bounds.h"
#include "stencil-gen.h"
#include "util/output.h"

/* MapLib's published mappings of one case (bench/data/maplib-published.txt):
 * measured on g, the lowest hop-bytes into *best (its label into *label). */
static void published_best(const char *file, const char *app, const char *shape,
                           const commgraph *g, const platform *p, result *best, char **label)
{
  char *text = NULL;
  if (!g_file_get_contents(file, &text, NULL, NULL)) {
    fprintf(stderr, "%s: cannot read the published MapLib mappings\n", file);
    exit(1);
  }
  char **lines = g_strsplit(text, "\n", -1);
  for (int i = 0; lines[i]; i++) {
    char **f = g_strsplit_set(lines[i], " ", -1);
    if (lines[i][0] == '#' || g_strv_length(f) != 68 || strcmp(f[0], app) != 0 ||
        strcmp(f[1], shape) != 0) {
      g_strfreev(f);
      continue;
    }
    mapping *m = mapping_new(64);
    for (int k = 0; k < 64; k++)
      m->node[atoi(f[4 + k])] = k / 16 + 4 * (k / 4 % 4) + 16 * (k % 4);
    result r = measure(g, p, m, 0);
    if (!best->ok || r.hop_bytes < best->hop_bytes) {
      *best = r;
      g_free(*label);
      *label = g_strdup_printf("%s (%s)", f[3], f[2]);
    }
    mapping_free(m);
    g_strfreev(f);
  }
  g_strfreev(lines);
  g_free(text);
}

/* The pipelines shown besides the registry's strategies alone. */
static const char *maplib_pipes[] = {
  "greedy+wh", "greedy+wh+mc", "greedy+kl", "scotch+wh", "scotch+kl", "identity+kl",
  "mht+wh+mc", "identity+tabu", "scotch+tabu", "morton+tabu",
  ("portfolio:try=[identity+tabu:iters=60000|scotch+tabu:iters=60000|morton+tabu:iters=60000|"
   "greedy+tabu:iters=60000|random+tabu:iters=60000]"),
};

static void print_table(const char *title, GPtrArray *rows, int nrows, const result *res,
                        char **names, int nc, int what)
{
  printf("\n%s\n\n| strategy |", title);
  for (int c = 0; c < nc; c++)
    printf(" %s |", names[c]);
  printf("\n|---|");
  for (int c = 0; c < nc; c++)
    printf("---:|");
  printf("\n");
  for (int s = 0; s < nrows; s++) {
    const char *name = rows->pdata[s];
    printf("| %s |", strncmp(name, "portfolio:", 10) == 0 ? "portfolio (5 tabu runs)" : name);
    for (int c = 0; c < nc; c++) {
      const result *r = &res[s * nc + c];
      if (!r->ok)
        printf(" n/a |");
      else if (what == 0)
        printf(" %" G_GINT64_FORMAT " |", r->hop_bytes);
      else if (what == 1)
        printf(" %" G_GINT64_FORMAT " |", r->max_link);
      else if (what == 2)
        printf(" %.1f / %.1f |", 100 * r->gap_hb, 100 * r->gap_ml);
      else
        printf(" %.3f |", r->secs);
    }
    printf("\n");
  }
}

static void maplib(const char *dir_data, const char *published, const char *work, GString *cmds)
{
  static const char *apps[] = { "cg", "btmz", "amg", "lulesh" };
  static const char *plats[] = { "torus:4x4x4", "mesh:4x4x4", "haec:4x4x4" };
  static const char *topos[] = { "torus", "mesh", "haec" };
  /* MapLib's curves are mapsim's: sweep = identity, peano = morton */
  static const char *curves[] = { "identity", "scan", "morton", "gray", "hilbert" };
  static const char *curve_names[] = { "sweep", "scan", "peano", "gray", "hilbert" };
  GPtrArray *rows = g_ptr_array_new_with_free_func(g_free);
  for (int i = 0; strategy_registry[i]; i++)
    if (strcmp(strategy_registry[i]->name, "portfolio") != 0)
      g_ptr_array_add(rows, g_strdup(strategy_registry[i]->name));
  for (int i = 0; i < (int)G_N_ELEMENTS(maplib_pipes); i++)
    g_ptr_array_add(rows, g_strdup(maplib_pipes[i]));
  int ns = (int)rows->len, nc = 12;
  g_ptr_array_add(rows, g_strdup("**scotch_gmap -Cd**"));
  g_ptr_array_add(rows, g_strdup("**MapLib published best**"));
  g_ptr_array_add(rows, g_strdup("**lower bound**"));
  result *res = g_new0(result, (size_t)(ns + 3) * nc);
  char *names[12], *maplib_label[12];
  bounds bd[12];
  for (int a = 0; a < 4; a++) {
    char *path = g_strdup_printf("%s/%s.p2p.count.csv", dir_data, apps[a]);
    GError *e = NULL;
    commgraph *g = commgraph_load(path, &e);
    if (!g) {
      fprintf(stderr, "%s\n", e->message);
      exit(1);
    }
    for (int k = 0; k < 3; k++) {
      int c = a * 3 + k;
      platform *p = platform_load(plats[k], &e);
      names[c] = g_strdup_printf("%s %s", apps[a], plats[k]);
      fprintf(stderr, "%s ...\n", names[c]);
      bounds_compute(g, p, &bd[c]);
      for (int s = 0; s < ns; s++) {
        res[s * nc + c] = run_strategy(rows->pdata[s], g, p);
        res[s * nc + c].gap_hb = bounds_gap((double)res[s * nc + c].hop_bytes, (double)bd[c].hop_bytes);
        res[s * nc + c].gap_ml = bounds_gap((double)res[s * nc + c].max_link, (double)bd[c].max_link_bytes);
      }
      char tag[64];
      g_snprintf(tag, sizeof tag, "%s-%s", apps[a], topos[k]);
      res[ns * nc + c] = run_gmap(g, p, work, tag, cmds);
      /* MapLib's best: its curves and its published topology-aware mappings */
      result *mb = &res[(ns + 1) * nc + c];
      maplib_label[c] = NULL;
      for (int i = 0; i < (int)G_N_ELEMENTS(curves); i++)
        for (int s = 0; s < ns; s++)
          if (strcmp(rows->pdata[s], curves[i]) == 0 &&
              (!mb->ok || res[s * nc + c].hop_bytes < mb->hop_bytes)) {
            *mb = res[s * nc + c];
            g_free(maplib_label[c]);
            maplib_label[c] = g_strdup(curve_names[i]);
          }
      published_best(published, apps[a], topos[k], g, p, mb, &maplib_label[c]);
      res[(ns + 2) * nc + c] = (result){ .ok = TRUE, .hop_bytes = bd[c].hop_bytes,
                                           .max_link = bd[c].max_link_bytes };
      for (int r = ns; r < ns + 2; r++) {
        res[r * nc + c].gap_hb = bounds_gap((double)res[r * nc + c].hop_bytes, (double)bd[c].hop_bytes);
        res[r * nc + c].gap_ml = bounds_gap((double)res[r * nc + c].max_link, (double)bd[c].max_link_bytes);
      }
      platform_free(p);
    }
    commgraph_free(g);
    g_free(path);
  }
  print_table("Weighted hops (count matrices; sum of messages x hops)", rows, ns + 3, res, names,
              nc, 0);
  print_table("Max link load (count matrices; messages on the busiest link)", rows, ns + 3, res,
              names, nc, 1);
  print_table("Gaps to the lower bounds, % (gap_hop_bytes / gap_max_link: (value - bound) / value)",
              rows, ns + 2, res, names, nc, 2);
  print_table("Run time (s, wall clock, one run)", rows, ns, res, names, nc, 3);
  printf("\nBest mapsim strategy per case vs the best reference (min of MapLib's published best "
         "and scotch_gmap -Cd)\n\n"
         "| case | lower bound (how) | MapLib best | scotch_gmap | best mapsim | its weighted hops "
         "| best / reference | gap of best |\n|---|---|---:|---:|---|---:|---:|---:|\n");
  double logsum = 0;
  for (int c = 0; c < nc; c++) {
    int best = -1;
    for (int s = 0; s < ns; s++)
      if (res[s * nc + c].ok && (best < 0 || res[s * nc + c].hop_bytes < res[best * nc + c].hop_bytes))
        best = s;
    const result *gm = &res[ns * nc + c], *mb = &res[(ns + 1) * nc + c];
    int64_t ref = MIN(gm->ok ? gm->hop_bytes : INT64_MAX, mb->hop_bytes);
    double ratio = (double)res[best * nc + c].hop_bytes / (double)ref;
    logsum += log(ratio);
    const char *bname = rows->pdata[best];
    printf("| %s | %" G_GINT64_FORMAT " (%s) | %" G_GINT64_FORMAT " (%s) | %" G_GINT64_FORMAT
           " | %s | %" G_GINT64_FORMAT " | %.3f | %.1f%% |\n",
           names[c], bd[c].hop_bytes, bd[c].hop_bytes_how, mb->hop_bytes, maplib_label[c],
           gm->hop_bytes, strncmp(bname, "portfolio:", 10) == 0 ? "portfolio (5 tabu runs)" : bname,
           res[best * nc + c].hop_bytes, ratio, 100 * res[best * nc + c].gap_hb);
  }
  printf("\nGeometric mean of best / reference over the 12 cases: %.4f\n", exp(logsum / nc));
  printf("\nThe portfolio row: %s\n", maplib_pipes[G_N_ELEMENTS(maplib_pipes) - 1]);
  for (int c = 0; c < nc; c++) {
    g_free(names[c]);
    g_free(maplib_label[c]);
  }
  g_free(res);
  g_ptr_array_free(rows, TRUE);
}

/* Larger graphs: the scotch strategy (library) vs the scotch_gmap command,
 * geometric alongside. */
static void large(const char *work, GString *log)
{
  printf("\nLarger graphs: run time and hop-bytes\n\n"
         "| graph | platform | scotch (library) | scotch_gmap -Cd (command, incl. I/O) | "
         "geometric |\n|---|---|---:|---:|---:|\n");
  int d16[3] = { 16, 16, 16 }, d32[3] = { 32, 32, 32 };
  struct {
    const char *name, *plat;
    const int *dims;
  } cases[] = {
    { "3D stencil 16^3 (periodic)", "torus:16x16x16", d16 },
    { "3D stencil 32^3 (periodic)", "torus:32x32x32", d32 },
  };
  for (int i = 0; i < (int)G_N_ELEMENTS(cases); i++) {
    double *coords = NULL;
    commgraph *g = bench_stencil(3, cases[i].dims, TRUE, 1000, &coords);
    GError *e = NULL;
    platform *p = platform_load(cases[i].plat, &e);
    result sc = run_strategy("scotch", g, p);
    char tag[32];
    g_snprintf(tag, sizeof tag, "large%d", i);
    result gm = run_gmap(g, p, work, tag, log);
    strategy_pipeline *pl = strategy_parse("geometric", &e);
    gint64 t0 = g_get_monotonic_time();
    mapping *m = strategy_run(&(strategy_request){ .pipeline = pl, .g = g, .p = p, .seed = 1,
                                                   .coords = coords, .coord_dims = 3 },
                              &e);
    result geo = measure(g, p, m, (double)(g_get_monotonic_time() - t0) / 1e6);
    printf("| %s | %s | %.3f s, %" G_GINT64_FORMAT " | %.3f s, %" G_GINT64_FORMAT
           " (%d nodes over capacity) | %.3f s, %" G_GINT64_FORMAT " |\n",
           cases[i].name, cases[i].plat, sc.secs, sc.hop_bytes, gm.secs, gm.hop_bytes, gm.over,
           geo.secs, geo.hop_bytes);
    fflush(stdout);
    mapping_free(m);
    strategy_pipeline_free(pl);
    platform_free(p);
    commgraph_free(g);
    g_free(coords);
  }
}

int main(int argc, char **argv)
{
  const char *data = MAPLIB_DIR, *published = MAPLIB_PUBLISHED;
  gboolean do_large = FALSE, keep = FALSE;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--maplib") == 0 && i + 1 < argc)
      data = argv[++i];
    else if (strcmp(argv[i], "--published") == 0 && i + 1 < argc)
      published = argv[++i];
    else if (strcmp(argv[i], "--large") == 0)
      do_large = TRUE;
    else if (strcmp(argv[i], "--keep") == 0)
      keep = TRUE;
  }
  char *work = g_dir_make_tmp("bench-scotch-XXXXXX", NULL);
  GString *log = g_string_new(NULL);
  if (do_large)
    large(work, log);
  else
    maplib(data, published, work, log);
  printf("\nCommands run (in %s%s):\n\n```\n%s```\n", work, keep ? "" : ", removed", log->str);
  if (!keep)
    output_remove_tree(work);
  g_string_free(log, TRUE);
  g_free(work);
  return 0;
}
