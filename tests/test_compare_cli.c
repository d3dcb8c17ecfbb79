/* test_compare_cli.c - `mapsim compare`: the grid of platforms x
 * strategies, pre == post in every cell, the same table whatever the
 * thread count, and a failing cell reported without hiding the others. */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "testutil.h"

Test(compare_cli, grid_json_and_values)
{
  char *trace = tu_src("traces/data/stencil3d-64");
  char *out = NULL;
  const char *args[] = { "compare", "--json", "-t", trace, "-p", "torus:4x4x4", "-p", "mesh:4x4x4",
                         "-s", "identity", "-s", "random", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, out, -1, NULL), "%s", out);
  JsonObject *top = json_node_get_object(json_parser_get_root(jp));
  cr_assert_str_eq(json_object_get_string_member(top, "baseline"), "identity");
  JsonArray *cells = json_object_get_array_member(top, "cells");
  cr_assert_eq(json_array_get_length(cells), 4);
  for (guint i = 0; i < 4; i++) {
    JsonObject *c = json_array_get_object_element(cells, i);
    cr_assert_str_eq(json_object_get_string_member(c, "traffic"), "p2p+collectives");
    cr_assert(json_object_get_boolean_member(c, "pre_post_match"));
    JsonObject *pre = json_object_get_object_member(c, "pre");
    JsonObject *post = json_object_get_object_member(c, "post");
    cr_assert_eq(json_object_get_int_member(pre, "hop_bytes"),
                 json_object_get_int_member(post, "hop_bytes"));
  }
  /* cell 0: identity on the torus is the stencil's own shape: 1 hop per
   * message, 1152 messages of 4096 bytes */
  JsonObject *c0 = json_array_get_object_element(cells, 0);
  cr_assert_str_eq(json_object_get_string_member(c0, "platform"), "torus:4x4x4");
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(c0, "pre"), "hop_bytes"),
               1152 * 4096);
  /* mesh wrap edges cost 3 hops: (6 x 1 + 2 x 3) / 8 per ring -> 1.5 x */
  JsonObject *c2 = json_array_get_object_element(cells, 2);
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(c2, "pre"), "hop_bytes"),
               1152 * 4096 * 3 / 2);
  g_object_unref(jp);
  g_free(out);
  g_free(trace);
}

Test(compare_cli, same_table_whatever_the_threads)
{
  char *trace = tu_src("traces/data/cg-16");
  char *a = NULL, *b = NULL;
  const char *one[] = { "compare", "-t", trace, "-p", "torus:4x4", "-p", "haec:2x2x4", "-s", "identity",
                        "-s", "random", "-s", "greedy+wh", "--model", "flow", "-j", "1", NULL };
  const char *two[] = { "compare", "-t", trace, "-p", "torus:4x4", "-p", "haec:2x2x4", "-s", "identity",
                        "-s", "random", "-s", "greedy+wh", "--model", "flow", "-j", "3", NULL };
  cr_assert_eq(tu_run(&a, NULL, one), 0);
  cr_assert_eq(tu_run(&b, NULL, two), 0);
  cr_assert_str_eq(a, b);
  g_free(a);
  g_free(b);
  g_free(trace);
}

/* A cell that fails while it runs (a strategy that cannot use this input)
 * fails alone: the others are printed, its row says it failed and the
 * error is one line on stderr, not a column of the table. */
