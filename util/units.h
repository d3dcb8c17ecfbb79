/* units.h - numbers as people write them for a network: bandwidths, times
 * and sizes with their units (100Gbit/s, 10ps, 64KiB). Platform files,
 * shorthands, --set and study files read every such value through
 * units_parse(), so a unit means the same everywhere.
 *
 * A value is a decimal number (digits, an optional fraction and exponent;
 * no inf, nan or hexadecimal), optionally spaces, then one unit of its
 * quantity:
 *   bandwidth, in bytes/s:  B/s; kB/s MB/s GB/s TB/s PB/s (10^3, 10^6 ...
 *                           bytes/s); KiB/s MiB/s GiB/s TiB/s (2^10, 2^20
 *                           ...); bits per second: bit/s kbit/s Mbit/s
 *                           Gbit/s Tbit/s, also written b/s kb/s Mb/s Gb/s
 *                           Tb/s and bps kbps Mbps Gbps Tbps (1/8 byte/s)
 *   time, in seconds:       s, ms, us (or µs), ns, ps
 *   size, in bytes:         B; kB MB GB TB PB; KiB MiB GiB TiB
 * or a bare multiplier of the quantity's own unit: k M G T P (10^3 ...
 * 10^15) or Ki Mi Gi Ti (2^10 ... 2^40): wbw=100G is 100e9 bytes/s (800
 * Gbit/s), eager_threshold=64Ki is 65536 bytes. A number alone is in the
 * quantity's unit (bytes/s, s, bytes).
 *
 * Exact: a decimal prefix adds its power of ten to the number's exponent
 * before the digits are read, so 100ps is the very double 100e-12 is and
 * 0.1GB/s the double 1e8; binary prefixes and bits (1/8) are powers of two,
 * exact in binary floating point. Case matters (m is milli, M mega; b bit,
 * B byte). A capital K alone (K, KB, Kbit/s) is refused: it means 1000 to
 * some and 1024 to others; write k or Ki.
 *
 * Ownership: nothing is kept; the error message copies the text.
 * Not for: memory budgets (--max-memory, budget.h, where G is 2^30 as in
 * ulimit and Slurm's --mem), printing values.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define UNITS_ERROR (units_error_quark())
GQuark units_error_quark(void);

typedef enum {
  UNITS_ERROR_PARSE,
} UnitsError;

typedef enum {
  UNITS_NUMBER,     /* a plain number (bare multipliers allowed) */
  UNITS_BANDWIDTH,  /* bytes per second */
  UNITS_TIME,       /* seconds */
  UNITS_SIZE,       /* bytes */
} units_quantity;

/* The value of `text` (spaces around it are ignored) in the quantity's
 * unit; FALSE + UNITS_ERROR_PARSE "'TEXT': expected ..." (or naming the
 * quantity the unit belongs to, "'10ns' is a time, expected a bandwidth
 * ...") otherwise, also when the value is not a finite double. */
gboolean units_parse(const char *text, units_quantity q, double *out, GError **error);

/* The quantity's unit, for axis labels: "bytes/s", "s", "bytes" or "". */
const char *units_name(units_quantity q);

/* The units of each quantity, a few lines for --help from the one table
 * units_parse reads (caller frees). */
char *units_help(void);

/* Splits "100Gbit/s" into its number (100) and the text after it
 * ("Gbit/s", spaces dropped; "" without a unit); FALSE when `text` does not
 * start with a number. The unit is not checked. */
gboolean units_split(const char *text, double *number, const char **rest);

G_END_DECLS
