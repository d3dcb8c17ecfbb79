/* tracer.h - the inside of libmapsim-trace, a PMPI interposition library
 * that writes one OTF2 archive per MPI run with Score-P-like definitions.
 *
 * The wrappers are generated (gen-wrappers.py) from calls.tbl, the one
 * table of wrapped functions: the C ones call PMPI_*, the Fortran ones
 * (mpif.h, `use mpi`, `use mpi_f08`) the library's own Fortran function;
 * both between the same hooks (hooks.h, implemented in wrap-*.c), which
 * see C arguments only. While a Fortran wrapper runs the library's
 * function, `nested` is set: MPICH's Fortran bindings call the C MPI_*
 * functions, whose wrappers must not record the call a second time.
 *
 * One process holds one `tr_state` (the MPI library it wraps is process-wide
 * too): the OTF2 archive and this rank's event writer, the communicators
 * and requests it knows, the clock offsets. Wrappers (wrap-*.c) call the
 * record functions below between PMPI calls; archive.c opens the archive in
 * MPI_Init and merges the definitions of all ranks in MPI_Finalize.
 *
 * Communicators: events name a communicator by its local id (the order in
 * which this rank learnt it); MPI_Finalize unifies them (key = world rank of
 * the new communicator's rank 0 and that rank's creation counter, exchanged
 * by a broadcast at creation, as Score-P does) and writes an OTF2 mapping
 * table local id -> global id per rank, which OTF2 readers apply.
 *
 * Ownership: everything hangs off `tr` and is freed in tr_finish().
 * Threads: only the thread that initialised MPI is traced (MPI_THREAD_SINGLE,
 * FUNNELED and SERIALIZED programs are traced completely).
 * Not for: reading traces (traces/otf2-read.c).
 */
#pragma once

#include <glib.h>
#include <mpi.h>
#include <otf2/otf2.h>
#include <pthread.h>
#include <stdint.h>

#include "traces/tracer/regions.h"

/* Every MPI_ symbol the library defines; everything else stays hidden. */
#define TR_API __attribute__((visibility("default")))

#define TR_NO_COMM UINT32_MAX

typedef struct tr_comm {
  uint32_t local_id;   /* the id events carry; index in tr.comm_list */
  int32_t key_root;    /* world rank of the creating rank 0; -1 predefined */
  uint32_t key_seq;    /* that rank's creation counter (WORLD 0, SELF 1) */
  int32_t parent_root; /* key of the communicator it was derived from, */
  uint32_t parent_seq; /*   parent_root -2 when none */
  uint32_t parent_global; /* unified definitions (rank 0): parent's id or TR_NO_COMM */
  int size;            /* members */
  int my_rank;         /* this rank's rank in it */
  int *members;        /* world ranks, only kept where my_rank == 0 */
  char name[MPI_MAX_OBJECT_NAME];
  gboolean self;       /* MPI_COMM_SELF */
} tr_comm;

typedef enum { TR_REQ_ISEND, TR_REQ_IRECV, TR_REQ_COLL } tr_req_kind;

typedef struct tr_req {
  uint64_t id;         /* OTF2 request id, unique per rank */
  uint8_t kind;        /* tr_req_kind */
  uint8_t persistent;  /* from *_init: survives completion */
  uint8_t active;      /* started and not yet completed */
  uint8_t op;          /* TR_REQ_COLL: OTF2_CollectiveOp */
  uint32_t comm;       /* local communicator id */
  int peer, tag;       /* persistent requests: recorded at MPI_Start */
  uint32_t root;       /* TR_REQ_COLL: comm rank or OTF2_UNDEFINED_UINT32 */
  uint64_t bytes;      /* send size; TR_REQ_COLL: bytes sent */
  uint64_t recvd;      /* TR_REQ_COLL: bytes received */
  /* requests sharing one handle value, oldest first (Open MPI returns one
   * static handle for every send that completed inside MPI_Isend) */
  struct tr_req *next_same, *tail;
  struct tr_req *next_free;
} tr_req;

