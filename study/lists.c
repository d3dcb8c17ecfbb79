/* lists.c - the platforms and strategies of a study: list entries
 * that name labelled groups, brace sweeps expanded into labelled
 * platforms and strategies, overrides (set, set-if-present), and the
 * sweeps the report plots.
 *
 * A platform entry - a list item or a [platform L] group - is the product
 * of the braces in its spec, its allocation, the study's overrides and its
 * own: `torus:4x4x4:bw={12.5e9,25e9}` gives two platforms labelled with
 * their spec, `[platform haec] set = linktype.wireless.bandwidth={1e10,2e10}`
 * two labelled `haec linktype.wireless.bandwidth=1e10` and `... =2e10`. An
 * optional override (set-if-present) left out on a platform without its
 * link type is not part of the label, and the copies it would make of that
 * platform are one. compare expands its -p and --set the same way
 * (study_grid_add_platforms). */
#include <string.h>

#include "mapping/strategy.h"
#include "sim/optimize.h"
#include "study/loader-private.h"
#include "util/sweep.h"

/* ---- platforms ---- */

/* One entry before its sweeps are expanded. */
typedef struct platform_entry {
  const char *group;         /* [platform L], or NULL: a list item */
  const char *label;         /* the group's label L, or NULL: from the spec */
  const char *spec, *alloc;
  int cores;
  const char *fill;
  const char *const *sets;   /* the study's, then the entry's own (?: if present) */
  int line;
} platform_entry;

gboolean study_spec_is_path(const char *spec)
{
  const char *slash = strchr(spec, '/'), *colon = strchr(spec, ':');
  return (slash && (!colon || slash < colon)) || g_str_has_suffix(spec, ".ini") ||
         g_str_has_suffix(spec, ".json");
}

/* A platform or allocation spec: a path when it looks like one (a '/',
 * an .ini or .json name) or names a file in the base folder, else the text
 * itself (a shorthand like torus:4x4x4, random:32:1). */
