/* test_simulate_cli.c - end-to-end tests of `mapsim simulate`: JSON keys,
 * pre/post match on a real trace, determinism, --out-trace, bad input and
 * the deadlock report. */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "models/model.h"
#include "testutil.h"
#include "traces/trace.h"

static char *stencil_path(void)
{
  return tu_data("traces/tracer-stencil4d-32/traces.otf2");
}

static JsonObject *parse(JsonParser **parser, const char *text)
{
  GError *e = NULL;
  *parser = json_parser_new();
  cr_assert(json_parser_load_from_data(*parser, text, -1, &e), "%s\n%s", e ? e->message : "", text);
  return json_node_get_object(json_parser_get_root(*parser));
}

Test(simulate_cli, json_keys_and_pre_post_match_under_every_model, .timeout = 120)
{
  char *tr = stencil_path();
  static const char *const keys[] = {
    "makespan_s", "ranks", "events", "p2p_messages", "p2p_bytes", "collective_messages",
    "p2p_transfer_sum_s", "parallel_cost_s", "p2p_cost_s", "pre", "post", "pre_post_match",
    "wall_s", "events_per_s",
  };
  trace *t = trace_read_otf2(tr, NULL);
  cr_assert_not_null(t);
  trace_summary s;
  trace_summarize(t, &s);
  for (int i = 0; netmodel_registry[i]; i++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "--platform", "torus:4x4x4", "--trace", tr, "--model",
                           netmodel_registry[i]->name, "--json", NULL };
    int rc = tu_run(&out, &err, args);
    cr_assert_eq(rc, 0, "%s", err);
    JsonParser *jp;
    JsonObject *o = parse(&jp, out);
    for (size_t k = 0; k < G_N_ELEMENTS(keys); k++)
      cr_assert(json_object_has_member(o, keys[k]), "missing %s", keys[k]);
    cr_assert(json_object_get_boolean_member(o, "pre_post_match"));
    cr_assert_eq(json_object_get_int_member(o, "ranks"), 32);
    cr_assert_eq(json_object_get_int_member(o, "p2p_bytes"), s.p2p_bytes);
    cr_assert_eq(json_object_get_int_member(o, "p2p_messages"), s.p2p_messages);
    cr_assert_eq(json_object_get_int_member(o, "events"), s.events);
    JsonObject *pre = json_object_get_object_member(o, "pre");
    JsonObject *post = json_object_get_object_member(o, "post");
    cr_assert_eq(json_object_get_int_member(pre, "hop_bytes"),
                 json_object_get_int_member(post, "hop_bytes"));
    cr_assert_eq(json_object_get_int_member(pre, "max_link_bytes"),
                 json_object_get_int_member(post, "max_link_bytes"));
    /* link counts: graph edges statically, messages in the simulation */
    cr_assert(json_object_has_member(pre, "max_link_edges"));
    cr_assert_not(json_object_has_member(pre, "max_link_messages"));
    cr_assert(json_object_has_member(post, "max_link_messages"));
    cr_assert_not(json_object_has_member(post, "max_link_edges"));
    double mk = json_object_get_double_member(o, "makespan_s");
    cr_assert_gt(mk, 0);
    cr_assert_float_eq(json_object_get_double_member(o, "parallel_cost_s"), 32 * mk, 1e-9 * mk);
    g_object_unref(jp);
    g_free(out);
    g_free(err);
  }
  trace_free(t);
  g_free(tr);
}

/* Drops the two timing members, returns the rest re-serialized. */
static char *without_timing(const char *text)
{
  JsonParser *jp;
  JsonObject *o = parse(&jp, text);
  json_object_remove_member(o, "wall_s");
  json_object_remove_member(o, "events_per_s");
  char *s = json_to_string(json_parser_get_root(jp), FALSE);
  g_object_unref(jp);
  return s;
}

Test(simulate_cli, two_runs_identical_but_timing, .timeout = 120)
{
  char *tr = stencil_path();
  const char *args[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--strategy", "random",
                         "--seed", "3", "--json", NULL };
  char *a = NULL, *b = NULL;
  cr_assert_eq(tu_run(&a, NULL, args), 0);
  cr_assert_eq(tu_run(&b, NULL, args), 0);
  char *x = without_timing(a), *y = without_timing(b);
  cr_assert_str_eq(x, y);
  g_free(x);
  g_free(y);
  g_free(a);
  g_free(b);
  g_free(tr);
}

