/*
 * gasnetex.h -- Gasket's GASNet-EX API (gasnet-ex-api.txt, spec version
 * 0.19): clients, endpoints, segments, teams, events, RMA, and the system
 * queries.  gasnet.h (GASNet 1.8) includes this header; a program may use
 * both APIs (the GASNet-1 routines work whether or not gex_Client_Init got
 * GEX_FLAG_USES_GASNET1: Gasket does not refuse them).
 *
 * Remote atomics (gasnet_ratomic.h) and non-contiguous RMA (gasnet_vis.h)
 * are in their own headers, which clients include after this one.  This is
 * part of the API, and the collectives of gasnet_coll.h (gex_Coll_BarrierNB
 * is here, as the specification puts it).
 *
 * Conventions for every routine below:
 *  - Ranks: a (tm, rank) pair names an endpoint: `rank` counts in the team
 *    `tm` (0 .. gex_TM_QuerySize(tm) - 1).  A jobrank is a rank in the
 *    primordial team, which is every process in MPI_COMM_WORLD order (the
 *    same number as gasnet_mynode()).
 *  - Sizes are in bytes.  Addresses are host addresses.
 *  - Handles (gex_Client_t, gex_EP_t, gex_TM_t, gex_Segment_t) are checked:
 *    one that Gasket did not make, or GEX_*_INVALID where an object is
 *    needed, ends the job with a message naming the call and the value
 *    ("gasket: PE n: gex_RMA_PutBlocking: ...").  So do the errors the
 *    specification leaves undefined or calls erroneous: a rank out of range,
 *    a remote range outside the peer's bound segment, a flag the call does
 *    not accept (including every [UNIMPLEMENTED] flag), a bad lc_opt.
 *  - Routines with an int result that the specification gives error codes
 *    (gex_Client_Init, gex_Segment_Attach, ...) return GASNET_OK or a
 *    GASNET_ERR_* code, after printing a line naming the call and the value.
 *  - Every routine is declared GASKET_NOEXCEPT (gasket/noexcept.h).
 *  - Threading: as gasnet.h (define at most one of GASNET_SEQ,
 *    GASNET_PARSYNC, GASNET_PAR before including; GASNET_SEQ by default).
 */
#ifndef GASKET_GASNETEX_H
#define GASKET_GASNETEX_H

#include <gasnet_fwd.h>

#include <gasket/gasnet_arity.h>
#include <gasket/gasnet_common.h>
/* After gasnet_common.h (which settles the thread mode): "gasnetex.h:
 * GASNet-EX API + Tools" (gasnet_tools.h, docs/gasnet-tools.md). */
#include <gasnet_tools.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions ------------------------------------------------------ */
#define GEX_SPEC_VERSION_MAJOR 0
#define GEX_SPEC_VERSION_MINOR 19
/* Endpoints per client per process: the primordial one (index 0) and up to
 * 63 made by gex_EP_Create (gasnet-ex-memory-kinds.txt §3.1). */
#define GASNET_MAXEPS 64

/* ---- handles and scalar types -------------------------------------- */
typedef struct gasket_gex_client* gex_Client_t;   /* a client (one per job) */
typedef struct gasket_gex_ep* gex_EP_t;           /* an endpoint */
typedef struct gasket_gex_tm* gex_TM_t;           /* a team member, or a TM-pair (gex_TM_Pair) */
typedef struct gasket_gex_segment* gex_Segment_t; /* a segment */
#define GEX_CLIENT_INVALID ((gex_Client_t)0)
#define GEX_EP_INVALID ((gex_EP_t)0)
#define GEX_TM_INVALID ((gex_TM_t)0)
#define GEX_SEGMENT_INVALID ((gex_Segment_t)0)

/* A memory kind (gasnet-ex-memory-kinds.txt §4.1, §6.2): host memory
 * (GEX_MK_HOST, the kind of every gex_Segment_Attach segment) or a device's
 * memory, made by gex_MK_Create (gasnet_mk.h). */
typedef struct gasket_gex_mk* gex_MK_t;
#define GEX_MK_INVALID ((gex_MK_t)0)
#define GEX_MK_HOST ((gex_MK_t)1)
/* The memory kind classes compiled in (§6.3): host, and CUDA UVA (the
 * driver is loaded at run time: gex_MK_Create says when it is absent). */
#define GASNET_HAVE_MK_CLASS_HOST 1
#define GASNET_HAVE_MK_CLASS_CUDA_UVA 1
#define GASNET_HAVE_MK_CLASS_MULTIPLE 1

/* Interoperable with the GASNet-1 types of the same role. */
typedef gasnet_token_t gex_Token_t;
typedef gasnet_handler_t gex_AM_Index_t;
typedef gasnet_handlerarg_t gex_AM_Arg_t;
typedef gasnet_register_value_t gex_RMA_Value_t;
#define SIZEOF_GEX_RMA_VALUE_T SIZEOF_GASNET_REGISTER_VALUE_T

/* An address and a length in bytes; the same layout as gasnet_memvec_t. */
typedef struct {
    void* gex_addr;
    size_t gex_len;
} gex_Memvec_t;

/* An endpoint by (jobrank, endpoint index). */
typedef struct {
    gex_Rank_t gex_rank;
    gex_EP_Index_t gex_ep_index;
} gex_EP_Location_t;

/* A member of a neighbourhood or host (gex_System_Query{Nbrhd,Host}Info). */
typedef const struct gasket_gex_rankinfo { gex_Rank_t gex_jobrank; } gex_RankInfo_t;

/* Event categories, for gex_NBI_{Test,Wait} (a bitwise OR) and
 * gex_Event_QueryLeaf (exactly one). */
typedef uint32_t gex_EC_t;
#define GEX_EC_GET ((gex_EC_t)1u << 0) /* NBI gets */
#define GEX_EC_PUT ((gex_EC_t)1u << 1) /* NBI puts (remote completion) */
#define GEX_EC_AM ((gex_EC_t)1u << 2)  /* local completion of NBI AMs */
#define GEX_EC_LC ((gex_EC_t)1u << 3)  /* local completion of NBI puts given GEX_EVENT_GROUP */
#define GEX_EC_RMW ((gex_EC_t)1u << 4) /* NBI remote atomics */
#define GEX_EC_ALL ((gex_EC_t)0x1fu)

/* Handler indices a client may fix (gex_EP_RegisterHandlers, gasnet_attach):
 * GEX_AM_INDEX_BASE..255; below it, GASNet's own. */
#define GEX_AM_INDEX_BASE 128

/* ---- handler-safe locks: GASNet-1's (gasnet.h, §2.4.4), same type and
 * semantics (the checks of §2.4.5 included). */
typedef gasnet_hsl_t gex_HSL_t;
#define GEX_HSL_INITIALIZER GASNET_HSL_INITIALIZER
#define gex_HSL_Init(hsl) gasnet_hsl_init(hsl)
#define gex_HSL_Destroy(hsl) gasnet_hsl_destroy(hsl)
#define gex_HSL_Lock(hsl) gasnet_hsl_lock(hsl)
#define gex_HSL_Unlock(hsl) gasnet_hsl_unlock(hsl)
#define gex_HSL_Trylock(hsl) gasnet_hsl_trylock(hsl)

/* ---- system queries (job-wide; callable in handlers) ---------------- */

/* This process's jobrank and the job's size in processes: gasnet_mynode()
 * and gasnet_nodes().  Fatal before gex_Client_Init or gasnet_init. */
gex_Rank_t gex_System_QueryJobRank(void) GASKET_NOEXCEPT;
gex_Rank_t gex_System_QueryJobSize(void) GASKET_NOEXCEPT;

/* Whether the non-fatal errors of the calls with an error result print a
 * line on stderr (1, the default) or not (0).  Set: values other than 0
 * and 1 are refused with a message (the setting is unchanged). */
int gex_System_GetVerboseErrors(void) GASKET_NOEXCEPT;
void gex_System_SetVerboseErrors(int enable) GASKET_NOEXCEPT;

/* The most client threads that may enter GASNet at once: 1 in a
 * GASNET_SEQ client, else UINT64_MAX (no limit: per-thread state is freed
 * when a thread exits). */
#define gex_System_QueryMaxThreads() gasket_gex_System_QueryMaxThreads(GASKET_GASNET_THREAD_MODE)
uint64_t gasket_gex_System_QueryMaxThreads(int thread_mode) GASKET_NOEXCEPT;

/* The calling process's neighbourhood (the processes whose segments it
 * reaches by load and store: its node with the node fast path on, itself
 * alone with it off) and host (its node: the processes MPI puts in one
 * shared-memory communicator).  Each output may be NULL.  info_p: an array,
 * owned by Gasket, of one gex_RankInfo_t per member, by increasing jobrank;
 * info_count_p: the member count (>= 1); my_info_index_p: the caller's
 * index in it.  After gex_Client_Init or gasnet_init (fatal before). */