Test(compare_cli, failing_cell_exit_2)
{
  char *trace = tu_src("traces/data/cg-16");
  char *out = NULL, *err = NULL;
  const char *args[] = { "compare", "-t", trace, "-p", "torus:4x4x4", "-s", "identity", "-s",
                         "mxovlp", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 2);
  cr_assert_not_null(strstr(out, "1     identity"), "the good cell is still printed: %s", out);
  cr_assert_not_null(strstr(out, "mxovlp    failed (the error is on stderr)"), "%s", out);
  cr_assert_null(strstr(out, "no grid"), "%s", out);
  cr_assert_not_null(strstr(err, "torus:4x4x4 with mxovlp: mxovlp: no grid"), "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(out);
  g_free(err);
  g_free(trace);
}

/* Whatever can be checked before a cell runs is checked before any runs:
 * a mistyped strategy, model or --collectives, a platform that does not
 * load or cannot hold an input, an input that cannot be read (the second
 * of two). One line on stderr naming what and, for names, the nearest
 * valid one; nothing on stdout. */
Test(compare_cli, refused_before_anything_runs)
{
  char *cg = tu_src("traces/data/cg-16"), *st = tu_src("traces/data/stencil3d-64");
  struct { const char *args[14]; const char *expect; } cases[] = {
    { { "compare", "-t", cg, "-p", "torus:4x4x4", "-s", "identity", "-s", "greedy+whx", NULL },
      "mapsim: --strategy greedy+whx: unknown strategy 'whx', did you mean 'wh'?" },
    { { "compare", "-t", cg, "-p", "torus:4x4x4", "-s", "kl:tt=2", NULL },
      "--strategy kl:tt=2: kl: option 'tt=2', expected key=value with key one of: t, eps, "
      "passes, obj (did you mean 't'?)" },
    { { "compare", "-t", cg, "-p", "torus:4x4x4", "--model", "flwo", NULL },
      "--model flwo: unknown network model, did you mean 'flow'?" },
    { { "compare", "-t", cg, "-p", "torus:4x4x4", "--collectives", "bogus", NULL },
      "algorithm 'bogus' is unknown" },
    { { "compare", "-t", cg, "-p", "torus:4x4x4", "-p", "torus:4x4x4x", NULL },
      "platform 'torus:4x4x4x'" },
    { { "compare", "-t", cg, "-t", st, "-p", "torus:4x4x4", "-p", "torus:4x4", NULL },
      "stencil3d-64: torus:4x4: 64 ranks do not fit 16 allocated nodes" },
    { { "compare", "-t", cg, "-t", "no-such-trace", "-p", "torus:4x4x4", NULL },
      "no-such-trace: no such file" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_run(&out, &err, cases[i].args), 2, "case %zu: %s", i, err);
    cr_assert_str_empty(out, "case %zu printed before it failed: %s", i, out);
    cr_assert_not_null(strstr(err, cases[i].expect), "case %zu: %s", i, err);
    cr_assert_eq(tu_lines(err), 1, "case %zu: %s", i, err);
    g_free(out);
    g_free(err);
  }
  g_free(cg);
  g_free(st);
}

/* --csv and --json print the same numbers under the same names: every
 * CSV column of a cell equals the JSON member it is named after. */
Test(compare_cli, csv_equals_json)
{
  char *trace = tu_src("traces/data/cg-16");
  char *csv = NULL, *json = NULL;
  const char *a[] = { "compare", "--csv", "-t", trace, "-p", "torus:4x4", "-s", "identity",
                      "-s", "greedy", "-j", "1", NULL };
  const char *b[] = { "compare", "--json", "-t", trace, "-p", "torus:4x4", "-s", "identity",
                      "-s", "greedy", "-j", "1", NULL };
  cr_assert_eq(tu_run(&csv, NULL, a), 0);
  cr_assert_eq(tu_run(&json, NULL, b), 0);
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, json, -1, NULL), "%s", json);
  JsonObject *top = json_node_get_object(json_parser_get_root(jp));
  JsonArray *cells = json_object_get_array_member(top, "cells");
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  cr_assert_eq(g_strv_length(lines), 4, "header, 2 rows, empty tail: %s", csv);
  g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
  int checked = 0;
  for (guint i = 0; i < 2; i++) {
    g_auto(GStrv) row = g_strsplit(lines[i + 1], ",", -1);
    cr_assert_eq(g_strv_length(row), g_strv_length(head));
    JsonObject *c = json_array_get_object_element(cells, i);
    for (guint k = 0; head[k]; k++) {
      /* "pre_x", "post_x", "change_pct_x": member x of that object */
      const char *name = head[k];
      JsonObject *o = c;
      static const char *const groups[] = { "pre", "post", "change_pct" };
      for (size_t gi = 0; gi < G_N_ELEMENTS(groups); gi++) {
        size_t len = strlen(groups[gi]);
        if (strncmp(name, groups[gi], len) == 0 && name[len] == '_' &&
            json_object_has_member(c, groups[gi]) &&
            JSON_NODE_HOLDS_OBJECT(json_object_get_member(c, groups[gi]))) {
          o = json_object_get_object_member(c, groups[gi]);
          name += len + 1;
        }
      }
      if (!json_object_has_member(o, name) || strcmp(name, "map_s") == 0)
        continue; /* map_s is a run time */
      JsonNode *n = json_object_get_member(o, name);
      if (JSON_NODE_HOLDS_NULL(n)) {
        cr_assert_str_eq(row[k], "", "%s", head[k]);
      } else if (json_node_get_value_type(n) == G_TYPE_BOOLEAN) {
        cr_assert_str_eq(row[k], json_node_get_boolean(n) ? "true" : "false", "%s", head[k]);
      } else if (json_node_get_value_type(n) == G_TYPE_INT64) {
        cr_assert_eq(g_ascii_strtoll(row[k], NULL, 10), json_node_get_int(n), "%s", head[k]);
      } else if (json_node_get_value_type(n) == G_TYPE_STRING) {
        cr_assert_str_eq(row[k], json_node_get_string(n), "%s", head[k]);
      } else {
        double x = g_ascii_strtod(row[k], NULL), y = json_node_get_double(n);
        cr_assert(x == y || fabs(x - y) <= 1e-15 * fabs(y), "%s: %s vs %.17g", head[k], row[k], y);
      }
      checked++;
    }
  }
  cr_assert_geq(checked, 2 * 40, "columns compared: %d", checked);
  g_object_unref(jp);
  g_free(csv);
  g_free(json);
  g_free(trace);
}

