/* replay-search.c - `replay`: improves a mapping by the simulated time (or
 * another simulated objective), a local search whose every candidate is
 * scored by the context's evaluation hook. The hook replays the trace
 * (sim/optimize.c); this file never simulates, it only reads the scores
 * and where each replay says it hurt: the links' busy times and a weight
 * per task.
 *
 * A move takes one task to another allocated node: into a free slot when
 * the node has one and the fill rule keeps its number of nodes, else in
 * exchange for a task there. Which task moves follows the last accepted
 * replay (moves=):
 *  - hot: a link drawn among the 8 busiest (by busy time), then a graph
 *    edge routed over it (by bytes), then one of its two ends: the ranks
 *    at the ends of the hottest links;
 *  - late: a task drawn among the quarter of most heat (sim/optimize.c: the
 *    ranks that finish last, where the critical path ends);
 *  - random: any task;
 *  - mix (default): hot, late and random in the proportions 2:1:1.
 * It goes near a partner drawn by bytes: to one of the 3 allocated nodes
 * nearest to that partner's node (one move in 5: any allocated node).
 *
 * Acceptance (accept=):
 *  - anneal (default): simulated annealing (Kirkpatrick, Gelatt and
 *    Vecchi, "Optimization by simulated annealing", Science 220(4598),
 *    1983) with the Metropolis rule drawn before the replay: a candidate
 *    is accepted iff value <= current - T ln u (u uniform in (0, 1]), the
 *    rule exp(-(value - current) / T) >= u solved for the value, so that
 *    its replay may stop as soon as the makespan passes that threshold. T
 *    falls geometrically from temp x the start's value to a thousandth of
 *    that over the budget.
 *  - tabu: every round moves to the best candidate of the round, even a
 *    worse one (Glover, "Tabu search - Part I", ORSA J. Computing 1(3),
 *    1989, Section 3); the tasks it moved may not move for max(2, n/4)
 *    rounds. Its replays run to the end (the best of a round is needed).
 *  - better: descent, improvements only.
 *
 * Rounds: `batch` candidates are drawn from the current mapping with the
 * seed's random stream (in the calling thread), replayed on `threads`
 * threads at once, and the accepted one is the least, ties to the earlier
 * candidate: the same result for any thread count. The best mapping met
 * is kept, compared exactly with the start's replay: the result is never
 * worse than the start.
 *
 * Budget: `evals` replays (the start's included); `time` seconds of wall
 * time (0: none; a time limit makes the result depend on the machine); an
 * interrupt ends the search with the best so far.
 * Progress: replays done out of evals.
 */
#include <math.h>
#include <string.h>

#include "mapping/map-util.h"

#define HOT_LINKS 8   /* links the hot moves draw from */
#define NEAR_NODES 3  /* nodes near a partner a task may go to */

enum { MOVE_HOT, MOVE_LATE, MOVE_RANDOM };
enum { ACCEPT_ANNEAL, ACCEPT_TABU, ACCEPT_BETTER };

typedef struct cand {
  mapping *m;
  int task, other;       /* the task moved; the one exchanged with it, or -1 */
  double limit;          /* anneal, better: the threshold; tabu: INFINITY */
  strategy_score sc;     /* owns its heat arrays */
  GError *error;
  gboolean ok;
} cand;

typedef struct hot_edge {
  int src, dst, link;    /* tasks; index in the hot links */
  int64_t bytes;
} hot_edge;

typedef struct search {
  const strategy_ctx *ctx;
  const char *obj;
  int n, cap, moves, accept;
  sym_graph s;
  hop_table h;
  GRand *rng;
  /* the current mapping and what its replay said */
  mapping *cur;
  strategy_score now;
  int *load;             /* tasks per node */
  int *node_off, *node_tasks; /* tasks of each node: CSR over nodes */
  int hot[HOT_LINKS], nhot;
  GArray *edges;         /* hot_edge over the hot links */
  int *late, nlate;      /* tasks of most heat, hottest first */
  int *tabu_until;       /* tabu: round until which a task stays */
  int round;
} search;

