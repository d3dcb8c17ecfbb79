/* spectral-embed.c - `embed`: task coordinates computed from the communication
 * graph - a spectral embedding in as many dimensions as the machine has -
 * placed by the geometric mapper (deveci-geometric, geometric_map()), for
 * graphs without a grid to recognize.
 *
 * Coordinates: the eigenvectors x_2 .. x_{k+1} of the k smallest nonzero
 * eigenvalues of the weighted Laplacian L = D - W (W_ij = bytes i->j +
 * bytes j->i over their mean), each scaled by 1/sqrt(lambda) so that a
 * direction in which the graph is long stays long: Hall's quadratic
 * placement (K. M. Hall, "An r-dimensional quadratic placement algorithm",
 * Management Science 17 (1970), Section 2) and Laplacian eigenmaps (Belkin
 * and Niyogi, Neural Computation 15 (2003), Section 2).
 *
 * Eigenvectors come from ARPACK (implicitly restarted Lanczos, dsaupd and
 * dseupd, smallest algebraic), one at a time on the space orthogonal to the
 * constant vector and to the ones found before: one Lanczos run finds one
 * vector per distinct eigenvalue, and a cube-shaped graph has three equal
 * smallest ones. Each run starts from a vector drawn from the seed: one
 * embedding per seed, whatever the thread count (ARPACK runs
 * single-threaded; its Fortran state is global, so calls are serialized).
 * Equal eigenvalues leave any rotation of their eigenvectors; align_axes()
 * turns them to the cloud's own axes. geometric_map() then cuts the tasks
 * along the machine's cut dimensions (follow=1), at medians, so the cosine
 * shape of a grid's eigenvectors along each axis does not matter: a grid
 * graph on the machine of its shape is placed exactly.
 *
 * A graph in pieces is embedded piece by piece, the pieces side by side
 * along the first axis; pieces of fewer than EMBED_MIN_PIECE ranks (and
 * ranks without traffic) are laid along it in breadth-first order.
 *
 * Pieces of more than `direct` ranks are embedded multilevel, as ACE does
 * (Y. Koren, L. Carmel, D. Harel, "ACE: A fast multiscale eigenvectors
 * computation for drawing huge graphs", InfoVis 2002, Sections 3-4): the
 * piece is coarsened by heavy-edge matching (the visiting order drawn from
 * the seed) until it has at most `direct` vertices, Lanczos finds the
 * eigenvectors of the coarsest graph, and each finer level starts from
 * the coarser one's vectors copied to both halves of every matched pair and
 * smooths them by EMBED_SMOOTH_STEPS damped Jacobi steps x <- x - 1/2
 * D^-1 L x, kept orthonormal and orthogonal to the constant; their
 * Rayleigh quotients stand for the eigenvalues. A level that keeps more
 * than 3/4 of its vertices (a star matches one pair) is not coarsened
 * further: Lanczos runs on it as it is.
 *
 * Cost: O(E + n k) per Lanczos step; the steps grow with the graph's
 * diameter (about 200 per eigenvector on a 32^3 grid), which is why large
 * pieces go multilevel: O(E k) per smoothing step, the levels halving.
 * Memory: about 30 doubles per rank, checked against the budget. Progress:
 * Lanczos and smoothing steps; an interrupt stops it with "interrupted".
 */
#include <arpack.h>
#include <math.h>
#include <string.h>

#include "mapping/strategies/geometric-private.h"
#include "mapping/map-util.h"
#include "util/budget.h"

#define EMBED_MIN_PIECE 32
#define EMBED_SMOOTH_STEPS 30

G_LOCK_DEFINE_STATIC(arpack);

static const strategy_param embed_params[] = {
  { "dims", SPARAM_INT, "0", "0..8", "embedding dimensions (0: as many as the machine has)" },
  { "tol", SPARAM_DOUBLE, "1e-3", "0..0.5", "relative accuracy of the eigenvectors (ARPACK tol)" },
  { "direct", SPARAM_INT, "32768", "64..", "pieces of more ranks are coarsened first (multilevel)" },
  GEOMETRIC_PARAM_ROWS,
  { NULL, 0, NULL, NULL, NULL },
};

/* One connected piece: its ranks and their symmetric weighted graph. */
typedef struct piece {
  int n;
  const int *rank;  /* piece index -> rank */
  int *xadj, *adj;  /* in piece indices */
  double *w;
} piece;

