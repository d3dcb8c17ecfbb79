/* stencil.h - test inputs for the mapping tests: Cartesian stencil
 * communication graphs (rank = x + X*(y + Y*z), dimension 0 fastest) and a
 * seeded irregular graph. Static inline helpers, test-only. */
#pragma once

#include <glib.h>

#include "traces/commgraph.h"

/* A 2*nd-point stencil on an nd-dimensional grid dims[]; periodic wraps
 * around, otherwise borders have fewer neighbours. Bytes of an edge along
 * dimension d: bytes[d] (or 1000 when bytes is NULL). */
static inline commgraph *st_stencil(int nd, const int *dims, gboolean periodic,
                                    const int64_t *bytes)
{
  int n = 1;
  for (int d = 0; d < nd; d++)
    n *= dims[d];
  GArray *s = g_array_new(FALSE, FALSE, sizeof(int)), *t = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *b = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (int r = 0; r < n; r++) {
    int c[8], rem = r, stride = 1;
    for (int d = 0; d < nd; d++)
      c[d] = rem % dims[d], rem /= dims[d];
    for (int d = 0; d < nd; stride *= dims[d], d++)
      for (int dir = -1; dir <= 1; dir += 2) {
        int x = c[d] + dir;
        if (x < 0 || x >= dims[d]) {
          if (!periodic || dims[d] < 3)
            continue;
          x = (x + dims[d]) % dims[d];
        }
        int q = r + (x - c[d]) * stride;
        int64_t w = bytes ? bytes[d] : 1000;
        g_array_append_val(s, r);
        g_array_append_val(t, q);
        g_array_append_val(b, w);
      }
  }
  commgraph *g = commgraph_from_edges(n, (int)s->len, (int *)(void *)s->data,
                                      (int *)(void *)t->data, (int64_t *)(void *)b->data, NULL);
  g_array_free(s, TRUE);
  g_array_free(t, TRUE);
  g_array_free(b, TRUE);
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
