/* dumpi-bin.c - reading one sst-dumpi .bin file (dumpi-private.h): its
 * index, header, counter labels, datatype sizes, and its records one at a
 * time, every field stepped over by the call's layout (dumpi-calls.c), each
 * count checked against the bytes left before anything is read or kept.
 * Learnt from sst-dumpi's dumpi/common/io.c and iodefs.h.
 */
#include "traces/dumpi-private.h"
#include "traces/trace.h"
#include "util/budget.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <string.h>

#define DUMPI_MAGIC UINT64_C(0xffaadd44554d5049)
enum {
  MASK_STATUS = 3, MASK_CPU = 1 << 2, MASK_WALL = 1 << 3, MASK_THREAD = 1 << 6,
  MASK_PERF = 1 << 7,
};



gboolean bin_fail(dumpi_bin *b, GError **error, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: record at byte %" G_GINT64_FORMAT
              ": %s", b->path, b->at, what);
  return FALSE;
}

/* n bytes (at most 8) as a big-endian number, within [pos, lim). */
static gboolean get(dumpi_bin *b, int n, int64_t lim, uint64_t *out, GError **error)
{
  uint8_t x[8];
  *out = 0;
  if (b->pos + n > lim || fread(x, 1, (size_t)n, b->f) != (size_t)n)
    return bin_fail(b, error, "ends inside a field, expected a complete DUMPI record");
  b->pos += n;
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v = v << 8 | x[i];
  *out = v;
  return TRUE;
}

static gboolean seek_to(dumpi_bin *b, int64_t off, GError **error)
{
  if (off < 0 || off > b->size || fseeko(b->f, off, SEEK_SET) != 0)
    return bin_fail(b, error, "an offset %" G_GINT64_FORMAT " outside the file of %" G_GINT64_FORMAT
                    " bytes, expected a DUMPI index", off, b->size);
  b->pos = off;
  return TRUE;
}

/* A count of elements of `elt` bytes that the rest of the record can hold. */
static gboolean get_count(dumpi_bin *b, int elt, int64_t *n, GError **error)
{
  uint64_t v;
  if (!get(b, 4, b->footer, &v, error))
    return FALSE;
  *n = (int32_t)v;
  if (*n < 0 || *n * (int64_t)MAX(elt, 1) > b->footer - b->pos)
    return bin_fail(b, error, "an array of %" G_GINT64_FORMAT " elements, expected one the "
                    "file's %" G_GINT64_FORMAT " remaining bytes hold", *n, b->footer - b->pos);
  return TRUE;
}

void bin_close(dumpi_bin *b)
{
  if (b->f)
    fclose(b->f);
  if (b->dtsize)
    g_array_free(b->dtsize, TRUE);
  if (b->values)
    g_array_free(b->values, TRUE);
  memset(b, 0, sizeof *b);
}

