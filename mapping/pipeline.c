/* pipeline.c - strategy pipeline specs ("greedy+wh:delta=16+mc") and the
 * pipeline runner, including the several-ranks-per-node expansion. The
 * strategies themselves are the registry's rows (mapping/strategies/registry.c); what a step
 * reads (its options, the time limit) is strategy-args.c below them, and
 * steps that run pipelines reach this file through ctx->pipelines. */
#include "mapping/strategy.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/map-util.h"
#include "util/status.h"
#include "util/suggest.h"

static const strategy *strategy_find(const char *name)
{
  for (int i = 0; strategy_registry[i]; i++)
    if (strcmp(strategy_registry[i]->name, name) == 0)
      return strategy_registry[i];
  return NULL;
}

const strategy_pipelines strategy_runner = {
  .find = strategy_find,
  .parse = strategy_parse,
  .list = strategy_pipeline_list,
  .free = strategy_pipeline_free,
  .run = strategy_run,
};

/* Splits text at `sep` outside brackets ("" gives no parts, as
 * g_strsplit); g_strfreev the result. */
static char **strategy_split(const char *text, char sep)
{
  GPtrArray *parts = g_ptr_array_new();
  if (!*text) { /* as g_strsplit: no parts at all */
    g_ptr_array_add(parts, NULL);
    return (char **)g_ptr_array_free(parts, FALSE);
  }
  int depth = 0;
  const char *start = text;
  for (const char *c = text;; c++) {
    if (*c == '[')
      depth++;
    else if (*c == ']' && depth > 0)
      depth--;
    if (*c == '\0' || (*c == sep && depth == 0)) {
      g_ptr_array_add(parts, g_strndup(start, (gsize)(c - start)));
      if (*c == '\0')
        break;
      start = c + 1;
    }
  }
  g_ptr_array_add(parts, NULL);
  return (char **)g_ptr_array_free(parts, FALSE);
}

/* Checks `value` against the parameter's type and range. */
static gboolean check_value(const strategy *s, const strategy_param *d, const char *value,
                            GError **error)
{
  gboolean ok;
  if (d->type == SPARAM_PIPELINES && strcmp(value, d->defval) == 0)
    return TRUE;
  if (d->type == SPARAM_PIPELINES) {
    char **list = strategy_pipeline_list(value, error);
    ok = list != NULL;
    if (ok && !list[0]) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                  "'%s': an empty list, expected at least one pipeline", value);
      ok = FALSE;
    }
    for (int i = 0; ok && list[i]; i++) {
      strategy_pipeline *pl = strategy_parse(list[i], error);
      ok = pl != NULL;
      strategy_pipeline_free(pl);
    }
    g_strfreev(list);
    if (!ok)
      g_prefix_error(error, "%s:%s: ", s->name, d->name);
    return ok;
  }
  if (d->type == SPARAM_OBJECTIVE || d->type == SPARAM_SIMULATED) {
    /* a word here; which words the hook scores, strategy_pipeline_check_objectives */
    ok = *value != '\0';
    for (const char *c = value; ok && *c; c++)
      ok = g_ascii_isalnum(*c) || *c == '_';
    if (!ok) {
      /* which simulated fields there are is the hook's (sim/optimize.h);
       * a simulated default is the short form (makespan) */
      const char *short_form[] = { d->type == SPARAM_SIMULATED ? d->defval : NULL, NULL };
      g_autofree char *who = g_strdup_printf("--strategy: %s", s->name);
      strategy_objective_unknown(error, who, value, d->type == SPARAM_OBJECTIVE, short_form);
      return FALSE;
    }
    return TRUE;
  }
  if (d->type == SPARAM_SWAP_OBJECTIVE) {
    const strategy_objective *o = strategy_objective_find(value);
    if (o && o->swaps)
      return TRUE;
    g_autofree char *names = strategy_objective_names(TRUE, "|");
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "--strategy: %s:%s=%s: expected one of %s", s->name, d->name, value, names);
    return FALSE;
  }
  if (d->type == SPARAM_CHOICE) {
    char **words = g_strsplit(d->choices, "|", -1);
    ok = g_strv_contains((const char *const *)words, value);
    g_strfreev(words);
  } else {
    double v = 0;
    if (d->type == SPARAM_INT) {
      gint64 i;
      ok = g_ascii_string_to_signed(value, 10, G_MININT, G_MAXINT, &i, NULL);
      v = (double)i;
    } else {
      char *end;
      errno = 0;
      v = g_ascii_strtod(value, &end);
      ok = !errno && end != value && *end == '\0' && isfinite(v);
    }
    if (ok && d->choices) {
      double lo = -INFINITY, hi = INFINITY;
      char **r = g_strsplit(d->choices, "..", 2);
      if (r[0] && *r[0])
        lo = g_ascii_strtod(r[0], NULL);
      if (r[0] && r[1] && *r[1])
        hi = g_ascii_strtod(r[1], NULL);
      g_strfreev(r);
      ok = v >= lo && v <= hi;
    }
  }
  if (!ok)
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "--strategy: %s:%s=%s: expected %s%s%s", s->name, d->name, value,
                d->type == SPARAM_CHOICE ? "one of "
                : d->type == SPARAM_INT  ? "an integer"
                                         : "a number",
                d->type == SPARAM_CHOICE ? "" : d->choices ? " in " : "",
                d->choices ? d->choices : "");
  return ok;
}

