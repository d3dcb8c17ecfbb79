/* bench_fold.c - is the fold the best a periodic task grid can do on a torus
 * of another shape? 32^3 tasks on torus:64x32x16 reach 4/3 average hops
 * (the fold: one task dimension split over the 16-ring and a bit of the
 * 64-ring, so the neighbours along another task dimension sit 2 hops
 * apart); mapping/bounds.h says 1, a cut argument 7/6 (bench/README.md,
 * "Mappings at scale"). This program anneals the same problem scaled down:
 * a bijection of the task torus onto the node torus, minimising the sum of
 * hops over the task grid's edges (hops on a torus with minimal
 * dimension-order routes: the sum of the ring distances), from a random
 * start and from the fold. A run ending below 4/3 (3D) or 3/2 (2D) would
 * show a better embedding than the fold.
 *
 * Moves swap two tasks: a task with the one on a node one or two hops from
 * it (70%), or with any task; Metropolis acceptance, the temperature
 * falling geometrically from T0 to 0.02 hops. GRand, seeded: the same
 * seed, the same run.
 *
 * Usage: bench_fold [--iters N]   (default 100,000,000 moves per run)
 * Output: a Markdown table for bench/README.md.
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXD 3

typedef struct problem {
  int d, task[MAXD], node[MAXD], n;
  int *nbr;      /* n x 2d: the task grid's neighbours */
  int *nc;      /* n x MAXD: node coordinates */
  int *pos, *inv; /* task -> node, node -> task */
} problem;

static int ring(int a, int b, int k)
{
  int x = abs(a - b);
  return x < k - x ? x : k - x;
}

static int hops(const problem *p, int u, int v)
{
  int s = 0;
  for (int i = 0; i < p->d; i++)
    s += ring(p->nc[u * MAXD + i], p->nc[v * MAXD + i], p->node[i]);
  return s;
}

static int task_cost(const problem *p, int t)
{
  int s = 0;
  for (int k = 0; k < 2 * p->d; k++)
    s += hops(p, p->pos[t], p->pos[p->nbr[t * 2 * p->d + k]]);
  return s;
}

static int node_at(const problem *p, const int *c)
{
  int v = 0;
  for (int i = p->d - 1; i >= 0; i--)
    v = v * p->node[i] + c[i];
  return v;
}

static void problem_init(problem *p, int d, const int *task, const int *node)
{
  p->d = d;
  p->n = 1;
  for (int i = 0; i < d; i++) {
    p->task[i] = task[i];
    p->node[i] = node[i];
    p->n *= task[i];
  }
  p->nbr = g_new(int, (size_t)p->n * 2 * d);
  p->nc = g_new0(int, (size_t)p->n * MAXD);
  p->pos = g_new(int, p->n);
  p->inv = g_new(int, p->n);
  for (int t = 0; t < p->n; t++) {
    int c[MAXD], r = t;
    for (int i = 0; i < d; i++) {
      c[i] = r % task[i];
      r /= task[i];
    }
    for (int i = 0; i < d; i++)
      for (int s = 0; s < 2; s++) {
        int cc[MAXD] = { c[0], c[1], c[2] }, v = 0;
        cc[i] = (cc[i] + (s ? 1 : task[i] - 1)) % task[i];
        for (int j = d - 1; j >= 0; j--)
          v = v * task[j] + cc[j];
        p->nbr[t * 2 * d + 2 * i + s] = v;
      }
    r = t;
    for (int i = 0; i < d; i++) {
      p->nc[t * MAXD + i] = r % node[i];
      r /= node[i];
    }
  }
}

/* The fold of task (x, y, z) on nodes (2x + [z >= k/2], y, z folded into
 * k/2); in 2D (x, z) the same without y. */
static void place_fold(problem *p)
{
  int k = p->task[0];
  for (int t = 0; t < p->n; t++) {
    int x = t % k, rest = t / k, y = p->d == 3 ? rest % k : 0, z = p->d == 3 ? rest / k : rest;
    int c[MAXD] = { 2 * x + (z >= k / 2), y, z < k / 2 ? z : k - 1 - z };
    if (p->d == 2)
      c[1] = c[2];
    p->pos[t] = node_at(p, c);
  }
}

static void place_random(problem *p, GRand *rng)
{
  for (int t = 0; t < p->n; t++)
    p->pos[t] = t;
  for (int t = p->n - 1; t > 0; t--) {
    int j = g_rand_int_range(rng, 0, t + 1), x = p->pos[t];
    p->pos[t] = p->pos[j];
    p->pos[j] = x;
  }
}

