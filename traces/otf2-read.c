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
 * says so (TRACE_ERROR_EZTRACE_SINK) before the sink sees anything.
 *
 * Locations are read in batches of READ_BATCH, each batch through its own
 * OTF2_Reader: libotf2 keeps the locations an archive has selected in a
 * list it searches linearly on every select and every reader it hands out,
 * so one reader for all locations costs O(locations^2) (x5 read time from
 * 4,096 to 32,768 ranks at equal record counts). Batches run on a
 * GThreadPool (one reader is only ever used by one thread; each batch
 * fills the event arrays of its own ranks and counts into its own
 * statistics, summed in batch order, and the first error in location
 * order is the one reported), so the result is the same whatever the
 * thread count.
 */
#include "traces/trace-private.h"

#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "traces/otf2-eztrace-private.h"
#include "util/budget.h"
#include "util/checked.h"

typedef struct {
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  uint32_t nmembers;
  uint64_t *members;
} def_group;

typedef struct {
  OTF2_LocationRef id;
  OTF2_LocationType type;
  uint64_t nevents;
  int rank;  /* world rank, -1 if not an MPI rank location */
} def_location;

typedef struct {
  const char *path;       /* anchor file */
  GError **error;
  trace *t;
  GHashTable *strings;    /* ref -> char* */
  GHashTable *regions;    /* region ref -> index+1 in t->regions, 0 = not MPI */
  GHashTable *groups;     /* ref -> def_group* (communicator groups) */
  GHashTable *locgroups;  /* ref -> def_group* of type COMM_LOCATIONS: EZTrace gives
                           * it the id of MPI_COMM_WORLD's COMM_GROUP */
  GHashTable *comms;      /* comm ref -> index+1 in t->comms */
  /* the same as flat arrays when the refs are small (they usually count
   * from 0): one load per record instead of a hash lookup */
  uint32_t *region_of, *comm_of;
  uint32_t nregion_of, ncomm_of;
  GArray *locations;      /* def_location */
  GArray *comm_defs;      /* pairs (comm ref, group ref, name ref) as uint64 triples */
  uint64_t resolution, offset, length;
  uint64_t def_chunk;     /* the anchor's definition chunk size */
  trace_stats stats;
  const otf2_sink *sink;  /* where retained records go (NULL: into t) */
  gboolean eztrace;       /* written by EZTrace (otf2-eztrace-private.h) */
  gboolean no_creator;    /* the anchor names no creator: EZTRACE_MARK decides */
  gboolean abandoned;     /* the watchdog gave up on the reading threads */
  uint64_t kept;          /* EZTrace, in memory: events budgeted so far (atomic) */
} reader_ctx;

#define COMM_CACHE 16

/* One batch of locations read by one thread with its own OTF2_Reader; the
 * reader_ctx is shared and read-only while events are read. */
typedef struct evt_ctx {
  const reader_ctx *defs;
  trace *t;
  int worker;             /* 0 .. workers-1: which reading thread reads this batch */
  guint first, n;         /* locations [first, first + n) of c->locations */
  GError *error;
  trace_stats stats;      /* records and unbalanced counts of this batch */
  /* per-location state while reading events */
  int cur_rank;
  int depth;
  uint64_t cur_location;
  uint64_t loc_nevents, loc_records; /* announced and read so far */
  uint64_t beat;                      /* records and locations seen: the watchdog reads it */
  gint abandoned;                     /* set by the watchdog: touch nothing shared any more */
  uint64_t loc_time;                  /* the last timestamp read */
  uint64_t *kept;                     /* EZTrace in memory: the shared count to budget */
  uint64_t unbudgeted;                /* events pushed and not yet added to *kept */
  /* the current rank's rank in recently used communicators (collectives) */
  uint32_t me_comm[COMM_CACHE];
  int me_rank[COMM_CACHE];
} evt_ctx;

#define READ_BATCH 256

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

