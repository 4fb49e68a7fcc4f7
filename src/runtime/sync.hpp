// src/runtime/sync.hpp -- completion and ordering on a context (§9.12):
// quiet, fence, pe_quiet.  Barriers are collectives (collective.hpp);
// waiting is progress.hpp's.
#pragma once

#include <atomic>
#include <cstddef>

#include "context.hpp"
#include "fence.hpp"
#include "job.hpp"
#include "progress.hpp"

namespace gasket::rt {

// The quiet entry point (§9.12.2): completes every put, get, nbi operation
// and AMO issued on `ctx` -- its windows' MPI flush (op tracking skips
// windows with nothing outstanding), its AMOs in flight as Active Messages,
// and a full memory fence when it made direct stores or, unless the
// context is SHMEM_CTX_NOSTORE (the default context counts as one), to
// order the program's stores.
inline void quiet(Context& ctx, const char* routine) {
    if (ctx.take_direct_stores() || !ctx.nostore()) rt::full_fence();
    ctx.flush_all();
    if (ctx.pending_am_ops.load(std::memory_order_acquire)) [[unlikely]]
        wait_pending(ctx.job(), routine, ctx.pending_am_ops);
}
// The fence entry point (§9.12.1): orders ctx's puts and AMOs to each PE --
// those before the fence are delivered before those after it.  Direct
// stores: a release fence.  MPI does not order puts, so outstanding MPI
// operations are completed, and so are AMOs in flight as Active Messages.
inline void fence(Context& ctx, const char* routine) {
    std::atomic_thread_fence(std::memory_order_release);
    ctx.flush_all();
    if (ctx.pending_am_ops.load(std::memory_order_acquire)) [[unlikely]]
        wait_pending(ctx.job(), routine, ctx.pending_am_ops);
}
// pe_quiet (§9.12.3): completes ctx's operations to the `npes` PEs of
// `pes` (counted in ctx's team, each checked: fatal naming `routine`), and
// the AMOs in flight as Active Messages.
void pe_quiet(Context& ctx, const char* routine, const int* pes, std::size_t npes);

}  // namespace gasket::rt
