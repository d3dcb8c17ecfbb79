/* wrap-env.c - where tracing starts and ends, and the process around it.
 *
 * MPI_Init, MPI_Init_thread (from C or Fortran): the Enter is stamped
 * before the library's call and written once the archive is open (the
 * first of the wrappers to return opens it; MPICH's Fortran MPI_Init calls
 * the C one). MPI_Finalize's region spans the closing clock
 * synchronisation, and the archive is complete before the library's
 * MPI_Finalize runs.
 *
 * A tracer that cannot trace says so, in one line, and leaves the program
 * alone:
 *  - at load, when the library that defines PMPI_Init for the program is
 *    not the MPI library this tracer was built for (Open MPI's handles are
 *    pointers, MPICH's integers: the other library's tracer would crash
 *    the program or make every call fail), it names the tracer to preload
 *    and every wrapper passes through;
 *  - at exit of a program that initialised MPI without any wrapper of
 *    MPI_Init seeing it (a binding the tracer does not wrap, a static MPI
 *    library).
 */
#define _GNU_SOURCE
#include "traces/tracer/hooks.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The launcher's rank of this process, -1 when it says none. */
static int launcher_rank(void)
{
  static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                      "SLURM_PROCID" };
  for (size_t i = 0; i < G_N_ELEMENTS(vars); i++) {
    const char *v = g_getenv(vars[i]);
    if (v && *v)
      return atoi(v);
  }
  return -1;
}

void tr_say(const char *fmt, ...)
{
  int rank = tr.started ? tr.rank : launcher_rank();
  if (rank > 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("mapsim-trace: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* ---- which MPI library ---------------------------------------------------- */

/* A symbol only one library defines, and the tracer built for it. */
typedef struct {
  const char *name, *marker, *tracer;
} mpi_library;

static const mpi_library libraries[] = {
  { "Open MPI", "ompi_mpi_comm_world", "libmapsim-trace.so" },
  { "MPICH", "MPIR_Err_create_code", "libmapsim-trace-mpich.so" },
};

#if defined(OPEN_MPI)
enum { BUILT_FOR = 0 };
#else
enum { BUILT_FOR = 1 };
#endif

/* The library of the program's PMPI_Init: its index, -1 when unknown; its
 * file in *file. */
static int program_library(const char **file)
{
  Dl_info info;
  *file = "?";
  if (!dladdr((void *)PMPI_Init, &info) || !info.dli_fname)
    return -1;
  *file = info.dli_fname;
  void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  int found = -1;
  for (int i = 0; h && found < 0 && i < (int)G_N_ELEMENTS(libraries); i++)
    if (dlsym(h, libraries[i].marker))
      found = i;
  if (h)
    dlclose(h);
  return found;
}

__attribute__((constructor)) static void tr_loaded(void)
{
  const char *file;
  int lib = program_library(&file);
  if (lib < 0 || lib == BUILT_FOR)
    return;
  tr.wrong_mpi = TRUE;
  tr_say("this program uses %s (%s), this tracer is built for %s: preload %s instead; "
         "the program runs untraced",
         libraries[lib].name, file, libraries[BUILT_FOR].name, libraries[lib].tracer);
}

__attribute__((destructor)) static void tr_exiting(void)
{
  int initialised = 0;
  if (tr.wrong_mpi || tr.init_seen || PMPI_Initialized(&initialised) != MPI_SUCCESS ||
      !initialised)
    return;
  tr_say("this program initialised MPI without MPI_Init or MPI_Init_thread passing through the "
         "tracer (a statically linked MPI library, or a binding mapsim-trace does not wrap): "
         "nothing was traced");
}

/* ---- the hooks ------------------------------------------------------------ */

static void after_init(int rc, uint64_t t0, tr_region reg)
{
  tr.init_seen = TRUE;
  if (rc != MPI_SUCCESS || tr.wrong_mpi || tr.started)
    return;
  tr_start();
  if (tr.on) {
    tr.first = t0;
    OTF2_EvtWriter_Enter(tr.evt, NULL, t0, (OTF2_RegionRef)reg);
    tr_leave(reg, MAX(t0, tr_clock()));
  }
}

uint64_t tr_pre_init(tr_region reg, int *argc, char ***argv)
{
  return tr_clock();
}

void tr_post_init(tr_region reg, uint64_t t0, int rc, int *argc, char ***argv)
{
  after_init(rc, t0, reg);
}

uint64_t tr_pre_init_thread(tr_region reg, int *argc, char ***argv, int required, int *provided)
{
  return tr_clock();
}

void tr_post_init_thread(tr_region reg, uint64_t t0, int rc, int *argc, char ***argv,
                         int required, int *provided)
{
  after_init(rc, t0, reg);
}

uint64_t tr_pre_finalize(tr_region reg)
{
  if (tr.on)
    tr_finish();
  return 0;
}

void tr_post_finalize(tr_region reg, uint64_t t, int rc)
{
}
