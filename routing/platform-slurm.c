/* platform-slurm.c - a platform from the network topology Slurm is told
 * about, so a mapping can be studied on the machine a job runs on:
 *
 *  - topology.conf, topology/tree: `SwitchName=S Nodes=HOSTLIST` (a leaf
 *    switch) or `SwitchName=S Switches=HOSTLIST` (a switch above others),
 *    optional `LinkSpeed=N`; keys case-insensitive, `#` comments, `\` at a
 *    line's end continues it (slurm.conf's syntax);
 *  - topology.conf, topology/block (Slurm 23.11 and 24.x): `BlockName=B
 *    Nodes=HOSTLIST` lines and one `BlockSizes=4,16`;
 *  - topology.yaml (Slurm 25.05): a list of topologies, each `topology:
 *    NAME`, `cluster_default`, and `tree: {switches: [{switch, children,
 *    nodes}]}`, `block: {block_sizes: [...], blocks: [{block, nodes}]}` or
 *    `flat: true`; the one named by [topology] slurm_topology, else the
 *    first cluster default, else the first.
 * Hostlists are Slurm's (hostlist.h). The platform is a tree of switches
 * (tree.c) with the names the file gives: compute nodes in the order a
 * depth-first walk from the top meets them (children as listed), then the
 * switches in the same walk's order, so the nodes under one switch are
 * consecutive ids and `export mapping --hosts` writes their names. A
 * block topology is a tree too: each block a switch over its nodes,
 * BlockSizes' larger sizes switches over that many nodes of consecutive
 * blocks (named `FIRST..LAST`), a switch `top` over the largest - each
 * name a switch mapsim adds gets primes (`top'`) when the file uses it
 * already. Slurm's rules are kept: a switch
 * has nodes or switches, not both, a name once; a node on two leaf
 * switches and a switch under two are refused here (mapsim gives each one
 * link up) - but for a leaf-spine file, every leaf under every spine, which
 * is read as the two-level fat tree it is (slurm-leafspine.c) - and several top switches are joined under a switch `(top)`
 * with a note, where Slurm would not place one job across them. LinkSpeed
 * has no unit in Slurm (it does not use it) and is noted, not read: link
 * types are one per level (node, level2 ...), 200 Gbit/s and 100 ns unless
 * keys say otherwise.
 */
#include "routing/family/family-private.h"
#include "routing/hostlist.h"
#include "routing/platform-private.h"
#include "routing/slurm-private.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "util/budget.h"

#define SLURM_BW 25e9 /* as the other indirect networks' defaults */
#define SLURM_LAT 100e-9

/* What a name of `len` bytes costs from the file to the platform: two
 * copies (the file's lists, the platform's names) and their pointers, its
 * entry in the walk's table of names, its ids. */
#define SLURM_NAME_BYTES(len) (2 * ((guint64)(len) + 17) + 96)

static void sw_free(gpointer data)
{
  sw_desc *s = data;
  g_free(s->name);
  g_ptr_array_unref(s->nodes);
  g_ptr_array_unref(s->children);
  g_free(s);
}

static void desc_init(slurm_desc *d, const char *path)
{
  memset(d, 0, sizeof *d);
  d->path = path;
  d->sw = g_ptr_array_new_with_free_func(sw_free);
  d->index = g_hash_table_new(g_str_hash, g_str_equal);
  d->block_sizes = g_array_new(FALSE, FALSE, sizeof(int));
}

static void desc_clear(slurm_desc *d)
{
  g_hash_table_unref(d->index);
  g_ptr_array_unref(d->sw);
  g_array_unref(d->block_sizes);
}

static gboolean fail(GError **error, const slurm_desc *d, int line, const char *fmt, ...)
  G_GNUC_PRINTF(4, 5);

static gboolean fail(GError **error, const slurm_desc *d, int line, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  if (line > 0)
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "%s:%d: %s", d->path, line, msg);
  else
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE, "%s: %s", d->path, msg);
  return FALSE;
}

/* A new switch (or block) `name`; FALSE when the name is taken. */
static sw_desc *add_switch(slurm_desc *d, const char *name, int line, GError **error)
{
  int prior = GPOINTER_TO_INT(g_hash_table_lookup(d->index, name));
  if (prior) {
    fail(error, d, line, "switch '%s' defined again (first on line %d), expected each name once",
         name, ((sw_desc *)d->sw->pdata[prior - 1])->line);
    return NULL;
  }
  sw_desc *s = g_new0(sw_desc, 1);
  s->name = g_strdup(name);
  s->line = line;
  s->parent = -1;
  s->nodes = g_ptr_array_new_with_free_func(g_free);
  s->children = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(d->sw, s);
  g_hash_table_insert(d->index, s->name, GINT_TO_POINTER((int)d->sw->len));
  return s;
}

