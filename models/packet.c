/* packet.c - packet-level network model: FIFO output queues per link.
 *
 * A message of `bytes` (plus the platform's per-message envelope) is cut
 * into k = ceil((bytes + envelope) / packet_size) packets (at least one),
 * each carrying packet_header extra bytes on the wire. Each
 * directed link is an output port served at the link's bandwidth, with two
 * queues: transit packets (arrived from other links), FIFO, and the local
 * injection queue, where the messages in it take turns packet by packet
 * (a NIC with one DMA stream per message, round robin); transit and
 * injection alternate packet by packet when both hold packets (round-robin
 * arbitration). So a long local message holds neither the other local
 * messages nor transit traffic (rendezvous control packets included) for
 * its whole length; bench/README.md shows what whole-message FIFO
 * injection did to the makespans. A packet that leaves a link reaches
 * the next router after the link latency plus the router delay
 * (L = ps(latency + router_delay), per hop, as in analytic.c). One queue
 * record per message stands for its packets not yet sent, so memory is
 * O(messages + packets in the network), not O(total packets). This is the
 * reference for the flow and analytic models: the packet-switched,
 * contention-aware network of bhatele2010 Chapter 4 (link contention
 * benchmarks) and the congestion of deveci2015 Section II, the detail
 * korndoerfer2021 Section 5.3 lists as missing from HAEC-SIM's
 * contention-oblivious model.
 *
 * Switching (rows sharing one ops table, `packet`; registry rows in
 * models/registry.c):
 *  - `packet`: store-and-forward: a packet is queued at the next router
 *    when its tail arrives. One message of k equal packets of wire size w
 *    over h equal links, alone: T = (k + h - 1) * P + h * L, P = ps(w/bw).
 *  - `packet-vct`: virtual cut-through: the packet is queued at the next
 *    router when its head arrives, H = ps(header/bw) after it started plus
 *    L; it may not finish on the next link before its tail has arrived
 *    there. Alone: T = k * P + (h - 1) * H + h * L.
 *  - `packet-buf`: store-and-forward with finite transit buffers of
 *    PACKET_BUFFER packets per link and credit back-pressure: a packet
 *    starts on a link only once a slot of the next link's transit queue is
 *    reserved; the slot frees when it has left that queue. Bubble flow
 *    control keeps dimension-order routing deadlock-free on torus rings
 *    without virtual channels: entering a ring (injection, or a turn into
 *    another dimension) needs 2 free slots, going on along it 1. On
 *    indirect networks a link has one transit queue and buffer per
 *    virtual channel of the routing's hop classes (routing/route.h,
 *    route_vc_classes: a dragonfly's packet moves to the next of 3
 *    channels with each global link, Kim et al., ISCA 2008, Section
 *    4.3; a HyperX packet routed min-adaptive with each switch hop),
 *    the queues of a link served round robin with its injection queue,
 *    so minimal, Valiant and UGAL routes cannot deadlock; fat trees
 *    (up, then down) and HyperX `dor` (dimension order) need one. Injection
 *    queues and destinations are unbounded. Undelivered messages (none
 *    expected) show in the statistic `undelivered_messages`.
 * Default buffers (packet, packet-vct): infinite.
 *
 * Per-link counters: link_busy_ps = time transmitting (sum of packet
 * times). Statistics: maximum and time-averaged queue length (packets at
 * the link, waiting or in transmission), and the time each link was
 * saturated = transmitting with at least one more packet waiting.
 *
 * Adaptive routings (routing/route.h): every packet takes its own path,
 * decided when it is the next of its message to leave the source (the
 * NIC's round robin): per-packet Valiant (ROUTE_FLAG_SPREAD) draws it,
 * route_spread_pick of the seed, the message's number in its rank pair
 * and the packet's index (BookSim's per-packet intermediate group), UGAL
 * by the packets waiting at the links the source sees
 * (models/adaptive.c; the one a link transmits does not count, so a lone
 * message's own stream stays minimal). A message keeps the links of all
 * its candidates, a packet the index of its own; each packet counts its
 * share of the payload (full packets first) on its path's links, the
 * message once on every link one of its packets crossed, and the record
 * of routes taken gets it.
 *
 * Cost: two engine events per packet and hop (arrival, end of
 * transmission) plus one per message; O(log events) each; flat pools that
 * grow geometrically, nothing allocated per event in steady state. Not for:
 * MPI semantics (sim/replay.c), the rule of an adaptive decision
 * (adaptive.c).
 */
