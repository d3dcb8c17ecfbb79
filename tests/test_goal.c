/* test_goal.c - GOAL schedules (traces/goal.h) and their LogGOPS replay
 * (sim/loggops.h): makespans worked out by hand from LogGOPSim's rules,
 * the parser's one-line refusals with their lines, the writer's round
 * trip, Schedgen's schedules (tests/data/goal/) against the makespans
 * LogGOPSim printed for them, and LogGOPSim itself as an oracle when it is
 * installed (LOGGOPSIM and TXT2BIN, or LogGOPSim and txt2bin on PATH).
 *
 * Defaults throughout: L 2500, o 1500, g 1000, G 6, O 0, S 65535. */
#include <criterion/criterion.h>

#include "sim/loggops.h"
#include "testutil.h"
#include "traces/goal.h"
#include "traces/input.h"

static goal *parse_ok(const char *text)
{
  GError *e = NULL;
  goal *g = goal_parse(text, "t.goal", &e);
  cr_assert_not_null(g, "%s", e ? e->message : "?");
  return g;
}

/* The makespan and each rank's finish under `p` (NULL: the defaults). */
static uint64_t run(const char *text, const loggops_params *p, uint64_t *finish, int n)
{
  g_autoptr(goal) g = parse_ok(text);
  loggops_params d;
  loggops_defaults(&d);
  loggops_result r;
  GError *e = NULL;
  cr_assert(loggops_run(g, p ? p : &d, NULL, &r, &e), "%s", e ? e->message : "?");
  for (int i = 0; i < n && i < r.nranks; i++)
    finish[i] = r.finish[i];
  uint64_t m = r.makespan;
  loggops_result_clear(&r);
  return m;
}

/* ---- hand-computed makespans ---- */

Test(goal_loggops, one_send_is_o_L_o_plus_s_minus_1_G)
{
  /* sender: o; the message arrives at o + L; the receiver takes it for
   * o + (s-1)G: 1500 + 2500 + 1500 + 999 * 6 */
  uint64_t f[2];
  cr_assert_eq(run("num_ranks 2\nrank 0 {\nl1: send 1000b to 1 tag 0\n}\n"
                   "rank 1 {\nl1: recv 1000b from 0 tag 0\n}\n", NULL, f, 2),
               5500 + 999 * 6);
  cr_assert_eq(f[0], 1500);
  /* with O above G the receiver's CPU pays (s-1)O, the sender's too */
  loggops_params p;
  loggops_defaults(&p);
  p.O = 10;
  cr_assert_eq(run("num_ranks 2\nrank 0 {\nsend 1000b to 1\n}\nrank 1 {\nrecv 1000b from 0\n}\n",
                   &p, f, 2), 5500 + 999 * 10);
  cr_assert_eq(f[0], 1500 + 999 * 10);
}

Test(goal_loggops, a_send_waiting_on_two_calcs_on_two_cpus)
{
  /* l3 becomes ready when the second calc (cpu 1, 0..200) is done, and is
   * queued when its CPU (0, free at 100) and NIC are: LogGOPSim starts it
   * at 100, then 100 + o + L + o + 7G */
  const char *on_cpu0 = "num_ranks 2\nrank 0 {\nl1: calc 100 cpu 0\nl2: calc 200 cpu 1\n"
                        "l3: send 8b to 1 tag 0 cpu 0\nl3 requires l1\nl3 requires l2\n}\n"
                        "rank 1 {\nl1: recv 8b from 0 tag 0\n}\n";
  uint64_t f[2];
  cr_assert_eq(run(on_cpu0, NULL, f, 2), 100 + 5500 + 42);
  cr_assert_eq(f[0], 1600); /* cpu 0 after the send's o; cpu 1 free at 200 */
  /* on cpu 1 the send waits for the 200-long calc on its own CPU */
  const char *on_cpu1 = "num_ranks 2\nrank 0 {\nl1: calc 100 cpu 0\nl2: calc 200 cpu 1\n"
                        "l3: send 8b to 1 tag 0 cpu 1\nl3 requires l1\nl3 requires l2\n}\n"
                        "rank 1 {\nl1: recv 8b from 0 tag 0\n}\n";
  cr_assert_eq(run(on_cpu1, NULL, f, 2), 200 + 5500 + 42);
  cr_assert_eq(f[0], 1700);
}

