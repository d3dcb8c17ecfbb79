/* cmd-show.c - `mapsim show`: a small mesh, torus or HAEC Box drawn in the
 * terminal for teaching - one grid per Z plane, the ranks a mapping puts on
 * each node, and every link's static load as a character (or a colour on a
 * terminal): how far a rank's messages travel, and where they pile up.
 *
 * Loads are the bytes of the static metrics (mapping/metrics.h) per link;
 * a cable is drawn once with the larger of its two directions. Wrap links
 * of a torus ring are drawn at the row's or column's end; links along Z
 * (between planes; the HAEC Box's wireless links) are summarized per node
 * under each plane.
 *
 * Several strategies are drawn one after another on one scale - the
 * levels are quarters of the busiest link of any of them - so that a good
 * and a bad mapping compare; --scale own gives each its own busiest link,
 * --scale BYTES a fixed one (to compare separate runs).
 *
 * Switch-based networks are drawn as the matrices of their net_view
 * (report/netview.h), one character a link: a dragonfly's groups, a
 * fat tree's levels, a HyperX's dimensions; a tree of switches from
 * Slurm's topology is listed first, switch by switch, with the nodes
 * under each in Slurm's hostlist form. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mapping/strategy.h"
#include "routing/hostlist.h"
#include "cli/cli.h"
#include "report/netview.h"
#include "sim/run.h"

#define SHOW_MAX_SIDE 16
/* Columns of a switch-based network's matrices before they fold. */
#define SHOW_MAX_COLS 40

/* Load levels: 0 none, 1..4 quarters of the busiest link. */
static int level(int64_t bytes, int64_t max)
{
  if (bytes <= 0 || max <= 0)
    return 0;
  int q = (int)((bytes * 4 + max - 1) / max);
  return CLAMP(q, 1, 4);
}

typedef struct show_ctx {
  const platform *p;
  const metrics *m;
  const mapping *map;
  int64_t max;
  gboolean color;
} show_ctx;

/* The drawing of each load level, read by the grids, the switch
 * matrices and their legends alike. */
typedef struct glyph_level {
  const char *across; /* a cable along x, between two node labels */
  const char *down;   /* along y (between rows) and z (the per-node strip) */
  char cell;          /* a switch network's matrix cell */
  const char *color;
  const char *upto;   /* the legend's "up to"; NULL: the busiest level */
} glyph_level;

static const glyph_level glyphs[5] = {
  { "     ", " ", '.', "", NULL },
  { " --- ", "|", '-', "\033[32m", "1/4" },
  { " === ", ":", '=', "\033[33m", "1/2" },
  { " ### ", "H", '#', "\033[31m", "3/4" },
  { " @@@ ", "@", '@', "\033[1;31m", NULL },
};

/* Bytes on the cable between nodes a and b (the larger direction), or -1
 * when no link joins them. */
static int64_t cable(const show_ctx *s, int a, int b)
{
  const topo *t = s->p->topo;
  int64_t best = -1;
  for (int k = t->out_off[a]; k < t->out_off[a + 1]; k++) {
    int l = t->out_link[k];
    if (t->link_dst[l] == b)
      best = MAX(best, s->m->link_bytes[l]);
  }
  for (int k = t->out_off[b]; k < t->out_off[b + 1]; k++) {
    int l = t->out_link[k];
    if (t->link_dst[l] == a)
      best = MAX(best, s->m->link_bytes[l]);
  }
  return best;
}

/* A cable's glyph, along x (across) or along y and z; blank when no
 * cable joins the two nodes (bytes < 0). */
static void put_glyph(const show_ctx *s, gboolean across, int64_t bytes)
{
  int lv = bytes < 0 ? 0 : level(bytes, s->max);
  const glyph_level *g = &glyphs[lv];
  if (s->color && lv)
    fputs(g->color, stdout);
  fputs(across ? g->across : g->down, stdout);
  if (s->color && lv)
    fputs("\033[0m", stdout);
}