void gex_System_QueryNbrhdInfo(gex_RankInfo_t** info_p, gex_Rank_t* info_count_p,
                               gex_Rank_t* my_info_index_p) GASKET_NOEXCEPT;
void gex_System_QueryHostInfo(gex_RankInfo_t** info_p, gex_Rank_t* info_count_p,
                              gex_Rank_t* my_info_index_p) GASKET_NOEXCEPT;
/* The number of neighbourhoods and hosts in the job and the caller's index
 * among them (0-based, numbered by their lowest jobrank).  Each output may
 * be NULL. */
void gex_System_QueryMyPosition(gex_Rank_t* nbrhd_set_size_p, gex_Rank_t* nbrhd_set_rank_p, gex_Rank_t* host_set_size_p,
                                gex_Rank_t* host_set_rank_p) GASKET_NOEXCEPT;

/* Whether AM handlers may run on a thread the client does not own (Gasket's
 * progress thread, GASKET_PROGRESS_THREAD): the compile-time answer (it
 * may), and this process's (1 when the progress thread runs, or will run
 * once the segment is attached; 0 otherwise).  Fatal before gex_Client_Init. */
#define GASNET_HIDDEN_AM_CONCURRENCY_LEVEL 1
int gex_System_QueryHiddenAMConcurrencyLevel(void) GASKET_NOEXCEPT;

/* Deferred progress threads (gasnet-ex-api.txt "Deferred progress thread
 * initialization", [EXPERIMENTAL]): one progress thread a client that
 * passed GEX_FLAG_DEFER_THREADS to gex_Client_Init must start. */
typedef struct {
    const char* gex_device_list;     /* comma-separated devices it serves */
    unsigned int gex_thread_roles;   /* OR of GEX_THREAD_ROLE_* */
    void* (*gex_progress_fn)(void*); /* run in a joinable POSIX thread ... */
    void* gex_progress_arg;          /* ... with this argument */
} gex_ProgressThreadInfo_t;
#define GEX_THREAD_ROLE_RCV 1u
#define GEX_THREAD_ROLE_SND 2u
/* The progress threads the client must start: *count_p of them, described
 * by the array *info_p.  Gasket defers none: its progress thread
 * (GASKET_PROGRESS_THREAD) is its own and starts with the segment whatever
 * the flag, so *count_p is 0 (GASNET_RCV_THREAD and GASNET_SND_THREAD are
 * not defined: no GASNet receive or send thread can be requested).
 * Returns GASNET_OK; GASNET_ERR_RESOURCE when the client did not pass
 * GEX_FLAG_DEFER_THREADS; GASNET_ERR_BAD_ARG for a NULL count_p or info_p or
 * nonzero flags (each with a message naming the call and the value unless
 * gex_System_SetVerboseErrors(0)).  Fatal for a client handle Gasket did
 * not make. */
int gex_System_QueryProgressThreads(gex_Client_t client, unsigned int* count_p, const gex_ProgressThreadInfo_t** info_p,
                                    gex_Flags_t flags) GASKET_NOEXCEPT;

/* ---- client data: one pointer per object, NULL when made ------------ */
void gex_Client_SetCData(gex_Client_t client, const void* val) GASKET_NOEXCEPT;
void* gex_Client_QueryCData(gex_Client_t client) GASKET_NOEXCEPT;
void gex_Segment_SetCData(gex_Segment_t seg, const void* val) GASKET_NOEXCEPT;
void* gex_Segment_QueryCData(gex_Segment_t seg) GASKET_NOEXCEPT;
void gex_TM_SetCData(gex_TM_t tm, const void* val) GASKET_NOEXCEPT;
void* gex_TM_QueryCData(gex_TM_t tm) GASKET_NOEXCEPT;
void gex_EP_SetCData(gex_EP_t ep, const void* val) GASKET_NOEXCEPT;
void* gex_EP_QueryCData(gex_EP_t ep) GASKET_NOEXCEPT;

/* ---- clients --------------------------------------------------------- */

/* gex_Client_Init: collective over the job; once per process.  Starts the
 * job as gasnet_init does (MPI initialized unless the program did) and
 * makes the client, its primordial endpoint (index 0, no bound segment
 * yet) and the primordial team (every process, in jobrank order), stored
 * in *client_p, *ep_p and *tm_p (none may be NULL).  `clientName` must
 * match [A-Z][A-Z0-9_]+ and be the same everywhere; argc/argv may both be
 * NULL.  flags: GEX_FLAG_USES_GASNET1 and GEX_FLAG_DEFER_THREADS (accepted:
 * Gasket's progress thread starts with the segment, when
 * GASKET_PROGRESS_THREAD asks for it) only.  Ends with a barrier.
 * Returns GASNET_OK; GASNET_ERR_BAD_ARG for a NULL output, a bad name or
 * flag; GASNET_ERR_RESOURCE for a second call, a call after gasnet_init, or
 * a bad Gasket environment variable.  A macro, so that the client's thread
 * mode reaches the library. */
#define gex_Client_Init(client_p, ep_p, tm_p, clientName, argc, argv, flags) \
    gasket_gex_Client_Init((client_p), (ep_p), (tm_p), (clientName), (argc), (argv), (flags), GASKET_GASNET_THREAD_MODE)
int gasket_gex_Client_Init(gex_Client_t* client_p, gex_EP_t* ep_p, gex_TM_t* tm_p, const char* clientName, int* argc,
                           char*** argv, gex_Flags_t flags, int thread_mode) GASKET_NOEXCEPT;

/* The flags and name given to gex_Client_Init ("GASNET1" and
 * GEX_FLAG_USES_GASNET1 for the client gasnet_init makes). */
gex_Flags_t gex_Client_QueryFlags(gex_Client_t client) GASKET_NOEXCEPT;
const char* gex_Client_QueryName(gex_Client_t client) GASKET_NOEXCEPT;

/* ---- segments -------------------------------------------------------- */

/* gex_Segment_Attach: collective over `tm`, which must be the primordial
 * team; once per process.  Allocates this process's segment of `size`
 * bytes (a nonzero multiple of GASNET_PAGESIZE, at most
 * gasnet_getMaxLocalSegmentSize(); sizes may differ between processes),
 * binds it to the primordial endpoint and publishes it to every process
 * (what gasnet_attach does with segsize, registering no handler).  Stores
 * it in *segment_p.  Ends with a barrier.  Returns GASNET_OK;
 * GASNET_ERR_NOT_INIT before gex_Client_Init; GASNET_ERR_BAD_ARG for a NULL
 * segment_p, a tm that is not the primordial team, or a bad size;
 * GASNET_ERR_RESOURCE for a second call (or after gasnet_attach) or when
 * the memory cannot be had. */
int gex_Segment_Attach(gex_Segment_t* segment_p, gex_TM_t tm, uintptr_t size) GASKET_NOEXCEPT;

/* gex_Segment_Create (gasnet-ex-memory-kinds.txt §4.2; not collective, no
 * communication): a segment of memory kind `kind` for `client`, unbound
 * (gex_EP_BindSegment binds it).  address NULL: Gasket allocates `length`
 * bytes (GASNet-allocated, zeroed, rounded up to GASNET_PAGESIZE, which
 * gex_Segment_QuerySize reports); otherwise the segment describes the
 * client's [address, address + length), which must stay mapped, readable
 * and writable until gex_Segment_Destroy (client-allocated; not touched).
 * Stores the segment in *segment_p and returns GASNET_OK; or, printing a
 * line naming the call (unless gex_System_SetVerboseErrors(0)) and leaving
 * *segment_p unchanged: GASNET_ERR_BAD_ARG for a NULL segment_p, length 0,
 * a GASNet-allocated length over gasnet_getMaxLocalSegmentSize(), a client-
 * allocated range that wraps around, flags not 0, or a kind that is not
 * GEX_MK_HOST nor a live gex_MK_Create kind; GASNET_ERR_RESOURCE when the
 * memory cannot be had.  Fatal, naming the call: a client that is not this
 * process's.
 * A device kind (CUDA_UVA): address NULL allocates `length` bytes of the
 * device's memory (cuMemAlloc; not zeroed, not rounded); otherwise
 * [address, +length) must be that device's memory inside one allocation
 * (GASNET_ERR_BAD_ARG otherwise, saying what it is).  Such a segment may be
 * bound to a created endpoint and published (gex_EP_PublishBoundSegment):
 * RMA and Long payloads then reach it (docs/memory-kinds.md, step 5). */
int gex_Segment_Create(gex_Segment_t* segment_p, gex_Client_t client, gex_Addr_t address, uintptr_t length,
                       gex_MK_t kind, gex_Flags_t flags) GASKET_NOEXCEPT;

