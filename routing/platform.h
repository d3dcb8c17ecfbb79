/* platform.h - a modeled machine: topology, link types, cores, allocation,
 * routing and network-model parameters.
 *
 * Sources (platform_load picks by the argument):
 *  - an INI file (GKeyFile), the native format, documented in configs/README.md;
 *  - a HAEC-SIM JSON platform file, as printed in korndoerfer2021, appendix
 *    A.1 listings 1-3 (bandwidth in bytes/s, latency in picoseconds); keys
 *    mapsim does not model (bit error rates, network coding) are ignored
 *    and listed in `notes`;
 *  - a shorthand `KIND:SHAPE[:KEY=VALUE...]`, KIND one of mesh, torus,
 *    haec: `torus:4x4x4`, `mesh:8x8x8`, `haec:4x4x4`, `torus:4x4x4x4x2`,
 *    `torus:4x4x4:kinds=torus,torus,mesh:bw=62.5e9:lat=10ps`. Shorthand
 *    links are the paper's future-generation links (Table 4): optical 250
 *    Gbit/s (31.25e9 bytes/s) and 10 ps on mesh/torus dimensions and on the
 *    HAEC board dimensions; wireless 100 Gbit/s (12.5e9 bytes/s) and 100 ps
 *    on the HAEC crossbar dimension (the last one). One core per node, all
 *    nodes allocated, XYZ dimension-order routing. The KEYs are
 *    platform_shorthand_params. Indirect networks:
 *    `dragonfly:g=G:a=A:p=P:h=H`, `fattree:k=K:n=N` or SimGrid's
 *    `fattree:L;down...;up...;parallel...`, `hyperx:12x8:p=P`
 *    (routing/platform-family.c has their keys). A shorthand stands for
 *    the INI file it generates;
 *  - a SimGrid platform file, XML 4.x (routing/platform-sgxml.c; any name,
 *    probed by its first element): a TORUS, FAT_TREE or DRAGONFLY cluster
 *    as mapsim's family, anything else a graph with the hosts first (the
 *    allocation) and SimGrid's names (`names`); a Full zone's routes as
 *    the router's table;
 *  - Slurm's topology.conf or topology.yaml (routing/platform-slurm.c): a
 *    tree of switches with Slurm's node and switch names (`names`); it
 *    stands for the INI file `[topology] kind = tree, slurm = FILE`.
 * Numbers in INI files, shorthands and overrides may carry units
 * (util/units.h): bw=100Gbit/s, lat=10ps, eager_threshold=64KiB.
 *
 * Indirect networks (dragonfly, fat tree, HyperX; routing/topology.h) have
 * switches besides their compute nodes: an allocation, a node list, a
 * parsed node and every route end is a compute node, never a switch.
 *
 * Per-link arrays (bandwidth, latency, type) are flat, indexed by link id.
 * A link type pattern per dimension (`y = mezzanine,cable`) gives the link
 * between coordinates c and c+1 (and back) the type pattern[c % len]; the
 * torus wrap link n-1 <-> 0 counts as c = n-1.
 *
 * Ownership: platform_load() returns a platform the caller frees with
 * platform_free(); it owns its topo, router, tables and strings.
 * Not for: mappings (mapping/), timing (models/).
 */
#pragma once

#include <stdint.h>

#include "routing/route.h"
#include "routing/topology.h"
#include "util/units.h"

G_BEGIN_DECLS

#define PLATFORM_ERROR (platform_error_quark())
/* inline, so that every file of the folder can raise it without calling
 * the file that would otherwise define it */
static inline GQuark platform_error_quark(void)
{
  return g_quark_from_static_string("platform-error-quark");
}

typedef enum {
  PLATFORM_ERROR_IO,
  PLATFORM_ERROR_PARSE,   /* malformed file or shorthand */
  PLATFORM_ERROR_INVALID, /* well-formed but impossible values */
} PlatformError;

/* What a link of a type consumes (routing/energy.h; keys power-idle,
 * power-busy or energy-per-bit, power-off, idle-timeout, wake-latency of
 * [linktype.NAME]). All zero (and idle_timeout < 0) without power keys. */
