/* input-dumpi.c - the reader of sst-dumpi's binary traces (input.h's row
 * "dumpi"): `-t PREFIX.meta`, the .meta file naming `numprocs` and
 * `fileprefix`, and one PREFIX-NNNN.bin per rank beside it. The format
 * was learnt from sst-dumpi's own reader (dumpi/common/io.c, iodefs.h,
 * dumpiio.c); dumpi-private.h describes a record, dumpi-calls.c the fields
 * of every call, so that every record is stepped over, used or not.
 *
 * A .bin file: an 8-byte magic, the records from the body offset (after
 * the CPU and wall clocks' second offsets) up to the footer, and at the end
 * an index of eight 64-bit offsets (magic, datatype sizes, addresses,
 * counter labels, header, body, footer, key-values; files of sst-dumpi
 * 0.6.6 and later). Numbers are big-endian.
 *
 * Records become mapsim's (trace.h): every call an MPI region from its
 * start to its stop time (the wall clock, the CPU clock where a record has
 * no wall time; ps from the earliest second offset of all ranks, never
 * backwards within a rank); sends (Send, Bsend, Ssend, Rsend; their
 * Isend variants with the request), receives (Recv; Irecv's request,
 * completed by Wait, Waitany, Waitsome, Waitall, Test* with a flag, with
 * the envelope the Irecv posted - its source and tag from the status when
 * it posted a wildcard), Sendrecv(_replace), and the collectives of MPI-2
 * (collectives.h's contributions; a communicator's ranks are world ranks
 * through the communicators the trace creates: Comm_dup, Comm_split and
 * Comm_create, matched across ranks in each rank's order of calls on the
 * parent). Sizes: counts times the datatype's size from the file's
 * datatype table, or of a derived type the rank built (contiguous, vector,
 * hvector, indexed, hindexed, struct); other types count 0 bytes (said in
 * the trace's notice).
 *
 * Two passes, each rank by rank: the first checks every record and
 * gathers the communicator calls (memory O(ranks + communicators)), the
 * second streams the records. Bad input: one line naming the file, the
 * record's offset and what was expected.
 */
#include "traces/dumpi-private.h"
#include "traces/input-private.h"
#include "traces/trace-private.h"
#include "util/budget.h"
#include "util/checked.h"

#include <string.h>

enum {
  COMM_NULL = 1, COMM_WORLD = 2, COMM_SELF = 3,
  ANY = -1,            /* DUMPI_ANY_SOURCE, DUMPI_ANY_TAG */
};


/* What mapsim makes of a call, by name; the numbers are field indices in
 * the call's layout (dumpi-calls.c), -1 none. */
typedef enum {
  D_OTHER, D_SEND, D_ISEND, D_RECV, D_IRECV, D_WAIT, D_TEST, D_WAITANY, D_TESTANY, D_WAITALL,
  D_TESTALL, D_WAITSOME, D_SENDRECV, D_COLL, D_COMM, D_TYPE, D_SKIP,
} dumpi_does;

typedef struct dumpi_use {
  const char *name;
  dumpi_does does;
  int count, dt, peer, tag, comm, req;   /* p2p; collectives: count, dt, root, comm */
  int op;                                /* collectives: coll_op; comms: new comm field */
  int counts;                            /* an array of counts summed instead of `count` */
  gboolean times_p;                      /* alltoall: the count goes to every rank */
} dumpi_use;

