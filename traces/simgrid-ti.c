/* simgrid-ti.c - SimGrid's time-independent trace format from a trace
 * source (the rules are in simgrid-ti.h). */
#include "traces/simgrid-ti.h"
#include "traces/simgrid-ti-key.h"
#include "traces/trace-private.h"
#include "util/checked.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ti_opts_init(ti_opts *o)
{
  *o = (ti_opts){ .compute_scale = 1.0, .flops_per_s = TI_FLOPS_PER_S, .coll_tag = 1u << 30 };
}


typedef struct {
  ti_key key;
  gboolean live;   /* posted, not waited yet */
} ti_req;

G_STATIC_ASSERT((int64_t)TI_TAG_SPAN * TI_LANES * TI_COMM_SLOTS <= (1 << 30));

/* One direction of one envelope: the messages to (send) or from (receive)
 * `peer` on `comm` with `tag`, counted in the order MPI matches them. */
typedef struct {
  int32_t peer;
  uint32_t comm, tag;
  uint32_t send;
} ti_envelope;

static guint envelope_hash(gconstpointer p)
{
  const ti_envelope *e = p;
  return (guint)e->peer * 2654435761u ^ (e->comm * 40503u + e->tag * 31u + e->send);
}

static gboolean envelope_equal(gconstpointer a, gconstpointer b)
{
  return memcmp(a, b, sizeof(ti_envelope)) == 0;
}

/* A receive of the rank's share of a collective and its request. */
typedef struct {
  guint msg, req;
} ti_recv;

/* Scratch of a collective call, reused across calls: the rank's messages
 * grouped by round (a counting sort, as sim/replay-coll.c indexes its
 * schedule), so a call costs O(n + rounds), not O(n x rounds). */
typedef struct {
  GArray *recvs;         /* ti_recv: the rank's receives, in schedule order */
  GArray *sends;         /* guint: the rank's sends (message indices), in schedule order */
  GArray *recv_by_round; /* guint: requests of recvs, round by round */
  GArray *send_by_round; /* guint: messages of sends, round by round */
  GArray *recv_off;      /* guint, rounds + 2: round r is [off[r], off[r + 1]) */
  GArray *send_off;
  GArray *send_req;      /* guint: the sends' requests, in posting order */
} ti_coll_scratch;

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
  ti_coll_scratch cs;
  int64_t *call_k;       /* per communicator: calls made so far */
  int *me;               /* per communicator: the rank's comm rank, -2 unknown */
  int64_t *bytes;        /* scratch: contributions */
  int nbytes;
  int64_t carry;         /* computation not yet written, ps */
  GHashTable *occurrences; /* ti_envelope -> messages so far (int64 in a pointer) */
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

/* The tag SMPI gets for the next message of `e` (the k-th of its
 * envelope): messages of one envelope in lanes k mod TI_LANES, so that
 * up to TI_LANES of them are open at once under distinct SMPI keys, and
 * MPI's order within the envelope is the order within a lane. */
static uint32_t smpi_tag(ti_rank *w, int peer, uint32_t comm, uint32_t tag, gboolean send)
{
  ti_envelope e = { peer, comm, tag, (uint32_t)send };
  gpointer v = NULL;
  int64_t k = 0;
  if (g_hash_table_lookup_extended(w->occurrences, &e, NULL, &v))
    k = GPOINTER_TO_SIZE(v);
  g_hash_table_replace(w->occurrences, g_memdup2(&e, sizeof e), GSIZE_TO_POINTER((gsize)k + 1));
  if (tag >= TI_TAG_SPAN)
    w->st->tags_folded++;
  if (comm >= TI_COMM_SLOTS)
    w->st->comms_folded++;
  uint32_t slot = (comm % TI_COMM_SLOTS) * TI_LANES + (uint32_t)(k % TI_LANES);
  return tag % TI_TAG_SPAN + TI_TAG_SPAN * slot;
}

