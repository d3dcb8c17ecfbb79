/* simgrid-ti-actions.c - SimGrid's time-independent actions, one rank at a
 * time, into trace records (simgrid-ti-private.h; the rules are in
 * input-simgrid-ti.c's header comment), and the line reader both files use.
 * SMPI's replay (src/smpi/internals/smpi_replay.cpp) is where the layout
 * of each action's fields and its sizes were learnt.
 */
#include "traces/simgrid-ti-private.h"
#include "traces/collectives.h"
#include "traces/simgrid-ti.h"
#include "util/budget.h"
#include "util/checked.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* What an action does. */
typedef enum {
  TI_INIT, TI_FINALIZE, TI_REGION, TI_COMPUTE, TI_SLEEP, TI_NOTHING, TI_SEND, TI_ISEND,
  TI_RECV, TI_IRECV, TI_TEST, TI_WAIT, TI_WAITALL, TI_SENDRECV, TI_COLL,
} ti_does;

/* SMPI's actions: {name, what it does, collective op, MPI region, mandatory
 * arguments: fixed + per_rank x ranks, the arguments for messages}. */
typedef struct ti_action {
  const char *name;
  ti_does does;
  coll_op op;
  const char *region;
  int fixed, per_rank;
  const char *args;
} ti_action;

static const ti_action ti_actions[] = {
  { "init", TI_INIT, 0, "MPI_Init", 0, 0, "[ANY: MPI_DOUBLE is the default datatype]" },
  { "finalize", TI_FINALIZE, 0, "MPI_Finalize", 0, 0, "" },
  { "comm_size", TI_REGION, 0, "MPI_Comm_size", 0, 0, "" },
  { "comm_split", TI_REGION, 0, "MPI_Comm_split", 0, 0, "" },
  { "comm_dup", TI_REGION, 0, "MPI_Comm_dup", 0, 0, "" },
  { "compute", TI_COMPUTE, 0, NULL, 1, 0, "FLOPS" },
  { "sleep", TI_SLEEP, 0, NULL, 1, 0, "SECONDS" },
  { "location", TI_NOTHING, 0, NULL, 2, 0, "FILE LINE" },
  { "send", TI_SEND, 0, "MPI_Send", 3, 0, "PEER TAG COUNT [DATATYPE]" },
  { "isend", TI_ISEND, 0, "MPI_Isend", 3, 0, "PEER TAG COUNT [DATATYPE]" },
  { "recv", TI_RECV, 0, "MPI_Recv", 3, 0, "PEER TAG COUNT [DATATYPE]" },
  { "irecv", TI_IRECV, 0, "MPI_Irecv", 3, 0, "PEER TAG COUNT [DATATYPE]" },
  { "test", TI_TEST, 0, "MPI_Test", 3, 0, "SRC DST TAG" },
  { "wait", TI_WAIT, 0, "MPI_Wait", 3, 0, "SRC DST TAG" },
  { "waitall", TI_WAITALL, 0, "MPI_Waitall", 0, 0, "" },
  { "sendRecv", TI_SENDRECV, 0, "MPI_Sendrecv", 4, 0,
    "SENDCOUNT DST RECVCOUNT SRC [SENDTYPE RECVTYPE]" },
  { "barrier", TI_COLL, COLL_BARRIER, "MPI_Barrier", 0, 0, "" },
  { "bcast", TI_COLL, COLL_BCAST, "MPI_Bcast", 1, 0, "COUNT [ROOT [DATATYPE]]" },
  { "reduce", TI_COLL, COLL_REDUCE, "MPI_Reduce", 2, 0, "COUNT FLOPS [ROOT [DATATYPE]]" },
  { "allreduce", TI_COLL, COLL_ALLREDUCE, "MPI_Allreduce", 2, 0, "COUNT FLOPS [DATATYPE]" },
  { "alltoall", TI_COLL, COLL_ALLTOALL, "MPI_Alltoall", 2, 0,
    "SENDCOUNT RECVCOUNT [SENDTYPE RECVTYPE]" },
  { "alltoallv", TI_COLL, COLL_ALLTOALLV, "MPI_Alltoallv", 2, 2,
    "SENDBUF SENDCOUNTS(ranks) RECVBUF RECVCOUNTS(ranks) [SENDTYPE RECVTYPE]" },
  { "gather", TI_COLL, COLL_GATHER, "MPI_Gather", 2, 0,
    "SENDCOUNT RECVCOUNT [ROOT [SENDTYPE RECVTYPE]]" },
  { "gatherv", TI_COLL, COLL_GATHERV, "MPI_Gatherv", 1, 1,
    "SENDCOUNT RECVCOUNTS(ranks) [ROOT [SENDTYPE RECVTYPE]]" },
  { "scatter", TI_COLL, COLL_SCATTER, "MPI_Scatter", 2, 0,
    "SENDCOUNT RECVCOUNT [ROOT [SENDTYPE RECVTYPE]]" },
  { "scatterv", TI_COLL, COLL_SCATTERV, "MPI_Scatterv", 1, 1,
    "SENDCOUNTS(ranks) RECVCOUNT [ROOT [SENDTYPE RECVTYPE]]" },
  { "allgather", TI_COLL, COLL_ALLGATHER, "MPI_Allgather", 2, 0,
    "SENDCOUNT RECVCOUNT [SENDTYPE RECVTYPE]" },
  { "allgatherv", TI_COLL, COLL_ALLGATHERV, "MPI_Allgatherv", 1, 1,
    "SENDCOUNT RECVCOUNTS(ranks) [SENDTYPE RECVTYPE] [DISPLS(ranks)]" },
  { "reducescatter", TI_COLL, COLL_REDUCE_SCATTER, "MPI_Reduce_scatter", 1, 1,
    "RECVCOUNTS(ranks) FLOPS [DATATYPE]" },
  { "scan", TI_COLL, COLL_SCAN, "MPI_Scan", 2, 0, "COUNT FLOPS [DATATYPE]" },
  { "exscan", TI_COLL, COLL_EXSCAN, "MPI_Exscan", 2, 0, "COUNT FLOPS [DATATYPE]" },
};

