/* multilevel.c - `ml`: multilevel refinement of a mapping. The machine is
 * coarsened by halving its longest even dimension level by level (blocks
 * of 2, 4, 8 ... nodes); at each level the ranks of every block form one
 * coarse task (the quotient graph), the blocks one node of the coarse
 * torus or mesh, and a swap refiner (kl, wh, mc or mmc) moves the coarse
 * tasks between blocks - a whole group shifted by the blocks' offset, its
 * inner layout kept. From the coarsest level to the machine itself: long
 * moves first, where one fine swap at a time could not make them, then
 * ever finer ones (the V-cycle of multilevel partitioning, Hendrickson and
 * Leland, "A multilevel algorithm for partitioning graphs", SC 1995,
 * Section 3, here with the machine as the coarsened side; the refiners are
 * those of deveci2015 and selvitopi). Each level only ever improves its
 * refiner's objective on the coarse graph; the result is the refiner's at
 * the finest level, never worse than the start for kl and wh.
 *
 * The coarse levels need a regular mesh or torus (no crossbar) with every
 * node allocated; elsewhere `ml` is its refiner at the machine level.
 * Cost: the refiner's on each level, the levels geometrically smaller.
 * Progress: levels done; an interrupt keeps the mapping of the last level
 * finished.
 */
#include <string.h>

#include "mapping/map-util.h"
#include "mapping/strategy.h"

#define ML_MIN_BLOCKS 64  /* the coarsest level keeps at least this many blocks */

static const strategy_param ml_params[] = {
  { "refine", SPARAM_CHOICE, "kl", "kl|wh|mc|mmc", "the refiner run on every level" },
  { "levels", SPARAM_INT, "0", "0..30",
    "coarse levels (0: until fewer than 64 blocks would remain)" },
  { NULL, 0, NULL, NULL, NULL },
};

/* Block factors of every level: f[l * nd + d] divides the shape. */
static int coarse_levels(const topo *t, int max_levels, int *f)
{
  int nd = t->ndims, shape[TOPO_MAX_DIMS], blocks = t->nnodes, levels = 0;
  for (int d = 0; d < nd; d++)
    shape[d] = t->shape[d], f[d] = 1;
  while (max_levels == 0 || levels < max_levels) {
    int best = -1;
    for (int d = 0; d < nd; d++)
      if (shape[d] % 2 == 0 && (best < 0 || shape[d] > shape[best]))
        best = d;
    if (best < 0 || blocks / 2 < ML_MIN_BLOCKS || levels + 1 >= 31)
      break;
    int *next = f + (size_t)(levels + 1) * nd;
    memcpy(next, f + (size_t)levels * nd, sizeof(int) * (size_t)nd);
    next[best] *= 2;
    shape[best] /= 2;
    blocks /= 2;
    levels++;
  }
  return levels;
}

/* The coarse machine of block factors f: same kinds, fewer nodes. */
static platform *coarse_platform(const topo *t, const int *f, GError **error)
{
  GString *spec = g_string_new("torus:");
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(spec, "%s%d", d ? "x" : "", t->shape[d] / f[d]);
  g_string_append(spec, ":kinds=");
  for (int d = 0; d < t->ndims; d++)
    g_string_append_printf(spec, "%s%s", d ? "," : "",
                           t->conn[d] == TOPO_TORUS ? "torus" : "mesh");
  platform *cp = platform_load(spec->str, error);
  g_string_free(spec, TRUE);
  return cp;
}

/* One level: groups of the blocks of factors f refined on the coarse
 * machine, moved back into m. */
