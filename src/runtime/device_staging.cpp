// src/runtime/device_staging.cpp -- staged transfers to and from device
// segments through Active Messages (device_staging.hpp).
#include "device_staging.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "error.hpp"
#include "memory_kind.hpp"
#include "progress.hpp"

namespace gasket::rt {

namespace {

// What the origin of a staged transfer waits on: chunks not yet
// acknowledged (put) or arrived (get), and for a get where they go.
struct Staging {
    std::atomic<long> pending{0};
    char* dst = nullptr;
    void* dst_ctx = nullptr;
    std::string failed;  // a get reply's device copy refused: the driver's reason
};

// A message only Gasket's own sender makes, wrong: the job ends, naming
// what, before anything is touched.
[[noreturn, gnu::cold]] void bad_staging_message(gasket_am_token* token, const char* what, unsigned long long value) {
    fatal("device staging handler", "message from node %d: %s %llu is not valid; nothing was copied", token->source,
          what, value);
}

// The owner's device segment of endpoint `ep` and the range [offset, +n)
// in it, checked.
char* owner_range(gasket_am_token* token, std::int32_t ep, std::uint64_t offset, std::uint64_t n, void*& ctx) {
    if (ep <= 0 || unsigned(ep) >= AmEngine::kMaxEndpoints) bad_staging_message(token, "endpoint", unsigned(ep));
    const AmEngine::EndpointSegment s = g_job->am->endpoint_segment(std::uint8_t(ep));
    if (!s.device_ctx) bad_staging_message(token, "endpoint without a device segment", unsigned(ep));
    if (offset > s.size || n > s.size - offset) bad_staging_message(token, "offset", offset);
    ctx = s.device_ctx;
    return s.base + offset;
}

// Put chunk: args [0] ep, [1,2] offset, [3,4] the origin's Staging; the
// payload is the chunk.  Copied into the device, then acknowledged.
void on_put_chunk(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::medium || m.nargs != 5) bad_staging_message(token, "argument count", m.nargs);
    void* ctx = nullptr;
    char* at = owner_range(token, m.args[0], arg_join(m.args[1], m.args[2]), m.nbytes, ctx);
    std::string why;
    if (!device_copy(ctx, at, m.payload, m.nbytes, why))
        fatal("device staging handler", "copying %zu bytes from node %d into device memory: %s", m.nbytes,
              token->source, why.c_str());
    const std::int32_t reply[2] = {m.args[3], m.args[4]};
    g_job->am->reply("device staging handler", token, AmCategory::short_am, kPutAck, 2, reply, nullptr, 0, 0);
}

void on_put_ack(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::short_am || m.nargs != 2 || token->request)
        bad_staging_message(token, "argument count", m.nargs);
    auto* s = reinterpret_cast<Staging*>(static_cast<std::uintptr_t>(arg_join(m.args[0], m.args[1])));
    s->pending.fetch_sub(1, std::memory_order_release);
}

// Get request: args [0] ep, [1,2] offset, [3] bytes (<= kStagingChunk),
// [4,5] the origin's Staging, [6,7] the chunk's offset in the origin's
// destination.  Copied out of the device into this thread's buffer, which
// the reply carries.
void on_get_request(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::short_am || m.nargs != 8) bad_staging_message(token, "argument count", m.nargs);
    const auto n = std::uint64_t(std::uint32_t(m.args[3]));
    if (n == 0 || n > kStagingChunk) bad_staging_message(token, "byte count", n);
    void* ctx = nullptr;
    const char* at = owner_range(token, m.args[0], arg_join(m.args[1], m.args[2]), n, ctx);
    thread_local std::vector<char> buffer(kStagingChunk);
    std::string why;
    if (!device_copy(ctx, buffer.data(), at, n, why))
        fatal("device staging handler", "copying %ju bytes out of device memory for node %d: %s", std::uintmax_t(n),
              token->source, why.c_str());
    const std::int32_t reply[4] = {m.args[4], m.args[5], m.args[6], m.args[7]};
    g_job->am->reply("device staging handler", token, AmCategory::medium, kGetReply, 4, reply, buffer.data(),
                     std::size_t(n), 0);
}

void on_get_reply(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::medium || m.nargs != 4 || token->request)
        bad_staging_message(token, "argument count", m.nargs);
    auto* s = reinterpret_cast<Staging*>(static_cast<std::uintptr_t>(arg_join(m.args[0], m.args[1])));
    char* at = s->dst + arg_join(m.args[2], m.args[3]);
    if (!s->dst_ctx) {
        std::memcpy(at, m.payload, m.nbytes);
    } else if (std::string why; !device_copy(s->dst_ctx, at, m.payload, m.nbytes, why) && s->failed.empty()) {
        s->failed = why;
    }
    s->pending.fetch_sub(1, std::memory_order_release);
}

void not_in_handler(const char* routine, int pe) {
    if (am_thread_state().handler_depth > 0)
        fatal(routine,
              "device memory of PE %d is not mapped here, so the transfer is staged through Active Messages, whose "
              "completion an Active Message handler cannot wait for: move it out of the handler",
              pe);
}

}  // namespace

