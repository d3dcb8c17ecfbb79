/* platform-private.h - what the platform loaders (INI, JSON, shorthand)
 * share inside routing/. Not installed, not for other folders. */
#pragma once

#include <errno.h>
#include <stdlib.h>

#include "routing/platform.h"

/* An empty platform remembering where it came from. */
platform *platform_alloc(const char *source);

/* Adds a link type; `where` prefixes errors ("file: [linktype.x]").
 * Returns its index, or -1 with `error` set. */
int platform_add_linktype(platform *p, const char *name, double bandwidth, double latency,
                          const char *where, GError **error);

/* Index of the link type called `name`, or -1. */
int platform_find_linktype(const platform *p, const char *name);

/* Builds a regular topology; pattern[d][0..pattern_len[d]-1] are link type
 * indices used for dimension d, cycling over the coordinate. */
gboolean platform_build_regular(platform *p, int ndims, const int *shape, const topo_conn *conn,
                                int *const *pattern, const int *pattern_len, GError **error);

/* Builds a graph topology from directed links with their types. */
gboolean platform_build_graph(platform *p, int nnodes, int nlinks, const int *src,
                              const int *dst, const uint8_t *type, GError **error);

/* Takes t and its per-link type indices (both owned from then on) as the
 * platform's topology; fills bandwidths and latencies. */
void platform_set_topo(platform *p, topo *t, uint8_t *link_type);

/* The link type [links] `key` names (or [links] default, or the only
 * type); -1 with `error` naming `path` and the key. */
int platform_links_type(GKeyFile *kf, const platform *p, const char *path, const char *key,
                        GError **error);
/* The link type called `name`, or the default when `name` is NULL ([links]
 * default, or the only type); -1 with `error` naming `path` and `field`. */
int platform_links_type_named(GKeyFile *kf, const platform *p, const char *path, const char *name,
                              const char *field, GError **error);

struct family_ops;
struct suggestion;

/* platform-family.c: the family [topology] kind names (NULL: a mesh,
 * torus or graph, no kind), after checking that [topology] and [links]
 * hold only its keys. */
gboolean platform_family_check_keys(GKeyFile *kf, const char *path,
                                    const struct family_ops **family, GError **error);

/* platform-family.c: the help lines of the family shorthands (dragonfly,
 * fattree, hyperx and those registered) and their parameters, appended to
 * s; and ", USAGE" of each, for messages, each family's name offered to
 * sg (util/suggest.h). */
void platform_family_shorthand_help(GString *s);
void platform_family_shorthand_usages(GString *s, struct suggestion *sg);

/* platform-family.c: builds a family's network and its link types
 * (files a key names are relative to `dir`). */
gboolean platform_build_family(platform *p, GKeyFile *kf, const char *path, const char *dir,
                               const struct family_ops *family, GError **error);

/* platform-family.c: [topology] integer `key` from lo to 2^24 (*out
 * untouched when absent and not required), and list `key` "4,4,4" into
 * v[] (its length, 0 when absent, -1 on error), for the family readers. */
gboolean platform_topology_int(GKeyFile *kf, const char *path, const char *key,
                               gboolean required, int lo, int *out, GError **error);
int platform_topology_list(GKeyFile *kf, const char *path, const char *key, int *v,
                           GError **error);

/* platform-slurm.c: TRUE when `path` is Slurm's topology.conf (by name or
 * its first word) or a topology.yaml. */
gboolean platform_slurm_file(const char *path);

/* platform-slurm.c: Slurm's topology file as the INI key file it stands
 * for ([topology] kind = tree, slurm = path, a link type per level);
 * NULL + error for a bad file. */
GKeyFile *platform_slurm_keyfile(const char *path, GError **error);

/* platform-slurm.c: the tree of [topology] slurm = FILE (relative to
 * `dir`; slurm_topology = NAME picks one of a topology.yaml's), its node
 * and switch names into p->names and notes into p->notes. */
topo *platform_slurm_tree(GKeyFile *kf, const char *path, const char *dir, platform *p,
                          GError **error);

/* platform-family.c: the key file a dragonfly:, fattree: or hyperx:
 * shorthand stands for; NULL without error for other kinds, NULL with
 * error for a bad one. */
GKeyFile *platform_family_shorthand(const char *spec, GError **error);

/* The value of shorthand parameter `key` as a number of `quantity`
 * (units allowed, util/units.h); PLATFORM_ERROR_PARSE naming the
 * shorthand `spec` and the key otherwise. */
gboolean platform_shorthand_number(const char *spec, const char *key, const char *value,
                                   units_quantity quantity, double *v, GError **error);

/* Creates the router (dimension `order` text or NULL) and the default
 * allocation (all nodes) when none was set. */
gboolean platform_finish(platform *p, const char *order, GError **error);

/* Loaders. `sets`: NULL-terminated GROUP.KEY=VALUE overrides, or NULL. */
platform *platform_load_ini(const char *path, const char *const *sets, GError **error);
platform *platform_load_json(const char *path, GError **error);
/* platform-sgxml.c: a SimGrid platform file (XML 4.x), and whether `path`
 * is one (it starts, after blanks, <?xml ...?> and comments, with
 * <!DOCTYPE platform or <platform). */
platform *platform_load_sgxml(const char *path, GError **error);
gboolean platform_sgxml_file(const char *path);
platform *platform_load_shorthand(const char *spec, const char *const *sets, GError **error);

/* The INI format from a key file built elsewhere (a shorthand): applies
 * `sets` (platform_load_with's rules), then builds; `source` names the
 * platform in messages. */
platform *platform_from_keyfile(GKeyFile *kf, const char *source, const char *const *sets,
                                GError **error);

/* A decimal integer `s` (all of it) within [lo, hi] into *out; FALSE
 * otherwise. The one reader of counts, ids and seeds in specs. */
static inline gboolean platform_parse_long(const char *s, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi)
    return FALSE;
  *out = v;
  return TRUE;
}
