/* fortran.c - the Fortran arguments as C ones (fortran.h). */
#define _GNU_SOURCE
#include "traces/tracer/fortran.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* MPI_Fint arrays are read as int arrays (counts, displacements). */
G_STATIC_ASSERT(sizeof(MPI_Fint) == sizeof(int));

/* A Fortran status: MPI_STATUS_SIZE integers, the C status's layout in both
 * libraries (6 in Open MPI, 5 in MPICH). */
#define TR_F_STATUS_SIZE (sizeof(MPI_Status) / sizeof(MPI_Fint))

void (*tr_f_orig(tr_fsym *s))(void)
{
  if (s->fn == NULL) {
    void *p = dlsym(RTLD_NEXT, s->name);
    if (p == NULL) {
      fprintf(stderr, "mapsim-trace: %s: not in the program's MPI library, expected its Fortran "
              "bindings\n", s->name);
      abort();
    }
    s->fn = (void (*)(void))p;
  }
  return s->fn;
}

/* ---- sentinels ------------------------------------------------------------ */

/* Where a library keeps a Fortran sentinel: the address of a symbol, or the
 * address stored in it (MPICH's mpif.h ones, set at its Fortran MPI_Init). */
typedef struct {
  const char *symbol;
  gboolean stored;
  void *C;
} sentinel;

static sentinel in_place[] = {
#if defined(MPICH)
  { "MPIR_F_MPI_IN_PLACE", TRUE, NULL },
  { "MPIR_F08_MPI_IN_PLACE", FALSE, NULL },
#else
  { "mpi_fortran_in_place_", FALSE, NULL },
  { "mpi_fortran_in_place", FALSE, NULL },
  { "mpi_fortran_in_place__", FALSE, NULL },
  { "MPI_FORTRAN_IN_PLACE", FALSE, NULL },
#endif
};

static sentinel bottom[] = {
#if defined(MPICH)
  { "MPIR_F_MPI_BOTTOM", TRUE, NULL },
  { "MPIR_F08_MPI_BOTTOM", FALSE, NULL },
#else
  { "mpi_fortran_bottom_", FALSE, NULL },
  { "mpi_fortran_bottom", FALSE, NULL },
  { "mpi_fortran_bottom__", FALSE, NULL },
  { "MPI_FORTRAN_BOTTOM", FALSE, NULL },
#endif
};

static gboolean sentinels_found;

static void find_sentinels(void)
{
  for (size_t i = 0; i < G_N_ELEMENTS(in_place); i++)
    in_place[i].C = dlsym(RTLD_DEFAULT, in_place[i].symbol);
  for (size_t i = 0; i < G_N_ELEMENTS(bottom); i++)
    bottom[i].C = dlsym(RTLD_DEFAULT, bottom[i].symbol);
  sentinels_found = TRUE;
}

static gboolean is_sentinel(const sentinel *s, size_t n, const void *f)
{
  for (size_t i = 0; i < n; i++) {
    const void *where = s[i].C;
    if (where && s[i].stored)
      where = *(void *const *)where;
    if (where && where == f)
      return TRUE;
  }
  return FALSE;
}

void *tr_f_buffer(void *f, int f08)
{
  /* an array descriptor (gfortran's or ISO_Fortran_binding's) starts with
   * the address of the data */
  if (f08 && TR_F08_DESCRIPTORS && f)
    f = *(void **)f;
  if (!sentinels_found)
    find_sentinels();
  if (is_sentinel(in_place, G_N_ELEMENTS(in_place), f))
    return MPI_IN_PLACE;
  if (is_sentinel(bottom, G_N_ELEMENTS(bottom), f))
    return MPI_BOTTOM;
  return f;
}

/* ---- indices, handles ------------------------------------------------------ */

int tr_f_index(MPI_Fint v)
{
  return v == MPI_UNDEFINED ? MPI_UNDEFINED : (int)v - 1;
}

int *tr_f_indices(const MPI_Fint *f, int n)
{
  n = MAX(n, 0);
  int *c = tr_scratch_get(&tr.f_indices, sizeof(int) * (size_t)MAX(n, 1));
  for (int i = 0; i < n; i++)
    c[i] = tr_f_index(f[i]);
  return c;
}

const MPI_Datatype *tr_f_types(const MPI_Fint *f, MPI_Comm comm, const void *buf, int slot)
{
  int n = 0;
  if (buf == MPI_IN_PLACE || PMPI_Comm_size(comm, &n) != MPI_SUCCESS)
    return NULL;
  MPI_Datatype *c = tr_scratch_get(&tr.f_types[slot], sizeof(MPI_Datatype) * (size_t)MAX(n, 1));
  for (int i = 0; i < n; i++)
    c[i] = MPI_Type_f2c(f[i]);
  return c;
}

MPI_Request *tr_f_requests(const MPI_Fint *f, int n)
{
  n = MAX(n, 0);
  MPI_Request *c = tr_scratch_get(&tr.f_reqs, sizeof(MPI_Request) * (size_t)MAX(n, 1));
  for (int i = 0; i < n; i++)
    c[i] = MPI_Request_f2c(f[i]);
  return c;
}

/* ---- statuses ------------------------------------------------------------- */

static MPI_Fint own_status[TR_F_STATUS_SIZE];

static gboolean status_ignored(const MPI_Fint *f, int f08)
{
#if defined(MPICH)
  if (f08)
    return (const void *)f == (const void *)MPI_F08_STATUS_IGNORE;
#endif
  return f == MPI_F_STATUS_IGNORE;
}

static gboolean statuses_ignored(const MPI_Fint *f, int f08)
{
#if defined(MPICH)
  if (f08)
    return (const void *)f == (const void *)MPI_F08_STATUSES_IGNORE;
#endif
  return f == MPI_F_STATUSES_IGNORE;
}

MPI_Fint *tr_f_status_arg(MPI_Fint *f, int f08)
{
  return status_ignored(f, f08) ? own_status : f;
}

void tr_f_status_in(const MPI_Fint *f, MPI_Status *c)
{
  PMPI_Status_f2c(f, c);
}

MPI_Fint *tr_f_statuses_arg(MPI_Fint *f, int f08, int n)
{
  if (!statuses_ignored(f, f08))
    return f;
  return tr_scratch_get(&tr.f_statuses, sizeof(MPI_Fint) * TR_F_STATUS_SIZE * (size_t)MAX(n, 1));
}

MPI_Status *tr_f_cstatuses(int n)
{
  return tr_scratch_get(&tr.f_cstatuses, sizeof(MPI_Status) * (size_t)MAX(n, 1));
}

void tr_f_statuses_in(const MPI_Fint *f, MPI_Status *c, int n)
{
  for (int i = 0; i < n; i++)
    PMPI_Status_f2c(f + (size_t)i * TR_F_STATUS_SIZE, &c[i]);
}
