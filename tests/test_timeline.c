/* test_timeline.c - `simulate --timeline` (Chrome Trace Event JSON, read
 * back with json-glib) and the link counters of `--out-trace` (read back
 * with otf2-print): the counters integrate to the bytes the replay counted
 * on each link (a relative 1e-9 in JSON; otf2-print prints 6 digits), the
 * ranks' computation slices add up to the simulated compute time, every
 * point-to-point message is one flow arrow, from the k-th send of a
 * channel to its k-th receive. */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "models/linkrec.h"
#include "routing/platform.h"

static JsonParser *parse_file(const char *path)
{
  GError *e = NULL;
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_file(jp, path, &e), "%s: %s", path, e ? e->message : "");
  return jp;
}

static JsonParser *parse_text(const char *text)
{
  GError *e = NULL;
  JsonParser *jp = json_parser_new();
  cr_assert(json_parser_load_from_data(jp, text, -1, &e), "%s", e ? e->message : "");
  return jp;
}

/* What a timeline holds, summed: the integral of each counter track
 * (name -> bytes), slices and flows. */
typedef struct summary {
  GHashTable *bytes;       /* track name -> double* integral */
  double compute_s;        /* all ranks' computation slices */
  int starts, finishes;    /* flow arrows */
  int threads;
} summary;

static void summarize(const char *path, summary *s)
{
  JsonParser *jp = parse_file(path);
  JsonArray *ev = json_object_get_array_member(json_node_get_object(json_parser_get_root(jp)),
                                               "traceEvents");
  s->bytes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GHashTable *last_ts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GHashTable *last_v = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < json_array_get_length(ev); i++) {
    JsonObject *o = json_array_get_object_element(ev, i);
    const char *ph = json_object_get_string_member(o, "ph");
    const char *name = json_object_get_string_member(o, "name");
    if (strcmp(ph, "X") == 0 && strcmp(json_object_get_string_member(o, "cat"), "compute") == 0)
      s->compute_s += json_object_get_double_member(o, "dur") * 1e-6;
    s->starts += strcmp(ph, "s") == 0;
    s->finishes += strcmp(ph, "f") == 0;
    s->threads += strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0;
    if (strcmp(ph, "C") != 0)
      continue;
    double ts = json_object_get_double_member(o, "ts");
    double v = json_object_get_double_member(json_object_get_object_member(o, "args"), "bytes/s");
    double *prev = g_hash_table_lookup(last_ts, name), *pv = g_hash_table_lookup(last_v, name);
    double *sum = g_hash_table_lookup(s->bytes, name);
    if (!sum) {
      sum = g_new0(double, 1);
      g_hash_table_insert(s->bytes, g_strdup(name), sum);
    }
    if (prev) {
      cr_assert_geq(ts, *prev, "%s: times go back", name);
      *sum += *pv * (ts - *prev) * 1e-6;
    }
    g_hash_table_insert(last_ts, g_strdup(name), g_memdup2(&ts, sizeof ts));
    g_hash_table_insert(last_v, g_strdup(name), g_memdup2(&v, sizeof v));
  }
  /* every track ends at 0 bytes/s */
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, last_v);
  while (g_hash_table_iter_next(&it, &k, &v))
    cr_assert_eq(*(double *)v, 0, "%s does not end at 0", (char *)k);
  g_hash_table_destroy(last_ts);
  g_hash_table_destroy(last_v);
  g_object_unref(jp);
}

/* simulate --json: per link "from -> to" its wire bytes (p2p + collective:
 * no envelope, no headers, control messages carry 0 bytes). */
static GHashTable *link_bytes(JsonObject *sim)
{
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  JsonArray *links = json_object_get_array_member(sim, "links");
  for (guint i = 0; i < json_array_get_length(links); i++) {
    JsonObject *l = json_array_get_object_element(links, i);
    double b = (double)json_object_get_int_member(l, "p2p_bytes") +
               (double)json_object_get_int_member(l, "collective_bytes");
    g_hash_table_insert(h, g_strdup_printf("%" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT,
                                           json_object_get_int_member(l, "from"),
                                           json_object_get_int_member(l, "to")),
                        g_memdup2(&b, sizeof b));
  }
  return h;
}