static void flush_compute(ti_rank *w, int64_t min)
{
  if (w->carry <= 0 || w->carry < min)
    return;
  if (w->o->flops_per_s == TI_FLOPS_PER_S)
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
  ti_coll_scratch *cs = &w->cs;
  /* the receives, posted at the call (schedule order); the sends noted */
  g_array_set_size(cs->recvs, 0);
  g_array_set_size(cs->sends, 0);
  for (guint i = 0; i < n; i++) {
    if (m[i].dst == j) {
      ti_recv v = { i, post(w, FALSE, tc->members[m[i].src], w->o->coll_tag + (uint32_t)m[i].round,
                            m[i].bytes) };
      g_array_append_val(cs->recvs, v);
    }
    if (m[i].src == j)
      g_array_append_val(cs->sends, i);
  }
  const ti_recv *rv = (const ti_recv *)(void *)cs->recvs->data;
  const guint *sv = (const guint *)(void *)cs->sends->data;
  /* grouped by round, schedule order within a round */
  g_array_set_size(cs->recv_off, (guint)nr + 2);
  g_array_set_size(cs->send_off, (guint)nr + 2);
  guint *roff = (guint *)(void *)cs->recv_off->data, *soff = (guint *)(void *)cs->send_off->data;
  memset(roff, 0, sizeof(guint) * ((size_t)nr + 2));
  memset(soff, 0, sizeof(guint) * ((size_t)nr + 2));
  for (guint x = 0; x < cs->recvs->len; x++)
    roff[m[rv[x].msg].round + 2]++;
  for (guint x = 0; x < cs->sends->len; x++)
    soff[m[sv[x]].round + 2]++;
  for (int r = 0; r < nr; r++) {
    roff[r + 2] += roff[r + 1];
    soff[r + 2] += soff[r + 1];
  }
  g_array_set_size(cs->recv_by_round, cs->recvs->len);
  g_array_set_size(cs->send_by_round, cs->sends->len);
  guint *rb = (guint *)(void *)cs->recv_by_round->data;
  guint *sb = (guint *)(void *)cs->send_by_round->data;
  for (guint x = 0; x < cs->recvs->len; x++)
    rb[roff[m[rv[x].msg].round + 1]++] = rv[x].req;
  for (guint x = 0; x < cs->sends->len; x++)
    sb[soff[m[sv[x]].round + 1]++] = sv[x];
  /* round by round: the previous round's receives waited, this round's
   * sends posted */
  g_array_set_size(cs->send_req, 0);
  for (int r = 0; r < nr; r++) {
    if (r > 0)
      for (guint x = roff[r - 1]; x < roff[r]; x++)
        wait_index(w, rb[x]);
    for (guint x = soff[r]; x < soff[r + 1]; x++) {
      const coll_msg *c = &m[sb[x]];
      guint q = post(w, TRUE, tc->members[c->dst], w->o->coll_tag + (uint32_t)r, c->bytes);
      g_array_append_val(cs->send_req, q);
    }
  }
  for (guint x = 0; x < cs->recvs->len; x++)
    wait_index(w, g_array_index(cs->recvs, ti_recv, x).req);
  for (guint x = 0; x < cs->send_req->len; x++)
    wait_index(w, g_array_index(cs->send_req, guint, x));
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
  uint32_t tag;
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
      tag = smpi_tag(w, e->peer, e->comm, e->tag, TRUE);
      if (depth > 0) {
        guint q = post(w, TRUE, e->peer, tag, e->bytes);
        g_array_append_val(w->deferred, q);
      } else {
        act(w, "send %d %u %" G_GINT64_FORMAT, e->peer, tag, e->bytes);
      }
      break;
    case TRACE_RECV:
      if (e->peer >= 0 && e->peer < w->t->nranks)
        act(w, "recv %d %u %" G_GINT64_FORMAT, e->peer, smpi_tag(w, e->peer, e->comm, e->tag, FALSE),
            e->bytes);
      break;
    case TRACE_ISEND:
      if (e->peer >= 0 && e->peer < w->t->nranks)
        post_request(w, TRUE, e->peer, smpi_tag(w, e->peer, e->comm, e->tag, TRUE), e->bytes,
                     e->request);
      break;
    case TRACE_IRECV_REQUEST:
      if (env[i] >= 0 && ev[env[i]].peer >= 0 && ev[env[i]].peer < w->t->nranks) {
        const trace_event *c = &ev[env[i]];
        post_request(w, FALSE, c->peer, smpi_tag(w, c->peer, c->comm, c->tag, FALSE), c->bytes,
                     e->request);
      }
      break;
    case TRACE_IRECV:
      /* an Irecv completed without a request record: the replay receives in place */
      if (!complete(w, e->request) && e->peer >= 0 && e->peer < w->t->nranks)
        act(w, "recv %d %u %" G_GINT64_FORMAT, e->peer,
            smpi_tag(w, e->peer, e->comm, e->tag, FALSE), e->bytes);
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
                g_hash_table_new_full(ti_key_hash, ti_key_equal, g_free, NULL),
                g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL),
                g_array_new(FALSE, FALSE, sizeof(guint)), g_array_new(FALSE, FALSE, sizeof(coll_msg)),
                { g_array_new(FALSE, FALSE, sizeof(ti_recv)), g_array_new(FALSE, FALSE, sizeof(guint)),
                  g_array_new(FALSE, FALSE, sizeof(guint)), g_array_new(FALSE, FALSE, sizeof(guint)),
                  g_array_new(FALSE, FALSE, sizeof(guint)), g_array_new(FALSE, FALSE, sizeof(guint)),
                  g_array_new(FALSE, FALSE, sizeof(guint)) },
                g_new(int64_t, MAX(t->ncomms, 1)), g_new(int, MAX(t->ncomms, 1)), NULL, 0, 0,
                g_hash_table_new_full(envelope_hash, envelope_equal, g_free, NULL) };
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
    g_hash_table_remove_all(w.occurrences);
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
  g_hash_table_destroy(w.occurrences);
  g_array_free(w.deferred, TRUE);
  g_array_free(w.msgs, TRUE);
  GArray *scratch[] = { w.cs.recvs, w.cs.sends, w.cs.recv_by_round, w.cs.send_by_round,
                        w.cs.recv_off, w.cs.send_off, w.cs.send_req };
  for (size_t i = 0; i < G_N_ELEMENTS(scratch); i++)
    g_array_free(scratch[i], TRUE);
  g_free(w.call_k);
  g_free(w.me);
  g_free(w.bytes);
  return ok;
}
