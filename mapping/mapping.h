/* mapping.h - where each rank (task) lives: task -> node.
 *
 * A mapping file is text: one `rank node` pair per line, `#` comments,
 * blank lines ignored. A valid mapping names every rank 0..ntasks-1 exactly
 * once, only nodes of the platform's allocation, and at most
 * cores_per_node ranks per node.
 *
 * A SimGrid/smpirun hostfile is accepted wherever a mapping file is (its
 * first line that is not blank or a `#` comment is one word): one host a
 * line, by a name the platform gives its nodes (a SimGrid platform's host
 * ids) or a node id, `HOST:N` standing for N lines of HOST; rank i goes to
 * the i-th entry, as smpirun places them, and when the ranks outnumber
 * the entries they start again from the first.
 *
 * Ownership: a mapping owns its array; free with mapping_free().
 * Not for: choosing a mapping (mapping/strategy.h) or measuring one
 * (mapping/metrics.h).
 */
#pragma once

#include "routing/platform.h"

G_BEGIN_DECLS

#define MAPPING_ERROR (mapping_error_quark())
GQuark mapping_error_quark(void);

typedef enum {
  MAPPING_ERROR_IO,
  MAPPING_ERROR_PARSE,
  MAPPING_ERROR_INVALID, /* out of range, not allocated, over capacity, missing rank */
} MappingError;

typedef struct mapping {
  int ntasks;
  int *node; /* ntasks: node id of each task */
} mapping;

/* A mapping of ntasks tasks, every task on node -1 (unmapped). */
mapping *mapping_new(int ntasks);

mapping *mapping_copy(const mapping *m);

void mapping_free(mapping *m);

/* Rank r on allocated node r / platform_ranks_per_node() (block,
 * "SMP-style", the fill rule): the default placement (korndoerfer2021's
 * "sweep"). Fails when the ranks do not fit the allocation. */
mapping *mapping_identity(const platform *p, int ntasks, GError **error);

/* Checks a mapping against the platform (see the header paragraph). */
gboolean mapping_validate(const mapping *m, const platform *p, GError **error);

/* Reads a mapping file for ntasks ranks (0: as many as the file has
 * `rank node` lines, and a file without one fails) and validates it. */
mapping *mapping_load(const char *path, const platform *p, int ntasks, GError **error);

/* Writes a mapping file atomically (util/output.h: temporary file + rename;
 * symbolic links written through, devices and FIFOs directly). */
gboolean mapping_save(const mapping *m, const char *path, const char *comment, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(mapping, mapping_free)

G_END_DECLS