#define P2P(n, d, c, t, p, g, m, q) { n, d, c, t, p, g, m, q, 0, -1, FALSE }
#define COLL(n, o, c, t, r, m, a, x) { n, D_COLL, c, t, r, -1, m, -1, o, a, x }
static const dumpi_use dumpi_uses[] = {
  P2P("MPI_Send", D_SEND, 0, 1, 2, 3, 4, -1), P2P("MPI_Bsend", D_SEND, 0, 1, 2, 3, 4, -1),
  P2P("MPI_Ssend", D_SEND, 0, 1, 2, 3, 4, -1), P2P("MPI_Rsend", D_SEND, 0, 1, 2, 3, 4, -1),
  P2P("MPI_Isend", D_ISEND, 0, 1, 2, 3, 4, 5), P2P("MPI_Ibsend", D_ISEND, 0, 1, 2, 3, 4, 5),
  P2P("MPI_Issend", D_ISEND, 0, 1, 2, 3, 4, 5), P2P("MPI_Irsend", D_ISEND, 0, 1, 2, 3, 4, 5),
  P2P("MPI_Recv", D_RECV, 0, 1, 2, 3, 4, 5), P2P("MPI_Irecv", D_IRECV, 0, 1, 2, 3, 4, 5),
  /* waits and tests: req = the request(s), peer = the status(es), tag =
   * the flag, count = the index or indices */
  P2P("MPI_Wait", D_WAIT, -1, -1, 1, -1, -1, 0), P2P("MPI_Test", D_TEST, -1, -1, 2, 1, -1, 0),
  P2P("MPI_Waitany", D_WAITANY, 2, -1, 3, -1, -1, 1),
  P2P("MPI_Testany", D_TESTANY, 2, -1, 4, 3, -1, 1),
  P2P("MPI_Waitall", D_WAITALL, -1, -1, 2, -1, -1, 1),
  P2P("MPI_Testall", D_TESTALL, -1, -1, 3, 2, -1, 1),
  P2P("MPI_Waitsome", D_WAITSOME, 3, -1, 4, -1, -1, 1),
  P2P("MPI_Testsome", D_WAITSOME, 3, -1, 4, -1, -1, 1),
  P2P("MPI_Sendrecv", D_SENDRECV, 0, 1, 2, 3, 8, 9),
  P2P("MPI_Sendrecv_replace", D_SENDRECV, 0, 1, 2, 3, 6, 7),
  COLL("MPI_Barrier", COLL_BARRIER, -1, -1, -1, 0, -1, FALSE),
  COLL("MPI_Bcast", COLL_BCAST, 0, 1, 2, 3, -1, FALSE),
  COLL("MPI_Reduce", COLL_REDUCE, 0, 1, 3, 4, -1, FALSE),
  COLL("MPI_Allreduce", COLL_ALLREDUCE, 0, 1, -1, 3, -1, FALSE),
  COLL("MPI_Scan", COLL_SCAN, 0, 1, -1, 3, -1, FALSE),
  COLL("MPI_Exscan", COLL_EXSCAN, 0, 1, -1, 3, -1, FALSE),
  COLL("MPI_Alltoall", COLL_ALLTOALL, 0, 1, -1, 4, -1, TRUE),
  COLL("MPI_Alltoallv", COLL_ALLTOALLV, -1, 3, -1, 7, 1, FALSE),
  COLL("MPI_Gather", COLL_GATHER, 1, 2, 3, 4, -1, FALSE),
  COLL("MPI_Gatherv", COLL_GATHERV, 2, 3, 4, 5, -1, FALSE),
  COLL("MPI_Scatter", COLL_SCATTER, 1, 2, 3, 4, -1, FALSE),
  COLL("MPI_Scatterv", COLL_SCATTERV, 3, 4, 5, 6, -1, FALSE),
  COLL("MPI_Allgather", COLL_ALLGATHER, 0, 1, -1, 4, -1, FALSE),
  COLL("MPI_Allgatherv", COLL_ALLGATHERV, 1, 2, -1, 6, -1, FALSE),
  COLL("MPI_Reduce_scatter", COLL_REDUCE_SCATTER, -1, 2, -1, 4, 1, FALSE),
  /* communicators: comm = the parent, op = the new one, count/tag = color
   * and key (split) */
  { "MPI_Comm_dup", D_COMM, -1, -1, -1, -1, 0, -1, 1, -1, FALSE },
  { "MPI_Comm_create", D_COMM, -1, -1, -1, -1, 0, -1, 2, -1, FALSE },
  { "MPI_Comm_split", D_COMM, 1, -1, -1, 2, 0, -1, 3, -1, FALSE },
  /* derived datatypes: count, blocklength (tag) or lengths (counts), the
   * old type(s) (dt), the new one (op) */
  { "MPI_Type_contiguous", D_TYPE, 0, 1, -1, -1, -1, -1, 2, -1, FALSE },
  { "MPI_Type_vector", D_TYPE, 0, 3, -1, 1, -1, -1, 4, -1, FALSE },
  { "MPI_Type_hvector", D_TYPE, 0, 3, -1, 1, -1, -1, 4, -1, FALSE },
  { "MPI_Type_indexed", D_TYPE, -1, 3, -1, -1, -1, -1, 4, 1, FALSE },
  { "MPI_Type_hindexed", D_TYPE, -1, 3, -1, -1, -1, -1, 4, 1, FALSE },
  { "MPI_Type_struct", D_TYPE, -1, 3, -1, -1, -1, -1, 4, 1, TRUE },
  { "MPI_Type_create_struct", D_TYPE, -1, 3, -1, -1, -1, -1, 4, 1, TRUE },
  { "Function_enter", D_SKIP, -1, -1, -1, -1, -1, -1, 0, -1, FALSE },
  { "Function_exit", D_SKIP, -1, -1, -1, -1, -1, -1, 0, -1, FALSE },
};

