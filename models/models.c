/* models.c - the netmodel base: the per-link counters and the completion
 * path through the engine (models/model.h), which every model calls.
 * Not for: any model's timing rule, the registry (registry.c).
 */
#include <string.h>

#include "models/model.h"
#include "routing/energy.h"

G_DEFINE_QUARK(netmodel-error-quark, netmodel_error)

static void netmodel_on_event(void *ctx, engine *e, const engine_event *ev)
{
  netmodel *m = ctx;
  m->ops->impl->handle(m, ev);
}

netmodel *netmodel_new(const struct netmodel_ops *ops, const platform *p, engine *e,
                       uint32_t done_kind, GError **error)
{
  g_assert(ops->impl->size >= sizeof(netmodel) && ops->impl->start);
  if ((p->router->flags & ROUTE_FLAG_ADAPTIVE) && platform_has_sleep(p)) {
    g_set_error(error, NETMODEL_ERROR, NETMODEL_ERROR_PARAM,
                "%s: routing %s chooses paths by load, but links that switch off are woken "
                "along the route before it is chosen; expected no idle-timeout with it", p->name,
                router_algo_name(p->router));
    return NULL;
  }
  netmodel *m = g_malloc0(ops->impl->size);
  m->ops = ops;
  m->p = p;
  m->eng = e;
  m->done_kind = done_kind;
  m->nlinks = p->topo->nlinks;
  size_t n = (size_t)MAX(m->nlinks, 1);
  for (int c = 0; c < NETMODEL_NCLASSES; c++) {
    m->link_bytes[c] = g_new0(int64_t, n);
    m->link_messages[c] = g_new0(int64_t, n);
  }
  m->link_busy_ps = g_new0(int64_t, n);
  if (platform_has_sleep(p)) {
    m->link_idle_since = g_new0(int64_t, n);
    m->link_inflight = g_new0(int32_t, n);
    m->link_off_ps = g_new0(int64_t, n);
    m->link_wakeups = g_new0(int64_t, n);
    m->type_timeout_ps = g_new(int64_t, (gsize)MAX(p->nlinktypes, 1));
    m->type_wake_ps = g_new(int64_t, (gsize)MAX(p->nlinktypes, 1));
    for (int i = 0; i < p->nlinktypes; i++) {
      const link_power *w = &p->linktypes[i].power;
      m->type_timeout_ps[i] = w->idle_timeout < 0 ? -1 : engine_ps(w->idle_timeout);
      m->type_wake_ps[i] = engine_ps(w->wake_latency);
    }
  }
  if (p->router->flags & ROUTE_FLAG_ADAPTIVE) {
    m->taken = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
    m->ncand = route_candidates(p->router);
  }
  m->own_kind = ops->impl->handle ? engine_register(e, netmodel_on_event, m) : UINT32_MAX;
  if (ops->impl->init && !ops->impl->init(m, error)) {
    m->ops = NULL; /* fini must not run on a failed init */
    netmodel_free(m);
    return NULL;
  }
  return m;
}

void netmodel_free(netmodel *m)
{
  if (!m)
    return;
  if (m->ops && m->ops->impl->fini)
    m->ops->impl->fini(m);
  for (int c = 0; c < NETMODEL_NCLASSES; c++) {
    g_free(m->link_bytes[c]);
    g_free(m->link_messages[c]);
  }
  g_free(m->link_busy_ps);
  void *sleep[] = { m->link_idle_since, m->link_inflight, m->link_off_ps, m->link_wakeups,
                    m->type_timeout_ps, m->type_wake_ps };
  for (size_t i = 0; i < G_N_ELEMENTS(sleep); i++)
    g_free(sleep[i]);
  if (m->taken)
    g_hash_table_destroy(m->taken);
  g_free(m);
}

netmodel_taken *netmodel_route_entry(netmodel *m, const netmodel_msg *msg)
{
  netmodel_taken *u = g_hash_table_lookup(m->taken, &msg->route_key);
  if (!u) {
    u = g_malloc0(sizeof *u + sizeof(int64_t) * 2 * (size_t)m->ncand);
    u->key = msg->route_key;
    u->src = msg->src;
    u->dst = msg->dst;
    g_hash_table_insert(m->taken, &u->key, u);
  }
  return u;
}

GHashTable *netmodel_take_routes(netmodel *m)
{
  GHashTable *t = m->taken;
  m->taken = NULL;
  return t;
}

/* Wakes the links of msg's route that are off at msg->t and takes the
 * route; returns the longest wake-up latency among them (0: all were on). */
