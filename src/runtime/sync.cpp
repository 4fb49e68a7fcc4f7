// src/runtime/sync.cpp
#include "sync.hpp"

namespace gasket::rt {

void pe_quiet(Context& ctx, const char* routine, const int* pes, std::size_t npes) {
    Job& j = ctx.job();
    rt::full_fence();
    for (std::size_t i = 0; i < npes; ++i) {
        const int pe = ctx.world_pe(routine, pes[i]);
        j.check_pe(routine, pe);
        ctx.flush(pe);
    }
    if (npes > 0 && ctx.pending_am_ops.load(std::memory_order_acquire)) wait_pending(j, routine, ctx.pending_am_ops);
}

}  // namespace gasket::rt
