// src/runtime/am.hpp -- the Active Message engine: the handler table, the one
// entry point for sending a request or reply, delivery (Long payload
// placement, handler-context rules) and the progress thread.
//
// Categories follow gasnet-1.8-spec.md §2.3.1: Short (arguments only),
// Medium (payload in a temporary buffer), Long (payload placed in the
// destination's segment before the handler runs).  Long payloads reach
// node peers by a direct copy into their mapping, small ones travel inside
// the message, large ones by MPI_Put + MPI_Win_flush on the segment window
// before the message is sent.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "mpi-bridge/am_transport.hpp"
#include "mpi-bridge/happens_before.hpp"
#include "mpi-bridge/progress_thread.hpp"
#include "config.hpp"
#include "mpi-bridge/environment.hpp"
#include "route.hpp"
#include "segment.hpp"

// The token a handler receives (gasnet_token_t points to one).
struct gasket_am_token {
    int source;    // sending rank
    bool request;  // a request handler's token (may reply)
    bool replied;  // a reply was sent with it
    // GASNet-EX endpoints (memory kinds): the index of the endpoint that
    // received the message and of the one that sent it (0: primordial).
    std::uint8_t ep = 0;
    std::uint8_t source_ep = 0;
};

namespace gasket::rt {

enum class AmCategory : std::uint8_t { short_am = 0, medium = 1, long_am = 2 };

// A message as a handler sees it.
struct AmMessage {
    AmCategory category;
    std::uint8_t handler;
    int nargs;
    const std::int32_t* args;
    void* payload;       // Medium: temporary buffer; Long: in this segment
    std::size_t nbytes;  // payload bytes
};

// The internal handlers' indices, all of them: each module registers its
// own at start (start.cpp).
enum InternalIndex : std::uint8_t {
    kAmoRequest = 1,  // amo.cpp
    kAmoReply = 2,
    kPutChunk = 3,  // device_staging.cpp
    kPutAck = 4,
    kGetRequest = 5,
    kGetReply = 6,
    kWithdraw = 7,  // segment_withdrawal.cpp
    kWithdrawAck = 8,
};

// A 64-bit value carried in two 32-bit handler arguments (GASNet's
// handler arguments are 32-bit): its low and high halves, and the value
// joined again from them.  The internal handlers' one encoding.
inline std::int32_t arg_lo(std::uint64_t v) { return std::int32_t(std::uint32_t(v)); }
inline std::int32_t arg_hi(std::uint64_t v) { return std::int32_t(std::uint32_t(v >> 32)); }
inline std::uint64_t arg_join(std::int32_t lo, std::int32_t hi) {
    return std::uint64_t(std::uint32_t(lo)) | (std::uint64_t(std::uint32_t(hi)) << 32);
}

// What a thread is doing, for the checks of §2.4.3 and §2.4.5.
struct AmThreadState {
    int handler_depth = 0;         // > 0 inside a handler
    int nis_depth = 0;             // gasnet_hold_interrupts sections open
    int held_locks = 0;            // handler-safe locks held
    const void* lock_stack[32]{};  // the held locks, in locking order
};
AmThreadState& am_thread_state();

class AmEngine {
public:
    // Runs handler `fn` for `message` (the API layer knows the prototypes).
    using Dispatch = void (*)(void (*fn)(), gasket_am_token* token, const AmMessage& message);

    // Collective over env's world.  `segment`: where Long payloads land
    // (this rank's copy, node peers' routes and the MPI window); may be
    // empty.  `config`: the node fast path and GASKET_PROGRESS_THREAD.
    // Fatal, naming `routine`, when the progress thread is asked for and MPI
    // is not thread-safe.
    AmEngine(const mpi::Environment& env, const Config& config, Segment& segment, Dispatch dispatch,
             const char* routine);
    ~AmEngine();  // stops the progress thread, then the transport
    AmEngine(const AmEngine&) = delete;
    AmEngine& operator=(const AmEngine&) = delete;