static void score_init(strategy_score *sc, int nlinks, int ntasks)
{
  *sc = (strategy_score){ .link_heat = g_new0(int64_t, MAX(nlinks, 1)),
                          .task_heat = g_new0(double, MAX(ntasks, 1)) };
}

static void score_clear(strategy_score *sc)
{
  g_free(sc->link_heat);
  g_free(sc->task_heat);
}

static int cmp_heat_desc(const void *a, const void *b, void *user)
{
  const double *heat = user;
  int x = *(const int *)a, y = *(const int *)b;
  if (heat[x] != heat[y])
    return heat[x] > heat[y] ? -1 : 1;
  return x - y;
}

/* What the moves of the next round draw from: node contents, the hot
 * links and the edges routed over them, the tasks of most heat. */
static void guide(search *S)
{
  const platform *p = S->ctx->p;
  const commgraph *g = S->ctx->g;
  int nn = p->topo->nnodes, nl = p->topo->nlinks;
  const int *node = S->cur->node;
  memset(S->load, 0, sizeof(int) * (size_t)nn);
  for (int i = 0; i < S->n; i++)
    S->load[node[i]]++;
  S->node_off[0] = 0;
  for (int v = 0; v < nn; v++)
    S->node_off[v + 1] = S->node_off[v] + S->load[v];
  int *fill = g_new0(int, nn);
  for (int i = 0; i < S->n; i++)
    S->node_tasks[S->node_off[node[i]] + fill[node[i]]++] = i;
  g_free(fill);
  /* the HOT_LINKS busiest links (ties: lower id) */
  S->nhot = 0;
  for (int l = 0; l < nl; l++) {
    int64_t h = S->now.link_heat[l];
    if (h <= 0)
      continue;
    int at = S->nhot < HOT_LINKS ? S->nhot++ : HOT_LINKS;
    while (at > 0 && S->now.link_heat[S->hot[at - 1]] < h) {
      if (at < HOT_LINKS)
        S->hot[at] = S->hot[at - 1];
      at--;
    }
    if (at < HOT_LINKS)
      S->hot[at] = l;
  }
  g_array_set_size(S->edges, 0);
  route_iter it;
  for (int i = 0; S->nhot && i < g->n; i++)
    for (int e = g->xadj[i]; e < g->xadj[i + 1]; e++) {
      int j = g->adj[e], l;
      if (j == i || node[i] == node[j] || g->bytes[e] <= 0)
        continue;
      /* tasks that are groups of ranks key a route of their own: it only guides */
      route_begin(&it, p->router, node[i], node[j], route_key(i, j));
      while (route_next(&it, &l))
        for (int k = 0; k < S->nhot; k++)
          if (S->hot[k] == l) {
            hot_edge he = { i, j, k, g->bytes[e] };
            g_array_append_val(S->edges, he);
          }
    }
  for (int i = 0; i < S->n; i++)
    S->late[i] = i;
  g_qsort_with_data(S->late, S->n, sizeof(int), cmp_heat_desc, S->now.task_heat);
  S->nlate = MAX(1, S->n / 4);
}

/* An index drawn with probability proportional to w[0..n-1] (all >= 0;
 * uniform when they sum to 0). */
static int draw_weighted(GRand *rng, const double *w, int n)
{
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += w[i];
  if (!(sum > 0))
    return g_rand_int_range(rng, 0, n);
  double x = g_rand_double(rng) * sum;
  for (int i = 0; i < n; i++) {
    x -= w[i];
    if (x < 0)
      return i;
  }
  return n - 1;
}

