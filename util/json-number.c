/* json-number.c - doubles in JSON: null unless finite (json-number.h). */
#include <math.h>

#include "util/json-number.h"

void json_number_add(JsonBuilder *b, double v)
{
  if (isfinite(v))
    json_builder_add_double_value(b, v);
  else
    json_builder_add_null_value(b);
}

void json_number_member(JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name(b, name);
  json_number_add(b, v);
}

JsonNode *json_number_node(double v)
{
  if (!isfinite(v))
    return json_node_init_null(json_node_alloc());
  return json_node_init_double(json_node_alloc(), v);
}

void number_shortest_text(GString *s, double v)
{
  /* %.15g is exact for every decimal of up to 15 digits (DBL_DIG) and
   * drops trailing zeros, so the first precision that reads back is the
   * shortest: 7e-06, not 6.9999999999999999e-06 */
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (int digits = 15; digits <= 17; digits++) {
    g_snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (digits == 17 || !isfinite(v) || g_ascii_strtod(buf, NULL) == v)
      break;
  }
  g_string_append(s, buf);
}

void json_number_text(GString *s, double v)
{
  if (isfinite(v))
    number_shortest_text(s, v);
  else
    g_string_append(s, "null");
}
