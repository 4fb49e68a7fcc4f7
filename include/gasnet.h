/*
 * gasnet.h -- Gasket's GASNet 1.8 API (gasnet-1.8-spec.md): the core API
 * (chapter 2) and the extended API (chapter 3).
 *
 * Conventions for every routine below:
 *  - A node is an MPI rank of MPI_COMM_WORLD; nodes are numbered 0..N-1.
 *  - Sizes (`nbytes`, `segsize`) are in bytes.
 *  - Errors: routines with an int result return GASNET_OK or one of the
 *    GASNET_ERR_* codes below, and also print a line on stderr naming the
 *    routine and the bad value ("gasket: PE n: routine: ...").  Violations
 *    the spec calls fatal (an unregistered handler index, a reply from a
 *    reply handler, a second reply, an AM request inside a handler or a
 *    No-Interrupt Section, a misused handler-safe lock) end the whole job
 *    with such a message.
 *  - Every routine is declared GASKET_NOEXCEPT (gasket/noexcept.h):
 *    noexcept in C++, nothing in C.  No exception leaves Gasket, not even
 *    one thrown by a C++ handler (the process ends in std::terminate).
 *
 * Threading (§1.5): define at most one of GASNET_SEQ, GASNET_PARSYNC or
 * GASNET_PAR before including this header; with none, GASNET_SEQ is
 * assumed.  The one library serves all three (it is built for GASNET_PAR,
 * which the spec says suffices); the mode is passed to gasnet_init, which
 * records it.  Handlers run inside polling calls on the calling thread and,
 * in every mode, on Gasket's progress thread (GASKET_PROGRESS_THREAD), as
 * §2.4.2 permits: clients protect data shared with handlers with HSLs.
 *
 * Segment configuration (§2.1): gasket/gasnet_config.h says which of
 * GASNET_SEGMENT_FAST or GASNET_SEGMENT_LARGE the library was built with
 * (CMake option GASKET_GASNET_SEGMENT).
 */
#ifndef GASKET_GASNET_H
#define GASKET_GASNET_H

#include <gasnetex.h>
#include <gasket/gasnet_arity.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- §2.1 job control ----------------------------------------------- */

/* gasnet_init (§2.1.0.1): bootstraps the job.  Initializes MPI (with
 * MPI_THREAD_MULTIPLE) unless the program already did; argc/argv are not
 * modified.  Returns GASNET_OK, or GASNET_ERR_RESOURCE for a second call or
 * a bad Gasket environment variable (with a message).  A macro, so that the
 * client's thread mode reaches the library. */
#define gasnet_init(argc, argv) gasket_gasnet_init((argc), (argv), GASKET_GASNET_THREAD_MODE)
int gasket_gasnet_init(int* argc, char*** argv, int thread_mode) GASKET_NOEXCEPT;

/* gasnet_attach (§2.1.0.2): collective.  Registers `numentries` handlers
 * from `table` (index 0 = don't care: assigned deterministically from 255
 * downwards; fixed indices must be 128..255, 0..127 are Gasket's) and
 * creates this node's segment of `segsize` bytes (a multiple of
 * GASNET_PAGESIZE, at most gasnet_getMaxLocalSegmentSize(); 0 = no
 * segment).  `minheapoffset` must be equal on all nodes and is otherwise
 * unused (the segment is mmapped away from the heap).  Acts as a barrier.
 * Returns GASNET_OK; GASNET_ERR_NOT_INIT before gasnet_init;
 * GASNET_ERR_RESOURCE for a second call or when the segment cannot be had;
 * GASNET_ERR_BAD_ARG for a reserved/duplicate index, no free index, a NULL
 * handler, or a segsize not a page multiple or above the maximum. */
int gasnet_attach(gasnet_handlerentry_t* table, int numentries, uintptr_t segsize,
                  uintptr_t minheapoffset) GASKET_NOEXCEPT;

/* gasnet_QueryGexObjects (gasnet-ex-api.txt, "Hybrid/transitional client
 * support"): the GASNet-EX client, primordial endpoint and team, and the
 * bound segment (GEX_SEGMENT_INVALID before attach or with segsize 0) of
 * this process, which gasnet_init/gasnet_attach or gex_Client_Init/
 * gex_Segment_Attach made.  Each output may be NULL.  Fatal before
 * gasnet_init / gex_Client_Init. */
void gasnet_QueryGexObjects(gex_Client_t* client_p, gex_EP_t* endpoint_p, gex_TM_t* tm_p,
                            gex_Segment_t* segment_p) GASKET_NOEXCEPT;

