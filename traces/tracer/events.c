/* events.c - the OTF2 records every wrapper shares: Enter/Leave, blocking
 * sends and receives, collective begin/end, and the byte counts they
 * carry. Peers and roots are ranks of the communicator, as OTF2 defines
 * them; sends to and receives from MPI_PROC_NULL are not messages and are
 * not recorded. Each record is one OTF2 buffer write, no allocation.
 */
#include "traces/tracer/tracer.h"
#include "util/checked.h"

uint64_t tr_enter(tr_region r)
{
  uint64_t t = tr_clock();
  OTF2_EvtWriter_Enter(tr.evt, NULL, t, (OTF2_RegionRef)r);
  return t;
}

void tr_leave(tr_region r, uint64_t t)
{
  OTF2_EvtWriter_Leave(tr.evt, NULL, t, (OTF2_RegionRef)r);
  tr.last = t;
}

uint64_t tr_bytes(int64_t count, MPI_Datatype type)
{
  MPI_Count size = 0;
  if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size_x(type, &size) != MPI_SUCCESS ||
      size <= 0)
    return 0;
  int64_t bytes;
  return checked_mul_i64(count, (int64_t)size, &bytes) ? (uint64_t)bytes : INT64_MAX;
}

uint64_t tr_status_bytes(const MPI_Status *st)
{
  MPI_Count n = 0;
  if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
    return 0;
  return (uint64_t)n;
}

void tr_rec_send(uint64_t t, tr_comm *c, int dest, int tag, uint64_t bytes)
{
  if (dest == MPI_PROC_NULL)
    return;
  if (c == NULL) {
    tr.unknown_comm_ops++;
    return;
  }
  OTF2_EvtWriter_MpiSend(tr.evt, NULL, t, (uint32_t)dest, c->local_id, (uint32_t)tag, bytes);
}

void tr_rec_recv(uint64_t t, tr_comm *c, const MPI_Status *st)
{
  if (st->MPI_SOURCE == MPI_PROC_NULL)
    return;
  if (c == NULL) {
    tr.unknown_comm_ops++;
    return;
  }
  OTF2_EvtWriter_MpiRecv(tr.evt, NULL, t, (uint32_t)st->MPI_SOURCE, c->local_id,
                         (uint32_t)st->MPI_TAG, tr_status_bytes(st));
}

void tr_rec_coll_begin(uint64_t t)
{
  OTF2_EvtWriter_MpiCollectiveBegin(tr.evt, NULL, t);
}
