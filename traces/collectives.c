/* collectives.c - message schedules of collective algorithms (see
 * collectives.h for the algorithms, byte conventions and dependency rule).
 * Each builder is O(messages) and allocates only inside `out`.
 * The algorithms are the classic ones of MPICH (Thakur, Rabenseifner and
 * Gropp, "Optimization of Collective Communication Operations in MPICH",
 * IJHPCA 2005).
 */
#include "traces/collectives-private.h"
#include "util/checked.h"
#include "util/enumname.h"

#include <string.h>

G_DEFINE_QUARK(coll-error-quark, coll_error)

#define OPBIT(op) (1u << (op))
#define ROOTED_TO_ALL (OPBIT(COLL_BCAST) | OPBIT(COLL_SCATTER) | OPBIT(COLL_SCATTERV))
#define ROOTED_FROM_ALL (OPBIT(COLL_REDUCE) | OPBIT(COLL_GATHER) | OPBIT(COLL_GATHERV))
#define ALLGATHERS (OPBIT(COLL_ALLGATHER) | OPBIT(COLL_ALLGATHERV))
#define ALLTOALLS (OPBIT(COLL_ALLTOALL) | OPBIT(COLL_ALLTOALLV) | OPBIT(COLL_ALLTOALLW))
#define REDSCATS (OPBIT(COLL_REDUCE_SCATTER) | OPBIT(COLL_REDUCE_SCATTER_BLOCK))
#define SCANS (OPBIT(COLL_SCAN) | OPBIT(COLL_EXSCAN))

static const char *const op_names[] = {
#define COLL_OP_NAME(code, name, otf2) [code] = name,
  COLL_OPS(COLL_OP_NAME)
#undef COLL_OP_NAME
};

const char *coll_op_name(int op)
{
  return enum_name_or(op_names, COLL_NOPS, op, "other");
}

gboolean coll_op_from_name(const char *name, coll_op *op)
{
  int i;
  if (!enum_parse(op_names, COLL_NOPS, name, &i))
    return FALSE;
  *op = (coll_op)i;
  return TRUE;
}

static int64_t contrib(const int64_t *bytes, int r)
{
  return bytes ? bytes[r] : 0;
}

static void push(GArray *out, int round, int src, int dst, int64_t bytes)
{
  coll_msg m = { round, src, dst, bytes };
  g_array_append_val(out, m);
}

static int ceil_log2(int P)
{
  int l = 0;
  while ((1 << l) < P)
    l++;
  return l;
}

/* Bytes of the block of relative ranks [lo, hi) (absolute rank = rel+root). */
static int64_t block_bytes(const int64_t *bytes, int P, int root, int lo, int hi)
{
  int64_t s = 0;
  for (int v = lo; v < hi && v < P; v++)
    s += contrib(bytes, (v + root) % P);
  return s;
}

/* Binomial tree. To-all ops walk the mask down (subtrees contiguous in
 * relative rank), from-all ops walk it up. */
static void build_binomial(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  int L = ceil_log2(P);
  gboolean down = (OPBIT(op) & ROOTED_TO_ALL) != 0;
  for (int j = 0; j < L; j++) {
    int mask = down ? 1 << (L - 1 - j) : 1 << j;
    for (int v = 0; v < P; v++) {
      if (down && v % (2 * mask) == 0 && v + mask < P) {
        int64_t b = op == COLL_BCAST ? contrib(bytes, root)
                                     : block_bytes(bytes, P, root, v + mask, v + 2 * mask);
        push(out, j, (v + root) % P, (v + mask + root) % P, b);
      } else if (!down && v % (2 * mask) == mask) {
        int64_t b = op == COLL_REDUCE ? contrib(bytes, (v + root) % P)
                                      : block_bytes(bytes, P, root, v, v + mask);
        push(out, j, (v + root) % P, (v - mask + root) % P, b);
      }
    }
  }
}

/* Chunk c of a vector of n bytes cut in P pieces (the first n % P one byte
 * longer). */
