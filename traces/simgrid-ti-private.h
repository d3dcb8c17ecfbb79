/* simgrid-ti-private.h - what the SimGrid time-independent reader's two
 * files share: reading action lines (fields split, file and line kept for
 * errors) and turning one rank's actions into trace records, in
 * simgrid-ti-actions.c; input-simgrid-ti.c finds the ranks and their lines
 * and drives the passes (its header comment has the format's rules). Not
 * for users of traces/. The request key is simgrid-ti-key.h.
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "traces/simgrid-ti-key.h"
#include "traces/trace.h"

/* A file of action lines being read. */
typedef struct ti_lines {
  const char *path;
  FILE *f;
  int64_t line;          /* number of the line read last */
  int64_t off, next;     /* byte offset of the line read last, and past it */
  GString *text;
  GPtrArray *fields;     /* into text */
  size_t max;            /* longest line kept */
  gboolean truncate;     /* a longer line: its first `max` bytes (else an error) */
} ti_lines;

/* The longest line read for `nranks` ranks (a vector collective has two
 * counts per rank). */
size_t ti_max_line(int nranks);

/* Opens `path` (borrowed for the reader's life); lines longer than `max`
 * are an error, or cut there when in->truncate is set after opening. */
gboolean ti_lines_open(ti_lines *in, const char *path, size_t max, GError **error);
void ti_lines_close(ti_lines *in);
/* Goes to byte `off`, counted as the line after line `line`. */
gboolean ti_lines_seek(ti_lines *in, int64_t off, int64_t line, GError **error);
/* The next line holding fields (blank lines and '#' comments skipped),
 * split into in->fields: TRUE with *got FALSE at the end of the file. */
gboolean ti_lines_next(ti_lines *in, gboolean *got, GError **error);
#define TI_FIELD(in, i) ((const char *)(in)->fields->pdata[i])

/* FALSE + error "FILE:LINE: what" (TRACE_ERROR_CONTENT). */
gboolean ti_fail(GError **error, const ti_lines *in, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* A rank field (0 .. BUDGET_MAX_RANKS - 1). */
gboolean ti_parse_rank(const char *s, int64_t *rank);
/* An action SMPI's replay knows. */
gboolean ti_is_action(const char *name);

/* The regions of every action, added to t: per action row its region
 * index (caller frees). */
uint32_t *ti_region_map(trace *t);

/* Where a rank's records go. */
typedef void (*ti_emit_fn)(void *user, int rank, const trace_event *e);

/* One rank being read: its clock, default datatype and open requests. */
typedef struct ti_rank {
  int rank, nranks;
  const uint32_t *region;    /* per action row: its region index */
  int64_t now;               /* ps */
  int64_t dtype;             /* the default datatype's bytes */
  uint64_t next_id;
  GHashTable *open;          /* ti_key -> GQueue of ti_req, oldest first */
  GQueue order;              /* ti_req, posting order */
  ti_emit_fn emit;
  void *user;
} ti_rank;

void ti_rank_init(ti_rank *st, int rank, int nranks, const uint32_t *region, ti_emit_fn emit,
                  void *user);
void ti_rank_clear(ti_rank *st);
/* One action line of the rank (fields 0 and 1: its rank and action). */
gboolean ti_rank_action(ti_rank *st, const ti_lines *in, GError **error);
/* The end of the rank's actions (or its finalize): every request still
 * open completes, in posting order, inside a Waitall region. */
void ti_rank_finish(ti_rank *st);
