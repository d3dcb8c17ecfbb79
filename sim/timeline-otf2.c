/* timeline-otf2.c - the timeline writer of `simulate --out-trace DIR`: the
 * simulated run as an OTF2 archive (trace_write_otf2), with the link
 * tracks --timeline-links selects as metrics (timeline.h). Written after
 * the replay, from the run's records. */
#include "sim/timeline-private.h"

/* The state until the run is over: the archive's folder. */
static void *otf2_open(const char *path, const timeline_start *start, GError **error)
{
  return g_strdup(path);
}

static void otf2_abort(void *state)
{
  g_free(state);
}

/* No tracks unless --timeline-links asks for them ("0"). */
static gboolean otf2_finish(void *state, const timeline_end *end, GError **error)
{
  const char *dir = state;
  GPtrArray *tracks = timeline_tracks(end->p, end->rec, end->links ? end->links : "0", error);
  gboolean ok = tracks != NULL;
  if (ok) {
    int nc = (int)tracks->len;
    trace_counter *c = g_new0(trace_counter, MAX(nc, 1));
    linkrec_series **series = g_new0(linkrec_series *, MAX(nc, 1));
    for (int k = 0; k < nc; k++) {
      const timeline_track *tk = g_ptr_array_index(tracks, k);
      series[k] = linkrec_series_of(end->rec, tk->links, tk->nlinks);
      c[k] = (trace_counter){ tk->name, "bytes/s", series[k]->n, series[k]->time,
                              series[k]->value };
    }
    ok = trace_write_otf2_counters(end->run, c, nc, "link throughput", dir, end->prog,
                                   error);
    for (int k = 0; k < nc; k++)
      linkrec_series_free(series[k]);
    g_free(series);
    g_free(c);
    timeline_tracks_free(tracks);
  }
  otf2_abort(state);
  return ok;
}

const timeline_writer timeline_otf2_writer = {
  .option = "out-trace",
  .short_option = 'o',
  .arg = "DIR",
  .help = "Write the simulated run as an OTF2 archive in DIR (with --timeline-links, link "
          "throughput as metrics)",
  .needs = TIMELINE_NEEDS_RUN | TIMELINE_DRAWS_TRACKS,
  .open = otf2_open,
  .finish = otf2_finish,
  .abort = otf2_abort,
};
