/* jobs.c - studies over several jobs per run (study/study.h): every jobs
 * file x platform x allocation policy x draw (a study seed, where a job is
 * placed at random) x model of a study file's `jobs` and `policies`, each
 * a mix (sim/mix.h), placed at load time, one row per job in jobs.csv and
 * jobs.json; the report draws them (report/). Mixes run after the
 * study's cells, all of them in every run (they are not stored: a
 * resumed study runs them again), and not in slices.
 */

#include <math.h>

#include "routing/alloc.h"
#include "sim/mix.h"
#include "study/loader-private.h"
#include "study/study-private.h"

void study_read_jobs(loader *L)
{
  study *s = L->s;
  int line = ini_line(&L->ini, "study", "jobs");
  g_auto(GStrv) files = ini_list(&L->ini, "study", "jobs");
  g_auto(GStrv) policies = ini_list_expanded(&L->ini, "study", "policies");
  if (policies && !files)
    ini_problem(&L->ini, ini_line(&L->ini, "study", "policies"),
                "[study] policies go with jobs = FILE; ..., expected jobs files too");
  for (int i = 0; files && files[i]; i++) {
    g_autofree char *path = ini_resolve(&L->ini, files[i]);
    GError *e = NULL;
    jobs_file *jf = jobs_load(path, &e);
    if (!jf) {
      /* the jobs file's own lines: one problem per line of it */
      g_auto(GStrv) lines = g_strsplit(e->message, "\n", -1);
      for (int k = 0; lines[k]; k++)
        ini_problem(&L->ini, line, "[study] jobs: %s", lines[k]);
      g_error_free(e);
      continue;
    }
    s->jobfiles = g_renew(jobs_file *, s->jobfiles, s->njobfiles + 1);
    s->jobfiles[s->njobfiles++] = jf;
  }
  gboolean policies_ok = TRUE;
  for (int i = 0; policies && policies[i]; i++) {
    jobs_draw d;
    GError *e = NULL;
    if (!jobs_parse_policy(policies[i], &d, &e)) {
      ini_problem(&L->ini, ini_line(&L->ini, "study", "policies"), "[study] policies: %s",
                  e->message);
      g_error_free(e);
      policies_ok = FALSE;
    }
  }
  s->npolicies = policies ? (int)g_strv_length(policies) : 0;
  /* the draws: one per seed where a job is placed at random */
  int np = MAX(s->npolicies, 1);
  s->mix_draws = g_new0(int, MAX(s->njobfiles * np, 1));
  for (int f = 0; f < s->njobfiles; f++)
    for (int k = 0; k < np; k++) {
      jobs_draw d = { .draw = 1 };
      if (policies && policies_ok)
        jobs_parse_policy(policies[k], &d, NULL);
      /* 0: nothing drawn at random, one run */
      s->mix_draws[f * np + k] = jobs_draws_at_random(s->jobfiles[f], &d) ? MAX(s->nseeds, 1)
                                                                          : 0;
    }
  if (policies)
    ini_check_distinct(&L->ini, "study", "policies", policies, NULL, s->npolicies);
  s->policies = g_steal_pointer(&policies);
}

/* Where the jobs go is known once the platforms are loaded: every jobs
 * file x platform x policy is placed (jobs_place) before anything runs,
 * so a mix that cannot run - node lists that overlap, more nodes than
 * the platform has free - is a problem of the file with its reason, as
 * an input that does not fit a platform is. One line per distinct
 * reason (a node list's overlap is the same under every policy). */
void study_check_jobs(loader *L)
{
  study *s = L->s;
  int line = ini_line(&L->ini, "study", "jobs");
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int m = 0; m < study_nmixes(s); m += s->nmodels) { /* models place alike */
    study_mix_key k;
    study_mix_at(s, m, &k);
    const study_platform *sp = &s->platforms[k.platform];
    const char *policy = study_mix_policy(s, &k);
    jobs_draw d;
    if (!sp->p || !jobs_parse_policy(policy, &d, NULL))
      continue; /* said where the platform or the policy is read */
    d.draw = k.seed >= 0 ? s->seeds[k.seed] : 1;
    GError *e = NULL;
    jobs_placement *pl = jobs_place_draw(s->jobfiles[k.jobs], sp->p, &d, &e);
    if (pl) {
      jobs_placement_free(pl);
      continue;
    }
    char *why = g_strdup(e->message);
    g_error_free(e);
    if (!g_hash_table_add(seen, why))
      continue;
    if (policy)
      ini_problem(&L->ini, line, "[study] jobs, policy %s: %s", policy, why);
    else
      ini_problem(&L->ini, line, "[study] jobs: %s", why);
  }
}

/* The draws of jobs file f under policy k as stored: 0 when none is at random. */
static int stored_draws(const study *s, int f, int k)
{
  return s->mix_draws ? s->mix_draws[f * MAX(s->npolicies, 1) + k] : 0;
}

int study_mix_draws(const study *s, int f, int k)
{
  return MAX(stored_draws(s, f, k), 1);
}

/* The draws of one jobs file on one platform: over its policies. */
static int file_draws(const study *s, int f)
{
  int n = 0;
  for (int k = 0; k < MAX(s->npolicies, 1); k++)
    n += study_mix_draws(s, f, k);
  return n;
}

int study_nmixes(const study *s)
{
  int n = 0;
  for (int f = 0; f < s->njobfiles; f++)
    n += file_draws(s, f);
  return n * s->nplatforms * s->nmodels;
}

