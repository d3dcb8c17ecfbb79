/* cmd-export.c - `mapsim export simgrid|mapping`: a run for SimGrid's
 * offline replay, and a mapping for an MPI launcher.
 *
 * export simgrid writes one folder (atomically, util/output.h):
 * platform.xml (routing/platform.h, platform_write_simgrid), hostfile (the
 * mapping, mapping/launch.h), traces.txt and ranks/RANK.txt (the trace in
 * SimGrid's time-independent format, traces/simgrid-ti.h) and smpirun.sh,
 * which runs smpirun -replay there with the options of
 * platform_simgrid_options(). The mapping comes from the same pipeline as
 * simulate's (sim/run.h). */
#include <stdio.h>
#include <string.h>

#include "mapping/launch.h"
#include "cli/cli.h"
#include "sim/run.h"
#include "traces/simgrid-ti.h"
#include "cli/simulate-loggops.h"
#include "util/output.h"

#define HOST_PREFIX "node-"

/* The run of --mapping or --strategy (identity without either) the
 * common options ask for; no replay. */
static void place_spec(const cli_common *c, run_spec *spec)
{
  run_spec_init(spec);
  spec->mapping_file = c->mapping;
  spec->strategy = c->strategy;
  spec->seed = c->seed;
  spec->map_progress = cli_progress(c);
}

/* The placement of the options for the traffic `g` (and the trace `src`,
 * may be NULL), as simulate makes it. */
static mapping *placement(const cli_common *c, const platform *p, const commgraph *g,
                          gboolean with_colls, const trace_source *src, GError **error)
{
  run_spec spec;
  place_spec(c, &spec);
  run_inputs in = { .p = p, .g = g, .g_collectives = with_colls, .src = src };
  run_result *res = run_cell(&in, &spec, error);
  cli_progress_end();
  mapping *m = NULL;
  if (res) {
    m = res->m;
    res->m = NULL;
  }
  run_result_free(res);
  return m;
}

static gboolean write_text(const char *dir, const char *name, const char *text, GError **error)
{
  g_autofree char *path = g_build_filename(dir, name, NULL);
  return output_write_all(path, text, strlen(text), NULL, error);
}

/* Fills the folder `dir` being built; FALSE and `error` on failure. */
static gboolean write_folder(const cli_common *c, const platform *p, const trace_source *src,
                             const mapping *m, const coll_choice *colls, double min_compute,
                             const char *dir, GPtrArray *notes, ti_stats *st, GError **error)
{
  gboolean *used = g_new0(gboolean, p->topo->nnodes);
  for (int r = 0; r < m->ntasks; r++)
    used[m->node[r]] = TRUE;
  g_autofree char *xml = g_build_filename(dir, "platform.xml", NULL);
  g_autofree char *hostfile = g_build_filename(dir, "hostfile", NULL);
  gboolean ok = platform_write_simgrid(p, used, HOST_PREFIX, 1e12, xml, error);
  g_free(used);
  host_names *hn = ok ? host_names_new(p, HOST_PREFIX "%d", error) : NULL;
  ok = hn && launch_save(launch_format_lookup("hostfile", NULL), m, p, hn, hostfile, error);
  host_names_free(hn);
  ti_opts to;
  ti_opts_init(&to);
  to.compute_scale = c->compute_scale;
  to.min_compute_ps = (int64_t)(min_compute * 1e12 + 0.5);
  to.colls = colls;
  ok = ok && ti_write(src, dir, "ranks", "traces.txt", &to, st, error);
  if (!ok)
    return FALSE;
  g_autofree char *opts = platform_simgrid_options(p, notes);
  g_autofree char *script = g_strdup_printf(
      "#!/bin/sh\n"
      "# written by mapsim export simgrid: replays %s on %s in SimGrid\n"
      "# (SMPI's offline replay); the last line printed is\n"
      "# [SIMULATED_SECONDS] Simulation time ... (the makespan). Extra smpirun\n"
      "# options may follow: sh smpirun.sh --cfg=...\n"
      "# Exits 0 only when the replay ran to its end: 1 when SimGrid reports a\n"
      "# deadlock or prints no simulated time, smpirun's status when it fails,\n"
      "# 130 on SIGINT, SIGTERM, SIGHUP or SIGPIPE (its output closed early), its\n"
      "# log in $TMPDIR removed in every case.\n"
      "cd \"$(dirname \"$0\")\" || exit 2\n"
      "R=${SMPIREPLAYMAIN:-}\n"
      "for f in /usr/lib/*/simgrid/smpireplaymain /usr/lib/simgrid/smpireplaymain "
      "/usr/local/lib/simgrid/smpireplaymain; do\n"
      "  [ -z \"$R\" ] && [ -x \"$f\" ] && R=$f\n"
      "done\n"
      "[ -n \"$R\" ] || { echo 'smpirun.sh: smpireplaymain not found (libsimgrid-dev), set "
      "SMPIREPLAYMAIN' >&2; exit 2; }\n"
      "log=\n"
      "trap '[ -z \"$log\" ] || rm -f \"$log\" \"$log.rc\"' EXIT\n"
      "trap 'exit 130' INT TERM HUP PIPE\n"
      "log=$(mktemp \"${TMPDIR:-/tmp}/mapsim-smpirun.XXXXXX\") || exit 2\n"
      "{ smpirun -np %d -platform platform.xml -hostfile hostfile -replay traces.txt \"$R\" \\\n"
      "  %s \\\n"
      "  --log=root.thres:critical --log=smpi_replay.thres:info "
      "--log=smpi_replay.fmt:[%%.12r]%%e%%m%%n \"$@\" 2>&1; echo $? > \"$log.rc\"; } | tee \"$log\"\n"
      "rc=$(cat \"$log.rc\" 2>/dev/null || echo 3)\n"
      "if grep -q 'Deadlock' \"$log\"; then\n"
      "  echo 'smpirun.sh: SimGrid reports a deadlock: the replay did not run to its end' >&2\n"
      "  exit 1\n"
      "fi\n"
      "[ \"$rc\" = 0 ] || { echo \"smpirun.sh: smpirun failed (status $rc)\" >&2; exit \"$rc\"; }\n"
      "grep -q '] Simulation time' \"$log\" || { echo 'smpirun.sh: SimGrid printed no simulated "
      "time' >&2; exit 1; }\n",
      c->trace, p->name, m->ntasks, opts);
  return write_text(dir, "smpirun.sh", script, error);
}

