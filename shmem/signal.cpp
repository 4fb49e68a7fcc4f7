// shmem/signal.cpp -- §9.8 signaling: put-with-signal (typed, sized, mem;
// blocking and nbi), signal_add/set/fetch.  The signal is an AMO (see
// src/runtime/amo.hpp) issued after the data is delivered: a direct copy is
// ordered by the release of the signal's atomic; an MPI put is completed
// at the target (MPI_Win_flush) before the signal is sent.
#include <shmem.h>

#include <atomic>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/amo.hpp"
#include "src/runtime/rma.hpp"

using namespace gasket;

namespace {

rt::AmoOp signal_op(const char* routine, int sig_op) {
    if (sig_op == SHMEM_SIGNAL_SET) return rt::AmoOp::set;
    if (sig_op == SHMEM_SIGNAL_ADD) return rt::AmoOp::fetch_add;
    rt::fatal(routine, "sig_op %d is neither SHMEM_SIGNAL_SET (%d) nor SHMEM_SIGNAL_ADD (%d)", sig_op, SHMEM_SIGNAL_SET,
              SHMEM_SIGNAL_ADD);
}

// On context `c`.
void put_signal(rt::Context& c, const char* routine, void* dest, const void* source, std::size_t bytes,
                std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe) {
    const rt::AmoOp op = signal_op(routine, sig_op);
    const int world = c.world_pe(routine, pe);
    const rt::Target t = c.resolve(routine, dest, bytes, world);  // empty (no direct, no window): nothing to put
    if (t.direct || t.window) {
        rt::put_to(c, t.direct ? nullptr : c.ring(), t, source, bytes, world, rt::Completion::local);
        if (!t.direct && bytes) c.flush(world);  // the data is at the target before the signal leaves
    }
    rt::amo(c, routine, sig_addr, sizeof(std::uint64_t), op, signal, 0, pe, rt::AmoResult::none);
}

void signal_update(rt::Context& c, const char* routine, std::uint64_t* sig_addr, std::uint64_t signal, rt::AmoOp op,
                   int pe) {
    rt::amo(c, routine, sig_addr, sizeof(std::uint64_t), op, signal, 0, pe, rt::AmoResult::none);
}

// GASP (include/gasp_shmem.h): GASP_SHMEM_PUT_SIGNAL S/E around a put with
// signal (blocking and _nbi alike: the _nbi forms complete before
// returning), GASP_SHMEM_SIGNAL_UPDATE (A) for signal_add/set.  Each entry
// point takes shmem::untraced_context's answer for its handle `h` (nullptr
// for the forms without one) and makes one null test, as the RMA and AMO
// routines do (shmem/rma.cpp): null (before shmem_init, a bad handle, a
// tool attached) takes the out-of-line path, which resolves `h` (fatal,
// naming the routine) and raises the events when a tool is attached.
template <bool Plain>
[[gnu::noinline, gnu::cold]] void put_signal_traced(shmem_ctx_t h, const char* routine, void* dest, const void* source,
                                                    std::size_t nelems, std::size_t elem, std::uint64_t* sig_addr,
                                                    std::uint64_t signal, int sig_op, int pe) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    const std::size_t bytes = rt::checked_bytes(routine, "nelems", nelems, elem);
    const bool ev = gasp::on();
    if (ev)
        gasp::notify(GASP_SHMEM_PUT_SIGNAL, GASP_START, shmem::event_handle(h), pe, dest, source, bytes,
                     std::ptrdiff_t(1), std::ptrdiff_t(1), bytes, sig_addr, signal, sig_op);
    put_signal(c, routine, dest, source, bytes, sig_addr, signal, sig_op, pe);
    if (ev)
        gasp::notify(GASP_SHMEM_PUT_SIGNAL, GASP_END, shmem::event_handle(h), pe, dest, source, bytes,
                     std::ptrdiff_t(1), std::ptrdiff_t(1), bytes, sig_addr, signal, sig_op);
}
template <bool Plain = false>
[[gnu::always_inline]] inline void put_signal_form(rt::Context* c, shmem_ctx_t h, const char* routine, void* dest,
                                                   const void* source, std::size_t nelems, std::size_t elem,
                                                   std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe) {
    if (!c) [[unlikely]]
        return put_signal_traced<Plain>(h, routine, dest, source, nelems, elem, sig_addr, signal, sig_op, pe);
    put_signal(*c, routine, dest, source, rt::checked_bytes(routine, "nelems", nelems, elem), sig_addr, signal, sig_op,
               pe);
}

template <bool Plain>
[[gnu::noinline, gnu::cold]] void signal_update_traced(shmem_ctx_t h, const char* routine, std::uint64_t* sig_addr,
                                                       std::uint64_t signal, rt::AmoOp op, int pe) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    if (gasp::on())
        gasp::notify(GASP_SHMEM_SIGNAL_UPDATE, GASP_ATOMIC, shmem::event_handle(h), sig_addr, signal,
                     op == rt::AmoOp::set ? SHMEM_SIGNAL_SET : SHMEM_SIGNAL_ADD, pe);
    signal_update(c, routine, sig_addr, signal, op, pe);
}
template <bool Plain = false>
[[gnu::always_inline]] inline void signal_update_form(rt::Context* c, shmem_ctx_t h, const char* routine,
                                                      std::uint64_t* sig_addr, std::uint64_t signal, rt::AmoOp op,
                                                      int pe) {
    if (!c) [[unlikely]]
        return signal_update_traced<Plain>(h, routine, sig_addr, signal, op, pe);
    signal_update(*c, routine, sig_addr, signal, op, pe);
}

