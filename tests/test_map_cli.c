/* test_map_cli.c - end-to-end tests of `mapsim map` and `mapsim
 * strategies`: a good run writes a valid mapping file and reports both
 * columns; bad inputs exit with status 2 after exactly one line. */
#include <criterion/criterion.h>
#include <string.h>

#include "mapping/mapping.h"
#include "mapping/strategy.h"
#include "testutil.h"

typedef struct run_out {
  int status;
  char *out, *err;
} run_out;

static run_out mapsim(const char *const *args)
{
  const char *bin = g_getenv("MAPSIM");
  cr_assert_not_null(bin, "MAPSIM is not set");
  GPtrArray *argv = g_ptr_array_new();
  g_ptr_array_add(argv, (char *)bin);
  for (int i = 0; args[i]; i++)
    g_ptr_array_add(argv, (char *)args[i]);
  g_ptr_array_add(argv, NULL);
  run_out r = { 0 };
  int wait = 0;
  GError *e = NULL;
  cr_assert(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &r.out,
                         &r.err, &wait, &e), "%s", e ? e->message : "");
  r.status = WIFEXITED(wait) ? WEXITSTATUS(wait) : -1;
  g_ptr_array_free(argv, TRUE);
  return r;
}

static void run_free(run_out *r)
{
  g_free(r->out);
  g_free(r->err);
}

/* Exit 2 with exactly one line on stderr containing `needle`. */
static void assert_bad(const char *const *args, const char *needle)
{
  run_out r = mapsim(args);
  cr_assert_eq(r.status, 2, "status %d, stderr: %s", r.status, r.err);
  size_t len = strlen(r.err);
  cr_assert(len > 0 && r.err[len - 1] == '\n' && strchr(r.err, '\n') == r.err + len - 1,
            "expected one line, got: %s", r.err);
  cr_assert_not_null(strstr(r.err, needle), "'%s' not in: %s", needle, r.err);
  run_free(&r);
}

Test(map_cli, writes_valid_mapping)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *out = g_build_filename(dir, "cg.map", NULL);
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *c = tu_data("maplib/cg.p2p.count.csv");
  const char *args[] = { "map", "--platform", "torus:4x4x4", "--matrix", m, "--counts", c,
                         "--strategy", "greedy+wh:delta=16+mc", "-o", out, NULL };
  run_out r = mapsim(args);
  cr_assert_eq(r.status, 0, "%s", r.err);
  cr_assert_not_null(strstr(r.out, "identity"));
  cr_assert_not_null(strstr(r.out, "greedy+wh:delta=16+mc"));
  cr_assert_not_null(strstr(r.out, "hop_bytes"));
  platform *p = platform_load("torus:4x4x4", NULL);
  GError *e = NULL;
  mapping *mp = mapping_load(out, p, 64, &e);
  cr_assert_not_null(mp, "%s", e ? e->message : "");
  mapping_free(mp);
  platform_free(p);
  run_free(&r);
}

Test(map_cli, json_and_seed_determinism)
{
  g_autofree char *m = tu_data("maplib/amg.p2p.size.csv");
  const char *args[] = { "map", "-p", "mesh:4x4x4", "-m", m, "-s", "kl", "--seed", "7",
                         "--json", NULL };
  run_out a = mapsim(args), b = mapsim(args);
  cr_assert_eq(a.status, 0, "%s", a.err);
  cr_assert_not_null(strstr(a.out, "\"mapped\""));
  cr_assert_not_null(strstr(a.out, "\"identity\""));
  /* same seed: same metrics (the times differ) */
  char *ha = strstr(a.out, "\"mapped\""), *hb = strstr(b.out, "\"mapped\"");
  cr_assert_str_eq(ha, hb);
  run_free(&a);
  run_free(&b);
}

