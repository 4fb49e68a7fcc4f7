// shmem/order.cpp -- §9.12 memory ordering: fence, quiet, pe_quiet, on the
// default context or on one context (its operations only).
#include <shmem.h>

#include "context.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

extern "C" {

void shmem_fence(void) noexcept { rt::fence(shmem::default_context("shmem_fence"), "shmem_fence"); }
void shmem_ctx_fence(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_fence";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.1: no operation
    rt::fence(shmem::context_of(routine, ctx), routine);
}
void shmem_quiet(void) noexcept { rt::quiet(shmem::default_context("shmem_quiet"), "shmem_quiet"); }
void shmem_ctx_quiet(shmem_ctx_t ctx) noexcept {
    const char* routine = "shmem_ctx_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.2: no operation
    rt::quiet(shmem::context_of(routine, ctx), routine);
}
void shmem_pe_quiet(const int* target_pes, size_t npes) noexcept {
    const char* routine = "shmem_pe_quiet";
    rt::Context& c = shmem::default_context(routine);
    if (npes > 0 && !target_pes) rt::fatal(routine, "target_pes is NULL with npes = %zu", npes);
    rt::pe_quiet(c, routine, target_pes, npes);
}
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) noexcept {
    const char* routine = "shmem_ctx_pe_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;
    rt::Context& c = shmem::context_of(routine, ctx);
    if (npes > 0 && !target_pes) rt::fatal(routine, "target_pes is NULL with npes = %zu", npes);
    rt::pe_quiet(c, routine, target_pes, npes);
}

}  // extern "C"
