// src/runtime/am.cpp -- sending, delivery and the handler-context rules of
// Active Messages (see am.hpp).
#include "am.hpp"

#include <atomic>
#include <cstring>
#include <string>

#include "error.hpp"
#include "memory_kind.hpp"

namespace gasket::rt {

namespace {

constexpr std::uint8_t kLongInlineFlag = 0x01;  // Long payload carried in the message
constexpr std::uint8_t kLongRmaFlag = 0x02;     // Long payload put through the MPI window
constexpr std::uint8_t kPeerNoticeFlag = 0x04;  // notify(): runs as a reply handler, after a window sync
constexpr std::uint8_t kLateReplyFlag = 0x08;   // send_late_reply(): a request that runs as a reply handler

constexpr std::chrono::microseconds kProgressMinSleep{8};
constexpr std::chrono::microseconds kProgressMaxSleep{4096};

const char* thread_level_name(mpi::ThreadLevel level) {
    switch (level) {
        case mpi::ThreadLevel::single: return "MPI_THREAD_SINGLE";
        case mpi::ThreadLevel::funneled: return "MPI_THREAD_FUNNELED";
        case mpi::ThreadLevel::serialized: return "MPI_THREAD_SERIALIZED";
        case mpi::ThreadLevel::multiple: break;
    }
    return "MPI_THREAD_MULTIPLE";
}

const char* category_name(AmCategory c) {
    return c == AmCategory::short_am ? "Short" : c == AmCategory::medium ? "Medium" : "Long";
}

// A Long payload carried inline to a device segment (AmEngine::inline_long):
// the device copy into place, before the handler runs.
void copy_into_device(int source, void* ctx, char* dest, const void* payload, std::size_t nbytes) {
    std::string why;
    if (!device_copy(ctx, dest, payload, nbytes, why))
        fatal("Active Message delivery", "copying a Long payload of %zu bytes from node %d into device memory: %s",
              nbytes, source, why.c_str());
}

}  // namespace

AmThreadState& am_thread_state() {
    thread_local AmThreadState state;
    return state;
}

AmEngine::AmEngine(const mpi::Environment& env, const Config& config, Segment& segment, Dispatch dispatch,
                   const char* routine)
    : segment_(segment),
      dispatch_(dispatch),
      transport_(env, config.node_fastpath, kMaxMedium, &AmEngine::deliver, this) {
    const bool multiple = env.thread_multiple();
    bool start = config.progress_thread == Tristate::on || (config.progress_thread == Tristate::automatic && multiple);
    if (start && !multiple)
        fatal(routine,
              "GASKET_PROGRESS_THREAD=on needs MPI_THREAD_MULTIPLE, but MPI provides thread level %d (the program "
              "initialized MPI itself with a lower level?)",
              int(env.thread_level()));
    // Every rank decides alike (the placement exchange is collective).
    // When every rank is on this node every request rings the doorbell, so
    // the timeout is only a safety net: a sleep starting at 8 µs and
    // doubling woke the thread about eight times per request at one request
    // per ms, each a context switch on a core that computes (progress-cost.py:
    // +16-20% to the compute loop).  Peers on other nodes cannot ring: their
    // requests wait for the timeout, which then starts short.
    // Naps while the application polls: short when every peer rings (the
    // doorbell is not armed during a nap), else as long as a sleep.  Sleeps
    // while the application blocks in an MPI collective (Serving): short
    // after a request, then growing as long as any when every peer rings;
    // always short else, for the requests of peers that cannot.
    const bool rings = transport_.every_peer_rings();
    const auto min_sleep = rings ? kProgressMaxSleep : kProgressMinSleep;
    const auto max_nap = rings ? mpi::ProgressThread::kRingingMaxNap : kProgressMaxSleep;
    const auto max_blocked_sleep = rings ? kProgressMaxSleep : mpi::ProgressThread::kAppBlockedMaxSleep;
    if (env.all_min(start ? 1 : 0)) {
        progress_ =
            std::make_unique<mpi::ProgressThread>(&AmEngine::progress_poll, this, transport_.doorbell(), env.node(),
                                                  min_sleep, kProgressMaxSleep, max_nap, max_blocked_sleep);
        // A batch of requests leaves at the thread's poll if the
        // application stops calling in (am_transport.hpp).
        transport_.allow_coalescing();
    }
    // A program that initialized MPI itself below MPI_THREAD_MULTIPLE gets
    // no progress thread, and MPI gives no hook into its own progress: an
    // AMO or Active Message that travels through MPI is served only while
    // its target is inside a Gasket call.  Said once, at start-up, since a
    // target blocked in the program's own MPI call (MPI_Sendrecv, MPI_Recv)
    // while other PEs aim AMOs at it deadlocks, and nothing later can tell
    // that wait from a slow one.  (AMOs through MPI accumulates instead
    // would trade atomicity with the node's CPU atomics, and Open MPI's
    // osc crashes on 64-bit compare-and-swap: docs/cluster-path.md, part 2.)
    const bool through_mpi = !config.node_fastpath || env.all_min(env.node_size()) < env.size();
    if (!progress_ && !env.initialized_mpi() && through_mpi && env.rank() == 0)
        error(routine,
              "the program initialized MPI at thread level %s, so no progress thread serves Active Messages: "
              "AMOs (and Active Messages) to a PE complete only while that PE is inside an OpenSHMEM/GASNet call. "
              "A PE blocked in the program's own MPI call (MPI_Sendrecv, MPI_Recv, MPI_Wait, an MPI collective) "
              "while other PEs send it AMOs deadlocks. Initialize MPI with MPI_THREAD_MULTIPLE (a progress thread "
              "then serves them), or end each phase of AMOs with shmem_barrier_all on every PE (it completes them, "
              "serving while it waits) before such MPI calls",
              thread_level_name(env.thread_level()));
    debug(routine, "Active Messages: %d credits per peer, node peers through %s, progress thread %s",
          transport_.credits_per_peer(), transport_.uses_shared_memory() ? "shared memory" : "MPI",
          progress_ ? progress_->placement().c_str() : "off");
}

AmEngine::~AmEngine() {
    progress_.reset();
    for (auto& e : endpoints_) delete e.load(std::memory_order_relaxed);
}

AmEngine::Endpoint& AmEngine::endpoint(std::uint8_t ep) {
    std::lock_guard<std::mutex> hold(endpoints_lock_);
    Endpoint* e = endpoints_[ep].load(std::memory_order_relaxed);
    if (!e) {
        e = new Endpoint;  // deleted by ~AmEngine
        endpoints_[ep].store(e, std::memory_order_release);
    }
    return *e;
}

void AmEngine::set_endpoint_handler(std::uint8_t ep, std::uint8_t index, void (*fn)()) {
    endpoint(ep).handlers[index] = fn;
    mpi::release_before_send();  // as set_handler
}

void AmEngine::bind_endpoint_segment(std::uint8_t ep, char* base, std::size_t size, Window* window, void* device_ctx) {
    Endpoint& e = endpoint(ep);
    e.base = base;
    e.size = size;
    e.window = window;
    e.device_ctx = device_ctx;
}

void AmEngine::unbind_endpoint_segments(const char* base) {
    // Between deliveries, which read these fields (a Long payload's
    // segment, an AMO's target): one already running finishes first, one
    // arriving later finds no segment and ends the job.
    transport_.without_deliveries([&] {
        for (auto& slot : endpoints_)
            if (Endpoint* e = slot.load(std::memory_order_acquire); e && e->base == base) {
                e->size = 0;
                e->base = nullptr;
                e->device_ctx = nullptr;
            }
    });
}

void AmEngine::check_may_send(const char* routine) const {
    const AmThreadState& t = am_thread_state();
    if (t.handler_depth > 0) [[unlikely]]
        fatal(routine, "called inside an Active Message handler: handlers may only reply (GASNet 1.8 §2.4.1)");
    if (t.held_locks > 0) [[unlikely]]
        fatal(routine, "called while holding %d handler-safe lock(s) (GASNet 1.8 §2.4.5)", t.held_locks);
    if (t.nis_depth > 0) [[unlikely]]
        fatal(routine, "called inside a No-Interrupt Section (GASNet 1.8 §2.4.3)");
}

void AmEngine::check_may_reply(const char* routine, const gasket_am_token* token) const {
    const AmThreadState& t = am_thread_state();
    if (t.handler_depth == 0) [[unlikely]]
        fatal(routine, "called outside an Active Message request handler (GASNet 1.8 §2.3.4)");
    if (!token->request) [[unlikely]]
        fatal(routine, "called from a reply handler: reply handlers may not send (GASNet 1.8 §2.3)");
    if (token->replied) [[unlikely]]
        fatal(routine, "a second reply from one request handler: a handler may reply at most once (GASNet 1.8 §2.3.4)");
    if (t.held_locks > 0) [[unlikely]]
        fatal(routine, "called while holding %d handler-safe lock(s): unlock them before replying (GASNet 1.8 §2.4.5)",
              t.held_locks);
}

void AmEngine::place_long(const char* routine, int dest, const void* payload, std::size_t nbytes, std::size_t offset,
                          mpi::AmWire& wire, const Target* to) {
    wire.long_offset = offset;
    wire.long_bytes = nbytes;
    if (nbytes == 0 || to == &placed_long) return;  // placed: the receiver finds it in its segment
    if (to == &inline_long) {
        wire.flags |= kLongInlineFlag;
        wire.nbytes = std::uint32_t(nbytes);
        return;
    }
    const Target t = to ? *to : target_of(segment_.route[std::size_t(dest)], segment_.window, offset);
    if (t.direct) {
        std::memcpy(t.direct, payload, nbytes);
        std::atomic_thread_fence(std::memory_order_release);
    } else if (nbytes <= kLongInline || !t.window) {
        if (nbytes > kLongInline)
            fatal(routine, "a Long payload of %zu bytes to node %d needs an RMA window, which this job lacks", nbytes,
                  dest);
        wire.flags |= kLongInlineFlag;
        wire.nbytes = std::uint32_t(nbytes);
    } else {
        t.window->put_nbi(payload, nbytes, dest, t.disp);
        t.window->flush(dest);
        wire.flags |= kLongRmaFlag;
    }
}

const void* AmEngine::prepare(const char* routine, int dest, AmCategory category, std::uint8_t handler, int nargs,
                              const void* payload, std::size_t nbytes, std::size_t long_offset, mpi::AmWire& wire,
                              const Target* to) {
    wire.handler = handler;
    wire.category = std::uint8_t(category);
    wire.nargs = std::uint8_t(nargs);
    if (category != AmCategory::long_am) {
        wire.nbytes = std::uint32_t(nbytes);
        return payload;
    }
    place_long(routine, dest, payload, nbytes, long_offset, wire, to);
    return (wire.flags & kLongInlineFlag) ? payload : nullptr;
}

void AmEngine::request(const char* routine, int dest, AmCategory category, std::uint8_t handler, int nargs,
                       const std::int32_t* args, const void* payload, std::size_t nbytes, std::size_t long_offset) {
    check_may_send(routine);
    app_requests_.store(app_requests_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    mpi::AmWire wire;
    const void* carried = prepare(routine, dest, category, handler, nargs, payload, nbytes, long_offset, wire);
    if (!requested_.load(std::memory_order_relaxed)) [[unlikely]]
        requested_.store(true, std::memory_order_relaxed);
    transport_.send_request(dest, wire, args, carried);
}

void AmEngine::notify(const char* routine, int dest, std::uint8_t handler, const void* payload, std::size_t nbytes,
                      std::uint8_t to_ep) {
    check_may_send(routine);
    mpi::AmWire wire;
    const void* carried = prepare(routine, dest, AmCategory::medium, handler, 0, payload, nbytes, 0, wire);
    wire.flags |= kPeerNoticeFlag;
    wire.dest_ep = to_ep;
    if (!requested_.load(std::memory_order_relaxed)) [[unlikely]]
        requested_.store(true, std::memory_order_relaxed);
    transport_.send_request(dest, wire, nullptr, carried);
}

void AmEngine::reply(const char* routine, gasket_am_token* token, AmCategory category, std::uint8_t handler, int nargs,
                     const std::int32_t* args, const void* payload, std::size_t nbytes, std::size_t long_offset) {
    claim_reply(routine, token);
    mpi::AmWire wire;
    const void* carried = prepare(routine, token->source, category, handler, nargs, payload, nbytes, long_offset, wire);
    transport_.send_reply(token->source, wire, args, carried);
}

void AmEngine::request_between(const char* routine, int dest, Endpoints eps, AmCategory category, std::uint8_t handler,
                               int nargs, const std::int32_t* args, const void* payload, std::size_t nbytes,
                               std::size_t long_offset, const Target& long_target) {
    check_may_send(routine);
    app_requests_.store(app_requests_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    mpi::AmWire wire;
    const void* carried =
        prepare(routine, dest, category, handler, nargs, payload, nbytes, long_offset, wire, &long_target);
    wire.source_ep = eps.from;
    wire.dest_ep = eps.to;
    if (!requested_.load(std::memory_order_relaxed)) [[unlikely]]
        requested_.store(true, std::memory_order_relaxed);
    transport_.send_request(dest, wire, args, carried);
}

void AmEngine::reply_between(const char* routine, gasket_am_token* token, AmCategory category, std::uint8_t handler,
                             int nargs, const std::int32_t* args, const void* payload, std::size_t nbytes,
                             std::size_t long_offset, const Target& long_target) {
    claim_reply(routine, token);
    mpi::AmWire wire;
    const void* carried =
        prepare(routine, token->source, category, handler, nargs, payload, nbytes, long_offset, wire, &long_target);
    wire.source_ep = token->ep;
    wire.dest_ep = token->source_ep;
    transport_.send_reply(token->source, wire, args, carried);
}

void AmEngine::send_late_reply(const char* routine, int dest, Endpoints eps, std::uint8_t handler, int nargs,
                               const std::int32_t* args, std::size_t nbytes, std::size_t long_offset) {
    check_may_send(routine);
    mpi::AmWire wire;
    prepare(routine, dest, AmCategory::long_am, handler, nargs, nullptr, nbytes, long_offset, wire, &placed_long);
    wire.flags |= kLateReplyFlag;
    wire.source_ep = eps.from;
    wire.dest_ep = eps.to;
    transport_.send_request(dest, wire, args, nullptr);
}

void AmEngine::defer(void (*fn)(void*), void* arg) {
    std::lock_guard hold(deferred_lock_);
    deferred_.emplace_back(fn, arg);
    has_deferred_.store(true, std::memory_order_release);
}

void AmEngine::run_deferred() {
    thread_local bool running = false;  // a wait inside deferred work polls: it does not start more
    if (running) return;
    running = true;
    for (;;) {
        std::vector<std::pair<void (*)(void*), void*>> work;
        {
            std::lock_guard hold(deferred_lock_);
            work.swap(deferred_);
            has_deferred_.store(false, std::memory_order_relaxed);
        }
        if (work.empty()) break;
        for (auto [fn, arg] : work) fn(arg);
    }
    running = false;
}

void AmEngine::stop_progress_thread() {
    progress_.reset();
    transport_.end_coalescing(am_thread_state().handler_depth == 0);
}

int AmEngine::poll(const char* routine) {
    const AmThreadState& t = am_thread_state();
    if (t.handler_depth > 0 || t.nis_depth > 0 || t.held_locks > 0) [[unlikely]]
        check_may_send(routine);
    app_polls_.store(app_polls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    // An application poll usually waits for a reply: hand it over as soon
    // as it is in (the caller polls again for more).  Requests are served
    // in batches: one poll per request cost a stream of them 10-20% of its
    // rate (bench-am, message rate).
    const int n = transport_.poll(mpi::AmTransport::kBatch, true);
    if (has_deferred_.load(std::memory_order_acquire)) [[unlikely]]
        run_deferred();
    return n;
}

int AmEngine::progress_poll(void* self) {
    auto& engine = *static_cast<AmEngine*>(self);
    const unsigned seen =
        engine.app_polls_.load(std::memory_order_relaxed) + engine.app_requests_.load(std::memory_order_relaxed);
    // A batch of requests (am_transport.hpp) leaves at a poll: while one
    // waits, the thread looks again within kSoonSleep
    // even when the application sends or polls (it may stop at any time).
    const bool batches = engine.transport_.batches_pending();
    if (seen != engine.app_activity_seen_) {  // the application polls or sends: leave it to it
        engine.app_activity_seen_ = seen;
        return batches ? mpi::ProgressThread::kSoon : mpi::ProgressThread::kAppPolling;
    }
    const int n = engine.transport_.poll();
    if (engine.has_deferred_.load(std::memory_order_acquire)) [[unlikely]] {
        engine.run_deferred();
        return n + 1;  // work done: poll again at once
    }
    if (n == 0 && engine.transport_.batches_pending()) return mpi::ProgressThread::kSoon;
    if (n == 0 && engine.blocked_.load(std::memory_order_relaxed) > 0) return mpi::ProgressThread::kAppBlocked;
    return n;
}

void AmEngine::deliver(void* self, const mpi::AmInbound& in) {
    auto& engine = *static_cast<AmEngine*>(self);
    const mpi::AmWire& w = *in.wire;
    const auto category = AmCategory(w.category);
    // The receiving endpoint's handlers and Long segment (created endpoints:
    // its own, which may lack either; they are checked below).
    const Endpoint* ep = w.dest_ep ? engine.find_endpoint(w.dest_ep) : nullptr;
    void (*fn)() = w.dest_ep == 0 ? engine.handlers_[w.handler] : ep ? ep->handlers[w.handler] : nullptr;
    InternalHandler internal =
        w.dest_ep == 0 && w.handler < engine.internal_.size() ? engine.internal_[w.handler] : nullptr;
    if (!fn && !internal) [[unlikely]]
        fatal("Active Message delivery",
              "%s %s from node %d names handler index %u, which endpoint %u of this node has not registered "
              "(gasnet_attach, gex_EP_RegisterHandlers)",
              category_name(category), in.reply ? "reply" : "request", in.source, unsigned(w.handler),
              unsigned(w.dest_ep));
    AmMessage m{category, w.handler, w.nargs, in.args, in.payload, w.nbytes};
    if (category == AmCategory::long_am) {
        // The origin checked the range against this segment; check it again
        // here, where a wrong one would write outside it.
        char* base = w.dest_ep == 0 ? engine.segment_.base : ep ? ep->base : nullptr;
        const std::size_t size = w.dest_ep == 0 ? engine.segment_.size : ep ? ep->size : 0;
        Window* window = w.dest_ep == 0 ? engine.segment_.window : ep ? ep->window : nullptr;
        if (w.long_offset > size || w.long_bytes > size - w.long_offset ||
            ((w.flags & kLongInlineFlag) && w.nbytes > w.long_bytes)) [[unlikely]]
            fatal("Active Message delivery",
                  "Long %s from node %d: %ju bytes at offset %ju do not fit this node's segment (%zu bytes; endpoint "
                  "%u's)",
                  in.reply ? "reply" : "request", in.source, std::uintmax_t(w.long_bytes),
                  std::uintmax_t(w.long_offset), size, unsigned(w.dest_ep));
        char* dest = base + w.long_offset;
        if ((w.flags & kLongInlineFlag) && ep && ep->device_ctx)
            copy_into_device(in.source, ep->device_ctx, dest, in.payload, w.nbytes);
        else if (w.flags & kLongInlineFlag)
            std::memcpy(dest, in.payload, w.nbytes);
        else if ((w.flags & kLongRmaFlag) && window)
            window->sync();
        else
            std::atomic_thread_fence(std::memory_order_acquire);
        m.payload = dest;
        m.nbytes = w.long_bytes;
    }
    const bool notice = w.flags & kPeerNoticeFlag;
    if (notice) {  // the puts it announces came through the destination endpoint's window
        Window* window = w.dest_ep == 0 ? engine.segment_.window : ep ? ep->window : nullptr;
        if (window) window->sync();
    }
    const bool late_reply = w.flags & kLateReplyFlag;  // its payload was put in place before it was sent
    gasket_am_token token{in.source, !in.reply && !notice && !late_reply, false, w.dest_ep, w.source_ep};
    AmThreadState& t = am_thread_state();
    const int locks_before = t.held_locks;
    ++t.handler_depth;
    if (internal)
        internal(&token, m);
    else
        engine.dispatch_(fn, &token, m);
    --t.handler_depth;
    if (t.held_locks != locks_before) [[unlikely]]
        fatal("Active Message handler",
              "handler %u returned holding %d handler-safe lock(s): a handler must unlock every lock it takes "
              "(GASNet 1.8 §2.4.5)",
              unsigned(w.handler), t.held_locks - locks_before);
}

}  // namespace gasket::rt
