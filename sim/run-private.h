/* run-private.h - what sim/run.c shows its tests besides the public
 * run.h: the routes-taken check of an adaptive run on its own, so that a
 * test can give it results it built by hand. Not for users of sim/.
 */
#pragma once

#include "sim/run.h"

G_BEGIN_DECLS

/* The check of an adaptive run (see run.h) on res->pre, res->post and
 * res->r->routes_taken: sets res->check, mismatch, mismatch_static and
 * the bytes of the routes taken. */
void run_check_routes_taken(run_result *res, const platform *p, gboolean with_colls);

G_END_DECLS