    // Registers `fn` at `index` (the API layer has checked the index).
    // Before any peer may send to it (a collective that follows): a
    // delivery on the progress thread then finds it, an order that goes
    // through MPI, which ThreadSanitizer builds are told of
    // (happens_before.hpp; nothing in other builds).
    void set_handler(std::uint8_t index, void (*fn)()) {
        handlers_[index] = fn;
        mpi::release_before_send();
    }
    // A handler of Gasket's own (indices 0..127, InternalIndex), called
    // directly.
    using InternalHandler = void (*)(gasket_am_token* token, const AmMessage& message);
    void set_internal_handler(std::uint8_t index, InternalHandler fn) {
        internal_[index] = fn;
        mpi::release_before_send();  // as set_handler
    }
    // Whether a client handler (set_handler) is registered at `index`.
    bool has_handler(std::uint8_t index) const { return handlers_[index] != nullptr; }

    // ---- Endpoints beyond the primordial one (GASNet-EX memory kinds) ----
    // Endpoint indices are 0 (the primordial endpoint: the handlers above,
    // Long payloads in `segment`) to kMaxEndpoints - 1.
    static constexpr unsigned kMaxEndpoints = 64;
    // Registers `fn` at handler `index` of endpoint `ep` (1 <= ep <
    // kMaxEndpoints; the API layer checked both).
    void set_endpoint_handler(std::uint8_t ep, std::uint8_t index, void (*fn)());
    // Where Long payloads to endpoint `ep` (>= 1) of this rank land: its
    // bound segment [base, +size), which senders reach by MPI through
    // `window` (the job's dynamic window; null: only by load and store, or
    // for device memory, `device_ctx` not null, by the senders' device
    // copies or the staged transfers of device_staging.hpp, which copy with
    // that context).  Set before any peer can send there (publication);
    // size 0 unbinds.
    void bind_endpoint_segment(std::uint8_t ep, char* base, std::size_t size, Window* window,
                               void* device_ctx = nullptr);
    // Unbinds every endpoint whose segment starts at `base` (the segment is
    // being destroyed): a Long payload or AMO sent there later ends the job.
    // Waits for a delivery in progress on another thread; never from a
    // handler (gex_Segment_Destroy refuses to run there).
    void unbind_endpoint_segments(const char* base);
    // Endpoint `ep`'s bound segment as bound here (size 0: none).
    struct EndpointSegment {
        char* base;
        std::size_t size;
        void* device_ctx;  // a device segment: the copy context its memory needs (else null)
    };
    EndpointSegment endpoint_segment(std::uint8_t ep) const {
        const Endpoint* e = find_endpoint(ep);
        return e ? EndpointSegment{e->base, e->size, e->device_ctx} : EndpointSegment{nullptr, 0, nullptr};
    }
    // A request or reply between endpoints where either end is not the
    // primordial endpoint: from endpoint `from` of this rank to endpoint
    // `to` of `dest` (reply: of the token's sender, from the endpoint that
    // received the request).  A Long payload goes to `long_target`: the
    // destination's copy of byte `long_offset` of its endpoint `to`'s
    // segment (the caller resolved and checked it), or nowhere when it is
    // `placed_long` (the caller copied it into place already: device memory,
    // which only the memory kind's copy reaches).  Checks as request() and
    // reply().
    struct Endpoints {
        std::uint8_t from, to;
    };
    static constexpr Target placed_long{nullptr, nullptr, 0};
    // Or `inline_long`: the payload (up to a Medium's largest) travels in
    // the message, and the receiver copies it into place, with its device
    // copy when the endpoint's segment is device memory.
    static constexpr Target inline_long{nullptr, nullptr, 0};
    void request_between(const char* routine, int dest, Endpoints eps, AmCategory category, std::uint8_t handler,
                         int nargs, const std::int32_t* args, const void* payload, std::size_t nbytes,
                         std::size_t long_offset, const Target& long_target);
    void reply_between(const char* routine, gasket_am_token* token, AmCategory category, std::uint8_t handler,
                       int nargs, const std::int32_t* args, const void* payload, std::size_t nbytes,
                       std::size_t long_offset, const Target& long_target);

