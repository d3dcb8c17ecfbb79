/* portfolio.c - `portfolio`: runs a list of pipelines under a time
 * limit and keeps the mapping that is best by a chosen objective,
 * reporting every candidate and which one won. This is the choice
 * bhatele2010's framework makes among its heuristics (Chapter 8, Fig. 8.1:
 * "chooses the best heuristic ... based on the hop-bytes metric"; Section
 * 10.5: "it may be worthwhile to try all of them, and choose the best"),
 * for any pipelines.
 *
 * `try` lists the pipelines in brackets, separated by '|'. The default list
 * (default_list below) starts with the strategies that find structure -
 * a grid recognized in the graph placed by geometric and by affine (both
 * fail at once on other graphs), any graph embedded by its Laplacian
 * eigenvectors - each refined by `ml`, then
 * Scotch and cheap diverse starts refined by kl; a step whose registry row
 * says it does not reach the graph's size (max_ranks) leaves its pipeline
 * out of the default list. Give `tabu` pipelines explicitly for the
 * strongest search on up to about 1,000 nodes.
 *
 * Time: `time` seconds for all candidates, else the command line's
 * --time-limit (strategy_time_limit()), else none for a given list and for
 * the default list 5 s + 25 us per edge of the graph (10 s at 32,768 ranks
 * of a 3D stencil, 44 s at 262,144). At the limit every
 * running candidate stops at its best so far (refiners keep a valid
 * mapping; a constructor cut short fails) and those not started are
 * skipped. For hop_bytes, a candidate that reaches the lower bound of
 * mapping/bounds.h is optimal and ends the search at once. Results are
 * deterministic (the same at any thread count) when no candidate is cut;
 * the report names the ones that were.
 *
 * The candidates run in parallel on a GLib thread pool of `threads`
 * threads (0: one per processor), every one with the portfolio's seed.
 * Objectives: a static one of mapping/objective.h's table, each with its
 * comparison - hop_bytes; max_link (max_link_bytes); weighted = hop_bytes
 * / (the least hop_bytes of the candidates) + alpha x max_link_bytes /
 * (the least of those); energy (traffic_energy_j) - or a simulated one -
 * makespan, or a field of simulate's output - that the context's
 * evaluation hook scores by replaying each candidate (in its worker: the
 * replays run in parallel too; the lower bound proves nothing there, and a
 * replay is not cut by the time limit). Ties go to the other metric
 * to the earlier candidate. A candidate that fails
 * (a grid heuristic on a graph without grid, say) is reported and skipped;
 * the portfolio fails only if all do.
 *
 * Progress: candidates finished out of all; an interrupt stops every
 * candidate at its best so far, within the watcher's 20 ms tick plus the
 * candidates' own polling.
 *
 * The portfolio fills node slots itself (each candidate groups the tasks
 * of a node as strategy_run does), so refiners may follow it.
 */
#include <math.h>
#include <signal.h>
#include <string.h>

#include "mapping/bounds.h"
#include "mapping/metrics.h"
#include "mapping/strategy.h"
#include "routing/energy.h"

typedef struct cand {
  int index;
  char *spec;
  mapping *m;
  GError *error;
  strategy_scores sc;   /* what the static objectives compare */
  double sim;           /* a simulated objective's value */
  const char *sim_name; /* its name, from the hook */
  double secs;
  GString *report;
  gboolean started;
  volatile sig_atomic_t stop; /* this candidate stops: time limit, interrupt, or an earlier
                               * candidate met the lower bound */
  progress stop_only;         /* its stop flag, drawing nothing */
  gboolean cut;               /* stopped or skipped by the time limit or an interrupt */
} cand;

/* Whether a beats b: by the static objective `obj` (mapping/objective.h),
 * or by the simulated value (obj NULL), ties to hop_bytes. */
static gboolean better(const strategy_objective *obj, const cand *a, const cand *b,
                       const strategy_scale *scale)
{
  if (obj)
    return obj->better(&a->sc, &b->sc, scale);
  if (a->sim != b->sim)
    return a->sim < b->sim;
  return a->sc.hop_bytes < b->sc.hop_bytes;
}