static int64_t chunk(int64_t n, int P, int c)
{
  return n / P + (c < n % P ? 1 : 0);
}

static void build_linear(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  uint32_t bit = OPBIT(op);
  if (bit & (ALLGATHERS | ALLTOALLS)) {
    /* every rank posts all its sends at once (SMPI's iallgather(v) and
     * ialltoall(v), OpenMPI's basic linear alltoall) */
    for (int r = 0; r < P; r++)
      for (int k = 1; k < P; k++) {
        int d = (r + k) % P;
        push(out, 0, r, d, bit & ALLTOALLS ? chunk(contrib(bytes, r), P, d) : contrib(bytes, r));
      }
    return;
  }
  if (op == COLL_BARRIER) {
    /* OpenMPI's basic linear barrier: everyone to rank 0, then 0 to everyone */
    for (int r = 1; r < P; r++)
      push(out, 0, r, 0, 0);
    for (int r = 1; r < P; r++)
      push(out, 1, 0, r, 0);
    return;
  }
  gboolean down = (OPBIT(op) & ROOTED_TO_ALL) != 0;
  for (int r = 0; r < P; r++) {
    if (r == root)
      continue;
    if (down)
      push(out, 0, root, r, op == COLL_BCAST ? contrib(bytes, root) : contrib(bytes, r));
    else
      push(out, 0, r, root, contrib(bytes, r));
  }
}

static int64_t max_contrib(const int64_t *bytes, int P)
{
  int64_t m = 0;
  for (int r = 0; r < P; r++)
    m = MAX(m, contrib(bytes, r));
  return m;
}

/* Recursive doubling over the largest power of two p2 <= P; the first
 * 2*(P-p2) ranks pair up (even folds into odd) before and get the result
 * after (allreduce, barrier). Allgather needs P == p2. */
static void build_recdbl(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  int p2 = 1;
  while (p2 * 2 <= P)
    p2 *= 2;
  int rem = P - p2, round = 0;
  int64_t vec = op == COLL_ALLREDUCE ? max_contrib(bytes, P) : 0;
  if (rem > 0) {
    for (int r = 0; r < 2 * rem; r += 2)
      push(out, round, r, r + 1, vec);
    round++;
  }
  /* participant i <-> world rank: the odd ranks of the first 2*rem, then the rest */
  for (int mask = 1; mask < p2; mask *= 2, round++)
    for (int i = 0; i < p2; i++) {
      int peer = i ^ mask;
      int ri = i < rem ? 2 * i + 1 : i + rem, rp = peer < rem ? 2 * peer + 1 : peer + rem;
      int64_t b = vec;
      if (OPBIT(op) & ALLGATHERS)
        b = block_bytes(bytes, P, 0, i & ~(mask - 1), (i & ~(mask - 1)) + mask);
      push(out, round, ri, rp, b);
    }
  if (rem > 0)
    for (int r = 0; r < 2 * rem; r += 2)
      push(out, round, r + 1, r, vec);
}

static void build_ring(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  if (OPBIT(op) & ALLGATHERS) {
    for (int k = 0; k < P - 1; k++)
      for (int r = 0; r < P; r++)
        push(out, k, r, (r + 1) % P, contrib(bytes, ((r - k) % P + P) % P));
    return;
  }
  /* allreduce: reduce-scatter then allgather, chunk (r - k) mod P */
  int64_t n = max_contrib(bytes, P);
  for (int k = 0; k < 2 * (P - 1); k++)
    for (int r = 0; r < P; r++)
      push(out, k, r, (r + 1) % P, chunk(n, P, ((r - k) % P + P) % P));
}

/* What r sends dst in an all-to-all op or a reduce_scatter: its chunk of
 * r's vector; a reduce_scatter's blocks are each rank's own (its
 * contribution), which may differ. */
static int64_t part_for(coll_op op, const int64_t *bytes, int P, int r, int dst)
{
  return op == COLL_REDUCE_SCATTER ? contrib(bytes, dst) : chunk(contrib(bytes, r), P, dst);
}

