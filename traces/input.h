/* input.h - one door for every input path: which format it holds, and
 * opening it as that format (a trace, streamed or whole; a communication
 * matrix with its message counts).
 *
 * A format is a reader: one row of the registry (the table in input.c, or
 * input_register() at run time, as a test does) saying its name, what it
 * gives (a trace with times, or only a communication graph), a probe that
 * recognizes a path cheaply from its name and first bytes (a folder: from
 * the names of the files in it), and how it opens: the whole trace, a scan
 * that streams it rank by rank into a trace source (trace-source.h), or the
 * graph of a matrix. input_open() asks every probe once and keeps the
 * surest answer, so that the callers (cli/, study/, sim/) never pick a
 * reader themselves: a caller says what it needs (INPUT_TRACE for
 * --trace, INPUT_GRAPH for --matrix) and gets that, or one line naming the
 * path, what it is and the formats expected.
 *
 * Ownership: an input holds copies of its paths (input_clear frees them);
 * what it reads belongs to the caller. Reader rows are borrowed for the
 * life of the process. Threads: register before any input is opened; the
 * registry is then only read, from any thread.
 * Not for: writing traces (trace.h, simgrid-ti.h), platform files
 * (routing/), the traffic a trace makes under --collectives (sim/run.h).
 */
#pragma once

#include <glib.h>
#include <stddef.h>

#include "traces/commgraph.h"
#include "traces/trace-source.h"
#include "traces/trace.h"
#include "util/progress.h"

G_BEGIN_DECLS

/* What a format gives. */
typedef enum {
  INPUT_TRACE = 1u << 0,  /* records with times: replayed, exported, mapped by */
  INPUT_GRAPH = 1u << 1,  /* only a communication graph (a matrix): mapped, measured */
} input_gives;

/* How sure a probe is, weakest first. */
typedef enum {
  INPUT_PROBE_NO = 0,     /* not this format */
  INPUT_PROBE_FALLBACK,   /* nothing says otherwise: read as this when a path of this
                           * kind is asked for by name (an edge list for any text) */
  INPUT_PROBE_NAME,       /* the name says so (a *.otf2 file, a folder holding one) */
  INPUT_PROBE_CONTENT,    /* the first bytes carry the format's signature */
} input_probe;

/* What a probe sees, gathered once per path. */
#define INPUT_HEAD_BYTES 512
typedef struct input_peek {
  const char *path;
  const char *name;       /* the last component of the path */
  gboolean is_dir;
  gboolean is_file;       /* a regular file: head holds its first bytes */
  const char *head;       /* nhead bytes and a NUL (files only, else "") */
  size_t nhead;
} input_peek;

/* One format. Functions a format has no use for are NULL. */
typedef struct input_reader {
  const char *name;       /* "otf2", "csv": what `trace info` names */
  const char *what;       /* one phrase for messages: "an OTF2 archive (...)" */
  unsigned gives;         /* INPUT_TRACE or INPUT_GRAPH */
  input_probe (*probe)(const input_peek *pk);
  /* INPUT_TRACE: the whole trace, in memory */
  trace *(*read)(const char *path, GError **error);
  /* INPUT_TRACE, may be NULL (then the replay gets the whole trace): the
   * streaming pass of trace-source.h, rank by rank into a sink */
  trace_scan_fn scan;
  /* INPUT_GRAPH: the matrix (its message counts, when they come in a second
   * file, are read by the counts file's own reader and joined by input.c) */
  commgraph *(*graph)(const char *path, GError **error);
  /* The file that names the input, so that two paths of one input are
   * recognized as one (a folder and its anchor); NULL: the path itself.
   * NULL + error when there is none. */
  char *(*anchor)(const char *path, GError **error);
  /* The file or folder holding everything the input is read from (a study
   * hashes it to notice a change); NULL: the path itself. */
  char *(*root)(const char *path);
} input_reader;

/* Adds a reader after the built-in ones (borrowed, for the life of the
 * process); a later row loses ties. A row without a name, a phrase, a
 * probe, and `read` for a trace format or `graph` for a matrix format is
 * refused (a GLib critical). */
void input_register(const input_reader *r);
int input_nreaders(void);
const input_reader *input_reader_at(int i);
/* The reader named `name`, or NULL. */
const input_reader *input_reader_find(const char *name);

/* The reader of `path` among those giving `wants`, when some probe is at
 * least `min` sure and no reader of another kind is surer; NULL
 * otherwise (a study's glob skips such a path). */
const input_reader *input_recognize(const char *path, unsigned wants, input_probe min);

/* A path opened as its format. */
typedef struct input {
  const input_reader *reader;
  char *path;
  char *counts;           /* a matrix's message counts file, or NULL */
} input;

/* Recognizes `path` (and `counts`, a second matrix holding a matrix's
 * message counts, or NULL) as a format giving `wants`: TRUE and *in set,
 * or FALSE and one line naming the path, what it is if it is something
 * else, and the formats expected. Reads nothing but the probes' bytes. */
gboolean input_open(input *in, const char *path, const char *counts, unsigned wants,
                    GError **error);
void input_clear(input *in);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(input, input_clear)

/* The whole trace (INPUT_TRACE). */
trace *input_trace(const input *in, GError **error);

/* The trace as a source for the replay: streamed when the format can (its
 * scan), else read whole and owned by the source; "read: records" to `pr`. */
trace_source *input_source(const input *in, const progress *pr, GError **error);

/* The matrix with its counts (INPUT_GRAPH). */
commgraph *input_graph(const input *in, GError **error);

/* Shorthands: open as INPUT_TRACE (INPUT_GRAPH with its counts, or NULL),
 * read (or make the source), close. */
trace *input_read_trace(const char *path, GError **error);
trace_source *input_read_source(const char *path, const progress *pr, GError **error);
commgraph *input_read_matrix(const char *path, const char *counts, GError **error);

/* What names the input: its reader's anchor (else the path), resolved to an
 * absolute path without symbolic links, so that two paths of one input give
 * the same; NULL when there is none. Caller frees. */
char *input_identity(const input *in);

/* The file or folder holding the whole input (its reader's root). Caller
 * frees. */
char *input_root(const input *in);

/* "the formats expected" for `wants`: "a trace: an OTF2 archive (...)",
 * from the registry. Caller frees. */
char *input_expected(unsigned wants);

G_END_DECLS
