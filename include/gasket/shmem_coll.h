/*
 * gasket/shmem_coll.h -- §9.10 collectives (included by shmem.h inside its
 * extern "C" block; do not include directly).
 *
 * Conventions for every collective, those below and the typed ones
 * (shmem_TYPENAME_broadcast, shmem_TYPENAME_sum_reduce, shmem_collect32,
 * ...) that gasket/shmem_typed.h declares:
 *  - Team forms (§9.10, "team-based"): every PE of `team` calls the routine,
 *    in the same order as its other collectives on that team; PE numbers
 *    (PE_root) are team PE numbers.  They return 0 on success and nonzero
 *    after an error message when the call cannot be made: `team` is
 *    SHMEM_TEAM_INVALID (the PE is in no team, so nobody waits for it) or
 *    PE_root is outside 0..n-1 of the team.  A destroyed (or never made)
 *    team handle, a dest/source that is not a symmetric object large enough
 *    for the operation, a size whose byte count overflows size_t (nelems
 *    times the element size, or the span of every PE's blocks), or a call
 *    before shmem_init end the job with a message naming the routine and
 *    the bad value.
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
void shmem_barrier_all(void) GASKET_NOEXCEPT;
/* §9.10.2 (deprecated): shmem_quiet, then waits for every PE of the active
 * set.  pSync: SHMEM_BARRIER_SYNC_SIZE longs. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync) GASKET_NOEXCEPT;
/* §9.10.3: waits for every PE of `team`; orders this PE's earlier stores
 * before the other PEs' later accesses but completes no RMA (call
 * shmem_quiet first for that).  0, or nonzero for SHMEM_TEAM_INVALID. */
int shmem_team_sync(shmem_team_t team) GASKET_NOEXCEPT;
/* §9.10.3 (deprecated active-set form; see the note above on the C11 team
 * form): as shmem_team_sync over the active set.  pSync: SHMEM_SYNC_SIZE
 * longs. */
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long* pSync) GASKET_NOEXCEPT;
/* §9.10.4: shmem_team_sync(SHMEM_TEAM_WORLD). */
void shmem_sync_all(void) GASKET_NOEXCEPT;

/* ---- §9.10.5-8 data movement -------------------------------------------
 * The typed team forms (shmem_TYPENAME_alltoall, _alltoalls, _broadcast,
 * _collect, _fcollect) and the deprecated active-set forms on 4- or 8-byte
 * elements (shmem_alltoall32, ..., shmem_fcollect64), with what each does:
 * gasket/shmem_typed.h, §9.10.5-8.  Byte forms: as the typed team forms,
 * with nelems a count of bytes. */
int shmem_alltoallmem(shmem_team_t team, void* dest, const void* source, size_t nelems) GASKET_NOEXCEPT;
int shmem_alltoallsmem(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems) GASKET_NOEXCEPT;
int shmem_broadcastmem(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root) GASKET_NOEXCEPT;
int shmem_collectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) GASKET_NOEXCEPT;
int shmem_fcollectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) GASKET_NOEXCEPT;

/* ---- §9.10.9 reductions, §9.10.10 scans (Tables 10 and 11) -------------
 * Every reduction and scan is typed: shmem_TYPENAME_OP_reduce,
 * shmem_TYPENAME_sum_inscan/_exscan and the deprecated active-set
 * shmem_TYPENAME_OP_to_all, with what each does: gasket/shmem_typed.h,
 * §9.10.9-10. */

#endif /* GASKET_SHMEM_COLL_H */