/* A switch mapsim adds (a block group, the top over several): `name`, or
 * with primes added (top', top'') when the file already names a switch
 * so - `top`, `b1..b2` and `(top)` are names a file may give. */
static sw_desc *add_made_switch(slurm_desc *d, const char *name)
{
  GString *unique = g_string_new(name);
  while (g_hash_table_contains(d->index, unique->str))
    g_string_append_c(unique, '\'');
  sw_desc *s = add_switch(d, unique->str, 0, NULL);
  g_string_free(unique, TRUE);
  return s;
}

/* Expands hostlist `text` into `out` - or, while d->counting, only counts
 * its names: the file's names in all are held to HOSTLIST_MAX_NAMES and
 * to the memory budget in a first pass over the file, before a name is
 * made (twelve lines of 4 million names each, or one list named again and
 * again through YAML aliases, end there at once). A malformed hostlist
 * counts nothing: its expansion says what is wrong, in the file's order. */
static gboolean expand(slurm_desc *d, int line, const char *what, const char *text,
                       GPtrArray *out, GError **error)
{
  GError *e = NULL;
  gint64 n;
  gsize longest;
  if (d->counting) {
    if (!hostlist_count(text, &n, &longest, NULL))
      return TRUE;
    d->names += n; /* each at most HOSTLIST_MAX_NAMES: no overflow before the check */
    d->name_bytes += (guint64)n * SLURM_NAME_BYTES(longest);
    if (d->names > HOSTLIST_MAX_NAMES)
      return fail(error, d, line, "%s: %" G_GINT64_FORMAT " names in the file's hostlists up "
                  "to here, more than %d, expected fewer", what, d->names, HOSTLIST_MAX_NAMES);
    g_autofree char *cost = g_strdup_printf("the %" G_GINT64_FORMAT " names of its hostlists "
                                            "up to here", d->names);
    budget_check_memory(cost, d->name_bytes, &e);
  } else {
    hostlist_expand(text, out, &e);
  }
  if (e) {
    fail(error, d, line, "%s: %s", what, e->message);
    g_error_free(e);
    return FALSE;
  }
  return TRUE;
}

/* "4,16" (or a YAML list's items one by one) into d->block_sizes. */
static gboolean add_block_size(slurm_desc *d, int line, const char *text, GError **error)
{
  gint64 v;
  if (!g_ascii_string_to_signed(text, 10, 1, 1 << 24, &v, NULL))
    return fail(error, d, line, "block size '%s', expected a whole number of nodes", text);
  int size = (int)v;
  g_array_append_val(d->block_sizes, size);
  d->sizes_line = line;
  return TRUE;
}

/* ---- topology.conf ----------------------------------------------------- */

/* One KEY=VALUE of a line into *key (lower case) and *value (quotes off). */
static gboolean split_pair(slurm_desc *d, int line, const char *token, char **key, char **value,
                           GError **error)
{
  const char *eq = strchr(token, '=');
  if (!eq || eq == token || !eq[1])
    return fail(error, d, line, "'%s', expected KEY=VALUE", token);
  *key = g_ascii_strdown(token, eq - token);
  const char *v = eq + 1;
  gsize n = strlen(v);
  if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
    *value = g_strndup(v + 1, n - 2);
  else
    *value = g_strdup(v);
  return TRUE;
}