/* A buffer that grows and is reused: scratch without allocation per call. */
typedef struct tr_scratch {
  void *p;
  size_t bytes;
} tr_scratch;

/* At least `bytes` of `s`; the contents are not kept when it grows. */
void *tr_scratch_get(tr_scratch *s, size_t bytes);

typedef struct tr_state {
  gboolean on;              /* events are being recorded */
  gboolean init_seen;       /* a wrapper of MPI_Init or MPI_Init_thread ran */
  gboolean started;         /* tr_start ran (tracing on, or failed saying why) */
  gboolean wrong_mpi;       /* built for another MPI library: everything passes through */
  int nested;               /* inside a Fortran wrapper's call of the library */
  int rank, size;           /* in MPI_COMM_WORLD */
  pthread_t thread;         /* the thread that initialised MPI */
  MPI_Comm comm;            /* private duplicate of MPI_COMM_WORLD */
  MPI_Group world_group;
  OTF2_Archive *archive;
  OTF2_EvtWriter *evt;
  char *dir;                /* final archive directory */
  char *tmp;                /* directory written until MPI_Finalize */
  uint64_t first, last;     /* local clock of the first and last event */
  /* clock offsets to rank 0 at init and finalize (ClockOffset records) */
  uint64_t sync_time[2];
  int64_t sync_offset[2];
  double sync_stddev[2];
  uint64_t realtime0, mono0;  /* CLOCK_REALTIME ns at local tick mono0 */
  /* communicators */
  GPtrArray *comm_list;     /* tr_comm*, index = local id (owned) */
  GHashTable *comms;        /* live handle -> tr_comm* */
  MPI_Comm last_handle;     /* one-entry lookup cache */
  tr_comm *last_comm;
  uint32_t comm_seq;        /* creation counter as a rank 0 */
  /* requests */
  GHashTable *requests;     /* handle -> tr_req* */
  GPtrArray *req_blocks;    /* pool of tr_req arrays (owned) */
  tr_req *req_free;
  uint64_t next_request;
  /* scratch (no allocation per call): the handles of a Wait/Test call before
   * it (saved by its pre hook), the statuses of a caller that ignores them,
   * and the C forms of Fortran arguments (fortran.c) */
  tr_scratch saved_reqs, ignored_statuses;
  tr_scratch f_reqs, f_cstatuses, f_statuses, f_indices, f_types[2];
  /* what could not be recorded, reported at MPI_Finalize */
  int64_t unknown_comm_ops; /* operations on communicators not traced */
} tr_state;

extern tr_state tr;

/* ---- clock (clock.c) --------------------------------------------------- */
#define TR_TICKS_PER_SECOND UINT64_C(1000000000)
uint64_t tr_clock(void);
/* Offset of this rank's clock to rank 0's, measured by ping-pongs on
 * tr.comm (collective); stores it as sync point `which` (0 init, 1 end). */
void tr_clock_sync(int which);
/* The global time OTF2 readers compute for local tick `t` from the two
 * sync points (the same linear interpolation OTF2 applies). */
uint64_t tr_clock_global(uint64_t t);

/* ---- archive (archive.c) ----------------------------------------------- */
/* After PMPI_Init: opens the archive (collective). */
void tr_start(void);
/* Before PMPI_Finalize: closes the events, merges and writes the
 * definitions (collective), renames the archive into place. */
void tr_finish(void);
/* One line on stderr about an OTF2 failure; returns FALSE. */
gboolean tr_fail(const char *what, OTF2_ErrorCode code);

/* ---- communicators (comms.c) ------------------------------------------- */
void tr_comms_init(void);
void tr_comms_free(void);
void tr_comm_free(gpointer c);
/* The communicator of a live handle, NULL if not traced (callers count
 * such operations in tr.unknown_comm_ops). */
tr_comm *tr_comm_find(MPI_Comm c);
/* Registers `newcomm` created from `parent` (collective over newcomm;
 * MPI_COMM_NULL is ignored). */
