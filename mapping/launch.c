/* launch.c - launcher files from a mapping (formats and host names in
 * launch.h). */
#include "mapping/launch-private.h"

#include <string.h>

#include "util/budget.h"
#include "util/output.h"

G_DEFINE_QUARK(launch-error-quark, launch_error)

struct host_names {
  int n;
  char **name;       /* n = nnodes entries; NULL for nodes a names file does not cover */
  gboolean one_host; /* a names file of one line: every node is that machine */
};

/* A pattern's one integer conversion: `%`, an optional 0 flag and width,
 * `d`; `%%` is a percent sign. Returns the conversion's offset, -1 if the
 * pattern has none or more than one or another conversion. */
static int pattern_conversion(const char *pat)
{
  int at = -1;
  for (const char *s = pat; *s; s++) {
    if (*s != '%')
      continue;
    if (s[1] == '%') {
      s++;
      continue;
    }
    const char *c = s + 1;
    while (*c >= '0' && *c <= '9')
      c++;
    if (*c != 'd' || at >= 0 || c - s > 4)
      return -1;
    at = (int)(s - pat);
    s = c;
  }
  return at;
}

static gboolean valid_name(const char *s)
{
  if (!*s)
    return FALSE;
  for (; *s; s++)
    if (g_ascii_isspace(*s) || *s == ',' || *s == '=' || *s == '#')
      return FALSE;
  return TRUE;
}

static host_names *new_names(int nnodes)
{
  host_names *h = g_new0(host_names, 1);
  h->n = nnodes;
  h->name = g_new0(char *, nnodes);
  return h;
}

/* The host name of a names file's line: the line itself, or the first word
 * of a launcher's hostfile line (Open MPI's `host slots=4 max_slots=8`,
 * MPICH's `host:4`); NULL when the rest is not such options. */
static char *line_host(char *line)
{
  char *rest = line + strcspn(line, " \t");
  if (*rest) {
    *rest++ = '\0';
    g_auto(GStrv) words = g_strsplit_set(rest, " \t", -1);
    for (int i = 0; words[i]; i++)
      if (*words[i] && (!strchr(words[i], '=') || words[i][0] == '='))
        return NULL;
  }
  char *colon = strrchr(line, ':');
  if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1))
    *colon = '\0';
  return line;
}

static host_names *from_pattern(const platform *p, const char *pat, GError **error)
{
  if (pattern_conversion(pat) < 0) {
    g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_HOSTS,
                "--hosts '%s': no such file, and not a pattern: expected one %%d (%%05d ...) for "
                "the node id, e.g. node-%%d, or a file of host names", pat);
    return NULL;
  }
  host_names *h = new_names(p->topo->nnodes);
  for (int i = 0; i < h->n; i++) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    h->name[i] = g_strdup_printf(pat, i); /* checked: one %d conversion */
#pragma GCC diagnostic pop
  }
  if (!valid_name(h->name[0])) {
    g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_HOSTS,
                "--hosts '%s': gives '%s', expected host names without spaces, commas, '=' or '#'",
                pat, h->name[0]);
    host_names_free(h);
    return NULL;
  }
  return h;
}

