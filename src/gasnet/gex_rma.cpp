// src/gasnet/gex_rma.cpp -- GASNet-EX's contiguous RMA, events and NBI
// synchronization (gasnet-ex-api.txt, "RMA", "NBI Access regions", "Event
// test/wait operations"): each entry point checks what GASNet-1 does not
// have (the team, the flags, lc_opt) and takes the transfers GASNet-1 takes
// (transfer.hpp), so both APIs have one route, one set of handles (an event
// is a gasnet_handle_t) and the same GASP events.
#include <gasnet.h>

#include "ep_segments.hpp"
#include "src/gex/objects.hpp"
#include "transfer.hpp"

namespace gasket::gasnet {

namespace {

// The flags a gex_RMA_* call accepts: IMMEDIATE (Gasket always injects) and
// the two assertions (not checked).
constexpr gex_Flags_t kRmaFlags = GEX_FLAG_IMMEDIATE | GEX_FLAG_PEER_NEVER_SELF | GEX_FLAG_PEER_NEVER_NBRHD;

[[gnu::cold, gnu::noinline]] void check_rma_flags(const char* routine, gex_Flags_t flags) {
    if (flags & ~kRmaFlags)
        rt::fatal(routine,
                  "flags 0x%x: only GEX_FLAG_IMMEDIATE, GEX_FLAG_PEER_NEVER_SELF and GEX_FLAG_PEER_NEVER_NBRHD are "
                  "accepted (the others are [UNIMPLEMENTED] in the specification)",
                  unsigned(flags));
}

// Whether (tm, flags) is the common case: the primordial team or its
// TM-pair, which name jobranks (rank is the node, whose range the transfer
// checks), and accepted flags.  One test covers every other team, TM-pair
// and bad flags: the cold forms below find which.
[[gnu::always_inline]] inline bool primordial(gex_TM_t tm, gex_Flags_t flags) {
    // A TM-pair is the team | 1: both differ from the team in bit 0 at most.
    const auto differ = reinterpret_cast<std::uintptr_t>(tm) ^ reinterpret_cast<std::uintptr_t>(gex::primordial_tm());
    return differ <= 1 && !(flags & ~kRmaFlags);
}

// The context for device copies when the local buffer [p, +nbytes) lies
// in the device segment bound to tm's local endpoint (memory kinds §4.1: a
// local address in device memory must be in that segment); else null.
void* local_device(const char* routine, gex_TM_t tm, const void* p, std::size_t nbytes) {
    if (!gex::any_device_segment()) return nullptr;  // host memory only: the usual case
    const gex_EP_Index_t local = gex::local_ep_index(routine, tm);
    return local == 0 ? nullptr : local_device_context(local, p, nbytes);
}

// Where [addr, +nbytes) (nbytes >= 1) is mapped here when tm is a TM-pair
// whose remote endpoint is a created one with a host segment that this
// process maps (its own, or a node peer's under the node fast path), no
// tool is attached, no device segment exists here (the local buffer could
// be in one) and the flags are accepted; else null, and the checked path
// decides.  A TM-pair names jobranks: `rank` is checked as the primordial
// team's.
[[gnu::always_inline]] inline char* pair_direct(gex_TM_t tm, gex_Rank_t rank, const void* addr, std::size_t nbytes,
                                                gex_Flags_t flags) {
    gex_EP_Index_t local = 0, remote = 0;
    if (rank >= g_routes.lean_nodes || (flags & ~kRmaFlags) || !gex::pair_ends(tm, &local, &remote) || remote == 0 ||
        gex::any_device_segment())
        return nullptr;
    const EpRoute* r = ep_route(remote, rank);
    if (!r || !r->direct) return nullptr;
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(addr) - r->base;
    return offset < r->size && nbytes - 1 < r->size - offset ? r->direct + offset : nullptr;
}

// The transfers whose (tm, rank) is not the primordial team's: a made
// team's member (translated, its rank checked) or a TM-pair's remote
// endpoint -- the primordial one's segment (the general forms) or a created
// one's (put_ep, get_ep).  Fatal for bad flags, a bad team or rank.
[[gnu::cold, gnu::noinline]] gasnet_handle_t put_other(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                       const void* src, std::size_t nbytes, unsigned how,
                                                       gex_Flags_t flags) {
    check_rma_flags(routine, flags);
    const gex_EP_Location_t at = gex::p2p_location(routine, tm, rank);
    if (void* ctx = local_device(routine, tm, src, nbytes)) [[unlikely]]
        return put_ep(routine, at.gex_rank, at.gex_ep_index, dest, src, nbytes, how, ctx);
    if (at.gex_ep_index == 0) return put_cold(routine, at.gex_rank, dest, src, nbytes, how);
    return put_ep(routine, at.gex_rank, at.gex_ep_index, dest, src, nbytes, how);
}
[[gnu::cold, gnu::noinline]] gasnet_handle_t get_other(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                       const void* src, std::size_t nbytes, Sync sync,
                                                       gex_Flags_t flags) {
    check_rma_flags(routine, flags);
    const gex_EP_Location_t at = gex::p2p_location(routine, tm, rank);
    if (void* ctx = local_device(routine, tm, dest, nbytes)) [[unlikely]]
        return get_ep(routine, dest, at.gex_rank, at.gex_ep_index, src, nbytes, sync, ctx);
    if (at.gex_ep_index == 0) return get_cold(routine, dest, at.gex_rank, src, nbytes, sync);
    return get_ep(routine, dest, at.gex_rank, at.gex_ep_index, src, nbytes, sync);
}

// Not the primordial team: a direct copy when pair_direct finds the
// TM-pair's remote segment mapped here (a small function, so that case
// saves few registers), else put_other / get_other.
[[gnu::noinline]] gasnet_handle_t put_not_primordial(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                     const void* src, std::size_t nbytes, unsigned how,
                                                     gex_Flags_t flags) {
    if (char* direct = pair_direct(tm, rank, dest, nbytes, flags)) {
        const Sync sync = Sync(how & 3);
        rt::put_to(*g_routes.ctx, nullptr, rt::Target{direct, nullptr, 0}, src, nbytes, int(rank),
                   direct_completion(sync));
        return direct_handle(sync);
    }
    return put_other(routine, tm, rank, dest, src, nbytes, how, flags);
}
[[gnu::noinline]] gasnet_handle_t get_not_primordial(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                     const void* src, std::size_t nbytes, Sync sync,
                                                     gex_Flags_t flags) {
    if (const char* direct = pair_direct(tm, rank, src, nbytes, flags)) {
        rt::get_from(rt::Target{const_cast<char*>(direct), nullptr, 0}, dest, nbytes, int(rank),
                     direct_completion(sync));
        return direct_handle(sync);
    }
    return get_other(routine, tm, rank, dest, src, nbytes, sync, flags);
}

// A put or get of (tm, rank): the lean forms for the primordial team.
template <Sync S>
[[gnu::always_inline]] inline gasnet_handle_t put_at(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                     const void* src, std::size_t nbytes, bool bulk,
                                                     gex_Flags_t flags) {
    if (!primordial(tm, flags)) [[unlikely]]
        return put_not_primordial(routine, tm, rank, dest, src, nbytes, mode(S, bulk), flags);
    return put(routine, rank, dest, src, nbytes, S, bulk);
}
template <Sync S>
[[gnu::always_inline]] inline gasnet_handle_t get_at(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                     const void* src, std::size_t nbytes, gex_Flags_t flags) {
    if (!primordial(tm, flags)) [[unlikely]]
        return get_not_primordial(routine, tm, rank, dest, src, nbytes, S, flags);
    return get(routine, dest, rank, src, nbytes, S);
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_lc(const char* routine, const gex_Event_t* lc_opt, bool nbi) {
    rt::fatal(routine, "lc_opt %p is not %s", static_cast<const void*>(lc_opt),
              nbi ? "GEX_EVENT_NOW, GEX_EVENT_DEFER or GEX_EVENT_GROUP"
                  : "GEX_EVENT_NOW, GEX_EVENT_DEFER or a pointer to a gex_Event_t");
}

// Whether a put may leave local completion to its sync (bulk), from lc_opt.
// NBI: GROUP completes locally before returning, as NOW (gex_NBI_*(GEX_EC_LC)
// then has nothing to wait for).  NB: a pointer gets GEX_EVENT_INVALID, the
// put being locally complete on return.
[[gnu::always_inline]] inline bool nbi_bulk(const char* routine, gex_Event_t* lc_opt) {
    // GEX_EVENT_NOW, _DEFER and _GROUP are 1, 2 and 3 (gasnet_fwd.h)
    if (reinterpret_cast<std::uintptr_t>(lc_opt) - 1 > 2) [[unlikely]]
        bad_lc(routine, lc_opt, true);
    return lc_opt == GEX_EVENT_DEFER;
}
[[gnu::always_inline]] inline bool nb_bulk(const char* routine, gex_Event_t* lc_opt) {
    // GEX_EVENT_NOW and _DEFER are 1 and 2 (gasnet_fwd.h): one test for
    // both, so neither jumps out of the straight path.
    const std::uintptr_t v = reinterpret_cast<std::uintptr_t>(lc_opt);
    if (v - 1 > 1) [[unlikely]] {
        if (lc_opt == GEX_EVENT_GROUP || lc_opt == nullptr) bad_lc(routine, lc_opt, false);
        *lc_opt = GEX_EVENT_INVALID;
    }
    return v == 2;
}

// The value puts: the low-order nbytes bytes of `value` (little-endian),
// synchronized as S says.
template <Sync S>
[[gnu::always_inline]] inline gasnet_handle_t put_value(const char* routine, gex_TM_t tm, gex_Rank_t rank, void* dest,
                                                        gex_RMA_Value_t value, std::size_t nbytes, gex_Flags_t flags) {
    check_value_size(routine, nbytes);
    return put_at<S>(routine, tm, rank, dest, &value, nbytes, false, flags);
}

[[gnu::cold, gnu::noinline]] void check_flags_zero(const char* routine, gex_Flags_t flags) {
    if (flags != 0) rt::fatal(routine, "flags 0x%x: reserved, must be 0", unsigned(flags));
}

// An event array's flags and pointer; a GEX_EVENT_NO_OP in it is found by
// the pass of try_all / complete_all that looks for collectives' events.
void check_events(const char* routine, const gex_Event_t* pevent, std::size_t n, gex_Flags_t flags) {
    if (flags != 0) check_flags_zero(routine, flags);
    if (n > 0 && !pevent) rt::fatal(routine, "pevent is NULL with numevents %zu", n);
}

void check_mask(const char* routine, gex_EC_t mask, gex_Flags_t flags) {
    if (flags != 0) check_flags_zero(routine, flags);
    if (mask == 0 || (mask & ~GEX_EC_ALL))
        rt::fatal(routine, "event_mask 0x%x is not a nonzero OR of GEX_EC_* (GEX_EC_ALL = 0x%x)", unsigned(mask),
                  unsigned(GEX_EC_ALL));
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;
using gasnet::Sync;

extern "C" {

// ---- puts and gets: the functions check everything (the names are
// parenthesized: gasnetex.h defines them as macros).
int(gex_RMA_PutBlocking)(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes,
                         gex_Flags_t flags) noexcept {
    gasnet::put_at<Sync::blocking>("gex_RMA_PutBlocking", tm, rank, dest, src, nbytes, false, flags);
    return 0;
}
int(gex_RMA_PutNBI)(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes, gex_Event_t* lc_opt,
                    gex_Flags_t flags) noexcept {
    const char* routine = "gex_RMA_PutNBI";
    gasnet::put_at<Sync::implicit>(routine, tm, rank, dest, src, nbytes, gasnet::nbi_bulk(routine, lc_opt), flags);
    return 0;
}
gex_Event_t(gex_RMA_PutNB)(gex_TM_t tm, gex_Rank_t rank, void* dest, const void* src, size_t nbytes,
                           gex_Event_t* lc_opt, gex_Flags_t flags) noexcept {
    const char* routine = "gex_RMA_PutNB";
    const bool bulk = gasnet::nb_bulk(routine, lc_opt);
    return gasnet::put_at<Sync::explicit_handle>(routine, tm, rank, dest, src, nbytes, bulk, flags);
}
int(gex_RMA_GetBlocking)(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                         gex_Flags_t flags) noexcept {
    gasnet::get_at<Sync::blocking>("gex_RMA_GetBlocking", tm, rank, dest, src, nbytes, flags);
    return 0;
}
int(gex_RMA_GetNBI)(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes, gex_Flags_t flags) noexcept {
    gasnet::get_at<Sync::implicit>("gex_RMA_GetNBI", tm, rank, dest, src, nbytes, flags);
    return 0;
}
gex_Event_t(gex_RMA_GetNB)(gex_TM_t tm, void* dest, gex_Rank_t rank, void* src, size_t nbytes,
                           gex_Flags_t flags) noexcept {
    return gasnet::get_at<Sync::explicit_handle>("gex_RMA_GetNB", tm, rank, dest, src, nbytes, flags);
}

// ---- value forms (the low-order bytes of the value: little-endian) ----
gex_RMA_Value_t(gex_RMA_GetBlockingVal)(gex_TM_t tm, gex_Rank_t rank, void* src, size_t nbytes,
                                        gex_Flags_t flags) noexcept {
    const char* routine = "gex_RMA_GetBlockingVal";
    gasnet::check_value_size(routine, nbytes);
    gex_RMA_Value_t value = 0;
    gasnet::get_at<Sync::blocking>(routine, tm, rank, &value, src, nbytes, flags);
    return value;
}
int(gex_RMA_PutBlockingVal)(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes,
                            gex_Flags_t flags) noexcept {
    gasnet::put_value<Sync::blocking>("gex_RMA_PutBlockingVal", tm, rank, dest, value, nbytes, flags);
    return 0;
}
int(gex_RMA_PutNBIVal)(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes,
                       gex_Flags_t flags) noexcept {
    gasnet::put_value<Sync::implicit>("gex_RMA_PutNBIVal", tm, rank, dest, value, nbytes, flags);
    return 0;
}
gex_Event_t(gex_RMA_PutNBVal)(gex_TM_t tm, gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes,
                              gex_Flags_t flags) noexcept {
    return gasnet::put_value<Sync::explicit_handle>("gex_RMA_PutNBVal", tm, rank, dest, value, nbytes, flags);
}

// ---- the primordial team's entry points, which gasnetex.h's inline forms
// call once they found the team the primordial one and flags (and lc_opt)
// acceptable: the rank (a jobrank) and the range are left to check, as for
// GASNet-1's calls, naming the gex_RMA_* call.
gex_TM_t const gasket_gex_primordial_tm = &gex::g_objects.tm;  // gex::primordial_tm(), constant-initialized

void gasket_gex_primordial_put_blocking(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) noexcept {
    gasnet::put("gex_RMA_PutBlocking", rank, dest, src, nbytes, Sync::blocking, false);
}
void gasket_gex_primordial_put_nbi(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) noexcept {
    gasnet::put("gex_RMA_PutNBI", rank, dest, src, nbytes, Sync::implicit, false);
}
void gasket_gex_primordial_put_nbi_defer(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) noexcept {
    gasnet::put("gex_RMA_PutNBI", rank, dest, src, nbytes, Sync::implicit, true);
}
gex_Event_t gasket_gex_primordial_put_nb(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) noexcept {
    return gasnet::put("gex_RMA_PutNB", rank, dest, src, nbytes, Sync::explicit_handle, false);
}
gex_Event_t gasket_gex_primordial_put_nb_defer(gex_Rank_t rank, void* dest, const void* src, size_t nbytes) noexcept {
    return gasnet::put("gex_RMA_PutNB", rank, dest, src, nbytes, Sync::explicit_handle, true);
}
void gasket_gex_primordial_get_blocking(void* dest, gex_Rank_t rank, void* src, size_t nbytes) noexcept {
    gasnet::get("gex_RMA_GetBlocking", dest, rank, src, nbytes, Sync::blocking);
}
void gasket_gex_primordial_get_nbi(void* dest, gex_Rank_t rank, void* src, size_t nbytes) noexcept {
    gasnet::get("gex_RMA_GetNBI", dest, rank, src, nbytes, Sync::implicit);
}
gex_Event_t gasket_gex_primordial_get_nb(void* dest, gex_Rank_t rank, void* src, size_t nbytes) noexcept {
    return gasnet::get("gex_RMA_GetNB", dest, rank, src, nbytes, Sync::explicit_handle);
}
gex_RMA_Value_t gasket_gex_primordial_get_blocking_val(gex_Rank_t rank, void* src, size_t nbytes) noexcept {
    const char* routine = "gex_RMA_GetBlockingVal";
    gasnet::check_value_size(routine, nbytes);
    gex_RMA_Value_t value = 0;
    gasnet::get(routine, &value, rank, src, nbytes, Sync::blocking);
    return value;
}
void gasket_gex_primordial_put_blocking_val(gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                            size_t nbytes) noexcept {
    const char* routine = "gex_RMA_PutBlockingVal";
    gasnet::check_value_size(routine, nbytes);
    gasnet::put(routine, rank, dest, &value, nbytes, Sync::blocking, false);
}
void gasket_gex_primordial_put_nbi_val(gex_Rank_t rank, void* dest, gex_RMA_Value_t value, size_t nbytes) noexcept {
    const char* routine = "gex_RMA_PutNBIVal";
    gasnet::check_value_size(routine, nbytes);
    gasnet::put(routine, rank, dest, &value, nbytes, Sync::implicit, false);
}
gex_Event_t gasket_gex_primordial_put_nb_val(gex_Rank_t rank, void* dest, gex_RMA_Value_t value,
                                             size_t nbytes) noexcept {
    const char* routine = "gex_RMA_PutNBVal";
    gasnet::check_value_size(routine, nbytes);
    return gasnet::put(routine, rank, dest, &value, nbytes, Sync::explicit_handle, false);
}

// ---- NBI access regions ----
void gex_NBI_BeginAccessRegion(gex_Flags_t flags) noexcept {
    if (flags != 0) gasnet::check_flags_zero("gex_NBI_BeginAccessRegion", flags);
    gasnet::begin_region();
}
gex_Event_t gex_NBI_EndAccessRegion(gex_Flags_t flags) noexcept {
    if (flags != 0) gasnet::check_flags_zero("gex_NBI_EndAccessRegion", flags);
    return gasnet::end_region();
}

// ---- events: completing one is a flush, which needs nothing from the
// target, so Test completes as Wait does -- except an event that waits for
// a remote atomic's reply (or a collective), which Test leaves for later:
// GASNET_ERR_NOT_READY, without polling (gasnet-ex-api.txt: "_Test: no
// Poll call is made").
int gex_Event_Test(gex_Event_t event) noexcept {
    if (event == GEX_EVENT_NO_OP) [[unlikely]]
        gasnet::no_op_event("gex_Event_Test");
    return gasnet::try_one(event, GASP_GASNET_SYNC_TRY_NB);
}
void gex_Event_Wait(gex_Event_t event) noexcept {
    if (event == GEX_EVENT_NO_OP) [[unlikely]]
        gasnet::no_op_event("gex_Event_Wait");
    gasnet::sync_one(event, GASP_GASNET_SYNC_WAIT_NB);
}
int gex_Event_TestSome(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) noexcept {
    gasnet::check_events("gex_Event_TestSome", pevent, numevents, flags);
    return gasnet::try_all("gex_Event_TestSome", pevent, numevents, GASP_GASNET_SYNC_TRY_NB_SOME, true);
}
void gex_Event_WaitSome(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) noexcept {
    gasnet::check_events("gex_Event_WaitSome", pevent, numevents, flags);
    gasnet::complete_all("gex_Event_WaitSome", pevent, numevents, GASP_GASNET_SYNC_WAIT_NB_SOME);
}
int gex_Event_TestAll(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) noexcept {
    gasnet::check_events("gex_Event_TestAll", pevent, numevents, flags);
    return gasnet::try_all("gex_Event_TestAll", pevent, numevents, GASP_GASNET_SYNC_TRY_NB_ALL, false);
}
void gex_Event_WaitAll(gex_Event_t* pevent, size_t numevents, gex_Flags_t flags) noexcept {
    gasnet::check_events("gex_Event_WaitAll", pevent, numevents, flags);
    gasnet::complete_all("gex_Event_WaitAll", pevent, numevents, GASP_GASNET_SYNC_WAIT_NB_ALL);
}

// ---- NBI synchronization: gets, puts and local completion together ----
int gex_NBI_Test(gex_EC_t event_mask, gex_Flags_t flags) noexcept {
    const char* routine = "gex_NBI_Test";
    gasnet::check_mask(routine, event_mask, flags);
    return gasnet::try_implicit(routine, GASP_GASNET_SYNC_TRY_NBI_ALL, (event_mask & GEX_EC_RMW) != 0);
}
void gex_NBI_Wait(gex_EC_t event_mask, gex_Flags_t flags) noexcept {
    const char* routine = "gex_NBI_Wait";
    gasnet::check_mask(routine, event_mask, flags);
    gasnet::sync_implicit(routine, GASP_GASNET_SYNC_WAIT_NBI_ALL);
}

gex_Event_t gex_Event_QueryLeaf(gex_Event_t root, gex_EC_t event_category) noexcept {
    const char* routine = "gex_Event_QueryLeaf";
    if (root == GEX_EVENT_NO_OP) gasnet::no_op_event(routine);
    if (event_category == 0 || (event_category & (event_category - 1)) || (event_category & ~GEX_EC_ALL))
        rt::fatal(routine, "event_category 0x%x is not one GEX_EC_* category", unsigned(event_category));
    return GEX_EVENT_INVALID;  // every leaf (local completion) is complete when its initiation returns
}

}  // extern "C"