#include <math.h>
#include <string.h>

#include "models/adaptive-private.h"

#define PACKET_BUFFER 8

enum { PKT_EV_INJECT = 0, PKT_EV_ARRIVE = 1, PKT_EV_TXEND = 2 };
/* Queues of a link: transit queues 0 .. nvc-1 (one per virtual channel),
 * then the injection queue nvc. */
enum { Q_TRANSIT = 0 };

typedef struct pktmodel {
  netmodel base;
  gboolean cut_through;
  int buffer;            /* packets per router queue, 0 = infinite */
  int64_t full_wire;     /* wire bytes of a full packet: packet_size + header */
  /* per link */
  int64_t *lat_ps;       /* link latency + router delay */
  /* nq = nvc + 1 FIFOs per link, index nq l + q (transit queues of the
   * virtual channels, then the injection queue): packet records, -1 =
   * empty; served round robin when several hold packets */
  int nvc, nq;
  int *qhead, *qtail;
  uint8_t *busy, *last_q;
  int *cur_hop;          /* hop index of the packet being transmitted */
  uint8_t *cur_vc;       /* and its channel */
  int *space;            /* per (link, channel): free transit buffer slots (finite buffers) */
  int *wait_head, *wait_tail; /* per (link, channel): queues waiting for a slot there */
  int *wait_next;        /* per queue (2 l + q) */
  uint8_t *waiting;      /* per queue */
  int64_t *qlen, *qmax, *qlast, *sat_ps;
  double *qarea;         /* integral of qlen, packet x ps */
  /* messages: pool of mcap slots, ncand candidate routes of `stride`
   * links each (one route unless the routing is adaptive) */
  int mcap, stride, ncand, nmfree, undelivered;
  int *mfree, *mhops, *mroute; /* mhops, per (message, candidate): route length */
  uint8_t *mvc;          /* per route slot: the channel the packet waits in at that hop */
  int *mnext;            /* adaptive: the candidate of the message's next packet, -1: not decided */
  uint64_t *mused;       /* adaptive: the candidates its packets took so far (bits) */
  int64_t *mnum;         /* spread routings: the message's number in its rank pair */
  netmodel_taken **muse; /* adaptive: the record of its rank pair */
  netmodel_msg *mmsg;
  int64_t *npk, *left_send, *left_recv;
  int64_t *last_wire;    /* wire bytes of the message's last (or only) packet */
  /* packets */
  int pcap, npfree;
  int *pfree, *pmsg, *phop, *pnext;
  uint8_t *pcand;        /* the candidate route the packet takes */
  int64_t *pwire, *ptail;
  int *route, route_cap;
  int *cand_links, cand_hops[ROUTE_MAX_CANDIDATES]; /* adaptive: adaptive_walk's */
  uint64_t packets;
} pktmodel;

/* ---- setup ---------------------------------------------------------- */

