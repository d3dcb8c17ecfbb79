/* synth-patterns.c - the patterns of synthetic traces: per rank, the
 * message pairs of one iteration (process grids and stencils, ring,
 * shift, bit complement, ping-pong, all-to-all, CG, random and spmv after
 * deveci2015, Section IV-C), and the table of patterns (synth_patterns).
 * synth.c turns the pairs into MPI records and writes them.
 */
#include "traces/synth-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/checked.h"

static void add_pair(gen *g, int r, int to, int from, int64_t bytes, uint32_t tag)
{
  if (to == r)
    to = -1;
  if (from == r)
    from = -1;
  if (to < 0 && from < 0)
    return;
  xpair p = { to, from, bytes, bytes, tag };
  g_array_append_val(g->pairs[r], p);
}

/* ---- process grids and stencils ---------------------------------------- */

/* Balanced factorization of P into nd dims (largest prime factors first
 * onto the currently smallest dimension). */
static void dims_create(int P, int nd, int *dims)
{
  for (int d = 0; d < nd; d++)
    dims[d] = 1;
  int f[64], nf = 0;
  for (int p = 2, n = P; n > 1; p++)
    while (n % p == 0) {
      f[nf++] = p;
      n /= p;
    }
  for (int i = nf - 1; i >= 0; i--) {
    int m = 0;
    for (int d = 1; d < nd; d++)
      if (dims[d] < dims[m])
        m = d;
    dims[m] *= f[i];
  }
}

/* Rank at coordinates of r shifted by off, -1 off an open grid. */
static int shift(int r, const int *off, const int *dims, int nd, gboolean periodic)
{
  int out = 0, stride = 1;
  for (int d = 0; d < nd; d++) {
    int c = r % dims[d] + off[d];
    r /= dims[d];
    if (c < 0 || c >= dims[d]) {
      if (!periodic)
        return -1;
      c = (c % dims[d] + dims[d]) % dims[d];
    }
    out += c * stride;
    stride *= dims[d];
  }
  return out;
}

static gboolean grid(const synth_opts *o, int nd, int *dims, GError **error)
{
  if (o->dims[0] == 0) {
    dims_create(o->ranks, nd, dims);
    return TRUE;
  }
  int prod = 1;
  for (int d = 0; d < nd; d++) {
    dims[d] = o->dims[d];
    prod *= MAX(dims[d], 0);
  }
  if (prod != o->ranks) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--dims: product %d, expected %d dimensions multiplying to --ranks %d", prod, nd,
                o->ranks);
    return FALSE;
  }
  return TRUE;
}

static gboolean pairs_stencil(gen *g, int nd, GError **error)
{
  const synth_opts *o = g->o;
  int dims[4], offs[16][4], n = 0;
  int points = o->points ? o->points : 2 * nd + 1;
  if (!grid(o, nd, dims, error))
    return FALSE;
  if (points != 2 * nd + 1 && !(nd == 2 && points == 9)) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION, "--points %d: expected %d%s for %dD",
                points, 2 * nd + 1, nd == 2 ? " or 9" : "", nd);
    return FALSE;
  }
  memset(offs, 0, sizeof offs);
  for (int d = 0; d < nd; d++) {
    offs[n++][d] = 1;
    offs[n++][d] = -1;
  }
  for (int sx = -1; points == 9 && nd == 2 && sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2) {
      offs[n][0] = sx;
      offs[n++][1] = sy;
    }
  for (int r = 0; r < o->ranks; r++)
    for (int k = 0; k < n; k++) {
      int back[4];
      for (int d = 0; d < 4; d++)
        back[d] = -offs[k][d];
      add_pair(g, r, shift(r, offs[k], dims, nd, o->periodic), shift(r, back, dims, nd, o->periodic),
               o->bytes, (uint32_t)k);
    }
  return TRUE;
}

static gboolean pairs_ring(gen *g, GError **error)
{
  int P = g->o->ranks;
  for (int r = 0; r < P; r++)
    add_pair(g, r, (r + 1) % P, (r + P - 1) % P, g->o->bytes, 0);
  return TRUE;
}

static gboolean pairs_shift(gen *g, GError **error)
{
  int64_t P = g->o->ranks, k = (g->o->shift % P + P) % P;
  if (k == 0) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--shift %" G_GINT64_FORMAT ": a multiple of the %" G_GINT64_FORMAT " ranks sends "
                "every rank to itself, expected another distance", g->o->shift, P);
    return FALSE;
  }
  for (int64_t r = 0; r < P; r++)
    add_pair(g, (int)r, (int)((r + k) % P), (int)((r + P - k) % P), g->o->bytes, 0);
  return TRUE;
}

