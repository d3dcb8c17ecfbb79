/* grid.c - the study's grid (see study/study.h): the cell of given
 * coordinates, the one walk over them, the names of kinds and models, and
 * the content hashes of inputs and platforms that cell keys are made of.
 * Below study/study.c and the study's other files, which call it and which it
 * never calls.
 */
#include <string.h>

#include "study/study-private.h"

/* ---- coordinates ---- */

const char *study_kind_name(study_kind k)
{
  return k == STUDY_KIND_COUNT ? "count" : "bytes";
}

const char *study_cell_model_name(const study *s, const study_cell *c)
{
  return c->model >= 0 ? s->models[c->model]->name : NULL;
}

int study_input_nmodels(const study *s, int input)
{
  return s->inputs[input].t ? s->nmodels : 1;
}

static int dim_size(const study *s, const int *at, int d)
{
  if ((d == STUDY_DIM_KIND || d == STUDY_DIM_MODEL) && at[STUDY_DIM_INPUT] >= s->ninputs)
    return 0; /* past the last input (or none: a study of jobs files only) */
  switch (d) {
  case STUDY_DIM_INPUT: return s->ninputs;
  case STUDY_DIM_KIND: return s->inputs[at[STUDY_DIM_INPUT]].nkinds;
  case STUDY_DIM_PLATFORM: return s->nplatforms;
  case STUDY_DIM_STRATEGY: return s->nstrategies;
  case STUDY_DIM_MODEL: return study_input_nmodels(s, at[STUDY_DIM_INPUT]);
  default: return s->nseeds;
  }
}

void study_walk_start(study_walk *w, const study *s, const char *dims, const int *from)
{
  static const char letters[] = "ikpsmd";
  *w = (study_walk){ .s = s };
  if (from)
    memcpy(w->at, from, sizeof w->at);
  for (const char *c = dims; *c && w->ndims < STUDY_NDIMS; c++) {
    const char *d = strchr(letters, *c);
    g_return_if_fail(d != NULL && *c);
    w->dims[w->ndims++] = (int)(d - letters);
  }
}

static gboolean walk_in_range(const study_walk *w)
{
  for (int j = 0; j < w->ndims; j++)
    if (w->at[w->dims[j]] >= dim_size(w->s, w->at, w->dims[j]))
      return FALSE;
  return TRUE;
}

gboolean study_walk_next(study_walk *w)
{
  do {
    if (!w->started) {
      w->started = TRUE;
      for (int j = 0; j < w->ndims; j++)
        w->at[w->dims[j]] = 0;
    } else {
      int j = w->ndims - 1;
      for (; j >= 0 && ++w->at[w->dims[j]] >= dim_size(w->s, w->at, w->dims[j]); j--)
        w->at[w->dims[j]] = 0;
      if (j < 0)
        return FALSE;
    }
  } while (!walk_in_range(w));
  return TRUE;
}

study_cell *study_walk_cell(const study_walk *w)
{
  const int *a = w->at;
  return study_cell_at(w->s, a[STUDY_DIM_INPUT], a[STUDY_DIM_KIND], a[STUDY_DIM_PLATFORM],
                       a[STUDY_DIM_STRATEGY], a[STUDY_DIM_MODEL], a[STUDY_DIM_SEED]);
}

study_cell *study_cell_at(const study *s, int input, int kind, int plat, int strategy,
                          int model, int seed)
{
  int base = 0;
  for (int i = 0; i < input; i++)
    base += s->inputs[i].nkinds * s->nplatforms * s->nstrategies * study_input_nmodels(s, i) *
            s->nseeds;
  int nm = study_input_nmodels(s, input);
  int m = s->inputs[input].t ? model : 0;
  return &s->cells[base + (((kind * s->nplatforms + plat) * s->nstrategies + strategy) * nm +
                           m) * s->nseeds + seed];
}

/* ---- content hashes ---- */

void study_digest(GChecksum *sum, char out[65])
{
  g_strlcpy(out, g_checksum_get_string(sum), 65);
}

