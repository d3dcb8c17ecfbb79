/* energy.h - what the links of a platform consume: the power model of a
 * link type and the energy of a link over a run.
 *
 * The model is SimGrid's link_energy plugin (src/plugins/link_energy.cpp,
 * SimGrid 3.32): a link that is on draws P = P_idle + (P_busy - P_idle) x
 * load, load = its throughput / its bandwidth, so over a run of length T
 * during which it carried bytes for a busy time B = sum of wire bytes /
 * bandwidth (models/model.h's link_busy_ps)
 *   E = P_idle x T + (P_busy - P_idle) x B.
 * mapsim adds what the HAEC Box's links are designed for: a link may switch
 * off after `idle_timeout` seconds without traffic, drawing P_off while off
 * (SimGrid's wattage_off), and a message that finds it off waits
 * `wake_latency` (the models see the later injection, models/model.h). With
 * O = its time off,
 *   E = P_off x O + P_idle x (T - O - B) + P_busy x B.
 * energy-per-bit e (J/bit) is another way to give P_busy: P_idle + 8 e x
 * bandwidth, e = the energy a bit costs above idle.
 *
 * The static estimate of a mapping (mapping/metrics.h, traffic_energy_j)
 * knows bytes but no time: the energy the traffic costs above idle, sum over
 * links of bytes x (P_busy - P_idle) / bandwidth - hop-bytes per link class
 * weighted by its joules per byte. The replay's busy part is the same sum
 * over the bytes it sent (plus envelopes and headers).
 *
 * Ownership: nothing is allocated; the platform owns its link types.
 * Not for: timing (models/), parsing the keys (platform-ini.c).
 */
#pragma once

#include "routing/platform.h"

G_BEGIN_DECLS

/* Checks and sets the power of link type `type` of p: `busy` < 0 means
 * not given (then P_idle + 8 x energy_per_bit x bandwidth, or P_idle);
 * energy_per_bit < 0 means not given; idle_timeout < 0 means never.
 * FALSE + PLATFORM_ERROR_INVALID prefixed with `where` for negative or
 * non-finite powers, both power-busy and energy-per-bit, power-busy below
 * power-idle, a wake latency without an idle timeout. */
gboolean platform_set_link_power(platform *p, int type, double idle, double busy,
                                 double energy_per_bit, double off, double idle_timeout,
                                 double wake_latency, const char *where, GError **error);

/* Does any link type draw power (a power key was given)? */
gboolean platform_has_power(const platform *p);

/* Does any link type switch off when idle? */
gboolean platform_has_sleep(const platform *p);

/* Joules a byte costs above idle on links of type t: (P_busy - P_idle) /
 * bandwidth. */
static inline double linktype_joules_per_byte(const linktype *t)
{
  return (t->power.busy - t->power.idle) / t->bandwidth;
}

/* The energy of one link over a run of span_s seconds, busy for busy_s and
 * switched off for off_s of them, split as SimGrid's formula splits it:
 * E = idle_j + traffic_j + off_j. */
typedef struct link_energy {
  double idle_j;     /* P_idle x the time on (T - O): what it draws without traffic */
  double traffic_j;  /* (P_busy - P_idle) x B: what its traffic adds */
  double off_j;      /* P_off x O */
} link_energy;

void linktype_energy(const linktype *t, double span_s, double busy_s, double off_s,
                     link_energy *out);

static inline double link_energy_total(const link_energy *e)
{
  return e->idle_j + e->traffic_j + e->off_j;
}

G_END_DECLS
