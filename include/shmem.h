/*
 * shmem.h -- Gasket's OpenSHMEM 1.6 interface (openshmem-1.6-spec.md).
 *
 * Conventions for every routine below:
 *  - `pe` is a PE number in the world team, 0 <= pe < shmem_n_pes().
 *  - `nelems` counts elements of the routine's type (bytes for the *mem
 *    forms, SIZE/8 bytes for the sized forms); strides (dst, sst) count
 *    elements too.
 *  - "symmetric address": an address inside the symmetric heap or the
 *    executable's global/static data, the same object on every PE.
 *  - Errors: a PE out of range, a non-symmetric remote address, a transfer
 *    running past the end of its symmetric object's segment, or a call before
 *    shmem_init end the job with a message naming the routine and the bad
 *    value (the spec gives these routines no error return).  Allocation
 *    routines return NULL on exhaustion (with a message when SHMEM_DEBUG is
 *    set).
 *
 * Typed families are generated from gasket/shmem_type_tables.h.
 */
#ifndef GASKET_SHMEM_H
#define GASKET_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#include <gasket/shmem_type_tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- §6 library constants ------------------------------------------- */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 64
#define SHMEM_VENDOR_STRING "Gasket 0.1 (OpenSHMEM 1.6 over MPI-3)"

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* Deprecated _SHMEM_ aliases (Annex F.2.8). */
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

/* ---- §7 handles ------------------------------------------------------ */
/* A communication context (§9.5).  Only SHMEM_CTX_DEFAULT exists so far:
 * passing any other context to a shmem_ctx_* routine is a fatal error that
 * names the routine. */
typedef struct gasket_shmem_ctx *shmem_ctx_t;
extern shmem_ctx_t const gasket_shmem_ctx_default;
#define SHMEM_CTX_DEFAULT gasket_shmem_ctx_default
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

/* A team (§9.4): an ordered set of PEs with its own MPI communicator.
 * SHMEM_TEAM_WORLD holds every PE; SHMEM_TEAM_SHARED the PEs whose
 * symmetric memory this PE can load/store (shmem_ptr non-NULL): this
 * node's PEs with the node fast path, this PE alone without it. */
typedef struct gasket_shmem_team *shmem_team_t;
extern shmem_team_t const gasket_shmem_team_world;
extern shmem_team_t const gasket_shmem_team_shared;
#define SHMEM_TEAM_WORLD gasket_shmem_team_world
#define SHMEM_TEAM_SHARED gasket_shmem_team_shared
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* §9.4.3: team configuration; num_contexts (>= 0) is read when the
 * config_mask has SHMEM_TEAM_NUM_CONTEXTS. */
typedef struct {
    int num_contexts;
} shmem_team_config_t;

/* ---- §9.1 library setup, exit and query ------------------------------ */

/* §9.1.1: collective over all PEs; initializes MPI with MPI_THREAD_SINGLE
 * unless the application already did.  Fatal (message, job ends) if the
 * runtime cannot start, e.g. an invalid SHMEM_SYMMETRIC_SIZE. */
void shmem_init(void);
/* §9.2.1: as shmem_init; *provided (may be NULL) receives the thread level
 * granted (<= requested, never above what MPI provides).  Returns 0 on
 * success, nonzero (after a message) on failure such as a bad
 * SHMEM_SYMMETRIC_SIZE. */
int shmem_init_thread(int requested, int *provided);
/* §9.2.2: *provided receives the thread level granted at init. */
void shmem_query_thread(int *provided);
/* §9.1.4: collective; completes all communication (barrier), releases the
 * symmetric heap and MPI resources, and finalizes MPI only if shmem_init
 * initialized it.  Later calls are barriers. */
void shmem_finalize(void);
/* §9.1.5: *initialized = nonzero between init and finalize, else 0. */
void shmem_query_initialized(int *initialized);
/* §9.1.6: ends every PE of the job with exit code `status` (MPI_Abort). */
void shmem_global_exit(int status);
/* §9.1.2: this PE's number in the world team, 0..n_pes-1. */
int shmem_my_pe(void);
/* §9.1.3: number of PEs in the world team. */
int shmem_n_pes(void);
/* §9.1.7: 1 if `pe` is a valid PE of the job, else 0 (never fatal). */
int shmem_pe_accessible(int pe);
/* §9.1.8: 1 if `addr` is a symmetric address reachable on `pe`, else 0. */
int shmem_addr_accessible(const void *addr, int pe);
/* §9.1.9: a local pointer to the symmetric object `dest` on `pe` when `pe`
 * shares this node's memory (and the node fast path is on), for load/store;
 * NULL otherwise.  Never fatal. */
