/* study.c - the factorial grid of runs, cell keys, running cells on a
 * thread pool and handing their results to the store, the results files
 * (korndoerfer2021 Section 7, Table 5). A cell's row is built by
 * study/cell-row.c, the store's logs and lock are study/store.c, the study file
 * is read in study/file.c, batch scripts are written in study/slurm.c; the
 * grid's coordinates and content hashes are study/grid.c's, the files
 * written study/output.c's. */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "study/rank.h"
#include "study/study-private.h"
#include "study/cell-row.h"
#include "util/budget.h"
#include "util/output.h"
#include "util/status.h"
#include "util/utf8.h"

#ifndef MAPSIM_VERSION
#define MAPSIM_VERSION "unknown"
#endif

char *study_describe(const study *s)
{
  int traces = 0;
  for (int i = 0; i < s->ninputs; i++)
    traces += s->inputs[i].t != NULL;
  GString *d = g_string_new(NULL);
  g_string_printf(d, "%d cell%s: %d input%s (%d trace%s), %d platform%s, %d strateg%s",
                  s->ncells, s->ncells == 1 ? "" : "s", s->ninputs, s->ninputs == 1 ? "" : "s",
                  traces, traces == 1 ? "" : "s", s->nplatforms, s->nplatforms == 1 ? "" : "s",
                  s->nstrategies, s->nstrategies == 1 ? "y" : "ies");
  if (traces) {
    g_string_append_printf(d, ", model%s ", s->nmodels > 1 ? "s" : "");
    for (int i = 0; i < s->nmodels; i++)
      g_string_append_printf(d, "%s%s", i ? ", " : "", s->models[i]->name);
  }
  g_string_append_printf(d, ", seed%s ", s->nseeds > 1 ? "s" : "");
  for (int i = 0; i < s->nseeds; i++)
    g_string_append_printf(d, "%s%u", i ? ", " : "", s->seeds[i]);
  /* what the seeds multiply: every strategy, a deterministic one too */
  if (s->nseeds > 1 && s->ncells)
    g_string_append(d, " (each strategy runs once per seed; a deterministic one repeats its "
                       "result)");
  if (s->njobfiles)
    g_string_append_printf(d, "; %d mix%s of several jobs (%d jobs file%s, %d polic%s)",
                           study_nmixes(s), study_nmixes(s) == 1 ? "" : "es", s->njobfiles,
                           s->njobfiles == 1 ? "" : "s", MAX(s->npolicies, 1),
                           MAX(s->npolicies, 1) == 1 ? "y" : "ies");
  gboolean draws = FALSE;
  for (int f = 0; f < s->njobfiles; f++)
    for (int k = 0; k < MAX(s->npolicies, 1); k++)
      draws = draws || study_mix_draws(s, f, k) > 1;
  if (draws)
    g_string_append(d, ", random placements drawn once per seed");
  return g_string_free(d, FALSE);
}

/* ---- cells ---- */

static void update_str(GChecksum *sum, const char *tag, const char *v)
{
  g_checksum_update(sum, (const guchar *)tag, (gssize)strlen(tag) + 1);
  if (v)
    g_checksum_update(sum, (const guchar *)v, (gssize)strlen(v));
  g_checksum_update(sum, (const guchar *)"\n", 1);
}

/* Everything a cell's result depends on. */
static void cell_key(const study *s, study_cell *c)
{
  const study_input *in = &s->inputs[c->input];
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  update_str(sum, "mapsim", MAPSIM_VERSION " study-cell 2");
  for (int i = 0; i < metrics_nfields; i++)
    update_str(sum, "static", metrics_fields[i].name);
  for (int i = 0; i < run_replay_nfields; i++)
    update_str(sum, "simulated", run_replay_fields[i].name);
  update_str(sum, "input", in->hash);
  update_str(sum, "kind", study_kind_name(in->kinds[c->kind]));
  update_str(sum, "platform", s->platforms[c->platform].hash);
  const char *pl = s->strategies[c->strategy].pipeline;
  update_str(sum, "strategy", pl ? pl : "identity");
  char seed[16];
  g_snprintf(seed, sizeof seed, "%u", s->seeds[c->seed]);
  update_str(sum, "seed", seed);
  if (c->model >= 0) {
    char scale[40];
    g_ascii_formatd(scale, sizeof scale, "%.17g", s->opts.compute_scale);
    update_str(sum, "model", s->models[c->model]->name);
    update_str(sum, "compute-scale", scale);
    update_str(sum, "collectives", s->opts.collectives ? s->opts.collectives : "auto");
  }
  study_digest(sum, c->key);
  g_checksum_free(sum);
}