static const dumpi_use *use_of(int label)
{
  static const dumpi_use other = { NULL, D_OTHER, -1, -1, -1, -1, -1, -1, 0, -1, FALSE };
  const char *name = dumpi_calls[label].name;
  for (size_t i = 0; name && i < G_N_ELEMENTS(dumpi_uses); i++)
    if (strcmp(dumpi_uses[i].name, name) == 0)
      return &dumpi_uses[i];
  return &other;
}

/* ---- the .meta file ---- */

typedef struct dumpi_meta {
  int nranks;
  char **bins;         /* nranks paths, NULL-terminated */
} dumpi_meta;

static gboolean meta_read(const char *path, dumpi_meta *m, GError **error)
{
  memset(m, 0, sizeof *m);
  g_autofree char *text = NULL;
  gsize len = 0;
  if (!budget_read_text(path, "DUMPI .meta file", &text, &len, error))
    return FALSE;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  int64_t n = -1;
  const char *prefix = NULL;
  for (int i = 0; lines[i]; i++) {
    char *eq = strchr(lines[i], '=');
    if (!eq)
      continue;
    *eq = '\0';
    if (strcmp(lines[i], "numprocs") == 0) {
      gint64 v;
      if (!g_ascii_string_to_signed(g_strstrip(eq + 1), 10, 1, BUDGET_MAX_RANKS, &v, NULL)) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s:%d: numprocs=%s, expected a "
                    "number of ranks from 1 to %d", path, i + 1, eq + 1, BUDGET_MAX_RANKS);
        return FALSE;
      }
      n = v;
    } else if (strcmp(lines[i], "fileprefix") == 0) {
      prefix = g_strstrip(eq + 1);
    }
  }
  if (n < 0 || !prefix || !*prefix || strchr(prefix, '/')) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: %s, expected a DUMPI .meta file "
                "with numprocs= and fileprefix= (a name in its folder)", path,
                n < 0 ? "no numprocs" : "no fileprefix");
    return FALSE;
  }
  if (!budget_check_array("DUMPI ranks", (uint64_t)n, 256, error))
    return FALSE;
  g_autofree char *dir = g_path_get_dirname(path);
  m->nranks = (int)n;
  m->bins = g_new0(char *, n + 1);
  for (int r = 0; r < n; r++) {
    g_autofree char *name = g_strdup_printf("%s-%04d.bin", prefix, r);
    m->bins[r] = g_build_filename(dir, name, NULL);
  }
  return TRUE;
}

/* ---- the first pass: communicators ---- */

typedef struct comm_call {
  int32_t parent, color, key, made;  /* local ids; color < 0: no new communicator */
} comm_call;

typedef struct dumpi_defs {
  dumpi_meta m;
  trace *t;
  GHashTable **local;        /* per rank: local communicator id -> index + 1 */
  const dumpi_use **uses;    /* per label */
  int64_t zero[2];           /* ns of the earliest record, CPU and wall clocks */
  int64_t untyped;           /* records with datatypes of unknown size */
} dumpi_defs;

static void defs_clear(dumpi_defs *d)
{
  for (int r = 0; d->local && r < d->m.nranks; r++)
    if (d->local[r])
      g_hash_table_destroy(d->local[r]);
  g_free(d->local);
  g_free(d->uses);
  g_strfreev(d->m.bins);
  memset(d, 0, sizeof *d);
}

