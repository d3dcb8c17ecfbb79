/* stencil-heuristics.c - the heuristics of bhatele2010 Chapter 9 for regular
 * (stencil) communication graphs: `mxovlp`, `mxov_al`, `exco`, `coce`,
 * `affine`, `step` (Section 9.1), `stack` and `fold` (Section 9.2), and the
 * 3D affine mapping (Section 9.3). `affine` also takes real coordinates
 * (Section 10.4, Algorithm 10.3: irregular graphs with coordinates).
 *
 * Every heuristic computes a wanted slot for each task; findNearest
 * (mapping/nearest.h, Section 10.1) then places the tasks in the heuristic's order
 * on the nearest free slot, which resolves collisions, sparse allocations,
 * several cores per node (the slot grid, mapping/grid.h) and fewer tasks than slots.
 * The task grid comes from --coords or from the stencil detection of
 * Section 8.1 (mapping/grid.h).
 *
 *  - mxovlp (Algorithm 9.1): map the largest overlap of the task grid and
 *    the processor mesh one to one, recurse on the rest; mxov_al realigns
 *    the longer sides at every recursive call.
 *  - exco (Algorithm 9.2): tasks and processors both in order of Manhattan
 *    distance from the corner (ties: anti-diagonal order), paired in order.
 *  - coce: the same from all 2^k corners at once, round robin, each task
 *    taken by its nearest corner.
 *  - affine (Eq. 9.1, 9.2, Algorithm 9.3/9.4): (x, y, z) -> (floor(P_x x /
 *    O_x), ...); its loose bound is P_x/O_x + P_y/O_y (+ P_z/O_z) hops per
 *    byte in the thesis's measure (twice the mean hops of a message).
 *  - step: the thesis borrows step embedding from Aleliunas and Rosenberg
 *    [53] without pseudo-code; this is our reading: the dimension that must
 *    shrink is cut into as many groups as the mesh has columns (the affine
 *    floor), the task columns of a group are interleaved along the growing
 *    dimension, and each task row climbs a staircase through its group,
 *    reversed in odd groups so rows stay connected.
 *  - stack, fold (Section 9.2): a 2D grid on a mesh of 3 or more
 *    dimensions: split the grid along its longer side into as many pieces
 *    as the smallest mesh dimension, map the first with a 2D heuristic
 *    (`with`, default the best by hop-bytes, as the framework chooses) onto
 *    the plane of the other dimensions and the others by translation
 *    (stack) or mirrored every other piece (fold: we mirror the axis that
 *    crosses the seam, trying both axes and a 180-degree turn, and keep the
 *    lowest hop-bytes).
 * Dimensions: the plane heuristics (mxovlp, mxov_al, step) see a task grid
 * and a mesh of other ranks through the folded 2D views of mapping/grid.h; exco,
 * coce and affine work in any number of dimensions when grid and mesh have
 * the same number (else through the 2D views too). All but affine:align=0
 * first pair the longer sides of grid and mesh (the thesis's initial
 * alignment).
 *
 * Cost: O(cells log cells) to order, plus findNearest per task.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/grid.h"
#include "mapping/nearest.h"

/* ---- evaluation of candidate placements ---- */

/* Places tasks (in `order`) on the slots nearest their wanted nodes and
 * keeps the placement of lowest hop-bytes among those tried (ties: the
 * first). */
typedef struct placer {
  const strategy_ctx *ctx;
  sym_graph s;
  hop_table h;
  int *node;
  int *best;
  int64_t best_hb;
  gboolean any;
  int tries;
} placer;

static void placer_init(placer *pl, const strategy_ctx *ctx)
{
  memset(pl, 0, sizeof *pl);
  pl->ctx = ctx;
  sym_graph_build(&pl->s, ctx->g);
  hop_table_init(&pl->h, ctx->p);
  pl->node = g_new(int, ctx->g->n + 1);
  pl->best = g_new(int, ctx->g->n + 1);
}

static void placer_clear(placer *pl)
{
  sym_graph_clear(&pl->s);
  hop_table_clear(&pl->h);
  g_free(pl->node);
  g_free(pl->best);
}

static void placer_try(placer *pl, const int *want, const int *order)
{
  int n = pl->ctx->g->n;
  nearest_free nr;
  nearest_free_init(&nr, pl->ctx->p, NEAREST_FREE_AUTO);
  for (int i = 0; i < n; i++) {
    int t = order ? order[i] : i;
    pl->node[t] = nearest_free_place(&nr, want[t]);
    g_assert(pl->node[t] >= 0); /* tasks <= slots (strategy_run checked) */
  }
  nearest_free_clear(&nr);
  int64_t hb = sym_graph_hop_bytes(&pl->s, &pl->h, pl->node);
  pl->tries++;
  if (!pl->any || hb < pl->best_hb) {
    pl->any = TRUE;
    pl->best_hb = hb;
    memcpy(pl->best, pl->node, sizeof(int) * (size_t)n);
  }
}

