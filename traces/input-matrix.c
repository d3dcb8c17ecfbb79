/* input-matrix.c - the rows of the three matrix formats (input.h): a
 * MatrixMarket coordinate file, a dense CSV (MapLib layout) and an edge
 * list, read by commgraph.c. A matrix gives a communication graph only.
 *
 * Names decide as commgraph_format_of_name says (.mtx, .csv, anything else
 * an edge list), the content where it is sure: a MatrixMarket banner, or a
 * first data line of numbers for an edge list. Any other text is still
 * read as an edge list when a matrix is asked for by name (FALLBACK), so
 * that its error names the line that is wrong; a study's glob does not
 * pick it. */
#include "traces/input-private.h"

#include <string.h>

static gboolean named(const input_peek *pk, commgraph_format f)
{
  return !pk->is_dir && commgraph_format_of_name(pk->name) == f &&
         (pk->is_file || g_file_test(pk->path, G_FILE_TEST_EXISTS));
}

static input_probe probe_mtx(const input_peek *pk)
{
  if (pk->is_file && g_ascii_strncasecmp(pk->head, "%%MatrixMarket", 14) == 0)
    return INPUT_PROBE_CONTENT;
  return named(pk, COMMGRAPH_MTX) ? INPUT_PROBE_NAME : INPUT_PROBE_NO;
}

static input_probe probe_csv(const input_peek *pk)
{
  return named(pk, COMMGRAPH_CSV) ? INPUT_PROBE_NAME : INPUT_PROBE_NO;
}

/* The first line that is neither blank nor a '#' comment, within the
 * peeked bytes, holds only numbers and blanks (and starts with a digit). */
static gboolean numbers_first(const input_peek *pk)
{
  const char *p = pk->head, *end = pk->head + pk->nhead;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *lim = eol ? eol : end;
    const char *q = p;
    while (q < lim && (*q == ' ' || *q == '\t' || *q == '\r'))
      q++;
    if (q < lim && *q != '#') {
      if (!g_ascii_isdigit(*q))
        return FALSE;
      for (; q < lim; q++)
        if (!strchr("0123456789 \t\r.eE+-", *q))
          return FALSE;
      return TRUE;
    }
    if (!eol)
      break;
    p = eol + 1;
  }
  return FALSE;
}

static input_probe probe_edges(const input_peek *pk)
{
  if (!named(pk, COMMGRAPH_EDGES))
    return INPUT_PROBE_NO;
  if (!pk->is_file) /* a pipe or a device: never peeked, read as it comes */
    return INPUT_PROBE_FALLBACK;
  if (!input_peek_is_text(pk))
    return INPUT_PROBE_NO;
  return numbers_first(pk) ? INPUT_PROBE_CONTENT : INPUT_PROBE_FALLBACK;
}

static commgraph *graph_mtx(const char *path, GError **error)
{
  return commgraph_load_format(path, COMMGRAPH_MTX, error);
}

static commgraph *graph_csv(const char *path, GError **error)
{
  return commgraph_load_format(path, COMMGRAPH_CSV, error);
}

static commgraph *graph_edges(const char *path, GError **error)
{
  return commgraph_load_format(path, COMMGRAPH_EDGES, error);
}

const input_reader input_reader_mtx = {
  .name = "mtx",
  .what = "a MatrixMarket coordinate file (*.mtx)",
  .gives = INPUT_GRAPH,
  .probe = probe_mtx,
  .graph = graph_mtx,
};

const input_reader input_reader_csv = {
  .name = "csv",
  .what = "a dense CSV matrix (*.csv, row = sender)",
  .gives = INPUT_GRAPH,
  .probe = probe_csv,
  .graph = graph_csv,
};

const input_reader input_reader_edges = {
  .name = "edges",
  .what = "an edge list (lines 'src dst bytes [messages]')",
  .gives = INPUT_GRAPH,
  .probe = probe_edges,
  .graph = graph_edges,
};
