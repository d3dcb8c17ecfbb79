/* link-fields.h - the quantities a link can report, in one table: each
 * with one name (the JSON key and CSV column; the head of its text column
 * is derived from it), one unit and one getter, so that every per-link
 * output names and formats a quantity the same way: the "links" of
 * `metrics --json`, `simulate --json` and `simulate --jobs --json`, the
 * text tables of the hottest and busiest links, the link-event CSV.
 *
 * A getter reads a link_source: the platform, and whichever of a run's
 * results an output has (metrics of the links, a replay, a mix of jobs).
 * A field exists for a link only where its source has it (link_field_has:
 * a replay's energy with power keys, loads under a contention model, the
 * edges of a static view and the messages of a simulated one). Which
 * fields an output shows is its view (LINK_VIEW_*), in table order; which
 * links it lists is the output's own choice.
 *
 * A new per-link quantity is one row (and its getter) here, then the view
 * bits of the outputs that show it. Ownership: the table is static; the
 * source is borrowed. Not for: computing the quantities, choosing links.
 */
#pragma once

#include <json-glib/json-glib.h>

#include "mapping/metrics.h"
#include "sim/mix.h"
#include "sim/replay.h"

G_BEGIN_DECLS

/* Where the values come from; any result may be NULL. */
typedef struct link_source {
  const platform *p;
  const metrics *m;          /* per-link metrics (static or simulated view) */
  const replay_result *r;    /* a replay's per-link results */
  const mix_result *mix;     /* several jobs: each job's bytes per link */
} link_source;

typedef enum {
  LINK_FIELD_INT,
  LINK_FIELD_DOUBLE,
  LINK_FIELD_TEXT,
  LINK_FIELD_PER_JOB,        /* an integer per job of the mix (a JSON array) */
} link_field_type;

typedef enum {
  LINK_UNIT_ID,              /* a link or node id */
  LINK_UNIT_COUNT,           /* messages, edges */
  LINK_UNIT_BYTES,
  LINK_UNIT_SECONDS,         /* its name ends in _s */
  LINK_UNIT_JOULES,
  LINK_UNIT_LOAD,            /* what the model counts on a link (replay_result.load_unit) */
  LINK_UNIT_NAME,            /* a direction, a link type */
} link_unit;

/* Which outputs show a field (link_field.views). */
enum {
  LINK_VIEW_METRICS = 1u << 0, /* metrics --json: a view of the links' metrics */
  LINK_VIEW_REPLAY = 1u << 1,  /* simulate --json: what the replay measured */
  LINK_VIEW_JOBS = 1u << 2,    /* simulate --jobs --json: the mix's and each job's */
  LINK_VIEW_ALL = LINK_VIEW_METRICS | LINK_VIEW_REPLAY | LINK_VIEW_JOBS,
};

/* What a getter returns: `i` (LINK_FIELD_INT, PER_JOB), `d` (DOUBLE) or
 * `text` (TEXT: static, or in `buf`). */
typedef struct link_value {
  int64_t i;
  double d;
  const char *text;
  char buf[8];
} link_value;

/* Where a field's value is: a per-link array (nlinks int64_t) of the
 * source's metrics or replay, or computed by the field's getter. */
typedef enum {
  LINK_FROM_GETTER,
  LINK_FROM_METRICS,         /* the int64_t * member at `offset` of s->m */
  LINK_FROM_REPLAY,          /* the int64_t * member at `offset` of s->r */
} link_from;

typedef struct link_field {
  const char *name;
  link_field_type type;
  link_unit unit;
  int digits;                /* a double in text: significant digits (%.*g); 0: %.0f */
  unsigned views;
  const char *description;
  link_from from;
  size_t offset;             /* LINK_FROM_METRICS, _REPLAY: of the array */
  double scale;              /* LINK_FIELD_DOUBLE from an array: its value times this */
  /* Whether link l of s has the field; NULL: wherever the source it reads
   * is there (an array's: s->m or s->r). */
  gboolean (*has)(const link_source *s, int l);
  /* LINK_FROM_GETTER: the value for link l (for PER_JOB, of job `job`). */
  void (*get)(const link_source *s, int l, int job, link_value *v);
} link_field;

typedef enum {
  LINK_F_LINK,
  LINK_F_FROM,
  LINK_F_TO,
  LINK_F_DIRECTION,
  LINK_F_TYPE,
  LINK_F_EDGES,
  LINK_F_MESSAGES,
  LINK_F_BYTES,
  LINK_F_TIME,
  LINK_F_P2P_BYTES,
  LINK_F_P2P_MESSAGES,
  LINK_F_COLLECTIVE_BYTES,
  LINK_F_BUSY,
  LINK_F_ENERGY,
  LINK_F_MAX_LOAD,
  LINK_F_AVG_LOAD,
  LINK_F_SATURATED,
  LINK_F_JOB_BYTES,
  LINK_NFIELDS
} link_field_id;

/* The table, in the order outputs list fields. */
extern const link_field link_fields[LINK_NFIELDS];

gboolean link_field_has(link_field_id f, const link_source *s, int l);

/* The head of field f's text column: its name with a unit _s written
 * " (s)", a load named by the model's unit (max_load: "max flows"),
 * spaces for underscores. Appended to `out`. */
void link_field_head(GString *out, link_field_id f, const link_source *s);

/* Field f of link l as text (integers exactly, doubles with the field's
 * digits; a PER_JOB field's values separated by spaces), appended. */
void link_field_text(GString *out, link_field_id f, const link_source *s, int l);

/* The fields of `view` that link l has, as members of the object being
 * built. */
void link_fields_json(JsonBuilder *b, unsigned view, const link_source *s, int l);

G_END_DECLS
