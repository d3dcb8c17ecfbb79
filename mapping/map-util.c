/* map-util.c - the shared machinery of greedy, wh, mc/mmc and kl: the
 * symmetric task graph (deveci2015 Section III assumes a symmetric G_t), an
 * indexed binary max-heap, a stamped BFS over the topology and exact swap
 * costs. Hop counts come from route_hops(), so costs agree with
 * metrics_compute() on every routing (DOR, HAEC Box, tables). */
#include "mapping/map-util.h"

#include <math.h>
#include <string.h>

#include "routing/energy.h"

/* ---- hop counts ---- */

void hop_table_init(hop_table *h, const platform *p)
{
  const topo *t = p->topo;
  memset(h, 0, sizeof *h);
  h->r = p->router;
  h->t = t;
  h->fast = topo_is_regular(t) && !p->router->path_off;
  if (!h->fast)
    return;
  h->nd = t->ndims;
  h->c = g_new(int, (size_t)t->nnodes * t->ndims);
  for (int v = 0; v < t->nnodes; v++)
    topo_coords(t, v, h->c + (size_t)v * t->ndims);
}

void hop_table_clear(hop_table *h)
{
  g_free(h->c);
  g_free(h->weight);
  g_free(h->table);
  h->c = NULL;
  h->weight = h->table = NULL;
}

/* The weighted length of the route a -> b. */
static int walk_weighted(const hop_table *h, int a, int b)
{
  route_iter it;
  int l, sum = 0;
  route_begin(&it, h->r, a, b, 0);
  while (route_next(&it, &l))
    sum += h->weight[l];
  return sum;
}

int hop_table_weighted(const hop_table *h, int a, int b)
{
  return h->table ? h->table[(size_t)a * h->t->nnodes + b] : walk_weighted(h, a, b);
}

/* Weighs hops by energy; plain hops stay when every link type costs the
 * same per byte (then hop-bytes rank mappings as the energy does). FALSE
 * + STRATEGY_ERROR_INPUT naming `who` when the links draw no power. */
static gboolean hop_table_use_energy(hop_table *h, const platform *p, const char *who,
                                     GError **error)
{
  if (!platform_has_power(p)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "%s: obj=energy, but the links of %s draw no power, expected a platform with "
                "power-idle and power-busy keys (configs/README.md) or obj=" STRATEGY_OBJECTIVE_DEFAULT, who,
                p->name);
    return FALSE;
  }
  double dearest = 0, cheapest = INFINITY;
  for (int i = 0; i < p->nlinktypes; i++) {
    double j = linktype_joules_per_byte(&p->linktypes[i]);
    dearest = MAX(dearest, j);
    cheapest = MIN(cheapest, j);
  }
  if (cheapest == dearest)
    return TRUE; /* energy = hop-bytes x a constant */
  const topo *t = p->topo;
  h->weight = g_new(int, MAX(t->nlinks, 1));
  for (int l = 0; l < t->nlinks; l++)
    h->weight[l] = (int)lround(HOP_TABLE_ENERGY_SCALE *
                               linktype_joules_per_byte(&p->linktypes[p->link_type[l]]) / dearest);
  if (t->nnodes > HOP_TABLE_ENERGY_TABLE)
    return TRUE;
  int *table = g_new(int, (size_t)t->nnodes * t->nnodes);
  for (int a = 0; a < t->nnodes; a++)
    for (int b = 0; b < t->nnodes; b++)
      table[(size_t)a * t->nnodes + b] = a == b ? 0 : walk_weighted(h, a, b);
  h->table = table;
  return TRUE;
}