static void escape_name(char **name)
{
  char *e = utf8_escape(*name);
  g_free(*name);
  *name = e;
}

/* Labels and the name reach CSV, JSON, HTML and the terminal: file names
 * that are not UTF-8 are shown escaped. */
static void escape_names(study *s)
{
  escape_name(&s->name);
  for (int i = 0; i < s->ninputs; i++)
    escape_name(&s->inputs[i].label);
  for (int i = 0; i < s->nplatforms; i++)
    escape_name(&s->platforms[i].label);
  for (int i = 0; i < s->nstrategies; i++)
    escape_name(&s->strategies[i].label);
}

gboolean study_make_cells(study *s, GError **error)
{
  escape_names(s);
  if (!study_check_grid(s, s->nplatforms, s->nstrategies, s->nseeds, error))
    return FALSE;
  int n = 0;
  study_walk w;
  for (study_walk_start(&w, s, "ikpsmd", NULL); study_walk_next(&w);)
    n++;
  s->ncells = n;
  s->cells = g_new0(study_cell, MAX(n, 1));
  int k = 0;
  for (study_walk_start(&w, s, "ikpsmd", NULL); study_walk_next(&w);) {
    const int *a = w.at;
    study_cell *c = &s->cells[k++];
    *c = (study_cell){ .input = a[STUDY_DIM_INPUT], .kind = a[STUDY_DIM_KIND],
                       .platform = a[STUDY_DIM_PLATFORM], .strategy = a[STUDY_DIM_STRATEGY],
                       .model = s->inputs[a[STUDY_DIM_INPUT]].t ? a[STUDY_DIM_MODEL] : -1,
                       .seed = a[STUDY_DIM_SEED] };
    cell_key(s, c);
  }
  return TRUE;
}

/* ---- the store (the logs themselves: study/store.c) ---- */

/* Gives the cells of `slice` that have no row yet a copy of the stored
 * row of their key, with their own labels; returns how many cells are
 * still without one. */
static int take_stored(study *s, GHashTable *stored, const study_slice *slice)
{
  int missing = 0;
  for (int i = 0; i < s->ncells; i++) {
    study_cell *c = &s->cells[i];
    if (!study_in_slice(slice, i) || c->row)
      continue;
    const result_row *r = g_hash_table_lookup(stored, c->key);
    if (!r) {
      missing++;
      continue;
    }
    c->row = row_copy(r);
    study_row_relabel(study_cols, study_ncols, s, c, c->row);
    c->stored = TRUE;
    const char *err = row_get_string(c->row, "error");
    if (err)
      c->error = g_error_new_literal(STUDY_ERROR, STUDY_ERROR_FILE, err);
  }
  return missing;
}

/* An error of the run, not of the cell: it is not stored, so the cell
 * runs again next time (stopped, a bug, the memory budget of this run, a
 * program or thread that could not be started). */
static gboolean run_condition(const GError *e)
{
  return e && (e->domain == STATUS_ERROR || e->domain == G_SPAWN_ERROR ||
               e->domain == G_THREAD_ERROR ||
               g_error_matches(e, BUDGET_ERROR, BUDGET_ERROR_MEMORY));
}