/* gex_Segment_Destroy (memory kinds §4.3; not collective): frees a
 * GASNet-allocated segment's memory (a client-allocated one's is the
 * client's) and makes the handle invalid: any later call naming it is
 * fatal.  The processes of this node it was published to that map it
 * (the node fast path: its pages, or a device segment opened by CUDA IPC)
 * unmap it first: one Active Message round trip to each, served by their
 * next poll or progress thread, so the call waits for them and the memory
 * is returned to the system when it returns.  It does not unbind the
 * segment from its endpoints (the specification's rule: using them with
 * its addresses is then erroneous; a Long payload or AMO that arrives
 * there later ends the job).  Fatal, naming the call: the
 * gex_Segment_Attach (or gasnet_attach) segment, a segment that is not a
 * live one of this process, flags not 0, a call inside an Active Message
 * handler or while holding a handler-safe lock (it may communicate,
 * §3.6 7). */
void gex_Segment_Destroy(gex_Segment_t segment, gex_Flags_t flags) GASKET_NOEXCEPT;

/* A segment's client, flags (0: no segment flag is defined), base address
 * and length in bytes. */
gex_Client_t gex_Segment_QueryClient(gex_Segment_t seg) GASKET_NOEXCEPT;
gex_Flags_t gex_Segment_QueryFlags(gex_Segment_t seg) GASKET_NOEXCEPT;
void* gex_Segment_QueryAddr(gex_Segment_t seg) GASKET_NOEXCEPT;
uintptr_t gex_Segment_QuerySize(gex_Segment_t seg) GASKET_NOEXCEPT;

/* [DEPRECATED in the specification since 0.13; see
 * gex_EP_QueryBoundSegmentNB.]  The bound segment of the endpoint (tm,
 * rank): returns 0 and writes each non-NULL output (as
 * gex_EP_QueryBoundSegmentNB), or nonzero, outputs untouched, when that
 * endpoint has no bound segment. */
int gex_Segment_QueryBound(gex_TM_t tm, gex_Rank_t rank, void** owneraddr_p, void** localaddr_p,
                           uintptr_t* size_p) GASKET_NOEXCEPT;

/* ---- teams ----------------------------------------------------------- */

/* A team's client, local endpoint (the primordial one, or the created
 * endpoint that is this process's member of a gex_TM_Create team over
 * created endpoints), flags (0 for the primordial team; a made team's:
 * those its constructor got), the caller's rank in it and its size.  A
 * TM-pair is refused (fatal). */
gex_Client_t gex_TM_QueryClient(gex_TM_t tm) GASKET_NOEXCEPT;
gex_EP_t gex_TM_QueryEP(gex_TM_t tm) GASKET_NOEXCEPT;
gex_Flags_t gex_TM_QueryFlags(gex_TM_t tm) GASKET_NOEXCEPT;
gex_Rank_t gex_TM_QueryRank(gex_TM_t tm) GASKET_NOEXCEPT;
gex_Rank_t gex_TM_QuerySize(gex_TM_t tm) GASKET_NOEXCEPT;

/* Team construction ("Operations on gex_TM_t"), collective over the parent
 * team `parent_tm` (the primordial team or a made one): every member
 * calls, in the same order relative to the parent's other collectives.
 * While waiting for the others a member serves Active Messages.  A made
 * team is valid in every call that takes a team (point-to-point calls name
 * its members by their rank in it; gex_AD_Create over it) until
 * gex_TM_Destroy.  Scratch space: Gasket's collectives need none; what a
 * client grants ([addr, +size) inside the caller's bound segment, size > 0,
 * fatal otherwise; for a team over created endpoints, the caller's member's
 * bound segment, of host memory) is left untouched and handed back by
 * gex_TM_Destroy.
 * Size queries (GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED, or the deprecated
 * _MIN, which prints a line saying so) make no team, need no
 * communication, and return 64 for a caller that would be a member, 0
 * otherwise; the other calls return 0.
 *
 * gex_TM_Split: the callers passing a non-NULL new_tm_p and the same
 * `color` (>= 0, fatal otherwise) form one new team, ranked by increasing
 * `key`, ties by parent rank; *new_tm_p receives it.  A caller passing NULL
 * joins no team.  flags: GEX_FLAG_TM_NO_SCRATCH (then scratch_addr and
 * scratch_size are ignored), or a size query.
 *
 * gex_TM_Create [memory kinds §5.3]: each caller naming its own process in
 * args[0..numargs-1] (gex_rank: a rank in parent_tm, or a jobrank with
 * GEX_FLAG_RANK_IS_JOBRANK; gex_ep_index: 0, or an endpoint made by
 * gex_EP_Create on that process; no endpoint twice, fatal otherwise)
 * joins the team of those endpoints, ranked in args[] order: new_tms[]
 * receives one handle per endpoint of this process that args[] names, in
 * rank order, and num_new_tms must be that count (0 for a caller args[]
 * does not name; fatal otherwise).  A team over created endpoints reaches
 * their segments by gex_RMA_*, VIS, Long AMs and atomic domains over it
 * (once published: gex_EP_PublishBoundSegment), from each handle's member
 * endpoint; its AMs run the members' endpoints' handlers, its collectives
 * run among the processes, and gex_TM_Split of it gives teams over the
 * same endpoints.  A team naming several endpoints of one process has all
 * of that, its collectives too (each handle starts its member's share:
 * gasnet_coll.h); each of its handles is destroyed on its own.  Every
 * member must pass the same args[] (fatal, on the members that see the
 * difference, otherwise); distinct teams' args[] must be disjoint, also
 * between the callers of one process (fatal, naming the shared endpoint).  flags: exactly one of
 * GEX_FLAG_TM_{GLOBAL,LOCAL,SYMMETRIC,NO}_SCRATCH (the scratch address of
 * the handle of rank r, this process's k-th member, is scratch_addrs[r],
 * [k], [0], or none), optionally GEX_FLAG_RANK_IS_JOBRANK, or a size query.
 * With LOCAL_SCRATCH the new team's processes also pass a barrier.
 * GEX_FLAG_SCRATCH_SEG_OFFSET is [UNIMPLEMENTED] (fatal).
 *
 * gex_TM_Destroy: collective over `tm`'s members, which must have
 * quiesced it (no call using it in flight, its atomic domains destroyed:
 * fatal naming how many remain otherwise); without
 * GEX_FLAG_GLOBALLY_QUIESCED the members meet first (a process holding
 * several members of the team meets the others at the last of its
 * handles destroyed).  The primordial team
 * cannot be destroyed (fatal).  Returns 1 and writes the scratch space the
 * team was given to *scratch_p when there was one and scratch_p is not
 * NULL, else 0.  `tm` is invalid afterwards (a call naming it is fatal).
 *
 * A parent (or orig_tm, or a publication's tm) naming several endpoints of
 * this process [memory kinds §5.3 10]: Split, Dup, Create over it and
 * gex_EP_PublishBoundSegment are collective over its members, so each of
 * this process's members calls, each from its own thread, at once (a
 * GASNET_PAR client only: fatal, naming the call, in any other); the first
 * to come wait, serving Active Messages, and the process takes part once
 * for all of them.  Split gives each member the team of its colour, which
 * may again name several endpoints of a process, and a process's members
 * may join different teams; Create gives each caller the handles of the
 * local endpoints its args[] names (callers of one process passing the
 * same args[] receive the same handles, each destroyed once).  Members of
 * this process in different such calls at once: fatal, naming both.
 *
 * Every call here (Split, Create, Dup, Destroy) communicates: inside an
 * AM handler or while holding an HSL it is fatal, naming the call. */
size_t gex_TM_Split(gex_TM_t* new_tm_p, gex_TM_t parent_tm, int color, int key, void* scratch_addr, size_t scratch_size,
                    gex_Flags_t flags) GASKET_NOEXCEPT;
