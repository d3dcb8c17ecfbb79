/* test_figure_text.c - no figure clips a text (report/plot.c): a study
 * whose names are as long as real ones get (a Frontier-like platform
 * label with its sweep, a three-step strategy pipeline, the longest model
 * name, a jobs file's name and policies) writes its report, and every
 * text of every figure, drawn on the PNG and the SVG, lies inside its
 * figure. */
#include <math.h>
#include <string.h>

#include "report/plot.h"
#include "report/report.h"
#include "testutil.h"

typedef struct watch {
  GMutex lock;
  int texts, outside;
  GString *where;
} watch;

static void observe(void *user, const char *text, const double box[4], double w, double h)
{
  watch *wt = user;
  g_mutex_lock(&wt->lock);
  wt->texts++;
  if (box[0] < -0.01 || box[1] < -0.01 || box[2] > w + 0.01 || box[3] > h + 0.01) {
    wt->outside++;
    if (wt->where->len < 4000)
      g_string_append_printf(wt->where, "'%s' at %.1f,%.1f..%.1f,%.1f in %.0fx%.0f\n", text,
                             box[0], box[1], box[2], box[3], w, h);
  }
  g_mutex_unlock(&wt->lock);
}

/* The longest names a study of the bundled data gives: a platform group
 * named like the shipped config with a bandwidth sweep, strategies with
 * options, packet-vct, a jobs file with a long name and policies. */
static const char long_study[] =
  "[study]\n"
  "name = interference of three jobs on a frontier-like slingshot dragonfly\n"
  "traces = %s; %s\n"
  "platforms = frontier-like-slingshot-dragonfly-partition\n"
  "strategies = identity; greedy+wh:delta=16; scotch; hilbert; "
  "greedy+wh:delta=16+tabu:obj=hop_bytes\n"
  "models = flow; packet-vct\n"
  "compute-scale = 0\n"
  "jobs = %s\n"
  "policies = random-routers; contiguous; random-groups\n"
  "[platform frontier-like-slingshot-dragonfly-partition]\n"
  "spec = dragonfly:g=9:a=4:p=2:h=2:bw={100Gbit/s,200Gbit/s}\n";

Test(figure_text, no_text_outside_its_figure, .timeout = 600)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *a2a = tu_src("traces/data/alltoall-16");
  g_autofree char *jobs_src = tu_data("jobs/three.ini");
  g_autofree char *text = g_strdup_printf(long_study, cg, a2a, jobs_src);
  GError *e = NULL;
  study *s = study_load("long.ini", text, dir, &e);
  cr_assert(s, "%s", e ? e->message : "");
  cr_assert(study_run(s, NULL, 2, NULL, FALSE, NULL, &e), "%s", e ? e->message : "");
  watch wt = { .where = g_string_new(NULL) };
  g_mutex_init(&wt.lock);
  plot_observe_texts(observe, &wt);
  g_autofree char *out = g_build_filename(dir, "report", NULL);
  g_autofree char *index = report_study(s, out, 2, NULL, &e);
  plot_observe_texts(NULL, NULL);
  cr_assert(index, "%s", e ? e->message : "");
  cr_assert_gt(wt.texts, 1000, "%d texts drawn", wt.texts);
  cr_assert_eq(wt.outside, 0, "%d of %d texts outside their figure:\n%s", wt.outside, wt.texts,
               wt.where->str);
  /* sweep figures: one per model, named after it, the axis in the unit
   * the study wrote (Gbit/s, values 100 and 200) */
  g_autofree char *html = tu_read(out, "index.html");
  const char *sweeps[] = { "figures/sweep_cg-16_flow_bw.svg",
                           "figures/sweep_cg-16_packet-vct_bw.svg" };
  for (size_t i = 0; i < G_N_ELEMENTS(sweeps); i++)
    cr_assert(strstr(html, sweeps[i]), "no %s", sweeps[i]);
  cr_assert(strstr(html, "x: bw (Gbit/s), y: makespan_s"), "the study's unit");
  g_string_free(wt.where, TRUE);
  g_mutex_clear(&wt.lock);
  report_release();
  study_free(s);
}

/* issue 34: the ends of a colour scale name the value drawn (every link of
 * the identity stencil carries 12,288 bytes: the bar's top said 12.3k, more
 * than any link carried); ticks between them stay short. */
Test(figure_text, scale_ends_state_their_values)
{
  char buf[32];
  plot_format_exact(buf, sizeof buf, 12288, PLOT_NUMBER);
  cr_assert_str_eq(buf, "12.288k");
  plot_format(buf, sizeof buf, 12288, PLOT_NUMBER);
  cr_assert_str_eq(buf, "12.3k");
  plot_format_exact(buf, sizeof buf, 5000, PLOT_NUMBER);
  cr_assert_str_eq(buf, "5k");
  plot_format_exact(buf, sizeof buf, 0.000123456, PLOT_SECONDS);
  cr_assert_str_eq(buf, "123.456 µs");
  /* more than six digits: six, the closest a label gets */
  plot_format_exact(buf, sizeof buf, 1234567, PLOT_NUMBER);
  cr_assert_str_eq(buf, "1.23457M");
}
