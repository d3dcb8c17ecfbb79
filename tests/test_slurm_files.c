/* test_slurm_files.c - Slurm topology files as sites write them
 * (routing/platform-slurm.c): names Slurm allows that mapsim once took
 * for its own (`top`, `b1..b2`, `(top)`), a topology.conf of any name
 * behind any number of comments, and what Slurm's files may not say -
 * a key, a document, a cluster default or BlockSizes twice, block_sizes
 * that are no list - refused in one line naming both places. The trees
 * are written out by hand: node names first, then the switches in the
 * order a walk from the top meets them. */
#include <string.h>

#include "testutil.h"

static platform *load_file(const char *name, const char *text)
{
  g_autofree char *path = tu_write_tmp(name, text);
  return tu_platform(path);
}

/* The platform's switch names, in walk order, joined by blanks. */
static char *switch_names(const platform *p)
{
  int nodes = p->topo->nnodes - p->topo->nswitches;
  GString *s = g_string_new(NULL);
  for (int i = 0; i < p->topo->nswitches; i++)
    g_string_append_printf(s, "%s%s", i ? " " : "", p->names[nodes + i]);
  return g_string_free(s, FALSE);
}

/* A block named `top` was refused: the switch mapsim puts over the
 * blocks took the name. That switch is now `top'`. */
Test(slurm_files, a_block_named_top)
{
  platform *p = load_file("topology.conf", "BlockName=top Nodes=n[1-4]\n"
                                           "BlockName=b2 Nodes=n[5-8]\n");
  g_autofree char *names = switch_names(p);
  cr_assert_str_eq(names, "top' top b2");
  cr_assert_str_eq(p->names[0], "n1");
  cr_assert_eq(route_hops(p->router, 0, 7), 4);
  platform_free(p);
}

/* `b1..b2` was refused as a block name: mapsim names its groups of
 * blocks FIRST..LAST. Its group is now `b1..b2'`. */
Test(slurm_files, a_block_named_like_a_group)
{
  platform *p = load_file("topology.conf", "BlockName=b1 Nodes=n[1-4]\n"
                                           "BlockName=b2 Nodes=n[5-8]\n"
                                           "BlockName=b1..b2 Nodes=n[9-12]\n"
                                           "BlockName=b4 Nodes=n[13-16]\n"
                                           "BlockSizes=4,8\n");
  g_autofree char *names = switch_names(p);
  cr_assert_str_eq(names, "top b1..b2' b1 b2 b1..b2..b4 b1..b2 b4");
  cr_assert_eq(p->topo->nnodes - p->topo->nswitches, 16);
  platform_free(p);
}

/* A switch named `(top)` among several tops: the one mapsim joins them
 * under is `(top)'`, and the note says so. */
Test(slurm_files, a_switch_named_top_in_parentheses)
{
  platform *p = load_file("topology.conf", "SwitchName=(top) Nodes=n[1-4]\n"
                                           "SwitchName=s2 Nodes=n[5-8]\n");
  g_autofree char *names = switch_names(p);
  cr_assert_str_eq(names, "(top)' (top) s2");
  cr_assert_eq(p->notes->len, 1);
  cr_assert_not_null(strstr(g_ptr_array_index(p->notes, 0), "no switch is above all others "
                                                              "((top), s2); mapsim joins them "
                                                              "under a switch '(top)''"),
                     "%s", (char *)g_ptr_array_index(p->notes, 0));
  platform_free(p);
}

/* A topology.conf of another name was recognised by its first word
 * within its first 4 KiB only; behind more comments (or one longer than
 * that) it was read as an INI file. */
Test(slurm_files, any_name_behind_any_comments)
{
  GString *text = g_string_new(NULL);
  for (int i = 0; i < 100; i++)
    g_string_append(text, "# a comment line long enough to fill the first kilobytes ........\n");
  g_string_append_c(text, '#');
  for (int i = 0; i < 10000; i++)
    g_string_append_c(text, 'x');
  g_string_append(text, "\n\n   SwitchName=s1 Nodes=n[1-4]\n");
  cr_assert_gt(text->len, 16384);
  platform *p = load_file("fabric", text->str);
  cr_assert_eq(p->topo->nswitches, 1);
  cr_assert_str_eq(p->names[3], "n4");
  platform_free(p);
  g_string_free(text, TRUE);
  /* an INI platform file of another name is still one */
  platform *ini = load_file("plain", "# a platform\n[topology]\nshape = 2x2\n"
                                     "[linktype.a]\nbandwidth = 1e9\nlatency = 1e-9\n"
                                     "[links]\ndefault = a\n");
  cr_assert_eq(ini->topo->nnodes, 4);
  platform_free(ini);
}

/* What Slurm's files may not say, each named with both places. */
Test(slurm_files, said_twice_refused_with_both_lines)
{
  static const struct {
    const char *name, *text, *want;
  } bad[] = {
    { "topology.conf", "BlockName=b1 Nodes=n[1-4]\nBlockSizes=4\nBlockName=b2 Nodes=n[5-8]\n"
                       "BlockSizes=8\n",
      ":4: BlockSizes again (first on line 2), expected it once" },
    { "topology.yaml", "- topology: t\n  tree:\n    switches:\n      - switch: s0\n"
                       "        nodes: n[1-4]\n        nodes: n[5-8]\n",
      ":6: key 'nodes' again (first on line 5), expected each key of a mapping once" },
    { "topology.yaml", "- topology: t\n  tree:\n    switches:\n      - switch: s0\n"
                       "        nodes: n[1-4]\n---\n- topology: u\n  flat: true\n",
      ":7: a second YAML document (the first on line 1), expected one" },
    { "topology.yaml", "- topology: t\n  cluster_default: true\n  flat: true\n"
                       "- topology: u\n  cluster_default: true\n  flat: true\n",
      ":4: topology 'u' is a cluster_default too (first: 't' on line 1), expected one" },
    { "topology.yaml", "- topology: t\n  block:\n    block_sizes: {a: 4}\n    blocks:\n"
                       "      - block: b1\n        nodes: n[1-4]\n",
      ":3: block_sizes is a mapping, expected a list like [4, 16]" },
    { "topology.yaml", "- topology: t\n  block:\n    block_sizes: 4\n    blocks:\n"
                       "      - block: b1\n        nodes: n[1-4]\n",
      ":3: block_sizes is one value, expected a list like [4, 16]" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *path = tu_write_tmp(bad[i].name, bad[i].text);
    GError *e = NULL;
    cr_assert_null(platform_load(path, &e), "%s loaded", bad[i].text);
    g_autofree char *want = g_strconcat(path, bad[i].want, NULL);
    cr_assert_str_eq(e->message, want);
    g_error_free(e);
  }
}
