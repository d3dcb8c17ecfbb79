/* test_outputs.c - what reaches a user's disk, terminal or pipe. Every
 * write is checked (a full file system, /dev/full, a closed standard
 * output: status 2 naming the output and the reason, nothing published,
 * an older file kept); the descriptors a shell set up are written in place
 * (`>>` keeps appending, pipes work); file names may be in any encoding;
 * a read-only output is refused; the temporaries of a killed run go with
 * the next run; text inputs may start with a byte order mark and messages
 * never quote an invisible character. Real processes, real descriptors, a
 * real full tmpfs (root only). */
#define _GNU_SOURCE /* unshare */
#include <string.h>

#include "proctest.h"

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_signature(GString *s, const char *root, const char *rel)
{
  g_autofree char *path = rel ? g_build_filename(root, rel, NULL) : g_strdup(root);
  GDir *d = g_dir_open(path, 0, NULL);
  cr_assert_not_null(d, "%s: not a directory", path);
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  const char *n;
  while ((n = g_dir_read_name(d)))
    g_ptr_array_add(names, g_strdup(n));
  g_dir_close(d);
  g_ptr_array_sort(names, by_name);
  for (guint i = 0; i < names->len; i++) {
    const char *name = g_ptr_array_index(names, i);
    g_autofree char *child = rel ? g_build_filename(rel, name, NULL) : g_strdup(name);
    g_autofree char *full = g_build_filename(root, child, NULL);
    if (g_file_test(full, G_FILE_TEST_IS_DIR)) {
      add_signature(s, root, child);
      continue;
    }
    char *data = NULL;
    gsize len = 0;
    cr_assert(g_file_get_contents(full, &data, &len, NULL));
    /* the anchor file holds a random archive id: its size must match */
    g_autofree char *sum = strcmp(name, "traces.otf2") == 0
                             ? g_strdup("-")
                             : g_compute_checksum_for_data(G_CHECKSUM_SHA256, (guchar *)data, len);
    g_string_append_printf(s, "%s %" G_GSIZE_FORMAT " %s\n", child, len, sum);
    g_free(data);
  }
  g_ptr_array_free(names, TRUE);
}

/* Every file below `root` with its size and contents digest. */
static char *signature(const char *root)
{
  GString *s = g_string_new(NULL);
  add_signature(s, root, NULL);
  return g_string_free(s, FALSE);
}

/* On a tmpfs of 1, 2, ... pages an OTF2 archive (gen, simulate
 * --out-trace), a file (-o, replacing an older one) and standard output
 * are either written whole or refused with status 2, the path and "No
 * space left on device", leaving nothing new behind. Once a full disk let
 * gen and simulate exit 0 with 0-byte definitions, and stdout's errors
 * were ignored. */