static gint by_color_key(gconstpointer a, gconstpointer b)
{
  const int64_t *x = a, *y = b;  /* color, key, comm rank, world rank */
  for (int i = 0; i < 3; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* The communicators the ranks' calls make, matched across the members of
 * the parent in each rank's order. */
static gboolean resolve(dumpi_defs *d, GArray **calls, GError **error)
{
  const int P = d->m.nranks;
  g_autofree guint *next = g_new0(guint, P);
  gboolean moved = TRUE;
  while (moved) {
    moved = FALSE;
    for (int r = 0; r < P; r++) {
      if (next[r] >= calls[r]->len)
        continue;
      comm_call *c = &g_array_index(calls[r], comm_call, next[r]);
      guint g = GPOINTER_TO_UINT(g_hash_table_lookup(d->local[r], GINT_TO_POINTER(c->parent)));
      if (!g)
        continue;
      const trace_comm *tc = &d->t->comms[g - 1];
      int size = tc->self ? 1 : tc->size;
      g_autofree int *members = g_new(int, size);
      gboolean ready = TRUE;
      for (int j = 0; j < size && ready; j++) {
        int m = tc->self ? r : tc->members[j];
        members[j] = m;
        ready = next[m] < calls[m]->len &&
                GPOINTER_TO_UINT(g_hash_table_lookup(
                    d->local[m], GINT_TO_POINTER(g_array_index(calls[m], comm_call, next[m]).parent))) == g;
      }
      if (!ready)
        continue;
      g_autofree int64_t *e = g_new(int64_t, 4 * (size_t)size);
      for (int j = 0; j < size; j++) {
        const comm_call *cc = &g_array_index(calls[members[j]], comm_call, next[members[j]]);
        int64_t row[4] = { cc->color, cc->key, j, members[j] };
        memcpy(e + 4 * j, row, sizeof row);
      }
      qsort(e, (size_t)size, 4 * sizeof(int64_t), by_color_key);
      g_autofree int *world = g_new(int, size);
      for (int j = 0; j < size;) {
        int k = j;
        while (k < size && e[4 * k] == e[4 * j])
          k++;
        if (e[4 * j] >= 0) {
          for (int x = j; x < k; x++)
            world[x - j] = (int)e[4 * x + 3];
          if (!budget_check_array("DUMPI communicator members",
                                  (uint64_t)d->t->ncomms + (uint64_t)(k - j), sizeof(int), error))
            return FALSE;
          uint32_t id = trace_add_comm(d->t, "", k - j, world);
          for (int x = j; x < k; x++) {
            int m = (int)e[4 * x + 3];
            const comm_call *cc = &g_array_index(calls[m], comm_call, next[m]);
            g_hash_table_insert(d->local[m], GINT_TO_POINTER(cc->made), GUINT_TO_POINTER(id + 1));
          }
        }
        j = k;
      }
      for (int j = 0; j < size; j++)
        next[members[j]]++;
      moved = TRUE;
    }
  }
  for (int r = 0; r < P; r++)
    if (next[r] < calls[r]->len) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s: communicator call %u of rank %d "
                  "has no match on the other members of its parent, expected the same calls "
                  "in the same order on every member", d->m.bins[r], next[r] + 1, r);
      return FALSE;
    }
  return TRUE;
}

/* Every rank's file read through once: checked, its clock offsets and
 * communicator calls gathered; then the definitions. */
static gboolean first_pass(const char *path, dumpi_defs *d, GError **error)
{
  memset(d, 0, sizeof *d);
  if (!meta_read(path, &d->m, error))
    return FALSE;
  const int P = d->m.nranks;
  d->uses = g_new(const dumpi_use *, dumpi_ncalls);
  for (int i = 0; i < dumpi_ncalls; i++)
    d->uses[i] = use_of(i);
  d->zero[0] = d->zero[1] = INT64_MAX;
  GArray **calls = g_new0(GArray *, P);
  gboolean ok = TRUE;
  for (int r = 0; ok && r < P; r++) {
    calls[r] = g_array_new(FALSE, FALSE, sizeof(comm_call));
    dumpi_bin b;
    ok = bin_open(&b, d->m.bins[r], error);
    gboolean got = TRUE, first = TRUE;
    while (ok && (ok = bin_next(&b, &got, error)) && got) {
      const dumpi_use *u = d->uses[b.label];
      for (int clock = 0; first && clock < 2; clock++)
        if (clock ? b.has_wall : b.has_cpu)
          d->zero[clock] = MIN(d->zero[clock], bin_ns(&b, clock, 0));
      first = FALSE;
      if (u->does != D_COMM)
        continue;
      comm_call c = { (int32_t)b.fields[u->comm].v, 0, r, (int32_t)b.fields[u->op].v };
      if (u->count >= 0) {
        c.color = (int32_t)b.fields[u->count].v;
        c.key = (int32_t)b.fields[u->tag].v;
      }
      if (c.made == COMM_NULL)
        c.color = -1;
      g_array_append_val(calls[r], c);
    }
    bin_close(&b);
  }
  if (ok) {
    d->t = trace_new(P);
    for (int i = 0; i < dumpi_ncalls; i++)
      trace_add_region(d->t, dumpi_calls[i].name ? dumpi_calls[i].name : "DUMPI_ALL_FUNCTIONS");
    d->t->stats.locations = P;
    d->t->creator = g_strdup("sst-dumpi");
    d->local = g_new0(GHashTable *, P);
    for (int r = 0; r < P; r++) {
      d->local[r] = g_hash_table_new(NULL, NULL);
      g_hash_table_insert(d->local[r], GINT_TO_POINTER(COMM_WORLD), GUINT_TO_POINTER(d->t->world + 1));
      g_hash_table_insert(d->local[r], GINT_TO_POINTER(COMM_SELF), GUINT_TO_POINTER(2));
    }
    ok = resolve(d, calls, error);
  }
  for (int r = 0; r < P; r++)
    if (calls[r])
      g_array_free(calls[r], TRUE);
  g_free(calls);
  if (!ok && d->t) {
    trace_free(d->t);
    d->t = NULL;
  }
  return ok;
}