static host_names *from_file(const platform *p, const char *path, GError **error)
{
  g_autofree char *text = NULL;
  if (!budget_read_text(path, "a file of host names (one per line)", &text, NULL, error))
    return NULL;
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  /* name -> its line: two nodes under one name would put both nodes' ranks
   * on one host */
  g_autoptr(GHashTable) line_of = g_hash_table_new(g_str_hash, g_str_equal);
  for (int i = 0; lines[i]; i++) {
    char *hash = strchr(lines[i], '#');
    if (hash)
      *hash = '\0';
    char *s = g_strstrip(lines[i]);
    if (!*s)
      continue;
    g_autofree char *shown = g_strdup(s);
    if (!(s = line_host(s)) || !valid_name(s)) {
      g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_HOSTS,
                  "%s:%d: '%s', expected one host name per line (no commas or '='; a hostfile's "
                  "'host slots=N' or 'host:N' is read as host)", path, i + 1, shown);
      g_ptr_array_unref(names);
      return NULL;
    }
    int first = GPOINTER_TO_INT(g_hash_table_lookup(line_of, s));
    if (first) {
      g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_HOSTS,
                  "%s:%d: host '%s' again (first on line %d), expected each host once", path,
                  i + 1, s, first);
      g_ptr_array_unref(names);
      return NULL;
    }
    g_hash_table_insert(line_of, s, GINT_TO_POINTER(i + 1));
    g_ptr_array_add(names, g_strdup(s));
  }
  int nn = p->topo->nnodes, nodes = topo_compute_nodes(p->topo);
  if (names->len != 1 && (int)names->len != nodes && (int)names->len != p->nalloc) {
    g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_HOSTS,
                "%s: %u host names, expected %d (one per node of %s, in node order), %d (one "
                "per allocated node, in allocation order) or 1 (every rank on one host)", path,
                names->len, nodes, p->name, p->nalloc);
    g_ptr_array_unref(names);
    return NULL;
  }
  host_names *h = new_names(nn);
  if (names->len == 1) {
    /* one machine runs the whole job: every node is that host */
    for (int i = 0; i < nn; i++)
      h->name[i] = g_strdup(g_ptr_array_index(names, 0));
    h->one_host = TRUE;
  }
  for (guint i = 0; names->len > 1 && i < names->len; i++)
    h->name[(int)names->len == nodes ? (int)i : p->alloc[i]] =
        g_strdup(g_ptr_array_index(names, i));
  g_ptr_array_unref(names);
  return h;
}

host_names *host_names_new(const platform *p, const char *spec, GError **error)
{
  if (!spec && p->names) { /* the names the platform's source gives (Slurm's) */
    host_names *h = new_names(p->topo->nnodes);
    for (int i = 0; i < h->n; i++)
      h->name[i] = g_strdup(p->names[i]);
    return h;
  }
  if (!spec)
    spec = LAUNCH_DEFAULT_HOSTS;
  /* any existing path is a file: also a FIFO (--hosts <(scontrol show
   * hostnames)) or a device */
  if (g_file_test(spec, G_FILE_TEST_EXISTS))
    return from_file(p, spec, error);
  return from_pattern(p, spec, error);
}

const char *host_names_get(const host_names *h, int node)
{
  return node >= 0 && node < h->n ? h->name[node] : NULL;
}

void host_names_free(host_names *h)
{
  if (!h)
    return;
  for (int i = 0; i < h->n; i++)
    g_free(h->name[i]);
  g_free(h->name);
  g_free(h);
}

/* ---- formats ------------------------------------------------------------ */

static gboolean write_rankfile(FILE *f, const mapping *m, const platform *p, const host_names *h,
                               GError **error)
{
  /* slot = the rank's place among its node's ranks; on one host for all (a
   * names file of one line) the nodes' ranks follow each other in the
   * platform's node order, every rank its own core: node n's first slot
   * is the number of ranks on the nodes before it */
  int nn = p->topo->nnodes;
  int *slot = g_new0(int, nn + 1);
  if (h->one_host) {
    for (int r = 0; r < m->ntasks; r++)
      slot[m->node[r] + 1]++;
    for (int n = 0; n < nn; n++)
      slot[n + 1] += slot[n];
  }
  for (int r = 0; r < m->ntasks; r++)
    fprintf(f, "rank %d=%s slot=%d\n", r, host_names_get(h, m->node[r]), slot[m->node[r]]++);
  g_free(slot);
  return TRUE;
}

static gboolean write_hostfile(FILE *f, const mapping *m, const platform *p, const host_names *h,
                               GError **error)
{
  for (int r = 0; r < m->ntasks; r++)
    fprintf(f, "%s\n", host_names_get(h, m->node[r]));
  return TRUE;
}

