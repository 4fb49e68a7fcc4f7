// src/runtime/sync.hpp -- completion, ordering, barriers and waiting on
// local memory (§9.10.1, §9.10.4, §9.11, §9.12).
#pragma once

#include <atomic>
#include <cstddef>

#include "amo.hpp"
#include "context.hpp"
#include "job.hpp"

namespace gasket::rt {

// Completes every put/get/nbi operation this PE issued: a full memory fence
// if direct stores were made since the last quiet (so they are visible
// before any later load or store), and an MPI flush of windows with
// outstanding operations.
inline void quiet(const char* routine) {
    Job& j = job(routine);
    if (j.take_direct_stores()) std::atomic_thread_fence(std::memory_order_seq_cst);
    j.flush_all();
    if (j.pending_am_ops.load(std::memory_order_acquire)) [[unlikely]]
        j.wait_am_ops(routine);
}

// Orders puts and AMOs to each PE: those before the fence are delivered
// before those after it.  Direct stores: a release fence.  MPI does not
// order puts, so outstanding MPI operations are completed, and so are AMOs
// in flight as Active Messages.
inline void fence(const char* routine) {
    Job& j = job(routine);
    std::atomic_thread_fence(std::memory_order_release);
    j.flush_all();
    // AMOs sent as Active Messages are ordered by completing them.
    if (j.pending_am_ops.load(std::memory_order_acquire)) [[unlikely]]
        j.wait_am_ops(routine);
}

// Completes operations to the listed PEs (each checked), and the AMOs in
// flight as Active Messages.
void pe_quiet(const char* routine, const int* pes, std::size_t npes);

// quiet on a context: completes that context's operations only -- its own
// windows' flush (or the shared default windows' when it has none of its
// own), its own AMOs in flight, and a full fence when it made direct
// stores or, unless SHMEM_CTX_NOSTORE, to order the program's stores.
inline void quiet(Context& ctx, const char* routine) {
    if (ctx.take_direct_stores() || !ctx.nostore()) std::atomic_thread_fence(std::memory_order_seq_cst);
    ctx.flush_all();
    if (ctx.pending_am_ops.load(std::memory_order_acquire)) [[unlikely]]
        wait_pending(job(routine), routine, ctx.pending_am_ops);
}
// fence on a context: as fence(), for this context's operations.
inline void fence(Context& ctx, const char* routine) {
    std::atomic_thread_fence(std::memory_order_release);
    ctx.flush_all();
    if (ctx.pending_am_ops.load(std::memory_order_acquire)) [[unlikely]]
        wait_pending(job(routine), routine, ctx.pending_am_ops);
}
// pe_quiet on a context: `pes` count in the context's team.
void pe_quiet(Context& ctx, const char* routine, const int* pes, std::size_t npes);

// quiet, then a barrier over all PEs.
void barrier_all(const char* routine);
// A barrier over all PEs; completes nothing.
void sync_all(const char* routine);

// Polls local symmetric memory politely: spins briefly, then drives MPI
// progress and serves Active Messages on every call, yielding the core on
// every 32nd (a yield is a system call: yielding on every poll made a PE
// waiting here answer AMOs 0.3 µs slower).  Call after each unsuccessful
// test.
class Poller {
public:
    explicit Poller(Job& j) : job_(j) {}
    void pause();
    // One polite step without spinning first: MPI_Win_sync, MPI progress
    // and Active Messages, then yield the core when `yield`.
    static void progress(Job& j, bool yield = true);

private:
    Job& job_;
    unsigned spins_ = 0;
};

}  // namespace gasket::rt
