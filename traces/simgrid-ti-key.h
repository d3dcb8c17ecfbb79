/* simgrid-ti-key.h - how SMPI's time-independent traces name a request:
 * its two ends and its tag (`wait SRC DST TAG`). The writer
 * (simgrid-ti.c) and the reader (simgrid-ti-actions.c) key their open
 * requests by it, in GLib hash tables. Not for users of traces/.
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <string.h>

/* An SMPI request key: what `wait SRC DST TAG` names (the reader and the
 * writer, simgrid-ti.c, key their requests by it). */
typedef struct ti_key {
  int32_t src, dst;
  uint32_t tag;
} ti_key;

static inline guint ti_key_hash(gconstpointer p)
{
  const ti_key *k = p;
  return (guint)k->src * 2654435761u ^ ((guint)k->dst * 40503u + k->tag * 31u);
}

static inline gboolean ti_key_equal(gconstpointer a, gconstpointer b)
{
  return memcmp(a, b, sizeof(ti_key)) == 0;
}
