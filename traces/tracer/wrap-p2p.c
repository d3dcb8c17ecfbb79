/* wrap-p2p.c - the hooks of point-to-point and request calls (hooks.h;
 * the wrappers that call them, C and Fortran, are generated from
 * calls.tbl).
 *
 * Records, as Score-P writes them: blocking sends MpiSend at entry,
 * blocking receives MpiRecv at return (source, tag and size from the
 * status); non-blocking sends MpiIsend and receives MpiIrecvRequest at the
 * call, their completion (requests.c) in whichever Wait/Test completes
 * them; persistent requests record at each MPI_Start. Tests that complete
 * nothing record MpiRequestTest for each request still active. Every call
 * is Enter, records, the MPI call, records, Leave; the statuses the hooks
 * get are never MPI_STATUS(ES)_IGNORE (the wrappers substitute their own).
 */
#include "traces/tracer/hooks.h"

#include <string.h>

static void leave_now(tr_region reg, uint64_t t)
{
  tr_leave(reg, MAX(t, tr_clock()));
}
/* ---- blocking ---------------------------------------------------------- */

uint64_t tr_pre_send(tr_region reg, const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm)
{
  uint64_t t = tr_enter(reg);
  tr_rec_send(t, tr_comm_find(comm), dest, tag, tr_bytes(count, type));
  return t;
}

/* A blocking receive's MpiRecv at return, then Leave. */
static void received(tr_region reg, uint64_t t0, int rc, MPI_Comm comm, const MPI_Status *st)
{
  uint64_t t = MAX(t0, tr_clock());
  if (rc == MPI_SUCCESS)
    tr_rec_recv(t, tr_comm_find(comm), st);
  tr_leave(reg, t);
}

void tr_post_recv(tr_region reg, uint64_t t, int rc, void *buf, int count, MPI_Datatype type,
                  int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  received(reg, t, rc, comm, status);
}

uint64_t tr_pre_sendrecv(tr_region reg, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         int dest, int sendtag, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                         MPI_Status *status)
{
  return tr_pre_send(reg, sendbuf, sendcount, sendtype, dest, sendtag, comm);
}

void tr_post_sendrecv(tr_region reg, uint64_t t, int rc, const void *sendbuf, int sendcount,
                      MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                      MPI_Status *status)
{
  received(reg, t, rc, comm, status);
}

uint64_t tr_pre_sendrecv_replace(tr_region reg, void *buf, int count, MPI_Datatype type, int dest,
                                 int sendtag, int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status)
{
  return tr_pre_send(reg, buf, count, type, dest, sendtag, comm);
}

void tr_post_sendrecv_replace(tr_region reg, uint64_t t, int rc, void *buf, int count,
                              MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                              MPI_Comm comm, MPI_Status *status)
{
  received(reg, t, rc, comm, status);
}

/* ---- non-blocking ------------------------------------------------------ */

void tr_post_isend(tr_region reg, uint64_t t, int rc, const void *buf, int count,
                   MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
  tr_comm *c = rc == MPI_SUCCESS && dest != MPI_PROC_NULL ? tr_comm_find(comm) : NULL;
  if (c) {
    tr_req *r = tr_req_new(*req, TR_REQ_ISEND, c->local_id);
    OTF2_EvtWriter_MpiIsend(tr.evt, NULL, t, (uint32_t)dest, c->local_id, (uint32_t)tag,
                            tr_bytes(count, type), r->id);
  } else if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {
    tr.unknown_comm_ops++;
  }
  leave_now(reg, t);
}

void tr_post_irecv(tr_region reg, uint64_t t, int rc, void *buf, int count, MPI_Datatype type,
                   int source, int tag, MPI_Comm comm, MPI_Request *req)
{
  tr_comm *c = rc == MPI_SUCCESS && source != MPI_PROC_NULL ? tr_comm_find(comm) : NULL;
  if (c) {
    tr_req *r = tr_req_new(*req, TR_REQ_IRECV, c->local_id);
    OTF2_EvtWriter_MpiIrecvRequest(tr.evt, NULL, t, r->id);
  } else if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) {
    tr.unknown_comm_ops++;
  }
  leave_now(reg, t);
}

