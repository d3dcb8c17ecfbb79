/* test_report_cli.c - the study report and `mapsim plot`: the report's
 * correlations equal Spearman and Pearson computed here from results.csv
 * by the textbook formulas, the report is the same bytes for any -j and
 * stands alone (no network, no script), every figure it names exists as a
 * PNG and an SVG, and `plot` draws a run from its JSON. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "report/plot.h"
#include "testutil.h"

/* Column index of `name` in a CSV header (no quoted cells here). */
static int column(char **head, const char *name)
{
  for (int i = 0; head[i]; i++)
    if (strcmp(head[i], name) == 0)
      return i;
  cr_assert_fail("no column %s", name);
  return -1;
}

/* Average ranks by counting: rank(v) = 1 + #smaller + (#equal - 1) / 2. */
static void ranks(const double *v, int n, double *r)
{
  for (int i = 0; i < n; i++) {
    int less = 0, equal = 0;
    for (int j = 0; j < n; j++) {
      less += v[j] < v[i];
      equal += v[j] == v[i];
    }
    r[i] = 1 + less + (equal - 1) / 2.0;
  }
}

static double pearson(const double *x, const double *y, int n)
{
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    syy += y[i] * y[i];
    sxy += x[i] * y[i];
  }
  return (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
}

static const char grid_study[] =
  "[study]\n"
  "name = report test\n"
  "traces = %s\n"
  "platforms = torus:4x4; mesh:4x4\n"
  "strategies = identity; random; hilbert; greedy; greedy+wh; scotch\n"
  "models = flow\n"
  "compute-scale = 0\n"
  "seeds = 1; 2\n";

static char *write_study(const char *dir)
{
  g_autofree char *trace = tu_src("traces/data/cg-16");
  g_autofree char *text = g_strdup_printf(grid_study, trace);
  char *file = g_build_filename(dir, "report.ini", NULL);
  cr_assert(g_file_set_contents(file, text, -1, NULL));
  return file;
}

Test(report_cli, correlations_equal_the_textbook_formulas, .timeout = 240)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *file = write_study(dir);
  g_autofree char *out = g_build_filename(dir, "out", NULL);
  const char *args[] = { "study", file, "-o", out, "-q", NULL };
  char *so = NULL, *se = NULL;
  cr_assert_eq(tu_run(&so, &se, args), 0, "%s%s", so, se);
  g_free(so);
  g_free(se);
  g_autofree char *csv = tu_read(out, "results.csv");
  g_autofree char *corr = tu_read(out, "correlations.csv");
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
  int cp = column(head, "platform"), cx = column(head, "pre_hop_bytes"),
      cm = column(head, "pre_max_link_bytes"), cy = column(head, "makespan_s");
  const char *plats[] = { "torus-4x4", "mesh-4x4" }; /* labels of the shorthands */
  const char *metrics[] = { "pre_hop_bytes", "pre_max_link_bytes" };
  int cols[] = { cx, cm };
  int checked = 0;
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 2; k++) {
      double x[64], y[64];
      int n = 0;
      for (int l = 1; lines[l] && *lines[l]; l++) {
        g_auto(GStrv) cells = g_strsplit(lines[l], ",", -1);
        if (strcmp(cells[cp], plats[p]) != 0)
          continue;
        x[n] = g_ascii_strtod(cells[cols[k]], NULL);
        y[n++] = g_ascii_strtod(cells[cy], NULL);
      }
      cr_assert_eq(n, 12, "6 strategies x 2 seeds on %s", plats[p]);
      double rx[64], ry[64];
      ranks(x, n, rx);
      ranks(y, n, ry);
      double rho = pearson(rx, ry, n), r = pearson(x, y, n);
      /* the report's line for this platform and metric */
      g_autofree char *key = g_strdup_printf("cg-16,bytes,flow,%s,%s,makespan_s,12,", plats[p],
                                             metrics[k] + 4);
      const char *at = strstr(corr, key);
      cr_assert_not_null(at, "correlations.csv lacks %s:\n%s", key, corr);
      double got_rho = g_ascii_strtod(at + strlen(key), NULL);
      const char *comma = strchr(at + strlen(key), ',');
      double got_r = g_ascii_strtod(comma + 1, NULL);
      cr_assert_float_eq(got_rho, rho, 1e-12, "%s %s: rho %.17g, expected %.17g", plats[p],
                         metrics[k], got_rho, rho);
      cr_assert_float_eq(got_r, r, 1e-9, "%s %s: r %.17g, expected %.17g", plats[p], metrics[k],
                         got_r, r);
      checked++;
    }
  cr_assert_eq(checked, 4);
  /* the verdict names a metric and its rho for each platform */
  g_autofree char *html = tu_read(out, "index.html");
  cr_assert(strstr(html, " the ranking best on torus-4x4 (Spearman&apos;s ρ = ") ||
            strstr(html, "predicts the ranking significantly on torus-4x4 (n = 12; "),
            "no verdict for torus-4x4");
}