static gboolean write_all(int fd, const char *data, gsize len)
{
  for (gsize done = 0; done < len;) {
    ssize_t w = write(fd, data + done, len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return FALSE;
    done += (gsize)w;
  }
  return TRUE;
}

/* ---- running ---- */

/* Cells run on `threads` workers; one log writer appends their records
 * and syncs them, all records that wait at that moment with one sync, so
 * that computing never waits for the disk. A cell counts as done once its
 * record is on disk. */
typedef struct run_state {
  study *s;
  GAsyncQueue *queue;        /* finished cells for the writer; the state itself ends it */
  GThread *writer;
  int log;                   /* the log's descriptor */
  char *log_path;
  GError *store_error;       /* the first failure to store a cell */
} run_state;

static run_result *cell_run(const study *s, const study_cell *c, linkrec *links, GError **error)
{
  const study_input *in = &s->inputs[c->input];
  const study_platform *sp = &s->platforms[c->platform];
  if (!sp->p) {
    g_propagate_error(error, g_error_copy(sp->error));
    return NULL;
  }
  run_inputs ri = { .p = sp->p, .g = in->g, .g_collectives = in->g_collectives, .t = in->t,
                    .coords = in->coords, .coord_dims = in->coord_dims };
  if (in->kinds[c->kind] == STUDY_KIND_COUNT)
    ri.map_g = in->g_count;
  run_spec spec;
  run_spec_init(&spec);
  spec.strategy = s->strategies[c->strategy].pipeline;
  spec.seed = s->seeds[c->seed];
  spec.model = c->model >= 0 ? s->models[c->model] : NULL;
  spec.opts = s->opts;
  /* a replay stops with the study; its progress is the cell count */
  progress stop_only = { .stop = s->prog ? s->prog->stop : NULL };
  spec.opts.progress = &stop_only;
  spec.opts.record_times = links != NULL;
  spec.opts.links = links;
  return run_cell(&ri, &spec, error);
}

run_result *study_cell_run(const study *s, const study_cell *c, GError **error)
{
  return cell_run(s, c, NULL, error);
}

run_result *study_cell_rerun(const study *s, const study_cell *c, linkrec *links,
                             GError **error)
{
  return cell_run(s, c, links, error);
}

/* Runs a cell; FALSE when it was interrupted or hit an internal error:
 * then it has no result to keep and runs again next time. */
static gboolean run_one_cell(study *s, study_cell *c)
{
  GError *e = NULL;
  run_result *res = study_cell_run(s, c, &e);
  if (e && e->domain == STATUS_ERROR) {
    c->error = e;
    run_result_free(res);
    return FALSE;
  }
  if (res && res->r && res->r->stuck)
    g_set_error(&e, REPLAY_ERROR, REPLAY_ERROR_INPUT, "%s", res->r->stuck_summary);
  c->row = study_row_build(study_cols, study_ncols, s, c, res, e);
  c->error = e;
  c->ran = TRUE;
  if (s->keep_results)
    c->res = res;
  else
    run_result_free(res);
  return TRUE;
}

static void cell_done(study *s)
{
  int done = g_atomic_int_add(&s->done, 1) + 1;
  progress_report(s->prog, "cells", (uint64_t)done, (uint64_t)s->to_run);
}

static gpointer log_writer(gpointer data)
{
  run_state *st = data;
  GPtrArray *batch = g_ptr_array_new();
  GString *text = g_string_new(NULL);
  for (gboolean more = TRUE; more;) {
    gpointer item = g_async_queue_pop(st->queue);
    g_ptr_array_set_size(batch, 0);
    g_string_truncate(text, 0);
    for (; item; item = g_async_queue_try_pop(st->queue)) {
      if (item == st) {
        more = FALSE;
        break;
      }
      g_ptr_array_add(batch, item);
      g_autofree char *rec = study_record(item);
      g_string_append(text, rec);
    }
    if (batch->len && !st->store_error &&
        (!write_all(st->log, text->str, text->len) || fdatasync(st->log) != 0))
      g_set_error(&st->store_error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot write: %s",
                  st->log_path, g_strerror(errno));
    for (guint i = 0; i < batch->len; i++)
      cell_done(st->s);
  }
  g_string_free(text, TRUE);
  g_ptr_array_free(batch, TRUE);
  return NULL;
}

static void worker(gpointer data, gpointer user)
{
  run_state *st = user;
  study *s = st->s;
  study_cell *c = data;
  if (!progress_check(s->prog, &c->error) || !run_one_cell(s, c))
    return;
  if (st->queue && !run_condition(c->error))
    g_async_queue_push(st->queue, c);
  else
    cell_done(s);
}

gboolean study_parse_slice(const char *text, study_slice *out, GError **error)
{
  g_auto(GStrv) kn = g_strsplit(text, "/", 2);
  guint64 k, n;
  if (!kn[0] || !kn[1] ||
      !g_ascii_string_to_unsigned(kn[1], 10, 1, STUDY_MAX_SLICES, &n, NULL) ||
      !g_ascii_string_to_unsigned(kn[0], 10, 1, n, &k, NULL)) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--slice %s: expected K/N with 1 <= K <= N <= %d, e.g. 2/8", text,
                STUDY_MAX_SLICES);
    return FALSE;
  }
  out->k = (int)k;
  out->n = (int)n;
  return TRUE;
}

gboolean study_in_slice(const study_slice *slice, int cell)
{
  return !slice || cell % slice->n == slice->k - 1;
}

/* Cells of one key (the same content under two labels) run once: the
 * others get a copy of its row with their own labels. */
