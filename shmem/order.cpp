// shmem/order.cpp -- §9.12 memory ordering: fence, quiet, pe_quiet, on the
// default context or on one context (its operations only).
#include <shmem.h>

#include "context.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

extern "C" {

void shmem_fence(void) { rt::fence("shmem_fence"); }
void shmem_ctx_fence(shmem_ctx_t ctx) {
    const char* routine = "shmem_ctx_fence";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.1: no operation
    if (rt::Context* c = shmem::context_of(routine, ctx))
        rt::fence(*c, routine);
    else
        rt::fence(routine);
}
void shmem_quiet(void) { rt::quiet("shmem_quiet"); }
void shmem_ctx_quiet(shmem_ctx_t ctx) {
    const char* routine = "shmem_ctx_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;  // §9.12.2: no operation
    if (rt::Context* c = shmem::context_of(routine, ctx))
        rt::quiet(*c, routine);
    else
        rt::quiet(routine);
}
void shmem_pe_quiet(const int* target_pes, size_t npes) {
    if (npes > 0 && !target_pes) rt::fatal("shmem_pe_quiet", "target_pes is NULL with npes = %zu", npes);
    rt::pe_quiet("shmem_pe_quiet", target_pes, npes);
}
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) {
    const char* routine = "shmem_ctx_pe_quiet";
    if (ctx == SHMEM_CTX_INVALID) return;
    rt::Context* c = shmem::context_of(routine, ctx);
    if (npes > 0 && !target_pes) rt::fatal(routine, "target_pes is NULL with npes = %zu", npes);
    if (c)
        rt::pe_quiet(*c, routine, target_pes, npes);
    else
        rt::pe_quiet(routine, target_pes, npes);
}

}  // extern "C"