typedef struct job {
  const strategy_ctx *ctx;
  const strategy_objective *obj; /* a static objective, or NULL: */
  const char *sim_obj;          /* the hook's objective */
  cand *c;                      /* the candidates, total of them */
  gint64 deadline;              /* monotonic us, 0: none */
  int64_t bound;                /* hop_bytes lower bound, -1: not used */
  int done;                     /* candidates finished (atomic) */
  int total;
  int finished;                 /* all candidates done (atomic): the watcher ends */
  int stopped;                  /* the deadline passed or an interrupt came (atomic) */
  int timed_out;                /* the deadline passed (atomic) */
  int optimal;                  /* the least index of a candidate that met the bound, total
                                 * while none has (atomic) */
} job;

/* Stops every candidate (the time limit, an interrupt). */
static void stop_all(job *j, gboolean timeout)
{
  if (timeout)
    g_atomic_int_set(&j->timed_out, 1);
  g_atomic_int_set(&j->stopped, 1);
  for (int i = 0; i < j->total; i++)
    j->c[i].stop = 1;
}

/* Candidate k meets the lower bound: the least such index wins (ties go
 * to the earlier candidate), so the later ones are not needed; the
 * earlier ones run on, and the choice does not depend on which thread
 * finished first. */
static void met_bound(job *j, int k)
{
  int was = g_atomic_int_get(&j->optimal);
  while (k < was && !g_atomic_int_compare_and_exchange(&j->optimal, was, k))
    was = g_atomic_int_get(&j->optimal);
  for (int i = k + 1; i < j->total; i++)
    j->c[i].stop = 1;
}

