/* figures-private.h - what the figures (report/fig-*.c) show their tests
 * besides the public figures.h: where fig_network puts a cell, so that a
 * test can read its colour back from the image. Not for users of report/.
 */
#pragma once

#include "report/figures.h"

G_BEGIN_DECLS

/* Where fig_network draws the centre of cell (row, col) of panel `panel`
 * for these values, in the SVG's pixels (the PNG has twice as many in
 * each direction); FALSE when there is no such cell. */
gboolean fig_network_cell(const platform *p, const double *value, int panel, int row, int col,
                          double *x, double *y);

G_END_DECLS