static void copy_to_same_keys(study *s, GHashTable *first_of_key, const study_slice *slice)
{
  for (int i = 0; i < s->ncells; i++) {
    study_cell *c = &s->cells[i];
    const study_cell *f = g_hash_table_lookup(first_of_key, c->key);
    if (!study_in_slice(slice, i) || c->row || !f || f == c || !f->row)
      continue;
    c->row = row_copy(f->row);
    study_row_relabel(study_cols, study_ncols, s, c, c->row);
    c->error = f->error ? g_error_copy(f->error) : NULL;
    c->ran = f->ran;
  }
}

gboolean study_run(study *s, const study_slice *slice, int threads, const char *store,
                   gboolean fresh, const progress *prog, GError **error)
{
  if (store && !study_store_make(store, error))
    return FALSE;
  if (store && !fresh) {
    GHashTable *stored = study_store_read(s, store, error);
    if (!stored)
      return FALSE;
    take_stored(s, stored, slice);
    g_hash_table_destroy(stored);
  }
  s->prog = prog;
  s->done = 0;
  GPtrArray *todo = g_ptr_array_new();
  GHashTable *first_of_key = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; i < s->ncells; i++) {
    study_cell *c = &s->cells[i];
    if (!study_in_slice(slice, i) || c->row)
      continue;
    /* compare keeps each cell's full result: every cell runs */
    if (!s->keep_results) {
      if (g_hash_table_contains(first_of_key, c->key))
        continue;
      g_hash_table_insert(first_of_key, c->key, c);
    }
    g_ptr_array_add(todo, c);
  }
  s->to_run = (int)todo->len;
  run_state st = { .s = s, .log = -1 };
  gboolean ok = TRUE;
  if (todo->len && store) {
    st.log = study_store_open_log(store, &st.log_path, error);
    ok = st.log >= 0;
    if (ok) {
      st.queue = g_async_queue_new();
      st.writer = g_thread_new("study-log", log_writer, &st);
    }
  }
  if (ok && todo->len) {
    progress_report(prog, "cells", 0, todo->len);
    /* never more workers than cells: each worker is a thread made up front */
    GThreadPool *pool = g_thread_pool_new(worker, &st, CLAMP(threads, 1, (int)todo->len), TRUE,
                                          error);
    ok = pool != NULL;
    for (guint i = 0; ok && i < todo->len; i++)
      ok = g_thread_pool_push(pool, g_ptr_array_index(todo, i), error);
    if (pool)
      g_thread_pool_free(pool, FALSE, TRUE); /* waits for every cell */
  }
  if (st.writer) {
    g_async_queue_push(st.queue, &st); /* the end, after every record */
    g_thread_join(st.writer);
    g_async_queue_unref(st.queue);
  }
  if (st.log >= 0 && close(st.log) != 0 && !st.store_error)
    g_set_error(&st.store_error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot write: %s",
                st.log_path, g_strerror(errno));
  copy_to_same_keys(s, first_of_key, slice);
  g_hash_table_destroy(first_of_key);
  g_free(st.log_path);
  g_ptr_array_free(todo, TRUE);
  s->prog = NULL;
  if (ok && st.store_error) {
    g_propagate_error(error, st.store_error);
    return FALSE;
  }
  g_clear_error(&st.store_error);
  return ok && (slice || study_run_jobs(s, threads, prog, error));
}

int study_collect(study *s, const char *store, GError **error)
{
  GHashTable *stored = study_store_read(s, store, error);
  if (!stored)
    return -1;
  int missing = take_stored(s, stored, NULL);
  g_hash_table_destroy(stored);
  return missing;
}

/* ---- results ---- */

/* The rows of the cells of `slice` as results show them: a whole study's
 * with each cell's rank among the strategies of its group (study/rank.h;
 * null when the cell has no value to rank), a slice's without (its
 * groups are incomplete). NULL + error when a cell has no row yet. */