static OTF2_CallbackCode evt_fail(evt_ctx *x, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static OTF2_CallbackCode evt_fail(evt_ctx *x, int code, const char *fmt, ...)
{
  if (x->error == NULL) {
    va_list ap;
    va_start(ap, fmt);
    char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(&x->error, TRACE_ERROR, code, "%s: %s", x->defs->path, msg);
    g_free(msg);
  }
  return OTF2_CALLBACK_INTERRUPT;
}

/* OTF2 reports errors through a callback; ours come as GErrors. */
OTF2_ErrorCode otf2_quiet(void *ud, const char *file, uint64_t line, const char *fn,
                          OTF2_ErrorCode code, const char *fmt, va_list va)
{
  return code;
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

/* ---- events ------------------------------------------------------------ */

/* index+1 of `ref` in a table of definitions, 0 when undefined */
static inline guint ref_index(GHashTable *h, const uint32_t *flat, uint32_t n, uint32_t ref)
{
  if (flat)
    return ref < n ? flat[ref] : 0;
  return GPOINTER_TO_UINT(g_hash_table_lookup(h, GUINT_TO_POINTER(ref)));
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

/* Events an EZTrace read adds to the shared count at a time. */
#define BUDGET_STEP 4096

/* EZTrace archives announce no usable event count: the events read so far
 * (all threads) against the memory budget. FALSE (error set) beyond it. */
static gboolean budget_events(evt_ctx *c)
{
  uint64_t total = __atomic_add_fetch(c->kept, c->unbudgeted, __ATOMIC_RELAXED);
  c->unbudgeted = 0;
  char *what = g_strdup_printf("%s: %" G_GUINT64_FORMAT " events read so far (EZTrace)",
                               c->defs->path, total);
  GError *e = NULL;
  gboolean ok = budget_check_array(what, total, sizeof(trace_event), &e);
  g_free(what);
  if (!ok && c->error == NULL)
    c->error = e;
  else
    g_clear_error(&e);
  return ok;
}

static OTF2_CallbackCode push(evt_ctx *c, OTF2_TimeStamp time, trace_event *e)
{
  /* OTF2: the clock's offset is at or before every timestamp, and a
   * location's timestamps do not go back */
  if (time < c->defs->offset || time < c->loc_time ||
      !trace_ticks_to_ps(time, c->defs->offset, c->defs->resolution, &e->time))
    return evt_fail(c, TRACE_ERROR_CONTENT, "location %" G_GUINT64_FORMAT ": timestamp %"
                    G_GUINT64_FORMAT " %s, expected the run's clock (from %" G_GUINT64_FORMAT
                    " at %" G_GUINT64_FORMAT " ticks/s, ascending)", c->cur_location,
                    (uint64_t)time, time < c->defs->offset ? "before the trace start"
                    : time < c->loc_time ? "before the location's previous one"
                    : "beyond " CHECKED_PS_LIMIT " from the trace start",
                    c->defs->offset, c->defs->resolution);
  c->loc_time = time;
  const otf2_sink *k = c->defs->sink;
  if (k)
    k->record(k->user, c->worker, c->cur_rank, e);
  else
    trace_push(c->t, c->cur_rank, e);
  if (c->kept && ++c->unbudgeted == BUDGET_STEP && !budget_events(c))
    return OTF2_CALLBACK_INTERRUPT;
  return OTF2_CALLBACK_SUCCESS;
}

/* Comm index and peer world rank; FALSE (error set) on bad references. */
static gboolean resolve(evt_ctx *c, OTF2_CommRef comm, uint32_t peer, trace_event *e)
{
  guint idx = ref_index(c->defs->comms, c->defs->comm_of, c->defs->ncomm_of, comm);
  if (idx == 0) {
    evt_fail(c, TRACE_ERROR_CONTENT, "location %" G_GUINT64_FORMAT ": communicator %u undefined, "
         "expected a defined MPI communicator", c->cur_location, comm);
    return FALSE;
  }
  e->comm = idx - 1;
  if (peer == OTF2_UNDEFINED_UINT32) {
    e->peer = -1;
    return TRUE;
  }
  e->peer = trace_comm_world_rank(c->t, e->comm, c->cur_rank, (int)peer);
  if (e->peer < 0) {
    evt_fail(c, TRACE_ERROR_CONTENT, "location %" G_GUINT64_FORMAT ": rank %u of communicator %u "
         "(size %d), expected a member rank", c->cur_location, peer, comm,
         c->t->comms[e->comm].size);
    return FALSE;
  }
  return TRUE;
}

/* Counts the record; more records than the location's definition
 * announced means a damaged file that libotf2 would read on and on. */
#define COUNT(rec)                                            \
  evt_ctx *c = ud;                                            \
  if (g_atomic_int_get(&c->abandoned))                        \
    return OTF2_CALLBACK_INTERRUPT;                           \
  c->stats.records[rec]++;                                    \
  __atomic_store_n(&c->beat, c->beat + 1, __ATOMIC_RELAXED);  \
  if (++c->loc_records > c->loc_nevents)                      \
    return too_many_records(c);                               \
  if (c->cur_rank < 0)                                        \
    return OTF2_CALLBACK_SUCCESS

static OTF2_CallbackCode too_many_records(evt_ctx *c)
{
  return evt_fail(c, TRACE_ERROR_FORMAT, "location %" G_GUINT64_FORMAT ": more than the %"
                  G_GUINT64_FORMAT " events its definition announces, expected an intact event "
                  "file", c->cur_location, c->loc_nevents);
}

#define EVT_ARGS OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud, \
                 OTF2_AttributeList *attrs

static OTF2_CallbackCode enter_leave(evt_ctx *c, OTF2_TimeStamp time, OTF2_RegionRef region,
                                     int kind)
{
  guint idx = ref_index(c->defs->regions, c->defs->region_of, c->defs->nregion_of, region);
  if (idx == 0)
    return OTF2_CALLBACK_SUCCESS;  /* not an MPI region */
  if (kind == TRACE_LEAVE && c->depth == 0) {
    c->stats.unbalanced++;  /* Leave whose Enter was not recorded */
    return OTF2_CALLBACK_SUCCESS;
  }
  c->depth += kind == TRACE_ENTER ? 1 : -1;
  trace_event e = { .kind = (uint8_t)kind, .region = idx - 1 };
  return push(c, time, &e);
}

static OTF2_CallbackCode on_enter(EVT_ARGS, OTF2_RegionRef region)
{
  COUNT(REC_ENTER);
  return enter_leave(c, time, region, TRACE_ENTER);
}

static OTF2_CallbackCode on_leave(EVT_ARGS, OTF2_RegionRef region)
{
  COUNT(REC_LEAVE);
  return enter_leave(c, time, region, TRACE_LEAVE);
}

static OTF2_CallbackCode p2p(evt_ctx *c, OTF2_TimeStamp time, int kind, uint32_t peer,
                             OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t req)
{
  trace_event e = { .kind = (uint8_t)kind, .tag = tag, .bytes = (int64_t)len, .request = req };
  if (!resolve(c, comm, peer, &e))
    return OTF2_CALLBACK_INTERRUPT;
  return push(c, time, &e);
}

static OTF2_CallbackCode request(evt_ctx *c, OTF2_TimeStamp time, int kind, uint64_t req)
{
  trace_event e = { .kind = (uint8_t)kind, .request = req, .peer = -1 };
  return push(c, time, &e);
}

static OTF2_CallbackCode on_send(EVT_ARGS, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
  COUNT(REC_MPI_SEND);
  return p2p(c, time, TRACE_SEND, to, comm, tag, len, 0);
}

static OTF2_CallbackCode on_isend(EVT_ARGS, uint32_t to, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
  COUNT(REC_MPI_ISEND);
  return p2p(c, time, TRACE_ISEND, to, comm, tag, len, req);
}

static OTF2_CallbackCode on_recv(EVT_ARGS, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
  COUNT(REC_MPI_RECV);
  return p2p(c, time, TRACE_RECV, from, comm, tag, len, 0);
}

static OTF2_CallbackCode on_irecv(EVT_ARGS, uint32_t from, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
  COUNT(REC_MPI_IRECV);
  return p2p(c, time, TRACE_IRECV, from, comm, tag, len, req);
}

static OTF2_CallbackCode on_isend_complete(EVT_ARGS, uint64_t req)
{
  COUNT(REC_MPI_ISEND_COMPLETE);
  return request(c, time, TRACE_ISEND_COMPLETE, req);
}

static OTF2_CallbackCode on_irecv_request(EVT_ARGS, uint64_t req)
{
  COUNT(REC_MPI_IRECV_REQUEST);
  return request(c, time, TRACE_IRECV_REQUEST, req);
}

static OTF2_CallbackCode on_request_test(EVT_ARGS, uint64_t req)
{
  COUNT(REC_MPI_REQUEST_TEST);
  return request(c, time, TRACE_REQUEST_TEST, req);
}

static OTF2_CallbackCode on_request_cancelled(EVT_ARGS, uint64_t req)
{
  COUNT(REC_MPI_REQUEST_CANCELLED);
  return request(c, time, TRACE_REQUEST_CANCELLED, req);
}

static OTF2_CallbackCode on_nbcoll_request(EVT_ARGS, uint64_t req)
{
  COUNT(REC_NB_COLLECTIVE_REQUEST);
  return request(c, time, TRACE_NBCOLL_REQUEST, req);
}

static OTF2_CallbackCode on_coll_begin(EVT_ARGS)
{
  COUNT(REC_MPI_COLLECTIVE_BEGIN);
  trace_event e = { .kind = TRACE_COLL_BEGIN, .peer = -1 };
  return push(c, time, &e);
}

/* The current rank's rank in communicator `comm` (an index of c->t). */
static int my_comm_rank(evt_ctx *c, uint32_t comm)
{
  int slot = (int)(comm % COMM_CACHE);
  if (c->me_comm[slot] != comm) {
    c->me_comm[slot] = comm;
    c->me_rank[slot] = trace_comm_rank(c->t, comm, c->cur_rank);
  }
  return c->me_rank[slot];
}

/* Collective records carry Score-P's byte counts; the trace holds the
 * rank's contribution (collectives.h). */
static OTF2_CallbackCode coll_end(evt_ctx *c, OTF2_TimeStamp time, int kind,
                                  OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                  uint64_t sent, uint64_t recvd, uint64_t req)
{
  int64_t s = (int64_t)MIN(sent, (uint64_t)INT64_MAX), r = (int64_t)MIN(recvd, (uint64_t)INT64_MAX);
  trace_event e = { .kind = (uint8_t)kind, .op = op < COLL_NOPS ? op : COLL_OTHER,
                    .bytes = s, .bytes_recv = r, .request = req };
  if (!resolve(c, comm, root, &e))
    return OTF2_CALLBACK_INTERRUPT;
  const trace_comm *tc = &c->t->comms[e.comm];
  int me = my_comm_rank(c, e.comm);
  if (e.op < COLL_NOPS && me >= 0)
    e.bytes = coll_contrib_of_record((coll_op)e.op, tc->self ? 1 : tc->size, me,
                                     e.peer == c->cur_rank, s, r);
  return push(c, time, &e);
}

static OTF2_CallbackCode on_coll_end(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent, uint64_t recvd)
{
  COUNT(REC_MPI_COLLECTIVE_END);
  return coll_end(c, time, TRACE_COLL_END, op, comm, root, sent, recvd, 0);
}

static OTF2_CallbackCode on_nbcoll_complete(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                            uint32_t root, uint64_t sent, uint64_t recvd,
                                            uint64_t req)
{
  COUNT(REC_NB_COLLECTIVE_COMPLETE);
  return coll_end(c, time, TRACE_NBCOLL_COMPLETE, op, comm, root, sent, recvd, req);
}

static OTF2_CallbackCode on_onoff(EVT_ARGS, OTF2_MeasurementMode mode)
{
  evt_ctx *c = ud;
  c->stats.records[REC_MEASUREMENT_ON_OFF]++;
  return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
  OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_request_cancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbcoll_request);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbcoll_complete);
  OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_onoff);
  return cb;
}

