/* test_input_files.c - study files and jobs files as people write them
 * (util/ini.c, the one reader of both; study/file.c, study/jobs.c,
 * sim/jobs.c): inline comments, a group, a key or a list entry given twice
 * refused with both places named, commas in lists and typos in names
 * answered with what was meant, integer sweeps read by integer keys, a
 * start time checked before it becomes picoseconds and against the mix it
 * is in. Every expectation is the exact text a user reads. */
#include <string.h>

#include "sim/jobs.h"
#include "sim/mix.h"
#include "study/study.h"
#include "testutil.h"
#include "util/ini.h"

static GQuark test_quark(void)
{
  return g_quark_from_static_string("test-input-files");
}

/* Reads `text` as t.ini; *problems the message ini_close gives (NULL: none). */
static void open_text(ini_file *f, const char *text)
{
  ini_open(f, "t.ini", "/base", text, "study");
}

static char *close_problems(ini_file *f)
{
  GError *e = NULL;
  if (ini_close(f, test_quark(), 0, &e))
    return NULL;
  char *m = g_strdup(e->message);
  g_error_free(e);
  return m;
}

/* Inline comments after values, a # after a blank; ';' a comment in a
 * single value, the separator in a list; whole-line ; comments. */
Test(ini, comments_where_people_write_them)
{
  ini_file f;
  open_text(&f, "# a study\n"
                "; an old-style comment\n"
                "[study]   # the one group\n"
                "name = run#3 of CG   # a '#' after text is text\n"
                "seeds = 1; 2   # two seeds\n"
                "compute-scale = 0 ; no computation\n"
                "alloc = random:16:1\t# a policy\n");
  g_autofree char *name = ini_string(&f, "study", "name");
  cr_assert_str_eq(name, "run#3 of CG");
  g_auto(GStrv) seeds = ini_list(&f, "study", "seeds");
  cr_assert_eq(g_strv_length(seeds), 2);
  cr_assert_str_eq(seeds[0], "1");
  cr_assert_str_eq(seeds[1], "2");
  g_autofree char *scale = ini_string(&f, "study", "compute-scale");
  cr_assert_str_eq(scale, "0");
  g_autofree char *alloc = ini_string(&f, "study", "alloc");
  cr_assert_str_eq(alloc, "random:16:1");
  cr_assert_eq(ini_line(&f, "study", "alloc"), 7);
  g_autofree char *none = close_problems(&f);
  cr_assert_null(none, "%s", none);
}

/* A second [group] (GKeyFile merges it into the first) and a key given
 * twice are problems naming both lines. */
Test(ini, repeated_groups_and_keys_name_both_lines)
{
  ini_file f;
  open_text(&f, "[job a]\n"
                "trace = x\n"
                "[job b]\n"
                "trace = y\n"
                "trace = z\n"
                "[job a]\n"
                "alloc = random:8\n");
  g_autofree char *m = close_problems(&f);
  cr_assert_str_eq(m, "t.ini:5: [job b] trace given again (first on line 4), expected each key "
                      "once\n"
                      "t.ini:6: group [job a] again (first on line 1), expected each group once");
}

/* "a, b" in a list: the entries meant are read, and the problem says how
 * lists are written; braces may hold ", " and a file may be named so. */
Test(ini, comma_lists_say_lists_use_semicolons)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *odd = g_build_filename(dir, "a, b.csv", NULL);
  cr_assert(g_file_set_contents(odd, "0,1\n", -1, NULL));
  ini_file f;
  ini_open(&f, "t.ini", dir, "[study]\n"
                             "platforms = torus:4x4x4, mesh:4x4x4\n"
                             "matrices = a, b.csv; c\n"
                             "seeds = {1, 2}\n", "study");
  g_auto(GStrv) p = ini_list(&f, "study", "platforms");
  cr_assert_eq(g_strv_length(p), 2);
  cr_assert_str_eq(p[0], "torus:4x4x4");
  cr_assert_str_eq(p[1], "mesh:4x4x4");
  g_auto(GStrv) m = ini_list(&f, "study", "matrices");
  cr_assert_eq(g_strv_length(m), 2);
  cr_assert_str_eq(m[0], "a, b.csv");
  g_auto(GStrv) s = ini_list_expanded(&f, "study", "seeds");
  cr_assert_eq(g_strv_length(s), 2);
  g_autofree char *msg = close_problems(&f);
  cr_assert_str_eq(msg, "t.ini:2: [study] platforms: 'torus:4x4x4, mesh:4x4x4' holds ', ', "
                        "expected entries separated by ';' (lists use ';': torus:4x4x4; "
                        "mesh:4x4x4)");
}

/* An unknown key or group names the nearest known one; a name far from
 * all of them gets none. */
