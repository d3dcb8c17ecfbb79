/* enumname.h - an enum's values as the names users type: one table of
 * names indexed by value, read both ways (value -> name for printing,
 * name -> value for parsing), so that the two can never disagree.
 *
 *   static const char *const tie_names[] = { "positive", "simgrid" };
 *   enum_name(tie_names, G_N_ELEMENTS(tie_names), t)       -> "simgrid"
 *   enum_parse(tie_names, G_N_ELEMENTS(tie_names), s, &i)  -> TRUE, i = 1
 *
 * Ownership: the table is the caller's (static); names returned point
 * into it. Header-only, no state. Not for: enums whose values are not
 * 0 .. n-1, or names users may abbreviate (util/suggest.h proposes the
 * nearest name instead).
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* names[value], or `unknown` for a value outside the table. */
static inline const char *enum_name_or(const char *const *names, size_t n, int value,
                                       const char *unknown)
{
  return value >= 0 && (size_t)value < n && names[value] ? names[value] : unknown;
}

/* names[value], or "?" for a value outside the table. */
static inline const char *enum_name(const char *const *names, size_t n, int value)
{
  return enum_name_or(names, n, value, "?");
}

/* The value whose name is `name` (exact, or ignoring ASCII case), into
 * *value; FALSE (and *value untouched) when no entry has that name. */
static inline gboolean enum_parse_case(const char *const *names, size_t n, const char *name,
                                       gboolean ignore_case, int *value)
{
  for (size_t i = 0; name && i < n; i++)
    if (names[i] &&
        (ignore_case ? g_ascii_strcasecmp(name, names[i]) : strcmp(name, names[i])) == 0) {
      *value = (int)i;
      return TRUE;
    }
  return FALSE;
}

static inline gboolean enum_parse(const char *const *names, size_t n, const char *name,
                                  int *value)
{
  return enum_parse_case(names, n, name, FALSE, value);
}

G_END_DECLS
