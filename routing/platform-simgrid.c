/* platform-simgrid.c - a platform as a SimGrid platform file (see
 * platform.h, platform_write_simgrid). */
#include "routing/energy.h"
#include "routing/family/family.h"
#include "routing/platform.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One bandwidth and latency for every link and no router delay: a
 * cluster zone has one of each; and links that draw no power (a cluster's
 * links take no properties). */
static gboolean uniform_links(const platform *p)
{
  const topo *t = p->topo;
  if (p->router->path_off || p->model.router_delay != 0 || t->nlinks == 0 ||
      platform_has_power(p))
    return FALSE;
  for (int l = 1; l < t->nlinks; l++)
    if (p->link_bw[l] != p->link_bw[0] || p->link_lat[l] != p->link_lat[0])
      return FALSE;
  return TRUE;
}

const char *platform_simgrid_cluster(const platform *p)
{
  const family_ops *f = family_of(p->topo);
  if (!uniform_links(p) || !f->simgrid_zone)
    return NULL;
  return f->simgrid_zone(p, NULL);
}

gboolean platform_simgrid_is_cluster(const platform *p)
{
  return platform_simgrid_cluster(p) != NULL;
}

/* Same-node messages cost nothing in mapsim; SimGrid routes them through
 * a loopback: a fat pipe with no latency that a megabyte crosses in 1 ps. */
#define LOOPBACK_BW "1e18Bps"

static void write_cluster(FILE *f, const platform *p, const char *prefix, double speed)
{
  g_autofree char *params = NULL;
  family_of(p->topo)->simgrid_zone(p, &params);
  fprintf(f,
          "  <cluster id=\"mapsim\" prefix=\"%s\" radical=\"0-%d\" suffix=\"\" speed=\"%.17gf\" "
          "core=\"%d\"\n           bw=\"%.17gBps\" lat=\"%.17gs\" topology=\"%s\" "
          "topo_parameters=\"%s\"\n           sharing_policy=\"SPLITDUPLEX\" loopback_bw=\"" LOOPBACK_BW
          "\" loopback_lat=\"0s\"/>\n",
          prefix, topo_compute_nodes(p->topo) - 1, speed, p->cores_per_node, p->link_bw[0],
          p->link_lat[0], platform_simgrid_cluster(p), params);
}

static void write_full(FILE *f, const platform *p, const gboolean *hosts, const char *prefix,
                       double speed)
{
  const topo *t = p->topo;
  int nodes = topo_compute_nodes(t);
  fprintf(f, "  <zone id=\"mapsim\" routing=\"Full\">\n");
  for (int n = 0; n < nodes; n++)
    if (!hosts || hosts[n])
      fprintf(f, "    <host id=\"%s%d\" speed=\"%.17gf\" core=\"%d\"/>\n", prefix, n, speed,
              p->cores_per_node);
  /* the links some route between hosts takes, each direction its own */
  gboolean *used = g_new0(gboolean, MAX(t->nlinks, 1));
  route_iter it;
  int l;
  for (int a = 0; a < nodes; a++)
    for (int b = 0; b < nodes; b++) {
      if (a == b || (hosts && (!hosts[a] || !hosts[b])))
        continue;
      route_begin(&it, p->router, a, b, 0);
      while (route_next(&it, &l))
        used[l] = TRUE;
    }
  /* with power, every link (idle ones draw it too), its wattage for
   * SimGrid's link_energy plugin (routing/energy.h) */
  gboolean power = platform_has_power(p);
  for (l = 0; l < t->nlinks; l++) {
    if (!used[l] && !power)
      continue;
    fprintf(f, "    <link id=\"l%d\" bandwidth=\"%.17gBps\" latency=\"%.17gs\"", l,
            p->link_bw[l], p->link_lat[l] + p->model.router_delay);
    const link_power *w = &p->linktypes[p->link_type[l]].power;
    if (power)
      fprintf(f, ">\n      <prop id=\"wattage_range\" value=\"%.17g:%.17g\"/>\n"
                 "      <prop id=\"wattage_off\" value=\"%.17g\"/>\n    </link>\n",
              w->idle, w->busy, w->off);
    else
      fprintf(f, "/>\n");
  }
  if (p->cores_per_node > 1)
    fprintf(f, "    <link id=\"loopback\" bandwidth=\"" LOOPBACK_BW "\" latency=\"0s\" "
               "sharing_policy=\"FATPIPE\"/>\n");
  for (int a = 0; a < nodes; a++)
    for (int b = 0; b < nodes; b++) {
      if (hosts && (!hosts[a] || !hosts[b]))
        continue;
      if (a == b && p->cores_per_node <= 1)
        continue;
      fprintf(f, "    <route src=\"%s%d\" dst=\"%s%d\" symmetrical=\"NO\">", prefix, a, prefix, b);
      if (a == b) {
        fprintf(f, "<link_ctn id=\"loopback\"/>");
      } else {
        route_begin(&it, p->router, a, b, 0);
        while (route_next(&it, &l))
          fprintf(f, "<link_ctn id=\"l%d\"/>", l);
      }
      fprintf(f, "</route>\n");
    }
  fprintf(f, "  </zone>\n");
  g_free(used);
}

