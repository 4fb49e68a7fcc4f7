/*
 * gasket/shmem_coll.h -- §9.10 collectives (included by shmem.h inside its
 * extern "C" block; do not include directly).
 *
 * Conventions for every routine below:
 *  - Team forms (§9.10, "team-based"): every PE of `team` calls the routine,
 *    in the same order as its other collectives on that team; PE numbers
 *    (PE_root) are team PE numbers.  They return 0 on success and nonzero
 *    after an error message when the call cannot be made: `team` is
 *    SHMEM_TEAM_INVALID (the PE is in no team, so nobody waits for it) or
 *    PE_root is outside 0..n-1 of the team.  A destroyed team handle, a
 *    dest/source that is not a symmetric object large enough for the
 *    operation, or a call before shmem_init end the job with a message
 *    naming the routine and the bad value.
 *  - Deprecated active-set forms (Annex F.2.14): the PEs PE_start,
 *    PE_start + 2^logPE_stride, ... (PE_size of them) call the routine; a
 *    malformed set (PE_size < 1, logPE_stride < 0, a member >= shmem_n_pes())
 *    or a caller outside the set ends the job with a message.  pSync must be
 *    a symmetric array of the stated size and pWrk a symmetric array of
 *    max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements (both
 *    checked); Gasket never reads or writes them (MPI holds the collective's
 *    state), so they keep their contents and may be reused at once.
 *  - `nelems`/`nreduce` count elements of the routine's type (bytes for the
 *    *mem forms, 4 or 8 bytes for the 32/64 forms); nelems = 0 is a valid
 *    collective that moves nothing.  dst/sst strides count elements, >= 1.
 *  - dest and source are symmetric objects, the same on every PE.  For
 *    reductions and scans they are the same address (in place) or disjoint;
 *    other collectives accept overlapping buffers too (through a copy).
 *  - Completion: every routine returns when this PE's dest is complete and
 *    its source may be reused.  shmem_barrier_all/shmem_barrier also
 *    complete this PE's outstanding puts, AMOs and nbi operations first
 *    (shmem_quiet); the other routines complete no RMA.  Waiting PEs serve
 *    AMOs aimed at them, so an AMO issued before a collective cannot
 *    deadlock it.
 *  - C11 generic names (shmem_broadcast(team, dest, source, n, root), ...)
 *    are in gasket/shmem_coll_generic.h, the C++ overloads with the same
 *    names in gasket/shmem_coll_cxx.h.
 *  - shmem_sync: the C symbol is the deprecated active-set form
 *    (shmem_sync(PE_start, logPE_stride, PE_size, pSync)); the team form
 *    shmem_sync(team) is a C11 macro (one argument selects
 *    shmem_team_sync) and a C++ overload.
 */
#ifndef GASKET_SHMEM_COLL_H
#define GASKET_SHMEM_COLL_H

/* ---- deprecated active-set constants (§6, Annex F.2.8, F.2.14) --------- */
/* Value of every pSync element before first use. */
#define SHMEM_SYNC_VALUE 0L
/* pSync lengths, in longs, for each routine family; SHMEM_SYNC_SIZE serves
 * any of them. */
#define SHMEM_SYNC_SIZE 8
#define SHMEM_BARRIER_SYNC_SIZE 8
#define SHMEM_BCAST_SYNC_SIZE 8
#define SHMEM_COLLECT_SYNC_SIZE 8
#define SHMEM_REDUCE_SYNC_SIZE 8
#define SHMEM_ALLTOALL_SYNC_SIZE 8
#define SHMEM_ALLTOALLS_SYNC_SIZE 8
/* Minimum pWrk length, in elements of the reduction's type. */
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 8
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- §9.10.1-4 barriers and syncs -------------------------------------- */
/* §9.10.1: completes this PE's outstanding operations on the default
 * context (shmem_quiet), then waits for every PE. */
void shmem_barrier_all(void);
/* §9.10.2 (deprecated): shmem_quiet, then waits for every PE of the active
 * set.  pSync: SHMEM_BARRIER_SYNC_SIZE longs. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* §9.10.3: waits for every PE of `team`; orders this PE's earlier stores
 * before the other PEs' later accesses but completes no RMA (call
 * shmem_quiet first for that).  0, or nonzero for SHMEM_TEAM_INVALID. */
int shmem_team_sync(shmem_team_t team);
/* §9.10.3 (deprecated active-set form; see the note above on the C11 team
 * form): as shmem_team_sync over the active set.  pSync: SHMEM_SYNC_SIZE
 * longs. */
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* §9.10.4: shmem_team_sync(SHMEM_TEAM_WORLD). */
void shmem_sync_all(void);

/* ---- §9.10.5-8 data movement, every Table 5 type ----------------------
 * alltoall (§9.10.5): source holds n_pes blocks of nelems elements, block
 *   j for team PE j; dest receives block i from team PE i (both n_pes *
 *   nelems elements).
 * alltoalls (§9.10.6): as alltoall with strides: element k of block j is
 *   source[sst * (j * nelems + k)], landing at dest[dst * (i * nelems + k)]
 *   on PE j for sender i.
 * broadcast (§9.10.7): nelems elements of source on team PE PE_root to dest
 *   on every PE of the team, the root included.
 * collect (§9.10.8): dest = the concatenation of every PE's nelems elements
 *   of source in team PE order; nelems may differ between PEs (the total
 *   is at most 2^31-1 bytes; more ends the job with a message).
 * fcollect (§9.10.8): collect with the same nelems on every PE. */
