/* nearest.c - findNearest by spiral enumeration, by a free-count tree, or
 * breadth-first (see nearest.h; bhatele2010 Section 10.1, Appendix B).
 *
 * Cost of one search: spiral O(nodes within the answer's distance); tree
 * about O(log^2 N) when free nodes are spread (the thesis's estimate) and
 * never worse than visiting every box once; BFS O(nodes + links) in the
 * worst case. Taking a slot costs O(1) (spiral, BFS) or O(log N) (tree).
 */
#include "mapping/nearest.h"

#include <string.h>

static gboolean has_coords(const nearest_free *n)
{
  return n->h.fast;
}

int nearest_free_centre(nearest_free *n)
{
  const topo *t = n->p->topo;
  if (!topo_is_regular(t))
    return nearest_free_find(n, n->p->alloc[n->p->nalloc / 2]);
  int c[TOPO_MAX_DIMS];
  for (int d = 0; d < t->ndims; d++)
    c[d] = (t->shape[d] - 1) / 2;
  return nearest_free_find(n, topo_node(t, c));
}

/* ---- spiral ---- */

typedef struct spiral {
  const nearest_free *n;
  int c[TOPO_MAX_DIMS];      /* the wanted node's coordinates */
  int x[TOPO_MAX_DIMS];      /* the coordinates being enumerated */
  int maxd[TOPO_MAX_DIMS];   /* per dimension: the largest distance from c */
  int rest[TOPO_MAX_DIMS + 1]; /* sum of maxd over dimensions >= d (crossbar excluded) */
  int best;
} spiral;

static void consider(spiral *s)
{
  int v = 0;
  const topo *t = s->n->p->topo;
  for (int d = 0; d < t->ndims; d++)
    v += s->x[d] * t->stride[d];
  if (s->n->slots[v] > 0 && (s->best < 0 || v < s->best))
    s->best = v;
}

/* Nodes whose per-dimension distances over dimensions >= d sum to `rem`
 * (the crossbar dimension stays at the wanted layer). */
static void shell_rec(spiral *s, int d, int rem)
{
  const hop_table *h = &s->n->h;
  if (d == h->nd) {
    if (rem == 0)
      consider(s);
    return;
  }
  if (d == h->t->crossbar_dim) {
    s->x[d] = s->c[d];
    shell_rec(s, d + 1, rem);
    return;
  }
  if (rem > s->rest[d])
    return;
  int X = h->t->shape[d];
  for (int k = 0; k <= MIN(rem, s->maxd[d]); k++) {
    int cand[2], nc = 0;
    if (h->t->conn[d] == TOPO_TORUS) {
      cand[nc++] = (s->c[d] + k) % X;
      int other = ((s->c[d] - k) % X + X) % X;
      if (other != cand[0])
        cand[nc++] = other;
    } else {
      if (s->c[d] - k >= 0)
        cand[nc++] = s->c[d] - k;
      if (k > 0 && s->c[d] + k < X)
        cand[nc++] = s->c[d] + k;
    }
    for (int i = 0; i < nc; i++) {
      s->x[d] = cand[i];
      shell_rec(s, d + 1, rem - k);
    }
  }
}

/* Every node of crossbar layer z. */
static void layer_scan(spiral *s, int z)
{
  const hop_table *h = &s->n->h;
  for (int d = 0; d < h->nd; d++)
    s->x[d] = 0;
  s->x[h->t->crossbar_dim] = z;
  for (;;) {
    consider(s);
    int d = 0;
    for (; d < h->nd; d++) {
      if (d == h->t->crossbar_dim)
        continue;
      if (++s->x[d] < h->t->shape[d])
        break;
      s->x[d] = 0;
    }
    if (d == h->nd)
      return;
  }
}

