/* test_sizes.c - inputs whose counts multiply, refused before anything is
 * built for them: a study's cells (study/size.c) and a Slurm file's
 * hostlists, YAML aliases included (routing/hostlist.c,
 * routing/platform-slurm.c), each against its stated maximum and the
 * memory budget, in one line naming the file and line, within a second.
 * The counts are the closed forms of the inputs written here. */
#include <string.h>

#include "routing/hostlist.h"
#include "study/study.h"
#include "testutil.h"
#include "util/budget.h"

/* A study of the bundled matrix with `rest` after its [study] line;
 * the message of its refusal and the seconds it took. */
static char *study_refusal(const char *rest, double *seconds)
{
  g_autofree char *matrix = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *text = g_strdup_printf("[study]\nmatrices = %s\n%s", matrix, rest);
  GError *e = NULL;
  gint64 t0 = g_get_monotonic_time();
  study *s = study_load("s.ini", text, "/", &e);
  *seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  cr_assert_null(s, "accepted: %s", rest);
  char *m = g_strdup(e->message);
  g_error_free(e);
  return m;
}

/* 4,096 platforms x 4,096 strategies x 256 seeds = 2^32 cells wrapped
 * the int cell count to 0 and --check crashed after 6 minutes; 16.7 M
 * cells took 2.1 GB and 115 s. Now both are counted from the file's text
 * and refused before a platform is built. */
Test(study_size, cells_counted_before_anything_is_built)
{
  double seconds;
  g_autofree char *m = study_refusal("platforms = torus:4x4x4:bw={1..4096}\n"
                                     "strategies = greedy+wh:delta={1..4096}\n"
                                     "seeds = {1..256}\n", &seconds);
  cr_assert_str_eq(m, "s.ini:1: 4294967296 cells (1 input x kind x model, 4096 platforms, 4096 "
                      "strategies, 256 seeds), more than the 1048576 a study may have, expected "
                      "fewer");
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
  g_autofree char *m2 = study_refusal("platforms = torus:4x4x4:bw={1..4096}\n"
                                      "strategies = greedy+wh:delta={1..4096}\n", &seconds);
  cr_assert_str_eq(m2, "s.ini:1: 16777216 cells (1 input x kind x model, 4096 platforms, 4096 "
                       "strategies, 1 seed), more than the 1048576 a study may have, expected "
                       "fewer");
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
  /* many entries of a sweep each: their sum */
  GString *many = g_string_new("platforms = torus:4x4x4\nstrategies = identity\nseeds = ");
  for (int i = 0; i < 300; i++)
    g_string_append_printf(many, "%s{%d..%d}", i ? "; " : "", i * 4096, i * 4096 + 4095);
  g_string_append_c(many, '\n');
  g_autofree char *m3 = study_refusal(many->str, &seconds);
  cr_assert_str_eq(m3, "s.ini:5: [study] seeds: 1228800 seeds, more than the 1048576 cells a "
                       "study may have, expected fewer");
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
  g_string_free(many, TRUE);
}

/* Below the maximum, the memory the cells' rows will take is set against
 * the budget (48 KiB a cell): 65,536 cells need 3 GiB. */
Test(study_size, cells_against_the_memory_budget)
{
  budget_set_memory((uint64_t)1 << 30);
  double seconds;
  g_autofree char *m = study_refusal("platforms = torus:4x4x4:bw={1..4096}\n"
                                     "strategies = greedy+wh:delta={1..16}\n", &seconds);
  cr_assert_str_eq(m, "s.ini:1: the study's 65536 cells (1 input x kind x model, 4096 "
                      "platforms, 16 strategies, 1 seed): needs about 3.0 GiB, more than the "
                      "memory budget of 1.0 GiB (--max-memory)");
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
}

/* The same through the command: exit 2, one line, at once. */
Test(study_size, check_refuses_at_once)
{
  g_autofree char *matrix = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *text = g_strdup_printf("[study]\nmatrices = %s\n"
                                          "platforms = torus:4x4x4:bw={1..4096}\n"
                                          "strategies = greedy+wh:delta={1..4096}\n"
                                          "seeds = {1..256}\n", matrix);
  g_autofree char *path = tu_write_tmp("huge.ini", text);
  char *out = NULL, *err = NULL;
  const char *args[] = { "study", path, "--check", NULL };
  gint64 t0 = g_get_monotonic_time();
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  double seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  cr_assert_not_null(strstr(err, "huge.ini:1: 4294967296 cells"), "%s", err);
  cr_assert_str_eq(out, "");
  g_free(out);
  g_free(err);
}
