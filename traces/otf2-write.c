/* otf2-write.c - writes a trace as an OTF2 archive with Score-P-like
 * definitions (paradigm MPI, one system tree node, one location group
 * "MPI Rank r" and one CPU thread location r per rank, a COMM_LOCATIONS
 * group of all ranks, one COMM_GROUP or COMM_SELF group per communicator,
 * MPI regions), so that trace_read_otf2() and otf2-print read it.
 * Times are written in ps (timer 1e12 ticks/s, offset 0): they round-trip
 * exactly. The archive is written into a temporary sibling directory and
 * renamed over `dir` at the end: no half-written output. O(events).
 * Events go to the writer rank by rank (otf2_out, trace-private.h), one
 * event writer open at a time, so that synthesized traces of a million
 * ranks are written without being built in memory first. Definition
 * chunks are sized from the largest group (a group of every rank needs up
 * to 9 bytes per member); event chunks stay at OTF2's minimum, which is
 * what a reader holds per open location. No local definition files: the
 * traces have no local definitions, and libotf2 finds a location's writer
 * by a linear search over all locations handed out so far, so every extra
 * pass over the locations costs O(ranks^2) (minutes at 262,144 ranks).
 */
#include "traces/trace-private.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <string.h>

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

static void write_event(OTF2_EvtWriter *w, const trace *t, const rank_maps *m, int rank,
                        const trace_event *e)
{
  OTF2_TimeStamp ts = (OTF2_TimeStamp)e->time;
  uint32_t peer = comm_rank(t, m, e->comm, e->peer);
  uint64_t len = (uint64_t)e->bytes, recvd;
  switch ((trace_kind)e->kind) {
  case TRACE_ENTER: OTF2_EvtWriter_Enter(w, NULL, ts, e->region); break;
  case TRACE_LEAVE: OTF2_EvtWriter_Leave(w, NULL, ts, e->region); break;
  case TRACE_SEND: OTF2_EvtWriter_MpiSend(w, NULL, ts, peer, e->comm, e->tag, len); break;
  case TRACE_ISEND:
    OTF2_EvtWriter_MpiIsend(w, NULL, ts, peer, e->comm, e->tag, len, e->request);
    break;
  case TRACE_ISEND_COMPLETE: OTF2_EvtWriter_MpiIsendComplete(w, NULL, ts, e->request); break;
  case TRACE_IRECV_REQUEST: OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ts, e->request); break;
  case TRACE_RECV: OTF2_EvtWriter_MpiRecv(w, NULL, ts, peer, e->comm, e->tag, len); break;
  case TRACE_IRECV:
    OTF2_EvtWriter_MpiIrecv(w, NULL, ts, peer, e->comm, e->tag, len, e->request);
    break;
  case TRACE_REQUEST_TEST: OTF2_EvtWriter_MpiRequestTest(w, NULL, ts, e->request); break;
  case TRACE_REQUEST_CANCELLED: OTF2_EvtWriter_MpiRequestCancelled(w, NULL, ts, e->request); break;
  case TRACE_COLL_BEGIN: OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts); break;
  case TRACE_COLL_END:
    coll_counts(t, m, rank, e, &len, &recvd);
    OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, (OTF2_CollectiveOp)e->op, e->comm, peer, len,
                                    recvd);
    break;
  case TRACE_NBCOLL_REQUEST: OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, ts, e->request); break;
  case TRACE_NBCOLL_COMPLETE:
    coll_counts(t, m, rank, e, &len, &recvd);
    OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, ts, (OTF2_CollectiveOp)e->op, e->comm,
                                                 peer, len, recvd, e->request);
    break;
  case TRACE_NKINDS: g_assert_not_reached();
  }
}

/* String ids: 0 "", 1 "MPI", 2 "machine", 3 "mapsim", 4 "node", 5 "Master
 * thread", 6 "MPI_COMM_WORLD", then region names, then rank and comm names. */
enum { S_EMPTY, S_MPI, S_MACHINE, S_MAPSIM, S_NODE, S_MASTER, S_FIRST };

static void write_defs(OTF2_GlobalDefWriter *gw, const trace *t, const int64_t *nevents)
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
}

/* Makes room for `dir`: absent, or an empty directory (removed). */
static gboolean check_target(const char *dir, GError **error)
{
  if (!g_file_test(dir, G_FILE_TEST_EXISTS))
    return TRUE;
  if (g_file_test(dir, G_FILE_TEST_IS_DIR) && g_rmdir(dir) == 0)
    return TRUE;
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE,
              "%s: exists and is not an empty directory, expected a new output directory", dir);
  return FALSE;
}

