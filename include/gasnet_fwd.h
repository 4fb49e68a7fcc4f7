/* gasnet_fwd.h -- the part of GASNet-EX that a client may include from its
 * own headers: the scalar types and the GEX_ constants, no function
 * (gasnet-ex-api.txt, "The gasnet_fwd.h header").  gasnetex.h includes it.
 *
 * Every value below is Gasket's; the specification fixes only
 * GEX_EVENT_INVALID (0), that flags of one call are disjoint bits, and that
 * every GEX_DT_ and GEX_OP_ value is its own nonzero bit.
 */
#ifndef GASKET_GASNET_FWD_H
#define GASKET_GASNET_FWD_H

#include <stddef.h>
#include <stdint.h>

/* A rank in a team, or a team's size; the same type as gasnet_node_t. */
typedef uint32_t gex_Rank_t;
/* Not a rank: larger than any valid rank (a job has at most 2^31 - 1 ranks). */
#define GEX_RANK_INVALID ((gex_Rank_t)0xffffffffu)

/* An endpoint's index within its client on its process (0: the primordial
 * endpoint; gex_EP_Create gives 1, 2, ... below GASNET_MAXEPS). */
typedef uint32_t gex_EP_Index_t;
/* Not an endpoint index (gasnet-ex-memory-kinds.txt §3.4). */
#define GEX_EP_INDEX_INVALID ((gex_EP_Index_t)0xffffffffu)
/* An address or, with the SEG_OFFSET flags, an offset. */
typedef void* gex_Addr_t;

/* An event: the completion of a non-blocking operation.  The same type as
 * gasnet_handle_t, so the two interoperate (gex_Event_Wait on a GASNet-1
 * handle, gasnet_wait_syncnb on an event). */
typedef struct gasket_gasnet_op* gex_Event_t;
/* Returned for an operation already complete; synonymous with GASNET_INVALID_HANDLE. */
#define GEX_EVENT_INVALID ((gex_Event_t)0)
/* Returned when GEX_FLAG_IMMEDIATE made a call inject nothing; never passed
 * to a test or wait. */
#define GEX_EVENT_NO_OP ((gex_Event_t)3)
/* Local-completion controls, passed as `lc_opt` in place of a pointer to an
 * event: NOW -- the call returns locally complete (the source may be reused);
 * DEFER -- local completion may come as late as the operation's sync; GROUP
 * (NBI calls only) -- as DEFER, and gex_NBI_{Test,Wait}(GEX_EC_LC) observe it.
 * (1, 2, 3: the library checks an NBI lc_opt as one range.) */
#define GEX_EVENT_NOW ((gex_Event_t*)1)
#define GEX_EVENT_DEFER ((gex_Event_t*)2)
#define GEX_EVENT_GROUP ((gex_Event_t*)3)

/* Hints, assertions and modifiers; the bits each call accepts are listed
 * with it (gasnetex.h), and a bit it does not accept is a fatal error. */
typedef uint32_t gex_Flags_t;