void *shmem_ptr(const void *dest, int pe);
/* §9.1.11: the OpenSHMEM version implemented (1, 6). */
void shmem_info_get_version(int *major, int *minor);
/* §9.1.12: copies SHMEM_VENDOR_STRING (at most SHMEM_MAX_NAME_LEN bytes
 * with its NUL) into `name`. */
void shmem_info_get_name(char *name);

/* ---- §9.4 teams ---------------------------------------------------- */
/* §9.4.1: this PE's number in `team` (0..n-1); -1 for SHMEM_TEAM_INVALID. */
int shmem_team_my_pe(shmem_team_t team);
/* §9.4.2: number of PEs in `team`; -1 for SHMEM_TEAM_INVALID. */
int shmem_team_n_pes(shmem_team_t team);

/* ---- §9.3 memory management (collective over the world team) ---------
 * Sizes are bytes.  Return NULL for size 0 (no barrier) or when the heap
 * (SHMEM_SYMMETRIC_SIZE bytes per PE) is exhausted; otherwise end with a
 * barrier so the block is usable on every PE at return. */
/* §9.3.1: block of >= size bytes, aligned for any object type. */
void *shmem_malloc(size_t size);
/* §9.3.2: barrier on entry, then frees `ptr` (NULL: no action).  A pointer
 * that is not a live heap block is a fatal error naming the address. */
void shmem_free(void *ptr);
/* §9.3.3: resizes `ptr` (NULL: as shmem_malloc; size 0: as shmem_free),
 * keeping min(old, new) bytes; barriers on entry and exit. */
void *shmem_realloc(void *ptr, size_t size);
/* §9.3.4: block aligned to `alignment` bytes (a power of two, multiple of
 * sizeof(void*), at most 2 MiB -- the alignment of every PE's heap base;
 * otherwise fatal, naming the value). */
void *shmem_align(size_t alignment, size_t size);
/* §9.3.5: as shmem_malloc.  Hints SHMEM_MALLOC_ATOMICS_REMOTE and
 * SHMEM_MALLOC_SIGNAL_REMOTE are accepted; they do not change placement
 * yet.  Unknown hint bits are fatal. */
void *shmem_malloc_with_hints(size_t size, long hints);
/* §9.3.6: count*size bytes, zeroed (overflow of count*size returns NULL). */
void *shmem_calloc(size_t count, size_t size);

/* ---- §9.6 remote memory access ----------------------------------------
 * Blocking put (§9.6.1.1) returns when `source` may be reused; delivery is
 * completed by shmem_quiet or a barrier.  Blocking get (§9.6.1.5) returns
 * with the data in `dest`.  p/g (§9.6.1.2, §9.6.1.6) move one element.
 * iput/iget (§9.6.1.3, §9.6.1.7): element i goes from source[i*sst] to
 * dest[i*dst].  ibput/ibget (§9.6.1.4, §9.6.1.8): block b of bsize elements
 * goes from source[b*sst] to dest[b*dst].  put_nbi/get_nbi (§9.6.2) return
 * at once; shmem_quiet completes them. */
#define GASKET_DECLARE_RMA(TYPE, NAME)                                                                \
    void shmem_##NAME##_put(TYPE *dest, const TYPE *source, size_t nelems, int pe);                   \
    void shmem_ctx_##NAME##_put(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems,       \
                                int pe);                                                              \
    void shmem_##NAME##_get(TYPE *dest, const TYPE *source, size_t nelems, int pe);                   \
    void shmem_ctx_##NAME##_get(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems,       \
                                int pe);                                                              \
    void shmem_##NAME##_p(TYPE *dest, TYPE value, int pe);                                            \
    void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);                       \
    TYPE shmem_##NAME##_g(const TYPE *source, int pe);                                                \
    TYPE shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const TYPE *source, int pe);                           \
    void shmem_##NAME##_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,            \
                             size_t nelems, int pe);                                                  \
    void shmem_ctx_##NAME##_iput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,      \
                                 ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_##NAME##_iget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,            \
                             size_t nelems, int pe);                                                  \
    void shmem_ctx_##NAME##_iget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,      \
                                 ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_##NAME##_ibput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,           \
                              size_t bsize, size_t nblocks, int pe);                                  \
    void shmem_ctx_##NAME##_ibput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,     \
                                  ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);               \
    void shmem_##NAME##_ibget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,           \
                              size_t bsize, size_t nblocks, int pe);                                  \
    void shmem_ctx_##NAME##_ibget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,     \
                                  ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);               \
    void shmem_##NAME##_put_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);               \
    void shmem_ctx_##NAME##_put_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems,   \
                                    int pe);                                                          \
    void shmem_##NAME##_get_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);               \
    void shmem_ctx_##NAME##_get_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems,   \
                                    int pe);