static int export_simgrid(int argc, char **argv)
{
  cli_common c;
  char *out = NULL;
  double min_compute = 0;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder to write (must not exist or be empty)",
      "DIR" },
    { "min-compute", 0, 0, G_OPTION_ARG_DOUBLE, &min_compute,
      "Carry computation gaps shorter than S seconds into the next one (fewer actions; default 0: "
      "every gap)", "S" },
    { NULL },
  };
  int status = 2;
  platform *p = NULL;
  trace_source *src = NULL;
  commgraph *g = NULL;
  mapping *m = NULL;
  output *o = NULL;
  GPtrArray *notes = g_ptr_array_new_with_free_func(g_free);
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "export simgrid", "",
                 "Writes a run for SimGrid's offline replay (smpirun -replay): the platform with "
                 "mapsim's links and routes, a hostfile from the mapping, the trace in SimGrid's "
                 "time-independent format (computation as flops at 1e12 flop/s: one flop per "
                 "picosecond) and smpirun.sh, which replays it.",
                 "Examples:\n"
                 "  mapsim export simgrid -p torus:4x4x4 -t traces/data/cg-16 --preset simgrid -o cg-sg\n"
                 "  mapsim export simgrid -p configs/haec-4x4x4.ini -t traces/data/stencil3d-64 "
                 "-s greedy --preset simgrid --compute-scale 0 -o st-sg\n"
                 "  sh cg-sg/smpirun.sh   # after: SimGrid (libsimgrid-dev) replays it",
                 CLI_OPT_PLACE | CLI_OPT_TRACE | CLI_OPT_MAPPING | CLI_OPT_STRATEGY | CLI_OPT_SEED |
                     CLI_OPT_REPLAY | CLI_OPT_PROTOCOL | CLI_OPT_COLLECTIVES | CLI_OPT_PROGRESS,
                 &c, entries))
    goto done;
  if (argc > 1) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "export simgrid: unexpected argument '%s', expected options only", argv[1]);
    goto fail;
  }
  if (!out || !c.trace) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "export simgrid: %s missing, expected --trace T and -o DIR",
                out ? "--trace" : "-o DIR");
    goto fail;
  }
  run_spec spec;
  place_spec(&c, &spec);
  if (!run_spec_check(&spec, &e))
    goto fail;
  if (!(min_compute >= 0 && min_compute < 1e6)) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--min-compute %g: expected 0 <= seconds < 1e6", min_compute);
    goto fail;
  }
  coll_choice colls;
  if (!(p = cli_common_platform(&c, &e)) || !coll_choice_parse(&colls, c.collectives, &e))
    goto fail;
  src = cli_open_source(&c, c.trace, &e);
  gboolean with_colls;
  if (!src || !(g = run_traffic_graph_source(src, c.collectives, &with_colls, &e)) ||
      !(m = placement(&c, p, g, with_colls, src, &e)) ||
      !(o = output_open_dir(out, cli_progress(&c), &e)))
    goto fail;
  ti_stats st;
  if (!write_folder(&c, p, src, m, &colls, min_compute, output_dir(o), notes, &st, &e)) {
    output_abort(o);
    o = NULL;
    goto fail;
  }
  gboolean committed = output_commit(o, &e);
  o = NULL;
  if (!committed)
    goto fail;
  const char *zone = platform_simgrid_cluster(p);
  char *routes = zone ? g_strdup_printf("SimGrid's own in a %s cluster", zone)
                      : g_strdup("mapsim's, in a Full zone");
  printf("%s: SimGrid replay of %s on %s, %d ranks (routes: %s)\n"
         "  platform.xml, hostfile, traces.txt + ranks/ (%" G_GINT64_FORMAT " actions, %"
         G_GINT64_FORMAT " collective calls expanded), smpirun.sh\n"
         "  run: sh %s/smpirun.sh\n", out, c.trace, p->name, m->ntasks,
         routes, st.actions, st.coll_calls, out);
  g_free(routes);
  if (st.coll_skipped)
    g_ptr_array_add(notes, g_strdup_printf("%" G_GINT64_FORMAT " collective calls some member "
                                           "never makes were left out", st.coll_skipped));
  if (st.serialized)
    g_ptr_array_add(notes, g_strdup_printf("%" G_GINT64_FORMAT " requests were waited early: "
                                           "more than %d of one source, destination and tag were "
                                           "open at once, and SMPI keeps one open request per "
                                           "(source, destination, tag)", st.serialized, TI_LANES));
  if (st.tags_folded)
    g_ptr_array_add(notes, g_strdup_printf("%" G_GINT64_FORMAT " messages have tags of %d or "
                                           "more, which SMPI sees modulo %d: it may match them "
                                           "to other receives than the traced run did",
                                           st.tags_folded, TI_TAG_SPAN, TI_TAG_SPAN));
  if (st.comms_folded)
    g_ptr_array_add(notes, g_strdup_printf("%" G_GINT64_FORMAT " messages travel on communicators "
                                           "past the first %d, which share SMPI's tags with "
                                           "others: SMPI may match them to other receives than "
                                           "the traced run did", st.comms_folded, TI_COMM_SLOTS));
  if (st.unmatched)
    g_ptr_array_add(notes, g_strdup_printf("%" G_GINT64_FORMAT " completions of requests never "
                                           "posted, or cancelled sends, were left out",
                                           st.unmatched));
  for (guint i = 0; i < notes->len; i++)
    fprintf(stderr, "mapsim: note: %s\n", (const char *)g_ptr_array_index(notes, i));
  status = 0;
  goto done;