/* "<dir>/traces/<location>.<ext>" of the anchor "<dir>/traces.otf2". */
static char *loc_path(const char *anchor, uint64_t loc, const char *ext)
{
  char *base = g_strndup(anchor, strlen(anchor) - strlen(".otf2"));
  char *p = g_strdup_printf("%s/%" G_GUINT64_FORMAT ".%s", base, loc, ext);
  g_free(base);
  return p;
}

static char *evt_path(const char *anchor, uint64_t loc)
{
  return loc_path(anchor, loc, "evt");
}

static char *def_path(const char *anchor, uint64_t loc)
{
  return loc_path(anchor, loc, "def");
}

static gboolean read_location(OTF2_Reader *rd, evt_ctx *c, const def_location *l,
                              OTF2_EvtReaderCallbacks *cb)
{
  if (g_atomic_int_get(&c->abandoned))
    return FALSE;
  c->cur_rank = l->rank;
  c->cur_location = l->id;
  c->loc_nevents = l->nevents;
  c->loc_records = 0;
  __atomic_store_n(&c->beat, c->beat + 1, __ATOMIC_RELAXED);
  c->loc_time = 0;
  c->depth = 0;
  memset(c->me_comm, 0xff, sizeof c->me_comm); /* no communicator */
  const otf2_sink *k = c->defs->sink;
  if (l->rank >= 0 && k)
    k->begin(k->user, c->worker, l->rank, l->nevents);
  else if (l->rank >= 0 && !c->defs->eztrace)
    trace_reserve(c->t, l->rank, (int64_t)l->nevents); /* EZTrace's is a bound: grown */
  OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, l->id);
  if (er == NULL) {
    char *p = evt_path(c->defs->path, l->id);
    g_set_error(&c->error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: cannot open, expected the "
                "event file of location %" G_GUINT64_FORMAT, p, l->id);
    g_free(p);
    return FALSE;
  }
  OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, c);
  uint64_t n = 0;
  OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalEvents(rd, er, &n);
  OTF2_Reader_CloseEvtReader(rd, er);
  if (st != OTF2_SUCCESS && c->error == NULL) {
    char *p = evt_path(c->defs->path, l->id);
    g_set_error(&c->error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: %s after %" G_GUINT64_FORMAT " events, expected %" G_GUINT64_FORMAT
                " complete event records", p, OTF2_Error_GetDescription(st), n, l->nevents);
    g_free(p);
  }
  if (l->rank >= 0)
    c->stats.unbalanced += c->depth;
  if (l->rank >= 0 && k && c->error == NULL && !g_atomic_int_get(&c->abandoned))
    k->end(k->user, c->worker, l->rank);
  if (c->kept && c->unbudgeted > 0 && c->error == NULL)
    budget_events(c);
  return c->error == NULL;
}

