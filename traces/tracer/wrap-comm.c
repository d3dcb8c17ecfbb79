/* wrap-comm.c - communicator management wrappers.
 *
 * Every call that creates a communicator registers it (comms.c) and, as
 * Score-P does, records a collective of op CREATE_HANDLE around it on the
 * communicator the call is collective over (the parent, or the new one
 * for MPI_Comm_create_group); MPI_Comm_free records DESTROY_HANDLE on the
 * communicator it frees. Readers treat both as local operations.
 * Intercommunicators are not traced: operations on them are counted and
 * reported at MPI_Finalize.
 */
#include "traces/tracer/tracer.h"

/* Enter + CollectiveBegin. */
static uint64_t create_begin(tr_region reg)
{
  uint64_t t = tr_enter(reg);
  tr_rec_coll_begin(t);
  return t;
}

/* Registers the new communicator, then CollectiveEnd on `over` + Leave. */
static void create_end(tr_region reg, int rc, MPI_Comm parent, MPI_Comm over, MPI_Comm *newcomm)
{
  if (rc == MPI_SUCCESS)
    tr_comm_created(parent, *newcomm);
  uint64_t t = tr_clock();
  tr_comm *c = over == MPI_COMM_NULL ? NULL : tr_comm_find(over);
  if (c)
    OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                    c->local_id, OTF2_UNDEFINED_UINT32, 0, 0);
  else  /* keep Begin/End paired: a local end on MPI_COMM_SELF */
    OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                    tr_comm_find(MPI_COMM_SELF)->local_id, OTF2_UNDEFINED_UINT32,
                                    0, 0);
  tr_leave(reg, t);
}

#define CREATE(fn, parent, over, call)          \
  if (!tr_active())                             \
    return call;                                \
  create_begin(TR_MPI_##fn);                    \
  int rc = call;                                \
  create_end(TR_MPI_##fn, rc, parent, over, newcomm); \
  return rc

TR_API int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
  CREATE(Comm_dup, comm, comm, PMPI_Comm_dup(comm, newcomm));
}

TR_API int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
  CREATE(Comm_dup_with_info, comm, comm, PMPI_Comm_dup_with_info(comm, info, newcomm));
}

TR_API int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
  CREATE(Comm_split, comm, comm, PMPI_Comm_split(comm, color, key, newcomm));
}

TR_API int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info,
                               MPI_Comm *newcomm)
{
  CREATE(Comm_split_type, comm, comm, PMPI_Comm_split_type(comm, type, key, info, newcomm));
}

TR_API int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
  CREATE(Comm_create, comm, comm, PMPI_Comm_create(comm, group, newcomm));
}

TR_API int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
  CREATE(Comm_create_group, comm, *newcomm, PMPI_Comm_create_group(comm, group, tag, newcomm));
}

TR_API int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[],
                           int reorder, MPI_Comm *newcomm)
{
  CREATE(Cart_create, comm, comm, PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm));
}

TR_API int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
  CREATE(Cart_sub, comm, comm, PMPI_Cart_sub(comm, remain_dims, newcomm));
}

TR_API int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                            int reorder, MPI_Comm *newcomm)
{
  CREATE(Graph_create, comm, comm, PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm));
}

TR_API int MPI_Dist_graph_create(MPI_Comm comm, int n, const int nodes[], const int degrees[],
                                 const int targets[], const int weights[], MPI_Info info,
                                 int reorder, MPI_Comm *newcomm)
{
  CREATE(Dist_graph_create, comm, comm,
         PMPI_Dist_graph_create(comm, n, nodes, degrees, targets, weights, info, reorder, newcomm));
}

TR_API int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                          const int sourceweights[], int outdegree,
                                          const int destinations[], const int destweights[],
                                          MPI_Info info, int reorder, MPI_Comm *newcomm)
{
  CREATE(Dist_graph_create_adjacent, comm, comm,
         PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                         destinations, destweights, info, reorder, newcomm));
}

/* The key is agreed on the parent at the call: the new handle is not usable
 * before the request completes. */
TR_API int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
  if (!tr_active())
    return PMPI_Comm_idup(comm, newcomm, req);
  uint64_t t = tr_enter(TR_MPI_Comm_idup);
  int rc = PMPI_Comm_idup(comm, newcomm, req);
  if (rc == MPI_SUCCESS)
    tr_comm_created_on_parent(comm, *newcomm);
  tr_leave(TR_MPI_Comm_idup, MAX(t, tr_clock()));
  return rc;
}

TR_API int MPI_Comm_free(MPI_Comm *comm)
{
  if (!tr_active())
    return PMPI_Comm_free(comm);
  uint64_t t = create_begin(TR_MPI_Comm_free);
  tr_comm *c = tr_comm_find(*comm);
  OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                                  c ? c->local_id : tr_comm_find(MPI_COMM_SELF)->local_id,
                                  OTF2_UNDEFINED_UINT32, 0, 0);
  tr_comm_freed(*comm);
  int rc = PMPI_Comm_free(comm);
  tr_leave(TR_MPI_Comm_free, tr_clock());
  return rc;
}

TR_API int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
  if (!tr_active())
    return PMPI_Comm_set_name(comm, name);
  tr_enter(TR_MPI_Comm_set_name);
  int rc = PMPI_Comm_set_name(comm, name);
  tr_comm *c = tr_comm_find(comm);
  if (rc == MPI_SUCCESS && c && name)
    g_strlcpy(c->name, name, sizeof c->name);
  tr_leave(TR_MPI_Comm_set_name, tr_clock());
  return rc;
}