/* One end of an edge over a hot link, or -1 when no edge crosses one. */
static int draw_hot_task(search *S)
{
  if (!S->edges->len)
    return -1;
  double w[HOT_LINKS];
  for (int k = 0; k < S->nhot; k++)
    w[k] = (double)S->now.link_heat[S->hot[k]];
  int k = draw_weighted(S->rng, w, S->nhot);
  double sum = 0;
  const hot_edge *he = (const hot_edge *)(void *)S->edges->data;
  for (guint i = 0; i < S->edges->len; i++)
    sum += he[i].link == k ? (double)he[i].bytes : 0;
  if (!(sum > 0))
    return -1;
  double x = g_rand_double(S->rng) * sum;
  for (guint i = 0; i < S->edges->len; i++) {
    if (he[i].link != k)
      continue;
    x -= (double)he[i].bytes;
    if (x < 0 || i + 1 == S->edges->len)
      return g_rand_boolean(S->rng) ? he[i].src : he[i].dst;
  }
  return -1;
}

static int draw_task(search *S)
{
  int kind = S->moves;
  if (kind < 0) { /* mix */
    int r = g_rand_int_range(S->rng, 0, 4);
    kind = r < 2 ? MOVE_HOT : r == 2 ? MOVE_LATE : MOVE_RANDOM;
  }
  int t = -1;
  if (kind == MOVE_HOT)
    t = draw_hot_task(S);
  else if (kind == MOVE_LATE)
    t = S->late[g_rand_int_range(S->rng, 0, S->nlate)];
  return t >= 0 ? t : g_rand_int_range(S->rng, 0, S->n);
}

/* The node task t goes to: near a partner drawn by bytes, or any
 * allocated node; never its own. -1 when there is no other node. */
static int draw_node(search *S, int t)
{
  const platform *p = S->ctx->p;
  const int *node = S->cur->node;
  int from = node[t];
  if (p->nalloc < 2)
    return -1;
  const sym_graph *s = &S->s;
  int deg = s->xadj[t + 1] - s->xadj[t];
  if (deg > 0 && g_rand_int_range(S->rng, 0, 5) > 0) {
    double *w = g_new(double, deg);
    for (int k = 0; k < deg; k++)
      w[k] = (double)(s->wout[s->xadj[t] + k] + s->win[s->xadj[t] + k]);
    int partner = s->adj[s->xadj[t] + draw_weighted(S->rng, w, deg)];
    g_free(w);
    int near[NEAR_NODES], dist[NEAR_NODES], nnear = 0;
    for (int a = 0; a < p->nalloc; a++) {
      int v = p->alloc[a];
      if (v == from)
        continue;
      int d = hop_table_get(&S->h, node[partner], v);
      int at = nnear < NEAR_NODES ? nnear++ : NEAR_NODES;
      while (at > 0 && dist[at - 1] > d) {
        if (at < NEAR_NODES)
          near[at] = near[at - 1], dist[at] = dist[at - 1];
        at--;
      }
      if (at < NEAR_NODES)
        near[at] = v, dist[at] = d;
    }
    return near[g_rand_int_range(S->rng, 0, nnear)];
  }
  int v;
  do
    v = p->alloc[g_rand_int_range(S->rng, 0, p->nalloc)];
  while (v == from);
  return v;
}

static gboolean is_tabu(const search *S, int t)
{
  return S->tabu_until && t >= 0 && S->tabu_until[t] > S->round;
}

/* Draws candidate c from the current mapping: FALSE when no move exists
 * (or none new after a few tries). Moves already in the batch are not
 * drawn again. */
static gboolean draw_cand(search *S, cand *c, const cand *batch, int nbatch)
{
  const int *node = S->cur->node;
  for (int tries = 0; tries < 32; tries++) {
    int t = draw_task(S), to = draw_node(S, t);
    if (to < 0)
      return FALSE;
    int from = node[t], other = -1;
    /* a free slot, unless the move would use one node more than the fill rule */
    gboolean free_slot = S->load[to] < S->cap && (S->load[to] > 0 || S->load[from] == 1);
    if (!free_slot) {
      int cnt = S->node_off[to + 1] - S->node_off[to];
      if (cnt == 0)
        continue;
      other = S->node_tasks[S->node_off[to] + g_rand_int_range(S->rng, 0, cnt)];
    }
    if (tries < 16 && (is_tabu(S, t) || is_tabu(S, other)))
      continue;
    gboolean seen = FALSE;
    for (int i = 0; i < nbatch && !seen; i++) {
      const cand *b = &batch[i];
      seen = (b->task == t && b->m->node[t] == to && b->other == other) ||
             (other >= 0 && b->task == other && b->other == t);
    }
    if (seen)
      continue;
    memcpy(c->m->node, node, sizeof(int) * (size_t)S->n);
    c->m->node[t] = to;
    if (other >= 0)
      c->m->node[other] = from;
    c->task = t;
    c->other = other;
    return TRUE;
  }
  return FALSE;
}

