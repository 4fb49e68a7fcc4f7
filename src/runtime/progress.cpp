// src/runtime/progress.cpp -- the wait steps (see progress.hpp).
#include "progress.hpp"

#include <sched.h>

namespace gasket::rt {

void Poller::pause() {
    if (backoff_.yielding()) progress(job_, false);
    backoff_.idle();
}

void Poller::serve(const char* routine) {
    if (job_.am && job_.am->poll(routine) > 0) {
        backoff_.progressed();
        return;
    }
    if (backoff_.idle_steps() % kProgressEvery == kProgressEvery - 1) progress(job_, false);
    backoff_.idle();
}

void Poller::wait(const char* routine) {
    if (backoff_.idle_steps() % kServeEvery == 0 && job_.am && job_.am->poll(routine) > 0) {
        backoff_.progressed();
        return;
    }
    backoff_.idle();
}

void Poller::progress(Job& j, bool yield) {
    // Remote MPI puts may need this process to enter MPI to land, and other
    // PEs may share this core.
    j.sync_windows();
    if (j.am)
        j.am->poll("polling wait");
    else
        j.env->poke_progress();
    if (yield) sched_yield();
}

void wait_pending(Job& j, const char* routine, std::atomic<long>& pending) {
    poll_until(j, routine, [&] { return pending.load(std::memory_order_acquire) == 0; });
}

}  // namespace gasket::rt
