/* wrap-coll.c - collective wrappers, blocking and non-blocking.
 *
 * A blocking collective records Enter, MpiCollectiveBegin, (the call),
 * MpiCollectiveEnd {op, communicator, root, bytes sent, bytes received},
 * Leave; a non-blocking one records NonBlockingCollectiveRequest at the
 * call and NonBlockingCollectiveComplete with the same fields when a
 * Wait/Test completes it (requests.c). The root is a rank of the
 * communicator (OTF2_UNDEFINED_UINT32 for unrooted operations).
 *
 * Byte counts follow Score-P 8 (src/adapters/mpi/scorep_mpi_coll.inc.c),
 * P = communicator size, me = own rank, b = one block (count * type size):
 *   barrier          0 / 0
 *   bcast            root P*b / b, others 0 / b
 *   scatter          root P*b / b (in place (P-1)*b / 0), others 0 / b
 *   scatterv         root sum of blocks / own block (in place: minus own / 0), others 0 / b
 *   gather, reduce   root b / P*b (in place 0 / (P-1)*b), others b / 0
 *   gatherv          root own block / sum (in place 0 / sum minus own), others b / 0
 *   allgather,
 *   alltoall,
 *   allreduce,
 *   reduce_scatter_block  P*b / P*b (in place (P-1)*b both)
 *   allgatherv       P*b / sum of blocks (in place (P-1)*own / sum minus own)
 *   alltoallv/w      sum sent / sum received (in place: received minus own, both)
 *   reduce_scatter   sum of counts * size / P * own block (in place minus own / (P-1) * own)
 *   scan             (P-me)*b / (me+1)*b (in place (P-me-1)*b / me*b); exscan = scan in place
 * All arithmetic saturates at INT64_MAX instead of wrapping.
 */
#include "traces/tracer/tracer.h"
#include "util/checked.h"

typedef struct {
  OTF2_CollectiveOp op;
  uint32_t root;
  uint64_t sent, recvd;
} coll_rec;

/* Byte counts stay below INT64_MAX (saturated there), util/checked.h's rule. */
static uint64_t mul(uint64_t a, uint64_t b)
{
  int64_t r;
  return checked_mul_i64((int64_t)a, (int64_t)b, &r) ? (uint64_t)r : INT64_MAX;
}

static uint64_t add(uint64_t a, uint64_t b)
{
  return (uint64_t)saturating_add_i64((int64_t)a, (int64_t)b);
}

static uint64_t sub(uint64_t a, uint64_t b)
{
  return a > b ? a - b : 0;
}

static uint64_t sum_blocks(int P, const int counts[], MPI_Datatype type)
{
  uint64_t s = 0;
  for (int r = 0; r < P; r++)
    s = add(s, tr_bytes(counts[r], type));
  return s;
}

static coll_rec unrooted(OTF2_CollectiveOp op, uint64_t sent, uint64_t recvd)
{
  return (coll_rec){ op, OTF2_UNDEFINED_UINT32, sent, recvd };
}

/* One-to-all with block b at every rank (bcast, scatter). */
static coll_rec one_to_all(OTF2_CollectiveOp op, const tr_comm *c, int root, uint64_t b,
                           gboolean in_place)
{
  coll_rec cr = { op, (uint32_t)root, 0, b };
  if (c->my_rank == root) {
    cr.sent = mul((uint64_t)c->size - (in_place ? 1 : 0), b);
    cr.recvd = in_place ? 0 : b;
  }
  return cr;
}

/* All-to-one: `own` is what this rank sends, b the root's block. */
static coll_rec all_to_one(OTF2_CollectiveOp op, const tr_comm *c, int root, uint64_t own,
                           uint64_t b, gboolean in_place)
{
  coll_rec cr = { op, (uint32_t)root, own, 0 };
  if (c->my_rank == root) {
    cr.sent = in_place ? 0 : b;
    cr.recvd = mul((uint64_t)c->size - (in_place ? 1 : 0), b);
  }
  return cr;
}