static gboolean conf_line(slurm_desc *d, int line, char **tokens, GError **error)
{
  g_autofree char *kind = NULL, *name = NULL;
  if (!split_pair(d, line, tokens[0], &kind, &name, error))
    return FALSE;
  gboolean tree = !strcmp(kind, "switchname"), block = !strcmp(kind, "blockname");
  if (!strcmp(kind, "blocksizes")) {
    if (d->sizes_line)
      return fail(error, d, line, "BlockSizes again (first on line %d), expected it once",
                  d->sizes_line);
    g_auto(GStrv) sizes = g_strsplit(name, ",", -1);
    d->block = TRUE;
    for (int i = 0; sizes[i]; i++)
      if (!add_block_size(d, line, sizes[i], error))
        return FALSE;
    return !tokens[1] || fail(error, d, line, "'%s' after BlockSizes, expected it alone",
                              tokens[1]);
  }
  if (!tree && !block)
    return fail(error, d, line, "'%s', expected SwitchName=, BlockName= or BlockSizes=",
                tokens[0]);
  if (d->sw->len && d->block != block)
    return fail(error, d, line, "%s line in a file of %s lines, expected one kind of topology",
                tree ? "a SwitchName" : "a BlockName", d->block ? "BlockName" : "SwitchName");
  d->block = block;
  sw_desc *s = add_switch(d, name, line, error);
  if (!s)
    return FALSE;
  gboolean seen[3] = { FALSE };
  for (int i = 1; tokens[i]; i++) {
    g_autofree char *key = NULL, *value = NULL;
    if (!split_pair(d, line, tokens[i], &key, &value, error))
      return FALSE;
    int k = !strcmp(key, "nodes") ? 0 : tree && !strcmp(key, "switches") ? 1
            : tree && !strcmp(key, "linkspeed") ? 2 : -1;
    if (k < 0)
      return fail(error, d, line, "'%s', expected %s", tokens[i],
                  tree ? "Nodes=, Switches= or LinkSpeed=" : "Nodes=");
    if (seen[k])
      return fail(error, d, line, "%s given twice, expected it once", key);
    seen[k] = TRUE;
    gint64 speed;
    if (k == 2 && !g_ascii_string_to_signed(value, 10, 0, G_MAXUINT32, &speed, NULL))
      return fail(error, d, line, "LinkSpeed=%s, expected a whole number", value);
    d->link_speed |= k == 2;
    if (k < 2 && !expand(d, line, k ? "Switches" : "Nodes", value, k ? s->children : s->nodes,
                         error))
      return FALSE;
  }
  if (seen[0] && seen[1])
    return fail(error, d, line, "switch %s has both Nodes and Switches, expected one of them "
                "(as Slurm)", name);
  return !block || seen[0] || fail(error, d, line, "block %s without Nodes=, expected them",
                                   name);
}

/* The hostlists of one line, counted (the first pass over the file). */
static gboolean count_line(slurm_desc *d, int line, char **tokens, GError **error)
{
  for (int i = 1; tokens[i]; i++) {
    const char *eq = strchr(tokens[i], '=');
    g_autofree char *key = eq ? g_ascii_strdown(tokens[i], eq - tokens[i]) : NULL;
    if (key && (!strcmp(key, "nodes") || !strcmp(key, "switches")) &&
        !expand(d, line, !strcmp(key, "nodes") ? "Nodes" : "Switches", eq + 1, NULL, error))
      return FALSE;
  }
  return TRUE;
}

typedef gboolean (*conf_fn)(slurm_desc *d, int line, char **tokens, GError **error);

/* `fn` on the tokens of every logical line of `text` (comments cut,
 * continued lines joined), with the line it starts on, until one fails. */
static gboolean conf_lines(slurm_desc *d, const char *text, conf_fn fn, GError **error)
{
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  GString *logical = g_string_new(NULL);
  gboolean ok = TRUE;
  int first = 0;
  for (int i = 0; ok && lines[i]; i++) {
    char *l = lines[i];
    for (char *c = l; *c; c++)
      if (*c == '#' && (c == l || c[-1] != '\\')) {
        *c = '\0';
        break;
      }
    g_strchomp(l);
    if (!logical->len)
      first = i + 1;
    gsize n = strlen(l);
    gboolean more = n && l[n - 1] == '\\';
    g_string_append_len(logical, l, (gssize)(more ? n - 1 : n));
    g_string_append_c(logical, ' ');
    if (more && lines[i + 1])
      continue;
    g_auto(GStrv) tokens = g_strsplit_set(g_strstrip(logical->str), " \t\r", -1);
    int k = 0;
    for (int j = 0; tokens[j]; j++) /* drop the empty ones between blanks */
      if (*tokens[j])
        tokens[k++] = tokens[j];
      else
        g_free(tokens[j]);
    tokens[k] = NULL;
    if (k)
      ok = fn(d, first, tokens, error);
    g_string_truncate(logical, 0);
  }
  g_string_free(logical, TRUE);
  return ok;
}

/* Counted first, then read. */
static gboolean read_conf(slurm_desc *d, const char *text, GError **error)
{
  d->counting = TRUE;
  gboolean ok = conf_lines(d, text, count_line, error);
  d->counting = FALSE;
  return ok && conf_lines(d, text, conf_line, error);
}

/* ---- topology.yaml ----------------------------------------------------- */

typedef struct yaml_ctx {
  slurm_desc *d;
  yaml_document_t doc;
} yaml_ctx;

static int yline(const yaml_node_t *n)
{
  return n ? (int)n->start_mark.line + 1 : 0;
}

/* The scalar text of n, or NULL. */
static const char *yscalar(const yaml_node_t *n)
{
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* The value of `key` in mapping n, or NULL. */
static yaml_node_t *yget(yaml_ctx *y, const yaml_node_t *n, const char *key)
{
  if (!n || n->type != YAML_MAPPING_NODE)
    return NULL;
  for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
    const char *k = yscalar(yaml_document_get_node(&y->doc, p->key));
    if (k && !strcmp(k, key))
      return yaml_document_get_node(&y->doc, p->value);
  }
  return NULL;
}

