/* cli.c - helpers shared by the subcommands: the shared option table,
 * loading the platform, the communication graph and the model, errors,
 * outputs from field tables (JSON, text, CSV). */
#include "cli/cli.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mapping/launch.h"
#include "mapping/strategy.h"
#include "routing/alloc.h"
#include "routing/family/family.h"
#include "sim/link-fields.h"
#include "sim/row.h"
#include "sim/run.h"
#include "traces/input.h"
#include "traces/trace.h"
#include "util/budget.h"
#include "util/json-number.h"
#include "util/output.h"
#include "util/status.h"
#include "util/suggest.h"

void cli_trace_notice(const trace *t)
{
  if (t && t->notice) {
    g_autofree char *notice = cli_visible(t->notice);
    fprintf(stderr, "mapsim: warning: %s\n", notice);
  }
}

trace *cli_read_trace(const char *path, GError **error)
{
  trace *t = input_read_trace(path, error);
  cli_trace_notice(t);
  return t;
}

trace_source *cli_open_source(const cli_common *c, const char *path, GError **error)
{
  trace_source *src = input_read_source(path, cli_progress(c), error);
  cli_progress_end();
  if (src)
    cli_trace_notice(trace_source_trace(src));
  return src;
}

/* ---- shared options ---- */

/* ARG_KEY: a platform key, stored as the --set override KEY=VALUE */
typedef enum { ARG_STR, ARG_STRV, ARG_INT, ARG_SEED, ARG_SCALE, ARG_SIZE, ARG_SECONDS, ARG_FLAG,
               ARG_KEY } arg_kind;

typedef struct common_opt {
  unsigned bit;          /* the CLI_OPT_* that selects it */
  const char *name;
  char short_name;
  arg_kind kind;
  size_t offset;         /* of its value in cli_common */
  int min, max;          /* ARG_INT */
  const char *help;
  const char *arg;
  const char *key;       /* ARG_KEY: GROUP.KEY it sets */
} common_opt;