Test(ini, unknown_names_get_the_nearest)
{
  ini_file f;
  open_text(&f, "[study]\nstrategis = x\ncolour = red\n[plattform big]\n[reprt]\n[zzz]\n");
  static const char *const keys[] = { "strategies", "seeds", NULL };
  ini_check_keys(&f, "study", keys);
  static const char *const groups[] = { "study", "report", "platform ", NULL };
  const char *expected = "[study], [report] or [platform NAME]";
  cr_assert(ini_known_group(&f, "study", groups, expected));
  cr_assert_not(ini_known_group(&f, "plattform big", groups, expected));
  cr_assert_not(ini_known_group(&f, "reprt", groups, expected));
  cr_assert_not(ini_known_group(&f, "zzz", groups, expected));
  g_autofree char *m = close_problems(&f);
  cr_assert_str_eq(m, "t.ini:2: [study] unknown key 'strategis' (did you mean strategies?), "
                      "expected one of: strategies, seeds\n"
                      "t.ini:3: [study] unknown key 'colour', expected one of: strategies, seeds\n"
                      "t.ini:4: unknown group [plattform big] (did you mean [platform big]?), "
                      "expected [study], [report] or [platform NAME]\n"
                      "t.ini:5: unknown group [reprt] (did you mean [report]?), expected "
                      "[study], [report] or [platform NAME]\n"
                      "t.ini:6: unknown group [zzz], expected [study], [report] or "
                      "[platform NAME]");
}

/* ---- study files ---- */

/* The problems of a study file of the bundled matrix and `rest`. */
static char *study_problems(const char *rest)
{
  g_autofree char *matrix = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *jobs = tu_data("jobs/three.ini");
  g_autofree char *text = g_strdup_printf("[study]\nmatrices = %s\nplatforms = torus:4x4x4\n"
                                          "strategies = identity\n%s", matrix, rest);
  g_autofree char *expanded = NULL;
  /* @JOBS@: the bundled jobs file */
  g_auto(GStrv) parts = g_strsplit(text, "@JOBS@", -1);
  expanded = g_strjoinv(jobs, parts);
  GError *e = NULL;
  study *s = study_load("s.ini", expanded, "/", &e);
  if (s) {
    study_free(s);
    return NULL;
  }
  char *m = g_strdup(e->message);
  g_error_free(e);
  return m;
}

/* seeds = 1; 1 ran every cell twice and wrote its row twice: now each
 * repeated entry is named with both positions (sweeps count as entries). */
Test(study_lists, repeated_entries_name_both_positions)
{
  struct { const char *rest, *want; } cases[] = {
    { "seeds = 1; 1\n", "s.ini:5: [study] seeds: '1' (entry 2) repeats '1' (entry 1), expected "
                        "each once" },
    { "seeds = 1; {2..4}; 003\n", "s.ini:5: [study] seeds: '003' (entry 5) repeats '3' (entry "
                                  "3), expected each once" },
    { "models = {flow,flow}\n", "s.ini:5: [study] models: 'flow' (entry 2) repeats 'flow' "
                                "(entry 1), expected each once" },
    { "kinds = bytes; bytes\n", "s.ini:5: [study] kinds: 'bytes' (entry 2) repeats 'bytes' "
                                "(entry 1), expected each once" },
    { "jobs = @JOBS@\npolicies = random; contiguous; random\n",
      "s.ini:6: [study] policies: 'random' (entry 3) repeats 'random' (entry 1), expected each "
      "once" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *m = study_problems(cases[i].rest);
    cr_assert_not_null(m, "%s: accepted", cases[i].rest);
    cr_assert_str_eq(m, cases[i].want, "%s", cases[i].rest);
  }
  g_autofree char *fine = study_problems("seeds = 1; 2\nmodels = flow; analytic\n");
  cr_assert_null(fine, "%s", fine);
}

/* A range of large integers is a list of integers: the seeds read it. */
Test(study_lists, integer_sweeps_read_by_integer_keys)
{
  g_autofree char *matrix = tu_data("maplib/cg.p2p.size.csv");
  g_autofree char *text = g_strdup_printf("[study]\nmatrices = %s\nplatforms = torus:4x4x4\n"
                                          "strategies = identity\n"
                                          "seeds = {1000000..1000001+1}; {4294967294..4294967295}"
                                          "\n", matrix);
  GError *e = NULL;
  study *s = study_load("s.ini", text, "/", &e);
  cr_assert_not_null(s, "%s", e ? e->message : "?");
  cr_assert_eq(s->nseeds, 4);
  cr_assert_eq(s->seeds[0], 1000000u);
  cr_assert_eq(s->seeds[1], 1000001u);
  cr_assert_eq(s->seeds[2], 4294967294u);
  cr_assert_eq(s->seeds[3], 4294967295u);
  study_free(s);
}

/* ---- jobs files ---- */

static char *jobs_text(const char *start)
{
  g_autofree char *ring = tu_src("traces/data/ring-8");
  return g_strdup_printf("[job a]\ntrace = %s\nalloc = random:8:1\nstart = %s\n"
                         "[job b]\ntrace = %s\nalloc = random:8:2\n", ring, start, ring);
}

/* 1e20 s was turned into int64 picoseconds before the range check
 * (UBSan: float-cast overflow); 8e6 s, the stated maximum, loaded and
 * then failed in the replay naming no file or line. */
Test(jobs_start, checked_before_and_against_the_mix)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "j.ini", NULL);
  const char *bad[] = { "1e20", "-1", "8000001" };
  for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
    g_autofree char *text = jobs_text(bad[i]);
    cr_assert(g_file_set_contents(path, text, -1, NULL));
    GError *e = NULL;
    jobs_file *jf = jobs_load(path, &e);
    cr_assert_null(jf, "start = %s accepted", bad[i]);
    g_autofree char *want = g_strdup_printf("%s:4: [job a] start = %s: expected a time from 0 s "
                                            "to 8e6 s (92 days)", path, bad[i]);
    cr_assert_str_eq(e->message, want);
    g_error_free(e);
  }
  g_autofree char *text = jobs_text("8e6");
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  GError *e = NULL;
  jobs_file *jf = jobs_load(path, &e);
  cr_assert_not_null(jf, "%s", e ? e->message : "?");
  cr_assert_eq(jf->jobs[0].start_ps, (int64_t)8000000 * 1000000000000);
  g_autoptr(platform) p = tu_platform("torus:4x4x4");
  mix_opts o;
  mix_opts_init(&o);
  mix_result *r = mix_run(jf, p, &o, &e);
  cr_assert_null(r);
  /* 2^63 - 1 ps over 16 ranks: 576460.75 s */
  g_autofree char *want = g_strdup_printf("%s:4: [job a] start = 8000000 s: the mix's 16 ranks "
                                          "would then cost more than 106 days at ps resolution "
                                          "(makespan x ranks), expected a start below 576460 s",
                                          path);
  cr_assert_str_eq(e->message, want);
  g_error_free(e);
  jobs_file_free(jf);
}