static int spiral_find(const nearest_free *n, int node)
{
  const hop_table *h = &n->h;
  spiral s = { .n = n, .best = -1 };
  const topo *t = h->t;
  int cd = t->crossbar_dim;
  for (int d = 0; d < h->nd; d++) {
    s.c[d] = h->c[(size_t)node * h->nd + d];
    s.maxd[d] = t->conn[d] == TOPO_TORUS ? t->shape[d] / 2 : MAX(s.c[d], t->shape[d] - 1 - s.c[d]);
  }
  s.rest[h->nd] = 0;
  for (int d = h->nd - 1; d >= 0; d--)
    s.rest[d] = s.rest[d + 1] + (d == cd ? 0 : s.maxd[d]);
  int zmax = cd >= 0 ? MAX(s.c[cd], t->shape[cd] - 1 - s.c[cd]) : 0;
  for (int dist = 0; dist <= MAX(s.rest[0], zmax); dist++) {
    shell_rec(&s, 0, dist);
    if (cd >= 0 && dist > 0) { /* whole layers dist away across the crossbar */
      if (s.c[cd] - dist >= 0)
        layer_scan(&s, s.c[cd] - dist);
      if (s.c[cd] + dist < t->shape[cd])
        layer_scan(&s, s.c[cd] + dist);
    }
    if (s.best >= 0)
      return s.best;
  }
  return -1;
}

/* ---- tree ---- */

/* Fills box `id` with the box lo..hi and, unless it is one node, its two
 * halves (consecutive boxes) recursively; free counts summed bottom-up. */
static void tree_fill(nearest_free *n, int id, const int *lo, const int *hi, int parent)
{
  const topo *t = n->p->topo;
  nearest_free_box *b = &n->box[id];
  b->parent = parent;
  b->child = -1;
  b->node = -1;
  int split = -1, ext = 1;
  for (int d = 0; d < t->ndims; d++) {
    b->lo[d] = lo[d];
    b->hi[d] = hi[d];
    if (hi[d] - lo[d] + 1 > ext)
      ext = hi[d] - lo[d] + 1, split = d;
  }
  if (split < 0) {
    int v = 0;
    for (int d = 0; d < t->ndims; d++)
      v += lo[d] * t->stride[d];
    b->node = v;
    b->free = n->slots[v];
    n->leaf[v] = id;
    return;
  }
  int l_hi[TOPO_MAX_DIMS], r_lo[TOPO_MAX_DIMS];
  memcpy(l_hi, hi, sizeof(int) * (size_t)t->ndims);
  memcpy(r_lo, lo, sizeof(int) * (size_t)t->ndims);
  l_hi[split] = lo[split] + ext / 2 - 1;
  r_lo[split] = lo[split] + ext / 2;
  int first = n->nbox;
  n->nbox += 2;
  b->child = first;
  tree_fill(n, first, lo, l_hi, id);
  tree_fill(n, first + 1, r_lo, hi, id);
  b->free = n->box[first].free + n->box[first + 1].free;
}

/* Lower bound of the hops from coordinates c to any node of box b. */
static int box_lb(const nearest_free *n, const int *c, const nearest_free_box *b)
{
  const hop_table *h = &n->h;
  int in_layer = 0;
  for (int d = 0; d < h->nd; d++) {
    if (d == h->t->crossbar_dim)
      continue;
    int lo = b->lo[d], hi = b->hi[d], x = c[d], dist = 0;
    if (x < lo || x > hi) /* the nearer end, round the ring on a torus */
      dist = MIN(topo_dim_distance(h->t, d, x, lo), topo_dim_distance(h->t, d, x, hi));
    in_layer += dist;
  }
  if (h->t->crossbar_dim < 0)
    return in_layer;
  int z = c[h->t->crossbar_dim], zlo = b->lo[h->t->crossbar_dim], zhi = b->hi[h->t->crossbar_dim];
  if (z < zlo)
    return zlo - z;
  if (z > zhi)
    return z - zhi;
  /* the wanted layer is inside: that layer at in_layer, others at >= 1 */
  return zlo < zhi ? MIN(in_layer, 1) : in_layer;
}

static int box_min_id(const nearest_free *n, const nearest_free_box *b)
{
  const topo *t = n->p->topo;
  int v = 0;
  for (int d = 0; d < t->ndims; d++)
    v += b->lo[d] * t->stride[d];
  return v;
}

typedef struct tree_search {
  const nearest_free *n;
  int target;
  int c[TOPO_MAX_DIMS];
  int best, bestd;
} tree_search;

