/* otf2-events.c - the event records of one batch of an OTF2 archive's
 * locations (see otf2-read-private.h): each record counted (record
 * statistics comparable with otf2-print), the MPI records of rank
 * locations resolved against the global definitions and pushed into the
 * trace or handed to the sink. Records beyond a location's announced count
 * stop the read (a damaged file libotf2 would read on and on); a read the
 * watchdog abandoned stops at the next record.
 */
#include "traces/otf2-read-private.h"

#include <stdarg.h>
#include <string.h>

#include "traces/otf2-eztrace-private.h"
#include "util/budget.h"
#include "util/checked.h"

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

/* ---- events ------------------------------------------------------------ */

/* index+1 of `ref` in a table of definitions, 0 when undefined */
static inline guint ref_index(GHashTable *h, const uint32_t *flat, uint32_t n, uint32_t ref)
{
  if (flat)
    return ref < n ? flat[ref] : 0;
  return GPOINTER_TO_UINT(g_hash_table_lookup(h, GUINT_TO_POINTER(ref)));
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
  const trace_sink *k = c->defs->sink;
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
  const trace_sink *k = c->defs->sink;
  if (l->rank >= 0 && k)
    k->begin(k->user, c->worker, l->rank, l->nevents);
  else if (l->rank >= 0 && !c->defs->eztrace)
    trace_reserve(c->t, l->rank, (int64_t)l->nevents); /* EZTrace's is a bound: grown */
  OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, l->id);
  if (er == NULL) {
    char *p = otf2_evt_path(c->defs->path, l->id);
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
    char *p = otf2_evt_path(c->defs->path, l->id);
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
void otf2_read_batch(evt_ctx *c)
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
    char *def = otf2_def_path(c->defs->path, id);
    gboolean exists = g_file_test(def, G_FILE_TEST_EXISTS);
    g_free(def);
    OTF2_DefReader *dr = exists ? OTF2_Reader_GetDefReader(rd, id) : NULL;
    if (dr == NULL)
      continue;
    uint64_t n = 0;
    OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
    OTF2_Reader_CloseDefReader(rd, dr);
    if (st != OTF2_SUCCESS) {
      char *p = otf2_def_path(c->defs->path, id);
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