Test(goal_loggops, irequires_starts_with_the_send_requires_waits_for_its_end)
{
  /* a rendezvous send (100000 > S) is done when matched: its message
   * arrives at 4000, where the receive is posted. irequires: the calc
   * starts after the send's o (1500) and ends at 4500; requires: it waits
   * for the match (4000) and ends at 7000. The receiver: 4000 + o +
   * 99999 G either way. */
#define IREQ_CASE(dep) "num_ranks 2\nrank 0 {\nl1: send 100000b to 1 tag 0\nl2: calc 3000\n" \
                       "l2 " dep " l1\n}\nrank 1 {\nl1: recv 100000b from 0 tag 0\n}\n"
  uint64_t f[2];
  const char *ireq = IREQ_CASE("irequires"), *req = IREQ_CASE("requires");
  cr_assert_eq(run(ireq, NULL, f, 2), 5500 + 99999 * 6);
  cr_assert_eq(f[0], 4500);
  cr_assert_eq(run(req, NULL, f, 2), 5500 + 99999 * 6);
  cr_assert_eq(f[0], 7000);
}

Test(goal_loggops, eager_up_to_S_rendezvous_above)
{
  /* the receive is posted after a calc of 10000; the message waits for
   * that CPU, then takes o + (s-1)G. Eager (s = S): the send is done at
   * once and the sender's calc runs at o: 1500..1600. Rendezvous (s = S +
   * 1): the send is done at the match (10000), the calc runs 10000..10100. */
#define SIZE_CASE(s) "num_ranks 2\nrank 0 {\nl1: send " s "b to 1\nl2: calc 100\nl2 requires l1\n}\n" \
                     "rank 1 {\nl1: calc 10000\nl2: recv " s "b from 0\nl2 requires l1\n}\n"
  uint64_t f[2];
  const char *eager = SIZE_CASE("65535"), *rdv = SIZE_CASE("65536");
  cr_assert_eq(run(eager, NULL, f, 2), 11500 + 65534 * 6);
  cr_assert_eq(f[0], 1600);
  cr_assert_eq(run(rdv, NULL, f, 2), 11500 + 65535 * 6);
  cr_assert_eq(f[0], 10100);
}

Test(goal_loggops, any_source_and_the_receivers_cpu_in_turn)
{
  /* two messages arrive at 4000; the first takes rank 2's CPU until 5542,
   * the second then until 7084; the receives from -1 take either */
  uint64_t f[3];
  cr_assert_eq(run("num_ranks 3\nrank 0 {\nsend 8b to 2 tag 5\n}\nrank 1 {\nsend 8b to 2 tag 7\n}\n"
                   "rank 2 {\nrecv 8b from -1 tag -1\nrecv 8b from -1 tag 7\n}\n", NULL, f, 3),
               7084);
  cr_assert_eq(f[2], 7084);
}

Test(goal_loggops, a_receive_never_matched_is_refused)
{
  g_autoptr(goal) g = parse_ok("num_ranks 2\nrank 0 {\n}\nrank 1 {\nl1: recv 8b from 0 tag 3\n}\n");
  loggops_params p;
  loggops_defaults(&p);
  loggops_result r;
  GError *e = NULL;
  cr_assert_not(loggops_run(g, &p, NULL, &r, &e));
  cr_assert_str_eq(e->message, "rank 1: operation l1 (recv from 0 tag 3) never matched a send, "
                               "expected a send for every receive");
  g_error_free(e);
}

Test(goal_loggops, model_spec)
{
  loggops_params p;
  GError *e = NULL;
  cr_assert(loggops_parse("loggops:L=10:o=2:g=3:G=4:O=5:S=6:unit=1us", &p, &e));
  cr_assert(p.L == 10 && p.o == 2 && p.g == 3 && p.G == 4 && p.O == 5 && p.S == 6);
  cr_assert_float_eq(p.unit_s, 1e-6, 1e-18);
  cr_assert_not(loggops_parse("loggops:Q=1", &p, &e));
  cr_assert_str_eq(e->message, "--model loggops:Q=1: 'Q=1', expected one of L, o, g, G, O, S, "
                               "unit, net as KEY=VALUE");
  g_clear_error(&e);
  cr_assert_not(loggops_parse("loggops:L=-1", &p, &e));
  g_clear_error(&e);
}

/* ---- the parser's refusals ---- */

typedef struct bad_case {
  const char *text, *message;
} bad_case;

