/* test_study_store.c - the cell store of `mapsim study` (study/store.c):
 * the newest record of a cell wins; labels are results, not keys (renamed
 * labels relabel stored cells, two labels on one content are two rows,
 * nothing is stored twice); run conditions (the memory budget) are never
 * stored; one study per output folder at a time (real concurrent
 * processes); the temporaries of a killed run go at the next start; names
 * that are not UTF-8 are escaped and read back; damaged records are
 * reported and rerun; logs are regular files within the budget; emitted
 * batch files are never replaced; and a study SIGKILLed at random moments
 * ends with the results of an uninterrupted run. */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "studytest.h"

/* Writes the study file NAME.ini with `text` into `dir`; caller frees. */
static char *write_study(const char *dir, const char *name, const char *text)
{
  g_autofree char *file = g_strconcat(name, ".ini", NULL);
  char *path = g_build_filename(dir, file, NULL);
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

/* `mapsim study FILE -o DIR -q --no-report` and up to three more options. */
static int study(char **out, char **err, const char *file, const char *dir, const char *x1,
                 const char *x2, const char *x3)
{
  const char *args[] = { "study", file, "-o", dir, "-q", "--no-report", x1, x2, x3, NULL };
  return tu_run(out, err, args);
}

/* "N cells: R read from DIR/cells, X run" of a study's output. */
static void assert_counts(const char *out, int read, int ran)
{
  g_autofree char *want = g_strdup_printf(" %d read from ", read);
  g_autofree char *want_ran = g_strdup_printf(", %d run on ", ran);
  cr_assert(strstr(out, want) && strstr(out, want_ran), "expected %d read, %d run:\n%s", read,
            ran, out);
}

/* A small study of the ring trace: 3 strategies on one platform. */
static char *ring_study(const char *dir, const char *name)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nplatforms = torus:2x2x2\n"
                                          "strategies = identity; random; greedy\n"
                                          "models = flow\n", ring);
  return write_study(dir, name, text);
}

/* The path of the only log in DIR/cells. */
static char *only_log(const char *dir)
{
  char *log = NULL;
  cr_assert_gt(count_cells(dir, &log), 0, "no log in %s", dir);
  return log;
}

/* ---- 1: the newest record wins ---- */

/* A --fresh run stores new records of every cell (map_s, a wall-clock
 * time, differs from the first run's); a plain run afterwards must give
 * the fresh results, map_s included, not the first run's. */
Test(study_store, newest_record_wins_after_fresh, .timeout = 120)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *ring = tu_src("traces/data/ring-8");
  /* nine strategies: their nine times cannot all come out the same again */
  g_autofree char *text = g_strdup_printf(
      "[study]\ntraces = %s\nplatforms = torus:2x2x2\nmodels = flow\nstrategies = identity; "
      "random; hilbert; morton; greedy; greedy+wh; greedy+wh+mc; kl; scotch\n", ring);
  g_autofree char *file = write_study(tmp, "s", text);
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  char *out = NULL;
  cr_assert_eq(study(NULL, NULL, file, dir, NULL, NULL, NULL), 0);
  g_autofree char *first = tu_read(dir, "results.csv");
  cr_assert_eq(study(NULL, NULL, file, dir, "--fresh", NULL, NULL), 0);
  g_autofree char *fresh = tu_read(dir, "results.csv");
  cr_assert_str_neq(first, fresh, "map_s did not change: nothing tells the runs apart");
  cr_assert_eq(study(&out, NULL, file, dir, NULL, NULL, NULL), 0);
  assert_counts(out, 9, 0);
  g_free(out);
  g_autofree char *plain = tu_read(dir, "results.csv");
  cr_assert_str_eq(plain, fresh, "the plain run brought back older records");
}

/* ---- 4 (and 1 as the issue saw it): run conditions are not stored ---- */

/* Cells that fail for the memory budget of the run are shown but not
 * stored: a run without the budget computes them, and a plain run after
 * it keeps its results. */
