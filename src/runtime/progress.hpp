// src/runtime/progress.hpp -- waiting politely: the progress steps of every
// wait loop in the runtime and the APIs (quiet waiting for AMO replies,
// point-to-point waits, locks, barriers, GASNet's BLOCKUNTIL and barrier
// waits), on the one spin-then-yield rhythm of mpi::Backoff
// (mpi-bridge/backoff.hpp), which the Active Message transport's own waits
// follow too.
//
// A wait tests its own condition and, when it failed, calls one of the
// steps below.  Each counts idle steps in an mpi::Backoff and yields the
// core now and then (other PEs may share it); wait() and idle() follow
// Backoff's own rhythm (a short spin, then a yield every few steps), and
// pause() and serve() keep a pace measured for them (below).  What a step
// does:
//  - pause(): waits on local memory that other PEs write.  Spins
//    kPauseSpins steps, then every step drives progress: MPI_Win_sync
//    (public and private window copies agree before local memory is read
//    again), Active Messages served (or MPI entered once, so MPIs that
//    progress RMA only inside MPI calls deliver), with a yield every
//    kPauseYieldEvery-th.
//  - serve(): waits completed by an Active Message (an AMO reply, a count
//    of operations in flight, the network barrier, GASNET_BLOCKUNTIL):
//    serves at every step without pausing, and drives full progress with
//    a yield every kProgressEvery idle steps (GASNet's block mode yields
//    at every step, spin mode never).
//  Pacing pause() and serve() with Backoff's short rhythm made an AMO to a
//  PE waiting in shmem_wait_until 12-15% slower (bench-amo, fast path
//  off), so they keep theirs.
//  - wait(): waits on a cheap test that other PEs complete while they may
//    need this PE to serve Active Messages (GASNet's barrier in node-shared
//    memory): serves every kServeEvery idle steps (serving at every step
//    made that barrier 1.5x slower; every 8th still serves within a
//    microsecond).  GASNet's network barrier, whose test is an MPI call,
//    waits with serve(), as OpenSHMEM's does.
//  - idle(): waits that nobody else needs served (the node barrier); on
//    the MPICH family it enters MPI every kProgressEvery-th idle step
//    (passive-target RMA to this PE progresses only inside MPI there).
// Every progress step, and every kProgressEvery-th idle step of wait() and
// idle(), looks for another PE's exit notice (check_remote_exit).
#pragma once

#include <atomic>

#include "job.hpp"
#include "mpi-bridge/backoff.hpp"

namespace gasket::rt {

using WaitMode = mpi::WaitMode;

// If another PE has begun to exit (an exit notice arrived), runs
// j.on_remote_exit, which may end this process (GASNet: SIGQUIT and the
// collective exit; OpenSHMEM: the job ends if the wait outlives the exit
// timeout).  Every progress step calls it; a wait that makes none (a
// barrier in node-shared memory, gasnet_barrier_wait) calls it now and then.
// Costs one MPI_Test when the job has exit notices.  Not re-entered: a
// call from inside on_remote_exit returns at once.
void check_remote_exit(Job& j, const char* routine);

class Poller {
public:
    static constexpr unsigned kServeEvery = 8;        // wait(): idle steps between servings
    static constexpr unsigned kPauseSpins = 256;      // pause(): idle steps spinning before progress steps
    static constexpr unsigned kPauseYieldEvery = 32;  // pause(): progress steps between yields
    static constexpr unsigned kProgressEvery = 64;    // serve(): idle steps between full progress steps; wait(),
                                                      // idle(): between looks for exit notices

    // `idle_steps`: where a wait that keeps its count between calls (a
    // C macro's loop) left off; idle_steps() says where to resume.
    explicit Poller(Job& j, WaitMode mode = WaitMode::spin_block, unsigned idle_steps = 0)
        : job_(j), backoff_(mode, idle_steps) {}

    void pause();
    void serve(const char* routine);
    void wait(const char* routine);
    void idle(const char* routine) {
        if (backoff_.idle_steps() % kProgressEvery == kProgressEvery - 1) idle_progress(routine);
        backoff_.idle();
    }
    unsigned idle_steps() const { return backoff_.idle_steps(); }

    // One progress step without spinning first; the core is yielded when
    // `yield`.
    // Every progress step also checks for another PE's exit
    // (check_remote_exit), naming `routine`.
    static void progress(Job& j, bool yield = true, const char* routine = "a polling wait");

private:
    // Every kProgressEvery-th idle() step: looks for exit notices and, on
    // MPIs whose RMA needs the target inside MPI (the MPICH family:
    // Environment::rma_needs_target), enters MPI once, so a peer's flush to
    // this PE completes while it waits in the node barrier.
    void idle_progress(const char* routine);

    Job& job_;
    mpi::Backoff backoff_;
};

// Serves (Poller::serve) until `done()` is true.
template <class Done>
void poll_until(Job& j, const char* routine, Done done) {
    Poller poller(j);
    while (!done()) poller.serve(routine);
}

// Serves until `pending` (a context's count of AMOs in flight) is zero.
void wait_pending(Job& j, const char* routine, std::atomic<long>& pending);

}  // namespace gasket::rt