static int64_t wake_route(netmodel *m, const netmodel_msg *msg)
{
  const platform *p = m->p;
  int64_t delay = 0;
  route_iter it;
  int l;
  route_begin(&it, p->router, msg->src, msg->dst, msg->route_key);
  while (route_next(&it, &l)) {
    int64_t timeout = m->type_timeout_ps[p->link_type[l]];
    int64_t off_since = saturating_add_i64(m->link_idle_since[l], timeout);
    if (timeout >= 0 && m->link_inflight[l] == 0 && msg->t > off_since) {
      netmodel_add(m, &m->link_off_ps[l], msg->t - off_since);
      m->link_wakeups[l]++;
      delay = MAX(delay, m->type_wake_ps[p->link_type[l]]);
    }
    m->link_inflight[l]++;
  }
  return delay;
}

/* Logs msg entering (start) or leaving its route's links at t, when the
 * recorder keeps events. */
static void log_route(netmodel *m, const netmodel_msg *msg, int64_t t, gboolean start)
{
  if (!m->rec || !m->rec->events)
    return;
  route_iter it;
  int l;
  route_begin(&it, m->p->router, msg->src, msg->dst, msg->route_key);
  while (route_next(&it, &l))
    linkrec_event_add(m->rec, l, t, start);
}

void netmodel_start(netmodel *m, const netmodel_msg *msg)
{
  netmodel_totals *t = &m->tot[msg->cls];
  t->messages++;
  netmodel_add(m, &t->bytes, msg->bytes);
  if (msg->src == msg->dst) {
    engine_schedule(m->eng, msg->t, m->done_kind, msg->tag, msg->token);
    return;
  }
  if (m->taken && !(m->ops->impl->caps & NETMODEL_CAP_ADAPTIVE))
    netmodel_record_route(m, netmodel_route_entry(m, msg), msg,
                          route_default_candidate(m->p->router, msg->route_key), msg->bytes);
  if (m->link_inflight) {
    netmodel_msg woken = *msg;
    int64_t delay = wake_route(m, msg);
    woken.t = saturating_add_i64(msg->t, delay);
    netmodel_add(m, &t->transfer_ps, delay);
    log_route(m, &woken, woken.t, TRUE);
    m->ops->impl->start(m, &woken);
    return;
  }
  log_route(m, msg, msg->t, TRUE);
  m->ops->impl->start(m, msg);
}

int64_t netmodel_link_off_ps(const netmodel *m, int link, int64_t end)
{
  if (!m->link_inflight)
    return 0;
  int64_t timeout = m->type_timeout_ps[m->p->link_type[link]];
  if (timeout < 0)
    return 0;
  int64_t off = m->link_off_ps[link];
  int64_t off_since = saturating_add_i64(m->link_idle_since[link], timeout);
  if (m->link_inflight[link] == 0 && end > off_since)
    off = saturating_add_i64(off, end - off_since);
  return off;
}

void netmodel_count_hops(netmodel *m, const netmodel_msg *msg, int hops)
{
  netmodel_count_part_hops(m, msg, msg->bytes, hops, TRUE);
}

void netmodel_count_part_hops(netmodel *m, const netmodel_msg *msg, int64_t bytes, int hops,
                              gboolean first)
{
  netmodel_totals *t = &m->tot[msg->cls];
  netmodel_add(m, &t->hop_bytes, saturating_mul_i64(bytes, hops));
  if (first)
    t->msg_hops += hops;
  if (hops > t->max_hops)
    t->max_hops = hops;
}

int64_t netmodel_packets(const platform *p, int64_t bytes)
{
  /* quotient and remainder, not (bytes + ps - 1) / ps: that sum overflows
   * near INT64_MAX, where saturated sizes end up */
  int64_t ps = p->model.packet_size > 0 ? p->model.packet_size : 1;
  return bytes > 0 ? bytes / ps + (bytes % ps != 0) : 1;
}

int64_t netmodel_wire_bytes(const platform *p, int64_t bytes)
{
  bytes = saturating_add_i64(bytes, p->model.envelope);
  return saturating_add_i64(bytes, saturating_mul_i64(netmodel_packets(p, bytes), p->model.packet_header));
}

void netmodel_deliver(netmodel *m, const netmodel_msg *msg, int64_t t)
{
  g_assert(t >= msg->t);
  netmodel_add(m, &m->tot[msg->cls].transfer_ps, t - msg->t);
  if (msg->src != msg->dst)
    log_route(m, msg, t, FALSE);
  if (m->link_inflight && msg->src != msg->dst) {
    route_iter it;
    int l;
    route_begin(&it, m->p->router, msg->src, msg->dst, msg->route_key);
    while (route_next(&it, &l)) {
      m->link_inflight[l]--;
      m->link_idle_since[l] = MAX(m->link_idle_since[l], t);
    }
  }
  engine_schedule(m->eng, t, m->done_kind, msg->tag, msg->token);
}
