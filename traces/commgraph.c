/* commgraph.c - CSR communication graph: construction, loaders, writers.
 *
 * Loaders read the whole file with g_file_get_contents() and parse it line
 * by line, so every error can name its line. Values are byte or message
 * counts: non-negative, integral (a value like 1.5e3 is accepted when it is
 * a whole number).
 */
#include "traces/commgraph.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(commgraph-error-quark, commgraph_error)

typedef struct {
  int src, dst;
  int64_t bytes, msgs;
} edge_rec;

static int edge_cmp(const void *a, const void *b)
{
  const edge_rec *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst)
    return x->dst < y->dst ? -1 : 1;
  return 0;
}

/* Sorts, merges duplicates and drops empty edges; consumes `recs`. */
static commgraph *build_from_recs(int n, edge_rec *recs, size_t count, gboolean has_msgs)
{
  qsort(recs, count, sizeof *recs, edge_cmp);
  size_t out = 0;
  for (size_t i = 0; i < count; i++) {
    if (out > 0 && recs[out - 1].src == recs[i].src && recs[out - 1].dst == recs[i].dst) {
      recs[out - 1].bytes += recs[i].bytes;
      recs[out - 1].msgs += recs[i].msgs;
    } else {
      recs[out++] = recs[i];
    }
  }
  commgraph *g = g_new0(commgraph, 1);
  g->n = n;
  g->xadj = g_new0(int, (size_t)n + 1);
  g->adj = g_new(int, out ? out : 1);
  g->bytes = g_new(int64_t, out ? out : 1);
  if (has_msgs)
    g->msgs = g_new(int64_t, out ? out : 1);
  int e = 0;
  for (size_t i = 0; i < out; i++) {
    if (recs[i].bytes == 0 && recs[i].msgs == 0)
      continue;
    g->adj[e] = recs[i].dst;
    g->bytes[e] = recs[i].bytes;
    if (has_msgs)
      g->msgs[e] = recs[i].msgs;
    g->xadj[recs[i].src + 1]++;
    e++;
  }
  for (int i = 0; i < n; i++)
    g->xadj[i + 1] += g->xadj[i];
  g->nedges = e;
  return g;
}

commgraph *commgraph_from_edges(int n, int nedges, const int *src, const int *dst,
                                const int64_t *bytes, const int64_t *msgs)
{
  edge_rec *recs = g_new(edge_rec, nedges ? (size_t)nedges : 1);
  for (int i = 0; i < nedges; i++) {
    g_assert(src[i] >= 0 && src[i] < n && dst[i] >= 0 && dst[i] < n);
    recs[i] = (edge_rec){ src[i], dst[i], bytes ? bytes[i] : 0, msgs ? msgs[i] : 0 };
  }
  commgraph *g = build_from_recs(n, recs, (size_t)nedges, msgs != NULL);
  g_free(recs);
  return g;
}

commgraph *commgraph_stencil(int nd, const int *dims, gboolean periodic, const int64_t *bytes)
{
  int64_t n = 1;
  for (int d = 0; d < nd; d++)
    n *= dims[d];
  g_assert(nd >= 1 && n >= 1 && n <= G_MAXINT / 2);
  size_t cap = (size_t)n * 2 * (size_t)nd;
  edge_rec *recs = g_new(edge_rec, cap);
  size_t m = 0;
  for (int r = 0; r < (int)n; r++) {
    for (int d = 0, stride = 1, rem = r; d < nd; stride *= dims[d], rem /= dims[d], d++) {
      int c = rem % dims[d];
      for (int dir = -1; dir <= 1; dir += 2) {
        int x = c + dir;
        if (x < 0 || x >= dims[d]) {
          if (!periodic || dims[d] < 3)
            continue;
          x = (x + dims[d]) % dims[d];
        }
        recs[m++] = (edge_rec){ r, r + (x - c) * stride, bytes ? bytes[d] : 1000, 0 };
      }
    }
  }
  commgraph *g = build_from_recs((int)n, recs, m, FALSE);
  g_free(recs);
  return g;
}

void commgraph_free(commgraph *g)
{
  if (!g)
    return;
  g_free(g->xadj);
  g_free(g->adj);
  g_free(g->bytes);
  g_free(g->msgs);
  g_free(g);
}

