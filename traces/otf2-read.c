/* otf2-read.c - reads an OTF2 archive (Score-P 1.x .. 7.x, EZTrace 2.x, OTF2
 * 1.4 .. 3.0 files) into a trace with the OTF2 3.0 reader library.
 *
 * Steps: global definitions (strings, regions, locations, groups, comms,
 * clock) -> world = the MPI COMM_LOCATIONS group (by group type and
 * paradigm, never by id; its i-th member is world rank i) -> comm table
 * (COMM_GROUP members are indices into that group; COMM_SELF private per
 * rank) -> per location: local definitions first (mapping tables, clock
 * offsets; OTF2 applies them to the events), then its events with a local
 * event reader. Every location is read so that record counts compare with
 * otf2-print, but only MPI rank locations (CPU threads in the world group)
 * keep events. O(records); 48 bytes per retained event (arrays reserved
 * from the per-location event counts, trimmed at the end). EZTrace 2.x
 * archives (recognised while the global definitions are read) have their
 * event counts bounded by the files (2 bytes per record: an upper bound,
 * 8,237 for 1,066 records in tests/data/traces/eztrace-tracer_app-4, so
 * their arrays grow as records come and the memory budget is checked
 * against the records read, every BUDGET_STEP and at each location's
 * end) and, once read,
 * the receive completions EZTrace does not write approximated
 * (otf2-eztrace.c); they are never streamed through a sink: otf2_scan
 * says so (TRACE_SOURCE_READ_WHOLE) before the sink sees anything.
 *
 * Files: this one the definitions and the entry point, otf2-events.c the
 * event records of a batch of locations, otf2-watch.c the reading threads
 * and their watchdog, otf2-check.c what the files must look like before
 * libotf2 opens them.
 *
 * Locations are read in batches of READ_BATCH, each batch through its own
 * OTF2_Reader: libotf2 keeps the locations an archive has selected in a
 * list it searches linearly on every select and every reader it hands out,
 * so one reader for all locations costs O(locations^2) (x5 read time from
 * 4,096 to 32,768 ranks at equal record counts). Batches run on reading
 * threads of their own (g_thread_new, otf2-watch.c; one reader is only
 * ever used by one thread; each batch fills the event arrays of its own
 * ranks and counts into its own statistics, summed in batch order, and
 * the first error in location order is the one reported), so the result
 * is the same whatever the thread count.
 */
#include "traces/otf2-read-private.h"

#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "traces/otf2-eztrace-private.h"
#include "util/budget.h"

static void def_group_free(gpointer p)
{
  def_group *g = p;
  g_free(g->members);
  g_free(g);
}

static OTF2_CallbackCode fail(reader_ctx *c, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static OTF2_CallbackCode fail(reader_ctx *c, int code, const char *fmt, ...)
{
  if (*c->error == NULL) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(c->error, TRACE_ERROR, code, "%s: %s", c->path, msg);
    g_free(msg);
  }
  return OTF2_CALLBACK_INTERRUPT;
}


/* ---- global definitions ------------------------------------------------ */