void tr_comm_created(MPI_Comm parent, MPI_Comm newcomm);
/* Registers a communicator whose creation completes later (MPI_Comm_idup):
 * the key is agreed on `parent` now (collective over parent). */
void tr_comm_created_on_parent(MPI_Comm parent, MPI_Comm newcomm);
void tr_comm_freed(MPI_Comm c);
/* Local id -> global id table and the global definitions (MPI_Finalize;
 * collective). `map` gets one entry per local id; on rank 0 `defs` gets
 * the unified communicators sorted by global id (tr_comm*, owned). */
void tr_comms_unify(uint64_t *map, GPtrArray *defs);

/* ---- requests (requests.c) --------------------------------------------- */
void tr_requests_init(void);
void tr_requests_free(void);
/* A new tracked request for `handle` with a fresh id. */
tr_req *tr_req_new(MPI_Request handle, tr_req_kind kind, uint32_t comm);
tr_req *tr_req_find(MPI_Request handle);
void tr_req_drop(MPI_Request handle);
/* Records the completion of `before` (the handle as it was before the
 * completing call) with its status at time t. */
void tr_req_complete(MPI_Request before, MPI_Status *status, uint64_t t);
/* Records MpiRequestTest for an active tracked request. */
void tr_req_tested(MPI_Request handle, uint64_t t);
/* n statuses for a caller that passed MPI_STATUSES_IGNORE. */
MPI_Status *tr_status_scratch(int n);
/* Frees every scratch buffer. */
void tr_scratch_free(void);

/* ---- records (events.c) ------------------------------------------------ */
/* Recording is on, this is the traced thread and no wrapper runs below. */
static inline gboolean tr_active(void)
{
  return tr.on && !tr.nested && pthread_equal(pthread_self(), tr.thread);
}

uint64_t tr_enter(tr_region r);           /* returns the Enter time */
void tr_leave(tr_region r, uint64_t t);
/* count * size of `type` in bytes (saturating at INT64_MAX). */
uint64_t tr_bytes(int64_t count, MPI_Datatype type);
/* Bytes of a received message from its status. */
uint64_t tr_status_bytes(const MPI_Status *st);
void tr_rec_send(uint64_t t, tr_comm *c, int dest, int tag, uint64_t bytes);
void tr_rec_recv(uint64_t t, tr_comm *c, const MPI_Status *st);
void tr_rec_coll_begin(uint64_t t);

/* Saves the n handles a Wait or Test call gets, then Enter (wrap-p2p.c). */
uint64_t tr_pre_complete(tr_region reg, int n, const MPI_Request *reqs);

/* ---- collectives (wrap-coll.c) ------------------------------------------ */
/* What a collective call records at its end (or its completion). */
typedef struct {
  OTF2_CollectiveOp op;
  uint32_t root;
  uint64_t sent, recvd;
} coll_rec;

/* Enter (and CollectiveBegin of a blocking call); *c = the communicator,
 * NULL when it is not traced. Returns the Enter time. */
uint64_t tr_coll_begin(tr_region reg, MPI_Comm comm, int nonblocking, tr_comm **c);
/* CollectiveEnd (blocking) or NonBlockingCollectiveRequest for `req`, and
 * Leave. */
void tr_coll_end(tr_region reg, uint64_t t, tr_comm *c, const coll_rec *cr, int rc,
                 MPI_Request req, int nonblocking);

/* ---- communicator constructors (wrap-comm.c) ---------------------------- */
uint64_t tr_create_begin(tr_region reg);
/* Registers *newcomm made from `parent`; CollectiveEnd on `over` and Leave. */
void tr_create_end(tr_region reg, uint64_t t, int rc, MPI_Comm parent, MPI_Comm over,
                   MPI_Comm *newcomm);

/* ---- the process (wrap-env.c) ------------------------------------------- */
/* One line "mapsim-trace: ..." on stderr from the first rank only (the rank
 * the launcher gives it when MPI cannot say yet). */
void tr_say(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
