/* archive.c - the OTF2 archive: opened by every rank at MPI_Init, closed
 * collectively at MPI_Finalize.
 *
 * Every rank writes its own location (traces/<rank>.evt and .def) through
 * OTF2's MPI collective callbacks (OTF2_MPI_Collectives.h over a private
 * duplicate of MPI_COMM_WORLD, PMPI calls only); rank 0 writes the global
 * definitions after the communicators are unified. Definitions are
 * Score-P-like: system tree machine -> node (host name) -> "MPI Rank r"
 * process -> "Master thread" location r; a COMM_LOCATIONS group of the MPI
 * locations in world rank order; a COMM_GROUP (members = world ranks) or
 * COMM_SELF group per communicator; MPI regions; clock properties with the
 * global offset and length in rank 0's clock after the offsets are applied.
 *
 * Output: $MAPSIM_TRACE_DIR, default ./mapsim-trace-<date>_<time>_<pid>;
 * when it exists, NAME.1, NAME.2, ... (the first that does not), said in
 * one line, or with MAPSIM_TRACE_EXISTING=error the program is stopped. The archive is written to a hidden sibling
 * directory and renamed at the end of MPI_Finalize: a run that dies leaves
 * no half-written archive under the final name. Any failure prints one
 * line "mapsim-trace: ..." on stderr and the program runs on untraced.
 */
#include "traces/tracer/tracer.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define OTF2_MPI_USE_PMPI
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#include <otf2/OTF2_MPI_Collectives.h>
#pragma GCC diagnostic pop

tr_state tr;

static const struct {
  const char *name;
  OTF2_RegionRole role;
} regions[TR_NREGIONS] = {
#define TR_REGION_ROW(fn, r) [TR_##fn] = { #fn, OTF2_REGION_ROLE_##r },
  TR_REGIONS(TR_REGION_ROW)
#undef TR_REGION_ROW
};

gboolean tr_fail(const char *what, OTF2_ErrorCode code)
{
  fprintf(stderr, "mapsim-trace: rank %d: %s: %s\n", tr.rank, what,
          OTF2_Error_GetDescription(code));
  return FALSE;
}

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc)
{
  return tr_clock();
}

static const OTF2_FlushCallbacks flush_callbacks = {
  .otf2_pre_flush = pre_flush,
  .otf2_post_flush = post_flush,
};

/* ---- start ------------------------------------------------------------- */

static char *default_dir(void)
{
  char stamp[32];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  return g_strdup_printf("mapsim-trace-%s_%ld", stamp, (long)getpid());
}

/* A directory name that does not exist yet: `dir` itself, else dir.1,
 * dir.2, ... */
static char *unused_name(const char *dir)
{
  char *name = g_strdup(dir);
  for (int k = 1; g_file_test(name, G_FILE_TEST_EXISTS) && k < 1000000; k++) {
    g_free(name);
    name = g_strdup_printf("%s.%d", dir, k);
  }
  return name;
}

/* Rank 0: the final and the temporary directory; FALSE + message if the
 * final one exists and MAPSIM_TRACE_EXISTING=error asks for an error
 * (*stop set), or its parent cannot be made. An existing directory is
 * otherwise never reused: the archive goes to a new name, said in one
 * line. */
static gboolean choose_dirs(char **dir, char **tmp, gboolean *stop)
{
  const char *env = g_getenv("MAPSIM_TRACE_DIR");
  const char *existing = g_getenv("MAPSIM_TRACE_EXISTING");
  *dir = env && *env ? g_strdup(env) : default_dir();
  gboolean ok = TRUE;
  if (g_file_test(*dir, G_FILE_TEST_EXISTS)) {
    if (existing && strcmp(existing, "error") == 0) {
      fprintf(stderr, "mapsim-trace: %s: exists, expected a new directory (MAPSIM_TRACE_EXISTING="
              "error); stopping the program\n", *dir);
      *stop = TRUE;
      ok = FALSE;
    } else {
      char *fresh = unused_name(*dir);
      fprintf(stderr, "mapsim-trace: %s exists: the archive goes to %s (MAPSIM_TRACE_EXISTING="
              "error stops the program instead)\n", *dir, fresh);
      g_free(*dir);
      *dir = fresh;
    }
  }
  char *parent = g_path_get_dirname(*dir), *base = g_path_get_basename(*dir);
  *tmp = g_strdup_printf("%s/.%s.tmp-%ld", parent, base, (long)getpid());
  if (ok && g_mkdir_with_parents(parent, 0755) != 0) {
    fprintf(stderr, "mapsim-trace: %s: %s, expected a writable directory; tracing off\n", parent,
            g_strerror(errno));
    ok = FALSE;
  }
  g_free(parent);
  g_free(base);
  return ok;
}