Test(study_store, budget_failures_are_not_stored, .timeout = 120)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *text = g_strdup_printf("[study]\ntraces = %s\nplatforms = torus:4x4x4\n"
                                          "strategies = identity; greedy\nmodels = flow\n", cg);
  g_autofree char *file = write_study(tmp, "b", text);
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  char *out = NULL, *err = NULL;
  cr_assert_eq(study(&out, &err, file, dir, "--max-memory", "4M", NULL), 2, "%s%s", out, err);
  cr_assert_not_null(strstr(err, "more than the memory budget"), "%s", err);
  g_autofree char *failed = tu_read(dir, "results.csv");
  cr_assert_not_null(strstr(failed, "memory budget"), "the error is in the results:\n%s", failed);
  cr_assert_eq(count_cells(dir, NULL), 0, "a budget failure was stored");
  g_free(out);
  g_free(err);
  cr_assert_eq(study(&out, NULL, file, dir, NULL, NULL, NULL), 0, "%s", out);
  assert_counts(out, 0, 2);
  g_free(out);
  cr_assert_eq(study(&out, NULL, file, dir, NULL, NULL, NULL), 0, "%s", out);
  assert_counts(out, 2, 0);
  g_free(out);
  g_autofree char *good = tu_read(dir, "results.csv");
  cr_assert_null(strstr(good, "memory budget"), "%s", good);
}

/* ---- 3: labels are results, not keys ---- */

/* Renamed labels of an input, a platform and a strategy reach the results
 * without any cell running again. */
Test(study_store, renamed_labels_relabel_stored_cells, .timeout = 120)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *ring = tu_src("traces/data/ring-8");
#define LABEL_FMT "[study]\nmodels = flow\n[input %s]\ntrace = %s\n[platform %s]\n" \
                  "spec = torus:2x2x2\n[strategy %s]\npipeline = greedy\n"
  g_autofree char *v1 = g_strdup_printf(LABEL_FMT, "ringA", ring, "small", "gr");
  g_autofree char *v2 = g_strdup_printf(LABEL_FMT, "ringX", ring, "tiny", "greedy-renamed");
  g_autofree char *file = write_study(tmp, "l", v1);
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  char *out = NULL;
  cr_assert_eq(study(NULL, NULL, file, dir, NULL, NULL, NULL), 0);
  cr_assert(g_file_set_contents(file, v2, -1, NULL));
  cr_assert_eq(study(&out, NULL, file, dir, NULL, NULL, NULL), 0);
  assert_counts(out, 1, 0);
  g_free(out);
  g_autofree char *csv = tu_read(dir, "results.csv");
  cr_assert_not_null(strstr(csv, "\nringX,bytes,tiny,greedy-renamed,flow,1,,"), "%s", csv);
  cr_assert_null(strstr(csv, "ringA"), "%s", csv);
  /* the same as a fresh run of the renamed study */
  g_autofree char *other = g_build_filename(tmp, "other", NULL);
  cr_assert_eq(study(NULL, NULL, file, other, NULL, NULL, NULL), 0);
  g_autofree char *want = tu_read(other, "results.csv");
  g_autofree char *a = csv_without(csv, "map_s"), *b = csv_without(want, "map_s");
  cr_assert_str_eq(a, b);
}

/* Two labels on identical content are two rows with their own labels; the
 * content runs and is stored once, and a rerun stores nothing again. */
Test(study_store, two_labels_on_one_content_are_two_rows, .timeout = 120)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *text = g_strdup_printf(
      "[study]\nplatforms = torus:2x2x2\nmodels = flow\n[input ringA]\ntrace = %s\n"
      "[input ringB]\ntrace = %s\n[strategy g1]\npipeline = greedy\n[strategy g2]\n"
      "pipeline = greedy\n", ring, ring);
  g_autofree char *file = write_study(tmp, "d", text);
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  char *out = NULL;
  cr_assert_eq(study(&out, NULL, file, dir, NULL, NULL, NULL), 0, "%s", out);
  assert_counts(out, 0, 4);
  g_free(out);
  cr_assert_eq(count_cells(dir, NULL), 1, "one content, one record");
  for (int run = 0; run < 2; run++) {
    cr_assert_eq(study(&out, NULL, file, dir, NULL, NULL, NULL), 0, "%s", out);
    assert_counts(out, 4, 0);
    g_free(out);
    cr_assert_eq(count_cells(dir, NULL), 1, "a rerun stored records again");
  }
  g_autofree char *csv = tu_read(dir, "results.csv");
  const char *rows[] = { "ringA,bytes,torus-2x2x2,g1,", "ringA,bytes,torus-2x2x2,g2,",
                         "ringB,bytes,torus-2x2x2,g1,", "ringB,bytes,torus-2x2x2,g2," };
  g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
  for (int i = 0; i < 4; i++)
    cr_assert(g_str_has_prefix(lines[i + 1], rows[i]), "row %d: %s", i + 1, lines[i + 1]);
}

