/* output.h - writing a result (a file or a directory such as an OTF2
 * archive) so that nobody ever sees half of it, and every write error is
 * noticed.
 *
 * Every command that writes files goes through here:
 *  - a regular file (or a path that does not exist yet) is written to a
 *    temporary `.NAME.tmp-MACHINE-PID-XXXXXX` in the same folder, flushed
 *    to disk and renamed over NAME at the end (the folder flushed too):
 *    readers see the old file or the whole new one, even after a crash of
 *    the machine. An existing file keeps its permissions; a file nobody may
 *    write (mode 0444, or not writable for this user) is refused, not
 *    replaced;
 *  - a symbolic link is followed: its target is replaced (the link stays);
 *  - `-`, /dev/stdout, /dev/stderr and /dev/fd/N write to the descriptor
 *    this process already holds (a shell's `>>` keeps appending, a pipe
 *    works); a device or a FIFO (/dev/null, a named pipe) is written
 *    directly: there is nothing to replace;
 *  - a directory output is built in a temporary sibling directory and
 *    renamed at the end, once every file in it was written and closed
 *    without error; its target must be absent or an empty directory. Its
 *    files are not forced to disk (see finish_dir in output.c): after a
 *    crash of the machine it may be incomplete.
 * A write, flush, sync or close that fails fails output_commit() with the
 * path and the system's reason, and nothing is renamed into place.
 * MACHINE (a digest of host name, boot and PID namespace) and PID name the
 * creator: output_open*() removes the temporaries of the same output whose
 * creator is provably gone (same machine, no such process), such as those
 * of a SIGKILLed run.
 *
 * Temporaries are registered while they live: output_abort() removes one,
 * output_abort_all() removes every one (the orderly way out),
 * output_remove_all_now() is the async-signal-safe one for a signal
 * handler or a thread that must end the process at once while other
 * threads still write (files and directories, no locks, no allocation).
 * output_commit() refuses to publish work that its progress hook was told
 * to stop: it removes the temporary and fails with STATUS_ERROR_INTERRUPTED.
 *
 * Ownership: output_open*() returns a handle that output_commit() or
 * output_abort() frees (exactly one of them). Paths are copied.
 * Not for: reading, formats (each writer owns its format).
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "util/progress.h"

G_BEGIN_DECLS

#define OUTPUT_ERROR (output_error_quark())
GQuark output_error_quark(void);

typedef enum {
  OUTPUT_ERROR_PATH,  /* not writable: missing folder, permissions, a directory */
  OUTPUT_ERROR_WRITE, /* writing, flushing or renaming failed (disk full ...) */
} OutputError;

/* A stream over a file descriptor that remembers why a write first failed
 * (stdio's ferror() does not keep errno). `on_error` (may be NULL) is
 * called with the errno of every failed write or close, from the writing
 * thread. fclose() closes `fd` unless `keep_fd`. */
typedef struct output_fd {
  int fd;
  int error;          /* the first errno, 0 while all went well */
  gboolean keep_fd;
  void (*on_error)(int err);
} output_fd;

FILE *output_fd_stream(output_fd *w);

/* Called (from the writing thread) when a write to any output fails with
 * EPIPE: the reader of a pipe went away. The command layer ends the
 * process quietly there, as SIGPIPE would end other tools; NULL (the
 * default) reports it as a write error. */
void output_set_broken_pipe_hook(void (*hook)(void));

typedef struct output output;

/* A file output at `path`; `prog` (may be NULL) is polled by
 * output_commit() and by writers that call output_stopped(). */
output *output_open(const char *path, const progress *prog, GError **error);

/* A directory output at `path` (parents are created). */
output *output_open_dir(const char *path, const progress *prog, GError **error);

/* The stream of a file output. */
FILE *output_stream(const output *o);

/* Where a directory output is being built (the temporary directory). */
const char *output_dir(const output *o);

/* TRUE once the progress hook says stop: writers leave their loop and call
 * output_abort(). */
gboolean output_stopped(const output *o);

/* Starts writing to disk what a file output holds so far, without waiting
 * (sync_file_range): a writer of a large file calls it now and then from
 * its writing thread so that output_commit()'s fsync waits for the last
 * part only. Errors show at output_commit(). */
void output_start_writeback(output *o);

/* Publishes the output (flush, fsync, rename) and frees `o`. On any error
 * (or when stopped) the temporary is removed and FALSE returned. */
gboolean output_commit(output *o, GError **error);

/* Removes the temporary (nothing is published) and frees `o`; NULL is a
 * no-op. */
void output_abort(output *o);

/* The group commit: several outputs of one run published together.
 * After output_group_begin(), output_commit() of a file or directory
 * output does all but the rename (written, flushed, synced, closed: every
 * error shows there) and holds it; output_group_commit() then renames
 * every held output into place, or none when the run was stopped: a stop
 * (SIGINT, SIGTERM, SIGHUP, including output_remove_all_now() from the
 * main thread) before the renames removes all the temporaries, one during
 * them waits for the last rename, so the outputs are all the new ones or
 * all the old ones. A SIGKILL during the renames (microseconds) can leave
 * some new and some old. output_group_abort() removes every held one
 * (a failed run). Direct outputs (`-`, a device) are written at once.
 * One group at a time, per process; output_group_* end it. */
void output_group_begin(void);
gboolean output_group_commit(GError **error);
void output_group_abort(void);

/* From now on `hook(path, user)` is called for every file or directory
 * output renamed into place (`path` as given to output_open*), from the
 * committing thread (it must be thread-safe when several threads commit);
 * NULL stops it. For a command that keeps a manifest of what it wrote. */
void output_set_publish_hook(void (*hook)(const char *path, void *user), void *user);

/* Writes `len` bytes to `path` in one go (output_open + commit). */
gboolean output_write_all(const char *path, const char *data, gsize len, const progress *prog,
                          GError **error);

/* Removes every temporary still registered (files and directories). */
void output_abort_all(void);

/* Removes `path` and, for a directory, everything below it; symbolic links
 * are removed, never followed. Errors are ignored: it is for clean-ups. */
void output_remove_tree(const char *path);

/* Removes the temporaries in folder `dir` whose creators are provably
 * gone, whatever output they were for (output_open*() does it for its own
 * target): for a command that owns a folder, at its start. */
void output_remove_stale_in(const char *dir);

/* Removes every registered temporary file and directory (with everything
 * below it) using only async-signal-safe calls, from a signal handler or
 * from any thread, while other threads may still be writing: outputs being
 * opened meanwhile wait, a directory is renamed away before it is emptied.
 * For a process that ends right after it (_exit). */
void output_remove_all_now(void);

G_END_DECLS
