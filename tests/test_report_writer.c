/* test_report_writer.c - the report's figures are written through a
 * plot_writer its caller owns: one process writes two reports at the same
 * time, and the same bytes as one written on its own. */
#include <string.h>

#include "report/report.h"
#include "testutil.h"

typedef struct report_job {
  const study *s;
  char *dir, *index;
  GError *error;
} report_job;

static gpointer write_report(gpointer data)
{
  report_job *j = data;
  j->index = report_study(j->s, j->dir, 2, NULL, &j->error);
  return NULL;
}

/* Two reports of one study written at the same time by two threads of one
 * process are both whole, and the same bytes (index.html embeds every
 * PNG) as a third written after them. */
Test(report_writer, two_reports_in_one_process, .timeout = 240)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *text = g_strdup_printf("[study]\nname = two reports\ntraces = %s\n"
                                          "platforms = torus:4x4\nstrategies = identity; "
                                          "random; greedy\nmodels = flow\ncompute-scale = 0\n"
                                          "seeds = 1; 2\n", cg);
  GError *e = NULL;
  study *s = study_load("two.ini", text, dir, &e);
  cr_assert(s, "%s", e ? e->message : "");
  cr_assert(study_run(s, NULL, 2, NULL, FALSE, NULL, &e), "%s", e ? e->message : "");
  report_job jobs[3];
  for (int k = 0; k < 3; k++)
    jobs[k] = (report_job){ s, g_strdup_printf("%s/r%d", dir, k), NULL, NULL };
  GThread *th[2];
  for (int k = 0; k < 2; k++)
    th[k] = g_thread_new("report", write_report, &jobs[k]);
  for (int k = 0; k < 2; k++)
    g_thread_join(th[k]);
  write_report(&jobs[2]);
  g_autofree char *first = NULL;
  for (int k = 0; k < 3; k++) {
    cr_assert(jobs[k].index, "report %d: %s", k, jobs[k].error ? jobs[k].error->message : "");
    g_autofree char *page = tu_read(jobs[k].dir, "index.html");
    cr_assert(strstr(page, "data:image/png;base64,"), "report %d embeds no PNG", k);
    if (!first)
      first = g_strdup(page);
    else
      cr_assert(strcmp(page, first) == 0, "report %d differs from report 0", k);
    g_free(jobs[k].dir);
    g_free(jobs[k].index);
  }
  report_release();
  study_free(s);
}