size_t gex_TM_Create(gex_TM_t* new_tms, size_t num_new_tms, gex_TM_t parent_tm, gex_EP_Location_t* args, size_t numargs,
                     gex_Addr_t* scratch_addrs, size_t scratch_size, gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_TM_Destroy(gex_TM_t tm, gex_Memvec_t* scratch_p, gex_Flags_t flags) GASKET_NOEXCEPT;

/* gex_TM_Dup (gasnet-ex-memory-kinds.txt §5.2): collective over orig_tm's
 * members; stores in *new_tm_p a new team with the same members in the same
 * order (valid as gex_TM_Split's teams are, until gex_TM_Destroy), after
 * the members have met (serving Active Messages).  flags: exactly one of
 * GEX_FLAG_TM_SYMMETRIC_SCRATCH, _LOCAL_SCRATCH (then the new team's
 * members also pass a barrier over it) or _NO_SCRATCH; scratch
 * [scratch_addr, +scratch_len) as gex_TM_Split's (inside the caller's bound
 * segment, nonzero; handed back by gex_TM_Destroy).  With
 * GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED (or the deprecated _MIN) it only
 * returns the scratch size it recommends (no team, not collective);
 * otherwise returns 0.  Fatal, naming the call and the value: orig_tm not
 * a team of this process, other flags (GEX_FLAG_SCRATCH_SEG_OFFSET is
 * [UNIMPLEMENTED]), not exactly one scratch kind, new_tm_p NULL, scratch
 * outside the bound segment. */
size_t gex_TM_Dup(gex_TM_t* new_tm_p, gex_TM_t orig_tm, gex_Addr_t scratch_addr, size_t scratch_len,
                  gex_Flags_t flags) GASKET_NOEXCEPT;

/* gex_Coll_BarrierNB ("Collectives Part I"): a split-phase barrier over
 * `tm` (the primordial team or a made one), collective over its members.
 * Returns an event that completes (gex_Event_Wait*, or 0 from
 * gex_Event_Test*, which return GASNET_ERR_NOT_READY before) only once
 * every member has called; the call returns at once.  Initiation is a
 * release and completion an acquire for the calling thread's own loads
 * and stores, not for GASNet operations.  A member waiting on the event
 * serves Active Messages.  flags must be 0; a TM-pair is refused (both
 * fatal, naming the call).  Collectives over a team may be in flight
 * together; every member starts the team's collectives in the same order.
 * Over the primordial team they must not overlap a GASNet-1 barrier
 * (the specification's rule; not checked).  The other collectives are in
 * gasnet_coll.h. */
gex_Event_t gex_Coll_BarrierNB(gex_TM_t tm, gex_Flags_t flags) GASKET_NOEXCEPT;

/* gex_TM_Pair [memory kinds §5.4]: a TM-pair naming local endpoint
 * `local_ep` (any endpoint of this process) and, with the rank passed
 * beside it in a point-to-point call (a jobrank), the endpoint of index
 * `remote_ep_index` (0 .. GASNET_MAXEPS-1) on that process.  No
 * communication; two pairs are equal exactly when their arguments are, and
 * never equal a team.  Accepted by gex_RMA_* calls (a remote index >= 1
 * reaches that endpoint's segment once it is published to the caller:
 * gex_EP_PublishBoundSegment) and the bound-segment queries; AM, VIS and
 * atomic calls take only gex_TM_Pair(primordial endpoint, 0) so far (any
 * other pair is fatal there, naming the call), gex_TM_ and collective
 * calls none.  A handle that is no endpoint of this process or an index out
 * of range is fatal, naming the call. */
gex_TM_t gex_TM_Pair(gex_EP_t local_ep, gex_EP_Index_t remote_ep_index) GASKET_NOEXCEPT;

/* Jobrank of `rank` in `tm` (0 <= rank < size, fatal otherwise); rank in
 * `tm` of `jobrank` (0 <= jobrank < job size, fatal otherwise): in a team
 * naming several endpoints of that process, the least rank of them (memory
 * kinds §3.1, open issue 2: "any rank having the requested jobrank"), or
 * GEX_RANK_INVALID when that process is not a member.  No communication. */
gex_Rank_t gex_TM_TranslateRankToJobrank(gex_TM_t tm, gex_Rank_t rank) GASKET_NOEXCEPT;
gex_Rank_t gex_TM_TranslateJobrankToRank(gex_TM_t tm, gex_Rank_t jobrank) GASKET_NOEXCEPT;
/* (jobrank, endpoint index) of `rank` in `tm` (a created endpoint's index
 * in a gex_TM_Create team over them, else 0); flags must be 0.  The
 * specification lets it communicate (memory kinds §3.6), so it is fatal
 * inside an AM handler or while holding an HSL, as the calls that construct,
 * duplicate or destroy teams and gex_EP_PublishBoundSegment are. */
gex_EP_Location_t gex_TM_TranslateRankToEP(gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags) GASKET_NOEXCEPT;

/* ---- endpoints ------------------------------------------------------- */

/* gex_EP_Create (gasnet-ex-memory-kinds.txt §3.1; not collective): a new
 * endpoint of `client`, unbound and in no team, with index 1, 2, ... in
 * order of creation on this process (never reused: there is no destroy),
 * up to GASNET_MAXEPS - 1.  capabilities: a nonzero OR of
 * GEX_EP_CAPABILITY_* (§3.2); flags: 0 or an OR of GEX_FLAG_HINT_ACCEL_*
 * (§3.3; hints only, returned by gex_EP_QueryFlags).  Stores the endpoint
 * in *ep_p and returns GASNET_OK; or, printing a line naming the call
 * (unless gex_System_SetVerboseErrors(0)) and leaving *ep_p unchanged:
 * GASNET_ERR_BAD_ARG for a NULL ep_p, no capability, an unknown capability
 * or flag; GASNET_ERR_RESOURCE when GASNET_MAXEPS - 1 endpoints exist.
 * Fatal: a client that is not this process's.  Such an endpoint does not
 * communicate yet (teams and TM-pairs over it are issue 18's next step):
 * the calls that would use it say so and end the job. */
int gex_EP_Create(gex_EP_t* ep_p, gex_Client_t client, gex_EP_Capabilities_t capabilities,
                  gex_Flags_t flags) GASKET_NOEXCEPT;

/* gex_EP_BindSegment (§3.7; no communication): makes `segment` the bound
 * segment of `ep` (a segment may be bound to several endpoints).  flags
 * must be 0.  Returns GASNET_OK.  Fatal, naming the call and the value
 * (the specification calls these erroneous): an endpoint or a segment
 * that is not a live one of this process (GEX_EP_INVALID and
 * GEX_SEGMENT_INVALID included), an endpoint with a bound segment already
 * (the primordial one after gex_Segment_Attach), a device segment for the
 * primordial endpoint, flags not 0. */
int gex_EP_BindSegment(gex_EP_t ep, gex_Segment_t segment, gex_Flags_t flags) GASKET_NOEXCEPT;

/* An endpoint's client, flags (the primordial endpoint: 0; a created one:
 * the GEX_FLAG_HINT_ACCEL_* it was created with), bound segment
 * (GEX_SEGMENT_INVALID before one is bound) and index (0 for the
 * primordial endpoint). */
gex_Client_t gex_EP_QueryClient(gex_EP_t ep) GASKET_NOEXCEPT;
gex_Flags_t gex_EP_QueryFlags(gex_EP_t ep) GASKET_NOEXCEPT;
gex_Segment_t gex_EP_QuerySegment(gex_EP_t ep) GASKET_NOEXCEPT;
gex_EP_Index_t gex_EP_QueryIndex(gex_EP_t ep) GASKET_NOEXCEPT;

/* gex_EP_QueryBoundSegmentNB: the bound segment of endpoint (tm, rank)
 * (a team or TM-pair; rank != GEX_RANK_INVALID): its address in its owner
 * (*owneraddr_p), in this process (*localaddr_p: non-NULL only when this
 * process maps it, i.e. it is in this process's neighbourhood) and its
 * length (*size_p; 0 when the endpoint has no bound segment, or it is
 * another process's created endpoint whose segment was not published to
 * this one).  Each output may be NULL.  Every process's attach segment is
 * known after gex_Segment_Attach and created endpoints' after
 * gex_EP_PublishBoundSegment, so the query never communicates and returns
 * GEX_EVENT_INVALID, with GEX_FLAG_IMMEDIATE or without (the only flag
 * accepted). */
gex_Event_t gex_EP_QueryBoundSegmentNB(gex_TM_t tm, gex_Rank_t rank, void** owneraddr_p, void** localaddr_p,
                                       uintptr_t* size_p, gex_Flags_t flags) GASKET_NOEXCEPT;

/* gex_EP_PublishBoundSegment [gasnet-ex-api.txt]: collective over `tm` (a
 * team).  Publishes the bound segments of the created endpoints among
 * eps[0, num_eps) (num_eps may differ between members; the primordial
 * endpoint's segment is published by gex_Segment_Attach already): once it
 * returns, every member may reach each such segment by gex_RMA_* through
 * gex_TM_Pair(ep, index) and jobrank, and the bound-segment queries see it.
 * Returns GASNET_OK; GASNET_ERR_NOT_INIT before gex_Segment_Attach;
 * GASNET_ERR_BAD_ARG on every member when any member passed flags != 0, a
 * NULL eps with num_eps > 0 or an endpoint twice (each refusal printed,
 * naming the call, unless verbose errors are off).  A handle that is not
 * this process's is fatal.  Over a team naming several endpoints of this
 * process, each of them calls from its own thread, as for gex_TM_Split
 * (GASNET_PAR only; fatal otherwise), and an endpoint two of them name is
 * refused as named twice.
 * MPI reaches a published host segment (the node fast path aside) through
 * the job's dynamic window (Open MPI attaches at most osc_rdma_max_attach
 * regions to it, 32 by default). */
int gex_EP_PublishBoundSegment(gex_TM_t tm, gex_EP_t* eps, size_t num_eps, gex_Flags_t flags) GASKET_NOEXCEPT;

/* ---- Active Messages (gasnet-ex-api.txt, "AM handlers" .. "Fixed-payload
 * AM APIs"): the GASNet-1 engine, the same handlers table for the
 * primordial endpoint (an index is one handler whether gasnet_attach or
 * gex_EP_RegisterHandlers registered it), a table of its own for each
 * endpoint of gex_EP_Create (memory kinds §3), the same prototypes: Short void h(gex_Token_t, args...), Medium and Long
 * void h(gex_Token_t, void* buf, size_t nbytes, args...) with gex_AM_Arg_t
 * args.  Handlers run inside polls (gasnet_AMPoll, GASNET_BLOCKUNTIL) and
 * on Gasket's progress thread.  AMs need the segment attached
 * (gex_Segment_Attach; a page will do): before it, a request is fatal. */
typedef void (*gex_AM_Fn_t)();

/* One handler to register (gex_EP_RegisterHandlers).  gex_index: 0 ("don't
 * care") or GEX_AM_INDEX_BASE..255; gex_flags: one of GEX_FLAG_AM_SHORT,
 * _MEDIUM, _LONG, _MEDLONG ORed with one of GEX_FLAG_AM_REQUEST, _REPLY,
 * _REQREP; gex_nargs: 0..gex_AM_MaxArgs(), the argument count of every
 * call to it. */
typedef struct {
    gex_AM_Index_t gex_index;
    gex_AM_Fn_t gex_fnptr;
    gex_Flags_t gex_flags;
    unsigned int gex_nargs;
    const void* gex_cdata; /* the client's, for the handler (gex_Token_Info) */
    const char* gex_name;  /* in messages, when not NULL */
} gex_AM_Entry_t;

/* Registration flags (gex_AM_Entry_t.gex_flags, not call flags). */
#define GEX_FLAG_AM_SHORT ((gex_Flags_t)1u << 0)
#define GEX_FLAG_AM_MEDIUM ((gex_Flags_t)1u << 1)
#define GEX_FLAG_AM_LONG ((gex_Flags_t)1u << 2)
#define GEX_FLAG_AM_MEDLONG (GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG)
#define GEX_FLAG_AM_REQUEST ((gex_Flags_t)1u << 3)
#define GEX_FLAG_AM_REPLY ((gex_Flags_t)1u << 4)
#define GEX_FLAG_AM_REQREP (GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_REPLY)

/* gex_EP_RegisterHandlers: registers numentries handlers of `table` with
 * endpoint `ep`, the primordial one or one of gex_EP_Create, each with its
 * own table (not collective: register the same table on the same endpoint
 * everywhere before any process sends to it).  Fixed indices first; then each entry
 * with gex_index 0, in table order, gets the highest free index (written
 * back into the table).  May be called again to add handlers.  Returns
 * GASNET_OK; GASNET_ERR_BAD_ARG, with a message and nothing registered, for
 * a NULL table or function, an index below GEX_AM_INDEX_BASE or already
 * taken (here or by gasnet_attach), bad gex_flags, gex_nargs above
 * gex_AM_MaxArgs(), or no free index left. */
int gex_EP_RegisterHandlers(gex_EP_t ep, gex_AM_Entry_t* table, size_t numentries) GASKET_NOEXCEPT;

/* Limits, in arguments and bytes.  The Max queries: the largest nbytes of a
 * Medium (65536) or Long (1 GiB) to or from (tm, other_rank) -- the same
 * for every peer, numargs (0..16, fatal above), lc_opt and flags; the
 * Token forms, of a reply with `token`; LUB: the least over all. */
#define gex_AM_MaxArgs() ((unsigned int)GASKET_AM_MAX_ARGS)
size_t gex_AM_MaxRequestLong(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t* lc_opt, gex_Flags_t flags,
                             unsigned int numargs) GASKET_NOEXCEPT;
size_t gex_AM_MaxReplyLong(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t* lc_opt, gex_Flags_t flags,
                           unsigned int numargs) GASKET_NOEXCEPT;
size_t gex_AM_MaxRequestMedium(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t* lc_opt, gex_Flags_t flags,
                               unsigned int numargs) GASKET_NOEXCEPT;
size_t gex_AM_MaxReplyMedium(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t* lc_opt, gex_Flags_t flags,
                             unsigned int numargs) GASKET_NOEXCEPT;
size_t gex_Token_MaxReplyLong(gex_Token_t token, const gex_Event_t* lc_opt, gex_Flags_t flags,
                              unsigned int numargs) GASKET_NOEXCEPT;
size_t gex_Token_MaxReplyMedium(gex_Token_t token, const gex_Event_t* lc_opt, gex_Flags_t flags,
                                unsigned int numargs) GASKET_NOEXCEPT;
#define gex_AM_LUBRequestLong() ((size_t)GASKET_AM_MAX_LONG)
#define gex_AM_LUBReplyLong() ((size_t)GASKET_AM_MAX_LONG)
#define gex_AM_LUBRequestMedium() ((size_t)GASKET_AM_MAX_MEDIUM)
#define gex_AM_LUBReplyMedium() ((size_t)GASKET_AM_MAX_MEDIUM)

/* gex_Token_Info: in a handler, what its token says.  Fills the fields of
 * *info that `mask` (an OR of GEX_TI_*) asks for and returns the mask of
 * those it filled: all of them (Gasket supports every query).  gex_entry
 * points at the handler's registration (for a gasnet_attach handler: its
 * index and function, no flags), in the table of gex_ep, the endpoint
 * that received the message.  Fatal outside the handler that received
 * `token`. */
typedef uint32_t gex_TI_t;
#define GEX_TI_SRCRANK ((gex_TI_t)1u << 0)
#define GEX_TI_EP ((gex_TI_t)1u << 1)
#define GEX_TI_ENTRY ((gex_TI_t)1u << 2)
#define GEX_TI_IS_REQ ((gex_TI_t)1u << 3)
#define GEX_TI_IS_LONG ((gex_TI_t)1u << 4)
#define GEX_TI_ALL ((gex_TI_t)0x1fu)
#define GASNET_SUPPORTS_TI_SRCRANK 1
#define GASNET_SUPPORTS_TI_EP 1
#define GASNET_SUPPORTS_TI_ENTRY 1
#define GASNET_SUPPORTS_TI_IS_REQ 1
#define GASNET_SUPPORTS_TI_IS_LONG 1
typedef struct {
    gex_Rank_t gex_srcrank;          /* the sender's jobrank */
    gex_EP_t gex_ep;                 /* the receiving endpoint */
    const gex_AM_Entry_t* gex_entry; /* the running handler's registration */
    int gex_is_req;                  /* 1 in a request handler */
    int gex_is_long;                 /* 1 for a Long */
} gex_Token_Info_t;
gex_TI_t gex_Token_Info(gex_Token_t token, gex_Token_Info_t* info, gex_TI_t mask) GASKET_NOEXCEPT;

/* Requests and replies, for M = 0..16 arguments (gex_AM_Arg_t a0..aM-1):
 *
 *   int gex_AM_RequestShortM(tm, rank, handler, flags, a0..)
 *   int gex_AM_RequestMediumM(tm, rank, handler, source_addr, nbytes, lc_opt, flags, a0..)
 *   int gex_AM_RequestLongM(tm, rank, handler, source_addr, nbytes, dest_addr, lc_opt, flags, a0..)
 *   int gex_AM_ReplyShortM(token, handler, flags, a0..)
 *   int gex_AM_ReplyMediumM(token, handler, source_addr, nbytes, lc_opt, flags, a0..)
 *   int gex_AM_ReplyLongM(token, handler, source_addr, nbytes, dest_addr, lc_opt, flags, a0..)
 *
 * and the same names without M, which count the arguments.  (tm, rank) as
 * for RMA: the primordial team, a made team (over primordial or created
 * endpoints) or any TM-pair; the request is sent from the tm's local
 * endpoint and runs the handler of the destination endpoint's table; a
 * reply goes from the endpoint that received the request to the one that
 * sent it.  The payload is copied out
 * before the call returns, so every lc_opt is complete then: GEX_EVENT_NOW;
 * GEX_EVENT_GROUP (requests only: gex_NBI_*(GEX_EC_AM) has nothing to wait
 * for); a pointer to an event receives GEX_EVENT_INVALID.  GEX_EVENT_DEFER is
 * refused, as the specification says.  Long: [dest_addr, +nbytes) must lie
 * in the destination endpoint's segment (a created endpoint's: its bound
 * segment, published with gex_EP_PublishBoundSegment).  flags:
 * GEX_FLAG_IMMEDIATE only (accepted; the call always injects).  When both
 * ends have the same endpoint index, the handler registered at `handler`
 * on the sending endpoint must have been registered for this category
 * (Short, Medium, Long) and kind (request or reply) and with this argument
 * count; otherwise (the tables may differ) only the destination checks that
 * an index at or above GEX_AM_INDEX_BASE is registered there, ending the
 * job if not.  Returns 0; every error
 * -- a bad team, rank or flag, a payload over the maximum, a Long range
 * outside the segment, a handler not registered or registered otherwise --
 * ends the job with a message naming the call and the value.  Requests may
 * block while the destination's credits are used up, serving incoming
 * messages meanwhile.  Replies: only from a request handler, once. */
#define GASKET_GEX_AM_DECLARE(M)                                                                                 \
    int gex_AM_RequestShort##M(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler,                             \
                               gex_Flags_t flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                          \
    int gex_AM_RequestMedium##M(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void* source_addr,   \
                                size_t nbytes, gex_Event_t* lc_opt, gex_Flags_t flags GASKET_AM_PARAMS_##M)      \
        GASKET_NOEXCEPT;                                                                                         \
    int gex_AM_RequestLong##M(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void* source_addr,     \
                              size_t nbytes, void* dest_addr, gex_Event_t* lc_opt,                               \
                              gex_Flags_t flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                           \
    int gex_AM_ReplyShort##M(gex_Token_t token, gex_AM_Index_t handler, gex_Flags_t flags GASKET_AM_PARAMS_##M)  \
        GASKET_NOEXCEPT;                                                                                         \
    int gex_AM_ReplyMedium##M(gex_Token_t token, gex_AM_Index_t handler, const void* source_addr, size_t nbytes, \
                              gex_Event_t* lc_opt, gex_Flags_t flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;      \
    int gex_AM_ReplyLong##M(gex_Token_t token, gex_AM_Index_t handler, const void* source_addr, size_t nbytes,   \
                            void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags GASKET_AM_PARAMS_##M)        \
        GASKET_NOEXCEPT;
GASKET_AM_ARITIES(GASKET_GEX_AM_DECLARE)
#undef GASKET_GEX_AM_DECLARE

/* The forms without M: the argument count is counted (C99 / C++11). */
#define GASKET_GEX_NARGS(...) \
    GASKET_GEX_NARGS_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, _)