/* The links' legend from the glyph table: "--- | up to 1/4, ...". */
static void print_link_legend(int64_t max, const char *scale)
{
  printf("links:");
  for (int lv = 1; lv < 5; lv++) {
    g_autofree char *across = g_strstrip(g_strdup(glyphs[lv].across));
    if (glyphs[lv].upto)
      printf(" %s %s up to %s,", across, glyphs[lv].down, glyphs[lv].upto);
    else
      printf(" %s %s up to %" G_GINT64_FORMAT " bytes (%s)", across, glyphs[lv].down, max, scale);
  }
  printf("; ~ a torus wrap link\n");
}

/* What a node shows: its rank ("r12"), the first of its ranks and how many
 * more ("r12+3"), "." when allocated and empty, "x" when not allocated. */
static void node_label(const show_ctx *s, int node, char out[16])
{
  int first = -1, n = 0;
  for (int r = 0; r < s->map->ntasks; r++)
    if (s->map->node[r] == node) {
      if (first < 0)
        first = r;
      n++;
    }
  if (n == 0)
    g_snprintf(out, 16, "%s", s->p->alloc_index[node] >= 0 ? "." : "x");
  else if (n == 1)
    g_snprintf(out, 16, "r%d", first);
  else
    g_snprintf(out, 16, "r%d+%d", first, n - 1);
}

static void draw_plane(const show_ctx *s, int z)
{
  const topo *t = s->p->topo;
  int X = t->shape[0], Y = t->ndims > 1 ? t->shape[1] : 1;
  gboolean wrapx = t->conn[0] == TOPO_TORUS && X > 2;
  gboolean wrapy = t->ndims > 1 && t->conn[1] == TOPO_TORUS && Y > 2;
  int c[TOPO_MAX_DIMS] = { 0 };
  c[2] = z;
  if (t->ndims > 2)
    printf("z = %d\n", z);
  for (int y = 0; y < Y; y++) {
    c[1] = y;
    for (int x = 0; x < X; x++) {
      c[0] = x;
      int v = topo_node(t, c);
      char lab[16];
      node_label(s, v, lab);
      printf("%6s", lab);
      if (x + 1 < X) {
        c[0] = x + 1;
        put_glyph(s, TRUE, cable(s, v, topo_node(t, c)));
      } else if (wrapx) {
        c[0] = 0;
        printf(" ~");
        put_glyph(s, TRUE, cable(s, v, topo_node(t, c)));
      }
    }
    printf("\n");
    if (t->ndims < 2 || (y + 1 == Y && !wrapy))
      continue;
    for (int x = 0; x < X; x++) {
      c[0] = x;
      c[1] = y;
      int v = topo_node(t, c);
      c[1] = y + 1 < Y ? y + 1 : 0;
      printf("     ");
      put_glyph(s, FALSE, cable(s, v, topo_node(t, c)));
      printf("     ");
    }
    printf(y + 1 == Y ? "   (wrap to the first row)\n" : "\n");
  }
  if (t->ndims > 2 && t->shape[2] > 1) {
    /* two lines per row of nodes, labelled like a switch network's strips,
     * each glyph under its node's label */
    printf("links along z from this plane, per node (up: to z+1, down: to z-1):\n");
    for (int y = 0; y < Y; y++) {
      c[1] = y;
      for (int way = 0; way < 2; way++) {
        printf("%4s ", way ? "down" : "up");
        for (int x = 0; x < X; x++) {
          c[0] = x;
          int v = topo_node(t, c);
          int64_t bytes = -1; /* no link that way (a mesh's first and last plane) */
          for (int k = t->out_off[v]; k < t->out_off[v + 1]; k++) {
            int l = t->out_link[k];
            if (t->link_dim[l] == 2 && t->link_dir[l] == way)
              bytes = MAX(bytes, s->m->link_bytes[l]);
          }
          printf("%s", x ? "          " : "");
          put_glyph(s, FALSE, bytes);
        }
        printf("\n");
      }
    }
  }
  printf("\n");
}

/* One panel of a net_view, a character a cell: blank where there is no
 * link, '.' an unused one, then the quarters of the busiest. */
