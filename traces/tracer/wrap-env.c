/* wrap-env.c - MPI_Init, MPI_Init_thread and MPI_Finalize: where tracing
 * starts and ends. The Enter of MPI_Init is stamped before PMPI_Init and
 * written once the archive is open; MPI_Finalize's region spans the
 * closing clock synchronisation, and the archive is complete before
 * PMPI_Finalize runs.
 */
#include "traces/tracer/tracer.h"

static int after_init(int rc, uint64_t t0, tr_region reg)
{
  if (rc != MPI_SUCCESS)
    return rc;
  tr_start();
  if (tr.on) {
    tr.first = t0;
    OTF2_EvtWriter_Enter(tr.evt, NULL, t0, (OTF2_RegionRef)reg);
    tr_leave(reg, tr_clock());
  }
  return rc;
}

TR_API int MPI_Init(int *argc, char ***argv)
{
  uint64_t t0 = tr_clock();
  return after_init(PMPI_Init(argc, argv), t0, TR_MPI_Init);
}

TR_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  uint64_t t0 = tr_clock();
  return after_init(PMPI_Init_thread(argc, argv, required, provided), t0, TR_MPI_Init_thread);
}

TR_API int MPI_Finalize(void)
{
  if (tr.on)
    tr_finish();
  return PMPI_Finalize();
}
