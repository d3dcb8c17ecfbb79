/* map-portfolio.c - `portfolio`: runs a list of pipelines and keeps the
 * mapping that is best by a chosen objective, reporting every candidate
 * and which one won. This is the choice bhatele2010's framework makes
 * among its heuristics (Chapter 8, Fig. 8.1: "chooses the best heuristic
 * ... based on the hop-bytes metric"; Section 10.5: "it may be worthwhile
 * to try all of them, and choose the best"), for any pipelines.
 *
 * `try` lists the pipelines in brackets, separated by '|'; by default the
 * diverse starts of the registry (identity, scotch, greedy+wh, morton,
 * hilbert, mht, bipartition, geometric) each followed by `kl`, which takes
 * milliseconds at a few thousand ranks; give `tabu` pipelines explicitly
 * for the strongest search on up to about 1,000 nodes.
 * The candidates run in parallel on a GLib thread pool of `threads`
 * threads (0: one per processor), every one with the portfolio's seed, so
 * the result does not depend on the thread count. Objectives: hop_bytes;
 * max_link (max_link_bytes); weighted = hop_bytes / (the least hop_bytes
 * of the candidates) + alpha x max_link_bytes / (the least of those);
 * energy (traffic_energy_j: hop-bytes weighted by the joules a byte costs
 * on each link type above idle, routing/energy.h; the static view knows no
 * time, so idle power cannot enter); or a simulated one - makespan, or a
 * field of simulate's output - that the context's evaluation hook scores
 * by replaying each candidate (in its worker: the replays run in parallel
 * too; ties go to hop_bytes). Ties
 * go to the other metric, then to the earlier candidate. A candidate that
 * fails (a grid heuristic on a graph without grid, say) is reported and
 * skipped; the portfolio fails only if all do.
 *
 * Progress: candidates finished out of all; an interrupt stops every
 * candidate at its best so far.
 *
 * The portfolio fills node slots itself (each candidate groups the tasks
 * of a node as strategy_run does), so refiners may follow it.
 */
#include <math.h>
#include <string.h>

#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "routing/energy.h"

typedef struct cand {
  int index;
  char *spec;
  mapping *m;
  GError *error;
  int64_t hop_bytes, max_link;
  double energy;        /* traffic_energy_j */
  double sim;           /* a simulated objective's value */
  const char *sim_name; /* its name, from the hook */
  double secs;
  GString *report;
} cand;

typedef struct job {
  const strategy_ctx *ctx;
  progress stop_only;   /* the candidates stop with the portfolio, but draw nothing */
  int done;             /* candidates finished (atomic) */
  int total;
  const char *sim_obj;  /* a simulated objective, or NULL */
} job;

static void run_candidate(gpointer data, gpointer user)
{
  cand *c = data;
  job *j = user;
  const strategy_ctx *ctx = j->ctx;
  gint64 t0 = g_get_monotonic_time();
  strategy_pipeline *pl = strategy_parse(c->spec, &c->error);
  if (pl)
    c->m = strategy_run_eval(pl, ctx->g, ctx->p, ctx->seed, ctx->coords, ctx->coord_dims,
                             c->report, &j->stop_only, ctx->eval, NULL, &c->error);
  c->secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  if (c->m) {
    metrics *x = metrics_compute(ctx->g, ctx->p, c->m);
    c->hop_bytes = x->hop_bytes;
    c->max_link = x->max_link_bytes;
    c->energy = x->traffic_energy_j;
    metrics_free(x);
  }
  if (c->m && j->sim_obj) {
    strategy_score sc = { 0 };
    if (ctx->eval->score(ctx->eval->user, j->sim_obj, c->m, INFINITY, &sc, &c->error)) {
      c->sim = sc.value;
      c->sim_name = sc.objective;
    } else {
      g_clear_pointer(&c->m, mapping_free);
    }
  }
  strategy_pipeline_free(pl);
  int done = g_atomic_int_add(&j->done, 1) + 1;
  progress_report(ctx->prog, "portfolio pipelines", (uint64_t)done, (uint64_t)j->total);
}

