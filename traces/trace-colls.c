/* trace-colls.c - the collective calls of a trace (see trace-colls.h). */
#include "traces/trace-colls.h"

#include "util/checked.h"

trace_colls *trace_colls_new(int nranks, int ncomms)
{
  trace_colls *c = g_new0(trace_colls, 1);
  c->nranks = nranks;
  c->ncomms = ncomms;
  c->calls = g_new0(GArray *, (size_t)MAX(nranks, 1) * (size_t)MAX(ncomms, 1));
  return c;
}

void trace_colls_add(trace_colls *c, int rank, const trace_event *e)
{
  if ((e->kind != TRACE_COLL_END && e->kind != TRACE_NBCOLL_COMPLETE) || e->op >= COLL_NOPS ||
      e->comm >= (uint32_t)c->ncomms)
    return;
  trace_coll_call call = { e->bytes, (uint8_t)e->op, e->peer == rank };
  GArray **slot = &c->calls[(size_t)rank * (size_t)c->ncomms + e->comm];
  if (!*slot)
    *slot = g_array_new(FALSE, FALSE, sizeof(trace_coll_run));
  GArray *a = *slot;
  if (a->len > 0) {
    trace_coll_run *last = &g_array_index(a, trace_coll_run, a->len - 1);
    if (last->call.contrib == call.contrib && last->call.op == call.op &&
        last->call.is_root == call.is_root) {
      last->n++;
      return;
    }
  }
  trace_coll_run run = { a->len > 0 ? g_array_index(a, trace_coll_run, a->len - 1).first +
                                          g_array_index(a, trace_coll_run, a->len - 1).n
                                    : 0,
                         1, call };
  g_array_append_val(a, run);
}

/* Rank's k-th call on comm, or NULL; *left: the calls from k on that are
 * identical to it (k's run's rest). */
static const trace_coll_call *trace_colls_get(const trace_colls *c, int rank, uint32_t comm,
                                              int64_t k, int64_t *left)
{
  if (comm >= (uint32_t)c->ncomms || k < 0 || rank < 0 || rank >= c->nranks)
    return NULL; /* a member the trace does not define (-1) makes no call */
  const GArray *a = c->calls[(size_t)rank * (size_t)c->ncomms + comm];
  if (!a || a->len == 0)
    return NULL;
  const trace_coll_run *runs = (const trace_coll_run *)(void *)a->data;
  guint lo = 0, hi = a->len; /* the last run whose first <= k */
  while (hi - lo > 1) {
    guint mid = lo + (hi - lo) / 2;
    if (runs[mid].first <= k)
      lo = mid;
    else
      hi = mid;
  }
  const trace_coll_run *r = &runs[lo];
  if (k >= r->first + r->n)
    return NULL;
  if (left)
    *left = r->first + r->n - k;
  return &r->call;
}

size_t trace_colls_bytes(const trace_colls *c)
{
  size_t b = sizeof *c + sizeof(GArray *) * (size_t)MAX(c->nranks, 1) * (size_t)MAX(c->ncomms, 1);
  for (size_t i = 0; i < (size_t)c->nranks * (size_t)c->ncomms; i++)
    if (c->calls[i])
      b += sizeof(GArray) + c->calls[i]->len * sizeof(trace_coll_run);
  return b;
}

void trace_colls_free(trace_colls *c)
{
  if (!c)
    return;
  for (size_t i = 0; i < (size_t)c->nranks * (size_t)c->ncomms; i++)
    if (c->calls[i])
      g_array_free(c->calls[i], TRUE);
  g_free(c->calls);
  g_free(c);
}

/* trace_colls_call, and in *repeat how many calls from k on every member
 * repeats identically (1 when some member has no k-th call). */
static int call_with_repeat(const trace_colls *c, const trace *t, uint32_t comm, int64_t k,
                            int64_t *bytes, int *root, int *op, int64_t *repeat)
{
  const trace_comm *tc = &t->comms[comm];
  int found = 0;
  *root = 0;
  *op = COLL_OTHER;
  *repeat = INT64_MAX;
  for (int m = 0; m < tc->size; m++) {
    int64_t left = 0;
    const trace_coll_call *call = trace_colls_get(c, tc->members[m], comm, k, &left);
    bytes[m] = call ? call->contrib : 0;
    if (!call)
      continue;
    found++;
    *repeat = MIN(*repeat, left);
    *op = call->op;
    if (call->is_root)
      *root = m;
  }
  if (found < tc->size)
    *repeat = 1;
  return found;
}

int trace_colls_call(const trace_colls *c, const trace *t, uint32_t comm, int64_t k,
                     int64_t *bytes, int *root, int *op)
{
  int64_t repeat;
  return call_with_repeat(c, t, comm, k, bytes, root, op, &repeat);
}

/* Adds `bytes` and `count` messages on (src, dst), one entry per pair. */
static gboolean add_pair(GHashTable *index, int src, int dst, int64_t bytes, int64_t count,
                         GArray *as, GArray *ad, GArray *ab, GArray *am)
{
  gint64 key = (gint64)(((guint64)(guint32)src << 32) | (guint32)dst);
  gpointer v;
  if (g_hash_table_lookup_extended(index, &key, NULL, &v)) {
    guint i = GPOINTER_TO_UINT(v);
    int64_t *b = &g_array_index(ab, int64_t, i), *m = &g_array_index(am, int64_t, i);
    return checked_add_i64(*b, bytes, b) && checked_add_i64(*m, count, m);
  }
  gint64 *k = g_new(gint64, 1);
  *k = key;
  g_hash_table_insert(index, k, GUINT_TO_POINTER(as->len));
  g_array_append_val(as, src);
  g_array_append_val(ad, dst);
  g_array_append_val(ab, bytes);
  g_array_append_val(am, count);
  return TRUE;
}

gboolean trace_colls_expand(const trace_colls *c, const trace *t, const coll_choice *choice,
                            GArray *src, GArray *dst, GArray *bytes, GArray *msgs,
                            GError **error)
{
  GArray *sched = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  GHashTable *index = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  gboolean ok = TRUE;
  for (int ci = 0; ci < t->ncomms && ok; ci++) {
    const trace_comm *tc = &t->comms[ci];
    int P = tc->self ? 1 : tc->size;
    if (P <= 1)
      continue;
    int64_t *b = g_new0(int64_t, P);
    for (int64_t k = 0; ok;) {
      int root, op;
      int64_t repeat;
      if (call_with_repeat(c, t, (uint32_t)ci, k, b, &root, &op, &repeat) < P)
        break;
      g_array_set_size(sched, 0);
      ok = coll_schedule_choice(choice, (coll_op)op, P, root, b, sched, error);
      for (guint i = 0; ok && i < sched->len; i++) {
        const coll_msg *cm = &g_array_index(sched, coll_msg, i);
        int64_t total;
        if (!checked_mul_i64(cm->bytes, repeat, &total) ||
            !add_pair(index, tc->members[cm->src], tc->members[cm->dst], total, repeat, src,
                      dst, bytes, msgs)) {
          g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT,
                      "the collectives' messages between ranks %d and %d add up to more "
                      "than 2^63 - 1 bytes, expected a total that fits a 64-bit integer",
                      tc->members[cm->src], tc->members[cm->dst]);
          ok = FALSE;
        }
      }
      k += repeat;
    }
    g_free(b);
  }
  g_hash_table_unref(index);
  g_array_free(sched, TRUE);
  return ok;
}