/* SIZE:FACTOR;... as SimGrid reads it. */
static void factors_text(GString *s, const platform_factors *f)
{
  for (int i = 0; i < f->n; i++)
    g_string_append_printf(s, "%s%" G_GINT64_FORMAT ":%.15g", i ? ";" : "", f->above[i],
                           f->value[i]);
}

/* SMPI's network model (smpirun's default, network/model:SMPI) with the
 * platform's corrections spelled out (those of --preset smpi are
 * smpirun's defaults), its default lazy solver and time precision. */
static char *smpi_options(const platform *p, GPtrArray *notes)
{
  const platform_model *m = &p->model;
  GString *s = g_string_new(platform_has_power(p) ? "--cfg=plugin:link_energy "
                                                    "--log=link_energy.thres:info "
                                                  : "");
  g_string_append(s, "--cfg=network/model:SMPI");
  const platform_factors *tables[] = { &m->bw_factor, &m->lat_factor };
  const char *names[] = { "smpi/bw-factor", "smpi/lat-factor" };
  for (int i = 0; i < 2; i++) {
    g_string_append_printf(s, " '--cfg=%s:", names[i]);
    if (tables[i]->n == 0)
      g_string_append(s, "0:1");
    else
      factors_text(s, tables[i]);
    g_string_append_c(s, '\'');
  }
  if (m->crosstraffic != 0 && m->crosstraffic != 0.05)
    g_ptr_array_add(notes, g_strdup_printf("SimGrid's cross traffic is 5 %% of a flow's rate, "
                                           "the platform's %g: exported as on",
                                           m->crosstraffic));
  g_string_append_printf(s,
                         " --cfg=network/TCP-gamma:%.17g --cfg=network/crosstraffic:%s "
                         "--cfg=network/weight-S:%.17g "
                         "--cfg=smpi/send-is-detached-thresh:%" G_GINT64_FORMAT,
                         m->tcp_gamma, m->crosstraffic > 0 ? "1" : "0", m->weight_s,
                         MIN(m->eager_threshold, (int64_t)G_MAXINT - 1) + 1);
  if (m->send_overhead > 0 || m->recv_overhead > 0)
    g_string_append_printf(s, " --cfg=smpi/os:0:%.17g:0 --cfg=smpi/ois:0:%.17g:0 "
                              "--cfg=smpi/or:0:%.17g:0",
                           m->send_overhead, m->send_overhead, m->recv_overhead);
  return g_string_free(s, FALSE);
}