static int ylength(const yaml_node_t *n)
{
  return n && n->type == YAML_SEQUENCE_NODE
             ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : -1;
}

static yaml_node_t *yitem(yaml_ctx *y, const yaml_node_t *n, int i)
{
  return yaml_document_get_node(&y->doc, n->data.sequence.items.start[i]);
}

static gboolean ytrue(const yaml_node_t *n)
{
  const char *s = yscalar(n);
  return s && (!g_ascii_strcasecmp(s, "true") || !g_ascii_strcasecmp(s, "yes"));
}

/* A hostlist given as a string or a list of strings. */
static gboolean yhosts(yaml_ctx *y, const yaml_node_t *n, const char *what, GPtrArray *out,
                       GError **error)
{
  if (!n)
    return TRUE;
  int len = ylength(n);
  for (int i = 0; i < MAX(len, 1); i++) {
    const yaml_node_t *item = len < 0 ? n : yitem(y, n, i);
    const char *s = yscalar(item);
    if (!s && y->d->counting)
      continue; /* the reading pass names it */
    if (!s)
      return fail(error, y->d, yline(item), "%s, expected a hostlist like n[01-16]", what);
    if (!expand(y->d, yline(item), what, s, out, error))
      return FALSE;
  }
  return TRUE;
}

/* The entries of list `key` of n, each a mapping naming itself by `name`. */
static gboolean yentries(yaml_ctx *y, const yaml_node_t *n, const char *key, const char *name,
                         const char *children, GError **error)
{
  const yaml_node_t *list = yget(y, n, key);
  int len = ylength(list);
  if (len < 0)
    return fail(error, y->d, yline(list ? list : n), "no list '%s:', expected one", key);
  for (int i = 0; i < len; i++) {
    yaml_node_t *e = yitem(y, list, i);
    const char *id = yscalar(yget(y, e, name));
    if (!id)
      return fail(error, y->d, yline(e), "an entry without '%s:', expected one", name);
    sw_desc *s = add_switch(y->d, id, yline(e), error);
    if (!s || !yhosts(y, yget(y, e, "nodes"), "nodes", s->nodes, error) ||
        (children && !yhosts(y, yget(y, e, children), children, s->children, error)))
      return FALSE;
    if (!children && !s->nodes->len)
      return fail(error, y->d, yline(e), "block %s without nodes, expected them", id);
    if (s->nodes->len && s->children->len)
      return fail(error, y->d, yline(e), "switch %s has both nodes and children, expected "
                  "one of them (as Slurm)", id);
  }
  return TRUE;
}

/* The hostlists of the entries of list `key` of n, counted (the first
 * pass: every use of a YAML alias counts). */
static gboolean ycount(yaml_ctx *y, const yaml_node_t *n, const char *key, const char *children,
                       GError **error)
{
  const yaml_node_t *list = yget(y, n, key);
  y->d->counting = TRUE;
  gboolean ok = TRUE;
  for (int i = 0; ok && i < ylength(list); i++) {
    yaml_node_t *e = yitem(y, list, i);
    ok = yhosts(y, yget(y, e, "nodes"), "nodes", NULL, error) &&
         (!children || yhosts(y, yget(y, e, children), children, NULL, error));
  }
  y->d->counting = FALSE;
  return ok;
}

/* The topology [topology] slurm_topology names, else the cluster default,
 * else the first; two cluster defaults are refused (Slurm takes one). */
static yaml_node_t *pick_topology(yaml_ctx *y, const yaml_node_t *root, const char *want,
                                  GError **error)
{
  int len = ylength(root);
  if (len < 1) {
    fail(error, y->d, yline(root), "no list of topologies, expected '- topology: NAME' entries");
    return NULL;
  }
  yaml_node_t *pick = NULL, *def = NULL;
  for (int i = 0; i < len; i++) {
    yaml_node_t *t = yitem(y, root, i);
    const char *name = yscalar(yget(y, t, "topology"));
    gboolean is_default = ytrue(yget(y, t, "cluster_default"));
    if (is_default && def) {
      const char *first = yscalar(yget(y, def, "topology"));
      fail(error, y->d, yline(t), "topology '%s' is a cluster_default too (first: '%s' on line "
           "%d), expected one", name ? name : "?", first ? first : "?", yline(def));
      return NULL;
    }
    def = is_default ? t : def;
    if (want && name && !strcmp(name, want) && !pick)
      pick = t;
  }
  if (!pick && want) {
    fail(error, y->d, 0, "no topology '%s', expected one of the file's (slurm_topology)", want);
    return NULL;
  }
  return pick ? pick : def ? def : yitem(y, root, 0);
}

