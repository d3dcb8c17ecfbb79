/* simgrid-ti.c - SimGrid's time-independent trace format from a trace
 * source (the rules are in simgrid-ti.h). */
#include "traces/simgrid-ti.h"
#include "traces/trace-private.h"
#include "util/checked.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ti_opts_init(ti_opts *o)
{
  *o = (ti_opts){ .compute_scale = 1.0, .flops_per_s = 1e12, .coll_tag = 1u << 30 };
}

/* An SMPI request key: what `wait SRC DST TAG` names. */
typedef struct {
  int32_t src, dst;
  uint32_t tag;
} ti_key;

static guint key_hash(gconstpointer p)
{
  const ti_key *k = p;
  return (guint)k->src * 2654435761u ^ ((guint)k->dst * 40503u + k->tag * 31u);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
  return memcmp(a, b, sizeof(ti_key)) == 0;
}

typedef struct {
  ti_key key;
  gboolean live;   /* posted, not waited yet */
} ti_req;

/* One rank being written. */
typedef struct {
  const trace *t;
  const trace_colls *colls;
  const ti_opts *o;
  ti_stats *st;
  FILE *f;
  int rank;
  GArray *reqs;          /* ti_req */
  GHashTable *by_key;    /* open ti_key -> index + 1 */
  GHashTable *by_req;    /* trace request id -> index + 1 */
  GArray *deferred;      /* guint: blocking sends waited at the region's end */
  GArray *msgs;          /* coll_msg scratch */
  int64_t *call_k;       /* per communicator: calls made so far */
  int *me;               /* per communicator: the rank's comm rank, -2 unknown */
  int64_t *bytes;        /* scratch: contributions */
  int nbytes;
  int64_t carry;         /* computation not yet written, ps */
} ti_rank;