/* Parses one count value; FALSE if it is not a non-negative whole number. */
static gboolean parse_count(const char *tok, int64_t *out)
{
  char *end = NULL;
  errno = 0;
  while (*tok == ' ' || *tok == '\t')
    tok++;
  if (*tok == '\0')
    return FALSE;
  double v = g_ascii_strtod(tok, &end);
  while (end && (*end == ' ' || *end == '\t' || *end == '\r'))
    end++;
  if (errno || !end || *end != '\0' || !isfinite(v) || v < 0 || v > 9.2e18 || v != floor(v))
    return FALSE;
  *out = (int64_t)v;
  return TRUE;
}

static gboolean parse_int(const char *tok, long lo, long hi, long *out)
{
  char *end = NULL;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (errno || end == tok || *end != '\0' || v < lo || v > hi)
    return FALSE;
  *out = v;
  return TRUE;
}

/* Splits `line` at spaces/tabs into at most `max` tokens, in place. */
static int split_ws(char *line, char **tok, int max)
{
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(line, " \t\r", &save); t && n < max; t = strtok_r(NULL, " \t\r", &save))
    tok[n++] = t;
  if (strtok_r(NULL, " \t\r", &save))
    return max + 1;
  return n;
}

static gboolean is_blank_or_comment(const char *line, char comment)
{
  while (*line == ' ' || *line == '\t' || *line == '\r')
    line++;
  return *line == '\0' || *line == comment;
}

static char **read_lines(const char *path, GError **error)
{
  char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &text, &len, NULL)) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_IO,
                "%s: cannot read file, expected a communication matrix", path);
    return NULL;
  }
  if (memchr(text, '\0', len)) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                "%s: binary data, expected a text matrix", path);
    g_free(text);
    return NULL;
  }
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  return lines;
}

static commgraph *load_csv(const char *path, GError **error)
{
  char **lines = read_lines(path, error);
  if (!lines)
    return NULL;
  GArray *recs = g_array_new(FALSE, FALSE, sizeof(edge_rec));
  commgraph *g = NULL;
  int cols = -1, row = 0;
  for (int ln = 0; lines[ln]; ln++) {
    if (is_blank_or_comment(lines[ln], '#'))
      continue;
    char **cells = g_strsplit(lines[ln], ",", -1);
    int ncells = (int)g_strv_length(cells);
    if (cols < 0)
      cols = ncells;
    if (ncells != cols) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                  "%s:%d: row has %d values, expected %d like the first row", path, ln + 1,
                  ncells, cols);
      g_strfreev(cells);
      goto out;
    }
    for (int c = 0; c < ncells; c++) {
      int64_t v;
      if (!parse_count(cells[c], &v)) {
        g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                    "%s:%d: column %d: '%s' is not a non-negative whole number", path, ln + 1,
                    c + 1, g_strstrip(cells[c]));
        g_strfreev(cells);
        goto out;
      }
      if (v) {
        edge_rec r = { row, c, v, 0 };
        g_array_append_val(recs, r);
      }
    }
    g_strfreev(cells);
    row++;
  }
  if (row == 0) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                "%s:1: empty file, expected a square matrix", path);
    goto out;
  }
  if (row != cols) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                "%s: %d rows and %d columns, expected a square matrix", path, row, cols);
    goto out;
  }
  g = build_from_recs(row, (edge_rec *)(void *)recs->data, recs->len, FALSE);
out:
  g_array_free(recs, TRUE);
  g_strfreev(lines);
  return g;
}