/* x minus its components along the constant vector and the orthonormal
 * columns q[0..nq) (n each). */
static void deflate(int n, const double *q, int nq, double *x)
{
  double mean = 0;
  for (int i = 0; i < n; i++)
    mean += x[i];
  mean /= n;
  for (int i = 0; i < n; i++)
    x[i] -= mean;
  for (int j = 0; j < nq; j++) {
    const double *qj = q + (size_t)j * n;
    double dot = 0;
    for (int i = 0; i < n; i++)
      dot += qj[i] * x[i];
    for (int i = 0; i < n; i++)
      x[i] -= dot * qj[i];
  }
}

/* y = P L P x, P the projection deflate() applies. */
static void laplacian_apply(const piece *pc, const double *q, int nq, double *x, double *y)
{
  deflate(pc->n, q, nq, x);
  for (int i = 0; i < pc->n; i++) {
    double s = 0;
    for (int e = pc->xadj[i]; e < pc->xadj[i + 1]; e++)
      s += pc->w[e] * (x[i] - x[pc->adj[e]]);
    y[i] = s;
  }
  deflate(pc->n, q, nq, y);
}

/* The eigenvector of the smallest eigenvalue of P L P (P: deflate() by q)
 * into z, its eigenvalue into *lambda. */
static gboolean smallest_pair(const piece *pc, const double *q, int nq, double tol, GRand *rng,
                              const progress *prog, uint64_t *steps, double *z, double *lambda,
                              GError **error)
{
  int n = pc->n, ncv = MIN(n - nq - 1, 20);
  double *resid = g_new(double, n), *v = g_new(double, (size_t)n * ncv);
  double *workd = g_new(double, 3 * (size_t)n), *workl = g_new(double, (size_t)ncv * (ncv + 8));
  a_int *select = g_new0(a_int, ncv);
  a_int iparam[11] = { 0 }, ipntr[11] = { 0 };
  a_int ido = 0, info = 1;
  iparam[0] = 1;       /* exact shifts */
  iparam[2] = 100000;  /* restarts: an interrupt or the time limit ends it sooner */
  iparam[6] = 1;       /* mode 1: A x = lambda x */
  for (int i = 0; i < n; i++)
    resid[i] = g_rand_double_range(rng, -1, 1);
  deflate(n, q, nq, resid);
  gboolean ok = TRUE;
  for (;;) {
    dsaupd_c(&ido, "I", n, "SA", 1, tol, resid, ncv, v, n, iparam, ipntr, workd, workl,
             ncv * (ncv + 8), &info);
    if (ido != 1 && ido != -1)
      break;
    laplacian_apply(pc, q, nq, workd + ipntr[0] - 1, workd + ipntr[1] - 1);
    if (++*steps % 64 == 0)
      progress_report(prog, "embed: Lanczos steps", *steps, 0);
    if (*steps % 8 == 0 && !progress_check(prog, error)) {
      ok = FALSE;
      break;
    }
  }
  if (ok && info < 0) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "embed: ARPACK dsaupd failed (info %d) on a piece of %d ranks", (int)info, n);
    ok = FALSE;
  }
  if (ok) {
    a_int ierr = 0;
    dseupd_c(1, "A", select, lambda, z, n, 0.0, "I", n, "SA", 1, tol, resid, ncv, v, n, iparam,
             ipntr, workd, workl, ncv * (ncv + 8), &ierr);
    if (ierr != 0) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                  "embed: ARPACK dseupd failed (info %d) on a piece of %d ranks", (int)ierr, n);
      ok = FALSE;
    }
  }
  g_free(resid);
  g_free(v);
  g_free(workd);
  g_free(workl);
  g_free(select);
  return ok;
}

/* The coarser piece of pc by heavy-edge matching, each vertex visited in
 * an order drawn from rng matched with its heaviest unmatched neighbour;
 * parent[i] is vertex i's coarse vertex. Arcs between one coarse pair are
 * summed. */
