/* suggest.h - the nearest valid name to a mistyped one, for error messages
 * that say "did you mean 'wh'?" instead of only listing every name.
 *
 * Feed the candidates one by one (they come from different registries:
 * strategies, models, platform keys), then ask for the best: the one with
 * the fewest single-character edits (insertions, deletions, substitutions,
 * swaps of neighbours), if it is close enough to be a typo - at most a
 * third of the longer word, and at least one edit. Ties keep the first
 * candidate, so the order of a registry decides.
 *
 * Ownership: a suggestion borrows the word and the candidates; they must
 * outlive it. Header-only, no state. Not for: fuzzy search of long texts.
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

typedef struct suggestion {
  const char *word;
  const char *best;   /* NULL until a candidate is close enough */
  int distance;
} suggestion;

static inline void suggestion_init(suggestion *s, const char *word)
{
  *s = (suggestion){ .word = word ? word : "", .best = NULL, .distance = G_MAXINT };
}

/* Optimal string alignment distance (Damerau-Levenshtein without repeated
 * edits of one substring); words longer than 63 characters are never close. */
static inline int suggestion_distance(const char *a, const char *b)
{
  int n = (int)strlen(a), m = (int)strlen(b);
  if (n > 63 || m > 63)
    return G_MAXINT;
  int d[64][64];
  for (int i = 0; i <= n; i++)
    d[i][0] = i;
  for (int j = 0; j <= m; j++)
    d[0][j] = j;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
      int cost = a[i - 1] != b[j - 1];
      int v = MIN(MIN(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        v = MIN(v, d[i - 2][j - 2] + 1);
      d[i][j] = v;
    }
  return d[n][m];
}

static inline void suggestion_add(suggestion *s, const char *candidate)
{
  if (!candidate || strcmp(candidate, s->word) == 0)
    return;
  int d = suggestion_distance(s->word, candidate);
  int longer = (int)MAX(strlen(s->word), strlen(candidate));
  if (d <= MAX(1, longer / 3) && d < s->distance) {
    s->best = candidate;
    s->distance = d;
  }
}

/* The nearest candidate, or NULL when none is close enough. */
static inline const char *suggestion_best(const suggestion *s)
{
  return s->best;
}

G_END_DECLS