#define AT(member) offsetof(cli_common, member)
static const common_opt common_opts[] = {
  { CLI_OPT_PLATFORM, "platform", 'p', ARG_STR, AT(platform), 0, 0,
    "Platform file or shorthand (torus:4x4x4, configs/haec-4x4x4.ini)", "P", NULL },
  { CLI_OPT_PLATFORMS, "platform", 'p', ARG_STRV, AT(platforms), 0, 0,
    "Platform file or shorthand (repeatable)", "P", NULL },
  { CLI_OPT_SET, "set", 0, ARG_STRV, AT(sets), 0, 0,
    "Override a platform key (repeatable), e.g. linktype.optical.bandwidth=62.5e9 or "
    "=500Gbit/s, model.eager_threshold=64KiB: a number alone is in the platform file's unit "
    "(bandwidth bytes/s, latency and overheads s, sizes bytes); the units are listed below",
    "GROUP.KEY=VALUE", NULL },
  { CLI_OPT_SET, "set-if-present", 0, ARG_STRV, AT(sets), 0, 0,
    "The same, left out on a platform without that link type: "
    "linktype.wireless.bandwidth=25e9 for a torus and a HAEC Box at once (repeatable)",
    "GROUP.KEY=VALUE", "?" },
  { CLI_OPT_RULES, "preset", 0, ARG_KEY, AT(sets), 0, 0,
    "Protocol and routing choices: mapsim (default), simgrid (SMPI's protocol on CM02) or "
    "smpi (what smpirun does without --cfg: also SMPI's factors and, unless --collectives "
    "says otherwise, its collectives); the options below override it", "NAME",
    "platform.preset" },
  { CLI_OPT_RULES, "tie", 0, ARG_KEY, AT(sets), 0, 0,
    "Torus ring tie rule: positive (default: + at distance n/2) or simgrid (- from n/2)",
    "RULE", "routing.tie" },
  { CLI_OPT_RULES, "routing", 0, ARG_KEY, AT(sets), 0, 0,
    NULL /* routing_help(): from the families' rows */, "NAME", "routing.algorithm" },
  { CLI_OPT_PROTOCOL, "eager-limit", 0, ARG_KEY, AT(sets), 0, 0,
    "Largest eager message, bytes (default 65536); larger ones use the handshake", "BYTES",
    "model.eager_threshold" },
  { CLI_OPT_PROTOCOL, "eager-start", 0, ARG_KEY, AT(sets), 0, 0,
    "Eager data leaves at the send (default) or once the receive is posted too (match: SMPI's)",
    "send|match", "model.eager_start" },
  { CLI_OPT_PROTOCOL, "handshake", 0, ARG_KEY, AT(sets), 0, 0,
    "Rendezvous: rts-cts (default: request and clear to send) or sync (SMPI's: the data "
    "leaves when the receive is posted)", "H", "model.handshake" },
  { CLI_OPT_PROTOCOL, "envelope", 0, ARG_KEY, AT(sets), 0, 0,
    "Bytes every message carries on the wire besides its payload (default 0)", "BYTES",
    "model.envelope" },
  { CLI_OPT_PROTOCOL, "sharing", 0, ARG_KEY, AT(sets), 0, 0,
    "Flow models: fair max-min shares (default) or latency (in inverse proportion to the route "
    "latency: SimGrid CM02's)", "fair|latency", "model.sharing" },
  { CLI_OPT_PROTOCOL, "send-overhead", 0, ARG_KEY, AT(sets), 0, 0,
    "CPU seconds per send (default 0)", "S", "model.send_overhead" },
  { CLI_OPT_PROTOCOL, "recv-overhead", 0, ARG_KEY, AT(sets), 0, 0,
    "CPU seconds per receive (default 0)", "S", "model.recv_overhead" },
  { CLI_OPT_ALLOC, "alloc", 0, ARG_STR, AT(alloc), 0, 0,
    "Allocation: all, a policy POLICY:N[:SEED] (listed below), or a node list file", "A",
    NULL },
  { CLI_OPT_CORES, "cores", 0, ARG_INT, AT(cores), 1, PLATFORM_MAX_CORES, "Cores (ranks) per node",
    "N", NULL },
  { CLI_OPT_CORES, "fill", 0, ARG_STR, AT(fill), 0, 0,
    "How ranks fill nodes: pack (cores first, default) or spread (nodes first)", "F", NULL },
  { CLI_OPT_MATRIX, "matrix", 'm', ARG_STR, AT(matrix), 0, 0,
    "Communication matrix (bytes): .csv, .mtx or edge list", "M", NULL },
  { CLI_OPT_COUNTS, "counts", 'c', ARG_STR, AT(counts), 0, 0,
    "Message counts matrix, same shape as --matrix", "C", NULL },
  { CLI_OPT_TRACE, "trace", 't', ARG_STR, AT(trace), 0, 0,
    "OTF2 trace (anchor file or its directory)", "T", NULL },
  { CLI_OPT_TRACES, "trace", 't', ARG_STRV, AT(traces), 0, 0,
    "OTF2 trace (anchor file or its directory; repeatable)", "T", NULL },
  { CLI_OPT_MATRICES, "matrix", 'm', ARG_STRV, AT(matrices), 0, 0,
    "Communication matrix (bytes): .csv, .mtx or edge list (repeatable)", "M", NULL },
  { CLI_OPT_MATRICES, "counts", 'c', ARG_STRV, AT(counts_list), 0, 0,
    "Message counts of the --matrix of the same position (repeatable)", "C", NULL },
  { CLI_OPT_MAPPING, "mapping", 'M', ARG_STR, AT(mapping), 0, 0,
    "Mapping file (default: identity)", "F", NULL },
  { CLI_OPT_STRATEGY, "strategy", 's', ARG_STR, AT(strategy), 0, 0,
    "Strategy pipeline, e.g. greedy+wh:delta=16+mc (see mapsim strategies)", "S", NULL },
  { CLI_OPT_STRATEGIES, "strategy", 's', ARG_STRV, AT(strategies), 0, 0,
    "Strategy pipeline (repeatable; default identity)", "S", NULL },
  { CLI_OPT_SEED, "seed", 0, ARG_SEED, AT(seed), 0, 0,
    "Seed of randomized strategies, 0..4294967295 (default 1)", "N", NULL },
  { CLI_OPT_MODEL, "model", 0, ARG_STR, AT(model), 0, 0, NULL /* from the registry */, "NAME", NULL },
  { CLI_OPT_REPLAY, "compute-scale", 0, ARG_SCALE, AT(compute_scale), 0, 0,
    "Factor on computation gaps (0 = communication only; default 1)", "X", NULL },
  { CLI_OPT_COLLECTIVES, "collectives", 0, ARG_STR, AT(collectives), 0, 0,
    "Collectives: auto (default), none (p2p only in static metrics and the check), an "
    "algorithm, or OP=ALGO,... (mapsim trace --help lists them)", "SPEC", NULL },
  { CLI_OPT_THREADS, "threads", 'j', ARG_INT, AT(threads), 1, 1024,
    "Runs in parallel (default: all cores)", "N", NULL },
  { CLI_OPT_PROGRESS, "progress", 0, ARG_FLAG, AT(progress), 0, 0,
    "Show progress on stderr even when it is not a terminal", NULL, NULL },
  { CLI_OPT_PROGRESS, "quiet", 'q', ARG_FLAG, AT(quiet), 0, 0, "No progress line", NULL, NULL },
  { CLI_OPT_MEMORY, "max-memory", 0, ARG_SIZE, AT(max_memory), 0, 0,
    "Memory budget inputs are checked against before loading, e.g. 8G (default: 3/4 of the "
    "machine's memory)", "SIZE", NULL },
  { CLI_OPT_TIME_LIMIT, "time-limit", 0, ARG_SECONDS, AT(time_limit), 0, 0,
    "Seconds a search may take (portfolio; default: none for a given list, 5 s + 25 us per "
    "edge for the default one)", "S", NULL },
  { CLI_OPT_JSON, "json", 0, ARG_FLAG, AT(json), 0, 0, "Print one JSON object", NULL, NULL },
  { CLI_OPT_CSV, "csv", 0, ARG_FLAG, AT(csv), 0, 0, "Print CSV: a header line, one row per result",
    NULL, NULL },
};
#undef AT

