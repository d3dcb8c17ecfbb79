/* rank.h - strategies ranked within the groups of a study, with the
 * change against identity: the report's and the terminal's rankings,
 * compare's rank column and the rank column of a study's results.
 *
 * One ranking per (input, kind, model, platform) of a study: each
 * strategy's value of the ranking metric - the simulated time chosen in
 * the study's [report] time (default makespan_s) for traces, the static
 * metric of [report] rank-static (default hop_bytes) for matrices -
 * averaged over seeds, best (lowest) first, and its change against the
 * reference in percent (negative: better; the same convention as
 * `compare`): the identity mapping, else sweep (korndoerfer2021 Section
 * 6.2 takes sweep, the same order on a full allocation, as the default).
 * study_rank_each_seed() ranks each seed on its own, one cell per strategy.
 *
 * Ties: strategies whose results are equal (study/stats.h: within a
 * relative 1e-9 with one seed, by a paired t-test over the seeds with
 * several) share a rank - the rank of the first of them, as in "1, 1, 3"
 * - and every output shows them as ties ("=1"). A strategy ties with the
 * best of its group, so a chain of small steps never joins far-apart
 * values.
 *
 * Ownership: study_rank() returns an array of rank_group the caller frees
 * with g_ptr_array_unref(); groups point into the study, which must
 * outlive them. Not for: drawing or printing.
 */
#pragma once

#include "study/study.h"

G_BEGIN_DECLS

typedef struct rank_entry {
  int strategy;      /* index in the study */
  double value;      /* mean over the seeds that ran, NAN when every cell failed */
  double change;     /* 100 (value - reference) / reference: negative is better; NAN without one */
  int nvalues;
  int rank;          /* 1-based; equal for tied entries; 0 when failed */
  gboolean tied;     /* shares its rank with another entry */
} rank_entry;

typedef struct rank_group {
  int input, kind, model, platform; /* model -1: static input */
  int seed;          /* the seed ranked alone (an index), or -1: the mean over every seed */
  char *metric;      /* the column ranked by, e.g. "makespan_s" or "pre_hop_bytes" */
  int reference;     /* strategy index of the reference, or -1 */
  double ref_value;
  int n;
  rank_entry *e;     /* best first; failed strategies last */
} rank_group;

/* The column a ranking of input `input` uses (caller frees). */
char *study_rank_metric(const study *s, int input);

/* The reference strategy (identity, else sweep), or -1. */
int study_reference(const study *s);

/* Mean of column `name` over the seeds of one (input, kind, platform,
 * strategy, model); NAN when no cell has it. */
double study_mean(const study *s, int input, int kind, int platform, int strategy, int model,
                  const char *name, int *n);

GPtrArray *study_rank(const study *s);

/* "3", or "=1" for a tied entry, "-" for a failed one. */
void rank_text(char *buf, size_t n, const rank_entry *e);

/* A change in percent as people read it: "+38.3%", "-0.037%" (as many
 * digits as a change below 0.1% needs to show its sign honestly), "0%"
 * when `equal` (the values are equal, stats_equal) - never "-0.0%". */
void rank_change_text(char *buf, size_t n, double change, gboolean equal);

/* The fewest significant digits, at least `digits` and at most 17, with
 * which `fmt` prints every two neighbouring entries of different rank
 * differently (values apart are never shown alike). */
typedef void (*rank_format_fn)(char *buf, size_t n, double v, int digits, const void *user);
int rank_digits(const rank_group *g, int digits, rank_format_fn fmt, const void *user);

/* rank_change_text of an entry against its group's reference. */
void rank_entry_change_text(char *buf, size_t n, const rank_group *g, const rank_entry *e);

/* The same with another reference strategy (an index, or -1: none). */
GPtrArray *study_rank_against(const study *s, int reference);

/* The rank of every cell among the strategies of its (input, kind,
 * platform, model, seed) - study_rank_each_seed() - into ranks[0..ncells-1];
 * 0 for a cell without a value of the ranking metric (failed). */
void study_cell_ranks(const study *s, int *ranks);

G_END_DECLS
