// src/runtime/progress.hpp -- waiting politely: the one progress and
// back-off policy of every wait loop in the runtime and the APIs (quiet
// waiting for AMO replies, point-to-point waits, locks, barriers and
// collectives that serve Active Messages).
//
// A wait spins briefly on its own cheap test; after that every step drives
// progress -- MPI_Win_sync (public and private window copies agree before
// local memory is read again), Active Messages served (or MPI entered
// once, so MPIs that progress RMA only inside MPI calls deliver), and the
// core yielded every kYieldEvery-th step (other PEs may share it; a yield
// is a system call, so yielding at every step made a PE waiting here
// answer AMOs 0.3 µs slower).
#pragma once

#include <atomic>

#include "job.hpp"

namespace gasket::rt {

class Poller {
public:
    static constexpr unsigned kSpins = 256;      // pause() steps spent spinning first
    static constexpr unsigned kYieldEvery = 32;  // pause() yields every this many progress steps
    static constexpr unsigned kServeIdle = 64;   // serve(): idle polls before a progress step with a yield

    explicit Poller(Job& j) : job_(j) {}

    // For waits on local memory: call after each unsuccessful test.
    void pause();
    // For waits completed by an Active Message (an AMO reply, a count of
    // operations in flight): serves Active Messages at every call, and
    // after kServeIdle calls that delivered nothing, a full progress step.
    // `routine` names the wait in handler-context errors.
    void serve(const char* routine);
    // One progress step without spinning first; the core is yielded when
    // `yield`.
    // Every progress step also checks for another PE's exit
    // (check_remote_exit), naming `routine`.
    static void progress(Job& j, bool yield = true, const char* routine = "a polling wait");

private:
    Job& job_;
    unsigned spins_ = 0;
};

// If another PE has begun to exit (an exit notice arrived), runs
// j.on_remote_exit, which may end this process (GASNet: SIGQUIT and the
// collective exit; OpenSHMEM: the job ends if the wait outlives the exit
// timeout).  Every progress step calls it; a wait that makes none (a
// barrier in node-shared memory, gasnet_barrier_wait) calls it now and then.
// Costs one MPI_Test when the job has exit notices.  Not re-entered: a
// call from inside on_remote_exit returns at once.
void check_remote_exit(Job& j, const char* routine);

// Serves (Poller::serve) until `done()` is true.
template <class Done>
void poll_until(Job& j, const char* routine, Done done) {
    Poller poller(j);
    while (!done()) poller.serve(routine);
}

// Serves until `pending` (a context's count of AMOs in flight) is zero.
void wait_pending(Job& j, const char* routine, std::atomic<long>& pending);

}  // namespace gasket::rt
