/* budget.c - the memory budget and bounded text inputs (see budget.h). */
#include "util/budget.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(budget-error-quark, budget_error)

/* What Windows editors put before UTF-8 text: not part of the content. */
#define UTF8_BOM "\xEF\xBB\xBF"

/* The process's budget: one fact of the process (its memory), not of a
 * call, so it is not passed through every loader. Atomic, so that a
 * budget set while threads read it (or the default computed by two of
 * them at once) is never a torn or racing read. */
static uint64_t budget; /* 0: not set yet, the default applies */

static uint64_t budget_memory_default(void)
{
  static uint64_t def;
  uint64_t known = __atomic_load_n(&def, __ATOMIC_ACQUIRE);
  if (known)
    return known;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  uint64_t m = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_C(1) << 32;
  char *text = NULL;
  if (g_file_get_contents("/sys/fs/cgroup/memory.max", &text, NULL, NULL)) {
    guint64 v;
    if (g_ascii_string_to_unsigned(g_strstrip(text), 10, 1, G_MAXUINT64, &v, NULL))
      m = MIN(m, v);
    g_free(text);
  }
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    m = MIN(m, (uint64_t)rl.rlim_cur);
  known = MAX(m / 4 * 3, UINT64_C(1) << 20);
  __atomic_store_n(&def, known, __ATOMIC_RELEASE);
  return known;
}

uint64_t budget_memory(void)
{
  uint64_t b = __atomic_load_n(&budget, __ATOMIC_ACQUIRE);
  return b ? b : budget_memory_default();
}

void budget_set_memory(uint64_t bytes)
{
  __atomic_store_n(&budget, bytes, __ATOMIC_RELEASE);
}

gboolean budget_parse_size(const char *text, uint64_t *out)
{
  char *end = NULL;
  errno = 0;
  if (!text || !g_ascii_isdigit(*text))
    return FALSE;
  double v = g_ascii_strtod(text, &end);
  if (errno || end == text)
    return FALSE;
  double unit = 1;
  const char *units = "KMGT";
  const char *u = *end ? strchr(units, g_ascii_toupper(*end)) : NULL;
  if (u) {
    for (const char *k = units; k <= u; k++)
      unit *= 1024;
    end++;
    if (*end == 'i' || *end == 'I')
      end++;
  }
  if (*end == 'B' || *end == 'b')
    end++;
  double bytes = v * unit;
  if (*end || !(bytes >= 1) || bytes >= 1.8e19)
    return FALSE;
  *out = (uint64_t)bytes;
  return TRUE;
}

/* "7.5 GiB" (g_format_size puts a no-break space before the unit, which
 * a one-line message for terminals and logs does not need). */
static char *size_text(uint64_t bytes)
{
  static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    u++;
  }
  return u ? g_strdup_printf("%.1f %s", v, units[u])
           : g_strdup_printf("%" G_GUINT64_FORMAT " bytes", bytes);
}

gboolean budget_check_memory(const char *what, uint64_t bytes, GError **error)
{
  uint64_t have = budget_memory();
  if (bytes <= have)
    return TRUE;
  char *need = size_text(bytes), *b = size_text(have);
  g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_MEMORY,
              "%s: needs about %s, more than the memory budget of %s (--max-memory)", what,
              need, b);
  g_free(need);
  g_free(b);
  return FALSE;
}

gboolean budget_check_array(const char *what, uint64_t elements, uint64_t size, GError **error)
{
  uint64_t bytes;
  if (__builtin_mul_overflow(elements, size, &bytes))
    bytes = UINT64_MAX;
  return budget_check_memory(what, bytes, error);
}

static gboolean too_big(const char *path, const char *what, uint64_t max, GError **error)
{
  char *m = size_text(max), *b = size_text(budget_memory());
  g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_MEMORY,
              "%s: more than %s, expected %s of at most a quarter of the memory budget %s "
              "(--max-memory)", path, m, what, b);
  g_free(m);
  g_free(b);
  return FALSE;
}

gboolean budget_check_nesting(const char *path, const char *text, int max, const char *what,
                              GError **error)
{
  int depth = 0, line = 1;
  gboolean in_str = FALSE;
  for (const char *c = text; *c; c++) {
    if (*c == '\n')
      line++;
    if (in_str) {
      if (*c == '\\' && c[1])
        c++;
      else if (*c == '"')
        in_str = FALSE;
    } else if (*c == '"') {
      in_str = TRUE;
    } else if ((*c == '[' || *c == '{') && ++depth > max) {
      g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_COUNT,
                  "%s:%d: nested more than %d levels deep, expected %s", path, line, max, what);
      return FALSE;
    } else if (*c == ']' || *c == '}') {
      depth--;
    }
  }
  return TRUE;
}

gboolean budget_read_text(const char *path, const char *what, char **text, gsize *len,
                          GError **error)
{
  uint64_t max = budget_memory() / 4;
  int fd = g_open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY, 0);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int err = errno;
    if (fd >= 0)
      close(fd);
    g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_READ, "%s: %s, expected %s", path,
                g_strerror(err), what);
    return FALSE;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_READ, "%s: is a directory, expected %s",
                path, what);
    return FALSE;
  }
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
    close(fd);
    return too_big(path, what, max, error);
  }
  GString *s = g_string_sized_new(S_ISREG(st.st_mode) ? (gsize)st.st_size + 1 : 65536);
  gboolean ok = TRUE;
  for (;;) {
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_READ, "%s: %s, expected %s", path,
                  g_strerror(errno), what);
      ok = FALSE;
      break;
    }
    if (n == 0)
      break;
    if (memchr(buf, '\0', (size_t)n)) {
      g_set_error(error, BUDGET_ERROR, BUDGET_ERROR_BINARY, "%s: binary data (a NUL byte "
                  "at byte %" G_GSIZE_FORMAT "), expected %s", path, s->len + 1 +
                  (gsize)((const char *)memchr(buf, '\0', (size_t)n) - buf), what);
      ok = FALSE;
      break;
    }
    if (s->len + (uint64_t)n > max) {
      ok = too_big(path, what, max, error);
      break;
    }
    g_string_append_len(s, buf, n);
  }
  close(fd);
  if (!ok) {
    g_string_free(s, TRUE);
    return FALSE;
  }
  if (g_str_has_prefix(s->str, UTF8_BOM))
    g_string_erase(s, 0, strlen(UTF8_BOM));
  if (len)
    *len = s->len;
  *text = g_string_free(s, FALSE);
  return TRUE;
}