static const char *const models[] = { "analytic", "flow", "flow-hd", "packet", "packet-vct" };

Test(timeline, counters_integrate_to_link_bytes_under_every_model, .timeout = 300)
{
  g_autofree char *tr = tu_src("traces/data/cg-16");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "cg.json", NULL);
  for (size_t m = 0; m < G_N_ELEMENTS(models); m++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "-p", "haec:4x4x4", "-t", tr, "-s", "random", "--model",
                           models[m], "--timeline", path, "--timeline-links", "all", "--json",
                           NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s: %s", models[m], err);
    JsonParser *jp = parse_text(out);
    JsonObject *sim = json_node_get_object(json_parser_get_root(jp));
    GHashTable *want = link_bytes(sim);
    summary s = { 0 };
    summarize(path, &s);
    cr_assert_eq(g_hash_table_size(s.bytes), g_hash_table_size(want), "%s: %u tracks, %u links",
                 models[m], g_hash_table_size(s.bytes), g_hash_table_size(want));
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, s.bytes);
    while (g_hash_table_iter_next(&it, &k, &v)) {
      int a, b;
      cr_assert_eq(sscanf(k, "%d -> %d", &a, &b), 2, "%s", (char *)k);
      g_autofree char *key = g_strdup_printf("%d -> %d", a, b);
      double *bytes = g_hash_table_lookup(want, key);
      cr_assert_not_null(bytes, "%s: no such link in the run", (char *)k);
      cr_assert(fabs(*(double *)v - *bytes) <= 1e-9 * *bytes, "%s, %s: %.17g, expected %.17g",
                models[m], (char *)k, *(double *)v, *bytes);
    }
    /* the ranks: one thread each, computation as simulated, one arrow per
     * message */
    JsonObject *simulated = json_object_get_object_member(sim, "simulated");
    cr_assert_eq(s.threads, 16);
    cr_assert_float_eq(s.compute_s, json_object_get_double_member(simulated, "compute_s"), 1e-9);
    cr_assert_eq(s.starts, json_object_get_int_member(sim, "p2p_messages"), "%s", models[m]);
    cr_assert_eq(s.finishes, s.starts);
    g_hash_table_destroy(s.bytes);
    g_hash_table_destroy(want);
    g_object_unref(jp);
    g_free(out);
    g_free(err);
  }
}

/* An arrow's ends: the send's rank and time, the receive's. */
typedef struct arrow {
  int64_t id;
  int src, dst;
  double sent, received;
} arrow;

static int cmp_arrow(const void *a, const void *b)
{
  const arrow *x = a, *y = b;
  if (x->src != y->src)
    return x->src - y->src;
  if (x->dst != y->dst)
    return x->dst - y->dst;
  return (x->id > y->id) - (x->id < y->id);
}

/* The ring sends ahead of its receives (a channel holds several sends
 * before the first receive is replayed): arrows still join the k-th send
 * of a channel to its k-th receive - per source and destination, both
 * ends in time order, no receive before its send - one per message. */
