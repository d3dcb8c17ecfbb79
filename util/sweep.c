/* sweep.c - brace sweeps (see sweep.h): each text is cut into literal
 * pieces and braces, each brace into its values, then every combination
 * is put back together. */
#include "util/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

G_DEFINE_QUARK(sweep-error-quark, sweep_error)

typedef struct brace {
  int text;
  gsize start, end;      /* of "{...}" in the text */
  char *key;
  GPtrArray *values;     /* char *; NULL when only counted */
  guint nvalues;
} brace;

static void brace_free(gpointer p)
{
  brace *b = p;
  g_free(b->key);
  if (b->values)
    g_ptr_array_unref(b->values);
  g_free(b);
}

static void combo_free(gpointer p)
{
  sweep_combo *c = p;
  for (int t = 0; t < c->ntexts; t++)
    g_free(c->texts[t]);
  g_free(c->texts);
  for (int i = 0; i < c->nchoices; i++) {
    g_free(c->choices[i].key);
    g_free(c->choices[i].value);
  }
  g_free(c->choices);
  g_free(c);
}

gboolean sweep_has(const char *text)
{
  return text && (strchr(text, '{') || strchr(text, '}'));
}

/* `v` to 15 significant digits, as people write it: an integer as one
 * (1000000, 6250000000: integer keys such as seeds read it), else plainly
 * between 1e-4 and 1e6 (0.3, 2.5), else in the fewest digits with a short
 * exponent (1e-8, 1.5e20). */
static char *number_text(double v)
{
  char want[G_ASCII_DTOSTR_BUF_SIZE], buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (v == floor(v) && fabs(v) < SWEEP_INTEGER_MAX)
    return g_strdup_printf("%.0f", v == 0 ? 0.0 : v); /* not -0 */
  g_ascii_formatd(want, sizeof want, "%.15g", v);
  if (v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e6))
    return g_strdup(want);
  double target = g_ascii_strtod(want, NULL);
  for (int d = 1; d <= 15; d++) {
    char fmt[8];
    g_snprintf(fmt, sizeof fmt, "%%.%de", d - 1);
    g_ascii_formatd(buf, sizeof buf, fmt, v);
    if (g_ascii_strtod(buf, NULL) == target)
      break;
  }
  GString *s = g_string_new(NULL);
  for (const char *p = buf; *p; p++) {
    g_string_append_c(s, *p);
    if (*p == 'e') {
      p += p[1] == '+';
      if (p[1] == '-')
        g_string_append_c(s, *++p);
      while (p[1] == '0' && p[2])
        p++;
    }
  }
  return g_string_free(s, FALSE);
}

static gboolean fail(GError **error, int code, const char *text, const char *what)
{
  g_set_error(error, SWEEP_ERROR, code, "'%s': %s", text, what);
  return FALSE;
}

#define RANGE_HELP "expected {A..B*F} (F > 1), {A..B+S} (S > 0) or {A..B} with numbers A <= B"

/* The values of a range "A..B[*F|+S]" into `out` (NULL: only counted),
 * their number into *n. */
static gboolean expand_range(const char *body, const char *dots, GPtrArray *out, guint *n,
                             GError **error)
{
  g_autofree char *left = g_strndup(body, (gsize)(dots - body));
  double a, b, step = 1;
  const char *ua, *ub;
  if (!units_split(left, &a, &ua) || !units_split(dots + 2, &b, &ub))
    return fail(error, SWEEP_ERROR_PARSE, body, RANGE_HELP);
  const char *op = strpbrk(ub, "*+");
  g_autofree char *unit = op ? g_strndup(ub, (gsize)(op - ub)) : g_strdup(ub);
  g_strstrip(unit);
  gboolean geometric = op && *op == '*';
  if (op) {
    const char *us;
    if (!units_split(op + 1, &step, &us) || (*us && strcmp(us, unit) != 0) ||
        (*us && geometric))
      return fail(error, SWEEP_ERROR_PARSE, body, RANGE_HELP);
  }
  g_autofree char *ua_clean = g_strstrip(g_strdup(ua));
  if (strcmp(ua_clean, unit) != 0)
    return fail(error, SWEEP_ERROR_PARSE, body,
                "the ends of a range carry different units, expected the same unit at both");
  if (!isfinite(a) || !isfinite(b) || !isfinite(step) || a > b || (geometric && !(step > 1)) ||
      (!geometric && !(step > 0)) || (geometric && !(a > 0)))
    return fail(error, SWEEP_ERROR_PARSE, body, RANGE_HELP " (and A > 0 for *F)");
  /* rounding may leave the end a little off; a range of large integers
   * ({4294967290..4294967295}) must not take a value past it */
  double limit = b + (geometric ? fabs(b) * 1e-9 : MIN(fabs(b) * 1e-9, step * 1e-3));
  for (int i = 0;; i++) {
    double v = geometric ? a * pow(step, i) : a + i * step;
    if (!(v <= limit))
      break;
    if (*n >= SWEEP_MAX)
      return fail(error, SWEEP_ERROR_TOO_MANY, body, "more than 4096 values, expected fewer");
    ++*n;
    if (out) {
      g_autofree char *num = number_text(v);
      g_ptr_array_add(out, g_strconcat(num, unit, NULL));
    }
  }
  return TRUE;
}

