/* cmd-gen.c - `mapsim gen`: synthesize an OTF2 trace of a communication
 * pattern (traces/synth.h), streamed rank by rank to the OTF2 writer, with
 * a progress line. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "traces/synth.h"

static void print_patterns(void)
{
  printf("Patterns:\n");
  for (int i = 0; i < synth_npatterns; i++)
    printf("  %-10s %s\n", synth_patterns[i].name, synth_patterns[i].summary);
}

int cmd_gen(int argc, char **argv)
{
  synth_opts o;
  synth_opts_init(&o);
  char *pattern = NULL, *dims = NULL, *out = NULL, *matrix = NULL, *partition = NULL;
  int points = 0, ranks = o.ranks, iterations = o.iterations, degree = o.degree;
  gint64 bytes = o.bytes, seed = (gint64)o.seed, shift = o.shift;
  double gap = o.gap_s;
  gboolean periodic = FALSE, nonblocking = FALSE, gap_random = FALSE, list = FALSE;
  g_autofree char *names = synth_pattern_names();
  g_autofree char *pattern_help = g_strdup_printf("Pattern: %s (--list says what each is)", names);
  const GOptionEntry entries[] = {
    { "pattern", 0, 0, G_OPTION_ARG_STRING, &pattern, pattern_help, "NAME" },
    { "ranks", 'n', 0, G_OPTION_ARG_INT, &ranks, "Number of MPI ranks (default 8)", "N" },
    { "dims", 0, 0, G_OPTION_ARG_STRING, &dims, "Process grid, e.g. 4x4x4 (default balanced)", "AxB.." },
    { "periodic", 0, 0, G_OPTION_ARG_NONE, &periodic, "Periodic stencil boundaries", NULL },
    { "points", 0, 0, G_OPTION_ARG_INT, &points, "Stencil points (2D: 5 or 9)", "K" },
    { "bytes", 'b', 0, G_OPTION_ARG_INT64, &bytes, "Message size in bytes (default 1024)", "B" },
    { "iterations", 'i', 0, G_OPTION_ARG_INT, &iterations, "Iterations (default 10)", "I" },
    { "nonblocking", 0, 0, G_OPTION_ARG_NONE, &nonblocking, "Irecv/Isend/Waitall instead of Sendrecv", NULL },
    { "gap", 0, 0, G_OPTION_ARG_DOUBLE, &gap, "Computation before each iteration, s (default 1e-3)", "S" },
    { "gap-random", 0, 0, G_OPTION_ARG_NONE, &gap_random, "Gaps uniform in [0, 2 gap] (seeded)", NULL },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of random gaps and the random pattern", "S" },
    { "degree", 0, 0, G_OPTION_ARG_INT, &degree, "random: destinations per rank (default 4)", "D" },
    { "shift", 0, 0, G_OPTION_ARG_INT64, &shift, "shift: rank r sends to r+K (default 1)", "K" },
    { "matrix", 'm', 0, G_OPTION_ARG_FILENAME, &matrix, "spmv: MatrixMarket matrix", "M.mtx" },
    { "partition", 0, 0, G_OPTION_ARG_FILENAME, &partition, "spmv: part of each row, one per line", "F" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Output directory (anchor DIR/traces.otf2)", "DIR" },
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, "List the patterns", NULL },
    { NULL },
  };
  int status = 2;
  GError *e = NULL;
  cli_common c;
  GString *about = g_string_new("Synthesize an OTF2 trace of a communication pattern (--pattern):");
  for (int i = 0; i < synth_npatterns; i++)
    g_string_append_printf(about, "\n  %-10s %s", synth_patterns[i].name, synth_patterns[i].summary);
  g_autofree char *description = g_string_free(about, FALSE);
  if (!cli_parse(&argc, &argv, "gen", "", description,
                 "Examples:\n  mapsim gen --pattern stencil3d --ranks 64 --dims 4x4x4 --periodic -o st3d\n"
                 "  mapsim gen --pattern spmv --ranks 2 --matrix tests/data/y_sym.mtx -o spmv\n"
                 "  mapsim gen --pattern shift --shift 16 --ranks 128 -o groupshift",
                 CLI_OPT_PROGRESS, &c, entries))
    goto out;
  if (list) {
    print_patterns();
    status = 0;
    goto out;
  }
  o.pattern = pattern;
  o.ranks = ranks;
  o.periodic = periodic;
  o.points = points;
  o.bytes = bytes;
  o.iterations = iterations;
  o.nonblocking = nonblocking;
  o.gap_s = gap;
  o.gap_random = gap_random;
  o.seed = (uint64_t)seed;
  o.degree = degree;
  o.shift = shift;
  o.matrix = matrix;
  o.partition = partition;
  if (out == NULL || pattern == NULL) {
    g_set_error(&e, SYNTH_ERROR, SYNTH_ERROR_OPTION, "%s: missing, expected %s",
                out ? "--pattern" : "--output", out ? "a pattern name (see --list)" : "-o DIR");
    goto fail;
  }
  if (dims && !synth_parse_dims(dims, o.dims, &e))
    goto fail;
  gboolean written = synth_write(&o, out, cli_progress(&c), &e);
  cli_progress_end();
  if (!written)
    goto fail;
  {
    g_autofree char *anchor = g_build_filename(out, "traces.otf2", NULL);
    printf("wrote %s: %s, %d ranks, %d iterations, %s\n", anchor, pattern, ranks, iterations,
           strcmp(pattern, "pingpong") == 0 ? "MPI_Send and MPI_Recv"
           : nonblocking ? "MPI_Irecv, MPI_Isend, MPI_Waitall" : "MPI_Sendrecv");
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  g_free(pattern);
  g_free(dims);
  g_free(out);
  g_free(matrix);
  g_free(partition);
  cli_common_clear(&c);
  return status;
}