/* Every rank exchanges b with every rank (allgather, alltoall, allreduce). */
static coll_rec all_to_all(OTF2_CollectiveOp op, const tr_comm *c, uint64_t send_b,
                           uint64_t recv_b, gboolean in_place)
{
  if (in_place) {
    uint64_t x = mul((uint64_t)c->size - 1, recv_b);
    return unrooted(op, x, x);
  }
  return unrooted(op, mul((uint64_t)c->size, send_b), mul((uint64_t)c->size, recv_b));
}

static coll_rec scan(OTF2_CollectiveOp op, const tr_comm *c, uint64_t b, gboolean in_place)
{
  uint64_t P = (uint64_t)c->size, me = (uint64_t)c->my_rank;
  if (in_place)
    return unrooted(op, mul(P - me - 1, b), mul(me, b));
  return unrooted(op, mul(P - me, b), mul(me + 1, b));
}

/* ---- recording --------------------------------------------------------- */

static void blocking_end(tr_region reg, tr_comm *c, const coll_rec *cr)
{
  uint64_t t = tr_clock();
  if (c)
    OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, cr->op, c->local_id, cr->root, cr->sent,
                                    cr->recvd);
  tr_leave(reg, t);
}

/* Enter, and CollectiveBegin when the communicator is traced. */
static tr_comm *blocking_begin(tr_region reg, MPI_Comm comm)
{
  uint64_t t = tr_enter(reg);
  tr_comm *c = tr_comm_find(comm);
  if (c)
    tr_rec_coll_begin(t);
  else
    tr.unknown_comm_ops++;
  return c;
}

static void nonblocking_end(tr_region reg, uint64_t t, tr_comm *c, const coll_rec *cr, int rc,
                            MPI_Request req)
{
  if (c && rc == MPI_SUCCESS) {
    tr_req *r = tr_req_new(req, TR_REQ_COLL, c->local_id);
    r->op = (uint8_t)cr->op;
    r->root = cr->root;
    r->bytes = cr->sent;
    r->recvd = cr->recvd;
    OTF2_EvtWriter_NonBlockingCollectiveRequest(tr.evt, NULL, t, r->id);
  }
  tr_leave(reg, tr_clock());
}

static tr_comm *nonblocking_begin(tr_region reg, MPI_Comm comm, uint64_t *t)
{
  *t = tr_enter(reg);
  tr_comm *c = tr_comm_find(comm);
  if (c == NULL)
    tr.unknown_comm_ops++;
  return c;
}

/* The body of every wrapper: `rec` computes the record from the arguments
 * (only when the communicator is traced), `call` is the PMPI call. */
