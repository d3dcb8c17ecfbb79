/* comms.c - the communicators a rank knows, and their unification into
 * global OTF2 definitions at MPI_Finalize.
 *
 * Creation: the new communicator's rank 0 draws a key (its world rank, its
 * own creation counter) and broadcasts it over the new communicator (the
 * creation call is collective there anyway). Only that rank keeps the
 * member list (world ranks, from MPI_Group_translate_ranks). Lookup from a
 * handle: a one-entry cache, then a hash table of live handles; freed
 * handles leave the table (MPI reuses handle values) but their definition
 * stays, since events refer to it.
 *
 * Unification: the keeping ranks gather their definitions to rank 0, which
 * sorts them by key (MPI_COMM_WORLD, MPI_COMM_SELF, then by creator and
 * counter: the same archive for the same run) and broadcasts the sorted
 * keys; every rank maps its local ids through them. Intercommunicators
 * are not traced. Cost: O(C log C) for C communicators, members once.
 */
#include "traces/tracer/tracer.h"

#include <stdio.h>
#include <string.h>

#define NAME_WORDS ((MPI_MAX_OBJECT_NAME + 7) / 8)
/* serialized definition: key_root key_seq parent_root parent_seq self size name[] members[] */
#define HEADER_WORDS (6 + NAME_WORDS)
#define NO_PARENT (-2)

static gpointer handle_key(MPI_Comm c)
{
  uintptr_t k = 0;
  memcpy(&k, &c, MIN(sizeof c, sizeof k));
  return (gpointer)k;
}

static tr_comm *comm_add(MPI_Comm handle, int32_t root, uint32_t seq, int size, int my_rank)
{
  tr_comm *c = g_new0(tr_comm, 1);
  c->local_id = tr.comm_list->len;
  c->key_root = root;
  c->key_seq = seq;
  c->parent_root = NO_PARENT;
  c->size = size;
  c->my_rank = my_rank;
  g_ptr_array_add(tr.comm_list, c);
  if (handle != MPI_COMM_NULL)
    g_hash_table_replace(tr.comms, handle_key(handle), c);
  return c;
}

void tr_comm_free(gpointer p)
{
  tr_comm *c = p;
  g_free(c->members);
  g_free(c);
}

void tr_comms_init(void)
{
  tr.comm_list = g_ptr_array_new_with_free_func(tr_comm_free);
  tr.comms = g_hash_table_new(NULL, NULL);
  tr_comm *w = comm_add(MPI_COMM_WORLD, -1, 0, tr.size, tr.rank);
  g_strlcpy(w->name, "MPI_COMM_WORLD", sizeof w->name);
  if (tr.rank == 0) {
    w->members = g_new(int, tr.size);
    for (int i = 0; i < tr.size; i++)
      w->members[i] = i;
  }
  tr_comm *s = comm_add(MPI_COMM_SELF, -1, 1, 1, 0);
  s->self = TRUE;
  g_strlcpy(s->name, "MPI_COMM_SELF", sizeof s->name);
  tr.last_handle = MPI_COMM_WORLD;
  tr.last_comm = w;
}

void tr_comms_free(void)
{
  g_clear_pointer(&tr.comms, g_hash_table_destroy);
  g_clear_pointer(&tr.comm_list, g_ptr_array_unref);
  tr.last_comm = NULL;
  tr.last_handle = MPI_COMM_NULL;
}

static tr_comm *lookup(MPI_Comm c)
{
  if (c == tr.last_handle)
    return tr.last_comm;
  tr_comm *tc = g_hash_table_lookup(tr.comms, handle_key(c));
  if (tc) {
    tr.last_handle = c;
    tr.last_comm = tc;
  }
  return tc;
}

tr_comm *tr_comm_find(MPI_Comm c)
{
  return lookup(c);
}