static OTF2_CallbackCode on_clock(void *ud, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
  reader_ctx *c = ud;
  if (res == 0)
    return fail(c, TRACE_ERROR_CONTENT, "clock properties: 0 ticks per second, expected > 0");
  c->resolution = res;
  c->offset = off;
  c->length = len;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_string(void *ud, OTF2_StringRef self, const char *s)
{
  reader_ctx *c = ud;
  c->eztrace = c->eztrace || (c->no_creator && strcmp(s, EZTRACE_MARK) == 0);
  g_hash_table_insert(c->strings, GUINT_TO_POINTER(self), g_strdup(s));
  return OTF2_CALLBACK_SUCCESS;
}

/* The C name of an MPI function named as Fortran's symbol - mpi_send_,
 * mpi_send__, mpi_send, MPI_SEND, mpi_send_f08_, mpi_send_f08ts_, as
 * EZTrace names the regions of the Fortran calls it wraps (paradigm USER) -:
 * MPI_Send; NULL for any other name. C names start MPI_ followed by an
 * upper-case letter and lower case (MPI_Comm_split), which no mangling
 * keeps. */
static char *fortran_mpi_name(const char *s)
{
  gboolean lower = g_str_has_prefix(s, "mpi_");
  gboolean upper = g_str_has_prefix(s, "MPI_") && strpbrk(s, "abcdefghijklmnopqrstuvwxyz") == NULL;
  if ((!lower && !upper) || !s[4])
    return NULL;
  char *n = g_ascii_strdown(s + 4, -1);
  size_t len = strlen(n);
  while (len > 0 && n[len - 1] == '_')
    n[--len] = '\0';
  const char *suffixes[] = { "_f08ts", "_f08" };
  for (size_t i = 0; i < G_N_ELEMENTS(suffixes); i++)
    if (g_str_has_suffix(n, suffixes[i])) {
      len -= strlen(suffixes[i]);
      n[len] = '\0';
      break;
    }
  char *c = NULL;
  if (len > 0 && g_ascii_isalpha(n[0])) {
    n[0] = g_ascii_toupper(n[0]);
    c = g_strconcat("MPI_", n, NULL);
  }
  g_free(n);
  return c;
}

static OTF2_CallbackCode on_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical, OTF2_StringRef descr,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                   uint32_t end)
{
  reader_ctx *c = ud;
  const char *s = g_hash_table_lookup(c->strings, GUINT_TO_POINTER(name));
  g_autofree char *fortran = s ? fortran_mpi_name(s) : NULL;
  if (fortran)
    s = fortran;
  gboolean mpi = paradigm == OTF2_PARADIGM_MPI || (s && g_str_has_prefix(s, "MPI_"));
  if (mpi) {
    uint32_t idx = trace_add_region(c->t, s ? s : "MPI_?");
    g_hash_table_insert(c->regions, GUINT_TO_POINTER(self), GUINT_TO_POINTER(idx + 1));
  }
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t nevents,
                                     OTF2_LocationGroupRef group)
{
  reader_ctx *c = ud;
  def_location l = { self, type, nevents, -1 };
  g_array_append_val(c->locations, l);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                  OTF2_GroupType type, OTF2_Paradigm paradigm,
                                  OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
  reader_ctx *c = ud;
  def_group *g = g_new0(def_group, 1);
  g->type = type;
  g->paradigm = paradigm;
  g->nmembers = n;
  g->members = g_memdup2(members, sizeof(uint64_t) * n);
  g_hash_table_replace(type == OTF2_GROUP_TYPE_COMM_LOCATIONS ? c->locgroups : c->groups,
                       GUINT_TO_POINTER(self), g);
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                 OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
  reader_ctx *c = ud;
  uint64_t rec[3] = { self, group, name };
  g_array_append_vals(c->comm_defs, rec, 3);
  return OTF2_CALLBACK_SUCCESS;
}

static gboolean read_global_defs(OTF2_Reader *rd, reader_ctx *c)
{
  OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
  if (gdr == NULL) {
    fail(c, TRACE_ERROR_FORMAT, "no global definitions, expected an OTF2 anchor file");
    return FALSE;
  }
  OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, c);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t n = 0;
  OTF2_ErrorCode st = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
  OTF2_Reader_CloseGlobalDefReader(rd, gdr);
  if (st != OTF2_SUCCESS && *c->error == NULL)
    fail(c, TRACE_ERROR_FORMAT, "global definitions: %s, expected a complete OTF2 archive",
         OTF2_Error_GetDescription(st));
  return *c->error == NULL;
}

/* ---- world, ranks and communicators ----------------------------------- */

/* The MPI COMM_LOCATIONS group; old traces without paradigms: the only
 * COMM_LOCATIONS group of unknown paradigm. */
static def_group *find_world_group(reader_ctx *c)
{
  def_group *unknown = NULL;
  GHashTableIter it;
  gpointer v;
  g_hash_table_iter_init(&it, c->locgroups);
  while (g_hash_table_iter_next(&it, NULL, &v)) {
    def_group *g = v;
    if (g->paradigm == OTF2_PARADIGM_MPI)
      return g;
    if (g->paradigm == OTF2_PARADIGM_UNKNOWN)
      unknown = g;
  }
  return unknown;
}

static gboolean build_ranks(reader_ctx *c, def_group *world)
{
  GHashTable *loc_index = g_hash_table_new(g_int64_hash, g_int64_equal);
  for (guint i = 0; i < c->locations->len; i++) {
    def_location *l = &g_array_index(c->locations, def_location, i);
    g_hash_table_insert(loc_index, &l->id, l);
  }
  gboolean ok = TRUE;
  for (uint32_t r = 0; r < world->nmembers; r++) {
    def_location *l = g_hash_table_lookup(loc_index, &world->members[r]);
    if (l == NULL || l->type != OTF2_LOCATION_TYPE_CPU_THREAD) {
      fail(c, TRACE_ERROR_CONTENT,
           "MPI group member %u: location %" G_GUINT64_FORMAT " %s, expected a CPU thread",
           r, world->members[r], l ? "is not a CPU thread" : "is not defined");
      ok = FALSE;
      break;
    }
    l->rank = (int)r;
  }
  g_hash_table_destroy(loc_index);
  return ok;
}

