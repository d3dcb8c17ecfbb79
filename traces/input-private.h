/* input-private.h - what the input dispatcher (input.c) and its reader
 * files (input-otf2.c, input-matrix.c) share; not for users of traces/.
 */
#pragma once

#include "traces/input.h"

/* The built-in readers, one file each (the rows of input.c's table). */
extern const input_reader input_reader_otf2;   /* input-otf2.c */
extern const input_reader input_reader_mtx;    /* input-matrix.c */
extern const input_reader input_reader_csv;
extern const input_reader input_reader_edges;
extern const input_reader input_reader_goal;   /* input-goal.c */
extern const input_reader input_reader_simgrid_ti; /* input-simgrid-ti.c */
extern const input_reader input_reader_dumpi;      /* input-dumpi.c */

/* A regular file whose peeked bytes hold no NUL: text, for the probes of
 * text formats (input.c). */
gboolean input_peek_is_text(const input_peek *pk);
