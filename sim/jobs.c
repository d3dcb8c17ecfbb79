/* jobs.c - reading a jobs file and placing its jobs on a platform
 * (jobs.h). The file is read with the study file's line-aware reader
 * (util/ini.h), so its problems carry their lines the same way. */
#include "sim/jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/strategy.h"
#include "routing/alloc.h"
#include "sim/optimize.h"
#include "util/budget.h"
#include "util/checked.h"
#include "util/ini.h"
#include "util/suggest.h"
#include "util/units.h"

G_DEFINE_QUARK(jobs-error-quark, jobs_error)

static void spec_clear(job_spec *j)
{
  g_free(j->name);
  g_free(j->trace_path);
  g_free(j->matrix_path);
  g_free(j->counts_path);
  g_free(j->alloc);
  g_free(j->nodes_text);
  g_free(j->strategy);
}

void jobs_file_free(jobs_file *jf)
{
  if (!jf)
    return;
  for (int i = 0; i < jf->njobs; i++)
    spec_clear(&jf->jobs[i]);
  g_free(jf->jobs);
  g_free(jf->path);
  g_free(jf->name);
  g_free(jf);
}

static gboolean parse_seed(ini_file *L, const char *group, const char *text, guint32 *out)
{
  char *end;
  errno = 0;
  guint64 v = g_ascii_strtoull(text, &end, 10);
  if (errno || end == text || *end || v > G_MAXUINT32 || text[0] == '-') {
    ini_problem(L, ini_line(L, group, "seed"), "[%s] seed = %s, expected 0..4294967295",
                group, text);
    return FALSE;
  }
  *out = (guint32)v;
  return TRUE;
}

static void check_strategy(ini_file *L, const char *group, const char *pipeline)
{
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(pipeline, &e);
  if (pl && !optimize_check_objectives(pl, &e))
    g_clear_pointer(&pl, strategy_pipeline_free);
  if (!pl) {
    ini_problem(L, ini_line(L, group, "strategy"), "[%s] strategy = %s: %s", group,
                pipeline, e->message);
    g_error_free(e);
  }
  strategy_pipeline_free(pl);
}

/* A path of the file: resolved, and a problem naming it as written when
 * nothing is there. */
static char *check_path(ini_file *L, const char *group, const char *key, const char *written)
{
  char *path = ini_resolve(L, written);
  if (!g_file_test(path, G_FILE_TEST_EXISTS))
    ini_problem(L, ini_line(L, group, key), "[%s] %s = %s: no such file or folder (%s)",
                group, key, written, path);
  return path;
}

/* The input of [job NAME]: exactly one of trace and matrix. */
static void read_input(ini_file *L, const char *g, job_spec *j)
{
  g_autofree char *trace_v = ini_string(L, g, "trace");
  g_autofree char *matrix = ini_string(L, g, "matrix");
  g_autofree char *counts = ini_string(L, g, "counts");
  if (!trace_v == !matrix)
    ini_problem(L, j->line, "[%s] expected exactly one of trace = T or matrix = M", g);
  else if (trace_v)
    j->trace_path = check_path(L, g, "trace", trace_v);
  else
    j->matrix_path = check_path(L, g, "matrix", matrix);
  if (counts && !matrix)
    ini_problem(L, ini_line(L, g, "counts"),
                "[%s] counts goes with matrix = M; a trace carries its own message counts", g);
  else if (counts)
    j->counts_path = check_path(L, g, "counts", counts);
}

/* The allocation of [job NAME]: alloc = POLICY:N[:SEED] | FILE, or nodes. */
static void read_alloc(ini_file *L, const char *g, job_spec *j)
{
  g_autofree char *alloc = ini_string(L, g, "alloc");
  j->nodes_text = ini_string(L, g, "nodes");
  j->alloc_line = ini_line(L, g, alloc ? "alloc" : "nodes");
  if (!alloc == !j->nodes_text) {
    ini_problem(L, j->line, "[%s] expected exactly one of alloc = POLICY:N[:SEED] (or a "
                "node list file) and nodes = IDS", g);
    return;
  }
  if (!alloc)
    return;
  if (alloc_is_policy(alloc)) {
    alloc_request r;
    GError *e = NULL;
    if (!alloc_parse(alloc, G_MAXINT, &r, &e)) {
      ini_problem(L, j->alloc_line, "[%s] %s", g, e->message);
      g_error_free(e);
    }
    j->alloc = g_steal_pointer(&alloc);
  } else {
    /* a mistyped policy, not a missing file: `randm:16` */
    g_autofree char *hint = strchr(alloc, ':') ? alloc_policy_hint(alloc) : g_strdup("");
    g_autofree char *path = ini_resolve(L, alloc);
    if (*hint && !g_file_test(path, G_FILE_TEST_EXISTS)) {
      g_autofree char *names = alloc_policy_names();
      ini_problem(L, j->alloc_line, "[%s] alloc = %s: unknown allocation policy%s, expected "
                  "POLICY:N[:SEED] with a policy of %s, or a node list file", g, alloc, hint,
                  names);
      return;
    }
    j->alloc = check_path(L, g, "alloc", alloc);
  }
}

