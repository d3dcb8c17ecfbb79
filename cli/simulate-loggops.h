/* simulate-loggops.h - `simulate --model loggops` (simulate-loggops.c) for
 * the simulate command (cmd-simulate.c). Private to cli/.
 */
#pragma once

#include "cli/cli.h"

/* Replays --trace (a GOAL schedule, or any trace mapsim reads turned into
 * one) under LogGOPS (sim/loggops.h) and prints its makespan. Returns the
 * exit status. */
int simulate_loggops(const cli_common *c);
