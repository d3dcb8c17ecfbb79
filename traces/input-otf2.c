/* input-otf2.c - the OTF2 reader's row (input.h): archives of Score-P,
 * EZTrace 2.x and mapsim's tracer and writer, given as the anchor file or
 * the folder holding it (otf2-read.c reads them, trace-source.c streams
 * them; EZTrace archives are read whole).
 *
 * The probe never reads more than a folder's first entries and an anchor's
 * first bytes: a study's glob probes every match. */
#include "traces/input-private.h"
#include "traces/trace-private.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

/* A folder's entries a probe looks at for its anchor: an archive's folder
 * holds the anchor, its definitions and the folder of its events. */
#define PROBE_DIR_ENTRIES 64

/* An anchor found by name: CONTENT when it has the signature. */
static input_probe anchor_probe(const char *anchor)
{
  GStatBuf st;
  if (g_stat(anchor, &st) != 0 || !S_ISREG(st.st_mode))
    return INPUT_PROBE_NAME; /* the reader says what is wrong with it */
  char head[8] = { 0 };
  FILE *f = fopen(anchor, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f)
    fclose(f);
  return otf2_magic(head, n) ? INPUT_PROBE_CONTENT : INPUT_PROBE_NAME;
}

/* A folder holding traces.otf2, or else *.otf2 files among its first
 * entries (one: as otf2_find_anchor takes it; several: it says which it
 * wants). */
static input_probe probe_dir(const char *dir)
{
  g_autofree char *traces = g_build_filename(dir, "traces.otf2", NULL);
  if (g_file_test(traces, G_FILE_TEST_EXISTS))
    return anchor_probe(traces);
  GDir *d = g_dir_open(dir, 0, NULL);
  if (!d)
    return INPUT_PROBE_NO;
  const char *name;
  g_autofree char *only = NULL;
  int found = 0;
  for (int seen = 0; seen < PROBE_DIR_ENTRIES && (name = g_dir_read_name(d)); seen++)
    if (g_str_has_suffix(name, ".otf2") && found++ == 0)
      only = g_build_filename(dir, name, NULL);
  g_dir_close(d);
  return found == 0 ? INPUT_PROBE_NO : found == 1 ? anchor_probe(only) : INPUT_PROBE_NAME;
}

static input_probe probe(const input_peek *pk)
{
  if (pk->is_dir)
    return probe_dir(pk->path);
  if (pk->is_file && otf2_magic(pk->head, pk->nhead))
    return g_str_has_suffix(pk->name, ".otf2") ? INPUT_PROBE_CONTENT : INPUT_PROBE_NAME;
  /* a *.otf2 that is not a regular file or has no signature: the reader
   * says which (a missing one is input.c's "no such file") */
  return g_str_has_suffix(pk->name, ".otf2") && (pk->is_file || g_file_test(pk->path, G_FILE_TEST_EXISTS))
             ? INPUT_PROBE_NAME : INPUT_PROBE_NO;
}

/* The archive is its whole folder. */
static char *root(const char *path)
{
  return g_file_test(path, G_FILE_TEST_IS_DIR) ? g_strdup(path) : g_path_get_dirname(path);
}

const input_reader input_reader_otf2 = {
  .name = "otf2",
  .what = "an OTF2 archive of Score-P, EZTrace or mapsim's tracer (a file named *.otf2, or the "
          "folder holding it)",
  .gives = INPUT_TRACE,
  .probe = probe,
  .read = trace_read_otf2,
  .scan = otf2_scan,
  .anchor = otf2_find_anchor,
  .root = root,
};
