/* loader-private.h - what the two sources of the study file reader
 * share (file.c: the file, its groups and inputs; lists.c: list entries
 * naming groups, globs and sweeps, platforms and strategies; jobs.c: its
 * jobs files and policies). The file is read line-aware by util/ini.h.
 * Private to study/.
 *
 * Every problem is collected with its line (ini_problem) and reported
 * together once the whole file was read; nothing is run before. The file
 * is read in two steps: its entries listed and counted, then - unless the
 * study is too large (study/size.c), which is then its one problem beside
 * those of the listing - loaded.
 */
#pragma once

#include "study/study-private.h"
#include "util/ini.h"

G_BEGIN_DECLS

/* A platform entry of the file - a list item or a [platform L] group -
 * before its sweeps are expanded (study/lists.c). */
typedef struct listed_platform {
  char *group;               /* [platform L], or NULL: a list item */
  char *spec, *alloc, *fill;
  int cores, line;
  char **sets;               /* the study's overrides, then the group's own */
  int count;                 /* the platforms its sweeps give */
} listed_platform;

/* A strategy entry: a list item or a [strategy L] group's pipeline. */
typedef struct listed_strategy {
  char *label;               /* the group's label, or NULL: the pipeline */
  char *pipeline;
  int line;
  int count;                 /* the strategies its sweeps give */
} listed_strategy;

typedef struct loader {
  ini_file ini;
  gboolean bad_collectives;  /* traces cannot be expanded */
  int nentries;              /* platform entries read so far */
  GPtrArray *platforms_listed;  /* listed_platform, in the study's order */
  GPtrArray *strategies_listed; /* listed_strategy */
  GHashTable *strategy_labels;  /* label -> index + 1 of the strategies added */
  study *s;
} loader;

/* [study] jobs and policies (study/jobs.c): the jobs files loaded, the
 * policies checked. */
void study_read_jobs(loader *L);
/* Every mix placed on its platform once the platforms are loaded: a mix
 * that cannot run is a problem of the file (study/jobs.c). */
void study_check_jobs(loader *L);

/* Platforms and strategies of the file (study/lists.c): first listed
 * and counted (nothing loaded or expanded), then - once the study's size
 * is known to fit (study/size.c) - loaded and expanded. */
void loader_read_platforms(loader *L);
void loader_read_strategies(loader *L);
void loader_load_platforms(loader *L);
void loader_add_strategies(loader *L);

/* The cells and mixes the listed entries give, against STUDY_MAX_CELLS
 * and the memory budget (study/size.c): FALSE and a problem at the
 * [study] line when they do not fit, before anything is loaded. */
gboolean loader_check_size(loader *L);

/* Frees what the loader holds beside the ini file. */
void loader_clear(loader *L);

G_END_DECLS
