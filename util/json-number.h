/* json-number.h - the one writer of numbers in JSON: every command,
 * study file and timeline writes its doubles through here.
 *
 * JSON has no infinity and no NaN (json-glib would print "inf.0" or
 * "nan.0", which no reader accepts), so a non-finite value is written as
 * null - "no such number": a bandwidth of 1e308 gives an infinite
 * bisection bandwidth, an energy with no power model is undefined. A
 * finite double is written as the shortest text that reads back as the
 * same double (7e-06, not 6.9999999999999999e-06). Readers of mapsim's
 * JSON take null where a number may be undefined.
 * Header and functions only, no state; nothing is owned past a call.
 * Not for: integers (json_builder_add_int_value is exact), other formats
 * (CSV leaves an undefined cell empty: sim/row.h).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Adds `v` as the builder's next value: a double, or null when non-finite. */
void json_number_add(JsonBuilder *b, double v);

/* Adds member `name` = `v` (json_number_add's rule). */
void json_number_member(JsonBuilder *b, const char *name, double v);

/* A node holding `v` (json_number_add's rule); caller owns it. */
JsonNode *json_number_node(double v);

/* Appends the shortest text that reads back as exactly `v`; "inf", "-inf"
 * or "nan" when `v` is not finite (for text formats other than JSON). */
void number_shortest_text(GString *s, double v);

/* Appends `v` as JSON text: number_shortest_text's for a finite `v`,
 * null otherwise (for writers that write JSON without json-glib). */
void json_number_text(GString *s, double v);

G_END_DECLS