/* Every figure the page names exists as PNG and SVG, the PNGs are PNGs,
 * and the page needs nothing from outside its folder. */
static void check_page(const char *out)
{
  g_autofree char *html = tu_read(out, "index.html");
  cr_assert_null(strstr(html, "http://"));
  cr_assert_null(strstr(html, "https://"));
  cr_assert_null(strstr(html, "<script"));
  int figures = 0;
  for (const char *p = html; (p = strstr(p, "href=\"figures/")); p++) {
    const char *name = p + strlen("href=\"");
    const char *end = strchr(name, '"');
    g_autofree char *rel = g_strndup(name, (gsize)(end - name));
    g_autofree char *path = g_build_filename(out, rel, NULL);
    char *data = NULL;
    gsize len = 0;
    cr_assert(g_file_get_contents(path, &data, &len, NULL), "%s missing", path);
    if (g_str_has_suffix(rel, ".png")) {
      cr_assert(len > 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0, "%s is not a PNG", rel);
      figures++;
    } else {
      cr_assert(g_str_has_suffix(rel, ".svg") && strstr(data, "<svg"), "%s is not an SVG", rel);
    }
    g_free(data);
  }
  /* every embedded image is one of them */
  int embedded = 0;
  for (const char *p = html; (p = strstr(p, "src=\"data:image/png;base64,")); p++)
    embedded++;
  cr_assert_eq(embedded, figures);
  cr_assert_geq(figures, 8, "%d figures", figures);
}

Test(report_cli, same_page_for_any_threads_and_standalone, .timeout = 300)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *file = write_study(dir);
  g_autofree char *a = g_build_filename(dir, "a", NULL), *b = g_build_filename(dir, "b", NULL);
  const char *one[] = { "study", file, "-o", a, "-j", "1", "-q", NULL };
  const char *four[] = { "study", file, "-o", b, "-j", "4", "-q", NULL };
  cr_assert_eq(tu_run(NULL, NULL, one), 0);
  cr_assert_eq(tu_run(NULL, NULL, four), 0);
  g_autofree char *ha = tu_read(a, "index.html"), *hb = tu_read(b, "index.html");
  cr_assert(strcmp(ha, hb) == 0, "index.html differs between -j 1 and -j 4");
  check_page(a);
}

Test(report_cli, plot_draws_a_simulated_run, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *trace = tu_src("traces/data/stencil3d-64");
  char *json = NULL;
  const char *sim[] = { "simulate", "-p", "haec:4x4x4", "-t", trace, "-s", "random", "--json",
                        NULL };
  cr_assert_eq(tu_run(&json, NULL, sim), 0);
  g_autofree char *run = g_build_filename(dir, "run.json", NULL);
  cr_assert(g_file_set_contents(run, json, -1, NULL));
  g_free(json);
  char *out = NULL, *err = NULL;
  const char *plot[] = { "plot", run, "-p", "haec:4x4x4", "-t", trace, "--color", "busy", "-o",
                         dir, NULL };
  cr_assert_eq(tu_run(&out, &err, plot), 0, "%s", err);
  const char *files[] = { "run-links.png", "run-links.svg", "run-directions.png",
                          "run-directions.svg", "run-matrix.png", "run-matrix.svg" };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *path = g_build_filename(dir, files[i], NULL);
    cr_assert(g_file_test(path, G_FILE_TEST_IS_REGULAR), "%s missing:\n%s", files[i], out);
  }
  g_free(out);
  g_free(err);
  /* the wrong platform is named, not drawn */
  const char *wrong[] = { "plot", run, "-p", "torus:2x2x2", "-o", dir, NULL };
  cr_assert_eq(tu_run(NULL, &err, wrong), 2);
  cr_assert_not_null(strstr(err, ".link: expected a link id of torus:2x2x2"), "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(err);
  /* a saved metrics --json names its own platform */
  g_autofree char *saved = tu_data("runs/y_cg_torus_metrics.json");
  const char *from_metrics[] = { "plot", saved, "--name", "cg", "-o", dir, NULL };
  cr_assert_eq(tu_run(NULL, &err, from_metrics), 0, "%s", err);
  g_free(err);
  g_autofree char *cg_links = g_build_filename(dir, "cg-links.svg", NULL);
  cr_assert(g_file_test(cg_links, G_FILE_TEST_IS_REGULAR));
  /* JSON without links */
  g_autofree char *bad = g_build_filename(dir, "bad.json", NULL);
  cr_assert(g_file_set_contents(bad, "{\"makespan_s\": 1}", -1, NULL));
  const char *nolinks[] = { "plot", bad, "-p", "haec:4x4x4", "-o", dir, NULL };
  cr_assert_eq(tu_run(NULL, &err, nolinks), 2);
  cr_assert_not_null(strstr(err, "links: expected an array of the run's links"), "%s", err);
  g_free(err);
}

