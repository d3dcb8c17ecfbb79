/* utf8.h - names that are not UTF-8 shown escaped, never passed through
 * raw.
 *
 * File names on Linux are bytes: a Latin-1 name such as "M\xfcller" is a
 * valid path but not UTF-8, and a JSON, CSV or HTML file that carries it
 * raw is invalid (JSON parsers, browsers and spreadsheets refuse or mangle
 * it). Every name that reaches such an output goes through utf8_escape(),
 * which keeps valid UTF-8 as it is and writes each byte that is not part
 * of a valid sequence as the four characters "\xHH" (upper-case hex). The
 * escaped text is only for showing: it is not a path any more.
 *
 * Ownership: the result is a new string the caller frees. Thread-safe, no
 * state. Not for: paths that are opened (use the bytes as given), JSON or
 * CSV quoting (sim/row.h does that on the escaped text).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A copy of `text` (NULL: NULL) in which every byte that is not part of a
 * valid UTF-8 sequence is written as "\xHH". */
char *utf8_escape(const char *text);

G_END_DECLS