static gboolean parse_step(const char *text, strategy_step *step, GError **error)
{
  char **parts = g_strsplit(text, ":", 2);
  gboolean ok = FALSE;
  const strategy *s = parts[0] ? strategy_find(parts[0]) : NULL; /* "" (as in a++b) has no part */
  if (!s) {
    suggestion near;
    suggestion_init(&near, parts[0]);
    GString *names = g_string_new(NULL);
    int n = 0;
    for (; strategy_registry[n]; n++) {
      g_string_append_printf(names, n ? ", %s" : "%s", strategy_registry[n]->name);
      suggestion_add(&near, strategy_registry[n]->name);
    }
    if (suggestion_best(&near))
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                  "--strategy: unknown strategy '%s', did you mean '%s'? (mapsim strategies "
                  "lists all %d)", near.word, suggestion_best(&near), n);
    else
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                  "--strategy: unknown strategy '%s', expected one of %s", near.word, names->str);
    g_string_free(names, TRUE);
    goto out;
  }
  step->s = s;
  step->args.defs = s->params;
  step->args.n = 0;
  for (int i = 0; s->params && s->params[i].name; i++) {
    g_assert(i < STRATEGY_MAX_PARAMS);
    step->args.values[i] = g_strdup(s->params[i].defval);
    step->args.n++;
  }
  if (parts[1]) {
    char **opts = strategy_split(parts[1], ',');
    const char *given[STRATEGY_MAX_PARAMS] = { NULL }; /* the option that set each key */
    for (int i = 0; opts[i]; i++) {
      char **kv = g_strsplit(opts[i], "=", 2);
      int idx = -1;
      for (int j = 0; j < step->args.n && kv[0] && kv[1]; j++)
        if (strcmp(s->params[j].name, kv[0]) == 0)
          idx = j;
      if (idx >= 0 && given[idx]) {
        g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                    "--strategy: %s: '%s' given twice ('%s' and '%s'), expected each key once",
                    s->name, kv[0], given[idx], opts[i]);
        idx = -1;
      } else if (idx < 0) {
        GString *names = g_string_new(NULL);
        suggestion near;
        suggestion_init(&near, kv[0]);
        for (int j = 0; j < step->args.n; j++) {
          g_string_append_printf(names, j ? ", %s" : "%s", s->params[j].name);
          suggestion_add(&near, s->params[j].name);
        }
        g_autofree char *hint = kv[1] && suggestion_best(&near)
                                    ? g_strdup_printf(" (did you mean '%s'?)", near.best) : NULL;
        g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                    "--strategy: %s: option '%s', expected key=value with key one of: %s%s",
                    s->name, opts[i], step->args.n ? names->str : "(none)", hint ? hint : "");
        g_string_free(names, TRUE);
      } else if (check_value(s, &s->params[idx], kv[1], error)) {
        g_free(step->args.values[idx]);
        step->args.values[idx] = g_strdup(kv[1]);
        given[idx] = opts[i];
      } else {
        idx = -1;
      }
      g_strfreev(kv);
      if (idx < 0) {
        g_strfreev(opts);
        goto out;
      }
    }
    g_strfreev(opts);
  }
  ok = TRUE;