static gboolean packet_setup(netmodel *m, gboolean vct, int buffer)
{
  pktmodel *pm = (pktmodel *)m;
  size_t n = (size_t)MAX(m->nlinks, 1);
  pm->cut_through = vct;
  pm->buffer = buffer;
  pm->full_wire = saturating_add_i64(MAX(m->p->model.packet_size, 1), m->p->model.packet_header);
  pm->lat_ps = g_new(int64_t, n);
  for (int l = 0; l < m->nlinks; l++)
    pm->lat_ps[l] = engine_ps(m->p->link_lat[l] + m->p->model.router_delay);
  pm->nvc = route_vc_classes(m->p->router);
  pm->ncand = m->taken ? m->ncand : 1;
  pm->nq = pm->nvc + 1;
  size_t nv = n * (size_t)pm->nvc, nq = n * (size_t)pm->nq;
  pm->qhead = g_new(int, nq);
  pm->qtail = g_new(int, nq);
  pm->wait_head = g_new(int, nv);
  pm->wait_tail = g_new(int, nv);
  pm->space = g_new(int, nv);
  for (size_t c = 0; c < nv; c++) {
    pm->wait_head[c] = pm->wait_tail[c] = -1;
    pm->space[c] = buffer;
  }
  for (size_t q = 0; q < nq; q++)
    pm->qhead[q] = pm->qtail[q] = -1;
  pm->wait_next = g_new0(int, nq);
  pm->waiting = g_new0(uint8_t, nq);
  pm->busy = g_new0(uint8_t, n);
  pm->last_q = g_new0(uint8_t, n);
  pm->cur_hop = g_new0(int, n);
  pm->cur_vc = g_new0(uint8_t, n);
  pm->qlen = g_new0(int64_t, n);
  pm->qmax = g_new0(int64_t, n);
  pm->qlast = g_new0(int64_t, n);
  pm->sat_ps = g_new0(int64_t, n);
  pm->qarea = g_new0(double, n);
  pm->stride = m->taken ? ADAPTIVE_STRIDE : 8; /* routes of indirect networks fit */
  pm->route_cap = 64;
  pm->route = g_new(int, pm->route_cap);
  if (m->taken)
    pm->cand_links = g_new(int, (size_t)pm->ncand * ADAPTIVE_STRIDE);
  return TRUE;
}

/* The variants (netmodel_ops.variant). */
enum { PACKET_SAF, PACKET_VCT, PACKET_BUF };

static gboolean packet_init(netmodel *m, GError **error)
{
  int v = m->ops->variant;
  return packet_setup(m, v == PACKET_VCT, v == PACKET_BUF ? PACKET_BUFFER : 0);
}

static void packet_fini(netmodel *m)
{
  pktmodel *pm = (pktmodel *)m;
  void *arrays[] = { pm->lat_ps, pm->qhead, pm->qtail, pm->busy, pm->last_q, pm->waiting, pm->cur_hop,
                     pm->cur_vc, pm->space, pm->wait_head, pm->wait_tail, pm->wait_next, pm->qlen,
                     pm->qmax, pm->qlast, pm->sat_ps, pm->qarea, pm->mfree, pm->mhops,
                     pm->mroute, pm->mvc, pm->mmsg, pm->npk, pm->left_send, pm->left_recv, pm->last_wire, pm->pfree,
                     pm->pmsg, pm->phop, pm->pnext, pm->pwire, pm->ptail, pm->route,
                     pm->pcand, pm->mnext, pm->mused, pm->mnum, pm->muse, pm->cand_links };
  for (size_t i = 0; i < G_N_ELEMENTS(arrays); i++)
    g_free(arrays[i]);
}

/* ---- pools ---------------------------------------------------------- */

static void msg_grow(pktmodel *pm)
{
  int old = pm->mcap, cap = old ? 2 * old : 256;
  size_t n = (size_t)cap, nr = n * (size_t)pm->ncand;
  pm->mfree = g_renew(int, pm->mfree, n);
  pm->mhops = g_renew(int, pm->mhops, nr);
  pm->mroute = g_renew(int, pm->mroute, nr * (size_t)pm->stride);
  pm->mvc = g_renew(uint8_t, pm->mvc, nr * (size_t)pm->stride);
  pm->mnext = g_renew(int, pm->mnext, n);
  pm->mused = g_renew(uint64_t, pm->mused, n);
  pm->mnum = g_renew(int64_t, pm->mnum, n);
  pm->muse = g_renew(netmodel_taken *, pm->muse, n);
  pm->mmsg = g_renew(netmodel_msg, pm->mmsg, n);
  pm->npk = g_renew(int64_t, pm->npk, n);
  pm->left_send = g_renew(int64_t, pm->left_send, n);
  pm->left_recv = g_renew(int64_t, pm->left_recv, n);
  pm->last_wire = g_renew(int64_t, pm->last_wire, n);
  for (int i = old; i < cap; i++)
    pm->mfree[pm->nmfree++] = cap - 1 - (i - old);
  pm->mcap = cap;
}

/* Widens every message's route slots to at least `hops` (long routes;
 * never with adaptive routings, whose routes fit ADAPTIVE_STRIDE). */
