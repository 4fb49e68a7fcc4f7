/*
 * gasp_shmem.h -- Gasket's GASP events for OpenSHMEM and GASNet (the seed
 * spec, gasp-tool-interface.txt §6, leaves SHMEM to "a future revision";
 * this is Gasket's event set, GASP-EVENTS.md, following §5.5's conventions
 * for a model header).  Include gasp.h for the interface itself.
 *
 * Every event is delivered under the context gasp_init returned for
 * GASP_MODEL_SHMEM (GASNet programs too), with filename NULL and linenum,
 * colnum 0.  Below, for each event: its types (S/E: a GASP_START then a
 * GASP_END notification around the operation; A: one GASP_ATOMIC) and the
 * vararg arguments in order, as C types after the default argument
 * promotions (read them with va_arg(ap, TYPE) as written).  Pointers are
 * ordinary local addresses (a symmetric address as this PE sees it);
 * `ctx` is a shmem_ctx_t and `team` a shmem_team_t, both passed as
 * pointers (void * here, so that this header needs no shmem.h): the
 * handle the program named (SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD for the
 * routines without a ctx / team argument), NULL for GASNet operations.
 * PEs are world PE numbers (GASNet: node numbers).  Sizes are bytes.
 *
 * docs/gasp.md lists which events this version raises; the others are
 * defined here so that a tool can be written against the whole set, and
 * are raised by later versions (GASP_SHMEM_VERSION changes then).
 */
#ifndef GASKET_GASP_SHMEM_H
#define GASKET_GASP_SHMEM_H

#include <gasp.h>

/* The version of this event set (YYYYMMDD). */
#define GASP_SHMEM_VERSION 20261127

/* ---- OpenSHMEM events: 0x53480000 + n ------------------------------- */

/* E only, right after gasp_init: int requested, int provided (thread
 * levels; shmem_init: SHMEM_THREAD_SINGLE twice). */
#define GASP_SHMEM_INIT 0x53480001u
/* S/E: int is_last (1 when this shmem_finalize ends the library, 0 for an
 * inner one of nested inits).  END is raised after the job has ended: a
 * tool must not call OpenSHMEM from it. */
#define GASP_SHMEM_FINALIZE 0x53480002u
/* A, before the job is ended (the tool may flush its data from it): int
 * status. */
#define GASP_SHMEM_GLOBAL_EXIT 0x53480003u
/* S/E: void *team (shmem_barrier_all: SHMEM_TEAM_WORLD). */
#define GASP_SHMEM_BARRIER_ALL 0x53480004u
/* S/E: void *team (shmem_sync_all: SHMEM_TEAM_WORLD; shmem_team_sync). */
#define GASP_SHMEM_SYNC 0x53480005u
/* S/E: int PE_start, int logPE_stride, int PE_size (deprecated active set). */
#define GASP_SHMEM_BARRIER 0x53480006u
/* S/E: void *ctx. */
#define GASP_SHMEM_FENCE 0x53480007u
/* S/E: void *ctx. */
#define GASP_SHMEM_QUIET 0x53480008u
/* S/E: void *ctx, const int *pes, size_t npes. */
#define GASP_SHMEM_PE_QUIET 0x53480009u
/* S: size_t nbytes, size_t align, long hints; E: the same, then void *ptr
 * (the result, NULL on failure).  shmem_malloc: align 0, hints 0;
 * shmem_calloc: nbytes = count * size; shmem_align: align as given;
 * shmem_malloc_with_hints: hints as given. */