static char *loader_resolve_spec(const loader *L, const char *spec)
{
  g_autofree char *file = ini_resolve(&L->ini, spec);
  if (study_spec_is_path(spec) || g_file_test(file, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer(&file);
  return g_strdup(spec);
}

void study_platform_clear(study_platform *sp)
{
  g_free(sp->label);
  g_free(sp->spec);
  g_free(sp->alloc);
  g_free(sp->fill);
  g_strfreev(sp->sets);
  platform_free(sp->p);
  g_clear_error(&sp->error);
  for (int i = 0; i < sp->nswept; i++) {
    g_free(sp->swept[i].key);
    g_free(sp->swept[i].value);
  }
  g_free(sp->swept);
  memset(sp, 0, sizeof *sp);
}

/* Was choice c of the combination applied to the platform, or left out
 * with its optional override? Texts: spec, alloc, then overrides. */
static gboolean applied(const study_platform *sp, const sweep_combo *k, const sweep_choice *c)
{
  const char *text = k->texts[c->text];
  if (c->text < 2 || text[0] != '?' || !sp->p)
    return TRUE;
  for (guint i = 0; i < sp->p->left_out->len; i++)
    if (strcmp(g_ptr_array_index(sp->p->left_out, i), text + 1) == 0)
      return FALSE;
  return TRUE;
}

/* The label of one combination and the values it records as swept. */
static void label_combo(study_platform *sp, const platform_entry *e, const sweep_combo *k,
                        const char *spec_label)
{
  GString *label = g_string_new(e->label ? e->label : spec_label);
  sp->swept = g_new0(struct study_swept, MAX(k->nchoices, 1));
  int last_keyless = -1;
  for (int i = 0; i < k->nchoices; i++) {
    const sweep_choice *c = &k->choices[i];
    if (!applied(sp, k, c))
      continue;
    sp->swept[sp->nswept++] = (struct study_swept){ g_strdup(c->key), g_strdup(c->value) };
    if (!e->label && c->text == 0)
      continue; /* the spec is the label */
    if (c->key)
      g_string_append_printf(label, " %s=%s", c->key, c->value);
    else if (c->text != last_keyless) /* the whole text once: `big torus:8x8` */
      g_string_append_printf(label, " %s%s", c->text == 1 ? "alloc=" : "",
                             k->texts[c->text] + (k->texts[c->text][0] == '?'));
    last_keyless = c->key ? last_keyless : c->text;
  }
  sp->label = g_string_free(label, FALSE);
}

/* Loads sp, its content hash too; the problem stays in sp->error. */
static void load(study_platform *sp)
{
  GError *e = NULL;
  if (study_platform_load(sp, &e) && !study_platform_hash(sp, sp->hash, &e))
    g_clear_pointer(&sp->p, platform_free);
  if (!sp->p)
    sp->error = e;
}

/* Appends the platforms of entry e (number `index`) to s; `resolve` makes
 * specs and allocations paths (NULL: as written). FALSE + error on a
 * malformed sweep. */
static gboolean add_entry(study *s, const platform_entry *e, int index, const loader *resolve,
                          GError **error)
{
  int nsets = e->sets ? (int)g_strv_length((char **)e->sets) : 0;
  const char **texts = g_new0(const char *, nsets + 2);
  texts[0] = e->spec;
  texts[1] = e->alloc;
  for (int i = 0; i < nsets; i++)
    texts[2 + i] = e->sets[i];
  GPtrArray *combos = sweep_product(texts, nsets + 2, error);
  g_free(texts);
  if (!combos)
    return FALSE;
  if (s->nplatforms + (int)combos->len > SWEEP_MAX) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_FILE, "'%s': more than %d platforms in the "
                "study, expected fewer", e->spec, SWEEP_MAX);
    g_ptr_array_unref(combos);
    return FALSE;
  }
  int first = s->nplatforms;
  for (guint c = 0; c < combos->len; c++) {
    const sweep_combo *k = combos->pdata[c];
    study_platform sp = { .line = e->line, .entry = index, .cores = e->cores,
                          .fill = g_strdup(e->fill) };
    sp.spec = resolve ? loader_resolve_spec(resolve, k->texts[0]) : g_strdup(k->texts[0]);
    if (k->texts[1])
      sp.alloc = resolve ? loader_resolve_spec(resolve, k->texts[1]) : g_strdup(k->texts[1]);
    if (nsets) {
      sp.sets = g_new0(char *, nsets + 1);
      for (int i = 0; i < nsets; i++)
        sp.sets[i] = g_strdup(k->texts[2 + i]);
    }
    load(&sp);
    /* a study labels a file by its name and a shorthand as the shipped
     * files are named (torus-4x4x4), so that one study never mixes
     * torus:4x4x4 and mesh-4x4x4; compare by the text given */
    gboolean file = strcmp(sp.spec, k->texts[0]) != 0 || g_file_test(sp.spec, G_FILE_TEST_EXISTS);
    g_autofree char *spec_label = !resolve ? g_strdup(k->texts[0])
                                  : file ? ini_path_label(k->texts[0])
                                         : g_strdelimit(g_strdup(k->texts[0]), ":", '-');
    label_combo(&sp, e, k, spec_label);
    gboolean copy = FALSE; /* of an earlier combination: an override left out */
    for (int j = first; j < s->nplatforms && !copy; j++)
      copy = strcmp(s->platforms[j].label, sp.label) == 0;
    if (copy) {
      study_platform_clear(&sp);
      continue;
    }
    s->platforms = g_renew(study_platform, s->platforms, s->nplatforms + 1);
    s->platforms[s->nplatforms++] = sp;
  }
  g_ptr_array_unref(combos);
  return TRUE;
}

/* The line of the override an error names ("--set 'GROUP.KEY=..."): in
 * the entry's group, else in [study]; else the entry's line. */
static int problem_line(loader *L, const platform_entry *e, const char *message)
{
  if (!g_str_has_prefix(message, "--set '"))
    return e->line;
  const char *key = message + strlen("--set '");
  g_autofree char *name = g_strndup(key, strcspn(key, "='"));
  const char *groups[] = { e->group, "study" };
  const char *keys[] = { "set", "set-if-present" };
  for (size_t g = 0; g < G_N_ELEMENTS(groups); g++)
    for (size_t k = 0; groups[g] && k < G_N_ELEMENTS(keys); k++) {
      g_autofree char *v = g_key_file_get_value(L->ini.kf, groups[g], keys[k], NULL);
      if (v && strstr(v, name))
        return ini_line(&L->ini, groups[g], keys[k]);
    }
  return e->line;
}