/* Cheap, diverse starts, each refined by kl: tabu is left to explicit lists
 * (it takes seconds where these take milliseconds). */
static const char *const default_list =
  "[identity+kl|scotch+kl|greedy+wh+kl|morton+kl|hilbert+kl|mht+kl|bipartition+kl|geometric+kl]";

/* TRUE if a beats b (b may be NULL). */
static gboolean better(const cand *a, const cand *b, const char *obj, double alpha,
                       int64_t min_hb, int64_t min_ml)
{
  if (!b)
    return TRUE;
  if (strcmp(obj, "energy") == 0 && a->energy != b->energy)
    return a->energy < b->energy;
  if (!strategy_objective_is_static(obj)) {
    if (a->sim != b->sim)
      return a->sim < b->sim;
    return a->hop_bytes < b->hop_bytes;
  }
  if (strcmp(obj, "max_link") == 0) {
    if (a->max_link != b->max_link)
      return a->max_link < b->max_link;
    return a->hop_bytes < b->hop_bytes;
  }
  if (strcmp(obj, "weighted") == 0) {
    double sa = (double)a->hop_bytes / (double)MAX(min_hb, 1) +
                alpha * (double)a->max_link / (double)MAX(min_ml, 1);
    double sb = (double)b->hop_bytes / (double)MAX(min_hb, 1) +
                alpha * (double)b->max_link / (double)MAX(min_ml, 1);
    return sa < sb;
  }
  if (a->hop_bytes != b->hop_bytes)
    return a->hop_bytes < b->hop_bytes;
  return a->max_link < b->max_link;
}