/* ---- heuristics on aligned axes ----
 * A heuristic gets k axes of sizes O[] (tasks) and P[] (mesh), paired axis
 * by axis, and the tasks' coordinates tc[n*k]; it writes the wanted mesh
 * coordinates want[n*k] and the order to place tasks in. */

typedef void (*heur_fn)(int k, const int *O, const int *P, int n, const int *tc, int *want,
                        int *order);

/* Sort keys: tasks or cells ordered by key[0], key[1], ... then id. */
typedef struct keyed {
  int64_t key[3];
  int id;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
  const keyed *x = a, *y = b;
  for (int i = 0; i < 3; i++)
    if (x->key[i] != y->key[i])
      return x->key[i] < y->key[i] ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

/* Linear index with axis k-1 slowest. */
static int64_t lin(int k, const int *dims, const int *c)
{
  int64_t v = 0;
  for (int i = k - 1; i >= 0; i--)
    v = v * dims[i] + c[i];
  return v;
}

/* Anti-diagonal key of c from corner `corner` (bit i: far end of axis i):
 * Manhattan distance, then the slow axes' coordinates. */
static void corner_key(int k, const int *dims, const int *c, int corner, int64_t *key)
{
  int x[GRID_MAX_DIMS];
  int64_t dist = 0;
  for (int i = 0; i < k; i++) {
    x[i] = (corner >> i) & 1 ? dims[i] - 1 - c[i] : c[i];
    dist += x[i];
  }
  key[0] = dist;
  key[1] = -lin(k, dims, x); /* on a diagonal, the slow axes count down */
  key[2] = 0;
}

/* Every cell of a k-axis box, in linear order, into cells[ncells * k]. */
static int *box_cells(int k, const int *dims, int64_t *ncells)
{
  int64_t nc = 1;
  for (int i = 0; i < k; i++)
    nc *= dims[i];
  int *cells = g_new(int, (size_t)(nc * k) + 1);
  int c[GRID_MAX_DIMS] = { 0 };
  for (int64_t j = 0; j < nc; j++) {
    memcpy(cells + j * k, c, sizeof(int) * (size_t)k);
    for (int i = 0; i < k; i++) {
      if (++c[i] < dims[i])
        break;
      c[i] = 0;
    }
  }
  *ncells = nc;
  return cells;
}

/* EXCO: both sides from corner 0 by Manhattan distance, paired in order. */
static void heur_exco(int k, const int *O, const int *P, int n, const int *tc, int *want, int *order)
{
  keyed *tk = g_new(keyed, n + 1);
  for (int t = 0; t < n; t++) {
    corner_key(k, O, tc + (size_t)t * k, 0, tk[t].key);
    tk[t].id = t;
  }
  qsort(tk, n, sizeof(keyed), keyed_cmp);
  int64_t nc;
  int *cells = box_cells(k, P, &nc);
  keyed *pk = g_new(keyed, nc + 1);
  for (int64_t j = 0; j < nc; j++) {
    corner_key(k, P, cells + j * k, 0, pk[j].key);
    pk[j].id = (int)j;
  }
  qsort(pk, nc, sizeof(keyed), keyed_cmp);
  for (int r = 0; r < n; r++) {
    int t = tk[r].id;
    int64_t j = MIN(r, nc - 1);
    memcpy(want + (size_t)t * k, cells + (int64_t)pk[j].id * k, sizeof(int) * (size_t)k);
    order[r] = t;
  }
  g_free(cells);
  g_free(tk);
  g_free(pk);
}

/* Nearest corner of c in a box (ties: lowest corner) and the key from it. */
static int nearest_corner(int k, const int *dims, const int *c, int64_t *key)
{
  int best = 0;
  int64_t bk[3];
  for (int b = 0; b < (1 << k); b++) {
    int64_t kk[3];
    corner_key(k, dims, c, b, kk);
    if (b == 0 || kk[0] < bk[0])
      best = b, memcpy(bk, kk, sizeof bk);
  }
  memcpy(key, bk, sizeof bk);
  return best;
}

/* COCE: from all corners at once; each side grouped by nearest corner. */
static void heur_coce(int k, const int *O, const int *P, int n, const int *tc, int *want, int *order)
{
  int nb = 1 << k;
  keyed *tk = g_new(keyed, n + 1);
  for (int t = 0; t < n; t++) {
    int b = nearest_corner(k, O, tc + (size_t)t * k, tk[t].key);
    tk[t].key[2] = tk[t].key[1];
    tk[t].key[1] = tk[t].key[0];
    tk[t].key[0] = b; /* group by corner, then by distance */
    tk[t].id = t;
  }
  qsort(tk, n, sizeof(keyed), keyed_cmp);
  int64_t nc;
  int *cells = box_cells(k, P, &nc);
  keyed *pk = g_new(keyed, nc + 1);
  for (int64_t j = 0; j < nc; j++) {
    int b = nearest_corner(k, P, cells + j * k, pk[j].key);
    pk[j].key[2] = pk[j].key[1];
    pk[j].key[1] = pk[j].key[0];
    pk[j].key[0] = b;
    pk[j].id = (int)j;
  }
  qsort(pk, nc, sizeof(keyed), keyed_cmp);
  int *tstart = g_new0(int, nb + 1), *pstart = g_new0(int, nb + 1);
  for (int t = 0; t < n; t++)
    tstart[tk[t].key[0] + 1]++;
  for (int64_t j = 0; j < nc; j++)
    pstart[pk[j].key[0] + 1]++;
  for (int b = 0; b < nb; b++)
    tstart[b + 1] += tstart[b], pstart[b + 1] += pstart[b];
  int placed = 0;
  for (int r = 0; placed < n; r++)
    for (int b = 0; b < nb; b++) {
      if (tstart[b] + r >= tstart[b + 1])
        continue;
      int t = tk[tstart[b] + r].id;
      int *w = want + (size_t)t * k;
      int np = pstart[b + 1] - pstart[b];
      if (np > 0) {
        memcpy(w, cells + (int64_t)pk[pstart[b] + MIN(r, np - 1)].id * k, sizeof(int) * (size_t)k);
      } else {
        for (int i = 0; i < k; i++)
          w[i] = (b >> i) & 1 ? P[i] - 1 : 0;
      }
      order[placed++] = t;
    }
  g_free(cells);
  g_free(tk);
  g_free(pk);
  g_free(tstart);
  g_free(pstart);
}

/* AFFN: stretch or shrink every axis. */
static void heur_affine(int k, const int *O, const int *P, int n, const int *tc, int *want,
                        int *order)
{
  for (int t = 0; t < n; t++) {
    for (int i = 0; i < k; i++)
      want[(size_t)t * k + i] = (int)((int64_t)P[i] * tc[(size_t)t * k + i] / O[i]);
    order[t] = t;
  }
  /* in task grid order (the loops of Algorithm 9.3) */
  keyed *tk = g_new(keyed, n + 1);
  for (int t = 0; t < n; t++) {
    tk[t].key[0] = lin(k, O, tc + (size_t)t * k);
    tk[t].key[1] = tk[t].key[2] = 0;
    tk[t].id = t;
  }
  qsort(tk, n, sizeof(keyed), keyed_cmp);
  for (int r = 0; r < n; r++)
    order[r] = tk[r].id;
  g_free(tk);
}

/* ---- plane heuristics (k = 2) ---- */

typedef struct plane {
  const int *O;
  int *cx, *cy; /* per cell of the O[0] x O[1] grid: wanted mesh coordinates */
  gboolean realign;
} plane;

/* MXOVLP on the task sub-grid at origin (ox, oy) spanned by unit steps
 * (ux, uy) and (vx, vy) of sizes a x b, into the mesh box at (px, py) of
 * size A x B. */
static void mxov_rec(plane *pl, int ox, int oy, int ux, int uy, int vx, int vy, int a, int b,
                     int px, int py, int A, int B)
{
  for (;;) {
    if (a <= 0 || b <= 0)
      return;
    if (pl->realign && (a >= b) != (A >= B) && a != b && A != B) {
      int t = ux; ux = vx; vx = t;
      t = uy; uy = vy; vy = t;
      t = a; a = b; b = t;
    }
    int ma = a, mb = b;
    if (a > A)
      ma = A;
    else if (b > B)
      mb = B;
    for (int j = 0; j < mb; j++)
      for (int i = 0; i < ma; i++) {
        int x = ox + i * ux + j * vx, y = oy + i * uy + j * vy;
        int cell = x + pl->O[0] * y;
        pl->cx[cell] = px + i;
        pl->cy[cell] = py + j;
      }
    if (a <= A && b <= B)
      return;
    if (a > A) { /* rest of the grid beside, rest of the mesh above */
      ox += A * ux, oy += A * uy;
      a -= A;
      py += b;
      B -= b;
    } else {
      ox += B * vx, oy += B * vy;
      b -= B;
      px += a;
      A -= a;
    }
  }
}

static void plane_mxov(plane *pl, const int *P, gboolean realign)
{
  const int *O = pl->O;
  int A = P[0], B = P[1];
  /* more cells than mesh: extend the mesh's longer side virtually */
  if ((int64_t)O[0] * O[1] > (int64_t)A * B) {
    if (A >= B)
      A = (int)(((int64_t)O[0] * O[1] + B - 1) / B);
    else
      B = (int)(((int64_t)O[0] * O[1] + A - 1) / A);
  }
  pl->realign = realign;
  mxov_rec(pl, 0, 0, 1, 0, 0, 1, O[0], O[1], 0, 0, A, B);
}

/* Step embedding (see the header paragraph). */
static void plane_step(plane *pl, const int *P)
{
  const int *O = pl->O;
  int c = -1; /* the axis that shrinks */
  for (int i = 0; i < 2; i++)
    if (O[i] > P[i])
      c = i;
  for (int y = 0; y < O[1]; y++)
    for (int x = 0; x < O[0]; x++) {
      int cell = x + O[0] * y, o[2] = { x, y }, w[2];
      if (c < 0) {
        w[0] = x, w[1] = y;
      } else {
        int e = 1 - c;
        int64_t oc = O[c], pc = P[c];
        int grp = (int)(pc * o[c] / oc);
        int first = (int)((grp * oc + pc - 1) / pc); /* first task column of the group */
        int m = (int)((oc + pc - 1) / pc);          /* the largest group */
        int size = (int)(((grp + 1) * oc + pc - 1) / pc) - first;
        int r = o[c] - first;
        if (grp & 1)
          r = size - 1 - r;
        w[c] = grp;
        w[e] = (int)((int64_t)(o[e] * m + r) * P[e] / ((int64_t)O[e] * m));
      }
      pl->cx[cell] = w[0];
      pl->cy[cell] = w[1];
    }
}

typedef enum { PLANE_MXOVLP, PLANE_MXOV_AL, PLANE_STEP } plane_kind;

static void heur_plane(plane_kind kind, const int *O, const int *P, int n, const int *tc, int *want,
                       int *order)
{
  int64_t ncell = (int64_t)O[0] * O[1];
  plane pl = { O, g_new(int, ncell + 1), g_new(int, ncell + 1), FALSE };
  if (kind == PLANE_STEP)
    plane_step(&pl, P);
  else
    plane_mxov(&pl, P, kind == PLANE_MXOV_AL);
  keyed *tk = g_new(keyed, n + 1);
  for (int t = 0; t < n; t++) {
    int64_t cell = tc[2 * t] + (int64_t)O[0] * tc[2 * t + 1];
    want[2 * t] = pl.cx[cell];
    want[2 * t + 1] = pl.cy[cell];
    tk[t].key[0] = cell;
    tk[t].key[1] = tk[t].key[2] = 0;
    tk[t].id = t;
  }
  qsort(tk, n, sizeof(keyed), keyed_cmp);
  for (int r = 0; r < n; r++)
    order[r] = tk[r].id;
  g_free(tk);
  g_free(pl.cx);
  g_free(pl.cy);
}

static void heur_mxovlp(int k, const int *O, const int *P, int n, const int *tc, int *want, int *order)
{
  heur_plane(PLANE_MXOVLP, O, P, n, tc, want, order);
}

static void heur_mxov_al(int k, const int *O, const int *P, int n, const int *tc, int *want, int *order)
{
  heur_plane(PLANE_MXOV_AL, O, P, n, tc, want, order);
}

static void heur_step(int k, const int *O, const int *P, int n, const int *tc, int *want, int *order)
{
  heur_plane(PLANE_STEP, O, P, n, tc, want, order);
}

/* ---- running a heuristic on the task grid and the slot grid ---- */

typedef struct heuristic {
  const char *name;
  heur_fn fn;
  gboolean any_dims; /* works in k dimensions (else plane only) */
} heuristic;

static const heuristic heuristics[] = {
  { "mxovlp", heur_mxovlp, FALSE },
  { "mxov_al", heur_mxov_al, FALSE },
  { "exco", heur_exco, TRUE },
  { "coce", heur_coce, TRUE },
  { "affine", heur_affine, TRUE },
  { "step", heur_step, FALSE },
};

static const heuristic *heuristic_find(const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS(heuristics); i++)
    if (strcmp(heuristics[i].name, name) == 0)
      return &heuristics[i];
  return NULL;
}