static const bad_case bad_cases[] = {
  { "num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n", "t.goal:3: 'to', expected 'b' after the size" },
  { "rank 0 {\n}\n", "t.goal:1: 'rank', expected num_ranks first" },
  { "num_ranks 1\nrank 0 {\nl1: calc 5\nl2 requires l1\n}\n",
    "t.goal:4: label 'l2' not defined in rank 0, expected a label defined above in the same rank" },
  { "num_ranks 2\nrank 0 {\nsend 1b to 2\n}\nrank 1 {\n}\n",
    "t.goal:3: '2', expected a rank below num_ranks 2" },
  { "num_ranks 2\nrank 1 {\n}\n",
    "t.goal:2: '1', expected rank 0 (ranks in order, as txt2bin reads them)" },
  { "num_ranks 1\nrank 0 {\ncalc 5\n", "t.goal:4: the end of the file, expected '}' closing rank 0" },
  { "num_ranks 2\nrank 0 {\n}\n",
    "t.goal:4: the end of the file, expected rank 1 (ranks in order, as txt2bin reads them)" },
  { "num_ranks 1\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n",
    "t.goal:4: label 'l1' defined twice in rank 0, expected each label once per rank" },
  { "num_ranks 1\n/* open\nrank 0 {\n", "t.goal:2: a comment '/*' never closed, expected '*/'" },
  { "num_ranks 1\nrank 0 {\ncalc 5 cpu 256\n}\n", "t.goal:3: '256', expected a number from 0 to 255" },
  { "num_ranks 2\nrank 0 {\nsend 1b to -1\n}\n", "t.goal:3: '-1', expected a rank below num_ranks 2" },
  { "num_ranks 2\nrank 0 {\nsend 1b to 1 nic 1 tag 3\n}\n",
    "t.goal:3: 'tag', expected the end of the line" },
  { "num_ranks 1\nrank 0 {\ncalc 5 nic 1\n}\n", "t.goal:3: 'nic', expected cpu or the end of the line" },
  { "num_ranks 1\nrank 0 {\nsend 99999999999999999999b to 0\n}\n",
    "t.goal:3: '99999999999999999999', expected a size in bytes" },
};

Test(goal_parse, refusals)
{
  for (size_t i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
    const bad_case *c = &bad_cases[i];
    GError *e = NULL;
    goal *g = goal_parse(c->text, "t.goal", &e);
    cr_assert_null(g, "case %zu accepted", i);
    cr_expect_str_eq(e->message, c->message, "case %zu", i);
    g_error_free(e);
  }
}

Test(goal_parse, comments_labels_and_options)
{
  g_autoptr(goal) g = parse_ok("// a schedule\nnum_ranks 2 /* two */\n\nrank 0 {\n"
                               "a_1: send 8b to 1 tag 4 cpu 1 nic 2 // trailing\n"
                               "recv 16 b from -1 tag -1\ncalc 7 cpu 3\n}\nrank 1 {\n"
                               "x: recv 8b from 0 tag 4\ny: calc 1\ny irequires x\n}\n");
  cr_assert_eq(g->nranks, 2);
  cr_assert_eq(g->nops, 5);
  cr_assert_eq(g->first[1], 3);
  const goal_op *s = &g->ops[0];
  cr_assert(s->kind == GOAL_SEND && s->size == 8 && s->peer == 1 && s->tag == 4 && s->cpu == 1 &&
            s->nic == 2);
  cr_assert(g->ops[1].kind == GOAL_RECV && g->ops[1].size == 16 && g->ops[1].peer == GOAL_ANY &&
            g->ops[1].tag == GOAL_ANY);
  cr_assert(g->ops[2].kind == GOAL_CALC && g->ops[2].size == 7 && g->ops[2].cpu == 3);
  cr_assert_eq(g->max_cpu, 3);
  cr_assert_eq(g->max_nic, 2);
  /* y (local 1 of rank 1) waits for the start of x (global 3) */
  cr_assert_eq(g->start_xadj[4] - g->start_xadj[3], 1);
  cr_assert_eq(g->after_start[g->start_xadj[3]], 1);
  cr_assert_eq(g->ndeps[4], 1);
}

/* ---- round trip ---- */