out:
  g_strfreev(parts);
  return ok;
}

char **strategy_pipeline_list(const char *value, GError **error)
{
  size_t len = strlen(value);
  if (len < 2 || value[0] != '[' || value[len - 1] != ']') {
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "'%s': expected a list of pipelines in brackets, e.g. [identity+tabu|scotch+kl]",
                value);
    return NULL;
  }
  char *inner = g_strndup(value + 1, len - 2);
  char **list = strategy_split(inner, '|');
  g_free(inner);
  return list;
}

void strategy_pipeline_free(strategy_pipeline *pl)
{
  if (!pl)
    return;
  for (int i = 0; i < pl->nsteps; i++)
    for (int j = 0; j < pl->steps[i].args.n; j++)
      g_free(pl->steps[i].args.values[j]);
  g_free(pl->steps);
  g_free(pl);
}

strategy_pipeline *strategy_parse(const char *spec, GError **error)
{
  char **steps = strategy_split(spec, '+');
  int n = (int)g_strv_length(steps);
  strategy_pipeline *pl = g_new0(strategy_pipeline, 1);
  pl->steps = g_new0(strategy_step, n ? n : 1);
  gboolean ok = n > 0;
  if (!ok)
    g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                "--strategy: empty, expected e.g. greedy+wh+mc");
  for (int i = 0; ok && i < n; i++) {
    if (!*steps[i]) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                  "--strategy '%s': step %d is empty, expected NAME[:key=value,...] on both "
                  "sides of every '+'", spec, i + 1);
      ok = FALSE;
      break;
    }
    ok = parse_step(steps[i], &pl->steps[i], error);
    if (ok || pl->steps[i].s)
      pl->nsteps++;
    if (ok && i > 0 && pl->steps[i].s->kind == STRATEGY_CONSTRUCT) {
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC,
                  "--strategy: step %d '%s' places from scratch, expected a refiner after the "
                  "first step", i + 1, pl->steps[i].s->name);
      ok = FALSE;
    }
  }
  g_strfreev(steps);
  if (!ok) {
    strategy_pipeline_free(pl);
    return NULL;
  }
  return pl;
}

gboolean strategy_pipeline_check_objectives(const strategy_pipeline *pl,
                                            const char *const *simulated, GError **error)
{
  for (int i = 0; i < pl->nsteps; i++) {
    const strategy_step *st = &pl->steps[i];
    for (int j = 0; j < st->args.n; j++) {
      const strategy_param *d = &st->args.defs[j];
      const char *v = st->args.values[j];
      gboolean statics = d->type == SPARAM_OBJECTIVE;
      if (d->type == SPARAM_PIPELINES && strcmp(v, d->defval) != 0) {
        /* parsed once by check_value already */
        g_auto(GStrv) list = strategy_pipeline_list(v, NULL);
        for (int k = 0; list && list[k]; k++) {
          g_autoptr(strategy_pipeline) inner = strategy_parse(list[k], NULL);
          if (inner && !strategy_pipeline_check_objectives(inner, simulated, error))
            return FALSE;
        }
      }
      /* a static name where a simulated one is expected: the step's own
       * refusal says why (replay) */
      if ((d->type != SPARAM_OBJECTIVE && d->type != SPARAM_SIMULATED) ||
          strategy_objective_find(v))
        continue;
      gboolean known = FALSE;
      for (int k = 0; simulated && simulated[k] && !known; k++)
        known = strcmp(simulated[k], v) == 0;
      if (!known) {
        strategy_objective_unknown(error, st->s->name, v, statics, simulated);
        return FALSE;
      }
    }
  }
  return TRUE;
}