/* Bytes of SMPI's predefined datatypes by id (smpi_datatype.cpp's
 * CREATE_MPI_DATATYPE rows, sizeof on x86-64; 55 and 56 are MPI_UB and
 * MPI_LB, of no size; -1 is MPI_DATATYPE_NULL). */
static const uint8_t ti_datatype_bytes[] = {
  8, 4, 1, 2, 8, 4, 1, 8, 1, 1,      /* double int char short long float byte long_long schar uchar */
  2, 4, 8, 8, 16, 4, 1, 1, 2, 4,     /* ushort unsigned ulong ull long_double wchar c_bool int8..32 */
  8, 1, 2, 4, 8, 8, 16, 32, 8, 8,    /* int64 uint8..64 c complexes aint offset */
  8, 16, 16, 8, 8, 8, 16, 16, 4, 4,  /* float_int long_int double_int short_int 2int 2float 2double 2long real real4 */
  8, 16, 8, 16, 16, 4, 2, 4, 8, 16,  /* real8 real16 complex8..32 integer1..16 */
  32, 1, 8, 16, 32, 0, 0, 1, 8, 8,   /* long_double_int cxx_bool cxx complexes ub lb packed ptr count */
};
enum { TI_BYTE = 6, TI_DOUBLE = 0 };


/* The longest line read: a vector collective has two counts per rank. */
size_t ti_max_line(int nranks)
{
  return MAX((size_t)1 << 20, 64 + 48 * (size_t)nranks);
}

/* ---- reading lines ---- */


gboolean ti_fail(GError **error, const ti_lines *in, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s:%" G_GINT64_FORMAT ": %s", in->path,
              in->line, what);
  return FALSE;
}

gboolean ti_lines_open(ti_lines *in, const char *path, size_t max, GError **error)
{
  memset(in, 0, sizeof *in);
  in->path = path;
  in->max = max;
  in->f = g_fopen(path, "rb");
  if (!in->f) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: %s, expected a readable SimGrid "
                "time-independent trace", path, g_strerror(errno));
    return FALSE;
  }
  in->text = g_string_sized_new(256);
  in->fields = g_ptr_array_new();
  return TRUE;
}

