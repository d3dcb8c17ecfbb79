/* flow-private.h - the state of the flow models (flow.c) and the heaps
 * their water-filling and completions run on (flow-heap.c). Not
 * installed, not for other files than those two.
 */
#pragma once

#include "models/model.h"

enum { FLOW_EV_ACTIVATE = 0, FLOW_EV_FINISH = 1, FLOW_EV_RERATE = 2 };

/* One active flow on a capacity: the flow and which of its hops this is. */
typedef struct fentry {
  int flow, hop;
} fentry;

typedef struct flist {
  fentry *e;
  int n, cap;
} flist;

/* A heap entry: a capacity keyed by (a lower bound of) its fair share
 * (lheap), or a flow keyed by its trigger level (theap). */
typedef struct fheap_item {
  double key;
  int id;
} fheap_item;

/* A flow's completion: time, then the order its rate changed. */
typedef struct centry {
  int64_t t;
  uint64_t seq;
  int flow;
} centry;

typedef struct flowmodel {
  netmodel base;
  gboolean half_duplex;
  /* capacities ("resources"): directed links, or cables when half duplex */
  int nres;
  int *link_res;       /* nlinks */
  double *res_bw;      /* nres */
  flist *rl;           /* nres: active flows per capacity */
  /* flows, in a pool of fcap slots with `stride` hop slots each */
  int fcap, stride, nfree, nactive, max_active;
  int *free_ids;
  netmodel_msg *fmsg;
  int *fpath;          /* adaptive routings: the candidate each flow took */
  double *rem, *rate, *new_rate, *weight;
  /* SMPI's corrections (routing/platform.h): bytes moved per unit of
   * rate (the bandwidth factor; rem and rate are in units of the share),
   * the TCP-gamma bound of the rate (INFINITY: none), and the hops of the
   * route forward (the others, up to nhops, are the route back, where
   * the flow takes `cross` of its rate) */
  double *scale, *bound;
  int *nfwd;
  double cross;
  gboolean exact; /* cross traffic or bounds: every re-rating fills whole components */
  int64_t *last;
  uint32_t *fmark, *frozen;
  int *nhops, *hop_res, *hop_pos;
  int *bneck, *new_bneck; /* the capacity that fixed the flow's rate (-1: none yet) */
  int *fresh, nfresh;     /* flows activated since the last re-rating */
  /* completions: a binary heap of the draining flows by (finish time,
   * order of the rate change that set it), one engine event at its top */
  centry *cheap;           /* the heap */
  int *cpos, cn;           /* position of a flow in it, -1: not in it */
  int64_t next_t;          /* time of the pending engine event, -1: none */
  uint64_t nseq;
  uint32_t next_ver;
  /* route scratch; adaptive routings: every candidate's links and hops,
   * and per capacity the flows routed over it, started and not finished
   * (the load a source sees: models/adaptive.c) */
  int *route, route_cap;
  int *cand_links, *cand_hops, *routed;
  int chosen;          /* the candidate of the flow being started */
  /* capacities whose flow set changed since the last re-rating, and
   * whether a re-rating event is pending at the current time */
  int *dirty, ndirty;
  uint32_t dirty_epoch, *dirty_mark;
  gboolean pending;
  /* re-rating workspace: epoch stamps of the flows to re-rate (fmark),
   * of those whose rate the filling fixed (frozen), of the capacities the
   * flows to re-rate cross (rmark) and of the capacities whose
   * bottlenecked flows are all in the set already (cmark:
   * join_bottlenecked() ran there, or set_components() put in every flow
   * of their component) */
  uint32_t epoch;
  uint32_t *rmark, *cmark;
  fheap_item *lheap;   /* capacities by share, lpos: position of one, -1: none */
  int lhn, *lpos;
  double *kmax;        /* at least the highest level of a kept flow on a capacity */
  int *nbott;          /* flows a capacity bottlenecks */
  double *used;        /* sum of the rates of the flows on a capacity */
  double *lmax;        /* at least the highest level of a flow on it */
  int ncf, ncr, *dec;
  double *rcap, *rw;   /* capacity left, weight of the unfixed flows */
  int *rn, *comp_res, *comp_flow;
  fheap_item *heap;
  int hn, hcap;
  /* statistics per capacity */
  int *maxn;
  double *area;        /* integral of the flow count, flow x ps */
  int64_t *tlast, *sat_ps;
  uint8_t *sat;
  uint64_t rerates, rerated_flows, rerates_whole;
} flowmodel;

/* The capacities being filled, keyed by (a lower bound of) their share:
 * an indexed binary heap, one entry per capacity (lpos). */
void lheap_down(flowmodel *fm, int i, fheap_item it);
void lheap_set(flowmodel *fm, int r, double share);
void lheap_remove(flowmodel *fm, int r);

/* The flows whose trigger level the water reaches (rule 1 of rerate()). */
void theap_push(flowmodel *fm, double level, int f);
int theap_pop(flowmodel *fm);

/* Completions: flow f ends at t (re-keyed if queued), the first one
 * leaves, and the engine event at the first time. */
void completion_set(flowmodel *fm, int f, int64_t t);
int completion_pop(flowmodel *fm);
void completion_schedule(flowmodel *fm);