/* ---- symmetric graph ---- */

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Merges the out edges and in edges of every task into one sorted list. */
void sym_graph_build(sym_graph *s, const commgraph *g)
{
  int n = g->n;
  int *deg = g_new0(int, n + 1);
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
      if (g->adj[e] != i) {
        deg[i]++;
        deg[g->adj[e]]++;
      }
  int *raw_off = g_new0(int, n + 1);
  for (int i = 0; i < n; i++)
    raw_off[i + 1] = raw_off[i] + deg[i];
  /* raw entries: (neighbour, index into the signed edge list) */
  int *raw = g_new(int, raw_off[n] ? raw_off[n] : 1);
  int64_t *rout = g_new(int64_t, raw_off[n] ? raw_off[n] : 1);
  int64_t *rin = g_new(int64_t, raw_off[n] ? raw_off[n] : 1);
  uint8_t *rdir = g_new(uint8_t, raw_off[n] ? raw_off[n] : 1);
  memset(deg, 0, sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int j = g->adj[e];
      if (j == i)
        continue;
      int a = raw_off[i] + deg[i]++, b = raw_off[j] + deg[j]++;
      raw[a] = j, rout[a] = g->bytes[e], rin[a] = 0, rdir[a] = 1;
      raw[b] = i, rout[b] = 0, rin[b] = g->bytes[e], rdir[b] = 2;
    }
  s->n = n;
  s->xadj = g_new0(int, n + 1);
  s->adj = g_new(int, raw_off[n] ? raw_off[n] : 1);
  s->wout = g_new(int64_t, raw_off[n] ? raw_off[n] : 1);
  s->win = g_new(int64_t, raw_off[n] ? raw_off[n] : 1);
  s->dir = g_new0(uint8_t, raw_off[n] ? raw_off[n] : 1);
  s->vol = g_new0(int64_t, n ? n : 1);
  int *order = g_new(int, 1);
  int k = 0;
  for (int i = 0; i < n; i++) {
    /* sort neighbours by id (insertion order is by id already for the out
     * part; merge duplicates i->j and j->i) */
    int lo = raw_off[i], len = raw_off[i + 1] - lo;
    order = g_renew(int, order, len ? len : 1);
    for (int x = 0; x < len; x++)
      order[x] = raw[lo + x];
    qsort(order, (size_t)len, sizeof(int), cmp_int);
    int start = k;
    for (int x = 0; x < len; x++)
      if (x == 0 || order[x] != order[x - 1]) {
        s->adj[k] = order[x];
        s->wout[k] = s->win[k] = 0;
        s->dir[k] = 0;
        k++;
      }
    /* accumulate weights: binary search each raw entry */
    for (int x = 0; x < len; x++) {
      int *hit = bsearch(&raw[lo + x], s->adj + start, (size_t)(k - start), sizeof(int), cmp_int);
      s->wout[hit - s->adj] += rout[lo + x];
      s->win[hit - s->adj] += rin[lo + x];
      s->dir[hit - s->adj] |= rdir[lo + x];
      s->vol[i] += rout[lo + x] + rin[lo + x];
    }
    s->xadj[i + 1] = k;
  }
  g_free(order);
  g_free(raw);
  g_free(rout);
  g_free(rin);
  g_free(rdir);
  g_free(raw_off);
  g_free(deg);
}

void sym_graph_clear(sym_graph *s)
{
  g_free(s->xadj);
  g_free(s->adj);
  g_free(s->wout);
  g_free(s->win);
  g_free(s->dir);
  g_free(s->vol);
  memset(s, 0, sizeof *s);
}

/* ---- indexed max-heap ---- */

void index_heap_init(index_heap *h, int cap)
{
  h->cap = cap;
  h->size = 0;
  h->heap = g_new(int, cap ? cap : 1);
  h->pos = g_new(int, cap ? cap : 1);
  h->key = g_new0(double, cap ? cap : 1);
  for (int i = 0; i < cap; i++)
    h->pos[i] = -1;
}

void index_heap_clear(index_heap *h)
{
  g_free(h->heap);
  g_free(h->pos);
  g_free(h->key);
  memset(h, 0, sizeof *h);
}

/* a above b: larger key, then lower id */
static inline gboolean above(const index_heap *h, int a, int b)
{
  return h->key[a] > h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static inline void put(index_heap *h, int i, int id)
{
  h->heap[i] = id;
  h->pos[id] = i;
}

static void sift_up(index_heap *h, int i)
{
  int id = h->heap[i];
  while (i > 0) {
    int parent = (i - 1) / 2;
    if (!above(h, id, h->heap[parent]))
      break;
    put(h, i, h->heap[parent]);
    i = parent;
  }
  put(h, i, id);
}

static void sift_down(index_heap *h, int i)
{
  int id = h->heap[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->size)
      break;
    if (c + 1 < h->size && above(h, h->heap[c + 1], h->heap[c]))
      c++;
    if (!above(h, h->heap[c], id))
      break;
    put(h, i, h->heap[c]);
    i = c;
  }
  put(h, i, id);
}

void index_heap_set(index_heap *h, int id, double key)
{
  if (h->pos[id] < 0) {
    h->key[id] = key;
    put(h, h->size++, id);
    sift_up(h, h->size - 1);
    return;
  }
  double old = h->key[id];
  h->key[id] = key;
  if (key > old)
    sift_up(h, h->pos[id]);
  else
    sift_down(h, h->pos[id]);
}

void index_heap_remove(index_heap *h, int id)
{
  int i = h->pos[id];
  if (i < 0)
    return;
  h->pos[id] = -1;
  if (--h->size == i)
    return;
  int moved = h->heap[h->size];
  put(h, i, moved);
  sift_up(h, i);
  sift_down(h, h->pos[moved]);
}

int index_heap_pop(index_heap *h)
{
  if (!h->size)
    return -1;
  int id = h->heap[0];
  index_heap_remove(h, id);
  return id;
}

/* ---- BFS over the topology ---- */

void node_bfs_init(node_bfs *b, const topo *t)
{
  b->t = t;
  b->nbr = g_new(int, t->nlinks ? t->nlinks : 1);
  for (int k = 0; k < t->nlinks; k++)
    b->nbr[k] = t->link_dst[t->out_link[k]];
  b->stamp = g_new0(int, t->nnodes);
  b->queue = g_new(int, t->nnodes);
  b->cur = 0;
  b->head = b->tail = b->level_end = b->level = 0;
}

void node_bfs_clear(node_bfs *b)
{
  g_free(b->nbr);
  g_free(b->stamp);
  g_free(b->queue);
  memset(b, 0, sizeof *b);
}