Test(timeline, arrows_join_sends_to_receives_in_order)
{
  g_autofree char *tr = tu_src("traces/data/ring-8");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "ring.json", NULL);
  char *out = NULL, *err = NULL;
  const char *args[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "--model", "flow",
                         "--timeline", path, "--json", NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  JsonParser *run = parse_text(out);
  int64_t messages =
    json_object_get_int_member(json_node_get_object(json_parser_get_root(run)), "p2p_messages");
  g_object_unref(run);
  g_free(out);
  g_free(err);
  JsonParser *jp = parse_file(path);
  JsonArray *ev = json_object_get_array_member(json_node_get_object(json_parser_get_root(jp)),
                                               "traceEvents");
  GHashTable *by_id = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
  for (guint i = 0; i < json_array_get_length(ev); i++) {
    JsonObject *o = json_array_get_object_element(ev, i);
    const char *ph = json_object_get_string_member(o, "ph");
    if (strcmp(ph, "s") != 0 && strcmp(ph, "f") != 0)
      continue;
    int64_t id = json_object_get_int_member(o, "id");
    arrow *a = g_hash_table_lookup(by_id, &id);
    if (!a) {
      a = g_new0(arrow, 1);
      a->id = id;
      a->src = a->dst = -1;
      g_hash_table_insert(by_id, &a->id, a);
    }
    int tid = (int)json_object_get_int_member(o, "tid");
    double ts = json_object_get_double_member(o, "ts");
    cr_assert_eq(*ph == 's' ? a->src : a->dst, -1, "arrow %" PRId64 ": two '%s' ends", id, ph);
    if (*ph == 's') {
      a->src = tid;
      a->sent = ts;
    } else {
      a->dst = tid;
      a->received = ts;
    }
  }
  guint n = g_hash_table_size(by_id);
  cr_assert_eq((int64_t)n, messages, "%u arrows, %" PRId64 " messages", n, messages);
  arrow *all = g_new(arrow, n);
  GHashTableIter it;
  gpointer k, v;
  guint i = 0;
  g_hash_table_iter_init(&it, by_id);
  while (g_hash_table_iter_next(&it, &k, &v))
    all[i++] = *(arrow *)v;
  qsort(all, n, sizeof *all, cmp_arrow);
  for (i = 0; i < n; i++) {
    cr_assert(all[i].src >= 0 && all[i].dst >= 0 && all[i].src != all[i].dst,
              "arrow %" PRId64 ": %d -> %d", all[i].id, all[i].src, all[i].dst);
    cr_assert_leq(all[i].sent, all[i].received, "arrow %" PRId64 " received before sent",
                  all[i].id);
    if (i > 0 && all[i].src == all[i - 1].src && all[i].dst == all[i - 1].dst)
      cr_assert(all[i].sent >= all[i - 1].sent && all[i].received >= all[i - 1].received,
                "%d -> %d: arrows %" PRId64 " and %" PRId64 " cross", all[i].src, all[i].dst,
                all[i - 1].id, all[i].id);
  }
  g_free(all);
  g_hash_table_destroy(by_id);
  g_object_unref(jp);
}

Test(timeline, busiest_and_per_dimension_tracks)
{
  g_autofree char *tr = tu_src("traces/data/stencil3d-64");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *path = g_build_filename(dir, "s.json", NULL);
  double total[2] = { 0 };
  const char *specs[] = { "dims", "3" };
  for (int i = 0; i < 2; i++) {
    char *out = NULL, *err = NULL;
    const char *args[] = { "simulate", "-p", "torus:4x4x4", "-t", tr, "-s", "random", "--model",
                           "flow", "--timeline", path, "--timeline-links", specs[i], "--json",
                           NULL };
    cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
    JsonParser *jp = parse_text(out);
    JsonObject *post = json_object_get_object_member(
        json_node_get_object(json_parser_get_root(jp)), "post");
    summary s = { 0 };
    summarize(path, &s);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, s.bytes);
    while (g_hash_table_iter_next(&it, &k, &v))
      total[i] += *(double *)v;
    if (i == 0) {
      /* six classes of a 3D torus, together every byte the links carried */
      cr_assert_eq(g_hash_table_size(s.bytes), 6);
      cr_assert(g_hash_table_contains(s.bytes, "x+ links (64)"));
      double hb = (double)json_object_get_int_member(post, "hop_bytes");
      cr_assert(fabs(total[0] - hb) <= 1e-9 * hb, "%.17g, expected %.17g", total[0], hb);
    } else {
      cr_assert_eq(g_hash_table_size(s.bytes), 3);
      cr_assert_leq(total[1], 3.0 * (double)json_object_get_int_member(post, "max_link_bytes"));
    }
    g_hash_table_destroy(s.bytes);
    g_object_unref(jp);
    g_free(out);
    g_free(err);
  }
}

