/* hostlist.h - Slurm's hostlist expressions: `nid[001-032]`,
 * `tux[0-3,12,18-20]`, `a[1-2]b[3-4]`, comma lists of them.
 *
 * The syntax is the one Slurm's own parser takes (scontrol show
 * hostnames): a comma separates expressions outside brackets (empty ones
 * are skipped); an expression is text with bracketed range lists, each a
 * comma list of numbers or lo-hi ranges (lo <= hi), expanded in the order
 * written, several brackets as their product (the first outermost), and
 * nothing may follow the last bracket. A number is zero-padded to the
 * width its range's lower bound is written with: `a[01-3]` is a01 a02
 * a03, `n[9-10]` is n9 n10, `n[009-10]` is n009 n010. Duplicates are kept.
 * Compression is the reverse: consecutive names of one prefix and numbers
 * that expand back to themselves become ranges of one bracket.
 *
 * Ownership: the expansion appends strings the array owns (create it with
 * g_free as its free function); compression returns a string the caller
 * frees. Not for: reading Slurm's files (platform-slurm.c).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most names one expression may stand for (and one Slurm file: its
 * reader sums the counts). */
#define HOSTLIST_MAX_NAMES (1 << 22)

/* The number of names `text` stands for and the length of the longest,
 * found in time linear in the text without making a name: what a reader
 * sets against its limits and the memory budget first. FALSE
 * (HOSTLIST_ERROR) as hostlist_expand() otherwise. */
gboolean hostlist_count(const char *text, gint64 *count, gsize *longest, GError **error);

/* Appends the names `text` stands for to `out` (counted first: more than
 * HOSTLIST_MAX_NAMES is refused before any is made); FALSE
 * (HOSTLIST_ERROR) with "hostlist 'text': what, expected what" otherwise. */
gboolean hostlist_expand(const char *text, GPtrArray *out, GError **error);

/* The shortest hostlist Slurm would print for `names` in this order. */
char *hostlist_compress(const char *const *names, int n);

#define HOSTLIST_ERROR (hostlist_error_quark())
GQuark hostlist_error_quark(void);

G_END_DECLS
