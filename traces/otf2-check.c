/* otf2-check.c - what an OTF2 archive must look like before libotf2 reads
 * it (see trace-private.h).
 *
 * libotf2 trusts its files: a mutated anchor makes it calloc() 2 x (a
 * 32-bit property count) pointers (34 GB at 2^31) or chunk buffers of any
 * 64-bit size, a missing file surfaces as an error that names no file, and
 * a location whose definition promises more events than its file holds
 * makes the reader reserve for them. The anchor is small and its layout
 * fixed (OTF2_AnchorFile.c of OTF2 1.x-3.x: a buffer header, "OTF2", the
 * anchor format, trace format, version, event and definition chunk sizes
 * as 8-byte little-endian integers, substrate, compression, location and
 * definition counts, three strings, then from format 2 on a 32-bit property
 * count with two strings each, an 8-byte trace id, from format 3 on two
 * 32-bit counts), so it is decoded here in full and every count is checked
 * against the bytes that would have to hold it.
 *
 * The definition files (global and local) are walked record by record for
 * the two records whose arrays libotf2 allocates before reading them: a
 * group's members (a 32-bit count, 32 GB of pointers at 2^32 - 1) and a
 * local mapping table's entries (a 64-bit count). Every member and entry
 * takes at least one byte of its record, so a larger count is a damaged
 * file. Layout (OTF2_Buffer.c, OTF2_GlobalDefReader_inc.c, otf2_id_map.c
 * of OTF2 1.x-3.x): chunks of the anchor's definition chunk size, each a
 * header (3, the endianness byte 0x42 or 0x23, first and last record
 * number as 8-byte integers), records (a type byte, a length byte or 0xff
 * and an 8-byte length, the fields) and 0 (end of chunk) or 2 (end of
 * file); compressed integers are a byte count then as many bytes, 0xff
 * for all bits set. Where the framing itself is damaged the walk stops:
 * libotf2 stops there too, with its own error.
 *
 * The anchor itself is found here too (otf2_find_anchor): a file or a
 * directory's traces.otf2 or only *.otf2 file, with the OTF2 signature.
 */
#include "traces/otf2-read-private.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/budget.h"

#define ANCHOR_MAX (1 << 20) /* Score-P's anchors are a few hundred bytes */

typedef struct {
  const uint8_t *p, *end;
} cursor;

static gboolean take(cursor *c, size_t n, const uint8_t **at)
{
  if ((size_t)(c->end - c->p) < n)
    return FALSE;
  *at = c->p;
  c->p += n;
  return TRUE;
}

/* An 8-byte integer, little-endian unless `big`. */
static gboolean u64_order(cursor *c, gboolean big, uint64_t *v)
{
  const uint8_t *b;
  if (!take(c, 8, &b))
    return FALSE;
  *v = 0;
  for (int i = 0; i < 8; i++)
    *v = *v << 8 | b[big ? i : 7 - i];
  return TRUE;
}

/* The anchor's integers are little-endian. */
static gboolean u64(cursor *c, uint64_t *v)
{
  return u64_order(c, FALSE, v);
}

static gboolean u32(cursor *c, uint32_t *v)
{
  const uint8_t *b;
  if (!take(c, 4, &b))
    return FALSE;
  *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return TRUE;
}

static gboolean string(cursor *c)
{
  const uint8_t *nul = memchr(c->p, 0, (size_t)(c->end - c->p));
  if (!nul)
    return FALSE;
  c->p = nul + 1;
  return TRUE;
}

static gboolean bad(GError **error, const char *path, const char *what)
{
  g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: %s, expected an OTF2 anchor file",
              path, what);
  return FALSE;
}

/* A regular file of at most `max` bytes (0: no limit), not empty; its size
 * in *size. */
static gboolean check_file(const char *path, const char *expected, uint64_t max, uint64_t *size,
                           GError **error)
{
  GStatBuf st;
  if (g_stat(path, &st) != 0) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: %s, expected %s", path,
                g_strerror(errno), expected);
    return FALSE;
  }
  const char *wrong = S_ISDIR(st.st_mode) ? "a directory"
                      : !S_ISREG(st.st_mode) ? "not a regular file"
                      : st.st_size == 0 ? "empty"
                      : max && (uint64_t)st.st_size > max ? "too large" : NULL;
  if (wrong) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s: %s, expected %s", path, wrong,
                expected);
    return FALSE;
  }
  if (size)
    *size = (uint64_t)st.st_size;
  return TRUE;
}