/* The entry's platforms, with every problem at its line. */
static void add_loaded_entry(loader *L, const platform_entry *e)
{
  study *s = L->s;
  int first = s->nplatforms;
  GError *err = NULL;
  if (!add_entry(s, e, L->nentries++, L, &err)) {
    ini_problem(&L->ini, e->line, "platform '%s': %s", e->label ? e->label : e->spec, err->message);
    g_error_free(err);
    return;
  }
  for (int i = first; i < s->nplatforms; i++) {
    study_platform *sp = &s->platforms[i];
    for (int j = 0; j < i; j++)
      if (strcmp(s->platforms[j].label, sp->label) == 0)
        ini_problem(&L->ini, sp->line, "platform '%s' is defined twice (line %d), expected unique "
                    "labels; name them with [platform NAME] groups", sp->label,
                    s->platforms[j].line);
    if (!sp->error)
      continue;
    int line = problem_line(L, e, sp->error->message);
    /* a shorthand's own message names it (its label is torus-4x4x4) */
    if (strstr(sp->error->message, sp->label) ||
        (!study_spec_is_path(sp->spec) && strstr(sp->error->message, sp->spec)))
      ini_problem(&L->ini, line, "%s", sp->error->message);
    else
      ini_problem(&L->ini, line, "platform '%s': %s", sp->label, sp->error->message);
  }
}

static int parse_cores(loader *L, const char *group)
{
  g_autofree char *v = ini_string(&L->ini, group, "cores");
  guint64 n = 0;
  if (v && !g_ascii_string_to_unsigned(v, 10, 1, PLATFORM_MAX_CORES, &n, NULL))
    ini_problem(&L->ini, ini_line(&L->ini, group, "cores"), "[%s] cores = %s: expected an integer "
                "from 1 to %d", group, v, PLATFORM_MAX_CORES);
  return (int)n;
}

/* The overrides of a group: set, then set-if-present marked '?' (caller
 * frees). */
static GPtrArray *read_sets(loader *L, const char *group)
{
  GPtrArray *sets = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) set = ini_list(&L->ini, group, "set");
  g_auto(GStrv) optional = ini_list(&L->ini, group, "set-if-present");
  for (int i = 0; set && set[i]; i++)
    g_ptr_array_add(sets, g_strdup(set[i]));
  for (int i = 0; optional && optional[i]; i++)
    g_ptr_array_add(sets, g_strconcat("?", optional[i], NULL));
  return sets;
}

/* The study's overrides, then the entry's own (may be NULL), as one
 * NULL-terminated array of borrowed strings (caller frees the array). */
static const char **join_sets(const GPtrArray *study_sets, const GPtrArray *own)
{
  guint n = study_sets->len + (own ? own->len : 0), k = 0;
  const char **v = g_new0(const char *, n + 1);
  for (guint i = 0; i < study_sets->len; i++)
    v[k++] = g_ptr_array_index(study_sets, i);
  for (guint i = 0; own && i < own->len; i++)
    v[k++] = g_ptr_array_index(own, i);
  return v;
}

static void listed_platform_free(gpointer p)
{
  listed_platform *e = p;
  g_free(e->group);
  g_free(e->spec);
  g_free(e->alloc);
  g_free(e->fill);
  g_strfreev(e->sets);
  g_free(e);
}

/* Appends an entry (its strings copied) to the listed platforms, counting
 * the platforms its sweeps give: 1 for a malformed sweep, which its
 * expansion names. */
static void list_platform(loader *L, const char *group, const char *spec, const char *alloc,
                          int cores, const char *fill, const char *const *sets, int line)
{
  if (!L->platforms_listed)
    L->platforms_listed = g_ptr_array_new_with_free_func(listed_platform_free);
  listed_platform *e = g_new0(listed_platform, 1);
  *e = (listed_platform){ g_strdup(group), g_strdup(spec), g_strdup(alloc), g_strdup(fill),
                          cores, line, g_strdupv((char **)sets), 1 };
  int nsets = sets ? (int)g_strv_length((char **)sets) : 0;
  g_autofree const char **texts = g_new0(const char *, nsets + 2);
  texts[0] = spec;
  texts[1] = alloc;
  for (int i = 0; i < nsets; i++)
    texts[2 + i] = sets[i];
  if (!sweep_count(texts, nsets + 2, &e->count, NULL))
    e->count = 1;
  g_ptr_array_add(L->platforms_listed, e);
}

