/* requests.c - the non-blocking operations in flight and what their
 * completion records.
 *
 * A tracked request is found by its handle (hash table); records come from
 * a pool of blocks (TR_REQ_BLOCK each), so starting and completing a
 * request allocates nothing once the pool is warm. Completion records, as
 * Score-P writes them: MpiIsendComplete for sends, MpiIrecv (source, tag
 * and size from the status) for receives, NonBlockingCollectiveComplete for
 * collectives; MpiRequestCancelled instead when the status says cancelled.
 * Persistent requests stay tracked (inactive) until MPI_Request_free.
 * Requests the tracer did not create (I/O, RMA, generalized) are ignored.
 * Handle values need not be unique: Open MPI hands out one static request
 * for every send that completed inside MPI_Isend. Requests of one handle
 * form a FIFO chain; a completion takes the oldest.
 */
#include "traces/tracer/tracer.h"

#include <string.h>

enum { TR_REQ_BLOCK = 256 };

static gpointer handle_key(MPI_Request r)
{
  uintptr_t k = 0;
  memcpy(&k, &r, MIN(sizeof r, sizeof k));
  return (gpointer)k;
}

void tr_requests_init(void)
{
  tr.requests = g_hash_table_new(NULL, NULL);
  tr.req_blocks = g_ptr_array_new_with_free_func(g_free);
  tr.req_free = NULL;
  tr.next_request = 1;
}

void tr_requests_free(void)
{
  g_clear_pointer(&tr.requests, g_hash_table_destroy);
  g_clear_pointer(&tr.req_blocks, g_ptr_array_unref);
  tr.req_free = NULL;
  tr_scratch_free();
}

static tr_req *req_alloc(void)
{
  if (tr.req_free == NULL) {
    tr_req *block = g_new(tr_req, TR_REQ_BLOCK);
    g_ptr_array_add(tr.req_blocks, block);
    for (int i = 0; i < TR_REQ_BLOCK; i++) {
      block[i].next_free = tr.req_free;
      tr.req_free = &block[i];
    }
  }
  tr_req *r = tr.req_free;
  tr.req_free = r->next_free;
  return r;
}

static void req_release(tr_req *r)
{
  r->next_free = tr.req_free;
  tr.req_free = r;
}

tr_req *tr_req_new(MPI_Request handle, tr_req_kind kind, uint32_t comm)
{
  tr_req *r = req_alloc();
  *r = (tr_req){ .id = tr.next_request++, .kind = (uint8_t)kind, .active = 1, .comm = comm,
                 .root = OTF2_UNDEFINED_UINT32 };
  r->tail = r;
  tr_req *head = g_hash_table_lookup(tr.requests, handle_key(handle));
  if (head) {
    head->tail->next_same = r;
    head->tail = r;
  } else {
    g_hash_table_insert(tr.requests, handle_key(handle), r);
  }
  return r;
}

tr_req *tr_req_find(MPI_Request handle)
{
  if (handle == MPI_REQUEST_NULL)
    return NULL;
  return g_hash_table_lookup(tr.requests, handle_key(handle));
}

void tr_req_drop(MPI_Request handle)
{
  tr_req *r = tr_req_find(handle);
  if (r == NULL)
    return;
  tr_req *next = r->next_same;
  if (next) {
    next->tail = r->tail;
    g_hash_table_insert(tr.requests, handle_key(handle), next);
  } else {
    g_hash_table_remove(tr.requests, handle_key(handle));
  }
  req_release(r);
}

void tr_req_complete(MPI_Request before, MPI_Status *status, uint64_t t)
{
  tr_req *r = tr_req_find(before);
  if (r == NULL || !r->active)
    return;
  int cancelled = 0;
  if (r->kind != TR_REQ_COLL)
    PMPI_Test_cancelled(status, &cancelled);
  if (cancelled)
    OTF2_EvtWriter_MpiRequestCancelled(tr.evt, NULL, t, r->id);
  else if (r->kind == TR_REQ_ISEND)
    OTF2_EvtWriter_MpiIsendComplete(tr.evt, NULL, t, r->id);
  else if (r->kind == TR_REQ_IRECV)
    OTF2_EvtWriter_MpiIrecv(tr.evt, NULL, t, (uint32_t)status->MPI_SOURCE, r->comm,
                            (uint32_t)status->MPI_TAG, tr_status_bytes(status), r->id);
  else
    OTF2_EvtWriter_NonBlockingCollectiveComplete(tr.evt, NULL, t, (OTF2_CollectiveOp)r->op,
                                                 r->comm, r->root, r->bytes, r->recvd, r->id);
  if (r->persistent)
    r->active = 0;
  else
    tr_req_drop(before);
}

void tr_req_tested(MPI_Request handle, uint64_t t)
{
  tr_req *r = tr_req_find(handle);
  if (r && r->active)
    OTF2_EvtWriter_MpiRequestTest(tr.evt, NULL, t, r->id);
}

void *tr_scratch_get(tr_scratch *s, size_t bytes)
{
  if (bytes > s->bytes) {
    s->bytes = MAX(bytes, 2 * s->bytes);
    g_free(s->p);
    s->p = g_malloc(s->bytes);
  }
  return s->p;
}

MPI_Status *tr_status_scratch(int n)
{
  return tr_scratch_get(&tr.ignored_statuses, sizeof(MPI_Status) * (size_t)MAX(n, 1));
}

void tr_scratch_free(void)
{
  tr_scratch *all[] = { &tr.saved_reqs, &tr.ignored_statuses, &tr.f_reqs, &tr.f_cstatuses,
                        &tr.f_statuses, &tr.f_indices, &tr.f_types[0], &tr.f_types[1] };
  for (size_t i = 0; i < G_N_ELEMENTS(all); i++) {
    g_clear_pointer(&all[i]->p, g_free);
    all[i]->bytes = 0;
  }
}
