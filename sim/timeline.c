/* timeline.c - the simulated run as Chrome Trace Event JSON and as OTF2
 * counters (see timeline.h). */
#include "sim/timeline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/row.h"
#include "util/output.h"

/* ---- which links ---------------------------------------------------- */

gboolean timeline_spec_check(const char *spec, GError **error)
{
  gint64 n;
  if (spec && (strcmp(spec, "all") == 0 || strcmp(spec, "dims") == 0 ||
               g_ascii_string_to_signed(spec, 10, 0, 1 << 30, &n, NULL)))
    return TRUE;
  g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
              "--timeline-links '%s': expected a number of links (the busiest), all, or dims "
              "(one track per dimension and direction)", spec ? spec : "");
  return FALSE;
}

static timeline_track *track_new(char *name, int nlinks, const int *links)
{
  timeline_track *k = g_new0(timeline_track, 1);
  k->name = name;
  k->nlinks = nlinks;
  k->links = g_memdup2(links, sizeof(int) * (gsize)MAX(nlinks, 1));
  return k;
}

static void track_free(gpointer data)
{
  timeline_track *k = data;
  g_free(k->name);
  g_free(k->links);
  g_free(k);
}

void timeline_tracks_free(GPtrArray *tracks)
{
  if (tracks)
    g_ptr_array_unref(tracks);
}

