/* hostlist.c - Slurm's hostlist expressions (hostlist.h). Costs: counting
 * linear in the text, expansion linear in the names produced (counted
 * first); compression linear in the names given.
 */
#include "routing/hostlist.h"

#include <string.h>

G_DEFINE_QUARK(hostlist-error-quark, hostlist_error)

static gboolean bad(GError **error, const char *text, const char *what)
{
  g_set_error(error, HOSTLIST_ERROR, 0,
              "hostlist '%s': %s, expected names like nid[001-032] or tux[0-3,12],login1", text,
              what);
  return FALSE;
}

/* One number of a range list: digits into *v and their count into *width. */
static gboolean number(const char *s, const char *end, gint64 *v, int *width)
{
  if (s == end || end - s > 18)
    return FALSE;
  *v = 0;
  for (const char *c = s; c < end; c++) {
    if (!g_ascii_isdigit(*c))
      return FALSE;
    *v = *v * 10 + (*c - '0');
  }
  *width = (int)(end - s);
  return TRUE;
}

/* Range `s` ("N" or "LO-HI") into lo, hi and the width of lo. */
static gboolean parse_range(const char *text, const char *s, gint64 *lo, gint64 *hi, int *width,
                            GError **error)
{
  const char *dash = strchr(s, '-'), *end = s + strlen(s);
  int hi_width;
  if (!number(s, dash ? dash : end, lo, width) ||
      !number(dash ? dash + 1 : end, end, hi, &hi_width)) {
    if (!dash && number(s, end, lo, width))
      *hi = *lo;
    else
      return bad(error, text, "a range that is not N or LO-HI in digits");
  }
  if (*hi < *lo)
    return bad(error, text, "a range whose end is below its start");
  return TRUE;
}

/* The names of range list "1-3,12" (`len` bytes at `list`): their number
 * into *count and the widest number's digits into *digits; after every
 * prefix in `heads` into `next` unless `heads` is NULL (counting only). */
static gboolean expand_ranges(const char *text, const char *list, gsize len, gint64 *count,
                              int *digits, GPtrArray *heads, GPtrArray *next, GError **error)
{
  if (len == 0)
    return bad(error, text, "an empty bracket");
  g_autofree char *copy = g_strndup(list, len);
  g_auto(GStrv) ranges = g_strsplit(copy, ",", -1);
  *count = 0;
  *digits = 0;
  for (int r = 0; ranges[r]; r++) {
    gint64 lo, hi;
    int width;
    if (!parse_range(text, ranges[r], &lo, &hi, &width, error))
      return FALSE;
    char wide[24];
    *digits = MAX(*digits, MAX(width, g_snprintf(wide, sizeof wide, "%" G_GINT64_FORMAT, hi)));
    /* 18 digits at most: no overflow below 2^63 */
    *count += hi - lo + 1;
    if (*count > HOSTLIST_MAX_NAMES)
      return bad(error, text, "more names than the limit");
  }
  for (int h = 0; heads && h < (int)heads->len; h++)
    for (int r = 0; ranges[r]; r++) {
      gint64 lo, hi;
      int width;
      parse_range(text, ranges[r], &lo, &hi, &width, NULL);
      for (gint64 k = lo; k <= hi; k++)
        g_ptr_array_add(next, g_strdup_printf("%s%0*" G_GINT64_FORMAT,
                                              (char *)heads->pdata[h], width, k));
    }
  return TRUE;
}

/* Appends `len` bytes of `s` to every head. */
static void append_all(GPtrArray *heads, const char *s, gsize len)
{
  for (int h = 0; heads && h < (int)heads->len; h++) {
    char *longer = g_strdup_printf("%s%.*s", (char *)heads->pdata[h], (int)len, s);
    g_free(heads->pdata[h]);
    heads->pdata[h] = longer;
  }
}

/* One expression: text and bracketed range lists, nothing after the last.
 * Its names' number into *count and the longest one's length into
 * *longest; the names into `out` unless it is NULL (counting only). */
static gboolean expand_one(const char *text, const char *s, gsize len, gint64 *count,
                           gsize *longest, GPtrArray *out, GError **error)
{
  GPtrArray *heads = NULL;
  if (out) {
    heads = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(heads, g_strdup(""));
  }
  gboolean ok = TRUE, bracket = FALSE;
  gsize i = 0;
  *count = 1;
  *longest = 0;
  while (ok && i < len) {
    const char *open = memchr(s + i, '[', len - i);
    if (!open) {
      ok = !bracket || bad(error, text, "text after the last bracket");
      append_all(heads, s + i, len - i);
      *longest += len - i;
      break;
    }
    append_all(heads, s + i, (gsize)(open - (s + i)));
    *longest += (gsize)(open - (s + i));
    const char *close = memchr(open, ']', len - (gsize)(open - s));
    if (!close || memchr(open + 1, '[', (gsize)(close - open - 1))) {
      ok = bad(error, text, "a '[' without its ']'");
      break;
    }
    gint64 n;
    int digits;
    GPtrArray *next = out ? g_ptr_array_new_with_free_func(g_free) : NULL;
    ok = expand_ranges(text, open + 1, (gsize)(close - open - 1), &n, &digits, NULL, NULL,
                     error);
    /* several brackets multiply: checked before any name is made */
    if (ok && (*count *= n) > HOSTLIST_MAX_NAMES)
      ok = bad(error, text, "more names than the limit");
    if (ok && out)
      expand_ranges(text, open + 1, (gsize)(close - open - 1), &n, &digits, heads, next, NULL);
    *longest += (gsize)digits;
    if (heads)
      g_ptr_array_unref(heads);
    heads = next;
    bracket = TRUE;
    i = (gsize)(close - s) + 1;
  }
  for (int h = 0; ok && out && h < (int)heads->len; h++)
    g_ptr_array_add(out, g_strdup(heads->pdata[h]));
  if (heads)
    g_ptr_array_unref(heads);
  return ok;
}

