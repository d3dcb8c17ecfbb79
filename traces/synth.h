/* synth.h - synthetic MPI traces: communication patterns written as the
 * events Score-P would record for them.
 *
 * Patterns (`synth_patterns`, one row each):
 *   stencil2d/3d/4d  halo exchange on a process grid (dimension 0 fastest;
 *                    periodic or open; 2D 5- or 9-point, 3D 7-point, 4D
 *                    9-point); blocking = one MPI_Sendrecv per direction,
 *                    non-blocking = MPI_Irecv + MPI_Isend + MPI_Waitall
 *   ring             rank r sends to r+1 and receives from r-1
 *   alltoall         pairwise exchange: round k, r -> r+k, r <- r-k
 *   pingpong         ranks 2k and 2k+1: 2k sends (MPI_Send), 2k+1 receives
 *                    and sends the same size back (OSU's latency loop; a
 *                    last odd rank idles); always blocking
 *   cg               NAS-CG-like: on an R x C grid, log2 C row exchanges
 *                    (partner col ^ 2^k), a transpose exchange (square
 *                    grids) and an MPI_Allreduce of 16 bytes per iteration
 *   random           each rank sends to `degree` distinct random ranks
 *                    (seeded)
 *   shift            rank r sends to r + `shift` and receives from r -
 *                    `shift` (mod ranks): with shift = the nodes of a
 *                    dragonfly group it is the adversarial group shift of
 *                    Kim et al., ISCA 2008, Section 4.2
 *   bitcomp          bit complement: rank r exchanges with r XOR (P - 1),
 *                    P a power of two (Dally and Towles, "Principles and
 *                    practices of interconnection networks", 2004, 3.2)
 *   spmv             communication of y = A x for a MatrixMarket matrix A
 *                    and a row partition (deveci2015, Section IV-C: each
 *                    rank receives from the owner of every column it
 *                    needs, 8 bytes per distinct column)
 * Exchanges are blocking (one MPI_Sendrecv per message) or, with
 * `nonblocking`, MPI_Irecv + MPI_Isend + MPI_Waitall. Blocking random and
 * spmv exchanges pair a rank's i-th destination with its i-th source and
 * may deadlock: the options are refused then (played out before anything
 * is written, with sends that wait for their receive, as MPI allows).
 * Every iteration starts with a computation gap (fixed `gap_s`, or with
 * `gap_random` uniform in [0, 2 gap_s] from a per-rank generator seeded
 * from `seed`); each MPI record takes 10 ns. Same options, same trace.
 *
 * Ownership: synth_build() returns a new trace (trace_free()); options are
 * borrowed; synth_write() streams the same records to an OTF2 archive. Not for: writing files (trace_write_otf2()).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "traces/trace.h"
#include "util/progress.h"

G_BEGIN_DECLS

#define SYNTH_ERROR (synth_error_quark())
GQuark synth_error_quark(void);

typedef enum {
  SYNTH_ERROR_OPTION,  /* unknown pattern, bad option value */
  SYNTH_ERROR_INPUT,   /* spmv matrix / partition file unreadable or malformed */
} SynthError;

typedef struct synth_opts {
  const char *pattern;
  int ranks;
  int dims[4];            /* process grid; all 0 = balanced factorization */
  gboolean periodic;
  int points;             /* stencil2d: 5 or 9; 0 = the pattern's default */
  int64_t bytes;          /* message size */
  int iterations;
  gboolean nonblocking;
  double gap_s;           /* computation before each iteration, seconds */
  gboolean gap_random;
  uint64_t seed;
  int degree;             /* random: destinations per rank */
  int64_t shift;          /* shift: distance, not a multiple of ranks (may be negative) */
  const char *matrix;     /* spmv: MatrixMarket file */
  const char *partition;  /* spmv: part of row i on line i, or NULL = block rows */
} synth_opts;

/* Defaults: 8 ranks, open grid, 1024 bytes, 10 iterations, blocking,
 * gap 1e-3 s fixed, seed 1, degree 4, shift 1. */
void synth_opts_init(synth_opts *o);

/* A generator's state (private: traces/synth-private.h). */
typedef struct synth_gen synth_gen;

typedef struct synth_pattern {
  const char *name;
  const char *summary;
  gboolean (*pairs)(synth_gen *g, GError **error); /* one iteration's exchanges of every rank */
} synth_pattern;

extern const synth_pattern synth_patterns[];
extern const int synth_npatterns;

/* "stencil2d, stencil3d, ... or bitcomp": the names of synth_patterns
 * (caller frees). */
char *synth_pattern_names(void);

/* Builds the trace of `o`; NULL + error on bad options or input files. */
trace *synth_build(const synth_opts *o, GError **error);

/* Writes the trace of `o` as an OTF2 archive in `dir` (as
 * trace_write_otf2() would write synth_build()'s trace, byte for byte in
 * the .def and .evt files) without building it in memory: rank by rank,
 * so memory is O(ranks + one rank's records). Reports "gen: ranks
 * written" to `pr` and stops (error, nothing written) when it says so. */
gboolean synth_write(const synth_opts *o, const char *dir, const progress *pr, GError **error);

/* Parses a process grid "4x4x4" (1 to 4 sizes, each 1..2^24) into dims[];
 * SYNTH_ERROR_OPTION naming --dims otherwise. */
gboolean synth_parse_dims(const char *spec, int *dims, GError **error);

G_END_DECLS