static void msg_widen(pktmodel *pm, int hops)
{
  int s = pm->stride;
  while (s < hops)
    s *= 2;
  int *r = g_new(int, (size_t)pm->mcap * s);
  uint8_t *v = g_new(uint8_t, (size_t)pm->mcap * s);
  for (int i = 0; i < pm->mcap; i++) {
    memcpy(r + (size_t)i * s, pm->mroute + (size_t)i * pm->stride, sizeof(int) * pm->stride);
    memcpy(v + (size_t)i * s, pm->mvc + (size_t)i * pm->stride, (size_t)pm->stride);
  }
  g_free(pm->mroute);
  g_free(pm->mvc);
  pm->mroute = r;
  pm->mvc = v;
  pm->stride = s;
}

static int pkt_alloc(pktmodel *pm, int msg, int hop)
{
  if (pm->npfree == 0) {
    int old = pm->pcap, cap = old ? 2 * old : 1024;
    size_t n = (size_t)cap;
    pm->pfree = g_renew(int, pm->pfree, n);
    pm->pmsg = g_renew(int, pm->pmsg, n);
    pm->phop = g_renew(int, pm->phop, n);
    pm->pnext = g_renew(int, pm->pnext, n);
    pm->pwire = g_renew(int64_t, pm->pwire, n);
    pm->ptail = g_renew(int64_t, pm->ptail, n);
    for (int i = old; i < cap; i++)
      pm->pfree[pm->npfree++] = cap - 1 - (i - old);
    pm->pcand = g_renew(uint8_t, pm->pcand, n);
    pm->pcap = cap;
  }
  int p = pm->pfree[--pm->npfree];
  pm->pcand[p] = 0;
  pm->pmsg[p] = msg;
  pm->phop[p] = hop;
  pm->pnext[p] = -1;
  pm->ptail[p] = 0;
  return p;
}

/* Candidate route c of message msg: its slot among the routes. */
static inline size_t route_slot(const pktmodel *pm, int msg, int c)
{
  return (size_t)msg * pm->ncand + c;
}

static inline const int *route_links(const pktmodel *pm, int msg, int c)
{
  return pm->mroute + route_slot(pm, msg, c) * pm->stride;
}

static inline int route_hops_of(const pktmodel *pm, int msg, int c)
{
  return pm->mhops[route_slot(pm, msg, c)];
}

static inline int route_link(const pktmodel *pm, int msg, int c, int hop)
{
  return route_links(pm, msg, c)[hop];
}

/* The virtual channel of hop `hop` of candidate c of `msg` (0 with one
 * channel). */
static inline int route_vc(const pktmodel *pm, int msg, int c, int hop)
{
  return pm->mvc[route_slot(pm, msg, c) * pm->stride + hop];
}

/* ---- queues and statistics ------------------------------------------ */

/* Accumulates link l's queue length and saturation up to `now`. */
static inline void q_touch(pktmodel *pm, int l, int64_t now)
{
  int64_t dt = now - pm->qlast[l];
  pm->qarea[l] += (double)pm->qlen[l] * (double)dt;
  if (pm->qlen[l] >= 2)
    pm->sat_ps[l] += dt;
  pm->qlast[l] = now;
}

/* Appends record p, standing for `packets` packets, to queue q of link l. */
static void q_add(pktmodel *pm, int l, int q, int p, int64_t packets, int64_t now)
{
  int i = pm->nq * l + q;
  q_touch(pm, l, now);
  pm->qlen[l] += packets;
  if (pm->qlen[l] > pm->qmax[l])
    pm->qmax[l] = pm->qlen[l];
  pm->pnext[p] = -1;
  if (pm->qtail[i] < 0)
    pm->qhead[i] = p;
  else
    pm->pnext[pm->qtail[i]] = p;
  pm->qtail[i] = p;
}

/* Moves the head record of queue i to its tail (round robin). */
static void q_rotate(pktmodel *pm, int i)
{
  int p = pm->qhead[i];
  if (p == pm->qtail[i])
    return;
  pm->qhead[i] = pm->pnext[p];
  pm->pnext[p] = -1;
  pm->pnext[pm->qtail[i]] = p;
  pm->qtail[i] = p;
}

static void q_pop(pktmodel *pm, int i)
{
  int p = pm->qhead[i];
  pm->qhead[i] = pm->pnext[p];
  if (pm->qhead[i] < 0)
    pm->qtail[i] = -1;
}

