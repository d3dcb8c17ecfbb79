/* input-goal.c - the GOAL reader's row (input.h): LogGOPSim's GOAL text
 * (goal.h) gives the communication graph of its sends, for map, metrics
 * and the static views; `simulate --model loggops` reads the schedule
 * itself (sim/loggops.h).
 *
 * The probe: the first word that is not a comment is `num_ranks` (what
 * txt2bin requires first), or the name ends in .goal. */
#include "traces/input-private.h"

#include <string.h>

#include "traces/goal.h"

/* The peeked bytes, past blanks and comments, start with "num_ranks". */
static gboolean starts_with_num_ranks(const input_peek *pk)
{
  const char *p = pk->head, *end = pk->head + pk->nhead;
  while (p < end) {
    if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
      p++;
    } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
      const char *eol = memchr(p, '\n', (size_t)(end - p));
      if (!eol)
        return FALSE;
      p = eol + 1;
    } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
      const char *close = g_strstr_len(p + 2, end - p - 2, "*/");
      if (!close)
        return FALSE;
      p = close + 2;
    } else {
      return (size_t)(end - p) > 9 && strncmp(p, "num_ranks", 9) == 0 &&
             (p[9] == ' ' || p[9] == '\t');
    }
  }
  return FALSE;
}

static input_probe probe(const input_peek *pk)
{
  if (pk->is_dir)
    return INPUT_PROBE_NO;
  if (input_peek_is_text(pk) && starts_with_num_ranks(pk))
    return INPUT_PROBE_CONTENT;
  return g_str_has_suffix(pk->name, ".goal") ? INPUT_PROBE_NAME : INPUT_PROBE_NO;
}

static commgraph *graph(const char *path, GError **error)
{
  g_autoptr(goal) g = goal_read(path, error);
  return g ? goal_graph(g) : NULL;
}

const input_reader input_reader_goal = {
  .name = "goal",
  .what = "a LogGOPSim GOAL schedule (*.goal)",
  .gives = INPUT_GRAPH,
  .probe = probe,
  .graph = graph,
};