static void draw_panel(const show_ctx *s, const net_panel *q)
{
  int rw = 2;
  char buf[16];
  for (int r = 0; r < q->rows; r++)
    rw = MAX(rw, q->row_names ? (int)strlen(q->row_names[r]) : g_snprintf(buf, 16, "%d", r));
  printf("%s%s%s (%s down, %s across)\n", q->title, q->note ? "; " : "", q->note ? q->note : "",
         q->row_label ? q->row_label : "rows", q->col_label ? q->col_label : "columns");
  if (q->cols > 10) { /* tens, then units */
    printf("%*s ", rw, "");
    for (int c = 0; c < q->cols; c++)
      printf(" %c", c % 10 == 0 ? '0' + (c / 10) % 10 : ' ');
    printf("\n");
  }
  printf("%*s ", rw, "");
  for (int c = 0; c < q->cols; c++)
    printf(" %c", '0' + c % 10);
  printf("\n");
  for (int r = 0; r < q->rows; r++) {
    if (q->row_names)
      printf("%*s ", rw, q->row_names[r]);
    else
      printf("%*d ", rw, r);
    for (int c = 0; c < q->cols; c++) {
      double v = q->value[(size_t)r * q->cols + c];
      if (isnan(v)) {
        printf("  ");
        continue;
      }
      int lv = level((int64_t)v, s->max);
      printf(" %s%c%s", s->color && lv ? glyphs[lv].color : "", glyphs[lv].cell,
             s->color && lv ? "\033[0m" : "");
    }
    printf("\n");
  }
  printf("\n");
}

/* Switch v of a tree and those below it, one line each. */
static void list_switch(const platform *p, const int *koff, const int *kids, int v, int depth)
{
  const topo *t = p->topo;
  int nodes = topo_compute_nodes(t), n = 0;
  GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
  /* the nodes below, depth first (consecutive ids when Slurm's loader built it) */
  GArray *stack = g_array_new(FALSE, FALSE, sizeof(int));
  g_array_append_val(stack, v);
  while (stack->len) {
    int u = g_array_index(stack, int, stack->len - 1);
    g_array_set_size(stack, stack->len - 1);
    if (u < nodes) {
      g_ptr_array_add(names, p->names ? g_strdup(p->names[u]) : g_strdup_printf("%d", u));
      n++;
      continue;
    }
    for (int k = koff[u + 1] - 1; k >= koff[u]; k--)
      g_array_append_val(stack, kids[k]);
  }
  g_array_free(stack, TRUE);
  g_autofree char *list = hostlist_compress((const char *const *)names->pdata, n);
  g_autofree char *name = p->names ? g_strdup(p->names[v]) : g_strdup_printf("sw%d", v - nodes);
  printf("%*s%-*s level %d  %d node%s  %s\n", 2 * depth, "", MAX(14 - 2 * depth, 1), name,
         topo_tree_of(t)->level[v], n, n == 1 ? " " : "s", list);
  g_ptr_array_unref(names);
  for (int k = koff[v]; k < koff[v + 1]; k++)
    if (kids[k] >= nodes)
      list_switch(p, koff, kids, kids[k], depth + 1);
}

/* A tree of switches as a list from the top: name, level, nodes below. */
static void list_tree(const platform *p)
{
  const topo *t = p->topo;
  const topo_tree *tr = topo_tree_of(t);
  int *koff = g_new0(int, t->nnodes + 1), *kids = g_new(int, t->nnodes);
  for (int v = 0; v < t->nnodes; v++)
    if (tr->parent[v] >= 0)
      koff[tr->parent[v] + 1]++;
  for (int v = 0; v < t->nnodes; v++)
    koff[v + 1] += koff[v];
  int *fill = g_memdup2(koff, sizeof(int) * (size_t)t->nnodes);
  for (int v = 0; v < t->nnodes; v++)
    if (tr->parent[v] >= 0)
      kids[fill[tr->parent[v]]++] = v;
  printf("switches of %s from the top: name, level (leaf switches 1), the nodes below\n",
         p->name);
  list_switch(p, koff, kids, tr->root, 0);
  printf("\n");
  g_free(koff);
  g_free(kids);
  g_free(fill);
}

/* A switch-based network: its view's panels. */
static void draw_network(const show_ctx *s)
{
  const topo *t = s->p->topo;
  double *v = g_new(double, MAX(t->nlinks, 1));
  for (int l = 0; l < t->nlinks; l++)
    v[l] = (double)s->m->link_bytes[l];
  net_view *view = net_view_new(s->p, v, SHOW_MAX_COLS);
  for (int k = 0; k < view->npanels; k++)
    draw_panel(s, &view->panels[k]);
  net_view_free(view);
  g_free(v);
}

