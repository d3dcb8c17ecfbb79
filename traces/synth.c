/* synth.c - synthetic traces (patterns and timing in synth.h). Each
 * pattern builds, per rank, the list of message pairs of one iteration;
 * one shared routine turns pairs into Score-P-like MPI records. The spmv
 * pattern follows deveci2015 ("Fast and high quality topology-aware task
 * mapping"), Section IV-C. O(ranks * iterations * neighbours).
 */
#include "traces/synth.h"
#include "traces/trace-private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/checked.h"

G_DEFINE_QUARK(synth-error-quark, synth_error)

#define RECORD_PS 10000 /* 10 ns per MPI record */

const synth_pattern synth_patterns[] = {
  { "stencil2d", "2D halo exchange, 5- or 9-point (--points), periodic or open" },
  { "stencil3d", "3D halo exchange, 7-point" },
  { "stencil4d", "4D halo exchange, 9-point" },
  { "ring", "r sends to r+1, receives from r-1" },
  { "alltoall", "pairwise exchange r -> r+k for k = 1..P-1" },
  { "pingpong", "ranks 2k and 2k+1: MPI_Send, then the reply back (OSU latency)" },
  { "cg", "NAS-CG-like row/transpose exchanges + 16-byte allreduce" },
  { "random", "each rank sends to --degree random ranks (seeded)" },
  { "spmv", "y = Ax communication for --matrix M.mtx and --partition P (deveci2015 IV-C)" },
  { "shift", "r sends to r+K, receives from r-K (--shift K; K = nodes per group: group shift)" },
  { "bitcomp", "bit complement: r exchanges with r XOR (P-1), P a power of two" },
};

const int synth_npatterns = G_N_ELEMENTS(synth_patterns);

void synth_opts_init(synth_opts *o)
{
  *o = (synth_opts){ .pattern = "ring", .ranks = 8, .bytes = 1024, .iterations = 10,
                     .gap_s = 1e-3, .seed = 1, .degree = 4, .shift = 1 };
}

/* One exchange slot: send `bytes` to `to` and receive from `from` (either
 * -1 for none), both with `tag`. Blocking mode makes it one MPI_Sendrecv. */
typedef struct {
  int to, from;
  int64_t to_bytes, from_bytes;
  uint32_t tag;
} xpair;

typedef struct {
  trace *t;
  const synth_opts *o;
  int64_t *clock;
  uint64_t *req;
  GRand **rng;
  GArray **pairs;  /* per rank: xpair of one iteration */
} gen;

static uint32_t region(gen *g, const char *name)
{
  for (int i = 0; i < g->t->nregions; i++)
    if (strcmp(g->t->regions[i], name) == 0)
      return (uint32_t)i;
  return trace_add_region(g->t, name);
}

static void emit(gen *g, int r, trace_event e)
{
  e.time = g->clock[r];
  e.comm = e.kind == TRACE_ENTER || e.kind == TRACE_LEAVE ? 0 : g->t->world;
  g->clock[r] += RECORD_PS;
  trace_push(g->t, r, &e);
}

static void enter(gen *g, int r, const char *name)
{
  emit(g, r, (trace_event){ .kind = TRACE_ENTER, .region = region(g, name) });
}

static void leave(gen *g, int r, const char *name)
{
  emit(g, r, (trace_event){ .kind = TRACE_LEAVE, .region = region(g, name) });
}

static void compute(gen *g, int r)
{
  double s = g->o->gap_s;
  if (g->o->gap_random)
    s = g_rand_double_range(g->rng[r], 0, 2 * s);
  g->clock[r] += (int64_t)llround(s * 1e12);
}

static void exchange_blocking(gen *g, int r, const xpair *p, guint n)
{
  for (guint i = 0; i < n; i++) {
    enter(g, r, "MPI_Sendrecv");
    if (p[i].to >= 0)
      emit(g, r, (trace_event){ .kind = TRACE_SEND, .peer = p[i].to, .tag = p[i].tag,
                                .bytes = p[i].to_bytes });
    if (p[i].from >= 0)
      emit(g, r, (trace_event){ .kind = TRACE_RECV, .peer = p[i].from, .tag = p[i].tag,
                                .bytes = p[i].from_bytes });
    leave(g, r, "MPI_Sendrecv");
  }
}

