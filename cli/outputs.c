/* outputs.c - a command's outputs checked against each other and against
 * its inputs before anything is written (cli.h: cli_outputs_check).
 *
 * Two outputs are the same when they name the same file after symbolic
 * links (an absent file: its folder's real path and its name); `-`,
 * /dev/stdout and /dev/fd/1 are all standard output, /dev/stderr and
 * /dev/fd/2 standard error. A device or a FIFO that is not one of those
 * (/dev/null) takes any number of outputs. An output is inside an input
 * when it is the input or lies below it (an input folder); an OTF2 anchor
 * X.otf2 stands for its archive: X.otf2, X.def and the folder X/.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

/* The name standard streams and descriptors go by, or NULL. */
static char *stream_key(const char *path)
{
  if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/fd/1") ||
      !strcmp(path, "/proc/self/fd/1"))
    return g_strdup("standard output");
  if (!strcmp(path, "/dev/stderr") || !strcmp(path, "/dev/fd/2") ||
      !strcmp(path, "/proc/self/fd/2"))
    return g_strdup("standard error");
  if (g_str_has_prefix(path, "/dev/fd/"))
    return g_strdup_printf("descriptor %s", path + strlen("/dev/fd/"));
  return NULL;
}

/* The real absolute path of `path`, which may not exist (nor its folder:
 * then the path made absolute and normalized). */
static char *real_path(const char *path)
{
  char *r = realpath(path, NULL);
  if (r) {
    char *copy = g_strdup(r);
    free(r);
    return copy;
  }
  g_autofree char *dir = g_path_get_dirname(path);
  g_autofree char *base = g_path_get_basename(path);
  char *d = realpath(dir, NULL);
  if (!d)
    return g_canonicalize_filename(path, NULL);
  char *joined = g_build_filename(d, base, NULL);
  free(d);
  return joined;
}

/* Does `inner` equal `outer` or lie below it? */
static gboolean within(const char *inner, const char *outer)
{
  size_t n = strlen(outer);
  return !strncmp(inner, outer, n) &&
         (inner[n] == '\0' || inner[n] == '/' || (n == 1 && outer[0] == '/'));
}

gboolean cli_outputs_check(const cli_path *outs, int nouts, const cli_path *ins, int nins,
                           GError **error)
{
  char **keys = g_new0(char *, (gsize)nouts + 1);
  gboolean ok = TRUE;
  for (int i = 0; i < nouts && ok; i++) {
    if (!outs[i].path)
      continue;
    struct stat st;
    keys[i] = stream_key(outs[i].path);
    if (!keys[i] && stat(outs[i].path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
      continue; /* /dev/null, a named pipe: nothing to keep apart */
    if (!keys[i])
      keys[i] = real_path(outs[i].path);
    for (int j = 0; j < i && ok; j++) {
      if (!keys[j] || strcmp(keys[i], keys[j]))
        continue;
      gboolean option = g_str_has_prefix(outs[j].what, "-");
      g_autofree char *other =
        option ? g_strdup_printf("%s %s", outs[j].what, outs[j].path) : g_strdup(outs[j].what);
      if (keys[i][0] == '/')
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s %s: the same file as %s, expected a path of its own", outs[i].what,
                    outs[i].path, other);
      else
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s %s: %s carries %s already, expected a path of its own", outs[i].what,
                    outs[i].path, keys[i], other);
      ok = FALSE;
    }
    for (int k = 0; k < nins && ok && keys[i][0] == '/'; k++) {
      if (!ins[k].path || !g_file_test(ins[k].path, G_FILE_TEST_EXISTS))
        continue;
      g_autofree char *in = real_path(ins[k].path);
      gboolean hit = within(keys[i], in);
      if (!hit && g_str_has_suffix(in, ".otf2")) { /* the archive of an anchor */
        g_autofree char *stem = g_strndup(in, strlen(in) - strlen(".otf2"));
        g_autofree char *def = g_strconcat(stem, ".def", NULL);
        hit = within(keys[i], stem) || !strcmp(keys[i], def);
      }
      if (hit) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "%s %s: inside the input %s %s, expected a path outside the inputs",
                    outs[i].what, outs[i].path, ins[k].what, ins[k].path);
        ok = FALSE;
      }
    }
  }
  for (int i = 0; i < nouts; i++)
    g_free(keys[i]);
  g_free(keys);
  return ok;
}
