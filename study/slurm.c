/* slurm.c - a study as a Slurm job array: the study file with
 * absolute paths and a batch script whose array tasks each run one slice.
 * The results come back together with `mapsim study --merge DIR`
 * (study_collect + study_write_results). */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "study/study-private.h"
#include "util/output.h"

static char *absolute(const study *s, const char *path)
{
  g_autofree char *p = g_path_is_absolute(path) ? g_strdup(path)
                                                : g_build_filename(s->base_dir, path, NULL);
  return g_canonicalize_filename(p, NULL);
}

/* A path key made absolute; `if_file`: only when it names an existing
 * file or looks like a path (a platform spec may be a shorthand; a path
 * with a sweep or a glob names no file yet). */
static void fix_value(const study *s, GKeyFile *kf, const char *group, const char *key,
                      gboolean if_file)
{
  g_autofree char *v = g_key_file_get_value(kf, group, key, NULL);
  if (!v || !*g_strstrip(v))
    return;
  g_autofree char *abs = absolute(s, v);
  if (if_file && !g_file_test(abs, G_FILE_TEST_IS_REGULAR) && !study_spec_is_path(v))
    return;
  g_key_file_set_value(kf, group, key, abs);
}

/* The same for a list; an item naming a labelled group ("PREFIX ITEM")
 * stays as it is. */
static void fix_list(const study *s, GKeyFile *kf, const char *key, const char *prefix,
                     gboolean if_file)
{
  g_autofree char *v = g_key_file_get_value(kf, "study", key, NULL);
  if (!v)
    return;
  g_auto(GStrv) items = g_strsplit(v, ";", -1);
  GString *out = g_string_new(NULL);
  for (int i = 0; items[i]; i++) {
    char *item = g_strstrip(items[i]);
    if (!*item)
      continue;
    g_autofree char *abs = absolute(s, item);
    g_autofree char *group = g_strconcat(prefix, item, NULL);
    gboolean use = (!if_file || g_file_test(abs, G_FILE_TEST_IS_REGULAR) ||
                    study_spec_is_path(item)) &&
                   !(g_key_file_has_group(kf, group) && !strchr(item, '/'));
    g_string_append_printf(out, "%s%s", out->len ? "; " : "", use ? abs : item);
  }
  g_key_file_set_value(kf, "study", key, out->str);
  g_string_free(out, TRUE);
}

/* The study file with every path made absolute (for a batch system that
 * runs elsewhere); caller frees. */
static char *study_resolved_text(const study *s, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new();
  if (!s->text || !g_key_file_load_from_data(kf, s->text, (gsize)-1, G_KEY_FILE_KEEP_COMMENTS,
                                             error))
    return NULL;
  if (!g_key_file_has_key(kf, "study", "name", NULL))
    g_key_file_set_value(kf, "study", "name", s->name);
  fix_list(s, kf, "traces", "input ", FALSE);
  fix_list(s, kf, "matrices", "input ", FALSE);
  fix_list(s, kf, "platforms", "platform ", TRUE);
  fix_value(s, kf, "study", "alloc", TRUE);
  g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
  for (int i = 0; groups[i]; i++) {
    const char *g = groups[i];
    if (g_str_has_prefix(g, "input ")) {
      const char *keys[] = { "trace", "matrix", "counts", "coords" };
      for (size_t k = 0; k < G_N_ELEMENTS(keys); k++)
        fix_value(s, kf, g, keys[k], FALSE);
    } else if (g_str_has_prefix(g, "platform ")) {
      fix_value(s, kf, g, "spec", TRUE);
      fix_value(s, kf, g, "alloc", TRUE);
    }
  }
  return g_key_file_to_data(kf, NULL, error);
}

/* 'text' for a shell command line. */
static char *sq(const char *text)
{
  return g_shell_quote(text);
}

/* Does `path` exist with other bytes than `data` (an emitted file is
 * never replaced; the same study emitted again finds its own)? */
static gboolean exists_otherwise(const char *path, const char *data, gsize len)
{
  GStatBuf st;
  if (g_lstat(path, &st) != 0)
    return FALSE;
  g_autofree char *old = NULL;
  gsize old_len;
  return !S_ISREG(st.st_mode) || (gsize)st.st_size != len ||
         !g_file_get_contents(path, &old, &old_len, NULL) || old_len != len ||
         memcmp(old, data, len) != 0;
}

gboolean study_emit_slurm(const study *s, const char *dir, const char *exe, int nslices,
                          int cpus, GError **error)
{
  g_autofree char *logs = g_build_filename(dir, "logs", NULL);
  if (g_mkdir_with_parents(logs, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: cannot create: %s", logs,
                g_strerror(errno));
    return FALSE;
  }
  g_autofree char *adir = g_canonicalize_filename(dir, NULL);
  g_autofree char *ini = g_build_filename(adir, "study.ini", NULL);
  g_autofree char *script = g_build_filename(adir, "study.sbatch", NULL);
  g_autofree char *text = study_resolved_text(s, error);
  if (!text)
    return FALSE;
  g_autofree char *header = g_strdup_printf(
      "# Written by `mapsim study --emit-slurm` from %s: the same study with\n"
      "# every path made absolute, for the tasks of study.sbatch.\n",
      s->path ? s->path : "a built-in study");
  g_autofree char *ini_text = g_strconcat(header, text, NULL);
  int n = CLAMP(nslices, 1, MAX(s->ncells, 1));
  g_autofree char *q_exe = sq(exe), *q_ini = sq(ini), *q_dir = sq(adir);
  g_autofree char *log = g_build_filename(adir, "logs", "slice-%a.log", NULL);
  GString *b = g_string_new(NULL);
  g_string_append_printf(b,
      "#!/bin/bash\n"
      "# mapsim study \"%s\" as a Slurm job array: %d cells in %d slices.\n"
      "#   submit:  sbatch %s\n"
      "#   then:    %s study --merge %s\n"
      "# Each array task runs one slice (mapsim study --slice K/N) and stores every\n"
      "# cell in %s/cells as soon as it finishes; a resubmitted task skips the\n"
      "# cells already stored. The folder must be on a file system every node sees.\n"
      "# Add #SBATCH lines for your site (partition, account, time) below.\n"
      "#SBATCH --job-name=mapsim-study\n"
      "#SBATCH --array=1-%d\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=%d\n"
      "#SBATCH --output=\"%s\"\n"
      "set -eu\n"
      "exec %s study %s -o %s --slice \"${SLURM_ARRAY_TASK_ID}/%d\" \\\n"
      "  -j \"${SLURM_CPUS_PER_TASK:-%d}\" --quiet\n",
      s->name, s->ncells, n, script, exe, adir, adir, n, cpus, log, q_exe, q_ini, q_dir, n,
      cpus);
  const char *clash = exists_otherwise(ini, ini_text, strlen(ini_text)) ? ini
                      : exists_otherwise(script, b->str, b->len) ? script : NULL;
  if (clash)
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE,
                "%s: exists and is not this study's, expected a folder without another emitted "
                "study; remove it (or choose another folder) to emit this one", clash);
  gboolean ok = !clash && output_write_all(ini, ini_text, strlen(ini_text), NULL, error) &&
                output_write_all(script, b->str, b->len, NULL, error);
  g_string_free(b, TRUE);
  if (ok && g_chmod(script, 0755) != 0) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_STORE, "%s: chmod: %s", script,
                g_strerror(errno));
    ok = FALSE;
  }
  return ok;
}