/* Busiest first by recorded bytes, ties to the lower id. */
static int cmp_bytes(const void *a, const void *b, void *user)
{
  const linkrec *r = user;
  int x = *(const int *)a, y = *(const int *)b;
  if (r->bytes[x] != r->bytes[y])
    return r->bytes[x] > r->bytes[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* One track per link class (topo_class_name: dimension and direction on
 * regular topologies, node up/down, local, global ... on indirect ones). */
static void dimension_tracks(GPtrArray *out, const platform *p, const linkrec *rec)
{
  const topo *t = p->topo;
  int *links = g_new(int, MAX(t->nlinks, 1));
  for (int c = 0; c < t->nclasses; c++) {
    int n = 0;
    for (int l = 0; l < t->nlinks; l++)
      if (t->link_class[l] == c && rec->n[l] > 0)
        links[n++] = l;
    if (!n)
      continue;
    char label[32];
    topo_class_name(t, c, label, sizeof label);
    g_ptr_array_add(out, track_new(g_strdup_printf("%s links (%d)", label, n), n, links));
  }
  g_free(links);
}

GPtrArray *timeline_tracks(const platform *p, const linkrec *rec, const char *spec,
                           GError **error)
{
  if (!timeline_spec_check(spec, error))
    return NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func(track_free);
  if (strcmp(spec, "dims") == 0) {
    dimension_tracks(out, p, rec);
    return out;
  }
  int *used = g_new(int, MAX(rec->nlinks, 1)), n = 0;
  for (int l = 0; l < rec->nlinks; l++)
    if (rec->n[l] > 0)
      used[n++] = l;
  g_qsort_with_data(used, n, sizeof(int), cmp_bytes, (gpointer)rec);
  int keep = strcmp(spec, "all") == 0 ? n : MIN(n, atoi(spec));
  for (int i = 0; i < keep; i++)
    g_ptr_array_add(out, track_new(platform_link_name(p, used[i]), 1, &used[i]));
  g_free(used);
  return out;
}

/* ---- the JSON file -------------------------------------------------- */

/* A buffered writer of hand-formatted text: events are millions at 4,096
 * ranks, so numbers are written without printf and the names of regions
 * are quoted once. */
#define JW_SIZE (1u << 20)
#define JW_EVENT_MAX 512 /* room an event needs besides its quoted name */

typedef struct jw {
  FILE *f;
  char *buf, *at;
  gboolean first;
} jw;

static void jw_flush(jw *w)
{
  fwrite(w->buf, 1, (size_t)(w->at - w->buf), w->f);
  w->at = w->buf;
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

static void jw_u64(jw *w, uint64_t v)
{
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *w->at++ = tmp[--n];
}

/* ps as microseconds with 6 decimals (exact). */
static void jw_us(jw *w, int64_t ps)
{
  jw_u64(w, (uint64_t)(ps / 1000000));
  *w->at++ = '.';
  int64_t f = ps % 1000000;
  for (int64_t d = 100000; d; d /= 10)
    *w->at++ = (char)('0' + f / d % 10);
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

void timeline_rank_slices(const trace *t, int r, timeline_slice_fn fn, void *user)
{
  const trace_rank *tr = &t->ranks[r];
  int depth = 0;
  int64_t free_since = 0, start = 0;
  uint32_t region = 0;
  for (int64_t i = 0; i < tr->nevents; i++) {
    const trace_event *e = &tr->events[i];
    if (e->kind == TRACE_ENTER && depth++ == 0) {
      if (e->time > free_since)
        fn(user, -1, free_since, e->time);
      start = e->time;
      region = e->region;
    } else if (e->kind == TRACE_LEAVE && depth > 0 && --depth == 0) {
      fn(user, (int)MIN(region, (uint32_t)G_MAXINT), start, e->time);
      free_since = e->time;
    }
  }
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

/* A send or a receive: its channel and when it happened. */
typedef struct end {
  int32_t src, dst;
  uint32_t comm, tag;
  int64_t time;
} end;

/* Stable counting sort of `n` ends by one rank field (0: src, 1: dst). */
static void sort_by(end *a, end *tmp, int64_t n, int nranks, int by_dst)
{
  int64_t *count = g_new0(int64_t, (gsize)nranks + 1);
  for (int64_t i = 0; i < n; i++)
    count[(by_dst ? a[i].dst : a[i].src) + 1]++;
  for (int r = 0; r < nranks; r++)
    count[r + 1] += count[r];
  for (int64_t i = 0; i < n; i++)
    tmp[count[by_dst ? a[i].dst : a[i].src]++] = a[i];
  memcpy(a, tmp, sizeof(end) * (size_t)n);
  g_free(count);
}

static int cmp_comm_tag(const void *x, const void *y)
{
  const end *a = x, *b = y;
  if (a->comm != b->comm)
    return a->comm < b->comm ? -1 : 1;
  return (a->tag > b->tag) - (a->tag < b->tag);
}

static int cmp_comm_tag_data(const void *x, const void *y, void *user)
{
  return cmp_comm_tag(x, y);
}

/* The ends of every point-to-point message, sends or receives, ordered by
 * (destination, source) and, within that, as they happened (ranks'
 * records are in time order: two stable counting sorts). */
static end *message_ends(const trace *t, gboolean sends, int64_t *n)
{
  int64_t k = 0;
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      uint8_t kind = t->ranks[r].events[i].kind;
      k += t->ranks[r].events[i].peer >= 0 &&
           (sends ? kind == TRACE_SEND || kind == TRACE_ISEND
                  : kind == TRACE_RECV || kind == TRACE_IRECV);
    }
  end *a = g_new(end, (gsize)MAX(k, 1)), *tmp = g_new(end, (gsize)MAX(k, 1));
  *n = 0;
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (e->peer < 0)
        continue;
      if (sends ? e->kind == TRACE_SEND || e->kind == TRACE_ISEND
                : e->kind == TRACE_RECV || e->kind == TRACE_IRECV)
        a[(*n)++] = (end){ sends ? r : e->peer, sends ? e->peer : r, e->comm, e->tag, e->time };
    }
  sort_by(a, tmp, *n, t->nranks, 0);
  sort_by(a, tmp, *n, t->nranks, 1);
  g_free(tmp);
  return a;
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

/* Flow arrows from every send to the receive that completed it: MPI order
 * per source, destination, communicator and tag (the k-th send meets the
 * k-th receive). Blocks of one (destination, source) pair mixing
 * communicators or tags are sorted by them first (stably). */
static void message_flows(jw *w, const trace *t)
{
  int64_t ns, nr;
  end *s = message_ends(t, TRUE, &ns), *v = message_ends(t, FALSE, &nr);
  uint64_t id = 0;
  for (int64_t i = 0, j = 0; i < ns && j < nr;) {
    if (s[i].dst != v[j].dst || s[i].src != v[j].src) {
      gboolean send_first = s[i].dst != v[j].dst ? s[i].dst < v[j].dst : s[i].src < v[j].src;
      i += send_first;
      j += !send_first;
      continue;
    }
    int64_t ie = i, je = j;
    gboolean mixed = FALSE;
    while (ie < ns && s[ie].dst == s[i].dst && s[ie].src == s[i].src) {
      mixed = mixed || s[ie].comm != s[i].comm || s[ie].tag != s[i].tag;
      ie++;
    }
    while (je < nr && v[je].dst == v[j].dst && v[je].src == v[j].src) {
      mixed = mixed || v[je].comm != s[i].comm || v[je].tag != s[i].tag;
      je++;
    }
    if (mixed) { /* GLib's sort is stable */
      g_qsort_with_data(s + i, (gint)(ie - i), sizeof(end), cmp_comm_tag_data, NULL);
      g_qsort_with_data(v + j, (gint)(je - j), sizeof(end), cmp_comm_tag_data, NULL);
    }
    while (i < ie && j < je) {
      int c = cmp_comm_tag(&s[i], &v[j]);
      if (c == 0) {
        id++;
        flow(w, TRUE, id, s[i].src, s[i].time);
        flow(w, FALSE, id, v[j].dst, v[j].time);
      }
      i += c <= 0;
      j += c >= 0;
    }
    i = ie;
    j = je;
  }
  g_free(s);
  g_free(v);
}

static void counter_track(jw *w, const char *name, const linkrec_series *s)
{
  g_autofree char *q = json_quoted(name);
  size_t ql = strlen(q);
  GString *num = g_string_new(NULL);
  for (int64_t i = 0; i < s->n; i++) {
    g_string_truncate(num, 0);
    text_double(num, s->value[i]);
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

gboolean timeline_write(const char *path, const trace *run, const mapping *m, const platform *p,
                        const linkrec *rec, const char *spec, const progress *prog,
                        GError **error)
{
  GPtrArray *tracks = timeline_tracks(p, rec, spec, error);
  if (!tracks)
    return FALSE;
  output *o = output_open(path, prog, error);
  if (!o) {
    timeline_tracks_free(tracks);
    return FALSE;
  }
  jw w = { output_stream(o), g_malloc(JW_SIZE), NULL, TRUE };
  w.at = w.buf;
  JW_LIT(&w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  meta(&w, "process_name", 0, -1, "ranks");
  meta(&w, "process_name", 1, -1, "links (bytes/s)");
  heads h = heads_new(run);
  for (int r = 0; r < run->nranks && !output_stopped(o); r++) {
    g_autofree char *name = g_strdup_printf("rank %d on node %d", r, m->node[r]);
    meta(&w, "thread_name", 0, r, name);
    slice_ctx sc = { &w, &h, run->nregions, r };
    timeline_rank_slices(run, r, on_slice, &sc);
  }
  heads_free(&h);
  message_flows(&w, run);
  for (guint k = 0; k < tracks->len && !output_stopped(o); k++) {
    const timeline_track *tk = g_ptr_array_index(tracks, k);
    g_autoptr(linkrec_series) s = linkrec_series_of(rec, tk->links, tk->nlinks);
    counter_track(&w, tk->name, s);
  }
  JW_LIT(&w, "\n]}\n");
  jw_flush(&w);
  g_free(w.buf);
  timeline_tracks_free(tracks);
  return output_commit(o, error);
}

gboolean timeline_write_otf2(const char *dir, const trace *run, const platform *p,
                             const linkrec *rec, const char *spec, const progress *prog,
                             GError **error)
{
  GPtrArray *tracks = timeline_tracks(p, rec, spec, error);
  if (!tracks)
    return FALSE;
  int nc = (int)tracks->len;
  trace_counter *c = g_new0(trace_counter, MAX(nc, 1));
  linkrec_series **series = g_new0(linkrec_series *, MAX(nc, 1));
  for (int k = 0; k < nc; k++) {
    const timeline_track *tk = g_ptr_array_index(tracks, k);
    series[k] = linkrec_series_of(rec, tk->links, tk->nlinks);
    c[k] = (trace_counter){ tk->name, "bytes/s", series[k]->n, series[k]->time,
                            series[k]->value };
  }
  gboolean ok = trace_write_otf2_counters(run, c, nc, "link throughput", dir, prog, error);
  for (int k = 0; k < nc; k++)
    linkrec_series_free(series[k]);
  g_free(series);
  g_free(c);
  timeline_tracks_free(tracks);
  return ok;
}

/* ---- when messages enter and leave links ---------------------------- */

static int cmp_event_time(gconstpointer a, gconstpointer b, gpointer user)
{
  (void)user;
  const linkrec_event *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

gboolean timeline_write_link_events(const char *path, const platform *p, const linkrec *rec,
                                    const progress *prog, GError **error)
{
  output *o = output_open(path, prog, error);
  if (!o)
    return FALSE;
  FILE *f = output_stream(o);
  guint n = rec->events ? rec->events->len : 0;
  linkrec_event *e = g_new(linkrec_event, MAX(n, 1));
  if (n)
    memcpy(e, rec->events->data, n * sizeof *e);
  /* stable: events of one picosecond stay in the order they happened */
  g_qsort_with_data(e, (gint)n, sizeof *e, cmp_event_time, NULL);
  fputs("link,from,to,time_ps,event\n", f);
  for (guint i = 0; i < n && !output_stopped(o); i++)
    fprintf(f, "%d,%d,%d,%" PRId64 ",%s\n", e[i].link, p->topo->link_src[e[i].link],
            p->topo->link_dst[e[i].link], e[i].t, e[i].start ? "start" : "end");
  g_free(e);
  return output_commit(o, error);
}