/* The whole vector: every rank's for all-to-all ops and reduce_scatter_block,
 * the sum of the blocks for reduce_scatter. */
static int64_t vector_bytes(coll_op op, const int64_t *bytes, int P)
{
  return op == COLL_REDUCE_SCATTER ? block_bytes(bytes, P, 0, 0, P) : max_contrib(bytes, P);
}

static void build_pairwise(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  for (int k = 1; k < P; k++)
    for (int r = 0; r < P; r++) {
      int dst = (r + k) % P;
      push(out, k - 1, r, dst, part_for(op, bytes, P, r, dst));
    }
}

/* SMPI's default allreduce and reduce_scatter (smpi_default_selector.cpp):
 * a linear reduce to rank 0, then a binomial bcast of the vector
 * (allreduce) or a linear scatter of its chunks (reduce_scatter). */
static void build_redbcast(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  int64_t n = vector_bytes(op, bytes, P);
  for (int r = 1; r < P; r++)
    push(out, 0, r, 0, op == COLL_REDUCE_SCATTER ? n : contrib(bytes, r));
  if (op != COLL_ALLREDUCE) {
    for (int r = 1; r < P; r++)
      push(out, 1, 0, r, part_for(op, bytes, P, 0, r));
    return;
  }
  int L = ceil_log2(P);
  for (int j = 0; j < L; j++) {
    int mask = 1 << (L - 1 - j);
    for (int v = 0; v < P; v += 2 * mask)
      if (v + mask < P)
        push(out, 1 + j, v, v + mask, n);
  }
}

/* SimGrid 3.32's reduce_scatter__default (smpi_default_selector.cpp):
 * redbcast when every block is equal, else reduce_scatter__mpich, whose
 * pairwise exchange (reduce_scatter__mpich_pair) runs above 524,288
 * elements for the replay's null op; below that it takes recursive
 * doubling, which mapsim does not have: pairwise there too. */
static void build_smpi_reduce_scatter(coll_op op, int P, int root, const int64_t *bytes,
                                      GArray *out)
{
  gboolean regular = TRUE;
  for (int r = 1; r < P && regular; r++)
    regular = contrib(bytes, r) == contrib(bytes, 0);
  if (op != COLL_REDUCE_SCATTER || regular)
    build_redbcast(op, P, root, bytes, out);
  else
    build_pairwise(op, P, root, bytes, out);
}

static void build_dissemination(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  int L = ceil_log2(P);
  for (int k = 0; k < L; k++)
    for (int r = 0; r < P; r++)
      push(out, k, r, (r + (1 << k)) % P, 0);
}

static void build_chain(coll_op op, int P, int root, const int64_t *bytes, GArray *out)
{
  for (int r = 0; r + 1 < P; r++)
    push(out, r, r, r + 1, contrib(bytes, r));
}

const coll_algo coll_algos[] = {
  { "auto", 0xffffffffu,
    "per op: binomial for rooted ops, dissemination for barrier, pairwise for alltoall and "
    "reduce_scatter, chain for scans; allreduce and allgather recursive_doubling below "
    G_STRINGIFY(COLL_AUTO_SHORT_BYTES) " bytes per rank (allgather: P a power of two), else ring",
    NULL },
  { "binomial", ROOTED_TO_ALL | ROOTED_FROM_ALL,
    "binomial tree: ceil(log2 P) rounds, P-1 messages", build_binomial },
  { "linear", ROOTED_TO_ALL | ROOTED_FROM_ALL | ALLGATHERS | ALLTOALLS | OPBIT(COLL_BARRIER),
    "root exchanges with every rank directly: 1 round, P-1 messages (all-to-all ops: every "
    "pair at once, P(P-1); barrier: to rank 0 and back, 2 rounds)", build_linear },
  { "redbcast", OPBIT(COLL_ALLREDUCE) | REDSCATS,
    "linear reduce to rank 0, then binomial bcast (allreduce) or linear scatter "
    "(reduce_scatter): SMPI's default", build_redbcast },
  { "recursive_doubling", OPBIT(COLL_ALLREDUCE) | ALLGATHERS | OPBIT(COLL_BARRIER),
    "pairwise exchange with rank ^ 2^k: log2 P rounds (+2 when P is not a power of two)",
    build_recdbl },
  { "ring", OPBIT(COLL_ALLREDUCE) | ALLGATHERS,
    "neighbour ring: allgather P-1 rounds, allreduce 2(P-1) rounds of chunks", build_ring },
  { "pairwise", ALLTOALLS | REDSCATS,
    "round k: r sends its chunk for (r+k) mod P; P-1 rounds", build_pairwise },
  { "dissemination", OPBIT(COLL_BARRIER),
    "round k: r -> (r + 2^k) mod P; ceil(log2 P) rounds, P ceil(log2 P) messages",
    build_dissemination },
  { "chain", SCANS, "prefix passed along r -> r+1: P-1 rounds", build_chain },
  { "smpi", REDSCATS,
    "SMPI's reduce_scatter: redbcast when every rank's block is equal, else pairwise",
    build_smpi_reduce_scatter },
};

