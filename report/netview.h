/* netview.h - a switch-based network's link loads as a few matrices, the
 * view the report's network figure (fig-network.c) and `mapsim show`
 * draw:
 *  - dragonfly: the busiest global link from group to group (a g x g
 *    matrix: the bytes between groups when one cable joins each pair),
 *    the busier node link of every router (group down, router across),
 *    and inside the groups with the most local bytes the local link from
 *    router to router (a x a);
 *  - fat tree and tree of switches (Slurm's): per level, each switch's
 *    busiest link up and busiest link down (two rows, one column per
 *    switch, top level first), and the nodes' links up and down;
 *  - HyperX: per dimension, the busiest link from coordinate to
 *    coordinate over all lines along it, and the switch grid coloured by
 *    each switch's busiest link of that dimension; the nodes' links per
 *    switch.
 * Each family draws its own (family_ops.draw, in routing/family/); this
 * folds the panels and frees them.
 * Every cell is one link's value or the largest of several (never a sum),
 * so one colour scale of per-link values serves every cell and every run
 * compared. Cells with no link are NAN; columns beyond `max_cols` are
 * folded, each the largest of a run of switches (the panel says so).
 *
 * Ownership: net_view_new() returns a view freed with net_view_free(); it
 * copies what it needs. Not for: direct networks (meshes, tori, graphs:
 * fig-links.c draws those).
 */
#pragma once

#include "routing/family/family.h"
#include "routing/platform.h"

G_BEGIN_DECLS

typedef family_panel net_panel; /* routing/family/family.h */

typedef struct net_view {
  int npanels;
  net_panel *panels;
} net_view;

/* The view of p's per-link values `value` (nlinks); NULL on a direct
 * network. */
net_view *net_view_new(const platform *p, const double *value, int max_cols);
void net_view_free(net_view *v);

G_END_DECLS
