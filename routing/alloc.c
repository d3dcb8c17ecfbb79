/* alloc.c - allocation policies (alloc.h): one table, one parser.
 *
 * Jain, Bhatele, Ni, Wright and Kale, "Maximizing Throughput on a
 * Dragonfly Network", SC14, Section IV (random nodes, routers and groups);
 * Slurm's topology/tree and topology/block selection (slurm.schedmd.com,
 * topology.html: the lowest switch that satisfies a job, best fit; base
 * blocks aggregated in powers of two); CODES' allocation layouts
 * (contiguous, random, striped).
 */
#include "routing/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "routing/platform-private.h"
#include "util/suggest.h"

/* What a policy reads: the topology's free compute nodes. */
typedef struct alloc_view {
  const topo *t;
  const char *spec;        /* the request, for messages */
  const gboolean *taken;   /* or NULL */
  const int *avail;        /* ascending: the nodes not taken */
  int nfree;
} alloc_view;

typedef gboolean (*alloc_fn)(const alloc_view *v, int n, GRand *rng, int *out, GError **error);

struct alloc_policy {
  const char *name;
  gboolean seeded;
  alloc_fn pick;
  const char *help;
};

typedef enum { UNIT_ROUTER, UNIT_GROUP } unit_level;

/* Nodes per router or group (node ids run consecutively in both), from
 * the family's hierarchy (topo_hierarchy: its last level the nodes of one
 * switch, the levels below the top a group); 0 when the network has no
 * such unit (groups of a direct network). */
static int unit_size(const topo *t, unit_level level)
{
  int radix[TOPO_MAX_HIER_LEVELS];
  int n = t->nswitches ? topo_hierarchy(t, radix) : 0;
  if (n == 0) /* direct networks; trees of switches are refused before: units_known() */
    return level == UNIT_ROUTER ? 1 : 0;
  if (level == UNIT_ROUTER)
    return radix[n - 1];
  if (n == 1)
    return topo_compute_nodes(t);
  int size = 1;
  for (int i = 1; i < n; i++)
    size *= radix[i];
  return size;
}

/* The policies by router or group take units of consecutive node ids of
 * one size; a tree of switches (Slurm's topology) may be irregular, its
 * leaf switches of different sizes, and has none of those. */
static gboolean units_known(const alloc_view *v, const char *policy, GError **error)
{
  if (v->t->family != TOPO_FAMILY_TREE)
    return TRUE;
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
              "allocation '%s': %s on a tree of switches (Slurm's topology) is not supported, "
              "expected contiguous, random or striped there", v->spec, policy);
  return FALSE;
}

static gboolean is_free(const alloc_view *v, int node)
{
  return !v->taken || !v->taken[node];
}

static int free_in(const alloc_view *v, int first, int size)
{
  int n = 0;
  for (int i = first; i < first + size; i++)
    n += is_free(v, i);
  return n;
}

/* Appends up to `want` free nodes of [first, first + size) to out. */
static int take_free(const alloc_view *v, int first, int size, int want, int *out)
{
  int n = 0;
  for (int i = first; i < first + size && n < want; i++)
    if (is_free(v, i))
      out[n++] = i;
  return n;
}

static gboolean no_units(const alloc_view *v, GError **error)
{
  g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
              "allocation '%s': a %s has no groups of switches, expected a dragonfly, fat tree "
              "or HyperX", v->spec, topo_kind_text(v->t));
  return FALSE;
}

static gboolean pick_contiguous(const alloc_view *v, int n, GRand *rng, int *out, GError **error)
{
  memcpy(out, v->avail, sizeof(int) * (size_t)n);
  return TRUE;
}

/* A partial Fisher-Yates shuffle with GLib's Mersenne Twister: on a
 * machine with every node free, the sets `random:N:SEED` always gave. */
static gboolean pick_random(const alloc_view *v, int n, GRand *rng, int *out, GError **error)
{
  int *perm = g_memdup2(v->avail, sizeof(int) * (size_t)MAX(v->nfree, 1));
  for (int i = 0; i < n; i++) {
    int j = g_rand_int_range(rng, i, v->nfree);
    int tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
  }
  memcpy(out, perm, sizeof(int) * (size_t)n);
  g_free(perm);
  return TRUE;
}

/* Whole units drawn at random, their free nodes in id order. */
static void pick_units(const alloc_view *v, int size, int n, GRand *rng, int *out)
{
  int nunits = topo_compute_nodes(v->t) / size, k = 0;
  int *units = g_new(int, nunits);
  for (int u = 0; u < nunits; u++)
    if (free_in(v, u * size, size))
      units[k++] = u;
  for (int i = 0, got = 0; got < n; i++) {
    int j = g_rand_int_range(rng, i, k);
    int tmp = units[i];
    units[i] = units[j];
    units[j] = tmp;
    got += take_free(v, units[i] * size, size, n - got, out + got);
  }
  g_free(units);
}

