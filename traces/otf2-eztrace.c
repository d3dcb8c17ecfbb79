/* otf2-eztrace.c - EZTrace 2.x archives (otf2-eztrace-private.h).
 *
 * What EZTrace 2.0's MPI module (Debian's eztrace 2.0+repack, module
 * openmpi or mpich) writes, seen with otf2-print on tests/data/traces/
 * eztrace-tracer_app-4: Enter/Leave of every MPI call it wraps (regions
 * of paradigm USER named MPI_*), MPI_SEND / MPI_ISEND with receiver,
 * communicator, tag and length (MPI_Start* writes the MPI_ISEND of a
 * persistent send), MPI_RECV with sender, tag and length, and
 * MPI_COLLECTIVE_BEGIN/END of the blocking collectives. It does not write:
 * the MPI_IRECV of a non-blocking receive (it leaves only
 * MPI_IRECV_REQUEST, which names neither sender, tag nor size; a
 * persistent receive completed by MPI_Waitall gets one now and then, or
 * its send an MPI_ISEND_COMPLETE instead: 0 of 84 receives in the archive
 * above, the 8 persistent ones in another run), most MPI_ISEND_COMPLETE,
 * the messages of MPI_Sendrecv, MPI_Scan, the completion of non-blocking
 * collectives (MPI_COLLECTIVE_BEGIN only).
 * Each process's clock starts at its own initialisation (1 ns ticks,
 * global offset 0), so times of different ranks do not compare.
 *
 * The approximation of the missing receive completions:
 *  - where: a receive completes (an MPI_IRECV record is inserted, at the
 *    Leave's time) at the Leave of the last call of the first run of
 *    consecutive MPI_Wait* / MPI_Test* calls after the call that posted
 *    it. EZTrace does not record which requests a wait completes, and a
 *    run of tests ends with the one that succeeded; never earlier than the
 *    program could have had the data. Without such a call: at the rank's
 *    last record;
 *  - what: the sends to a rank that its recorded receives (MPI_RECV, any
 *    MPI_IRECV) match - same sender, communicator and tag, in send order,
 *    as MPI matches them - are taken out; the others go to its receives
 *    without completion. Which one to which comes from a causal pass over
 *    the trace (clocks do not compare across ranks): every rank advances
 *    record by record and waits where the program waited - at a
 *    completion point until a send to it has been issued, in a recorded
 *    receive until its send has, in a collective until every member has
 *    arrived -; a completion takes the oldest send issued to the rank that
 *    nothing took yet. A rank runs until it waits, ranks in turn; one
 *    sender's sends keep their order, so MPI's non-overtaking order per
 *    (sender, communicator, tag) holds, and the replay can complete every
 *    receive in the order the pass did (a receive is never given a send
 *    its sender makes only after it). When every rank waits (more
 *    receives than sends, a collective a member never reaches), the lowest
 *    waiting rank stops waiting once; a receive left without a send keeps
 *    no completion and the replay posts nothing for it.
 */
#include "traces/otf2-eztrace-private.h"

#include <stdlib.h>
#include <string.h>

#include "traces/trace-private.h"

gboolean eztrace_creator(const char *creator)
{
  return creator && strstr(creator, "EZTrace") != NULL;
}

/* ---- the missing receive completions --------------------------------- */

/* A send to a rank: who sent it, its envelope, whether its sender has
 * reached it in the pass, and whether a recorded receive matches it. */
typedef struct {
  int64_t bytes;
  int src;
  uint32_t comm, tag;
  gboolean issued, taken;
} ez_send;

typedef struct {
  int src;
  uint32_t comm, tag;
} ez_key;

static guint key_hash(gconstpointer p)
{
  const ez_key *k = p;
  return (guint)k->src * 2654435761u ^ k->comm * 40503u ^ k->tag;
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
  const ez_key *x = a, *y = b;
  return x->src == y->src && x->comm == y->comm && x->tag == y->tag;
}