static void assert_same(const goal *a, const goal *b)
{
  cr_assert_eq(a->nranks, b->nranks);
  cr_assert_eq(a->nops, b->nops);
  cr_assert(memcmp(a->first, b->first, sizeof(int64_t) * (size_t)(a->nranks + 1)) == 0);
  for (int64_t i = 0; i < a->nops; i++) {
    const goal_op *x = &a->ops[i], *y = &b->ops[i];
    cr_assert(x->kind == y->kind && x->size == y->size && x->peer == y->peer &&
              x->tag == y->tag && x->cpu == y->cpu && x->nic == y->nic, "op %ld", (long)i);
    cr_assert_eq(a->ndeps[i], b->ndeps[i]);
  }
  cr_assert(memcmp(a->end_xadj, b->end_xadj, sizeof(int64_t) * (size_t)(a->nops + 1)) == 0);
  cr_assert(memcmp(a->start_xadj, b->start_xadj, sizeof(int64_t) * (size_t)(a->nops + 1)) == 0);
  cr_assert(memcmp(a->after_end, b->after_end, sizeof(uint32_t) * (size_t)a->end_xadj[a->nops]) == 0);
  cr_assert(memcmp(a->after_start, b->after_start,
                   sizeof(uint32_t) * (size_t)a->start_xadj[a->nops]) == 0);
}

static goal *write_and_read(const goal *g)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cr_assert(goal_write(g, f));
  fclose(f);
  goal *back = parse_ok(buf);
  free(buf);
  return back;
}

Test(goal_write, round_trip_of_schedgen_and_hand_written)
{
  g_autofree char *path = tu_data("goal/nbc-bcast-8.goal");
  GError *e = NULL;
  g_autoptr(goal) g = goal_read(path, &e);
  cr_assert_not_null(g, "%s", e ? e->message : "?");
  g_autoptr(goal) back = write_and_read(g);
  assert_same(g, back);
  g_autoptr(goal) h = parse_ok("num_ranks 2\nrank 0 {\na: send 0b to 1 tag -1 cpu 2 nic 1\n"
                               "b: calc 3\nc: recv 5b from -1 tag 9\nb irequires a\nc requires a\n"
                               "c requires b\n}\nrank 1 {\n}\n");
  g_autoptr(goal) hb = write_and_read(h);
  assert_same(h, hb);
}

/* ---- Schedgen's schedules, LogGOPSim's makespans ---- */

typedef struct pinned {
  const char *file;
  uint64_t makespan; /* LogGOPSim -b, stable_sort build (see tests/data/goal/README.md) */
} pinned;

static const pinned pins[] = {
  { "bcast-binomial-64.goal", 69828 },
  { "allreduce-recdoub-32.goal", 1217440 },
  { "allreduce-ring-17.goal", 175808 },
  { "dissemination-16.goal", 1701976 },
  { "alltoall-16.goal", 451050 },
  { "nbc-bcast-8.goal", 16626 },
};

Test(goal_loggops, schedgen_schedules_at_loggopsims_makespans)
{
  loggops_params p;
  loggops_defaults(&p);
  for (size_t i = 0; i < G_N_ELEMENTS(pins); i++) {
    g_autofree char *rel = g_build_filename("goal", pins[i].file, NULL);
    g_autofree char *path = tu_data(rel);
    GError *e = NULL;
    g_autoptr(goal) g = goal_read(path, &e);
    cr_assert_not_null(g, "%s", e ? e->message : "?");
    loggops_result r;
    cr_assert(loggops_run(g, &p, NULL, &r, &e), "%s", e ? e->message : "?");
    cr_expect_eq(r.makespan, pins[i].makespan, "%s: %lu, LogGOPSim %lu", pins[i].file,
                 (unsigned long)r.makespan, (unsigned long)pins[i].makespan);
    loggops_result_clear(&r);
  }
}