static void add_comm(reader_ctx *c, uint64_t ref, uint64_t group, uint64_t name, int nranks)
{
  def_group *g = g_hash_table_lookup(c->groups, GUINT_TO_POINTER(group));
  const char *s = g_hash_table_lookup(c->strings, GUINT_TO_POINTER(name));
  uint32_t idx;
  if (g && g->type == OTF2_GROUP_TYPE_COMM_SELF) {
    idx = trace_add_comm(c->t, s, 1, NULL);
    c->t->comms[idx].self = TRUE;
  } else if (g && g->type == OTF2_GROUP_TYPE_COMM_GROUP &&
             (g->paradigm == OTF2_PARADIGM_MPI || g->paradigm == OTF2_PARADIGM_UNKNOWN)) {
    int *m = g_new(int, MAX(g->nmembers, 1));
    gboolean identity = g->nmembers == (uint32_t)nranks;
    for (uint32_t i = 0; i < g->nmembers; i++) {
      m[i] = g->members[i] < (uint64_t)nranks ? (int)g->members[i] : -1;
      identity = identity && m[i] == (int)i;
    }
    idx = trace_add_comm(c->t, s, (int)g->nmembers, m);
    g_free(m);
    if (identity && c->t->world == UINT32_MAX)
      c->t->world = idx;
  } else {
    idx = trace_add_comm(c->t, s, 0, NULL);  /* not MPI: no members */
  }
  g_hash_table_insert(c->comms, GUINT_TO_POINTER(ref), GUINT_TO_POINTER(idx + 1));
}

static gboolean build_world(reader_ctx *c)
{
  def_group *world = find_world_group(c);
  if (world == NULL || world->nmembers == 0)
    return fail(c, TRACE_ERROR_CONTENT,
                "no MPI ranks, expected an MPI trace (a COMM_LOCATIONS group of paradigm MPI)"),
           FALSE;
  c->t = trace_alloc((int)world->nmembers);
  c->t->world = UINT32_MAX;
  c->t->timer_resolution = c->resolution;
  c->t->start_ticks = c->offset;
  if (!build_ranks(c, world))
    return FALSE;
  return TRUE;
}

static gboolean build_comms(reader_ctx *c)
{
  for (guint i = 0; i + 2 < c->comm_defs->len; i += 3) {
    uint64_t *r = &g_array_index(c->comm_defs, uint64_t, i);
    add_comm(c, r[0], r[1], r[2], c->t->nranks);
  }
  if (c->t->world == UINT32_MAX)
    return fail(c, TRACE_ERROR_CONTENT,
                "no MPI_COMM_WORLD, expected an MPI COMM_GROUP of all %d ranks", c->t->nranks),
           FALSE;
  return TRUE;
}

/* A flat copy of a ref -> index+1 table when its refs are below 2^20. */
static uint32_t *flatten(GHashTable *h, uint32_t *n)
{
  GHashTableIter it;
  gpointer k, v;
  uint32_t max = 0;
  g_hash_table_iter_init(&it, h);
  while (g_hash_table_iter_next(&it, &k, &v))
    max = MAX(max, GPOINTER_TO_UINT(k));
  if (max >= (1u << 20))
    return NULL;
  uint32_t *flat = g_new0(uint32_t, max + 1);
  g_hash_table_iter_init(&it, h);
  while (g_hash_table_iter_next(&it, &k, &v))
    flat[GPOINTER_TO_UINT(k)] = GPOINTER_TO_UINT(v);
  *n = max + 1;
  return flat;
}


/* ---- entry point ------------------------------------------------------- */

/* The events, with the definition tables flattened for the records. */
static gboolean read_events(reader_ctx *c, int workers)
{
  c->region_of = flatten(c->regions, &c->nregion_of);
  c->comm_of = flatten(c->comms, &c->ncomm_of);
  return otf2_read_events_watched(c, workers);
}

/* Before libotf2 opens them: every location's files (otf2_check_location)
 * and, when the trace is built in memory, its events against the memory
 * budget (EZTrace: its counts are bounds, the events are budgeted as they
 * are read instead). */
static gboolean check_locations(reader_ctx *c)
{
  uint64_t kept = 0;
  for (guint i = 0; i < c->locations->len && *c->error == NULL; i++) {
    const def_location *l = &g_array_index(c->locations, def_location, i);
    char *evt = otf2_evt_path(c->path, l->id), *def = otf2_def_path(c->path, l->id);
    otf2_check_location(evt, def, l->nevents, c->def_chunk, c->error);
    g_free(evt);
    g_free(def);
    if (l->rank >= 0)
      kept += l->nevents;
  }
  if (*c->error == NULL && !c->sink && !c->eztrace) {
    char *what = g_strdup_printf("%s: %" G_GUINT64_FORMAT " events", c->path, kept);
    budget_check_array(what, kept, sizeof(trace_event), c->error);
    g_free(what);
  }
  return *c->error == NULL;
}


