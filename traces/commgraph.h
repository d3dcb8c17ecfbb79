/* commgraph.h - the directed communication graph of an application.
 *
 * A commgraph says how much each rank sent to each other rank: per directed
 * edge (sender -> receiver) the bytes and, when known, the number of
 * messages. It is stored in CSR form (edges of rank i are
 * adj[xadj[i] .. xadj[i+1]-1], receivers ascending, no duplicate edge).
 * Self edges (i -> i) are kept, because matrix metrics count the diagonal;
 * placement metrics skip them.
 *
 * Loaders read a dense CSV matrix (MapLib layout: row = sender, column =
 * receiver, no header), a MatrixMarket coordinate file (1-based, value =
 * bytes) or a plain edge list (`src dst bytes [messages]`, `#` comments);
 * input.h recognizes which one a user's file is.
 *
 * Ownership: a commgraph owns its arrays; free it with commgraph_free().
 * Not for: traces (traces/trace.h builds a commgraph from one), dense
 * matrix statistics (traces/commstats.h).
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "util/progress.h"

G_BEGIN_DECLS

#define COMMGRAPH_ERROR (commgraph_error_quark())
GQuark commgraph_error_quark(void);

typedef enum {
  COMMGRAPH_ERROR_IO,     /* file missing or unreadable */
  COMMGRAPH_ERROR_PARSE,  /* malformed content */
  COMMGRAPH_ERROR_SHAPE,  /* shapes that do not match */
} CommgraphError;

typedef struct commgraph {
  int n;            /* ranks */
  int nedges;       /* directed edges, self edges included */
  int *xadj;        /* n + 1 */
  int *adj;         /* nedges: receiver */
  int64_t *bytes;   /* nedges: bytes sent along the edge */
  int64_t *msgs;    /* nedges: messages, or NULL when unknown */
} commgraph;

/* Builds a graph from an unsorted list of edges; duplicate (src, dst) pairs
 * are summed, edges whose bytes and messages are both zero are dropped.
 * `msgs` may be NULL (message counts unknown). Copies its inputs. */
commgraph *commgraph_from_edges(int n, int nedges, const int *src, const int *dst,
                                const int64_t *bytes, const int64_t *msgs);

/* The communication graph of a Cartesian halo exchange: nd dimensions of
 * dims[] ranks (rank = x + X*(y + Y*z) ..., dimension 0 fastest), every
 * rank sending bytes[d] (1000 when bytes is NULL) to each of its two
 * neighbours along dimension d. `periodic` wraps the borders; a dimension
 * shorter than 3 never wraps (its two neighbours would coincide). */
commgraph *commgraph_stencil(int nd, const int *dims, gboolean periodic, const int64_t *bytes);

/* The three file formats of a matrix. */
typedef enum { COMMGRAPH_CSV, COMMGRAPH_MTX, COMMGRAPH_EDGES } commgraph_format;

/* The format a file's name says: `.csv` dense matrix, `.mtx` MatrixMarket,
 * anything else an edge list (input.c's probes start from this rule and
 * look at the content too). */
commgraph_format commgraph_format_of_name(const char *path);

/* Loads a graph of the given format. Returns NULL and sets `error`
 * (file:line: what was expected) on bad input. */
commgraph *commgraph_load_format(const char *path, commgraph_format format, GError **error);

/* The same in the format its name says (commgraph_format_of_name). Callers
 * with a user's path go through input.h, which also looks at the content. */
commgraph *commgraph_load(const char *path, GError **error);

/* Loads the message counts of `g` from a second matrix of the same shape:
 * its values become g->msgs. An edge present only in the counts is added
 * with 0 bytes. */
gboolean commgraph_load_counts(commgraph *g, const char *path, GError **error);

/* The same from the counts matrix `counts` already loaded (read from
 * `path`, named in the error when the shapes differ). */
gboolean commgraph_set_counts(commgraph *g, const commgraph *counts, const char *path,
                              GError **error);

/* Dense row-major n*n copy of bytes (kind 0) or messages (kind 1; 0 when
 * unknown); NULL when n^2 doubles exceed the memory budget. Caller frees
 * with g_free(). */
double *commgraph_dense(const commgraph *g, int kind, GError **error);

/* Writes the graph as a dense CSV (MapLib layout) or, when `path` ends in
 * `.mtx`, as MatrixMarket; kind 0 = bytes, 1 = messages. Atomic
 * (util/output.h); a dense matrix reports its rows to `prog` (may be NULL)
 * and stops when it says so. */
gboolean commgraph_save(const commgraph *g, int kind, const char *path, const progress *prog,
                        GError **error);

/* The same text to an open stream (a terminal, a pipe): dense CSV, or
 * MatrixMarket when `mtx`. FALSE when `prog` said stop before the end. */
gboolean commgraph_write(const commgraph *g, int kind, gboolean mtx, FILE *f,
                         const progress *prog);

/* Sums over all edges. */
int64_t commgraph_total_bytes(const commgraph *g);

void commgraph_free(commgraph *g);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(commgraph, commgraph_free)

G_END_DECLS
