/* route.c - the router and the one iterator over every family's routes:
 * a routing is a row of its family (routing/family/family.h), found by
 * name here; the routes themselves, the hooks adaptive and packet models
 * ask and the tables some routings keep are the family file's. See
 * route.h for the rules.
 */
#include "routing/family/family-private.h"

#include <math.h>
#include <string.h>

#include "util/enumname.h"

G_DEFINE_QUARK(route-error-quark, route_error)

gboolean router_parse_order(const topo *t, const char *text, int *order, GError **error)
{
  int n = 0;
  gboolean seen[TOPO_MAX_DIMS] = { FALSE };
  for (const char *p = text; *p; p++) {
    if (*p == ',' || *p == ' ')
      continue;
    int d = -1;
    if (*p >= '0' && *p <= '9')
      d = *p - '0';
    else
      for (int i = 0; i < TOPO_MAX_DIMS; i++)
        if (g_ascii_tolower(*p) == topo_dim_letter(i))
          d = i;
    if (d < 0 || d >= t->ndims || seen[d] || n >= t->ndims) {
      g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                  "dimension order '%s': expected a permutation of the %d dimensions "
                  "(letters xyzwvu... or digits), each once", text, t->ndims);
      return FALSE;
    }
    seen[d] = TRUE;
    order[n++] = d;
  }
  if (n != t->ndims) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE,
                "dimension order '%s' names %d dimensions, expected all %d", text, n, t->ndims);
    return FALSE;
  }
  return TRUE;
}

static void set_row(router *r, const family_routing *row)
{
  r->row = row;
  r->algo = (route_algo)row->algo;
  r->flags = row->flags;
  r->per_message = FALSE;
  r->ugal_variant = ROUTE_UGAL_GLOBAL;
  r->ugal_candidates = ROUTE_UGAL_VALIANT;
  r->ugal_bias = 0;
}

/* One KEY=VALUE option of r's routing (router_set_algo). */
static gboolean set_option(router *r, const char *spec, const char *opt, GError **error)
{
  const char *eq = strchr(opt, '=');
  g_autofree char *key = eq ? g_strndup(opt, (gsize)(eq - opt)) : g_strdup(opt);
  const char *v = eq ? eq + 1 : "";
  const char *name = r->row->name, *expected = NULL;
  gboolean valiant = r->algo == ROUTE_ALGO_VALIANT, ugal = r->algo == ROUTE_ALGO_UGAL;
  char *end = NULL;
  if (valiant && !strcmp(key, "per")) {
    if (!strcmp(v, "packet"))
      r->per_message = FALSE;
    else if (!strcmp(v, "message") || !strcmp(v, "pair"))
      r->per_message = TRUE;
    else
      expected = "packet, message or pair";
  } else if (ugal && !strcmp(key, "variant")) {
    if (!strcmp(v, "local"))
      r->ugal_variant = ROUTE_UGAL_LOCAL;
    else if (!strcmp(v, "global"))
      r->ugal_variant = ROUTE_UGAL_GLOBAL;
    else
      expected = "local or global";
  } else if (ugal && !strcmp(key, "candidates")) {
    gint64 n = g_ascii_strtoll(v, &end, 10);
    if (!*v || *end || n < 1 || n > ROUTE_MAX_CANDIDATES - 1)
      expected = "a whole number of Valiant candidates from 1 to 32";
    else
      r->ugal_candidates = (int)n;
  } else if (ugal && !strcmp(key, "bias")) {
    double b = g_ascii_strtod(v, &end);
    if (!*v || *end || !isfinite(b))
      expected = "a number (packets or flows added to the non-minimal cost)";
    else
      r->ugal_bias = b;
  } else {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE, "routing '%s': option '%s' of %s, expected %s",
                spec, key, name,
                valiant ? "per=packet|message|pair"
                : ugal  ? "variant=local|global, candidates=N or bias=B"
                        : "no option");
    return FALSE;
  }
  if (expected) {
    g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE, "routing '%s': %s = '%s', expected %s",
                spec, key, v, expected);
    return FALSE;
  }
  return TRUE;
}

gboolean router_set_algo(router *r, const char *spec, GError **error)
{
  const family_ops *f = family_of(r->t);
  g_auto(GStrv) parts = g_strsplit(spec, ":", -1);
  const char *name = parts[0];
  for (int i = 0; i < f->nroutings; i++) {
    const family_routing *row = &f->routings[i];
    if (g_strcmp0(row->name, name) != 0)
      continue;
    if (!(row->flags & ROUTE_FLAG_ALIAS)) /* an alias: the shape decides */
      set_row(r, row);
    for (int k = 1; parts[k]; k++)
      if (!set_option(r, spec, parts[k], error)) {
        set_row(r, family_default_routing(f));
        return FALSE;
      }
    if (r->per_message)
      r->flags &= ~(unsigned)(ROUTE_FLAG_ADAPTIVE | ROUTE_FLAG_SPREAD);
    return TRUE;
  }
  g_autofree char *names = route_algo_names(r->t);
  g_set_error(error, ROUTE_ERROR, ROUTE_ERROR_PARSE, "routing '%s' on a %s, expected %s", name,
              topo_kind_text(r->t), names);
  return FALSE;
}

