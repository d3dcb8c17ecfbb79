/* host_app.c - the MPI program test_launch starts with the launcher files
 * mapsim writes: each rank prints "rank R host H", H the host the launcher
 * put it on - MAPSIM_FAKE_HOST when the test's fake remote shell
 * (tests/fake_rsh.sh) started its daemon, else MPI_Get_processor_name. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, len;
  char name[MPI_MAX_PROCESSOR_NAME];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Get_processor_name(name, &len);
  const char *fake = getenv("MAPSIM_FAKE_HOST");
  printf("rank %d host %s\n", rank, fake ? fake : name);
  MPI_Finalize();
  return 0;
}
