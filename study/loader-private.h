/* loader-private.h - what the two sources of the study file reader
 * share (file.c: the file, its groups and inputs; lists.c: list entries
 * naming groups, globs and sweeps, platforms and strategies; jobs.c: its
 * jobs files and policies). The file is read line-aware by util/ini.h.
 * Private to study/.
 *
 * Every problem is collected with its line (ini_problem) and reported
 * together once the whole file was read; nothing is run before.
 */
#pragma once

#include "study/study-private.h"
#include "util/ini.h"

G_BEGIN_DECLS

typedef struct loader {
  ini_file ini;
  gboolean bad_collectives;  /* traces cannot be expanded */
  int nentries;              /* platform entries read so far */
  study *s;
} loader;

/* A platform or allocation spec: a path when it looks like one (a '/',
 * an .ini or .json name) or names a file in the base folder, else the text
 * itself (a shorthand like torus:4x4x4, random:32:1). */
char *loader_resolve_spec(const loader *L, const char *spec);

/* [study] jobs and policies (study/jobs.c): the jobs files loaded, the
 * policies checked. */
void study_read_jobs(loader *L);

/* Platforms and strategies of the file (study/lists.c). */
void loader_read_platforms(loader *L);
void loader_read_strategies(loader *L);

G_END_DECLS