/* World ranks of the members of `c`, in comm rank order. */
static int *world_members(MPI_Comm c, int size)
{
  MPI_Group g;
  int *ranks = g_new(int, size), *world = g_new(int, size);
  for (int i = 0; i < size; i++)
    ranks[i] = i;
  PMPI_Comm_group(c, &g);
  PMPI_Group_translate_ranks(g, size, ranks, tr.world_group, world);
  PMPI_Group_free(&g);
  g_free(ranks);
  return world;
}

static void set_parent(tr_comm *c, MPI_Comm parent)
{
  tr_comm *p = parent == MPI_COMM_NULL ? NULL : lookup(parent);
  if (p) {
    c->parent_root = p->key_root;
    c->parent_seq = p->key_seq;
  }
}

static gboolean is_intra(MPI_Comm c)
{
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  return !inter;
}

/* Registers `handle` with a key drawn by rank 0 of `over` and broadcast
 * over it; `over` also gives the size, the own rank and the members (the
 * new communicator itself, or the parent of a duplicate not usable yet). */
static void register_comm(MPI_Comm handle, MPI_Comm over, MPI_Comm parent)
{
  if (over == MPI_COMM_NULL || !is_intra(over))
    return;
  int size, rank;
  PMPI_Comm_size(over, &size);
  PMPI_Comm_rank(over, &rank);
  int64_t key[2] = { tr.rank, tr.comm_seq };
  PMPI_Bcast(key, 2, MPI_INT64_T, 0, over);
  if (rank == 0)
    tr.comm_seq++;
  tr_comm *c = comm_add(handle, (int32_t)key[0], (uint32_t)key[1], size, rank);
  set_parent(c, parent);
  if (rank == 0)
    c->members = world_members(over, size);
}

void tr_comm_created(MPI_Comm parent, MPI_Comm newcomm)
{
  register_comm(newcomm, newcomm, parent);
}

void tr_comm_created_on_parent(MPI_Comm parent, MPI_Comm newcomm)
{
  register_comm(newcomm, parent, parent);
}

void tr_comm_freed(MPI_Comm c)
{
  g_hash_table_remove(tr.comms, handle_key(c));
  if (c == tr.last_handle) {
    tr.last_handle = MPI_COMM_NULL;
    tr.last_comm = NULL;
  }
}

/* ---- unification ------------------------------------------------------- */

static int key_cmp(int64_t ra, int64_t sa, int64_t rb, int64_t sb)
{
  if (ra != rb)
    return ra < rb ? -1 : 1;
  return sa < sb ? -1 : sa > sb;
}

static int def_cmp(gconstpointer a, gconstpointer b)
{
  const tr_comm *x = *(tr_comm *const *)a, *y = *(tr_comm *const *)b;
  return key_cmp(x->key_root, x->key_seq, y->key_root, y->key_seq);
}