    // Sends a request to `dest` (a valid rank).  Long: `long_offset` is the
    // byte offset in dest's segment (range checked by the caller).  Fatal,
    // naming `routine`, inside a handler, a No-Interrupt Section or while
    // holding a handler-safe lock.
    void request(const char* routine, int dest, AmCategory category, std::uint8_t handler, int nargs,
                 const std::int32_t* args, const void* payload, std::size_t nbytes, std::size_t long_offset);
    // Sends a 0-argument Medium message (`nbytes` <= kMaxMedium at
    // `payload`, copied before returning) that runs client handler `handler`
    // at `dest` as a reply handler: its token may not send (GASNet-EX VIS
    // peer completion, gasnet-ex-api.txt "VIS Put Peer Completion").  The
    // caller has completed the data movement it announces; at `dest` the
    // segment window is synchronized before the handler runs, so it sees
    // that data.  `to_ep`: the destination endpoint whose handler runs (0:
    // the primordial one; else a created one, whose segment's window is
    // synchronized).  Checks as request().
    void notify(const char* routine, int dest, std::uint8_t handler, const void* payload, std::size_t nbytes,
                std::uint8_t to_ep = 0);
    // Sends the reply for `token`.  Fatal, naming `routine`, unless called
    // once from the request handler that received the token, with no
    // handler-safe lock held.
    void reply(const char* routine, gasket_am_token* token, AmCategory category, std::uint8_t handler, int nargs,
               const std::int32_t* args, const void* payload, std::size_t nbytes, std::size_t long_offset);

    // ---- Work a handler cannot do (it would wait for other messages) ----
    // Queues fn(arg) to run once, later, on a thread that polls and outside
    // every handler: at the end of the next poll() or progress-thread poll
    // that is not itself inside deferred work (whose waits poll).  `fn` may
    // send requests and wait.  Any thread, handlers included.
    void defer(void (*fn)(void*), void* arg);
    // The checks reply() makes, then the token marked replied: for a
    // request handler whose reply deferred work sends (send_late_reply).
    // Fatal, naming `routine`, as reply().
    void claim_reply(const char* routine, gasket_am_token* token) {
        check_may_reply(routine, token);
        token->replied = true;
    }
    // Sends, outside any handler, the reply a request handler claimed with
    // claim_reply: runs client handler `handler` of endpoint `eps.to` of
    // `dest` as a reply handler (its token may not send), with `nargs`
    // arguments and a Long payload of `nbytes` at byte `long_offset` of that
    // endpoint's segment, which the caller has already put in place
    // (device_staging.hpp's staged put).  It travels as a request (it needs
    // a credit, like any message sent outside a handler).  Checks as
    // request().
    void send_late_reply(const char* routine, int dest, Endpoints eps, std::uint8_t handler, int nargs,
                         const std::int32_t* args, std::size_t nbytes, std::size_t long_offset);

    // Runs the handlers of arrived messages (what shared memory holds, and
    // from MPI up to a batch of requests, ending at the first reply), then
    // any deferred work (defer()); returns how many messages.  Fatal,
    // naming `routine`, inside a handler or No-Interrupt Section.
    int poll(const char* routine);

    // This PE's vote, at a team's network barrier, on whether the team's
    // data collectives must serve Active Messages while they wait
    // (Team::collectives_serve): 1 when it has sent a request (ever) or has
    // no progress thread, else 0.
    long long collectives_serve_vote() const {
        return requested_.load(std::memory_order_relaxed) || !progress_thread_running();
    }
    // Brackets a wait in a blocking MPI call that does not poll (a data
    // collective the team agreed need not serve): meanwhile the progress
    // thread polls at its shortest interval instead of backing off, so a
    // request sent since the team's last barrier waits microseconds for it,
    // not up to its longest sleep.  Nestable, any thread.
    void blocking_wait_begin() { blocked_.fetch_add(1, std::memory_order_relaxed); }
    void blocking_wait_end() { blocked_.fetch_sub(1, std::memory_order_relaxed); }

