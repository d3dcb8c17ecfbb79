/* model.h - the `netmodel` interface: network timing models behind one vtable.
 *
 * A network model times messages between nodes of a platform. The replay
 * (sim/replay.h) calls netmodel_start() for each message: source and
 * destination node, payload bytes, a traffic class, a 64-bit token, the
 * route key (routing/route.h: route_key of the source and destination
 * ranks, so keyed routings take the path the static view takes), and
 * the injection time t (>= the engine's current time; a model that needs
 * the engine clock to equal t schedules its own event at t). When the last
 * byte has arrived, the model reports completion THROUGH THE ENGINE: it
 * calls netmodel_deliver(), which schedules an event of kind `done_kind`
 * (payload a = the message's `tag`, b = its token) at the arrival time. The
 * owner of the run registered that kind's handler.
 *
 * Contention models (flow: max-min sharing with incremental rate updates;
 * packet: per-link FIFO output queues) keep their state in a struct
 * whose FIRST member is `netmodel`, declare `.size = sizeof(that struct)`,
 * and receive their own engine events through the optional `handle` hook
 * (the base registers one engine kind per model, `own_kind`). The base keeps
 * the per-link counters every model fills - bytes and messages per traffic
 * class (p2p data, collective data, protocol control messages) and busy time
 * - so that post-simulation metrics are model-independent
 * (korndoerfer2021 Section 7.3; pre/post check of Section 7.4).
 *
 * Links that switch off (routing/energy.h: a link type with idle-timeout)
 * are the base's too: netmodel_start() finds the links of the route that
 * have been idle longer than their timeout, counts their time off, wakes
 * them and delays the message by the longest wake-up latency among them
 * (they are woken together when the message is injected, so every model
 * sees the later injection time; the delay counts as transfer time);
 * netmodel_deliver() marks the route's links idle from the arrival on.
 *
 * Link activity for timelines: with a recorder attached (m->rec, a
 * linkrec), models report every stretch of time a link carries bytes
 * (netmodel_link_use: analytic, each message at the bottleneck rate after
 * the latencies before the link; flow, every span between two rate changes
 * of a flow on each of its links; packet, every packet's transmission),
 * so the recorded bytes of a link are its wire bytes and piecewise-constant
 * rates integrate to them exactly; when the recorder keeps events, the base
 * logs every message's start and end on each link of its route
 * (netmodel_start, netmodel_deliver).
 *
 * Same-node messages (src == dst node) never reach a model: they use no
 * link and cost zero network time (the intra-node copy is part of the MPI
 * software overheads of platform_model; documented in sim/replay.h).
 *
 * Adaptive routings (routing/route.h, ROUTE_FLAG_ADAPTIVE): a model that
 * sees load (NETMODEL_CAP_ADAPTIVE: flow and packet) picks each message's
 * or packet's path among the routing's candidates (models/adaptive.c) and
 * records the payload each candidate carried (netmodel_record_route); for
 * the others the base records candidate 0, the path route_begin walks.
 * The record (netmodel_take_routes) is what the check of an adaptive run
 * holds the simulated link counters against. Links that switch off are
 * woken along a message's route before a model sees it, so adaptive
 * routings refuse them (netmodel_new).
 *
 * Adding a model: one file defining its rule (a netmodel_impl) and its row
 * `const struct netmodel_ops netmodel_NAME_ops = { "NAME", "summary",
 * &impl, variant }`, and one row in models/registry.c; a variant of a rule
 * is one more row sharing the rule. Optional hooks may be NULL, meaning
 * "the default".
 *
 * Ownership: netmodel_new() returns a model freed with netmodel_free(); it
 * borrows the platform and the engine, which must outlive it.
 * Not for: MPI semantics (sim/replay.c), reading files, routing decisions
 * (routing/route.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "routing/platform.h"
#include "engine/engine.h"
#include "models/linkrec.h"

G_BEGIN_DECLS

#define NETMODEL_ERROR (netmodel_error_quark())
GQuark netmodel_error_quark(void);

typedef enum {
  NETMODEL_ERROR_UNKNOWN, /* no model of that name */
  NETMODEL_ERROR_PARAM,   /* a platform parameter the model cannot use */
} NetmodelError;

/* Traffic classes counted separately on links. */
typedef enum {
  NETMODEL_P2P,  /* point-to-point payload: compared with the static metrics */
  NETMODEL_COLL, /* messages of collective algorithms */
  NETMODEL_CTRL, /* protocol control messages (rendezvous RTS/CTS), 0 bytes */
  NETMODEL_NCLASSES
} netmodel_class;

typedef struct netmodel_msg {
  int src, dst;       /* nodes, src != dst */
  int64_t bytes;      /* payload */
  int64_t t;          /* injection time, ps, >= engine now */
  netmodel_class cls;
  uint32_t tag;       /* returned as event payload a */
  uint64_t token;     /* returned as event payload b */
  uint64_t route_key; /* route_begin's key: route_key(source rank, destination rank) */
} netmodel_msg;

