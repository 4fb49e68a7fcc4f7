// src/gasnet/gex_ad.cpp -- GASNet-EX remote atomics (gasnet_ratomic.h;
// gasnet-ex-api.txt "Atomic Domains", "Remote Atomic Operations"): atomic
// domains, and each gex_AD_Op* checked and mapped onto the runtime's AMO
// entry point (rt::apply_atomic on a mapped target, rt::amo_remote through an
// Active Message otherwise), the engine OpenSHMEM's AMOs use.
//
// Domains live in a fixed table, so a handle is checked with one range
// test and one load, and no handle ever points at freed memory.
#include <gasnet_ratomic.h>

#include <atomic>
#include <bit>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "ep_segments.hpp"
#include "gex_dt.hpp"
#include "src/gex/objects.hpp"
#include "src/runtime/amo.hpp"
#include "src/runtime/fence.hpp"
#include "transfer.hpp"

struct gasket_gex_ad {
    gex_TM_t tm = GEX_TM_INVALID;
    gasket_gex_tm* team = nullptr;  // a made team (its ranks are translated); null: the primordial team (jobranks)
    gex_DT_t dt = 0;
    gex_OP_t ops = 0;
    gex_Flags_t flags = 0;
    const void* cdata = nullptr;
    std::atomic<bool> live{false};
};

