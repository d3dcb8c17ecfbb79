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

/* ---- Slurm's hostlists ---- */

static void expect_count(const char *text, gint64 names, gsize longest)
{
  gint64 n = -1;
  gsize len = 0;
  GError *e = NULL;
  cr_assert(hostlist_count(text, &n, &len, &e), "%s: %s", text, e ? e->message : "?");
  cr_assert_eq(n, names, "%s: %" G_GINT64_FORMAT " names", text, n);
  cr_assert_eq(len, longest, "%s: longest %zu", text, len);
}

/* Counts in closed form, without making a name: a range list is the sum
 * of its ranges, brackets multiply, commas add. */
Test(hostlist_size, counted_without_expanding)
{
  expect_count("n[1-3,5]", 4, 2);
  expect_count("a[1-2]b[3-4]", 4, 4);
  expect_count("n[009-10]", 2, 4);
  expect_count("n[9-10]", 2, 3);
  expect_count("x[9-11],y,z[1,3]", 6, 3);
  expect_count("n[1-2],,m", 3, 2);
  expect_count("xNn[0-4194302]", 4194303, 10);
  expect_count("a[0-2047]b[0-2047]", 4194304, 10);
  /* one more than the limit, as a product: refused before a name is made */
  gint64 t0 = g_get_monotonic_time();
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  GError *e = NULL;
  cr_assert_not(hostlist_expand("a[0-2048]b[0-2047]", out, &e));
  cr_assert_str_eq(e->message, "hostlist 'a[0-2048]b[0-2047]': more names than the limit, "
                               "expected names like nid[001-032] or tux[0-3,12],login1");
  cr_assert_eq(out->len, 0);
  cr_assert_lt(g_get_monotonic_time() - t0, 100000, "refused in more than 0.1 s");
  g_clear_error(&e);
  g_ptr_array_unref(out);
}

/* Loads a Slurm file written to `name`; its error message. */
static char *slurm_refusal(const char *name, const char *text, double *seconds, char **path)
{
  *path = tu_write_tmp(name, text);
  GError *e = NULL;
  gint64 t0 = g_get_monotonic_time();
  platform *p = platform_load(*path, &e);
  *seconds = (double)(g_get_monotonic_time() - t0) * 1e-6;
  cr_assert_null(p, "%s loaded", name);
  char *m = g_strdup(e->message);
  g_error_free(e);
  return m;
}

/* A 456-byte topology.conf - `SwitchName=sN Nodes=xNn[0-4194302]` twelve
 * times - ended in a GLib allocation abort; with --max-memory 512M three
 * such lines reached 1.17 GB before the budget refused. Now the file's
 * hostlists are counted first: refused at the line where they pass the
 * limit, or the budget, before a name is made. */
Test(hostlist_size, a_slurm_file_counted_before_it_is_expanded)
{
  GString *text = g_string_new(NULL);
  for (int i = 1; i <= 12; i++)
    g_string_append_printf(text, "SwitchName=s%d Nodes=x%dn[0-4194302]\n", i, i);
  double seconds;
  g_autofree char *path = NULL;
  g_autofree char *m = slurm_refusal("topology.conf", text->str, &seconds, &path);
  g_autofree char *want = g_strdup_printf("%s:2: Nodes: 8388606 names in the file's hostlists up "
                                          "to here, more than 4194304, expected fewer", path);
  cr_assert_str_eq(m, want);
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
  /* line 1: 4,194,303 names of at most 10 bytes, 2 x (10 + 17) + 96 = 150 bytes each */
  budget_set_memory((uint64_t)512 << 20);
  g_autofree char *path2 = NULL;
  g_autofree char *m2 = slurm_refusal("topology.conf", text->str, &seconds, &path2);
  g_autofree char *want2 = g_strdup_printf("%s:1: Nodes: the 4194303 names of its hostlists up "
                                           "to here: needs about 600.0 MiB, more than the memory "
                                           "budget of 512.0 MiB (--max-memory)", path2);
  cr_assert_str_eq(m2, want2);
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
  g_string_free(text, TRUE);
}

/* A 495-byte topology.yaml naming one anchored hostlist again and again
 * through aliases took 2.3 GB: every use of an alias is counted. */
Test(hostlist_size, yaml_aliases_counted)
{
  const char *text = "- topology: t\n"
                     "  tree:\n"
                     "    switches:\n"
                     "      - switch: s0\n"
                     "        nodes: &h n[0-999999]\n"
                     "      - switch: s1\n"
                     "        nodes: [*h, *h, *h, *h]\n";
  double seconds;
  g_autofree char *path = NULL;
  g_autofree char *m = slurm_refusal("topology.yaml", text, &seconds, &path);
  g_autofree char *want = g_strdup_printf("%s:5: nodes: 5000000 names in the file's hostlists up "
                                          "to here, more than 4194304, expected fewer", path);
  cr_assert_str_eq(m, want);
  cr_assert_lt(seconds, 1.0, "%.2f s", seconds);
}