/* simulate streams the trace; with --out-trace it reads it into memory:
 * the same JSON either way (traced times, pre/post, links, per rank). */
Test(simulate_cli, streamed_equals_in_memory, .timeout = 120)
{
  const char *traces[] = { "traces/data/cg-16", "tests/data/traces/casita-2_jacobi_blame_cpu_015" };
  for (size_t i = 0; i < G_N_ELEMENTS(traces); i++) {
    char *tr = tu_src(traces[i]), *dir = tu_tmp_dir(), *o = g_build_filename(dir, "o", NULL);
    const char *streamed[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--model", "flow",
                               "--json", NULL };
    const char *in_memory[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--model", "flow",
                                "--json", "--out-trace", o, NULL };
    char *a = NULL, *b = NULL;
    cr_assert_eq(tu_run(&a, NULL, streamed), 0);
    cr_assert_eq(tu_run(&b, NULL, in_memory), 0);
    char *x = without_timing(a), *y = without_timing(b);
    cr_assert_str_eq(x, y, "%s", traces[i]);
    g_free(x);
    g_free(y);
    g_free(a);
    g_free(b);
    g_free(o);
    g_free(dir);
    g_free(tr);
  }
}

Test(simulate_cli, human_output_and_out_trace, .timeout = 120)
{
  char *tr = stencil_path();
  char *tmp = tu_tmp_dir();
  char *dir = g_build_filename(tmp, "run", NULL);
  const char *args[] = { "simulate", "-p", "mesh:4x4x4", "-t", tr, "--compute-scale", "0",
                         "--out-trace", dir, NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  cr_assert(strstr(out, "makespan"), "%s", out);
  cr_assert(strstr(out, "pre/post check (bytes of every link and hop_bytes, p2p+collectives "
                        "traffic): match"), "%s", out);
  cr_assert(strstr(out, "duration_s / makespan_s"), "%s", out);
  char *anchor = g_build_filename(dir, "traces.otf2", NULL);
  trace *t = trace_read_otf2(anchor, NULL);
  cr_assert_not_null(t);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.p2p_messages, 512);
  trace_free(t);
  tu_rm_rf(tmp);
  g_free(anchor);
  g_free(out);
  g_free(err);
  g_free(dir);
  g_free(tmp);
  g_free(tr);
}