/* Index of key (root, seq) in the sorted key array, or -1. */
static int64_t key_index(const int64_t *keys, int64_t n, int64_t root, int64_t seq)
{
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    int c = key_cmp(keys[2 * mid], keys[2 * mid + 1], root, seq);
    if (c == 0)
      return mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

static gboolean keeps_definition(const tr_comm *c)
{
  return c->members != NULL || (c->self && tr.rank == 0);
}

static void serialize(GArray *out, const tr_comm *c)
{
  int64_t head[HEADER_WORDS] = { c->key_root, c->key_seq, c->parent_root, c->parent_seq,
                                 c->self, c->self ? 1 : c->size };
  memcpy(&head[6], c->name, MIN(sizeof c->name, NAME_WORDS * sizeof(int64_t)));
  g_array_append_vals(out, head, HEADER_WORDS);
  for (int i = 0; !c->self && i < c->size; i++) {
    int64_t m = c->members[i];
    g_array_append_val(out, m);
  }
}

/* Rank 0: definitions from the gathered words, sorted by key. */
static void deserialize(const int64_t *w, int64_t n, GPtrArray *defs)
{
  int64_t i = 0;
  while (i + HEADER_WORDS <= n) {
    tr_comm *c = g_new0(tr_comm, 1);
    c->key_root = (int32_t)w[i];
    c->key_seq = (uint32_t)w[i + 1];
    c->parent_root = (int32_t)w[i + 2];
    c->parent_seq = (uint32_t)w[i + 3];
    c->self = w[i + 4] != 0;
    c->size = (int)w[i + 5];
    memcpy(c->name, &w[i + 6], MIN(sizeof c->name, NAME_WORDS * sizeof(int64_t)));
    c->name[sizeof c->name - 1] = '\0';
    i += HEADER_WORDS;
    if (!c->self) {
      c->members = g_new(int, MAX(c->size, 1));
      for (int k = 0; k < c->size && i < n; k++)
        c->members[k] = (int)w[i++];
    }
    g_ptr_array_add(defs, c);
  }
  g_ptr_array_sort(defs, def_cmp);
  for (guint k = 0; k < defs->len; k++) {
    tr_comm *c = defs->pdata[k];
    c->local_id = k;  /* on rank 0's list: the global id */
    if (c->name[0] == '\0')
      g_snprintf(c->name, sizeof c->name, "Comm %u", k);
  }
}

void tr_comms_unify(uint64_t *map, GPtrArray *defs)
{
  GArray *mine = g_array_new(FALSE, FALSE, sizeof(int64_t));
  for (guint i = 0; i < tr.comm_list->len; i++) {
    const tr_comm *c = tr.comm_list->pdata[i];
    if (keeps_definition(c))
      serialize(mine, c);
  }
  int n = (int)mine->len;
  int *counts = NULL, *displs = NULL;
  int64_t *all = NULL, total = 0;
  if (tr.rank == 0) {
    counts = g_new(int, tr.size);
    displs = g_new(int, tr.size);
  }
  PMPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, tr.comm);
  if (tr.rank == 0) {
    for (int r = 0; r < tr.size; r++) {
      displs[r] = (int)total;
      total += counts[r];
    }
    all = g_new(int64_t, MAX(total, 1));
  }
  PMPI_Gatherv(mine->data, n, MPI_INT64_T, all, counts, displs, MPI_INT64_T, 0, tr.comm);
  g_array_free(mine, TRUE);

  /* sorted keys to everyone */
  int64_t nkeys = 0, *keys = NULL;
  if (tr.rank == 0) {
    deserialize(all, total, defs);
    nkeys = defs->len;
  }
  PMPI_Bcast(&nkeys, 1, MPI_INT64_T, 0, tr.comm);
  keys = g_new(int64_t, 2 * MAX(nkeys, 1));
  if (tr.rank == 0)
    for (int64_t k = 0; k < nkeys; k++) {
      const tr_comm *c = defs->pdata[k];
      keys[2 * k] = c->key_root;
      keys[2 * k + 1] = c->key_seq;
    }
  PMPI_Bcast(keys, (int)(2 * nkeys), MPI_INT64_T, 0, tr.comm);
  for (guint i = 0; i < tr.comm_list->len; i++) {
    const tr_comm *c = tr.comm_list->pdata[i];
    int64_t g = key_index(keys, nkeys, c->key_root, c->key_seq);
    if (g < 0) {
      fprintf(stderr, "mapsim-trace: rank %d: communicator %u has no definition, "
              "recorded as MPI_COMM_WORLD\n", tr.rank, i);
      g = 0;
    }
    map[i] = (uint64_t)g;
  }
  if (tr.rank == 0)
    for (guint k = 0; k < defs->len; k++) {
      tr_comm *c = defs->pdata[k];
      int64_t p = c->parent_root == NO_PARENT ? -1
                                               : key_index(keys, nkeys, c->parent_root, c->parent_seq);
      c->parent_global = p < 0 ? TR_NO_COMM : (uint32_t)p;
    }
  g_free(keys);
  g_free(all);
  g_free(counts);
  g_free(displs);
}
