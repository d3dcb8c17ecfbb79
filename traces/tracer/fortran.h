/* fortran.h - what the generated Fortran wrappers (wrap-fortran.c) need to
 * turn Fortran arguments into the C ones the hooks take, and to call the
 * library's own Fortran function.
 *
 * Fortran passes everything by reference, handles as MPI_Fint (turned into
 * C handles by MPI_*_f2c), indices from 1, and its own sentinels: the
 * addresses of MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE and
 * MPI_STATUSES_IGNORE in Fortran differ from C's. mpi_f08 arguments have
 * the same layout (a handle is a derived type of one integer, a status the
 * Fortran status), except MPICH's choice buffers, which come as array
 * descriptors (its *_f08ts_ symbols; TR_F08_DESCRIPTORS), and its
 * separate mpi_f08 MPI_STATUS(ES)_IGNORE.
 *
 * Everything returned points into scratch owned by `tr` (tracer.h), valid
 * until the next wrapper: no allocation per call once warm.
 * Not for: C wrappers, what a call records (hooks.h).
 */
#pragma once

#include "traces/tracer/tracer.h"

#if defined(MPICH)
#define TR_F08_DESCRIPTORS 1
#else
#define TR_F08_DESCRIPTORS 0
#endif

/* A Fortran symbol this library defines and the library's own definition
 * of it (the next one the dynamic linker finds), looked up at first use. */
typedef struct {
  const char *name;
  void (*fn)(void);
} tr_fsym;

void (*tr_f_orig(tr_fsym *s))(void);

/* A choice buffer: its address (from the descriptor for f08 under MPICH),
 * Fortran's MPI_IN_PLACE and MPI_BOTTOM turned into C's. */
void *tr_f_buffer(void *f, int f08);
/* A Fortran index (from 1, or MPI_UNDEFINED) as C's. */
int tr_f_index(MPI_Fint v);
/* n Fortran indices as C's. */
int *tr_f_indices(const MPI_Fint *f, int n);
/* The datatypes of an MPI_Alltoallw side, one per member of `comm`; NULL
 * when its buffer `buf` is MPI_IN_PLACE (they are not read then). `slot`
 * 0 or 1 keeps the two sides apart. */
const MPI_Datatype *tr_f_types(const MPI_Fint *f, MPI_Comm comm, const void *buf, int slot);
/* n request handles as C's. */
MPI_Request *tr_f_requests(const MPI_Fint *f, int n);
/* The Fortran status to pass on: the caller's, or ours when it passed
 * MPI_STATUS_IGNORE (receives need the status). */
MPI_Fint *tr_f_status_arg(MPI_Fint *f, int f08);
void tr_f_status_in(const MPI_Fint *f, MPI_Status *c);
/* The same for an array of n statuses. */
MPI_Fint *tr_f_statuses_arg(MPI_Fint *f, int f08, int n);
MPI_Status *tr_f_cstatuses(int n);
void tr_f_statuses_in(const MPI_Fint *f, MPI_Status *c, int n);
