/* slurm-private.h - what platform-slurm.c's reader knows of a Slurm
 * topology file, for the files that turn it into a topology
 * (slurm-leafspine.c: a leaf-spine file as a fat tree). Not installed,
 * not for other folders.
 */
#pragma once

#include <glib.h>

#include "routing/topology.h"

G_BEGIN_DECLS

typedef struct sw_desc {
  char *name;
  int line;
  GPtrArray *nodes;    /* names under a leaf switch */
  GPtrArray *children; /* switch names */
  int parent;          /* index, or -1 */
} sw_desc;

typedef struct slurm_desc {
  const char *path;
  GPtrArray *sw;       /* sw_desc, in file order */
  GHashTable *index;   /* switch name -> index + 1 */
  gboolean block;
  GArray *block_sizes; /* int */
  int sizes_line;
  gboolean link_speed;
  GPtrArray *notes;    /* borrowed: the platform's, or NULL */
  gboolean counting;   /* the first pass: hostlists counted, not expanded */
  gint64 names;        /* names of all hostlists so far (each YAML alias's use too) */
  guint64 name_bytes;  /* what they will cost (SLURM_NAME_BYTES) */
} slurm_desc;

/* slurm-leafspine.c: a leaf-spine file - every switch a leaf (nodes
 * only, all of one size) or a spine (switches only), at least two spines,
 * each over every leaf - is no tree but the two-level fat tree
 * XGFT(2; k, L; 1, S) (fattree.c), with d's names into *names; *out NULL
 * when d is not one; FALSE only when the fat tree cannot be built. */
gboolean slurm_leaf_spine(slurm_desc *d, char ***names, topo **out, GError **error);

G_END_DECLS