const char *router_algo_name(const router *r)
{
  return r->row->name;
}

char *route_algo_names(const topo *t)
{
  const family_ops *f = family_of(t);
  GString *s = g_string_new(NULL);
  for (int i = 0; i < f->nroutings; i++)
    g_string_append_printf(s, "%s%s", s->len ? ", " : "", f->routings[i].name);
  return g_string_free(s, FALSE);
}

static const char *const tie_names[] = { "positive", "simgrid" };

gboolean route_tie_from_name(const char *name, route_tie *out)
{
  int i;
  if (!enum_parse(tie_names, G_N_ELEMENTS(tie_names), name, &i))
    return FALSE;
  *out = (route_tie)i;
  return TRUE;
}

router *router_new(const topo *t, const int *order, GError **error)
{
  const family_ops *f = family_of(t);
  router *r = g_new0(router, 1);
  r->t = t;
  set_row(r, family_default_routing(f));
  r->seed = 1;
  for (int d = 0; d < t->ndims; d++)
    r->order[d] = order ? order[d] : d;
  if (f->router_init && !f->router_init(r, error)) {
    router_free(r);
    return NULL;
  }
  return r;
}

void router_free(router *r)
{
  if (!r)
    return;
  g_free(r->path_off);
  g_free(r->path_len);
  g_free(r->path_links);
  g_free(r->next_link);
  g_free(r->dist);
  g_free(r);
}

static void begin_variant(route_iter *it, const router *r, int src, int dst, uint64_t key,
                          route_path path, int variant)
{
  const topo *t = r->t;
  const family_ops *f = family_of(t);
  it->r = r;
  it->cur = src;
  it->dst = dst;
  it->k = 0;
  it->path = NULL;
  it->left = 0;
  if (f->route) {
    it->path = it->buf;
    it->left = src == dst ? 0 : f->route(r, src, dst, key, path, variant, it->buf);
    return;
  }
  if (r->path_off) {
    size_t pair = (size_t)src * t->nnodes + dst;
    if (r->path_off[pair] >= 0) {
      it->path = r->path_links + r->path_off[pair];
      it->left = r->path_len[pair];
      return;
    }
  }
  f->walk_begin(it);
}

void route_begin_path(route_iter *it, const router *r, int src, int dst, uint64_t key,
                      route_path path)
{
  begin_variant(it, r, src, dst, key, path, 0);
}

void route_begin(route_iter *it, const router *r, int src, int dst, uint64_t key)
{
  begin_variant(it, r, src, dst, key, ROUTE_PATH_DEFAULT, 0);
}

int route_candidates(const router *r)
{
  return r->row->candidates ? r->row->candidates(r) : 1;
}

uint32_t route_spread_pick(const router *r, uint64_t key, int64_t message, int64_t packet, int n)
{
  uint64_t h = family_hash(family_hash((uint64_t)r->seed ^ 0xA5A5A5A5u, key), (uint64_t)message);
  return (uint32_t)family_pick(family_hash(h, (uint64_t)packet), MAX(n, 1));
}

int route_default_candidate(const router *r, uint64_t key)
{
  return (r->flags & ROUTE_FLAG_SPREAD) ? family_pick(family_hash(r->seed, key),
                                                      route_candidates(r))
                                        : 0;
}

void route_begin_candidate(route_iter *it, const router *r, int src, int dst, uint64_t key,
                           int c)
{
  if (r->flags & ROUTE_FLAG_SPREAD)
    begin_variant(it, r, src, dst, key, ROUTE_PATH_NONMINIMAL, c + 1);
  else if ((r->flags & ROUTE_FLAG_NONMINIMAL_CANDIDATES) && c > 0)
    begin_variant(it, r, src, dst, route_key_salt(key, c - 1), ROUTE_PATH_NONMINIMAL, 0);
  else
    begin_variant(it, r, src, dst, key, ROUTE_PATH_DEFAULT, c);
}

int route_seen_links(const router *r, const int *links, int nlinks)
{
  return r->row->seen_links ? r->row->seen_links(r, links, nlinks) : MIN(nlinks, 2);
}

int route_vc_classes(const router *r)
{
  return r->row->vc_classes ? r->row->vc_classes(r) : 1;
}

gboolean route_vc_step(const router *r, int link)
{
  return r->row->vc_step ? r->row->vc_step(r, link) : FALSE;
}

void router_nonminimal_view(const router *r, router *out)
{
  *out = *r;
  if (r->row->nonminimal)
    set_row(out, r->row->nonminimal);
}

gboolean route_next(route_iter *it, int *link)
{
  if (it->path) {
    if (it->left == 0)
      return FALSE;
    *link = *it->path++;
    it->left--;
    return TRUE;
  }
  if (it->cur == it->dst)
    return FALSE;
  return family_of(it->r->t)->walk_next(it, link);
}

int route_hops(const router *r, int src, int dst)
{
  size_t n = (size_t)r->t->nnodes;
  if (src == dst)
    return 0;
  if (r->path_off && r->path_off[(size_t)src * n + dst] >= 0)
    return r->path_len[(size_t)src * n + dst];
  if (r->dist)
    return r->dist[(size_t)src * n + dst];
  return family_of(r->t)->hops(r->t, src, dst);
}