/* Point-to-point communication (gex_RMA_*): */
#define GEX_FLAG_IMMEDIATE ((gex_Flags_t)1u << 0)        /* may return without injecting (never does in Gasket) */
#define GEX_FLAG_PEER_NEVER_SELF ((gex_Flags_t)1u << 1)  /* asserts: the peer is not this process */
#define GEX_FLAG_PEER_NEVER_NBRHD ((gex_Flags_t)1u << 2) /* asserts: the peer is outside this node */
/* [UNIMPLEMENTED] in the specification: defined, and refused by every call. */
#define GEX_FLAG_LC_COPY_YES ((gex_Flags_t)1u << 3)
#define GEX_FLAG_LC_COPY_NO ((gex_Flags_t)1u << 4)
#define GEX_FLAG_SELF_SEG_UNKNOWN ((gex_Flags_t)1u << 5)
#define GEX_FLAG_SELF_SEG_SOME ((gex_Flags_t)1u << 6)
#define GEX_FLAG_SELF_SEG_BOUND ((gex_Flags_t)1u << 7)
#define GEX_FLAG_SELF_SEG_OFFSET ((gex_Flags_t)1u << 8)
#define GEX_FLAG_PEER_SEG_UNKNOWN ((gex_Flags_t)1u << 9)
#define GEX_FLAG_PEER_SEG_SOME ((gex_Flags_t)1u << 10)
#define GEX_FLAG_PEER_SEG_BOUND ((gex_Flags_t)1u << 11)
#define GEX_FLAG_PEER_SEG_OFFSET ((gex_Flags_t)1u << 12)
/* Remote atomics (gasnet_ratomic.h): */
#define GEX_FLAG_AD_MY_RANK ((gex_Flags_t)1u << 13)
#define GEX_FLAG_AD_MY_NBRHD ((gex_Flags_t)1u << 14)
#define GEX_FLAG_AD_FAVOR_MY_RANK ((gex_Flags_t)1u << 15)
#define GEX_FLAG_AD_FAVOR_MY_NBRHD ((gex_Flags_t)1u << 16)
#define GEX_FLAG_AD_FAVOR_REMOTE ((gex_Flags_t)1u << 17)
#define GEX_FLAG_AD_ACQ ((gex_Flags_t)1u << 18)
#define GEX_FLAG_AD_REL ((gex_Flags_t)1u << 19)
#define GEX_FLAG_RANK_IS_JOBRANK ((gex_Flags_t)1u << 20)
/* Active Messages: the payload queries' Prepare forms */
#define GEX_FLAG_AM_PREPARE_LEAST_CLIENT ((gex_Flags_t)1u << 21)
#define GEX_FLAG_AM_PREPARE_LEAST_ALLOC ((gex_Flags_t)1u << 22)
/* Team construction: collective scratch space */
#define GEX_FLAG_TM_GLOBAL_SCRATCH ((gex_Flags_t)1u << 23)
#define GEX_FLAG_TM_LOCAL_SCRATCH ((gex_Flags_t)1u << 24)
#define GEX_FLAG_TM_SYMMETRIC_SCRATCH ((gex_Flags_t)1u << 25)
#define GEX_FLAG_TM_NO_SCRATCH ((gex_Flags_t)1u << 26)
#define GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED ((gex_Flags_t)1u << 27)
#define GEX_FLAG_TM_SCRATCH_SIZE_MIN ((gex_Flags_t)1u << 28)
#define GEX_FLAG_SCRATCH_SEG_OFFSET ((gex_Flags_t)1u << 29) /* [UNIMPLEMENTED] */
/* Object destruction */
#define GEX_FLAG_GLOBALLY_QUIESCED ((gex_Flags_t)1u << 30)
/* VIS puts (gasnet_vis.h): local completion of the payload at return */
#define GEX_FLAG_ENABLE_LEAF_LC ((gex_Flags_t)1u << 31)
/* gex_Client_Init: the client calls GASNet-1 (gasnet.h) functions too; the
 * client thread may start progress threads itself. */
#define GEX_FLAG_USES_GASNET1 ((gex_Flags_t)1u << 0)
#define GEX_FLAG_DEFER_THREADS ((gex_Flags_t)1u << 1)

/* Data types of atomics and reductions: each its own bit. */
typedef uint32_t gex_DT_t;
#define GEX_DT_I32 ((gex_DT_t)1u << 0)  /* int32_t */
#define GEX_DT_U32 ((gex_DT_t)1u << 1)  /* uint32_t */
#define GEX_DT_I64 ((gex_DT_t)1u << 2)  /* int64_t */
#define GEX_DT_U64 ((gex_DT_t)1u << 3)  /* uint64_t */
#define GEX_DT_FLT ((gex_DT_t)1u << 4)  /* float */
#define GEX_DT_DBL ((gex_DT_t)1u << 5)  /* double */
#define GEX_DT_USER ((gex_DT_t)1u << 6) /* a client's type (reductions only) */

/* Operations of atomics and reductions: each its own bit.  A non-fetching
 * operation and its fetching twin are adjacent bits (SET/SWAP and CAS/FCAS
 * count as such pairs), so GEX_OP_TO_FETCHING shifts left by one. */
