/* trace.c - the in-memory trace: construction, summary (counts and
 * send/receive matching) and the communication graph of a trace.
 */
#include "traces/trace.h"
#include "traces/trace-private.h"
#include "traces/trace-colls.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "util/checked.h"

G_DEFINE_QUARK(trace-error-quark, trace_error)

static const char *const kind_names[] = {
#define TRACE_KIND_NAME(code, name, fields) [code] = name,
  TRACE_EVENT_KINDS(TRACE_KIND_NAME)
#undef TRACE_KIND_NAME
};

static const char *const rec_names[] = {
#define TRACE_REC_NAME(code, name) [code] = name,
  TRACE_RECORD_TYPES(TRACE_REC_NAME)
#undef TRACE_REC_NAME
};

const char *trace_kind_name(int kind)
{
  return kind >= 0 && kind < TRACE_NKINDS ? kind_names[kind] : "unknown";
}

const char *trace_rec_name(int rec)
{
  return rec >= 0 && rec < TRACE_NRECS ? rec_names[rec] : "unknown";
}

trace *trace_alloc(int nranks)
{
  g_assert(nranks >= 1);
  trace *t = g_new0(trace, 1);
  t->nranks = nranks;
  t->ranks = g_new0(trace_rank, nranks);
  t->timer_resolution = UINT64_C(1000000000000);
  return t;
}

void trace_reserve(trace *t, int rank, int64_t n)
{
  trace_rank *r = &t->ranks[rank];
  if (r->nevents + n > r->capacity) {
    r->capacity = r->nevents + n;
    r->events = g_renew(trace_event, r->events, (size_t)r->capacity);
  }
}

gboolean trace_ticks_to_ps(uint64_t ticks, uint64_t offset, uint64_t resolution, int64_t *ps)
{
  if (resolution == 0 || resolution > INT64_MAX || ticks < offset || ticks - offset > INT64_MAX)
    return FALSE;
  int64_t d = (int64_t)(ticks - offset);
  if (resolution == UINT64_C(1000000000000)) {
    *ps = d;
    return TRUE;
  }
  int64_t res = (int64_t)resolution;
  int64_t q = d / res, r = d % res, whole;
  /* ps, ns, us ... clocks: exact, no rounding */
  int64_t part = INT64_C(1000000000000) % res == 0
                     ? r * (INT64_C(1000000000000) / res)
                     : (int64_t)llround((double)r * 1e12 / (double)res);
  return checked_mul_i64(q, INT64_C(1000000000000), &whole) && checked_add_i64(whole, part, ps);
}

trace *trace_new(int nranks)
{
  trace *t = trace_alloc(nranks);
  int *world = g_new(int, nranks);
  for (int i = 0; i < nranks; i++)
    world[i] = i;
  t->world = trace_add_comm(t, "MPI_COMM_WORLD", nranks, world);
  trace_add_comm(t, "MPI_COMM_SELF", 1, NULL);
  t->comms[1].self = TRUE;
  g_free(world);
  return t;
}

uint32_t trace_add_region(trace *t, const char *name)
{
  t->regions = g_renew(char *, t->regions, t->nregions + 1);
  t->regions[t->nregions] = g_strdup(name);
  return (uint32_t)t->nregions++;
}

uint32_t trace_add_comm(trace *t, const char *name, int size, const int *members)
{
  t->comms = g_renew(trace_comm, t->comms, t->ncomms + 1);
  trace_comm *c = &t->comms[t->ncomms];
  c->name = g_strdup(name ? name : "");
  c->size = size;
  c->self = FALSE;
  c->members = members ? g_memdup2(members, sizeof(int) * (size_t)size) : NULL;
  return (uint32_t)t->ncomms++;
}

trace_event *trace_push(trace *t, int rank, const trace_event *ev)
{
  g_assert(rank >= 0 && rank < t->nranks);
  trace_rank *r = &t->ranks[rank];
  if (r->nevents == r->capacity) {
    r->capacity = r->capacity ? r->capacity + r->capacity / 2 : 64;
    r->events = g_renew(trace_event, r->events, (size_t)r->capacity);
  }
  r->events[r->nevents] = *ev;
  return &r->events[r->nevents++];
}

