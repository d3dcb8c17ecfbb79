/* models.c - the registry of network models and the netmodel base.
 *
 * One row per model in `netmodel_registry`; the base owns the per-link
 * counters and the completion path through the engine (models/model.h).
 * Not for: any model's timing rule.
 */
#include <string.h>

#include "models/model.h"

G_DEFINE_QUARK(netmodel-error-quark, netmodel_error)

extern const struct netmodel_ops netmodel_analytic_ops;
extern const struct netmodel_ops netmodel_flow_ops;
extern const struct netmodel_ops netmodel_flow_hd_ops;
extern const struct netmodel_ops netmodel_packet_ops;
extern const struct netmodel_ops netmodel_packet_vct_ops;
extern const struct netmodel_ops netmodel_packet_buf_ops;

const struct netmodel_ops *const netmodel_registry[] = {
  &netmodel_analytic_ops,
  &netmodel_flow_ops,
  &netmodel_flow_hd_ops,
  &netmodel_packet_ops,
  &netmodel_packet_vct_ops,
  &netmodel_packet_buf_ops,
  NULL,
};

const struct netmodel_ops *netmodel_find(const char *name)
{
  for (int i = 0; netmodel_registry[i]; i++)
    if (name && strcmp(netmodel_registry[i]->name, name) == 0)
      return netmodel_registry[i];
  return NULL;
}

char *netmodel_names(void)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; netmodel_registry[i]; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", netmodel_registry[i]->name);
  return g_string_free(s, FALSE);
}

static void netmodel_on_event(void *ctx, engine *e, const engine_event *ev)
{
  netmodel *m = ctx;
  m->ops->handle(m, ev);
}

netmodel *netmodel_new(const struct netmodel_ops *ops, const platform *p, engine *e,
                       uint32_t done_kind, GError **error)
{
  g_assert(ops->size >= sizeof(netmodel) && ops->start);
  netmodel *m = g_malloc0(ops->size);
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
  m->own_kind = ops->handle ? engine_register(e, netmodel_on_event, m) : UINT32_MAX;
  if (ops->init && !ops->init(m, error)) {
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
  if (m->ops && m->ops->fini)
    m->ops->fini(m);
  for (int c = 0; c < NETMODEL_NCLASSES; c++) {
    g_free(m->link_bytes[c]);
    g_free(m->link_messages[c]);
  }
  g_free(m->link_busy_ps);
  g_free(m);
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
  m->ops->start(m, msg);
}

void netmodel_count_hops(netmodel *m, const netmodel_msg *msg, int hops)
{
  netmodel_totals *t = &m->tot[msg->cls];
  netmodel_add(m, &t->hop_bytes, saturating_mul_i64(msg->bytes, hops));
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
  engine_schedule(m->eng, t, m->done_kind, msg->tag, msg->token);
}
