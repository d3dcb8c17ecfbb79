/* fuzz_cells_log.c - the cell logs of a study's output folder
 * (study/store.c): the input is one log in STORE/cells, read back for
 * a small study (a matrix under two labels and a trace, two strategies,
 * two models: 8 cells, 6 keys) as `mapsim study --merge` reads it.
 *
 * The input's first byte holds flags, the rest is the log. "@K" and a
 * digit d stand for the key of cell d (mod 8), so that the fuzzer reaches
 * records of this study's cells; with flag 1 every line gets the checksum
 * of its content (the ,"sum":"..." member of study/study.h, replacing one it
 * has), so that records get past their checksum into the checks of their
 * row. Checks: every cell that got a row has its own key and labels, and
 * the results of all of them are valid UTF-8 in CSV. */
#include "fuzz.h"
#include "sim/row.h"
#include "study/study.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef FUZZ_DATA_DIR
#define FUZZ_DATA_DIR "tests/data"
#endif

#define SUM_MEMBER ",\"sum\":\""

static const char study_text[] =
  "[study]\n"
  "traces = traces/casita-4_mpi_ls_barr\n"
  "platforms = torus:2x2x2\n"
  "strategies = identity; greedy\n"
  "models = analytic; flow\n"
  "[input pairA]\n"
  "matrix = y_pair.csv\n"
  "[input pairB]\n"
  "matrix = y_pair.csv\n";

static study *the_study;
static char *store, *log_path;

static void setup(void)
{
  if (the_study)
    return;
  fuzz_init();
  GError *e = NULL;
  the_study = study_load("fuzz-cells.ini", study_text, FUZZ_DATA_DIR, &e);
  if (!the_study) {
    fprintf(stderr, "fuzz_cells_log: %s\n", e->message);
    abort();
  }
  store = g_build_filename(fuzz_dir, "store", NULL);
  g_autofree char *cells = g_build_filename(store, "cells", NULL);
  if (g_mkdir_with_parents(cells, 0755) != 0)
    abort();
  log_path = g_build_filename(cells, "cells-G00000001-fuzz-1.jsonl", NULL);
}

/* The log of the input: keys for "@K<d>", and with `sign` every line's
 * checksum made right. */
static GString *log_text(const char *in, size_t len, gboolean sign)
{
  GString *out = g_string_sized_new(len + 64);
  for (size_t i = 0; i < len; i++) {
    if (i + 2 < len && in[i] == '@' && in[i + 1] == 'K' && g_ascii_isdigit(in[i + 2])) {
      g_string_append(out, the_study->cells[(in[i + 2] - '0') % the_study->ncells].key);
      i += 2;
    } else {
      g_string_append_c(out, in[i]);
    }
  }
  if (!sign)
    return out;
  GString *signed_ = g_string_sized_new(out->len + 128);
  for (size_t at = 0; at < out->len;) {
    const char *nl = memchr(out->str + at, '\n', out->len - at);
    size_t end = nl ? (size_t)(nl - out->str) : out->len;
    GString *line = g_string_new_len(out->str + at, (gssize)(end - at));
    char *sum = g_strrstr_len(line->str, (gssize)line->len, SUM_MEMBER);
    if (sum) /* the body without its old checksum */
      g_string_truncate(line, (gsize)(sum - line->str));
    else if (line->len && line->str[line->len - 1] == '}')
      g_string_truncate(line, line->len - 1);
    GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
    g_checksum_update(c, (const guchar *)line->str, (gssize)line->len);
    g_checksum_update(c, (const guchar *)"}", 1);
    g_string_append_len(signed_, line->str, (gssize)line->len);
    g_string_append_printf(signed_, SUM_MEMBER "%s\"}", g_checksum_get_string(c));
    if (nl)
      g_string_append_c(signed_, '\n');
    g_checksum_free(c);
    g_string_free(line, TRUE);
    at = end + 1;
  }
  g_string_free(out, TRUE);
  return signed_;
}

static void reset_cells(study *s)
{
  for (int i = 0; i < s->ncells; i++) {
    study_cell *c = &s->cells[i];
    g_clear_pointer(&c->row, row_free);
    g_clear_error(&c->error);
    c->stored = FALSE;
  }
  if (s->notes)
    g_ptr_array_set_size(s->notes, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  setup();
  if (size < 1)
    return 0;
  GString *text = log_text((const char *)data + 1, size - 1, data[0] & 1);
  FILE *f = fopen(log_path, "wb");
  if (!f || fwrite(text->str, 1, text->len, f) != text->len || fclose(f) != 0)
    abort();
  g_string_free(text, TRUE);
  study *s = the_study;
  GError *e = NULL;
  int missing = study_collect(s, store, &e);
  g_clear_error(&e);
  GPtrArray *rows = g_ptr_array_new();
  for (int i = 0; missing >= 0 && i < s->ncells; i++) {
    const study_cell *c = &s->cells[i];
    if (!c->row)
      continue;
    if (g_strcmp0(row_get_string(c->row, "key"), c->key) != 0 ||
        g_strcmp0(row_get_string(c->row, "input"), s->inputs[c->input].label) != 0 ||
        g_strcmp0(row_get_string(c->row, "strategy"), s->strategies[c->strategy].label) != 0) {
      fprintf(stderr, "fuzz_cells_log: cell %d got the row of another cell\n", i);
      abort();
    }
    g_ptr_array_add(rows, c->row);
  }
  char *csv = rows_csv((const result_row *const *)rows->pdata, (int)rows->len);
  if (!g_utf8_validate(csv, -1, NULL)) {
    fprintf(stderr, "fuzz_cells_log: results that are not UTF-8\n");
    abort();
  }
  g_free(csv);
  g_ptr_array_free(rows, TRUE);
  reset_cells(s);
  return 0;
}
