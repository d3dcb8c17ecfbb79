/* test_input.c - the input dispatcher (traces/input.h): which reader each
 * bundled input goes to, the one-line refusals, and the extension point:
 * a trace format this test defines and registers itself (a few lines of
 * text, "tinytrace"), read by `trace info`, mapped by `map` and replayed
 * by `simulate` through mapsim_main() in a child process, with message and
 * byte counts, hop-bytes and a simulated time worked out by hand.
 *
 * The tinytrace format: a first line "tinytrace RANKS", then per line
 * "RANK compute SECONDS", "RANK send PEER BYTES" or "RANK recv PEER
 * BYTES", each rank's lines in its order. A send or receive is an MPI_Send
 * or MPI_Recv region of no length at the rank's clock, which only compute
 * advances. */
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "maintest.h"
#include "testutil.h"
#include "traces/input.h"

/* ---- the test's own format ---- */

static input_probe tiny_probe(const input_peek *pk)
{
  return pk->is_file && g_str_has_prefix(pk->head, "tinytrace ") ? INPUT_PROBE_CONTENT
                                                                  : INPUT_PROBE_NO;
}

static gboolean tiny_fail(GError **error, const char *path, int line, const char *what)
{
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s:%d: %s", path, line, what);
  return FALSE;
}

/* The records of every rank into `t` (made here: *t NULL on entry). */
static gboolean tiny_parse(const char *path, trace **t, GError **error)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, error))
    return FALSE;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  int n = 0;
  if (sscanf(lines[0], "tinytrace %d", &n) != 1 || n < 1 || n > 64)
    return tiny_fail(error, path, 1, "expected 'tinytrace RANKS' with 1 to 64 ranks");
  *t = trace_new(n);
  uint32_t send = trace_add_region(*t, "MPI_Send"), recv = trace_add_region(*t, "MPI_Recv");
  g_autofree int64_t *clock = g_new0(int64_t, n);
  for (int i = 1; lines[i]; i++) {
    char op[16];
    int rank, peer;
    double x;
    long long bytes;
    if (!*g_strstrip(lines[i]))
      continue;
    if (sscanf(lines[i], "%d compute %lf", &rank, &x) == 2 && rank >= 0 && rank < n && x >= 0) {
      clock[rank] += (int64_t)(x * 1e12 + 0.5);
      continue;
    }
    if (sscanf(lines[i], "%d %15s %d %lld", &rank, op, &peer, &bytes) != 4 || rank < 0 ||
        rank >= n || peer < 0 || peer >= n || bytes < 0 ||
        (strcmp(op, "send") != 0 && strcmp(op, "recv") != 0))
      return tiny_fail(error, path, i + 1, "expected 'RANK compute S' or 'RANK send|recv PEER BYTES'");
    gboolean is_send = strcmp(op, "send") == 0;
    trace_event e = { .time = clock[rank], .region = is_send ? send : recv, .kind = TRACE_ENTER };
    trace_push(*t, rank, &e);
    e = (trace_event){ .time = clock[rank], .bytes = bytes, .comm = (*t)->world, .peer = peer,
                       .kind = is_send ? TRACE_SEND : TRACE_RECV };
    trace_push(*t, rank, &e);
    e = (trace_event){ .time = clock[rank], .region = is_send ? send : recv, .kind = TRACE_LEAVE };
    trace_push(*t, rank, &e);
  }
  for (int r = 0; r < n; r++)
    (*t)->duration_ps = MAX((*t)->duration_ps, clock[r]);
  (*t)->creator = g_strdup("test_input.c");
  return TRUE;
}

static trace *tiny_read(const char *path, GError **error)
{
  trace *t = NULL;
  if (!tiny_parse(path, &t, error))
    g_clear_pointer(&t, trace_free);
  return t;
}

/* Streamed: the definitions first, then rank by rank, as a reader of per-rank
 * files (DUMPI's) does. */
static trace *tiny_scan(const char *path, const trace_sink *sink, int workers, GError **error)
{
  g_autoptr(trace) all = tiny_read(path, error);
  if (!all)
    return NULL;
  trace *defs = trace_new(all->nranks);
  for (int i = 0; i < all->nregions; i++)
    trace_add_region(defs, all->regions[i]);
  defs->creator = g_strdup(all->creator);
  if (!sink->defs(sink->user, defs, error)) {
    trace_free(defs);
    return NULL;
  }
  for (int r = 0; r < all->nranks; r++) {
    sink->begin(sink->user, 0, r, (uint64_t)all->ranks[r].nevents);
    for (int64_t i = 0; i < all->ranks[r].nevents; i++)
      sink->record(sink->user, 0, r, &all->ranks[r].events[i]);
    sink->end(sink->user, 0, r);
  }
  return defs;
}