/* otf2-print's METRIC lines of one location: "METRIC LOC TIME Metric: 0, 1
 * Value: (\"link throughput\" <0>; DOUBLE; V)", integrated (TIME in ps). */
static double otf2_integral(const char *text, int loc, int *records)
{
  double sum = 0, prev_v = 0;
  long long prev_t = -1;
  *records = 0;
  for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    int at;
    long long t;
    const char *val = strstr(l, "DOUBLE; ");
    const char *end = strchr(l, '\n');
    if (sscanf(l, "METRIC %d %lld", &at, &t) != 2 || at != loc || !val || (end && val > end))
      continue;
    if (prev_t >= 0)
      sum += prev_v * (double)(t - prev_t) * 1e-12;
    prev_t = t;
    prev_v = g_ascii_strtod(val + 8, NULL);
    (*records)++;
  }
  return sum;
}

Test(timeline, link_counters_as_otf2_metrics_read_by_otf2_print)
{
  g_autofree char *otf2_print = g_find_program_in_path("otf2-print");
  if (!otf2_print)
    cr_skip_test("otf2-print not installed (Debian package otf2-tools)");
  g_autofree char *tr = tu_src("traces/data/cg-16");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *arch = g_build_filename(dir, "run", NULL);
  g_autofree char *path = g_build_filename(dir, "cg.json", NULL);
  char *out = NULL, *err = NULL;
  const char *args[] = { "simulate", "-p", "haec:4x4x4", "-t", tr, "--model", "flow",
                         "--out-trace", arch, "--timeline", path, "--timeline-links", "2",
                         NULL };
  cr_assert_eq(tu_run(&out, &err, args), 0, "%s", err);
  g_free(out);
  g_free(err);
  summary s = { 0 };
  summarize(path, &s);
  cr_assert_eq(g_hash_table_size(s.bytes), 2);
  g_autofree char *anchor = g_build_filename(arch, "traces.otf2", NULL);
  char *defs = NULL, *events = NULL;
  char *pd[] = { otf2_print, "-G", anchor, NULL }, *pe[] = { otf2_print, anchor, NULL };
  cr_assert_eq(tu_spawn(pd, &defs, NULL), 0);
  cr_assert_eq(tu_spawn(pe, &events, NULL), 0);
  cr_assert(strstr(defs, "Mode: ABSOLUTE_NEXT") && strstr(defs, "Unit: \"bytes/s\""), "%s", defs);
  /* the metric locations follow the 16 ranks' */
  for (int loc = 16; loc < 18; loc++) {
    const char *at = NULL;
    for (const char *l = defs; l && *l && !at; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
      int id;
      if (sscanf(l, "LOCATION %d", &id) == 1 && id == loc)
        at = strstr(l, "Name: \"");
    }
    cr_assert_not_null(at, "no metric location %d in\n%s", loc, defs);
    at += strlen("Name: \"");
    g_autofree char *name = g_strndup(at, (gsize)(strchr(at, '"') - at));
    cr_assert(strstr(at, "Type: METRIC"));
    double *want = g_hash_table_lookup(s.bytes, name);
    cr_assert_not_null(want, "%s: not a track of the timeline", name);
    int n;
    double got = otf2_integral(events, loc, &n);
    cr_assert_gt(n, 1);
    cr_assert(fabs(got - *want) <= 1e-5 * *want, "%s: %.9g bytes in OTF2, %.9g in the timeline",
              name, got, *want);
  }
  /* mapsim reads its own archive back: the ranks, not the counters */
  char *info = NULL;
  const char *ia[] = { "trace", "info", arch, NULL };
  cr_assert_eq(tu_run(&info, NULL, ia), 0);
  cr_assert(strstr(info, "16 (18 locations)"), "%s", info);
  g_free(info);
  g_free(defs);
  g_free(events);
  g_hash_table_destroy(s.bytes);
}