/* The scale of the levels: "shared" (NULL), "own", or a number of bytes;
 * FALSE + error for anything else. */
static gboolean parse_scale(const char *text, gboolean *own, int64_t *fixed, GError **error)
{
  *own = FALSE;
  *fixed = 0;
  if (!text || strcmp(text, "shared") == 0)
    return TRUE;
  if (strcmp(text, "own") == 0) {
    *own = TRUE;
    return TRUE;
  }
  guint64 v;
  if (g_ascii_string_to_unsigned(text, 10, 1, G_MAXINT64, &v, NULL)) {
    *fixed = (int64_t)v;
    return TRUE;
  }
  g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
              "--scale %s: expected shared, own or a number of bytes (1 or more)", text);
  return FALSE;
}

static int show(const cli_common *c, const char *scale)
{
  GError *e = NULL;
  platform *p = NULL;
  commgraph *g = NULL;
  run_result *res[16] = { 0 };
  int status = 2, nmaps = 0;
  gboolean with_colls = FALSE, own;
  int64_t fixed;
  const char *const one[] = { c->mapping ? c->mapping : "identity", NULL };
  const char *const *names = c->strategies ? (const char *const *)c->strategies : one;
  if (!parse_scale(scale, &own, &fixed, &e))
    goto fail;
  if (c->mapping && c->strategies) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "--mapping and --strategy exclude each other, expected one of them");
    goto fail;
  }
  nmaps = (int)g_strv_length((char **)names);
  if (nmaps > (int)G_N_ELEMENTS(res)) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                "%d strategies, expected at most %d", nmaps, (int)G_N_ELEMENTS(res));
    goto fail;
  }
  if (!(p = cli_common_platform(c, &e)))
    goto fail;
  const topo *t = p->topo;
  if (!t->nswitches && (!topo_is_regular(t) || t->ndims > 3 || t->shape[0] > SHOW_MAX_SIDE ||
      (t->ndims > 1 && t->shape[1] > SHOW_MAX_SIDE) || (t->ndims > 2 && t->shape[2] > SHOW_MAX_SIDE))) {
    g_set_error(&e, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: show draws 1D to 3D meshes, tori and HAEC Boxes of at most %d nodes per "
                "side and switch-based networks, expected %s", p->name, SHOW_MAX_SIDE,
                topo_is_regular(t) ? "a smaller platform" : "one of them, not a graph "
                "(mapsim metrics --top lists its loads per link)");
    goto fail;
  }
  gboolean traffic = c->matrix || c->trace;
  if (!traffic && (c->mapping || c->strategies)) {
    g_set_error(&e, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s places the ranks of a "
                "traffic, expected --trace T or --matrix M with it",
                c->mapping ? "--mapping" : "--strategy");
    goto fail;
  }
  if (!traffic) /* the platform alone: no rank, every link unused */
    g = commgraph_from_edges(0, 0, NULL, NULL, NULL, NULL);
  else if (!(g = cli_common_graph(c, &with_colls, &e)))
    goto fail;
  run_inputs in = { .p = p, .g = g, .g_collectives = with_colls };
  int64_t shared = 0;
  if (!traffic) {
    res[0] = g_new0(run_result, 1);
    res[0]->m = mapping_new(0);
    res[0]->pre = metrics_compute(g, p, res[0]->m);
  }
  for (int k = 0; k < nmaps && traffic; k++) {
    run_spec spec;
    run_spec_init(&spec);
    spec.mapping_file = c->mapping;
    spec.strategy = c->mapping ? NULL : c->strategies ? names[k] : NULL;
    spec.seed = c->seed;
    if (!(res[k] = run_cell(&in, &spec, &e)))
      goto fail;
    shared = MAX(shared, res[k]->pre->max_link_bytes);
  }
  for (int k = 0; k < nmaps; k++) {
    int64_t max = fixed ? fixed : own ? res[k]->pre->max_link_bytes : shared;
    show_ctx s = { p, res[k]->pre, res[k]->m, max,
                   isatty(STDOUT_FILENO) && !g_getenv("NO_COLOR") };
    const char *scale_text = fixed ? "--scale"
                             : own || nmaps == 1 ? "this mapping's busiest link"
                             : "the busiest link of the mappings shown, one scale for all";
    if (traffic)
      printf("%s%s on %s, mapping %s: %s (static, %s)\n\n", k ? "\n" : "",
             c->matrix ? c->matrix : c->trace, p->name, names[k],
             t->nswitches ? "link bytes" : "ranks on nodes, link bytes",
             c->trace ? run_traffic_name(with_colls) : "matrix");
    else
      printf("%s: its %s, no traffic (--trace T or --matrix M places ranks and loads its "
             "links)\n\n", p->name, t->nswitches ? "links" : "nodes and links");
    if (t->nswitches) {
      if (k == 0 && topo_tree_of(t))
        list_tree(p);
      draw_network(&s);
      if (!traffic) {
        printf("cells: %c a link (none carries traffic); blank: no link\n", glyphs[0].cell);
        continue;
      }
      printf("cells: one link each, or the busiest of those it stands for; %c unused",
             glyphs[0].cell);
      for (int lv = 1; lv < 5; lv++)
        if (glyphs[lv].upto)
          printf(", %c up to %s", glyphs[lv].cell, glyphs[lv].upto);
        else
          printf(", %c up to %" G_GINT64_FORMAT " bytes (%s)", glyphs[lv].cell, max, scale_text);
      printf("; blank: no link\n");
    } else {
      int Z = t->ndims > 2 ? t->shape[2] : 1;
      for (int z = 0; z < Z; z++)
        draw_plane(&s, z);
      if (!traffic) {
        printf("nodes: . = allocated, x = not allocated; links carry no traffic\n");
        continue;
      }
      printf("nodes: rN = rank N, rN+k = rank N and k more, . = empty, x = not allocated\n");
      print_link_legend(max, scale_text);
      if (max < res[k]->pre->max_link_bytes)
        printf("(links above %" G_GINT64_FORMAT " bytes are drawn as @@@ too)\n", max);
    }
    printf("hop_bytes %" G_GINT64_FORMAT ", max_link_bytes %" G_GINT64_FORMAT
           ", links used %d of %d\n", res[k]->pre->hop_bytes, res[k]->pre->max_link_bytes,
           res[k]->pre->links_used, t->nlinks);
  }
  status = 0;
  goto out;