/* ---- 5: one study per output folder ---- */

/* A study of 108 cells of about 10 ms each on one thread: it holds its
 * folder for a second or more. */
static char *slow_study(const char *tmp)
{
  g_autofree char *trace = g_build_filename(tmp, "a2a32", NULL);
  const char *gen[] = { "gen", "--pattern", "alltoall", "--ranks", "32", "--bytes", "65536",
                        "--iterations", "3", "-o", trace, NULL };
  cr_assert_eq(tu_run(NULL, NULL, gen), 0);
  return write_study(tmp, "slow", "[study]\ntraces = a2a32\n"
                     "platforms = torus:4x4x4; mesh:4x4x4; haec:4x4x4\n"
                     "strategies = identity; random; hilbert; morton; greedy; greedy+wh\n"
                     "models = flow; packet\nseeds = 1; 2; 3\n");
}

/* Is `pid` still running (it is not reaped: reap() does that)? */
static gboolean still_running(GPid pid)
{
  siginfo_t info = { 0 };
  return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

static int reap(GPid pid)
{
  int status;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  g_spawn_close_pid(pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The holder while a try runs: a failed assertion ends the test, .fini
 * (kill_holder) ends the holder, which would write on into a folder that
 * is gone. */
static GPid live_holder;

static void kill_holder(void)
{
  if (live_holder)
    kill(live_holder, SIGKILL);
}

/* What a test tries on folder `dir` while study `holder` holds it; TRUE
 * when the holder was still running at the end, so the try told. */
typedef gboolean (*try_held)(const char *file, const char *dir, GPid holder);

/* Runs `try` while `mapsim study FILE -o DIR -j 1 [X1 X2]` holds a new
 * folder DIR (once it has stored a cell); up to five times,
 * as long as the holder ended too early to tell. The holder exits 0. */
static void while_held(const char *file, const char *x1, const char *x2, try_held try)
{
  gboolean told = FALSE;
  for (int attempt = 0; attempt < 5 && !told; attempt++) {
    g_autofree char *fresh = tu_tmp_dir();
    g_autofree char *dir = g_build_filename(fresh, "out", NULL);
    const char *argv[] = { g_getenv("MAPSIM"), "study", file, "-o", dir, "-j", "1", "-q",
                           "--no-report", x1, x2, NULL };
    GPid holder = live_holder = study_start(argv, 1);
    told = try(file, dir, holder);
    live_holder = 0;
    int status = reap(holder);
    cr_assert_eq(status, 0, "the holder exited %d", status);
  }
  cr_assert(told, "the first study always ended before the second one could tell");
}

/* A second study exits 2 at once, naming the holder's pid. */
static gboolean second_exits_2(const char *file, const char *dir, GPid holder)
{
  char *out = NULL, *err = NULL;
  int status = study(&out, &err, file, dir, "-j", "1", NULL);
  gboolean told = still_running(holder);
  if (told) {
    g_autofree char *pid = g_strdup_printf("(pid %d, ", (int)holder);
    cr_assert_eq(status, 2, "%s%s", out, err);
    cr_assert_str_eq(out, "", "the second study ran: %s", out);
    cr_assert_eq(tu_lines(err), 1, "%s", err);
    cr_assert_not_null(strstr(err, "in use by another mapsim study"), "%s", err);
    cr_assert_not_null(strstr(err, pid), "expected %s in: %s", pid, err);
  }
  g_free(out);
  g_free(err);
  return told;
}

/* With --wait it waits, then reads what the holder stored. */
static gboolean second_waits(const char *file, const char *dir, GPid holder)
{
  char *out = NULL, *err = NULL;
  cr_assert_eq(study(&out, &err, file, dir, "--wait", NULL, NULL), 0, "%s%s", out, err);
  gboolean told = strstr(err, "; waiting for it (--wait)\n") != NULL;
  if (told)
    assert_counts(out, 108, 0);
  g_free(out);
  g_free(err);
  return told;
}

Test(study_store, second_study_on_a_folder_exits_2_or_waits, .timeout = 600, .fini = kill_holder)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = slow_study(tmp);
  while_held(file, NULL, NULL, second_exits_2);
  while_held(file, NULL, NULL, second_waits);
}

/* While slice 1/2 runs, a second 1/2 and a whole run exit 2 and slice 2/2
 * runs beside it. */
static gboolean slices_beside(const char *file, const char *dir, GPid holder)
{
  char *err1 = NULL, *err2 = NULL, *err3 = NULL;
  int same = study(NULL, &err1, file, dir, "--slice", "1/2", NULL);
  int whole = study(NULL, &err2, file, dir, NULL, NULL, NULL);
  int other = study(NULL, &err3, file, dir, "--slice", "2/2", "--threads=2");
  gboolean told = still_running(holder);
  if (told) {
    cr_assert_eq(same, 2, "%s", err1);
    cr_assert_not_null(strstr(err1, "in use by another mapsim study"), "%s", err1);
    cr_assert_eq(whole, 2, "%s", err2);
    cr_assert_eq(other, 0, "%s", err3);
  }
  g_free(err1);
  g_free(err2);
  g_free(err3);
  return told;
}

/* The slices of a batch run share the folder, but a slice runs once and a
 * whole run waits for the slices. */
Test(study_store, slices_share_the_folder_but_not_a_slice, .timeout = 600, .fini = kill_holder)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = slow_study(tmp);
  while_held(file, "--slice", "1/2", slices_beside);
}

/* ---- 14: the temporaries of a killed run ---- */

/* `mapsim gen` writing a large trace to DIR/NAME, SIGKILLed once its
 * temporary is there; returns the temporary's path. */
static char *killed_while_writing(const char *dir, const char *name)
{
  g_autofree char *out = g_build_filename(dir, name, NULL);
  g_autofree char *prefix = g_strdup_printf(".%s.tmp-", name);
  const char *argv[] = { g_getenv("MAPSIM"), "gen", "--pattern", "ring", "-n", "30000", "-i",
                         "2", "--gap", "0", "-o", out, "--quiet", NULL };
  GPid pid = spawn_quiet(argv);
  char *found = NULL;
  for (int i = 0; i < 60000 && !found && still_running(pid); i++) {
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *entry;
    while (d && !found && (entry = g_dir_read_name(d)))
      if (g_str_has_prefix(entry, prefix))
        found = g_build_filename(dir, entry, NULL);
    if (d)
      g_dir_close(d);
    g_usleep(1000);
  }
  kill(pid, SIGKILL);
  reap(pid);
  cr_assert_not_null(found, "gen wrote no temporary %s* in %s", prefix, dir);
  return found;
}

/* What runs killed while writing into the study's folder and its figures
 * left goes at the next start of the study, whatever output it was for
 * (the study writes no "junk" of its own); a live process's temporary and
 * other files stay. */
Test(study_store, temporaries_of_a_killed_run_are_removed, .timeout = 300)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = ring_study(tmp, "t");
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  g_autofree char *figures = g_build_filename(dir, "figures", NULL);
  cr_assert_eq(g_mkdir_with_parents(figures, 0755), 0);
  g_autofree char *stale = killed_while_writing(dir, "junk");
  g_autofree char *stale_fig = killed_while_writing(figures, "junk");
  /* .junk.tmp-MACHINE-PID-XXXXXX, made by this (live) process */
  g_autofree char *base = g_path_get_basename(stale);
  g_auto(GStrv) parts = g_strsplit(base + strlen(".junk.tmp-"), "-", 3);
  cr_assert_eq(g_strv_length(parts), 3, "%s", base);
  g_autofree char *alive = g_strdup_printf("%s/.junk.tmp-%s-%d-alive0", dir, parts[0],
                                           (int)getpid());
  g_autofree char *mine = g_build_filename(dir, "notes.txt", NULL);
  cr_assert(g_file_set_contents(alive, "live", -1, NULL));
  cr_assert(g_file_set_contents(mine, "mine", -1, NULL));
  cr_assert_eq(study(NULL, NULL, file, dir, NULL, NULL, NULL), 0);
  cr_assert_not(g_file_test(stale, G_FILE_TEST_EXISTS), "%s left", stale);
  cr_assert_not(g_file_test(stale_fig, G_FILE_TEST_EXISTS), "%s left", stale_fig);
  cr_assert(g_file_test(alive, G_FILE_TEST_EXISTS), "a live process's temporary went");
  cr_assert(g_file_test(mine, G_FILE_TEST_EXISTS), "notes.txt went");
}