Test(map_cli, coords_file)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *coords = g_build_filename(dir, "c.txt", NULL);
  GString *s = g_string_new("# x y z\n");
  for (int r = 0; r < 64; r++)
    g_string_append_printf(s, "%d %d %d\n", r % 4, r / 4 % 4, r / 16);
  cr_assert(g_file_set_contents(coords, s->str, -1, NULL));
  g_string_free(s, TRUE);
  g_autofree char *m = tu_data("maplib/lulesh.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy", "--coords",
                         coords, NULL };
  run_out r = mapsim(args);
  cr_assert_eq(r.status, 0, "%s", r.err);
  run_free(&r);
}

Test(map_cli, unknown_strategy)
{
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy+nosuch", NULL };
  assert_bad(args, "unknown strategy 'nosuch'");
}

/* The strategy is checked before the inputs are read: a mistyped step is
 * named with the nearest valid one even when the matrix does not exist. */
Test(map_cli, strategy_checked_before_inputs)
{
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", "no-such.csv", "-s", "greedy+whx",
                         NULL };
  assert_bad(args, "--strategy greedy+whx: unknown strategy 'whx', did you mean 'wh'?");
}

Test(map_cli, bad_option_value)
{
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy+wh:delta=0", NULL };
  assert_bad(args, "wh:delta=0");
  const char *args2[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "kl:t=x", NULL };
  assert_bad(args2, "kl:t=x");
  const char *args3[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "wh:nosuch=1", NULL };
  assert_bad(args3, "nosuch");
}

Test(map_cli, missing_strategy)
{
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, NULL };
  assert_bad(args, "--strategy");
}

Test(map_cli, missing_coords_file)
{
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy", "--coords",
                         "/nonexistent/coords.txt", NULL };
  assert_bad(args, "/nonexistent/coords.txt");
}

Test(map_cli, ragged_coords_file)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *coords = g_build_filename(dir, "c.txt", NULL);
  cr_assert(g_file_set_contents(coords, "0 0 0\n1 0\n", -1, NULL));
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy", "--coords",
                         coords, NULL };
  g_autofree char *where = g_strdup_printf("%s:2:", coords);
  assert_bad(args, where);
  cr_assert(g_file_set_contents(coords, "0 0 0\n1 0 zz\n", -1, NULL));
  assert_bad(args, "'zz', expected a number");
  cr_assert(g_file_set_contents(coords, "0 0 0\n", -1, NULL));
  assert_bad(args, "expected one per rank (64)");
}

Test(map_cli, too_many_ranks)
{
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:2x2x2", "-m", m, "-s", "greedy", NULL };
  assert_bad(args, "do not fit");
}

Test(map_cli, strategies_lists_registry)
{
  const char *args[] = { "strategies", NULL };
  run_out r = mapsim(args);
  cr_assert_eq(r.status, 0);
  for (int i = 0; strategy_registry[i]; i++)
    cr_assert_not_null(strstr(r.out, strategy_registry[i]->name), "%s missing",
                       strategy_registry[i]->name);
  cr_assert_not_null(strstr(r.out, "deveci2015"));
  cr_assert_not_null(strstr(r.out, "delta=8"));
  run_free(&r);
}

/* The change against identity equals the two columns' own values:
 * CG's greedy+wh from 132795604992 to 86555103744 hop-bytes, -34.82 %. */
Test(map_cli, change_against_identity)
{
  g_autofree char *m = tu_data("maplib/cg.p2p.size.csv");
  const char *args[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy+wh", "--json", NULL };
  run_out r = mapsim(args);
  cr_assert_eq(r.status, 0, "%s", r.err);
  cr_assert_not_null(strstr(r.out, "\"hop_bytes\" : -34.82080694672"), "%s", r.out);
  run_free(&r);
  const char *text[] = { "map", "-p", "torus:4x4x4", "-m", m, "-s", "greedy+wh", NULL };
  r = mapsim(text);
  cr_assert_not_null(strstr(r.out, "change against identity: hop_bytes -34.8%, max_link_bytes "
                                   "-60.0%"), "%s", r.out);
  run_free(&r);
}
