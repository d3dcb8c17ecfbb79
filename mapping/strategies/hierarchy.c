/* hierarchy.c - `hier`: hierarchy-aware mapping on switch-based networks,
 * the recursive grouping of TreeMatch (Jeannot and Mercier, "Near-optimal
 * placement of MPI processes on hierarchical NUMA architectures",
 * Euro-Par 2010; Jeannot, Mercier and Tessier, "Process placement in
 * multicore clusters: algorithmic issues and practical techniques", IEEE
 * TPDS, 2014) applied to the network instead of a node's caches:
 * ranks that talk much share a node, then a router or leaf switch, then a
 * group or pod, so the expensive cables (global links, upper fat-tree
 * levels) carry what is left. TreeMatch groups bottom-up and partitions
 * large arities with Scotch; here every level is a Scotch partition, top
 * down, into as many parts as the level has children that take ranks.
 *
 * The hierarchy (one tree, whose leaves are the compute nodes):
 *  - dragonfly: groups, routers, nodes;
 *  - fat tree (XGFT): the subtrees under each level's switches, top digit
 *    first (pods, leaf switches, nodes);
 *  - HyperX: rows of the last dimension, then of the one before ..., the
 *    switch, its nodes ("dimension rows");
 *  - a tree of switches (Slurm's): its switches;
 *  - a mesh, torus or HAEC Box: the rows of its dimensions, as HyperX.
 * Except on trees a node's id is the mixed-radix number of its places in
 * the levels, which gives the indirect networks a grid of coordinates
 * (below).
 *
 * Which nodes: the fill rule's k nodes (ranks_per_node ranks each, the
 * last one the rest), chosen top down in the children with the most
 * allocated nodes first (lower index on ties), so a sparse allocation is
 * used in as few groups, and then routers, as it allows. target=split
 * then partitions the ranks of a domain into its chosen children with
 * exact sizes (strategy_partition_sizes: Scotch on a weighted complete
 * graph, then the repair) and recurses; target=tleaf maps them in one
 * Scotch static mapping onto a tree-leaf target (SCOTCH_archTleaf: the
 * hierarchy's levels, a level of the node's slots, restricted to the
 * chosen slots with SCOTCH_archSub) whose link costs are the mean route
 * lengths between subtrees of each level (exact hop counts on a fat tree:
 * 2 per level), and moves the ranks Scotch doubles up to the nearest free
 * slot. tleaf needs the same number of children under every domain of a
 * level, so it refuses Slurm's irregular trees.
 *
 * Several ranks per node are the leaf level's slots (places_slots), and a
 * seed gives one result (Scotch in a private seeded context).
 * Costs: split O(E x levels) plus one Scotch partition per domain used;
 * tleaf one Scotch mapping of O(E log slots).
 */
#include "mapping/map-util.h"
#include "mapping/scotch-util.h"

#include <math.h>
#include <string.h>

static const strategy_param hier_params[] = {
  { "target", SPARAM_CHOICE, "split", "split|tleaf",
    "split: Scotch partitions each level's ranks into its children, top down; tleaf: one "
    "Scotch mapping onto a tree-leaf target of the hierarchy (SCOTCH_archTleaf)" },
  { NULL, 0, NULL, NULL, NULL },
};

#define HIER_MAX_LEVELS TOPO_MAX_HIER_LEVELS

/* The levels of a mixed-radix hierarchy, top first, without levels of one
 * child; 0 when t has none (graphs, trees of switches). */
static int hier_radices(const topo *t, int *radix)
{
  int r[HIER_MAX_LEVELS], k = 0;
  int n = topo_hierarchy(t, r);
  if (n == 0)
    return 0;
  for (int i = 0; i < n; i++)
    if (r[i] > 1)
      radix[k++] = r[i];
  if (k == 0)
    radix[k++] = 1;
  return k;
}

/* ---- the hierarchy as a tree of domains --------------------------------- */

typedef struct hier {
  GArray *first, *count; /* per domain: its children's slice of `child` */
  GArray *child;         /* >= 0 a domain, < 0 ~node (a leaf) */
  int *alloc;            /* per domain: allocated nodes below */
  int nlev, radix[HIER_MAX_LEVELS]; /* mixed radix (tleaf); nlev 0 for a tree */
} hier;