/* Axis permutation pairing sizes: perm[r] = the axis of rank r by size
 * (largest first, ties to the lower axis). */
static void size_order(int k, const int *dims, int *perm)
{
  for (int i = 0; i < k; i++)
    perm[i] = i;
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && dims[perm[j]] > dims[perm[j - 1]]; j--) {
      int t = perm[j];
      perm[j] = perm[j - 1];
      perm[j - 1] = t;
    }
}

/* Runs h with task view tv and mesh view pv (same number of axes) and
 * writes each task's wanted node; `align` pairs the axes by size. */
static void run_views(const heuristic *h, const task_grid *tg, const gview *tv, const platform *p,
                      const gview *pv, gboolean align, int *want_node, int *order)
{
  int k = tv->naxes, n = tg->n;
  int tperm[GRID_MAX_DIMS], pperm[GRID_MAX_DIMS], O[GRID_MAX_DIMS], P[GRID_MAX_DIMS];
  int td[GRID_MAX_DIMS], pd[GRID_MAX_DIMS];
  for (int i = 0; i < k; i++)
    td[i] = tv->ax[i].n, pd[i] = pv->ax[i].n;
  if (align) {
    size_order(k, td, tperm);
    size_order(k, pd, pperm);
  } else {
    for (int i = 0; i < k; i++)
      tperm[i] = pperm[i] = i;
  }
  for (int i = 0; i < k; i++)
    O[i] = td[tperm[i]], P[i] = pd[pperm[i]];
  int *tc = g_new(int, (size_t)n * k + 1), *want = g_new(int, (size_t)n * k + 1);
  for (int t = 0; t < n; t++) {
    int vc[GRID_MAX_DIMS];
    gview_to_view(tv, tg->c + (size_t)t * tg->nd, vc);
    for (int i = 0; i < k; i++)
      tc[(size_t)t * k + i] = vc[tperm[i]];
  }
  h->fn(k, O, P, n, tc, want, order);
  for (int t = 0; t < n; t++) {
    int vc[GRID_MAX_DIMS], s[GRID_MAX_DIMS] = { 0 };
    for (int i = 0; i < k; i++)
      vc[pperm[i]] = want[(size_t)t * k + i];
    gview_to_base(pv, vc, s);
    want_node[t] = slotgrid_node(p, s);
  }
  g_free(tc);
  g_free(want);
}

