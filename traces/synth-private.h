/* synth-private.h - what synth.c (records, the blocking check, the
 * streaming writer) and synth-patterns.c (the pattern table and its pair
 * builders) share: the generator's state and one exchange slot. Not for
 * users of traces/ (synth.h is the interface).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "traces/synth.h"
#include "traces/trace.h"

/* One exchange slot: send `bytes` to `to` and receive from `from` (either
 * -1 for none), both with `tag`. Blocking mode makes it one MPI_Sendrecv. */
typedef struct {
  int to, from;
  int64_t to_bytes, from_bytes;
  uint32_t tag;
} xpair;

struct synth_gen {
  trace *t;
  const synth_opts *o;
  int64_t *clock;
  uint64_t *req;
  GRand **rng;
  GArray **pairs;  /* per rank: xpair of one iteration */
};
typedef synth_gen gen; /* the short name both files use */

/* Fills g->pairs with the exchanges of one iteration of every rank for
 * the pattern named by g->o->pattern (its row in synth_patterns); FALSE +
 * SYNTH_ERROR naming the expected patterns for an unknown one. */
gboolean synth_make_pairs(synth_gen *g, GError **error);
