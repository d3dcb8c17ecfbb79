/* otf2-pack.c - writes an OTF2 archive folder as one fuzzer input
 * (otf2-blob.h): `otf2-pack DIR OUT`. The anchor comes first, then the
 * global definitions, then the files of the archive's folder in name
 * order, all named as an archive "traces" (an EZTrace archive,
 * eztrace_log.otf2, is renamed so: OTF2 finds its files by the anchor's
 * name). */
#include <stdio.h>
#include <stdlib.h>

#include "otf2-blob.h"

static void put(FILE *out, const char *name, const char *path)
{
  char *data = NULL;
  gsize len = 0;
  if (!g_file_get_contents(path, &data, &len, NULL)) {
    fprintf(stderr, "otf2-pack: %s: cannot read\n", path);
    exit(1);
  }
  uint8_t n[4] = { (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24) };
  fwrite(name, 1, strlen(name) + 1, out);
  fwrite(n, 1, 4, out);
  fwrite(data, 1, len, out);
  g_free(data);
}

static gint cmp(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
  if (argc != 3) {
    fprintf(stderr, "usage: otf2-pack ARCHIVE-DIR OUT\n");
    return 2;
  }
  FILE *out = fopen(argv[2], "wb");
  if (!out)
    return 1;
  /* the archive's own stem (EZTrace writes eztrace_log.otf2), packed
   * under the names the harness reads: an anchor does not name itself */
  char *stem = g_strdup("traces");
  GDir *top = g_dir_open(argv[1], 0, NULL);
  for (const char *n; top && (n = g_dir_read_name(top));)
    if (g_str_has_suffix(n, ".otf2")) {
      g_free(stem);
      stem = g_strndup(n, strlen(n) - strlen(".otf2"));
      break;
    }
  if (top)
    g_dir_close(top);
  char *anchor_name = g_strconcat(stem, ".otf2", NULL), *defs_name = g_strconcat(stem, ".def", NULL);
  char *anchor = g_build_filename(argv[1], anchor_name, NULL);
  char *defs = g_build_filename(argv[1], defs_name, NULL);
  char *sub = g_build_filename(argv[1], stem, NULL);
  g_free(anchor_name);
  g_free(defs_name);
  g_free(stem);
  put(out, "traces.otf2", anchor);
  put(out, "traces.def", defs);
  GDir *d = g_dir_open(sub, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  const char *name;
  while (d && (name = g_dir_read_name(d)))
    g_ptr_array_add(names, g_strdup(name));
  if (d)
    g_dir_close(d);
  g_ptr_array_sort(names, cmp);
  for (guint i = 0; i < names->len; i++) {
    char *rel = g_build_filename("traces", (char *)names->pdata[i], NULL);
    char *path = g_build_filename(sub, (char *)names->pdata[i], NULL);
    put(out, rel, path);
    g_free(rel);
    g_free(path);
  }
  g_ptr_array_free(names, TRUE);
  g_free(anchor);
  g_free(defs);
  g_free(sub);
  return fclose(out) == 0 ? 0 : 1;
}