void study_mix_at(const study *s, int i, study_mix_key *k)
{
  *k = (study_mix_key){ .model = i % s->nmodels, .seed = -1 };
  i /= s->nmodels;
  for (int f = 0; f < s->njobfiles; f++) {
    int per = file_draws(s, f);
    if (i >= per * s->nplatforms) {
      i -= per * s->nplatforms;
      continue;
    }
    k->jobs = f;
    k->platform = i / per;
    i %= per;
    for (int p = 0; p < MAX(s->npolicies, 1); p++) {
      int d = study_mix_draws(s, f, p);
      if (i < d) {
        k->policy = p;
        /* a mix of random draws has one per seed, even with a single seed */
        k->seed = stored_draws(s, f, p) ? i : -1;
        return;
      }
      i -= d;
    }
  }
}

const char *study_mix_policy(const study *s, const study_mix_key *k)
{
  return s->npolicies ? s->policies[k->policy] : NULL;
}

typedef struct jobs_run {
  study *s;
  const progress *prog;
  gint done;
} jobs_run;

static void mix_worker(gpointer data, gpointer user)
{
  jobs_run *st = user;
  study *s = st->s;
  int i = GPOINTER_TO_INT(data) - 1;
  study_mix_key k;
  study_mix_at(s, i, &k);
  const study_platform *sp = &s->platforms[k.platform];
  if (!sp->p) {
    s->mix_errors[i] = g_error_copy(sp->error);
  } else if (progress_check(st->prog, &s->mix_errors[i])) {
    mix_opts o;
    mix_opts_init(&o);
    o.model = s->models[k.model];
    o.opts.compute_scale = s->opts.compute_scale;
    o.opts.collectives = s->opts.collectives;
    o.policy = study_mix_policy(s, &k);
    o.draw = k.seed >= 0 ? s->seeds[k.seed] : 1;
    o.progress = &(progress){ .stop = st->prog ? st->prog->stop : NULL };
    s->mixes[i] = mix_run(s->jobfiles[k.jobs], sp->p, &o, &s->mix_errors[i]);
  }
  int done = g_atomic_int_add(&st->done, 1) + 1;
  progress_report(st->prog, "mixes", (uint64_t)done, (uint64_t)study_nmixes(s));
}

gboolean study_run_jobs(study *s, int threads, const progress *prog, GError **error)
{
  int n = study_nmixes(s);
  if (!n || s->mixes)
    return TRUE;
  s->mixes = g_new0(mix_result *, n);
  s->mix_errors = g_new0(GError *, n);
  jobs_run st = { s, prog, 0 };
  progress_report(prog, "mixes", 0, (uint64_t)n);
  GThreadPool *pool = g_thread_pool_new(mix_worker, &st, CLAMP(threads, 1, n), TRUE, error);
  if (!pool)
    return FALSE;
  for (int i = 0; i < n; i++)
    g_thread_pool_push(pool, GINT_TO_POINTER(i + 1), NULL);
  g_thread_pool_free(pool, FALSE, TRUE);
  for (int i = 0; i < n; i++)
    if (s->mix_errors[i] && s->mix_errors[i]->domain == STATUS_ERROR) {
      g_propagate_error(error, g_error_copy(s->mix_errors[i])); /* interrupted, internal */
      return FALSE;
    }
  return TRUE;
}

/* One row per job of every mix (one row with the error for a mix that
 * failed): the mix's labels, the job's, mix_job_fields, the check. */
static GPtrArray *job_rows(const study *s)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
  for (int i = 0; i < study_nmixes(s); i++) {
    study_mix_key k;
    study_mix_at(s, i, &k);
    const char *policy = study_mix_policy(s, &k);
    const mix_result *r = s->mixes[i];
    for (int j = 0; j < (r ? r->njobs : 1); j++) {
      result_row *row = row_new();
      row_add_string(row, "jobs", s->jobfiles[k.jobs]->name);
      row_add_string(row, "platform", s->platforms[k.platform].label);
      row_add_string(row, "policy", policy ? policy : "as in the file");
      row_add_string(row, "model", s->models[k.model]->name);
      /* the draw of the random policies; null (empty in CSV) when nothing is drawn */
      if (k.seed >= 0)
        row_add_int(row, "seed", s->seeds[k.seed]);
      else
        row_add_double(row, "seed", NAN);
      row_add_string(row, "error", r ? "" : s->mix_errors[i]->message);
      if (r) {
        row_add_string(row, "job", r->jobs[j].name);
        row_add_string(row, "allocation", r->jobs[j].alloc);
        row_add_string(row, "strategy", r->jobs[j].strategy);
        row_add_fields(row, mix_job_fields, mix_job_nfields, &r->jobs[j], 0);
        row_add_bool(row, "pre_post_match", r->jobs[j].mismatch < 0 && r->mismatch < 0);
      }
      g_ptr_array_add(rows, row);
    }
  }
  return rows;
}

gboolean study_write_jobs(const study *s, const char *dir, GError **error)
{
  if (!s->mixes)
    return TRUE;
  g_autoptr(GPtrArray) rows = job_rows(s);
  return study_write_rows(s, (const result_row *const *)rows->pdata, (int)rows->len, dir, "jobs",
                          "jobs", error);
}

void study_jobs_free(study *s)
{
  int n = s->mixes ? study_nmixes(s) : 0;
  for (int i = 0; i < n; i++) {
    mix_result_free(s->mixes[i]);
    g_clear_error(&s->mix_errors[i]);
  }
  g_free(s->mixes);
  g_free(s->mix_errors);
  for (int i = 0; i < s->njobfiles; i++)
    jobs_file_free(s->jobfiles[i]);
  g_free(s->jobfiles);
  g_strfreev(s->policies);
  g_free(s->mix_draws);
}