/* A task on a node one or two hops from t's, or any task. */
static int partner(const problem *p, int t, GRand *rng)
{
  if (g_rand_double(rng) >= 0.7)
    return g_rand_int_range(rng, 0, p->n);
  int c[MAXD] = { 0 };
  for (int i = 0; i < p->d; i++)
    c[i] = p->nc[p->pos[t] * MAXD + i];
  for (int step = 0; step < 1 + (g_rand_double(rng) < 0.5); step++) {
    int i = g_rand_int_range(rng, 0, p->d);
    c[i] = (c[i] + (g_rand_boolean(rng) ? 1 : p->node[i] - 1)) % p->node[i];
  }
  return p->inv[node_at(p, c)];
}

/* Anneals from the placement in p->pos; returns the average hops at the end. */
static double anneal(problem *p, long iters, double t0, GRand *rng)
{
  for (int t = 0; t < p->n; t++)
    p->inv[p->pos[t]] = t;
  for (long it = 0; it < iters; it++) {
    double temp = t0 * pow(0.02 / t0, (double)it / (double)iters);
    int a = g_rand_int_range(rng, 0, p->n), b = partner(p, a, rng);
    if (a == b)
      continue;
    int before = task_cost(p, a) + task_cost(p, b), pa = p->pos[a], pb = p->pos[b];
    p->pos[a] = pb;
    p->pos[b] = pa;
    int delta = task_cost(p, a) + task_cost(p, b) - before;
    if (delta <= 0 || g_rand_double(rng) < exp(-delta / temp)) {
      p->inv[pb] = a;
      p->inv[pa] = b;
    } else {
      p->pos[a] = pa;
      p->pos[b] = pb;
    }
  }
  long sum = 0;
  for (int t = 0; t < p->n; t++)
    sum += task_cost(p, t);
  return (double)sum / 2 / ((double)p->n * p->d);
}

static void problem_free(problem *p)
{
  g_free(p->nbr);
  g_free(p->nc);
  g_free(p->pos);
  g_free(p->inv);
}

int main(int argc, char **argv)
{
  gint64 iters = 100000000;
  GOptionEntry entries[] = {
    { "iters", 0, 0, G_OPTION_ARG_INT64, &iters, "Moves per run (default 100000000)", "N" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  GOptionContext *ctx = g_option_context_new("- annealing the fold's problem, scaled down");
  g_option_context_add_main_entries(ctx, entries, NULL);
  GError *err = NULL;
  if (!g_option_context_parse(ctx, &argc, &argv, &err) || iters < 1) {
    fprintf(stderr, "bench_fold: %s\n", err ? err->message : "--iters must be positive");
    return 2;
  }
  g_option_context_free(ctx);

  static const struct {
    int d, task[MAXD], node[MAXD];
    gboolean from_fold;
    double t0;
  } runs[] = {
    { 2, { 8, 8 }, { 16, 4 }, FALSE, 2.0 },
    { 3, { 4, 4, 4 }, { 8, 4, 2 }, FALSE, 2.0 },
    { 3, { 8, 8, 8 }, { 16, 8, 4 }, FALSE, 2.0 },
    { 3, { 8, 8, 8 }, { 16, 8, 4 }, TRUE, 0.5 },
    { 3, { 32, 32, 32 }, { 64, 32, 16 }, TRUE, 0.5 },
  };
  printf("| tasks | torus | start | seed | moves | avg hops at the end | the fold |\n");
  printf("|---|---|---|---:|---:|---:|---:|\n");
  for (size_t r = 0; r < G_N_ELEMENTS(runs); r++)
    for (guint32 seed = 1; seed <= 3; seed++) {
      problem p;
      problem_init(&p, runs[r].d, runs[r].task, runs[r].node);
      GRand *rng = g_rand_new_with_seed(seed);
      if (runs[r].from_fold)
        place_fold(&p);
      else
        place_random(&p, rng);
      double end = anneal(&p, iters, runs[r].t0, rng);
      GString *tk = g_string_new(NULL), *nd = g_string_new(NULL);
      for (int i = 0; i < p.d; i++) {
        g_string_append_printf(tk, "%s%d", i ? "x" : "", p.task[i]);
        g_string_append_printf(nd, "%s%d", i ? "x" : "", p.node[i]);
      }
      printf("| %s | torus:%s | %s | %u | %" G_GINT64_FORMAT " | %.4f | %.4f |\n", tk->str, nd->str,
             runs[r].from_fold ? "fold" : "random", seed, iters, end, p.d == 3 ? 4.0 / 3 : 1.5);
      fflush(stdout);
      g_string_free(tk, TRUE);
      g_string_free(nd, TRUE);
      g_rand_free(rng);
      problem_free(&p);
    }
  return 0;
}
