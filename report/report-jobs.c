/* report-jobs.c - the report's section on several jobs per run (a study's
 * `jobs` and `policies`, study/jobs.c): per jobs file, platform and
 * model, each job's slowdown under every policy side by side, then per
 * policy the interference matrix and the busiest links by job
 * (fig-jobs.c). */
#include <math.h>

#include "sim/mix.h"
#include "report/figures.h"
#include "report/report-private.h"

/* The figures of the mixes of jobs file f on platform pl under model m. */
static gboolean jobs_group(rep_page *pg, int f, int pl, int m, GError **error)
{
  const study *s = pg->s;
  int np = MAX(s->npolicies, 1), n = s->jobfiles[f]->njobs;
  const char **policies = g_new0(const char *, np);
  /* per policy and job: the mean slowdown over the draws that ran, its
   * range; the first draw's mix for the other figures */
  double *slow = g_new0(double, (size_t)np * n), *lo = g_new(double, (size_t)np * n),
         *hi = g_new(double, (size_t)np * n);
  for (int i = 0; i < np * n; i++) {
    lo[i] = INFINITY;
    hi[i] = -INFINITY;
  }
  int *draws = g_new0(int, np), *failed = g_new0(int, np), *seed = g_new0(int, np);
  const mix_result **mixes = g_new0(const mix_result *, np);
  const GError **why = g_new0(const GError *, np);
  int ran = 0, spread = 0;
  for (int i = 0; i < study_nmixes(s); i++) {
    study_mix_key k;
    study_mix_at(s, i, &k);
    if (k.jobs != f || k.platform != pl || k.model != m)
      continue;
    const char *policy = study_mix_policy(s, &k);
    int p = k.policy;
    policies[p] = policy ? policy : "as in the file";
    const mix_result *r = s->mixes[i];
    if (!r) {
      failed[p]++;
      if (!why[p])
        why[p] = s->mix_errors[i];
      continue;
    }
    if (!mixes[p]) {
      mixes[p] = r;
      seed[p] = k.seed;
    }
    draws[p]++;
    ran++;
    for (int j = 0; j < n; j++) {
      double v = r->jobs[j].slowdown;
      slow[p * n + j] += v;
      lo[p * n + j] = MIN(lo[p * n + j], v);
      hi[p * n + j] = MAX(hi[p * n + j], v);
    }
  }
  for (int p = 0; p < np; p++) {
    spread += draws[p] > 1;
    for (int j = 0; j < n; j++)
      slow[p * n + j] = draws[p] ? slow[p * n + j] / draws[p] : NAN;
  }
  const char **names = g_new(const char *, n);
  for (int j = 0; j < n; j++)
    names[j] = s->jobfiles[f]->jobs[j].name;
  const char *label = s->jobfiles[f]->name, *plat = s->platforms[pl].label;
  const char *model = s->models[m]->name;
  g_autofree char *title = g_strdup_printf("Slowdown of the jobs of %s on %s (%s)", label, plat,
                                           model);
  const char *parts[] = { label, plat, model, NULL };
  g_autofree char *stem = rep_stem(pg, "slowdown", parts);
  fig_jobs_slowdown_data sd = { title, names, n, np > 1 ? policies : NULL, np, slow,
                                spread ? lo : NULL, spread ? hi : NULL };
  /* no figure of a mix that did not run: its reason instead */
  gboolean ok = !ran || (fig_jobs_slowdown(pg->fig, stem, &sd, error) &&
                         html_figure(pg, stem, title, error));
  gboolean faster = FALSE;
  for (int p = 0; p < np; p++) {
    for (int j = 0; j < n; j++)
      faster = faster || (draws[p] && lo[p * n + j] < 1);
    for (int i = 0; mixes[p] && mixes[p]->interference && i < n * n; i++)
      faster = faster || mixes[p]->interference[i] < 1;
  }
  const char *notes[] = { ran ? mix_model_note(s->models[m]) : NULL,
                          faster ? mix_faster_note() : NULL };
  for (size_t i = 0; ok && i < G_N_ELEMENTS(notes); i++)
    if (notes[i]) {
      g_autofree char *sentence = g_strdup(notes[i]);
      sentence[0] = g_ascii_toupper(sentence[0]);
      g_string_append(pg->h, "<p class=\"note\">");
      html_text(pg->h, sentence);
      g_string_append(pg->h, ".</p>\n");
    }
  if (ok && spread) {
    g_string_append(pg->h, "<p class=\"note\">");
    html_printf(pg->h, "A random policy's bar is the mean slowdown over its draws (one per "
                "study seed: each job's SEED + seed - 1), the whisker their range; its other "
                "figures show the draw of seed %u.", s->seeds[0]);
    g_string_append(pg->h, "</p>\n");
  }
  for (int p = 0; ok && p < np; p++) {
    const mix_result *r = mixes[p];
    if (failed[p]) {
      g_string_append(pg->h, "<p class=\"bad\">");
      if (r)
        html_printf(pg->h, "%s on %s (%s), policy %s: %d of %d draws did not run: %s", label,
                    plat, model, policies[p], failed[p], failed[p] + draws[p],
                    why[p] ? why[p]->message : "no reason kept");
      else
        html_printf(pg->h, "%s on %s (%s), policy %s did not run: %s", label, plat, model,
                    policies[p] ? policies[p] : "as in the file",
                    why[p] ? why[p]->message : "no reason kept");
      g_string_append(pg->h, "</p>\n");
    }
    if (!r)
      continue;
    const char *pparts[] = { label, plat, model, policies[p], NULL };
    if (r->interference) {
      g_autofree char *t = g_strdup_printf("Interference of the jobs of %s on %s, %s (%s)", label,
                                           plat, policies[p], model);
      g_autofree char *st = rep_stem(pg, "interference", pparts);
      fig_jobs_interference_data id = { t, names, n, r->interference };
      ok = fig_jobs_interference(pg->fig, st, &id, error) && html_figure(pg, st, t, error);
    }
    const int64_t **bytes = g_new(const int64_t *, n);
    for (int j = 0; j < n; j++)
      bytes[j] = r->jobs[j].pre->link_bytes;
    g_autofree char *t = g_strdup_printf("Link bytes of %s on %s by job, %s (%s)", label, plat,
                                         policies[p], model);
    g_autofree char *st = rep_stem(pg, "jobs-links", pparts);
    fig_jobs_links_data ld = { t, r->p, names, n, bytes };
    ok = ok && fig_jobs_links(pg->fig, st, &ld, error) && html_figure(pg, st, t, error);
    g_free(bytes);
  }
  g_free(names);
  g_free(policies);
  g_free(slow);
  g_free(mixes);
  g_free(why);
  g_free(lo);
  g_free(hi);
  g_free(draws);
  g_free(failed);
  g_free(seed);
  return ok;
}

gboolean rep_html_jobs(rep_page *pg, GError **error)
{
  const study *s = pg->s;
  if (!s->mixes)
    return TRUE;
  /* open when it is all the page has (a study of jobs files only) */
  rep_section_open(pg, "jobs", "Several jobs on one network",
                   "each job's slowdown next to the others, by allocation policy",
                   s->ninputs == 0);
  g_string_append(pg->h, "<p>Every jobs file's jobs replayed at once on each platform, then "
                         "each job alone and each pair on the same nodes (sim/mix.h): a job's "
                         "slowdown is its makespan next to the others over its makespan alone; "
                         "the interference matrix the slowdown of the row's job next to the "
                         "column's job alone; the link loads each job's bytes along its routes. "
                         "Rows of every job: jobs.csv, jobs.json.</p>\n");
  gboolean ok = TRUE;
  for (int f = 0; ok && f < s->njobfiles; f++)
    for (int pl = 0; ok && pl < s->nplatforms; pl++)
      for (int m = 0; ok && m < s->nmodels; m++)
        ok = jobs_group(pg, f, pl, m, error);
  rep_section_close(pg);
  return ok;
}