static void act(ti_rank *w, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void act(ti_rank *w, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fprintf(w->f, "%d ", w->rank);
  vfprintf(w->f, fmt, ap);
  fputc('\n', w->f);
  va_end(ap);
  w->st->actions++;
}

static void wait_index(ti_rank *w, guint i)
{
  ti_req *q = &g_array_index(w->reqs, ti_req, i);
  if (!q->live)
    return;
  act(w, "wait %d %d %u", q->key.src, q->key.dst, q->key.tag);
  q->live = FALSE;
  ti_key k = q->key;
  g_hash_table_remove(w->by_key, &k);
}

/* Posts isend (send) or irecv; returns the request's index. */
static guint post(ti_rank *w, gboolean send, int peer, uint32_t tag, int64_t bytes)
{
  ti_key k = { send ? w->rank : peer, send ? peer : w->rank, tag };
  gpointer open = g_hash_table_lookup(w->by_key, &k);
  if (open) {
    wait_index(w, GPOINTER_TO_UINT(open) - 1);
    w->st->serialized++;
  }
  act(w, "%s %d %u %" G_GINT64_FORMAT, send ? "isend" : "irecv", peer, tag, bytes);
  ti_req q = { k, TRUE };
  g_array_append_val(w->reqs, q);
  guint i = w->reqs->len - 1;
  g_hash_table_insert(w->by_key, g_memdup2(&k, sizeof k), GUINT_TO_POINTER(i + 1));
  return i;
}

static void post_request(ti_rank *w, gboolean send, int peer, uint32_t tag, int64_t bytes,
                         uint64_t req)
{
  guint i = post(w, send, peer, tag, bytes);
  g_hash_table_insert(w->by_req, g_memdup2(&req, sizeof req), GUINT_TO_POINTER(i + 1));
}

/* A completion record of trace request `req`: FALSE when it was never posted. */
static gboolean complete(ti_rank *w, uint64_t req)
{
  gpointer v = g_hash_table_lookup(w->by_req, &req);
  if (!v)
    return FALSE;
  wait_index(w, GPOINTER_TO_UINT(v) - 1);
  g_hash_table_remove(w->by_req, &req);
  return TRUE;
}

static void flush_compute(ti_rank *w, int64_t min)
{
  if (w->carry <= 0 || w->carry < min)
    return;
  if (w->o->flops_per_s == 1e12)
    act(w, "compute %" G_GINT64_FORMAT, w->carry);
  else
    act(w, "compute %.17g", (double)w->carry * 1e-12 * w->o->flops_per_s);
  w->carry = 0;
}

/* One collective call of the rank, expanded into its schedule's messages. */
static gboolean collective(ti_rank *w, const trace_event *e, GError **error)
{
  const trace *t = w->t;
  if (e->op >= COLL_NOPS || e->comm >= (uint32_t)t->ncomms)
    return TRUE;
  const trace_comm *tc = &t->comms[e->comm];
  if (tc->self || tc->size <= 1)
    return TRUE;
  int64_t k = w->call_k[e->comm]++;
  if (w->me[e->comm] == -2)
    w->me[e->comm] = trace_comm_rank(t, e->comm, w->rank);
  int j = w->me[e->comm];
  if (tc->size > w->nbytes) {
    w->nbytes = tc->size;
    w->bytes = g_renew(int64_t, w->bytes, w->nbytes);
  }
  int root, op;
  if (j < 0 || trace_colls_call(w->colls, t, e->comm, k, w->bytes, &root, &op) < tc->size) {
    w->st->coll_skipped++;
    return TRUE;
  }
  g_array_set_size(w->msgs, 0);
  if (!coll_schedule_choice(w->o->colls, (coll_op)op, tc->size, root, w->bytes, w->msgs, error)) {
    g_prefix_error(error, "collective %s on communicator %u: ", coll_op_name(op), e->comm);
    return FALSE;
  }
  w->st->coll_calls++;
  const coll_msg *m = (const coll_msg *)(void *)w->msgs->data;
  guint n = w->msgs->len;
  int nr = coll_nrounds(m, n);
  /* the receives, posted at the call; then round by round */
  GArray *recv_idx = g_array_new(FALSE, FALSE, sizeof(guint));
  GArray *send_idx = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint i = 0; i < n; i++)
    if (m[i].dst == j) {
      guint q = post(w, FALSE, tc->members[m[i].src], w->o->coll_tag + (uint32_t)m[i].round,
                     m[i].bytes);
      g_array_append_val(recv_idx, q);
    }
  for (int r = 0; r < nr; r++) {
    for (guint i = 0, x = 0; i < n; i++)
      if (m[i].dst == j) {
        if (m[i].round == r - 1)
          wait_index(w, g_array_index(recv_idx, guint, x));
        x++;
      }
    for (guint i = 0; i < n; i++)
      if (m[i].src == j && m[i].round == r) {
        guint q = post(w, TRUE, tc->members[m[i].dst], w->o->coll_tag + (uint32_t)r, m[i].bytes);
        g_array_append_val(send_idx, q);
      }
  }
  for (guint x = 0; x < recv_idx->len; x++)
    wait_index(w, g_array_index(recv_idx, guint, x));
  for (guint x = 0; x < send_idx->len; x++)
    wait_index(w, g_array_index(send_idx, guint, x));
  g_array_free(recv_idx, TRUE);
  g_array_free(send_idx, TRUE);
  return TRUE;
}

/* For each IRECV_REQUEST of ev[0, n), the index of the record completing
 * it, -1 when none does or it was cancelled. */
static int64_t *irecv_envelopes(const trace_event *ev, int64_t n)
{
  int64_t *env = g_new(int64_t, MAX(n, 1));
  GHashTable *open = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  for (int64_t i = 0; i < n; i++) {
    env[i] = -1;
    const trace_event *e = &ev[i];
    if (e->kind == TRACE_IRECV_REQUEST) {
      g_hash_table_insert(open, g_memdup2(&e->request, sizeof e->request),
                          GSIZE_TO_POINTER((gsize)i + 1));
    } else if (e->kind == TRACE_IRECV || e->kind == TRACE_REQUEST_CANCELLED) {
      gpointer v = g_hash_table_lookup(open, &e->request);
      if (v) {
        if (e->kind == TRACE_IRECV)
          env[GPOINTER_TO_SIZE(v) - 1] = i;
        g_hash_table_remove(open, &e->request);
      }
    }
  }
  g_hash_table_destroy(open);
  return env;
}

