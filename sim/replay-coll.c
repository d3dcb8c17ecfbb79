/* replay-coll.c - collectives in the replay: each call is expanded with
 * coll_schedule() (traces/collectives.h) into an instance shared by the
 * communicator's members (semantics in sim/replay.h). A member sends its
 * round-k messages once everything addressed to it in earlier rounds has
 * arrived; under eager_start match (handshake sync above the eager limit)
 * a message leaves no earlier than its receiver joins the call, as an SMPI
 * isend waits for its irecv, and under handshake sync a member's part ends
 * only once its messages above the eager limit have arrived; the instance
 * is freed after its last member leaves.
 */
#include "sim/replay-private.h"

#include <string.h>

void replay_inst_free(coll_inst *ci)
{
  if (!ci)
    return;
  g_free(ci->msgs);
  g_free(ci->world);
  g_free(ci->out_off);
  g_free(ci->out_idx);
  g_free(ci->in_off);
  g_free(ci->in_idx);
  g_free(ci->t_held);
  g_free(ci->need);
  g_free(ci->got);
  g_free(ci->round);
  g_free(ci->ready);
  g_free(ci->unfinished);
  g_free(ci->t_join);
  g_free(ci->t_last);
  g_free(ci->t_done);
  g_free(ci);
}

/* Whether a collective message of `bytes` leaves only once its receiver
 * has joined the call: the protocol rule of point-to-point messages of
 * that size (eager_start match, handshake sync), so that SMPI's replay of
 * the exported call (every irecv posted when the member joins, each isend
 * starting when it meets its irecv) is what mapsim replays. */
static gboolean coll_holds(const replay *R, int64_t bytes)
{
  return bytes > R->eager ? R->sync : R->eager_match;
}

/* Whether the sender's part of the call ends only when a message of
 * `bytes` has arrived: above the eager limit under handshake sync, SMPI's
 * non-detached isend, which the exported call waits for at its end. */
static gboolean coll_keeps(const replay *R, int64_t bytes)
{
  return bytes > R->eager && R->sync;
}

/* Builds instance `k` of communicator `comm` from every member's k-th call. */
static coll_inst *inst_build(replay *R, uint32_t comm, int64_t k, const trace_event *mine)
{
  const trace_comm *tc = &R->t->comms[comm];
  int P = tc->size;
  coll_inst *ci = g_new0(coll_inst, 1);
  ci->comm = comm;
  ci->P = P;
  ci->op = mine->op;
  ci->world = g_memdup2(tc->members, sizeof(int) * (size_t)P);
  int64_t *bytes = g_new0(int64_t, P);
  int call_op; /* a member that never makes this call will be reported stuck */
  trace_colls_call(R->calls, R->t, comm, k, bytes, &ci->root, &call_op);
  GArray *out = g_array_new(FALSE, FALSE, sizeof(coll_msg));
  if (!coll_schedule_choice(&R->colls, (coll_op)ci->op, P, ci->root, bytes, out, &R->error)) {
    g_prefix_error(&R->error, "collective %s on communicator %u: ", coll_op_name(ci->op), comm);
    g_array_free(out, TRUE);
    g_free(bytes);
    replay_inst_free(ci);
    return NULL;
  }
  g_free(bytes);
  ci->nmsgs = (int)out->len;
  ci->msgs = (coll_msg *)g_array_free(out, FALSE);
  int nr = ci->nrounds = MAX(coll_nrounds(ci->msgs, (size_t)ci->nmsgs), 1);
  ci->out_off = g_new0(int, (size_t)P * nr + 1);
  ci->out_idx = g_new(int, MAX(ci->nmsgs, 1));
  ci->in_off = g_new0(int, (size_t)P + 1);
  ci->in_idx = g_new(int, MAX(ci->nmsgs, 1));
  ci->t_held = g_new(int64_t, MAX(ci->nmsgs, 1));
  ci->need = g_new0(int, (size_t)P * nr);
  ci->got = g_new0(int, (size_t)P * nr);
  ci->unfinished = g_new0(int, P);
  for (int i = 0; i < ci->nmsgs; i++) {
    const coll_msg *cm = &ci->msgs[i];
    ci->out_off[cm->src * nr + cm->round + 1]++;
    ci->in_off[cm->dst + 1]++;
    ci->need[cm->dst * nr + cm->round]++;
    ci->unfinished[cm->dst]++;
    if (coll_keeps(R, cm->bytes))
      ci->unfinished[cm->src]++;
    ci->t_held[i] = -1;
  }
  for (int i = 0; i < P * nr; i++)
    ci->out_off[i + 1] += ci->out_off[i];
  for (int j = 0; j < P; j++)
    ci->in_off[j + 1] += ci->in_off[j];
  int *fill = g_memdup2(ci->out_off, sizeof(int) * (size_t)P * nr);
  int *in_fill = g_memdup2(ci->in_off, sizeof(int) * (size_t)P);
  for (int i = 0; i < ci->nmsgs; i++) {
    const coll_msg *cm = &ci->msgs[i];
    ci->out_idx[fill[cm->src * nr + cm->round]++] = i;
    ci->in_idx[in_fill[cm->dst]++] = i;
  }
  g_free(fill);
  g_free(in_fill);
  ci->round = g_new0(int, P);
  ci->ready = g_new0(int, P);
  ci->t_join = g_new(int64_t, P);
  ci->t_last = g_new(int64_t, P);
  ci->t_done = g_new(int64_t, P);
  for (int j = 0; j < P; j++) {
    ci->t_join[j] = ci->t_last[j] = ci->t_done[j] = -1;
    while (ci->ready[j] < nr && ci->need[j * nr + ci->ready[j]] == 0)
      ci->ready[j]++;
  }
  ci->left = P;
  return ci;
}

