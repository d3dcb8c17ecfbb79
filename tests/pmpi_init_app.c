/* pmpi_init_app.c - an MPI program whose MPI_Init a tracer never sees: it
 * calls the profiling entry points PMPI_Init and PMPI_Finalize directly, as
 * a statically linked MPI or a binding the tracer does not wrap would.
 * test_tracer_fortran expects libmapsim-trace to say so at exit. */
#include <mpi.h>

int main(int argc, char **argv)
{
  PMPI_Init(&argc, &argv);
  PMPI_Finalize();
  return 0;
}