#define BLOCKING(fn, rec, call)                     \
  if (!tr_active())                                 \
    return call;                                    \
  tr_comm *c = blocking_begin(TR_MPI_##fn, comm);   \
  coll_rec cr = { 0 };                              \
  if (c)                                            \
    cr = rec;                                       \
  int rc = call;                                    \
  blocking_end(TR_MPI_##fn, c, &cr);               \
  return rc

#define NONBLOCKING(fn, rec, call)                            \
  if (!tr_active())                                           \
    return call;                                              \
  uint64_t t;                                                 \
  tr_comm *c = nonblocking_begin(TR_MPI_##fn, comm, &t);      \
  coll_rec cr = { 0 };                                        \
  if (c)                                                      \
    cr = rec;                                                 \
  int rc = call;                                              \
  nonblocking_end(TR_MPI_##fn, t, c, &cr, rc, *req);          \
  return rc

#define IN_PLACE(buf) ((buf) == MPI_IN_PLACE)

/* ---- the operations: record of each, shared by both forms --------------- */

static coll_rec rec_bcast(const tr_comm *c, int count, MPI_Datatype type, int root)
{
  return one_to_all(OTF2_COLLECTIVE_OP_BCAST, c, root, tr_bytes(count, type), FALSE);
}

static coll_rec rec_scatter(const tr_comm *c, const void *recvbuf, int sendcount,
                            MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root)
{
  gboolean root_me = c->my_rank == root;
  uint64_t b = root_me ? tr_bytes(sendcount, sendtype) : tr_bytes(recvcount, recvtype);
  return one_to_all(OTF2_COLLECTIVE_OP_SCATTER, c, root, b, root_me && IN_PLACE(recvbuf));
}

static coll_rec rec_gather(const tr_comm *c, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root)
{
  gboolean root_me = c->my_rank == root;
  return all_to_one(OTF2_COLLECTIVE_OP_GATHER, c, root, tr_bytes(sendcount, sendtype),
                    root_me ? tr_bytes(recvcount, recvtype) : 0, root_me && IN_PLACE(sendbuf));
}

/* Gatherv at every rank: `own` is what a non-root sends; the root receives
 * the blocks of `counts` (without its own when in place). */
static coll_rec rec_gatherv(const tr_comm *c, const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype,
                            int root)
{
  coll_rec cr = { OTF2_COLLECTIVE_OP_GATHERV, (uint32_t)root, tr_bytes(sendcount, sendtype), 0 };
  if (c->my_rank == root) {
    uint64_t own = tr_bytes(recvcounts[root], recvtype);
    gboolean in_place = IN_PLACE(sendbuf);
    cr.recvd = sub(sum_blocks(c->size, recvcounts, recvtype), in_place ? own : 0);
    cr.sent = in_place ? 0 : own;
  }
  return cr;
}

/* Scatterv is gatherv with the directions exchanged (as Score-P counts it). */
static coll_rec rec_scatterv(const tr_comm *c, const void *recvbuf, const int sendcounts[],
                             MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                             int root)
{
  coll_rec g = rec_gatherv(c, recvbuf, recvcount, recvtype, sendcounts, sendtype, root);
  return (coll_rec){ OTF2_COLLECTIVE_OP_SCATTERV, g.root, g.recvd, g.sent };
}

static coll_rec rec_reduce(const tr_comm *c, const void *sendbuf, int count, MPI_Datatype type,
                           int root)
{
  uint64_t b = tr_bytes(count, type);
  return all_to_one(OTF2_COLLECTIVE_OP_REDUCE, c, root, b, b,
                    c->my_rank == root && IN_PLACE(sendbuf));
}

static coll_rec rec_allgatherv(const tr_comm *c, const void *sendbuf, int sendcount,
                               MPI_Datatype sendtype, const int recvcounts[],
                               MPI_Datatype recvtype)
{
  uint64_t all = sum_blocks(c->size, recvcounts, recvtype);
  if (IN_PLACE(sendbuf)) {
    uint64_t own = tr_bytes(recvcounts[c->my_rank], recvtype);
    return unrooted(OTF2_COLLECTIVE_OP_ALLGATHERV, mul((uint64_t)c->size - 1, own), sub(all, own));
  }
  return unrooted(OTF2_COLLECTIVE_OP_ALLGATHERV,
                  mul((uint64_t)c->size, tr_bytes(sendcount, sendtype)), all);
}

static coll_rec rec_alltoallv(const tr_comm *c, const void *sendbuf, const int sendcounts[],
                              MPI_Datatype sendtype, const int recvcounts[],
                              MPI_Datatype recvtype)
{
  uint64_t recvd = sum_blocks(c->size, recvcounts, recvtype);
  if (IN_PLACE(sendbuf)) {
    recvd = sub(recvd, tr_bytes(recvcounts[c->my_rank], recvtype));
    return unrooted(OTF2_COLLECTIVE_OP_ALLTOALLV, recvd, recvd);
  }
  return unrooted(OTF2_COLLECTIVE_OP_ALLTOALLV, sum_blocks(c->size, sendcounts, sendtype), recvd);
}

static coll_rec rec_alltoallw(const tr_comm *c, const void *sendbuf, const int sendcounts[],
                              const MPI_Datatype sendtypes[], const int recvcounts[],
                              const MPI_Datatype recvtypes[])
{
  uint64_t sent = 0, recvd = 0;
  for (int r = 0; r < c->size; r++) {
    recvd = add(recvd, tr_bytes(recvcounts[r], recvtypes[r]));
    if (!IN_PLACE(sendbuf))
      sent = add(sent, tr_bytes(sendcounts[r], sendtypes[r]));
  }
  if (IN_PLACE(sendbuf)) {
    recvd = sub(recvd, tr_bytes(recvcounts[c->my_rank], recvtypes[c->my_rank]));
    sent = recvd;
  }
  return unrooted(OTF2_COLLECTIVE_OP_ALLTOALLW, sent, recvd);
}

static coll_rec rec_reduce_scatter(const tr_comm *c, const void *sendbuf, const int recvcounts[],
                                   MPI_Datatype type)
{
  uint64_t all = sum_blocks(c->size, recvcounts, type);
  uint64_t own = tr_bytes(recvcounts[c->my_rank], type);
  if (IN_PLACE(sendbuf))
    return unrooted(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, sub(all, own),
                    mul((uint64_t)c->size - 1, own));
  return unrooted(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, all, mul((uint64_t)c->size, own));
}

/* ---- blocking ---------------------------------------------------------- */

TR_API int MPI_Barrier(MPI_Comm comm)
{
  BLOCKING(Barrier, unrooted(OTF2_COLLECTIVE_OP_BARRIER, 0, 0), PMPI_Barrier(comm));
}

TR_API int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  BLOCKING(Bcast, rec_bcast(c, count, type, root), PMPI_Bcast(buf, count, type, root, comm));
}

TR_API int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  BLOCKING(Scatter, rec_scatter(c, recvbuf, sendcount, sendtype, recvcount, recvtype, root),
           PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

TR_API int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  BLOCKING(Scatterv, rec_scatterv(c, recvbuf, sendcounts, sendtype, recvcount, recvtype, root),
           PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                         root, comm));
}

TR_API int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  BLOCKING(Gather, rec_gather(c, sendbuf, sendcount, sendtype, recvcount, recvtype, root),
           PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

TR_API int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       int root, MPI_Comm comm)
{
  BLOCKING(Gatherv, rec_gatherv(c, sendbuf, sendcount, sendtype, recvcounts, recvtype, root),
           PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                        root, comm));
}

TR_API int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                      int root, MPI_Comm comm)
{
  BLOCKING(Reduce, rec_reduce(c, sendbuf, count, type, root),
           PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

TR_API int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  BLOCKING(Allgather,
           all_to_all(OTF2_COLLECTIVE_OP_ALLGATHER, c, tr_bytes(sendcount, sendtype),
                      tr_bytes(recvcount, recvtype), IN_PLACE(sendbuf)),
           PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

TR_API int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, MPI_Comm comm)
{
  BLOCKING(Allgatherv, rec_allgatherv(c, sendbuf, sendcount, sendtype, recvcounts, recvtype),
           PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm));
}

TR_API int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  BLOCKING(Alltoall,
           all_to_all(OTF2_COLLECTIVE_OP_ALLTOALL, c, tr_bytes(sendcount, sendtype),
                      tr_bytes(recvcount, recvtype), IN_PLACE(sendbuf)),
           PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

TR_API int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  BLOCKING(Alltoallv, rec_alltoallv(c, sendbuf, sendcounts, sendtype, recvcounts, recvtype),
           PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm));
}