static void coarsen(const piece *pc, GRand *rng, piece *cp, int *parent)
{
  int n = pc->n, nc = 0;
  int *order = g_new(int, n);
  for (int i = 0; i < n; i++) {
    order[i] = i;
    parent[i] = -1;
  }
  for (int i = n - 1; i > 0; i--) {
    int j = g_rand_int_range(rng, 0, i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int t = 0; t < n; t++) {
    int v = order[t], best = -1;
    if (parent[v] >= 0)
      continue;
    double heaviest = -1;
    for (int e = pc->xadj[v]; e < pc->xadj[v + 1]; e++)
      if (pc->adj[e] != v && parent[pc->adj[e]] < 0 && pc->w[e] > heaviest)
        best = pc->adj[e], heaviest = pc->w[e];
    parent[v] = nc;
    if (best >= 0)
      parent[best] = nc;
    nc++;
  }
  int *member = g_new(int, 2 * (size_t)nc), *at = g_new(int, nc);
  for (int c = 0; c < nc; c++)
    member[2 * c] = member[2 * c + 1] = -1, at[c] = -1;
  for (int v = 0; v < n; v++)
    member[2 * parent[v] + (member[2 * parent[v]] >= 0)] = v;
  *cp = (piece){ nc, NULL, g_new0(int, nc + 1), g_new(int, pc->xadj[n] + 1),
                 g_new(double, pc->xadj[n] + 1) };
  int m = 0;
  for (int c = 0; c < nc; c++) {
    int row = m; /* at[u] >= row: u already has an arc in this row */
    for (int h = 0; h < 2 && member[2 * c + h] >= 0; h++) {
      int v = member[2 * c + h];
      for (int e = pc->xadj[v]; e < pc->xadj[v + 1]; e++) {
        int u = parent[pc->adj[e]];
        if (u == c)
          continue;
        if (at[u] >= row) {
          cp->w[at[u]] += pc->w[e];
        } else {
          at[u] = m;
          cp->adj[m] = u;
          cp->w[m++] = pc->w[e];
        }
      }
    }
    cp->xadj[c + 1] = m;
  }
  g_free(order);
  g_free(member);
  g_free(at);
}

/* z / |z| after deflate() by the columns before it. */
static void orthonormalize(int n, const double *q, int nq, double *z)
{
  deflate(n, q, nq, z);
  double norm = 0;
  for (int i = 0; i < n; i++)
    norm += z[i] * z[i];
  norm = sqrt(norm);
  for (int i = 0; i < n && norm > 0; i++)
    z[i] /= norm;
}

/* eigvecs() by Lanczos on the piece itself. */
static gboolean eigvecs_lanczos(const piece *pc, int k, double tol, GRand *rng,
                                const progress *prog, uint64_t *steps, double *q,
                                double *lambdas, GError **error)
{
  gboolean ok = TRUE;
  for (int j = 0; j < k && ok; j++) {
    double *z = q + (size_t)j * pc->n;
    G_LOCK(arpack);
    ok = smallest_pair(pc, q, j, tol, rng, prog, steps, z, &lambdas[j], error);
    G_UNLOCK(arpack);
    if (ok)
      orthonormalize(pc->n, q, j, z); /* despite the tolerance */
  }
  return ok;
}

static gboolean eigvecs(const piece *pc, int k, double tol, int direct, GRand *rng,
                        const progress *prog, uint64_t *steps, double *q, double *lambdas,
                        GError **error);

/* eigvecs() of a piece above `direct` ranks: from its coarser piece's,
 * smoothed. A piece that hardly coarsens (a star matches one pair a
 * level: as many levels as ranks) goes to Lanczos as it is, with the
 * generator as it was, so the result is the one direct= above its size
 * gives. */
static gboolean eigvecs_multilevel(const piece *pc, int k, double tol, int direct, GRand *rng,
                                   const progress *prog, uint64_t *steps, double *q,
                                   double *lambdas, GError **error)
{
  int n = pc->n, *parent = g_new(int, n);
  piece cp;
  GRand *before = g_rand_copy(rng);
  coarsen(pc, rng, &cp, parent);
  if (cp.n > n - n / 4 || cp.n <= 2 * k + 2) {
    g_free(parent);
    g_free(cp.xadj);
    g_free(cp.adj);
    g_free(cp.w);
    gboolean ok = eigvecs_lanczos(pc, k, tol, before, prog, steps, q, lambdas, error);
    g_rand_free(before);
    return ok;
  }
  g_rand_free(before);
  double *cq = g_new(double, (size_t)cp.n * k);
  gboolean ok = eigvecs(&cp, k, tol, direct, rng, prog, steps, cq, lambdas, error);
  double *y = g_new(double, n), *dinv = g_new(double, n);
  for (int i = 0; i < n; i++) {
    double d = 0;
    for (int e = pc->xadj[i]; e < pc->xadj[i + 1]; e++)
      d += pc->w[e];
    dinv[i] = d > 0 ? 1 / d : 0;
  }
  for (int j = 0; ok && j < k; j++) {
    double *z = q + (size_t)j * n;
    for (int i = 0; i < n; i++)
      z[i] = cq[(size_t)j * cp.n + parent[i]];
    orthonormalize(n, q, j, z);
    for (int it = 0; ok && it < EMBED_SMOOTH_STEPS; it++) {
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int e = pc->xadj[i]; e < pc->xadj[i + 1]; e++)
          s += pc->w[e] * (z[i] - z[pc->adj[e]]);
        y[i] = z[i] - 0.5 * dinv[i] * s;
      }
      memcpy(z, y, sizeof(double) * (size_t)n);
      orthonormalize(n, q, j, z);
      ok = ++*steps % 8 != 0 || progress_check(prog, error);
    }
    double rq = 0; /* z is a unit vector: z' L z */
    for (int i = 0; i < n; i++)
      for (int e = pc->xadj[i]; e < pc->xadj[i + 1]; e++)
        rq += 0.5 * pc->w[e] * (z[i] - z[pc->adj[e]]) * (z[i] - z[pc->adj[e]]);
    lambdas[j] = rq;
  }
  /* ascending, as Lanczos gives them (align_axes groups neighbours) */
  for (int j = 1; ok && j < k; j++)
    for (int i = j; i > 0 && lambdas[i] < lambdas[i - 1]; i--) {
      double t = lambdas[i];
      lambdas[i] = lambdas[i - 1];
      lambdas[i - 1] = t;
      for (int r = 0; r < n; r++) {
        double *a = q + (size_t)i * n + r, *b = q + (size_t)(i - 1) * n + r, u = *a;
        *a = *b;
        *b = u;
      }
    }
  g_free(y);
  g_free(dinv);
  g_free(cq);
  g_free(parent);
  g_free(cp.xadj);
  g_free(cp.adj);
  g_free(cp.w);
  return ok;
}