/* FALSE + error when a mapping of the document has a key twice (libyaml
 * keeps both; the reader would see the first only). Linear in the keys. */
static gboolean ycheck_keys(yaml_ctx *y, GError **error)
{
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal); /* key -> its node */
  gboolean ok = TRUE;
  for (yaml_node_t *n = y->doc.nodes.start; ok && n < y->doc.nodes.top; n++) {
    if (n->type != YAML_MAPPING_NODE)
      continue;
    g_hash_table_remove_all(seen);
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
         ok && p < n->data.mapping.pairs.top; p++) {
      yaml_node_t *key = yaml_document_get_node(&y->doc, p->key);
      const char *k = yscalar(key);
      const yaml_node_t *prior = k ? g_hash_table_lookup(seen, k) : NULL;
      if (prior)
        ok = fail(error, y->d, yline(key), "key '%s' again (first on line %d), expected each "
                  "key of a mapping once", k, yline(prior));
      else if (k)
        g_hash_table_insert(seen, (gpointer)k, key);
    }
  }
  g_hash_table_unref(seen);
  return ok;
}

/* Loads the file's one document into y->doc; FALSE + error when it is not
 * YAML or a second document follows (Slurm reads one). */
static gboolean yload(yaml_ctx *y, const char *text, gsize len, GError **error)
{
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  gboolean ok = yaml_parser_load(&parser, &y->doc);
  if (ok) {
    yaml_document_t next;
    if (yaml_parser_load(&parser, &next)) {
      yaml_node_t *root = yaml_document_get_root_node(&next);
      if (root)
        fail(error, y->d, yline(root), "a second YAML document (the first on line %d), expected "
             "one", yline(yaml_document_get_root_node(&y->doc)));
      ok = root == NULL;
      yaml_document_delete(&next);
    } else {
      ok = FALSE;
    }
    if (!ok)
      yaml_document_delete(&y->doc);
  }
  if (!ok && !(error && *error))
    fail(error, y->d, (int)parser.problem_mark.line + 1, "%s, expected YAML",
         parser.problem ? parser.problem : "unreadable");
  yaml_parser_delete(&parser);
  return ok;
}

/* block_sizes: a list of whole numbers, or none. */
static gboolean yblock_sizes(yaml_ctx *y, const yaml_node_t *block, GError **error)
{
  const yaml_node_t *sizes = yget(y, block, "block_sizes");
  if (sizes && ylength(sizes) < 0)
    return fail(error, y->d, yline(sizes), "block_sizes is %s, expected a list like [4, 16]",
                sizes->type == YAML_MAPPING_NODE ? "a mapping" : "one value");
  for (int i = 0; i < ylength(sizes); i++) {
    const yaml_node_t *item = yitem(y, sizes, i);
    if (!add_block_size(y->d, yline(item), yscalar(item) ? yscalar(item) : "", error))
      return FALSE;
  }
  return TRUE;
}

/* Topology t: counted, then read. */
static gboolean ytopology(yaml_ctx *y, const yaml_node_t *t, GError **error)
{
  slurm_desc *d = y->d;
  const char *name = yscalar(yget(y, t, "topology"));
  yaml_node_t *tree = yget(y, t, "tree"), *block = yget(y, t, "block");
  d->block = block != NULL;
  if (tree && block)
    return fail(error, d, yline(t), "topology '%s' is both a tree and a block topology, "
                "expected exactly one kind (as Slurm)", name ? name : "?");
  if (tree)
    return ycount(y, tree, "switches", "children", error) &&
           yentries(y, tree, "switches", "switch", "children", error);
  if (block)
    return yblock_sizes(y, block, error) && ycount(y, block, "blocks", NULL, error) &&
           yentries(y, block, "blocks", "block", NULL, error);
  return fail(error, d, yline(t), "topology '%s' is %s, expected a tree or a block topology",
              name ? name : "?", ytrue(yget(y, t, "flat")) ? "flat (no switches)" : "of no kind");
}

static gboolean read_yaml(slurm_desc *d, const char *text, gsize len, const char *want,
                          GError **error)
{
  yaml_ctx y = { .d = d };
  if (!yload(&y, text, len, error))
    return FALSE;
  yaml_node_t *t = NULL;
  gboolean ok = ycheck_keys(&y, error) &&
                (t = pick_topology(&y, yaml_document_get_root_node(&y.doc), want, error)) &&
                ytopology(&y, t, error);
  yaml_document_delete(&y.doc);
  return ok;
}

/* ---- the tree ---------------------------------------------------------- */