/* The task and mesh views a heuristic runs on. */
static void choose_views(const heuristic *h, const task_grid *tg, const platform *p, gview *tv,
                         gview *pv)
{
  int sd[GRID_MAX_DIMS];
  slotgrid_dims(p, sd);
  gview_native(tv, tg->nd, tg->dims);
  gview_native(pv, p->topo->ndims, sd);
  if (!h->any_dims || tv->naxes != pv->naxes) {
    gview_plane(tv, tg->nd, tg->dims);
    gview_plane(pv, p->topo->ndims, sd);
  }
}

static gboolean need_regular(const strategy_ctx *ctx, const char *who, GError **error)
{
  if (topo_is_regular(ctx->p->topo))
    return TRUE;
  g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
              "%s: platform %s is a %s without node coordinates; expected a mesh, "
              "torus or HAEC Box platform", who, ctx->p->name,
              topo_kind_text(ctx->p->topo));
  return FALSE;
}

static gboolean run_heuristic(const strategy_ctx *ctx, const char *name, gboolean align,
                              mapping *m, GError **error)
{
  const heuristic *h = heuristic_find(name);
  task_grid tg;
  if (!need_regular(ctx, name, error) || !task_grid_init(&tg, ctx, name, error))
    return FALSE;
  gview tv, pv;
  choose_views(h, &tg, ctx->p, &tv, &pv);
  int n = tg.n;
  int *want = g_new(int, n + 1), *order = g_new(int, n + 1);
  run_views(h, &tg, &tv, ctx->p, &pv, align, want, order);
  nearest_free nr;
  nearest_free_init(&nr, ctx->p, NEAREST_FREE_AUTO);
  gboolean ok = TRUE;
  for (int i = 0; i < n && ok; i++) {
    m->node[order[i]] = nearest_free_place(&nr, want[order[i]]);
    if ((i & 4095) == 4095)
      ok = progress_check(ctx->prog, error);
  }
  nearest_free_clear(&nr);
  g_free(want);
  g_free(order);
  task_grid_clear(&tg);
  return ok;
}