#define GASP_SHMEM_MALLOC 0x5348000Au
/* S: void *ptr, size_t nbytes; E: the same, then void *newptr. */
#define GASP_SHMEM_REALLOC 0x5348000Bu
/* S/E: void *ptr. */
#define GASP_SHMEM_FREE 0x5348000Cu
/* S/E: long *lock. */
#define GASP_SHMEM_SET_LOCK 0x5348000Du
/* S: long *lock; E: long *lock, int result. */
#define GASP_SHMEM_TEST_LOCK 0x5348000Eu
/* S/E: long *lock. */
#define GASP_SHMEM_CLEAR_LOCK 0x5348000Fu
/* S/E (blocking put; also GASNet's blocking puts): void *ctx, int pe,
 * void *dest, const void *src, size_t nbytes, ptrdiff_t dst_stride,
 * ptrdiff_t src_stride, size_t bsize.  Contiguous: strides 1 and bsize =
 * nbytes.  iput/ibput: strides and bsize in elements, as the program
 * passed them, nbytes the total moved. */
#define GASP_SHMEM_PUT 0x53480010u
/* S/E: as GASP_SHMEM_PUT (dest local, src on pe). */
#define GASP_SHMEM_GET 0x53480011u
/* S/E around the initiation of a put_nbi: the arguments of
 * GASP_SHMEM_PUT; END adds void *handle (the ctx: SHMEM has no per-operation
 * handle).  Completion is reported by the GASP_SHMEM_QUIET that ends it. */
#define GASP_SHMEM_PUT_NBI_INIT 0x53480012u
/* S/E: as GASP_SHMEM_PUT_NBI_INIT, for get_nbi. */
#define GASP_SHMEM_GET_NBI_INIT 0x53480013u
/* S/E for fetching AMOs, A for non-fetching ones: void *ctx, int op
 * (gasp_shmem_amo_op_t), int typecode (gasp_shmem_typecode_t), void *dest,
 * int pe, int is_fetching, int is_nbi. */
#define GASP_SHMEM_AMO 0x53480014u
/* S/E around a put with signal, blocking or _nbi (both complete before
 * returning): the arguments of GASP_SHMEM_PUT (contiguous: strides 1,
 * bsize = nbytes), then uint64_t *sig_addr, uint64_t signal, int sig_op
 * (SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD). */
#define GASP_SHMEM_PUT_SIGNAL 0x53480015u
/* A, before the update is issued: void *ctx, uint64_t *sig_addr, uint64_t
 * signal, int sig_op (shmem_signal_add: SHMEM_SIGNAL_ADD; shmem_signal_set:
 * SHMEM_SIGNAL_SET), int pe. */
#define GASP_SHMEM_SIGNAL_UPDATE 0x53480016u
/* S/E: uint64_t *sig_addr, int cmp (SHMEM_CMP_*), uint64_t cmp_value. */
#define GASP_SHMEM_SIGNAL_WAIT_UNTIL 0x53480017u
/* S/E: void *ivars, size_t nelems, int cmp (SHMEM_CMP_*), int typecode
 * (gasp_shmem_typecode_t), int variant (gasp_shmem_wait_variant_t).
 * shmem_TYPE_wait_until and the deprecated shmem_wait forms: nelems 1,
 * variant GASP_SHMEM_WAIT_SINGLE (shmem_wait: cmp SHMEM_CMP_NE). */
#define GASP_SHMEM_WAIT_UNTIL 0x53480018u
/* A, after the test: the arguments of GASP_SHMEM_WAIT_UNTIL, then size_t
 * result (what the routine returns: 1 or 0 for test and test_all; the
 * index for test_any, SIZE_MAX when none; the count for test_some). */
#define GASP_SHMEM_TEST 0x53480019u
/* S/E: void *team, void *dest, const void *src, size_t nbytes, int root
 * (as the program passed it, relative to the team or active set).  For
 * every collective below, the deprecated active-set forms (shmem_broadcast32,
 * shmem_collect64, shmem_TYPE_OP_to_all, ...) pass team NULL
 * (SHMEM_TEAM_INVALID: they have no team), and nbytes is what this PE
 * sends (collect: its own contribution; alltoall(s): one PE's block). */
