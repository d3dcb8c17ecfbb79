/* otf2-watch.c - the OTF2 reader's threads and their watchdog (see
 * otf2-read-private.h): batches of locations on reading threads of their
 * own, and this thread watching them. libotf2 may loop on a damaged event
 * file without calling back; a read in which no batch saw a record or a
 * new location for the stall time is given up: the caller gets an error
 * naming the archive, and the threads keep what they read with and into
 * (the batches, a copy of the reader with its tables, the trace). The
 * last of them to end frees it; one stuck for good holds it until the
 * process ends. Nothing is kept in a process-wide list.
 *
 * A callback tests its batch's `abandoned` first and stops, but one that
 * passed the test before it was set (or is stuck inside the sink) still
 * pushes its record into the abandoned trace or calls the sink: whatever
 * that sink call touches is the caller's, and freeing it after the error
 * races with it.
 */
#include "traces/otf2-read-private.h"

/* The reading threads, for the watchdog, and what they hold once it gave
 * up on them. */
typedef struct watch_state {
  GMutex lock;
  GCond cond;
  guint running;
  gboolean abandoned;          /* the reader returned: the last thread frees */
  reader_ctx *reader;          /* the reader's heap copy */
  evt_ctx *batches;
  guint nb;
  struct worker_task *tasks;
} watch_state;

/* The batches of one reading thread: every `workers`-th batch from `first`. */
typedef struct worker_task {
  evt_ctx *batches;
  guint first, nb, step;
  watch_state *watch;
} worker_task;

void otf2_reader_free_tables(reader_ctx *c)
{
  g_hash_table_destroy(c->strings);
  g_hash_table_destroy(c->regions);
  g_hash_table_destroy(c->groups);
  g_hash_table_destroy(c->locgroups);
  g_hash_table_destroy(c->comms);
  g_free(c->region_of);
  g_free(c->comm_of);
  g_array_free(c->locations, TRUE);
  g_array_free(c->comm_defs, TRUE);
}

static void watch_free(watch_state *ws)
{
  g_free(ws->tasks);
  g_free(ws->batches);
  g_mutex_clear(&ws->lock);
  g_cond_clear(&ws->cond);
  g_free(ws);
}

/* Everything an abandoned read held, once its last thread ended. */
static void free_abandoned(watch_state *ws)
{
  for (guint i = 0; i < ws->nb; i++)
    g_clear_error(&ws->batches[i].error);
  reader_ctx *c = ws->reader;
  trace_free(c->t);
  otf2_reader_free_tables(c);
  g_free((char *)c->path);
  g_free(c);
  watch_free(ws);
}

static gpointer run_worker(gpointer data)
{
  worker_task *w = data;
  for (guint i = w->first; i < w->nb; i += w->step) {
    otf2_read_batch(&w->batches[i]);
    if (w->batches[i].error || g_atomic_int_get(&w->batches[i].abandoned))
      break;
  }
  watch_state *ws = w->watch;
  g_mutex_lock(&ws->lock);
  gboolean last = --ws->running == 0 && ws->abandoned;
  g_cond_signal(&ws->cond);
  g_mutex_unlock(&ws->lock);
  if (last)
    free_abandoned(ws);
  return NULL;
}

/* Waits for the reading threads; FALSE when none of the batches saw a record
 * or a new location for `stall` seconds while some were still running. */
static gboolean watch_workers(watch_state *ws, const evt_ctx *b, guint nb, double stall)
{
  uint64_t last = UINT64_MAX;
  gint64 since = g_get_monotonic_time();
  g_mutex_lock(&ws->lock);
  while (ws->running > 0) {
    g_cond_wait_until(&ws->cond, &ws->lock, g_get_monotonic_time() + G_TIME_SPAN_SECOND / 4);
    uint64_t beats = 0;
    for (guint i = 0; i < nb; i++)
      beats += __atomic_load_n(&b[i].beat, __ATOMIC_RELAXED);
    gint64 now = g_get_monotonic_time();
    if (beats != last) {
      last = beats;
      since = now;
    } else if (ws->running > 0 && (double)(now - since) > stall * G_TIME_SPAN_SECOND) {
      g_mutex_unlock(&ws->lock);
      return FALSE;
    }
  }
  g_mutex_unlock(&ws->lock);
  return TRUE;
}