static gboolean run_mxovlp(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  return run_heuristic(ctx, "mxovlp", TRUE, m, error);
}

static gboolean run_mxov_al(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                            GError **error)
{
  return run_heuristic(ctx, "mxov_al", TRUE, m, error);
}

static gboolean run_exco(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  return run_heuristic(ctx, "exco", TRUE, m, error);
}

static gboolean coords_are_grid(const strategy_ctx *ctx);

/* A grid: Section 9.1's COCE; else the irregular one of Section 10.4. */
static gboolean run_coce(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  task_grid tg;
  if (!need_regular(ctx, "coce", error))
    return FALSE;
  if (coords_are_grid(ctx) && task_grid_init(&tg, ctx, "coce", NULL)) {
    task_grid_clear(&tg);
    return run_heuristic(ctx, "coce", TRUE, m, error);
  }
  return irregular_coce(ctx, FALSE, m, error);
}

static gboolean run_step(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  return run_heuristic(ctx, "step", TRUE, m, error);
}

/* ---- affine with real coordinates (Algorithm 10.3) ---- */

static gboolean coords_are_grid(const strategy_ctx *ctx)
{
  if (!ctx->coords)
    return TRUE; /* the stencil detection gives a grid */
  for (size_t i = 0; i < (size_t)ctx->g->n * ctx->coord_dims; i++)
    if (ctx->coords[i] != floor(ctx->coords[i]))
      return FALSE;
  return TRUE;
}

