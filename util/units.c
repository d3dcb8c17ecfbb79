/* units.c - numbers with units (see units.h). One table of units; a value
 * is lexed into its digits, its exponent and its unit, and the decimal
 * prefix joins the exponent before g_ascii_strtod reads the digits, so the
 * result is the correctly rounded decimal value. */
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK(units-error-quark, units_error)

typedef struct unit_row {
  const char *text;
  units_quantity q;  /* UNITS_NUMBER: a bare multiplier, any quantity */
  int pow10;         /* decimal prefix */
  int pow2;          /* binary prefix; -3 for bits */
} unit_row;

static const unit_row units[] = {
  { "k", UNITS_NUMBER, 3, 0 }, { "M", UNITS_NUMBER, 6, 0 }, { "G", UNITS_NUMBER, 9, 0 },
  { "T", UNITS_NUMBER, 12, 0 }, { "P", UNITS_NUMBER, 15, 0 },
  { "Ki", UNITS_NUMBER, 0, 10 }, { "Mi", UNITS_NUMBER, 0, 20 }, { "Gi", UNITS_NUMBER, 0, 30 },
  { "Ti", UNITS_NUMBER, 0, 40 },

  { "B/s", UNITS_BANDWIDTH, 0, 0 }, { "kB/s", UNITS_BANDWIDTH, 3, 0 },
  { "MB/s", UNITS_BANDWIDTH, 6, 0 }, { "GB/s", UNITS_BANDWIDTH, 9, 0 },
  { "TB/s", UNITS_BANDWIDTH, 12, 0 }, { "PB/s", UNITS_BANDWIDTH, 15, 0 },
  { "KiB/s", UNITS_BANDWIDTH, 0, 10 }, { "MiB/s", UNITS_BANDWIDTH, 0, 20 },
  { "GiB/s", UNITS_BANDWIDTH, 0, 30 }, { "TiB/s", UNITS_BANDWIDTH, 0, 40 },
  { "bit/s", UNITS_BANDWIDTH, 0, -3 }, { "kbit/s", UNITS_BANDWIDTH, 3, -3 },
  { "Mbit/s", UNITS_BANDWIDTH, 6, -3 }, { "Gbit/s", UNITS_BANDWIDTH, 9, -3 },
  { "Tbit/s", UNITS_BANDWIDTH, 12, -3 },
  { "b/s", UNITS_BANDWIDTH, 0, -3 }, { "kb/s", UNITS_BANDWIDTH, 3, -3 },
  { "Mb/s", UNITS_BANDWIDTH, 6, -3 }, { "Gb/s", UNITS_BANDWIDTH, 9, -3 },
  { "Tb/s", UNITS_BANDWIDTH, 12, -3 },
  { "bps", UNITS_BANDWIDTH, 0, -3 }, { "kbps", UNITS_BANDWIDTH, 3, -3 },
  { "Mbps", UNITS_BANDWIDTH, 6, -3 }, { "Gbps", UNITS_BANDWIDTH, 9, -3 },
  { "Tbps", UNITS_BANDWIDTH, 12, -3 },

  { "s", UNITS_TIME, 0, 0 }, { "ms", UNITS_TIME, -3, 0 }, { "us", UNITS_TIME, -6, 0 },
  { "µs", UNITS_TIME, -6, 0 }, { "ns", UNITS_TIME, -9, 0 }, { "ps", UNITS_TIME, -12, 0 },

  { "B", UNITS_SIZE, 0, 0 }, { "kB", UNITS_SIZE, 3, 0 }, { "MB", UNITS_SIZE, 6, 0 },
  { "GB", UNITS_SIZE, 9, 0 }, { "TB", UNITS_SIZE, 12, 0 }, { "PB", UNITS_SIZE, 15, 0 },
  { "KiB", UNITS_SIZE, 0, 10 }, { "MiB", UNITS_SIZE, 0, 20 }, { "GiB", UNITS_SIZE, 0, 30 },
  { "TiB", UNITS_SIZE, 0, 40 },
};

static const char *const quantity_names[] = { "a number", "a bandwidth", "a time", "a size" };

/* What a value of quantity q looks like, for messages: "a bandwidth in
 * bytes/s such as 12.5e9, 12.5GB/s or 100Gbit/s". */
static const char *units_expected(units_quantity q)
{
  switch (q) {
  case UNITS_BANDWIDTH:
    return "a bandwidth in bytes/s such as 12.5e9, 12.5GB/s or 100Gbit/s";
  case UNITS_TIME:
    return "a time in seconds such as 10e-12, 10ps, 1.5us or 2ms";
  case UNITS_SIZE:
    return "a size in bytes such as 65536, 64KiB or 1.5kB";
  case UNITS_NUMBER:
  default:
    return "a number such as 4, 2.5e3 or 12k";
  }
}

const char *units_name(units_quantity q)
{
  return q == UNITS_BANDWIDTH ? "bytes/s" : q == UNITS_TIME ? "s" : q == UNITS_SIZE ? "bytes" : "";
}

