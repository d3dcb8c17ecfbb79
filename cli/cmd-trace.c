/* cmd-trace.c - `mapsim trace info|matrix`: facts about a trace (any
 * format traces/input.h reads; info names it) and its communication
 * matrix. */
#include <errno.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/simulate-loggops.h"
#include "sim/replay.h"
#include "traces/input.h"
#include "traces/trace.h"
#include "util/json-number.h"
#include "util/status.h"

#define MEMBER_INT(b, name, v) \
  do { json_builder_set_member_name(b, name); json_builder_add_int_value(b, (gint64)(v)); } while (0)
#define MEMBER_DBL(b, name, v) \
  do { json_builder_set_member_name(b, name); json_number_add(b, (double)(v)); } while (0)

/* Retained records per rank: fewest, mean, most. */
static void per_rank(const trace *t, int64_t *lo, double *mean, int64_t *hi)
{
  int64_t sum = 0;
  *lo = INT64_MAX;
  *hi = 0;
  for (int r = 0; r < t->nranks; r++) {
    *lo = MIN(*lo, t->ranks[r].nevents);
    *hi = MAX(*hi, t->ranks[r].nevents);
    sum += t->ranks[r].nevents;
  }
  *mean = (double)sum / MAX(t->nranks, 1);
}

/* The format line: the reader's name and the program that wrote the file. */
static char *format_of(const input_reader *r, const trace *t)
{
  return t->creator ? g_strdup_printf("%s (%s)", r->name, t->creator) : g_strdup(r->name);
}

static void print_info_json(const input_reader *r, const trace *t, const trace_summary *s)
{
  int64_t lo, hi;
  double mean;
  per_rank(t, &lo, &mean, &hi);
  replay_estimate est;
  replay_estimate_for(t->nranks, s->events, &est);
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "format");
  json_builder_add_string_value(b, r->name);
  json_builder_set_member_name(b, "creator");
  if (t->creator)
    json_builder_add_string_value(b, t->creator);
  else
    json_builder_add_null_value(b);
  MEMBER_INT(b, "ranks", t->nranks);
  MEMBER_INT(b, "locations", t->stats.locations);
  MEMBER_INT(b, "events", s->events);
  MEMBER_INT(b, "records_per_rank_min", lo);
  MEMBER_DBL(b, "records_per_rank_mean", mean);
  MEMBER_INT(b, "records_per_rank_max", hi);
  MEMBER_DBL(b, "replay_memory_streamed_bytes", est.stream_bytes);
  MEMBER_DBL(b, "replay_memory_in_memory_bytes", est.memory_bytes);
  MEMBER_DBL(b, "replay_temporary_file_bytes", est.spill_bytes);
  MEMBER_DBL(b, "replay_seconds_estimate", est.seconds);
  MEMBER_DBL(b, "duration_s", (double)t->duration_ps / 1e12);
  MEMBER_INT(b, "p2p_messages", s->p2p_messages);
  MEMBER_INT(b, "p2p_bytes", s->p2p_bytes);
  MEMBER_INT(b, "collective_calls", s->collective_calls);
  MEMBER_INT(b, "unmatched", s->unmatched_sends + s->unmatched_recvs);
  MEMBER_INT(b, "unmatched_sends", s->unmatched_sends);
  MEMBER_INT(b, "unmatched_recvs", s->unmatched_recvs);
  MEMBER_INT(b, "mismatched_bytes", s->mismatched_bytes);
  MEMBER_INT(b, "unbalanced_enter_leave", t->stats.unbalanced);
  MEMBER_INT(b, "timer_resolution", t->timer_resolution);
  MEMBER_INT(b, "communicators", t->ncomms);
  json_builder_set_member_name(b, "counts");
  json_builder_begin_object(b);
  for (int k = 0; k < TRACE_NRECS; k++)
    if (t->stats.records[k])
      MEMBER_INT(b, trace_rec_name(k), t->stats.records[k]);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "events_per_kind");
  json_builder_begin_object(b);
  for (int k = 0; k < TRACE_NKINDS; k++)
    MEMBER_INT(b, trace_kind_name(k), s->per_kind[k]);
  json_builder_end_object(b);
  json_builder_set_member_name(b, "collectives");
  json_builder_begin_object(b);
  for (int op = 0; op <= COLL_NOPS; op++)
    if (s->per_op[op])
      MEMBER_INT(b, coll_op_name(op), s->per_op[op]);
  json_builder_end_object(b);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

