/* test_examples.c - every example a user is shown runs as written: the
 * examples of each subcommand's --help and the mapsim commands of the
 * README's code blocks, on the repository's own files.
 *
 * Commands run in a fresh folder holding links to the repository's
 * configs/, traces/ and tests/ (so relative paths resolve and outputs land
 * in the folder), one after the other in the order shown (a README step may
 * use what an earlier one wrote). A command may be shown with a comment that
 * starts "# after" (it needs a step outside mapsim first, such as a Slurm job
 * array): it is not run. Lines continued with a backslash are joined, and
 * the README's shell variables (`T=traces/...` lines) are expanded. */
#include <string.h>
#include <unistd.h>

#include "testutil.h"

/* The mapsim command of a shown line ("mapsim ...", "$M ...",
 * "build/mapsim ..."), without its comment, as argv; NULL when the line is
 * not one or must not run. */
static char **command_of(const char *line)
{
  const char *s = line;
  while (*s == ' ')
    s++;
  static const char *const heads[] = { "mapsim ", "$M ", "build/mapsim ", "./build/mapsim " };
  const char *rest = NULL;
  for (size_t i = 0; i < G_N_ELEMENTS(heads) && !rest; i++)
    if (g_str_has_prefix(s, heads[i]))
      rest = s + strlen(heads[i]);
  if (!rest || strstr(rest, "# after"))
    return NULL;
  g_autofree char *cmd = g_strdup(rest);
  char *hash = strstr(cmd, " #");
  if (hash)
    *hash = '\0';
  char **argv = NULL;
  cr_assert(g_shell_parse_argv(cmd, NULL, &argv, NULL), "cannot parse: %s", line);
  return argv;
}

/* Joins backslash-continued lines. */
static GPtrArray *joined_lines(const char *text)
{
  GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  GString *cur = NULL;
  for (int i = 0; lines[i]; i++) {
    char *l = lines[i];
    gsize n = strlen(l);
    gboolean cont = n && l[n - 1] == '\\';
    if (cont)
      l[n - 1] = ' ';
    if (!cur)
      cur = g_string_new(l);
    else
      g_string_append(cur, g_strchug(l));
    if (!cont) {
      g_ptr_array_add(out, g_string_free(cur, FALSE));
      cur = NULL;
    }
  }
  if (cur)
    g_ptr_array_add(out, g_string_free(cur, FALSE));
  return out;
}

/* A folder where the repository's inputs resolve; caller removes it. */
static char *workdir(void)
{
  char *dir = tu_tmp_dir();
  const char *const links[] = { "configs", "traces", "tests" };
  for (size_t i = 0; i < G_N_ELEMENTS(links); i++) {
    g_autofree char *target = tu_src(links[i]);
    g_autofree char *name = g_build_filename(dir, links[i], NULL);
    cr_assert_eq(symlink(target, name), 0, "%s", name);
  }
  return dir;
}

/* Runs `argv` (after the program name) in `dir`; asserts exit status 0. */
static void run_in(const char *dir, char **argv, const char *where)
{
  const char *exe = g_getenv("MAPSIM");
  GPtrArray *a = g_ptr_array_new();
  g_ptr_array_add(a, (char *)exe);
  for (int i = 0; argv[i]; i++)
    g_ptr_array_add(a, argv[i]);
  g_ptr_array_add(a, NULL);
  int status = -1;
  char *out = NULL, *err = NULL;
  GError *e = NULL;
  cr_assert(g_spawn_sync(dir, (char **)a->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                         &status, &e), "%s", e ? e->message : "");
  g_autofree char *shown = g_strjoinv(" ", argv);
  cr_assert(g_spawn_check_wait_status(status, NULL), "%s: mapsim %s failed:\n%s", where, shown,
            err);
  g_free(out);
  g_free(err);
  g_ptr_array_free(a, TRUE);
}