/* The LogGOPSim binary: $LOGGOPSIM, else on PATH; NULL when neither. */
static char *find_tool(const char *env, const char *name)
{
  const char *v = g_getenv(env);
  if (v && *v)
    return g_file_test(v, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup(v) : NULL;
  return g_find_program_in_path(name);
}

Test(goal_loggops, oracle_loggopsim_when_installed)
{
  g_autofree char *sim = find_tool("LOGGOPSIM", "LogGOPSim");
  g_autofree char *txt2bin = find_tool("TXT2BIN", "txt2bin");
  if (!sim || !txt2bin)
    cr_skip_test("LogGOPSim not found: set LOGGOPSIM and TXT2BIN to its LogGOPSim and txt2bin "
                 "(a stable_sort build, see tests/data/goal/README.md), or put them on PATH");
  g_autofree char *dir = tu_tmp_dir();
  g_autofree char *bin = g_build_filename(dir, "s.bin", NULL);
  loggops_params p;
  loggops_defaults(&p);
  for (size_t i = 0; i < G_N_ELEMENTS(pins); i++) {
    g_autofree char *rel = g_build_filename("goal", pins[i].file, NULL);
    g_autofree char *path = tu_data(rel);
    char *conv[] = { txt2bin, "-i", path, "-o", bin, NULL };
    cr_assert_eq(tu_spawn(conv, NULL, NULL), 0, "txt2bin %s", path);
    char *simv[] = { sim, "-f", bin, "-b", NULL };
    g_autofree char *out = NULL;
    cr_assert_eq(tu_spawn(simv, &out, NULL), 0);
    const char *at = strstr(out, "Maximum finishing time at host ");
    cr_assert_not_null(at, "%s: LogGOPSim printed no makespan:\n%s", pins[i].file, out);
    at = strchr(at, ':');
    uint64_t theirs = g_ascii_strtoull(at + 1, NULL, 10);
    GError *e = NULL;
    g_autoptr(goal) g = goal_read(path, &e);
    loggops_result r;
    cr_assert(g && loggops_run(g, &p, NULL, &r, &e));
    cr_expect_eq(r.makespan, theirs, "%s: mapsim %lu, LogGOPSim %lu", pins[i].file,
                 (unsigned long)r.makespan, (unsigned long)theirs);
    loggops_result_clear(&r);
  }
}

/* ---- the command ---- */

Test(goal_cli, simulate_loggops_and_the_reader_row)
{
  g_autofree char *path = tu_data("goal/bcast-binomial-64.goal");
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "--model", "loggops", "-t", path,
                                                    "--csv", NULL }), 0, "%s", err);
  cr_assert(strstr(out, ",loggops,64,") && strstr(out, ",69828,"), "%s", out);
  g_free(out);
  g_free(err);
  /* other parameters: L=0 halves nothing but the latency term */
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "--model",
                                                    "loggops:L=0:unit=1ps", "-t", path, "--json",
                                                    NULL }), 0, "%s", err);
  cr_assert(strstr(out, "\"makespan_units\" : 54828"), "%s", out);
  g_free(out);
  g_free(err);
  /* on a platform the messages cross its links: it runs */
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "--model", "loggops", "-t", path,
                                                    "-p", "mesh:4x4x4", "--json", NULL }), 0,
               "%s", err);
  cr_assert(strstr(out, "\"makespan_units\""), "%s", out);
  g_free(out);
  g_free(err);
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "--model", "loggops", "-t", path,
                                                    "--timeline", "x.json", NULL }), 2);
  cr_assert(strstr(err, "--model loggops records no timeline"), "%s", err);
  g_free(out);
  g_free(err);
  /* the graph of the sends, for map and metrics */
  cr_assert_eq(input_recognize(path, INPUT_GRAPH, INPUT_PROBE_CONTENT),
               input_reader_find("goal"));
  GError *e = NULL;
  g_autoptr(commgraph) cg = input_read_matrix(path, NULL, &e);
  cr_assert_not_null(cg, "%s", e ? e->message : "?");
  cr_assert_eq(cg->nedges, 63); /* a binomial tree: every rank but the root receives once */
  cr_assert_eq(commgraph_total_bytes(cg), 63 * 1024);
  /* trace info names the format and counts the schedule */
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "trace", "info", path, "--json", NULL }), 0,
               "%s", err);
  cr_assert(strstr(out, "\"format\" : \"goal\"") && strstr(out, "\"sends\" : 63") &&
            strstr(out, "\"requires\" : 57") && strstr(out, "\"p2p_bytes\" : 64512"), "%s", out);
  g_free(out);
  g_free(err);
  /* bad input: one line, status 2 */
  g_autofree char *bad = tu_write_tmp("bad.goal", "num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n");
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "--model", "loggops", "-t", bad,
                                                    NULL }), 2);
  g_autofree char *want = g_strdup_printf("mapsim: %s:3: 'to', expected 'b' after the size\n", bad);
  cr_assert_str_eq(err, want);
}

