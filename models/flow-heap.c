/* flow-heap.c - the heaps of the flow models (flow.c): the capacities
 * the water-filling fills, by share (indexed: re-keyed and removed in
 * place), the flows it triggers, and the completions by (time, order of
 * the rate change), with one engine event at the first (a version stamp
 * retires a pending event that became too late). O(log n) each, on the
 * flat arrays of flow-private.h, nothing allocated.
 */
#include "models/flow-private.h"

/* ---- water-filling heaps ------------------------------------------- */

/* The capacities being filled, by share: an indexed binary heap (one entry
 * per capacity, re-keyed and removed in place). */
static inline void lheap_place(flowmodel *fm, int i, fheap_item it)
{
  fm->lheap[i] = it;
  fm->lpos[it.id] = i;
}

static void lheap_up(flowmodel *fm, int i, fheap_item it)
{
  while (i > 0 && fm->lheap[(i - 1) / 2].key > it.key) {
    lheap_place(fm, i, fm->lheap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  lheap_place(fm, i, it);
}

void lheap_down(flowmodel *fm, int i, fheap_item it)
{
  int n = fm->lhn;
  for (int c = 2 * i + 1; c < n; c = 2 * i + 1) {
    c += c + 1 < n && fm->lheap[c + 1].key < fm->lheap[c].key;
    if (!(fm->lheap[c].key < it.key))
      break;
    lheap_place(fm, i, fm->lheap[c]);
    i = c;
  }
  lheap_place(fm, i, it);
}

/* Keys capacity r at `share` (inserting it if needed). */
void lheap_set(flowmodel *fm, int r, double share)
{
  fheap_item it = { share, r };
  int i = fm->lpos[r];
  if (i < 0)
    lheap_up(fm, fm->lhn++, it);
  else if (share < fm->lheap[i].key)
    lheap_up(fm, i, it);
  else
    lheap_down(fm, i, it);
}

/* Takes capacity r out of the heap (nothing if it is not in). */
void lheap_remove(flowmodel *fm, int r)
{
  int i = fm->lpos[r];
  if (i < 0)
    return;
  fm->lpos[r] = -1;
  fheap_item last = fm->lheap[--fm->lhn];
  if (i == fm->lhn)
    return;
  if (i > 0 && last.key < fm->lheap[(i - 1) / 2].key)
    lheap_up(fm, i, last);
  else
    lheap_down(fm, i, last);
}

/* Level triggers of flows: a plain binary heap. */
void theap_push(flowmodel *fm, double level, int f)
{
  if (fm->hn == fm->hcap) {
    fm->hcap = fm->hcap ? 2 * fm->hcap : 256;
    fm->heap = g_renew(fheap_item, fm->heap, fm->hcap);
  }
  fheap_item it = { level, f };
  int i = fm->hn++;
  while (i > 0 && fm->heap[(i - 1) / 2].key > it.key) {
    fm->heap[i] = fm->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  fm->heap[i] = it;
}

int theap_pop(flowmodel *fm)
{
  fheap_item *h = fm->heap, top = h[0], last = h[--fm->hn];
  int i = 0, n = fm->hn;
  for (int c = 1; c < n; c = 2 * i + 1) {
    c += c + 1 < n && h[c + 1].key < h[c].key;
    if (!(h[c].key < last.key))
      break;
    h[i] = h[c];
    i = c;
  }
  if (n)
    h[i] = last;
  return top.id;
}

/* ---- completions ----------------------------------------------------- */

static inline gboolean fin_before(const centry *a, const centry *b)
{
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void cheap_place(flowmodel *fm, int i, centry e)
{
  fm->cheap[i] = e;
  fm->cpos[e.flow] = i;
}

static void cheap_up(flowmodel *fm, int i, centry e)
{
  while (i > 0 && fin_before(&e, &fm->cheap[(i - 1) / 2])) {
    cheap_place(fm, i, fm->cheap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  cheap_place(fm, i, e);
}

static void cheap_down(flowmodel *fm, int i, centry e)
{
  for (int c = 2 * i + 1; c < fm->cn; c = 2 * i + 1) {
    c += c + 1 < fm->cn && fin_before(&fm->cheap[c + 1], &fm->cheap[c]);
    if (!fin_before(&fm->cheap[c], &e))
      break;
    cheap_place(fm, i, fm->cheap[c]);
    i = c;
  }
  cheap_place(fm, i, e);
}

/* Sets flow f's completion time (inserting or re-keying it). */
void completion_set(flowmodel *fm, int f, int64_t t)
{
  centry e = { t, ++fm->nseq, f };
  int i = fm->cpos[f];
  if (i < 0)
    cheap_up(fm, fm->cn++, e);
  else if (fin_before(&e, &fm->cheap[i]))
    cheap_up(fm, i, e);
  else
    cheap_down(fm, i, e);
}

/* Takes the first flow off the completion heap. */
int completion_pop(flowmodel *fm)
{
  int f = fm->cheap[0].flow;
  fm->cpos[f] = -1;
  if (--fm->cn > 0)
    cheap_down(fm, 0, fm->cheap[fm->cn]);
  return f;
}

/* Makes sure an engine event is pending at the first completion (a
 * version stamp retires a pending event that is too late). */
void completion_schedule(flowmodel *fm)
{
  if (fm->cn == 0)
    return;
  int64_t t = fm->cheap[0].t;
  if (fm->next_t >= 0 && fm->next_t <= t)
    return;
  fm->next_t = t;
  fm->next_ver++;
  engine_schedule(fm->base.eng, t, fm->base.own_kind, 0, (uint64_t)fm->next_ver << 2 | FLOW_EV_FINISH);
}

