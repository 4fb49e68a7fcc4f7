// src/runtime/progress.cpp -- the wait policy's steps (see progress.hpp).
#include "progress.hpp"

#include <sched.h>

namespace gasket::rt {

namespace {
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
}  // namespace

void Poller::pause() {
    if (++spins_ < kSpins) {
        cpu_relax();
        return;
    }
    progress(job_, spins_ % kYieldEvery == 0);
}

void Poller::serve(const char* routine) {
    if (job_.am && job_.am->poll(routine) > 0) {
        spins_ = 0;
        return;
    }
    if (++spins_ % kServeIdle == 0) progress(job_);
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