static gboolean pairs_bitcomp(gen *g, GError **error)
{
  int P = g->o->ranks;
  if (P < 2 || (P & (P - 1))) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "bitcomp on %d ranks: expected a power of two of at least 2 ranks", P);
    return FALSE;
  }
  for (int r = 0; r < P; r++)
    add_pair(g, r, r ^ (P - 1), r ^ (P - 1), g->o->bytes, 0);
  return TRUE;
}

static gboolean pairs_pingpong(gen *g, GError **error)
{
  for (int r = 0; r + 1 < g->o->ranks; r += 2) {
    add_pair(g, r, r + 1, r + 1, g->o->bytes, 0);
    add_pair(g, r + 1, r, r, g->o->bytes, 0);
  }
  return TRUE;
}

static gboolean pairs_alltoall(gen *g, GError **error)
{
  int P = g->o->ranks;
  for (int r = 0; r < P; r++)
    for (int k = 1; k < P; k++)
      add_pair(g, r, (r + k) % P, (r + P - k) % P, g->o->bytes, 0);
  return TRUE;
}

static gboolean pairs_cg(gen *g, GError **error)
{
  int dims[4];
  if (!grid(g->o, 2, dims, error))
    return FALSE;
  int C = dims[0], R = dims[1];
  for (int r = 0; r < g->o->ranks; r++) {
    int col = r % C, row = r / C;
    for (int k = 1; k < C; k *= 2)
      if ((col ^ k) < C)
        add_pair(g, r, row * C + (col ^ k), row * C + (col ^ k), g->o->bytes, (uint32_t)k);
    if (R == C)
      add_pair(g, r, col * C + row, col * C + row, g->o->bytes, 1000);
  }
  return TRUE;
}

/* Zips per-rank send and receive lists (GArray of int peer, int64 bytes)
 * into pairs. */
static void zip_lists(gen *g, GArray **sto, GArray **sfrom)
{
  for (int r = 0; r < g->o->ranks; r++) {
    guint n = MAX(sto[r]->len, sfrom[r]->len);
    for (guint i = 0; i < n; i++) {
      int64_t *s = i < sto[r]->len ? &g_array_index(sto[r], int64_t, i) : NULL;
      int64_t *f = i < sfrom[r]->len ? &g_array_index(sfrom[r], int64_t, i) : NULL;
      /* entries are packed as peer * 2^32 + bytes */
      xpair p = { s ? (int)(*s >> 32) : -1, f ? (int)(*f >> 32) : -1,
                  s ? (*s & 0xffffffff) : 0, f ? (*f & 0xffffffff) : 0, 0 };
      g_array_append_val(g->pairs[r], p);
    }
  }
}

static GArray **lists_new(int P)
{
  GArray **l = g_new(GArray *, P);
  for (int r = 0; r < P; r++)
    l[r] = g_array_new(FALSE, FALSE, sizeof(int64_t));
  return l;
}

static void lists_free(GArray **l, int P)
{
  for (int r = 0; r < P; r++)
    g_array_free(l[r], TRUE);
  g_free(l);
}

static void link_msg(GArray **sto, GArray **sfrom, int src, int dst, int64_t bytes)
{
  int64_t a = ((int64_t)dst << 32) | bytes, b = ((int64_t)src << 32) | bytes;
  g_array_append_val(sto[src], a);
  g_array_append_val(sfrom[dst], b);
}

static gboolean check_bytes(const synth_opts *o, GError **error)
{
  if (o->bytes < 0 || o->bytes > 0xffffffffLL) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--bytes %" G_GINT64_FORMAT ": expected 0 .. 4294967295 for this pattern", o->bytes);
    return FALSE;
  }
  return TRUE;
}

static gboolean pairs_random(gen *g, GError **error)
{
  int P = g->o->ranks, deg = MIN(g->o->degree, P - 1);
  if (!check_bytes(g->o, error))
    return FALSE;
  GArray **sto = lists_new(P), **sfrom = lists_new(P);
  GRand *rng = g_rand_new_with_seed((guint32)(g->o->seed * 2654435761u));
  int *perm = g_new(int, P);
  for (int r = 0; r < P; r++) {
    int n = 0;
    for (int i = 0; i < P; i++)
      if (i != r)
        perm[n++] = i;
    for (int i = 0; i < deg; i++) {  /* partial Fisher-Yates */
      int j = g_rand_int_range(rng, i, n);
      int tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
    }
    for (int i = 0; i < deg; i++)
      link_msg(sto, sfrom, r, perm[i], g->o->bytes);
  }
  zip_lists(g, sto, sfrom);
  g_free(perm);
  g_rand_free(rng);
  lists_free(sto, P);
  lists_free(sfrom, P);
  return TRUE;
}