/* ---- the second pass: one rank's records ---- */

typedef void (*dumpi_emit_fn)(void *user, int rank, const trace_event *e);

typedef struct pending {
  uint64_t id;
  gboolean send;
  int32_t source, tag;   /* receives: comm rank and tag posted (ANY: wildcards) */
  uint32_t comm;
  int64_t bytes;
} pending;

typedef struct dumpi_rank {
  dumpi_defs *d;
  dumpi_bin *b;
  int rank;
  int64_t prev;
  uint64_t next_id;
  GHashTable *types;     /* derived datatype id -> bytes */
  GHashTable *open;      /* request handle -> pending */
  dumpi_emit_fn emit;
  void *user;
} dumpi_rank;

static void put(dumpi_rank *w, int64_t time, trace_event e)
{
  e.time = time;
  w->emit(w->user, w->rank, &e);
}

/* A record's start (stop) in ps from the earliest record of its clock: the
 * wall clock, else the CPU clock; without times, the rank's last time. */
static gboolean record_time(dumpi_rank *w, int stop, int64_t *out, GError **error)
{
  const dumpi_bin *b = w->b;
  if (!b->has_wall && !b->has_cpu) {
    *out = w->prev;
    return TRUE;
  }
  int clock = b->has_wall ? 1 : 0;
  int64_t ns = bin_ns(b, clock, stop) - w->d->zero[clock];
  if (ns > INT64_MAX / 1000)
    return bin_fail(w->b, error, "a time %" G_GINT64_FORMAT " s after the trace's start, "
                    "expected less than " CHECKED_PS_LIMIT, ns / 1000000000);
  w->prev = *out = MAX(ns * 1000, w->prev);
  return TRUE;
}

#define F(i) (w->b->fields[i])
#define VAL(f, k) (g_array_index(w->b->values, int64_t, (f).off + (k)))

static int64_t type_bytes(dumpi_rank *w, int64_t id)
{
  if (id >= 0 && id < (int64_t)w->b->dtsize->len)
    return g_array_index(w->b->dtsize, int64_t, id);
  gpointer v;
  if (g_hash_table_lookup_extended(w->types, GSIZE_TO_POINTER((gsize)id), NULL, &v))
    return (int64_t)GPOINTER_TO_SIZE(v);
  w->d->untyped++;
  return 0;
}

static int64_t sized(dumpi_rank *w, int64_t count, int64_t id)
{
  return count <= 0 ? 0 : saturating_mul_i64(count, type_bytes(w, id));
}

/* The communicator of field i, as an index of the trace's. */
static gboolean comm_of(dumpi_rank *w, int i, uint32_t *comm, GError **error)
{
  guint g = GPOINTER_TO_UINT(g_hash_table_lookup(w->d->local[w->rank],
                                                 GINT_TO_POINTER((int)F(i).v)));
  if (!g)
    return bin_fail(w->b, error, "communicator %" G_GINT64_FORMAT ", expected MPI_COMM_WORLD, "
                    "MPI_COMM_SELF or one made by Comm_dup, Comm_split or Comm_create", F(i).v);
  *comm = g - 1;
  return TRUE;
}