/* Per-class totals kept by the base. */
typedef struct netmodel_totals {
  int64_t messages;   /* started, same-node ones included */
  int64_t bytes;
  int64_t hop_bytes;  /* sum of bytes x hops */
  int64_t msg_hops;   /* sum of hops */
  int64_t transfer_ps;/* sum of (arrival - injection): "communication model time" */
  int max_hops;
} netmodel_totals;

typedef struct netmodel netmodel;

/* A model-specific statistic (queue lengths, saturated time ...). */
typedef struct netmodel_stat {
  const char *name;   /* static string */
  double value;
} netmodel_stat;

/* Capabilities a model declares (ops.caps), so tests know which closed
 * forms apply to it. */
enum {
  /* An isolated message takes exactly the contention-free time
   * sum(latency + router_delay) + wire_bytes / bottleneck bandwidth. */
  NETMODEL_CAP_ISOLATED_EXACT = 1u << 0,
  /* The model decides adaptive routings by load and records its choices
   * itself (else it walks route_begin and the base records candidate 0). */
  NETMODEL_CAP_ADAPTIVE = 1u << 1,
};

/* The routes an adaptive routing's messages took, per rank pair: the
 * payload bytes each candidate path carried (route_begin_candidate), p2p
 * and collective apart. Entries of the table netmodel_take_routes
 * returns, keyed by their first member. */
typedef struct netmodel_taken {
  uint64_t key;        /* route_key(source rank, destination rank) */
  int src, dst;        /* nodes */
  int64_t messages;    /* messages of the pair started so far (their numbers for
                        * route_spread_pick: the order is the engine's, so
                        * deterministic) */
  int64_t bytes[];     /* 2 per candidate c: [2 c] p2p, [2 c + 1] collective */
} netmodel_taken;

/* Per-link load of a contention model (see link_stat below). */
typedef struct netmodel_link_stat {
  double max_load;
  double avg_load;
  int64_t saturated_ps;
} netmodel_link_stat;

/* A model's timing rule: what all its variants share, one table per
 * model file. */
typedef struct netmodel_impl {
  unsigned caps;      /* NETMODEL_CAP_* bits */
  size_t size;        /* bytes of the model's state; first member is `netmodel` */
  /* Optional: set up state after the base is ready (NULL: nothing); the
   * variant to set up is m->ops->variant. */
  gboolean (*init)(netmodel *m, GError **error);
  /* Optional: free what init allocated (NULL: nothing). */
  void (*fini)(netmodel *m);
  /* Required: time one message (src != dst). Must count its route once
   * (netmodel_count_link() per link plus netmodel_count_hops()) and
   * eventually call netmodel_deliver() once. */
  void (*start)(netmodel *m, const netmodel_msg *msg);
  /* Optional: the model's own events (kind m->own_kind). NULL: none. */
  void (*handle)(netmodel *m, const engine_event *ev);
  /* Optional: model-specific statistics after the run; returns how many
   * were written to out[0..max-1]. NULL: none. */
  int (*stats)(const netmodel *m, netmodel_stat *out, int max);
  /* Optional: what was in flight on link `link` over the run - the
   * maximum and the time average of its load (flows for flow models,
   * queued packets for packet models; `load_unit` names it) and the time it
   * was saturated. NULL: the model keeps no per-link load. */
  void (*link_stat)(const netmodel *m, int link, netmodel_link_stat *out);
  const char *load_unit;
} netmodel_impl;

/* A model as users name it, one registry row: its name and summary, the
 * rule it runs and the rule's parameter (flow: half duplex or not;
 * packet: switching and buffers). Variants of one rule share its table. */
struct netmodel_ops {
  const char *name;
  const char *summary;
  const netmodel_impl *impl;
  int variant;
};

struct netmodel {
  const struct netmodel_ops *ops;
  const platform *p;
  engine *eng;
  uint32_t done_kind;              /* engine kind of completions (owner's handler) */
  uint32_t own_kind;               /* engine kind of the model's own events */
  int nlinks;
  int64_t *link_bytes[NETMODEL_NCLASSES];    /* nlinks each */
  int64_t *link_messages[NETMODEL_NCLASSES]; /* nlinks each */
  int64_t *link_busy_ps;           /* nlinks: time the link transmitted */
  netmodel_totals tot[NETMODEL_NCLASSES];
  gboolean overflow;               /* a counter saturated (netmodel_add) */
  /* links that switch off when idle; NULL when no link type does */
  int64_t *link_idle_since;        /* nlinks: end of its last traffic, ps */
  int32_t *link_inflight;          /* nlinks: messages on it now */
  int64_t *link_off_ps;            /* nlinks: time off before its last wake-up */
  int64_t *link_wakeups;           /* nlinks */
  int64_t *type_timeout_ps;        /* per link type: idle time before off, < 0: never */
  int64_t *type_wake_ps;           /* per link type: wake-up latency */
  linkrec *rec;                    /* the owner's recorder of link activity, or NULL */
  /* adaptive routings: route_key -> netmodel_taken (NULL otherwise)
   * and the candidates per message */
  GHashTable *taken;
  int ncand;
};