static void run_candidate(gpointer data, gpointer user)
{
  cand *c = data;
  job *j = user;
  const strategy_ctx *ctx = j->ctx;
  if (progress_stopped(ctx->prog)) /* before the watcher's first tick too */
    stop_all(j, FALSE);
  if (c->stop) {
    c->cut = c->index < g_atomic_int_get(&j->optimal);
    goto out;
  }
  c->started = TRUE;
  gint64 t0 = g_get_monotonic_time();
  const strategy_pipelines *run = ctx->pipelines;
  strategy_pipeline *pl = run->parse(c->spec, &c->error);
  if (pl)
    c->m = run->run(&(strategy_request){ .pipeline = pl, .g = ctx->g, .p = ctx->p,
                                         .seed = ctx->seed, .coords = ctx->coords,
                                         .coord_dims = ctx->coord_dims, .report = c->report,
                                         .prog = &c->stop_only, .eval = ctx->eval },
                    &c->error);
  c->secs = (double)(g_get_monotonic_time() - t0) / 1e6;
  c->cut = c->stop && g_atomic_int_get(&j->stopped);
  if (c->m) {
    metrics *x = metrics_compute(ctx->g, ctx->p, c->m);
    c->sc = (strategy_scores){ x->hop_bytes, x->max_link_bytes, x->traffic_energy_j };
    metrics_free(x);
    if (j->bound >= 0 && c->sc.hop_bytes <= j->bound && !c->cut)
      met_bound(j, c->index);
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
  run->free(pl);
out:;
  int done = g_atomic_int_add(&j->done, 1) + 1;
  progress_report(ctx->prog, "portfolio pipelines", (uint64_t)done, (uint64_t)j->total);
}

/* Stops the candidates at the deadline or when the portfolio is asked to. */
static gpointer watch(gpointer data)
{
  job *j = data;
  while (!g_atomic_int_get(&j->finished)) {
    if (progress_stopped(j->ctx->prog))
      stop_all(j, FALSE);
    if (j->deadline && g_get_monotonic_time() >= j->deadline)
      stop_all(j, TRUE);
    g_usleep(20000);
  }
  return NULL;
}

/* Structure first (grids, embeddings, each refined on every level of the
 * machine), then Scotch and cheap diverse starts refined by kl; tabu is
 * left to explicit lists (it takes seconds where these take milliseconds
 * at a few thousand ranks). */
static const char *const default_list =
  "[geometric+ml|affine+ml|embed+ml|scotch+kl|greedy+wh+kl|identity+kl|hilbert+kl|mht+kl|"
  "bipartition+kl|morton+kl]";

/* By replays: the strongest static strategies of the sparse-allocation
 * cases (bench/README.md, "The portfolio's defaults"), each replayed
 * once, the best then refined by the replay search; hier joins on switch
 * networks (their hierarchy is what it groups by). */
static const char *const default_list_simulated =
  "[identity|greedy+wh|greedy+wh+mc|scotch|tabu%s]";

/* By the traffic's energy: the refiners that swap by energy, from the
 * starts that do best by hop-bytes; greedy+wh:obj=energy first, so that
 * the portfolio never does worse than it alone. */
static const char *const default_list_energy =
  "[greedy+wh:obj=energy|identity+kl:obj=energy|scotch+kl:obj=energy|tabu:obj=energy|"
  "greedy+wh:obj=energy+kl:obj=energy|hilbert+kl:obj=energy|morton+kl:obj=energy%s]";

/* The default list for objective `objname` on ctx's platform (caller
 * frees). */
static char *default_candidates(const strategy_ctx *ctx, const char *objname, gboolean by_hook)
{
  gboolean switches = ctx->p->topo->nswitches > 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  if (by_hook) /* the lists' one %s: the switch networks' addition */
    return g_strdup_printf(default_list_simulated, switches ? "|hier" : "");
  if (strcmp(objname, "energy") == 0)
    return g_strdup_printf(default_list_energy, switches ? "|hier+kl:obj=energy" : "");
#pragma GCC diagnostic pop
  return g_strdup(default_list);
}

/* FALSE when a step of `spec` does not reach n ranks (its max_ranks). */
static gboolean reaches(const strategy_ctx *ctx, const char *spec, int n)
{
  strategy_pipeline *pl = ctx->pipelines->parse(spec, NULL);
  gboolean ok = pl != NULL;
  for (int i = 0; ok && i < pl->nsteps; i++)
    ok = pl->steps[i].s->max_ranks <= 0 || pl->steps[i].s->max_ranks >= n;
  ctx->pipelines->free(pl);
  return ok;
}

/* A message on one line: a candidate's failure is one line of the report. */
static char *one_line(const char *text)
{
  char *s = g_strdup(text ? text : "?");
  for (char *q = s; *q; q++)
    if (*q == '\n' || *q == '\r' || *q == '\t')
      *q = ' ';
  return g_strstrip(s);
}

static void report(const strategy_ctx *ctx, const job *j, const cand *c, int n, const cand *win,
                   int skipped, double limit)
{
  GString *r = ctx->report;
  int optimal = g_atomic_int_get(&j->optimal);
  if (win)
    g_string_append_printf(r, "portfolio (%s): kept %s\n",
                           j->sim_obj ? win->sim_name : j->obj->name, win->spec);
  if (optimal < n)
    g_string_append_printf(r, "  %s meets the lower bound (%" G_GINT64_FORMAT " hop_bytes): the "
                           "later candidates are not needed\n", c[optimal].spec, j->bound);
  if (g_atomic_int_get(&j->timed_out))
    g_string_append_printf(r, "  time limit of %.1f s reached: candidates marked 'cut' stopped "
                           "at their best so far or did not run\n", limit);
  else if (g_atomic_int_get(&j->stopped))
    g_string_append(r, "  interrupted: candidates marked 'cut' stopped at their best so far or "
                       "did not run\n");
  if (skipped)
    g_string_append_printf(r, "  %d pipelines of the default list left out: a step does not "
                           "reach %d ranks (mapsim strategies)\n", skipped, ctx->g->n);
  for (int i = 0; i < n; i++) {
    /* the kept one is never 'cut': what it found is the result */
    const char *cut = &c[i] == win ? (c[i].cut ? " (its best at the time limit)" : "")
                      : c[i].cut ? " (cut)" : "";
    if (i > optimal) {
      g_string_append_printf(r, "    %s: not needed\n", c[i].spec);
      continue;
    }
    /* the energy of an objective that needs power (energy), the simulated
     * value, or hop_bytes and max_link_bytes */
    if (c[i].m && j->obj && j->obj->needs_power)
      g_string_append_printf(r, "  %s %s: %s %.9g, hop_bytes %" G_GINT64_FORMAT ", %.3f s%s\n",
                             &c[i] == win ? "*" : " ", c[i].spec, j->obj->metric,
                             c[i].sc.traffic_energy_j, c[i].sc.hop_bytes, c[i].secs, cut);
    else if (c[i].m && j->sim_obj)
      g_string_append_printf(r, "  %s %s: %s %.9g, hop_bytes %" G_GINT64_FORMAT ", %.3f s%s\n",
                             &c[i] == win ? "*" : " ", c[i].spec, c[i].sim_name, c[i].sim,
                             c[i].sc.hop_bytes, c[i].secs, cut);
    else if (c[i].m)
      g_string_append_printf(r, "  %s %s: hop_bytes %" G_GINT64_FORMAT ", max_link_bytes %"
                             G_GINT64_FORMAT ", %.3f s%s\n", &c[i] == win ? "*" : " ", c[i].spec,
                             c[i].sc.hop_bytes, c[i].sc.max_link_bytes, c[i].secs, cut);
    else if (!c[i].started)
      g_string_append_printf(r, "    %s: not run%s\n", c[i].spec, cut);
    else {
      g_autofree char *why = one_line(c[i].error ? c[i].error->message : NULL);
      g_string_append_printf(r, "    %s: failed%s: %s\n", c[i].spec, cut, why);
      continue; /* one line: its own report is left out */
    }
    if (c[i].report->len)
      g_string_append(r, c[i].report->str);
  }
}

/* The replay search from the kept mapping m, by the same objective: it
 * never returns a worse mapping than its start (replay-search.c). */
static gboolean refine_by_replays(const strategy_ctx *ctx, const char *objname, mapping *m,
                                  GError **error)
{
  g_autofree char *spec = g_strdup_printf("replay:obj=%s", objname);
  strategy_pipeline *pl = ctx->pipelines->parse(spec, error);
  if (!pl)
    return FALSE;
  if (ctx->report)
    g_string_append_printf(ctx->report, "portfolio: the kept mapping refined by %s\n", spec);
  gboolean ok = pl->steps[0].s->run(ctx, &pl->steps[0].args, m, error);
  ctx->pipelines->free(pl);
  return ok;
}

static gboolean run_portfolio(const strategy_ctx *ctx, const strategy_args *args, mapping *m,
                              GError **error)
{
  const char *list = strategy_arg_str(args, "try"), *objname = strategy_arg_str(args, "obj");
  double alpha = strategy_arg_double(args, "alpha"), limit = strategy_arg_double(args, "time");
  int threads = strategy_arg_int(args, "threads");
  gboolean by_default = strcmp(list, "default") == 0;
  const strategy_objective *obj = strategy_objective_find(objname);
  gboolean by_hook = obj == NULL;
  g_autofree char *defaults = by_default ? default_candidates(ctx, objname, by_hook) : NULL;
  if (limit == 0)
    limit = strategy_time_limit();
  if (by_default) {
    list = defaults;
    if (limit == 0)
      limit = 5 + 25e-6 * ctx->g->nedges;
  }
  if (obj && obj->needs_power && !platform_has_power(ctx->p)) {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "portfolio: obj=%s, but the links of %s draw no power, expected a platform "
                "with power-idle and power-busy keys (configs/README.md) or another objective",
                objname, ctx->p->name);
    return FALSE;
  }
  if (by_hook && !ctx->eval) {
    g_autofree char *names = strategy_objective_names(FALSE, "|");
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                "portfolio:obj=%s: a simulated objective needs a trace and a network model to "
                "replay (simulate, compare, study, or map with --trace and --model), expected "
                "them or obj=%s", objname, names);
    return FALSE;
  }
  char **specs = ctx->pipelines->list(list, error);
  if (!specs)
    return FALSE;
  int total = (int)g_strv_length(specs), n = 0, skipped = 0;
  cand *c = g_new0(cand, total + 1);
  for (int i = 0; i < total; i++) {
    char *spec = g_strstrip(specs[i]);
    if (by_default && !reaches(ctx, spec, ctx->g->n)) {
      skipped++;
      continue;
    }
    c[n].index = n;
    c[n].spec = spec;
    c[n].report = g_string_new(NULL);
    c[n].stop_only = (progress){ NULL, NULL, &c[n].stop };
    n++;
  }
  job j = { .ctx = ctx, .obj = obj, .sim_obj = by_hook ? objname : NULL, .c = c, .total = n,
            .bound = -1, .optimal = n };
  if (limit > 0)
    j.deadline = g_get_monotonic_time() + (gint64)(limit * 1e6);
  if (obj && obj->bounded && n > 1) {
    bounds b;
    bounds_compute(ctx->g, ctx->p, &b);
    j.bound = b.hop_bytes;
  }
  GThread *watcher = g_thread_new("portfolio-watch", watch, &j);
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
  g_atomic_int_set(&j.finished, 1);
  g_thread_join(watcher);
  /* the candidates after the first that met the bound are left out, done
   * or not: which of them finished depends on the threads */
  int considered = MIN(n, g_atomic_int_get(&j.optimal) + 1);
  strategy_scale scale = { alpha, -1, -1 };
  for (int i = 0; i < considered; i++)
    if (c[i].m) {
      const strategy_scores *x = &c[i].sc;
      scale.min_hop_bytes = scale.min_hop_bytes < 0 ? x->hop_bytes
                                                    : MIN(scale.min_hop_bytes, x->hop_bytes);
      scale.min_max_link_bytes = scale.min_max_link_bytes < 0
                                     ? x->max_link_bytes
                                     : MIN(scale.min_max_link_bytes, x->max_link_bytes);
    }
  const cand *win = NULL;
  for (int i = 0; i < considered; i++)
    if (c[i].m && (!win || better(obj, &c[i], win, &scale)))
      win = &c[i];
  gboolean refined = TRUE;
  if (win) {
    memcpy(m->node, win->m->node, sizeof(int) * (size_t)m->ntasks);
    if (ctx->chosen_by)
      *ctx->chosen_by = by_hook ? win->sim_name : obj->metric;
  } else if (!progress_check(ctx->prog, error)) {
    /* interrupted before any candidate had a mapping */
  } else {
    const cand *first = NULL;
    for (int i = 0; i < n && !first; i++)
      if (c[i].error)
        first = &c[i];
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_FAILED,
                "portfolio: none of the %d pipelines gave a mapping%s; the first failure: %s", n,
                g_atomic_int_get(&j.timed_out) ? " within the time limit (portfolio:time=S)" : "",
                first ? first->error->message : "(none ran)");
  }
  if (ctx->report)
    report(ctx, &j, c, n, win, skipped, limit);
  if (win && by_default && by_hook && !progress_stopped(ctx->prog))
    refined = refine_by_replays(ctx, objname, m, error);
  for (int i = 0; i < n; i++) {
    mapping_free(c[i].m);
    g_clear_error(&c[i].error);
    g_string_free(c[i].report, TRUE);
  }
  g_free(c);
  g_strfreev(specs);
  return win != NULL && refined;
}