/* (x - min) / (max - min) scaled to the mesh side, per paired axis; tasks
 * with more coordinate dimensions than the mesh view has axes use the
 * first ones (the widest, with alignment). */
static gboolean run_affine_real(const strategy_ctx *ctx, gboolean align, mapping *m,
                                GError **error)
{
  const platform *p = ctx->p;
  int n = ctx->g->n, cd = ctx->coord_dims;
  if (cd < 1 || cd > GRID_MAX_DIMS) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "affine: coordinates have %d dimensions, expected 1..%d", cd, GRID_MAX_DIMS);
    return FALSE;
  }
  double lo[GRID_MAX_DIMS], hi[GRID_MAX_DIMS];
  for (int d = 0; d < cd; d++)
    lo[d] = INFINITY, hi[d] = -INFINITY;
  for (size_t i = 0; i < (size_t)n * cd; i++) {
    if (!isfinite(ctx->coords[i])) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "affine: coordinate %zu of rank %zu is not a finite number", i % cd + 1, i / cd);
      return FALSE;
    }
    lo[i % cd] = MIN(lo[i % cd], ctx->coords[i]);
    hi[i % cd] = MAX(hi[i % cd], ctx->coords[i]);
  }
  int sd[GRID_MAX_DIMS];
  slotgrid_dims(p, sd);
  gview pv;
  gview_native(&pv, p->topo->ndims, sd);
  int ext_dims = 0;
  for (int d = 0; d < cd; d++)
    ext_dims += hi[d] > lo[d];
  if (pv.naxes != MAX(ext_dims, 1))
    gview_plane(&pv, p->topo->ndims, sd);
  int k = pv.naxes;
  /* coordinate dimensions by extent, mesh axes by size */
  int cperm[GRID_MAX_DIMS], pperm[GRID_MAX_DIMS], pd[GRID_MAX_DIMS];
  double ext[GRID_MAX_DIMS];
  for (int d = 0; d < cd; d++)
    ext[d] = hi[d] - lo[d], cperm[d] = d;
  for (int i = 0; i < k; i++)
    pd[i] = pv.ax[i].n;
  if (align) {
    for (int i = 1; i < cd; i++)
      for (int j = i; j > 0 && ext[cperm[j]] > ext[cperm[j - 1]]; j--) {
        int t = cperm[j];
        cperm[j] = cperm[j - 1];
        cperm[j - 1] = t;
      }
    size_order(k, pd, pperm);
  } else {
    for (int i = 0; i < k; i++)
      pperm[i] = i;
  }
  nearest_free nr;
  nearest_free_init(&nr, p, NEAREST_FREE_AUTO);
  for (int t = 0; t < n; t++) {
    if ((t & 4095) == 4095 && !progress_check(ctx->prog, error)) {
      nearest_free_clear(&nr);
      return FALSE;
    }
    int vc[GRID_MAX_DIMS] = { 0 }, s[GRID_MAX_DIMS] = { 0 };
    for (int i = 0; i < k && i < cd; i++) {
      int d = cperm[i], ax = pperm[i];
      double f = ext[d] > 0 ? (ctx->coords[(size_t)t * cd + d] - lo[d]) / ext[d] : 0;
      vc[ax] = MIN((int)floor(f * pd[ax]), pd[ax] - 1);
    }
    gview_to_base(&pv, vc, s);
    m->node[t] = nearest_free_place(&nr, slotgrid_node(p, s));
  }
  nearest_free_clear(&nr);
  return TRUE;
}