Test(outputs, full_file_system_publishes_nothing, .timeout = 300)
{
  pt_private_mounts();
  /* sanitizer builds: libotf2 leaks a writer it failed to flush */
  g_autofree char *supp = tu_data("lsan-otf2.supp");
  g_autofree char *lsan = g_strconcat("suppressions=", supp, NULL);
  g_setenv("LSAN_OPTIONS", lsan, TRUE);
  g_autofree char *ring8 = tu_src("traces/data/ring-8");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *fs = g_build_filename(dir, "fs", NULL);
  g_autofree char *ref_gen = g_build_filename(dir, "ref-gen", NULL);
  g_autofree char *ref_sim = g_build_filename(dir, "ref-sim", NULL);
  g_autofree char *ref_csv = g_build_filename(dir, "ref.csv", NULL);
  g_autofree char *out = g_build_filename(fs, "out", NULL);
  cr_assert_eq(g_mkdir(fs, 0755), 0);
  int null = open("/dev/null", O_WRONLY);
  const char *const gen[12] = { "gen", "--pattern", "ring", "-n", "8", "-i", "2", "-o", NULL,
                              "--quiet", NULL };
  const char *const sim[12] = { "simulate", "-p", "torus:2x2x2", "-t", ring8, "--compute-scale",
                              "0", "--out-trace", NULL, "--quiet", NULL };
  const char *const csv[12] = { "trace", "matrix", ring8, "-o", NULL, NULL };
  const char *const *cmds[] = { gen, sim, csv };
  const char *refs[] = { ref_gen, ref_sim, ref_csv };
  char *want[3];
  for (int k = 0; k < 3; k++) {
    const char *args[12];
    memcpy(args, cmds[k], sizeof args);
    args[k == 2 ? 4 : 8] = refs[k];
    int st = pt_run(args, null, NULL, NULL);
    cr_assert(EXITED_WITH(st, 0), "reference %s: %s", refs[k], how(st));
    want[k] = k == 2 ? tu_read(dir, "ref.csv") : signature(refs[k]);
  }
  long page = sysconf(_SC_PAGESIZE);
  int published[3] = { 0 }, refused[3] = { 0 };
  for (int pages = 1; pages <= 16; pages++) {
    for (int k = 0; k < 3; k++) {
      pt_mount_tmpfs(fs, (size_t)(pages * page));
      if (k == 2)
        cr_assert(g_file_set_contents(out, "older\n", -1, NULL));
      const char *args[12];
      memcpy(args, cmds[k], sizeof args);
      args[k == 2 ? 4 : 8] = out;
      char *err = NULL;
      int st = pt_run(args, null, NULL, &err);
      if (EXITED_WITH(st, 0)) {
        g_autofree char *got = k == 2 ? tu_read(fs, "out") : signature(out);
        cr_assert_str_eq(got, want[k], "%s on %d pages: exit 0 with an archive unlike the "
                         "reference:\n%s", args[0], pages, got);
        published[k]++;
      } else {
        cr_assert(EXITED_WITH(st, 2), "%s on %d pages: %s: %s", args[0], pages, how(st), err);
        cr_assert(strstr(err, out) && strstr(err, "No space left on device"),
                  "%s on %d pages: expected the path and the reason: %s", args[0], pages, err);
        cr_assert_eq(pt_entries(fs), k == 2 ? 1 : 0, "%s on %d pages left files behind",
                     args[0], pages);
        if (k == 2) {
          g_autofree char *older = tu_read(fs, "out");
          cr_assert_str_eq(older, "older\n");
        }
        refused[k]++;
      }
      g_free(err);
      pt_umount(fs);
    }
  }
  for (int k = 0; k < 3; k++) {
    cr_assert(published[k] > 0 && refused[k] > 0, "%s: %d runs published, %d refused: the "
              "sizes tried miss a case", cmds[k][0], published[k], refused[k]);
    g_free(want[k]);
  }

  /* standard output into a file on a full file system, directly and
   * through -o - */
  pt_mount_tmpfs(fs, (size_t)page);
  char *filler = g_malloc0((gsize)page);
  g_autofree char *full = g_build_filename(fs, "filler", NULL);
  cr_assert(g_file_set_contents(full, filler, page, NULL));
  g_free(filler);
  g_autofree char *log = g_build_filename(fs, "log.txt", NULL);
  int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
  char *err = NULL;
  int st = pt_run(PT_ARGS("strategies"), fd, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "strategies > full disk: %s: %s", how(st), err);
  cr_assert_not_null(strstr(err, "standard output: No space left on device"), "%s", err);
  g_free(err);
  st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", "-"), fd, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "trace matrix -o - > full disk: %s: %s", how(st), err);
  cr_assert_not_null(strstr(err, "-: No space left on device"), "%s", err);
  g_free(err);
  close(fd);
  pt_umount(fs);
  close(null);
}

/* -o /dev/stdout and -o - write the descriptor the shell opened: after
 * `>> FILE` the earlier content stays (once the file was replaced), into
 * a pipe the rows come through (once "No such file or directory", and `-`
 * made a file named "-"). */
