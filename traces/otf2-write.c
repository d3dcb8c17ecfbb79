/* otf2-write.c - writes a trace as an OTF2 archive with Score-P-like
 * definitions (paradigm MPI, one system tree node, one location group
 * "MPI Rank r" and one CPU thread location r per rank, a COMM_LOCATIONS
 * group of all ranks, one COMM_GROUP or COMM_SELF group per communicator,
 * MPI regions), so that trace_read_otf2() and otf2-print read it.
 * Times are written in ps (timer 1e12 ticks/s, offset 0): they round-trip
 * exactly. The archive is a directory output of util/output.h: written
 * into a temporary sibling directory and renamed over `dir` at the end (a
 * symbolic link written through), removed when stopped or failed - no
 * half-written output. O(events).
 * Events go to the writer rank by rank (otf2_out, trace-private.h), one
 * event writer open at a time, so that synthesized traces of a million
 * ranks are written without being built in memory first. Definition
 * chunks are sized from the largest group (a group of every rank needs up
 * to 9 bytes per member); event chunks stay at OTF2's minimum, which is
 * what a reader holds per open location. No local definition files: the
 * traces have no local definitions, and libotf2 finds a location's writer
 * by a linear search over all locations handed out so far, so every extra
 * pass over the locations costs O(ranks^2) (minutes at 262,144 ranks).
 * libotf2 drops some errors on the way up (a failed fclose() of the
 * definitions or the anchor file, on a full disk, still ends in
 * OTF2_SUCCESS), but reports each one to its error callback first: the
 * writer's callback keeps the first, and any error fails the archive.
 */
#include "traces/trace-private.h"

#include <errno.h>
#include <stdarg.h>
#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <string.h>

#include "util/output.h"

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc)
{
  return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {
  .otf2_pre_flush = pre_flush,
  .otf2_post_flush = post_flush,
};

/* comm rank of world rank w in each communicator (-1 if not a member) */
typedef struct {
  int **inv;   /* ncomms arrays of nranks, NULL for self / memberless comms */
  int ncomms;
} rank_maps;

static rank_maps maps_new(const trace *t)
{
  rank_maps m = { g_new0(int *, MAX(t->ncomms, 1)), t->ncomms };
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    if (tc->self || tc->members == NULL)
      continue;
    m.inv[c] = g_new(int, t->nranks);
    for (int r = 0; r < t->nranks; r++)
      m.inv[c][r] = -1;
    for (int i = 0; i < tc->size; i++)
      if (tc->members[i] >= 0 && tc->members[i] < t->nranks)
        m.inv[c][tc->members[i]] = i;
  }
  return m;
}

static void maps_free_n(rank_maps *m)
{
  for (int c = 0; c < m->ncomms; c++)
    g_free(m->inv[c]);
  g_free(m->inv);
}

static uint32_t comm_rank(const trace *t, const rank_maps *m, uint32_t comm, int32_t world)
{
  if (world < 0 || comm >= (uint32_t)t->ncomms)
    return OTF2_UNDEFINED_UINT32;
  if (t->comms[comm].self)
    return 0;
  return m->inv[comm] ? (uint32_t)m->inv[comm][world] : OTF2_UNDEFINED_UINT32;
}

/* Score-P's counts of a collective record from the contribution the trace
 * holds (collectives.h) */
static void coll_counts(const trace *t, const rank_maps *m, int rank, const trace_event *e,
                        uint64_t *sent, uint64_t *recvd)
{
  int64_t s = e->bytes, r = e->bytes_recv;
  uint32_t me = comm_rank(t, m, e->comm, rank);
  if (e->op < COLL_NOPS && me != OTF2_UNDEFINED_UINT32 && e->comm < (uint32_t)t->ncomms) {
    const trace_comm *tc = &t->comms[e->comm];
    coll_record_of_contrib((coll_op)e->op, tc->self ? 1 : tc->size, (int)me, e->peer == rank,
                           e->bytes, &s, &r);
  }
  *sent = (uint64_t)MAX(s, 0);
  *recvd = (uint64_t)MAX(r, 0);
}

/* OTF2_SUCCESS, or why libotf2 refused the record (a time before the
 * previous one, say). */
