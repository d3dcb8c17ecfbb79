/* bounds.h - lower bounds of the static metrics over every valid mapping of
 * a communication graph onto a platform (its allocation, cores per node
 * and routes), and the optimality gap of a mapping against them.
 *
 * hop_bytes (the metrics' hop_bytes, sum of bytes x route hops):
 *   the Gilmore-Lawler bound of the quadratic assignment problem. With
 *   f(i, j) = bytes i->j + bytes j->i and h(a, b) the smaller of the two
 *   route lengths between nodes a and b (0 on one node), hop_bytes >=
 *   1/2 sum_i sum_j f(i, j) h(slot(i), slot(j)). Whatever the mapping, the
 *   neighbours of task i sit on distinct other slots, so their part is at
 *   least l(i, s) = the smallest scalar product of i's weights (largest
 *   first) with the distances from slot s to the other slots (smallest
 *   first; the other cores of s's node at 0). Each task takes one slot, so
 *   hop_bytes >= 1/2 min over assignments of sum_i l(i, slot(i)): a linear
 *   assignment problem, solved exactly (Hungarian method) up to
 *   BOUNDS_LAP_MAX tasks, else relaxed to sum_i min_s l(i, s); on more than
 *   BOUNDS_EXACT_MAX allocated nodes (or tasks x nodes above 2^26) every
 *   slot gets the distance profile of the centre of the whole mesh, torus
 *   or HAEC Box (no node has more nodes within r hops), which is smaller
 *   still.
 * max_link_bytes (bytes on the busiest directed link), the largest of:
 *   - volume: the links carry hop_bytes in all, so the busiest carries at
 *     least (the hop_bytes bound) / links;
 *   - degree: the bytes task t sends to tasks on other nodes leave t's
 *     node over its out-links (at most the largest out-degree D): at
 *     least (sent by t - its cores_per_node - 1 largest sends) / D; the
 *     same for received bytes and in-links;
 *   - cut: for a cut of the allocated nodes into A and B (every plane
 *     across a dimension of a mesh, torus or HAEC Box), every byte between
 *     the tasks on A and those on B crosses one of the L links between
 *     them, so the busiest carries at least cut / L; the tasks on A number
 *     s, within the slots of each side, and any such split of the graph
 *     cuts at least lambda2 s (n - s) / n (Fiedler: lambda2 the second
 *     smallest eigenvalue of the Laplacian of f, computed by Jacobi
 *     rotations up to BOUNDS_SPECTRAL_MAX tasks and lowered by a safety
 *     margin for rounding). A Scotch partition would give an upper bound of
 *     the cut, not the lower one a bound needs.
 * The gap of a value v against its bound b is (v - b) / v: 0 means the
 * mapping is proven optimal for that metric.
 *
 * Ownership: plain values, nothing to free. Not for: measuring a mapping
 * (metrics.h).
 */
#pragma once

#include "mapping/metrics.h"

G_BEGIN_DECLS

#define BOUNDS_LAP_MAX 512
#define BOUNDS_EXACT_MAX 8192
#define BOUNDS_SPECTRAL_MAX 256

typedef struct bounds {
  int64_t hop_bytes;            /* no mapping has less */
  const char *hop_bytes_how;    /* "gilmore-lawler", or with " (relaxed)" or " (centre profile)" */
  int64_t max_link_bytes;       /* no mapping has less on its busiest link */
  const char *max_link_how;     /* "volume", "degree" or "cut" */
} bounds;

/* Computes both bounds for g on p (g->n <= platform_capacity(p)). */
void bounds_compute(const commgraph *g, const platform *p, bounds *out);

/* (value - bound) / value; 0 when value is 0. */
double bounds_gap(double value, double bound);

/* Sets the bound and gap fields of static metrics x (FIELD_VIEW_BOUNDS). */
void metrics_set_bounds(metrics *x, const bounds *b);

G_END_DECLS
