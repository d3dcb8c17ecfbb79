/* family.h - the topology families behind one ops table each, and their
 * registry: what a family is (its INI keys and shorthand, its link
 * classes, distances, routes, closed-form facts and hierarchy) and the
 * rows of its routings (name, summary, the hooks an adaptive model and a
 * packet model ask). Every family of mapsim is one file of this folder
 * (torus.c: mesh, torus and HAEC Box; graph.c: graphs and route tables;
 * dragonfly.c, fattree.c, hyperx.c, tree.c) and one row of family.c's
 * registry; family_register adds one at run time (a test's own family).
 *
 * A family's ops table is static data it owns; the registry borrows it
 * (it must outlive every topology of the family). Lists printed for users
 * (the routings of `simulate --help`, `mapsim routings`, the shorthand
 * help) are generated from these tables. Not for: building platforms
 * (platform.h), timing (models/).
 */
#pragma once

#include "routing/facts.h"
#include "routing/route.h"

G_BEGIN_DECLS

/* One matrix of a family's drawing (the draw hook): per-link values
 * placed by the family, each cell one link's value or the largest of
 * several; report/netview.h calls it net_panel. */
typedef struct family_panel {
  char *title;             /* what the cells are */
  char *row_label, *col_label;
  int rows, cols;
  double *value;           /* rows x cols, row-major; NAN: no link */
  char **row_names;        /* rows, or NULL: 0, 1, ... */
  char **col_names;        /* cols, or NULL: 0, 1, ... */
  char *note;              /* folded columns or groups left out, or NULL */
} family_panel;

/* One routing of a family. The hooks are NULL when the routing has the
 * default: one candidate, the source sees its output port (links 0 and
 * 1), one virtual-channel class. */
typedef struct family_routing {
  const char *name;
  int algo;              /* route_algo of the built-in routings; a family's own number else */
  unsigned flags;        /* ROUTE_FLAG_* */
  const char *summary;   /* one line for `mapsim routings` and the help */
  /* the candidate paths of an adaptive routing (route_candidates) */
  int (*candidates)(const router *r);
  /* how many leading links of a candidate its source sees (route_seen_links) */
  int (*seen_links)(const router *r, const int *links, int nlinks);
  /* virtual channels a finite-buffer packet model needs, and the links
   * that step to the next one (route_vc_classes, route_vc_step) */
  int (*vc_classes)(const router *r);
  gboolean (*vc_step)(const router *r, int link);
  /* the router that takes the non-minimal path (router_nonminimal_view);
   * NULL: the routing itself */
  const struct family_routing *nonminimal;
} family_routing;

/* One KEY=VALUE of a family's shorthand: the INI key it sets. */
typedef struct family_param {
  const char *key;        /* "g" */
  const char *group;      /* "topology" */
  const char *ini;        /* "groups" */
  const char *help;       /* "groups" */
} family_param;

typedef struct family_ops {
  const char *name;       /* [topology] kind, the shorthand's first word: "dragonfly" */
  const char *text;       /* in messages: "dragonfly", "fat tree" */
  /* the family consumers outside routing/ still switch on (a run-time
   * family says how to treat it: TOPO_FAMILY_DIRECT for a graph) */
  topo_family kind;
  /* [topology] keys (NULL-terminated) */
  const char *const *keys;
  /* shorthand keys, the first positional segment's INI key (NULL: none;
   * hyperx: "shape") and its usage line for the help */
  const family_param *params;
  int nparams;
  const char *positional;
  const char *usage;       /* "dragonfly:g=G:a=A:p=P:h=H" (NULL: no shorthand) */
  const char *usage_more;  /* the rest of the help's usage, or NULL */
  /* routings, the first the default */
  const family_routing *routings;
  int nroutings;
  /* the shorthand's link types, named as the classes they will get
   * (node, local, global ...), from its segments parts[1 ..] */
  int (*shorthand_slots)(char **parts, char names[][16], int max);
  /* a shorthand segment that is not KEY=VALUE: 1 taken into kf, 0 bad
   * (error set), -1 not the family's (NULL: none is) */
  int (*shorthand_segment)(GKeyFile *kf, const char *spec, const char *seg, GError **error);
  /* builds the topology from [topology] (files relative to dir) */
  topo *(*read)(GKeyFile *kf, const char *path, const char *dir, platform *p, GError **error);
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
   * of the dimension order); 0 is the routing's own. NULL for families
   * that walk hop by hop (walk_begin, walk_next) */
  int (*route)(const router *r, int src, int dst, uint64_t key, route_path path, int variant,
               int *links);
  /* the router's tables of a family that routes from them (graph.c:
   * shortest paths); NULL: none */
  gboolean (*router_init)(router *r, GError **error);
  void (*walk_begin)(route_iter *it);
  gboolean (*walk_next)(route_iter *it, int *link);
  /* diameter, average distance and bisection (f->nodes and f->links set) */
  void (*facts)(const platform *p, platform_facts *f);
  /* the levels of its hierarchy, top first, each the children of one
   * vertex of the level above (dragonfly: groups, routers, nodes per
   * router); 0 when it has none. Levels of one child included */
  int (*hierarchy)(const topo *t, int *radix);
  /* the SimGrid cluster zone that routes p exactly as mapsim does
   * ("TORUS", "FAT_TREE", "DRAGONFLY"; NULL: none; the links are uniform,
   * platform-simgrid.c checks that), and its topo_parameters into
   * *parameters when not NULL (caller frees) */
  const char *(*simgrid_zone)(const platform *p, char **parameters);
  /* its drawing as a graph: p's per-link values `value` (nlinks) as
   * family_panel matrices appended to `panels` (report/netview.h folds
   * and frees them); NULL: none (direct networks: fig-links.c draws
   * those) */
  void (*draw)(const platform *p, const double *value, GArray *panels);
  /* frees t->state, the family's parameters (NULL: it holds none) */
  void (*free_state)(void *state);
} family_ops;

/* Adds a family to the registry (after the built-in ones); its name must
 * be new. */
void family_register(const family_ops *ops);

/* The registered families, in order. */
int family_count(void);
const family_ops *family_at(int i);

/* The family called `name` ([topology] kind, shorthand), or NULL. */
const family_ops *family_find(const char *name);

/* Every family's routings for a help text: "dor (mesh/torus); ...;
 * minimal, valiant or ugal (dragonfly); ..." (aliases left out); caller
 * frees. */
char *family_routings_text(void);

/* The ops of t's family. */
const family_ops *family_of(const topo *t);

/* A topo of `nodes` nodes and `switches` switches with room for `links`
 * links of `nclasses` classes, after the limit and budget checks
 * (TOPO_ERROR_INVALID, BUDGET_ERROR). */
topo *family_alloc(const family_ops *ops, int64_t nodes, int64_t switches, int64_t links,
                   int nclasses, GError **error);

/* Sets link l (no dimension, direction +). */
void family_set_link(topo *t, int l, int src, int dst, int cls);

/* Builds out_off/out_link once every link is set. */
void family_finish(topo *t);

G_END_DECLS
