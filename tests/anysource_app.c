/* anysource_app.c - what HPCC's RandomAccess does to a trace exporter:
 * every round each rank posts four MPI_ANY_SOURCE receives, then sends two
 * messages to each of its next two ranks (same tag), and completes them
 * with an MPI_Test loop and MPI_Waitall. Two receives of a round match
 * messages of one sender with one tag, so an exporter that keys requests
 * by (source, destination, tag) and waits for an open one before posting
 * the next would wait before the rank's first send: every rank, a cycle
 * the run never had. test_simgrid traces it, exports it and replays it in
 * SimGrid. Usage: anysource_app (at least 3 ranks) */
#include <mpi.h>
#include <stdio.h>

enum { ROUNDS = 20, N = 512 };

int main(int argc, char **argv)
{
  int me, np;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  static double in[4][N], out[4][N];
  long got = 0;
  for (int round = 0; round < ROUNDS; round++) {
    MPI_Request reqs[8];
    for (int k = 0; k < 4; k++)
      MPI_Irecv(in[k], N, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &reqs[k]);
    for (int k = 0; k < 4; k++) {
      for (int i = 0; i < N; i++)
        out[k][i] = me + round;
      MPI_Isend(out[k], N, MPI_DOUBLE, (me + 1 + k / 2) % np, 5, MPI_COMM_WORLD, &reqs[4 + k]);
    }
    int done = 0;
    while (!done)
      MPI_Testall(4, reqs, &done, MPI_STATUSES_IGNORE);
    MPI_Waitall(4, reqs + 4, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 4; k++)
      got += (long)in[k][0];
  }
  long want = 0;
  for (int round = 0; round < ROUNDS; round++)
    want += 2L * ((me + np - 1) % np + round) + 2L * ((me + np - 2) % np + round);
  MPI_Finalize();
  if (got != want) {
    fprintf(stderr, "anysource_app: rank %d received %ld, expected %ld\n", me, got, want);
    return 1;
  }
  return 0;
}