/* Blocks as switches: BlockSizes' larger sizes group consecutive blocks
 * under switches of their own, a switch `top` over the largest. */
static gboolean block_tree(slurm_desc *d, GError **error)
{
  GArray *bs = d->block_sizes;
  int nblocks = (int)d->sw->len, base = 0;
  for (int b = 0; b < nblocks; b++) {
    const sw_desc *blk = d->sw->pdata[b];
    int n = (int)blk->nodes->len;
    if (n < 1) /* Nodes="" : the sizes below divide by the smallest block */
      return fail(error, d, blk->line, "block %s without nodes, expected nodes in every block",
                  blk->name);
    base = b == 0 ? n : MIN(base, n);
  }
  if (!bs->len)
    g_array_append_val(bs, base);
  for (int i = 0; i < (int)bs->len; i++) {
    int s = g_array_index(bs, int, i), prev = i ? g_array_index(bs, int, i - 1) : s;
    if (s < prev || s % prev || ((s / prev) & (s / prev - 1)) || (i && s == prev))
      return fail(error, d, d->sizes_line, "block sizes must grow by powers of two (like "
                  "4,16), expected %d to be a power-of-two multiple of %d", s, prev);
  }
  int lo = 0, hi = nblocks; /* the switches of the level below */
  for (int i = 1; i < (int)bs->len; i++) {
    int per = g_array_index(bs, int, i) / g_array_index(bs, int, i - 1);
    for (int j = lo; j < hi; j += per) {
      int last = MIN(j + per, hi) - 1;
      g_autofree char *name = g_strdup_printf("%s..%s", ((sw_desc *)d->sw->pdata[j])->name,
                                              ((sw_desc *)d->sw->pdata[last])->name);
      sw_desc *s = add_made_switch(d, name);
      for (int c = j; c <= last; c++)
        g_ptr_array_add(s->children, g_strdup(((sw_desc *)d->sw->pdata[c])->name));
    }
    lo = hi;
    hi = (int)d->sw->len;
  }
  if (hi - lo > 1) {
    sw_desc *top = add_made_switch(d, "top");
    for (int c = lo; c < hi; c++)
      g_ptr_array_add(top->children, g_strdup(((sw_desc *)d->sw->pdata[c])->name));
  }
  return TRUE;
}

/* Parents from the children lists; one top switch (a `(top)` over several). */
static int link_parents(slurm_desc *d, GError **error)
{
  int n = (int)d->sw->len;
  for (int i = 0; i < n; i++) {
    sw_desc *s = d->sw->pdata[i];
    for (int c = 0; c < (int)s->children->len; c++) {
      const char *name = s->children->pdata[c];
      int k = GPOINTER_TO_INT(g_hash_table_lookup(d->index, name)) - 1;
      if (k < 0 || k == i)
        return fail(error, d, s->line, "switch %s: child '%s' is %s, expected a switch of the "
                    "file", s->name, name, k < 0 ? "not defined" : "itself"), -1;
      sw_desc *child = d->sw->pdata[k];
      if (child->parent >= 0)
        return fail(error, d, s->line, "switch %s is under %s and %s, expected one switch above "
                    "each (mapsim routes on a tree)", name,
                    ((sw_desc *)d->sw->pdata[child->parent])->name, s->name), -1;
      child->parent = i;
    }
  }
  GString *tops = g_string_new(NULL);
  int root = -1, count = 0;
  for (int i = 0; i < n; i++)
    if (((sw_desc *)d->sw->pdata[i])->parent < 0) {
      root = i;
      g_string_append_printf(tops, "%s%s", count++ ? ", " : "", ((sw_desc *)d->sw->pdata[i])->name);
    }
  if (count > 1) {
    sw_desc *top = add_made_switch(d, "(top)");
    root = (int)d->sw->len - 1;
    for (int i = 0; i < n; i++)
      if (((sw_desc *)d->sw->pdata[i])->parent < 0) {
        ((sw_desc *)d->sw->pdata[i])->parent = root;
        g_ptr_array_add(top->children, g_strdup(((sw_desc *)d->sw->pdata[i])->name));
      }
    if (d->notes)
      g_ptr_array_add(d->notes, g_strdup_printf("%s: no switch is above all others (%s); mapsim "
                                                "joins them under a switch '%s', Slurm would "
                                                "not place a job across them", d->path,
                                                tops->str, top->name));
  }
  g_string_free(tops, TRUE);
  if (root < 0 && count == 0)
    return fail(error, d, 0, "every switch is below another (a cycle), expected a top switch"), -1;
  return root;
}

typedef struct walk {
  slurm_desc *d;
  GHashTable *node_of;  /* node name -> id + 1 */
  GPtrArray *node_names, *switch_order; /* in walk order */
  GArray *node_parent;  /* walk index of each node's switch */
  GArray *switch_parent;
} walk;