const int coll_nalgos = G_N_ELEMENTS(coll_algos);

/* Registry lookup; NULL when unknown. */
static const coll_algo *coll_algo_lookup(const char *name)
{
  for (int i = 0; i < coll_nalgos; i++)
    if (g_strcmp0(coll_algos[i].name, name) == 0)
      return &coll_algos[i];
  return NULL;
}

const coll_algo *coll_algo_auto(coll_op op, int P, const int64_t *bytes)
{
  uint32_t bit = OPBIT(op);
  gboolean short_msg = max_contrib(bytes, P) < COLL_AUTO_SHORT_BYTES;
  if (bit & (ROOTED_TO_ALL | ROOTED_FROM_ALL))
    return coll_algo_lookup("binomial");
  if (op == COLL_BARRIER)
    return coll_algo_lookup("dissemination");
  if (bit & (ALLTOALLS | REDSCATS))
    return coll_algo_lookup("pairwise");
  if (bit & SCANS)
    return coll_algo_lookup("chain");
  if (op == COLL_ALLREDUCE)
    return coll_algo_lookup(short_msg ? "recursive_doubling" : "ring");
  gboolean pow2 = (P & (P - 1)) == 0;
  return coll_algo_lookup(short_msg && pow2 ? "recursive_doubling" : "ring");
}

gboolean coll_schedule(coll_op op, const char *algo, int P, int root, const int64_t *bytes,
                       GArray *out, GError **error)
{
  g_assert(P >= 1);
  if (op < 0 || op >= COLL_NOPS) {
    g_set_error(error, COLL_ERROR, COLL_ERROR_ALGO,
                "collective op %d: not an MPI data collective, expected one of barrier..exscan",
                (int)op);
    return FALSE;
  }
  const coll_algo *a = coll_algo_lookup(algo ? algo : "auto");
  if (a && a->build == NULL)
    a = coll_algo_auto(op, P, bytes);
  if (a == NULL || !(a->ops & OPBIT(op))) {
    g_set_error(error, COLL_ERROR, COLL_ERROR_ALGO,
                "collective algorithm '%s': %s, expected one implementing %s (see mapsim trace --help)",
                algo, a ? "does not implement this op" : "unknown", coll_op_name(op));
    return FALSE;
  }
  if (a->build == build_recdbl && (OPBIT(op) & ALLGATHERS) && (P & (P - 1)) != 0) {
    g_set_error(error, COLL_ERROR, COLL_ERROR_ALGO,
                "collective algorithm recursive_doubling: allgather on %d ranks, expected a "
                "power-of-two communicator", P);
    return FALSE;
  }
  if (P > 1) {
    g_assert(!(OPBIT(op) & (ROOTED_TO_ALL | ROOTED_FROM_ALL)) || (root >= 0 && root < P));
    a->build(op, P, root, bytes, out);
  }
  return TRUE;
}

