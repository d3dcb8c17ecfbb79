/* goal-match-private.h - the matching of a GOAL schedule's messages and
 * receives, shared by its two replays (sim/loggops.c, sim/dag.c): per rank
 * a list of posted receives and one of messages that arrived before their
 * receive, searched from the front (LogGOPSim's std::list order) by
 * source and tag, -1 (GOAL_ANY) matching anything on either side. All
 * lists share one pool of entries linked by index, reused through a free
 * list, so matching allocates only while the pool grows. Private to sim/.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "traces/goal.h"

typedef struct match_entry {
  uint64_t size;
  int64_t op;      /* global index of the receive (posted) or the send (unexpected) */
  int64_t next;    /* pool index, -1 at the end */
  uint32_t src, tag;
} match_entry;

typedef struct match_list {
  int64_t head, tail;
} match_list;

typedef struct pool {
  match_entry *e;
  int64_t n, cap, free;
} pool;

static inline void list_append(pool *p, match_list *l, const match_entry *x)
{
  int64_t i;
  if (p->free >= 0) {
    i = p->free;
    p->free = p->e[i].next;
  } else {
    if (p->n == p->cap) {
      p->cap = MAX(p->cap * 2, 1024);
      p->e = g_renew(match_entry, p->e, (gsize)p->cap);
    }
    i = p->n++;
  }
  p->e[i] = *x;
  p->e[i].next = -1;
  if (l->tail >= 0)
    p->e[l->tail].next = i;
  else
    l->head = i;
  l->tail = i;
}

/* The first entry matching (src, tag), -1 matching anything on either
 * side, removed into *out; FALSE when none. */
static inline gboolean list_match(pool *p, match_list *l, uint32_t src, uint32_t tag, match_entry *out)
{
  for (int64_t prev = -1, i = l->head; i >= 0; prev = i, i = p->e[i].next) {
    const match_entry *m = &p->e[i];
    if ((src == GOAL_ANY || m->src == GOAL_ANY || m->src == src) &&
        (tag == GOAL_ANY || m->tag == GOAL_ANY || m->tag == tag)) {
      *out = *m;
      if (prev >= 0)
        p->e[prev].next = m->next;
      else
        l->head = m->next;
      if (l->tail == i)
        l->tail = prev;
      p->e[i].next = p->free;
      p->free = i;
      return TRUE;
    }
  }
  return FALSE;
}