typedef struct link_power {
  double idle;          /* W while on and not transmitting */
  double busy;          /* W while transmitting at its full bandwidth (>= idle) */
  double off;           /* W while switched off */
  double idle_timeout;  /* s without traffic before it switches off; < 0: never */
  double wake_latency;  /* s a message waits for a switched-off link to come back */
} link_power;

typedef struct linktype {
  char *name;
  double bandwidth;  /* bytes per second, > 0 */
  double latency;    /* seconds, >= 0 */
  link_power power;
} linktype;

/* How a message above the eager threshold meets its receive (sim/replay.h). */
typedef enum {
  PLATFORM_HANDSHAKE_RTS_CTS, /* a 0-byte request-to-send, a 0-byte clear-to-send back, the data */
  PLATFORM_HANDSHAKE_SYNC,    /* no control message: the data leaves once the receive is posted */
} platform_handshake;

/* When the data of an eager message leaves (sim/replay.h). */
typedef enum {
  PLATFORM_EAGER_SEND,  /* at the send (pushed into the receiver's buffer) */
  PLATFORM_EAGER_MATCH, /* once the receive is posted too (SMPI's detached send) */
} platform_eager_start;

/* How flows share a link's bandwidth (flow models). */
typedef enum {
  PLATFORM_SHARING_FAIR,    /* max-min fair: equal shares */
  PLATFORM_SHARING_LATENCY, /* shares in inverse proportion to the route latency (SimGrid CM02) */
} platform_sharing;

/* A correction factor by message size, SMPI's smpi/bw-factor and
 * smpi/lat-factor rule (SimGrid 3.32 NetworkSmpiModel): thresholds
 * ascending; a message of s wire bytes gets the value of the largest
 * threshold below s (s > threshold), 1 when there is none (n == 0: always
 * 1). Inline, so that copying a platform_model copies it and the models
 * look it up without allocating. */
#define PLATFORM_MAX_FACTORS 16
typedef struct platform_factors {
  int n;
  int64_t above[PLATFORM_MAX_FACTORS];  /* thresholds, bytes, ascending */
  double value[PLATFORM_MAX_FACTORS];   /* > 0 */
} platform_factors;

/* The factor of a message of `bytes` wire bytes (1 for an empty table). */
static inline double platform_factor(const platform_factors *f, int64_t bytes)
{
  double v = 1.0;
  for (int i = 0; i < f->n && bytes > f->above[i]; i++)
    v = f->value[i];
  return v;
}

/* "T:V;T:V;..." (SimGrid's syntax, any order) into `out`, sorted; FALSE
 * with a message naming what is wrong (caller frees) otherwise. */
gboolean platform_factors_parse(const char *text, platform_factors *out, char **why);

/* Parameters the network models and the replay read; defaults documented in
 * configs/README.md. */
typedef struct platform_model {
  double router_delay;      /* seconds added per hop */
  int64_t eager_threshold;  /* bytes: messages up to this size are eager */
  platform_eager_start eager_start; /* when their data leaves */
  platform_handshake handshake; /* of the larger ones */
  double send_overhead;     /* seconds of CPU per send */
  double recv_overhead;     /* seconds of CPU per receive */
  int64_t packet_size;      /* bytes of payload per packet, > 0 */
  int64_t packet_header;    /* bytes of header per packet, >= 0 */
  int64_t envelope;         /* bytes every message carries on the wire besides its payload */
  platform_sharing sharing; /* flow models */
  /* SMPI's network model (SimGrid's CM02 with its corrections; all off
   * by default and under --preset simgrid, on under --preset smpi): */
  platform_factors bw_factor;  /* a flow moves bw_factor(wire) bytes per unit of its share */
  platform_factors lat_factor; /* its route latency is multiplied by lat_factor(wire) */
  double tcp_gamma;         /* bytes, 0: none; a flow's rate is at most tcp_gamma / (2 x its
                               route latency before the factor): network/TCP-gamma */
  double crosstraffic;      /* 0: none; else a flow also takes this share of its rate on
                               every link of the route back (network/crosstraffic: 0.05) */
  double weight_s;          /* bytes; sharing latency weighs a flow 1 / (latency + weight_s x
                               sum of 1 / bandwidth over its links): network/weight-S */
} platform_model;