/* OTF2's record types with an array sized before it is read (the group has
 * the same number in global and local definitions; 5 is a mapping table in
 * local and clock properties in global definitions). */
enum { DEF_MAPPING_TABLE = 5, DEF_GROUP = 18 };

/* A compressed integer (OTF2_Buffer_ReadUint64) of at most `max` bytes. */
static gboolean compressed(cursor *c, gboolean big, int max, uint64_t *v)
{
  const uint8_t *b;
  if (!take(c, 1, &b))
    return FALSE;
  if (*b == 0xff) {
    *v = UINT64_MAX;
    return TRUE;
  }
  int n = *b;
  if (n > max || !take(c, (size_t)n, &b))
    return FALSE;
  *v = 0;
  for (int i = 0; i < n; i++)
    *v |= (uint64_t)b[big ? n - 1 - i : i] << (8 * i);
  return TRUE;
}

/* The length of the array of record `type` and the bytes the record has
 * left for it (none when its count lies beyond its end); FALSE when the
 * record has no such array or the chunk ends before its count. libotf2
 * reads a record's fields from its start whatever length the record
 * announces, so `rec` runs from the record's first field to the chunk's end
 * and `rec_end` is where the record says it ends. */
static gboolean array_of(cursor rec, const uint8_t *rec_end, uint8_t type, gboolean local,
                         gboolean big, uint64_t *count, uint64_t *room, const char **what)
{
  const uint8_t *b;
  uint64_t v;
  if (type == DEF_GROUP) {
    /* self, name, type (OTF2 1.0), member count */
    if (!compressed(&rec, big, 4, &v) || !compressed(&rec, big, 4, &v) || !take(&rec, 1, &b) ||
        !compressed(&rec, big, 4, count))
      return FALSE;
    *count = MIN(*count, UINT32_MAX);
    *what = "group members";
  } else if (type == DEF_MAPPING_TABLE && local) {
    /* mapping type, entry count, dense (0) or sparse (1: pairs) */
    if (!take(&rec, 1, &b) || !compressed(&rec, big, 8, count) || !take(&rec, 1, &b))
      return FALSE;
    if (*b == 1)
      *count = *count > UINT64_MAX / 2 ? UINT64_MAX : 2 * *count;
    *what = "mapping table entries";
  } else {
    return FALSE;
  }
  *room = rec_end > rec.p ? (uint64_t)(rec_end - rec.p) : 0;
  return TRUE;
}

/* Walks the definition file `path` (global or local) for arrays longer
 * than their records (see the top of the file). */
static gboolean check_defs(const char *path, uint64_t chunk, gboolean local, GError **error)
{
  GMappedFile *m = g_mapped_file_new(path, FALSE, NULL);
  if (m == NULL)
    return TRUE; /* libotf2 says it cannot read it */
  const uint8_t *data = (const uint8_t *)g_mapped_file_get_contents(m);
  size_t size = g_mapped_file_get_length(m);
  gboolean ok = TRUE, done = FALSE;
  for (size_t start = 0; ok && !done && data && start < size; start += chunk) {
    cursor c = { data + start, data + MIN(size, start + chunk) };
    const uint8_t *b;
    if (!take(&c, 18, &b) || b[0] != 3 || (b[1] != 0x42 && b[1] != 0x23))
      break;
    gboolean big = b[1] == 0x23;
    for (;;) {
      const uint8_t *at;
      if (!take(&c, 1, &at) || *at == 2) {
        done = TRUE;
        break;
      }
      if (*at == 0)
        break; /* the next chunk */
      uint64_t len;
      if (!take(&c, 1, &b)) {
        done = TRUE;
        break;
      }
      len = *b;
      if (len == 0xff && !u64_order(&c, big, &len)) {
        done = TRUE;
        break;
      }
      if (len > (uint64_t)(c.end - c.p)) {
        done = TRUE;
        break;
      }
      cursor rec = { c.p, c.end };
      const uint8_t *rec_end = c.p + len;
      c.p += len;
      uint64_t count = 0, room = 0;
      const char *what = NULL;
      if (array_of(rec, rec_end, *at, local, big, &count, &room, &what) && count > room) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                    "%s: %" G_GUINT64_FORMAT " %s announced in a record of %" G_GUINT64_FORMAT
                    " bytes at byte %zu, expected an intact OTF2 definition file",
                    path, count, what, len, (size_t)(at - data));
        ok = FALSE;
        break;
      }
    }
  }
  g_mapped_file_unref(m);
  return ok;
}