/* SimGrid 3.32's "default" selector (smpi_default_selector.cpp, the
 * algorithms smpirun runs without --cfg=smpi/coll-selector): bcast
 * binomial tree, barrier OpenMPI's basic linear, gather(v), scatter(v),
 * reduce (commutative ops), allgather(v) and alltoallv the linear
 * nonblocking ones, allreduce reduce + bcast, reduce_scatter reduce +
 * scatterv for equal blocks and MPICH's pairwise exchange otherwise
 * (build_smpi_reduce_scatter), alltoall OpenMPI's selector, linear (basic or sync) for the
 * communicators and sizes where it picks it. Scans keep auto's chain. */
static const struct {
  coll_op op;
  const char *algo;
} smpi_defaults[] = {
  { COLL_BCAST, "binomial" },          { COLL_BARRIER, "linear" },
  { COLL_GATHER, "linear" },           { COLL_GATHERV, "linear" },
  { COLL_SCATTER, "linear" },          { COLL_SCATTERV, "linear" },
  { COLL_REDUCE, "linear" },           { COLL_ALLREDUCE, "redbcast" },
  { COLL_REDUCE_SCATTER, "smpi" },     { COLL_REDUCE_SCATTER_BLOCK, "redbcast" },
  { COLL_ALLGATHER, "linear" },        { COLL_ALLGATHERV, "linear" },
  { COLL_ALLTOALL, "linear" },         { COLL_ALLTOALLV, "linear" },
  { COLL_ALLTOALLW, "linear" },
};

gboolean coll_choice_parse(coll_choice *c, const char *spec, GError **error)
{
  memset(c, 0, sizeof *c);
  if (!spec || !*spec)
    return TRUE;
  g_auto(GStrv) items = g_strsplit(spec, ",", -1);
  for (int i = 0; items[i]; i++) {
    char *item = g_strstrip(items[i]);
    if (strcmp(item, "none") == 0) {
      c->none = TRUE;
      continue;
    }
    if (strcmp(item, "smpi") == 0) {
      for (size_t k = 0; k < G_N_ELEMENTS(smpi_defaults); k++) {
        c->algo[smpi_defaults[k].op] = smpi_defaults[k].algo;
        c->strict[smpi_defaults[k].op] = FALSE;
      }
      continue;
    }
    char *eq = strchr(item, '=');
    const char *name = eq ? eq + 1 : item;
    const coll_algo *a = coll_algo_lookup(name);
    coll_op op = COLL_BARRIER;
    if (eq) {
      *eq = '\0';
      if (!coll_op_from_name(item, &op)) {
        g_set_error(error, COLL_ERROR, COLL_ERROR_ALGO,
                    "--collectives: '%s' is not a collective op, expected OP=ALGORITHM with "
                    "OP one of bcast, allreduce, ... (mapsim trace --help)", item);
        return FALSE;
      }
    }
    if (!a || (eq && a->build && !(a->ops & (1u << op)))) {
      g_set_error(error, COLL_ERROR, COLL_ERROR_ALGO,
                  "--collectives: algorithm '%s' %s%s%s, expected none, auto, an algorithm or "
                  "OP=ALGORITHM (mapsim trace --help)", name,
                  a ? "is not defined for " : "is unknown", a ? item : "", "");
      return FALSE;
    }
    for (int o = 0; o < COLL_NOPS; o++) {
      if (eq ? o != (int)op : (a->build && !(a->ops & (1u << o))))
        continue;
      c->algo[o] = a->build ? a->name : NULL;
      c->strict[o] = eq != NULL;
    }
  }
  return TRUE;
}

gboolean coll_schedule_choice(const coll_choice *c, coll_op op, int P, int root,
                              const int64_t *bytes, GArray *out, GError **error)
{
  const char *algo = c && op >= 0 && op < COLL_NOPS ? c->algo[op] : NULL;
  if (algo && !c->strict[op]) {
    guint len = out->len;
    if (coll_schedule(op, algo, P, root, bytes, out, NULL))
      return TRUE;
    g_array_set_size(out, len);
    algo = NULL;
  }
  return coll_schedule(op, algo, P, root, bytes, out, error);
}

