/* tracer_app.c - the MPI program test_tracer runs under libmapsim-trace.
 *
 * It exercises what the tracer records - a periodic 2D stencil with
 * Isend/Irecv/Waitall, allreduce, a sub-communicator from MPI_Comm_split
 * (Sendrecv ring, bcast, allreduce), a duplicate of MPI_COMM_WORLD with the
 * same tags as world traffic, Wait, Waitany with MPI_ANY_SOURCE, Waitsome,
 * Test and Testall loops, persistent requests, Gatherv, Allgatherv,
 * Scatterv, Alltoallv, Scan, Iallreduce, Ibcast, Ibarrier completed by
 * Testany and Testsome, one 1 MiB message - and writes, per rank, its own
 * tally of what it sent to `PREFIX.RANK`: one line "p2p DEST MESSAGES BYTES"
 * per world destination, one line "coll OP CALLS BYTES" per collective op,
 * BYTES being what the rank handed to MPI in all calls of the op: the
 * vector of a reduction or scan, the payload of a bcast, its block of a
 * gatherv, scatterv or allgatherv, everything it sends in an alltoallv.
 * The tally needs no MPI, so it is not itself traced.
 * Usage: tracer_app PREFIX   (any even number of ranks, 4..64)
 *        tracer_app          (MPI_Init and MPI_Finalize only: can mpirun start?)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAXB = 1 << 20, ITERS = 3 };

static int P, me;
static long *msgs, *bytes;  /* per world destination */
/* collective calls made, by the names mapsim's coll_op_name() gives */
enum { ALLREDUCE, BCAST, GATHERV, ALLGATHERV, SCATTERV, ALLTOALLV, SCAN, BARRIER, NCOLL };
static const char *const coll_names[NCOLL] = { "allreduce", "bcast", "gatherv", "allgatherv",
                                               "scatterv", "alltoallv", "scan", "barrier" };
static long ncoll[NCOLL], ncoll_bytes[NCOLL];

/* one collective call contributing `n` bytes */
static void coll(int op, long n)
{
  ncoll[op]++;
  ncoll_bytes[op] += n;
}

/* Between two tests: oversubscribed ranks must let their partner run, and
 * the number of MpiRequestTest records stays bounded. */
static void pause_briefly(void)
{
  struct timespec ts = { 0, 50000 };
  nanosleep(&ts, NULL);
}

static int world_rank(MPI_Comm c, int r)
{
  MPI_Group g, w;
  int out;
  MPI_Comm_group(c, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &w);
  MPI_Group_translate_ranks(g, 1, &r, w, &out);
  MPI_Group_free(&g);
  MPI_Group_free(&w);
  return out;
}

static void sent(MPI_Comm c, int dest, long n)
{
  int w = world_rank(c, dest);
  msgs[w]++;
  bytes[w] += n;
}

/* 4x2-like periodic grid; message sizes differ by rank, direction and
 * iteration so that every rank pair has its own byte count. */
static void stencil(char *sbuf, char *rbuf)
{
  int dims[2] = { 0, 0 };
  MPI_Dims_create(P, 2, dims);
  int x = me % dims[0], y = me / dims[0];
  int nb[4] = { (x + dims[0] - 1) % dims[0] + y * dims[0], (x + 1) % dims[0] + y * dims[0],
                x + ((y + dims[1] - 1) % dims[1]) * dims[0], x + ((y + 1) % dims[1]) * dims[0] };
  for (int it = 0; it < ITERS; it++) {
    MPI_Request req[8];
    for (int d = 0; d < 4; d++)
      MPI_Irecv(rbuf + d * 4096, 4096, MPI_BYTE, nb[d], d ^ 1, MPI_COMM_WORLD, &req[d]);
    for (int d = 0; d < 4; d++) {
      int n = 8 * (1 + (me + 3 * d + 5 * it) % 7);
      MPI_Isend(sbuf, n, MPI_BYTE, nb[d], d, MPI_COMM_WORLD, &req[4 + d]);
      sent(MPI_COMM_WORLD, nb[d], n);
    }
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    double v[3] = { me, it, 1 }, s[3];
    MPI_Allreduce(v, s, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    coll(ALLREDUCE, 3 * sizeof(double));
  }
}

static void sub_communicator(char *sbuf, char *rbuf)
{
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, P - me, &sub);  /* reversed order inside */
  int n, r;
  MPI_Comm_size(sub, &n);
  MPI_Comm_rank(sub, &r);
  int len = 1000 + 10 * me;
  MPI_Sendrecv(sbuf, len, MPI_BYTE, (r + 1) % n, 7, rbuf, MAXB, MPI_BYTE, (r + n - 1) % n, 7, sub,
               MPI_STATUS_IGNORE);
  sent(sub, (r + 1) % n, len);
  int data[100] = { 0 };
  MPI_Bcast(data, 100, MPI_INT, 1, sub);
  coll(BCAST, 100 * sizeof(int));
  double v = r, s;
  MPI_Allreduce(&v, &s, 1, MPI_DOUBLE, MPI_MAX, sub);
  coll(ALLREDUCE, sizeof(double));
  MPI_Comm_free(&sub);
}