/* A single-valued option given twice is an error naming it, on every
 * subcommand that takes it (the shared option table). */
Test(compare_cli, repeated_option_rejected)
{
  char *trace = tu_src("traces/data/cg-16");
  struct { const char *args[12]; const char *expect; } cases[] = {
    { { "simulate", "-p", "torus:4x4", "-p", "mesh:4x4", "-t", trace, NULL }, "--platform given twice" },
    { { "simulate", "-p", "torus:4x4", "-t", trace, "-t", trace, NULL }, "--trace given twice" },
    { { "compare", "-p", "torus:4x4", "-t", trace, "-b", "identity", "--baseline", "x", NULL },
      "--baseline given twice" },
    { { "gen", "--pattern", "ring", "-o", "x", "--pattern", "stencil2d", NULL }, "--pattern given twice" },
    { { "map", "-p", "torus:4x4", "-t", trace, "-s", "greedy", "-o", "a", "-o", "b", NULL }, "--output given twice" },
    { { "compare", "-p", "torus:4x4", "-t", trace, "--seed", "1", "--seed", "2", NULL }, "--seed given twice" },
    { { "map", "-p", "torus:4x4", "-t", trace, "-s", "greedy", "-s", "wh", NULL }, "--strategy given twice" },
    { { "metrics", "-p", "torus:4x4", "-t", trace, "--json", "--json", NULL }, "--json given twice" },
    { { "topo", "-p", "torus:4x4", "--cores", "2", "--cores", "3", NULL }, "--cores given twice" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_run(&out, &err, cases[i].args), 2, "case %zu: %s", i, err);
    cr_assert_not_null(strstr(err, cases[i].expect), "case %zu: %s", i, err);
    cr_assert_eq(tu_lines(err), 1, "case %zu: %s", i, err);
    g_free(out);
    g_free(err);
  }
  g_free(trace);
}

/* Several inputs (a trace and two matrices), each cell's change against the
 * baseline in percent (checked against the cells' own values), ranks in
 * the order of the ranking metric, and --baseline. */
