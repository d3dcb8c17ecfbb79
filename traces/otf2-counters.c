/* otf2-counters.c - counters next to the ranks in an OTF2 archive: one
 * metric location per counter in a location group "network" of the
 * machine's system tree node, and one metric class of a single member
 * (a double in the counters' unit, OTF2_METRIC_ABSOLUTE_NEXT: each value
 * holds until the next), recorded as Metric events. This is how Score-P
 * writes asynchronous metrics (a metric location beside the CPU threads),
 * and what Vampir and otf2-print show as counter timelines. The reader
 * (otf2-read.c) keeps the ranks' CPU threads only and skips these.
 */
#include "traces/trace-private.h"

/* The one metric class and its member. */
enum { COUNTER_MEMBER = 0, COUNTER_CLASS = 0 };

OTF2_ErrorCode otf2_counter_events(OTF2_EvtWriter *w, const trace_counter *c)
{
  OTF2_Type type = OTF2_TYPE_DOUBLE;
  OTF2_ErrorCode st = OTF2_SUCCESS;
  for (int64_t i = 0; i < c->n && st == OTF2_SUCCESS; i++) {
    OTF2_MetricValue v = { .floating_point = c->value[i] };
    st = OTF2_EvtWriter_Metric(w, NULL, (OTF2_TimeStamp)c->time[i], COUNTER_CLASS, 1, &type, &v);
  }
  return st;
}

void otf2_counter_defs(OTF2_GlobalDefWriter *gw, const trace_counter *c, int nc,
                       const char *what, uint32_t first_string, uint64_t first_location,
                       uint32_t group, const int64_t *nevents)
{
  uint32_t s = first_string;
  uint32_t s_what = s++, s_unit = s++, s_group = s++;
  OTF2_GlobalDefWriter_WriteString(gw, s_what, what ? what : "counter");
  OTF2_GlobalDefWriter_WriteString(gw, s_unit, nc ? c[0].unit : "");
  OTF2_GlobalDefWriter_WriteString(gw, s_group, "network");
  OTF2_GlobalDefWriter_WriteMetricMember(gw, COUNTER_MEMBER, s_what, s_what, OTF2_METRIC_TYPE_USER,
                                         OTF2_METRIC_ABSOLUTE_NEXT, OTF2_TYPE_DOUBLE,
                                         OTF2_BASE_DECIMAL, 0, s_unit);
  OTF2_MetricMemberRef member = COUNTER_MEMBER;
  OTF2_GlobalDefWriter_WriteMetricClass(gw, COUNTER_CLASS, 1, &member, OTF2_METRIC_ASYNCHRONOUS,
                                        OTF2_RECORDER_KIND_ABSTRACT);
  OTF2_GlobalDefWriter_WriteLocationGroup(gw, (OTF2_LocationGroupRef)group, s_group,
                                          OTF2_LOCATION_GROUP_TYPE_UNKNOWN, 0,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  for (int i = 0; i < nc; i++) {
    OTF2_GlobalDefWriter_WriteString(gw, s, c[i].name);
    OTF2_GlobalDefWriter_WriteLocation(gw, (OTF2_LocationRef)(first_location + (uint64_t)i), s++,
                                       OTF2_LOCATION_TYPE_METRIC, (uint64_t)nevents[i],
                                       (OTF2_LocationGroupRef)group);
  }
}
