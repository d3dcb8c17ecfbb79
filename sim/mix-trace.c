/* mix-trace.c - the traces of a mix (mix-private.h): a matrix job as one
 * exchange, the jobs' traces joined into one trace, views of some jobs.
 * Joining moves the records (no copy) and renumbers them in place, once.
 */
#include "sim/mix-private.h"

#include <string.h>

trace *mix_matrix_trace(const commgraph *g)
{
  trace *t = trace_new(g->n);
  uint32_t r_irecv = trace_add_region(t, "MPI_Irecv");
  uint32_t r_isend = trace_add_region(t, "MPI_Isend");
  uint32_t r_wait = trace_add_region(t, "MPI_Waitall");
  /* incoming edges of every rank: the senders, in sender order */
  int *in_off = g_new0(int, g->n + 1), *in_src = g_new(int, MAX(g->nedges, 1));
  int64_t *in_bytes = g_new(int64_t, MAX(g->nedges, 1));
  for (int k = 0; k < g->nedges; k++)
    in_off[g->adj[k] + 1]++;
  for (int i = 0; i < g->n; i++)
    in_off[i + 1] += in_off[i];
  int *fill = g_memdup2(in_off, sizeof(int) * (size_t)g->n);
  for (int i = 0; i < g->n; i++)
    for (int k = g->xadj[i]; k < g->xadj[i + 1]; k++) {
      int at = fill[g->adj[k]]++;
      in_src[at] = i;
      in_bytes[at] = g->bytes[k];
    }
  g_free(fill);
  for (int r = 0; r < g->n; r++) {
    uint64_t req = 0;
#define PUSH(...) trace_push(t, r, &(trace_event){ __VA_ARGS__ })
    for (int k = in_off[r]; k < in_off[r + 1]; k++)
      if (in_src[k] != r) {
        PUSH(.kind = TRACE_ENTER, .region = r_irecv);
        PUSH(.kind = TRACE_IRECV_REQUEST, .peer = -1, .comm = t->world, .request = 2 * req++);
        PUSH(.kind = TRACE_LEAVE, .region = r_irecv);
      }
    uint64_t nrecv = req;
    req = 0;
    for (int k = g->xadj[r]; k < g->xadj[r + 1]; k++)
      if (g->adj[k] != r) {
        PUSH(.kind = TRACE_ENTER, .region = r_isend);
        PUSH(.kind = TRACE_ISEND, .peer = g->adj[k], .comm = t->world, .bytes = g->bytes[k],
             .request = 2 * req++ + 1);
        PUSH(.kind = TRACE_LEAVE, .region = r_isend);
      }
    uint64_t nsend = req;
    PUSH(.kind = TRACE_ENTER, .region = r_wait);
    for (uint64_t i = 0; i < nsend; i++)
      PUSH(.kind = TRACE_ISEND_COMPLETE, .peer = -1, .comm = t->world, .request = 2 * i + 1);
    req = 0;
    for (int k = in_off[r]; k < in_off[r + 1] && req < nrecv; k++)
      if (in_src[k] != r)
        PUSH(.kind = TRACE_IRECV, .peer = in_src[k], .comm = t->world, .bytes = in_bytes[k],
             .request = 2 * req++);
    PUSH(.kind = TRACE_LEAVE, .region = r_wait);
#undef PUSH
  }
  g_free(in_off);
  g_free(in_src);
  g_free(in_bytes);
  trace_shrink(t);
  return t;
}

/* Does record kind k name a world rank in `peer`? */
static gboolean has_peer(uint8_t k)
{
  return k == TRACE_SEND || k == TRACE_ISEND || k == TRACE_RECV || k == TRACE_IRECV ||
         k == TRACE_COLL_END || k == TRACE_NBCOLL_COMPLETE;
}

/* Renumbers the records of job rank r (now union rank first + r). */
static void renumber(trace_rank *tr, int nranks, int first, const uint32_t *comm_map,
                     uint32_t ncomms, const uint32_t *region_map, uint32_t nregions)
{
  for (int64_t i = 0; i < tr->nevents; i++) {
    trace_event *e = &tr->events[i];
    if (e->kind == TRACE_ENTER || e->kind == TRACE_LEAVE) {
      if (e->region < nregions)
        e->region = region_map[e->region];
      continue;
    }
    if (!has_peer(e->kind))
      continue;
    /* out of range stays out of range (the replay skips such a peer and
     * reports such a communicator) */
    e->peer = e->peer >= 0 && e->peer < nranks ? e->peer + first : -1;
    e->comm = e->comm < ncomms ? comm_map[e->comm] : UINT32_MAX;
  }
}

