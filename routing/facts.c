/* facts.c - diameter, average distance and bisection of a platform. */
#include "routing/family/family-private.h"

#include <stdlib.h>
#include <string.h>

#include "util/checked.h"

/* a * b * c, exact while it fits int64 (the sums below are integers), else
 * rounded as a double: a dimension of millions of nodes (mesh:3000000) has
 * a distance sum beyond int64. */
static double product(int64_t a, int64_t b, int64_t c)
{
  int64_t ab, abc;
  if (checked_mul_i64(a, b, &ab) && checked_mul_i64(ab, c, &abc))
    return (double)abc;
  return (double)a * (double)b * (double)c;
}

/* Sum and maximum of topo_dim_distance over all ordered coordinate pairs
 * of one dimension, in closed form (a loop over the pairs is O(size^2): a
 * minute for a ring of a million nodes). A line of n: sum |a - b| =
 * (n^3 - n) / 3 = (n - 1) n (n + 1) / 3, at most n - 1; a ring: every a
 * sees the distances min(k, n - k), k < n, which add up to
 * floor(n^2 / 4) = h (n - h) with h = floor(n / 2), at most n / 2. */
static void dim_sums(const topo *t, int d, double *sum, int *max)
{
  int64_t n = t->shape[d];
  if (t->conn[d] == TOPO_TORUS) {
    int64_t h = n / 2;
    *sum = product(n, h, n - h);
    *max = (int)h;
  } else {
    /* one of three consecutive integers is a multiple of 3 */
    int64_t a = n - 1, b = n, c = n + 1;
    if (a % 3 == 0)
      a /= 3;
    else if (b % 3 == 0)
      b /= 3;
    else
      c /= 3;
    *sum = product(a, b, c);
    *max = (int)(n - 1);
  }
}

static void closed_form(const topo *t, platform_facts *f)
{
  double n = t->nnodes;
  double total = 0;
  int diam = 0, cd = t->crossbar_dim;
  double within = 0; /* distance sum over pairs inside one crossbar layer */
  int diam_within = 0;
  for (int d = 0; d < t->ndims; d++) {
    double s;
    int mx;
    dim_sums(t, d, &s, &mx);
    if (d == cd) {
      /* across layers only the layer distance counts */
      total += s * (double)t->slab * t->slab;
      diam = MAX(diam, mx);
      continue;
    }
    double others = (cd >= 0 ? t->slab : n) / t->shape[d];
    if (cd >= 0)
      within += s * others * others;
    else
      total += s * others * others;
    diam_within += mx;
  }
  if (cd >= 0)
    total += within * t->shape[cd];
  f->diameter = MAX(diam, diam_within);
  f->avg_distance = n > 1 ? total / (n * (n - 1)) : 0;
}

static void all_pairs(const platform *p, platform_facts *f)
{
  double total = 0;
  int n = p->topo->nnodes;
  f->diameter = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      int h = route_hops(p->router, a, b);
      total += h;
      f->diameter = MAX(f->diameter, h);
    }
  f->avg_distance = n > 1 ? total / ((double)n * (n - 1)) : 0;
}

static void bisection(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  f->bisection_dim = -1;
  if (!topo_is_regular(t))
    return;
  for (int d = 0; d < t->ndims; d++) {
    int half = t->shape[d] / 2;
    if (t->shape[d] < 2)
      continue;
    int count = 0;
    double bw = 0;
    for (int l = 0; l < t->nlinks; l++) {
      int a = (t->link_src[l] / t->stride[d]) % t->shape[d];
      int b = (t->link_dst[l] / t->stride[d]) % t->shape[d];
      if ((a < half) != (b < half)) {
        count++;
        bw += p->link_bw[l];
      }
    }
    facts_offer_dimension_cut(f, d, count, bw);
  }
}

void platform_get_facts(const platform *p, platform_facts *f)
{
  const topo *t = p->topo;
  memset(f, 0, sizeof *f);
  f->nodes = topo_compute_nodes(t);
  f->switches = t->nswitches;
  f->links = t->nlinks;
  f->bisection_dim = -1;
  const family_ops *fam = family_of(t);
  if (fam) {
    fam->facts(p, f);
    return;
  }
  if (topo_is_regular(t) && !p->router->path_off)
    closed_form(t, f);
  else
    all_pairs(p, f);
  bisection(p, f);
}
