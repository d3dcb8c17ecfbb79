/* wrap-p2p.c - point-to-point and request wrappers.
 *
 * Records, as Score-P writes them: blocking sends MpiSend at entry,
 * blocking receives MpiRecv at return (source, tag and size from the
 * status); non-blocking sends MpiIsend and receives MpiIrecvRequest at the
 * call, their completion (requests.c) in whichever Wait/Test completes
 * them; persistent requests record at each MPI_Start. Tests that complete
 * nothing record MpiRequestTest for each request still active. Every
 * wrapper is Enter, records, PMPI call, records, Leave; a status the caller
 * ignores is replaced by one of ours (receives need it).
 */
#include "traces/tracer/tracer.h"

#include <string.h>

/* ---- blocking ---------------------------------------------------------- */

#define BLOCKING_SEND(fn)                                                                   \
  TR_API int MPI_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                      MPI_Comm comm)                                                        \
  {                                                                                         \
    if (!tr_active())                                                                       \
      return PMPI_##fn(buf, count, type, dest, tag, comm);                                  \
    uint64_t t = tr_enter(TR_MPI_##fn);                                                     \
    tr_rec_send(t, tr_comm_find(comm), dest, tag, tr_bytes(count, type));                   \
    int rc = PMPI_##fn(buf, count, type, dest, tag, comm);                                  \
    tr_leave(TR_MPI_##fn, tr_clock());                                                      \
    return rc;                                                                              \
  }

BLOCKING_SEND(Send)
BLOCKING_SEND(Bsend)
BLOCKING_SEND(Ssend)
BLOCKING_SEND(Rsend)

TR_API int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                    MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  tr_enter(TR_MPI_Recv);
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  uint64_t t = tr_clock();
  if (rc == MPI_SUCCESS)
    tr_rec_recv(t, tr_comm_find(comm), st);
  tr_leave(TR_MPI_Recv, t);
  return rc;
}

TR_API int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                        int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  uint64_t t = tr_enter(TR_MPI_Sendrecv);
  tr_comm *c = tr_comm_find(comm);
  tr_rec_send(t, c, dest, sendtag, tr_bytes(sendcount, sendtype));
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, st);
  t = tr_clock();
  if (rc == MPI_SUCCESS)
    tr_rec_recv(t, c, st);
  tr_leave(TR_MPI_Sendrecv, t);
  return rc;
}

TR_API int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                                int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  uint64_t t = tr_enter(TR_MPI_Sendrecv_replace);
  tr_comm *c = tr_comm_find(comm);
  tr_rec_send(t, c, dest, sendtag, tr_bytes(count, type));
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, st);
  t = tr_clock();
  if (rc == MPI_SUCCESS)
    tr_rec_recv(t, c, st);
  tr_leave(TR_MPI_Sendrecv_replace, t);
  return rc;
}

TR_API int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Probe(source, tag, comm, status);
  tr_enter(TR_MPI_Probe);
  int rc = PMPI_Probe(source, tag, comm, status);
  tr_leave(TR_MPI_Probe, tr_clock());
  return rc;
}

TR_API int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Iprobe(source, tag, comm, flag, status);
  tr_enter(TR_MPI_Iprobe);
  int rc = PMPI_Iprobe(source, tag, comm, flag, status);
  tr_leave(TR_MPI_Iprobe, tr_clock());
  return rc;
}

/* ---- non-blocking ------------------------------------------------------ */

static void rec_isend(uint64_t t, MPI_Comm comm, int dest, int tag, uint64_t bytes,
                      MPI_Request req)
{
  if (dest == MPI_PROC_NULL)
    return;
  tr_comm *c = tr_comm_find(comm);
  if (c == NULL) {
    tr.unknown_comm_ops++;
    return;
  }
  tr_req *r = tr_req_new(req, TR_REQ_ISEND, c->local_id);
  OTF2_EvtWriter_MpiIsend(tr.evt, NULL, t, (uint32_t)dest, c->local_id, (uint32_t)tag, bytes,
                          r->id);
}