static gboolean hash_file(GChecksum *sum, const char *path, GError **error)
{
  GMappedFile *f = g_mapped_file_new(path, FALSE, error);
  if (!f)
    return FALSE;
  gsize len = g_mapped_file_get_length(f);
  char head[32];
  g_snprintf(head, sizeof head, "%" G_GSIZE_FORMAT ":", len);
  g_checksum_update(sum, (const guchar *)head, -1);
  if (len)
    g_checksum_update(sum, (const guchar *)g_mapped_file_get_contents(f), (gssize)len);
  g_mapped_file_unref(f);
  return TRUE;
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files below `dir` as paths relative to `root`, sorted. */
static gboolean list_files(const char *root, const char *rel, GPtrArray *out, GError **error)
{
  g_autofree char *dir = rel ? g_build_filename(root, rel, NULL) : g_strdup(root);
  GDir *d = g_dir_open(dir, 0, error);
  if (!d)
    return FALSE;
  const char *name;
  gboolean ok = TRUE;
  while (ok && (name = g_dir_read_name(d))) {
    char *r = rel ? g_build_filename(rel, name, NULL) : g_strdup(name);
    g_autofree char *full = g_build_filename(root, r, NULL);
    if (g_file_test(full, G_FILE_TEST_IS_DIR)) {
      ok = list_files(root, r, out, error);
      g_free(r);
    } else {
      g_ptr_array_add(out, r);
    }
  }
  g_dir_close(d);
  return ok;
}

gboolean study_hash_path(GChecksum *sum, const char *path, GError **error)
{
  if (!g_file_test(path, G_FILE_TEST_IS_DIR))
    return hash_file(sum, path, error);
  GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
  gboolean ok = list_files(path, NULL, files, error);
  g_ptr_array_sort(files, cmp_str);
  for (guint i = 0; ok && i < files->len; i++) {
    const char *rel = g_ptr_array_index(files, i);
    g_autofree char *full = g_build_filename(path, rel, NULL);
    g_checksum_update(sum, (const guchar *)rel, (gssize)strlen(rel) + 1);
    ok = hash_file(sum, full, error);
  }
  g_ptr_array_free(files, TRUE);
  return ok;
}

/* Every value of an INI platform file that names a file (route tables,
 * node lists) adds that file's content. */
static gboolean hash_named_files(GChecksum *sum, const char *ini, GError **error)
{
  g_autoptr(GKeyFile) kf = g_key_file_new();
  if (!g_key_file_load_from_file(kf, ini, G_KEY_FILE_NONE, NULL))
    return TRUE; /* not an INI file (HAEC-SIM JSON): its content is all */
  g_autofree char *dir = g_path_get_dirname(ini);
  g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
  for (int i = 0; groups[i]; i++) {
    g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[i], NULL, NULL);
    for (int k = 0; keys && keys[k]; k++) {
      g_autofree char *v = g_key_file_get_value(kf, groups[i], keys[k], NULL);
      if (!v || !*g_strstrip(v))
        continue;
      g_autofree char *f = g_path_is_absolute(v) ? g_strdup(v) : g_build_filename(dir, v, NULL);
      if (!g_file_test(f, G_FILE_TEST_IS_REGULAR))
        continue;
      g_checksum_update(sum, (const guchar *)keys[k], (gssize)strlen(keys[k]) + 1);
      if (!hash_file(sum, f, error))
        return FALSE;
    }
  }
  return TRUE;
}

gboolean study_platform_load(study_platform *sp, GError **error)
{
  sp->p = platform_load_with(sp->spec, (const char *const *)sp->sets, error);
  if (sp->p && ((sp->alloc && !platform_set_allocation(sp->p, sp->alloc, error)) ||
                (sp->cores && !platform_set_cores(sp->p, sp->cores, error)) ||
                (sp->fill && !platform_set_fill(sp->p, sp->fill, error))))
    g_clear_pointer(&sp->p, platform_free);
  return sp->p != NULL;
}

gboolean study_platform_hash(const study_platform *sp, char out[65], GError **error)
{
  const char *spec = sp->spec, *alloc = sp->alloc;
  GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
  gboolean ok = TRUE;
  if (g_file_test(spec, G_FILE_TEST_IS_REGULAR)) {
    g_checksum_update(sum, (const guchar *)"file:", -1);
    ok = hash_file(sum, spec, error) && hash_named_files(sum, spec, error);
  } else {
    g_checksum_update(sum, (const guchar *)"shorthand:", -1);
    g_checksum_update(sum, (const guchar *)spec, -1);
  }
  g_checksum_update(sum, (const guchar *)"\nalloc:", -1);
  if (ok && alloc && g_file_test(alloc, G_FILE_TEST_IS_REGULAR))
    ok = hash_file(sum, alloc, error);
  else if (alloc)
    g_checksum_update(sum, (const guchar *)alloc, -1);
  char c[64];
  g_snprintf(c, sizeof c, "\ncores:%d\nfill:%s", sp->cores, sp->fill ? sp->fill : "");
  g_checksum_update(sum, (const guchar *)c, -1);
  for (int i = 0; sp->sets && sp->sets[i]; i++) {
    g_checksum_update(sum, (const guchar *)"\nset:", -1);
    g_checksum_update(sum, (const guchar *)sp->sets[i], -1);
  }
  study_digest(sum, out);
  g_checksum_free(sum);
  return ok;
}
