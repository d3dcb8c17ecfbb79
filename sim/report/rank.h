/* rank.h - strategies ranked per platform, with the change against identity.
 *
 * One ranking per (input, kind, model, platform) of a study: each
 * strategy's value of the ranking metric - the simulated time chosen in
 * the study's [report] time (default makespan_s) for traces, the static
 * metric of [report] rank-static (default hop_bytes) for matrices -
 * averaged over seeds, best (lowest) first, and its change against the
 * reference in percent (negative: better; the same convention as
 * `compare`): the identity mapping, else sweep (korndoerfer2021 Section
 * 6.2 takes sweep, the same order on a full allocation, as the default).
 *
 * Ownership: report_rank() returns an array of rank_group the caller frees
 * with g_ptr_array_unref(); groups point into the study, which must
 * outlive them. Not for: drawing or printing.
 */
#pragma once

#include "sim/study.h"

G_BEGIN_DECLS

typedef struct rank_entry {
  int strategy;      /* index in the study */
  double value;      /* mean over the seeds that ran, NAN when every cell failed */
  double change;     /* 100 (value - reference) / reference: negative is better; NAN without one */
  int nvalues;
} rank_entry;

typedef struct rank_group {
  int input, kind, model, platform; /* model -1: static input */
  char *metric;      /* the column ranked by, e.g. "makespan_s" or "pre_hop_bytes" */
  int reference;     /* strategy index of the reference, or -1 */
  double ref_value;
  int n;
  rank_entry *e;     /* best first; failed strategies last */
} rank_group;

/* The column a ranking of input `input` uses (caller frees). */
char *report_rank_metric(const study *s, int input);

/* The reference strategy (identity, else sweep), or -1. */
int report_reference(const study *s);

/* Mean of column `name` over the seeds of one (input, kind, platform,
 * strategy, model); NAN when no cell has it. */
double report_mean(const study *s, int input, int kind, int platform, int strategy, int model,
                   const char *name, int *n);

GPtrArray *report_rank(const study *s);

/* The same with another reference strategy (an index, or -1: none). */
GPtrArray *report_rank_against(const study *s, int reference);

G_END_DECLS
