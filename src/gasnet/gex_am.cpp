// src/gasnet/gex_am.cpp -- GASNet-EX's fixed-payload Active Messages
// (gasnet-ex-api.txt, "AM handlers", "Active Message (AM) limit queries",
// "AM Token Info", "Fixed-payload AM APIs"): handler registration with the
// category flags, the limit queries, token info, and the requests and
// replies for 0..16 arguments, over GASNet-1's AM entry points (am.hpp):
// the same engine, handler table, dispatch and GASP events.
#include <gasnet.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "am.hpp"
#include "ep_segments.hpp"
#include "src/runtime/device_staging.hpp"
#include "src/runtime/memory_kind.hpp"
#include "gex_am.hpp"
#include "src/gasp/gasp.hpp"
#include "src/gex/objects.hpp"
#include "state.hpp"
#include "transfer.hpp"

namespace gasket::gasnet {

namespace {

using rt::AmCategory;

// Every handler index's registration, by gex_EP_RegisterHandlers (flags
// nonzero) or gasnet_attach (index and function only); the engine's
// handler table is set from it once the segment is attached.  One per
// endpoint index: the primordial endpoint's, and each created endpoint's
// (gasnet-ex-memory-kinds.txt §3: every endpoint has its own table).
struct Registry {
    std::mutex lock;
    std::array<gex_AM_Entry_t, 256> entry{};
    std::array<bool, 256> used{};
};
Registry g_registries[GASNET_MAXEPS];
Registry& g_registry = g_registries[0];  // the primordial endpoint's

// The primordial endpoint's registrations again, one word per handler
// index, for the sends' lean path (lean_fits): 0 where a send has nothing
// to check (unregistered: the destination says so; gasnet_attach's: no
// flags), else the entry's gex_flags with gex_nargs in the top byte.  One
// load instead of check_send's two from the 10 KiB registry (the checks
// made the primordial AM round trip 1.10-1.19x GASNet-1's; without them,
// 1.00-1.03).  Written under the registry's lock, read without it.
std::array<std::atomic<std::uint32_t>, 256> g_accept{};
std::uint32_t accept_word(const gex_AM_Entry_t& e) {
    return e.gex_flags == 0 ? 0 : std::uint32_t(e.gex_flags) | std::uint32_t(e.gex_nargs) << 24;
}
static_assert((GEX_FLAG_AM_SHORT | GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQREP) < (1u << 24));

constexpr gex_Flags_t kCategories = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG;
constexpr gex_Flags_t kKinds = GEX_FLAG_AM_REQREP;

const char* name_of(const gex_AM_Entry_t& e) { return e.gex_name ? e.gex_name : "(unnamed)"; }

// Why entry `e` (table[i]) cannot be registered, or null.
const char* entry_problem(const gex_AM_Entry_t& e) {
    if (!e.gex_fnptr) return "gex_fnptr is NULL";
    const gex_Flags_t cat = e.gex_flags & kCategories, kind = e.gex_flags & kKinds;
    if (e.gex_flags & ~(kCategories | kKinds))
        return "gex_flags has bits that are not GEX_FLAG_AM_* registration flags";
    if (cat != GEX_FLAG_AM_SHORT && cat != GEX_FLAG_AM_MEDIUM && cat != GEX_FLAG_AM_LONG && cat != GEX_FLAG_AM_MEDLONG)
        return "gex_flags needs one of GEX_FLAG_AM_SHORT, _MEDIUM, _LONG, _MEDLONG";
    if (kind == 0) return "gex_flags needs one of GEX_FLAG_AM_REQUEST, _REPLY, _REQREP";
    if (e.gex_nargs > GASKET_AM_MAX_ARGS) return "gex_nargs is above gex_AM_MaxArgs() (16)";
    return nullptr;
}

void install(rt::Job& job, gex_EP_Index_t ep, unsigned index) {
    void (*fn)() = g_registries[ep].entry[index].gex_fnptr;
    if (ep == 0)
        job.am->set_handler(std::uint8_t(index), fn);
    else
        job.am->set_endpoint_handler(std::uint8_t(ep), std::uint8_t(index), fn);
}

gex_Flags_t category_flag(AmCategory c) {
    return c == AmCategory::short_am ? GEX_FLAG_AM_SHORT
           : c == AmCategory::medium ? GEX_FLAG_AM_MEDIUM
                                     : GEX_FLAG_AM_LONG;
}

// A GASNet-EX send's checks that GASNet-1 does not make: the handler's
// registration here (category, request or reply, argument count), flags
// (IMMEDIATE only), lc_opt (NOW, GROUP for requests, or an event pointer,
// which gets GEX_EVENT_INVALID: the payload is copied out before the call
// returns).  `ep`: the index of the endpoint whose table is checked: the
// sending one's, when the destination endpoint has the same index (then
// its table is taken to be the same, as GASNet-1 takes every node's), else
// kNoTable (none is checked here; the destination ends the job if it has
// no handler at that index).  Fatal, naming `routine`.
constexpr gex_EP_Index_t kNoTable = GASNET_MAXEPS;
void check_send(const char* routine, gex_EP_Index_t ep, gasnet_handler_t handler, AmCategory category, bool is_request,
                int nargs, gex_Event_t* lc_opt, gex_Flags_t flags) {
    if (flags & ~GEX_FLAG_IMMEDIATE)
        rt::fatal(routine, "flags 0x%x: only GEX_FLAG_IMMEDIATE is accepted", unsigned(flags));
    if (category != AmCategory::short_am) {
        if (lc_opt == GEX_EVENT_DEFER || lc_opt == nullptr || (lc_opt == GEX_EVENT_GROUP && !is_request))
            rt::fatal(routine, "lc_opt %p is not GEX_EVENT_NOW, %sa pointer to a gex_Event_t",
                      static_cast<void*>(lc_opt), is_request ? "GEX_EVENT_GROUP or " : "");
        if (lc_opt != GEX_EVENT_NOW && lc_opt != GEX_EVENT_GROUP) *lc_opt = GEX_EVENT_INVALID;
    }
    if (ep == kNoTable) return;
    const Registry& r = g_registries[ep];
    const gex_AM_Entry_t& e = r.entry[handler];
    if (!r.used[handler] || e.gex_flags == 0)
        return;  // unregistered: the send or the destination says so; gasnet_attach's: no flags
    if (!(e.gex_flags & category_flag(category)))
        rt::fatal(routine, "handler %u (%s) is not registered for this category (gex_flags 0x%x)", unsigned(handler),
                  name_of(e), unsigned(e.gex_flags));
    if (!(e.gex_flags & (is_request ? GEX_FLAG_AM_REQUEST : GEX_FLAG_AM_REPLY)))
        rt::fatal(routine, "handler %u (%s) is not registered as a %s handler (gex_flags 0x%x)", unsigned(handler),
                  name_of(e), is_request ? "request" : "reply", unsigned(e.gex_flags));
    if (unsigned(nargs) != e.gex_nargs)
        rt::fatal(routine, "%d arguments to handler %u (%s), registered with gex_nargs %u", nargs, unsigned(handler),
                  name_of(e), e.gex_nargs);
}

int gasp_category(AmCategory c) {
    return c == AmCategory::short_am ? GASP_GASNET_AM_SHORT
           : c == AmCategory::medium ? GASP_GASNET_AM_MEDIUM
                                     : GASP_GASNET_AM_LONG;
}

// ---- Messages to or from created endpoints (gasnet-ex-memory-kinds.txt §3, §5) ----

// What a message between endpoints needs checked beyond check_send: the
// job attached, `node` in range, a client handler index, the payload's
// size, and for a Long the range [dest_addr, +nbytes) inside the segment of
// endpoint `to` of `node` (attach segment for 0, else its published bound
// segment): where it goes (`target`) and its offset there.  When device
// memory takes part (that segment, or the source in the device segment of
// this process's endpoint `from`), the payload is copied into place here
// (device_transfer: `target` is AmEngine::placed_long), or, for a device segment
// not mapped here and at most rt::kStagingChunk bytes, carried in the
// message for the receiver to copy into place (`target` is
// AmEngine::inline_long; a device source is first copied to a host buffer,
// which `source_addr` then names).  A reply (`late_ctx` not null: from a
// handler, which cannot wait for a staged put) of more than that into such
// a segment is left to the caller: `target` is kLateReply and *late_ctx
// the source's device context (null: host memory).  Fatal, naming `routine`.
constexpr rt::Target kLateReply{nullptr, nullptr, 0};
rt::Job& check_long_between(const char* routine, rt::Job* job, gasnet_node_t node, gex_EP_Index_t from,
                            gex_EP_Index_t to, const void*& source_addr, size_t nbytes, void* dest_addr,
                            const rt::Target*& target, rt::Target& resolved, std::size_t& offset, void** late_ctx);
// Inline for what every message needs (a Short one needs no more); a Long
// one's range and placement out of line (check_long_between).
[[gnu::always_inline]] inline rt::Job& check_between(const char* routine, gasnet_node_t node, gex_EP_Index_t from,
                                                     gex_EP_Index_t to, gasnet_handler_t handler, AmCategory category,
                                                     const void*& source_addr, size_t nbytes, void* dest_addr,
                                                     const rt::Target*& target, rt::Target& resolved,
                                                     std::size_t& offset, void** late_ctx = nullptr) {
    rt::Job* job = attached_job(routine);
    if (!job) [[unlikely]]
        rt::fatal(routine, "called before a segment is attached (gex_Segment_Attach)");
    if (node >= gasnet_node_t(job->n_pes)) [[unlikely]]
        rt::fatal(routine, "rank %u is out of range: the job has ranks 0..%d", unsigned(node), job->n_pes - 1);
    if (handler < GEX_AM_INDEX_BASE) [[unlikely]]
        rt::fatal(routine, "handler index %u is reserved for GASNet (client handlers are 128..255)", unsigned(handler));
    resolved = rt::Target{nullptr, nullptr, 0};
    target = &resolved;
    offset = 0;
    if (category == AmCategory::medium && nbytes > size_t(GASKET_AM_MAX_MEDIUM)) [[unlikely]]
        rt::fatal(routine, "nbytes %zu is above gex_AM_MaxRequestMedium() = %zu", nbytes, size_t(GASKET_AM_MAX_MEDIUM));
    if (category != AmCategory::long_am) return *job;
    return check_long_between(routine, job, node, from, to, source_addr, nbytes, dest_addr, target, resolved, offset,
                              late_ctx);
}
rt::Job& check_long_between(const char* routine, rt::Job* job, gasnet_node_t node, gex_EP_Index_t from,
                            gex_EP_Index_t to, const void*& source_addr, size_t nbytes, void* dest_addr,
                            const rt::Target*& target, rt::Target& resolved, std::size_t& offset, void** late_ctx) {
    if (nbytes > GASKET_AM_MAX_LONG)
        rt::fatal(routine, "nbytes %zu is above gex_AM_MaxRequestLong() = %zu", nbytes, size_t(GASKET_AM_MAX_LONG));
    // locate / route_ep check the range (fatal outside the segment)
    bool device = false;
    if (to == 0) {
        resolved = locate(routine, node, dest_addr, nbytes);
        offset =
            reinterpret_cast<std::uintptr_t>(dest_addr) - reinterpret_cast<std::uintptr_t>(g_state.segments[node].addr);
    } else {
        const EpRoute& r = route_ep(routine, node, to, dest_addr, nbytes, offset);
        device = r.device;
        if (!device) resolved = rt::target_of(r, job->dynamic_window, offset);
    }
    void* local_ctx = from == 0 ? nullptr : local_device_context(from, source_addr, nbytes);
    if (!device && !local_ctx) return *job;
    if (device && !ep_route(to, node)->mapped.at && nbytes <= rt::kStagingChunk) {
        // Device memory this process cannot map, a payload one message
        // carries: inline, and the receiver copies it into its device (no
        // wait here: a handler may reply so).  A device source is copied to
        // host memory first.
        if (local_ctx) {
            thread_local std::vector<char> bounce(rt::kStagingChunk);
            rt::copy_out_to_send(routine, local_ctx, bounce.data(), source_addr, nbytes);
            source_addr = bounce.data();
        }
        target = &rt::AmEngine::inline_long;
        return *job;
    }
    if (device && late_ctx && !ep_route(to, node)->mapped.at) {
        *late_ctx = local_ctx;
        target = &kLateReply;
        return *job;
    }
    // Otherwise one device copy into place (mapped here), or a staged put
    // through the owner (not inside a handler), before the message.
    device_transfer(routine, node, to, dest_addr, const_cast<void*>(source_addr), nbytes, true, local_ctx);
    target = &rt::AmEngine::placed_long;
    return *job;
}

// A request from endpoint `from` of this process to endpoint `to` of
// jobrank `node`, either not the primordial one.  GASP: as request().
[[gnu::cold, gnu::noinline]] void request_between(const char* routine, gasnet_node_t node, gex_EP_Index_t from,
                                                  gex_EP_Index_t to, gasnet_handler_t handler, AmCategory category,
                                                  const void* source_addr, size_t nbytes, void* dest_addr,
                                                  gex_Event_t* lc_opt, gex_Flags_t flags, int nargs,
                                                  const gasnet_handlerarg_t* args) {
    check_send(routine, from == to ? from : kNoTable, handler, category, true, nargs, lc_opt, flags);
    rt::Target resolved{};
    const rt::Target* target = nullptr;
    std::size_t offset = 0;
    rt::Job& job = check_between(routine, node, from, to, handler, category, source_addr, nbytes, dest_addr, target,
                                 resolved, offset);
    const int h = handler, peer = int(node), event = gasp_category(category);
    if (gasp::on()) gasp::notify(GASP_GASNET_AM_REQUEST, GASP_START, event, h, peer, nbytes, nargs);
    job.am->request_between(routine, int(node), rt::AmEngine::Endpoints{std::uint8_t(from), std::uint8_t(to)}, category,
                            std::uint8_t(handler), nargs, args, source_addr, nbytes, offset, *target);
    if (gasp::on()) gasp::notify(GASP_GASNET_AM_REQUEST, GASP_END, event, h, peer, nbytes, nargs);
}

// A reply with a token whose request came from, or went to, a created
// endpoint: from the endpoint that received it to the one that sent it.
[[gnu::cold, gnu::noinline]] void reply_between(const char* routine, gex_Token_t token, gasnet_handler_t handler,
                                                AmCategory category, const void* source_addr, size_t nbytes,
                                                void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags, int nargs,
                                                const gasnet_handlerarg_t* args) {
    const gex_EP_Index_t table = token->ep == token->source_ep ? token->ep : kNoTable;
    check_send(routine, table, handler, category, false, nargs, lc_opt, flags);
    rt::Target resolved{};
    const rt::Target* target = nullptr;
    std::size_t offset = 0;
    const auto node = gasnet_node_t(token->source);
    void* late_ctx = nullptr;
    rt::Job& job = check_between(routine, node, token->ep, token->source_ep, handler, category, source_addr, nbytes,
                                 dest_addr, target, resolved, offset, &late_ctx);
    const int h = handler, peer = token->source, event = gasp_category(category);
    if (gasp::on()) gasp::notify(GASP_GASNET_AM_REPLY, GASP_START, event, h, peer, nbytes, nargs);
    if (target == &kLateReply)  // sent after this handler returns, once staged into place
        rt::defer_staged_reply(routine, job, token, std::uint8_t(handler), nargs, args, source_addr, nbytes, offset,
                               late_ctx);
    else
        job.am->reply_between(routine, token, category, std::uint8_t(handler), nargs, args, source_addr, nbytes, offset,
                              *target);
    if (gasp::on()) gasp::notify(GASP_GASNET_AM_REPLY, GASP_END, event, h, peer, nbytes, nargs);
}

// Whether a send on the primordial endpoint to `handler`, of the category
// and direction whose registration flags are `need`, with `nargs`
// arguments and `flags`, passes check_send (its lc_opt aside: the lean
// path takes GEX_EVENT_NOW only): then the entry points send at once.
[[gnu::always_inline]] inline bool lean_fits(gasnet_handler_t handler, gex_Flags_t need, int nargs, gex_Flags_t flags) {
    const std::uint32_t a = g_accept[handler].load(std::memory_order_relaxed);
    return !(flags & ~GEX_FLAG_IMMEDIATE) && (a == 0 || ((a & need) == need && (a >> 24) == unsigned(nargs)));
}
[[noreturn, gnu::cold, gnu::noinline]] void refused(const char* routine) {
    rt::fatal(routine, "refused (the line above says why)");
}
// GASNet-1's send under every GASNet-EX request and reply between
// primordial endpoints, once checked (its own checks -- rank, handler
// index, payload size -- still apply); fatal, naming `routine`, when it
// refuses.
[[gnu::always_inline]] inline int gasnet1_request(const char* routine, gex_Rank_t rank, gasnet_handler_t handler,
                                                  AmCategory category, const void* source_addr, size_t nbytes,
                                                  void* dest_addr, int nargs, const gasnet_handlerarg_t* args) {
    if (request(routine, gasp_category(category), rank, handler, category, source_addr, nbytes, dest_addr, nargs,
                args) != GASNET_OK) [[unlikely]]
        refused(routine);
    return 0;
}
[[gnu::always_inline]] inline int gasnet1_reply(const char* routine, gex_Token_t token, gasnet_handler_t handler,
                                                AmCategory category, const void* source_addr, size_t nbytes,
                                                void* dest_addr, int nargs, const gasnet_handlerarg_t* args) {
    if (reply(routine, gasp_category(category), token, handler, category, source_addr, nbytes, dest_addr, nargs,
              args) != GASNET_OK) [[unlikely]]
        refused(routine);
    return 0;
}
// Whether a reply on `token` answers a request between primordial
// endpoints (whose table check_send, and lean_fits, read).
[[gnu::always_inline]] inline bool primordial_token(gex_Token_t token) {
    return token && !(token->ep | token->source_ep);
}

// A request through a tm other than the primordial team and its pair.
[[gnu::cold, gnu::noinline]] void request_other(const char* routine, gex_TM_t tm, gex_Rank_t rank,
                                                gasnet_handler_t handler, AmCategory category, const void* source_addr,
                                                size_t nbytes, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                                                int nargs, const gasnet_handlerarg_t* args) {
    // A TM-pair names its endpoints (its rank is checked with the message)
    gex_EP_Index_t pair_from = 0, pair_to = 0;
    if (gex::pair_ends(tm, &pair_from, &pair_to) && (pair_from | pair_to) != 0)
        return request_between(routine, rank, pair_from, pair_to, handler, category, source_addr, nbytes, dest_addr,
                               lc_opt, flags, nargs, args);
    const gex_EP_Location_t to = gex::p2p_location(routine, tm, rank);
    const gex_EP_Index_t from = gex::local_ep_index(routine, tm);
    if (from != 0 || to.gex_ep_index != 0)
        return request_between(routine, to.gex_rank, from, to.gex_ep_index, handler, category, source_addr, nbytes,
                               dest_addr, lc_opt, flags, nargs, args);
    check_send(routine, 0, handler, category, true, nargs, lc_opt, flags);
    gasnet1_request(routine, to.gex_rank, handler, category, source_addr, nbytes, dest_addr, nargs, args);
}

}  // namespace

int gex_request(const char* routine, gex_TM_t tm, gex_Rank_t rank, gasnet_handler_t handler, AmCategory category,
                const void* source_addr, size_t nbytes, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                int nargs, const gasnet_handlerarg_t* args) {
    if (!gex::primordial_p2p(tm)) [[unlikely]] {
        request_other(routine, tm, rank, handler, category, source_addr, nbytes, dest_addr, lc_opt, flags, nargs, args);
        return 0;
    }
    check_send(routine, 0, handler, category, true, nargs, lc_opt, flags);
    return gasnet1_request(routine, rank, handler, category, source_addr, nbytes, dest_addr, nargs, args);
}

int gex_reply(const char* routine, gex_Token_t token, gasnet_handler_t handler, AmCategory category,
              const void* source_addr, size_t nbytes, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
              int nargs, const gasnet_handlerarg_t* args) {
    if (token && !primordial_token(token)) [[unlikely]] {
        reply_between(routine, token, handler, category, source_addr, nbytes, dest_addr, lc_opt, flags, nargs, args);
        return 0;
    }
    check_send(routine, 0, handler, category, false, nargs, lc_opt, flags);
    return gasnet1_reply(routine, token, handler, category, source_addr, nbytes, dest_addr, nargs, args);
}

namespace {

// Whether registration `e` may be a peer completion handler.
bool peer_completion_fits(const gex_AM_Entry_t& e) {
    constexpr gex_Flags_t need = GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY;
    return e.gex_flags == 0 || ((e.gex_flags & need) == need && e.gex_nargs == 0);  // 0: gasnet_attach's
}

[[noreturn, gnu::cold]] void peer_completion_misfit(const char* routine, gasnet_handler_t handler,
                                                    const gex_AM_Entry_t& e) {
    rt::fatal(routine,
              "handler %u (%s) is registered with gex_flags 0x%x and gex_nargs %u: a peer completion handler "
              "must be a 0-argument Medium reply handler (GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, gex_nargs 0)",
              unsigned(handler), name_of(e), unsigned(e.gex_flags), e.gex_nargs);
}

}  // namespace

void check_peer_completion_handler(const char* routine, gasnet_handler_t handler) {
    // Which endpoint's put it will announce is not known yet: one of this
    // process's tables must have it, fit to be one (each put checks the
    // table of its destination endpoint's index again: gex_peer_notice).
    const gex_AM_Entry_t* misfit = nullptr;
    for (gex_EP_Index_t ep = 0; ep < GASNET_MAXEPS; ++ep) {
        const Registry& r = g_registries[ep];
        if (!r.used[handler]) continue;
        if (peer_completion_fits(r.entry[handler])) return;
        if (!misfit) misfit = &r.entry[handler];
    }
    if (!misfit) rt::fatal(routine, "handler index %u is not registered (gex_EP_RegisterHandlers)", unsigned(handler));
    peer_completion_misfit(routine, handler, *misfit);
}

void gex_peer_notice(const char* routine, gasnet_node_t node, gex_EP_Index_t ep, gasnet_handler_t handler,
                     const void* payload, size_t nbytes) {
    rt::Job* job = attached_job(routine);
    if (!job) rt::fatal(routine, "called before a segment is attached (gex_Segment_Attach)");
    if (ep == 0 && !job->am->has_handler(handler))  // a created endpoint's: its process checks
        rt::fatal(routine, "handler index %u is not registered on this node", unsigned(handler));
    // This process's endpoint of the same index as the destination is taken
    // to have its table (as for AMs): where it has the index, it must fit.
    const Registry& r = g_registries[ep];
    if (r.used[handler] && !peer_completion_fits(r.entry[handler]))
        peer_completion_misfit(routine, handler, r.entry[handler]);
    const int h = handler, peer = int(node), category = GASP_GASNET_AM_MEDIUM, nargs = 0;
    if (gasp::on()) gasp::notify(GASP_GASNET_AM_REQUEST, GASP_START, category, h, peer, nbytes, nargs);
    job->am->notify(routine, peer, std::uint8_t(handler), payload, nbytes, std::uint8_t(ep));
    if (gasp::on()) gasp::notify(GASP_GASNET_AM_REQUEST, GASP_END, category, h, peer, nbytes, nargs);
}

namespace {

void check_numargs(const char* routine, unsigned numargs) {
    if (numargs > GASKET_AM_MAX_ARGS)
        rt::fatal(routine, "numargs %u is above gex_AM_MaxArgs() (%d)", numargs, GASKET_AM_MAX_ARGS);
}

size_t max_payload(const char* routine, gex_TM_t tm, gex_Rank_t other_rank, gex_Flags_t flags, unsigned numargs,
                   size_t limit) {
    // other_rank GEX_RANK_INVALID: any peer (the team is still checked)
    const gex_Rank_t jobrank = gex::p2p_location(routine, tm, other_rank == GEX_RANK_INVALID ? 0 : other_rank).gex_rank;
    check_numargs(routine, numargs);
    if (flags & ~(GEX_FLAG_IMMEDIATE | GEX_FLAG_AM_PREPARE_LEAST_CLIENT | GEX_FLAG_AM_PREPARE_LEAST_ALLOC))
        rt::fatal(routine, "flags 0x%x: not flags of an AM call", unsigned(flags));
    const rt::Job& job = initialized_job(routine);
    if (other_rank != GEX_RANK_INVALID && jobrank >= gex_Rank_t(job.n_pes))
        rt::fatal(routine, "other_rank %u is out of range: the team has ranks 0..%d", unsigned(other_rank),
                  job.n_pes - 1);
    return limit;  // the same for every peer, argument count and lc_opt
}

}  // namespace

void register_attach_handlers(const gasnet_handlerentry_t* table, int numentries) {
    std::lock_guard<std::mutex> hold(g_registry.lock);
    for (int i = 0; i < numentries; ++i) {
        const unsigned index = table[i].index;
        g_registry.used[index] = true;
        g_registry.entry[index] = gex_AM_Entry_t{gex_AM_Index_t(index), table[i].fnptr, 0, 0, nullptr, nullptr};
        g_accept[index].store(0, std::memory_order_relaxed);
    }
}

bool handler_index_taken(unsigned index) {
    std::lock_guard<std::mutex> hold(g_registry.lock);
    return index < 256 && g_registry.used[index];
}

void install_gex_handlers(rt::Job& job) {
    for (gex_EP_Index_t ep = 0; ep < GASNET_MAXEPS; ++ep) {
        Registry& r = g_registries[ep];
        std::lock_guard<std::mutex> hold(r.lock);
        for (unsigned i = 0; i < 256; ++i)
            if (r.used[i] && r.entry[i].gex_flags != 0) install(job, ep, i);
    }
}

}  // namespace gasket::gasnet