/* Depth-first from switch i (parent: walk index `up`), depth `depth`. */
static gboolean visit(walk *w, int i, int up, int depth, GError **error)
{
  sw_desc *s = w->d->sw->pdata[i];
  if (depth > TOPO_MAX_LEVELS)
    return fail(error, w->d, s->line, "switch %s lies more than %d switches below the top, "
                "expected at most %d levels", s->name, TOPO_MAX_LEVELS, TOPO_MAX_LEVELS);
  int me = (int)w->switch_order->len;
  g_ptr_array_add(w->switch_order, s);
  g_array_append_val(w->switch_parent, up);
  for (int k = 0; k < (int)s->nodes->len; k++) {
    char *name = s->nodes->pdata[k];
    int prior = GPOINTER_TO_INT(g_hash_table_lookup(w->node_of, name)) - 1;
    if (prior >= 0 && g_array_index(w->node_parent, int, prior) == me)
      continue; /* listed twice under one switch: one node, as Slurm's bitmaps */
    if (prior >= 0)
      return fail(error, w->d, s->line, "node %s is under switches %s and %s, expected one leaf "
                  "switch per node (mapsim gives a node one link)", name,
                  ((sw_desc *)w->switch_order->pdata[g_array_index(w->node_parent, int, prior)])
                      ->name, s->name);
    g_hash_table_insert(w->node_of, name, GINT_TO_POINTER((int)w->node_names->len + 1));
    g_ptr_array_add(w->node_names, name);
    g_array_append_val(w->node_parent, me);
  }
  for (int c = 0; c < (int)s->children->len; c++) {
    int k = GPOINTER_TO_INT(g_hash_table_lookup(w->d->index, s->children->pdata[c])) - 1;
    if (!visit(w, k, me, depth + 1, error))
      return FALSE;
  }
  return TRUE;
}

/* The tree of d: vertex ids, names into *names (nodes, switches, NULL);
 * a leaf-spine file's fat tree (slurm_leaf_spine). */
static topo *build_tree(slurm_desc *d, char ***names, GError **error)
{
  if (!d->sw->len) {
    fail(error, d, 0, "no switches, expected SwitchName= or BlockName= lines");
    return NULL;
  }
  topo *fat = NULL;
  if (!d->block && !slurm_leaf_spine(d, names, &fat, error))
    return NULL;
  if (fat)
    return fat;
  if (d->block && !block_tree(d, error))
    return NULL;
  int root = link_parents(d, error);
  if (root < 0)
    return NULL;
  walk w = { d, g_hash_table_new(g_str_hash, g_str_equal), g_ptr_array_new(), g_ptr_array_new(),
             g_array_new(FALSE, FALSE, sizeof(int)), g_array_new(FALSE, FALSE, sizeof(int)) };
  topo *t = NULL;
  int nn = 0, ns = 0;
  if (!visit(&w, root, -1, 0, error))
    goto out;
  nn = (int)w.node_names->len;
  ns = (int)w.switch_order->len;
  if (ns < (int)d->sw->len) {
    for (int i = 0; i < (int)d->sw->len; i++)
      if (!g_ptr_array_find(w.switch_order, d->sw->pdata[i], NULL)) {
        sw_desc *s = d->sw->pdata[i];
        fail(error, d, s->line, "switch %s is not below the top switch (a cycle of switches), "
             "expected a tree", s->name);
        goto out;
      }
  }
  if (nn == 0) {
    fail(error, d, 0, "no nodes under any switch, expected Nodes= on the leaf switches");
    goto out;
  }
  int *parent = g_new(int, (size_t)nn + ns);
  for (int v = 0; v < nn; v++)
    parent[v] = nn + g_array_index(w.node_parent, int, v);
  for (int s = 0; s < ns; s++) {
    int up = g_array_index(w.switch_parent, int, s);
    parent[nn + s] = up < 0 ? -1 : nn + up;
  }
  t = topo_new_tree(nn, ns, parent, error);
  g_free(parent);
  if (t) {
    *names = g_new0(char *, (size_t)nn + ns + 1);
    for (int v = 0; v < nn; v++)
      (*names)[v] = g_strdup(w.node_names->pdata[v]);
    for (int s = 0; s < ns; s++)
      (*names)[nn + s] = g_strdup(((sw_desc *)w.switch_order->pdata[s])->name);
  }
out:
  g_hash_table_unref(w.node_of);
  g_ptr_array_unref(w.node_names);
  g_ptr_array_unref(w.switch_order);
  g_array_unref(w.node_parent);
  g_array_unref(w.switch_parent);
  return t;
}