fail:
  status = cli_fail(e);
done:
  output_abort(o);
  mapping_free(m);
  commgraph_free(g);
  trace_source_free(src);
  platform_free(p);
  g_ptr_array_unref(notes);
  g_free(out);
  cli_common_clear(&c);
  return status;
}

static int export_mapping(int argc, char **argv)
{
  cli_common c;
  char *out = NULL, *format = NULL, *hosts = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      "openmpi-rankfile, mpich-rank-order, slurm-hostfile or hostfile", "F" },
    { "hosts", 0, 0, G_OPTION_ARG_STRING, &hosts,
      "Host names: a pattern with the node id (node-%d, nid%05d; default the platform's "
      "node names (a Slurm topology's), else " LAUNCH_DEFAULT_HOSTS ") or a file, one name per node (node order) or per allocated node (allocation order)",
      "SPEC" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "File to write (default: standard output)",
      "FILE" },
    { NULL },
  };
  int status = 2;
  platform *p = NULL;
  mapping *m = NULL;
  commgraph *g = NULL;
  host_names *hn = NULL;
  GError *e = NULL;
  g_autofree char *formats =
      cli_launch_formats_help("Formats of --format and the command that applies each:");
  g_autofree char *examples = g_strconcat(
      "Examples:\n"
      "  mapsim map -p torus:4x4x4 -t traces/data/cg-16 -s greedy -o cg.map\n"
      "  mapsim export mapping -p torus:4x4x4 -M cg.map --format openmpi-rankfile "
      "--hosts 'nid%05d'\n"
      "  mapsim export mapping -p torus:4x4x4 -t traces/data/cg-16 -s greedy --format "
      "slurm-hostfile -o hosts.slurm\n",
      formats, NULL);
  if (!cli_parse(&argc, &argv, "export mapping", "",
                 "Writes a mapping (a file, or a strategy's on a trace or matrix) as the file an "
                 "MPI launcher places ranks by.",
                 examples,
                 CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_MAPPING | CLI_OPT_STRATEGY | CLI_OPT_SEED |
                     CLI_OPT_COLLECTIVES | CLI_OPT_PROGRESS,
                 &c, entries))
    goto done;
  if (argc > 1) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "export mapping: unexpected argument '%s', expected options only", argv[1]);
    goto fail;
  }
  if (!format) {
    GString *list = g_string_new(NULL);
    for (int i = 0; i < launch_nformats; i++)
      g_string_append_printf(list, "%s%s", i ? ", " : "", launch_formats[i].name);
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "export mapping: --format missing, expected one of %s", list->str);
    g_string_free(list, TRUE);
    goto fail;
  }
  run_spec spec;
  place_spec(&c, &spec);
  const launch_format *fmt = launch_format_lookup(format, &e);
  if (!fmt || !run_spec_check(&spec, &e) || !(p = cli_common_platform(&c, &e)))
    goto fail;
  if (!(hn = host_names_new(p, hosts, &e)))
    goto fail;
  gboolean has_graph = c.matrix || c.trace;
  if (c.mapping && !has_graph) {
    if (!(m = mapping_load(c.mapping, p, 0, &e)))
      goto fail;
  } else {
    gboolean with_colls;
    if (!(g = cli_common_graph(&c, &with_colls, &e)) ||
        !(m = placement(&c, p, g, with_colls, NULL, &e)))
      goto fail;
  }
  if (m->ntasks == 0) {
    g_set_error(&e, MAPPING_ERROR, MAPPING_ERROR_INVALID, "%s: no ranks, expected 'rank node' lines",
                c.mapping);
    goto fail;
  }
  if (out ? !launch_save(fmt, m, p, hn, out, &e) : !fmt->write(stdout, m, p, hn, &e))
    goto fail;
  status = 0;
  goto done;