GASKET_STD_RMA_TYPES(GASKET_DECLARE_RMA)
#undef GASKET_DECLARE_RMA

/* Sized forms: SIZE in bits (8..128), nelems and strides in SIZE/8-byte units. */
#define GASKET_DECLARE_RMA_SIZED(BITS, BYTES)                                                          \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);                       \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);  \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);                       \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);  \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                          int pe);                                                                     \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems, int pe);                                   \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                          int pe);                                                                     \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems, int pe);                                   \
    void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                           size_t nblocks, int pe);                                                    \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,         \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);                   \
    void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                           size_t nblocks, int pe);                                                    \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,         \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);                   \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);                 \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,     \
                                   int pe);                                                            \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);                 \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,     \
                                   int pe);
GASKET_RMA_SIZES(GASKET_DECLARE_RMA_SIZED)
#undef GASKET_DECLARE_RMA_SIZED

/* Byte forms: nelems is a count of bytes. */
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

/* ---- §9.7 atomic memory operations -------------------------------------
 * `dest`/`source` are symmetric addresses of one TYPE object on PE `pe`.
 * Every AMO is a hardware atomic on the target's memory -- by this PE
 * through the node's shared mapping, or by an Active Message handler on
 * the target -- so all AMOs on one object are atomic with respect to each
 * other, whatever their mix.  Fetching routines return the value before
 * the operation.  The _nbi forms store it in *fetch (local memory) once
 * complete: by the next shmem_quiet (they may complete sooner).
 * Non-fetching AMOs are complete at the target by the next shmem_quiet,
 * and ordered by shmem_fence like puts.  Errors (PE out of range, address
 * not symmetric or past its segment) end the job with a message naming
 * the routine.  ctx must be SHMEM_CTX_DEFAULT. */
#define GASKET_DECLARE_AMO_EXT(TYPE, NAME)                                                                  \
    TYPE shmem_##NAME##_atomic_fetch(const TYPE *source, int pe);                                          \
    TYPE shmem_ctx_##NAME##_atomic_fetch(shmem_ctx_t ctx, const TYPE *source, int pe);                    \
    void shmem_##NAME##_atomic_set(TYPE *dest, TYPE value, int pe);                                        \
    void shmem_ctx_##NAME##_atomic_set(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);                  \
    TYPE shmem_##NAME##_atomic_swap(TYPE *dest, TYPE value, int pe);                                       \
    TYPE shmem_ctx_##NAME##_atomic_swap(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);                 \
    void shmem_##NAME##_atomic_fetch_nbi(TYPE *fetch, const TYPE *source, int pe);                         \
    void shmem_ctx_##NAME##_atomic_fetch_nbi(shmem_ctx_t ctx, TYPE *fetch, const TYPE *source, int pe);   \
    void shmem_##NAME##_atomic_swap_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);                      \
    void shmem_ctx_##NAME##_atomic_swap_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, TYPE value, int pe);
GASKET_EXT_AMO_TYPES(GASKET_DECLARE_AMO_EXT)
#undef GASKET_DECLARE_AMO_EXT

