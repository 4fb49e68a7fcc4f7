// src/runtime/progress.cpp -- the wait steps (see progress.hpp).
#include "progress.hpp"

#include <sched.h>

namespace gasket::rt {

void Poller::pause() {
    // Its own pace, measured: a long spin first, then a progress step at
    // every call and a yield every kPauseYieldEvery-th (the shorter
    // Backoff rhythm made an AMO to a PE waiting here 12-15% slower).
    backoff_.count_idle();
    if (backoff_.idle_steps() <= kPauseSpins) return mpi::Backoff::relax();
    progress(job_, backoff_.idle_steps() % kPauseYieldEvery == 0);
}

void Poller::serve(const char* routine) {
    if (job_.am && job_.am->poll(routine) > 0) {
        backoff_.progressed();
        return;
    }
    // No pause between polls, and a yield only with the full progress step
    // every kProgressEvery idle steps (GASNet's block mode: at every one):
    // pacing serve() like the other waits made an AMO 12-15% slower.
    backoff_.count_idle();
    if (backoff_.idle_steps() % kProgressEvery == 0)
        progress(job_, backoff_.mode() != WaitMode::spin, routine);
    else if (backoff_.mode() == WaitMode::block)
        sched_yield();
}

void Poller::wait(const char* routine) {
    if (backoff_.idle_steps() % kServeEvery == 0 && job_.am && job_.am->poll(routine) > 0) {
        backoff_.progressed();
        return;
    }
    if (backoff_.idle_steps() % kProgressEvery == kProgressEvery - 1) check_remote_exit(job_, routine);
    backoff_.idle();
}

void Poller::progress(Job& j, bool yield, const char* routine) {
    // Remote MPI puts may need this process to enter MPI to land, and other
    // PEs may share this core.
    j.sync_windows();
    if (j.am)
        j.am->poll("polling wait");
    else
        j.env->poke_progress();
    check_remote_exit(j, routine);
    if (yield) sched_yield();
}

void Poller::idle_progress(const char* routine) {
    if (job_.env->rma_needs_target()) job_.env->poke_progress();
    check_remote_exit(job_, routine);
}

void check_remote_exit(Job& j, const char* routine) {
    thread_local bool inside = false;
    int code = 0, pe = -1;
    if (inside || !j.on_remote_exit || !j.exit_channel || !j.exit_channel->notice_arrived(code, pe)) return;
    inside = true;
    j.on_remote_exit(j, code, pe, routine);
    inside = false;
}

void wait_pending(Job& j, const char* routine, std::atomic<long>& pending) {
    poll_until(j, routine, [&] { return pending.load(std::memory_order_acquire) == 0; });
}

}  // namespace gasket::rt
