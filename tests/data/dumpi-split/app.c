#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int hr;
  MPI_Comm_rank(half, &hr);
  double *d = calloc(1000, sizeof(double)), *e = calloc(1000, sizeof(double));
  MPI_Sendrecv(d, 1000, MPI_DOUBLE, 1 - hr, 5, e, 1000, MPI_DOUBLE, 1 - hr, 5, half, MPI_STATUS_IGNORE);
  int sc[4], sd[4], rc[4], rd[4], *sb = calloc(100, sizeof(int)), *rb = calloc(100, sizeof(int));
  for (int j = 0, o = 0, p = 0; j < size; j++) {
    sc[j] = (rank + 1) * (j + 1); sd[j] = o; o += sc[j];
    rc[j] = (j + 1) * (rank + 1); rd[j] = p; p += rc[j];
  }
  MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
  MPI_Request q[2];
  MPI_Status st[2];
  MPI_Irecv(rb, 7, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(sb, 7, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, st);
  MPI_Bcast(sb, 10, MPI_INT, 0, half);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Barrier(dup);
  MPI_Allreduce(d, e, 4, MPI_DOUBLE, MPI_SUM, dup);
  MPI_Datatype three;
  MPI_Type_contiguous(3, MPI_DOUBLE, &three);
  MPI_Type_commit(&three);
  if (rank == 0)
    MPI_Send(d, 2, three, 2, 1, MPI_COMM_WORLD);
  if (rank == 2)
    MPI_Recv(e, 2, three, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&three);
  MPI_Irecv(rb, 3, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(sb, 3, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, st);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