static GPtrArray *result_rows(const study *s, const study_slice *slice, GError **error)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
  int missing = 0, first = -1;
  for (int i = 0; i < s->ncells; i++) {
    if (!study_in_slice(slice, i))
      continue;
    if (s->cells[i].row)
      g_ptr_array_add(rows, row_copy(s->cells[i].row));
    else if (missing++ == 0)
      first = i;
  }
  if (missing) {
    const study_cell *c = &s->cells[first];
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_MISSING,
                "%d of %d cells have no result yet (the first: input %s, platform %s, strategy "
                "%s, seed %u); run the study (again) to compute them",
                missing, missing + (int)rows->len, s->inputs[c->input].label,
                s->platforms[c->platform].label, s->strategies[c->strategy].label,
                s->seeds[c->seed]);
    g_ptr_array_free(rows, TRUE);
    return NULL;
  }
  if (slice)
    return rows;
  int *ranks = g_new0(int, MAX(s->ncells, 1));
  study_cell_ranks(s, ranks);
  for (int i = 0; i < s->ncells; i++) {
    result_row *r = g_ptr_array_index(rows, i);
    row_group(r, NULL);
    if (ranks[i] > 0)
      row_add_int(r, "rank", ranks[i]);
    else
      row_add_string(r, "rank", NULL);
  }
  g_free(ranks);
  return rows;
}

gboolean study_write_results(const study *s, const study_slice *slice, const char *dir,
                             const char *stem, GError **error)
{
  GPtrArray *rows = result_rows(s, slice, error);
  if (!rows)
    return FALSE;
  gboolean ok = study_write_rows(s, (const result_row *const *)rows->pdata, (int)rows->len, dir,
                                 stem, "cells", error) &&
                (slice || study_write_jobs(s, dir, error));
  g_ptr_array_free(rows, TRUE);
  return ok;
}

/* ---- a study in code (compare) ---- */

study *study_new_grid(const trace *t, commgraph *g, const char *label,
                      const study_grid_platforms *platforms, const char *const *strategies,
                      int nstrategies, const struct netmodel_ops *model, guint32 seed,
                      const char *collectives, GError **error)
{
  gboolean with_colls = FALSE;
  if (t && !(g = run_traffic_graph(t, collectives, &with_colls, error)))
    return NULL;
  study *s = g_new0(study, 1);
  s->name = g_strdup(label);
  replay_opts_init(&s->opts);
  s->opts.collectives = g_strdup(collectives);
  s->ninputs = 1;
  s->inputs = g_new0(study_input, 1);
  s->inputs[0] = (study_input){ .label = g_strdup(label), .nkinds = 1,
                                .kinds = { STUDY_KIND_BYTES }, .t = (trace *)t, .g = g,
                                .g_collectives = with_colls };
  s->borrowed_trace = TRUE;
  if (!study_grid_add_platforms(s, platforms, error)) {
    study_free(s);
    return NULL;
  }
  s->nstrategies = nstrategies;
  s->strategies = g_new0(study_strategy, MAX(nstrategies, 1));
  for (int i = 0; i < nstrategies; i++)
    s->strategies[i] = (study_strategy){ .label = g_strdup(strategies[i]),
                                         .pipeline = g_strdup(strategies[i]) };
  s->nmodels = 1;
  s->models = g_new(const struct netmodel_ops *, 1);
  s->models[0] = model;
  s->nseeds = 1;
  s->seeds = g_new(guint32, 1);
  s->seeds[0] = seed;
  s->keep_results = TRUE;
  if (!study_make_cells(s, error)) {
    study_free(s);
    return NULL;
  }
  return s;
}

void study_free(study *s)
{
  if (!s)
    return;
  study_jobs_free(s);
  for (int i = 0; i < s->ncells; i++) {
    study_cell *c = &s->cells[i];
    row_free(c->row);
    run_result_free(c->res);
    g_clear_error(&c->error);
  }
  g_free(s->cells);
  if (s->notes)
    g_ptr_array_free(s->notes, TRUE);
  for (int i = 0; i < s->ninputs; i++) {
    study_input *in = &s->inputs[i];
    g_free(in->label);
    g_free(in->trace_path);
    g_free(in->matrix_path);
    g_free(in->counts_path);
    g_free(in->coords_path);
    if (!s->borrowed_trace)
      trace_free(in->t);
    commgraph_free(in->g);
    commgraph_free(in->g_count);
    g_free(in->coords);
  }
  g_free(s->inputs);
  for (int i = 0; i < s->nplatforms; i++)
    study_platform_clear(&s->platforms[i]);
  g_free(s->platforms);
  for (int i = 0; i < s->nstrategies; i++) {
    g_free(s->strategies[i].label);
    g_free(s->strategies[i].pipeline);
  }
  g_free(s->strategies);
  g_free(s->models);
  g_free(s->seeds);
  g_free((char *)s->opts.collectives);
  g_free(s->report.time);
  g_free(s->report.rank_static);
  g_free(s->report.links_input);
  g_free(s->name);
  g_free(s->path);
  g_free(s->text);
  g_free(s->base_dir);
  g_free(s);
}
