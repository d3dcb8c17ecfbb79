/* energy.c - the power model of links (see energy.h). */
#include "routing/energy.h"

#include <math.h>

static gboolean bad(const char *where, const char *key, double v, const char *expected,
                    GError **error)
{
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID, "%s: %s = %g, expected %s", where,
              key, v, expected);
  return FALSE;
}

gboolean platform_set_link_power(platform *p, int type, double idle, double busy,
                                 double energy_per_bit, double off, double idle_timeout,
                                 double wake_latency, const char *where, GError **error)
{
  linktype *t = &p->linktypes[type];
  if (!(idle >= 0) || !isfinite(idle))
    return bad(where, "power-idle", idle, "watts >= 0", error);
  if (!(off >= 0) || !isfinite(off))
    return bad(where, "power-off", off, "watts >= 0", error);
  if (busy >= 0 && energy_per_bit >= 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: power-busy and energy-per-bit both given, expected one of them (power-busy "
                "= power-idle + 8 x energy-per-bit x bandwidth)", where);
    return FALSE;
  }
  if (energy_per_bit >= 0) {
    if (!isfinite(energy_per_bit))
      return bad(where, "energy-per-bit", energy_per_bit, "joules per bit >= 0", error);
    busy = idle + 8 * energy_per_bit * t->bandwidth;
  } else if (busy < 0) {
    busy = idle;
  }
  if (!isfinite(busy) || busy < idle)
    return bad(where, "power-busy", busy, "watts >= power-idle", error);
  if (!isfinite(idle_timeout) || !isfinite(wake_latency) || wake_latency < 0)
    return bad(where, "wake-latency", wake_latency, "seconds >= 0", error);
  if (wake_latency > 0 && idle_timeout < 0) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: wake-latency without idle-timeout, expected idle-timeout (seconds without "
                "traffic before the link switches off)", where);
    return FALSE;
  }
  t->power = (link_power){ idle, busy, off, idle_timeout < 0 ? -1 : idle_timeout, wake_latency };
  return TRUE;
}

gboolean platform_has_power(const platform *p)
{
  for (int i = 0; i < p->nlinktypes; i++) {
    const link_power *w = &p->linktypes[i].power;
    if (w->idle > 0 || w->busy > 0 || w->off > 0)
      return TRUE;
  }
  return FALSE;
}

gboolean platform_has_sleep(const platform *p)
{
  for (int i = 0; i < p->nlinktypes; i++)
    if (p->linktypes[i].power.idle_timeout >= 0)
      return TRUE;
  return FALSE;
}

void linktype_energy(const linktype *t, double span_s, double busy_s, double off_s,
                     link_energy *out)
{
  out->idle_j = t->power.idle * MAX(0.0, span_s - off_s);
  out->traffic_j = (t->power.busy - t->power.idle) * busy_s;
  out->off_j = t->power.off * off_s;
}