static commgraph *load_mtx(const char *path, GError **error)
{
  char **lines = read_lines(path, error);
  if (!lines)
    return NULL;
  GArray *recs = g_array_new(FALSE, FALSE, sizeof(edge_rec));
  commgraph *g = NULL;
  gboolean pattern = FALSE, symmetric = FALSE, have_size = FALSE;
  long rows = 0, nnz = 0, seen = 0;
  int ln = 0;
  if (!lines[0] || !g_str_has_prefix(lines[0], "%%MatrixMarket")) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                "%s:1: expected a '%%%%MatrixMarket matrix coordinate ...' header", path);
    goto out;
  }
  {
    char *hdr = g_ascii_strdown(lines[0], -1);
    gboolean ok = strstr(hdr, "coordinate") != NULL;
    pattern = strstr(hdr, "pattern") != NULL;
    symmetric = strstr(hdr, "symmetric") != NULL;
    g_free(hdr);
    if (!ok) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "%s:1: only the 'coordinate' MatrixMarket format is supported", path);
      goto out;
    }
  }
  for (ln = 1; lines[ln]; ln++) {
    if (is_blank_or_comment(lines[ln], '%'))
      continue;
    char *tok[4];
    int nt = split_ws(lines[ln], tok, 3);
    if (!have_size) {
      long cols;
      if (nt != 3 || !parse_int(tok[0], 1, G_MAXINT, &rows) ||
          !parse_int(tok[1], 1, G_MAXINT, &cols) || !parse_int(tok[2], 0, G_MAXINT, &nnz)) {
        g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                    "%s:%d: expected the size line 'rows cols entries'", path, ln + 1);
        goto out;
      }
      if (rows != cols) {
        g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                    "%s:%d: %ld x %ld matrix, expected a square matrix", path, ln + 1, rows, cols);
        goto out;
      }
      have_size = TRUE;
      continue;
    }
    long i, j;
    int64_t v = 1;
    if (nt != (pattern ? 2 : 3) || !parse_int(tok[0], 1, rows, &i) ||
        !parse_int(tok[1], 1, rows, &j) || (!pattern && !parse_count(tok[2], &v))) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "%s:%d: expected 'row col%s' with 1 <= row, col <= %ld%s", path, ln + 1,
                  pattern ? "" : " value", rows, pattern ? "" : " and a non-negative whole value");
      goto out;
    }
    edge_rec r = { (int)i - 1, (int)j - 1, v, 0 };
    g_array_append_val(recs, r);
    if (symmetric && i != j) {
      edge_rec m = { (int)j - 1, (int)i - 1, v, 0 };
      g_array_append_val(recs, m);
    }
    seen++;
  }
  if (!have_size) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                "%s:%d: no size line, expected 'rows cols entries'", path, ln);
    goto out;
  }
  if (seen != nnz) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                "%s:%d: %ld entries, expected %ld as the size line says", path, ln, seen, nnz);
    goto out;
  }
  g = build_from_recs((int)rows, (edge_rec *)(void *)recs->data, recs->len, FALSE);
out:
  g_array_free(recs, TRUE);
  g_strfreev(lines);
  return g;
}

static commgraph *load_edges(const char *path, GError **error)
{
  char **lines = read_lines(path, error);
  if (!lines)
    return NULL;
  GArray *recs = g_array_new(FALSE, FALSE, sizeof(edge_rec));
  commgraph *g = NULL;
  int n = 0;
  int with_msgs = -1;
  for (int ln = 0; lines[ln]; ln++) {
    if (is_blank_or_comment(lines[ln], '#'))
      continue;
    char *tok[5];
    int nt = split_ws(lines[ln], tok, 4);
    long s, d;
    edge_rec r = { 0, 0, 0, 0 };
    if ((nt != 3 && nt != 4) || !parse_int(tok[0], 0, G_MAXINT - 1, &s) ||
        !parse_int(tok[1], 0, G_MAXINT - 1, &d) || !parse_count(tok[2], &r.bytes) ||
        (nt == 4 && !parse_count(tok[3], &r.msgs))) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "%s:%d: expected 'src dst bytes [messages]' with ranks >= 0 and counts >= 0",
                  path, ln + 1);
      goto out;
    }
    if (with_msgs < 0)
      with_msgs = nt == 4;
    if (with_msgs != (nt == 4)) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                  "%s:%d: %d fields, expected %d like the first edge", path, ln + 1, nt,
                  with_msgs ? 4 : 3);
      goto out;
    }
    r.src = (int)s;
    r.dst = (int)d;
    n = MAX(n, (int)MAX(s, d) + 1);
    g_array_append_val(recs, r);
  }
  if (recs->len == 0) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                "%s:1: no edges, expected lines 'src dst bytes [messages]'", path);
    goto out;
  }
  g = build_from_recs(n, (edge_rec *)(void *)recs->data, recs->len, with_msgs == 1);