Test(outputs, shell_descriptors_written_in_place)
{
  g_autofree char *ring8 = tu_src("traces/data/ring-8");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *ref = g_build_filename(dir, "m.csv", NULL);
  char *err = NULL, *text = NULL;
  int st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", ref), PT_PIPE, NULL, NULL);
  cr_assert(EXITED_WITH(st, 0));
  g_autofree char *want = tu_read(dir, "m.csv");
  g_autofree char *appended = g_strconcat("earlier\n", want, NULL);
  const char *targets[] = { "/dev/stdout", "-", "/dev/fd/1" };
  for (size_t i = 0; i < G_N_ELEMENTS(targets); i++) {
    g_autofree char *log = g_build_filename(dir, "log.txt", NULL);
    cr_assert(g_file_set_contents(log, "earlier\n", -1, NULL));
    int fd = open(log, O_WRONLY | O_APPEND);
    st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", targets[i]), fd, NULL, &err);
    close(fd);
    cr_assert(EXITED_WITH(st, 0), "-o %s >> log: %s: %s", targets[i], how(st), err);
    g_free(err);
    g_autofree char *got = tu_read(dir, "log.txt");
    cr_assert_str_eq(got, appended, "-o %s >> log", targets[i]);

    st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", targets[i]), PT_PIPE, &text, &err);
    cr_assert(EXITED_WITH(st, 0), "-o %s | ...: %s: %s", targets[i], how(st), err);
    cr_assert_str_eq(text, want, "-o %s | ...", targets[i]);
    g_free(text);
    g_free(err);
  }
  st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", "/dev/stderr"), PT_PIPE, &text, &err);
  cr_assert(EXITED_WITH(st, 0), "-o /dev/stderr: %s: %s", how(st), err);
  cr_assert_str_eq(err, want);
  cr_assert_str_eq(text, "");
  g_free(text);
  g_free(err);
  /* a closed standard output is no place to write */
  st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", "-"), PT_CLOSED, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "-o - >&-: %s: %s", how(st), err);
  cr_assert(g_str_has_prefix(err, "mapsim: -: ") && tu_lines(err) == 1, "%s", err);
  g_free(err);
  st = pt_run(PT_ARGS("gen", "--pattern", "ring", "-n", "4", "-o", "-"), PT_PIPE, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "gen -o -: %s: %s", how(st), err);
  g_free(err);
  cr_assert_eq(pt_entries(dir), 2, "only m.csv and log.txt, no file named '-'");
}

/* Write errors on standard output: /dev/full, a closed descriptor; also
 * for --help (GOption's exit). Once all of them exited 0. */
Test(outputs, standard_output_write_errors)
{
  int full = open("/dev/full", O_WRONLY);
  cr_assert_geq(full, 0);
  char *err = NULL;
  int st = pt_run(PT_ARGS("strategies"), full, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "strategies > /dev/full: %s: %s", how(st), err);
  cr_assert_str_eq(err, "mapsim: standard output: No space left on device, expected a "
                   "writable output\n");
  g_free(err);
  st = pt_run(PT_ARGS("map", "--help"), full, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "map --help > /dev/full: %s: %s", how(st), err);
  g_free(err);
  st = pt_run(PT_ARGS("--version"), full, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "--version > /dev/full: %s: %s", how(st), err);
  g_free(err);
  close(full);
  st = pt_run(PT_ARGS("strategies"), PT_CLOSED, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "strategies >&-: %s: %s", how(st), err);
  cr_assert_not_null(strstr(err, "standard output: Bad file descriptor"), "%s", err);
  g_free(err);
}

/* Paths given to options may be any bytes: UTF-8 and Latin-1 names work
 * for --trace, --matrix, --platform, --mapping and -o as they do as
 * positional arguments (once "Invalid byte sequence in conversion input",
 * naming neither option nor file); a missing one is named, escaped. */
