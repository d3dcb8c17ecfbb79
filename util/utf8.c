/* utf8.c - invalid UTF-8 bytes shown as "\xHH" (see utf8.h). */
#include "util/utf8.h"

#include <string.h>

char *utf8_escape(const char *text)
{
  if (!text)
    return NULL;
  const char *end;
  if (g_utf8_validate(text, -1, &end))
    return g_strdup(text);
  GString *s = g_string_sized_new(strlen(text) + 16);
  for (const char *at = text; *at; at = end + 1) {
    gboolean valid = g_utf8_validate(at, -1, &end);
    g_string_append_len(s, at, end - at);
    if (valid)
      break;
    g_string_append_printf(s, "\\x%02X", (guchar)*end);
  }
  return g_string_free(s, FALSE);
}
