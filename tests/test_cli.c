/* test_cli.c - the `mapsim` command end to end: topo, route, metrics (human
 * and JSON), --help on every subcommand, and bad input: one line on stderr,
 * exit status 2, no output file. */
#include <json-glib/json-glib.h>
#include <string.h>

#include "testutil.h"

static JsonObject *parse_json(const char *text, JsonParser **parser)
{
  *parser = json_parser_new();
  GError *e = NULL;
  cr_assert(json_parser_load_from_data(*parser, text, -1, &e), "%s\n%s", e ? e->message : "",
            text);
  return json_node_get_object(json_parser_get_root(*parser));
}

Test(cli, topo_json_facts)
{
  char *out = NULL;
  const char *args[] = { "topo", "--platform", "torus:4x4x4", "--json", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  cr_assert_eq(json_object_get_int_member(o, "nodes"), 64);
  cr_assert_eq(json_object_get_int_member(o, "links"), 384);
  cr_assert_eq(json_object_get_int_member(o, "diameter"), 6);
  cr_assert_eq(json_object_get_int_member(o, "bisection_links"), 64);
  g_object_unref(jp);
  g_free(out);
}

Test(cli, route_haec)
{
  char *out = NULL;
  const char *args[] = { "route", "--platform", "haec:4x4x4", "--json", "0", "3,3,3", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  cr_assert_eq(json_object_get_int_member(o, "hops"), 3);
  cr_assert_float_eq(json_object_get_double_member(o, "latency_s"), 300e-12, 1e-18);
  JsonArray *links = json_object_get_array_member(o, "links");
  JsonObject *first = json_array_get_object_element(links, 0);
  cr_assert_eq(json_object_get_int_member(first, "to"), 3 + 12 + 16);
  cr_assert_str_eq(json_object_get_string_member(first, "type"), "wireless");
  /* the HAEC first hop: to the next layer at the destination's x, y */
  cr_assert_str_eq(json_object_get_string_member(first, "direction"), "z+");
  JsonArray *to = json_object_get_array_member(first, "to_coords");
  cr_assert_eq(json_array_get_length(to), 3);
  cr_assert_eq(json_array_get_int_element(to, 0), 3);
  cr_assert_eq(json_array_get_int_element(to, 1), 3);
  cr_assert_eq(json_array_get_int_element(to, 2), 1);
  cr_assert_eq(json_array_get_int_element(json_object_get_array_member(o, "dst_coords"), 2), 3);
  g_object_unref(jp);
  g_free(out);
}

Test(cli, metrics_json_keys_and_values)
{
  char *size = tu_data("maplib/cg.p2p.size.csv");
  char *count = tu_data("maplib/cg.p2p.count.csv");
  char *out = NULL;
  const char *args[] = { "metrics", "--platform", "torus:4x4x4", "--matrix", size, "--counts",
                         count, "--json", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  const char *keys[] = { "tasks", "nodes_used", "ranks_per_node", "edges", "total_hops",
                         "avg_hops", "max_dilation", "hop_bytes", "message_hops", "hop_time",
                         "max_link_edges", "max_link_bytes", "max_link_time", "avg_link_edges",
                         "avg_link_time", "links_used" };
  for (size_t i = 0; i < G_N_ELEMENTS(keys); i++)
    cr_assert(json_object_has_member(o, keys[i]), "missing %s", keys[i]);
  /* a static view counts graph edges per link, never "messages" */
  cr_assert_not(json_object_has_member(o, "max_link_messages"));
  cr_assert_not(json_object_has_member(o, "avg_link_messages"));
  cr_assert_eq(json_object_get_int_member(o, "nodes_used"), 64);
  cr_assert_eq(json_object_get_int_member(o, "ranks_per_node"), 1);
  /* hop_time = sum over links of bytes / bandwidth: every link of the
   * shorthand torus has 31.25e9 bytes/s, so it is hop_bytes / 31.25e9 */
  cr_assert_float_eq(json_object_get_double_member(o, "hop_time"), 132795604992 / 31.25e9,
                     1e-9);
  cr_assert_eq(json_object_get_int_member(o, "tasks"), 64);
  /* CG's identity placement on the 4x4x4 torus, checked against gmtst's
   * CommExpan in test_metrics for the same definition */
  cr_assert_eq(json_object_get_int_member(o, "hop_bytes"), 132795604992);
  g_object_unref(jp);
  g_free(out);
  g_free(size);
  g_free(count);
}

/* What `metrics` prints (as JSON with `json`) for a pair exchanging 5
 * bytes each way (y_pair.csv) on nodes 0 and 42 of the 4x4x4 torus,
 * (0,0,0) and (2,2,2): 6 hops. Caller frees. */
static char *far_pair_metrics(gboolean json)
{
  g_autofree char *pair = tu_data("y_pair.csv");
  g_autofree char *map = tu_write_tmp("far.map", "0 0\n1 42\n");
  char *out = NULL;
  const char *args[] = { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", map,
                         json ? "--json" : NULL, NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  return out;
}

/* The keys of one "links" entry, in order, joined by commas. */
static char *link_keys(JsonObject *o, guint i)
{
  JsonObject *e = json_array_get_object_element(json_object_get_array_member(o, "links"), i);
  GList *names = json_object_get_members(e);
  GString *s = g_string_new(NULL);
  for (GList *k = names; k; k = k->next)
    g_string_append_printf(s, "%s%s", s->len ? "," : "", (const char *)k->data);
  g_list_free(names);
  return g_string_free(s, FALSE);
}

/* Per-link outputs read one table (sim/link-fields.h): a quantity has one
 * name in every output - "bytes", "busy_s" - and its text head comes from
 * that name ("time_s": "time (s)"; a static view counts graph edges, so
 * its column is "edges" as in JSON). A pair exchanging 5 bytes each way 6
 * hops apart on the 4x4x4 torus: 12 links, each 1 edge, 5 bytes, 5 /
 * 31.25e9 s. */
Test(cli, per_link_outputs_from_one_table, .timeout = 60)
{
  char *out = far_pair_metrics(TRUE);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  JsonArray *links = json_object_get_array_member(o, "links");
  cr_assert_eq(json_array_get_length(links), 12);
  for (guint i = 0; i < 12; i++) {
    JsonObject *e = json_array_get_object_element(links, i);
    g_autofree char *keys = link_keys(o, i);
    cr_assert_str_eq(keys, "link,from,to,direction,type,edges,bytes,time_s");
    cr_assert_eq(json_object_get_int_member(e, "edges"), 1);
    cr_assert_eq(json_object_get_int_member(e, "bytes"), 5);
    cr_assert_float_eq(json_object_get_double_member(e, "time_s"), 5 / 31.25e9, 1e-22);
  }
  g_object_unref(jp);
  g_free(out);
  /* the text table: heads from the names, right-aligned over their values */
  out = far_pair_metrics(FALSE);
  const char *head = strstr(out, "\nhottest links");
  cr_assert_not_null(head, "%s", out);
  g_auto(GStrv) lines = g_strsplit(head + 1, "\n", 3);
  cr_assert_str_eq(lines[0], "hottest links                                     edges           "
                             "bytes       time (s)");
  cr_assert(g_str_has_suffix(lines[1], "         1               5        1.6e-10"), "%s",
            lines[1]);
  cr_assert_eq(strlen(lines[0]), strlen(lines[1]));
  g_free(out);
  /* a replay's links and several jobs' links: the same names for the
   * same quantities */
  g_autofree char *ring = tu_src("traces/data/ring-8");
  const char *sim[] = { "simulate", "-p", "torus:2x2x2", "-t", ring, "--model", "flow",
                        "--json", "-q", NULL };
  cr_assert_eq(tu_run(&out, NULL, sim), 0);
  o = parse_json(out, &jp);
  g_autofree char *replay = link_keys(o, 0);
  cr_assert_str_eq(replay, "link,from,to,p2p_bytes,p2p_messages,collective_bytes,busy_s,"
                           "max_load,avg_load,saturated_s");
  g_object_unref(jp);
  g_free(out);
  g_autofree char *jobs = tu_data("jobs/halves.ini");
  const char *mix[] = { "simulate", "-p", "mesh:8x4x4", "--jobs", jobs, "--json", "-q", NULL };
  cr_assert_eq(tu_run(&out, NULL, mix), 0);
  o = parse_json(out, &jp);
  g_autofree char *mixed = link_keys(o, 0);
  cr_assert_str_eq(mixed, "link,from,to,bytes,busy_s,job_bytes");
  g_object_unref(jp);
  g_free(out);
}

Test(cli, metrics_with_mapping_file)
{
  char *out = far_pair_metrics(TRUE);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  cr_assert_eq(json_object_get_int_member(o, "total_hops"), 12);
  cr_assert_eq(json_object_get_int_member(o, "hop_bytes"), 60);
  cr_assert_eq(json_object_get_int_member(o, "max_dilation"), 6);
  g_object_unref(jp);
  g_free(out);
}

/* Every subcommand `mapsim --help` lists has --help with an example. */
Test(cli, help_everywhere)
{
  char *list = NULL;
  const char *args[] = { "--help", NULL };
  cr_assert_eq(tu_run(&list, NULL, args), 0);
  const char *sub = strstr(list, "Subcommands:\n");
  cr_assert_not_null(sub);
  char **lines = g_strsplit(sub, "\n", -1);
  int seen = 0;
  for (int i = 1; lines[i] && g_str_has_prefix(lines[i], "  "); i++) {
    char **words = g_strsplit(g_strstrip(lines[i]), " ", 2);
    char *out = NULL;
    const char *help[] = { words[0], "--help", NULL };
    cr_assert_eq(tu_run(&out, NULL, help), 0, "%s --help", words[0]);
    cr_assert_not_null(strstr(out, "Example"), "%s --help has no example", words[0]);
    g_free(out);
    g_strfreev(words);
    seen++;
  }
  cr_assert_geq(seen, 10, "only %d subcommands listed", seen);
  g_strfreev(lines);
  g_free(list);
}

/* The help of one subcommand (or verb, "trace matrix") as `mapsim help`
 * prints it and as --help prints it: the same text, exit 0. */
static char *help_of(const char *cmd, const char *verb)
{
  char *a = NULL, *b = NULL;
  const char *by_help[] = { "help", cmd, verb, NULL };
  const char *by_flag[] = { cmd, verb ? verb : "--help", verb ? "--help" : NULL, NULL };
  cr_assert_eq(tu_run(&a, NULL, by_help), 0, "mapsim help %s %s", cmd, verb ? verb : "");
  cr_assert_eq(tu_run(&b, NULL, by_flag), 0, "mapsim %s %s --help", cmd, verb ? verb : "");
  cr_assert_str_eq(a, b, "mapsim help %s %s differs from --help", cmd, verb ? verb : "");
  g_free(b);
  return a;
}

/* Every help: reached by `mapsim help X`, usage written [OPTION...] as the
 * general usage writes it (GLib's own would be [OPTION?] in the C
 * locale), no pointer into the source (a user has no headers). */
Test(cli, help_consistent)
{
  char *list = NULL;
  const char *args[] = { "--help", NULL };
  cr_assert_eq(tu_run(&list, NULL, args), 0);
  cr_assert_not_null(strstr(list, "Usage: mapsim SUBCOMMAND [OPTION...]"), "%s", list);
  cr_assert_not_null(strstr(list, "mapsim help SUBCOMMAND"), "%s", list);
  /* compare takes several inputs: its summary says so */
  cr_assert_not_null(strstr(list, "  compare      traces or matrices (repeatable)"), "%s", list);
  char **lines = g_strsplit(strstr(list, "Subcommands:\n"), "\n", -1);
  GRegex *source = g_regex_new("[a-z_-]+\\.[ch]\\b", 0, 0, NULL);
  int seen = 0;
  for (int i = 1; lines[i] && g_str_has_prefix(lines[i], "  "); i++) {
    g_auto(GStrv) words = g_strsplit(g_strstrip(lines[i]), " ", 2);
    const char *verbs[] = { NULL, NULL, NULL };
    if (strcmp(words[0], "trace") == 0)
      verbs[0] = "info", verbs[1] = "matrix";
    if (strcmp(words[0], "export") == 0)
      verbs[0] = "simgrid", verbs[1] = "mapping";
    for (int v = -1; v < 0 || verbs[v]; v++) {
      char *text = help_of(words[0], v < 0 ? NULL : verbs[v]);
      g_autofree char *usage = g_strdup_printf("  mapsim %s%s%s [OPTION...]", words[0],
                                               v < 0 ? "" : " ", v < 0 ? "" : verbs[v]);
      cr_assert(strstr(text, usage) || (v < 0 && verbs[0]), "%s: no '%s' in\n%s", words[0],
                usage, text);
      cr_assert_null(strstr(text, "[OPTION?]"), "%s", text);
      GMatchInfo *m = NULL;
      cr_assert_not(g_regex_match(source, text, 0, &m), "mapsim %s %s --help points to the "
                    "source: '%s'", words[0], v < 0 ? "" : verbs[v], g_match_info_fetch(m, 0));
      g_match_info_free(m);
      g_free(text);
      seen++;
    }
  }
  cr_assert_geq(seen, 16, "only %d helps", seen);
  g_regex_unref(source);
  g_strfreev(lines);
  g_free(list);
}

/* Options are listed where they do something: plot draws a run's links
 * from its JSON, so the allocation, cores, fill, tie rule and preset of a
 * replay are not its options; --set says the units of its values. */
Test(cli, help_lists_what_applies)
{
  char *plot = help_of("plot", NULL);
  const char *absent[] = { "--alloc", "--cores", "--fill", "--tie", "--preset" };
  for (size_t i = 0; i < G_N_ELEMENTS(absent); i++)
    cr_assert_null(strstr(plot, absent[i]), "plot --help lists %s:\n%s", absent[i], plot);
  cr_assert_not_null(strstr(plot, "--platform"), "%s", plot);
  cr_assert_not_null(strstr(plot, "--set"), "%s", plot);
  const char *refused[] = { "plot", "x.json", "--tie", "simgrid", NULL };
  char *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, refused), 2);
  cr_assert_not_null(strstr(err, "Unknown option --tie"), "%s", err);
  g_free(err);
  char *compare = help_of("compare", NULL);
  cr_assert_not_null(strstr(compare, "--tie"), "%s", compare);
  cr_assert_not_null(strstr(compare, "(bandwidth bytes/s, latency and overheads s, sizes bytes)"),
                     "--set without units:\n%s", compare);
  g_free(compare);
  g_free(plot);
}

/* Without -o, trace matrix prints the matrix: the same text as its file. */
Test(cli, trace_matrix_to_stdout)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  char *dir = tu_tmp_dir();
  g_autofree char *csv = g_build_filename(dir, "m.csv", NULL);
  const char *to_file[] = { "trace", "matrix", ring, "--kind", "count", "-o", csv, NULL };
  const char *to_out[] = { "trace", "matrix", ring, "--kind", "count", NULL };
  char *out = NULL;
  cr_assert_eq(tu_run(NULL, NULL, to_file), 0);
  cr_assert_eq(tu_run(&out, NULL, to_out), 0);
  g_autofree char *text = tu_read(dir, "m.csv");
  cr_assert_str_eq(out, text);
  /* the ring: rank r sends to r+1 mod 8 only */
  cr_assert(g_str_has_prefix(out, "0,5,0,0,0,0,0,0\n0,0,5,0,0,0,0,0\n"), "%s", out);
  g_free(out);
  tu_rm_rf(dir);
  g_free(dir);
}

/* Bad input: exit 2, exactly one line on stderr naming what is wrong. */
Test(cli, bad_input_one_line_exit_2)
{
  char *pair = tu_data("y_pair.csv");
  char *ragged = tu_data("n_ragged.csv");
  char *bw = tu_data("n_zero_bandwidth.ini");
  char *two = tu_data("n_map_two_on_one.map");
  char *range = tu_data("n_map_node_range.map");
  char *rank = tu_data("n_map_rank_range.map");
  char *twice = tu_data("n_map_rank_twice.map");
  char *missing = tu_data("n_map_missing_rank.map");
  char *text = tu_data("n_map_text.map");
  char *cg = tu_data("maplib/cg.p2p.size.csv");
  struct { const char *args[12]; const char *expect; } cases[] = {
    { { "metrics", "-p", "torus:4x4x4", "-m", "/nonexistent.csv", NULL }, "/nonexistent.csv: no such file or folder, expected a communication matrix" },
    { { "metrics", "-p", "torus:4x4x4", "-m", ragged, NULL }, ":2: row has 2 values, expected 3" },
    { { "metrics", "-p", bw, "-m", pair, NULL }, "bandwidth 0, expected a positive" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", two, NULL }, ":2: node 0 gets 2 ranks, expected at most 1" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", range, NULL }, ":2: node 99 out of range" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", rank, NULL }, ":2: rank 7 out of range" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", twice, NULL }, ":2: rank 0 mapped again" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", missing, NULL }, "rank 1 is not mapped" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--mapping", text, NULL }, ":1: expected 'rank node'" },
    { { "metrics", "-p", "torus:2x2x2", "-m", cg, NULL }, "64 ranks do not fit 8 allocated nodes" },
    { { "metrics", "-p", "torus:4x4x4", "-m", pair, "--alloc", "random:1", NULL }, "2 ranks do not fit 1 allocated node x 1 core, expected at most 1 rank " },
    { { "metrics", "-m", pair, NULL }, "--platform: missing" },
    { { "metrics", "-p", "torus:4x4x4", NULL }, "expected exactly one of --matrix M or --trace T" },
    { { "route", "-p", "torus:4x4x4", "0", "64", NULL }, "node '64': expected an id in [0, 64)" },
    { { "topo", "-p", "torus:4x-1", NULL }, "size '-1' of dimension y" },
    { { "topo", "--bogus", NULL }, "Unknown option --bogus" },
    { { "nosuch", NULL }, "unknown subcommand 'nosuch'" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *out = NULL, *err = NULL;
    int status = tu_run(&out, &err, cases[i].args);
    cr_assert_eq(status, 2, "case %zu (%s): status %d, stderr %s", i, cases[i].expect, status, err);
    cr_assert_eq(tu_lines(err), 1, "case %zu: not one line: %s", i, err);
    cr_assert_not_null(strstr(err, cases[i].expect), "case %zu: %s", i, err);
    cr_assert_str_eq(out, "", "case %zu printed on stdout: %s", i, out);
    g_free(out);
    g_free(err);
  }
  g_free(pair);
  g_free(ragged);
  g_free(bw);
  g_free(two);
  g_free(range);
  g_free(rank);
  g_free(twice);
  g_free(missing);
  g_free(text);
  g_free(cg);
}

