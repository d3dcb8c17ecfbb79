/* scotch-util.c - commgraph -> Scotch source graph (see scotch-util.h).
 *
 * Symmetrization follows what Scotch's mapping objective needs: Scotch
 * minimizes sum over edges {i, j} of weight x distance (its CommExpan,
 * deveci2015 Section II's WH for undirected graphs), so the weight of an
 * undirected edge is the traffic both ways. Cost O(E log E) (sort of the
 * doubled edge list inside commgraph_from_edges).
 */
#include "mapping/scotch-util.h"
#include "mapping/strategy.h"

#include <errno.h>
#include <math.h>
#include <string.h>

gboolean scotch_graph_build(scotch_graph *sg, const commgraph *g, GError **error)
{
  gboolean ok = FALSE;
  int n = g->n;
  int cnt = 0;
  int *src = g_new(int, 2 * (size_t)g->nedges + 1);
  int *dst = g_new(int, 2 * (size_t)g->nedges + 1);
  int64_t *w = g_new(int64_t, 2 * (size_t)g->nedges + 1);
  commgraph *s = NULL;
  memset(sg, 0, sizeof *sg);
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int j = g->adj[e];
      if (i == j)
        continue;
      int64_t b = g->bytes[e] > 0 ? g->bytes[e] : 1;
      src[cnt] = i, dst[cnt] = j, w[cnt] = b, cnt++;
      src[cnt] = j, dst[cnt] = i, w[cnt] = b, cnt++;
    }
  s = commgraph_from_edges(n, cnt, src, dst, w, NULL);
  double total = 0;
  for (int e = 0; e < s->nedges; e++)
    total += (double)s->bytes[e];
  double factor = total > SCOTCH_UTIL_WEIGHT_LIMIT ? total / SCOTCH_UTIL_WEIGHT_LIMIT : 1.0;
  sg->n = n;
  sg->verttab = g_new(SCOTCH_Num, n + 1);
  sg->edgetab = g_new(SCOTCH_Num, s->nedges + 1);
  sg->edlotab = g_new(SCOTCH_Num, s->nedges + 1);
  for (int i = 0; i <= n; i++)
    sg->verttab[i] = s->xadj[i];
  for (int e = 0; e < s->nedges; e++) {
    double v = factor > 1.0 ? round((double)s->bytes[e] / factor) : (double)s->bytes[e];
    sg->edgetab[e] = s->adj[e];
    sg->edlotab[e] = v < 1.0 ? 1 : (SCOTCH_Num)v;
  }
  if (SCOTCH_graphInit(&sg->graph) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "Scotch: SCOTCH_graphInit failed");
    goto out;
  }
  sg->init = TRUE;
  if (SCOTCH_graphBuild(&sg->graph, 0, n, sg->verttab, sg->verttab + 1, NULL, NULL, s->nedges,
                        sg->edgetab, sg->edlotab) != 0 ||
      SCOTCH_graphCheck(&sg->graph) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "Scotch: the communication graph (%d ranks, %d arcs) was rejected", n,
                s->nedges);
    goto out;
  }
  sg->use = &sg->graph;
  ok = TRUE;
out:
  commgraph_free(s);
  g_free(src);
  g_free(dst);
  g_free(w);
  if (!ok)
    scotch_graph_free(sg);
  return ok;
}

gboolean scotch_graph_context(scotch_graph *sg, guint32 seed, GError **error)
{
  g_assert(sg->init && !sg->ctx_init);
  if (SCOTCH_contextInit(&sg->ctx) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "Scotch: SCOTCH_contextInit failed");
    return FALSE;
  }
  sg->ctx_init = TRUE;
  if (SCOTCH_contextRandomClone(&sg->ctx) != 0 ||
      SCOTCH_contextOptionSetNum(&sg->ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1) != 0 ||
      SCOTCH_contextOptionSetNum(&sg->ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1) != 0 ||
      SCOTCH_contextThreadSpawn(&sg->ctx, 1, NULL) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "Scotch: could not set up a deterministic context");
    return FALSE;
  }
  SCOTCH_contextRandomSeed(&sg->ctx, (SCOTCH_Num)seed);
  SCOTCH_contextRandomReset(&sg->ctx);
  if (SCOTCH_graphInit(&sg->bound) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "Scotch: SCOTCH_graphInit failed");
    return FALSE;
  }
  sg->bound_init = TRUE;
  if (SCOTCH_contextBindGraph(&sg->ctx, &sg->graph, &sg->bound) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "Scotch: SCOTCH_contextBindGraph failed");
    return FALSE;
  }
  sg->use = &sg->bound;
  return TRUE;
}

void scotch_graph_free(scotch_graph *sg)
{
  if (sg->bound_init)
    SCOTCH_graphExit(&sg->bound);
  if (sg->ctx_init)
    SCOTCH_contextExit(&sg->ctx);
  if (sg->init)
    SCOTCH_graphExit(&sg->graph);
  g_free(sg->verttab);
  g_free(sg->edgetab);
  g_free(sg->edlotab);
  memset(sg, 0, sizeof *sg);
}

gboolean scotch_graph_save(const scotch_graph *sg, const char *path, GError **error)
{
  FILE *f = fopen(path, "w");
  if (!f) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "%s: cannot write: %s", path,
                g_strerror(errno));
    return FALSE;
  }
  int rc = SCOTCH_graphSave(&sg->graph, f);
  if (fclose(f) != 0 || rc != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "%s: Scotch could not save the graph",
                path);
    return FALSE;
  }
  return TRUE;
}
