/* cli.h - the `mapsim` command: subcommand registry and shared helpers.
 *
 * Each subcommand lives in its own file `cmd-NAME.c` exporting
 * `int cmd_NAME(int argc, char **argv)` and has one row in commands.c.
 * Subcommands parse their options with GOptionContext, print to the user,
 * and return the exit status of util/status.h: 0 success, 1 a failed check
 * (such as pre/post metrics that disagree), 2 bad input (after one line
 * `mapsim: file:line: what was wrong, expected what` on stderr), 3 an
 * internal error, 130 interrupted.
 *
 * Options several subcommands share (--platform, --alloc, --cores, --seed,
 * --model, --json, the traffic inputs, --mapping, --strategy, the replay
 * options) come from one table in cli.c: a subcommand picks them by
 * CLI_OPT_* bits and finds their values in a cli_common, so their names,
 * short forms and help texts are the same everywhere. A single-valued
 * option given twice is an error.
 *
 * Outputs: results are printed from field tables (mapping/metrics.h
 * metrics_fields, sim/run.h run_replay_fields) by the cli_fields_*
 * helpers, and per-link quantities from sim/link-fields.h's table, so
 * JSON keys, text rows and CSV columns carry the same names.
 *
 * This is the only layer that parses arguments or prints for the user.
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "mapping/metrics.h"
#include "util/progress.h"
#include "models/model.h"
#include "routing/platform.h"
#include "traces/commgraph.h"
#include "traces/trace-source.h"
#include "traces/trace.h"

G_BEGIN_DECLS

typedef struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv);
} cli_command;

/* The subcommands (one file each). */
int cmd_topo(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_commstats(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_strategies(int argc, char **argv);
int cmd_routings(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_study(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_export(int argc, char **argv);

extern const cli_command cli_commands[];
extern const int cli_ncommands;

/* The shared options a subcommand takes (bits of cli_parse's `common`). */
enum {
  CLI_OPT_PLATFORM = 1u << 0,   /* --platform/-p P */
  CLI_OPT_PLATFORMS = 1u << 1,  /* --platform/-p P, repeatable */
  CLI_OPT_ALLOC = 1u << 2,      /* --alloc A */
  CLI_OPT_CORES = 1u << 3,      /* --cores N, --fill pack|spread */
  CLI_OPT_SEED = 1u << 4,       /* --seed N */
  CLI_OPT_MODEL = 1u << 5,      /* --model NAME */
  CLI_OPT_JSON = 1u << 6,       /* --json */
  CLI_OPT_MATRIX = 1u << 7,     /* --matrix/-m M */
  CLI_OPT_TRACE = 1u << 8,      /* --trace/-t T */
  CLI_OPT_MAPPING = 1u << 9,    /* --mapping/-M F */
  CLI_OPT_STRATEGY = 1u << 10,  /* --strategy/-s S */
  CLI_OPT_STRATEGIES = 1u << 11,/* --strategy/-s S, repeatable */
  CLI_OPT_REPLAY = 1u << 12,    /* --compute-scale X */
  CLI_OPT_CSV = 1u << 13,       /* --csv */
  CLI_OPT_THREADS = 1u << 14,   /* --threads/-j N */
  CLI_OPT_COUNTS = 1u << 15,    /* --counts/-c C */
  CLI_OPT_PROGRESS = 1u << 16,  /* --progress, --quiet */
  CLI_OPT_COLLECTIVES = 1u << 17, /* --collectives SPEC */
  CLI_OPT_TRACES = 1u << 18,    /* --trace/-t T, repeatable */
  CLI_OPT_MATRICES = 1u << 19,  /* --matrix/-m M and --counts/-c C, repeatable */
  CLI_OPT_SET = 1u << 20,       /* --set GROUP.KEY=VALUE, repeatable */
  CLI_OPT_MEMORY = 1u << 21,    /* --max-memory SIZE (every subcommand has it) */
  CLI_OPT_PROTOCOL = 1u << 22,  /* --eager-limit, --eager-start, --handshake, --envelope,
                                   --sharing, --send-overhead, --recv-overhead */
  CLI_OPT_RULES = 1u << 23,     /* --preset, --tie, --routing (routes and protocol: not for drawing) */
  CLI_OPT_TIME_LIMIT = 1u << 24, /* --time-limit S (with --strategy; mapping/strategy.h) */
};
#define CLI_OPT_GRAPH (CLI_OPT_MATRIX | CLI_OPT_COUNTS | CLI_OPT_TRACE)
#define CLI_OPT_PLACE (CLI_OPT_PLATFORM | CLI_OPT_ALLOC | CLI_OPT_CORES | CLI_OPT_SET | CLI_OPT_RULES)

/* Values of the shared options (unset: NULL / 0 / defaults below). */
typedef struct cli_common {
  char *platform;
  char **platforms;          /* CLI_OPT_PLATFORMS, NULL-terminated */
  char *alloc;
  int cores;                 /* 0: keep the platform's */
  char *fill;                /* NULL: keep the platform's (pack unless its file says) */
  char **sets;               /* --set overrides of platform keys, NULL-terminated */
  guint32 seed;              /* default 1 */
  char *model;               /* NULL: analytic */
  gboolean json, csv;
  char *matrix, *counts, *trace;
  char **traces, **matrices, **counts_list; /* the repeatable forms */
  char *mapping;
  char *strategy;
  char **strategies;         /* CLI_OPT_STRATEGIES, NULL-terminated */
  double compute_scale;      /* default 1 */
  char *collectives;
  int threads;               /* 0: all cores */
  gboolean progress, quiet;  /* force / silence the progress line */
  guint64 max_memory;        /* --max-memory (also set in util/budget.h), 0: default */
  double time_limit;         /* --time-limit (also set in mapping/strategy.h), 0: default */
  guint64 seen;              /* options given so far (repeat detection) */
} cli_common;

void cli_common_clear(cli_common *c);

/* Prints "mapsim: <message>" on stderr (cli_visible), frees `error`,
 * returns its exit status (util/status.h: 2 bad input, 3 internal error,
 * 130 interrupted). */
int cli_fail(GError *error);

/* `intro`, then every launcher format of mapping/launch.h with its
 * summary and the commands that apply it, for a command's --help (caller
 * frees). */
char *cli_launch_formats_help(const char *intro);

/* Prints what the trace reader approximated (trace->notice), once per
 * trace read: "mapsim: warning: ..." on stderr. NULL or no notice: nothing. */
void cli_trace_notice(const trace *t);

/* The trace at `path` read whole through the input dispatcher
 * (traces/input.h: any trace format), and the notice of what its reader
 * approximated. */
trace *cli_read_trace(const char *path, GError **error);

/* The same as a source for the replay: streamed where the format can, its
 * reading reported by --progress (cli_progress(c)), the notice printed. */
trace_source *cli_open_source(const cli_common *c, const char *path, GError **error);

/* Sets up the process before anything is printed (process.c): standard
 * descriptors held open, standard output a stream that remembers its write
 * errors, a closed pipe ending the process quietly (status 141), the
 * handlers of SIGINT, SIGTERM and SIGHUP (the first sets the stop flag the
 * progress hook carries, a second exits 130 at once) and of crashes (exit
 * 3 with a message). main() calls it first. */
void cli_process_start(void);

/* Runs a subcommand on a thread of its own and returns the process's exit
 * status: the subcommand's, 130 when it was stopped - at the latest 0.4 s
 * after the signal, then without waiting for it, its temporaries removed -
 * or 2 when standard output could not be written
 * (cli_process_end). */
int cli_run(const cli_command *cmd, int argc, char **argv);

/* Flushes and closes standard output: `status`, or 2 (after "mapsim:
 * standard output: REASON") when a write to it failed and status was 0 or
 * 1 (a failed subcommand said why it failed). */
int cli_process_end(int status);

/* The whole command, `mapsim ARGS...` as argv (argv[0] the program): what
 * the executable's main() runs. A test that registers a topology family or
 * a trace reader of its own calls it in a child process, once, to run a
 * subcommand on them (it installs signal handlers and takes stdout). */
int mapsim_main(int argc, char **argv);

/* `text` for a message (caller frees): bytes that are not UTF-8 as \xHH,
 * invisible characters (controls but newline and tab, format characters
 * such as a byte order mark or a zero-width space, spaces other than ' ')
 * as \u{HHHH}, so that a message never quotes what cannot be seen. */
char *cli_visible(const char *text);

/* Parses the options of a subcommand: the shared options selected by
 * `common` (values in *c, which it initializes) and the subcommand's own
 * `entries` (may be NULL), all in one --help. On error prints it and
 * returns FALSE (exit status 2). `usage` is the parameter string,
 * `examples` shown in --help. `--preset smpi` without --collectives sets
 * c->collectives to "smpi" (SMPI's default selector). */
gboolean cli_parse(int *argc, char ***argv, const char *name, const char *usage,
                   const char *summary, const char *examples, unsigned common, cli_common *c,
                   const GOptionEntry *entries);

/* The last --preset given (its NAME), or NULL. */
const char *cli_preset(const cli_common *c);

/* Loads the platform of --platform (file or shorthand), prints its loader
 * notes, then applies --alloc, --cores and --fill when given. */
platform *cli_common_platform(const cli_common *c, GError **error);

/* The same for another platform spec (one of several --platform). */
platform *cli_common_platform_spec(const cli_common *c, const char *spec, GError **error);

/* The communication graph of --matrix M [--counts C] or --trace T (its
 * p2p messages and, per --collectives, its collective messages: *with_colls
 * says whether they are in); exactly one of matrix/trace must be given. */
commgraph *cli_common_graph(const cli_common *c, gboolean *with_colls, GError **error);

/* The network model of --model; `fallback` when not given. */
const struct netmodel_ops *cli_common_model(const cli_common *c, const char *fallback,
                                            GError **error);

/* The progress hook of long work: a line "what: done/total (pct), rate,
 * elapsed, ETA" redrawn on stderr at most 5 times a second - when stderr is
 * a terminal or --progress was given, never with --quiet - and the stop flag
 * that SIGINT, SIGTERM and SIGHUP set (cli_process_start).
 * Thread-safe. cli_progress_end() finishes the line. */
const progress *cli_progress(const cli_common *c);
void cli_progress_end(void);

/* ---- outputs from field tables ---- */

/* Adds every field of `obj` in `view` (field_in_view; 0: all) as a member of
 * the object being built. */
struct _JsonBuilder;
void cli_fields_json(struct _JsonBuilder *b, const field *f, int n, const void *obj,
                     unsigned view);

/* Adds "platform": {"name", "source"} to the object being built. */
void cli_platform_json(struct _JsonBuilder *b, const platform *p);

/* Appends field f of obj as text: integers and simulated times exactly,
 * means with 4 decimals, other times with 9 significant digits. */
void cli_field_format(GString *s, const field *f, const void *obj);

/* "provenance": what made a run, for the readers of its JSON (plot's
 * titles): mapsim's version, the trace (or matrix), strategy and mapping file given
 * (the strategy "identity" when neither was), or for a jobs run the jobs
 * file and --policy; the platform spec and --alloc as given, the seed,
 * the model and the compute scale. */
void cli_provenance_json(struct _JsonBuilder *b, const cli_common *c, const char *model,
                         const char *jobs_path, const char *policy);

/* The metrics as members, named for their view (the names of `mapsim
 * metrics --json`, and of `simulate --json`'s post object). */
void cli_metrics_json(struct _JsonBuilder *b, const metrics *m);

/* CSV: the header cells `prefix+name` and one row's cells of the fields in
 * `view`, each preceded by a comma (the caller starts the line). */
void cli_fields_csv_header(GString *s, const char *prefix, const field *f, int n, unsigned view);
void cli_fields_csv_row(GString *s, const field *f, int n, const void *obj, unsigned view);

/* Appends `text` to s as one CSV cell (quoted when needed). */
void cli_csv_cell(GString *s, const char *text);

/* Adds member `name` with value v to the object being built. */
void cli_json_double(struct _JsonBuilder *b, const char *name, double v);

/* Adds "directions" (per dimension and direction: links, used, bytes, max
 * bytes, max time) and "links" (every used link: id, from, to, direction,
 * type, edges or messages, bytes, time) to the object being built. */
void cli_metrics_detail_json(struct _JsonBuilder *b, const metrics *m, const platform *p);

/* Prints metrics as a human table; with one column also the per-direction
 * summary and the `top` hottest links. Several columns when `labels` are
 * given. */
void cli_metrics_print(const metrics *const *ms, const char *const *labels, int n,
                       const platform *p, int top);

/* A path a command reads or writes and the option that names it
 * ("--timeline"; "" and "-" for the report on standard output). */
typedef struct cli_path {
  const char *what;
  const char *path; /* NULL: not given */
} cli_path;

/* Checks a command's outputs before anything is written (outputs.c): no
 * two the same file or stream (`-` twice, the report and `--timeline -`),
 * none equal to or inside an input (`--timeline T/traces.otf2`). FALSE
 * with one line naming both. */
gboolean cli_outputs_check(const cli_path *outs, int nouts, const cli_path *ins, int nins,
                           GError **error);

/* Writes a JSON node (pretty) to stdout with a final newline; takes the
 * node. */
struct _JsonNode;
void cli_print_json(struct _JsonNode *root);

G_END_DECLS