static OTF2_ErrorCode write_event(OTF2_EvtWriter *w, const trace *t, const rank_maps *m,
                                  int rank, const trace_event *e)
{
  OTF2_TimeStamp ts = (OTF2_TimeStamp)e->time;
  uint32_t peer = comm_rank(t, m, e->comm, e->peer);
  uint64_t len = (uint64_t)e->bytes, recvd;
  OTF2_ErrorCode st = OTF2_SUCCESS;
  switch ((trace_kind)e->kind) {
  case TRACE_ENTER: st = OTF2_EvtWriter_Enter(w, NULL, ts, e->region); break;
  case TRACE_LEAVE: st = OTF2_EvtWriter_Leave(w, NULL, ts, e->region); break;
  case TRACE_SEND: st = OTF2_EvtWriter_MpiSend(w, NULL, ts, peer, e->comm, e->tag, len); break;
  case TRACE_ISEND:
    st = OTF2_EvtWriter_MpiIsend(w, NULL, ts, peer, e->comm, e->tag, len, e->request);
    break;
  case TRACE_ISEND_COMPLETE: st = OTF2_EvtWriter_MpiIsendComplete(w, NULL, ts, e->request); break;
  case TRACE_IRECV_REQUEST: st = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ts, e->request); break;
  case TRACE_RECV: st = OTF2_EvtWriter_MpiRecv(w, NULL, ts, peer, e->comm, e->tag, len); break;
  case TRACE_IRECV:
    st = OTF2_EvtWriter_MpiIrecv(w, NULL, ts, peer, e->comm, e->tag, len, e->request);
    break;
  case TRACE_REQUEST_TEST: st = OTF2_EvtWriter_MpiRequestTest(w, NULL, ts, e->request); break;
  case TRACE_REQUEST_CANCELLED:
    st = OTF2_EvtWriter_MpiRequestCancelled(w, NULL, ts, e->request);
    break;
  case TRACE_COLL_BEGIN: st = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts); break;
  case TRACE_COLL_END:
    coll_counts(t, m, rank, e, &len, &recvd);
    st = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, (OTF2_CollectiveOp)e->op, e->comm, peer,
                                         len, recvd);
    break;
  case TRACE_NBCOLL_REQUEST:
    st = OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, ts, e->request);
    break;
  case TRACE_NBCOLL_COMPLETE:
    coll_counts(t, m, rank, e, &len, &recvd);
    st = OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, ts, (OTF2_CollectiveOp)e->op,
                                                      e->comm, peer, len, recvd, e->request);
    break;
  case TRACE_NKINDS: g_assert_not_reached();
  }
  return st;
}

/* String ids: 0 "", 1 "MPI", 2 "machine", 3 "mapsim", 4 "node", 5 "Master
 * thread", 6 "MPI_COMM_WORLD", then region names, then rank and comm names. */
enum { S_EMPTY, S_MPI, S_MACHINE, S_MAPSIM, S_NODE, S_MASTER, S_FIRST };

