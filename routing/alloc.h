/* alloc.h - allocation policies: which compute nodes a scheduler gives a
 * job of N nodes, as `POLICY:N[:SEED]` (--alloc, [allocation] nodes, the
 * jobs files of sim/jobs.h).
 *
 * The policies (one table, alloc_policies; every result ascending by node
 * id, as a scheduler lists a job's nodes):
 *   contiguous      the N lowest free node ids (Slurm's linear selection,
 *                   CODES' contiguous layout)
 *   random          N free nodes drawn at random (seeded)
 *   random-routers  whole routers drawn at random, their free nodes taken
 *                   in id order (the last one partly) - Jain et al., SC14,
 *                   "random router"; on a direct network each node is its
 *                   own router, so it is random
 *   random-groups   the same with whole groups (Jain et al., SC14, "random
 *                   group")
 *   striped         N nodes evenly spaced over the free ones in id order
 *                   (free node floor(i F / N) for i < N): a job striped
 *                   across the whole machine (CODES' striped layout)
 *   best-fit        Slurm's topology/tree selection: the lowest level
 *                   (router, group, machine) with one unit holding N free
 *                   nodes, there the unit with the fewest free nodes that
 *                   holds them, inside it the fewest routers - a router
 *                   that holds the rest when one does (the smallest such),
 *                   else the fullest
 *   blocks          Slurm's topology/block selection: base blocks are
 *                   groups (routers on a HyperX of one dimension); the job
 *                   goes into the smallest aligned run of 2^k blocks with
 *                   N free nodes (the one with the fewest), emptiest
 *                   blocks first
 * Routers and groups are the switch hierarchy of routing/topology.h, whose
 * node ids run consecutively per router and per group: a dragonfly's
 * routers and groups; a fat tree's leaf switches and pods (the nodes under
 * one switch of the level below the top; the whole tree for one level); a
 * HyperX's switches and the slabs of switches sharing the last
 * coordinate. A mesh, torus or graph has no groups: random-groups and
 * blocks refuse it in one line. Only the random policies draw from SEED
 * (default 1); the others ignore it, so one seed list serves a sweep over
 * policies.
 *
 * Ownership: alloc_pick() returns an array the caller frees (g_free).
 * Not for: the platform's allocation itself (platform_set_allocation in
 * platform.h applies a policy), node list files (platform.h).
 */
#pragma once

#include <glib.h>

#include "routing/topology.h"

G_BEGIN_DECLS

typedef struct alloc_policy alloc_policy;

/* A parsed `POLICY:N[:SEED]`. */
typedef struct alloc_request {
  const alloc_policy *policy;
  int nodes;
  guint32 seed;
} alloc_request;

/* Does `spec` name a policy (its text before the first ':' is one)? */
gboolean alloc_is_policy(const char *spec);

/* Parses `POLICY:N[:SEED]` with 1 <= N <= max_nodes; FALSE and one line
 * naming the spec and what was expected otherwise (PLATFORM_ERROR_PARSE). */
gboolean alloc_parse(const char *spec, int max_nodes, alloc_request *out, GError **error);

/* The policy's name. */
const char *alloc_policy_name(const alloc_policy *p);

/* The policy called `name`, or NULL. */
const alloc_policy *alloc_policy_find(const char *name);

/* "contiguous, random, ..." for messages (caller frees). */
char *alloc_policy_names(void);

/* " (did you mean random?)" when the text before the first ':' of `spec`
 * is a near miss of a policy name (`randm:16`), else "" (caller frees). */
char *alloc_policy_hint(const char *spec);

/* Chooses r->nodes of t's free compute nodes (taken[v] TRUE: given to
 * another job; taken may be NULL) by r's policy; ascending node ids, or
 * NULL and one line (PLATFORM_ERROR_INVALID) when they do not fit or the
 * network has no units the policy needs. `spec` names the request in
 * messages. */
int *alloc_pick(const topo *t, const alloc_request *r, const gboolean *taken, const char *spec,
                GError **error);

/* The policies as lines for --help, from their table (caller frees). */
char *alloc_policy_help(void);

G_END_DECLS
