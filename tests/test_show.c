/* test_show.c - `mapsim show`: the drawn grid of a hand-checkable case
 * (a pair of ranks on a 3x2 mesh: one busy cable between them, nothing
 * else), a torus wrap link, quarter levels of the load, several strategies
 * on one scale, and platforms it refuses. */
#include <string.h>

#include "testutil.h"

Test(show, pair_on_a_mesh)
{
  char *pair = tu_data("y_pair.csv");
  char *out = NULL, *err = NULL;
  const char *args[] = { "show", "-p", "mesh:3x2", "-m", pair, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  /* ranks 0 and 1 on nodes 0 and 1 (identity), 5 bytes each way: the
   * busiest cable (level 4); node 2 and the second row are empty; no
   * vertical cable carries anything */
  cr_assert_str_eq(lines[2], "    r0 @@@     r1          .");
  cr_assert_str_eq(lines[3], "                                 ");
  cr_assert_str_eq(lines[4], "     .          .          .");
  cr_assert_not_null(strstr(out, "up to 5 bytes (this mapping's busiest link)"), "%s", out);
  cr_assert_not_null(strstr(out, "hop_bytes 10, max_link_bytes 5, links used 2 of 14"), "%s", out);
  g_free(out);
  g_free(err);
  g_free(pair);
}

/* A ring of 4 ranks on torus:4: every cable carries the same bytes, the
 * wrap cable 3 - 0 is drawn after the last node. */
Test(show, torus_wrap)
{
  char *ring = tu_write_tmp("ring.edges", "0 1 100\n1 2 100\n2 3 100\n3 0 100\n");
  char *out = NULL, *err = NULL;
  const char *args[] = { "show", "-p", "torus:4", "-m", ring, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  cr_assert_str_eq(lines[2], "    r0 @@@     r1 @@@     r2 @@@     r3 ~ @@@ ");
  g_free(out);
  g_free(err);
  g_free(ring);
}

/* Loads at 1/4, 1/2, 3/4 and all of the busiest link on a line. */
Test(show, quarter_levels)
{
  char *line = tu_write_tmp("line.edges", "0 1 25\n1 2 50\n2 3 75\n3 4 100\n");
  char *out = NULL;
  const char *args[] = { "show", "-p", "mesh:5", "-m", line, NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  cr_assert_str_eq(lines[2], "    r0 ---     r1 ===     r2 ###     r3 @@@     r4");
  g_free(out);
  g_free(line);
}

Test(show, refuses_what_it_cannot_draw)
{
  char *pair = tu_data("y_pair.csv");
  const char *big[] = { "show", "-p", "torus:32x32", "-m", pair, NULL };
  const char *four[] = { "show", "-p", "torus:2x2x2x2", "-m", pair, NULL };
  const char *const *cases[] = { big, four };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *err = NULL;
    cr_assert_eq(tu_run(NULL, &err, cases[i]), 2);
    cr_assert_not_null(strstr(err, "show draws 1D to 3D"), "%s", err);
    cr_assert_eq(tu_lines(err), 1);
    g_free(err);
  }
  g_free(pair);
}

/* Two strategies on one scale: identity loads the line's links with 25,
 * 50, 75 and 100 bytes; random (seed 1) puts 150 bytes on one link, which
 * becomes the top of the shared scale: identity's levels are then
 * ceil(4 x load / 150) = 1, 2, 2, 3, and with --scale own quarters of its
 * own 100 bytes (1, 2, 3, 4); --scale 400 fixes the top at 400 bytes. */
Test(show, strategies_share_one_scale)
{
  char *line = tu_write_tmp("line.edges", "0 1 25\n1 2 50\n2 3 75\n3 4 100\n");
  const char *scales[] = { NULL, "own", "400" };
  const char *want[] = { "    r0 ---     r1 ===     r2 ===     r3 ###     r4",
                         "    r0 ---     r1 ===     r2 ###     r3 @@@     r4",
                         "    r0 ---     r1 ---     r2 ---     r3 ---     r4" };
  const char *top[] = { "up to 150 bytes (the busiest link of the mappings shown, one scale for "
                        "all)", "up to 100 bytes (this mapping's busiest link)",
                        "up to 400 bytes (--scale)" };
  for (int k = 0; k < 3; k++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "show", "-p", "mesh:5", "-m", line, "-s", "identity", "-s", "random",
                           scales[k] ? "--scale" : NULL, scales[k], NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    cr_assert_str_eq(lines[2], want[k], "--scale %s:\n%s", scales[k], out);
    cr_assert_not_null(strstr(out, top[k]), "%s", out);
    cr_assert_not_null(strstr(out, "mapping random"), "%s", out);
    g_free(out);
    g_free(err);
  }
  const char *bad[] = { "show", "-p", "mesh:5", "-m", line, "--scale", "big", NULL };
  char *err = NULL;
  cr_assert_eq(tu_run(NULL, &err, bad), 2);
  cr_assert_not_null(strstr(err, "--scale big: expected shared, own or a number"), "%s", err);
  g_free(err);
  g_free(line);
}

/* A dragonfly as groups: rank 0 on node 0 (group 0, router 0), rank 1 on
 * node 4 (group 1, router 0); 5 bytes each way take node up, the cable
 * between the groups' routers 0 and node down (3 hops each: hop_bytes
 * 30); every other link is unused ('.'), cells without a link blank. */
Test(show, dragonfly_as_groups)
{
  char *pair = tu_data("y_pair.csv");
  char *map = tu_write_tmp("pair.map", "0 0\n1 4\n");
  char *out = NULL, *err = NULL;
  const char *args[] = { "show", "-p", "dragonfly:g=3:a=2:p=2:h=1", "-m", pair, "-M", map, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  cr_assert_str_eq(lines[2], "global links, group to group (from group down, to group across)");
  cr_assert_str_eq(lines[4], " 0    @ .");
  cr_assert_str_eq(lines[5], " 1  @   .");
  cr_assert_str_eq(lines[6], " 2  . .  ");
  cr_assert_str_eq(lines[10], " 0  @ .");
  cr_assert_str_eq(lines[11], " 1  @ .");
  cr_assert_not_null(strstr(out, "hop_bytes 30, max_link_bytes 5, links used 6 of 36"), "%s",
                     out);
  g_free(out);
  g_free(err);
  g_free(map);
  g_free(pair);
}

/* A Slurm tree is listed switch by switch, its nodes as Slurm's hostlist,
 * then drawn by level. */
Test(show, slurm_tree_listed)
{
  char *pair = tu_data("y_pair.csv");
  char *conf = tu_data("slurm/tree.conf");
  char *out = NULL;
  const char *args[] = { "show", "-p", conf, "-m", pair, NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  cr_assert_not_null(strstr(out, "\ntop            level 3  11 nodes  nid[001-010,012]\n"), "%s",
                     out);
  cr_assert_not_null(strstr(out, "\n  spine1       level 2  3 nodes  nid[009-010,012]\n"));
  cr_assert_not_null(strstr(out, "\n    leaf0      level 1  4 nodes  nid[001-004]\n"));
  cr_assert_not_null(strstr(out, "level 1 switches: busiest link up and down"));
  g_free(out);
  g_free(conf);
  g_free(pair);
}

/* A 2x2 mesh with one load level per cable: x cables at 100 (the busiest,
 * @@@) and 25 (---), y cables at 25 (|) and 50 (:), the legend's glyphs
 * for those levels; on a 2x2x2 mesh the z links, one way at 25, 75, 50
 * and 100 bytes in the strip under plane 0 (up: to z = 1), the other way
 * at 100, 50, 75 and 25 in the strip under plane 1 (down). */
Test(show, glyphs_of_every_level_as_the_legend_says)
{
  char *square = tu_write_tmp("square.edges", "0 1 100\n2 3 25\n0 2 25\n1 3 50\n");
  char *out = NULL, *err = NULL;
  const char *args[] = { "show", "-p", "mesh:2x2", "-m", square, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  cr_assert_str_eq(lines[2], "    r0 @@@     r1");
  cr_assert_str_eq(lines[3], "     |          :     ");
  cr_assert_str_eq(lines[4], "    r2 ---     r3");
  cr_assert_not_null(strstr(out, "links: --- | up to 1/4, === : up to 1/2, ### H up to 3/4, "
                                 "@@@ @ up to 100 bytes"), "%s", out);
  g_free(out);
  g_free(err);
  char *cube = tu_write_tmp("cube.edges", "0 4 25\n1 5 75\n2 6 50\n3 7 100\n"
                                              "4 0 100\n5 1 50\n6 2 75\n7 3 25\n");
  const char *args3[] = { "show", "-p", "mesh:2x2x2", "-m", cube, NULL };
  cr_assert_eq(tu_run(&out, &err, args3), 0, "%s", err);
  g_strfreev(lines);
  lines = g_strsplit(out, "\n", -1);
  int at = 0;
  while (lines[at] && !g_str_has_prefix(lines[at], "links along z"))
    at++;
  cr_assert_not_null(lines[at], "%s", out);
  cr_assert_str_eq(lines[at], "links along z from this plane, per node (up: to z+1, down: to z-1):");
  cr_assert_str_eq(lines[at + 1], "  up |          H");
  cr_assert_str_eq(lines[at + 2], "down             ");
  cr_assert_str_eq(lines[at + 3], "  up :          @");
  cr_assert_str_eq(lines[at + 4], "down             ");
  at += 5;
  while (lines[at] && !g_str_has_prefix(lines[at], "links along z"))
    at++;
  cr_assert_not_null(lines[at], "%s", out);
  cr_assert_str_eq(lines[at + 1], "  up             ");
  cr_assert_str_eq(lines[at + 2], "down @          :");
  cr_assert_str_eq(lines[at + 4], "down H          |");
  g_free(out);
  g_free(err);
  g_free(cube);
  g_free(square);
}

/* The platform alone, without traffic: a mesh's nodes, a Slurm tree's
 * switches, every link unused. */
Test(show, platform_without_traffic)
{
  char *tree = tu_data("slurm/tree.conf");
  char *out = NULL, *err = NULL;
  const char *args[] = { "show", "-p", tree, NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  cr_assert_not_null(strstr(out, "no traffic"), "%s", out);
  cr_assert_not_null(strstr(out, "    leaf0      level 1  4 nodes  nid[001-004]"), "%s", out);
  cr_assert_not_null(strstr(out, "cells: . a link (none carries traffic)"), "%s", out);
  g_free(out);
  g_free(err);
  const char *mesh[] = { "show", "-p", "mesh:3x2", NULL };
  cr_assert_eq(tu_run(&out, &err, mesh), 0, "%s", err);
  g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
  cr_assert_str_eq(lines[2], "     .          .          .");
  g_free(out);
  g_free(err);
  const char *placed[] = { "show", "-p", "mesh:3x2", "-s", "greedy", NULL };
  cr_assert_eq(tu_run(NULL, &err, placed), 2);
  cr_assert_not_null(strstr(err, "expected --trace T or --matrix M"), "%s", err);
  g_free(err);
  g_free(tree);
}