void ti_lines_close(ti_lines *in)
{
  if (in->f)
    fclose(in->f);
  if (in->text)
    g_string_free(in->text, TRUE);
  if (in->fields)
    g_ptr_array_free(in->fields, TRUE);
  memset(in, 0, sizeof *in);
}

gboolean ti_lines_seek(ti_lines *in, int64_t off, int64_t line, GError **error)
{
  if (fseeko(in->f, off, SEEK_SET) != 0) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: %s, expected a seekable file", in->path,
                g_strerror(errno));
    return FALSE;
  }
  in->next = off;
  in->line = line;
  return TRUE;
}

static inline gboolean is_blank(int c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next line that holds fields (blank lines and '#' comments skipped),
 * split into in->fields: TRUE with *got FALSE at the end of the file.
 * Byte by byte without the stream's lock (one reader per stream), the
 * offset counted rather than asked for (ftello is a system call): a line
 * never costs more than `max` bytes, however long it is in the file. */
gboolean ti_lines_next(ti_lines *in, gboolean *got, GError **error)
{
  *got = FALSE;
  for (;;) {
    g_string_truncate(in->text, 0);
    in->off = in->next;
    int64_t consumed = 0;
    int c;
    while ((c = getc_unlocked(in->f)) != EOF) {
      consumed++;
      if (c == '\n')
        break;
      if (c == '\0')
        return ti_fail(error, in, "a NUL byte, expected a text file of SimGrid actions");
      if (in->truncate && is_blank(c) &&
          (in->text->len == 0 || is_blank(in->text->str[in->text->len - 1])))
        continue; /* cut lines keep their first fields, whatever the blanks */
      if (in->text->len < in->max)
        g_string_append_c(in->text, (char)c);
      else if (!in->truncate)
        return ti_fail(error, in, "a line longer than %zu bytes, expected SimGrid actions", in->max);
    }
    if (ferror(in->f)) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: %s, expected a readable file", in->path,
                  g_strerror(errno));
      return FALSE;
    }
    if (c == EOF && in->text->len == 0 && consumed == 0)
      return TRUE;
    in->line++;
    in->next = in->off + consumed;
    g_ptr_array_set_size(in->fields, 0);
    for (char *p = in->text->str; *p;) {
      while (is_blank(*p))
        *p++ = '\0';
      if (!*p)
        break;
      g_ptr_array_add(in->fields, p);
      while (*p && !is_blank(*p))
        p++;
    }
    if (in->fields->len == 0 || *(const char *)in->fields->pdata[0] == '#')
      continue;
    *got = TRUE;
    return TRUE;
  }
}


static const ti_action *ti_action_named(const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(ti_actions); i++)
    if (strcmp(ti_actions[i].name, name) == 0)
      return &ti_actions[i];
  return NULL;
}

static gboolean parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
  gint64 v;
  if (!g_ascii_string_to_signed(s, 10, lo, hi, &v, NULL))
    return FALSE;
  *out = v;
  return TRUE;
}

/* A rank field: FALSE when it is not one. */
gboolean ti_parse_rank(const char *s, int64_t *rank)
{
  return parse_int(s, 0, BUDGET_MAX_RANKS - 1, rank);
}

/* ---- one rank's actions into records ---- */

/* An open request, as SMPI's request store keys it (src, dst, tag). */
typedef struct ti_req {
  int32_t src, dst;
  uint32_t tag;
  uint64_t id;
  int64_t bytes;
  gboolean send;
  GList *link;           /* in the rank's posting order */
} ti_req;


static void queue_free(gpointer q)
{
  g_queue_free_full(q, g_free);
}


void ti_rank_init(ti_rank *st, int rank, int nranks, const uint32_t *region, ti_emit_fn emit,
                      void *user)
{
  *st = (ti_rank){ .rank = rank, .nranks = nranks, .region = region,
                   .dtype = ti_datatype_bytes[TI_BYTE], .next_id = 1, .emit = emit, .user = user };
  g_queue_init(&st->order);
}

void ti_rank_clear(ti_rank *st)
{
  if (st->open)
    g_hash_table_destroy(st->open);
  g_queue_clear(&st->order);
  st->open = NULL;
}

static void put(ti_rank *st, trace_event e)
{
  e.time = st->now;
  st->emit(st->user, st->rank, &e);
}