/* ---- spmv (deveci2015 Section IV-C) ------------------------------------ */

typedef struct {
  int n;          /* rows = columns */
  GArray *row, *col;
} mm_pattern;

static gboolean mm_fail(GError **error, const char *path, int line, const char *what)
{
  g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_INPUT, "%s:%d: %s", path, line, what);
  return FALSE;
}

/* Reads the nonzero pattern of a square MatrixMarket coordinate matrix
 * (symmetric ones are mirrored). Every error names the line at fault: the
 * entry beyond the count, or for a file that ends early its last line. */
static gboolean mm_read(const char *path, mm_pattern *m, GError **error)
{
  char *text = NULL;
  if (!budget_read_text(path, "a MatrixMarket matrix", &text, NULL, error))
    return FALSE;
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  gboolean ok = FALSE, sym = FALSE;
  long rows = 0, cols = 0, nnz = 0, seen = 0;
  int size_line = 0, last = 1; /* last: the last line that is not empty */
  for (int i = 0; lines[i]; i++) {
    char *l = g_strstrip(lines[i]);
    if (*l)
      last = i + 1;
    if (i == 0) {
      if (!g_str_has_prefix(l, "%%MatrixMarket matrix coordinate")) {
        mm_fail(error, path, 1, "bad header, expected '%%MatrixMarket matrix coordinate ...'");
        goto out;
      }
      sym = strstr(l, "symmetric") != NULL;
      continue;
    }
    if (*l == '%' || *l == '\0')
      continue;
    long a, b;
    if (!size_line) {
      if (sscanf(l, "%ld %ld %ld", &rows, &cols, &nnz) != 3 || rows != cols || rows <= 0 ||
          rows > BUDGET_MAX_RANKS || nnz < 0) {
        mm_fail(error, path, i + 1, "bad size line, expected 'N N NNZ' of a square matrix "
                "with N at most 2^24");
        goto out;
      }
      size_line = i + 1;
      m->n = (int)rows;
      continue;
    }
    if (sscanf(l, "%ld %ld", &a, &b) != 2 || a < 1 || a > rows || b < 1 || b > cols) {
      mm_fail(error, path, i + 1, "bad entry, expected 'i j [value]' with 1 <= i, j <= N");
      goto out;
    }
    if (seen == nnz) {
      g_autofree char *what = g_strdup_printf("more entries than the %ld the size line (line %d) "
                                              "says, expected NNZ entries", nnz, size_line);
      mm_fail(error, path, i + 1, what);
      goto out;
    }
    int ra = (int)a - 1, cb = (int)b - 1;
    g_array_append_val(m->row, ra);
    g_array_append_val(m->col, cb);
    if (sym && a != b) {
      g_array_append_val(m->row, cb);
      g_array_append_val(m->col, ra);
    }
    seen++;
  }
  if (!size_line) {
    mm_fail(error, path, last, "no size line, expected 'N N NNZ' after the header");
    goto out;
  }
  if (seen != nnz) {
    g_autofree char *what = g_strdup_printf("the file ends after %ld entries, expected the %ld "
                                            "the size line (line %d) says", seen, nnz, size_line);
    mm_fail(error, path, last, what);
    goto out;
  }
  ok = TRUE;
out:
  g_strfreev(lines);
  return ok;
}

/* part[i] for the n rows: from the file (one integer per line) or block. */
static int *read_partition(const char *path, int n, int P, GError **error)
{
  int *part = g_new(int, n);
  if (path == NULL) {
    for (int i = 0; i < n; i++)
      part[i] = (int)((int64_t)i * P / n);
    return part;
  }
  char *text = NULL;
  if (!budget_read_text(path, "a partition (one part per line)", &text, NULL, error)) {
    g_free(part);
    return NULL;
  }
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  int k = 0, last = 1; /* last: the last line that is not empty */
  for (int i = 0; lines[i] && part; i++) {
    char *l = g_strstrip(lines[i]), *end = NULL;
    if (*l)
      last = i + 1;
    if (*l == '\0' || *l == '#')
      continue;
    long v = strtol(l, &end, 10);
    if (*end || v < 0 || v >= P || k >= n) {
      mm_fail(error, path, i + 1, k >= n ? "more lines than matrix rows, expected one part per row"
                                          : "bad part, expected an integer in [0, ranks)");
      g_clear_pointer(&part, g_free);
      break;
    }
    part[k++] = (int)v;
  }
  if (part && k != n) {
    g_autofree char *what = g_strdup_printf("the file ends after %d parts, expected one part per "
                                            "row of the matrix's %d", k, n);
    mm_fail(error, path, last, what);
    g_clear_pointer(&part, g_free);
  }
  g_strfreev(lines);
  return part;
}