static void score_cand(gpointer data, gpointer user)
{
  cand *c = data;
  const search *S = user;
  const strategy_eval *ev = S->ctx->eval;
  c->ok = ev->score(ev->user, S->obj, c->m, c->limit, &c->sc, &c->error);
}

/* Replays the candidates [0, n) on `threads` threads. */
static void score_all(search *S, cand *c, int n, int threads)
{
  if (threads <= 1 || n <= 1) {
    for (int i = 0; i < n; i++)
      score_cand(&c[i], S);
    return;
  }
  GThreadPool *pool = g_thread_pool_new(score_cand, S, MIN(threads, n), TRUE, NULL);
  for (int i = 0; i < n; i++)
    g_thread_pool_push(pool, &c[i], NULL);
  g_thread_pool_free(pool, FALSE, TRUE);
}

static gboolean parse_opts(const strategy_args *args, search *S, GError **error)
{
  const char *moves = strategy_arg_str(args, "moves"), *accept = strategy_arg_str(args, "accept");
  S->obj = strategy_arg_str(args, "obj");
  S->moves = strcmp(moves, "hot") == 0 ? MOVE_HOT : strcmp(moves, "late") == 0 ? MOVE_LATE
             : strcmp(moves, "random") == 0 ? MOVE_RANDOM : -1;
  S->accept = strcmp(accept, "tabu") == 0 ? ACCEPT_TABU
              : strcmp(accept, "better") == 0 ? ACCEPT_BETTER : ACCEPT_ANNEAL;
  if (strategy_objective_find(S->obj)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "replay:obj=%s: a static objective, expected a simulated one (makespan, or a "
                "field of simulate's output); kl and tabu optimize static ones", S->obj);
    return FALSE;
  }
  if (!S->ctx->eval) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "replay: needs a trace and a network model to replay (simulate, compare, "
                "study, or map with --trace and --model), expected them");
    return FALSE;
  }
  return TRUE;
}

static void search_init(search *S, const strategy_ctx *ctx, mapping *m)
{
  const platform *p = ctx->p;
  int nn = p->topo->nnodes;
  S->ctx = ctx;
  S->n = m->ntasks;
  S->cap = MAX(p->cores_per_node, 1);
  sym_graph_build(&S->s, ctx->g);
  hop_table_init(&S->h, p);
  S->rng = g_rand_new_with_seed(ctx->seed);
  S->cur = m;
  score_init(&S->now, p->topo->nlinks, S->n);
  S->load = g_new0(int, nn);
  S->node_off = g_new0(int, nn + 1);
  S->node_tasks = g_new0(int, MAX(S->n, 1));
  S->edges = g_array_new(FALSE, FALSE, sizeof(hot_edge));
  S->late = g_new(int, MAX(S->n, 1));
}

static void search_clear(search *S)
{
  sym_graph_clear(&S->s);
  hop_table_clear(&S->h);
  g_rand_free(S->rng);
  score_clear(&S->now);
  g_free(S->load);
  g_free(S->node_off);
  g_free(S->node_tasks);
  g_array_free(S->edges, TRUE);
  g_free(S->late);
  g_free(S->tabu_until);
}

/* Picks the candidate the rule accepts: the least value within its
 * threshold (tabu: the least), ties to the earlier; -1 for none. */