/* A [platform L] group as the next entry, after the study's defaults. */
static void read_platform_group(loader *L, const char *g, const platform_entry *defaults,
                                const GPtrArray *study_sets)
{
  static const char *const keys[] = { "spec", "alloc", "cores", "fill", "set", "set-if-present",
                                      NULL };
  ini_check_keys(&L->ini, g, keys);
  g_autofree char *spec = ini_string(&L->ini, g, "spec");
  g_autofree char *alloc = ini_string(&L->ini, g, "alloc");
  g_autofree char *fill = ini_string(&L->ini, g, "fill");
  int cores = parse_cores(L, g);
  int line = ini_line(&L->ini, g, NULL);
  if (!spec) {
    ini_problem(&L->ini, line, "[%s] expected spec = FILE or a shorthand like torus:4x4x4", g);
    return;
  }
  g_autoptr(GPtrArray) own = read_sets(L, g);
  g_autofree const char **sets = join_sets(study_sets, own);
  list_platform(L, g, spec, alloc ? alloc : defaults->alloc, cores ? cores : defaults->cores,
                fill ? fill : defaults->fill, sets, line);
}

void loader_read_platforms(loader *L)
{
  g_autofree char *alloc = ini_string(&L->ini, "study", "alloc");
  g_autofree char *fill = ini_string(&L->ini, "study", "fill");
  g_autoptr(GPtrArray) study_sets = read_sets(L, "study");
  g_autofree const char **sets = join_sets(study_sets, NULL);
  platform_entry defaults = { .alloc = alloc, .cores = parse_cores(L, "study"), .fill = fill,
                              .sets = sets };
  g_auto(GStrv) items = ini_list(&L->ini, "study", "platforms");
  int line = ini_line(&L->ini, "study", "platforms");
  g_autoptr(GHashTable) listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int i = 0; items && items[i]; i++) {
    g_autofree char *group = NULL;
    if (ini_listed_group(&L->ini, "platform ", items[i], line, G_FILE_TEST_IS_REGULAR, NULL, listed,
                         &group)) {
      if (group)
        read_platform_group(L, group, &defaults, study_sets);
      continue;
    }
    list_platform(L, NULL, items[i], defaults.alloc, defaults.cores, defaults.fill, sets, line);
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->ini.kf, NULL);
  for (int i = 0; groups[i]; i++)
    if (g_str_has_prefix(groups[i], "platform ") && !g_hash_table_contains(listed, groups[i]))
      read_platform_group(L, groups[i], &defaults, study_sets);
}

void loader_load_platforms(loader *L)
{
  for (guint i = 0; L->platforms_listed && i < L->platforms_listed->len; i++) {
    const listed_platform *l = g_ptr_array_index(L->platforms_listed, i);
    platform_entry e = { l->group, l->group ? l->group + strlen("platform ") : NULL, l->spec,
                         l->alloc, l->cores, l->fill, (const char *const *)l->sets, l->line };
    add_loaded_entry(L, &e);
  }
  if (L->s->nplatforms == 0)
    ini_problem(&L->ini, ini_line(&L->ini, "study", NULL),
                "no platforms, expected platforms = P; ... in [study] or [platform NAME] "
                "groups");
}

gboolean study_grid_add_platforms(study *s, const study_grid_platforms *g, GError **error)
{
  for (int i = 0; i < g->n; i++) {
    platform_entry e = { NULL, NULL, g->specs[i], g->alloc, g->cores, g->fill, g->sets, 0 };
    if (!add_entry(s, &e, i, NULL, error))
      return FALSE;
  }
  return TRUE;
}

/* ---- strategies ---- */