typedef struct parse_state {
  cli_common *c;
  unsigned selected;
  const GOptionEntry *own;   /* the subcommand's entries, or NULL */
  guint64 own_seen;          /* which of them were given */
} parse_state;

static const common_opt *find_opt(unsigned selected, const char *option_name)
{
  const char *n = option_name + (option_name[1] == '-' ? 2 : 1);
  for (size_t i = 0; i < G_N_ELEMENTS(common_opts); i++) {
    const common_opt *o = &common_opts[i];
    if (!(o->bit & selected))
      continue;
    if (option_name[1] == '-' ? strcmp(o->name, n) == 0 : (o->short_name == n[0] && !n[1]))
      return o;
  }
  return NULL;
}

/* Appends `item` (taken) to the NULL-terminated vector *v (NULL: empty). */
static void strv_append(char ***v, char *item)
{
  guint n = *v ? g_strv_length(*v) : 0;
  *v = g_renew(char *, *v, n + 2);
  (*v)[n] = item;
  (*v)[n + 1] = NULL;
}

/* A subcommand's own option: stored where its entry says, a single-valued
 * one refused when given twice, numbers parsed strictly, strings (file
 * names among them) taken as the bytes given. */
static gboolean own_cb(parse_state *ps, const char *option_name, const char *value,
                       GError **error)
{
  const char *n = option_name + (option_name[1] == '-' ? 2 : 1);
  const GOptionEntry *o = NULL;
  int row = 0;
  for (; ps->own && ps->own[row].long_name; row++)
    if (option_name[1] == '-' ? strcmp(ps->own[row].long_name, n) == 0
                              : (ps->own[row].short_name == n[0] && !n[1])) {
      o = &ps->own[row];
      break;
    }
  g_assert(o && row < 64);
  if (o->arg == G_OPTION_ARG_STRING_ARRAY || o->arg == G_OPTION_ARG_FILENAME_ARRAY) {
    strv_append(o->arg_data, g_strdup(value));
    return TRUE;
  }
  if (ps->own_seen & (G_GUINT64_CONSTANT(1) << row)) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--%s given twice, expected it once", o->long_name);
    return FALSE;
  }
  ps->own_seen |= G_GUINT64_CONSTANT(1) << row;
  gint64 i64;
  char *end = NULL;
  switch (o->arg) {
  case G_OPTION_ARG_NONE:
    *(gboolean *)o->arg_data = TRUE;
    return TRUE;
  case G_OPTION_ARG_STRING:
  case G_OPTION_ARG_FILENAME:
    *(char **)o->arg_data = g_strdup(value); /* set once: a repeat is refused above */
    return TRUE;
  case G_OPTION_ARG_INT:
  case G_OPTION_ARG_INT64:
    if (!g_ascii_string_to_signed(value, 10, o->arg == G_OPTION_ARG_INT ? G_MININT : G_MININT64,
                                  o->arg == G_OPTION_ARG_INT ? G_MAXINT : G_MAXINT64, &i64,
                                  NULL)) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected an integer", o->long_name, value);
      return FALSE;
    }
    if (o->arg == G_OPTION_ARG_INT)
      *(int *)o->arg_data = (int)i64;
    else
      *(gint64 *)o->arg_data = i64;
    return TRUE;
  case G_OPTION_ARG_DOUBLE: {
    double x = g_ascii_strtod(value, &end);
    if (!*value || *end || !isfinite(x)) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected a finite number", o->long_name, value);
      return FALSE;
    }
    *(double *)o->arg_data = x;
    return TRUE;
  }
  default:
    g_assert_not_reached();
  }
}

static gboolean is_own_parsed(const GOptionEntry *e)
{
  return e->arg == G_OPTION_ARG_NONE || e->arg == G_OPTION_ARG_STRING ||
         e->arg == G_OPTION_ARG_FILENAME || e->arg == G_OPTION_ARG_INT ||
         e->arg == G_OPTION_ARG_INT64 || e->arg == G_OPTION_ARG_DOUBLE ||
         e->arg == G_OPTION_ARG_STRING_ARRAY || e->arg == G_OPTION_ARG_FILENAME_ARRAY;
}

