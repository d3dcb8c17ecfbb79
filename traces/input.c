/* input.c - the input dispatcher (input.h): the registry of readers, one
 * look at a path for all their probes, and the choice between them.
 *
 * The choice: the surest probe among the readers giving what the caller
 * wants wins (ties: the earlier row); but when a reader of the other kind
 * is surer still (a matrix given to --trace), the path is refused with
 * what it is, so that nobody gets a trace's error for a matrix. A FALLBACK
 * answer (an edge list for any text file) counts only for readers of the
 * kind asked for: it never makes a path "a matrix" for --trace.
 */
#include "traces/input.h"
#include "traces/input-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The built-in formats; the earlier wins when two probes tie, and the
 * formats expected are listed in this order. A new format: its reader file
 * (input-NAME.c) and one row here. */
static const input_reader *const builtin[] = {
  &input_reader_otf2,
  &input_reader_simgrid_ti,
  &input_reader_dumpi,
  &input_reader_csv,
  &input_reader_mtx,
  &input_reader_edges,
  &input_reader_goal,
};

static GPtrArray *registered; /* input_register's rows, in order */

void input_register(const input_reader *r)
{
  /* a trace format reads the whole trace at least (streams fall back on it),
   * a matrix format its graph */
  g_return_if_fail(r && r->name && r->what && r->probe &&
                   (r->gives == INPUT_TRACE ? r->read != NULL
                                            : r->gives == INPUT_GRAPH && r->graph != NULL));
  if (!registered)
    registered = g_ptr_array_new();
  g_ptr_array_add(registered, (gpointer)r);
}

int input_nreaders(void)
{
  return (int)G_N_ELEMENTS(builtin) + (registered ? (int)registered->len : 0);
}

const input_reader *input_reader_at(int i)
{
  if (i < (int)G_N_ELEMENTS(builtin))
    return builtin[i];
  return g_ptr_array_index(registered, (guint)i - G_N_ELEMENTS(builtin));
}

const input_reader *input_reader_find(const char *name)
{
  for (int i = 0; i < input_nreaders(); i++)
    if (strcmp(input_reader_at(i)->name, name) == 0)
      return input_reader_at(i);
  return NULL;
}

/* ---- one look at a path ---- */

typedef struct peek_buf {
  input_peek pk;
  char *name;
  char head[INPUT_HEAD_BYTES + 1];
  gboolean exists;
} peek_buf;

/* stat, and the first bytes of a regular file: a FIFO or a device is never
 * opened (it could block or never end). */
static void peek_at(peek_buf *b, const char *path)
{
  memset(b, 0, sizeof *b);
  g_autofree char *trimmed = g_strdup(path);
  for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
    trimmed[n - 1] = '\0';
  b->name = g_path_get_basename(trimmed);
  b->pk = (input_peek){ .path = path, .name = b->name, .head = b->head };
  struct stat st;
  if (stat(path, &st) != 0)
    return;
  b->exists = TRUE;
  b->pk.is_dir = S_ISDIR(st.st_mode);
  b->pk.is_file = S_ISREG(st.st_mode);
  if (!b->pk.is_file)
    return;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return;
  ssize_t n, got = 0;
  while (got < INPUT_HEAD_BYTES &&
         (n = read(fd, b->head + got, (size_t)(INPUT_HEAD_BYTES - got))) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    got += n;
  }
  close(fd);
  b->pk.nhead = (size_t)got;
  b->head[got] = '\0';
}

gboolean input_peek_is_text(const input_peek *pk)
{
  return pk->is_file && memchr(pk->head, '\0', pk->nhead) == NULL;
}

static void peek_free(peek_buf *b)
{
  g_free(b->name);
}

/* The best reader giving `wants` and the best of any kind (`other`, with
 * its score), from one look. */
typedef struct choice {
  const input_reader *wanted, *other;
  input_probe wanted_score, other_score;
} choice;

static void choose(const input_peek *pk, unsigned wants, choice *c)
{
  *c = (choice){ 0 };
  for (int i = 0; i < input_nreaders(); i++) {
    const input_reader *r = input_reader_at(i);
    input_probe p = r->probe(pk);
    if ((r->gives & wants) && p > c->wanted_score) {
      c->wanted = r;
      c->wanted_score = p;
    }
    if (!(r->gives & wants) && p >= INPUT_PROBE_NAME && p > c->other_score) {
      c->other = r;
      c->other_score = p;
    }
  }
  if (c->other && c->other_score <= c->wanted_score)
    c->other = NULL;
}

const input_reader *input_recognize(const char *path, unsigned wants, input_probe min)
{
  peek_buf b;
  peek_at(&b, path);
  choice c;
  choose(&b.pk, wants, &c);
  peek_free(&b);
  return !c.other && c.wanted_score >= MAX(min, INPUT_PROBE_FALLBACK) ? c.wanted : NULL;
}

/* ---- messages ---- */