static void region(ti_rank *st, const ti_action *a, gboolean enter)
{
  put(st, (trace_event){ .kind = enter ? TRACE_ENTER : TRACE_LEAVE,
                         .region = st->region[a - ti_actions] });
}

static void post(ti_rank *st, gboolean send, int32_t peer, uint32_t tag, int64_t bytes)
{
  ti_req *q = g_new0(ti_req, 1);
  *q = (ti_req){ send ? st->rank : peer, send ? peer : st->rank, tag, st->next_id++, bytes, send,
                 NULL };
  ti_key k = { q->src, q->dst, q->tag };
  if (!st->open) /* made on first use: a shared file read whole has a state per rank */
    st->open = g_hash_table_new_full(ti_key_hash, ti_key_equal, g_free, queue_free);
  GQueue *list = g_hash_table_lookup(st->open, &k);
  if (!list) {
    list = g_queue_new();
    g_hash_table_insert(st->open, g_memdup2(&k, sizeof k), list);
  }
  g_queue_push_tail(list, q);
  g_queue_push_tail(&st->order, q);
  q->link = st->order.tail;
  if (send)
    put(st, (trace_event){ .kind = TRACE_ISEND, .peer = peer, .tag = tag, .bytes = bytes,
                           .request = q->id });
  else
    put(st, (trace_event){ .kind = TRACE_IRECV_REQUEST, .request = q->id });
}

/* The completion record of q, which leaves the store. */
static void complete(ti_rank *st, ti_req *q)
{
  if (q->send)
    put(st, (trace_event){ .kind = TRACE_ISEND_COMPLETE, .request = q->id });
  else
    put(st, (trace_event){ .kind = TRACE_IRECV, .peer = q->src, .tag = q->tag, .bytes = q->bytes,
                           .request = q->id });
  ti_key k = { q->src, q->dst, q->tag };
  GQueue *list = g_hash_table_lookup(st->open, &k);
  g_queue_remove(list, q);
  if (g_queue_is_empty(list))
    g_hash_table_remove(st->open, &k);
  g_queue_delete_link(&st->order, q->link);
  g_free(q);
}

/* Every open request, in posting order, inside a Waitall region. */
void ti_rank_finish(ti_rank *st)
{
  if (g_queue_is_empty(&st->order))
    return;
  const ti_action *waitall = ti_action_named("waitall");
  region(st, waitall, TRUE);
  while (!g_queue_is_empty(&st->order))
    complete(st, g_queue_peek_head(&st->order));
  region(st, waitall, FALSE);
}

/* A count as SMPI reads one (a number, truncated), times `dtype` bytes. */
static gboolean count_bytes(const ti_lines *in, int i, int64_t dtype, gboolean negative_ok,
                            int64_t *out, GError **error)
{
  const char *s = TI_FIELD(in, i);
  char *end = NULL;
  double v = g_ascii_strtod(s, &end);
  if (end == s || *end || !isfinite(v) || fabs(v) >= 9.2e18 || (v < 0 && !negative_ok))
    return ti_fail(error, in, "field %d is '%s', expected a count (a number of 0 or more)", i + 1, s);
  int64_t n = v < 0 ? 0 : (int64_t)trunc(v);
  if (!checked_mul_i64(n, dtype, out))
    return ti_fail(error, in, "%s elements of %" G_GINT64_FORMAT " bytes, expected a size below 2^63 "
                "bytes", s, dtype);
  return TRUE;
}

/* Field i (0: the rank) when there is one: a datatype id's size; else the
 * rank's default. */
static gboolean datatype(const ti_lines *in, int i, const ti_rank *st, int64_t *bytes,
                         GError **error)
{
  if ((guint)i >= in->fields->len) {
    *bytes = st->dtype;
    return TRUE;
  }
  int64_t id;
  if (!parse_int(TI_FIELD(in, i), -1, (int64_t)G_N_ELEMENTS(ti_datatype_bytes) - 1, &id))
    return ti_fail(error, in, "field %d is '%s', expected a datatype id from -1 to %d (SMPI's "
                "Datatype::encode)", i + 1, TI_FIELD(in, i), (int)G_N_ELEMENTS(ti_datatype_bytes) - 1);
  *bytes = id < 0 ? 0 : ti_datatype_bytes[id];
  return TRUE;
}

