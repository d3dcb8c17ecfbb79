/* budget.h - how large an input may be: checked before anything is
 * allocated for it.
 *
 * One memory budget for the whole process (--max-memory; the default is
 * three quarters of the machine's memory, or of a smaller cgroup or
 * address-space limit). Loaders, platform construction, the replay and the
 * trace synthesizer estimate what an input will cost and ask
 * budget_check_memory() first, so a bad input ends in one line naming it
 * and the budget - never in a failed allocation (a GLib abort) or in the
 * kernel's OOM killer. A text input may use a quarter of the budget
 * (reading and splitting it into lines costs about four times its size);
 * budget_read_text() enforces that also for inputs that never end
 * (/dev/zero, a FIFO) and refuses binary data at once.
 *
 * Counts that index int arrays have fixed ceilings (BUDGET_MAX_RANKS).
 * The budget is the process's (its memory is one fact of the process, so
 * it is not passed through every loader): set at start-up
 * (budget_set_memory), read atomically, so threads may read it freely.
 * Not for: overflow of arithmetic (checked.h), time limits.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

#define BUDGET_ERROR (budget_error_quark())
GQuark budget_error_quark(void);

typedef enum {
  BUDGET_ERROR_MEMORY, /* the estimate exceeds the memory budget */
  BUDGET_ERROR_COUNT,  /* a count beyond its fixed ceiling */
  BUDGET_ERROR_READ,   /* cannot read a text input */
  BUDGET_ERROR_BINARY, /* a text input holds NUL bytes */
} LimitsError;

/* The most MPI ranks any input may have (ids are ints; 16.7 million ranks
 * is beyond the largest machines' core counts). */
#define BUDGET_MAX_RANKS (1 << 24)

/* The memory budget in bytes. */
uint64_t budget_memory(void);
void budget_set_memory(uint64_t bytes);

/* A size like "512M", "4G", "1.5GiB", "1000000" (bytes; K, M, G, T are
 * powers of 1024); FALSE when it is not one or is 0. */
gboolean budget_parse_size(const char *text, uint64_t *out);

/* TRUE when `bytes` fits the budget; else FALSE and "WHAT: needs about
 * 7.5 GiB, more than the memory budget of 4.0 GiB (--max-memory)". */
gboolean budget_check_memory(const char *what, uint64_t bytes, GError **error);

/* elements x size as bytes, then budget_check_memory(); an overflowing
 * product fails the same way. */
gboolean budget_check_array(const char *what, uint64_t elements, uint64_t size, GError **error);

/* Reads the text input `path` (any file, device or FIFO) into a
 * NUL-terminated buffer the caller frees; `what` names the expected content
 * in errors ("a route table"). Refuses more than budget_memory() / 4 bytes
 * and NUL bytes. A UTF-8 byte order mark at the start is dropped (editors
 * on Windows write one). */
gboolean budget_read_text(const char *path, const char *what, char **text, gsize *len,
                          GError **error);

/* JSON parsers (json-glib's among them) recurse once per level of
 * nesting, so a text of a hundred thousand '[' overflows the stack. FALSE
 * and "PATH:LINE: nested more than MAX levels deep, expected WHAT" when
 * `text` nests [ and { (outside strings) deeper than `max`. */
gboolean budget_check_nesting(const char *path, const char *text, int max, const char *what,
                              GError **error);

G_END_DECLS