void trace_shrink(trace *t)
{
  for (int i = 0; i < t->nranks; i++) {
    trace_rank *r = &t->ranks[i];
    if (r->capacity > r->nevents) {
      r->events = g_renew(trace_event, r->events, (size_t)MAX(r->nevents, 1));
      r->capacity = MAX(r->nevents, 1);
    }
  }
}

size_t trace_event_bytes(const trace *t)
{
  size_t b = 0;
  for (int i = 0; i < t->nranks; i++)
    b += (size_t)t->ranks[i].capacity * sizeof(trace_event);
  return b;
}

int trace_comm_world_rank(const trace *t, uint32_t comm, int me, int comm_rank)
{
  if (comm >= (uint32_t)t->ncomms)
    return -1;
  const trace_comm *c = &t->comms[comm];
  if (comm_rank < 0 || comm_rank >= c->size)
    return -1;
  return c->self ? me : c->members[comm_rank];
}

int trace_comm_rank(const trace *t, uint32_t comm, int world)
{
  if (comm >= (uint32_t)t->ncomms)
    return -1;
  const trace_comm *c = &t->comms[comm];
  if (c->self)
    return 0;
  for (int i = 0; i < c->size; i++)
    if (c->members[i] == world)
      return i;
  return -1;
}

void trace_free(trace *t)
{
  if (t == NULL)
    return;
  for (int i = 0; i < t->nranks; i++)
    g_free(t->ranks[i].events);
  g_free(t->ranks);
  for (int i = 0; i < t->nregions; i++)
    g_free(t->regions[i]);
  g_free(t->regions);
  g_free(t->notice);
  g_free(t->creator);
  for (int i = 0; i < t->ncomms; i++) {
    g_free(t->comms[i].name);
    g_free(t->comms[i].members);
  }
  g_free(t->comms);
  g_free(t);
}

/* ---- send/receive matching ------------------------------------------- */

typedef struct {
  int32_t src, dst;
  uint32_t comm, tag;
} msg_key;

typedef struct {
  GArray *sizes;  /* int64 sizes of the sends, in order */
  guint next;     /* next send a receive consumes */
} msg_queue;

static guint key_hash(gconstpointer p)
{
  const msg_key *k = p;
  guint h = (guint)k->src * 2654435761u;
  h ^= (guint)k->dst * 40503u + (guint)k->comm * 977u + k->tag * 31u;
  return h;
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
  return memcmp(a, b, sizeof(msg_key)) == 0;
}

static void queue_free(gpointer p)
{
  msg_queue *q = p;
  g_array_free(q->sizes, TRUE);
  g_free(q);
}

static gboolean is_send(int kind)
{
  return kind == TRACE_SEND || kind == TRACE_ISEND;
}

static gboolean is_recv(int kind)
{
  return kind == TRACE_RECV || kind == TRACE_IRECV;
}

/* Sends are queued per (src, dst, comm, tag); each receive consumes the
 * oldest send of its key (MPI's non-overtaking rule). O(messages). */
static void match_messages(const trace *t, trace_summary *s)
{
  GHashTable *q = g_hash_table_new_full(key_hash, key_equal, g_free, queue_free);
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (!is_send(e->kind))
        continue;
      msg_key k = { r, e->peer, e->comm, e->tag };
      msg_queue *mq = g_hash_table_lookup(q, &k);
      if (mq == NULL) {
        mq = g_new0(msg_queue, 1);
        mq->sizes = g_array_new(FALSE, FALSE, sizeof(int64_t));
        g_hash_table_insert(q, g_memdup2(&k, sizeof k), mq);
      }
      g_array_append_val(mq->sizes, e->bytes);
    }
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (!is_recv(e->kind))
        continue;
      msg_key k = { e->peer, r, e->comm, e->tag };
      msg_queue *mq = g_hash_table_lookup(q, &k);
      if (mq == NULL || mq->next >= mq->sizes->len) {
        s->unmatched_recvs++;
        continue;
      }
      if (g_array_index(mq->sizes, int64_t, mq->next++) != e->bytes)
        s->mismatched_bytes++;
    }
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init(&it, q);
  while (g_hash_table_iter_next(&it, NULL, &v)) {
    msg_queue *mq = v;
    s->unmatched_sends += mq->sizes->len - mq->next;
  }
  g_hash_table_destroy(q);
}