static const char *kind_noun(unsigned gives)
{
  return (gives & INPUT_TRACE) ? "a trace" : "a communication matrix";
}

char *input_expected(unsigned wants)
{
  GPtrArray *what = g_ptr_array_new();
  for (int i = 0; i < input_nreaders(); i++)
    if (input_reader_at(i)->gives & wants)
      g_ptr_array_add(what, (gpointer)input_reader_at(i)->what);
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "%s: ", kind_noun(wants));
  for (guint i = 0; i < what->len; i++)
    g_string_append_printf(s, "%s%s", i == 0 ? "" : i + 1 == what->len ? " or " : ", ",
                           (const char *)what->pdata[i]);
  g_ptr_array_free(what, TRUE);
  return g_string_free(s, FALSE);
}

/* Recognizes one path, or says in one line why not. */
static const input_reader *recognize_or_say(const char *path, unsigned wants, GError **error)
{
  peek_buf b;
  peek_at(&b, path);
  choice c;
  choose(&b.pk, wants, &c);
  gboolean exists = b.exists;
  peek_free(&b);
  if (c.wanted && !c.other && c.wanted_score >= INPUT_PROBE_FALLBACK)
    return c.wanted;
  g_autofree char *expected = input_expected(wants);
  if (c.other)
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: %s, not %s; expected %s", path,
                c.other->what, kind_noun(wants), expected);
  else if (!exists)
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: no such file or folder, expected %s",
                path, expected);
  else
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: not a format mapsim reads, expected %s", path, expected);
  return NULL;
}

/* ---- opening ---- */

gboolean input_open(input *in, const char *path, const char *counts, unsigned wants,
                    GError **error)
{
  *in = (input){ 0 };
  const input_reader *r = recognize_or_say(path, wants, error);
  if (!r)
    return FALSE;
  if (counts && !(r->gives & INPUT_GRAPH)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT,
                "%s: message counts for %s, which is %s and carries its own; expected counts "
                "only beside a matrix", counts, path, r->what);
    return FALSE;
  }
  if (counts && !recognize_or_say(counts, INPUT_GRAPH, error))
    return FALSE;
  in->reader = r;
  in->path = g_strdup(path);
  in->counts = g_strdup(counts);
  return TRUE;
}

void input_clear(input *in)
{
  g_clear_pointer(&in->path, g_free);
  g_clear_pointer(&in->counts, g_free);
  in->reader = NULL;
}

/* A trace reader reached for a matrix, or the other way round: a caller's
 * mistake (input_open checked what the caller wanted), said all the same. */
static gboolean has(const input *in, unsigned gives, GError **error)
{
  if (in->reader->gives & gives)
    return TRUE;
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s: %s, not %s", in->path,
              in->reader->what, kind_noun(gives));
  return FALSE;
}

trace *input_trace(const input *in, GError **error)
{
  return has(in, INPUT_TRACE, error) ? in->reader->read(in->path, error) : NULL;
}

trace_source *input_source(const input *in, const progress *pr, GError **error)
{
  return has(in, INPUT_TRACE, error)
             ? trace_source_scan(in->reader->scan, in->reader->read, in->path, pr, error)
             : NULL;
}

commgraph *input_graph(const input *in, GError **error)
{
  if (!has(in, INPUT_GRAPH, error))
    return NULL;
  commgraph *g = in->reader->graph(in->path, error);
  if (!g || !in->counts)
    return g;
  /* the counts file is read by its own format's reader */
  commgraph *counts = input_read_matrix(in->counts, NULL, error);
  gboolean ok = counts && commgraph_set_counts(g, counts, in->counts, error);
  commgraph_free(counts);
  if (!ok)
    g_clear_pointer(&g, commgraph_free);
  return g;
}

trace *input_read_trace(const char *path, GError **error)
{
  g_auto(input) in = { 0 };
  return input_open(&in, path, NULL, INPUT_TRACE, error) ? input_trace(&in, error) : NULL;
}

trace_source *input_read_source(const char *path, const progress *pr, GError **error)
{
  g_auto(input) in = { 0 };
  return input_open(&in, path, NULL, INPUT_TRACE, error) ? input_source(&in, pr, error) : NULL;
}

commgraph *input_read_matrix(const char *path, const char *counts, GError **error)
{
  g_auto(input) in = { 0 };
  return input_open(&in, path, counts, INPUT_GRAPH, error) ? input_graph(&in, error) : NULL;
}

char *input_identity(const input *in)
{
  g_autofree char *anchor = in->reader->anchor ? in->reader->anchor(in->path, NULL)
                                               : g_strdup(in->path);
  char *real = anchor ? realpath(anchor, NULL) : NULL;
  char *id = real ? g_strdup(real) : NULL;
  free(real);
  return id;
}

char *input_root(const input *in)
{
  return in->reader->root ? in->reader->root(in->path) : g_strdup(in->path);
}