static gboolean common_cb(const char *option_name, const char *value, gpointer data,
                          GError **error)
{
  parse_state *ps = data;
  const common_opt *o = find_opt(ps->selected, option_name);
  if (!o)
    return own_cb(ps, option_name, value, error);
  size_t row = (size_t)(o - common_opts);
  void *at = (char *)ps->c + o->offset;
  if (o->kind != ARG_STRV && (ps->c->seen & (G_GUINT64_CONSTANT(1) << row))) {
    g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--%s given twice, expected it once", o->name);
    return FALSE;
  }
  ps->c->seen |= G_GUINT64_CONSTANT(1) << row;
  gint64 i64;
  guint64 u64;
  switch (o->kind) {
  case ARG_STR:
    *(char **)at = g_strdup(value);
    return TRUE;
  case ARG_STRV:
  case ARG_KEY:
    /* ARG_STRV with a key: the value marked with it (--set-if-present's '?') */
    strv_append(at, o->kind == ARG_KEY ? g_strdup_printf("%s=%s", o->key, value)
                                       : g_strconcat(o->key ? o->key : "", value, NULL));
    return TRUE;
  case ARG_INT:
    if (!g_ascii_string_to_signed(value, 10, o->min, o->max, &i64, NULL)) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected an integer from %d to %d", o->name, value, o->min, o->max);
      return FALSE;
    }
    *(int *)at = (int)i64;
    return TRUE;
  case ARG_SEED:
    if (!g_ascii_string_to_unsigned(value, 10, 0, G_MAXUINT32, &u64, NULL)) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected an integer from 0 to %u", o->name, value, G_MAXUINT32);
      return FALSE;
    }
    *(guint32 *)at = (guint32)u64;
    return TRUE;
  case ARG_SCALE: {
    char *end = NULL;
    double x = g_ascii_strtod(value, &end);
    if (!*value || *end || !isfinite(x) || x < 0) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected a finite number >= 0", o->name, value);
      return FALSE;
    }
    *(double *)at = x;
    return TRUE;
  }
  case ARG_SECONDS: {
    char *end = NULL;
    double x = g_ascii_strtod(value, &end);
    if (!*value || *end || !isfinite(x) || x <= 0) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected a number of seconds > 0", o->name, value);
      return FALSE;
    }
    *(double *)at = x;
    strategy_set_time_limit(x);
    return TRUE;
  }
  case ARG_SIZE:
    if (!budget_parse_size(value, (uint64_t *)at)) {
      g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                  "--%s %s: expected a size such as 512M, 8G or a number of bytes", o->name,
                  value);
      return FALSE;
    }
    budget_set_memory(*(uint64_t *)at);
    return TRUE;
  case ARG_FLAG:
  default:
    *(gboolean *)at = TRUE;
    return TRUE;
  }
}

static const char *model_help(void)
{
  static char *help;
  if (g_once_init_enter(&help)) {
    g_autofree char *names = netmodel_names();
    g_once_init_leave(&help, g_strdup_printf("Network model: %s (default: analytic for "
                                             "simulate, flow for compare)", names));
  }
  return help;
}

/* The --routing help, from the routing rows of every family (mapsim
 * routings prints them with their summaries). */
static const char *routing_help(void)
{
  static char *help;
  if (g_once_init_enter(&help)) {
    g_autofree char *names = family_routings_text();
    g_once_init_leave(&help, g_strdup_printf("Routing: %s; seeded ones draw with --set "
                                             "routing.seed=N (mapsim routings lists them)",
                                             names));
  }
  return help;
}

void cli_common_clear(cli_common *c)
{
  g_free(c->platform);
  g_strfreev(c->platforms);
  g_free(c->alloc);
  g_free(c->fill);
  g_strfreev(c->sets);
  g_free(c->model);
  g_free(c->matrix);
  g_free(c->counts);
  g_free(c->trace);
  g_strfreev(c->traces);
  g_strfreev(c->matrices);
  g_strfreev(c->counts_list);
  g_free(c->mapping);
  g_free(c->strategy);
  g_strfreev(c->strategies);
  g_free(c->collectives);
  memset(c, 0, sizeof *c);
}