/* "send" / "match" as the value it names (FALSE when unknown). */
gboolean platform_eager_start_from_name(const char *name, platform_eager_start *out);

/* "fair" / "latency"; and back (FALSE when unknown). */
const char *platform_sharing_name(platform_sharing s);
gboolean platform_sharing_from_name(const char *name, platform_sharing *out);

/* "rts-cts" / "sync" as the value it names (FALSE when unknown). */
gboolean platform_handshake_from_name(const char *name, platform_handshake *out);


/* How a job's ranks fill the nodes (platform_ranks_per_node). */
typedef enum {
  PLATFORM_FILL_PACK,    /* cores first: every used node full (launchers' default) */
  PLATFORM_FILL_SPREAD,  /* nodes first: the fewest ranks per node that fit */
} platform_fill;

typedef struct platform {
  char *name;
  char *source;             /* file or shorthand it came from */
  topo *topo;
  router *router;
  int nlinktypes;
  linktype *linktypes;
  uint8_t *link_type;       /* nlinks: index into linktypes */
  double *link_bw;          /* nlinks: bytes/s */
  double *link_lat;         /* nlinks: seconds */
  int cores_per_node;
  platform_fill fill;       /* default PLATFORM_FILL_PACK */
  int nalloc;               /* allocated nodes */
  int *alloc;               /* nalloc: node ids, in allocation (rank) order */
  int *alloc_index;         /* nnodes: position in alloc, or -1 */
  platform_model model;
  GPtrArray *notes;         /* strings: what a loader ignored (every command says them) */
  GPtrArray *facts;         /* strings: what is true of the platform but not asked for, e.g.
                               a dragonfly's unused global ports (`mapsim topo` says them) */
  GPtrArray *left_out;      /* strings: the ?GROUP.KEY=VALUE overrides (--set-if-present)
                               left out, as GROUP.KEY=VALUE */
  char **names;             /* nnodes (nodes, then switches): the names the source gives
                               (Slurm's topology), NULL-terminated; or NULL */
  const struct platform *shared; /* platform_with_allocation: the platform whose everything
                                    but the allocation this one borrows, or NULL */
} platform;

/* A named set of protocol and routing choices ([platform] preset, --preset):
 *   mapsim   the defaults: eager_threshold 65536, handshake rts-cts,
 *            overheads 0, tie positive;
 *   simgrid  SMPI's (SimGrid 3.32 defaults, smpirun -replay): messages
 *            below 65536 bytes are eager (smpi/send-is-detached-thresh)
 *            but start only when their receive is posted (eager_start
 *            match: SimGrid starts a communication when both sides are
 *            there), larger ones synchronous without control messages
 *            (handshake sync), overheads 0 (smpi/os, smpi/or), a 16-byte envelope on
 *            every message (smpi_request.cpp sends size + 16: tag, source,
 *            communicator), flows sharing links in inverse proportion to
 *            their route latency (sharing latency: CM02's penalties) and
 *            SimGrid's torus tie rule (tie simgrid); CM02 without its
 *            corrections (the export runs smpirun with them off);
 *   smpi     simgrid's choices and what smpirun does with no --cfg on top
 *            (SimGrid 3.32's network/model SMPI): smpi/bw-factor and
 *            smpi/lat-factor's defaults by message size (wire bytes,
 *            envelope included), network/TCP-gamma 4194304 bytes,
 *            network/crosstraffic on (5 % of a flow's rate on its route
 *            back), network/weight-S 8775; smpi/os, ois and or 0,
 *            smpi/async-small-thresh 0 (no eager mailbox).
 * Sets p->model and p->router's tie; FALSE (PLATFORM_ERROR_PARSE naming the
 * presets) for another name. */
gboolean platform_apply_preset(platform *p, const char *name, GError **error);

/* Whether none of SMPI's corrections (factors, TCP gamma, cross traffic,
 * weight-S) is on: the plain CM02 timing of --preset simgrid. */
gboolean platform_model_is_cm02(const platform_model *m);

