/* coords.c - task coordinates files for the geometric strategies: one line
 * per rank, its coordinates separated by blanks or commas, the same count
 * on every line; `#` comments and blank lines ignored. */
#include "mapping/strategy.h"

#include <math.h>
#include <string.h>

#include "util/budget.h"

double *strategy_load_coords(const char *path, int ntasks, int *dims, GError **error)
{
  char *text = NULL;
  if (!budget_read_text(path, "a coordinates file (one line per rank)", &text, NULL, error))
    return NULL;
  char **lines = g_strsplit(text, "\n", -1);
  GArray *vals = g_array_new(FALSE, FALSE, sizeof(double));
  int rows = 0, nd = -1;
  gboolean ok = TRUE;
  for (int ln = 0; ok && lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    char **tok = g_strsplit_set(g_strstrip(lines[ln]), " \t,", -1);
    int k = 0;
    for (int i = 0; ok && tok[i]; i++) {
      if (!*tok[i])
        continue;
      char *end;
      double v = g_ascii_strtod(tok[i], &end);
      if (*end || !isfinite(v)) {
        g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                    "%s:%d: '%s', expected a number", path, ln + 1, tok[i]);
        ok = FALSE;
      }
      g_array_append_val(vals, v);
      k++;
    }
    g_strfreev(tok);
    if (!ok || k == 0)
      continue;
    if (nd >= 0 && k != nd) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "%s:%d: %d coordinates, expected %d like the lines before", path, ln + 1, k, nd);
      ok = FALSE;
    } else if (k > TOPO_MAX_DIMS) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "%s:%d: %d coordinates, expected at most %d", path, ln + 1, k, TOPO_MAX_DIMS);
      ok = FALSE;
    }
    nd = k;
    rows++;
  }
  if (ok && rows != ntasks) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: %d lines of coordinates, expected one per rank (%d)", path, rows, ntasks);
    ok = FALSE;
  }
  g_strfreev(lines);
  g_free(text);
  *dims = nd;
  return (double *)(void *)g_array_free(vals, !ok);
}
