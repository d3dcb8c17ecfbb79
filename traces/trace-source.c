/* trace-source.c - traces in memory or streamed from a reader's scan (see
 * trace-source.h): the first pass over the file and the compact per-rank
 * record streams it leaves behind. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "traces/trace-source.h"
#include "traces/trace-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- compact records ----------------------------------------------------- */

/* kind, presence flags, then zigzag/varint fields; at most this long */
#define REC_MAX (2 + 6 * 10 + 10)

enum { F_BYTES = 1, F_RECV = 2, F_REQ = 4, F_COMM = 8, F_PEER = 16, F_TAG = 32 };

static inline uint64_t zig(int64_t v)
{
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzig(uint64_t v)
{
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint8_t *put_var(uint8_t *p, uint64_t v)
{
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}

static inline const uint8_t *get_var(const uint8_t *p, uint64_t *v)
{
  uint64_t x = 0;
  for (int s = 0;; s += 7) {
    uint8_t b = *p++;
    x |= (uint64_t)(b & 0x7f) << s;
    if (!(b & 0x80))
      break;
  }
  *v = x;
  return p;
}

static uint8_t *encode(uint8_t *p, const trace_event *e, int64_t prev_time)
{
  uint8_t f = (e->bytes ? F_BYTES : 0) | (e->bytes_recv ? F_RECV : 0) | (e->request ? F_REQ : 0) |
              (e->comm ? F_COMM : 0) | (e->peer ? F_PEER : 0) | (e->tag ? F_TAG : 0);
  *p++ = e->kind;
  *p++ = f;
  p = put_var(p, zig(e->time - prev_time));
  if (f & F_BYTES)
    p = put_var(p, zig(e->bytes));
  if (f & F_RECV)
    p = put_var(p, zig(e->bytes_recv));
  if (f & F_REQ)
    p = put_var(p, e->request);
  if (f & F_COMM)
    p = put_var(p, e->comm);
  if (f & F_PEER)
    p = put_var(p, zig(e->peer));
  if (f & F_TAG)
    p = put_var(p, e->tag);
  return p;
}

static const uint8_t *decode(const uint8_t *p, trace_event *e, int64_t prev_time)
{
  uint64_t v;
  memset(e, 0, sizeof *e);
  e->kind = *p++;
  uint8_t f = *p++;
  p = get_var(p, &v);
  e->time = prev_time + unzig(v);
  if (f & F_BYTES) {
    p = get_var(p, &v);
    e->bytes = unzig(v);
  }
  if (f & F_RECV) {
    p = get_var(p, &v);
    e->bytes_recv = unzig(v);
  }
  if (f & F_REQ)
    p = get_var(p, &e->request);
  if (f & F_COMM) {
    p = get_var(p, &v);
    e->comm = (uint32_t)v;
  }
  if (f & F_PEER) {
    p = get_var(p, &v);
    e->peer = (int32_t)unzig(v);
  }
  if (f & F_TAG) {
    p = get_var(p, &v);
    e->tag = (uint32_t)v;
  }
  return p;
}

/* ---- sources ------------------------------------------------------------- */

typedef struct rank_stream {
  int64_t records;             /* retained records */
  uint64_t off, end;           /* its bytes [off, end) in its spill file */
  int64_t prev_time;           /* first pass: time of the last record encoded */
  int file;                    /* which spill (worker) */
} rank_stream;

/* A reader's position in one rank. */
typedef struct rank_pos {
  int64_t done;                /* records read */
  uint64_t off;                /* next byte */
  int64_t prev_time;
} rank_pos;

struct trace_cursor {
  const trace_source *s;
  rank_pos *pos;               /* nranks */
  uint8_t *scratch;            /* decoding buffer */
  size_t nscratch;
};

#define PEER_CACHE 16

/* What one reader thread of the first pass owns. */
typedef struct worker_state {
  FILE *spill;
  uint64_t written;
  uint8_t *buf;                /* encoding buffer */
  size_t nbuf;
  GHashTable *peers;           /* current rank: peer -> index in the edge arrays */
  GArray *src, *dst, *bytes, *msgs;  /* aggregated p2p edges */
  int64_t nrec;                /* records seen (progress) */
  trace_time_rank split;       /* current rank: where its traced time went */
  int peer_key[PEER_CACHE];    /* current rank: recent peers and their edge index */
  guint peer_idx[PEER_CACHE];
  trace_times times;
  gboolean failed;
} worker_state;

#define SPILL_BUF (1 << 20)

struct trace_source {
  const trace *t;              /* the trace or its definitions */
  trace *owned;                /* streamed: the definitions */
  rank_stream *rs;             /* streamed: nranks */
  int nfiles;
  int *fds;
  trace_colls *colls;
  trace_times times;           /* streamed: the traced time split (first pass) */
  uint8_t *kinds;              /* first pass: trace_region_kinds */
  /* streamed: aggregated p2p edges of the first pass */
  GArray *src, *dst, *bytes, *msgs;
  /* first pass */
  worker_state *w;
  const progress *pr;
  GMutex lock;
  int64_t seen;
};

trace_source *trace_source_memory(const trace *t)
{
  trace_source *s = g_new0(trace_source, 1);
  s->t = t;
  s->colls = trace_colls_new(t->nranks, t->ncomms);
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++)
      trace_colls_add(s->colls, r, &t->ranks[r].events[i]);
  return s;
}

const trace *trace_source_trace(const trace_source *s)
{
  return s->t;
}

gboolean trace_source_streamed(const trace_source *s)
{
  return s->rs != NULL;
}

int64_t trace_source_records(const trace_source *s, int rank)
{
  return s->rs ? s->rs[rank].records : s->t->ranks[rank].nevents;
}

int64_t trace_source_total(const trace_source *s)
{
  int64_t n = 0;
  for (int r = 0; r < s->t->nranks; r++)
    n += trace_source_records(s, r);
  return n;
}

const trace_event *trace_source_direct(const trace_source *s, int rank)
{
  return s->rs ? NULL : s->t->ranks[rank].events;
}

trace_source *trace_source_owned(trace *t)
{
  trace_source *s = trace_source_memory(t);
  s->owned = t;
  return s;
}

/* ---- the first pass (trace_sink callbacks) ---- */

static gboolean pass_defs(void *user, trace *defs, GError **error)
{
  trace_source *s = user;
  s->rs = g_new0(rank_stream, MAX(defs->nranks, 1));
  s->colls = trace_colls_new(defs->nranks, defs->ncomms);
  s->t = defs;
  s->kinds = trace_region_kinds(defs);
  return TRUE;
}

static void flush_spill(worker_state *w)
{
  if (w->nbuf && !w->failed && fwrite(w->buf, 1, w->nbuf, w->spill) != w->nbuf)
    w->failed = TRUE;
  w->written += w->nbuf;
  w->nbuf = 0;
}

static void pass_begin(void *user, int worker, int rank, uint64_t nevents)
{
  trace_source *s = user;
  worker_state *w = &s->w[worker];
  rank_stream *rs = &s->rs[rank];
  rs->file = worker;
  rs->off = w->written + w->nbuf;
  g_hash_table_remove_all(w->peers);
  w->split = (trace_time_rank){ 0 };
  memset(w->peer_key, 0xff, sizeof w->peer_key); /* -1: no peer */
}

static void pass_record(void *user, int worker, int rank, const trace_event *e)
{
  trace_source *s = user;
  worker_state *w = &s->w[worker];
  rank_stream *rs = &s->rs[rank];
  if (w->nbuf + REC_MAX > SPILL_BUF)
    flush_spill(w);
  w->nbuf = (size_t)(encode(w->buf + w->nbuf, e, rs->prev_time) - w->buf);
  rs->prev_time = e->time;
  rs->records++;
  trace_colls_add(s->colls, rank, e);
  trace_time_step(s->t, s->kinds, &w->split, e, &w->times);
  if ((e->kind == TRACE_SEND || e->kind == TRACE_ISEND) && e->peer >= 0 &&
      e->peer < s->colls->nranks) {
    gpointer v;
    int c = e->peer & (PEER_CACHE - 1);
    guint i = w->peer_idx[c];
    if (w->peer_key[c] == e->peer ||
        g_hash_table_lookup_extended(w->peers, GINT_TO_POINTER(e->peer), NULL, &v)) {
      if (w->peer_key[c] != e->peer)
        i = GPOINTER_TO_UINT(v);
      w->peer_key[c] = e->peer;
      w->peer_idx[c] = i;
      g_array_index(w->bytes, int64_t, i) += e->bytes;
      g_array_index(w->msgs, int64_t, i)++;
    } else {
      int64_t one = 1;
      g_hash_table_insert(w->peers, GINT_TO_POINTER(e->peer), GUINT_TO_POINTER(w->src->len));
      g_array_append_val(w->src, rank);
      g_array_append_val(w->dst, e->peer);
      g_array_append_val(w->bytes, e->bytes);
      g_array_append_val(w->msgs, one);
    }
  }
  if ((++w->nrec & 0xffff) == 0 && s->pr) {
    g_mutex_lock(&s->lock);
    s->seen += 0x10000;
    progress_report(s->pr, "read: records", (uint64_t)s->seen, 0);
    g_mutex_unlock(&s->lock);
  }
}

static void pass_end(void *user, int worker, int rank)
{
  trace_source *s = user;
  worker_state *w = &s->w[worker];
  rank_stream *rs = &s->rs[rank];
  rs->end = w->written + w->nbuf;
}

static void free_array(GArray **a)
{
  if (*a)
    g_array_free(*a, TRUE);
  *a = NULL;
}

/* Everything but the spill file, which the reads need. */
static void worker_done(worker_state *w)
{
  g_clear_pointer(&w->buf, g_free);
  g_clear_pointer(&w->peers, g_hash_table_destroy);
  free_array(&w->src);
  free_array(&w->dst);
  free_array(&w->bytes);
  free_array(&w->msgs);
}

/* A temporary file nobody else can see: without a name (O_TMPFILE), or
 * unlinked at once where the file system cannot do that. */
static FILE *open_spill(GError **error)
{
  int fd = g_open(g_get_tmp_dir(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) {
    char *path = NULL;
    fd = g_file_open_tmp("mapsim-stream-XXXXXX", &path, error);
    if (fd < 0)
      return NULL;
    g_unlink(path);
    g_free(path);
  }
  FILE *f = fdopen(fd, "w+b");
  if (!f) {
    close(fd);
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "temporary file: %s", g_strerror(errno));
  }
  return f;
}

/* A file the scan cannot stream (an EZTrace archive), read in memory,
 * owned by the source. */
static trace_source *read_whole(trace *(*read)(const char *, GError **), const char *path,
                                const progress *pr, GError **error)
{
  trace *t = read(path, error);
  if (!t)
    return NULL;
  trace_source *m = trace_source_owned(t);
  progress_report(pr, "read: records", (uint64_t)trace_source_total(m),
                  (uint64_t)trace_source_total(m));
  return m;
}

trace_source *trace_source_scan(trace_scan_fn scan, trace *(*read)(const char *path, GError **error),
                                const char *path, const progress *pr, GError **error)
{
  if (!scan)
    return read_whole(read, path, pr, error);
  trace_source *s = g_new0(trace_source, 1);
  int workers = MAX(g_get_num_processors(), 1);
  s->pr = pr;
  s->nfiles = workers;
  s->w = g_new0(worker_state, workers);
  g_mutex_init(&s->lock);
  for (int i = 0; i < workers; i++) {
    worker_state *w = &s->w[i];
    if (!(w->spill = open_spill(error))) {
      trace_source_free(s);
      return NULL;
    }
    w->buf = g_malloc(SPILL_BUF);
    w->peers = g_hash_table_new(NULL, NULL);
    w->src = g_array_new(FALSE, FALSE, sizeof(int));
    w->dst = g_array_new(FALSE, FALSE, sizeof(int));
    w->bytes = g_array_new(FALSE, FALSE, sizeof(int64_t));
    w->msgs = g_array_new(FALSE, FALSE, sizeof(int64_t));
  }
  trace_sink sink = { pass_defs, pass_begin, pass_record, pass_end, s, 0 };
  GError *local = NULL;
  trace *t = scan(path, &sink, workers, &local);
  if (g_error_matches(local, TRACE_ERROR, TRACE_SOURCE_READ_WHOLE)) {
    /* recognised before the sink saw anything: nothing read to keep */
    g_clear_error(&local);
    trace_source_free(s);
    return read_whole(read, path, pr, error);
  }
  if (local)
    g_propagate_error(error, local);
  gboolean ok = t != NULL;
  s->t = s->owned = t;
  s->src = g_array_new(FALSE, FALSE, sizeof(int));
  s->dst = g_array_new(FALSE, FALSE, sizeof(int));
  s->bytes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  s->msgs = g_array_new(FALSE, FALSE, sizeof(int64_t));
  s->fds = g_new(int, workers);
  for (int i = 0; i < workers; i++) {
    worker_state *w = &s->w[i];
    flush_spill(w);
    if (ok && (w->failed || fflush(w->spill) != 0)) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: temporary file: %s, expected room "
                  "for about 8 bytes per record in %s", path, g_strerror(errno), g_get_tmp_dir());
      ok = FALSE;
    }
    s->fds[i] = fileno(w->spill);
    g_array_append_vals(s->src, w->src->data, w->src->len);
    g_array_append_vals(s->dst, w->dst->data, w->dst->len);
    g_array_append_vals(s->bytes, w->bytes->data, w->bytes->len);
    g_array_append_vals(s->msgs, w->msgs->data, w->msgs->len);
    s->times.compute_ps += w->times.compute_ps;
    s->times.p2p_ps += w->times.p2p_ps;
    s->times.coll_ps += w->times.coll_ps;
    s->times.other_mpi_ps += w->times.other_mpi_ps;
    s->times.setup_ps += w->times.setup_ps;
    worker_done(w);
  }
  if (!ok) {
    trace_source_free(s);
    return NULL;
  }
  for (int r = 0; r < t->nranks; r++)
    t->duration_ps = MAX(t->duration_ps, s->rs[r].prev_time);
  s->times.duration_ps = t->duration_ps;
  progress_report(pr, "read: records", (uint64_t)trace_source_total(s),
                  (uint64_t)trace_source_total(s));
  return s;
}