/* Ping-pong: the even rank of a pair sends first and waits for the reply,
 * the odd one receives first; blocking MPI_Send and MPI_Recv. */
static void exchange_pingpong(gen *g, int r, const xpair *p, guint n)
{
  for (guint i = 0; i < n; i++)
    for (int step = 0; step < 2; step++) {
      if ((step == 0) == (r % 2 == 0)) {
        enter(g, r, "MPI_Send");
        emit(g, r, (trace_event){ .kind = TRACE_SEND, .peer = p[i].to, .tag = p[i].tag,
                                  .bytes = p[i].to_bytes });
        leave(g, r, "MPI_Send");
      } else {
        enter(g, r, "MPI_Recv");
        emit(g, r, (trace_event){ .kind = TRACE_RECV, .peer = p[i].from, .tag = p[i].tag,
                                  .bytes = p[i].from_bytes });
        leave(g, r, "MPI_Recv");
      }
    }
}

static void exchange_nonblocking(gen *g, int r, const xpair *p, guint n)
{
  uint64_t base = g->req[r];
  for (guint i = 0; i < n; i++)
    if (p[i].from >= 0) {
      enter(g, r, "MPI_Irecv");
      emit(g, r, (trace_event){ .kind = TRACE_IRECV_REQUEST, .peer = -1, .request = base + 2 * i });
      leave(g, r, "MPI_Irecv");
    }
  for (guint i = 0; i < n; i++)
    if (p[i].to >= 0) {
      enter(g, r, "MPI_Isend");
      emit(g, r, (trace_event){ .kind = TRACE_ISEND, .peer = p[i].to, .tag = p[i].tag,
                                .bytes = p[i].to_bytes, .request = base + 2 * i + 1 });
      leave(g, r, "MPI_Isend");
    }
  enter(g, r, "MPI_Waitall");
  for (guint i = 0; i < n; i++)
    if (p[i].to >= 0)
      emit(g, r, (trace_event){ .kind = TRACE_ISEND_COMPLETE, .peer = -1,
                                .request = base + 2 * i + 1 });
  for (guint i = 0; i < n; i++)
    if (p[i].from >= 0)
      emit(g, r, (trace_event){ .kind = TRACE_IRECV, .peer = p[i].from, .tag = p[i].tag,
                                .bytes = p[i].from_bytes, .request = base + 2 * i });
  leave(g, r, "MPI_Waitall");
  g->req[r] = base + 2 * n;
}

/* An allreduce of a `bytes` vector on MPI_COMM_WORLD. */
static void allreduce(gen *g, int r, int64_t bytes)
{
  int64_t sent, recvd = 0;
  coll_record_of_contrib(COLL_ALLREDUCE, g->t->nranks, r, FALSE, bytes, &sent, &recvd);
  enter(g, r, "MPI_Allreduce");
  emit(g, r, (trace_event){ .kind = TRACE_COLL_BEGIN, .peer = -1 });
  emit(g, r, (trace_event){ .kind = TRACE_COLL_END, .op = COLL_ALLREDUCE, .peer = -1,
                            .bytes = bytes, .bytes_recv = recvd });
  leave(g, r, "MPI_Allreduce");
}

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

/* ---- driver -------------------------------------------------------------- */