/* Wire bytes of the next packet message `msg` sends (and counts it sent):
 * full packets, then the remainder (packet_start sized both). */
static inline int64_t take_packet(pktmodel *pm, int msg)
{
  return pm->left_send[msg]-- > 1 ? pm->full_wire : pm->last_wire[msg];
}

/* ---- switching ------------------------------------------------------ */

/* Puts packet p (at hop index `hop` of its route) on link l now. */
static void transmit(pktmodel *pm, int l, int p, int hop, int64_t now)
{
  netmodel *m = &pm->base;
  int msg = pm->pmsg[p];
  int64_t end = saturating_add_i64(now, engine_ps((double)pm->pwire[p] / m->p->link_bw[l]));
  if (pm->cut_through && hop > 0)
    end = MAX(end, pm->ptail[p]);
  pm->busy[l] = 1;
  pm->cur_hop[l] = hop;
  pm->cur_vc[l] = (uint8_t)route_vc(pm, msg, pm->pcand[p], hop);
  netmodel_add(m, &m->link_busy_ps[l], end - now);
  netmodel_link_use(m, l, now, end, (double)pm->pwire[p]);
  engine_schedule(m->eng, end, m->own_kind, (uint32_t)l, PKT_EV_TXEND);
  int64_t tail = saturating_add_i64(end, pm->lat_ps[l]), head = tail;
  if (pm->cut_through && hop + 1 < route_hops_of(pm, msg, pm->pcand[p]))
    head = saturating_add_i64(
        saturating_add_i64(now, engine_ps((double)m->p->model.packet_header / m->p->link_bw[l])),
        pm->lat_ps[l]);
  pm->ptail[p] = tail;
  pm->phop[p] = hop + 1;
  engine_schedule(m->eng, head, m->own_kind, (uint32_t)p, PKT_EV_ARRIVE);
  pm->packets++;
}

/* Reserves transit slots in the queue after hop `hop` of `msg`, if buffers
 * are finite. Direct networks: bubble flow control (Puente et al.), 2
 * slots for a packet entering a ring (injected, or turning to another
 * dimension), 1 for one going on along its ring, so every ring keeps a
 * free slot and dimension-order routing cannot deadlock. Indirect
 * networks: 1 slot in the packet's channel there (the channels break the
 * cycles). FALSE (queue i of link l then waits there) when the slots are
 * not free. */
static gboolean reserve_next(pktmodel *pm, int l, int i, int msg, int cand, int hop)
{
  if (pm->buffer == 0 || hop + 1 >= route_hops_of(pm, msg, cand))
    return TRUE;
  const topo *t = pm->base.p->topo;
  int l2 = route_link(pm, msg, cand, hop + 1);
  int c = pm->nvc * l2 + route_vc(pm, msg, cand, hop + 1);
  int need = !t->nswitches && (hop == 0 || t->link_dim[l2] != t->link_dim[l]) ? 2 : 1;
  if (pm->space[c] >= need) {
    pm->space[c]--;
    return TRUE;
  }
  if (!pm->waiting[i]) {
    pm->waiting[i] = 1;
    pm->wait_next[i] = -1;
    if (pm->wait_tail[c] < 0)
      pm->wait_head[c] = i;
    else
      pm->wait_next[pm->wait_tail[c]] = i;
    pm->wait_tail[c] = i;
  }
  return FALSE;
}

/* Packets waiting at a link, the one it transmits left out: a lone
 * message's own stream keeps one packet on each link it crosses, which is
 * no congestion. */
static double queue_load(const netmodel *m, int link)
{
  const pktmodel *pm = (const pktmodel *)m;
  return (double)(pm->qlen[link] - pm->busy[link]);
}

/* The candidate route of msg's next packet: decided once, when it is the
 * next to leave the source, by the queues seen there then. */
