/* commands.c - the registry of `mapsim` subcommands: one row per cmd-*.c. */
#include "sim/cli/cli.h"

/* Each subcommand's `int cmd_NAME(int, char **)` is declared in cli.h. */

const cli_command cli_commands[] = {
  { "topo", "facts about a platform: nodes, links, diameter, distances, bisection", cmd_topo },
  { "route", "the link path between two nodes", cmd_route },
  { "metrics", "static metrics of a mapping: hop-bytes, link congestion", cmd_metrics },
  /* @@ rows: add one row per new subcommand above this marker */
};

const int cli_ncommands = G_N_ELEMENTS(cli_commands);