gboolean cli_parse(int *argc, char ***argv, const char *name, const char *usage,
                   const char *summary, const char *examples, unsigned common, cli_common *c,
                   const GOptionEntry *entries)
{
  *c = (cli_common){ .seed = 1, .compute_scale = 1.0 };
  common |= CLI_OPT_MEMORY;
  if (common & (CLI_OPT_STRATEGY | CLI_OPT_STRATEGIES))
    common |= CLI_OPT_TIME_LIMIT;
  parse_state ps = { c, common, entries, 0 };
  g_autofree char *prog = g_strdup_printf("mapsim %s", name);
  g_set_prgname(prog);
  GOptionContext *ctx = g_option_context_new(usage);
  g_option_context_set_summary(ctx, summary);
  /* commands taking a platform list the shorthands' parameters and units */
  g_autofree char *shorthands = common & (CLI_OPT_PLATFORM | CLI_OPT_PLATFORMS)
                                    ? platform_shorthand_help() : NULL;
  /* and those that allocate, the allocation policies */
  g_autofree char *policies = common & CLI_OPT_ALLOC ? alloc_policy_help() : NULL;
  g_autofree char *description = examples || shorthands
                                     ? g_strconcat(examples ? examples : "", examples ? "\n\n" : "",
                                                   shorthands ? shorthands : "", "\n",
                                                   policies ? policies : "", NULL)
                                     : NULL;
  if (description)
    g_option_context_set_description(ctx, description);
  GOptionGroup *group = g_option_group_new(name, summary, "Options", &ps, NULL);
  GArray *shared = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
  for (size_t i = 0; i < G_N_ELEMENTS(common_opts); i++) {
    const common_opt *o = &common_opts[i];
    if (!(o->bit & common))
      continue;
    /* values are passed as given (G_OPTION_FLAG_FILENAME), not converted
     * from the locale's encoding, which refuses any path that is not ASCII
     * under LC_ALL=C: file names are bytes */
    GOptionEntry e = { o->name, o->short_name,
                       o->kind == ARG_FLAG ? G_OPTION_FLAG_NO_ARG : G_OPTION_FLAG_FILENAME,
                       G_OPTION_ARG_CALLBACK, (gpointer)common_cb,
                       o->help                       ? o->help
                       : !strcmp(o->name, "routing") ? routing_help()
                                                     : model_help(),
                       o->arg };
    g_array_append_val(shared, e);
  }
  for (int i = 0; entries && entries[i].long_name; i++) {
    GOptionEntry e = entries[i];
    if (is_own_parsed(&e)) {
      e.flags |= e.arg == G_OPTION_ARG_NONE ? G_OPTION_FLAG_NO_ARG : G_OPTION_FLAG_FILENAME;
      e.arg = G_OPTION_ARG_CALLBACK;
      e.arg_data = (gpointer)common_cb;
    }
    g_array_append_val(shared, e);
  }
  gboolean help = FALSE;
  GOptionEntry help_entry = { "help", 'h', 0, G_OPTION_ARG_NONE, &help, "Show this help", NULL };
  g_array_append_val(shared, help_entry);
  g_option_group_add_entries(group, (const GOptionEntry *)(void *)shared->data);
  g_option_context_set_main_group(ctx, group);
  /* the help is printed here, not by GLib: in the C locale GLib would turn
   * its "[OPTION…]" into "[OPTION?]" */
  g_option_context_set_help_enabled(ctx, FALSE);
  GError *e = NULL;
  gboolean ok = g_option_context_parse(ctx, argc, argv, &e);
  if (!ok) {
    g_autofree char *message = cli_visible(e->message);
    /* GLib says "Unknown option --X": the nearest long option, if close */
    const char *best = NULL;
    if (g_error_matches(e, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION) &&
        g_str_has_prefix(e->message, "Unknown option --")) {
      g_autofree char *word = g_strdup(e->message + strlen("Unknown option --"));
      word[strcspn(word, "=")] = '\0';
      suggestion sg;
      suggestion_init(&sg, word);
      for (guint i = 0; i < shared->len; i++)
        suggestion_add(&sg, g_array_index(shared, GOptionEntry, i).long_name);
      best = suggestion_best(&sg);
      if (best)
        best = g_intern_string(best); /* the word is freed here */
    }
    fprintf(stderr, "mapsim: %s: %s%s%s%s (see mapsim %s --help)\n", name, message,
            best ? ", did you mean --" : "", best ? best : "", best ? "?" : "", name);
    g_error_free(e);
  } else if (help) {
    g_autofree char *text = g_option_context_get_help(ctx, TRUE, NULL);
    g_auto(GStrv) parts = g_strsplit(text, "\u2026", -1);
    g_autofree char *ascii = g_strjoinv("...", parts);
    fputs(ascii, stdout);
    fflush(stdout);
    g_option_context_free(ctx);
    g_array_free(shared, TRUE);
    cli_common_clear(c);
    exit(STATUS_OK);
  }
  g_option_context_free(ctx);
  g_array_free(shared, TRUE);
  /* --preset smpi is smpirun without --cfg, whose collective selector is
   * part of it: SMPI's algorithms unless --collectives names others */
  if (ok && (common & CLI_OPT_COLLECTIVES) && !c->collectives &&
      g_strcmp0(cli_preset(c), "smpi") == 0)
    c->collectives = g_strdup("smpi");
  return ok;
}

const char *cli_preset(const cli_common *c)
{
  const char *preset = NULL;
  for (int i = 0; c->sets && c->sets[i]; i++)
    if (g_str_has_prefix(c->sets[i], "platform.preset="))
      preset = c->sets[i] + strlen("platform.preset=");
  return preset;
}

/* ---- inputs ---- */

static platform *load_platform(const char *spec, const char *const *sets, const char *alloc,
                               int cores, const char *fill, GError **error)
{
  if (!spec) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "--platform: missing, expected a platform file or shorthand like torus:4x4x4");
    return NULL;
  }
  platform *p = platform_load_with(spec, sets, error);
  if (!p)
    return NULL;
  for (guint i = 0; i < p->notes->len; i++) {
    g_autofree char *note = cli_visible(g_ptr_array_index(p->notes, i));
    fprintf(stderr, "mapsim: note: %s\n", note);
  }
  if ((alloc && !platform_set_allocation(p, alloc, error)) ||
      (cores && !platform_set_cores(p, cores, error)) ||
      (fill && !platform_set_fill(p, fill, error))) {
    platform_free(p);
    return NULL;
  }
  return p;
}

