/* simgridtest.h - SimGrid's replay of an exported run against mapsim's own
 * replay, for the test files that run smpirun (test_simgrid,
 * test_anysource). */
#pragma once

#include <criterion/criterion.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "testutil.h"

/* smpirun and the smpireplaymain that smpirun.sh finds come in one
 * package: without smpirun the export is not replayed. */
static inline void skip_without_simgrid(void)
{
  char *smpirun = g_find_program_in_path("smpirun");
  if (!smpirun)
    cr_skip_test("SimGrid's smpirun not found (Debian package libsimgrid-dev): the export is not "
                 "replayed");
  g_free(smpirun);
}

static inline double mapsim_makespan(const char *plat, const char *tr, const char *strategy)
{
  char *out = NULL, *err = NULL;
  const char *args[] = { "simulate", "-p", plat, "-t", tr, "--preset", "simgrid", "--model",
                         "flow", "--compute-scale", "0", "--json", strategy ? "-s" : NULL,
                         strategy, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, out, -1, NULL));
  double v = json_object_get_double_member(json_node_get_object(json_parser_get_root(jp)),
                                           "makespan_s");
  g_object_unref(jp);
  g_free(out);
  g_free(err);
  return v;
}

/* Exports a run, replays it with smpirun.sh; SimGrid's makespan. */
static inline double simgrid_makespan(const char *plat, const char *tr, const char *strategy,
                                      const char *dir)
{
  char *out = NULL, *err = NULL;
  const char *args[] = { "export", "simgrid", "-p", plat, "-t", tr, "--preset", "simgrid",
                         "--compute-scale", "0", "-o", dir, strategy ? "-s" : NULL, strategy,
                         NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_free(out);
  g_free(err);
  g_autofree char *script = g_build_filename(dir, "smpirun.sh", NULL);
  char *argv[] = { "sh", script, NULL };
  int status = tu_spawn(argv, &out, &err);
  cr_assert_eq(status, 0, "%s on %s: smpirun.sh failed (status %d):\n%s%s", tr, plat, status, out,
               err);
  const char *line = strstr(out ? out : "", "] Simulation time");
  const char *e2 = strstr(err ? err : "", "] Simulation time");
  const char *text = line ? out : err;
  line = line ? line : e2;
  cr_assert_not_null(line, "%s on %s: smpirun gave no simulated time:\n%s%s", tr, plat, out, err);
  while (line > text && line[-1] != '[')
    line--;
  double v = g_ascii_strtod(line, NULL);
  g_free(out);
  g_free(err);
  tu_rm_rf(dir);
  return v;
}

