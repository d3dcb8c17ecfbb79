/* main.c - `mapsim SUBCOMMAND ...`: dispatch to the registry in commands.c
 * (mapsim_main; the executable's main() is mapsim.c). */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/suggest.h"

static void usage(FILE *out)
{
  fprintf(out, "Usage: mapsim SUBCOMMAND [OPTION...]\n\n"
               "Where should my MPI ranks live on this network, and how much does it matter?\n\n"
               "Subcommands:\n");
  for (int i = 0; i < cli_ncommands; i++)
    fprintf(out, "  %-12s %s\n", cli_commands[i].name, cli_commands[i].summary);
  fprintf(out, "\n`mapsim help SUBCOMMAND` (or `mapsim SUBCOMMAND --help`) explains each one, "
               "with examples.\n");
}

static const cli_command *find_command(const char *name)
{
  for (int i = 0; i < cli_ncommands; i++)
    if (strcmp(name, cli_commands[i].name) == 0)
      return &cli_commands[i];
  return NULL;
}

static int unknown_command(const char *name)
{
  g_autofree char *shown = cli_visible(name);
  suggestion sg;
  suggestion_init(&sg, name);
  for (int i = 0; i < cli_ncommands; i++)
    suggestion_add(&sg, cli_commands[i].name);
  suggestion_add(&sg, "help");
  const char *best = suggestion_best(&sg);
  fprintf(stderr, "mapsim: unknown subcommand '%s'", shown);
  if (best)
    fprintf(stderr, ", did you mean '%s'?", best);
  fprintf(stderr, " expected one of:");
  for (int i = 0; i < cli_ncommands; i++)
    fprintf(stderr, " %s", cli_commands[i].name);
  fprintf(stderr, "\n");
  return 2;
}

/* `mapsim help SUBCOMMAND [VERB]`: the subcommand's own --help. */
static int help(int argc, char **argv)
{
  if (argc < 3) {
    usage(stdout);
    return 0;
  }
  const cli_command *cmd = find_command(argv[2]);
  if (!cmd)
    return unknown_command(argv[2]);
  char *args[] = { argv[2], argc > 3 ? argv[3] : "--help", argc > 3 ? "--help" : NULL, NULL };
  return cmd->run(argc > 3 ? 3 : 2, args);
}

int mapsim_main(int argc, char **argv)
{
  setlocale(LC_ALL, "C");
  cli_process_start();
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (strcmp(name, "help") == 0)
    return cli_process_end(help(argc, argv));
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
    usage(stdout);
    return cli_process_end(0);
  }
  if (strcmp(name, "--version") == 0) {
    printf("mapsim %s\n", MAPSIM_VERSION);
    return cli_process_end(0);
  }
  const cli_command *cmd = find_command(name);
  if (!cmd)
    return unknown_command(name);
  return cli_run(cmd, argc - 1, argv + 1);
}
