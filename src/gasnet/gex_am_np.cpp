// src/gasnet/gex_am_np.cpp -- GASNet-EX's negotiated-payload Active
// Messages (gasnet-ex-api.txt "Negotiated-payload AM APIs"): Prepare
// records the destination and offers a buffer (the client's, or this
// thread's own), Commit sends it through the fixed-payload send
// (gex_am.hpp: the same registration checks, engine and GASP events),
// Cancel drops it.
//
// A source descriptor is this thread's one object (Prepares do not nest),
// so a descriptor is valid exactly when it is the calling thread's and a
// Prepare is pending.
#include <gasnet.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "am.hpp"
#include "gex_am.hpp"
#include "src/gex/objects.hpp"
#include "state.hpp"

using gasket::rt::AmCategory;

struct gasket_gex_srcdesc {
    bool pending = false;
    bool is_request = false;
    AmCategory category = AmCategory::medium;
    gex_TM_t tm = GEX_TM_INVALID;
    gex_Rank_t rank = 0;
    gex_Token_t token = nullptr;
    bool client_buffer = false;
    char* addr = nullptr;
    std::size_t size = 0;
    void* dest_addr = nullptr;  // Long: the one Prepare was given (or null)
    gex_Event_t* lc_opt = nullptr;
    unsigned numargs = 0;
    std::vector<std::max_align_t> own;  // the buffer Gasket offers, this thread's
};