/* ---- persistent -------------------------------------------------------- */

/* A persistent request: recorded at each start, not now. */
static void track_persistent(MPI_Comm comm, tr_req_kind kind, int peer, int tag, uint64_t bytes,
                             MPI_Request req)
{
  tr_comm *c = tr_comm_find(comm);
  if (c == NULL) {
    tr.unknown_comm_ops++;
    return;
  }
  tr_req *r = tr_req_new(req, kind, c->local_id);
  r->persistent = 1;
  r->active = 0;
  r->peer = peer;
  r->tag = tag;
  r->bytes = bytes;
}

void tr_post_send_init(tr_region reg, uint64_t t, int rc, const void *buf, int count,
                       MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
  if (rc == MPI_SUCCESS)
    track_persistent(comm, TR_REQ_ISEND, dest, tag, tr_bytes(count, type), *req);
  leave_now(reg, t);
}

void tr_post_recv_init(tr_region reg, uint64_t t, int rc, void *buf, int count,
                       MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
  if (rc == MPI_SUCCESS)
    track_persistent(comm, TR_REQ_IRECV, source, tag, 0, *req);
  leave_now(reg, t);
}

static void rec_start(uint64_t t, MPI_Request req)
{
  tr_req *r = tr_req_find(req);
  if (r == NULL || !r->persistent || r->peer == MPI_PROC_NULL)
    return;
  r->active = 1;
  r->id = tr.next_request++;
  if (r->kind == TR_REQ_ISEND)
    OTF2_EvtWriter_MpiIsend(tr.evt, NULL, t, (uint32_t)r->peer, r->comm, (uint32_t)r->tag,
                            r->bytes, r->id);
  else
    OTF2_EvtWriter_MpiIrecvRequest(tr.evt, NULL, t, r->id);
}

uint64_t tr_pre_start(tr_region reg, MPI_Request *req)
{
  uint64_t t = tr_enter(reg);
  rec_start(t, *req);
  return t;
}

uint64_t tr_pre_startall(tr_region reg, int count, MPI_Request *reqs)
{
  uint64_t t = tr_enter(reg);
  for (int i = 0; i < count; i++)
    rec_start(t, reqs[i]);
  return t;
}

uint64_t tr_pre_request_free(tr_region reg, MPI_Request *req)
{
  uint64_t t = tr_enter(reg);
  tr_req_drop(*req);
  return t;
}

/* ---- completion -------------------------------------------------------- */

/* The handles before MPI overwrites them (scratch, no allocation), then
 * Enter: the pre hook of every Wait and Test call. */
uint64_t tr_pre_complete(tr_region reg, int n, const MPI_Request *reqs)
{
  MPI_Request *saved = tr_scratch_get(&tr.saved_reqs, sizeof(MPI_Request) * (size_t)MAX(n, 1));
  if (n > 0)
    memcpy(saved, reqs, sizeof(MPI_Request) * (size_t)n);
  return tr_enter(reg);
}

static MPI_Request *saved_handles(void)
{
  return tr.saved_reqs.p;
}

/* Status i is valid: all are when rc is MPI_SUCCESS, else those whose own
 * error field says success (MPI_ERR_IN_STATUS). */
static gboolean status_ok(int rc, const MPI_Status *st)
{
  return rc == MPI_SUCCESS || (rc == MPI_ERR_IN_STATUS && st->MPI_ERROR == MPI_SUCCESS);
}

static void tested_all(int n, const MPI_Request *before, uint64_t t)
{
  for (int i = 0; i < n; i++)
    tr_req_tested(before[i], t);
}