/* Rank 0 <-> 1 on a duplicate of MPI_COMM_WORLD and on MPI_COMM_WORLD,
 * same tag: the messages must stay apart. */
static void duplicate(char *sbuf, char *rbuf)
{
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (me == 0) {
    MPI_Send(sbuf, 300, MPI_BYTE, 1, 5, dup);
    sent(dup, 1, 300);
    MPI_Ssend(sbuf, 200, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
    sent(MPI_COMM_WORLD, 1, 200);
    MPI_Recv(rbuf, MAXB, MPI_BYTE, 1, 5, dup, MPI_STATUS_IGNORE);
  } else if (me == 1) {
    MPI_Recv(rbuf, MAXB, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(rbuf, MAXB, MPI_BYTE, 0, 5, dup, MPI_STATUS_IGNORE);
    MPI_Send(sbuf, 100, MPI_BYTE, 0, 5, dup);
    sent(dup, 0, 100);
  }
  MPI_Comm_free(&dup);
}

static void completions(char *sbuf, char *rbuf)
{
  int next = (me + 1) % P, prev = (me + P - 1) % P;
  MPI_Request rq[3], sq[3];
  /* Wait */
  MPI_Irecv(rbuf, MAXB, MPI_BYTE, prev, 11, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(sbuf, 16 + me, MPI_BYTE, next, 11, MPI_COMM_WORLD, &sq[0]);
  sent(MPI_COMM_WORLD, next, 16 + me);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Wait(&sq[0], MPI_STATUS_IGNORE);
  /* Waitany, receives from any source */
  int next2 = (me + 2) % P;
  for (int k = 0; k < 2; k++)
    MPI_Irecv(rbuf + k * 65536, 65536, MPI_BYTE, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &rq[k]);
  MPI_Isend(sbuf, 40, MPI_BYTE, next, 12, MPI_COMM_WORLD, &sq[0]);
  MPI_Isend(sbuf, 50, MPI_BYTE, next2, 12, MPI_COMM_WORLD, &sq[1]);
  sent(MPI_COMM_WORLD, next, 40);
  sent(MPI_COMM_WORLD, next2, 50);
  for (int k = 0; k < 2; k++) {
    int idx;
    MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(2, sq, MPI_STATUSES_IGNORE);
  /* Waitsome */
  for (int k = 0; k < 3; k++)
    MPI_Irecv(rbuf + k * 65536, 65536, MPI_BYTE, prev, 20 + k, MPI_COMM_WORLD, &rq[k]);
  for (int k = 0; k < 3; k++) {
    MPI_Isend(sbuf, 24 * (k + 1), MPI_BYTE, next, 20 + k, MPI_COMM_WORLD, &sq[k]);
    sent(MPI_COMM_WORLD, next, 24 * (k + 1));
  }
  for (int done = 0; done < 3;) {
    int out, idx[3];
    MPI_Waitsome(3, rq, &out, idx, MPI_STATUSES_IGNORE);
    done += out;
  }
  MPI_Waitall(3, sq, MPI_STATUSES_IGNORE);
  /* Test and Testall loops */
  int partner = me ^ 1, flag = 0;
  MPI_Irecv(rbuf, MAXB, MPI_BYTE, partner, 13, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(sbuf, 128, MPI_BYTE, partner, 13, MPI_COMM_WORLD, &sq[0]);
  sent(MPI_COMM_WORLD, partner, 128);
  while (MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag)
    pause_briefly();
  flag = 0;
  while (MPI_Testall(3, sq, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS && !flag)
    pause_briefly();
}

static void persistent(char *sbuf, char *rbuf)
{
  int next = (me + 1) % P, prev = (me + P - 1) % P;
  MPI_Request req[2];
  MPI_Recv_init(rbuf, MAXB, MPI_BYTE, prev, 30, MPI_COMM_WORLD, &req[0]);
  MPI_Send_init(sbuf, 512, MPI_BYTE, next, 30, MPI_COMM_WORLD, &req[1]);
  for (int k = 0; k < 2; k++) {
    MPI_Startall(2, req);
    sent(MPI_COMM_WORLD, next, 512);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

static void collectives(void)
{
  int counts[64], displs[64], mine[64], all[64 * 64];
  for (int r = 0, off = 0; r < P; r++) {
    counts[r] = r + 1;
    displs[r] = off;
    off += r + 1;
  }
  for (int i = 0; i < me + 1; i++)
    mine[i] = me;
  MPI_Gatherv(mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  coll(GATHERV, (me + 1) * sizeof(int));
  MPI_Allgatherv(mine, me + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
  coll(ALLGATHERV, (me + 1) * sizeof(int));
  MPI_Request req;
  double v = me, s;
  MPI_Iallreduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  coll(ALLREDUCE, sizeof(double));
  int data[10] = { 0 }, flag = 0;
  MPI_Ibcast(data, 10, MPI_INT, P - 1, MPI_COMM_WORLD, &req);
  while (MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag)
    pause_briefly();
  coll(BCAST, 10 * sizeof(int));
  /* the v-collective the other way, an all-to-all-v, a scan */
  MPI_Scatterv(all, counts, displs, MPI_INT, mine, me + 1, MPI_INT, 0, MPI_COMM_WORLD);
  coll(SCATTERV, (me + 1) * sizeof(int));
  int sc[64], sd[64], rc[64], rd[64];
  for (int d = 0, so = 0, ro = 0; d < P; d++) {
    sc[d] = (me + d) % 3 + 1;  /* ints to d */
    rc[d] = (d + me) % 3 + 1;  /* ints from d: what d sends to me */
    sd[d] = so;
    rd[d] = ro;
    so += sc[d];
    ro += rc[d];
  }
  MPI_Alltoallv(all, sc, sd, MPI_INT, all + 64 * 32, rc, rd, MPI_INT, MPI_COMM_WORLD);
  long a2a = 0;
  for (int d = 0; d < P; d++)
    a2a += sc[d] * (long)sizeof(int);
  coll(ALLTOALLV, a2a);
  MPI_Scan(&v, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  coll(SCAN, sizeof(double));
  /* a non-blocking barrier completed through MPI_Testany and MPI_Testsome */
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  int idx, out = 0, ids[1];
  while (MPI_Testany(1, &req, &idx, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag)
    pause_briefly();
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  while (MPI_Testsome(1, &req, &out, ids, MPI_STATUSES_IGNORE) == MPI_SUCCESS && out == 0)
    pause_briefly();
  coll(BARRIER, 0);
  coll(BARRIER, 0);
}

static void large(char *sbuf, char *rbuf)
{
  if (me == 0) {
    MPI_Send(sbuf, MAXB, MPI_BYTE, P - 1, 40, MPI_COMM_WORLD);
    sent(MPI_COMM_WORLD, P - 1, MAXB);
  } else if (me == P - 1) {
    MPI_Recv(rbuf, MAXB, MPI_BYTE, 0, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

static int write_tally(const char *prefix)
{
  char path[4096];
  snprintf(path, sizeof path, "%s.%d", prefix, me);
  FILE *f = fopen(path, "w");
  if (!f)
    return 1;
  for (int d = 0; d < P; d++)
    if (msgs[d])
      fprintf(f, "p2p %d %ld %ld\n", d, msgs[d], bytes[d]);
  for (int c = 0; c < NCOLL; c++)
    fprintf(f, "coll %s %ld %ld\n", coll_names[c], ncoll[c], ncoll_bytes[c]);
  return fclose(f) != 0;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (argc == 1) {
    MPI_Finalize();
    return 0;
  }
  if (argc != 2 || P < 4 || P % 2 || P > 64) {
    if (me == 0)
      fprintf(stderr, "usage: mpirun -np N tracer_app PREFIX (N even, 4..64)\n");
    MPI_Finalize();
    return 2;
  }
  msgs = calloc(P, sizeof *msgs);
  bytes = calloc(P, sizeof *bytes);
  char *sbuf = calloc(MAXB, 1), *rbuf = calloc(MAXB, 1);
  stencil(sbuf, rbuf);
  sub_communicator(sbuf, rbuf);
  duplicate(sbuf, rbuf);
  completions(sbuf, rbuf);
  persistent(sbuf, rbuf);
  collectives();
  large(sbuf, rbuf);
  MPI_Finalize();
  int rc = write_tally(argv[1]);
  free(sbuf);
  free(rbuf);
  free(msgs);
  free(bytes);
  return rc;
}