namespace gasket::gasnet {

namespace {

thread_local gasket_gex_srcdesc t_sd;

const char* kind_name(bool is_request, AmCategory c) {
    if (c == AmCategory::medium) return is_request ? "RequestMedium" : "ReplyMedium";
    return is_request ? "RequestLong" : "ReplyLong";
}

std::size_t max_of(AmCategory c) {
    return c == AmCategory::medium ? std::size_t(GASKET_AM_MAX_MEDIUM) : std::size_t(GASKET_AM_MAX_LONG);
}

gex_AM_SrcDesc_t prepare(const char* routine, bool is_request, AmCategory category, gex_TM_t tm, gex_Rank_t rank,
                         gex_Token_t token, const void* client_buf, std::size_t least, std::size_t most,
                         void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags, unsigned numargs) {
    gasket_gex_srcdesc& sd = t_sd;
    if (sd.pending)
        rt::fatal(routine, "a gex_AM_Prepare%s is pending on this thread: Commit or Cancel it first (they do not nest)",
                  kind_name(sd.is_request, sd.category));
    if (is_request) {
        // checked here, translated again by the Commit's send (sd keeps tm and rank)
        const gex_Rank_t jobrank = gex::primordial_p2p(tm) ? rank : gex::p2p_location(routine, tm, rank).gex_rank;
        const rt::Job& job = initialized_job(routine);
        if (jobrank >= gex_Rank_t(job.n_pes))
            rt::fatal(routine, "rank %u is out of range: the team has ranks 0..%d", unsigned(rank), job.n_pes - 1);
    } else if (!token || token != running_handler().token || !token->request) {
        rt::fatal(routine, "token %p is not the token of the request handler this thread runs",
                  static_cast<void*>(token));
    }
    const std::size_t max = max_of(category);
    if (least > max)
        rt::fatal(routine, "least_payload %zu is above gex_AM_Max%s() = %zu", least, kind_name(is_request, category),
                  max);
    if (most < least) rt::fatal(routine, "most_payload %zu is below least_payload %zu", most, least);
    if (!client_buf && lc_opt)
        rt::fatal(routine, "lc_opt %p must be NULL when client_buf is NULL (a buffer Gasket allocates)",
                  static_cast<void*>(lc_opt));
    if (flags & ~GEX_FLAG_IMMEDIATE)
        rt::fatal(routine, "flags 0x%x: only GEX_FLAG_IMMEDIATE is accepted", unsigned(flags));
    if (numargs > GASKET_AM_MAX_ARGS)
        rt::fatal(routine, "numargs %u is above gex_AM_MaxArgs() (%d)", numargs, GASKET_AM_MAX_ARGS);
    sd.pending = true;
    sd.is_request = is_request;
    sd.category = category;
    sd.tm = tm;
    sd.rank = rank;
    sd.token = token;
    sd.client_buffer = client_buf != nullptr;
    sd.size = std::min(most, max);
    sd.dest_addr = dest_addr;
    sd.lc_opt = lc_opt;
    sd.numargs = numargs;
    if (client_buf) {
        sd.addr = static_cast<char*>(const_cast<void*>(client_buf));
    } else {
        const std::size_t words = (sd.size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
        if (sd.own.size() < words) sd.own.resize(words);
        sd.addr = reinterpret_cast<char*>(sd.own.data());
    }
    return &sd;
}

// The pending descriptor `sd` of this thread; fatal, naming `routine`,
// for anything else.
gasket_gex_srcdesc& pending(const char* routine, gex_AM_SrcDesc_t sd) {
    if (sd == GEX_AM_SRCDESC_NO_OP) rt::fatal(routine, "sd is GEX_AM_SRCDESC_NO_OP");
    if (sd != &t_sd || !sd->pending)
        rt::fatal(routine,
                  "sd %p is not this thread's pending source descriptor (from gex_AM_Prepare*, not yet "
                  "committed or cancelled)",
                  static_cast<void*>(sd));
    return *sd;
}

// The descriptor of a Commit or Cancel of kind (is_request, category).
gasket_gex_srcdesc& pending_of_kind(const char* routine, gex_AM_SrcDesc_t sdh, bool is_request, AmCategory category) {
    gasket_gex_srcdesc& sd = pending(routine, sdh);
    if (sd.is_request != is_request || sd.category != category)
        rt::fatal(routine, "sd was prepared by gex_AM_Prepare%s, not gex_AM_Prepare%s",
                  kind_name(sd.is_request, sd.category), kind_name(is_request, category));
    return sd;
}

int commit(const char* routine, gex_AM_SrcDesc_t sdh, bool is_request, AmCategory category, gex_AM_Index_t handler,
           std::size_t nbytes, void* dest_addr, gex_Flags_t commit_flags, int nargs, const gasnet_handlerarg_t* args) {
    gasket_gex_srcdesc& sd = pending_of_kind(routine, sdh, is_request, category);
    if (unsigned(nargs) != sd.numargs)
        rt::fatal(routine, "%d arguments, but the Prepare said numargs %u", nargs, sd.numargs);
    if (nbytes > sd.size) rt::fatal(routine, "nbytes %zu is above gex_AM_SrcDescSize(sd) = %zu", nbytes, sd.size);
    if (category == AmCategory::long_am && sd.dest_addr && dest_addr != sd.dest_addr)
        rt::fatal(routine, "dest_addr %p is not the %p given to the Prepare", dest_addr, sd.dest_addr);
    if (commit_flags & ~GEX_FLAG_IMMEDIATE)
        rt::fatal(routine, "commit_flags 0x%x: only GEX_FLAG_IMMEDIATE is accepted", unsigned(commit_flags));
    // The descriptor is consumed before the send: a request may wait for
    // credits, running handlers on this thread, which may Prepare replies.
    // So the send reads from copies of the fields, and from the thread's
    // buffer moved aside (a nested Prepare gets a buffer of its own).
    sd.pending = false;
    gasket_gex_srcdesc d;
    d.tm = sd.tm;
    d.rank = sd.rank;
    d.token = sd.token;
    d.addr = sd.addr;
    d.lc_opt = sd.client_buffer ? sd.lc_opt : GEX_EVENT_NOW;
    if (!sd.client_buffer) d.own.swap(sd.own);  // d.addr still points into it
    const int rc = is_request ? gex_request(routine, d.tm, d.rank, gasnet_handler_t(handler), category, d.addr, nbytes,
                                            dest_addr, d.lc_opt, 0, nargs, args)
                              : gex_reply(routine, d.token, gasnet_handler_t(handler), category, d.addr, nbytes,
                                          dest_addr, d.lc_opt, 0, nargs, args);
    if (d.own.size() > sd.own.size()) d.own.swap(sd.own);  // keep the larger buffer for the next Prepare
    return rc;
}

void cancel(const char* routine, gex_AM_SrcDesc_t sdh, bool is_request, AmCategory category, gex_Flags_t flags) {
    gasket_gex_srcdesc& sd = pending_of_kind(routine, sdh, is_request, category);
    if (flags != 0) rt::fatal(routine, "flags 0x%x: reserved, must be 0", unsigned(flags));
    sd.pending = false;
}

}  // namespace

}  // namespace gasket::gasnet

using namespace gasket;
using gasnet::commit;

extern "C" {

void* gex_AM_SrcDescAddr(gex_AM_SrcDesc_t sd) noexcept { return gasnet::pending("gex_AM_SrcDescAddr", sd).addr; }
size_t gex_AM_SrcDescSize(gex_AM_SrcDesc_t sd) noexcept { return gasnet::pending("gex_AM_SrcDescSize", sd).size; }

gex_AM_SrcDesc_t gex_AM_PrepareRequestMedium(gex_TM_t tm, gex_Rank_t rank, const void* client_buf, size_t least_payload,
                                             size_t most_payload, gex_Event_t* lc_opt, gex_Flags_t flags,
                                             unsigned int numargs) noexcept {
    return gasnet::prepare("gex_AM_PrepareRequestMedium", true, AmCategory::medium, tm, rank, nullptr, client_buf,
                           least_payload, most_payload, nullptr, lc_opt, flags, numargs);
}
gex_AM_SrcDesc_t gex_AM_PrepareReplyMedium(gex_Token_t token, const void* client_buf, size_t least_payload,
                                           size_t most_payload, gex_Event_t* lc_opt, gex_Flags_t flags,
                                           unsigned int numargs) noexcept {
    return gasnet::prepare("gex_AM_PrepareReplyMedium", false, AmCategory::medium, GEX_TM_INVALID, 0, token, client_buf,
                           least_payload, most_payload, nullptr, lc_opt, flags, numargs);
}
gex_AM_SrcDesc_t gex_AM_PrepareRequestLong(gex_TM_t tm, gex_Rank_t rank, const void* client_buf, size_t least_payload,
                                           size_t most_payload, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                                           unsigned int numargs) noexcept {
    return gasnet::prepare("gex_AM_PrepareRequestLong", true, AmCategory::long_am, tm, rank, nullptr, client_buf,
                           least_payload, most_payload, dest_addr, lc_opt, flags, numargs);
}
gex_AM_SrcDesc_t gex_AM_PrepareReplyLong(gex_Token_t token, const void* client_buf, size_t least_payload,
                                         size_t most_payload, void* dest_addr, gex_Event_t* lc_opt, gex_Flags_t flags,
                                         unsigned int numargs) noexcept {
    return gasnet::prepare("gex_AM_PrepareReplyLong", false, AmCategory::long_am, GEX_TM_INVALID, 0, token, client_buf,
                           least_payload, most_payload, dest_addr, lc_opt, flags, numargs);
}

void gex_AM_CancelRequestMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags) noexcept {
    gasnet::cancel("gex_AM_CancelRequestMedium", sd, true, AmCategory::medium, flags);
}
void gex_AM_CancelReplyMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags) noexcept {
    gasnet::cancel("gex_AM_CancelReplyMedium", sd, false, AmCategory::medium, flags);
}
void gex_AM_CancelRequestLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags) noexcept {
    gasnet::cancel("gex_AM_CancelRequestLong", sd, true, AmCategory::long_am, flags);
}
void gex_AM_CancelReplyLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags) noexcept {
    gasnet::cancel("gex_AM_CancelReplyLong", sd, false, AmCategory::long_am, flags);
}

