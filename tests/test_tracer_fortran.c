/* test_tracer_fortran.c - libmapsim-trace on Fortran programs and where it
 * cannot trace.
 *
 * fortran_mpi.f90 (`use mpi`: Isend/Irecv completed by Waitall with
 * MPI_STATUSES_IGNORE, Waitany and Test loops, a blocking Send, an
 * Allreduce in place) and fortran_f08.f90 (`use mpi_f08`: Sendrecv with and
 * without a status, Waitall, Allreduce in place, Bcast) run on 4 ranks
 * under Open MPI and MPICH with the library's tracer preloaded; the trace
 * holds exactly the messages the programs send, pair by pair (closed forms
 * in the programs' headers), and the collectives' byte counts (in place
 * where the program says MPI_IN_PLACE). The
 * Fortran symbols the tracers define are the ones the libraries export
 * (nm -D). A tracer preloaded into a program of the other library says
 * which tracer to use and leaves the program untraced; a program whose
 * MPI_Init the tracer never sees is named at exit; an existing trace
 * directory is never reused. Skips, saying why, only where a launcher
 * cannot start or a library or compiler was not there to build with.
 */
#include <criterion/criterion.h>
#include <glib.h>
#include <string.h>

#include "mpitest.h"
#include "testutil.h"
#include "traces/trace.h"

enum { NP = 4 };

typedef struct {
  const mpi_lib *lib;
  const char *tracer;     /* env: the tracer built for the library */
  const char *prefix;     /* env prefix of its Fortran programs */
} fortran_lib;

static const fortran_lib ompi = { &mpi_open_mpi, "MAPSIM_TRACER_LIB", "MAPSIM_FORTRAN_OMPI" };
static const fortran_lib mpich = { &mpi_mpich, "MAPSIM_TRACER_MPICH_LIB", "MAPSIM_FORTRAN_MPICH" };

/* The ASan runtime first when the tracer is sanitized (as meson's preload
 * variables have it). */
static char *preload_of(const char *lib)
{
  const char *pre = g_getenv("MAPSIM_TRACER_PRELOAD");
  const char *colon = pre ? strchr(pre, ':') : NULL;
  if (colon)
    return g_strdup_printf("%.*s:%s", (int)(colon - pre), pre, lib);
  return g_strdup(lib);
}

/* The program built for `f` (program "MPI" or "F08"), skipping when it
 * could not be built. */
static const char *fortran_app(const fortran_lib *f, const char *program)
{
  g_autofree char *var = g_strdup_printf("%s_%s", f->prefix, program);
  const char *app = g_getenv(var);
  if (!app || !g_getenv(f->tracer))
    cr_skip_test("%s: no Fortran program or tracer built (gfortran, the library's compiler "
                 "wrapper and its -dev package are needed)", f->lib->name);
  return app;
}

/* Runs `app` on np ranks under `m` with `env` (NAME, VALUE pairs); exit
 * status, output in *out and *err. */
static int run(const mpi_lib *m, int np, const char *const *env, const char *app, char **out,
               char **err, const char *dir)
{
  GPtrArray *a = mpi_argv(m, np, env);
  g_ptr_array_add(a, g_strdup(app));
  g_ptr_array_add(a, NULL);
  int rc = mpi_run((char **)a->pdata, out, err, dir ? mpi_remove_dir : NULL, (void *)dir);
  g_ptr_array_unref(a);
  return rc;
}

/* Messages and bytes per (source, destination) of the trace. */
static void pairs(const trace *t, int64_t msgs[NP][NP], int64_t bytes[NP][NP])
{
  memset(msgs, 0, sizeof(int64_t) * NP * NP);
  memset(bytes, 0, sizeof(int64_t) * NP * NP);
  commgraph *g = trace_commgraph(t, FALSE, NULL, NULL);
  for (int s = 0; s < NP; s++)
    for (int k = g->xadj[s]; k < g->xadj[s + 1]; k++) {
      msgs[s][g->adj[k]] += g->msgs[k];
      bytes[s][g->adj[k]] += g->bytes[k];
    }
  commgraph_free(g);
}