/* ---- 11: names that are not UTF-8 ---- */

/* A trace folder with a Latin-1 name: results.csv, results.json and the
 * report are valid UTF-8 and show the name escaped, and the cells are read
 * back by the next run. */
Test(study_store, latin1_input_name_is_escaped_and_read_back, .timeout = 120)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *ring = tu_src("traces/data/ring-8");
  g_autofree char *latin1 = g_build_filename(tmp, "ring\xe9", NULL);
  tu_copy_dir(ring, latin1);
  g_autofree char *text = g_strdup_printf("[study]\nname = latin\ntraces = %s\n"
                                          "platforms = torus:2x2x2\nstrategies = identity\n"
                                          "models = flow\n", latin1);
  g_autofree char *file = write_study(tmp, "u", text);
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  char *out = NULL;
  const char *with_report[] = { "study", file, "-o", dir, "-q", NULL };
  cr_assert_eq(tu_run(&out, NULL, with_report), 0, "%s", out);
  cr_assert(g_utf8_validate(out, -1, NULL), "%s", out);
  g_free(out);
  const char *files[] = { "results.csv", "results.json", "index.html", "correlations.csv" };
  for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *t = tu_read(dir, files[i]);
    cr_assert(g_utf8_validate(t, -1, NULL), "%s is not UTF-8", files[i]);
  }
  g_autofree char *csv = tu_read(dir, "results.csv");
  cr_assert_not_null(strstr(csv, "\nring\\xE9,bytes,"), "%s", csv);
  g_autofree char *json = tu_read(dir, "results.json");
  JsonParser *jp = json_parser_new();
  GError *e = NULL;
  cr_assert(json_parser_load_from_data(jp, json, -1, &e), "%s", e ? e->message : "");
  g_object_unref(jp);
  cr_assert_eq(tu_run(&out, NULL, with_report), 0);
  assert_counts(out, 1, 0);
  g_free(out);
}

