/* study-loader.h - what the two sources of the study file reader share
 * (study-file.c: the file, its groups and inputs; study-lists.c: list
 * entries naming groups, globs and sweeps, platforms and strategies), and
 * the line-aware INI reading the jobs file (jobs.c) shares with them,
 * study-loader.c. Private to sim/.
 *
 * Every problem is collected with its line (loader_problem) and reported
 * together once the whole file was read; nothing is run before.
 */
#pragma once

#include "sim/study-private.h"

G_BEGIN_DECLS

typedef struct loader {
  const char *path;        /* shown in messages */
  const char *base;        /* relative paths start here */
  GKeyFile *kf;
  GHashTable *lines;       /* "group" and "group\nkey" -> line */
  GArray *problems;
  gboolean bad_collectives;  /* traces cannot be expanded */
  int nentries;              /* platform entries read so far */
  study *s;
} loader;

/* Starts reading `text` (from `path`; relative paths from `base`): the
 * line of every group and key, a problem for each line that is no [group],
 * key = value or comment (or a key before the first group, `first` naming
 * the group expected first), then the key file. */
void loader_open(loader *L, const char *path, const char *base, const char *text,
                 const char *first);

/* Ends it: TRUE when there was no problem, else FALSE and one error of
 * `domain` and `code` listing every problem by line, "PATH:LINE: what,
 * expected what", one per line. Frees what loader_open made. */
gboolean loader_close(loader *L, GQuark domain, int code, GError **error);

void loader_problem(loader *L, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* The line of [group] (key NULL) or of its key; 0 when absent. */
int loader_line(const loader *L, const char *group, const char *key);

/* The items of a ';' list, trimmed, empty ones dropped; NULL when the key
 * is absent (a problem when it is empty). */
char **loader_list(loader *L, const char *group, const char *key);

/* The same with every brace sweep expanded in place ({1..8}). */
char **loader_list_expanded(loader *L, const char *group, const char *key);

/* A value, trimmed; NULL when absent (a problem when empty). */
char *loader_string(loader *L, const char *group, const char *key);

/* A problem for every key of `group` not in `known` (NULL-terminated). */
void loader_check_keys(loader *L, const char *group, const char *const *known);

/* A path from the study file: absolute, or relative to the base folder. */
char *loader_resolve(const loader *L, const char *path);

/* A platform or allocation spec: a path when it looks like one (a '/',
 * an .ini or .json name) or names a file in the base folder, else the text
 * itself (a shorthand like torus:4x4x4, random:32:1). */
char *loader_resolve_spec(const loader *L, const char *spec);

/* Label of a path: the file's name without extension, or the trace
 * folder's name. */
char *loader_path_label(const char *path);

/* When `item` of a list is the label of a group "PREFIX ITEM" ([input cg],
 * [platform torus8]): TRUE and the group's name in *group, which the list
 * now places; or TRUE, *group NULL and a problem when it also names a
 * file (passing the test `file`; 0: no file counts) or is `also` (NULL, or
 * "a strategy pipeline"), or when listed before. FALSE: not a label, an
 * entry of its own. Labels never hold a '/'. */
gboolean loader_listed_group(loader *L, const char *prefix, const char *item, int line,
                             GFileTest file, const char *also, GHashTable *listed, char **group);

/* [study] jobs and policies (study-jobs.c): the jobs files loaded, the
 * policies checked. */
void study_read_jobs(loader *L);

/* Platforms and strategies of the file (study-lists.c). */
void loader_read_platforms(loader *L);
void loader_read_strategies(loader *L);

G_END_DECLS