/* export: --mapping with --strategy is refused by both exporters with the
 * check run_cell makes, before any input is read (no trace, no graph given
 * to export mapping); a missing --format names the formats. */
Test(cli, export_option_conflicts)
{
  char *dir = tu_tmp_dir();
  g_autofree char *map = g_build_filename(dir, "m.map", NULL);
  g_autofree char *outdir = g_build_filename(dir, "sg", NULL);
  g_autofree char *out = g_build_filename(dir, "hosts", NULL);
  cr_assert(g_file_set_contents(map, "0 0\n1 1\n", -1, NULL));
  g_autofree char *ring8 = tu_src("traces/data/ring-8");
  struct { const char *args[16]; const char *expect; } cases[] = {
    { { "export", "mapping", "-p", "torus:4x4x4", "-M", map, "-s", "greedy", "--format",
        "hostfile", "-o", out, NULL },
      "mapsim: --mapping and --strategy exclude each other; expected one of them\n" },
    { { "export", "simgrid", "-p", "torus:4x4x4", "-t", ring8, "-M", map, "-s", "greedy", "-o",
        outdir, NULL },
      "mapsim: --mapping and --strategy exclude each other; expected one of them\n" },
    { { "export", "mapping", "-p", "torus:4x4x4", "-M", map, "-o", out, NULL },
      "mapsim: export mapping: --format missing, expected one of openmpi-rankfile, "
      "mpich-rank-order, slurm-hostfile, hostfile\n" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *o = NULL, *err = NULL;
    cr_assert_eq(tu_run(&o, &err, cases[i].args), 2, "case %zu: %s", i, err);
    cr_assert_str_eq(err, cases[i].expect, "case %zu", i);
    cr_assert_str_eq(o, "", "case %zu", i);
    cr_assert_not(g_file_test(out, G_FILE_TEST_EXISTS) || g_file_test(outdir, G_FILE_TEST_EXISTS),
                  "case %zu wrote output", i);
    g_free(o);
    g_free(err);
  }
  /* the mapping file alone, and the same mapping taken from the run of it
   * on a trace: one host per rank */
  const char *alone[] = { "export", "mapping", "-p", "torus:4x4x4", "-M", map, "--format",
                          "hostfile", NULL };
  char *o = NULL, *err = NULL;
  cr_assert_eq(tu_run(&o, &err, alone), 0, "%s", err);
  cr_assert_str_eq(o, "node-0\nnode-1\n");
  g_free(o);
  g_free(err);
  const char *ranks8[] = { "export", "mapping", "-p", "torus:4x4x4", "-t", ring8, "--format",
                           "hostfile", NULL };
  cr_assert_eq(tu_run(&o, &err, ranks8), 0, "%s", err);
  cr_assert_str_eq(o, "node-0\nnode-1\nnode-2\nnode-3\nnode-4\nnode-5\nnode-6\nnode-7\n");
  g_free(o);
  g_free(err);
  tu_rm_rf(dir);
  g_free(dir);
}

/* route on a Slurm topology names nodes and switches by their Slurm
 * names (and takes them as arguments), gives the latency in ns, and under
 * an adaptive routing says the path is its minimal candidate. */
Test(cli, route_in_ns_with_names_and_the_adaptive_note)
{
  g_autofree char *tree = tu_data("slurm/tree.conf");
  char *out = NULL, *err = NULL;
  const char *named[] = { "route", "-p", tree, "nid001", "nid005", NULL };
  cr_assert_eq(tu_run(&out, &err, named), 0, "%s", err);
  cr_assert(strstr(out, "route 0 (nid001) -> 4 (nid005) on "), "%s", out);
  cr_assert(strstr(out, "   1  link 0      0 (nid001) -> 13 (leaf0)  node up, node\n"), "%s", out);
  cr_assert(strstr(out, "13 (leaf0) -> 12 (spine0)"), "%s", out);
  cr_assert(strstr(out, "4 hops, latency 400 ns, bottleneck"), "%s", out);
  cr_assert_null(strstr(out, "adaptive"), "%s", out);
  g_free(out);
  g_free(err);
  const char *torus[] = { "route", "-p", "torus:4x4x4", "0", "21", NULL };
  cr_assert_eq(tu_run(&out, NULL, torus), 0);
  cr_assert(strstr(out, "3 hops, latency 0.03 ns, bottleneck 250.00 Gbit/s\n"), "%s", out);
  g_free(out);
  const char *ugal[] = { "route", "-p", "dragonfly:g=4:a=2:p=2:h=2:routing=ugal", "0", "9", NULL };
  cr_assert_eq(tu_run(&out, &err, ugal), 0, "%s", err);
  cr_assert(strstr(out, "adaptive: this is the minimal candidate; ugal chooses per message"),
            "%s", out);
  /* the dragonfly's unused global ports: topo says so, route does not */
  cr_assert_null(strstr(err, "global ports"), "%s", err);
  g_free(out);
  g_free(err);
  const char *facts[] = { "topo", "-p", "dragonfly:g=4:a=2:p=2:h=2", NULL };
  cr_assert_eq(tu_run(&out, &err, facts), 0);
  cr_assert_eq(tu_count(out, "1 of the 4 global ports of each group unused"), 1, "%s", out);
  cr_assert_null(strstr(err, "global ports"), "%s", err);
  g_free(out);
  g_free(err);
}

/* Every option error is one line "mapsim: SUBCOMMAND: ...", a mistyped
 * subcommand or long option with the nearest name. */
Test(cli, option_errors_in_one_format_with_did_you_mean)
{
  struct { const char *args[6]; const char *expect; } cases[] = {
    { { "simlate", NULL }, "mapsim: unknown subcommand 'simlate', did you mean 'simulate'?" },
    { { "topo", "--platfrom", "torus:4x4", NULL },
      "mapsim: topo: Unknown option --platfrom, did you mean --platform? (see mapsim topo --help)" },
    { { "topo", "-p", NULL }, "mapsim: topo: Missing argument for -p" },
    { { "route", "-p", "torus:4x4", "0", NULL }, "mapsim: route: expected two nodes SRC DST" },
    { { "strategies", "extra", NULL }, "mapsim: strategies: unexpected argument 'extra'" },
    { { "map", "-p", "torus:4x4", "extra", NULL }, "mapsim: map: unexpected argument 'extra'" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *err = NULL;
    cr_assert_eq(tu_run(NULL, &err, cases[i].args), 2, "case %zu: %s", i, err);
    cr_assert(g_str_has_prefix(err, cases[i].expect), "case %zu: %s", i, err);
    cr_assert_eq(tu_lines(err), 1, "case %zu: %s", i, err);
    g_free(err);
  }
}

/* Issue 35 item 4: JSON has no infinity; json-glib printed "inf.0". An
 * optical bandwidth of 1e308 makes the bisection bandwidth (64 links x
 * 1e308) infinite: it is null, and the whole output parses. */
Test(cli, topo_json_infinite_number_is_null)
{
  char *out = NULL;
  const char *args[] = { "topo", "--platform", "torus:4x4x4:bw=1e308", "--json", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert_null(strstr(out, "inf"), "%s", out);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  cr_assert(json_object_has_member(o, "bisection_bw"));
  cr_assert(json_node_is_null(json_object_get_member(o, "bisection_bw")), "%s", out);
  cr_assert_eq(json_object_get_int_member(o, "bisection_links"), 64);
  g_object_unref(jp);
  g_free(out);
}

/* The same for simulate --json's energy_by_type: 1e308 W per link over
 * the ring's run of about 3 s (compute scaled by 1000) overflows. */
Test(cli, simulate_json_infinite_energy_is_null)
{
  g_autofree char *trace = tu_src("traces/data/ring-8");
  char *out = NULL;
  const char *args[] = { "simulate", "-p", "torus:4x4", "-t", trace, "--compute-scale", "1000",
                         "--set", "linktype.optical.power-idle=1e308", "--set",
                         "linktype.optical.power-busy=1e308", "--json", "-q", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  JsonParser *jp;
  JsonObject *o = parse_json(out, &jp);
  JsonObject *optical =
    json_array_get_object_element(json_object_get_array_member(o, "energy_by_type"), 0);
  cr_assert(json_node_is_null(json_object_get_member(optical, "energy_j")), "%s", out);
  cr_assert(json_node_is_null(json_object_get_member(optical, "energy_idle_j")), "%s", out);
  cr_assert_float_eq(json_object_get_double_member(optical, "energy_traffic_j"), 0.0, 1e-300);
  g_object_unref(jp);
  g_free(out);
}

/* One writer of JSON numbers (util/json-number.h): no source file but it
 * hands a double to json-glib directly, so none can write "inf.0" again. */
Test(cli, json_doubles_only_through_one_writer)
{
  const char *dirs[] = { "cli", "sim", "study", "report", "routing", "mapping", "models",
                         "traces", "engine", "util" };
  int scanned = 0;
  for (size_t d = 0; d < G_N_ELEMENTS(dirs); d++) {
    g_autofree char *dir = tu_src(dirs[d]);
    GDir *it = g_dir_open(dir, 0, NULL);
    cr_assert_not_null(it, "%s", dir);
    for (const char *name; (name = g_dir_read_name(it));) {
      if (!g_str_has_suffix(name, ".c") || !strcmp(name, "json-number.c"))
        continue;
      g_autofree char *path = g_build_filename(dir, name, NULL);
      g_autofree char *text = NULL;
      cr_assert(g_file_get_contents(path, &text, NULL, NULL), "%s", path);
      cr_assert_null(strstr(text, "json_builder_add_double_value"), "%s", path);
      cr_assert_null(strstr(text, "json_node_init_double"), "%s", path);
      cr_assert_null(strstr(text, "json_node_set_double"), "%s", path);
      scanned++;
    }
    g_dir_close(it);
  }
  cr_assert_gt(scanned, 100);
}

/* The outputs of map and trace matrix are checked against their inputs
 * too: a mapping or a matrix written over the trace's archive is refused
 * before anything is read, and the archive stays whole. */
Test(cli, outputs_inside_an_input_refused)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *archive = g_build_filename(dir, "ring", NULL);
  g_autofree char *src = tu_src("traces/data/ring-8");
  tu_copy_dir(src, archive);
  g_autofree char *anchor = g_build_filename(archive, "traces.otf2", NULL);
  g_autofree char *def = g_build_filename(archive, "traces.def", NULL);
  g_autofree char *before = tu_read(archive, "traces.def");
  const char *map[] = { "map", "-p", "torus:4x4", "-t", archive, "-s", "greedy", "-o", anchor,
                        NULL };
  const char *matrix[] = { "trace", "matrix", archive, "-o", def, NULL };
  const char *const *cmds[] = { map, matrix };
  for (size_t i = 0; i < G_N_ELEMENTS(cmds); i++) {
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_run(&out, &err, cmds[i]), 2, "%s", err);
    cr_assert_eq(tu_lines(err), 1, "%s", err);
    cr_assert(strstr(err, "inside the input"), "%s", err);
    g_free(out);
    g_free(err);
  }
  g_autofree char *after = tu_read(archive, "traces.def");
  cr_assert_str_eq(after, before);
  g_autofree char *trace_out = NULL;
  const char *info[] = { "trace", "info", archive, NULL };
  cr_assert_eq(tu_run(&trace_out, NULL, info), 0);
  tu_rm_rf(dir);
}