static gboolean peer_field(const ti_lines *in, int i, const ti_rank *st, int64_t *peer,
                           GError **error)
{
  if (parse_int(TI_FIELD(in, i), 0, st->nranks - 1, peer))
    return TRUE;
  return ti_fail(error, in, "field %d is '%s', expected a rank from 0 to %d", i + 1, TI_FIELD(in, i),
              st->nranks - 1);
}

static gboolean tag_field(const ti_lines *in, int i, uint32_t *tag, GError **error)
{
  int64_t v;
  if (!parse_int(TI_FIELD(in, i), 0, INT32_MAX, &v))
    return ti_fail(error, in, "field %d is '%s', expected a tag from 0 to %d", i + 1, TI_FIELD(in, i),
                INT32_MAX);
  *tag = (uint32_t)v;
  return TRUE;
}

/* An amount of work: ps from flops (TI_FLOPS_PER_S) or seconds. */
static gboolean advance(ti_rank *st, const ti_lines *in, int i, double ps_per_unit, GError **error)
{
  const char *s = TI_FIELD(in, i);
  char *end = NULL;
  double v = g_ascii_strtod(s, &end);
  if (end == s || *end || !isfinite(v) || v < 0)
    return ti_fail(error, in, "field %d is '%s', expected an amount of 0 or more", i + 1, s);
  int64_t ps = saturating_ps(v * ps_per_unit);
  if (ps == INT64_MAX || !checked_add_i64(st->now, ps, &st->now))
    return ti_fail(error, in, "the rank's time exceeds " CHECKED_PS_LIMIT ", expected less work");
  return TRUE;
}

/* Sum of `n` counts from field `first`, times `dtype`. */
static gboolean count_sum(const ti_lines *in, int first, int n, int64_t dtype, int64_t *sum,
                          GError **error)
{
  *sum = 0;
  for (int i = 0; i < n; i++) {
    int64_t b;
    if (!count_bytes(in, first + i, dtype, FALSE, &b, error))
      return FALSE;
    if (!checked_add_i64(*sum, b, sum))
      return ti_fail(error, in, "the counts add up to 2^63 bytes or more, expected less");
  }
  return TRUE;
}

/* A collective: the rank's contribution (collectives.h), its root, what it
 * receives where the line says, and the computation that follows. Field
 * numbers as SMPI's parsers (smpi_replay.cpp) read them; 2 is the first
 * argument. */
