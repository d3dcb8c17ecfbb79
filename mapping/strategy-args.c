/* strategy-args.c - what a strategy step reads: its options, the time
 * limit of the searches; the error quark. Below the strategies
 * (mapping/strategies/) and the runner (pipeline.c), calling neither. */
#include "mapping/strategy.h"

#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(strategy-error-quark, strategy_error)

static int param_index(const strategy_args *a, const char *name)
{
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->defs[i].name, name) == 0)
      return i;
  g_error("strategy option '%s' is not in the strategy's table", name); /* a bug, not input */
  return -1;
}

int strategy_arg_int(const strategy_args *a, const char *name)
{
  return (int)strtol(a->values[param_index(a, name)], NULL, 10);
}

double strategy_arg_double(const strategy_args *a, const char *name)
{
  return g_ascii_strtod(a->values[param_index(a, name)], NULL);
}

const char *strategy_arg_str(const strategy_args *a, const char *name)
{
  return a->values[param_index(a, name)];
}

static double time_limit;

void strategy_set_time_limit(double seconds)
{
  time_limit = seconds;
}

double strategy_time_limit(void)
{
  return time_limit;
}

void strategy_args_defaults(const strategy *s, strategy_args *a)
{
  a->defs = s->params;
  a->n = 0;
  for (int j = 0; s->params && s->params[j].name; j++)
    a->values[a->n++] = (char *)s->params[j].defval;
}
