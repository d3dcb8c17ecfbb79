/* mapping.c - the task -> node mapping: identity, validation, files. */
#include "mapping/mapping.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/output.h"

G_DEFINE_QUARK(mapping-error-quark, mapping_error)

mapping *mapping_new(int ntasks)
{
  mapping *m = g_new(mapping, 1);
  m->ntasks = ntasks;
  m->node = g_new(int, ntasks ? ntasks : 1);
  for (int i = 0; i < ntasks; i++)
    m->node[i] = -1;
  return m;
}

mapping *mapping_copy(const mapping *m)
{
  mapping *c = mapping_new(m->ntasks);
  memcpy(c->node, m->node, sizeof(int) * (size_t)m->ntasks);
  return c;
}

void mapping_free(mapping *m)
{
  if (!m)
    return;
  g_free(m->node);
  g_free(m);
}

mapping *mapping_identity(const platform *p, int ntasks, GError **error)
{
  if (!platform_check_capacity(p, ntasks, error))
    return NULL;
  mapping *m = mapping_new(ntasks);
  int per = platform_ranks_per_node(p, ntasks);
  for (int r = 0; r < ntasks; r++)
    m->node[r] = p->alloc[r / per];
  return m;
}

gboolean mapping_validate(const mapping *m, const platform *p, GError **error)
{
  if (!platform_check_capacity(p, m->ntasks, error))
    return FALSE;
  int *load = g_new0(int, p->topo->nnodes);
  gboolean ok = FALSE;
  for (int r = 0; r < m->ntasks; r++) {
    int v = m->node[r];
    if (v < 0 || v >= p->topo->nnodes) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "rank %d on node %d, expected a node in [0, %d)", r, v, p->topo->nnodes);
      goto out;
    }
    if (p->alloc_index[v] < 0) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "rank %d on node %d, which is not in the allocation", r, v);
      goto out;
    }
    if (++load[v] > p->cores_per_node) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "rank %d is rank number %d on node %d, expected at most %d per node", r,
                  load[v], v, p->cores_per_node);
      goto out;
    }
  }
  ok = TRUE;
out:
  g_free(load);
  return ok;
}

static gboolean parse_int(const char *s, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
    return FALSE;
  *out = v;
  return TRUE;
}

/* The first line that is not blank or a comment has a single word: a
 * hostfile (a mapping file's lines have two). */
static gboolean is_hostfile(char **lines)
{
  for (int ln = 0; lines[ln]; ln++) {
    g_autofree char *l = g_strdup(lines[ln]);
    char *hash = strchr(l, '#');
    if (hash)
      *hash = '\0';
    g_strstrip(l);
    if (*l)
      return strpbrk(l, " \t") == NULL;
  }
  return FALSE;
}

/* A SimGrid/smpirun hostfile: smpirun's order, rank i on the i-th entry, a
 * line HOST:N N entries, the entries again from the first when the ranks
 * outnumber them. */
static mapping *load_hostfile(const char *path, char **lines, const platform *p, int ntasks,
                              GError **error)
{
  GArray *node = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *line_of = g_array_new(FALSE, FALSE, sizeof(int));
  mapping *m = NULL;
  int64_t total = 0;
  for (int ln = 0; lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    char *l = g_strstrip(lines[ln]);
    if (!*l)
      continue;
    char *colon = strrchr(l, ':');
    guint64 n = 1;
    if (strpbrk(l, " \t") ||
        (colon && !g_ascii_string_to_unsigned(colon + 1, 10, 1, PLATFORM_MAX_CORES, &n, NULL))) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_PARSE,
                  "%s:%d: '%s': expected HOST or HOST:N (a hostfile: one host a line, N ranks "
                  "from 1 to %d)", path, ln + 1, l, PLATFORM_MAX_CORES);
      goto out;
    }
    if (colon)
      *colon = '\0';
    GError *e = NULL;
    int v = platform_parse_node(p, l, &e);
    if (v < 0) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID, "%s:%d: %s", path, ln + 1,
                  e->message);
      g_error_free(e);
      goto out;
    }
    total += (int64_t)n;
    if (ntasks <= 0 && total > 1 << 24) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: more than %d ranks, expected fewer", path, ln + 1, 1 << 24);
      goto out;
    }
    for (guint64 k = 0; k < n && (ntasks <= 0 || (int64_t)node->len < ntasks); k++) {
      int line = ln + 1;
      g_array_append_val(node, v);
      g_array_append_val(line_of, line);
    }
  }
  if (node->len == 0) {
    g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_PARSE,
                "%s: no host, expected one host (HOST or HOST:N) a line", path);
    goto out;
  }
  if (ntasks <= 0)
    ntasks = (int)node->len;
  m = mapping_new(ntasks);
  int *load = g_new0(int, p->topo->nnodes);
  for (int r = 0; r < ntasks; r++) {
    int i = r % (int)node->len, v = g_array_index(node, int, i);
    int line = g_array_index(line_of, int, i);
    const char *why = p->alloc_index[v] < 0 ? "not in the allocation"
                      : ++load[v] > p->cores_per_node ? "over its cores" : NULL;
    if (why) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: rank %d on node %d, which is %s, expected an allocated node with at "
                  "most %d ranks (cores per node)", path, line, r, v, why, p->cores_per_node);
      mapping_free(m);
      m = NULL;
      break;
    }
    m->node[r] = v;
  }
  g_free(load);
