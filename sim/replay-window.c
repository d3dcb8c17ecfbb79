/* replay-window.c - the records of a rank in windows (see replay-private.h):
 * a streamed rank is read through its trace_cursor a window at a time,
 * each window cut where no Irecv request is open, so that every request's
 * completion lies in the window that posts it; the Irecv envelopes of a
 * window are found once, when it is read. A rank in memory is one window.
 */
#include "sim/replay-private.h"

#include <string.h>

/* Records per refill of a streamed rank: about 8 MiB of windows in all,
 * 64 to 16,384 records each. */
int64_t replay_window_size(int nranks)
{
  int64_t w = (INT64_C(8) << 20) / ((int64_t)MAX(nranks, 1) * (int64_t)sizeof(trace_event));
  return CLAMP(w, 64, 16384);
}

/* Irecv envelopes of records [from, nev) of the window: the k-th
 * IRECV_REQUEST gets the window index of the Irecv record that completes
 * it (-1 while open, or when cancelled). R->open holds the requests still
 * open, across calls for the same window; O(records x open requests). */
void replay_scan_irecvs(replay *R, rank_st *rs, int64_t from)
{
  for (int64_t i = from; i < rs->nev; i++) {
    const trace_event *e = &rs->ev[i];
    if (e->kind == TRACE_IRECV_REQUEST) {
      if (rs->nirecv == rs->capenv) {
        rs->capenv = rs->capenv ? 2 * rs->capenv : 64;
        rs->irecv_env = g_renew(int64_t, rs->irecv_env, rs->capenv);
      }
      if (R->nopen == R->capopen) {
        R->capopen = R->capopen ? 2 * R->capopen : 64;
        R->open = g_renew(pend, R->open, R->capopen);
      }
      R->open[R->nopen++] = (pend){ e->request, (uint32_t)rs->nirecv };
      rs->irecv_env[rs->nirecv++] = -1;
    } else if (e->kind == TRACE_IRECV || e->kind == TRACE_REQUEST_CANCELLED) {
      for (int k = R->nopen; k-- > 0;) {
        pend *p = &R->open[k];
        if (p->req != e->request)
          continue;
        if (e->kind == TRACE_IRECV)
          rs->irecv_env[p->op] = i;
        *p = R->open[--R->nopen];
        break;
      }
    }
  }
}

/* Where a window may end: after the last record of buf[0, n) at which no
 * Irecv request is open (each request's completion record then lies in
 * the window that posts it); 0 when there is none. */
static int64_t window_cut(replay *R, const trace_event *buf, int64_t n)
{
  int64_t cut = 0;
  R->nopen = 0;
  for (int64_t i = 0; i < n; i++) {
    const trace_event *e = &buf[i];
    if (e->kind == TRACE_IRECV_REQUEST) {
      if (R->nopen == R->capopen) {
        R->capopen = R->capopen ? 2 * R->capopen : 64;
        R->open = g_renew(pend, R->open, R->capopen);
      }
      R->open[R->nopen++] = (pend){ e->request, 0 };
    } else if (e->kind == TRACE_IRECV || e->kind == TRACE_REQUEST_CANCELLED) {
      for (int k = R->nopen; k-- > 0;)
        if (R->open[k].req == e->request) {
          R->open[k] = R->open[--R->nopen];
          break;
        }
    }
    if (R->nopen == 0)
      cut = i + 1;
  }
  return cut;
}

/* The next window of a streamed rank: at least `window` records (those
 * left over from the last refill first), cut after the last record where
 * no Irecv is open; read further while there is no such record. The rest
 * waits in the buffer for the next window. FALSE at the rank's end. */
gboolean replay_refill(replay *R, rank_st *rs, int rank)
{
  if (!rs->win)
    return FALSE;
  int64_t left = rs->nbuf - rs->nev; /* read, not yet replayed */
  if (rs->base + rs->nev >= rs->total)
    return FALSE;
  memmove(rs->win, rs->win + rs->nev, sizeof(trace_event) * (size_t)left);
  rs->base += rs->nev;
  rs->nbuf = left;
  rs->pos = rs->nev = rs->nirecv = rs->irecv_cur = 0;
  int64_t cut = 0;
  gboolean end = FALSE;
  while (!end) {
    if (rs->nbuf < R->window || cut == 0) {
      /* up to the window, then in quarter windows until a cut is found */
      int64_t want = rs->nbuf < R->window ? R->window - rs->nbuf : R->window / 4 + 1;
      want = MAX(MIN(want, rs->total - rs->base - rs->nbuf), 1); /* no room for records not there */
      if (rs->nbuf + want > rs->capwin) {
        rs->capwin = MAX(rs->capwin + rs->capwin / 2, rs->nbuf + want);
        rs->win = g_renew(trace_event, rs->win, rs->capwin);
      }
      int64_t n = trace_cursor_read(R->cur, rank, rs->win + rs->nbuf, want);
      rs->nbuf += n;
      end = n == 0 || rs->base + rs->nbuf >= rs->total;
    }
    cut = window_cut(R, rs->win, rs->nbuf);
    if (cut > 0 && rs->nbuf >= R->window)
      break;
  }
  if (end) { /* everything left is this window (open requests never complete) */
    cut = rs->nbuf;
    rs->total = rs->base + rs->nbuf;
  }
  rs->ev = rs->win;
  rs->nev = cut;
  R->nopen = 0;
  replay_scan_irecvs(R, rs, 0);
  return rs->nev > 0;
}