/* One batch: its own reader, the local definitions of its locations
 * (mapping tables, clock offsets), then their events, location by
 * location. Runs on a reading thread. */
static void read_batch(evt_ctx *c)
{
  const GArray *locs = c->defs->locations;
  /* libotf2's error callback belongs to the calling thread */
  OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(otf2_quiet, NULL);
  OTF2_Reader *rd = OTF2_Reader_Open(c->defs->path);
  if (rd == NULL || OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS) {
    evt_fail(c, TRACE_ERROR_FORMAT, "cannot open, expected an OTF2 anchor file");
    if (rd)
      OTF2_Reader_Close(rd);
    OTF2_Error_RegisterCallback(old, NULL);
    return;
  }
  for (guint i = c->first; i < c->first + c->n; i++)
    OTF2_Reader_SelectLocation(rd, g_array_index(locs, def_location, i).id);
  gboolean have_defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
  for (guint i = c->first; i < c->first + c->n && have_defs; i++) {
    uint64_t id = g_array_index(locs, def_location, i).id;
    /* local definitions are optional; libotf2 keeps the buffer of a
     * definition reader whose file is missing (about 140 KiB each) */
    char *def = def_path(c->defs->path, id);
    gboolean exists = g_file_test(def, G_FILE_TEST_EXISTS);
    g_free(def);
    OTF2_DefReader *dr = exists ? OTF2_Reader_GetDefReader(rd, id) : NULL;
    if (dr == NULL)
      continue;
    uint64_t n = 0;
    OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
    OTF2_Reader_CloseDefReader(rd, dr);
    if (st != OTF2_SUCCESS) {
      char *p = def_path(c->defs->path, id);
      g_set_error(&c->error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: %s, expected the local "
                  "definitions of location %" G_GUINT64_FORMAT, p, OTF2_Error_GetDescription(st),
                  id);
      g_free(p);
      break;
    }
  }
  if (have_defs)
    OTF2_Reader_CloseDefFiles(rd);
  OTF2_Reader_OpenEvtFiles(rd);
  OTF2_EvtReaderCallbacks *cb = event_callbacks();
  for (guint i = c->first; i < c->first + c->n && c->error == NULL; i++) {
    const def_location *l = &g_array_index(locs, def_location, i);
    if (l->nevents > 0)
      read_location(rd, c, l, cb);
  }
  OTF2_EvtReaderCallbacks_Delete(cb);
  OTF2_Reader_CloseEvtFiles(rd);
  OTF2_Reader_Close(rd);
  OTF2_Error_RegisterCallback(old, NULL);
}