platform *cli_common_platform(const cli_common *c, GError **error)
{
  return load_platform(c->platform, (const char *const *)c->sets, c->alloc, c->cores, c->fill,
                       error);
}

platform *cli_common_platform_spec(const cli_common *c, const char *spec, GError **error)
{
  return load_platform(spec, (const char *const *)c->sets, c->alloc, c->cores, c->fill, error);
}

commgraph *cli_common_graph(const cli_common *c, gboolean *with_colls, GError **error)
{
  *with_colls = FALSE;
  if ((c->matrix != NULL) == (c->trace != NULL)) {
    g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                "expected exactly one of --matrix M or --trace T");
    return NULL;
  }
  if (c->trace) {
    if (c->counts) {
      g_set_error(error, COMMGRAPH_ERROR, COMMGRAPH_ERROR_PARSE,
                  "--counts goes with --matrix; a trace carries its own message counts");
      return NULL;
    }
    trace *t = cli_read_trace(c->trace, error);
    if (!t)
      return NULL;
    commgraph *g = run_traffic_graph(t, c->collectives, with_colls, error);
    trace_free(t);
    return g;
  }
  return input_read_matrix(c->matrix, c->counts, error);
}

const struct netmodel_ops *cli_common_model(const cli_common *c, const char *fallback,
                                            GError **error)
{
  const char *name = c->model ? c->model : fallback;
  const struct netmodel_ops *ops = netmodel_find(name);
  if (!ops) {
    g_autofree char *names = netmodel_names();
    suggestion near;
    suggestion_init(&near, name);
    for (int i = 0; netmodel_registry[i]; i++)
      suggestion_add(&near, netmodel_registry[i]->name);
    if (suggestion_best(&near))
      g_set_error(error, NETMODEL_ERROR, NETMODEL_ERROR_UNKNOWN,
                  "--model %s: unknown network model, did you mean '%s'? (expected one of: %s)",
                  name, near.best, names);
    else
      g_set_error(error, NETMODEL_ERROR, NETMODEL_ERROR_UNKNOWN,
                  "--model %s: unknown network model, expected one of: %s", name, names);
  }
  return ops;
}

/* ---- outputs ---- */

void cli_fields_json(JsonBuilder *b, const field *f, int n, const void *obj, unsigned view)
{
  for (int i = 0; i < n; i++) {
    if (!field_in_view(&f[i], view))
      continue;
    json_builder_set_member_name(b, f[i].name);
    json_builder_add_value(b, field_json_node(&f[i], obj));
  }
}

void cli_platform_json(JsonBuilder *b, const platform *p)
{
  json_builder_set_member_name(b, "platform");
  json_builder_begin_object(b);
  json_builder_set_member_name(b, "name");
  json_builder_add_string_value(b, p->name);
  json_builder_set_member_name(b, "source");
  json_builder_add_string_value(b, p->source);
  json_builder_set_member_name(b, "fill");
  json_builder_add_string_value(b, platform_fill_name(p->fill));
  json_builder_set_member_name(b, "cores_per_node");
  json_builder_add_int_value(b, p->cores_per_node);
  json_builder_set_member_name(b, "allocated_nodes");
  json_builder_add_int_value(b, p->nalloc);
  json_builder_end_object(b);
}

static void json_string_or_null(JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name(b, name);
  if (value)
    json_builder_add_string_value(b, value);
  else
    json_builder_add_null_value(b);
}

void cli_provenance_json(JsonBuilder *b, const cli_common *c, const char *model,
                         const char *jobs_path, const char *policy)
{
  json_builder_set_member_name(b, "provenance");
  json_builder_begin_object(b);
  json_string_or_null(b, "mapsim", MAPSIM_VERSION);
  if (jobs_path) {
    json_string_or_null(b, "jobs_file", jobs_path);
    json_string_or_null(b, "policy", policy);
  } else {
    json_string_or_null(b, "trace", c->trace);
    if (c->matrix)
      json_string_or_null(b, "matrix", c->matrix);
    json_string_or_null(b, "strategy", c->mapping ? NULL : c->strategy ? c->strategy : "identity");
    json_string_or_null(b, "mapping_file", c->mapping);
  }
  json_string_or_null(b, "platform", c->platform);
  json_string_or_null(b, "alloc", c->alloc);
  json_builder_set_member_name(b, "seed");
  json_builder_add_int_value(b, c->seed);
  json_string_or_null(b, "model", model);
  json_builder_set_member_name(b, "compute_scale");
  json_number_add(b, c->compute_scale);
  json_builder_end_object(b);
}

void cli_metrics_json(JsonBuilder *b, const metrics *m)
{
  cli_fields_json(b, metrics_fields, metrics_nfields, m, metrics_view(m));
}

/* Times with 9 significant digits: differences between mappings often
 * hide in the 7th. */
void cli_field_format(GString *s, const field *f, const void *obj)
{
  if (f->type == FIELD_PS || field_is_integer(f))
    field_csv_text(s, f, obj);
  else if (f->unit == FIELD_RATIO)
    g_string_append_printf(s, "%.4f", field_double(f, obj));
  else
    g_string_append_printf(s, "%.9g", field_double(f, obj));
}

