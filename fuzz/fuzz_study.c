/* fuzz_study.c - study files (study/file.c): checked and loaded, with
 * relative paths taken from the repository's tests/data (so real matrices
 * and traces are reachable); nothing is run. */
#include "fuzz.h"
#include "study/study.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FUZZ_DATA_DIR
#define FUZZ_DATA_DIR "tests/data"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = fuzz_string(data, size);
  GError *e = NULL;
  study *s = study_load("fuzz.ini", text, FUZZ_DATA_DIR, &e);
  study_free(s);
  g_clear_error(&e);
  g_free(text);
  return 0;
}
