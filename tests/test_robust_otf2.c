/* test_robust_otf2.c - damaged and hostile OTF2 archives: each damage
 * (a mutated anchor, group and mapping arrays longer than their records,
 * definitions across chunks and byte orders, timestamps out of order or
 * beyond int64 picoseconds, a reader libotf2 leaves stuck) ends in one
 * line naming the file and what was expected, never in a crash, a hang or
 * a huge allocation. */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "robusttest.h"
#include "traces/trace-private.h"

/* Offset of the anchor's property count: after its fixed 46 bytes and
 * three strings. */
static size_t anchor_properties_offset(const char *archive)
{
  char *path = g_build_filename(archive, "traces.otf2", NULL);
  char *data = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(path, &data, &len, NULL));
  size_t at = 46;
  for (int s = 0; s < 3; s++)
    at += strlen(data + at) + 1;
  g_free(data);
  g_free(path);
  return at;
}

/* OTF2 archives damaged where libotf2 trusts them, each refused with the
 * file named before libotf2 reads it (once a 34 GB allocation, loops, or
 * errors naming no file). */
Test(robust_otf2, damaged_otf2_archives)
{
  char *dir = tu_tmp_dir();
  char *ring = tu_src("traces/data/ring-8");
  char *a = copy_archive(ring, dir, "props");
  const uint8_t big32[4] = { 0, 0, 0, 0x80 }; /* 2^31 properties: calloc(2^32, 8) */
  patch(a, "traces.otf2", anchor_properties_offset(a), big32, 4);
  EXPECT(2, "traces.otf2: more properties than the file has bytes for", "trace", "info", a);
  g_free(a);
  a = copy_archive(ring, dir, "chunk");
  const uint8_t huge[8] = { 0, 0, 0, 0, 0, 1, 0, 0 }; /* 2^40-byte event chunks */
  patch(a, "traces.otf2", 12, huge, 8);
  EXPECT(2, "traces.otf2: chunk sizes outside OTF2's 256 KiB to 16 MiB", "trace", "info", a);
  g_free(a);
  a = copy_archive(ring, dir, "locations");
  patch(a, "traces.otf2", 30, huge, 8);
  EXPECT(2, "locations and 42 definitions, more than", "trace", "info", a);
  g_free(a);
  a = copy_archive(ring, dir, "nodefs");
  char *defs = g_build_filename(a, "traces.def", NULL);
  cr_assert(g_file_set_contents(defs, "", 0, NULL));
  EXPECT(2, "traces.def: empty, expected the archive's global definitions", "trace", "info", a);
  g_unlink(defs);
  EXPECT(2, "traces.def: No such file or directory", "trace", "info", a);
  g_free(defs);
  g_free(a);
  a = copy_archive(ring, dir, "fifo");
  char *anchor = g_build_filename(a, "traces.otf2", NULL);
  g_unlink(anchor);
  cr_assert_eq(mkfifo(anchor, 0600), 0);
  EXPECT(2, "traces.otf2: not a regular file, expected an OTF2 archive", "trace", "info", a);
  g_free(anchor);
  g_free(a);
  a = copy_archive(ring, dir, "localdef");
  char *local = g_build_filename(a, "traces", "3.def", NULL);
  cr_assert(g_file_set_contents(local, "", 0, NULL));
  EXPECT(2, "3.def: empty, expected the location's local definitions", "trace", "info", a);
  g_free(local);
  g_free(a);
  a = copy_archive(ring, dir, "short");
  char *evt = g_build_filename(a, "traces", "5.evt", NULL);
  cr_assert_eq(truncate(evt, 10), 0);
  EXPECT(2, "5.evt: 20 events announced in 10 bytes", "trace", "info", a);
  g_free(evt);
  g_free(a);
  g_free(ring);
  tu_rm_rf(dir);
  g_free(dir);
}

/* A global definition file of `nchunks` chunks of `chunk` bytes in the
 * byte order `big`; the last holds one group record of 10 bytes that
 * announces 2^31 - 1 members (its length in the 9-byte form when `big`). */