Test(compare_cli, inputs_changes_and_ranks)
{
  char *trace = tu_src("traces/data/cg-16");
  char *cg = tu_data("maplib/cg.p2p.size.csv"), *cgc = tu_data("maplib/cg.p2p.count.csv");
  char *amg = tu_data("maplib/amg.p2p.size.csv"), *amgc = tu_data("maplib/amg.p2p.count.csv");
  const char *inputs[3] = { trace, cg, amg };
  for (int b = 0; b < 2; b++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "compare", "--json", "-t", trace, "-m", cg, "-c", cgc, "-m", amg, "-c",
                           amgc, "-p", "torus:4x4x4", "-s", "identity", "-s", "greedy+wh", "-s",
                           "random", b ? "--baseline" : NULL, "random", NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    JsonParser *jp = json_parser_new();
    cr_assert(json_parser_load_from_data(jp, out, -1, NULL), "%s", out);
    JsonObject *top = json_node_get_object(json_parser_get_root(jp));
    cr_assert_str_eq(json_object_get_string_member(top, "baseline"), b ? "random" : "identity");
    JsonArray *cells = json_object_get_array_member(top, "cells");
    cr_assert_eq(json_array_get_length(cells), 9, "3 inputs x 3 strategies");
    for (guint in = 0; in < 3; in++) {
      JsonObject *cell[3];
      for (guint i = 0; i < 3; i++) {
        cell[i] = json_array_get_object_element(cells, in * 3 + i);
        cr_assert_str_eq(json_object_get_string_member(cell[i], "input"), inputs[in]);
      }
      const char *metric = in == 0 ? "makespan_s" : "hop_bytes";
      double base = in == 0 ? json_object_get_double_member(cell[b ? 2 : 0], metric)
                            : (double)json_object_get_int_member(
                                  json_object_get_object_member(cell[b ? 2 : 0], "pre"), metric);
      int seen[4] = { 0 };
      for (guint i = 0; i < 3; i++) {
        double v = in == 0 ? json_object_get_double_member(cell[i], metric)
                           : (double)json_object_get_int_member(
                                 json_object_get_object_member(cell[i], "pre"), metric);
        double pct = json_object_get_double_member(
            json_object_get_object_member(cell[i], "change_pct"), in == 0 ? "makespan_s" : "hop_bytes");
        cr_assert_float_eq(pct, 100 * (v - base) / base, 1e-9, "input %u cell %u", in, i);
        int rank = (int)json_object_get_int_member(cell[i], "rank");
        cr_assert(rank >= 1 && rank <= 3, "input %u: rank %d", in, rank);
        seen[rank]++;
        /* rank 1 has the least of the ranking metric; a shared rank is a
         * tie of equal values */
        for (guint j = 0; j < 3; j++) {
          double w = in == 0 ? json_object_get_double_member(cell[j], metric)
                             : (double)json_object_get_int_member(
                                   json_object_get_object_member(cell[j], "pre"), metric);
          int other = (int)json_object_get_int_member(cell[j], "rank");
          if (rank < other)
            cr_assert_lt(v, w, "input %u", in);
          if (rank == other)
            cr_assert_float_eq(v, w, 1e-9 * fabs(v), "input %u: tied at %d", in, rank);
        }
      }
    }
    g_object_unref(jp);
    g_free(out);
    g_free(err);
  }
  /* CG from the paper: greedy+wh cuts identity's hop-bytes by 34.8 %
   * (86555103744 vs 132795604992, README) */
  char *out = NULL;
  const char *args[] = { "compare", "-m", cg, "-c", cgc, "-p", "torus:4x4x4", "-s", "identity",
                         "-s", "greedy+wh", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert_not_null(strstr(out, "86555103744 (-34.8%)"), "%s", out);
  g_free(out);
  g_free(trace);
  g_free(cg);
  g_free(cgc);
  g_free(amg);
  g_free(amgc);
}

/* A constructed tie: on a full 3x2 mesh sweep places the pair where
 * identity does (10 hop-bytes each), random 2 hops apart (20): identity
 * and sweep share rank 1 in the table ("=1") and in the CSV rank column,
 * random is 3rd, and an equal value changes by "0%", never "+0.0%". */
Test(compare_cli, equal_results_are_ties)
{
  char *pair = tu_data("y_pair.csv");
  char *out = NULL;
  const char *args[] = { "compare", "-m", pair, "-p", "mesh:3x2", "-s", "identity", "-s", "sweep",
                         "-s", "random", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert(g_regex_match_simple("^=1 +identity +2 x 1 +10 ", out, G_REGEX_MULTILINE, 0), "%s",
            out);
  cr_assert(g_regex_match_simple("^=1 +sweep +2 x 1 +10 \\(0%\\)", out, G_REGEX_MULTILINE, 0),
            "%s", out);
  cr_assert(g_regex_match_simple("^3 +random +2 x 1 +20 \\(\\+100.0%\\)", out, G_REGEX_MULTILINE,
                                 0), "%s", out);
  cr_assert_null(strstr(out, "+0.0%"), "%s", out);
  cr_assert_null(strstr(out, "-0.0%"), "%s", out);
  g_free(out);
  const char *csv[] = { "compare", "--csv", "-m", pair, "-p", "mesh:3x2", "-s", "identity", "-s",
                        "sweep", "-s", "random", NULL };
  cr_assert_eq(tu_run(&out, NULL, csv), 0);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
  int rank = -1;
  for (int i = 0; head[i]; i++)
    if (strcmp(head[i], "rank") == 0)
      rank = i;
  cr_assert_geq(rank, 0, "%s", lines[0]);
  const char *want[] = { "1", "1", "3" };
  for (int l = 0; l < 3; l++) {
    g_auto(GStrv) cells = g_strsplit(lines[l + 1], ",", -1);
    cr_assert_str_eq(cells[rank], want[l], "line %d: %s", l + 1, lines[l + 1]);
  }
  g_free(out);
  g_free(pair);
}

/* Hilbert beats identity on the ring by 0.037% of the makespan (163.89
 * against 163.95 ns): the change shows its digits, not "-0.0%". */
Test(compare_cli, small_changes_keep_their_sign_and_digits, .timeout = 60)
{
  char *ring = tu_src("traces/data/ring-8");
  char *out = NULL;
  const char *args[] = { "compare", "-t", ring, "-p", "mesh:4x4x4", "-s", "identity", "-s",
                         "hilbert", "--compute-scale", "0", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert_not_null(strstr(out, "1.6389e-07 (-0.037%)"), "%s", out);
  cr_assert_null(strstr(out, "-0.0%"), "%s", out);
  g_free(out);
  g_free(ring);
}

/* Significant digits of a number's text ("0.00301" and "3.01e-03": 3). */
static int sig_digits(const char *t)
{
  int n = 0, lead = 1, zeros = 0;
  for (; *t && *t != 'e' && *t != 'E'; t++) {
    if (!g_ascii_isdigit(*t))
      continue;
    if (lead && *t == '0')
      continue;
    lead = 0;
    zeros = *t == '0' ? zeros + 1 : 0;
    n++;
  }
  return n - zeros;
}

/* The fewest significant digits that read back as v. */
static int shortest_digits(double v)
{
  char buf[64];
  for (int p = 1; p < 17; p++) {
    g_snprintf(buf, sizeof buf, "%.*g", p, v);
    if (g_ascii_strtod(buf, NULL) == v)
      return p;
  }
  return 17;
}

static void assert_shortest(const char *text, const char *where)
{
  double v = g_ascii_strtod(text, NULL);
  cr_assert_leq(sig_digits(text), shortest_digits(v), "%s: %s has more digits than %.17g needs",
                where, text, v);
}

/* No float noise: every fractional number of --csv and --json has no more
 * digits than the shortest text that reads back as the same double
 * (6.9999999999999999e-06 was printed for 7e-06). */
Test(compare_cli, numbers_in_shortest_form)
{
  char *trace = tu_src("traces/data/cg-16");
  char *csv = NULL, *json = NULL;
  const char *a1[] = { "compare", "-t", trace, "-p", "torus:4x4x4", "-s", "identity", "-s",
                       "random", "--csv", NULL };
  const char *a2[] = { "compare", "-t", trace, "-p", "torus:4x4x4", "-s", "identity", "-s",
                       "random", "--json", NULL };
  cr_assert_eq(tu_run(&csv, NULL, a1), 0);
  cr_assert_eq(tu_run(&json, NULL, a2), 0);
  int checked = 0;
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  for (int l = 1; lines[l] && *lines[l]; l++) {
    g_auto(GStrv) cells = g_strsplit(lines[l], ",", -1);
    for (int k = 0; cells[k]; k++) {
      char *end = NULL;
      g_ascii_strtod(cells[k], &end);
      if (*cells[k] && !*end && strpbrk(cells[k], ".eE")) {
        assert_shortest(cells[k], "csv");
        checked++;
      }
    }
  }
  GRegex *num = g_regex_new(" : (-?[0-9][0-9.eE+-]*)[,\n]", 0, 0, NULL);
  GMatchInfo *m = NULL;
  for (g_regex_match(num, json, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
    g_autofree char *t = g_match_info_fetch(m, 1);
    if (strpbrk(t, ".eE")) {
      assert_shortest(t, "json");
      checked++;
    }
  }
  g_match_info_free(m);
  g_regex_unref(num);
  cr_assert_geq(checked, 40, "only %d numbers checked", checked);
  g_free(csv);
  g_free(json);
  g_free(trace);
}

/* The legend under each table names the metric that table is ranked by:
 * a trace's table by the simulated makespan only, a matrix's by
 * hop_bytes (the hop_bytes legend was printed under a trace's too). */
Test(compare_cli, legend_names_the_ranking_metric, .timeout = 60)
{
  g_autofree char *trace = tu_src("traces/data/cg-16");
  g_autofree char *cg = tu_data("maplib/cg.p2p.size.csv");
  const char *const inputs[][2] = { { "-t", trace }, { "-m", cg } };
  for (size_t i = 0; i < G_N_ELEMENTS(inputs); i++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "compare", inputs[i][0], inputs[i][1], "-p", "torus:4x4x4", "-s",
                           "identity", "-s", "greedy", NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    cr_assert_eq(tu_count(out, "Ranked by simulated makespan"), i == 0, "%s", out);
    cr_assert_eq(tu_count(out, "Ranked by hop_bytes"), i == 1, "%s", out);
    g_free(out);
    g_free(err);
  }
}
