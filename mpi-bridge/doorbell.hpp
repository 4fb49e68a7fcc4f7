// mpi-bridge/doorbell.hpp -- wakes a node peer's sleeping progress thread
// when a request is sent to it, so the thread sleeps in the kernel (a
// futex on node-shared memory) instead of waking blindly every few
// microseconds to milliseconds.
//
// One 64-byte line per rank of the node.  The progress thread arms its
// line (sleeping = 1), polls once more, and waits on `seq` with a timeout;
// a sender, after its request has left (the MPI send or the shared-memory
// inbox), reads the destination's `sleeping` and, when armed, bumps `seq`
// and wakes it: one load per request while the thread is awake, one
// syscall per wake-up while it sleeps.  A full fence on each side (after
// arming, after sending) means either the sender sees the arm or the
// thread's last poll sees the message.
//
// Peers on other nodes cannot ring (no shared memory): their requests wait
// for the thread's timeout, which doubles while idle (the caller's
// schedule).  Linux futexes; the memory is MAP_SHARED (MPI shared windows),
// so the futex is not process-private.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>

namespace gasket::mpi {

struct alignas(64) DoorbellLine {
    std::atomic<std::uint32_t> seq{0};
    std::atomic<std::uint32_t> sleeping{0};
};
static_assert(sizeof(DoorbellLine) == 64);

// The sender's side: after a request to the rank owning `line` has left.
inline void ring(DoorbellLine& line) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!line.sleeping.load(std::memory_order_relaxed)) return;
    line.sleeping.store(0, std::memory_order_relaxed);
    line.seq.fetch_add(1, std::memory_order_release);
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&line.seq), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

// The sleeper's side: arms `line`, calls poll() once more (a message that
// arrived before the arm is found there), and when it found nothing waits
// until rung or `timeout` passes.  Returns what that last poll returned.
template <class Poll>
int sleep_until_rung(DoorbellLine& line, std::chrono::microseconds timeout, Poll&& poll) {
    const std::uint32_t seq = line.seq.load(std::memory_order_acquire);
    line.sleeping.store(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const int n = poll();
    if (n <= 0) {
        timespec ts{time_t(timeout.count() / 1000000), long(timeout.count() % 1000000) * 1000};
        syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&line.seq), FUTEX_WAIT, seq, &ts, nullptr, 0);
    }
    line.sleeping.store(0, std::memory_order_relaxed);
    return n;
}

}  // namespace gasket::mpi