#define GASKET_DECLARE_COLL_RMA(TYPE, NAME)                                                                  \
    int shmem_##NAME##_alltoall(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);         \
    int shmem_##NAME##_alltoalls(shmem_team_t team, TYPE *dest, const TYPE *source, ptrdiff_t dst,         \
                                 ptrdiff_t sst, size_t nelems);                                            \
    int shmem_##NAME##_broadcast(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems,         \
                                 int PE_root);                                                             \
    int shmem_##NAME##_collect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);          \
    int shmem_##NAME##_fcollect(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);
GASKET_STD_RMA_TYPES(GASKET_DECLARE_COLL_RMA)
#undef GASKET_DECLARE_COLL_RMA
/* The same on bytes. */
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems);
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);

/* Deprecated active-set forms on 4- or 8-byte elements, as the team forms
 * over the active set, except that broadcast leaves dest on the root
 * untouched (PE_root counts within the active set, 0..PE_size-1).  pSync:
 * SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_ALLTOALLS_SYNC_SIZE, SHMEM_BCAST_SYNC_SIZE,
 * SHMEM_COLLECT_SYNC_SIZE longs. */
#define GASKET_DECLARE_COLL_SIZED(BITS, BYTES)                                                               \
    void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, \
                              int PE_size, long *pSync);                                                    \
    void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                               int PE_start, int logPE_stride, int PE_size, long *pSync);                   \
    void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,    \
                               int logPE_stride, int PE_size, long *pSync);                                 \
    void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, \
                             int PE_size, long *pSync);                                                     \
    void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, \
                              int PE_size, long *pSync);
GASKET_COLL_SIZES(GASKET_DECLARE_COLL_SIZED)
#undef GASKET_DECLARE_COLL_SIZED

/* ---- §9.10.9 reductions, §9.10.10 scans (Table 10) ---------------------
 * OP_reduce: dest[i] = source[i] of team PE 0 OP source[i] of PE 1 OP ...,
 *   i < nreduce, on every PE of the team.  AND, OR, XOR are bitwise; SUM
 *   and PROD of integers wrap as the type's arithmetic does; floating-point
 *   results depend on MPI's order of operations.
 * sum_inscan: dest[i] on team PE p = the sum of source[i] over PEs 0..p;
 * sum_exscan: over PEs 0..p-1, and 0 on PE 0. */
#define GASKET_DECLARE_REDUCE_OP(TYPE, NAME, OP, ENUM) \
    int shmem_##NAME##_##OP##_reduce(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nreduce);
#define GASKET_DECLARE_REDUCE_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(GASKET_DECLARE_REDUCE_OP, TYPE, NAME)
#define GASKET_DECLARE_REDUCE_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(GASKET_DECLARE_REDUCE_OP, TYPE, NAME)
#define GASKET_DECLARE_REDUCE_ARITH(TYPE, NAME)                                                        \
    GASKET_REDUCE_ARITH_OPS(GASKET_DECLARE_REDUCE_OP, TYPE, NAME)                                      \
    int shmem_##NAME##_sum_inscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems); \
    int shmem_##NAME##_sum_exscan(shmem_team_t team, TYPE *dest, const TYPE *source, size_t nelems);
GASKET_TEAM_REDUCE_BITWISE_TYPES(GASKET_DECLARE_REDUCE_BITWISE)
GASKET_TEAM_REDUCE_MINMAX_TYPES(GASKET_DECLARE_REDUCE_MINMAX)
GASKET_TEAM_REDUCE_ARITH_TYPES(GASKET_DECLARE_REDUCE_ARITH)
#undef GASKET_DECLARE_REDUCE_BITWISE
#undef GASKET_DECLARE_REDUCE_MINMAX
#undef GASKET_DECLARE_REDUCE_ARITH
#undef GASKET_DECLARE_REDUCE_OP

/* Deprecated active-set reductions (Table 11): as OP_reduce over the active
 * set; nreduce >= 0 (negative ends the job).  pWrk: max(nreduce/2 + 1,
 * SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements; pSync: SHMEM_REDUCE_SYNC_SIZE
 * longs. */
#define GASKET_DECLARE_TO_ALL_OP(TYPE, NAME, OP, ENUM)                                                       \
    void shmem_##NAME##_##OP##_to_all(TYPE *dest, const TYPE *source, int nreduce, int PE_start,           \
                                      int logPE_stride, int PE_size, TYPE *pWrk, long *pSync);
#define GASKET_DECLARE_TO_ALL_BITWISE(TYPE, NAME) GASKET_REDUCE_BITWISE_OPS(GASKET_DECLARE_TO_ALL_OP, TYPE, NAME)
#define GASKET_DECLARE_TO_ALL_MINMAX(TYPE, NAME) GASKET_REDUCE_MINMAX_OPS(GASKET_DECLARE_TO_ALL_OP, TYPE, NAME)
#define GASKET_DECLARE_TO_ALL_ARITH(TYPE, NAME) GASKET_REDUCE_ARITH_OPS(GASKET_DECLARE_TO_ALL_OP, TYPE, NAME)
GASKET_TO_ALL_BITWISE_TYPES(GASKET_DECLARE_TO_ALL_BITWISE)
GASKET_TO_ALL_MINMAX_TYPES(GASKET_DECLARE_TO_ALL_MINMAX)
GASKET_TO_ALL_ARITH_TYPES(GASKET_DECLARE_TO_ALL_ARITH)
#undef GASKET_DECLARE_TO_ALL_BITWISE
#undef GASKET_DECLARE_TO_ALL_MINMAX
#undef GASKET_DECLARE_TO_ALL_ARITH
#undef GASKET_DECLARE_TO_ALL_OP

#endif /* GASKET_SHMEM_COLL_H */