int coll_nrounds(const coll_msg *msgs, size_t n)
{
  int r = -1;
  for (size_t i = 0; i < n; i++)
    r = MAX(r, msgs[i].round);
  return r + 1;
}

/* ---- the byte counts of an MPI collective record ----------------------- */

/* n * b, INT64_MAX instead of wrapping (n, b >= 0) */
static int64_t times(int64_t n, int64_t b)
{
  int64_t r;
  return checked_mul_i64(n, b, &r) ? r : INT64_MAX;
}

/* total / n, total itself when n < 1 (a communicator of one) */
static int64_t per(int64_t total, int64_t n)
{
  return n >= 1 ? total / n : total;
}

int64_t coll_contrib_of_record(coll_op op, int P, int me, gboolean is_root, int64_t sent,
                               int64_t recvd)
{
  switch (op) {
  case COLL_BARRIER:
    return 0;
  case COLL_BCAST:
  case COLL_SCATTER:
    /* each rank receives its block; a root in place receives nothing */
    if (!is_root || recvd > 0)
      return recvd;
    return per(sent, op == COLL_BCAST ? P : P - 1);
  case COLL_SCATTERV:
    return recvd;
  case COLL_GATHER:
  case COLL_REDUCE:
    if (is_root && sent == 0)
      return per(recvd, P - 1); /* in place */
    return sent;
  case COLL_ALLGATHER:
  case COLL_ALLGATHERV:
  case COLL_ALLREDUCE:
    return per(sent, P);
  case COLL_SCAN: {
    /* sent + recvd = (P+1) v, or (P-1) v in place, whatever me is */
    int64_t l, r, sum = saturating_add_i64(sent, recvd);
    gboolean plain = checked_mul_i64(sent, (int64_t)me + 1, &l) &&
                     checked_mul_i64(recvd, (int64_t)P - me, &r) && l == r;
    return per(sum, plain ? (int64_t)P + 1 : (int64_t)P - 1);
  }
  case COLL_EXSCAN:
    return per(saturating_add_i64(sent, recvd), (int64_t)P - 1);
  case COLL_REDUCE_SCATTER:
    /* the own block: P of it received, or the vector's P-th part */
    return recvd > 0 ? per(recvd, P) : per(sent, P);
  default: /* gatherv, alltoall(v/w), reduce_scatter_block, other */
    return sent;
  }
}

void coll_record_of_contrib(coll_op op, int P, int me, gboolean is_root, int64_t contrib,
                            int64_t *sent, int64_t *recvd)
{
  int64_t c = MAX(contrib, 0), n = MAX(P, 1);
  switch (op) {
  case COLL_BARRIER:
    *sent = *recvd = 0;
    return;
  case COLL_BCAST:
  case COLL_SCATTER:
  case COLL_SCATTERV:
    *sent = is_root ? times(n, c) : 0;
    *recvd = c;
    return;
  case COLL_GATHER:
  case COLL_REDUCE:
    *sent = c;
    *recvd = is_root ? times(n, c) : 0;
    return;
  case COLL_GATHERV:
    *sent = c;
    if (!is_root)
      *recvd = 0;
    return;
  case COLL_ALLGATHER:
  case COLL_ALLREDUCE:
    *sent = *recvd = times(n, c);
    return;
  case COLL_ALLGATHERV:
    *sent = times(n, c);
    return;
  case COLL_ALLTOALL:
  case COLL_REDUCE_SCATTER_BLOCK:
    *sent = *recvd = c;
    return;
  case COLL_REDUCE_SCATTER:
    /* the other ranks' blocks are not in this rank's: a vector of P
     * blocks like its own */
    *sent = *recvd = times(n, c);
    return;
  case COLL_SCAN:
    *sent = times(n - me, c);
    *recvd = times((int64_t)me + 1, c);
    return;
  case COLL_EXSCAN:
    *sent = times(MAX(n - me - 1, 0), c);
    *recvd = times(me, c);
    return;
  default: /* alltoallv/w, other */
    *sent = c;
    return;
  }
}
