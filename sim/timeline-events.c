/* timeline-events.c - the timeline writer of `simulate --link-events
 * FILE`: when every message entered and left each link of its route, as
 * CSV (timeline.h), from the events the links' recording kept. Written
 * after the replay. */
#include "sim/timeline-private.h"

#include <inttypes.h>
#include <string.h>

#include "sim/link-fields.h"
#include "util/output.h"

/* The state until the run is over: the file's path. */
static void *events_open(const char *path, const timeline_start *start, GError **error)
{
  return g_strdup(path);
}

static void events_abort(void *state)
{
  g_free(state);
}

static int cmp_event_time(gconstpointer a, gconstpointer b, gpointer user)
{
  const linkrec_event *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

static gboolean write_events(const char *path, const platform *p, const linkrec *rec,
                             const progress *prog, GError **error)
{
  output *o = output_open(path, prog, error);
  if (!o)
    return FALSE;
  FILE *f = output_stream(o);
  guint n = rec->events ? rec->events->len : 0;
  linkrec_event *e = g_new(linkrec_event, MAX(n, 1));
  if (n)
    memcpy(e, rec->events->data, n * sizeof *e);
  /* stable: events of one picosecond stay in the order they happened */
  g_qsort_with_data(e, (gint)n, sizeof *e, cmp_event_time, NULL);
  /* the link's columns (link-fields.h), then the event's */
  const link_field_id cols[] = { LINK_F_LINK, LINK_F_FROM, LINK_F_TO };
  link_source src = { .p = p };
  GString *line = g_string_new(NULL);
  for (size_t c = 0; c < G_N_ELEMENTS(cols); c++)
    g_string_append_printf(line, "%s,", link_fields[cols[c]].name);
  fprintf(f, "%stime_ps,event\n", line->str);
  for (guint i = 0; i < n && !output_stopped(o); i++) {
    g_string_truncate(line, 0);
    for (size_t c = 0; c < G_N_ELEMENTS(cols); c++) {
      link_field_text(line, cols[c], &src, e[i].link);
      g_string_append_c(line, ',');
    }
    fprintf(f, "%s%" PRId64 ",%s\n", line->str, e[i].t, e[i].start ? "start" : "end");
  }
  g_string_free(line, TRUE);
  g_free(e);
  return output_commit(o, error);
}

static gboolean events_finish(void *state, const timeline_end *end, GError **error)
{
  gboolean ok = write_events(state, end->p, end->rec, end->prog, error);
  events_abort(state);
  return ok;
}

const timeline_writer timeline_events_writer = {
  .option = "link-events",
  .arg = "FILE",
  .help = "Write when each message entered and left each link of its route, as CSV (link, from, "
          "to, time_ps, event start or end): the instants SimGrid's link_energy plugin samples",
  .needs = TIMELINE_NEEDS_EVENTS,
  .open = events_open,
  .finish = events_finish,
  .abort = events_abort,
};