/* The key a brace at `at` follows: "KEY={". */
static char *brace_key(const char *text, gsize at)
{
  if (at == 0 || text[at - 1] != '=')
    return NULL;
  gsize end = at - 1, start = end;
  while (start > 0 && !strchr(":;,+? \t", text[start - 1]))
    start--;
  return start < end ? g_strndup(text + start, end - start) : NULL;
}

/* The braces of one text, appended to `out`; with `count_only` their
 * values are counted, not made. */
static gboolean find_braces(const char *text, int index, gboolean count_only, GPtrArray *out,
                            GError **error)
{
  for (const char *p = text; *p; p++) {
    if (*p == '}')
      return fail(error, SWEEP_ERROR_PARSE, text, "a '}' without its '{', expected {a,b} or "
                  "{A..B*F}");
    if (*p != '{')
      continue;
    const char *close = strpbrk(p + 1, "{}");
    if (!close || *close == '{')
      return fail(error, SWEEP_ERROR_PARSE, text, close ? "a brace inside a brace, expected "
                  "one level: {a,b}" : "a '{' without its '}', expected {a,b} or {A..B*F}");
    g_autofree char *body = g_strndup(p + 1, (gsize)(close - p - 1));
    brace *b = g_new0(brace, 1);
    *b = (brace){ index, (gsize)(p - text), (gsize)(close - text) + 1,
                  brace_key(text, (gsize)(p - text)),
                  count_only ? NULL : g_ptr_array_new_with_free_func(g_free), 0 };
    g_ptr_array_add(out, b);
    const char *dots = strstr(body, "..");
    if (dots) {
      if (!expand_range(body, dots, b->values, &b->nvalues, error))
        return FALSE;
    } else {
      g_auto(GStrv) items = g_strsplit(body, ",", -1);
      for (int i = 0; items[i]; i++) {
        char *v = g_strstrip(items[i]);
        if (!*v)
          return fail(error, SWEEP_ERROR_PARSE, text, "an empty value in a brace, expected "
                      "{a,b,c}");
        b->nvalues++;
        if (b->values)
          g_ptr_array_add(b->values, g_strdup(v));
      }
    }
    if (b->nvalues == 0)
      return fail(error, SWEEP_ERROR_PARSE, text, "a brace without values, expected {a,b}");
    p = close;
  }
  return TRUE;
}

/* The braces of texts[0..n-1] into `braces` and the number of their
 * combinations into *total; FALSE + error when malformed or more than
 * SWEEP_MAX. */
static gboolean read_braces(const char *const *texts, int n, gboolean count_only,
                            GPtrArray *braces, gsize *total, GError **error)
{
  *total = 1;
  for (int t = 0; t < n; t++)
    if (texts[t] && !find_braces(texts[t], t, count_only, braces, error))
      return FALSE;
  for (guint i = 0; i < braces->len; i++) {
    *total *= ((brace *)braces->pdata[i])->nvalues;
    if (*total > SWEEP_MAX) {
      g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_TOO_MANY,
                  "'%s': more than %d combinations, expected fewer", texts[0] ? texts[0] : "",
                  SWEEP_MAX);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean sweep_count(const char *const *texts, int n, int *count, GError **error)
{
  GPtrArray *braces = g_ptr_array_new_with_free_func(brace_free);
  gsize total;
  gboolean ok = read_braces(texts, n, TRUE, braces, &total, error);
  g_ptr_array_unref(braces);
  if (ok)
    *count = (int)total;
  return ok;
}

GPtrArray *sweep_product(const char *const *texts, int n, GError **error)
{
  GPtrArray *braces = g_ptr_array_new_with_free_func(brace_free);
  GPtrArray *out = NULL;
  gsize total;
  if (!read_braces(texts, n, FALSE, braces, &total, error))
    goto done;
  out = g_ptr_array_new_with_free_func(combo_free);
  for (gsize k = 0; k < total; k++) {
    sweep_combo *c = g_new0(sweep_combo, 1);
    c->texts = g_new0(char *, n + 1);
    c->ntexts = n;
    c->nchoices = (int)braces->len;
    c->choices = g_new0(sweep_choice, MAX(c->nchoices, 1));
    /* mixed radix, the first brace slowest */
    gsize rest = k;
    for (int i = c->nchoices - 1; i >= 0; i--) {
      const brace *b = braces->pdata[i];
      c->choices[i] = (sweep_choice){ g_strdup(b->key),
                                      g_strdup(b->values->pdata[rest % b->values->len]),
                                      b->text };
      rest /= b->values->len;
    }
    for (int t = 0; t < n; t++) {
      if (!texts[t])
        continue;
      GString *s = g_string_new(NULL);
      gsize at = 0;
      for (int i = 0; i < c->nchoices; i++) {
        const brace *b = braces->pdata[i];
        if (b->text != t)
          continue;
        g_string_append_len(s, texts[t] + at, (gssize)(b->start - at));
        g_string_append(s, c->choices[i].value);
        at = b->end;
      }
      g_string_append(s, texts[t] + at);
      c->texts[t] = g_string_free(s, FALSE);
    }
    g_ptr_array_add(out, c);
  }
done:
  g_ptr_array_unref(braces);
  return out;
}