static int packet_decide(pktmodel *pm, int msg)
{
  if (pm->ncand == 1)
    return 0;
  const router *r = pm->base.p->router;
  if (pm->mnext[msg] < 0 && (r->flags & ROUTE_FLAG_SPREAD))
    pm->mnext[msg] = (int)route_spread_pick(r, pm->mmsg[msg].route_key, pm->mnum[msg],
                                            pm->npk[msg] - pm->left_send[msg], pm->ncand);
  else if (pm->mnext[msg] < 0)
    pm->mnext[msg] = adaptive_choose(&pm->base, route_links(pm, msg, 0),
                                     &pm->mhops[route_slot(pm, msg, 0)], queue_load);
  return pm->mnext[msg];
}

/* Is link l on a route msg's packets took already? */
static gboolean on_used_route(const pktmodel *pm, int msg, int l)
{
  for (int c = 0; c < pm->ncand; c++)
    for (int k = 0; (pm->mused[msg] >> c & 1u) && k < route_hops_of(pm, msg, c); k++)
      if (route_link(pm, msg, c, k) == l)
        return TRUE;
  return FALSE;
}

/* Counts packet j of msg, sent on candidate c (adaptive routings): its
 * share of the payload (full packets first) on c's links, the message
 * once on every link one of its packets crossed, and the record. */
static void count_packet(pktmodel *pm, int msg, int c, int64_t j)
{
  netmodel *m = &pm->base;
  const netmodel_msg *mm = &pm->mmsg[msg];
  int64_t ps = MAX(m->p->model.packet_size, 1), done = saturating_mul_i64(j, ps);
  int64_t part = done >= mm->bytes ? 0 : MIN(ps, mm->bytes - done);
  int h = route_hops_of(pm, msg, c);
  gboolean new_route = !(pm->mused[msg] >> c & 1u);
  for (int k = 0; k < h; k++) {
    int l = route_link(pm, msg, c, k);
    netmodel_add(m, &m->link_bytes[mm->cls][l], part);
    if (new_route && !on_used_route(pm, msg, l))
      m->link_messages[mm->cls][l]++;
  }
  netmodel_count_part_hops(m, mm, part, h, pm->mused[msg] == 0);
  pm->mused[msg] |= (uint64_t)1 << c;
  netmodel_record_route(m, pm->muse[msg], mm, c, part);
}

/* Tries to start the head of queue q of idle link l. */
static gboolean start_queue(pktmodel *pm, int l, int q, int64_t now)
{
  int i = pm->nq * l + q, p = pm->qhead[i];
  if (p < 0)
    return FALSE;
  int msg = pm->pmsg[p], hop = pm->phop[p];
  int c = q == pm->nvc ? packet_decide(pm, msg) : pm->pcand[p];
  if (!reserve_next(pm, l, i, msg, c, hop))
    return FALSE;
  if (q == pm->nvc) { /* injection */
    int64_t j = pm->npk[msg] - pm->left_send[msg];
    if (pm->left_send[msg] > 1) {
      p = pkt_alloc(pm, msg, 0); /* the message's record stays queued, */
      q_rotate(pm, i);           /* behind the other local messages */
    } else {
      q_pop(pm, i);
    }
    pm->pwire[p] = take_packet(pm, msg);
    pm->pcand[p] = (uint8_t)c;
    if (pm->ncand > 1) {
      count_packet(pm, msg, c, j);
      pm->mnext[msg] = -1;
    }
  } else {
    q_pop(pm, i);
  }
  pm->last_q[l] = (uint8_t)q;
  transmit(pm, l, p, hop, now);
  return TRUE;
}

/* Starts a packet on l if l is idle: its queues (transit channels,
 * injection) take turns when several hold packets (round robin, one
 * packet each, starting after the one served last). */
static void try_start(pktmodel *pm, int l, int64_t now)
{
  if (pm->busy[l])
    return;
  for (int k = 1; k <= pm->nq; k++)
    if (start_queue(pm, l, (pm->last_q[l] + k) % pm->nq, now))
      return;
}

/* Gives freed slots of channel c (= nvc l + channel) to the queues
 * waiting for them, in the order they started waiting. */
static void wake_waiters(pktmodel *pm, int c, int64_t now)
{
  /* detach the list: a queue still short of slots queues up again */
  int w = pm->wait_head[c];
  pm->wait_head[c] = pm->wait_tail[c] = -1;
  while (w >= 0) {
    int next = pm->wait_next[w];
    pm->waiting[w] = 0;
    try_start(pm, w / pm->nq, now);
    w = next;
  }
}