/* Bad input: exit 2 and exactly one line on stderr naming the problem. */
static void expect_bad(const char *const *args, const char *needle)
{
  char *out = NULL, *err = NULL;
  int rc = tu_run(&out, &err, args);
  cr_assert_eq(rc, 2, "exit %d\n%s", rc, err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  cr_assert(strstr(err, needle), "expected '%s' in: %s", needle, err);
  g_free(out);
  g_free(err);
}

Test(simulate_cli, bad_inputs)
{
  char *tr = stencil_path();
  const char *a1[] = { "simulate", "-p", "torus:2x2x2", "-t", tr, NULL };
  expect_bad(a1, "32 ranks do not fit");
  const char *a2[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--model", "nope", NULL };
  expect_bad(a2, "unknown network model");
  const char *a3[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--collectives", "barrier=ring", NULL };
  expect_bad(a3, "ring");
  GString *map = g_string_new(NULL);
  for (int r = 0; r < 32; r++)
    g_string_append_printf(map, "%d %d\n", r, r == 5 ? 999 : r);
  char *mp = tu_write_tmp("bad.map", map->str);
  g_string_free(map, TRUE);
  const char *a4[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--mapping", mp, NULL };
  expect_bad(a4, "bad.map");
  const char *a5[] = { "simulate", "-p", "torus:4x4x4", "-t", "/nonexistent/traces.otf2", NULL };
  expect_bad(a5, "/nonexistent");
  g_unlink(mp);
  g_free(mp);
  g_free(tr);
}

Test(simulate_cli, deadlock_fixture_reports_and_writes_nothing)
{
  trace *t = trace_new(2);
  uint32_t rs = trace_add_region(t, "MPI_Send"), rr = trace_add_region(t, "MPI_Recv");
  for (int r = 0; r < 2; r++) {
    uint32_t regs[2] = { rr, rs };
    uint8_t kinds[2] = { TRACE_RECV, TRACE_SEND };
    for (int k = 0; k < 2; k++) {
      trace_event e = { .time = 1000 * (2 * k + 1), .region = regs[k], .kind = TRACE_ENTER };
      trace_push(t, r, &e);
      trace_event c = { .time = 1000 * (2 * k + 1), .peer = 1 - r, .bytes = 64, .tag = 3,
                        .comm = t->world, .kind = kinds[k] };
      trace_push(t, r, &c);
      trace_event l = { .time = 1000 * (2 * k + 2), .region = regs[k], .kind = TRACE_LEAVE };
      trace_push(t, r, &l);
    }
  }
  char *tmp = tu_tmp_dir();
  char *in = g_build_filename(tmp, "in", NULL);
  char *out_dir = g_build_filename(tmp, "out", NULL);
  GError *e = NULL;
  cr_assert(trace_write_otf2(t, in, NULL, &e), "%s", e ? e->message : "");
  trace_free(t);
  const char *args[] = { "simulate", "-p", "torus:2x2x2", "-t", in, "--out-trace", out_dir, NULL };
  char *out = NULL, *err = NULL;
  int rc = tu_run(&out, &err, args);
  cr_assert_eq(rc, 2, "%s", err);
  cr_assert(strstr(err, "deadlock: 2 of 2 ranks cannot progress"), "%s", err);
  cr_assert(strstr(err, "rank 0:"), "%s", err);
  cr_assert(strstr(err, "rank 1:"), "%s", err);
  cr_assert(strstr(err, "receive from rank 0"), "%s", err);
  cr_assert_eq(tu_lines(err), 3, "one summary line + one line per stuck rank:\n%s", err);
  cr_assert(!g_file_test(out_dir, G_FILE_TEST_EXISTS), "no partial output");
  tu_rm_rf(tmp);
  g_free(out);
  g_free(err);
  g_free(in);
  g_free(out_dir);
  g_free(tmp);
}

/* Per-link results: the links array carries the p2p bytes of the static
 * prediction; contention models add their load (flows, queued packets). */
Test(simulate_cli, per_link_loads, .timeout = 120)
{
  char *path = tu_src("traces/data/alltoall-16");
  const char *models[] = { "analytic", "flow", "packet" };
  const char *units[] = { NULL, "flows", "packets" };
  for (int k = 0; k < 3; k++) {
    char *out = NULL;
    const char *args[] = { "simulate", "-p", "torus:4x4x4", "-t", path, "--model", models[k],
                           "--compute-scale", "0", "--json", NULL };
    cr_assert_eq(tu_run(&out, NULL, args), 0);
    JsonParser *jp;
    JsonObject *o = parse(&jp, out);
    JsonArray *links = json_object_get_array_member(o, "links");
    JsonObject *pre = json_object_get_object_member(o, "pre");
    cr_assert_eq((int64_t)json_array_get_length(links),
                 json_object_get_int_member(pre, "links_used"), "%s", models[k]);
    int64_t sum = 0;
    for (guint i = 0; i < json_array_get_length(links); i++) {
      JsonObject *l = json_array_get_object_element(links, i);
      sum += json_object_get_int_member(l, "p2p_bytes");
      cr_assert_gt(json_object_get_double_member(l, "busy_s"), 0);
      cr_assert_eq(json_object_has_member(l, "max_load"), units[k] != NULL, "%s", models[k]);
      if (units[k])
        cr_assert_geq(json_object_get_double_member(l, "max_load"), 1.0, "%s", models[k]);
    }
    /* every link's bytes summed = hop_bytes: each byte counted once per hop */
    cr_assert_eq(sum, json_object_get_int_member(pre, "hop_bytes"));
    if (units[k])
      cr_assert_str_eq(json_object_get_string_member(o, "load_unit"), units[k]);
    /* busiest first */
    JsonObject *first = json_array_get_object_element(links, 0);
    JsonObject *last = json_array_get_object_element(links, json_array_get_length(links) - 1);
    cr_assert_geq(json_object_get_double_member(first, "busy_s"),
                  json_object_get_double_member(last, "busy_s"));
    g_object_unref(jp);
    g_free(out);
  }
  g_free(path);
}

static int64_t json_int(const char *text, const char *key)
{
  JsonParser *p;
  JsonObject *o = parse(&p, text);
  int64_t v = json_object_get_int_member(o, key);
  g_object_unref(p);
  return v;
}

/* The protocol options are the platform keys they name: --eager-limit 100
 * makes ring-8's 40 messages of 1024 bytes rendezvous (80 RTS/CTS), sync
 * drops the control messages, --preset simgrid too; each the same as its
 * --set; given twice, an error. */
Test(simulate_cli, protocol_options, .timeout = 120)
{
  char *tr = tu_src("traces/data/ring-8");
  struct { const char *a[4]; int64_t ctrl; } cases[] = {
    { { NULL }, 0 },
    { { "--eager-limit", "100", NULL }, 80 },
    { { "--set", "model.eager_threshold=100", NULL }, 80 },
    { { "--eager-limit", "100", "--handshake", "sync" }, 0 },
    { { "--eager-limit", "1023", "--preset", "simgrid" }, 0 },
    { { "--eager-limit", "1023", "--send-overhead", "1e-6" }, 80 },
  };
  char *base = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    const char *args[16] = { "simulate", "-p", "torus:2x2x2", "-t", tr, "--json" };
    int n = 6;
    for (int k = 0; k < 4 && cases[i].a[k]; k++)
      args[n++] = cases[i].a[k];
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_run(&out, &err, args), 0, "case %zu: %s", i, err);
    cr_assert_eq(json_int(out, "control_messages"), cases[i].ctrl, "case %zu", i);
    if (i == 0)
      base = g_strdup(out);
    g_free(out);
    g_free(err);
  }
  /* 80 us of send overhead on 40 sends, 8 ranks: makespan grows by 5 x 1 us
   * per rank at least (5 iterations); same run with --set */
  const char *o1[] = { "simulate", "-p", "torus:2x2x2", "-t", tr, "--json", "--send-overhead",
                       "1e-6", NULL };
  const char *o2[] = { "simulate", "-p", "torus:2x2x2", "-t", tr, "--json", "--set",
                       "model.send_overhead=1e-6", NULL };
  char *a = NULL, *b = NULL;
  cr_assert_eq(tu_run(&a, NULL, o1), 0);
  cr_assert_eq(tu_run(&b, NULL, o2), 0);
  JsonParser *pa, *pb, *p0;
  double ma = json_object_get_double_member(parse(&pa, a), "makespan_s");
  double mb = json_object_get_double_member(parse(&pb, b), "makespan_s");
  double m0 = json_object_get_double_member(parse(&p0, base), "makespan_s");
  cr_assert_eq(ma, mb);
  cr_assert_geq(ma - m0, 5e-6 - 1e-12, "%g vs %g", ma, m0);
  g_object_unref(pa);
  g_object_unref(pb);
  g_object_unref(p0);
  g_free(a);
  g_free(b);
  g_free(base);
  const char *twice[] = { "simulate", "-p", "torus:2x2x2", "-t", tr, "--handshake", "sync",
                          "--handshake", "rts-cts", NULL };
  char *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, twice), 2);
  cr_assert(strstr(err, "--handshake given twice"), "%s", err);
  g_free(err);
  const char *bad[] = { "simulate", "-p", "torus:2x2x2", "-t", tr, "--handshake", "rdv", NULL };
  cr_assert_eq(tu_run(NULL, &err, bad), 2);
  cr_assert(strstr(err, "[model] handshake = 'rdv': expected rts-cts or sync"), "%s", err);
  g_free(err);
  g_free(tr);
}