/* Returns the first string id it left unused. */
static uint32_t write_defs(OTF2_GlobalDefWriter *gw, const trace *t, const int64_t *nevents)
{
  const char *fixed[] = { "", "MPI", "machine", "mapsim", "node", "Master thread" };
  for (int i = 0; i < S_FIRST; i++)
    OTF2_GlobalDefWriter_WriteString(gw, (OTF2_StringRef)i, fixed[i]);
  OTF2_GlobalDefWriter_WriteClockProperties(gw, UINT64_C(1000000000000), 0,
                                            (uint64_t)MAX(t->duration_ps, 0), OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteParadigm(gw, OTF2_PARADIGM_MPI, S_MPI, OTF2_PARADIGM_CLASS_PROCESS);
  uint32_t s = S_FIRST;
  for (int i = 0; i < t->nregions; i++) {
    OTF2_GlobalDefWriter_WriteString(gw, s, t->regions[i]);
    OTF2_GlobalDefWriter_WriteRegion(gw, (OTF2_RegionRef)i, s, s, S_EMPTY, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, S_MPI, 0, 0);
    s++;
  }
  OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, 0, S_MAPSIM, S_MACHINE, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  uint64_t *members = g_new(uint64_t, t->nranks);
  for (int r = 0; r < t->nranks; r++) {
    char *name = g_strdup_printf("MPI Rank %d", r);
    OTF2_GlobalDefWriter_WriteString(gw, s, name);
    g_free(name);
    OTF2_GlobalDefWriter_WriteLocationGroup(gw, (OTF2_LocationGroupRef)r, s++,
                                            OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(gw, (OTF2_LocationRef)r, S_MASTER,
                                       OTF2_LOCATION_TYPE_CPU_THREAD,
                                       (uint64_t)nevents[r], (OTF2_LocationGroupRef)r);
    members[r] = (uint64_t)r;
  }
  /* group 0: the MPI locations (world rank i = member i) */
  OTF2_GlobalDefWriter_WriteGroup(gw, 0, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                  OTF2_GROUP_FLAG_NONE, (uint32_t)t->nranks, members);
  /* OTF2 allows one COMM_SELF group per paradigm: every self communicator
   * (a trace may hold several, e.g. a replayed one) refers to the first */
  OTF2_GroupRef self_group = OTF2_UNDEFINED_GROUP;
  for (int c = 0; c < t->ncomms; c++) {
    const trace_comm *tc = &t->comms[c];
    OTF2_GroupRef group = (OTF2_GroupRef)c + 1;
    if (tc->self && self_group != OTF2_UNDEFINED_GROUP) {
      group = self_group;
    } else {
      uint32_t n = tc->self || !tc->members ? 0 : (uint32_t)tc->size;
      uint64_t *cm = g_new(uint64_t, MAX(n, 1));
      for (uint32_t i = 0; i < n; i++)
        cm[i] = (uint64_t)tc->members[i];
      OTF2_GlobalDefWriter_WriteGroup(gw, group, S_EMPTY,
                                      tc->self ? OTF2_GROUP_TYPE_COMM_SELF : OTF2_GROUP_TYPE_COMM_GROUP,
                                      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, cm);
      g_free(cm);
      if (tc->self)
        self_group = group;
    }
    OTF2_GlobalDefWriter_WriteString(gw, s, tc->name ? tc->name : "");
    OTF2_GlobalDefWriter_WriteComm(gw, (OTF2_CommRef)c, s++, group, OTF2_UNDEFINED_COMM,
                                   OTF2_COMM_FLAG_NONE);
  }
  g_free(members);
  return s;
}

struct otf2_out {
  char *dir;
  OTF2_ErrorCallback old_errors; /* the callback before keep_first_error */
  output *out;                 /* the directory being written */
  OTF2_Archive *ar;
  rank_maps maps;
  int nranks;
  int64_t *nevents;            /* records written per rank */
  gboolean failed;
  OTF2_ErrorCode first_error;  /* the first error libotf2 reported */
  const trace_counter *counters; /* written after the ranks (otf2-counters.c), or NULL */
  int ncounters;
  const char *counters_what;
  int64_t *counter_events;
};

static OTF2_ErrorCode keep_first_error(void *ud, const char *file, uint64_t line, const char *fn,
                                       OTF2_ErrorCode code, const char *fmt, va_list va)
{
  otf2_out *o = ud;
  if (o->first_error == OTF2_SUCCESS)
    o->first_error = code;
  return code;
}

/* FALSE, with "DIR: <libotf2's reason>, expected ...", once libotf2
 * reported an error. */
static gboolean no_error_reported(const otf2_out *o, GError **error)
{
  if (o->first_error == OTF2_SUCCESS)
    return TRUE;
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: %s, expected a writable directory "
              "with free space (OTF2 could not write the archive)", o->dir,
              OTF2_Error_GetDescription(o->first_error));
  return FALSE;
}

/* Definition chunks must hold the largest definition record: a group of
 * every rank, up to 9 bytes per member (OTF2's compressed integers). */
static uint64_t def_chunk_size(const trace *t)
{
  uint64_t members = (uint64_t)t->nranks;
  for (int c = 0; c < t->ncomms; c++)
    members = MAX(members, (uint64_t)MAX(t->comms[c].size, 0));
  uint64_t need = 9 * members + 4096, chunk = OTF2_CHUNK_SIZE_MIN;
  while (chunk < need && chunk < OTF2_CHUNK_SIZE_MAX)
    chunk *= 2;
  return chunk;
}

otf2_out *otf2_out_open(const char *dir, const trace *defs, const progress *prog,
                        GError **error)
{
  otf2_out *o = g_new0(otf2_out, 1);
  o->old_errors = OTF2_Error_RegisterCallback(keep_first_error, o);
  o->dir = g_strdup(dir);
  o->nranks = defs->nranks;
  o->out = output_open_dir(dir, prog, error);
  gboolean ok = o->out != NULL;
  if (ok) {
    o->ar = OTF2_Archive_Open(output_dir(o->out), "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                              def_chunk_size(defs), OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    ok = o->ar && OTF2_Archive_SetFlushCallbacks(o->ar, &flush_callbacks, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetSerialCollectiveCallbacks(o->ar) == OTF2_SUCCESS &&
         OTF2_Archive_SetCreator(o->ar, TRACE_SYNTHETIC_CREATOR) == OTF2_SUCCESS &&
         OTF2_Archive_OpenEvtFiles(o->ar) == OTF2_SUCCESS;
    if (!ok)
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: OTF2 could not create the archive, "
                  "expected a writable directory", dir);
  }
  if (!ok) {
    otf2_out_abort(o);
    return NULL;
  }
  o->maps = maps_new(defs);
  o->nevents = g_new0(int64_t, MAX(defs->nranks, 1));
  return o;
}

gboolean otf2_out_rank(otf2_out *o, const trace *defs, int rank, const trace_event *ev,
                       int64_t n, GError **error)
{
  OTF2_EvtWriter *w = o->failed ? NULL : OTF2_Archive_GetEvtWriter(o->ar, (OTF2_LocationRef)rank);
  gboolean ok = w != NULL;
  OTF2_ErrorCode st = OTF2_SUCCESS;
  int64_t i = 0;
  for (; ok && st == OTF2_SUCCESS && i < n; i++)
    st = write_event(w, defs, &o->maps, rank, &ev[i]);
  if (ok && st != OTF2_SUCCESS && !o->failed) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: rank %d, record %" G_GINT64_FORMAT
                ": OTF2 refused it (%s), expected records in time order", o->dir, rank, i - 1,
                OTF2_Error_GetDescription(st));
    ok = FALSE;
    o->failed = TRUE;
  }
  if (w)
    ok = OTF2_Archive_CloseEvtWriter(o->ar, w) == OTF2_SUCCESS && ok;
  o->nevents[rank] += n;
  if (!o->failed && !no_error_reported(o, error))
    ok = FALSE;
  else if (!ok && !o->failed)
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: OTF2 could not write the events of "
                "rank %d, expected a writable directory", o->dir, rank);
  o->failed = o->failed || !ok;
  return ok;
}