// The Commits for M arguments, from the arity table (a leading 0 keeps the
// argument array non-empty, as the fixed-payload calls do).
#define GASKET_GEX_AM_COMMIT_DEFINE(M)                                                                                \
    void gex_AM_CommitRequestMedium##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler,                                   \
                                       size_t nbytes GASKET_AM_PARAMS_##M) noexcept {                                 \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        commit("gex_AM_CommitRequestMedium" #M, sd, true, AmCategory::medium, handler, nbytes, nullptr, 0, M,         \
               args + 1);                                                                                             \
    }                                                                                                                 \
    void gex_AM_CommitReplyMedium##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler,                                     \
                                     size_t nbytes GASKET_AM_PARAMS_##M) noexcept {                                   \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        commit("gex_AM_CommitReplyMedium" #M, sd, false, AmCategory::medium, handler, nbytes, nullptr, 0, M,          \
               args + 1);                                                                                             \
    }                                                                                                                 \
    void gex_AM_CommitRequestLong##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                      \
                                     void* dest_addr GASKET_AM_PARAMS_##M) noexcept {                                 \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        commit("gex_AM_CommitRequestLong" #M, sd, true, AmCategory::long_am, handler, nbytes, dest_addr, 0, M,        \
               args + 1);                                                                                             \
    }                                                                                                                 \
    void gex_AM_CommitReplyLong##M(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                        \
                                   void* dest_addr GASKET_AM_PARAMS_##M) noexcept {                                   \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        commit("gex_AM_CommitReplyLong" #M, sd, false, AmCategory::long_am, handler, nbytes, dest_addr, 0, M,         \
               args + 1);                                                                                             \
    }                                                                                                                 \
    int gex_AM_CommitRequestMedium##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                \
                                           gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) noexcept {                  \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return commit("gex_AM_CommitRequestMedium" #M "_v2", sd, true, AmCategory::medium, handler, nbytes, nullptr,  \
                      commit_flags, M, args + 1);                                                                     \
    }                                                                                                                 \
    int gex_AM_CommitReplyMedium##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,                  \
                                         gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) noexcept {                    \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return commit("gex_AM_CommitReplyMedium" #M "_v2", sd, false, AmCategory::medium, handler, nbytes, nullptr,   \
                      commit_flags, M, args + 1);                                                                     \
    }                                                                                                                 \
    int gex_AM_CommitRequestLong##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes, void* dest_addr, \
                                         gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) noexcept {                    \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return commit("gex_AM_CommitRequestLong" #M "_v2", sd, true, AmCategory::long_am, handler, nbytes, dest_addr, \
                      commit_flags, M, args + 1);                                                                     \
    }                                                                                                                 \
    int gex_AM_CommitReplyLong##M##_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes, void* dest_addr,   \
                                       gex_Flags_t commit_flags GASKET_AM_PARAMS_##M) noexcept {                      \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return commit("gex_AM_CommitReplyLong" #M "_v2", sd, false, AmCategory::long_am, handler, nbytes, dest_addr,  \
                      commit_flags, M, args + 1);                                                                     \
    }
GASKET_AM_ARITIES(GASKET_GEX_AM_COMMIT_DEFINE)
#undef GASKET_GEX_AM_COMMIT_DEFINE

}  // extern "C"
