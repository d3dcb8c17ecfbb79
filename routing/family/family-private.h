/* family-private.h - what the indirect network families (dragonfly.c,
 * fattree.c, hyperx.c, tree.c) offer the rest of routing/: one ops table each, so
 * topology.c, route.c, facts.c and the platform builder dispatch on the
 * family in one place, and the building blocks they share. Not installed,
 * not for other folders.
 */
#pragma once

#include "routing/facts.h"
#include "routing/route.h"

typedef struct family_ops {
  const char *name;
  /* "dragonfly g=9 a=4 p=2 h=1 relative"; caller frees */
  char *(*describe)(const topo *t);
  /* link class c's name (topo_class_name) */
  void (*class_name)(const topo *t, int c, char *buf, size_t size);
  /* the other direction of link l's cable */
  int (*reverse_link)(const topo *t, int l);
  /* link types: `nslots` keys of [links] (node, local, global ...), the
   * name of slot s, and the slot of link class c */
  int (*nslots)(const topo *t);
  void (*slot_name)(const topo *t, int s, char *buf, size_t size);
  int (*slot_of_class)(const topo *t, int c);
  /* length of the minimal routes between compute nodes a != b */
  int (*hops)(const topo *t, int a, int b);
  /* the links of the route src -> dst (compute nodes, src != dst) into
   * links[0 .. ROUTE_FAMILY_MAX_HOPS - 1]; returns their count. `variant`
   * picks among a minimal-adaptive routing's paths (HyperX: the rotation
   * of the dimension order); 0 is the routing's own */
  int (*route)(const router *r, int src, int dst, uint64_t key, route_path path, int variant,
               int *links);
  /* diameter, average distance and bisection (f->nodes and f->links set) */
  void (*facts)(const platform *p, platform_facts *f);
} family_ops;

extern const family_ops family_dragonfly_ops;
extern const family_ops family_fattree_ops;
extern const family_ops family_hyperx_ops;
extern const family_ops family_tree_ops;

/* family.c: the ops of t's family; NULL for direct networks. */
const family_ops *family_of(const topo *t);

/* A topo of `nodes` nodes and `switches` switches with room for `links`
 * links of `nclasses` classes, after the limit and budget checks
 * (TOPO_ERROR_INVALID, BUDGET_ERROR). */
topo *family_alloc(topo_family family, int64_t nodes, int64_t switches, int64_t links,
                   int nclasses, GError **error);

/* Sets link l (no dimension, direction +). */
void family_set_link(topo *t, int l, int src, int dst, int cls);

/* Builds out_off/out_link once every link is set. */
void family_finish(topo *t);

/* fattree.c: the link types and classes of trees of levels (fat trees,
 * trees of switches): slot 0 "node", slot s "level{s+1}" (the cables into
 * level s + 1); class 2 s up, 2 s + 1 down ("level2 up"). */
void family_level_slot_name(const topo *t, int s, char *buf, size_t size);
void family_level_class_name(const topo *t, int c, char *buf, size_t size);
int family_level_slot_of_class(const topo *t, int c);

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