static int pick(const search *S, const cand *c, int n)
{
  int win = -1;
  for (int i = 0; i < n; i++) {
    if (!c[i].ok || c[i].sc.over || c[i].sc.value > c[i].limit)
      continue;
    if (S->accept == ACCEPT_BETTER && !(c[i].sc.value < S->now.value))
      continue;
    if (win < 0 || c[i].sc.value < c[win].sc.value)
      win = i;
  }
  return win;
}

/* Budget and bookkeeping of one search. */
typedef struct budget {
  int evals, batch, threads;
  double temp, start, best_v;
  gint64 deadline;       /* monotonic microseconds, 0: none */
  int used, accepted, cut;
  int *best;             /* the best mapping met */
  const char *stopped;   /* why the search ended early, or NULL */
} budget;

/* Draws up to `batch` candidates with their thresholds; returns how many. */
static int draw_round(search *S, budget *B, cand *c)
{
  double T = B->temp * fabs(B->start) * pow(1e-3, (double)B->used / B->evals);
  int n = 0;
  for (; n < MIN(B->batch, B->evals - B->used); n++) {
    if (!draw_cand(S, &c[n], c, n))
      break;
    double u = 1.0 - g_rand_double(S->rng); /* (0, 1] */
    c[n].limit = S->accept == ACCEPT_TABU     ? INFINITY
                 : S->accept == ACCEPT_ANNEAL ? S->now.value - T * log(u)
                                              : S->now.value;
    g_clear_error(&c[n].error);
  }
  return n;
}

/* Moves to candidate `win`: the current mapping, its scores, tabu. */
static void accept_cand(search *S, budget *B, cand *win)
{
  strategy_score tmp = S->now;
  S->now = win->sc;
  win->sc = tmp;
  memcpy(S->cur->node, win->m->node, sizeof(int) * (size_t)S->n);
  B->accepted++;
  if (S->tabu_until) {
    int tenure = MAX(2, S->n / 4);
    S->tabu_until[win->task] = S->round + tenure;
    if (win->other >= 0)
      S->tabu_until[win->other] = S->round + tenure;
  }
  if (S->now.value < B->best_v) {
    B->best_v = S->now.value;
    memcpy(B->best, S->cur->node, sizeof(int) * (size_t)S->n);
  }
  guide(S);
}

/* One round: draw, replay, accept. FALSE when the search ends (budget,
 * nothing to move, an interrupt, or an error left in *error). */
static gboolean run_round(search *S, budget *B, cand *c, GError **error)
{
  const progress *prog = S->ctx->prog;
  if (B->used >= B->evals)
    return FALSE;
  if (progress_stopped(prog))
    B->stopped = "interrupted";
  else if (B->deadline && g_get_monotonic_time() >= B->deadline)
    B->stopped = "time limit";
  int n = B->stopped ? 0 : draw_round(S, B, c);
  if (n == 0)
    return FALSE;
  score_all(S, c, n, B->threads);
  B->used += n;
  S->round++;
  for (int i = 0; i < n; i++) {
    B->cut += c[i].ok && c[i].sc.over;
    if (c[i].ok)
      continue;
    if (progress_stopped(prog)) { /* the replays stopped with the search */
      B->stopped = "interrupted";
    } else { /* an error every candidate would meet */
      g_propagate_error(error, c[i].error);
      c[i].error = NULL;
    }
    return FALSE;
  }
  int win = pick(S, c, n);
  if (win >= 0)
    accept_cand(S, B, &c[win]);
  progress_report(prog, "replay search: replays", (uint64_t)B->used, (uint64_t)B->evals);
  return TRUE;
}

static void report(const search *S, const budget *B, const char *accept)
{
  g_string_append_printf(S->ctx->report,
                         "replay (%s, %s): %.9g -> %.9g (%+.1f%%), %d replays (%d stopped early, "
                         "%d accepted)%s%s\n",
                         S->now.objective, accept, B->start, B->best_v,
                         B->start != 0 ? 100.0 * (B->best_v - B->start) / fabs(B->start) : 0.0,
                         B->used, B->cut, B->accepted, B->stopped ? "; stopped: " : "",
                         B->stopped ? B->stopped : "");
}