void trace_summarize(const trace *t, trace_summary *s)
{
  memset(s, 0, sizeof *s);
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      s->events++;
      s->per_kind[e->kind]++;
      if (is_send(e->kind)) {
        s->p2p_messages++;
        s->p2p_bytes += e->bytes;
      } else if (e->kind == TRACE_COLL_END || e->kind == TRACE_NBCOLL_COMPLETE) {
        s->collective_calls++;
        s->per_op[e->op < COLL_NOPS ? e->op : COLL_NOPS]++;
      }
    }
  match_messages(t, s);
}

/* ---- communication graph ---------------------------------------------- */

typedef struct {
  GArray *src, *dst, *bytes, *msgs;
} edge_list;

static void edge_add(edge_list *l, int src, int dst, int64_t bytes)
{
  int64_t one = 1;
  g_array_append_val(l->src, src);
  g_array_append_val(l->dst, dst);
  g_array_append_val(l->bytes, bytes);
  g_array_append_val(l->msgs, one);
}

trace_region_class trace_region_class_of(const char *name)
{
  if (!name || g_ascii_strncasecmp(name, "MPI_", 4) != 0)
    return TRACE_REGION_OTHER_MPI;
  g_autofree char *low = g_ascii_strdown(name + 4, -1);
  coll_op cop;
  if (coll_op_from_name(low, &cop) || (low[0] == 'i' && coll_op_from_name(low + 1, &cop)))
    return TRACE_REGION_COLL;
  if (strstr(low, "send") || strstr(low, "recv") || g_str_has_prefix(low, "wait") ||
      g_str_has_prefix(low, "test") || g_str_has_prefix(low, "probe") ||
      g_str_has_prefix(low, "iprobe") || g_str_has_prefix(low, "start"))
    return TRACE_REGION_P2P;
  return TRACE_REGION_OTHER_MPI;
}

/* MPI_Init*, MPI_Finalize: the setup around the replayed communication. */
static gboolean trace_region_is_setup(const char *name)
{
  return name && (g_ascii_strncasecmp(name, "MPI_Init", 8) == 0 ||
                  g_ascii_strcasecmp(name, "MPI_Finalize") == 0);
}

#define F(key, member, desc) \
  { key, FIELD_PS, FIELD_SECONDS, offsetof(trace_times, member), desc, 0, NULL }
const field trace_times_fields[] = {
  F("duration_s", duration_ps, "length of the traced run"),
  F("compute_s", compute_ps, "time outside MPI calls, summed over ranks"),
  F("p2p_s", p2p_ps, "time in MPI point-to-point calls, summed over ranks"),
  F("collective_s", coll_ps, "time in MPI collective calls, summed over ranks"),
  F("other_mpi_s", other_mpi_ps, "time in other MPI calls, summed over ranks"),
  F("setup_s", setup_ps, "of other_mpi_s: MPI_Init and MPI_Finalize"),
};
#undef F
const int trace_times_nfields = G_N_ELEMENTS(trace_times_fields);

uint8_t *trace_region_kinds(const trace *t)
{
  uint8_t *k = g_new(uint8_t, (size_t)t->nregions + 1);
  for (int i = 0; i < t->nregions; i++)
    k[i] = (uint8_t)(trace_region_class_of(t->regions[i]) |
                     (trace_region_is_setup(t->regions[i]) ? TRACE_REGION_SETUP : 0));
  k[t->nregions] = TRACE_REGION_OTHER_MPI; /* regions out of range */
  return k;
}