static void complete(dumpi_rank *w, int64_t handle, const dumpi_field *st, int k, int64_t t)
{
  pending *q = g_hash_table_lookup(w->open, GSIZE_TO_POINTER((gsize)handle));
  if (!q)
    return;
  if (q->send) {
    put(w, t, (trace_event){ .kind = TRACE_ISEND_COMPLETE, .request = q->id });
  } else {
    int32_t source = q->source, tag = q->tag;
    if (st && st->len > k && (source == ANY || tag == ANY)) {
      if (source == ANY)
        source = (int32_t)VAL(*st, 2 * k);
      if (tag == ANY)
        tag = (int32_t)VAL(*st, 2 * k + 1);
    }
    int peer = trace_comm_world_rank(w->d->t, q->comm, w->rank, source);
    if (peer < 0) /* MPI_PROC_NULL, or a wildcard without a status: no message */
      put(w, t, (trace_event){ .kind = TRACE_REQUEST_CANCELLED, .request = q->id });
    else
      put(w, t, (trace_event){ .kind = TRACE_IRECV, .peer = peer, .comm = q->comm,
                               .tag = (uint32_t)MAX(tag, 0), .bytes = q->bytes, .request = q->id });
  }
  g_hash_table_remove(w->open, GSIZE_TO_POINTER((gsize)handle));
}

static void test(dumpi_rank *w, int64_t handle, int64_t t)
{
  pending *q = g_hash_table_lookup(w->open, GSIZE_TO_POINTER((gsize)handle));
  if (q)
    put(w, t, (trace_event){ .kind = TRACE_REQUEST_TEST, .request = q->id });
}

static void post(dumpi_rank *w, gboolean send, int64_t handle, int32_t source, int32_t tag,
                 uint32_t comm, int64_t bytes)
{
  pending *q = g_new(pending, 1);
  *q = (pending){ w->next_id++, send, source, tag, comm, bytes };
  g_hash_table_replace(w->open, GSIZE_TO_POINTER((gsize)handle), q);
}

/* A point-to-point record of fields (count, dt, peer, tag, comm). */
static gboolean p2p(dumpi_rank *w, int kind, int count, int dt, int peer, int tag, int comm,
                    int64_t t, const dumpi_field *st, int req, GError **error)
{
  uint32_t c;
  if (!comm_of(w, comm, &c, error))
    return FALSE;
  int32_t p = (int32_t)F(peer).v, g = (int32_t)F(tag).v;
  if (kind == TRACE_RECV && st && st->len > 0) {
    if (p == ANY)
      p = (int32_t)VAL(*st, 0);
    if (g == ANY)
      g = (int32_t)VAL(*st, 1);
  }
  int world = trace_comm_world_rank(w->d->t, c, w->rank, p);
  if (world < 0)
    return TRUE; /* MPI_PROC_NULL */
  int64_t bytes = sized(w, F(count).v, F(dt).v);
  uint64_t id = 0;
  if (req >= 0) { /* an Isend: its request, completed by a wait */
    id = w->next_id;
    post(w, TRUE, F(req).v, 0, 0, c, bytes);
  }
  put(w, t, (trace_event){ .kind = (uint8_t)kind, .peer = world, .comm = c,
                           .tag = (uint32_t)MAX(g, 0), .bytes = bytes, .request = id });
  return TRUE;
}

static gboolean collective(dumpi_rank *w, const dumpi_use *u, int64_t t0, int64_t t1,
                           GError **error)
{
  uint32_t c;
  if (!comm_of(w, u->comm, &c, error))
    return FALSE;
  const trace_comm *tc = &w->d->t->comms[c];
  int64_t contrib = 0;
  if (u->counts >= 0 && u->op == COLL_REDUCE_SCATTER) {
    /* the contribution is the rank's own block (collectives.h) */
    int me = tc->self ? 0 : trace_comm_rank(w->d->t, c, w->rank);
    if (me >= 0 && me < F(u->counts).len)
      contrib = sized(w, VAL(F(u->counts), me), F(u->dt).v);
  } else if (u->counts >= 0) {
    for (int32_t k = 0; k < F(u->counts).len; k++)
      contrib = saturating_add_i64(contrib, sized(w, VAL(F(u->counts), k), F(u->dt).v));
  } else if (u->count >= 0) {
    contrib = sized(w, F(u->count).v, F(u->dt).v);
    if (u->times_p)
      contrib = saturating_mul_i64(contrib, tc->self ? 1 : tc->size);
  }
  int root = u->peer >= 0 ? trace_comm_world_rank(w->d->t, c, w->rank, (int)F(u->peer).v) : -1;
  put(w, t0, (trace_event){ .kind = TRACE_COLL_BEGIN });
  put(w, t1, (trace_event){ .kind = TRACE_COLL_END, .op = (uint32_t)u->op, .peer = root,
                            .comm = c, .bytes = contrib });
  return TRUE;
}