/* The registry (models/registry.c), NULL-terminated. */
extern const struct netmodel_ops *const netmodel_registry[];

/* Registry lookup by name; NULL when unknown. */
const struct netmodel_ops *netmodel_find(const char *name);
/* "analytic, flow, ..." for help texts; caller frees. */
char *netmodel_names(void);

/* Creates a model on `p` that reports completions as events of `done_kind`
 * in `e`. NULL + error when the model's init fails. */
netmodel *netmodel_new(const struct netmodel_ops *ops, const platform *p, engine *e,
                       uint32_t done_kind, GError **error);
void netmodel_free(netmodel *m);

/* Starts a message (see the header paragraph). Same-node messages are
 * delivered at msg->t without touching a link. */
void netmodel_start(netmodel *m, const netmodel_msg *msg);

/* For models: *sum += v for a counter (bytes, busy time); saturates at
 * INT64_MAX (the value saturated terms bring too) and sets m->overflow,
 * which the owner reports. */
static inline void netmodel_add(netmodel *m, int64_t *sum, int64_t v)
{
  if (G_UNLIKELY(!checked_add_i64(*sum, v, sum) || *sum == INT64_MAX)) {
    *sum = INT64_MAX;
    m->overflow = TRUE;
  }
}

/* For models: counts one link of msg's route. */
static inline void netmodel_count_link(netmodel *m, const netmodel_msg *msg, int link)
{
  netmodel_add(m, &m->link_bytes[msg->cls][link], msg->bytes);
  m->link_messages[msg->cls][link]++;
}

/* For models: link `link` carried `bytes` wire bytes from t0 to t1 (ps),
 * recorded when a recorder is attached (see the header). */
static inline void netmodel_link_use(netmodel *m, int link, int64_t t0, int64_t t1, double bytes)
{
  if (G_UNLIKELY(m->rec != NULL) && bytes > 0)
    linkrec_add(m->rec, link, t0, t1, bytes);
}

/* The same for every link of msg's route (models that keep no link ids):
 * candidate `path` of an adaptive routing (route_begin_candidate), else
 * 0, route_begin's. */
static inline void netmodel_route_use(netmodel *m, const netmodel_msg *msg, int path, int64_t t0,
                                      int64_t t1, double bytes)
{
  if (G_UNLIKELY(m->rec != NULL) && bytes > 0)
    linkrec_add_route(m->rec, m->p->router, msg->src, msg->dst, msg->route_key, path, t0, t1,
                      bytes);
}

/* Time link `link` was switched off from the start up to `end` (ps): the
 * stretches before its wake-ups and, when it is idle at `end`, the one
 * since its timeout passed. 0 when its type never switches off. */
int64_t netmodel_link_off_ps(const netmodel *m, int link, int64_t end);

/* For models walking routes themselves: adds msg's hop totals once. */
void netmodel_count_hops(netmodel *m, const netmodel_msg *msg, int hops);

/* For models that route the parts of a message apart (packets of an
 * adaptive routing): `bytes` of msg's payload crossed a route of `hops`
 * links; `first`: msg's first part (its hops count once per message). */
void netmodel_count_part_hops(netmodel *m, const netmodel_msg *msg, int64_t bytes, int hops,
                              gboolean first);

/* The record of msg's rank pair (adaptive routings; created on first use,
 * so a model looks it up once per message). */
netmodel_taken *netmodel_route_entry(netmodel *m, const netmodel_msg *msg);

/* Records that candidate c carried `bytes` of msg's payload. */
static inline void netmodel_record_route(netmodel *m, netmodel_taken *u,
                                         const netmodel_msg *msg, int c, int64_t bytes)
{
  if (msg->cls != NETMODEL_CTRL)
    netmodel_add(m, &u->bytes[2 * c + (msg->cls == NETMODEL_COLL)], bytes);
}

/* Hands the record over (NULL for routings that are not adaptive): a
 * table the caller frees with g_hash_table_destroy. */
GHashTable *netmodel_take_routes(netmodel *m);

/* Packets a message of `bytes` (envelope included: the caller adds it)
 * is cut into: ceil(bytes / packet_size), at least 1 (a 0-byte control
 * message still sends one header). Never overflows. */
int64_t netmodel_packets(const platform *p, int64_t bytes);

/* Bytes on the wire: payload + envelope (one per message) + packet_header
 * per packet, packets = netmodel_packets(bytes + envelope). Saturates at
 * INT64_MAX. */
int64_t netmodel_wire_bytes(const platform *p, int64_t bytes);

/* For models: reports msg's arrival at time `t` (>= msg->t) through the
 * engine and adds (t - msg->t) to the class's transfer time. */
void netmodel_deliver(netmodel *m, const netmodel_msg *msg, int64_t t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(netmodel, netmodel_free)

G_END_DECLS