    // Stops the progress thread (before an exit that must not race it).
    // Requests batched in the transport leave first, unless this thread is
    // inside a handler (which may not poll), and no more are batched: with
    // no thread, none would leave should this rank stop polling.
    void stop_progress_thread();
    bool progress_thread_running() const { return progress_ != nullptr; }
    // For tests: polls by application threads (waits serving Active
    // Messages), and sleeps of the progress thread a peer's request ended.
    unsigned app_polls() const { return app_polls_.load(std::memory_order_relaxed); }
    unsigned long progress_wakeups() const { return progress_ ? progress_->rung_wakeups() : 0; }
    int rank() const { return transport_.rank(); }
    int size() const { return transport_.size(); }
    // Waits until every message this rank sent has left its buffers.
    void drain() { transport_.drain_sends(); }

    // Long payloads up to this many bytes travel inside the message.
    static constexpr std::size_t kLongInline = 4096 - 128;
    static constexpr std::size_t kMaxMedium = 65536;

private:
    static void deliver(void* self, const mpi::AmInbound& in);
    // Fills `wire` for a message to `dest` and places a Long payload; returns
    // the bytes the message itself must carry (nullptr: none).
    // `to`: where a Long payload goes (null: dest's segment at long_offset).
    const void* prepare(const char* routine, int dest, AmCategory category, std::uint8_t handler, int nargs,
                        const void* payload, std::size_t nbytes, std::size_t long_offset, mpi::AmWire& wire,
                        const Target* to = nullptr);
    void place_long(const char* routine, int dest, const void* payload, std::size_t nbytes, std::size_t offset,
                    mpi::AmWire& wire, const Target* to);
    void check_may_send(const char* routine) const;
    void check_may_reply(const char* routine, const gasket_am_token* token) const;
    // A created endpoint's handlers and Long segment.
    struct Endpoint {
        std::array<void (*)(), 256> handlers{};
        char* base = nullptr;
        std::size_t size = 0;
        Window* window = nullptr;
        void* device_ctx = nullptr;
    };
    Endpoint& endpoint(std::uint8_t ep);
    const Endpoint* find_endpoint(std::uint8_t ep) const {
        return ep < kMaxEndpoints ? endpoints_[ep].load(std::memory_order_acquire) : nullptr;
    }

    static int progress_poll(void* self);
    // Runs what defer() queued, unless this thread is already doing so.
    void run_deferred();

    Segment& segment_;
    // Polls and requests by application threads: while they poll or send,
    // the progress thread stays asleep (sending, it would compete with the
    // sender for the core and the transport's receive lock; the transport
    // polls every few requests itself).
    std::atomic<unsigned> app_polls_{0};
    std::atomic<unsigned> app_requests_{0};
    unsigned app_activity_seen_ = 0;      // progress thread only
    std::atomic<bool> requested_{false};  // a request was sent (sticky)
    std::atomic<int> blocked_{0};         // blocking_wait_begin() minus blocking_wait_end()
    Dispatch dispatch_;
    std::array<void (*)(), 256> handlers_{};
    std::array<InternalHandler, 128> internal_{};
    // Made by the first registration or binding for an index, kept until
    // the engine ends (deliveries read them without a lock).
    std::array<std::atomic<Endpoint*>, kMaxEndpoints> endpoints_{};
    std::mutex endpoints_lock_;  // making one
    // defer()'s queue; `has_deferred_` says it may be non-empty (one load per poll).
    std::mutex deferred_lock_;
    std::vector<std::pair<void (*)(void*), void*>> deferred_;
    std::atomic<bool> has_deferred_{false};
    mpi::AmTransport transport_;
    std::unique_ptr<mpi::ProgressThread> progress_;
};

}  // namespace gasket::rt
