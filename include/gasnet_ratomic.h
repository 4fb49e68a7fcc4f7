/*
 * gasnet_ratomic.h -- GASNet-EX remote atomics (gasnet-ex-api.txt, "Atomic
 * Domains" and "Remote Atomic Operations"): atomic domains (gex_AD_t) and
 * the typed operations gex_AD_OpNB_<DT> / gex_AD_OpNBI_<DT> for the six
 * built-in data types.  A client includes it after gasnetex.h, as GASNet's
 * clients do (gasnetex.h does not include it).
 *
 * How Gasket does them: on the runtime's AMO engine, the one OpenSHMEM's
 * AMOs use (src/runtime/amo.hpp) -- a hardware atomic on the target's
 * memory, done by the caller when the target's segment is mapped here (this
 * process and its node peers on the node fast path), else by an Active
 * Message handler on the target, which replies with the old value.  So an
 * operation is atomic with respect to every other atomic operation on the
 * same location from any rank and thread, whatever the path and the domain
 * (a stronger promise than the specification's, which covers one domain).
 * MULT, MIN, MAX and the floating-point arithmetic are a compare-and-swap
 * loop; CAS on FLT/DBL compares bits (as the specification permits).
 *
 * Completion: an operation on a mapped target is complete when its call
 * returns (NB: GEX_EVENT_INVALID).  One through an Active Message is
 * complete when its reply arrives: NB returns an event whose
 * gex_Event_Wait (and the Some/All forms) waits for every such operation
 * of the default context; NBI counts it for the calling thread's
 * gex_NBI_Wait (any GEX_EC_* mask: it completes every category) and,
 * inside an NBI access region, for the region's event.  The test forms
 * (gex_Event_Test*, gex_NBI_Test with GEX_EC_RMW, gasnet_try_*) never wait
 * or poll for a reply: GASNET_OK once no such operation awaits its reply,
 * else GASNET_ERR_NOT_READY (the event stays valid; the progress thread, a
 * poll or a wait delivers the replies) -- gasnet-ex-api.txt, "Event
 * test/wait operations".
 *
 * Errors (each ends the job, naming the call and the value): an AD Gasket
 * did not make or one destroyed; a call whose type is not the domain's; an
 * opcode that is not one GEX_OP_* of the domain's set; a flag the call does
 * not accept (GEX_FLAG_SELF_SEG_OFFSET and GEX_FLAG_PEER_SEG_OFFSET are
 * [UNIMPLEMENTED] in the specification and refused) or both AD_MY_RANK and
 * AD_MY_NBRHD; a rank out of range or a GEX_FLAG_AD_MY_RANK whose target is
 * not the caller; a target outside the rank's bound segment or not aligned
 * to the type; a NULL result_p for a fetching opcode.  gex_AD_Create also
 * refuses a data type that is not one built-in type, an operation set that
 * is empty or holds an operation not valid for the type (bitwise ones on
 * FLT/DBL, GEX_OP_USER/USER_NC), flags other than one GEX_FLAG_AD_FAVOR_*,
 * and a TM-pair or a value that is not a live team.
 *
 * Ranks count in the domain's team (the primordial team or one made by
 * gex_TM_Split / gex_TM_Create; a rank past its size is fatal); with
 * GEX_FLAG_RANK_IS_JOBRANK they are jobranks.  Over a team of endpoints made
 * by gex_EP_Create (memory kinds §5.3), a target lies in the member
 * endpoint's published bound segment (fatal outside it, or when nothing is
 * published there).  A team cannot be destroyed
 * while a domain over it lives (gex_TM_Destroy is fatal then).
 */
#ifndef GASKET_GASNET_RATOMIC_H
#define GASKET_GASNET_RATOMIC_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An atomic domain (opaque). */
typedef struct gasket_gex_ad* gex_AD_t;
#define GEX_AD_INVALID ((gex_AD_t)0)

/* Collective over `tm` (every member calls it, in the same order as its
 * other collective calls; no barrier is implied): a domain for operations
 * `ops` (a nonzero OR of GEX_OP_* valid for atomics on `dt`) on data type
 * `dt` (one of GEX_DT_I32, _U32, _I64, _U64, _FLT, _DBL), stored at *ad_p.
 * flags: 0 or one GEX_FLAG_AD_FAVOR_{MY_RANK,MY_NBRHD,REMOTE} (accepted;
 * every domain takes the path each target needs).  At most 1024 domains
 * exist at once (a fatal error names gex_AD_Create beyond that).
 * gasnet-ex-api.txt "Atomic Domains". */