void node_bfs_start(node_bfs *b)
{
  if (++b->cur == G_MAXINT) { /* stamps wrapped: reset once */
    memset(b->stamp, 0, sizeof(int) * (size_t)b->t->nnodes);
    b->cur = 1;
  }
  b->head = b->tail = b->level_end = 0;
  b->level = -1;
}

int node_bfs_next(node_bfs *b)
{
  if (b->head == b->tail)
    return -1;
  if (b->head == b->level_end) { /* a new level starts */
    b->level++;
    b->level_end = b->tail;
  }
  int v = b->queue[b->head++];
  const int *off = b->t->out_off;
  for (int k = off[v]; k < off[v + 1]; k++)
    node_bfs_add(b, b->nbr[k]);
  return v;
}

/* ---- placement state ---- */

gboolean refine_state_init(refine_state *st, const strategy_ctx *ctx, mapping *m, const char *who,
                     GError **error)
{
  const platform *p = ctx->p;
  st->p = p;
  st->node = m->node;
  st->node_task = g_new(int, p->topo->nnodes);
  for (int v = 0; v < p->topo->nnodes; v++)
    st->node_task[v] = -1;
  for (int t = 0; t < m->ntasks; t++) {
    if (st->node_task[m->node[t]] >= 0) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                  "%s: node %d holds tasks %d and %d, expected one task per node", who,
                  m->node[t], st->node_task[m->node[t]], t);
      g_free(st->node_task);
      st->node_task = NULL;
      return FALSE;
    }
    st->node_task[m->node[t]] = t;
  }
  sym_graph_build(&st->s, ctx->g);
  hop_table_init(&st->h, p);
  return TRUE;
}

gboolean refine_state_objective(refine_state *st, const char *obj, const char *who, GError **error)
{
  const strategy_objective *o = strategy_objective_find(obj);
  g_assert(o && o->swaps); /* checked when the spec was parsed */
  return !o->needs_power || hop_table_use_energy(&st->h, st->p, who, error);
}

void refine_state_clear(refine_state *st)
{
  sym_graph_clear(&st->s);
  hop_table_clear(&st->h);
  g_free(st->node_task);
  st->node_task = NULL;
}

int64_t refine_state_cost(const refine_state *st, int t, int at, int skip)
{
  const sym_graph *s = &st->s;
  int64_t c = 0;
  for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++) {
    int n = s->adj[k];
    if (n == skip)
      continue;
    int v = st->node[n];
    if (v < 0 || v == at)
      continue;
    if (s->wout[k])
      c += s->wout[k] * hop_table_get(&st->h, at, v);
    if (s->win[k])
      c += s->win[k] * hop_table_get(&st->h, v, at);
  }
  return c;
}

int64_t refine_state_swap_delta(refine_state *st, int a, int b)
{
  int ta = st->node_task[a], tb = st->node_task[b];
  int64_t before = 0, after = 0;
  if (ta >= 0)
    before += refine_state_cost(st, ta, a, -1);
  if (tb >= 0)
    before += refine_state_cost(st, tb, b, ta);
  refine_state_swap(st, a, b);
  if (ta >= 0)
    after += refine_state_cost(st, ta, b, -1);
  if (tb >= 0)
    after += refine_state_cost(st, tb, a, ta);
  refine_state_swap(st, a, b);
  return after - before;
}

void refine_state_swap(refine_state *st, int a, int b)
{
  int ta = st->node_task[a], tb = st->node_task[b];
  st->node_task[a] = tb;
  st->node_task[b] = ta;
  if (ta >= 0)
    st->node[ta] = b;
  if (tb >= 0)
    st->node[tb] = a;
}

int64_t sym_graph_hop_bytes(const sym_graph *s, const hop_table *h, const int *node)
{
  int64_t c = 0;
  for (int t = 0; t < s->n; t++)
    for (int k = s->xadj[t]; k < s->xadj[t + 1]; k++)
      if (s->wout[k] && node[s->adj[k]] != node[t])
        c += s->wout[k] * hop_table_get(h, node[t], node[s->adj[k]]);
  return c;
}

int64_t refine_state_total(const refine_state *st)
{
  return sym_graph_hop_bytes(&st->s, &st->h, st->node);
}

commgraph *strategy_quotient(const commgraph *g, const int *part, int nparts)
{
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *bytes = g_array_new(FALSE, FALSE, sizeof(int64_t));
  GArray *msgs = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int a = part[i], b = part[g->adj[e]];
      if (a == b || a < 0 || b < 0)
        continue;
      int64_t mm = g->msgs ? g->msgs[e] : 1;
      g_array_append_val(src, a);
      g_array_append_val(dst, b);
      g_array_append_val(bytes, g->bytes[e]);
      g_array_append_val(msgs, mm);
    }
  commgraph *q = commgraph_from_edges(nparts, (int)src->len, (int *)(void *)src->data,
                                      (int *)(void *)dst->data, (int64_t *)(void *)bytes->data,
                                      g->msgs ? (int64_t *)(void *)msgs->data : NULL);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(bytes, TRUE);
  g_array_free(msgs, TRUE);
  return q;
}