static void read_job(ini_file *L, const char *g, const char *def_strategy, guint32 def_seed,
                     job_spec *j)
{
  static const char *const keys[] = { "trace", "matrix", "counts", "alloc", "nodes",
                                      "strategy", "seed", "start", NULL };
  ini_check_keys(L, g, keys);
  j->name = g_strdup(g + strlen("job "));
  j->line = ini_line(L, g, NULL);
  j->seed = def_seed;
  read_input(L, g, j);
  read_alloc(L, g, j);
  j->strategy = ini_string(L, g, "strategy");
  if (j->strategy)
    check_strategy(L, g, j->strategy);
  else if (def_strategy)
    j->strategy = g_strdup(def_strategy); /* checked in [jobs] */
  g_autofree char *seed = ini_string(L, g, "seed");
  if (seed)
    parse_seed(L, g, seed, &j->seed);
  g_autofree char *start = ini_string(L, g, "start");
  j->start_line = ini_line(L, g, "start");
  double s = 0;
  GError *e = NULL;
  /* in range before it becomes picoseconds (1e20 s fits no int64) */
  if (start && (!units_parse(start, UNITS_TIME, &s, &e) || !(s >= 0 && s <= JOBS_MAX_START_S) ||
                !checked_seconds_to_ps(s, &j->start_ps))) {
    if (e)
      ini_problem(L, j->start_line, "[%s] start = %s: %s", g, start, e->message);
    else
      ini_problem(L, j->start_line, "[%s] start = %s: expected a time from 0 s to "
                  G_STRINGIFY(JOBS_MAX_START_S) " s (92 days)", g, start);
    g_clear_error(&e);
  }
}

/* [jobs] and every [job NAME], in file order. */
static void read_groups(ini_file *L, jobs_file *jf)
{
  static const char *const keys[] = { "name", "strategy", "seed", NULL };
  g_autofree char *def_strategy = NULL;
  guint32 def_seed = 1;
  if (g_key_file_has_group(L->kf, "jobs")) {
    ini_check_keys(L, "jobs", keys);
    jf->name = ini_string(L, "jobs", "name");
    def_strategy = ini_string(L, "jobs", "strategy");
    if (def_strategy)
      check_strategy(L, "jobs", def_strategy);
    g_autofree char *seed = ini_string(L, "jobs", "seed");
    if (seed)
      parse_seed(L, "jobs", seed, &def_seed);
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->kf, NULL);
  for (int i = 0; groups[i]; i++) {
    const char *g = groups[i];
    static const char *const known[] = { "jobs", "job ", NULL };
    if (strcmp(g, "jobs") == 0 || !ini_known_group(L, g, known, "[jobs] or [job NAME]"))
      continue;
    jf->jobs = g_renew(job_spec, jf->jobs, jf->njobs + 1);
    job_spec *j = &jf->jobs[jf->njobs++];
    *j = (job_spec){ 0 };
    read_job(L, g, def_strategy, def_seed, j);
  }
  if (jf->njobs == 0)
    ini_problem(L, 1, "no jobs, expected at least one [job NAME] group");
}

jobs_file *jobs_load(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  if (!budget_read_text(path, "a jobs file (INI)", &text, NULL, error))
    return NULL;
  g_autofree char *dir = g_path_get_dirname(path);
  return jobs_load_text(path, text, dir, error);
}