static void new_strategy(loader *L, const char *label, const char *pipeline, int line)
{
  study *s = L->s;
  /* label -> index + 1: a study may have many strategies (a sweep each) */
  if (!L->strategy_labels)
    L->strategy_labels = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  int prior = GPOINTER_TO_INT(g_hash_table_lookup(L->strategy_labels, label)) - 1;
  if (prior >= 0)
    ini_problem(&L->ini, line, "strategy '%s' is defined twice (line %d), expected unique labels",
                label, s->strategies[prior].line);
  else
    g_hash_table_insert(L->strategy_labels, g_strdup(label), GINT_TO_POINTER(s->nstrategies + 1));
  s->strategies = g_renew(study_strategy, s->strategies, s->nstrategies + 1);
  s->strategies[s->nstrategies++] = (study_strategy){ .label = g_strdup(label), .line = line,
                                                      .pipeline = g_strdup(pipeline) };
  GError *e = NULL;
  strategy_pipeline *pl = strategy_parse(pipeline, &e);
  if (pl && !optimize_check_objectives(pl, &e))
    g_clear_pointer(&pl, strategy_pipeline_free);
  if (!pl) {
    const char *m = g_str_has_prefix(e->message, "--strategy: ") ? e->message + 12 : e->message;
    ini_problem(&L->ini, line, "strategy '%s': %s", label, m);
    g_error_free(e);
  }
  strategy_pipeline_free(pl);
}

/* A pipeline's strategies, one per combination of its braces: labelled by
 * the pipeline itself, or by `label` and the values (`wh16 delta=16`). */
static void add_strategies(loader *L, const char *label, const char *pipeline, int line)
{
  GError *e = NULL;
  const char *texts[] = { pipeline };
  GPtrArray *combos = sweep_product(texts, 1, &e);
  if (!combos) {
    ini_problem(&L->ini, line, "strategy '%s': %s", label ? label : pipeline, e->message);
    g_error_free(e);
    return;
  }
  for (guint c = 0; c < combos->len; c++) {
    const sweep_combo *k = combos->pdata[c];
    GString *name = g_string_new(label ? label : k->texts[0]);
    for (int i = 0; label && i < k->nchoices; i++)
      g_string_append_printf(name, " %s%s%s", k->choices[i].key ? k->choices[i].key : "",
                             k->choices[i].key ? "=" : "", k->choices[i].value);
    new_strategy(L, name->str, k->texts[0], line);
    g_string_free(name, TRUE);
  }
  g_ptr_array_unref(combos);
}

static void listed_strategy_free(gpointer p)
{
  listed_strategy *e = p;
  g_free(e->label);
  g_free(e->pipeline);
  g_free(e);
}

/* Appends a pipeline (labelled by `label`, or NULL: by itself) to the
 * listed strategies, counting the strategies its sweeps give. */
static void list_strategy(loader *L, const char *label, const char *pipeline, int line)
{
  if (!L->strategies_listed)
    L->strategies_listed = g_ptr_array_new_with_free_func(listed_strategy_free);
  listed_strategy *e = g_new0(listed_strategy, 1);
  *e = (listed_strategy){ g_strdup(label), g_strdup(pipeline), line, 1 };
  const char *texts[] = { pipeline };
  if (!sweep_count(texts, 1, &e->count, NULL))
    e->count = 1;
  g_ptr_array_add(L->strategies_listed, e);
}

static void read_strategy_group(loader *L, const char *g)
{
  static const char *const keys[] = { "pipeline", NULL };
  ini_check_keys(&L->ini, g, keys);
  g_autofree char *pl = ini_string(&L->ini, g, "pipeline");
  int line = ini_line(&L->ini, g, NULL);
  if (!pl)
    ini_problem(&L->ini, line, "[%s] expected pipeline = a strategy pipeline like greedy+wh", g);
  list_strategy(L, g + strlen("strategy "), pl ? pl : "identity",
                pl ? ini_line(&L->ini, g, "pipeline") : line);
}

void loader_read_strategies(loader *L)
{
  g_auto(GStrv) items = ini_list(&L->ini, "study", "strategies");
  int line = ini_line(&L->ini, "study", "strategies");
  g_autoptr(GHashTable) listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int i = 0; items && items[i]; i++) {
    strategy_pipeline *pl = strategy_parse(items[i], NULL);
    g_autofree char *group = NULL;
    gboolean label = ini_listed_group(&L->ini, "strategy ", items[i], line, 0,
                                      pl ? "a strategy pipeline" : NULL, listed, &group);
    strategy_pipeline_free(pl);
    if (group)
      read_strategy_group(L, group);
    else if (!label)
      list_strategy(L, NULL, items[i], line);
  }
  g_auto(GStrv) groups = g_key_file_get_groups(L->ini.kf, NULL);
  for (int i = 0; groups[i]; i++)
    if (g_str_has_prefix(groups[i], "strategy ") && !g_hash_table_contains(listed, groups[i]))
      read_strategy_group(L, groups[i]);
}

