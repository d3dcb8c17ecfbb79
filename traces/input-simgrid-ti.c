/* input-simgrid-ti.c - the reader of SimGrid's time-independent traces
 * (input.h's row "simgrid-ti"): what `smpirun -replay` takes, the format
 * traces/simgrid-ti.h writes.
 *
 * The path is an action file ("RANK ACTION ARGS" lines, blank lines and
 * '#' comments skipped, fields split at blanks and tabs) holding every
 * rank's actions, or a list file naming one action file per line: one
 * line names the action file of every rank (smpirun's shared trace),
 * several name rank i's file on line i (names relative to the list's
 * folder; lines of a rank's file for another rank are skipped, as SMPI
 * does). Without a list the ranks are 0 .. the largest rank named, each
 * with some action.
 *
 * Every action of SMPI's replay (src/smpi/internals/smpi_replay.cpp,
 * learnt from its source) becomes records of mapsim's trace (trace.h):
 *  - sizes are counts times the datatype's size: datatype ids as SMPI's
 *    Datatype::decode numbers them (x86-64 sizes), the default MPI_BYTE,
 *    or MPI_DOUBLE from a rank's `init` with an argument on, as SMPI
 *    sets it; counts are read as SMPI reads them (a number, truncated);
 *  - `compute F` is F ps of computation (F flops at TI_FLOPS_PER_S, one
 *    flop a picosecond; --compute-scale gives a host speed), `sleep S` S
 *    seconds; the computation of reduce, allreduce, reducescatter, scan
 *    and exscan follows their call, as SMPI runs it; a rank's clock moves
 *    only with these (every MPI call is a region of no length);
 *  - send/recv/isend/irecv (peers are world ranks, tags kept), sendRecv
 *    (tag 0 both ways, as SMPI), test (a test that does not complete: the
 *    replay decides when the request ends), wait SRC DST TAG (the oldest
 *    open request of that key, as SMPI's request store keeps them; none
 *    open is nothing, as in SMPI), waitall (every open request), and at
 *    finalize or the end of a rank's actions every request still open
 *    (SMPI's replay waits for them there);
 *  - collectives on MPI_COMM_WORLD (SMPI replays every one there) with the
 *    rank's contribution as collectives.h counts it; alltoallv's and the
 *    other vector calls' counts give their sums (the replay splits a
 *    contribution evenly);
 *  - comm_size, comm_split, comm_dup: an MPI region, nothing else (SMPI
 *    does nothing either); location: nothing.
 * Bad input ends with one line: file, line and what was expected.
 *
 * Streaming: per-rank files and a shared file whose ranks come one after
 * the other are read once, rank by rank; a shared file whose ranks are
 * interleaved (SMPI's one-file traces) is read once per rank from the
 * rank's first line to its last, unless that would read it more than
 * TI_REREAD_FACTOR times over, when it is read whole (memory O(records)).
 * A first pass over a shared file finds the ranks and their lines' spans
 * (O(ranks) memory).
 */
#include "traces/input-private.h"
#include "traces/simgrid-ti-private.h"
#include "traces/trace-private.h"
#include "util/budget.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* How many times over a shared file with interleaved ranks may be read
 * (once per rank, each from its first line to its last) before it is
 * read whole instead. */
#define TI_REREAD_FACTOR 16

/* ---- the layout of an input ---- */

/* Where one rank's lines are in a shared file. */
typedef struct ti_span {
  int64_t first, end;        /* offset of its first line, past its last; first < 0: none */
  int64_t line;              /* number of the line before its first */
} ti_span;

typedef struct ti_layout {
  int nranks;
  char **files;              /* a list: nranks files (owned); NULL: `shared` */
  char *shared;              /* the one action file */
  ti_span *spans;            /* shared: per rank */
  int64_t reread;            /* shared, interleaved: bytes the passes per rank read */
  int64_t size;              /* shared: file size */
} ti_layout;

static void layout_clear(ti_layout *l)
{
  g_strfreev(l->files);
  g_free(l->shared);
  g_free(l->spans);
  memset(l, 0, sizeof *l);
}

/* An action line: a rank and an action SMPI knows. */
static gboolean is_action_line(const char *rank, const char *name)
{
  int64_t r;
  return ti_parse_rank(rank, &r) && ti_is_action(name);
}

/* The first line with fields of `head` (n bytes, NUL-terminated): an
 * action line? */
static gboolean head_is_actions(const char *head)
{
  g_auto(GStrv) lines = g_strsplit(head, "\n", 0);
  for (int i = 0; lines[i]; i++) {
    g_auto(GStrv) f = g_strsplit_set(g_strstrip(lines[i]), " \t", 3);
    if (!f[0] || !*f[0] || *f[0] == '#')
      continue;
    return f[1] && is_action_line(f[0], f[1]);
  }
  return FALSE;
}