fail:
  status = cli_fail(e);
out:
  for (int k = 0; k < (int)G_N_ELEMENTS(res); k++)
    run_result_free(res[k]);
  commgraph_free(g);
  platform_free(p);
  return status;
}

int cmd_show(int argc, char **argv)
{
  cli_common c;
  char *scale = NULL;
  const GOptionEntry entries[] = {
    { "scale", 0, 0, G_OPTION_ARG_STRING, &scale, "Load levels of several strategies: shared "
      "(default: quarters of the busiest link of any), own (each its own busiest link) or "
      "BYTES (a fixed busiest level, to compare separate runs)", "shared|own|BYTES" },
    { NULL },
  };
  int status = 2;
  if (cli_parse(&argc, &argv, "show", "",
                "Draws a small platform in the terminal: one grid per Z plane, the ranks of a "
                "mapping on its nodes and each link's static load (for teaching); a dragonfly "
                "by its groups, a fat tree or Slurm tree by level, a HyperX by dimension, a "
                "character a link. Several --strategy are drawn one after another on one scale; "
                "without --trace or --matrix, the platform alone (its links unused).",
                "Examples:\n"
                "  mapsim show -p torus:4x4x4 -t traces/data/stencil3d-64 -s identity -s random\n"
                "  mapsim show -p mesh:8x8 -m tests/data/y_pair.csv\n"
                "  mapsim show -p dragonfly:g=4:a=2:p=2:h=2 -t traces/data/cg-16 -s identity -s hier",
                CLI_OPT_PLACE | CLI_OPT_GRAPH | CLI_OPT_COLLECTIVES | CLI_OPT_MAPPING |
                CLI_OPT_STRATEGIES | CLI_OPT_SEED, &c, entries))
    status = show(&c, scale);
  cli_common_clear(&c);
  g_free(scale);
  return status;
}