void tr_post_wait(tr_region reg, uint64_t t0, int rc, MPI_Request *req, MPI_Status *status)
{
  uint64_t t = MAX(t0, tr_clock());
  if (rc == MPI_SUCCESS)
    tr_req_complete(saved_handles()[0], status, t);
  tr_leave(reg, t);
}

void tr_post_waitall(tr_region reg, uint64_t t0, int rc, int count, MPI_Request *reqs,
                     MPI_Status *statuses)
{
  uint64_t t = MAX(t0, tr_clock());
  const MPI_Request *before = saved_handles();
  for (int i = 0; i < count; i++)
    if (status_ok(rc, &statuses[i]))
      tr_req_complete(before[i], &statuses[i], t);
  tr_leave(reg, t);
}

void tr_post_waitany(tr_region reg, uint64_t t0, int rc, int count, MPI_Request *reqs, int *index,
                     MPI_Status *status)
{
  uint64_t t = MAX(t0, tr_clock());
  if (rc == MPI_SUCCESS && *index >= 0 && *index < count)
    tr_req_complete(saved_handles()[*index], status, t);
  tr_leave(reg, t);
}

/* Waitsome/Testsome: the completed ones. */
static void completed_some(int rc, int incount, int outcount, const int *indices,
                           MPI_Status *st, uint64_t t)
{
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS)
    return;
  const MPI_Request *before = saved_handles();
  for (int k = 0; k < outcount && outcount != MPI_UNDEFINED; k++)
    if (indices[k] >= 0 && indices[k] < incount && status_ok(rc, &st[k]))
      tr_req_complete(before[indices[k]], &st[k], t);
}

void tr_post_waitsome(tr_region reg, uint64_t t0, int rc, int incount, MPI_Request *reqs,
                      int *outcount, int *indices, MPI_Status *statuses)
{
  uint64_t t = MAX(t0, tr_clock());
  completed_some(rc, incount, *outcount, indices, statuses, t);
  tr_leave(reg, t);
}

void tr_post_test(tr_region reg, uint64_t t0, int rc, MPI_Request *req, int *flag,
                  MPI_Status *status)
{
  uint64_t t = MAX(t0, tr_clock());
  MPI_Request before = saved_handles()[0];
  if (rc == MPI_SUCCESS && *flag)
    tr_req_complete(before, status, t);
  else if (rc == MPI_SUCCESS)
    tr_req_tested(before, t);
  tr_leave(reg, t);
}

void tr_post_testall(tr_region reg, uint64_t t0, int rc, int count, MPI_Request *reqs, int *flag,
                     MPI_Status *statuses)
{
  uint64_t t = MAX(t0, tr_clock());
  const MPI_Request *before = saved_handles();
  if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *flag) {
    for (int i = 0; i < count; i++)
      if (status_ok(rc, &statuses[i]))
        tr_req_complete(before[i], &statuses[i], t);
  } else if (rc == MPI_SUCCESS) {
    tested_all(count, before, t);
  }
  tr_leave(reg, t);
}

void tr_post_testany(tr_region reg, uint64_t t0, int rc, int count, MPI_Request *reqs, int *index,
                     int *flag, MPI_Status *status)
{
  uint64_t t = MAX(t0, tr_clock());
  const MPI_Request *before = saved_handles();
  if (rc == MPI_SUCCESS && *flag && *index >= 0 && *index < count)
    tr_req_complete(before[*index], status, t);
  else if (rc == MPI_SUCCESS && !*flag)
    tested_all(count, before, t);
  tr_leave(reg, t);
}

void tr_post_testsome(tr_region reg, uint64_t t0, int rc, int incount, MPI_Request *reqs,
                      int *outcount, int *indices, MPI_Status *statuses)
{
  uint64_t t = MAX(t0, tr_clock());
  completed_some(rc, incount, *outcount, indices, statuses, t);
  if (rc == MPI_SUCCESS)
    tested_all(incount, saved_handles(), t);  /* completed ones are no longer active */
  tr_leave(reg, t);
}