/* A gap times `scale`, rounded as the replay rounds it (sim/replay.c):
 * INT64_MAX when it does not fit. */
static int64_t scaled_gap(double scale, int64_t gap)
{
  if (scale == 1.0 || gap <= 0)
    return MAX(gap, 0);
  return saturating_ps((double)gap * scale);
}

/* Adds the gap before record `i` to the computation carried; FALSE when
 * the sum reaches INT64_MAX ps, where the replay fails too. */
static gboolean carry_gap(ti_rank *w, int64_t gap, int64_t i, GError **error)
{
  int64_t g = scaled_gap(w->o->compute_scale, gap);
  if (g < INT64_MAX && checked_add_i64(w->carry, g, &w->carry) && w->carry < INT64_MAX)
    return TRUE;
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT,
              "computation exceeds " CHECKED_PS_LIMIT " (rank %d at record %" G_GINT64_FORMAT
              "), expected a --compute-scale that keeps every computation below it", w->rank, i);
  return FALSE;
}

static gboolean write_rank(ti_rank *w, const trace_event *ev, int64_t n, GError **error)
{
  int64_t *env = irecv_envelopes(ev, n);
  int64_t prev = 0;
  int depth = 0;
  gboolean ok = TRUE;
  act(w, "init");
  for (int64_t i = 0; i < n && ok; i++) {
    const trace_event *e = &ev[i];
    if (depth == 0 && !carry_gap(w, e->time - prev, i, error)) {
      ok = FALSE;
      break;
    }
    prev = e->time;
    flush_compute(w, MAX(w->o->min_compute_ps, 1));
    switch (e->kind) {
    case TRACE_ENTER:
      depth++;
      break;
    case TRACE_LEAVE:
      if (depth > 0 && --depth == 0) {
        for (guint k = 0; k < w->deferred->len; k++)
          wait_index(w, g_array_index(w->deferred, guint, k));
        g_array_set_size(w->deferred, 0);
      }
      break;
    case TRACE_SEND:
      if (e->peer < 0 || e->peer >= w->t->nranks)
        break;
      if (depth > 0) {
        guint q = post(w, TRUE, e->peer, e->tag, e->bytes);
        g_array_append_val(w->deferred, q);
      } else {
        act(w, "send %d %u %" G_GINT64_FORMAT, e->peer, e->tag, e->bytes);
      }
      break;
    case TRACE_RECV:
      if (e->peer >= 0 && e->peer < w->t->nranks)
        act(w, "recv %d %u %" G_GINT64_FORMAT, e->peer, e->tag, e->bytes);
      break;
    case TRACE_ISEND:
      if (e->peer >= 0 && e->peer < w->t->nranks)
        post_request(w, TRUE, e->peer, e->tag, e->bytes, e->request);
      break;
    case TRACE_IRECV_REQUEST:
      if (env[i] >= 0 && ev[env[i]].peer >= 0 && ev[env[i]].peer < w->t->nranks)
        post_request(w, FALSE, ev[env[i]].peer, ev[env[i]].tag, ev[env[i]].bytes, e->request);
      break;
    case TRACE_IRECV:
      /* an Irecv completed without a request record: the replay receives in place */
      if (!complete(w, e->request) && e->peer >= 0 && e->peer < w->t->nranks)
        act(w, "recv %d %u %" G_GINT64_FORMAT, e->peer, e->tag, e->bytes);
      break;
    case TRACE_ISEND_COMPLETE:
      if (!complete(w, e->request))
        w->st->unmatched++;
      break;
    case TRACE_REQUEST_CANCELLED:
      if (g_hash_table_remove(w->by_req, &e->request))
        w->st->unmatched++; /* a send SMPI cannot cancel: left open */
      break;
    case TRACE_COLL_END:
    case TRACE_NBCOLL_COMPLETE:
      ok = collective(w, e, error);
      break;
    default:
      break;
    }
  }
  if (ok) {
    for (guint k = 0; k < w->deferred->len; k++)
      wait_index(w, g_array_index(w->deferred, guint, k));
    flush_compute(w, 1);
    act(w, "finalize");
  }
  g_free(env);
  return ok;
}

