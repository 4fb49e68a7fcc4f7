// src/runtime/amo.cpp -- AMOs on targets whose memory is not mapped here:
// an Active Message to the target, whose handler applies the atomic and
// replies with the old value (see amo.hpp).
#include "amo.hpp"

#include <bit>
#include <type_traits>

#include "progress.hpp"

namespace gasket::rt {

namespace {

// What the origin keeps for an AMO in flight: the reply completes it.
struct Completion {
    std::atomic<bool> done{false};
    std::uint64_t old = 0;
    AmoResult result = AmoResult::wait;
    void* fetch = nullptr;  // deferred: where the old value goes
    unsigned width = 8;
    std::atomic<long>* pending = nullptr;  // deferred: the count to decrement
};

// The cookie an AMO's request carries and its reply returns, told apart by
// its low two bits:
//   0: a Completion* (8-byte aligned);
//   kCountTag: a non-waiting, non-fetching AMO: its context's count;
//   kFetch4Tag, kFetch8Tag: a fetching AMO of the default context whose
//     result goes to 4 (8) bytes at the cookie's address (4-byte aligned),
//     counted in the default context's count -- no record to allocate
//     and free (GASNet-EX's gex_AD_OpNB, OpenSHMEM's fetching nbi AMOs).
constexpr std::uint64_t kCountTag = 1;
constexpr std::uint64_t kFetch4Tag = 2;
constexpr std::uint64_t kFetch8Tag = 3;
constexpr std::uint64_t kTagMask = 3;

constexpr int kRequestArgs = 9;
constexpr int kReplyArgs = 4;

// A message to an internal handler that Gasket's own sender cannot have
// made (a corrupted or foreign message): the job ends, naming what was
// wrong, before anything is touched.
[[noreturn, gnu::cold]] void bad_amo_message(gasket_am_token* token, const char* what, unsigned long long value) {
    fatal("AMO handler", "message from node %d: %s %llu is not valid; nothing was applied", token->source, what, value);
}

// Request arguments: [0] op | width << 8 | segment << 16, [1,2] offset,
// [3,4] value, [5,6] cond, [7,8] the origin's cookie (above).  segment:
// 0 the heap, 1 the data segment, 1 + e the bound segment of created
// GASNet-EX endpoint e (AmEngine::endpoint_segment).  Every field is
// checked: the object must lie inside the segment, aligned.
void on_request(gasket_am_token* token, const AmMessage& m) {
    Job& j = *g_job;
    if (m.category != AmCategory::short_am || m.nargs != kRequestArgs) [[unlikely]]
        bad_amo_message(token, "argument count", unsigned(m.nargs));
    const std::int32_t* a = m.args;
    const unsigned op_bits = unsigned(a[0]) & 0xff, width = unsigned(a[0] >> 8) & 0xff,
                   segment = unsigned(a[0] >> 16) & 0xffff;
    if (op_bits > unsigned(AmoOp::last)) [[unlikely]]
        bad_amo_message(token, "operation", op_bits);
    if (width != 4 && width != 8) [[unlikely]]
        bad_amo_message(token, "width", width);
    if (segment > AmEngine::kMaxEndpoints) [[unlikely]]
        bad_amo_message(token, "segment", segment);
    const auto op = AmoOp(op_bits);
    char* base = nullptr;
    std::size_t size = 0;
    if (segment <= 1) {
        const Segment& seg = segment == 0 ? j.heap : j.data;
        base = seg.base;
        size = seg.size;
    } else {  // a created endpoint's bound segment (size 0 when it has none)
        const AmEngine::EndpointSegment s = j.am->endpoint_segment(std::uint8_t(segment - 1));
        base = s.base;
        size = s.size;
    }
    const std::uint64_t offset = arg_join(a[1], a[2]);
    if (offset > size || size - offset < width || offset % width != 0) [[unlikely]]
        bad_amo_message(token, "offset", offset);
    char* p = base + offset;
    const std::uint64_t old = apply_atomic(p, width, op, arg_join(a[3], a[4]), arg_join(a[5], a[6]));
    const std::int32_t reply[4] = {a[7], a[8], arg_lo(old), arg_hi(old)};
    j.am->reply("AMO handler", token, AmCategory::short_am, kAmoReply, 4, reply, nullptr, 0, 0);
}

// Reply arguments: [0,1] the request's cookie, [2,3] the old value.
void on_reply(gasket_am_token* token, const AmMessage& m) {
    if (m.category != AmCategory::short_am || m.nargs != kReplyArgs || token->request) [[unlikely]]
        bad_amo_message(token, "argument count", unsigned(m.nargs));
    const std::uint64_t cookie = arg_join(m.args[0], m.args[1]);
    const std::uint64_t old = arg_join(m.args[2], m.args[3]);
    const std::uint64_t tag = cookie & kTagMask;
    if (tag == kCountTag) {
        reinterpret_cast<std::atomic<long>*>(static_cast<std::uintptr_t>(cookie & ~kTagMask))
            ->fetch_sub(1, std::memory_order_release);
        return;
    }
    if (tag != 0) {  // kFetch4Tag, kFetch8Tag
        std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(cookie & ~kTagMask)), &old,
                    tag == kFetch8Tag ? 8 : 4);
        g_job->default_ctx->pending_am_ops.fetch_sub(1, std::memory_order_release);
        return;
    }
    auto* c = reinterpret_cast<Completion*>(static_cast<std::uintptr_t>(cookie));
    if (c->result == AmoResult::deferred) {
        std::memcpy(c->fetch, &old, c->width);
        std::atomic<long>* pending = c->pending;
        delete c;
        pending->fetch_sub(1, std::memory_order_release);
        return;
    }
    c->old = old;
    c->done.store(true, std::memory_order_release);
}

