/* partition.c - several ranks per node: split the tasks into the allocated
 * nodes with Scotch, then restore the exact capacity of every node.
 *
 * This is the pre-partitioning step of deveci2015 (UMPA), Section III-A:
 * when a node has several cores, the communication graph is first
 * partitioned into as many parts as there are allocated nodes, with part
 * weights equal to the cores per node, so that the heavy edges stay inside
 * a node; the quotient graph is then mapped with one part per node
 * (mapping/pipeline.c). Scotch sees the symmetrized graph (weight of {i, j}
 * = bytes i->j + bytes j->i, scaled down so that every sum Scotch forms
 * fits its 32-bit SCOTCH_Num), maps it onto a weighted complete graph
 * (SCOTCH_archCmpltw, one terminal per node, weight = cores) with a
 * balance-enforcing strategy, in a private context that is seeded,
 * deterministic and single-threaded (scotch-util.h) so a seed gives one
 * partition. Scotch only balances
 * within a tolerance, so a repair pass then moves, while some part is over
 * its capacity, the task of an over-full part whose move to a part with room
 * loses the least internal traffic (ties: lowest task, then lowest part).
 *
 * The same with a capacity per part (strategy_partition_sizes) splits the
 * tasks of one switch or group among its children (mapping/strategies/hierarchy.c).
 *
 * Cost: Scotch's multilevel mapping, O(E log P); the repair is
 * O(excess x (degree + P)). Scotch failures become GErrors
 * (STRATEGY_ERROR_FAILED); Scotch itself prints its reason on stderr.
 */
#include "mapping/strategy.h"
#include "mapping/scotch-util.h"

#include <string.h>

/* Moves tasks out of parts above their cap until none is; part[] is
 * updated in place. Least loss first: loss(t, b) = w(t, own part) - w(t, b). */
static void partition_repair_sizes(const commgraph *g, int nparts, const int *cap, int *part)
{
  int n = g->n;
  int *load = g_new0(int, nparts);
  int64_t *conn = g_new0(int64_t, nparts); /* scratch: weight from one task to each part */
  int *touched = g_new(int, nparts);
  for (int i = 0; i < n; i++)
    load[part[i]]++;
  /* symmetric neighbourhoods: in-edges are needed too */
  int *rxadj = g_new0(int, n + 1);
  int *radj = g_new(int, g->nedges ? g->nedges : 1);
  int64_t *rw = g_new(int64_t, g->nedges ? g->nedges : 1);
  for (int e = 0; e < g->nedges; e++)
    rxadj[g->adj[e] + 1]++;
  for (int i = 0; i < n; i++)
    rxadj[i + 1] += rxadj[i];
  int *fill = g_memdup2(rxadj, sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int k = fill[g->adj[e]]++;
      radj[k] = i;
      rw[k] = g->bytes[e] > 0 ? g->bytes[e] : 1;
    }
  g_free(fill);

  int free_part = 0; /* lowest part with room that has no neighbour: gain 0 */
  for (int a = 0; a < nparts; a++) {
    while (load[a] > cap[a]) {
      int best_t = -1, best_b = -1;
      int64_t best_loss = INT64_MAX;
      while (free_part < nparts && load[free_part] >= cap[free_part])
        free_part++;
      g_assert(free_part < nparts); /* the caller checked n <= nparts * cap */
      for (int t = 0; t < n; t++) {
        if (part[t] != a)
          continue;
        int nt = 0;
        for (int pass = 0; pass < 2; pass++) {
          const int *xa = pass ? rxadj : g->xadj;
          const int *ad = pass ? radj : g->adj;
          for (int e = xa[t]; e < xa[t + 1]; e++) {
            int u = ad[e];
            if (u == t)
              continue;
            int64_t w = pass ? rw[e] : (g->bytes[e] > 0 ? g->bytes[e] : 1);
            int q = part[u];
            if (conn[q] == 0)
              touched[nt++] = q;
            conn[q] += w;
          }
        }
        int64_t own = conn[a];
        /* candidate destinations: neighbour parts with room, else free_part */
        int64_t loss = own;
        int b = free_part;
        for (int k = 0; k < nt; k++) {
          int q = touched[k];
          if (q == a || load[q] >= cap[q])
            continue;
          int64_t l = own - conn[q];
          if (l < loss || (l == loss && q < b)) {
            loss = l;
            b = q;
          }
        }
        if (loss < best_loss) {
          best_loss = loss;
          best_t = t;
          best_b = b;
        }
        for (int k = 0; k < nt; k++)
          conn[touched[k]] = 0;
      }
      g_assert(best_t >= 0);
      part[best_t] = best_b;
      load[a]--;
      load[best_b]++;
    }
  }
  g_free(rxadj);
  g_free(radj);
  g_free(rw);
  g_free(load);
  g_free(conn);
  g_free(touched);
}

