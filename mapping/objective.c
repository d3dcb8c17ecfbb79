/* objective.c - the static objectives' table and how they compare (see
 * objective.h). */
#include "mapping/objective.h"

#include <string.h>

#include "mapping/strategy.h"

static gboolean better_hop_bytes(const strategy_scores *a, const strategy_scores *b,
                                 const strategy_scale *s)
{
  if (a->hop_bytes != b->hop_bytes)
    return a->hop_bytes < b->hop_bytes;
  return a->max_link_bytes < b->max_link_bytes;
}

static gboolean better_max_link(const strategy_scores *a, const strategy_scores *b,
                                const strategy_scale *s)
{
  if (a->max_link_bytes != b->max_link_bytes)
    return a->max_link_bytes < b->max_link_bytes;
  return a->hop_bytes < b->hop_bytes;
}

/* hop_bytes / (the least hop_bytes) + alpha x max_link_bytes / (the least of those) */
static double weighted_score(const strategy_scores *c, const strategy_scale *s)
{
  return (double)c->hop_bytes / (double)MAX(s->min_hop_bytes, 1) +
         s->alpha * (double)c->max_link_bytes / (double)MAX(s->min_max_link_bytes, 1);
}

static gboolean better_weighted(const strategy_scores *a, const strategy_scores *b,
                                const strategy_scale *s)
{
  return weighted_score(a, s) < weighted_score(b, s);
}

static gboolean better_energy(const strategy_scores *a, const strategy_scores *b,
                              const strategy_scale *s)
{
  if (a->traffic_energy_j != b->traffic_energy_j)
    return a->traffic_energy_j < b->traffic_energy_j;
  return a->hop_bytes < b->hop_bytes;
}

/* The static objectives, ending with a row whose name is NULL. */
static const strategy_objective strategy_objectives[] = {
  { .name = STRATEGY_OBJECTIVE_DEFAULT, .metric = "hop_bytes", .bounded = TRUE, .swaps = TRUE,
    .better = better_hop_bytes },
  { .name = "max_link", .metric = "max_link_bytes", .better = better_max_link },
  { .name = "weighted", .metric = "weighted", .better = better_weighted },
  /* the traffic's energy: hop-bytes weighted by the joules a byte costs on
   * each link type above idle; the static view knows no time, so idle
   * power cannot enter */
  { .name = "energy", .metric = "traffic_energy_j", .swaps = TRUE, .needs_power = TRUE,
    .better = better_energy },
  { NULL },
};

const strategy_objective *strategy_objective_find(const char *name)
{
  for (const strategy_objective *o = strategy_objectives; o->name; o++)
    if (strcmp(o->name, name) == 0)
      return o;
  return NULL;
}

char *strategy_objective_names(gboolean swaps_only, const char *sep)
{
  GString *s = g_string_new(NULL);
  for (const strategy_objective *o = strategy_objectives; o->name; o++)
    if (o->swaps || !swaps_only)
      g_string_append_printf(s, "%s%s", s->len ? sep : "", o->name);
  return g_string_free(s, FALSE);
}

void strategy_objective_unknown(GError **error, const char *who, const char *name,
                                gboolean statics, const char *const *simulated)
{
  GString *s = g_string_new(NULL);
  if (statics) {
    g_autofree char *names = strategy_objective_names(FALSE, ", ");
    g_string_append(s, names);
  }
  if (simulated && simulated[0])
    g_string_append_printf(s, "%s%s", s->len ? ", " : "", simulated[0]);
  g_string_append_printf(s, "%sa simulated field", s->len ? " or " : "");
  for (int i = 1; simulated && simulated[0] && simulated[i]; i++)
    g_string_append_printf(s, "%s%s", i == 1 ? " (" : ", ", simulated[i]);
  if (simulated && simulated[0] && simulated[1])
    g_string_append_c(s, ')');
  g_set_error(error, STRATEGY_ERROR, STRATEGY_ERROR_SPEC, "%s%sunknown objective '%s', expected %s",
              who ? who : "", who ? ": " : "", name, s->str);
  g_string_free(s, TRUE);
}