#define NONBLOCKING_SEND(fn)                                                                \
  TR_API int MPI_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                      MPI_Comm comm, MPI_Request *req)                                      \
  {                                                                                         \
    if (!tr_active())                                                                       \
      return PMPI_##fn(buf, count, type, dest, tag, comm, req);                             \
    uint64_t t = tr_enter(TR_MPI_##fn);                                                     \
    int rc = PMPI_##fn(buf, count, type, dest, tag, comm, req);                             \
    if (rc == MPI_SUCCESS)                                                                  \
      rec_isend(t, comm, dest, tag, tr_bytes(count, type), *req);                           \
    tr_leave(TR_MPI_##fn, tr_clock());                                                      \
    return rc;                                                                              \
  }

NONBLOCKING_SEND(Isend)
NONBLOCKING_SEND(Ibsend)
NONBLOCKING_SEND(Issend)
NONBLOCKING_SEND(Irsend)

static void rec_irecv(uint64_t t, MPI_Comm comm, int source, MPI_Request req)
{
  if (source == MPI_PROC_NULL)
    return;
  tr_comm *c = tr_comm_find(comm);
  if (c == NULL) {
    tr.unknown_comm_ops++;
    return;
  }
  tr_req *r = tr_req_new(req, TR_REQ_IRECV, c->local_id);
  OTF2_EvtWriter_MpiIrecvRequest(tr.evt, NULL, t, r->id);
}

TR_API int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
                     MPI_Comm comm, MPI_Request *req)
{
  if (!tr_active())
    return PMPI_Irecv(buf, count, type, source, tag, comm, req);
  uint64_t t = tr_enter(TR_MPI_Irecv);
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
  if (rc == MPI_SUCCESS)
    rec_irecv(t, comm, source, *req);
  tr_leave(TR_MPI_Irecv, tr_clock());
  return rc;
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

#define PERSISTENT_SEND(fn)                                                                 \
  TR_API int MPI_##fn(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                      MPI_Comm comm, MPI_Request *req)                                      \
  {                                                                                         \
    if (!tr_active())                                                                       \
      return PMPI_##fn(buf, count, type, dest, tag, comm, req);                             \
    tr_enter(TR_MPI_##fn);                                                                  \
    int rc = PMPI_##fn(buf, count, type, dest, tag, comm, req);                             \
    if (rc == MPI_SUCCESS)                                                                  \
      track_persistent(comm, TR_REQ_ISEND, dest, tag, tr_bytes(count, type), *req);         \
    tr_leave(TR_MPI_##fn, tr_clock());                                                      \
    return rc;                                                                              \
  }

PERSISTENT_SEND(Send_init)
PERSISTENT_SEND(Bsend_init)
PERSISTENT_SEND(Ssend_init)
PERSISTENT_SEND(Rsend_init)

TR_API int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                         MPI_Comm comm, MPI_Request *req)
{
  if (!tr_active())
    return PMPI_Recv_init(buf, count, type, source, tag, comm, req);
  tr_enter(TR_MPI_Recv_init);
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
  if (rc == MPI_SUCCESS)
    track_persistent(comm, TR_REQ_IRECV, source, tag, 0, *req);
  tr_leave(TR_MPI_Recv_init, tr_clock());
  return rc;
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

TR_API int MPI_Start(MPI_Request *req)
{
  if (!tr_active())
    return PMPI_Start(req);
  uint64_t t = tr_enter(TR_MPI_Start);
  rec_start(t, *req);
  int rc = PMPI_Start(req);
  tr_leave(TR_MPI_Start, tr_clock());
  return rc;
}

TR_API int MPI_Startall(int count, MPI_Request reqs[])
{
  if (!tr_active())
    return PMPI_Startall(count, reqs);
  uint64_t t = tr_enter(TR_MPI_Startall);
  for (int i = 0; i < count; i++)
    rec_start(t, reqs[i]);
  int rc = PMPI_Startall(count, reqs);
  tr_leave(TR_MPI_Startall, tr_clock());
  return rc;
}

TR_API int MPI_Request_free(MPI_Request *req)
{
  if (!tr_active())
    return PMPI_Request_free(req);
  tr_enter(TR_MPI_Request_free);
  tr_req_drop(*req);
  int rc = PMPI_Request_free(req);
  tr_leave(TR_MPI_Request_free, tr_clock());
  return rc;
}

TR_API int MPI_Cancel(MPI_Request *req)
{
  if (!tr_active())
    return PMPI_Cancel(req);
  tr_enter(TR_MPI_Cancel);
  int rc = PMPI_Cancel(req);
  tr_leave(TR_MPI_Cancel, tr_clock());
  return rc;
}

/* ---- completion -------------------------------------------------------- */

/* Copies the handles before MPI overwrites them (scratch, no allocation). */
static MPI_Request *save_handles(int n, const MPI_Request reqs[])
{
  tr_scratch(n);
  memcpy(tr.scratch_req, reqs, sizeof(MPI_Request) * (size_t)MAX(n, 0));
  return tr.scratch_req;
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

TR_API int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Wait(req, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Request before = *req;
  tr_enter(TR_MPI_Wait);
  int rc = PMPI_Wait(req, st);
  uint64_t t = tr_clock();
  if (rc == MPI_SUCCESS)
    tr_req_complete(before, st, t);
  tr_leave(TR_MPI_Wait, t);
  return rc;
}

TR_API int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
  if (!tr_active())
    return PMPI_Waitall(count, reqs, statuses);
  MPI_Request *before = save_handles(count, reqs);
  MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? tr.scratch_status : statuses;
  tr_enter(TR_MPI_Waitall);
  int rc = PMPI_Waitall(count, reqs, st);
  uint64_t t = tr_clock();
  for (int i = 0; i < count; i++)
    if (status_ok(rc, &st[i]))
      tr_req_complete(before[i], &st[i], t);
  tr_leave(TR_MPI_Waitall, t);
  return rc;
}

TR_API int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Waitany(count, reqs, index, status);
  MPI_Request *before = save_handles(count, reqs);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  tr_enter(TR_MPI_Waitany);
  int rc = PMPI_Waitany(count, reqs, index, st);
  uint64_t t = tr_clock();
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    tr_req_complete(before[*index], st, t);
  tr_leave(TR_MPI_Waitany, t);
  return rc;
}

/* Waitsome/Testsome: the completed ones, then (tests only) the rest. */
static void completed_some(int rc, int outcount, const int *indices, MPI_Status *st,
                           const MPI_Request *before, uint64_t t)
{
  if (rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS)
    return;
  for (int k = 0; k < outcount && outcount != MPI_UNDEFINED; k++)
    if (status_ok(rc, &st[k]))
      tr_req_complete(before[indices[k]], &st[k], t);
}

TR_API int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                        MPI_Status statuses[])
{
  if (!tr_active())
    return PMPI_Waitsome(incount, reqs, outcount, indices, statuses);
  MPI_Request *before = save_handles(incount, reqs);
  MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? tr.scratch_status : statuses;
  tr_enter(TR_MPI_Waitsome);
  int rc = PMPI_Waitsome(incount, reqs, outcount, indices, st);
  uint64_t t = tr_clock();
  completed_some(rc, *outcount, indices, st, before, t);
  tr_leave(TR_MPI_Waitsome, t);
  return rc;
}

TR_API int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Test(req, flag, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  MPI_Request before = *req;
  tr_enter(TR_MPI_Test);
  int rc = PMPI_Test(req, flag, st);
  uint64_t t = tr_clock();
  if (rc == MPI_SUCCESS && *flag)
    tr_req_complete(before, st, t);
  else if (rc == MPI_SUCCESS)
    tr_req_tested(before, t);
  tr_leave(TR_MPI_Test, t);
  return rc;
}

TR_API int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
  if (!tr_active())
    return PMPI_Testall(count, reqs, flag, statuses);
  MPI_Request *before = save_handles(count, reqs);
  MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? tr.scratch_status : statuses;
  tr_enter(TR_MPI_Testall);
  int rc = PMPI_Testall(count, reqs, flag, st);
  uint64_t t = tr_clock();
  if ((rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *flag) {
    for (int i = 0; i < count; i++)
      if (status_ok(rc, &st[i]))
        tr_req_complete(before[i], &st[i], t);
  } else if (rc == MPI_SUCCESS) {
    tested_all(count, before, t);
  }
  tr_leave(TR_MPI_Testall, t);
  return rc;
}

TR_API int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
  if (!tr_active())
    return PMPI_Testany(count, reqs, index, flag, status);
  MPI_Request *before = save_handles(count, reqs);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  tr_enter(TR_MPI_Testany);
  int rc = PMPI_Testany(count, reqs, index, flag, st);
  uint64_t t = tr_clock();
  if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
    tr_req_complete(before[*index], st, t);
  else if (rc == MPI_SUCCESS && !*flag)
    tested_all(count, before, t);
  tr_leave(TR_MPI_Testany, t);
  return rc;
}

TR_API int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                        MPI_Status statuses[])
{
  if (!tr_active())
    return PMPI_Testsome(incount, reqs, outcount, indices, statuses);
  MPI_Request *before = save_handles(incount, reqs);
  MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? tr.scratch_status : statuses;
  tr_enter(TR_MPI_Testsome);
  int rc = PMPI_Testsome(incount, reqs, outcount, indices, st);
  uint64_t t = tr_clock();
  completed_some(rc, *outcount, indices, st, before, t);
  if (rc == MPI_SUCCESS)
    tested_all(incount, before, t);  /* completed ones are no longer active */
  tr_leave(TR_MPI_Testsome, t);
  return rc;
}