static void write_defs_with_group(const char *archive, size_t chunk, int nchunks, gboolean big)
{
  GByteArray *d = g_byte_array_new();
  const uint8_t end_of_chunk = 0, end_of_file = 2;
  for (int k = 0; k < nchunks; k++) {
    uint8_t header[18] = { 3, big ? 0x23 : 0x42 };
    g_byte_array_append(d, header, sizeof header);
    if (k + 1 < nchunks) {
      g_byte_array_append(d, &end_of_chunk, 1);
      g_byte_array_set_size(d, (guint)(chunk * (size_t)(k + 1)));
      memset(d->data + d->len - (chunk - 19), 0, chunk - 19);
      continue;
    }
    const uint8_t short_len[] = { 18, 10 };
    const uint8_t long_len[] = { 18, 0xff, 0, 0, 0, 0, 0, 0, 0, 10 };
    if (big)
      g_byte_array_append(d, long_len, sizeof long_len);
    else
      g_byte_array_append(d, short_len, sizeof short_len);
    /* self 5, name 0, type 0, member count 0x7fffffff in the file's order */
    const uint8_t fields_le[] = { 1, 5, 1, 0, 0, 4, 0xff, 0xff, 0xff, 0x7f };
    const uint8_t fields_be[] = { 1, 5, 1, 0, 0, 4, 0x7f, 0xff, 0xff, 0xff };
    g_byte_array_append(d, big ? fields_be : fields_le, 10);
    g_byte_array_append(d, &end_of_file, 1);
  }
  char *path = g_build_filename(archive, "traces.def", NULL);
  cr_assert(g_file_set_contents(path, (const char *)d->data, d->len, NULL));
  g_free(path);
  g_byte_array_unref(d);
}

/* The definition walk of a file of several chunks and of a big-endian
 * file: a valid archive whose global definitions span two chunks is read,
 * and a group announcing more members than its record holds is found in
 * the second chunk and in a big-endian file (a walk out of step with the
 * chunks or the byte order misses it, or refuses the valid archive). */
Test(robust_otf2, definitions_across_chunks_and_byte_orders)
{
  char *dir = tu_tmp_dir();
  char *big = g_build_filename(dir, "ring-8192", NULL);
  EXPECT(0, NULL, "gen", "--pattern", "ring", "-n", "8192", "-i", "1", "-o", big);
  char *defs = g_build_filename(big, "traces.def", NULL);
  GStatBuf st;
  cr_assert_eq(g_stat(defs, &st), 0);
  const size_t chunk = 256 * 1024; /* what gen writes */
  cr_assert_gt((size_t)st.st_size, chunk, "%s: %zu bytes, one chunk: the test needs two", defs,
               (size_t)st.st_size);
  char *out = NULL;
  const char *info[] = { "trace", "info", big, NULL };
  cr_assert_eq(tu_run(&out, NULL, info), 0);
  cr_assert_not_null(strstr(out, "ranks           8192 (8192 locations)"), "%s", out);
  g_free(out);

  char *ring = tu_src("traces/data/ring-8");
  char *a = copy_archive(ring, dir, "second-chunk");
  write_defs_with_group(a, chunk, 2, FALSE);
  EXPECT(2, "traces.def: 2147483647 group members announced in a record of 10 bytes at byte "
            "262162, expected an intact OTF2 definition file", "trace", "info", a);
  g_free(a);
  a = copy_archive(ring, dir, "big-endian");
  write_defs_with_group(a, chunk, 2, TRUE);
  EXPECT(2, "traces.def: 2147483647 group members announced in a record of 10 bytes at byte "
            "262162,", "trace", "info", a);
  g_free(a);
  g_free(ring);
  g_free(defs);
  g_free(big);
  tu_rm_rf(dir);
  g_free(dir);
}

/* A timestamp the run's clock cannot have (a flipped high bit: beyond 106
 * days) is refused by the reader (once negative seconds, exit 0); the
 * writer refuses times that go back instead of dropping the record. */
