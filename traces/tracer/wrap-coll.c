/* wrap-coll.c - what collective calls record, blocking and non-blocking
 * (the wrappers, C and Fortran, are generated from calls.tbl: they call
 * tr_coll_begin, the operation's tr_rec_OP and tr_coll_end).
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
#include "traces/tracer/hooks.h"
#include "util/checked.h"

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

uint64_t tr_coll_begin(tr_region reg, MPI_Comm comm, int nonblocking, tr_comm **c)
{
  uint64_t t = tr_enter(reg);
  *c = tr_comm_find(comm);
  if (*c == NULL)
    tr.unknown_comm_ops++;
  else if (!nonblocking)
    tr_rec_coll_begin(t);
  return t;
}

void tr_coll_end(tr_region reg, uint64_t t0, tr_comm *c, const coll_rec *cr, int rc,
                 MPI_Request req, int nonblocking)
{
  uint64_t t = MAX(t0, tr_clock());
  if (c && nonblocking && rc == MPI_SUCCESS) {
    tr_req *r = tr_req_new(req, TR_REQ_COLL, c->local_id);
    r->op = (uint8_t)cr->op;
    r->root = cr->root;
    r->bytes = cr->sent;
    r->recvd = cr->recvd;
    OTF2_EvtWriter_NonBlockingCollectiveRequest(tr.evt, NULL, t0, r->id);
  } else if (c && !nonblocking) {
    OTF2_EvtWriter_MpiCollectiveEnd(tr.evt, NULL, t, cr->op, c->local_id, cr->root, cr->sent,
                                    cr->recvd);
  }
  tr_leave(reg, t);
}

#define IN_PLACE(buf) ((buf) == MPI_IN_PLACE)

/* ---- the operations: the record of each, shared by both forms ----------- */

