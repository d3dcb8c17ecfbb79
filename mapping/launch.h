/* launch.h - a mapping as the files MPI launchers read to place ranks.
 *
 * MPI libraries' own rank reordering (MPI_Cart_create's reorder, MPICH's
 * and Open MPI's) does not move ranks in practice, so a mapping is only
 * useful when the launcher applies it. Formats (registry `launch_formats`):
 *   openmpi-rankfile  `rank R=HOST slot=S` per rank, S the rank's place
 *                     among the ranks of its node (rank order); on one
 *                     host for all, every rank its own slot, the nodes'
 *                     ranks one after the other in node id order:
 *                     mpirun --rankfile FILE -np N ./app
 *   mpich-rank-order  Cray MPICH's MPICH_RANK_ORDER: per node, in the
 *                     platform's allocation order, the comma-separated
 *                     ranks it holds; every node but the last must hold
 *                     the same number (MPICH_RANK_REORDER_METHOD=3 deals
 *                     the listed ranks out that many per node)
 *   slurm-hostfile    one host per rank, rank order:
 *                     SLURM_HOSTFILE=FILE srun --distribution=arbitrary -n N ./app
 *   hostfile          the same lines, for MPICH's mpiexec -f FILE, Open
 *                     MPI's mpirun --hostfile FILE --map-by seq, SimGrid's
 *                     smpirun -hostfile FILE
 *
 * Host names (host_names_new): the platform's own (a Slurm topology's node
 * names), a pattern with one integer conversion
 * (`node-%d`, `nid%05d`: the platform's node id) or a file of names, one
 * per line (`#` comments), either one per platform node in node id order,
 * one per allocated node in allocation order, or a single one (the whole
 * job on one machine). A launcher's hostfile
 * line, Open MPI's `host slots=N ...` or MPICH's `host:N`, names `host`.
 *
 * Ownership: host_names_new() returns names freed with host_names_free();
 * the rest borrows. Not for: choosing mappings (strategy.h), the mapping
 * file format (mapping.h).
 */
#pragma once

#include <stdio.h>

#include "mapping/mapping.h"

G_BEGIN_DECLS

#define LAUNCH_ERROR (launch_error_quark())
GQuark launch_error_quark(void);

typedef enum {
  LAUNCH_ERROR_HOSTS,   /* a bad pattern or names file */
  LAUNCH_ERROR_FORMAT,  /* unknown format, or one that cannot express the mapping */
} LaunchError;

typedef struct host_names host_names;

/* The host names when none are given: the node id after "node-", as the
 * SimGrid platform export names its hosts. */
#define LAUNCH_DEFAULT_HOSTS "node-%d"

/* Names of the platform's nodes: from the file `spec` when it exists, else
 * from `spec` as a pattern; with spec NULL the names the platform gives
 * (p->names: Slurm's topology), else LAUNCH_DEFAULT_HOSTS. One line
 * `file:line: what, expected what` (or naming the pattern) on error. */
host_names *host_names_new(const platform *p, const char *spec, GError **error);
void host_names_free(host_names *h);

typedef struct launch_format {
  const char *name;
  const char *summary;
  const char *usage;   /* the command that applies the file (FILE, N placeholders);
                        * alternatives (other launchers) on lines of their own */
  gboolean (*write)(FILE *f, const mapping *m, const platform *p, const host_names *h,
                    GError **error);
} launch_format;

extern const launch_format launch_formats[];
extern const int launch_nformats;

/* The format called `name`; NULL (and LAUNCH_ERROR_FORMAT listing them)
 * when there is none. */
const launch_format *launch_format_lookup(const char *name, GError **error);

/* Writes the launcher file of `m` to `path` atomically (util/output.h). */
gboolean launch_save(const launch_format *fmt, const mapping *m, const platform *p,
                     const host_names *h, const char *path, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(host_names, host_names_free)

G_END_DECLS
