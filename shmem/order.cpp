// shmem/order.cpp -- §9.12 memory ordering: fence, quiet, pe_quiet, on the
// default context or on one context (its operations only).  Each raises its
// GASP event (S/E, include/gasp_shmem.h) around the runtime's call; with a
// tool attached the call goes out of line (*_traced), so the path without
// one is the runtime call and one test of gasp::on().  `h` is the handle
// the program named, nullptr for the forms without one (reported as
// SHMEM_CTX_DEFAULT).
#include <shmem.h>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

namespace {

[[gnu::noinline, gnu::cold]] void fence_traced(rt::Context& c, shmem_ctx_t h, const char* routine) {
    gasp::notify(GASP_SHMEM_FENCE, GASP_START, shmem::event_handle(h));
    rt::fence(c, routine);
    gasp::notify(GASP_SHMEM_FENCE, GASP_END, shmem::event_handle(h));
}
[[gnu::always_inline]] inline void fence(rt::Context& c, shmem_ctx_t h, const char* routine) {
    if (gasp::on()) [[unlikely]]
        return fence_traced(c, h, routine);
    rt::fence(c, routine);
}

[[gnu::noinline, gnu::cold]] void quiet_traced(rt::Context& c, shmem_ctx_t h, const char* routine) {
    gasp::notify(GASP_SHMEM_QUIET, GASP_START, shmem::event_handle(h));
    rt::quiet(c, routine);
    gasp::notify(GASP_SHMEM_QUIET, GASP_END, shmem::event_handle(h));
}
[[gnu::always_inline]] inline void quiet(rt::Context& c, shmem_ctx_t h, const char* routine) {
    if (gasp::on()) [[unlikely]]
        return quiet_traced(c, h, routine);
    rt::quiet(c, routine);
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

void shmem_fence(void) noexcept { fence(shmem::default_context("shmem_fence"), nullptr, "shmem_fence"); }
void shmem_ctx_fence(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_fence";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.1: no operation
    fence(shmem::context_of(routine, ctx), ctx, routine);
}
void shmem_quiet(void) noexcept { quiet(shmem::default_context("shmem_quiet"), nullptr, "shmem_quiet"); }
void shmem_ctx_quiet(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.2: no operation
    quiet(shmem::context_of(routine, ctx), ctx, routine);
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