Test(timeline, bad_requests)
{
  g_autofree char *tr = tu_src("traces/data/cg-16");
  const char *lone[] = { "simulate", "-p", "haec:4x4x4", "-t", tr, "--timeline-links", "4", NULL };
  const char *bad[] = { "simulate", "-p", "haec:4x4x4", "-t", tr, "--timeline", "x.json",
                        "--timeline-links", "busiest", NULL };
  const char *const *cases[] = { lone, bad };
  for (int i = 0; i < 2; i++) {
    char *out = NULL, *err = NULL;
    cr_assert_eq(tu_run(&out, &err, cases[i]), 2, "%s", err);
    cr_assert_eq(tu_lines(err), 1, "%s", err);
    cr_assert(strstr(err, "--timeline"), "%s", err);
    g_free(out);
    g_free(err);
  }
  cr_assert_not(g_file_test("x.json", G_FILE_TEST_EXISTS));
}

/* A full disk while the writer thread writes: status 2, one line naming
 * the file; nothing left behind. */
Test(timeline, a_failed_write_is_one_line)
{
  g_autofree char *tr = tu_src("traces/data/cg-16");
  const char *args[] = { "simulate", "-p", "haec:4x4x4", "-t", tr, "--model", "flow",
                         "--timeline", "/dev/full", "--quiet", NULL };
  char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, args), 2, "%s", err);
  cr_assert_eq(tu_lines(err), 1, "%s", err);
  cr_assert(strstr(err, "/dev/full"), "%s", err);
  g_free(out);
  g_free(err);
}

/* SIGINT while the replay streams into the writer thread: status 130
 * within a second (the writer ends too), no file, no temporary. */
Test(timeline, interrupt_ends_the_writer_within_a_second, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *gen = g_build_filename(dir, "t", NULL);
  g_autofree char *json = g_build_filename(dir, "t.json", NULL);
  const char *make[] = { "gen", "--pattern", "stencil3d", "--ranks", "512", "--dims", "8x8x8",
                         "--periodic", "--nonblocking", "--iterations", "100", "--gap", "0",
                         "-q", "-o", gen, NULL };
  cr_assert_eq(tu_run(NULL, NULL, make), 0);
  const char *argv[] = { g_getenv("MAPSIM"), "simulate", "-p", "torus:8x8x8", "-t", gen,
                         "--model", "flow", "--timeline", json, "--quiet", NULL };
  GPid pid;
  int err_fd, status = 0;
  cr_assert(g_spawn_async_with_pipes(NULL, (char **)argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                     NULL, &pid, NULL, NULL, &err_fd, NULL));
  /* the temporary appears when the stream opens, right before the replay */
  gboolean seen = FALSE;
  for (int i = 0; i < 60000 && !seen; i++) {
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;
    while ((n = g_dir_read_name(d)))
      seen = seen || g_str_has_prefix(n, ".t.json.tmp-");
    g_dir_close(d);
    if (!seen)
      g_usleep(1000);
  }
  cr_assert(seen, "no temporary of %s appeared", json);
  g_usleep(100000);
  gint64 sent = g_get_monotonic_time();
  kill(pid, SIGINT);
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  double took = (double)(g_get_monotonic_time() - sent) * 1e-6;
  g_spawn_close_pid(pid);
  char err[512] = "";
  ssize_t n = read(err_fd, err, sizeof err - 1);
  err[n > 0 ? n : 0] = '\0';
  close(err_fd);
  cr_assert(WIFEXITED(status), "killed by signal %d", WTERMSIG(status));
  cr_assert_eq(WEXITSTATUS(status), 130, "status %d (finished before the signal?): %s",
               WEXITSTATUS(status), err);
  cr_assert(took < 1.0, "ended %.2f s after SIGINT", took);
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *name;
  while ((name = g_dir_read_name(d)))
    cr_assert(strcmp(name, "t") == 0, "%s: left %s", dir, name);
  g_dir_close(d);
  tu_rm_rf(dir);
}