#define GASKET_DECLARE_AMO_STD(TYPE, NAME)                                                                           \
    TYPE shmem_##NAME##_atomic_compare_swap(TYPE *dest, TYPE cond, TYPE value, int pe);                             \
    TYPE shmem_ctx_##NAME##_atomic_compare_swap(shmem_ctx_t ctx, TYPE *dest, TYPE cond, TYPE value, int pe);       \
    TYPE shmem_##NAME##_atomic_fetch_inc(TYPE *dest, int pe);                                                       \
    TYPE shmem_ctx_##NAME##_atomic_fetch_inc(shmem_ctx_t ctx, TYPE *dest, int pe);                                 \
    void shmem_##NAME##_atomic_inc(TYPE *dest, int pe);                                                             \
    void shmem_ctx_##NAME##_atomic_inc(shmem_ctx_t ctx, TYPE *dest, int pe);                                       \
    TYPE shmem_##NAME##_atomic_fetch_add(TYPE *dest, TYPE value, int pe);                                           \
    TYPE shmem_ctx_##NAME##_atomic_fetch_add(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);                     \
    void shmem_##NAME##_atomic_add(TYPE *dest, TYPE value, int pe);                                                 \
    void shmem_ctx_##NAME##_atomic_add(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);                           \
    void shmem_##NAME##_atomic_compare_swap_nbi(TYPE *fetch, TYPE *dest, TYPE cond, TYPE value, int pe);            \
    void shmem_ctx_##NAME##_atomic_compare_swap_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, TYPE cond, TYPE value, \
                                                    int pe);                                                        \
    void shmem_##NAME##_atomic_fetch_inc_nbi(TYPE *fetch, TYPE *dest, int pe);                                      \
    void shmem_ctx_##NAME##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, int pe);                \
    void shmem_##NAME##_atomic_fetch_add_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);                          \
    void shmem_ctx_##NAME##_atomic_fetch_add_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, TYPE value, int pe);
GASKET_STD_AMO_TYPES(GASKET_DECLARE_AMO_STD)
#undef GASKET_DECLARE_AMO_STD

#define GASKET_DECLARE_AMO_BITWISE_OP(TYPE, NAME, OP)                                                       \
    TYPE shmem_##NAME##_atomic_fetch_##OP(TYPE *dest, TYPE value, int pe);                                 \
    TYPE shmem_ctx_##NAME##_atomic_fetch_##OP(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);           \
    void shmem_##NAME##_atomic_##OP(TYPE *dest, TYPE value, int pe);                                       \
    void shmem_ctx_##NAME##_atomic_##OP(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);                 \
    void shmem_##NAME##_atomic_fetch_##OP##_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);              \
    void shmem_ctx_##NAME##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, TYPE value, int pe);
#define GASKET_DECLARE_AMO_BIT(TYPE, NAME)             \
    GASKET_DECLARE_AMO_BITWISE_OP(TYPE, NAME, and)     \
    GASKET_DECLARE_AMO_BITWISE_OP(TYPE, NAME, or)      \
    GASKET_DECLARE_AMO_BITWISE_OP(TYPE, NAME, xor)
GASKET_BITWISE_AMO_TYPES(GASKET_DECLARE_AMO_BIT)
#undef GASKET_DECLARE_AMO_BIT
#undef GASKET_DECLARE_AMO_BITWISE_OP

/* Deprecated AMO names (Annex F.2.6): the same operations. */
#define GASKET_DECLARE_AMO_OLD_EXT(TYPE, NAME)               \
    TYPE shmem_##NAME##_fetch(const TYPE *source, int pe);   \
    void shmem_##NAME##_set(TYPE *dest, TYPE value, int pe); \
    TYPE shmem_##NAME##_swap(TYPE *dest, TYPE value, int pe);
GASKET_DEPRECATED_EXT_AMO_TYPES(GASKET_DECLARE_AMO_OLD_EXT)
#undef GASKET_DECLARE_AMO_OLD_EXT
#define GASKET_DECLARE_AMO_OLD_STD(TYPE, NAME)                            \
    TYPE shmem_##NAME##_cswap(TYPE *dest, TYPE cond, TYPE value, int pe); \
    TYPE shmem_##NAME##_finc(TYPE *dest, int pe);                         \
    void shmem_##NAME##_inc(TYPE *dest, int pe);                          \
    TYPE shmem_##NAME##_fadd(TYPE *dest, TYPE value, int pe);             \
    void shmem_##NAME##_add(TYPE *dest, TYPE value, int pe);
GASKET_DEPRECATED_STD_AMO_TYPES(GASKET_DECLARE_AMO_OLD_STD)
#undef GASKET_DECLARE_AMO_OLD_STD

/* ---- §9.8 signaling ------------------------------------------------------
 * put_signal: puts nelems elements (bytes for putmem, SIZE/8 bytes for
 * putSIZE) from source to dest on `pe`, then updates the uint64_t signal at
 * symmetric sig_addr on `pe` -- SHMEM_SIGNAL_SET stores `signal`,
 * SHMEM_SIGNAL_ADD adds it, atomically -- such that a PE that sees the
 * signal's new value also sees the data.  The _nbi forms may return
 * before the source may be reused; shmem_quiet completes them.  A sig_op
 * other than the two constants is fatal.  signal_add/set update a signal
 * atomically; signal_fetch reads this PE's signal atomically. */