char *units_help(void)
{
  static const char *const heads[] = { "multipliers", "bandwidth", "time", "size" };
  GString *s = g_string_new(NULL);
  for (int q = UNITS_BANDWIDTH; q <= UNITS_SIZE + 1; q++) {
    int quantity = q > UNITS_SIZE ? UNITS_NUMBER : q; /* the multipliers last */
    gsize start = s->len;
    g_string_append_printf(s, "  %-11s", heads[quantity]);
    for (size_t i = 0; i < G_N_ELEMENTS(units); i++) {
      /* µs is us for a terminal whose locale is C */
      if ((int)units[i].q != quantity || !g_str_is_ascii(units[i].text))
        continue;
      if (s->len - start > 84) {
        g_string_append_printf(s, "\n  %-11s", "");
        start = s->len - 13;
      }
      g_string_append_printf(s, " %s", units[i].text);
    }
    g_string_append_c(s, '\n');
  }
  g_string_append(s, "  (k M G T P: 10^3 ... 10^15, Ki Mi Gi Ti: 2^10 ... 2^40; alone they scale "
                     "bytes/s, s or bytes)\n");
  return g_string_free(s, FALSE);
}

/* The number at the start of `text`: its digits (sign, integer part,
 * fraction) into `digits`, its exponent into *exp; returns the text after
 * it, or NULL when there is no number there. */
static const char *lex_number(const char *text, GString *digits, long *exp)
{
  const char *p = text;
  g_string_truncate(digits, 0);
  if (*p == '+' || *p == '-')
    g_string_append_c(digits, *p++);
  int nd = 0;
  for (; g_ascii_isdigit(*p); p++, nd++)
    g_string_append_c(digits, *p);
  if (*p == '.') {
    g_string_append_c(digits, *p++);
    for (; g_ascii_isdigit(*p); p++, nd++)
      g_string_append_c(digits, *p);
  }
  if (nd == 0)
    return NULL;
  *exp = 0;
  if ((*p == 'e' || *p == 'E') &&
      (g_ascii_isdigit(p[1]) || ((p[1] == '+' || p[1] == '-') && g_ascii_isdigit(p[2])))) {
    const char *q = p + 1;
    int sign = *q == '-' ? -1 : 1;
    q += *q == '+' || *q == '-';
    long e = 0;
    for (; g_ascii_isdigit(*q); q++)
      e = MIN(e * 10 + (*q - '0'), 100000); /* beyond any double: stays out of range */
    *exp = sign * e;
    p = q;
  }
  return p;
}

gboolean units_split(const char *text, double *number, const char **unit_text)
{
  while (g_ascii_isspace(*text))
    text++;
  GString *digits = g_string_new(NULL);
  long exp = 0;
  const char *rest = lex_number(text, digits, &exp);
  if (rest) {
    g_autofree char *num = g_strdup_printf("%se%ld", digits->str, exp);
    *number = g_ascii_strtod(num, NULL);
    while (g_ascii_isspace(*rest))
      rest++;
    *unit_text = rest;
  }
  g_string_free(digits, TRUE);
  return rest != NULL;
}

static const unit_row *find_unit(const char *text, gsize len)
{
  for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
    if (strlen(units[i].text) == len && strncmp(units[i].text, text, len) == 0)
      return &units[i];
  return NULL;
}

static gboolean fail(GError **error, const char *text, units_quantity q, const char *why)
{
  g_set_error(error, UNITS_ERROR, UNITS_ERROR_PARSE, "'%s'%s, expected %s", text, why,
              units_expected(q));
  return FALSE;
}

gboolean units_parse(const char *text, units_quantity q, double *out, GError **error)
{
  g_autofree char *t = g_strstrip(g_strdup(text ? text : ""));
  GString *digits = g_string_new(NULL);
  long exp = 0;
  const char *rest = lex_number(t, digits, &exp);
  gboolean ok = FALSE;
  if (!rest) {
    fail(error, t, q, "");
    goto out;
  }
  while (g_ascii_isspace(*rest))
    rest++;
  const unit_row *u = NULL;
  gsize len = strlen(rest);
  while (len > 0 && g_ascii_isspace(rest[len - 1]))
    len--;
  if (len > 0) {
    u = find_unit(rest, len);
    if (!u && rest[0] == 'K' && rest[1] != 'i') {
      fail(error, t, q, ": a capital K means 1000 to some and 1024 to others (k or Ki)");
      goto out;
    }
    if (!u) {
      fail(error, t, q, ": unknown unit");
      goto out;
    }
    if (u->q != UNITS_NUMBER && u->q != q) {
      g_autofree char *why = g_strdup_printf(" is %s", quantity_names[u->q]);
      fail(error, t, q, why);
      goto out;
    }
  }
  char *num = g_strdup_printf("%se%ld", digits->str, exp + (u ? u->pow10 : 0));
  errno = 0;
  double v = g_ascii_strtod(num, NULL);
  g_free(num);
  gboolean range = errno == ERANGE || !isfinite(v);
  if (u && u->pow2)
    v = ldexp(v, u->pow2);
  if (range || !isfinite(v)) {
    fail(error, t, q, ": out of range");
    goto out;
  }
  *out = v;
  ok = TRUE;
out:
  g_string_free(digits, TRUE);
  return ok;
}
