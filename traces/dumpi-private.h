/* dumpi-private.h - what the DUMPI reader (input-dumpi.c) and its table of
 * calls (dumpi-calls.c) share; not for users of traces/.
 *
 * A record of a DUMPI .bin file is a 16-bit function label (big-endian,
 * as every number of the format), a mask byte (bit 6: a 16-bit thread
 * follows; bits 2 and 3: CPU and wall times, each a start and a stop of
 * 16-bit seconds past the file's offset and 32-bit nanoseconds; bit 7:
 * performance counters; bits 0-1: statuses were recorded), then the call's
 * fields in the order `layout` gives them:
 *   1, 2, 4, 8  an integer of that many bytes
 *   A           32-bit count, then that many 32-bit integers
 *   h, b        32-bit count, then that many 16-bit / 8-bit integers
 *   C           32-bit count, then that many bytes (a string)
 *   D           32-bit count of C;  E  32-bit count of D;  B  count of A
 *   S           statuses (only when the mask says so): a 32-bit count,
 *               then per status 32-bit bytes and source, 8-bit cancelled
 *               and error, 32-bit tag (files from 0.6.3 on)
 *   [ ... ]     fields present only on the root: a layout starting with
 *               '?' and two digits names the fields (0-based) holding the
 *               caller's rank and the root
 * `layout` NULL: the label is never written (no reader knows its fields).
 */
#pragma once

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

typedef struct dumpi_call {
  const char *name;        /* "MPI_Send"; NULL for DUMPI_ALL_FUNCTIONS */
  const char *layout;
  const char *old_layout;  /* files before version `before` (NULL: none) */
  uint32_t before;         /* major << 16 | minor << 8 | subminor */
} dumpi_call;

/* Indexed by function label. */
extern const dumpi_call dumpi_calls[];
extern const int dumpi_ncalls;

enum { DUMPI_MAX_FIELDS = 16, DUMPI_ANY = -1 };

/* A field of the record read last. */
typedef struct dumpi_field {
  int64_t v;          /* a number; S: the statuses' count */
  int32_t off, len;   /* arrays: in bin->values; len -1: absent (root only);
                       * S: len statuses, each its source and tag */
} dumpi_field;

/* One .bin file being read (dumpi-bin.c). */
typedef struct dumpi_bin {
  const char *path;
  FILE *f;
  int64_t size, pos, footer, body;
  uint32_t version;
  uint32_t cpu_off, wall_off;
  int nperf;
  GArray *dtsize;      /* int64: bytes by datatype id (the file's table) */
  /* the record read last */
  int64_t at;          /* its offset */
  int label;
  uint8_t mask;
  gboolean has_wall, has_cpu;
  uint64_t sec[4], nsec[4];   /* cpu start, stop, wall start, stop */
  dumpi_field fields[DUMPI_MAX_FIELDS];
  int nfields;
  GArray *values;      /* int64 */
} dumpi_bin;

/* Opens `path` (borrowed): index, header, labels, sizes; positioned at the
 * first record. FALSE + error (file, offset, expectation). */
gboolean bin_open(dumpi_bin *b, const char *path, GError **error);
void bin_close(dumpi_bin *b);
/* The next record into b: TRUE with *got FALSE after the last. */
gboolean bin_next(dumpi_bin *b, gboolean *got, GError **error);
/* Clock `clock` (0 CPU, 1 wall) at the record's start (stop 0) or stop, ns. */
int64_t bin_ns(const dumpi_bin *b, int clock, int stop);
/* FALSE + error "FILE: record at byte N: what". */
gboolean bin_fail(dumpi_bin *b, GError **error, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