static gboolean run_replay(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                           GError **error)
{
  search S = { 0 };
  S.ctx = ctx;
  if (!parse_opts(args, &S, error))
    return FALSE;
  budget B = { .evals = strategy_arg_int(args, "evals"), .batch = strategy_arg_int(args, "batch"),
               .threads = strategy_arg_int(args, "threads"),
               .temp = strategy_arg_double(args, "temp") };
  double limit_s = strategy_arg_double(args, "time");
  if (B.threads <= 0)
    B.threads = (int)g_get_num_processors();
  search_init(&S, ctx, m);
  gboolean ok = ctx->eval->score(ctx->eval->user, S.obj, m, INFINITY, &S.now, error);
  if (!ok) {
    search_clear(&S);
    return FALSE;
  }
  if (ctx->chosen_by)
    *ctx->chosen_by = S.now.objective;
  B.start = B.best_v = S.now.value;
  B.best = g_memdup2(m->node, sizeof(int) * (size_t)S.n);
  B.used = 1;
  B.deadline = limit_s > 0 ? g_get_monotonic_time() + (gint64)(limit_s * 1e6) : 0;
  if (S.accept == ACCEPT_TABU)
    S.tabu_until = g_new0(int, MAX(S.n, 1));
  cand *c = g_new0(cand, B.batch);
  for (int i = 0; i < B.batch; i++) {
    c[i].m = mapping_new(S.n);
    score_init(&c[i].sc, ctx->p->topo->nlinks, S.n);
  }
  guide(&S);
  GError *e = NULL;
  while (run_round(&S, &B, c, &e))
    ;
  ok = e == NULL;
  if (ok)
    memcpy(m->node, B.best, sizeof(int) * (size_t)S.n);
  else
    g_propagate_error(error, e);
  if (ok && ctx->report)
    report(&S, &B, strategy_arg_str(args, "accept"));
  for (int i = 0; i < B.batch; i++) {
    mapping_free(c[i].m);
    score_clear(&c[i].sc);
    g_clear_error(&c[i].error);
  }
  g_free(c);
  g_free(B.best);
  search_clear(&S);
  return ok;
}

static const strategy_param replay_params[] = {
  { "obj", SPARAM_SIMULATED, "makespan", NULL,
    "what the search minimizes: makespan, or a field of simulate's output (max_link_busy_s, "
    "p2p_transfer_sum_s ...)" },
  { "moves", SPARAM_CHOICE, "mix", "mix|hot|late|random",
    "which task moves: at the ends of the busiest links, among the last to finish, any" },
  { "accept", SPARAM_CHOICE, "anneal", "anneal|tabu|better", "which candidates are accepted" },
  { "evals", SPARAM_INT, "200", "1..100000000", "replays at most, the start's included" },
  { "batch", SPARAM_INT, "4", "1..1024", "candidates per round, replayed at once" },
  { "temp", SPARAM_DOUBLE, "0.02", "0..", "anneal: start temperature, relative to the start's value" },
  { "time", SPARAM_DOUBLE, "0", "0..", "stop after this many seconds (0: no limit)" },
  { "threads", SPARAM_INT, "0", "0..1024", "replays at once (0: one per processor)" },
  { NULL },
};

const strategy strategy_replay = {
  .name = "replay",
  .kind = STRATEGY_REFINE,
  .summary = "improves a mapping by replaying the trace: moves guided by the busiest links and "
             "the last ranks to finish, simulated annealing or tabu acceptance",
  .paper = "korndoerfer2021 Section 7 (the replay as the measure); Kirkpatrick 1983 (annealing), "
           "Glover 1989 (tabu)",
  .params = replay_params,
  .places_slots = TRUE,
  .cost = "evals= replays of the trace, each O(events x route length); time= bounds it",
  .max_ranks = -1,
  .run = run_replay,
};