/* What abandoned reading threads still hold: kept reachable for the life
 * of the process (they may still run; nothing frees it). */
static GPtrArray *abandoned;
static GMutex abandoned_lock;

static void abandon(gpointer p)
{
  g_mutex_lock(&abandoned_lock);
  if (!abandoned)
    abandoned = g_ptr_array_new();
  g_ptr_array_add(abandoned, p);
  g_mutex_unlock(&abandoned_lock);
}

/* The reading threads still running, for the watchdog. */
typedef struct watch_state {
  GMutex lock;
  GCond cond;
  guint running;
} watch_state;

/* The batches of one reading thread: every `workers`-th batch from `first`. */
typedef struct worker_task {
  evt_ctx *batches;
  guint first, nb, step;
  watch_state *watch;
} worker_task;

static gpointer run_worker(gpointer data)
{
  worker_task *w = data;
  for (guint i = w->first; i < w->nb; i += w->step) {
    read_batch(&w->batches[i]);
    if (w->batches[i].error || g_atomic_int_get(&w->batches[i].abandoned))
      break;
  }
  g_mutex_lock(&w->watch->lock);
  w->watch->running--;
  g_cond_signal(&w->watch->cond);
  g_mutex_unlock(&w->watch->lock);
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

/* Every location's definitions and events, in batches on reading threads:
 * worker w reads batches w, w + workers, ... in order, so a sink sees each
 * rank's records from one worker, in record order. */
static gboolean read_events(reader_ctx *c, int workers)
{
  c->region_of = flatten(c->regions, &c->nregion_of);
  c->comm_of = flatten(c->comms, &c->ncomm_of);
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
  ws->running = nw;
  worker_task *w = g_new(worker_task, nw);
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
  if (!watch_workers(ws, b, nb, stall)) {
    /* the stuck threads keep b, w, ws and the reader's tables (otf2_scan
     * leaves them too): left to them. Each callback tests `abandoned`
     * first and stops, but one that passed the test before it was set
     * (or is stuck inside the sink) still pushes its record into the
     * abandoned trace or calls the sink: whatever that sink call touches
     * is the caller's, and freeing it after this error races with it. */
    for (guint i = 0; i < nb; i++)
      g_atomic_int_set(&b[i].abandoned, 1);
    abandon(b);
    abandon(w);
    abandon(ws);
    g_set_error(c->error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: no record read for %g s (the OTF2 library is stuck, likely on a damaged "
                "event file), expected an intact archive", c->path, stall);
    c->abandoned = TRUE;
    for (guint i = 0; i < nw; i++)
      g_thread_unref(th[i]);
    g_free(th);
    return FALSE;
  }
  for (guint i = 0; i < nw; i++)
    g_thread_join(th[i]);
  g_free(th);
  g_free(ws);
  for (guint i = 0; i < nb; i++) {
    for (int k = 0; k < TRACE_NRECS; k++)
      c->stats.records[k] += b[i].stats.records[k];
    c->stats.unbalanced += b[i].stats.unbalanced;
    if (b[i].error && *c->error == NULL)
      g_propagate_error(c->error, g_steal_pointer(&b[i].error));
    g_clear_error(&b[i].error);
  }
  g_free(w);
  g_free(b);
  return *c->error == NULL;
}

/* ---- entry point ------------------------------------------------------- */

/* read_events() on a copy of the reader on the heap: when the watchdog
 * abandons the reading threads, they keep that copy, the trace and the
 * tables it points to (this reader forgets them), so whatever they still
 * do touches memory nobody frees. */
static gboolean read_events_watched(reader_ctx *c, int workers)
{
  reader_ctx *h = g_memdup2(c, sizeof *c);
  gboolean ok = read_events(h, workers);
  if (h->abandoned) {
    abandon(h);
    abandon((char *)c->path);
    c->abandoned = TRUE;
    c->t = NULL;
    c->strings = NULL; /* the tables stay with the threads */
    return FALSE;
  }
  *c = *h;
  g_free(h);
  return ok;
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
    char *evt = evt_path(c->path, l->id), *def = def_path(c->path, l->id);
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


/* Checks the anchor's leading bytes "\3BOTF2\0" (OTF2 1.x .. 3.x) before
 * OTF2 sees the file: OTF2_Reader_Open leaks on files that are not OTF2. */
static gboolean has_magic(const char *anchor)
{
  static const char magic[7] = { 3, 'B', 'O', 'T', 'F', '2', 0 };
  char head[7] = { 0 };
  FILE *f = fopen(anchor, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f)
    fclose(f);
  return n == sizeof head && memcmp(head, magic, sizeof magic) == 0;
}

/* The only *.otf2 file in `dir`, or NULL (none, or several). */
static char *only_anchor_in(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  char *found = NULL;
  int n = 0;
  while (d && (name = g_dir_read_name(d)))
    if (g_str_has_suffix(name, ".otf2") && n++ == 0)
      found = g_build_filename(dir, name, NULL);
  if (d)
    g_dir_close(d);
  if (n != 1)
    g_clear_pointer(&found, g_free);
  return found;
}

char *otf2_find_anchor(const char *path, GError **error)
{
  char *anchor = NULL;
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
    anchor = g_build_filename(path, "traces.otf2", NULL);
    char *only = g_file_test(anchor, G_FILE_TEST_EXISTS) ? NULL : only_anchor_in(path);
    if (only) {
      g_free(anchor);
      anchor = only;
    }
  } else {
    anchor = g_strdup(path);
  }
  if (!g_file_test(anchor, G_FILE_TEST_IS_REGULAR)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                "%s: %s, expected an OTF2 archive (anchor .otf2 file or its directory)", anchor,
                g_file_test(anchor, G_FILE_TEST_EXISTS) ? "not a regular file" : "no such file");
    g_clear_pointer(&anchor, g_free);
  } else if (!g_str_has_suffix(anchor, ".otf2")) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: not an OTF2 anchor file, expected a file named *.otf2", anchor);
    g_clear_pointer(&anchor, g_free);
  } else if (!has_magic(anchor)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: no OTF2 signature, expected an OTF2 anchor file", anchor);
    g_clear_pointer(&anchor, g_free);
  }
  return anchor;
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
    char *evt = evt_path(c->path, l->id);
    GStatBuf st;
    if (g_stat(evt, &st) == 0 && S_ISREG(st.st_mode))
      l->nevents = (uint64_t)st.st_size / 2;
    g_free(evt);
  }
}