jobs_file *jobs_load_text(const char *path, const char *text, const char *base_dir,
                          GError **error)
{
  g_autofree char *base = g_canonicalize_filename(base_dir, NULL);
  jobs_file *jf = g_new0(jobs_file, 1);
  jf->path = g_strdup(path);
  ini_file L;
  ini_open(&L, path, base, text, "job NAME");
  if (L.problems->len == 0)
    read_groups(&L, jf);
  if (!jf->name)
    jf->name = ini_path_label(path);
  if (!ini_close(&L, JOBS_ERROR, JOBS_ERROR_FILE, error)) {
    jobs_file_free(jf);
    return NULL;
  }
  return jf;
}

void jobs_placement_free(jobs_placement *pl)
{
  if (!pl)
    return;
  for (int i = 0; i < pl->njobs; i++) {
    g_free(pl->nodes[i]);
    g_free(pl->alloc_text[i]);
  }
  g_free(pl->nodes);
  g_free(pl->nnodes);
  g_free(pl->alloc_text);
  g_free(pl);
}

/* A job's node list: `nodes =` or a node list file. */
static gboolean read_node_list(const jobs_file *jf, const job_spec *j, const platform *p,
                               int **nodes, int *n, GError **error)
{
  if (j->nodes_text)
    return platform_parse_node_list(p, j->nodes_text, jf->path, j->alloc_line, nodes, n, error);
  g_autofree char *text = NULL;
  return budget_read_text(j->alloc, "a node list", &text, NULL, error) &&
         platform_parse_node_list(p, text, j->alloc, 1, nodes, n, error);
}

/* Is a policy named `name` (up to the first ':') one that draws from its
 * SEED? The random ones are named random* (routing/alloc.h: "only the
 * random policies draw from SEED"). */
static gboolean draws_at_random(const char *name)
{
  return name && g_str_has_prefix(name, "random");
}

/* A job's policy, with `policy` (may be NULL; its own SEED when it has
 * one) in place of its own, on draw `draw` (1: the file's seeds). */
static gboolean read_policy(const job_spec *j, const platform *p, const jobs_draw *policy,
                            alloc_request *r, char **text, GError **error)
{
  if (!alloc_parse(j->alloc, topo_compute_nodes(p->topo), r, error))
    return FALSE;
  if (policy->policy) {
    guint32 seed = policy->seed ? policy->seed : r->seed;
    g_autofree char *spec = g_strdup_printf("%s:%d:%u", policy->policy, r->nodes, seed);
    if (!alloc_parse(spec, topo_compute_nodes(p->topo), r, error))
      return FALSE;
  }
  const char *name = alloc_policy_name(r->policy);
  if (!draws_at_random(name)) {
    *text = g_strdup_printf("%s:%d", name, r->nodes); /* no seed: it draws nothing */
    return TRUE;
  }
  r->seed += MAX(policy->draw, 1) - 1;
  *text = g_strdup_printf("%s:%d:%u", name, r->nodes, r->seed);
  return TRUE;
}

/* "nodes 0-3 8-11 ..." (the first ids of a long list). */
static char *nodes_label(const char *text)
{
  g_auto(GStrv) tok = g_strsplit_set(text, " \t\r\n,", -1);
  GString *s = g_string_new("nodes");
  for (int i = 0, n = 0; tok[i]; i++) {
    if (!*tok[i])
      continue;
    if (n++ == 3 || s->len > 24) {
      g_string_append(s, " ...");
      break;
    }
    g_string_append_printf(s, " %s", tok[i]);
  }
  return g_string_free(s, FALSE);
}

/* Marks a job's nodes taken; FALSE when an earlier job holds one. */
static gboolean take(const jobs_file *jf, const jobs_placement *pl, int job, gboolean *taken,
                     int *owner, GError **error)
{
  for (int i = 0; i < pl->nnodes[job]; i++) {
    int v = pl->nodes[job][i];
    if (taken[v]) {
      g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "node %d is also job '%s''s, expected "
                  "each node in one job", v, jf->jobs[owner[v]].name);
      return FALSE;
    }
    taken[v] = TRUE;
    owner[v] = job;
  }
  return TRUE;
}

/* Places job `job` when it is of the kind this pass places (node lists
 * first). *located: the error already names its file and line (a node
 * list's). */
