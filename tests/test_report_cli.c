/* test_report_cli.c - the study report and `mapsim plot`: the report's
 * correlations equal Spearman and Pearson computed here from results.csv
 * by the textbook formulas, the report is the same bytes for any -j and
 * stands alone (no network, no script), every figure it names exists as a
 * PNG and an SVG, and `plot` draws a run from its JSON. */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

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
  const char *plats[] = { "torus:4x4", "mesh:4x4" };
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
  cr_assert(strstr(html, " the ranking best on torus:4x4 (ρ = ") ||
            strstr(html, "predicts the ranking well on torus:4x4"), "no verdict for torus:4x4");
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
  cr_assert_not_null(strstr(err, "is not a link of"), "%s", err);
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
  cr_assert_not_null(strstr(err, "no \"links\" array"), "%s", err);
  g_free(err);
}