static gboolean collective(ti_rank *st, const ti_lines *in, const ti_action *a, GError **error)
{
  const int P = st->nranks, nf = (int)in->fields->len;
  int64_t contrib = 0, recvd = 0, root = -1, d1 = st->dtype, d2 = st->dtype, sent = 0;
  int comp = -1, root_at = -1;
  gboolean ok = TRUE;
  switch (a->op) {
  case COLL_BARRIER:
    break;
  case COLL_BCAST:
    root_at = 3;
    ok = datatype(in, 4, st, &d1, error) && count_bytes(in, 2, d1, FALSE, &contrib, error);
    break;
  case COLL_REDUCE:
    root_at = 4;
    comp = 3;
    ok = datatype(in, 5, st, &d1, error) && count_bytes(in, 2, d1, FALSE, &contrib, error);
    break;
  case COLL_ALLREDUCE:
  case COLL_SCAN:
  case COLL_EXSCAN:
    comp = 3;
    ok = datatype(in, 4, st, &d1, error) && count_bytes(in, 2, d1, FALSE, &contrib, error);
    break;
  case COLL_ALLTOALL:
    if (!datatype(in, 4, st, &d1, error) || !datatype(in, 5, st, &d2, error) ||
        !count_bytes(in, 2, d1, FALSE, &contrib, error) ||
        !count_bytes(in, 3, d2, FALSE, &recvd, error))
      return FALSE;
    if (!checked_mul_i64(contrib, P, &contrib) || !checked_mul_i64(recvd, P, &recvd))
      return ti_fail(error, in, "blocks of 2^63 bytes or more to all ranks, expected less");
    break;
  case COLL_ALLTOALLV:
    ok = datatype(in, 4 + 2 * P, st, &d1, error) && datatype(in, 5 + 2 * P, st, &d2, error) &&
         count_sum(in, 3, P, d1, &contrib, error) && count_sum(in, 4 + P, P, d2, &recvd, error);
    break;
  case COLL_GATHER:
  case COLL_ALLGATHER:
  case COLL_SCATTER: {
    int dt = a->op == COLL_ALLGATHER ? 4 : 5;
    root_at = a->op == COLL_ALLGATHER ? -1 : 4;
    ok = datatype(in, dt, st, &d1, error) && datatype(in, dt + 1, st, &d2, error) &&
         (a->op == COLL_SCATTER ? count_bytes(in, 3, d2, FALSE, &contrib, error)
                                : count_bytes(in, 2, d1, FALSE, &contrib, error));
    recvd = a->op == COLL_SCATTER ? contrib : 0;
    break;
  }
  case COLL_GATHERV:
    root_at = 3 + P;
    ok = datatype(in, 4 + P, st, &d1, error) && datatype(in, 5 + P, st, &d2, error) &&
         count_bytes(in, 2, d1, FALSE, &contrib, error) && count_sum(in, 3, P, d2, &recvd, error);
    break;
  case COLL_ALLGATHERV: {
    /* SMPI's three layouts by the number of fields: datatypes then
     * displacements, displacements alone, or datatypes alone */
    int need = 0;
    if (nf > 3 + 2 * P)
      need = 5 + 2 * P;
    else if (nf > 5 + P)
      need = 3 + 2 * P;
    if (need && nf < need)
      return ti_fail(error, in, "%d fields, expected %d for '%s %s' (its displacements)", nf, need,
                  a->name, a->args);
    if (need != 3 + 2 * P)
      ok = datatype(in, 3 + P, st, &d1, error) && datatype(in, 4 + P, st, &d2, error);
    ok = ok && count_bytes(in, 2, d1, FALSE, &contrib, error) &&
         count_sum(in, 3, P, d2, &recvd, error);
    break;
  }
  case COLL_SCATTERV:
    root_at = 3 + P;
    ok = datatype(in, 4 + P, st, &d1, error) && datatype(in, 5 + P, st, &d2, error) &&
         count_bytes(in, 2 + P, d2, FALSE, &contrib, error) &&
         count_sum(in, 2, P, d1, &sent, error); /* checked, not kept: the root's blocks */
    recvd = contrib;
    break;
  case COLL_REDUCE_SCATTER:
    /* the contribution is the rank's own block (collectives.h); every
     * block is checked */
    comp = 2 + P;
    ok = datatype(in, 3 + P, st, &d1, error) && count_sum(in, 2, P, d1, &sent, error) &&
         count_bytes(in, 2 + st->rank, d1, FALSE, &contrib, error);
    break;
  default:
    g_assert_not_reached();
  }
  if (!ok)
    return FALSE;
  if (root_at >= 0) {
    root = 0;
    if (root_at < nf && !peer_field(in, root_at, st, &root, error))
      return FALSE;
  }
  region(st, a, TRUE);
  put(st, (trace_event){ .kind = TRACE_COLL_BEGIN });
  put(st, (trace_event){ .kind = TRACE_COLL_END, .op = a->op, .peer = (int32_t)root,
                         .bytes = contrib, .bytes_recv = recvd });
  region(st, a, FALSE);
  return comp < 0 || advance(st, in, comp, 1e12 / TI_FLOPS_PER_S, error);
}