static void finish(reader_ctx *c)
{
  trace *t = c->t;
  t->stats = c->stats;
  t->stats.locations = (int)c->locations->len;
  int64_t dur = 0;
  if (c->length && !trace_ticks_to_ps(c->offset + c->length, c->offset, c->resolution, &dur))
    dur = INT64_MAX; /* a clock length beyond the events: the events decide */
  for (int r = 0; r < t->nranks; r++)
    if (t->ranks[r].nevents > 0)
      dur = MAX(dur, t->ranks[r].events[t->ranks[r].nevents - 1].time);
  t->duration_ps = dur;
  if (!c->sink)
    trace_shrink(t);
}

/* EZTrace announces 2 events for every location whatever its file holds:
 * the file's size bounds them instead (2 bytes per record at least, the
 * rule of otf2_check_location), for the too-many-records guard. A location
 * without an event file keeps the announced 2: EZTrace writes a file for
 * every location it defines, so otf2_check_location reports the missing
 * file rather than the reader taking the rank as one without records. */
static void eztrace_bound_events(reader_ctx *c)
{
  for (guint i = 0; i < c->locations->len; i++) {
    def_location *l = &g_array_index(c->locations, def_location, i);
    char *evt = otf2_evt_path(c->path, l->id);
    GStatBuf st;
    if (g_stat(evt, &st) == 0 && S_ISREG(st.st_mode))
      l->nevents = (uint64_t)st.st_size / 2;
    g_free(evt);
  }
}

trace *otf2_scan(const char *path, const trace_sink *sink, int workers, GError **error)
{
  GError *local = NULL;
  reader_ctx c = { .error = &local, .resolution = 1, .sink = sink };
  OTF2_Reader *rd = NULL;
  OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(otf2_quiet, NULL);
  char *anchor = otf2_find_anchor(path, &local);
  if (anchor == NULL || !otf2_check_anchor(anchor, &c.def_chunk, &local))
    goto out;
  c.path = anchor;
  c.strings = g_hash_table_new_full(NULL, NULL, NULL, g_free);
  c.regions = g_hash_table_new(NULL, NULL);
  c.groups = g_hash_table_new_full(NULL, NULL, NULL, def_group_free);
  c.locgroups = g_hash_table_new_full(NULL, NULL, NULL, def_group_free);
  c.comms = g_hash_table_new(NULL, NULL);
  c.locations = g_array_new(FALSE, FALSE, sizeof(def_location));
  c.comm_defs = g_array_new(FALSE, FALSE, sizeof(uint64_t));
  /* regions are added to a scratch trace until the world size is known */
  c.t = trace_alloc(1);
  rd = OTF2_Reader_Open(anchor);
  if (rd == NULL || OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS) {
    fail(&c, TRACE_ERROR_FORMAT, "cannot open, expected an OTF2 anchor file");
    goto out;
  }
  char *creator = NULL;
  if (OTF2_Reader_GetCreator(rd, &creator) == OTF2_SUCCESS && creator && *creator) {
    c.eztrace = eztrace_creator(creator);
    c.creator = g_strdup(creator);
  } else {
    c.no_creator = TRUE;
  }
  free(creator);
  if (!read_global_defs(rd, &c))
    goto out;
  if (c.eztrace && sink) {
    fail(&c, TRACE_SOURCE_READ_WHOLE, "an EZTrace archive cannot be streamed, expected it "
         "read whole (trace_read_otf2)");
    goto out;
  }
  if (c.eztrace)
    eztrace_bound_events(&c);
  trace *scratch = c.t;
  c.t = NULL;
  gboolean ok = build_world(&c);
  if (c.t) {
    c.t->creator = c.eztrace && !c.creator ? g_strdup("EZTrace") : g_steal_pointer(&c.creator);
    c.t->regions = scratch->regions;
    c.t->nregions = scratch->nregions;
    scratch->regions = NULL;
    scratch->nregions = 0;
  }
  trace_free(scratch);
  OTF2_Reader_Close(rd);
  rd = NULL;
  if (!ok || !build_comms(&c) || !check_locations(&c) ||
      (sink && sink->defs && !sink->defs(sink->user, c.t, &local)) ||
      !read_events(&c, workers))
    goto out;
  finish(&c);
  if (c.eztrace)
    eztrace_complete_irecvs(c.t, anchor);
out:
  if (rd)
    OTF2_Reader_Close(rd);
  OTF2_Error_RegisterCallback(old, NULL);
  trace *t = c.t;
  if (local) {
    g_clear_pointer(&t, trace_free);
    g_propagate_error(error, local);
  }
  if (c.strings)
    otf2_reader_free_tables(&c);
  if (!c.abandoned)
    g_free(anchor);
  g_free(c.creator);
  return t;
}

trace *trace_read_otf2(const char *path, GError **error)
{
  return otf2_scan(path, NULL, MAX(g_get_num_processors(), 1), error);
}