Test(goal_cli, export_goal_then_read_gives_the_traces_makespan)
{
  /* a trace replayed under loggops, and its exported schedule read back:
   * the same schedule, so the same makespan; the export is GOAL that the
   * parser takes (and txt2bin: the oracle test reads such files) */
  const char *traces[] = { "traces/data/ring-8", "traces/data/cg-16" };
  for (size_t i = 0; i < G_N_ELEMENTS(traces); i++) {
    g_autofree char *tpath = tu_src(traces[i]);
    g_autofree char *dir = tu_tmp_dir();
    g_autofree char *file = g_build_filename(dir, "x.goal", NULL);
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *o3 = NULL, *e3 = NULL;
    cr_assert_eq(tu_run(&out, &err, (const char *[]){ "export", "goal", "-t", tpath, "-o", file,
                                                      NULL }), 0, "%s", err);
    cr_assert_eq(tu_run(&out2, &err2, (const char *[]){ "simulate", "--model", "loggops", "-t",
                                                        tpath, "--csv", NULL }), 0, "%s", err2);
    cr_assert_eq(tu_run(&o3, &e3, (const char *[]){ "simulate", "--model", "loggops", "-t", file,
                                                    "--csv", NULL }), 0, "%s", e3);
    /* the rows differ only in the trace cell */
    const char *a = strstr(out2, ",loggops,"), *b = strstr(o3, ",loggops,");
    cr_assert(a && b);
    cr_assert_str_eq(a, b);
    GError *e = NULL;
    g_autoptr(goal) g = goal_read(file, &e);
    cr_assert_not_null(g, "%s", e ? e->message : "?");
    g_autoptr(goal) back = write_and_read(g);
    assert_same(g, back);
  }
}

Test(goal_trace, nonblocking_operations_irequire_waits_require)
{
  /* rank 0: isend to 1, compute 1 us, wait; rank 1: recv. The send and
   * the calc: calc irequires the isend; what follows the wait requires
   * the isend's end */
  trace *t = trace_new(2);
  uint32_t isend = trace_add_region(t, "MPI_Isend"), wait = trace_add_region(t, "MPI_Wait"),
           recv = trace_add_region(t, "MPI_Recv");
  trace_event ev[] = {
    { .time = 0, .region = isend, .kind = TRACE_ENTER },
    { .time = 0, .bytes = 8, .comm = t->world, .peer = 1, .tag = 3, .request = 7, .kind = TRACE_ISEND },
    { .time = 0, .region = isend, .kind = TRACE_LEAVE },
    { .time = 1000000, .region = wait, .kind = TRACE_ENTER },
    { .time = 1000000, .request = 7, .kind = TRACE_ISEND_COMPLETE },
    { .time = 1000000, .region = wait, .kind = TRACE_LEAVE },
    { .time = 2000000, .region = wait, .kind = TRACE_ENTER },
    { .time = 2000000, .region = wait, .kind = TRACE_LEAVE },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(ev); i++)
    trace_push(t, 0, &ev[i]);
  trace_event rv[] = {
    { .time = 0, .region = recv, .kind = TRACE_ENTER },
    { .time = 5000, .bytes = 8, .comm = t->world, .peer = 0, .tag = 3, .kind = TRACE_RECV },
    { .time = 5000, .region = recv, .kind = TRACE_LEAVE },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(rv); i++)
    trace_push(t, 1, &rv[i]);
  GError *e = NULL;
  g_autoptr(goal) g = goal_of_trace(t, 1e-9, NULL, &e);
  trace_free(t);
  cr_assert_not_null(g, "%s", e ? e->message : "?");
  /* rank 0: l1 send, l2 calc 1000 (irequires l1), l3 calc 1000 (requires
   * l2 and l1's end); rank 1: l1 recv */
  cr_assert_eq(g->first[1], 3);
  cr_assert(g->ops[0].kind == GOAL_SEND && g->ops[0].size == 8 && g->ops[0].tag == 3);
  cr_assert(g->ops[1].kind == GOAL_CALC && g->ops[1].size == 1000);
  cr_assert(g->ops[2].kind == GOAL_CALC && g->ops[2].size == 1000);
  cr_assert_eq(g->start_xadj[1] - g->start_xadj[0], 1); /* l2 irequires l1 */
  cr_assert_eq(g->after_start[g->start_xadj[0]], 1);
  cr_assert_eq(g->ndeps[2], 2);                         /* l3: l2 and l1 */
  cr_assert(g->ops[3].kind == GOAL_RECV && g->ops[3].peer == 0);
  /* timed: the send's o (0..1500), the calcs 1500..2500..3500 */
  loggops_params p;
  loggops_defaults(&p);
  loggops_result r;
  cr_assert(loggops_run(g, &p, NULL, &r, &e));
  cr_assert_eq(r.finish[0], 3500);
  cr_assert_eq(r.finish[1], 5542);
  loggops_result_clear(&r);
}