static gboolean pick_random_routers(const alloc_view *v, int n, GRand *rng, int *out,
                                    GError **error)
{
  if (!units_known(v, "random-routers", error))
    return FALSE;
  pick_units(v, unit_size(v->t, UNIT_ROUTER), n, rng, out);
  return TRUE;
}

static gboolean pick_random_groups(const alloc_view *v, int n, GRand *rng, int *out,
                                   GError **error)
{
  if (!units_known(v, "random-groups", error))
    return FALSE;
  int size = unit_size(v->t, UNIT_GROUP);
  if (!size)
    return no_units(v, error);
  pick_units(v, size, n, rng, out);
  return TRUE;
}

static gboolean pick_striped(const alloc_view *v, int n, GRand *rng, int *out, GError **error)
{
  for (int i = 0; i < n; i++)
    out[i] = v->avail[(int64_t)i * v->nfree / n];
  return TRUE;
}

/* The unit of `size` nodes among [first, first + span) with the fewest
 * free nodes that still holds `want` (best fit; ties: the lowest), or -1. */
static int best_unit(const alloc_view *v, int first, int span, int size, int want)
{
  int best = -1, best_free = G_MAXINT;
  for (int u = first; u < first + span; u += size) {
    int f = free_in(v, u, MIN(size, first + span - u));
    if (f >= want && f < best_free) {
      best = u;
      best_free = f;
    }
  }
  return best;
}

/* The unit of `size` nodes among [first, first + span) with the most
 * free nodes (ties: the lowest), or -1 when none has any. */
static int fullest_unit(const alloc_view *v, int first, int span, int size)
{
  int best = -1, best_free = 0;
  for (int u = first; u < first + span; u += size) {
    int f = free_in(v, u, MIN(size, first + span - u));
    if (f > best_free) {
      best = u;
      best_free = f;
    }
  }
  return best;
}

/* n free nodes of [first, first + span) unit by unit (units of `size`):
 * with `fit`, the smallest unit that holds the rest when one does (the
 * fewest units, as Slurm's tree selection takes leaf switches), else -
 * and always without `fit` - the fullest. */
static void take_units(const alloc_view *v, int first, int span, int size, int n, gboolean fit,
                       int *out)
{
  gboolean *mark = g_new0(gboolean, topo_compute_nodes(v->t));
  alloc_view w = { v->t, v->spec, mark, NULL, 0 };
  for (int i = first; i < first + span; i++)
    mark[i] = !is_free(v, i);
  for (int got = 0; got < n;) {
    int u = fit ? best_unit(&w, first, span, size, n - got) : -1;
    if (u < 0)
      u = fullest_unit(&w, first, span, size);
    int k = take_free(&w, u, MIN(size, first + span - u), n - got, out + got);
    for (int i = 0; i < k; i++)
      mark[out[got + i]] = TRUE;
    got += k;
  }
  g_free(mark);
}

static gboolean pick_best_fit(const alloc_view *v, int n, GRand *rng, int *out, GError **error)
{
  if (!units_known(v, "best-fit", error))
    return FALSE;
  int all = topo_compute_nodes(v->t), per_router = unit_size(v->t, UNIT_ROUTER);
  int group = unit_size(v->t, UNIT_GROUP);
  int levels[] = { per_router, group ? group : all, all };
  int u = -1;
  size_t l = 0;
  for (; u < 0 && l < G_N_ELEMENTS(levels); l++)
    u = best_unit(v, 0, all, levels[l], n);
  g_assert(u >= 0); /* the machine holds n: alloc_pick checked */
  take_units(v, u, MIN(levels[l - 1], all - u), per_router, n, TRUE, out);
  return TRUE;
}

static gboolean pick_blocks(const alloc_view *v, int n, GRand *rng, int *out, GError **error)
{
  if (!units_known(v, "blocks", error))
    return FALSE;
  int all = topo_compute_nodes(v->t), block = unit_size(v->t, UNIT_GROUP);
  if (!block)
    return no_units(v, error);
  int nblocks = all / block, need = (n + block - 1) / block, run = 1;
  while (run < need)
    run *= 2;
  int u = -1, span = 0;
  for (; u < 0; run *= 2) {
    span = MIN(run, nblocks) * block;
    u = best_unit(v, 0, all, span, n);
    g_assert(u >= 0 || run < nblocks); /* the machine holds n: alloc_pick checked */
  }
  take_units(v, u, MIN(span, all - u), block, n, FALSE, out);
  return TRUE;
}