static gboolean make_pairs(gen *g, GError **error)
{
  const char *p = g->o->pattern;
  if (strcmp(p, "stencil2d") == 0)
    return pairs_stencil(g, 2, error);
  if (strcmp(p, "stencil3d") == 0)
    return pairs_stencil(g, 3, error);
  if (strcmp(p, "stencil4d") == 0)
    return pairs_stencil(g, 4, error);
  if (strcmp(p, "ring") == 0)
    return pairs_ring(g, error);
  if (strcmp(p, "alltoall") == 0)
    return pairs_alltoall(g, error);
  if (strcmp(p, "pingpong") == 0)
    return pairs_pingpong(g, error);
  if (strcmp(p, "cg") == 0)
    return pairs_cg(g, error);
  if (strcmp(p, "random") == 0)
    return pairs_random(g, error);
  if (strcmp(p, "spmv") == 0)
    return pairs_spmv(g, error);
  if (strcmp(p, "shift") == 0)
    return pairs_shift(g, error);
  if (strcmp(p, "bitcomp") == 0)
    return pairs_bitcomp(g, error);
  g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
              "--pattern '%s': unknown, expected stencil2d, stencil3d, stencil4d, ring, alltoall, "
              "pingpong, cg, random, spmv, shift or bitcomp", p ? p : "");
  return FALSE;
}

static gboolean check_opts(const synth_opts *o, GError **error)
{
  const char *bad = o->ranks < 1 || o->ranks > (1 << 24) ? "--ranks: expected 1 .. 16777216"
                    : o->iterations < 0 ? "--iterations: expected >= 0"
                    : o->bytes < 0 ? "--bytes: expected >= 0"
                    : !(o->gap_s >= 0 && o->gap_s < 1e6) ? "--gap: expected 0 <= seconds < 1e6"
                    : o->degree < 0 ? "--degree: expected >= 0" : NULL;
  if (bad)
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION, "%s", bad);
  return bad == NULL;
}

/* What the trace will hold, checked before it is built: its records (all
 * of them, or with `streamed` one rank's, the most held at once) against
 * the memory budget, its bytes and its length against int64. At most 8
 * records per exchange slot and 6 per rank (a Waitall, an Allreduce) each
 * iteration. */
static gboolean check_size(const gen *g, gboolean streamed, GError **error)
{
  const synth_opts *o = g->o;
  double slots = 0, bytes = 0, longest = 0;
  for (int r = 0; r < o->ranks; r++) {
    const xpair *p = (const xpair *)(void *)g->pairs[r]->data;
    for (guint i = 0; i < g->pairs[r]->len; i++)
      bytes += p[i].to >= 0 ? (double)p[i].to_bytes : 0;
    slots += g->pairs[r]->len;
    longest = MAX(longest, (double)g->pairs[r]->len);
  }
  double it = o->iterations;
  double records = (streamed ? 8 * longest + 6 : 8 * slots + 6 * o->ranks) * it;
  if (!budget_check_memory(streamed ? "gen: the records of one rank" : "gen: the trace",
                           (uint64_t)MIN(records * sizeof(trace_event), 1.8e19), error))
    return FALSE;
  if (bytes * it >= 9.2e18) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--bytes %" G_GINT64_FORMAT ": %.3g bytes in all over %d iterations, expected "
                "a total below 2^63", o->bytes, bytes * it, o->iterations);
    return FALSE;
  }
  double ps = it * ((o->gap_random ? 2 : 1) * o->gap_s * 1e12 + (8 * longest + 6) * RECORD_PS);
  if (ps >= 9.2e18) {
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--iterations %d x --gap %g s: the trace would last %.3g s, expected less than "
                CHECKED_PS_LIMIT, o->iterations, o->gap_s, ps * 1e-12);
    return FALSE;
  }
  return TRUE;
}

/* The pattern's pairs and an empty trace of its ranks, its size checked
 * (check_size). */
static gboolean gen_init(gen *g, const synth_opts *o, gboolean streamed, GError **error)
{
  memset(g, 0, sizeof *g);
  if (!check_opts(o, error))
    return FALSE;
  int P = o->ranks;
  *g = (gen){ trace_new(P), o, g_new0(int64_t, P), g_new0(uint64_t, P), g_new(GRand *, P),
              g_new(GArray *, P) };
  for (int r = 0; r < P; r++) {
    /* a generator is 2.5 KiB: only for random gaps (655 MB at 262,144 ranks) */
    g->rng[r] = o->gap_random ? g_rand_new_with_seed((guint32)(o->seed * 1000003u + (uint64_t)r))
                              : NULL;
    g->pairs[r] = g_array_new(FALSE, FALSE, sizeof(xpair));
    g->req[r] = 1;
  }
  return make_pairs(g, error) && check_size(g, streamed, error);
}