static const strategy_param portfolio_params[] = {
  { "try", SPARAM_PIPELINES, "default", NULL,
    "pipelines to run, [a+b|c+d] (default by hop_bytes: geometric, affine, embed each +ml; "
    "scotch, greedy+wh, identity, hilbert, mht, bipartition, morton each +kl; by energy: "
    "greedy+wh, identity, scotch, tabu, hilbert, morton refined by energy; by replays: "
    "identity, greedy+wh, greedy+wh+mc, scotch, tabu, the best refined by replay; hier too on "
    "switch networks; those whose steps reach the graph's size)" },
  { "obj", SPARAM_OBJECTIVE, STRATEGY_OBJECTIVE_DEFAULT, NULL,
    "what the kept mapping minimizes (energy: the traffic's, traffic_energy_j); or by replays: "
    "makespan, or a field of simulate's output" },
  { "alpha", SPARAM_DOUBLE, "1", "0..", "weighted: weight of max_link against hop_bytes (each relative to the best)" },
  { "threads", SPARAM_INT, "0", "0..1024", "candidates run at once (0: one per processor)" },
  { "time", SPARAM_DOUBLE, "0", "0..",
    "seconds for all candidates (0: --time-limit, else no limit for a given list and 5 s + "
    "25 us per edge for the default list)" },
  { NULL },
};

const strategy strategy_portfolio = {
  .name = "portfolio",
  .kind = STRATEGY_CONSTRUCT,
  .summary = "runs several pipelines in parallel under a time limit and keeps the best by "
             "hop_bytes, max_link, both, the traffic's energy or the simulated time",
  .paper = "bhatele2010 Chapter 8 (Fig. 8.1) and Section 10.5: try the suite, keep the best",
  .params = portfolio_params,
  .places_slots = TRUE,
  .cost = "its candidates', within the time limit",
  .max_ranks = -1,
  .run = run_portfolio,
};
