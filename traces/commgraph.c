/* commgraph.c - CSR communication graph: construction, loaders, writers.
 *
 * Loaders read the whole file (budget_read_text: bounded, text only) and
 * parse it line by line, so every error can name its line. Values are byte
 * or message counts: non-negative decimal integers read exactly (no hex, no
 * exponent, nothing after the number), except in a MatrixMarket `real`
 * matrix, whose values must be whole numbers up to 2^53 (exact in double).
 * Every loader checks that the values sum to less than 2^63 and that the
 * ranks stay below BUDGET_MAX_RANKS, so the graph's sums never overflow.
 */
#include "traces/commgraph-private.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/checked.h"
#include "util/output.h"

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

/* Parses one count value: a decimal integer (exact, < 2^63), or with
 * `real` a whole decimal number up to 2^53; spaces around are ignored. */
static gboolean parse_count(const char *tok, gboolean real, int64_t *out)
{
  while (*tok == ' ' || *tok == '\t')
    tok++;
  gsize n = strlen(tok);
  while (n && (tok[n - 1] == ' ' || tok[n - 1] == '\t' || tok[n - 1] == '\r'))
    n--;
  char buf[64];
  if (n == 0 || n >= sizeof buf)
    return FALSE;
  memcpy(buf, tok, n);
  buf[n] = '\0';
  guint64 u;
  if (g_ascii_string_to_unsigned(buf, 10, 0, INT64_MAX, &u, NULL)) {
    *out = (int64_t)u;
    return TRUE;
  }
  if (!real || strspn(buf, "0123456789.eE+-") != n)
    return FALSE;
  char *end = NULL;
  double v = g_ascii_strtod(buf, &end);
  if (*end || !(v >= 0) || v > 9007199254740992.0 || v != floor(v))
    return FALSE;
  *out = (int64_t)v;
  return TRUE;
}

/* Adds a value to a loader's running total; FALSE (error set) once the
 * total would pass 2^63 - 1. */
static gboolean add_total(int64_t *total, int64_t v, const char *path, int line, GError **error)
{
  if (checked_add_i64(*total, v, total))
    return TRUE;
  g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
              "%s:%d: the values add up to more than 2^63 - 1, expected byte and message "
              "counts whose total fits a 64-bit integer", path, line);
  return FALSE;
}

/* FALSE (error set) when a matrix of `n` ranks is larger than the ranks
 * mapsim can hold. */
static gboolean check_ranks(int64_t n, const char *path, int line, GError **error)
{
  if (n <= BUDGET_MAX_RANKS)
    return TRUE;
  g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
              "%s:%d: %" G_GINT64_FORMAT " ranks, expected at most %d", path, line, n,
              BUDGET_MAX_RANKS);
  return FALSE;
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
  if (!budget_read_text(path, "a communication matrix", &text, NULL, error))
    return NULL;
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
  int64_t total = 0;
  for (int ln = 0; lines[ln]; ln++) {
    if (is_blank_or_comment(lines[ln], '#'))
      continue;
    char **cells = g_strsplit(lines[ln], ",", -1);
    int ncells = (int)g_strv_length(cells);
    if (!check_ranks(MAX(ncells, row + 1), path, ln + 1, error)) {
      g_strfreev(cells);
      goto out;
    }
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
      if (!parse_count(cells[c], FALSE, &v)) {
        g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                    "%s:%d: column %d: '%s' is not a non-negative decimal integer below 2^63",
                    path, ln + 1, c + 1, g_strstrip(cells[c]));
        g_strfreev(cells);
        goto out;
      }
      if (!add_total(&total, v, path, ln + 1, error)) {
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
  gboolean pattern = FALSE, symmetric = FALSE, real = FALSE, have_size = FALSE;
  long rows = 0, nnz = 0, seen = 0;
  int64_t total = 0;
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
    real = strstr(hdr, "real") != NULL;
    gboolean complex = strstr(hdr, "complex") != NULL;
    g_free(hdr);
    if (!ok || complex) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "%s:1: expected a 'coordinate' MatrixMarket matrix of integer, real or "
                  "pattern values", path);
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
      if (!check_ranks(rows, path, ln + 1, error))
        goto out;
      char *what = g_strdup_printf("%s:%d: %ld entries", path, ln + 1, nnz);
      gboolean fits = budget_check_array(what, (uint64_t)nnz * (symmetric ? 2 : 1),
                                         sizeof(edge_rec), error);
      g_free(what);
      if (!fits)
        goto out;
      have_size = TRUE;
      continue;
    }
    long i, j;
    int64_t v = 1;
    if (nt != (pattern ? 2 : 3) || !parse_int(tok[0], 1, rows, &i) ||
        !parse_int(tok[1], 1, rows, &j) || (!pattern && !parse_count(tok[2], real, &v))) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "%s:%d: expected 'row col%s' with 1 <= row, col <= %ld%s", path, ln + 1,
                  pattern ? "" : " value", rows,
                  pattern ? "" : real ? " and a whole value from 0 to 2^53"
                                      : " and a non-negative decimal integer below 2^63");
      goto out;
    }
    if (seen == nnz) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                  "%s:%d: more entries than the %ld the size line says", path, ln + 1, nnz);
      goto out;
    }
    if (!add_total(&total, v, path, ln + 1, error) ||
        (symmetric && i != j && !add_total(&total, v, path, ln + 1, error)))
      goto out;
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
  int64_t bytes_total = 0, msgs_total = 0;
  for (int ln = 0; lines[ln]; ln++) {
    if (is_blank_or_comment(lines[ln], '#'))
      continue;
    char *tok[5];
    int nt = split_ws(lines[ln], tok, 4);
    long s, d;
    edge_rec r = { 0, 0, 0, 0 };
    if ((nt != 3 && nt != 4) || !parse_int(tok[0], 0, G_MAXINT - 1, &s) ||
        !parse_int(tok[1], 0, G_MAXINT - 1, &d) || !parse_count(tok[2], FALSE, &r.bytes) ||
        (nt == 4 && !parse_count(tok[3], FALSE, &r.msgs))) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "%s:%d: expected 'src dst bytes [messages]' with ranks >= 0 and counts "
                  "decimal integers from 0 to 2^63 - 1", path, ln + 1);
      goto out;
    }
    if (!check_ranks((int64_t)MAX(s, d) + 1, path, ln + 1, error) ||
        !add_total(&bytes_total, r.bytes, path, ln + 1, error) ||
        !add_total(&msgs_total, r.msgs, path, ln + 1, error))
      goto out;
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