static void tree_rec(tree_search *s, int id)
{
  const nearest_free_box *b = &s->n->box[id];
  if (b->free <= 0)
    return;
  if (b->child < 0) {
    int d = hop_table_get(&s->n->h, s->target, b->node);
    if (s->best < 0 || d < s->bestd || (d == s->bestd && b->node < s->best))
      s->best = b->node, s->bestd = d;
    return;
  }
  int k[2] = { b->child, b->child + 1 }, lb[2];
  for (int i = 0; i < 2; i++)
    lb[i] = box_lb(s->n, s->c, &s->n->box[k[i]]);
  int first = lb[1] < lb[0] ? 1 : 0;
  for (int j = 0; j < 2; j++) {
    int i = j ? 1 - first : first;
    const nearest_free_box *ch = &s->n->box[k[i]];
    if (ch->free <= 0)
      continue;
    if (s->best >= 0 &&
        (lb[i] > s->bestd || (lb[i] == s->bestd && box_min_id(s->n, ch) >= s->best)))
      continue;
    tree_rec(s, k[i]);
  }
}

static int tree_find(const nearest_free *n, int node)
{
  tree_search s = { .n = n, .target = node, .best = -1, .bestd = 0 };
  for (int d = 0; d < n->h.nd; d++)
    s.c[d] = n->h.c[(size_t)node * n->h.nd + d];
  tree_rec(&s, 0);
  return s.best;
}

/* ---- BFS ---- */

static int bfs_find(nearest_free *n, int node)
{
  node_bfs *b = &n->bfs;
  node_bfs_start(b);
  node_bfs_add(b, node);
  int best = -1, best_level = -1;
  for (int v; (v = node_bfs_next(b)) >= 0;) {
    if (best >= 0 && b->level > best_level)
      break;
    if (n->slots[v] > 0 && (best < 0 || v < best))
      best = v, best_level = b->level;
  }
  if (best < 0) /* not reachable over links: any free node */
    for (int i = 0; i < n->p->nalloc && best < 0; i++)
      if (n->slots[n->p->alloc[i]] > 0)
        best = n->p->alloc[i];
  return best;
}

/* ---- interface ---- */

void nearest_free_init(nearest_free *n, const platform *p, nearest_free_kind kind)
{
  memset(n, 0, sizeof *n);
  n->p = p;
  hop_table_init(&n->h, p);
  int nn = p->topo->nnodes;
  n->slots = g_new0(int, nn);
  for (int i = 0; i < p->nalloc; i++)
    n->slots[p->alloc[i]] = p->cores_per_node;
  n->left = p->nalloc * p->cores_per_node;
  if (!has_coords(n))
    kind = NEAREST_FREE_BFS;
  else if (kind == NEAREST_FREE_AUTO)
    kind = p->nalloc > NEAREST_FREE_TREE_ABOVE ? NEAREST_FREE_TREE : NEAREST_FREE_SPIRAL;
  n->kind = kind;
  if (kind == NEAREST_FREE_TREE) {
    n->box = g_new(nearest_free_box, 2 * (size_t)nn + 1);
    n->leaf = g_new(int, nn);
    int lo[TOPO_MAX_DIMS], hi[TOPO_MAX_DIMS];
    for (int d = 0; d < p->topo->ndims; d++)
      lo[d] = 0, hi[d] = p->topo->shape[d] - 1;
    n->nbox = 1;
    tree_fill(n, 0, lo, hi, -1);
  } else if (kind == NEAREST_FREE_BFS) {
    node_bfs_init(&n->bfs, p->topo);
  }
}

void nearest_free_clear(nearest_free *n)
{
  hop_table_clear(&n->h);
  g_free(n->slots);
  g_free(n->box);
  g_free(n->leaf);
  if (n->kind == NEAREST_FREE_BFS)
    node_bfs_clear(&n->bfs);
  memset(n, 0, sizeof *n);
}

int nearest_free_find(nearest_free *n, int node)
{
  if (n->left <= 0)
    return -1;
  if (n->slots[node] > 0)
    return node;
  switch (n->kind) {
  case NEAREST_FREE_TREE:
    return tree_find(n, node);
  case NEAREST_FREE_BFS:
    return bfs_find(n, node);
  default:
    return spiral_find(n, node);
  }
}

void nearest_free_take(nearest_free *n, int node)
{
  g_assert(n->slots[node] > 0);
  n->slots[node]--;
  n->left--;
  if (n->kind == NEAREST_FREE_TREE)
    for (int b = n->leaf[node]; b >= 0; b = n->box[b].parent)
      n->box[b].free--;
}