static int new_domain(hier *h, int nchildren)
{
  int d = (int)h->first->len, first = (int)h->child->len, zero = 0;
  g_array_append_val(h->first, first);
  g_array_append_val(h->count, nchildren);
  for (int i = 0; i < nchildren; i++)
    g_array_append_val(h->child, zero);
  return d;
}

static inline int *child_at(hier *h, int d, int i)
{
  return &g_array_index(h->child, int, g_array_index(h->first, int, d) + i);
}

/* A domain over nodes [lo, lo + span) at level j of the radices. */
static int add_radix(hier *h, int lo, int span, int j)
{
  int d = new_domain(h, h->radix[j]), sub = span / h->radix[j];
  for (int k = 0; k < h->radix[j]; k++)
    *child_at(h, d, k) = j == h->nlev - 1 ? ~(lo + k) : add_radix(h, lo + k * sub, sub, j + 1);
  return d;
}

/* A domain for switch s of a tree and, recursively, those below it;
 * kids[v] lists v's children (CSR in koff). */
static int add_switch(hier *h, const int *koff, const int *kids, int s, int nodes)
{
  int n = koff[s + 1] - koff[s], d = new_domain(h, n);
  for (int i = 0; i < n; i++) {
    int v = kids[koff[s] + i];
    *child_at(h, d, i) = v < nodes ? ~v : add_switch(h, koff, kids, v, nodes);
  }
  return d;
}

static int count_alloc(hier *h, const platform *p, int d)
{
  int sum = 0;
  for (int i = 0; i < g_array_index(h->count, int, d); i++) {
    int c = *child_at(h, d, i);
    sum += c < 0 ? p->alloc_index[~c] >= 0 : count_alloc(h, p, c);
  }
  return h->alloc[d] = sum;
}

/* The hierarchy of p; FALSE (STRATEGY_ERROR_INPUT) on networks without one. */
static gboolean hier_build(hier *h, const platform *p, GError **error)
{
  const topo *t = p->topo;
  memset(h, 0, sizeof *h);
  h->nlev = hier_radices(t, h->radix);
  if (!h->nlev && !topo_tree_of(t)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "hier: platform %s is a %s without levels of nodes, expected a dragonfly, fat "
                "tree, HyperX, tree of switches (Slurm's topology), mesh or torus", p->name,
                topo_kind_text(t));
    return FALSE;
  }
  h->first = g_array_new(FALSE, FALSE, sizeof(int));
  h->count = g_array_new(FALSE, FALSE, sizeof(int));
  h->child = g_array_new(FALSE, FALSE, sizeof(int));
  int nodes = topo_compute_nodes(t);
  if (h->nlev) {
    add_radix(h, 0, nodes, 0);
  } else {
    const topo_tree *tr = topo_tree_of(t);
    int *koff = g_new0(int, t->nnodes + 1), *kids = g_new(int, t->nnodes), *fill;
    for (int v = 0; v < t->nnodes; v++)
      if (tr->parent[v] >= 0)
        koff[tr->parent[v] + 1]++;
    for (int v = 0; v < t->nnodes; v++)
      koff[v + 1] += koff[v];
    fill = g_memdup2(koff, sizeof(int) * (size_t)t->nnodes);
    for (int v = 0; v < t->nnodes; v++)
      if (tr->parent[v] >= 0)
        kids[fill[tr->parent[v]]++] = v;
    add_switch(h, koff, kids, tr->root, nodes);
    g_free(koff);
    g_free(kids);
    g_free(fill);
  }
  h->alloc = g_new(int, h->first->len);
  count_alloc(h, p, 0);
  return TRUE;
}

static void hier_clear(hier *h)
{
  if (h->first) {
    g_array_unref(h->first);
    g_array_unref(h->count);
    g_array_unref(h->child);
  }
  g_free(h->alloc);
}

/* ---- choosing nodes ----------------------------------------------------- */

/* The children of d that take ranks and how many nodes each: the most
 * allocated first (lower index on ties) until k nodes. Returns their count;
 * pick[] holds child positions, take[] node counts. */