/* k orthonormal eigenvectors of the smallest nonzero eigenvalues of pc's
 * Laplacian into q (n x k, column-major), their eigenvalues ascending into
 * lambdas: one at a time, each on the space orthogonal to the ones before
 * (a single Lanczos run finds one vector per distinct eigenvalue, and the
 * smallest ones of a cube-like graph come three at a time); multilevel
 * above `direct` ranks. */
static gboolean eigvecs(const piece *pc, int k, double tol, int direct, GRand *rng,
                        const progress *prog, uint64_t *steps, double *q, double *lambdas,
                        GError **error)
{
  if (pc->n > direct)
    return eigvecs_multilevel(pc, k, tol, direct, rng, prog, steps, q, lambdas, error);
  return eigvecs_lanczos(pc, k, tol, rng, prog, steps, q, lambdas, error);
}

/* The k scaled eigenvectors of piece pc into coords (rank-major, stride
 * kd), each by 1/sqrt(lambda), its sign fixed by the data, not by
 * rounding. */
static gboolean spectral(const piece *pc, int k, int kd, double tol, int direct, guint32 seed,
                         const progress *prog, double *coords, double *lambdas, GError **error)
{
  int n = pc->n;
  double *q = g_new(double, (size_t)n * k);
  GRand *rng = g_rand_new_with_seed(seed);
  uint64_t steps = 0;
  gboolean ok = eigvecs(pc, k, tol, direct, rng, prog, &steps, q, lambdas, error);
  for (int j = 0; ok && j < k; j++) {
    const double *z = q + (size_t)j * n;
    double big = 0;
    for (int i = 0; i < n; i++)
      if (fabs(z[i]) > fabs(big))
        big = z[i];
    double scale = (big < 0 ? -1.0 : 1.0) / sqrt(MAX(lambdas[j], 1e-12));
    for (int i = 0; i < n; i++)
      coords[(size_t)i * kd + j] = scale * z[i];
  }
  g_rand_free(rng);
  g_free(q);
  return ok;
}

/* Sum over points of the fourth powers of (whitened) coordinates i and j
 * after rotating them by theta. */