static const alloc_policy policies[] = {
  { "contiguous", FALSE, pick_contiguous, "the N lowest free node ids" },
  { "random", TRUE, pick_random, "N free nodes drawn at random" },
  { "random-routers", TRUE, pick_random_routers,
    "whole routers (switches) drawn at random (a mesh or torus: random)" },
  { "random-groups", TRUE, pick_random_groups,
    "whole groups (dragonfly groups, fat-tree pods, HyperX slabs) drawn at random" },
  { "striped", FALSE, pick_striped, "N nodes evenly spaced over the free ones" },
  { "best-fit", FALSE, pick_best_fit,
    "Slurm's topology/tree: the lowest router, group or machine that holds N, best fit" },
  { "blocks", FALSE, pick_blocks,
    "Slurm's topology/block: the smallest aligned run of 2^k groups that holds N" },
};

static const alloc_policy *find_policy(const char *name, size_t len)
{
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++)
    if (strlen(policies[i].name) == len && strncmp(policies[i].name, name, len) == 0)
      return &policies[i];
  return NULL;
}

gboolean alloc_is_policy(const char *spec)
{
  const char *colon = strchr(spec, ':');
  return colon && find_policy(spec, (size_t)(colon - spec));
}

const char *alloc_policy_name(const alloc_policy *p)
{
  return p->name;
}

const alloc_policy *alloc_policy_find(const char *name)
{
  return find_policy(name, strlen(name));
}

char *alloc_policy_names(void)
{
  GString *s = g_string_new(NULL);
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", policies[i].name);
  return g_string_free(s, FALSE);
}

char *alloc_policy_hint(const char *spec)
{
  g_autofree char *head = g_strndup(spec, strcspn(spec, ":"));
  suggestion sg;
  suggestion_init(&sg, head);
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++)
    suggestion_add(&sg, policies[i].name);
  const char *near = suggestion_best(&sg);
  return near ? g_strdup_printf(" (did you mean %s?)", near) : g_strdup("");
}

static int int_cmp(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

gboolean alloc_parse(const char *spec, int max_nodes, alloc_request *out, GError **error)
{
  const char *colon = strchr(spec, ':');
  const alloc_policy *p = colon ? find_policy(spec, (size_t)(colon - spec)) : NULL;
  g_auto(GStrv) parts = p ? g_strsplit(colon + 1, ":", -1) : NULL;
  guint np = parts ? g_strv_length(parts) : 0;
  long n = 0, seed = 1;
  if (!p || np < 1 || np > 2 || !platform_parse_long(parts[0], 1, max_nodes, &n) ||
      (np == 2 && !platform_parse_long(parts[1], 0, G_MAXUINT32, &seed))) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_PARSE,
                "allocation '%s': expected %s:N[:SEED] with 1 <= N <= %d and SEED 0..4294967295",
                spec, p ? p->name : "POLICY", max_nodes);
    return FALSE;
  }
  *out = (alloc_request){ p, (int)n, (guint32)seed };
  return TRUE;
}

int *alloc_pick(const topo *t, const alloc_request *r, const gboolean *taken, const char *spec,
                GError **error)
{
  int all = topo_compute_nodes(t), nfree = 0;
  int *avail = g_new(int, MAX(all, 1));
  for (int i = 0; i < all; i++)
    if (!taken || !taken[i])
      avail[nfree++] = i;
  int *out = NULL;
  if (r->nodes > nfree) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "allocation '%s': %d nodes, expected at most %d (the free compute nodes)", spec,
                r->nodes, nfree);
  } else {
    alloc_view v = { t, spec, taken, avail, nfree };
    GRand *rng = g_rand_new_with_seed(r->seed);
    out = g_new(int, MAX(r->nodes, 1));
    if (!r->policy->pick(&v, r->nodes, rng, out, error))
      g_clear_pointer(&out, g_free);
    else
      qsort(out, (size_t)r->nodes, sizeof(int), int_cmp);
    g_rand_free(rng);
  }
  g_free(avail);
  return out;
}

char *alloc_policy_help(void)
{
  GString *s = g_string_new("Allocation policies (--alloc POLICY:N[:SEED], [allocation] nodes, "
                            "jobs files; SEED of the random ones, default 1):\n");
  for (size_t i = 0; i < G_N_ELEMENTS(policies); i++)
    g_string_append_printf(s, "  %-15s %s\n", policies[i].name, policies[i].help);
  return g_string_free(s, FALSE);
}