coll_rec tr_rec_barrier(const tr_comm *c, MPI_Comm comm)
{
  return unrooted(OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
}

coll_rec tr_rec_bcast(const tr_comm *c, void *buf, int count, MPI_Datatype type, int root,
                      MPI_Comm comm)
{
  return one_to_all(OTF2_COLLECTIVE_OP_BCAST, c, root, tr_bytes(count, type), FALSE);
}

coll_rec tr_rec_scatter(const tr_comm *c, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int root, MPI_Comm comm)
{
  gboolean root_me = c->my_rank == root;
  uint64_t b = root_me ? tr_bytes(sendcount, sendtype) : tr_bytes(recvcount, recvtype);
  return one_to_all(OTF2_COLLECTIVE_OP_SCATTER, c, root, b, root_me && IN_PLACE(recvbuf));
}

coll_rec tr_rec_gather(const tr_comm *c, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm)
{
  gboolean root_me = c->my_rank == root;
  return all_to_one(OTF2_COLLECTIVE_OP_GATHER, c, root, tr_bytes(sendcount, sendtype),
                    root_me ? tr_bytes(recvcount, recvtype) : 0, root_me && IN_PLACE(sendbuf));
}

/* Gatherv at every rank: `own` is what a non-root sends; the root receives
 * the blocks of `counts` (without its own when in place). */
static coll_rec gatherv(const tr_comm *c, const void *sendbuf, int sendcount,
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

coll_rec tr_rec_gatherv(const tr_comm *c, const void *sendbuf, int sendcount,
                        MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                        const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  return gatherv(c, sendbuf, sendcount, sendtype, recvcounts, recvtype, root);
}

/* Scatterv is gatherv with the directions exchanged (as Score-P counts it). */
coll_rec tr_rec_scatterv(const tr_comm *c, const void *sendbuf, const int *sendcounts,
                         const int *displs, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  coll_rec g = gatherv(c, recvbuf, recvcount, recvtype, sendcounts, sendtype, root);
  return (coll_rec){ OTF2_COLLECTIVE_OP_SCATTERV, g.root, g.recvd, g.sent };
}

coll_rec tr_rec_reduce(const tr_comm *c, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
  uint64_t b = tr_bytes(count, type);
  return all_to_one(OTF2_COLLECTIVE_OP_REDUCE, c, root, b, b,
                    c->my_rank == root && IN_PLACE(sendbuf));
}

coll_rec tr_rec_allgather(const tr_comm *c, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm)
{
  return all_to_all(OTF2_COLLECTIVE_OP_ALLGATHER, c, tr_bytes(sendcount, sendtype),
                    tr_bytes(recvcount, recvtype), IN_PLACE(sendbuf));
}

coll_rec tr_rec_allgatherv(const tr_comm *c, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                           const int *displs, MPI_Datatype recvtype, MPI_Comm comm)
{
  uint64_t all = sum_blocks(c->size, recvcounts, recvtype);
  if (IN_PLACE(sendbuf)) {
    uint64_t own = tr_bytes(recvcounts[c->my_rank], recvtype);
    return unrooted(OTF2_COLLECTIVE_OP_ALLGATHERV, mul((uint64_t)c->size - 1, own), sub(all, own));
  }
  return unrooted(OTF2_COLLECTIVE_OP_ALLGATHERV,
                  mul((uint64_t)c->size, tr_bytes(sendcount, sendtype)), all);
}

coll_rec tr_rec_alltoall(const tr_comm *c, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
  return all_to_all(OTF2_COLLECTIVE_OP_ALLTOALL, c, tr_bytes(sendcount, sendtype),
                    tr_bytes(recvcount, recvtype), IN_PLACE(sendbuf));
}

coll_rec tr_rec_alltoallv(const tr_comm *c, const void *sendbuf, const int *sendcounts,
                          const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                          const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                          MPI_Comm comm)
{
  uint64_t recvd = sum_blocks(c->size, recvcounts, recvtype);
  if (IN_PLACE(sendbuf)) {
    recvd = sub(recvd, tr_bytes(recvcounts[c->my_rank], recvtype));
    return unrooted(OTF2_COLLECTIVE_OP_ALLTOALLV, recvd, recvd);
  }
  return unrooted(OTF2_COLLECTIVE_OP_ALLTOALLV, sum_blocks(c->size, sendcounts, sendtype), recvd);
}

coll_rec tr_rec_alltoallw(const tr_comm *c, const void *sendbuf, const int *sendcounts,
                          const int *sdispls, const MPI_Datatype *sendtypes, void *recvbuf,
                          const int *recvcounts, const int *rdispls,
                          const MPI_Datatype *recvtypes, MPI_Comm comm)
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

coll_rec tr_rec_allreduce(const tr_comm *c, const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return all_to_all(OTF2_COLLECTIVE_OP_ALLREDUCE, c, tr_bytes(count, type), tr_bytes(count, type),
                    IN_PLACE(sendbuf));
}

coll_rec tr_rec_reduce_scatter(const tr_comm *c, const void *sendbuf, void *recvbuf,
                               const int *recvcounts, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  uint64_t all = sum_blocks(c->size, recvcounts, type);
  uint64_t own = tr_bytes(recvcounts[c->my_rank], type);
  if (IN_PLACE(sendbuf))
    return unrooted(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, sub(all, own),
                    mul((uint64_t)c->size - 1, own));
  return unrooted(OTF2_COLLECTIVE_OP_REDUCE_SCATTER, all, mul((uint64_t)c->size, own));
}

coll_rec tr_rec_reduce_scatter_block(const tr_comm *c, const void *sendbuf, void *recvbuf,
                                     int recvcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return all_to_all(OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, c, tr_bytes(recvcount, type),
                    tr_bytes(recvcount, type), IN_PLACE(sendbuf));
}

coll_rec tr_rec_scan(const tr_comm *c, const void *sendbuf, void *recvbuf, int count,
                     MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return scan(OTF2_COLLECTIVE_OP_SCAN, c, tr_bytes(count, type), IN_PLACE(sendbuf));
}

coll_rec tr_rec_exscan(const tr_comm *c, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  return scan(OTF2_COLLECTIVE_OP_EXSCAN, c, tr_bytes(count, type), TRUE);
}