static gboolean run_affine(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  gboolean align = strategy_arg_int(args, "align");
  if (!need_regular(ctx, "affine", error))
    return FALSE;
  if (!coords_are_grid(ctx))
    return run_affine_real(ctx, align, m, error);
  return run_heuristic(ctx, "affine", align, m, error);
}

/* ---- stack and fold (Section 9.2) ---- */

static gboolean run_pieces(const strategy_ctx *ctx, const strategy_args *args, gboolean fold,
                           mapping *m, GError **error)
{
  const char *who = fold ? "fold" : "stack", *with = strategy_arg_str(args, "with");
  const platform *p = ctx->p;
  task_grid tg;
  if (!need_regular(ctx, who, error) || !task_grid_init(&tg, ctx, who, error))
    return FALSE;
  int n = tg.n;
  gview tv;
  gview_plane(&tv, tg.nd, tg.dims);
  int L_ax = tv.ax[0].n >= tv.ax[1].n ? 0 : 1; /* split the longer side */
  int L = tv.ax[L_ax].n, W = tv.ax[1 - L_ax].n;
  /* mesh: the smallest dimension of extent > 1 stacks the planes */
  int sd[GRID_MAX_DIMS], nd = p->topo->ndims, used = 0, smallest = -1;
  slotgrid_dims(p, sd);
  for (int d = 0; d < nd; d++)
    if (sd[d] > 1) {
      used++;
      if (smallest < 0 || sd[d] < sd[smallest])
        smallest = d;
    }
  int S = used >= 3 ? sd[smallest] : 1;
  int planed[GRID_MAX_DIMS];
  memcpy(planed, sd, sizeof(int) * (size_t)nd);
  if (S > 1)
    planed[smallest] = 1;
  gview plv;
  gview_plane(&plv, nd, planed);
  /* task coordinates per piece: (long offset within the piece, short) */
  int *piece = g_new(int, n + 1), *tcv = g_new(int, 2 * (size_t)n + 1);
  for (int t = 0; t < n; t++) {
    int vc[2];
    gview_to_view(&tv, tg.c + (size_t)t * tg.nd, vc);
    int l = vc[L_ax];
    piece[t] = (int)((int64_t)l * S / L);
    int first = (int)(((int64_t)piece[t] * L + S - 1) / S);
    tcv[2 * t] = l - first;
    tcv[2 * t + 1] = vc[1 - L_ax];
  }
  placer pl;
  placer_init(&pl, ctx);
  int *want = g_new(int, n + 1), *order = g_new(int, n + 1), *porder = g_new(int, n + 1);
  int *pt = g_new(int, n + 1), *ptc = g_new(int, 2 * (size_t)n + 1);
  int *pw = g_new(int, 2 * (size_t)n + 1), *wantc = g_new(int, 2 * (size_t)n + 1);
  for (size_t hi = 0; hi < G_N_ELEMENTS(heuristics); hi++) {
    const heuristic *h = &heuristics[hi];
    if (strcmp(with, "best") != 0 && strcmp(with, h->name) != 0)
      continue;
    /* each piece on the plane with h; wanted plane coordinates in wantc */
    int norder = 0;
    for (int k = 0; k < S; k++) {
      int np = 0, first = (int)(((int64_t)k * L + S - 1) / S);
      int last = (int)(((int64_t)(k + 1) * L + S - 1) / S);
      for (int t = 0; t < n; t++)
        if (piece[t] == k) {
          pt[np] = t;
          ptc[2 * np] = tcv[2 * t];
          ptc[2 * np + 1] = tcv[2 * t + 1];
          np++;
        }
      if (np == 0)
        continue;
      int O[2] = { MAX(last - first, 1), W }, P[2] = { plv.ax[0].n, plv.ax[1].n };
      int perm = (O[0] >= O[1]) != (P[0] >= P[1]) && O[0] != O[1] && P[0] != P[1];
      int Oa[2] = { O[perm], O[1 - perm] }, tca[2];
      for (int i = 0; i < np; i++) {
        tca[0] = ptc[2 * i + perm], tca[1] = ptc[2 * i + 1 - perm];
        ptc[2 * i] = tca[0], ptc[2 * i + 1] = tca[1];
      }
      h->fn(2, Oa, P, np, ptc, pw, porder);
      for (int i = 0; i < np; i++) {
        int t = pt[porder[i]];
        wantc[2 * t] = pw[2 * porder[i]];
        wantc[2 * t + 1] = pw[2 * porder[i] + 1];
        order[norder++] = t;
      }
    }
    for (int mirror = fold ? 1 : 0; mirror <= (fold ? 3 : 0); mirror++) {
      for (int t = 0; t < n; t++) {
        int vc[2] = { wantc[2 * t], wantc[2 * t + 1] }, s[GRID_MAX_DIMS] = { 0 };
        if (piece[t] & 1) {
          if (mirror & 1)
            vc[0] = plv.ax[0].n - 1 - vc[0];
          if (mirror & 2)
            vc[1] = plv.ax[1].n - 1 - vc[1];
        }
        gview_to_base(&plv, vc, s);
        if (S > 1)
          s[smallest] = piece[t];
        want[t] = slotgrid_node(p, s);
      }
      placer_try(&pl, want, order);
    }
  }
  memcpy(m->node, pl.best, sizeof(int) * (size_t)n);
  placer_clear(&pl);
  g_free(piece);
  g_free(tcv);
  g_free(want);
  g_free(order);
  g_free(porder);
  g_free(pt);
  g_free(ptc);
  g_free(pw);
  g_free(wantc);
  task_grid_clear(&tg);
  return TRUE;
}

