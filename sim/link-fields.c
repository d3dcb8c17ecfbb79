/* link-fields.c - the per-link quantities' table and its formats (see
 * link-fields.h). */
#include "sim/link-fields.h"
#include "util/json-number.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

/* ---- where a field exists ---- */

static gboolean has_metrics(const link_source *s, int l)
{
  return s->m != NULL;
}

static gboolean has_direction(const link_source *s, int l)
{
  return s->p->topo->link_dim[l] >= 0;
}

static gboolean has_edges(const link_source *s, int l)
{
  return s->m && !s->m->simulated;
}

static gboolean has_messages(const link_source *s, int l)
{
  return s->m && s->m->simulated;
}

static gboolean has_energy(const link_source *s, int l)
{
  return s->r && s->r->link_energy_j;
}

static gboolean has_load(const link_source *s, int l)
{
  return s->r && s->r->link_stats;
}

static gboolean has_jobs(const link_source *s, int l)
{
  return s->mix != NULL;
}

/* ---- the values ---- */

static void get_link(const link_source *s, int l, int job, link_value *v)
{
  v->i = l;
}

static void get_from(const link_source *s, int l, int job, link_value *v)
{
  v->i = s->p->topo->link_src[l];
}

static void get_to(const link_source *s, int l, int job, link_value *v)
{
  v->i = s->p->topo->link_dst[l];
}

/* "x+", "y-" ... */
static void get_direction(const link_source *s, int l, int job, link_value *v)
{
  const topo *t = s->p->topo;
  v->buf[0] = topo_dim_letter(t->link_dim[l]);
  v->buf[1] = t->link_dir[l] ? '-' : '+';
  v->buf[2] = '\0';
  v->text = v->buf;
}

static void get_type(const link_source *s, int l, int job, link_value *v)
{
  v->text = s->p->linktypes[s->p->link_type[l]].name;
}

static void get_time(const link_source *s, int l, int job, link_value *v)
{
  v->d = platform_link_time(s->p, l, s->m->link_bytes[l]);
}

static void get_energy(const link_source *s, int l, int job, link_value *v)
{
  v->d = s->r->link_energy_j[l];
}

static void get_max_load(const link_source *s, int l, int job, link_value *v)
{
  v->d = s->r->link_stats[l].max_load;
}

static void get_avg_load(const link_source *s, int l, int job, link_value *v)
{
  v->d = s->r->link_stats[l].avg_load;
}

static void get_saturated(const link_source *s, int l, int job, link_value *v)
{
  v->d = (double)s->r->link_stats[l].saturated_ps * 1e-12;
}

static void get_job_bytes(const link_source *s, int l, int job, link_value *v)
{
  v->i = mix_link_bytes(s->mix, job, l);
}

#define ALL LINK_VIEW_ALL
#define METRICS LINK_VIEW_METRICS
#define REPLAY LINK_VIEW_REPLAY
#define JOBS LINK_VIEW_JOBS

/* A field read from a per-link array of the metrics (M) or the replay (R). */
#define M(member) .from = LINK_FROM_METRICS, .offset = offsetof(metrics, member)
#define R(member) .from = LINK_FROM_REPLAY, .offset = offsetof(replay_result, member)

const link_field link_fields[LINK_NFIELDS] = {
  [LINK_F_LINK] = { "link", LINK_FIELD_INT, LINK_UNIT_ID, 0, ALL, "the link's id",
                    .get = get_link },
  [LINK_F_FROM] = { "from", LINK_FIELD_INT, LINK_UNIT_ID, 0, ALL, "the node or switch it leaves",
                    .get = get_from },
  [LINK_F_TO] = { "to", LINK_FIELD_INT, LINK_UNIT_ID, 0, ALL, "the node or switch it enters",
                  .get = get_to },
  [LINK_F_DIRECTION] = { "direction", LINK_FIELD_TEXT, LINK_UNIT_NAME, 0, METRICS,
                         "dimension and direction on a torus or mesh (x+, y-, ...)",
                         .has = has_direction, .get = get_direction },
  [LINK_F_TYPE] = { "type", LINK_FIELD_TEXT, LINK_UNIT_NAME, 0, METRICS, "its link type",
                    .get = get_type },
  [LINK_F_EDGES] = { "edges", LINK_FIELD_INT, LINK_UNIT_COUNT, 0, METRICS,
                     "edges of the communication graph routed over it (static view)",
                     M(link_messages), .has = has_edges },
  [LINK_F_MESSAGES] = { "messages", LINK_FIELD_INT, LINK_UNIT_COUNT, 0, METRICS,
                        "messages that crossed it (simulated view)", M(link_messages),
                        .has = has_messages },
  [LINK_F_BYTES] = { "bytes", LINK_FIELD_INT, LINK_UNIT_BYTES, 0, METRICS | JOBS,
                     "the traffic's bytes on it (static or simulated view)", M(link_bytes) },
  [LINK_F_TIME] = { "time_s", LINK_FIELD_DOUBLE, LINK_UNIT_SECONDS, 6, METRICS,
                    "bytes / bandwidth", .has = has_metrics, .get = get_time },
  [LINK_F_P2P_BYTES] = { "p2p_bytes", LINK_FIELD_INT, LINK_UNIT_BYTES, 0, REPLAY,
                         "point-to-point payload bytes the replay put on it", R(link_bytes) },
  [LINK_F_P2P_MESSAGES] = { "p2p_messages", LINK_FIELD_INT, LINK_UNIT_COUNT, 0, REPLAY,
                            "point-to-point messages that crossed it", R(link_messages) },
  [LINK_F_COLLECTIVE_BYTES] = { "collective_bytes", LINK_FIELD_INT, LINK_UNIT_BYTES, 0, REPLAY,
                                "the collectives' bytes on it", R(coll_link_bytes) },
  [LINK_F_BUSY] = { "busy_s", LINK_FIELD_DOUBLE, LINK_UNIT_SECONDS, 6, REPLAY | JOBS,
                    "time it carried data (all traffic)", R(link_busy_ps), .scale = 1e-12 },
  [LINK_F_ENERGY] = { "energy_j", LINK_FIELD_DOUBLE, LINK_UNIT_JOULES, 9, REPLAY,
                      "its energy over the makespan (links with power keys)",
                      .has = has_energy, .get = get_energy },
  [LINK_F_MAX_LOAD] = { "max_load", LINK_FIELD_DOUBLE, LINK_UNIT_LOAD, 0, REPLAY,
                        "the most flows or queued packets on it at once", .has = has_load,
                        .get = get_max_load },
  [LINK_F_AVG_LOAD] = { "avg_load", LINK_FIELD_DOUBLE, LINK_UNIT_LOAD, 4, REPLAY,
                        "their number averaged over the makespan", .has = has_load,
                        .get = get_avg_load },
  [LINK_F_SATURATED] = { "saturated_s", LINK_FIELD_DOUBLE, LINK_UNIT_SECONDS, 6, REPLAY,
                         "time it ran at its full bandwidth", .has = has_load,
                         .get = get_saturated },
  [LINK_F_JOB_BYTES] = { "job_bytes", LINK_FIELD_PER_JOB, LINK_UNIT_BYTES, 0, JOBS,
                         "each job's bytes on it (static views, in job order)",
                         .has = has_jobs, .get = get_job_bytes },
};