/* gasnet_getNodeInfo (legacy GASNet, kept for older clients; GASNet-EX
 * clients use gex_System_Query*): fills nodeinfo_table[i] (i <
 * min(numentries, gasnet_nodes())) with node i's host (gex_System_QueryMyPosition's
 * host rank), supernode (its neighbourhood rank: the nodes whose segments
 * this one maps) and offset: added to an address in node i's segment, the
 * address of the same byte here, when this node maps it, else 0.  Returns
 * GASNET_OK, GASNET_ERR_NOT_INIT before attach, GASNET_ERR_BAD_ARG for a
 * NULL table or numentries < 0. */
typedef struct {
    gasnet_node_t host;
    gasnet_node_t supernode;
    uintptr_t offset;
} gasnet_nodeinfo_t;
int gasnet_getNodeInfo(gasnet_nodeinfo_t* nodeinfo_table, int numentries) GASKET_NOEXCEPT;

/* ---- §2.2 job environment queries ----------------------------------- */
gasnet_node_t gasnet_mynode(void) GASKET_NOEXCEPT; /* this node's index, 0-based */
gasnet_node_t gasnet_nodes(void) GASKET_NOEXCEPT;  /* number of nodes in the job */

/* gasnet_getSegmentInfo (§2.2.0.3): fills seginfo_table[i] (i <
 * min(numentries, gasnet_nodes())) with node i's segment base address (in
 * node i's address space) and size in bytes.  Returns GASNET_OK,
 * GASNET_ERR_NOT_INIT before gasnet_attach, GASNET_ERR_BAD_ARG for a NULL
 * table or numentries < 0. */
int gasnet_getSegmentInfo(gasnet_seginfo_t* seginfo_table, int numentries) GASKET_NOEXCEPT;

/* gasnet_getenv (§2.2.0.4): the launching environment's value of `name`,
 * or NULL.  The launcher forwards the environment, so this is getenv. */
char* gasnet_getenv(const char* name) GASKET_NOEXCEPT;

/* ---- §2.3 Active Messages ------------------------------------------- */

/* Size limits (§2.3.2).  Max medium payload and max Long payloads in
 * bytes. */
#define gasnet_AMMaxArgs() ((size_t)GASKET_AM_MAX_ARGS)
#define gasnet_AMMaxMedium() ((size_t)GASKET_AM_MAX_MEDIUM)
#define gasnet_AMMaxLongRequest() ((size_t)GASKET_AM_MAX_LONG)
#define gasnet_AMMaxLongReply() ((size_t)GASKET_AM_MAX_LONG)

/*
 * Requests (§2.3.3) and replies (§2.3.4), for M = 0..16 arguments:
 *
 *   int gasnet_AMRequestShortM(dest, handler, a0..aM-1)
 *   int gasnet_AMRequestMediumM(dest, handler, source_addr, nbytes, a0..)
 *   int gasnet_AMRequestLongM(dest, handler, source_addr, nbytes, dest_addr, a0..)
 *   int gasnet_AMRequestLongAsyncM(... as Long ...)
 *   int gasnet_AMReplyShortM(token, handler, a0..)
 *   int gasnet_AMReplyMediumM(token, handler, source_addr, nbytes, a0..)
 *   int gasnet_AMReplyLongM(token, handler, source_addr, nbytes, dest_addr, a0..)
 *
 * `dest` is a node index; `handler` an index registered at attach on the
 * destination; `nbytes` bytes at `source_addr` (any memory) are copied out
 * before the call returns.  Medium: nbytes <= gasnet_AMMaxMedium(); the
 * handler gets a temporary, 16-byte-aligned copy.  Long: nbytes <=
 * gasnet_AMMaxLong{Request,Reply}(); the bytes land at `dest_addr`, which
 * with nbytes must lie inside the destination's segment, before the
 * handler runs.  Replies may only be sent from a request handler, at most
 * once, and go to the requesting node.
 *
 * Returns GASNET_OK; GASNET_ERR_NOT_INIT before gasnet_attach;
 * GASNET_ERR_BAD_ARG (with a message naming the routine and value) for a
 * node out of range, nbytes over the limit, or a Long range outside the
 * destination segment.  An unregistered handler index ends the job with a
 * message naming the index (checked on the destination).  Requests may
 * block while the destination's credits are used up, serving incoming
 * messages meanwhile (flow control).
 */