/* Rank 0's string to everyone (collective on tr.comm). */
static char *bcast_string(const char *s)
{
  int n = tr.rank == 0 ? (int)strlen(s) + 1 : 0;
  PMPI_Bcast(&n, 1, MPI_INT, 0, tr.comm);
  char *out = g_malloc(n);
  if (tr.rank == 0)
    memcpy(out, s, n);
  PMPI_Bcast(out, n, MPI_CHAR, 0, tr.comm);
  return out;
}

static void clock_anchor(void)
{
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  tr.mono0 = tr_clock();
  tr.realtime0 = (uint64_t)rt.tv_sec * TR_TICKS_PER_SECOND + (uint64_t)rt.tv_nsec;
}

static gboolean all_agree(gboolean ok)
{
  int mine = ok, all = 0;
  PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, tr.comm);
  return all != 0;
}

static gboolean open_archive(void)
{
  tr.archive = OTF2_Archive_Open(tr.tmp, "traces", OTF2_FILEMODE_WRITE,
                                 OTF2_CHUNK_SIZE_EVENTS_DEFAULT * 4,
                                 OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
                                 OTF2_COMPRESSION_NONE);
  if (tr.archive == NULL)
    return FALSE;
  OTF2_ErrorCode st = OTF2_Archive_SetFlushCallbacks(tr.archive, &flush_callbacks, NULL);
  if (st == OTF2_SUCCESS)
    st = OTF2_MPI_Archive_SetCollectiveCallbacks(tr.archive, tr.comm, MPI_COMM_NULL);
  if (st == OTF2_SUCCESS)
    st = OTF2_Archive_SetCreator(tr.archive, "mapsim-trace");
  if (st == OTF2_SUCCESS)
    st = OTF2_Archive_OpenEvtFiles(tr.archive);
  if (st == OTF2_SUCCESS) {
    tr.evt = OTF2_Archive_GetEvtWriter(tr.archive, (OTF2_LocationRef)tr.rank);
    st = tr.evt ? OTF2_SUCCESS : OTF2_ERROR_PROCESSED_WITH_FAULTS;
  }
  if (st != OTF2_SUCCESS)
    fprintf(stderr, "mapsim-trace: rank %d: %s: cannot open the OTF2 archive: %s\n", tr.rank,
            tr.tmp, OTF2_Error_GetDescription(st));
  return st == OTF2_SUCCESS;
}

void tr_start(void)
{
  tr.started = TRUE;
  PMPI_Comm_rank(MPI_COMM_WORLD, &tr.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &tr.size);
  tr.thread = pthread_self();
  PMPI_Comm_dup(MPI_COMM_WORLD, &tr.comm);
  PMPI_Comm_group(MPI_COMM_WORLD, &tr.world_group);
  clock_anchor();
  char *dir = NULL, *tmp = NULL;
  gboolean stop = FALSE;
  gboolean ok = tr.rank != 0 || choose_dirs(&dir, &tmp, &stop);
  if (stop)
    PMPI_Abort(MPI_COMM_WORLD, 2);
  if (all_agree(ok)) {
    tr.dir = bcast_string(dir);
    tr.tmp = bcast_string(tmp);
    ok = all_agree(open_archive());
  } else {
    ok = FALSE;
  }
  g_free(dir);
  g_free(tmp);
  if (!ok) {
    if (tr.archive)
      OTF2_Archive_Close(tr.archive);
    tr.archive = NULL;
    PMPI_Group_free(&tr.world_group);
    PMPI_Comm_free(&tr.comm);
    return;
  }
  tr_comms_init();
  tr_requests_init();
  tr_clock_sync(0);
  tr.on = TRUE;
}

/* ---- finish ------------------------------------------------------------ */

typedef struct {
  uint64_t events;
  uint64_t first, last;  /* global clock */
  char host[MPI_MAX_PROCESSOR_NAME];
} rank_info;