Test(examples, every_help_example_runs, .timeout = 600)
{
  char *list = NULL;
  const char *help[] = { "--help", NULL };
  cr_assert_eq(tu_run(&list, NULL, help), 0);
  char *dir = workdir();
  int ran = 0;
  g_auto(GStrv) lines = g_strsplit(list, "\n", -1);
  for (int i = 0; lines[i]; i++) {
    if (!g_str_has_prefix(lines[i], "  ") || lines[i][2] == ' ')
      continue;
    g_auto(GStrv) words = g_strsplit(g_strstrip(lines[i]), " ", 2);
    char *text = NULL;
    const char *args[] = { words[0], "--help", NULL };
    cr_assert_eq(tu_run(&text, NULL, args), 0, "%s --help", words[0]);
    const char *ex = strstr(text, "Example");
    cr_assert_not_null(ex, "mapsim %s --help shows no example", words[0]);
    GPtrArray *cmds = joined_lines(ex);
    int n = 0;
    for (guint k = 0; k < cmds->len; k++) {
      char **argv = command_of(g_ptr_array_index(cmds, k));
      if (argv) {
        run_in(dir, argv, words[0]);
        n++;
        ran++;
      }
      g_strfreev(argv);
    }
    cr_assert_gt(n, 0, "mapsim %s --help: no example runs", words[0]);
    g_ptr_array_free(cmds, TRUE);
    g_free(text);
  }
  cr_assert_geq(ran, 20, "%d examples", ran);
  tu_rm_rf(dir);
  g_free(dir);
  g_free(list);
}

/* `NAME=value` (a shell assignment, comment allowed) into vars. */
static gboolean assignment(const char *line, GHashTable *vars)
{
  const char *s = line;
  while (g_ascii_isupper(*s) || *s == '_')
    s++;
  if (s == line || *s != '=' || !s[1] || s[1] == ' ')
    return FALSE;
  const char *v = s + 1, *end = v;
  while (*end && *end != ' ')
    end++;
  g_hash_table_insert(vars, g_strndup(line, (gsize)(s - line)), g_strndup(v, (gsize)(end - v)));
  return TRUE;
}

/* $NAME and ${NAME} replaced by their values ($M stays: the program). */
static char *expand(const char *line, GHashTable *vars)
{
  GString *out = g_string_new(NULL);
  for (const char *s = line; *s; s++) {
    gboolean brace = s[0] == '$' && s[1] == '{';
    const char *n = s + (brace ? 2 : 1), *e = n;
    while (*s == '$' && (g_ascii_isupper(*e) || *e == '_'))
      e++;
    g_autofree char *name = *s == '$' ? g_strndup(n, (gsize)(e - n)) : NULL;
    const char *v = name && strcmp(name, "M") ? g_hash_table_lookup(vars, name) : NULL;
    if (v) {
      g_string_append(out, v);
      s = e - 1 + (brace ? 1 : 0);
    } else {
      g_string_append_c(out, *s);
    }
  }
  return g_string_free(out, FALSE);
}

Test(examples, every_readme_command_runs, .timeout = 600)
{
  g_autofree char *path = tu_src("README.md");
  g_autofree char *readme = NULL;
  cr_assert(g_file_get_contents(path, &readme, NULL, NULL));
  char *dir = workdir();
  GPtrArray *lines = joined_lines(readme);
  GHashTable *vars = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  gboolean in_code = FALSE;
  int ran = 0;
  for (guint i = 0; i < lines->len; i++) {
    const char *l = g_ptr_array_index(lines, i);
    if (g_str_has_prefix(l, "```")) {
      in_code = !in_code;
      continue;
    }
    if (!in_code || assignment(l, vars))
      continue;
    g_autofree char *x = expand(l, vars);
    char **argv = command_of(x);
    if (argv) {
      run_in(dir, argv, "README.md");
      ran++;
    }
    g_strfreev(argv);
  }
  cr_assert_geq(ran, 8, "%d README commands", ran);
  g_hash_table_destroy(vars);
  g_ptr_array_free(lines, TRUE);
  tu_rm_rf(dir);
  g_free(dir);
}
