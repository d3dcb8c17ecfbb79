/* netmodel_util.h - drives a network model directly on an engine for the
 * model tests (test_flow.c, test_packet.c): no trace, no replay. A run
 * starts messages with nm_send(), runs the engine and records each
 * message's arrival time by its tag. Static inline helpers, test-only. */
#pragma once

#include <criterion/criterion.h>
#include <glib.h>

#include "models/model.h"
#include "routing/platform.h"

#define NM_MAX_MSGS 4096

typedef struct nm_run {
  engine *eng;
  netmodel *m;
  int nmsgs, ndone;
  int64_t arrival[NM_MAX_MSGS];
  int src[NM_MAX_MSGS], dst[NM_MAX_MSGS];
  int64_t bytes[NM_MAX_MSGS], t[NM_MAX_MSGS];
} nm_run;

static inline void nm_on_done(void *ctx, engine *e, const engine_event *ev)
{
  nm_run *r = ctx;
  cr_assert_lt(ev->a, (uint32_t)r->nmsgs);
  cr_assert_eq(r->arrival[ev->a], -1, "message %u delivered twice", ev->a);
  r->arrival[ev->a] = ev->time;
  r->ndone++;
}

/* A run of model `name` on p; free with nm_free(). */
static inline nm_run *nm_new(const char *name, const platform *p)
{
  nm_run *r = g_new0(nm_run, 1);
  GError *err = NULL;
  const struct netmodel_ops *ops = netmodel_find(name);
  cr_assert_not_null(ops, "model %s not registered", name);
  r->eng = engine_new(0);
  uint32_t done = engine_register(r->eng, nm_on_done, r);
  r->m = netmodel_new(ops, p, r->eng, done, &err);
  cr_assert_not_null(r->m, "%s: %s", name, err ? err->message : "?");
  for (int i = 0; i < NM_MAX_MSGS; i++)
    r->arrival[i] = -1;
  return r;
}

/* Starts a p2p message; returns its tag (index into arrival[]). */
static inline int nm_send(nm_run *r, int src, int dst, int64_t bytes, int64_t t)
{
  cr_assert_lt(r->nmsgs, NM_MAX_MSGS);
  int tag = r->nmsgs++;
  r->src[tag] = src;
  r->dst[tag] = dst;
  r->bytes[tag] = bytes;
  r->t[tag] = t;
  netmodel_msg msg = { src, dst, bytes, t, NETMODEL_P2P, (uint32_t)tag, (uint64_t)tag, 0 };
  netmodel_start(r->m, &msg);
  return tag;
}

/* Runs to the end and checks that every message arrived once. */
static inline void nm_finish(nm_run *r)
{
  engine_run(r->eng);
  cr_assert_eq(r->ndone, r->nmsgs, "%s: %d of %d messages delivered", r->m->ops->name, r->ndone,
               r->nmsgs);
}

/* The model statistic `name`; fails the test when missing. */
static inline double nm_stat(const nm_run *r, const char *name)
{
  netmodel_stat s[32];
  int n = r->m->ops->impl->stats ? r->m->ops->impl->stats(r->m, s, 32) : 0;
  for (int i = 0; i < n; i++)
    if (g_str_equal(s[i].name, name))
      return s[i].value;
  cr_assert_fail("statistic %s missing", name);
  return 0;
}

static inline void nm_free(nm_run *r)
{
  netmodel_free(r->m);
  engine_free(r->eng);
  g_free(r);
}

/* Sets every link of p to bandwidth bw and latency lat. */
static inline void nm_uniform_links(platform *p, double bw, double lat)
{
  for (int l = 0; l < p->topo->nlinks; l++) {
    p->link_bw[l] = bw;
    p->link_lat[l] = lat;
  }
}

/* A deterministic pseudo-random message set on p (LCG), n messages. */
static inline void nm_random_traffic(nm_run *r, const platform *p, int n, uint32_t seed)
{
  uint32_t x = seed;
  for (int i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    int src = (int)(x >> 8) % p->topo->nnodes;
    x = x * 1664525u + 1013904223u;
    int dst = (int)(x >> 8) % p->topo->nnodes;
    if (dst == src)
      dst = (dst + 1) % p->topo->nnodes;
    x = x * 1664525u + 1013904223u;
    int64_t bytes = (int64_t)((x >> 8) % 200000);
    x = x * 1664525u + 1013904223u;
    int64_t t = (int64_t)((x >> 8) % 20000000);
    nm_send(r, src, dst, bytes, t);
  }
}

/* Checks the pre/post equality: the model's per-link bytes and messages
 * equal the sums over the messages' routes, walked independently. */
static inline void nm_check_link_counts(const nm_run *r, const platform *p)
{
  const int *src = r->src, *dst = r->dst;
  const int64_t *bytes = r->bytes;
  int n = r->nmsgs;
  int64_t *b = g_new0(int64_t, p->topo->nlinks), *c = g_new0(int64_t, p->topo->nlinks);
  for (int i = 0; i < n; i++) {
    route_iter it;
    int link;
    route_begin(&it, p->router, src[i], dst[i], 0);
    while (route_next(&it, &link)) {
      b[link] += bytes[i];
      c[link]++;
    }
  }
  for (int l = 0; l < p->topo->nlinks; l++) {
    cr_assert_eq(r->m->link_bytes[NETMODEL_P2P][l], b[l], "%s link %d bytes",
                 r->m->ops->name, l);
    cr_assert_eq(r->m->link_messages[NETMODEL_P2P][l], c[l], "%s link %d messages",
                 r->m->ops->name, l);
  }
  g_free(b);
  g_free(c);
}