trace *mix_union(trace **jobs, int njobs, const int *first)
{
  int total = first[njobs - 1] + jobs[njobs - 1]->nranks;
  trace *u = trace_new(total);
  GHashTable *regions = g_hash_table_new(g_str_hash, g_str_equal);
  for (int j = 0; j < njobs; j++) {
    trace *t = jobs[j];
    uint32_t *comm_map = g_new(uint32_t, MAX(t->ncomms, 1));
    uint32_t *region_map = g_new(uint32_t, MAX(t->nregions, 1));
    for (int c = 0; c < t->ncomms; c++) {
      const trace_comm *tc = &t->comms[c];
      if (tc->self) {
        comm_map[c] = 1; /* trace_new's COMM_SELF */
        continue;
      }
      int *members = g_new(int, MAX(tc->size, 1));
      for (int i = 0; i < tc->size; i++)
        members[i] = tc->members[i] + first[j];
      comm_map[c] = trace_add_comm(u, tc->name, tc->size, members);
      g_free(members);
    }
    for (int i = 0; i < t->nregions; i++) {
      gpointer at;
      if (!g_hash_table_lookup_extended(regions, t->regions[i], NULL, &at)) {
        at = GUINT_TO_POINTER(trace_add_region(u, t->regions[i]));
        g_hash_table_insert(regions, u->regions[GPOINTER_TO_UINT(at)], at);
      }
      region_map[i] = GPOINTER_TO_UINT(at);
    }
    for (int r = 0; r < t->nranks; r++) {
      trace_rank *dst = &u->ranks[first[j] + r];
      g_free(dst->events);
      *dst = t->ranks[r];
      t->ranks[r] = (trace_rank){ 0 };
      renumber(dst, t->nranks, first[j], comm_map, (uint32_t)t->ncomms, region_map,
               (uint32_t)t->nregions);
    }
    u->duration_ps = MAX(u->duration_ps, t->duration_ps);
    g_free(comm_map);
    g_free(region_map);
  }
  g_hash_table_destroy(regions);
  return u;
}

trace *mix_view(const trace *u, const int *first, int njobs, const gboolean *keep)
{
  static trace_event none;
  trace *v = g_new(trace, 1);
  *v = *u;
  v->ranks = g_new0(trace_rank, MAX(u->nranks, 1));
  for (int j = 0; j < njobs; j++) {
    int end = j + 1 < njobs ? first[j + 1] : u->nranks;
    for (int r = first[j]; r < end; r++)
      v->ranks[r] = keep[j] ? u->ranks[r] : (trace_rank){ &none, 0, 0 };
  }
  return v;
}

void mix_view_free(trace *v)
{
  if (v) {
    g_free(v->ranks);
    g_free(v);
  }
}

commgraph *mix_embed(const commgraph *const *g, const int *first, int ngraphs, int n)
{
  int64_t nedges = 0;
  for (int i = 0; i < ngraphs; i++)
    nedges += g[i] ? g[i]->nedges : 0;
  int *src = g_new(int, MAX(nedges, 1)), *dst = g_new(int, MAX(nedges, 1));
  int64_t *bytes = g_new(int64_t, MAX(nedges, 1)), *msgs = g_new(int64_t, MAX(nedges, 1));
  gboolean counts = TRUE;
  int64_t k = 0;
  for (int i = 0; i < ngraphs; i++) {
    if (!g[i])
      continue;
    counts = counts && g[i]->msgs;
    for (int a = 0; a < g[i]->n; a++)
      for (int e = g[i]->xadj[a]; e < g[i]->xadj[a + 1]; e++, k++) {
        src[k] = first[i] + a;
        dst[k] = first[i] + g[i]->adj[e];
        bytes[k] = g[i]->bytes[e];
        msgs[k] = g[i]->msgs ? g[i]->msgs[e] : 0;
      }
  }
  commgraph *out = commgraph_from_edges(n, (int)k, src, dst, bytes, counts ? msgs : NULL);
  g_free(src);
  g_free(dst);
  g_free(bytes);
  g_free(msgs);
  return out;
}