static int choose_children(hier *h, const platform *p, int d, int k, int *pick, int *take)
{
  int n = g_array_index(h->count, int, d), m = 0;
  gboolean *used = g_new0(gboolean, n);
  while (k > 0) {
    int best = -1, best_alloc = 0;
    for (int i = 0; i < n; i++) {
      int c = *child_at(h, d, i), a = c < 0 ? p->alloc_index[~c] >= 0 : h->alloc[c];
      if (!used[i] && a > best_alloc)
        best = i, best_alloc = a;
    }
    g_assert(best >= 0); /* the caller asks for no more nodes than are allocated below */
    used[best] = TRUE;
    pick[m] = best;
    take[m] = MIN(best_alloc, k);
    k -= take[m++];
  }
  g_free(used);
  return m;
}

/* The chosen nodes under d, in hierarchy order, appended to nodes[]. */
static void choose_nodes(hier *h, const platform *p, int d, int k, GArray *nodes)
{
  int n = g_array_index(h->count, int, d);
  int *pick = g_new(int, n), *take = g_new(int, n);
  int m = choose_children(h, p, d, k, pick, take);
  for (int i = 0; i < m; i++) {
    int c = *child_at(h, d, pick[i]);
    if (c < 0) {
      int v = ~c;
      g_array_append_val(nodes, v);
    } else {
      choose_nodes(h, p, c, take[i], nodes);
    }
  }
  g_free(pick);
  g_free(take);
}

/* ---- target=split ------------------------------------------------------- */

typedef struct split_ctx {
  hier *h;
  const platform *p;
  const commgraph *g;
  guint32 seed;
  int cap;        /* ranks per node */
  int *local;     /* g->n: index of a task in the current subgraph, or -1 */
  mapping *m;
} split_ctx;

/* The graph among tasks[0..n-1], in that order. */
static commgraph *subgraph(split_ctx *s, const int *tasks, int n)
{
  for (int i = 0; i < n; i++)
    s->local[tasks[i]] = i;
  commgraph *sub = strategy_quotient(s->g, s->local, n);
  for (int i = 0; i < n; i++)
    s->local[tasks[i]] = -1;
  return sub;
}

/* Places tasks[0..n-1] on k nodes under child c (a domain, or ~node). */
static gboolean split(split_ctx *s, int c, int *tasks, int n, int k, GError **error)
{
  if (c < 0) {
    for (int i = 0; i < n; i++)
      s->m->node[tasks[i]] = ~c;
    return TRUE;
  }
  int nc = g_array_index(s->h->count, int, c);
  int *pick = g_new(int, nc), *take = g_new(int, nc), *size = g_new(int, nc);
  int m = choose_children(s->h, s->p, c, k, pick, take), left = n;
  for (int i = 0; i < m; i++) {
    size[i] = i == m - 1 ? left : take[i] * s->cap;
    left -= size[i];
  }
  gboolean ok = TRUE;
  if (m == 1) {
    ok = split(s, *child_at(s->h, c, pick[0]), tasks, n, k, error);
  } else {
    commgraph *sub = subgraph(s, tasks, n);
    int *part = g_new(int, MAX(n, 1)), *order = g_new(int, MAX(n, 1)), *start = g_new0(int, m + 1);
    ok = strategy_partition_sizes(sub, m, size, s->seed, part, error);
    for (int i = 0; ok && i < n; i++)
      start[part[i] + 1]++;
    for (int i = 0; ok && i < m; i++)
      start[i + 1] += start[i];
    int *fill = g_memdup2(start, sizeof(int) * (size_t)(m + 1));
    for (int i = 0; ok && i < n; i++)
      order[fill[part[i]]++] = tasks[i];
    for (int i = 0; ok && i < m; i++)
      ok = split(s, *child_at(s->h, c, pick[i]), order + start[i], start[i + 1] - start[i],
                 take[i], error);
    g_free(fill);
    g_free(part);
    g_free(order);
    g_free(start);
    commgraph_free(sub);
  }
  g_free(pick);
  g_free(take);
  g_free(size);
  return ok;
}

