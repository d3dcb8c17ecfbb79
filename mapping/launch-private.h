/* launch-private.h - what mapping/launch.c shows its tests besides the
 * public launch.h: one node's host name (the launcher files are written
 * from them). Not for users of mapping/.
 */
#pragma once

#include "mapping/launch.h"

G_BEGIN_DECLS

/* The name of node `node` (borrowed from h). */
const char *host_names_get(const host_names *h, int node);

G_END_DECLS
