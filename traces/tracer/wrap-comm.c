/* wrap-comm.c - what communicator management records (the wrappers, C
 * and Fortran, are generated from calls.tbl).
 *
 * Every call that creates a communicator registers it (comms.c) and, as
 * Score-P does, records a collective of op CREATE_HANDLE around it on the
 * communicator the call is collective over (the parent, or the new one
 * for MPI_Comm_create_group); MPI_Comm_free records DESTROY_HANDLE on the
 * communicator it frees. Readers treat both as local operations.
 * Intercommunicators are not traced: operations on them are counted and
 * reported at MPI_Finalize.
 */
#include "traces/tracer/hooks.h"

/* Enter + CollectiveBegin. */
uint64_t tr_create_begin(tr_region reg)
{
  uint64_t t = tr_enter(reg);
  tr_rec_coll_begin(t);
  return t;
}

/* A local end on MPI_COMM_SELF keeps Begin/End paired where the
 * communicator is not traced. */
static uint32_t comm_or_self(tr_comm *c)
{
  return c ? c->local_id : tr_comm_find(MPI_COMM_SELF)->local_id;
}

void tr_create_end(tr_region reg, uint64_t t0, int rc, MPI_Comm parent, MPI_Comm over,
                   MPI_Comm *newcomm)
{
  if (rc == MPI_SUCCESS)
    tr_comm_created(parent, *newcomm);
  uint64_t t = MAX(t0, tr_clock());
  tr_comm *c = over == MPI_COMM_NULL ? NULL : tr_comm_find(over);
  OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                  comm_or_self(c), OTF2_UNDEFINED_UINT32, 0, 0);
  tr_leave(reg, t);
}

/* The key is agreed on the parent at the call: the new handle is not usable
 * before the request completes. */
void tr_post_comm_idup(tr_region reg, uint64_t t, int rc, MPI_Comm comm, MPI_Comm *newcomm,
                       MPI_Request *req)
{
  if (rc == MPI_SUCCESS)
    tr_comm_created_on_parent(comm, *newcomm);
  tr_leave(reg, MAX(t, tr_clock()));
}

uint64_t tr_pre_comm_free(tr_region reg, MPI_Comm *comm)
{
  uint64_t t = tr_create_begin(reg);
  OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                                  comm_or_self(tr_comm_find(*comm)), OTF2_UNDEFINED_UINT32, 0, 0);
  tr_comm_freed(*comm);
  return t;
}

void tr_post_comm_set_name(tr_region reg, uint64_t t, int rc, MPI_Comm comm, const char *name)
{
  tr_comm *c = tr_comm_find(comm);
  if (rc == MPI_SUCCESS && c && name)
    g_strlcpy(c->name, name, sizeof c->name);
  tr_leave(reg, MAX(t, tr_clock()));
}
