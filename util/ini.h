/* ini.h - line-aware reading of INI files (GKeyFile underneath): the line
 * of every group and key, so that every problem names its line; problems
 * collected while the whole file is read and reported together at the
 * end, one per line, "PATH:LINE: what, expected what". Study files and
 * jobs files are read with it.
 *
 * The syntax, as people write it: `[group]` lines, `key = value` lines; a
 * comment is a line starting with # or ;, or the rest of a line from a #
 * at its start or after a blank (`alloc = random:16:1   # a policy`; a #
 * right after other text, `run#3`, is text). Lists separate their entries
 * by ';' (ini_list), so in a list ';' is no comment; in a single value
 * (ini_string) a ';' at its start or after a blank starts one too. A group
 * or a key given twice is a problem naming both lines; so is a list entry
 * holding ", " outside braces that names no file (lists use ';'), and an
 * unknown key or group, with the nearest known one (util/suggest.h).
 *
 * Ownership: an ini_file lives on the caller's stack between ini_open and
 * ini_close, which frees what it holds; the path and base it is given are
 * borrowed and must outlive it. Strings and lists returned are the
 * caller's. Not for: what the keys mean (the readers above decide), files
 * that are not INI (platform files have their own loaders in routing/).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef struct ini_file {
  const char *path;        /* shown in messages */
  const char *base;        /* relative paths start here */
  GKeyFile *kf;
  GHashTable *lines;       /* "group" and "group\nkey" -> line */
  GArray *problems;
} ini_file;

/* Starts reading `text` (from `path`; relative paths from `base`): the
 * line of every group and key, a problem for each line that is no [group],
 * key = value or comment (or a key before the first group, `first` naming
 * the group expected first), then the key file. */
void ini_open(ini_file *f, const char *path, const char *base, const char *text,
              const char *first);

/* Ends it: TRUE when there was no problem, else FALSE and one error of
 * `domain` and `code` listing every problem by line, one per line. Frees
 * what ini_open made. */
gboolean ini_close(ini_file *f, GQuark domain, int code, GError **error);

void ini_problem(ini_file *f, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* The line of [group] (key NULL) or of its key; 0 when absent. */
int ini_line(const ini_file *f, const char *group, const char *key);

/* The items of a ';' list, trimmed, empty ones dropped; NULL when the key
 * is absent (a problem when it is empty). */
char **ini_list(ini_file *f, const char *group, const char *key);

/* The same with every brace sweep expanded in place ({1..8}, util/sweep.h). */
char **ini_list_expanded(ini_file *f, const char *group, const char *key);

/* How many entries ini_list_expanded() would give (0: the key is absent),
 * counted without expanding a sweep and without a problem: what a reader
 * checks against its limits before it expands anything. */
int64_t ini_list_count(const ini_file *f, const char *group, const char *key);

/* A value, trimmed; NULL when absent (a problem when empty). */
char *ini_string(ini_file *f, const char *group, const char *key);

/* A problem for every key of `group` not in `known` (NULL-terminated),
 * naming the nearest known key when one is close. */
void ini_check_keys(ini_file *f, const char *group, const char *const *known);

/* TRUE when `group` is one of `known`: a name ("study") or a prefix ending
 * in a blank ("platform ") followed by a label. Else FALSE and a problem
 * "unknown group [G] (did you mean [N]?), expected EXPECTED". */
gboolean ini_known_group(ini_file *f, const char *group, const char *const *known,
                         const char *expected);

/* A problem for every entry of the list `group` `key` whose id (ids[i]:
 * what items[i] means - a seed's value, a model's index; NULL: the text
 * itself) an earlier entry has, naming both entries' positions. */
void ini_check_distinct(ini_file *f, const char *group, const char *key, char *const *items,
                        const gint64 *ids, int n);

/* A path from the file: absolute, or relative to the base folder. */
char *ini_resolve(const ini_file *f, const char *path);

/* Label of a path: the file's name without extension, or the trace
 * folder's name. */
char *ini_path_label(const char *path);

/* When `item` of a list is the label of a group "PREFIX ITEM" ([input cg],
 * [platform torus8]): TRUE and the group's name in *group, which the list
 * now places; or TRUE, *group NULL and a problem when it also names a
 * file (passing the test `file`; 0: no file counts) or is `also` (NULL, or
 * "a strategy pipeline"), or when listed before. FALSE: not a label, an
 * entry of its own. Labels never hold a '/'. */
gboolean ini_listed_group(ini_file *f, const char *prefix, const char *item, int line,
                          GFileTest file, const char *also, GHashTable *listed, char **group);

G_END_DECLS