#define GASKET_GEX_NARGS_(_f, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define GASKET_GEX_CAT(a, b) GASKET_GEX_CAT_(a, b)
#define GASKET_GEX_CAT_(a, b) a##b
/* `flags` is the last fixed parameter of every form: what follows are args. */
#define gex_AM_RequestShort(tm, rank, handler, ...) \
    GASKET_GEX_CAT(gex_AM_RequestShort, GASKET_GEX_NARGS(__VA_ARGS__))(tm, rank, handler, __VA_ARGS__)
#define gex_AM_RequestMedium(tm, rank, handler, source_addr, nbytes, lc_opt, ...) \
    GASKET_GEX_CAT(gex_AM_RequestMedium, GASKET_GEX_NARGS(__VA_ARGS__))           \
    (tm, rank, handler, source_addr, nbytes, lc_opt, __VA_ARGS__)
#define gex_AM_RequestLong(tm, rank, handler, source_addr, nbytes, dest_addr, lc_opt, ...) \
    GASKET_GEX_CAT(gex_AM_RequestLong, GASKET_GEX_NARGS(__VA_ARGS__))                      \
    (tm, rank, handler, source_addr, nbytes, dest_addr, lc_opt, __VA_ARGS__)
#define gex_AM_ReplyShort(token, handler, ...) \
    GASKET_GEX_CAT(gex_AM_ReplyShort, GASKET_GEX_NARGS(__VA_ARGS__))(token, handler, __VA_ARGS__)