/* ---- target=tleaf ------------------------------------------------------- */

/* Mean route length between nodes whose lowest common domain is at depth j
 * (a sample of up to 64 x 64 pairs). */
static double level_distance(const platform *p, const hier *h, int j)
{
  int span = 1;
  for (int i = j; i < h->nlev; i++)
    span *= h->radix[i];
  int sub = span / h->radix[j], sa = MAX(sub / 64, 1), sb = MAX((span - sub) / 64, 1);
  double sum = 0, pairs = 0;
  for (int a = 0; a < sub; a += sa)
    for (int b = sub; b < span; b += sb) {
      sum += route_hops(p->router, a, b);
      pairs++;
    }
  return pairs ? sum / pairs : 0;
}

/* Leading equal digits of slots a and b in the target's radices. */
static int affinity(const SCOTCH_Num *size, int levels, int64_t a, int64_t b)
{
  int64_t span = 1;
  for (int i = 0; i < levels; i++)
    span *= size[i];
  int same = 0;
  for (int i = 0; i < levels; i++) {
    span /= size[i];
    if (a / span != b / span)
      break;
    same++;
  }
  return same;
}

static gboolean tleaf(const strategy_ctx *ctx, hier *h, const int *nodes, int k, int cap,
                      mapping *m, GError **error)
{
  const commgraph *g = ctx->g;
  const platform *p = ctx->p;
  SCOTCH_Num size[HIER_MAX_LEVELS + 1], link[HIER_MAX_LEVELS + 1];
  int levels = h->nlev;
  double below = 0;
  for (int j = levels - 1; j >= 0; j--) {
    double here = level_distance(p, h, j);
    size[j] = h->radix[j];
    link[j] = (SCOTCH_Num)MAX(lround(2 * (here - below)), 0); /* half hops */
    below = here;
  }
  if (cap > 1) {
    size[levels] = cap;
    link[levels++] = 0;
  }
  int nslots = k * cap;
  SCOTCH_Num *slots = g_new(SCOTCH_Num, nslots), *parttab = g_new(SCOTCH_Num, MAX(g->n, 1));
  for (int i = 0; i < nslots; i++)
    slots[i] = (SCOTCH_Num)nodes[i / cap] * cap + i % cap;
  SCOTCH_Arch arch, sub;
  SCOTCH_Strat strat;
  scotch_graph sg = { 0 };
  gboolean ok = FALSE;
  SCOTCH_archInit(&arch);
  SCOTCH_archInit(&sub);
  SCOTCH_stratInit(&strat);
  if (SCOTCH_archTleaf(&arch, levels, size, link) != 0 ||
      SCOTCH_archSub(&sub, &arch, nslots, slots) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "hier: Scotch's tree-leaf target of %d slots failed", nslots);
    goto out;
  }
  if (!scotch_graph_build(&sg, g, error) || !scotch_graph_context(&sg, ctx->seed, error))
    goto out;
  if (SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATBALANCE, nslots, 0.01) != 0 ||
      SCOTCH_graphMap(sg.use, &sub, &strat, parttab) != 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "hier: SCOTCH_graphMap of %d ranks onto %d slots failed (see Scotch's message "
                "above)", g->n, nslots);
    goto out;
  }
  /* a rank Scotch doubled up goes to the free slot deepest in its subtree */
  int *holder = g_new(int, nslots);
  for (int i = 0; i < nslots; i++)
    holder[i] = -1;
  for (int t = 0; t < g->n; t++) {
    int at = (int)parttab[t];
    g_assert(at >= 0 && at < nslots);
    if (holder[at] >= 0) {
      int best = -1, best_aff = -1;
      for (int i = 0; i < nslots; i++) {
        int aff = holder[i] < 0 ? affinity(size, levels, slots[at], slots[i]) : -1;
        if (aff > best_aff)
          best = i, best_aff = aff;
      }
      at = best;
    }
    holder[at] = t;
    m->node[t] = nodes[at / cap];
  }
  g_free(holder);
  ok = TRUE;
