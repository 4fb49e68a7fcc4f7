// src/runtime/sync.cpp
#include "sync.hpp"

namespace gasket::rt {

void pe_quiet(Context& ctx, const char* routine, const int* pes, std::size_t npes) {
    Job& j = ctx.job();
    std::atomic_thread_fence(std::memory_order_seq_cst);
    for (std::size_t i = 0; i < npes; ++i) {
        const int pe = ctx.world_pe(routine, pes[i]);
        j.check_pe(routine, pe);
        ctx.flush(pe);
    }
    if (npes > 0 && ctx.pending_am_ops.load(std::memory_order_acquire)) wait_pending(j, routine, ctx.pending_am_ops);
}

namespace {
// A barrier that keeps serving Active Messages while it waits: a PE still
// waiting for an AMO reply from a PE in the barrier must get it.
void serving_barrier(Job& j) {
    if (!j.am) return j.env->barrier();
    j.env->barrier([](void* p) { Poller::progress(*static_cast<Job*>(p)); }, &j);
}
}  // namespace

void barrier_all(const char* routine) {
    Context& ctx = default_context(routine);
    quiet(ctx, routine);
    Job& j = ctx.job();
    serving_barrier(j);
    j.sync_windows();
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

void sync_all(const char* routine) {
    Job& j = job(routine);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    serving_barrier(j);
    j.sync_windows();
}

}  // namespace gasket::rt