/* Gives the stuck threads everything they use (the reader `c` with them);
 * FALSE when they all ended meanwhile after all. */
static gboolean abandon_workers(watch_state *ws, reader_ctx *c, double stall)
{
  g_mutex_lock(&ws->lock);
  gboolean stuck = ws->running > 0;
  if (stuck) {
    g_set_error(c->error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: no record read for %g s (the OTF2 library is stuck, likely on a damaged "
                "event file), expected an intact archive", c->path, stall);
    for (guint i = 0; i < ws->nb; i++)
      g_atomic_int_set(&ws->batches[i].abandoned, 1);
    ws->abandoned = TRUE;
  }
  g_mutex_unlock(&ws->lock);
  return stuck;
}

/* Every location's definitions and events, in batches on reading threads:
 * worker w reads batches w, w + workers, ... in order, so a sink sees each
 * rank's records from one worker, in record order. `c` is on the heap;
 * *abandoned: it went to the stuck threads (the caller must not touch
 * it any more). */
static gboolean read_events(reader_ctx *c, int workers, gboolean *abandoned)
{
  guint nloc = c->locations->len, nb = (nloc + READ_BATCH - 1) / READ_BATCH;
  evt_ctx *b = g_new0(evt_ctx, MAX(nb, 1));
  guint nw = MAX(MIN(nb, (guint)workers), 1);
  for (guint i = 0; i < nb; i++)
    b[i] = (evt_ctx){ .defs = c, .t = c->t, .worker = (int)(i % nw), .first = i * READ_BATCH,
                      .n = MIN(READ_BATCH, nloc - i * READ_BATCH), .cur_rank = -1,
                      .kept = c->eztrace && !c->sink ? &c->kept : NULL };
  /* the reading runs on its threads while this one watches it: libotf2
   * may loop on a damaged file without calling back */
  watch_state *ws = g_new0(watch_state, 1);
  worker_task *w = g_new(worker_task, nw);
  g_mutex_init(&ws->lock);
  g_cond_init(&ws->cond);
  ws->running = nw;
  ws->reader = c;
  ws->batches = b;
  ws->nb = nb;
  ws->tasks = w;
  for (guint i = 0; i < nw; i++)
    w[i] = (worker_task){ b, i, nb, nw, ws };
  /* threads of their own, joined when they finish: a thread still exiting
   * after the read returns holds memory (GLib's per-thread caches) that a
   * leak check taken at that moment reports */
  GThread **th = g_new(GThread *, nw);
  for (guint i = 0; i < nw; i++)
    th[i] = g_thread_new("otf2-read", run_worker, &w[i]);
  double stall = c->sink && c->sink->stall_seconds > 0 ? c->sink->stall_seconds
                                                        : OTF2_STALL_SECONDS;
  *abandoned = !watch_workers(ws, b, nb, stall) && abandon_workers(ws, c, stall);
  if (*abandoned) {
    for (guint i = 0; i < nw; i++)
      g_thread_unref(th[i]);
    g_free(th);
    return FALSE;
  }
  for (guint i = 0; i < nw; i++)
    g_thread_join(th[i]);
  g_free(th);
  for (guint i = 0; i < nb; i++) {
    for (int k = 0; k < TRACE_NRECS; k++)
      c->stats.records[k] += b[i].stats.records[k];
    c->stats.unbalanced += b[i].stats.unbalanced;
    if (b[i].error && *c->error == NULL)
      g_propagate_error(c->error, g_steal_pointer(&b[i].error));
    g_clear_error(&b[i].error);
  }
  watch_free(ws);
  return *c->error == NULL;
}

/* read_events() on a copy of the reader on the heap: when the watchdog
 * abandons the reading threads, they keep that copy, the trace, the tables
 * and the anchor's path it points to (this reader forgets them). */
gboolean otf2_read_events_watched(reader_ctx *c, int workers)
{
  reader_ctx *h = g_memdup2(c, sizeof *c);
  gboolean abandoned = FALSE;
  gboolean ok = read_events(h, workers, &abandoned);
  if (abandoned) {
    c->abandoned = TRUE;
    c->t = NULL;
    c->strings = NULL; /* the tables stay with the threads */
    return FALSE;
  }
  *c = *h;
  g_free(h);
  return ok;
}