typedef uint32_t gex_OP_t;
#define GEX_OP_ADD ((gex_OP_t)1u << 0)
#define GEX_OP_FADD ((gex_OP_t)1u << 1)
#define GEX_OP_SUB ((gex_OP_t)1u << 2)
#define GEX_OP_FSUB ((gex_OP_t)1u << 3)
#define GEX_OP_MULT ((gex_OP_t)1u << 4)
#define GEX_OP_FMULT ((gex_OP_t)1u << 5)
#define GEX_OP_MIN ((gex_OP_t)1u << 6)
#define GEX_OP_FMIN ((gex_OP_t)1u << 7)
#define GEX_OP_MAX ((gex_OP_t)1u << 8)
#define GEX_OP_FMAX ((gex_OP_t)1u << 9)
#define GEX_OP_INC ((gex_OP_t)1u << 10)
#define GEX_OP_FINC ((gex_OP_t)1u << 11)
#define GEX_OP_DEC ((gex_OP_t)1u << 12)
#define GEX_OP_FDEC ((gex_OP_t)1u << 13)
#define GEX_OP_AND ((gex_OP_t)1u << 14)
#define GEX_OP_FAND ((gex_OP_t)1u << 15)
#define GEX_OP_OR ((gex_OP_t)1u << 16)
#define GEX_OP_FOR ((gex_OP_t)1u << 17)
#define GEX_OP_XOR ((gex_OP_t)1u << 18)
#define GEX_OP_FXOR ((gex_OP_t)1u << 19)
#define GEX_OP_SET ((gex_OP_t)1u << 20)
#define GEX_OP_SWAP ((gex_OP_t)1u << 21)
#define GEX_OP_CAS ((gex_OP_t)1u << 22)
#define GEX_OP_FCAS ((gex_OP_t)1u << 23)
#define GEX_OP_CSWAP GEX_OP_FCAS /* deprecated alias */
#define GEX_OP_GET ((gex_OP_t)1u << 24)
#define GEX_OP_USER ((gex_OP_t)1u << 25)    /* commutative client reduction */
#define GEX_OP_USER_NC ((gex_OP_t)1u << 26) /* non-commutative client reduction */
/* The fetching twin of a non-fetching op (SET, CAS, ADD ... XOR), and back;
 * undefined for any other op, as the specification says. */
#define GEX_OP_TO_FETCHING(op) ((gex_OP_t)((op) << 1))
#define GEX_OP_TO_NONFETCHING(op) ((gex_OP_t)((op) >> 1))

/* What an endpoint can do (gex_EP_Create); the primordial endpoint can do all of it. */
typedef uint32_t gex_EP_Capabilities_t;
#define GEX_EP_CAPABILITY_RMA ((gex_EP_Capabilities_t)1u << 0)
#define GEX_EP_CAPABILITY_AM ((gex_EP_Capabilities_t)1u << 1)
#define GEX_EP_CAPABILITY_VIS ((gex_EP_Capabilities_t)1u << 2)
#define GEX_EP_CAPABILITY_RATOMIC ((gex_EP_Capabilities_t)1u << 3)
#define GEX_EP_CAPABILITY_COLL ((gex_EP_Capabilities_t)1u << 4)
#define GEX_EP_CAPABILITY_ALL ((gex_EP_Capabilities_t)0x1fu)
/* The memory-kinds document's name for the atomics capability. */
#define GEX_EP_CAPABILITY_AD GEX_EP_CAPABILITY_RATOMIC

/* gex_EP_Create's flags (gasnet-ex-memory-kinds.txt §3.3): hints that the
 * endpoint's atomics or collectives want acceleration (Gasket has none to
 * give: kept, and returned by gex_EP_QueryFlags). */
#define GEX_FLAG_HINT_ACCEL_AD ((gex_Flags_t)1u << 0)
#define GEX_FLAG_HINT_ACCEL_COLL ((gex_Flags_t)1u << 1)
#define GEX_FLAG_HINT_ACCEL_ALL (GEX_FLAG_HINT_ACCEL_AD | GEX_FLAG_HINT_ACCEL_COLL)

#endif /* GASKET_GASNET_FWD_H */