/* The sends of one key in send order, and how many recorded receives took. */
typedef struct {
  ez_key key;
  GArray *idx;      /* indices into the destination's sends */
  guint next;
} ez_queue;

static void queue_free(gpointer p)
{
  ez_queue *q = p;
  g_array_free(q->idx, TRUE);
  g_free(q);
}

/* Record `pos` of a rank refers to send `idx` of rank `rank`'s sends
 * (the send itself, or the recorded receive that takes it). */
typedef struct {
  int64_t pos;
  int rank;
  guint idx;
} ez_ref;

/* A receive request to complete: posted at `post`, completing before
 * record `at` (the rank's record count: at its end). */
typedef struct {
  int64_t post, at;
} ez_req;

static int req_order(const void *a, const void *b)
{
  const ez_req *x = a, *y = b;
  if (x->at != y->at)
    return x->at < y->at ? -1 : 1;
  return x->post < y->post ? -1 : x->post > y->post;
}

/* A completion record to insert before record `pos` of its rank. */
typedef struct {
  int64_t pos;
  int64_t order;    /* the request's post position: ties keep post order */
  trace_event ev;
} ez_insert;

static int insert_order(const void *a, const void *b)
{
  const ez_insert *x = a, *y = b;
  if (x->pos != y->pos)
    return x->pos < y->pos ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static gboolean is_completion_call(const trace *t, uint32_t region)
{
  const char *n = region < (uint32_t)t->nregions ? t->regions[region] : "";
  return g_str_has_prefix(n, "MPI_Wait") || g_str_has_prefix(n, "MPI_Test");
}

/* For every record of rank r: the position of the Leave at which a
 * receive posted there completes (the end of the first run of
 * consecutive MPI_Wait* or MPI_Test* calls that starts after the call
 * holding the record), -1 when no such call follows. Top-level MPI calls
 * only; one backward pass. */
static int64_t *completion_points(const trace *t, int r)
{
  const trace_rank *tr = &t->ranks[r];
  int64_t *at = g_new(int64_t, MAX(tr->nevents, 1));
  /* backwards: `next` is the answer for a record before the current call */
  int64_t next = -1, run_end = -1, leave = -1;
  gboolean next_is_completion = FALSE;  /* the call after the current one */
  int depth = 0;
  for (int64_t i = tr->nevents; i-- > 0;) {
    const trace_event *e = &tr->events[i];
    at[i] = next;
    if (e->kind == TRACE_LEAVE) {
      if (depth++ == 0)
        leave = i;
    } else if (e->kind == TRACE_ENTER && depth > 0 && --depth == 0) {
      gboolean comp = is_completion_call(t, e->region);
      if (comp) {
        run_end = next_is_completion ? run_end : leave;
        next = run_end;
      }
      next_is_completion = comp;
    }
  }
  return at;
}

/* Per rank state of the pass. */
typedef struct {
  int64_t pos;           /* next record */
  GArray *reqs;          /* ez_req, by completion point */
  guint next_req;
  GArray *sends;         /* ez_ref: its sends, in order */
  guint next_send;
  GArray *recvs;         /* ez_ref: its recorded receives that take a send */
  guint next_recv;
  GHashTable *calls;     /* comm + 1 -> collective calls done on it */
  gboolean arrived;      /* counted at the collective it waits in */
  gboolean force;        /* the pass is stuck: stop waiting once */
  gboolean done;
} ez_rank;

typedef struct {
  trace *t;
  ez_rank *rk;
  GArray **sends;        /* per destination: ez_send */
  GQueue *avail;         /* per destination: indices of issued sends no recorded receive takes */
  GArray **arrivals;     /* per comm: members arrived at its k-th call (int) */
  GArray **inserts;      /* per rank: ez_insert */
  int64_t unpaired;
} ez_pass;

enum { EZ_BLOCKED, EZ_ADVANCED, EZ_DONE };

/* Rank r goes one record on, or says why it cannot. */
static int step(ez_pass *P, int r)
{
  ez_rank *R = &P->rk[r];
  trace_rank *tr = &P->t->ranks[r];
  /* the receives that complete before this record take the sends
   * issued to the rank so far, oldest first */
  gboolean skipped = FALSE;
  while (R->next_req < R->reqs->len) {
    ez_req *q = &g_array_index(R->reqs, ez_req, R->next_req);
    if (q->at != R->pos)
      break;
    if (g_queue_is_empty(&P->avail[r])) {
      if (!R->force)
        return EZ_BLOCKED;
      P->unpaired++;  /* the pass is stuck: no send will come for it */
      skipped = TRUE;
      R->next_req++;
      continue;
    }
    guint k = GPOINTER_TO_UINT(g_queue_pop_head(&P->avail[r]));
    const ez_send *s = &g_array_index(P->sends[r], ez_send, k);
    int64_t time = R->pos < tr->nevents ? tr->events[R->pos].time
                                        : tr->events[tr->nevents - 1].time;
    ez_insert x = { R->pos, q->post, { .kind = TRACE_IRECV, .time = time, .bytes = s->bytes,
                                      .request = tr->events[q->post].request, .comm = s->comm,
                                      .peer = s->src, .tag = s->tag } };
    g_array_append_val(P->inserts[r], x);
    R->next_req++;
  }
  if (skipped)
    R->force = FALSE;
  if (R->pos == tr->nevents) {
    R->done = TRUE;
    return EZ_DONE;
  }
  const trace_event *e = &tr->events[R->pos];
  if (R->next_recv < R->recvs->len &&
      g_array_index(R->recvs, ez_ref, R->next_recv).pos == R->pos) {
    /* a recorded receive waits for the send it takes */
    const ez_ref *ref = &g_array_index(R->recvs, ez_ref, R->next_recv);
    if (!g_array_index(P->sends[ref->rank], ez_send, ref->idx).issued && !R->force)
      return EZ_BLOCKED;
    R->next_recv++;
  }
  if (R->next_send < R->sends->len &&
      g_array_index(R->sends, ez_ref, R->next_send).pos == R->pos) {
    const ez_ref *ref = &g_array_index(R->sends, ez_ref, R->next_send++);
    ez_send *s = &g_array_index(P->sends[ref->rank], ez_send, ref->idx);
    s->issued = TRUE;
    if (!s->taken)
      g_queue_push_tail(&P->avail[ref->rank], GUINT_TO_POINTER(ref->idx));
  }
  const trace_comm *c = e->kind == TRACE_COLL_END && e->comm < (uint32_t)P->t->ncomms
                            ? &P->t->comms[e->comm] : NULL;
  if (c && !c->self && c->size > 1) {
    /* a collective: every member arrives before any leaves */
    guint k = GPOINTER_TO_UINT(g_hash_table_lookup(R->calls, GUINT_TO_POINTER(e->comm + 1)));
    GArray *a = P->arrivals[e->comm];
    if (!R->arrived) {
      if (a->len <= k)
        g_array_set_size(a, k + 1);
      g_array_index(a, int, k)++;
      R->arrived = TRUE;
    }
    if (g_array_index(a, int, k) < c->size && !R->force)
      return EZ_BLOCKED;
    g_hash_table_insert(R->calls, GUINT_TO_POINTER(e->comm + 1), GUINT_TO_POINTER(k + 1));
    R->arrived = FALSE;
  }
  R->force = FALSE;
  R->pos++;
  return EZ_ADVANCED;
}

/* Inserts rank r's completion records at their places. */
static void insert_records(trace_rank *tr, GArray *ins)
{
  if (ins->len == 0)
    return;
  qsort(ins->data, ins->len, sizeof(ez_insert), insert_order);
  trace_event *ev = g_new(trace_event, (size_t)tr->nevents + ins->len);
  int64_t o = 0, i = 0;
  for (guint k = 0; k < ins->len; k++) {
    const ez_insert *x = &g_array_index(ins, ez_insert, k);
    for (; i < x->pos; i++)
      ev[o++] = tr->events[i];
    ev[o++] = x->ev;
  }
  for (; i < tr->nevents; i++)
    ev[o++] = tr->events[i];
  g_free(tr->events);
  tr->events = ev;
  tr->nevents = tr->capacity = o;
}

/* Rank d's recorded receives take their sends (per sender, communicator
 * and tag, in send order); its requests without completion are listed
 * with their completion points. Returns how many requests. */
static guint prepare_rank(ez_pass *P, int d)
{
  trace *t = P->t;
  trace_rank *tr = &t->ranks[d];
  ez_rank *R = &P->rk[d];
  GArray *sd = P->sends[d];
  GHashTable *queues = g_hash_table_new_full(key_hash, key_equal, NULL, queue_free);
  for (guint k = 0; k < sd->len; k++) {
    ez_send *s = &g_array_index(sd, ez_send, k);
    ez_key key = { s->src, s->comm, s->tag };
    ez_queue *q = g_hash_table_lookup(queues, &key);
    if (!q) {
      q = g_new0(ez_queue, 1);
      q->key = key;
      q->idx = g_array_new(FALSE, FALSE, sizeof(guint));
      g_hash_table_insert(queues, &q->key, q);
    }
    g_array_append_val(q->idx, k);
  }
  /* requests are open from MPI_IRECV_REQUEST to an MPI_IRECV or a
   * cancel of the same request */
  GHashTable *open = g_hash_table_new(g_int64_hash, g_int64_equal);
  GArray *posts = g_array_new(FALSE, FALSE, sizeof(int64_t));
  GArray *closed = g_array_new(FALSE, TRUE, sizeof(gboolean));
  for (int64_t i = 0; i < tr->nevents; i++) {
    trace_event *e = &tr->events[i];
    if (e->kind == TRACE_RECV || e->kind == TRACE_IRECV) {
      ez_key key = { e->peer, e->comm, e->tag };
      ez_queue *q = g_hash_table_lookup(queues, &key);
      if (q && q->next < q->idx->len) {
        guint k = g_array_index(q->idx, guint, q->next++);
        g_array_index(sd, ez_send, k).taken = TRUE;
        ez_ref ref = { i, d, k };
        g_array_append_val(R->recvs, ref);
      }
    }
    if (e->kind == TRACE_IRECV_REQUEST) {
      g_array_append_val(posts, i);
      g_array_set_size(closed, posts->len);
      /* the key points into the record, which stays put meanwhile */
      g_hash_table_replace(open, &e->request, GUINT_TO_POINTER(posts->len));
    } else if (e->kind == TRACE_IRECV || e->kind == TRACE_REQUEST_CANCELLED) {
      guint at = GPOINTER_TO_UINT(g_hash_table_lookup(open, &e->request));
      if (at) {
        g_array_index(closed, gboolean, at - 1) = TRUE;
        g_hash_table_remove(open, &e->request);
      }
    }
  }
  int64_t *at = completion_points(t, d);
  for (guint k = 0; k < posts->len; k++)
    if (!g_array_index(closed, gboolean, k)) {
      int64_t p = g_array_index(posts, int64_t, k);
      ez_req q = { p, at[p] >= 0 ? at[p] : tr->nevents };
      g_array_append_val(R->reqs, q);
    }
  g_array_sort(R->reqs, req_order);
  g_free(at);
  g_array_free(posts, TRUE);
  g_array_free(closed, TRUE);
  g_hash_table_destroy(open);
  g_hash_table_destroy(queues);
  return R->reqs->len;
}

void eztrace_complete_irecvs(trace *t, const char *anchor)
{
  int n = t->nranks;
  ez_pass P = { .t = t, .rk = g_new0(ez_rank, n), .sends = g_new(GArray *, n),
                .avail = g_new0(GQueue, n), .arrivals = g_new(GArray *, MAX(t->ncomms, 1)),
                .inserts = g_new(GArray *, n) };
  for (int c = 0; c < t->ncomms; c++)
    P.arrivals[c] = g_array_new(FALSE, TRUE, sizeof(int));
  for (int r = 0; r < n; r++) {
    P.sends[r] = g_array_new(FALSE, FALSE, sizeof(ez_send));
    P.inserts[r] = g_array_new(FALSE, FALSE, sizeof(ez_insert));
    P.rk[r] = (ez_rank){ .reqs = g_array_new(FALSE, FALSE, sizeof(ez_req)),
                         .sends = g_array_new(FALSE, FALSE, sizeof(ez_ref)),
                         .recvs = g_array_new(FALSE, FALSE, sizeof(ez_ref)),
                         .calls = g_hash_table_new(NULL, NULL) };
  }
  for (int r = 0; r < n; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if ((e->kind == TRACE_SEND || e->kind == TRACE_ISEND) && e->peer >= 0 && e->peer < n) {
        ez_send s = { e->bytes, r, e->comm, e->tag, FALSE, FALSE };
        ez_ref ref = { i, e->peer, P.sends[e->peer]->len };
        g_array_append_val(P.sends[e->peer], s);
        g_array_append_val(P.rk[r].sends, ref);
      }
    }
  int64_t missing = 0;
  for (int d = 0; d < n; d++)
    missing += prepare_rank(&P, d);
  /* the pass: every rank runs until it waits; when all wait, the lowest
   * waiting rank stops waiting once */
  if (missing > 0) {
    int left = n;
    while (left > 0) {
      gboolean moved = FALSE;
      for (int r = 0; r < n; r++) {
        int st = EZ_ADVANCED;
        while (!P.rk[r].done && (st = step(&P, r)) == EZ_ADVANCED)
          moved = TRUE;
        if (st == EZ_DONE) {
          left--;
          moved = TRUE;
        }
      }
      for (int r = 0; r < n && !moved; r++)
        if (!P.rk[r].done) {
          P.rk[r].force = TRUE;
          moved = TRUE;
        }
    }
    for (int r = 0; r < n; r++)
      insert_records(&t->ranks[r], P.inserts[r]);
  }
  for (int r = 0; r < n; r++) {
    g_array_free(P.rk[r].reqs, TRUE);
    g_array_free(P.rk[r].sends, TRUE);
    g_array_free(P.rk[r].recvs, TRUE);
    g_hash_table_destroy(P.rk[r].calls);
    g_array_free(P.sends[r], TRUE);
    g_array_free(P.inserts[r], TRUE);
    g_queue_clear(&P.avail[r]);
  }
  for (int c = 0; c < t->ncomms; c++)
    g_array_free(P.arrivals[c], TRUE);
  g_free(P.rk);
  g_free(P.sends);
  g_free(P.avail);
  g_free(P.arrivals);
  g_free(P.inserts);
  if (missing == 0)
    return;
  GString *m = g_string_new(NULL);
  g_string_printf(m, "%s: EZTrace trace: its %" G_GINT64_FORMAT " non-blocking receives have no "
                  "completion records (EZTrace wrote their MPI_IRECV_REQUEST only, without "
                  "sender, tag or size); approximated: each completes at the end of the first run of "
                  "MPI_Wait*/MPI_Test* calls after it was posted, with the oldest send to its "
                  "rank that no recorded receive takes, in a causal pass over the trace", anchor,
                  missing);
  if (P.unpaired > 0)
    g_string_append_printf(m, "; %" G_GINT64_FORMAT " found no send and are not replayed",
                           P.unpaired);
  g_free(t->notice);
  t->notice = g_string_free(m, FALSE);
}