trace *otf2_scan(const char *path, const otf2_sink *sink, int workers, GError **error)
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
  if (OTF2_Reader_GetCreator(rd, &creator) == OTF2_SUCCESS && creator && *creator)
    c.eztrace = eztrace_creator(creator);
  else
    c.no_creator = TRUE;
  free(creator);
  if (!read_global_defs(rd, &c))
    goto out;
  if (c.eztrace && sink) {
    fail(&c, TRACE_ERROR_EZTRACE_SINK, "an EZTrace archive cannot be streamed, expected it "
         "read whole (trace_read_otf2)");
    goto out;
  }
  if (c.eztrace)
    eztrace_bound_events(&c);
  trace *scratch = c.t;
  c.t = NULL;
  gboolean ok = build_world(&c);
  if (c.t) {
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
      !read_events_watched(&c, workers))
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
  if (c.strings) {
    g_hash_table_destroy(c.strings);
    g_hash_table_destroy(c.regions);
    g_hash_table_destroy(c.groups);
    g_hash_table_destroy(c.locgroups);
    g_hash_table_destroy(c.comms);
    g_free(c.region_of);
    g_free(c.comm_of);
    g_array_free(c.locations, TRUE);
    g_array_free(c.comm_defs, TRUE);
  }
  if (!c.abandoned)
    g_free(anchor);
  return t;
}

trace *trace_read_otf2(const char *path, GError **error)
{
  return otf2_scan(path, NULL, MAX(g_get_num_processors(), 1), error);
}
