// src/runtime/amo.hpp -- the one entry point for atomic memory operations
// (OpenSHMEM §9.7, and the signal updates of §9.8).
//
// Every AMO is a hardware atomic (std::atomic_ref) on the target's memory:
// done here when the target's copy is mapped (this PE, node peers), else by
// an Active Message handler on the target.  Both act on the same memory
// with the CPU's atomics, so every AMO on a location is atomic with respect
// to every other, whatever the mix of operations and paths.  (MPI-3
// promises that only among accumulates with one operation.)
//
// Values travel as raw bits of `width` bytes (4 or 8): signed, unsigned and
// floating types of one width share the code for the bitwise operations,
// fetch, set, swap, compare-and-swap and integer add and multiply (which
// wrap as two's complement); the operations whose result depends on the
// type (min, max and the floating-point arithmetic of GASNet-EX's remote
// atomics, gasnet-ex-api.txt "Remote Atomic Operations") are ops of their
// own, done by a compare-and-swap loop (apply_typed, out of line).
#pragma once

#include <atomic>
#include <cstdint>

#include "context.hpp"
#include "job.hpp"

namespace gasket::rt {

// The operations: the first eight are one hardware atomic each (every
// OpenSHMEM AMO is one of them); from fetch_mult on, a compare-and-swap loop
// on the value read as the type the op names (integer multiply is the same
// for signed and unsigned; a floating-point compare-and-swap compares bits).
enum class AmoOp : std::uint8_t {
    fetch,
    set,
    swap,
    compare_swap,
    fetch_add,
    fetch_and,
    fetch_or,
    fetch_xor,
    fetch_mult,        // integers of either signedness
    fetch_min_signed,  // int32_t / int64_t
    fetch_max_signed,
    fetch_min_unsigned,  // uint32_t / uint64_t
    fetch_max_unsigned,
    fetch_add_float,  // float (width 4) / double (width 8)
    fetch_mult_float,
    fetch_min_float,
    fetch_max_float,
    last = fetch_max_float
};

// What the caller wants back.
enum class AmoResult : std::uint8_t {
    wait,     // the old value, now (blocking fetching AMO)
    none,     // nothing: complete by the next quiet (non-fetching AMO)
    deferred  // the old value stored at `fetch` by the next quiet (_nbi)
};

// The ops from fetch_mult on (a compare-and-swap loop; out of line, as
// only GASNet-EX's atomics use them): returns the old value.
std::uint64_t apply_typed(void* p, unsigned width, AmoOp op, std::uint64_t value);

// Applies `op` to the `width`-byte object at `p` atomically; returns the
// old value (0 for set).  `p` must be `width`-aligned.
template <class U>
inline U apply_atomic(U* p, AmoOp op, U value, U cond) {
    std::atomic_ref<U> a(*p);
    switch (op) {
        case AmoOp::fetch: return a.load(std::memory_order_acquire);
        case AmoOp::set: a.store(value, std::memory_order_release); return 0;
        case AmoOp::swap: return a.exchange(value, std::memory_order_acq_rel);
        case AmoOp::compare_swap:
            a.compare_exchange_strong(cond, value, std::memory_order_acq_rel, std::memory_order_acquire);
            return cond;
        case AmoOp::fetch_add: return a.fetch_add(value, std::memory_order_acq_rel);
        case AmoOp::fetch_and: return a.fetch_and(value, std::memory_order_acq_rel);
        case AmoOp::fetch_or: return a.fetch_or(value, std::memory_order_acq_rel);
        case AmoOp::fetch_xor: return a.fetch_xor(value, std::memory_order_acq_rel);
        default: return U(apply_typed(p, sizeof(U), op, value));
    }
}

inline std::uint64_t apply_atomic(void* p, unsigned width, AmoOp op, std::uint64_t value, std::uint64_t cond) {
    if (width == 8) return apply_atomic<std::uint64_t>(static_cast<std::uint64_t*>(p), op, value, cond);
    return apply_atomic<std::uint32_t>(static_cast<std::uint32_t*>(p), op, std::uint32_t(value), std::uint32_t(cond));
}

// The AMO path through an Active Message (out of line): to world PE `pe`,
// the object at `offset` of `segment`.  A non-waiting AMO counts in
// `pending` (its context's pending_am_ops) until its reply arrives.
std::uint64_t amo_remote(const char* routine, Job& j, const Segment& segment, std::size_t offset, unsigned width,
                         AmoOp op, std::uint64_t value, std::uint64_t cond, int pe, AmoResult result, void* fetch,
                         std::atomic<long>& pending);
// The same to the bound segment of created GASNet-EX endpoint `ep` (1 <=
// ep < AmEngine::kMaxEndpoints) of PE `pe`, the object at `offset` of it
// (gasnet-ex-memory-kinds.txt: atomic domains over teams of created
// endpoints).  The target ends the job if the object is outside that
// endpoint's segment (or it has none).
std::uint64_t amo_remote_endpoint(const char* routine, Job& j, std::uint8_t ep, std::size_t offset, unsigned width,
                                  AmoOp op, std::uint64_t value, std::uint64_t cond, int pe, AmoResult result,
                                  void* fetch, std::atomic<long>& pending);
[[noreturn, gnu::cold]] void misaligned_amo(const char* routine, const void* dest, unsigned width);

// The AMO entry point: applies `op` to the `width`-byte (4 or 8)
// symmetric object `dest` on `pe`, counted in `ctx`'s team (the default
// context: world PEs).  Returns the old value for AmoResult::wait; an AMO
// in flight counts in ctx's pending_am_ops (completed by its quiet).
// Fatal, naming `routine`, for a PE outside the team, a non-symmetric or
// misaligned address.
inline std::uint64_t amo(Context& ctx, const char* routine, void* dest, unsigned width, AmoOp op, std::uint64_t value,
                         std::uint64_t cond, int pe, AmoResult result = AmoResult::wait, void* fetch = nullptr) {
    if (reinterpret_cast<std::uintptr_t>(dest) & (width - 1)) [[unlikely]]
        misaligned_amo(routine, dest, width);
    const int world = ctx.world_pe(routine, pe);
    const Translation t = ctx.locate(routine, dest, width, world);
    if (char* p = t.target.direct) [[likely]] {
        const std::uint64_t old = apply_atomic(p, width, op, value, cond);
        if (result == AmoResult::deferred) std::memcpy(fetch, &old, width);
        return old;
    }
    return amo_remote(routine, ctx.job(), *t.segment, t.offset, width, op, value, cond, world, result, fetch,
                      ctx.pending_am_ops);
}

// Registers the AMO handlers with the job's Active Message engine.
void register_amo_handlers(AmEngine& am);

}  // namespace gasket::rt