/* ---- 12: damaged records ---- */

/* Line `line` (0-based) of `log` changed by `edit` (which may put a NUL
 * byte in it). */
static void edit_log_line(const char *log, int line, void (*edit)(GString *))
{
  char *text = NULL;
  gsize len;
  cr_assert(g_file_get_contents(log, &text, &len, NULL));
  GString *all = g_string_new_len(text, (gssize)len);
  g_free(text);
  gsize start = 0;
  for (int i = 0; i < line; i++)
    start = (gsize)(strchr(all->str + start, '\n') - all->str) + 1;
  gsize end = (gsize)(strchr(all->str + start, '\n') - all->str);
  GString *l = g_string_new_len(all->str + start, (gssize)(end - start));
  edit(l);
  g_string_erase(all, (gssize)start, (gssize)(end - start));
  g_string_insert_len(all, (gssize)start, l->str, (gssize)l->len);
  cr_assert(g_file_set_contents(log, all->str, (gssize)all->len, NULL));
  g_string_free(l, TRUE);
  g_string_free(all, TRUE);
}

/* A changed digit in both the value and the text of hop_bytes: a record
 * that still parses and holds together, but not what was computed. */
static void change_digit(GString *l)
{
  char *at = strstr(l->str, "\"hop_bytes\",");
  cr_assert_not_null(at);
  at += strlen("\"hop_bytes\",");
  char *text = strchr(at, '"') + 1;
  cr_assert(g_ascii_isdigit(*at) && g_ascii_isdigit(*text));
  *at = *at == '9' ? '1' : (char)(*at + 1);
  *text = *at;
}

/* A record cut in the middle (its end lost, its newline kept). */
static void cut_in_half(GString *l)
{
  g_string_truncate(l, l->len / 2);
  g_string_append(l, "]]}");
}

/* A NUL byte in the middle of the record. */
static void nul_byte(GString *l)
{
  l->str[l->len / 2] = '\0';
}

