/* regions.h - the MPI functions libmapsim-trace wraps, one row each:
 * {function, OTF2 region role}. The region id of a function is its row
 * (enum TR_<function>); the archive's region definitions, the wrappers'
 * Enter/Leave records and the documentation list all come from this table.
 * Roles follow Score-P: point-to-point calls POINT2POINT, rooted
 * collectives ONE2ALL/ALL2ONE, the others ALL2ALL, BARRIER or COLL_OTHER.
 * Not for: what a wrapper records besides Enter/Leave (wrap-*.c).
 */
#pragma once

#define TR_REGIONS(X)                                       \
  X(MPI_Init, FUNCTION)                                     \
  X(MPI_Init_thread, FUNCTION)                              \
  X(MPI_Finalize, FUNCTION)                                 \
  X(MPI_Send, POINT2POINT)                                  \
  X(MPI_Bsend, POINT2POINT)                                 \
  X(MPI_Ssend, POINT2POINT)                                 \
  X(MPI_Rsend, POINT2POINT)                                 \
  X(MPI_Recv, POINT2POINT)                                  \
  X(MPI_Sendrecv, POINT2POINT)                              \
  X(MPI_Sendrecv_replace, POINT2POINT)                      \
  X(MPI_Probe, POINT2POINT)                                 \
  X(MPI_Iprobe, POINT2POINT)                                \
  X(MPI_Isend, POINT2POINT)                                 \
  X(MPI_Ibsend, POINT2POINT)                                \
  X(MPI_Issend, POINT2POINT)                                \
  X(MPI_Irsend, POINT2POINT)                                \
  X(MPI_Irecv, POINT2POINT)                                 \
  X(MPI_Send_init, POINT2POINT)                             \
  X(MPI_Bsend_init, POINT2POINT)                            \
  X(MPI_Ssend_init, POINT2POINT)                            \
  X(MPI_Rsend_init, POINT2POINT)                            \
  X(MPI_Recv_init, POINT2POINT)                             \
  X(MPI_Start, POINT2POINT)                                 \
  X(MPI_Startall, POINT2POINT)                              \
  X(MPI_Request_free, POINT2POINT)                          \
  X(MPI_Cancel, POINT2POINT)                                \
  X(MPI_Wait, POINT2POINT)                                  \
  X(MPI_Waitall, POINT2POINT)                               \
  X(MPI_Waitany, POINT2POINT)                               \
  X(MPI_Waitsome, POINT2POINT)                              \
  X(MPI_Test, POINT2POINT)                                  \
  X(MPI_Testall, POINT2POINT)                               \
  X(MPI_Testany, POINT2POINT)                               \
  X(MPI_Testsome, POINT2POINT)                              \
  X(MPI_Barrier, BARRIER)                                   \
  X(MPI_Bcast, COLL_ONE2ALL)                                \
  X(MPI_Gather, COLL_ALL2ONE)                               \
  X(MPI_Gatherv, COLL_ALL2ONE)                              \
  X(MPI_Scatter, COLL_ONE2ALL)                              \
  X(MPI_Scatterv, COLL_ONE2ALL)                             \
  X(MPI_Allgather, COLL_ALL2ALL)                            \
  X(MPI_Allgatherv, COLL_ALL2ALL)                           \
  X(MPI_Alltoall, COLL_ALL2ALL)                             \
  X(MPI_Alltoallv, COLL_ALL2ALL)                            \
  X(MPI_Alltoallw, COLL_ALL2ALL)                            \
  X(MPI_Allreduce, COLL_ALL2ALL)                            \
  X(MPI_Reduce, COLL_ALL2ONE)                               \
  X(MPI_Reduce_scatter, COLL_ALL2ALL)                       \
  X(MPI_Reduce_scatter_block, COLL_ALL2ALL)                 \
  X(MPI_Scan, COLL_OTHER)                                   \
  X(MPI_Exscan, COLL_OTHER)                                 \
  X(MPI_Ibarrier, BARRIER)                                  \
  X(MPI_Ibcast, COLL_ONE2ALL)                               \
  X(MPI_Igather, COLL_ALL2ONE)                              \
  X(MPI_Igatherv, COLL_ALL2ONE)                             \
  X(MPI_Iscatter, COLL_ONE2ALL)                             \
  X(MPI_Iscatterv, COLL_ONE2ALL)                            \
  X(MPI_Iallgather, COLL_ALL2ALL)                           \
  X(MPI_Iallgatherv, COLL_ALL2ALL)                          \
  X(MPI_Ialltoall, COLL_ALL2ALL)                            \
  X(MPI_Ialltoallv, COLL_ALL2ALL)                           \
  X(MPI_Ialltoallw, COLL_ALL2ALL)                           \
  X(MPI_Iallreduce, COLL_ALL2ALL)                           \
  X(MPI_Ireduce, COLL_ALL2ONE)                              \
  X(MPI_Ireduce_scatter, COLL_ALL2ALL)                      \
  X(MPI_Ireduce_scatter_block, COLL_ALL2ALL)                \
  X(MPI_Iscan, COLL_OTHER)                                  \
  X(MPI_Iexscan, COLL_OTHER)                                \
  X(MPI_Comm_dup, FUNCTION)                                 \
  X(MPI_Comm_dup_with_info, FUNCTION)                       \
  X(MPI_Comm_idup, FUNCTION)                                \
  X(MPI_Comm_split, FUNCTION)                               \
  X(MPI_Comm_split_type, FUNCTION)                          \
  X(MPI_Comm_create, FUNCTION)                              \
  X(MPI_Comm_create_group, FUNCTION)                        \
  X(MPI_Cart_create, FUNCTION)                              \
  X(MPI_Cart_sub, FUNCTION)                                 \
  X(MPI_Graph_create, FUNCTION)                             \
  X(MPI_Dist_graph_create, FUNCTION)                        \
  X(MPI_Dist_graph_create_adjacent, FUNCTION)               \
  X(MPI_Comm_free, FUNCTION)                                \
  X(MPI_Comm_set_name, FUNCTION)

typedef enum {
#define TR_REGION_ENUM(fn, role) TR_##fn,
  TR_REGIONS(TR_REGION_ENUM)
#undef TR_REGION_ENUM
  TR_NREGIONS
} tr_region;
