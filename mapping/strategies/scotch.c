/* scotch.c - `scotch`: Scotch's own static mapping (SCOTCH_graphMap) of
 * the communication graph onto the platform as a Scotch target architecture.
 *
 * This is the "SMAP" baseline of deveci2015 (Section V, the Scotch mapper
 * UMPA is compared with), and the `scotch_gmap` reference of the MapLib
 * benchmark (korndoerfer2021 Section 6.2 uses it too). The target is a
 * native Scotch mesh or torus (SCOTCH_archMesh2/3, archTorus2/3,
 * archTorusX) when the topology is regular, all torus (1-5 dimensions) or
 * all mesh (2 or 3: Debian's Scotch 7.0.3 archMeshX wrongly measures wrap
 * distances) and every node is allocated: Scotch numbers those
 * terminals with dimension 0 fastest, exactly like routing/topology.h
 * (tests/test_scotch_map.c checks every pairwise distance). Otherwise - HAEC
 * Box (a crossbar dimension), sparse allocations, graph topologies, or when
 * `target=deco|deco2` asks for it - the target is a decomposition-defined
 * architecture built from the graph of the whole topology (vertices = nodes,
 * edges = links, unit weights, so distances are shortest-path hops through
 * any node) restricted to the allocated nodes: SCOTCH_archBuild0 (deco 1,
 * recursive bipartitioning with a full distance matrix, up to 2048 nodes in
 * `auto`) or SCOTCH_archBuild2 (deco 2, multilevel, for larger ones).
 * HAEC's in-layer routes follow the board links, while graph distances may
 * use two wireless hops instead; Scotch only sees the latter.
 *
 * Scotch balances within a tolerance and may put two tasks on one terminal
 * when tasks < nodes, so a repair pass moves the surplus tasks (least
 * attached to their node first) to the free allocated node that adds the
 * least hop-bytes. Deterministic for a seed: Scotch runs in a private
 * seeded, deterministic, single-threaded context (mapping/scotch-util.h).
 * Several ranks per node: the pipeline runner pre-partitions (mapping/partition.c).
 */
#include "mapping/scotch-util.h"
#include "mapping/strategy.h"

#include <string.h>

static const strategy_param scotch_params[] = {
  { "target", SPARAM_CHOICE, "auto", "auto|deco|deco2",
    "Scotch target: native mesh/torus when possible (auto), or always a "
    "decomposition-defined target (deco = archBuild0, deco2 = archBuild2)" },
  { "flags", SPARAM_CHOICE, "quality", "default|quality|speed|balance",
    "Scotch default mapping strategy flavour (SCOTCH_STRAT*)" },
  { "balance", SPARAM_DOUBLE, "0.05", "0..1", "load imbalance tolerance, as scotch_gmap -b" },
  { NULL, 0, NULL, NULL, NULL },
};

/* TRUE when p is a regular all-mesh or all-torus topology, 1..5 dims,
 * every node allocated: Scotch has a native target for it. */
static gboolean native_target(const platform *p)
{
  const topo *t = p->topo;
  if (!topo_is_regular(t) || t->crossbar_dim >= 0 || t->ndims > 5 || p->nalloc != t->nnodes)
    return FALSE;
  for (int d = 1; d < t->ndims; d++)
    if (t->conn[d] != t->conn[0])
      return FALSE;
  /* Debian's Scotch 7.0.3 SCOTCH_archMeshX measures torus distances (its
   * mesh3D/mesh2D are right): meshes of other ranks go to a deco target */
  if (t->conn[0] == TOPO_MESH)
    return t->ndims == 2 || t->ndims == 3;
  return t->conn[0] == TOPO_TORUS;
}

/* Builds the native target; terminal k is node k. */
static int build_native(const platform *p, SCOTCH_Arch *arch)
{
  const topo *t = p->topo;
  SCOTCH_Num dims[TOPO_MAX_DIMS];
  for (int d = 0; d < t->ndims; d++)
    dims[d] = t->shape[d];
  gboolean torus = t->conn[0] == TOPO_TORUS;
  if (t->ndims == 2)
    return torus ? SCOTCH_archTorus2(arch, dims[0], dims[1]) : SCOTCH_archMesh2(arch, dims[0], dims[1]);
  if (t->ndims == 3)
    return torus ? SCOTCH_archTorus3(arch, dims[0], dims[1], dims[2])
                 : SCOTCH_archMesh3(arch, dims[0], dims[1], dims[2]);
  g_assert(torus);
  return SCOTCH_archTorusX(arch, t->ndims, dims);
}

/* Builds a decomposition-defined target from the topology graph restricted
 * to the allocated nodes. Terminal numbers differ by kind: deco 1
 * (archBuild0) returns the vertex labels, i.e. node ids; deco 2 (archBuild2)
 * returns indices into the terminal list, which is the ascending node ids
 * put into `list` (nalloc). */