/* Cell text of field f for object j ("-" outside its view). */
static void format_cell(GString *s, const field *f, const void *obj, unsigned view)
{
  g_string_truncate(s, 0);
  if (field_in_view(f, view))
    cli_field_format(s, f, obj);
  else
    g_string_append_c(s, '-');
}

/* A text table with one row per field and one column per object (labels
 * head the columns when given); columns sized to their content. views[j]
 * is object j's view (NULL: all); a field outside it shows "-". */
static void cli_fields_print(const field *f, int n, const void *const *objs,
                             const unsigned *views, const char *const *labels, int nobjs)
{
  int wname = 0;
  for (int i = 0; i < n; i++)
    wname = MAX(wname, (int)strlen(f[i].name));
  GString *s = g_string_new(NULL);
  int *w = g_new0(int, MAX(nobjs, 1));
  for (int j = 0; j < nobjs; j++) {
    w[j] = labels ? (int)strlen(labels[j]) : 0;
    for (int i = 0; i < n; i++) {
      format_cell(s, &f[i], objs[j], views ? views[j] : 0);
      w[j] = MAX(w[j], (int)s->len);
    }
  }
  if (labels) {
    printf("%-*s", wname, "");
    for (int j = 0; j < nobjs; j++)
      printf("  %*s", w[j], labels[j]);
    printf("\n");
  }
  for (int i = 0; i < n; i++) {
    printf("%-*s", wname, f[i].name);
    for (int j = 0; j < nobjs; j++) {
      format_cell(s, &f[i], objs[j], views ? views[j] : 0);
      printf("  %*s", w[j], s->str);
    }
    printf("\n");
  }
  g_free(w);
  g_string_free(s, TRUE);
}

void cli_csv_cell(GString *s, const char *text)
{
  csv_cell(s, text);
}

void cli_fields_csv_header(GString *s, const char *prefix, const field *f, int n, unsigned view)
{
  for (int i = 0; i < n; i++)
    if (field_in_view(&f[i], view))
      g_string_append_printf(s, ",%s%s", prefix ? prefix : "", f[i].name);
}

void cli_fields_csv_row(GString *s, const field *f, int n, const void *obj, unsigned view)
{
  for (int i = 0; i < n; i++) {
    if (!field_in_view(&f[i], view))
      continue;
    g_string_append_c(s, ',');
    field_csv_text(s, &f[i], obj);
  }
}

static void cli_json_int(JsonBuilder *b, const char *name, int64_t v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_int_value(b, v);
}

void cli_json_double(JsonBuilder *b, const char *name, double v)
{
  json_number_member(b, name, v);
}

static void cli_json_string(JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name(b, name);
  json_builder_add_string_value(b, v);
}

