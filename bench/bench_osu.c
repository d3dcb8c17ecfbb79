/* bench_osu.c - OSU-style point-to-point loops, to measure what
 * libmapsim-trace costs (bench/tracer-overhead.sh runs it with and without
 * LD_PRELOAD, alternately, in one invocation).
 *
 * Two ranks (wall clock, MPI_Wtime):
 *   latency    ping-pong with MPI_Send/MPI_Recv; half the round trip (us)
 *   bandwidth  windows of 64 MPI_Isend (rank 0) / MPI_Irecv (rank 1) +
 *              MPI_Waitall and a 1-byte acknowledgement; MB/s (1e6 bytes)
 *   Sizes 1 B .. 1 MiB in powers of 4, plus 0 B for the latency.
 * One rank (CPU time of the process, so that other load on the machine
 * hardly matters; messages to itself complete without waiting):
 *   self-isend     MPI_Irecv + MPI_Isend + MPI_Waitall of both (us/iteration)
 *   self-sendrecv  MPI_Sendrecv to itself (us/iteration)
 *   self-allreduce MPI_Allreduce of one double on MPI_COMM_WORLD (us/iteration)
 * Output: one line per measurement, "KIND SIZE VALUE".
 * Usage: mpirun -np 2 bench_osu [ITERATIONS]   (default 2000, large sizes fewer)
 *        mpirun -np 1 bench_osu [ITERATIONS]   (self loops, 100x the iterations)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_SIZE = 1 << 20, WINDOW = 64, WARMUP = 100 };

static int iterations(int base, int size)
{
  return size > 65536 ? base / 10 : base;
}

static double latency(int me, char *buf, int size, int iters)
{
  double t0 = 0;
  for (int i = 0; i < iters + WARMUP; i++) {
    if (i == WARMUP)
      t0 = MPI_Wtime();
    if (me == 0) {
      MPI_Send(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
      MPI_Recv(buf, size, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, size, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
}

static double bandwidth(int me, char *buf, int size, int iters)
{
  MPI_Request req[WINDOW];
  char ack = 0;
  double t0 = 0;
  for (int i = 0; i < iters + WARMUP; i++) {
    if (i == WARMUP)
      t0 = MPI_Wtime();
    for (int w = 0; w < WINDOW; w++) {
      if (me == 0)
        MPI_Isend(buf, size, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &req[w]);
      else
        MPI_Irecv(buf, size, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &req[w]);
    }
    MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
    if (me == 0)
      MPI_Recv(&ack, 1, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(&ack, 1, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
  }
  double s = MPI_Wtime() - t0;
  return (double)size * WINDOW * iters / s / 1e6;
}

static double cpu_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* us of process CPU time per iteration of `kind` with `size` bytes. */
static double self_loop(const char *kind, char *sbuf, char *rbuf, int size, int iters)
{
  double t0 = 0;
  for (int i = 0; i < iters + WARMUP; i++) {
    if (i == WARMUP)
      t0 = cpu_us();
    if (kind[5] == 'i') {
      MPI_Request req[2];
      MPI_Irecv(rbuf, size, MPI_CHAR, 0, 4, MPI_COMM_WORLD, &req[0]);
      MPI_Isend(sbuf, size, MPI_CHAR, 0, 4, MPI_COMM_WORLD, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else if (kind[5] == 's') {
      MPI_Sendrecv(sbuf, size, MPI_CHAR, 0, 5, rbuf, size, MPI_CHAR, 0, 5, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    } else {
      double v = i, r;
      MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }
  return (cpu_us() - t0) / iters;
}

static void self_loops(int base)
{
  char *sbuf = calloc(MAX_SIZE, 1), *rbuf = calloc(MAX_SIZE, 1);
  static const char *const kinds[] = { "self-isend", "self-sendrecv" };
  for (int k = 0; k < 2; k++)
    for (int size = 1; size <= 4096; size *= 64)
      printf("%s %d %.4f\n", kinds[k], size, self_loop(kinds[k], sbuf, rbuf, size, 100 * base));
  printf("self-allreduce 8 %.4f\n", self_loop("self-allreduce", sbuf, rbuf, 8, 100 * base));
  free(sbuf);
  free(rbuf);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int me, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  int base = argc > 1 ? atoi(argv[1]) : 2000;
  if (np > 2 || base < 10) {
    if (me == 0)
      fprintf(stderr, "usage: mpirun -np 1|2 bench_osu [ITERATIONS >= 10]\n");
    MPI_Finalize();
    return 2;
  }
  if (np == 1) {
    self_loops(base);
    MPI_Finalize();
    return 0;
  }
  char *buf = calloc(MAX_SIZE, 1);
  for (int size = 0; size <= MAX_SIZE; size = size ? size * 4 : 1) {
    double us = latency(me, buf, size, iterations(base, size));
    if (me == 0)
      printf("latency %d %.3f\n", size, us);
  }
  for (int size = 1; size <= MAX_SIZE; size *= 4) {
    double mbps = bandwidth(me, buf, size, iterations(base, size) / 10);
    if (me == 0)
      printf("bandwidth %d %.1f\n", size, mbps);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
