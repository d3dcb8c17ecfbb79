/* timeline-chrome.c - the timeline writer of `simulate --timeline FILE`:
 * the run as Chrome Trace Event JSON (timeline.h), written by its own
 * thread while the replay runs. */
#include "sim/timeline-private.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/row.h"
#include "util/budget.h"
#include "util/handoff.h"
#include "util/json-number.h"
#include "util/output.h"

/* ---- the JSON file -------------------------------------------------- */

/* A buffered writer of hand-formatted text: events are millions at 4,096
 * ranks, so numbers are written without printf and the names of regions
 * are quoted once. */
#define JW_SIZE (1u << 20)
#define JW_EVENT_MAX 512 /* room an event needs besides its quoted name */

typedef struct jw {
  FILE *f;
  output *o;
  char *buf, *at;
  gboolean first;
  uint64_t unsynced; /* bytes written since the last writeback started */
} jw;

/* Disk writes start every WRITEBACK_BYTES: the commit's fsync then waits
 * for the last of a timeline of hundreds of MB only. */
#define WRITEBACK_BYTES (16u << 20)

static void jw_flush(jw *w)
{
  fwrite(w->buf, 1, (size_t)(w->at - w->buf), w->f);
  w->unsynced += (uint64_t)(w->at - w->buf);
  w->at = w->buf;
  if (w->unsynced >= WRITEBACK_BYTES) {
    output_start_writeback(w->o);
    w->unsynced = 0;
  }
}

/* Starts the next event, with room for `extra` more bytes. */
static void jw_event(jw *w, size_t extra)
{
  if ((size_t)(w->at - w->buf) + extra + JW_EVENT_MAX > JW_SIZE)
    jw_flush(w);
  *w->at++ = w->first ? '\n' : ',';
  if (!w->first)
    *w->at++ = '\n';
  w->first = FALSE;
}

static void jw_put(jw *w, const char *s, size_t n)
{
  memcpy(w->at, s, n);
  w->at += n;
}

#define JW_LIT(w, s) jw_put((w), (s), sizeof(s) - 1)