static gboolean run_stack(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                          GError **error)
{
  return run_pieces(ctx, args, FALSE, m, error);
}

static gboolean run_fold(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                         GError **error)
{
  return run_pieces(ctx, args, TRUE, m, error);
}

static const strategy_param affine_params[] = {
  { "align", SPARAM_INT, "1", "0..1", "pair the longer sides of task grid and mesh first" },
  { NULL },
};

static const strategy_param pieces_params[] = {
  { "with", SPARAM_CHOICE, "best", "best|mxovlp|mxov_al|exco|coce|affine|step",
    "2D heuristic for each plane (best: the lowest hop-bytes)" },
  { NULL },
};

#define REGULAR(id, text, where, params_) REGULAR_AS(id, id, text, where, params_)
#define REGULAR_AS(var, id, text, where, params_)                                                  \
  const strategy strategy_##var = {                                                              \
    .name = #id,                                                                                 \
    .kind = STRATEGY_CONSTRUCT,                                                                  \
    .summary = text,                                                                             \
    .paper = where,                                                                              \
    .params = params_,                                                                           \
    .places_slots = TRUE,                                                                        \
    .needs_coordinates = TRUE,                                                                   \
    .cost = "O(cells log cells) plus findNearest per task; grid recognition O(E degree)",        \
    .max_ranks = 0,                                                                              \
    .run = run_##id,                                                                             \
  }

REGULAR(mxovlp, "maximum overlap: the largest common box one to one, recurse on the rest (grid)",
        "bhatele2010 Section 9.1, Algorithm 9.1 (MXOVLP)", NULL);
REGULAR(mxov_al, "maximum overlap realigning the longer sides at each step (grid)",
        "bhatele2010 Section 9.1, Heuristic 2 (MXOV+AL)", NULL);
REGULAR(exco, "expand from corner: tasks and nodes by distance from a corner, paired (grid)",
        "bhatele2010 Section 9.1, Algorithm 9.2 (EXCO)", NULL);
REGULAR(coce, "corners to center: expand from every corner at once (grid; else corners + bft)",
        "bhatele2010 Section 9.1, Heuristic 4; Section 10.4, Heuristic 2 (COCE)", NULL);
REGULAR(affine, "affine stretch of grid or coordinates onto the mesh, collisions by findNearest",
        "bhatele2010 Sections 9.1, 9.3 (Eq. 9.1-9.2, Alg. 9.3-9.4), 10.4 (Alg. 10.3)",
        affine_params);
REGULAR_AS(step_embedding, step,
           "step embedding: rows climb staircases through the shrunk dimension (grid)",
        "bhatele2010 Section 9.1, Heuristic 6 (STEP, after Aleliunas and Rosenberg)", NULL);
REGULAR(stack, "2D grid on a 3D mesh: pieces on planes by translation",
        "bhatele2010 Section 9.2, Heuristic 1 (stacking)", pieces_params);
REGULAR(fold, "2D grid on a 3D mesh: pieces on planes, every other one mirrored (accordion)",
        "bhatele2010 Section 9.2, Heuristic 2 (folding)", pieces_params);
