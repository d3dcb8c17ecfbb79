/* field.h - descriptors of the numbers a result struct holds, so that every
 * output names, orders and formats them from one table.
 *
 * A table is a const array of `field`; the command layer prints JSON
 * members, text rows and CSV columns from it. Header-only, no state.
 * Not for: printing (cli/), computing the numbers.
 */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

/* One named number of a result struct: the single source of the names,
 * units and order that every output (JSON, text tables, CSV) uses. Tables
 * of fields describe the static metrics (mapping/metrics.h), simulated
 * results (sim/run.h) and traced times (traces/trace.h). */
typedef enum {
  FIELD_INT,      /* int */
  FIELD_INT64,    /* int64_t */
  FIELD_DOUBLE,   /* double */
  FIELD_PS,       /* int64_t picoseconds, shown as seconds */
} field_type;

typedef enum {
  FIELD_COUNT,    /* an integer count (hops, edges, bytes) */
  FIELD_RATIO,    /* a mean, shown with 4 decimals */
  FIELD_SECONDS,  /* a time in seconds */
  FIELD_JOULES,   /* an energy in joules */
} field_unit;

/* Views a field belongs to: a static (pre) and a simulated (post) metric
 * carry the same name only when they measure the same thing. */
enum {
  FIELD_VIEW_STATIC = 1u << 0,
  FIELD_VIEW_SIMULATED = 1u << 1,
  FIELD_VIEW_ALL = FIELD_VIEW_STATIC | FIELD_VIEW_SIMULATED,
  FIELD_VIEW_BOUNDS = 1u << 2, /* static metrics with their lower bounds (mapping/bounds.h) */
  FIELD_VIEW_ENERGY = 1u << 3, /* metrics on a platform whose links draw power (routing/energy.h) */
};

typedef struct field {
  const char *name;        /* JSON key, CSV column, text label */
  field_type type;
  field_unit unit;
  size_t offset;           /* of the member in its struct */
  const char *description; /* one line, for help texts and documents */
  unsigned views;          /* FIELD_VIEW_* bits; 0 = every view */
  /* An integer field (FIELD_INT, FIELD_INT64) the struct does not keep
   * itself - a count its platform holds - computed from the struct
   * instead of read at `offset`; NULL: the member. */
  int64_t (*get)(const void *obj);
} field;

/* Does field f exist in view `view` (0: every field does)? */
static inline gboolean field_in_view(const field *f, unsigned view)
{
  return !view || !f->views || (f->views & view);
}

/* A field's value as a double (exact for integers below 2^53). */
static inline double field_double(const field *f, const void *obj)
{
  if (f->get)
    return (double)f->get(obj);
  const char *at = (const char *)obj + f->offset;
  switch (f->type) {
  case FIELD_INT:
    return *(const int *)(const void *)at;
  case FIELD_INT64:
    return (double)*(const int64_t *)(const void *)at;
  case FIELD_PS:
    return (double)*(const int64_t *)(const void *)at * 1e-12;
  case FIELD_DOUBLE:
  default:
    return *(const double *)(const void *)at;
  }
}

/* A field's value as an integer (FIELD_INT, FIELD_INT64, FIELD_PS in ps;
 * 0 for doubles). */
static inline int64_t field_int(const field *f, const void *obj)
{
  if (f->get)
    return f->get(obj);
  const char *at = (const char *)obj + f->offset;
  switch (f->type) {
  case FIELD_INT:
    return *(const int *)(const void *)at;
  case FIELD_INT64:
  case FIELD_PS:
    return *(const int64_t *)(const void *)at;
  case FIELD_DOUBLE:
  default:
    return 0;
  }
}
static inline gboolean field_is_integer(const field *f)
{
  return f->type == FIELD_INT || f->type == FIELD_INT64;
}

G_END_DECLS