static gboolean pairs_spmv(gen *g, GError **error)
{
  int P = g->o->ranks;
  if (g->o->matrix == NULL) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--matrix: missing, expected a MatrixMarket file for pattern spmv");
    return FALSE;
  }
  mm_pattern m = { 0, g_array_new(FALSE, FALSE, sizeof(int)), g_array_new(FALSE, FALSE, sizeof(int)) };
  int *part = NULL;
  gboolean ok = mm_read(g->o->matrix, &m, error) && (part = read_partition(g->o->partition, m.n, P, error));
  if (!ok)
    goto out;
  /* distinct (needing rank, column) pairs -> words from owner(column) */
  GHashTable *need = g_hash_table_new(g_int64_hash, g_int64_equal);
  int64_t *keys = g_new(int64_t, MAX(m.row->len, 1));
  int64_t *words = g_new0(int64_t, (size_t)P * P);
  for (guint e = 0; e < m.row->len; e++) {
    int i = g_array_index(m.row, int, e), j = g_array_index(m.col, int, e);
    int p = part[i], q = part[j];
    keys[e] = (int64_t)p * m.n + j;
    if (p != q && !g_hash_table_contains(need, &keys[e])) {
      g_hash_table_add(need, &keys[e]);
      words[(size_t)q * P + p]++;
    }
  }
  GArray **sto = lists_new(P), **sfrom = lists_new(P);
  for (int q = 0; q < P; q++)
    for (int p = 0; p < P; p++)
      if (words[(size_t)q * P + p])
        link_msg(sto, sfrom, q, p, 8 * words[(size_t)q * P + p]);
  zip_lists(g, sto, sfrom);
  lists_free(sto, P);
  lists_free(sfrom, P);
  g_free(words);
  g_free(keys);
  g_hash_table_destroy(need);
out:
  g_free(part);
  g_array_free(m.row, TRUE);
  g_array_free(m.col, TRUE);
  return ok;
}

static gboolean pairs_stencil2d(gen *g, GError **error)
{
  return pairs_stencil(g, 2, error);
}

static gboolean pairs_stencil3d(gen *g, GError **error)
{
  return pairs_stencil(g, 3, error);
}

static gboolean pairs_stencil4d(gen *g, GError **error)
{
  return pairs_stencil(g, 4, error);
}

/* The patterns: gen's --list, its help, the unknown-pattern message and
 * the builders, one row each. */
const synth_pattern synth_patterns[] = {
  { "stencil2d", "2D halo exchange, 5- or 9-point (--points), periodic or open", pairs_stencil2d },
  { "stencil3d", "3D halo exchange, 7-point", pairs_stencil3d },
  { "stencil4d", "4D halo exchange, 9-point", pairs_stencil4d },
  { "ring", "r sends to r+1, receives from r-1", pairs_ring },
  { "alltoall", "pairwise exchange r -> r+k for k = 1..P-1", pairs_alltoall },
  { "pingpong", "ranks 2k and 2k+1: MPI_Send, then the reply back (OSU latency)", pairs_pingpong },
  { "cg", "NAS-CG-like row/transpose exchanges + 16-byte allreduce", pairs_cg },
  { "random", "each rank sends to --degree random ranks (seeded); blocking refused where it "
    "deadlocks", pairs_random },
  { "spmv", "y = Ax communication for --matrix M.mtx and --partition P (deveci2015 IV-C); "
    "blocking refused where it deadlocks", pairs_spmv },
  { "shift", "r sends to r+K, receives from r-K (--shift K; K = nodes per group: group shift)",
    pairs_shift },
  { "bitcomp", "bit complement: r exchanges with r XOR (P-1), P a power of two", pairs_bitcomp },
};

const int synth_npatterns = G_N_ELEMENTS(synth_patterns);

char *synth_pattern_names(void)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; i < synth_npatterns; i++)
    g_string_append_printf(s, "%s%s", i == 0 ? "" : i + 1 == synth_npatterns ? " or " : ", ",
                           synth_patterns[i].name);
  return g_string_free(s, FALSE);
}

gboolean synth_make_pairs(synth_gen *g, GError **error)
{
  const char *p = g->o->pattern;
  for (int i = 0; p && i < synth_npatterns; i++)
    if (strcmp(p, synth_patterns[i].name) == 0)
      return synth_patterns[i].pairs(g, error);
  g_autofree char *names = synth_pattern_names();
  g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION, "--pattern '%s': unknown, expected %s",
              p ? p : "", names);
  return FALSE;
}
