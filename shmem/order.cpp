// shmem/order.cpp -- §9.12 memory ordering: fence, quiet, pe_quiet, on the
// default context or on one context (its operations only).  Each raises its
// GASP event (S/E, include/gasp_shmem.h) around the runtime's call.
#include <shmem.h>

#include "context.hpp"
#include "events.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

namespace {

void fence(shmem_ctx_t h, const char* routine) {
    rt::Context& c = shmem::context_of(routine, h);
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_FENCE, GASP_START, shmem::event_handle(h));
    rt::fence(c, routine);
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_FENCE, GASP_END, shmem::event_handle(h));
}

void quiet(shmem_ctx_t h, const char* routine) {
    rt::Context& c = shmem::context_of(routine, h);
    const bool ev = gasp::on();
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_QUIET, GASP_START, shmem::event_handle(h));
    rt::quiet(c, routine);
    if (ev) [[unlikely]]
        gasp::notify(GASP_SHMEM_QUIET, GASP_END, shmem::event_handle(h));
}

void pe_quiet(shmem_ctx_t h, const char* routine, const int* target_pes, size_t npes) {
    rt::Context& c = shmem::context_of(routine, h);
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

void shmem_fence(void) noexcept { fence(SHMEM_CTX_DEFAULT, "shmem_fence"); }
void shmem_ctx_fence(shmem_ctx_t ctx) noexcept {
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.1: no operation
    fence(ctx, "shmem_ctx_fence");
}
void shmem_quiet(void) noexcept { quiet(SHMEM_CTX_DEFAULT, "shmem_quiet"); }
void shmem_ctx_quiet(shmem_ctx_t ctx) noexcept {
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.2: no operation
    quiet(ctx, "shmem_ctx_quiet");
}
void shmem_pe_quiet(const int* target_pes, size_t npes) noexcept {
    pe_quiet(SHMEM_CTX_DEFAULT, "shmem_pe_quiet", target_pes, npes);
}
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) noexcept {
    if (ctx == SHMEM_CTX_INVALID) return;
    pe_quiet(ctx, "shmem_ctx_pe_quiet", target_pes, npes);
}

}  // extern "C"
