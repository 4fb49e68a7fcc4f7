// shmem/order.cpp -- §9.12 memory ordering: fence, quiet, pe_quiet.
#include <shmem.h>

#include "context.hpp"
#include "src/runtime/sync.hpp"

using namespace gasket;

extern "C" {

void shmem_fence(void) { rt::fence("shmem_fence"); }
void shmem_ctx_fence(shmem_ctx_t ctx) {
    shmem::check_ctx("shmem_ctx_fence", ctx);
    rt::fence("shmem_ctx_fence");
}
void shmem_quiet(void) { rt::quiet("shmem_quiet"); }
void shmem_ctx_quiet(shmem_ctx_t ctx) {
    shmem::check_ctx("shmem_ctx_quiet", ctx);
    rt::quiet("shmem_ctx_quiet");
}
void shmem_pe_quiet(const int* target_pes, size_t npes) {
    if (npes > 0 && !target_pes) rt::fatal("shmem_pe_quiet", "target_pes is NULL with npes = %zu", npes);
    rt::pe_quiet("shmem_pe_quiet", target_pes, npes);
}
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes) {
    shmem::check_ctx("shmem_ctx_pe_quiet", ctx);
    if (npes > 0 && !target_pes) rt::fatal("shmem_ctx_pe_quiet", "target_pes is NULL with npes = %zu", npes);
    rt::pe_quiet("shmem_ctx_pe_quiet", target_pes, npes);
}

}  // extern "C"