static gboolean file_is_actions(const char *path)
{
  char head[INPUT_HEAD_BYTES + 1] = { 0 };
  FILE *f = g_fopen(path, "rb");
  if (!f)
    return FALSE;
  size_t n = fread(head, 1, INPUT_HEAD_BYTES, f);
  fclose(f);
  head[n] = '\0';
  return memchr(head, '\0', n) == NULL && head_is_actions(head);
}

/* A list's line: the file it names (relative to the list's folder). */
static char *listed(const char *list, const char *name)
{
  if (g_path_is_absolute(name))
    return g_strdup(name);
  g_autofree char *dir = g_path_get_dirname(list);
  return g_build_filename(dir, name, NULL);
}

/* The ranks of a shared file and where their lines are: one pass over it,
 * the first fields only. */
static gboolean scan_shared(ti_layout *l, GError **error)
{
  ti_lines in;
  if (!ti_lines_open(&in, l->shared, 64, error))
    return FALSE;
  in.truncate = TRUE; /* the rank and the action's name are enough */
  GArray *spans = g_array_new(FALSE, TRUE, sizeof(ti_span));
  gboolean got, ok = TRUE;
  while ((ok = ti_lines_next(&in, &got, error)) && got) {
    int64_t r;
    if (!ti_parse_rank(TI_FIELD(&in, 0), &r)) {
      ok = ti_fail(error, &in, "'%s', expected 'RANK ACTION ...' with a rank from 0 to %d",
                TI_FIELD(&in, 0), BUDGET_MAX_RANKS - 1);
      break;
    }
    if (in.fields->len < 2) {
      ok = ti_fail(error, &in, "a rank alone, expected 'RANK ACTION ...'");
      break;
    }
    if (r >= spans->len) {
      if (!budget_check_array("SimGrid trace ranks", (uint64_t)r + 1,
                              sizeof(ti_span) + sizeof(trace_rank) + 2 * sizeof(int), error)) {
        ok = FALSE;
        break;
      }
      guint was = spans->len;
      g_array_set_size(spans, (guint)r + 1);
      for (guint i = was; i < spans->len; i++)
        g_array_index(spans, ti_span, i).first = -1;
    }
    ti_span *s = &g_array_index(spans, ti_span, r);
    if (s->first < 0) {
      s->first = in.off;
      s->line = in.line - 1;
    }
    s->end = in.next;
  }
  l->size = in.next;
  ti_lines_close(&in);
  if (ok && spans->len == 0) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s: no actions, expected 'RANK ACTION "
                "...' lines", l->shared);
    ok = FALSE;
  }
  if (!ok) {
    g_array_free(spans, TRUE);
    return FALSE;
  }
  /* smpirun -np gives the ranks; here the largest rank named does, and
   * every rank below it has actions (SMPI's traces have an init each):
   * a few lines never make a million idle ranks */
  for (guint r = 0; ok && r < spans->len; r++)
    if (g_array_index(spans, ti_span, r).first < 0) {
      g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s: rank %u has no actions, expected "
                  "actions of every rank from 0 to %u (the largest rank named)", l->shared, r,
                  spans->len - 1);
      ok = FALSE;
    }
  if (!ok) {
    g_array_free(spans, TRUE);
    return FALSE;
  }
  l->nranks = (int)spans->len;
  l->spans = (ti_span *)(void *)g_array_free(spans, FALSE);
  /* ranks one after the other: the spans add up to the file at most */
  for (int r = 0; r < l->nranks; r++)
    if (l->spans[r].first >= 0)
      l->reread += l->spans[r].end - l->spans[r].first;
  return TRUE;
}