static double fourth_moment(const double *y, int n, int k, int i, int j, double theta)
{
  double c = cos(theta), s = sin(theta), sum = 0;
  for (int p = 0; p < n; p++) {
    double a = y[(size_t)p * k + i], b = y[(size_t)p * k + j];
    double u = c * a - s * b, v = s * a + c * b;
    sum += u * u * u * u + v * v * v * v;
  }
  return sum;
}

/* Rotates the piece's coordinates (n x k) so that its axes follow the
 * cloud's own. Eigenvalues that (nearly) coincide - a cube-shaped graph has
 * three equal smallest ones - leave any rotation of their eigenvectors, and
 * the geometric mapper cuts along axes. A box projects onto its own axes
 * with the flattest distributions, so within each group of axes whose
 * eigenvalues lie within 30% of each other, the rotation minimizes the
 * summed fourth moments (the sub-Gaussian case of independent component
 * analysis: Hyvarinen and Oja, Neural Networks 13 (2000), Section 4.1):
 * Jacobi sweeps over pairs of axes, each angle the best of 64, then of 64
 * finer ones around it. The axes of a group have one scale (their
 * eigenvalues nearly agree), which a rotation keeps. */
static void align_axes(double *x, int n, int k, const double *lambda)
{
  for (int lo = 0; lo < k;) {
    int hi = lo + 1;
    while (hi < k && lambda[hi] <= 1.3 * lambda[lo])
      hi++;
    for (int sweep = 0; sweep < 3 && hi - lo > 1; sweep++)
      for (int i = lo; i < hi; i++)
        for (int j = i + 1; j < hi; j++) {
          double best = 0, fbest = fourth_moment(x, n, k, i, j, 0), step = G_PI / 2 / 64;
          for (int round = 0; round < 2; round++) {
            double centre = best;
            for (int t = -32; t < 32; t++) {
              double th = centre + t * step, f = fourth_moment(x, n, k, i, j, th);
              if (f < fbest * (1 - 1e-12))
                fbest = f, best = th;
            }
            step /= 32;
          }
          double c = cos(best), sn = sin(best);
          for (int p = 0; p < n; p++) {
            double *row = x + (size_t)p * k;
            double u = row[i], v = row[j];
            row[i] = c * u - sn * v, row[j] = sn * u + c * v;
          }
        }
    lo = hi;
  }
}

/* The coordinates of every rank (n x k) from the graph. */
static gboolean embed_coords(const strategy_ctx *ctx, int k, double tol, int direct, double *x,
                             GError **error)
{
  const commgraph *g = ctx->g;
  int n = g->n;
  sym_graph s;
  sym_graph_build(&s, g);
  double mean = 0;
  for (int e = 0; e < s.xadj[n]; e++)
    mean += (double)(s.wout[e] + s.win[e]);
  mean = s.xadj[n] ? mean / s.xadj[n] : 1;
  if (mean <= 0)
    mean = 1;
  /* pieces: breadth-first, from the lowest rank not yet seen */
  int *comp = g_new(int, n), *order = g_new(int, n), *local = g_new(int, n);
  for (int i = 0; i < n; i++)
    comp[i] = -1;
  int ncomp = 0, head = 0, tail = 0;
  int *first = g_new(int, n + 1);
  for (int r = 0; r < n; r++) {
    if (comp[r] >= 0)
      continue;
    first[ncomp] = tail;
    comp[r] = ncomp;
    order[tail++] = r;
    while (head < tail) {
      int v = order[head++];
      for (int e = s.xadj[v]; e < s.xadj[v + 1]; e++)
        if (comp[s.adj[e]] < 0) {
          comp[s.adj[e]] = ncomp;
          order[tail++] = s.adj[e];
        }
    }
    ncomp++;
  }
  first[ncomp] = n;
  memset(x, 0, sizeof(double) * (size_t)n * k);
  double offset = 0;
  gboolean ok = TRUE;
  double *pcx = g_new(double, (size_t)n * k);
  for (int c = 0; c < ncomp && ok; c++) {
    int lo = first[c], size = first[c + 1] - lo;
    const int *rank = order + lo;
    double lo0 = 0, hi0 = 0;
    if (size < MAX(EMBED_MIN_PIECE, 2 * k + 2)) {
      for (int i = 0; i < size; i++)
        pcx[(size_t)i * k] = i;
      lo0 = 0, hi0 = size - 1;
    } else {
      piece pc = { size, rank, g_new0(int, size + 1), NULL, NULL };
      for (int i = 0; i < size; i++)
        local[rank[i]] = i;
      int m = 0;
      for (int i = 0; i < size; i++)
        m += s.xadj[rank[i] + 1] - s.xadj[rank[i]];
      pc.adj = g_new(int, m + 1);
      pc.w = g_new(double, m + 1);
      m = 0;
      for (int i = 0; i < size; i++) {
        for (int e = s.xadj[rank[i]]; e < s.xadj[rank[i] + 1]; e++) {
          pc.adj[m] = local[s.adj[e]];
          double w = (double)(s.wout[e] + s.win[e]) / mean;
          pc.w[m++] = w > 0 ? w : 1e-6;
        }
        pc.xadj[i + 1] = m;
      }
      double lambda[8];
      ok = spectral(&pc, k, k, tol, direct, ctx->seed + (guint32)c, ctx->prog, pcx, lambda,
                    error);
      if (ok)
        align_axes(pcx, size, k, lambda);
      g_free(pc.xadj);
      g_free(pc.adj);
      g_free(pc.w);
      lo0 = G_MAXDOUBLE, hi0 = -G_MAXDOUBLE;
      for (int i = 0; ok && i < size; i++) {
        lo0 = MIN(lo0, pcx[(size_t)i * k]);
        hi0 = MAX(hi0, pcx[(size_t)i * k]);
      }
    }
    /* side by side along axis 0, a small gap between pieces */
    for (int i = 0; ok && i < size; i++) {
      double *row = x + (size_t)rank[i] * k;
      memcpy(row, pcx + (size_t)i * k, sizeof(double) * (size_t)k);
      row[0] += offset - lo0;
    }
    offset += hi0 - lo0 + 1e-3 * (hi0 - lo0 + 1);
  }
  g_free(pcx);
  g_free(first);
  g_free(comp);
  g_free(order);
  g_free(local);
  sym_graph_clear(&s);
  return ok;
}