/* "00" to "99": numbers are written two digits at a time. */
static const char DIGIT_PAIRS[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

/* Two decimal digits of v < 100. */
static void jw_2digits(jw *w, unsigned v)
{
  memcpy(w->at, &DIGIT_PAIRS[2 * v], 2);
  w->at += 2;
}

static void jw_u64(jw *w, uint64_t v)
{
  char tmp[20];
  int n = 20;
  while (v >= 100) {
    n -= 2;
    memcpy(&tmp[n], &DIGIT_PAIRS[2 * (v % 100)], 2);
    v /= 100;
  }
  if (v >= 10) {
    n -= 2;
    memcpy(&tmp[n], &DIGIT_PAIRS[2 * v], 2);
  } else
    tmp[--n] = (char)('0' + v);
  memcpy(w->at, &tmp[n], (size_t)(20 - n));
  w->at += 20 - n;
}

/* ps as microseconds with 6 decimals (exact). */
static void jw_us(jw *w, int64_t ps)
{
  jw_u64(w, (uint64_t)(ps / 1000000));
  *w->at++ = '.';
  unsigned f = (unsigned)(ps % 1000000);
  jw_2digits(w, f / 10000);
  jw_2digits(w, f / 100 % 100);
  jw_2digits(w, f % 100);
}

/* `s` as a JSON string (quotes included); caller frees. */
static char *json_quoted(const char *s)
{
  GString *q = g_string_new("\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c(q, '\\');
    if ((unsigned char)*s < 0x20)
      g_string_append_printf(q, "\\u%04x", (unsigned)*s);
    else
      g_string_append_c(q, *s);
  }
  g_string_append_c(q, '"');
  return g_string_free(q, FALSE);
}

static void meta(jw *w, const char *what, int pid, int tid, const char *name)
{
  g_autofree char *q = json_quoted(name);
  jw_event(w, strlen(q) + strlen(what));
  JW_LIT(w, "{\"name\":\"");
  jw_put(w, what, strlen(what));
  JW_LIT(w, "\",\"ph\":\"M\",\"pid\":");
  jw_u64(w, (uint64_t)pid);
  if (tid >= 0) {
    JW_LIT(w, ",\"tid\":");
    jw_u64(w, (uint64_t)tid);
  }
  JW_LIT(w, ",\"args\":{\"name\":");
  jw_put(w, q, strlen(q));
  JW_LIT(w, "}}");
}

/* The start of a slice's event up to its thread id, per region (the last
 * one: computation). */
typedef struct heads {
  char **text;
  size_t *len;
  int n;
} heads;

static const char *region_cat(const trace *t, uint32_t region)
{
  switch (region < (uint32_t)t->nregions ? trace_region_class_of(t->regions[region])
                                         : TRACE_REGION_OTHER_MPI) {
  case TRACE_REGION_P2P: return "p2p";
  case TRACE_REGION_COLL: return "collective";
  default: return "mpi";
  }
}

static heads heads_new(const trace *t)
{
  heads h = { g_new(char *, t->nregions + 1), g_new(size_t, t->nregions + 1), t->nregions + 1 };
  for (int i = 0; i <= t->nregions; i++) {
    g_autofree char *q = json_quoted(i < t->nregions ? t->regions[i] : "compute");
    h.text[i] = g_strdup_printf("{\"name\":%s,\"cat\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":", q,
                                i < t->nregions ? region_cat(t, (uint32_t)i) : "compute");
    h.len[i] = strlen(h.text[i]);
  }
  return h;
}

static void heads_free(heads *h)
{
  for (int i = 0; i < h->n; i++)
    g_free(h->text[i]);
  g_free(h->text);
  g_free(h->len);
}

static void slice(jw *w, const heads *h, int k, int rank, int64_t t0, int64_t t1)
{
  jw_event(w, h->len[k]);
  jw_put(w, h->text[k], h->len[k]);
  jw_u64(w, (uint64_t)rank);
  JW_LIT(w, ",\"ts\":");
  jw_us(w, t0);
  JW_LIT(w, ",\"dur\":");
  jw_us(w, t1 - t0);
  *w->at++ = '}';
}

/* A rank's slice as a complete event. */
typedef struct slice_ctx {
  jw *w;
  const heads *h;
  int nregions, rank;
} slice_ctx;

static void on_slice(void *user, int region, int64_t t0, int64_t t1)
{
  const slice_ctx *c = user;
  slice(c->w, c->h, region >= 0 && region < c->nregions ? region : c->nregions, c->rank, t0, t1);
}

static void flow(jw *w, gboolean start, uint64_t id, int tid, int64_t time)
{
  jw_event(w, 0);
  if (start)
    JW_LIT(w, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\",\"id\":");
  else
    JW_LIT(w, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\",\"bp\":\"e\",\"id\":");
  jw_u64(w, id);
  JW_LIT(w, ",\"pid\":0,\"tid\":");
  jw_u64(w, (uint64_t)tid);
  JW_LIT(w, ",\"ts\":");
  jw_us(w, time);
  *w->at++ = '}';
}

/* A channel of point-to-point messages (source, destination,
 * communicator, tag): the k-th send on it meets its k-th receive (MPI's
 * order). The ends whose other end has not come yet, all sends or all
 * receives (`sends_ahead`), are `npending`: the oldest in `first`, the
 * rest in `later` from `head` on (an array only once two wait: the usual
 * backlog is one). */
typedef struct channel {
  int32_t src, dst;
  uint32_t comm, tag;
  int32_t sends_ahead;
  uint32_t head;
  int64_t npending, first;
  GArray *later; /* int64_t, or NULL */
} channel;

static guint channel_hash(gconstpointer p)
{
  const channel *c = p;
  guint h = (guint)c->src * 2654435761u;
  h = (h ^ (guint)c->dst) * 2654435761u;
  h = (h ^ c->comm) * 2654435761u;
  return (h ^ c->tag) * 2654435761u;
}

static gboolean channel_equal(gconstpointer a, gconstpointer b)
{
  const channel *x = a, *y = b;
  return x->src == y->src && x->dst == y->dst && x->comm == y->comm && x->tag == y->tag;
}

static void channel_free(gpointer p)
{
  channel *c = p;
  if (c->later)
    g_array_unref(c->later);
  g_free(c);
}

/* Each rank's recent channels, so that the hash table is seldom asked:
 * CHANNEL_WAYS entries per rank, two of them a channel's places (by
 * peer, tag and side). */
#define CHANNEL_WAYS 32

/* One record the writer draws: the fields a slice or an arrow needs, and
 * its simulated time. */
typedef struct item {
  int64_t t;
  int32_t rank, peer;
  uint32_t comm, what; /* what: the region (enter) or the tag (p2p) */
  uint8_t kind;
} item;

/* How the replay hands it over: 16 bytes for a call's enter or leave
 * (time, rank and kind, region), 32 for a point-to-point end (peer and
 * communicator in a second slot) - half the copying of fixed 32-byte
 * items for the calls, the most common records. The kind takes the top
 * byte of the rank's word (ranks < BUDGET_MAX_RANKS = 2^24). */
typedef union slot {
  struct {
    int64_t t;
    uint32_t rank_kind, what;
  } head;
  struct {
    int32_t peer;
    uint32_t comm;
  } tail;
} slot;

#define RANK_BITS 24
G_STATIC_ASSERT(BUDGET_MAX_RANKS <= 1 << RANK_BITS);
G_STATIC_ASSERT(sizeof(slot) == 16);

/* Slots go in blocks of BLOCK_SLOTS (512 KiB), at most BLOCKS_IN_FLIGHT of
 * them alive (then the replay waits for a free one): the memory stays
 * bounded (8 MiB) and nothing is allocated per item. Large blocks wake
 * the writer seldom (64 KiB ones cost the replay 20 ms more at 4,096
 * ranks); free ones are reused last-in first-out, the warmest first. */
#define BLOCK_SLOTS (1u << 15)
#define BLOCKS_IN_FLIGHT 16

typedef struct block {
  guint n;
  slot items[BLOCK_SLOTS];
} block;

/* The replay thread fills `fill` and passes it to one writer thread
 * (util/handoff.h), which turns the items into slices and arrows
 * (everything from `w` on is its own until the blocks are drained) in
 * the order the replay filled them: the bytes are those one thread would
 * write. */
typedef struct timeline_stream {
  output *o;
  handoff *blocks;
  block *fill;         /* handoff_block(blocks) */
  gint abandoned;      /* atomic: the file will be removed, draw no more */
  jw w;
  heads h;
  int nregions, nranks;
  timeline_slicer *ranks; /* nranks */
  GHashTable *chans;   /* channel, its own key */
  channel **recent;    /* [rank * CHANNEL_WAYS]: a channel of that rank, or NULL */
  uint64_t nflows;
} timeline_stream;

static guint draw_item(timeline_stream *s, const slot *at);

/* The writer's work: a block's items drawn, unless the timeline is
 * aborted, stopped (SIGINT) or its file failed. */
static void draw_block(void *data, void *user)
{
  block *b = data;
  timeline_stream *s = user;
  if (!g_atomic_int_get(&s->abandoned) && !output_stopped(s->o) && !ferror(s->w.f))
    for (guint i = 0; i < b->n;)
      i += draw_item(s, &b->items[i]);
  b->n = 0;
}

static void *chrome_open(const char *path, const timeline_start *start, GError **error)
{
  const trace *defs = start->defs;
  output *o = output_open(path, start->prog, error);
  if (!o)
    return NULL;
  timeline_stream *s = g_new0(timeline_stream, 1);
  s->o = o;
  s->w = (jw){ output_stream(o), o, g_malloc(JW_SIZE), NULL, TRUE, 0 };
  s->w.at = s->w.buf;
  s->h = heads_new(defs);
  s->nregions = defs->nregions;
  s->nranks = defs->nranks;
  s->ranks = g_new0(timeline_slicer, MAX(defs->nranks, 1));
  s->chans = g_hash_table_new_full(channel_hash, channel_equal, channel_free, NULL);
  s->recent = g_new0(channel *, (gsize)MAX(defs->nranks, 1) * CHANNEL_WAYS);
  JW_LIT(&s->w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  meta(&s->w, "process_name", 0, -1, "ranks");
  meta(&s->w, "process_name", 1, -1, "links (bytes/s)");
  s->blocks = handoff_new("timeline", sizeof(block), BLOCKS_IN_FLIGHT, draw_block, s);
  s->fill = handoff_block(s->blocks);
  return s;
}

/* Draws every block of the replay so far, the one being filled last on
 * this thread; the writer thread has ended. */
static void writer_join(timeline_stream *s)
{
  handoff_drain(s->blocks);
  draw_block(s->fill, s);
}

/* The channel `key` of `rank` (its source or destination). */
static channel *channel_of(timeline_stream *s, int rank, const channel *key, gboolean is_send)
{
  /* two ways per channel (multiplicative: a stencil's peers r +- 16,
   * r +- 256 must not share them), so that a rank's dozen channels rarely
   * evict each other */
  guint h = ((guint)(is_send ? key->dst : key->src) * 2654435761u ^ key->tag * 40503u ^
             (guint)is_send) * 2246822519u;
  channel **ways = &s->recent[(gsize)rank * CHANNEL_WAYS];
  channel **a = &ways[h >> 27], **b = &ways[(h >> 22) & (CHANNEL_WAYS - 1)];
  if (*a && channel_equal(*a, key))
    return *a;
  if (*b && channel_equal(*b, key))
    return *b;
  channel *c = g_hash_table_lookup(s->chans, key);
  if (!c) {
    c = g_memdup2(key, sizeof *c);
    g_hash_table_add(s->chans, c);
  }
  return *(*a && !*b ? b : a) = c;
}

/* A send (is_send) or receive of channel `key` at `time`, replayed by
 * `rank`: an arrow once both ends are known; amortized O(1), allocating
 * only for a new channel or a longer backlog. */
static void message_end(timeline_stream *s, int rank, const channel *key, gboolean is_send,
                        int64_t time)
{
  channel *c = channel_of(s, rank, key, is_send);
  if (c->npending == 0 || c->sends_ahead == is_send) {
    if (c->npending++ == 0) {
      c->first = time;
      c->sends_ahead = is_send;
    } else {
      if (!c->later)
        c->later = g_array_new(FALSE, FALSE, sizeof(int64_t));
      g_array_append_val(c->later, time);
    }
    return;
  }
  int64_t other = c->first;
  if (--c->npending > 0) {
    c->first = g_array_index(c->later, int64_t, c->head++);
  } else if (c->later) {
    g_array_set_size(c->later, 0);
    c->head = 0;
  }
  s->nflows++;
  flow(&s->w, TRUE, s->nflows, c->src, is_send ? time : other);
  flow(&s->w, FALSE, s->nflows, c->dst, is_send ? other : time);
}

static gboolean is_p2p(int kind)
{
  return kind == TRACE_SEND || kind == TRACE_ISEND || kind == TRACE_RECV || kind == TRACE_IRECV;
}

/* One record of the replay: a slice when it ends one, an arrow when it
 * completes a message's ends (the writer thread's part); returns the
 * slots it took. */
static guint draw_item(timeline_stream *s, const slot *at)
{
  uint32_t rk = at->head.rank_kind;
  item it = { at->head.t, (int32_t)(rk & ((1u << RANK_BITS) - 1)), -1, 0, at->head.what,
              (uint8_t)(rk >> RANK_BITS) };
  gboolean p2p = is_p2p(it.kind);
  if (p2p) {
    it.peer = at[1].tail.peer;
    it.comm = at[1].tail.comm;
  }
  trace_event ev = { .kind = it.kind, .peer = it.peer, .comm = it.comm, .tag = it.what };
  slice_ctx sc = { &s->w, &s->h, s->nregions, it.rank };
  timeline_slicer_step(&s->ranks[it.rank], &ev, it.t, on_slice, &sc);
  if (p2p && it.peer >= 0) {
    gboolean send = ev.kind == TRACE_SEND || ev.kind == TRACE_ISEND;
    channel key = { send ? it.rank : it.peer, send ? it.peer : it.rank, it.comm, it.what,
                    0, 0, 0, 0, NULL };
    message_end(s, it.rank, &key, send, it.t);
  }
  return p2p ? 2 : 1;
}

/* The replay thread's part: a copy of what the writer needs of the
 * records a timeline draws (calls and point-to-point ends). */
static void chrome_record(void *user, int rank, const trace_event *ev, int64_t t)
{
  timeline_stream *s = user;
  switch (ev->kind) {
  case TRACE_ENTER:
  case TRACE_LEAVE:
  case TRACE_SEND:
  case TRACE_ISEND:
  case TRACE_RECV:
  case TRACE_IRECV: break;
  default: return;
  }
  block *b = s->fill;
  slot *at = &b->items[b->n];
  at->head.t = t;
  at->head.rank_kind = (uint32_t)rank | (uint32_t)ev->kind << RANK_BITS;
  at->head.what = ev->tag;
  b->n++;
  if (is_p2p(ev->kind)) {
    at[1].tail.peer = ev->peer;
    at[1].tail.comm = ev->comm;
    b->n++;
  }
  if (b->n > BLOCK_SLOTS - 2) /* room for a point-to-point end */
    s->fill = handoff_pass(s->blocks);
}

static void stream_free(timeline_stream *s)
{
  handoff_free(s->blocks);
  g_free(s->w.buf);
  heads_free(&s->h);
  g_free(s->ranks);
  g_hash_table_unref(s->chans);
  g_free(s->recent);
  g_free(s);
}

static void chrome_abort(void *state)
{
  timeline_stream *s = state;
  if (!s)
    return;
  g_atomic_int_set(&s->abandoned, TRUE);
  writer_join(s);
  output_abort(s->o);
  stream_free(s);
}

static void counter_track(jw *w, const char *name, const linkrec_series *s)
{
  g_autofree char *q = json_quoted(name);
  size_t ql = strlen(q);
  GString *num = g_string_new(NULL);
  for (int64_t i = 0; i < s->n; i++) {
    g_string_truncate(num, 0);
    json_number_text(num, s->value[i]);
    jw_event(w, ql);
    JW_LIT(w, "{\"name\":");
    jw_put(w, q, ql);
    JW_LIT(w, ",\"cat\":\"link\",\"ph\":\"C\",\"pid\":1,\"ts\":");
    jw_us(w, s->time[i]);
    JW_LIT(w, ",\"args\":{\"bytes/s\":");
    jw_put(w, num->str, num->len);
    JW_LIT(w, "}}");
  }
  g_string_free(num, TRUE);
}

static gboolean chrome_finish(void *state, const timeline_end *end, GError **error)
{
  timeline_stream *s = state;
  const mapping *m = end->m;
  const linkrec *rec = end->rec;
  GPtrArray *tracks =
      timeline_tracks(end->p, rec, end->links ? end->links : TIMELINE_DEFAULT_LINKS, error);
  if (!tracks) {
    chrome_abort(s);
    return FALSE;
  }
  writer_join(s);
  jw *w = &s->w;
  for (int r = 0; r < s->nranks && !output_stopped(s->o); r++) {
    g_autofree char *name = g_strdup_printf("rank %d on node %d", r, m->node[r]);
    meta(w, "thread_name", 0, r, name);
  }
  for (guint k = 0; k < tracks->len && !output_stopped(s->o); k++) {
    const timeline_track *tk = g_ptr_array_index(tracks, k);
    g_autoptr(linkrec_series) ser = linkrec_series_of(rec, tk->links, tk->nlinks);
    counter_track(w, tk->name, ser);
  }
  JW_LIT(w, "\n]}\n");
  jw_flush(w);
  timeline_tracks_free(tracks);
  output *o = s->o;
  stream_free(s);
  return output_commit(o, error);
}

const timeline_writer timeline_chrome_writer = {
  .option = "timeline",
  .arg = "FILE",
  .help = "Write the simulated run as a Chrome Trace Event file (Perfetto, chrome://tracing): "
          "ranks, messages, link throughput",
  .needs = TIMELINE_DRAWS_TRACKS,
  .open = chrome_open,
  .record = chrome_record,
  .finish = chrome_finish,
  .abort = chrome_abort,
};