/* What `path` holds: an action file, or a list of them. */
static gboolean layout_of(const char *path, ti_layout *l, GError **error)
{
  memset(l, 0, sizeof *l);
  if (file_is_actions(path)) {
    l->shared = g_strdup(path);
    return scan_shared(l, error);
  }
  ti_lines in;
  if (!ti_lines_open(&in, path, 1 << 16, error))
    return FALSE;
  GPtrArray *files = g_ptr_array_new();
  gboolean got, ok;
  uint64_t name_bytes = 0; /* what the file names take */
  while ((ok = ti_lines_next(&in, &got, error)) && got) {
    if (files->len >= BUDGET_MAX_RANKS) {
      ok = ti_fail(error, &in, "more than %d files, expected one per rank", BUDGET_MAX_RANKS);
      break;
    }
    char *f = listed(path, TI_FIELD(&in, 0));
    g_ptr_array_add(files, f);
    name_bytes += strlen(f) + 1 + sizeof(char *);
    if ((files->len & 4095) == 0 && !budget_check_memory("SimGrid trace list", name_bytes, error)) {
      ok = FALSE;
      break;
    }
    if (files->len == 1 && !file_is_actions(f)) {
      ok = ti_fail(error, &in, "'%s' is not a file of SimGrid actions, expected a SimGrid "
                "time-independent trace ('RANK ACTION ...' lines) or a list naming one per rank",
                TI_FIELD(&in, 0));
      break;
    }
  }
  ti_lines_close(&in);
  g_ptr_array_add(files, NULL);
  char **names = (char **)g_ptr_array_free(files, FALSE);
  if (ok && !names[0]) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_CONTENT, "%s: empty, expected a SimGrid "
                "time-independent trace or a list of its files", path);
    ok = FALSE;
  }
  if (!ok) {
    g_strfreev(names);
    return FALSE;
  }
  if (!names[1]) { /* smpirun: one file is every rank's */
    l->shared = g_strdup(names[0]);
    g_strfreev(names);
    return scan_shared(l, error);
  }
  l->files = names;
  l->nranks = (int)g_strv_length(names);
  return budget_check_array("SimGrid trace ranks", (uint64_t)l->nranks,
                            sizeof(trace_rank) + 2 * sizeof(int), error);
}

/* ---- reading ---- */

static trace *defs_of(const ti_layout *l, uint32_t **region)
{
  trace *t = trace_new(l->nranks);
  *region = ti_region_map(t);
  t->stats.locations = l->nranks;
  return t;
}

/* The lines of a shared file from where `in` is up to offset `to` (< 0:
 * the end) for the ranks that have a state in `st` (NULL: not read now). */
static gboolean run_shared(ti_lines *in, int64_t to, ti_rank **st, int nranks, GError **error)
{
  gboolean got;
  while (ti_lines_next(in, &got, error)) {
    if (!got || (to >= 0 && in->off >= to))
      return TRUE;
    int64_t r;
    if (!ti_parse_rank(TI_FIELD(in, 0), &r) || r >= nranks)
      return ti_fail(error, in, "'%s', expected 'RANK ACTION ...' with a rank from 0 to %d",
                  TI_FIELD(in, 0), nranks - 1);
    if (in->fields->len < 2)
      return ti_fail(error, in, "a rank alone, expected 'RANK ACTION ...'");
    if (st[r] && !ti_rank_action(st[r], in, error))
      return FALSE;
  }
  return FALSE;
}

/* A rank's own file (a list's line): its lines; another rank's are
 * skipped, as SMPI does. */
static gboolean run_own(const char *path, ti_rank *st, GError **error)
{
  ti_lines in;
  if (!ti_lines_open(&in, path, ti_max_line(st->nranks), error))
    return FALSE;
  gboolean got, ok;
  while ((ok = ti_lines_next(&in, &got, error)) && got) {
    int64_t who;
    if (in.fields->len < 2 || !ti_parse_rank(TI_FIELD(&in, 0), &who)) {
      ok = ti_fail(error, &in, "'%s', expected 'RANK ACTION ...'", TI_FIELD(&in, 0));
      break;
    }
    if (who == st->rank && !(ok = ti_rank_action(st, &in, error)))
      break;
  }
  ti_lines_close(&in);
  return ok;
}

typedef struct ti_out {
  const trace_sink *sink;    /* NULL: into `t` */
  trace *t;
} ti_out;

static void emit_trace(void *user, int rank, const trace_event *e)
{
  trace_push(((ti_out *)user)->t, rank, e);
}

static void emit_sink(void *user, int rank, const trace_event *e)
{
  const trace_sink *s = ((ti_out *)user)->sink;
  s->record(s->user, 0, rank, e);
}

/* The end of a rank: open requests done, its time the trace's length. */
static void rank_end(ti_rank *st, trace *t)
{
  ti_rank_finish(st);
  t->duration_ps = MAX(t->duration_ps, st->now);
}