#define gex_AM_ReplyMedium(token, handler, source_addr, nbytes, lc_opt, ...) \
    GASKET_GEX_CAT(gex_AM_ReplyMedium, GASKET_GEX_NARGS(__VA_ARGS__))        \
    (token, handler, source_addr, nbytes, lc_opt, __VA_ARGS__)
#define gex_AM_ReplyLong(token, handler, source_addr, nbytes, dest_addr, lc_opt, ...) \
    GASKET_GEX_CAT(gex_AM_ReplyLong, GASKET_GEX_NARGS(__VA_ARGS__))                   \
    (token, handler, source_addr, nbytes, dest_addr, lc_opt, __VA_ARGS__)

/* ---- negotiated-payload Active Messages -----------------------------
 * (gasnet-ex-api.txt "Negotiated-payload AM APIs".)  A Prepare names the
 * destination (tm, rank) or the token of the request handler this thread
 * runs, the payload it offers -- client_buf, or NULL for a buffer Gasket
 * allocates (this thread's, aligned for any type) -- and least_payload <=
 * most_payload (bytes; least_payload at most the call's gex_AM_Max*),
 * lc_opt (client_buf only, else NULL; as for the fixed-payload calls),
 * flags (GEX_FLAG_IMMEDIATE, accepted: Gasket never declines) and numargs
 * (0..16).  It returns this thread's source descriptor: the buffer
 * (gex_AM_SrcDescAddr: client_buf, or Gasket's) and how much of it a
 * Commit may send (gex_AM_SrcDescSize: min(most_payload, the maximum),
 * never below least_payload).  Long: a non-NULL dest_addr at Prepare must
 * be the one given to Commit.
 *
 * The matching Commit (same kind, M = numargs; M may be left out and
 * counted) sends nbytes <= gex_AM_SrcDescSize(sd) from the buffer to
 * `handler` with the arguments, as the fixed-payload call of the same kind
 * does (the same registration checks); the _v2 forms take commit_flags
 * (GEX_FLAG_IMMEDIATE only; never declined, so they return 0).  A Cancel
 * drops the descriptor.  Between Prepare and Commit/Cancel the thread may
 * make no communication call; Prepares do not nest.
 *
 * Errors end the job, naming the call and the value: a bad team, rank or
 * token, least_payload over the maximum or above most_payload, lc_opt with
 * a GASNet-allocated buffer, bad flags or numargs, a Prepare while one is
 * pending, and at Commit/Cancel/queries a descriptor that is not this
 * thread's pending one (GEX_AM_SRCDESC_NO_OP included), a Commit of
 * another kind or argument count, nbytes over the descriptor's size, a
 * different dest_addr. */
typedef struct gasket_gex_srcdesc* gex_AM_SrcDesc_t;
#define GEX_AM_SRCDESC_NO_OP ((gex_AM_SrcDesc_t)0)
#define GASNET_SUPPORTS_AM_COMMIT_V2 20240906L
void* gex_AM_SrcDescAddr(gex_AM_SrcDesc_t sd) GASKET_NOEXCEPT;
size_t gex_AM_SrcDescSize(gex_AM_SrcDesc_t sd) GASKET_NOEXCEPT;
gex_AM_SrcDesc_t gex_AM_PrepareRequestMedium(gex_TM_t tm, gex_Rank_t rank, const void* client_buf, size_t least_payload,
                                             size_t most_payload, gex_Event_t* lc_opt, gex_Flags_t flags,
                                             unsigned int numargs) GASKET_NOEXCEPT;
gex_AM_SrcDesc_t gex_AM_PrepareReplyMedium(gex_Token_t token, const void* client_buf, size_t least_payload,
                                           size_t most_payload, gex_Event_t* lc_opt, gex_Flags_t flags,
                                           unsigned int numargs) GASKET_NOEXCEPT;
gex_AM_SrcDesc_t gex_AM_PrepareRequestLong(gex_TM_t tm, gex_Rank_t rank, const void* client_buf, size_t least_payload,
                                           size_t most_payload, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                                           unsigned int numargs) GASKET_NOEXCEPT;
gex_AM_SrcDesc_t gex_AM_PrepareReplyLong(gex_Token_t token, const void* client_buf, size_t least_payload,
                                         size_t most_payload, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                                         unsigned int numargs) GASKET_NOEXCEPT;
void gex_AM_CancelRequestMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags) GASKET_NOEXCEPT;
void gex_AM_CancelReplyMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags) GASKET_NOEXCEPT;
void gex_AM_CancelRequestLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags) GASKET_NOEXCEPT;
void gex_AM_CancelReplyLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags) GASKET_NOEXCEPT;
#define GASKET_GEX_AM_COMMIT_DECLARE(M)                                                                               \
    void gex_AM_CommitRequestMedium##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler,                                   \
                                       size_t nbytes GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                           \
    void gex_AM_CommitReplyMedium##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes GASKET_AM_PARAMS_##M) \
        GASKET_NOEXCEPT;                                                                                              \
    void gex_AM_CommitRequestLong##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                      \
                                     void* dest_addr GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                           \
    void gex_AM_CommitReplyLong##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                        \
                                   void* dest_addr GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;                             \
    int gex_AM_CommitRequestMedium##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                \
                                           gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;            \
    int gex_AM_CommitReplyMedium##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                  \
                                         gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;              \
    int gex_AM_CommitRequestLong##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes, void* dest_addr, \
                                         gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;              \
    int gex_AM_CommitReplyLong##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes, void* dest_addr,   \
                                       gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) GASKET_NOEXCEPT;
