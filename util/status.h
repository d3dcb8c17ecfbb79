/* status.h - the exit statuses of mapsim and the two kinds of error that
 * are not the input's fault.
 *
 * The contract every subcommand keeps, whatever its input: 0 success, 1 a
 * check failed (pre/post metrics disagree), 2 bad input or an impossible
 * request, 3 an internal error (a broken invariant: a bug), 130 stopped by
 * SIGINT, SIGTERM or SIGHUP, 141 the reader of a pipe went away (quietly,
 * the status a shell shows for other tools killed by SIGPIPE there) -
 * never a signal, an assertion or a GLib trap.
 *
 * Library code reports every input problem in its own error domain (status
 * 2). Only two things are reported in STATUS_ERROR: an internal error
 * (status 3, e.g. a strategy that left an invalid mapping) and work that
 * stopped because the progress hook said so (status 130, message
 * "interrupted"). status_of_error() is the one rule from an error to a
 * status. Header-only, no state.
 * Not for: printing (the command layer prints the message).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

enum {
  STATUS_OK = 0,
  STATUS_CHECK_FAILED = 1,
  STATUS_BAD_INPUT = 2,
  STATUS_INTERNAL = 3,
  STATUS_INTERRUPTED = 130, /* 128 + SIGINT, as a shell reports it */
  STATUS_BROKEN_PIPE = 141, /* 128 + SIGPIPE, as a shell reports it */
};

#define STATUS_ERROR (status_error_quark())
static inline GQuark status_error_quark(void)
{
  return g_quark_from_static_string("mapsim-status-error-quark");
}

typedef enum {
  STATUS_ERROR_INTERNAL,    /* a broken invariant: a bug, not the input */
  STATUS_ERROR_INTERRUPTED, /* stopped by a signal through the progress hook */
} StatusError;

/* The exit status an error stands for: 3, 130, or 2 for any other error. */
static inline int status_of_error(const GError *e)
{
  if (e && e->domain == STATUS_ERROR)
    return e->code == STATUS_ERROR_INTERNAL ? STATUS_INTERNAL : STATUS_INTERRUPTED;
  return STATUS_BAD_INPUT;
}

G_END_DECLS