/* Writes the platform as a SimGrid platform file (XML, version 4.1) for
 * smpirun, hosts named `prefix`ID with `flops_per_s` and cores_per_node
 * cores each:
 *  - a TORUS, FAT_TREE or DRAGONFLY cluster when SimGrid's own routes
 *    are mapsim's (platform_simgrid_cluster: one link bandwidth and
 *    latency, no router delay, no route table, and a torus in every
 *    dimension, dimension order x, y, z ..., tie rule simgrid; or a fat
 *    tree routed dmodk with one cable per pair of switches; or a dragonfly
 *    routed minimal with arrangement simgrid), so SimGrid computes the
 *    routes itself; its links are split duplex, one per direction, as
 *    mapsim's;
 *  - otherwise (mesh, HAEC Box, other link types, orders, tie rules,
 *    tables) a Full zone of the nodes `hosts` flags (nnodes entries; NULL:
 *    all) with one link per directed mapsim link a route takes (latency +
 *    router_delay) and one route per ordered pair of hosts listing mapsim's
 *    links, so SimGrid sends every message where mapsim does. With link
 *    power every link is written, with its wattage_range (idle:busy) and
 *    wattage_off for SimGrid's link_energy plugin.
 * Messages between ranks of one node cross a loopback fat pipe of no
 * latency (mapsim: no network at all). PLATFORM_ERROR_IO naming `path`
 * when it cannot be written. Not for half-duplex links (flow-hd). */
gboolean platform_write_simgrid(const platform *p, const gboolean *hosts, const char *prefix,
                                double flops_per_s, const char *path, GError **error);
gboolean platform_simgrid_is_cluster(const platform *p);
/* "TORUS", "FAT_TREE", "DRAGONFLY": the cluster zone SimGrid routes `p`
 * with, as mapsim does; NULL for a Full zone. */
const char *platform_simgrid_cluster(const platform *p);

/* The smpirun options under which SimGrid times messages as mapsim's flow
 * model does on `p`: CM02 max-min sharing solved over all links at every
 * event (network/optim:Full: SimGrid 3.32's lazy default can leave a link
 * over-allocated, platform-simgrid.c), bandwidth and latency factors 1,
 * no TCP window bound (TCP-gamma 0), no cross traffic, a time precision
 * below a picosecond, sends below eager_threshold + 1 bytes detached, the
 * send and receive overheads as smpi/os, smpi/ois and smpi/or. Space
 * separated; caller frees. What SMPI cannot do as mapsim does is in
 * `notes` (one string each, caller frees the array): an RTS/CTS handshake
 * (SMPI sends above the limit synchronously, mapsim's handshake sync),
 * eager data leaving at the send (SMPI's waits for the receive, eager_start
 * match), fair sharing (CM02's is by route latency, sharing latency), an
 * envelope other than SMPI's fixed 16 bytes, packet headers, links that
 * switch off. With link power (routing/energy.h) SimGrid's link_energy
 * plugin runs and prints its joules ("Total energy over all links"). */
char *platform_simgrid_options(const platform *p, GPtrArray *notes);

/* Loads a platform from an INI file, a HAEC-SIM JSON file, a SimGrid
 * platform file, Slurm's topology file or a shorthand. */
platform *platform_load(const char *spec, GError **error);

/* The same with overrides of INI keys, GROUP.KEY=VALUE (the last dot
 * before '=' ends the group): linktype.optical.bandwidth=62.5e9,
 * nodes.cores=4, topology.connectivity=torus,torus,mesh. They apply to INI
 * files and shorthands (which stand for an INI file), before the platform
 * is built, and their values are checked like keys of the file. GROUP
 * must be one of the platform's groups - platform, topology, links, nodes,
 * allocation, routing, model, or a link type the platform defines - and
 * KEY one of the group's, else an error names the nearest valid one. An
 * override written "?GROUP.KEY=VALUE" (--set-if-present) is left out (in
 * p->left_out, with a note) on a platform without that link type, so one list of
 * overrides serves a torus and a HAEC Box. The platform's name lists the
 * overrides applied. A sweep ({...}, util/sweep.h) is refused here: the
 * study and compare expand it first. `sets` is NULL-terminated or NULL. */
platform *platform_load_with(const char *spec, const char *const *sets, GError **error);

/* The parameters a shorthand takes after its shape (KEY=VALUE): the INI
 * group and key each stands for, its quantity, whether it is a number, and
 * its help line. The one table the shorthand parser and --help read. */
