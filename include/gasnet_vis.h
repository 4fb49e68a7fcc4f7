/*
 * gasnet_vis.h -- GASNet-EX non-contiguous RMA (gasnet-ex-api.txt "Vector/
 * Indexed/Strided (VIS)"): vector, indexed and strided puts and gets, each
 * Blocking, NB and NBI.  A client includes it after gasnetex.h, as GASNet's
 * clients do.
 *
 * How Gasket does them: the source and destination descriptions are walked
 * together as two byte streams, and each run that is contiguous on both
 * sides becomes one contiguous transfer on the path gex_RMA_* and
 * gasnet_put/get take (src/gasnet/transfer.hpp: a direct copy to a node
 * peer, MPI RMA on the segment window otherwise).  So a strided copy of
 * rows that are contiguous on both sides moves whole rows, and a vector
 * whose entries abut is one transfer.
 *
 * Completion, as for gex_RMA_*: Blocking returns complete; NB returns an
 * event (GEX_EVENT_INVALID when every piece completed in the call); NBI
 * completes with gex_NBI_{Wait,Test} or the access region's event.  The
 * payload and the vector/index lists must stay valid and unchanged until
 * completion (local completion is folded into completion), unless a put
 * passes GEX_FLAG_ENABLE_LEAF_LC: then the sources are copied or sent before
 * the call returns, so gex_Event_QueryLeaf(root, GEX_EC_LC) is
 * GEX_EVENT_INVALID and GEX_EC_LC has nothing to wait for.  The strided
 * forms' stride and count arrays are read before the call returns.
 *
 * Sizes are in bytes; strides are in bytes and may be negative (transpose,
 * reflection); every remote piece must lie in the peer's bound segment.
 * (tm, rank) as for gex_RMA_*: the primordial team, a made team or any
 * TM-pair; a created endpoint's peer (memory kinds §5) is reached in its
 * published bound segment, through the job's dynamic window or, mapped on
 * the node fast path, by a copy.
 *
 * Errors (each ends the job, naming the call and the value): a bad team or
 * rank (as gex_RMA_*), a remote piece outside the peer's bound segment, a
 * NULL list or array with a nonzero count, source and destination
 * descriptions of different total sizes, a total whose byte count does not
 * fit in size_t, a flag other than GEX_FLAG_IMMEDIATE (accepted; Gasket
 * never declines) and GEX_FLAG_ENABLE_LEAF_LC (puts only).
 *
 * Peer completion (deprecated in the specification, provided):
 * gex_VIS_SetPeerCompletionHandler below.
 */
#ifndef GASKET_GASNET_VIS_H
#define GASKET_GASNET_VIS_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The VIS routines, one per (shape, direction, completion), declared from
 * one table below.  RET is gex_Event_t for NB, int (0) for NBI and Blocking.
 *
 * Vector: dstlist[0 .. dstcount) and srclist[0 .. srccount) are (address,
 * length) pairs; the bytes of the source pairs, in order, land in the
 * destination pairs, in order; both must hold the same total.
 *   RET gex_VIS_VectorGet<C>(gex_TM_t tm, size_t dstcount,
 *       gex_Memvec_t const dstlist[], gex_Rank_t srcrank, size_t srccount,
 *       gex_Memvec_t const srclist[], gex_Flags_t flags);
 *   RET gex_VIS_VectorPut<C>(gex_TM_t tm, gex_Rank_t dstrank,
 *       size_t dstcount, gex_Memvec_t const dstlist[], size_t srccount,
 *       gex_Memvec_t const srclist[], gex_Flags_t flags);
 * Indexed: as Vector with every destination piece dstlen bytes and every
 * source piece srclen bytes (dstcount * dstlen == srccount * srclen).
 *   RET gex_VIS_IndexedGet<C>(gex_TM_t tm, size_t dstcount,
 *       void * const dstlist[], size_t dstlen, gex_Rank_t srcrank,
 *       size_t srccount, void * const srclist[], size_t srclen,
 *       gex_Flags_t flags);
 *   RET gex_VIS_IndexedPut<C>(gex_TM_t tm, gex_Rank_t dstrank,
 *       size_t dstcount, void * const dstlist[], size_t dstlen,
 *       size_t srccount, void * const srclist[], size_t srclen,
 *       gex_Flags_t flags);
 * Strided: chunks of elemsz contiguous bytes, indexed by (i_0 .. i_{L-1})
 * with 0 <= i_k < count[k] (L = stridelevels); chunk i is at
 * addr + sum_k i_k * strides[k] on each side.  elemsz == 0 or any count 0:
 * nothing moves; L == 0: one contiguous chunk of elemsz bytes.
 *   RET gex_VIS_StridedGet<C>(gex_TM_t tm, void* dstaddr,
 *       const ptrdiff_t dststrides[], gex_Rank_t srcrank, void* srcaddr,
 *       const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
 *       size_t stridelevels, gex_Flags_t flags);
 *   RET gex_VIS_StridedPut<C>(gex_TM_t tm, gex_Rank_t dstrank,
 *       void* dstaddr, const ptrdiff_t dststrides[], void* srcaddr,
 *       const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
 *       size_t stridelevels, gex_Flags_t flags);
 * for <C> = NB, NBI, Blocking. */