gboolean otf2_check_anchor(const char *anchor, uint64_t *def_chunk_size, GError **error)
{
  if (!check_file(anchor, "an OTF2 anchor file", ANCHOR_MAX, NULL, error))
    return FALSE;
  char *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents(anchor, &text, &len, NULL))
    return bad(error, anchor, "unreadable");
  cursor c = { (const uint8_t *)text, (const uint8_t *)text + len };
  static const uint8_t magic[7] = { 3, 'B', 'O', 'T', 'F', '2', 0 };
  const uint8_t *b;
  uint64_t ev_chunk = 0, def_chunk = 0, nloc = 0, ndefs = 0;
  uint32_t nprops = 0, n;
  const char *wrong = NULL;
  if (!take(&c, 7, &b) || memcmp(b, magic, 7) != 0)
    wrong = "no OTF2 signature";
  else if (!take(&c, 5, &b) || b[0] == 0)
    wrong = "a truncated header";
  uint8_t format = wrong ? 0 : b[0];
  if (!wrong && (!u64(&c, &ev_chunk) || !u64(&c, &def_chunk)))
    wrong = "a truncated header";
  else if (!wrong && (ev_chunk < OTF2_CHUNK_SIZE_MIN || ev_chunk > OTF2_CHUNK_SIZE_MAX ||
                      def_chunk < OTF2_CHUNK_SIZE_MIN || def_chunk > OTF2_CHUNK_SIZE_MAX))
    wrong = "chunk sizes outside OTF2's 256 KiB to 16 MiB";
  else if (!wrong && (!take(&c, 2, &b) || b[0] != OTF2_SUBSTRATE_POSIX))
    wrong = "a file substrate other than POSIX files";
  else if (!wrong && b[1] != OTF2_COMPRESSION_NONE)
    wrong = "compressed files (mapsim reads uncompressed archives)";
  else if (!wrong && (!u64(&c, &nloc) || !u64(&c, &ndefs)))
    wrong = "a truncated header";
  else if (!wrong && (!string(&c) || !string(&c) || !string(&c)))
    wrong = "unterminated machine, creator or description";
  else if (!wrong && format > 1 && !u32(&c, &nprops))
    wrong = "a truncated property count";
  else if (!wrong && nprops > (uint64_t)(c.end - c.p) / 2)
    wrong = "more properties than the file has bytes for";
  for (uint32_t i = 0; !wrong && i < nprops; i++)
    if (!string(&c) || !string(&c))
      wrong = "an unterminated property";
  if (!wrong && format > 1 && !take(&c, 8, &b))
    wrong = "a truncated trace identifier";
  else if (!wrong && format > 2 && (!u32(&c, &n) || !u32(&c, &n)))
    wrong = "truncated snapshot and thumbnail counts";
  g_free(text);
  if (wrong)
    return bad(error, anchor, wrong);

  /* the global definitions: every location and definition counted in the
   * anchor is a record of at least two bytes there */
  char *base = g_strndup(anchor, strlen(anchor) - strlen(".otf2"));
  char *defs = g_strconcat(base, ".def", NULL);
  uint64_t size = 0;
  gboolean ok = check_file(defs, "the archive's global definitions", 0, &size, error);
  if (ok && (nloc > size / 2 || ndefs > size / 2)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: the anchor counts %" G_GUINT64_FORMAT " locations and %" G_GUINT64_FORMAT
                " definitions, more than the global definitions %s (%" G_GUINT64_FORMAT
                " bytes) can hold, expected an intact archive", anchor, nloc, ndefs, defs, size);
    ok = FALSE;
  }
  ok = ok && check_defs(defs, def_chunk, FALSE, error);
  g_free(defs);
  g_free(base);
  if (ok)
    *def_chunk_size = def_chunk;
  return ok;
}