#define GASP_SHMEM_BROADCAST 0x5348001Au
/* S/E: void *team, void *dest, const void *src, size_t nbytes. */
#define GASP_SHMEM_COLLECT 0x5348001Bu
/* S/E: as GASP_SHMEM_COLLECT. */
#define GASP_SHMEM_FCOLLECT 0x5348001Cu
/* S/E: void *team, void *dest, const void *src, size_t nbytes. */
#define GASP_SHMEM_ALLTOALL 0x5348001Du
/* S/E: as GASP_SHMEM_ALLTOALL, then ptrdiff_t dst_stride, ptrdiff_t
 * sst_stride (in elements, as the program passed them). */
#define GASP_SHMEM_ALLTOALLS 0x5348001Eu
/* S/E: void *team, void *dest, const void *src, size_t nreduce (elements),
 * int op (gasp_shmem_reduce_op_t), int type (gasp_shmem_reduction_t: the
 * C type the routine names). */
#define GASP_SHMEM_REDUCE 0x5348001Fu
/* S/E: as GASP_SHMEM_REDUCE (op GASP_SHMEM_REDUCE_SUM), then int exclusive
 * (shmem_TYPE_sum_exscan: 1; _inscan: 0). */
#define GASP_SHMEM_SCAN 0x53480020u
/* S: void *parent_team; E: void *parent_team, void *new_team, void
 * *yaxis_team.  shmem_team_split_strided: new_team is the new team,
 * yaxis_team NULL; shmem_team_split_2d: the x-axis and y-axis teams.
 * SHMEM_TEAM_INVALID (NULL) where no team was made. */
#define GASP_SHMEM_TEAM_SPLIT 0x53480021u
/* S/E: void *team. */
#define GASP_SHMEM_TEAM_DESTROY 0x53480022u
/* A, after shmem_ctx_create / shmem_team_create_ctx: void *ctx (the new
 * context; SHMEM_CTX_INVALID, NULL, when none was made), long options,
 * void *team (shmem_ctx_create: SHMEM_TEAM_WORLD). */
#define GASP_SHMEM_CTX_CREATE 0x53480023u
/* A, before the context is destroyed: void *ctx.  shmem_team_destroy
 * raises one for each context it destroys with the team. */
#define GASP_SHMEM_CTX_DESTROY 0x53480024u
/* A: void *ctx, long options. */
#define GASP_SHMEM_SESSION_START 0x53480025u
/* A: void *ctx. */
#define GASP_SHMEM_SESSION_STOP 0x53480026u
/* A, after the read: uint64_t *sig_addr, uint64_t value (what
 * shmem_signal_fetch returns). */
#define GASP_SHMEM_SIGNAL_FETCH 0x53480027u

/* ---- GASNet implementation events (§5.5's GASP_X_Y): 0x47530000 + n ---
 * GASNet's blocking puts and gets raise GASP_SHMEM_PUT / GASP_SHMEM_GET
 * (ctx NULL, strides 1, bsize = nbytes). */

/* A: int status. */
#define GASP_GASNET_EXIT 0x47530001u
/* S/E: int named (flags == 0), int id. */
#define GASP_GASNET_BARRIER_NOTIFY 0x47530002u
/* S/E: int named, int id; E adds int result (GASNET_OK or an error code). */
#define GASP_GASNET_BARRIER_WAIT 0x47530003u
/* S/E: int named, int id; E adds int result. */
#define GASP_GASNET_BARRIER_TRY 0x47530004u
/* S/E: void *hsl. */
#define GASP_GASNET_HSL_LOCK 0x47530005u
/* S/E around gasnet_memset, _nb and _nbi (for the last two: around the
 * initiation; the syncs complete them, GASP_GASNET_NB_SYNC): S: int node,
 * void *dest, int value, size_t nbytes; E: the same, then void *handle (the
 * gasnet_handle_t; GASP_NB_TRIVIAL for the blocking and _nbi forms and
 * when it completed at once). */
#define GASP_GASNET_MEMSET 0x47530006u
/* S/E: the arguments of GASP_SHMEM_PUT (ctx NULL); E adds void *handle
 * (the gasnet_handle_t; GASP_NB_TRIVIAL when it completed inline). */