/* Calls of collective `op` at rank r and the bytes their records say it
 * received (Score-P's counts: an Allreduce of b bytes in place receives
 * (P - 1) b, not P b - the Fortran MPI_IN_PLACE was seen). */
static int64_t received(const trace *t, int r, coll_op op, int *calls)
{
  int64_t sum = 0;
  *calls = 0;
  for (int64_t k = 0; k < t->ranks[r].nevents; k++) {
    const trace_event *e = &t->ranks[r].events[k];
    if (e->kind == TRACE_COLL_END && e->op == (uint32_t)op) {
      sum += e->bytes_recv;
      (*calls)++;
    }
  }
  return sum;
}

/* Every region of `names` (NULL-terminated) is in the trace. */
static void assert_regions(const trace *t, const char *const *names)
{
  for (int k = 0; names[k]; k++) {
    gboolean found = FALSE;
    for (int i = 0; i < t->nregions && !found; i++)
      found = strcmp(t->regions[i], names[k]) == 0;
    cr_assert(found, "%s not traced", names[k]);
  }
}

/* The program traced: every pair carries what `want` says, the collective
 * `op` has `calls` calls of `bytes` per rank, the regions are there. */
static trace *traced(const fortran_lib *f, const char *program, const char *tmp)
{
  const char *app = fortran_app(f, program);
  mpi_skip_unless_launcher_starts(f->lib, g_getenv(f->lib->open_mpi ? "MAPSIM_TRACER_APP"
                                                                    : "MAPSIM_TRACER_MPICH_APP"));
  g_autofree char *dir = g_build_filename(tmp, program, NULL);
  g_autofree char *preload = preload_of(g_getenv(f->tracer));
  const char *env[] = { "LD_PRELOAD", preload, "MAPSIM_TRACE_DIR", dir, NULL };
  char *out = NULL, *err = NULL;
  int rc = run(f->lib, NP, env, app, &out, &err, dir);
  cr_assert_eq(rc, 0, "%s %s under the tracer failed (%d): %s%s", f->lib->name, program, rc, out,
               err);
  cr_assert(strstr(err, "mapsim-trace: wrote"), "%s", err);
  g_free(out);
  g_free(err);
  GError *e = NULL;
  trace *t = trace_read_otf2(dir, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "?");
  cr_assert_eq(t->nranks, NP);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.unmatched_sends + s.unmatched_recvs + s.mismatched_bytes, 0);
  cr_assert_eq(t->stats.unbalanced, 0);
  return t;
}

static void check_pairs(const trace *t, int64_t want_m[NP][NP], int64_t want_b[NP][NP],
                        const char *what)
{
  int64_t m[NP][NP], b[NP][NP];
  pairs(t, m, b);
  for (int s = 0; s < NP; s++)
    for (int d = 0; d < NP; d++) {
      cr_assert_eq(m[s][d], want_m[s][d], "%s: %d -> %d: %ld messages, the program sent %ld",
                   what, s, d, (long)m[s][d], (long)want_m[s][d]);
      cr_assert_eq(b[s][d], want_b[s][d], "%s: %d -> %d: %ld bytes, the program sent %ld", what,
                   s, d, (long)b[s][d], (long)want_b[s][d]);
    }
}

/* fortran_mpi.f90: rank r sends 3 rounds of r+1 integers and one of 3 to
 * the right, 3 rounds of 2(r+1) integers to the left; one Allreduce of 2
 * integers in place. */