static void remove_tree(const char *path)
{
  GDir *d = g_dir_open(path, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name(d))) {
    char *p = g_build_filename(path, name, NULL);
    if (g_file_test(p, G_FILE_TEST_IS_DIR))
      remove_tree(p);
    else
      g_unlink(p);
    g_free(p);
  }
  if (d)
    g_dir_close(d);
  g_rmdir(path);
}

struct otf2_out {
  char *dir, *tmp;
  OTF2_Archive *ar;
  rank_maps maps;
  int nranks;
  int64_t *nevents;            /* records written per rank */
  gboolean failed;
};

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

otf2_out *otf2_out_open(const char *dir, const trace *defs, GError **error)
{
  otf2_out *o = g_new0(otf2_out, 1);
  char *parent = g_path_get_dirname(dir), *base = g_path_get_basename(dir);
  o->dir = g_strdup(dir);
  o->tmp = g_strdup_printf("%s/.%s.tmp-XXXXXX", parent, base);
  o->nranks = defs->nranks;
  gboolean ok = check_target(dir, error);
  if (ok && (g_mkdir_with_parents(parent, 0755) != 0 || g_mkdtemp(o->tmp) == NULL)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: %s, expected a writable directory",
                parent, g_strerror(errno));
    g_clear_pointer(&o->tmp, g_free);
    ok = FALSE;
  }
  g_free(parent);
  g_free(base);
  if (ok) {
    o->ar = OTF2_Archive_Open(o->tmp, "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                              def_chunk_size(defs), OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    ok = o->ar && OTF2_Archive_SetFlushCallbacks(o->ar, &flush_callbacks, NULL) == OTF2_SUCCESS &&
         OTF2_Archive_SetSerialCollectiveCallbacks(o->ar) == OTF2_SUCCESS &&
         OTF2_Archive_SetCreator(o->ar, "mapsim") == OTF2_SUCCESS &&
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
  for (int64_t i = 0; ok && i < n; i++)
    write_event(w, defs, &o->maps, rank, &ev[i]);
  if (w)
    ok = OTF2_Archive_CloseEvtWriter(o->ar, w) == OTF2_SUCCESS && ok;
  o->nevents[rank] += n;
  if (!ok && !o->failed)
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: OTF2 could not write the events of "
                "rank %d, expected a writable directory", o->dir, rank);
  o->failed = o->failed || !ok;
  return ok;
}

gboolean otf2_out_close(otf2_out *o, const trace *defs, GError **error)
{
  gboolean ok = !o->failed && OTF2_Archive_CloseEvtFiles(o->ar) == OTF2_SUCCESS;
  if (ok) {
    write_defs(OTF2_Archive_GetGlobalDefWriter(o->ar), defs, o->nevents);
    ok = OTF2_Archive_Close(o->ar) == OTF2_SUCCESS;
    o->ar = NULL;
    if (!ok || g_chmod(o->tmp, 0755) != 0 || g_rename(o->tmp, o->dir) != 0) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: %s, expected a writable directory",
                  o->dir, ok ? g_strerror(errno) : "OTF2 could not close the archive");
      ok = FALSE;
    } else {
      g_clear_pointer(&o->tmp, g_free); /* renamed: nothing to remove */
    }
  } else if (!o->failed) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "%s: OTF2 could not write the definitions, "
                "expected a writable directory", o->dir);
  }
  otf2_out_abort(o);
  return ok;
}

void otf2_out_abort(otf2_out *o)
{
  if (!o)
    return;
  if (o->ar)
    OTF2_Archive_Close(o->ar);
  if (o->tmp)
    remove_tree(o->tmp);
  if (o->nevents)
    maps_free_n(&o->maps);
  g_free(o->nevents);
  g_free(o->tmp);
  g_free(o->dir);
  g_free(o);
}

gboolean trace_write_otf2(const trace *t, const char *dir, GError **error)
{
  otf2_out *o = otf2_out_open(dir, t, error);
  if (!o)
    return FALSE;
  for (int r = 0; r < t->nranks; r++)
    if (!otf2_out_rank(o, t, r, t->ranks[r].events, t->ranks[r].nevents, error)) {
      otf2_out_abort(o);
      return FALSE;
    }
  return otf2_out_close(o, t, error);
}
