/* simulate-jobs.h - `simulate --jobs` (cmd-simulate-jobs.c) for the
 * simulate command (cmd-simulate.c). Private to cli/.
 */
#pragma once

#include "cli/cli.h"

/* Replays the jobs of the jobs file `path` on --platform (sim/mix.h) and
 * prints them; `policy` (may be NULL) replaces every job's allocation
 * policy, `pairs` adds the interference matrix. Returns the exit status. */
int simulate_jobs(const cli_common *c, const char *path, const char *policy, gboolean pairs);