Test(outputs, file_names_in_any_encoding)
{
  g_autofree char *ring8 = tu_src("traces/data/ring-8");
  g_autofree char *cg = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *ini = tu_src("configs/torus-4x4x4.ini");
  g_autofree char *dir = tu_tmp_dir();
  const char *names[] = { "M\xc3\xbcller", "M\xfcller", "\xff\xfe name" };
  g_autofree char *ref = g_build_filename(dir, "ref.map", NULL);
  int st = pt_run(PT_ARGS("map", "-p", ini, "-t", ring8, "-s", "greedy", "-o", ref, "--quiet"),
                  PT_PIPE, NULL, NULL);
  cr_assert(EXITED_WITH(st, 0));
  g_autofree char *want = tu_read(dir, "ref.map");
  for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
    g_autofree char *trace = g_build_filename(dir, names[i], NULL);
    g_autofree char *ini_copy = g_strconcat(trace, ".ini", NULL);
    g_autofree char *mapping = g_strconcat(trace, ".map", NULL);
    g_autofree char *matrix = g_strconcat(trace, ".csv", NULL);
    tu_copy_dir(ring8, trace);
    char *text = NULL;
    cr_assert(g_file_get_contents(ini, &text, NULL, NULL));
    cr_assert(g_file_set_contents(ini_copy, text, -1, NULL));
    g_free(text);
    cr_assert(g_file_get_contents(cg, &text, NULL, NULL));
    cr_assert(g_file_set_contents(matrix, text, -1, NULL));
    g_free(text);
    char *err = NULL;
    st = pt_run(PT_ARGS("map", "--platform", ini_copy, "--trace", trace, "-s", "greedy", "-o",
                        mapping, "--quiet"), PT_PIPE, NULL, &err);
    cr_assert(EXITED_WITH(st, 0), "name %zu: %s: %s", i, how(st), err);
    g_free(err);
    cr_assert(g_file_get_contents(mapping, &text, NULL, NULL));
    cr_assert_str_eq(text, want, "name %zu: the mapping differs", i);
    g_free(text);
    st = pt_run(PT_ARGS("metrics", "-p", ini_copy, "--mapping", mapping, "--trace", trace),
                PT_PIPE, NULL, &err);
    cr_assert(EXITED_WITH(st, 0), "name %zu: %s: %s", i, how(st), err);
    g_free(err);
    st = pt_run(PT_ARGS("metrics", "-p", ini_copy, "--matrix", matrix), PT_PIPE, NULL, &err);
    cr_assert(EXITED_WITH(st, 0), "name %zu: %s: %s", i, how(st), err);
    g_free(err);
  }
  g_autofree char *missing = g_build_filename(dir, "M\xfcller-gone", NULL);
  char *err = NULL;
  st = pt_run(PT_ARGS("metrics", "-p", "torus:2x2x2", "--trace", missing), PT_PIPE, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "%s: %s", how(st), err);
  cr_assert(strstr(err, "M\\xFCller-gone") && !strchr(err, '\xfc'), "%s", err);
  g_free(err);
}

/* A file nobody may write (0444) is refused, as cp and a shell's `>`
 * would for its owner, even as root (once replaced without a word); a
 * writable one is replaced and keeps its mode. */
Test(outputs, read_only_output_refused)
{
  g_autofree char *ring8 = tu_src("traces/data/ring-8");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *out = g_build_filename(dir, "m.csv", NULL);
  cr_assert(g_file_set_contents(out, "kept\n", -1, NULL));
  cr_assert_eq(chmod(out, 0444), 0);
  char *err = NULL;
  int st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", out), PT_PIPE, NULL, &err);
  cr_assert(EXITED_WITH(st, 2), "%s: %s", how(st), err);
  cr_assert(strstr(err, out) && strstr(err, "read-only (mode 0444)"), "%s", err);
  g_free(err);
  g_autofree char *kept = tu_read(dir, "m.csv");
  cr_assert_str_eq(kept, "kept\n");
  struct stat sb;
  cr_assert_eq(stat(out, &sb), 0);
  cr_assert_eq(sb.st_mode & 07777, 0444);
  cr_assert_eq(chmod(out, 0640), 0);
  st = pt_run(PT_ARGS("trace", "matrix", ring8, "-o", out), PT_PIPE, NULL, NULL);
  cr_assert(EXITED_WITH(st, 0), "%s", how(st));
  cr_assert_eq(stat(out, &sb), 0);
  cr_assert_eq(sb.st_mode & 07777, 0640);
  cr_assert_eq(pt_entries(dir), 1);
}

/* The next run that writes an output removes the temporaries a SIGKILLed
 * run left (its name says which process on which machine made it, and
 * that process is gone), but not those of a live process or of another
 * machine. Once they stayed forever. */
