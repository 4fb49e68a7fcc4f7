// src/gasnet/am.cpp -- the Active Message entry points (gasnet-1.8-spec.md
// §2.3), generated for every argument count from gasket/gasnet_arity.h, and
// handler dispatch.
#include <gasnet.h>

#include <sched.h>

#include "am.hpp"
#include "dispatch.hpp"
#include "src/gasp/gasp.hpp"
#include "src/runtime/start.hpp"
#include "state.hpp"

namespace gasket::gasnet {

namespace {

using rt::AmCategory;

// §2.1.0.2: indices 1..127 are GASNet's own (Gasket's internal handlers
// live there) and a client may only name one its gasnet_attach registered.
// Checked before sending: the destination would end the job anyway, and a
// reserved index would reach an internal handler with the client's
// arguments.  Fatal, as the destination's check has always been.
inline void check_handler(const char* routine, gasnet_handler_t handler, const rt::Job& job) {
    if (!job.am->has_handler(handler)) [[unlikely]]
        rt::fatal(routine,
                  "handler index %u is not registered: gasnet_attach registered no client handler there (client "
                  "handlers are 128..255; 0..127 are reserved for GASNet, GASNet 1.8 §2.1.0.2)",
                  unsigned(handler));
}

// Checks what every request shares; returns GASNET_OK or an error code.
inline int check_node(const char* routine, gasnet_node_t dest, rt::Job& job) {
    if (dest >= gasnet_node_t(job.n_pes)) [[unlikely]] {
        rt::error(routine, "node %u is out of range: the job has nodes 0..%d", dest, job.n_pes - 1);
        return GASNET_ERR_BAD_ARG;
    }
    return GASNET_OK;
}

inline int check_medium(const char* routine, size_t nbytes) {
    if (nbytes > gasnet_AMMaxMedium()) [[unlikely]] {
        rt::error(routine, "nbytes %zu is above gasnet_AMMaxMedium() = %zu", nbytes, size_t(gasnet_AMMaxMedium()));
        return GASNET_ERR_BAD_ARG;
    }
    return GASNET_OK;
}

// A Long range [dest_addr, dest_addr + nbytes) inside node `dest`'s segment:
// its offset there, or an error code.
inline int long_offset(const char* routine, gasnet_node_t dest, const void* dest_addr, size_t nbytes, size_t limit,
                       size_t& offset) {
    if (nbytes > limit) [[unlikely]] {
        rt::error(routine, "nbytes %zu is above the Long limit %zu", nbytes, limit);
        return GASNET_ERR_BAD_ARG;
    }
    const gasnet_seginfo_t& seg = g_state.segments[dest];
    offset = reinterpret_cast<uintptr_t>(dest_addr) - reinterpret_cast<uintptr_t>(seg.addr);
    if (reinterpret_cast<uintptr_t>(dest_addr) < reinterpret_cast<uintptr_t>(seg.addr) || offset > seg.size ||
        nbytes > seg.size - offset) [[unlikely]] {
        rt::error(routine, "destination [%p, +%zu bytes) is outside node %u's segment [%p, +%ju bytes)", dest_addr,
                  nbytes, dest, seg.addr, uintmax_t(seg.size));
        return GASNET_ERR_BAD_ARG;
    }
    return GASNET_OK;
}

// The payload rules of `category` for a message to `dest`: Medium size, or
// a Long range inside dest's segment (its offset into `offset`).
inline int check_payload(const char* routine, AmCategory category, gasnet_node_t dest, size_t nbytes,
                         const void* dest_addr, size_t long_limit, size_t& offset) {
    if (category == AmCategory::medium) return check_medium(routine, nbytes);
    if (category == AmCategory::long_am) return long_offset(routine, dest, dest_addr, nbytes, long_limit, offset);
    return GASNET_OK;
}

int send_request(const char* routine, gasnet_node_t dest, gasnet_handler_t handler, AmCategory category,
                 const void* source_addr, size_t nbytes, void* dest_addr, int nargs, const gasnet_handlerarg_t* args) {
    rt::Job* job = attached_job(routine);
    if (!job) [[unlikely]]
        return GASNET_ERR_NOT_INIT;
    if (int rc = check_node(routine, dest, *job)) [[unlikely]]
        return rc;
    check_handler(routine, handler, *job);
    size_t offset = 0;
    if (int rc = check_payload(routine, category, dest, nbytes, dest_addr, gasnet_AMMaxLongRequest(), offset))
        [[unlikely]]
        return rc;
    job->am->request(routine, int(dest), category, handler, nargs, args, source_addr, nbytes, offset);
    return GASNET_OK;
}

int send_reply(const char* routine, gasnet_token_t token, gasnet_handler_t handler, AmCategory category,
               const void* source_addr, size_t nbytes, void* dest_addr, int nargs, const gasnet_handlerarg_t* args) {
    rt::Job* job = attached_job(routine);
    if (!job) [[unlikely]]
        return GASNET_ERR_NOT_INIT;
    if (!token) [[unlikely]] {
        rt::error(routine, "token is NULL");
        return GASNET_ERR_BAD_ARG;
    }
    check_handler(routine, handler, *job);
    size_t offset = 0;
    if (int rc = check_payload(routine, category, gasnet_node_t(token->source), nbytes, dest_addr,
                               gasnet_AMMaxLongReply(), offset)) [[unlikely]]
        return rc;
    job->am->reply(routine, token, category, handler, nargs, args, source_addr, nbytes, offset);
    return GASNET_OK;
}

}  // namespace

// GASP (include/gasp_shmem.h): GASP_GASNET_AM_REQUEST / _REPLY, S/E around
// the send: int category (gasp_gasnet_am_category_t), int handler, int peer,
// size_t nbytes, int nargs.
int request(const char* routine, int event_category, gasnet_node_t dest, gasnet_handler_t handler, AmCategory category,
            const void* source_addr, size_t nbytes, void* dest_addr, int nargs, const gasnet_handlerarg_t* args) {
    if (!gasp::on()) [[likely]]
        return send_request(routine, dest, handler, category, source_addr, nbytes, dest_addr, nargs, args);
    const int h = handler, peer = int(dest);
    gasp::notify(GASP_GASNET_AM_REQUEST, GASP_START, event_category, h, peer, nbytes, nargs);
    const int rc = send_request(routine, dest, handler, category, source_addr, nbytes, dest_addr, nargs, args);
    gasp::notify(GASP_GASNET_AM_REQUEST, GASP_END, event_category, h, peer, nbytes, nargs);
    return rc;
}

int reply(const char* routine, int event_category, gasnet_token_t token, gasnet_handler_t handler, AmCategory category,
          const void* source_addr, size_t nbytes, void* dest_addr, int nargs, const gasnet_handlerarg_t* args) {
    if (!gasp::on()) [[likely]]
        return send_reply(routine, token, handler, category, source_addr, nbytes, dest_addr, nargs, args);
    const int h = handler, peer = token ? token->source : -1;
    gasp::notify(GASP_GASNET_AM_REPLY, GASP_START, event_category, h, peer, nbytes, nargs);
    const int rc = send_reply(routine, token, handler, category, source_addr, nbytes, dest_addr, nargs, args);
    gasp::notify(GASP_GASNET_AM_REPLY, GASP_END, event_category, h, peer, nbytes, nargs);
    return rc;
}

void watch_for_exit(const char* routine) {
    // Every 64th poll: has another node called gasnet_exit?  Then this node
    // gets SIGQUIT and exits with it (job.cpp), which makes the exit
    // collective (and clean).
    thread_local unsigned polls = 0;
    if ((++polls & 63) == 0) rt::check_remote_exit(*rt::g_job, routine);
}

// Handler prototypes (§2.3.1), one switch case per argument count.
#define GASKET_SHORT_CASE(M)                                                                               \
    case M:                                                                                                \
        reinterpret_cast<void (*)(gasnet_token_t GASKET_AM_TYPES_##M)>(fn)(token GASKET_AM_UNPACK_##M(a)); \
        return;
#define GASKET_PAYLOAD_CASE(M)                                                             \
    case M:                                                                                \
        reinterpret_cast<void (*)(gasnet_token_t, void*, size_t GASKET_AM_TYPES_##M)>(fn)( \
            token, m.payload, m.nbytes GASKET_AM_UNPACK_##M(a));                           \
        return;

namespace {

void run_handler(void (*fn)(), gasket_am_token* token, const rt::AmMessage& m) {
    const gasnet_handlerarg_t* a = m.args;
    if (m.category == AmCategory::short_am) {
        switch (m.nargs) { GASKET_AM_ARITIES(GASKET_SHORT_CASE) }
    } else {
        switch (m.nargs) { GASKET_AM_ARITIES(GASKET_PAYLOAD_CASE) }
    }
    rt::fatal("Active Message delivery", "message for handler %u has %d arguments (at most %d)", unsigned(m.handler),
              m.nargs, GASKET_AM_MAX_ARGS);
}

// The handler this thread runs (for gex_Token_Info), saved around each run:
// a reply sent from a handler may serve other messages while it waits.
[[gnu::tls_model("initial-exec")]] thread_local RunningHandler t_running{};

// GASP: GASP_GASNET_AM_HANDLER, S/E around the client's handler: int
// category (a LongAsync arrives as a Long), int handler, int peer (the
// sender), size_t nbytes, int nargs, int is_reply.
void dispatch_traced(void (*fn)(), gasket_am_token* token, const rt::AmMessage& m) {
    if (!gasp::on()) [[likely]]
        return run_handler(fn, token, m);
    const int category = m.category == AmCategory::short_am ? GASP_GASNET_AM_SHORT
                         : m.category == AmCategory::medium ? GASP_GASNET_AM_MEDIUM
                                                            : GASP_GASNET_AM_LONG;
    const int h = m.handler, peer = token->source, nargs = m.nargs, is_reply = !token->request;
    const size_t nbytes = m.nbytes;
    gasp::notify(GASP_GASNET_AM_HANDLER, GASP_START, category, h, peer, nbytes, nargs, is_reply);
    run_handler(fn, token, m);
    gasp::notify(GASP_GASNET_AM_HANDLER, GASP_END, category, h, peer, nbytes, nargs, is_reply);
}

}  // namespace

const RunningHandler& running_handler() { return t_running; }

void dispatch_handler(void (*fn)(), gasket_am_token* token, const rt::AmMessage& m) {
    const RunningHandler saved = t_running;
    t_running = RunningHandler{token, m.handler, m.category == AmCategory::long_am};
    dispatch_traced(fn, token, m);
    t_running = saved;
}

}  // namespace gasket::gasnet

using namespace gasket;
using gasket::rt::AmCategory;

extern "C" {

// The entry points for M arguments: the arguments go into an array (a
// leading 0 keeps it non-empty for M = 0) and one shared routine sends.
#define GASKET_AM_DEFINE(M)                                                                                           \
    int gasnet_AMRequestShort##M(gasnet_node_t dest, gasnet_handler_t handler GASKET_AM_PARAMS_##M) noexcept {        \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::request("gasnet_AMRequestShort" #M, GASP_GASNET_AM_SHORT, dest, handler, AmCategory::short_am, \
                               nullptr, 0, nullptr, M, args + 1);                                                     \
    }                                                                                                                 \
    int gasnet_AMRequestMedium##M(gasnet_node_t dest, gasnet_handler_t handler, void* source_addr,                    \
                                  size_t nbytes GASKET_AM_PARAMS_##M) noexcept {                                      \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::request("gasnet_AMRequestMedium" #M, GASP_GASNET_AM_MEDIUM, dest, handler, AmCategory::medium, \
                               source_addr, nbytes, nullptr, M, args + 1);                                            \
    }                                                                                                                 \
    int gasnet_AMRequestLong##M(gasnet_node_t dest, gasnet_handler_t handler, void* source_addr, size_t nbytes,       \
                                void* dest_addr GASKET_AM_PARAMS_##M) noexcept {                                      \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::request("gasnet_AMRequestLong" #M, GASP_GASNET_AM_LONG, dest, handler, AmCategory::long_am,    \
                               source_addr, nbytes, dest_addr, M, args + 1);                                          \
    }                                                                                                                 \
    int gasnet_AMRequestLongAsync##M(gasnet_node_t dest, gasnet_handler_t handler, void* source_addr, size_t nbytes,  \
                                     void* dest_addr GASKET_AM_PARAMS_##M) noexcept {                                 \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::request("gasnet_AMRequestLongAsync" #M, GASP_GASNET_AM_LONGASYNC, dest, handler,               \
                               AmCategory::long_am, source_addr, nbytes, dest_addr, M, args + 1);                     \
    }                                                                                                                 \
    int gasnet_AMReplyShort##M(gasnet_token_t token, gasnet_handler_t handler GASKET_AM_PARAMS_##M) noexcept {        \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::reply("gasnet_AMReplyShort" #M, GASP_GASNET_AM_SHORT, token, handler, AmCategory::short_am,    \
                             nullptr, 0, nullptr, M, args + 1);                                                       \
    }                                                                                                                 \
    int gasnet_AMReplyMedium##M(gasnet_token_t token, gasnet_handler_t handler, void* source_addr,                    \
                                size_t nbytes GASKET_AM_PARAMS_##M) noexcept {                                        \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::reply("gasnet_AMReplyMedium" #M, GASP_GASNET_AM_MEDIUM, token, handler, AmCategory::medium,    \
                             source_addr, nbytes, nullptr, M, args + 1);                                              \
    }                                                                                                                 \
    int gasnet_AMReplyLong##M(gasnet_token_t token, gasnet_handler_t handler, void* source_addr, size_t nbytes,       \
                              void* dest_addr GASKET_AM_PARAMS_##M) noexcept {                                        \
        const gasnet_handlerarg_t args[] = {0 GASKET_AM_VALUES_##M};                                                  \
        return gasnet::reply("gasnet_AMReplyLong" #M, GASP_GASNET_AM_LONG, token, handler, AmCategory::long_am,       \
                             source_addr, nbytes, dest_addr, M, args + 1);                                            \
    }