out:
  g_array_free(node, TRUE);
  g_array_free(line_of, TRUE);
  return m;
}

mapping *mapping_load(const char *path, const platform *p, int ntasks, GError **error)
{
  char *text = NULL;
  if (!budget_read_text(path, "a mapping file ('rank node' per line)", &text, NULL, error))
    return NULL;
  char **lines = g_strsplit(text, "\n", -1);
  g_free(text);
  if (is_hostfile(lines)) {
    mapping *hm = load_hostfile(path, lines, p, ntasks, error);
    g_strfreev(lines);
    return hm;
  }
  if (ntasks <= 0) { /* as many ranks as the file has lines with a pair */
    /* blank as the parser's g_strstrip sees it: any ASCII space */
    for (int ln = 0; lines[ln]; ln++) {
      const char *s = lines[ln];
      while (g_ascii_isspace(*s))
        s++;
      ntasks += *s && *s != '#';
    }
    if (ntasks == 0) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_PARSE,
                  "%s: no 'rank node' lines, expected one line 'rank node' per rank", path);
      g_strfreev(lines);
      return NULL;
    }
  }
  mapping *m = mapping_new(ntasks);
  int *line_of = g_new0(int, ntasks ? ntasks : 1);
  int *load = g_new0(int, p->topo->nnodes);
  gboolean ok = FALSE;
  for (int ln = 0; lines[ln]; ln++) {
    char *hash = strchr(lines[ln], '#');
    if (hash)
      *hash = '\0';
    char **tok = g_strsplit_set(g_strstrip(lines[ln]), " \t", -1);
    const char *f[3];
    int nt = 0;
    for (int i = 0; tok[i]; i++)
      if (*tok[i]) {
        if (nt < 3)
          f[nt] = tok[i];
        nt++;
      }
    long r = -1, v = -1;
    gboolean good = nt == 2 && parse_int(f[0], &r) && parse_int(f[1], &v);
    g_strfreev(tok);
    if (nt == 0)
      continue;
    if (!good) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_PARSE,
                  "%s:%d: expected 'rank node' (two integers)", path, ln + 1);
      goto out;
    }
    if (r < 0 || r >= ntasks) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: rank %ld out of range, expected 0 <= rank < %d", path, ln + 1, r,
                  ntasks);
      goto out;
    }
    if (line_of[r]) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: rank %ld mapped again (first on line %d), expected each rank once",
                  path, ln + 1, r, line_of[r]);
      goto out;
    }
    if (v < 0 || v >= p->topo->nnodes) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: node %ld out of range, expected 0 <= node < %d", path, ln + 1, v,
                  p->topo->nnodes);
      goto out;
    }
    if (p->alloc_index[v] < 0) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: node %ld is not in the allocation, expected an allocated node", path,
                  ln + 1, v);
      goto out;
    }
    if (++load[v] > p->cores_per_node) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s:%d: node %ld gets %d ranks, expected at most %d (cores per node)", path,
                  ln + 1, v, load[v], p->cores_per_node);
      goto out;
    }
    line_of[r] = ln + 1;
    m->node[r] = (int)v;
  }
  for (int r = 0; r < ntasks; r++)
    if (!line_of[r]) {
      g_set_error(error, MAPPING_ERROR, MAPPING_ERROR_INVALID,
                  "%s: rank %d is not mapped, expected every rank 0..%d once", path, r,
                  ntasks - 1);
      goto out;
    }
  ok = TRUE;
out:
  g_strfreev(lines);
  g_free(line_of);
  g_free(load);
  if (!ok) {
    mapping_free(m);
    m = NULL;
  }
  return m;
}

gboolean mapping_save(const mapping *m, const char *path, const char *comment, GError **error)
{
  output *o = output_open(path, NULL, error);
  if (!o)
    return FALSE;
  FILE *f = output_stream(o);
  fputs("# mapsim mapping: rank node\n", f);
  if (comment)
    fprintf(f, "# %s\n", comment);
  for (int r = 0; r < m->ntasks; r++)
    fprintf(f, "%d %d\n", r, m->node[r]);
  return output_commit(o, error);
}