void trace_time_step(const trace *t, const uint8_t *kinds, trace_time_rank *st,
                     const trace_event *e, trace_times *out)
{
  if (st->depth == 0)
    out->compute_ps += MAX(e->time - st->prev, 0);
  st->prev = e->time;
  switch (e->kind) {
  case TRACE_ENTER:
    if (st->depth++ == 0) {
      uint8_t k = kinds[MIN(e->region, (uint32_t)t->nregions)];
      st->start = e->time;
      st->cls = (trace_region_class)(k & ~TRACE_REGION_SETUP);
      st->setup = (k & TRACE_REGION_SETUP) != 0;
    }
    return;
  case TRACE_LEAVE:
    if (st->depth > 0 && --st->depth == 0) {
      int64_t d = e->time - st->start;
      *(st->cls == TRACE_REGION_COLL ? &out->coll_ps
        : st->cls == TRACE_REGION_P2P ? &out->p2p_ps : &out->other_mpi_ps) += d;
      if (st->setup && st->cls == TRACE_REGION_OTHER_MPI)
        out->setup_ps += d;
    }
    return;
  case TRACE_COLL_BEGIN:
  case TRACE_NBCOLL_REQUEST:
  case TRACE_COLL_END:
  case TRACE_NBCOLL_COMPLETE:
    if (st->depth > 0)
      st->cls = TRACE_REGION_COLL;
    return;
  case TRACE_REQUEST_CANCELLED:
    return;
  default: /* point-to-point records */
    if (st->depth > 0 && st->cls != TRACE_REGION_COLL)
      st->cls = TRACE_REGION_P2P;
    return;
  }
}

void trace_time_split(const trace *t, trace_times *out)
{
  memset(out, 0, sizeof *out);
  out->duration_ps = t->duration_ps;
  uint8_t *kinds = trace_region_kinds(t);
  for (int r = 0; r < t->nranks; r++) {
    trace_time_rank st = { 0 };
    for (int64_t i = 0; i < t->ranks[r].nevents; i++)
      trace_time_step(t, kinds, &st, &t->ranks[r].events[i], out);
  }
  g_free(kinds);
}

commgraph *trace_commgraph(const trace *t, gboolean with_collectives, const char *algo,
                           GError **error)
{
  edge_list l = {
    g_array_new(FALSE, FALSE, sizeof(int)), g_array_new(FALSE, FALSE, sizeof(int)),
    g_array_new(FALSE, FALSE, sizeof(int64_t)), g_array_new(FALSE, FALSE, sizeof(int64_t)),
  };
  commgraph *g = NULL;
  coll_choice choice;
  if (with_collectives && !coll_choice_parse(&choice, algo, error))
    goto out;
  with_collectives = with_collectives && !choice.none;
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (is_send(e->kind) && e->peer >= 0 && e->peer < t->nranks)
        edge_add(&l, r, e->peer, e->bytes);
    }
  if (with_collectives) {
    trace_colls *colls = trace_colls_new(t->nranks, t->ncomms);
    for (int r = 0; r < t->nranks; r++)
      for (int64_t i = 0; i < t->ranks[r].nevents; i++)
        trace_colls_add(colls, r, &t->ranks[r].events[i]);
    gboolean ok = trace_colls_expand(colls, t, &choice, l.src, l.dst, l.bytes, l.msgs, error);
    trace_colls_free(colls);
    if (!ok)
      goto out;
  }
  /* the graph's sums stay below the total of all messages */
  int64_t total = 0;
  for (guint i = 0; i < l.bytes->len; i++)
    if (!checked_add_i64(total, g_array_index(l.bytes, int64_t, i), &total)) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT,
                  "the messages add up to more than 2^63 - 1 bytes, expected a total that "
                  "fits a 64-bit integer");
      goto out;
    }
  g = commgraph_from_edges(t->nranks, (int)l.src->len, (int *)l.src->data, (int *)l.dst->data,
                           (int64_t *)l.bytes->data, (int64_t *)l.msgs->data);
out:
  g_array_free(l.src, TRUE);
  g_array_free(l.dst, TRUE);
  g_array_free(l.bytes, TRUE);
  g_array_free(l.msgs, TRUE);
  return g;
}