/* One routine's four forms: shmem_NAME, shmem_CTXNAME and their _nbi. */
#define GASKET_DECLARE_PUT_SIGNAL_FORMS(NAME, CTXNAME, PTR, CPTR)                                              \
    void shmem_##NAME(PTR dest, CPTR source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op,   \
                      int pe);                                                                                 \
    void shmem_##CTXNAME(shmem_ctx_t ctx, PTR dest, CPTR source, size_t nelems, uint64_t *sig_addr,            \
                         uint64_t signal, int sig_op, int pe);                                                 \
    void shmem_##NAME##_nbi(PTR dest, CPTR source, size_t nelems, uint64_t *sig_addr, uint64_t signal,         \
                            int sig_op, int pe);                                                               \
    void shmem_##CTXNAME##_nbi(shmem_ctx_t ctx, PTR dest, CPTR source, size_t nelems, uint64_t *sig_addr,      \
                               uint64_t signal, int sig_op, int pe);
#define GASKET_DECLARE_PUT_SIGNAL(TYPE, NAME) \
    GASKET_DECLARE_PUT_SIGNAL_FORMS(NAME##_put_signal, ctx_##NAME##_put_signal, TYPE *, const TYPE *)
GASKET_STD_RMA_TYPES(GASKET_DECLARE_PUT_SIGNAL)
#undef GASKET_DECLARE_PUT_SIGNAL
#define GASKET_DECLARE_PUT_SIGNAL_SIZED(BITS, BYTES) \
    GASKET_DECLARE_PUT_SIGNAL_FORMS(put##BITS##_signal, ctx_put##BITS##_signal, void *, const void *)
GASKET_RMA_SIZES(GASKET_DECLARE_PUT_SIGNAL_SIZED)
#undef GASKET_DECLARE_PUT_SIGNAL_SIZED
GASKET_DECLARE_PUT_SIGNAL_FORMS(putmem_signal, ctx_putmem_signal, void *, const void *)
#undef GASKET_DECLARE_PUT_SIGNAL_FORMS
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
/* §9.11.15: waits until *sig_addr cmp cmp_value on this PE; returns the
 * signal's value that satisfied it. */
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- §9.10 collectives: gasket/shmem_coll.h, included below ---------- */

/* ---- §9.11 point-to-point synchronization -----------------------------
 * `ivar` is a symmetric address on this PE; `cmp` one of SHMEM_CMP_*
 * (anything else is fatal).  wait_until (§9.11.1) blocks until
 * `*ivar cmp cmp_value` holds; test (§9.11.8) returns 1 if it holds now,
 * else 0. */
#define GASKET_DECLARE_P2P(TYPE, NAME)                                    \
    void shmem_##NAME##_wait_until(TYPE *ivar, int cmp, TYPE cmp_value); \
    int shmem_##NAME##_test(TYPE *ivar, int cmp, TYPE cmp_value);
GASKET_P2P_SYNC_TYPES(GASKET_DECLARE_P2P)
#undef GASKET_DECLARE_P2P

/* §9.11.2-7, §9.11.9-14: over `nelems` objects ivars[0..nelems-1] (symmetric,
 * this PE); status[i] != 0 excludes ivars[i] (status may be NULL: none
 * excluded).  The _vector forms compare ivars[i] with cmp_values[i].
 *  wait_until_all: returns when every included ivar satisfies cmp.
 *  wait_until_any: returns the index of one satisfying ivar; SIZE_MAX if
 *    every ivar is excluded or nelems is 0 (returns at once).
 *  wait_until_some: stores the indices of all satisfying ivars (at least
 *    one) in `indices` and returns their count; 0 if none is included.
 *  test_all: 1 if every included ivar satisfies cmp now (also when none
 *    is included), else 0.
 *  test_any: an index of a satisfying ivar, or SIZE_MAX.
 *  test_some: the count of satisfying ivars, their indices in `indices`.
 * Waiting spins briefly, then polls politely (serving Active Messages and
 * yielding the core).  A bad cmp is fatal. */
#define GASKET_DECLARE_P2P_SET(TYPE, NAME)                                                                            \
    void shmem_##NAME##_wait_until_all(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value);       \
    size_t shmem_##NAME##_wait_until_any(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value);     \
    size_t shmem_##NAME##_wait_until_some(TYPE *ivars, size_t nelems, size_t *indices, const int *status, int cmp,    \
                                          TYPE cmp_value);                                                            \
    void shmem_##NAME##_wait_until_all_vector(TYPE *ivars, size_t nelems, const int *status, int cmp,                 \
                                              const TYPE *cmp_values);                                                \
    size_t shmem_##NAME##_wait_until_any_vector(TYPE *ivars, size_t nelems, const int *status, int cmp,               \
                                                const TYPE *cmp_values);                                              \
    size_t shmem_##NAME##_wait_until_some_vector(TYPE *ivars, size_t nelems, size_t *indices, const int *status,      \
                                                 int cmp, const TYPE *cmp_values);                                    \
    int shmem_##NAME##_test_all(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value);              \
    size_t shmem_##NAME##_test_any(TYPE *ivars, size_t nelems, const int *status, int cmp, TYPE cmp_value);           \
    size_t shmem_##NAME##_test_some(TYPE *ivars, size_t nelems, size_t *indices, const int *status, int cmp,          \
                                    TYPE cmp_value);                                                                  \
    int shmem_##NAME##_test_all_vector(TYPE *ivars, size_t nelems, const int *status, int cmp,                        \
                                       const TYPE *cmp_values);                                                       \
    size_t shmem_##NAME##_test_any_vector(TYPE *ivars, size_t nelems, const int *status, int cmp,                     \
                                          const TYPE *cmp_values);                                                    \
    size_t shmem_##NAME##_test_some_vector(TYPE *ivars, size_t nelems, size_t *indices, const int *status, int cmp,   \
                                           const TYPE *cmp_values);
