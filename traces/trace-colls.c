/* trace-colls.c - the collective calls of a trace (see trace-colls.h). */
#include "traces/trace-colls.h"

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
    *slot = g_array_new(FALSE, FALSE, sizeof(trace_coll_call));
  g_array_append_val(*slot, call);
}

static const trace_coll_call *trace_colls_get(const trace_colls *c, int rank, uint32_t comm,
                                              int64_t k)
{
  if (comm >= (uint32_t)c->ncomms)
    return NULL;
  const GArray *a = c->calls[(size_t)rank * (size_t)c->ncomms + comm];
  return a && k < (int64_t)a->len ? &g_array_index(a, trace_coll_call, k) : NULL;
}

size_t trace_colls_bytes(const trace_colls *c)
{
  size_t b = sizeof *c + sizeof(GArray *) * (size_t)MAX(c->nranks, 1) * (size_t)MAX(c->ncomms, 1);
  for (size_t i = 0; i < (size_t)c->nranks * (size_t)c->ncomms; i++)
    if (c->calls[i])
      b += sizeof(GArray) + c->calls[i]->len * sizeof(trace_coll_call);
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

int trace_colls_call(const trace_colls *c, const trace *t, uint32_t comm, int64_t k,
                     int64_t *bytes, int *root, int *op)
{
  const trace_comm *tc = &t->comms[comm];
  int found = 0;
  *root = 0;
  *op = COLL_OTHER;
  for (int m = 0; m < tc->size; m++) {
    const trace_coll_call *call = trace_colls_get(c, tc->members[m], comm, k);
    bytes[m] = call ? call->contrib : 0;
    if (!call)
      continue;
    found++;
    *op = call->op;
    if (call->is_root)
      *root = m;
  }
  return found;
}

gboolean trace_colls_expand(const trace_colls *c, const trace *t, const coll_choice *choice,
                            GArray *src, GArray *dst, GArray *bytes, GError **error)
{
  GArray *msgs = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  gboolean ok = TRUE;
  for (int ci = 0; ci < t->ncomms && ok; ci++) {
    const trace_comm *tc = &t->comms[ci];
    int P = tc->self ? 1 : tc->size;
    if (P <= 1)
      continue;
    int64_t *b = g_new0(int64_t, P);
    for (int64_t k = 0; ok; k++) {
      int root, op;
      if (trace_colls_call(c, t, (uint32_t)ci, k, b, &root, &op) < P)
        break;
      g_array_set_size(msgs, 0);
      ok = coll_schedule_choice(choice, (coll_op)op, P, root, b, msgs, error);
      for (guint i = 0; ok && i < msgs->len; i++) {
        const coll_msg *cm = &g_array_index(msgs, coll_msg, i);
        g_array_append_val(src, tc->members[cm->src]);
        g_array_append_val(dst, tc->members[cm->dst]);
        g_array_append_val(bytes, cm->bytes);
      }
    }
    g_free(b);
  }
  g_array_free(msgs, TRUE);
  return ok;
}