static void derived_type(dumpi_rank *w, const dumpi_use *u)
{
  int64_t bytes = 0;
  if (u->counts >= 0) {
    for (int32_t k = 0; k < F(u->counts).len; k++) {
      int64_t old = u->times_p ? (k < F(u->dt).len ? VAL(F(u->dt), k) : -1) : F(u->dt).v;
      bytes = saturating_add_i64(bytes, sized(w, VAL(F(u->counts), k), old));
    }
  } else {
    bytes = sized(w, F(u->count).v, F(u->dt).v);
    if (u->tag >= 0)
      bytes = saturating_mul_i64(bytes, MAX(F(u->tag).v, 0));
  }
  g_hash_table_replace(w->types, GSIZE_TO_POINTER((gsize)F(u->op).v),
                       GSIZE_TO_POINTER((gsize)MIN(bytes, (int64_t)G_MAXSSIZE)));
}

static gboolean record(dumpi_rank *w, GError **error)
{
  const dumpi_use *u = w->d->uses[w->b->label];
  if (u->does == D_SKIP)
    return TRUE;
  int64_t t0, t1;
  if (!record_time(w, 0, &t0, error) || !record_time(w, 1, &t1, error))
    return FALSE;
  put(w, t0, (trace_event){ .kind = TRACE_ENTER, .region = (uint32_t)w->b->label });
  const dumpi_field *st = u->peer >= 0 ? &F(u->peer) : NULL;
  gboolean flag = u->tag >= 0 && F(u->tag).v != 0;
  gboolean ok = TRUE;
  uint32_t c;
  switch (u->does) {
  case D_SEND:
  case D_ISEND:
    ok = p2p(w, u->does == D_SEND ? TRACE_SEND : TRACE_ISEND, u->count, u->dt, u->peer, u->tag,
             u->comm, t0, NULL, u->does == D_ISEND ? u->req : -1, error);
    break;
  case D_RECV:
    ok = p2p(w, TRACE_RECV, u->count, u->dt, u->peer, u->tag, u->comm, t1, &F(u->req), -1, error);
    break;
  case D_IRECV:
    if ((ok = comm_of(w, u->comm, &c, error))) {
      post(w, FALSE, F(u->req).v, (int32_t)F(u->peer).v, (int32_t)F(u->tag).v, c,
           sized(w, F(u->count).v, F(u->dt).v));
      pending *q = g_hash_table_lookup(w->open, GSIZE_TO_POINTER((gsize)F(u->req).v));
      put(w, t0, (trace_event){ .kind = TRACE_IRECV_REQUEST, .request = q->id });
    }
    break;
  case D_WAIT:
    complete(w, F(u->req).v, st, 0, t1);
    break;
  case D_TEST:
    if (flag)
      complete(w, F(u->req).v, st, 0, t1);
    else
      test(w, F(u->req).v, t1);
    break;
  case D_WAITANY:
  case D_TESTANY: {
    int64_t i = F(u->count).v;
    if ((u->does == D_WAITANY || flag) && i >= 0 && i < F(u->req).len)
      complete(w, VAL(F(u->req), i), st, 0, t1);
    else
      for (int32_t k = 0; k < F(u->req).len; k++)
        test(w, VAL(F(u->req), k), t1);
    break;
  }
  case D_WAITALL:
  case D_TESTALL:
    for (int32_t k = 0; k < F(u->req).len; k++) {
      if (u->does == D_WAITALL || flag)
        complete(w, VAL(F(u->req), k), st, k, t1);
      else
        test(w, VAL(F(u->req), k), t1);
    }
    break;
  case D_WAITSOME:
    for (int32_t k = 0; k < F(u->count).len; k++) {
      int64_t i = VAL(F(u->count), k);
      if (i >= 0 && i < F(u->req).len)
        complete(w, VAL(F(u->req), i), st, k, t1);
    }
    break;
  case D_SENDRECV: {
    gboolean full = u->comm == 8;
    ok = p2p(w, TRACE_SEND, u->count, u->dt, u->peer, u->tag, u->comm, t0, NULL, -1, error) &&
         p2p(w, TRACE_RECV, full ? 4 : 0, full ? 5 : 1, full ? 6 : 4, full ? 7 : 5, u->comm, t1,
             &F(u->req), -1, error);
    break;
  }
  case D_COLL:
    ok = collective(w, u, t0, t1, error);
    break;
  case D_TYPE:
    derived_type(w, u);
    break;
  default:
    break;
  }
  put(w, t1, (trace_event){ .kind = TRACE_LEAVE, .region = (uint32_t)w->b->label });
  return ok;
}