static gboolean file_error(const char *path, GError **error)
{
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: %s, expected a writable file", path,
              g_strerror(errno));
  return FALSE;
}

gboolean ti_write(const trace_source *s, const char *dir, const char *ranks, const char *list,
                  const ti_opts *o, ti_stats *stats, GError **error)
{
  const trace *t = trace_source_trace(s);
  ti_stats local;
  ti_stats *st = stats ? stats : &local;
  memset(st, 0, sizeof *st);
  g_autofree char *rdir = g_build_filename(dir, ranks, NULL);
  g_autofree char *lpath = g_build_filename(dir, list, NULL);
  if (g_mkdir_with_parents(rdir, 0755) != 0)
    return file_error(rdir, error);
  FILE *lf = fopen(lpath, "w");
  if (!lf)
    return file_error(lpath, error);
  ti_rank w = { t, trace_source_colls(s), o, st, NULL, 0,
                g_array_new(FALSE, FALSE, sizeof(ti_req)),
                g_hash_table_new_full(key_hash, key_equal, g_free, NULL),
                g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL),
                g_array_new(FALSE, FALSE, sizeof(guint)), g_array_new(FALSE, FALSE, sizeof(coll_msg)),
                g_new(int64_t, MAX(t->ncomms, 1)), g_new(int, MAX(t->ncomms, 1)), NULL, 0, 0 };
  trace_cursor *cur = trace_cursor_new(s);
  GArray *buf = g_array_new(FALSE, FALSE, sizeof(trace_event));
  gboolean ok = TRUE;
  for (int r = 0; r < t->nranks && ok; r++) {
    g_autofree char *name = g_strdup_printf("%d.txt", r);
    g_autofree char *rel = g_build_filename(ranks, name, NULL);
    g_autofree char *path = g_build_filename(dir, rel, NULL);
    const trace_event *ev = trace_source_direct(s, r);
    int64_t n = trace_source_records(s, r);
    if (!ev) {
      g_array_set_size(buf, (guint)n);
      int64_t got = 0, k;
      while (got < n && (k = trace_cursor_read(cur, r, &g_array_index(buf, trace_event, got),
                                               n - got)) > 0)
        got += k;
      n = got;
      ev = (const trace_event *)(void *)buf->data;
    }
    w.f = fopen(path, "w");
    if (!w.f) {
      ok = file_error(path, error);
      break;
    }
    w.rank = r;
    w.carry = 0;
    g_array_set_size(w.reqs, 0);
    g_hash_table_remove_all(w.by_key);
    g_hash_table_remove_all(w.by_req);
    g_array_set_size(w.deferred, 0);
    memset(w.call_k, 0, sizeof(int64_t) * (size_t)MAX(t->ncomms, 1));
    for (int c = 0; c < t->ncomms; c++)
      w.me[c] = -2;
    ok = write_rank(&w, ev, n, error);
    if ((ferror(w.f) | fclose(w.f)) != 0 && ok)
      ok = file_error(path, error);
    if (ok && fprintf(lf, "%s\n", rel) < 0)
      ok = file_error(lpath, error);
  }
  if ((ferror(lf) | fclose(lf)) != 0 && ok)
    ok = file_error(lpath, error);
  trace_cursor_free(cur);
  g_array_free(buf, TRUE);
  g_array_free(w.reqs, TRUE);
  g_hash_table_destroy(w.by_key);
  g_hash_table_destroy(w.by_req);
  g_array_free(w.deferred, TRUE);
  g_array_free(w.msgs, TRUE);
  g_free(w.call_k);
  g_free(w.me);
  g_free(w.bytes);
  return ok;
}