// shmem_signal_fetch's out-of-line path (before shmem_init, a tool
// attached, or sig_addr not symmetric: fatal): GASP_SHMEM_SIGNAL_FETCH (A)
// with the value read.
[[gnu::noinline, gnu::cold]] std::uint64_t signal_fetch_traced(const std::uint64_t* sig_addr) {
    rt::Job& j = rt::job("shmem_signal_fetch");
    if (!j.segment_of(sig_addr)) j.not_symmetric("shmem_signal_fetch", sig_addr, j.my_pe);
    const std::uint64_t value =
        std::atomic_ref<std::uint64_t>(*const_cast<std::uint64_t*>(sig_addr)).load(std::memory_order_acquire);
    if (gasp::on())
        gasp::notify(GASP_SHMEM_SIGNAL_FETCH, GASP_ATOMIC, static_cast<void*>(const_cast<std::uint64_t*>(sig_addr)),
                     value);
    return value;
}

}  // namespace

extern "C" {

#define GASKET_PUT_SIGNAL_FORMS(NAME, CTXNAME, PTR, CPTR, ELEM)                                                      \
    void shmem_##NAME(PTR dest, CPTR source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op,         \
                      int pe) noexcept {                                                                             \
        put_signal_form<true>(shmem::untraced_default(), nullptr, "shmem_" #NAME, dest, source, nelems, ELEM,        \
                              sig_addr, signal, sig_op, pe);                                                         \
    }                                                                                                                \
    void shmem_##CTXNAME(shmem_ctx_t ctx, PTR dest, CPTR source, size_t nelems, uint64_t* sig_addr, uint64_t signal, \
                         int sig_op, int pe) noexcept {                                                              \
        put_signal_form(shmem::untraced_context(ctx), ctx, "shmem_" #CTXNAME, dest, source, nelems, ELEM, sig_addr,  \
                        signal, sig_op, pe);                                                                         \
    }
// The _nbi forms complete before returning, which §9.8.4 allows.
#define GASKET_PUT_SIGNAL_TYPED(T, N)                                                      \
    GASKET_PUT_SIGNAL_FORMS(N##_put_signal, ctx_##N##_put_signal, T*, const T*, sizeof(T)) \
    GASKET_PUT_SIGNAL_FORMS(N##_put_signal_nbi, ctx_##N##_put_signal_nbi, T*, const T*, sizeof(T))
GASKET_STD_RMA_TYPES(GASKET_PUT_SIGNAL_TYPED)
#undef GASKET_PUT_SIGNAL_TYPED
#define GASKET_PUT_SIGNAL_SIZED(BITS, BYTES)                                                       \
    GASKET_PUT_SIGNAL_FORMS(put##BITS##_signal, ctx_put##BITS##_signal, void*, const void*, BYTES) \
    GASKET_PUT_SIGNAL_FORMS(put##BITS##_signal_nbi, ctx_put##BITS##_signal_nbi, void*, const void*, BYTES)
GASKET_RMA_SIZES(GASKET_PUT_SIGNAL_SIZED)
#undef GASKET_PUT_SIGNAL_SIZED
GASKET_PUT_SIGNAL_FORMS(putmem_signal, ctx_putmem_signal, void*, const void*, 1)
GASKET_PUT_SIGNAL_FORMS(putmem_signal_nbi, ctx_putmem_signal_nbi, void*, const void*, 1)
#undef GASKET_PUT_SIGNAL_FORMS

#define GASKET_SIGNAL_UPDATE(NAME, OP)                                                                                 \
    void(shmem_signal_##NAME)(uint64_t * sig_addr, uint64_t signal, int pe) noexcept {                                 \
        signal_update_form<true>(shmem::untraced_default(), nullptr, "shmem_signal_" #NAME, sig_addr, signal, OP, pe); \
    }                                                                                                                  \
    void shmem_ctx_signal_##NAME(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe) noexcept {              \
        signal_update_form(shmem::untraced_context(ctx), ctx, "shmem_ctx_signal_" #NAME, sig_addr, signal, OP, pe);    \
    }
GASKET_SIGNAL_UPDATE(add, rt::AmoOp::fetch_add)
GASKET_SIGNAL_UPDATE(set, rt::AmoOp::set)
#undef GASKET_SIGNAL_UPDATE

// The untraced path tests shmem::untraced_default() (null before
// shmem_init and whenever a tool is attached) where it tested the job:
// one null test for both.
// A sig_addr that is not symmetric goes there too (fatal there, naming the
// routine): a tail call, so this path needs no stack frame.
uint64_t shmem_signal_fetch(const uint64_t* sig_addr) noexcept {
    rt::Context* c = shmem::untraced_default();
    if (!c || !c->job().segment_of(sig_addr)) [[unlikely]]
        return signal_fetch_traced(sig_addr);
    return std::atomic_ref<uint64_t>(*const_cast<uint64_t*>(sig_addr)).load(std::memory_order_acquire);
}

}  // extern "C"