/* ---- colours read back from the figures ---- */

/* Does the SVG paint with colour c? */
static gboolean svg_has_color(const char *svg, plot_rgb c)
{
  return tu_svg_has_rgb(svg, c.r, c.g, c.b);
}

/* The largest "bytes" of a run's "links" (metrics --json). */
static double max_link_bytes(const char *json)
{
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, json, -1, NULL));
  JsonArray *links = json_object_get_array_member(json_node_get_object(json_parser_get_root(jp)),
                                                  "links");
  double max = 0;
  for (guint i = 0; i < json_array_get_length(links); i++)
    max = MAX(max, (double)json_object_get_int_member(json_array_get_object_element(links, i),
                                                      "bytes"));
  g_object_unref(jp);
  return max;
}

/* Identity and random of the stencil on the torus, plotted together: one
 * colour scale from 0 to random's busiest link, so identity's busiest link
 * is drawn at heat(identity max / random max) and the top colour appears
 * only in random's figure; with --scale own each figure reaches the top. */
Test(report_cli, plot_draws_runs_on_one_scale, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *trace = tu_src("traces/data/stencil3d-64");
  const char *names[] = { "identity", "random" };
  double max[2];
  for (int k = 0; k < 2; k++) {
    char *json = NULL;
    g_autofree char *map = g_strdup_printf("%s/%s.map", dir, names[k]);
    const char *mp[] = { "map", "-p", "torus:4x4x4", "-t", trace, "-s", names[k], "-o", map,
                         NULL };
    cr_assert_eq(tu_run(NULL, NULL, mp), 0);
    const char *m[] = { "metrics", "-p", "torus:4x4x4", "-t", trace, "-M", map, "--json", NULL };
    cr_assert_eq(tu_run(&json, NULL, m), 0);
    max[k] = max_link_bytes(json);
    g_autofree char *file = g_strdup_printf("%s/%s.json", dir, names[k]);
    cr_assert(g_file_set_contents(file, json, -1, NULL));
    g_free(json);
  }
  cr_assert_gt(max[1], max[0], "random's busiest link carries more than identity's");
  g_autofree char *a = g_strdup_printf("%s/identity.json", dir);
  g_autofree char *b = g_strdup_printf("%s/random.json", dir);
  plot_rgb top = plot_heat(1.0), id_top = plot_heat(max[0] / max[1]);
  for (int own = 0; own < 2; own++) {
    char *out = NULL, *err = NULL;
    const char *plot[] = { "plot", a, b, "-o", dir, own ? "--scale" : NULL, "own", NULL };
    cr_assert_eq(tu_run(&out, &err, plot), 0, "%s", err);
    cr_assert_not_null(strstr(out, own ? "each run's own scale" : "one scale shared by the runs"),
                       "%s", out);
    cr_assert_not_null(strstr(out, "identity-vs-random-directions.png"), "%s", out);
    g_autofree char *id = tu_read(dir, "identity-links.svg");
    g_autofree char *rnd = tu_read(dir, "random-links.svg");
    cr_assert(svg_has_color(rnd, top), "random's busiest link at the top of the scale");
    if (own) {
      cr_assert(svg_has_color(id, top), "--scale own: identity's busiest link at the top");
    } else {
      cr_assert_not(svg_has_color(id, top), "shared scale: identity never reaches the top");
      cr_assert(svg_has_color(id, id_top), "identity's busiest link at heat(%g)",
                max[0] / max[1]);
    }
    g_free(out);
    g_free(err);
  }
  /* runs of different platforms do not share a scale */
  char *json = NULL, *err = NULL;
  const char *mesh[] = { "metrics", "-p", "mesh:4x4x4", "-t", trace, "--json", NULL };
  cr_assert_eq(tu_run(&json, NULL, mesh), 0);
  g_autofree char *c = g_strdup_printf("%s/mesh.json", dir);
  cr_assert(g_file_set_contents(c, json, -1, NULL));
  g_free(json);
  const char *mixed[] = { "plot", a, c, "-o", dir, NULL };
  cr_assert_eq(tu_run(NULL, &err, mixed), 2);
  cr_assert_not_null(strstr(err, "must share a platform"), "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(err);
}

/* A matrix whose entries are all 3 bytes: its cells are painted in the
 * one colour of its one-value legend (the middle of viridis), not at the
 * top of a 2.7..3.3 bar. Read back from the PNG (twice the SVG's size):
 * the bytes panel starts at (500, 58) and is 300 pixels wide, so cell
 * (0, 1) of a 4-rank ring is centred at (500 + 112.5, 58 + 37.5). */
Test(report_cli, constant_matrix_at_its_values_colour, .timeout = 60)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *ring = g_build_filename(dir, "ring.edges", NULL);
  cr_assert(g_file_set_contents(ring, "0 1 3\n1 2 3\n2 3 3\n3 0 3\n", -1, NULL));
  char *json = NULL;
  const char *m[] = { "metrics", "-p", "mesh:4", "-m", ring, "--json", NULL };
  cr_assert_eq(tu_run(&json, NULL, m), 0);
  g_autofree char *run = g_build_filename(dir, "ring.json", NULL);
  cr_assert(g_file_set_contents(run, json, -1, NULL));
  g_free(json);
  char *err = NULL;
  const char *plot[] = { "plot", run, "-m", ring, "-o", dir, NULL };
  cr_assert_eq(tu_run(NULL, &err, plot), 0, "%s", err);
  g_free(err);
  g_autofree char *png = g_build_filename(dir, "ring-matrix.png", NULL);
  cairo_surface_t *img = cairo_image_surface_create_from_png(png);
  cr_assert_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
  cairo_surface_flush(img);
  const unsigned char *data = cairo_image_surface_get_data(img);
  int stride = cairo_image_surface_get_stride(img);
  int x = (int)(2 * (500 + 112.5)), y = (int)(2 * (58 + 37.5));
  uint32_t px = *(const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride + (size_t)x * 4);
  plot_rgb want = plot_viridis(0.5), got = { ((px >> 16) & 255) / 255.0,
                                             ((px >> 8) & 255) / 255.0, (px & 255) / 255.0 };
  cr_assert(fabs(got.r - want.r) < 0.01 && fabs(got.g - want.g) < 0.01 &&
            fabs(got.b - want.b) < 0.01, "cell colour %06x, expected viridis(0.5)", px & 0xffffff);
  cairo_surface_destroy(img);
  /* the legend: one swatch of that colour, no bar up to viridis(1) */
  g_autofree char *svg = tu_read(dir, "ring-matrix.svg");
  cr_assert(svg_has_color(svg, want));
  cr_assert_not(svg_has_color(svg, plot_viridis(1.0)));
}