out:
  scotch_graph_free(&sg);
  SCOTCH_stratExit(&strat);
  SCOTCH_archExit(&sub);
  SCOTCH_archExit(&arch);
  g_free(slots);
  g_free(parttab);
  return ok;
}

static gboolean run_hier(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  const platform *p = ctx->p;
  const commgraph *g = ctx->g;
  gboolean use_tleaf = !strcmp(strategy_arg_str(args, "target"), "tleaf");
  hier h;
  if (!hier_build(&h, p, error))
    return FALSE;
  if (use_tleaf && !h.nlev) {
    hier_clear(&h);
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "hier:target=tleaf: platform %s is a tree whose switches of one level have "
                "different numbers of children, expected a dragonfly, fat tree or HyperX (a "
                "tree-leaf target is regular), or target=split", p->name);
    return FALSE;
  }
  int cap = MAX(p->cores_per_node, 1), k = (g->n + cap - 1) / cap;
  gboolean ok = TRUE;
  if (g->n > 0) {
    GArray *nodes = g_array_new(FALSE, FALSE, sizeof(int));
    choose_nodes(&h, p, 0, k, nodes);
    if (use_tleaf) {
      ok = tleaf(ctx, &h, (int *)(void *)nodes->data, k, cap, m, error);
    } else {
      split_ctx s = { &h, p, g, ctx->seed, cap, g_new(int, g->n), m };
      int *tasks = g_new(int, g->n);
      for (int i = 0; i < g->n; i++) {
        tasks[i] = i;
        s.local[i] = -1;
      }
      ok = split(&s, 0, tasks, g->n, k, error);
      g_free(tasks);
      g_free(s.local);
    }
    g_array_free(nodes, TRUE);
  }
  hier_clear(&h);
  return ok;
}

const strategy strategy_hier = {
  .name = "hier",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "ranks grouped down the network's hierarchy: group, router, node (dragonfly); pod, "
             "leaf, node (fat tree); dimension rows (HyperX); a Slurm tree's switches",
  .paper = "Jeannot and Mercier, Euro-Par 2010 / IEEE TPDS 2014 (TreeMatch); Scotch's archTleaf",
  .params = hier_params,
  .places_slots = TRUE,
  .cost = "a Scotch partition per level of the hierarchy, O(E log n) each",
  .max_ranks = 262144,
  .run = run_hier,
};

/* ---- the hierarchy's grid for the strategies that need coordinates ------ */

platform *hier_grid_platform(const platform *p, GError **error)
{
  int radix[HIER_MAX_LEVELS], shape[TOPO_MAX_DIMS], n = hier_radices(p->topo, radix);
  if (p->topo->family == TOPO_FAMILY_DIRECT || n == 0)
    return NULL;
  /* at most 3 dimensions (the curves' limit): the fastest levels merge,
   * which keeps every node's id */
  while (n > 3) {
    radix[n - 2] *= radix[n - 1];
    n--;
  }
  topo_conn conn[TOPO_MAX_DIMS];
  for (int d = 0; d < n; d++) {
    shape[d] = radix[n - 1 - d]; /* the last level (nodes of a switch) fastest */
    conn[d] = TOPO_MESH;
  }
  topo *t = topo_new_regular(n, shape, conn, error);
  router *r = t ? router_new(t, NULL, error) : NULL;
  if (!r) {
    topo_free(t);
    return NULL;
  }
  platform *grid = g_new(platform, 1);
  *grid = *p;
  grid->topo = t;
  grid->router = r;
  grid->names = NULL;
  grid->link_type = g_new0(uint8_t, MAX(t->nlinks, 1));
  grid->link_bw = g_new(double, MAX(t->nlinks, 1));
  grid->link_lat = g_new(double, MAX(t->nlinks, 1));
  for (int l = 0; l < t->nlinks; l++) {
    grid->link_bw[l] = p->linktypes[0].bandwidth;
    grid->link_lat[l] = p->linktypes[0].latency;
  }
  return grid;
}

void hier_grid_free(platform *grid)
{
  if (!grid)
    return;
  router_free(grid->router);
  topo_free(grid->topo);
  g_free(grid->link_type);
  g_free(grid->link_bw);
  g_free(grid->link_lat);
  g_free(grid);
}