GASKET_STD_AMO_TYPES(GASKET_DECLARE_P2P_SET)
#undef GASKET_DECLARE_P2P_SET

/* Deprecated (Annex F.2.10): wait until *ivar != cmp_value. */
#define GASKET_DECLARE_WAIT(TYPE, NAME) void shmem_##NAME##_wait(TYPE *ivar, TYPE cmp_value);
GASKET_DEPRECATED_WAIT_TYPES(GASKET_DECLARE_WAIT)
#undef GASKET_DECLARE_WAIT
void shmem_wait(long *ivar, long cmp_value);

/* ---- §9.12 memory ordering -------------------------------------------- */
/* §9.12.1: puts issued before the fence to one PE are delivered before puts
 * issued after it to that PE. */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
/* §9.12.2: completes every put, get and nbi operation this PE issued. */
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
/* §9.12.3: completes operations to the `npes` PEs listed in target_pes
 * (each must be a valid PE; target_pes may be NULL when npes is 0). */
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* ---- §9.13 distributed locking -------------------------------------------
 * `lock` is a symmetric long, zero before first use, the same object on
 * every PE (it lives on PE 0: its value there encodes a ticket lock, so
 * waiters are served in arrival order).  set_lock blocks until this PE
 * holds the lock; test_lock takes it if free and returns 0, else returns
 * 1 without waiting; clear_lock completes this PE's outstanding puts and
 * AMOs (shmem_quiet), then releases it.  Stores made while holding the
 * lock are visible to the next holder.  Clearing a lock this PE does not
 * hold is fatal. */
void shmem_set_lock(long *lock);
int shmem_test_lock(long *lock);
void shmem_clear_lock(long *lock);

/* ---- Annex F deprecated routines --------------------------------------- */
/* §9.1.13: shmem_init; npes is ignored (the job's size comes from mpirun). */
void start_pes(int npes);
int _my_pe(void);   /* = shmem_my_pe */
int _num_pes(void); /* = shmem_n_pes */
void *shmalloc(size_t size);                      /* = shmem_malloc */
void shfree(void *ptr);                           /* = shmem_free */
void *shrealloc(void *ptr, size_t size);          /* = shmem_realloc */
void *shmemalign(size_t alignment, size_t size);  /* = shmem_align */

/* §9.10 team-based and deprecated active-set collectives. */
#include <gasket/shmem_coll.h>

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
/* C++: overloaded functions with the C11 generic names. */
#include <gasket/shmem_cxx.h>
#include <gasket/shmem_coll_cxx.h>
#endif

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <gasket/shmem_generic.h>
#include <gasket/shmem_coll_generic.h>
#endif

#endif /* GASKET_SHMEM_H */