static gboolean build_deco(const platform *p, gboolean multilevel, SCOTCH_Arch *arch,
                           SCOTCH_Num *list, GError **error)
{
  const topo *t = p->topo;
  gboolean ok = FALSE;
  int *src = g_new(int, 2 * (size_t)t->nlinks + 1);
  int *dst = g_new(int, 2 * (size_t)t->nlinks + 1);
  int64_t *one = g_new(int64_t, 2 * (size_t)t->nlinks + 1);
  int cnt = 0;
  for (int l = 0; l < t->nlinks; l++) {
    if (t->link_src[l] == t->link_dst[l])
      continue;
    src[cnt] = t->link_src[l], dst[cnt] = t->link_dst[l], one[cnt] = 1, cnt++;
    src[cnt] = t->link_dst[l], dst[cnt] = t->link_src[l], one[cnt] = 1, cnt++;
  }
  commgraph *lg = commgraph_from_edges(t->nnodes, cnt, src, dst, one, NULL);
  scotch_graph sg = { 0 };
  SCOTCH_Strat strat;
  SCOTCH_stratInit(&strat);
  for (int i = 0, k = 0; i < t->nnodes; i++)
    if (p->alloc_index[i] >= 0)
      list[k++] = i;
  if (!scotch_graph_build(&sg, lg, error) || !scotch_graph_context(&sg, 1, error))
    goto out;
  /* the topology graph must have unit weights: its "bytes" are all 2 */
  for (int e = 0; e < sg.verttab[sg.n]; e++)
    sg.edlotab[e] = 1;
  int rc = multilevel ? SCOTCH_archBuild2(arch, sg.use, p->nalloc, list)
                      : SCOTCH_archBuild0(arch, sg.use, p->nalloc, list, &strat);
  if (rc != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "scotch: SCOTCH_archBuild%d of a %d-node target from %s failed",
                multilevel ? 2 : 0, p->nalloc, p->name);
    goto out;
  }
  ok = TRUE;
out:
  SCOTCH_stratExit(&strat);
  scotch_graph_free(&sg);
  commgraph_free(lg);
  g_free(src);
  g_free(dst);
  g_free(one);
  return ok;
}

/* Hop-bytes (symmetric weights) that task t would add on node v. */
static int64_t place_cost(const scotch_graph *sg, const platform *p, const int *node, int t, int v)
{
  int64_t c = 0;
  for (SCOTCH_Num e = sg->verttab[t]; e < sg->verttab[t + 1]; e++) {
    int u = node[sg->edgetab[e]];
    if (u >= 0)
      c += (int64_t)sg->edlotab[e] * route_hops(p->router, v, u);
  }
  return c;
}

/* Moves surplus tasks off over-full nodes (see the header paragraph): the
 * candidates are the free allocated nodes at the smallest link distance
 * from the crowded node found by a breadth-first search (at most
 * REPAIR_CANDIDATES of them), and the one adding the least hop-bytes wins.
 * O(surplus x (tasks on the node x degree + nodes searched)). */
#define REPAIR_CANDIDATES 32

static void repair_capacity(const scotch_graph *sg, const platform *p, int *node)
{
  const topo *t = p->topo;
  int n = sg->n, cap = p->cores_per_node, nn = t->nnodes;
  int *load = g_new0(int, nn), *head = g_new(int, nn), *next = g_new(int, n);
  int *seen = g_new0(int, nn), *queue = g_new(int, nn), *cand = g_new(int, REPAIR_CANDIDATES);
  int stamp = 0;
  for (int v = 0; v < nn; v++)
    head[v] = -1;
  for (int i = n - 1; i >= 0; i--) {
    load[node[i]]++;
    next[i] = head[node[i]];
    head[node[i]] = i;
  }
  for (int a = 0; a < p->nalloc; a++) {
    int v = p->alloc[a];
    while (load[v] > cap) {
      /* the task on v least attached to v's other tasks (ties: first in list) */
      int best_t = -1, prev_best = -1;
      int64_t best_w = INT64_MAX;
      for (int prev = -1, k = head[v]; k >= 0; prev = k, k = next[k]) {
        int64_t w = 0;
        for (SCOTCH_Num e = sg->verttab[k]; e < sg->verttab[k + 1]; e++)
          if (node[sg->edgetab[e]] == v)
            w += sg->edlotab[e];
        if (w < best_w)
          best_w = w, best_t = k, prev_best = prev;
      }
      if (prev_best < 0)
        head[v] = next[best_t];
      else
        next[prev_best] = next[best_t];
      node[best_t] = -1;
      load[v]--;
      /* BFS from v over the links: free allocated nodes of the first level */
      int qh = 0, qt = 0, nc = 0, level_end = -1;
      stamp++;
      queue[qt++] = v;
      seen[v] = stamp;
      while (qh < qt && nc < REPAIR_CANDIDATES) {
        if (qh == level_end && nc > 0)
          break; /* a whole level searched and something found */
        if (qh == level_end || level_end < 0)
          level_end = qt;
        int u = queue[qh++];
        if (p->alloc_index[u] >= 0 && load[u] < cap)
          cand[nc++] = u;
        for (int l = t->out_off[u]; l < t->out_off[u + 1]; l++) {
          int w = t->link_dst[t->out_link[l]];
          if (seen[w] != stamp) {
            seen[w] = stamp;
            queue[qt++] = w;
          }
        }
      }
      if (nc == 0) /* not reachable by links (cannot happen on a connected topology) */
        for (int b = 0; b < p->nalloc && nc == 0; b++)
          if (load[p->alloc[b]] < cap)
            cand[nc++] = p->alloc[b];
      g_assert(nc > 0);
      int best_v = -1;
      int64_t best_c = INT64_MAX;
      for (int k = 0; k < nc; k++) {
        int64_t c = place_cost(sg, p, node, best_t, cand[k]);
        if (c < best_c || (c == best_c && cand[k] < best_v))
          best_c = c, best_v = cand[k];
      }
      node[best_t] = best_v;
      load[best_v]++;
      next[best_t] = head[best_v];
      head[best_v] = best_t;
    }
  }
  g_free(load);
  g_free(head);
  g_free(next);
  g_free(seen);
  g_free(queue);
  g_free(cand);
}