static void on_txend(pktmodel *pm, int l, int64_t now)
{
  pm->busy[l] = 0;
  q_touch(pm, l, now);
  pm->qlen[l]--;
  if (pm->buffer > 0 && pm->cur_hop[l] > 0) {
    int c = pm->nvc * l + pm->cur_vc[l];
    pm->space[c]++;
    wake_waiters(pm, c, now);
  }
  try_start(pm, l, now);
}

static void on_arrive(pktmodel *pm, int p, int64_t now)
{
  int msg = pm->pmsg[p], hop = pm->phop[p], c = pm->pcand[p];
  if (hop < route_hops_of(pm, msg, c)) {
    int l = route_link(pm, msg, c, hop);
    q_add(pm, l, Q_TRANSIT + route_vc(pm, msg, c, hop), p, 1, now);
    try_start(pm, l, now);
    return;
  }
  pm->pfree[pm->npfree++] = p;
  if (--pm->left_recv[msg] == 0) {
    netmodel_deliver(&pm->base, &pm->mmsg[msg], now);
    pm->mfree[pm->nmfree++] = msg;
    pm->undelivered--;
  }
}

static void on_inject(pktmodel *pm, int msg, int64_t now)
{
  int l = route_link(pm, msg, 0, 0); /* the injection link: every candidate's */
  int p = pkt_alloc(pm, msg, 0);
  q_add(pm, l, pm->nvc, p, pm->npk[msg], now);
  try_start(pm, l, now);
}

/* ---- the model hooks ------------------------------------------------ */

/* Walks msg's route into pm->route and counts it (routings that are not
 * adaptive); returns its length. */
static int walk_route(pktmodel *pm, const netmodel_msg *msg)
{
  netmodel *m = &pm->base;
  route_iter it;
  int link, h = 0;
  route_begin(&it, m->p->router, msg->src, msg->dst, msg->route_key);
  while (route_next(&it, &link)) {
    netmodel_count_link(m, msg, link);
    if (h == pm->route_cap) {
      pm->route_cap *= 2;
      pm->route = g_renew(int, pm->route, pm->route_cap);
    }
    pm->route[h++] = link;
  }
  netmodel_count_hops(m, msg, h);
  return h;
}

/* Stores candidate c's links (and the channel of each hop) in msg id's
 * route slot. */
static void store_route(pktmodel *pm, int id, int c, const int *links, int h)
{
  const router *r = pm->base.p->router;
  size_t s = route_slot(pm, id, c);
  pm->mhops[s] = h;
  memcpy(pm->mroute + s * pm->stride, links, sizeof(int) * (size_t)h);
  uint8_t *vc = pm->mvc + s * pm->stride;
  vc[0] = 0;
  for (int k = 1; k < h; k++)
    vc[k] = (uint8_t)(vc[k - 1] + route_vc_step(r, links[k - 1]));
}

static void packet_start(netmodel *m, const netmodel_msg *msg)
{
  pktmodel *pm = (pktmodel *)m;
  int h = 0;
  if (pm->ncand > 1) {
    adaptive_walk(m, msg, pm->cand_links, pm->cand_hops);
  } else {
    h = walk_route(pm, msg);
    /* an adaptive routing with one candidate (min-adaptive on a 1-D
     * HyperX) decides nothing, but its record of routes taken must still
     * hold the message, as the check of routes taken compares it */
    if (m->taken)
      netmodel_record_route(m, netmodel_route_entry(m, msg), msg, 0, msg->bytes);
  }
  if (pm->ncand == 1 && h == 0) {
    netmodel_deliver(m, msg, msg->t);
    return;
  }
  if (pm->nmfree == 0)
    msg_grow(pm);
  if (h > pm->stride)
    msg_widen(pm, h);
  int id = pm->mfree[--pm->nmfree];
  pm->mmsg[id] = *msg;
  if (pm->ncand > 1) {
    for (int c = 0; c < pm->ncand; c++)
      store_route(pm, id, c, pm->cand_links + c * ADAPTIVE_STRIDE, pm->cand_hops[c]);
    pm->mnext[id] = -1;
    pm->mused[id] = 0;
    pm->muse[id] = netmodel_route_entry(m, msg);
    pm->mnum[id] = pm->muse[id]->messages++;
  } else {
    store_route(pm, id, 0, pm->route, h);
  }
  int64_t bytes = saturating_add_i64(msg->bytes, m->p->model.envelope);
  int64_t npk = netmodel_packets(m->p, bytes);
  /* (npk - 1) full packets hold less than `bytes`: no overflow */
  int64_t last = bytes - (npk - 1) * MAX(m->p->model.packet_size, 1);
  pm->npk[id] = npk;
  pm->last_wire[id] = saturating_add_i64(MAX(last, 0), m->p->model.packet_header);
  pm->left_send[id] = pm->left_recv[id] = pm->npk[id];
  pm->undelivered++;
  if (msg->t == m->eng->now)
    on_inject(pm, id, msg->t);
  else
    engine_schedule(m->eng, msg->t, m->own_kind, (uint32_t)id, PKT_EV_INJECT);
}

