/* tracetest.h - what the test files that build or read traces share: a
 * record appended by hand (test_replay, test_energy) and the checks of
 * the trace readers (test_trace_read, test_eztrace). */
#pragma once

#include "testutil.h"
#include "traces/trace.h"

/* Appends one record to rank `rank` of a hand-built trace (communicator 0). */
static inline void tu_push(trace *t, int rank, int kind, int64_t time, int peer, int64_t bytes,
                           uint32_t tag_or_region)
{
  trace_event e = { .time = time, .bytes = bytes, .peer = peer, .tag = tag_or_region,
                    .kind = (uint8_t)kind, .comm = 0 };
  trace_push(t, rank, &e);
}

/* A trace no reader accepts: `mapsim trace info PATH` exits 2 with one
 * line "mapsim: ..." containing `needle` and nothing on standard output,
 * and the library refuses it too, without crashing. */
static inline void tu_expect_bad_trace(const char *path, const char *needle)
{
  char *out = NULL, *err = NULL;
  const char *info[] = { "trace", "info", path, NULL };
  cr_assert_eq(tu_run(&out, &err, info), 2, "%s: %s", path, err);
  cr_assert_eq(tu_lines(err), 1, "one line expected: %s", err);
  cr_assert(g_str_has_prefix(err, "mapsim: "), "%s", err);
  cr_assert(strstr(err, needle), "'%s' not in %s", needle, err);
  cr_assert_str_empty(out);
  g_free(out);
  g_free(err);
  GError *e = NULL;
  cr_assert_null(trace_read_otf2(path, &e));
  cr_assert_not_null(e);
  g_error_free(e);
}