static void print_info_text(const char *path, const input_reader *r, const trace *t,
                            const trace_summary *s)
{
  g_autofree char *format = format_of(r, t);
  printf("trace           %s\n", path);
  printf("format          %s\n", format);
  printf("ranks           %d (%d locations)\n", t->nranks, t->stats.locations);
  printf("duration        %.6f s (timer %" G_GUINT64_FORMAT " ticks/s)\n",
         (double)t->duration_ps / 1e12, t->timer_resolution);
  printf("events          %" G_GINT64_FORMAT " retained\n", s->events);
  int64_t lo, hi;
  double mean;
  per_rank(t, &lo, &mean, &hi);
  printf("per rank        %" G_GINT64_FORMAT " .. %" G_GINT64_FORMAT " records, mean %.1f\n", lo, hi,
         mean);
  replay_estimate est;
  replay_estimate_for(t->nranks, s->events, &est);
  printf("replay needs    about %.0f MiB streamed (simulate; %.0f MiB temporary file), "
         "%.0f MiB in memory (--out-trace); about %.2g s of one core for reading + analytic "
         "replay, more with contention models\n", est.stream_bytes / 1048576.0,
         est.spill_bytes / 1048576.0, est.memory_bytes / 1048576.0, est.seconds);
  printf("p2p             %" G_GINT64_FORMAT " messages, %" G_GINT64_FORMAT " bytes\n",
         s->p2p_messages, s->p2p_bytes);
  printf("collectives     %" G_GINT64_FORMAT " calls (summed over ranks)\n", s->collective_calls);
  for (int op = 0; op <= COLL_NOPS; op++)
    if (s->per_op[op])
      printf("  %-20s %" G_GINT64_FORMAT "\n", coll_op_name(op), s->per_op[op]);
  printf("unmatched       %" G_GINT64_FORMAT " sends, %" G_GINT64_FORMAT " receives, %"
         G_GINT64_FORMAT " size mismatches\n", s->unmatched_sends, s->unmatched_recvs,
         s->mismatched_bytes);
  printf("records (all locations, otf2-print names):\n");
  for (int k = 0; k < TRACE_NRECS; k++)
    if (t->stats.records[k])
      printf("  %-32s %" G_GINT64_FORMAT "\n", trace_rec_name(k), t->stats.records[k]);
}

static int trace_info(int argc, char **argv)
{
  cli_common c;
  if (!cli_parse(&argc, &argv, "trace info", "TRACE", "Facts about a trace: its format, ranks, "
                 "duration, record counts, p2p and collective traffic, unmatched messages.",
                 "Example:\n  mapsim trace info traces/data/ring-8/traces.otf2 --json",
                 CLI_OPT_JSON, &c, NULL))
    return 2;
  gboolean json = c.json;
  cli_common_clear(&c);
  GError *e = NULL;
  if (argc != 2) {
    g_set_error(&e, TRACE_ERROR, TRACE_ERROR_IO, "trace info: %d arguments, expected one TRACE",
                argc - 1);
    return cli_fail(e);
  }
  if (input_recognize(argv[1], INPUT_GRAPH, INPUT_PROBE_NAME) == input_reader_find("goal"))
    return trace_info_goal(argv[1], json); /* a schedule, not records: its own facts */
  g_auto(input) in = { 0 };
  trace *t = input_open(&in, argv[1], NULL, INPUT_TRACE, &e) ? input_trace(&in, &e) : NULL;
  if (t == NULL)
    return cli_fail(e);
  cli_trace_notice(t);
  trace_summary s;
  trace_summarize(t, &s);
  if (json)
    print_info_json(in.reader, t, &s);
  else
    print_info_text(argv[1], in.reader, t, &s);
  /* unmatched messages are facts of the trace like the others (the replay
   * is where they become a problem): a note, not a failure */
  if (s.unmatched_sends + s.unmatched_recvs + s.mismatched_bytes > 0)
    fprintf(stderr, "mapsim: note: %s: %" G_GINT64_FORMAT " unmatched sends, %" G_GINT64_FORMAT
            " unmatched receives, %" G_GINT64_FORMAT " size mismatches: a replay would find "
            "them unmatched too\n", argv[1], s.unmatched_sends, s.unmatched_recvs,
            s.mismatched_bytes);
  trace_free(t);
  return 0;
}

