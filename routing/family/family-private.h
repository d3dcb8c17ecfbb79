/* family-private.h - what the family files share inside routing/: their
 * ops tables (family.h has the type and the registry), the building
 * blocks of topology.c and the helpers their routes and facts use. Not
 * installed, not for other folders.
 */
#pragma once

#include "routing/family/family.h"

extern const family_ops family_torus_ops;
extern const family_ops family_graph_ops;
extern const family_ops family_dragonfly_ops;
extern const family_ops family_fattree_ops;
extern const family_ops family_hyperx_ops;
extern const family_ops family_tree_ops;

/* family.c: the reverse of link l found among its head's links. */
int family_reverse_by_scan(const topo *t, int l);

/* topology.c: the arrays of t's links and vertex offsets (t->nlinks,
 * t->nnodes set). */
topo *family_alloc_links(topo *t);

/* graph.c: diameter and average distance over every pair of nodes by
 * route_hops (graphs, route tables). */
void family_all_pairs(const platform *p, platform_facts *f);

/* The first of a family's rows that is not an alias: its default. */
static inline const family_routing *family_default_routing(const family_ops *f)
{
  for (int i = 0; i < f->nroutings; i++)
    if (!(f->routings[i].flags & ROUTE_FLAG_ALIAS))
      return &f->routings[i];
  return &f->routings[0];
}

/* fattree.c: the link types and classes of trees of levels (fat trees,
 * trees of switches): slot 0 "node", slot s "level{s+1}" (the cables into
 * level s + 1); class 2 s up, 2 s + 1 down ("level2 up"). */
void family_level_slot_name(const topo *t, int s, char *buf, size_t size);
void family_level_class_name(const topo *t, int c, char *buf, size_t size);
int family_level_slot_of_class(const topo *t, int c);

/* draw.c: a panel of rows x cols cells, all NAN, appended to `panels`
 * (title taken, labels copied); a cell that takes v when it is larger
 * (a NAN cell takes any value); the draw hook of trees of levels (fat
 * trees, trees of switches): per level, each switch's busiest link up and
 * down, top level first, then the nodes' links. */
family_panel *family_panel_add(GArray *panels, int rows, int cols, const char *row_label,
                               const char *col_label, char *title);
void family_panel_put(family_panel *q, int r, int c, double v);
void family_draw_levels(const platform *p, const double *value, GArray *panels);

/* A 64-bit mix of two values (splitmix64's finalizer over a ^ f(b)): the
 * one hash keyed routings draw from, so a key gives the same path in
 * every view. */
static inline uint64_t family_hash(uint64_t a, uint64_t b)
{
  uint64_t z = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* A value in [0, n) from hash h (n > 0). */
static inline int family_pick(uint64_t h, int n)
{
  return (int)(h % (uint64_t)n);
}

/* Takes the cut across dimension `dim` (links crossing both
 * ways, their bandwidth) as the bisection when it is the first or
 * cheaper than the one kept. */
static inline void facts_offer_dimension_cut(platform_facts *f, int dim, int links,
                                             double bw)
{
  if (f->bisection_dim >= 0 && bw >= f->bisection_bw)
    return;
  f->bisection_dim = dim;
  f->bisection_links = links;
  f->bisection_bw = bw;
  g_snprintf(f->cut, sizeof f->cut, "across %c", topo_dim_letter(dim));
}

/* Ordered pairs of distinct nodes as a double (for average distances). */
static inline double family_pairs(double n)
{
  return n * (n - 1);
}