/* ---- the README's example files ---- */

/* Every ```ini block of README.md, loaded as a user copying it would:
 * its first line names the file ("# my.ini, in the repository's folder",
 * "# tests/data/jobs/three.ini: ..."), relative to the repository, and
 * paths in it are relative to that file's folder. A block naming a
 * repository file is that file byte for byte (the README's output blocks
 * run the file). The jobs example's inline comments were refused. */
Test(readme, example_files_load_as_shown, .timeout = 120)
{
  g_autofree char *src = tu_src(".");
  g_autofree char *readme = tu_src("README.md");
  g_autofree char *text = NULL;
  cr_assert(g_file_get_contents(readme, &text, NULL, NULL));
  g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
  int studies = 0, jobs = 0;
  for (int i = 0; lines[i]; i++) {
    if (strcmp(lines[i], "```ini") != 0)
      continue;
    GString *block = g_string_new(NULL);
    int at = i + 1;
    for (i++; lines[i] && strcmp(lines[i], "```") != 0; i++)
      g_string_append_printf(block, "%s\n", lines[i]);
    cr_assert(g_str_has_prefix(block->str, "# "), "README.md:%d: the block's first line names "
              "its file: %.40s", at, block->str);
    g_autofree char *name = g_strndup(block->str + 2, strcspn(block->str + 2, " :,\n"));
    g_autofree char *file = g_build_filename(src, name, NULL);
    g_autofree char *dir = g_path_get_dirname(file);
    if (g_file_test(file, G_FILE_TEST_EXISTS)) {
      g_autofree char *content = NULL;
      cr_assert(g_file_get_contents(file, &content, NULL, NULL));
      cr_assert_str_eq(content, block->str, "README.md:%d: %s differs from the README's block",
                       at, name);
    }
    GError *e = NULL;
    if (strstr(block->str, "\n[study]\n")) {
      study *s = study_load(file, block->str, dir, &e);
      cr_assert_not_null(s, "README.md:%d: %s", at, e ? e->message : "?");
      study_free(s);
      studies++;
    } else {
      cr_assert_not_null(strstr(block->str, "\n[job "), "README.md:%d: neither a study nor a jobs "
                         "file", at);
      jobs_file *jf = jobs_load_text(file, block->str, dir, &e);
      cr_assert_not_null(jf, "README.md:%d: %s", at, e ? e->message : "?");
      cr_assert_eq(jf->njobs, 3);
      cr_assert_str_eq(jf->jobs[0].alloc, "random:16:1");
      cr_assert_str_eq(jf->jobs[2].nodes_text, "56-63");
      jobs_file_free(jf);
      jobs++;
    }
    g_string_free(block, TRUE);
  }
  cr_assert_eq(studies, 1);
  cr_assert_eq(jobs, 1);
}