static void coll_send(replay *R, uint32_t id, coll_inst *ci, int i, int64_t t)
{
  const coll_msg *cm = &ci->msgs[i];
  if (coll_holds(R, cm->bytes)) {
    if (ci->t_join[cm->dst] < 0) {
      ci->t_held[i] = t;
      return;
    }
    t = MAX(t, ci->t_join[cm->dst]);
  }
  net_start(R, ci->world[cm->src], ci->world[cm->dst], cm->bytes, t, NETMODEL_COLL, PH_COLL,
            (uint64_t)id << 32 | (uint32_t)i);
}

/* Sends what member j may send at time t; marks it done when finished. */
static void member_advance(replay *R, uint32_t id, coll_inst *ci, int j, int64_t t)
{
  int nr = ci->nrounds;
  t = MAX(t, ci->t_join[j]);
  while (ci->round[j] < nr && ci->round[j] <= ci->ready[j]) {
    int k = ci->round[j]++;
    for (int x = ci->out_off[j * nr + k]; x < ci->out_off[j * nr + k + 1]; x++)
      coll_send(R, id, ci, ci->out_idx[x], t);
  }
  if (ci->round[j] == nr && ci->unfinished[j] == 0 && ci->t_done[j] < 0) {
    ci->t_done[j] = MAX(ci->t_join[j], ci->t_last[j]);
    rank_st *rs = &R->ranks[ci->world[j]];
    if (rs->state == RS_BLOCKED && rs->cur_coll == id)
      wake(R, rs, ci->world[j], ci->t_done[j]);
  }
}

void replay_coll_arrive(replay *R, uint64_t token, int64_t t)
{
  uint32_t id = (uint32_t)(token >> 32);
  coll_inst *ci = g_ptr_array_index(R->insts, id);
  const coll_msg *cm = &ci->msgs[(uint32_t)token];
  int d = cm->dst, nr = ci->nrounds;
  if (coll_keeps(R, cm->bytes)) {
    ci->unfinished[cm->src]--;
    ci->t_last[cm->src] = MAX(ci->t_last[cm->src], t);
    member_advance(R, id, ci, cm->src, t);
  }
  ci->got[d * nr + cm->round]++;
  ci->unfinished[d]--;
  ci->t_last[d] = MAX(ci->t_last[d], t);
  while (ci->ready[d] < nr && ci->got[d * nr + ci->ready[d]] == ci->need[d * nr + ci->ready[d]])
    ci->ready[d]++;
  if (ci->t_join[d] >= 0)
    member_advance(R, id, ci, d, t);
}

/* Joins rank's next call on ev->comm; returns the instance id, or NONE when
 * the call costs nothing (single member, "other" ops) or failed (R->error). */
uint32_t replay_coll_join(replay *R, rank_st *rs, int rank, const trace_event *ev)
{
  const trace_comm *tc = &R->t->comms[ev->comm];
  if (ev->op >= COLL_NOPS || tc->self || tc->size <= 1)
    return NONE;
  int64_t k = R->call_cur[(size_t)rank * R->t->ncomms + ev->comm]++;
  int64_t key = (int64_t)ev->comm << 40 | k;
  gpointer v = g_hash_table_lookup(R->inst_by_key, &key);
  uint32_t id;
  coll_inst *ci;
  if (v) {
    id = (uint32_t)(GPOINTER_TO_UINT(v) - 1);
    ci = g_ptr_array_index(R->insts, id);
  } else {
    if (!(ci = inst_build(R, ev->comm, k, ev)))
      return NONE;
    ci->key = key;
    id = R->insts->len;
    g_ptr_array_add(R->insts, ci);
    g_hash_table_insert(R->inst_by_key, &ci->key, GUINT_TO_POINTER(id + 1));
  }
  int j = 0;
  while (j < ci->P && ci->world[j] != rank)
    j++;
  if (j == ci->P) {
    g_set_error(&R->error, REPLAY_ERROR, REPLAY_ERROR_INPUT,
                "rank %d record %" G_GINT64_FORMAT ": collective on communicator %u, "
                "which does not contain the rank", rank, rs->pos, ev->comm);
    return NONE;
  }
  rs->cur_member = j;
  ci->t_join[j] = rs->now;
  ci->t_last[j] = MAX(ci->t_last[j], rs->now);
  for (int x = ci->in_off[j]; x < ci->in_off[j + 1]; x++) {
    int i = ci->in_idx[x];
    if (ci->t_held[i] >= 0) {
      coll_send(R, id, ci, i, ci->t_held[i]);
      ci->t_held[i] = -1;
    }
  }
  member_advance(R, id, ci, j, rs->now);
  return id;
}

/* Member done? Then consume it (free the instance after its last member). */
gboolean replay_coll_wait(replay *R, rank_st *rs)
{
  coll_inst *ci = g_ptr_array_index(R->insts, rs->cur_coll);
  int64_t done = ci->t_done[rs->cur_member];
  if (done < 0)
    return FALSE;
  if (done > rs->now) {
    rs->st.wait_ps += done - rs->now;
    rs->now = done;
  }
  if (--ci->left == 0) {
    g_hash_table_remove(R->inst_by_key, &ci->key);
    g_ptr_array_index(R->insts, rs->cur_coll) = NULL;
    replay_inst_free(ci);
  }
  rs->cur_coll = NONE;
  return TRUE;
}