typedef struct platform_shorthand_param {
  const char *key;         /* bw */
  const char *group, *ini; /* linktype.optical, bandwidth */
  units_quantity quantity;
  gboolean number;         /* FALSE: a word or list, passed on as written */
  gboolean haec_only;
  const char *help;
} platform_shorthand_param;

extern const platform_shorthand_param platform_shorthand_params[];
extern const int platform_nshorthand_params;

/* The shorthands and their parameters as lines for --help, from
 * platform_shorthand_params (caller frees). */
char *platform_shorthand_help(void);

/* The quantity of a platform key named as --set names it (GROUP.KEY, e.g.
 * linktype.wireless.bandwidth, model.eager_threshold, nodes.cores) or as a
 * shorthand parameter (bw, wlat); FALSE when the key is not a number. */
gboolean platform_key_quantity(const char *key, units_quantity *q);

/* Replaces the allocation: "all", a policy `POLICY:N[:SEED]` (routing/
 * alloc.h: contiguous, random, random-routers, random-groups, striped,
 * best-fit, blocks; ascending ids), or the path of a node list file (node
 * ids and ranges A-B, whitespace or comma separated, `#` comments; kept in
 * file order). */
gboolean platform_set_allocation(platform *p, const char *spec, GError **error);

/* Replaces the allocation by `n` compute nodes (each once, kept in this
 * order); FALSE (PLATFORM_ERROR_INVALID) otherwise. */
gboolean platform_set_allocation_nodes(platform *p, const int *nodes, int n, GError **error);

/* A platform with its own allocation of `n` compute nodes (as
 * platform_set_allocation_nodes checks them) that borrows everything else -
 * topology, router, links, cores, fill, model - from `p`, which must
 * outlive it and not change meanwhile: several jobs' allocations on one
 * network without copying it. Freed with platform_free. */
platform *platform_with_allocation(const platform *p, const int *nodes, int n, GError **error);

/* Parses a node list's text (the node list file format above) into a new
 * array (caller frees); errors name `source` and the line, counting the
 * text's first line as `first_line`. */
gboolean platform_parse_node_list(const platform *p, const char *text, const char *source,
                                  int first_line, int **nodes, int *n, GError **error);

/* The most cores (ranks) a node may have. */
#define PLATFORM_MAX_CORES (1 << 20)

/* Sets the cores per node, 1 to PLATFORM_MAX_CORES. */
gboolean platform_set_cores(platform *p, int cores, GError **error);

/* Sets the fill policy by name: "pack" or "spread". */
gboolean platform_set_fill(platform *p, const char *name, GError **error);
const char *platform_fill_name(platform_fill f);

/* The fill rule, the same for every mapping strategy: the most ranks a node
 * holds when `nranks` ranks are placed - cores_per_node when packing;
 * when spreading, ceil(nranks / nalloc) (one rank per node as long as there
 * are nodes), at most cores_per_node. A placement by the rule uses
 * ceil(nranks / ranks_per_node) nodes. */
int platform_ranks_per_node(const platform *p, int nranks);

/* Seconds link `link` needs to carry `bytes` at its bandwidth: the static
 * metrics' link time (no latency, no sharing). */
static inline double platform_link_time(const platform *p, int link, int64_t bytes)
{
  return (double)bytes / p->link_bw[link];
}

/* Ranks the platform can hold: nalloc * cores_per_node (at most 2^50). */
static inline int64_t platform_capacity(const platform *p)
{
  return (int64_t)p->nalloc * p->cores_per_node;
}

/* The one rule for "the ranks fit": nranks <= platform_capacity(p); else
 * FALSE with "P: N ranks do not fit A allocated nodes x C cores ..."
 * (PLATFORM_ERROR_INVALID). */
gboolean platform_check_capacity(const platform *p, int64_t nranks, GError **error);

/* A node given as an id ("21"), as coordinates ("1,1,1") or by the name
 * the platform gives it ("nid021"); -1 and PLATFORM_ERROR_PARSE naming the
 * text otherwise. */
int platform_parse_node(const platform *p, const char *s, GError **error);

/* Human name of link l, e.g. "12 -> 13 (x+, optical)"; caller frees. */
char *platform_link_name(const platform *p, int link);

void platform_free(platform *p);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(platform, platform_free)

G_END_DECLS
