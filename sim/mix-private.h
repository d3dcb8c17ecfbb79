/* mix-private.h - the traces of a mix (mix-trace.c) for the mix runner
 * (mix.c): a matrix as a trace, the jobs' traces as one, views of some
 * of its jobs. Not a public interface: sim/mix.h is.
 */
#pragma once

#include "sim/mix.h"

/* The trace of a matrix job: every rank posts an MPI_Irecv per incoming
 * edge, an MPI_Isend per outgoing edge (its bytes as one message, tag 0,
 * self edges left out) and one MPI_Waitall, every record at time 0 (no
 * computation). */
trace *mix_matrix_trace(const commgraph *g);

/* One trace of every job's ranks: job j's rank r becomes rank first[j] +
 * r, its communicators, regions (merged by name), peers and roots
 * renumbered to match. The records move: jobs[j] keeps its definitions
 * and no records. */
trace *mix_union(trace **jobs, int njobs, const int *first);

/* The union `u` with the records of the jobs `keep` flags only (the others'
 * ranks hold none); borrows u's records and definitions, freed with
 * mix_view_free. */
trace *mix_view(const trace *u, const int *first, int njobs, const gboolean *keep);
void mix_view_free(trace *v);

/* A job's graph `g` (ranks 0..g->n-1) as a graph of `n` ranks where its
 * rank r is first + r; NULL g: no edges. */
commgraph *mix_embed(const commgraph *const *g, const int *first, int ngraphs, int n);
