/* sweep.h - parameter sweeps written in place: a brace in a text stands for
 * several texts, one per value, so `torus:4x4x4:bw={12.5e9,25e9,50e9}` is
 * three platforms and `linktype.wireless.bandwidth={3.125e9..50e9*2}` five
 * overrides. Studies and compare expand list entries, platform specs and
 * --set values with it.
 *
 *   {a,b,c}      the values listed, in that order (any text but , { })
 *   {A..B*F}     A, A*F, A*F^2, ... while <= B (F > 1): a geometric sweep
 *   {A..B+S}     A, A+S, A+2S, ... while <= B (S > 0): an arithmetic sweep
 *   {A..B}       the same with S = 1
 * The ends and the step of a range are numbers (units.h) and the ends may
 * carry one unit, the same at both: {100Gbit/s..800Gbit/s*2} is 100Gbit/s,
 * 200Gbit/s, 400Gbit/s, 800Gbit/s. A range's values are computed as A*F^i
 * or A+i*S (no accumulated rounding), an integer below SWEEP_INTEGER_MAX
 * written as one (1000000, 6250000000: integer keys such as seeds take
 * them), any other value in the fewest digits that read back as the same
 * double to 15 digits (0.3, 1.5e-8), and an end is reached within a
 * relative 1e-9 (and within a thousandth of an arithmetic step).
 *
 * Several braces in one text, or in several texts expanded together
 * (sweep_product: a platform spec with its overrides), give every
 * combination, the first brace varying slowest. Each value remembers the
 * key its brace follows (`bw` in `bw={...}`, `linktype.wireless.bandwidth`
 * in `linktype.wireless.bandwidth={...}`: the text back to the previous
 * : ; , + ? space or start, before an `=` right before the brace), so labels
 * and figures can say what was swept. Nested braces are an error; so are
 * more than SWEEP_MAX combinations.
 *
 * Ownership: sweep_product() returns a GPtrArray of sweep_combo that frees
 * its elements. Not for: globs (glob(3) does those), shell syntax.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SWEEP_ERROR (sweep_error_quark())
GQuark sweep_error_quark(void);

typedef enum {
  SWEEP_ERROR_PARSE,
  SWEEP_ERROR_TOO_MANY,
} SweepError;

/* Integers up to this are exact in a double and have at most 15 digits:
 * a range's values below it that are integers are written as integers. */
#define SWEEP_INTEGER_MAX 1e15

/* The most combinations one expansion may give. */
#define SWEEP_MAX 4096

typedef struct sweep_choice {
  char *key;      /* what the brace follows (`bw`), or NULL */
  char *value;    /* the value taken (`25e9`) */
  int text;       /* index of the text the brace is in */
} sweep_choice;

typedef struct sweep_combo {
  char **texts;          /* the n texts, every brace replaced by a value */
  int ntexts;
  int nchoices;
  sweep_choice *choices; /* one per brace, in the order of the texts */
} sweep_combo;

/* TRUE when `text` holds a brace (a sweep to expand). */
gboolean sweep_has(const char *text);

/* Every combination of the braces in texts[0..n-1] (a NULL text stays
 * NULL); one combination without choices when there are no braces. NULL +
 * SWEEP_ERROR "'TEXT': what, expected ..." on a malformed brace. */
GPtrArray *sweep_product(const char *const *texts, int n, GError **error);

/* The number of combinations sweep_product() would give (1 to SWEEP_MAX),
 * found without making them: what a study counts before it expands
 * anything. FALSE + the same error as sweep_product() otherwise. */
gboolean sweep_count(const char *const *texts, int n, int *count, GError **error);

G_END_DECLS