#define GASP_GASNET_NB_PUT_INIT 0x47530007u
/* S/E: as GASP_GASNET_NB_PUT_INIT, for gets. */
#define GASP_GASNET_NB_GET_INIT 0x47530008u
/* S/E around a sync that has something to complete (a valid handle; for
 * the implicit-handle syncs, operations this thread initiated since its
 * last sync); a sync with nothing to complete raises nothing.  void
 * *handle, int kind (gasp_gasnet_sync_t), size_t count, int result.
 * gasnet_wait_syncnb / try_syncnb: the handle, count 1; _all/_some: handle
 * the address of the program's array (the handles are invalid after the
 * sync), count its length; wait/try_syncnbi_*: GASP_NB_TRIVIAL, count 0.
 * result: what a try returns (Gasket's syncs complete at once: GASNET_OK;
 * GASNET_OK for the waits too). */
#define GASP_GASNET_NB_SYNC 0x47530009u
/* S/E: int category (gasp_gasnet_am_category_t), int handler (the
 * gasnet_handler_t index), int peer (node), size_t nbytes (payload, 0 for
 * Short), int nargs. */
#define GASP_GASNET_AM_REQUEST 0x4753000Au
/* S/E: as GASP_GASNET_AM_REQUEST. */
#define GASP_GASNET_AM_REPLY 0x4753000Bu
/* S/E around a handler's run on the receiving node: as
 * GASP_GASNET_AM_REQUEST, peer being the sender, then int is_reply. */
#define GASP_GASNET_AM_HANDLER 0x4753000Cu

/* The "handle" of a non-blocking operation that completed at once. */
#define GASP_NB_TRIVIAL ((void*)0)

/* User events (shmemx_create_event, gasp_create_event): a tool returns
 * ids in this range; without a tool shmemx_create_event numbers them from
 * the start of it, and a program that makes more ends with a fatal error. */
#define GASP_SHMEM_USEREVT_START 0x55000000u
#define GASP_SHMEM_USEREVT_END 0x5500FFFFu

/* GASP_SHMEM_AMO's op: the operation as performed (an inc is an ADD of 1,
 * a fetch_inc a fetching ADD of 1). */
typedef enum {
    GASP_SHMEM_AMO_FETCH = 1,
    GASP_SHMEM_AMO_SET,
    GASP_SHMEM_AMO_SWAP,
    GASP_SHMEM_AMO_COMPARE_SWAP,
    GASP_SHMEM_AMO_ADD,
    GASP_SHMEM_AMO_AND,
    GASP_SHMEM_AMO_OR,
    GASP_SHMEM_AMO_XOR
} gasp_shmem_amo_op_t;

/* A typecode: the element's representation (C types of the same width
 * and kind share one: int and int32_t are GASP_SHMEM_TYPE_INT32, long
 * and long long on LP64 GASP_SHMEM_TYPE_INT64). */
typedef enum {
    GASP_SHMEM_TYPE_INT8 = 1,
    GASP_SHMEM_TYPE_INT16,
    GASP_SHMEM_TYPE_INT32,
    GASP_SHMEM_TYPE_INT64,
    GASP_SHMEM_TYPE_UINT8,
    GASP_SHMEM_TYPE_UINT16,
    GASP_SHMEM_TYPE_UINT32,
    GASP_SHMEM_TYPE_UINT64,
    GASP_SHMEM_TYPE_FLOAT,
    GASP_SHMEM_TYPE_DOUBLE,
    GASP_SHMEM_TYPE_LONGDOUBLE,
    GASP_SHMEM_TYPE_OTHER
} gasp_shmem_typecode_t;

/* GASP_SHMEM_REDUCE's op. */
typedef enum {
    GASP_SHMEM_REDUCE_AND = 1,
    GASP_SHMEM_REDUCE_OR,
    GASP_SHMEM_REDUCE_XOR,
    GASP_SHMEM_REDUCE_MIN,
    GASP_SHMEM_REDUCE_MAX,
    GASP_SHMEM_REDUCE_SUM,
    GASP_SHMEM_REDUCE_PROD
} gasp_shmem_reduce_op_t;