static void packet_handle(netmodel *m, const engine_event *ev)
{
  pktmodel *pm = (pktmodel *)m;
  switch (ev->b) {
  case PKT_EV_INJECT:
    on_inject(pm, (int)ev->a, ev->time);
    break;
  case PKT_EV_ARRIVE:
    on_arrive(pm, (int)ev->a, ev->time);
    break;
  default:
    on_txend(pm, (int)ev->a, ev->time);
    break;
  }
}

static void packet_link_stat(const netmodel *m, int link, netmodel_link_stat *out)
{
  const pktmodel *pm = (const pktmodel *)m;
  out->max_load = (double)pm->qmax[link];
  out->avg_load = pm->qarea[link] / (double)MAX(m->eng->now, 1);
  out->saturated_ps = pm->sat_ps[link];
}

static int packet_stats(const netmodel *m, netmodel_stat *out, int max)
{
  const pktmodel *pm = (const pktmodel *)m;
  double horizon = (double)MAX(m->eng->now, 1);
  int64_t qmax = 0;
  int used = 0, satn = 0;
  double avg_max = 0, avg_sum = 0, sat_max = 0, sat_sum = 0;
  for (int l = 0; l < m->nlinks; l++) {
    qmax = MAX(qmax, pm->qmax[l]);
    if (pm->qmax[l] > 0) {
      used++;
      avg_sum += pm->qarea[l] / horizon;
    }
    avg_max = MAX(avg_max, pm->qarea[l] / horizon);
    sat_max = MAX(sat_max, (double)pm->sat_ps[l]);
    sat_sum += (double)pm->sat_ps[l];
    satn += pm->sat_ps[l] > 0;
  }
  netmodel_stat s[] = {
    { "queue_max_packets", (double)qmax },
    { "queue_avg_max_link", avg_max },
    { "queue_avg_per_used_link", used ? avg_sum / used : 0 },
    { "saturated_ps_max", sat_max },
    { "saturated_ps_sum", sat_sum },
    { "saturated_links", satn },
    { "packet_hops", (double)pm->packets },
    { "undelivered_messages", pm->undelivered },
  };
  int n = MIN(max, (int)G_N_ELEMENTS(s));
  memcpy(out, s, sizeof(netmodel_stat) * (size_t)MAX(n, 0));
  return n;
}

static const netmodel_impl packet = {
  .caps = NETMODEL_CAP_ADAPTIVE,
  .size = sizeof(pktmodel),
  .init = packet_init,
  .fini = packet_fini,
  .start = packet_start,
  .handle = packet_handle,
  .stats = packet_stats,
  .link_stat = packet_link_stat,
  .load_unit = "packets",
};

const struct netmodel_ops netmodel_packet_ops = {
  "packet", "packets in FIFO link queues, store-and-forward, infinite buffers", &packet,
  PACKET_SAF,
};

const struct netmodel_ops netmodel_packet_vct_ops = {
  "packet-vct", "packets in FIFO link queues, virtual cut-through, infinite buffers", &packet,
  PACKET_VCT,
};

const struct netmodel_ops netmodel_packet_buf_ops = {
  "packet-buf", "store-and-forward packets, 8-packet router buffers with back-pressure", &packet,
  PACKET_BUF,
};