Test(outputs, temporaries_of_a_killed_run_removed)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *out = g_build_filename(dir, "big", NULL);
  int null = open("/dev/null", O_WRONLY);
  pt_proc p = pt_start(PT_ARGS("gen", "--pattern", "ring", "-n", "30000", "-i", "2", "--gap",
                               "0", "-o", out, "--quiet"), null);
  int st = 0;
  cr_assert(pt_wait_for_entry(&p, dir, ".big.tmp-", &st), "gen ended first: %s", how(st));
  kill(p.pid, SIGKILL);
  char *err = NULL;
  pt_wait(&p, NULL, &err);
  g_free(err);
  GDir *d = g_dir_open(dir, 0, NULL);
  g_autofree char *left = g_strdup(g_dir_read_name(d));
  g_dir_close(d);
  cr_assert(left && g_str_has_prefix(left, ".big.tmp-"), "%s", left);
  /* .big.tmp-MACHINE-PID-XXXXXX */
  g_auto(GStrv) parts = g_strsplit(left + strlen(".big.tmp-"), "-", 3);
  cr_assert(g_strv_length(parts) == 3 && strlen(parts[0]) == 12 &&
            g_ascii_strtoll(parts[1], NULL, 10) == p.pid,
            "%s: expected the machine and the PID of its creator in the name", left);
  pid_t dead = fork();
  if (dead == 0)
    _exit(0);
  waitpid(dead, NULL, 0);
  g_autofree char *alive = g_strdup_printf("%s/.big.tmp-%s-%d-alive0", dir, parts[0],
                                           (int)getpid());
  g_autofree char *elsewhere = g_strdup_printf("%s/.big.tmp-000000000000-%d-other0", dir,
                                               (int)dead);
  cr_assert_eq(g_mkdir(alive, 0700), 0);
  cr_assert_eq(g_mkdir(elsewhere, 0700), 0);
  st = pt_run(PT_ARGS("gen", "--pattern", "ring", "-n", "8", "-o", out, "--quiet"), null, NULL,
              &err);
  cr_assert(EXITED_WITH(st, 0), "%s: %s", how(st), err);
  g_free(err);
  g_autofree char *killed = g_build_filename(dir, left, NULL);
  cr_assert(!g_file_test(killed, G_FILE_TEST_EXISTS), "%s: still there", left);
  cr_assert(g_file_test(alive, G_FILE_TEST_IS_DIR), "the temporary of a live process went");
  cr_assert(g_file_test(elsewhere, G_FILE_TEST_IS_DIR), "another machine's temporary went");
  cr_assert(g_file_test(out, G_FILE_TEST_IS_DIR));
  cr_assert_eq(pt_entries(dir), 3);
  close(null);
}

/* Text inputs that start with a UTF-8 byte order mark (as Windows editors
 * write them) read as without it: a platform file, a matrix, a mapping, a
 * study file. Messages show invisible characters as \u{...} (once the
 * refusal quoted the mark itself, invisible). */
Test(outputs, byte_order_marks_and_invisible_characters)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *ini = tu_src("configs/torus-4x4x4.ini");
  g_autofree char *cg = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *p = g_build_filename(dir, "p.ini", NULL);
  g_autofree char *m = g_build_filename(dir, "m.csv", NULL);
  g_autofree char *map = g_build_filename(dir, "m.map", NULL);
  g_autofree char *study = g_build_filename(dir, "s.ini", NULL);
  g_autofree char *results = g_build_filename(dir, "s", NULL);
  char *text = NULL;
  GString *mapping = g_string_new(NULL);
  for (int r = 0; r < 64; r++)
    g_string_append_printf(mapping, "%d %d\n", r, 63 - r);
  cr_assert(g_file_get_contents(ini, &text, NULL, NULL));
  const char *files[] = { p, m, map, study };
  char *plain[] = { text, NULL, mapping->str, NULL };
  cr_assert(g_file_get_contents(cg, &plain[1], NULL, NULL));
  plain[3] = g_strdup_printf("[study]\nmatrices = m.csv\nplatforms = p.ini\nstrategies = "
                             "identity; greedy\n");
  char *want = NULL;
  for (int bom = 0; bom < 2; bom++) {
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
      g_autofree char *content = g_strconcat(bom ? "\xef\xbb\xbf" : "", plain[i], NULL);
      cr_assert(g_file_set_contents(files[i], content, -1, NULL));
    }
    char *out = NULL, *err = NULL;
    int st = pt_run(PT_ARGS("metrics", "-p", p, "-m", m, "-M", map), PT_PIPE, &out, &err);
    cr_assert(EXITED_WITH(st, 0), "byte order marks %d: %s: %s", bom, how(st), err);
    g_free(err);
    tu_rm_rf(results);
    int sst = pt_run(PT_ARGS("study", study, "-o", results, "--no-report", "--quiet"), PT_PIPE,
                     NULL, &err);
    cr_assert(EXITED_WITH(sst, 0), "study, byte order marks %d: %s: %s", bom, how(sst), err);
    g_free(err);
    if (bom)
      cr_assert_str_eq(out, want, "the byte order marks changed the metrics");
    g_free(want);
    want = out;
  }
  g_free(want);
  const char *bad[] = { "1,\xe2\x80\x8b" "2\n3,4\n", "0,1\n\xef\xbb\xbf" "1,0\n" };
  const char *shown[] = { "'\\u{200B}2'", "'\\u{FEFF}1'" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    cr_assert(g_file_set_contents(m, bad[i], -1, NULL));
    char *err = NULL;
    int st = pt_run(PT_ARGS("metrics", "-p", "torus:2x2x2", "-m", m), PT_PIPE, NULL, &err);
    cr_assert(EXITED_WITH(st, 2), "%s: %s", how(st), err);
    cr_assert(strstr(err, shown[i]) && !strstr(err, "\xe2\x80\x8b") && !strstr(err, "\xef\xbb\xbf"),
              "expected %s in: %s", shown[i], err);
    g_free(err);
  }
  g_free(text);
  g_free(plain[1]);
  g_free(plain[3]);
  g_string_free(mapping, TRUE);
}