void loader_add_strategies(loader *L)
{
  for (guint i = 0; L->strategies_listed && i < L->strategies_listed->len; i++) {
    const listed_strategy *l = g_ptr_array_index(L->strategies_listed, i);
    add_strategies(L, l->label, l->pipeline, l->line);
  }
  if (L->s->nstrategies == 0 && L->s->ninputs > 0)
    ini_problem(&L->ini, ini_line(&L->ini, "study", NULL),
                "no strategies, expected strategies = S; ... in [study] or [strategy NAME] "
                "groups");
}

/* ---- sweeps ---- */

static void sweep_free(gpointer p)
{
  study_sweep *w = p;
  g_free(w->key);
  g_free(w->platforms);
  g_free(w->values);
  g_free(w->fixed);
  g_free(w->unit);
  g_free(w);
}

/* The entry, swept key and other values that make platform p's line of
 * sweep k (caller frees); NULL when k is not a number of a known quantity. */
static char *sweep_line(const study_platform *sp, int k, units_quantity *q, double *value)
{
  const struct study_swept *w = &sp->swept[k];
  if (!w->key || !platform_key_quantity(w->key, q) || !units_parse(w->value, *q, value, NULL))
    return NULL;
  GString *id = g_string_new(NULL);
  g_string_printf(id, "%d\n%s\n", sp->entry, w->key);
  for (int i = 0; i < sp->nswept; i++)
    if (i != k)
      g_string_append_printf(id, "%s%s=%s", id->str[id->len - 1] == '\n' ? "" : " ",
                             sp->swept[i].key ? sp->swept[i].key : "", sp->swept[i].value);
  return g_string_free(id, FALSE);
}

GPtrArray *study_sweeps(const study *s)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(sweep_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (int p = 0; p < s->nplatforms; p++)
    for (int k = 0; k < s->platforms[p].nswept; k++) {
      units_quantity q;
      double v;
      char *id = sweep_line(&s->platforms[p], k, &q, &v);
      if (!id || g_hash_table_contains(seen, id)) {
        g_free(id);
        continue;
      }
      g_hash_table_add(seen, id);
      study_sweep *w = g_new0(study_sweep, 1);
      w->key = g_strdup(s->platforms[p].swept[k].key);
      w->quantity = q;
      w->fixed = g_strdup(strrchr(id, '\n') + 1);
      w->platforms = g_new(int, s->nplatforms);
      w->values = g_new(double, s->nplatforms);
      /* the platforms of the same line, by ascending value (insertion) */
      for (int o = p; o < s->nplatforms; o++)
        for (int j = 0; j < s->platforms[o].nswept; j++) {
          units_quantity qo;
          double vo;
          g_autofree char *ido = sweep_line(&s->platforms[o], j, &qo, &vo);
          if (!ido || strcmp(ido, id) != 0)
            continue;
          int at = w->n;
          while (at > 0 && w->values[at - 1] > vo) {
            w->values[at] = w->values[at - 1];
            w->platforms[at] = w->platforms[at - 1];
            at--;
          }
          w->values[at] = vo;
          w->platforms[at] = o;
          /* the unit the file wrote it in, when every value has the same */
          double number;
          const char *unit = NULL;
          gboolean has = units_split(s->platforms[o].swept[j].value, &number, &unit) && *unit &&
                         number != 0;
          if (w->n == 0 && has) {
            w->unit = g_strdup(unit);
            w->per_unit = vo / number;
          } else if (w->unit && (!has || strcmp(w->unit, unit) != 0)) {
            g_clear_pointer(&w->unit, g_free);
          }
          w->n++;
        }
      if (w->n >= 2)
        g_ptr_array_add(out, w);
      else
        sweep_free(w);
    }
  return out;
}
