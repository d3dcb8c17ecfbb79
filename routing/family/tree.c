/* tree.c - a tree of switches as a scheduler describes it: Slurm's
 * topology/tree (topology.conf SwitchName lines, topology.yaml switches)
 * and topology/block (blocks under aggregates), built by
 * platform-slurm.c. Unlike an XGFT (fattree.c) the tree may be irregular:
 * leaf switches with different numbers of nodes, subtrees of different
 * depths.
 *
 * Levels follow Slurm's switch levels plus one: nodes are level 0, a
 * switch with nodes (or none) level 1, any other switch one above its
 * highest child. The link between vertex v and its parent has the slot
 * level(parent) - 1 - "node" for the links into leaf switches, then
 * "level2", "level3" ..., as on a fat tree - and the classes slot up and
 * slot down. Links: the k-th non-root vertex (in id order) has its up link
 * 2k and its down link 2k + 1. One path joins two nodes: up to their
 * lowest common switch and down (routing `minimal`).
 *
 * Costs: a route or distance O(depth), facts O(vertices).
 */
#include "routing/family/family-private.h"

#include "routing/platform-private.h"

#include <string.h>

/* The parameters of t, a tree of switches (the family's own hooks: t->state). */
static inline const topo_tree *tree_of(const topo *t)
{
  return t->state;
}

const topo_tree *topo_tree_of(const topo *t)
{
  return t && t->ops == &family_tree_ops ? t->state : NULL;
}

static void tree_free_state(void *state)
{
  topo_tree *tr = state;
  g_free(tr->parent);
  g_free(tr->level);
  g_free(tr->depth);
  g_free(tr->up_link);
  g_free(tr);
}