fail:
  status = cli_fail(e);
done:
  host_names_free(hn);
  commgraph_free(g);
  mapping_free(m);
  platform_free(p);
  g_free(out);
  g_free(format);
  g_free(hosts);
  cli_common_clear(&c);
  return status;
}

int cmd_export(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "simgrid") == 0)
    return export_simgrid(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "mapping") == 0)
    return export_mapping(argc - 1, argv + 1);
  if (argc >= 2 && strcmp(argv[1], "goal") == 0)
    return export_goal(argc - 1, argv + 1);
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("Usage: mapsim export simgrid -p P -t T [-M F | -s S] -o DIR   a run for SimGrid's replay\n"
           "       mapsim export mapping -p P (-M F | -t T -s S) --format F [--hosts SPEC]\n"
           "                                                       a mapping for an MPI launcher\n"
           "       mapsim export goal -t T -o F.goal                a trace as a LogGOPSim schedule\n"
           "\nExamples:\n"
           "  mapsim export simgrid -p torus:4x4x4 -t traces/data/cg-16 --preset simgrid -o cg-sg\n"
           "  mapsim export mapping -p torus:4x4x4 -t traces/data/cg-16 -s greedy "
           "--format openmpi-rankfile --hosts 'nid%%05d'\n"
           "`mapsim export simgrid --help` and `mapsim export mapping --help` list the options.\n");
    return 0;
  }
  GError *e = NULL;
  g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
              "export: '%s', expected simgrid, mapping or goal", argc >= 2 ? argv[1] : "");
  return cli_fail(e);
}