static gboolean run_portfolio(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                              GError **error)
{
  const char *list = strategy_arg_str(args, "try"), *obj = strategy_arg_str(args, "obj");
  double alpha = strategy_arg_double(args, "alpha");
  int threads = strategy_arg_int(args, "threads");
  if (strcmp(list, "default") == 0)
    list = default_list;
  if (strcmp(obj, "energy") == 0 && !platform_has_power(ctx->p)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "portfolio: obj=energy, but the links of %s draw no power, expected a platform "
                "with power-idle and power-busy keys (configs/README.md) or another objective",
                ctx->p->name);
    return FALSE;
  }
  gboolean simulated = !strategy_objective_is_static(obj);
  if (simulated && !ctx->eval) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "portfolio:obj=%s: a simulated objective needs a trace and a network model to "
                "replay (simulate, compare, study, or map with --trace and --model), expected "
                "them or obj=hop_bytes|max_link|weighted|energy", obj);
    return FALSE;
  }
  char **specs = strategy_pipeline_list(list, error);
  if (!specs)
    return FALSE;
  int n = (int)g_strv_length(specs);
  cand *c = g_new0(cand, n + 1);
  for (int i = 0; i < n; i++) {
    c[i].index = i;
    c[i].spec = g_strstrip(specs[i]);
    c[i].report = g_string_new(NULL);
  }
  job j = { ctx, { NULL, NULL, ctx->prog ? ctx->prog->stop : NULL }, 0, n,
            simulated ? obj : NULL };
  if (threads <= 0)
    threads = (int)g_get_num_processors();
  if (threads <= 1 || n <= 1) {
    for (int i = 0; i < n; i++)
      run_candidate(&c[i], &j);
  } else {
    GThreadPool *pool = g_thread_pool_new(run_candidate, &j, MIN(threads, n), TRUE, NULL);
    for (int i = 0; i < n; i++)
      g_thread_pool_push(pool, &c[i], NULL);
    g_thread_pool_free(pool, FALSE, TRUE); /* waits for every candidate */
  }
  int64_t min_hb = -1, min_ml = -1;
  for (int i = 0; i < n; i++)
    if (c[i].m) {
      min_hb = min_hb < 0 ? c[i].hop_bytes : MIN(min_hb, c[i].hop_bytes);
      min_ml = min_ml < 0 ? c[i].max_link : MIN(min_ml, c[i].max_link);
    }
  const cand *win = NULL;
  for (int i = 0; i < n; i++)
    if (c[i].m && better(&c[i], win, obj, alpha, min_hb, min_ml))
      win = &c[i];
  if (win)
    memcpy(m->node, win->m->node, sizeof(int) * (size_t)m->ntasks);
  else
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "portfolio: every one of the %d pipelines failed; the first: %s", n,
                n && c[0].error ? c[0].error->message : "(empty list)");
  const char *chosen = !win                          ? NULL
                       : simulated                   ? win->sim_name
                       : strcmp(obj, "energy") == 0   ? "traffic_energy_j"
                       : strcmp(obj, "max_link") == 0 ? "max_link_bytes"
                       : strcmp(obj, "weighted") == 0 ? "weighted"
                                                      : "hop_bytes";
  if (ctx->chosen_by && win)
    *ctx->chosen_by = chosen;
  if (ctx->report) {
    if (win)
      g_string_append_printf(ctx->report, "portfolio (%s): kept %s\n", simulated ? chosen : obj,
                             win->spec);
    for (int i = 0; i < n; i++) {
      if (c[i].m && strcmp(obj, "energy") == 0)
        g_string_append_printf(ctx->report, "  %s %s: traffic_energy_j %.9g, hop_bytes %"
                               G_GINT64_FORMAT ", %.3f s\n", &c[i] == win ? "*" : " ", c[i].spec,
                               c[i].energy, c[i].hop_bytes, c[i].secs);
      else if (c[i].m && simulated)
        g_string_append_printf(ctx->report, "  %s %s: %s %.9g, hop_bytes %" G_GINT64_FORMAT
                               ", %.3f s\n", &c[i] == win ? "*" : " ", c[i].spec, c[i].sim_name,
                               c[i].sim, c[i].hop_bytes, c[i].secs);
      else if (c[i].m)
        g_string_append_printf(ctx->report,
                               "  %s %s: hop_bytes %" G_GINT64_FORMAT
                               ", max_link_bytes %" G_GINT64_FORMAT ", %.3f s\n",
                               &c[i] == win ? "*" : " ", c[i].spec, c[i].hop_bytes, c[i].max_link,
                               c[i].secs);
      else
        g_string_append_printf(ctx->report, "    %s: failed: %s\n", c[i].spec,
                               c[i].error ? c[i].error->message : "?");
      if (c[i].report->len)
        g_string_append(ctx->report, c[i].report->str);
    }
  }
  for (int i = 0; i < n; i++) {
    mapping_free(c[i].m);
    g_clear_error(&c[i].error);
    g_string_free(c[i].report, TRUE);
  }
  g_free(c);
  g_strfreev(specs);
  return win != NULL;
}

static const strategy_param portfolio_params[] = {
  { "try", SPARAM_PIPELINES, "default", NULL,
    "pipelines to run, [a+b|c+d] (default: identity, scotch, greedy+wh, morton, hilbert, mht, bipartition, geometric, each +kl)" },
  { "obj", SPARAM_OBJECTIVE, "hop_bytes", "hop_bytes|max_link|weighted|energy",
    "what the kept mapping minimizes (energy: the traffic's, traffic_energy_j); or by replays: "
    "makespan, or a field of simulate's output" },
  { "alpha", SPARAM_DOUBLE, "1", "0..", "weighted: weight of max_link against hop_bytes (each relative to the best)" },
  { "threads", SPARAM_INT, "0", "0..1024", "candidates run at once (0: one per processor)" },
  { NULL },
};

const strategy strategy_portfolio = {
  .name = "portfolio",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "runs several pipelines in parallel and keeps the best by hop_bytes, max_link, both, "
             "the traffic's energy or the simulated time",
  .paper = "bhatele2010 Chapter 8 (Fig. 8.1) and Section 10.5: try the suite, keep the best",
  .params = portfolio_params,
  .places_slots = TRUE,
  .run = run_portfolio,
};
