/* fuzz_goal.c - GOAL schedules (traces/goal.c): a parsed schedule is
 * written back and parsed again into the same counts, its graph of sends
 * built, and, when small, replayed under LogGOPS (sim/loggops.c), which
 * must end - finished or refused - for any schedule. */
#include "fuzz.h"
#include "sim/loggops.h"
#include "traces/goal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *path = fuzz_file(data, size, "s.goal");
  GError *e = NULL;
  goal *g = goal_read(path, &e);
  if (g && g->nops <= 20000) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f || !goal_write(g, f))
      abort();
    fclose(f);
    goal *back = goal_parse(buf, "back.goal", &e);
    if (!back || back->nops != g->nops || back->nranks != g->nranks ||
        back->end_xadj[back->nops] != g->end_xadj[g->nops] ||
        back->start_xadj[back->nops] != g->start_xadj[g->nops]) {
      fprintf(stderr, "fuzz_goal: the written schedule reads back differently: %s\n",
              e ? e->message : "counts differ");
      abort();
    }
    goal_free(back);
    free(buf);
    commgraph_free(goal_graph(g));
  }
  if (g && g->nops <= 500) {
    loggops_params p;
    loggops_defaults(&p);
    loggops_result r;
    if (loggops_run(g, &p, NULL, &r, &e))
      loggops_result_clear(&r);
    else
      g_clear_error(&e);
  }
  goal_free(g);
  g_clear_error(&e);
  g_free(path);
  return 0;
}
