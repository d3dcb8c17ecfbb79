/* cmd-commstats.c - `mapsim commstats`: the communication metrics of
 * korndoerfer2021 Section 4.3 (CA, CB, CC, CH, NBC, SP(k)) for a matrix or
 * for the count and byte matrices of a trace. */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "traces/commstats.h"
#include "traces/input.h"
#include "traces/trace.h"
#include "util/json-number.h"

static void add_stats_json(JsonBuilder *b, const commstats *s)
{
  json_builder_begin_object(b);
  const char *names[] = { "sum", "CA", "CB", "CC", "CH", "NBC" };
  const double vals[] = { s->sum, s->CA, s->CB, s->CC, s->CH, s->NBC };
  for (int i = 0; i < 6; i++) {
    json_builder_set_member_name(b, names[i]);
    json_number_add(b, vals[i]);
  }
  for (int k = 0; k < s->nsplits; k++) {
    char key[32];
    g_snprintf(key, sizeof key, "SP_%d", s->split[k]);
    json_builder_set_member_name(b, key);
    json_number_add(b, s->SP[k]);
  }
  json_builder_end_object(b);
}

static void print_stats_text(const char *title, const commstats *s)
{
  printf("%s\n", title);
  printf("  sum     %.0f\n  CA      %.3f\n  CB      %.3f\n  CC      %.3f\n  CH      %.3f\n"
         "  NBC     %.3f\n", s->sum, commstats_round(s->CA, 3), commstats_round(s->CB, 3),
         commstats_round(s->CC, 3), commstats_round(s->CH, 3), commstats_round(s->NBC, 3));
  for (int k = 0; k < s->nsplits; k++)
    printf("  SP(%d)%*s%.3f\n", s->split[k], s->split[k] < 10 ? 3 : 2, "",
           commstats_round(s->SP[k], 3));
}

/* The k of SP(k): --split values, or by default those of 4 and 16 that a
 * matrix of `ranks` ranks has (SP(k) splits the ranks into k groups). */
static gboolean parse_splits(char **spec, int ranks, int *splits, int *n, GError **error)
{
  *n = 0;
  if (spec == NULL) {
    for (int k = 4; k <= 16 && k <= ranks; k *= 4)
      splits[(*n)++] = k;
    return TRUE;
  }
  for (int i = 0; spec[i]; i++) {
    char *end = NULL;
    long k = strtol(spec[i], &end, 10);
    if (*n >= COMMSTATS_MAX_SPLITS || end == spec[i] || *end || k < 1 || k > G_MAXINT) {
      g_set_error(error, COMMSTATS_ERROR, COMMSTATS_ERROR_SPLIT,
                  "--split '%s': expected a positive integer (at most %d splits)", spec[i],
                  COMMSTATS_MAX_SPLITS);
      return FALSE;
    }
    splits[(*n)++] = (int)k;
  }
  return TRUE;
}

static gboolean stats_of(const commgraph *g, int kind, const int *splits, int n, commstats *s,
                         GError **error)
{
  double *C = commgraph_dense(g, kind, error);
  gboolean ok = C && commstats_compute(C, g->n, splits, n, s, error);
  g_free(C);
  return ok;
}

int cmd_commstats(int argc, char **argv)
{
  cli_common c;
  char **split_spec = NULL;
  const GOptionEntry entries[] = {
    { "split", 'k', 0, G_OPTION_ARG_STRING_ARRAY, &split_spec, "k of SP(k), repeatable (default 4 and 16, those <= ranks)", "K" },
    { NULL },
  };
  int status = 2, splits[COMMSTATS_MAX_SPLITS], nsplits = 0;
  commgraph *g = NULL;
  GError *e = NULL;
  if (!cli_parse(&argc, &argv, "commstats", "", "Communication metrics of korndoerfer2021 "
                 "Section 4.3: CA, CB, CC, CH, NBC, SP(k).",
                 "Metrics (matrix C of n ranks, row = sender; S = sum of C; T[i] = row i's sum;\n"
                 "higher values mean more to gain from a careful mapping):\n"
                 "  CA     communication amount: S / n^2, the mean entry\n"
                 "  CB     communication balance: 1 - S / (n max_i T[i]), how far the busiest\n"
                 "         rank is above the others\n"
                 "  CC     communication centrality: how far from the diagonal a rank's\n"
                 "         traffic spreads (the band holding half of each row), / n^2\n"
                 "  CH     communication heterogeneity: mean variance of the rows of C / max(C)\n"
                 "  NBC    1 - the share of S exchanged between ranks i and i+1 (the formula\n"
                 "         korndoerfer2021 computes its Tables 2 and 3 with)\n"
                 "  SP(k)  split fraction: 1 - the share of S inside the diagonal k x k blocks of\n"
                 "         consecutive ranks\n"
                 "A trace gives both the message-count and the byte matrix.\n\n"
                 "Examples:\n  mapsim commstats --matrix tests/data/maplib/cg.p2p.count.csv --json\n"
                 "  mapsim commstats --trace traces/data/ring-8/traces.otf2 --split 2",
                 CLI_OPT_MATRIX | CLI_OPT_TRACE | CLI_OPT_JSON, &c, entries))
    goto out;
  const char *matrix = c.matrix, *tr = c.trace;
  gboolean json = c.json;
  if ((matrix != NULL) == (tr != NULL)) {
    g_set_error(&e, COMMSTATS_ERROR, COMMSTATS_ERROR_SPLIT,
                "commstats: expected exactly one of --matrix M or --trace T");
    goto fail;
  }
  if (matrix) {
    g = input_read_matrix(matrix, NULL, &e);
  } else {
    trace *t = cli_read_trace(tr, &e);
    if (t)
      g = trace_commgraph(t, FALSE, NULL, &e);
    trace_free(t);
  }
  if (g == NULL || !parse_splits(split_spec, g->n, splits, &nsplits, &e))
    goto fail;
  commstats sb, sc;
  if (!stats_of(g, 0, splits, nsplits, &sb, &e) ||
      (tr && !stats_of(g, 1, splits, nsplits, &sc, &e)))
    goto fail;
  if (json) {
    JsonBuilder *b = json_builder_new();
    if (tr) {
      json_builder_begin_object(b);
      json_builder_set_member_name(b, "count");
      add_stats_json(b, &sc);
      json_builder_set_member_name(b, "bytes");
      add_stats_json(b, &sb);
      json_builder_end_object(b);
    } else {
      add_stats_json(b, &sb);
    }
    cli_print_json(json_builder_get_root(b));
    g_object_unref(b);
  } else if (tr) {
    print_stats_text("count matrix", &sc);
    print_stats_text("bytes matrix", &sb);
  } else {
    print_stats_text(matrix, &sb);
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  commgraph_free(g);
  cli_common_clear(&c);
  g_strfreev(split_spec);
  return status;
}