trace_cursor *trace_cursor_new(const trace_source *s)
{
  trace_cursor *c = g_new0(trace_cursor, 1);
  c->s = s;
  c->pos = g_new0(rank_pos, MAX(s->t->nranks, 1));
  for (int r = 0; s->rs && r < s->t->nranks; r++)
    c->pos[r].off = s->rs[r].off;
  return c;
}

int64_t trace_cursor_read(trace_cursor *c, int rank, trace_event *buf, int64_t max)
{
  const trace_source *s = c->s;
  rank_pos *ps = &c->pos[rank];
  if (!s->rs) { /* in memory: a copy (trace_source_direct avoids it) */
    const trace_rank *tr = &s->t->ranks[rank];
    int64_t n = MAX(MIN(max, tr->nevents - ps->done), 0);
    memcpy(buf, tr->events + ps->done, sizeof(trace_event) * (size_t)n);
    ps->done += n;
    return n;
  }
  const rank_stream *rs = &s->rs[rank];
  int64_t n = 0;
  while (n < max && ps->done < rs->records) {
    size_t want = (size_t)MIN(rs->end - ps->off, (uint64_t)(max - n) * 16 + REC_MAX);
    if (c->nscratch < want) {
      c->nscratch = want;
      c->scratch = g_realloc(c->scratch, want);
    }
    ssize_t got = pread(s->fds[rs->file], c->scratch, want, (off_t)ps->off);
    if (got <= 0)
      break; /* the spill vanished or shrank: the rank ends here */
    const uint8_t *p = c->scratch, *lim = c->scratch + got;
    gboolean last = ps->off + (uint64_t)got == rs->end;
    while (n < max && ps->done < rs->records && (last ? p < lim : lim - p >= REC_MAX)) {
      p = decode(p, &buf[n], ps->prev_time);
      ps->prev_time = buf[n++].time;
      ps->done++;
    }
    ps->off += (uint64_t)(p - c->scratch);
  }
  return n;
}

