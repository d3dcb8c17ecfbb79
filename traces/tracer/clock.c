/* clock.c - the tracer's time source and the offsets between ranks' clocks.
 *
 * Time is CLOCK_MONOTONIC_RAW in nanoseconds (1e9 ticks/s; read through the
 * vDSO, about 20 ns). Ranks on different nodes have different clocks, so
 * at MPI_Init and MPI_Finalize every rank measures its offset to rank 0 the
 * way Score-P does: TR_SYNC_ROUNDS ping-pongs with rank 0, which answers
 * with its own time; the round with the shortest round trip gives the
 * offset (rank 0's time minus the midpoint of the round trip). The two
 * offsets become OTF2 ClockOffset records; readers interpolate linearly
 * between them. Cost: TR_SYNC_ROUNDS * (P - 1) round trips through rank 0.
 */
#include "traces/tracer/tracer.h"

#include <math.h>
#include <time.h>

enum { TR_SYNC_ROUNDS = 10, TR_SYNC_TAG = 4242 };

uint64_t tr_clock(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t)ts.tv_sec * TR_TICKS_PER_SECOND + (uint64_t)ts.tv_nsec;
}

static void serve(int peer)
{
  for (int k = 0; k < TR_SYNC_ROUNDS; k++) {
    PMPI_Recv(NULL, 0, MPI_BYTE, peer, TR_SYNC_TAG, tr.comm, MPI_STATUS_IGNORE);
    uint64_t now = tr_clock();
    PMPI_Send(&now, 1, MPI_UINT64_T, peer, TR_SYNC_TAG, tr.comm);
  }
}

void tr_clock_sync(int which)
{
  uint64_t at = tr_clock();
  int64_t offset = 0;
  double stddev = 0;
  if (tr.rank == 0) {
    for (int r = 1; r < tr.size; r++)
      serve(r);
    at = tr_clock();
  } else {
    uint64_t best = UINT64_MAX;
    double sum = 0, sum2 = 0;
    for (int k = 0; k < TR_SYNC_ROUNDS; k++) {
      uint64_t master = 0, t1 = tr_clock();
      PMPI_Send(NULL, 0, MPI_BYTE, 0, TR_SYNC_TAG, tr.comm);
      PMPI_Recv(&master, 1, MPI_UINT64_T, 0, TR_SYNC_TAG, tr.comm, MPI_STATUS_IGNORE);
      uint64_t t2 = tr_clock();
      uint64_t mid = t1 + (t2 - t1) / 2;
      int64_t o = (int64_t)(master - mid);  /* two's complement difference */
      sum += (double)o;
      sum2 += (double)o * (double)o;
      if (t2 - t1 < best) {
        best = t2 - t1;
        offset = o;
        at = mid;
      }
    }
    double mean = sum / TR_SYNC_ROUNDS;
    stddev = sqrt(MAX(0.0, sum2 / TR_SYNC_ROUNDS - mean * mean));
  }
  tr.sync_time[which] = at;
  tr.sync_offset[which] = offset;
  tr.sync_stddev[which] = stddev;
}

/* OTF2's evt reader: offset(t) = o0 + rint(slope * (t - t0)) with the slope
 * between the two records, extrapolated outside them. */
uint64_t tr_clock_global(uint64_t t)
{
  uint64_t t0 = tr.sync_time[0], t1 = tr.sync_time[1];
  double slope = t1 > t0 ? (double)(tr.sync_offset[1] - tr.sync_offset[0]) / (double)(t1 - t0) : 0;
  double diff = t >= t0 ? (double)(t - t0) : -(double)(t0 - t);
  int64_t off = tr.sync_offset[0] + (int64_t)rint(slope * diff);
  return t + (uint64_t)off;
}