/* Cray MPICH deals the listed ranks out to the job's nodes, the same
 * number to each: per allocated node that holds ranks, its ranks. */
static gboolean write_rank_order(FILE *f, const mapping *m, const platform *p,
                                 const host_names *h, GError **error)
{
  int nn = p->topo->nnodes, ppn = 0, bad = -1, prev = -1;
  int *count = g_new0(int, nn);
  GString **line = g_new0(GString *, nn);
  for (int r = 0; r < m->ntasks; r++) {
    int n = m->node[r];
    if (!line[n])
      line[n] = g_string_new(NULL);
    g_string_append_printf(line[n], "%s%d", count[n]++ ? "," : "", r);
  }
  for (int i = 0; i < p->nalloc; i++) {
    int n = p->alloc[i];
    if (!count[n])
      continue;
    ppn = ppn ? ppn : count[n];
    if (bad < 0 && (count[n] > ppn || (prev >= 0 && count[prev] != ppn)))
      bad = count[n] > ppn ? n : prev;
    prev = n;
  }
  gboolean ok = bad < 0;
  if (!ok)
    g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_FORMAT,
                "mpich-rank-order: node %d (%s) holds %d ranks, the first used node holds %d, "
                "expected the same number on every node but the last (MPICH deals the ranks out "
                "evenly; use --fill pack, or the hostfile and slurm-hostfile formats)", bad,
                host_names_get(h, bad), count[bad], ppn);
  for (int i = 0; ok && i < p->nalloc; i++)
    if (line[p->alloc[i]])
      fprintf(f, "%s\n", line[p->alloc[i]]->str);
  for (int n = 0; n < nn; n++)
    if (line[n])
      g_string_free(line[n], TRUE);
  g_free(line);
  g_free(count);
  return ok;
}

const launch_format launch_formats[] = {
  { "openmpi-rankfile", "Open MPI rankfile: rank R=HOST slot=S",
    "mpirun --rankfile FILE -np N ./app", write_rankfile },
  { "mpich-rank-order", "Cray MPICH MPICH_RANK_ORDER: the ranks of each node, comma-separated",
    "cp FILE MPICH_RANK_ORDER; MPICH_RANK_REORDER_METHOD=3 srun -n N ./app", write_rank_order },
  { "slurm-hostfile", "Slurm arbitrary distribution: one host per rank",
    "SLURM_HOSTFILE=FILE srun --distribution=arbitrary -n N ./app", write_hostfile },
  { "hostfile", "one host per rank (MPICH, Open MPI's seq mapper, SimGrid)",
    "mpiexec -f FILE -n N ./app (MPICH)\n"
    "mpirun --hostfile FILE --map-by seq -np N ./app (Open MPI)", write_hostfile },
};

const int launch_nformats = G_N_ELEMENTS(launch_formats);

const launch_format *launch_format_lookup(const char *name, GError **error)
{
  for (int i = 0; i < launch_nformats; i++)
    if (g_strcmp0(launch_formats[i].name, name) == 0)
      return &launch_formats[i];
  GString *list = g_string_new(NULL);
  for (int i = 0; i < launch_nformats; i++)
    g_string_append_printf(list, "%s%s", i ? ", " : "", launch_formats[i].name);
  g_set_error(error, LAUNCH_ERROR, LAUNCH_ERROR_FORMAT, "--format '%s': unknown, expected %s",
              name ? name : "", list->str);
  g_string_free(list, TRUE);
  return NULL;
}

gboolean launch_save(const launch_format *fmt, const mapping *m, const platform *p,
                     const host_names *h, const char *path, GError **error)
{
  output *o = output_open(path, NULL, error);
  if (!o)
    return FALSE;
  if (!fmt->write(output_stream(o), m, p, h, error)) {
    output_abort(o);
    return FALSE;
  }
  return output_commit(o, error);
}