static void damaged_record_case(void (*edit)(GString *), const char *why)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = ring_study(tmp, "c");
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  cr_assert_eq(study(NULL, NULL, file, dir, "-j", "1", NULL), 0);
  g_autofree char *want = tu_read(dir, "results.csv");
  g_autofree char *log = only_log(dir);
  edit_log_line(log, 1, edit);
  char *out = NULL, *err = NULL;
  cr_assert_eq(study(&out, &err, file, dir, NULL, NULL, NULL), 0, "%s%s", out, err);
  assert_counts(out, 2, 1);
  g_autofree char *line = g_strdup_printf("mapsim: warning: %s:2: a damaged cell record (%s), "
                                          "ignored: its cell runs again\n", log, why);
  cr_assert_str_eq(err, line);
  g_free(out);
  g_free(err);
  g_autofree char *got = tu_read(dir, "results.csv");
  g_autofree char *a = csv_without(want, "map_s"), *b = csv_without(got, "map_s");
  cr_assert_str_eq(a, b);
}

Test(study_store, changed_digit_is_reported_and_rerun, .timeout = 120)
{
  damaged_record_case(change_digit, "its checksum does not match its content");
}

Test(study_store, cut_record_is_reported_and_rerun, .timeout = 120)
{
  damaged_record_case(cut_in_half, "no checksum at its end");
}

/* ---- 13: logs are regular files read within the budget ---- */

/* One NUL byte damages its record only: the records after it are read. */
Test(study_store, nul_byte_damages_one_record_only, .timeout = 120)
{
  damaged_record_case(nul_byte, "a NUL byte in it");
}

/* `timeout 60 mapsim study FILE -o DIR ...`: a study that hangs is killed
 * (status 124) instead of hanging the test. */
static int study_bounded(char **err, const char *file, const char *dir, const char *x1,
                         const char *x2)
{
  char *argv[] = { "timeout", "60", (char *)g_getenv("MAPSIM"), "study", (char *)file, "-o",
                   (char *)dir, "-q", "--no-report", (char *)x1, (char *)x2, NULL };
  return tu_spawn(argv, NULL, err);
}

/* A FIFO, a link to /dev/zero and a log larger than a quarter of the
 * budget in DIR/cells: one line naming it, exit 2, nothing run. */
Test(study_store, logs_that_are_no_regular_files_within_budget_are_refused, .timeout = 300)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = ring_study(tmp, "f");
  const char *kinds[] = { "fifo", "zero", "big" };
  const char *says[] = { ": a FIFO, expected a cells log", ": a character device, expected",
                         ": more than 16 MiB, expected a cells log of at most a quarter" };
  for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
    g_autofree char *dir = g_build_filename(tmp, kinds[i], NULL);
    cr_assert_eq(study(NULL, NULL, file, dir, NULL, NULL, NULL), 0);
    g_autofree char *log = g_build_filename(dir, "cells", "cells-G00000007-elsewhere-1.jsonl",
                                            NULL);
    if (i == 0) {
      cr_assert_eq(mkfifo(log, 0644), 0);
    } else if (i == 1) {
      cr_assert_eq(symlink("/dev/zero", log), 0);
    } else {
      int fd = open(log, O_WRONLY | O_CREAT, 0644);
      cr_assert(fd >= 0 && ftruncate(fd, (off_t)17 << 20) == 0);
      close(fd);
    }
    char *err = NULL;
    int status = study_bounded(&err, file, dir, "--max-memory", "64M");
    cr_assert_eq(status, 2, "%s: status %d: %s", kinds[i], status, err);
    g_autofree char *want = g_strconcat("mapsim: ", log, says[i], NULL);
    cr_assert(g_str_has_prefix(err, want), "%s:\n  got:      %s\n  expected: %s...", kinds[i],
              err, want);
    cr_assert_eq(tu_lines(err), 1, "%s", err);
    g_free(err);
  }
}

/* ---- 14: emitted batch files, the slice limit ---- */