static int trace_matrix(int argc, char **argv)
{
  char *kind = NULL, *out = NULL, *algo = NULL;
  const GOptionEntry entries[] = {
    { "kind", 'k', 0, G_OPTION_ARG_STRING, &kind, "count or bytes (default bytes)", "K" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
      "Output .csv (dense, MapLib layout) or .mtx (default: the CSV on standard output)", "M" },
    { "collectives", 0, 0, G_OPTION_ARG_STRING, &algo,
      "Add collectives expanded with algorithm ALGO (auto, binomial, ring, ...)", "ALGO" },
    { NULL },
  };
  int status = 2;
  GError *e = NULL;
  trace *t = NULL;
  commgraph *g = NULL;
  cli_common c;
  if (!cli_parse(&argc, &argv, "trace matrix", "TRACE", "The communication matrix of a trace "
                 "(row = sender, column = receiver).",
                 "Examples:\n  mapsim trace matrix traces/data/ring-8\n"
                 "  mapsim trace matrix traces/data/cg-16 --kind count -o M.csv",
                 CLI_OPT_PROGRESS, &c, entries))
    goto out;
  int k = kind == NULL || strcmp(kind, "bytes") == 0 ? 0 : strcmp(kind, "count") == 0 ? 1 : -1;
  if (k < 0 || argc != 2) {
    g_set_error(&e, TRACE_ERROR, TRACE_ERROR_IO, "%s",
                k < 0 ? "--kind: expected count or bytes"
                      : "trace matrix: expected one TRACE argument");
    status = cli_fail(e);
    goto out;
  }
  if (out && !cli_outputs_check((const cli_path[]){ { "-o", out } }, 1,
                                (const cli_path[]){ { "TRACE", argv[1] } }, 1, &e)) {
    status = cli_fail(e);
    goto out;
  }
  t = cli_read_trace(argv[1], &e);
  if (t)
    g = trace_commgraph(t, algo != NULL, algo, &e);
  const progress *prog = cli_progress(&c);
  gboolean saved = g && (out ? commgraph_save(g, k, out, prog, &e)
                             : commgraph_write(g, k, FALSE, stdout, prog));
  cli_progress_end();
  if (g && !out && fflush(stdout) != 0)
    g_set_error(&e, G_FILE_ERROR, G_FILE_ERROR_IO, "standard output: %s", g_strerror(errno));
  if (progress_stopped(prog) && !e)
    g_set_error(&e, STATUS_ERROR, STATUS_ERROR_INTERRUPTED, "interrupted");
  status = saved && !e ? 0 : cli_fail(e);
out:
  commgraph_free(g);
  trace_free(t);
  g_free(kind);
  g_free(out);
  g_free(algo);
  return status;
}

int cmd_trace(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "info") == 0)
    return trace_info(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "matrix") == 0)
    return trace_matrix(argc - 1, argv + 1);
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("Usage: mapsim trace info TRACE [--json]\n"
           "       mapsim trace matrix TRACE [--kind count|bytes] [-o M.csv|M.mtx] [--collectives ALGO]\n"
           "Collective algorithms:\n");
    for (int i = 0; i < coll_nalgos; i++)
      printf("  %-20s %s\n", coll_algos[i].name, coll_algos[i].summary);
    printf("\nExamples:\n  mapsim trace info traces/data/ring-8 --json\n"
           "  mapsim trace matrix traces/data/stencil3d-64 --kind bytes -o stencil.csv\n"
           "`mapsim trace info --help` and `mapsim trace matrix --help` list the options.\n");
    return 0;
  }
  GError *e = NULL;
  g_set_error(&e, TRACE_ERROR, TRACE_ERROR_IO, "trace: verb '%s', expected info or matrix",
              argc >= 2 ? argv[1] : "");
  return cli_fail(e);
}