commgraph_format commgraph_format_of_name(const char *path)
{
  if (g_str_has_suffix(path, ".csv"))
    return COMMGRAPH_CSV;
  if (g_str_has_suffix(path, ".mtx"))
    return COMMGRAPH_MTX;
  return COMMGRAPH_EDGES;
}

commgraph *commgraph_load_format(const char *path, commgraph_format format, GError **error)
{
  switch (format) {
  case COMMGRAPH_CSV:
    return load_csv(path, error);
  case COMMGRAPH_MTX:
    return load_mtx(path, error);
  case COMMGRAPH_EDGES:
    break;
  }
  return load_edges(path, error);
}

commgraph *commgraph_load(const char *path, GError **error)
{
  return commgraph_load_format(path, commgraph_format_of_name(path), error);
}

gboolean commgraph_load_counts(commgraph *g, const char *path, GError **error)
{
  commgraph *c = commgraph_load(path, error);
  gboolean ok = c && commgraph_set_counts(g, c, path, error);
  commgraph_free(c);
  return ok;
}

gboolean commgraph_set_counts(commgraph *g, const commgraph *c, const char *path, GError **error)
{
  if (c->n != g->n) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_SHAPE,
                "%s: %d ranks, expected %d like the byte matrix", path, c->n, g->n);
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
  /* swap contents so that the caller's pointer stays valid */
  commgraph tmp = *g;
  *g = *m;
  *m = tmp;
  commgraph_free(m);
  return TRUE;
}

double *commgraph_dense(const commgraph *g, int kind, GError **error)
{
  if (!budget_check_array("dense communication matrix", (uint64_t)g->n * (uint64_t)g->n,
                          sizeof(double), error))
    return NULL;
  double *d = g_new0(double, (size_t)g->n * g->n);
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int64_t v = kind == 0 ? g->bytes[e] : (g->msgs ? g->msgs[e] : 0);
      d[(size_t)i * g->n + g->adj[e]] = (double)v;
    }
  return d;
}

gboolean commgraph_write(const commgraph *g, int kind, gboolean mtx, FILE *f,
                         const progress *prog)
{
  const int64_t *val = kind == 0 ? g->bytes : g->msgs;
  if (mtx) {
    int nnz = 0;
    for (int e = 0; e < g->nedges; e++)
      nnz += val && val[e] != 0;
    fprintf(f, "%%%%MatrixMarket matrix coordinate integer general\n");
    fprintf(f, "%%  written by mapsim: row = sender, column = receiver, %s\n",
            kind == 0 ? "bytes" : "messages");
    fprintf(f, "%d %d %d\n", g->n, g->n, nnz);
    for (int i = 0; i < g->n; i++)
      for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
        if (val && val[e])
          fprintf(f, "%d %d %" G_GINT64_FORMAT "\n", i + 1, g->adj[e] + 1, val[e]);
    return TRUE;
  }
  /* dense: n^2 cells, so rows report progress and may be interrupted */
  for (int i = 0; i < g->n && !progress_stopped(prog); i++) {
    int e = g->xadj[i];
    for (int j = 0; j < g->n; j++) {
      int64_t v = 0;
      if (e < g->xadj[i + 1] && g->adj[e] == j) {
        v = val ? val[e] : 0;
        e++;
      }
      if (j)
        fputc(',', f);
      fprintf(f, "%" G_GINT64_FORMAT, v);
    }
    fputc('\n', f);
    progress_report(prog, "matrix rows", (uint64_t)i + 1, (uint64_t)g->n);
  }
  return !progress_stopped(prog);
}

gboolean commgraph_save(const commgraph *g, int kind, const char *path, const progress *prog,
                        GError **error)
{
  output *o = output_open(path, prog, error);
  if (!o)
    return FALSE;
  commgraph_write(g, kind, g_str_has_suffix(path, ".mtx"), output_stream(o), prog);
  return output_commit(o, error);
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
