/* evalhook.h - a static evaluation hook for the tests of mapping/, where
 * nothing is replayed: it scores a mapping by its hop-bytes (metrics.h)
 * under any simulated objective's name, with the link bytes as link heat
 * and each task's hop-bytes as task heat, and honours a limit as the
 * replay does (value > limit: over). The strategies that optimize by
 * simulation (replay, portfolio:obj=makespan) then run in the registry's
 * tests, against an objective the tests can recompute. */
#pragma once

#include <math.h>
#include <string.h>

#include "mapping/metrics.h"
#include "mapping/strategy.h"

typedef struct eh_hook {
  strategy_eval hook;
  const commgraph *g;   /* the ranks' graph: the hook sees their mapping */
  const platform *p;
} eh_hook;

static gboolean eh_score(void *user, const char *objective, const mapping *m, double limit,
                         strategy_score *out, GError **error)
{
  (void)objective;
  (void)error;
  const eh_hook *h = user;
  metrics *x = metrics_compute(h->g, h->p, m);
  out->objective = "hop_bytes (test hook)";
  out->value = (double)x->hop_bytes;
  out->over = out->value > limit;
  if (out->over)
    out->value = limit;
  if (out->link_heat)
    memcpy(out->link_heat, x->link_bytes, sizeof(int64_t) * (size_t)x->nlinks);
  if (out->task_heat) {
    memset(out->task_heat, 0, sizeof(double) * (size_t)m->ntasks);
    for (int i = 0; i < h->g->n; i++)
      for (int e = h->g->xadj[i]; e < h->g->xadj[i + 1]; e++) {
        int j = h->g->adj[e];
        double hb = (double)h->g->bytes[e] * route_hops(h->p->router, m->node[i], m->node[j]);
        out->task_heat[i] += hb;
        out->task_heat[j] += hb;
      }
  }
  metrics_free(x);
  return TRUE;
}

static inline void eh_init(eh_hook *h, const commgraph *g, const platform *p)
{
  *h = (eh_hook){ { eh_score, h }, g, p };
}