gboolean otf2_out_close(otf2_out *o, const trace *defs, GError **error)
{
  gboolean ok = !o->failed && OTF2_Archive_CloseEvtFiles(o->ar) == OTF2_SUCCESS;
  if (ok) {
    OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(o->ar);
    uint32_t s = write_defs(gw, defs, o->nevents);
    if (o->ncounters)
      otf2_counter_defs(gw, o->counters, o->ncounters, o->counters_what, s,
                        (uint64_t)o->nranks, (uint32_t)o->nranks, o->counter_events);
    ok = OTF2_Archive_Close(o->ar) == OTF2_SUCCESS;
    o->ar = NULL;
  }
  if (!o->failed && !no_error_reported(o, error))
    ok = FALSE;
  else if (!ok && !o->failed)
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: OTF2 could not write the definitions "
                "or close the archive, expected a writable directory", o->dir);
  if (ok)
    ok = output_commit(g_steal_pointer(&o->out), error);
  otf2_out_abort(o);
  return ok;
}

void otf2_out_abort(otf2_out *o)
{
  if (!o)
    return;
  if (o->ar)
    OTF2_Archive_Close(o->ar);
  output_abort(o->out);
  OTF2_Error_RegisterCallback(o->old_errors, NULL);
  if (o->nevents)
    maps_free_n(&o->maps);
  g_free(o->nevents);
  g_free(o->counter_events);
  g_free(o->dir);
  g_free(o);
}

/* Writes counters as metric locations after the ranks (before close; they
 * stay borrowed until then). */
static gboolean otf2_out_counters(otf2_out *o, const trace_counter *c, int nc, const char *what,
                                  GError **error)
{
  o->counters = c;
  o->ncounters = nc;
  o->counters_what = what;
  o->counter_events = g_new0(int64_t, MAX(nc, 1));
  for (int i = 0; i < nc && !o->failed; i++) {
    OTF2_LocationRef loc = (OTF2_LocationRef)o->nranks + (OTF2_LocationRef)i;
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(o->ar, loc);
    gboolean ok = w && otf2_counter_events(w, &c[i]) == OTF2_SUCCESS;
    ok = w && OTF2_Archive_CloseEvtWriter(o->ar, w) == OTF2_SUCCESS && ok;
    o->counter_events[i] = c[i].n;
    if (!no_error_reported(o, error)) {
      o->failed = TRUE;
    } else if (!ok) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: OTF2 could not write the counter "
                  "'%s', expected a writable directory", o->dir, c[i].name);
      o->failed = TRUE;
    }
  }
  return !o->failed;
}

gboolean trace_write_otf2(const trace *t, const char *dir, const progress *prog, GError **error)
{
  return trace_write_otf2_counters(t, NULL, 0, NULL, dir, prog, error);
}

gboolean trace_write_otf2_counters(const trace *t, const trace_counter *c, int nc,
                                   const char *what, const char *dir, const progress *prog,
                                   GError **error)
{
  otf2_out *o = otf2_out_open(dir, t, prog, error);
  if (!o)
    return FALSE;
  for (int r = 0; r < t->nranks; r++) {
    if (!otf2_out_rank(o, t, r, t->ranks[r].events, t->ranks[r].nevents, error) ||
        ((r & 255) == 255 && !progress_check(prog, error))) {
      otf2_out_abort(o);
      return FALSE;
    }
    if ((r & 255) == 255 || r + 1 == t->nranks)
      progress_report(prog, "trace: ranks written", (uint64_t)r + 1, (uint64_t)t->nranks);
  }
  if (nc && !otf2_out_counters(o, c, nc, what, error)) {
    otf2_out_abort(o);
    return FALSE;
  }
  return otf2_out_close(o, t, error);
}