static void use_mpi(const fortran_lib *f)
{
  char *tmp = tu_tmp_dir();
  trace *t = traced(f, "MPI", tmp);
  int64_t m[NP][NP] = { { 0 } }, b[NP][NP] = { { 0 } };
  for (int r = 0; r < NP; r++) {
    int right = (r + 1) % NP, left = (r + NP - 1) % NP;
    m[r][right] = 4;
    b[r][right] = 3 * 4 * (r + 1) + 12;
    m[r][left] = 3;
    b[r][left] = 3 * 8 * (r + 1);
  }
  check_pairs(t, m, b, f->lib->name);
  for (int r = 0; r < NP; r++) {
    int calls;
    cr_assert_eq(received(t, r, COLL_ALLREDUCE, &calls), (NP - 1) * 8,
                 "rank %d: Allreduce in place", r);
    cr_assert_eq(calls, 1);
  }
  const char *regions[] = { "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Waitany", "MPI_Test",
                            "MPI_Send", "MPI_Wait", "MPI_Allreduce", "MPI_Init", "MPI_Finalize",
                            NULL };
  assert_regions(t, regions);
  trace_summary s;
  trace_summarize(t, &s);
  cr_assert_eq(s.per_kind[TRACE_IRECV], NP * 7, "every Irecv completed, in Wait* or Test");
  trace_free(t);
  tu_rm_rf(tmp);
  g_free(tmp);
}

/* fortran_f08.f90: rank r sends 2 Sendrecv rounds of r+2 doubles to the
 * right and 5 integers to the left; an Allreduce of 3 doubles in place, a
 * Bcast of 4 integers from rank 1. */
static void use_mpi_f08(const fortran_lib *f)
{
  char *tmp = tu_tmp_dir();
  trace *t = traced(f, "F08", tmp);
  int64_t m[NP][NP] = { { 0 } }, b[NP][NP] = { { 0 } };
  for (int r = 0; r < NP; r++) {
    m[r][(r + 1) % NP] = 2;
    b[r][(r + 1) % NP] = 2 * 8 * (r + 2);
    m[r][(r + NP - 1) % NP] = 1;
    b[r][(r + NP - 1) % NP] = 20;
  }
  check_pairs(t, m, b, f->lib->name);
  for (int r = 0; r < NP; r++) {
    int calls;
    cr_assert_eq(received(t, r, COLL_ALLREDUCE, &calls), (NP - 1) * 24,
                 "rank %d: Allreduce in place", r);
    cr_assert_eq(calls, 1);
    cr_assert_eq(received(t, r, COLL_BCAST, &calls), 16, "rank %d: Bcast", r);
    cr_assert_eq(calls, 1);
  }
  const char *regions[] = { "MPI_Sendrecv", "MPI_Irecv", "MPI_Isend", "MPI_Waitall",
                            "MPI_Allreduce", "MPI_Bcast", NULL };
  assert_regions(t, regions);
  trace_free(t);
  tu_rm_rf(tmp);
  g_free(tmp);
}

Test(tracer_fortran, use_mpi_open_mpi, .timeout = 600)
{
  use_mpi(&ompi);
}

Test(tracer_fortran, use_mpi_mpich, .timeout = 600)
{
  use_mpi(&mpich);
}

Test(tracer_fortran, use_mpi_f08_open_mpi, .timeout = 600)
{
  use_mpi_f08(&ompi);
}

Test(tracer_fortran, use_mpi_f08_mpich, .timeout = 600)
{
  use_mpi_f08(&mpich);
}

/* ---- the symbols ---------------------------------------------------------- */

/* `nm -D --defined-only FILE`'s symbol names. */
static GHashTable *defined(const char *file)
{
  char *out = NULL, *err = NULL;
  char *argv[] = { "nm", "-D", "--defined-only", (char *)file, NULL };
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "nm -D %s: %s", file, err);
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  char **lines = g_strsplit(out, "\n", -1);
  for (int i = 0; lines[i]; i++) {
    char *name = strrchr(lines[i], ' ');
    if (name && name[1])
      g_hash_table_add(h, g_strdup(name + 1));
  }
  g_strfreev(lines);
  g_free(out);
  g_free(err);
  return h;
}