Test(study_store, emit_slurm_never_replaces_another_study, .timeout = 120)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = ring_study(tmp, "e");
  g_autofree char *dir = g_build_filename(tmp, "batch", NULL);
  const char *emit4[] = { "study", file, "--emit-slurm", dir, "--slices", "2", NULL };
  const char *emit3[] = { "study", file, "--emit-slurm", dir, "--slices", "3", NULL };
  cr_assert_eq(tu_run(NULL, NULL, emit4), 0);
  g_autofree char *script = tu_read(dir, "study.sbatch");
  cr_assert_eq(tu_run(NULL, NULL, emit4), 0, "the same study emitted again");
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, emit3), 2, "%s", out);
  g_autofree char *sbatch = g_build_filename(dir, "study.sbatch", NULL);
  g_autofree char *want = g_strconcat("mapsim: ", sbatch, ": exists and is not this study's", NULL);
  cr_assert(g_str_has_prefix(err, want), "%s", err);
  cr_assert_str_eq(out, "");
  g_free(out);
  g_free(err);
  g_autofree char *after = tu_read(dir, "study.sbatch");
  cr_assert_str_eq(after, script, "replaced");
}

Test(study_store, slice_beyond_the_limit_states_it, .timeout = 60)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = ring_study(tmp, "k");
  g_autofree char *dir = g_build_filename(tmp, "out", NULL);
  char *err = NULL;
  cr_assert_eq(study(NULL, &err, file, dir, "--slice", "1/1048577", NULL), 2);
  cr_assert_str_eq(err, "mapsim: --slice 1/1048577: expected K/N with 1 <= K <= N <= 1048576, "
                        "e.g. 2/8\n");
  g_free(err);
  const char *emit[] = { "study", file, "--emit-slurm", dir, "--slices", "1048577", NULL };
  cr_assert_eq(tu_run(NULL, &err, emit), 2);
  cr_assert_str_eq(err, "mapsim: study: --slices 1048577: expected 1 to 1048576\n");
  g_free(err);
}

/* ---- crash consistency ---- */

/* results.csv of DIR without map_s, and no temporary left beside it. */
static char *final_csv(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  cr_assert_not_null(d);
  const char *name;
  while ((name = g_dir_read_name(d)))
    cr_assert_null(strstr(name, ".tmp-"), "%s left in %s", name, dir);
  g_dir_close(d);
  g_autofree char *csv = tu_read(dir, "results.csv");
  return csv_without(csv, "map_s");
}

/* The study of 108 cells SIGKILLed at 5 moments drawn from a seeded
 * generator, run again each time: each moment is a number of cells
 * stored, between what is stored and all, plus 0-20 ms (a machine shared
 * with other work makes times unreliable, progress is not); the last run
 * completes and its results.csv is the uninterrupted run's. */
Test(study_store, sigkilled_five_times_gives_the_uninterrupted_csv, .timeout = 600)
{
  g_autofree char *tmp = tu_tmp_dir();
  g_autofree char *file = slow_study(tmp);
  g_autofree char *whole = g_build_filename(tmp, "whole", NULL);
  g_autofree char *cut = g_build_filename(tmp, "cut", NULL);
  cr_assert_eq(study(NULL, NULL, file, whole, "-j", "2", NULL), 0);
  g_autofree char *want = final_csv(whole);
  GRand *rng = g_rand_new_with_seed(19);
  const char *argv[] = { g_getenv("MAPSIM"), "study", file, "-o", cut, "-j", "2", "-q",
                         "--no-report", NULL };
  int killed = 0;
  for (int k = 0; k < 5; k++) {
    int stored = count_cells(cut, NULL);
    int target = stored + 1 < 108 ? g_rand_int_range(rng, stored + 1, 108) : 108;
    gulong extra_us = (gulong)g_rand_int_range(rng, 0, 20000);
    GPid pid = study_start(argv, target);
    g_usleep(extra_us);
    kill(pid, SIGKILL);
    int status = reap(pid);
    cr_assert(status == 0 || status == 128 + SIGKILL, "status %d", status);
    killed += status != 0;
  }
  g_rand_free(rng);
  cr_assert_geq(killed, 3, "only %d of 5 runs were still running when killed", killed);
  char *out = NULL, *err = NULL;
  cr_assert_eq(study(&out, &err, file, cut, "-j", "2", NULL), 0, "%s%s", out, err);
  cr_assert_str_eq(err, "", "the kills damaged records");
  g_free(out);
  g_free(err);
  g_autofree char *got = final_csv(cut);
  cr_assert_str_eq(got, want);
}