Test(robust_otf2, corrupted_otf2_timestamps)
{
  char *dir = tu_tmp_dir();
  const int64_t times[][2] = { { 1000, -1 }, { 5000, 4000 } };
  for (int k = 0; k < 2; k++) {
    trace *t = trace_new(2);
    uint32_t region = trace_add_region(t, "MPI_Barrier");
    for (int r = 0; r < 2; r++) {
      trace_event in = { .time = times[k][0], .kind = TRACE_ENTER, .region = region };
      trace_event out = { .time = times[k][1], .kind = TRACE_LEAVE, .region = region };
      trace_push(t, r, &in);
      trace_push(t, r, &out);
    }
    char *name = g_strdup_printf("t%d", k);
    char *path = g_build_filename(dir, name, NULL);
    GError *e = NULL;
    gboolean written = trace_write_otf2(t, path, NULL, &e);
    if (k == 0) {
      cr_assert(written, "%s", e ? e->message : "?");
      const char *expect = "timestamp 18446744073709551615 beyond 106 days at ps resolution "
                           "from the trace start";
      EXPECT(2, expect, "trace", "info", path);
      EXPECT(2, expect, "simulate", "-p", "torus:2x1x1", "-t", path);
    } else {
      cr_assert(!written);
      cr_assert(strstr(e->message, "rank 0, record 1: OTF2 refused it"), "%s", e->message);
      cr_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
      assert_clean(dir, NULL);
      g_error_free(e);
    }
    trace_free(t);
    g_free(path);
    g_free(name);
  }
  tu_rm_rf(dir);
  g_free(dir);
}

/* A sink that blocks like a read stuck inside libotf2: the first record
 * does not come back until the test releases it (at most 60 s). */
static gint stuck_records;
static GMutex stuck_lock;
static GCond stuck_cond;
static gboolean stuck_released, stuck_returned;
static gboolean stuck_defs(void *user, trace *defs, GError **error)
{
  return TRUE;
}
static void stuck_begin(void *user, int worker, int rank, uint64_t nevents)
{
}
static void stuck_record(void *user, int worker, int rank, const trace_event *e)
{
  if (g_atomic_int_add(&stuck_records, 1) != 0)
    return;
  gint64 until = g_get_monotonic_time() + 60 * G_TIME_SPAN_SECOND;
  g_mutex_lock(&stuck_lock);
  while (!stuck_released && g_cond_wait_until(&stuck_cond, &stuck_lock, until))
    ;
  stuck_returned = TRUE;
  g_cond_broadcast(&stuck_cond);
  g_mutex_unlock(&stuck_lock);
}
static void stuck_end(void *user, int worker, int rank)
{
}

/* The reader's watchdog: no record for longer than the stall limit ends
 * the read with an error naming the archive (the stuck thread is left to
 * itself), instead of waiting for ever - here, for the record the test
 * holds back until the read has returned. */
Test(robust_otf2, otf2_watchdog, .timeout = 120)
{
  char *ring = tu_src("traces/data/ring-8");
  trace_sink sink = { stuck_defs, stuck_begin, stuck_record, stuck_end, NULL, 0.5 };
  GError *e = NULL;
  trace *t = otf2_scan(ring, &sink, 1, &e);
  g_mutex_lock(&stuck_lock);
  gboolean returned_first = stuck_returned;
  stuck_released = TRUE;
  g_cond_broadcast(&stuck_cond);
  /* the blocked record returns before the process ends */
  gint64 until = g_get_monotonic_time() + 60 * G_TIME_SPAN_SECOND;
  while (!stuck_returned && g_cond_wait_until(&stuck_cond, &stuck_lock, until))
    ;
  g_mutex_unlock(&stuck_lock);
  cr_assert_not(returned_first, "the read waited for the stuck record");
  cr_assert_null(t);
  cr_assert_not_null(e);
  cr_assert(strstr(e->message, "traces.otf2: no record read for 0.5 s (the OTF2 library is "
                               "stuck"), "%s", e->message);
  g_error_free(e);
  g_free(ring);
}
