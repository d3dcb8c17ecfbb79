/* cmd-simulate-jobs.c - `mapsim simulate --jobs FILE`: the jobs of a jobs
 * file replayed at once on one network (sim/mix.h), printed: per job its
 * makespan, alone, slowdown and shared link bytes, the interference matrix,
 * the pre/post check per job and for the union; --json and --csv from
 * mix_job_fields. Not for: running anything (sim/mix.c).
 */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/simulate-jobs.h"
#include "sim/link-fields.h"
#include "sim/mix.h"
#include "sim/row.h"
#include "util/json-number.h"

static void add_string(JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_string_value(b, v);
}

static void add_metrics(JsonBuilder *b, const char *name, const metrics *m)
{
  json_builder_set_member_name(b, name);
  json_builder_begin_object(b);
  cli_metrics_json(b, m);
  json_builder_end_object(b);
}

/* "links": every link a job uses, with each job's bytes on it (static
 * views, in job order) and the mix's simulated bytes and busy time. */
static void add_links(JsonBuilder *b, const mix_result *r)
{
  const platform *p = r->p;
  link_source src = { .p = p, .m = r->post, .r = r->r, .mix = r };
  json_builder_set_member_name(b, "links");
  json_builder_begin_array(b);
  for (int l = 0; l < p->topo->nlinks; l++) {
    gboolean used = FALSE;
    for (int j = 0; j < r->njobs && !used; j++)
      used = mix_link_bytes(r, j, l) > 0;
    if (!used)
      continue;
    json_builder_begin_object(b);
    link_fields_json(b, LINK_VIEW_JOBS, &src, l);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

static void print_json(const cli_common *c, const jobs_file *jf, const mix_result *r,
                       const char *model, const char *policy)
{
  JsonBuilder *b = json_builder_new();
  json_builder_begin_object(b);
  cli_provenance_json(b, c, model, jf->path, policy);
  add_string(b, "jobs_file", jf->path);
  add_string(b, "name", jf->name);
  add_string(b, "model", model);
  cli_platform_json(b, r->p);
  add_string(b, "traffic", run_traffic_name(r->with_colls));
  json_builder_set_member_name(b, "makespan_s");
  json_number_add(b, r->r->makespan_ps * 1e-12);
  json_builder_set_member_name(b, "jobs");
  json_builder_begin_array(b);
  for (int j = 0; j < r->njobs; j++) {
    const mix_job *mj = &r->jobs[j];
    json_builder_begin_object(b);
    add_string(b, "name", mj->name);
    add_string(b, "allocation", mj->alloc);
    add_string(b, "strategy", mj->strategy);
    const job_spec *js = &jf->jobs[j]; /* the mix keeps the file's order */
    add_string(b, "trace", js->trace_path ? js->trace_path : js->matrix_path);
    json_builder_set_member_name(b, "seed");
    json_builder_add_int_value(b, js->seed);
    json_builder_set_member_name(b, "first_rank");
    json_builder_add_int_value(b, mj->first);
    cli_fields_json(b, mix_job_fields, mix_job_nfields, mj, 0);
    add_metrics(b, "pre", mj->pre);
    add_metrics(b, "post", mj->post);
    json_builder_set_member_name(b, "pre_post_match");
    json_builder_add_boolean_value(b, mj->mismatch < 0);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  if (r->interference) {
    json_builder_set_member_name(b, "interference");
    json_builder_begin_array(b);
    for (int i = 0; i < r->njobs; i++) {
      json_builder_begin_array(b);
      for (int j = 0; j < r->njobs; j++)
        json_number_add(b, r->interference[i * r->njobs + j]);
      json_builder_end_array(b);
    }
    json_builder_end_array(b);
  }
  add_metrics(b, "pre", r->pre);
  add_metrics(b, "post", r->post);
  json_builder_set_member_name(b, "pre_post_match");
  json_builder_add_boolean_value(b, r->mismatch < 0);
  json_builder_set_member_name(b, "runs");
  json_builder_add_int_value(b, r->runs);
  json_builder_set_member_name(b, "wall_s");
  json_number_add(b, r->replay_seconds);
  add_links(b, r);
  json_builder_end_object(b);
  cli_print_json(json_builder_get_root(b));
  g_object_unref(b);
}

/* One CSV row per job: the mix's labels, the job's, its fields, its check. */
static void print_csv(const jobs_file *jf, const mix_result *r, const char *model)
{
  GString *o = g_string_new("jobs_file,platform,model,traffic,job,allocation,strategy");
  cli_fields_csv_header(o, NULL, mix_job_fields, mix_job_nfields, 0);
  g_string_append(o, ",pre_post_match\n");
  for (int j = 0; j < r->njobs; j++) {
    const mix_job *mj = &r->jobs[j];
    const char *cells[] = { jf->path, r->p->name, model, run_traffic_name(r->with_colls),
                            mj->name, mj->alloc, mj->strategy };
    for (size_t i = 0; i < G_N_ELEMENTS(cells); i++) {
      if (i)
        g_string_append_c(o, ',');
      cli_csv_cell(o, cells[i]);
    }
    cli_fields_csv_row(o, mix_job_fields, mix_job_nfields, mj, 0);
    g_string_append_printf(o, ",%s\n", mj->mismatch < 0 ? "true" : "false");
  }
  fputs(o->str, stdout);
  g_string_free(o, TRUE);
}

/* A text table: a header row and rows of cells, columns sized to fit,
 * the first `left` columns left-aligned. */
static void print_table(GPtrArray *rows, int ncols, int left)
{
  g_autofree int *width = g_new0(int, ncols);
  for (guint i = 0; i < rows->len; i++) {
    char **row = g_ptr_array_index(rows, i);
    for (int c = 0; c < ncols; c++)
      width[c] = MAX(width[c], (int)g_utf8_strlen(row[c], -1));
  }
  for (guint i = 0; i < rows->len; i++) {
    char **row = g_ptr_array_index(rows, i);
    for (int c = 0; c < ncols; c++) {
      int pad = width[c] - (int)g_utf8_strlen(row[c], -1);
      if (c < left)
        printf("%s%s%*s", c ? "  " : "", row[c], c + 1 < ncols ? pad : 0, "");
      else
        printf("  %*s%s", pad, "", row[c]);
    }
    printf("\n");
  }
}

static char *cell(const field *f, const void *obj)
{
  GString *s = g_string_new(NULL);
  cli_field_format(s, f, obj);
  return g_string_free(s, FALSE);
}

static const field *field_named(const field *f, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (strcmp(f[i].name, name) == 0)
      return &f[i];
  g_assert_not_reached();
}

static void print_jobs(const mix_result *r)
{
  static const char *const shown[] = { "ranks", "nodes", "start_s", "makespan_s",
                                       "alone_makespan_s", "slowdown", "shared_link_bytes" };
  int ncols = 3 + (int)G_N_ELEMENTS(shown) + 1;
  GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  char **head = g_new0(char *, ncols + 1);
  head[0] = g_strdup("job");
  head[1] = g_strdup("allocation");
  head[2] = g_strdup("strategy");
  for (size_t k = 0; k < G_N_ELEMENTS(shown); k++)
    head[3 + k] = g_strdup(shown[k]);
  head[ncols - 1] = g_strdup("pre=post");
  g_ptr_array_add(rows, head);
  for (int j = 0; j < r->njobs; j++) {
    const mix_job *mj = &r->jobs[j];
    char **row = g_new0(char *, ncols + 1);
    row[0] = g_strdup(mj->name);
    row[1] = g_strdup(mj->alloc);
    row[2] = g_strdup(mj->strategy);
    for (size_t k = 0; k < G_N_ELEMENTS(shown); k++)
      row[3 + k] = cell(field_named(mix_job_fields, mix_job_nfields, shown[k]), mj);
    row[ncols - 1] = g_strdup(mj->mismatch < 0 ? "yes" : "NO");
    g_ptr_array_add(rows, row);
  }
  print_table(rows, ncols, 3);
  g_ptr_array_unref(rows);
}

static void print_interference(const mix_result *r)
{
  int n = r->njobs;
  GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
  char **head = g_new0(char *, n + 2);
  head[0] = g_strdup("");
  for (int j = 0; j < n; j++)
    head[1 + j] = g_strdup(r->jobs[j].name);
  g_ptr_array_add(rows, head);
  for (int i = 0; i < n; i++) {
    char **row = g_new0(char *, n + 2);
    row[0] = g_strdup(r->jobs[i].name);
    for (int j = 0; j < n; j++)
      row[1 + j] = g_strdup_printf("%.4f", r->interference[i * n + j]);
    g_ptr_array_add(rows, row);
  }
  printf("\ninterference: slowdown of the row's job in a run with the column's job alone\n");
  print_table(rows, n + 1, 1);
  g_ptr_array_unref(rows);
}

/* "note: TEXT" in lines of at most 96 characters, the rest indented. */
static void print_note(const char *text)
{
  g_auto(GStrv) words = g_strsplit(text, " ", -1);
  int col = printf("note:");
  for (int i = 0; words[i]; i++) {
    int len = (int)g_utf8_strlen(words[i], -1);
    if (col + 1 + len > 96) {
      printf("\n     ");
      col = 5;
    }
    col += printf(" %s", words[i]) - (int)strlen(words[i]) + len;
  }
  printf("\n");
}

/* Is any slowdown of r (next to all, or in a pair) below 1? */
static gboolean any_faster(const mix_result *r)
{
  gboolean faster = FALSE;
  for (int j = 0; j < r->njobs; j++)
    faster = faster || r->jobs[j].slowdown < 1;
  for (int i = 0; r->interference && i < r->njobs * r->njobs; i++)
    faster = faster || r->interference[i] < 1;
  return faster;
}

static void print_human(const jobs_file *jf, const mix_result *r, const struct netmodel_ops *ops)
{
  const char *model = ops->name;
  int bad = r->mismatch >= 0;
  for (int j = 0; j < r->njobs; j++)
    bad += r->jobs[j].mismatch >= 0;
  printf("%s: %d jobs, %d ranks on %s, model %s, traffic %s\n\n", jf->name, r->njobs, r->nranks,
         r->p->name, model, run_traffic_name(r->with_colls));
  print_jobs(r);
  printf("(makespan_s: in the mix, from the job's start; alone_makespan_s: the job alone on "
         "the same\n nodes; slowdown: their ratio; shared_link_bytes: its bytes on links "
         "another job uses too)\n");
  if (r->interference)
    print_interference(r);
  g_autofree char *ms = cell(field_named(run_replay_fields, run_replay_nfields, "makespan_s"),
                             r->r);
  printf("\nmix: makespan %s s, %d runs (the mix, each job alone%s)\n", ms, r->runs,
         r->interference && r->njobs > 2 ? ", each pair" : "");
  printf("pre/post check (bytes of every link and hop_bytes, %s traffic): %s\n",
         run_traffic_name(r->with_colls),
         !bad ? "match, for the union and every job alone"
              : "MISMATCH");
  if (mix_model_note(ops))
    print_note(mix_model_note(ops));
  if (any_faster(r))
    print_note(mix_faster_note());
}

int simulate_jobs(const cli_common *c, const char *path, const char *policy, gboolean pairs)
{
  GError *e = NULL;
  platform *p = NULL;
  jobs_file *jf = NULL;
  mix_result *r = NULL;
  int status = 2;
  mix_opts o;
  mix_opts_init(&o);
  const char *bad = c->trace ? "--trace" : c->mapping ? "--mapping" : c->strategy ? "--strategy"
                  : c->alloc ? "--alloc" : NULL;
  if (bad) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s goes with a single job; with "
                "--jobs each job's trace, allocation and strategy are in the jobs file", bad);
    goto fail;
  }
  if (c->json && c->csv) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--json and --csv exclude each other; expected one of them");
    goto fail;
  }
  if (!(o.model = cli_common_model(c, "flow", &e)) || !(p = cli_common_platform(c, &e)) ||
      !(jf = jobs_load(path, &e)))
    goto fail;
  o.opts.compute_scale = c->compute_scale;
  o.opts.collectives = c->collectives;
  o.policy = policy;
  o.pairs = pairs;
  o.threads = c->threads > 0 ? c->threads : (int)g_get_num_processors();
  o.progress = cli_progress(c);
  r = mix_run(jf, p, &o, &e);
  cli_progress_end();
  if (!r)
    goto fail;
  if (c->json)
    print_json(c, jf, r, o.model->name, policy);
  else if (c->csv)
    print_csv(jf, r, o.model->name);
  else
    print_human(jf, r, o.model);
  status = 0;
  for (int j = -1; j < r->njobs && status == 0; j++) {
    const metrics *pre = j < 0 ? r->pre : r->jobs[j].pre;
    const metrics *post = j < 0 ? r->post : r->jobs[j].post;
    int l = j < 0 ? r->mismatch : r->jobs[j].mismatch;
    if (l < 0)
      continue;
    g_autofree char *name = l < pre->nlinks ? platform_link_name(r->p, l) : NULL;
    fprintf(stderr, "mapsim: pre/post check failed for %s%s: %s %" G_GINT64_FORMAT
            " bytes statically, %" G_GINT64_FORMAT " simulated\n", j < 0 ? "the union" : "job ",
            j < 0 ? "" : r->jobs[j].name, name ? name : "hop_bytes",
            name ? pre->link_bytes[l] : pre->hop_bytes, name ? post->link_bytes[l] : post->hop_bytes);
    status = 1;
  }
  goto out;
fail:
  status = cli_fail(e);
out:
  mix_result_free(r);
  jobs_file_free(jf);
  platform_free(p);
  return status;
}