/* The page without its embedded images (base64 may spell anything). */
static char *page_text(const char *html)
{
  GString *t = g_string_new(NULL);
  const char *at = html, *p;
  while ((p = strstr(at, "base64,"))) {
    g_string_append_len(t, at, p - at);
    at = strchr(p, '"');
    cr_assert_not_null(at);
  }
  g_string_append(t, at);
  return g_string_free(t, FALSE);
}

/* identity and sweep place the ranks alike on a full torus: a tie, shown
 * as "=3" (behind greedy and random) on the console and in the report; 4 strategies x 1 seed are too few points for a
 * verdict; metrics that no strategy changes (tasks, edges) are folded into
 * one line, and an undefined correlation is "-" with its reason in the
 * page and in correlations.csv - nowhere "nan". Figures are named after
 * input, platform and strategy, and the link figures of a platform share
 * one colour scale: the darkest colour appears only where the busiest link
 * of all three is. */
Test(report_cli, ties_verdicts_and_undefined_correlations, .timeout = 240)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *trace = tu_src("traces/data/cg-16");
  g_autofree char *text = g_strdup_printf("[study]\nname = ties\ntraces = %s\n"
                                          "platforms = torus:4x4x4\n"
                                          "strategies = identity; sweep; random; greedy\n"
                                          "models = flow\ncompute-scale = 0\n", trace);
  g_autofree char *file = g_build_filename(dir, "ties.ini", NULL);
  cr_assert(g_file_set_contents(file, text, -1, NULL));
  g_autofree char *out = g_build_filename(dir, "out", NULL);
  char *so = NULL, *se = NULL;
  const char *args[] = { "study", file, "-o", out, "-q", NULL };
  cr_assert_eq(tu_run(&so, &se, args), 0, "%s%s", so, se);
  /* the console ranking shows the tie too */
  cr_assert(g_regex_match_simple("torus-4x4x4 +greedy -79.9% +random -39.8% +=3 identity +=3 "
                                 "sweep 0%", so, 0, 0), "%s", so);
  g_free(so);
  g_free(se);
  g_autofree char *html = tu_read(out, "index.html");
  g_autofree char *page = page_text(html);
  cr_assert_not_null(strstr(page, "<span class=\"rk\">=3</span> identity"), "no tie in the page");
  cr_assert_not_null(strstr(page, "<span class=\"rk\">=3</span> sweep"));
  cr_assert_not_null(strstr(page, "too few points (n = 4)"));
  cr_assert_not_null(strstr(page, "too few points to judge (n = 4)"));
  cr_assert_null(strstr(page, " predicts the ranking best"), "a verdict from 4 points");
  cr_assert(g_regex_match_simple("The same for every strategy on every platform[^<]*tasks", page,
                                 0, 0));
  cr_assert_null(strstr(page, "<code>tasks</code>"), "constant metric kept as a row");
  cr_assert_null(g_strstr_len(page, -1, "nan"));
  cr_assert_null(strstr(page, "-0.00"));
  cr_assert_null(strstr(page, "-0.0%"));
  /* summary before every folded section */
  const char *summary = strstr(page, "id=\"summary\""), *ranking = strstr(page, "<details id=");
  cr_assert(summary && ranking && summary < ranking);
  g_autofree char *corr = tu_read(out, "correlations.csv");
  cr_assert(g_str_has_prefix(corr, "input,kind,model,platform,static_metric,simulated_time,cells,"
                                   "spearman,pearson,spearman_p,undefined\n"), "%s", corr);
  cr_assert_not_null(strstr(corr, ",tasks,makespan_s,4,,,,constant metric\n"), "%s", corr);
  cr_assert_null(strstr(corr, "nan"));
  g_autofree char *csv = tu_read(out, "results.csv");
  g_autofree char *json = tu_read(out, "results.json");
  cr_assert_null(strstr(csv, "nan"));
  cr_assert_null(strstr(json, "nan"));
  cr_assert_null(strstr(json, "NaN"));
  /* one scale for the three link figures of the platform */
  const char *picks[] = { "identity", "greedy", "sweep" }; /* reference, best, worst other */
  int top = 0;
  for (int k = 0; k < 3; k++) {
    g_autofree char *name = g_strdup_printf("figures/links_cg-16_torus-4x4x4_%s.svg", picks[k]);
    g_autofree char *svg = tu_read(out, name);
    top += svg_has_color(svg, plot_heat(1.0));
  }
  cr_assert(top >= 1 && top < 3, "%d of 3 figures reach the top of a shared scale", top);
}