#define GASKET_AM_DECLARE(M)                                                                                         \
    int gasnet_AMRequestShort##M(gasnet_node_t dest, gasnet_handler_t handler GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT; \
    int gasnet_AMRequestMedium##M(gasnet_node_t dest, gasnet_handler_t handler, void* source_addr,                   \
                                  size_t nbytes GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                               \
    int gasnet_AMRequestLong##M(gasnet_node_t dest, gasnet_handler_t handler, void* source_addr, size_t nbytes,      \
                                void* dest_addr GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                               \
    int gasnet_AMRequestLongAsync##M(gasnet_node_t dest, gasnet_handler_t handler, void* source_addr, size_t nbytes, \
                                     void* dest_addr GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                          \
    int gasnet_AMReplyShort##M(gasnet_token_t token, gasnet_handler_t handler GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT; \
    int gasnet_AMReplyMedium##M(gasnet_token_t token, gasnet_handler_t handler, void* source_addr,                   \
                                size_t nbytes GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                                 \
    int gasnet_AMReplyLong##M(gasnet_token_t token, gasnet_handler_t handler, void* source_addr, size_t nbytes,      \
                              void* dest_addr GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;
GASKET_AM_ARITIES(GASKET_AM_DECLARE)
#undef GASKET_AM_DECLARE

/* gasnet_AMGetMsgSource (§2.3.5.3): stores the sending node of the message
 * whose handler received `token` in *srcindex.  Returns GASNET_OK, or
 * GASNET_ERR_BAD_ARG for a NULL token/srcindex. */
int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t* srcindex) GASKET_NOEXCEPT;

/* ---- §2.4 atomicity control ----------------------------------------- */

/* No-Interrupt Sections (§2.4.2): Gasket never interrupts a thread (handlers
 * run in polls and on the progress thread), so these only track the
 * section for the checks of §2.4.3: nesting, and communication inside a
 * section, are fatal.  Ignored inside handlers and while holding an HSL. */
void gasnet_hold_interrupts(void) GASKET_NOEXCEPT;
void gasnet_resume_interrupts(void) GASKET_NOEXCEPT;

/* ==== Chapter 3: the extended API ======================================
 * Remote memory is named by (node, address): `node` a node index, the
 * address in that node's segment (gasnet_getSegmentInfo).  Sizes are
 * bytes.  As §3 says, errors here are fatal: a node out of range, a range
 * outside the node's segment, a bad nbytes for the value forms, or a
 * misused barrier end the job with a message naming the routine and the
 * value.  Node peers (and this node) are reached by direct copy when the
 * segment is node-shared (GASNET_SEGMENT_FAST, node fast path on); other
 * nodes by MPI RMA on the segment window.  All routines may be called after
 * gasnet_attach only.
 */

/* §3.2 blocking transfers: return when the data is at its destination. */
void gasnet_get(void* dest, gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_put(gasnet_node_t node, void* dest, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_get_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_put_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) GASKET_NOEXCEPT;
/* As if node ran memset(dest, val, nbytes). */
void gasnet_memset(gasnet_node_t node, void* dest, int val, size_t nbytes) GASKET_NOEXCEPT;

/* §3.3.2 explicit-handle operations.  A handle encodes what must be
 * completed (no allocation); memsets that completed at once (this node's
 * or a node peer's segment) return GASNET_INVALID_HANDLE; memset_nb to
 * another node returns a handle like put_nb's.  A direct copy (loopback,
 * a node peer with the node fast path on) is done on return and returns a
 * handle whose synchronization is only a memory fence (it orders the copy
 * before what follows; nbi ones: the thread's nbi sync fences).  Handles may be
 * synchronized from any thread.  put_nb and put_nbi (not _bulk) may reuse
 * `src` as soon as they return; the _bulk forms only after the operation
 * is synchronized. */
#define GASNET_INVALID_HANDLE ((gasnet_handle_t)0)
gasnet_handle_t gasnet_get_nb(void* dest, gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void* dest, void* src, size_t nbytes) GASKET_NOEXCEPT;
gasnet_handle_t gasnet_get_nb_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) GASKET_NOEXCEPT;
gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void* dest, int val, size_t nbytes) GASKET_NOEXCEPT;

/* §3.3.3: wait blocks until the operation(s) completed; try returns
 * GASNET_OK when complete (the handle is then dead) or GASNET_ERR_NOT_READY.
 * The list forms overwrite completed entries with GASNET_INVALID_HANDLE;
 * some = at least one valid handle completed (or none was valid).  A list
 * holding GEX_EVENT_NO_OP (a handle no operation returns; gasnet_handle_t is
 * gex_Event_t) ends the job naming the routine. */
void gasnet_wait_syncnb(gasnet_handle_t handle) GASKET_NOEXCEPT;
int gasnet_try_syncnb(gasnet_handle_t handle) GASKET_NOEXCEPT;
void gasnet_wait_syncnb_all(gasnet_handle_t* handles, size_t numhandles) GASKET_NOEXCEPT;
int gasnet_try_syncnb_all(gasnet_handle_t* handles, size_t numhandles) GASKET_NOEXCEPT;
void gasnet_wait_syncnb_some(gasnet_handle_t* handles, size_t numhandles) GASKET_NOEXCEPT;
int gasnet_try_syncnb_some(gasnet_handle_t* handles, size_t numhandles) GASKET_NOEXCEPT;

