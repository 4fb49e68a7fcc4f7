// mpi-bridge/progress_thread.hpp -- a thread that keeps polling so a process
// busy computing still serves Active Messages.
//
// It never spins: a poll that found work halves the sleep (down to
// `min_sleep`), an idle poll doubles it (up to `max_sleep`).  The poll function
// itself may report "idle" when the application is polling anyway.  hwloc places it on a hardware thread no
// rank of this node is bound to, when there is one; otherwise it shares the
// process's binding (and, mostly asleep, costs the application little).
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace gasket::mpi {

class ProgressThread {
public:
    // poll(context) returns how many messages it handled.
    using Poll = int (*)(void* context);

    // Collective over `node` (ranks of this node exchange their bindings to
    // find a spare hardware thread).  Starts the thread.
    ProgressThread(Poll poll, void* context, MPI_Comm node, std::chrono::microseconds min_sleep,
                   std::chrono::microseconds max_sleep);
    ~ProgressThread();  // stops and joins the thread
    ProgressThread(const ProgressThread&) = delete;
    ProgressThread& operator=(const ProgressThread&) = delete;

    // Where the thread runs: "PU 3 (spare)" or "the process's binding 0-1".
    const std::string& placement() const { return placement_; }
    // Polls made and polls that found work (for tests and the benchmark).
    unsigned long polls() const { return polls_.load(std::memory_order_relaxed); }

private:
    void run();

    Poll poll_;
    void* context_;
    std::chrono::microseconds min_sleep_, max_sleep_;
    int spare_pu_ = -1;  // OS index of the PU to bind to, or -1
    std::string placement_;
    std::atomic<bool> stop_{false};
    std::atomic<unsigned long> polls_{0};
    std::thread thread_;
};

}  // namespace gasket::mpi
