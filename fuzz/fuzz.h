/* fuzz.h - what the libFuzzer harnesses share.
 *
 * mapsim's loaders take paths, so a harness writes its input to a file of
 * the name the loader expects (fuzz_file: one private folder per process,
 * on /dev/shm when there is one, removed at exit). Every harness runs with
 * a small memory budget (64 MiB), so inputs that ask for a large platform
 * or matrix reach the limits at once instead of allocating, and with
 * GLib's messages silenced except criticals, which abort (a g_return_if_fail
 * that fails is a bug): a harness fails only by a crash, a sanitizer
 * report, a leak, a hang, a critical or an assertion of its own.
 *
 * Each harness is one file fuzz_NAME.c defining LLVMFuzzerTestOneInput; a
 * harness may not keep state between inputs except what fuzz_init made.
 * Not for: the command line (tests/test_robust.c), timing.
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/budget.h"
#include "util/output.h"

static char *fuzz_dir;

/* At exit: removes the fuzzer's temporary folder (fuzz_dir) and everything
 * below it, when one was made. */
static void fuzz_cleanup(void)
{
  if (fuzz_dir)
    output_remove_tree(fuzz_dir);
}

/* Warnings and notes are silent; a critical or an error is a finding: said
 * and aborted (libFuzzer keeps the input of an abort, not of GLib's
 * breakpoint trap). */
static void fuzz_log(const gchar *domain, GLogLevelFlags level, const gchar *message,
                     gpointer user)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) {
    fprintf(stderr, "%s: %s\n", domain ? domain : "", message);
    abort();
  }
}

/* Once per process: the folder, the budget, the silence. */
static void fuzz_init(void)
{
  if (fuzz_dir)
    return;
  const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir();
  fuzz_dir = g_build_filename(base, "mapsim-fuzz-XXXXXX", NULL);
  if (!g_mkdtemp(fuzz_dir))
    abort();
  atexit(fuzz_cleanup);
  budget_set_memory(UINT64_C(64) << 20);
  g_log_set_default_handler(fuzz_log, NULL);
}

/* Writes `size` bytes to the file `name` of the process's folder and
 * returns its path (owned by the caller). */
G_GNUC_UNUSED static char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
  fuzz_init();
  char *path = g_build_filename(fuzz_dir, name, NULL);
  if (!g_file_set_contents(path, (const char *)data, (gssize)size, NULL))
    abort();
  return path;
}

/* The input as a NUL-terminated string (caller frees). */
G_GNUC_UNUSED static char *fuzz_string(const uint8_t *data, size_t size)
{
  fuzz_init();
  return g_strndup((const char *)data, size);
}