static gboolean write_local_defs(const uint64_t *map, uint32_t ncomms)
{
  OTF2_ErrorCode st = OTF2_Archive_OpenDefFiles(tr.archive);
  OTF2_DefWriter *dw = st == OTF2_SUCCESS ? OTF2_Archive_GetDefWriter(tr.archive, tr.rank) : NULL;
  if (dw) {
    OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(ncomms, map, false);
    OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_COMM, m);
    OTF2_IdMap_Free(m);
    for (int i = 0; i < 2; i++)
      OTF2_DefWriter_WriteClockOffset(dw, tr.sync_time[i], tr.sync_offset[i], tr.sync_stddev[i]);
    st = OTF2_Archive_CloseDefWriter(tr.archive, dw);
  }
  OTF2_ErrorCode st2 = OTF2_Archive_CloseDefFiles(tr.archive);
  if (st != OTF2_SUCCESS || st2 != OTF2_SUCCESS || dw == NULL)
    return tr_fail("local definitions", st != OTF2_SUCCESS ? st : st2);
  return TRUE;
}

typedef struct {
  OTF2_GlobalDefWriter *w;
  OTF2_StringRef next;
} strings;

static OTF2_StringRef str(strings *s, const char *text)
{
  OTF2_GlobalDefWriter_WriteString(s->w, s->next, text);
  return s->next++;
}

static void write_system_tree(strings *s, const rank_info *info)
{
  OTF2_GlobalDefWriter *w = s->w;
  OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, str(s, "Linux"), str(s, "machine"),
                                           OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_StringRef node_class = str(s, "node"), thread = str(s, "Master thread");
  GHashTable *nodes = g_hash_table_new(g_str_hash, g_str_equal);  /* host -> node id */
  for (int r = 0; r < tr.size; r++) {
    const char *host = info[r].host;
    gpointer id;
    if (!g_hash_table_lookup_extended(nodes, host, NULL, &id)) {
      id = GUINT_TO_POINTER(g_hash_table_size(nodes) + 1);
      g_hash_table_insert(nodes, (gpointer)host, id);
      OTF2_GlobalDefWriter_WriteSystemTreeNode(w, GPOINTER_TO_UINT(id), str(s, host), node_class, 0);
    }
    char *name = g_strdup_printf("MPI Rank %d", r);
    OTF2_GlobalDefWriter_WriteLocationGroup(w, (OTF2_LocationGroupRef)r, str(s, name),
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS, GPOINTER_TO_UINT(id),
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    g_free(name);
    OTF2_GlobalDefWriter_WriteLocation(w, (OTF2_LocationRef)r, thread, OTF2_LOCATION_TYPE_CPU_THREAD,
                                       info[r].events, (OTF2_LocationGroupRef)r);
  }
  g_hash_table_destroy(nodes);
}

static void write_comms(strings *s, GPtrArray *defs)
{
  uint64_t *members = g_new(uint64_t, tr.size);
  for (int r = 0; r < tr.size; r++)
    members[r] = (uint64_t)r;  /* location r = world rank r */
  OTF2_GlobalDefWriter_WriteGroup(s->w, 0, str(s, ""), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                  OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)tr.size,
                                  members);
  for (guint k = 0; k < defs->len; k++) {
    const tr_comm *c = defs->pdata[k];
    uint32_t n = c->self ? 0 : (uint32_t)c->size;
    for (uint32_t i = 0; i < n; i++)
      members[i] = (uint64_t)c->members[i];
    OTF2_GlobalDefWriter_WriteGroup(s->w, k + 1, str(s, ""),
                                    c->self ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, members);
    OTF2_GlobalDefWriter_WriteComm(s->w, k, str(s, c->name), k + 1,
                                   c->parent_global == TR_NO_COMM ? OTF2_UNDEFINED_COMM
                                                                  : c->parent_global,
                                   OTF2_COMM_FLAG_NONE);
  }
  g_free(members);
}