static const input_reader tiny_reader = {
  .name = "tinytrace",
  .what = "a tinytrace file (test_input.c)",
  .gives = INPUT_TRACE,
  .probe = tiny_probe,
  .read = tiny_read,
  .scan = tiny_scan,
};

/* Ranks 0 and 3 exchange 1000 bytes after 1 ms of computation on rank 0,
 * ranks 1 and 2 500 bytes at once. */
static const char tiny_text[] = "tinytrace 4\n"
                                "0 compute 0.001\n"
                                "0 send 3 1000\n"
                                "3 recv 0 1000\n"
                                "1 send 2 500\n"
                                "2 recv 1 500\n";

static char *tiny_file(const char *dir)
{
  char *path = g_build_filename(dir, "pairs.tiny", NULL);
  cr_assert(g_file_set_contents(path, tiny_text, -1, NULL));
  return path;
}

Test(input, a_registered_reader_goes_through_trace_info_map_and_simulate)
{
  input_register(&tiny_reader);
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = tiny_file(dir);
  char *out = NULL, *err = NULL;

  const char *info[] = { "trace", "info", path, NULL };
  cr_assert_eq(run_main(dir, info, &out, &err), 0, "%s", err);
  cr_assert(strstr(out, "\nformat          tinytrace (test_input.c)\n"), "%s", out);
  cr_assert(strstr(out, "\np2p             2 messages, 1500 bytes\n"), "%s", out);
  cr_assert(strstr(out, "\nunmatched       0 sends, 0 receives, 0 size mismatches\n"), "%s", out);
  g_free(out);
  g_free(err);

  /* on a line of 4 nodes the identity puts 0 and 3 three hops apart:
   * 3 x 1000 + 1 x 500 hop-bytes; a strategy puts each pair side by side */
  const char *map[] = { "map", "-q", "-p", "mesh:4", "-t", path, "-s", "greedy", "--json", NULL };
  cr_assert_eq(run_main(dir, map, &out, &err), 0, "%s", err);
  g_autoptr(JsonParser) mp = json_parser_new();
  JsonObject *m = parse_object(mp, out);
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(m, "identity"),
                                          "hop_bytes"), 3500);
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(m, "mapped"),
                                          "hop_bytes"), 1500, "%s", out);
  g_free(out);
  g_free(err);

  /* the analytic model on mesh:4 (250 Gbit/s = 31.25e9 B/s, 10 ps a hop):
   * 0 -> 3 leaves at 1 ms and takes 3 x 10 ps + 1000 B / 31.25e9 B/s =
   * 32.03 ns, which ends the run; 1 -> 2 is done by 16.01 ns */
  const char *sim[] = { "simulate", "-q", "-p", "mesh:4", "-t", path, "--json", NULL };
  cr_assert_eq(run_main(dir, sim, &out, &err), 0, "%s", err);
  g_autoptr(JsonParser) sp = json_parser_new();
  JsonObject *s = parse_object(sp, out);
  double makespan = json_object_get_double_member(s, "makespan_s");
  cr_assert_float_eq(makespan, 1e-3 + 30e-12 + 1000 / 31.25e9, 1e-16, "%.12g", makespan);
  cr_assert_eq(json_object_get_int_member(s, "p2p_messages"), 2);
  cr_assert_eq(json_object_get_int_member(s, "p2p_bytes"), 1500);
  cr_assert_float_eq(json_object_get_double_member(s, "p2p_transfer_sum_s"),
                     (30e-12 + 1000 / 31.25e9) + (10e-12 + 500 / 31.25e9), 1e-18);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
}

/* The registered scan streams: the source is not in memory, and its records
 * are the trace's. */
Test(input, a_registered_scan_streams)
{
  input_register(&tiny_reader);
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = tiny_file(dir);
  GError *e = NULL;
  trace_source *src = input_read_source(path, NULL, &e);
  cr_assert_not_null(src, "%s", e ? e->message : "");
  cr_assert(trace_source_streamed(src));
  cr_assert_eq(trace_source_total(src), 12);
  cr_assert_eq(trace_source_trace(src)->duration_ps, 1000000000);
  trace_cursor *c = trace_cursor_new(src);
  trace_event ev[8];
  cr_assert_eq(trace_cursor_read(c, 0, ev, 8), 3);
  cr_assert_eq(ev[1].kind, TRACE_SEND);
  cr_assert_eq(ev[1].peer, 3);
  cr_assert_eq(ev[1].bytes, 1000);
  cr_assert_eq(ev[1].time, 1000000000);
  trace_cursor_free(c);
  trace_source_free(src);
  tu_rm_rf(dir);
}

