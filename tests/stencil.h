/* stencil.h - test inputs for the mapping tests: Cartesian stencil
 * communication graphs (rank = x + X*(y + Y*z), dimension 0 fastest), a
 * seeded irregular graph, and any graph with its ranks renumbered.
 * Static inline helpers, test-only. */
#pragma once

#include <glib.h>

#include "traces/commgraph.h"

/* A 2*nd-point stencil (traces/commgraph.h, commgraph_stencil). */
static inline commgraph *st_stencil(int nd, const int *dims, gboolean periodic,
                                    const int64_t *bytes)
{
  return commgraph_stencil(nd, dims, periodic, bytes);
}

/* A ring of n ranks, `bytes` each way between neighbours. */
static inline commgraph *st_ring(int n, int64_t bytes)
{
  int *s = g_new(int, 2 * n), *t = g_new(int, 2 * n);
  int64_t *b = g_new(int64_t, 2 * n);
  for (int i = 0; i < n; i++) {
    s[2 * i] = i, t[2 * i] = (i + 1) % n, b[2 * i] = bytes;
    s[2 * i + 1] = (i + 1) % n, t[2 * i + 1] = i, b[2 * i + 1] = bytes;
  }
  commgraph *g = commgraph_from_edges(n, 2 * n, s, t, b, NULL);
  g_free(s);
  g_free(t);
  g_free(b);
  return g;
}

/* A seeded irregular graph: each rank sends to `deg` random others. */
static inline commgraph *st_random_graph(int n, int deg, guint32 seed)
{
  GRand *rng = g_rand_new_with_seed(seed);
  int m = n * deg;
  int *s = g_new(int, m), *t = g_new(int, m);
  int64_t *b = g_new(int64_t, m);
  for (int i = 0; i < m; i++) {
    s[i] = i / deg;
    t[i] = g_rand_int_range(rng, 0, n);
    b[i] = g_rand_int_range(rng, 1, 100000);
  }
  commgraph *g = commgraph_from_edges(n, m, s, t, b, NULL);
  g_free(s);
  g_free(t);
  g_free(b);
  g_rand_free(rng);
  return g;
}

/* g's ranks relabelled by a seeded random permutation. */
static inline commgraph *st_renumbered(const commgraph *g, guint32 seed)
{
  int *label = g_new(int, g->n);
  for (int i = 0; i < g->n; i++)
    label[i] = i;
  GRand *r = g_rand_new_with_seed(seed);
  for (int i = g->n - 1; i > 0; i--) {
    int j = g_rand_int_range(r, 0, i + 1), t = label[i];
    label[i] = label[j];
    label[j] = t;
  }
  g_rand_free(r);
  int *src = g_new(int, g->nedges + 1), *dst = g_new(int, g->nedges + 1);
  for (int i = 0; i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++)
      src[e] = label[i], dst[e] = label[g->adj[e]];
  commgraph *out = commgraph_from_edges(g->n, g->nedges, src, dst, g->bytes, g->msgs);
  g_free(src);
  g_free(dst);
  g_free(label);
  return out;
}