/* ---- the passes ---- */

typedef struct dumpi_out {
  const trace_sink *sink;   /* NULL: into t */
  trace *t;
} dumpi_out;

static void emit_trace(void *user, int rank, const trace_event *e)
{
  trace_push(((dumpi_out *)user)->t, rank, e);
}

static void emit_sink(void *user, int rank, const trace_event *e)
{
  const trace_sink *s = ((dumpi_out *)user)->sink;
  s->record(s->user, 0, rank, e);
}

static gboolean second_pass(dumpi_defs *d, int r, dumpi_emit_fn emit, dumpi_out *o,
                            GError **error)
{
  dumpi_bin b;
  dumpi_rank w = { d, &b, r, 0, 1, g_hash_table_new(NULL, NULL),
                   g_hash_table_new_full(NULL, NULL, NULL, g_free), emit, o };
  gboolean ok = bin_open(&b, d->m.bins[r], error), got = TRUE;
  while (ok && (ok = bin_next(&b, &got, error)) && got)
    ok = record(&w, error);
  o->t->duration_ps = MAX(o->t->duration_ps, w.prev);
  bin_close(&b);
  g_hash_table_destroy(w.types);
  g_hash_table_destroy(w.open);
  return ok;
}

static void add_notice(dumpi_defs *d)
{
  if (d->untyped)
    d->t->notice = g_strdup_printf("%" G_GINT64_FORMAT " DUMPI records name datatypes of "
                                   "unknown size (counted as 0 bytes)", d->untyped);
}

static trace *dumpi_scan(const char *path, const trace_sink *sink, int workers, GError **error)
{
  (void)workers;
  dumpi_defs d;
  if (!first_pass(path, &d, error)) {
    defs_clear(&d);
    return NULL;
  }
  trace *t = d.t;
  dumpi_out o = { sink, t };
  gboolean ok = sink->defs(sink->user, t, error);
  for (int r = 0; ok && r < d.m.nranks; r++) {
    sink->begin(sink->user, 0, r, 0);
    ok = second_pass(&d, r, emit_sink, &o, error);
    sink->end(sink->user, 0, r);
  }
  add_notice(&d);
  defs_clear(&d);
  if (!ok) {
    trace_free(t);
    return NULL;
  }
  return t;
}

static trace *dumpi_read(const char *path, GError **error)
{
  dumpi_defs d;
  if (!first_pass(path, &d, error)) {
    defs_clear(&d);
    return NULL;
  }
  trace *t = d.t;
  dumpi_out o = { NULL, t };
  gboolean ok = TRUE;
  for (int r = 0; ok && r < d.m.nranks; r++)
    ok = second_pass(&d, r, emit_trace, &o, error);
  add_notice(&d);
  defs_clear(&d);
  if (!ok) {
    trace_free(t);
    return NULL;
  }
  trace_shrink(t);
  return t;
}

/* ---- the row ---- */

static input_probe probe(const input_peek *pk)
{
  gboolean named = g_str_has_suffix(pk->name, ".meta");
  if (!pk->is_file)
    return named && g_file_test(pk->path, G_FILE_TEST_EXISTS) ? INPUT_PROBE_NAME : INPUT_PROBE_NO;
  if (!input_peek_is_text(pk))
    return INPUT_PROBE_NO;
  gboolean content = strstr(pk->head, "numprocs=") && strstr(pk->head, "fileprefix=");
  return content ? INPUT_PROBE_CONTENT : named ? INPUT_PROBE_NAME : INPUT_PROBE_NO;
}

/* The .meta file and its .bin files share a folder. */
static char *root(const char *path)
{
  return g_path_get_dirname(path);
}

const input_reader input_reader_dumpi = {
  .name = "dumpi",
  .what = "a DUMPI trace of sst-dumpi (its PREFIX.meta file, one PREFIX-NNNN.bin per rank "
          "beside it)",
  .gives = INPUT_TRACE,
  .probe = probe,
  .read = dumpi_read,
  .scan = dumpi_scan,
  .root = root,
};