GASKET_AM_ARITIES(GASKET_GEX_AM_COMMIT_DECLARE)
#undef GASKET_GEX_AM_COMMIT_DECLARE
/* The Commit forms without M (nbytes, or dest_addr, or commit_flags is the
 * last fixed parameter: what follows are args). */
#define gex_AM_CommitRequestMedium(sd, handler, ...) \
    GASKET_GEX_CAT(gex_AM_CommitRequestMedium, GASKET_GEX_NARGS(__VA_ARGS__))(sd, handler, __VA_ARGS__)
#define gex_AM_CommitReplyMedium(sd, handler, ...) \
    GASKET_GEX_CAT(gex_AM_CommitReplyMedium, GASKET_GEX_NARGS(__VA_ARGS__))(sd, handler, __VA_ARGS__)
#define gex_AM_CommitRequestLong(sd, handler, nbytes, ...) \
    GASKET_GEX_CAT(gex_AM_CommitRequestLong, GASKET_GEX_NARGS(__VA_ARGS__))(sd, handler, nbytes, __VA_ARGS__)
#define gex_AM_CommitReplyLong(sd, handler, nbytes, ...) \
    GASKET_GEX_CAT(gex_AM_CommitReplyLong, GASKET_GEX_NARGS(__VA_ARGS__))(sd, handler, nbytes, __VA_ARGS__)
#define gex_AM_CommitRequestMedium_v2(sd, handler, nbytes, ...)                                    \
    GASKET_GEX_CAT(GASKET_GEX_CAT(gex_AM_CommitRequestMedium, GASKET_GEX_NARGS(__VA_ARGS__)), _v2) \
    (sd, handler, nbytes, __VA_ARGS__)
#define gex_AM_CommitReplyMedium_v2(sd, handler, nbytes, ...)                                    \
    GASKET_GEX_CAT(GASKET_GEX_CAT(gex_AM_CommitReplyMedium, GASKET_GEX_NARGS(__VA_ARGS__)), _v2) \
    (sd, handler, nbytes, __VA_ARGS__)
#define gex_AM_CommitRequestLong_v2(sd, handler, nbytes, dest_addr, ...)                         \
    GASKET_GEX_CAT(GASKET_GEX_CAT(gex_AM_CommitRequestLong, GASKET_GEX_NARGS(__VA_ARGS__)), _v2) \
    (sd, handler, nbytes, dest_addr, __VA_ARGS__)
#define gex_AM_CommitReplyLong_v2(sd, handler, nbytes, dest_addr, ...)                         \
    GASKET_GEX_CAT(GASKET_GEX_CAT(gex_AM_CommitReplyLong, GASKET_GEX_NARGS(__VA_ARGS__)), _v2) \
    (sd, handler, nbytes, dest_addr, __VA_ARGS__)

/* ---- RMA (contiguous) ----------------------------------------------
 * The remote side ([dest or src, + nbytes) at (tm, rank)) must lie in that
 * endpoint's bound segment; the local side is any memory.  nbytes 0 moves
 * nothing.  flags: GEX_FLAG_IMMEDIATE (accepted; Gasket never declines to
 * inject, so calls return 0 / an event, never "no op"),
 * GEX_FLAG_PEER_NEVER_SELF, GEX_FLAG_PEER_NEVER_NBRHD (assertions; not
 * checked).  lc_opt (puts): GEX_EVENT_NOW (the source may be reused on
 * return), GEX_EVENT_DEFER (not before the operation is synchronized),
 * GEX_EVENT_GROUP (NBI only: not before gex_NBI_{Test,Wait} with
 * GEX_EC_LC), or (NB only) a pointer to an event that receives the local
 * completion event (Gasket completes it before returning, and stores
 * GEX_EVENT_INVALID).
 *
 * Blocking: complete (the data is at the destination) on return.  NB:
 * returns a root event (GEX_EVENT_INVALID when already complete) to
 * synchronize with gex_Event_{Test,Wait}*.  NBI: synchronized by
 * gex_NBI_{Test,Wait} on the calling thread, or by the event of the access
 * region it is in.  Node peers are reached by direct copy with the node
 * fast path on (done on return; an NB or NBI one's synchronization is the
 * memory fence that orders it before what follows, so NB returns an event
 * for it), other processes by MPI RMA on the segment window; the same
 * route as gasnet_put/gasnet_get.  Returns 0. */
int gex_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes,
                        gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_RMA_PutNBI(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes, gex_Event_t* lc_opt,
                   gex_Flags_t flags) GASKET_NOEXCEPT;
gex_Event_t gex_RMA_PutNB(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes, gex_Event_t* lc_opt,
                          gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_RMA_GetBlocking(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                        gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_RMA_GetNBI(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                   gex_Flags_t flags) GASKET_NOEXCEPT;
gex_Event_t gex_RMA_GetNB(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                          gex_Flags_t flags) GASKET_NOEXCEPT;

/* Value forms: 1 <= nbytes <= SIZEOF_GEX_RMA_VALUE_T (fatal otherwise); the
 * low-order nbytes bytes of `value` are written; a get returns the bytes
 * read in the low-order bytes, the others 0. */
gex_RMA_Value_t gex_RMA_GetBlockingVal(gex_TM_t tm, gex_Rank_t rank, void* src, size_t nbytes,
                                       gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_RMA_PutBlockingVal(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes,
                           gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_RMA_PutNBIVal(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes,
                      gex_Flags_t flags) GASKET_NOEXCEPT;
gex_Event_t gex_RMA_PutNBVal(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes,
                             gex_Flags_t flags) GASKET_NOEXCEPT;

/* Inline forms of the ten contiguous calls above (gasnet-ex-api.txt,
 * "RMA"), as GASNet-EX's own headers have them.  A call site's lc_opt and
 * flags are almost always constants, and gasket_gex_primordial_tm (the
 * primordial team: gex_Client_Init's *tm_p, for the life of the process)
 * is a constant object, so the tests below fold away or leave one compare
 * in a loop when the client is compiled with optimization.  A call on the
 * primordial team (ranks are jobranks) goes straight to a
 * gasket_gex_primordial_* entry point: the call's other arguments (nbytes
 * in bytes), one entry point per lc_opt, which checks only the rank and
 * the remote range (a bad one ends the job naming the gex_RMA_* call, as
 * the call does) and returns what the call returns but for the int 0.
 * Whatever the tests do not take -- another team or a TM-pair, a flag
 * other than GEX_FLAG_IMMEDIATE, _PEER_NEVER_SELF and _PEER_NEVER_NBRHD; an
 * NBI put's GEX_EVENT_GROUP, an NB put's event pointer, a bad lc_opt --
 * goes to the function, which checks everything.  The functions stay:
 * taking the address, or writing the name in parentheses, reaches them. */
#define GASKET_GEX_RMA_FLAGS_OK(flags) \
    (((flags) & ~(GEX_FLAG_IMMEDIATE | GEX_FLAG_PEER_NEVER_SELF | GEX_FLAG_PEER_NEVER_NBRHD)) == 0)
#define GASKET_GEX_RMA_LC_OK(lc_opt) ((lc_opt) == GEX_EVENT_NOW || (lc_opt) == GEX_EVENT_DEFER)
extern gex_TM_t const gasket_gex_primordial_tm;
void gasket_gex_primordial_put_blocking(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasket_gex_primordial_put_nbi(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasket_gex_primordial_put_nbi_defer(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) GASKET_NOEXCEPT;
gex_Event_t gasket_gex_primordial_put_nb(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) GASKET_NOEXCEPT;
gex_Event_t gasket_gex_primordial_put_nb_defer(gex_Rank_t rank, void* dest, const void* src,
                                               size_t nbytes) GASKET_NOEXCEPT;
void gasket_gex_primordial_get_blocking(void* dest, gex_Rank_t rank, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasket_gex_primordial_get_nbi(void* dest, gex_Rank_t rank, void* src, size_t nbytes) GASKET_NOEXCEPT;
gex_Event_t gasket_gex_primordial_get_nb(void* dest, gex_Rank_t rank, void* src, size_t nbytes) GASKET_NOEXCEPT;
gex_RMA_Value_t gasket_gex_primordial_get_blocking_val(gex_Rank_t rank, void* src, size_t nbytes) GASKET_NOEXCEPT;
void gasket_gex_primordial_put_blocking_val(gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                            size_t nbytes) GASKET_NOEXCEPT;
void gasket_gex_primordial_put_nbi_val(gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                       size_t nbytes) GASKET_NOEXCEPT;
gex_Event_t gasket_gex_primordial_put_nb_val(gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                             size_t nbytes) GASKET_NOEXCEPT;
/* GASKET_GEX_PRIMORDIAL: tm is the primordial team and flags are accepted
 * (the lean entry points take neither). */
#define GASKET_GEX_PRIMORDIAL(tm, flags) ((tm) == gasket_gex_primordial_tm && GASKET_GEX_RMA_FLAGS_OK(flags))

static inline int gasket_gex_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes,
                                             gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_PutBlocking)(tm, rank, dest, src, nbytes, flags);
    gasket_gex_primordial_put_blocking(rank, dest, src, nbytes);
    return 0;
}
static inline int gasket_gex_RMA_PutNBI(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes,
                                        gex_Event_t* lc_opt, gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags) || !GASKET_GEX_RMA_LC_OK(lc_opt))
        return (gex_RMA_PutNBI)(tm, rank, dest, src, nbytes, lc_opt, flags);
    if (lc_opt == GEX_EVENT_NOW)
        gasket_gex_primordial_put_nbi(rank, dest, src, nbytes);
    else
        gasket_gex_primordial_put_nbi_defer(rank, dest, src, nbytes);
    return 0;
}
static inline gex_Event_t gasket_gex_RMA_PutNB(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes,
                                               gex_Event_t* lc_opt, gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags) || !GASKET_GEX_RMA_LC_OK(lc_opt))
        return (gex_RMA_PutNB)(tm, rank, dest, src, nbytes, lc_opt, flags);
    if (lc_opt == GEX_EVENT_NOW) return gasket_gex_primordial_put_nb(rank, dest, src, nbytes);
    return gasket_gex_primordial_put_nb_defer(rank, dest, src, nbytes);
}
static inline int gasket_gex_RMA_GetBlocking(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                                             gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_GetBlocking)(tm, dest, rank, src, nbytes, flags);
    gasket_gex_primordial_get_blocking(dest, rank, src, nbytes);
    return 0;
}
static inline int gasket_gex_RMA_GetNBI(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                                        gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_GetNBI)(tm, dest, rank, src, nbytes, flags);
    gasket_gex_primordial_get_nbi(dest, rank, src, nbytes);
    return 0;
}
static inline gex_Event_t gasket_gex_RMA_GetNB(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                                               gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_GetNB)(tm, dest, rank, src, nbytes, flags);
    return gasket_gex_primordial_get_nb(dest, rank, src, nbytes);
}
static inline gex_RMA_Value_t gasket_gex_RMA_GetBlockingVal(gex_TM_t tm, gex_Rank_t rank, void* src, size_t nbytes,
                                                            gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_GetBlockingVal)(tm, rank, src, nbytes, flags);
    return gasket_gex_primordial_get_blocking_val(rank, src, nbytes);
}
static inline int gasket_gex_RMA_PutBlockingVal(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                                size_t nbytes, gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_PutBlockingVal)(tm, rank, dest, value, nbytes, flags);
    gasket_gex_primordial_put_blocking_val(rank, dest, value, nbytes);
    return 0;
}
static inline int gasket_gex_RMA_PutNBIVal(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                           size_t nbytes, gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_PutNBIVal)(tm, rank, dest, value, nbytes, flags);
    gasket_gex_primordial_put_nbi_val(rank, dest, value, nbytes);
    return 0;
}
static inline gex_Event_t gasket_gex_RMA_PutNBVal(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                                  size_t nbytes, gex_Flags_t flags) GASKET_NOEXCEPT {
    if (!GASKET_GEX_PRIMORDIAL(tm, flags)) return (gex_RMA_PutNBVal)(tm, rank, dest, value, nbytes, flags);
    return gasket_gex_primordial_put_nb_val(rank, dest, value, nbytes);
}
#define gex_RMA_PutBlocking(tm, rank, dest, src, nbytes, flags) \
    gasket_gex_RMA_PutBlocking(tm, rank, dest, src, nbytes, flags)
