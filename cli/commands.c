/* commands.c - the registry of `mapsim` subcommands: one row per cmd-*.c. */
#include "cli/cli.h"

/* Each subcommand's `int cmd_NAME(int, char **)` is declared in cli.h. */

const cli_command cli_commands[] = {
  { "topo", "facts about a platform: nodes, links, diameter, distances, bisection", cmd_topo },
  { "route", "the link path between two nodes", cmd_route },
  { "metrics", "static metrics of a mapping: hop-bytes, link congestion", cmd_metrics },
  { "trace", "facts about an OTF2 trace (info) and its communication matrix (matrix)", cmd_trace },
  { "commstats", "communication metrics of a matrix or trace: CA, CB, CC, CH, NBC, SP(k)", cmd_commstats },
  { "gen", "synthesize an OTF2 trace of a communication pattern (patterns: mapsim gen --list)", cmd_gen },
  { "map", "place ranks with a strategy pipeline; metrics before and after", cmd_map },
  { "strategies", "list the mapping strategies, their papers and options", cmd_strategies },
  { "routings", "list the routings of every topology family with their summaries", cmd_routings },
  { "simulate", "replay a trace on the modeled network: simulated time, pre/post metrics", cmd_simulate },
  { "compare", "traces or matrices (repeatable) x platforms x strategies: ranked, pre/post side by side", cmd_compare },
  { "show", "draw a small platform with a mapping's ranks and link loads (teaching)", cmd_show },
  { "study", "a study file: inputs x platforms x strategies x models x seeds, resumable, results and report", cmd_study },
  { "plot", "one run's link loads on the topology, per direction, and its matrix (PNG, SVG)", cmd_plot },
  { "export", "a run for SimGrid's replay (simgrid); a mapping for an MPI launcher (mapping)", cmd_export },
};

const int cli_ncommands = G_N_ELEMENTS(cli_commands);