/* The index, header, counter labels, datatype sizes and body start. */
gboolean bin_open(dumpi_bin *b, const char *path, GError **error)
{
  memset(b, 0, sizeof *b);
  b->path = path;
  b->f = g_fopen(path, "rb");
  if (!b->f) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: %s, expected a DUMPI .bin file of the "
                "trace", path, g_strerror(errno));
    return FALSE;
  }
  b->dtsize = g_array_new(FALSE, FALSE, sizeof(int64_t));
  b->values = g_array_new(FALSE, FALSE, sizeof(int64_t));
  if (fseeko(b->f, 0, SEEK_END) != 0 || (b->size = ftello(b->f)) < 72)
    return bin_fail(b, error, "a file of %" G_GINT64_FORMAT " bytes, expected a DUMPI .bin file",
                    b->size);
  uint64_t magic, idx[8];
  b->footer = b->size;
  if (!seek_to(b, 0, error) || !get(b, 8, 8, &magic, error) || magic != DUMPI_MAGIC)
    return error && *error ? FALSE : bin_fail(b, error, "no DUMPI magic, expected a DUMPI .bin file");
  if (!seek_to(b, b->size - 64, error))
    return FALSE;
  for (int i = 0; i < 8; i++)
    if (!get(b, 8, b->size, &idx[i], error))
      return FALSE;
  if (idx[0] != DUMPI_MAGIC)
    return bin_fail(b, error, "an index without datatype sizes, expected a file of sst-dumpi "
                    "0.6.6 or later");
  for (int i = 1; i < 8; i++)
    if (idx[i] >= (uint64_t)b->size - 64)
      return bin_fail(b, error, "index entry %d is %" G_GUINT64_FORMAT ", expected an offset "
                      "inside the file", i, idx[i]);
  b->body = (int64_t)idx[5];
  b->footer = (int64_t)idx[6];
  if (b->footer < b->body)
    return bin_fail(b, error, "the footer before the body, expected a DUMPI index");
  uint64_t v;
  /* header: three version bytes */
  int64_t lim = b->size - 64;
  if (idx[4] > 0) {
    b->version = 0;
    if (!seek_to(b, (int64_t)idx[4], error))
      return FALSE;
    for (int i = 0; i < 3; i++) {
      if (!get(b, 1, lim, &v, error))
        return FALSE;
      b->version = b->version << 8 | (uint32_t)v;
    }
  }
  /* counter labels: their count is the number of counters of a record */
  if (idx[3] > 0) {
    if (!seek_to(b, (int64_t)idx[3], error) || !get(b, 4, lim, &v, error))
      return FALSE;
    if (v > 255)
      return bin_fail(b, error, "%" G_GUINT64_FORMAT " counters, expected at most 255", v);
    b->nperf = (int)v;
  }
  if (!seek_to(b, (int64_t)idx[1], error) || !get(b, 4, lim, &v, error))
    return FALSE;
  if (v > (uint64_t)(lim - b->pos) / 4)
    return bin_fail(b, error, "%" G_GUINT64_FORMAT " datatype sizes, expected what the file "
                    "holds", v);
  for (uint64_t i = 0; i < v; i++) {
    uint64_t s;
    if (!get(b, 4, lim, &s, error))
      return FALSE;
    int64_t bytes = (int32_t)s < 0 ? 0 : (int32_t)s;
    g_array_append_val(b->dtsize, bytes);
  }
  if (!seek_to(b, b->body, error) || !get(b, 4, b->footer, &v, error))
    return FALSE;
  b->cpu_off = (uint32_t)v;
  if (!get(b, 4, b->footer, &v, error))
    return FALSE;
  b->wall_off = (uint32_t)v;
  return TRUE;
}

/* The fields of `layout` into b->fields. */
static gboolean read_fields(dumpi_bin *b, const char *layout, GError **error)
{
  int cond_rank = -1, cond_root = -1;
  if (layout[0] == '?') {
    cond_rank = layout[1] - '0';
    cond_root = layout[2] - '0';
    layout += 3;
  }
  gboolean skipping = FALSE;
  b->nfields = 0;
  g_array_set_size(b->values, 0);
  uint64_t v;
  int64_t n;
  for (const char *c = layout; *c; c++) {
    if (*c == '[') {
      skipping = cond_rank < 0 || b->fields[cond_rank].v != b->fields[cond_root].v;
      continue;
    }
    if (*c == ']') {
      skipping = FALSE;
      continue;
    }
    if (b->nfields >= DUMPI_MAX_FIELDS)
      return bin_fail(b, error, "more fields than mapsim keeps");
    dumpi_field *f = &b->fields[b->nfields++];
    *f = (dumpi_field){ .len = skipping ? -1 : 0 };
    if (skipping)
      continue;
    switch (*c) {
    case '1': case '2': case '4': case '8':
      if (!get(b, *c - '0', b->footer, &v, error))
        return FALSE;
      f->v = *c == '1' ? (int8_t)v : *c == '2' ? (int16_t)v : *c == '4' ? (int32_t)v : (int64_t)v;
      break;
    case 'A': case 'h': case 'b': {
      int elt = *c == 'A' ? 4 : *c == 'h' ? 2 : 1;
      if (!get_count(b, elt, &n, error) ||
          !budget_check_array("a DUMPI record's array", (uint64_t)n + b->values->len,
                              sizeof(int64_t), error))
        return FALSE;
      f->off = (int32_t)b->values->len;
      f->len = (int32_t)n;
      for (int64_t i = 0; i < n; i++) {
        if (!get(b, elt, b->footer, &v, error))
          return FALSE;
        int64_t x = elt == 4 ? (int32_t)v : elt == 2 ? (int16_t)v : (int8_t)v;
        g_array_append_val(b->values, x);
      }
      break;
    }
    case 'C': case 'D': case 'E': case 'B': {
      /* nested counts: strings, lists of strings, of lists; int arrays */
      int depth = *c == 'C' ? 0 : *c == 'E' ? 2 : 1;
      int elt = *c == 'B' ? 4 : 1;
      int64_t outer = 1, mid = 1;
      if (depth >= 1 && !get_count(b, 4, &outer, error))
        return FALSE;
      for (int64_t i = 0; i < outer; i++) {
        if (depth == 2 && !get_count(b, 4, &mid, error))
          return FALSE;
        for (int64_t j = 0; j < mid; j++) {
          if (!get_count(b, elt, &n, error) || !seek_to(b, b->pos + n * elt, error))
            return FALSE;
        }
      }
      break;
    }
    case 'S':
      if (!(b->mask & MASK_STATUS))
        break;
      if (!get_count(b, 10, &n, error) ||
          !budget_check_array("a DUMPI record's statuses", 2 * (uint64_t)n + b->values->len,
                              sizeof(int64_t), error))
        return FALSE;
      f->v = n;
      f->off = (int32_t)b->values->len;
      f->len = (int32_t)n;
      for (int64_t i = 0; i < n; i++) {
        uint64_t bytes, source, rest, tag = (uint64_t)DUMPI_ANY;
        if (!get(b, 4, b->footer, &bytes, error) || !get(b, 4, b->footer, &source, error) ||
            !get(b, 2, b->footer, &rest, error) ||
            (b->version >= 0x000603 && !get(b, 4, b->footer, &tag, error)))
          return FALSE;
        int64_t st[2] = { (int32_t)source, (int32_t)tag };
        g_array_append_vals(b->values, st, 2);
      }
      break;
    default:
      g_assert_not_reached();
    }
  }
  return TRUE;
}