static gboolean write_global_defs(const rank_info *info, GPtrArray *defs)
{
  OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(tr.archive);
  if (w == NULL)
    return tr_fail("global definitions", OTF2_ERROR_PROCESSED_WITH_FAULTS);
  uint64_t first = UINT64_MAX, last = 0;
  for (int r = 0; r < tr.size; r++) {
    first = MIN(first, info[r].first);
    last = MAX(last, info[r].last);
  }
  OTF2_GlobalDefWriter_WriteClockProperties(w, TR_TICKS_PER_SECOND, first, last - first,
                                            tr.realtime0 + (first - tr.mono0));
  strings s = { w, 0 };
  OTF2_StringRef mpi = str(&s, "MPI");
  OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS);
  OTF2_StringRef empty = str(&s, "");
  for (int r = 0; r < TR_NREGIONS; r++) {
    OTF2_StringRef name = str(&s, regions[r].name);
    OTF2_GlobalDefWriter_WriteRegion(w, (OTF2_RegionRef)r, name, name, empty, regions[r].role,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, mpi, 0, 0);
  }
  write_system_tree(&s, info);
  write_comms(&s, defs);
  return TRUE;
}

static void gather_info(rank_info *all, uint64_t events)
{
  rank_info mine = { .events = events, .first = tr_clock_global(tr.first),
                     .last = tr_clock_global(tr.last) };
  int len = 0;
  PMPI_Get_processor_name(mine.host, &len);
  PMPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, tr.comm);
}

static void report(const rank_info *info, gboolean ok)
{
  int64_t unknown = 0;
  PMPI_Reduce(&tr.unknown_comm_ops, &unknown, 1, MPI_INT64_T, MPI_SUM, 0, tr.comm);
  if (tr.rank != 0)
    return;
  if (unknown > 0)
    fprintf(stderr, "mapsim-trace: %" G_GINT64_FORMAT " operations on intercommunicators or "
            "communicators created before tracing were recorded as Enter/Leave only\n", unknown);
  if (!ok) {
    fprintf(stderr, "mapsim-trace: %s: incomplete archive left in %s\n", tr.dir, tr.tmp);
    return;
  }
  if (g_rename(tr.tmp, tr.dir) != 0) {
    fprintf(stderr, "mapsim-trace: %s: %s, the archive stays in %s\n", tr.dir, g_strerror(errno),
            tr.tmp);
    return;
  }
  uint64_t events = 0;
  for (int r = 0; r < tr.size; r++)
    events += info[r].events;
  fprintf(stderr, "mapsim-trace: wrote %s/traces.otf2 (%d ranks, %" G_GUINT64_FORMAT " events)\n",
          tr.dir, tr.size, events);
}

void tr_finish(void)
{
  tr_enter(TR_MPI_Finalize);
  tr_clock_sync(1);
  tr_leave(TR_MPI_Finalize, tr_clock());
  uint64_t events = 0;
  OTF2_EvtWriter_GetNumberOfEvents(tr.evt, &events);
  OTF2_ErrorCode st = OTF2_Archive_CloseEvtWriter(tr.archive, tr.evt);
  OTF2_ErrorCode st2 = OTF2_Archive_CloseEvtFiles(tr.archive);
  gboolean ok = st == OTF2_SUCCESS && st2 == OTF2_SUCCESS;
  if (!ok)
    tr_fail("events", st != OTF2_SUCCESS ? st : st2);

  /* every collective step runs even after a failure: the others wait in it */
  uint32_t ncomms = tr.comm_list->len;
  uint64_t *map = g_new(uint64_t, MAX(ncomms, 1));
  GPtrArray *defs = g_ptr_array_new_with_free_func(tr_comm_free);
  tr_comms_unify(map, defs);
  ok = write_local_defs(map, ncomms) && ok;
  rank_info *info = tr.rank == 0 ? g_new0(rank_info, tr.size) : NULL;
  gather_info(info, events);
  if (tr.rank == 0)
    ok = write_global_defs(info, defs) && ok;
  st = OTF2_Archive_Close(tr.archive);
  if (st != OTF2_SUCCESS)
    ok = tr_fail("closing the archive", st);
  report(info, all_agree(ok));

  g_ptr_array_unref(defs);
  g_free(map);
  g_free(info);
  tr_comms_free();
  tr_requests_free();
  PMPI_Group_free(&tr.world_group);
  PMPI_Comm_free(&tr.comm);
  g_clear_pointer(&tr.dir, g_free);
  g_clear_pointer(&tr.tmp, g_free);
  tr.archive = NULL;
  tr.evt = NULL;
  tr.on = FALSE;
}