/* The files of folder `dir`, sorted, one a line (temporaries included). */
static char *listing(const char *dir)
{
  GDir *d = g_dir_open(dir, 0, NULL);
  cr_assert_not_null(d);
  GPtrArray *names = g_ptr_array_new();
  for (const char *n; (n = g_dir_read_name(d));)
    g_ptr_array_add(names, g_strdup(n));
  g_dir_close(d);
  g_ptr_array_sort(names, by_name);
  g_ptr_array_add(names, NULL);
  char *text = g_strjoinv(" ", (char **)names->pdata);
  g_ptr_array_free(names, TRUE);
  return text;
}

static void write_committed(const char *path, const char *text, const progress *prog)
{
  GError *e = NULL;
  cr_assert(output_write_all(path, text, strlen(text), prog, &e), "%s", e ? e->message : "");
}

/* Issue 35 item 18: the outputs of one run (simulate's timeline, link
 * events and archive) are published together. Committed one by one, a
 * stop after the first rename left the new timeline beside the old link
 * events; in a group nothing is renamed before output_group_commit(), a
 * stop then publishes none, a failed run keeps the old files. */
Test(outputs, group_commit_all_or_none)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *a = g_build_filename(dir, "timeline.json", NULL);
  g_autofree char *b = g_build_filename(dir, "events.csv", NULL);
  write_committed(a, "old a", NULL);
  write_committed(b, "old b", NULL);
  volatile sig_atomic_t stop = 0;
  progress prog = { .stop = &stop };
  GError *e = NULL;

  /* a stop after every file was written: none published */
  output_group_begin();
  write_committed(a, "new a", &prog);
  write_committed(b, "new b", &prog);
  g_autofree char *a1 = tu_read(dir, "timeline.json");
  cr_assert_str_eq(a1, "old a", "renamed before the group commit");
  stop = 1;
  cr_assert_not(output_group_commit(&e));
  cr_assert(g_error_matches(e, STATUS_ERROR, STATUS_ERROR_INTERRUPTED), "%s", e->message);
  g_clear_error(&e);
  g_autofree char *l1 = listing(dir);
  cr_assert_str_eq(l1, "events.csv timeline.json", "temporaries left: %s", l1);
  g_autofree char *a2 = tu_read(dir, "timeline.json"), *b2 = tu_read(dir, "events.csv");
  cr_assert_str_eq(a2, "old a");
  cr_assert_str_eq(b2, "old b");

  /* a failed run: the held ones removed, the old files kept */
  stop = 0;
  output_group_begin();
  write_committed(a, "new a", &prog);
  output_group_abort();
  g_autofree char *l2 = listing(dir);
  cr_assert_str_eq(l2, "events.csv timeline.json", "%s", l2);
  g_autofree char *a3 = tu_read(dir, "timeline.json");
  cr_assert_str_eq(a3, "old a");

  /* a whole run: both new, and outputs after the group published at once */
  output_group_begin();
  write_committed(a, "new a", &prog);
  write_committed(b, "new b", &prog);
  cr_assert(output_group_commit(&e), "%s", e ? e->message : "");
  g_autofree char *a4 = tu_read(dir, "timeline.json"), *b4 = tu_read(dir, "events.csv");
  cr_assert_str_eq(a4, "new a");
  cr_assert_str_eq(b4, "new b");
  write_committed(a, "newer a", NULL);
  g_autofree char *a5 = tu_read(dir, "timeline.json");
  cr_assert_str_eq(a5, "newer a");
  tu_rm_rf(dir);
}