/* Clock `clock` (0 CPU, 1 wall) at the record's start (stop 0) or stop,
 * ns: seconds below 2^33, so it fits. */
int64_t bin_ns(const dumpi_bin *b, int clock, int stop)
{
  int i = clock * 2 + stop;
  return (int64_t)b->sec[i] * 1000000000 + b->nsec[i];
}

/* The next record: TRUE with *got FALSE at the footer. */
gboolean bin_next(dumpi_bin *b, gboolean *got, GError **error)
{
  *got = FALSE;
  b->at = b->pos;
  if (b->pos >= b->footer)
    return TRUE;
  uint64_t v;
  if (!get(b, 2, b->footer, &v, error))
    return FALSE;
  if (v == (uint64_t)dumpi_ncalls) { /* DUMPI_END_OF_STREAM: the header follows */
    b->pos = b->footer;
    return TRUE;
  }
  if (v >= (uint64_t)dumpi_ncalls || !dumpi_calls[v].layout)
    return bin_fail(b, error, "function label %" G_GUINT64_FORMAT ", expected one of the %d calls "
                    "sst-dumpi writes", v, dumpi_ncalls);
  b->label = (int)v;
  if (!get(b, 1, b->footer, &v, error))
    return FALSE;
  b->mask = (uint8_t)v;
  if ((b->mask & MASK_THREAD) && !get(b, 2, b->footer, &v, error))
    return FALSE;
  b->has_cpu = (b->mask & MASK_CPU) != 0;
  b->has_wall = (b->mask & MASK_WALL) != 0;
  for (int clock = 0; clock < 2; clock++) {
    if (!(clock ? b->has_wall : b->has_cpu))
      continue;
    for (int k = 0; k < 2; k++) {
      uint64_t s, ns;
      if (!get(b, 2, b->footer, &s, error) || !get(b, 4, b->footer, &ns, error))
        return FALSE;
      if (ns >= 1000000000)
        return bin_fail(b, error, "%" G_GUINT64_FORMAT " nanoseconds, expected fewer than 1e9", ns);
      b->sec[clock * 2 + k] = (uint64_t)s + (clock ? b->wall_off : b->cpu_off);
      b->nsec[clock * 2 + k] = (uint32_t)ns;
    }
  }
  if (b->mask & MASK_PERF) {
    if (!get(b, 1, b->footer, &v, error) || !seek_to(b, b->pos + 16 * (int64_t)b->nperf, error))
      return FALSE;
  }
  const dumpi_call *c = &dumpi_calls[b->label];
  const char *layout = c->old_layout && b->version < c->before ? c->old_layout : c->layout;
  if (!read_fields(b, layout, error))
    return FALSE;
  *got = TRUE;
  return TRUE;
}

