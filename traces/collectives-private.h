/* collectives-private.h - the schedules of traces/collectives.c below the
 * choice that users go through (coll_schedule_choice): one algorithm by
 * name, and which one "auto" picks. For the module and its tests
 * (tests/test_collectives.c); not for users of traces/.
 */
#pragma once

#include "traces/collectives.h"

G_BEGIN_DECLS

/* The algorithm "auto" resolves to for this op, size and contributions. */
const coll_algo *coll_algo_auto(coll_op op, int P, const int64_t *bytes);

/* Appends the messages of one call of `op` on P ranks (root in [0,P) for
 * rooted ops, ignored otherwise) to `out` (GArray of coll_msg), sorted by
 * round. `algo` NULL means "auto". Fails (COLL_ERROR_ALGO, nothing
 * appended) when the algorithm is unknown or does not implement the op,
 * or for COLL_OTHER. P == 1 appends nothing. */
gboolean coll_schedule(coll_op op, const char *algo, int P, int root, const int64_t *bytes,
                       GArray *out, GError **error);

G_END_DECLS