static void gen_clear(gen *g)
{
  if (!g->o)
    return;
  for (int r = 0; r < g->o->ranks; r++) {
    if (g->rng[r])
      g_rand_free(g->rng[r]);
    g_array_free(g->pairs[r], TRUE);
  }
  trace_free(g->t);
  g_free(g->clock);
  g_free(g->req);
  g_free(g->rng);
  g_free(g->pairs);
}

/* Every iteration of rank r (ranks are independent: own clock, request
 * ids and random gaps, so generating rank by rank gives the same records
 * as iteration by iteration, and regions are first used by rank 0). */
static void gen_rank(gen *g, int r)
{
  gboolean blocking = !g->o->nonblocking, cg = strcmp(g->o->pattern, "cg") == 0;
  gboolean pingpong = strcmp(g->o->pattern, "pingpong") == 0;
  const xpair *p = (const xpair *)g->pairs[r]->data;
  guint n = g->pairs[r]->len;
  for (int it = 0; it < g->o->iterations; it++) {
    compute(g, r);
    if (pingpong)
      exchange_pingpong(g, r, p, n);
    else if (blocking)
      exchange_blocking(g, r, p, n);
    else
      exchange_nonblocking(g, r, p, n);
    if (cg)
      allreduce(g, r, 16);
  }
  g->t->duration_ps = MAX(g->t->duration_ps, g->clock[r]);
}

trace *synth_build(const synth_opts *o, GError **error)
{
  gen g;
  if (!gen_init(&g, o, FALSE, error)) {
    gen_clear(&g);
    return NULL;
  }
  for (int r = 0; r < o->ranks; r++)
    gen_rank(&g, r);
  trace_shrink(g.t);
  trace *t = g_steal_pointer(&g.t);
  gen_clear(&g);
  return t;
}

gboolean synth_write(const synth_opts *o, const char *dir, const progress *pr, GError **error)
{
  gen g;
  otf2_out *out = NULL;
  gboolean ok = gen_init(&g, o, TRUE, error) && (out = otf2_out_open(dir, g.t, pr, error));
  for (int r = 0; ok && r < o->ranks; r++) {
    gen_rank(&g, r);
    trace_rank *tr = &g.t->ranks[r];
    ok = otf2_out_rank(out, g.t, r, tr->events, tr->nevents, error);
    g_clear_pointer(&tr->events, g_free);
    tr->nevents = tr->capacity = 0;
    if ((r & 1023) == 1023 || r + 1 == o->ranks) {
      progress_report(pr, "gen: ranks written", (uint64_t)r + 1, (uint64_t)o->ranks);
      if (ok && !progress_check(pr, error))
        ok = FALSE; /* "interrupted": the archive's temporary is removed */
    }
  }
  if (out) {
    if (ok)
      ok = otf2_out_close(out, g.t, error);
    else
      otf2_out_abort(out);
  }
  gen_clear(&g);
  return ok;
}

gboolean synth_parse_dims(const char *spec, int *dims, GError **error)
{
  char **parts = g_strsplit(spec, "x", -1);
  int n = (int)g_strv_length(parts);
  gboolean ok = n >= 1 && n <= 4;
  for (int i = 0; ok && i < n; i++) {
    char *end = NULL;
    long v = strtol(parts[i], &end, 10);
    ok = end != parts[i] && *end == '\0' && v >= 1 && v <= (1 << 24);
    dims[i] = (int)v;
  }
  g_strfreev(parts);
  if (!ok)
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--dims '%s': expected 1 to 4 positive sizes like 4x4x4", spec);
  return ok;
}
