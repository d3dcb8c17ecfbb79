/* progress.h - how long work reports how far it is, and learns that it
 * should stop.
 *
 * A loop that may run for seconds (reading a trace, building a large
 * platform, mapping, replaying, a study's cells) takes an optional
 * `const progress *` and calls progress_report() now and then (every few
 * thousand items; the callback itself limits how often it draws) and
 * progress_stopped() at the same places. The command layer supplies the
 * callback (a line "what: done/total, rate, ETA" on a terminal) and the
 * stop flag (set by its SIGINT/SIGTERM/SIGHUP handler); library code never
 * prints. A call into a library that cannot poll (Scotch, cairo) needs
 * nothing here: the command layer ends the process without waiting for it
 * (cli/process.c).
 *
 * Ownership: the struct and what it points to belong to the caller and
 * must outlive the work. NULL means: nobody is watching, never stop.
 * Not for: results or errors (GError), except "interrupted" (progress_check).
 */
#pragma once

#include <glib.h>
#include <signal.h>
#include <stdint.h>

#include "util/status.h"

G_BEGIN_DECLS

typedef struct progress {
  /* Called with what is being done, items done and items in all (total 0:
   * unknown). May be NULL. */
  void (*report)(void *user, const char *what, uint64_t done, uint64_t total);
  void *user;
  /* Nonzero once the work should stop (an interrupt); may be NULL. */
  const volatile sig_atomic_t *stop;
} progress;

static inline void progress_report(const progress *p, const char *what, uint64_t done,
                                   uint64_t total)
{
  if (p && p->report)
    p->report(p->user, what, done, total);
}

static inline gboolean progress_stopped(const progress *p)
{
  return p && p->stop && *p->stop;
}

/* FALSE with "interrupted" (STATUS_ERROR_INTERRUPTED) once p says stop. */
static inline gboolean progress_check(const progress *p, GError **error)
{
  if (!progress_stopped(p))
    return TRUE;
  g_set_error_literal(error, STATUS_ERROR, STATUS_ERROR_INTERRUPTED, "interrupted");
  return FALSE;
}

G_END_DECLS
