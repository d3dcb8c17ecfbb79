/* otf2-blob.h - an OTF2 archive as one input for the fuzzer: its files
 * one after another, each a NUL-terminated relative name, a 4-byte little
 * endian length and the bytes. otf2-pack writes the bundled archives this
 * way (the seed corpus); fuzz_otf2 unpacks whatever the fuzzer made of
 * them into a folder, keeping only safe names (letters, digits, ._-, one
 * level of folder, no ..) and stopping at the first malformed entry. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <string.h>

#define BLOB_MAX_FILES 512

static gboolean blob_name_ok(const char *name)
{
  if (!*name || *name == '/' || strstr(name, "..") || strlen(name) > 64)
    return FALSE;
  int slashes = 0;
  for (const char *c = name; *c; c++) {
    if (*c == '/')
      slashes++;
    else if (!g_ascii_isalnum(*c) && !strchr("._-", *c))
      return FALSE;
  }
  return slashes <= 1 && name[strlen(name) - 1] != '/';
}

/* Writes the files of `data` below `dir` (which exists); returns how many. */
G_GNUC_UNUSED static int blob_unpack(const uint8_t *data, size_t size, const char *dir)
{
  size_t pos = 0;
  int n = 0;
  while (pos < size && n < BLOB_MAX_FILES) {
    const uint8_t *nul = memchr(data + pos, 0, size - pos);
    if (!nul || (size_t)(nul - data) + 5 > size)
      break;
    const char *name = (const char *)data + pos;
    pos = (size_t)(nul - data) + 1;
    uint32_t len = (uint32_t)data[pos] | (uint32_t)data[pos + 1] << 8 |
                   (uint32_t)data[pos + 2] << 16 | (uint32_t)data[pos + 3] << 24;
    pos += 4;
    if (len > size - pos)
      len = (uint32_t)(size - pos);
    if (blob_name_ok(name)) {
      char *path = g_build_filename(dir, name, NULL);
      char *parent = g_path_get_dirname(path);
      g_mkdir_with_parents(parent, 0755);
      if (g_file_set_contents(path, (const char *)data + pos, len, NULL))
        n++;
      g_free(parent);
      g_free(path);
    }
    pos += len;
  }
  return n;
}