#define GASKET_GEX_VIS_DECLARE(C, RET)                                                                                \
    RET gex_VIS_VectorGet##C(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[], gex_Rank_t srcrank,          \
                             size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags) GASKET_NOEXCEPT;       \
    RET gex_VIS_VectorPut##C(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, gex_Memvec_t const dstlist[],          \
                             size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags) GASKET_NOEXCEPT;       \
    RET gex_VIS_IndexedGet##C(gex_TM_t tm, size_t dstcount, void* const dstlist[], size_t dstlen, gex_Rank_t srcrank, \
                              size_t srccount, void* const srclist[], size_t srclen, gex_Flags_t flags)               \
        GASKET_NOEXCEPT;                                                                                              \
    RET gex_VIS_IndexedPut##C(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, void* const dstlist[], size_t dstlen, \
                              size_t srccount, void* const srclist[], size_t srclen, gex_Flags_t flags)               \
        GASKET_NOEXCEPT;                                                                                              \
    RET gex_VIS_StridedGet##C(gex_TM_t tm, void* dstaddr, const ptrdiff_t dststrides[], gex_Rank_t srcrank,           \
                              void* srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],       \
                              size_t stridelevels, gex_Flags_t flags) GASKET_NOEXCEPT;                                \
    RET gex_VIS_StridedPut##C(gex_TM_t tm, gex_Rank_t dstrank, void* dstaddr, const ptrdiff_t dststrides[],           \
                              void* srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],       \
                              size_t stridelevels, gex_Flags_t flags) GASKET_NOEXCEPT;
GASKET_GEX_VIS_DECLARE(NB, gex_Event_t)
GASKET_GEX_VIS_DECLARE(NBI, int)
GASKET_GEX_VIS_DECLARE(Blocking, int)
#undef GASKET_GEX_VIS_DECLARE

/* The largest client payload, in bytes, of a VIS peer completion handler
 * (the specification guarantees at least 127). */
#define GEX_VIS_MAX_PEERCOMPLETION ((size_t)512)

/* VIS Put Peer Completion [DEPRECATED in the specification] (gasnet-ex-api.txt
 * "VIS Put Peer Completion"): arms, for the calling thread, a notification
 * bound to its next VIS put (vector, indexed or strided; Blocking, NB or
 * NBI).  Once that put's data is complete at the peer, `handler` runs there
 * as a 0-argument AM Medium reply handler (it may not send) with the
 * `nbytes` bytes at `source_addr` as its payload, and sees the put's data.
 * Only that one put is bound; the thread is then disarmed.  handler 0
 * disarms (cancels) a pending arming.
 *   handler      index of a handler registered (gex_EP_RegisterHandlers)
 *                with GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY and gex_nargs 0
 *                on the put's destination endpoint on every node (it runs
 *                from that endpoint's table; checked here against one of
 *                this process's endpoints at arming, and against its
 *                endpoint of the destination's index at the put);
 *   source_addr  nbytes bytes of payload (ignored when nbytes is 0); Gasket
 *                copies them in this call, so the buffer may change at once;
 *   nbytes       <= GEX_VIS_MAX_PEERCOMPLETION bytes;
 *   flags        must be 0.
 * How Gasket does it: the bound put completes before it returns (an NB put
 * returns GEX_EVENT_INVALID), then the notification is sent as an AM that
 * follows it.  A strided put with nothing to move (elemsz 0 or a count 0)
 * names no peer, so it leaves the arming for the next put.
 * Errors (each ends the job, naming the call and the value): flags not 0,
 * nbytes above GEX_VIS_MAX_PEERCOMPLETION, source_addr NULL with nbytes >
 * 0, a handler not registered or registered otherwise; and, while armed, a
 * VIS put with GEX_FLAG_IMMEDIATE (the specification forbids it) or a VIS
 * get (peer completion is for puts only). */
void gex_VIS_SetPeerCompletionHandler(gex_AM_Index_t handler, const void* source_addr, size_t nbytes,
                                      gex_Flags_t flags) GASKET_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_VIS_H */