/* The MPI Fortran libraries `app` loads (ldd), their symbols merged. */
static GHashTable *fortran_library_symbols(const char *app, const char *const *libs)
{
  char *out = NULL, *err = NULL;
  char *argv[] = { "ldd", (char *)app, NULL };
  cr_assert_eq(tu_spawn(argv, &out, &err), 0, "ldd %s: %s", app, err);
  GHashTable *all = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int i = 0; libs[i]; i++) {
    const char *l = strstr(out, libs[i]);
    cr_assert_not_null(l, "%s does not load %s: %s", app, libs[i], out);
    const char *path = strstr(l, "=> ");
    cr_assert_not_null(path);
    path += 3;
    g_autofree char *file = g_strndup(path, strcspn(path, " \n"));
    GHashTable *h = defined(file);
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, h);
    while (g_hash_table_iter_next(&it, &k, NULL))
      g_hash_table_add(all, g_strdup(k));
    g_hash_table_destroy(h);
  }
  g_free(out);
  g_free(err);
  return all;
}

/* Every Fortran symbol the tracer defines (mpi_*, MPI_UPPER) is one the
 * library exports: the names of every mangling and of mpi_f08 are right. */
static void symbols(const fortran_lib *f, const char *const *libs, int want_at_least)
{
  const char *app = fortran_app(f, "F08");
  GHashTable *lib = fortran_library_symbols(app, libs);
  GHashTable *ours = defined(g_getenv(f->tracer));
  GHashTableIter it;
  gpointer k;
  int n = 0;
  g_hash_table_iter_init(&it, ours);
  while (g_hash_table_iter_next(&it, &k, NULL)) {
    const char *s = k;
    gboolean upper = g_str_has_prefix(s, "MPI_") && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") ==
                                                        strlen(s);
    if (!g_str_has_prefix(s, "mpi_") && !upper)
      continue;
    cr_assert(g_hash_table_contains(lib, s), "%s: the tracer defines %s, the library does not",
              f->lib->name, s);
    n++;
  }
  cr_assert_geq(n, want_at_least, "%s: %d Fortran symbols", f->lib->name, n);
  cr_assert(g_hash_table_contains(ours, "mpi_isend_") && g_hash_table_contains(ours, "MPI_ISEND") &&
            g_hash_table_contains(ours, "mpi_isend__") && g_hash_table_contains(ours, "mpi_isend"));
  g_hash_table_destroy(lib);
  g_hash_table_destroy(ours);
}

/* 81 calls with Fortran bindings (all but MPI_Comm_set_name), 5 symbols each */
Test(tracer_fortran, symbols_open_mpi)
{
  const char *libs[] = { "libmpi_mpifh.so", "libmpi_usempif08.so", NULL };
  symbols(&ompi, libs, 81 * 5);
}

Test(tracer_fortran, symbols_mpich)
{
  const char *libs[] = { "libmpichfort.so", NULL };
  symbols(&mpich, libs, 81 * 5);
}

/* ---- where it cannot trace ------------------------------------------------ */

/* tracer_app (no arguments: MPI_Init and MPI_Finalize) of one library with
 * the other library's tracer: runs, untraced, and one line names the right
 * tracer. */
static void wrong_library(const mpi_lib *m, const char *app_var, const char *tracer_var,
                          const char *uses, const char *want_tracer)
{
  const char *app = g_getenv(app_var), *lib = g_getenv(tracer_var);
  if (!app || !lib)
    cr_skip_test("MPICH was not found when building (Debian package libmpich-dev)");
  mpi_skip_unless_launcher_starts(m, app);
  char *tmp = tu_tmp_dir();
  g_autofree char *dir = g_build_filename(tmp, "trace", NULL);
  g_autofree char *preload = preload_of(lib);
  const char *env[] = { "LD_PRELOAD", preload, "MAPSIM_TRACE_DIR", dir, NULL };
  char *out = NULL, *err = NULL;
  int rc = run(m, 2, env, app, &out, &err, NULL);
  cr_assert_eq(rc, 0, "the program failed under the other library's tracer (%d): %s%s", rc, out,
               err);
  cr_assert_eq(tu_count(err, "mapsim-trace: "), 1, "one line expected: %s", err);
  cr_assert(strstr(err, uses) && strstr(err, want_tracer) && strstr(err, "untraced"), "%s", err);
  cr_assert_not(g_file_test(dir, G_FILE_TEST_EXISTS), "a trace was written");
  g_free(out);
  g_free(err);
  tu_rm_rf(tmp);
  g_free(tmp);
}