GASKET_AM_ARITIES(GASKET_AM_DEFINE)

int gasnet_AMPoll(void) noexcept {
    rt::Job* job = gasnet::attached_job("gasnet_AMPoll");
    if (!job) [[unlikely]]
        return GASNET_ERR_NOT_INIT;
    job->am->poll("gasnet_AMPoll");
    gasnet::watch_for_exit("gasnet_AMPoll");
    return GASNET_OK;
}

void gasket_gasnet_block_poll(unsigned* misses) noexcept {
    rt::Job* job = gasnet::attached_job("GASNET_BLOCKUNTIL");
    if (!job) [[unlikely]]
        rt::fatal("GASNET_BLOCKUNTIL", "cannot wait before gasnet_attach: no message could arrive");
    // One step of the runtime's serving wait; the macro's loop keeps the
    // idle count between calls.
    rt::Poller poller(*job, gasnet::g_state.wait_mode, *misses);
    poller.serve("GASNET_BLOCKUNTIL");
    *misses = poller.idle_steps();
    gasnet::watch_for_exit("GASNET_BLOCKUNTIL");
}

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t* srcindex) noexcept {
    if (!token || !srcindex) {
        rt::error("gasnet_AMGetMsgSource", "token %p or srcindex %p is NULL", static_cast<void*>(token),
                  static_cast<void*>(srcindex));
        return GASNET_ERR_BAD_ARG;
    }
    *srcindex = gasnet_node_t(token->source);
    return GASNET_OK;
}

}  // extern "C"