void cli_metrics_detail_json(JsonBuilder *b, const metrics *m, const platform *p)
{
  metrics_dim_row rows[2 * TOPO_MAX_DIMS + 1];
  int nrows;
  metrics_by_dimension(m, p, rows, &nrows);
  json_builder_set_member_name(b, "directions");
  json_builder_begin_array(b);
  for (int r = 0; r < nrows; r++) {
    json_builder_begin_object(b);
    cli_json_string(b, "direction", rows[r].label);
    cli_json_int(b, "links", rows[r].links);
    cli_json_int(b, "used", rows[r].used);
    cli_json_int(b, "bytes", rows[r].bytes);
    cli_json_int(b, "max_bytes", rows[r].max_bytes);
    cli_json_double(b, "max_time", rows[r].max_time);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
  const topo *t = p->topo;
  if (t->nswitches && m->class_bytes) {
    json_builder_set_member_name(b, "route_classes");
    json_builder_begin_array(b);
    for (int r = 0; r < nrows; r++) {
      json_builder_begin_object(b);
      cli_json_string(b, "class", rows[r].label);
      const char *names[2] = { "edges_by_hops", "bytes_by_hops" };
      const int64_t *v[2] = { m->class_edges, m->class_bytes };
      for (int k = 0; k < 2; k++) {
        json_builder_set_member_name(b, names[k]);
        json_builder_begin_array(b);
        for (int h = 0; h <= METRICS_CLASS_HOPS; h++)
          json_builder_add_int_value(b, v[k][r * (METRICS_CLASS_HOPS + 1) + h]);
        json_builder_end_array(b);
      }
      json_builder_end_object(b);
    }
    json_builder_end_array(b);
    if (topo_dragonfly_of(t))
      cli_json_int(b, "inter_group_bytes", m->inter_group_bytes);
  }
  json_builder_set_member_name(b, "links");
  json_builder_begin_array(b);
  link_source src = { .p = p, .m = m };
  for (int l = 0; l < m->nlinks; l++) {
    if (!m->link_bytes[l] && !m->link_messages[l])
      continue;
    json_builder_begin_object(b);
    link_fields_json(b, LINK_VIEW_METRICS, &src, l);
    json_builder_end_object(b);
  }
  json_builder_end_array(b);
}

/* Indirect networks, static view: bytes of routes by how many links of
 * each class they cross, and a dragonfly's inter-group bytes. */
static void print_route_classes(const metrics *m, const platform *p, const metrics_dim_row *rows,
                                int nrows)
{
  if (!m->class_bytes)
    return;
  printf("\nroute bytes by links of a class crossed\n  %-16s", "");
  for (int h = 0; h <= METRICS_CLASS_HOPS; h++)
    printf(" %14d%s", h, h == METRICS_CLASS_HOPS ? "+" : " ");
  printf("\n");
  for (int r = 0; r < nrows; r++) {
    printf("  %-16s", rows[r].label);
    for (int h = 0; h <= METRICS_CLASS_HOPS; h++)
      printf(" %14" G_GINT64_FORMAT " ", m->class_bytes[r * (METRICS_CLASS_HOPS + 1) + h]);
    printf("\n");
  }
  if (topo_dragonfly_of(p->topo))
    printf("inter-group bytes  %" G_GINT64_FORMAT "\n", m->inter_group_bytes);
}

void cli_metrics_print(const metrics *const *ms, const char *const *labels, int n,
                       const platform *p, int top)
{
  /* message_hops only when the graph knows its messages; a field no column
   * shows is left out */
  field shown[64];
  unsigned views[16], all = 0;
  int nshown = 0;
  g_assert(n <= (int)G_N_ELEMENTS(views));
  for (int j = 0; j < n; j++)
    all |= views[j] = metrics_view(ms[j]);
  for (int i = 0; i < metrics_nfields && nshown < (int)G_N_ELEMENTS(shown); i++)
    if ((ms[0]->has_messages || metrics_fields[i].offset != offsetof(metrics, message_hops)) &&
        field_in_view(&metrics_fields[i], all))
      shown[nshown++] = metrics_fields[i];
  cli_fields_print(shown, nshown, (const void *const *)ms, views, labels, n);
  if (top <= 0 || n != 1)
    return;
  metrics_dim_row rows[2 * TOPO_MAX_DIMS + 1];
  int nrows;
  metrics_by_dimension(ms[0], p, rows, &nrows);
  printf("\nper %-15s links    used           bytes       max bytes   max time (s)\n",
         p->topo->nswitches ? "link class" : "direction");
  for (int r = 0; r < nrows; r++)
    printf("  %-16s %7d %7d %15" G_GINT64_FORMAT " %15" G_GINT64_FORMAT " %14.6g\n",
           rows[r].label, rows[r].links, rows[r].used, rows[r].bytes, rows[r].max_bytes,
           rows[r].max_time);
  if (p->topo->nswitches)
    print_route_classes(ms[0], p, rows, nrows);
  top = MIN(top, p->topo->nlinks); /* no more links than there are */
  int *ids = g_new(int, MAX(top, 1));
  int k = metrics_hottest(ms[0], p, top, ids);
  /* the link's name, then these fields (the edges of a static view, the
   * messages of a simulated one) in columns this wide */
  const link_field_id cols[] = { ms[0]->simulated ? LINK_F_MESSAGES : LINK_F_EDGES, LINK_F_BYTES,
                                 LINK_F_TIME };
  const int widths[] = { 10, 15, 14 };
  link_source src = { .p = p, .m = ms[0] };
  GString *cell = g_string_new(NULL);
  if (k) {
    printf("\n%-44s", "hottest links");
    for (size_t c = 0; c < G_N_ELEMENTS(cols); c++) {
      g_string_truncate(cell, 0);
      link_field_head(cell, cols[c], &src);
      printf(" %*s", widths[c], cell->str);
    }
    printf("\n");
  }
  for (int i = 0; i < k; i++) {
    g_autofree char *name = platform_link_name(p, ids[i]);
    printf("  %-42s", name);
    for (size_t c = 0; c < G_N_ELEMENTS(cols); c++) {
      g_string_truncate(cell, 0);
      link_field_text(cell, cols[c], &src, ids[i]);
      printf(" %*s", widths[c], cell->str);
    }
    printf("\n");
  }
  g_string_free(cell, TRUE);
  g_free(ids);
}

void cli_print_json(JsonNode *root)
{
  g_autofree char *text = json_text(root, TRUE);
  fputs(text, stdout);
  fputc('\n', stdout);
  json_node_unref(root);
}

char *cli_launch_formats_help(const char *intro)
{
  GString *s = g_string_new(intro);
  g_string_append_c(s, '\n');
  for (int i = 0; i < launch_nformats; i++) {
    g_string_append_printf(s, "  %-17s %s\n", launch_formats[i].name, launch_formats[i].summary);
    g_auto(GStrv) cmds = g_strsplit(launch_formats[i].usage, "\n", -1);
    for (int k = 0; cmds[k]; k++)
      g_string_append_printf(s, "  %-17s %s\n", "", cmds[k]);
  }
  return g_strchomp(g_string_free(s, FALSE));
}