/* One action line of this rank. */
gboolean ti_rank_action(ti_rank *st, const ti_lines *in, GError **error)
{
  const int nf = (int)in->fields->len;
  const ti_action *a = ti_action_named(TI_FIELD(in, 1));
  if (!a)
    return ti_fail(error, in, "unknown action '%s', expected one of SMPI's replay actions (init, "
                "send, recv, compute, bcast, ...)", TI_FIELD(in, 1));
  int64_t need = 2 + a->fixed + (int64_t)a->per_rank * st->nranks;
  if (nf < need)
    return ti_fail(error, in, "%d fields, expected %" G_GINT64_FORMAT " for 'RANK %s %s' on %d ranks",
                nf, need, a->name, a->args, st->nranks);
  int64_t peer, peer2, bytes, bytes2, d1 = st->dtype, d2 = st->dtype;
  uint32_t tag;
  switch (a->does) {
  case TI_INIT:
    if (nf > 2)
      st->dtype = ti_datatype_bytes[TI_DOUBLE];
    /* fall through */
  case TI_REGION:
    region(st, a, TRUE);
    region(st, a, FALSE);
    return TRUE;
  case TI_FINALIZE:
    ti_rank_finish(st);
    region(st, a, TRUE);
    region(st, a, FALSE);
    return TRUE;
  case TI_COMPUTE:
    return advance(st, in, 2, 1e12 / TI_FLOPS_PER_S, error);
  case TI_SLEEP:
    return advance(st, in, 2, 1e12, error);
  case TI_NOTHING:
    return TRUE;
  case TI_SEND:
  case TI_ISEND:
  case TI_RECV:
  case TI_IRECV: {
    gboolean send = a->does == TI_SEND || a->does == TI_ISEND;
    if (!peer_field(in, 2, st, &peer, error) || !tag_field(in, 3, &tag, error) ||
        !datatype(in, 5, st, &d1, error) || !count_bytes(in, 4, d1, !send, &bytes, error))
      return FALSE;
    region(st, a, TRUE);
    if (a->does == TI_ISEND || a->does == TI_IRECV)
      post(st, send, (int32_t)peer, tag, bytes);
    else
      put(st, (trace_event){ .kind = send ? TRACE_SEND : TRACE_RECV, .peer = (int32_t)peer,
                             .tag = tag, .bytes = bytes });
    region(st, a, FALSE);
    return TRUE;
  }
  case TI_TEST:
  case TI_WAIT: {
    uint32_t t;
    if (!peer_field(in, 2, st, &peer, error) || !peer_field(in, 3, st, &peer2, error) ||
        !tag_field(in, 4, &t, error))
      return FALSE;
    if (a->does == TI_WAIT && g_queue_is_empty(&st->order))
      return ti_fail(error, in, "a wait with no request open, expected an isend or irecv before it "
                  "(SMPI stops there)");
    ti_key k = { (int32_t)peer, (int32_t)peer2, t };
    GQueue *list = st->open ? g_hash_table_lookup(st->open, &k) : NULL;
    if (!list)
      return TRUE; /* SMPI: the request was caught by a test */
    region(st, a, TRUE);
    ti_req *q = g_queue_peek_head(list);
    if (a->does == TI_WAIT)
      complete(st, q);
    else
      put(st, (trace_event){ .kind = TRACE_REQUEST_TEST, .request = q->id });
    region(st, a, FALSE);
    return TRUE;
  }
  case TI_WAITALL:
    ti_rank_finish(st);
    return TRUE;
  case TI_SENDRECV:
    if (!peer_field(in, 3, st, &peer, error) || !peer_field(in, 5, st, &peer2, error) ||
        !datatype(in, 6, st, &d1, error) || !datatype(in, 7, st, &d2, error) ||
        !count_bytes(in, 2, d1, FALSE, &bytes, error) ||
        !count_bytes(in, 4, d2, FALSE, &bytes2, error))
      return FALSE;
    region(st, a, TRUE);
    put(st, (trace_event){ .kind = TRACE_SEND, .peer = (int32_t)peer, .bytes = bytes });
    put(st, (trace_event){ .kind = TRACE_RECV, .peer = (int32_t)peer2, .bytes = bytes2 });
    region(st, a, FALSE);
    return TRUE;
  case TI_COLL:
    return collective(st, in, a, error);
  }
  g_assert_not_reached();
}

gboolean ti_is_action(const char *name)
{
  return ti_action_named(name) != NULL;
}

uint32_t *ti_region_map(trace *t)
{
  uint32_t *region = g_new0(uint32_t, G_N_ELEMENTS(ti_actions));
  for (size_t i = 0; i < G_N_ELEMENTS(ti_actions); i++) {
    if (!ti_actions[i].region)
      continue;
    int have = -1;
    for (int j = 0; j < t->nregions; j++)
      if (strcmp(t->regions[j], ti_actions[i].region) == 0)
        have = j;
    region[i] = have >= 0 ? (uint32_t)have : trace_add_region(t, ti_actions[i].region);
  }
  return region;
}