/* §3.3.4 implicit-handle operations, synchronized per thread by §3.3.5:
 * wait_* return when this thread's outstanding nbi gets / puts / both
 * (outside access regions) are complete; try_* return GASNET_OK then, or
 * GASNET_ERR_NOT_READY, at once (try_syncnbi_all also while a GASNet-EX
 * atomic, gex_AD_OpNBI, awaits its reply: gasnet_ratomic.h). */
void gasnet_get_nbi(void* dest, gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_put_nbi(gasnet_node_t node, void* dest, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_get_nbi_bulk(void* dest, gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_put_nbi_bulk(gasnet_node_t node, void* dest, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_memset_nbi(gasnet_node_t node, void* dest, int val, size_t nbytes) GASKET_NOEXCEPT;
void gasnet_wait_syncnbi_gets(void) GASKET_NOEXCEPT;
void gasnet_wait_syncnbi_puts(void) GASKET_NOEXCEPT;
void gasnet_wait_syncnbi_all(void) GASKET_NOEXCEPT;
int gasnet_try_syncnbi_gets(void) GASKET_NOEXCEPT;
int gasnet_try_syncnbi_puts(void) GASKET_NOEXCEPT;
int gasnet_try_syncnbi_all(void) GASKET_NOEXCEPT;

/* §3.3.6 access regions: nbi operations between begin and end belong to
 * the handle end returns (GASNET_INVALID_HANDLE if none needs syncing).
 * Nesting, end without begin, and nbi synchronization inside a region are
 * fatal. */
void gasnet_begin_nbi_accessregion(void) GASKET_NOEXCEPT;
gasnet_handle_t gasnet_end_nbi_accessregion(void) GASKET_NOEXCEPT;

/* §3.4 register-memory operations: 0 < nbytes <= SIZEOF_GASNET_REGISTER_VALUE_T;
 * the low-order nbytes bytes of `value` in native byte order; get_val
 * zero-extends. */
void gasnet_put_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) GASKET_NOEXCEPT;
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void* dest, gasnet_register_value_t value,
                                  size_t nbytes) GASKET_NOEXCEPT;
void gasnet_put_nbi_val(gasnet_node_t node, void* dest, gasnet_register_value_t value, size_t nbytes) GASKET_NOEXCEPT;
gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
/* §3.4.3: synchronized only by gasnet_wait_syncnb_valget, which returns the
 * value (the handle holds it: no allocation). */
typedef struct {
    gasnet_register_value_t value;
} gasnet_valget_handle_t;
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void* src, size_t nbytes) GASKET_NOEXCEPT;
gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) GASKET_NOEXCEPT;

/* §3.5 split-phase barriers over all nodes.  notify starts the barrier
 * (flags 0: named by `id`; GASNET_BARRIERFLAG_ANONYMOUS: no id;
 * GASNET_BARRIERFLAG_MISMATCH: force a mismatch everywhere) and returns at
 * once; wait blocks (serving Active Messages, honouring
 * gasnet_set_waitmode) until every node notified; try returns
 * GASNET_ERR_NOT_READY until then.  wait/try return GASNET_OK, or
 * GASNET_ERR_BARRIER_MISMATCH when: flags or (named) id differ from this
 * node's notify, any node notified with MISMATCH, or two nodes notified
 * different named ids.  A second notify before wait, or wait/try without
 * notify, is fatal.  Nothing is completed (sync nb/nbi operations first). */
#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
void gasnet_barrier_notify(int id, int flags) GASKET_NOEXCEPT;
int gasnet_barrier_wait(int id, int flags) GASKET_NOEXCEPT;
int gasnet_barrier_try(int id, int flags) GASKET_NOEXCEPT;

/* §3.6.1 thread information: Gasket finds its per-thread state through
 * thread-local storage, so these are cheap and purely optional. */
typedef void* gasnet_threadinfo_t;
gasnet_threadinfo_t gasket_gasnet_threadinfo(void) GASKET_NOEXCEPT;
#define GASNET_GET_THREADINFO() gasket_gasnet_threadinfo()
#define GASNET_POST_THREADINFO(info) gasnet_threadinfo_t gasket_threadinfo_posted_ __attribute__((unused)) = (info)
#define GASNET_BEGIN_FUNCTION() GASNET_POST_THREADINFO(GASNET_GET_THREADINFO())

/* ---- §3.6.2 wait mode ----------------------------------------------- */
#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2
/* Sets how GASNET_BLOCKUNTIL waits: spin, yield at once, or spin then yield
 * (the default).  Returns GASNET_OK or GASNET_ERR_BAD_ARG. */
int gasnet_set_waitmode(int wait_mode) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_H */
