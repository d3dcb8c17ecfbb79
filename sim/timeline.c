/* timeline.c - what the timeline's writers share (see timeline.h): the
 * links that get a track, a rank's slices, and the table of writers (one
 * file each, timeline-private.h). */
#include "sim/timeline-private.h"

#include <stdlib.h>
#include <string.h>

const timeline_writer *const timeline_writers[] = {
  &timeline_otf2_writer,
  &timeline_chrome_writer,
  &timeline_events_writer,
  NULL,
};

/* ---- which links ---------------------------------------------------- */

gboolean timeline_spec_check(const char *spec, GError **error)
{
  gint64 n;
  if (spec && (strcmp(spec, "all") == 0 || strcmp(spec, "dims") == 0 ||
               g_ascii_string_to_signed(spec, 10, 0, 1 << 30, &n, NULL)))
    return TRUE;
  g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
              "--timeline-links '%s': expected a number of links (the busiest), all, or dims "
              "(one track per dimension and direction)", spec ? spec : "");
  return FALSE;
}

static timeline_track *track_new(char *name, int nlinks, const int *links)
{
  timeline_track *k = g_new0(timeline_track, 1);
  k->name = name;
  k->nlinks = nlinks;
  k->links = g_memdup2(links, sizeof(int) * (gsize)MAX(nlinks, 1));
  return k;
}

static void track_free(gpointer data)
{
  timeline_track *k = data;
  g_free(k->name);
  g_free(k->links);
  g_free(k);
}

void timeline_tracks_free(GPtrArray *tracks)
{
  if (tracks)
    g_ptr_array_unref(tracks);
}

/* Busiest first by recorded bytes, ties to the lower id. */
static int cmp_bytes(const void *a, const void *b, void *user)
{
  const linkrec *r = user;
  int x = *(const int *)a, y = *(const int *)b;
  if (r->bytes[x] != r->bytes[y])
    return r->bytes[x] > r->bytes[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* One track per link class (topo_class_name: dimension and direction on
 * regular topologies, node up/down, local, global ... on indirect ones). */
static void dimension_tracks(GPtrArray *out, const platform *p, const linkrec *rec)
{
  const topo *t = p->topo;
  int *links = g_new(int, MAX(t->nlinks, 1));
  for (int c = 0; c < t->nclasses; c++) {
    int n = 0;
    for (int l = 0; l < t->nlinks; l++)
      if (t->link_class[l] == c && rec->n[l] > 0)
        links[n++] = l;
    if (!n)
      continue;
    char label[32];
    topo_class_name(t, c, label, sizeof label);
    g_ptr_array_add(out, track_new(g_strdup_printf("%s links (%d)", label, n), n, links));
  }
  g_free(links);
}

GPtrArray *timeline_tracks(const platform *p, const linkrec *rec, const char *spec,
                           GError **error)
{
  if (!timeline_spec_check(spec, error))
    return NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func(track_free);
  if (strcmp(spec, "dims") == 0) {
    dimension_tracks(out, p, rec);
    return out;
  }
  int *used = g_new(int, MAX(rec->nlinks, 1)), n = 0;
  for (int l = 0; l < rec->nlinks; l++)
    if (rec->n[l] > 0)
      used[n++] = l;
  g_qsort_with_data(used, n, sizeof(int), cmp_bytes, (gpointer)rec);
  int keep = strcmp(spec, "all") == 0 ? n : MIN(n, atoi(spec));
  for (int i = 0; i < keep; i++)
    g_ptr_array_add(out, track_new(platform_link_name(p, used[i]), 1, &used[i]));
  g_free(used);
  return out;
}

/* ---- a rank's slices ----------------------------------------------- */

void timeline_rank_slices(const trace *t, int r, timeline_slice_fn fn, void *user)
{
  const trace_rank *tr = &t->ranks[r];
  timeline_slicer s = { 0 };
  for (int64_t i = 0; i < tr->nevents; i++)
    timeline_slicer_step(&s, &tr->events[i], tr->events[i].time, fn, user);
}