Test(goal_cli, traces_exported_and_timed_by_loggopsim)
{
  /* `mapsim export goal` of these traces, run through LogGOPSim's txt2bin
   * and LogGOPSim -b (stable_sort build, defaults), printed these
   * makespans (bench/README.md, issue 36); mapsim's replay of the traces
   * themselves must give them */
  const struct {
    const char *trace;
    const char *makespan;
  } cases[] = {
    { "traces/data/cg-16", ",3661376," },                            /* irequires */
    { "tests/data/traces/casita-4_mpi_ls_barr", ",19992308935," },  /* collectives */
    { "tests/data/traces/eztrace-tracer_app-4-persistent", ",32783805," },
  };
  for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *tpath = tu_src(cases[i].trace);
    g_autofree char *out = NULL, *err = NULL;
    cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "--model", "loggops", "-t",
                                                      tpath, "--csv", NULL }), 0, "%s", err);
    cr_expect(strstr(out, cases[i].makespan), "%s: %s", cases[i].trace, out);
  }
}

/* GOAL schedules replayed as dependency graphs on a platform, by hand:
 * mesh:2 is one link of 31.25e9 B/s and 10 ps. */
static double makespan_on_mesh2(const char *name, const char *text)
{
  g_autofree char *path = tu_write_tmp(name, text);
  g_autofree char *out = NULL, *err = NULL;
  cr_assert_eq(tu_run(&out, &err, (const char *[]){ "simulate", "-p", "mesh:2", "-t", path,
                                                    "--model", "analytic", "--json", NULL }), 0,
               "%s", err);
  const char *m = strstr(out, "\"makespan_s\" : ");
  cr_assert_not_null(m, "%s", out);
  return g_ascii_strtod(m + strlen("\"makespan_s\" : "), NULL);
}

Test(goal_dag, hand_computed_makespans)
{
  /* a send waiting on two calcs on two CPUs: after the longer (200 ns),
   * then 1000 B eager: 32 ns + 10 ps */
  const char *two_cpus = "num_ranks 2\nrank 0 {\nl1: calc 100 cpu 0\nl2: calc 200 cpu 1\n"
                         "l3: send 1000b to 1 tag 0\nl3 requires l1\nl3 requires l2\n}\n"
                         "rank 1 {\nl1: recv 1000b from 0 tag 0\n}\n";
  cr_assert_float_eq(makespan_on_mesh2("two-cpus.goal", two_cpus), 232.01e-9, 1e-15);
  /* irequires: the send starts once l2 has started (and l1 ended, 100 ns):
   * it arrives at 132.01 ns, before l2 ends at 200 ns */
  const char *irequires = "num_ranks 2\nrank 0 {\nl1: calc 100 cpu 0\nl2: calc 200 cpu 1\n"
                          "l3: send 1000b to 1 tag 0\nl3 requires l1\nl3 irequires l2\n}\n"
                          "rank 1 {\nl1: recv 1000b from 0 tag 0\n}\n";
  cr_assert_float_eq(makespan_on_mesh2("irequires.goal", irequires), 200e-9, 1e-15);
  /* a ping-pong of 1 MB, rendezvous (RTS, CTS, data) each way:
   * 2 x (3 x 10 ps + 1e6 / 31.25e9 s) */
  const char *pingpong = "num_ranks 2\nrank 0 {\nl1: send 1000000b to 1 tag 0\n"
                         "l2: recv 1000000b from 1 tag 1\nl2 requires l1\n}\n"
                         "rank 1 {\nl1: recv 1000000b from 0 tag 0\n"
                         "l2: send 1000000b to 0 tag 1\nl2 requires l1\n}\n";
  double pp = makespan_on_mesh2("pingpong.goal", pingpong);
  cr_assert_float_eq(pp, 2 * (3 * 10e-12 + 1e6 / 31.25e9), 1e-15);
  /* the same bytes on every run */
  cr_assert_float_eq(makespan_on_mesh2("pingpong2.goal", pingpong), pp, 0);
}