// One compare-and-swap loop: the object at p (bits U) becomes
// f(old, value), each read as V; returns the old bits.
template <class U, class V, class F>
U cas_loop(U* p, U value_bits, F f) {
    std::atomic_ref<U> a(*p);
    const V value = std::bit_cast<V>(value_bits);
    U old = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(old, std::bit_cast<U>(V(f(std::bit_cast<V>(old), value))),
                                    std::memory_order_acq_rel, std::memory_order_relaxed)) {}
    return old;
}

template <class U>
U apply_typed_as(U* p, AmoOp op, U value) {
    using S = std::make_signed_t<U>;
    using F = std::conditional_t<sizeof(U) == 4, float, double>;
    static_assert(sizeof(F) == sizeof(U));
    auto mult = [](auto a, auto b) { return a * b; };  // U: wraps, as unsigned arithmetic does
    auto add = [](auto a, auto b) { return a + b; };
    auto min = [](auto a, auto b) { return a < b ? a : b; };  // the specification's expressions
    auto max = [](auto a, auto b) { return a > b ? a : b; };
    switch (op) {
        case AmoOp::fetch_mult: return cas_loop<U, U>(p, value, mult);
        case AmoOp::fetch_min_signed: return cas_loop<U, S>(p, value, min);
        case AmoOp::fetch_max_signed: return cas_loop<U, S>(p, value, max);
        case AmoOp::fetch_min_unsigned: return cas_loop<U, U>(p, value, min);
        case AmoOp::fetch_max_unsigned: return cas_loop<U, U>(p, value, max);
        case AmoOp::fetch_add_float: return cas_loop<U, F>(p, value, add);
        case AmoOp::fetch_mult_float: return cas_loop<U, F>(p, value, mult);
        case AmoOp::fetch_min_float: return cas_loop<U, F>(p, value, min);
        case AmoOp::fetch_max_float: return cas_loop<U, F>(p, value, max);
        default: break;
    }
    fatal("AMO", "operation %u is not one of the compare-and-swap loop's", unsigned(op));
}

}  // namespace

std::uint64_t apply_typed(void* p, unsigned width, AmoOp op, std::uint64_t value) {
    if (width == 8) return apply_typed_as(static_cast<std::uint64_t*>(p), op, value);
    return apply_typed_as(static_cast<std::uint32_t*>(p), op, std::uint32_t(value));
}

void misaligned_amo(const char* routine, const void* dest, unsigned width) {
    fatal(routine, "address %p is not aligned to the object's %u bytes", dest, width);
}

namespace {

// The AMO request to segment code `segment` (on_request's) of PE `pe`.
std::uint64_t amo_send(const char* routine, Job& j, unsigned segment, std::size_t offset, unsigned width, AmoOp op,
                       std::uint64_t value, std::uint64_t cond, int pe, AmoResult result, void* fetch,
                       std::atomic<long>& pending) {
    if (!j.am) fatal(routine, "no Active Message engine to reach PE %d", pe);
    Completion local;
    Completion* c = nullptr;
    std::uint64_t cookie = 0;
    if (result == AmoResult::wait) {
        c = &local;
    } else if (result == AmoResult::deferred && &pending == &j.default_ctx->pending_am_ops &&
               (reinterpret_cast<std::uintptr_t>(fetch) & kTagMask) == 0) [[likely]] {
        cookie = std::uint64_t(reinterpret_cast<std::uintptr_t>(fetch)) | (width == 8 ? kFetch8Tag : kFetch4Tag);
    } else if (result == AmoResult::deferred) {
        c = new Completion;
        c->result = AmoResult::deferred;
        c->fetch = fetch;
        c->width = width;
        c->pending = &pending;
    } else {
        cookie = std::uint64_t(reinterpret_cast<std::uintptr_t>(&pending)) | kCountTag;
    }
    if (c) cookie = std::uint64_t(reinterpret_cast<std::uintptr_t>(c));
    if (result != AmoResult::wait) pending.fetch_add(1, std::memory_order_relaxed);
    const std::int32_t args[9] = {std::int32_t(unsigned(op) | width << 8 | segment << 16),
                                  arg_lo(offset),
                                  arg_hi(offset),
                                  arg_lo(value),
                                  arg_hi(value),
                                  arg_lo(cond),
                                  arg_hi(cond),
                                  arg_lo(cookie),
                                  arg_hi(cookie)};
    j.am->request(routine, pe, AmCategory::short_am, kAmoRequest, 9, args, nullptr, 0, 0);
    if (result != AmoResult::wait) return 0;
    poll_until(j, routine, [&] { return local.done.load(std::memory_order_acquire); });
    return local.old;
}

}  // namespace

std::uint64_t amo_remote(const char* routine, Job& j, const Segment& seg, std::size_t offset, unsigned width, AmoOp op,
                         std::uint64_t value, std::uint64_t cond, int pe, AmoResult result, void* fetch,
                         std::atomic<long>& pending) {
    return amo_send(routine, j, &seg == &j.heap ? 0 : 1, offset, width, op, value, cond, pe, result, fetch, pending);
}

std::uint64_t amo_remote_endpoint(const char* routine, Job& j, std::uint8_t ep, std::size_t offset, unsigned width,
                                  AmoOp op, std::uint64_t value, std::uint64_t cond, int pe, AmoResult result,
                                  void* fetch, std::atomic<long>& pending) {
    return amo_send(routine, j, 1u + ep, offset, width, op, value, cond, pe, result, fetch, pending);
}

void register_amo_handlers(AmEngine& am) {
    am.set_internal_handler(kAmoRequest, on_request);
    am.set_internal_handler(kAmoReply, on_reply);
}

}  // namespace gasket::rt