Test(timeline, the_report_draws_the_best_mapping_of_each_platform, .timeout = 120)
{
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *cg = tu_src("traces/data/cg-16");
  g_autofree char *haec = tu_src("configs/haec-4x4x4.ini");
  g_autofree char *ini = g_strdup_printf("[study]\nname = t\ntraces = %s\nplatforms = %s; "
                                         "torus:4x4x4\nstrategies = identity; greedy+wh\n"
                                         "models = flow\ncompute-scale = 0\n", cg, haec);
  g_autofree char *file = g_build_filename(dir, "t.ini", NULL);
  g_autofree char *out = g_build_filename(dir, "out", NULL);
  cr_assert(g_file_set_contents(file, ini, -1, NULL));
  char *o = NULL, *err = NULL;
  const char *args[] = { "study", file, "-o", out, "-q", NULL };
  cr_assert_eq(tu_run(&o, &err, args), 0, "%s", err);
  g_autofree char *page = tu_read(out, "index.html");
  cr_assert(strstr(page, "id=\"timeline\""), "no timeline section");
  /* greedy+wh is the faster on both platforms: its timelines are drawn */
  const char *figs[] = { "figures/timeline_cg-16_haec-4x4x4_greedy+wh.svg",
                         "figures/timeline_cg-16_torus-4x4x4_greedy+wh.svg" };
  for (size_t i = 0; i < G_N_ELEMENTS(figs); i++) {
    g_autofree char *svg = tu_read(out, figs[i]);
    cr_assert(strstr(svg, "<svg"), "%s", figs[i]);
  }
  g_free(o);
  g_free(err);
}

/* The recorder's log goes through its helper thread from the second chunk
 * on: every link gets the stretches, in the order, and the byte sums one
 * thread walking each route at once makes (the oracle here), also when
 * recording goes on after a settle. */
Test(timeline, the_recorder_expands_routes_as_one_thread_would)
{
  g_autoptr(platform) p = platform_load("torus:4x4", NULL);
  cr_assert(p);
  int nl = p->topo->nlinks, nn = p->topo->nnodes;
  linkrec *r = linkrec_new(nl);
  GArray **want = g_new0(GArray *, nl);
  double *bytes = g_new0(double, nl);
  for (int l = 0; l < nl; l++)
    want[l] = g_array_new(FALSE, FALSE, sizeof(linkrec_span));
  const int n = 3 * LINKREC_CHUNK + 5;
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < n; i++) {
      int64_t t0 = (int64_t)i * 10, t1 = t0 + i % 3; /* t1 == t0 becomes t0 + 1 */
      double b = 1 + i % 5 + round;
      int src = i % nn, dst = (i * 7 + 3) % nn;
      if (i % 4 == 0) {
        int l = i % nl;
        linkrec_add(r, l, t0, t1, b);
        g_array_append_val(want[l], ((linkrec_span){ t0, MAX(t1, t0 + 1), b }));
        bytes[l] += b;
      } else if (src != dst) {
        linkrec_add_route(r, p->router, src, dst, 0, 0, t0, t1, b);
        route_iter it;
        int l;
        route_begin_candidate(&it, p->router, src, dst, 0, 0);
        while (route_next(&it, &l)) {
          g_array_append_val(want[l], ((linkrec_span){ t0, MAX(t1, t0 + 1), b }));
          bytes[l] += b;
        }
      }
    }
    linkrec_settle(r);
    for (int l = 0; l < nl; l++) {
      cr_assert_eq(r->n[l], (int64_t)want[l]->len, "link %d", l);
      cr_assert(want[l]->len == 0 ||
                    memcmp(r->spans[l], want[l]->data, want[l]->len * sizeof(linkrec_span)) == 0,
                "link %d", l);
      cr_assert(r->bytes[l] == bytes[l], "link %d: %g, not %g", l, r->bytes[l], bytes[l]);
    }
  }
  for (int l = 0; l < nl; l++)
    g_array_unref(want[l]);
  g_free(want);
  g_free(bytes);
  linkrec_free(r);
}
