/* simulate-loggops.h - `simulate --model loggops` and `export goal`
 * (simulate-loggops.c) for the simulate and export commands. Private to
 * cli/.
 */
#pragma once

#include "cli/cli.h"
#include "sim/loggops.h"
#include "traces/goal.h"

/* The schedule of --trace: read as GOAL, or any trace mapsim reads turned
 * into one (goal_of_trace, calcs in units of p->unit_s, --collectives). */
goal *cli_loggops_schedule(const cli_common *c, const loggops_params *p, GError **error);

/* Replays --trace (a GOAL schedule, or any trace mapsim reads turned into
 * one) under LogGOPS (sim/loggops.h) without a platform and prints its
 * makespan. `writers`:
 * the timeline options given (refused: LogGOPS records no timeline), or
 * NULL. Returns the exit status. */
int simulate_loggops(const cli_common *c, const char *writers);

/* `mapsim export goal -t TRACE -o F.goal`: argv[0] is "goal". Returns the
 * exit status. */
int export_goal(int argc, char **argv);

/* `mapsim trace info F.goal`: the schedule's facts (format goal, ranks,
 * operations by kind, dependencies, bytes sent), text or JSON. Returns the
 * exit status. */
int trace_info_goal(const char *path, gboolean json);