static gboolean is_yaml(const char *path)
{
  return g_str_has_suffix(path, ".yaml") || g_str_has_suffix(path, ".yml");
}

/* Reads and parses `path` into d. */
static gboolean read_desc(slurm_desc *d, const char *want, GError **error)
{
  char *text = NULL;
  gsize len = 0;
  if (!budget_read_text(d->path, "a Slurm topology file", &text, &len, error))
    return FALSE;
  gboolean ok = is_yaml(d->path) ? read_yaml(d, text, len, want, error)
                                 : read_conf(d, text, error);
  g_free(text);
  if (ok && d->link_speed && d->notes)
    g_ptr_array_add(d->notes, g_strdup_printf("%s: LinkSpeed not read (Slurm gives it no unit); "
                                              "links take their level's link type", d->path));
  return ok;
}

static topo *load_tree(const char *path, const char *want, GPtrArray *notes, char ***names,
                       GError **error)
{
  slurm_desc d;
  desc_init(&d, path);
  d.notes = notes;
  topo *t = read_desc(&d, want, error) ? build_tree(&d, names, error) : NULL;
  desc_clear(&d);
  return t;
}

topo *platform_slurm_tree(GKeyFile *kf, const char *path, const char *dir, platform *p,
                          GError **error)
{
  g_autofree char *file = g_key_file_get_string(kf, "topology", "slurm", NULL);
  g_autofree char *want = g_key_file_get_string(kf, "topology", "slurm_topology", NULL);
  if (!file || !*g_strstrip(file)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "%s: [topology] kind = tree without slurm = FILE, expected Slurm's "
                "topology.conf or topology.yaml", path);
    return NULL;
  }
  g_autofree char *full = g_path_is_absolute(file) || !strcmp(dir, ".")
                              ? g_strdup(file) : g_build_filename(dir, file, NULL);
  char **names = NULL;
  topo *t = load_tree(full, want ? g_strstrip(want) : NULL, p->notes, &names, error);
  if (t) {
    g_strfreev(p->names);
    p->names = names;
  }
  return t;
}

gboolean platform_slurm_file(const char *path)
{
  if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
    return FALSE; /* FIFOs and devices are read once, by the loader they are given to */
  if (is_yaml(path) || g_str_has_suffix(path, "topology.conf"))
    return TRUE;
  /* another name: a topology.conf's first word on its first line that is
   * not blank or a comment, however many comments come first (within the
   * text budget; an INI file starts with [group], a comment or a blank) */
  FILE *f = fopen(path, "r");
  if (!f)
    return FALSE;
  char buf[4096];
  uint64_t read = 0, most = budget_memory() / 4;
  gboolean slurm = FALSE, in_comment = FALSE;
  while (read < most && fgets(buf, sizeof buf, f)) {
    size_t n = strlen(buf);
    read += sizeof buf; /* NUL bytes end strlen early: count the most fgets reads */
    gboolean ends = n && buf[n - 1] == '\n';
    if (in_comment) { /* the rest of a comment longer than the buffer */
      in_comment = !ends;
      continue;
    }
    char *s = g_strstrip(buf);
    if (*s == '#')
      in_comment = !ends;
    if (!*s || *s == '#')
      continue;
    slurm = !g_ascii_strncasecmp(s, "switchname=", 11) || !g_ascii_strncasecmp(s, "blockname=", 10)
            || !g_ascii_strncasecmp(s, "blocksizes=", 11);
    break;
  }
  fclose(f);
  return slurm;
}

GKeyFile *platform_slurm_keyfile(const char *path, GError **error)
{
  char **names = NULL;
  topo *t = load_tree(path, NULL, NULL, &names, error);
  if (!t)
    return NULL;
  int levels = t->ops->nslots(t); /* a tree's levels, or a leaf-spine fat tree's */
  topo_free(t);
  g_strfreev(names);
  GKeyFile *kf = g_key_file_new();
  g_key_file_set_value(kf, "platform", "name", path);
  g_key_file_set_value(kf, "topology", "kind", "tree");
  g_key_file_set_value(kf, "topology", "slurm", path);
  for (int s = 0; s < levels; s++) {
    char name[16], group[32], num[G_ASCII_DTOSTR_BUF_SIZE];
    family_level_slot_name(NULL, s, name, sizeof name);
    g_snprintf(group, sizeof group, "linktype.%s", name);
    g_key_file_set_value(kf, group, "bandwidth", g_ascii_dtostr(num, sizeof num, SLURM_BW));
    g_key_file_set_value(kf, group, "latency", g_ascii_dtostr(num, sizeof num, SLURM_LAT));
    g_key_file_set_value(kf, "links", name, name);
  }
  return kf;
}