/* The number a regular expression's first group matches in a line of text. */
static double number_after(const char *text, const char *pattern)
{
  GRegex *re = g_regex_new(pattern, G_REGEX_MULTILINE, 0, NULL);
  GMatchInfo *mi = NULL;
  cr_assert(g_regex_match(re, text, 0, &mi), "no /%s/ in:\n%s", pattern, text);
  g_autofree char *v = g_match_info_fetch(mi, 1);
  g_match_info_free(mi);
  g_regex_unref(re);
  return g_ascii_strtod(v, NULL);
}

/* `text` with every line break and the indentation after it as one space:
 * the explanations are folded at 80 columns. */
static char *flat_text(const char *text)
{
  GRegex *re = g_regex_new("\n +", 0, 0, NULL);
  char *flat = g_regex_replace_literal(re, text, -1, 0, " ", 0, NULL);
  g_regex_unref(re);
  return flat;
}

/* A real trace whose traced and simulated p2p times differ by 116x: every
 * difference shown is explained with the numbers that account for it -
 * the simulated p2p time is the summed transfers plus the time blocked on
 * partners (the table's wait_s), the duration includes MPI_Init and
 * MPI_Finalize (setup_s) - and the load columns say what they mean. */
Test(simulate_cli, differences_explained_with_their_numbers, .timeout = 120)
{
  char *tr = tu_data("traces/tracer-stencil4d-32");
  const char *args[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--model", "flow", NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  cr_assert_not_null(strstr(out, "why traced and simulated differ:"), "%s", out);
  g_autofree char *flat = flat_text(out);
  /* wait_s and the summed transfers from the tables, with 6 decimals in
   * the explanation (folded at 80 columns: searched with its line breaks
   * as spaces) */
  double wait = number_after(out, "^wait_s +- +([0-9.]+)$");
  double sum = number_after(out, "^p2p transfers, summed +([0-9.]+) s");
  g_autofree char *blocked = g_strdup_printf("%.6f s blocked on partners (wait_s", wait);
  cr_assert_not_null(strstr(flat, blocked), "no '%s' in:\n%s", blocked, out);
  g_autofree char *transfers = g_strdup_printf("Simulated: %.6f s of transfers", sum);
  cr_assert_not_null(strstr(flat, transfers), "no '%s' in:\n%s", transfers, out);
  cr_assert_not_null(strstr(flat, "- duration vs makespan: the traced run includes MPI_Init and "
                                  "MPI_Finalize (setup_s 38.121948 s over all ranks"), "%s", out);
  /* a measured trace: its ranks may have shared cores */
  cr_assert_not_null(strstr(flat, "sharing cores"), "%s", out);
  cr_assert_not_null(strstr(out, "avg\n flows: their number averaged over the whole run"), "%s",
                     out);
  g_free(out);
  g_free(err);
  g_free(tr);
}

/* A synthetic trace (written by mapsim gen, no time in MPI_Init) replayed
 * with --compute-scale 0: no explanation whose premise is false for the
 * run - no setup of MPI_Init/MPI_Finalize, no partner that computes, no
 * shared cores - and the true ones instead. */
Test(simulate_cli, differences_only_where_their_premises_hold)
{
  char *tr = tu_src("traces/data/cg-16");
  const char *args[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--compute-scale", "0", NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  char *why = strstr(out, "why traced and simulated differ:");
  cr_assert_not_null(why, "%s", out);
  char *end = strstr(why, "\n\n");
  cr_assert_not_null(end);
  *end = 0;
  g_autofree char *flat = flat_text(why);
  const char *false_here[] = { "MPI_Init", "setup_s", "computes", "sharing cores", "absorbed",
                               "MPI library" };
  for (size_t i = 0; i < G_N_ELEMENTS(false_here); i++)
    cr_assert_null(strstr(flat, false_here[i]), "'%s' in:\n%s", false_here[i], why);
  cr_assert_not_null(strstr(flat, "- compute: the replay leaves the traced computation out "
                                  "(--compute-scale 0)"), "%s", why);
  cr_assert_not_null(strstr(flat, "With no computation replayed, a rank blocks only on "
                                  "messages"), "%s", why);
  cr_assert_not_null(strstr(flat, "the time the model of `mapsim gen` wrote"), "%s", why);
  g_free(out);
  g_free(err);
  g_free(tr);
}

/* Issue 35 items 3 and 9: the outputs are checked against each other and
 * the inputs before anything is read or written: the timeline on the
 * standard output that carries the report (they interleaved at byte
 * 16,384), two writers on one file (the link events replaced the
 * timeline), a timeline over the trace being replayed (its anchor
 * overwritten). Each ends in status 2 with one line naming both, nothing
 * on standard output and the files as they were. */
Test(simulate_cli, outputs_checked_against_each_other_and_the_inputs, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *archive = g_build_filename(dir, "cg", NULL);
  g_autofree char *src = tu_src("traces/data/cg-16");
  tu_copy_dir(src, archive);
  g_autofree char *anchor = g_build_filename(archive, "traces.otf2", NULL);
  g_autofree char *inner = g_build_filename(archive, "traces", "x.csv", NULL);
  g_autofree char *f = g_build_filename(dir, "f", NULL);
  g_autofree char *before = tu_read(archive, "traces.otf2");
  struct {
    const char *opt1, *path1, *opt2, *path2, *expect;
  } cases[] = {
    { "--timeline", "-", "--json", NULL, "--timeline -: standard output carries the report" },
    { "--link-events", "/dev/stdout", NULL, NULL, "--link-events /dev/stdout: standard output" },
    { "--timeline", f, "--link-events", f, "the same file as --timeline" },
    { "--timeline", anchor, NULL, NULL, "inside the input --trace" },
    { "--link-events", inner, NULL, NULL, "inside the input --trace" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "-p", "torus:4x4", "-t", archive, "--model", "flow", "-q",
                           cases[i].opt1, cases[i].path1, cases[i].opt2, cases[i].path2, NULL };
    cr_assert_eq(tu_run(&out, &err, args), 2, "case %zu: %s", i, err);
    cr_assert_str_eq(out, "", "case %zu", i);
    cr_assert_eq(tu_lines(err), 1, "case %zu: %s", i, err);
    cr_assert(strstr(err, cases[i].expect), "case %zu: %s", i, err);
    g_free(out);
    g_free(err);
  }
  cr_assert_not(g_file_test(f, G_FILE_TEST_EXISTS));
  cr_assert_not(g_file_test(inner, G_FILE_TEST_EXISTS));
  g_autofree char *after = tu_read(archive, "traces.otf2");
  cr_assert_str_eq(after, before);
  /* /dev/null takes any number of outputs; the report is written */
  char *out = NULL;
  const char *ok[] = { "simulate", "-p", "torus:4x4", "-t", archive, "--model", "flow", "-q",
                       "--timeline", "/dev/null", "--link-events", "/dev/null", NULL };
  cr_assert_eq(tu_run(&out, NULL, ok), 0);
  cr_assert(strstr(out, "match"), "%s", out);
  g_free(out);
  tu_rm_rf(dir);
}

static double makespan_with(const char *trace_path, const char *collectives)
{
  const char *args[] = { "simulate", "-q", "-p", "mesh:2x2", "--preset", "smpi", "--model", "flow",
                         "-t", trace_path, "--json", collectives ? "--collectives" : NULL, collectives,
                         NULL };
  char *out = NULL;
  cr_assert_eq(tu_run(&out, NULL, args), 0, "%s", out);
  JsonParser *parser;
  double mk = json_object_get_double_member(parse(&parser, out), "makespan_s");
  g_object_unref(parser);
  g_free(out);
  return mk;
}

/* --preset smpi is smpirun without --cfg, whose collective selector comes
 * with it: the same run as --collectives smpi, and --collectives still
 * overrides it (SimGrid's allreduce example: reduce + bcast against
 * auto's choice for three ranks) */
Test(simulate_cli, preset_smpi_brings_smpi_collectives, .timeout = 60)
{
  char *tr = tu_data("simgrid-ti/actions_allreduce.txt");
  double preset = makespan_with(tr, NULL);
  cr_assert_eq(preset, makespan_with(tr, "smpi"));
  cr_assert_neq(preset, makespan_with(tr, "auto"));
  g_free(tr);
}