static gboolean tree_invalid(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean tree_invalid(GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(error, TOPO_ERROR, TOPO_ERROR_INVALID, msg);
  g_free(msg);
  return FALSE;
}

/* Vertices by depth, the root first (a counting sort). */
static void by_depth(const int *depth, int n, int *order)
{
  int bucket[TOPO_MAX_LEVELS + 2] = { 0 };
  for (int v = 0; v < n; v++)
    bucket[depth[v] + 1]++;
  for (int d = 0; d <= TOPO_MAX_LEVELS; d++)
    bucket[d + 1] += bucket[d];
  for (int v = 0; v < n; v++)
    order[bucket[depth[v]]++] = v;
}

/* Depths, the root and levels (a switch one above its highest child, at
 * least 1); FALSE on a node with children, a vertex without a parent that
 * is not the one root, a cycle, or a tree deeper than TOPO_MAX_LEVELS. */
static gboolean tree_levels(int nodes, int n, const int *parent, int *level, int *depth,
                            int *root, GError **error)
{
  *root = -1;
  for (int v = 0; v < n; v++) {
    depth[v] = -1;
    if (parent[v] < 0 && (v < nodes || *root >= 0))
      return v < nodes ? tree_invalid(error, "tree: node %d has no switch above it", v)
                       : tree_invalid(error, "tree: switch %d is a second root", v - nodes);
    if (parent[v] < 0)
      *root = v;
    else if (parent[v] < nodes || parent[v] >= n)
      return tree_invalid(error, "tree: vertex %d hangs off no switch", v);
  }
  if (*root < 0)
    return tree_invalid(error, "tree of %d switches has no root (a cycle)", n - nodes);
  depth[*root] = 0;
  for (int v = 0; v < n; v++) {
    /* walk up to a vertex of known depth, then fill the path back */
    int u = v, steps = 0;
    while (depth[u] < 0 && steps <= n) {
      u = parent[u];
      steps++;
    }
    if (steps > n)
      return tree_invalid(error, "tree: switch %d is its own ancestor", v - nodes);
    for (int w = v, d = depth[u] + steps; w != u; w = parent[w], d--)
      depth[w] = d;
    if (depth[v] > TOPO_MAX_LEVELS)
      return tree_invalid(error, "tree: vertex %d lies more than 8 switches below the root", v);
  }
  int *order = g_new(int, n);
  by_depth(depth, n, order);
  for (int v = 0; v < n; v++)
    level[v] = v >= nodes;
  for (int i = n - 1; i > 0; i--) { /* deepest first: children before parents */
    int v = order[i];
    level[parent[v]] = MAX(level[parent[v]], level[v] + 1);
  }
  g_free(order);
  return TRUE;
}

topo *topo_new_tree(int nodes, int switches, const int *parent, GError **error)
{
  int64_t n = (int64_t)nodes + switches;
  if (nodes < 1 || switches < 1 || n >= TOPO_MAX_NODES) {
    g_set_error(error, TOPO_ERROR, TOPO_ERROR_INVALID,
                "tree of %d nodes and %d switches, expected at least one of each and fewer "
                "than %d in all", nodes, switches, TOPO_MAX_NODES);
    return NULL;
  }
  int *level = g_new(int, n), *depth = g_new(int, n), root;
  if (!tree_levels(nodes, (int)n, parent, level, depth, &root, error)) {
    g_free(level);
    g_free(depth);
    return NULL;
  }
  int levels = level[root];
  topo *t = family_alloc(&family_tree_ops, nodes, switches, 2 * (n - 1), 2 * levels, error);
  if (!t) {
    g_free(level);
    g_free(depth);
    return NULL;
  }
  topo_tree *tr = g_new0(topo_tree, 1);
  t->state = tr;
  tr->levels = levels;
  tr->root = root;
  tr->parent = g_memdup2(parent, sizeof(int) * (size_t)n);
  tr->level = level;
  tr->depth = depth;
  tr->up_link = g_new(int, n);
  for (int v = 0, k = 0; v < n; v++) {
    if (v == root) {
      tr->up_link[v] = -1;
      continue;
    }
    int slot = level[parent[v]] - 1;
    tr->up_link[v] = 2 * k;
    family_set_link(t, 2 * k, v, parent[v], 2 * slot);
    family_set_link(t, 2 * k + 1, parent[v], v, 2 * slot + 1);
    k++;
  }
  family_finish(t);
  return t;
}

static char *tree_describe(const topo *t)
{
  return g_strdup_printf("tree of %d switches in %d level%s", t->nswitches, tree_of(t)->levels,
                         tree_of(t)->levels == 1 ? "" : "s");
}

static int tree_nslots(const topo *t)
{
  return tree_of(t)->levels;
}

static int tree_reverse_link(const topo *t, int l)
{
  return l ^ 1;
}

/* The lowest common switch of a and b. */
static int lowest_common(const topo_tree *tr, int a, int b)
{
  while (tr->depth[a] > tr->depth[b])
    a = tr->parent[a];
  while (tr->depth[b] > tr->depth[a])
    b = tr->parent[b];
  while (a != b) {
    a = tr->parent[a];
    b = tr->parent[b];
  }
  return a;
}

static int tree_hops(const topo *t, int a, int b)
{
  const topo_tree *tr = tree_of(t);
  return tr->depth[a] + tr->depth[b] - 2 * tr->depth[lowest_common(tr, a, b)];
}

static int tree_route(const router *r, int s, int d, uint64_t key, route_path path, int variant,
                      int *links)
{
  const topo_tree *tr = tree_of(r->t);
  int top = lowest_common(tr, s, d), n = 0, down = tr->depth[d] - tr->depth[top];
  for (int u = s; u != top; u = tr->parent[u])
    links[n++] = tr->up_link[u];
  n += down;
  for (int u = d, k = n - 1; u != top; u = tr->parent[u])
    links[k--] = tr->up_link[u] + 1;
  return n;
}

/* Nodes below each vertex into below[], deepest and second deepest node
 * depth among different children into far[2 v], far[2 v + 1]. */
static void subtree_counts(const topo *t, int *below, int *far)
{
  const topo_tree *tr = tree_of(t);
  int n = t->nnodes, nodes = topo_compute_nodes(t);
  int *order = g_new(int, n);
  by_depth(tr->depth, n, order);
  for (int v = 0; v < n; v++) {
    below[v] = v < nodes;
    far[2 * v] = far[2 * v + 1] = v < nodes ? tr->depth[v] : -1;
  }
  for (int i = n - 1; i >= 0; i--) { /* deepest first: children before parents */
    int v = order[i], u = tr->parent[v];
    if (u < 0)
      continue;
    below[u] += below[v];
    int deep = far[2 * v];
    if (deep > far[2 * u]) {
      far[2 * u + 1] = far[2 * u];
      far[2 * u] = deep;
    } else if (deep > far[2 * u + 1]) {
      far[2 * u + 1] = deep;
    }
  }
  g_free(order);
}

static void tree_facts(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  const topo_tree *tr = tree_of(t);
  int n = t->nnodes;
  double N = topo_compute_nodes(t), total = 0;
  int *below = g_new(int, n), *far = g_new(int, 2 * (size_t)n);
  subtree_counts(t, below, far);
  /* every cable lies on the paths of the pairs it separates, both ways */
  for (int v = 0; v < n; v++)
    if (v != tr->root)
      total += 2.0 * below[v] * (N - below[v]);
  f->avg_distance = N > 1 ? total / family_pairs(N) : 0;
  f->diameter = 0;
  for (int s = topo_compute_nodes(t); s < n; s++)
    if (far[2 * s + 1] >= 0)
      f->diameter = MAX(f->diameter, far[2 * s] + far[2 * s + 1] - 2 * tr->depth[s]);
  /* the root's first children in id order that hold at most half the
   * nodes (at least one) against the rest: their cables to the root */
  int half = 0, children = 0, cut = 0, ends[4] = { -1, -1, -1, -1 };
  for (int v = 0; v < n; v++) {
    if (tr->parent[v] != tr->root)
      continue;
    children++;
    if (cut == children - 1 && (cut == 0 || 2 * (half + below[v]) <= N)) {
      half += below[v];
      cut++;
      f->bisection_links += 2;
      f->bisection_bw += p->link_bw[tr->up_link[v]] + p->link_bw[tr->up_link[v] + 1];
      ends[0] = ends[0] < 0 ? v : ends[0];
      ends[1] = v;
    } else {
      ends[2] = ends[2] < 0 ? v : ends[2];
      ends[3] = v;
    }
  }
  if (children > 1) {
    f->bisection_dim = 0;
    char side[2][24];
    for (int k = 0; k < 2; k++) {
      int a = ends[2 * k], b = ends[2 * k + 1];
      if (p->names)
        g_snprintf(side[k], sizeof side[k], a == b ? "%s" : "%s..%s", p->names[a], p->names[b]);
      else
        g_snprintf(side[k], sizeof side[k], a == b ? "sw%d" : "sw%d..sw%d",
                   a - topo_compute_nodes(t), b - topo_compute_nodes(t));
    }
    g_snprintf(f->cut, sizeof f->cut, "below the top: %s | %s", side[0], side[1]);
  } else {
    f->bisection_links = 0;
    f->bisection_bw = 0;
  }
  g_free(below);
  g_free(far);
}

static const family_routing tree_routings[] = {
  { .name = "minimal", .algo = ROUTE_ALGO_MINIMAL, .flags = 0,
    .summary = "up to the lowest common switch and down (a tree's one path)" },
};

static const char *const tree_keys[] = { "kind", "slurm", "slurm_topology", NULL };

/* Slurm's topology.conf or topology.yaml (platform-slurm.c) */
static topo *tree_read(GKeyFile *kf, const char *path, const char *dir, platform *p,
                       GError **error)
{
  return platform_slurm_tree(kf, path, dir, p, error);
}

const family_ops family_tree_ops = {
  .name = "tree",
  .text = "tree of switches",
  .kind = TOPO_FAMILY_TREE,
  .keys = tree_keys,
  .routings = tree_routings,
  .nroutings = G_N_ELEMENTS(tree_routings),
  .read = tree_read,
  .describe = tree_describe,
  .class_name = family_level_class_name,
  .reverse_link = tree_reverse_link,
  .nslots = tree_nslots,
  .slot_name = family_level_slot_name,
  .slot_of_class = family_level_slot_of_class,
  .hops = tree_hops,
  .route = tree_route,
  .facts = tree_facts,
  .draw = family_draw_levels,
  .free_state = tree_free_state,
};