void staged_put(const char* routine, Job& j, int pe, std::uint8_t ep, std::size_t offset, const void* src,
                std::size_t nbytes, void* src_ctx) {
    not_in_handler(routine, pe);
    Staging s;
    std::vector<char> bounce(src_ctx ? kStagingChunk : 0);
    const auto cookie = std::uint64_t(reinterpret_cast<std::uintptr_t>(&s));
    for (std::size_t done = 0; done < nbytes;) {
        const std::size_t n = std::min(kStagingChunk, nbytes - done);
        const char* from = static_cast<const char*>(src) + done;
        if (src_ctx) {
            copy_out_to_send(routine, src_ctx, bounce.data(), from, n);
            from = bounce.data();
        }
        const std::uint64_t at = offset + done;
        const std::int32_t args[5] = {ep, arg_lo(at), arg_hi(at), arg_lo(cookie), arg_hi(cookie)};
        s.pending.fetch_add(1, std::memory_order_relaxed);
        j.am->request(routine, pe, AmCategory::medium, kPutChunk, 5, args, from, n, 0);  // locally complete
        done += n;
    }
    poll_until(j, routine, [&] { return s.pending.load(std::memory_order_acquire) == 0; });
}

void staged_get(const char* routine, Job& j, int pe, std::uint8_t ep, std::size_t offset, void* dst, std::size_t nbytes,
                void* dst_ctx) {
    not_in_handler(routine, pe);
    Staging s;
    s.dst = static_cast<char*>(dst);
    s.dst_ctx = dst_ctx;
    const auto cookie = std::uint64_t(reinterpret_cast<std::uintptr_t>(&s));
    for (std::size_t done = 0; done < nbytes;) {
        const std::size_t n = std::min(kStagingChunk, nbytes - done);
        const std::uint64_t at = offset + done;
        const std::int32_t args[8] = {
            ep, arg_lo(at), arg_hi(at), std::int32_t(n), arg_lo(cookie), arg_hi(cookie), arg_lo(done), arg_hi(done)};
        s.pending.fetch_add(1, std::memory_order_relaxed);
        j.am->request(routine, pe, AmCategory::short_am, kGetRequest, 8, args, nullptr, 0, 0);
        done += n;
    }
    poll_until(j, routine, [&] { return s.pending.load(std::memory_order_acquire) == 0; });
    if (!s.failed.empty()) fatal(routine, "copying what PE %d sent into device memory: %s", pe, s.failed.c_str());
}

namespace {

// A reply that defer_staged_reply hands to deferred work.
struct LateReply {
    const char* routine;
    Job* job;
    int dest;
    AmEngine::Endpoints eps;  // from the endpoint that received the request to the one that sent it
    std::uint8_t handler;
    int nargs;
    std::int32_t args[mpi::AmTransport::kMaxArgs];
    std::size_t offset;
    std::vector<char> payload;
};

void send_staged_reply(void* p) {
    const std::unique_ptr<LateReply> r(static_cast<LateReply*>(p));
    staged_put(r->routine, *r->job, r->dest, r->eps.to, r->offset, r->payload.data(), r->payload.size(), nullptr);
    r->job->am->send_late_reply(r->routine, r->dest, r->eps, r->handler, r->nargs, r->args, r->payload.size(),
                                r->offset);
}

}  // namespace

void defer_staged_reply(const char* routine, Job& j, gasket_am_token* token, std::uint8_t handler, int nargs,
                        const std::int32_t* args, const void* src, std::size_t nbytes, std::size_t offset,
                        void* src_ctx) {
    j.am->claim_reply(routine, token);
    if (nargs < 0 || nargs > mpi::AmTransport::kMaxArgs)
        fatal(routine, "%d handler arguments (at most %d)", nargs, mpi::AmTransport::kMaxArgs);
    auto r = std::make_unique<LateReply>();
    r->routine = routine;
    r->job = &j;
    r->dest = token->source;
    r->eps = AmEngine::Endpoints{token->ep, token->source_ep};
    r->handler = handler;
    r->nargs = nargs;
    std::copy(args, args + nargs, r->args);
    r->offset = offset;
    try {
        r->payload.resize(nbytes);
    } catch (const std::bad_alloc&) {
        fatal(routine, "cannot allocate %zu bytes to hold a Long reply for device memory of node %d until it is staged",
              nbytes, token->source);
    }
    if (src_ctx)
        copy_out_to_send(routine, src_ctx, r->payload.data(), src, nbytes);
    else
        std::memcpy(r->payload.data(), src, nbytes);
    j.am->defer(&send_staged_reply, r.release());
}

void register_staging_handlers(AmEngine& am) {
    am.set_internal_handler(kPutChunk, on_put_chunk);
    am.set_internal_handler(kPutAck, on_put_ack);
    am.set_internal_handler(kGetRequest, on_get_request);
    am.set_internal_handler(kGetReply, on_get_reply);
}

}  // namespace gasket::rt
