/*
 * gasnet_coll.h -- GASNet-EX collectives (gasnet-ex-api.txt, "Collectives
 * Part II. Data Movement" and "Part III. Computational"): broadcast and the
 * reductions to one rank and to all, each nonblocking, returning an event.
 * gex_Coll_BarrierNB is in gasnetex.h.  A client includes this header after
 * gasnetex.h, as GASNet's clients do.
 *
 * How Gasket does them: on the team's MPI communicator, as MPI's
 * nonblocking collectives (MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce), so
 * every call returns at once; the event completes with gex_Event_Wait* (a
 * member waiting serves Active Messages) or gex_Event_Test* (0 once
 * complete, GASNET_ERR_NOT_READY before).  Completion means: this caller's
 * `src` may be reused and its `dst` read; nothing is said about other
 * members.
 *
 * Conventions for the calls below:
 *  - `tm`: the primordial team or a made one (gex_TM_Split/Create); a
 *    TM-pair is refused.  Every member calls, in the same order relative to
 *    the team's other collectives; single-valued arguments must be equal on
 *    every member (Gasket does not check them: MPI's result is undefined
 *    otherwise).
 *  - A team naming several endpoints of one process (gex_TM_Create, memory
 *    kinds §5.3): each of its handles calls as its member, in the same
 *    order; once every member of this process has started its share, the
 *    process takes part in one MPI collective among the processes, its
 *    members' reduction contributions combined first (GEX_OP_USER_NC: every
 *    member's contribution gathered where the result is written, then
 *    combined in rank order; at most INT_MAX elements from all members
 *    together, fatal beyond).  A share waited for
 *    before the process's other members started theirs waits for them
 *    (another thread must start them).  This process's members starting
 *    different collectives (kind, size, type, operation or root) as the
 *    same one of the team end the job, naming the call.
 *  - Buffers are the caller's private memory (no segment needed); `src` and
 *    `dst` stay the caller's until the event completes.
 *  - Sizes: nbytes in bytes; dt_sz in bytes per element; dt_cnt in
 *    elements.
 *  - flags must be 0 (the segment-disposition flags are [UNIMPLEMENTED] in
 *    the specification).
 *  - Errors end the job with a message naming the call and the value: a bad
 *    team, a root out of range, flags other than 0, a data type or
 *    operation the specification does not allow for reductions (SUB, INC,
 *    DEC, fetching and accessor opcodes; bitwise ones on FLT/DBL;
 *    GEX_DT_USER without GEX_OP_USER or _USER_NC), dt_sz not the built-in
 *    type's size (or 0, or above INT_MAX for GEX_DT_USER), dt_cnt 0, a
 *    NULL user_op with GEX_OP_USER or _USER_NC, a NULL buffer with data to
 *    move, dt_sz x dt_cnt overflowing size_t.
 */
#ifndef GASKET_GASNET_COLL_H
#define GASKET_GASNET_COLL_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A client's reduction: for i < count, arg2_and_out[i] = arg1[i] (+)
 * arg2_and_out[i], on elements of the reduction's dt_sz bytes; `cdata` is
 * the caller's user_cdata.  Gasket calls it from inside MPI's reduction
 * (on any thread that completes the collective, any number of times, on
 * any grouping of elements); it must not call GASNet. */
typedef void (*gex_Coll_ReduceFn_t)(const void* arg1, void* arg2_and_out, size_t count, const void* cdata);

/* Copies nbytes from `src` on rank `root` of `tm` to `dst` on every member
 * (on the root too, unless dst == src; other overlap on the root is
 * undefined).  src is read on the root only.  nbytes 0 moves nothing (the
 * event still completes collectively). */
gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t root, void* dst, const void* src, size_t nbytes,
                                 gex_Flags_t flags) GASKET_NOEXCEPT;

/* dst[i] = src_0[i] (+) src_1[i] ... (+) src_{N-1}[i] for i < dt_cnt, on
 * rank `root` (ToOne; dst is ignored elsewhere) or on every member
 * (ToAll).  (+) is `op`: GEX_OP_ADD, _MULT, _MIN, _MAX on every built-in
 * type (GEX_DT_I32, _U32, _I64, _U64, _FLT, _DBL), GEX_OP_AND, _OR, _XOR on
 * the integer ones, or GEX_OP_USER (commutative) / GEX_OP_USER_NC (applied
 * in rank order) with user_op and user_cdata, on any type including
 * GEX_DT_USER (dt_sz bytes, reduced as indivisible elements).  src == dst
 * is allowed on the root (ToOne) or on every member (ToAll). */
gex_Event_t gex_Coll_ReduceToOneNB(gex_TM_t tm, gex_Rank_t root, void* dst, const void* src, gex_DT_t dt, size_t dt_sz,
                                   size_t dt_cnt, gex_OP_t op, gex_Coll_ReduceFn_t user_op, void* user_cdata,
                                   gex_Flags_t flags) GASKET_NOEXCEPT;
gex_Event_t gex_Coll_ReduceToAllNB(gex_TM_t tm, void* dst, const void* src, gex_DT_t dt, size_t dt_sz, size_t dt_cnt,
                                   gex_OP_t op, gex_Coll_ReduceFn_t user_op, void* user_cdata,
                                   gex_Flags_t flags) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_COLL_H */