/* GASP_SHMEM_WAIT_UNTIL's and GASP_SHMEM_TEST's variant: which routine. */
typedef enum {
    GASP_SHMEM_WAIT_SINGLE = 1, /* wait_until, test, the deprecated wait */
    GASP_SHMEM_WAIT_ALL,
    GASP_SHMEM_WAIT_ANY,
    GASP_SHMEM_WAIT_SOME,
    GASP_SHMEM_WAIT_ALL_VECTOR,
    GASP_SHMEM_WAIT_ANY_VECTOR,
    GASP_SHMEM_WAIT_SOME_VECTOR
} gasp_shmem_wait_variant_t;

/* GASP_SHMEM_REDUCE's and GASP_SHMEM_SCAN's type: the C type the routine
 * names.  The first eleven are gasp_upc_reduction_t's (§5.4, same order and
 * values: C is signed char, as in UPC); then the types UPC lacks. */
typedef enum {
    GASP_SHMEM_REDUCTION_C = 0,
    GASP_SHMEM_REDUCTION_UC,
    GASP_SHMEM_REDUCTION_S,
    GASP_SHMEM_REDUCTION_US,
    GASP_SHMEM_REDUCTION_I,
    GASP_SHMEM_REDUCTION_UI,
    GASP_SHMEM_REDUCTION_L,
    GASP_SHMEM_REDUCTION_UL,
    GASP_SHMEM_REDUCTION_F,
    GASP_SHMEM_REDUCTION_D,
    GASP_SHMEM_REDUCTION_LD,
    GASP_SHMEM_REDUCTION_CHAR, /* plain char */
    GASP_SHMEM_REDUCTION_LL,
    GASP_SHMEM_REDUCTION_ULL,
    GASP_SHMEM_REDUCTION_INT8,
    GASP_SHMEM_REDUCTION_INT16,
    GASP_SHMEM_REDUCTION_INT32,
    GASP_SHMEM_REDUCTION_INT64,
    GASP_SHMEM_REDUCTION_UINT8,
    GASP_SHMEM_REDUCTION_UINT16,
    GASP_SHMEM_REDUCTION_UINT32,
    GASP_SHMEM_REDUCTION_UINT64,
    GASP_SHMEM_REDUCTION_SIZE,
    GASP_SHMEM_REDUCTION_PTRDIFF,
    GASP_SHMEM_REDUCTION_COMPLEXF,
    GASP_SHMEM_REDUCTION_COMPLEXD
} gasp_shmem_reduction_t;

/* GASP_GASNET_NB_SYNC's kind: which sync routine. */
typedef enum {
    GASP_GASNET_SYNC_WAIT_NB = 1, /* gasnet_wait_syncnb */
    GASP_GASNET_SYNC_TRY_NB,
    GASP_GASNET_SYNC_WAIT_NB_ALL,
    GASP_GASNET_SYNC_TRY_NB_ALL,
    GASP_GASNET_SYNC_WAIT_NB_SOME,
    GASP_GASNET_SYNC_TRY_NB_SOME,
    GASP_GASNET_SYNC_WAIT_NBI_ALL, /* gasnet_wait_syncnbi_all */
    GASP_GASNET_SYNC_TRY_NBI_ALL,
    GASP_GASNET_SYNC_WAIT_NBI_GETS,
    GASP_GASNET_SYNC_TRY_NBI_GETS,
    GASP_GASNET_SYNC_WAIT_NBI_PUTS,
    GASP_GASNET_SYNC_TRY_NBI_PUTS
} gasp_gasnet_sync_t;

/* GASP_GASNET_AM_*'s category. */
typedef enum {
    GASP_GASNET_AM_SHORT = 1,
    GASP_GASNET_AM_MEDIUM,
    GASP_GASNET_AM_LONG,
    GASP_GASNET_AM_LONGASYNC
} gasp_gasnet_am_category_t;

#endif /* GASKET_GASP_SHMEM_H */