#define gex_RMA_PutNBI(tm, rank, dest, src, nbytes, lc_opt, flags) \
    gasket_gex_RMA_PutNBI(tm, rank, dest, src, nbytes, lc_opt, flags)
#define gex_RMA_PutNB(tm, rank, dest, src, nbytes, lc_opt, flags) \
    gasket_gex_RMA_PutNB(tm, rank, dest, src, nbytes, lc_opt, flags)
#define gex_RMA_GetBlocking(tm, dest, rank, src, nbytes, flags) \
    gasket_gex_RMA_GetBlocking(tm, dest, rank, src, nbytes, flags)
#define gex_RMA_GetNBI(tm, dest, rank, src, nbytes, flags) gasket_gex_RMA_GetNBI(tm, dest, rank, src, nbytes, flags)
#define gex_RMA_GetNB(tm, dest, rank, src, nbytes, flags) gasket_gex_RMA_GetNB(tm, dest, rank, src, nbytes, flags)
#define gex_RMA_GetBlockingVal(tm, rank, src, nbytes, flags) gasket_gex_RMA_GetBlockingVal(tm, rank, src, nbytes, flags)
#define gex_RMA_PutBlockingVal(tm, rank, dest, value, nbytes, flags) \
    gasket_gex_RMA_PutBlockingVal(tm, rank, dest, value, nbytes, flags)
#define gex_RMA_PutNBIVal(tm, rank, dest, value, nbytes, flags) \
    gasket_gex_RMA_PutNBIVal(tm, rank, dest, value, nbytes, flags)
#define gex_RMA_PutNBVal(tm, rank, dest, value, nbytes, flags) \
    gasket_gex_RMA_PutNBVal(tm, rank, dest, value, nbytes, flags)

/* ---- NBI access regions (= gasnet_{begin,end}_nbi_accessregion) ------
 * The NBI operations the calling thread starts between Begin and End are
 * synchronized by the event End returns (GEX_EVENT_INVALID when there were
 * none).  Regions do not nest (fatal); flags must be 0. */
void gex_NBI_BeginAccessRegion(gex_Flags_t flags) GASKET_NOEXCEPT;
gex_Event_t gex_NBI_EndAccessRegion(gex_Flags_t flags) GASKET_NOEXCEPT;

/* ---- events ----------------------------------------------------------
 * Test: 0 (GASNET_OK) when complete (the event is consumed), else
 * GASNET_ERR_NOT_READY; Wait: returns when complete ("Event test/wait
 * operations").  Completing an RMA or VIS event is an MPI flush, which
 * needs nothing from the target, so Test always completes those.  Two
 * kinds need another process: a collective's event (gex_Coll_*NB), once
 * the other members have done their part, and a remote atomic's
 * (gex_AD_OpNB, or an access region holding gex_AD_OpNBI), once its reply
 * has come -- for atomics of the default context, once no such reply is
 * awaited.  Test never waits or polls for them: GASNET_ERR_NOT_READY (the
 * event stays valid); Wait serves Active Messages meanwhile.  The array
 * forms set every event they complete to GEX_EVENT_INVALID: Wait* complete
 * them all;
 * TestAll returns 0 when all are complete, TestSome when one completed in
 * the call (or none was valid); flags must be 0.  GEX_EVENT_NO_OP, alone
 * or in an array, ends the job naming the call.  GASNet-1 handles are
 * events (gasnet_try_syncnb* behave as Test*). */
int gex_Event_Test(gex_Event_t event) GASKET_NOEXCEPT;
void gex_Event_Wait(gex_Event_t event) GASKET_NOEXCEPT;
int gex_Event_TestSome(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) GASKET_NOEXCEPT;
void gex_Event_WaitSome(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) GASKET_NOEXCEPT;
int gex_Event_TestAll(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) GASKET_NOEXCEPT;
void gex_Event_WaitAll(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) GASKET_NOEXCEPT;

/* The calling thread's NBI operations of the categories in `event_mask`
 * (a nonzero OR of GEX_EC_*): Test returns 0 once they are complete
 * (GASNET_ERR_NOT_READY otherwise, without polling: with GEX_EC_RMW while
 * a remote atomic awaits its reply), Wait returns then.  Gasket completes
 * gets, puts and their local completion together.  Fatal inside an access
 * region; flags must be 0. */
int gex_NBI_Test(gex_EC_t event_mask, gex_Flags_t flags) GASKET_NOEXCEPT;
void gex_NBI_Wait(gex_EC_t event_mask, gex_Flags_t flags) GASKET_NOEXCEPT;

/* The leaf event of category `event_category` (one GEX_EC_*, not
 * GEX_EC_ALL) of root event `root`.  Gasket completes every leaf (local
 * completion) before the initiating call returns, so this is
 * GEX_EVENT_INVALID ("already happened"). */
gex_Event_t gex_Event_QueryLeaf(gex_Event_t root, gex_EC_t event_category) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNETEX_H */
