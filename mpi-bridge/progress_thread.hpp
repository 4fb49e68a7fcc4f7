// mpi-bridge/progress_thread.hpp -- a thread that keeps polling so a process
// busy computing still serves Active Messages.
//
// It never spins idle: a poll that found work is followed by another at
// once; an idle poll (after one more) puts it to sleep on the rank's
// doorbell (doorbell.hpp), which node peers ring after each request they
// send, with a timeout that starts at `min_sleep` and doubles while idle up
// to `max_sleep` (requests from other nodes wait for it).  The poll
// function reports kAppPolling while the application polls anyway (the
// runtime also while it sends requests, which poll every few): the thread
// then naps without arming the doorbell (so senders make no wake-up
// syscalls), doubling up to `max_nap`; and kAppBlocked when it
// found nothing while the application waits in a blocking MPI call that
// does not poll: the timeout then starts at kAppBlockedMaxSleep after any
// work or ring and doubles up to `max_blocked_sleep`.  hwloc
// places it on a hardware thread no rank of this node is bound to, when
// there is one; otherwise it shares the process's binding (and, mostly
// asleep, costs the application little).
#pragma once

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "doorbell.hpp"

namespace gasket::mpi {

class ProgressThread {
public:
    // poll(context) returns how many messages it handled, kAppPolling when
    // the application is polling (the thread need not), or kAppBlocked.
    using Poll = int (*)(void* context);
    static constexpr int kAppPolling = -1;
    static constexpr int kAppBlocked = -2;  // none handled; the application waits without polling
    // Something waits for this thread's next poll (a batch of requests
    // waiting to leave: am_transport.hpp): poll again after kSoonSleep,
    // unarmed.
    static constexpr int kSoon = -3;
    static constexpr std::chrono::microseconds kSoonSleep{64};
    // The longest nap while the application polls, when every peer rings
    // the doorbell: when the application stops polling (a wait ended, a
    // compute phase began), a request waits at most this long for the
    // thread.  With peers that cannot ring (other nodes, the fast path
    // off), whose requests wait up to `max_sleep` whenever the thread
    // sleeps, naps go up to that too: each wake-up is a context switch on
    // the core the application polls from, and at 512 µs they cost a stream
    // of 512 B - 4 KiB requests through MPI 7-10% of its rate (bench-am,
    // rate table; docs/performance.md).
    static constexpr std::chrono::microseconds kRingingMaxNap{512};
    // The sleep while the application waits in a blocking MPI call without
    // polling (kAppBlocked): always at most this when some peer cannot ring
    // the doorbell (another node, whose requests wait for the timeout), so
    // such a request waits at most about this long (plus scheduling) for the
    // thread.  At the shortest sleep (8 µs) the thread's wake-ups made small
    // blocking collectives 1.3-2x slower on a node without a spare core, and
    // at 64 µs still 1.05-1.6x (each wake-up polls MPI beside the
    // application's blocking call: bench-coll, fast path off).  So where
    // every peer rings, this is where the sleep starts again after any work
    // or ring (a request the last poll may have missed: progress_thread.cpp),
    // doubling up to `max_blocked_sleep` while nothing comes.
    static constexpr std::chrono::microseconds kAppBlockedMaxSleep{64};

    // Collective over `node` (ranks of this node exchange their bindings to
    // find a spare hardware thread).  Starts the thread, which sleeps on
    // `bell` (this rank's doorbell) between polls, from `min_sleep` up to
    // `max_sleep` (at most `max_blocked_sleep` while the application blocks),
    // and naps up to `max_nap` while the application polls.
    ProgressThread(Poll poll, void* context, DoorbellLine& bell, MPI_Comm node, std::chrono::microseconds min_sleep,
                   std::chrono::microseconds max_sleep, std::chrono::microseconds max_nap,
                   std::chrono::microseconds max_blocked_sleep);
    ~ProgressThread();  // stops and joins the thread
    ProgressThread(const ProgressThread&) = delete;
    ProgressThread& operator=(const ProgressThread&) = delete;

    // Where the thread runs: "PU 3 (spare)" or "the process's binding 0-1".
    const std::string& placement() const { return placement_; }
    // Polls made and polls that found work (for tests and the benchmark).
    unsigned long polls() const { return polls_.load(std::memory_order_relaxed); }
    // Sleeps a peer's doorbell ended (for tests).
    unsigned long rung_wakeups() const { return rung_.load(std::memory_order_relaxed); }

private:
    void run();

    Poll poll_;
    void* context_;
    DoorbellLine& bell_;
    std::chrono::microseconds min_sleep_, max_sleep_, max_nap_, max_blocked_sleep_;
    int spare_pu_ = -1;  // OS index of the PU to bind to, or -1
    std::string placement_;
    std::atomic<bool> stop_{false};
    std::atomic<unsigned long> polls_{0};
    std::atomic<unsigned long> rung_{0};
    std::thread thread_;
};

}  // namespace gasket::mpi