static gboolean refine_level(const strategy_ctx *ctx, const strategy *refiner, const int *f,
                             mapping *m, GError **error)
{
  const platform *p = ctx->p;
  const topo *t = p->topo;
  int nd = t->ndims, n = ctx->g->n;
  platform *cp = coarse_platform(t, f, error);
  if (!cp)
    return FALSE;
  const topo *ct = cp->topo;
  int *block_of = g_new(int, t->nnodes), *group = g_new(int, n), *gid = g_new(int, ct->nnodes);
  for (int v = 0; v < t->nnodes; v++) {
    int c[TOPO_MAX_DIMS], b = 0;
    topo_coords(t, v, c);
    for (int d = 0; d < nd; d++)
      b += c[d] / f[d] * ct->stride[d];
    block_of[v] = b;
  }
  /* coarse tasks: the blocks holding ranks, numbered by block */
  int ngroups = 0;
  for (int b = 0; b < ct->nnodes; b++)
    gid[b] = -1;
  for (int i = 0; i < n; i++)
    gid[block_of[m->node[i]]] = 0;
  int *group_block = g_new(int, ct->nnodes);
  for (int b = 0; b < ct->nnodes; b++)
    if (gid[b] == 0)
      group_block[ngroups] = b, gid[b] = ngroups++;
  for (int i = 0; i < n; i++)
    group[i] = gid[block_of[m->node[i]]];
  commgraph *q = strategy_quotient(ctx->g, group, ngroups);
  mapping *cm = mapping_new(ngroups);
  memcpy(cm->node, group_block, sizeof(int) * (size_t)ngroups);
  /* the coarse graph has no trace to replay: no evaluation hook */
  strategy_ctx cctx = { .g = q, .p = cp, .seed = ctx->seed, .prog = ctx->prog,
                        .pipelines = ctx->pipelines };
  strategy_args args;
  strategy_args_defaults(refiner, &args);
  gboolean ok = refiner->run(&cctx, &args, cm, error);
  for (int i = 0; ok && i < n; i++) {
    int from = group_block[group[i]], to = cm->node[group[i]];
    if (from == to)
      continue;
    int c[TOPO_MAX_DIMS], cf[TOPO_MAX_DIMS], ctt[TOPO_MAX_DIMS];
    topo_coords(t, m->node[i], c);
    topo_coords(ct, from, cf);
    topo_coords(ct, to, ctt);
    for (int d = 0; d < nd; d++)
      c[d] += (ctt[d] - cf[d]) * f[d];
    m->node[i] = topo_node(t, c);
  }
  mapping_free(cm);
  commgraph_free(q);
  g_free(group_block);
  g_free(block_of);
  g_free(group);
  g_free(gid);
  platform_free(cp);
  return ok;
}

static gboolean run_ml(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                       GError **error)
{
  const strategy *refiner = ctx->pipelines->find(strategy_arg_str(args, "refine"));
  g_assert(refiner && refiner->kind == STRATEGY_REFINE);
  const platform *p = ctx->p;
  const topo *t = p->topo;
  int levels = 0, f[31 * TOPO_MAX_DIMS];
  if (topo_is_regular(t) && t->crossbar_dim < 0 && p->nalloc == t->nnodes &&
      p->cores_per_node == 1)
    levels = coarse_levels(t, strategy_arg_int(args, "levels"), f);
  for (int l = levels; l >= 1; l--) {
    if (!refine_level(ctx, refiner, f + (size_t)l * t->ndims, m, error))
      return FALSE;
    progress_report(ctx->prog, "ml levels", (uint64_t)(levels - l + 1), (uint64_t)levels + 1);
    if (progress_stopped(ctx->prog))
      return TRUE; /* a valid mapping, refined down to this level */
  }
  strategy_args rargs;
  strategy_args_defaults(refiner, &rargs);
  return refiner->run(ctx, &rargs, m, error);
}

const strategy strategy_ml = {
  .name = "ml",
  .kind = STRATEGY_REFINE,
  .summary = "multilevel refinement: a refiner on ever finer blocks of the machine, moving whole "
             "groups of ranks, then on the machine itself",
  .paper = "Hendrickson and Leland 1995 Section 3 (multilevel); deveci2015, selvitopi (refiners)",
  .params = ml_params,
  .start = "embed",
  .needs_coordinates = TRUE,
  .cost = "its refiner on each level, levels halving in size; a time limit or an interrupt "
          "keeps the last level finished",
  .max_ranks = -1,
  .run = run_ml,
};