void partition_repair(const commgraph *g, int nparts, int cap, int *part)
{
  int *caps = g_new(int, MAX(nparts, 1));
  for (int i = 0; i < nparts; i++)
    caps[i] = cap;
  partition_repair_sizes(g, nparts, caps, part);
  g_free(caps);
}

gboolean strategy_partition(const commgraph *g, int nparts, int cap, guint32 seed, int *part,
                            GError **error)
{
  int *caps = g_new(int, MAX(nparts, 1));
  for (int i = 0; i < nparts; i++)
    caps[i] = cap;
  gboolean ok = strategy_partition_sizes(g, nparts, caps, seed, part, error);
  g_free(caps);
  return ok;
}

gboolean strategy_partition_sizes(const commgraph *g, int nparts, const int *cap, guint32 seed,
                                  int *part, GError **error)
{
  gboolean ok = FALSE;
  scotch_graph sg = { 0 };
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  SCOTCH_Num *parttab = NULL, *wtab = NULL;
  gboolean arch_init = FALSE, strat_init = FALSE;
  int64_t room = 0;
  for (int i = 0; i < nparts; i++)
    room += cap[i];
  if (g->n > room) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "partition: %d ranks do not fit %d part%s of %" G_GINT64_FORMAT " slots in all",
                g->n, nparts, nparts == 1 ? "" : "s", room);
    goto out;
  }
  if (nparts == 1 || g->n == 0) {
    for (int i = 0; i < g->n; i++)
      part[i] = 0;
    ok = TRUE;
    goto out;
  }
  if (!scotch_graph_build(&sg, g, error) || !scotch_graph_context(&sg, seed, error))
    goto out;
  wtab = g_new(SCOTCH_Num, nparts);
  for (int i = 0; i < nparts; i++)
    wtab[i] = MAX(cap[i], 1);
  if (SCOTCH_archInit(&arch) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "partition: SCOTCH_archInit failed");
    goto out;
  }
  arch_init = TRUE;
  if (SCOTCH_archCmpltw(&arch, nparts, wtab) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "partition: SCOTCH_archCmpltw(%d parts) failed", nparts);
    goto out;
  }
  SCOTCH_stratInit(&strat);
  strat_init = TRUE;
  if (SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATBALANCE, nparts, 0.01) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "partition: SCOTCH_stratGraphMapBuild failed");
    goto out;
  }
  parttab = g_new(SCOTCH_Num, g->n);
  if (SCOTCH_graphMap(sg.use, &arch, &strat, parttab) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "partition: SCOTCH_graphMap of %d ranks into %d nodes failed (see Scotch's "
                "message above)", g->n, nparts);
    goto out;
  }
  for (int i = 0; i < g->n; i++) {
    g_assert(parttab[i] >= 0 && parttab[i] < nparts);
    part[i] = (int)parttab[i];
  }
  partition_repair_sizes(g, nparts, cap, part);
  ok = TRUE;
out:
  if (strat_init)
    SCOTCH_stratExit(&strat);
  if (arch_init)
    SCOTCH_archExit(&arch);
  scotch_graph_free(&sg);
  g_free(parttab);
  g_free(wtab);
  return ok;
}