using namespace gasket;
using gasket::rt::AmCategory;

extern "C" {

int gex_EP_RegisterHandlers(gex_EP_t ep, gex_AM_Entry_t* table, size_t numentries) noexcept {
    const char* routine = "gex_EP_RegisterHandlers";
    const gex_EP_Index_t ep_index = gex::ep_of(routine, ep).index;
    if (numentries > 0 && !table) {
        rt::error(routine, "table is NULL with numentries %zu", numentries);
        return GASNET_ERR_BAD_ARG;
    }
    gasnet::Registry& r = gasnet::g_registries[ep_index];
    std::lock_guard<std::mutex> hold(r.lock);
    std::array<bool, 256> used = r.used;
    std::vector<unsigned> index(numentries);
    for (size_t i = 0; i < numentries; ++i) {  // every entry checked, the fixed indices claimed
        if (const char* why = gasnet::entry_problem(table[i])) {
            rt::error(routine, "table[%zu] (%s): %s", i, gasnet::name_of(table[i]), why);
            return GASNET_ERR_BAD_ARG;
        }
        const unsigned fixed = table[i].gex_index;
        if (fixed == 0) continue;
        if (fixed < GEX_AM_INDEX_BASE || used[fixed]) {
            rt::error(routine, "table[%zu] (%s): index %u is %s", i, gasnet::name_of(table[i]), fixed,
                      fixed < GEX_AM_INDEX_BASE ? "below GEX_AM_INDEX_BASE (128): GASNet's own"
                                                : "taken (by this table, an earlier call or gasnet_attach)");
            return GASNET_ERR_BAD_ARG;
        }
        used[fixed] = true;
        index[i] = fixed;
    }
    unsigned next = 255;
    for (size_t i = 0; i < numentries; ++i) {  // then "don't care", in table order, highest free first
        if (table[i].gex_index != 0) continue;
        while (next >= GEX_AM_INDEX_BASE && used[next]) --next;
        if (next < GEX_AM_INDEX_BASE) {
            rt::error(routine, "table[%zu] (%s): no free handler index left (128 client handlers at most)", i,
                      gasnet::name_of(table[i]));
            return GASNET_ERR_BAD_ARG;
        }
        used[next] = true;
        index[i] = next;
    }
    for (size_t i = 0; i < numentries; ++i) {
        table[i].gex_index = gex_AM_Index_t(index[i]);
        r.used[index[i]] = true;
        r.entry[index[i]] = table[i];
        if (ep_index == 0) gasnet::g_accept[index[i]].store(gasnet::accept_word(table[i]), std::memory_order_relaxed);
        if (gasnet::g_state.attached) gasnet::install(*rt::g_job, ep_index, index[i]);  // else at gex_Segment_Attach
    }
    return GASNET_OK;
}

size_t gex_AM_MaxRequestLong(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t*, gex_Flags_t flags,
                             unsigned int numargs) noexcept {
    return gasnet::max_payload("gex_AM_MaxRequestLong", tm, other_rank, flags, numargs, GASKET_AM_MAX_LONG);
}
size_t gex_AM_MaxReplyLong(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t*, gex_Flags_t flags,
                           unsigned int numargs) noexcept {
    return gasnet::max_payload("gex_AM_MaxReplyLong", tm, other_rank, flags, numargs, GASKET_AM_MAX_LONG);
}
size_t gex_AM_MaxRequestMedium(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t*, gex_Flags_t flags,
                               unsigned int numargs) noexcept {
    return gasnet::max_payload("gex_AM_MaxRequestMedium", tm, other_rank, flags, numargs, GASKET_AM_MAX_MEDIUM);
}
size_t gex_AM_MaxReplyMedium(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t*, gex_Flags_t flags,
                             unsigned int numargs) noexcept {
    return gasnet::max_payload("gex_AM_MaxReplyMedium", tm, other_rank, flags, numargs, GASKET_AM_MAX_MEDIUM);
}
size_t gex_Token_MaxReplyLong(gex_Token_t token, const gex_Event_t*, gex_Flags_t, unsigned int numargs) noexcept {
    if (!token) rt::fatal("gex_Token_MaxReplyLong", "token is NULL");
    gasnet::check_numargs("gex_Token_MaxReplyLong", numargs);
    return GASKET_AM_MAX_LONG;
}
size_t gex_Token_MaxReplyMedium(gex_Token_t token, const gex_Event_t*, gex_Flags_t, unsigned int numargs) noexcept {
    if (!token) rt::fatal("gex_Token_MaxReplyMedium", "token is NULL");
    gasnet::check_numargs("gex_Token_MaxReplyMedium", numargs);
    return GASKET_AM_MAX_MEDIUM;
}

gex_TI_t gex_Token_Info(gex_Token_t token, gex_Token_Info_t* info, gex_TI_t mask) noexcept {
    const char* routine = "gex_Token_Info";
    const gasnet::RunningHandler& h = gasnet::running_handler();
    if (!token || token != h.token)
        rt::fatal(routine, "token %p is not the token of the handler this thread runs", static_cast<void*>(token));
    if (!info) rt::fatal(routine, "info is NULL");
    if (mask & ~GEX_TI_ALL) rt::fatal(routine, "mask 0x%x has bits that are not GEX_TI_*", unsigned(mask));
    info->gex_srcrank = gex_Rank_t(token->source);
    info->gex_ep = token->ep == 0 ? &gex::g_objects.ep : gex::created_ep_at(token->ep);
    info->gex_entry = &gasnet::g_registries[token->ep].entry[h.handler];
    info->gex_is_req = token->request ? 1 : 0;
    info->gex_is_long = h.is_long ? 1 : 0;
    return GEX_TI_ALL;
}

// The entry points for M arguments, from the arity table: the arguments go
// into an array (a leading 0 keeps it non-empty) as GASNet-1's do.  A send
// between primordial endpoints that passes lean_fits (and, with a payload,
// has lc_opt GEX_EVENT_NOW) goes straight to GASNet-1's send; every other
// one to gex_request / gex_reply, which check everything and name the
// error.
#define GASKET_GEX_LEAN_REQUEST(flag, M) \
    (gex::primordial_p2p(tm) && gasnet::lean_fits(handler, (flag) | GEX_FLAG_AM_REQUEST, M, flags))
#define GASKET_GEX_LEAN_REPLY(flag, M) \
    (gasnet::primordial_token(token) && gasnet::lean_fits(handler, (flag) | GEX_FLAG_AM_REPLY, M, flags))
#define GASKET_GEX_AM_DEFINE(M)                                                                                        \
    int gex_AM_RequestShort##M(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler,                                   \
                               gex_Flags_t flags GASKET_AM_PARAMS_##M) noexcept {                                      \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                   \
        if (GASKET_GEX_LEAN_REQUEST(GEX_FLAG_AM_SHORT, M)) [[likely]]                                                  \
            return gasnet::gasnet1_request("gex_AM_RequestShort" #M, rank, handler, AmCategory::short_am, nullptr, 0,  \
                                           nullptr, M, args + 1);                                                      \
        return gasnet::gex_request("gex_AM_RequestShort" #M, tm, rank, handler, AmCategory::short_am, nullptr, 0,      \
                                   nullptr, nullptr, flags, M, args + 1);                                              \
    }                                                                                                                  \
    int gex_AM_RequestMedium##M(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void* source_addr,         \
                                size_t nbytes, gex_Event_t* lc_opt, gex_Flags_t flags GASKET_AM_PARAMS_##M) noexcept { \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                   \
        if (lc_opt == GEX_EVENT_NOW && GASKET_GEX_LEAN_REQUEST(GEX_FLAG_AM_MEDIUM, M)) [[likely]]                      \
            return gasnet::gasnet1_request("gex_AM_RequestMedium" #M, rank, handler, AmCategory::medium, source_addr,  \
                                           nbytes, nullptr, M, args + 1);                                              \
        return gasnet::gex_request("gex_AM_RequestMedium" #M, tm, rank, handler, AmCategory::medium, source_addr,      \
                                   nbytes, nullptr, lc_opt, flags, M, args + 1);                                       \
    }                                                                                                                  \
    int gex_AM_RequestLong##M(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void* source_addr,           \
                              size_t nbytes, void* dest_addr, gex_Event_t* lc_opt,                                     \
                              gex_Flags_t flags GASKET_AM_PARAMS_##M) noexcept {                                       \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                   \
        if (lc_opt == GEX_EVENT_NOW && GASKET_GEX_LEAN_REQUEST(GEX_FLAG_AM_LONG, M)) [[likely]]                        \
            return gasnet::gasnet1_request("gex_AM_RequestLong" #M, rank, handler, AmCategory::long_am, source_addr,   \
                                           nbytes, dest_addr, M, args + 1);                                            \
        return gasnet::gex_request("gex_AM_RequestLong" #M, tm, rank, handler, AmCategory::long_am, source_addr,       \
                                   nbytes, dest_addr, lc_opt, flags, M, args + 1);                                     \
    }                                                                                                                  \
    int gex_AM_ReplyShort##M(gex_Token_t token, gex_AM_Index_t handler,                                                \
                             gex_Flags_t flags GASKET_AM_PARAMS_##M) noexcept {                                        \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                   \
        if (GASKET_GEX_LEAN_REPLY(GEX_FLAG_AM_SHORT, M)) [[likely]]                                                    \
            return gasnet::gasnet1_reply("gex_AM_ReplyShort" #M, token, handler, AmCategory::short_am, nullptr, 0,     \
                                         nullptr, M, args + 1);                                                        \
        return gasnet::gex_reply("gex_AM_ReplyShort" #M, token, handler, AmCategory::short_am, nullptr, 0, nullptr,    \
                                 nullptr, flags, M, args + 1);                                                         \
    }                                                                                                                  \
    int gex_AM_ReplyMedium##M(gex_Token_t token, gex_AM_Index_t handler, const void* source_addr, size_t nbytes,       \
                              gex_Event_t* lc_opt, gex_Flags_t flags GASKET_AM_PARAMS_##M) noexcept {                  \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                   \
        if (lc_opt == GEX_EVENT_NOW && GASKET_GEX_LEAN_REPLY(GEX_FLAG_AM_MEDIUM, M)) [[likely]]                        \
            return gasnet::gasnet1_reply("gex_AM_ReplyMedium" #M, token, handler, AmCategory::medium, source_addr,     \
                                         nbytes, nullptr, M, args + 1);                                                \
        return gasnet::gex_reply("gex_AM_ReplyMedium" #M, token, handler, AmCategory::medium, source_addr, nbytes,     \
                                 nullptr, lc_opt, flags, M, args + 1);                                                 \
    }                                                                                                                  \
    int gex_AM_ReplyLong##M(gex_Token_t token, gex_AM_Index_t handler, const void* source_addr, size_t nbytes,         \
                            void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags GASKET_AM_PARAMS_##M) noexcept {   \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                   \
        if (lc_opt == GEX_EVENT_NOW && GASKET_GEX_LEAN_REPLY(GEX_FLAG_AM_LONG, M)) [[likely]]                          \
            return gasnet::gasnet1_reply("gex_AM_ReplyLong" #M, token, handler, AmCategory::long_am, source_addr,      \
                                         nbytes, dest_addr, M, args + 1);                                              \
        return gasnet::gex_reply("gex_AM_ReplyLong" #M, token, handler, AmCategory::long_am, source_addr, nbytes,      \
                                 dest_addr, lc_opt, flags, M, args + 1);                                               \
    }
GASKET_AM_ARITIES(GASKET_GEX_AM_DEFINE)
#undef GASKET_GEX_AM_DEFINE
#undef GASKET_GEX_LEAN_REQUEST
#undef GASKET_GEX_LEAN_REPLY

}  // extern "C"
