/* cmd-strategies.c - `mapsim strategies`: lists every registered strategy
 * with its summary, paper and options (printed from the registry tables). */
#include <stdio.h>

#include "mapping/strategy.h"
#include "cli/cli.h"

int cmd_strategies(int argc, char **argv)
{
  cli_common c;
  if (!cli_parse(&argc, &argv, "strategies", "",
                 "Lists the mapping strategies: name, what it does, where it comes from, options.",
                 "Pipelines chain a placing step and refiners: greedy+wh:delta=16+mc\n\n"
                 "Example:\n  mapsim strategies\n"
                 "  mapsim map --platform torus:4x4x4 --trace traces/data/cg-16 --strategy greedy+wh:delta=16+mc",
                 0, &c, NULL))
    return 2;
  if (argc > 1) {
    fprintf(stderr, "mapsim: strategies: unexpected argument '%s', expected none\n", argv[1]);
    return 2;
  }
  char *text = strategy_describe_all();
  fputs(text, stdout);
  g_free(text);
  return 0;
}
