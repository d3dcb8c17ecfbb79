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

/* One track per dimension and direction (the rule of metrics_by_dimension). */
static void dimension_tracks(GPtrArray *out, const platform *p, const linkrec *rec)
{
  const topo *t = p->topo;
  int nclass = topo_is_regular(t) ? 2 * t->ndims : 1;
  int *links = g_new(int, MAX(t->nlinks, 1));
  for (int c = 0; c < nclass; c++) {
    int n = 0;
    for (int l = 0; l < t->nlinks; l++)
      if ((topo_is_regular(t) ? 2 * t->link_dim[l] + t->link_dir[l] : 0) == c &&
          rec->n[l] > 0)
        links[n++] = l;
    if (!n)
      continue;
    char *name = topo_is_regular(t)
                     ? g_strdup_printf("%c%c links (%d)", topo_dim_letter(c / 2),
                                       c % 2 ? '-' : '+', n)
                     : g_strdup_printf("links (%d)", n);
    g_ptr_array_add(out, track_new(name, n, links));
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

/* A buffered writer: appended text goes to the file in large pieces. */
typedef struct jw {
  FILE *f;
  GString *b;
  gboolean first;
} jw;

static void jw_flush(jw *w, gboolean force)
{
  if (force || w->b->len > (1u << 20)) {
    fwrite(w->b->str, 1, w->b->len, w->f);
    g_string_truncate(w->b, 0);
  }
}

/* Starts the next event object. */
static void jw_event(jw *w)
{
  g_string_append(w->b, w->first ? "\n" : ",\n");
  w->first = FALSE;
  jw_flush(w, FALSE);
}

/* ps as microseconds with 6 decimals (exact). */
static void jw_us(jw *w, int64_t ps)
{
  g_string_append_printf(w->b, "%" PRId64 ".%06" PRId64, ps / 1000000, ps % 1000000);
}

/* A JSON string (names of regions, links). */
static void jw_str(jw *w, const char *s)
{
  g_string_append_c(w->b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c(w->b, '\\');
    if ((unsigned char)*s < 0x20)
      g_string_append_printf(w->b, "\\u%04x", (unsigned)*s);
    else
      g_string_append_c(w->b, *s);
  }
  g_string_append_c(w->b, '"');
}

static void meta(jw *w, const char *what, int pid, int tid, const char *name)
{
  jw_event(w);
  g_string_append_printf(w->b, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d", what, pid);
  if (tid >= 0)
    g_string_append_printf(w->b, ",\"tid\":%d", tid);
  g_string_append(w->b, ",\"args\":{\"name\":");
  jw_str(w, name);
  g_string_append(w->b, "}}");
}

static void slice(jw *w, int rank, const char *name, const char *cat, int64_t t0, int64_t t1)
{
  jw_event(w);
  g_string_append(w->b, "{\"name\":");
  jw_str(w, name);
  g_string_append_printf(w->b, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":", cat,
                         rank);
  jw_us(w, t0);
  g_string_append(w->b, ",\"dur\":");
  jw_us(w, t1 - t0);
  g_string_append_c(w->b, '}');
}

static const char *region_cat(const trace *t, uint32_t region)
{
  switch (region < (uint32_t)t->nregions ? trace_region_class_of(t->regions[region])
                                         : TRACE_REGION_OTHER_MPI) {
  case TRACE_REGION_P2P: return "p2p";
  case TRACE_REGION_COLL: return "collective";
  default: return "mpi";
  }
}

/* Rank r's MPI calls and the computation between them. */
static void rank_slices(jw *w, const trace *t, int r)
{
  const trace_rank *tr = &t->ranks[r];
  int depth = 0;
  int64_t free_since = 0, start = 0;
  uint32_t region = 0;
  for (int64_t i = 0; i < tr->nevents; i++) {
    const trace_event *e = &tr->events[i];
    if (e->kind == TRACE_ENTER && depth++ == 0) {
      if (e->time > free_since)
        slice(w, r, "compute", "compute", free_since, e->time);
      start = e->time;
      region = e->region;
    } else if (e->kind == TRACE_LEAVE && depth > 0 && --depth == 0) {
      slice(w, r, region < (uint32_t)t->nregions ? t->regions[region] : "MPI",
            region_cat(t, region), start, e->time);
      free_since = e->time;
    }
  }
}

/* A send or a receive on its channel, in the order it happened there. */
typedef struct end {
  int32_t src, dst;
  uint32_t comm, tag;
  int64_t seq;        /* position among the rank's records */
  int64_t time;
} end;

static int cmp_end(const void *a, const void *b)
{
  const end *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst)
    return x->dst < y->dst ? -1 : 1;
  if (x->comm != y->comm)
    return x->comm < y->comm ? -1 : 1;
  if (x->tag != y->tag)
    return x->tag < y->tag ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int same_channel(const end *x, const end *y)
{
  return x->src == y->src && x->dst == y->dst && x->comm == y->comm && x->tag == y->tag;
}

/* Flow arrows from every send to the receive that completed it (MPI order
 * per channel: the k-th send meets the k-th receive). */
static void message_flows(jw *w, const trace *t)
{
  GArray *sends = g_array_new(FALSE, FALSE, sizeof(end));
  GArray *recvs = g_array_new(FALSE, FALSE, sizeof(end));
  for (int r = 0; r < t->nranks; r++)
    for (int64_t i = 0; i < t->ranks[r].nevents; i++) {
      const trace_event *e = &t->ranks[r].events[i];
      if (e->peer < 0)
        continue;
      if (e->kind == TRACE_SEND || e->kind == TRACE_ISEND) {
        end x = { r, e->peer, e->comm, e->tag, i, e->time };
        g_array_append_val(sends, x);
      } else if (e->kind == TRACE_RECV || e->kind == TRACE_IRECV) {
        end x = { e->peer, r, e->comm, e->tag, i, e->time };
        g_array_append_val(recvs, x);
      }
    }
  g_array_sort(sends, cmp_end);
  g_array_sort(recvs, cmp_end);
  const end *s = (const end *)(void *)sends->data, *v = (const end *)(void *)recvs->data;
  guint i = 0, j = 0;
  uint64_t id = 0;
  while (i < sends->len && j < recvs->len) {
    int c = cmp_end(&s[i], &v[j]);
    if (!same_channel(&s[i], &v[j])) {
      if (c < 0)
        i++;
      else
        j++;
      continue;
    }
    id++;
    jw_event(w);
    g_string_append_printf(w->b, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"s\","
                           "\"id\":%" G_GUINT64_FORMAT ",\"pid\":0,\"tid\":%d,\"ts\":", id,
                           s[i].src);
    jw_us(w, s[i].time);
    g_string_append_c(w->b, '}');
    jw_event(w);
    g_string_append_printf(w->b, "{\"name\":\"message\",\"cat\":\"message\",\"ph\":\"f\","
                           "\"bp\":\"e\",\"id\":%" G_GUINT64_FORMAT ",\"pid\":0,\"tid\":%d,"
                           "\"ts\":", id, v[j].dst);
    jw_us(w, v[j].time);
    g_string_append_c(w->b, '}');
    i++;
    j++;
  }
  g_array_free(sends, TRUE);
  g_array_free(recvs, TRUE);
}

static void counter_track(jw *w, const char *name, const linkrec_series *s)
{
  for (int64_t i = 0; i < s->n; i++) {
    jw_event(w);
    g_string_append(w->b, "{\"name\":");
    jw_str(w, name);
    g_string_append(w->b, ",\"cat\":\"link\",\"ph\":\"C\",\"pid\":1,\"ts\":");
    jw_us(w, s->time[i]);
    g_string_append(w->b, ",\"args\":{\"bytes/s\":");
    text_double(w->b, s->value[i]);
    g_string_append(w->b, "}}");
  }
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
  jw w = { output_stream(o), g_string_sized_new(1u << 21), TRUE };
  g_string_append(w.b, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  meta(&w, "process_name", 0, -1, "ranks");
  meta(&w, "process_name", 1, -1, "links (bytes/s)");
  for (int r = 0; r < run->nranks && !output_stopped(o); r++) {
    g_autofree char *name = g_strdup_printf("rank %d on node %d", r, m->node[r]);
    meta(&w, "thread_name", 0, r, name);
    rank_slices(&w, run, r);
  }
  message_flows(&w, run);
  for (guint k = 0; k < tracks->len && !output_stopped(o); k++) {
    const timeline_track *tk = g_ptr_array_index(tracks, k);
    g_autoptr(linkrec_series) s = linkrec_series_of(rec, tk->links, tk->nlinks);
    counter_track(&w, tk->name, s);
  }
  g_string_append(w.b, "\n]}\n");
  jw_flush(&w, TRUE);
  g_string_free(w.b, TRUE);
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