static gboolean run_embed(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                          GError **error)
{
  const platform *p = ctx->p;
  if (!topo_is_regular(p->topo)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "embed: platform %s is a graph topology without node coordinates; expected a "
                "mesh, torus or HAEC Box platform", p->name);
    return FALSE;
  }
  int k = strategy_arg_int(args, "dims");
  if (k == 0)
    k = p->topo->ndims;
  /* 20 Lanczos vectors, 3 work vectors, resid, k eigenvectors, the
   * coordinates twice; the symmetric graph's arcs; multilevel, the coarser
   * levels' vectors and arcs once more at most (each level halves the
   * vertices, never adds arcs) */
  int levels = ctx->g->n > strategy_arg_int(args, "direct") ? 2 : 1;
  if (!budget_check_array("embed: the Lanczos vectors", (uint64_t)ctx->g->n,
                          sizeof(double) * (uint64_t)(24 + 3 * k) * levels + 6 * sizeof(int),
                          error) ||
      !budget_check_array("embed: the symmetric graph", 2 * (uint64_t)ctx->g->nedges + 1,
                          3 * sizeof(int64_t) + (sizeof(double) + 2 * sizeof(int)) * levels,
                          error))
    return FALSE;
  /* zeroed: embed_coords leaves some coordinates unset on small quotient
   * graphs (valgrind: torus:2x2x4, 4 cores, amg), which geometric_map read */
  double *x = g_new0(double, (size_t)ctx->g->n * k + 1);
  gboolean ok = embed_coords(ctx, k, strategy_arg_double(args, "tol"),
                             strategy_arg_int(args, "direct"), x, error) &&
                geometric_map(ctx, args, x, k, m, error);
  g_free(x);
  return ok;
}

const strategy strategy_embed = {
  .name = "embed",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "spectral coordinates of the graph (Laplacian eigenvectors, ARPACK, multilevel "
             "when large), placed by geometric: for graphs without a grid",
  .paper = "Hall 1970 Section 2 (quadratic placement); deveci-geometric Alg. 1-2",
  .params = embed_params,
  .places_slots = TRUE,
  .needs_coordinates = TRUE,
  .cost = "O(E) per Lanczos step up to direct= ranks (steps grow with the diameter), then "
          "O(E k) per smoothing step on each coarser level (multilevel)",
  .max_ranks = 0,
  .run = run_embed,
};
