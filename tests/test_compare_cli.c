/* test_compare_cli.c - `mapsim compare`: the grid of platforms x
 * strategies, pre == post in every cell, the same table whatever the
 * thread count, and a failing cell reported without hiding the others. */
#include <json-glib/json-glib.h>
#include <string.h>

#include "testutil.h"

Test(compare_cli, grid_json_and_values)
{
  char *trace = tu_src("traces/data/stencil3d-64");
  char *out = NULL;
  const char *args[] = { "compare", "--json", "-t", trace, "-p", "torus:4x4x4", "-p", "mesh:4x4x4",
                         "-s", "identity", "-s", "random", NULL };
  cr_assert_eq(tu_run(&out, NULL, args), 0);
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, out, -1, NULL), "%s", out);
  JsonObject *o = json_node_get_object(json_parser_get_root(jp));
  JsonArray *cells = json_object_get_array_member(o, "cells");
  cr_assert_eq(json_array_get_length(cells), 4);
  for (guint i = 0; i < 4; i++) {
    JsonObject *c = json_array_get_object_element(cells, i);
    cr_assert(json_object_get_boolean_member(c, "pre_post_match"));
    JsonObject *pre = json_object_get_object_member(c, "pre");
    JsonObject *post = json_object_get_object_member(c, "post");
    cr_assert_eq(json_object_get_int_member(pre, "hop_bytes"),
                 json_object_get_int_member(post, "hop_bytes"));
  }
  /* cell 0: identity on the torus is the stencil's own shape: 1 hop per
   * message, 1152 messages of 4096 bytes */
  JsonObject *c0 = json_array_get_object_element(cells, 0);
  cr_assert_str_eq(json_object_get_string_member(c0, "platform"), "torus:4x4x4");
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(c0, "pre"), "hop_bytes"),
               1152 * 4096);
  /* mesh wrap edges cost 3 hops: (6 x 1 + 2 x 3) / 8 per ring -> 1.5 x */
  JsonObject *c2 = json_array_get_object_element(cells, 2);
  cr_assert_eq(json_object_get_int_member(json_object_get_object_member(c2, "pre"), "hop_bytes"),
               1152 * 4096 * 3 / 2);
  g_object_unref(jp);
  g_free(out);
  g_free(trace);
}

Test(compare_cli, same_table_whatever_the_threads)
{
  char *trace = tu_src("traces/data/cg-16");
  char *a = NULL, *b = NULL;
  const char *one[] = { "compare", "-t", trace, "-p", "torus:4x4", "-p", "haec:2x2x4", "-s", "identity",
                        "-s", "random", "-s", "greedy+wh", "--model", "flow", "-j", "1", NULL };
  const char *two[] = { "compare", "-t", trace, "-p", "torus:4x4", "-p", "haec:2x2x4", "-s", "identity",
                        "-s", "random", "-s", "greedy+wh", "--model", "flow", "-j", "3", NULL };
  cr_assert_eq(tu_run(&a, NULL, one), 0);
  cr_assert_eq(tu_run(&b, NULL, two), 0);
  cr_assert_str_eq(a, b);
  g_free(a);
  g_free(b);
  g_free(trace);
}

Test(compare_cli, failing_cell_exit_2)
{
  char *trace = tu_src("traces/data/stencil3d-64");
  char *out = NULL, *err = NULL;
  const char *args[] = { "compare", "-t", trace, "-p", "torus:4x4x4", "-p", "torus:2x2x2", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 2);
  cr_assert_not_null(strstr(out, "torus:4x4x4"), "the good cell is still printed: %s", out);
  cr_assert_not_null(strstr(err, "torus:2x2x2 with identity"), "%s", err);
  cr_assert_not_null(strstr(err, "64 ranks do not fit"), "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  g_free(out);
  g_free(err);
  g_free(trace);
}