void gex_AD_Create(gex_AD_t* ad_p, gex_TM_t tm, gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) GASKET_NOEXCEPT;
/* Collective over the domain's team: destroys `ad`; every operation on it
 * must be complete (synced) on every member first.  The handle is invalid
 * afterwards (a later use is a fatal error while its slot stays free). */
void gex_AD_Destroy(gex_AD_t ad) GASKET_NOEXCEPT;

/* What gex_AD_Create received. */
gex_Flags_t gex_AD_QueryFlags(gex_AD_t ad) GASKET_NOEXCEPT;
gex_TM_t gex_AD_QueryTM(gex_AD_t ad) GASKET_NOEXCEPT;
gex_DT_t gex_AD_QueryDT(gex_AD_t ad) GASKET_NOEXCEPT;
gex_OP_t gex_AD_QueryOps(gex_AD_t ad) GASKET_NOEXCEPT;
/* The client's one pointer per domain (NULL for a new domain). */
void gex_AD_SetCData(gex_AD_t ad, const void* val) GASKET_NOEXCEPT;
void* gex_AD_QueryCData(gex_AD_t ad) GASKET_NOEXCEPT;

/* The remote atomic operations, one NB and one NBI function per built-in
 * data type (gasnet-ex-api.txt "Remote Atomic Operations"), declared from
 * one table below:
 *
 *   gex_Event_t gex_AD_OpNB_<DT>(gex_AD_t ad, TYPE* result_p,
 *       gex_Rank_t tgt_rank, void* tgt_addr, gex_OP_t opcode,
 *       TYPE operand1, TYPE operand2, gex_Flags_t flags);
 *   int gex_AD_OpNBI_<DT>(... the same arguments ...);
 *
 * for <DT>/TYPE: I32/int32_t, U32/uint32_t, I64/int64_t, U64/uint64_t,
 * FLT/float, DBL/double.  Applies `opcode` (one GEX_OP_* of the domain's
 * set) atomically to the TYPE object at tgt_addr (an address in tgt_rank's
 * bound segment, aligned to sizeof(TYPE)); operand1 is op1 (SET, SWAP, the
 * arithmetic and bitwise ops; CAS/FCAS: the value compared), operand2 is
 * op2 (CAS/FCAS: the value stored); unused ones are ignored.  A fetching
 * opcode stores the old value (op0) at result_p once complete; others
 * ignore result_p.  flags: a bitwise OR of GEX_FLAG_IMMEDIATE (accepted;
 * Gasket never declines), at most one of GEX_FLAG_AD_MY_RANK (checked) and
 * GEX_FLAG_AD_MY_NBRHD, GEX_FLAG_AD_ACQ, GEX_FLAG_AD_REL (fences around the
 * operation), GEX_FLAG_RANK_IS_JOBRANK.
 * NB returns GEX_EVENT_INVALID when the operation completed in the call,
 * else an event to wait on; NBI returns 0 (completion: gex_NBI_Wait/Test). */
#define GASKET_GEX_AD_DECLARE(DT, TYPE)                                                                             \
    gex_Event_t gex_AD_OpNB_##DT(gex_AD_t ad, TYPE* result_p, gex_Rank_t tgt_rank, void* tgt_addr, gex_OP_t opcode, \
                                 TYPE operand1, TYPE operand2, gex_Flags_t flags) GASKET_NOEXCEPT;                  \
    int gex_AD_OpNBI_##DT(gex_AD_t ad, TYPE* result_p, gex_Rank_t tgt_rank, void* tgt_addr, gex_OP_t opcode,        \
                          TYPE operand1, TYPE operand2, gex_Flags_t flags) GASKET_NOEXCEPT;
GASKET_GEX_AD_DECLARE(I32, int32_t)
GASKET_GEX_AD_DECLARE(U32, uint32_t)
GASKET_GEX_AD_DECLARE(I64, int64_t)
GASKET_GEX_AD_DECLARE(U64, uint64_t)
GASKET_GEX_AD_DECLARE(FLT, float)
GASKET_GEX_AD_DECLARE(DBL, double)
#undef GASKET_GEX_AD_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* GASKET_GASNET_RATOMIC_H */