/* Each bundled kind of input to its reader; and what the dispatcher says
 * of paths it cannot take, one line each. */
Test(input, bundled_inputs_find_their_readers)
{
  const struct {
    const char *rel;
    unsigned wants;
    const char *reader;
  } cases[] = {
    { "traces/data/ring-8", INPUT_TRACE, "otf2" },
    { "traces/data/ring-8/traces.otf2", INPUT_TRACE, "otf2" },
    { "tests/data/traces/eztrace-tracer_app-4", INPUT_TRACE, "otf2" },
    { "tests/data/traces/eztrace-tracer_app-4/eztrace_log.otf2", INPUT_TRACE, "otf2" },
    { "tests/data/y_pair.csv", INPUT_GRAPH, "csv" },
    { "tests/data/y_sym.mtx", INPUT_GRAPH, "mtx" },
    { "tests/data/y_ring.edges", INPUT_GRAPH, "edges" },
    { "tests/data/maplib/cg.p2p.size.csv", INPUT_GRAPH, "csv" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *path = tu_src(cases[i].rel);
    input in;
    GError *e = NULL;
    cr_assert(input_open(&in, path, NULL, cases[i].wants, &e), "%s: %s", path, e->message);
    cr_assert_str_eq(in.reader->name, cases[i].reader, "%s", path);
    cr_assert_eq(input_recognize(path, cases[i].wants, INPUT_PROBE_NAME), in.reader);
    input_clear(&in);
  }
  /* a folder and its anchor are one input */
  g_autofree char *dir = tu_src("traces/data/ring-8");
  g_autofree char *anchor = tu_src("traces/data/ring-8/traces.otf2");
  input a, b;
  cr_assert(input_open(&a, dir, NULL, INPUT_TRACE, NULL));
  cr_assert(input_open(&b, anchor, NULL, INPUT_TRACE, NULL));
  g_autofree char *ida = input_identity(&a), *idb = input_identity(&b);
  cr_assert_str_eq(ida, idb);
  input_clear(&a);
  input_clear(&b);

  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *readme = g_build_filename(tmp, "README.md", NULL);
  cr_assert(g_file_set_contents(readme, "# Runs\n\nThe traces of March.\n", -1, NULL));
  g_autofree char *csv = tu_src("tests/data/y_pair.csv");
  g_autofree char *nothing = g_build_filename(tmp, "nothing", NULL);
  const struct {
    const char *path;
    unsigned wants;
    const char *expect;
  } bad[] = {
    { readme, INPUT_TRACE, "README.md: not a format mapsim reads, expected a trace: an OTF2 archive" },
    { csv, INPUT_TRACE, "y_pair.csv: a dense CSV matrix (*.csv, row = sender), not a trace; expected a trace: " },
    { dir, INPUT_GRAPH, "ring-8: an OTF2 archive of Score-P, EZTrace or mapsim's tracer (a file named *.otf2, "
                        "or the folder holding it), not a communication matrix; expected a communication "
                        "matrix: a dense CSV matrix (*.csv, row = sender), a MatrixMarket coordinate file (*.mtx)" },
    { nothing, INPUT_TRACE, "nothing: no such file or folder, expected a trace: " },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    input in;
    GError *e = NULL;
    cr_assert_not(input_open(&in, bad[i].path, NULL, bad[i].wants, &e), "%s", bad[i].path);
    cr_assert(strstr(e->message, bad[i].expect), "'%s' not in %s", bad[i].expect, e->message);
    cr_assert_null(strchr(e->message, '\n'));
    cr_assert_null(input_recognize(bad[i].path, bad[i].wants, INPUT_PROBE_NAME));
    g_error_free(e);
  }
  /* a README is text: read as an edge list when a matrix is asked for by
   * name (its line named), never picked by a probe that wants a name */
  cr_assert_null(input_recognize(readme, INPUT_GRAPH, INPUT_PROBE_NAME));
  GError *e = NULL;
  cr_assert_null(input_read_matrix(readme, NULL, &e));
  cr_assert(strstr(e->message, "README.md:3: expected 'src dst bytes [messages]'"), "%s", e->message);
  g_error_free(e);
  tu_rm_rf(tmp);
}