char *platform_simgrid_options(const platform *p, GPtrArray *notes)
{
  const platform_model *m = &p->model;
  if (m->handshake == PLATFORM_HANDSHAKE_RTS_CTS)
    g_ptr_array_add(notes, g_strdup("SMPI has no RTS/CTS handshake: it sends messages above the "
                                    "eager limit synchronously, as mapsim's --handshake sync "
                                    "does (--preset simgrid sets it)"));
  if (m->eager_start == PLATFORM_EAGER_SEND)
    g_ptr_array_add(notes, g_strdup("SMPI starts an eager message only once its receive is "
                                    "posted, as mapsim's --eager-start match does (--preset "
                                    "simgrid sets it)"));
  if (m->sharing == PLATFORM_SHARING_FAIR)
    g_ptr_array_add(notes, g_strdup("SimGrid's CM02 shares a link among flows in inverse "
                                    "proportion to their route latency, as mapsim's --sharing "
                                    "latency does (--preset simgrid sets it)"));
  if (m->envelope != 16)
    g_ptr_array_add(notes, g_strdup_printf("SMPI adds a 16-byte envelope to every message, the "
                                           "platform %" G_GINT64_FORMAT " (--envelope 16 or "
                                           "--preset simgrid for the same times)", m->envelope));
  if (m->packet_header > 0)
    g_ptr_array_add(notes, g_strdup("SimGrid does not cut messages into packets: packet_header "
                                    "is not exported"));
  if (platform_has_sleep(p))
    g_ptr_array_add(notes, g_strdup("SimGrid does not switch idle links off: its link_energy "
                                    "plugin counts them idle where mapsim counts them off"));
  if (!platform_model_is_cm02(m))
    return smpi_options(p, notes);
  /* network/optim:Full: SimGrid 3.32's default, Lazy, re-solves only the
   * links its selective update marks, and when two flows whose first link
   * is the same end their latency in one instant it marks only that first
   * link for the second one (lmm::System::enable_var marks a variable's
   * first constraint, already marked by the first flow): the flows on the
   * second flow's other links keep their old rates and such a link carries
   * more than its bandwidth (SimGrid's own check, --log=ker_lmm.thres:debug,
   * aborts on it). Full solves every link at every event. */
  return g_strdup_printf("%s--cfg=network/model:CM02 --cfg=network/optim:Full "
                         "--cfg=network/latency-factor:1 "
                         "--cfg=network/bandwidth-factor:1 --cfg=network/TCP-gamma:0 "
                         "--cfg=network/crosstraffic:0 --cfg=surf/precision:1e-13 --cfg=maxmin/precision:1e-2 "
                         "--cfg=smpi/send-is-detached-thresh:%" G_GINT64_FORMAT " "
                         "--cfg=smpi/os:0:%.17g:0 --cfg=smpi/ois:0:%.17g:0 --cfg=smpi/or:0:%.17g:0",
                         platform_has_power(p) ? "--cfg=plugin:link_energy "
                                                 "--log=link_energy.thres:info " : "",
                         MIN(m->eager_threshold, (int64_t)G_MAXINT - 1) + 1, m->send_overhead,
                         m->send_overhead, m->recv_overhead);
}

gboolean platform_write_simgrid(const platform *p, const gboolean *hosts, const char *prefix,
                                double flops_per_s, const char *path, GError **error)
{
  if (p->router->flags & ROUTE_FLAG_KEYED) {
    GString *fixed = g_string_new(NULL);
    const family_ops *fam = family_of(p->topo);
    for (int i = 0; i < fam->nroutings; i++)
      if (!(fam->routings[i].flags & ROUTE_FLAG_KEYED))
        g_string_append_printf(fixed, "%s%s", fixed->len ? ", " : "", fam->routings[i].name);
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_INVALID,
                "%s: routing %s draws each rank pair's path, SimGrid routes per pair of hosts; "
                "expected a routing that depends on the nodes only (--routing %s)", p->name,
                router_algo_name(p->router), fixed->str);
    g_string_free(fixed, TRUE);
    return FALSE;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_IO, "%s: %s, expected a writable file", path,
                g_strerror(errno));
    return FALSE;
  }
  /* an XML comment may not hold "--" */
  g_autofree char *name = g_strdup(p->name);
  for (char *c = strstr(name, "--"); c; c = strstr(c, "--"))
    c[1] = '_';
  fprintf(f, "<?xml version='1.0'?>\n"
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<!-- %s, written by mapsim: links, latencies and routes as mapsim models them -->\n"
             "<platform version=\"4.1\">\n", name);
  if (platform_simgrid_cluster(p))
    write_cluster(f, p, prefix, flops_per_s);
  else
    write_full(f, p, hosts, prefix, flops_per_s);
  fprintf(f, "</platform>\n");
  if (ferror(f) | (fclose(f) != 0)) {
    g_set_error(error, PLATFORM_ERROR, PLATFORM_ERROR_IO, "%s: %s, expected a writable file", path,
                g_strerror(errno));
    return FALSE;
  }
  return TRUE;
}
