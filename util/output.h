/* output.h - writing a result (a file or a directory such as an OTF2
 * archive) so that nobody ever sees half of it.
 *
 * Every command that writes files goes through here:
 *  - a regular file (or a path that does not exist yet) is written to a
 *    temporary `.NAME.tmp-XXXXXX` in the same folder, flushed to disk and
 *    renamed over NAME at the end (the folder flushed too): readers see the
 *    old file or the whole new one, even after a crash of the machine. An
 *    existing file keeps its permissions;
 *  - a symbolic link is followed: its target is replaced (the link stays);
 *  - a device or a FIFO (/dev/null, /dev/stdout, a named pipe) is written
 *    directly: there is nothing to replace;
 *  - a directory output is built in a temporary sibling directory and
 *    renamed at the end; its target must be absent or an empty directory.
 * Temporaries are registered while they live: output_abort() removes one,
 * output_abort_all() removes every one (the command layer's way out on
 * SIGINT/SIGTERM), output_unlink_all_from_signal() is the async-signal-safe
 * last resort (files only) for a handler that must exit at once.
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

/* The path the user asked for (for messages). */
const char *output_path(const output *o);

/* TRUE once the progress hook says stop: writers leave their loop and call
 * output_abort(). */
gboolean output_stopped(const output *o);

/* Publishes the output (flush, fsync, rename) and frees `o`. On any error
 * (or when stopped) the temporary is removed and FALSE returned. */
gboolean output_commit(output *o, GError **error);

/* Removes the temporary (nothing is published) and frees `o`; NULL is a
 * no-op. */
void output_abort(output *o);

/* Writes `len` bytes to `path` in one go (output_open + commit). */
gboolean output_write_all(const char *path, const char *data, gsize len, const progress *prog,
                          GError **error);

/* Removes every temporary still registered (files and directories). */
void output_abort_all(void);

/* Removes `path` and, for a directory, everything below it; symbolic links
 * are removed, never followed. Errors are ignored: it is for clean-ups. */
void output_remove_tree(const char *path);

/* From a signal handler: unlinks the registered temporary files (only
 * async-signal-safe calls; temporary directories are left). */
void output_unlink_all_from_signal(void);

G_END_DECLS
