/* size.c - how large a study is, known before anything is built: its
 * cells (inputs x kinds x platforms x strategies x models x seeds) and
 * mixes (jobs files x platforms x policies x models) in checked 64-bit
 * arithmetic, against STUDY_MAX_CELLS and the memory budget (what the
 * cells' rows will hold, STUDY_CELL_BYTES each). The study file is
 * checked with the counts of its listed entries (study/lists.c) before
 * any input, platform or strategy is loaded, so a study of 2^32 cells is
 * refused at once; the grid is checked again when its cells are made
 * (study_make_cells), for studies built in code too. */
#include "study/loader-private.h"
#include "util/budget.h"
#include "util/checked.h"

/* The sum over inputs of kinds x models (an input's models 1 unless it
 * is a trace): the cells of one platform, strategy and seed. */
static int64_t cells_per_point(const study *s)
{
  int64_t per = 0;
  for (int i = 0; i < s->ninputs; i++) {
    const study_input *in = &s->inputs[i];
    gboolean replayed = in->t || in->trace_path;
    per += (int64_t)MAX(in->nkinds, 1) * (replayed ? s->nmodels : 1); /* ints: no overflow */
  }
  return per;
}

gboolean study_check_grid(const study *s, int64_t nplatforms, int64_t nstrategies,
                          int64_t nseeds, GError **error)
{
  int64_t per = cells_per_point(s), cells, mixes;
  gboolean fits = checked_mul_i64(per, nplatforms, &cells) &&
                  checked_mul_i64(cells, nstrategies, &cells) &&
                  checked_mul_i64(cells, nseeds, &cells) && cells <= STUDY_MAX_CELLS;
  g_autofree char *grid = g_strdup_printf("%" G_GINT64_FORMAT " input x kind x model, %"
                                          G_GINT64_FORMAT " platform%s, %" G_GINT64_FORMAT
                                          " strateg%s, %" G_GINT64_FORMAT " seed%s", per,
                                          nplatforms, nplatforms == 1 ? "" : "s", nstrategies,
                                          nstrategies == 1 ? "y" : "ies", nseeds,
                                          nseeds == 1 ? "" : "s");
  if (!fits) {
    /* the product in floating point: it may not fit an int64 */
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_FILE, "%.0f cells (%s), more than the %d a "
                "study may have, expected fewer", (double)per * (double)nplatforms *
                (double)nstrategies * (double)nseeds, grid, STUDY_MAX_CELLS);
    return FALSE;
  }
  int64_t policies = MAX(s->npolicies, 1), draws = 0; /* jobs files x policies x draws */
  for (int f = 0; f < s->njobfiles; f++)
    for (int k = 0; k < policies; k++)
      draws += study_mix_draws(s, f, k);
  if (!checked_mul_i64(draws, nplatforms, &mixes) || !checked_mul_i64(mixes, s->nmodels, &mixes) ||
      mixes > STUDY_MAX_CELLS) {
    g_set_error(error, STUDY_ERROR, STUDY_ERROR_FILE, "%.0f mixes (%d jobs file%s, %"
                G_GINT64_FORMAT " platform%s, %" G_GINT64_FORMAT " polic%s, %d model%s), more "
                "than the %d a study may have, expected fewer", (double)s->njobfiles *
                (double)nplatforms * (double)policies * s->nmodels, s->njobfiles,
                s->njobfiles == 1 ? "" : "s", nplatforms, nplatforms == 1 ? "" : "s", policies,
                policies == 1 ? "y" : "ies", s->nmodels, s->nmodels == 1 ? "" : "s",
                STUDY_MAX_CELLS);
    return FALSE;
  }
  g_autofree char *what = mixes ? g_strdup_printf("the study's %" G_GINT64_FORMAT " cells (%s) "
                                                  "and %" G_GINT64_FORMAT " mixes", cells, grid,
                                                  mixes)
                                : g_strdup_printf("the study's %" G_GINT64_FORMAT " cells (%s)",
                                                  cells, grid);
  return budget_check_array(what, (uint64_t)(cells + mixes), STUDY_CELL_BYTES, error);
}

gboolean loader_check_size(loader *L)
{
  int64_t platforms = 0, strategies = 0;
  for (guint i = 0; L->platforms_listed && i < L->platforms_listed->len; i++)
    platforms += ((const listed_platform *)g_ptr_array_index(L->platforms_listed, i))->count;
  for (guint i = 0; L->strategies_listed && i < L->strategies_listed->len; i++)
    strategies += ((const listed_strategy *)g_ptr_array_index(L->strategies_listed, i))->count;
  GError *e = NULL;
  if (study_check_grid(L->s, platforms, strategies, L->s->nseeds, &e))
    return TRUE;
  ini_problem(&L->ini, ini_line(&L->ini, "study", NULL), "%s", e->message);
  g_error_free(e);
  return FALSE;
}

void loader_clear(loader *L)
{
  if (L->platforms_listed)
    g_ptr_array_unref(L->platforms_listed);
  if (L->strategies_listed)
    g_ptr_array_unref(L->strategies_listed);
  if (L->strategy_labels)
    g_hash_table_unref(L->strategy_labels);
}