/* One step; one that needs coordinates runs on the hierarchy's grid of an
 * indirect network, or is refused where there are none. */
static gboolean run_step(const strategy_step *st, const strategy_ctx *ctx, mapping *m,
                         GError **error)
{
  const topo *t = ctx->p->topo;
  if (!st->s->needs_coordinates || topo_is_regular(t))
    return st->s->run(ctx, &st->args, m, error);
  platform *grid = hier_grid_platform(ctx->p, error);
  if (!grid) {
    if (error && !*error)
      g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_INPUT,
                  "%s: platform %s is a %s without node coordinates, expected a mesh, torus, "
                  "HAEC Box, dragonfly, fat tree or HyperX (their hierarchy's grid)",
                  st->s->name, ctx->p->name, topo_kind_text(t));
    return FALSE;
  }
  strategy_ctx on_grid = *ctx;
  on_grid.p = grid;
  gboolean ok = st->s->run(&on_grid, &st->args, m, error);
  hier_grid_free(grid);
  return ok;
}

/* Runs the steps from..nsteps-1 on ctx; a pipeline that starts with a
 * refiner first runs that refiner's start constructor. */
static gboolean run_steps(const strategy_pipeline *pl, int from, const strategy_ctx *ctx,
                          mapping *m, GError **error)
{
  const strategy *first = pl->steps[0].s;
  if (from == 0 && first->kind == STRATEGY_REFINE) {
    strategy_step start = { .s = strategy_find(first->start ? first->start : "identity") };
    g_assert(start.s && start.s->kind == STRATEGY_CONSTRUCT);
    strategy_args_defaults(start.s, &start.args);
    if (!run_step(&start, ctx, m, error))
      return FALSE;
  }
  for (int i = from; i < pl->nsteps; i++) {
    const strategy_step *st = &pl->steps[i];
    if (i > from && progress_stopped(ctx->prog))
      return TRUE; /* stopped: the refiners left are skipped, the mapping so far is valid */
    if (!run_step(st, ctx, m, error))
      return FALSE;
    GError *e = NULL;
    if (!mapping_validate(m, ctx->p, &e)) {
      g_set_error(error, STATUS_ERROR, STATUS_ERROR_INTERNAL,
                  "strategy %s left an invalid mapping: %s", st->s->name, e->message);
      g_error_free(e);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean pipeline_places_slots(const strategy_pipeline *pl)
{
  for (int i = 0; i < pl->nsteps; i++)
    if (!pl->steps[i].s->places_slots)
      return FALSE;
  return TRUE;
}

/* Node load of a mapping: load[node] ranks; returns the nodes used. */
static int node_loads(const mapping *m, int nnodes, int *load)
{
  int used = 0;
  memset(load, 0, sizeof(int) * (size_t)nnodes);
  for (int i = 0; i < m->ntasks; i++)
    used += load[m->node[i]]++ == 0;
  return used;
}

/* The fill rule for placements that made more groups than it allows (a
 * slot placer that leaves nodes partly filled): while more than k nodes are
 * used, the ranks of the least loaded node (lowest id on ties) move to the
 * nearest used node with room (fewest hops from it, lowest id on ties).
 * k nodes of `cap` slots hold every rank, so room is always found. */
static void fill_compact(const platform *p, int cap, int k, mapping *m)
{
  int nn = p->topo->nnodes;
  int *load = g_new(int, nn);
  int used = node_loads(m, nn, load);
  while (used > k) {
    int from = -1;
    for (int v = 0; v < nn; v++)
      if (load[v] && (from < 0 || load[v] < load[from]))
        from = v;
    for (int i = 0; i < m->ntasks; i++) {
      if (m->node[i] != from)
        continue;
      int to = -1, best = G_MAXINT;
      for (int v = 0; v < nn; v++) {
        if (v == from || !load[v] || load[v] >= cap)
          continue;
        int h = route_hops(p->router, from, v);
        if (h >= 0 && h < best)
          best = h, to = v;
      }
      g_assert(to >= 0);
      m->node[i] = to;
      load[to]++;
      load[from]--;
    }
    used--;
  }
  g_free(load);
}

/* The hook seen through groups of tasks: a mapping of the groups (one per
 * node) is scored as the mapping of their tasks. */
typedef struct group_eval {
  strategy_eval hook;
  const strategy_eval *inner;
  const int *part;  /* task -> group */
  int ntasks;
} group_eval;

static gboolean group_score(void *user, const char *objective, const mapping *qm, double limit,
                            strategy_score *out, GError **error)
{
  const group_eval *ge = user;
  mapping *m = mapping_new(ge->ntasks);
  double *heat = out->task_heat ? g_new0(double, ge->ntasks) : NULL;
  for (int i = 0; i < ge->ntasks; i++)
    m->node[i] = qm->node[ge->part[i]];
  strategy_score inner = { .link_heat = out->link_heat, .task_heat = heat };
  gboolean ok = ge->inner->score(ge->inner->user, objective, m, limit, &inner, error);
  if (ok) {
    out->objective = inner.objective;
    out->value = inner.value;
    out->over = inner.over;
    if (heat) {
      memset(out->task_heat, 0, sizeof(double) * (size_t)qm->ntasks);
      for (int i = 0; i < ge->ntasks; i++)
        out->task_heat[ge->part[i]] += heat[i];
    }
  }
  g_free(heat);
  mapping_free(m);
  return ok;
}

mapping *strategy_run(const strategy_request *rq, GError **error)
{
  const strategy_pipeline *pl = rq->pipeline;
  const commgraph *g = rq->g;
  const platform *p = rq->p;
  const char **chosen_by = rq->chosen_by;
  const strategy_eval *eval = rq->eval;
  const char *chosen = NULL;
  if (chosen_by)
    *chosen_by = NULL;
  if (!platform_check_capacity(p, g->n, error))
    return NULL;
  /* the fill rule: every used node holds at most `cap` ranks, k nodes used */
  int cap = platform_ranks_per_node(p, g->n);
  int k = g->n ? (g->n + cap - 1) / cap : 0;
  platform view = *p, one = *p;
  view.cores_per_node = cap;
  one.cores_per_node = 1;
  strategy_ctx ctx = { g, &view, rq->seed, rq->coords, rq->coord_dims, rq->report, rq->prog,
                       eval, &chosen, &strategy_runner };
  mapping *m = mapping_new(g->n);
  if (cap == 1 || pipeline_places_slots(pl)) {
    /* each step hands on a mapping that keeps the fill rule, so a
     * refiner's measure of it (replay) is the measure of the result */
    for (int i = 0; i < pl->nsteps; i++) {
      if (!run_steps(&(strategy_pipeline){ i + 1, pl->steps }, i, &ctx, m, error))
        goto fail;
      fill_compact(&view, cap, k, m);
    }
    if (chosen_by)
      *chosen_by = chosen;
    return m;
  }
  /* several ranks per node: group the ranks into k nodes, place and refine
   * the groups on the quotient graph (one group per node), expand. A first
   * step that fills node slots itself (a curve, geometric with its
   * coordinates) makes the groups; otherwise Scotch partitions into k parts
   * of at most cap ranks (deveci2015 III-A), which leaves none empty. */
  int *part = g_new(int, g->n);
  int *group_node = g_new(int, MAX(k, 1));
  int from = 0;
  gboolean ok;
  if (pl->steps[0].s->places_slots) {
    ok = run_steps(&(strategy_pipeline){ 1, pl->steps }, 0, &ctx, m, error);
    if (ok) {
      fill_compact(&view, cap, k, m);
      /* groups numbered by their node's allocation index */
      int *gid = g_new(int, p->topo->nnodes);
      int ng = 0;
      for (int v = 0; v < p->topo->nnodes; v++)
        gid[v] = -1;
      for (int a = 0; a < p->nalloc; a++)
        for (int i = 0; i < g->n && gid[p->alloc[a]] < 0; i++)
          if (m->node[i] == p->alloc[a])
            group_node[ng] = p->alloc[a], gid[p->alloc[a]] = ng++;
      g_assert(ng == k);
      for (int i = 0; i < g->n; i++)
        part[i] = gid[m->node[i]];
      g_free(gid);
    }
    from = 1;
  } else {
    ok = strategy_partition(g, k, cap, rq->seed, part, error);
  }
  if (ok) {
    commgraph *q = strategy_quotient(g, part, k);
    ctx.g = q;
    ctx.p = &one;
    ctx.coords = NULL; /* task coordinates do not survive the quotient */
    group_eval ge = { { group_score, NULL }, eval, part, g->n };
    ge.hook.user = &ge;
    ctx.eval = eval ? &ge.hook : NULL;
    mapping *qm = mapping_new(q->n);
    for (int j = 0; from == 1 && j < q->n; j++)
      qm->node[j] = group_node[j]; /* group j stays where the first step put it */
    ok = run_steps(pl, from, &ctx, qm, error);
    for (int i = 0; ok && i < g->n; i++)
      m->node[i] = qm->node[part[i]];
    mapping_free(qm);
    commgraph_free(q);
  }
  g_free(part);
  g_free(group_node);
  if (ok && chosen_by)
    *chosen_by = chosen;
  if (ok)
    return m;
fail:
  mapping_free(m);
  return NULL;
}

char *strategy_describe_all(void)
{
  GString *s = g_string_new(NULL);
  for (int i = 0; strategy_registry[i]; i++) {
    const strategy *st = strategy_registry[i];
    g_string_append_printf(s, "%-10s %s %s\n", st->name,
                           st->kind == STRATEGY_CONSTRUCT ? "[places]" : "[refines]", st->summary);
    g_string_append_printf(s, "%-10s from: %s\n", "", st->paper);
    if (st->max_ranks < 0)
      g_string_append_printf(s, "%-10s scales: %s\n", "", st->cost ? st->cost : "?");
    else if (st->max_ranks)
      g_string_append_printf(s, "%-10s scales: %s; up to %d ranks in about a minute\n", "",
                             st->cost ? st->cost : "?", st->max_ranks);
    else
      g_string_append_printf(s, "%-10s scales: %s; any size (near-linear)\n", "",
                             st->cost ? st->cost : "?");
    if (st->kind == STRATEGY_REFINE)
      g_string_append_printf(s, "%-10s starts from: %s when first\n", "",
                             st->start ? st->start : "identity");
    for (int j = 0; st->params && st->params[j].name; j++) {
      const strategy_param *d = &st->params[j];
      g_string_append_printf(s, "%-10s   %s=%s  %s", "", d->name, d->defval, d->help);
      g_autofree char *objectives =
          d->type == SPARAM_OBJECTIVE || d->type == SPARAM_SWAP_OBJECTIVE
              ? strategy_objective_names(d->type == SPARAM_SWAP_OBJECTIVE, "|") : NULL;
      if (d->choices || objectives)
        g_string_append_printf(s, " (%s)", objectives ? objectives : d->choices);
      g_string_append_c(s, '\n');
    }
  }
  return g_string_free(s, FALSE);
}
