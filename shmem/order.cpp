// shmem/order.cpp -- §9.12 memory ordering: fence, quiet, pe_quiet, on the
// default context or on one context (its operations only).  Each raises its
// GASP event (S/E, include/gasp_shmem.h) around the runtime's call; with a
// tool attached fence and quiet go out of line (*_traced), so the path
// without one is the runtime call, reached through the handle's null test
// (shmem::untraced_context).  `h` is the handle the program named,
// nullptr (reported as SHMEM_CTX_DEFAULT) for the forms without one.
#include <shmem.h>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

namespace {

// fence and quiet: `c` is shmem::untraced_context's answer for `h`; null
// (before shmem_init, a bad handle, a tool attached) takes the out-of-line
// *_traced path, which resolves `h` (fatal, naming the routine) and raises
// the events when a tool is attached.
template <bool Plain>
[[gnu::noinline, gnu::cold]] void fence_traced(shmem_ctx_t h, const char* routine) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    const bool ev = gasp::on();
    if (ev) gasp::notify(GASP_SHMEM_FENCE, GASP_START, shmem::event_handle(h));
    rt::fence(c, routine);
    if (ev) gasp::notify(GASP_SHMEM_FENCE, GASP_END, shmem::event_handle(h));
}
template <bool Plain = false>
[[gnu::always_inline]] inline void fence(rt::Context* c, shmem_ctx_t h, const char* routine) {
    if (!c) [[unlikely]]
        return fence_traced<Plain>(h, routine);
    rt::fence(*c, routine);
}

template <bool Plain>
[[gnu::noinline, gnu::cold]] void quiet_traced(shmem_ctx_t h, const char* routine) {
    rt::Context& c = shmem::context_of_form<Plain>(routine, h);
    const bool ev = gasp::on();
    if (ev) gasp::notify(GASP_SHMEM_QUIET, GASP_START, shmem::event_handle(h));
    rt::quiet(c, routine);
    if (ev) gasp::notify(GASP_SHMEM_QUIET, GASP_END, shmem::event_handle(h));
}
template <bool Plain = false>
[[gnu::always_inline]] inline void quiet(rt::Context* c, shmem_ctx_t h, const char* routine) {
    if (!c) [[unlikely]]
        return quiet_traced<Plain>(h, routine);
    rt::quiet(*c, routine);
}

void pe_quiet(rt::Context& c, shmem_ctx_t h, const char* routine, const int* target_pes, size_t npes) {
    if (npes > 0 && !target_pes) rt::fatal(routine, "target_pes is NULL with npes = %zu", npes);
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_PE_QUIET, GASP_START, shmem::event_handle(h), target_pes, npes);
    rt::pe_quiet(c, routine, target_pes, npes);
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_PE_QUIET, GASP_END, shmem::event_handle(h), target_pes, npes);
}

}  // namespace

extern "C" {

void shmem_fence(void) noexcept { fence<true>(shmem::untraced_default(), nullptr, "shmem_fence"); }
void shmem_ctx_fence(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_fence";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.1: no operation
    fence(shmem::untraced_context(ctx), ctx, routine);
}
void shmem_quiet(void) noexcept { quiet<true>(shmem::untraced_default(), nullptr, "shmem_quiet"); }
void shmem_ctx_quiet(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.2: no operation
    quiet(shmem::untraced_context(ctx), ctx, routine);
}
void shmem_pe_quiet(const int* target_pes, size_t npes) noexcept {
    const char* routine = "shmem_pe_quiet";
    pe_quiet(shmem::default_context(routine), nullptr, routine, target_pes, npes);
}
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) noexcept {
    const char* routine = "shmem_ctx_pe_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;
    pe_quiet(shmem::context_of(routine, ctx), ctx, routine, target_pes, npes);
}

}  // extern "C"