namespace gasket::gasnet {

namespace {

constexpr std::size_t kMaxDomains = 1024;
gasket_gex_ad g_domains[kMaxDomains];
std::mutex g_domains_lock;  // creation and destruction

// ---- The operations, from one table ----
// Non-fetching ops and their fetching twins (GEX_OP_TO_FETCHING).
constexpr gex_OP_t kArithmetic = GEX_OP_ADD | GEX_OP_FADD | GEX_OP_SUB | GEX_OP_FSUB | GEX_OP_MULT | GEX_OP_FMULT |
                                 GEX_OP_MIN | GEX_OP_FMIN | GEX_OP_MAX | GEX_OP_FMAX | GEX_OP_INC | GEX_OP_FINC |
                                 GEX_OP_DEC | GEX_OP_FDEC;
constexpr gex_OP_t kBitwise = GEX_OP_AND | GEX_OP_FAND | GEX_OP_OR | GEX_OP_FOR | GEX_OP_XOR | GEX_OP_FXOR;
constexpr gex_OP_t kAccessors = GEX_OP_SET | GEX_OP_SWAP | GEX_OP_CAS | GEX_OP_FCAS | GEX_OP_GET;
constexpr gex_OP_t kFetching = GEX_OP_FADD | GEX_OP_FSUB | GEX_OP_FMULT | GEX_OP_FMIN | GEX_OP_FMAX | GEX_OP_FINC |
                               GEX_OP_FDEC | GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR | GEX_OP_SWAP | GEX_OP_FCAS |
                               GEX_OP_GET;
constexpr gex_DT_t kIntegers = GEX_DT_I32 | GEX_DT_U32 | GEX_DT_I64 | GEX_DT_U64;
constexpr gex_DT_t kFloats = GEX_DT_FLT | GEX_DT_DBL;

constexpr gex_Flags_t kFavor = GEX_FLAG_AD_FAVOR_MY_RANK | GEX_FLAG_AD_FAVOR_MY_NBRHD | GEX_FLAG_AD_FAVOR_REMOTE;
constexpr gex_Flags_t kOpFlags = GEX_FLAG_IMMEDIATE | GEX_FLAG_AD_MY_RANK | GEX_FLAG_AD_MY_NBRHD | GEX_FLAG_AD_ACQ |
                                 GEX_FLAG_AD_REL | GEX_FLAG_RANK_IS_JOBRANK;

// The atomic operations valid on `dt` (0: not a type remote atomics take).
constexpr gex_OP_t valid_ops(gex_DT_t dt) {
    if (dt & kIntegers) return kArithmetic | kBitwise | kAccessors;
    if (dt & kFloats) return kArithmetic | kAccessors;
    return 0;
}

bool one_bit(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

[[noreturn, gnu::cold, gnu::noinline]] void bad_domain(const char* routine, gex_AD_t ad) {
    if (ad == GEX_AD_INVALID) rt::fatal(routine, "ad is GEX_AD_INVALID");
    rt::fatal(routine, "ad %p is not an atomic domain of this process (never made by gex_AD_Create, or destroyed)",
              static_cast<void*>(ad));
}

// The live domain `ad` names; fatal, naming `routine`, for any other value.
[[gnu::always_inline]] inline gasket_gex_ad& domain_of(const char* routine, gex_AD_t ad) {
    const auto i = std::uintptr_t(reinterpret_cast<std::uintptr_t>(ad) - reinterpret_cast<std::uintptr_t>(g_domains));
    if (i >= sizeof g_domains || i % sizeof(gasket_gex_ad) != 0 || !ad->live.load(std::memory_order_acquire))
        [[unlikely]]
        bad_domain(routine, ad);
    return *ad;
}

// An operation's runtime form: the AMO, its value and compare operand, in
// the raw bits of T.
struct Mapped {
    rt::AmoOp op;
    std::uint64_t value;
    std::uint64_t cond;
};

template <class T>
std::uint64_t bits(T v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

template <class T>
Mapped map_op(gex_OP_t opcode, T op1, T op2) {
    constexpr bool floating = std::is_floating_point_v<T>, is_signed = std::is_signed_v<T>;
    using rt::AmoOp;
    const AmoOp add = floating ? AmoOp::fetch_add_float : AmoOp::fetch_add;
    // A negated operand: two's complement for integers (unsigned wraps as C's
    // op0 - op1 does), the sign for floating point (x - y == x + -y in IEEE).
    auto negate = [](T v) -> T {
        if constexpr (floating)
            return -v;
        else
            return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(v));
    };
    const AmoOp min = floating    ? AmoOp::fetch_min_float
                      : is_signed ? AmoOp::fetch_min_signed
                                  : AmoOp::fetch_min_unsigned;
    const AmoOp max = floating    ? AmoOp::fetch_max_float
                      : is_signed ? AmoOp::fetch_max_signed
                                  : AmoOp::fetch_max_unsigned;
    switch (opcode) {  // a fetching op is its twin's AMO, whose old value it keeps
        case GEX_OP_ADD:
        case GEX_OP_FADD: return {add, bits(op1), 0};
        case GEX_OP_SUB:
        case GEX_OP_FSUB: return {add, bits(negate(op1)), 0};
        case GEX_OP_INC:
        case GEX_OP_FINC: return {add, bits(T(1)), 0};
        case GEX_OP_DEC:
        case GEX_OP_FDEC: return {add, bits(negate(T(1))), 0};
        case GEX_OP_MULT:
        case GEX_OP_FMULT: return {floating ? AmoOp::fetch_mult_float : AmoOp::fetch_mult, bits(op1), 0};
        case GEX_OP_MIN:
        case GEX_OP_FMIN: return {min, bits(op1), 0};
        case GEX_OP_MAX:
        case GEX_OP_FMAX: return {max, bits(op1), 0};
        case GEX_OP_AND:
        case GEX_OP_FAND: return {AmoOp::fetch_and, bits(op1), 0};
        case GEX_OP_OR:
        case GEX_OP_FOR: return {AmoOp::fetch_or, bits(op1), 0};
        case GEX_OP_XOR:
        case GEX_OP_FXOR: return {AmoOp::fetch_xor, bits(op1), 0};
        case GEX_OP_SET: return {AmoOp::set, bits(op1), 0};
        case GEX_OP_SWAP: return {AmoOp::swap, bits(op1), 0};
        case GEX_OP_CAS:
        case GEX_OP_FCAS: return {AmoOp::compare_swap, bits(op2), bits(op1)};
        default: return {AmoOp::fetch, 0, 0};  // GEX_OP_GET (the domain's set was checked)
    }
}

template <class T>
constexpr gex_DT_t dt_of() {
    if constexpr (std::is_same_v<T, std::int32_t>) return GEX_DT_I32;
    if constexpr (std::is_same_v<T, std::uint32_t>) return GEX_DT_U32;
    if constexpr (std::is_same_v<T, std::int64_t>) return GEX_DT_I64;
    if constexpr (std::is_same_v<T, std::uint64_t>) return GEX_DT_U64;
    if constexpr (std::is_same_v<T, float>) return GEX_DT_FLT;
    if constexpr (std::is_same_v<T, double>) return GEX_DT_DBL;
}

// The jobrank of tgt_rank in the domain's made team (GEX_FLAG_RANK_IS_JOBRANK:
// tgt_rank is one already); fatal when tgt_rank is out of the team's range.
[[gnu::cold, gnu::noinline]] gex_Rank_t team_rank_to_jobrank(const char* routine, const gasket_gex_ad& d,
                                                             gex_Rank_t rank, gex_Flags_t flags) {
    if (flags & GEX_FLAG_RANK_IS_JOBRANK) return rank;
    if (rank >= d.team->size)
        rt::fatal(routine, "tgt_rank %u is out of range: the domain's team has ranks 0..%u", unsigned(rank),
                  unsigned(d.team->size - 1));
    return gex_Rank_t(d.team->jobranks[rank]);
}

// Every check of one operation, out of line: the caller's fast test found
// something wrong (or a flag that needs a look); fatal when it is an error.
// check_target false: all but the rank's range and the target (the caller
// checks those against a created endpoint's segment).
[[gnu::cold, gnu::noinline]] void check_op(const char* routine, const gasket_gex_ad& d, gex_DT_t dt,
                                           const void* result_p, gex_Rank_t rank, const void* tgt_addr, gex_OP_t opcode,
                                           gex_Flags_t flags, bool check_target = true) {
    if (d.dt != dt) rt::fatal(routine, "the domain's data type is %s, not this call's %s", dt_name(d.dt), dt_name(dt));
    if (!one_bit(opcode) || !(opcode & d.ops))
        rt::fatal(routine, "opcode 0x%x is not one GEX_OP_* of the domain's operations (0x%x)", unsigned(opcode),
                  unsigned(d.ops));
    if (flags & ~kOpFlags)
        rt::fatal(routine,
                  "flags 0x%x: only GEX_FLAG_IMMEDIATE, GEX_FLAG_AD_MY_RANK, GEX_FLAG_AD_MY_NBRHD, GEX_FLAG_AD_ACQ, "
                  "GEX_FLAG_AD_REL and GEX_FLAG_RANK_IS_JOBRANK are accepted (the SEG_OFFSET flags are "
                  "[UNIMPLEMENTED] in the specification)",
                  unsigned(flags));
    if ((flags & GEX_FLAG_AD_MY_RANK) && (flags & GEX_FLAG_AD_MY_NBRHD))
        rt::fatal(routine, "flags 0x%x: GEX_FLAG_AD_MY_RANK and GEX_FLAG_AD_MY_NBRHD exclude each other",
                  unsigned(flags));
    if (g_routes.nodes == 0) rt::fatal(routine, "called before a segment is attached (gex_Segment_Attach)");
    if (rank >= g_routes.nodes)
        rt::fatal(routine, "tgt_rank %u is out of range (the team has %u ranks)", unsigned(rank),
                  unsigned(g_routes.nodes));
    if ((flags & GEX_FLAG_AD_MY_RANK) && int(rank) != rt::g_job->my_pe)
        rt::fatal(routine, "GEX_FLAG_AD_MY_RANK asserts tgt_rank %u is the caller, rank %d", unsigned(rank),
                  rt::g_job->my_pe);
    if ((opcode & kFetching) && !result_p)
        rt::fatal(routine, "result_p is NULL for a fetching opcode (0x%x)", unsigned(opcode));
    if (!check_target) return;
    const rt::Route& r = g_routes.node[rank];
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(tgt_addr) - r.base;
    const std::size_t width = dt & (GEX_DT_I64 | GEX_DT_U64 | GEX_DT_DBL) ? 8 : 4;
    if (offset >= r.size || r.size - offset < width)
        rt::fatal(routine, "tgt_addr %p (%zu bytes) is outside rank %u's bound segment [%p, +%zu)", tgt_addr, width,
                  unsigned(rank), reinterpret_cast<void*>(r.base), r.size);
    if (reinterpret_cast<std::uintptr_t>(tgt_addr) % width)
        rt::fatal(routine, "tgt_addr %p is not aligned to its type's %zu bytes", tgt_addr, width);
}

// A checked remote atomic on byte `offset` of the segment of endpoint
// `index` (0: the attach segment) of jobrank `rank`: done here when that
// segment is mapped (`direct`), else by the AMO Active Message, whose reply
// completes it (counted in the default context's AMOs in flight: NB
// returns the event that waits for them, NBI marks the thread's implicit
// operations; GEX_FLAG_AD_ACQ: that wait is an acquire).
template <class T, bool kNbi>
[[gnu::always_inline]] inline gex_Event_t apply_op(const char* routine, char* direct, std::uintptr_t offset,
                                                   gex_EP_Index_t index, gex_Rank_t rank, T* result_p, gex_OP_t opcode,
                                                   T op1, T op2, gex_Flags_t flags) {
    const Mapped m = map_op<T>(opcode, op1, op2);
    if (flags & GEX_FLAG_AD_REL) rt::full_fence();
    const bool fetching = opcode & kFetching;
    if (direct) {
        const std::uint64_t old = rt::apply_atomic(direct + offset, sizeof(T), m.op, m.value, m.cond);
        if (fetching) std::memcpy(result_p, &old, sizeof(T));
        if (flags & GEX_FLAG_AD_ACQ) rt::full_fence();
        return GEX_EVENT_INVALID;
    }
    rt::Job& j = *rt::g_job;
    const auto result = fetching ? rt::AmoResult::deferred : rt::AmoResult::none;
    if (index == 0)
        rt::amo_remote(routine, j, j.heap, offset, sizeof(T), m.op, m.value, m.cond, int(rank), result,
                       fetching ? result_p : nullptr, g_routes.ctx->pending_am_ops);
    else
        rt::amo_remote_endpoint(routine, j, std::uint8_t(index), offset, sizeof(T), m.op, m.value, m.cond, int(rank),
                                result, fetching ? result_p : nullptr, g_routes.ctx->pending_am_ops);
    if constexpr (kNbi) {
        t_self.issued = true;
        return GEX_EVENT_INVALID;
    }
    return amo_handle();
}

// ---- Domains over teams of created endpoints (memory kinds §5.3) ----

// Where the domain's (rank, tgt_addr) is: the member's jobrank, endpoint
// index and the route to that endpoint's segment (the attach segment for
// index 0, else its published bound segment).  GEX_FLAG_RANK_IS_JOBRANK:
// tgt_rank is the jobrank of a member.  Fatal, naming `routine`, for a rank
// out of range, a jobrank with no member, or nothing published there.
struct EndpointTarget {
    gex_Rank_t jobrank;
    gex_EP_Index_t index;
    const rt::Route* route;
};
EndpointTarget endpoint_target(const char* routine, const gasket_gex_ad& d, gex_Rank_t rank, gex_Flags_t flags) {
    const gasket_gex_tm& t = *d.team;
    gex_Rank_t member = rank;
    if (flags & GEX_FLAG_RANK_IS_JOBRANK) {
        member = gex::rank_of_jobrank(t, rank);  // a made team: GEX_RANK_INVALID for a jobrank out of range too
        if (member == GEX_RANK_INVALID)
            rt::fatal(routine,
                      "tgt_rank %u (GEX_FLAG_RANK_IS_JOBRANK) is the jobrank of no member of the domain's team",
                      unsigned(rank));
    } else if (rank >= t.size) {
        rt::fatal(routine, "tgt_rank %u is out of range: the domain's team has ranks 0..%u", unsigned(rank),
                  unsigned(t.size - 1));
    }
    const auto jobrank = gex_Rank_t(t.jobranks[member]);
    const gex_EP_Index_t index = t.ep_index(member);
    if (index == 0) return EndpointTarget{jobrank, 0, &g_routes.node[jobrank]};
    const EpRoute* r = ep_route(index, jobrank);
    if (!r)
        rt::fatal(routine,
                  "endpoint %u of jobrank %u has no bound segment published to this process "
                  "(gex_EP_BindSegment, then gex_EP_PublishBoundSegment)",
                  unsigned(index), unsigned(jobrank));
    if (r->device)
        rt::fatal(routine,
                  "the segment of endpoint %u of jobrank %u is device memory: Gasket offers remote atomics on host "
                  "segments only (gasnet-ex-memory-kinds.txt requires RMA and Long payloads of device memory)",
                  unsigned(index), unsigned(jobrank));
    return EndpointTarget{jobrank, index, r};
}

// One remote atomic of a domain over created endpoints: every check (as
// check_op, against the member endpoint's segment), then apply_op.  Out of line: the primordial domains' path does
// not test for it beyond its made-team branch.
template <class T, bool kNbi>
[[gnu::cold, gnu::noinline]] gex_Event_t ad_op_endpoint(const char* routine, const gasket_gex_ad& d, T* result_p,
                                                        gex_Rank_t rank, void* tgt_addr, gex_OP_t opcode, T op1, T op2,
                                                        gex_Flags_t flags) {
    constexpr gex_DT_t dt = dt_of<T>();
    if (g_routes.nodes == 0) rt::fatal(routine, "called before a segment is attached (gex_Segment_Attach)");
    const EndpointTarget at = endpoint_target(routine, d, rank, flags);
    // check_op's checks of everything but the target, which is the member's
    const gex_Flags_t others = flags & ~GEX_FLAG_RANK_IS_JOBRANK;
    check_op(routine, d, dt, result_p, at.jobrank, nullptr, opcode, others, /*check_target=*/false);
    const rt::Route& r = *at.route;
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(tgt_addr) - r.base;
    if (offset >= r.size || r.size - offset < sizeof(T))
        rt::fatal(routine, "tgt_addr %p (%zu bytes) is outside the segment of endpoint %u of jobrank %u [%p, +%zu)",
                  tgt_addr, sizeof(T), unsigned(at.index), unsigned(at.jobrank), reinterpret_cast<void*>(r.base),
                  r.size);
    if (reinterpret_cast<std::uintptr_t>(tgt_addr) % sizeof(T))
        rt::fatal(routine, "tgt_addr %p is not aligned to its type's %zu bytes", tgt_addr, sizeof(T));
    return apply_op<T, kNbi>(routine, r.direct, offset, at.index, at.jobrank, result_p, opcode, op1, op2, flags);
}

// One remote atomic: checked, then apply_op.
template <class T, bool kNbi>
[[gnu::always_inline]] inline gex_Event_t ad_op(const char* routine, gex_AD_t ad, T* result_p, gex_Rank_t rank,
                                                void* tgt_addr, gex_OP_t opcode, T op1, T op2, gex_Flags_t flags) {
    const gasket_gex_ad& d = domain_of(routine, ad);
    constexpr gex_DT_t dt = dt_of<T>();
    if (d.team) [[unlikely]] {
        if (!d.team->ep_indices.empty())
            return ad_op_endpoint<T, kNbi>(routine, d, result_p, rank, tgt_addr, opcode, op1, op2, flags);
        rank = team_rank_to_jobrank(routine, d, rank, flags);
    }
    // The fast test: anything it lets through is valid; the rest is looked at
    // out of line (which is fatal for an error).
    const rt::Route* r = rank < g_routes.nodes ? &g_routes.node[rank] : nullptr;
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(tgt_addr) - (r ? r->base : 0);
    if (d.dt != dt || !one_bit(opcode) || !(opcode & d.ops) || flags || !r || offset >= r->size ||
        r->size - offset < sizeof(T) || offset % sizeof(T) || ((opcode & kFetching) && !result_p)) [[unlikely]]
        check_op(routine, d, dt, result_p, rank, tgt_addr, opcode, flags);
    // offset % sizeof(T) == 0 and the segment's base is page-aligned: tgt_addr is aligned.
    return apply_op<T, kNbi>(routine, r->direct, offset, 0, rank, result_p, opcode, op1, op2, flags);
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;

extern "C" {

void gex_AD_Create(gex_AD_t* ad_p, gex_TM_t tm, gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) noexcept {
    const char* routine = "gex_AD_Create";
    gasket_gex_tm& team = gex::tm_of(routine, tm);  // a team (fatal for a TM-pair or another value)
    if (!ad_p) rt::fatal(routine, "ad_p is NULL");
    if (!gasnet::one_bit(dt) || !gasnet::valid_ops(dt))
        rt::fatal(routine,
                  "dt 0x%x (%s) is not a data type of remote atomics (GEX_DT_I32, _U32, _I64, _U64, _FLT, _DBL)",
                  unsigned(dt), gasnet::dt_name(dt));
    if (ops == 0 || (ops & ~gasnet::valid_ops(dt)))
        rt::fatal(routine, "ops 0x%x: 0x%x are not atomic operations on %s (valid: 0x%x)", unsigned(ops),
                  unsigned(ops & ~gasnet::valid_ops(dt)), gasnet::dt_name(dt), unsigned(gasnet::valid_ops(dt)));
    if ((flags & ~gasnet::kFavor) || (flags && !gasnet::one_bit(flags)))
        rt::fatal(routine, "flags 0x%x: only one of GEX_FLAG_AD_FAVOR_{MY_RANK,MY_NBRHD,REMOTE} is accepted",
                  unsigned(flags));
    std::lock_guard<std::mutex> hold(gasnet::g_domains_lock);
    for (gasket_gex_ad& d : gasnet::g_domains) {
        if (d.live.load(std::memory_order_relaxed)) continue;
        d.tm = tm;
        d.team = team.jobranks ? &team : nullptr;
        team.domains.fetch_add(1, std::memory_order_relaxed);
        d.dt = dt;
        d.ops = ops;
        d.flags = flags;
        d.cdata = nullptr;
        d.live.store(true, std::memory_order_release);
        *ad_p = &d;
        return;
    }
    rt::fatal(routine, "%zu atomic domains exist already (the most at once; gex_AD_Destroy frees one)",
              gasnet::kMaxDomains);
}

void gex_AD_Destroy(gex_AD_t ad) noexcept {
    gasket_gex_ad& d = gasnet::domain_of("gex_AD_Destroy", ad);
    std::lock_guard<std::mutex> hold(gasnet::g_domains_lock);
    d.live.store(false, std::memory_order_release);
    gex::tm_of("gex_AD_Destroy", d.tm).domains.fetch_sub(1, std::memory_order_release);
}

gex_Flags_t gex_AD_QueryFlags(gex_AD_t ad) noexcept { return gasnet::domain_of("gex_AD_QueryFlags", ad).flags; }
gex_TM_t gex_AD_QueryTM(gex_AD_t ad) noexcept { return gasnet::domain_of("gex_AD_QueryTM", ad).tm; }
gex_DT_t gex_AD_QueryDT(gex_AD_t ad) noexcept { return gasnet::domain_of("gex_AD_QueryDT", ad).dt; }
gex_OP_t gex_AD_QueryOps(gex_AD_t ad) noexcept { return gasnet::domain_of("gex_AD_QueryOps", ad).ops; }
void gex_AD_SetCData(gex_AD_t ad, const void* val) noexcept { gasnet::domain_of("gex_AD_SetCData", ad).cdata = val; }
void* gex_AD_QueryCData(gex_AD_t ad) noexcept {
    return const_cast<void*>(gasnet::domain_of("gex_AD_QueryCData", ad).cdata);
}

// One NB and one NBI entry point per data type, from one table.
#define GASKET_GEX_AD_DEFINE(DT, TYPE)                                                                               \
    gex_Event_t gex_AD_OpNB_##DT(gex_AD_t ad, TYPE* result_p, gex_Rank_t tgt_rank, void* tgt_addr, gex_OP_t opcode,  \
                                 TYPE operand1, TYPE operand2, gex_Flags_t flags) noexcept {                         \
        return gasnet::ad_op<TYPE, false>("gex_AD_OpNB_" #DT, ad, result_p, tgt_rank, tgt_addr, opcode, operand1,    \
                                          operand2, flags);                                                          \
    }                                                                                                                \
    int gex_AD_OpNBI_##DT(gex_AD_t ad, TYPE* result_p, gex_Rank_t tgt_rank, void* tgt_addr, gex_OP_t opcode,         \
                          TYPE operand1, TYPE operand2, gex_Flags_t flags) noexcept {                                \
        gasnet::ad_op<TYPE, true>("gex_AD_OpNBI_" #DT, ad, result_p, tgt_rank, tgt_addr, opcode, operand1, operand2, \
                                  flags);                                                                            \
        return 0;                                                                                                    \
    }
GASKET_GEX_AD_DEFINE(I32, int32_t)
GASKET_GEX_AD_DEFINE(U32, uint32_t)
GASKET_GEX_AD_DEFINE(I64, int64_t)
GASKET_GEX_AD_DEFINE(U64, uint64_t)
GASKET_GEX_AD_DEFINE(FLT, float)
GASKET_GEX_AD_DEFINE(DBL, double)
#undef GASKET_GEX_AD_DEFINE

}  // extern "C"
