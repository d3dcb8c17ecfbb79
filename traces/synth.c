/* synth.c - synthetic traces (patterns and timing in synth.h). Each
 * pattern (synth-patterns.c) builds, per rank, the list of message pairs
 * of one iteration; here one shared routine turns pairs into Score-P-like
 * MPI records, blocking exchanges are checked to complete, and the trace
 * is built in memory or streamed rank by rank to OTF2.
 * O(ranks * iterations * neighbours).
 */
#include "traces/synth-private.h"
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

void synth_opts_init(synth_opts *o)
{
  *o = (synth_opts){ .pattern = "ring", .ranks = 8, .bytes = 1024, .iterations = 10,
                     .gap_s = 1e-3, .seed = 1, .degree = 4, .shift = 1 };
}

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

/* ---- can blocking exchanges complete? ----------------------------------- */

/* One message of a slot, for matching sends with receives: MPI matches
 * them by source, destination and tag in order, so both sides sorted by
 * (src, dst, tag, slot) pair up entry by entry. */
typedef struct {
  int src, dst;
  uint32_t tag;
  int slot;      /* the global slot (off[rank] + i) of the side it was taken from */
} msg_key;

static int cmp_msg_key(const void *pa, const void *pb)
{
  const msg_key *a = pa, *b = pb;
  if (a->src != b->src)
    return (a->src > b->src) - (a->src < b->src);
  if (a->dst != b->dst)
    return (a->dst > b->dst) - (a->dst < b->dst);
  if (a->tag != b->tag)
    return (a->tag > b->tag) - (a->tag < b->tag);
  return (a->slot > b->slot) - (a->slot < b->slot);
}

/* Blocking exchanges are one MPI_Sendrecv per slot, in each rank's slot
 * order. A slot completes once its send's receiver and its receive's
 * sender have both entered the matching slot (a correct MPI program may
 * not count on a send being buffered: rendezvous). Played out as a
 * worklist - a rank that enters a slot wakes that slot's two partners -
 * in O(slots log slots). The structured patterns (stencils, ring, shift,
 * bitcomp, alltoall, cg) always complete: every rank meets its partners
 * in the same order of directions, rounds or bits. random and spmv pair a
 * rank's i-th destination with its i-th source, so a rank can wait for a
 * partner that waits for another: a cycle, which this finds. FALSE with
 * the first stuck rank named when some rank cannot finish. */
