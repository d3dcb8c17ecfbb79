/* cli.h - the `mapsim` command: subcommand registry and shared helpers.
 *
 * Each subcommand lives in its own file `cmd-NAME.c` exporting
 * `int cmd_NAME(int argc, char **argv)` and has one row in commands.c.
 * Subcommands parse their options with GOptionContext, print to the user,
 * and return the exit status: 0 success, 2 bad input (after one line
 * `mapsim: file:line: what was wrong, expected what` on stderr), 1 a
 * failed check (such as pre/post metrics that disagree).
 *
 * This is the only layer that parses arguments or prints for the user.
 */
#pragma once

#include <glib.h>

#include "routing/platform.h"
#include "mapping/metrics.h"
#include "traces/commgraph.h"

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
int cmd_simulate(int argc, char **argv);
int cmd_compare(int argc, char **argv);

extern const cli_command cli_commands[];
extern const int cli_ncommands;

/* Prints "mapsim: <message>" on stderr, frees `error`, returns 2. */
int cli_fail(GError *error);

/* Parses the options of a subcommand; on error prints it and returns FALSE
 * (exit status 2). `usage` is the parameter string, `examples` shown in
 * --help. Consumes nothing else. */
gboolean cli_parse(int *argc, char ***argv, const char *name, const char *usage,
                   const char *summary, const char *examples, const GOptionEntry *entries);

/* Loads a platform (file or shorthand), then applies `alloc` (NULL: keep the
 * platform's own allocation) and `cores` (0: keep). */
platform *cli_platform(const char *spec, const char *alloc, int cores, GError **error);

/* The communication graph of --matrix M [--counts C] or --trace T; exactly
 * one of matrix/trace must be given. */
commgraph *cli_graph(const char *matrix, const char *counts, const char *trace_path,
                     GError **error);

/* Adds the static metric members (tasks, edges, total_hops, ... the names of
 * `mapsim metrics --json`) to the object being built. */
struct _JsonBuilder;
void cli_metrics_json(struct _JsonBuilder *b, const metrics *m);

/* Prints metrics as a human table; `top` hottest links and the per-dimension
 * summary when `detail`. Several columns when `others` (labels) are given. */
void cli_metrics_print(const metrics *const *ms, const char *const *labels, int n,
                       const platform *p, int top);

/* Writes a JSON node (pretty) to stdout with a final newline. */
struct _JsonNode;
void cli_print_json(struct _JsonNode *root);

G_END_DECLS