out:
  g_array_free(recs, TRUE);
  g_strfreev(lines);
  return g;
}

commgraph *commgraph_load(const char *path, GError **error)
{
  if (g_str_has_suffix(path, ".csv"))
    return load_csv(path, error);
  if (g_str_has_suffix(path, ".mtx"))
    return load_mtx(path, error);
  return load_edges(path, error);
}

gboolean commgraph_load_counts(commgraph *g, const char *path, GError **error)
{
  commgraph *c = commgraph_load(path, error);
  if (!c)
    return FALSE;
  if (c->n != g->n) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                "%s: %d ranks, expected %d like the byte matrix", path, c->n, g->n);
    commgraph_free(c);
    return FALSE;
  }
  GArray *recs = g_array_new(FALSE, FALSE, sizeof(edge_rec));
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      edge_rec r = { i, g->adj[e], g->bytes[e], 0 };
      g_array_append_val(recs, r);
    }
  for (int i = 0; i < c->n; i++)
    for (int e = c->xadj[i]; e < c->xadj[i + 1]; e++) {
      /* the counts file's own value is its "bytes" column */
      edge_rec r = { i, c->adj[e], 0, c->bytes[e] };
      g_array_append_val(recs, r);
    }
  commgraph *m = build_from_recs(g->n, (edge_rec *)(void *)recs->data, recs->len, TRUE);
  g_array_free(recs, TRUE);
  commgraph_free(c);
  /* swap contents so that the caller's pointer stays valid */
  commgraph tmp = *g;
  *g = *m;
  *m = tmp;
  commgraph_free(m);
  return TRUE;
}

double *commgraph_dense(const commgraph *g, int kind)
{
  double *d = g_new0(double, (size_t)g->n * g->n);
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int64_t v = kind == 0 ? g->bytes[e] : (g->msgs ? g->msgs[e] : 0);
      d[(size_t)i * g->n + g->adj[e]] = (double)v;
    }
  return d;
}

gboolean commgraph_save(const commgraph *g, int kind, const char *path, GError **error)
{
  GString *s = g_string_new(NULL);
  const int64_t *val = kind == 0 ? g->bytes : g->msgs;
  if (g_str_has_suffix(path, ".mtx")) {
    int nnz = 0;
    for (int e = 0; e < g->nedges; e++)
      nnz += val && val[e] != 0;
    g_string_append_printf(s, "%%%%MatrixMarket matrix coordinate integer general\n");
    g_string_append_printf(s, "%%  written by mapsim: row = sender, column = receiver, %s\n",
                           kind == 0 ? "bytes" : "messages");
    g_string_append_printf(s, "%d %d %d\n", g->n, g->n, nnz);
    for (int i = 0; i < g->n; i++)
      for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
        if (val && val[e])
          g_string_append_printf(s, "%d %d %" G_GINT64_FORMAT "\n", i + 1, g->adj[e] + 1, val[e]);
  } else {
    for (int i = 0; i < g->n; i++) {
      int e = g->xadj[i];
      for (int j = 0; j < g->n; j++) {
        int64_t v = 0;
        if (e < g->xadj[i + 1] && g->adj[e] == j) {
          v = val ? val[e] : 0;
          e++;
        }
        g_string_append_printf(s, j ? ",%" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, v);
      }
      g_string_append_c(s, '\n');
    }
  }
  gboolean ok = g_file_set_contents(path, s->str, (gssize)s->len, NULL);
  if (!ok)
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_IO,
                "%s: cannot write file, expected a writable path", path);
  g_string_free(s, TRUE);
  return ok;
}

int64_t commgraph_total_bytes(const commgraph *g)
{
  int64_t s = 0;
  for (int e = 0; e < g->nedges; e++)
    s += g->bytes[e];
  return s;
}

int64_t commgraph_total_msgs(const commgraph *g)
{
  int64_t s = 0;
  if (g->msgs)
    for (int e = 0; e < g->nedges; e++)
      s += g->msgs[e];
  return s;
}