static gboolean run_scotch(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  const platform *p = ctx->p;
  const char *target = strategy_arg_str(args, "target");
  const char *flagname = strategy_arg_str(args, "flags");
  double balance = strategy_arg_double(args, "balance");
  gboolean ok = FALSE, arch_init = FALSE, strat_init = FALSE;
  scotch_graph sg = { 0 };
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  SCOTCH_Num *parttab = NULL, *list = NULL;
  gboolean multilevel = FALSE;

  if (!scotch_graph_build(&sg, ctx->g, error) || !scotch_graph_context(&sg, ctx->seed, error))
    goto out;
  if (SCOTCH_archInit(&arch) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED, "scotch: SCOTCH_archInit failed");
    goto out;
  }
  arch_init = TRUE;
  gboolean native = strcmp(target, "auto") == 0 && native_target(p);
  if (native) {
    if (build_native(p, &arch) != 0) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                  "scotch: Scotch rejected the mesh/torus target of %s", p->name);
      goto out;
    }
  } else {
    multilevel = strcmp(target, "deco2") == 0 || (strcmp(target, "auto") == 0 && p->nalloc > 2048);
    list = g_new(SCOTCH_Num, p->nalloc);
    if (!build_deco(p, multilevel, &arch, list, error))
      goto out;
  }
  SCOTCH_Num flags = strcmp(flagname, "quality") == 0   ? SCOTCH_STRATQUALITY
                     : strcmp(flagname, "speed") == 0   ? SCOTCH_STRATSPEED
                     : strcmp(flagname, "balance") == 0 ? SCOTCH_STRATBALANCE
                                                        : SCOTCH_STRATDEFAULT;
  SCOTCH_stratInit(&strat);
  strat_init = TRUE;
  if (SCOTCH_stratGraphMapBuild(&strat, flags, SCOTCH_archSize(&arch), balance) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "scotch: SCOTCH_stratGraphMapBuild failed");
    goto out;
  }
  parttab = g_new(SCOTCH_Num, sg.n + 1);
  if (SCOTCH_graphMap(sg.use, &arch, &strat, parttab) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "scotch: SCOTCH_graphMap of %d ranks onto %s failed (Scotch's message is above)",
                sg.n, p->name);
    goto out;
  }
  /* native and deco 1: terminal = node id; deco 2: index into list */
  for (int i = 0; i < sg.n; i++) {
    int v = (int)parttab[i];
    if (multilevel)
      v = v >= 0 && v < p->nalloc ? (int)list[v] : -1;
    if (v < 0 || v >= p->topo->nnodes || p->alloc_index[v] < 0) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                  "scotch: Scotch put rank %d on terminal %d, not an allocated node of %s", i, v,
                  p->name);
      goto out;
    }
    m->node[i] = v;
  }
  repair_capacity(&sg, p, m->node);
  ok = TRUE;
out:
  if (strat_init)
    SCOTCH_stratExit(&strat);
  if (arch_init)
    SCOTCH_archExit(&arch);
  scotch_graph_free(&sg);
  g_free(parttab);
  g_free(list);
  return ok;
}

const strategy strategy_scotch = {
  .name = "scotch",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "Scotch static mapping (SCOTCH_graphMap) onto a mesh/torus or deco target",
  .paper = "deveci2015 Section V (SMAP baseline); Scotch 7 user's guide",
  .params = scotch_params,
  .cost = "Scotch dual recursive bipartitioning, O(E log N) and more",
  .max_ranks = 65536,
  .run = run_scotch,
};