/* Rank r of a streamed input: its file, or its span of the shared one. */
static gboolean stream_rank(const ti_layout *l, int r, const uint32_t *region, ti_out *o,
                            GError **error)
{
  ti_rank st;
  ti_rank_init(&st, r, l->nranks, region, emit_sink, o);
  o->sink->begin(o->sink->user, 0, r, 0);
  gboolean ok = TRUE;
  if (l->files) {
    ok = run_own(l->files[r], &st, error);
  } else if (l->spans[r].first >= 0) {
    ti_rank **ranks = g_new0(ti_rank *, l->nranks);
    ranks[r] = &st;
    ti_lines in;
    ok = ti_lines_open(&in, l->shared, ti_max_line(l->nranks), error) &&
         ti_lines_seek(&in, l->spans[r].first, l->spans[r].line, error) &&
         run_shared(&in, l->spans[r].end, ranks, l->nranks, error);
    ti_lines_close(&in);
    g_free(ranks);
  }
  if (ok)
    rank_end(&st, o->t);
  ti_rank_clear(&st);
  o->sink->end(o->sink->user, 0, r);
  return ok;
}

static trace *ti_scan(const char *path, const trace_sink *sink, int workers, GError **error)
{
  (void)workers;
  ti_layout l;
  if (!layout_of(path, &l, error)) {
    layout_clear(&l);
    return NULL;
  }
  if (l.shared && l.reread > (int64_t)TI_REREAD_FACTOR * MAX(l.size, 1)) {
    layout_clear(&l);
    g_set_error(error, TRACE_ERROR, TRACE_SOURCE_READ_WHOLE, "%s: ranks interleaved", path);
    return NULL;
  }
  g_autofree uint32_t *region = NULL;
  trace *t = defs_of(&l, &region);
  ti_out o = { sink, t };
  gboolean ok = sink->defs(sink->user, t, error);
  for (int i = 0; ok && i < l.nranks; i++)
    ok = stream_rank(&l, i, region, &o, error);
  layout_clear(&l);
  if (!ok) {
    trace_free(t);
    return NULL;
  }
  return t;
}

static trace *ti_read(const char *path, GError **error)
{
  ti_layout l;
  if (!layout_of(path, &l, error)) {
    layout_clear(&l);
    return NULL;
  }
  if (!budget_check_array("SimGrid trace rank states", (uint64_t)l.nranks,
                          sizeof(ti_rank) + sizeof(ti_rank *), error)) {
    layout_clear(&l);
    return NULL;
  }
  g_autofree uint32_t *region = NULL;
  trace *t = defs_of(&l, &region);
  ti_out o = { NULL, t };
  ti_rank *st = g_new0(ti_rank, l.nranks);
  ti_rank **ranks = g_new0(ti_rank *, l.nranks);
  gboolean ok = TRUE;
  for (int r = 0; r < l.nranks; r++)
    ti_rank_init(&st[r], r, l.nranks, region, emit_trace, &o);
  if (l.shared) {
    /* one pass, every rank's state at once */
    ti_lines in;
    for (int r = 0; r < l.nranks; r++)
      ranks[r] = &st[r];
    ok = ti_lines_open(&in, l.shared, ti_max_line(l.nranks), error) &&
         run_shared(&in, -1, ranks, l.nranks, error);
    ti_lines_close(&in);
  } else {
    for (int r = 0; ok && r < l.nranks; r++)
      ok = run_own(l.files[r], &st[r], error);
  }
  for (int r = 0; r < l.nranks; r++) {
    if (ok)
      rank_end(&st[r], t);
    ti_rank_clear(&st[r]);
  }
  g_free(st);
  g_free(ranks);
  layout_clear(&l);
  if (!ok) {
    trace_free(t);
    return NULL;
  }
  trace_shrink(t);
  return t;
}

/* ---- the row ---- */

static input_probe probe(const input_peek *pk)
{
  if (!pk->is_file || !input_peek_is_text(pk))
    return INPUT_PROBE_NO;
  if (head_is_actions(pk->head))
    return INPUT_PROBE_CONTENT;
  /* a list: its first line names an action file */
  const char *eol = strchr(pk->head, '\n');
  g_autofree char *first = g_strstrip(g_strndup(pk->head, eol ? (size_t)(eol - pk->head)
                                                              : pk->nhead));
  if (!*first || (eol == NULL && pk->nhead >= INPUT_HEAD_BYTES))
    return INPUT_PROBE_NO;
  g_autofree char *f = listed(pk->path, first);
  return file_is_actions(f) ? INPUT_PROBE_CONTENT : INPUT_PROBE_NO;
}

/* A list's files are named relative to its folder. */
static char *root(const char *path)
{
  return file_is_actions(path) ? g_strdup(path) : g_path_get_dirname(path);
}

const input_reader input_reader_simgrid_ti = {
  .name = "simgrid-ti",
  .what = "a SimGrid time-independent trace ('RANK ACTION ...' lines, or a list naming one file "
          "per rank, as smpirun -replay takes them)",
  .gives = INPUT_TRACE,
  .probe = probe,
  .read = ti_read,
  .scan = ti_scan,
  .root = root,
};