static gboolean blocking_completes(const gen *g, GError **error)
{
  int P = g->o->ranks;
  int *off = g_new(int, (size_t)P + 1);
  off[0] = 0;
  for (int r = 0; r < P; r++)
    off[r + 1] = off[r] + (int)g->pairs[r]->len;
  int S = off[P], ns = 0, nr = 0;
  /* per slot two keys, two waits and an owner; per rank a position and
   * queue room (each slot entered queues two partners) */
  uint64_t need = (uint64_t)S * (2 * sizeof(msg_key) + 5 * sizeof(int)) +
                  (uint64_t)P * 2 * sizeof(int);
  if (!budget_check_memory("gen: the check that blocking exchanges complete", need, error)) {
    g_free(off);
    return FALSE;
  }
  msg_key *sends = g_new(msg_key, MAX(S, 1)), *recvs = g_new(msg_key, MAX(S, 1));
  for (int r = 0; r < P; r++) {
    const xpair *p = (const xpair *)(void *)g->pairs[r]->data;
    for (int i = 0; i < (int)g->pairs[r]->len; i++) {
      if (p[i].to >= 0)
        sends[ns++] = (msg_key){ r, p[i].to, p[i].tag, off[r] + i };
      if (p[i].from >= 0)
        recvs[nr++] = (msg_key){ p[i].from, r, p[i].tag, off[r] + i };
    }
  }
  qsort(sends, (size_t)ns, sizeof *sends, cmp_msg_key);
  qsort(recvs, (size_t)nr, sizeof *recvs, cmp_msg_key);
  /* per slot: the partner's slot its send / its receive waits for; -1
   * none, INT_MAX never matched */
  int *send_wait = g_new(int, MAX(S, 1)), *recv_wait = g_new(int, MAX(S, 1));
  for (int k = 0; k < S; k++)
    send_wait[k] = recv_wait[k] = -1;
  for (int a = 0, b = 0; a < ns || b < nr;) {
    int c = a < ns && b < nr ? cmp_msg_key(&(msg_key){ sends[a].src, sends[a].dst, sends[a].tag, 0 },
                                           &(msg_key){ recvs[b].src, recvs[b].dst, recvs[b].tag, 0 })
                             : a < ns ? -1 : 1;
    if (c == 0) {
      send_wait[sends[a].slot] = recvs[b].slot;
      recv_wait[recvs[b].slot] = sends[a].slot;
      a++, b++;
    } else if (c < 0) {
      send_wait[sends[a++].slot] = G_MAXINT;
    } else {
      recv_wait[recvs[b++].slot] = G_MAXINT;
    }
  }
  g_free(sends);
  g_free(recvs);
  /* at[r]: the global slot rank r is in (off[r + 1]: done) */
  int *at = g_new(int, P), *queue = g_new(int, (size_t)P + 2 * (size_t)S), nq = 0;
  for (int r = 0; r < P; r++) {
    at[r] = off[r];
    queue[nq++] = r;
  }
  /* has the rank owning global slot k entered it? (ranks ascend with k) */
  int *owner = g_new(int, MAX(S, 1));
  for (int r = 0; r < P; r++)
    for (int k = off[r]; k < off[r + 1]; k++)
      owner[k] = r;
#define ENTERED(k) ((k) < 0 || ((k) != G_MAXINT && at[owner[k]] >= (k)))
  while (nq) {
    int r = queue[--nq];
    while (at[r] < off[r + 1] && ENTERED(send_wait[at[r]]) && ENTERED(recv_wait[at[r]])) {
      int k = ++at[r];
      if (k == off[r + 1])
        break;
      const xpair *p = &((const xpair *)(void *)g->pairs[r]->data)[k - off[r]];
      if (p->to >= 0)
        queue[nq++] = p->to;
      if (p->from >= 0)
        queue[nq++] = p->from;
    }
  }
  int stuck = 0, first = -1;
  for (int r = 0; r < P; r++)
    if (at[r] < off[r + 1]) {
      stuck++;
      first = first < 0 ? r : first;
    }
  if (stuck) {
    int k = at[first];
    const xpair *p = &((const xpair *)(void *)g->pairs[first]->data)[k - off[first]];
    gboolean on_send = !ENTERED(send_wait[k]);
    g_set_error(error, SYNTH_ERROR, SYNTH_ERROR_OPTION,
                "--pattern %s without --nonblocking: its blocking exchanges (one MPI_Sendrecv "
                "per message, partners in the order %s) cannot complete: %d of %d ranks would "
                "wait forever, the first rank %d in its exchange %d %s rank %d; expected "
                "--nonblocking (MPI_Irecv, MPI_Isend, MPI_Waitall)", g->o->pattern,
                strcmp(g->o->pattern, "random") == 0 ? "drawn" : "of the matrix", stuck, P,
                first, k - off[first] + 1, on_send ? "sending to" : "receiving from",
                on_send ? p->to : p->from);
  }
#undef ENTERED
  g_free(owner);
  g_free(at);
  g_free(queue);
  g_free(send_wait);
  g_free(recv_wait);
  g_free(off);
  return stuck == 0;
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
  gboolean own_calls = strcmp(o->pattern ? o->pattern : "", "pingpong") == 0;
  return synth_make_pairs(g, error) && check_size(g, streamed, error) &&
         (o->nonblocking || own_calls || blocking_completes(g, error));
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
