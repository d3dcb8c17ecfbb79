/* maintest.h - the mapsim command run in-process through mapsim_main()
 * (cli/cli.h) in a forked child, so that what a test registers first (a
 * topology family, a trace reader) is known to the command: its exit
 * status and what it printed. For the extension-point tests
 * (test_family_ext.c, test_input.c); tests of the installed binary use
 * testutil.h's tu_run. */
#pragma once

#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "testutil.h"

/* mapsim_main(args) in a child with standard output (and error) in files;
 * the exit status, *out and *err what it printed. */
static int run_main(const char *dir, const char *const *args, char **out, char **err)
{
  g_autofree char *out_path = g_build_filename(dir, "stdout", NULL);
  g_autofree char *err_path = g_build_filename(dir, "stderr", NULL);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  cr_assert_neq(pid, -1);
  if (pid == 0) {
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
      _exit(99);
    close(o);
    close(e);
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, "mapsim");
    for (int i = 0; args[i]; i++)
      g_ptr_array_add(argv, (gpointer)args[i]);
    g_ptr_array_add(argv, NULL);
    _exit(mapsim_main((int)argv->len - 1, (char **)argv->pdata));
  }
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st), "the child ended by signal %d", WTERMSIG(st));
  cr_assert(g_file_get_contents(out_path, out, NULL, NULL));
  cr_assert(g_file_get_contents(err_path, err, NULL, NULL));
  return WEXITSTATUS(st);
}

static JsonObject *parse_object(JsonParser *p, const char *text)
{
  GError *e = NULL;
  cr_assert(json_parser_load_from_data(p, text, -1, &e), "%s: %s", e ? e->message : "", text);
  return json_node_get_object(json_parser_get_root(p));
}
