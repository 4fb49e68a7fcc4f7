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
/* A: int status. */
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
/* S/E: the arguments of GASP_SHMEM_PUT, then uint64_t *sig_addr,
 * uint64_t signal, int sig_op. */
#define GASP_SHMEM_PUT_SIGNAL 0x53480015u
/* A: void *ctx, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe. */
#define GASP_SHMEM_SIGNAL_UPDATE 0x53480016u
/* S/E: uint64_t *sig_addr, int cmp, uint64_t cmp_value. */
#define GASP_SHMEM_SIGNAL_WAIT_UNTIL 0x53480017u
/* S/E: void *ivars, size_t nelems, int cmp, int typecode, int variant. */
#define GASP_SHMEM_WAIT_UNTIL 0x53480018u
/* A: the arguments of GASP_SHMEM_WAIT_UNTIL, then int result. */
#define GASP_SHMEM_TEST 0x53480019u
/* S/E: void *team, void *dest, const void *src, size_t nbytes, int root. */
#define GASP_SHMEM_BROADCAST 0x5348001Au
/* S/E: void *team, void *dest, const void *src, size_t nbytes. */
#define GASP_SHMEM_COLLECT 0x5348001Bu
/* S/E: as GASP_SHMEM_COLLECT. */
#define GASP_SHMEM_FCOLLECT 0x5348001Cu
/* S/E: void *team, void *dest, const void *src, size_t nbytes. */
#define GASP_SHMEM_ALLTOALL 0x5348001Du
/* S/E: as GASP_SHMEM_ALLTOALL, then ptrdiff_t dst_stride, ptrdiff_t sst_stride. */
#define GASP_SHMEM_ALLTOALLS 0x5348001Eu
/* S/E: void *team, void *dest, const void *src, size_t nreduce, int op
 * (gasp_shmem_reduce_op_t), int typecode (gasp_shmem_typecode_t). */
#define GASP_SHMEM_REDUCE 0x5348001Fu
/* S/E: as GASP_SHMEM_REDUCE, then int exclusive. */
#define GASP_SHMEM_SCAN 0x53480020u
/* S/E: void *parent_team, then E adds void *new_team. */
#define GASP_SHMEM_TEAM_SPLIT 0x53480021u
/* S/E: void *team. */
#define GASP_SHMEM_TEAM_DESTROY 0x53480022u
/* A: void *ctx, long options. */
#define GASP_SHMEM_CTX_CREATE 0x53480023u
/* A: void *ctx. */
#define GASP_SHMEM_CTX_DESTROY 0x53480024u
/* A: void *ctx, long options. */
#define GASP_SHMEM_SESSION_START 0x53480025u
/* A: void *ctx. */
#define GASP_SHMEM_SESSION_STOP 0x53480026u

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
/* S/E: int node, void *dest, int value, size_t nbytes. */
#define GASP_GASNET_MEMSET 0x47530006u
/* S/E: the arguments of GASP_SHMEM_PUT (ctx NULL); E adds void *handle
 * (the gasnet_handle_t; GASP_NB_TRIVIAL when it completed inline). */
#define GASP_GASNET_NB_PUT_INIT 0x47530007u
/* S/E: as GASP_GASNET_NB_PUT_INIT, for gets. */
#define GASP_GASNET_NB_GET_INIT 0x47530008u
/* S/E: void *handle. */
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

/* GASP_GASNET_AM_*'s category. */
typedef enum {
    GASP_GASNET_AM_SHORT = 1,
    GASP_GASNET_AM_MEDIUM,
    GASP_GASNET_AM_LONG,
    GASP_GASNET_AM_LONGASYNC
} gasp_gasnet_am_category_t;

#endif /* GASKET_GASP_SHMEM_H */