#undef M
#undef R

#undef ALL
#undef METRICS
#undef REPLAY
#undef JOBS

gboolean link_field_has(link_field_id f, const link_source *s, int l)
{
  const link_field *d = &link_fields[f];
  if (d->has)
    return d->has(s, l);
  return d->from == LINK_FROM_METRICS ? s->m != NULL
       : d->from == LINK_FROM_REPLAY  ? s->r != NULL
                                      : TRUE;
}

/* Field f's value for link l (of job `job`). */
static void value_of(const link_field *d, const link_source *s, int l, int job, link_value *v)
{
  if (d->from == LINK_FROM_GETTER) {
    d->get(s, l, job, v);
    return;
  }
  const void *obj = d->from == LINK_FROM_METRICS ? (const void *)s->m : (const void *)s->r;
  const int64_t *array = *(const int64_t *const *)(const void *)((const char *)obj + d->offset);
  v->i = array[l];
  v->d = (double)array[l] * d->scale;
}

void link_field_head(GString *out, link_field_id f, const link_source *s)
{
  const link_field *d = &link_fields[f];
  size_t n = strlen(d->name);
  const char *unit = NULL;
  if (d->unit == LINK_UNIT_SECONDS && g_str_has_suffix(d->name, "_s")) {
    n -= 2;
    unit = " (s)";
  } else if (d->unit == LINK_UNIT_LOAD && g_str_has_suffix(d->name, "_load")) {
    n -= 5;
    unit = s->r && s->r->load_unit ? s->r->load_unit : "load";
  }
  for (size_t i = 0; i < n; i++)
    g_string_append_c(out, d->name[i] == '_' ? ' ' : d->name[i]);
  if (d->unit == LINK_UNIT_LOAD)
    g_string_append_c(out, ' ');
  if (unit)
    g_string_append(out, unit);
}

static void append_double(GString *out, const link_field *d, double v)
{
  if (d->digits)
    g_string_append_printf(out, "%.*g", d->digits, v);
  else
    g_string_append_printf(out, "%.0f", v);
}

void link_field_text(GString *out, link_field_id f, const link_source *s, int l)
{
  const link_field *d = &link_fields[f];
  link_value v = { 0 };
  int jobs = d->type == LINK_FIELD_PER_JOB ? s->mix->njobs : 1;
  for (int j = 0; j < jobs; j++) {
    value_of(d, s, l, j, &v);
    if (j)
      g_string_append_c(out, ' ');
    switch (d->type) {
    case LINK_FIELD_INT:
    case LINK_FIELD_PER_JOB: g_string_append_printf(out, "%" PRId64, v.i); break;
    case LINK_FIELD_DOUBLE: append_double(out, d, v.d); break;
    case LINK_FIELD_TEXT: g_string_append(out, v.text); break;
    }
  }
}

void link_fields_json(JsonBuilder *b, unsigned view, const link_source *s, int l)
{
  for (int f = 0; f < LINK_NFIELDS; f++) {
    const link_field *d = &link_fields[f];
    if (!(d->views & view) || !link_field_has((link_field_id)f, s, l))
      continue;
    link_value v = { 0 };
    json_builder_set_member_name(b, d->name);
    switch (d->type) {
    case LINK_FIELD_INT:
      value_of(d, s, l, 0, &v);
      json_builder_add_int_value(b, v.i);
      break;
    case LINK_FIELD_DOUBLE:
      value_of(d, s, l, 0, &v);
      json_number_add(b, v.d);
      break;
    case LINK_FIELD_TEXT:
      value_of(d, s, l, 0, &v);
      json_builder_add_string_value(b, v.text);
      break;
    case LINK_FIELD_PER_JOB:
      json_builder_begin_array(b);
      for (int j = 0; j < s->mix->njobs; j++) {
        value_of(d, s, l, j, &v);
        json_builder_add_int_value(b, v.i);
      }
      json_builder_end_array(b);
      break;
    }
  }
}
