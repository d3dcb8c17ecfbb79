/* linkrec.c - the recorder of link activity (see linkrec.h). */
#include "models/linkrec.h"

#include <stdlib.h>

static void expand_chunk(void *block, void *user);

linkrec *linkrec_new(int nlinks)
{
  linkrec *r = g_new0(linkrec, 1);
  size_t n = (size_t)MAX(nlinks, 1);
  r->nlinks = nlinks;
  r->spans = g_new0(linkrec_span *, n);
  r->n = g_new0(int64_t, n);
  r->cap = g_new0(int64_t, n);
  r->bytes = g_new0(double, n);
  r->log = handoff_new("linkrec", sizeof(linkrec_chunk), LINKREC_CHUNKS_IN_FLIGHT, expand_chunk, r);
  r->fill = handoff_block(r->log);
  return r;
}

void linkrec_free(linkrec *r)
{
  if (!r)
    return;
  linkrec_settle(r);
  for (int l = 0; l < r->nlinks; l++)
    g_free(r->spans[l]);
  g_free(r->spans);
  g_free(r->n);
  g_free(r->cap);
  g_free(r->bytes);
  if (r->events)
    g_array_unref(r->events);
  handoff_free(r->log);
  g_free(r);
}

void linkrec_keep_events(linkrec *r)
{
  if (!r->events)
    r->events = g_array_new(FALSE, FALSE, sizeof(linkrec_event));
}

static void add_span(linkrec *r, int link, const linkrec_entry *e)
{
  if (G_UNLIKELY(r->n[link] == r->cap[link])) {
    r->cap[link] = r->cap[link] ? 2 * r->cap[link] : 16;
    r->spans[link] = g_renew(linkrec_span, r->spans[link], (gsize)r->cap[link]);
  }
  r->spans[link][r->n[link]++] = (linkrec_span){ e->t0, e->t1 > e->t0 ? e->t1 : e->t0 + 1, e->bytes };
  r->bytes[link] += e->bytes;
}

/* The chunk's stretches into the per-link arrays, in their order. */
static void expand(linkrec *r, const linkrec_chunk *c)
{
  for (int i = 0; i < c->n; i++) {
    const linkrec_entry *e = &c->e[i];
    if (e->dst < 0) {
      add_span(r, e->src, e);
      continue;
    }
    route_iter it;
    int l;
    route_begin_candidate(&it, r->router, e->src, e->dst, e->key, e->path);
    while (route_next(&it, &l))
      add_span(r, l, e);
  }
}

/* The helper thread's work: a full chunk expanded (everything per link
 * is its own until linkrec_settle). */
static void expand_chunk(void *block, void *user)
{
  linkrec_chunk *c = block;
  expand(user, c);
  c->n = 0;
}

void linkrec_hand_over(linkrec *r)
{
  r->fill = handoff_pass(r->log);
  r->fill->n = 0;
}

void linkrec_settle(linkrec *r)
{
  handoff_drain(r->log);
  expand(r, r->fill);
  r->fill->n = 0;
}

/* A change of the summed rate at a time. */
typedef struct edge {
  int64_t t;
  double rate;
} edge;

static int cmp_edge(const void *a, const void *b)
{
  const edge *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

linkrec_series *linkrec_series_of(const linkrec *r, const int *links, int nlinks)
{
  int64_t k = 0;
  for (int i = 0; i < nlinks; i++)
    k += r->n[links[i]];
  edge *e = g_new(edge, (gsize)MAX(2 * k, 1));
  int64_t ne = 0;
  for (int i = 0; i < nlinks; i++)
    for (int64_t j = 0; j < r->n[links[i]]; j++) {
      const linkrec_span *s = &r->spans[links[i]][j];
      double rate = s->bytes / ((double)(s->t1 - s->t0) * 1e-12);
      e[ne++] = (edge){ s->t0, rate };
      e[ne++] = (edge){ s->t1, -rate };
    }
  qsort(e, (size_t)ne, sizeof(edge), cmp_edge);
  linkrec_series *out = g_new0(linkrec_series, 1);
  out->time = g_new(int64_t, (gsize)MAX(ne + 1, 1));
  out->value = g_new(double, (gsize)MAX(ne + 1, 1));
  /* the running sum is recomputed from the open stretches' count so that
   * rounding never leaves a residue where nothing is open */
  double sum = 0;
  int64_t open = 0;
  for (int64_t i = 0; i < ne;) {
    int64_t t = e[i].t;
    for (; i < ne && e[i].t == t; i++) {
      sum += e[i].rate;
      open += e[i].rate > 0 ? 1 : -1;
    }
    if (open == 0)
      sum = 0;
    if (out->n > 0 && out->value[out->n - 1] == sum)
      continue;
    out->time[out->n] = t;
    out->value[out->n++] = sum;
  }
  g_free(e);
  return out;
}

void linkrec_series_free(linkrec_series *s)
{
  if (!s)
    return;
  g_free(s->time);
  g_free(s->value);
  g_free(s);
}