static gboolean place_job(const jobs_file *jf, const platform *p, const jobs_draw *policy, int job,
                          gboolean lists, jobs_placement *pl, gboolean *taken, int *owner,
                          gboolean *located, GError **error)
{
  const job_spec *j = &jf->jobs[job];
  gboolean is_list = j->nodes_text || !alloc_is_policy(j->alloc);
  if (is_list != lists)
    return TRUE;
  if (is_list) {
    if (!read_node_list(jf, j, p, &pl->nodes[job], &pl->nnodes[job], error))
      return (*located = TRUE, FALSE);
    pl->alloc_text[job] = j->nodes_text ? nodes_label(j->nodes_text)
                                        : g_path_get_basename(j->alloc);
  } else {
    alloc_request r;
    if (!read_policy(j, p, policy, &r, &pl->alloc_text[job], error) ||
        !(pl->nodes[job] = alloc_pick(p->topo, &r, taken, pl->alloc_text[job], error)))
      return FALSE;
    pl->nnodes[job] = r.nodes;
  }
  return take(jf, pl, job, taken, owner, error);
}

gboolean jobs_parse_policy(const char *text, jobs_draw *out, GError **error)
{
  *out = (jobs_draw){ .draw = 1 };
  if (!text)
    return TRUE;
  g_auto(GStrv) parts = g_strsplit(text, ":", 3);
  guint64 seed = 0;
  if (!alloc_policy_find(parts[0]) || (parts[1] && parts[2])) {
    g_autofree char *names = alloc_policy_names();
    g_autofree char *hint = alloc_policy_hint(text);
    g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "unknown allocation policy '%s'%s, expected "
                "one of %s (and for a random one :SEED)", text, hint, names);
    return FALSE;
  }
  if (parts[1] && (!draws_at_random(parts[0]) ||
                   !g_ascii_string_to_unsigned(parts[1], 10, 0, G_MAXUINT32, &seed, NULL))) {
    g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "policy '%s': %s, expected %s", text,
                draws_at_random(parts[0]) ? "a bad seed" : "a policy that draws nothing has no "
                "seed", draws_at_random(parts[0]) ? "POLICY:SEED with SEED 0..4294967295"
                                                  : "the policy's name alone");
    return FALSE;
  }
  out->policy = alloc_policy_name(alloc_policy_find(parts[0]));
  out->seed = (guint32)seed;
  return TRUE;
}

gboolean jobs_draws_at_random(const jobs_file *jf, const jobs_draw *policy)
{
  for (int i = 0; i < jf->njobs; i++) {
    const job_spec *j = &jf->jobs[i];
    if (j->nodes_text || !alloc_is_policy(j->alloc))
      continue;
    if (policy && policy->policy) {
      if (draws_at_random(policy->policy))
        return TRUE;
      continue;
    }
    g_autofree char *name = g_strndup(j->alloc, strcspn(j->alloc, ":"));
    if (draws_at_random(name))
      return TRUE;
  }
  return FALSE;
}

jobs_placement *jobs_place(const jobs_file *jf, const platform *p, const char *policy,
                           GError **error)
{
  jobs_draw d;
  return jobs_parse_policy(policy, &d, error) ? jobs_place_draw(jf, p, &d, error) : NULL;
}

jobs_placement *jobs_place_draw(const jobs_file *jf, const platform *p, const jobs_draw *policy,
                                GError **error)
{
  static const jobs_draw as_written = { .draw = 1 };
  if (!policy)
    policy = &as_written;
  int n = topo_compute_nodes(p->topo);
  jobs_placement *pl = g_new0(jobs_placement, 1);
  pl->njobs = jf->njobs;
  pl->nodes = g_new0(int *, jf->njobs);
  pl->nnodes = g_new0(int, jf->njobs);
  pl->alloc_text = g_new0(char *, jf->njobs);
  g_autofree gboolean *taken = g_new0(gboolean, MAX(n, 1));
  g_autofree int *owner = g_new0(int, MAX(n, 1));
  GError *e = NULL;
  gboolean located = FALSE;
  for (int lists = 1; lists >= 0; lists--)
    for (int i = 0; i < jf->njobs; i++)
      if (!place_job(jf, p, policy, i, lists, pl, taken, owner, &located, &e)) {
        if (located)
          g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "%s (job '%s')", e->message,
                      jf->jobs[i].name);
        else
          g_set_error(error, JOBS_ERROR, JOBS_ERROR_PLACE, "%s:%d: job '%s' on %s: %s", jf->path,
                      jf->jobs[i].alloc_line, jf->jobs[i].name, p->name, e->message);
        g_error_free(e);
        jobs_placement_free(pl);
        return NULL;
      }
  return pl;
}