/* Cells of a study, named by their labels, run again and drawn on one
 * scale: identity loads cg-16's busiest torus link more than random, so
 * only identity's figure reaches the top colour; with --scale own both
 * do. A label not in the study is named. */
Test(report_cli, plot_draws_study_cells_on_one_scale, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *file = tu_data("studies/y_grid.ini");
  for (int own = 0; own < 2; own++) {
    char *err = NULL;
    const char *args[] = { "plot", "--study", file, "--cell", "cg-16,torus-4x4x4,identity",
                           "--cell", "cg-16,torus-4x4x4,random", "-o", dir,
                           own ? "--scale" : NULL, "own", NULL };
    cr_assert_eq(tu_run(NULL, &err, args), 0, "%s", err);
    g_free(err);
    g_autofree char *id = tu_read(dir, "cg-16_torus-4x4x4_identity-links.svg");
    g_autofree char *rnd = tu_read(dir, "cg-16_torus-4x4x4_random-links.svg");
    cr_assert(svg_has_color(id, plot_heat(1.0)));
    cr_assert(svg_has_color(rnd, plot_heat(1.0)) == (own == 1), "own %d", own);
  }
  char *err = NULL;
  const char *bad[] = { "plot", "--study", file, "--cell", "cg-16,torus-4x4x4,nope", "-o", dir,
                        NULL };
  cr_assert_eq(tu_run(NULL, &err, bad), 2);
  cr_assert_not_null(strstr(err, "no strategy nope in"), "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(err);
}