TR_API int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  BLOCKING(Alltoallw, rec_alltoallw(c, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes),
           PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                          recvtypes, comm));
}

TR_API int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm)
{
  BLOCKING(Allreduce,
           all_to_all(OTF2_COLLECTIVE_OP_ALLREDUCE, c, tr_bytes(count, type),
                      tr_bytes(count, type), IN_PLACE(sendbuf)),
           PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

TR_API int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  BLOCKING(Reduce_scatter, rec_reduce_scatter(c, sendbuf, recvcounts, type),
           PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm));
}

TR_API int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  BLOCKING(Reduce_scatter_block,
           all_to_all(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, c, tr_bytes(recvcount, type),
                      tr_bytes(recvcount, type), IN_PLACE(sendbuf)),
           PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm));
}

TR_API int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm)
{
  BLOCKING(Scan, scan(OTF2_COLLECTIVE_OP_SCAN, c, tr_bytes(count, type), IN_PLACE(sendbuf)),
           PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
}

TR_API int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                      MPI_Comm comm)
{
  BLOCKING(Exscan, scan(OTF2_COLLECTIVE_OP_EXSCAN, c, tr_bytes(count, type), TRUE),
           PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm));
}

/* ---- non-blocking ------------------------------------------------------ */

TR_API int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Ibarrier, unrooted(OTF2_COLLECTIVE_OP_BARRIER, 0, 0), PMPI_Ibarrier(comm, req));
}