Test(tracer_fortran, open_mpi_program_mpich_tracer, .timeout = 300)
{
  wrong_library(&mpi_open_mpi, "MAPSIM_TRACER_APP", "MAPSIM_TRACER_MPICH_LIB",
                "this program uses Open MPI", "preload libmapsim-trace.so instead");
}

Test(tracer_fortran, mpich_program_open_mpi_tracer, .timeout = 300)
{
  wrong_library(&mpi_mpich, "MAPSIM_TRACER_MPICH_APP", "MAPSIM_TRACER_LIB",
                "this program uses MPICH", "preload libmapsim-trace-mpich.so instead");
}

/* MPI initialised behind the tracer's back: one line at exit. */
Test(tracer_fortran, no_mpi_init, .timeout = 300)
{
  const char *app = g_getenv("MAPSIM_PMPI_INIT_APP");
  cr_assert(app, "MAPSIM_PMPI_INIT_APP not set (run through meson test)");
  mpi_skip_unless_launcher_starts(&mpi_open_mpi, g_getenv("MAPSIM_TRACER_APP"));
  const char *env[] = { "LD_PRELOAD", g_getenv("MAPSIM_TRACER_PRELOAD"), NULL };
  char *out = NULL, *err = NULL;
  int rc = run(&mpi_open_mpi, 2, env, app, &out, &err, NULL);
  cr_assert_eq(rc, 0, "%s%s", out, err);
  cr_assert_eq(tu_count(err, "mapsim-trace: "), 1, "one line expected: %s", err);
  cr_assert(strstr(err, "without MPI_Init or MPI_Init_thread passing through the tracer") &&
            strstr(err, "nothing was traced"), "%s", err);
  g_free(out);
  g_free(err);
}

/* An existing trace directory: the archive goes to DIR.1, said once; with
 * MAPSIM_TRACE_EXISTING=error the program stops instead. */
Test(tracer_fortran, existing_directory, .timeout = 300)
{
  const char *app = g_getenv("MAPSIM_TRACER_APP");
  cr_assert(app, "MAPSIM_TRACER_APP not set (run through meson test)");
  mpi_skip_unless_launcher_starts(&mpi_open_mpi, app);
  char *tmp = tu_tmp_dir();
  g_autofree char *dir = g_build_filename(tmp, "run", NULL);
  g_autofree char *next = g_build_filename(tmp, "run.1", NULL);
  g_autofree char *anchor = g_build_filename(next, "traces.otf2", NULL);
  cr_assert_eq(g_mkdir(dir, 0755), 0);
  const char *env[] = { "LD_PRELOAD", g_getenv("MAPSIM_TRACER_PRELOAD"), "MAPSIM_TRACE_DIR", dir,
                        NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(run(&mpi_open_mpi, 2, env, app, &out, &err, next), 0, "%s%s", out, err);
  cr_assert(strstr(err, "run exists: the archive goes to ") && strstr(err, "run.1"), "%s", err);
  cr_assert(g_file_test(anchor, G_FILE_TEST_IS_REGULAR), "no archive in %s: %s", next, err);
  g_free(out);
  g_free(err);
  const char *env_error[] = { "LD_PRELOAD", g_getenv("MAPSIM_TRACER_PRELOAD"), "MAPSIM_TRACE_DIR",
                              dir, "MAPSIM_TRACE_EXISTING", "error", NULL };
  int rc = run(&mpi_open_mpi, 2, env_error, app, &out, &err, NULL);
  cr_assert_neq(rc, 0, "the program ran on: %s", err);
  cr_assert(strstr(err, "run: exists, expected a new directory") &&
            strstr(err, "stopping the program"), "%s", err);
  g_free(out);
  g_free(err);
  tu_rm_rf(tmp);
  g_free(tmp);
}