gboolean otf2_check_location(const char *evt, const char *def, uint64_t nevents,
                             uint64_t def_chunk, GError **error)
{
  /* a local definition file is optional, but not an empty one */
  if (g_file_test(def, G_FILE_TEST_EXISTS) &&
      (!check_file(def, "the location's local definitions (or no file)", 0, NULL, error) ||
       !check_defs(def, def_chunk, TRUE, error)))
    return FALSE;
  if (nevents == 0)
    return TRUE; /* no events, no event file needed */
  uint64_t size = 0;
  if (!check_file(evt, "the event file the location's definition announces", 0, &size, error))
    return FALSE;
  /* an event record is a type byte and at least one byte of timestamp */
  if (nevents > size / 2) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: %" G_GUINT64_FORMAT " events announced in %" G_GUINT64_FORMAT
                " bytes, expected at least 2 bytes per event", evt, nevents, size);
    return FALSE;
  }
  return TRUE;
}


gboolean otf2_magic(const char *head, size_t n)
{
  static const char magic[7] = { 3, 'B', 'O', 'T', 'F', '2', 0 };
  return n >= sizeof magic && memcmp(head, magic, sizeof magic) == 0;
}

/* Checks the anchor's leading bytes before OTF2 sees the file:
 * OTF2_Reader_Open leaks on files that are not OTF2. */
static gboolean has_magic(const char *anchor)
{
  char head[7] = { 0 };
  FILE *f = fopen(anchor, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f)
    fclose(f);
  return otf2_magic(head, n);
}

/* The only *.otf2 file in `dir`, or NULL (none, or several). */
static char *only_anchor_in(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  char *found = NULL;
  int n = 0;
  while (d && (name = g_dir_read_name(d)))
    if (g_str_has_suffix(name, ".otf2") && n++ == 0)
      found = g_build_filename(dir, name, NULL);
  if (d)
    g_dir_close(d);
  if (n != 1)
    g_clear_pointer(&found, g_free);
  return found;
}

char *otf2_find_anchor(const char *path, GError **error)
{
  char *anchor = NULL;
  if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
    anchor = g_build_filename(path, "traces.otf2", NULL);
    char *only = g_file_test(anchor, G_FILE_TEST_EXISTS) ? NULL : only_anchor_in(path);
    if (only) {
      g_free(anchor);
      anchor = only;
    }
  } else {
    anchor = g_strdup(path);
  }
  if (!g_file_test(anchor, G_FILE_TEST_IS_REGULAR)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                "%s: %s, expected an OTF2 archive (anchor .otf2 file or its directory)", anchor,
                g_file_test(anchor, G_FILE_TEST_EXISTS) ? "not a regular file" : "no such file");
    g_clear_pointer(&anchor, g_free);
  } else if (!g_str_has_suffix(anchor, ".otf2")) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: not an OTF2 anchor file, expected a file named *.otf2", anchor);
    g_clear_pointer(&anchor, g_free);
  } else if (!has_magic(anchor)) {
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: no OTF2 signature, expected an OTF2 anchor file", anchor);
    g_clear_pointer(&anchor, g_free);
  }
  return anchor;
}

/* OTF2 reports errors through a callback; ours come as GErrors. */
OTF2_ErrorCode otf2_quiet(void *ud, const char *file, uint64_t line, const char *fn,
                          OTF2_ErrorCode code, const char *fmt, va_list va)
{
  return code;
}

char *otf2_location_path(const char *anchor, uint64_t loc, const char *ext)
{
  char *base = g_strndup(anchor, strlen(anchor) - strlen(".otf2"));
  char *p = g_strdup_printf("%s/%" G_GUINT64_FORMAT ".%s", base, loc, ext);
  g_free(base);
  return p;
}