size_t trace_cursor_bytes(const trace_cursor *c)
{
  return sizeof *c + c->nscratch + sizeof(rank_pos) * (size_t)c->s->t->nranks;
}

void trace_cursor_free(trace_cursor *c)
{
  if (!c)
    return;
  g_free(c->pos);
  g_free(c->scratch);
  g_free(c);
}

const trace_colls *trace_source_colls(const trace_source *s)
{
  return s->colls;
}

void trace_source_times(const trace_source *s, trace_times *out)
{
  if (s->rs)
    *out = s->times;
  else
    trace_time_split(s->t, out);
}

commgraph *trace_source_commgraph(const trace_source *s, gboolean with_collectives, const char *algo,
                                  GError **error)
{
  if (!s->rs)
    return trace_commgraph(s->t, with_collectives, algo, error);
  coll_choice choice;
  if (with_collectives && !coll_choice_parse(&choice, algo, error))
    return NULL;
  GArray *src = g_array_copy(s->src), *dst = g_array_copy(s->dst);
  GArray *bytes = g_array_copy(s->bytes), *msgs = g_array_copy(s->msgs);
  commgraph *g = NULL;
  if (!with_collectives || choice.none ||
      trace_colls_expand(s->colls, s->t, &choice, src, dst, bytes, msgs, error)) {
    g = commgraph_from_edges(s->t->nranks, (int)src->len, (int *)src->data, (int *)dst->data,
                             (int64_t *)bytes->data, (int64_t *)msgs->data);
  }
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(bytes, TRUE);
  g_array_free(msgs, TRUE);
  return g;
}

size_t trace_source_bytes(const trace_source *s)
{
  size_t b = sizeof *s;
  if (s->rs)
    b += sizeof(rank_stream) * (size_t)s->t->nranks +
         (s->src ? s->src->len * (2 * sizeof(int) + 2 * sizeof(int64_t)) : 0);
  if (s->colls)
    b += trace_colls_bytes(s->colls);
  return b;
}

void trace_source_free(trace_source *s)
{
  if (!s)
    return;
  if (s->w) {
    for (int i = 0; i < s->nfiles; i++) {
      worker_done(&s->w[i]);
      if (s->w[i].spill)
        fclose(s->w[i].spill);
    }
    g_free(s->w);
  }
  g_mutex_clear(&s->lock);
  free_array(&s->src);
  free_array(&s->dst);
  free_array(&s->bytes);
  free_array(&s->msgs);
  trace_colls_free(s->colls);
  g_free(s->kinds);
  trace_free(s->owned);
  g_free(s->rs);
  g_free(s->fds);
  g_free(s);
}