TR_API int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                      MPI_Request *req)
{
  NONBLOCKING(Ibcast, rec_bcast(c, count, type, root),
              PMPI_Ibcast(buf, count, type, root, comm, req));
}

TR_API int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        MPI_Request *req)
{
  NONBLOCKING(Iscatter, rec_scatter(c, recvbuf, sendcount, sendtype, recvcount, recvtype, root),
              PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, req));
}

TR_API int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Iscatterv,
              rec_scatterv(c, recvbuf, sendcounts, sendtype, recvcount, recvtype, root),
              PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                             root, comm, req));
}

TR_API int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *req)
{
  NONBLOCKING(Igather, rec_gather(c, sendbuf, sendcount, sendtype, recvcount, recvtype, root),
              PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           comm, req));
}

TR_API int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        int root, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Igatherv,
              rec_gatherv(c, sendbuf, sendcount, sendtype, recvcounts, recvtype, root),
              PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            root, comm, req));
}

TR_API int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Ireduce, rec_reduce(c, sendbuf, count, type, root),
              PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, req));
}

TR_API int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *req)
{
  NONBLOCKING(Iallgather,
              all_to_all(OTF2_COLLECTIVE_OP_ALLGATHER, c, tr_bytes(sendcount, sendtype),
                         tr_bytes(recvcount, recvtype), IN_PLACE(sendbuf)),
              PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              req));
}

TR_API int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Iallgatherv,
              rec_allgatherv(c, sendbuf, sendcount, sendtype, recvcounts, recvtype),
              PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, comm, req));
}

TR_API int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Ialltoall,
              all_to_all(OTF2_COLLECTIVE_OP_ALLTOALL, c, tr_bytes(sendcount, sendtype),
                         tr_bytes(recvcount, recvtype), IN_PLACE(sendbuf)),
              PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             req));
}

TR_API int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *req)
{
  NONBLOCKING(Ialltoallv,
              rec_alltoallv(c, sendbuf, sendcounts, sendtype, recvcounts, recvtype),
              PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm, req));
}

TR_API int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                          const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                          MPI_Request *req)
{
  NONBLOCKING(Ialltoallw,
              rec_alltoallw(c, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes),
              PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                              rdispls, recvtypes, comm, req));
}

TR_API int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Iallreduce,
              all_to_all(OTF2_COLLECTIVE_OP_ALLREDUCE, c, tr_bytes(count, type),
                         tr_bytes(count, type), IN_PLACE(sendbuf)),
              PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, req));
}

TR_API int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                               MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Ireduce_scatter, rec_reduce_scatter(c, sendbuf, recvcounts, type),
              PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, req));
}

TR_API int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                     MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                     MPI_Request *req)
{
  NONBLOCKING(Ireduce_scatter_block,
              all_to_all(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, c, tr_bytes(recvcount, type),
                         tr_bytes(recvcount, type), IN_PLACE(sendbuf)),
              PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, req));
}

TR_API int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Iscan, scan(OTF2_COLLECTIVE_OP_SCAN, c, tr_bytes(count, type), IN_PLACE(sendbuf)),
              PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, req));
}

TR_API int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
  NONBLOCKING(Iexscan, scan(OTF2_COLLECTIVE_OP_EXSCAN, c, tr_bytes(count, type), TRUE),
              PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, req));
}