/* Counts (out NULL) or expands `text`, expression by expression. */
static gboolean walk(const char *text, gint64 *count, gsize *longest, GPtrArray *out,
                     GError **error)
{
  for (const char *c = text; *c; c++)
    if (g_ascii_isspace(*c) || !g_ascii_isprint(*c))
      return bad(error, text, "a blank or an invisible character");
  int depth = 0;
  const char *start = text;
  *count = 0;
  *longest = 0;
  for (const char *c = text;; c++) {
    if (*c == '[')
      depth++;
    else if (*c == ']' && --depth < 0)
      return bad(error, text, "a ']' without its '['");
    if (*c == '\0' || (*c == ',' && depth == 0)) {
      gint64 n = 0;
      gsize len = 0;
      if (c > start && !expand_one(text, start, (gsize)(c - start), &n, &len, out, error))
        return FALSE;
      *count += n;
      *longest = MAX(*longest, len);
      if (*count > HOSTLIST_MAX_NAMES)
        return bad(error, text, "more names than the limit");
      if (*c == '\0')
        break;
      start = c + 1;
    }
  }
  if (depth != 0)
    return bad(error, text, "a '[' without its ']'");
  return TRUE;
}

gboolean hostlist_count(const char *text, gint64 *count, gsize *longest, GError **error)
{
  return walk(text, count, longest, NULL, error);
}

gboolean hostlist_expand(const char *text, GPtrArray *out, GError **error)
{
  gint64 n;
  gsize longest;
  /* counted first, so a limit is met before a name is made */
  return walk(text, &n, &longest, NULL, error) && walk(text, &n, &longest, out, error);
}

/* Splits a name into prefix length and trailing number (-1: none). */
static gint64 trailing_number(const char *name, int *prefix, int *digits)
{
  int n = (int)strlen(name), k = n;
  while (k > 0 && g_ascii_isdigit(name[k - 1]) && n - k < 18)
    k--;
  *prefix = k;
  *digits = n - k;
  return k < n ? g_ascii_strtoll(name + k, NULL, 10) : -1;
}

/* TRUE when `name` (prefix length plen) is `v` written `width` wide. */
static gboolean written_as(const char *name, int plen, gint64 v, int width)
{
  char buf[24];
  g_snprintf(buf, sizeof buf, "%0*" G_GINT64_FORMAT, width, v);
  return strcmp(name + plen, buf) == 0;
}

char *hostlist_compress(const char *const *names, int n)
{
  GString *s = g_string_new(NULL);
  int i = 0;
  while (i < n) {
    int plen, digits;
    gint64 lo = trailing_number(names[i], &plen, &digits);
    if (s->len)
      g_string_append_c(s, ',');
    if (lo < 0) {
      g_string_append(s, names[i++]);
      continue;
    }
    /* the names that follow with this prefix share one bracket */
    GString *ranges = g_string_new(NULL);
    int first = i, ranges_n = 0;
    while (i < n) {
      int p2, d2;
      gint64 v = trailing_number(names[i], &p2, &d2);
      if (v < 0 || p2 != plen || strncmp(names[i], names[first], (gsize)plen))
        break;
      gint64 start = v, hi = v;
      int width = d2;
      i++;
      while (i < n) {
        gint64 w = trailing_number(names[i], &p2, &d2);
        if (w != hi + 1 || p2 != plen || strncmp(names[i], names[first], (gsize)plen) ||
            !written_as(names[i], plen, w, width))
          break;
        hi = w;
        i++;
      }
      g_string_append_printf(ranges, "%s%0*" G_GINT64_FORMAT, ranges_n++ ? "," : "", width,
                             start);
      if (hi > start)
        g_string_append_printf(ranges, "-%0*" G_GINT64_FORMAT, width, hi);
    }
    if (i - first == 1)
      g_string_append(s, names[first]);
    else
      g_string_append_printf(s, "%.*s[%s]", plen, names[first], ranges->str);
    g_string_free(ranges, TRUE);
  }
  return g_string_free(s, FALSE);
}
